/* Clip sampling (step / linear / cubic), looping, hemisphere continuity, batch path, blend. */
#include "test_util.h"

/* A 3-joint chain and a clip of `frames` random-ish but smooth keys (angles up to ~25 deg
 * per frame), root translation moving forward. */
static void make_fixture(int frames, ak_skeleton **out_s, ak_clip **out_c)
{
    const char *names[3] = {"root", "mid", "tip"};
    int32_t parents[3] = {-1, 0, 1};
    ak_xform rest[3] = {ak_xform_identity(), ak_xform_identity(), ak_xform_identity()};
    rest[1].translation = ak_vec3_make(0, 1, 0);
    rest[2].translation = ak_vec3_make(0, 0.5f, 0.2f);
    ak_skeleton_desc d = {3, names, parents, rest, NULL, NULL};
    assert_int_equal(ak_skeleton_create(&d, out_s, NULL), AK_OK);
    assert_int_equal(ak_clip_create(3, frames, 1.0f / 30.0f, NULL, out_c, NULL), AK_OK);
    ak_clip *c = *out_c;
    for (int f = 0; f < frames; ++f) {
        for (int j = 0; j < 3; ++j) {
            ak_vec3 e = {0.4f * sinf(0.37f * (float)f + (float)j),
                         0.3f * cosf(0.23f * (float)f * (float)(j + 1)),
                         0.2f * sinf(0.5f * (float)f)};
            ak_quat q = ak_quat_from_euler(e, AK_ORDER_ZYX);
            if ((f + j) % 3 == 0) {
                q.x = -q.x;
                q.y = -q.y;
                q.z = -q.z;
                q.w = -q.w;
            } /* sign flips */
            c->rotations[f * 3 + j] = q;
        }
        c->translations[f] = ak_vec3_make(0.05f * (float)f, 1.0f + 0.02f * sinf((float)f), 0.0f);
    }
    ak_clip_finalize(c);
}

static float quat_diff(ak_quat a, ak_quat b)
{
    return 1.0f - fabsf(ak_quat_dot(a, b));
}

