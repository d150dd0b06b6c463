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

/* ---- A zero pose that does not stand (issue 22: another studio's bones along X) ---- */

/* Skins `m` (built on `s`) to frame `f` of `c` by LBS, in metres (mpu per unit): the
 * positions (3 per vertex, malloc'ed) and their box lo[3], hi[3]. */
static float *skin_at_frame(const ak_skeleton *s, const ak_clip *c, const ak_body_mesh *m,
                            int32_t f, float mpu, double lo[3], double hi[3])
{
    const int32_t n = s->joint_count;
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n),
             *model = malloc(sizeof(ak_xform) * (size_t)n);
    ak_skin_joint *pal = malloc(sizeof(ak_skin_joint) * (size_t)n);
    float *out = malloc(sizeof(float) * 3 * (size_t)m->vertex_count);
    ak_clip_frame(c, s, f, local);
    ak_fk(s, local, model);
    ak_skin_params p = ak_skin_defaults();
    p.joint_count = n, p.model_pose = model, p.inverse_bind = m->inverse_bind, p.palette = pal;
    p.vertex_count = m->vertex_count, p.joints = m->joints, p.weights = m->weights;
    p.positions = m->positions, p.out_positions = out;
    assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
    for (int k = 0; k < 3; ++k)
        lo[k] = INFINITY, hi[k] = -INFINITY;
    for (int32_t i = 0; i < 3 * m->vertex_count; ++i) {
        out[i] *= mpu;
        lo[i % 3] = fmin(lo[i % 3], out[i]), hi[i % 3] = fmax(hi[i % 3], out[i]);
    }
    free(local), free(model), free(pal);
    return out;
}

/* A copy of `s` whose zero pose is the model pose `model` (rotations and positions). */
static ak_skeleton *rested_on_model_pose(const ak_skeleton *s, const ak_xform *model)
{
    const int32_t n = s->joint_count;
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n);
    const char **names = malloc(sizeof(char *) * (size_t)n);
    for (int32_t j = 0; j < n; ++j) {
        const int32_t p = s->parents[j];
        local[j] = p < 0 ? model[j] : ak_xform_mul(ak_xform_inverse(model[p]), model[j]);
        names[j] = s->names[j];
    }
    ak_skeleton_desc d = {n, names, s->parents, local, s->channels, s->is_end_site};
    ak_skeleton *out = NULL;
    assert_int_equal(ak_skeleton_create(&d, &out, NULL), AK_OK);
    free(local), free(names);
    return out;
}

/* The rigid transform whose inverse is the column-major matrix `ibm`, read through
 * ak_skin_palette at the identity pose (S = ibm: its rotation and translation columns). */
static ak_xform bind_from_inverse(const float *ibm)
{
    const ak_xform identity = ak_xform_identity();
    ak_skin_joint sj;
    ak_skin_palette(&identity, ibm, 1, &sj);
    ak_xform x;
    x.rotation = ak_quat_conjugate(sj.real);
    const ak_vec3 ti = {sj.columns[3][0], sj.columns[3][1], sj.columns[3][2]};
    x.translation = ak_vec3_scale(ak_quat_rotate(x.rotation, ti), -1.0f);
    return x;
}

/* The original's joints in the bind pose of the variant's body `xm`: the variant's bind model
 * transforms (inverses of its inverse binds; positions are the original's, file units apart by
 * `to_original`) with each joint's frame turned back to the original's (the constant
 * M_x(t)^-1 M_o(t), read at frame 1). `joint_of[j]`: the variant's joint for original joint j. */
static void original_bind_pose(const ak_skeleton *s, const ak_clip *c, const ak_skeleton *xs,
                               const ak_clip *xc, const ak_body_mesh *xm, const int32_t *joint_of,
                               float to_original, ak_xform *bind)
{
    const int32_t n = s->joint_count, xn = xs->joint_count;
    ak_xform *lo = malloc(sizeof(ak_xform) * (size_t)n), *mo = malloc(sizeof(ak_xform) * (size_t)n),
             *lx = malloc(sizeof(ak_xform) * (size_t)xn),
             *mx = malloc(sizeof(ak_xform) * (size_t)xn);
    ak_clip_frame(c, s, 1, lo);
    ak_fk(s, lo, mo);
    ak_clip_frame(xc, xs, 1, lx);
    ak_fk(xs, lx, mx);
    for (int32_t j = 0; j < n; ++j) {
        const int32_t x = joint_of[j];
        const ak_quat offset = ak_quat_mul(ak_quat_conjugate(mx[x].rotation), mo[j].rotation);
        ak_xform b = bind_from_inverse(xm->inverse_bind + 16 * (size_t)x);
        b.rotation = ak_quat_normalize(ak_quat_mul(b.rotation, offset));
        b.translation = ak_vec3_scale(b.translation, to_original);
        bind[j] = b;
    }
    free(lo), free(mo), free(lx), free(mx);
}

