/* Limb (two-bone) IK: SPEC section 4 worked numbers, pole handling, degenerate input,
 * weights, the correction form and a property test over random limbs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "ik_test_util.h"
#include "ik/ik_internal.h"

/* pelvis(0) -> upper(1) -> middle(2) -> end(3) -> toe(4); other(5) child of pelvis.
 * The limb hangs down -Y with the middle joint bent `bend` radians about +Z. */
typedef struct limb_rig {
    ak_skeleton *skel;
    ak_xform local[6], world[6];
} limb_rig;

static void rig_make(limb_rig *rig, float l1, float l2, float bend)
{
    const char *names[6] = {"pelvis", "upper", "middle", "end", "toe", "other"};
    int32_t parents[6] = {-1, 0, 1, 2, 3, 0};
    ak_xform rest[6];
    for (int j = 0; j < 6; ++j)
        rest[j] = ak_xform_identity();
    rest[0].translation = ak_vec3_make(0.0f, 1.0f, 0.0f);
    rest[1].translation = ak_vec3_make(0.1f, 0.0f, 0.0f);
    rest[2].translation = ak_vec3_make(0.0f, -l1, 0.0f);
    rest[3].translation = ak_vec3_make(0.0f, -l2, 0.0f);
    rest[4].translation = ak_vec3_make(0.0f, 0.0f, 0.1f);
    rest[5].translation = ak_vec3_make(-0.1f, 0.0f, 0.0f);
    ak_skeleton_desc desc = {6, names, parents, rest, NULL, NULL};
    assert_int_equal(ak_skeleton_create(&desc, &rig->skel, NULL), AK_OK);
    ak_pose_rest(rig->skel, rig->local);
    rig->local[2].rotation = ak_quat_from_axis_angle(ak_vec3_make(0, 0, 1), bend);
    ak_fk(rig->skel, rig->local, rig->world);
}

static ak_limb_ik_params rig_params(const limb_rig *rig, ak_vec3 target)
{
    ak_limb_ik_params p = ak_limb_ik_defaults();
    p.skeleton = rig->skel;
    p.upper = 1;
    p.middle = 2;
    p.end = 3;
    p.target = target;
    return p;
}

/* A target at distance d from the upper joint, off to the side and down. */
static ak_vec3 target_at(const limb_rig *rig, float d)
{
    ak_vec3 dir = ak_vec3_normalize_or(ak_vec3_make(0.4f, -1.0f, 0.3f), ak_vec3_make(0, -1, 0));
    return ak_vec3_add(rig->world[1].translation, ak_vec3_scale(dir, d));
}

static void check_angles(float l1, float l2, float d, double interior_deg, double upper_deg)
{
    limb_rig rig;
    rig_make(&rig, l1, l2, 0.3f);
    ak_vec3 t = target_at(&rig, d);
    ak_limb_ik_params p = rig_params(&rig, t);
    ak_ik_result r;
    assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, &r, NULL), AK_OK);
    ak_vec3 a = rig.world[1].translation, b = rig.world[2].translation,
            c = rig.world[3].translation;
    double interior = angle_at_deg(a, b, c);
    double upper = angle_at_deg(t, a, b);
    assert_true(fabs(interior - interior_deg) < 0.05);
    assert_true(fabs(upper - upper_deg) < 0.05);
    ak_skeleton_destroy(rig.skel);
}

static void limb_matches_spec_worked_numbers(void **state)
{
    (void)state;
    /* l1=0.5, l2=0.4, d=0.7: interior = acos((0.25+0.16-0.49)/0.4) = acos(-0.2) = 101.54 deg;
     * upper = acos((0.25+0.49-0.16)/0.7) = 34.05 deg. */
    check_angles(0.5f, 0.4f, 0.7f, 101.537, 34.048);
    /* l1=0.6, l2=0.5, d=0.9: elbow 109.47 deg, upper-joint angle 31.59 deg. */
    check_angles(0.6f, 0.5f, 0.9f, 109.471, 31.586);
    /* d=1.1 = l1+l2: straight, 180 and 0. */
    check_angles(0.6f, 0.5f, 1.1f, 180.0, 0.0);
}

