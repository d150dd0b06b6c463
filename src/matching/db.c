/* The motion database: clips on one skeleton -> metres, cut at capture glitches, resampled to
 * one frame rate, each frame's character frame on the ground (the root's position and facing,
 * Gaussian-smoothed), the pose stored in place relative to it, foot contacts from the walker's
 * detector, and the matching features (Clavet, GDC 2016; Holden et al., SIGGRAPH 2020). */
#include "animkit/matching.h"
#include "anim/tracks.h"
#include "core/xform_inline.h"
#include "matching/internal.h"
#include "locomotion/internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const group_names[AK_MATCH_GROUPS] = {"foot_positions", "foot_velocities",
                                                         "hips_velocity", "trajectory_positions",
                                                         "trajectory_facing"};
static const float traj_seconds[AK_MATCH_TRAJ_POINTS] = {1.0f / 3.0f, 2.0f / 3.0f, 1.0f};

const char *ak_match_group_name(int32_t g)
{
    return g >= 0 && g < AK_MATCH_GROUPS ? group_names[g] : "";
}

ak_motion_db_params ak_motion_db_defaults(void)
{
    ak_motion_db_params p;
    memset(&p, 0, sizeof p);
    p.frame_rate = 60.0f;
    p.weights[0] = 0.75f;
    p.weights[1] = 1.0f;
    p.weights[2] = 1.0f;
    p.weights[3] = 1.0f;
    p.weights[4] = 1.5f;
    p.max_joint_speed = 25.0f;
    p.position_smoothing = 0.1f;
    p.heading_smoothing = 0.2f;
    p.contacts = ak_contact_defaults();
    return p;
}

static int32_t check_weights(const float *w, ak_error *err)
{
    float sum = 0.0f;
    for (int g = 0; g < AK_MATCH_GROUPS; ++g) {
        if (!(w[g] >= 0.0f) || !isfinite(w[g]))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "weights[%d] (%s) = %g: must be finite and >= 0", g, group_names[g],
                                (double)w[g]);
        sum += w[g];
    }
    if (!(sum > 0.0f)) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "weights are all 0");
    return AK_OK;
}

/* The nested contact detector's ranges (its skeleton, clip and cross-field rules are checked
 * when the database runs it on each clip), refused with "contacts." before the field. */
static int32_t check_contacts(const ak_contact_params *c, ak_error *err)
{
    ak_error inner;
    const int32_t st = ak_params_check(ak_contact_param_ranges(), c, &inner);
    if (st == AK_OK) return AK_OK;
    return ak_error_set(err, st, 0, "contacts.%s", inner.message);
}

int32_t ak_motion_db_validate(const ak_motion_db_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params");
    if (!(p->metres_per_unit >= 0.0f) || !isfinite(p->metres_per_unit))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "metres_per_unit = %g: must be finite and >= 0 (0: detected)",
                            (double)p->metres_per_unit);
    if (!(p->frame_rate >= 10.0f && p->frame_rate <= 1000.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "frame_rate = %g: must be in [10, 1000]",
                            (double)p->frame_rate);
    if (!(p->max_joint_speed > 0.0f) || !isfinite(p->max_joint_speed))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "max_joint_speed = %g: must be finite and > 0 (rad/s)",
                            (double)p->max_joint_speed);
    if (!(p->position_smoothing >= 0.0f && p->position_smoothing <= 2.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "position_smoothing = %g: must be in [0, 2] s",
                            (double)p->position_smoothing);
    if (!(p->heading_smoothing >= 0.0f && p->heading_smoothing <= 2.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "heading_smoothing = %g: must be in [0, 2] s",
                            (double)p->heading_smoothing);
    int32_t st = check_weights(p->weights, err);
    /* The table (one range per float, as the plugin, Python and JS read it) after the checks
     * that say more, so their messages stand. */
    if (st == AK_OK) st = ak_params_check(ak_motion_db_param_ranges(), p, err);
    return st != AK_OK ? st : check_contacts(&p->contacts, err);
}

void ak_motion_db_destroy(ak_motion_db *db)
{
    if (!db) return;
    ak_skeleton_destroy(db->skeleton);
    free(db->track_joint);
    free(db->rot);
    free(db->trans);
    free(db->delta);
    free(db->dturn);
    free(db->contact);
    free(db->cand);
    free(db->frame_clip);
    free(db->frame_time_src);
    free(db->clip_names);
    free(db->range_start);
    free(db->raw);
    free(db->feat);
    free(db->cand_frame);
    free(db->cand_feat);
    free(db->small_box);
    free(db->large_box);
    free(db->land_rel);
    free(db->land_toe_rel);
    free(db->swing_phase);
    free(db->hip_accel);
    free(db);
}

int32_t ak_motion_db_alloc(ak_motion_db *db, ak_error *err)
{
    const size_t F = (size_t)db->F, D = AK_MATCH_FEATURES, DP = AK_MATCH_STRIDE;
    db->track_joint = (int32_t *)calloc((size_t)db->T + 1, sizeof(int32_t));
    db->rot = (ak_quat *)calloc(F * (size_t)db->J, sizeof(ak_quat));
    db->trans = (ak_vec3 *)calloc(F * (size_t)db->T + 1, sizeof(ak_vec3));
    db->delta = (ak_vec3 *)calloc(F, sizeof(ak_vec3));
    db->dturn = (float *)calloc(F, sizeof(float));
    db->contact = (uint8_t *)calloc(F * 2, 1);
    db->cand = (uint8_t *)calloc(F, 1);
    db->frame_clip = (int32_t *)calloc(F, sizeof(int32_t));
    db->frame_time_src = (float *)calloc(F, sizeof(float));
    db->clip_names = (char(*)[64])calloc((size_t)db->clip_count + 1, 64);
    db->range_start = (int32_t *)calloc((size_t)db->range_count + 1, sizeof(int32_t));
    db->raw = (float *)calloc(F * D, sizeof(float));
    db->feat = (float *)calloc(F * D, sizeof(float));
    db->cand_frame = (int32_t *)calloc(F, sizeof(int32_t));
    db->cand_feat = (float *)calloc(F * DP, sizeof(float));
    const size_t nsmall = F / AK_MATCH_SMALL_BLOCK + 1, nlarge = F / AK_MATCH_LARGE_BLOCK + 1;
    db->small_box = (float *)calloc(nsmall * 2 * DP, sizeof(float));
    db->large_box = (float *)calloc(nlarge * 2 * DP, sizeof(float));
    db->land_rel = (ak_vec3 *)calloc(F * 2, sizeof(ak_vec3));
    db->land_toe_rel = (ak_vec3 *)calloc(F * 2, sizeof(ak_vec3));
    db->swing_phase = (float *)calloc(F * 2, sizeof(float));
    db->hip_accel = (float *)calloc(F, sizeof(float));
    if (!db->track_joint || !db->rot || !db->trans || !db->delta || !db->dturn || !db->contact ||
        !db->cand || !db->frame_clip || !db->frame_time_src || !db->clip_names ||
        !db->range_start || !db->raw || !db->feat || !db->cand_frame || !db->cand_feat ||
        !db->small_box || !db->large_box || !db->land_rel || !db->land_toe_rel ||
        !db->swing_phase || !db->hip_accel)
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int k = 0; k < AK_MATCH_TRAJ_POINTS; ++k)
        db->traj_frames[k] = (int32_t)lroundf(traj_seconds[k] / db->frame_time);
    return AK_OK;
}

/* ---- Building: pieces of clips resampled into world-space clips (metres) ---- */

typedef struct piece {
    int32_t clip;
    float t0, t1; /* source seconds (unrolled for loops) */
} piece;

/* Angle between two rotations, radians. */
static float turn_between(ak_quat a, ak_quat b)
{
    float d = fabsf(akq_dot(a, b));
    d = d > 1.0f ? 1.0f : d;
    return 2.0f * acosf(d);
}

/* Largest rotation of a body joint (`body`, see body_joints) between source frames fa and f,
 * radians. */
