/* Aim, look-at chains and multi-effector Jacobian solves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "ik_test_util.h"
#include "ik/ik_internal.h"

static float angle_between(ak_vec3 a, ak_vec3 b)
{
    return atan2f(ak_vec3_length(ak_vec3_cross(a, b)), ak_vec3_dot(a, b));
}

/* Random joints aimed at random targets: forward lands on the target, up is as upright as
 * possible (in the vertical plane through the aim direction), weights and clamp behave. */
static void aim_points_forward_at_target_and_keeps_up(void **state)
{
    (void)state;
    test_rng rng = {11};
    for (int k = 0; k < 2000; ++k) {
        test_chain tc;
        assert_int_equal(test_chain_make(&tc, &rng, 3, 0.2f, 1.0f, 0), 0);
        ak_xform l[6], w[6], before[6];
        test_random_pose(&tc, &rng, 3.0f, l);
        ak_fk(tc.skel, l, w);
        memcpy(before, w, sizeof before);
        ak_aim_ik_params p = ak_aim_ik_defaults();
        p.skeleton = tc.skel;
        p.joint = 2;
        p.forward = rng_dir(&rng);
        p.up = ak_vec3_cross(p.forward, rng_dir(&rng)); /* any axis not along forward */
        p.target = ak_vec3_add(w[2].translation,
                               ak_vec3_scale(rng_dir(&rng), rng_range(&rng, 0.1f, 10.0f)));
        ak_ik_result r;
        assert_int_equal(ak_aim_ik_run(&p, l, w, &r, NULL), AK_OK);
        assert_true(r.reached);
        ak_vec3 fwd = ak_quat_rotate(w[2].rotation, ak_vec3_normalize_or(p.forward, p.forward));
        ak_vec3 to = ak_vec3_sub(p.target, w[2].translation);
        assert_true(angle_between(fwd, to) < 1e-3f);
        assert_true(r.error < 1e-3f);
        /* Up lies in the plane spanned by the aim direction and world up, on world up's side. */
        ak_vec3 up = ak_quat_rotate(w[2].rotation, ak_vec3_normalize_or(p.up, p.up));
        ak_vec3 plane_n =
            ak_vec3_normalize_or(ak_vec3_cross(to, p.up_model), ak_vec3_make(0, 0, 0));
        ak_vec3 up_perp =
            ak_vec3_sub(up, ak_vec3_scale(ak_vec3_normalize_or(to, to),
                                          ak_vec3_dot(up, ak_vec3_normalize_or(to, to))));
        if (ak_vec3_length(plane_n) > 0.1f && ak_vec3_length(up_perp) > 0.1f) {
            assert_true(fabsf(ak_vec3_dot(ak_vec3_normalize_or(up_perp, up_perp), plane_n)) <
                        1e-3f);
            assert_true(ak_vec3_dot(up_perp, p.up_model) >= -1e-4f);
        }
        /* Only the aimed joint and its subtree change. */
        for (int j = 0; j < 2; ++j)
            assert_true(xform_equal_bits(w[j], before[j]));
        assert_true(xform_equal_bits(w[tc.n + 2], before[tc.n + 2]));
        assert_memory_equal(&w[2].translation, &before[2].translation, sizeof(ak_vec3));
        for (int j = 0; j < 6; ++j)
            assert_true(quat_is_unit(l[j].rotation));
        test_chain_free(&tc);
    }
}

static void aim_clamp_weight_limits_the_turn(void **state)
{
    (void)state;
    test_rng rng = {12};
    for (int k = 0; k < 200; ++k) {
        test_chain tc;
        assert_int_equal(test_chain_make(&tc, &rng, 2, 0.5f, 1.0f, 0), 0);
        ak_xform l[5], w[5];
        test_random_pose(&tc, &rng, 3.0f, l);
        ak_fk(tc.skel, l, w);
        ak_aim_ik_params p = ak_aim_ik_defaults();
        p.skeleton = tc.skel;
        p.joint = 1;
        p.up = ak_vec3_make(0, 0, 0); /* aim only: the turn is exactly the clamp */
        p.clamp_weight = 0.75f;       /* at most pi/4 */
        p.target = ak_vec3_add(w[1].translation, rng_dir(&rng));
        ak_vec3 fwd0 = ak_quat_rotate(w[1].rotation, p.forward);
        float want = angle_between(fwd0, ak_vec3_sub(p.target, w[1].translation));
        ak_ik_result r;
        assert_int_equal(ak_aim_ik_run(&p, l, w, &r, NULL), AK_OK);
        ak_vec3 fwd1 = ak_quat_rotate(w[1].rotation, p.forward);
        float turned = angle_between(fwd0, fwd1);
        float expect = fminf(want, AK_PI_TEST / 4.0f);
        assert_true(fabsf(turned - expect) < 1e-3f);
        assert_true(fabsf(r.error - (want - expect)) < 2e-3f);
        assert_int_equal(r.reached, want <= AK_PI_TEST / 4.0f + 1e-4f ? 1 : r.reached);
        test_chain_free(&tc);
    }
}

