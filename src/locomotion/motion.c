/* Walk motion: a clip made ready for walking — metres, one seamless heading-neutral cycle,
 * root motion, foot contacts and foot calibration. Also contact detection and the cycle
 * finder it uses. Everything here runs once at load time and may allocate. */
#include "animkit/edit.h"
#include "animkit/walkmotion.h"
#include "core/xform_inline.h"
#include "locomotion/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ak_walk_motion_params ak_walk_motion_defaults(void)
{
    ak_walk_motion_params p;
    memset(&p, 0, sizeof p);
    p.metres_per_unit = 0.0f;
    p.cycle_start = -1;
    p.cycle_end = -1;
    p.seam_blend = 0.1f;
    p.min_cycle_time = 0.45f;
    p.max_cycle_time = 1.8f;
    p.humanoid_overrides = NULL;
    p.contacts = ak_contact_defaults();
    p.use_captured_transitions = 1;
    p.cycle_start_time = -1.0f;
    p.cycle_end_time = -1.0f;
    return p;
}

/* ---- Walk motion ---- */

int32_t ak_walk_motion_validate(const ak_walk_motion_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null walk motion params");
    if (!(p->metres_per_unit >= 0.0f) || !isfinite(p->metres_per_unit))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "metres_per_unit = %g: must be finite and >= 0 (0: detected)",
                            (double)p->metres_per_unit);
    const int automatic = p->cycle_start == -1 && p->cycle_end == -1;
    const int ready_loop = p->cycle_start == 0 && p->cycle_end == 0;
    if (!automatic && !ready_loop && !(p->cycle_start >= 0 && p->cycle_end > p->cycle_start + 2))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "cycle %d:%d must be -1:-1 (find), 0:0 (the clip loops) or "
                            "0 <= start < end - 2",
                            (int)p->cycle_start, (int)p->cycle_end);
    const int by_time = !(p->cycle_start_time == -1.0f && p->cycle_end_time == -1.0f);
    if (by_time && !(p->cycle_start_time >= 0.0f && p->cycle_end_time > p->cycle_start_time &&
                     isfinite(p->cycle_end_time) && automatic))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "cycle times %g:%g s must be -1:-1 (frames or found) or "
                            "0 <= start < end with the cycle frames left at -1:-1",
                            (double)p->cycle_start_time, (double)p->cycle_end_time);
    if (!(p->seam_blend >= 0.0f) || !isfinite(p->seam_blend))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "seam_blend = %g: must be finite and >= 0 s", (double)p->seam_blend);
    if (!(p->min_cycle_time > 0.0f) || !(p->max_cycle_time >= p->min_cycle_time) ||
        !isfinite(p->max_cycle_time))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "min_cycle_time (%g s) must be > 0 and max_cycle_time (%g s) finite "
                            "and >= it",
                            (double)p->min_cycle_time, (double)p->max_cycle_time);
    if ((p->stance_left != NULL) != (p->stance_right != NULL) || (p->stance_left && !ready_loop))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "stance_left and stance_right need each other and a clip that already "
                            "loops (cycle 0:0)");
    if (p->use_captured_transitions != 0 && p->use_captured_transitions != 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "use_captured_transitions must be 0 or 1");
    ak_error inner;
    const int32_t st = ak_contact_thresholds_validate(&p->contacts, &inner);
    if (st != AK_OK) return ak_error_set(err, st, 0, "contacts.%s", inner.message);
    /* The range table last, after the checks that say more (and their status). */
    return ak_params_check(ak_walk_motion_param_ranges(), p, err);
}

void ak_walk_motion_destroy(ak_walk_motion *m)
{
    if (!m) return;
    ak_skeleton_destroy(m->skeleton);
    ak_clip_destroy(m->clip);
    ak_root_motion_destroy(m->root);
    for (int s = 0; s < 2; ++s) {
        free(m->contacts[s]);
        free(m->land_rel[s]);
        free(m->land_toe_rel[s]);
        free(m->swing_phase[s]);
    }
    free(m->hip_accel);
    ak_walk_segment_free(&m->segment[AK_SEGMENT_START]);
    ak_walk_segment_free(&m->segment[AK_SEGMENT_STOP]);
    free(m->stand_pose);
    free(m->point_clear);
    free(m);
}

/* A copy of the skeleton with every rest translation times `s`. */

/* A looping clip holding frames [a, b) of `src` as they are. */
static int32_t copy_frames(const ak_clip *src, int32_t a, int32_t b, ak_clip **out, ak_error *err)
{
    const int32_t n = b - a, J = src->joint_count, T = src->track_count;
    uint8_t *has = (uint8_t *)calloc((size_t)J, 1);
    if (!has) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; j < J; ++j)
        has[j] = src->joint_track[j] >= 0;
    ak_clip *c = NULL;
    int32_t st = ak_clip_create(J, n, src->frame_time, has, &c, err);
    free(has);
    if (st != AK_OK) return st;
    c->loop = 1;
    for (int32_t f = 0; f < n; ++f) {
        memcpy(c->rotations + (size_t)f * J, src->rotations + (size_t)(a + f) * J,
               sizeof(ak_quat) * (size_t)J);
        if (T)
            memcpy(c->translations + (size_t)f * T, src->translations + (size_t)(a + f) * T,
                   sizeof(ak_vec3) * (size_t)T);
    }
    *out = c;
    return AK_OK;
}

/* The last `blend` frames of c (frames [a, b) of src) crossfade toward the frames leading into
 * a, carried to b, so the pose runs on from the cycle's last frame into its first. */
static void blend_seam(const ak_skeleton *sk, const ak_clip *src, int32_t a, int32_t b,
                       int32_t blend, ak_clip *c)
{
    const int32_t n = b - a;
    const ak_xform G = akl_carry(src, sk, a, b);
    if (blend > a) blend = a;
    if (blend > n / 3) blend = n / 3;
    for (int32_t i = 0; i < blend; ++i)
        akl_blend_toward(src, a - blend + i, G, (float)(i + 1) / (float)(blend + 1), c,
                         n - blend + i);
}