static float frame_jump(const ak_clip *c, int32_t fa, int32_t f, const uint8_t *body)
{
    float worst = 0.0f;
    const ak_quat *a = c->rotations + (size_t)fa * c->joint_count;
    const ak_quat *b = c->rotations + (size_t)f * c->joint_count;
    for (int32_t j = 0; j < c->joint_count; ++j) {
        if (!body[j]) continue;
        const float ang = turn_between(a[j], b[j]);
        if (ang > worst) worst = ang;
    }
    return worst;
}

/* The joints a glitch cuts the clip at: the humanoid-mapped ones the features and the body
 * use (hips, spine, chest, neck, head, legs to the feet, arms to the hands) and every joint
 * between them and the root; not toes, fingers or what hangs below the head. A glitch there
 * moves nothing the matcher reads (the toe contact point is in the ankle's frame). */
static void body_joints(const ak_motion_db *db, uint8_t *body)
{
    memset(body, 0, (size_t)db->J);
    body[0] = 1;
    for (int32_t slot = 0; slot < AK_HUM_SLOT_COUNT; ++slot) {
        if (slot == AK_HUM_LEFT_TOE || slot == AK_HUM_RIGHT_TOE) continue;
        for (int32_t j = db->humanoid.joint[slot]; j >= 0 && !body[j]; j = db->skeleton->parents[j])
            body[j] = 1;
    }
}

/* Repairs isolated one-key glitches: a joint that turns faster than `limit` (radians per key)
 * into a key and out of it while its two neighbours are within 2 limit of each other gets
 * the neighbours' halfway rotation (a marker flick of a toe, finger or knee; CMU's T-pose
 * frame 0 has one neighbour and stays, so the clip is cut after it). */
static void repair_glitches(ak_clip *c, float limit)
{
    const int32_t J = c->joint_count;
    for (int32_t f = 1; f + 1 < c->frame_count; ++f)
        for (int32_t j = 0; j < J; ++j) {
            ak_quat *q = c->rotations + (size_t)f * J + j;
            const ak_quat a = q[-J], b = q[J];
            if (turn_between(a, *q) > limit && turn_between(*q, b) > limit &&
                turn_between(a, b) <= 2.0f * limit)
                *q = akq_normalize(akq_slerp(a, b, 0.5f));
        }
}

/* The span a cut is judged over, s: one frame of the coarsest rate captures come in (30 fps),
 * so a capture and its 30 fps copy are cut alike. Judged per key, CMU 07_01's marker steps of
 * 0.216 and 0.214 rad in one 120 fps frame (frames 24 and 263; 25 rad/s allows 0.208) cut the
 * capture while its 30 fps copy, each step inside one of its frames, ran on: the databases
 * held different frames and the matcher walked 2.0 % apart. Over 1/30 s those steps turn 0.126
 * and 0.214 rad against 0.833 allowed; a T-pose frame 0 still cuts (frame 1 against it). */
#define AK_MATCH_CUT_SPAN (1.0f / 30.0f)

/* The end of frames [first, end) at its last moving frame (ak_clip_last_moving): frames that
 * repeat a pose to the bit are a file's padding, not motion. Kept, a last frame line written
 * twice made the take 1/120 s longer, and where the take spans a whole number of the
 * database's 1/60 s samples the copy's database held one more than the original's (whose last
 * one falls 5 us past the take's end: CMU writes 1/120 s as 0.0083333); the matcher played it
 * otherwise (CMU 09_02 with its last line twice arrived in 5.600 s against 5.567, knee 126.8
 * against 124.3 deg, skate 2.49 against 0.75 mm/s). A clip that never moves keeps every
 * frame. */
static int32_t moving_end(const ak_clip *c, int32_t first, int32_t end)
{
    const int32_t last = ak_clip_last_moving(c, first, end);
    return last > first ? last + 1 : end;
}

/* Frames [first, end) of non-looping clip i split where a body joint turns more than
 * max_joint_speed allows over AK_MATCH_CUT_SPAN (each frame against the frame that span
 * earlier, or the first frame after the last cut when that is later). A piece keeps that span
 * clear of a cut by time, the same at any rate: it starts at the first frame at least
 * AK_MATCH_CUT_SPAN after the last frame before the jump, and ends at the last frame at least
 * that span before the first frame after it (a take's own ends stay). Cut at the frame itself, a
 * piece after CMU 02_02's T-pose began at 1/120 s in the capture and at 1/30 s in its 30 fps
 * copy; the character frame's smoothing reflects through a piece's first sample, which kept
 * that first 120 fps frame's hips yaw and sway, and the matcher over the capture alone arrived
 * in 10.100 s against the copy's 9.833 (both now begin at 1/30 s and arrive in 9.833). A
 * flight longer than a run's or a stand on a prop (`aloft`, off_floor; may be NULL) is left out
 * too: the piece before it ends at its last frame with a foot down, the next starts at the first
 * frame with a foot down again. Writes the pieces long enough to hold one candidate from
 * out[count], up to cap; returns the new count. */
static int32_t clip_pieces(const ak_motion_db_clip *ci, int32_t i, const ak_motion_db_params *p,
                           const uint8_t *body, const uint8_t *aloft, float min_len, piece *out,
                           int32_t count, int32_t cap)
{
    const ak_clip *c = ci->clip;
    const float ft = c->frame_time;
    const int32_t k = ft < AK_MATCH_CUT_SPAN ? (int32_t)lroundf(AK_MATCH_CUT_SPAN / ft) : 1;
    const float limit = p->max_joint_speed * ft * (float)k;
    /* frames in AK_MATCH_CUT_SPAN, rounded up: 4 at 120 fps, 2 at 50 or 60, 1 at 30 or fewer */
    const int32_t clear =
        ft < AK_MATCH_CUT_SPAN ? (int32_t)ceilf(AK_MATCH_CUT_SPAN / ft - 1e-3f) : 1;
    const int32_t first = ci->first < 0 ? 0 : ci->first;
    const int32_t end =
        moving_end(c, first, ci->end > 0 && ci->end <= c->frame_count ? ci->end : c->frame_count);
    int32_t start = first, from = first;
    for (int32_t f = first + 1; f <= end; ++f) {
        const int up = f < end && aloft && aloft[f];
        if (f < end && !up && frame_jump(c, f - k > start ? f - k : start, f, body) <= limit)
            continue;
        const float t0 = (float)from * ft, t1 = (float)(f < end && !up ? f - clear : f - 1) * ft;
        if (t1 - t0 >= min_len && count < cap) out[count++] = (piece){i, t0, t1};
        if (up) { /* the next piece starts where a foot is down again */
            while (f + 1 < end && aloft[f + 1])
                ++f;
            start = from = f + 1;
            continue;
        }
        start = f;
        from = f - 1 + clear;
    }
    return count;
}

/* Splits each clip where a joint turns faster than max_joint_speed or the body is off the
 * floor (clip_pieces); keeps pieces long enough to hold one candidate. Writes up to `cap` pieces,
 * returns the count. */
static int32_t find_pieces(const ak_motion_db_clip *clips, int32_t n, const ak_motion_db_params *p,
                           const uint8_t *body, uint8_t *const *aloft, float min_len, piece *out,
                           int32_t cap)
{
    int32_t count = 0;
    for (int32_t i = 0; i < n; ++i) {
        const ak_clip *c = clips[i].clip;
        if (!c->loop) {
            count = clip_pieces(&clips[i], i, p, body, aloft[i], min_len, out, count, cap);
            continue;
        }
        const float dur = ak_clip_duration(c);
        int32_t loops = clips[i].loops > 0 ? clips[i].loops : (int32_t)ceilf(3.0f / dur);
        if (count < cap) out[count++] = (piece){i, 0.0f, dur * (float)loops};
    }
    return count;
}

/* One piece resampled at dt into a world-space clip: looping sources continue their root
 * motion across the wrap. */