static void limb_reaches_targets_within_tolerance(void **state)
{
    (void)state;
    limb_rig rig;
    rig_make(&rig, 0.6f, 0.5f, 0.4f);
    ak_vec3 t = target_at(&rig, 0.8f);
    ak_limb_ik_params p = rig_params(&rig, t);
    ak_ik_result r;
    assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, &r, NULL), AK_OK);
    assert_true(r.reached);
    assert_false(r.unreachable);
    assert_int_equal(r.iterations, 1);
    assert_true(vdist(rig.world[3].translation, t) < 1e-5f);
    assert_true(r.error < 1e-5f);
    ak_skeleton_destroy(rig.skel);
}

static void limb_unreachable_target_straightens_toward_it(void **state)
{
    (void)state;
    limb_rig rig;
    rig_make(&rig, 0.6f, 0.5f, 0.8f);
    ak_vec3 a = rig.world[1].translation;
    ak_vec3 t = target_at(&rig, 3.0f);
    ak_limb_ik_params p = rig_params(&rig, t);
    ak_ik_result r;
    assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, &r, NULL), AK_OK);
    assert_false(r.reached);
    assert_true(r.unreachable);
    assert_true(fabs(angle_at_deg(a, rig.world[2].translation, rig.world[3].translation) - 180.0) <
                0.05);
    assert_true(fabs(angle_at_deg(t, a, rig.world[3].translation)) < 0.05);
    assert_true(fabsf(r.error - (3.0f - 1.1f)) < 1e-4f);
    ak_skeleton_destroy(rig.skel);
}

static void limb_bends_toward_pole(void **state)
{
    (void)state;
    const ak_vec3 poles[3] = {{2.0f, 0.5f, 0.0f}, {0.0f, 0.5f, 2.0f}, {-1.0f, 0.0f, -2.0f}};
    for (int k = 0; k < 3; ++k) {
        limb_rig rig;
        rig_make(&rig, 0.5f, 0.5f, 0.3f);
        ak_vec3 a = rig.world[1].translation;
        ak_vec3 t = target_at(&rig, 0.7f);
        ak_limb_ik_params p = rig_params(&rig, t);
        p.use_pole = 1;
        p.pole = poles[k];
        assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, NULL, NULL), AK_OK);
        /* The middle joint lies in the plane (a, t, pole), on the pole's side of the line. */
        ak_vec3 dir = ak_vec3_normalize_or(ak_vec3_sub(t, a), ak_vec3_make(0, 1, 0));
        ak_vec3 ap = ak_vec3_sub(p.pole, a), ab = ak_vec3_sub(rig.world[2].translation, a);
        ak_vec3 pp = ak_vec3_sub(ap, ak_vec3_scale(dir, ak_vec3_dot(ap, dir)));
        ak_vec3 bp = ak_vec3_sub(ab, ak_vec3_scale(dir, ak_vec3_dot(ab, dir)));
        assert_true(ak_vec3_dot(pp, bp) > 0.0f);
        assert_true(ak_vec3_length(ak_vec3_cross(ak_vec3_normalize_or(pp, dir),
                                                 ak_vec3_normalize_or(bp, dir))) < 1e-4f);
        assert_true(vdist(rig.world[3].translation, t) < 1e-5f);
        ak_skeleton_destroy(rig.skel);
    }
}

/* A knee near straight, bent a hair forward in one input and a hair backward in the other
 * (mocap knees at heel strike are both): the same target and pole must give nearly the same
 * local rotations. Positions are fixed by target and pole either way; the only freedom left is
 * the thigh's twist about its own axis, and a 1 degree change of input may move it by about
 * as much — 2 degrees here — not the half turn of a bend plane taken from the input's sign. */
