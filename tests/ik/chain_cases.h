/* Cases shared by the chain solvers' tests (test_ccd.c, test_fabrik.c): the chain params
 * refused field by field through the solver's _run, then worked numbers on a straight chain
 * along +Y: one joint turns its bone onto the target in one pass, a reachable target is
 * reached with every bone kept, an unreachable one straightens the chain toward it.
 * Define CHAIN_SOLVER (the solver's _run) before including. */
#ifndef AKT_CHAIN_CASES_H
#define AKT_CHAIN_CASES_H

#include "test_params.h"

enum { N = 4 }; /* j0 (root) .. j3 (tip), bones of 0.5 */
static ak_skeleton *g_s;
static ak_xform g_local[N], g_model[N];
static int32_t g_chain[N] = {0, 1, 2, 3};

static ak_chain_ik_params valid_params(void)
{
    ak_chain_ik_params p = ak_chain_ik_defaults();
    p.skeleton = g_s;
    p.chain = g_chain;
    p.chain_length = N;
    p.target = ak_vec3_make(0.6f, 0.9f, 0.2f);
    return p;
}

static int32_t run(const void *params, ak_error *err)
{
    ak_pose_rest(g_s, g_local);
    ak_fk(g_s, g_local, g_model);
    return CHAIN_SOLVER((const ak_chain_ik_params *)params, g_local, g_model, NULL, err);
}

static void chain_params_validity(void **state)
{
    (void)state;
    g_s = akt_line_skeleton(N, 0.5f);
    const ak_chain_ik_params ok = valid_params();
    const int probes = akt_check_param_table(ak_chain_ik_param_ranges(), &ok, sizeof ok, run);
    assert_true(probes > 0);
    ak_chain_ik_params p = ok;
    p.skeleton = NULL;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "skeleton", "skeleton NULL");
    p = ok;
    p.chain = NULL;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "chain", "chain NULL");
    p = ok;
    p.chain_length = 0;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "chain length", "chain_length 0");
    p.chain_length = AK_IK_MAX_CHAIN + 1;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "chain length", "chain_length too big");
    p = ok;
    p.max_iterations = 0;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "max_iterations", "max_iterations 0");
    p.max_iterations = -5;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "max_iterations", "max_iterations < 0");
    const float bad_weights[N] = {1.0f, NAN, 1.0f, 1.0f};
    p = ok;
    p.joint_weights = bad_weights;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "joint_weights[1]", "joint weight NaN");
    const float big_weights[N] = {1.0f, 1.0f, 1.5f, 1.0f};
    p.joint_weights = big_weights;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "joint_weights[2]", "joint weight 1.5");
    p = ok;
    p.target.z = NAN;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "target", "target NaN");
    ak_error err;
    assert_int_equal(CHAIN_SOLVER(&ok, NULL, g_model, NULL, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(CHAIN_SOLVER(&ok, g_local, NULL, NULL, &err), AK_ERR_INVALID_ARG);
    ak_skeleton_destroy(g_s);
}

/* One rotating joint: the bone from j0 (0, 0, 0) to j1 (0, 0.5, 0) turned onto a target at
 * 0.5 m along +X lands exactly there in one pass (a 90 degree turn about -Z). */
static void one_joint_turns_its_bone_onto_the_target(void **state)
{
    (void)state;
    g_s = akt_line_skeleton(2, 0.5f);
    int32_t chain[2] = {0, 1};
    ak_chain_ik_params p = ak_chain_ik_defaults();
    p.skeleton = g_s;
    p.chain = chain;
    p.chain_length = 2;
    p.target = ak_vec3_make(0.5f, 0.0f, 0.0f);
    ak_ik_result r;
    ak_error err;
    ak_pose_rest(g_s, g_local);
    ak_fk(g_s, g_local, g_model);
    assert_int_equal(CHAIN_SOLVER(&p, g_local, g_model, &r, &err), AK_OK);
    AKT_NEAR(g_model[1].translation.x, 0.5f, 1e-6);
    AKT_NEAR(g_model[1].translation.y, 0.0f, 1e-6);
    AKT_NEAR(g_model[1].translation.z, 0.0f, 1e-6);
    /* rotation -90 degrees about Z: (x, y, z, w) = (0, 0, -sin 45, cos 45) */
    AKT_NEAR(fabsf(g_local[0].rotation.z), sqrtf(0.5f), 1e-6);
    AKT_NEAR(fabsf(g_local[0].rotation.w), sqrtf(0.5f), 1e-6);
    assert_true(g_local[0].rotation.z * g_local[0].rotation.w < 0.0f);
    assert_true(r.reached);
    assert_true(r.error <= 1e-6f);
    ak_skeleton_destroy(g_s);
}

/* Reachable target inside the 1.5 m chain: reached within tolerance, every bone 0.5 m;
 * out of reach (3 m away along +X): the tip ends 1.5 m from the root on the line to it. */
static void chain_reaches_or_straightens_keeping_bones(void **state)
{
    (void)state;
    g_s = akt_line_skeleton(N, 0.5f);
    ak_chain_ik_params p = valid_params();
    ak_ik_result r;
    ak_error err;
    assert_int_equal(run(&p, &err), AK_OK);
    ak_pose_rest(g_s, g_local);
    ak_fk(g_s, g_local, g_model);
    assert_int_equal(CHAIN_SOLVER(&p, g_local, g_model, &r, &err), AK_OK);
    assert_true(r.reached);
    const ak_vec3 d = ak_vec3_sub(g_model[3].translation, p.target);
    assert_true(ak_vec3_length(d) <= p.tolerance * 1.5f + 1e-6f);
    for (int j = 1; j < N; ++j)
        AKT_NEAR(ak_vec3_length(ak_vec3_sub(g_model[j].translation, g_model[j - 1].translation)),
                 0.5f, 1e-5);
    p.target = ak_vec3_make(3.0f, 0.0f, 0.0f);
    ak_pose_rest(g_s, g_local);
    ak_fk(g_s, g_local, g_model);
    assert_int_equal(CHAIN_SOLVER(&p, g_local, g_model, &r, &err), AK_OK);
    assert_false(r.reached);
    AKT_NEAR(g_model[3].translation.x, 1.5f, 1e-4);
    AKT_NEAR(g_model[3].translation.y, 0.0f, 1e-4);
    AKT_NEAR(r.error, 1.5f, 1e-4);
    ak_skeleton_destroy(g_s);
}

#endif