static int32_t resample_piece(const ak_skeleton *sk, const ak_clip *src, const ak_root_motion *rm,
                              piece pc, float dt, const uint8_t *has, ak_xform *scratch,
                              ak_clip **out, ak_error *err)
{
    const int32_t J = src->joint_count;
    const int32_t n = (int32_t)floorf((pc.t1 - pc.t0) / dt + 1e-4f) + 1;
    int32_t st = ak_clip_create(J, n, dt, has, out, err);
    if (st != AK_OK) return st;
    ak_clip *c = *out;
    for (int32_t f = 0; f < n; ++f) {
        const float t = pc.t0 + (float)f * dt;
        ak_clip_sample(src, sk, t, AK_INTERP_LINEAR, scratch);
        if (rm) {
            /* ak_root_motion_at continues past the loop; the in-place pose goes on it */
            ak_vec3 at;
            float heading;
            ak_root_motion_at(rm, t, &at, &heading);
            ak_root_motion_make_in_place(rm, t, scratch);
            const ak_xform ch = {ak_quat_yaw(heading), ak_vec3_make(at.x, 0.0f, at.z)};
            scratch[0] = akx_mul(ch, scratch[0]);
        }
        for (int32_t j = 0; j < J; ++j)
            c->rotations[(size_t)f * J + j] = scratch[j].rotation;
        for (int32_t k = 0; k < c->track_count; ++k)
            c->translations[(size_t)f * c->track_count + k] =
                scratch[c->track_joint[k]].translation;
    }
    ak_clip_finalize(c);
    return AK_OK;
}

/* In-place Gaussian smoothing of n values (sigma in samples). */
static void gaussian_smooth(float *v, float *tmp, int32_t n, float sigma)
{
    if (sigma < 0.5f) return;
    const int32_t r = (int32_t)ceilf(3.0f * sigma);
    for (int32_t i = 0; i < n; ++i) {
        double s = 0.0, ws = 0.0;
        for (int32_t k = -r; k <= r; ++k) {
            /* past an end: the value reflected through the end point (v[-k] = 2 v[0] - v[k]),
             * so a steady slope stays steady to the last sample */
            const int32_t j = i + k;
            double x;
            if (j < 0)
                x = 2.0 * v[0] - v[-j < n ? -j : n - 1];
            else if (j >= n)
                x = 2.0 * v[n - 1] - v[2 * (n - 1) - j >= 0 ? 2 * (n - 1) - j : 0];
            else
                x = v[j];
            const double w = exp(-0.5 * (double)(k * k) / (double)(sigma * sigma));
            s += w * x;
            ws += w;
        }
        tmp[i] = (float)(s / ws);
    }
    memcpy(v, tmp, sizeof(float) * (size_t)n);
}

/* Per-piece scratch: world positions of the tracked joints and the character frames. */
typedef struct piece_track {
    ak_vec3 *foot[2], *hips;
    float *px, *pz, *heading, *tmp;
    float floor_y;
} piece_track;

static int32_t track_alloc(piece_track *t, int32_t n)
{
    memset(t, 0, sizeof *t);
    t->foot[0] = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)n * 3);
    t->px = (float *)calloc((size_t)n * 4, sizeof(float)); /* zeroed: read by frame later */
    if (!t->foot[0] || !t->px) return AK_ERR_NOMEM;
    t->foot[1] = t->foot[0] + n;
    t->hips = t->foot[0] + 2 * n;
    t->pz = t->px + n;
    t->heading = t->px + 2 * n;
    t->tmp = t->px + 3 * n;
    return AK_OK;
}

static void track_free(piece_track *t)
{
    free(t->foot[0]);
    free(t->px);
}

/* FK over the piece: foot/hips world positions, the floor (lowest foot-subtree point) and the
 * smoothed character frame (root x,z and facing). */
static void track_piece(const ak_motion_db *db, const ak_clip *c, const ak_motion_db_params *p,
                        ak_xform *local, ak_xform *world, piece_track *t)
{
    const ak_skeleton *sk = db->skeleton;
    const int32_t n = c->frame_count;
    const int32_t foot[2] = {db->humanoid.joint[AK_HUM_LEFT_FOOT],
                             db->humanoid.joint[AK_HUM_RIGHT_FOOT]};
    const int32_t hips = db->humanoid.joint[AK_HUM_HIPS];
    t->floor_y = INFINITY;
    float prev = 0.0f;
    for (int32_t f = 0; f < n; ++f) {
        ak_clip_frame(c, sk, f, local);
        ak_fk(sk, local, world);
        for (int s = 0; s < 2; ++s) {
            t->foot[s][f] = world[foot[s]].translation;
            for (int32_t j = foot[s]; j < sk->subtree_end[foot[s]]; ++j)
                if (world[j].translation.y < t->floor_y) t->floor_y = world[j].translation.y;
        }
        t->hips[f] = world[hips].translation;
        t->px[f] = world[0].translation.x;
        t->pz[f] = world[0].translation.z;
        float h = ak_heading_of(world[0].rotation, ak_vec3_make(0, 0, 1));
        if (f > 0) { /* unwrap */
            while (h - prev > AK_PI)
                h -= 2.0f * AK_PI;
            while (h - prev < -AK_PI)
                h += 2.0f * AK_PI;
        }
        t->heading[f] = prev = h;
    }
    const float fr = 1.0f / c->frame_time;
    gaussian_smooth(t->px, t->tmp, n, p->position_smoothing * fr);
    gaussian_smooth(t->pz, t->tmp, n, p->position_smoothing * fr);
    gaussian_smooth(t->heading, t->tmp, n, p->heading_smoothing * fr);
}

/* A world point/vector into the character frame of frame f. */
static ak_vec3 to_char(const piece_track *t, int32_t f, ak_vec3 v, int point)
{
    if (point) {
        v.x -= t->px[f];
        v.z -= t->pz[f];
        v.y -= t->floor_y;
    }
    return akq_rotate(ak_quat_yaw(-t->heading[f]), v);
}

static ak_vec3 velocity(const ak_vec3 *x, int32_t f, int32_t n, float dt)
{
    const int32_t a = f > 0 ? f - 1 : f, b = f < n - 1 ? f + 1 : f;
    return b > a ? akv_scale(akv_sub(x[b], x[a]), 1.0f / ((float)(b - a) * dt)) : x[f];
}

/* Features and root motion of frame f (index in the piece) into db frame g. */
static void piece_features(ak_motion_db *db, const piece_track *t, int32_t f, int32_t n, int32_t g)
{
    float *r = db->raw + (size_t)g * AK_MATCH_FEATURES;
    const float dt = db->frame_time;
    for (int s = 0; s < 2; ++s) {
        const ak_vec3 pos = to_char(t, f, t->foot[s][f], 1);
        const ak_vec3 vel = to_char(t, f, velocity(t->foot[s], f, n, dt), 0);
        memcpy(r + 3 * s, &pos, sizeof pos);
        memcpy(r + 6 + 3 * s, &vel, sizeof vel);
    }
    if (n < 2) memset(r + 6, 0, sizeof(float) * 6);
    const ak_vec3 hv =
        to_char(t, f, n > 1 ? velocity(t->hips, f, n, dt) : ak_vec3_make(0, 0, 0), 0);
    memcpy(r + 12, &hv, sizeof hv);
    for (int k = 0; k < AK_MATCH_TRAJ_POINTS; ++k) {
        int32_t fk = f + db->traj_frames[k];
        if (fk > n - 1) fk = n - 1;
        const ak_vec3 q = to_char(t, f, ak_vec3_make(t->px[fk], t->floor_y, t->pz[fk]), 1);
        r[15 + 2 * k] = q.x;
        r[16 + 2 * k] = q.z;
        const float dh = t->heading[fk] - t->heading[f];
        r[21 + 2 * k] = sinf(dh);
        r[22 + 2 * k] = cosf(dh);
    }
    const int32_t fn = f < n - 1 ? f + 1 : f, fp = f < n - 1 ? f : (f > 0 ? f - 1 : f);
    const int32_t a = f < n - 1 ? f : fp, b = f < n - 1 ? fn : f;
    db->delta[g] = to_char(t, a, ak_vec3_make(t->px[b], t->floor_y, t->pz[b]), 1);
    db->delta[g].y = 0.0f;
    db->dturn[g] = t->heading[b] - t->heading[a];
    db->cand[g] = (uint8_t)(f + db->traj_frames[AK_MATCH_TRAJ_POINTS - 1] <= n - 1);
}

/* Contacts from the walker's heel and toe detector (ak_contact_run) on the piece, already in
 * metres: each point's floor is local (the lowest it comes within floor_window either side), so
 * uneven capture floors (CMU 02_01's ankles stand 5 cm higher at the end of the walk than at
 * its start), forefoot stance and a run's flight phases are found. Writes left[0..n) then
 * right[0..n) (AK_CONTACT_* bits) into `flags`. */
