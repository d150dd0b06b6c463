/* Internal: the AVX2 + FMA forms of the lockstep (eight-lane) paths: eight characters per
 * register, one register per component (structure of arrays), for the batched sample + FK of
 * plain clips (anim/clip_batch.c) and compressed ones (anim/compress_sample.c). Compiled for
 * AVX2 with a function attribute and chosen at run time (aks8_cpu_ok), so the library still
 * runs on any x86-64; AK_HAVE_AVX2_DISPATCH says whether this build has them at all. */
#ifndef AK_CORE_SIMD8_H
#define AK_CORE_SIMD8_H

#include "core/simd.h"

/* The lockstep paths keep the last AK_SOA_TILE joints' model transforms in SoA form (a ring
 * indexed by joint & (tile - 1)); a parent further back than that is read back from the
 * model poses already written and transposed in, which gives the same bits. So any joint
 * count runs on the wide paths, with scratch of a fixed size on the stack. */
#define AK_SOA_TILE 128

#if defined(AK_HAVE_SSE) && (defined(__GNUC__) || defined(__clang__)) &&                           \
    (defined(__x86_64__) || defined(__i386__))
#define AK_HAVE_AVX2_DISPATCH 1
#include <immintrin.h>
/* Eight characters in lockstep with AVX2 + FMA: the four-character SoA path at twice the
 * width. Compiled for AVX2 with a function attribute and chosen at run time
 * (the batch calls check the CPU with aks8_cpu_ok), so the library still runs on any x86-64. */
typedef struct soa8_xform {
    __m256 qx, qy, qz, qw, tx, ty, tz;
} soa8_xform;
#define AK_AVX2 __attribute__((target("avx2,fma")))

/* a[k] (x,y,z,w each) for k = 0..7 -> one register per component. */
AK_AVX2 static inline void soa8_load(const __m128 a[8], __m256 *x, __m256 *y, __m256 *z, __m256 *w)
{
    __m256 t0 = _mm256_insertf128_ps(_mm256_castps128_ps256(a[0]), a[4], 1);
    __m256 t1 = _mm256_insertf128_ps(_mm256_castps128_ps256(a[1]), a[5], 1);
    __m256 t2 = _mm256_insertf128_ps(_mm256_castps128_ps256(a[2]), a[6], 1);
    __m256 t3 = _mm256_insertf128_ps(_mm256_castps128_ps256(a[3]), a[7], 1);
    __m256 u0 = _mm256_unpacklo_ps(t0, t1), u1 = _mm256_unpackhi_ps(t0, t1);
    __m256 u2 = _mm256_unpacklo_ps(t2, t3), u3 = _mm256_unpackhi_ps(t2, t3);
    *x = _mm256_shuffle_ps(u0, u2, 0x44);
    *y = _mm256_shuffle_ps(u0, u2, 0xEE);
    *z = _mm256_shuffle_ps(u1, u3, 0x44);
    *w = _mm256_shuffle_ps(u1, u3, 0xEE);
}

/* The inverse of soa8_load. */
AK_AVX2 static inline void soa8_store(__m256 x, __m256 y, __m256 z, __m256 w, __m128 a[8])
{
    __m256 u0 = _mm256_unpacklo_ps(x, y), u1 = _mm256_unpackhi_ps(x, y);
    __m256 u2 = _mm256_unpacklo_ps(z, w), u3 = _mm256_unpackhi_ps(z, w);
    __m256 q04 = _mm256_shuffle_ps(u0, u2, 0x44), q15 = _mm256_shuffle_ps(u0, u2, 0xEE);
    __m256 q26 = _mm256_shuffle_ps(u1, u3, 0x44), q37 = _mm256_shuffle_ps(u1, u3, 0xEE);
    a[0] = _mm256_castps256_ps128(q04);
    a[4] = _mm256_extractf128_ps(q04, 1);
    a[1] = _mm256_castps256_ps128(q15);
    a[5] = _mm256_extractf128_ps(q15, 1);
    a[2] = _mm256_castps256_ps128(q26);
    a[6] = _mm256_extractf128_ps(q26, 1);
    a[3] = _mm256_castps256_ps128(q37);
    a[7] = _mm256_extractf128_ps(q37, 1);
}

