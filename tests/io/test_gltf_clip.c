/* glTF / GLB clips read by the library (src/io/gltf_anim*.c, gltf_doc.c, clipfile.c):
 * round trips through animkit's own writer, the hand-made files of tests/data/gltf against
 * values worked out from their numbers, the choice of animation, skin and rate, and GLB
 * framing. Malformed documents: test_gltf_doc.c (JSON, nodes, buffers, accessors) and
 * test_gltf_anim_eval.c (samplers, channels). three.js agreement is io_gltf_three. */
#include "test_util.h"

static char path_buf[1024];

static const char *data_path(const char *name)
{
    const char *src = getenv("AK_SOURCE_DIR");
    snprintf(path_buf, sizeof path_buf, "%s/tests/data/gltf/%s", src ? src : ".", name);
    return path_buf;
}

static const char *mocap_path(const char *name)
{
    const char *dir = getenv("AK_MOCAP_DIR");
    snprintf(path_buf, sizeof path_buf, "%s/%s", dir ? dir : "tests/data/mocap", name);
    return path_buf;
}

/* Model-space positions of frame f. */
static void positions(const ak_skeleton *s, const ak_clip *c, int32_t f, ak_xform *world)
{
    ak_xform local[256];
    ak_clip_frame(c, s, f, local);
    ak_fk(s, local, world);
}

/* read(write(clip)) reproduces every joint of every frame within 1e-5 of the skeleton's
 * height (float keys; the writer's metres_per_unit 1 keeps file units). */
static void roundtrip(int cubic, int binary)
{
    ak_skeleton *s, *s2;
    ak_clip *c, *c2;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(mocap_path("cmu_02_01_walk.bvh"), NULL, &s, &c, &err), AK_OK);
    ak_gltf_params o = ak_gltf_defaults();
    o.cubic = cubic;
    uint8_t *data;
    size_t size;
    assert_int_equal(ak_gltf_write_memory(s, c, &o, binary, &data, &size, &err), AK_OK);
    ak_gltf_clip_info info = {0};
    int32_t st = ak_gltf_read_clip_memory(data, size, NULL, NULL, &s2, &c2, &info, &err);
    if (st != AK_OK) fail_msg("%s", err.message);
    assert_int_equal(c2->frame_count, c->frame_count);
    AKT_NEAR(c2->frame_time, c->frame_time, 1e-6);
    assert_int_equal(info.keys_on_frames, 1);
    assert_int_equal(s2->joint_count, s->joint_count); /* node per joint, tips included */
    const float tol = 1e-5f * ak_skeleton_rest_height(s);
    ak_xform w1[256], w2[256];
    for (int32_t f = 0; f < c->frame_count; ++f) {
        positions(s, c, f, w1);
        positions(s2, c2, f, w2);
        for (int32_t j = 0; j < s->joint_count; ++j) {
            assert_string_equal(s->names[j], s2->names[j]);
            const ak_vec3 d = ak_vec3_sub(w1[j].translation, w2[j].translation);
            if (ak_vec3_length(d) > tol)
                fail_msg("frame %d joint %s off by %g (tol %g)", (int)f, s->names[j],
                         (double)ak_vec3_length(d), (double)tol);
        }
    }
    ak_free(data);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s2);
    ak_clip_destroy(c2);
}

static void gltf_clip_roundtrips_linear_json(void **state)
{
    (void)state;
    roundtrip(0, 0);
}

static void gltf_clip_roundtrips_cubic_glb(void **state)
{
    (void)state;
    roundtrip(1, 1);
}

static ak_quat axis_angle(float x, float y, float z, float a)
{
    return ak_quat_from_axis_angle(ak_vec3_make(x, y, z), a);
}

/* STEP holds the key at or before t; the rate comes from the 0.1 s keys (10 fps raised to
 * 30); the sparse accessor is zero but at keys 2 and 4; the matrix node keeps its matrix. */