/* Heading drift: frame f turns by -drift*f/n about the vertical through the start, so cycles
 * chain without turning. Writes the root at t = duration (position and heading). */
static void remove_drift(const ak_skeleton *sk, const ak_clip *src, int32_t a, int32_t b,
                         ak_clip *c, ak_vec3 *loop_end_pos, float *loop_end_heading)
{
    const int32_t n = b - a, J = src->joint_count, T = src->track_count;
    const int32_t rt = src->joint_track[0];
    const float h0 = ak_heading_of(src->rotations[(size_t)a * J], ak_vec3_make(0, 0, 1));
    float drift = ak_heading_of(src->rotations[(size_t)b * J], ak_vec3_make(0, 0, 1)) - h0;
    while (drift > AK_PI)
        drift -= 2.0f * AK_PI;
    while (drift < -AK_PI)
        drift += 2.0f * AK_PI;
    ak_vec3 p0 = rt >= 0 ? src->translations[(size_t)a * T + rt] : sk->rest_local[0].translation;
    p0.y = 0.0f;
    for (int32_t f = 0; f < n; ++f) {
        const ak_quat turn = ak_quat_yaw(-drift * (float)f / (float)n);
        ak_quat *r = &c->rotations[(size_t)f * J];
        *r = akq_normalize(akq_mul(turn, *r));
        if (rt >= 0) {
            ak_vec3 *p = &c->translations[(size_t)f * T + rt];
            ak_vec3 rel = akv_sub(*p, p0);
            const float y = p->y;
            rel.y = 0.0f;
            *p = akv_add(p0, akq_rotate(turn, rel));
            p->y = y;
        }
    }
    ak_vec3 pe = rt >= 0 ? src->translations[(size_t)b * T + rt] : p0;
    ak_vec3 rel = akv_sub(pe, p0);
    rel.y = 0.0f;
    *loop_end_pos = akv_add(p0, akq_rotate(ak_quat_yaw(-drift), rel));
    *loop_end_heading = h0;
}

/* Cuts frames [a, b) of `src` into a looping clip. The last `blend` frames crossfade toward
 * the frames leading into `a` (carried into the end frame's place), so the pose runs
 * continuously from the last frame into the first. Then the heading drift of the cycle is
 * removed linearly so cycles chain without turning. Writes the root at t = duration
 * (position and heading) for the root-motion loop end. */
static int32_t cut_cycle(const ak_skeleton *sk, const ak_clip *src, int32_t a, int32_t b,
                         int32_t blend, ak_clip **out, ak_vec3 *loop_end_pos,
                         float *loop_end_heading, ak_error *err)
{
    ak_clip *c = NULL;
    const int32_t st = copy_frames(src, a, b, &c, err);
    if (st != AK_OK) return st;
    blend_seam(sk, src, a, b, blend, c);
    remove_drift(sk, src, a, b, c, loop_end_pos, loop_end_heading);
    ak_clip_finalize(c);
    *out = c;
    return AK_OK;
}

static int32_t fail(ak_walk_motion *m, int32_t st)
{
    ak_walk_motion_destroy(m);
    return st;
}

/* Each foot's heel [0] and toe [1] point height above the clip floor in `local` (FK into
 * world), into h: the calibration's sole and toe contact points. */
static void point_heights(const ak_walk_motion *m, const ak_xform *local, ak_xform *world,
                          float h[2][2])
{
    ak_fk(m->skeleton, local, world);
    for (int s = 0; s < 2; ++s) {
        const ak_xform *x =
            &world[m->humanoid.joint[s == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT]];
        const ak_vec3 up = akq_rotate(x->rotation, m->foot_up_local[s]);
        h[s][0] = x->translation.y - up.y * m->sole_height[s] - m->floor_y;
        h[s][1] = m->has_toe[s]
                      ? x->translation.y + akq_rotate(x->rotation, m->toe_local[s]).y - m->floor_y
                      : h[s][0];
    }
}

/* Each foot's heel and toe point at its lowest over the cycle, above the clip floor
 * (ak_walk_motion.point_floor). */