static float metres_per_unit(const ak_skeleton *s, const ak_clip *c)
{
    float mpu = 1.0f;
    ak_units_detect(ak_clip_standing_height(c, s), &mpu);
    return mpu;
}

/* A standing rig's body is the same bytes with its clip as without (the clip is only read when
 * the zero pose does not stand). */
static void assert_same_body(const ak_body_mesh *a, const ak_body_mesh *b)
{
    assert_int_equal(a->vertex_count, b->vertex_count);
    assert_int_equal(a->index_count, b->index_count);
    assert_int_equal(a->bind_frame, -1);
    assert_int_equal(b->bind_frame, -1);
    const size_t v = (size_t)a->vertex_count;
    assert_memory_equal(a->positions, b->positions, sizeof(float) * 3 * v);
    assert_memory_equal(a->normals, b->normals, sizeof(float) * 3 * v);
    assert_memory_equal(a->joints, b->joints, sizeof(uint16_t) * 4 * v);
    assert_memory_equal(a->weights, b->weights, sizeof(float) * 4 * v);
    assert_memory_equal(a->indices, b->indices, sizeof(uint32_t) * (size_t)a->index_count);
    assert_memory_equal(a->inverse_bind, b->inverse_bind,
                        sizeof(float) * 16 * (size_t)a->joint_count);
}

/* The variant `kinds` of `name` with its zero pose along X: without a clip the zero pose lies
 * flat and gets no body (before: a body of needles, every vertex on one line, y and z extents
 * 0); with its clip the body stands on the retargeter's reference pose (the clip's most
 * upright frame F, feet set flat). Skinned to the same frames:
 * - its box is the original's within 1 % of the standing height per axis. The original's body
 *   stands on CMU's zero pose, sized by that pose's height, with its foot boxes on the zero
 *   pose's feet, the copy's on the capture's flat stance: the lowest points differ by 8 mm,
 *   the foot's reach by a centimetre (2.2 % of the 0.43 m depth at frame 49);
 * - vertex for vertex it is the original's body built on the same bind pose (to 1e-4 m: the
 *   copy went through BVH text): the rig's joint frames drop out of S_j = M_j(t) M_j(bind)^-1.
 *   Against the original's own body the vertices lie 8.4 mm apart on average, up to 45 mm on
 *   the arms: the same round tubes with their rings at another twist about the bone (the
 *   T-pose's arms against the standing frame's), so those figures are printed, not bounded. */
