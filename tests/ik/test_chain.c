/* CCD, FABRIK and Jacobian (pseudo-inverse, DLS) over random chains: reach, bone lengths,
 * untouched joints, unit quaternions, limits, weights, degenerate input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "ik_test_util.h"

enum { SOLVER_CCD, SOLVER_FABRIK, SOLVER_PINV, SOLVER_DLS, SOLVER_COUNT };
static const char *const k_solver_names[SOLVER_COUNT] = {"ccd", "fabrik", "pinv", "dls"};

static unsigned char g_workspace[1 << 16];

/* Runs one solver on a chain with the common knobs. */
static int32_t solve(int solver, const test_chain *tc, ak_vec3 target, int max_it, float weight,
                     const float *joint_weights, const ak_ik_limit *limits, ak_xform *local,
                     ak_xform *world, ak_ik_result *r)
{
    if (solver == SOLVER_CCD || solver == SOLVER_FABRIK) {
        ak_chain_ik_params p = ak_chain_ik_defaults();
        p.skeleton = tc->skel;
        p.chain = tc->chain;
        p.chain_length = tc->n;
        p.target = target;
        p.max_iterations = max_it;
        p.weight = weight;
        p.joint_weights = joint_weights;
        p.limits = limits;
        return solver == SOLVER_CCD ? ak_ccd_ik_run(&p, local, world, r, NULL)
                                    : ak_fabrik_ik_run(&p, local, world, r, NULL);
    }
    ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
    p.skeleton = tc->skel;
    p.method = solver == SOLVER_PINV ? AK_JACOBIAN_PSEUDO_INVERSE : AK_JACOBIAN_DLS;
    p.chain = tc->chain;
    p.chain_length = tc->n;
    p.target = target;
    p.max_iterations = max_it;
    p.weight = weight;
    p.workspace = g_workspace;
    p.workspace_bytes = sizeof g_workspace;
    assert_true(ak_jacobian_ik_workspace_size(tc->n > 1 ? tc->n - 1 : 1, 1) <= sizeof g_workspace);
    return ak_jacobian_ik_run(&p, local, world, r, NULL);
}

static void check_invariants(const test_chain *tc, const ak_xform *before_world,
                             const ak_xform *local, const ak_xform *world)
{
    const ak_skeleton *s = tc->skel;
    /* Bone lengths to 1e-5 relative. */
    for (int i = 1; i < tc->n; ++i) {
        float want = s->bone_lengths[tc->chain[i]];
        float got = vdist(world[tc->chain[i]].translation, world[tc->chain[i - 1]].translation);
        assert_true(fabsf(got - want) <= 1e-5f * want + 2e-7f * (1.0f + tc->length));
    }
    /* Base and sibling untouched, bit for bit; chain root position unchanged. */
    assert_true(xform_equal_bits(world[0], before_world[0]));
    assert_true(xform_equal_bits(world[tc->n + 2], before_world[tc->n + 2]));
    assert_memory_equal(&world[1].translation, &before_world[1].translation, sizeof(ak_vec3));
    /* The tip's child rides rigidly with the tip. */
    ak_vec3 off = ak_quat_rotate(world[tc->n].rotation, s->rest_local[tc->n + 1].translation);
    assert_true(vdist(ak_vec3_add(world[tc->n].translation, off), world[tc->n + 1].translation) <
                1e-5f * (1.0f + tc->length));
    for (int j = 0; j < tc->count; ++j) {
        assert_true(quat_is_unit(local[j].rotation));
        assert_true(quat_is_unit(world[j].rotation));
    }
}

