/* src/io/gltf_buffers.c: the glTF writer's binary buffer, its views and accessors. It takes
 * ak_gltf_params: the first case is that struct's validity (the defaults pass; a cubic flag,
 * mesh choice or metres_per_unit out of range refused naming the field) and what the buffer
 * does with each field. Then the byte buffer itself (append, 4-byte padding), the keys of a
 * small rig worked by hand (times, normalised rotations, translations in metres, Catmull-Rom
 * tangents per second for CUBICSPLINE), inverse bind matrices that undo the rest pose, the
 * capsule mesh (every vertex within its radius of its bone, bound rigidly to the bone's
 * parent) and the body (the skin.h body in metres), and non-finite values flagged. */
#include "gltf_write_fixture.h"

/* The floats of accessor a (FLOAT only), checked to lie inside its view and the buffer. */
static const float *acc_floats(const akio_gltf_doc *d, size_t a, size_t comps)
{
    const akio_accessor *acc = &d->acc[a];
    assert_int_equal(acc->component, 5126);
    assert_true(acc->view < (size_t)d->view_count);
    const akio_block *v = &d->views[acc->view];
    assert_true(v->offset % 4 == 0 && acc->offset % 4 == 0);
    assert_true(acc->offset + acc->count * comps * 4 <= v->length);
    assert_true(v->offset + v->length <= d->bin.size);
    return (const float *)(const void *)(d->bin.data + v->offset + acc->offset);
}

static int32_t validate(const ak_gltf_params *o)
{
    ak_error err;
    return ak_gltf_validate(o, &err);
}

static void expect_refused(const ak_gltf_params *o, const char *needle)
{
    ak_error err;
    assert_int_equal(ak_gltf_validate(o, &err), AK_ERR_INVALID_ARG);
    if (!strstr(err.message, needle)) fail_msg("'%s' does not say '%s'", err.message, needle);
}

static void gltf_buffers_params_validity(void **state)
{
    (void)state;
    const ak_gltf_params def = ak_gltf_defaults();
    assert_int_equal(validate(&def), AK_OK);
    AKT_NEAR(def.metres_per_unit, 1.0, 0.0);
    assert_int_equal(def.cubic, 0);
    assert_int_equal(def.with_mesh, 1);
    ak_gltf_params o = def;
    const float bad_mpu[] = {0.0f, -1.0f, NAN, INFINITY};
    for (int i = 0; i < 4; ++i) {
        o.metres_per_unit = bad_mpu[i];
        expect_refused(&o, "metres_per_unit");
    }
    o = def, o.cubic = 2;
    expect_refused(&o, "cubic must be 0 or 1");
    o = def, o.with_mesh = 3;
    expect_refused(&o, "with_mesh must be 0 (none), 1 (body) or 2 (capsules)");
    o.with_mesh = -1;
    expect_refused(&o, "with_mesh");
    expect_refused(NULL, "NULL");
    /* each field's effect on the buffer: with_mesh 0 writes no mesh, cubic needs 2 frames */
    akt_gltf_case k;
    akt_gltf_case_open(&k);
    const akio_gltf_doc *d = NULL;
    o = def, o.with_mesh = 0, o.cubic = 1;
    d = akt_gltf_case_write(&k, &o, k.c);
    assert_int_equal(d->has_mesh, 0);
    assert_int_equal(d->cubic, 1);
    assert_int_equal(d->acc[d->time_acc].count, 3);
    assert_int_equal(d->acc[d->rot_acc0].count, 9); /* (in-tangent, value, out-tangent) */
    k.c->frame_count = 1;
    d = akt_gltf_case_write(&k, &o, k.c);
    assert_int_equal(d->cubic, 0);
    assert_int_equal(d->acc[d->rot_acc0].count, 1);
    k.c->frame_count = 3;
    akt_gltf_case_close(&k);
}

/* Append keeps a NUL after the bytes; align4 pads with the given byte. */
static void gltf_buffers_byte_buffer_appends_and_pads(void **state)
{
    (void)state;
    akio_gbuf b = {0};
    akio_gbuf_append(&b, "abcde", 5);
    assert_int_equal(b.size, 5);
    assert_int_equal(b.data[5], 0);
    akio_gbuf_align4(&b, ' ');
    assert_int_equal(b.size, 8);
    assert_memory_equal(b.data, "abcde   ", 8);
    akio_gbuf_align4(&b, ' ');
    assert_int_equal(b.size, 8);
    for (int i = 0; i < 1000; ++i) /* growth keeps every byte */
        akio_gbuf_append(&b, &i, sizeof i);
    assert_int_equal(b.size, 8 + 4000);
    int last;
    memcpy(&last, b.data + b.size - 4, 4);
    assert_int_equal(last, 999);
    assert_int_equal(b.failed, 0);
    free(b.data);
}

