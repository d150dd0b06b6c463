/* Root edits (src/anim/edit_root.c) on a small biped walking +X: the root reset, bake and
 * concatenation params refused field by field; the facing of a pose (worked: facing +Z is 0,
 * the rig turned by yaw a faces a); the reset puts the reference frame at x = z = 0 facing +Z
 * and moves every frame by one rigid motion; baking shifts by the character transforms;
 * concatenating a clip's two halves without a blend gives the clip back. */
#include "test_params.h"

enum { J = 7, FRAMES = 4 };
static const float k_pi = 3.14159265358979f;
AKT_CLIP_FIXTURE

static int setup(void **state)
{
    (void)state;
    g_s = akt_biped7(1.0f, 0.45f, J);
    ak_error err;
    assert_int_equal(ak_clip_create(J, FRAMES, 0.1f, NULL, &g_c, &err), AK_OK);
    /* the root walks +X at 1 m per frame, 0.9 m up, turned to face +X (yaw +pi/2); the legs
     * swing a little */
    for (int f = 0; f < FRAMES; ++f) {
        for (int j = 0; j < J; ++j)
            g_c->rotations[f * J + j] = ak_quat_identity();
        g_c->rotations[f * J] = ak_quat_yaw(0.5f * k_pi);
        g_c->rotations[f * J + 1] = ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), 0.1f * (float)f);
        g_c->translations[f] = ak_vec3_make(2.0f + (float)f, 0.9f, 3.0f);
    }
    ak_clip_finalize(g_c);
    return 0;
}

static int32_t reset_validate(const void *params, ak_error *err)
{
    return ak_edit_root_reset_validate((const ak_edit_root_reset_params *)params, g_s, g_c, err);
}

static int32_t reset_run(const void *params, ak_error *err)
{
    ak_clip *out = NULL;
    const int32_t st =
        ak_edit_root_reset_run((const ak_edit_root_reset_params *)params, g_s, g_c, &out, err);
    if (st != AK_OK) assert_null(out);
    ak_clip_destroy(out);
    return st;
}

static void root_reset_params_validity(void **state)
{
    (void)state;
    const ak_edit_root_reset_params d = ak_edit_root_reset_defaults();
    assert_int_equal(d.frame, 0);
    assert_int_equal(d.reset_heading, 1);
    assert_int_equal(d.reset_height, 0);
    akt_expect_refused(reset_validate, &d, AK_OK, NULL, "defaults");
    akt_expect_refused(reset_run, &d, AK_OK, NULL, "defaults run");
    akt_expect_refused(reset_validate, NULL, AK_ERR_INVALID_ARG, NULL, "NULL");
    const int32_t frames[] = {-1, FRAMES, INT32_MAX, INT32_MIN};
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; ++i) {
        ak_edit_root_reset_params p = d;
        p.frame = frames[i];
        akt_expect_refused(reset_validate, &p, AK_ERR_INVALID_ARG, "frame", "frame");
        akt_expect_refused(reset_run, &p, AK_ERR_INVALID_ARG, "frame", "frame run");
    }
    ak_edit_root_reset_params p = d;
    p.frame = FRAMES - 1;
    akt_expect_refused(reset_validate, &p, AK_OK, NULL, "last frame");
    ak_error err;
    assert_int_equal(ak_edit_root_reset_validate(&d, NULL, g_c, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_edit_root_reset_validate(&d, g_s, NULL, &err), AK_ERR_INVALID_ARG);
    /* a root without translation keys cannot be moved */
    ak_clip *still = NULL;
    const uint8_t none[J] = {0};
    assert_int_equal(ak_clip_create(J, 2, 0.1f, none, &still, &err), AK_OK);
    assert_int_equal(ak_edit_root_reset_validate(&d, g_s, still, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "Hips"));
    ak_clip_destroy(still);
}

static int32_t bake_validate(const void *params, ak_error *err)
{
    return ak_edit_bake_root_validate((const ak_edit_bake_root_params *)params, g_s, g_c, err);
}