/* Thousands of random chains of 2..30 joints with targets made by FK of random angles. */
static void run_property(int solver, int cases, int max_joints, int max_it, float min_success)
{
    test_rng rng = {0xC0FFEE1234ULL + (uint64_t)solver};
    int reached = 0;
    long iterations = 0;
    for (int k = 0; k < cases; ++k) {
        int n = rng_int(&rng, 2, max_joints);
        test_chain tc;
        assert_int_equal(test_chain_make(&tc, &rng, n, 0.1f, 1.5f, 0), 0);
        ak_xform local[AK_IK_MAX_CHAIN + 3], world[AK_IK_MAX_CHAIN + 3];
        ak_xform goal_local[AK_IK_MAX_CHAIN + 3], goal_world[AK_IK_MAX_CHAIN + 3];
        ak_xform before[AK_IK_MAX_CHAIN + 3];
        test_random_pose(&tc, &rng, 1.2f, goal_local);
        ak_fk(tc.skel, goal_local, goal_world);
        test_random_pose(&tc, &rng, 1.2f, local);
        ak_fk(tc.skel, local, world);
        memcpy(before, world, sizeof(ak_xform) * (size_t)tc.count);
        ak_vec3 target = goal_world[tc.n].translation;
        ak_ik_result r;
        assert_int_equal(solve(solver, &tc, target, max_it, 1.0f, NULL, NULL, local, world, &r),
                         AK_OK);
        assert_true(isfinite(r.error));
        assert_true(fabsf(r.error - vdist(world[tc.n].translation, target)) <
                    1e-5f * (1.0f + tc.length));
        assert_true(r.iterations <= max_it);
        assert_false(r.unreachable);
        if (r.reached) {
            assert_true(r.error <= 1e-4f * tc.length);
            ++reached;
        }
        iterations += r.iterations;
        check_invariants(&tc, before, local, world);
        test_chain_free(&tc);
    }
    double rate = (double)reached / cases;
    print_message("%s: %d/%d reached (%.2f%%), mean iterations %.1f\n", k_solver_names[solver],
                  reached, cases, 100.0 * rate, (double)iterations / cases);
    assert_true(rate >= min_success);
}

static void ccd_property_random_chains_reach_targets(void **state)
{
    (void)state;
    run_property(SOLVER_CCD, 2000, 30, 1000, 0.99f);
}

static void fabrik_property_random_chains_reach_targets(void **state)
{
    (void)state;
    run_property(SOLVER_FABRIK, 2000, 30, 1000, 0.99f);
}

static void pinv_property_random_chains_reach_targets(void **state)
{
    (void)state;
    run_property(SOLVER_PINV, 1000, 30, 1000, 0.97f);
}

static void dls_property_random_chains_reach_targets(void **state)
{
    (void)state;
    run_property(SOLVER_DLS, 1000, 30, 1000, 0.97f);
}

/* Unreachable: the chain ends up straight toward the target. */
static void solvers_straighten_toward_unreachable_targets(void **state)
{
    (void)state;
    test_rng rng = {42};
    for (int solver = 0; solver < SOLVER_COUNT; ++solver) {
        for (int k = 0; k < 50; ++k) {
            test_chain tc;
            assert_int_equal(test_chain_make(&tc, &rng, rng_int(&rng, 2, 12), 0.2f, 1.0f, 0), 0);
            ak_xform local[AK_IK_MAX_CHAIN + 3], world[AK_IK_MAX_CHAIN + 3],
                before[AK_IK_MAX_CHAIN + 3];
            test_random_pose(&tc, &rng, 1.0f, local);
            ak_fk(tc.skel, local, world);
            memcpy(before, world, sizeof(ak_xform) * (size_t)tc.count);
            ak_vec3 root = world[1].translation;
            float far = k == 0 ? 1e6f : tc.length * 1.5f;
            ak_vec3 target = ak_vec3_add(root, ak_vec3_scale(rng_dir(&rng), far));
            ak_ik_result r;
            assert_int_equal(solve(solver, &tc, target, 100, 1.0f, NULL, NULL, local, world, &r),
                             AK_OK);
            assert_true(r.unreachable);
            assert_false(r.reached);
            float reach = vdist(world[tc.n].translation, root);
            float err_expected = far - tc.length;
            if (solver == SOLVER_FABRIK || solver == SOLVER_CCD) {
                assert_true(reach > tc.length * (1.0f - 1e-3f));
                assert_true(fabsf(r.error - err_expected) <= 1e-3f * tc.length + 1e-6f * far);
            } else {
                /* The Jacobian methods approach the straight (singular) pose asymptotically. */
                assert_true(reach > tc.length * 0.99f);
            }
            check_invariants(&tc, before, local, world);
            test_chain_free(&tc);
        }
    }
}