static void limb_near_straight_input_does_not_flip_the_twist(void **state)
{
    (void)state;
    const float bends[2] = {0.5f * AK_PI_TEST / 180.0f, -0.5f * AK_PI_TEST / 180.0f};
    ak_quat upper_out[2], middle_out[2];
    for (int k = 0; k < 2; ++k) {
        limb_rig rig;
        rig_make(&rig, 0.5f, 0.5f, bends[k]);
        ak_vec3 a = rig.world[1].translation;
        ak_vec3 t = ak_vec3_add(a, ak_vec3_make(0.05f, -0.85f, 0.1f));
        ak_limb_ik_params p = rig_params(&rig, t);
        p.use_pole = 1;
        p.pole = ak_vec3_add(a, ak_vec3_make(2.0f, -0.4f, 0.3f));
        assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, NULL, NULL), AK_OK);
        assert_true(vdist(rig.world[3].translation, t) < 1e-5f);
        upper_out[k] = rig.local[1].rotation;
        middle_out[k] = rig.local[2].rotation;
        ak_skeleton_destroy(rig.skel);
    }
    const double limit = 2.0 * AK_PI_TEST / 180.0;
    double du = 2.0 * acos(fmin(1.0, fabs((double)ak_quat_dot(upper_out[0], upper_out[1]))));
    double dm = 2.0 * acos(fmin(1.0, fabs((double)ak_quat_dot(middle_out[0], middle_out[1]))));
    printf("  near-straight inputs 1 degree apart: upper %.3f deg, middle %.3f deg apart\n",
           du * 180.0 / AK_PI_TEST, dm * 180.0 / AK_PI_TEST);
    assert_true(du < limit);
    assert_true(dm < limit);
}

/* A limb straight to a bend sine of 1e-5..1e-3 (a mocap knee at mid-stance), 5 m from the
 * origin (a character across the terrain), bent to 0.77 of its reach: the end lands on the
 * target to 10 um. The bend axis from so straight a limb is known only to float precision
 * over its length; before the solve orthogonalised it and turned the residual onto the aim,
 * the end missed by up to 0.3 mm (a planted foot creeping 1-2 cm/s). */
static void limb_nearly_straight_far_from_the_origin_reaches_exactly(void **state)
{
    (void)state;
    const float bends[5] = {1.2e-5f, 2.0e-5f, 5.0e-5f, 2.0e-4f, 1.0e-3f};
    double worst = 0.0;
    for (int k = 0; k < 5; ++k)
        for (int i = 0; i < 8; ++i) {
            limb_rig rig;
            rig_make(&rig, 0.45f, 0.44f, bends[k]);
            rig.local[0].translation = ak_vec3_make(5.6f + 0.013f * (float)i, 1.8f, 3.7f);
            rig.local[1].rotation =
                ak_quat_from_axis_angle(ak_vec3_make(0.3f, 0.1f, 1.0f), 0.05f * (float)i);
            ak_fk(rig.skel, rig.local, rig.world);
            const ak_vec3 a = rig.world[1].translation;
            const ak_vec3 t = ak_vec3_add(a, ak_vec3_make(0.02f, -0.68f, 0.05f));
            ak_limb_ik_params p = rig_params(&rig, t);
            p.use_pole = 1;
            p.pole = ak_vec3_add(a, ak_vec3_make(0.1f, -0.4f, 2.0f));
            assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, NULL, NULL), AK_OK);
            const double e = vdist(rig.world[3].translation, t);
            if (e > worst) worst = e;
            ak_skeleton_destroy(rig.skel);
        }
    printf("  nearly straight limbs 5 m out: worst end error %.2g m\n", worst);
    assert_true(worst < 1e-5);
}

static void limb_colinear_pole_keeps_current_bend_plane(void **state)
{
    (void)state;
    limb_rig rig;
    rig_make(&rig, 0.5f, 0.5f, 0.6f); /* bent about +Z: the limb lies in the XY plane */
    ak_vec3 a = rig.world[1].translation;
    ak_vec3 t = ak_vec3_add(a, ak_vec3_make(0.3f, -0.6f, 0.0f)); /* in that plane too */
    ak_limb_ik_params p = rig_params(&rig, t);
    p.use_pole = 1;
    p.pole = ak_vec3_add(a, ak_vec3_scale(ak_vec3_sub(t, a), 3.0f)); /* on the a->t line */
    ak_ik_result r;
    assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, &r, NULL), AK_OK);
    assert_true(r.reached);
    for (int j = 1; j <= 3; ++j)
        assert_true(fabsf(rig.world[j].translation.z - a.z) < 1e-5f);
    for (int j = 1; j <= 3; ++j)
        assert_true(quat_is_unit(rig.local[j].rotation));
    ak_skeleton_destroy(rig.skel);
}

