/* The generated body mesh (src/anim/body.c): ak_body_params refused field by field through
 * ak_body_validate and ak_body_mesh_create, then (moved from test_skin.c) the body of the
 * built-in biped and of a CMU rig keeps its invariants (valid normalised influences, unit
 * normals, a closed surface that skins to itself in the rest pose, feet boxes); more sides or
 * rings give more vertices and triangles. Last, another studio's still joint_Root above the
 * hips is not part of the body: the still-top copy's body is the original's. */
#include "test_params.h"
#include "locomotion/studio_variants.h"

#include "animkit/skin.h"
#include "animkit/walkclip.h"

static int32_t body_validate(const void *params, ak_error *err)
{
    return ak_body_validate((const ak_body_params *)params, err);
}

static ak_skeleton *g_sk;

static int32_t body_create(const void *params, ak_error *err)
{
    ak_body_mesh *m = (ak_body_mesh *)(uintptr_t)1;
    if (!params) return ak_body_validate(NULL, err); /* the creator's NULL means defaults */
    const int32_t st = ak_body_mesh_create(g_sk, (const ak_body_params *)params, &m, err);
    if (st != AK_OK) assert_null(m);
    ak_body_mesh_destroy(st == AK_OK ? m : NULL);
    return st;
}

static void body_params_validity(void **state)
{
    (void)state;
    g_sk = akt_line_skeleton(3, 0.5f);
    const ak_body_params d = ak_body_defaults();
    AKT_NEAR(d.thickness, 1.0f, 0.0);
    assert_int_equal(d.feet, 1);
    assert_int_equal(d.sides, 12);
    assert_int_equal(d.rings, 6);
    akt_expect_refused(body_validate, &d, AK_OK, NULL, "defaults");
    akt_expect_refused(body_create, &d, AK_OK, NULL, "defaults create");
    akt_expect_refused(body_validate, NULL, AK_ERR_INVALID_ARG, NULL, "NULL");
    const float bad[] = {NAN, INFINITY, -INFINITY, 0.0f, -1.0f, 4.001f, 1e20f};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ak_body_params p = d;
        p.thickness = bad[i];
        akt_expect_refused(body_validate, &p, AK_ERR_INVALID_ARG, "thickness", "thickness");
        akt_expect_refused(body_create, &p, AK_ERR_INVALID_ARG, "thickness", "create thickness");
    }
    const struct {
        size_t offset;
        const char *field;
        int32_t bad[4];
    } ints[] = {{offsetof(ak_body_params, feet), "feet", {2, -1, 100, INT32_MIN}},
                {offsetof(ak_body_params, sides), "sides", {3, 65, 0, -12}},
                {offsetof(ak_body_params, rings), "rings", {1, 65, 0, INT32_MAX}}};
    for (size_t f = 0; f < 3; ++f)
        for (int i = 0; i < 4; ++i) {
            ak_body_params p = d;
            memcpy((char *)&p + ints[f].offset, &ints[f].bad[i], sizeof(int32_t));
            akt_expect_refused(body_validate, &p, AK_ERR_INVALID_ARG, ints[f].field, ints[f].field);
            akt_expect_refused(body_create, &p, AK_ERR_INVALID_ARG, ints[f].field, ints[f].field);
        }
    ak_body_params p = d;
    p.thickness = 4.0f;
    p.sides = 64;
    p.rings = 2;
    p.feet = 0;
    akt_expect_refused(body_validate, &p, AK_OK, NULL, "bounds");
    ak_error err;
    ak_body_mesh *m = NULL;
    assert_int_equal(ak_body_mesh_create(NULL, &d, &m, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_body_mesh_create(g_sk, &d, NULL, &err), AK_ERR_INVALID_ARG);
    ak_skeleton_destroy(g_sk);
    /* one joint: no bone to cover */
    g_sk = akt_line_skeleton(1, 0.5f);
    assert_int_equal(ak_body_mesh_create(g_sk, &d, &m, &err), AK_ERR_INVALID_ARG);
    assert_null(m);
    ak_skeleton_destroy(g_sk);
}

/* More sides or rings give more vertices on the same rig, and the rest pose skins to itself
 * whatever they are (check_body). */
static void resolution_grows_the_mesh(void **state)
{
    (void)state;
    ak_skeleton *sk = akt_line_skeleton(4, 0.5f);
    ak_body_params p = ak_body_defaults();
    ak_body_mesh *a = NULL, *b = NULL, *c = NULL;
    ak_error err;
    assert_int_equal(ak_body_mesh_create(sk, &p, &a, &err), AK_OK);
    p.sides *= 2;
    assert_int_equal(ak_body_mesh_create(sk, &p, &b, &err), AK_OK);
    p.rings *= 2;
    assert_int_equal(ak_body_mesh_create(sk, &p, &c, &err), AK_OK);
    assert_true(b->vertex_count > a->vertex_count);
    assert_true(c->vertex_count > b->vertex_count);
    assert_true(c->index_count > b->index_count && b->index_count > a->index_count);
    assert_int_equal(a->joint_count, 4);
    ak_body_mesh_destroy(c);
    ak_body_mesh_destroy(b);
    ak_body_mesh_destroy(a);
    ak_skeleton_destroy(sk);
}