/* Issue 10: the Jacobian methods stop when the error stops improving. With an iteration cap
 * of 2e9 on unreachable targets the iterations used stay within what the stall rule allows:
 * every 16 iterations the best error must drop by at least 1e-5 of the smaller of itself and
 * the chain length L. The error never goes below the unreachable floor (distance - L), and
 * from a start E0 it can fall by at most E0 - floor, so there are at most
 * (E0 - floor) / (1e-5 min(floor, L)) + 1 windows. The floor is geometry, the rule jacobian.c. */
static void jacobian_stops_when_the_error_stops_improving(void **state)
{
    (void)state;
    test_rng rng = {2026};
    for (int solver = SOLVER_PINV; solver <= SOLVER_DLS; ++solver) {
        for (int k = 0; k < 20; ++k) {
            test_chain tc;
            assert_int_equal(test_chain_make(&tc, &rng, rng_int(&rng, 3, 30), 0.2f, 1.0f, 0), 0);
            ak_xform local[AK_IK_MAX_CHAIN + 3], world[AK_IK_MAX_CHAIN + 3];
            test_random_pose(&tc, &rng, 1.0f, local);
            ak_fk(tc.skel, local, world);
            const ak_vec3 root = world[1].translation;
            const float far = tc.length * (k % 2 ? 1.2f : 4.0f);
            const ak_vec3 target = ak_vec3_add(root, ak_vec3_scale(rng_dir(&rng), far));
            const float start_error = vdist(world[tc.n].translation, target);
            const float floor_error = far - tc.length;
            ak_ik_result r;
            assert_int_equal(
                solve(solver, &tc, target, 2000000000, 1.0f, NULL, NULL, local, world, &r), AK_OK);
            assert_true(r.unreachable);
            assert_false(r.reached);
            assert_true(r.error >= floor_error * (1.0f - 1e-5f));
            const double windows =
                (double)(start_error - floor_error) / (1e-5 * fmin(floor_error, tc.length)) + 1.0;
            if (!(r.iterations <= 16.0 * windows))
                fail_msg("%s: %d iterations, the stall rule allows %.0f", k_solver_names[solver],
                         (int)r.iterations, 16.0 * windows);
            test_chain_free(&tc);
        }
    }
}

/* Target at the chain root, a chain of one joint, a target already reached. */
static void solvers_handle_degenerate_targets(void **state)
{
    (void)state;
    test_rng rng = {7};
    for (int solver = 0; solver < SOLVER_COUNT; ++solver) {
        for (int n = 1; n <= 4; ++n) {
            test_chain tc;
            assert_int_equal(test_chain_make(&tc, &rng, n, 0.2f, 1.0f, 0), 0);
            ak_xform local[8], world[8], before[8];
            test_random_pose(&tc, &rng, 1.0f, local);
            ak_fk(tc.skel, local, world);
            memcpy(before, world, sizeof(ak_xform) * (size_t)tc.count);
            const ak_vec3 targets[3] = {
                world[1].translation, world[tc.n].translation,
                ak_vec3_add(world[1].translation, ak_vec3_make(0.1f, 0.0f, 0.0f))};
            for (int t = 0; t < 3; ++t) {
                ak_ik_result r;
                assert_int_equal(
                    solve(solver, &tc, targets[t], 100, 1.0f, NULL, NULL, local, world, &r), AK_OK);
                assert_true(isfinite(r.error));
                if (n == 1) assert_int_equal(r.iterations, 0);
                if (t == 1 && n > 1) assert_true(r.reached);
                check_invariants(&tc, before, local, world);
            }
            test_chain_free(&tc);
        }
    }
}

static void solvers_reject_zero_length_bones(void **state)
{
    (void)state;
    const char *names[4] = {"a", "b", "c", "d"};
    int32_t parents[4] = {-1, 0, 1, 2};
    ak_xform rest[4];
    for (int j = 0; j < 4; ++j)
        rest[j] = ak_xform_identity();
    rest[1].translation = ak_vec3_make(0, 1, 0);
    rest[3].translation = ak_vec3_make(0, 1, 0); /* c sits on b */
    ak_skeleton_desc desc = {4, names, parents, rest, NULL, NULL};
    test_chain tc;
    assert_int_equal(ak_skeleton_create(&desc, &tc.skel, NULL), AK_OK);
    tc.n = 4;
    tc.count = 4;
    for (int i = 0; i < 4; ++i)
        tc.chain[i] = i;
    ak_xform local[4], world[4], before[4];
    ak_pose_rest(tc.skel, local);
    ak_fk(tc.skel, local, world);
    memcpy(before, local, sizeof before);
    for (int solver = 0; solver < SOLVER_COUNT; ++solver) {
        ak_ik_result r;
        assert_int_equal(
            solve(solver, &tc, ak_vec3_make(1, 1, 0), 100, 1.0f, NULL, NULL, local, world, &r),
            AK_ERR_DEGENERATE);
        assert_memory_equal(before, local, sizeof before);
    }
    ak_skeleton_destroy(tc.skel);
}