static void limb_straight_limb_without_pole_bends_about_mid_axis(void **state)
{
    (void)state;
    limb_rig rig;
    rig_make(&rig, 0.5f, 0.5f, 0.0f); /* exactly straight: no bend plane */
    ak_vec3 a = rig.world[1].translation;
    ak_vec3 t = ak_vec3_add(a, ak_vec3_make(0.0f, -0.6f, 0.0f));
    ak_limb_ik_params p = rig_params(&rig, t);
    p.mid_axis = ak_vec3_make(1.0f, 0.0f, 0.0f); /* hinge about X: bends in the YZ plane */
    ak_ik_result r;
    assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, &r, NULL), AK_OK);
    assert_true(r.reached);
    assert_true(fabsf(rig.world[2].translation.x - a.x) < 1e-5f);
    assert_true(fabsf(rig.world[2].translation.z - a.z) > 0.1f);
    ak_skeleton_destroy(rig.skel);
}

static void limb_degenerate_inputs_stay_finite(void **state)
{
    (void)state;
    /* Target on the upper joint, exactly at full reach, 1e6 away, pole on the joint. */
    limb_rig rig;
    rig_make(&rig, 0.6f, 0.5f, 0.2f);
    ak_vec3 a = rig.world[1].translation;
    const ak_vec3 targets[4] = {a, target_at(&rig, 1.1f), target_at(&rig, 1e6f),
                                target_at(&rig, 0.1f)};
    for (int k = 0; k < 4; ++k) {
        for (int pole = 0; pole < 2; ++pole) {
            ak_xform local[6], world[6];
            memcpy(local, rig.local, sizeof local);
            memcpy(world, rig.world, sizeof world);
            ak_limb_ik_params p = rig_params(&rig, targets[k]);
            p.use_pole = pole;
            p.pole = a;
            ak_ik_result r;
            assert_int_equal(ak_limb_ik_run(&p, local, world, &r, NULL), AK_OK);
            assert_true(isfinite(r.error));
            for (int j = 0; j < 6; ++j) {
                assert_true(quat_is_unit(local[j].rotation));
                assert_true(quat_is_unit(world[j].rotation));
                assert_true(isfinite(world[j].translation.x) && isfinite(world[j].translation.y) &&
                            isfinite(world[j].translation.z));
            }
            /* Bones keep their lengths whatever the target. */
            assert_true(fabsf(vdist(world[1].translation, world[2].translation) - 0.6f) < 1e-5f);
            assert_true(fabsf(vdist(world[2].translation, world[3].translation) - 0.5f) < 1e-5f);
        }
    }
    /* Full reach is reached. */
    ak_limb_ik_params p = rig_params(&rig, targets[1]);
    ak_ik_result r;
    assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, &r, NULL), AK_OK);
    assert_true(r.reached);
    ak_skeleton_destroy(rig.skel);
}

static void limb_zero_length_bone_is_degenerate(void **state)
{
    (void)state;
    limb_rig rig;
    rig_make(&rig, 0.6f, 0.0f, 0.2f);
    ak_limb_ik_params p = rig_params(&rig, ak_vec3_make(0.3f, 0.5f, 0.1f));
    ak_xform before[6];
    memcpy(before, rig.local, sizeof before);
    ak_error err;
    assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, NULL, &err), AK_ERR_DEGENERATE);
    assert_int_equal(err.status, AK_ERR_DEGENERATE);
    assert_memory_equal(before, rig.local, sizeof before);
    ak_skeleton_destroy(rig.skel);
}

