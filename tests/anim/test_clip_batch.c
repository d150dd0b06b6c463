/* Many characters on one clip (src/anim/clip_batch.c): bad arguments refused with nothing
 * written; ak_batch_range's parts are contiguous, cover [0, count), cut at multiples of 8 and
 * differ by at most 8; a batch of 13 characters (8 + 4 + 1 lanes) gives each character the
 * pose of ak_clip_sample + ak_fk (worked: the root slides 1 m per frame, so character i at
 * t = 0.1 i stands at x = 0.2 i); ranges give the bits of one call; cubic on an unprepared
 * clip says AK_ERR_STATE but writes the poses; the SoA output (ak_clip_sample_fk_batch_soa)
 * gives the same poses. */
#include "test_params.h"

enum { J = 5, FRAMES = 4, COUNT = 13 };
#define FT 0.5f

AKT_CLIP_FIXTURE
static float g_times[COUNT];

static int setup(void **state)
{
    (void)state;
    g_s = akt_line_skeleton(J, 0.5f);
    ak_error err;
    assert_int_equal(ak_clip_create(J, FRAMES, FT, NULL, &g_c, &err), AK_OK);
    akt_rng rng = {11};
    for (int32_t f = 0; f < FRAMES; ++f) {
        for (int32_t j = 0; j < J; ++j)
            g_c->rotations[f * J + j] = j == 0 ? ak_quat_identity() : akt_random_quat(&rng);
        g_c->translations[f] = ak_vec3_make((float)f, 0.9f, 0.0f);
    }
    ak_clip_finalize(g_c);
    for (int i = 0; i < COUNT; ++i)
        g_times[i] = 0.1f * (float)i;
    return 0;
}

static void batch_arguments_validity(void **state)
{
    (void)state;
    ak_xform out[COUNT * J], before[COUNT * J];
    memset(out, 0x5a, sizeof out);
    memcpy(before, out, sizeof out);
    assert_int_equal(ak_clip_sample_fk_batch(NULL, g_s, g_times, COUNT, AK_INTERP_LINEAR, out),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_sample_fk_batch(g_c, NULL, g_times, COUNT, AK_INTERP_LINEAR, out),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_sample_fk_batch(g_c, g_s, NULL, COUNT, AK_INTERP_LINEAR, out),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_sample_fk_batch(g_c, g_s, g_times, -1, AK_INTERP_LINEAR, out),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_sample_fk_batch(g_c, g_s, g_times, COUNT, AK_INTERP_LINEAR, NULL),
                     AK_ERR_INVALID_ARG);
    ak_skeleton *other = akt_line_skeleton(J + 1, 0.5f);
    assert_int_equal(ak_clip_sample_fk_batch(g_c, other, g_times, COUNT, AK_INTERP_LINEAR, out),
                     AK_ERR_INVALID_ARG);
    ak_skeleton_destroy(other);
    assert_int_equal(
        ak_clip_sample_fk_range(g_c, g_s, g_times, COUNT, AK_INTERP_LINEAR, out, 5, COUNT + 1),
        AK_ERR_INVALID_ARG);
    assert_int_equal(
        ak_clip_sample_fk_range(g_c, g_s, g_times, COUNT, AK_INTERP_LINEAR, out, -1, 3),
        AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_sample_fk_range(g_c, g_s, g_times, COUNT, AK_INTERP_LINEAR, out, 6, 5),
                     AK_ERR_INVALID_ARG);
    assert_memory_equal(out, before, sizeof out);
    int32_t b = 7, e = 9;
    assert_int_equal(ak_batch_range(-1, 2, 0, &b, &e), AK_ERR_INVALID_ARG);
    assert_int_equal(b, e);
    assert_int_equal(ak_batch_range(10, 0, 0, &b, &e), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_batch_range(10, 2, 2, &b, &e), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_batch_range(10, 2, -1, &b, &e), AK_ERR_INVALID_ARG);
    /* zero characters: nothing to do */
    assert_int_equal(ak_clip_sample_fk_batch(g_c, g_s, g_times, 0, AK_INTERP_LINEAR, out), AK_OK);
}