/* l <- P * l for eight transforms in SoA form: t = P.t + rotate(P.q, l.t), q = P.q l.q. */
AK_AVX2 static inline void soa8_parent_times(const soa8_xform *P, soa8_xform *l)
{
    const __m256 tx = l->tx, ty = l->ty, tz = l->tz, qx = l->qx, qy = l->qy, qz = l->qz, qw = l->qw;
    __m256 cx = _mm256_fmsub_ps(P->qy, tz, _mm256_mul_ps(P->qz, ty));
    __m256 cy = _mm256_fmsub_ps(P->qz, tx, _mm256_mul_ps(P->qx, tz));
    __m256 cz = _mm256_fmsub_ps(P->qx, ty, _mm256_mul_ps(P->qy, tx));
    cx = _mm256_add_ps(cx, cx);
    cy = _mm256_add_ps(cy, cy);
    cz = _mm256_add_ps(cz, cz);
    const __m256 ux = _mm256_fmsub_ps(P->qy, cz, _mm256_mul_ps(P->qz, cy));
    const __m256 uy = _mm256_fmsub_ps(P->qz, cx, _mm256_mul_ps(P->qx, cz));
    const __m256 uz = _mm256_fmsub_ps(P->qx, cy, _mm256_mul_ps(P->qy, cx));
    l->tx = _mm256_add_ps(_mm256_add_ps(P->tx, tx), _mm256_fmadd_ps(P->qw, cx, ux));
    l->ty = _mm256_add_ps(_mm256_add_ps(P->ty, ty), _mm256_fmadd_ps(P->qw, cy, uy));
    l->tz = _mm256_add_ps(_mm256_add_ps(P->tz, tz), _mm256_fmadd_ps(P->qw, cz, uz));
    l->qw = _mm256_sub_ps(_mm256_fmsub_ps(P->qw, qw, _mm256_mul_ps(P->qx, qx)),
                          _mm256_fmadd_ps(P->qy, qy, _mm256_mul_ps(P->qz, qz)));
    l->qx = _mm256_add_ps(_mm256_fmadd_ps(P->qw, qx, _mm256_mul_ps(P->qx, qw)),
                          _mm256_fmsub_ps(P->qy, qz, _mm256_mul_ps(P->qz, qy)));
    l->qy = _mm256_add_ps(_mm256_fmsub_ps(P->qw, qy, _mm256_mul_ps(P->qx, qz)),
                          _mm256_fmadd_ps(P->qy, qw, _mm256_mul_ps(P->qz, qx)));
    l->qz = _mm256_add_ps(_mm256_fmadd_ps(P->qw, qz, _mm256_mul_ps(P->qx, qy)),
                          _mm256_fmsub_ps(P->qz, qw, _mm256_mul_ps(P->qy, qx)));
}

typedef struct soa8_quat {
    __m256 x, y, z, w;
} soa8_quat;

/* (qx, qy, qz, qw) per lane normalised by one Newton step on rsqrt. */
AK_AVX2 static inline soa8_quat soa8_normalize(const __m256 qx, const __m256 qy, const __m256 qz,
                                               const __m256 qw)
{
    const __m256 n2 = _mm256_fmadd_ps(
        qx, qx, _mm256_fmadd_ps(qy, qy, _mm256_fmadd_ps(qz, qz, _mm256_mul_ps(qw, qw))));
    const __m256 y = _mm256_rsqrt_ps(n2);
    const __m256 inv =
        _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), y),
                      _mm256_fnmadd_ps(_mm256_mul_ps(y, y), n2, _mm256_set1_ps(3.0f)));
    const soa8_quat q = {_mm256_mul_ps(qx, inv), _mm256_mul_ps(qy, inv), _mm256_mul_ps(qz, inv),
                         _mm256_mul_ps(qw, inv)};
    return q;
}

/* a + diff ot per lane, normalised: the end of the corrected nlerp (soa8_nlerp_fixed), for
 * callers that have diff = b - a and ot already. */
AK_AVX2 static inline soa8_quat soa8_lerp_normalize(const soa8_quat a, const soa8_quat diff,
                                                    const __m256 ot)
{
    return soa8_normalize(_mm256_fmadd_ps(diff.x, ot, a.x), _mm256_fmadd_ps(diff.y, ot, a.y),
                          _mm256_fmadd_ps(diff.z, ot, a.z), _mm256_fmadd_ps(diff.w, ot, a.w));
}

