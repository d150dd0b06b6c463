/* src/anim/compress.c: the compressor. The error bound on every shipped capture at every frame
 * (measured here, independently of the compressor, through the public sampler and ak_fk), End
 * Sites without keys, bad params and keys refused. The sampler, the bytes and decompression:
 * test_compress_sample.c. */
#include "compress_util.h"

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
            const double e = akt_point_error(raw_w[j], cc_w[j], 0.03f / mpu) * mpu;
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
        akt_load_bvh(k_captures[i], &s, &c, &mpu);
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

static void bad_input_is_refused_with_a_reason(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    float mpu;
    akt_load_bvh("cmu_02_01_walk.bvh", &s, &c, &mpu);
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
    ak_compressed_clip_destroy(cc);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_within_tolerance_on_every_capture_and_frame),
        cmocka_unit_test(bad_input_is_refused_with_a_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