/* metres_per_unit 0.5, LINEAR then CUBICSPLINE: every number worked from the fixture. */
static void gltf_buffers_keys_worked_by_hand(void **state)
{
    (void)state;
    akt_gltf_case k;
    akt_gltf_case_open(&k);
    const akio_gltf_doc *d = NULL;
    ak_gltf_params o = ak_gltf_defaults();
    o.metres_per_unit = 0.5f;
    o.with_mesh = 0;
    d = akt_gltf_case_write(&k, &o, k.c);
    assert_int_equal(d->bin.size % 4, 0);
    assert_int_equal(d->acc_count, 1 + 4 + 1 + 1); /* times, 4 rotations, 1 track, ibm */
    const akio_accessor *times = &d->acc[d->time_acc];
    assert_string_equal(times->type, "SCALAR");
    assert_int_equal(times->has_minmax, 1);
    AKT_NEAR(times->min[0], 0.0, 0.0);
    AKT_NEAR(times->max[0], 1.0, 0.0);
    const float *t = acc_floats(d, d->time_acc, 1);
    AKT_NEAR(t[0], 0.0, 0.0);
    AKT_NEAR(t[1], 0.5, 0.0);
    AKT_NEAR(t[2], 1.0, 0.0);
    const float *knee = acc_floats(d, d->rot_acc0 + 1, 4);
    for (int f = 0; f < 3; ++f) { /* twice the unit key, written unit */
        AKT_NEAR(knee[4 * f], 0.70710678, 1e-7);
        AKT_NEAR(knee[4 * f + 3], 0.70710678, 1e-7);
    }
    const float *hip = acc_floats(d, d->rot_acc0, 4);
    AKT_NEAR(hip[4 * 2 + 1], sin(0.3), 1e-7); /* 0.6 rad about Y: y = sin(0.3) */
    assert_string_equal(d->acc[d->tr_acc0].type, "VEC3");
    const float *tr = acc_floats(d, d->tr_acc0, 3);
    const float want[9] = {0.5f, 1, 1.5f, 1, 1, 1.5f, 2, 1, 1.5f}; /* (1|2|4, 2, 3) * 0.5 */
    for (int i = 0; i < 9; ++i)
        AKT_NEAR(tr[i], want[i], 0.0);
    /* CUBICSPLINE: m_f = (p_{f+1} - p_{f-1}) / (2 dt), one-sided at the ends, per second:
     * x: 0.5, 1, 2 -> m = (1 - 0.5) / 0.5 = 1, (2 - 0.5) / 1 = 1.5, (2 - 1) / 0.5 = 2 */
    o.cubic = 1;
    d = akt_gltf_case_write(&k, &o, k.c);
    tr = acc_floats(d, d->tr_acc0, 3);
    const float m[3] = {1.0f, 1.5f, 2.0f}, x[3] = {0.5f, 1.0f, 2.0f};
    for (int f = 0; f < 3; ++f) {
        AKT_NEAR(tr[9 * f + 0], m[f], 1e-6); /* in-tangent */
        AKT_NEAR(tr[9 * f + 3], x[f], 0.0);  /* value */
        AKT_NEAR(tr[9 * f + 6], m[f], 1e-6); /* out-tangent */
        AKT_NEAR(tr[9 * f + 4], 1.0, 0.0);   /* y constant: tangent 0 */
        AKT_NEAR(tr[9 * f + 7], 0.0, 0.0);
    }
    akt_gltf_case_close(&k);
}

/* Each inverse bind matrix times its joint's rest model matrix is the identity (1e-6), and
 * the knee's bind translation is (0, 0.5, 0) in metres * mpu 2. */
