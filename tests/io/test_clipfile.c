/* Clip files of any format (src/io/clipfile.c): bad arguments refused (NULL outputs, empty
 * data, FBX in memory, an animation the file lacks), the format from the magic bytes and else
 * the extension, the names; a BVH and a glTF text read through the one entry point give the
 * reader's own skeleton and clip; a glTF animation chosen by name or by index as text. */
#include "test_params.h"

static const char k_bvh[] = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition "
                            "Yposition Zposition Zrotation Xrotation Yrotation\n End Site\n {\n"
                            "  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 2\nFrame Time: 0.5\n"
                            "0 0 0 0 0 0\n1 2 3 0 0 0\n";

/* One node sliding along +X over 1 s (times 0 and 1; translations (0,0,0) and (1,0,0)). */
static const char k_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"root\"}],"
    "\"buffers\":[{\"byteLength\":32,\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAA=\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":8},"
    "{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","
    "\"min\":[0],\"max\":[1]},{\"bufferView\":1,\"componentType\":5126,\"count\":2,"
    "\"type\":\"VEC3\"}],"
    "\"animations\":[{\"name\":\"slide\",\"samplers\":[{\"input\":0,\"output\":1}],"
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}";

static void read_arguments_validity(void **state)
{
    (void)state;
    ak_skeleton *s = (ak_skeleton *)(uintptr_t)1;
    ak_clip *c = (ak_clip *)(uintptr_t)1;
    ak_error err;
    const uint8_t *bvh = (const uint8_t *)k_bvh;
    assert_int_equal(ak_clip_read_memory(bvh, sizeof k_bvh - 1, NULL, NULL, &c, &err),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_read_memory(bvh, sizeof k_bvh - 1, NULL, &s, NULL, &err),
                     AK_ERR_INVALID_ARG);
    assert_true(ak_clip_read_memory(NULL, 10, NULL, &s, &c, &err) < 0);
    assert_null(s);
    assert_null(c);
    assert_true(ak_clip_read_memory(bvh, 0, NULL, &s, &c, &err) < 0);
    assert_null(s);
    static const uint8_t fbx[] = "Kaydara FBX Binary  \0\x1a\0";
    assert_int_equal(ak_clip_read_memory(fbx, sizeof fbx, NULL, &s, &c, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "FBX"));
    const uint8_t *gltf = (const uint8_t *)k_gltf;
    assert_int_equal(ak_clip_read_memory(gltf, sizeof k_gltf - 1, "walk", &s, &c, &err),
                     AK_ERR_NOT_FOUND);
    assert_non_null(strstr(err.message, "walk"));
    assert_null(s);
    assert_null(c);
    assert_true(ak_clip_read_memory(gltf, sizeof k_gltf - 1, "3", &s, &c, &err) < 0);
    assert_int_equal(ak_clip_read_file("no-such-file.bvh", &s, &c, &err), AK_ERR_IO);
    assert_null(s);
    /* an up axis out of ak_up_axis (the _up readers), before the data is looked at */
    static const int32_t bad_up[] = {-1, 3, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < sizeof bad_up / sizeof bad_up[0]; ++i) {
        s = (ak_skeleton *)(uintptr_t)1;
        assert_int_equal(
            ak_clip_read_memory_up(bvh, sizeof k_bvh - 1, NULL, bad_up[i], &s, &c, &err),
            AK_ERR_INVALID_ARG);
        assert_non_null(strstr(err.message, "must be 0 (auto), 1 (y) or 2 (z)"));
        assert_null(s);
        assert_null(c);
        assert_int_equal(ak_clip_read_file_up("no-such-file.bvh", bad_up[i], &s, &c, &err),
                         AK_ERR_INVALID_ARG);
    }
    assert_int_equal(ak_clip_read_memory_up(bvh, sizeof k_bvh - 1, NULL, AK_UP_Y, NULL, &c, &err),
                     AK_ERR_INVALID_ARG);
}

static void the_format_comes_from_the_bytes_then_the_name(void **state)
{
    (void)state;
    static const uint8_t glb[] = {'g', 'l', 'T', 'F', 2, 0, 0, 0};
    static const uint8_t fbx[] = "Kaydara FBX Binary  ";
    const uint8_t *bvh = (const uint8_t *)k_bvh, *json = (const uint8_t *)k_gltf;
    assert_int_equal(ak_clip_format_detect(NULL, glb, sizeof glb), AK_FORMAT_GLB);
    assert_int_equal(ak_clip_format_detect(NULL, fbx, sizeof fbx - 1), AK_FORMAT_FBX);
    assert_int_equal(ak_clip_format_detect(NULL, bvh, 20), AK_FORMAT_BVH);
    assert_int_equal(ak_clip_format_detect(NULL, json, 20), AK_FORMAT_GLTF);
    /* bytes win over the name */
    assert_int_equal(ak_clip_format_detect("walk.bvh", glb, sizeof glb), AK_FORMAT_GLB);
    /* no bytes: the extension, any case */
    assert_int_equal(ak_clip_format_detect("a/walk.BVH", NULL, 0), AK_FORMAT_BVH);
    assert_int_equal(ak_clip_format_detect("walk.gltf", NULL, 0), AK_FORMAT_GLTF);
    assert_int_equal(ak_clip_format_detect("walk.Glb", NULL, 0), AK_FORMAT_GLB);
    assert_int_equal(ak_clip_format_detect("walk.fbx", NULL, 0), AK_FORMAT_FBX);
    assert_int_equal(ak_clip_format_detect("walk.txt", NULL, 0), AK_FORMAT_UNKNOWN);
    assert_int_equal(ak_clip_format_detect(NULL, NULL, 0), AK_FORMAT_UNKNOWN);
    assert_string_equal(ak_clip_format_name(AK_FORMAT_BVH), "BVH");
    assert_string_equal(ak_clip_format_name(AK_FORMAT_GLTF), "glTF");
    assert_string_equal(ak_clip_format_name(AK_FORMAT_GLB), "GLB");
    assert_string_equal(ak_clip_format_name(AK_FORMAT_FBX), "FBX");
    assert_string_equal(ak_clip_format_name(AK_FORMAT_UNKNOWN), "unknown");
    assert_string_equal(ak_clip_format_name((ak_clip_format)42), "unknown");
}

/* The one entry point gives what each reader gives: the BVH's root at (1, 2, 3) in frame 1;
 * the glTF slide at x = 0.5 half way, chosen by name and by index "0". */
static void both_formats_read_through_one_entry(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(
        ak_clip_read_memory((const uint8_t *)k_bvh, sizeof k_bvh - 1, NULL, &s, &c, &err), AK_OK);
    assert_int_equal(c->frame_count, 2);
    AKT_NEAR(c->translations[1].x, 1.0f, 0.0);
    AKT_NEAR(c->translations[1].z, 3.0f, 0.0);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
    const char *const picks[] = {NULL, "slide", "0"};
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(
            ak_clip_read_memory((const uint8_t *)k_gltf, sizeof k_gltf - 1, picks[i], &s, &c, &err),
            AK_OK);
        assert_string_equal(s->names[0], "root");
        ak_xform pose[1];
        ak_clip_sample(c, s, 0.5f, AK_INTERP_LINEAR, pose);
        AKT_NEAR(pose[0].translation.x, 0.5f, 1e-6);
        ak_clip_destroy(c);
        ak_skeleton_destroy(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(read_arguments_validity),
        cmocka_unit_test(the_format_comes_from_the_bytes_then_the_name),
        cmocka_unit_test(both_formats_read_through_one_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
