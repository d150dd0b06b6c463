/* Sampling a clip at a time and at a frame (src/anim/clip_sample.c) on 6 joints (the SSE path
 * takes 4 at a time, the scalar loop the other 2): bad arguments leave the output untouched;
 * worked numbers: joint j turns (0.2 + 0.1 j) rad about +Y per frame and the root slides 1 m
 * per frame along +X, so linear at a quarter of the way is a quarter turn of the key step and
 * x = 0.5 at t = 0.25 s; step holds the earlier key; every mode gives the keys at key times
 * and cubic stays a turn about +Y between them;
 * a clamped clip clamps, a looping one wraps; joints without a track keep their rest offset;
 * a looping clip sampled periods later (up to 2^20 of them, and a float step either side of
 * each whole period) gives the bits of the same time wrapped by fmodf, in every mode; the
 * keyed sample (ak_clip_sample_keyed, the walker's) over a pose sampled whole at another time
 * gives the whole sample's bits, and leaves the translations it does not write alone. */
#include "test_params.h"
#include "anim/clip_internal.h"

enum { J = 6, FRAMES = 3 };
#define FT 0.5f

AKT_CLIP_FIXTURE

static float angle_of(int32_t j, float frame)
{
    return frame * (0.2f + 0.1f * (float)j);
}

static int setup(void **state)
{
    (void)state;
    g_s = akt_line_skeleton(J, 0.5f);
    ak_error err;
    assert_int_equal(ak_clip_create(J, FRAMES, FT, NULL, &g_c, &err), AK_OK);
    for (int32_t f = 0; f < FRAMES; ++f) {
        for (int32_t j = 0; j < J; ++j)
            g_c->rotations[f * J + j] =
                ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), angle_of(j, (float)f));
        g_c->translations[f] = ak_vec3_make((float)f, 0.0f, 0.0f);
    }
    ak_clip_finalize(g_c);
    return 0;
}

static void sample_arguments_validity(void **state)
{
    (void)state;
    ak_xform out[J], before[J];
    memset(out, 0x5a, sizeof out);
    memcpy(before, out, sizeof out);
    ak_clip_sample(NULL, g_s, 0.1f, AK_INTERP_LINEAR, out);
    ak_clip_sample(g_c, NULL, 0.1f, AK_INTERP_LINEAR, out);
    ak_clip_frame(NULL, g_s, 0, out);
    ak_clip_frame(g_c, NULL, 0, out);
    ak_skeleton *other = akt_line_skeleton(J - 1, 0.5f); /* another joint count */
    ak_clip_sample(g_c, other, 0.1f, AK_INTERP_LINEAR, out);
    ak_clip_frame(g_c, other, 1, out);
    assert_memory_equal(out, before, sizeof out);
    ak_clip_sample(g_c, g_s, 0.1f, AK_INTERP_LINEAR, NULL); /* no crash */
    ak_skeleton_destroy(other);
    /* frames outside the clip clamp to its ends */
    ak_xform a[J], b[J];
    ak_clip_frame(g_c, g_s, -5, a);
    ak_clip_frame(g_c, g_s, 0, b);
    assert_memory_equal(a, b, sizeof a);
    ak_clip_frame(g_c, g_s, 99, a);
    ak_clip_frame(g_c, g_s, FRAMES - 1, b);
    assert_memory_equal(a, b, sizeof a);
}

static void check_pose(const ak_xform *pose, float frame, float x, double tol)
{
    for (int32_t j = 0; j < J; ++j) {
        const ak_quat want = ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), angle_of(j, frame));
        if (!(fabsf(ak_quat_dot(pose[j].rotation, want)) >= 1.0f - (float)tol)) {
            fail_msg("joint %d at frame %.3f: dot %.9f", (int)j, (double)frame,
                     (double)fabsf(ak_quat_dot(pose[j].rotation, want)));
        }
        if (j > 0) { /* no track: the rest offset */
            AKT_NEAR(pose[j].translation.y, 0.5f, 0.0);
            AKT_NEAR(pose[j].translation.x, 0.0f, 0.0);
        }
    }
    AKT_NEAR(pose[0].translation.x, x, 1e-6);
}

static void linear_step_and_cubic_worked_numbers(void **state)
{
    (void)state;
    ak_xform pose[J];
    /* linear: slerp of a turn about one axis is the proportional turn */
    ak_clip_sample(g_c, g_s, 0.25f, AK_INTERP_LINEAR, pose);
    check_pose(pose, 0.5f, 0.5f, 1e-6);
    ak_clip_sample(g_c, g_s, 0.875f, AK_INTERP_LINEAR, pose);
    check_pose(pose, 1.75f, 1.75f, 1e-6);
    /* step: the key at or before t */
    ak_clip_sample(g_c, g_s, 0.49f, AK_INTERP_STEP, pose);
    check_pose(pose, 0.0f, 0.0f, 1e-7);
    ak_clip_sample(g_c, g_s, 0.5f, AK_INTERP_STEP, pose);
    check_pose(pose, 1.0f, 1.0f, 1e-7);
    /* every mode at the key times gives the keys */
    const ak_interp modes[] = {AK_INTERP_STEP, AK_INTERP_LINEAR, AK_INTERP_CUBIC};
    for (int m = 0; m < 3; ++m)
        for (int32_t f = 0; f < FRAMES; ++f) {
            ak_clip_sample(g_c, g_s, (float)f * FT, modes[m], pose);
            check_pose(pose, (float)f, (float)f, 1e-6);
        }
    /* cubic between keys turning about +Y: still a turn about +Y, between the two keys */
    ak_clip_sample(g_c, g_s, 0.25f, AK_INTERP_CUBIC, pose);
    for (int32_t j = 0; j < J; ++j) {
        AKT_NEAR(pose[j].rotation.x, 0.0f, 1e-6);
        AKT_NEAR(pose[j].rotation.z, 0.0f, 1e-6);
        const float a = ak_quat_angle(pose[j].rotation);
        assert_true(a > 0.0f && a < angle_of(j, 1.0f));
    }
}

