/* Internal: SSE forms of sampling (fast slerp) and FK for x86-64 (SSE2 is its baseline, so
 * this needs no CPU dispatch). A quaternion lives in one register as (x,y,z,w); a transform
 * is read as two overlapping 16-byte loads: (qx,qy,qz,qw) and (qw,tx,ty,tz).
 * AK_NO_SIMD forces the scalar path (the sanitizer build uses it so both paths are tested). */
#ifndef AK_SAMPLE_FK_SSE_H
#define AK_SAMPLE_FK_SSE_H

#if !defined(AK_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#define AK_HAVE_SSE 1
#include <emmintrin.h>

#include "animkit/math.h"

#define AK_SHUF(v, x, y, z, w) _mm_shuffle_ps((v), (v), _MM_SHUFFLE((w), (z), (y), (x)))

/* Sign masks: XOR flips the lanes holding -0.0f. */
AK_INLINE __m128 aks_sign(float x, float y, float z, float w) { return _mm_setr_ps(x, y, z, w); }

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
    __m128 r = _mm_sub_ps(_mm_mul_ps(a, AK_SHUF(b, 1, 2, 0, 3)), _mm_mul_ps(AK_SHUF(a, 1, 2, 0, 3), b));
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

/* 1/sqrt(x) per lane, the estimate refined by one Newton step (about 2e-7 relative). */
AK_INLINE __m128 aks_rsqrt(__m128 x)
{
    __m128 y = _mm_rsqrt_ps(x);
    __m128 yyx = _mm_mul_ps(_mm_mul_ps(y, y), x);
    return _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(0.5f), y), _mm_sub_ps(_mm_set1_ps(3.0f), yyx));
}

/* Parameters of the corrected nlerp (clip.c fast_slerp) that depend only on t, broadcast:
 * t, (t - 1/2)^2 and t (t - 1/2) (t - 1). Computed once per character per sample. */
typedef struct aks_slerp_t { __m128 t, h, g; } aks_slerp_t;

AK_INLINE aks_slerp_t aks_slerp_params(float t)
{
    aks_slerp_t p;
    p.t = _mm_set1_ps(t);
    p.h = _mm_set1_ps((t - 0.5f) * (t - 0.5f));
    p.g = _mm_set1_ps(t * (t - 0.5f) * (t - 1.0f));
    return p;
}

/* The corrected-nlerp slerp of clip.c (fast_slerp), one quaternion per register. */
AK_INLINE __m128 aks_slerp(__m128 a, __m128 b, const aks_slerp_t *p)
{
    __m128 ca = aks_dot4(a, b);
    __m128 sign = _mm_and_ps(ca, _mm_set1_ps(-0.0f));
    __m128 d = _mm_xor_ps(ca, sign); /* |cos| */
    /* A = 1.0904 + d(-3.2452 + d(3.55645 - 1.43519 d)), B = 0.848013 + d(-1.06021 + 0.215638 d) */
    __m128 A = _mm_add_ps(_mm_set1_ps(1.0904f), _mm_mul_ps(d, _mm_add_ps(_mm_set1_ps(-3.2452f),
               _mm_mul_ps(d, _mm_sub_ps(_mm_set1_ps(3.55645f), _mm_mul_ps(d, _mm_set1_ps(1.43519f)))))));
    __m128 B = _mm_add_ps(_mm_set1_ps(0.848013f), _mm_mul_ps(d, _mm_add_ps(_mm_set1_ps(-1.06021f),
               _mm_mul_ps(d, _mm_set1_ps(0.215638f)))));
    __m128 k = _mm_add_ps(_mm_mul_ps(A, p->h), B);
    __m128 ot = _mm_add_ps(p->t, _mm_mul_ps(p->g, k));
    __m128 bs = _mm_xor_ps(b, sign);
    __m128 r = _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(bs, a), ot));
    return _mm_mul_ps(r, aks_rsqrt(aks_dot4(r, r)));
}

/* (x,y,z,0) from a packed ak_vec3 without reading past it. */
AK_INLINE __m128 aks_load3(const ak_vec3 *v)
{
    __m128 xy = _mm_castpd_ps(_mm_load_sd((const double *)(const void *)v));
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

/* Four quaternions a[0..3], b[0..3] slerped at once in structure-of-arrays form (one
 * register per component), the same corrected nlerp as aks_slerp; out[i] = slerp(a[i], b[i]). */
AK_INLINE void aks_slerp4(const ak_quat *a, const ak_quat *b, const aks_slerp_t *p, __m128 out[4])
{
    __m128 ax = _mm_loadu_ps(&a[0].x), ay = _mm_loadu_ps(&a[1].x), az = _mm_loadu_ps(&a[2].x), aw = _mm_loadu_ps(&a[3].x);
    __m128 bx = _mm_loadu_ps(&b[0].x), by = _mm_loadu_ps(&b[1].x), bz = _mm_loadu_ps(&b[2].x), bw = _mm_loadu_ps(&b[3].x);
    _MM_TRANSPOSE4_PS(ax, ay, az, aw);
    _MM_TRANSPOSE4_PS(bx, by, bz, bw);
    __m128 ca = _mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)),
                           _mm_add_ps(_mm_mul_ps(az, bz), _mm_mul_ps(aw, bw)));
    __m128 sign = _mm_and_ps(ca, _mm_set1_ps(-0.0f));
    __m128 d = _mm_xor_ps(ca, sign);
    __m128 A = _mm_add_ps(_mm_set1_ps(1.0904f), _mm_mul_ps(d, _mm_add_ps(_mm_set1_ps(-3.2452f),
               _mm_mul_ps(d, _mm_sub_ps(_mm_set1_ps(3.55645f), _mm_mul_ps(d, _mm_set1_ps(1.43519f)))))));
    __m128 B = _mm_add_ps(_mm_set1_ps(0.848013f), _mm_mul_ps(d, _mm_add_ps(_mm_set1_ps(-1.06021f),
               _mm_mul_ps(d, _mm_set1_ps(0.215638f)))));
    __m128 ot = _mm_add_ps(p->t, _mm_mul_ps(p->g, _mm_add_ps(_mm_mul_ps(A, p->h), B)));
    __m128 rx = _mm_add_ps(ax, _mm_mul_ps(_mm_sub_ps(_mm_xor_ps(bx, sign), ax), ot));
    __m128 ry = _mm_add_ps(ay, _mm_mul_ps(_mm_sub_ps(_mm_xor_ps(by, sign), ay), ot));
    __m128 rz = _mm_add_ps(az, _mm_mul_ps(_mm_sub_ps(_mm_xor_ps(bz, sign), az), ot));
    __m128 rw = _mm_add_ps(aw, _mm_mul_ps(_mm_sub_ps(_mm_xor_ps(bw, sign), aw), ot));
    __m128 n2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry)),
                           _mm_add_ps(_mm_mul_ps(rz, rz), _mm_mul_ps(rw, rw)));
    __m128 inv = aks_rsqrt(n2);
    rx = _mm_mul_ps(rx, inv); ry = _mm_mul_ps(ry, inv); rz = _mm_mul_ps(rz, inv); rw = _mm_mul_ps(rw, inv);
    _MM_TRANSPOSE4_PS(rx, ry, rz, rw);
    out[0] = rx; out[1] = ry; out[2] = rz; out[3] = rw;
}

#endif
#endif
