/* Internal: the SIMD half of the one math layer (core/xform_inline.h is the scalar half): SSE
 * forms of the quaternion and transform operations sampling (fast slerp) and FK use, for
 * x86-64 (SSE2 is its baseline, so this needs no CPU dispatch; WebAssembly gets it through
 * emscripten's SSE headers). A quaternion lives in one register as (x,y,z,w); a transform
 * is read as two overlapping 16-byte loads: (qx,qy,qz,qw) and (qw,tx,ty,tz).
 * AK_NO_SIMD forces the scalar path (the sanitizer build uses it so both paths are tested). */
#ifndef AK_CORE_SIMD_H
#define AK_CORE_SIMD_H

#if !defined(AK_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#define AK_HAVE_SSE 1
#include <emmintrin.h>
#include <string.h>

#include "animkit/ak_math.h"

#define AK_SHUF(v, x, y, z, w) _mm_shuffle_ps((v), (v), _MM_SHUFFLE((w), (z), (y), (x)))

/* Sign masks: XOR flips the lanes holding -0.0f. */
AK_INLINE __m128 aks_sign(float x, float y, float z, float w)
{
    return _mm_setr_ps(x, y, z, w);
}

/* Hamilton product a*b: r = aw*b + ax*(bw,-bz,by,-bx) + ay*(bz,bw,-bx,-by) + az*(-by,bx,bw,-bz). */
AK_INLINE __m128 aks_qmul(__m128 a, __m128 b)
{
    const __m128 s1 = aks_sign(0.0f, -0.0f, 0.0f, -0.0f);
    const __m128 s2 = aks_sign(0.0f, 0.0f, -0.0f, -0.0f);
    const __m128 s3 = aks_sign(-0.0f, 0.0f, 0.0f, -0.0f);
    __m128 t0 = _mm_mul_ps(AK_SHUF(a, 3, 3, 3, 3), b);
    __m128 t1 = _mm_mul_ps(AK_SHUF(a, 0, 0, 0, 0), _mm_xor_ps(AK_SHUF(b, 3, 2, 1, 0), s1));
    __m128 t2 = _mm_mul_ps(AK_SHUF(a, 1, 1, 1, 1), _mm_xor_ps(AK_SHUF(b, 2, 3, 0, 1), s2));
    __m128 t3 = _mm_mul_ps(AK_SHUF(a, 2, 2, 2, 2), _mm_xor_ps(AK_SHUF(b, 1, 0, 3, 2), s3));
    return _mm_add_ps(_mm_add_ps(t0, t1), _mm_add_ps(t2, t3));
}

/* a x b in lanes 0..2 (lane 3 ends up 0 when both inputs' lane 3 products cancel; callers
 * ignore lane 3). Uses cross(a,b) = (a * b.yzx - a.yzx * b).yzx. */
AK_INLINE __m128 aks_cross(__m128 a, __m128 b)
{
    __m128 r =
        _mm_sub_ps(_mm_mul_ps(a, AK_SHUF(b, 1, 2, 0, 3)), _mm_mul_ps(AK_SHUF(a, 1, 2, 0, 3), b));
    return AK_SHUF(r, 1, 2, 0, 3);
}

/* Rotates v (lanes 0..2) by unit quaternion q: v + w t + u x t with t = 2 u x v. */
AK_INLINE __m128 aks_rotate(__m128 q, __m128 v)
{
    __m128 t = aks_cross(q, v);
    t = _mm_add_ps(t, t);
    return _mm_add_ps(_mm_add_ps(v, _mm_mul_ps(AK_SHUF(q, 3, 3, 3, 3), t)), aks_cross(q, t));
}

/* Dot product of all four lanes, broadcast. */
AK_INLINE __m128 aks_dot4(__m128 a, __m128 b)
{
    __m128 m = _mm_mul_ps(a, b);
    __m128 s = _mm_add_ps(m, AK_SHUF(m, 1, 0, 3, 2));
    return _mm_add_ps(s, AK_SHUF(s, 2, 3, 0, 1));
}

/* (a0.b0, a1.b1, a2.b2, a3.b3) by one transpose: four dot products for the price of about
 * three. Each sums as (x + y) + (z + w), as aks_dot4 does (and akv_dot, for lane 3 zero). */
AK_INLINE __m128 aks_dots4(__m128 a0, __m128 b0, __m128 a1, __m128 b1, __m128 a2, __m128 b2,
                           __m128 a3, __m128 b3)
{
    __m128 m0 = _mm_mul_ps(a0, b0), m1 = _mm_mul_ps(a1, b1), m2 = _mm_mul_ps(a2, b2),
           m3 = _mm_mul_ps(a3, b3);
    _MM_TRANSPOSE4_PS(m0, m1, m2, m3);
    return _mm_add_ps(_mm_add_ps(m0, m1), _mm_add_ps(m2, m3));
}