/* The corrected nlerp (aks_slerp_params' fast_slerp) per lane of keys a and b on the same
 * hemisphere, d = a.b >= 0, with the lane parameters T (t), H ((t - 1/2)^2) and G
 * (t (t - 1/2)(t - 1)): the polynomial correction of t, the lerp, then one Newton step on
 * rsqrt to normalise. */
AK_AVX2 static inline soa8_quat soa8_nlerp_fixed(const soa8_quat a, const soa8_quat b,
                                                 const __m256 d, const __m256 T, const __m256 H,
                                                 const __m256 G)
{
    __m256 A = _mm256_fmadd_ps(
        d,
        _mm256_fmadd_ps(d, _mm256_fnmadd_ps(d, _mm256_set1_ps(1.43519f), _mm256_set1_ps(3.55645f)),
                        _mm256_set1_ps(-3.2452f)),
        _mm256_set1_ps(1.0904f));
    __m256 B =
        _mm256_fmadd_ps(d, _mm256_fmadd_ps(d, _mm256_set1_ps(0.215638f), _mm256_set1_ps(-1.06021f)),
                        _mm256_set1_ps(0.848013f));
    const __m256 ot = _mm256_fmadd_ps(G, _mm256_fmadd_ps(A, H, B), T);
    const soa8_quat diff = {_mm256_sub_ps(b.x, a.x), _mm256_sub_ps(b.y, a.y),
                            _mm256_sub_ps(b.z, a.z), _mm256_sub_ps(b.w, a.w)};
    return soa8_lerp_normalize(a, diff, ot);
}

/* Four-component dot product per lane. */
AK_AVX2 static inline __m256 soa8_dot(const soa8_quat a, const soa8_quat b)
{
    return _mm256_fmadd_ps(
        a.x, b.x, _mm256_fmadd_ps(a.y, b.y, _mm256_fmadd_ps(a.z, b.z, _mm256_mul_ps(a.w, b.w))));
}

/* The corrected nlerp per lane along the shorter arc: b's sign flipped where a.b < 0 (its
 * sign bit set), then soa8_nlerp_fixed. */
AK_AVX2 static inline soa8_quat soa8_slerp(const soa8_quat a, const soa8_quat b, const __m256 T,
                                           const __m256 H, const __m256 G)
{
    const __m256 ca = soa8_dot(a, b);
    const __m256 sign = _mm256_and_ps(ca, _mm256_set1_ps(-0.0f));
    const soa8_quat bs = {_mm256_xor_ps(b.x, sign), _mm256_xor_ps(b.y, sign),
                          _mm256_xor_ps(b.z, sign), _mm256_xor_ps(b.w, sign)};
    return soa8_nlerp_fixed(a, bs, _mm256_xor_ps(ca, sign), T, H, G);
}

/* The model transforms of joint p of the eight characters, read back from their poses (eight
 * characters' poses in a row, `stride` transforms apart, the first at `first`). */
AK_AVX2 __attribute__((noinline)) static void soa8_gather(const ak_xform *first, size_t stride,
                                                          int32_t p, soa8_xform *P)
{
    __m128 q[8], t[8];
    for (int k = 0; k < 8; ++k) {
        q[k] = _mm_loadu_ps(&first[(size_t)k * stride + (size_t)p].rotation.x);
        t[k] = aks_load_translation(&first[(size_t)k * stride + (size_t)p]);
    }
    __m256 unused;
    soa8_load(q, &P->qx, &P->qy, &P->qz, &P->qw);
    soa8_load(t, &P->tx, &P->ty, &P->tz, &unused);
}

/* Quaternion j of eight key rows, one register per component. */
AK_AVX2 static inline soa8_quat soa8_keys(const ak_quat *const *rows, int32_t j)
{
    __m128 lanes[8];
    for (int k = 0; k < 8; ++k)
        lanes[k] = _mm_loadu_ps(&rows[k][j].x);
    soa8_quat q;
    soa8_load(lanes, &q.x, &q.y, &q.z, &q.w);
    return q;
}

/* Translation key tk of eight key rows, x, y and z registers. */
AK_AVX2 static inline void soa8_vec3_keys(const ak_vec3 *const *rows, int32_t tk, __m256 xyz[3])
{
    __m128 lanes[8];
    for (int k = 0; k < 8; ++k)
        lanes[k] = aks_load3(&rows[k][tk]);
    __m256 unused;
    soa8_load(lanes, &xyz[0], &xyz[1], &xyz[2], &unused);
}