static int32_t detect_contacts(const ak_motion_db *db, const ak_clip *c,
                               const ak_motion_db_params *p, uint8_t *flags, ak_error *err)
{
    ak_contact_params cp = p->contacts;
    cp.skeleton = db->skeleton;
    cp.clip = c;
    cp.metres_per_unit = 1.0f;
    for (int s = 0; s < 2; ++s) {
        cp.heel[s] = db->humanoid.joint[s == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT];
        cp.toe[s] = db->humanoid.joint[s == 0 ? AK_HUM_LEFT_TOE : AK_HUM_RIGHT_TOE];
    }
    cp.roll_height = 0.0f; /* the walker's rule: no roll bit (its foot IK pins ankles) */
    return ak_contact_run(&cp, flags, flags + c->frame_count, err);
}

/* Captured floors are not level (CMU 02_01's ankles stand 5 cm higher at the end of the walk
 * than at its start), yet every stored pose stands on one floor, y = 0: a stance foot left
 * 5 cm up would have foot IK pull it down by 5 cm and the leg past its reach. The floor under
 * the feet at each frame is the lowest point of the stance feet's subtrees, carried across
 * swing and flight by linear interpolation and Gaussian-smoothed (sigma 0.25 s); the root
 * track is lowered by that floor's rise above its lowest, so the capture walks on the level. */
static int32_t level_floor(const ak_motion_db *db, ak_clip *c, const uint8_t *flags,
                           ak_xform *local, ak_xform *world)
{
    const ak_skeleton *sk = db->skeleton;
    const int32_t n = c->frame_count;
    const int32_t foot[2] = {db->humanoid.joint[AK_HUM_LEFT_FOOT],
                             db->humanoid.joint[AK_HUM_RIGHT_FOOT]};
    float *fl = (float *)malloc(sizeof(float) * (size_t)n * 2);
    if (!fl) return AK_ERR_NOMEM;
    for (int32_t f = 0; f < n; ++f) {
        fl[f] = INFINITY;
        if (!flags[f] && !flags[n + f]) continue;
        ak_clip_frame(c, sk, f, local);
        ak_fk(sk, local, world);
        for (int s = 0; s < 2; ++s)
            for (int32_t j = foot[s]; flags[s * n + f] && j < sk->subtree_end[foot[s]]; ++j)
                if (world[j].translation.y < fl[f]) fl[f] = world[j].translation.y;
    }
    /* Gaps filled between known heights; without one (no contact, or a non-finite pose) the
     * track stays as it is. */
    int32_t prev = -1;
    for (int32_t f = 0; f <= n; ++f) {
        if (f < n && !isfinite(fl[f])) continue;
        if (f == n && prev < 0) break;
        for (int32_t k = prev + 1; k < f; ++k) /* the gap (prev, f) */
            fl[k] = prev < 0 ? fl[f]
                    : f == n
                        ? fl[prev]
                        : fl[prev] + (fl[f] - fl[prev]) * (float)(k - prev) / (float)(f - prev);
        prev = f;
    }
    if (prev == n) {
        gaussian_smooth(fl, fl + n, n, 0.25f / c->frame_time);
        float base = INFINITY;
        for (int32_t f = 0; f < n; ++f)
            base = fl[f] < base ? fl[f] : base;
        for (int32_t f = 0; f < n; ++f) /* track 0 is the root's */
            c->translations[(size_t)f * c->track_count].y -= fl[f] - base;
    }
    free(fl);
    return AK_OK;
}

/* The foot calibration of every piece (ak_foot_calibrate, the walker's rule), summed weighted
 * by each piece's stance frames. */
typedef struct calib_sum {
    double weight[2], sole[2];
    ak_vec3 up[2], toe[2];
    int32_t toe_pieces[2], pieces[2];
} calib_sum;

static int32_t calibrate_piece(const ak_motion_db *db, const ak_clip *c, const uint8_t *flags,
                               calib_sum *sum, ak_error *err)
{
    const ak_humanoid *h = &db->humanoid;
    const int32_t foot[2] = {h->joint[AK_HUM_LEFT_FOOT], h->joint[AK_HUM_RIGHT_FOOT]};
    const int32_t toe[2] = {h->joint[AK_HUM_LEFT_TOE], h->joint[AK_HUM_RIGHT_TOE]};
    const int32_t n = c->frame_count;
    ak_foot_calibration cal;
    const int32_t st = ak_foot_calibrate(db->skeleton, c, foot, toe, flags, flags + n, &cal, err);
    for (int s = 0; st == AK_OK && s < 2; ++s) {
        const double w = (double)cal.stance_fraction[s] * n;
        if (!(w > 0.0)) continue;
        sum->weight[s] += w;
        sum->sole[s] += w * cal.sole_height[s];
        sum->up[s] = akv_add(sum->up[s], akv_scale(cal.up_local[s], (float)w));
        ++sum->pieces[s];
        if (cal.has_toe[s]) {
            sum->toe[s] = akv_add(sum->toe[s], akv_scale(cal.toe_local[s], (float)w));
            ++sum->toe_pieces[s];
        }
    }
    return st;
}

/* The summed calibration into the database (a foot without stance: 8 cm sole, +Y up). */
static void calib_store(ak_motion_db *db, const calib_sum *sum)
{
    for (int s = 0; s < 2; ++s) {
        const double w = sum->weight[s];
        db->sole_height[s] = w > 0.0 ? (float)(sum->sole[s] / w) : 0.08f;
        db->foot_up_local[s] = ak_vec3_normalize_or(sum->up[s], ak_vec3_make(0, 1, 0));
        /* the toe holds only where every piece with stance found it */
        db->has_toe[s] = sum->toe_pieces[s] > 0 && sum->toe_pieces[s] == sum->pieces[s];
        db->toe_local[s] =
            db->has_toe[s] ? akv_scale(sum->toe[s], (float)(1.0 / w)) : ak_vec3_make(0, 0, 0);
    }
}

/* Stores piece `c` (world clip) as database frames [g0, g0 + n): in-place poses, contacts,
 * features. */
