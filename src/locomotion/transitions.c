/* Captured starts and stops: where a capture stands on both feet with its root still before
 * the walking cycle (a start) or after it (a stop), those frames are cut out and joined to
 * the loop, so the walker can start and stop the way the person did. Load time; allocates. */
#include "animkit/walkmotion.h"
#include "core/xform_inline.h"
#include "locomotion/internal.h"

#include <stdlib.h>
#include <string.h>

/* Root speed under which a capture stands still (m/s): a standing person's sway is a few cm/s
 * (ReActIdle's idle drifts < 1 cm/s), the slowest walk in the test data moves 0.66 m/s. */
#define STILL_SPEED 0.1f
/* The ramp of a start (and the fall of a stop) ends (begins) where the root reaches this
 * fraction of the cycle's speed. */
#define RAMP_FRACTION 0.8f
/* A stop keeps this long of standing after its first still frame (the body settles). */
#define SETTLE_TIME 0.3f

void ak_walk_segment_free(ak_walk_segment *g)
{
    ak_clip_destroy(g->clip);
    ak_root_motion_destroy(g->root);
    for (int s = 0; s < 2; ++s) {
        free(g->contacts[s]);
        free(g->land_rel[s]);
        free(g->land_toe_rel[s]);
        free(g->swing_phase[s]);
    }
    free(g->hip_accel);
    memset(g, 0, sizeof *g);
}

/* Horizontal root speed of every frame (central difference over +-0.05 s), m/s. */
static float *root_speeds(const ak_clip *c)
{
    const int32_t n = c->frame_count, T = c->track_count, tr = c->joint_track[0];
    float *v = (float *)calloc((size_t)n, sizeof(float));
    if (!v || tr < 0) return v;
    int32_t k = (int32_t)lroundf(0.05f / c->frame_time);
    k = k < 1 ? 1 : k;
    for (int32_t f = 0; f < n; ++f) {
        const int32_t a = f - k < 0 ? 0 : f - k, b = f + k >= n ? n - 1 : f + k;
        const ak_vec3 pa = c->translations[(size_t)a * T + tr];
        const ak_vec3 pb = c->translations[(size_t)b * T + tr];
        const float dx = pb.x - pa.x, dz = pb.z - pa.z;
        v[f] = b > a ? sqrtf(dx * dx + dz * dz) / ((float)(b - a) * c->frame_time) : 0.0f;
    }
    return v;
}

static int still(const uint8_t *flags, int32_t n, const float *v, int32_t f)
{
    return flags[f] && flags[n + f] && v[f] < STILL_SPEED;
}

/* Same feet down (either point) at frames f and g. */
static int same_support(const uint8_t *flags, int32_t n, int32_t f, int32_t g)
{
    return (flags[f] != 0) == (flags[g] != 0) && (flags[n + f] != 0) == (flags[n + g] != 0);
}

/* Among frames [lo, hi] with the same feet down as the loop's frame 0 (source frame a), the
 * one whose pose and velocity match frame a best (root heading removed); `exact` when it lies
 * in the range. -1 when none. */
typedef struct join_joints {
    const int32_t *joint; /* the body's joints (akl_body_joints): the pose compared */
    int32_t count;
} join_joints;

static int32_t best_join(const ak_clip *full, const join_joints *body, const uint8_t *flags,
                         int32_t a, int32_t lo, int32_t hi, int32_t exact, float *error)
{
    const int32_t n = full->frame_count;
    if (exact >= lo && exact <= hi) {
        akl_cycle_errors_over(full, body->joint, body->count, a, exact, error, &(float){0.0f});
        return exact;
    }
    int32_t best = -1;
    float best_cost = INFINITY;
    for (int32_t f = lo < 0 ? 0 : lo; f <= hi && f + 1 < n; ++f) {
        if (!same_support(flags, n, f, a)) continue;
        float pe, ve;
        akl_cycle_errors_over(full, body->joint, body->count, a, f, &pe, &ve);
        /* The cycle finder's seam weighting: a pose radian ~ 10 rad/s of velocity. */
        if (pe + 0.1f * ve < best_cost) {
            best_cost = pe + 0.1f * ve;
            best = f;
            *error = pe;
        }
    }
    return best;
}