/* Weight 0 is the input bit for bit; 0.5 is the per-joint slerp of input and full solve. */
static void solvers_weight_blends_per_joint(void **state)
{
    (void)state;
    test_rng rng = {99};
    for (int solver = 0; solver < SOLVER_COUNT; ++solver) {
        test_chain tc;
        assert_int_equal(test_chain_make(&tc, &rng, 6, 0.3f, 1.0f, 0), 0);
        ak_xform l0[9], w0[9], l[9], w[9], lf[9], wf[9], goal_l[9], goal_w[9];
        test_random_pose(&tc, &rng, 1.0f, goal_l);
        ak_fk(tc.skel, goal_l, goal_w);
        test_random_pose(&tc, &rng, 1.0f, l0);
        ak_fk(tc.skel, l0, w0);
        ak_vec3 target = goal_w[tc.n].translation;
        memcpy(l, l0, sizeof l);
        memcpy(w, w0, sizeof w);
        ak_ik_result r;
        assert_int_equal(solve(solver, &tc, target, 100, 0.0f, NULL, NULL, l, w, &r), AK_OK);
        assert_memory_equal(l, l0, sizeof l);
        assert_memory_equal(w, w0, sizeof w);
        memcpy(lf, l0, sizeof lf);
        memcpy(wf, w0, sizeof wf);
        assert_int_equal(solve(solver, &tc, target, 100, 1.0f, NULL, NULL, lf, wf, &r), AK_OK);
        memcpy(l, l0, sizeof l);
        memcpy(w, w0, sizeof w);
        assert_int_equal(solve(solver, &tc, target, 100, 0.5f, NULL, NULL, l, w, &r), AK_OK);
        for (int i = 0; i < tc.n - 1; ++i) {
            int j = tc.chain[i];
            ak_quat expect = ak_quat_slerp(l0[j].rotation, lf[j].rotation, 0.5f);
            assert_true(fabsf(ak_quat_dot(expect, l[j].rotation)) > 1.0f - 1e-5f);
        }
        test_chain_free(&tc);
    }
}

/* CCD joint weights: a joint with weight 0 never turns; others still reach. */
static void ccd_joint_weight_zero_freezes_joint(void **state)
{
    (void)state;
    test_rng rng = {5};
    for (int k = 0; k < 100; ++k) {
        test_chain tc;
        assert_int_equal(test_chain_make(&tc, &rng, 6, 0.3f, 1.0f, 0), 0);
        ak_xform l[9], w[9], gl[9], gw[9];
        test_random_pose(&tc, &rng, 1.0f, l);
        memcpy(gl, l, sizeof gl);
        /* The goal differs only below the frozen joint so it stays reachable. */
        for (int i = 2; i < tc.n; ++i)
            gl[tc.chain[i]].rotation = rng_quat(&rng, 1.0f);
        ak_fk(tc.skel, gl, gw);
        ak_fk(tc.skel, l, w);
        float jw[6] = {1.0f, 0.0f, 0.7f, 1.0f, 0.5f, 1.0f};
        ak_quat frozen = l[tc.chain[1]].rotation;
        ak_ik_result r;
        assert_int_equal(
            solve(SOLVER_CCD, &tc, gw[tc.n].translation, 1000, 1.0f, jw, NULL, l, w, &r), AK_OK);
        assert_memory_equal(&frozen, &l[tc.chain[1]].rotation, sizeof frozen);
        assert_true(r.reached);
        test_chain_free(&tc);
    }
}