static int32_t store_piece(ak_motion_db *db, ak_clip *c, const ak_motion_db_params *p, int32_t g0,
                           ak_xform *scratch, calib_sum *cal, ak_error *err)
{
    const int32_t n = c->frame_count, J = db->J;
    piece_track t;
    memset(&t, 0, sizeof t);
    uint8_t *flags = (uint8_t *)malloc((size_t)n * 2);
    if (!flags || track_alloc(&t, n) != AK_OK) {
        free(flags);
        track_free(&t);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    int32_t st = detect_contacts(db, c, p, flags, err);
    if (st == AK_OK && level_floor(db, c, flags, scratch, scratch + J) != AK_OK)
        st = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    if (st == AK_OK) st = calibrate_piece(db, c, flags, cal, err);
    if (st != AK_OK) {
        free(flags);
        track_free(&t);
        return st;
    }
    track_piece(db, c, p, scratch, scratch + J, &t);
    for (int32_t f = 0; f < n; ++f) {
        const int32_t g = g0 + f;
        db->contact[2 * g] = flags[f];
        db->contact[2 * g + 1] = flags[n + f];
    }
    free(flags);
    for (int32_t f = 0; f < n; ++f) {
        const int32_t g = g0 + f;
        memcpy(db->rot + (size_t)g * J, c->rotations + (size_t)f * J, sizeof(ak_quat) * (size_t)J);
        memcpy(db->trans + (size_t)g * db->T, c->translations + (size_t)f * c->track_count,
               sizeof(ak_vec3) * (size_t)db->T);
        ak_quat *root = db->rot + (size_t)g * J;
        *root = akq_normalize(akq_mul(ak_quat_yaw(-t.heading[f]), *root));
        ak_vec3 *rt = db->trans + (size_t)g * db->T;
        *rt = to_char(&t, f, *rt, 1);
        piece_features(db, &t, f, n, g);
    }
    track_free(&t);
    return AK_OK;
}

/* Sources scaled to metres (clones) and, for looping clips, their root motion. */
typedef struct sources {
    ak_clip **clip;
    ak_root_motion **rm;
    uint8_t *has; /* translation track per joint: any source has one (and the root) */
    int32_t n;
} sources;

static void sources_free(sources *s)
{
    for (int32_t i = 0; s->clip && i < s->n; ++i) {
        ak_clip_destroy(s->clip[i]);
        ak_root_motion_destroy(s->rm[i]);
    }
    free(s->clip);
    free(s->rm);
    free(s->has);
}

/* The joint that carries the travel of the clips and why, kept in the database
 * (ak_motion_db_root_joint): the one named (its report measured on the first clip), or the
 * first clip's joint under a still top joint, else the first clip's top joint. *out names the
 * joint every clip's travel moves onto (ak_clip_root_motion_prepare), NULL when none is named
 * and every clip's top joint travels or none does. */
static int32_t sources_root_joint(const ak_skeleton *sk, const ak_motion_db_clip *clips, int32_t n,
                                  const char *named, ak_root_joint_report *report, const char **out,
                                  ak_error *err)
{
    named = named && *named ? named : NULL;
    *out = NULL;
    for (int32_t i = 0; i < n; ++i) {
        ak_root_joint_report r;
        const int32_t st = ak_root_joint_find(sk, clips[i].clip, named, &r, err);
        if (st != AK_OK) return st;
        if (i == 0) *report = r;
        if (named || r.joint != r.top) {
            *report = r;
            *out = sk->names[r.joint];
            break;
        }
    }
    return AK_OK;
}

/* Under a still top joint, ak_clip_root_motion_prepare gives the top joint the travelling
 * joint's horizontal travel and heading (a floor bone above the hips, such as Unreal's `root`,
 * carries the travel already: sources_make); the joint keeps its height (and its sway about that
 * travel) in its own translation track, and its pitch, roll and the rest of its turn in its
 * own rotation. The matcher reads joint 0 as the body's: it blends a transition's jump of
 * joint 0's translation and keeps the shown height within the source's envelope there only
 * (the hips of a still-top copy of CMU 02_01 jumped 2.8 cm in a frame at a transition, -5.55
 * .. 5.91 g against the original's -1.01 .. 1.28), and it inertializes each joint's local
 * rotation apart, so the hips' turn split over two joints blends otherwise than one joint's
 * (the two offsets' product is not the decayed product: the still-top copy's feet 2 mm off
 * the original's after a transition, a landing a frame later, skate 1.858 against 1.721
 * mm/s). Where the joint hangs directly off joint 0, its whole local transform (less its rest
 * offset) moves up into joint 0's, M0' = M0 X with X = Lj (I, -rest), and the joint keeps its
 * rest offset and no turn; joint 0's other children (the UE4 mannequin's ik_foot_root and
 * ik_hand_root beside the pelvis under `root`) take X^-1 Lk, so every joint's model transform
 * is unchanged, and joint 0 carries what a travelling top joint of the same capture carries
 * (CMU 02_02 under a floor bone, on flat ground: hips -9.25..9.30 g, skate 38.05 mm/s before,
 * the original's -1.00..1.37 g and 1.25 mm/s since; with the ik bones beside the hips, which
 * this left as it was until they were: 02_02 -10.02..10.14 g, skate 36.95 mm/s). */
static void travel_joint_on_top(const ak_skeleton *sk, ak_clip *c, int32_t joint)
{
    if (joint <= 0 || joint >= sk->joint_count || sk->parents[joint] != 0) return;
    const int32_t t0 = c->joint_track[0], tj = c->joint_track[joint];
    if (t0 < 0 || tj < 0) return;
    const ak_vec3 rest = sk->rest_local[joint].translation;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_vec3 *p0 = &c->translations[(size_t)f * c->track_count + t0];
        ak_vec3 *pj = &c->translations[(size_t)f * c->track_count + tj];
        ak_quat *q0 = &c->rotations[(size_t)f * c->joint_count];
        ak_quat *qj = &c->rotations[(size_t)f * c->joint_count + joint];
        /* X^-1 Lk of each other child k: rotation qj^-1 qk, translation rest + qj^-1 (pk - pj) */
        for (int32_t k = 1; k < sk->joint_count; ++k) {
            if (k == joint || sk->parents[k] != 0) continue;
            ak_vec3 *pk = &c->translations[(size_t)f * c->track_count + c->joint_track[k]];
            ak_quat *qk = &c->rotations[(size_t)f * c->joint_count + k];
            *pk = akv_add(rest, akq_rotate(akq_conj(*qj), akv_sub(*pk, *pj)));
            *qk = akq_normalize(akq_mul(akq_conj(*qj), *qk));
        }
        *p0 = akv_add(*p0, akq_rotate(*q0, akv_sub(*pj, akq_rotate(*qj, rest))));
        *q0 = akq_normalize(akq_mul(*q0, *qj));
        *qj = ak_quat_identity();
        *pj = rest;
    }
    ak_clip_finalize(c);
}

/* The clip with a translation track on every child of joint 0 (travel_joint_on_top moves
 * them); a new track holds the joint's rest offset. *c is replaced when one is added. */
static int32_t top_children_tracked(const ak_skeleton *sk, ak_clip **c, ak_error *err)
{
    uint8_t *want = (uint8_t *)calloc((size_t)sk->joint_count, 1);
    if (!want) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t k = 1; k < sk->joint_count; ++k)
        want[k] = sk->parents[k] == 0;
    const int32_t st = akanim_clip_add_tracks(sk, c, want, err);
    free(want);
    return st;
}

static int32_t sources_make(ak_motion_db *db, const ak_skeleton *sk, const ak_motion_db_clip *clips,
                            int32_t n, const char *named, sources *s, ak_error *err)
{
    const char *root_joint = NULL;
    int32_t st0 = sources_root_joint(sk, clips, n, named, &db->root_joint, &root_joint, err);
    if (st0 != AK_OK) return st0;
    memset(s, 0, sizeof *s);
    s->clip = (ak_clip **)calloc((size_t)n, sizeof(ak_clip *));
    s->rm = (ak_root_motion **)calloc((size_t)n, sizeof(ak_root_motion *));
    s->has = (uint8_t *)calloc((size_t)db->J, 1);
    if (!s->clip || !s->rm || !s->has) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    s->n = n;
    s->has[0] = 1;
    for (int32_t i = 0; i < n; ++i) {
        s->clip[i] = ak_clip_clone(clips[i].clip);
        if (!s->clip[i]) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        /* The joint whose local transform moves up into joint 0's: the one carrying the
         * travel; where the top joint carries it, measured, the hips (a floor bone such as
         * Unreal's `root` above them, alone or beside the UE4 mannequin's ik bones, keeps
         * their height and turn apart, as a still top joint does). A top joint named by the caller
         * stays as it is. */
        int32_t body = root_joint ? 0 : db->humanoid.joint[AK_HUM_HIPS];
        if (root_joint) {
            const int32_t st = ak_clip_root_motion_prepare(sk, &s->clip[i], root_joint, NULL, err);
            if (st != AK_OK) return st;
            for (int32_t j = 0; j < sk->joint_count; ++j)
                if (strcmp(sk->names[j], root_joint) == 0) body = j;
        }
        if (body > 0 && sk->parents[body] == 0) {
            const int32_t st = top_children_tracked(sk, &s->clip[i], err);
            if (st != AK_OK) return st;
        }
        travel_joint_on_top(sk, s->clip[i], body);
        ak_clip_scale(s->clip[i], db->metres_per_unit);
        for (int32_t j = 0; j < db->J; ++j)
            if (s->clip[i]->joint_track[j] >= 0) s->has[j] = 1;
        if (s->clip[i]->loop) {
            ak_root_motion_params rp = ak_root_motion_defaults();
            int32_t st = ak_root_motion_create(db->skeleton, s->clip[i], &rp, &s->rm[i], err);
            if (st != AK_OK) return st;
        }
    }
    return AK_OK;
}

