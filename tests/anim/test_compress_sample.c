/* src/anim/compress_sample.c: sampling a compressed clip (one character, or a batch with FK
 * in the same pass), its bytes (data, load with every field checked), info, and the way back
 * to a plain clip. Its calls take no params struct: the first case is the validity of their
 * arguments (a null pointer, another joint count, a range outside the batch: refused, or
 * nothing written). Then a two-joint clip worked by hand (linear, step and cubic between keys
 * within the compressor's tolerance; clamped outside a plain clip, wrapped in a looping one;
 * constant tracks bit for bit), the batch against sample-then-FK and its ranges against one
 * call (quantized, raw and constant tracks, keys rounded outside the unit ball, tracks laid
 * out out of order), the bytes' round trip and decompression, and blocks that lie refused on
 * load. */
#include "compress_util.h"
#include "core/simd8.h" /* AK_HAVE_AVX2_DISPATCH */

/* A root (translation track) and a child 1 m above it; 3 frames 0.5 s apart: the root at
 * x = 0, 1, 3 and turning 0, 0.4, 0.8 rad about +Y; the child never moves. */
static void two_joints(ak_skeleton **s, ak_clip **c)
{
    const char *names[] = {"root", "child"};
    const int32_t parents[] = {-1, 0};
    ak_xform rest[2] = {ak_xform_identity(), ak_xform_identity()};
    rest[1].translation = ak_vec3_make(0, 1, 0);
    ak_skeleton_desc desc = {2, names, parents, rest, NULL, NULL};
    assert_int_equal(ak_skeleton_create(&desc, s, NULL), AK_OK);
    const uint8_t has_tr[] = {1, 0};
    assert_int_equal(ak_clip_create(2, 3, 0.5f, has_tr, c, NULL), AK_OK);
    const float x[3] = {0, 1, 3};
    for (int32_t f = 0; f < 3; ++f) {
        (*c)->rotations[2 * f] = ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), 0.4f * (float)f);
        (*c)->rotations[2 * f + 1] = ak_quat_identity();
        (*c)->translations[f] = ak_vec3_make(x[f], 0, 0);
    }
    ak_clip_finalize(*c);
}

static ak_compressed_clip *compress(const ak_clip *c, const ak_skeleton *s, float tolerance)
{
    ak_compress_params p = ak_compress_defaults();
    p.tolerance = tolerance;
    ak_compressed_clip *cc = NULL;
    ak_error err;
    if (ak_compress_run(c, s, &p, &cc, &err) != AK_OK) fail_msg("%s", err.message);
    return cc;
}

static void compress_sample_arguments_validity(void **state)
{
    (void)state;
    ak_skeleton *s, *other;
    ak_clip *c, *oc;
    float mpu;
    two_joints(&s, &c);
    akt_load_bvh("cmu_09_01_run.bvh", &other, &oc, &mpu);
    ak_compressed_clip *cc = compress(c, s, 1e-4f);
    ak_xform out[4];
    const ak_xform guard = {{9, 9, 9, 9}, {9, 9, 9}};
    for (int i = 0; i < 4; ++i)
        out[i] = guard;
    ak_compressed_clip_sample(NULL, s, 0.1f, AK_INTERP_LINEAR, out);
    ak_compressed_clip_sample(cc, NULL, 0.1f, AK_INTERP_LINEAR, out);
    ak_compressed_clip_sample(cc, other, 0.1f, AK_INTERP_LINEAR, out); /* 38 joints, not 2 */
    ak_compressed_clip_sample(cc, s, 0.1f, AK_INTERP_LINEAR, NULL);
    assert_memory_equal(&out[0], &guard, sizeof guard); /* nothing written */
    const float times[2] = {0.1f, 0.2f};
    assert_int_equal(ak_compressed_clip_sample_fk_batch(cc, s, times, 2, AK_INTERP_LINEAR, out),
                     AK_OK);
    assert_int_equal(ak_compressed_clip_sample_fk_batch(cc, s, times, -1, AK_INTERP_LINEAR, out),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_compressed_clip_sample_fk_batch(cc, other, times, 2, AK_INTERP_LINEAR, out),
                     AK_ERR_INVALID_ARG);
    static const int32_t ranges[][2] = {{-1, 1}, {1, 0}, {0, 3}, {3, 3}};
    for (int i = 0; i < 4; ++i)
        assert_int_equal(ak_compressed_clip_sample_fk_range(cc, s, times, 2, AK_INTERP_LINEAR, out,
                                                            ranges[i][0], ranges[i][1]),
                         AK_ERR_INVALID_ARG);
    assert_int_equal(
        ak_compressed_clip_sample_fk_range(cc, s, times, 2, AK_INTERP_LINEAR, out, 2, 2), AK_OK);
    ak_clip *plain = (ak_clip *)1;
    ak_error err;
    assert_int_equal(ak_compressed_clip_decompress(cc, other, &plain, &err), AK_ERR_INVALID_ARG);
    assert_null(plain);
    assert_non_null(strstr(err.message, "clip has 2 joints, skeleton 38"));
    assert_int_equal(ak_compressed_clip_decompress(NULL, s, &plain, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "null argument"));
    ak_compressed_clip *back = (ak_compressed_clip *)1;
    assert_int_equal(ak_compressed_clip_load(NULL, 100, &back, &err), AK_ERR_INVALID_ARG);
    assert_null(back);
    size_t size = 7;
    assert_null(ak_compressed_clip_data(NULL, &size));
    assert_int_equal(size, 0);
    ak_compressed_info info;
    memset(&info, 0xff, sizeof info);
    ak_compressed_clip_get_info(NULL, &info);
    assert_int_equal(info.joint_count, 0);
    assert_int_equal(info.bytes, 0);
    ak_compressed_clip_destroy(NULL);
    ak_compressed_clip_destroy(cc);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
    ak_clip_destroy(oc);
    ak_skeleton_destroy(other);
}

