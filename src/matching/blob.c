/* The motion database as one binary blob, so an engine builds it offline and loads it fast.
 *
 * Layout (every number little-endian whatever the machine; floats as their IEEE-754 bits):
 *   header, 32 bytes: magic "AKMDB\r\n\x1a" (8), version u32, header size u32, payload bytes
 *   u64, CRC-32 (IEEE, reflected 0xEDB88320) of the payload u32, 0 u32;
 *   payload: counts, the skeleton, the humanoid map, then every per-frame array of the
 *   database and its normalisation, the foot calibration (version 2: with the toe point), the
 *   root-motion joint's report (version 3: ak_motion_db_root_joint, 7 words); the search
 *   arrays are rebuilt on load from those.
 * A reader checks the magic, the version, the reserved word, the sizes against the bytes it
 * has, the checksum, every index (parents, tracks, ranges, clips, the stand frame), and every
 * number's range like a parameter's (finite is not enough): rotation keys unit quaternions,
 * positions within a BVH's bounds (anim/reach.h), times and scales positive. A checksum only
 * proves the bytes are the ones written: a writer that stored garbage would pass it. */
#include "animkit/matching.h"
#include "anim/reach.h"
#include "io/file.h"
#include "matching/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLOB_VERSION 3u
#define BLOB_HEADER  32u
static const unsigned char blob_magic[8] = {'A', 'K', 'M', 'D', 'B', '\r', '\n', 0x1a};

/* Limits a reader accepts (a blob beyond them is refused, never allocated). */
#define BLOB_MAX_JOINTS 4096
#define BLOB_MAX_FRAMES 20000000
#define BLOB_MAX_CLIPS  100000
/* |q| of a stored rotation within 1 +- this: keys are normalised floats (|q| - 1 ~ 1e-7), so
 * 1e-3 refuses only what no writer produced. */
#define BLOB_UNIT_TOLERANCE 1e-3

static uint32_t crc32_bytes(const unsigned char *p, size_t n)
{
    /* nibble table of the reflected IEEE polynomial */
    static const uint32_t t[16] = {0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu,
                                   0x76dc4190u, 0x6b6b51f4u, 0x4db26158u, 0x5005713cu,
                                   0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
                                   0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu};
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        c = (c >> 4) ^ t[c & 15u];
        c = (c >> 4) ^ t[c & 15u];
    }
    return c ^ 0xffffffffu;
}

/* ---- writing ---- */

typedef struct wbuf {
    unsigned char *p; /* NULL: only count */
    size_t n;
} wbuf;

static void put_u32(wbuf *w, uint32_t v)
{
    if (w->p)
        for (int i = 0; i < 4; ++i)
            w->p[w->n + (size_t)i] = (unsigned char)(v >> (8 * i));
    w->n += 4;
}
static void put_i32(wbuf *w, int32_t v)
{
    put_u32(w, (uint32_t)v);
}
static void put_f32(wbuf *w, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    put_u32(w, u);
}
static void put_floats(wbuf *w, const float *v, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        put_f32(w, v[i]);
}
static void put_bytes(wbuf *w, const void *v, size_t n)
{
    if (w->p) memcpy(w->p + w->n, v, n);
    w->n += n;
}

static void put_skeleton(wbuf *w, const ak_skeleton *sk)
{
    for (int32_t j = 0; j < sk->joint_count; ++j) {
        put_bytes(w, sk->names[j], AK_NAME_MAX);
        put_i32(w, sk->parents[j]);
        put_floats(w, &sk->rest_local[j].rotation.x, 4);
        put_floats(w, &sk->rest_local[j].translation.x, 3);
        put_bytes(w, &sk->channels[j].count, 1);
        put_bytes(w, sk->channels[j].kind, 6);
        put_bytes(w, &sk->is_end_site[j], 1);
    }
}

static void put_arrays(wbuf *w, const ak_motion_db *db);

/* The payload (after the header): counts, skeleton, map, frames, normalisation. */
static void put_payload(wbuf *w, const ak_motion_db *db)
{
    const int32_t counts[5] = {db->J, db->F, db->T, db->clip_count, db->range_count};
    for (int i = 0; i < 5; ++i)
        put_i32(w, counts[i]);
    put_f32(w, db->frame_time);
    put_f32(w, db->metres_per_unit);
    put_i32(w, db->units);
    put_skeleton(w, db->skeleton);
    put_arrays(w, db);
}

