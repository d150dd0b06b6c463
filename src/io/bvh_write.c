/* BVH writer: skeleton + clip as text, every joint's rotation in one chosen Euler order.
 *
 * Channels: 6 (Xposition Yposition Zposition + rotations) for joints with a translation
 * track, 3 rotations otherwise; End Site tips (leaves marked is_end_site without a
 * translation track) become End Site blocks. Translations are floats printed with %.9g,
 * which reproduces every float exactly. Angles come from ak_quat_to_euler and are kept
 * continuous from frame to frame: of the two Euler triples of a rotation, (a, b, c) and
 * (a + 180, 180 - b, c + 180), each angle shifted by whole turns towards the previous
 * frame's value, the one closest to the previous frame is written. */
#include "animkit/bvh.h"
#include "io/bvh_internal.h"
#include "io/file.h"
#include "io/grow.h"
#include "io/number_text.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct text_buf {
    char *data;
    size_t size, cap;
    int failed;
    int dot_point; /* 1: printf writes '.' for the decimal point (put_hierarchy and put_frame
                      ask), so tb_vec3 has nothing to repair */
} text_buf;

static void tb_reserve(text_buf *b, size_t extra)
{
    if (b->failed) return;
    void *d = b->data;
    if (akio_grow(&d, &b->cap, b->size + extra + 1) != 0)
        b->failed = 1;
    else
        b->data = (char *)d;
}

static void tb_puts(text_buf *b, const char *s)
{
    size_t n = strlen(s);
    tb_reserve(b, n);
    if (b->failed) return;
    memcpy(b->data + b->size, s, n + 1);
    b->size += n;
}

static void tb_indent(text_buf *b, int depth)
{
    tb_reserve(b, (size_t)depth);
    if (b->failed) return;
    for (int i = 0; i < depth; ++i)
        b->data[b->size++] = '\t';
    b->data[b->size] = '\0';
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void
tb_printf(text_buf *b, const char *fmt, ...)
{
    tb_reserve(b, 128);
    if (b->failed) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->data + b->size, b->cap - b->size, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if ((size_t)n >= b->cap - b->size) {
        tb_reserve(b, (size_t)n);
        if (b->failed) return;
        va_start(ap, fmt);
        vsnprintf(b->data + b->size, b->cap - b->size, fmt, ap);
        va_end(ap);
    }
    b->size += (size_t)n;
}

/* Axis (0 x, 1 y, 2 z) of each listed channel, per rotation order. */
static const int k_axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/* Nearest value to `ref` of the form a + k * 360. */
static double unwrap_deg(double a, double ref)
{
    return a + 360.0 * floor((ref - a) / 360.0 + 0.5);
}

/* Euler angles (degrees, in listed order of `order`) for q, continuous with `prev` when
 * `has_prev`. */
static void continuous_euler(ak_quat q, ak_rot_order order, int has_prev, const double prev[3],
                             double out[3])
{
    const double to_deg = 180.0 / 3.14159265358979323846;
    ak_vec3 e = ak_quat_to_euler(q, order);
    const double slot[3] = {e.x, e.y, e.z};
    double a[3];
    for (int i = 0; i < 3; ++i)
        a[i] = slot[k_axes[order][i]] * to_deg;
    if (!has_prev) {
        memcpy(out, a, sizeof a);
        return;
    }
    const double ref[3] = {prev[0], prev[1], prev[2]}; /* out may alias prev */
    double cand[2][3] = {{a[0], a[1], a[2]}, {a[0] + 180.0, 180.0 - a[1], a[2] + 180.0}};
    double best_cost = INFINITY;
    for (int c = 0; c < 2; ++c) {
        double cost = 0.0, u[3];
        for (int i = 0; i < 3; ++i) {
            u[i] = unwrap_deg(cand[c][i], ref[i]);
            cost += fabs(u[i] - ref[i]);
        }
        if (cost < best_cost) {
            best_cost = cost;
            memcpy(out, u, sizeof u);
        }
    }
}

static int name_is_writable(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || name[0] == ' ' || name[0] == '\t' || name[n - 1] == ' ' || name[n - 1] == '\t')
        return 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c == 0x7f || c == '{' || c == '}') return 0;
    }
    return 1;
}

/* What the hierarchy needs: a known order and names and offsets BVH can hold. */
static int32_t validate_skeleton(const ak_skeleton *s, ak_rot_order order, ak_error *err)
{
    if ((int)order < 0 || (int)order > 5)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "unknown rotation order %d", (int)order);
    for (int32_t j = 0; j < s->joint_count; ++j) {
        if (!name_is_writable(s->names[j]))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "joint %d's name cannot be written to BVH (empty, braces, control "
                                "characters or surrounding blanks)",
                                (int)j);
        for (int32_t k = 0; k < j; ++k)
            if (strcmp(s->names[k], s->names[j]) == 0)
                return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "duplicate joint name '%s'",
                                    s->names[j]);
        const ak_vec3 o = s->rest_local[j].translation;
        if (!isfinite(o.x) || !isfinite(o.y) || !isfinite(o.z))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint '%s' has a non-finite offset",
                                s->names[j]);
    }
    return AK_OK;
}

