/* Walk quality, measured frame by frame: contact errors while planted, skate of every foot
 * point on the ground (held or not), the depth of every foot point in any phase, the drag of
 * every foot point within 5 mm of the ground, the hips' vertical acceleration (33 ms average)
 * and the knee flexion, and the same figures of a walk motion's own cycle. */
#include "animkit/walkmetrics.h"
#include "core/xform_inline.h"
#include "locomotion/internal.h"

#include <stdlib.h>
#include <string.h>

#define AK_G AK_GRAVITY

void ak_walk_metrics_set_legs(ak_walk_metrics *m, const int32_t upper[2], const int32_t lower[2],
                              const int32_t foot[2])
{
    if (!m || !upper || !lower || !foot) return;
    m->legs_set = 1;
    for (int k = 0; k < 2; ++k) {
        m->upper[k] = upper[k];
        m->lower[k] = lower[k];
        m->foot[k] = foot[k];
        if (upper[k] < 0 || lower[k] < 0 || foot[k] < 0) m->legs_set = 0;
    }
}

/* The hips' height averaged over the last 33 ms (n = akw_hip_window(dt) samples), then the
 * second difference of that average / dt^2, in g. */
static void metrics_hips(ak_walk_metrics *m, float y, float dt)
{
    const int cap = (int)(sizeof m->hip_y / sizeof m->hip_y[0]);
    _Static_assert(sizeof m->hip_y / sizeof m->hip_y[0] >= AK_HIP_WINDOW_MAX, "hips window");
    if (!(dt > 0.0f)) { /* a new walk: the height is the first sample, nothing averaged yet */
        m->hip_y_count = 0;
        m->smooth_count = 0;
    }
    memmove(m->hip_y + 1, m->hip_y, (size_t)(cap - 1) * sizeof m->hip_y[0]);
    m->hip_y[0] = y;
    if (m->hip_y_count < cap) ++m->hip_y_count;
    if (!(dt > 0.0f)) return;
    const int n = akw_hip_window(dt);
    if (m->hip_y_count < n) return;
    float sum = 0.0f;
    for (int i = 0; i < n; ++i)
        sum += m->hip_y[i];
    m->smooth_y[2] = m->smooth_y[1];
    m->smooth_y[1] = m->smooth_y[0];
    m->smooth_y[0] = sum / (float)n;
    if (m->smooth_count < 3) ++m->smooth_count;
    if (m->smooth_count < 3) return;
    const float a = (m->smooth_y[0] - 2.0f * m->smooth_y[1] + m->smooth_y[2]) / (dt * dt) / AK_G;
    const int first = m->hip_accel_n++ == 0;
    if (first || a < m->hip_accel_min_g) m->hip_accel_min_g = a;
    if (first || a > m->hip_accel_max_g) m->hip_accel_max_g = a;
}

/* Knee flexion of both legs: the angle between thigh (hip -> knee) and shank (knee -> ankle),
 * 0 for a straight leg. */
static void metrics_legs(ak_walk_metrics *m, const ak_xform *world)
{
    if (!m->legs_set) return;
    for (int k = 0; k < 2; ++k) {
        const float flexion = akw_knee_flexion(world, m->upper[k], m->lower[k], m->foot[k]);
        if (flexion > m->knee_peak) m->knee_peak = flexion;
    }
}

/* One point's depth below the ground it was measured against, any phase. */
static void depth_point(ak_walk_metrics *m, float y, float ground, int side, int point, int stance)
{
    if (!isfinite(ground)) return;
    if (stance && ground - y > m->deepest_planted) {
        m->deepest_planted = ground - y;
        m->deepest_planted_frame = m->frames - 1;
        m->deepest_planted_side = side;
        m->deepest_planted_point = point;
    }
    if (!(ground - y > m->deepest)) return;
    m->deepest = ground - y;
    m->deepest_frame = m->frames - 1;
    m->deepest_side = side;
    m->deepest_point = point;
    m->deepest_stance = stance;
}

static void metrics_depth(ak_walk_metrics *m, const ak_walker_state *s, const ak_xform *world)
{
    for (int k = 0; k < 2; ++k) {
        depth_point(m, s->sole[k].y, s->sole_ground[k], k, 0, s->stance[k]);
        depth_point(m, s->toe[k].y, s->toe_ground[k], k, 1, s->stance[k]);
        if (m->legs_set)
            depth_point(m, world[m->foot[k]].translation.y, s->sole_ground[k], k, 2, s->stance[k]);
    }
}

