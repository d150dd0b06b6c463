/* glTF animation clips (src/io/gltf_anim.c): ak_gltf_clip_params refused field by field
 * through ak_gltf_clip_validate and the reader; then a two-node file written here (a root
 * sliding 1 m along +X and a child turning 90 degrees about +Y over 1 s, LINEAR) read at
 * 10 fps: 11 frames, frame 5 half way (x = 0.5, a 45 degree turn), the info's counts; an
 * animation asked by a name the file lacks is refused by name. Last, the automatic rate: a
 * 24 or 25 fps capture (a key on every frame) keeps its rate, sparse keys on the same grid and
 * a 12 fps capture are raised to a multiple of at least 30 fps. */
#include "gltf_text.h"
#include "test_params.h"

static const char k_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"name\":\"root\",\"children\":[1]},{\"name\":\"child\",\"translation\":[0,1,0]}],"
    "\"buffers\":[{\"byteLength\":72,\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA8wQ1PwAAAADz"
    "BDU/\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":8},"
    "{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24},"
    "{\"buffer\":0,\"byteOffset\":32,\"byteLength\":8},"
    "{\"buffer\":0,\"byteOffset\":40,\"byteLength\":32}],"
    "\"accessors\":["
    "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
    "\"max\":[1]},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
    "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
    "\"max\":[1]},"
    "{\"bufferView\":3,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"}],"
    "\"animations\":[{\"name\":\"move\",\"samplers\":["
    "{\"input\":0,\"output\":1,\"interpolation\":\"LINEAR\"},"
    "{\"input\":2,\"output\":3,\"interpolation\":\"LINEAR\"}],\"channels\":["
    "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
    "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"rotation\"}}]}]}";

static int32_t validate(const void *params, ak_error *err)
{
    return ak_gltf_clip_validate((const ak_gltf_clip_params *)params, err);
}

static int32_t read_with(const void *params, ak_error *err)
{
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    const int32_t st =
        ak_gltf_read_clip_memory((const uint8_t *)k_gltf, sizeof k_gltf - 1, NULL,
                                 (const ak_gltf_clip_params *)params, &s, &c, NULL, err);
    if (st != AK_OK) {
        assert_null(s);
        assert_null(c);
    }
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
    return st;
}

static void gltf_clip_params_validity(void **state)
{
    (void)state;
    const ak_gltf_clip_params d = ak_gltf_clip_defaults();
    assert_int_equal(d.animation, 0);
    assert_null(d.animation_name);
    assert_int_equal(d.skin, -1);
    AKT_NEAR(d.fps, 0.0f, 0.0);
    AKT_NEAR(d.max_fps, 120.0f, 0.0);
    assert_int_equal(d.max_frames, 1000000);
    akt_expect_refused(validate, &d, AK_OK, NULL, "defaults");
    akt_expect_refused(read_with, &d, AK_OK, NULL, "defaults read");
    akt_expect_refused(validate, NULL, AK_ERR_INVALID_ARG, NULL, "NULL");
    const float bad_fps[] = {NAN, INFINITY, -INFINITY, -1.0f, 1000.5f, 1e20f};
    for (size_t i = 0; i < sizeof bad_fps / sizeof bad_fps[0]; ++i) {
        ak_gltf_clip_params p = d;
        p.fps = bad_fps[i];
        akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "fps", "fps");
        akt_expect_refused(read_with, &p, AK_ERR_INVALID_ARG, "fps", "read fps");
        p = d;
        p.max_fps = bad_fps[i];
        akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "max_fps", "max_fps");
    }
    ak_gltf_clip_params p = d;
    p.max_fps = 0.5f;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "max_fps", "max_fps 0.5");
    p = d;
    p.fps = 1000.0f;
    p.max_fps = 1.0f;
    akt_expect_refused(validate, &p, AK_OK, NULL, "bounds");
    p = d;
    p.animation = -1;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "animation", "animation -1");
    p = d;
    p.skin = -3;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "skin", "skin -3");
    const int32_t frames[] = {0, -1, INT32_MIN};
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; ++i) {
        p = d;
        p.max_frames = frames[i];
        akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "max_frames", "max_frames");
    }
    /* the reader's own limits: an animation index or name the file lacks, too few frames */
    p = d;
    p.animation = 1;
    akt_expect_refused(read_with, &p, AK_ERR_NOT_FOUND, NULL, "animation 1 of 1");
    p = d;
    p.animation_name = "walk";
    akt_expect_refused(read_with, &p, AK_ERR_NOT_FOUND, "walk", "no animation 'walk'");
    p = d;
    p.fps = 10.0f;
    p.max_frames = 10; /* the clip needs 11 */
    akt_expect_refused(read_with, &p, AK_ERR_LIMIT, NULL, "max_frames 10");
}

