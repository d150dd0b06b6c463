/* glTF export: read the file back with cJSON, run FK over the glTF nodes at animation keys and
 * compare with animkit's FK of the clip (in metres), for a built fixture and every shared
 * mocap clip; spline tangents; skin bind matrices; GLB framing; bad options. */
#include "test_util.h"

#include "animkit/skin.h"

#include <dirent.h>

#include "gltf_read.h"

/* A 4-joint chain with an End Site tip and a second translated joint; 24 frames at 30 fps.
 * The root moves along +X at a constant speed (so a Catmull-Rom spline reproduces it
 * exactly between keys) while every joint turns. */
static void make_fixture(ak_skeleton **out_s, ak_clip **out_c)
{
    const char *names[5] = {"hips", "spine", "neck", "head", "head_end"};
    int32_t parents[5] = {-1, 0, 1, 2, 3};
    uint8_t end[5] = {0, 0, 0, 0, 1};
    ak_xform rest[5];
    for (int j = 0; j < 5; ++j)
        rest[j] = ak_xform_identity();
    rest[0].translation = ak_vec3_make(0, 90, 0);
    rest[1].translation = ak_vec3_make(0, 20, 3);
    rest[2].translation = ak_vec3_make(0, 30, -2);
    rest[3].translation = ak_vec3_make(0, 10, 0);
    rest[4].translation = ak_vec3_make(0, 15, 0);
    ak_skeleton_desc d = {5, names, parents, rest, NULL, end};
    assert_int_equal(ak_skeleton_create(&d, out_s, NULL), AK_OK);
    uint8_t has_t[5] = {1, 0, 1, 0, 0};
    assert_int_equal(ak_clip_create(5, 24, 1.0f / 30.0f, has_t, out_c, NULL), AK_OK);
    ak_clip *c = *out_c;
    for (int f = 0; f < 24; ++f) {
        for (int j = 0; j < 5; ++j) {
            ak_vec3 e = {0.5f * sinf(0.3f * (float)f + (float)j),
                         0.4f * cosf(0.2f * (float)f * (float)(j + 1)),
                         0.3f * sinf(0.45f * (float)f)};
            c->rotations[f * 5 + j] = ak_quat_from_euler(e, AK_ORDER_ZYX);
        }
        c->translations[f * 2 + 0] = ak_vec3_make(2.0f * (float)f, 90.0f, 0.0f);
        c->translations[f * 2 + 1] = ak_vec3_make(0.0f, 30.0f + 2.0f * sinf((float)f), -2.0f);
    }
    ak_clip_finalize(c);
}

/* Compares FK over the glTF nodes with animkit's FK (scaled to metres) at `nkeys` keys spread
 * over the clip; returns the largest position error in metres. */
static float max_error_vs_fk(const gltf_doc *doc, const ak_skeleton *s, const ak_clip *c, float mpu,
                             int nkeys)
{
    int n = s->joint_count;
    int nodes = cJSON_GetArraySize(cJSON_GetObjectItem(doc->root, "nodes"));
    assert_true(nodes >= n);
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)nodes),
             *gworld = malloc(sizeof(ak_xform) * (size_t)nodes);
    ak_xform *alocal = malloc(sizeof(ak_xform) * (size_t)n),
             *aworld = malloc(sizeof(ak_xform) * (size_t)n);
    int *parent = malloc(sizeof(int) * (size_t)nodes);
    float worst = 0.0f;
    for (int i = 0; i < nkeys; ++i) {
        int f = nkeys == 1 ? 0 : (int)((long)i * (c->frame_count - 1) / (nkeys - 1));
        assert_int_equal(gltf_locals_at_key(doc, f, nodes, local, parent), 0);
        assert_int_equal(gltf_fk(local, parent, nodes, gworld), 0);
        ak_clip_frame(c, s, f, alocal);
        ak_fk(s, alocal, aworld);
        for (int j = 0; j < n; ++j) {
            ak_vec3 a = ak_vec3_scale(aworld[j].translation, mpu);
            float e = ak_vec3_length(ak_vec3_sub(a, gworld[j].translation));
            if (e > worst) worst = e;
        }
    }
    free(local);
    free(gworld);
    free(alocal);
    free(aworld);
    free(parent);
    return worst;
}

