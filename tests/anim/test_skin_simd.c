/* src/anim/skin_simd.c: the SIMD skinning kernels (LBS, DQS; SSE one vertex at a time and four
 * at a time; AVX-512 four (LBS) or sixteen (DQS) at a time where the CPU has it, use_simd 1;
 * AVX2 + FMA four or eight at a time, use_simd 3 (and 1 on a CPU without AVX-512); the SSE
 * kernels alone, use_simd 2; streamed stores for large meshes) against their scalar
 * twins in skin.c. The kernels
 * take ak_skin_params: the first case is that struct's validity for the fields the kernels
 * read (the defaults name what is missing; a filled struct validates; use_simd 0 to 3
 * give the same numbers; with check_influences 0 a joint index past the palette is clamped to the
 * last joint by both paths, never read outside it). Then a pose worked by hand, runs of every
 * length and start written exactly in place (nothing before or after touched), blends without
 * length (zero weights) falling back as the scalar twin does, every influence count, and the
 * streaming path of a mesh whose outputs exceed 8 MiB. */
#include "skin_rig.h"
#include "anim/skin_internal.h"
#include "core/simd.h"

static float out_a[MAXV * 3 + 4], out_b[MAXV * 3 + 4], nrm_a[MAXV * 3 + 4], nrm_b[MAXV * 3 + 4];

/* Skins p with AVX2 at most (use_simd 3), the SSE path (2), the widest (1: AVX-512 where the
 * CPU has it) and the scalar twin; fails unless they agree within tol. out_a holds the widest
 * path's result. */
static void expect_paths_agree(ak_skin_params p, double tol)
{
    const int32_t n = 3 * p.vertex_count;
    p.out_positions = out_b, p.out_normals = p.normals ? nrm_b : NULL, p.use_simd = 0;
    assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
    for (int simd = 3; simd >= 1; --simd) { /* AVX2 at most, SSE, the widest */
        p.out_positions = out_a, p.out_normals = p.normals ? nrm_a : NULL, p.use_simd = simd;
        assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
        for (int32_t i = 0; i < n; ++i) {
            AKT_NEAR(out_a[i], out_b[i], tol);
            if (p.normals) AKT_NEAR(nrm_a[i], nrm_b[i], tol);
        }
    }
}

static void skin_simd_params_validity(void **state)
{
    (void)state;
#ifdef AK_HAVE_SSE
    assert_int_equal(akskin_have_simd(), 1); /* x86-64 builds have SSE2 */
#else
    assert_int_equal(akskin_have_simd(), 0); /* AK_NO_SIMD (the sanitizer build): scalar only */
#endif
    const ak_skin_params def = ak_skin_defaults();
    assert_int_equal(def.method, AK_SKIN_LINEAR);
    assert_int_equal(def.influences, 4);
    assert_int_equal(def.use_simd, 1);
    assert_int_equal(def.check_influences, 1);
    ak_error err;
    assert_int_equal(ak_skin_validate(&def, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "joint_count 0 is not in 1..65536"));
    akt_rng r = {0x51d};
    static rig g;
    static verts v;
    random_rig(&r, &g, 4);
    random_verts(&r, &v, 37, 4, 4);
    for (int method = 0; method < 2; ++method) {
        ak_skin_params p = params_for(&g, &v, method, out_a, nrm_a);
        assert_int_equal(ak_skin_validate(&p, &err), AK_OK);
        expect_paths_agree(p, 2e-6);
        /* an index past the palette: refused when checked; clamped (joint 3) when not */
        v.joints[4 * 5 + 1] = 9;
        assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
        assert_non_null(strstr(err.message, "vertex 5 influence 1: joint 9 out of range"));
        p.check_influences = 0;
        assert_int_equal(ak_skin_validate(&p, &err), AK_OK);
        expect_paths_agree(p, 2e-6);
        float clamped[3];
        memcpy(clamped, out_a + 15, sizeof clamped);
        v.joints[4 * 5 + 1] = 3;
        expect_paths_agree(p, 2e-6);
        for (int k = 0; k < 3; ++k)
            AKT_NEAR(out_a[15 + k], clamped[k], 0.0);
    }
}

/* One joint turned 90 degrees about +Z and moved by (1, 2, 3), identity inverse bind: the
 * point (1, 0, 0) goes to (1, 3, 3) and its normal (1, 0, 0) to (0, 1, 0), by either method
 * and path, for a run of 5 vertices (four at a time, then one). */