size_t ak_motion_db_blob_size(const ak_motion_db *db)
{
    if (!db) return 0;
    wbuf w = {NULL, 0};
    put_payload(&w, db);
    return BLOB_HEADER + w.n;
}

int32_t ak_motion_db_save_memory(const ak_motion_db *db, void *buffer, size_t capacity,
                                 ak_error *err)
{
    if (!db || !buffer) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    const size_t need = ak_motion_db_blob_size(db);
    if (capacity < need)
        return ak_error_set(err, AK_ERR_LIMIT, 0, "the blob needs %llu bytes, the buffer has %llu",
                            (unsigned long long)need, (unsigned long long)capacity);
    unsigned char *out = (unsigned char *)buffer;
    wbuf w = {out + BLOB_HEADER, 0};
    put_payload(&w, db);
    wbuf h = {out, 0};
    put_bytes(&h, blob_magic, 8);
    put_u32(&h, BLOB_VERSION);
    put_u32(&h, BLOB_HEADER);
    put_u32(&h, (uint32_t)((uint64_t)w.n & 0xffffffffu));
    put_u32(&h, (uint32_t)((uint64_t)w.n >> 32));
    put_u32(&h, crc32_bytes(out + BLOB_HEADER, w.n));
    put_u32(&h, 0);
    return AK_OK;
}

int32_t ak_motion_db_save_file(const ak_motion_db *db, const char *path, ak_error *err)
{
    if (!db || !path) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    const size_t n = ak_motion_db_blob_size(db);
    void *buf = malloc(n);
    if (!buf)
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory (%llu bytes)",
                            (unsigned long long)n);
    int32_t st = ak_motion_db_save_memory(db, buf, n, err);
    if (st == AK_OK) st = akio_write_file(path, buf, n, err);
    free(buf);
    return st;
}

/* ---- reading ---- */

typedef struct rbuf {
    const unsigned char *p;
    size_t n, at;
} rbuf;

static uint32_t get_u32(rbuf *r)
{
    uint32_t v = 0;
    if (r->at + 4 > r->n) {
        r->at = r->n + 1; /* sticky overrun */
        return 0;
    }
    for (int i = 0; i < 4; ++i)
        v |= (uint32_t)r->p[r->at + (size_t)i] << (8 * i);
    r->at += 4;
    return v;
}
static int32_t get_i32(rbuf *r)
{
    return (int32_t)get_u32(r);
}
static float get_f32(rbuf *r)
{
    const uint32_t u = get_u32(r);
    float v;
    memcpy(&v, &u, 4);
    return v;
}
static void get_floats(rbuf *r, float *v, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        v[i] = get_f32(r);
}
static void get_bytes(rbuf *r, void *v, size_t n)
{
    if (r->at + n > r->n) {
        r->at = r->n + 1;
        return;
    }
    memcpy(v, r->p + r->at, n);
    r->at += n;
}

/* Payload bytes the counts imply (the reader compares it with what it was given). */
static uint64_t payload_bytes(uint64_t J, uint64_t F, uint64_t T, uint64_t C, uint64_t R)
{
    const uint64_t joint = AK_NAME_MAX + 4 + 28 + 8;
    return 32 + J * joint + 4 * AK_HUM_SLOT_COUNT + 4 * T + F * (16 * J + 12 * T + 12 + 4 + 3) +
           F * 8 + C * 64 + 4 * (R + 1) + F * 4 * AK_MATCH_FEATURES +
           4 * (2 * AK_MATCH_FEATURES + AK_MATCH_GROUPS) + 4 * 8 + 4 * 6 + 4 * 2 + 4 * 3 + 4 * 7;
}