static void gltf_clip_reads_step_cubic_sparse(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    ak_error err;
    ak_gltf_clip_info info = {0};
    if (ak_gltf_read_clip_file(data_path("steps_cubic_sparse.gltf"), NULL, &s, &c, &info, &err) !=
        AK_OK)
        fail_msg("%s", err.message);
    AKT_NEAR(info.fps, 30.0, 1e-4);
    assert_int_equal(c->frame_count, 13); /* 0 .. 0.4 s */
    assert_int_equal(info.keys_on_frames, 1);
    assert_string_equal(info.animation_name, "mixed");
    assert_int_equal(s->joint_count, 6);
    ak_xform local[6];
    /* frame 4 = 0.1333 s: STEP rotation of "arm" is key 1 (0.5 rad about Z). */
    ak_clip_frame(c, s, 4, local);
    const ak_quat want = axis_angle(0, 0, 1, 0.5f);
    AKT_NEAR(fabsf(ak_quat_dot(local[1].rotation, want)), 1.0, 1e-6);
    /* frame 6 = 0.2 s: the sparse translation of "base" is key 2: (0.3, 0.1, -0.2) plus
     * nothing (the node's own translation is replaced by the channel). */
    ak_clip_frame(c, s, 6, local);
    AKT_NEAR(local[0].translation.x, 0.3, 1e-6);
    AKT_NEAR(local[0].translation.y, 0.1, 1e-6);
    AKT_NEAR(local[0].translation.z, -0.2, 1e-6);
    /* frame 3 = 0.1 s: key 1 of the sparse accessor is 0 (not substituted). */
    ak_clip_frame(c, s, 3, local);
    AKT_NEAR(local[0].translation.x, 0.0, 1e-6);
    /* CUBICSPLINE translation of "fore" at key 2 (frame 6) is its value (0.2, 0.5+0.2 sin 2). */
    ak_clip_frame(c, s, 6, local);
    AKT_NEAR(local[2].translation.x, 0.2, 1e-6);
    AKT_NEAR(local[2].translation.y, 0.5 + 0.2 * sin(2.0), 1e-6);
    /* Halfway between keys 1 and 2 (0.15 s is not a frame at 30 fps: read at 20 fps, frame 3):
     * Hermite p = (v1+v2)/2 + dt/8 (b1 - a2) with b = (-0.4, 0.1k, 0.2), a = (0.3, -0.2k, 0.1). */
    ak_gltf_clip_params p = ak_gltf_clip_defaults();
    p.fps = 20.0f;
    ak_skeleton *s20;
    ak_clip *c20;
    assert_int_equal(
        ak_gltf_read_clip_file(data_path("steps_cubic_sparse.gltf"), &p, &s20, &c20, NULL, &err),
        AK_OK);
    ak_clip_frame(c20, s20, 3, local);
    const double v1y = 0.5 + 0.2 * sin(1.0), v2y = 0.5 + 0.2 * sin(2.0);
    AKT_NEAR(local[2].translation.x, 0.15 + 0.1 / 8 * (-0.4 - 0.3), 1e-6);
    AKT_NEAR(local[2].translation.y, (v1y + v2y) / 2 + 0.1 / 8 * (0.1 - (-0.4)), 1e-6);
    /* The matrix node "fixed": 0.7 rad about Z, translation (0.2, 0.3, -0.1). */
    AKT_NEAR(fabsf(ak_quat_dot(local[4].rotation, axis_angle(0, 0, 1, 0.7f))), 1.0, 1e-6);
    AKT_NEAR(local[4].translation.y, 0.3, 1e-6);
    ak_skeleton_destroy(s20);
    ak_clip_destroy(c20);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* Two animations by index and name; the skin's joints and the nodes above them; the
 * Armature's 0.01 scale baked into translations; an external buffer named with %20; the
 * weights channel ignored; the animated parent scale moves the child's translation. */
static void gltf_clip_picks_animation_and_skin(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    ak_error err;
    ak_gltf_clip_info info = {0};
    int32_t nodes[8];
    info.joint_node = nodes;
    info.joint_node_capacity = 8;
    ak_gltf_clip_params p = ak_gltf_clip_defaults();
    if (ak_gltf_read_clip_file(data_path("two_anims_skin.gltf"), &p, &s, &c, &info, &err) != AK_OK)
        fail_msg("%s", err.message);
    assert_int_equal(info.animation_count, 2);
    assert_string_equal(info.animation_name, "Wave");
    assert_int_equal(info.skin, 0);
    assert_int_equal(info.ignored_channels, 1);
    assert_int_equal(s->joint_count, 4);
    assert_string_equal(s->names[0], "Armature");
    assert_string_equal(s->names[2], "node2");
    assert_int_equal(nodes[3], 3);
    assert_int_equal(nodes[4], -1);
    /* hip at (0,0,90) cm under a -90 deg X turn and 0.01 scale: (0, 0.9, 0) m in the rest. */
    ak_xform world[4], local[4];
    ak_pose_rest(s, local);
    ak_fk(s, local, world);
    AKT_NEAR(world[1].translation.y, 0.9, 1e-6);
    AKT_NEAR(world[1].translation.z, 0.0, 1e-6);
    AKT_NEAR(local[2].translation.z, 0.45, 1e-6); /* 45 cm scaled */
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    p.animation_name = "Grow";
    assert_int_equal(
        ak_gltf_read_clip_file(data_path("two_anims_skin.gltf"), &p, &s, &c, &info, &err), AK_OK);
    assert_int_equal(info.animation, 1);
    assert_int_equal(info.scale_channels, 1);
    /* At 0.25 s node2's scale is 1.5: toe's translation (0,5,40) cm -> x1.5 -> 0.6 m along z. */
    const int32_t f = (int32_t)lroundf(0.25f * info.fps);
    ak_clip_frame(c, s, f, local);
    AKT_NEAR(local[3].translation.z, 0.6, 1e-6);
    AKT_NEAR(local[3].translation.y, 0.075, 1e-6);
    assert_true(c->joint_track[3] >= 0); /* its translation moves: a track */
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    p.animation_name = "Nope";
    assert_int_equal(
        ak_gltf_read_clip_file(data_path("two_anims_skin.gltf"), &p, &s, &c, NULL, &err),
        AK_ERR_NOT_FOUND);
    assert_non_null(strstr(err.message, "Nope"));
    assert_null(s);
    assert_null(c);
}

/* ak_clip_read_file: "file#Name" and "file#1" pick an animation; BVH still reads. */
static void clip_file_dispatches_and_selects(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    ak_error err;
    char sel[1100];
    snprintf(sel, sizeof sel, "%s#Grow", data_path("two_anims_skin.gltf"));
    assert_int_equal(ak_clip_read_file(sel, &s, &c, &err), AK_OK);
    AKT_NEAR(ak_clip_duration(c), 1.25, 1e-6);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    snprintf(sel, sizeof sel, "%s#1", data_path("two_anims_skin.gltf"));
    assert_int_equal(ak_clip_read_file(sel, &s, &c, &err), AK_OK);
    AKT_NEAR(ak_clip_duration(c), 1.25, 1e-6);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    assert_int_equal(ak_clip_read_file(mocap_path("cmu_02_01_walk.bvh"), &s, &c, &err), AK_OK);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    assert_int_equal(ak_clip_format_detect("x.FBX", NULL, 0), AK_FORMAT_FBX);
    assert_int_equal(ak_clip_format_detect("x.bvh", (const uint8_t *)"glTF", 4), AK_FORMAT_GLB);
    assert_int_equal(
        ak_clip_read_memory((const uint8_t *)"Kaydara FBX Binary  \0", 21, NULL, &s, &c, &err),
        AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "assimp"));
}