static int32_t check_inputs(const ak_skeleton *sk, const ak_motion_db_clip *clips, int32_t n,
                            ak_error *err)
{
    if (!sk || !clips || n < 1) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "no clips");
    if (sk->parents[0] != -1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint 0 must be the root");
    for (int32_t i = 0; i < n; ++i) {
        if (!clips[i].clip)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip %d is null", (int)i);
        if (clips[i].clip->joint_count != sk->joint_count)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "clip %d (%s) has %d joints, the skeleton %d", (int)i,
                                clips[i].name ? clips[i].name : "", (int)clips[i].clip->joint_count,
                                (int)sk->joint_count);
    }
    return AK_OK;
}

/* Humanoid map, units and the metre skeleton. */
static int32_t db_begin(ak_motion_db *db, const ak_skeleton *sk, const ak_clip *first,
                        const ak_motion_db_params *p, ak_error *err)
{
    int32_t st = ak_humanoid_find(sk, p->humanoid_overrides, &db->humanoid, err);
    if (st != AK_OK) return st;
    db->metres_per_unit = p->metres_per_unit;
    db->units = AK_UNITS_METRES;
    if (!(db->metres_per_unit > 0.0f)) {
        db->units =
            (int32_t)ak_units_detect(ak_clip_standing_height(first, sk), &db->metres_per_unit);
        if (!(db->metres_per_unit > 0.0f)) db->metres_per_unit = 1.0f;
    }
    st = ak_skeleton_clone(sk, &db->skeleton, err);
    if (st != AK_OK) return st;
    ak_skeleton_scale(db->skeleton, db->metres_per_unit);
    db->J = sk->joint_count;
    db->frame_time = 1.0f / p->frame_rate;
    return AK_OK;
}

/* Resamples every piece, sizes the database and stores the pieces. */
static int32_t db_fill(ak_motion_db *db, const ak_motion_db_clip *clips, const sources *src,
                       const piece *pcs, int32_t npc, const ak_motion_db_params *p, ak_error *err)
{
    if (npc < 1) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "no pieces to store");
    ak_clip **res = (ak_clip **)calloc((size_t)npc, sizeof(ak_clip *));
    ak_xform *scratch = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)db->J * 2);
    int32_t st = res && scratch ? AK_OK : ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    int32_t F = 0;
    for (int32_t i = 0; st == AK_OK && i < npc; ++i) {
        st = resample_piece(db->skeleton, src->clip[pcs[i].clip], src->rm[pcs[i].clip], pcs[i],
                            db->frame_time, src->has, scratch, &res[i], err);
        if (st == AK_OK) F += res[i]->frame_count;
    }
    if (st == AK_OK) {
        db->F = F;
        db->T = res[0]->track_count;
        db->clip_count = src->n;
        db->range_count = npc;
        st = ak_motion_db_alloc(db, err);
    }
    if (st == AK_OK) {
        for (int32_t t = 0; t < db->T; ++t)
            db->track_joint[t] = res[0]->track_joint[t];
        for (int32_t i = 0; i < src->n; ++i)
            if (clips[i].name) snprintf(db->clip_names[i], 64, "%s", clips[i].name);
    }
    int32_t g = 0;
    calib_sum cal;
    memset(&cal, 0, sizeof cal);
    for (int32_t i = 0; st == AK_OK && i < npc; ++i) {
        db->range_start[i] = g;
        st = store_piece(db, res[i], p, g, scratch, &cal, err);
        for (int32_t f = 0; f < res[i]->frame_count; ++f) {
            db->frame_clip[g + f] = pcs[i].clip;
            db->frame_time_src[g + f] = pcs[i].t0 + (float)f * db->frame_time;
        }
        g += res[i]->frame_count;
    }
    db->range_start[npc] = g;
    if (st == AK_OK) calib_store(db, &cal);
    for (int32_t i = 0; res && i < npc; ++i)
        ak_clip_destroy(res[i]);
    free(res);
    free(scratch);
    return st;
}

/* A run's longest flight, s: a flight of T lifts the body's centre g T^2 / 8, and a run's
 * centre rises and falls about 6-10 cm a stride (Cavanagh and Lafortune 1980), so a flight
 * lifting it more than 10 cm is a jump: sqrt(8 * 0.10 / 9.81) = 0.286 s. The test captures'
 * runs hold flights of up to 0.217 s (the contact detector's, CMU 02_03, 09_01, 09_02); Debian
 * assimp-testmodels' CMU 01_01 jumps forward with flights of 0.43-0.50 s. */
#define AK_MATCH_MAX_FLIGHT 0.286f
/* How far a standing foot may be above the take's lowest floor and still stand on the floor,
 * m: captured floors drift (CMU 02_01's ankles stand 5 cm higher at the end of the walk than at
 * its start: level_floor), a stair's riser is 15-19 cm; 01_03 steps onto a box at 0.38 and
 * 0.76 m. */
#define AK_MATCH_MAX_FLOOR_RISE 0.10f

/* The lowest point of the feet with a contact at frame f of clip c (world), INFINITY without
 * one. */
static float stance_floor(const ak_motion_db *db, const ak_clip *c, int32_t f, const uint8_t *flags,
                          ak_xform *local, ak_xform *world)
{
    const ak_skeleton *sk = db->skeleton;
    const int32_t n = c->frame_count;
    const int32_t foot[2] = {db->humanoid.joint[AK_HUM_LEFT_FOOT],
                             db->humanoid.joint[AK_HUM_RIGHT_FOOT]};
    float fl = INFINITY;
    if (!flags[f] && !flags[n + f]) return fl;
    ak_clip_frame(c, sk, f, local);
    ak_fk(sk, local, world);
    for (int s = 0; s < 2; ++s)
        for (int32_t j = foot[s]; flags[s * n + f] && j < sk->subtree_end[foot[s]]; ++j)
            if (world[j].translation.y < fl) fl = world[j].translation.y;
    return fl;
}

/* The frames of clip c (metres, world) off the floor the matcher walks on: in a flight longer
 * than AK_MATCH_MAX_FLIGHT (neither foot down by the database's contact detector), or standing
 * more than AK_MATCH_MAX_FLOOR_RISE above the take's lowest floor (on a prop). A jump or a
 * climb is no ground locomotion: 01_03's jump matched on flat ground put both feet 0.48 m up
 * at the arrival, then the hips 0.72 m down (knee 177.3 deg), and its box, levelled onto the
 * floor (level_floor), moved the hips -3.6 g. *out is a 0/1 flag per frame (malloc, freed by
 * the caller). AK_ERR_NOMEM, or the detector's status. */
static int32_t off_floor(const ak_motion_db *db, const ak_clip *c, const ak_motion_db_params *p,
                         uint8_t **out)
{
    const int32_t n = c->frame_count;
    uint8_t *flags = (uint8_t *)malloc((size_t)n * 2);
    uint8_t *aloft = (uint8_t *)calloc((size_t)n, 1);
    float *fl = (float *)malloc(sizeof(float) * (size_t)n);
    ak_xform *pose = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)db->J * 2);
    ak_error err;
    int32_t st =
        flags && aloft && fl && pose ? detect_contacts(db, c, p, flags, &err) : AK_ERR_NOMEM;
    float base = INFINITY;
    for (int32_t f = 0; st == AK_OK && f < n; ++f) {
        fl[f] = stance_floor(db, c, f, flags, pose, pose + db->J);
        base = fl[f] < base ? fl[f] : base;
    }
    for (int32_t f = 0, a = -1; st == AK_OK && f <= n; ++f) {
        const int up = f < n && !flags[f] && !flags[n + f];
        if (f < n && isfinite(fl[f]) && fl[f] > base + AK_MATCH_MAX_FLOOR_RISE) aloft[f] = 1;
        if (up && a < 0) a = f;
        if (up || a < 0) continue;
        if (a > 0 && f < n && (float)(f - a) * c->frame_time > AK_MATCH_MAX_FLIGHT) {
            /* with its two-footed take-off and landing (both feet down either side) */
            int32_t b = f;
            while (a > 0 && flags[a - 1] && flags[n + a - 1])
                --a;
            while (b < n && flags[b] && flags[n + b])
                ++b;
            memset(aloft + a, 1, (size_t)(b - a));
        }
        a = -1;
    }
    free(flags);
    free(fl);
    free(pose);
    if (st != AK_OK) {
        free(aloft);
        aloft = NULL;
    }
    *out = aloft;
    return st;
}