/* 1/sqrt(x) per lane, the estimate refined by one Newton step (about 2e-7 relative). */
AK_INLINE __m128 aks_rsqrt(__m128 x)
{
    __m128 y = _mm_rsqrt_ps(x);
    __m128 yyx = _mm_mul_ps(_mm_mul_ps(y, y), x);
    return _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(0.5f), y), _mm_sub_ps(_mm_set1_ps(3.0f), yyx));
}

/* Parameters of the corrected nlerp (clip.c fast_slerp) that depend only on t, broadcast:
 * t, (t - 1/2)^2 and t (t - 1/2) (t - 1). Computed once per character per sample. */
typedef struct aks_slerp_t {
    __m128 t, h, g;
} aks_slerp_t;

AK_INLINE aks_slerp_t aks_slerp_params(float t)
{
    aks_slerp_t p;
    p.t = _mm_set1_ps(t);
    p.h = _mm_set1_ps((t - 0.5f) * (t - 0.5f));
    p.g = _mm_set1_ps(t * (t - 0.5f) * (t - 1.0f));
    return p;
}

/* The corrected nlerp's correction k = A(d) h + B(d) for d = |cos| of the two quaternions,
 * A = 1.0904 + d(-3.2452 + d(3.55645 - 1.43519 d)), B = 0.848013 + d(-1.06021 + 0.215638 d);
 * the blend parameter is then t + g k (clip.c fast_slerp). Shared by the AoS and SoA forms. */
AK_INLINE __m128 aks_slerp_k(__m128 d, __m128 h)
{
    __m128 A = _mm_add_ps(
        _mm_set1_ps(1.0904f),
        _mm_mul_ps(d, _mm_add_ps(_mm_set1_ps(-3.2452f),
                                 _mm_mul_ps(d, _mm_sub_ps(_mm_set1_ps(3.55645f),
                                                          _mm_mul_ps(d, _mm_set1_ps(1.43519f)))))));
    __m128 B = _mm_add_ps(
        _mm_set1_ps(0.848013f),
        _mm_mul_ps(d, _mm_add_ps(_mm_set1_ps(-1.06021f), _mm_mul_ps(d, _mm_set1_ps(0.215638f)))));
    return _mm_add_ps(_mm_mul_ps(A, h), B);
}

/* The corrected-nlerp slerp of clip.c (fast_slerp), one quaternion per register. */
AK_INLINE __m128 aks_slerp(__m128 a, __m128 b, const aks_slerp_t *p)
{
    __m128 ca = aks_dot4(a, b);
    __m128 sign = _mm_and_ps(ca, _mm_set1_ps(-0.0f));
    __m128 d = _mm_xor_ps(ca, sign); /* |cos| */
    __m128 ot = _mm_add_ps(p->t, _mm_mul_ps(p->g, aks_slerp_k(d, p->h)));
    __m128 bs = _mm_xor_ps(b, sign);
    __m128 r = _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(bs, a), ot));
    return _mm_mul_ps(r, aks_rsqrt(aks_dot4(r, r)));
}

/* (x,y,z,0) from a packed ak_vec3 without reading past it. */
AK_INLINE __m128 aks_load3(const ak_vec3 *v)
{
    /* x,y as one 8-byte load; through memcpy because an ak_vec3 is only 4-byte aligned
     * (a double* load of it is undefined behaviour, which UBSan reports). Compiles to movsd. */
    double xy_bits;
    memcpy(&xy_bits, v, sizeof xy_bits);
    __m128 xy = _mm_castpd_ps(_mm_set_sd(xy_bits));
    return _mm_movelh_ps(xy, _mm_load_ss(&v->z));
}

/* Translation of an ak_xform as (tx,ty,tz,tz): one load of (qw,tx,ty,tz), shifted. */
AK_INLINE __m128 aks_load_translation(const ak_xform *x)
{
    __m128 wt = _mm_loadu_ps(&x->rotation.w);
    return AK_SHUF(wt, 1, 2, 3, 3);
}

/* Stores rotation q and translation t (lanes 0..2) into an ak_xform: (qw,tx,ty,tz) at
 * offset 12 first, then (qx,qy,qz,qw) at offset 0. */
AK_INLINE void aks_store_xform(ak_xform *x, __m128 q, __m128 t)
{
    __m128 shifted = _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(t), 4)); /* (0,tx,ty,tz) */
    _mm_storeu_ps(&x->rotation.w, _mm_move_ss(shifted, AK_SHUF(q, 3, 3, 3, 3)));
    _mm_storeu_ps(&x->rotation.x, q);
}

/* Four quaternions in structure-of-arrays form: one register per component. */
typedef struct aks_quat4 {
    __m128 x, y, z, w;
} aks_quat4;