static void limb_validate_rejects_bad_params(void **state)
{
    (void)state;
    limb_rig rig;
    rig_make(&rig, 0.6f, 0.5f, 0.2f);
    ak_limb_ik_params p = rig_params(&rig, ak_vec3_make(0, 0, 0));
    ak_error err;
    assert_int_equal(ak_limb_ik_validate(&p, &err), AK_OK);
    ak_limb_ik_params q = p;
    q.skeleton = NULL;
    assert_int_equal(ak_limb_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    q = p;
    q.middle = 5; /* not below upper */
    assert_int_equal(ak_limb_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    q = p;
    q.end = 1;
    assert_int_equal(ak_limb_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    q = p;
    q.weight = 1.5f;
    assert_int_equal(ak_limb_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    q = p;
    q.target.x = NAN;
    assert_int_equal(ak_limb_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    q = p;
    q.soft_limit = 1.0f;
    assert_int_equal(ak_limb_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    q = p;
    q.upper = 17;
    assert_int_equal(ak_limb_ik_validate(&q, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "upper"));
    ak_skeleton_destroy(rig.skel);
}

static void limb_weight_zero_is_bitwise_and_half_is_slerp(void **state)
{
    (void)state;
    limb_rig rig;
    rig_make(&rig, 0.6f, 0.5f, 0.3f);
    ak_vec3 t = target_at(&rig, 0.7f);
    ak_xform l0[6], w0[6], lf[6], wf[6], lh[6], wh[6];
    memcpy(l0, rig.local, sizeof l0);
    memcpy(w0, rig.world, sizeof w0);
    ak_limb_ik_params p = rig_params(&rig, t);
    p.weight = 0.0f;
    ak_ik_result r;
    assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, &r, NULL), AK_OK);
    assert_memory_equal(l0, rig.local, sizeof l0);
    assert_memory_equal(w0, rig.world, sizeof w0);
    assert_int_equal(r.iterations, 1);

    memcpy(lf, l0, sizeof lf);
    memcpy(wf, w0, sizeof wf);
    memcpy(lh, l0, sizeof lh);
    memcpy(wh, w0, sizeof wh);
    p.weight = 1.0f;
    assert_int_equal(ak_limb_ik_run(&p, lf, wf, NULL, NULL), AK_OK);
    p.weight = 0.5f;
    assert_int_equal(ak_limb_ik_run(&p, lh, wh, &r, NULL), AK_OK);
    assert_false(r.reached);
    for (int j = 1; j <= 2; ++j) {
        ak_quat expect = ak_quat_slerp(l0[j].rotation, lf[j].rotation, 0.5f);
        assert_true(fabsf(fabsf(ak_quat_dot(expect, lh[j].rotation)) - 1.0f) < 1e-5f);
    }
    assert_true(xform_equal_bits(lh[3], l0[3]));
    ak_skeleton_destroy(rig.skel);
}

static void limb_corrections_match_run(void **state)
{
    (void)state;
    limb_rig rig;
    rig_make(&rig, 0.6f, 0.5f, 0.3f);
    ak_vec3 t = target_at(&rig, 0.9f);
    ak_limb_ik_params p = rig_params(&rig, t);
    p.use_pole = 1;
    p.pole = ak_vec3_make(0.0f, 0.5f, 3.0f);
    ak_quat cu, cm;
    ak_ik_result r;
    assert_int_equal(ak_limb_ik_solve(&p, rig.local, rig.world, &cu, &cm, NULL, &r, NULL), AK_OK);
    assert_true(r.reached);
    ak_xform local[6], world[6];
    memcpy(local, rig.local, sizeof local);
    local[1].rotation = ak_quat_mul(local[1].rotation, cu);
    local[2].rotation = ak_quat_mul(local[2].rotation, cm);
    ak_fk(rig.skel, local, world);
    assert_true(vdist(world[3].translation, t) < 1e-5f);
    assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, NULL, NULL), AK_OK);
    for (int j = 0; j < 6; ++j)
        assert_true(vdist(world[j].translation, rig.world[j].translation) < 1e-6f);
    ak_skeleton_destroy(rig.skel);
}

static void limb_matches_end_rotation(void **state)
{
    (void)state;
    limb_rig rig;
    rig_make(&rig, 0.6f, 0.5f, 0.3f);
    ak_limb_ik_params p = rig_params(&rig, target_at(&rig, 0.8f));
    p.match_end_rotation = 1;
    p.end_rotation = ak_quat_from_axis_angle(ak_vec3_make(1, 2, 3), 0.7f);
    assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, NULL, NULL), AK_OK);
    assert_true(fabsf(fabsf(ak_quat_dot(rig.world[3].rotation, p.end_rotation)) - 1.0f) < 1e-5f);
    assert_true(vdist(rig.world[3].translation, p.target) < 1e-5f);
    ak_skeleton_destroy(rig.skel);
}