static void ranges_cover_in_lanes_of_eight(void **state)
{
    (void)state;
    const int32_t counts[] = {0, 1, 7, 8, 9, 100, 1001};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
        for (int32_t parts = 1; parts <= 6; ++parts) {
            int32_t next = 0, smallest = INT32_MAX, largest = 0;
            for (int32_t part = 0; part < parts; ++part) {
                int32_t b, e;
                assert_int_equal(ak_batch_range(counts[c], parts, part, &b, &e), AK_OK);
                assert_int_equal(b, next); /* contiguous, in order */
                assert_true(e >= b);
                if (e != counts[c]) assert_int_equal(e % AK_BATCH_LANES, 0);
                smallest = e - b < smallest ? e - b : smallest;
                largest = e - b > largest ? e - b : largest;
                next = e;
            }
            assert_int_equal(next, counts[c]);
            assert_true(largest - smallest <= AK_BATCH_LANES);
        }
    /* worked: 16 in 2 parts can only be [0, 8) and [8, 16) (cuts at multiples of 8, sizes
     * within 8 of each other) */
    int32_t b, e;
    assert_int_equal(ak_batch_range(16, 2, 0, &b, &e), AK_OK);
    assert_int_equal(b, 0);
    assert_int_equal(e, 8);
    assert_int_equal(ak_batch_range(16, 2, 1, &b, &e), AK_OK);
    assert_int_equal(b, 8);
    assert_int_equal(e, 16);
}

static void batch_equals_sample_then_fk_and_ranges_give_its_bits(void **state)
{
    (void)state;
    static ak_xform batch[COUNT * J], ranged[COUNT * J];
    assert_int_equal(ak_clip_sample_fk_batch(g_c, g_s, g_times, COUNT, AK_INTERP_LINEAR, batch),
                     AK_OK);
    for (int i = 0; i < COUNT; ++i) {
        ak_xform local[J], model[J];
        ak_clip_sample(g_c, g_s, g_times[i], AK_INTERP_LINEAR, local);
        ak_fk(g_s, local, model);
        AKT_NEAR(batch[i * J].translation.x, 0.2f * (float)i, 1e-5);
        for (int32_t j = 0; j < J; ++j) {
            const ak_vec3 d = ak_vec3_sub(batch[i * J + j].translation, model[j].translation);
            assert_true(ak_vec3_length(d) <= 1e-5f);
            AKT_NEAR(fabsf(ak_quat_dot(batch[i * J + j].rotation, model[j].rotation)), 1.0f, 1e-5);
        }
    }
    for (int32_t parts = 1; parts <= 3; ++parts) {
        memset(ranged, 0, sizeof ranged);
        for (int32_t part = 0; part < parts; ++part) {
            int32_t b, e;
            assert_int_equal(ak_batch_range(COUNT, parts, part, &b, &e), AK_OK);
            assert_int_equal(
                ak_clip_sample_fk_range(g_c, g_s, g_times, COUNT, AK_INTERP_LINEAR, ranged, b, e),
                AK_OK);
        }
        assert_memory_equal(ranged, batch, sizeof batch);
    }
    /* cubic without prepared control points: AK_ERR_STATE, the poses still written and equal
     * to the prepared clip's within float rounding */
    memset(ranged, 0, sizeof ranged);
    assert_int_equal(ak_clip_sample_fk_batch(g_c, g_s, g_times, COUNT, AK_INTERP_CUBIC, ranged),
                     AK_ERR_STATE);
    ak_clip *prepared = ak_clip_clone(g_c);
    assert_non_null(prepared);
    assert_int_equal(ak_clip_prepare_cubic(prepared), AK_OK);
    assert_int_equal(ak_clip_sample_fk_batch(prepared, g_s, g_times, COUNT, AK_INTERP_CUBIC, batch),
                     AK_OK);
    for (int k = 0; k < COUNT * J; ++k)
        assert_true(ak_vec3_length(ak_vec3_sub(batch[k].translation, ranged[k].translation)) <=
                    1e-5f);
    /* looping: the first and last key's control points take wrapped neighbours (the prepared
     * clip's rows of their own; the times reach both ends' spans), the same within rounding */
    g_c->loop = prepared->loop = 1;
    assert_int_equal(ak_clip_sample_fk_batch(g_c, g_s, g_times, COUNT, AK_INTERP_CUBIC, ranged),
                     AK_ERR_STATE);
    assert_int_equal(ak_clip_sample_fk_batch(prepared, g_s, g_times, COUNT, AK_INTERP_CUBIC, batch),
                     AK_OK);
    g_c->loop = 0;
    for (int k = 0; k < COUNT * J; ++k) {
        assert_true(ak_vec3_length(ak_vec3_sub(batch[k].translation, ranged[k].translation)) <=
                    1e-5f);
        AKT_NEAR(fabsf(ak_quat_dot(batch[k].rotation, ranged[k].rotation)), 1.0f, 1e-5);
    }
    ak_clip_destroy(prepared);
}