/* a + diff ot per lane, normalised: the end of aks_nlerp_fixed_soa, for callers that have
 * diff = b - a and ot already. */
AK_INLINE aks_quat4 aks_lerp_normalize_soa(aks_quat4 a, aks_quat4 diff, __m128 ot)
{
    aks_quat4 r;
    r.x = _mm_add_ps(a.x, _mm_mul_ps(diff.x, ot));
    r.y = _mm_add_ps(a.y, _mm_mul_ps(diff.y, ot));
    r.z = _mm_add_ps(a.z, _mm_mul_ps(diff.z, ot));
    r.w = _mm_add_ps(a.w, _mm_mul_ps(diff.w, ot));
    __m128 inv = aks_rsqrt(_mm_add_ps(_mm_add_ps(_mm_mul_ps(r.x, r.x), _mm_mul_ps(r.y, r.y)),
                                      _mm_add_ps(_mm_mul_ps(r.z, r.z), _mm_mul_ps(r.w, r.w))));
    r.x = _mm_mul_ps(r.x, inv);
    r.y = _mm_mul_ps(r.y, inv);
    r.z = _mm_mul_ps(r.z, inv);
    r.w = _mm_mul_ps(r.w, inv);
    return r;
}

/* The corrected nlerp (clip.c fast_slerp) for four quaternion pairs at once, per lane, on
 * the same hemisphere (d = a.b >= 0): T = t, H = (t - 1/2)^2, G = t (t - 1/2) (t - 1)
 * (broadcast or per lane). */
AK_INLINE aks_quat4 aks_nlerp_fixed_soa(aks_quat4 a, aks_quat4 b, __m128 d, __m128 T, __m128 H,
                                        __m128 G)
{
    const __m128 ot = _mm_add_ps(T, _mm_mul_ps(G, aks_slerp_k(d, H)));
    const aks_quat4 diff = {_mm_sub_ps(b.x, a.x), _mm_sub_ps(b.y, a.y), _mm_sub_ps(b.z, a.z),
                            _mm_sub_ps(b.w, a.w)};
    return aks_lerp_normalize_soa(a, diff, ot);
}

/* Four-component dot product per lane. */
AK_INLINE __m128 aks_dot_soa(aks_quat4 a, aks_quat4 b)
{
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(a.x, b.x), _mm_mul_ps(a.y, b.y)),
                      _mm_add_ps(_mm_mul_ps(a.z, b.z), _mm_mul_ps(a.w, b.w)));
}

/* aks_nlerp_fixed_soa along the shorter arc: b's sign flipped where a.b has its sign bit set. */
AK_INLINE aks_quat4 aks_slerp_soa(aks_quat4 a, aks_quat4 b, __m128 T, __m128 H, __m128 G)
{
    __m128 ca = aks_dot_soa(a, b);
    __m128 sign = _mm_and_ps(ca, _mm_set1_ps(-0.0f));
    const aks_quat4 bs = {_mm_xor_ps(b.x, sign), _mm_xor_ps(b.y, sign), _mm_xor_ps(b.z, sign),
                          _mm_xor_ps(b.w, sign)};
    return aks_nlerp_fixed_soa(a, bs, _mm_xor_ps(ca, sign), T, H, G);
}

/* Loads q[0..3] (one quaternion each) transposed into SoA form. */
AK_INLINE aks_quat4 aks_load_quat4(const ak_quat *q0, const ak_quat *q1, const ak_quat *q2,
                                   const ak_quat *q3)
{
    aks_quat4 r = {_mm_loadu_ps(&q0->x), _mm_loadu_ps(&q1->x), _mm_loadu_ps(&q2->x),
                   _mm_loadu_ps(&q3->x)};
    _MM_TRANSPOSE4_PS(r.x, r.y, r.z, r.w);
    return r;
}

/* Four quaternions in SoA form out as one register each (AoS): out[i] = quaternion i. */
AK_INLINE void aks_store_transposed(aks_quat4 r, __m128 out[4])
{
    _MM_TRANSPOSE4_PS(r.x, r.y, r.z, r.w);
    out[0] = r.x;
    out[1] = r.y;
    out[2] = r.z;
    out[3] = r.w;
}

/* Four consecutive quaternion pairs a[i], b[i] slerped with one t; out[i] in AoS form. */
AK_INLINE void aks_slerp4(const ak_quat *a, const ak_quat *b, const aks_slerp_t *p, __m128 out[4])
{
    aks_store_transposed(aks_slerp_soa(aks_load_quat4(a, a + 1, a + 2, a + 3),
                                       aks_load_quat4(b, b + 1, b + 2, b + 3), p->t, p->h, p->g),
                         out);
}

#endif
#endif
