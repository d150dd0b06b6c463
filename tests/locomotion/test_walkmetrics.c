/* The walk measures on made-up frames whose answers are worked out by hand: a hips point in
 * free fall reads -1 g, a leg bent to a right angle reads 90 degrees of knee flexion, a swinging
 * toe 2 cm under its ground reads 0.02 m deep in any phase (while the planted measures, which
 * only see points that are down, read nothing). */
#include "animkit/walkmetrics.h"

#include <math.h>
#include <stdio.h>
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

static void bent_knee_and_buried_swing_toe(void **unused)
{
    (void)unused;
    ak_walk_metrics m;
    ak_walker_state s;
    ak_xform w[J];
    arrange_bent_leg_feet_up(&m, &s, w);
    s.stance[1] = 1; /* the right foot planted on the ground, the left swinging */
    s.contact[1] = AK_CONTACT_HEEL | AK_CONTACT_TOE;
    s.sole[1].y = s.toe[1].y = 0.0f;
    s.toe[0].y = -0.02f; /* the swinging toe 2 cm into the ground */
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
    s.stance[1] = 1;
    s.contact[1] = AK_CONTACT_TOE;
    s.toe[1].y = 0.0f;
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(free_fall_hips_read_minus_one_g),
        cmocka_unit_test(bent_knee_and_buried_swing_toe),
        cmocka_unit_test(heel_sinking_while_the_toe_holds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