static void skin_simd_pose_worked_by_hand(void **state)
{
    (void)state;
    ak_xform pose = {ak_quat_from_axis_angle(ak_vec3_make(0, 0, 1), 1.5707963f), {1, 2, 3}};
    ak_skin_joint pal[1];
    float pos[15], nrm[15], w[5];
    uint16_t jt[5] = {0, 0, 0, 0, 0};
    for (int v = 0; v < 5; ++v) {
        pos[3 * v] = 1, pos[3 * v + 1] = 0, pos[3 * v + 2] = 0;
        nrm[3 * v] = 1, nrm[3 * v + 1] = 0, nrm[3 * v + 2] = 0;
        w[v] = 1;
    }
    for (int method = 0; method < 2; ++method)
        for (int simd = 0; simd <= 3; ++simd) {
            ak_skin_params p = ak_skin_defaults();
            p.method = method, p.joint_count = 1, p.model_pose = &pose, p.palette = pal;
            p.vertex_count = 5, p.influences = 1, p.joints = jt, p.weights = w;
            p.positions = pos, p.normals = nrm, p.out_positions = out_a, p.out_normals = nrm_a;
            p.use_simd = simd;
            assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
            for (int v = 0; v < 5; ++v) {
                AKT_NEAR(out_a[3 * v], 1.0, 1e-6);
                AKT_NEAR(out_a[3 * v + 1], 3.0, 1e-6);
                AKT_NEAR(out_a[3 * v + 2], 3.0, 1e-6);
                AKT_NEAR(nrm_a[3 * v], 0.0, 1e-6);
                AKT_NEAR(nrm_a[3 * v + 1], 1.0, 1e-6);
                AKT_NEAR(nrm_a[3 * v + 2], 0.0, 1e-6);
            }
        }
}

/* The kernels called directly on [first, first + count) for every start 0..4 and length 0..17
 * (the steps of four, eight and sixteen and what is left over), every SIMD width:
 * exactly those vertices are written (guards before and after keep their value), with the
 * scalar kernel's numbers. */
static void skin_simd_runs_write_exactly_their_vertices(void **state)
{
    (void)state;
    if (!akskin_have_simd()) skip(); /* no SSE kernels in this build to call */
    akt_rng r = {0xfeed};
    static rig g;
    static verts v;
    random_rig(&r, &g, MAXJ);
    random_verts(&r, &v, 24, 3, MAXJ);
    const float guard = -777.0f;
    for (int method = 0; method < 6; ++method) /* LBS, DQS; widest, SSE, AVX2 at most */
        for (int32_t first = 0; first < 5; ++first)
            for (int32_t count = 0; count < 18; ++count) {
                ak_skin_params p = params_for(&g, &v, method & 1, out_a, nrm_a);
                p.use_simd = 1 + method / 2;
                ak_skin_palette(p.model_pose, p.inverse_bind, p.joint_count, p.palette);
                for (int i = 0; i < 3 * 24 + 4; ++i)
                    out_a[i] = nrm_a[i] = out_b[i] = nrm_b[i] = guard;
                ((method & 1) ? akskin_dqs_simd : akskin_lbs_simd)(&p, first, count);
                p.out_positions = out_b, p.out_normals = nrm_b;
                ((method & 1) ? akskin_dqs_scalar : akskin_lbs_scalar)(&p, first, count);
                for (int32_t i = 0; i < 3 * 24 + 4; ++i) {
                    const int inside = i >= 3 * first && i < 3 * (first + count);
                    if (!inside) {
                        AKT_NEAR(out_a[i], guard, 0.0);
                        AKT_NEAR(nrm_a[i], guard, 0.0);
                        continue;
                    }
                    AKT_NEAR(out_a[i], out_b[i], 2e-6);
                    AKT_NEAR(nrm_a[i], nrm_b[i], 2e-6);
                }
            }
}

/* Zero weights (allowed with check_influences 0): LBS maps every point to the origin and its
 * normal, of no length, to (0, 1, 0); DQS keeps the first influence's transform. The SIMD
 * kernels do what the scalar twins do, one, four and sixteen vertices at a time: every other
 * vertex of 37 has no weight, so a step's lanes mix blends with and without length. */
static void skin_simd_blends_without_length_fall_back_as_the_twin(void **state)
{
    (void)state;
    enum { N = 37 };
    akt_rng r = {99};
    static rig g;
    static verts v;
    random_rig(&r, &g, MAXJ);
    random_verts(&r, &v, N, 2, MAXJ);
    for (int32_t k = 0; k < N; k += 2)
        v.weights[2 * k] = v.weights[2 * k + 1] = 0.0f;
    for (int method = 0; method < 2; ++method) {
        ak_skin_params p = params_for(&g, &v, method, out_a, nrm_a);
        p.check_influences = 0;
        expect_paths_agree(p, 2e-6);
        for (int32_t k = 0; k < N; k += 2) {
            if (method == AK_SKIN_LINEAR) {
                for (int c = 0; c < 3; ++c)
                    AKT_NEAR(out_a[3 * k + c], 0.0, 0.0);
                AKT_NEAR(nrm_a[3 * k + 1], 1.0, 0.0);
                continue;
            }
            /* the first influence's skinning transform S = model * inverse_bind */
            const int32_t j = v.joints[2 * k];
            const ak_skin_joint *s = &g.palette[j];
            const float *x = v.pos + 3 * k;
            for (int c = 0; c < 3; ++c)
                AKT_NEAR(out_a[3 * k + c],
                         s->columns[0][c] * x[0] + s->columns[1][c] * x[1] +
                             s->columns[2][c] * x[2] + s->columns[3][c],
                         2e-6);
        }
    }
}

