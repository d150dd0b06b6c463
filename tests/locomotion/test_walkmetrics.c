/* The walk measures on made-up frames whose answers are worked out by hand: a hips point in
 * free fall reads -1 g, a leg bent to a right angle reads 90 degrees of knee flexion, a swinging
 * toe 2 cm under its ground reads 0.02 m deep in any phase (while the planted measures, which
 * only see points that are down, read nothing), a swinging toe held along the ground reads its
 * speed as drag against the source's, and a source's drag is measured as the walk's is. */
#include "animkit/walkmetrics.h"
#include "animkit/walkclip.h"
#include "animkit/locomotion.h"
#include "locomotion/internal.h" /* ak_walk_metrics_source_points */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

/* Joints: 0 hips, 1/2 left hip/knee, 3 left ankle, 4/5/6 the right leg. */
enum { J = 7 };

static void leg_pose(ak_xform *w, float hips_y, int bend_left)
{
    memset(w, 0, J * sizeof *w);
    for (int j = 0; j < J; ++j)
        w[j].rotation.w = 1.0f;
    w[0].translation = (ak_vec3){0.0f, hips_y, 0.0f};
    for (int k = 0; k < 2; ++k) {
        const float x = k ? -0.1f : 0.1f;
        w[1 + 3 * k].translation = (ak_vec3){x, hips_y, 0.0f};
        w[2 + 3 * k].translation = (ak_vec3){x, hips_y - 0.45f, 0.0f};
        /* bent: the shank points backwards, at right angles to the thigh */
        w[3 + 3 * k].translation = (k == 0 && bend_left) ? (ak_vec3){x, hips_y - 0.45f, -0.4f}
                                                         : (ak_vec3){x, hips_y - 0.85f, 0.0f};
    }
}

static void set_legs(ak_walk_metrics *m)
{
    const int32_t upper[2] = {1, 4}, lower[2] = {2, 5}, foot[2] = {3, 6};
    ak_walk_metrics_set_legs(m, upper, lower, foot);
}

static void free_fall_hips_read_minus_one_g(void **unused)
{
    (void)unused;
    ak_walk_metrics m;
    ak_walk_metrics_reset(&m);
    set_legs(&m);
    ak_walker_state s;
    memset(&s, 0, sizeof s);
    for (int k = 0; k < 2; ++k)
        s.sole_ground[k] = s.toe_ground[k] = NAN;
    ak_xform w[J];
    const float dt = 1.0f / 60.0f, g = 9.81f;
    for (int f = 0; f < 30; ++f) {
        const float t = (float)f * dt;
        leg_pose(w, 1.0f - 0.5f * g * t * t, 0);
        ak_walk_metrics_add(&m, &s, w, 0, f ? dt : 0.0f);
    }
    /* The second difference of a parabola is exact; the 33 ms average (2 frames) of a
     * parabola is a parabola of the same curvature. */
    assert_float_equal(m.hip_accel_min_g, -1.0f, 2e-3f);
    printf("free fall: %.5f .. %.5f g\n", (double)m.hip_accel_min_g, (double)m.hip_accel_max_g);
    assert_float_equal(m.hip_accel_max_g, -1.0f, 2e-3f);
    /* straight legs: 0, up to float rounding of 1 m positions (acos near 1: ~0.1 deg) */
    assert_float_equal(m.knee_peak, 0.0f, 0.2f * 3.14159265f / 180.0f);
}

/* Metrics with the legs set, a leg bent at the knee (0.9), both feet 5 cm above flat ground. */
static void arrange_bent_leg_feet_up(ak_walk_metrics *m, ak_walker_state *s, ak_xform *w)
{
    ak_walk_metrics_reset(m);
    set_legs(m);
    memset(s, 0, sizeof *s);
    leg_pose(w, 0.9f, 1);
    for (int k = 0; k < 2; ++k) {
        s->sole[k] = s->toe[k] = (ak_vec3){0.0f, 0.05f, 0.0f};
        s->sole_ground[k] = s->toe_ground[k] = 0.0f;
    }
}

/* Foot k planted on the points of `contact` (AK_CONTACT_HEEL, AK_CONTACT_TOE), each on the
 * ground (y 0). */