static float hinge_angle(ak_quat q, ak_vec3 axis)
{
    if (q.w < 0) {
        q.x = -q.x;
        q.y = -q.y;
        q.z = -q.z;
        q.w = -q.w;
    }
    return 2.0f * atan2f(q.x * axis.x + q.y * axis.y + q.z * axis.z, q.w);
}

/* Limits hold after every solve: hinge joints rotate only about their axis within range, cone
 * joints keep the bone within the cone and the twist in range. */
static void chain_solvers_honour_limits(void **state)
{
    (void)state;
    test_rng rng = {1234};
    for (int solver = SOLVER_CCD; solver <= SOLVER_FABRIK; ++solver) {
        int reached = 0;
        for (int k = 0; k < 300; ++k) {
            int n = rng_int(&rng, 3, 10);
            test_chain tc;
            assert_int_equal(test_chain_make(&tc, &rng, n, 0.3f, 1.0f, 1), 0);
            ak_ik_limit limits[AK_IK_MAX_CHAIN];
            for (int i = 0; i < n; ++i) {
                if (i % 2 == 0)
                    limits[i] = ak_ik_limit_cone(ak_vec3_make(0, 0, 0), 0.8f, -0.3f, 0.3f);
                else
                    limits[i] = ak_ik_limit_hinge(ak_vec3_make(1, 0, 0), -1.5f, 0.2f);
            }
            /* A legal goal pose: FK of rotations inside the limits. */
            ak_xform l[AK_IK_MAX_CHAIN + 3], w[AK_IK_MAX_CHAIN + 3], gl[AK_IK_MAX_CHAIN + 3],
                gw[AK_IK_MAX_CHAIN + 3];
            test_random_pose(&tc, &rng, 2.0f, gl);
            test_random_pose(&tc, &rng, 2.0f, l);
            for (int i = 0; i < n; ++i) {
                ak_vec3 bone = ak_vec3_make(0, 1, 0);
                gl[tc.chain[i]].rotation =
                    ak_ik_limit_apply(&limits[i], gl[tc.chain[i]].rotation, bone);
                l[tc.chain[i]].rotation =
                    ak_ik_limit_apply(&limits[i], l[tc.chain[i]].rotation, bone);
            }
            ak_fk(tc.skel, gl, gw);
            ak_fk(tc.skel, l, w);
            ak_ik_result r;
            assert_int_equal(
                solve(solver, &tc, gw[tc.n].translation, 200, 1.0f, NULL, limits, l, w, &r), AK_OK);
            reached += r.reached;
            for (int i = 0; i + 1 < n; ++i) {
                ak_quat q = l[tc.chain[i]].rotation;
                assert_true(quat_is_unit(q));
                if (i % 2 == 1) {
                    float a = hinge_angle(q, ak_vec3_make(1, 0, 0));
                    assert_true(a >= -1.5f - 1e-4f && a <= 0.2f + 1e-4f);
                    assert_true(fabsf(q.y) < 1e-5f && fabsf(q.z) < 1e-5f);
                } else {
                    ak_vec3 b = ak_quat_rotate(q, ak_vec3_make(0, 1, 0));
                    assert_true(acosf(fminf(1.0f, b.y)) <= 0.8f + 1e-3f);
                    /* twist: the twist part about +Y of q */
                    float t = hinge_angle(ak_quat_normalize((ak_quat){0.0f, q.y, 0.0f, q.w}),
                                          ak_vec3_make(0, 1, 0));
                    assert_true(t >= -0.3f - 1e-3f && t <= 0.3f + 1e-3f);
                }
            }
            test_chain_free(&tc);
        }
        print_message("%s with limits: %d/300 reached\n", k_solver_names[solver], reached);
        /* Random limited chains have local minima; both must reach a good share (and every
         * limit above held). */
        assert_true(reached > (solver == SOLVER_CCD ? 200 : 150));
    }
}