static void finalize_makes_keys_hemisphere_continuous(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(40, &s, &c);
    for (int f = 1; f < 40; ++f)
        for (int j = 0; j < 3; ++j)
            assert_true(ak_quat_dot(c->rotations[f * 3 + j], c->rotations[(f - 1) * 3 + j]) >=
                        0.0f);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

static void every_interp_reproduces_keys_at_key_times(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(30, &s, &c);
    ak_xform pose[3], key[3];
    for (int interp = 0; interp < 3; ++interp) {
        for (int f = 0; f < 30; ++f) {
            ak_clip_sample(c, s, (float)f * c->frame_time, (ak_interp)interp, pose);
            ak_clip_frame(c, s, f, key);
            for (int j = 0; j < 3; ++j) {
                AKT_NEAR(quat_diff(pose[j].rotation, key[j].rotation), 0.0f, 2e-6f);
                AKT_NEAR(pose[j].translation.x, key[j].translation.x, 1e-5f);
                AKT_NEAR(pose[j].translation.y, key[j].translation.y, 1e-5f);
            }
        }
    }
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

static void step_holds_and_linear_is_slerp(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(10, &s, &c);
    ak_xform pose[3];
    float ft = c->frame_time;
    ak_clip_sample(c, s, 3.7f * ft, AK_INTERP_STEP, pose);
    AKT_NEAR(quat_diff(pose[1].rotation, c->rotations[3 * 3 + 1]), 0.0f, 2e-7f);
    for (int k = 1; k < 10; ++k) {
        float a = (float)k / 10.0f;
        ak_clip_sample(c, s, (4.0f + a) * ft, AK_INTERP_LINEAR, pose);
        for (int j = 0; j < 3; ++j) {
            ak_quat ref = ak_quat_slerp(c->rotations[4 * 3 + j], c->rotations[5 * 3 + j], a);
            /* the fast slerp is within 1e-4 rad of the exact one */
            AKT_NEAR(ak_quat_angle(ak_quat_mul(pose[j].rotation, ak_quat_conjugate(ref))), 0.0f,
                     1e-4f);
        }
        AKT_NEAR(pose[0].translation.x, 0.05f * (4.0f + a), 1e-5f);
    }
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* Cubic sampling is C1: one-sided derivatives at a key agree (central differences). */
static void cubic_is_c1_at_keys(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(20, &s, &c);
    const float ft = c->frame_time, h = 1e-3f * ft;
    ak_xform a[3], b[3], m[3];
    for (int f = 2; f < 17; ++f) {
        float t = (float)f * ft;
        ak_clip_sample(c, s, t - h, AK_INTERP_CUBIC, a);
        ak_clip_sample(c, s, t, AK_INTERP_CUBIC, m);
        ak_clip_sample(c, s, t + h, AK_INTERP_CUBIC, b);
        for (int j = 0; j < 3; ++j) {
            /* angular velocity from the left and from the right, in rad per frame */
            ak_quat dl = ak_quat_mul(m[j].rotation, ak_quat_conjugate(a[j].rotation));
            ak_quat dr = ak_quat_mul(b[j].rotation, ak_quat_conjugate(m[j].rotation));
            if (dl.w < 0) {
                dl.x = -dl.x;
                dl.y = -dl.y;
                dl.z = -dl.z;
                dl.w = -dl.w;
            }
            if (dr.w < 0) {
                dr.x = -dr.x;
                dr.y = -dr.y;
                dr.z = -dr.z;
                dr.w = -dr.w;
            }
            float k = 2.0f * ft / h;
            AKT_NEAR(dl.x * k, dr.x * k, 0.02f);
            AKT_NEAR(dl.y * k, dr.y * k, 0.02f);
            AKT_NEAR(dl.z * k, dr.z * k, 0.02f);
        }
        float vl = (m[0].translation.y - a[0].translation.y) / h * ft;
        float vr = (b[0].translation.y - m[0].translation.y) / h * ft;
        AKT_NEAR(vl, vr, 2e-3f);
    }
    /* and linear is not C1 at the same keys: its one-sided slopes differ */
    ak_clip_sample(c, s, 5 * ft - h, AK_INTERP_LINEAR, a);
    ak_clip_sample(c, s, 5 * ft, AK_INTERP_LINEAR, m);
    ak_clip_sample(c, s, 5 * ft + h, AK_INTERP_LINEAR, b);
    float vl = (m[0].translation.y - a[0].translation.y) / h * ft;
    float vr = (b[0].translation.y - m[0].translation.y) / h * ft;
    assert_true(fabsf(vl - vr) > 1e-3f);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

static void looping_wraps_and_clamped_clamps(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(12, &s, &c);
    ak_xform a[3], b[3];
    AKT_NEAR(ak_clip_duration(c), 11.0f * c->frame_time, 1e-6f);
    ak_clip_sample(c, s, 100.0f, AK_INTERP_LINEAR, a);
    ak_clip_frame(c, s, 11, b);
    AKT_NEAR(quat_diff(a[1].rotation, b[1].rotation), 0.0f, 1e-6f);
    ak_clip_sample(c, s, -3.0f, AK_INTERP_LINEAR, a);
    ak_clip_frame(c, s, 0, b);
    AKT_NEAR(quat_diff(a[1].rotation, b[1].rotation), 0.0f, 1e-6f);

    c->loop = 1;
    float d = ak_clip_duration(c);
    AKT_NEAR(d, 12.0f * c->frame_time, 1e-6f);
    for (int interp = 0; interp < 3; ++interp) {
        float t = 2.5f * c->frame_time;
        ak_clip_sample(c, s, t, (ak_interp)interp, a);
        ak_clip_sample(c, s, t + 3.0f * d, (ak_interp)interp, b);
        for (int j = 0; j < 3; ++j)
            AKT_NEAR(quat_diff(a[j].rotation, b[j].rotation), 0.0f, 1e-5f);
        ak_clip_sample(c, s, t - 2.0f * d, (ak_interp)interp, b);
        for (int j = 0; j < 3; ++j)
            AKT_NEAR(quat_diff(a[j].rotation, b[j].rotation), 0.0f, 1e-5f);
    }
    /* between the last frame and the wrap, a looping clip blends back towards frame 0 */
    ak_clip_sample(c, s, d - 1e-4f, AK_INTERP_LINEAR, a);
    ak_clip_frame(c, s, 0, b);
    AKT_NEAR(quat_diff(a[1].rotation, b[1].rotation), 0.0f, 1e-4f);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* The batched path (eight, four, two and one character at a time, by CPU and count) gives
 * what ak_clip_sample + ak_fk give, for every interpolation. */
static void batch_matches_sample_then_fk(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(25, &s, &c);
    c->loop = 1;
    enum { COUNT = 23 }; /* 16 on the 8-wide path, 4 on the 4-wide, then 2 and 1 */
    float times[COUNT];
    for (int i = 0; i < COUNT; ++i)
        times[i] = 0.0131f * (float)(i * i) - 0.2f;
    ak_xform world[COUNT * 3], local[3], ref[3];
    /* the last pass: cubic again with prepared control points (the four-joint SSE SQUAD) */
    for (int pass = 0; pass < 4; ++pass) {
        const int interp = pass < 3 ? pass : AK_INTERP_CUBIC;
        if (pass == 3) assert_int_equal(ak_clip_prepare_cubic(c), AK_OK);
        /* cubic before ak_clip_prepare_cubic: done, but the call says it took the slow path */
        const int32_t expected = pass == 2 ? AK_ERR_STATE : AK_OK;
        assert_int_equal(ak_clip_sample_fk_batch(c, s, times, COUNT, (ak_interp)interp, world),
                         expected);
        for (int i = 0; i < COUNT; ++i) {
            ak_clip_sample(c, s, times[i], (ak_interp)interp, local);
            ak_fk(s, local, ref);
            for (int j = 0; j < 3; ++j) {
                AKT_NEAR(world[i * 3 + j].translation.x, ref[j].translation.x, 2e-6f);
                AKT_NEAR(world[i * 3 + j].translation.y, ref[j].translation.y, 2e-6f);
                AKT_NEAR(world[i * 3 + j].translation.z, ref[j].translation.z, 2e-6f);
                AKT_NEAR(fabsf(ak_quat_dot(world[i * 3 + j].rotation, ref[j].rotation)), 1.0f,
                         2e-6f);
            }
        }
    }
    assert_int_equal(ak_clip_sample_fk_batch(c, s, times, -1, AK_INTERP_LINEAR, world),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_sample_fk_batch(c, s, NULL, COUNT, AK_INTERP_LINEAR, world),
                     AK_ERR_INVALID_ARG);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* A rig of `n` joints in depth-first order: chains of five, each hanging off a random
 * ancestor of the joint before it (near parents and parents hundreds of joints back, as hands
 * and faces on big rigs), and a
 * looping clip of smooth keys with translation tracks on every seventh joint. */
static void make_big_rig(int n, ak_skeleton **out_s, ak_clip **out_c, int32_t *depth)
{
    char(*names)[16] = malloc(sizeof *names * (size_t)n);
    const char **ptrs = malloc(sizeof *ptrs * (size_t)n);
    int32_t *parents = malloc(sizeof *parents * (size_t)n);
    ak_xform *rest = malloc(sizeof *rest * (size_t)n);
    uint8_t *has = malloc((size_t)n);
    akt_rng rng = {(uint64_t)n};
    for (int j = 0; j < n; ++j) {
        snprintf(names[j], sizeof names[j], "j%d", j);
        ptrs[j] = names[j];
        parents[j] = j - 1;
        if (j % 5 == 1) { /* a chain starts at any ancestor of the joint before (depth-first) */
            uint64_t up = akt_next(&rng) % (uint64_t)(depth[j - 1] + 1);
            while (up-- > 0)
                parents[j] = parents[parents[j]];
        }
        depth[j] = j == 0 ? 0 : depth[parents[j]] + 1;
        rest[j] = ak_xform_identity();
        rest[j].translation =
            ak_vec3_make(akt_uniform(&rng, -0.05f, 0.05f), akt_uniform(&rng, 0.02f, 0.1f), 0.0f);
        has[j] = j % 7 == 0;
    }
    ak_skeleton_desc d = {n, ptrs, parents, rest, NULL, NULL};
    assert_int_equal(ak_skeleton_create(&d, out_s, NULL), AK_OK);
    const int frames = 12;
    assert_int_equal(ak_clip_create(n, frames, 1.0f / 30.0f, has, out_c, NULL), AK_OK);
    ak_clip *c = *out_c;
    for (int f = 0; f < frames; ++f) {
        for (int j = 0; j < n; ++j)
            c->rotations[f * n + j] = ak_quat_from_euler(
                ak_vec3_make(0.3f * sinf(0.4f * (float)f + (float)j), 0.2f * (float)(j % 3),
                             akt_uniform(&rng, -0.2f, 0.2f)),
                AK_ORDER_ZYX);
        for (int k = 0; k < c->track_count; ++k)
            c->translations[f * c->track_count + k] =
                ak_vec3_make(0.01f * (float)f, 0.05f + 0.002f * (float)k, 0.0f);
    }
    c->loop = 1;
    ak_clip_finalize(c);
    free(names);
    free(ptrs);
    free(parents);
    free(rest);
    free(has);
}

/* Rigs of 250 and 1,023 joints (past the 128-joint window the wide paths keep in registers'
 * layout) through the batch path, eight, four, two and one characters at a time, against
 * ak_clip_sample + ak_fk. The bound is float rounding: each FK level composes one product of
 * unit quaternions and rotates one offset, a few units in the last place (2^-23) each, so
 * 8 ulp per level of depth, of the largest coordinate (under 3 m on these rigs). */
static void batch_matches_scalar_on_big_rigs(void **state)
{
    (void)state;
    const int sizes[2] = {250, 1023};
    enum { COUNT = 23 };
    for (int r = 0; r < 2; ++r) {
        const int n = sizes[r];
        int32_t *depth = malloc(sizeof *depth * (size_t)n);
        ak_skeleton *s;
        ak_clip *c;
        make_big_rig(n, &s, &c, depth);
        int far = 0; /* parents outside the wide paths' 128-joint window */
        for (int j = 1; j < n; ++j)
            far += j - s->parents[j] >= 128;
        assert_true(far > 0);
        ak_xform *world = malloc(sizeof(ak_xform) * (size_t)n * COUNT);
        ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n);
        ak_xform *ref = malloc(sizeof(ak_xform) * (size_t)n);
        float times[COUNT];
        for (int i = 0; i < COUNT; ++i)
            times[i] = 0.0173f * (float)(i * i) - 0.1f;
        for (int interp = AK_INTERP_LINEAR; interp <= AK_INTERP_CUBIC; ++interp) {
            if (interp == AK_INTERP_CUBIC) assert_int_equal(ak_clip_prepare_cubic(c), AK_OK);
            ak_clip_sample_fk_batch(c, s, times, COUNT, (ak_interp)interp, world);
            float worst = 0.0f;
            for (int i = 0; i < COUNT; ++i) {
                ak_clip_sample(c, s, times[i], (ak_interp)interp, local);
                ak_fk(s, local, ref);
                for (int j = 0; j < n; ++j) {
                    const ak_xform *a = &world[(size_t)i * (size_t)n + (size_t)j];
                    const float e = ak_vec3_length(ak_vec3_sub(a->translation, ref[j].translation));
                    assert_true(ak_vec3_length(ref[j].translation) < 3.0f);
                    const float bound = 8.0f * 3.0f * 1.1920929e-7f * (float)(depth[j] + 1);
                    if (e / bound > worst) worst = e / bound;
                    assert_true(e <= bound);
                    AKT_NEAR(fabsf(ak_quat_dot(a->rotation, ref[j].rotation)), 1.0f, bound / 3.0f);
                }
            }
            print_message("%d joints (%d far parents), interp %d: worst error %.3g of the bound\n",
                          n, far, interp, (double)worst);
        }
        free(world);
        free(local);
        free(ref);
        free(depth);
        ak_clip_destroy(c);
        ak_skeleton_destroy(s);
    }
}

/* The SoA output on the same rigs (parents far back read from the block itself): every
 * character's every joint against ak_clip_sample + ak_fk, the same bound as above; lanes past
 * the count hold the last character's pose. */
static float soa_error(const float *block, int32_t j, int lane, const ak_xform *ref)
{
    const float *x = block + (size_t)j * AK_BATCH_SOA_JOINT_FLOATS + lane;
    const ak_quat q = {x[0], x[8], x[16], x[24]};
    AKT_NEAR(fabsf(ak_quat_dot(q, ref->rotation)), 1.0f, 1e-5);
    return ak_vec3_length(ak_vec3_sub(ak_vec3_make(x[32], x[40], x[48]), ref->translation));
}

static void batch_soa_matches_scalar_on_big_rigs(void **state)
{
    (void)state;
    const int sizes[2] = {250, 1023};
    enum { COUNT = 11, BLOCKS = 2 };
    for (int r = 0; r < 2; ++r) {
        const int n = sizes[r];
        int32_t *depth = malloc(sizeof *depth * (size_t)n);
        ak_skeleton *s;
        ak_clip *c;
        make_big_rig(n, &s, &c, depth);
        const size_t block = (size_t)n * AK_BATCH_SOA_JOINT_FLOATS;
        float *soa = malloc(sizeof(float) * block * BLOCKS);
        ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n);
        ak_xform *ref = malloc(sizeof(ak_xform) * (size_t)n);
        float times[COUNT];
        for (int i = 0; i < COUNT; ++i)
            times[i] = 0.0173f * (float)(i * i) - 0.1f;
        for (int interp = AK_INTERP_LINEAR; interp <= AK_INTERP_CUBIC; ++interp) {
            if (interp == AK_INTERP_CUBIC) assert_int_equal(ak_clip_prepare_cubic(c), AK_OK);
            assert_int_equal(
                ak_clip_sample_fk_batch_soa(c, s, times, COUNT, (ak_interp)interp, soa), AK_OK);
            for (int i = 0; i < 8 * BLOCKS; ++i) {
                ak_clip_sample(c, s, times[i < COUNT ? i : COUNT - 1], (ak_interp)interp, local);
                ak_fk(s, local, ref);
                for (int j = 0; j < n; ++j) {
                    const float bound = 8.0f * 3.0f * 1.1920929e-7f * (float)(depth[j] + 1);
                    assert_true(soa_error(soa + (size_t)(i / 8) * block, j, i % 8, &ref[j]) <=
                                bound);
                }
            }
        }
        free(soa);
        free(local);
        free(ref);
        free(depth);
        ak_clip_destroy(c);
        ak_skeleton_destroy(s);
    }
}

/* ak_batch_range covers [0, count) in order, cuts only at multiples of AK_BATCH_LANES, shares
 * the blocks out evenly; running the batch in those ranges gives the bits of one call. */
static void batch_ranges_cover_and_match_one_call(void **state)
{
    (void)state;
    const int32_t counts[5] = {0, 7, 8, 61, 1000};
    for (int ci = 0; ci < 5; ++ci)
        for (int32_t parts = 1; parts <= 5; ++parts) {
            int32_t next = 0, smallest = counts[ci], largest = 0;
            for (int32_t part = 0; part < parts; ++part) {
                int32_t b = -1, e = -1;
                assert_int_equal(ak_batch_range(counts[ci], parts, part, &b, &e), AK_OK);
                assert_int_equal(b, next);
                assert_true(e >= b);
                if (part < parts - 1) assert_int_equal(e % AK_BATCH_LANES, 0);
                const int32_t blocks = (e - b) / AK_BATCH_LANES;
                if (blocks < smallest) smallest = blocks;
                if (blocks > largest) largest = blocks;
                next = e;
            }
            assert_int_equal(next, counts[ci]);
            assert_true(largest - smallest <= 1);
        }
    int32_t b, e;
    assert_int_equal(ak_batch_range(10, 0, 0, &b, &e), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_batch_range(10, 2, 2, &b, &e), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_batch_range(-1, 2, 0, &b, &e), AK_ERR_INVALID_ARG);
    assert_int_equal(b, 0);
    assert_int_equal(e, 0);

    ak_skeleton *s;
    ak_clip *c;
    int32_t depth[250];
    make_big_rig(250, &s, &c, depth);
    assert_int_equal(ak_clip_prepare_cubic(c), AK_OK);
    enum { COUNT = 45 };
    float times[COUNT];
    for (int i = 0; i < COUNT; ++i)
        times[i] = 0.031f * (float)i;
    ak_xform *whole = malloc(sizeof(ak_xform) * 250 * COUNT);
    ak_xform *split = malloc(sizeof(ak_xform) * 250 * COUNT);
    for (int interp = AK_INTERP_STEP; interp <= AK_INTERP_CUBIC; ++interp) {
        assert_int_equal(ak_clip_sample_fk_batch(c, s, times, COUNT, (ak_interp)interp, whole),
                         AK_OK);
        for (int32_t parts = 2; parts <= 4; ++parts) {
            memset(split, 0, sizeof(ak_xform) * 250 * COUNT);
            for (int32_t part = parts - 1; part >= 0; --part) { /* any order */
                assert_int_equal(ak_batch_range(COUNT, parts, part, &b, &e), AK_OK);
                assert_int_equal(
                    ak_clip_sample_fk_range(c, s, times, COUNT, (ak_interp)interp, split, b, e),
                    AK_OK);
            }
            assert_memory_equal(whole, split, sizeof(ak_xform) * 250 * COUNT);
        }
    }
    assert_int_equal(ak_clip_sample_fk_range(c, s, times, COUNT, AK_INTERP_LINEAR, split, 40, 46),
                     AK_ERR_INVALID_ARG);
    free(whole);
    free(split);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

static void blend_weights_reproduce_inputs(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(10, &s, &c);
    ak_xform a[3], b[3], out[3];
    ak_clip_frame(c, s, 2, a);
    ak_clip_frame(c, s, 7, b);
    ak_pose_blend(a, b, 3, 0.0f, NULL, out);
    assert_memory_equal(out, a, sizeof a);
    ak_pose_blend(a, b, 3, 1.0f, NULL, out);
    assert_memory_equal(out, b, sizeof b);
    float mask[3] = {1.0f, 0.0f, 0.5f};
    ak_pose_blend(a, b, 3, 1.0f, mask, out);
    assert_memory_equal(&out[0], &b[0], sizeof b[0]);
    assert_memory_equal(&out[1], &a[1], sizeof a[1]);
    ak_quat half = ak_quat_slerp(a[2].rotation, b[2].rotation, 0.5f);
    AKT_NEAR(quat_diff(out[2].rotation, half), 0.0f, 1e-6f);
    /* aliasing the output with an input is allowed */
    ak_pose_blend(a, b, 3, 1.0f, NULL, a);
    assert_memory_equal(a, b, sizeof b);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* Precomputed cubic control points give the same samples as computing them per sample,
 * for clamped and looping clips (whose ends use wrapped neighbours). */
static void prepared_cubic_matches_unprepared(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    make_fixture(16, &s, &c);
    ak_clip *prepared = ak_clip_clone(c);
    assert_int_equal(ak_clip_prepare_cubic(prepared), AK_OK);
    assert_non_null(prepared->squad_points);
    assert_null(c->squad_points);
    ak_xform a[3], b[3];
    for (int loop = 0; loop < 2; ++loop) {
        c->loop = prepared->loop = loop;
        for (int k = 0; k < 200; ++k) {
            float t = ak_clip_duration(c) * (float)k / 199.0f;
            ak_clip_sample(c, s, t, AK_INTERP_CUBIC, a);
            ak_clip_sample(prepared, s, t, AK_INTERP_CUBIC, b);
            for (int j = 0; j < 3; ++j)
                AKT_NEAR(
                    ak_quat_angle(ak_quat_mul(a[j].rotation, ak_quat_conjugate(b[j].rotation))),
                    0.0f, 2e-5f);
        }
    }
    /* new keys + finalize refresh the prepared points */
    prepared->rotations[5 * 3 + 1] = ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), 0.7f);
    c->rotations[5 * 3 + 1] = prepared->rotations[5 * 3 + 1];
    ak_clip_finalize(prepared);
    ak_clip_finalize(c);
    ak_clip_sample(c, s, 4.5f * c->frame_time, AK_INTERP_CUBIC, a);
    ak_clip_sample(prepared, s, 4.5f * c->frame_time, AK_INTERP_CUBIC, b);
    AKT_NEAR(ak_quat_angle(ak_quat_mul(a[1].rotation, ak_quat_conjugate(b[1].rotation))), 0.0f,
             2e-5f);
    ak_clip_destroy(prepared);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* Eight joints with large key-to-key turns (up to ~40 degrees): the four-joint SSE SQUAD of
 * a prepared clip gives the scalar SQUAD's rotations, in ak_clip_sample and in the batch. */
static void sse_cubic_matches_scalar_cubic(void **state)
{
    (void)state;
    enum { J = 8, F = 12 };
    const char *names[J] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    int32_t parents[J];
    ak_xform rest[J];
    for (int j = 0; j < J; ++j) {
        parents[j] = j - 1;
        rest[j] = ak_xform_identity();
        rest[j].translation = ak_vec3_make(0.0f, 0.3f, 0.0f);
    }
    ak_skeleton_desc d = {J, names, parents, rest, NULL, NULL};
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    assert_int_equal(ak_skeleton_create(&d, &s, NULL), AK_OK);
    assert_int_equal(ak_clip_create(J, F, 1.0f / 30.0f, NULL, &c, NULL), AK_OK);
    akt_rng rng = {2024};
    for (int f = 0; f < F; ++f)
        for (int j = 0; j < J; ++j)
            c->rotations[f * J + j] =
                ak_quat_from_euler(ak_vec3_make(0.7f * (float)f + akt_uniform(&rng, -0.3f, 0.3f),
                                                0.4f * (float)j, akt_uniform(&rng, -0.6f, 0.6f)),
                                   AK_ORDER_XYZ);
    ak_clip_finalize(c);
    ak_clip *plain = ak_clip_clone(c);
    assert_int_equal(ak_clip_prepare_cubic(c), AK_OK);
    ak_xform a[J], b[J], wa[3 * J], wb[J];
    float worst = 0.0f;
    for (int k = 0; k < 300; ++k) {
        const float t = ak_clip_duration(c) * (float)k / 299.0f;
        ak_clip_sample(c, s, t, AK_INTERP_CUBIC, a);
        ak_clip_sample(plain, s, t, AK_INTERP_CUBIC, b);
        for (int j = 0; j < J; ++j) {
            float e = ak_quat_angle(ak_quat_mul(a[j].rotation, ak_quat_conjugate(b[j].rotation)));
            if (e > worst) worst = e;
        }
        const float times[3] = {t, t * 0.5f, t * 0.25f};
        ak_clip_sample_fk_batch(c, s, times, 3, AK_INTERP_CUBIC, wa);
        ak_fk(s, b, wb);
        for (int j = 0; j < J; ++j)
            AKT_NEAR(ak_vec3_length(ak_vec3_sub(wa[j].translation, wb[j].translation)), 0.0f,
                     2e-5f);
    }
    print_message("SSE vs scalar SQUAD: worst %.3g rad\n", (double)worst);
    assert_true(worst < 2e-5f);
    ak_clip_destroy(plain);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

static void clip_create_rejects_bad_sizes(void **state)
{
    (void)state;
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_clip_create(0, 10, 0.1f, NULL, &c, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_create(3, 10, 0.0f, NULL, &c, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_create(3, 10, -1.0f, NULL, &c, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_create(1 << 20, 1 << 20, 0.1f, NULL, &c, &err), AK_ERR_LIMIT);
    assert_null(c);
    assert_int_equal(ak_clip_create(2, 3, 0.1f, NULL, &c, &err), AK_OK);
    ak_clip *d = ak_clip_clone(c);
    assert_non_null(d);
    assert_int_equal(d->track_count, 1);
    ak_clip_destroy(d);
    ak_clip_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finalize_makes_keys_hemisphere_continuous),
        cmocka_unit_test(every_interp_reproduces_keys_at_key_times),
        cmocka_unit_test(step_holds_and_linear_is_slerp),
        cmocka_unit_test(cubic_is_c1_at_keys),
        cmocka_unit_test(looping_wraps_and_clamped_clamps),
        cmocka_unit_test(batch_matches_sample_then_fk),
        cmocka_unit_test(batch_matches_scalar_on_big_rigs),
        cmocka_unit_test(batch_soa_matches_scalar_on_big_rigs),
        cmocka_unit_test(batch_ranges_cover_and_match_one_call),
        cmocka_unit_test(blend_weights_reproduce_inputs),
        cmocka_unit_test(prepared_cubic_matches_unprepared),
        cmocka_unit_test(sse_cubic_matches_scalar_cubic),
        cmocka_unit_test(clip_create_rejects_bad_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