static void gltf_buffers_inverse_binds_undo_the_rest_pose(void **state)
{
    (void)state;
    akt_gltf_case k;
    akt_gltf_case_open(&k);
    const akio_gltf_doc *d = NULL;
    ak_gltf_params o = ak_gltf_defaults();
    o.metres_per_unit = 2.0f;
    o.with_mesh = 0;
    d = akt_gltf_case_write(&k, &o, NULL);
    assert_int_equal(d->animate, 0);
    assert_int_equal(d->acc_count, 1);
    assert_string_equal(d->acc[d->ibm_acc].type, "MAT4");
    AKT_NEAR(k.model_m[1].translation.y, 1.0, 1e-6); /* (1 - 0.5) * 2 */
    const float *ibm = acc_floats(d, d->ibm_acc, 16);
    for (int32_t j = 0; j < 4; ++j) {
        float rest[16];
        ak_xform_to_mat4(k.model_m[j], rest);
        for (int col = 0; col < 4; ++col)
            for (int row = 0; row < 4; ++row) {
                double sum = 0.0;
                for (int k = 0; k < 4; ++k)
                    sum += (double)ibm[16 * j + 4 * k + row] * rest[4 * col + k];
                AKT_NEAR(sum, col == row, 1e-6);
            }
    }
    akt_gltf_case_close(&k);
}

/* Distance from p to the segment a-b. */
static double segment_distance(const float *p, ak_vec3 a, ak_vec3 b)
{
    const ak_vec3 ab = ak_vec3_sub(b, a), ap = ak_vec3_sub(ak_vec3_make(p[0], p[1], p[2]), a);
    float u = ak_vec3_dot(ap, ab) / ak_vec3_dot(ab, ab);
    u = u < 0.0f ? 0.0f : (u > 1.0f ? 1.0f : u);
    return ak_vec3_length(ak_vec3_sub(ap, ak_vec3_scale(ab, u)));
}

/* Capsules: one per bone longer than 1e-5 m (hip-knee 0.5 m, knee-end 0.25 m): 18 vertices and
 * 32 triangles each, every vertex within the radius min(0.2 len, 3.5 cm) of its bone and
 * weighted 1 to the bone's parent joint, unit normals, indices in range, bounds the extrema. */
static void gltf_buffers_capsules_hug_their_bones(void **state)
{
    (void)state;
    akt_gltf_case k;
    akt_gltf_case_open(&k);
    const akio_gltf_doc *d = NULL;
    ak_gltf_params o = ak_gltf_defaults();
    o.with_mesh = 2;
    d = akt_gltf_case_write(&k, &o, k.c);
    assert_int_equal(d->has_mesh, 1);
    assert_int_equal(d->body, 0);
    const size_t nv = d->acc[d->pos_acc].count;
    assert_int_equal(nv, 2 * AKIO_CAPSULE_VERTS);
    assert_int_equal(d->acc[d->idx_acc].count, 3 * 2 * AKIO_CAPSULE_TRIS);
    const float *pos = acc_floats(d, d->pos_acc, 3), *nrm = acc_floats(d, d->nrm_acc, 3);
    const float *w = acc_floats(d, d->wgt_acc, 4);
    const akio_block *jv = &d->views[d->acc[d->jnt_acc].view];
    const uint16_t *jt = (const uint16_t *)(const void *)(d->bin.data + jv->offset);
    const akio_block *iv = &d->views[d->acc[d->idx_acc].view];
    const uint32_t *idx = (const uint32_t *)(const void *)(d->bin.data + iv->offset);
    const int32_t bone_child[2] = {1, 2};
    float lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f};
    for (size_t v = 0; v < nv; ++v) {
        const int32_t child = bone_child[v / AKIO_CAPSULE_VERTS], parent = child - 1;
        const ak_vec3 a = k.model_m[parent].translation, b = k.model_m[child].translation;
        const double len = ak_vec3_length(ak_vec3_sub(b, a));
        const double r = 0.2 * len < 0.035 ? 0.2 * len : 0.035;
        assert_true(segment_distance(pos + 3 * v, a, b) <= r + 1e-6);
        AKT_NEAR(sqrt(nrm[3 * v] * nrm[3 * v] + nrm[3 * v + 1] * nrm[3 * v + 1] +
                      nrm[3 * v + 2] * nrm[3 * v + 2]),
                 1.0, 1e-6);
        assert_int_equal(jt[4 * v], parent);
        AKT_NEAR(w[4 * v] + w[4 * v + 1] + w[4 * v + 2] + w[4 * v + 3], 1.0, 0.0);
        for (int k = 0; k < 3; ++k) {
            lo[k] = pos[3 * v + k] < lo[k] ? pos[3 * v + k] : lo[k];
            hi[k] = pos[3 * v + k] > hi[k] ? pos[3 * v + k] : hi[k];
        }
    }
    for (size_t i = 0; i < d->acc[d->idx_acc].count; ++i)
        assert_true(idx[i] < nv);
    for (int k = 0; k < 3; ++k) {
        AKT_NEAR(d->acc[d->pos_acc].min[k], lo[k], 0.0);
        AKT_NEAR(d->acc[d->pos_acc].max[k], hi[k], 0.0);
    }
    akt_gltf_case_close(&k);
}

