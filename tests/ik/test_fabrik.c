/* FABRIK (src/ik/fabrik.c): the chain cases of chain_cases.h through ak_fabrik_ik_run, then
 * weight 0 leaves the pose bit for bit. */
#define CHAIN_SOLVER ak_fabrik_ik_run
#include "chain_cases.h"

/* weight 0: local and model poses come back bit for bit. */
static void weight_zero_leaves_the_pose(void **state)
{
    (void)state;
    g_s = akt_line_skeleton(N, 0.5f);
    ak_chain_ik_params p = valid_params();
    p.weight = 0.0f;
    ak_xform local0[N], model0[N];
    ak_error err;
    ak_pose_rest(g_s, g_local);
    g_local[1].rotation = ak_quat_from_axis_angle(ak_vec3_make(0, 0, 1), 0.3f);
    ak_fk(g_s, g_local, g_model);
    memcpy(local0, g_local, sizeof local0);
    memcpy(model0, g_model, sizeof model0);
    assert_int_equal(ak_fabrik_ik_run(&p, g_local, g_model, NULL, &err), AK_OK);
    assert_memory_equal(local0, g_local, sizeof local0);
    assert_memory_equal(model0, g_model, sizeof model0);
    ak_skeleton_destroy(g_s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain_params_validity),
        cmocka_unit_test(one_joint_turns_its_bone_onto_the_target),
        cmocka_unit_test(chain_reaches_or_straightens_keeping_bones),
        cmocka_unit_test(weight_zero_leaves_the_pose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