static int32_t get_skeleton(rbuf *r, int32_t J, ak_skeleton **out, ak_error *err)
{
    char(*names)[AK_NAME_MAX] = (char(*)[AK_NAME_MAX])calloc((size_t)J, AK_NAME_MAX);
    const char **name_ptr = (const char **)calloc((size_t)J, sizeof(char *));
    int32_t *parents = (int32_t *)calloc((size_t)J, sizeof(int32_t));
    ak_xform *rest = (ak_xform *)calloc((size_t)J, sizeof(ak_xform));
    ak_channel_layout *ch = (ak_channel_layout *)calloc((size_t)J, sizeof(ak_channel_layout));
    uint8_t *end = (uint8_t *)calloc((size_t)J, 1);
    int32_t st = AK_OK;
    if (!names || !name_ptr || !parents || !rest || !ch || !end)
        st = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; st == AK_OK && j < J; ++j) {
        get_bytes(r, names[j], AK_NAME_MAX);
        names[j][AK_NAME_MAX - 1] = '\0';
        name_ptr[j] = names[j];
        parents[j] = get_i32(r);
        get_floats(r, &rest[j].rotation.x, 4);
        get_floats(r, &rest[j].translation.x, 3);
        get_bytes(r, &ch[j].count, 1);
        get_bytes(r, ch[j].kind, 6);
        get_bytes(r, &end[j], 1);
        if (ch[j].count > 6) ch[j].count = 0;
    }
    if (st == AK_OK) {
        const ak_skeleton_desc d = {J, name_ptr, parents, rest, ch, end};
        st = ak_skeleton_create(&d, out, err);
    }
    free(names);
    free(name_ptr);
    free(parents);
    free(rest);
    free(ch);
    free(end);
    return st;
}

static int finite_run(const float *v, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(v[i])) return 0;
    return 1;
}

/* Every stored float is finite and the scales and the frame calibration are positive. */
static int all_finite(const ak_motion_db *db)
{
    const size_t F = (size_t)db->F;
    return finite_run(&db->rot[0].x, F * (size_t)db->J * 4) &&
           finite_run(&db->trans[0].x, F * (size_t)db->T * 3) &&
           finite_run(&db->delta[0].x, F * 3) && finite_run(db->dturn, F) &&
           finite_run(db->frame_time_src, F) && finite_run(db->raw, F * AK_MATCH_FEATURES) &&
           finite_run(db->offset, AK_MATCH_FEATURES) && finite_run(db->scale, AK_MATCH_FEATURES) &&
           finite_run(db->weights, AK_MATCH_GROUPS) && finite_run(db->sole_height, 2) &&
           finite_run(&db->foot_up_local[0].x, 6) && finite_run(&db->toe_local[0].x, 6) &&
           isfinite(db->min_speed) && isfinite(db->max_speed) &&
           finite_run(&db->root_joint.travel, 1) && finite_run(&db->root_joint.top_travel, 1) &&
           finite_run(&db->root_joint.height, 1);
}

/* 1 when the root-motion joint's report names joints of the skeleton: `top` the top joint
 * above `joint` (ak_root_joint_find's rule), `body` any joint, a known reason. */
static int root_joint_indices(const ak_motion_db *db)
{
    const ak_root_joint_report *r = &db->root_joint;
    if (r->joint < 0 || r->joint >= db->J || r->top < 0 || r->top >= db->J || r->body < 0 ||
        r->body >= db->J || r->reason < AK_ROOT_JOINT_TOP_TRAVELS ||
        r->reason > AK_ROOT_JOINT_NAMED)
        return 0;
    int32_t top = r->joint;
    while (db->skeleton->parents[top] >= 0)
        top = db->skeleton->parents[top];
    return top == r->top;
}

/* 0 when every index the database uses points inside it. */
static int32_t check_indices(const ak_motion_db *db, ak_error *err)
{
    for (int s = 0; s < AK_HUM_SLOT_COUNT; ++s)
        if (db->humanoid.joint[s] < -1 || db->humanoid.joint[s] >= db->J) goto bad;
    for (int s = 0; s < 2; ++s)
        if (db->humanoid.joint[s == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT] < 0) goto bad;
    if (db->humanoid.joint[AK_HUM_HIPS] < 0) goto bad;
    for (int32_t t = 0; t < db->T; ++t)
        if (db->track_joint[t] < 0 || db->track_joint[t] >= db->J ||
            (t > 0 && db->track_joint[t] <= db->track_joint[t - 1]))
            goto bad;
    if (db->track_joint[0] != 0 || db->range_start[0] != 0 ||
        db->range_start[db->range_count] != db->F || db->stand_frame < 0 ||
        db->stand_frame >= db->F || (uint32_t)db->has_toe[0] > 1u || (uint32_t)db->has_toe[1] > 1u)
        goto bad;
    for (int32_t i = 0; i < db->range_count; ++i)
        if (db->range_start[i + 1] <= db->range_start[i]) goto bad;
    if (!root_joint_indices(db)) goto bad;
    for (int32_t f = 0; f < db->F; ++f)
        if (db->frame_clip[f] < 0 || db->frame_clip[f] >= db->clip_count || db->cand[f] > 1 ||
            db->contact[2 * f] > (AK_CONTACT_HEEL | AK_CONTACT_TOE) ||
            db->contact[2 * f + 1] > (AK_CONTACT_HEEL | AK_CONTACT_TOE))
            goto bad;
    for (int32_t c = 0; c < db->clip_count; ++c)
        db->clip_names[c][63] = '\0';
    if (!all_finite(db))
        return ak_error_set(err, AK_ERR_PARSE, 0,
                            "motion database blob: a "
                            "number is not finite");
    return AK_OK;
bad:
    return ak_error_set(err, AK_ERR_PARSE, 0, "motion database blob: an index is out of range");
}