int32_t ak_walk_metrics_source_begin(ak_walk_metrics *m, const ak_humanoid *h)
{
    ak_walk_metrics_reset(m);
    const int32_t upper[2] = {h->joint[AK_HUM_LEFT_UPPER_LEG], h->joint[AK_HUM_RIGHT_UPPER_LEG]};
    const int32_t lower[2] = {h->joint[AK_HUM_LEFT_LOWER_LEG], h->joint[AK_HUM_RIGHT_LOWER_LEG]};
    const int32_t foot[2] = {h->joint[AK_HUM_LEFT_FOOT], h->joint[AK_HUM_RIGHT_FOOT]};
    ak_walk_metrics_set_legs(m, upper, lower, foot);
    return h->joint[AK_HUM_HIPS] >= 0 ? h->joint[AK_HUM_HIPS] : 0;
}

void ak_walk_metrics_add_body(ak_walk_metrics *m, const ak_xform *world, int32_t hips, float dt)
{
    metrics_hips(m, world[hips].translation.y, dt);
    metrics_legs(m, world);
}

/* Point i of frame f of a run of `frames` frames (pts, bits as ak_walk_metrics_source_points
 * reads them): frame `frames` is the seam's (the cycle's first frame carried by its travel,
 * seam[i]; its contacts the first frame's). */
static ak_vec3 run_point(const ak_vec3 *pts, const ak_vec3 *seam, int32_t frames, int32_t f, int i)
{
    return f < frames ? pts[4 * f + i] : seam[i];
}

/* The frame pairs of a run: frames - 1, and the seam's pair (last frame -> the first carried by
 * the cycle's travel) where the run is a cycle (seam not NULL). */
static int32_t run_pairs(int32_t frames, const ak_vec3 *seam)
{
    return frames < 1 ? 0 : seam ? frames : frames - 1;
}

/* The source's skate (ak_walk_metrics_source_points) over one run, the seam's pair included. */
static void source_skate(ak_walk_metrics *m, const ak_vec3 *pts, const uint8_t *bits,
                         int32_t frames, float floor_y, float dt, const ak_vec3 *seam)
{
    for (int i = 0; i < 4; ++i) {
        const int bit = i & 1 ? AK_CONTACT_TOE : AK_CONTACT_HEEL;
        for (int32_t f = 1; f <= run_pairs(frames, seam); ++f) {
            const ak_vec3 a = run_point(pts, seam, frames, f - 1, i);
            const ak_vec3 b = run_point(pts, seam, frames, f, i);
            if (!(bits[2 * (f - 1) + i / 2] & bit) || !(bits[2 * (f % frames) + i / 2] & bit) ||
                a.y - floor_y > AK_WALK_SKATE_HEIGHT || b.y - floor_y > AK_WALK_SKATE_HEIGHT)
                continue;
            const float v = sqrtf((b.x - a.x) * (b.x - a.x) + (b.z - a.z) * (b.z - a.z)) / dt;
            m->skate_sum += v;
            ++m->skate_n;
            if (v > m->max_skate) m->max_skate = v;
        }
    }
    m->skate = m->skate_n ? (float)(m->skate_sum / m->skate_n) : 0.0f;
}

void ak_walk_points_floor(const ak_vec3 *pts, int32_t frames, float floor[4])
{
    for (int i = 0; i < 4; ++i)
        floor[i] = INFINITY;
    for (int32_t f = 0; f < frames; ++f)
        for (int i = 0; i < 4; ++i)
            floor[i] = fminf(floor[i], pts[4 * f + i].y);
}

/* The drag of one heel or toe over one frame dt long, the one measure of the walk's figure
 * (metrics_drag: heights over the ground under the point) and of the source's bound
 * (source_drag: heights over the ground the walker puts the point on, source_height): its
 * horizontal speed from `was` to `at` when it is within AK_WALK_DRAG_HEIGHT of its ground (or
 * below it) at both ends of the frame, h_was and h_at its heights over that ground (NaN: no
 * ground under it, not on it); -1 when not. */
