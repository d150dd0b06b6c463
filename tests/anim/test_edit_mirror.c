/* Mirroring (src/anim/edit_mirror.c) on a small symmetric biped: the params refused (axis out
 * of range, a missing or asymmetric override, NULLs); the partner map and the chosen axis;
 * worked numbers (a left hip turn about Z becomes the opposite turn on the right hip, the root
 * at x = 1 goes to x = -1); mirroring twice gives the keys back bit for bit. */
#include "test_params.h"

enum { J = 7, FRAMES = 3 };
AKT_CLIP_FIXTURE

static int setup(void **state)
{
    (void)state;
    g_s = akt_biped7(1.0f, 0.45f, J);
    ak_error err;
    assert_int_equal(ak_clip_create(J, FRAMES, 0.1f, NULL, &g_c, &err), AK_OK);
    akt_rng rng = {5};
    for (int f = 0; f < FRAMES; ++f) {
        for (int j = 0; j < J; ++j)
            g_c->rotations[f * J + j] = akt_random_quat(&rng);
        g_c->translations[f] = ak_vec3_make(1.0f, 0.9f + 0.01f * (float)f, 0.5f * (float)f);
    }
    /* frame 0: only the left hip turns, 0.3 rad about +Z */
    for (int j = 0; j < J; ++j)
        g_c->rotations[j] = ak_quat_identity();
    g_c->rotations[1] = ak_quat_from_axis_angle(ak_vec3_make(0, 0, 1), 0.3f);
    ak_clip_finalize(g_c);
    return 0;
}

static int32_t mirror_validate(const void *params, ak_error *err)
{
    return ak_edit_mirror_validate((const ak_edit_mirror_params *)params, g_s, err);
}

static int32_t mirror_run(const void *params, ak_error *err)
{
    ak_clip *out = (ak_clip *)(uintptr_t)1;
    const int32_t st =
        ak_edit_mirror_run((const ak_edit_mirror_params *)params, g_s, g_c, &out, err);
    if (st == AK_OK) {
        assert_non_null(out);
        ak_clip_destroy(out);
    } else {
        assert_null(out); /* nothing half made */
    }
    return st;
}

static void mirror_params_validity(void **state)
{
    (void)state;
    const ak_edit_mirror_params d = ak_edit_mirror_defaults();
    assert_int_equal(d.axis, -1);
    assert_null(d.humanoid_overrides);
    akt_expect_refused(mirror_validate, &d, AK_OK, NULL, "defaults");
    akt_expect_refused(mirror_run, &d, AK_OK, NULL, "defaults run");
    akt_expect_refused(mirror_validate, NULL, AK_ERR_INVALID_ARG, NULL, "NULL");
    akt_expect_refused(mirror_run, NULL, AK_ERR_INVALID_ARG, NULL, "NULL run");
    const int32_t bad_axes[] = {3, -2, 100, INT32_MIN};
    for (size_t i = 0; i < sizeof bad_axes / sizeof bad_axes[0]; ++i) {
        ak_edit_mirror_params p = d;
        p.axis = bad_axes[i];
        akt_expect_refused(mirror_validate, &p, AK_ERR_INVALID_ARG, "axis", "axis");
        akt_expect_refused(mirror_run, &p, AK_ERR_INVALID_ARG, "axis", "axis run");
    }
    for (int32_t a = 0; a < 3; ++a) {
        ak_edit_mirror_params p = d;
        p.axis = a;
        akt_expect_refused(mirror_validate, &p, AK_OK, NULL, "axis 0..2");
    }
    ak_edit_mirror_params p = d;
    p.humanoid_overrides = "left_foot=NoSuchJoint";
    akt_expect_refused(mirror_run, &p, AK_ERR_NOT_FOUND, "NoSuchJoint", "missing override");
    /* pairing the left foot with the right knee (as hands) breaks the hierarchy's symmetry */
    p.humanoid_overrides = "left_hand=LeftFoot,right_hand=RightLeg";
    akt_expect_refused(mirror_run, &p, AK_ERR_INVALID_ARG, "parents", "asymmetric override");
    ak_error err;
    ak_clip *out = NULL;
    assert_int_equal(ak_edit_mirror_run(&d, NULL, g_c, &out, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_edit_mirror_run(&d, g_s, NULL, &out, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_edit_mirror_run(&d, g_s, g_c, NULL, &err), AK_ERR_INVALID_ARG);
}

static void partners_are_left_and_right_and_the_axis_is_x(void **state)
{
    (void)state;
    const ak_edit_mirror_params d = ak_edit_mirror_defaults();
    int32_t partner[J], axis = -5;
    ak_error err;
    assert_int_equal(ak_edit_mirror_map(&d, g_s, g_c, partner, &axis, &err), AK_OK);
    const int32_t want[J] = {0, 4, 5, 6, 1, 2, 3};
    assert_memory_equal(partner, want, sizeof want);
    assert_int_equal(axis, 0); /* the hips lie apart along X */
}

/* Reflection through x = 0: translation (x, y, z) -> (-x, y, z); rotation (x, y, z, w) ->
 * (x, -y, -z, w), on the partner joint. */
static void mirror_reflects_worked_numbers_and_twice_is_identity(void **state)
{
    (void)state;
    const ak_edit_mirror_params d = ak_edit_mirror_defaults();
    ak_clip *m = NULL, *mm = NULL;
    ak_error err;
    assert_int_equal(ak_edit_mirror_run(&d, g_s, g_c, &m, &err), AK_OK);
    const ak_quat r = m->rotations[4]; /* right hip, frame 0 */
    AKT_NEAR(fabsf(ak_quat_dot(r, ak_quat_from_axis_angle(ak_vec3_make(0, 0, 1), -0.3f))), 1.0f,
             1e-6);
    AKT_NEAR(ak_quat_angle(m->rotations[1]), 0.0f, 1e-3); /* the left hip is still */
    for (int f = 0; f < FRAMES; ++f) {
        AKT_NEAR(m->translations[f].x, -1.0f, 0.0);
        AKT_NEAR(m->translations[f].y, g_c->translations[f].y, 0.0);
        AKT_NEAR(m->translations[f].z, g_c->translations[f].z, 0.0);
        for (int j = 0; j < J; ++j) {
            const int32_t pj = (j == 0) ? 0 : (j < 4 ? j + 3 : j - 3);
            const ak_quat q = g_c->rotations[f * J + pj];
            const ak_quat want = {q.x, -q.y, -q.z, q.w};
            AKT_NEAR(fabsf(ak_quat_dot(m->rotations[f * J + j], want)), 1.0f, 1e-6);
        }
    }
    assert_int_equal(ak_edit_mirror_run(&d, g_s, m, &mm, &err), AK_OK);
    for (int i = 0; i < FRAMES * J; ++i)
        AKT_NEAR(fabsf(ak_quat_dot(mm->rotations[i], g_c->rotations[i])), 1.0f,
                 3e-7); /* a 4-term float dot */
    assert_memory_equal(mm->translations, g_c->translations, sizeof(ak_vec3) * FRAMES);
    ak_clip_destroy(mm);
    ak_clip_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mirror_params_validity),
        cmocka_unit_test(partners_are_left_and_right_and_the_axis_is_x),
        cmocka_unit_test(mirror_reflects_worked_numbers_and_twice_is_identity),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