/* Invariants every generated body keeps: influences valid and normalised, unit normals, a
 * closed surface (each edge in two triangles, opposite ways round) facing outwards, and the
 * rest pose skinned by either method gives the bind positions back. */
static void check_body(const ak_skeleton *sk, const ak_body_mesh *m, double *volume)
{
    const int32_t n = sk->joint_count;
    assert_true(m->vertex_count > 100 && m->index_count % 3 == 0);
    for (int32_t v = 0; v < m->vertex_count; ++v) {
        double sum = 0.0;
        for (int i = 0; i < 4; ++i) {
            assert_true(m->joints[4 * v + i] < n);
            assert_true(m->weights[4 * v + i] >= 0.0f);
            sum += m->weights[4 * v + i];
        }
        AKT_NEAR(sum, 1.0, 1e-6);
        const float *nn = m->normals + 3 * v;
        AKT_NEAR(sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]), 1.0, 1e-5);
    }
    /* directed edges: each appears once and its reverse once */
    int64_t balance = 0;
    double vol = 0.0;
    for (int32_t t = 0; t < m->index_count; t += 3) {
        const uint32_t *ix = m->indices + t;
        for (int e = 0; e < 3; ++e) {
            const uint32_t a = ix[e], b = ix[(e + 1) % 3];
            balance += a < b ? (int64_t)a * 7919 + b : -((int64_t)b * 7919 + a);
        }
        const float *p0 = m->positions + 3 * ix[0], *p1 = m->positions + 3 * ix[1],
                    *p2 = m->positions + 3 * ix[2];
        vol += (p0[0] * ((double)p1[1] * p2[2] - (double)p1[2] * p2[1]) -
                p0[1] * ((double)p1[0] * p2[2] - (double)p1[2] * p2[0]) +
                p0[2] * ((double)p1[0] * p2[1] - (double)p1[1] * p2[0])) /
               6.0;
    }
    assert_true(balance == 0);
    assert_true(vol > 0.0);
    *volume = vol;
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n),
             *model = malloc(sizeof(ak_xform) * (size_t)n);
    ak_skin_joint *pal = malloc(sizeof(ak_skin_joint) * (size_t)n);
    float *out = malloc(sizeof(float) * 3 * (size_t)m->vertex_count);
    ak_pose_rest(sk, local);
    ak_fk(sk, local, model);
    const float h = ak_pose_height(model, n);
    for (int method = 0; method < 2; ++method) {
        ak_skin_params p = ak_skin_defaults();
        p.method = method, p.joint_count = n, p.model_pose = model,
        p.inverse_bind = m->inverse_bind;
        p.palette = pal, p.vertex_count = m->vertex_count, p.joints = m->joints;
        p.weights = m->weights, p.positions = m->positions, p.out_positions = out;
        assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
        for (int32_t i = 0; i < 3 * m->vertex_count; ++i)
            AKT_NEAR(out[i], m->positions[i], 1e-5 * h);
    }
    free(local), free(model), free(pal), free(out);
}

/* Each foot: vertices carried by the ankle or toe reach down below the ankle and forward past
 * the toe joint (a foot box, not a capsule ending at the ankle). */
static void check_feet(const ak_skeleton *sk, const ak_body_mesh *m)
{
    ak_humanoid map;
    assert_int_equal(ak_humanoid_find(sk, NULL, &map, NULL), AK_OK);
    ak_xform *model = malloc(sizeof(ak_xform) * (size_t)sk->joint_count);
    ak_fk(sk, sk->rest_local, model);
    const float h = ak_pose_height(model, sk->joint_count);
    const int32_t feet[2][2] = {{map.joint[AK_HUM_LEFT_FOOT], map.joint[AK_HUM_LEFT_TOE]},
                                {map.joint[AK_HUM_RIGHT_FOOT], map.joint[AK_HUM_RIGHT_TOE]}};
    for (int side = 0; side < 2; ++side) {
        const ak_vec3 ankle = model[feet[side][0]].translation;
        float low = 1e9f, reach = -1e9f;
        for (int32_t v = 0; v < m->vertex_count; ++v) {
            const int32_t j = m->joints[4 * v];
            if (j != feet[side][0] && j != feet[side][1]) continue;
            const float *p = m->positions + 3 * v;
            if (p[1] < low) low = p[1];
            if (p[2] > reach) reach = p[2]; /* both rigs face +Z */
        }
        print_message("foot %d: sole %.3f h below the ankle, toe %.3f h ahead\n", side,
                      (ankle.y - low) / h, (reach - ankle.z) / h);
        assert_true(ankle.y - low > 0.03f * h);
        assert_true(reach - ankle.z > 0.08f * h);
    }
    free(model);
}