/* The character frame of frame f (root heading + horizontal position), metres. */
static ak_xform frame_character(const ak_clip *c, const ak_skeleton *sk, int32_t f)
{
    ak_xform x;
    const ak_quat q = c->rotations[(size_t)f * c->joint_count];
    x.rotation = ak_quat_yaw(ak_heading_of(q, ak_vec3_make(0, 0, 1)));
    const int32_t tr = c->joint_track[0];
    ak_vec3 p =
        tr >= 0 ? c->translations[(size_t)f * c->track_count + tr] : sk->rest_local[0].translation;
    x.translation = ak_vec3_make(p.x, 0.0f, p.z);
    return x;
}

/* Frame f of clip c (a copy of frames of `src`) moved toward src's frame `lead`, carried by G
 * (the lead's character frame onto c's place: the root's heading and ground position), by w in
 * [0, 1]. */
void akl_blend_toward(const ak_clip *src, int32_t lead, ak_xform G, float w, ak_clip *c, int32_t f)
{
    const int32_t J = src->joint_count, T = src->track_count, rt = src->joint_track[0];
    ak_quat *dst = c->rotations + (size_t)f * J;
    const ak_quat *from = src->rotations + (size_t)lead * J;
    for (int32_t j = 0; j < J; ++j) {
        ak_quat target = from[j];
        if (j == 0) target = akq_mul(G.rotation, target);
        dst[j] = akq_slerp(dst[j], target, w);
    }
    for (int32_t k = 0; k < T; ++k) {
        ak_vec3 target = src->translations[(size_t)lead * T + k];
        if (k == rt) {
            const float y = target.y;
            target = akx_mul(G, (ak_xform){ak_quat_identity(), target}).translation;
            target.y = y;
        }
        ak_vec3 *d = c->translations + (size_t)f * T + k;
        *d = akv_lerp(*d, target, w);
    }
}

ak_xform akl_carry(const ak_clip *src, const ak_skeleton *sk, int32_t from, int32_t to)
{
    return akx_mul(frame_character(src, sk, to), akx_inverse(frame_character(src, sk, from)));
}

/* A join that is not the capture's own continuation is a seam like the cycle's and is
 * crossfaded as the cycle's is (over the motion's seam_blend, `blend` frames, at most a third
 * of the segment): a start's last frames toward the frames leading into the loop's first
 * (source frame a), a stop's first frames from the ones that follow the loop's last (source
 * frame a on), each carried to the segment's place. Played without it, CMU 01_03 (Debian's
 * assimp-testmodels) jumped into its stop at frame 1683, 0.210 rad off the loop's frame 0:
 * the swinging foot moved 0.37 m in a frame, the hips 12 mm (-4.85..4.88 g on the hills
 * against the source's -1.39..1.68). A stop that leaves from the loop's end itself (frame b)
 * is crossfaded too: the loop as played ends near frame a - 1 (its own seam's crossfade,
 * motion.c blend_seam), not b - 1, so frame b is not what follows it (Boxing_Toes' hips stand
 * 24.6 mm lower at b than at a: they dropped that in a frame, -8.87..7.40 g on flat ground). A
 * start needs none there: the loop's first frame is the capture's. */
static void blend_join(const ak_skeleton *sk, const ak_clip *full, int32_t a, int32_t blend,
                       int is_stop, ak_walk_segment *g)
{
    ak_clip *c = g->clip;
    const int32_t n = c->frame_count;
    if (blend > n / 3) blend = n / 3;
    if (blend <= 0) return;
    if (is_stop) {
        if (a + blend >= full->frame_count) blend = full->frame_count - 1 - a;
        const ak_xform G = akl_carry(full, sk, a, g->source_first);
        for (int32_t i = 0; i < blend; ++i)
            akl_blend_toward(full, a + i, G, (float)(blend - i) / (float)(blend + 1), c, i);
    } else {
        if (blend > a) blend = a;
        const ak_xform G = akl_carry(full, sk, a, g->source_last + 1);
        for (int32_t i = 0; i < blend; ++i)
            akl_blend_toward(full, a - blend + i, G, (float)(i + 1) / (float)(blend + 1), c,
                             n - blend + i);
    }
    ak_clip_finalize(c);
}