static void bake_root_params_validity(void **state)
{
    (void)state;
    ak_xform ch[FRAMES];
    for (int f = 0; f < FRAMES; ++f)
        ch[f] = ak_xform_identity();
    ak_edit_bake_root_params d = ak_edit_bake_root_defaults();
    assert_null(d.character);
    akt_expect_refused(bake_validate, &d, AK_ERR_INVALID_ARG, "character", "no transforms");
    akt_expect_refused(bake_validate, NULL, AK_ERR_INVALID_ARG, NULL, "NULL");
    d.character = ch;
    d.count = FRAMES;
    akt_expect_refused(bake_validate, &d, AK_OK, NULL, "one per frame");
    ak_edit_bake_root_params p = d;
    p.count = FRAMES - 1;
    akt_expect_refused(bake_validate, &p, AK_ERR_INVALID_ARG, "character transforms", "count");
    p.count = -1;
    akt_expect_refused(bake_validate, &p, AK_ERR_INVALID_ARG, "character transforms", "count -1");
    ch[2].translation.y = NAN;
    akt_expect_refused(bake_validate, &d, AK_ERR_INVALID_ARG, "character transform 2", "NaN");
}

static ak_clip *g_b; /* the concat's second clip: g_c again */

static int32_t concat_validate(const void *params, ak_error *err)
{
    return ak_edit_concat_validate((const ak_edit_concat_params *)params, g_c, g_b, err);
}

static void concat_params_validity(void **state)
{
    (void)state;
    g_b = g_c;
    ak_edit_concat_params d = ak_edit_concat_defaults();
    AKT_NEAR(d.blend_time, 0.2f, 0.0);
    assert_int_equal(d.align_root, 1);
    akt_expect_refused(concat_validate, &d, AK_ERR_INVALID_ARG, "skeleton_b", "no skeleton_b");
    akt_expect_refused(concat_validate, NULL, AK_ERR_INVALID_ARG, NULL, "NULL");
    d.skeleton_b = g_s;
    akt_expect_refused(concat_validate, &d, AK_OK, NULL, "defaults + skeleton_b");
    const float bad[] = {NAN, INFINITY, -INFINITY, -0.001f, 1000.5f, 1e20f, -1e20f};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ak_edit_concat_params p = d;
        p.blend_time = bad[i];
        akt_expect_refused(concat_validate, &p, AK_ERR_INVALID_ARG, "blend_time", "blend_time");
    }
    ak_edit_concat_params p = d;
    p.blend_time = 0.0f;
    akt_expect_refused(concat_validate, &p, AK_OK, NULL, "blend 0");
    p.blend_time = 1000.0f;
    akt_expect_refused(concat_validate, &p, AK_OK, NULL, "blend 1000");
    /* another frame time: resample first */
    ak_clip *other = NULL;
    ak_error err;
    assert_int_equal(ak_clip_create(J, 2, 0.05f, NULL, &other, &err), AK_OK);
    g_b = other;
    akt_expect_refused(concat_validate, &d, AK_ERR_INVALID_ARG, "frame times", "frame time");
    ak_clip_destroy(other);
    g_b = g_c;
}

static void the_facing_of_a_pose_is_its_yaw(void **state)
{
    (void)state;
    ak_humanoid h;
    ak_error err;
    assert_int_equal(ak_humanoid_find(g_s, NULL, &h, &err), AK_OK);
    ak_xform local[J], model[J];
    const float yaws[] = {0.0f, 0.5f, -2.0f, 3.0f};
    for (size_t i = 0; i < sizeof yaws / sizeof yaws[0]; ++i) {
        ak_pose_rest(g_s, local);
        local[0].rotation = ak_quat_yaw(yaws[i]);
        ak_fk(g_s, local, model);
        AKT_NEAR(ak_edit_pose_heading(&h, model), yaws[i], 1e-5);
    }
}

/* Frame 0 stands at (2, 0.9, 3) facing +X: after the reset it stands at (0, 0.9, 0) facing
 * +Z; the one rigid motion turns +X into +Z, so frame f (f m further along +X before) stands
 * f m along +Z. The hips keep their height unless reset_height. */
