/* Issue 10 on the io layer: writers that are locale-proof and UTF-8-correct, refuse
 * non-finite output, stream the same text they write in one piece; a reader that refuses
 * binary input at once and inputs whose derived values (duration, positions) overflow. */
#define _XOPEN_SOURCE 700
#include "test_util.h"
#include "bvh_test_util.h"
#include "io/bvh_internal.h"
#include "io/file.h"

#include <cjson/cJSON.h>
#include <locale.h>
#include <unistd.h>

static ak_skeleton *g_s;
static ak_clip *g_c;

static int load(void **state)
{
    (void)state;
    ak_error err;
    return ak_bvh_read_file(mocap_path("cmu_02_01_walk.bvh"), NULL, &g_s, &g_c, &err);
}

static int unload(void **state)
{
    (void)state;
    ak_skeleton_destroy(g_s);
    ak_clip_destroy(g_c);
    return 0;
}

/* A comma-decimal locale for the whole process, as a host program would set it; skips when
 * none is installed (make deps generates de_DE.UTF-8). */
static void comma_locale(void)
{
    if (!setlocale(LC_ALL, "de_DE.UTF-8") && !setlocale(LC_ALL, "de_DE.utf8")) {
        print_message("de_DE.UTF-8 is not installed (make deps generates it)\n");
        skip();
    }
    char probe[16];
    snprintf(probe, sizeof probe, "%.1f", 1.5);
    assert_string_equal(probe, "1,5"); /* the locale really is in force */
}

static void bvh_written_under_a_comma_locale_reads_back(void **state)
{
    (void)state;
    comma_locale();
    char *text = NULL;
    size_t size = 0;
    ak_error err;
    assert_int_equal(ak_bvh_write_memory(g_s, g_c, AK_ORDER_ZXY, &text, &size, &err), AK_OK);
    char path[600];
    snprintf(path, sizeof path, "%s/tests/locale_%d.bvh", getenv("AK_BUILD_DIR"), (int)getpid());
    assert_int_equal(ak_bvh_write_file(path, g_s, g_c, AK_ORDER_ZXY, &err), AK_OK);
    ak_skeleton *s2 = NULL, *s3 = NULL;
    ak_clip *c2 = NULL, *c3 = NULL;
    /* Read back under the same locale: the reader's numbers are locale-independent too. */
    assert_int_equal(ak_bvh_read_memory(text, size, NULL, &s2, &c2, &err), AK_OK);
    assert_int_equal(ak_bvh_read_file(path, NULL, &s3, &c3, &err), AK_OK);
    setlocale(LC_ALL, "C");
    const double tol = 1e-5 * standing_height(g_s, g_c);
    assert_true(max_world_distance(g_s, g_c, s2, c2) <= tol);
    assert_true(max_world_distance(g_s, g_c, s3, c3) <= tol);
    remove(path);
    free(text);
    ak_skeleton_destroy(s2);
    ak_skeleton_destroy(s3);
    ak_clip_destroy(c2);
    ak_clip_destroy(c3);
}

static void gltf_written_under_a_comma_locale_is_json(void **state)
{
    (void)state;
    comma_locale();
    uint8_t *data = NULL;
    size_t size = 0;
    ak_error err;
    ak_gltf_params o = ak_gltf_defaults();
    o.metres_per_unit = 0.056444f;
    assert_int_equal(ak_gltf_write_memory(g_s, g_c, &o, 0, &data, &size, &err), AK_OK);
    setlocale(LC_ALL, "C");
    cJSON *doc = cJSON_ParseWithLength((const char *)data, size);
    assert_non_null(doc);
    /* Node 1's translation is its OFFSET in metres: the numbers survived whole. */
    cJSON *t = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "nodes"), 1),
                                   "translation");
    const ak_vec3 off = g_s->rest_local[1].translation;
    AKT_NEAR(cJSON_GetArrayItem(t, 0)->valuedouble, off.x * 0.056444f, 1e-7);
    AKT_NEAR(cJSON_GetArrayItem(t, 1)->valuedouble, off.y * 0.056444f, 1e-7);
    AKT_NEAR(cJSON_GetArrayItem(t, 2)->valuedouble, off.z * 0.056444f, 1e-7);
    cJSON_Delete(doc);
    free(data);
}