/* Source frames [first, last] of `full` with their contacts into segment g (not looping). */
static int32_t copy_segment(const ak_clip *full, const uint8_t *flags, int32_t first, int32_t last,
                            ak_walk_segment *g, ak_error *err)
{
    const int32_t n = last - first + 1, J = full->joint_count, T = full->track_count;
    uint8_t *has = (uint8_t *)calloc((size_t)J, 1);
    if (!has) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; j < J; ++j)
        has[j] = full->joint_track[j] >= 0;
    int32_t st = ak_clip_create(J, n, full->frame_time, has, &g->clip, err);
    free(has);
    if (st != AK_OK) return st;
    g->clip->loop = 0;
    memcpy(g->clip->rotations, full->rotations + (size_t)first * J,
           sizeof(ak_quat) * (size_t)n * J);
    if (T)
        memcpy(g->clip->translations, full->translations + (size_t)first * T,
               sizeof(ak_vec3) * (size_t)n * T);
    ak_clip_finalize(g->clip);
    for (int s = 0; s < 2; ++s) {
        g->contacts[s] = (uint8_t *)malloc((size_t)n);
        if (!g->contacts[s]) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        memcpy(g->contacts[s], flags + (size_t)s * full->frame_count + first, (size_t)n);
    }
    g->source_first = first;
    g->source_last = last;
    return AK_OK;
}

/* The start: from the last still frame before the cycle, through the ramp to the cycle's
 * speed, to the frame that joins the loop's frame 0 (the cycle start itself when the ramp
 * ends within a cycle of it, else the best-matching frame within a cycle after the ramp). */
static int32_t find_start(ak_walk_motion *m, const ak_clip *full, const join_joints *body,
                          const uint8_t *flags, const float *v, float speed, int32_t blend,
                          ak_error *err)
{
    const int32_t n = full->frame_count, a = m->cycle_start, len = m->cycle_end - a;
    int32_t s0 = a - 1;
    while (s0 >= 0 && !still(flags, n, v, s0))
        --s0;
    if (s0 < 0) return AK_OK;
    int32_t r = s0 + 1;
    while (r < a && v[r] < RAMP_FRACTION * speed)
        ++r;
    float e = 0.0f;
    const int32_t j = best_join(full, body, flags, a, r, r + len, a, &e);
    if (j < 0 || j <= s0 + 1) return AK_OK;
    ak_walk_segment *g = &m->segment[AK_SEGMENT_START];
    g->join_error = e;
    const int32_t st = copy_segment(full, flags, s0, j, g, err);
    if (st == AK_OK && j != a) blend_join(m->skeleton, full, a, blend, 0, g);
    return st;
}

/* The stop: from the frame that follows the loop's last frame (the cycle end itself when the
 * fall below the cycle's speed begins within a cycle of it, else the frame within the cycle
 * before the fall that matches the loop's frame 0 best) to the first still frame, plus up to
 * SETTLE_TIME of standing; crossfaded from the loop either way (blend_join). */
static int32_t find_stop(ak_walk_motion *m, const ak_clip *full, const join_joints *body,
                         const uint8_t *flags, const float *v, float speed, int32_t blend,
                         ak_error *err)
{
    const int32_t n = full->frame_count, a = m->cycle_start, b = m->cycle_end, len = b - a;
    int32_t e = b;
    while (e < n && !still(flags, n, v, e))
        ++e;
    if (e >= n) return AK_OK;
    int32_t d = e - 1;
    while (d > b && v[d] < RAMP_FRACTION * speed)
        --d;
    float err_pose = 0.0f;
    const int32_t x = best_join(full, body, flags, a, d - len, d, b, &err_pose);
    if (x < 0 || x >= e) return AK_OK;
    int32_t last = e;
    const int32_t settle = (int32_t)lroundf(SETTLE_TIME / full->frame_time);
    while (last + 1 < n && last + 1 <= e + settle && still(flags, n, v, last + 1))
        ++last;
    ak_walk_segment *g = &m->segment[AK_SEGMENT_STOP];
    g->join_error = err_pose;
    const int32_t st = copy_segment(full, flags, x, last, g, err);
    if (st == AK_OK) blend_join(m->skeleton, full, a, blend, 1, g);
    return st;
}