static void body_for_the_builtin_biped(void **state)
{
    (void)state;
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &clip, NULL), AK_OK);
    ak_body_mesh *m = NULL;
    assert_int_equal(ak_body_mesh_create(sk, NULL, &m, NULL), AK_OK);
    double vol;
    check_body(sk, m, &vol);
    print_message("biped body: %d vertices, %d triangles, enclosed %.4f m^3\n", m->vertex_count,
                  m->index_count / 3, vol);
    check_feet(sk, m);
    ak_body_mesh_destroy(m);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(sk);
}

static void body_for_a_bvh_rig(void **state)
{
    (void)state;
    char path[1024];
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    assert_int_equal(ak_bvh_read_file(akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path), NULL,
                                      &sk, &clip, NULL),
                     AK_OK);
    ak_body_mesh *m = NULL;
    assert_int_equal(ak_body_mesh_create(sk, NULL, &m, NULL), AK_OK);
    double vol;
    check_body(sk, m, &vol);
    check_feet(sk, m);
    ak_body_mesh_destroy(m);
    ak_body_params o = ak_body_defaults();
    o.sides = 3;
    ak_error err;
    assert_int_equal(ak_body_mesh_create(sk, &o, &m, &err), AK_ERR_INVALID_ARG);
    assert_null(m);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(sk);
}

/* One capture and its still-top copy (joint_Root at the origin above the file's top joint,
 * studio_variants.h): the same rest height and the same body, vertex for vertex, each
 * influence on the same joint (one index on) with the same weight. Float precision: the copy's
 * rest transforms are the original's bit for bit and joint_Root's identity adds no rounding
 * (1e-6 of the height allows for a product order). Before, the idle capture's copy, whose hips
 * rest 0.727 m above joint_Root, counted joint_Root's point in its height (1.2996 against
 * 1.2986), grew a tube from it to the hips (2806 vertices against 2684) and gave the hips'
 * bones half their weight at the hips to joint_Root, which does not move with them (CMU's hips
 * rest on joint_Root and carry no bone of their own length, so 02_01 came out the same). */
static void still_top_body_of(const char *name)
{
    char path[1024];
    ak_skeleton *s = NULL, *vs = NULL;
    ak_clip *c = NULL, *vc = NULL;
    assert_int_equal(ak_bvh_read_file(akt_mocap_path(name, path, sizeof path), NULL, &s, &c, NULL),
                     AK_OK);
    assert_int_equal(ak_bvh_read_file(path, NULL, &vs, &vc, NULL), AK_OK);
    akv_still_top(&vs, &vc);
    const float h = ak_skeleton_rest_height(s);
    AKT_NEAR(ak_skeleton_rest_height(vs), h, 1e-6 * h);
    ak_body_mesh *m = NULL, *vm = NULL;
    assert_int_equal(ak_body_mesh_create(s, NULL, &m, NULL), AK_OK);
    assert_int_equal(ak_body_mesh_create(vs, NULL, &vm, NULL), AK_OK);
    assert_int_equal(vm->vertex_count, m->vertex_count);
    assert_int_equal(vm->index_count, m->index_count);
    double worst = 0.0;
    for (int32_t i = 0; i < 3 * m->vertex_count; ++i)
        worst = fmax(worst, fabs((double)vm->positions[i] - (double)m->positions[i]));
    assert_true(worst <= 1e-6 * h);
    for (int32_t i = 0; i < 4 * m->vertex_count; ++i) {
        AKT_NEAR(vm->weights[i], m->weights[i], 1e-6);
        if (m->weights[i] > 0.0f) assert_int_equal(vm->joints[i], m->joints[i] + 1);
    }
    for (int32_t i = 0; i < m->index_count; ++i)
        assert_int_equal(vm->indices[i], m->indices[i]);
    print_message("%-32s rest height %.7g, still-top copy %.7g; %d vertices, worst %.2g\n", name,
                  (double)h, (double)ak_skeleton_rest_height(vs), m->vertex_count, worst);
    ak_body_mesh_destroy(vm);
    ak_body_mesh_destroy(m);
    ak_clip_destroy(vc);
    ak_skeleton_destroy(vs);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

static void a_still_top_joint_is_not_the_body(void **state)
{
    (void)state;
    still_top_body_of("cmu_02_01_walk.bvh");
    still_top_body_of("reactidle_003_genuine_idle.bvh");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(body_params_validity),
        cmocka_unit_test(resolution_grows_the_mesh),
        cmocka_unit_test(body_for_the_builtin_biped),
        cmocka_unit_test(body_for_a_bvh_rig),
        cmocka_unit_test(a_still_top_joint_is_not_the_body),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