/* The SIMD kernels (the widest the CPU has: AVX-512 where it can, use_simd 1; SSE, use_simd 2;
 * AVX2 + FMA at most, use_simd 3) and the scalar twin agree for every influence count and every
 * count of vertices left over after the steps of four, eight and sixteen, and the last vertex's
 * store stays inside the buffer. */
static void skin_simd_matches_scalar(void **state)
{
    (void)state;
    akt_rng r = {0xabcdef01u};
    static rig g;
    static verts v;
    static const int32_t counts[] = {1, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 33, 0};
    for (int32_t k = 1; k <= AK_SKIN_MAX_INFLUENCES; ++k)
        for (int c = 0; c < (int)(sizeof counts / sizeof counts[0]); ++c)
            for (int method = 0; method < 2; ++method) {
                const int32_t count = counts[c] ? counts[c] : 1 + (int32_t)(akt_next(&r) % 200);
                random_rig(&r, &g, MAXJ);
                random_verts(&r, &v, count, k, MAXJ);
                v.joints[(count - 1) * k] = 60000; /* clamped to the last joint by every path */
                out_a[3 * count] = nrm_a[3 * count] = 12345.0f; /* guards past the end */
                ak_skin_params b = params_for(&g, &v, method, out_b, nrm_b);
                b.use_simd = 0, b.check_influences = 0;
                assert_int_equal(ak_skin_run(&b, NULL), AK_OK);
                for (int simd = 1; simd <= 3; ++simd) { /* widest; SSE only; AVX2 at most */
                    ak_skin_params a = params_for(&g, &v, method, out_a, nrm_a);
                    a.use_simd = simd, a.check_influences = 0;
                    assert_int_equal(ak_skin_run(&a, NULL), AK_OK);
                    for (int32_t i = 0; i < count * 3; ++i) {
                        AKT_NEAR(out_a[i], out_b[i], 2e-6);
                        AKT_NEAR(nrm_a[i], nrm_b[i], 2e-6);
                    }
                    assert_true(out_a[3 * count] == 12345.0f && nrm_a[3 * count] == 12345.0f);
                }
            }
}

/* A mesh whose outputs exceed 8 MiB takes the streaming stores (non-temporal, four or eight
 * vertices a step): same numbers as the scalar twin, both methods, every SIMD width; an odd
 * count ends in the one-vertex path. */
static void skin_streamed_outputs_match_scalar(void **state)
{
    (void)state;
    enum { N = 400003, K = 4 };
    akt_rng r = {4242};
    static rig g;
    random_rig(&r, &g, MAXJ);
    float *pos = malloc(sizeof(float) * 3 * N), *nrm = malloc(sizeof(float) * 3 * N);
    float *w = malloc(sizeof(float) * K * N);
    uint16_t *jt = malloc(sizeof(uint16_t) * K * N);
    float *oa = malloc(sizeof(float) * 3 * N), *ob = malloc(sizeof(float) * 3 * N);
    float *na = malloc(sizeof(float) * 3 * N), *nb = malloc(sizeof(float) * 3 * N);
    for (int32_t i = 0; i < 3 * N; ++i)
        pos[i] = akt_uniform(&r, -1, 1), nrm[i] = akt_uniform(&r, -1, 1);
    for (int32_t i = 0; i < K * N; ++i)
        jt[i] = (uint16_t)(akt_next(&r) % MAXJ), w[i] = akt_uniform(&r, 0, 1);
    ak_skin_normalize_weights(w, N, K);
    for (int method = 0; method < 2; ++method) {
        ak_skin_params p = ak_skin_defaults();
        p.method = method, p.joint_count = g.joints, p.model_pose = g.model, p.inverse_bind = g.ibm;
        p.palette = g.palette, p.vertex_count = N, p.influences = K, p.joints = jt, p.weights = w;
        p.positions = pos, p.normals = nrm, p.out_positions = ob, p.out_normals = nb;
        p.use_simd = 0;
        assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
        for (int simd = 1; simd <= 3; ++simd) {
            p.use_simd = simd, p.out_positions = oa, p.out_normals = na;
            assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
            for (int32_t i = 0; i < 3 * N; ++i) {
                AKT_NEAR(oa[i], ob[i], 2e-6);
                AKT_NEAR(na[i], nb[i], 2e-6);
            }
        }
    }
    free(pos), free(nrm), free(w), free(jt), free(oa), free(ob), free(na), free(nb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(skin_simd_params_validity),
        cmocka_unit_test(skin_simd_pose_worked_by_hand),
        cmocka_unit_test(skin_simd_runs_write_exactly_their_vertices),
        cmocka_unit_test(skin_simd_blends_without_length_fall_back_as_the_twin),
        cmocka_unit_test(skin_simd_matches_scalar),
        cmocka_unit_test(skin_streamed_outputs_match_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
