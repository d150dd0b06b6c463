/* The plugin's IK calls (src/plugin/plugin_ik.c): the limb and look-at params' defaults are
 * the library's mirrored into Unity's frame, every float field out of its range is refused
 * with the field's name, and each call gives the library's ak_limb_ik_run / ak_look_at_run
 * result on the same rig (loaded by both from one BVH text) mirrored: S R S for rotations,
 * z negated for points (S = diag(1,1,-1)). Worked numbers in Unity's frame stay in
 * test_plugin_abi.c. */
#include "test_params.h"

#include "animkit/plugin.h"

/* A leg bent out of line (Upper at the origin, Mid 0.6 below and 0.1 forward, End 0.5 below
 * Mid and 0.05 aside) with a toe, so every axis of the mirror is exercised. */
static const char k_leg_bvh[] =
    "HIERARCHY\nROOT Upper\n{\n OFFSET 0 0 0\n"
    " CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
    " JOINT Mid\n {\n  OFFSET 0 -0.6 0.1\n  CHANNELS 3 Zrotation Yrotation Xrotation\n"
    "  JOINT End\n  {\n   OFFSET 0.05 -0.5 0\n   CHANNELS 3 Zrotation Yrotation Xrotation\n"
    "   JOINT Toe\n   {\n    OFFSET 0 -0.05 0.12\n    CHANNELS 3 Zrotation Yrotation Xrotation\n"
    "    End Site\n    {\n     OFFSET 0 0 0.05\n    }\n   }\n  }\n }\n}\n"
    "MOTION\nFrames: 1\nFrame Time: 0.1\n0.1 0.9 -0.2 10 20 5 -15 5 30 10 -5 0 20 0 0\n";
enum { J = 5 };

typedef struct rig {
    ak_handle s, c;        /* the plugin's */
    ak_skeleton *skeleton; /* the library's */
    ak_clip *clip;
} rig;

static void rig_load(rig *r)
{
    char err[256];
    int32_t st = ak_plugin_bvh_load_memory(k_leg_bvh, (int32_t)strlen(k_leg_bvh), 1.0f, 0, &r->s,
                                           &r->c, err, sizeof err);
    if (st != AK_OK) fail_msg("plugin load: %s", err);
    ak_error e;
    assert_int_equal(
        ak_bvh_read_memory(k_leg_bvh, strlen(k_leg_bvh), NULL, &r->skeleton, &r->clip, &e), AK_OK);
    assert_int_equal(r->skeleton->joint_count, J);
}

static void rig_free(rig *r)
{
    assert_int_equal(ak_plugin_destroy(r->s), AK_OK);
    assert_int_equal(ak_plugin_destroy(r->c), AK_OK);
    ak_skeleton_destroy(r->skeleton);
    ak_clip_destroy(r->clip);
}

static ak_vec3 mirror_point(ak_vec3 p)
{
    return ak_vec3_make(p.x, p.y, -p.z);
}

static ak_quat mirror_rotation(ak_quat q)
{
    ak_quat m = {-q.x, -q.y, q.z, q.w};
    return m;
}

/* The frame-0 pose both ways: the plugin's (Unity frame) and the library's. */
static void rig_pose(const rig *r, ak_plugin_xform *local, ak_plugin_xform *model,
                     ak_xform *lib_local, ak_xform *lib_model)
{
    assert_int_equal(ak_plugin_clip_sample(r->c, r->s, 0.0f, AK_INTERP_LINEAR, local, J), AK_OK);
    assert_int_equal(ak_plugin_fk(r->s, local, model, J), AK_OK);
    ak_clip_frame(r->clip, r->skeleton, 0, lib_local);
    ak_fk(r->skeleton, lib_local, lib_model);
}

/* Plugin pose == library pose mirrored, to float rounding (1e-5 m, 1e-5 per component up to
 * the quaternion's sign). */