/* |q| within 1 +- BLOB_UNIT_TOLERANCE for n quaternions. */
static int unit_quats(const ak_quat *q, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        const double len = sqrt((double)q[i].x * q[i].x + (double)q[i].y * q[i].y +
                                (double)q[i].z * q[i].z + (double)q[i].w * q[i].w);
        if (!(fabs(len - 1.0) <= BLOB_UNIT_TOLERANCE)) return 0;
    }
    return 1;
}

/* Every value within [lo, hi] (NaN fails). */
static int within(const float *v, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; ++i)
        if (!(v[i] >= lo && v[i] <= hi)) return 0;
    return 1;
}

/* Ranges after the indices: what a matcher, FK and the walker may assume of a database. The
 * keys seen as a clip on the skeleton must keep every joint within AK_MAX_REACH of the
 * origin, the bound the BVH reader holds files to. */
static int32_t check_ranges(const ak_motion_db *db, ak_error *err)
{
    const size_t F = (size_t)db->F, J = (size_t)db->J;
    const double reach = AK_MAX_REACH;
    const char *why = NULL;
    if (!unit_quats(db->rot, F * J)) why = "a rotation key is not a unit quaternion";
    for (size_t j = 0; !why && j < J; ++j)
        if (!unit_quats(&db->skeleton->rest_local[j].rotation, 1))
            why = "a rest rotation is not a unit quaternion";
    /* the keys as a clip (track of each joint) for the reach rule of the BVH reader */
    int32_t *joint_track = (int32_t *)malloc(sizeof(int32_t) * J);
    if (!joint_track) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (size_t j = 0; j < J; ++j)
        joint_track[j] = -1;
    for (int32_t t = 0; t < db->T; ++t)
        joint_track[db->track_joint[t]] = t;
    ak_clip keys;
    memset(&keys, 0, sizeof keys);
    keys.joint_count = db->J;
    keys.frame_count = db->F;
    keys.track_count = db->T;
    keys.joint_track = joint_track;
    keys.translations = db->trans;
    const int32_t beyond = why ? -1 : akanim_first_joint_beyond(db->skeleton, &keys, reach, NULL);
    free(joint_track);
    if (beyond == -2) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    if (beyond >= 0) why = "a translation key puts a joint beyond the bounds a BVH file may reach";
    if (!why && (!within(&db->delta[0].x, F * 3, -reach, reach) ||
                 !within(db->dturn, F, -6.2831853, 6.2831853)))
        why = "a root-motion delta is out of range";
    /* a time in a source clip: at most BLOB_MAX_FRAMES frames of at most 1 s */
    if (!why && !within(db->frame_time_src, F, 0.0, (double)BLOB_MAX_FRAMES))
        why = "a time in a source clip is negative or past any clip's end";
    if (!why && (!within(db->raw, F * AK_MATCH_FEATURES, -reach, reach) ||
                 !within(db->offset, AK_MATCH_FEATURES, -reach, reach) ||
                 !within(db->scale, AK_MATCH_FEATURES, 1e-30, reach) ||
                 !within(db->weights, AK_MATCH_GROUPS, 0.0, 1e6)))
        why = "a feature, its normalisation or a weight is out of range";
    if (!why &&
        (!within(db->sole_height, 2, -reach, reach) ||
         !within(&db->foot_up_local[0].x, 6, -reach, reach) ||
         !within(&db->toe_local[0].x, 6, -reach, reach) ||
         !(db->min_speed >= 0.0f && db->min_speed <= db->max_speed && db->max_speed <= 1e6f)))
        why = "the foot calibration or the speed range is out of range";
    /* the report's reaches and height: file-unit distances a BVH file may hold */
    if (!why && (!within(&db->root_joint.travel, 1, 0.0, reach) ||
                 !within(&db->root_joint.top_travel, 1, 0.0, reach) ||
                 !within(&db->root_joint.height, 1, 0.0, reach)))
        why = "the root-motion joint's reach or height is out of range";
    if (why) return ak_error_set(err, AK_ERR_PARSE, 0, "motion database blob: %s", why);
    return AK_OK;
}