static float drag_speed(ak_vec3 was, float h_was, ak_vec3 at, float h_at, float dt)
{
    if (!(dt > 0.0f) || !(h_was <= AK_WALK_DRAG_HEIGHT) || !(h_at <= AK_WALK_DRAG_HEIGHT))
        return -1.0f;
    const float dx = at.x - was.x, dz = at.z - was.z;
    return sqrtf(dx * dx + dz * dz) / dt;
}

/* Point i's height over the ground the walker puts it on at frame f of a source run (frame
 * `frames`: the seam's, its contacts the first frame's). The grounding holds a point two ways
 * (footik.c): a point its contact has down is planted on the ground under it (leg_offset: the
 * ground, the animated lift over the clip's floor fading out as the planting fades in), the
 * clip's floor mapped onto the terrain (walker.c: the character at floor - floor_y; the matcher's
 * database on its range's floor, 0), so its height is over floor_y; a point not down is held at
 * its clearance, its height over its own lowest in the run (source_clearance: point_floor, the
 * matcher's point_clear), so its height is over that lowest. For the 8 test captures and the
 * built-in clip, per point (mm over floor_y, L heel/toe, R heel/toe): the lowest -0.0/-2.7/
 * -0.0/-2.7 (built-in), 02_01 -8.8/-9.5/-3.7/-3.4, 07_01 -10.7/-11.9/-12.3/-3.8, 16_11
 * -12.3/-3.8/-6.7/-3.0, 09_01 -25.5/-8.7/-24.3/-12.5, 02_02 -9.2/-2.3/-12.5/-18.8, 02_03
 * -19.6/-6.9/-23.2/-6.5, 07_04 -3.6/-2.7/-19.5/-21.4, 09_02 -23.0/-8.2/-21.2/-11.0; the height
 * the grounding plants each at: 0 over the ground, floor_y's place; the mean height of a point
 * while its contact has it down: within 5.4 mm of floor_y but for 02_02's right toe (-14.2, a
 * push-off roll) and the runs' heels (-17.9 to -21.4 over 7 heel-strike frames; 09_01's heels
 * are never down). One ground alone misreads one phase: the lowest alone missed every planted
 * frame of a point whose lowest is a one-frame dip (16_11's left heel, -12.3 mm at frame 94,
 * +1.6 and -0.0 the frames either side: 1 frame within 5 mm of it, its bound the 1 cm/s floor
 * under its own planted 0.46 m/s); floor_y alone counted swings the grounding holds higher
 * (07_01's right heel passes -3.6 mm over floor_y at 4.5 m/s, frames 12-17, held 8.7 mm over its
 * lowest: its bound 0.54 -> 4.57 m/s). Both, with the seam: the bounds of the 9 clips' 36 points
 * rise 0 - 0.51 m/s, none falls (16_11's left heel 0.00 -> 0.505, its right heel 0.507 ->
 * 1.019, 07_01's left toe 0.134 -> 0.327). */
static float source_height(const ak_vec3 *pts, const uint8_t *bits, int32_t frames,
                           const ak_vec3 *seam, int32_t f, int i, float floor_y, float lowest)
{
    const int bit = i & 1 ? AK_CONTACT_TOE : AK_CONTACT_HEEL;
    const float y = run_point(pts, seam, frames, f, i).y;
    return bits[2 * (f % frames) + i / 2] & bit ? y - floor_y : y - lowest;
}

/* The source's drag over one run: each point's fastest drag_speed, its heights over the ground
 * the walker puts it on (source_height), the seam's pair included where the run is a cycle;
 * kept where larger than the runs before. */
static void source_drag(ak_walk_metrics *m, const ak_vec3 *pts, const uint8_t *bits, int32_t frames,
                        float floor_y, float dt, const ak_vec3 *seam)
{
    float lowest[4];
    ak_walk_points_floor(pts, frames, lowest);
    for (int32_t f = 1; f <= run_pairs(frames, seam); ++f)
        for (int i = 0; i < 4; ++i) {
            const float v =
                drag_speed(run_point(pts, seam, frames, f - 1, i),
                           source_height(pts, bits, frames, seam, f - 1, i, floor_y, lowest[i]),
                           run_point(pts, seam, frames, f, i),
                           source_height(pts, bits, frames, seam, f, i, floor_y, lowest[i]), dt);
            m->drag[i / 2][i % 2] = fmaxf(m->drag[i / 2][i % 2], v);
        }
}

