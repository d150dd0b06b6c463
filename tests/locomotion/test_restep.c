/* The re-step (locomotion/restep.c, ak_restep): a foot that must move while its pose source has
 * it down lifts, moves while it is up and lands. Its shape, stepped at 120 Hz: held where it
 * left the ground until it is up, never moved along the ground (every frame it moves
 * horizontally it is at least half its height up), down onto its end point; its duration and
 * height from its length within the captures' figures (0.2-0.35 s, 4-8 cm); waiting at its top
 * while asked to hover. */
#include "test_util.h"

#include "locomotion/internal.h"

#define DT (1.0f / 120.0f)

static float len_xz(ak_vec3 v)
{
    return sqrtf(v.x * v.x + v.z * v.z);
}

/* A step of 0.23 m: 0.3 s, 6.3 cm high; held at its start, moved only while at least half its
 * height up, landed on its end point. */
static void a_step_moves_only_while_up(void **state)
{
    (void)state;
    ak_restep r;
    const ak_vec3 from = ak_vec3_make(1.0f, 0.0f, 2.0f), to = ak_vec3_make(1.0f, 0.0f, 2.23f);
    ak_restep_begin(&r, from, 0.23f);
    AKT_NEAR(r.duration, 0.2f + 0.23f / 2.3f, 1e-6);
    AKT_NEAR(r.height, 0.04f + 0.1f * 0.23f, 1e-6);
    assert_true(r.on);
    AKT_NEAR(ak_restep_lift(&r), 0.0, 1e-7);
    AKT_NEAR(len_xz(ak_vec3_sub(ak_vec3_add(to, ak_restep_hold(&r, to)), from)), 0.0, 1e-7);
    ak_vec3 was = from;
    float top = 0.0f;
    int frames = 0;
    while (r.on && frames < 1000) {
        ak_restep_advance(&r, DT, 0);
        ++frames;
        const ak_vec3 at = ak_vec3_add(to, ak_restep_hold(&r, to));
        const float lift = ak_restep_lift(&r), moved = len_xz(ak_vec3_sub(at, was));
        if (moved > 1e-6f) assert_true(lift >= 0.5f * r.height - 1e-6f);
        top = fmaxf(top, lift);
        was = at;
    }
    printf("step of 0.23 m: %d frames at 120 Hz, top %.1f mm\n", frames, 1e3 * (double)top);
    assert_int_equal(frames, (int)ceilf(r.duration / DT - 1e-3f));
    AKT_NEAR(top, r.height, 1e-6);
    AKT_NEAR(ak_restep_lift(&r), 0.0, 1e-7);
    AKT_NEAR(ak_restep_left(&r), 0.0, 1e-7);
    AKT_NEAR(len_xz(ak_vec3_sub(was, to)), 0.0, 1e-6);
}

/* Its figures stay within the captures' short steps: 0.2 s and 4 cm in place, 0.35 s and 8 cm
 * at most however far. */
static void a_steps_figures_are_bounded(void **state)
{
    (void)state;
    ak_restep r;
    ak_restep_begin(&r, ak_vec3_make(0, 0, 0), 0.0f);
    AKT_NEAR(r.duration, 0.2, 1e-6);
    AKT_NEAR(r.height, 0.04, 1e-6);
    ak_restep_begin(&r, ak_vec3_make(0, 0, 0), 2.0f);
    AKT_NEAR(r.duration, 0.35, 1e-6);
    AKT_NEAR(r.height, 0.08, 1e-6);
    ak_restep off;
    memset(&off, 0, sizeof off);
    AKT_NEAR(ak_restep_lift(&off), 0.0, 0.0);
    AKT_NEAR(len_xz(ak_restep_hold(&off, ak_vec3_make(3, 0, 4))), 0.0, 0.0);
    ak_restep_advance(&off, DT, 0);
    assert_false(off.on);
}

/* Hovering, the foot waits at the top of its step, carried over its end point, and comes down
 * once let go, in the rest of its step. */
static void a_hovering_step_waits_up(void **state)
{
    (void)state;
    ak_restep r;
    const ak_vec3 to = ak_vec3_make(0.1f, 0.0f, 0.0f);
    ak_restep_begin(&r, ak_vec3_make(0, 0, 0), 0.1f);
    for (int f = 0; f < 240; ++f)
        ak_restep_advance(&r, DT, 1);
    assert_true(r.on);
    AKT_NEAR(ak_restep_lift(&r), r.height, 1e-6);
    AKT_NEAR(len_xz(ak_restep_hold(&r, to)), 0.0, 1e-7);
    const float left = ak_restep_left(&r);
    AKT_NEAR(left, 0.3f * r.duration, 1e-5);
    int frames = 0;
    while (r.on && frames < 1000) {
        ak_restep_advance(&r, DT, 0);
        ++frames;
    }
    assert_int_equal(frames, (int)ceilf(left / DT - 1e-3f));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_step_moves_only_while_up),
        cmocka_unit_test(a_steps_figures_are_bounded),
        cmocka_unit_test(a_hovering_step_waits_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
