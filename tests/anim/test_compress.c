/* Compressed clips: the error bound on every shipped capture at every frame (measured here,
 * independently of the compressor, through the public sampler and ak_fk), End Sites without
 * keys, batch = single, ranges = one call, bytes round trip, decompression, bad input. */
#include "test_util.h"
#include "anim/compress_internal.h"

static const char *const k_captures[] = {
    "cmu_02_01_walk.bvh",
    "cmu_07_01_walk.bvh",
    "cmu_09_01_run.bvh",
    "cmu_16_11_walk_veer_left.bvh",
    "cmu_05_06_dance.bvh",
    "arena_louise_stand_walk_cycle.bvh",
    "reactidle_003_genuine_idle.bvh",
};
#define CAPTURES (sizeof k_captures / sizeof k_captures[0])

static void load(const char *name, ak_skeleton **s, ak_clip **c, float *mpu)
{
    char path[1024];
    ak_error err;
    akt_mocap_path(name, path, sizeof path);
    if (ak_bvh_read_file(path, NULL, s, c, &err) != AK_OK)
        fail_msg("%s:%d: %s", name, err.line, err.message);
    *mpu = 0.0f;
    ak_units_detect(ak_clip_standing_height(*c, *s), mpu);
    assert_true(*mpu > 0.0f);
}

/* ACL's measure: distance between the two transforms' images of the joint and of the points
 * `shell` along its x, y and z axes. */
static double point_error(ak_xform a, ak_xform b, float shell)
{
    double worst = 0.0;
    for (int k = 0; k < 4; ++k) {
        ak_vec3 p = {0.0f, 0.0f, 0.0f};
        if (k > 0) (&p.x)[k - 1] = shell;
        const ak_vec3 pa = ak_xform_point(a, p), pb = ak_xform_point(b, p);
        const double dx = (double)pa.x - pb.x, dy = (double)pa.y - pb.y, dz = (double)pa.z - pb.z;
        const double d = sqrt(dx * dx + dy * dy + dz * dz);
        worst = d > worst ? d : worst;
    }
    return worst;
}

/* Worst error in metres over every frame and joint: the compressed and the plain clip sampled
 * at the same time, the frame's own (a quarter frame later for step, which float times a
 * rounding below a key in long clips would otherwise send to the key before). */
static double worst_error(const ak_clip *c, const ak_skeleton *s, const ak_compressed_clip *cc,
                          float mpu, ak_interp interp)
{
    const int32_t n = s->joint_count;
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n * 4);
    ak_xform *raw_w = local + n, *cc_local = local + 2 * n, *cc_w = local + 3 * n;
    assert_non_null(local);
    double worst = 0.0;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        const float t = ((float)f + (interp == AK_INTERP_STEP ? 0.25f : 0.0f)) * c->frame_time;
        ak_clip_sample(c, s, t, interp, local);
        ak_fk(s, local, raw_w);
        ak_compressed_clip_sample(cc, s, t, interp, cc_local);
        ak_fk(s, cc_local, cc_w);
        for (int32_t j = 0; j < n; ++j) {
            const double e = point_error(raw_w[j], cc_w[j], 0.03f / mpu) * mpu;
            worst = e > worst ? e : worst;
        }
    }
    free(local);
    return worst;
}

static void error_within_tolerance_on_every_capture_and_frame(void **state)
{
    (void)state;
    const float tolerances[] = {0.0001f, 0.001f};
    for (size_t i = 0; i < CAPTURES; ++i) {
        ak_skeleton *s;
        ak_clip *c;
        float mpu;
        load(k_captures[i], &s, &c, &mpu);
        for (size_t k = 0; k < 2; ++k) {
            ak_compress_params p = ak_compress_defaults();
            p.tolerance = tolerances[k];
            p.metres_per_unit = mpu;
            ak_compressed_clip *cc = NULL;
            ak_error err;
            assert_int_equal(ak_compress_run(c, s, &p, &cc, &err), AK_OK);
            ak_compressed_info info;
            ak_compressed_clip_get_info(cc, &info);
            const double linear = worst_error(c, s, cc, mpu, AK_INTERP_LINEAR);
            const double step = worst_error(c, s, cc, mpu, AK_INTERP_STEP);
            const double cubic = worst_error(c, s, cc, mpu, AK_INTERP_CUBIC);
            print_message("%-34s tol %.4f m: %7llu B of %8llu raw (%5.1f:1), worst %.6f m "
                          "(compressor %.6f), %d const %d quant %d raw, %.1f bits\n",
                          k_captures[i], (double)p.tolerance, (unsigned long long)info.bytes,
                          (unsigned long long)info.raw_bytes,
                          (double)info.raw_bytes / (double)info.bytes, linear,
                          (double)info.worst_error, info.constant_tracks, info.quantized_tracks,
                          info.raw_tracks, (double)info.mean_bits);
            assert_true(linear <= p.tolerance);
            assert_true(step <= p.tolerance);
            assert_true(cubic <= p.tolerance);
            assert_true(info.worst_error <= p.tolerance);
            assert_true(info.bytes < info.raw_bytes);
            for (int32_t j = 0; j < s->joint_count; ++j)
                if (s->is_end_site[j]) assert_int_equal(cc->tracks[2 * j].mode, AKC_CONSTANT);
            ak_compressed_clip_destroy(cc);
        }
        ak_clip_destroy(c);
        ak_skeleton_destroy(s);
    }
}