static void plant(ak_walker_state *s, int k, int32_t contact)
{
    s->stance[k] = 1;
    s->contact[k] = contact;
    if (contact & AK_CONTACT_HEEL) s->sole[k].y = 0.0f;
    if (contact & AK_CONTACT_TOE) s->toe[k].y = 0.0f;
}

static void bent_knee_and_buried_swing_toe(void **unused)
{
    (void)unused;
    ak_walk_metrics m;
    ak_walker_state s;
    ak_xform w[J];
    arrange_bent_leg_feet_up(&m, &s, w);
    plant(&s, 1, AK_CONTACT_HEEL | AK_CONTACT_TOE); /* the right foot planted, the left swinging */
    s.toe[0].y = -0.02f;                            /* the swinging toe 2 cm into the ground */
    ak_walk_metrics_add(&m, &s, w, 0, 0.0f);
    ak_walk_metrics_add(&m, &s, w, 0, 1.0f / 60.0f);
    assert_float_equal(m.knee_peak, 0.5f * 3.14159265f, 1e-3f * 3.14159265f / 180.0f);
    assert_float_equal(m.deepest, 0.02f, 1e-6f);
    assert_int_equal(m.deepest_frame, 0);
    assert_int_equal(m.deepest_side, 0);
    assert_int_equal(m.deepest_point, 1);
    assert_int_equal(m.deepest_stance, 0);
    assert_float_equal(m.max_penetration, 0.0f, 1e-9f); /* planted points only */
    assert_float_equal(m.deepest_planted, 0.0f, 1e-9f); /* the swinging toe is not planted */
    assert_int_equal(m.deepest_planted_frame, -1);
}

/* A run's push-off: the right foot planted on its toe (toe bit only), the heel 13 mm into the
 * ground on frame 1. max_penetration counts the toe alone (the point that is down); the
 * deepest point while planted sees the heel; any phase sees it too. */
static void heel_sinking_while_the_toe_holds(void **unused)
{
    (void)unused;
    ak_walk_metrics m;
    ak_walker_state s;
    ak_xform w[J];
    arrange_bent_leg_feet_up(&m, &s, w);
    plant(&s, 1, AK_CONTACT_TOE);
    ak_walk_metrics_add(&m, &s, w, 0, 0.0f);
    s.sole[1].y = -0.013f;
    ak_walk_metrics_add(&m, &s, w, 0, 1.0f / 60.0f);
    assert_float_equal(m.max_penetration, 0.0f, 1e-9f);
    assert_float_equal(m.deepest_planted, 0.013f, 1e-6f);
    assert_int_equal(m.deepest_planted_frame, 1);
    assert_int_equal(m.deepest_planted_side, 1);
    assert_int_equal(m.deepest_planted_point, 0);
    assert_float_equal(m.deepest, 0.013f, 1e-6f);
    assert_int_equal(m.deepest_stance, 1);
}

/* The worst drag of m against src (ak_walk_metrics_drag_worst) is `speed` (m/s) with `bound`,
 * at point `point` of foot `side`, found at the frame that speed was. */
static void worst_drag_is(const ak_walk_metrics *m, const ak_walk_metrics *src, float speed,
                          float bound, int side, int point)
{
    ak_walk_drag d;
    assert_int_equal(ak_walk_metrics_drag_worst(m, src, &d), AK_OK);
    printf("worst drag %.3f m/s (bound %.3f), frame %d, side %d, point %d\n", (double)d.speed,
           (double)d.bound, (int)d.frame, (int)d.side, (int)d.point);
    assert_float_equal(d.speed, speed, 1e-4f);
    assert_float_equal(d.bound, bound, 1e-9f);
    assert_int_equal(d.side, side);
    assert_int_equal(d.point, point);
    assert_int_equal(d.frame, m->drag_frame[side][point]);
    assert_int_equal(d.stance, m->drag_stance[side][point]);
}

/* Drag: a swinging right toe held along the ground at 60 fps. Frame 1: 4 -> 3 mm up, 1 cm
 * forward (0.6 m/s: counted); frame 2: 6 mm up, 2 cm (out of the 5 mm band at its end: not
 * counted); frame 3: back to 2 mm, 3 cm (out of the band at its start: not counted); frame 4:
 * 1 mm, 0.5 cm (0.3 m/s, slower than frame 1). The planted left heel stands still (0 m/s).
 * Against a source whose toes move at most 0.3 m/s that low and whose heels move 0 (the bound:
 * 1 cm/s), the toe is the worst: twice its bound; with no source every bound is 1 cm/s and the
 * fastest point is the worst. */