static int32_t point_floors(ak_walk_motion *m, ak_error *err)
{
    const int32_t J = m->skeleton->joint_count;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    if (!local) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    const int32_t n = m->clip->frame_count;
    free(m->point_clear);
    m->point_clear = (float *)malloc(sizeof(float) * 4 * (size_t)n);
    if (!m->point_clear) {
        free(local);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    for (int s = 0; s < 2; ++s)
        m->point_floor[s][0] = m->point_floor[s][1] = INFINITY;
    for (int32_t f = 0; f < n; ++f) {
        float h[2][2];
        ak_clip_frame(m->clip, m->skeleton, f, local);
        point_heights(m, local, local + J, h);
        for (int s = 0; s < 2; ++s)
            for (int p = 0; p < 2; ++p) {
                m->point_clear[4 * f + 2 * s + p] = h[s][p];
                m->point_floor[s][p] = fminf(m->point_floor[s][p], h[s][p]);
            }
    }
    for (int32_t i = 0; i < 4 * n; ++i)
        m->point_clear[i] -= m->point_floor[(i / 2) % 2][i % 2];
    free(local);
    return AK_OK;
}

/* Foot calibration from the cycle (ak_foot_calibrate): the clip floor, each ankle's height
 * above it with the heel down, the foot's up axis and the ball's contact point. */
static int32_t calibrate(ak_walk_motion *m, ak_error *err)
{
    ak_foot_calibration cal;
    const int32_t foot[2] = {m->humanoid.joint[AK_HUM_LEFT_FOOT],
                             m->humanoid.joint[AK_HUM_RIGHT_FOOT]};
    const int32_t toe[2] = {m->humanoid.joint[AK_HUM_LEFT_TOE],
                            m->humanoid.joint[AK_HUM_RIGHT_TOE]};
    int32_t st = ak_foot_calibrate(m->skeleton, m->clip, foot, toe, m->contacts[0], m->contacts[1],
                                   &cal, err);
    if (st != AK_OK) return st;
    m->floor_y = cal.floor_y;
    for (int s = 0; s < 2; ++s) {
        if (!(cal.stance_fraction[s] > 0.0f))
            return ak_error_set(err, AK_ERR_DEGENERATE, 0,
                                "the %s foot never touches the ground in the cycle",
                                s == 0 ? "left" : "right");
        m->sole_height[s] = cal.sole_height[s];
        m->foot_up_local[s] = cal.up_local[s];
        m->toe_local[s] = cal.toe_local[s];
        m->has_toe[s] = cal.has_toe[s];
        m->stance_fraction[s] = cal.stance_fraction[s];
    }
    return point_floors(m, err);
}

/* Units: given, or detected (ak_units_detect_clip). */
static void motion_units(ak_walk_motion *m, const ak_skeleton *sk, const ak_clip *clip, float given)
{
    m->metres_per_unit = given;
    m->units = AK_UNITS_METRES;
    if (!(given > 0.0f)) m->units = (int32_t)ak_units_detect_clip(sk, clip, &m->metres_per_unit);
}

/* Contact flags of `full` (metres) into *out: every frame (grid 1), or every sample of the
 * grid of `grid` per frame (ak_contact_run_grid), ng samples (2 * ng bytes). */
static int32_t detect_contacts(const ak_walk_motion *m, const ak_clip *full,
                               const ak_walk_motion_params *p, int32_t grid, uint8_t **out,
                               ak_error *err)
{
    const int32_t ng = grid > 1 ? ak_contact_grid_count(full, grid) : full->frame_count;
    *out = (uint8_t *)malloc((size_t)ng * 2);
    if (!*out) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    ak_contact_params cp = p->contacts;
    cp.skeleton = m->skeleton;
    cp.clip = full;
    cp.metres_per_unit = 1.0f;
    cp.heel[0] = m->humanoid.joint[AK_HUM_LEFT_FOOT];
    cp.heel[1] = m->humanoid.joint[AK_HUM_RIGHT_FOOT];
    cp.toe[0] = m->humanoid.joint[AK_HUM_LEFT_TOE];
    cp.toe[1] = m->humanoid.joint[AK_HUM_RIGHT_TOE];
    /* A joint the caller named carries the travel for the body's speed too, a still top joint
     * as well (ak_clip_root_motion_prepare leaves a named top joint as it is: measured, the
     * detector would read the hips below it). */
    if (cp.root_joint < 0 && m->root_joint.reason == AK_ROOT_JOINT_NAMED)
        cp.root_joint = m->root_joint.joint;
    /* No roll bit: the walker's foot IK pins a stance heel's ankle, and a heel still rolling
     * over its pad moves its ankle (AK_CONTACT_ROLL); those frames stay swing here. */
    cp.roll_height = 0.0f;
    if (grid > 1) return ak_contact_run_grid(&cp, grid, *out, *out + ng, err);
    return ak_contact_run(&cp, *out, *out + ng, err);
}

/* The cycle [*a, *b) of `full`: given, or found among its locomotion. */
static int32_t choose_cycle(ak_walk_motion *m, const ak_clip *full, const uint8_t *flags,
                            const ak_walk_motion_params *p, int32_t *a, int32_t *b, ak_error *err)
{
    *a = p->cycle_start < 0 ? p->cycle_start : p->cycle_start * m->grid;
    *b = p->cycle_end < 0 ? p->cycle_end : p->cycle_end * m->grid;
    if (p->cycle_start_time >= 0.0f) { /* validated: end > start, frames -1:-1 */
        *a = (int32_t)lroundf(p->cycle_start_time / full->frame_time);
        *b = (int32_t)lroundf(p->cycle_end_time / full->frame_time);
    } else if (*a < 0 && *b < 0) {
        ak_cycle_params cp = ak_cycle_defaults();
        cp.skeleton = m->skeleton;
        cp.clip = full;
        cp.left = flags;
        cp.right = flags + full->frame_count;
        cp.leg_length = m->leg_length[0] > m->leg_length[1] ? m->leg_length[0] : m->leg_length[1];
        cp.min_time = p->min_cycle_time;
        cp.max_time = p->max_cycle_time;
        ak_cycle cyc;
        int32_t st = ak_cycle_find(&cp, &cyc, err);
        if (st != AK_OK) return st;
        *a = cyc.start;
        *b = cyc.end;
    }
    if (*a < 0 || *b <= *a + 2 || *b >= full->frame_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "cycle %d:%d must satisfy 0 <= start < end - 2 and end < %d "
                            "(the clip's frame count)",
                            (int)(*a / m->grid), (int)(*b / m->grid),
                            (int)((full->frame_count - 1) / m->grid + 1));
    return AK_OK;
}

/* The contacts of `full` (*flags), and for a capture under 50 frames per second whose cycle is
 * found or cut at given times (cycle_start_time) the clip on a finer grid: a 30 fps frame is
 * 4.4 % of a 0.75 s run cycle, so a seam on the file's frames moves the cycle time, the stride and
 * the arrival by several percent. The finder searches the fine grid too (issue 22: on the file's
 * frames 02_02's 30 fps copy took 28:56, 0.933 s, against the original's 110:227 at 120 fps,
 * 0.975 s, which lies between the 30 fps frames; arrival 7.700 s against 8.075; on the grid it
 * takes 110:227 and arrives at 8.067). The clip is resampled k times finer
 * (ak_contact_grid: 30 fps -> 4, 24 -> 5) with the poses a player shows between the file's frames
 * (slerp, lerp; cubic overshoots a runner's landing and moved a 30 fps run's stance from 0.231 to
 * 0.080 of the cycle; as the finder's grid it did no better: 16_11 13.067 s against 12.883);
 * source frame i is working frame i * k, so a found cycle is on a 1/120 s grid at any file rate.
 * A cycle given in frames (cycle_start) keeps the file's frames. */
static int32_t work_grid(ak_walk_motion *m, ak_clip **full, uint8_t **flags,
                         const ak_walk_motion_params *p, ak_error *err)
{
    m->grid = 1;
    const int32_t k = ak_contact_grid((*full)->frame_time);
    const int32_t by_frames = !(p->cycle_start_time >= 0.0f) && p->cycle_start >= 0;
    if (k == 1 || (*full)->frame_count < 2 || by_frames)
        return detect_contacts(m, *full, p, 1, flags, err);
    /* The contacts are the ones read on the same grid (ak_contact_run_grid: a reference
     * frame 0 is left out there, where the resampled clip blends from it). */
    int32_t st = detect_contacts(m, *full, p, k, flags, err);
    ak_edit_resample_params rp = ak_edit_resample_defaults();
    rp.frame_time = (*full)->frame_time / (float)k;
    rp.interp = AK_INTERP_LINEAR;
    ak_clip *fine = NULL;
    if (st == AK_OK) st = ak_edit_resample_run(&rp, m->skeleton, *full, &fine, err);
    if (st == AK_OK && fine->frame_count != ak_contact_grid_count(*full, k))
        st = ak_error_set(err, AK_ERR_STATE, 0, "the working grid has %d frames, its contacts %d",
                          (int)fine->frame_count, (int)ak_contact_grid_count(*full, k));
    if (st != AK_OK) {
        ak_clip_destroy(fine);
        return st;
    }
    ak_clip_destroy(*full);
    *full = fine;
    m->grid = k;
    return AK_OK;
}

/* The seam's pose and velocity errors over the body's joints (akl_body_joints: the ones the
 * cycle finder compares). */
static int32_t seam_errors(ak_walk_motion *m, const ak_clip *full, int32_t a, int32_t b,
                           ak_error *err)
{
    int32_t *joint = (int32_t *)malloc(sizeof(int32_t) * (size_t)full->joint_count);
    if (!joint) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    akl_cycle_errors_over(full, joint, akl_body_joints(m->skeleton, joint), a, b, &m->pose_error,
                          &m->velocity_error);
    free(joint);
    return AK_OK;
}

/* Cuts the cycle out of the metre-scaled source clip `full` (consumed) with its contacts. */
static int32_t motion_cycle(ak_walk_motion *m, ak_clip *full, const ak_walk_motion_params *p,
                            ak_root_motion_params *rp, ak_error *err)
{
    uint8_t *flags = NULL;
    int32_t a = 0, b = 0;
    full->loop = 0;
    int32_t st = work_grid(m, &full, &flags, p, err);
    if (st == AK_OK) st = choose_cycle(m, full, flags, p, &a, &b, err);
    if (st == AK_OK) {
        m->cycle_start = a;
        m->cycle_end = b;
        st = seam_errors(m, full, a, b, err);
    }
    if (st == AK_OK) {
        const int32_t blend = (int32_t)lroundf(p->seam_blend / full->frame_time);
        st = cut_cycle(m->skeleton, full, a, b, blend, &m->clip, &rp->loop_end_position,
                       &rp->loop_end_heading, err);
        rp->has_loop_end = 1;
    }
    if (st == AK_OK) {
        /* The cycle's contacts are the source's: the cut keeps their frames. */
        const int32_t n = b - a;
        for (int s = 0; s < 2; ++s) {
            m->contacts[s] = (uint8_t *)malloc((size_t)n);
            if (!m->contacts[s]) {
                st = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
                break;
            }
            memcpy(m->contacts[s], flags + (size_t)s * full->frame_count + a, (size_t)n);
        }
    }
    if (st == AK_OK && p->use_captured_transitions)
        st = ak_walk_motion_find_transitions(
            m, full, flags, (int32_t)lroundf(p->seam_blend / full->frame_time), err);
    free(flags);
    ak_clip_destroy(full);
    return st;
}

/* A clip that already loops: its contacts given or detected over the loop. */
static int32_t motion_loop(ak_walk_motion *m, ak_clip *full, const ak_walk_motion_params *p,
                           ak_error *err)
{
    if (!full->loop) {
        ak_clip_destroy(full);
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "the clip does not loop: give a cycle (start:end) or let it be found");
    }
    m->clip = full;
    m->cycle_start = 0;
    m->cycle_end = full->frame_count;
    const size_t n = (size_t)full->frame_count;
    if (p->stance_left && p->stance_right) {
        for (int s = 0; s < 2; ++s) {
            m->contacts[s] = (uint8_t *)malloc(n);
            if (!m->contacts[s]) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
            memcpy(m->contacts[s], s == 0 ? p->stance_left : p->stance_right, n);
        }
        return AK_OK;
    }
    uint8_t *flags = NULL;
    int32_t st = detect_contacts(m, full, p, 1, &flags, err);
    if (st != AK_OK) {
        free(flags);
        return st;
    }
    /* One buffer, two halves: contacts[1] points into contacts[0]'s block. Keep separate. */
    m->contacts[0] = flags;
    m->contacts[1] = (uint8_t *)malloc(n);
    if (!m->contacts[1]) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    memcpy(m->contacts[1], flags + n, n);
    return AK_OK;
}