static void reset_moves_the_reference_frame_to_the_origin(void **state)
{
    (void)state;
    ak_edit_root_reset_params p = ak_edit_root_reset_defaults();
    ak_clip *r = NULL;
    ak_error err;
    assert_int_equal(ak_edit_root_reset_run(&p, g_s, g_c, &r, &err), AK_OK);
    for (int f = 0; f < FRAMES; ++f) {
        const ak_vec3 t = r->translations[f * r->track_count];
        AKT_NEAR(t.x, 0.0f, 1e-5);
        AKT_NEAR(t.y, 0.9f, 1e-6);
        AKT_NEAR(t.z, (float)f, 1e-5);
        AKT_NEAR(ak_quat_angle(r->rotations[f * J]), 0.0f, 2e-3);
        /* the other joints' keys are untouched */
        assert_memory_equal(&r->rotations[f * J + 1], &g_c->rotations[f * J + 1],
                            sizeof(ak_quat) * (J - 1));
    }
    ak_clip_destroy(r);
    p.reset_height = 1;
    p.frame = 2;
    assert_int_equal(ak_edit_root_reset_run(&p, g_s, g_c, &r, &err), AK_OK);
    AKT_NEAR(r->translations[2 * r->track_count].y, 0.0f, 1e-6);
    AKT_NEAR(r->translations[2 * r->track_count].z, 0.0f, 1e-5);
    AKT_NEAR(r->translations[0].z, -2.0f, 1e-5);
    ak_clip_destroy(r);
}

/* Baking character transforms that shift frame f by (0, 0, -f) and turn nothing puts the
 * root at (2 + f, 0.9, 3 - f). */
static void bake_applies_the_character_transforms(void **state)
{
    (void)state;
    ak_xform ch[FRAMES];
    for (int f = 0; f < FRAMES; ++f) {
        ch[f] = ak_xform_identity();
        ch[f].translation = ak_vec3_make(0.0f, 0.0f, -(float)f);
    }
    ak_edit_bake_root_params p = ak_edit_bake_root_defaults();
    p.character = ch;
    p.count = FRAMES;
    ak_clip *b = NULL;
    ak_error err;
    assert_int_equal(ak_edit_bake_root_run(&p, g_s, g_c, &b, &err), AK_OK);
    for (int f = 0; f < FRAMES; ++f) {
        const ak_vec3 t = b->translations[f * b->track_count];
        AKT_NEAR(t.x, 2.0f + (float)f, 1e-6);
        AKT_NEAR(t.y, 0.9f, 1e-6);
        AKT_NEAR(t.z, 3.0f - (float)f, 1e-6);
    }
    ak_clip_destroy(b);
}

static void concat_of_two_halves_without_blend_is_the_clip(void **state)
{
    (void)state;
    ak_clip *a = NULL, *b = NULL, *ab = NULL;
    ak_error err;
    ak_edit_trim_params t = ak_edit_trim_defaults();
    t.first = 0;
    t.last = 1;
    assert_int_equal(ak_edit_trim_run(&t, g_c, &a, &err), AK_OK);
    t.first = 2;
    t.last = FRAMES - 1;
    assert_int_equal(ak_edit_trim_run(&t, g_c, &b, &err), AK_OK);
    ak_edit_concat_params p = ak_edit_concat_defaults();
    p.skeleton_b = g_s;
    p.blend_time = 0.0f;
    p.align_root = 0;
    assert_int_equal(ak_edit_concat_run(&p, g_s, a, b, &ab, &err), AK_OK);
    assert_int_equal(ab->frame_count, FRAMES);
    for (int i = 0; i < FRAMES * J; ++i)
        AKT_NEAR(fabsf(ak_quat_dot(ab->rotations[i], g_c->rotations[i])), 1.0f, 3e-7);
    for (int f = 0; f < FRAMES; ++f)
        AKT_NEAR(ab->translations[f].x, g_c->translations[f].x, 1e-6);
    ak_clip_destroy(ab);
    ak_clip_destroy(b);
    ak_clip_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(root_reset_params_validity),
        cmocka_unit_test(bake_root_params_validity),
        cmocka_unit_test(concat_params_validity),
        cmocka_unit_test(the_facing_of_a_pose_is_its_yaw),
        cmocka_unit_test(reset_moves_the_reference_frame_to_the_origin),
        cmocka_unit_test(bake_applies_the_character_transforms),
        cmocka_unit_test(concat_of_two_halves_without_blend_is_the_clip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