/* The pieces of every source: its isolated glitch keys repaired, then split where a body
 * joint still turns faster than max_joint_speed. A piece must hold 1 s of future plus a frame
 * on each side. Returns the piece count, -1 when out of memory. */
static int32_t split_sources(const ak_motion_db *db, const ak_motion_db_clip *clips, int32_t n,
                             const sources *src, const ak_motion_db_params *p, piece *pcs,
                             int32_t cap)
{
    ak_motion_db_clip *tmp = (ak_motion_db_clip *)malloc(sizeof *tmp * (size_t)n);
    uint8_t *body = (uint8_t *)malloc(db->J > 0 ? (size_t)db->J : 1);
    uint8_t **aloft = (uint8_t **)calloc((size_t)n, sizeof(uint8_t *));
    int32_t npc = -1, st = tmp && body && aloft ? AK_OK : AK_ERR_NOMEM;
    if (st == AK_OK) {
        body_joints(db, body);
        for (int32_t i = 0; i < n; ++i) {
            tmp[i] = clips[i];
            tmp[i].clip = src->clip[i];
            repair_glitches(src->clip[i], p->max_joint_speed * src->clip[i]->frame_time);
            if (st == AK_OK && !src->clip[i]->loop) st = off_floor(db, src->clip[i], p, &aloft[i]);
        }
    }
    if (st == AK_OK)
        npc = find_pieces(tmp, n, p, body, aloft, 1.0f + 2.0f * db->frame_time, pcs, cap);
    for (int32_t i = 0; aloft && i < n; ++i)
        free(aloft[i]);
    free(aloft);
    free(tmp);
    free(body);
    return npc;
}

int32_t ak_motion_db_create(const ak_skeleton *sk, const ak_motion_db_clip *clips,
                            int32_t clip_count, const ak_motion_db_params *p, ak_motion_db **out,
                            ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = check_inputs(sk, clips, clip_count, err);
    if (st == AK_OK) st = ak_motion_db_validate(p, err);
    if (st != AK_OK) return st;
    ak_motion_db *db = (ak_motion_db *)calloc(1, sizeof *db);
    if (!db) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    memcpy(db->weights, p->weights, sizeof db->weights);
    sources src;
    memset(&src, 0, sizeof src);
    piece *pcs = NULL;
    st = db_begin(db, sk, clips[0].clip, p, err);
    if (st == AK_OK) st = sources_make(db, sk, clips, clip_count, p->root_joint, &src, err);
    int32_t npc = 0;
    if (st == AK_OK) {
        int64_t cap = clip_count;
        for (int32_t i = 0; i < clip_count; ++i)
            cap += clips[i].clip->frame_count / 2 + 1;
        pcs = (piece *)malloc(sizeof(piece) * (size_t)cap);
        if (!pcs) st = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        if (st == AK_OK) npc = split_sources(db, clips, clip_count, &src, p, pcs, (int32_t)cap);
        if (npc < 0) st = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        if (st == AK_OK && npc == 0)
            st = ak_error_set(err, AK_ERR_DEGENERATE, 0,
                              "no part of the clips lasts 1 s without a cut: nothing to match");
    }
    if (st == AK_OK) st = db_fill(db, clips, &src, pcs, npc, p, err);
    if (st == AK_OK) {
        ak_motion_db_summarize(db);
        st = ak_motion_db_landings(db, err);
        if (st == AK_OK) st = ak_motion_db_prepare_search(db, 1, err);
    }
    free(pcs);
    sources_free(&src);
    if (st != AK_OK) {
        ak_motion_db_destroy(db);
        return st;
    }
    *out = db;
    return AK_OK;
}

/* The candidates' root speed range. */
static void speed_range(ak_motion_db *db)
{
    db->min_speed = INFINITY;
    db->max_speed = 0.0f;
    for (int32_t f = 0; f < db->F; ++f) {
        if (!db->cand[f]) continue;
        const float v = akv_len(db->delta[f]) / db->frame_time;
        if (v < db->min_speed) db->min_speed = v;
        if (v > db->max_speed) db->max_speed = v;
    }
    if (!(db->min_speed <= db->max_speed)) db->min_speed = 0.0f;
}

/* The frame held when standing: both ankles down at their stance height and the least
 * foot and hips motion (a standing capture wins; in walks, the stillest double support). */
void ak_motion_db_summarize(ak_motion_db *db)
{
    speed_range(db);
    float best = INFINITY;
    db->stand_frame = 0;
    for (int32_t f = 0; f < db->F; ++f) {
        const float *r = db->raw + (size_t)f * AK_MATCH_FEATURES;
        const float lift = fabsf(r[1] - db->sole_height[0]) + fabsf(r[4] - db->sole_height[1]);
        const float still = sqrtf(r[6] * r[6] + r[7] * r[7] + r[8] * r[8]) +
                            sqrtf(r[9] * r[9] + r[10] * r[10] + r[11] * r[11]) +
                            sqrtf(r[12] * r[12] + r[14] * r[14]);
        /* 1 cm of lift weighs as much as 0.1 m/s of motion */
        const float score = still + 10.0f * lift;
        if (score < best) {
            best = score;
            db->stand_frame = f;
        }
    }
}

void ak_motion_db_get_info(const ak_motion_db *db, ak_motion_db_info *info)
{
    if (!db || !info) return;
    memset(info, 0, sizeof *info);
    info->frame_count = db->F;
    info->candidate_count = db->ncand;
    info->range_count = db->range_count;
    info->clip_count = db->clip_count;
    info->joint_count = db->J;
    info->frame_time = db->frame_time;
    info->metres_per_unit = db->metres_per_unit;
    info->units = db->units;
    info->sole_height[0] = db->sole_height[0];
    info->sole_height[1] = db->sole_height[1];
    info->stand_frame = db->stand_frame;
    info->min_speed = db->min_speed;
    info->max_speed = db->max_speed;
}

const ak_skeleton *ak_motion_db_skeleton(const ak_motion_db *db)
{
    return db ? db->skeleton : NULL;
}
const ak_humanoid *ak_motion_db_humanoid(const ak_motion_db *db)
{
    return db ? &db->humanoid : NULL;
}
const ak_root_joint_report *ak_motion_db_root_joint(const ak_motion_db *db)
{
    return db ? &db->root_joint : NULL;
}
const char *ak_motion_db_clip_name(const ak_motion_db *db, int32_t clip)
{
    return db && clip >= 0 && clip < db->clip_count ? db->clip_names[clip] : "";
}
void ak_motion_db_frame_source(const ak_motion_db *db, int32_t frame, int32_t *clip, float *t)
{
    const int ok = db && frame >= 0 && frame < db->F;
    if (clip) *clip = ok ? db->frame_clip[frame] : -1;
    if (t) *t = ok ? db->frame_time_src[frame] : 0.0f;
}
int32_t ak_motion_db_is_candidate(const ak_motion_db *db, int32_t frame)
{
    return db && frame >= 0 && frame < db->F ? db->cand[frame] : 0;
}
int32_t ak_motion_db_contact(const ak_motion_db *db, int32_t frame, int32_t side)
{
    return db && frame >= 0 && frame < db->F && (side == 0 || side == 1)
               ? db->contact[2 * frame + side]
               : 0;
}
void ak_motion_db_pose(const ak_motion_db *db, int32_t frame, ak_xform *local)
{
    if (!db || !local) return;
    frame = frame < 0 ? 0 : (frame >= db->F ? db->F - 1 : frame);
    const ak_skeleton *sk = db->skeleton;
    for (int32_t j = 0; j < db->J; ++j) {
        local[j].rotation = db->rot[(size_t)frame * db->J + j];
        local[j].translation = sk->rest_local[j].translation;
    }
    for (int32_t t = 0; t < db->T; ++t)
        local[db->track_joint[t]].translation = db->trans[(size_t)frame * db->T + t];
}
void ak_motion_db_features(const ak_motion_db *db, int32_t frame, float *raw)
{
    if (!db || !raw || frame < 0 || frame >= db->F) return;
    memcpy(raw, db->raw + (size_t)frame * AK_MATCH_FEATURES, sizeof(float) * AK_MATCH_FEATURES);
}
void ak_motion_db_root_delta(const ak_motion_db *db, int32_t frame, ak_vec3 *delta, float *dh)
{
    const int ok = db && frame >= 0 && frame < db->F;
    if (delta) *delta = ok ? db->delta[frame] : ak_vec3_make(0, 0, 0);
    if (dh) *dh = ok ? db->dturn[frame] : 0.0f;
}

