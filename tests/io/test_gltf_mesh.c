/* The skinned mesh of a glTF file (src/io/gltf_mesh.c, ak_clip_read_file_mesh): the glTF
 * tutorial's simple skin against the numbers in the file worked out by hand; animkit's own
 * body written as GLB and read back skins to the same vertices as the generated body on the
 * BVH it came from (LBS and DQS, every 10th frame); malformed input gets a clear error. */
#include "test_util.h"
#include "locomotion/studio_variants.h"

#include "animkit/clipfile.h"
#include "animkit/skin.h"

static char path_buf[1024];
static char mocap[1024];

static const char *data_path(const char *name)
{
    const char *src = getenv("AK_SOURCE_DIR");
    snprintf(path_buf, sizeof path_buf, "%s/tests/data/gltf/%s", src ? src : ".", name);
    return path_buf;
}

/* simple_skin.gltf (glTF-Tutorials "Simple skin"): 10 vertices in two columns x = 0, 1 at
 * y = 0, 0.5 ... 2, weights (1-k/4, k/4) on skin joints 0 and 1 (nodes 1 and 2) for row k;
 * both inverse bind matrices translate by (-0.5, -1, 0). Skinned by hand from the clip's FK:
 * p' = sum_i w_i W_i IBM_i p. */
static void gltf_mesh_reads_simple_skin(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    ak_body_mesh *m;
    ak_error err;
    int32_t st = ak_clip_read_file_mesh(data_path("simple_skin.gltf"), &s, &c, &m, &err);
    if (st != AK_OK) fail_msg("%s", err.message);
    assert_non_null(m);
    assert_int_equal(s->joint_count, 3); /* node 0 (above the joints), nodes 1 and 2 */
    assert_int_equal(m->vertex_count, 10);
    assert_int_equal(m->index_count, 24);
    assert_int_equal(m->joint_count, 3);
    for (int32_t v = 0; v < 10; ++v) {
        const int row = v / 2;
        AKT_NEAR(m->positions[3 * v], (float)(v % 2), 0);
        AKT_NEAR(m->positions[3 * v + 1], 0.5f * (float)row, 0);
        /* Skin joints 0, 1 are skeleton joints 1, 2; slots 2, 3 (weight 0) name skin joint 0. */
        assert_int_equal(m->joints[4 * v], 1);
        assert_int_equal(m->joints[4 * v + 1], 2);
        AKT_NEAR(m->weights[4 * v], 1.0f - 0.25f * (float)row, 1e-7);
        AKT_NEAR(m->weights[4 * v + 1], 0.25f * (float)row, 1e-7);
        AKT_NEAR(m->normals[3 * v + 2], 1.0f, 1e-6); /* computed: the strip faces +Z */
    }
    for (int k = 0; k < 16; ++k) /* joint 0 is outside the skin: identity */
        AKT_NEAR(m->inverse_bind[k], (k % 5 == 0) ? 1.0f : 0.0f, 0);
    AKT_NEAR(m->inverse_bind[16 + 12], -0.5f, 0);
    AKT_NEAR(m->inverse_bind[32 + 13], -1.0f, 0);
    ak_xform local[3], world[3];
    ak_skin_joint palette[3];
    float out[30];
    for (int32_t f = 0; f < c->frame_count; f += 7) {
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, world);
        ak_skin_params p = ak_skin_defaults();
        p.joint_count = 3, p.model_pose = world, p.inverse_bind = m->inverse_bind;
        p.palette = palette, p.vertex_count = 10, p.joints = m->joints, p.weights = m->weights;
        p.positions = m->positions, p.out_positions = out;
        assert_int_equal(ak_skin_run(&p, &err), AK_OK);
        for (int32_t v = 0; v < 10; ++v) {
            const int row = v / 2;
            const ak_vec3 bind = ak_vec3_make((float)(v % 2) - 0.5f, 0.5f * (float)row - 1.0f, 0);
            const ak_vec3 a = ak_xform_point(world[1], bind), b = ak_xform_point(world[2], bind);
            const float w1 = 0.25f * (float)row;
            const ak_vec3 want = ak_vec3_add(ak_vec3_scale(a, 1.0f - w1), ak_vec3_scale(b, w1));
            AKT_NEAR(out[3 * v], want.x, 1e-5);
            AKT_NEAR(out[3 * v + 1], want.y, 1e-5);
            AKT_NEAR(out[3 * v + 2], want.z, 1e-5);
        }
    }
    ak_body_mesh_destroy(m);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* Skins `m` at frame f of (s, c) into out (model space). */
static void skin_frame(const ak_skeleton *s, const ak_clip *c, const ak_body_mesh *m, int32_t f,
                       int method, float *out)
{
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    ak_xform *world = malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    ak_skin_joint *palette = malloc(sizeof(ak_skin_joint) * (size_t)s->joint_count);
    assert_true(local && world && palette);
    ak_clip_frame(c, s, f, local);
    ak_fk(s, local, world);
    ak_skin_params p = ak_skin_defaults();
    p.method = method;
    p.joint_count = s->joint_count, p.model_pose = world, p.inverse_bind = m->inverse_bind;
    p.palette = palette, p.vertex_count = m->vertex_count, p.joints = m->joints;
    p.weights = m->weights, p.positions = m->positions, p.out_positions = out;
    ak_error err;
    if (ak_skin_run(&p, &err) != AK_OK) fail_msg("%s", err.message);
    free(local), free(world), free(palette);
}

/* BVH -> GLB with the generated body (file units) -> clip + mesh: every vertex skinned by
 * the read mesh on the read clip equals the generated body skinned on the BVH within 1e-5 of
 * the height (float keys and matrices written and read back). The body is built with the clip
 * (ak_body_params.clip), as the export builds it: on the zero pose when it stands (CMU 02_01),
 * on the clip's standing frame when it lies along X (issue 22: the export's inverse binds are
 * then that frame's, not the rest pose's; the height is the clip's standing height, the zero
 * pose having none). */