int32_t ak_walk_motion_create(const ak_skeleton *sk_src, const ak_clip *clip_src,
                              const ak_walk_motion_params *p, ak_walk_motion **out, ak_error *err)
{
    if (out) *out = NULL;
    int32_t st = ak_walk_motion_validate(p, err);
    if (st != AK_OK) return st;
    if (!sk_src || !clip_src || !out)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if (clip_src->joint_count != sk_src->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has %d joints, skeleton %d",
                            (int)clip_src->joint_count, (int)sk_src->joint_count);
    if (sk_src->parents[0] != -1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint 0 must be the root");
    ak_walk_motion *m = (ak_walk_motion *)calloc(1, sizeof *m);
    if (!m) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int k = 0; k < 2; ++k) { /* ak_walk_motion_segments_check says what it found */
        ak_transition_check *c = &m->transition_check[k];
        c->use = p->use_captured_transitions && !(p->cycle_start == 0 && p->cycle_end == 0)
                     ? AK_TRANSITION_NONE
                     : AK_TRANSITION_NOT_SOUGHT;
        c->frames[0] = c->frames[1] = -1;
    }
    st = ak_humanoid_find(sk_src, p->humanoid_overrides, &m->humanoid, err);
    if (st != AK_OK) return fail(m, st);
    motion_units(m, sk_src, clip_src, p->metres_per_unit);
    st = ak_skeleton_clone(sk_src, &m->skeleton, err);
    if (st != AK_OK) return fail(m, st);
    ak_skeleton_scale(m->skeleton, m->metres_per_unit);
    for (int s = 0; s < 2; ++s) {
        const int32_t lo =
            m->humanoid.joint[s == 0 ? AK_HUM_LEFT_LOWER_LEG : AK_HUM_RIGHT_LOWER_LEG];
        const int32_t ft = m->humanoid.joint[s == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT];
        m->leg_length[s] = m->skeleton->bone_lengths[lo] + m->skeleton->bone_lengths[ft];
    }
    ak_clip *full = ak_clip_clone(clip_src);
    if (!full) return fail(m, ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory"));
    st = ak_clip_root_motion_prepare(sk_src, &full, p->root_joint, &m->root_joint, err);
    if (st != AK_OK) {
        ak_clip_destroy(full);
        return fail(m, st);
    }
    ak_clip_scale(full, m->metres_per_unit);
    ak_root_motion_params rp = ak_root_motion_defaults();
    if (p->cycle_start == 0 && p->cycle_end == 0)
        st = motion_loop(m, full, p, err);
    else
        st = motion_cycle(m, full, p, &rp, err);
    if (st == AK_OK) st = ak_root_motion_create(m->skeleton, m->clip, &rp, &m->root, err);
    if (st == AK_OK) st = calibrate(m, err);
    if (st == AK_OK) st = ak_walk_motion_segments_check(m, err);
    if (st == AK_OK) st = ak_walk_motion_segments_finish(m, err);
    if (st == AK_OK) st = ak_walk_motion_landings(m, err);
    if (st == AK_OK) st = ak_walk_motion_stops(m, err);
    if (st != AK_OK) return fail(m, st);
    ak_vec3 d;
    ak_root_motion_loop(m->root, &d, NULL);
    m->stride_length = sqrtf(d.x * d.x + d.z * d.z);
    m->travel_heading = m->stride_length > 1e-4f ? atan2f(d.x, d.z) : 0.0f;
    *out = m;
    return AK_OK;
}

void ak_walk_motion_get_info(const ak_walk_motion *m, ak_walk_motion_info *info)
{
    if (!m || !info) return;
    memset(info, 0, sizeof *info);
    info->metres_per_unit = m->metres_per_unit;
    info->units = m->units;
    const int32_t grid = m->grid > 1 ? m->grid : 1; /* working frames back to source frames */
    info->cycle_start = (m->cycle_start + grid / 2) / grid;
    info->cycle_end = (m->cycle_end + grid / 2) / grid;
    const float work_ft = m->clip ? m->clip->frame_time : 0.0f;
    info->cycle_start_time = (float)m->cycle_start * work_ft;
    info->cycle_end_time = (float)m->cycle_end * work_ft;
    info->pose_error = m->pose_error;
    info->velocity_error = m->velocity_error;
    info->cycle_time = ak_clip_duration(m->clip);
    info->root_joint = m->root_joint;
    info->stride_length = m->stride_length;
    info->speed = info->cycle_time > 0.0f ? m->stride_length / info->cycle_time : 0.0f;
    info->travel_heading = m->travel_heading;
    for (int s = 0; s < 2; ++s) {
        info->sole_height[s] = m->sole_height[s];
        info->stance_fraction[s] = m->stance_fraction[s];
        info->leg_length[s] = m->leg_length[s];
    }
    for (int k = 0; k < 2; ++k) {
        const ak_walk_segment *g = &m->segment[k];
        int32_t *r = k == AK_SEGMENT_START ? info->start_frames : info->stop_frames;
        r[0] = g->clip ? (g->source_first + grid / 2) / grid : -1;
        r[1] = g->clip ? (g->source_last + grid / 2) / grid : -1;
        *(k == AK_SEGMENT_START ? &info->start_join_error : &info->stop_join_error) =
            g->clip ? g->join_error : 0.0f;
        ak_transition_check *c = k == AK_SEGMENT_START ? &info->start_check : &info->stop_check;
        *c = m->transition_check[k];
        for (int e = 0; e < 2; ++e)
            if (c->frames[e] >= 0) c->frames[e] = (c->frames[e] + grid / 2) / grid;
    }
}

const ak_skeleton *ak_walk_motion_skeleton(const ak_walk_motion *m)
{
    return m ? m->skeleton : NULL;
}
const ak_clip *ak_walk_motion_clip(const ak_walk_motion *m)
{
    return m ? m->clip : NULL;
}
const ak_humanoid *ak_walk_motion_humanoid(const ak_walk_motion *m)
{
    return m ? &m->humanoid : NULL;
}
const ak_root_motion *ak_walk_motion_root(const ak_walk_motion *m)
{
    return m ? m->root : NULL;
}
const uint8_t *ak_walk_motion_contacts(const ak_walk_motion *m, int32_t side)
{
    return (m && (side == 0 || side == 1)) ? m->contacts[side] : NULL;
}

int32_t ak_walk_motion_set_contacts(ak_walk_motion *m, const uint8_t *left, const uint8_t *right,
                                    ak_error *err)
{
    if (!m || !left || !right) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    const int32_t n = m->clip->frame_count;
    int any[2] = {0, 0};
    for (int32_t f = 0; f < n; ++f) {
        any[0] |= left[f] != 0;
        any[1] |= right[f] != 0;
    }
    if (!any[0] || !any[1])
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "each foot needs at least one stance frame");
    /* Flag bytes are kept; a bare "in stance" (a value without heel or toe bit) is a heel. */
    for (int32_t f = 0; f < n; ++f) {
        const uint8_t v[2] = {left[f], right[f]};
        for (int s = 0; s < 2; ++s)
            m->contacts[s][f] = (uint8_t)(v[s] == 0 ? 0 : ((v[s] & 3) ? (v[s] & 3) : 1));
    }
    int32_t st = calibrate(m, err);
    if (st == AK_OK) st = ak_walk_motion_landings(m, err);
    return st == AK_OK ? ak_walk_motion_stops(m, err) : st;
}