static void limb_soft_limit_eases_into_full_reach(void **state)
{
    (void)state;
    /* With soft_limit 0.9 the reached distance grows monotonically and stays short of full
     * extension for targets at and just beyond the reach; below 0.9 L it is exact. */
    float prev = 0.0f;
    for (int k = 0; k <= 40; ++k) {
        float d = 0.85f + 0.01f * (float)k; /* 0.85 .. 1.25 of L=1.1 */
        limb_rig rig;
        rig_make(&rig, 0.6f, 0.5f, 0.3f);
        ak_vec3 a = rig.world[1].translation;
        ak_limb_ik_params p = rig_params(&rig, target_at(&rig, d));
        p.soft_limit = 0.9f;
        ak_ik_result r;
        assert_int_equal(ak_limb_ik_run(&p, rig.local, rig.world, &r, NULL), AK_OK);
        float reached = vdist(rig.world[3].translation, a);
        if (d < 0.9f * 1.1f) assert_true(fabsf(reached - d) < 1e-5f);
        assert_true(reached >= prev - 1e-6f);
        assert_true(reached < 1.1f - 1e-4f);
        prev = reached;
        ak_skeleton_destroy(rig.skel);
    }
}

/* Random limbs (random bone directions and lengths, random bent poses) and targets made by FK
 * of random rotations: always reached, bones kept, other joints untouched, child rigid. */
static void limb_property_random_limbs_reach_reachable_targets(void **state)
{
    (void)state;
    test_rng rng = {0x9E3779B97F4A7C15ULL};
    int cases = 0;
    for (int it = 0; it < 10000; ++it) {
        test_chain tc;
        assert_int_equal(test_chain_make(&tc, &rng, 3, 0.05f, 2.0f, 0), 0);
        ak_xform local[6], world[6], goal_local[6], goal_world[6];
        test_random_pose(&tc, &rng, 3.0f, goal_local);
        ak_fk(tc.skel, goal_local, goal_world);
        test_random_pose(&tc, &rng, 3.0f, local);
        ak_fk(tc.skel, local, world);
        ak_xform before_world[6];
        memcpy(before_world, world, sizeof world);

        ak_limb_ik_params p = ak_limb_ik_defaults();
        p.skeleton = tc.skel;
        p.upper = 1;
        p.middle = 2;
        p.end = 3;
        p.target = goal_world[3].translation;
        p.use_pole = (it & 1);
        p.pole = ak_vec3_add(world[2].translation, rng_dir(&rng));
        ak_ik_result r;
        assert_int_equal(ak_limb_ik_run(&p, local, world, &r, NULL), AK_OK);
        float l1 = tc.skel->bone_lengths[2], l2 = tc.skel->bone_lengths[3];
        assert_true(r.reached);
        assert_true(r.error <= 1e-4f * (l1 + l2));
        assert_true(fabsf(vdist(world[1].translation, world[2].translation) - l1) <=
                    1e-5f * l1 + 1e-6f);
        assert_true(fabsf(vdist(world[2].translation, world[3].translation) - l2) <=
                    1e-5f * l2 + 1e-6f);
        /* Outside the chain: untouched, bit for bit. */
        assert_true(xform_equal_bits(world[0], before_world[0]));
        assert_true(xform_equal_bits(world[5], before_world[5]));
        assert_memory_equal(&world[1].translation, &before_world[1].translation, sizeof(ak_vec3));
        /* The tip's child moves rigidly with the tip. */
        ak_vec3 off = ak_quat_rotate(world[3].rotation, tc.skel->rest_local[4].translation);
        assert_true(vdist(ak_vec3_add(world[3].translation, off), world[4].translation) < 1e-5f);
        for (int j = 0; j < 6; ++j)
            assert_true(quat_is_unit(local[j].rotation));
        test_chain_free(&tc);
        ++cases;
    }
    assert_int_equal(cases, 10000);
}

/* Reachable targets just inside the folded and the straight limit (d within 1e-3 of the reach
 * from |l1 - l2| or from l1 + l2), random limbs in random poses: the end joint lands on the
 * target to float precision of the reach (64 roundings: the pose's own FK and a few dozen
 * roundings of unit quantities). The sines of the solved angles from sqrt(1 - cos^2) of the
 * law of cosines lost half their digits there: the end missed by up to 1,500 roundings
 * (1.8e-4 of the reach) near folded and 225 near straight. */