static int32_t validate(const ak_skeleton *s, const ak_clip *c, ak_rot_order order, ak_error *err)
{
    if (!s || !c) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null skeleton or clip");
    if (c->joint_count != s->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has %d joints, skeleton %d",
                            (int)c->joint_count, (int)s->joint_count);
    if (c->frame_count < 1 || !(c->frame_time > 0.0f) || !isfinite(c->frame_time))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "clip needs frames and a positive frame time");
    int32_t st = validate_skeleton(s, order, err);
    if (st) return st;
    const size_t keys = (size_t)c->frame_count * (size_t)c->joint_count;
    for (size_t k = 0; k < keys; ++k) {
        const ak_quat q = c->rotations[k];
        if (!isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z) || !isfinite(q.w))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has a non-finite rotation key");
    }
    const size_t tkeys = (size_t)c->frame_count * (size_t)c->track_count;
    for (size_t k = 0; k < tkeys; ++k) {
        const ak_vec3 t = c->translations[k];
        if (!isfinite(t.x) || !isfinite(t.y) || !isfinite(t.z))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "clip has a non-finite translation key");
    }
    return AK_OK;
}

/* A number as text with 9 significant digits (a float round-trips), '.' for the decimal
 * point whatever the C locale says. The caller has checked that v is finite. */
static void tb_number(text_buf *b, const char *sep, double v)
{
    char num[AKIO_NUMBER_MAX];
    akio_format_number(num, v, 9);
    tb_puts(b, sep);
    tb_puts(b, num);
}

/* `sep` and three numbers as tb_number writes them (the same text), with one printf: the
 * motion lines are almost all numbers, and a printf call per number cost 17% more
 * instructions than one per three. */
static void tb_vec3(text_buf *b, const char *sep, double x, double y, double z)
{
    const size_t lead = strlen(sep), room = lead + 3 * AKIO_NUMBER_MAX;
    tb_reserve(b, room);
    if (b->failed) return;
    if (x == 0.0) x = 0.0; /* -0 -> 0, as akio_format_number */
    if (y == 0.0) y = 0.0;
    if (z == 0.0) z = 0.0;
    char *at = b->data + b->size;
    int n = snprintf(at, room + 1, "%s%.9g %.9g %.9g", sep, x, y, z);
    if (n < 0 || (size_t)n > room) {
        b->failed = 1;
        return;
    }
    if (!b->dot_point) n = (int)lead + akio_repair_point(at + lead, n - (int)lead);
    b->size += (size_t)n;
}

/* Which joints are written as End Site blocks: tips without a translation track. */
static void mark_end_sites(const ak_skeleton *s, const int32_t *joint_track, uint8_t *as_end)
{
    for (int32_t j = 0; j < s->joint_count; ++j)
        as_end[j] = (uint8_t)(s->is_end_site[j] && s->parents[j] >= 0 &&
                              s->subtree_end[j] == j + 1 && joint_track[j] < 0);
}

/* HIERARCHY ... up to and including "MOTION\n". Depth-first order means closing braces until
 * the parent is on top; `open` is scratch for joint_count joints. */
static void put_hierarchy(text_buf *b, const ak_skeleton *s, const int32_t *joint_track,
                          const uint8_t *as_end, ak_rot_order order, int32_t *open)
{
    static const char *const rot_names[3] = {"Xrotation", "Yrotation", "Zrotation"};
    int32_t depth = 0;
    b->dot_point = akio_locale_point_is_dot();
    tb_puts(b, "HIERARCHY\n");
    for (int32_t j = 0; j < s->joint_count; ++j) {
        const int32_t p = s->parents[j];
        while (depth > 0 && open[depth - 1] != p) {
            tb_indent(b, --depth);
            tb_puts(b, "}\n");
        }
        const ak_vec3 o = s->rest_local[j].translation;
        tb_indent(b, depth);
        if (as_end[j]) {
            tb_puts(b, "End Site\n");
        } else {
            tb_puts(b, p < 0 ? "ROOT " : "JOINT ");
            tb_puts(b, s->names[j]);
            tb_puts(b, "\n");
        }
        tb_indent(b, depth);
        tb_puts(b, "{\n");
        tb_indent(b, depth + 1);
        tb_vec3(b, "OFFSET ", (double)o.x, (double)o.y, (double)o.z);
        tb_puts(b, "\n");
        if (!as_end[j]) {
            tb_indent(b, depth + 1);
            if (joint_track[j] >= 0)
                tb_puts(b, "CHANNELS 6 Xposition Yposition Zposition");
            else
                tb_puts(b, "CHANNELS 3");
            for (int i = 0; i < 3; ++i) {
                tb_puts(b, " ");
                tb_puts(b, rot_names[k_axes[order][i]]);
            }
            tb_puts(b, "\n");
        }
        open[depth++] = j;
    }
    while (depth > 0) {
        tb_indent(b, --depth);
        tb_puts(b, "}\n");
    }
    tb_puts(b, "MOTION\n");
}