int32_t ak_walk_motion_stance_frame(const ak_walk_motion *m, float t)
{
    return ak_contact_frame(m->clip->frame_count, m->clip->frame_time, 1, t);
}

uint8_t ak_walk_motion_stance_at(const ak_walk_motion *m, int32_t side, float t)
{
    if (!m || side < 0 || side > 1 || !m->contacts[side]) return 0;
    const int32_t f = ak_walk_motion_stance_frame(m, t);
    return f >= 0 ? m->contacts[side][f] : 0;
}

/* Frames from f to the next stance frame of `con` (0 in stance), or -1 when a clamped clip
 * ends first; `dir` -1 counts back to the last stance frame instead. */
static int32_t frames_to_stance(const uint8_t *con, int32_t n, int32_t f, int32_t loop, int dir)
{
    for (int32_t k = 0; k < n; ++k) {
        const int32_t g = f + dir * k;
        if (!loop && (g < 0 || g >= n)) return -1;
        if (con[((g % n) + n) % n]) return k;
    }
    return -1;
}

/* One played sequence: the loop or a segment, and where its landings go. */
typedef struct landing_seq {
    const ak_clip *clip;
    const ak_root_motion *root;
    uint8_t *const *contacts;
    ak_vec3 *const *land, *const *land_toe;
    float *const *phase;
    float *hip_accel;
    int32_t kind; /* -1 the loop, else AK_SEGMENT_START / AK_SEGMENT_STOP */
} landing_seq;