static void limit_apply_projects_rotations(void **state)
{
    (void)state;
    ak_ik_limit h = ak_ik_limit_hinge(ak_vec3_make(0, 0, 2), -0.5f, 1.0f);
    ak_quat q = ak_ik_limit_apply(&h, ak_quat_from_axis_angle(ak_vec3_make(0, 0, 1), 1.4f),
                                  ak_vec3_make(0, 1, 0));
    assert_true(fabsf(ak_quat_angle(q) - 1.0f) < 1e-5f);
    q = ak_ik_limit_apply(&h, ak_quat_from_axis_angle(ak_vec3_make(0, 0, 1), 0.3f),
                          ak_vec3_make(0, 1, 0));
    assert_true(fabsf(ak_quat_angle(q) - 0.3f) < 1e-5f);
    q = ak_ik_limit_apply(&h, ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), 0.3f),
                          ak_vec3_make(0, 1, 0));
    assert_true(fabsf(ak_quat_angle(q)) < 1e-5f);
    ak_ik_limit c = ak_ik_limit_cone(ak_vec3_make(0, 0, 0), 0.5f, -0.1f, 0.1f);
    q = ak_ik_limit_apply(&c, ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), 1.2f),
                          ak_vec3_make(0, 1, 0));
    ak_vec3 b = ak_quat_rotate(q, ak_vec3_make(0, 1, 0));
    assert_true(fabsf(acosf(b.y) - 0.5f) < 1e-4f);
    assert_true(fabsf(b.x) < 1e-5f);
    ak_ik_limit none = ak_ik_limit_none();
    ak_quat in = ak_quat_from_axis_angle(ak_vec3_make(1, 2, 3), 2.0f);
    q = ak_ik_limit_apply(&none, in, ak_vec3_make(0, 1, 0));
    assert_true(fabsf(ak_quat_dot(q, in)) > 1.0f - 1e-6f);
}