void ak_walk_metrics_source_points(ak_walk_metrics *m, const ak_vec3 *pts, const uint8_t *bits,
                                   int32_t frames, float floor_y, float dt, const ak_vec3 *seam)
{
    if (!(dt > 0.0f) || frames < 1) return;
    source_skate(m, pts, bits, frames, floor_y, dt, seam);
    source_drag(m, pts, bits, frames, floor_y, dt, seam);
}

/* The heel (sole point) and toe of both feet of a walk motion's posed frame, clip space. */
static void motion_feet(const ak_walk_motion *mo, const ak_xform *world, ak_vec3 *out)
{
    for (int k = 0; k < 2; ++k) {
        const ak_xform a = world[mo->humanoid.joint[k ? AK_HUM_RIGHT_FOOT : AK_HUM_LEFT_FOOT]];
        out[2 * k] = akv_sub(a.translation, akv_scale(akq_rotate(a.rotation, mo->foot_up_local[k]),
                                                      mo->sole_height[k]));
        out[2 * k + 1] = mo->has_toe[k]
                             ? akv_add(a.translation, akq_rotate(a.rotation, mo->toe_local[k]))
                             : out[2 * k];
    }
}

/* The frame after the cycle's last, which every walk crosses into: the first frame's heel and
 * toe (feet[0..3]) carried by the cycle's travel, the root at the cycle's end (t = duration)
 * against its start (ak_root_motion_at; the cut's loop end, or the steady travel continued). */
static void cycle_seam(const ak_walk_motion *motion, const ak_vec3 *feet, ak_vec3 seam[4])
{
    ak_vec3 start, end;
    float h_start, h_end;
    ak_root_motion_at(motion->root, 0.0f, &start, &h_start);
    ak_root_motion_at(motion->root, ak_root_motion_duration(motion->root), &end, &h_end);
    const ak_quat turn = ak_quat_yaw(h_end - h_start);
    for (int i = 0; i < 4; ++i) {
        ak_vec3 rel = akv_sub(feet[i], start);
        const float y = feet[i].y;
        rel.y = 0.0f;
        seam[i] = akv_add(end, akq_rotate(turn, rel));
        seam[i].y = y;
    }
}

int32_t ak_walk_metrics_source(const ak_walk_motion *motion, ak_walk_metrics *out, ak_error *err)
{
    if (!motion || !out)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "walk metrics source: NULL argument");
    const ak_skeleton *sk = ak_walk_motion_skeleton(motion);
    const ak_clip *clip = ak_walk_motion_clip(motion);
    const ak_humanoid *h = ak_walk_motion_humanoid(motion);
    ak_xform *pose = malloc(2 * (size_t)sk->joint_count * sizeof *pose);
    ak_vec3 *feet = calloc(4 * (size_t)clip->frame_count, sizeof *feet);
    uint8_t *bits = calloc(2 * (size_t)clip->frame_count, 1);
    if (!pose || !feet || !bits) {
        free(pose);
        free(feet);
        free(bits);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "walk metrics source: out of memory");
    }
    const int32_t hips = ak_walk_metrics_source_begin(out, h);
    for (int32_t i = 0; i < 2 * clip->frame_count; ++i) {
        ak_clip_frame(clip, sk, i % clip->frame_count, pose);
        ak_fk(sk, pose, pose + sk->joint_count);
        ak_walk_metrics_add_body(out, pose + sk->joint_count, hips, i ? clip->frame_time : 0.0f);
        if (i < clip->frame_count) {
            motion_feet(motion, pose + sk->joint_count, feet + 4 * i);
            bits[2 * i] = motion->contacts[0][i];
            bits[2 * i + 1] = motion->contacts[1][i];
        }
    }
    /* the cycle keeps its travel: once through and across its seam, on the cycle's own floor */
    ak_vec3 seam[4];
    cycle_seam(motion, feet, seam);
    ak_walk_metrics_source_points(out, feet, bits, clip->frame_count, motion->floor_y,
                                  clip->frame_time, seam);
    free(pose);
    free(feet);
    free(bits);
    out->frames = 0;
    return AK_OK;
}

/* The drag's frames and heights before any frame: none measured, no height known. */
static void drag_begin(ak_walk_metrics *m)
{
    for (int k = 0; k < 2; ++k)
        for (int p = 0; p < 2; ++p) {
            m->drag_frame[k][p] = -1;
            m->prev_drag_height[k][p] = NAN;
        }
}

