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
                          const uint8_t *flags, const float *v, float speed, ak_error *err)
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
    m->segment[AK_SEGMENT_START].join_error = e;
    return copy_segment(full, flags, s0, j, &m->segment[AK_SEGMENT_START], err);
}

/* The stop: from the frame that follows the loop's last frame (the cycle end itself when the
 * fall below the cycle's speed begins within a cycle of it, else the frame within the cycle
 * before the fall that matches the loop's frame 0 best) to the first still frame, plus up to
 * SETTLE_TIME of standing. */
static int32_t find_stop(ak_walk_motion *m, const ak_clip *full, const join_joints *body,
                         const uint8_t *flags, const float *v, float speed, ak_error *err)
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
    m->segment[AK_SEGMENT_STOP].join_error = err_pose;
    return copy_segment(full, flags, x, last, &m->segment[AK_SEGMENT_STOP], err);
}

int32_t ak_walk_motion_find_transitions(ak_walk_motion *m, const ak_clip *full,
                                        const uint8_t *flags, ak_error *err)
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
    int32_t st = find_start(m, full, &body, flags, v, speed, err);
    if (st == AK_OK) st = find_stop(m, full, &body, flags, v, speed, err);
    free(v);
    free(joint);
    return st;
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