/* ---- the arrays after the skeleton: one list for writing and reading ---- */

/* One direction over the payload's arrays: w set writes them from db, else r reads them in. */
typedef struct xfer {
    wbuf *w;
    rbuf *r;
} xfer;

static void xfer_i32s(xfer *x, int32_t *v, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (x->w)
            put_i32(x->w, v[i]);
        else
            v[i] = get_i32(x->r);
    }
}
static void xfer_floats(xfer *x, float *v, size_t n)
{
    if (x->w)
        put_floats(x->w, v, n);
    else
        get_floats(x->r, v, n);
}
static void xfer_bytes(xfer *x, void *v, size_t n)
{
    if (x->w)
        put_bytes(x->w, v, n);
    else
        get_bytes(x->r, v, n);
}

/* The humanoid map, the per-frame arrays, the normalisation and the foot calibration, in
 * blob order (the counts and the skeleton come before). */
static void xfer_arrays(xfer *x, ak_motion_db *db)
{
    const size_t F = (size_t)db->F, J = (size_t)db->J, T = (size_t)db->T;
    xfer_i32s(x, db->humanoid.joint, AK_HUM_SLOT_COUNT);
    xfer_i32s(x, db->track_joint, T);
    xfer_floats(x, &db->rot[0].x, F * J * 4);
    xfer_floats(x, &db->trans[0].x, F * T * 3);
    xfer_floats(x, &db->delta[0].x, F * 3);
    xfer_floats(x, db->dturn, F);
    xfer_bytes(x, db->contact, F * 2);
    xfer_bytes(x, db->cand, F);
    xfer_i32s(x, db->frame_clip, F);
    xfer_floats(x, db->frame_time_src, F);
    xfer_bytes(x, db->clip_names, (size_t)db->clip_count * 64);
    xfer_i32s(x, db->range_start, (size_t)db->range_count + 1);
    xfer_floats(x, db->raw, F * AK_MATCH_FEATURES);
    xfer_floats(x, db->offset, AK_MATCH_FEATURES);
    xfer_floats(x, db->scale, AK_MATCH_FEATURES);
    xfer_floats(x, db->weights, AK_MATCH_GROUPS);
    xfer_floats(x, db->sole_height, 2);
    for (int s = 0; s < 2; ++s)
        xfer_floats(x, &db->foot_up_local[s].x, 3);
    for (int s = 0; s < 2; ++s)
        xfer_floats(x, &db->toe_local[s].x, 3);
    xfer_i32s(x, db->has_toe, 2);
    xfer_i32s(x, &db->stand_frame, 1);
    xfer_floats(x, &db->min_speed, 1);
    xfer_floats(x, &db->max_speed, 1);
    ak_root_joint_report *r = &db->root_joint;
    xfer_i32s(x, &r->joint, 1);
    xfer_i32s(x, &r->top, 1);
    xfer_i32s(x, &r->reason, 1);
    xfer_floats(x, &r->travel, 1);
    xfer_floats(x, &r->top_travel, 1);
    xfer_floats(x, &r->height, 1);
    xfer_i32s(x, &r->body, 1);
}

/* Writing only reads db: the cast lets the one list serve both directions. */
static void put_arrays(wbuf *w, const ak_motion_db *db)
{
    xfer x = {w, NULL};
    xfer_arrays(&x, (ak_motion_db *)db);
}

static void get_payload(rbuf *r, ak_motion_db *db)
{
    xfer x = {NULL, r};
    xfer_arrays(&x, db);
}