void ak_walk_metrics_reset(ak_walk_metrics *m)
{
    if (!m) return;
    memset(m, 0, sizeof *m);
    drag_begin(m);
}

/* Worst below/above the ground of one point that is down. */
static void point_error(float y, float ground, float *pen, float *flt)
{
    if (!isfinite(ground)) return;
    const float e = y - ground;
    if (-e > *pen) *pen = -e;
    if (e > *flt) *flt = e;
}

/* Heel and toe errors, tilt and held skate of one stance foot. */
static void metrics_foot(ak_walk_metrics *m, const ak_walker_state *s, int k, float dt)
{
    const int32_t c = s->contact[k] ? s->contact[k] : AK_CONTACT_HEEL;
    const int heel = (c & AK_CONTACT_HEEL) || !(c & AK_CONTACT_TOE);
    const int toe = (c & AK_CONTACT_TOE) != 0;
    if (heel) {
        point_error(s->sole[k].y, s->sole_ground[k], &m->max_heel_penetration, &m->max_heel_float);
        if (isfinite(s->sole_ground[k]) && s->tilt[k] > m->max_tilt) m->max_tilt = s->tilt[k];
    }
    if (toe) point_error(s->toe[k].y, s->toe_ground[k], &m->max_toe_penetration, &m->max_toe_float);
    ++m->stance_samples;
    const int kind = heel ? 1 : 2;
    const ak_vec3 hold = heel ? s->sole[k] : s->toe[k];
    if (m->has_prev && m->prev_hold_kind[k] == kind && dt > 0.0f) {
        const float dx = hold.x - m->prev_hold[k].x, dz = hold.z - m->prev_hold[k].z;
        const float v = sqrtf(dx * dx + dz * dz) / dt;
        m->held_skate_sum += v;
        ++m->held_skate_n;
        if (v > m->max_held_skate) m->max_held_skate = v;
    }
    m->prev_hold[k] = hold;
    m->prev_hold_kind[k] = kind;
}

/* Skate: the horizontal speed over this frame of each point of foot k (heel, toe) the pose
 * source has down (its contact bit) and that is on the ground (within AK_WALK_SKATE_HEIGHT of
 * the ground under it, or below it) in both this frame and the one before, held by the
 * grounding or not. The landing frame (down now, not before) is the approach, not skate. */
static void metrics_skate(ak_walk_metrics *m, const ak_walker_state *s, int k, float dt)
{
    const ak_vec3 at[2] = {s->sole[k], s->toe[k]}, was[2] = {m->prev_sole[k], m->prev_toe[k]};
    const float ground[2] = {s->sole_ground[k], s->toe_ground[k]};
    const int32_t bit[2] = {AK_CONTACT_HEEL, AK_CONTACT_TOE};
    int32_t down = 0;
    for (int p = 0; p < 2; ++p) {
        if (!(s->source_contact[k] & bit[p]) || !isfinite(ground[p]) ||
            at[p].y - ground[p] > AK_WALK_SKATE_HEIGHT)
            continue;
        down |= bit[p];
        if (!m->has_prev || !(dt > 0.0f) || !(m->prev_down[k] & bit[p])) continue;
        const float dx = at[p].x - was[p].x, dz = at[p].z - was[p].z;
        const float v = sqrtf(dx * dx + dz * dz) / dt;
        m->skate_sum += v;
        ++m->skate_n;
        if (v > m->max_skate) m->max_skate = v;
    }
    m->prev_down[k] = down;
}

/* Drag: the drag_speed over this frame of each point of foot k (heel, toe), its ground the
 * ground under it, any phase, held or not; its fastest per point, with where. */