static void aim_weight_and_correction_form(void **state)
{
    (void)state;
    test_rng rng = {13};
    test_chain tc;
    assert_int_equal(test_chain_make(&tc, &rng, 3, 0.5f, 1.0f, 0), 0);
    ak_xform l0[6], w0[6], l[6], w[6], lf[6], wf[6];
    test_random_pose(&tc, &rng, 2.0f, l0);
    ak_fk(tc.skel, l0, w0);
    ak_aim_ik_params p = ak_aim_ik_defaults();
    p.skeleton = tc.skel;
    p.joint = 2;
    p.target = ak_vec3_make(3, 1, 2);
    memcpy(l, l0, sizeof l);
    memcpy(w, w0, sizeof w);
    p.weight = 0.0f;
    assert_int_equal(ak_aim_ik_run(&p, l, w, NULL, NULL), AK_OK);
    assert_memory_equal(l, l0, sizeof l);
    assert_memory_equal(w, w0, sizeof w);
    p.weight = 1.0f;
    memcpy(lf, l0, sizeof lf);
    memcpy(wf, w0, sizeof wf);
    assert_int_equal(ak_aim_ik_run(&p, lf, wf, NULL, NULL), AK_OK);
    p.weight = 0.3f;
    assert_int_equal(ak_aim_ik_run(&p, l, w, NULL, NULL), AK_OK);
    ak_quat expect = ak_quat_slerp(l0[2].rotation, lf[2].rotation, 0.3f);
    assert_true(fabsf(ak_quat_dot(expect, l[2].rotation)) > 1.0f - 1e-5f);
    /* Correction form: local * correction is the full solve. */
    p.weight = 1.0f;
    ak_quat c;
    assert_int_equal(ak_aim_ik_solve(&p, w0, &c, NULL, NULL), AK_OK);
    assert_true(fabsf(ak_quat_dot(ak_quat_mul(l0[2].rotation, c), lf[2].rotation)) > 1.0f - 1e-5f);
    /* Degenerate: target on the joint, forward along world up: finite, unit, unchanged error. */
    p.target = w0[2].translation;
    ak_ik_result r;
    assert_int_equal(ak_aim_ik_solve(&p, w0, &c, &r, NULL), AK_OK);
    assert_true(quat_is_unit(c));
    p.target = ak_vec3_add(w0[2].translation, ak_vec3_make(0, 5, 0));
    p.forward = ak_vec3_make(0, 1, 0);
    assert_int_equal(ak_aim_ik_solve(&p, w0, &c, &r, NULL), AK_OK);
    assert_true(quat_is_unit(c));
    assert_true(r.reached);
    ak_error err;
    p.forward = ak_vec3_make(0, 0, 0);
    assert_int_equal(ak_aim_ik_validate(&p, &err), AK_ERR_INVALID_ARG);
    p.forward = ak_vec3_make(0, 0, 1);
    p.clamp_weight = -0.1f;
    assert_int_equal(ak_aim_ik_validate(&p, &err), AK_ERR_INVALID_ARG);
    test_chain_free(&tc);
}

