/* CCD (src/ik/ccd.c): the chain cases of chain_cases.h through ak_ccd_ik_run, then a joint of
 * weight 0 stays put while the others still move the tip. */
#define CHAIN_SOLVER ak_ccd_ik_run
#include "chain_cases.h"

/* A joint of weight 0 keeps its rest rotation; the others still move the tip. */
static void joint_weight_zero_freezes_that_joint(void **state)
{
    (void)state;
    g_s = akt_line_skeleton(N, 0.5f);
    ak_chain_ik_params p = valid_params();
    const float w[N] = {1.0f, 0.0f, 1.0f, 1.0f};
    p.joint_weights = w;
    ak_error err;
    ak_pose_rest(g_s, g_local);
    ak_fk(g_s, g_local, g_model);
    assert_int_equal(ak_ccd_ik_run(&p, g_local, g_model, NULL, &err), AK_OK);
    const ak_quat q = g_local[1].rotation;
    AKT_NEAR(fabsf(q.w), 1.0f, 1e-7);
    assert_true(fabsf(g_local[0].rotation.w) < 0.9999f);
    ak_skeleton_destroy(g_s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain_params_validity),
        cmocka_unit_test(one_joint_turns_its_bone_onto_the_target),
        cmocka_unit_test(chain_reaches_or_straightens_keeping_bones),
        cmocka_unit_test(joint_weight_zero_freezes_that_joint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