/* One motion line: per written joint its translation (tracked joints) then its Euler angles
 * in degrees, continuous with `prev` (3 per joint) when has_prev. */
static void put_frame(text_buf *b, int32_t n, const int32_t *joint_track, const uint8_t *as_end,
                      const ak_quat *rot, const ak_vec3 *tr, ak_rot_order order, int has_prev,
                      double *prev)
{
    const char *sep = "";
    b->dot_point = akio_locale_point_is_dot();
    for (int32_t j = 0; j < n; ++j) {
        if (as_end[j]) continue;
        const int32_t track = joint_track[j];
        if (track >= 0) {
            tb_vec3(b, sep, (double)tr[track].x, (double)tr[track].y, (double)tr[track].z);
            sep = " ";
        }
        double *e = prev + 3 * (size_t)j;
        continuous_euler(rot[j], order, has_prev, e, e);
        tb_vec3(b, sep, e[0], e[1], e[2]);
        sep = " ";
    }
    tb_puts(b, "\n");
}

int32_t ak_bvh_write_memory(const ak_skeleton *s, const ak_clip *c, ak_rot_order order,
                            char **out_text, size_t *out_size, ak_error *err)
{
    if (out_text) *out_text = NULL;
    if (out_size) *out_size = 0;
    if (!out_text) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = validate(s, c, order, err);
    if (st) return st;

    const int32_t n = s->joint_count;
    text_buf b = {NULL, 0, 0, 0, 0};
    int32_t *open = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    uint8_t *as_end = (uint8_t *)malloc((size_t)n);
    double *prev = (double *)calloc(3 * (size_t)n, sizeof(double));
    if (!open || !as_end || !prev) {
        free(open);
        free(as_end);
        free(prev);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    mark_end_sites(s, c->joint_track, as_end);
    put_hierarchy(&b, s, c->joint_track, as_end, order, open);
    tb_printf(&b, "Frames: %d\n", (int)c->frame_count);
    tb_number(&b, "Frame Time: ", (double)c->frame_time);
    tb_puts(&b, "\n");
    for (int32_t f = 0; f < c->frame_count && !b.failed; ++f)
        put_frame(&b, n, c->joint_track, as_end, c->rotations + (size_t)f * (size_t)n,
                  c->translations + (size_t)f * (size_t)c->track_count, order, f > 0, prev);
    free(open);
    free(as_end);
    free(prev);
    if (b.failed) {
        free(b.data);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory while writing BVH");
    }
    *out_text = b.data;
    if (out_size) *out_size = b.size;
    ak_error_clear(err);
    return AK_OK;
}

int32_t ak_bvh_write_file(const char *path, const ak_skeleton *s, const ak_clip *c,
                          ak_rot_order order, ak_error *err)
{
    if (!path) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null path");
    char *text = NULL;
    size_t size = 0;
    int32_t st = ak_bvh_write_memory(s, c, order, &text, &size, err);
    if (st) return st;
    st = akio_write_file(path, text, size, err);
    free(text);
    if (st) return st;
    ak_error_clear(err);
    return AK_OK;
}

/* ---- streaming: a motion of unknown length written frame by frame ---- */

struct akbvh_stream {
    akio_atomic *out;
    int32_t joint_count;
    ak_rot_order order;
    int32_t *joint_track; /* joint -> track or -1 */
    int32_t track_count;
    uint8_t *as_end;
    double *prev; /* 3 Euler angles per joint, the previous frame's */
    ak_quat *rot; /* one frame's keys */
    ak_vec3 *tr;
    int32_t frames;
    long long frames_at; /* offset of the reserved frame count */
    text_buf line;
};

/* The frame count is not known until the end: a fixed-width field is reserved and filled in
 * by akbvh_stream_end ("Frames:" then blanks then the number, which every reader accepts). */
#define FRAMES_FIELD 11

void akbvh_stream_destroy(akbvh_stream *w)
{
    if (!w) return;
    free(w->joint_track);
    free(w->as_end);
    free(w->prev);
    free(w->rot);
    free(w->tr);
    free(w->line.data);
    free(w);
}

static int32_t stream_flush_line(akbvh_stream *w, ak_error *err)
{
    if (w->line.failed)
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory while writing BVH");
    int32_t st = akio_atomic_write(w->out, w->line.data, w->line.size, err);
    w->line.size = 0;
    return st;
}

static akbvh_stream *stream_alloc(int32_t n)
{
    akbvh_stream *w = (akbvh_stream *)calloc(1, sizeof *w);
    if (!w) return NULL;
    w->joint_track = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    w->as_end = (uint8_t *)malloc((size_t)n);
    w->prev = (double *)calloc(3 * (size_t)n, sizeof(double));
    w->rot = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)n);
    w->tr = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)n);
    if (!w->joint_track || !w->as_end || !w->prev || !w->rot || !w->tr) {
        akbvh_stream_destroy(w);
        return NULL;
    }
    w->joint_count = n;
    return w;
}