static void swinging_toe_held_along_the_ground_is_drag(void **unused)
{
    (void)unused;
    ak_walk_metrics m;
    ak_walker_state s;
    ak_xform w[J];
    arrange_bent_leg_feet_up(&m, &s, w);
    plant(&s, 0, AK_CONTACT_HEEL);
    const float dt = 1.0f / 60.0f, y[5] = {0.004f, 0.003f, 0.006f, 0.002f, 0.001f};
    const float x[5] = {0.0f, 0.01f, 0.03f, 0.06f, 0.065f};
    for (int f = 0; f < 5; ++f) {
        s.toe[1] = (ak_vec3){x[f], y[f], 0.0f};
        s.sole[1] = (ak_vec3){x[f] - 0.2f, 0.08f, 0.0f}; /* the heel up */
        ak_walk_metrics_add(&m, &s, w, 0, f ? dt : 0.0f);
    }
    assert_float_equal(m.drag[1][1], 0.6f, 1e-4f);
    assert_int_equal(m.drag_frame[1][1], 1);
    assert_int_equal(m.drag_stance[1][1], 0);
    assert_int_equal(m.drag_part[1][1], AK_WALK_PART_WALKING);
    assert_float_equal(m.drag[0][0], 0.0f, 1e-9f);
    assert_int_equal(m.drag_frame[1][0], -1); /* the right heel never that low */
    ak_walk_metrics src;
    ak_walk_metrics_reset(&src);
    src.drag[0][1] = src.drag[1][1] = 0.3f;
    worst_drag_is(&m, &src, 0.6f, 0.3f, 1, 1);
    /* the left heel dragged 0.05 m/s against its 1 cm/s floor: 5x, now the worst */
    m.drag[0][0] = 0.05f;
    worst_drag_is(&m, &src, 0.05f, AK_WALK_DRAG_FLOOR, 0, 0);
    worst_drag_is(&m, NULL, 0.6f, AK_WALK_DRAG_FLOOR, 1, 1);
    ak_walk_drag d;
    assert_int_equal(ak_walk_metrics_drag_worst(NULL, &src, &d), AK_ERR_INVALID_ARG);
    /* the origin moved by 1 m (ak_walk_metrics_shift_origin): the next frame's speed does not
     * see the jump */
    ak_walk_metrics_shift_origin(&m, 1.0f, 0.0f);
    s.toe[1].x -= 1.0f;
    ak_walk_metrics_add(&m, &s, w, 0, dt);
    assert_float_equal(m.drag[1][1], 0.6f, 1e-4f);
}

/* A source's drag bound is measured as the walk's figure is: the same right toe path, at 60
 * fps, through a source run (ak_walk_metrics_source_points: the toe not down, its heights over
 * its lowest, 0)
 * and a walk (ak_walk_metrics_add: heights over the ground, 0) reads the same drag. The toe
 * comes down 12 -> 4 mm moving 2 cm (1.2 m/s: one end within 5 mm, counted by neither; the
 * source's bound counted it before), slides 4 -> 3 -> 1 -> 0 mm at 0.3, 0.3 and 0.12 m/s, and
 * lifts 0 -> 8 mm moving 1.8 cm (1.08 m/s: one end, counted by neither): both read 0.3 m/s. */