/* The sole (and toe) of foot s at frame f of q, in place (the character frame of f). */
static void inplace_contacts(const ak_walk_motion *m, const landing_seq *q, int s, int32_t f,
                             ak_xform *local, ak_vec3 *sole, ak_vec3 *toe)
{
    const int32_t foot = m->humanoid.joint[s == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT];
    ak_xform *world = local + m->skeleton->joint_count;
    ak_clip_frame(q->clip, m->skeleton, f, local);
    ak_root_motion_make_in_place(q->root, (float)f * q->clip->frame_time, local);
    ak_fk(m->skeleton, local, world);
    const ak_xform *x = &world[foot];
    *sole = akv_sub(x->translation,
                    akv_scale(akq_rotate(x->rotation, m->foot_up_local[s]), m->sole_height[s]));
    *toe =
        m->has_toe[s] ? akv_add(x->translation, akq_rotate(x->rotation, m->toe_local[s])) : *sole;
}

/* Landing of foot s seen from frame f of q: where the sole and toe come down next (in the
 * character frame of f) and how far through its swing the foot is. A segment's swing that
 * outlasts it continues in the loop: the start into the loop's frame 0 (its own last frame),
 * the stop out of the loop's last frame (behind) and onto its own last frame (ahead). */
static void landing_of(const ak_walk_motion *m, const landing_seq *q, int s, int32_t f,
                       ak_xform *local)
{
    const int32_t n = q->clip->frame_count, loop = q->kind < 0, nl = m->clip->frame_count;
    const uint8_t *con = q->contacts[s];
    int32_t ahead = frames_to_stance(con, n, f, loop, 1);
    int32_t behind = con[f] ? 0 : frames_to_stance(con, n, f, loop, -1);
    int into_loop = 0;
    if (ahead < 0 && q->kind == AK_SEGMENT_START) {
        into_loop = 1;
        ahead = (n - 1 - f) + frames_to_stance(m->contacts[s], nl, 0, 1, 1);
    } else if (ahead < 0) {
        ahead = n - 1 - f;
    }
    if (behind < 0)
        behind =
            f + 1 +
            (q->kind == AK_SEGMENT_STOP ? frames_to_stance(m->contacts[s], nl, nl - 1, 1, -1) : 0);
    q->phase[s][f] =
        con[f] ? 0.0f : (float)behind / (float)(ahead + behind > 0 ? ahead + behind : 1);
    const float ft = q->clip->frame_time;
    const int32_t land = into_loop ? n - 1 : f + ahead;
    ak_vec3 dp, sole, toe;
    float dh;
    ak_root_motion_delta(q->root, (float)f * ft, (float)(loop ? f + ahead : land) * ft, &dp, &dh);
    if (into_loop) {
        sole = m->land_rel[s][0];
        toe = m->land_toe_rel[s][0];
    } else {
        inplace_contacts(m, q, s, loop ? land % n : land, local, &sole, &toe);
    }
    q->land[s][f] = akv_add(dp, akq_rotate(ak_quat_yaw(dh), sole));
    q->land_toe[s][f] = akv_add(dp, akq_rotate(ak_quat_yaw(dh), toe));
}

/* The hips' vertical acceleration and velocity of every frame of q (ak_walk_motion.hip_accel):
 * from the in-place hips heights y (scratch, a frame each), at frame f the mean of the n =
 * akw_hip_window(frame time) second differences ending there, (y[f] - y[f-1] - y[f-n] +
 * y[f-n-1]) / (n ft^2), the walk metrics' 33 ms measure, and the velocity over the same frames,
 * (y[f] - y[f-n-1]) / ((n+1) ft); the loop wraps, a segment holds its ends. */
static void hip_accels(const ak_walk_motion *m, const landing_seq *q, ak_xform *local, float *y)
{
    const int32_t n = q->clip->frame_count, J = m->skeleton->joint_count;
    const int32_t hips = m->humanoid.joint[AK_HUM_HIPS] >= 0 ? m->humanoid.joint[AK_HUM_HIPS] : 0;
    const float ft = q->clip->frame_time;
    for (int32_t f = 0; f < n; ++f) {
        ak_clip_frame(q->clip, m->skeleton, f, local);
        ak_root_motion_make_in_place(q->root, (float)f * ft, local);
        ak_fk(m->skeleton, local, local + J);
        y[f] = local[J + hips].translation.y;
    }
    const int32_t w = akw_hip_window(ft);
    for (int32_t f = 0; f < n; ++f) {
        int32_t k[4];
        akw_hip_frames(f, n, q->kind < 0, w, k);
        q->hip_accel[f] = akw_hip_accel(y, k, w, ft);
        q->hip_accel[n + f] = (y[k[0]] - y[k[3]]) / ((float)(w + 1) * ft);
    }
}