static void assert_same_pose(const ak_plugin_xform *plugin, const ak_xform *lib, const char *what)
{
    for (int32_t j = 0; j < J; ++j) {
        const ak_vec3 p = mirror_point(lib[j].translation);
        const ak_quat q = mirror_rotation(lib[j].rotation);
        const ak_quat u = plugin[j].rotation;
        const float dot = fabsf(q.x * u.x + q.y * u.y + q.z * u.z + q.w * u.w);
        if (!(ak_vec3_length(ak_vec3_sub(p, plugin[j].position)) <= 1e-5f && dot >= 1.0f - 1e-6f))
            fail_msg("%s: joint %d differs from the library's (dot %.8f)", what, (int)j,
                     (double)dot);
    }
}

/* A float field of a plugin params struct, by the library's name for it. */
typedef struct pfield {
    const char *name;
    size_t offset;
} pfield;

/* One plugin IK call on a copy of `params` with fresh poses: its status and message. */
typedef int32_t (*ik_call)(const rig *r, const void *params, char *err, int32_t size);

/* Every row of the library's range table `t`: the plugin struct has the field (`fields`), and
 * the call refuses it just past each bound, infinite, and NaN (unless the row takes NaN), with
 * AK_ERR_INVALID_ARG and a message naming the field, `prefix` first. */
static void probe_library_rows(const rig *r, const ak_param_table *t, const pfield *fields,
                               size_t n, const void *params, size_t size, ik_call call,
                               const char *prefix)
{
    unsigned char q[256];
    assert_true(size <= sizeof q);
    for (int32_t i = 0; i < t->count; ++i) {
        const ak_param_range *row = &t->ranges[i];
        const pfield *f = NULL;
        for (size_t k = 0; k < n; ++k)
            if (strcmp(fields[k].name, row->field) == 0) f = &fields[k];
        if (!f) fail_msg("%s: the plugin struct has no %s", t->params, row->field);
        const float bad[] = {nextafterf(row->hi, INFINITY) + fabsf(row->hi) * 1e-3f,
                             nextafterf(row->lo, -INFINITY) - fabsf(row->lo) * 1e-3f, INFINITY,
                             NAN};
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b) {
            if (isnan(bad[b]) && row->nan_ok) continue;
            memcpy(q, params, size);
            memcpy(q + f->offset, &bad[b], sizeof(float));
            char err[256] = "";
            const int32_t st = call(r, q, err, (int32_t)sizeof err);
            if (st != AK_ERR_INVALID_ARG || !strstr(err, prefix) ||
                !akt_names_field(err, row->field))
                fail_msg("%s = %g: status %d, '%s'", row->field, (double)bad[b], (int)st, err);
        }
    }
}

static int32_t limb_call(const rig *r, const void *params, char *err, int32_t size)
{
    ak_plugin_xform local[J], model[J], before[J];
    ak_xform lib_local[J], lib_model[J];
    rig_pose(r, local, model, lib_local, lib_model);
    memcpy(before, local, sizeof before);
    ak_plugin_ik_result res;
    const int32_t st =
        ak_plugin_limb_ik(r->s, (const ak_plugin_limb_ik_params *)params, local, model, J, &res);
    ak_plugin_last_error(r->s, err, size);
    if (st != AK_OK) assert_memory_equal(local, before, sizeof before);
    return st;
}

static int32_t look_at_call(const rig *r, const void *params, char *err, int32_t size)
{
    static const int32_t chain[3] = {1, 2, 3};
    ak_plugin_xform local[J], model[J];
    ak_xform lib_local[J], lib_model[J];
    rig_pose(r, local, model, lib_local, lib_model);
    ak_plugin_ik_result res;
    const int32_t st = ak_plugin_look_at(
        r->s, chain, NULL, 3, (const ak_plugin_look_at_params *)params, local, model, J, &res);
    ak_plugin_last_error(r->s, err, size);
    return st;
}