/* A three-joint chain with the given names and 2 frames. */
static void make_chain(const char *const names[3], float offset, float frame_time, ak_skeleton **s,
                       ak_clip **c)
{
    const int32_t parents[3] = {-1, 0, 1};
    ak_xform rest[3];
    for (int j = 0; j < 3; ++j) {
        rest[j].rotation = ak_quat_identity();
        rest[j].translation = ak_vec3_make(0, j ? offset : 0, 0);
    }
    ak_skeleton_desc d = {3, names, parents, rest, NULL, NULL};
    ak_error err;
    assert_int_equal(ak_skeleton_create(&d, s, &err), AK_OK);
    assert_int_equal(ak_clip_create(3, 2, frame_time, NULL, c, &err), AK_OK);
}

static void gltf_names_are_utf8_with_only_the_json_escapes(void **state)
{
    (void)state;
    const char *names[3] = {"H\xc3\xbc"
                            "fte",
                            "Knie \"L\"\\1", "Fu\xdf\x01"};
    ak_skeleton *s;
    ak_clip *c;
    make_chain(names, 0.4f, 1.0f / 30.0f, &s, &c);
    uint8_t *data = NULL;
    size_t size = 0;
    ak_error err;
    assert_int_equal(ak_gltf_write_memory(s, c, NULL, 0, &data, &size, &err), AK_OK);
    /* The UTF-8 name is copied byte for byte, not escaped per byte. */
    assert_non_null(strstr((const char *)data, "\"name\":\"H\xc3\xbc"
                                               "fte\""));
    cJSON *doc = cJSON_ParseWithLength((const char *)data, size);
    assert_non_null(doc);
    cJSON *nodes = cJSON_GetObjectItem(doc, "nodes");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, 0), "name")->valuestring,
                        "H\xc3\xbc"
                        "fte");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, 1), "name")->valuestring,
                        "Knie \"L\"\\1");
    /* Latin-1 0xDF (an old file's sharp s) becomes U+00DF in UTF-8; 0x01 is escaped. */
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, 2), "name")->valuestring,
                        "Fu\xc3\x9f\x01");
    assert_non_null(strstr((const char *)data, "\\u0001"));
    cJSON_Delete(doc);
    free(data);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