static void chain_validate_rejects_bad_params(void **state)
{
    (void)state;
    test_rng rng = {3};
    test_chain tc;
    assert_int_equal(test_chain_make(&tc, &rng, 4, 0.3f, 1.0f, 0), 0);
    ak_chain_ik_params p = ak_chain_ik_defaults();
    p.skeleton = tc.skel;
    p.chain = tc.chain;
    p.chain_length = tc.n;
    ak_error err;
    assert_int_equal(ak_chain_ik_validate(&p, &err), AK_OK);
    int32_t bad_chain[3] = {1, 3, 2};
    ak_chain_ik_params q = p;
    q.chain = bad_chain;
    q.chain_length = 3;
    assert_int_equal(ak_chain_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    int32_t out_chain[2] = {1, tc.n + 2}; /* sibling is not below the root */
    q = p;
    q.chain = out_chain;
    q.chain_length = 2;
    assert_int_equal(ak_chain_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    q = p;
    q.chain_length = 0;
    assert_int_equal(ak_chain_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    q = p;
    q.max_iterations = 0;
    assert_int_equal(ak_chain_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    float jw[4] = {1, 2, 1, 1};
    q = p;
    q.joint_weights = jw;
    assert_int_equal(ak_chain_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    ak_ik_limit lim[4] = {ak_ik_limit_hinge(ak_vec3_make(0, 0, 0), 0, 1), ak_ik_limit_none(),
                          ak_ik_limit_none(), ak_ik_limit_none()};
    q = p;
    q.limits = lim;
    assert_int_equal(ak_chain_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    q = p;
    q.target.y = INFINITY;
    assert_int_equal(ak_chain_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    int32_t chain[AK_IK_MAX_CHAIN];
    assert_int_equal(ak_ik_chain_from_joints(tc.skel, 1, tc.n, chain, AK_IK_MAX_CHAIN), tc.n);
    assert_memory_equal(chain, tc.chain, sizeof(int32_t) * (size_t)tc.n);
    assert_true(ak_ik_chain_from_joints(tc.skel, 2, 1, chain, AK_IK_MAX_CHAIN) < 0);
    assert_int_equal(ak_ik_chain_from_joints(tc.skel, 1, tc.n, chain, 2), AK_ERR_LIMIT);
    test_chain_free(&tc);
}

/* FABRIK converges in fewer mean iterations than CCD on 10-joint chains (the benchmark's
 * claim, checked here on a smaller sample). */
static void fabrik_needs_fewer_iterations_than_ccd(void **state)
{
    (void)state;
    long it[2] = {0, 0};
    for (int solver = SOLVER_CCD; solver <= SOLVER_FABRIK; ++solver) {
        test_rng rng = {777};
        for (int k = 0; k < 300; ++k) {
            test_chain tc;
            assert_int_equal(test_chain_make(&tc, &rng, 10, 1.0f, 1.0f, 1), 0);
            ak_xform l[13], w[13], gl[13], gw[13];
            test_random_pose(&tc, &rng, 1.0f, gl);
            ak_fk(tc.skel, gl, gw);
            ak_pose_rest(tc.skel, l);
            ak_fk(tc.skel, l, w);
            ak_ik_result r;
            assert_int_equal(
                solve(solver, &tc, gw[tc.n].translation, 100, 1.0f, NULL, NULL, l, w, &r), AK_OK);
            it[solver] += r.iterations;
            test_chain_free(&tc);
        }
    }
    print_message("mean iterations: ccd %.1f fabrik %.1f\n", it[0] / 300.0, it[1] / 300.0);
    assert_true(it[1] < it[0]);
}

/* A joint sitting on its parent (CMU's LHipJoint on Hips) is dropped from a chain, after
 * which the solvers accept it; the dropped joint stays rigid. */
static void chain_skip_zero_bones_makes_cmu_style_chains_solvable(void **state)
{
    (void)state;
    const char *names[5] = {"hips", "hipjoint", "upleg", "leg", "foot"};
    int32_t parents[5] = {-1, 0, 1, 2, 3};
    ak_xform rest[5];
    for (int j = 0; j < 5; ++j)
        rest[j] = ak_xform_identity();
    rest[2].translation = ak_vec3_make(0.1f, -0.05f, 0.0f);
    rest[3].translation = ak_vec3_make(0.0f, -0.45f, 0.0f);
    rest[4].translation = ak_vec3_make(0.0f, -0.4f, 0.05f);
    ak_skeleton_desc desc = {5, names, parents, rest, NULL, NULL};
    ak_skeleton *s;
    assert_int_equal(ak_skeleton_create(&desc, &s, NULL), AK_OK);
    int32_t chain[8];
    int32_t n = ak_ik_chain_from_joints(s, 0, 4, chain, 8);
    assert_int_equal(n, 5);
    ak_xform l[5], w[5];
    ak_pose_rest(s, l);
    ak_fk(s, l, w);
    ak_chain_ik_params p = ak_chain_ik_defaults();
    p.skeleton = s;
    p.chain = chain;
    p.chain_length = n;
    p.target = ak_vec3_make(0.3f, -0.6f, 0.2f);
    ak_error err;
    assert_int_equal(ak_ccd_ik_run(&p, l, w, NULL, &err), AK_ERR_DEGENERATE);
    n = ak_ik_chain_skip_zero_bones(s, chain, n);
    assert_int_equal(n, 4);
    const int32_t want[4] = {0, 2, 3, 4};
    assert_memory_equal(chain, want, sizeof want);
    p.chain_length = n;
    ak_ik_result r;
    assert_int_equal(ak_fabrik_ik_run(&p, l, w, &r, &err), AK_OK);
    assert_true(r.reached);
    assert_memory_equal(&l[1], &rest[1], sizeof(ak_xform)); /* the skipped joint is untouched */
    ak_skeleton_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ccd_property_random_chains_reach_targets),
        cmocka_unit_test(fabrik_property_random_chains_reach_targets),
        cmocka_unit_test(pinv_property_random_chains_reach_targets),
        cmocka_unit_test(dls_property_random_chains_reach_targets),
        cmocka_unit_test(solvers_straighten_toward_unreachable_targets),
        cmocka_unit_test(jacobian_stops_when_the_error_stops_improving),
        cmocka_unit_test(solvers_handle_degenerate_targets),
        cmocka_unit_test(solvers_reject_zero_length_bones),
        cmocka_unit_test(solvers_weight_blends_per_joint),
        cmocka_unit_test(ccd_joint_weight_zero_freezes_joint),
        cmocka_unit_test(chain_solvers_honour_limits),
        cmocka_unit_test(limit_apply_projects_rotations),
        cmocka_unit_test(chain_validate_rejects_bad_params),
        cmocka_unit_test(fabrik_needs_fewer_iterations_than_ccd),
        cmocka_unit_test(chain_skip_zero_bones_makes_cmu_style_chains_solvable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