static void export_doc(const ak_skeleton *s, const ak_clip *c, const ak_gltf_params *o, int binary,
                       gltf_doc *doc)
{
    uint8_t *data = NULL;
    size_t size = 0;
    ak_error err;
    int32_t st = ak_gltf_write_memory(s, c, o, binary, &data, &size, &err);
    if (st != AK_OK) fail_msg("export failed: %s", err.message);
    if (!binary) assert_int_equal(strlen((const char *)data), size);
    assert_int_equal(gltf_parse(data, size, doc), 0);
    ak_free(data);
}

static void gltf_nodes_reproduce_fk_at_every_key(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(&s, &c);
    for (int binary = 0; binary < 2; ++binary)
        for (int cubic = 0; cubic < 2; ++cubic) {
            ak_gltf_params o = ak_gltf_defaults();
            o.metres_per_unit = 0.01f;
            o.cubic = cubic;
            gltf_doc doc;
            export_doc(s, c, &o, binary, &doc);
            /* Worked numbers: key 0, the root node sits at (0, 0.9, 0) m. */
            float err = max_error_vs_fk(&doc, s, c, 0.01f, c->frame_count);
            AKT_NEAR(err, 0.0f, 2e-6f);
            /* One rotation channel per joint plus two translation channels (hips, neck). */
            cJSON *anim = gltf_get(&doc, "animations", 0);
            assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(anim, "channels")), 5 + 2);
            gltf_free(&doc);
        }
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* Between keys the glTF cubic spline (tangents per second) must follow the root's constant
 * velocity of 2 units/frame = 0.02 m * 30 = 0.6 m/s exactly: Catmull-Rom reproduces lines. */