static int32_t landings_run(const ak_walk_motion *m, const landing_seq *q, ak_error *err)
{
    const int32_t J = m->skeleton->joint_count;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    float *y = (float *)malloc(sizeof(float) * (size_t)q->clip->frame_count);
    if (!local || !y) {
        free(local);
        free(y);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    for (int s = 0; s < 2; ++s)
        for (int32_t f = 0; f < q->clip->frame_count; ++f)
            landing_of(m, q, s, f, local);
    hip_accels(m, q, local, y);
    free(y);
    free(local);
    return AK_OK;
}

/* Allocates the landing arrays of n frames (kept when already there). */
int32_t ak_walk_landing_alloc(ak_vec3 **land, ak_vec3 **land_toe, float **phase, float **hip_accel,
                              int32_t n, ak_error *err)
{
    if (!*hip_accel) *hip_accel = (float *)malloc(sizeof(float) * 2 * (size_t)n);
    if (!*hip_accel) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int s = 0; s < 2; ++s) {
        if (!land[s]) land[s] = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)n);
        if (!land_toe[s]) land_toe[s] = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)n);
        if (!phase[s]) phase[s] = (float *)malloc(sizeof(float) * (size_t)n);
        if (!land[s] || !land_toe[s] || !phase[s])
            return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    return AK_OK;
}

int32_t ak_walk_motion_landings(ak_walk_motion *m, ak_error *err)
{
    int32_t st = ak_walk_landing_alloc(m->land_rel, m->land_toe_rel, m->swing_phase, &m->hip_accel,
                                       m->clip->frame_count, err);
    if (st != AK_OK) return st;
    const landing_seq q = {m->clip,         m->root,        m->contacts,  m->land_rel,
                           m->land_toe_rel, m->swing_phase, m->hip_accel, -1};
    st = landings_run(m, &q, err);
    for (int k = 0; k < 2 && st == AK_OK; ++k) {
        ak_walk_segment *g = &m->segment[k];
        if (!g->clip || !g->root) continue;
        st = ak_walk_landing_alloc(g->land_rel, g->land_toe_rel, g->swing_phase, &g->hip_accel,
                                   g->clip->frame_count, err);
        const landing_seq qs = {g->clip,         g->root,        g->contacts,  g->land_rel,
                                g->land_toe_rel, g->swing_phase, g->hip_accel, k};
        if (st == AK_OK) st = landings_run(m, &qs, err);
    }
    return st;
}

/* Middles of the circular stance runs of foot `side`, as cycle times. */
static int32_t run_middles(const ak_walk_motion *m, int side, float *out, int32_t cap)
{
    const int32_t n = m->clip->frame_count;
    const float ft = m->clip->frame_time;
    uint8_t *down = (uint8_t *)malloc((size_t)n);
    if (!down) return -1;
    int32_t start = -1, count = 0;
    for (int32_t f = 0; f < n; ++f) {
        down[f] = m->contacts[side][f] != 0;
        if (!down[f] && start < 0) start = f;
    }
    for (int32_t i = 0; start >= 0 && i < n;) {
        const int32_t f = (start + i) % n;
        if (!down[f]) {
            ++i;
            continue;
        }
        int32_t len = 0;
        while (i + len < n && down[(start + i + len) % n])
            ++len;
        if (count < cap)
            out[count++] = (float)((start + i) % n) * ft + 0.5f * (float)(len - 1) * ft;
        i += len;
    }
    free(down);
    const float dur = ak_clip_duration(m->clip);
    for (int32_t k = 0; k < count; ++k)
        out[k] = out[k] >= dur ? out[k] - dur : out[k];
    return count;
}