/* with_mesh 1 on a humanoid capture: the body of ak_body_mesh_create, positions scaled by
 * metres_per_unit, its weights summing to 1; a rig that gets no body falls back to
 * capsules. */
static void gltf_buffers_body_is_the_skin_body_in_metres(void **state)
{
    (void)state;
    char path[1024];
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    if (ak_bvh_read_file(akt_mocap_path("cmu_09_01_run.bvh", path, sizeof path), NULL, &s, &c,
                         &err) != AK_OK)
        fail_msg("%s", err.message);
    ak_xform *rest_m = malloc(sizeof(ak_xform) * (size_t)s->joint_count * 2);
    ak_xform *model_m = rest_m + s->joint_count;
    akio_gltf_doc *d = NULL;
    ak_gltf_params o = ak_gltf_defaults();
    o.metres_per_unit = 0.056444f;
    assert_int_equal(akt_gltf_buffers(s, NULL, &o, &d, rest_m, model_m, &err), AK_OK);
    assert_int_equal(d->body, 1);
    ak_body_mesh *body = NULL;
    assert_int_equal(ak_body_mesh_create(s, NULL, &body, NULL), AK_OK);
    assert_int_equal(d->acc[d->pos_acc].count, body->vertex_count);
    assert_int_equal(d->acc[d->idx_acc].count, body->index_count);
    const float *pos = acc_floats(d, d->pos_acc, 3), *w = acc_floats(d, d->wgt_acc, 4);
    for (int32_t i = 0; i < 3 * body->vertex_count; ++i)
        AKT_NEAR(pos[i], body->positions[i] * o.metres_per_unit, 0.0);
    for (int32_t v = 0; v < body->vertex_count; ++v)
        AKT_NEAR(w[4 * v] + w[4 * v + 1] + w[4 * v + 2] + w[4 * v + 3], 1.0, 1e-6);
    ak_body_mesh_destroy(body);
    akt_gltf_free(d);
    free(rest_m);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    akt_gltf_case k;
    akt_gltf_case_open(&k);
    /* laid flat on y = 0 (the knee straight along +X): a rest pose without height gets no
     * body (ak_body_mesh_create refuses it), so the writer falls back to capsules */
    k.s->rest_local[0].translation = ak_vec3_make(0, 0, 0);
    k.s->rest_local[1] = ak_xform_identity();
    k.s->rest_local[1].translation = ak_vec3_make(0.5f, 0, 0);
    o = ak_gltf_defaults();
    const akio_gltf_doc *flat = akt_gltf_case_write(&k, &o, k.c);
    assert_int_equal(flat->has_mesh, 1);
    assert_int_equal(flat->body, 0);
    assert_int_equal(flat->acc[flat->pos_acc].count, 2 * AKIO_CAPSULE_VERTS);
    akt_gltf_case_close(&k);
}

/* A translation that overflows once scaled (3e38 * 10) marks the buffer non-finite (gltf.c
 * then refuses the document); the unscaled keys do not. */
static void gltf_buffers_flag_values_that_overflow(void **state)
{
    (void)state;
    akt_gltf_case k;
    akt_gltf_case_open(&k);
    k.c->translations[1].x = 3e38f;
    const akio_gltf_doc *d = NULL;
    ak_gltf_params o = ak_gltf_defaults();
    o.with_mesh = 0;
    d = akt_gltf_case_write(&k, &o, k.c);
    assert_int_equal(d->bin.nonfinite, 0);
    o.metres_per_unit = 10.0f;
    d = akt_gltf_case_write(&k, &o, k.c);
    assert_int_equal(d->bin.nonfinite, 1);
    uint8_t *out = NULL;
    size_t size = 0;
    ak_error err;
    assert_int_equal(ak_gltf_write_memory(k.s, k.c, &o, 1, &out, &size, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "overflow to infinity"));
    assert_null(out);
    akt_gltf_case_close(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gltf_buffers_params_validity),
        cmocka_unit_test(gltf_buffers_byte_buffer_appends_and_pads),
        cmocka_unit_test(gltf_buffers_keys_worked_by_hand),
        cmocka_unit_test(gltf_buffers_inverse_binds_undo_the_rest_pose),
        cmocka_unit_test(gltf_buffers_capsules_hug_their_bones),
        cmocka_unit_test(gltf_buffers_body_is_the_skin_body_in_metres),
        cmocka_unit_test(gltf_buffers_flag_values_that_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