static void gltf_cubic_tangents_follow_constant_velocity(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(&s, &c);
    ak_gltf_params o = ak_gltf_defaults();
    o.metres_per_unit = 0.01f;
    o.cubic = 1;
    gltf_doc doc;
    export_doc(s, c, &o, 0, &doc);
    cJSON *anim = gltf_get(&doc, "animations", 0);
    cJSON *sampler =
        cJSON_GetArrayItem(cJSON_GetObjectItem(anim, "samplers"), 5); /* hips translation */
    int n_in, n_out;
    const float *in = gltf_floats(&doc, gltf_int(sampler, "input", -1), &n_in);
    const float *out = gltf_floats(&doc, gltf_int(sampler, "output", -1), &n_out);
    assert_non_null(in);
    assert_non_null(out);
    assert_int_equal(n_out, 3 * n_in);
    for (int k = 1; k + 2 < n_in; ++k) {
        float dt = in[k + 1] - in[k], u = 0.5f;
        /* glTF spec: p = h00 v_k + h10 dt b_k + h01 v_{k+1} + h11 dt a_{k+1} */
        float h00 = 2 * u * u * u - 3 * u * u + 1, h10 = u * u * u - 2 * u * u + u;
        float h01 = -2 * u * u * u + 3 * u * u, h11 = u * u * u - u * u;
        float x = h00 * out[(k * 3 + 1) * 3] + h10 * dt * out[(k * 3 + 2) * 3] +
                  h01 * out[((k + 1) * 3 + 1) * 3] + h11 * dt * out[((k + 1) * 3) * 3];
        AKT_NEAR(x, 0.02f * ((float)k + 0.5f), 1e-6f);
        AKT_NEAR(out[(k * 3 + 2) * 3], 0.6f, 1e-4f);
    }
    gltf_free(&doc);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* inverseBindMatrices[j] * bind_world[j] = identity, with the bind pose taken from the nodes'
 * static TRS; and the capsule mesh is bound to joints that exist. */
static void gltf_skin_inverse_bind_matches_rest_pose(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(&s, &c);
    ak_gltf_params o = ak_gltf_defaults();
    o.metres_per_unit = 0.01f;
    o.with_mesh = 2; /* the capsules */
    gltf_doc doc;
    export_doc(s, NULL, &o, 1, &doc); /* no animation: node TRS is the rest pose */
    assert_null(gltf_get(&doc, "animations", 0));
    ak_xform local[5], world[5];
    int parent[5];
    assert_int_equal(gltf_locals_at_key(&doc, 0, 5, local, parent), 0);
    assert_int_equal(gltf_fk(local, parent, 5, world), 0);
    AKT_NEAR(world[4].translation.y, 0.9f + 0.2f + 0.3f + 0.1f + 0.15f, 1e-6f);
    cJSON *skin = gltf_get(&doc, "skins", 0);
    int count;
    const float *ibm = gltf_floats(&doc, gltf_int(skin, "inverseBindMatrices", -1), &count);
    assert_int_equal(count, 5);
    for (int j = 0; j < 5; ++j) {
        float m[16];
        ak_xform_to_mat4(world[j], m);
        const float *a = ibm + j * 16;
        for (int r = 0; r < 4; ++r)
            for (int k = 0; k < 4; ++k) {
                float v = 0;
                for (int q = 0; q < 4; ++q)
                    v += a[q * 4 + r] * m[k * 4 + q];
                AKT_NEAR(v, r == k ? 1.0f : 0.0f, 1e-5f);
            }
    }
    /* 4 bones with length > 0 -> 4 capsules of 18 vertices. */
    cJSON *prim =
        cJSON_GetArrayItem(cJSON_GetObjectItem(gltf_get(&doc, "meshes", 0), "primitives"), 0);
    cJSON *pos = gltf_get(&doc, "accessors",
                          gltf_int(cJSON_GetObjectItem(prim, "attributes"), "POSITION", -1));
    assert_int_equal(gltf_int(pos, "count", 0), 4 * 18);
    gltf_free(&doc);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* The default mesh is the generated body (skin.h) in metres: the same vertices, joints and
 * weights as ak_body_mesh_create, bound through the skin's inverse bind matrices so that the
 * rest pose skinned (LBS with the file's own matrices) gives the positions back. */
static void gltf_writes_the_skinned_body(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(&s, &c);
    ak_gltf_params o = ak_gltf_defaults();
    o.metres_per_unit = 0.01f;
    gltf_doc doc;
    export_doc(s, c, &o, 1, &doc);
    ak_body_mesh *body = NULL;
    assert_int_equal(ak_body_mesh_create(s, NULL, &body, NULL), AK_OK);
    cJSON *prim =
        cJSON_GetArrayItem(cJSON_GetObjectItem(gltf_get(&doc, "meshes", 0), "primitives"), 0);
    cJSON *attr = cJSON_GetObjectItem(prim, "attributes");
    int count, wcount;
    const float *pos = gltf_floats(&doc, gltf_int(attr, "POSITION", -1), &count);
    const float *w = gltf_floats(&doc, gltf_int(attr, "WEIGHTS_0", -1), &wcount);
    assert_int_equal(count, body->vertex_count);
    assert_int_equal(wcount, body->vertex_count);
    assert_int_equal(
        gltf_int(gltf_get(&doc, "accessors", gltf_int(prim, "indices", -1)), "count", 0),
        body->index_count);
    assert_true(gltf_int(attr, "JOINTS_0", -1) >= 0);
    cJSON *node = gltf_get(&doc, "nodes", 5);
    assert_string_equal(cJSON_GetObjectItem(node, "name")->valuestring, "animkit_body");
    assert_int_equal(gltf_int(node, "skin", -1), 0);
    const float *ibm =
        gltf_floats(&doc, gltf_int(gltf_get(&doc, "skins", 0), "inverseBindMatrices", -1), &count);
    ak_xform local[5], world[5];
    int parent[5];
    ak_pose_rest(s, local);
    for (int j = 0; j < 5; ++j)
        local[j].translation = ak_vec3_scale(local[j].translation, 0.01f);
    ak_fk(s, local, world);
    ak_skin_joint pal[5];
    ak_skin_palette(world, ibm, 5, pal);
    (void)parent;
    for (int32_t v = 0; v < body->vertex_count; ++v) {
        AKT_NEAR(pos[3 * v + 1], body->positions[3 * v + 1] * 0.01f, 1e-6);
        AKT_NEAR(w[4 * v] + w[4 * v + 1] + w[4 * v + 2] + w[4 * v + 3], 1.0, 1e-6);
        for (int r = 0; r < 3; ++r) { /* LBS at rest: sum_i w_i S_i p = p */
            double x = 0.0;
            for (int i = 0; i < 4; ++i) {
                const ak_skin_joint *m = &pal[body->joints[4 * v + i]];
                x += w[4 * v + i] *
                     (m->columns[0][r] * pos[3 * v] + m->columns[1][r] * pos[3 * v + 1] +
                      m->columns[2][r] * pos[3 * v + 2] + m->columns[3][r]);
            }
            AKT_NEAR(x, pos[3 * v + r], 1e-5);
        }
    }
    ak_body_mesh_destroy(body);
    gltf_free(&doc);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

static void gltf_rejects_bad_options_and_mismatched_clip(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(&s, &c);
    ak_gltf_params o = ak_gltf_defaults();
    ak_error err;
    uint8_t *data;
    size_t size;
    o.metres_per_unit = 0.0f;
    assert_int_equal(ak_gltf_write_memory(s, c, &o, 0, &data, &size, &err), AK_ERR_INVALID_ARG);
    assert_null(data);
    o.metres_per_unit = NAN;
    assert_int_equal(ak_gltf_validate(&o, &err), AK_ERR_INVALID_ARG);
    o = ak_gltf_defaults();
    c->rotations[7].x = INFINITY;
    assert_int_equal(ak_gltf_write_memory(s, c, &o, 0, &data, &size, &err), AK_ERR_INVALID_ARG);
    ak_clip *small;
    assert_int_equal(ak_clip_create(3, 2, 0.1f, NULL, &small, NULL), AK_OK);
    assert_int_equal(ak_gltf_write_memory(s, small, &o, 0, &data, &size, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_gltf_write_file("/nonexistent-dir/x.gltf", s, NULL, &o, &err), AK_ERR_IO);
    ak_clip_destroy(small);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* Every shared mocap clip: export (metres from the detected units), read back, FK over the
 * glTF nodes at 9 keys = animkit's FK of the BVH clip within 0.1 mm. */
static void gltf_mocap_exports_reproduce_bvh_world_positions(void **state)
{
    (void)state;
    char probe[1024];
    akt_mocap_path("PROVENANCE.md", probe, sizeof probe);
    char *slash = strrchr(probe, '/');
    *slash = 0;
    DIR *dir = opendir(probe);
    assert_non_null(dir);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(dir)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".bvh") != 0) continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", probe, e->d_name);
        ak_skeleton *s;
        ak_clip *c;
        ak_error err;
        int32_t st = ak_bvh_read_file(path, NULL, &s, &c, &err);
        if (st != AK_OK) fail_msg("%s: %s", path, err.message);
        float mpu;
        ak_units_detect(ak_skeleton_rest_height(s), &mpu);
        ak_gltf_params o = ak_gltf_defaults();
        o.metres_per_unit = mpu;
        o.cubic = files % 2;
        gltf_doc doc;
        export_doc(s, c, &o, files % 2, &doc);
        float worst = max_error_vs_fk(&doc, s, c, mpu, 9);
        if (!(worst < 1e-4f))
            fail_msg("%s: glTF FK differs from the BVH by %.3g m", e->d_name, (double)worst);
        print_message("%s: worst glTF-vs-BVH joint position error %.2g m\n", e->d_name,
                      (double)worst);
        gltf_free(&doc);
        ak_clip_destroy(c);
        ak_skeleton_destroy(s);
        files++;
    }
    closedir(dir);
    assert_true(files >= 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gltf_nodes_reproduce_fk_at_every_key),
        cmocka_unit_test(gltf_cubic_tangents_follow_constant_velocity),
        cmocka_unit_test(gltf_skin_inverse_bind_matches_rest_pose),
        cmocka_unit_test(gltf_writes_the_skinned_body),
        cmocka_unit_test(gltf_rejects_bad_options_and_mismatched_clip),
        cmocka_unit_test(gltf_mocap_exports_reproduce_bvh_world_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