/* Quantized rotations (normalized SHORT, normalized BYTE under STEP) read as unit quaternions
 * of the file's numbers; a byteStride of 16 skips the padding. */
static void gltf_clip_reads_quantized_and_strided(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    ak_error err;
    ak_gltf_clip_info info = {0};
    assert_int_equal(ak_gltf_read_clip_file(data_path("quantized.gltf"), NULL, &s, &c, &info, &err),
                     AK_OK);
    AKT_NEAR(info.fps, 30.0, 1e-4); /* keys every 1/3 s */
    ak_xform local[4];
    ak_clip_frame(c, s, 10, local);              /* 1/3 s: key 1 */
    AKT_NEAR(local[1].translation.x, 0.3, 1e-6); /* (3, 12, -2) under the root's 0.1 scale */
    AKT_NEAR(local[1].translation.z, -0.2, 1e-6);
    AKT_NEAR(fabsf(ak_quat_dot(local[2].rotation, axis_angle(0, 1, 1, 0.8f))), 1.0, 1e-4);
    AKT_NEAR(fabsf(ak_quat_dot(local[3].rotation, axis_angle(1, 0, 0.5f, -0.5f))), 1.0, 1e-3);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

static void gltf_clip_refuses_bad_glb_framing(void **state)
{
    (void)state;
    /* A valid GLB of a one-node document, then cut and lied about. */
    const char json[] = "{\"nodes\":[{\"name\":\"a\"}]}   ";
    uint8_t glb[20 + sizeof json];
    const uint32_t h[5] = {0x46546C67u, 2u, (uint32_t)(20 + sizeof json - 1),
                           (uint32_t)(sizeof json - 1), 0x4E4F534Au};
    memcpy(glb, h, 20);
    memcpy(glb + 20, json, sizeof json - 1);
    const size_t n = 20 + sizeof json - 1;
    ak_skeleton *s;
    ak_clip *c;
    ak_error err;
    assert_int_equal(ak_gltf_read_clip_memory(glb, n, NULL, NULL, &s, &c, NULL, &err), AK_OK);
    assert_string_equal(s->names[0], "a");
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    assert_int_equal(ak_gltf_read_clip_memory(glb, n - 5, NULL, NULL, &s, &c, NULL, &err),
                     AK_ERR_PARSE);
    assert_non_null(strstr(err.message, "truncated"));
    assert_int_equal(ak_gltf_read_clip_memory(glb, 12, NULL, NULL, &s, &c, NULL, &err),
                     AK_ERR_PARSE);
    uint32_t lie = 4000;
    memcpy(glb + 12, &lie, 4); /* JSON chunk longer than the file */
    assert_int_equal(ak_gltf_read_clip_memory(glb, n, NULL, NULL, &s, &c, NULL, &err),
                     AK_ERR_PARSE);
    assert_non_null(strstr(err.message, "JSON chunk"));
    ak_gltf_clip_params p = ak_gltf_clip_defaults();
    p.max_fps = 0.0f;
    assert_int_equal(ak_gltf_clip_validate(&p, &err), AK_ERR_INVALID_ARG);
}

/* Files from Debian's assimp-testmodels when installed: the cyclic node file is refused with
 * the node named; simple_skin reads (3 joints, keys every 0.5 s raised to 30 fps). */
static void gltf_clip_reads_assimp_samples(void **state)
{
    (void)state;
    const char *cyc = "/usr/share/assimp/models/glTF2/RecursiveNodes/RecursiveNodes.gltf";
    const char *skin = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";
    FILE *f = fopen(skin, "rb");
    if (!f) skip();
    fclose(f);
    ak_skeleton *s;
    ak_clip *c;
    ak_error err;
    assert_int_equal(ak_clip_read_file(cyc, &s, &c, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "cycle"));
    assert_true(err.line > 0);
    ak_gltf_clip_info info = {0};
    assert_int_equal(ak_gltf_read_clip_file(skin, NULL, &s, &c, &info, &err), AK_OK);
    assert_int_equal(s->joint_count, 3);
    AKT_NEAR(info.fps, 30.0, 1e-4);
    assert_int_equal(c->frame_count, 166);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gltf_clip_roundtrips_linear_json),
        cmocka_unit_test(gltf_clip_roundtrips_cubic_glb),
        cmocka_unit_test(gltf_clip_reads_step_cubic_sparse),
        cmocka_unit_test(gltf_clip_picks_animation_and_skin),
        cmocka_unit_test(clip_file_dispatches_and_selects),
        cmocka_unit_test(gltf_clip_reads_quantized_and_strided),
        cmocka_unit_test(gltf_clip_refuses_bad_glb_framing),
        cmocka_unit_test(gltf_clip_reads_assimp_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