static int cmp_time(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Reflection of a rotation across the plane through the origin with unit normal n:
 * M R M with M = I - 2 n n^T; the axis (an axial vector) becomes -M axis, the angle stays. */
static ak_quat mirror_rotation(ak_quat q, ak_vec3 n)
{
    const ak_vec3 v = {q.x, q.y, q.z};
    const ak_vec3 r = akv_sub(akv_scale(n, 2.0f * akv_dot(n, v)), v);
    return (ak_quat){r.x, r.y, r.z, q.w};
}

/* Whether the right leg's offsets mirror the left's across x (each within 1e-4 of the leg's
 * bone): then mirroring the local rotations is exact, as for CMU and every rig whose zero
 * pose is symmetric. */
static int legs_mirror_across_x(const ak_skeleton *sk, int32_t l, int32_t r, int32_t n)
{
    for (int32_t k = 1; k < n; ++k) {
        const ak_vec3 a = sk->rest_local[l + k].translation, b = sk->rest_local[r + k].translation;
        const float tol = 1e-4f * (akv_len(a) + 1e-6f);
        if (fabsf(a.x + b.x) > tol || fabsf(a.y - b.y) > tol || fabsf(a.z - b.z) > tol) return 0;
    }
    return 1;
}

/* The turn about unit `axis` (zero: any turn) taking `from` onto `to` as seen across the axis. */
static ak_quat twist_onto(ak_vec3 axis, ak_vec3 from, ak_vec3 to)
{
    const ak_vec3 a = akv_sub(from, akv_scale(axis, akv_dot(axis, from)));
    const ak_vec3 b = akv_sub(to, akv_scale(axis, akv_dot(axis, to)));
    if (akv_dot(a, a) < 1e-12f || akv_dot(b, b) < 1e-12f) return ak_quat_identity();
    return akq_from_to(a, b);
}

/* The right leg posed as the mirror of the left in model space, for rigs whose leg frames are
 * not mirror images (a zero pose with bones along X): the plane is the hips' mid-plane (normal
 * from the right to the left upper leg), and each right joint's rotation is followed by the
 * constant S_k taking its child's offset onto the mirror of the left child's. */
static void mirror_leg_in_model_space(const ak_walk_motion *m, int32_t l, int32_t r, int32_t n,
                                      ak_xform *pose)
{
    const ak_skeleton *sk = m->skeleton;
    const int32_t foot_l = m->humanoid.joint[AK_HUM_LEFT_FOOT];
    const int32_t J = sk->joint_count;
    ak_xform *model = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    if (!model) return;
    ak_fk(sk, pose, model);
    const ak_vec3 normal = akv_normalize_or(akv_sub(model[l].translation, model[r].translation),
                                            akv_make(1.0f, 0.0f, 0.0f));
    for (int32_t k = 0; k < n; ++k) {
        ak_quat s = ak_quat_identity();
        if (k + 1 < n) {
            const ak_vec3 ol = sk->rest_local[l + k + 1].translation;
            const ak_vec3 mirrored = akv_sub(ol, akv_scale(normal, 2.0f * akv_dot(normal, ol)));
            s = akq_from_to(sk->rest_local[r + k + 1].translation, mirrored);
        }
        if (l + k == foot_l) {
            /* The foot's turn about its own bone matters (its sole and toe points): its up
             * axis, measured from the motion (foot calibration), goes onto the mirror of the
             * left foot's. */
            const ak_vec3 ul = m->foot_up_local[0];
            const ak_vec3 mirrored = akv_sub(ul, akv_scale(normal, 2.0f * akv_dot(normal, ul)));
            const ak_vec3 axis =
                k + 1 < n ? akv_normalize_or(akq_rotate(s, sk->rest_local[r + k + 1].translation),
                                             akv_make(0, 0, 0))
                          : akv_make(0, 0, 0);
            s = akq_normalize(
                akq_mul(twist_onto(axis, akq_rotate(s, m->foot_up_local[1]), mirrored), s));
        }
        model[r + k].rotation =
            akq_normalize(akq_mul(mirror_rotation(model[l + k].rotation, normal), s));
        const int32_t p = sk->parents[r + k];
        pose[r + k].rotation =
            akq_normalize(akq_mul(akq_conj(model[p].rotation), model[r + k].rotation));
    }
    free(model);
}

/* The settle pose of a gait without double support: the frame of the left foot's mid-stance
 * (its leg under the body), in place, with the right leg given the left leg's joint rotations
 * mirrored across the body's mid-plane (x -> -x): both feet under the hips. */
static int32_t make_stand_pose(ak_walk_motion *m, float t_left, ak_error *err)
{
    const ak_skeleton *sk = m->skeleton;
    const int32_t J = sk->joint_count;
    m->stand_pose = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    if (!m->stand_pose) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    ak_clip_sample(m->clip, sk, t_left, AK_INTERP_LINEAR, m->stand_pose);
    ak_root_motion_make_in_place(m->root, t_left, m->stand_pose);
    const int32_t l = m->humanoid.joint[AK_HUM_LEFT_UPPER_LEG];
    const int32_t r = m->humanoid.joint[AK_HUM_RIGHT_UPPER_LEG];
    const int32_t nl = sk->subtree_end[l] - l, nr = sk->subtree_end[r] - r;
    if (nl != nr) return AK_OK; /* legs not alike: the frame as it is */
    if (!legs_mirror_across_x(sk, l, r, nl)) {
        mirror_leg_in_model_space(m, l, r, nl, m->stand_pose);
        return AK_OK;
    }
    for (int32_t k = 0; k < nl; ++k) {
        const ak_quat q = m->stand_pose[l + k].rotation;
        m->stand_pose[r + k].rotation = akq_normalize((ak_quat){q.x, -q.y, -q.z, q.w});
    }
    return AK_OK;
}

int32_t ak_walk_motion_stops(ak_walk_motion *m, ak_error *err)
{
    free(m->stand_pose);
    m->stand_pose = NULL;
    float left[AK_WALK_MAX_STOPS / 2];
    const int32_t nl = run_middles(m, 0, left, AK_WALK_MAX_STOPS / 2);
    const int32_t nr = run_middles(m, 1, m->stop_times + (nl > 0 ? nl : 0), AK_WALK_MAX_STOPS / 2);
    if (nl < 0 || nr < 0) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    if (nl == 0 || nr == 0)
        return ak_error_set(err, AK_ERR_DEGENERATE, 0, "a foot never stands in the cycle");
    memcpy(m->stop_times, left, sizeof(float) * (size_t)nl);
    m->stop_count = nl + nr;
    qsort(m->stop_times, (size_t)m->stop_count, sizeof(float), cmp_time);
    return make_stand_pose(m, left[0], err);
}

int32_t ak_transition_check_describe(const ak_transition_check *c, int32_t is_stop, char *buf,
                                     size_t cap)
{
    const double deg = 180.0 / AK_PI;
    char line[320] = "procedural";
    if (c && c->use == AK_TRANSITION_USED) {
        snprintf(line, sizeof line, "captured, frames %d:%d", (int)c->frames[0], (int)c->frames[1]);
    } else if (c && c->use == AK_TRANSITION_NONE) {
        snprintf(line, sizeof line, "procedural (none captured around the cycle)");
    } else if (c && c->use == AK_TRANSITION_NOT_SOUGHT) {
        snprintf(line, sizeof line, "procedural (captured starts and stops not looked for)");
    } else if (c && c->use == AK_TRANSITION_DROPPED) {
        int n = snprintf(line, sizeof line, "procedural (the captured %s, frames %d:%d, left out:",
                         is_stop ? "stop" : "start", (int)c->frames[0], (int)c->frames[1]);
        const char *sep = " ";
        if (c->broken & (AK_TRANSITION_BREAKS_HIPS_FALL | AK_TRANSITION_BREAKS_HIPS_RISE)) {
            n += snprintf(line + n, sizeof line - (size_t)n,
                          "%ships %.2f..%.2f g outside %.2f..%.2f g", sep,
                          (double)c->hip_accel_min_g, (double)c->hip_accel_max_g,
                          (double)c->hip_accel_low_g, (double)c->hip_accel_high_g);
            sep = "; ";
        }
        if (c->broken & AK_TRANSITION_BREAKS_KNEE)
            n += snprintf(line + n, sizeof line - (size_t)n, "%sknee %.1f deg over %.1f deg", sep,
                          (double)c->knee_peak * deg, (double)c->knee_bound * deg);
        snprintf(line + n, sizeof line - (size_t)n, ")");
    }
    return (int32_t)snprintf(buf, buf ? cap : 0, "%s", line);
}