static void gltf_refuses_values_that_overflow(void **state)
{
    (void)state;
    const char *names[3] = {"a", "b", "c"};
    ak_skeleton *s;
    ak_clip *c;
    make_chain(names, 1e34f, 3e38f, &s, &c); /* frame 1 is at 3e38 s: fine; see below */
    uint8_t *data = (uint8_t *)1;
    size_t size = 1;
    ak_error err;
    ak_gltf_params o = ak_gltf_defaults();
    o.metres_per_unit = 1e6f; /* within its range, yet 1e34 units -> 1e40 m: not a float */
    assert_int_equal(ak_gltf_write_memory(s, c, &o, 0, &data, &size, &err), AK_ERR_INVALID_ARG);
    assert_null(data);
    assert_non_null(strstr(err.message, "overflow"));
    ak_clip_destroy(c);
    ak_clip_create(3, 3, 3e38f, NULL, &c, &err); /* frame 2 is at 6e38 s: infinite */
    assert_int_equal(ak_gltf_write_memory(s, c, NULL, 1, &data, &size, &err), AK_ERR_INVALID_ARG);
    assert_null(data);
    char path[600];
    snprintf(path, sizeof path, "%s/tests/overflow_%d.gltf", getenv("AK_BUILD_DIR"), (int)getpid());
    assert_int_equal(ak_gltf_write_file(path, s, c, NULL, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(access(path, F_OK), -1); /* nothing written */
    ak_clip_destroy(c);
    /* One translation key that overflows in metres, inside the first keys (the binary
     * buffer's check reads 16 floats a step), not only in the tail: JSON does not hold it. */
    ak_clip_create(3, 40, 1.0f / 30.0f, NULL, &c, &err);
    c->translations[(size_t)20 * (size_t)c->track_count] = ak_vec3_make(1e38f, 0.0f, 0.0f);
    o.metres_per_unit = 10.0f;
    assert_int_equal(ak_gltf_write_memory(s, c, &o, 1, &data, &size, &err), AK_ERR_INVALID_ARG);
    assert_null(data);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

static void streamed_bvh_is_the_same_text(void **state)
{
    (void)state;
    char *whole = NULL;
    size_t whole_size = 0;
    ak_error err;
    assert_int_equal(ak_bvh_write_memory(g_s, g_c, AK_ORDER_ZYX, &whole, &whole_size, &err), AK_OK);
    char path[600];
    snprintf(path, sizeof path, "%s/tests/stream_%d.bvh", getenv("AK_BUILD_DIR"), (int)getpid());
    akio_atomic out;
    akbvh_stream *w = NULL;
    uint8_t *has_t = (uint8_t *)calloc((size_t)g_s->joint_count, 1);
    for (int32_t j = 0; j < g_s->joint_count; ++j)
        has_t[j] = g_c->joint_track[j] >= 0;
    assert_int_equal(akio_atomic_open(&out, path, &err), AK_OK);
    assert_int_equal(akbvh_stream_begin(&out, g_s, has_t, AK_ORDER_ZYX, g_c->frame_time, &w, &err),
                     AK_OK);
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)g_s->joint_count);
    for (int32_t f = 0; f < g_c->frame_count; ++f) {
        for (int32_t j = 0; j < g_s->joint_count; ++j) {
            local[j].rotation = g_c->rotations[(size_t)f * (size_t)g_s->joint_count + (size_t)j];
            const int32_t k = g_c->joint_track[j];
            local[j].translation =
                k >= 0 ? g_c->translations[(size_t)f * (size_t)g_c->track_count + (size_t)k]
                       : g_s->rest_local[j].translation;
        }
        assert_int_equal(akbvh_stream_frame(w, local, &err), AK_OK);
    }
    assert_int_equal(akbvh_stream_end(w, &err), AK_OK);
    assert_int_equal(akio_atomic_commit(&out, &err), AK_OK);
    size_t n = 0;
    char *streamed = slurp(path, &n);
    /* Identical but for the reserved width of the frame count. */
    char frames_line[64];
    snprintf(frames_line, sizeof frames_line, "Frames:%11d\n", (int)g_c->frame_count);
    char *at = strstr(streamed, frames_line);
    assert_non_null(at);
    char *fixed = (char *)malloc(n + 1);
    size_t head = (size_t)(at - streamed);
    memcpy(fixed, streamed, head);
    int k = sprintf(fixed + head, "Frames: %d\n", (int)g_c->frame_count);
    strcpy(fixed + head + (size_t)k, at + strlen(frames_line));
    assert_int_equal(strlen(fixed), whole_size);
    assert_memory_equal(fixed, whole, whole_size);
    remove(path);
    free(fixed);
    free(streamed);
    free(whole);
    free(local);
    free(has_t);
}

static void expect_parse_error(const char *text, size_t size, int line, const char *piece)
{
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    int32_t st = ak_bvh_read_memory(text, size, NULL, &s, &c, &err);
    if (st != AK_ERR_PARSE || err.line != line || !strstr(err.message, piece))
        fail_msg("status %d line %d '%s'; wanted AK_ERR_PARSE line %d '%s'", (int)st, (int)err.line,
                 err.message, line, piece);
    assert_null(s);
    assert_null(c);
}

static void binary_input_fails_on_its_first_kilobyte(void **state)
{
    (void)state;
    static const char nul[] = "HIERARCHY\nROOT Hips\n{\n\0OFFSET 0 0 0\n";
    expect_parse_error(nul, sizeof nul - 1, 4, "binary data (byte 0x00)");
    static const char utf16[] = "\xff\xfeH\0I\0E\0R\0";
    expect_parse_error(utf16, sizeof utf16 - 1, 1, "UTF-16");
    static const char utf16_no_bom[] = "H\0I\0E\0R\0A\0R\0C\0H\0Y\0";
    expect_parse_error(utf16_no_bom, sizeof utf16_no_bom - 1, 1, "UTF-16");
    /* Issue 26: binary that starts with 0x00 is binary, not "looks like UTF-16" */
    static const char zero_first[] = "\0\x13\x88\xfe\x01\x02\x03\x04\x05\x06\x07\x08\x09";
    expect_parse_error(zero_first, sizeof zero_first - 1, 1, "binary data (byte 0x00)");
    ak_skeleton *s0 = NULL;
    ak_clip *c0 = NULL;
    ak_error e0;
    assert_int_equal(ak_bvh_read_memory(zero_first, sizeof zero_first - 1, NULL, &s0, &c0, &e0),
                     AK_ERR_PARSE);
    assert_null(strstr(e0.message, "UTF-16"));
    /* /dev/zero is endless: the old reader read 512 MiB before failing on the size limit. The
     * file reader (akio_read_file) opens regular files only: refused before any read. */
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    if (access("/dev/zero", R_OK) == 0) {
        assert_int_equal(ak_bvh_read_file("/dev/zero", NULL, &s, &c, &err), AK_ERR_IO);
        assert_non_null(strstr(err.message, "not a regular file"));
    }
    /* A regular file of 1 MiB of zeros fails on its first kilobyte (the sniff), line 1. */
    char path[512];
    snprintf(path, sizeof path, "%s/ak_zeros_%ld.bvh", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid());
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    static char zeros[1 << 20];
    assert_int_equal(fwrite(zeros, 1, sizeof zeros, f), sizeof zeros);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(ak_bvh_read_file(path, NULL, &s, &c, &err), AK_ERR_PARSE);
    remove(path);
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.message, "binary data"));
    assert_null(s);
    assert_null(c);
}