int32_t ak_motion_db_source_metrics(const ak_motion_db *db, ak_walk_metrics *out, ak_error *err)
{
    if (!db || !out)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "motion db source metrics: NULL argument");
    int32_t longest = 0;
    for (int32_t r = 0; r < db->range_count; ++r)
        if (db->range_start[r + 1] - db->range_start[r] > longest)
            longest = db->range_start[r + 1] - db->range_start[r];
    ak_xform *pose = (ak_xform *)malloc(2 * (size_t)db->J * sizeof *pose);
    ak_vec3 *feet = (ak_vec3 *)calloc(4 * (size_t)(longest > 0 ? longest : 1), sizeof *feet);
    uint8_t *bits = (uint8_t *)calloc(2 * (size_t)(longest > 0 ? longest : 1), 1);
    if (!pose || !feet || !bits) {
        free(pose);
        free(feet);
        free(bits);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "motion db source metrics: out of memory");
    }
    const ak_humanoid *h = &db->humanoid;
    const int32_t hips = ak_walk_metrics_source_begin(out, h);
    for (int32_t r = 0; r < db->range_count; ++r) {
        /* the feet with the range's travel (its root deltas), for the skate and the drag */
        ak_vec3 at = ak_vec3_make(0, 0, 0);
        float heading = 0.0f;
        const int32_t first = db->range_start[r];
        for (int32_t f = first; f < db->range_start[r + 1]; ++f) {
            ak_motion_db_pose(db, f, pose);
            ak_fk(db->skeleton, pose, pose + db->J);
            ak_walk_metrics_add_body(out, pose + db->J, hips, f == first ? 0.0f : db->frame_time);
            const ak_quat yaw = ak_quat_yaw(heading);
            for (int32_t s = 0; s < 2; ++s) {
                feet[4 * (f - first) + 2 * s] =
                    akv_add(at, akq_rotate(yaw, ak_motion_db_sole(db, pose + db->J, s)));
                feet[4 * (f - first) + 2 * s + 1] =
                    akv_add(at, akq_rotate(yaw, ak_motion_db_toe(db, pose + db->J, s)));
                bits[2 * (f - first) + s] = (uint8_t)db->contact[2 * f + s];
            }
            at = akv_add(at, akq_rotate(yaw, db->delta[f]));
            heading += db->dturn[f];
        }
        /* every stored pose stands on one floor, y = 0 (level_floor): the skate's and a planted
         * point's; a range is a clip's stretch, not a cycle: no seam */
        ak_walk_metrics_source_points(out, feet, bits, db->range_start[r + 1] - first, 0.0f,
                                      db->frame_time, NULL);
    }
    free(pose);
    free(feet);
    free(bits);
    return AK_OK;
}

ak_vec3 ak_motion_db_sole(const ak_motion_db *db, const ak_xform *world, int32_t s)
{
    const ak_xform a = world[db->humanoid.joint[s == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT]];
    return akv_sub(a.translation,
                   akv_scale(akq_rotate(a.rotation, db->foot_up_local[s]), db->sole_height[s]));
}

ak_vec3 ak_motion_db_toe(const ak_motion_db *db, const ak_xform *world, int32_t s)
{
    if (!db->has_toe[s]) return ak_motion_db_sole(db, world, s);
    const ak_xform a = world[db->humanoid.joint[s == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT]];
    return akv_add(a.translation, akq_rotate(a.rotation, db->toe_local[s]));
}

/* Foot s's landings in frames [first, end) of one range: each swinging frame's landing sole
 * and toe in its own character frame (the root deltas from it to the landing, then the landing
 * frame's points) and its swing phase. `pose` holds 2 J transforms. */
static void range_landings(ak_motion_db *db, int32_t first, int32_t end, int32_t s, ak_xform *pose)
{
    int32_t lift = first - 1; /* the last frame down before the swing */
    for (int32_t f = first; f < end; ++f) {
        db->swing_phase[2 * f + s] = -1.0f;
        db->land_rel[2 * f + s] = db->land_toe_rel[2 * f + s] = ak_vec3_make(0, 0, 0);
        if (db->contact[2 * f + s]) {
            lift = f;
            continue;
        }
        int32_t land = f + 1;
        while (land < end && !db->contact[2 * land + s])
            ++land;
        if (land >= end) continue;
        ak_motion_db_pose(db, land, pose);
        ak_fk(db->skeleton, pose, pose + db->J);
        const ak_vec3 sole = ak_motion_db_sole(db, pose + db->J, s);
        const ak_vec3 toe = ak_motion_db_toe(db, pose + db->J, s);
        ak_vec3 at = ak_vec3_make(0, 0, 0);
        float heading = 0.0f;
        for (int32_t k = f; k < land; ++k) {
            at = akv_add(at, akq_rotate(ak_quat_yaw(heading), db->delta[k]));
            heading += db->dturn[k];
        }
        db->land_rel[2 * f + s] = akv_add(at, akq_rotate(ak_quat_yaw(heading), sole));
        db->land_toe_rel[2 * f + s] = akv_add(at, akq_rotate(ak_quat_yaw(heading), toe));
        db->swing_phase[2 * f + s] = (float)(f - lift) / (float)(land - lift);
    }
}

/* The in-place hips' vertical acceleration of every frame of range [first, end) (hip_accel):
 * from the hips heights y (FK of each stored frame; `pose` holds 2 J transforms), at frame f
 * the mean of the n = akw_hip_window(frame time) second differences ending there,
 * (y[f] - y[f-1] - y[f-n] + y[f-n-1]) / (n ft^2), the walk metrics' 33 ms measure (the walk
 * motion's table, motion.c: hip_accels); the range holds its first frame before it. Each
 * frame's knees go into `knees` (ak_motion_db_source_metrics' measure). */
static void range_hip_accels(ak_motion_db *db, int32_t first, int32_t end, ak_xform *pose, float *y,
                             ak_walk_metrics *knees)
{
    const int32_t hips = db->humanoid.joint[AK_HUM_HIPS] >= 0 ? db->humanoid.joint[AK_HUM_HIPS] : 0;
    for (int32_t f = first; f < end; ++f) {
        ak_motion_db_pose(db, f, pose);
        ak_fk(db->skeleton, pose, pose + db->J);
        y[f - first] = pose[db->J + hips].translation.y;
        ak_walk_metrics_add_body(knees, pose + db->J, hips, f == first ? 0.0f : db->frame_time);
    }
    const float ft = db->frame_time;
    const int32_t w = akw_hip_window(ft);
    for (int32_t f = 0; f < end - first; ++f) {
        int32_t k[4];
        akw_hip_frames(f, end - first, 0, w, k);
        db->hip_accel[first + f] = akw_hip_accel(y, k, w, ft);
    }
}

int32_t ak_motion_db_landings(ak_motion_db *db, ak_error *err)
{
    const int feet =
        db->humanoid.joint[AK_HUM_LEFT_FOOT] >= 0 && db->humanoid.joint[AK_HUM_RIGHT_FOOT] >= 0;
    for (int32_t f = 0; f < 2 * db->F; ++f)
        db->swing_phase[f] = -1.0f; /* no landing known (no feet: none ever) */
    if (!feet) return AK_OK;
    ak_xform *pose = (ak_xform *)malloc(2 * (size_t)db->J * sizeof *pose);
    float *y = (float *)malloc((size_t)db->F * sizeof *y);
    if (!pose || !y) {
        free(pose);
        free(y);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "motion database: out of memory");
    }
    ak_walk_metrics knees;
    ak_walk_metrics_source_begin(&knees, &db->humanoid);
    for (int32_t r = 0; r < db->range_count; ++r) {
        range_hip_accels(db, db->range_start[r], db->range_start[r + 1], pose, y, &knees);
        for (int32_t s = 0; s < 2; ++s)
            range_landings(db, db->range_start[r], db->range_start[r + 1], s, pose);
    }
    db->knee_peak = knees.knee_peak;
    free(y);
    free(pose);
    return AK_OK;
}