#define LIMB_V(f)                                                                                  \
    {#f ".x", offsetof(ak_plugin_limb_ik_params, f.x)},                                            \
        {#f ".y", offsetof(ak_plugin_limb_ik_params, f.y)},                                        \
    {                                                                                              \
#f ".z", offsetof(ak_plugin_limb_ik_params, f.z)                                           \
    }
static const pfield k_limb_fields[] = {
    LIMB_V(target),
    LIMB_V(pole),
    LIMB_V(mid_axis),
    {"soft_limit", offsetof(ak_plugin_limb_ik_params, soft_limit)},
    {"tolerance", offsetof(ak_plugin_limb_ik_params, tolerance)},
    {"weight", offsetof(ak_plugin_limb_ik_params, weight)},
};
#define LOOK_V(f)                                                                                  \
    {#f ".x", offsetof(ak_plugin_look_at_params, f.x)},                                            \
        {#f ".y", offsetof(ak_plugin_look_at_params, f.y)},                                        \
    {                                                                                              \
#f ".z", offsetof(ak_plugin_look_at_params, f.z)                                           \
    }
static const pfield k_look_fields[] = {
    LOOK_V(target),
    LOOK_V(forward),
    LOOK_V(up),
    LOOK_V(up_model),
    {"clamp_weight", offsetof(ak_plugin_look_at_params, clamp_weight)},
    {"tolerance", offsetof(ak_plugin_look_at_params, tolerance)},
    {"weight", offsetof(ak_plugin_look_at_params, weight)},
};

/* Validity: the defaults are the library's mirrored; with joints set they run; NULL params and
 * every float field of the library's range table just past a bound, infinite or NaN are
 * refused, the message naming the field, the pose untouched. */
static void limb_params_validity(void **state)
{
    (void)state;
    rig r;
    rig_load(&r);
    ak_plugin_limb_ik_params p;
    assert_int_equal(ak_plugin_limb_ik_defaults(NULL), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_limb_ik_defaults(&p), AK_OK);
    const ak_limb_ik_params d = ak_limb_ik_defaults();
    assert_int_equal(p.upper, -1);
    assert_int_equal(p.middle, -1);
    assert_int_equal(p.end, -1);
    assert_int_equal(p.use_pole, d.use_pole);
    assert_int_equal(p.match_end_rotation, d.match_end_rotation);
    AKT_NEAR(p.mid_axis.x, -d.mid_axis.x, 0);
    AKT_NEAR(p.mid_axis.y, -d.mid_axis.y, 0);
    AKT_NEAR(p.mid_axis.z, d.mid_axis.z, 0);
    AKT_NEAR(p.pole.z, -d.pole.z, 0);
    AKT_NEAR(p.soft_limit, d.soft_limit, 0);
    AKT_NEAR(p.tolerance, d.tolerance, 0);
    AKT_NEAR(p.weight, d.weight, 0);
    AKT_NEAR(p.end_rotation.w, d.end_rotation.w, 0);
    ak_plugin_xform local[J], model[J];
    ak_xform lib_local[J], lib_model[J];
    rig_pose(&r, local, model, lib_local, lib_model);
    ak_plugin_ik_result res;
    char err[256];
    /* the defaults' joints (-1) are refused: a chain must be named */
    assert_int_equal(ak_plugin_limb_ik(r.s, &p, local, model, J, &res), AK_ERR_INVALID_ARG);
    p.upper = 0;
    p.middle = 1;
    p.end = 2;
    p.target = model[2].position; /* where the ankle is: reached, nothing moves */
    assert_int_equal(ak_plugin_limb_ik(r.s, &p, local, model, J, &res), AK_OK);
    assert_int_equal(res.reached, 1);
    assert_int_equal(ak_plugin_limb_ik(r.s, NULL, local, model, J, &res), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(r.s, err, sizeof err);
    assert_string_equal(err, "params is null");
    probe_library_rows(&r, ak_limb_ik_param_ranges(), k_limb_fields,
                       sizeof k_limb_fields / sizeof k_limb_fields[0], &p, sizeof p, limb_call,
                       "limb IK: ");
    rig_free(&r);
}

static void look_at_params_validity(void **state)
{
    (void)state;
    rig r;
    rig_load(&r);
    ak_plugin_look_at_params p;
    assert_int_equal(ak_plugin_look_at_defaults(NULL), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_look_at_defaults(&p), AK_OK);
    const ak_look_at_params d = ak_look_at_defaults();
    const ak_vec3 forward = mirror_point(d.forward), up = mirror_point(d.up);
    AKT_NEAR(p.forward.x, forward.x, 0);
    AKT_NEAR(p.forward.z, forward.z, 0);
    AKT_NEAR(p.up.y, up.y, 0);
    AKT_NEAR(p.up_model.y, d.up_model.y, 0);
    AKT_NEAR(p.clamp_weight, d.clamp_weight, 0);
    AKT_NEAR(p.tolerance, d.tolerance, 0);
    AKT_NEAR(p.weight, d.weight, 0);
    ak_plugin_xform local[J], model[J];
    ak_xform lib_local[J], lib_model[J];
    rig_pose(&r, local, model, lib_local, lib_model);
    const int32_t chain[3] = {1, 2, 3};
    ak_plugin_ik_result res;
    char err[256];
    p.target = ak_vec3_make(0.5f, 0.2f, 1.0f);
    assert_int_equal(ak_plugin_look_at(r.s, chain, NULL, 3, &p, local, model, J, &res), AK_OK);
    assert_int_equal(ak_plugin_look_at(r.s, NULL, NULL, 3, &p, local, model, J, &res),
                     AK_ERR_INVALID_ARG);
    ak_plugin_last_error(r.s, err, sizeof err);
    assert_string_equal(err, "params and chain are required");
    probe_library_rows(&r, ak_look_at_param_ranges(), k_look_fields,
                       sizeof k_look_fields / sizeof k_look_fields[0], &p, sizeof p, look_at_call,
                       "look-at: ");
    rig_free(&r);
}

/* 40 random targets around the leg, with and without a pole, at weights 1 and 0.5, with a
 * soft limit on half: the plugin's pose is the library's mirrored, and its result the same. */
static void limb_ik_gives_the_library_result_mirrored(void **state)
{
    (void)state;
    rig r;
    rig_load(&r);
    akt_rng rng = {0x1b2c3d4e5f60718ULL};
    for (int k = 0; k < 40; ++k) {
        ak_plugin_xform local[J], model[J];
        ak_xform lib_local[J], lib_model[J];
        rig_pose(&r, local, model, lib_local, lib_model);
        ak_limb_ik_params lp = ak_limb_ik_defaults();
        lp.skeleton = r.skeleton;
        lp.upper = 0;
        lp.middle = 1;
        lp.end = 2;
        lp.target =
            ak_vec3_add(lib_model[0].translation,
                        ak_vec3_make(akt_uniform(&rng, -0.8f, 0.8f), akt_uniform(&rng, -1.2f, 0.2f),
                                     akt_uniform(&rng, -0.8f, 0.8f)));
        lp.use_pole = k % 2;
        lp.pole = ak_vec3_add(lib_model[1].translation, ak_vec3_make(0.0f, 0.0f, 1.0f));
        lp.soft_limit = k % 4 < 2 ? 0.0f : 0.9f;
        lp.weight = k % 3 == 0 ? 0.5f : 1.0f;
        ak_plugin_limb_ik_params pp;
        ak_plugin_limb_ik_defaults(&pp);
        pp.upper = 0;
        pp.middle = 1;
        pp.end = 2;
        pp.target = mirror_point(lp.target);
        pp.use_pole = lp.use_pole;
        pp.pole = mirror_point(lp.pole);
        pp.soft_limit = lp.soft_limit;
        pp.weight = lp.weight;
        ak_ik_result lr;
        ak_error e;
        ak_plugin_ik_result pr;
        const ak_quat toe_before = local[3].rotation;
        assert_int_equal(ak_limb_ik_run(&lp, lib_local, lib_model, &lr, &e), AK_OK);
        assert_int_equal(ak_plugin_limb_ik(r.s, &pp, local, model, J, &pr), AK_OK);
        assert_same_pose(local, lib_local, "limb local");
        assert_same_pose(model, lib_model, "limb model");
        assert_int_equal(pr.reached, lr.reached);
        assert_int_equal(pr.unreachable, lr.unreachable);
        assert_int_equal(pr.iterations, lr.iterations);
        AKT_NEAR(pr.error, lr.error, 1e-5);
        /* the toe (outside the chain) kept its local rotation */
        assert_memory_equal(&local[3].rotation, &toe_before, sizeof toe_before);
    }
    rig_free(&r);
}

/* Look-at over Mid..Toe with uneven shares and a clamp: the library's result mirrored. */
static void look_at_gives_the_library_result_mirrored(void **state)
{
    (void)state;
    rig r;
    rig_load(&r);
    akt_rng rng = {0x77aa55cc33ee11ULL};
    const int32_t chain[3] = {1, 2, 3};
    const float shares[3] = {0.2f, 0.3f, 1.0f};
    for (int k = 0; k < 20; ++k) {
        ak_plugin_xform local[J], model[J];
        ak_xform lib_local[J], lib_model[J];
        rig_pose(&r, local, model, lib_local, lib_model);
        ak_look_at_params lp = ak_look_at_defaults();
        lp.skeleton = r.skeleton;
        lp.chain = chain;
        lp.chain_length = 3;
        lp.joint_weights = k % 2 ? shares : NULL;
        lp.target = ak_vec3_make(akt_uniform(&rng, -2.0f, 2.0f), akt_uniform(&rng, -1.0f, 2.0f),
                                 akt_uniform(&rng, -2.0f, 2.0f));
        lp.clamp_weight = k % 3 == 0 ? 0.4f : 0.0f;
        ak_plugin_look_at_params pp;
        ak_plugin_look_at_defaults(&pp);
        pp.target = mirror_point(lp.target);
        pp.clamp_weight = lp.clamp_weight;
        ak_ik_result lr;
        ak_error e;
        ak_plugin_ik_result pr;
        assert_int_equal(ak_look_at_run(&lp, lib_local, lib_model, &lr, &e), AK_OK);
        assert_int_equal(
            ak_plugin_look_at(r.s, chain, lp.joint_weights, 3, &pp, local, model, J, &pr), AK_OK);
        assert_same_pose(local, lib_local, "look-at local");
        assert_same_pose(model, lib_model, "look-at model");
        assert_int_equal(pr.reached, lr.reached);
        assert_int_equal(pr.iterations, lr.iterations);
        AKT_NEAR(pr.error, lr.error, 1e-5);
    }
    rig_free(&r);
}

/* A buffer shorter than the skeleton, a non-finite pose and a clip handle are refused. */
static void short_buffers_bad_poses_and_wrong_handles_are_refused(void **state)
{
    (void)state;
    rig r;
    rig_load(&r);
    ak_plugin_xform local[J], model[J];
    ak_xform lib_local[J], lib_model[J];
    rig_pose(&r, local, model, lib_local, lib_model);
    ak_plugin_limb_ik_params p;
    ak_plugin_limb_ik_defaults(&p);
    p.upper = 0;
    p.middle = 1;
    p.end = 2;
    ak_plugin_ik_result res;
    char err[256];
    assert_int_equal(ak_plugin_limb_ik(r.s, &p, local, model, J - 1, &res), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(r.s, err, sizeof err);
    assert_string_equal(err, "local holds 4 entries, the skeleton has 5 joints");
    model[3].position.x = NAN;
    assert_int_equal(ak_plugin_limb_ik(r.s, &p, local, model, J, &res), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(r.s, err, sizeof err);
    assert_non_null(strstr(err, "model[3]"));
    assert_int_equal(ak_plugin_limb_ik(r.c, &p, local, model, J, &res), AK_PLUGIN_ERR_HANDLE);
    const int32_t chain[2] = {0, 1};
    ak_plugin_look_at_params q;
    ak_plugin_look_at_defaults(&q);
    assert_int_equal(ak_plugin_look_at(r.c, chain, NULL, 2, &q, local, model, J, &res),
                     AK_PLUGIN_ERR_HANDLE);
    rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limb_params_validity),
        cmocka_unit_test(look_at_params_validity),
        cmocka_unit_test(limb_ik_gives_the_library_result_mirrored),
        cmocka_unit_test(look_at_gives_the_library_result_mirrored),
        cmocka_unit_test(short_buffers_bad_poses_and_wrong_handles_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