static void limb_lands_near_folded_and_straight_targets(void **state)
{
    (void)state;
    const char *names[4] = {"root", "upper", "middle", "end"};
    int32_t parents[4] = {-1, 0, 1, 2};
    test_rng rng = {77};
    double worst = 0.0;
    for (int k = 0; k < 4000; ++k) {
        const float l1 = rng_range(&rng, 0.05f, 2.0f), l2 = rng_range(&rng, 0.05f, 2.0f);
        ak_xform rest[4], local[4], world[4];
        for (int j = 0; j < 4; ++j)
            rest[j] = ak_xform_identity();
        rest[2].translation = ak_vec3_make(0.0f, -l1, 0.0f);
        rest[3].translation = ak_vec3_make(0.0f, -l2, 0.0f);
        ak_skeleton_desc desc = {4, names, parents, rest, NULL, NULL};
        ak_skeleton *skel = NULL;
        assert_int_equal(ak_skeleton_create(&desc, &skel, NULL), AK_OK);
        ak_pose_rest(skel, local);
        for (int j = 0; j < 3; ++j)
            local[j].rotation = rng_quat(&rng, 3.1f);
        ak_fk(skel, local, world);
        const float reach = l1 + l2, span = 1.0f - rng_range(&rng, 2e-5f, 1e-3f);
        const float dist = k & 1 ? fabsf(l1 - l2) + reach * (1.0f - span) : reach * span;
        ak_limb_ik_params p = ak_limb_ik_defaults();
        p.skeleton = skel;
        p.upper = 1;
        p.middle = 2;
        p.end = 3;
        p.target = ak_vec3_add(world[1].translation, ak_vec3_scale(rng_dir(&rng), dist));
        ak_ik_result r;
        assert_int_equal(ak_limb_ik_run(&p, local, world, &r, NULL), AK_OK);
        assert_true(r.reached);
        worst = fmax(worst, vdist(world[3].translation, p.target) / (FLT_EPSILON * reach));
        ak_skeleton_destroy(skel);
    }
    printf("limb near folded and straight targets: worst end miss %.1f roundings of the reach\n",
           worst);
    assert_true(worst < 64.0);
}

/* The packed solve (SSE) against the scalar one, the reference formulas, on random limbs (bone
 * lengths 0.05-2, any bend down to straight, any middle-joint rotation), targets from the upper
 * joint to 1.6x the reach (unreachable ones straighten), on the upper joint (degenerate), half
 * with a pole, some with a soft limit. Where the packed solve declines (a nearly straight limb,
 * an unusable pole, a target on the joint, the middle joint near a half turn) the scalar one
 * decides.
 * Both evaluate the same angles on the same unit vectors, by formulas that round differently
 * (the packed one as half-angle products, the upper rotation as the frame change onto the aim
 * then the lift off it): the bend axis e1 x u_bc has length sin_n and its rounding is amplified
 * by 1/sin_n when it is normalised, the trace forms' by at most 1/(4 w) = 1 (1 + tr = 4 w^2 >
 * 0.25, else Shepperd's branches), and the target's angles come from Heron's factors in both;
 * so the bound is a few dozen roundings (FLT_EPSILON each) times 1/sin_n. */