static void batch_matches_sample_then_fk_and_ranges_match_one_call(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    float mpu;
    load("cmu_02_01_walk.bvh", &s, &c, &mpu);
    ak_compress_params p = ak_compress_defaults();
    p.metres_per_unit = mpu;
    ak_compressed_clip *cc = NULL;
    assert_int_equal(ak_compress_run(c, s, &p, &cc, NULL), AK_OK);
    enum { K = 21 };
    const size_t n = (size_t)s->joint_count;
    float times[K];
    for (int i = 0; i < K; ++i)
        times[i] = 0.37f * (float)i - 0.5f; /* before the start, inside, past the end */
    ak_xform *one = malloc(sizeof(ak_xform) * n * K), *split = malloc(sizeof(ak_xform) * n * K);
    ak_xform *local = malloc(sizeof(ak_xform) * n), *w = malloc(sizeof(ak_xform) * n);
    const ak_interp modes[] = {AK_INTERP_STEP, AK_INTERP_LINEAR, AK_INTERP_CUBIC};
    for (int m = 0; m < 3; ++m) {
        assert_int_equal(ak_compressed_clip_sample_fk_batch(cc, s, times, K, modes[m], one), AK_OK);
        for (int part = 0; part < 3; ++part) {
            int32_t b, e;
            assert_int_equal(ak_batch_range(K, 3, part, &b, &e), AK_OK);
            assert_int_equal(
                ak_compressed_clip_sample_fk_range(cc, s, times, K, modes[m], split, b, e), AK_OK);
        }
        assert_memory_equal(one, split, sizeof(ak_xform) * n * K);
        for (int i = 0; i < K; ++i) {
            ak_compressed_clip_sample(cc, s, times[i], modes[m], local);
            ak_fk(s, local, w);
            for (size_t j = 0; j < n; ++j)
                assert_true(point_error(w[j], one[(size_t)i * n + j], 0.0f) * mpu < 1e-5);
        }
    }
    assert_int_equal(
        ak_compressed_clip_sample_fk_range(cc, s, times, K, AK_INTERP_LINEAR, one, 5, K + 1),
        AK_ERR_INVALID_ARG);
    assert_int_equal(ak_compressed_clip_sample_fk_batch(cc, s, NULL, K, AK_INTERP_LINEAR, one),
                     AK_ERR_INVALID_ARG);
    free(one), free(split), free(local), free(w);
    ak_compressed_clip_destroy(cc);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

static void bytes_round_trip_and_decompress_give_the_same_keys(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    float mpu;
    load("cmu_09_01_run.bvh", &s, &c, &mpu);
    c->loop = 1;
    ak_compress_params p = ak_compress_defaults();
    p.metres_per_unit = mpu;
    ak_compressed_clip *cc = NULL, *back = NULL;
    assert_int_equal(ak_compress_run(c, s, &p, &cc, NULL), AK_OK);
    size_t size = 0;
    const void *bytes = ak_compressed_clip_data(cc, &size);
    ak_compressed_info info;
    ak_compressed_clip_get_info(cc, &info);
    assert_int_equal(size, info.bytes);
    assert_int_equal(ak_compressed_clip_load(bytes, size, &back, NULL), AK_OK);
    ak_clip *plain = NULL;
    assert_int_equal(ak_compressed_clip_decompress(cc, s, &plain, NULL), AK_OK);
    assert_int_equal(plain->loop, 1);
    const size_t n = (size_t)s->joint_count;
    ak_xform *a = malloc(sizeof(ak_xform) * n * 3), *b = a + n, *d = a + 2 * n;
    const float duration = ak_clip_duration(c);
    for (int32_t f = 0; f < c->frame_count; ++f) {
        const float t = (float)f * c->frame_time + 0.3f * c->frame_time;
        ak_compressed_clip_sample(cc, s, t, AK_INTERP_LINEAR, a);
        ak_compressed_clip_sample(back, s, t, AK_INTERP_LINEAR, b);
        assert_memory_equal(a, b, sizeof(ak_xform) * n);
        ak_compressed_clip_sample(cc, s, t + duration, AK_INTERP_LINEAR, b); /* loops */
        for (size_t j = 0; j < n; ++j)
            assert_true(point_error(a[j], b[j], 0.03f / mpu) * mpu < 1e-5);
        ak_compressed_clip_sample(cc, s, (float)f * c->frame_time, AK_INTERP_STEP, a);
        ak_clip_frame(plain, s, f, d);
        for (size_t j = 0; j < n; ++j)
            assert_true(point_error(a[j], d[j], 0.03f / mpu) * mpu < 1e-6);
    }
    free(a);
    ak_clip_destroy(plain);
    ak_compressed_clip_destroy(back);
    ak_compressed_clip_destroy(cc);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* Loads `bytes` after `edit` changed them and expects AK_ERR_PARSE. */
static void expect_rejected(const uint8_t *bytes, size_t size, size_t at, const void *value,
                            size_t value_size, const char *what)
{
    uint8_t *copy = malloc(size);
    memcpy(copy, bytes, size);
    memcpy(copy + at, value, value_size);
    ak_compressed_clip *out = (ak_compressed_clip *)copy; /* must become NULL */
    ak_error err;
    if (ak_compressed_clip_load(copy, size, &out, &err) != AK_ERR_PARSE)
        fail_msg("%s: accepted", what);
    assert_null(out);
    assert_true(strlen(err.message) > 0);
    free(copy);
}

static void bad_input_is_refused_with_a_reason(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    float mpu;
    load("cmu_02_01_walk.bvh", &s, &c, &mpu);
    ak_compress_params p = ak_compress_defaults();
    ak_error err;
    ak_compressed_clip *cc = (ak_compressed_clip *)s;
    const float bad[] = {0.0f, -1.0f, NAN, INFINITY};
    for (int i = 0; i < 4; ++i) {
        p.tolerance = bad[i];
        assert_int_equal(ak_compress_run(c, s, &p, &cc, &err), AK_ERR_INVALID_ARG);
        assert_null(cc);
    }
    p = ak_compress_defaults();
    p.metres_per_unit = 0.0f;
    assert_int_equal(ak_compress_validate(&p, &err), AK_ERR_INVALID_ARG);
    p = ak_compress_defaults();
    p.metres_per_unit = mpu;
    assert_int_equal(ak_compress_run(NULL, s, &p, &cc, &err), AK_ERR_INVALID_ARG);
    c->rotations[5].x = NAN;
    assert_int_equal(ak_compress_run(c, s, &p, &cc, &err), AK_ERR_INVALID_ARG);
    c->rotations[5].x = 0.0f;
    ak_clip_finalize(c);
    assert_int_equal(ak_compress_run(c, s, &p, &cc, &err), AK_OK);
    size_t size;
    const uint8_t *bytes = ak_compressed_clip_data(cc, &size);
    ak_compressed_clip *out = NULL;
    assert_int_equal(ak_compressed_clip_load(bytes, size - 1, &out, &err), AK_ERR_PARSE);
    assert_int_equal(ak_compressed_clip_load(bytes, 10, &out, &err), AK_ERR_PARSE);
    assert_int_equal(ak_compressed_clip_load(NULL, size, &out, &err), AK_ERR_INVALID_ARG);
    const uint32_t zero = 0, big = 0xffffff00u;
    const float nan = NAN;
    const uint8_t bits25 = 25, mode9 = 9;
    const size_t tracks = akc_tracks_offset();
    int32_t q = -1; /* first quantized track */
    for (int32_t i = 0; i < 2 * s->joint_count && q < 0; ++i)
        if (cc->tracks[i].mode == AKC_QUANTIZED) q = i;
    assert_true(q >= 0);
    const size_t tq = tracks + sizeof(akc_track) * (size_t)q;
    expect_rejected(bytes, size, offsetof(akc_header, magic), &zero, 4, "magic");
    expect_rejected(bytes, size, offsetof(akc_header, version), &big, 4, "version");
    expect_rejected(bytes, size, offsetof(akc_header, joint_count), &big, 4, "joint count");
    expect_rejected(bytes, size, offsetof(akc_header, frame_count), &zero, 4, "frame count");
    expect_rejected(bytes, size, offsetof(akc_header, frame_time), &nan, 4, "frame time");
    expect_rejected(bytes, size, offsetof(akc_header, frame_bytes), &big, 4, "record size");
    expect_rejected(bytes, size, tq + offsetof(akc_track, bits), &bits25, 1, "bits");
    expect_rejected(bytes, size, tq + offsetof(akc_track, mode), &mode9, 1, "mode");
    expect_rejected(bytes, size, tq + offsetof(akc_track, offset), &big, 4, "offset");
    expect_rejected(bytes, size, tq + offsetof(akc_track, step), &nan, 4, "step");
    ak_compressed_clip_destroy(cc);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_within_tolerance_on_every_capture_and_frame),
        cmocka_unit_test(batch_matches_sample_then_fk_and_ranges_match_one_call),
        cmocka_unit_test(bytes_round_trip_and_decompress_give_the_same_keys),
        cmocka_unit_test(bad_input_is_refused_with_a_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