int32_t akbvh_stream_begin(akio_atomic *out, const ak_skeleton *s, const uint8_t *has_translation,
                           ak_rot_order order, float frame_time, akbvh_stream **stream,
                           ak_error *err)
{
    *stream = NULL;
    if (!out || !s || s->joint_count < 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output or empty skeleton");
    if (!(frame_time > 0.0f) || !isfinite(frame_time))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "frame time must be finite and > 0");
    int32_t st = validate_skeleton(s, order, err);
    if (st) return st;
    akbvh_stream *w = stream_alloc(s->joint_count);
    int32_t *open = (int32_t *)malloc(sizeof(int32_t) * (size_t)s->joint_count);
    if (!w || !open) {
        akbvh_stream_destroy(w);
        free(open);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    w->out = out;
    w->order = order;
    for (int32_t j = 0; j < s->joint_count; ++j)
        w->joint_track[j] = (has_translation ? has_translation[j] : j == 0) ? w->track_count++ : -1;
    mark_end_sites(s, w->joint_track, w->as_end);
    put_hierarchy(&w->line, s, w->joint_track, w->as_end, order, open);
    free(open);
    tb_puts(&w->line, "Frames:");
    st = stream_flush_line(w, err);
    if (!st) st = akio_atomic_tell(out, &w->frames_at, err);
    tb_printf(&w->line, "%*d\n", FRAMES_FIELD, 0);
    tb_number(&w->line, "Frame Time: ", (double)frame_time);
    tb_puts(&w->line, "\n");
    if (!st) st = stream_flush_line(w, err);
    if (st) {
        akbvh_stream_destroy(w);
        return st;
    }
    *stream = w;
    return AK_OK;
}

int32_t akbvh_stream_frame(akbvh_stream *w, const ak_xform *local, ak_error *err)
{
    for (int32_t j = 0; j < w->joint_count; ++j) {
        const ak_quat q = local[j].rotation;
        const ak_vec3 t = local[j].translation;
        const float qn = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
        if (!isfinite(qn) || !(qn > 0.0f) ||
            (w->joint_track[j] >= 0 && (!isfinite(t.x) || !isfinite(t.y) || !isfinite(t.z))))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "frame %d: joint %d has a non-finite or zero pose", (int)w->frames,
                                (int)j);
        /* Unit keys are used as they are (so a clip streamed writes what ak_bvh_write_memory
         * writes); only a visibly unnormalised one is divided by its length. */
        const float inv = fabsf(qn - 1.0f) > 1e-5f ? 1.0f / qn : 1.0f;
        const ak_quat unit = {q.x * inv, q.y * inv, q.z * inv, q.w * inv};
        w->rot[j] = unit;
        if (w->joint_track[j] >= 0) w->tr[w->joint_track[j]] = t;
    }
    put_frame(&w->line, w->joint_count, w->joint_track, w->as_end, w->rot, w->tr, w->order,
              w->frames > 0, w->prev);
    if (w->frames == INT32_MAX) return ak_error_set(err, AK_ERR_LIMIT, 0, "too many frames");
    ++w->frames;
    return stream_flush_line(w, err);
}

int32_t akbvh_stream_end(akbvh_stream *w, ak_error *err)
{
    char count[FRAMES_FIELD + 2];
    int32_t st = AK_OK;
    if (w->frames < 1)
        st = ak_error_set(err, AK_ERR_INVALID_ARG, 0, "a BVH needs at least one frame");
    snprintf(count, sizeof count, "%*d", FRAMES_FIELD, (int)w->frames);
    if (!st) st = akio_atomic_patch(w->out, w->frames_at, count, FRAMES_FIELD, err);
    akbvh_stream_destroy(w);
    return st;
}