static void x_pose_body_of(const char *name, unsigned kinds, const char *label)
{
    char path[1024];
    ak_skeleton *s = NULL, *xs = NULL;
    ak_clip *c = NULL, *xc = NULL;
    assert_int_equal(ak_bvh_read_file(akt_mocap_path(name, path, sizeof path), NULL, &s, &c, NULL),
                     AK_OK);
    akv_make(name, kinds, &xs, &xc);
    const float mpu = metres_per_unit(s, c), xmpu = metres_per_unit(xs, xc);
    ak_body_params p = ak_body_defaults();
    ak_body_mesh *m = NULL, *mc = NULL, *xm = NULL;
    assert_int_equal(ak_body_mesh_create(s, NULL, &m, NULL), AK_OK);
    p.clip = c;
    assert_int_equal(ak_body_mesh_create(s, &p, &mc, NULL), AK_OK);
    assert_same_body(m, mc);
    ak_error err;
    assert_int_equal(ak_body_mesh_create(xs, NULL, &xm, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "lies flat"));
    p.clip = xc;
    assert_int_equal(ak_body_mesh_create(xs, &p, &xm, &err), AK_OK);
    const int32_t F = xm->bind_frame;
    assert_true(F > 0 && F < c->frame_count);
    assert_int_equal(xm->vertex_count, m->vertex_count);
    /* The original on the same bind pose: the same body, vertex for vertex. */
    int32_t *joint_of = malloc(sizeof(int32_t) * (size_t)s->joint_count);
    for (int32_t j = 0; j < s->joint_count; ++j)
        joint_of[j] = ak_skeleton_find(xs, s->names[j]);
    ak_xform *bind = malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    original_bind_pose(s, c, xs, xc, xm, joint_of, xmpu / mpu, bind);
    ak_skeleton *fs = rested_on_model_pose(s, bind);
    ak_body_mesh *fm = NULL;
    assert_int_equal(ak_body_mesh_create(fs, NULL, &fm, NULL), AK_OK);
    assert_int_equal(fm->vertex_count, xm->vertex_count);
    const float height = ak_clip_standing_height(c, s) * mpu;
    double worst_box = 0.0, worst_axis = 0.0, worst_same = 0.0, worst_vertex = 0.0, sum = 0.0;
    int64_t count = 0;
    const int32_t frames[] = {1, F, c->frame_count / 3, c->frame_count - 1};
    for (size_t k = 0; k < sizeof frames / sizeof frames[0]; ++k) {
        double lo[3], hi[3], xlo[3], xhi[3], flo[3], fhi[3];
        float *o = skin_at_frame(s, c, m, frames[k], mpu, lo, hi);
        float *x = skin_at_frame(xs, xc, xm, frames[k], xmpu, xlo, xhi);
        float *fo = skin_at_frame(s, c, fm, frames[k], mpu, flo, fhi);
        for (int a = 0; a < 3; ++a) {
            const double size = hi[a] - lo[a], xsize = xhi[a] - xlo[a];
            worst_box = fmax(worst_box, fabs(xsize - size) / height);
            worst_axis = fmax(worst_axis, fabs(xsize - size) / size);
        }
        for (int32_t v = 0; v < xm->vertex_count; ++v) {
            double d2 = 0.0, e2 = 0.0;
            for (int a = 0; a < 3; ++a) {
                const double d = (double)x[3 * v + a] - (double)fo[3 * v + a];
                const double e = (double)x[3 * v + a] - (double)o[3 * v + a];
                d2 += d * d, e2 += e * e;
            }
            worst_same = fmax(worst_same, sqrt(d2));
            worst_vertex = fmax(worst_vertex, sqrt(e2));
            sum += sqrt(e2), count++;
        }
        free(o), free(x), free(fo);
    }
    print_message("%-30s %-18s body on frame %d: box within %.2f %% of the height (%.2f %% of "
                  "an axis) of the original's; vertices %.1f mm from the original's on "
                  "average, %.1f mm at most; %.2g m from the original's on the same pose\n",
                  name, label, (int)F, 100.0 * worst_box, 100.0 * worst_axis,
                  1e3 * sum / (double)count, 1e3 * worst_vertex, worst_same);
    assert_true(worst_box <= 0.01);
    assert_true(worst_same <= 1e-4);
    free(bind), free(joint_of);
    ak_body_mesh_destroy(fm);
    ak_skeleton_destroy(fs);
    ak_body_mesh_destroy(xm);
    ak_body_mesh_destroy(mc);
    ak_body_mesh_destroy(m);
    ak_clip_destroy(xc);
    ak_skeleton_destroy(xs);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

static void a_zero_pose_along_x_stands_on_its_clip(void **state)
{
    (void)state;
    x_pose_body_of("locomotion/cmu_02_02_walk.bvh", AKV_ZERO_ALONG_X, "zero pose along X");
    x_pose_body_of("locomotion/cmu_02_02_walk.bvh", AKV_ALL, "all of them");
    x_pose_body_of("reactidle_003_genuine_idle.bvh", AKV_ZERO_ALONG_X, "zero pose along X");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(body_params_validity),
        cmocka_unit_test(resolution_grows_the_mesh),
        cmocka_unit_test(body_for_the_builtin_biped),
        cmocka_unit_test(body_for_a_bvh_rig),
        cmocka_unit_test(a_still_top_joint_is_not_the_body),
        cmocka_unit_test(a_zero_pose_along_x_stands_on_its_clip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