static void derived_values_that_overflow_are_refused(void **state)
{
    (void)state;
    /* 2 frames of 3e38 s: the looping duration 6e38 s is no float. */
    const char *time_text =
        "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n"
        " End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 2\nFrame Time: 3e38\n0 0 0\n0 0 0\n";
    expect_parse_error(time_text, strlen(time_text), 13, "duration");
    /* Offsets each a float, their sum along the chain not: 3e38 + 3e38. */
    const char *sum_text =
        "HIERARCHY\nROOT a\n{\n OFFSET 3e38 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n"
        " JOINT b\n {\n  OFFSET 3e38 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
        "  End Site\n  {\n   OFFSET 0 1 0\n  }\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0 0 "
        "0 0\n";
    expect_parse_error(sum_text, strlen(sum_text), 2, "overflow");
    /* Position channels count too: a root that travels 1e38 units. */
    const char *pos_text = "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition "
                           "Zposition Zrotation Xrotation Yrotation\n"
                           " End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 2\nFrame Time: "
                           "0.1\n0 0 0 0 0 0\n1e38 0 0 0 0 0\n";
    expect_parse_error(pos_text, strlen(pos_text), 2, "overflow");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bvh_written_under_a_comma_locale_reads_back),
        cmocka_unit_test(gltf_written_under_a_comma_locale_is_json),
        cmocka_unit_test(gltf_names_are_utf8_with_only_the_json_escapes),
        cmocka_unit_test(gltf_refuses_values_that_overflow),
        cmocka_unit_test(streamed_bvh_is_the_same_text),
        cmocka_unit_test(binary_input_fails_on_its_first_kilobyte),
        cmocka_unit_test(derived_values_that_overflow_are_refused),
    };
    return cmocka_run_group_tests(tests, load, unload);
}