static void source_drag_is_measured_as_the_walks(void **unused)
{
    (void)unused;
    enum { F = 6 };
    const float dt = 1.0f / 60.0f, y[F] = {0.012f, 0.004f, 0.003f, 0.001f, 0.0f, 0.008f};
    const float x[F] = {0.0f, 0.02f, 0.025f, 0.03f, 0.032f, 0.05f};
    ak_vec3 pts[4 * F];
    uint8_t bits[2 * F];
    memset(bits, 0, sizeof bits);
    ak_walk_metrics walk, src;
    ak_walker_state s;
    ak_xform w[J];
    arrange_bent_leg_feet_up(&walk, &s, w);
    plant(&s, 0, AK_CONTACT_HEEL);
    for (int f = 0; f < F; ++f) {
        pts[4 * f] = pts[4 * f + 1] = (ak_vec3){0.0f, 0.0f, 0.3f}; /* the left foot stands */
        pts[4 * f + 2] = (ak_vec3){-0.2f, 0.08f, 0.0f};            /* the right heel up, still */
        pts[4 * f + 3] = (ak_vec3){x[f], y[f], 0.0f};
        s.sole[0] = pts[4 * f];
        s.toe[0] = pts[4 * f + 1];
        s.sole[1] = pts[4 * f + 2];
        s.toe[1] = pts[4 * f + 3];
        ak_walk_metrics_add(&walk, &s, w, 0, f ? dt : 0.0f);
    }
    ak_walk_metrics_reset(&src);
    ak_walk_metrics_source_points(&src, pts, bits, F, 0.0f, dt, NULL);
    printf("right toe drag: walk %.4f m/s, source %.4f m/s\n", (double)walk.drag[1][1],
           (double)src.drag[1][1]);
    assert_float_equal(walk.drag[1][1], 0.3f, 1e-4f);
    assert_float_equal(src.drag[1][1], walk.drag[1][1], 1e-6f);
    for (int k = 0; k < 2; ++k)
        for (int p = 0; p < 2; ++p)
            assert_float_equal(src.drag[k][p], walk.drag[k][p], 1e-6f);
}

/* A source's point is measured on the ground the walker puts it on: over the clip's floor where
 * its contact has it down (planted), over its own lowest where not (held at its clearance). A
 * heel at 120 fps stands 0 -> 2 -> 4 mm over the floor, down, moving 2 mm a frame (0.24 m/s),
 * swings 3 -> 2 mm over the floor at 2.4 m/s (15 and 14 mm over its lowest: not on its ground),
 * then dips to its lowest, 12 mm under the floor, for one frame (CMU 16_11's left heel at frame
 * 94). Its bound is 0.24 m/s, its own planted speed and its skate's; over its lowest alone it was
 * none (one frame there: the 1 cm/s floor), over the floor alone 2.4 m/s. */
static void source_drag_counts_planted_frames_on_the_floor(void **unused)
{
    (void)unused;
    enum { F = 8 };
    const float dt = 1.0f / 120.0f;
    const float y[F] = {0.0f, 0.002f, 0.004f, 0.020f, 0.003f, 0.002f, -0.012f, 0.020f};
    const float x[F] = {0.0f, 0.002f, 0.004f, 0.020f, 0.040f, 0.060f, 0.061f, 0.062f};
    ak_vec3 pts[4 * F];
    uint8_t bits[2 * F];
    memset(bits, 0, sizeof bits);
    for (int f = 0; f < F; ++f) {
        pts[4 * f] = (ak_vec3){x[f], y[f], 0.0f};
        pts[4 * f + 1] = (ak_vec3){x[f] + 0.2f, 0.05f, 0.0f}; /* the toe up */
        pts[4 * f + 2] = pts[4 * f + 3] = (ak_vec3){-0.2f, 0.08f, 0.0f};
        bits[2 * f] = f < 3 ? AK_CONTACT_HEEL : 0;
    }
    ak_walk_metrics src;
    ak_walk_metrics_reset(&src);
    ak_walk_metrics_source_points(&src, pts, bits, F, 0.0f, dt, NULL);
    printf("left heel: drag bound %.4f m/s, skate worst %.4f m/s\n", (double)src.drag[0][0],
           (double)src.max_skate);
    assert_float_equal(src.drag[0][0], 0.24f, 1e-4f);
    assert_float_equal(src.max_skate, 0.24f, 1e-4f);
}

/* A cycle's seam pair (last frame -> the first carried by the cycle's travel) is measured: a toe
 * down and on the floor through a 4-frame cycle at 120 fps moves 1 mm a frame (0.12 m/s) and 2.3
 * mm across the seam (0.276 m/s). With the seam its bound and the skate's worst read 0.276 and
 * the skate counts 4 pairs; a run cut from a longer clip (no seam) reads 0.12 over 3 pairs. */