/* spine -> neck -> head: the head lands exactly, every joint takes part, the turn is spread. */
static void look_at_chain_lands_last_joint_exactly(void **state)
{
    (void)state;
    test_rng rng = {14};
    for (int k = 0; k < 1000; ++k) {
        int n = rng_int(&rng, 1, 6);
        test_chain tc;
        assert_int_equal(test_chain_make(&tc, &rng, n, 0.1f, 0.5f, 1), 0);
        ak_xform l[AK_IK_MAX_CHAIN + 3], w[AK_IK_MAX_CHAIN + 3], before[AK_IK_MAX_CHAIN + 3];
        test_random_pose(&tc, &rng, 0.5f, l);
        ak_fk(tc.skel, l, w);
        memcpy(before, w, sizeof(ak_xform) * (size_t)tc.count);
        ak_look_at_params p = ak_look_at_defaults();
        p.skeleton = tc.skel;
        p.chain = tc.chain;
        p.chain_length = n;
        p.target = ak_vec3_add(w[tc.n].translation,
                               ak_vec3_scale(rng_dir(&rng), rng_range(&rng, 2.0f, 20.0f)));
        ak_ik_result r;
        assert_int_equal(ak_look_at_run(&p, l, w, &r, NULL), AK_OK);
        int head = tc.chain[n - 1];
        float err = angle_between(ak_quat_rotate(w[head].rotation, p.forward),
                                  ak_vec3_sub(p.target, w[head].translation));
        assert_true(err < 1e-3f);
        assert_true(r.reached);
        assert_true(xform_equal_bits(w[0], before[0]));
        assert_true(xform_equal_bits(w[tc.n + 2], before[tc.n + 2]));
        for (int j = 0; j < tc.count; ++j)
            assert_true(quat_is_unit(l[j].rotation));
        test_chain_free(&tc);
    }
}

static void look_at_spreads_turn_and_clamps_total_angle(void **state)
{
    (void)state;
    test_rng rng = {15};
    test_chain tc;
    assert_int_equal(test_chain_make(&tc, &rng, 3, 0.3f, 0.3f, 1), 0);
    ak_xform l0[6], w0[6], l[6], w[6];
    ak_pose_rest(tc.skel, l0);
    ak_fk(tc.skel, l0, w0);
    int head = tc.chain[2];
    /* Target 90 degrees to the side of the head's forward (+Z in the head frame). */
    ak_vec3 fwd0 = ak_quat_rotate(w0[head].rotation, ak_vec3_make(0, 0, 1));
    ak_vec3 side = ak_quat_rotate(w0[head].rotation, ak_vec3_make(1, 0, 0));
    ak_look_at_params p = ak_look_at_defaults();
    p.skeleton = tc.skel;
    p.chain = tc.chain;
    p.chain_length = 3;
    p.up = ak_vec3_make(0, 0, 0);
    p.target = ak_vec3_add(w0[head].translation, ak_vec3_scale(side, 100.0f));
    memcpy(l, l0, sizeof l);
    memcpy(w, w0, sizeof w);
    assert_int_equal(ak_look_at_run(&p, l, w, NULL, NULL), AK_OK);
    /* Default weights share the turn: each of the three joints turns about a third. */
    for (int i = 0; i < 3; ++i) {
        float a = ak_quat_angle(
            ak_quat_mul(ak_quat_conjugate(l0[tc.chain[i]].rotation), l[tc.chain[i]].rotation));
        assert_true(fabsf(a - (AK_PI_TEST / 2.0f) / 3.0f) < 0.02f);
    }
    /* clamp_weight 0.75: the head turns pi/4 in total, not pi/2. */
    memcpy(l, l0, sizeof l);
    memcpy(w, w0, sizeof w);
    p.clamp_weight = 0.75f;
    ak_ik_result r;
    assert_int_equal(ak_look_at_run(&p, l, w, &r, NULL), AK_OK);
    ak_vec3 fwd1 = ak_quat_rotate(w[head].rotation, ak_vec3_make(0, 0, 1));
    assert_true(fabsf(angle_between(fwd0, fwd1) - AK_PI_TEST / 4.0f) < 0.01f);
    assert_false(r.reached);
    assert_true(fabsf(r.error - AK_PI_TEST / 4.0f) < 0.01f);
    /* Weight 0 is bit-for-bit. */
    memcpy(l, l0, sizeof l);
    memcpy(w, w0, sizeof w);
    p.weight = 0.0f;
    assert_int_equal(ak_look_at_run(&p, l, w, NULL, NULL), AK_OK);
    assert_memory_equal(l, l0, sizeof l);
    assert_memory_equal(w, w0, sizeof w);
    test_chain_free(&tc);
}

/* A Y-shaped skeleton: trunk(0) -> spine(1) -> {left arm 2,3,4 ; right arm 5,6,7}. Both hands
 * on targets at once with the multi-effector Jacobian, weights favouring one hand. */