/* The eight-lane pass finds keys for eight times at once (locate8): times on keys, within
 * the 1e-4-frame snap of a key, at and around the loop's end, negative, beyond one and two
 * durations, -0, NaN and infinity (these take the scalar lookup), looping and clamped,
 * linear and cubic (its span table's looping rows too): every pose equals ak_clip_sample +
 * ak_fk's at the same time. */
static void batch_finds_keys_as_sample_does(void **state)
{
    (void)state;
    enum { N = 16 };
    const float times[N] = {1.5f,   1.0f - 1e-5f, 2.0f - 1e-6f, 2.0f,  3.99f, -0.0f,
                            -1e-6f, -1.3f,        4.5f,         -2.5f, NAN,   INFINITY,
                            1e30f,  0.25f,        0.75f,        1.25f};
    static ak_xform batch[N * J];
    ak_clip *prepared = ak_clip_clone(g_c);
    assert_non_null(prepared);
    assert_int_equal(ak_clip_prepare_cubic(prepared), AK_OK);
    for (int loop = 0; loop <= 1; ++loop) {
        for (int interp = AK_INTERP_LINEAR; interp <= AK_INTERP_CUBIC; ++interp) {
            /* cubic: prepared clamped, then made looping (every span of both, the loop's
             * first, second-last and last spans included: times 0.25, 1.25, 1.5, 1.99) */
            ak_clip *c = interp == AK_INTERP_CUBIC ? prepared : g_c;
            c->loop = loop;
            assert_int_equal(ak_clip_sample_fk_batch(c, g_s, times, N, (ak_interp)interp, batch),
                             AK_OK);
            for (int i = 0; i < N; ++i) {
                ak_xform local[J], model[J];
                ak_clip_sample(c, g_s, times[i], (ak_interp)interp, local);
                ak_fk(g_s, local, model);
                for (int32_t j = 0; j < J; ++j) {
                    const ak_xform *b = &batch[i * J + j];
                    assert_true(ak_vec3_length(ak_vec3_sub(b->translation, model[j].translation)) <=
                                1e-5f);
                    AKT_NEAR(fabsf(ak_quat_dot(b->rotation, model[j].rotation)), 1.0f, 1e-5);
                }
            }
        }
    }
    g_c->loop = 0;
    ak_clip_destroy(prepared);
}

/* Component `comp` of character i's joint j in an SoA output of J joints. */
static float soa_at(const float *soa, int i, int32_t j, int comp)
{
    return soa[((size_t)(i / 8) * J + (size_t)j) * AK_BATCH_SOA_JOINT_FLOATS + (size_t)comp * 8 +
               (size_t)(i % 8)];
}

/* Whether this build and CPU take the eight-lane pass for a full block of both outputs (then
 * they give the same bits), or the scalar forms for both (AK_NO_SIMD: the same bits too). */
