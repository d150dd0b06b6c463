/* Chains from joint indices (src/ik/ik_common.c): bad arguments refused, root..tip lists on a
 * branching rig, the capacity limit, zero-length joints skipped except the tip. */
#include "test_params.h"

/* j0 -> j1 -> j2 -> j3 (tip), and j4 a second child of j1 (a branch). */
static ak_skeleton *branching_rig(float j2_bone)
{
    static const char *const names[5] = {"j0", "j1", "j2", "j3", "j4"};
    const int32_t parents[5] = {-1, 0, 1, 2, 1};
    ak_xform rest[5];
    for (int j = 0; j < 5; ++j) {
        rest[j] = ak_xform_identity();
        rest[j].translation = ak_vec3_make(0.0f, j > 0 ? 0.5f : 0.0f, 0.0f);
    }
    rest[2].translation.y = j2_bone;
    rest[4].translation = ak_vec3_make(0.3f, 0.0f, 0.0f);
    ak_skeleton_desc d = {5, names, parents, rest, NULL, NULL};
    ak_skeleton *s = NULL;
    ak_error err;
    if (ak_skeleton_create(&d, &s, &err) != AK_OK) fail_msg("%s", err.message);
    return s;
}

static void chain_arguments_validity(void **state)
{
    (void)state;
    ak_skeleton *s = branching_rig(0.5f);
    int32_t chain[8];
    assert_int_equal(ak_ik_chain_from_joints(NULL, 0, 3, chain, 8), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_ik_chain_from_joints(s, 0, 3, NULL, 8), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_ik_chain_from_joints(s, 0, 3, chain, 0), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_ik_chain_from_joints(s, -1, 3, chain, 8), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_ik_chain_from_joints(s, 0, 5, chain, 8), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_ik_chain_from_joints(s, 3, 0, chain, 8), AK_ERR_INVALID_ARG);
    /* j4 is not below j2 */
    assert_int_equal(ak_ik_chain_from_joints(s, 2, 4, chain, 8), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_ik_chain_from_joints(s, 0, 3, chain, 3), AK_ERR_LIMIT);
    /* skip: NULL and empty inputs change nothing */
    assert_int_equal(ak_ik_chain_skip_zero_bones(NULL, chain, 3), 3);
    assert_int_equal(ak_ik_chain_skip_zero_bones(s, chain, -2), 0);
    ak_skeleton_destroy(s);
}

static void chains_list_root_to_tip_through_branches(void **state)
{
    (void)state;
    ak_skeleton *s = branching_rig(0.5f);
    int32_t chain[8];
    assert_int_equal(ak_ik_chain_from_joints(s, 0, 3, chain, 4), 4);
    const int32_t want[4] = {0, 1, 2, 3};
    assert_memory_equal(chain, want, sizeof want);
    assert_int_equal(ak_ik_chain_from_joints(s, 0, 4, chain, 8), 3);
    const int32_t branch[3] = {0, 1, 4};
    assert_memory_equal(chain, branch, sizeof branch);
    assert_int_equal(ak_ik_chain_from_joints(s, 3, 3, chain, 1), 1);
    assert_int_equal(chain[0], 3);
    ak_skeleton_destroy(s);
}

/* j2 at j1's position (a zero-length bone, as CMU files have): 0 1 2 3 -> 0 1 3; a zero-length
 * tip is kept (it is the end effector); bones of length 0.5 are all kept. */
static void zero_length_joints_are_skipped_but_not_the_tip(void **state)
{
    (void)state;
    ak_skeleton *s = branching_rig(0.0f);
    int32_t chain[4] = {0, 1, 2, 3};
    assert_int_equal(ak_ik_chain_skip_zero_bones(s, chain, 4), 3);
    const int32_t want[3] = {0, 1, 3};
    assert_memory_equal(chain, want, sizeof want);
    int32_t to_tip[3] = {0, 1, 2};
    assert_int_equal(ak_ik_chain_skip_zero_bones(s, to_tip, 3), 3);
    ak_skeleton_destroy(s);
    s = branching_rig(0.5f);
    int32_t whole[4] = {0, 1, 2, 3};
    assert_int_equal(ak_ik_chain_skip_zero_bones(s, whole, 4), 4);
    ak_skeleton_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain_arguments_validity),
        cmocka_unit_test(chains_list_root_to_tip_through_branches),
        cmocka_unit_test(zero_length_joints_are_skipped_but_not_the_tip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
