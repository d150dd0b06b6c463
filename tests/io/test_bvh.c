/* BVH read limits (src/io/bvh.c): the defaults and each limit refused by name through
 * ak_bvh_read_validate and the reader; a limit of exactly the file's size reads, one less is
 * AK_ERR_LIMIT; ak_free releases what the writer returns. */
#include "test_params.h"

static const char k_text[] = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition "
                             "Yposition Zposition Zrotation Xrotation Yrotation\n JOINT Leg\n {\n"
                             "  OFFSET 0 -1 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
                             "  End Site\n  {\n   OFFSET 0 -1 0\n  }\n }\n}\nMOTION\nFrames: 3\n"
                             "Frame Time: 0.1\n0 1 0 0 0 0 0 0 0\n0 1 0 0 0 0 10 0 0\n"
                             "0 1 0 0 0 0 20 0 0\n";

static int32_t validate(const void *params, ak_error *err)
{
    return ak_bvh_read_validate((const ak_bvh_read_params *)params, err);
}

static int32_t read_with(const void *params, ak_error *err)
{
    if (!params) return ak_bvh_read_validate(NULL, err); /* the reader's NULL means defaults */
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    const int32_t st = ak_bvh_read_memory(k_text, sizeof k_text - 1,
                                          (const ak_bvh_read_params *)params, &s, &c, err);
    if (st == AK_OK) {
        assert_non_null(s);
        assert_non_null(c);
    } else {
        assert_null(s);
        assert_null(c);
    }
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
    return st;
}

static void bvh_read_params_validity(void **state)
{
    (void)state;
    const ak_bvh_read_params d = ak_bvh_read_defaults();
    assert_int_equal(d.max_joints, 1024);
    assert_int_equal(d.max_frames, 1000000);
    assert_true(d.max_bytes == (int64_t)512 * 1024 * 1024);
    akt_expect_refused(validate, &d, AK_OK, NULL, "defaults");
    akt_expect_refused(read_with, &d, AK_OK, NULL, "defaults read");
    akt_expect_refused(validate, NULL, AK_ERR_INVALID_ARG, "ak_bvh_read_params", "NULL");
    const int32_t bad_counts[] = {0, -1, INT32_MIN};
    for (size_t i = 0; i < sizeof bad_counts / sizeof bad_counts[0]; ++i) {
        ak_bvh_read_params p = d;
        p.max_joints = bad_counts[i];
        akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "max_joints", "max_joints");
        akt_expect_refused(read_with, &p, AK_ERR_INVALID_ARG, "max_joints", "read max_joints");
        p = d;
        p.max_frames = bad_counts[i];
        akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "max_frames", "max_frames");
        akt_expect_refused(read_with, &p, AK_ERR_INVALID_ARG, "max_frames", "read max_frames");
        p = d;
        p.max_bytes = bad_counts[i];
        akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "max_bytes", "max_bytes");
        akt_expect_refused(read_with, &p, AK_ERR_INVALID_ARG, "max_bytes", "read max_bytes");
    }
    ak_bvh_read_params p = d;
    p.max_bytes = INT64_MIN;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "max_bytes", "max_bytes INT64_MIN");
    /* the file reader validates before opening: a missing file with bad limits is the limits' */
    p = d;
    p.max_joints = 0;
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_read_file("no-such-file.bvh", &p, &sk, &clip, &err),
                     AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "max_joints"));
    assert_null(sk);
    assert_null(clip);
}

/* The file has 3 joints (Hips, Leg, the End Site), 3 frames and sizeof k_text - 1 bytes: each
 * limit at exactly that reads, one below is AK_ERR_LIMIT. */
static void limits_hold_at_the_files_own_size(void **state)
{
    (void)state;
    ak_error err;
    ak_bvh_read_params p = ak_bvh_read_defaults();
    p.max_joints = 3;
    p.max_frames = 3;
    p.max_bytes = (int64_t)(sizeof k_text - 1);
    assert_int_equal(read_with(&p, &err), AK_OK);
    p.max_joints = 2;
    assert_int_equal(read_with(&p, &err), AK_ERR_LIMIT);
    p.max_joints = 3;
    p.max_frames = 2;
    assert_int_equal(read_with(&p, &err), AK_ERR_LIMIT);
    p.max_frames = 3;
    p.max_bytes -= 1;
    assert_int_equal(read_with(&p, &err), AK_ERR_LIMIT);
}

/* ak_free releases a buffer of the library's allocator (the writer's text), and NULL. */
static void ak_free_releases_the_writers_text(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_read_memory(k_text, sizeof k_text - 1, NULL, &s, &c, &err), AK_OK);
    char *text = NULL;
    size_t size = 0;
    assert_int_equal(ak_bvh_write_memory(s, c, AK_ORDER_ZXY, &text, &size, &err), AK_OK);
    assert_non_null(text);
    assert_true(size > 0);
    assert_non_null(strstr(text, "ROOT Hips"));
    ak_free(text);
    ak_free(NULL);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bvh_read_params_validity),
        cmocka_unit_test(limits_hold_at_the_files_own_size),
        cmocka_unit_test(ak_free_releases_the_writers_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
