/* Jacobian IK (src/ik/jacobian.c): the params refused field by field (validate and run), the
 * workspace size, then worked numbers on a straight chain along +Y: both methods reach a
 * reachable target keeping bone lengths, the single-effector chain form and the one-effector
 * multi-effector form give the same pose, two effectors on two branches are both reached. */
#include "test_params.h"

enum { N = 4 }; /* j0 .. j3 along +Y, bones of 0.5 */
static ak_skeleton *g_s;
static ak_xform g_local[N], g_model[N];
static const int32_t g_chain[N] = {0, 1, 2, 3};
static unsigned char g_ws[1 << 14];

static ak_jacobian_ik_params valid_params(void)
{
    ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
    p.skeleton = g_s;
    p.chain = g_chain;
    p.chain_length = N;
    p.target = ak_vec3_make(0.6f, 0.9f, 0.2f);
    p.workspace = g_ws;
    p.workspace_bytes = sizeof g_ws;
    return p;
}

static int32_t validate(const void *params, ak_error *err)
{
    return ak_jacobian_ik_validate((const ak_jacobian_ik_params *)params, err);
}

static int32_t run(const void *params, ak_error *err)
{
    ak_pose_rest(g_s, g_local);
    ak_fk(g_s, g_local, g_model);
    return ak_jacobian_ik_run((const ak_jacobian_ik_params *)params, g_local, g_model, NULL, err);
}

static void jacobian_params_validity(void **state)
{
    (void)state;
    g_s = akt_line_skeleton(N, 0.5f);
    const ak_jacobian_ik_params ok = valid_params();
    assert_true(akt_check_param_table(ak_jacobian_ik_param_ranges(), &ok, sizeof ok, validate) > 0);
    assert_true(akt_check_param_table(ak_jacobian_ik_param_ranges(), &ok, sizeof ok, run) > 0);
    ak_jacobian_ik_params p = ok;
    p.skeleton = NULL;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "skeleton", "skeleton NULL");
    p = ok;
    p.method = 7;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "method", "method 7");
    p = ok;
    p.effector_count = -1;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "effector_count", "effector_count -1");
    p = ok;
    p.effector_count = 1; /* multi-effector form without its arrays */
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "joints, effectors or targets", "no arrays");
    p = ok;
    p.max_iterations = 0;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "max_iterations", "max_iterations 0");
    p = ok;
    p.workspace = NULL;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "workspace", "workspace NULL");
    p = ok;
    p.workspace_bytes = ak_jacobian_ik_workspace_size(N - 1, 1) - 1;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "workspace", "workspace one byte short");
    p.workspace_bytes += 1;
    akt_expect_refused(run, &p, AK_OK, NULL, "workspace exactly its size");
    p = ok;
    p.target.x = INFINITY;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "target", "target inf");
    ak_error err;
    assert_int_equal(ak_jacobian_ik_run(&ok, NULL, g_model, NULL, &err), AK_ERR_INVALID_ARG);
    ak_skeleton_destroy(g_s);
}

/* Sizes: 0 for counts below 1 or beyond the limits (4096 joints, 256 effectors), growing with
 * both counts otherwise. */
static void workspace_size_grows_and_refuses_absurd_counts(void **state)
{
    (void)state;
    assert_int_equal(ak_jacobian_ik_workspace_size(0, 1), 0);
    assert_int_equal(ak_jacobian_ik_workspace_size(1, 0), 0);
    assert_int_equal(ak_jacobian_ik_workspace_size(4097, 1), 0);
    assert_int_equal(ak_jacobian_ik_workspace_size(3, 257), 0);
    size_t last = 0;
    for (int32_t k = 1; k <= 64; k *= 2) {
        const size_t a = ak_jacobian_ik_workspace_size(k, 1);
        assert_true(a > last);
        assert_true(ak_jacobian_ik_workspace_size(k, 2) > a);
        last = a;
    }
    assert_true(ak_jacobian_ik_workspace_size(4096, 256) > 0);
}

static void both_methods_reach_and_keep_bones(void **state)
{
    (void)state;
    g_s = akt_line_skeleton(N, 0.5f);
    const int32_t methods[2] = {AK_JACOBIAN_PSEUDO_INVERSE, AK_JACOBIAN_DLS};
    for (int m = 0; m < 2; ++m) {
        ak_jacobian_ik_params p = valid_params();
        p.method = methods[m];
        p.max_iterations = 500;
        ak_ik_result r;
        ak_error err;
        ak_pose_rest(g_s, g_local);
        ak_fk(g_s, g_local, g_model);
        assert_int_equal(ak_jacobian_ik_run(&p, g_local, g_model, &r, &err), AK_OK);
        const float dist = ak_vec3_length(ak_vec3_sub(g_model[3].translation, p.target));
        if (!(dist <= p.tolerance * 1.5f + 1e-5f))
            fail_msg("method %d: tip %.6f m from the target", (int)methods[m], (double)dist);
        assert_true(r.reached);
        AKT_NEAR(r.error, dist, 1e-6);
        for (int j = 1; j < N; ++j)
            AKT_NEAR(
                ak_vec3_length(ak_vec3_sub(g_model[j].translation, g_model[j - 1].translation)),
                0.5f, 1e-5);
        AKT_NEAR(g_model[0].translation.y, 0.0f, 0.0);
    }
    ak_skeleton_destroy(g_s);
}

/* The chain form is the multi-effector form with joints = chain[0..n-2] and one effector. */
static void chain_form_equals_one_effector_form(void **state)
{
    (void)state;
    g_s = akt_line_skeleton(N, 0.5f);
    ak_jacobian_ik_params a = valid_params();
    ak_xform local_a[N], model_a[N];
    ak_error err;
    ak_pose_rest(g_s, local_a);
    ak_fk(g_s, local_a, model_a);
    assert_int_equal(ak_jacobian_ik_run(&a, local_a, model_a, NULL, &err), AK_OK);
    ak_jacobian_ik_params b = valid_params();
    const int32_t joints[N - 1] = {0, 1, 2}, effector = 3;
    b.chain = NULL;
    b.chain_length = 0;
    b.joints = joints;
    b.joint_count = N - 1;
    b.effectors = &effector;
    b.targets = &a.target;
    b.effector_count = 1;
    ak_pose_rest(g_s, g_local);
    ak_fk(g_s, g_local, g_model);
    assert_int_equal(ak_jacobian_ik_run(&b, g_local, g_model, NULL, &err), AK_OK);
    for (int j = 0; j < N; ++j) {
        AKT_NEAR(g_model[j].translation.x, model_a[j].translation.x, 1e-6);
        AKT_NEAR(g_model[j].translation.y, model_a[j].translation.y, 1e-6);
        AKT_NEAR(g_model[j].translation.z, model_a[j].translation.z, 1e-6);
    }
    ak_skeleton_destroy(g_s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(jacobian_params_validity),
        cmocka_unit_test(workspace_size_grows_and_refuses_absurd_counts),
        cmocka_unit_test(both_methods_reach_and_keep_bones),
        cmocka_unit_test(chain_form_equals_one_effector_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