static void jacobian_moves_several_effectors_at_once(void **state)
{
    (void)state;
    const char *names[8] = {"trunk", "spine", "l1", "l2", "lhand", "r1", "r2", "rhand"};
    int32_t parents[8] = {-1, 0, 1, 2, 3, 1, 5, 6};
    ak_xform rest[8];
    for (int j = 0; j < 8; ++j)
        rest[j] = ak_xform_identity();
    rest[1].translation = ak_vec3_make(0, 1, 0);
    rest[2].translation = ak_vec3_make(0.3f, 0.2f, 0);
    rest[3].translation = ak_vec3_make(0.5f, 0, 0);
    rest[4].translation = ak_vec3_make(0.5f, 0, 0);
    rest[5].translation = ak_vec3_make(-0.3f, 0.2f, 0);
    rest[6].translation = ak_vec3_make(-0.5f, 0, 0);
    rest[7].translation = ak_vec3_make(-0.5f, 0, 0);
    ak_skeleton_desc desc = {8, names, parents, rest, NULL, NULL};
    ak_skeleton *s;
    assert_int_equal(ak_skeleton_create(&desc, &s, NULL), AK_OK);
    test_rng rng = {16};
    static unsigned char ws[1 << 14];
    int reached = 0;
    for (int k = 0; k < 200; ++k) {
        ak_xform l[8], w[8], gl[8], gw[8], before[8];
        ak_pose_rest(s, gl);
        for (int j = 1; j < 8; ++j)
            gl[j].rotation = rng_quat(&rng, 0.8f);
        ak_fk(s, gl, gw);
        ak_pose_rest(s, l);
        ak_fk(s, l, w);
        memcpy(before, w, sizeof before);
        int32_t joints[6] = {1, 2, 3, 5, 6, 0};
        int32_t sorted[5] = {1, 2, 3, 5, 6};
        (void)joints;
        int32_t effectors[2] = {4, 7};
        ak_vec3 targets[2] = {gw[4].translation, gw[7].translation};
        for (int method = 0; method < 2; ++method) {
            ak_xform lm[8], wm[8];
            memcpy(lm, l, sizeof lm);
            memcpy(wm, w, sizeof wm);
            ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
            p.skeleton = s;
            p.method = method;
            p.joints = sorted;
            p.joint_count = 5;
            p.effectors = effectors;
            p.targets = targets;
            p.effector_count = 2;
            p.max_iterations = 300;
            p.workspace = ws;
            p.workspace_bytes = sizeof ws;
            assert_true(ak_jacobian_ik_workspace_size(5, 2) <= sizeof ws);
            ak_ik_result r;
            assert_int_equal(ak_jacobian_ik_run(&p, lm, wm, &r, NULL), AK_OK);
            reached += r.reached;
            float e =
                fmaxf(vdist(wm[4].translation, targets[0]), vdist(wm[7].translation, targets[1]));
            assert_true(fabsf(e - r.error) < 1e-5f);
            assert_true(xform_equal_bits(wm[0], before[0]));
            for (int j = 0; j < 8; ++j)
                assert_true(quat_is_unit(lm[j].rotation));
            /* Bone lengths kept. */
            for (int j = 1; j < 8; ++j)
                assert_true(fabsf(vdist(wm[j].translation, wm[parents[j]].translation) -
                                  s->bone_lengths[j]) < 1e-5f);
        }
    }
    print_message("multi-effector: %d/400 reached\n", reached);
    assert_true(reached >= 390);

    /* Conflicting targets: the heavier effector wins. */
    ak_xform l[8], w[8];
    ak_pose_rest(s, l);
    ak_fk(s, l, w);
    int32_t sorted[1] = {1}; /* only the spine turns: both hands cannot be satisfied */
    int32_t effectors[2] = {4, 7};
    ak_vec3 targets[2] = {ak_vec3_make(1.0f, 2.0f, 1.0f), ak_vec3_make(-1.0f, 2.0f, -1.0f)};
    float weights[2] = {1.0f, 0.1f};
    ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
    p.skeleton = s;
    p.joints = sorted;
    p.joint_count = 1;
    p.effectors = effectors;
    p.targets = targets;
    p.effector_weights = weights;
    p.effector_count = 2;
    p.workspace = ws;
    p.workspace_bytes = sizeof ws;
    assert_int_equal(ak_jacobian_ik_run(&p, l, w, NULL, NULL), AK_OK);
    assert_true(vdist(w[4].translation, targets[0]) < vdist(w[7].translation, targets[1]));
    /* Workspace too small: rejected. */
    p.workspace_bytes = 8;
    ak_error err;
    assert_int_equal(ak_jacobian_ik_run(&p, l, w, NULL, &err), AK_ERR_INVALID_ARG);
    int32_t unsorted[2] = {2, 1};
    p.workspace_bytes = sizeof ws;
    p.joints = unsorted;
    p.joint_count = 2;
    assert_int_equal(ak_jacobian_ik_validate(&p, &err), AK_ERR_INVALID_ARG);
    ak_skeleton_destroy(s);
}

