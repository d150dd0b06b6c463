/* Chain reach (src/anim/reach.c): the bound |position of j| <= sum of each chain joint's
 * longest translation, on worked numbers: rest only, a translation key longer than the rest
 * offset, a NaN key (infinite reach), and a random clip whose FK never exceeds the bound. */
#include "test_params.h"
#include "anim/reach.h"

/* j0 .. j3 along +Y, bones of 0.5; j0 has a translation track. */
static void reach_arguments_validity(void **state)
{
    (void)state;
    ak_skeleton *s = akt_line_skeleton(4, 0.5f);
    double reach = -1.0;
    /* a NULL clip is the rest pose; a limit below 0 finds the root itself (its reach is 0) */
    assert_int_equal(akanim_first_joint_beyond(s, NULL, 10.0, &reach), -1);
    AKT_NEAR(reach, -1.0, 0.0); /* untouched when nothing is beyond */
    assert_int_equal(akanim_first_joint_beyond(s, NULL, -1.0, &reach), 0);
    AKT_NEAR(reach, 0.0, 0.0);
    assert_int_equal(akanim_first_joint_beyond(s, NULL, NAN, NULL), 0); /* NaN limit: refuse */
    ak_skeleton_destroy(s);
}

static void rest_reach_is_the_sum_of_offsets(void **state)
{
    (void)state;
    ak_skeleton *s = akt_line_skeleton(4, 0.5f);
    double reach = 0.0;
    /* reaches 0, 0.5, 1.0, 1.5: the first beyond 0.9 is j2 at 1.0 */
    assert_int_equal(akanim_first_joint_beyond(s, NULL, 0.9, &reach), 2);
    AKT_NEAR(reach, 1.0, 1e-12);
    assert_int_equal(akanim_first_joint_beyond(s, NULL, 1.5, &reach), -1);
    assert_int_equal(akanim_first_joint_beyond(s, NULL, 1.49, &reach), 3);
    AKT_NEAR(reach, 1.5, 1e-12);
    ak_skeleton_destroy(s);
}

static void translation_keys_and_nan_extend_the_reach(void **state)
{
    (void)state;
    ak_skeleton *s = akt_line_skeleton(4, 0.5f);
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_clip_create(4, 3, 0.1f, NULL, &c, &err), AK_OK); /* track on j0 */
    /* the root moves to (3, 4, 0) in frame 1: 5 m, so j1 reaches 5.5 */
    c->translations[1 * c->track_count] = ak_vec3_make(3.0f, 4.0f, 0.0f);
    double reach = 0.0;
    assert_int_equal(akanim_first_joint_beyond(s, c, 5.2, &reach), 1);
    AKT_NEAR(reach, 5.5, 1e-6);
    assert_int_equal(akanim_first_joint_beyond(s, c, 6.5, &reach), -1);
    /* a NaN key makes the reach infinite: refused at any limit */
    c->translations[2 * c->track_count].x = NAN;
    assert_int_equal(akanim_first_joint_beyond(s, c, AK_MAX_REACH, &reach), 0);
    assert_true(isinf(reach));
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* The bound holds: random rotations on every joint, the FK distance of each joint from the
 * origin never exceeds its reach (the tip's is 5 + 1.5). */
static void fk_never_exceeds_the_reach(void **state)
{
    (void)state;
    ak_skeleton *s = akt_line_skeleton(4, 0.5f);
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_clip_create(4, 64, 0.1f, NULL, &c, &err), AK_OK);
    akt_rng rng = {77};
    for (int32_t f = 0; f < 64; ++f) {
        for (int32_t j = 0; j < 4; ++j)
            c->rotations[f * 4 + j] = akt_random_quat(&rng);
        c->translations[f] = ak_vec3_scale(
            ak_vec3_normalize_or(ak_vec3_make(akt_uniform(&rng, -1, 1), akt_uniform(&rng, -1, 1),
                                              akt_uniform(&rng, -1, 1)),
                                 ak_vec3_make(1, 0, 0)),
            akt_uniform(&rng, 0.0f, 5.0f));
    }
    c->translations[7] = ak_vec3_make(0.0f, 0.0f, 5.0f);
    ak_clip_finalize(c);
    double reach = 0.0;
    assert_int_equal(akanim_first_joint_beyond(s, c, 6.4999, &reach), 3);
    AKT_NEAR(reach, 6.5, 1e-6);
    ak_xform local[4], model[4];
    for (int32_t f = 0; f < 64; ++f) {
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, model);
        for (int32_t j = 0; j < 4; ++j)
            assert_true(ak_vec3_length(model[j].translation) <= 5.0f + 0.5f * (float)j + 1e-5f);
    }
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reach_arguments_validity),
        cmocka_unit_test(rest_reach_is_the_sum_of_offsets),
        cmocka_unit_test(translation_keys_and_nan_extend_the_reach),
        cmocka_unit_test(fk_never_exceeds_the_reach),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