static void metrics_drag(ak_walk_metrics *m, const ak_walker_state *s, int k, float dt)
{
    const ak_vec3 at[2] = {s->sole[k], s->toe[k]}, was[2] = {m->prev_sole[k], m->prev_toe[k]};
    const float ground[2] = {s->sole_ground[k], s->toe_ground[k]};
    for (int p = 0; p < 2; ++p) {
        const float h = isfinite(ground[p]) ? at[p].y - ground[p] : NAN;
        if (m->has_prev) {
            const float v = drag_speed(was[p], m->prev_drag_height[k][p], at[p], h, dt);
            if (v > m->drag[k][p]) {
                m->drag[k][p] = v;
                m->drag_frame[k][p] = m->frames - 1;
                m->drag_stance[k][p] = s->stance[k];
                m->drag_part[k][p] = s->stopped   ? AK_WALK_PART_STANDING
                                     : s->arrived ? AK_WALK_PART_STOPPING
                                                  : AK_WALK_PART_WALKING;
            }
        }
        m->prev_drag_height[k][p] = h;
    }
}

void ak_walk_metrics_add(ak_walk_metrics *m, const ak_walker_state *s, const ak_xform *world,
                         int32_t hips, float dt)
{
    if (!m || !s || !world) return;
    ++m->frames;
    if (m->frames == 1) {
        m->deepest_frame = m->deepest_planted_frame = -1;
        drag_begin(m);
    }
    for (int k = 0; k < 2; ++k) {
        if (s->stance[k])
            metrics_foot(m, s, k, dt);
        else
            m->prev_hold_kind[k] = 0;
        metrics_skate(m, s, k, dt);
        metrics_drag(m, s, k, dt);
        if (m->has_prev) {
            const float step = akv_len(akv_sub(s->sole[k], m->prev_sole[k]));
            if (step > m->max_foot_step) m->max_foot_step = step;
        }
        m->prev_sole[k] = s->sole[k];
        m->prev_toe[k] = s->toe[k];
        m->prev_stance[k] = s->stance[k];
    }
    m->max_penetration = fmaxf(m->max_heel_penetration, m->max_toe_penetration);
    m->max_float = fmaxf(m->max_heel_float, m->max_toe_float);
    const ak_vec3 h = world[hips].translation;
    if (m->has_prev) {
        const float step = akv_len(akv_sub(h, m->prev_hips));
        if (step > m->max_hip_step) m->max_hip_step = step;
    }
    if (m->has_prev >= 2 && dt > 0.0f) {
        const ak_vec3 a = akv_add(akv_sub(h, akv_scale(m->prev_hips, 2.0f)), m->prev_hips2);
        const float acc = akv_len(a) / (dt * dt);
        if (acc > m->max_hip_accel) m->max_hip_accel = acc;
    }
    metrics_hips(m, h.y, dt);
    metrics_legs(m, world);
    metrics_depth(m, s, world);
    m->prev_hips2 = m->prev_hips;
    m->prev_hips = h;
    m->has_prev = m->has_prev >= 2 ? 2 : m->has_prev + 1;
    m->skate = m->skate_n ? (float)(m->skate_sum / m->skate_n) : 0.0f;
    m->held_skate = m->held_skate_n ? (float)(m->held_skate_sum / m->held_skate_n) : 0.0f;
}

void ak_walk_metrics_shift_origin(ak_walk_metrics *m, float dx, float dz)
{
    if (!m) return;
    ak_vec3 *const p[] = {&m->prev_sole[0], &m->prev_sole[1], &m->prev_toe[0], &m->prev_toe[1],
                          &m->prev_hold[0], &m->prev_hold[1], &m->prev_hips,   &m->prev_hips2};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; ++i) {
        p[i]->x -= dx;
        p[i]->z -= dz;
    }
}

int32_t ak_walk_metrics_drag_worst(const ak_walk_metrics *walk, const ak_walk_metrics *source,
                                   ak_walk_drag *out)
{
    if (!walk || !out) return AK_ERR_INVALID_ARG;
    memset(out, 0, sizeof *out);
    out->frame = -1;
    out->bound = AK_WALK_DRAG_FLOOR;
    float ratio = -1.0f;
    for (int k = 0; k < 2; ++k)
        for (int p = 0; p < 2; ++p) {
            const float bound = fmaxf(source ? source->drag[k][p] : 0.0f, AK_WALK_DRAG_FLOOR);
            if (!(walk->drag[k][p] / bound > ratio)) continue;
            ratio = walk->drag[k][p] / bound;
            out->speed = walk->drag[k][p];
            out->bound = bound;
            out->frame = walk->drag_frame[k][p];
            out->side = k;
            out->point = p;
            out->stance = walk->drag_stance[k][p];
            out->part = walk->drag_part[k][p];
        }
    return AK_OK;
}