/* The packed frame solve the aim uses where there is SSE against the scalar one it replaced
 * (AK_NO_SIMD builds run the scalar one through every test above): random joints, axes of any
 * length, targets from 1 mm to 1 km, a fifth aimed within 10 degrees of straight behind (turns
 * near a half turn, where both switch to Shepperd's branches). Same answer to 2e-6 per
 * component (q and -q are one rotation): about 30 float roundings of unit quantities, the
 * depth of the formulas, times the 5x the trace form may amplify them before 174 degrees. */
static void aim_packed_frames_match_scalar(void **state)
{
    (void)state;
#ifdef AK_HAVE_SSE
    test_rng rng = {29};
    float worst = 0.0f;
    for (int k = 0; k < 20000; ++k) {
        ak_xform x = {rng_quat(&rng, AK_PI_TEST), ak_vec3_scale(rng_dir(&rng), 5.0f)};
        ak_aim_ik_params p = ak_aim_ik_defaults();
        p.forward = ak_vec3_scale(rng_dir(&rng), rng_range(&rng, 0.01f, 100.0f));
        p.up = ak_vec3_scale(rng_dir(&rng), rng_range(&rng, 0.01f, 100.0f));
        p.up_model = ak_vec3_scale(rng_dir(&rng), rng_range(&rng, 0.01f, 100.0f));
        ak_vec3 dir = rng_dir(&rng);
        if (k % 5 == 0) { /* nearly behind: -forward turned by up to 10 degrees */
            const ak_vec3 back = ak_quat_rotate(x.rotation, ak_vec3_normalize_or(p.forward, dir));
            dir = ak_quat_rotate(rng_quat(&rng, 0.17f), ak_vec3_scale(back, -1.0f));
        }
        p.target =
            ak_vec3_add(x.translation, ak_vec3_scale(dir, powf(10.0f, rng_range(&rng, -3, 3))));
        /* Well-conditioned frames only: with up within asin(0.3) of forward (or up_model of
         * the aim) the frame's second axis is ill-determined and both forms differ by the
         * rounding of the cancellation over that sine; the solve's degenerate checks cover
         * those. */
        const ak_vec3 fu = ak_vec3_normalize_or(p.forward, dir);
        if (ak_vec3_length(ak_vec3_cross(fu, ak_vec3_normalize_or(p.up, dir))) < 0.3f ||
            ak_vec3_length(ak_vec3_cross(dir, ak_vec3_normalize_or(p.up_model, dir))) < 0.3f)
            continue;
        ak_quat qs, qp;
        const int ok_s = ik_aim_frames_scalar(&p, &x, &qs), ok_p = ik_aim_frames_sse(&p, &x, &qp);
        assert_int_equal(ok_s, ok_p);
        if (!ok_s) continue;
        const float sign = ak_quat_dot(qs, qp) < 0.0f ? -1.0f : 1.0f;
        const float d[4] = {qs.x - sign * qp.x, qs.y - sign * qp.y, qs.z - sign * qp.z,
                            qs.w - sign * qp.w};
        for (int i = 0; i < 4; ++i)
            worst = fmaxf(worst, fabsf(d[i]));
    }
    printf("aim frames: packed vs scalar, worst component difference %.3g\n", (double)worst);
    assert_true(worst < 2e-6f);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(aim_points_forward_at_target_and_keeps_up),
        cmocka_unit_test(aim_clamp_weight_limits_the_turn),
        cmocka_unit_test(aim_weight_and_correction_form),
        cmocka_unit_test(aim_packed_frames_match_scalar),
        cmocka_unit_test(look_at_chain_lands_last_joint_exactly),
        cmocka_unit_test(look_at_spreads_turn_and_clamps_total_angle),
        cmocka_unit_test(jacobian_moves_several_effectors_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