static void source_drag_and_skate_cross_the_seam(void **unused)
{
    (void)unused;
    enum { F = 4 };
    const float dt = 1.0f / 120.0f;
    ak_vec3 pts[4 * F], seam[4];
    uint8_t bits[2 * F];
    for (int f = 0; f <= F; ++f) {
        ak_vec3 *at = f < F ? pts + 4 * f : seam;
        at[0] = at[2] = at[3] = (ak_vec3){-0.2f, 0.08f, 0.0f}; /* heels and the right toe up */
        at[1] = (ak_vec3){f < F ? 0.001f * (float)f : 0.0053f, 0.0f, 0.0f};
        if (f < F) {
            bits[2 * f] = AK_CONTACT_TOE;
            bits[2 * f + 1] = 0;
        }
    }
    ak_walk_metrics cycle, cut;
    ak_walk_metrics_reset(&cycle);
    ak_walk_metrics_reset(&cut);
    ak_walk_metrics_source_points(&cycle, pts, bits, F, 0.0f, dt, seam);
    ak_walk_metrics_source_points(&cut, pts, bits, F, 0.0f, dt, NULL);
    printf("left toe: cycle %.4f m/s over %d pairs, cut %.4f m/s over %d\n",
           (double)cycle.drag[0][1], cycle.skate_n, (double)cut.drag[0][1], cut.skate_n);
    assert_float_equal(cycle.drag[0][1], 0.276f, 1e-4f);
    assert_float_equal(cycle.max_skate, 0.276f, 1e-4f);
    assert_int_equal(cycle.skate_n, 4);
    assert_float_equal(cut.drag[0][1], 0.12f, 1e-4f);
    assert_float_equal(cut.max_skate, 0.12f, 1e-4f);
    assert_int_equal(cut.skate_n, 3);
}

/* The built-in clip's cycle (ak_walk_metrics_source): its right heel stands across the seam
 * (0.0 mm over the floor at both ends), where the cycle's travel (1.30 m) carries the first frame
 * onto the last's place: across it the heel and toe move 0.63 mm/s (0.01 mm), so the source's
 * skate stays under 1 mm/s (without the travel the seam pair would read 1.3 m in a frame, 78
 * m/s). Its drag bounds are the seam's no more than the loop's: heels 0.123, toes 0.125 m/s. */
static void builtin_cycle_seam_carries_the_travel(void **unused)
{
    (void)unused;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    ak_walk_motion *motion = NULL;
    ak_error err;
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &clip, &err), AK_OK);
    uint8_t *stance = malloc(2 * (size_t)clip->frame_count);
    assert_non_null(stance);
    assert_int_equal(ak_walk_clip_contacts(&wp, clip, stance, stance + clip->frame_count, &err),
                     AK_OK);
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    mp.metres_per_unit = 1.0f;
    mp.cycle_start = mp.cycle_end = 0;
    mp.stance_left = stance;
    mp.stance_right = stance + clip->frame_count;
    assert_int_equal(ak_walk_motion_create(sk, clip, &mp, &motion, &err), AK_OK);
    ak_walk_metrics src;
    assert_int_equal(ak_walk_metrics_source(motion, &src, &err), AK_OK);
    printf("built-in source: skate worst %.4f m/s over %d pairs; drag %.3f %.3f %.3f %.3f m/s\n",
           (double)src.max_skate, src.skate_n, (double)src.drag[0][0], (double)src.drag[0][1],
           (double)src.drag[1][0], (double)src.drag[1][1]);
    assert_true(src.max_skate < 0.001f);
    for (int k = 0; k < 2; ++k) {
        assert_float_equal(src.drag[k][0], 0.123f, 0.001f);
        assert_float_equal(src.drag[k][1], 0.125f, 0.001f);
    }
    ak_walk_motion_destroy(motion);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(sk);
    free(stance);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(free_fall_hips_read_minus_one_g),
        cmocka_unit_test(bent_knee_and_buried_swing_toe),
        cmocka_unit_test(heel_sinking_while_the_toe_holds),
        cmocka_unit_test(swinging_toe_held_along_the_ground_is_drag),
        cmocka_unit_test(source_drag_is_measured_as_the_walks),
        cmocka_unit_test(source_drag_counts_planted_frames_on_the_floor),
        cmocka_unit_test(source_drag_and_skate_cross_the_seam),
        cmocka_unit_test(builtin_cycle_seam_carries_the_travel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
