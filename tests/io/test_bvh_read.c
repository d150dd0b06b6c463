/* BVH reader: worked numbers for channel orders and position channels, the text forms real
 * files use, the malformed corpus (each file's status, line and reason), limits, and the
 * number parser against strtod. */
#include "bvh_test_util.h"
#include "io/bvh_number.h"

#include <float.h>

static void assert_vec3_near(ak_vec3 v, double x, double y, double z, double tol)
{
    if (fabs(v.x - x) > tol || fabs(v.y - y) > tol || fabs(v.z - z) > tol)
        fail_msg("got (%.7g, %.7g, %.7g), expected (%.7g, %.7g, %.7g)", v.x, v.y, v.z, x, y, z);
}

/* ok_minimal.bvh, frame f: Hips at (f, 90, 0); Chest 10 above; Chest = Rz(10) Rx(20) Ry(30)
 * applied to the End Site offset (0, 5, 0): Ry leaves it, Rx(20) gives
 * (0, 5 cos20, 5 sin20), Rz(10) gives (-5 cos20 sin10, 5 cos20 cos10, 5 sin20). */
static void check_minimal(const ak_skeleton *s, const ak_clip *c)
{
    const double d2r = 3.14159265358979323846 / 180.0;
    assert_int_equal(s->joint_count, 3);
    assert_string_equal(s->names[0], "Hips");
    assert_string_equal(s->names[1], "Chest");
    assert_string_equal(s->names[2], "Chest_end");
    assert_int_equal(s->is_end_site[2], 1);
    assert_int_equal(s->channels[2].count, 0);
    assert_int_equal(s->channels[0].count, 6);
    assert_int_equal(s->channels[1].count, 3);
    assert_int_equal(s->channels[1].kind[0], AK_CH_ZROT);
    assert_int_equal(s->channels[1].kind[1], AK_CH_XROT);
    assert_int_equal(s->channels[1].kind[2], AK_CH_YROT);
    assert_int_equal(c->frame_count, 2);
    assert_true(fabs(c->frame_time - 0.033333) < 1e-9);
    assert_int_equal(c->track_count, 1);
    ak_vec3 p[3];
    for (int f = 0; f < 2; ++f) {
        world_positions(s, c, f, p);
        assert_vec3_near(p[0], f, 90, 0, 1e-5);
        assert_vec3_near(p[1], f, 100, 0, 1e-5);
        assert_vec3_near(p[2], f - 5 * cos(20 * d2r) * sin(10 * d2r),
                         100 + 5 * cos(20 * d2r) * cos(10 * d2r), 5 * sin(20 * d2r), 1e-5);
    }
}

static void read_data_ok(const char *name, ak_skeleton **s, ak_clip **c)
{
    ak_error err;
    if (ak_bvh_read_file(data_path(name), NULL, s, c, &err))
        fail_msg("%s:%d: %s", name, (int)err.line, err.message);
}

