/* The re-step (locomotion/restep.c, ak_restep): a foot that must move while its pose source has
 * it down lifts, moves while it is up and lands. Its shape, stepped at 120 Hz: held where it
 * left the ground until it is up, never moved along the ground (every frame it moves
 * horizontally it is at least half its height up; a step of the stop 80 %, above the hover band
 * of walk_physics.h),
 * down onto its end point; its duration and height from its length within the captures' figures
 * (0.2-0.35 s, 7-9 cm, under their swings' 9.3-13.5 cm); waiting at its top
 * while asked to hover. */
#include "test_util.h"

#include "locomotion/internal.h"

#define DT (1.0f / 120.0f)

static float len_xz(ak_vec3 v)
{
    return sqrtf(v.x * v.x + v.z * v.z);
}

/* A step of 0.23 m: 0.3 s, 9 cm high; held at its start, moved only while at least half its
 * height up, landed on its end point. */
static void a_step_moves_only_while_up(void **state)
{
    (void)state;
    ak_restep r;
    const ak_vec3 from = ak_vec3_make(1.0f, 0.0f, 2.0f), to = ak_vec3_make(1.0f, 0.0f, 2.23f);
    ak_restep_begin(&r, from, 0.23f);
    AKT_NEAR(r.duration, 0.2f + 0.23f / 2.3f, 1e-6);
    AKT_NEAR(r.height, fminf(0.07f + 0.1f * 0.23f, 0.09f), 1e-6);
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

/* Its figures stay within the captures' short steps: 0.2 s and 7 cm in place, 0.35 s and 9 cm
 * at most however far. */
static void a_steps_figures_are_bounded(void **state)
{
    (void)state;
    ak_restep r;
    ak_restep_begin(&r, ak_vec3_make(0, 0, 0), 0.0f);
    AKT_NEAR(r.duration, 0.2, 1e-6);
    AKT_NEAR(r.height, 0.07, 1e-6);
    ak_restep_begin(&r, ak_vec3_make(0, 0, 0), 2.0f);
    AKT_NEAR(r.duration, 0.35, 1e-6);
    AKT_NEAR(r.height, 0.09, 1e-6);
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

/* A fixed step (the matcher's stop: ak_restep_begin_to) lands on its target wherever the
 * caller's point goes meanwhile (here at 2 m/s, as a coasting stop carries it): the foot is held
 * at its start until it is up, moves only while up, and comes straight down onto the target. A
 * walk's step fixed halfway (ak_restep_fix) goes on from where it is. */
static void a_fixed_step_lands_on_its_target(void **state)
{
    (void)state;
    ak_restep r;
    const ak_vec3 from = ak_vec3_make(0.0f, 0.0f, 0.0f), to = ak_vec3_make(0.3f, 0.0f, 0.1f);
    ak_restep_begin_to(&r, from, to);
    assert_true(r.fixed);
    ak_vec3 at = ak_vec3_make(-0.2f, 0.0f, 0.0f), was = from;
    int frames = 0;
    while (r.on && frames < 1000) {
        ak_restep_advance(&r, DT, 0);
        at.x += 2.0f * DT;
        ++frames;
        if (!r.on) break; /* landed: its caller holds it there (the matcher's touchdown_hold) */
        const ak_vec3 foot = ak_vec3_add(at, ak_restep_hold(&r, at));
        const float moved = len_xz(ak_vec3_sub(foot, was)), lift = ak_restep_lift(&r);
        if (moved > 1e-5f) assert_true(lift >= 0.8f * r.height - 1e-6f && lift > 0.05f);
        was = foot;
    }
    assert_false(r.on);
    AKT_NEAR(len_xz(ak_vec3_sub(was, to)), 0.0, 1e-5);
    /* fixed at its start: held where it is (a target of its own) */
    ak_restep_begin(&r, from, 0.3f);
    ak_restep_fix(&r, at, to);
    AKT_NEAR(len_xz(ak_vec3_sub(ak_vec3_add(at, ak_restep_hold(&r, at)), from)), 0.0, 1e-6);
    /* fixed while coming down over the caller's point: it goes back up from the height it
     * has, carries on from where it is, and lands on the target */
    const ak_vec3 mid = ak_vec3_make(0.5f, 0.0f, 0.0f);
    ak_restep_begin(&r, from, 0.5f);
    while (r.u < 0.8f)
        ak_restep_advance(&r, DT, 0);
    const ak_vec3 now = ak_vec3_add(mid, ak_restep_hold(&r, mid));
    const float lift = ak_restep_lift(&r);
    ak_restep_fix(&r, mid, to);
    AKT_NEAR(ak_restep_lift(&r), lift, 1e-5);
    AKT_NEAR(len_xz(ak_vec3_sub(ak_vec3_add(at, ak_restep_hold(&r, at)), now)), 0.0, 1e-5);
    was = now;
    while (r.on) {
        ak_restep_advance(&r, DT, 0);
        if (!r.on) break;
        was = ak_vec3_add(at, ak_restep_hold(&r, at));
    }
    AKT_NEAR(len_xz(ak_vec3_sub(was, to)), 0.0, 1e-5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_step_moves_only_while_up),
        cmocka_unit_test(a_steps_figures_are_bounded),
        cmocka_unit_test(a_hovering_step_waits_up),
        cmocka_unit_test(a_fixed_step_lands_on_its_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