/* FK of joint j for the eight characters (model = parent * local, the parent from the SoA
 * window or read back), then the model transforms transposed out into the eight poses: eight
 * characters' poses in a row, `stride` transforms apart, the first at `first` (one pointer
 * stepped from lane to lane, rather than eight the stores could alias and so reload).
 * `tiled` 0 where the joint count is at most AK_SOA_TILE: the window then holds every joint
 * (no wrap, no read-back); a constant, so each form is compiled apart. */
AK_AVX2 __attribute__((always_inline)) static inline void
soa8_fk_store_tiled(soa8_xform *AK_RESTRICT ws, ak_xform *first, size_t stride, int32_t j,
                    int32_t p, soa8_xform o, const int tiled, int32_t *held)
{
    if (p >= 0) {
        int32_t slot = tiled ? p & (AK_SOA_TILE - 1) : p;
        if (tiled && j - p >= AK_SOA_TILE) { /* outside the window: read back, spare slot */
            slot = AK_SOA_TILE;
            /* *held: the joint the spare slot holds (-1: none yet in this pass), so the
             * children of one far parent (a root, a head) read it back once */
            if (*held != p) soa8_gather(first, stride, p, &ws[slot]);
            *held = p;
        }
        soa8_parent_times(&ws[slot], &o);
    }
    ws[tiled ? j & (AK_SOA_TILE - 1) : j] = o;
    /* transposed out as (qx, qy, qz, qw) and (qw, tx, ty, tz): an ak_xform is two overlapping
     * 16-byte stores, at offset 12 and 0, with no per-character shuffles */
    __m128 qo[8], to[8];
    soa8_store(o.qx, o.qy, o.qz, o.qw, qo);
    soa8_store(o.qw, o.tx, o.ty, o.tz, to);
    float *d = &first[j].rotation.x;
    const size_t step = stride * (sizeof(ak_xform) / sizeof(float));
    for (int k = 0; k < 8; ++k, d += step) {
        _mm_storeu_ps(d + 3, to[k]);
        _mm_storeu_ps(d, qo[k]);
    }
}

/* soa8_fk_store_tiled for any joint count. */
AK_AVX2 static inline void soa8_fk_store(soa8_xform *AK_RESTRICT ws, ak_xform *first, size_t stride,
                                         int32_t j, int32_t p, soa8_xform o, int32_t *held)
{
    soa8_fk_store_tiled(ws, first, stride, j, p, o, 1, held);
}

/* Floats of one joint of an eight-character block in the SoA output
 * (ak_clip_sample_fk_batch_soa): qx, qy, qz, qw, tx, ty, tz, eight lanes each. */
#define AK_SOA8_JOINT_FLOATS 56

/* FK of joint j for the eight characters straight into their SoA block `out` (joint p's
 * model transforms are read back from it: no window and no transposes), then stored. */
AK_AVX2 static inline void soa8_fk_soa(float *AK_RESTRICT out, int32_t j, int32_t p, soa8_xform o)
{
    if (p >= 0) {
        const float *b = out + (size_t)p * AK_SOA8_JOINT_FLOATS;
        const soa8_xform P = {_mm256_loadu_ps(b),      _mm256_loadu_ps(b + 8),
                              _mm256_loadu_ps(b + 16), _mm256_loadu_ps(b + 24),
                              _mm256_loadu_ps(b + 32), _mm256_loadu_ps(b + 40),
                              _mm256_loadu_ps(b + 48)};
        soa8_parent_times(&P, &o);
    }
    float *d = out + (size_t)j * AK_SOA8_JOINT_FLOATS;
    _mm256_storeu_ps(d, o.qx);
    _mm256_storeu_ps(d + 8, o.qy);
    _mm256_storeu_ps(d + 16, o.qz);
    _mm256_storeu_ps(d + 24, o.qw);
    _mm256_storeu_ps(d + 32, o.tx);
    _mm256_storeu_ps(d + 40, o.ty);
    _mm256_storeu_ps(d + 48, o.tz);
}

/* Whether this CPU runs the eight-lane paths (AVX2 and FMA). */
static inline int aks8_cpu_ok(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

#endif