static void bvh_reads_every_text_form_of_the_same_file(void **state)
{
    (void)state;
    static const char *const files[] = {"ok_minimal.bvh",
                                        "ok_crlf.bvh",
                                        "ok_cr_only.bvh",
                                        "ok_no_final_newline.bvh",
                                        "ok_crlf_no_final_newline.bvh",
                                        "ok_keyword_case.bvh",
                                        "ok_spacing.bvh",
                                        "ok_bom.bvh"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        read_data_ok(files[i], &s, &c);
        check_minimal(s, c);
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
}

static void bvh_reads_scientific_notation(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    read_data_ok("ok_scientific.bvh", &s, &c);
    check_minimal(s, c);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* Names with ':', '.', '-' and a space; a position-only root whose channels replace its
 * OFFSET; XYZ, two-channel ZX, one-channel Y and an interleaved 6-channel YXZ joint. */
static const char *k_mixed =
    "HIERARCHY\n"
    "ROOT mixamorig:Hips  \n"
    "{\n"
    "  OFFSET 1 2 3\n"
    "  CHANNELS 3 Xposition Yposition Zposition \n"
    "  JOINT thigh.L\n"
    "  {\n"
    "    OFFSET 0 -1 0\n"
    "    CHANNELS 3 Xrotation Yrotation Zrotation\n"
    "    JOINT Left-Knee 2\n"
    "    {\n"
    "      OFFSET 0 -1 0\n"
    "      CHANNELS 2 Zrotation Xrotation\n"
    "      End Site\n"
    "      {\n"
    "        OFFSET 0 -1 0\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "  JOINT spine_01 {\n"
    "    OFFSET 0 1 0\n"
    "    CHANNELS 1 Yrotation\n"
    "    JOINT head\n"
    "    {\n"
    "      OFFSET 0 1 0\n"
    "      CHANNELS 6 Yrotation Zposition Xrotation Yposition Xposition Zrotation\n"
    "    }\n"
    "  }\n"
    "}\n"
    "MOTION\n"
    "Frames: 2\n"
    "Frame Time: 0.5\n"
    "10 20 30  90 0 0  90 90  90  0 7 0 8 9 0\n"
    "10 20 30  450 -720 360  -270 90  -270  0 7 0 8 9 0\n";

static void bvh_reads_mixed_orders_punctuation_and_partial_channels(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    read_text_ok(k_mixed, &s, &c);
    assert_int_equal(s->joint_count, 6);
    static const char *const names[] = {"mixamorig:Hips",  "thigh.L",  "Left-Knee 2",
                                        "Left-Knee 2_end", "spine_01", "head"};
    static const int32_t parents[] = {-1, 0, 1, 2, 0, 4};
    for (int j = 0; j < 6; ++j) {
        assert_string_equal(s->names[j], names[j]);
        assert_int_equal(s->parents[j], parents[j]);
    }
    assert_int_equal(s->channels[2].count, 2);
    assert_int_equal(s->channels[4].count, 1);
    assert_int_equal(s->channels[5].count, 6);
    assert_int_equal(s->channels[5].kind[1], AK_CH_ZPOS);
    assert_int_equal(c->track_count, 2); /* root and head */
    assert_int_equal(c->track_joint[0], 0);
    assert_int_equal(c->track_joint[1], 5);
    /* Frame 0: root at its channels (10,20,30), not OFFSET + channels. thigh 1 below, turned
     * Rx(90). Knee = Rz(90) Rx(90) (listed order): (0,-1,0) -> Rx90 -> (0,0,-1) -> Rz90 ->
     * (0,0,-1); then the thigh's Rx90 turns it to (0,1,0). Head: its position channels
     * (9,8,7) replace the OFFSET, turned by the spine's Ry(90) to (7,8,-9).
     * Frame 1 is the same pose with every angle off by whole turns. */
    ak_vec3 p[6];
    for (int f = 0; f < 2; ++f) {
        world_positions(s, c, f, p);
        assert_vec3_near(p[0], 10, 20, 30, 1e-5);
        assert_vec3_near(p[1], 10, 19, 30, 1e-5);
        assert_vec3_near(p[2], 10, 19, 29, 1e-5);
        assert_vec3_near(p[3], 10, 20, 29, 1e-5);
        assert_vec3_near(p[4], 10, 21, 30, 1e-5);
        assert_vec3_near(p[5], 17, 29, 21, 1e-5);
    }
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* Each malformed file: status, line, and a word of the reason. */
typedef struct bad_case {
    const char *file;
    int32_t status, line;
    const char *reason;
} bad_case;

static const bad_case k_bad[] = {
    {"bad_empty.bvh", AK_ERR_PARSE, 1, "expected HIERARCHY"},
    {"bad_no_hierarchy.bvh", AK_ERR_PARSE, 1, "expected HIERARCHY"},
    {"bad_truncated_hierarchy.bvh", AK_ERR_PARSE, 10, "file ends inside joint 'Chest'"},
    {"bad_hierarchy_only.bvh", AK_ERR_PARSE, 16, "before MOTION"},
    {"bad_trailing_garbage.bvh", AK_ERR_PARSE, 21, "after the last frame"},
    {"bad_too_few_values.bvh", AK_ERR_PARSE, 20, "has 8 values, expected 9"},
    {"bad_too_many_values.bvh", AK_ERR_PARSE, 19, "more than 9 values"},
    {"bad_not_a_number.bvh", AK_ERR_PARSE, 19, "not a number: 'abc'"},
    {"bad_comma_decimal.bvh", AK_ERR_PARSE, 19, "not a number: '10,5'"},
    {"bad_exponent_without_digits.bvh", AK_ERR_PARSE, 19, "not a number: '1e'"},
    {"bad_nan.bvh", AK_ERR_PARSE, 20, "not finite: 'nan'"},
    {"bad_inf.bvh", AK_ERR_PARSE, 20, "not finite: '-inf'"},
    {"bad_out_of_range.bvh", AK_ERR_PARSE, 19, "out of range"},
    {"bad_float_overflow.bvh", AK_ERR_PARSE, 19, "out of range"},
    {"bad_zero_frame_time.bvh", AK_ERR_PARSE, 18, "frame time must be positive"},
    {"bad_negative_frame_time.bvh", AK_ERR_PARSE, 18, "frame time must be positive"},
    {"bad_missing_frame_time.bvh", AK_ERR_PARSE, 18, "Frame Time:"},
    {"bad_frames_negative.bvh", AK_ERR_PARSE, 17, "non-negative integer"},
    {"bad_frames_word.bvh", AK_ERR_PARSE, 17, "non-negative integer"},
    {"bad_frames_zero.bvh", AK_ERR_PARSE, 17, "no motion"},
    {"bad_frames_huge.bvh", AK_ERR_LIMIT, 17, "limit"},
    {"bad_extra_brace.bvh", AK_ERR_PARSE, 16, "unbalanced '}'"},
    {"bad_missing_brace.bvh", AK_ERR_PARSE, 15, "still open"},
    {"bad_channels_count.bvh", AK_ERR_PARSE, 9, "at most 6 channels"},
    {"bad_channels_mismatch.bvh", AK_ERR_PARSE, 10, "lists 3 names"},
    {"bad_unknown_channel.bvh", AK_ERR_PARSE, 9, "'Wrotation'"},
    {"bad_duplicate_channel.bvh", AK_ERR_PARSE, 9, "appears twice"},
    {"bad_end_site_channels.bvh", AK_ERR_PARSE, 12, "End Site cannot have CHANNELS"},
    {"bad_nested_end_site_joint.bvh", AK_ERR_PARSE, 12, "End Site cannot have child joints"},
    {"bad_duplicate_name.bvh", AK_ERR_PARSE, 6, "duplicate joint name 'Hips'"},
    {"bad_end_site_name_clash.bvh", AK_ERR_PARSE, 15,
     "duplicate joint name 'Chest_end' (first on line 10)"},
    {"bad_name_too_long.bvh", AK_ERR_PARSE, 6, "longer than 63 bytes"},
    {"bad_offset_missing_value.bvh", AK_ERR_PARSE, 9, "expected an OFFSET value"},
    {"bad_two_offsets.bvh", AK_ERR_PARSE, 9, "second OFFSET"},
    {"bad_no_offset.bvh", AK_ERR_PARSE, 13, "has no OFFSET"},
    {"bad_no_channels.bvh", AK_ERR_PARSE, 13, "has no CHANNELS"},
    {"bad_missing_site.bvh", AK_ERR_PARSE, 11, "expected 'Site'"},
    {"bad_joint_outside_root.bvh", AK_ERR_PARSE, 16, "JOINT outside any ROOT"},
};

static void bvh_rejects_each_malformed_file_with_its_line_and_reason(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof k_bad / sizeof k_bad[0]; ++i) {
        const bad_case *bc = &k_bad[i];
        ak_skeleton *s = (ak_skeleton *)&s; /* non-NULL sentinels: failure must clear them */
        ak_clip *c = (ak_clip *)&c;
        ak_error err;
        int32_t st = ak_bvh_read_file(data_path(bc->file), NULL, &s, &c, &err);
        if (st != bc->status || err.line != bc->line || !strstr(err.message, bc->reason))
            fail_msg("%s: got %s line %d '%s', expected %s line %d '%s'", bc->file,
                     ak_status_name(st), (int)err.line, err.message, ak_status_name(bc->status),
                     (int)bc->line, bc->reason);
        assert_int_equal(err.status, st);
        assert_null(s);
        assert_null(c);
        /* The same bytes from memory give the same answer. */
        size_t size = 0;
        char *text = slurp(data_path(bc->file), &size);
        ak_error err2;
        assert_int_equal(ak_bvh_read_memory(text, size, NULL, &s, &c, &err2), st);
        assert_int_equal(err2.line, err.line);
        assert_string_equal(err2.message, err.message);
        free(text);
    }
}

/* Files other readers accept (Blender reads every frame line, assimp reads what Frames:
 * says): more or fewer frame lines than Frames: says read with a warning in `err` (status
 * AK_OK, the line, the reason), and the frames are the file's lines. */
typedef struct warn_case {
    const char *file;
    int32_t line, frames;
    const char *reason;
} warn_case;

static const warn_case k_warn[] = {
    {"warn_fewer_frames.bvh", 21, 2, "file ends after 2 of 3 frames"},
    {"warn_extra_frames.bvh", 20, 2, "2 frame lines where Frames: says 1 (line 17); read all 2"},
};

static void bvh_reads_frame_counts_other_readers_accept_with_a_warning(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof k_warn / sizeof k_warn[0]; ++i) {
        const warn_case *wc = &k_warn[i];
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        ak_error err;
        int32_t st = ak_bvh_read_file(data_path(wc->file), NULL, &s, &c, &err);
        if (st != AK_OK || err.line != wc->line || !strstr(err.message, wc->reason))
            fail_msg("%s: got %s line %d '%s', expected AK_OK line %d '%s'", wc->file,
                     ak_status_name(st), (int)err.line, err.message, (int)wc->line, wc->reason);
        assert_int_equal(err.status, AK_OK);
        assert_int_equal(c->frame_count, wc->frames);
        /* Frame f holds the file's line f: the root's x channel is f. */
        ak_vec3 p[3];
        for (int32_t f = 0; f < wc->frames; ++f) {
            world_positions(s, c, f, p);
            assert_vec3_near(p[0], f, 90, 0, 1e-5);
        }
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
    /* A file without such trouble leaves no warning. */
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(data_path("ok_minimal.bvh"), NULL, &s, &c, &err), AK_OK);
    assert_int_equal(err.line, 0);
    assert_string_equal(err.message, "");
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* Every proper prefix of a valid two-frame file is an error, never a crash, except: the
 * prefixes that only drop trailing whitespace of the last line (or cut its last number, still
 * nine values: "...20 3"), and the prefix that ends right after the first frame line's line
 * break, which reads one frame with a warning (fewer frame lines than Frames: says). A first
 * line without its line break in a file that ends early may be cut mid-number: dropped, so
 * no frame is left and it is an error. */
static void bvh_rejects_every_truncation_of_a_valid_file(void **state)
{
    (void)state;
    size_t size = 0;
    char *text = slurp(data_path("ok_minimal.bvh"), &size);
    const size_t last_value = size - 2; /* the final '0' of "30\n" */
    const size_t second_line = size - strlen("1 90 0 0 0 0 10 20 30\n"); /* its first byte */
    for (size_t n = 0; n < size; ++n) {
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        ak_error err;
        int32_t st = ak_bvh_read_memory(text, n, NULL, &s, &c, &err);
        if (n >= last_value) {
            assert_int_equal(st, AK_OK);
            assert_int_equal(c->frame_count, 2);
            assert_int_equal(err.line, 0);
            ak_skeleton_destroy(s);
            ak_clip_destroy(c);
        } else if (n == second_line) {
            assert_int_equal(st, AK_OK);
            assert_int_equal(c->frame_count, 1);
            assert_int_equal(err.line, 20);
            assert_non_null(strstr(err.message, "after 1 of 2 frames"));
            ak_skeleton_destroy(s);
            ak_clip_destroy(c);
        } else {
            if (st != AK_ERR_PARSE) fail_msg("prefix of %zu bytes: got %s", n, ak_status_name(st));
            assert_true(err.line >= 1);
            assert_null(s);
            assert_null(c);
        }
    }
    free(text);
}

static void bvh_honours_limits(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    const char *path = data_path("ok_minimal.bvh");
    ak_bvh_read_params lim = ak_bvh_read_defaults();
    assert_int_equal(lim.max_joints, 1024);
    assert_int_equal(lim.max_frames, 1000000);

    lim.max_joints = 2; /* the End Site is the third joint, on line 10 */
    assert_int_equal(ak_bvh_read_file(path, &lim, &s, &c, &err), AK_ERR_LIMIT);
    assert_int_equal(err.line, 10);
    assert_null(s);
    lim.max_joints = 3;
    assert_int_equal(ak_bvh_read_file(path, &lim, &s, &c, &err), AK_OK);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);

    lim = ak_bvh_read_defaults();
    lim.max_frames = 1;
    assert_int_equal(ak_bvh_read_file(path, &lim, &s, &c, &err), AK_ERR_LIMIT);
    assert_int_equal(err.line, 17);
    lim.max_frames = 2;
    assert_int_equal(ak_bvh_read_file(path, &lim, &s, &c, &err), AK_OK);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);

    lim = ak_bvh_read_defaults();
    lim.max_bytes = 100;
    assert_int_equal(ak_bvh_read_file(path, &lim, &s, &c, &err), AK_ERR_LIMIT);
    size_t size = 0;
    char *text = slurp(path, &size);
    assert_int_equal(ak_bvh_read_memory(text, size, &lim, &s, &c, &err), AK_ERR_LIMIT);
    lim.max_bytes = (int64_t)size;
    assert_int_equal(ak_bvh_read_memory(text, size, &lim, &s, &c, &err), AK_OK);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    free(text);

    /* the limits' validity cases: tests/io/test_bvh.c */
    assert_int_equal(ak_bvh_read_file("no-such-file.bvh", NULL, &s, &c, &err), AK_ERR_IO);
    assert_int_equal(err.line, 0);
    assert_non_null(strstr(err.message, "cannot open"));
    /* A directory opens on POSIX but cannot be read. */
    const char *src = getenv("AK_SOURCE_DIR");
    assert_non_null(src);
    assert_int_equal(ak_bvh_read_file(src, NULL, &s, &c, &err), AK_ERR_IO);
    assert_null(s);
    assert_int_equal(ak_bvh_read_memory(NULL, 5, NULL, &s, &c, &err), AK_ERR_INVALID_ARG);
}

/* A header claiming a million frames over one frame line reads that line with a warning, with
 * no allocation sized from the claim. */
static void bvh_frame_count_beyond_the_data_reads_with_a_warning(void **state)
{
    (void)state;
    const char *text =
        "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n"
        "End Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 1000000\nFrame Time: 0.01\n1 2 3\n";
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_read_memory(text, strlen(text), NULL, &s, &c, &err), AK_OK);
    assert_int_equal(err.line, 15);
    assert_non_null(strstr(err.message, "after 1 of 1000000 frames"));
    assert_int_equal(c->frame_count, 1);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* 1000 channel-less joints and 10000 one-value frames: 20 KB of text asking for 160 MB of
 * keys is refused with AK_ERR_LIMIT at the Frames line; 100 frames of it are read. */
static void bvh_refuses_clips_far_larger_than_their_text(void **state)
{
    (void)state;
    for (int frames = 100; frames <= 10000; frames *= 100) {
        size_t cap = 1000 * 64 + (size_t)frames * 2 + 256;
        char *t = (char *)malloc(cap);
        size_t n = (size_t)sprintf(t, "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 1 Yrotation\n");
        for (int j = 0; j < 1000; ++j)
            n += (size_t)sprintf(t + n, "JOINT j%d\n{\nOFFSET 0 1 0\nCHANNELS 0\n}\n", j);
        n += (size_t)sprintf(t + n, "}\nMOTION\nFrames: %d\nFrame Time: 0.01\n", frames);
        for (int f = 0; f < frames; ++f)
            t[n++] = '5', t[n++] = '\n';
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        ak_error err;
        int32_t st = ak_bvh_read_memory(t, n, NULL, &s, &c, &err);
        if (frames == 100) {
            assert_int_equal(st, AK_OK);
            assert_int_equal(c->frame_count, 100);
        } else {
            assert_int_equal(st, AK_ERR_LIMIT);
            assert_int_equal(err.line, 5 + 5 * 1000 + 3);
            assert_non_null(strstr(err.message, "of keys"));
        }
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
        free(t);
    }
}

/* 1000 joints read; 1025 exceed the default limit. Deep nesting needs no recursion. */
static void bvh_reads_deep_hierarchies_up_to_the_joint_limit(void **state)
{
    (void)state;
    for (int depth = 1000; depth <= 1025; depth += 25) {
        size_t cap = (size_t)depth * 80 + 256;
        char *t = (char *)malloc(cap);
        size_t n = 0;
        n += (size_t)sprintf(t + n, "HIERARCHY\n");
        for (int j = 0; j < depth; ++j)
            n += (size_t)sprintf(
                t + n, "%s j%d\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n",
                j ? "JOINT" : "ROOT", j);
        for (int j = 0; j < depth; ++j)
            t[n++] = '}', t[n++] = '\n';
        n += (size_t)sprintf(t + n, "MOTION\nFrames: 1\nFrame Time: 0.1\n");
        for (int j = 0; j < depth; ++j)
            n += (size_t)sprintf(t + n, "0 0 1 ");
        t[n] = '\0';
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        ak_error err;
        int32_t st = ak_bvh_read_memory(t, n, NULL, &s, &c, &err);
        if (depth <= 1024) {
            assert_int_equal(st, AK_OK);
            assert_int_equal(s->joint_count, depth);
        } else {
            assert_int_equal(st, AK_ERR_LIMIT);
            assert_int_equal(err.line, 2 + 4 * 1024);
        }
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
        free(t);
    }
}

/* ---- the number parser ---- */

static double ulp_distance(double a, double b)
{
    if (a == b) return 0.0;
    int64_t ia, ib;
    memcpy(&ia, &a, 8);
    memcpy(&ib, &b, 8);
    if ((ia < 0) != (ib < 0)) return INFINITY;
    return (double)llabs(ia - ib);
}

static double parse_all(const char *s)
{
    double v = NAN;
    const char *e = akbvh_parse_number(s, s + strlen(s), &v);
    if (!e || *e) fail_msg("'%s' did not parse completely", s);
    return v;
}

static void bvh_number_parser_matches_strtod(void **state)
{
    (void)state;
    /* Worked cases. */
    assert_true(parse_all("0") == 0.0);
    assert_true(parse_all("-0.0") == 0.0 && signbit(parse_all("-0.0")));
    assert_true(parse_all(".0083333") == 0.0083333);
    assert_true(parse_all("530.25") == 530.25);
    assert_true(parse_all("+1e2") == 100.0);
    assert_true(parse_all("5.") == 5.0);
    assert_true(parse_all("-1.5E-3") == -1.5e-3);
    assert_true(parse_all("0.1") == 0.1);
    assert_true(parse_all("123456789012345678901234567890") == 123456789012345678901234567890.0);
    assert_true(isinf(parse_all("1e400")));
    assert_true(parse_all("1e-400") == 0.0);
    assert_true(parse_all("1e99999999999") > DBL_MAX);
    double v;
    const char *s = "e5";
    assert_null(akbvh_parse_number(s, s + 2, &v));
    s = "-.";
    assert_null(akbvh_parse_number(s, s + 2, &v));
    s = "1e+";
    assert_true(akbvh_parse_number(s, s + 3, &v) == s + 1);
    /* The end pointer is respected: "12|34" reads 12. */
    s = "1234";
    assert_true(akbvh_parse_number(s, s + 2, &v) == s + 2 && v == 12.0);

    /* Random strings: exact on the fast path, within 1 ulp of strtod everywhere. */
    srand(42);
    int exact = 0, total = 200000;
    double worst = 0.0;
    for (int i = 0; i < total; ++i) {
        char buf[96];
        int n = 0;
        if (rand() & 1) buf[n++] = '-';
        int idig = rand() % 12, fdig = rand() % 12;
        if (rand() % 8 == 0) idig = rand() % 30;
        if (rand() % 8 == 0) fdig = rand() % 30;
        if (idig + fdig == 0) idig = 1;
        for (int k = 0; k < idig; ++k)
            buf[n++] = (char)('0' + rand() % 10);
        if (fdig || rand() % 2) {
            buf[n++] = '.';
            for (int k = 0; k < fdig; ++k)
                buf[n++] = (char)('0' + rand() % 10);
        }
        if (rand() % 3 == 0) n += sprintf(buf + n, "e%d", rand() % 660 - 330);
        buf[n] = '\0';
        double ours = parse_all(buf), ref = strtod(buf, NULL);
        double d = ulp_distance(ours, ref);
        if (d == 0.0) ++exact;
        if (d > worst) worst = d;
        /* With x87's 80-bit long double the parser is within 1 ulp of strtod (the worst is
         * printed below). Where long double is plain double (MSVC, valgrind's emulation) the
         * scaling rounds a little more: allow 4 ulp, and check double subnormals (below
         * DBL_MIN, 0 in float anyway) in float only. What the reader stores is a float. */
        const int extended = LDBL_MANT_DIG > 53 && !getenv("AK_UNDER_VALGRIND");
        /* Without extended precision, intermediate powers of ten outside double's range
         * under/overflow: compare there only where a float can hold the value. */
        const int comparable =
            extended ? fabs(ref) >= DBL_MIN : (fabs(ref) > 1e-30 && fabs(ref) < 1e30) || ref == 0.0;
        if (d > (extended ? 1.0 : 4.0) && comparable)
            fail_msg("'%s': %.17g vs strtod %.17g (%g ulp)", buf, ours, ref, d);
        if (comparable)
            assert_true((float)ours == (float)ref || ulp_distance((float)ours, (float)ref) <= 1.0);
    }
    printf("  number parser: %d of %d random strings bit-exact with strtod, worst %g ulp\n", exact,
           total, worst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bvh_reads_every_text_form_of_the_same_file),
        cmocka_unit_test(bvh_reads_scientific_notation),
        cmocka_unit_test(bvh_reads_mixed_orders_punctuation_and_partial_channels),
        cmocka_unit_test(bvh_rejects_each_malformed_file_with_its_line_and_reason),
        cmocka_unit_test(bvh_reads_frame_counts_other_readers_accept_with_a_warning),
        cmocka_unit_test(bvh_rejects_every_truncation_of_a_valid_file),
        cmocka_unit_test(bvh_honours_limits),
        cmocka_unit_test(bvh_frame_count_beyond_the_data_reads_with_a_warning),
        cmocka_unit_test(bvh_reads_deep_hierarchies_up_to_the_joint_limit),
        cmocka_unit_test(bvh_refuses_clips_far_larger_than_their_text),
        cmocka_unit_test(bvh_number_parser_matches_strtod),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