int32_t ak_walk_motion_find_transitions(ak_walk_motion *m, const ak_clip *full,
                                        const uint8_t *flags, int32_t blend, ak_error *err)
{
    const int32_t a = m->cycle_start, b = m->cycle_end, tr = full->joint_track[0];
    if (tr < 0 || b <= a) return AK_OK;
    const ak_vec3 pa = full->translations[(size_t)a * full->track_count + tr];
    const ak_vec3 pb = full->translations[(size_t)b * full->track_count + tr];
    const float speed = sqrtf((pb.x - pa.x) * (pb.x - pa.x) + (pb.z - pa.z) * (pb.z - pa.z)) /
                        ((float)(b - a) * full->frame_time);
    if (!(speed > 2.0f * STILL_SPEED)) return AK_OK;
    float *v = root_speeds(full);
    int32_t *joint = (int32_t *)malloc(sizeof(int32_t) * (size_t)full->joint_count);
    if (!v || !joint) {
        free(v);
        free(joint);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    const join_joints body = {joint, akl_body_joints(m->skeleton, joint)};
    int32_t st = find_start(m, full, &body, flags, v, speed, blend, err);
    if (st == AK_OK) st = find_stop(m, full, &body, flags, v, speed, blend, err);
    free(v);
    free(joint);
    return st;
}

/* The body figures a walk is held to (issue 21): the hips' vertical acceleration, g, and the
 * peak knee flexion, radians. */
typedef struct body_figures {
    float accel_min_g, accel_max_g, knee_peak;
} body_figures;

/* The body figures of clip c as played: its frames once, or twice round when it loops (so its
 * seam counts), measured as the walk metrics measure a walk (walkmetrics.c, which this file
 * cannot call: it reads the walk motion this file helps build): the hips' height averaged over
 * 33 ms, its second difference (akw_hip_accel, from the first frame with a full window), and
 * both knees (akw_knee_flexion). pose: 2 * joint_count; y: a height per frame played. */
static void body_figures_of(const ak_walk_motion *m, const ak_clip *c, ak_xform *pose, float *y,
                            body_figures *out)
{
    const ak_skeleton *sk = m->skeleton;
    const ak_humanoid *h = &m->humanoid;
    const int32_t n = c->frame_count, played = c->loop ? 2 * n : n;
    const int32_t hips = h->joint[AK_HUM_HIPS] >= 0 ? h->joint[AK_HUM_HIPS] : 0;
    const ak_xform *world = pose + sk->joint_count;
    out->knee_peak = 0.0f;
    for (int32_t i = 0; i < played; ++i) {
        ak_clip_frame(c, sk, i % n, pose);
        ak_fk(sk, pose, pose + sk->joint_count);
        y[i] = world[hips].translation.y;
        out->knee_peak =
            fmaxf(out->knee_peak,
                  akw_knee_flexion(world, h->joint[AK_HUM_LEFT_UPPER_LEG],
                                   h->joint[AK_HUM_LEFT_LOWER_LEG], h->joint[AK_HUM_LEFT_FOOT]));
        out->knee_peak =
            fmaxf(out->knee_peak,
                  akw_knee_flexion(world, h->joint[AK_HUM_RIGHT_UPPER_LEG],
                                   h->joint[AK_HUM_RIGHT_LOWER_LEG], h->joint[AK_HUM_RIGHT_FOOT]));
    }
    const int32_t w = akw_hip_window(c->frame_time);
    out->accel_min_g = out->accel_max_g = 0.0f;
    for (int32_t f = w + 1; f < played; ++f) {
        const int32_t k[4] = {f, f - 1, f - w, f - w - 1};
        const float a = akw_hip_accel(y, k, w, c->frame_time) / AK_GRAVITY;
        out->accel_min_g = f == w + 1 ? a : fminf(out->accel_min_g, a);
        out->accel_max_g = f == w + 1 ? a : fmaxf(out->accel_max_g, a);
    }
}

/* Issue 21's bounds on a walk around its source's own figures: the hips' vertical acceleration
 * within min(source, -1 g) - 0.25 g .. max(source, +1 g) + 0.5 g, the peak knee at most
 * max(source peak, 75 deg) + 25 deg. Writes the played figures and the bounds into *check and
 * returns the AK_TRANSITION_BREAKS_* bits the played figures break (0: within). */
static int32_t walk_bounds_broken(const body_figures *source, const body_figures *played,
                                  ak_transition_check *check)
{
    check->hip_accel_min_g = played->accel_min_g;
    check->hip_accel_max_g = played->accel_max_g;
    check->knee_peak = played->knee_peak;
    check->hip_accel_low_g = fminf(source->accel_min_g, -1.0f) - 0.25f;
    check->hip_accel_high_g = fmaxf(source->accel_max_g, 1.0f) + 0.5f;
    check->knee_bound = fmaxf(source->knee_peak, 75.0f * AK_PI / 180.0f) + 25.0f * AK_PI / 180.0f;
    int32_t broken = 0;
    if (!(played->accel_min_g >= check->hip_accel_low_g)) broken |= AK_TRANSITION_BREAKS_HIPS_FALL;
    if (!(played->accel_max_g <= check->hip_accel_high_g)) broken |= AK_TRANSITION_BREAKS_HIPS_RISE;
    if (!(played->knee_peak <= check->knee_bound)) broken |= AK_TRANSITION_BREAKS_KNEE;
    return broken;
}

int32_t ak_walk_motion_segments_check(ak_walk_motion *m, ak_error *err)
{
    ak_walk_segment *g = m->segment;
    if (!g[AK_SEGMENT_START].clip && !g[AK_SEGMENT_STOP].clip) return AK_OK;
    int32_t most = 2 * m->clip->frame_count;
    for (int k = 0; k < 2; ++k)
        if (g[k].clip && g[k].clip->frame_count > most) most = g[k].clip->frame_count;
    ak_xform *pose = (ak_xform *)malloc(2 * sizeof(ak_xform) * (size_t)m->skeleton->joint_count);
    float *y = (float *)malloc(sizeof(float) * (size_t)most);
    if (!pose || !y) {
        free(pose);
        free(y);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    body_figures cycle, played;
    body_figures_of(m, m->clip, pose, y, &cycle);
    for (int k = 0; k < 2; ++k) {
        if (!g[k].clip) continue;
        body_figures_of(m, g[k].clip, pose, y, &played);
        /* What was found and measured is kept for ak_walk_motion_info (the user asks why a
         * captured stop is not played). */
        ak_transition_check *c = &m->transition_check[k];
        c->frames[0] = g[k].source_first;
        c->frames[1] = g[k].source_last;
        c->broken = walk_bounds_broken(&cycle, &played, c);
        c->use = c->broken ? AK_TRANSITION_DROPPED : AK_TRANSITION_USED;
        if (c->broken) ak_walk_segment_free(&g[k]);
    }
    free(pose);
    free(y);
    return AK_OK;
}

int32_t ak_walk_motion_segments_finish(ak_walk_motion *m, ak_error *err)
{
    for (int k = 0; k < 2; ++k) {
        ak_walk_segment *g = &m->segment[k];
        if (!g->clip || g->root) continue;
        ak_root_motion_params rp = ak_root_motion_defaults();
        const int32_t st = ak_root_motion_create(m->skeleton, g->clip, &rp, &g->root, err);
        if (st != AK_OK) return st;
    }
    return AK_OK;
}