static int soa_bits_expected(void)
{
#if defined(AK_NO_SIMD)
    return 1;
#elif (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

/* The SoA output (13 characters: one full block and five lanes of the next) against
 * ak_clip_sample + ak_fk for step, linear and cubic; lanes 13..15 repeat character 12's bits;
 * the full block gives the poses' bits where both run the same pass. */
static void batch_soa_equals_sample_then_fk(void **state)
{
    (void)state;
    enum { BLOCKS = (COUNT + 7) / 8, FLOATS = BLOCKS * J * AK_BATCH_SOA_JOINT_FLOATS };
    static float soa[FLOATS], before[FLOATS];
    static ak_xform poses[COUNT * J];
    memset(soa, 0x5a, sizeof soa);
    memcpy(before, soa, sizeof soa);
    assert_int_equal(ak_clip_sample_fk_batch_soa(NULL, g_s, g_times, COUNT, AK_INTERP_LINEAR, soa),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_sample_fk_batch_soa(g_c, g_s, g_times, -1, AK_INTERP_LINEAR, soa),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_sample_fk_batch_soa(g_c, g_s, NULL, COUNT, AK_INTERP_LINEAR, soa),
                     AK_ERR_INVALID_ARG);
    assert_memory_equal(soa, before, sizeof soa);
    ak_clip *prepared = ak_clip_clone(g_c);
    assert_non_null(prepared);
    assert_int_equal(ak_clip_prepare_cubic(prepared), AK_OK);
    assert_int_equal(ak_clip_sample_fk_batch_soa(g_c, g_s, g_times, COUNT, AK_INTERP_CUBIC, soa),
                     AK_ERR_STATE); /* written all the same, the slow way */
    for (int interp = AK_INTERP_STEP; interp <= AK_INTERP_CUBIC; ++interp) {
        const ak_clip *c = interp == AK_INTERP_CUBIC ? prepared : g_c;
        assert_int_equal(
            ak_clip_sample_fk_batch_soa(c, g_s, g_times, COUNT, (ak_interp)interp, soa), AK_OK);
        for (int i = 0; i < BLOCKS * 8; ++i) {
            const int who = i < COUNT ? i : COUNT - 1;
            ak_xform local[J], model[J];
            ak_clip_sample(c, g_s, g_times[who], (ak_interp)interp, local);
            ak_fk(g_s, local, model);
            if (interp == AK_INTERP_LINEAR) AKT_NEAR(soa_at(soa, i, 0, 4), 0.2f * (float)who, 1e-5);
            for (int32_t j = 0; j < J; ++j) {
                const ak_quat q = {soa_at(soa, i, j, 0), soa_at(soa, i, j, 1), soa_at(soa, i, j, 2),
                                   soa_at(soa, i, j, 3)};
                const ak_vec3 t = {soa_at(soa, i, j, 4), soa_at(soa, i, j, 5),
                                   soa_at(soa, i, j, 6)};
                assert_true(ak_vec3_length(ak_vec3_sub(t, model[j].translation)) <= 1e-5f);
                AKT_NEAR(fabsf(ak_quat_dot(q, model[j].rotation)), 1.0f, 1e-5);
                for (int k = 0; k < 7 && i >= COUNT; ++k) /* padding lanes: the last pose */
                    assert_true(soa_at(soa, i, j, k) == soa_at(soa, COUNT - 1, j, k));
            }
        }
        if (interp == AK_INTERP_STEP || !soa_bits_expected()) continue;
        assert_int_equal(ak_clip_sample_fk_batch(c, g_s, g_times, COUNT, (ak_interp)interp, poses),
                         AK_OK);
        for (int i = 0; i < 8; ++i)
            for (int32_t j = 0; j < J; ++j) {
                const ak_xform *x = &poses[i * J + j];
                const float v[7] = {x->rotation.x,   x->rotation.y,    x->rotation.z,
                                    x->rotation.w,   x->translation.x, x->translation.y,
                                    x->translation.z};
                for (int k = 0; k < 7; ++k)
                    assert_true(soa_at(soa, i, j, k) == v[k]);
            }
    }
    ak_clip_destroy(prepared);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batch_arguments_validity),
        cmocka_unit_test(ranges_cover_in_lanes_of_eight),
        cmocka_unit_test(batch_equals_sample_then_fk_and_ranges_give_its_bits),
        cmocka_unit_test(batch_soa_equals_sample_then_fk),
        cmocka_unit_test(batch_finds_keys_as_sample_does),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