/* Model-space error between the plain clip and the compressed one at time t (metres: the clip
 * is in metres), joint and virtual points 3 cm out. */
static double error_at(const ak_clip *c, const ak_skeleton *s, const ak_compressed_clip *cc,
                       float t, ak_interp interp)
{
    ak_xform a[2], b[2], ma[2], mb[2];
    ak_clip_sample(c, s, t, interp, a);
    ak_compressed_clip_sample(cc, s, t, interp, b);
    ak_fk(s, a, ma);
    ak_fk(s, b, mb);
    const double e0 = akt_point_error(ma[0], mb[0], 0.03f),
                 e1 = akt_point_error(ma[1], mb[1], 0.03f);
    return e0 > e1 ? e0 : e1;
}

/* Between keys: linear x(0.25 s) = 0.5 and yaw 0.2 rad, step x = 0, the cubic as the plain
 * clip's, all within the 0.1 mm tolerance asked; before the start the first frame, past the
 * end the last (x = 3), and the looping clip wraps (its time 1.5 s + 0.25 s is 0.25 s); the
 * child's constant rotation and translation come back bit for bit. */
static void compress_sample_two_joints_worked_by_hand(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    two_joints(&s, &c);
    const float tol = 1e-4f;
    ak_compressed_clip *cc = compress(c, s, tol);
    ak_compressed_info info;
    ak_compressed_clip_get_info(cc, &info);
    assert_int_equal(info.joint_count, 2);
    assert_int_equal(info.frame_count, 3);
    AKT_NEAR(info.frame_time, 0.5, 0.0);
    assert_int_equal(info.constant_tracks + info.quantized_tracks + info.raw_tracks, 4);
    assert_true(info.constant_tracks >= 2); /* the child's rotation and translation */
    ak_xform l[2];
    ak_compressed_clip_sample(cc, s, 0.25f, AK_INTERP_LINEAR, l);
    AKT_NEAR(l[0].translation.x, 0.5, tol);
    /* points 3 cm out move at most tol: the turn is off by at most tol / 0.03 rad, so the
     * quaternions' dot is at least cos(angle / 2) >= 1 - angle^2 / 8 */
    const double angle = tol / 0.03;
    AKT_NEAR(
        fabsf(ak_quat_dot(l[0].rotation, ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), 0.2f))),
        1.0, angle * angle / 8.0);
    assert_memory_equal(&l[1].rotation, &c->rotations[1], sizeof(ak_quat));
    assert_memory_equal(&l[1].translation, &s->rest_local[1].translation, sizeof(ak_vec3));
    ak_compressed_clip_sample(cc, s, 0.25f, AK_INTERP_STEP, l);
    AKT_NEAR(l[0].translation.x, 0.0, tol);
    ak_compressed_clip_sample(cc, s, -3.0f, AK_INTERP_LINEAR, l);
    AKT_NEAR(l[0].translation.x, 0.0, tol);
    ak_compressed_clip_sample(cc, s, 99.0f, AK_INTERP_LINEAR, l);
    AKT_NEAR(l[0].translation.x, 3.0, tol);
    const ak_interp modes[3] = {AK_INTERP_STEP, AK_INTERP_LINEAR, AK_INTERP_CUBIC};
    for (int m = 0; m < 3; ++m)
        for (int k = 0; k <= 20; ++k)
            assert_true(error_at(c, s, cc, 0.05f * (float)k, modes[m]) <= tol);
    ak_compressed_clip_destroy(cc);
    c->loop = 1;
    cc = compress(c, s, tol);
    ak_xform w[2];
    ak_compressed_clip_sample(cc, s, 0.25f, AK_INTERP_LINEAR, l);
    ak_compressed_clip_sample(cc, s, ak_clip_duration(c) + 0.25f, AK_INTERP_LINEAR, w);
    AKT_NEAR(w[0].translation.x, l[0].translation.x, 1e-6);
    for (int m = 0; m < 3; ++m)
        for (int k = 0; k <= 30; ++k)
            assert_true(error_at(c, s, cc, 0.05f * (float)k, modes[m]) <= tol);
    ak_compressed_clip_destroy(cc);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* Every pose of a batch of K characters (times before the start, inside, past the end) against
 * ak_compressed_clip_sample then ak_fk: joints and the points 3 cm out within 1e-5 m (the
 * batch's eight-lane pass rounds differently); ranges of the batch give one call's bits. */
static void check_batch(const ak_compressed_clip *cc, const ak_skeleton *s, float mpu)
{
    enum { K = 21 }; /* two blocks of eight lanes and five characters one at a time */
    const size_t n = (size_t)s->joint_count;
    float times[K];
    for (int i = 0; i < K; ++i)
        times[i] = 0.37f * (float)i - 0.5f;
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
                assert_true(akt_point_error(w[j], one[(size_t)i * n + j], 0.03f / mpu) * mpu <
                            1e-5);
        }
    }
    assert_int_equal(
        ak_compressed_clip_sample_fk_range(cc, s, times, K, AK_INTERP_LINEAR, one, 5, K + 1),
        AK_ERR_INVALID_ARG);
    assert_int_equal(ak_compressed_clip_sample_fk_batch(cc, s, NULL, K, AK_INTERP_LINEAR, one),
                     AK_ERR_INVALID_ARG);
    free(one), free(split), free(local), free(w);
}