static void roundtrip_body(ak_skeleton *s, ak_clip *c, const char *label)
{
    ak_skeleton *s2;
    ak_clip *c2;
    ak_body_mesh *body, *m;
    ak_error err;
    ak_body_params bp = ak_body_defaults();
    bp.clip = c;
    assert_int_equal(ak_body_mesh_create(s, &bp, &body, &err), AK_OK);
    uint8_t *glb;
    size_t size;
    assert_int_equal(ak_gltf_write_memory(s, c, NULL, 1, &glb, &size, &err), AK_OK);
    int32_t joint_node[256];
    ak_gltf_clip_info info = {0};
    info.joint_node = joint_node, info.joint_node_capacity = 256;
    assert_int_equal(ak_gltf_read_clip_memory(glb, size, NULL, NULL, &s2, &c2, &info, &err), AK_OK);
    ak_gltf_mesh_params mp = ak_gltf_mesh_defaults();
    mp.skin = info.skin, mp.joint_node = joint_node, mp.joint_count = s2->joint_count;
    int32_t st = ak_gltf_read_mesh_memory(glb, size, NULL, &mp, &m, &err);
    if (st != AK_OK) fail_msg("%s", err.message);
    assert_int_equal(m->vertex_count, body->vertex_count);
    assert_int_equal(m->index_count, body->index_count);
    float *a = malloc(sizeof(float) * 3 * (size_t)body->vertex_count);
    float *b = malloc(sizeof(float) * 3 * (size_t)body->vertex_count);
    assert_true(a && b);
    const float h =
        body->bind_frame < 0 ? ak_skeleton_rest_height(s) : ak_clip_standing_height(c, s);
    const float tol = 1e-5f * h;
    float worst = 0.0f;
    for (int method = 0; method < 2; ++method)
        for (int32_t f = 0; f < c->frame_count; f += 10) {
            skin_frame(s, c, body, f, method, a);
            skin_frame(s2, c2, m, f, method, b);
            for (int32_t k = 0; k < 3 * body->vertex_count; ++k)
                if (fabsf(a[k] - b[k]) > worst) worst = fabsf(a[k] - b[k]);
        }
    printf("%s body round trip (bound to frame %d): %d vertices, worst %.3g (bound %.3g, file "
           "units)\n",
           label, (int)body->bind_frame, (int)m->vertex_count, (double)worst, (double)tol);
    assert_true(worst <= tol);
    free(a), free(b);
    ak_body_mesh_destroy(m);
    ak_body_mesh_destroy(body);
    ak_free(glb);
    ak_skeleton_destroy(s2);
    ak_clip_destroy(c2);
}

static void gltf_mesh_roundtrips_body(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(akt_mocap_path("cmu_02_01_walk.bvh", mocap, sizeof mocap),
                                      NULL, &s, &c, &err),
                     AK_OK);
    roundtrip_body(s, c, "CMU 02_01");
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    akv_make("locomotion/cmu_02_02_walk.bvh", AKV_ZERO_ALONG_X, &s, &c);
    roundtrip_body(s, c, "CMU 02_02, zero pose along X");
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* Bad params, a skin joint outside the skeleton, no such skin, a truncated GLB, BVH: errors
 * with a reason; ak_clip_read_file_mesh gives no mesh for BVH. */
static void gltf_mesh_refuses_bad_input(void **state)
{
    (void)state;
    ak_body_mesh *m = (ak_body_mesh *)1;
    ak_error err;
    ak_gltf_mesh_params p = ak_gltf_mesh_defaults();
    assert_int_equal(ak_gltf_mesh_validate(&p, &err), AK_ERR_INVALID_ARG); /* no joint_node */
    const char *text = "{\"asset\":{\"version\":\"2.0\"}}";
    assert_int_equal(
        ak_gltf_read_mesh_memory((const uint8_t *)text, strlen(text), NULL, &p, &m, &err),
        AK_ERR_INVALID_ARG);
    assert_null(m);
    ak_skeleton *s;
    ak_clip *c;
    assert_int_equal(ak_clip_read_file(data_path("simple_skin.gltf"), &s, &c, &err), AK_OK);
    int32_t wrong[3] = {0, 1, 1}; /* node 2 is nobody's */
    p.joint_node = wrong, p.joint_count = 3;
    assert_int_equal(ak_gltf_read_mesh_file(data_path("simple_skin.gltf"), &p, &m, &err),
                     AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "not a joint of the skeleton"));
    assert_true(err.line > 0);
    p.skin = 3;
    assert_int_equal(ak_gltf_read_mesh_file(data_path("simple_skin.gltf"), &p, &m, &err),
                     AK_ERR_NOT_FOUND);
    uint8_t *glb;
    size_t size;
    assert_int_equal(ak_gltf_write_memory(s, c, NULL, 1, &glb, &size, &err), AK_OK);
    int32_t right[3] = {0, 1, 2};
    p.skin = 0, p.joint_node = right;
    assert_true(ak_gltf_read_mesh_memory(glb, size / 2, NULL, &p, &m, &err) < 0);
    assert_true(err.message[0] != '\0');
    assert_null(m);
    ak_free(glb);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    assert_int_equal(
        ak_clip_read_file_mesh(akt_mocap_path("cmu_02_01_walk.bvh", mocap, sizeof mocap), &s, &c,
                               &m, &err),
        AK_OK);
    assert_null(m);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gltf_mesh_reads_simple_skin),
        cmocka_unit_test(gltf_mesh_roundtrips_body),
        cmocka_unit_test(gltf_mesh_refuses_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