/* Header: magic, version, sizes, checksum. Writes the payload's bounds. */
static int32_t check_header(const unsigned char *p, size_t bytes, rbuf *payload, ak_error *err)
{
    if (bytes < BLOB_HEADER || memcmp(p, blob_magic, 8) != 0)
        return ak_error_set(err, AK_ERR_PARSE, 0, "not a motion database blob (bad magic)");
    rbuf h = {p, bytes, 8};
    const uint32_t version = get_u32(&h), header = get_u32(&h);
    const uint64_t lo = get_u32(&h), hi = get_u32(&h);
    const uint64_t n = lo | (hi << 32);
    const uint32_t crc = get_u32(&h), reserved = get_u32(&h);
    if (version != BLOB_VERSION)
        return ak_error_set(err, AK_ERR_PARSE, 0,
                            "motion database blob version %u, this animkit reads version %u",
                            (unsigned)version, (unsigned)BLOB_VERSION);
    if (header != BLOB_HEADER || n != (uint64_t)(bytes - BLOB_HEADER))
        return ak_error_set(err, AK_ERR_PARSE, 0,
                            "motion database blob truncated or padded: %llu payload bytes "
                            "announced, %llu present",
                            (unsigned long long)n, (unsigned long long)(bytes - BLOB_HEADER));
    if (reserved != 0)
        return ak_error_set(err, AK_ERR_PARSE, 0,
                            "motion database blob: the header's reserved word is %u, not 0",
                            (unsigned)reserved);
    if (crc32_bytes(p + BLOB_HEADER, (size_t)n) != crc)
        return ak_error_set(err, AK_ERR_PARSE, 0, "motion database blob: checksum mismatch");
    payload->p = p + BLOB_HEADER;
    payload->n = (size_t)n;
    payload->at = 0;
    return AK_OK;
}

static int32_t read_counts(rbuf *r, ak_motion_db *db, ak_error *err)
{
    db->J = get_i32(r);
    db->F = get_i32(r);
    db->T = get_i32(r);
    db->clip_count = get_i32(r);
    db->range_count = get_i32(r);
    db->frame_time = get_f32(r);
    db->metres_per_unit = get_f32(r);
    db->units = get_i32(r);
    if (db->J < 1 || db->J > BLOB_MAX_JOINTS || db->F < 1 || db->F > BLOB_MAX_FRAMES || db->T < 1 ||
        db->T > db->J || db->clip_count < 1 || db->clip_count > BLOB_MAX_CLIPS ||
        db->range_count < 1 || db->range_count > db->F || !(db->frame_time > 0.0f) ||
        !(db->frame_time <= 1.0f) || !(db->metres_per_unit > 0.0f))
        return ak_error_set(err, AK_ERR_PARSE, 0, "motion database blob: counts out of range");
    if (payload_bytes((uint64_t)db->J, (uint64_t)db->F, (uint64_t)db->T, (uint64_t)db->clip_count,
                      (uint64_t)db->range_count) != r->n)
        return ak_error_set(err, AK_ERR_PARSE, 0,
                            "motion database blob: its size does not match its counts");
    return AK_OK;
}

int32_t ak_motion_db_load_memory(const void *data, size_t bytes, ak_motion_db **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!data || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    rbuf r = {NULL, 0, 0};
    int32_t st = check_header((const unsigned char *)data, bytes, &r, err);
    if (st != AK_OK) return st;
    ak_motion_db *db = (ak_motion_db *)calloc(1, sizeof *db);
    if (!db) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    st = read_counts(&r, db, err);
    if (st == AK_OK) st = get_skeleton(&r, db->J, &db->skeleton, err);
    if (st == AK_OK) st = ak_motion_db_alloc(db, err);
    if (st == AK_OK) {
        get_payload(&r, db);
        if (r.at != r.n)
            st = ak_error_set(err, AK_ERR_PARSE, 0, "motion database blob: payload size mismatch");
    }
    if (st == AK_OK) st = check_indices(db, err);
    if (st == AK_OK) st = check_ranges(db, err);
    if (st == AK_OK) st = ak_motion_db_landings(db, err); /* derived, not stored */
    if (st == AK_OK) st = ak_motion_db_prepare_search(db, 0, err);
    if (st != AK_OK) {
        ak_motion_db_destroy(db);
        return st;
    }
    *out = db;
    return AK_OK;
}

int32_t ak_motion_db_load_file(const char *path, ak_motion_db **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!path || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    akio_read_params rp = akio_read_defaults();
    rp.max_bytes = (int64_t)AK_MATCH_MAX_BLOB_BYTES;
    char *buf = NULL;
    size_t n = 0;
    ak_error e;
    int32_t st = akio_read_file(path, &rp, &buf, &n, &e);
    if (st) return ak_error_set(err, st, 0, "%s: %s", path, e.message);
    st = ak_motion_db_load_memory((const unsigned char *)buf, n, out, err);
    free(buf);
    return st;
}