static void a_linear_slide_and_turn_read_at_10_fps(void **state)
{
    (void)state;
    ak_gltf_clip_params p = ak_gltf_clip_defaults();
    p.fps = 10.0f;
    p.animation_name = "move";
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_gltf_clip_info info;
    memset(&info, 0, sizeof info);
    ak_error err;
    assert_int_equal(ak_gltf_read_clip_memory((const uint8_t *)k_gltf, sizeof k_gltf - 1, NULL, &p,
                                              &s, &c, &info, &err),
                     AK_OK);
    assert_int_equal(info.animation_count, 1);
    assert_int_equal(info.animation, 0);
    assert_string_equal(info.animation_name, "move");
    assert_int_equal(info.skin, -1); /* no skin: the node tree */
    assert_int_equal(info.channels, 2);
    assert_int_equal(info.ignored_channels, 0);
    AKT_NEAR(info.fps, 10.0f, 0.0);
    AKT_NEAR(info.duration, 1.0f, 0.0);
    assert_int_equal(info.keys_on_frames, 1);
    assert_int_equal(s->joint_count, 2);
    assert_string_equal(s->names[0], "root");
    assert_string_equal(s->names[1], "child");
    assert_int_equal(c->frame_count, 11);
    AKT_NEAR(c->frame_time, 0.1f, 1e-7);
    ak_xform local[2], model[2];
    ak_clip_frame(c, s, 5, local);
    ak_fk(s, local, model);
    AKT_NEAR(model[0].translation.x, 0.5f, 1e-6);
    AKT_NEAR(model[1].translation.x, 0.5f, 1e-6);
    AKT_NEAR(model[1].translation.y, 1.0f, 1e-6);
    AKT_NEAR(ak_quat_angle(model[1].rotation), 0.25f * 3.14159265f, 1e-5);
    AKT_NEAR(fabsf(model[1].rotation.y), sinf(0.125f * 3.14159265f), 1e-6);
    ak_clip_frame(c, s, 10, local);
    AKT_NEAR(local[0].translation.x, 1.0f, 1e-6);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* A one-node file turning about +Y by 0.1 rad per key, keys at frames[k] / fps (k < keys), read
 * with the automatic rate: the clip's rate and frame count out, every key checked on its frame. */
static void read_keys_at(const int32_t *frames, int32_t keys, double fps, float *out_fps,
                         int32_t *out_frames)
{
    float data[5 * 32];
    assert_true(keys <= 32);
    for (int32_t k = 0; k < keys; ++k) {
        data[k] = (float)(frames[k] / fps);
        const ak_quat q = ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), 0.1f * (float)k);
        memcpy(&data[keys + 4 * k], &q, sizeof q);
    }
    akt_text t = {0};
    akt_put(&t,
            "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"name\": \"a\"}],\n"
            "\"bufferViews\": [{\"buffer\": 0, \"byteLength\": %d}, {\"buffer\": 0, "
            "\"byteOffset\": %d, \"byteLength\": %d}],\n\"accessors\": [{\"bufferView\": 0, "
            "\"componentType\": 5126, \"count\": %d, \"type\": \"SCALAR\"}, {\"bufferView\": 1, "
            "\"componentType\": 5126, \"count\": %d, \"type\": \"VEC4\"}],\n\"animations\": "
            "[{\"samplers\": [{\"input\": 0, \"output\": 1}], \"channels\": [{\"sampler\": 0, "
            "\"target\": {\"node\": 0, \"path\": \"rotation\"}}]}],\n",
            (int)(4 * keys), (int)(4 * keys), (int)(16 * keys), (int)keys, (int)keys);
    akt_put_buffer(&t, data, sizeof(float) * 5 * (size_t)keys, (long)(20 * keys));
    akt_put(&t, "}");
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_gltf_clip_info info;
    memset(&info, 0, sizeof info);
    ak_error err;
    if (ak_gltf_read_clip_memory((const uint8_t *)t.s, t.n, NULL, NULL, &s, &c, &info, &err) !=
        AK_OK)
        fail_msg("%s", err.message);
    assert_int_equal(info.keys_on_frames, 1);
    /* every key on its frame: frame frames[k] * clip rate / fps holds key k */
    const double scale = (double)info.fps / fps;
    for (int32_t k = 0; k < keys; ++k) {
        ak_xform local;
        ak_clip_frame(c, s, (int32_t)lround(frames[k] * scale), &local);
        const ak_quat q = ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), 0.1f * (float)k);
        AKT_NEAR(fabsf(ak_quat_dot(local.rotation, q)), 1.0, 1e-6);
    }
    *out_fps = info.fps;
    *out_frames = c->frame_count;
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
    free(t.s);
}

static void automatic_rate_keeps_captures_and_raises_sparse_keys(void **state)
{
    (void)state;
    int32_t every[26], sparse[4] = {0, 5, 12, 24};
    for (int32_t f = 0; f < 26; ++f)
        every[f] = f;
    float fps = 0.0f;
    int32_t frames = 0;
    read_keys_at(every, 25, 24.0, &fps, &frames); /* a 24 fps capture: 1 s, a key a frame */
    AKT_NEAR(fps, 24.0f, 1e-4);
    assert_int_equal(frames, 25);
    /* 24 fps as a BVH writes it (0.041667 s: 23.9998 fps, ReActIdle's) */
    read_keys_at(every, 25, 1.0 / 0.041667, &fps, &frames);
    AKT_NEAR(fps, 1.0 / 0.041667, 1e-3);
    assert_int_equal(frames, 25);
    read_keys_at(every, 26, 25.0, &fps, &frames); /* PAL: 1 s, 26 keys */
    AKT_NEAR(fps, 25.0f, 1e-4);
    assert_int_equal(frames, 26);
    read_keys_at(sparse, 4, 24.0, &fps, &frames); /* 4 keys on the 24 fps grid: raised */
    AKT_NEAR(fps, 48.0f, 1e-4);
    assert_int_equal(frames, 49);
    read_keys_at(every, 13, 12.0, &fps, &frames); /* a key every 1/12 s: under 24, raised */
    AKT_NEAR(fps, 36.0f, 1e-4);
    assert_int_equal(frames, 37);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gltf_clip_params_validity),
        cmocka_unit_test(a_linear_slide_and_turn_read_at_10_fps),
        cmocka_unit_test(automatic_rate_keeps_captures_and_raises_sparse_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