/* The walk at the default tolerance (constant and quantized tracks, one raw) and at 1e-6 m
 * (twelve raw tracks, rotations among them). */
static void batch_matches_sample_then_fk_and_ranges_match_one_call(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    float mpu;
    ak_compressed_clip *cc = akt_compress_capture("cmu_02_01_walk.bvh", &s, &c, &mpu);
    check_batch(cc, s, mpu);
    ak_compressed_clip_destroy(cc);
    ak_compress_params p = ak_compress_defaults();
    p.tolerance = 1e-6f;
    p.metres_per_unit = mpu;
    assert_int_equal(ak_compress_run(c, s, &p, &cc, NULL), AK_OK);
    ak_compressed_info info;
    ak_compressed_clip_get_info(cc, &info);
    assert_true(info.raw_tracks >= 2);
    check_batch(cc, s, mpu);
    ak_compressed_clip_destroy(cc);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* The compressed CMU 02_01 walk and a writable copy of its bytes, for tests that patch a
 * track's record and load the copy. */
typedef struct patched_walk {
    ak_skeleton *s;
    ak_clip *c;
    float mpu;
    ak_compressed_clip *cc;
    uint8_t *copy;
    size_t size;
} patched_walk;

static patched_walk patched_walk_make(void)
{
    patched_walk w;
    w.cc = akt_compress_capture("cmu_02_01_walk.bvh", &w.s, &w.c, &w.mpu);
    const uint8_t *bytes = ak_compressed_clip_data(w.cc, &w.size);
    w.copy = malloc(w.size);
    assert_non_null(w.copy);
    memcpy(w.copy, bytes, w.size);
    return w;
}

/* Writes track record `t` as track `i` of the copy. */
static void patched_walk_set(patched_walk *w, int32_t i, const akc_track *t)
{
    memcpy(w->copy + akc_tracks_offset() + sizeof *t * (size_t)i, t, sizeof *t);
}

static ak_compressed_clip *patched_walk_load(const patched_walk *w)
{
    ak_compressed_clip *odd = NULL;
    assert_int_equal(ak_compressed_clip_load(w->copy, w->size, &odd, NULL), AK_OK);
    return odd;
}

static void patched_walk_free(patched_walk *w, ak_compressed_clip *odd)
{
    free(w->copy);
    ak_compressed_clip_destroy(odd);
    ak_compressed_clip_destroy(w->cc);
    ak_clip_destroy(w->c);
    ak_skeleton_destroy(w->s);
}

/* A block whose quantized rotation keys decode outside the unit ball (x from 0.999 up: the
 * decoder renormalises them, w = 0) is sampled the same by the batch as one at a time. */
static void batch_renormalises_keys_outside_the_unit_ball_as_one_character_does(void **state)
{
    (void)state;
    patched_walk w = patched_walk_make();
    const ak_compressed_clip *cc = w.cc;
    int32_t q = -1; /* the first quantized rotation track */
    for (int32_t j = 0; j < w.s->joint_count && q < 0; ++j)
        if (cc->tracks[2 * j].mode == AKC_QUANTIZED) q = 2 * j;
    assert_true(q >= 0);
    akc_track t = cc->tracks[q];
    t.base[0] = 0.999f;
    patched_walk_set(&w, q, &t);
    ak_compressed_clip *odd = patched_walk_load(&w);
    int outside = 0; /* frames whose key of that track is outside the ball */
    const uint64_t mask = ((uint64_t)1 << t.bits) - 1u;
    for (int32_t f = 0; f < w.c->frame_count; ++f) {
        const uint64_t v = akc_read_bits(akc_record(odd, f), t.offset);
        double n2 = 0.0;
        for (uint32_t k = 0; k < 3; ++k) {
            const double x = t.base[k] + (double)((v >> (k * t.bits)) & mask) * t.step[k];
            n2 += x * x;
        }
        outside += n2 > 1.0;
    }
    assert_true(outside > w.c->frame_count / 4);
    check_batch(odd, w.s, w.mpu);
    patched_walk_free(&w, odd);
}

/* A block whose quantized tracks are not laid out in track order (two tracks of the same bit
 * count, far apart, with their offsets swapped: the eight-lane pass reads the records' words
 * in order through a ring of two groups of eight) is sampled by the batch as one at a time. */
static void batch_samples_tracks_laid_out_out_of_order_as_one_character_does(void **state)
{
    (void)state;
    patched_walk w = patched_walk_make();
    const ak_compressed_clip *cc = w.cc;
    int32_t a = -1, b = -1; /* the first quantized track, the last one with its bit count */
    for (int32_t i = 0; i < 2 * w.s->joint_count; ++i) {
        if (cc->tracks[i].mode != AKC_QUANTIZED) continue;
        if (a < 0)
            a = i;
        else if (cc->tracks[i].bits == cc->tracks[a].bits)
            b = i;
    }
    assert_true(a >= 0 && b > a);
    assert_true(cc->tracks[b].offset - cc->tracks[a].offset >= 512u); /* two groups apart */
    akc_track ta = cc->tracks[a], tb = cc->tracks[b];
    const uint32_t swap = ta.offset;
    ta.offset = tb.offset, tb.offset = swap;
    patched_walk_set(&w, a, &ta);
    patched_walk_set(&w, b, &tb);
    ak_compressed_clip *odd = patched_walk_load(&w);
#ifdef AK_HAVE_AVX2_DISPATCH
    assert_non_null(cc->gather8); /* the walk as compressed: in order */
#endif
    assert_null(odd->gather8);
    check_batch(odd, w.s, w.mpu);
    patched_walk_free(&w, odd);
}

static void bytes_round_trip_and_decompress_give_the_same_keys(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    float mpu;
    akt_load_bvh("cmu_09_01_run.bvh", &s, &c, &mpu);
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
            assert_true(akt_point_error(a[j], b[j], 0.03f / mpu) * mpu < 1e-5);
        ak_compressed_clip_sample(cc, s, (float)f * c->frame_time, AK_INTERP_STEP, a);
        ak_clip_frame(plain, s, f, d);
        for (size_t j = 0; j < n; ++j)
            assert_true(akt_point_error(a[j], d[j], 0.03f / mpu) * mpu < 1e-6);
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

/* A block cut short, or with a field changed to a lie (magic, version, counts, frame time,
 * record size, a track's bits, mode, offset or step), is refused on load with a reason. */
static void loading_refuses_blocks_that_lie(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    float mpu;
    ak_compressed_clip *cc = akt_compress_capture("cmu_02_01_walk.bvh", &s, &c, &mpu);
    ak_error err;
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
        cmocka_unit_test(compress_sample_arguments_validity),
        cmocka_unit_test(compress_sample_two_joints_worked_by_hand),
        cmocka_unit_test(batch_matches_sample_then_fk_and_ranges_match_one_call),
        cmocka_unit_test(batch_renormalises_keys_outside_the_unit_ball_as_one_character_does),
        cmocka_unit_test(batch_samples_tracks_laid_out_out_of_order_as_one_character_does),
        cmocka_unit_test(bytes_round_trip_and_decompress_give_the_same_keys),
        cmocka_unit_test(loading_refuses_blocks_that_lie),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