static void limb_packed_solve_matches_scalar(void **state)
{
    (void)state;
#ifdef AK_HAVE_SSE
    limb_rig rig;
    rig_make(&rig, 0.5f, 0.5f, 0.3f);
    test_rng rng = {0x5DEECE66DULL};
    int packed = 0, declined_straight = 0;
    double worst_q = 0.0, worst_end = 0.0;
    for (int k = 0; k < 40000; ++k) {
        ak_xform model[6];
        memcpy(model, rig.world, sizeof model);
        const float l1 = rng_range(&rng, 0.05f, 2.0f), l2 = rng_range(&rng, 0.05f, 2.0f);
        const ak_vec3 a = ak_vec3_scale(rng_dir(&rng), rng_range(&rng, 0.0f, 3.0f));
        const ak_vec3 u1 = rng_dir(&rng);
        /* Every third limb nearly straight (bent by up to 0.03 rad about a random axis). */
        const ak_vec3 u2 = k % 3 ? rng_dir(&rng) : ak_quat_rotate(rng_quat(&rng, 0.03f), u1);
        const ak_vec3 b = ak_vec3_add(a, ak_vec3_scale(u1, l1));
        model[1].translation = a;
        model[2].translation = b;
        model[3].translation = ak_vec3_add(b, ak_vec3_scale(u2, l2));
        model[1].rotation = rng_quat(&rng, 3.1f);
        model[2].rotation = rng_quat(&rng, 3.1f);
        const float reach = l1 + l2;
        const float dist = k % 13 == 0 ? 0.0f : reach * rng_range(&rng, 0.0f, 1.6f);
        ak_limb_ik_params p = rig_params(&rig, ak_vec3_add(a, ak_vec3_scale(rng_dir(&rng), dist)));
        p.use_pole = k & 1;
        p.pole = ak_vec3_add(b, ak_vec3_scale(rng_dir(&rng), rng_range(&rng, 0.01f, 3.0f)));
        p.soft_limit = k % 5 == 0 ? rng_range(&rng, 0.0f, 0.99f) : 0.0f;
        assert_int_equal(ak_limb_ik_validate(&p, NULL), AK_OK);
        ik_limb_solution s, v;
        assert_int_equal(ik_limb_model_scalar(&p, model, &s, NULL), AK_OK);
        const float sin_n = ak_vec3_length(ak_vec3_cross(u1, u2));
        if (!ik_limb_model_sse(&p, model, &v)) {
            declined_straight += sin_n < 1e-2f;
            continue;
        }
        assert_true(sin_n > 0.99e-2f); /* nearly straight limbs are the scalar solve's */
        ++packed;
        assert_int_equal(s.unreachable, v.unreachable);
        assert_true(s.reach == v.reach);
        const double cond = 1.0 / sin_n;
        const float *qs = &s.r_upper_model.x, *qv = &v.r_upper_model.x;
        const float *ms = &s.r_middle_model.x, *mv = &v.r_middle_model.x;
        for (int i = 0; i < 4; ++i) {
            const double d = fmax(fabs((double)qs[i] - qv[i]), fabs((double)ms[i] - mv[i]));
            worst_q = fmax(worst_q, d / (FLT_EPSILON * cond));
        }
        worst_end = fmax(worst_end, vdist(s.end_model, v.end_model) / (FLT_EPSILON * reach));
    }
    printf("limb packed vs scalar over %d solves: worst rotation component difference %.2f "
           "roundings x condition, end joint %.2f roundings of the reach; %d nearly straight "
           "limbs left to the scalar solve\n",
           packed, worst_q, worst_end, declined_straight);
    assert_true(packed > 20000);
    assert_true(declined_straight > 5000);
    assert_true(worst_q < 32.0);
    assert_true(worst_end < 8.0);
    ak_skeleton_destroy(rig.skel);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limb_matches_spec_worked_numbers),
        cmocka_unit_test(limb_reaches_targets_within_tolerance),
        cmocka_unit_test(limb_unreachable_target_straightens_toward_it),
        cmocka_unit_test(limb_bends_toward_pole),
        cmocka_unit_test(limb_near_straight_input_does_not_flip_the_twist),
        cmocka_unit_test(limb_nearly_straight_far_from_the_origin_reaches_exactly),
        cmocka_unit_test(limb_colinear_pole_keeps_current_bend_plane),
        cmocka_unit_test(limb_straight_limb_without_pole_bends_about_mid_axis),
        cmocka_unit_test(limb_degenerate_inputs_stay_finite),
        cmocka_unit_test(limb_zero_length_bone_is_degenerate),
        cmocka_unit_test(limb_validate_rejects_bad_params),
        cmocka_unit_test(limb_weight_zero_is_bitwise_and_half_is_slerp),
        cmocka_unit_test(limb_corrections_match_run),
        cmocka_unit_test(limb_matches_end_rotation),
        cmocka_unit_test(limb_soft_limit_eases_into_full_reach),
        cmocka_unit_test(limb_property_random_limbs_reach_reachable_targets),
        cmocka_unit_test(limb_lands_near_folded_and_straight_targets),
        cmocka_unit_test(limb_packed_solve_matches_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