static void clamped_clamps_and_looping_wraps(void **state)
{
    (void)state;
    ak_xform a[J], b[J];
    /* a looping clip's period is frame_count x frame_time: its last key blends into its first */
    const float period = (float)FRAMES * FT;
    ak_clip_sample(g_c, g_s, 7.0f, AK_INTERP_LINEAR, a);
    check_pose(a, 2.0f, 2.0f, 1e-6);
    ak_clip_sample(g_c, g_s, -3.0f, AK_INTERP_LINEAR, a);
    check_pose(a, 0.0f, 0.0f, 1e-6);
    g_c->loop = 1;
    ak_clip_sample(g_c, g_s, period + 0.25f, AK_INTERP_LINEAR, a);
    ak_clip_sample(g_c, g_s, 0.25f, AK_INTERP_LINEAR, b);
    for (int32_t j = 0; j < J; ++j)
        AKT_NEAR(fabsf(ak_quat_dot(a[j].rotation, b[j].rotation)), 1.0f, 1e-6);
    AKT_NEAR(a[0].translation.x, b[0].translation.x, 1e-5);
    g_c->loop = 0;
}

/* Periods later, the same bits as the time fmodf wraps into the first period (the sampler wraps
 * a late time without fmodf's loop: clip_internal.h wrap_period). */
static void looping_late_times_sample_as_fmodf_wraps_them(void **state)
{
    (void)state;
    const float period = (float)FRAMES * FT;
    const ak_interp modes[] = {AK_INTERP_STEP, AK_INTERP_LINEAR, AK_INTERP_CUBIC};
    const float offsets[] = {0.0f, 0.1f, 0.25f, 0.75f, 1.1f, 1.4999f};
    g_c->loop = 1;
    for (int32_t e = 0; e <= 20; ++e) {
        const float whole = period * (float)(1 << e);
        for (int i = 0; i < 8; ++i) {
            const float t =
                i < 6 ? whole + offsets[i] : nextafterf(whole, i == 6 ? 0.0f : INFINITY);
            const float wrapped = fmodf(t, period);
            for (int m = 0; m < 3; ++m) {
                ak_xform a[J], b[J];
                ak_clip_sample(g_c, g_s, t, modes[m], a);
                ak_clip_sample(g_c, g_s, wrapped, modes[m], b);
                if (memcmp(a, b, sizeof a) != 0)
                    fail_msg("mode %d, t = %a (wrapped %a): not the same bits", m, (double)t,
                             (double)wrapped);
            }
        }
    }
    g_c->loop = 0;
}

/* Over a pose sampled whole at another time (its untracked joints at their rest offsets),
 * the keyed sample at t writes the bits of the whole sample at t: every rotation, the root's
 * track and joint `also`; another joint's translation is left as it was. */
static void keyed_sample_writes_the_whole_samples_bits(void **state)
{
    (void)state;
    const ak_interp modes[] = {AK_INTERP_STEP, AK_INTERP_LINEAR, AK_INTERP_CUBIC};
    const float times[] = {0.0f, 0.3f, 0.5f, 0.77f, 1.2f, 1.6f};
    for (int loop = 0; loop < 2; ++loop) {
        g_c->loop = loop;
        for (int m = 0; m < 3; ++m)
            for (int i = 0; i < 6; ++i) {
                ak_xform whole[J], keyed[J];
                ak_clip_sample(g_c, g_s, times[i], modes[m], whole);
                ak_clip_sample(g_c, g_s, times[(i + 3) % 6], modes[m], keyed);
                keyed[2].translation = ak_vec3_make(7.0f, 8.0f, 9.0f); /* `also`: rewritten */
                ak_clip_sample_keyed(g_c, g_s, times[i], modes[m], keyed, 2);
                if (memcmp(whole, keyed, sizeof whole) != 0)
                    fail_msg("loop %d, mode %d, t = %g: not the whole sample's bits", loop, m,
                             (double)times[i]);
                keyed[4].translation = ak_vec3_make(7.0f, 8.0f, 9.0f); /* not written */
                ak_clip_sample_keyed(g_c, g_s, times[i], modes[m], keyed, -1);
                assert_true(keyed[4].translation.x == 7.0f && keyed[4].translation.z == 9.0f);
                assert_true(memcmp(whole, keyed, sizeof(ak_xform) * 4) == 0);
            }
    }
    g_c->loop = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sample_arguments_validity),
        cmocka_unit_test(linear_step_and_cubic_worked_numbers),
        cmocka_unit_test(clamped_clamps_and_looping_wraps),
        cmocka_unit_test(looping_late_times_sample_as_fmodf_wraps_them),
        cmocka_unit_test(keyed_sample_writes_the_whole_samples_bits),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
