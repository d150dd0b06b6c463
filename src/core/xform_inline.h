/* Internal: inline forms of the hot math used by FK, sampling and the solvers.
 * Built on cglm (header-only); ak_quat/ak_vec3 share cglm's versor/vec3 memory layout
 * (x,y,z,w / x,y,z floats), so we hand our structs to cglm through casts of their address. */
#ifndef AK_XFORM_INLINE_H
#define AK_XFORM_INLINE_H

#include <math.h>
#include <cglm/cglm.h>
#include "animkit/ak_math.h"

#ifndef AK_PI
#define AK_PI 3.14159265358979323846f
#endif

/* 1/sqrt(x) to about 2e-7 relative: the SSE estimate refined by one Newton step, which is
 * several times cheaper than a divide and a square root in the sampling loop. */
#if defined(__SSE__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 1)
#include <xmmintrin.h>
AK_INLINE float akf_rsqrt(float x)
{
    float y = _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(x)));
    return y * (1.5f - 0.5f * x * y * y);
}
#else
AK_INLINE float akf_rsqrt(float x)
{
    return 1.0f / sqrtf(x);
}
#endif

#define AK_CGLM_Q(q) ((float *)&(q))
#define AK_CGLM_V(v) ((float *)&(v))

/* a wrapped into [-pi, pi] in constant time. Subtracting 2 pi in a float loop never ends
 * for |a| beyond about 1e8 (the step is below a's precision), so angles from callers go
 * through this; NaN and infinities come out NaN. */
AK_INLINE float akf_wrap_pi(float a)
{
    if (a >= -AK_PI && a <= AK_PI) return a;
    return (float)remainder((double)a, 6.283185307179586476925);
}

AK_INLINE ak_vec3 akv_make(float x, float y, float z)
{
    ak_vec3 r = {x, y, z};
    return r;
}

AK_INLINE ak_vec3 akv_add(ak_vec3 a, ak_vec3 b)
{
    ak_vec3 r = {a.x + b.x, a.y + b.y, a.z + b.z};
    return r;
}
AK_INLINE ak_vec3 akv_sub(ak_vec3 a, ak_vec3 b)
{
    ak_vec3 r = {a.x - b.x, a.y - b.y, a.z - b.z};
    return r;
}
AK_INLINE ak_vec3 akv_scale(ak_vec3 a, float s)
{
    ak_vec3 r = {a.x * s, a.y * s, a.z * s};
    return r;
}
AK_INLINE float akv_dot(ak_vec3 a, ak_vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
AK_INLINE ak_vec3 akv_cross(ak_vec3 a, ak_vec3 b)
{
    ak_vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return r;
}
AK_INLINE ak_vec3 akv_lerp(ak_vec3 a, ak_vec3 b, float t)
{
    ak_vec3 r = {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t};
    return r;
}

/* Hamilton product a*b (apply b first). Written out so the compiler can keep it in
 * registers; identical to cglm's glm_quat_mul. */
AK_INLINE ak_quat akq_mul(ak_quat a, ak_quat b)
{
    ak_quat r;
    r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    return r;
}
AK_INLINE ak_quat akq_conj(ak_quat q)
{
    ak_quat r = {-q.x, -q.y, -q.z, q.w};
    return r;
}
AK_INLINE float akq_dot(ak_quat a, ak_quat b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

/* v' = v + 2w(u x v) + 2 u x (u x v), u = (x,y,z): the 15-multiply form of q v q*. */
AK_INLINE ak_vec3 akq_rotate(ak_quat q, ak_vec3 v)
{
    ak_vec3 u = {q.x, q.y, q.z};
    ak_vec3 t = akv_scale(akv_cross(u, v), 2.0f);
    return akv_add(akv_add(v, akv_scale(t, q.w)), akv_cross(u, t));
}

/* q or -q (the same rotation), whichever lies on ref's side (dot >= 0): consecutive keys made
 * hemisphere-continuous, so interpolation between them takes the short way. */
AK_INLINE ak_quat akq_same_side(ak_quat q, ak_quat ref)
{
    if (akq_dot(q, ref) < 0.0f) {
        q.x = -q.x;
        q.y = -q.y;
        q.z = -q.z;
        q.w = -q.w;
    }
    return q;
}

AK_INLINE ak_quat akq_normalize(ak_quat q)
{
    float n2 = akq_dot(q, q);
    if (!(n2 > 1e-30f) || !isfinite(n2)) {
        ak_quat id = {0.0f, 0.0f, 0.0f, 1.0f};
        return id;
    }
    float inv = 1.0f / sqrtf(n2);
    ak_quat r = {q.x * inv, q.y * inv, q.z * inv, q.w * inv};
    return r;
}

AK_INLINE ak_quat akq_nlerp(ak_quat a, ak_quat b, float t)
{
    float s = akq_dot(a, b) < 0.0f ? -1.0f : 1.0f;
    ak_quat r = {a.x + (s * b.x - a.x) * t, a.y + (s * b.y - a.y) * t, a.z + (s * b.z - a.z) * t,
                 a.w + (s * b.w - a.w) * t};
    return akq_normalize(r);
}

/* Slerp along the shorter arc. Falls back to nlerp when the keys are within ~0.1 degree,
 * where sin(theta) loses precision. */
AK_INLINE ak_quat akq_slerp(ak_quat a, ak_quat b, float t)
{
    float d = akq_dot(a, b);
    float s = 1.0f;
    if (d < 0.0f) {
        d = -d;
        s = -1.0f;
    }
    if (d > 0.9995f) return akq_nlerp(a, b, t);
    float theta = acosf(d);
    float sin_theta = sinf(theta);
    float wa = sinf((1.0f - t) * theta) / sin_theta;
    float wb = s * sinf(t * theta) / sin_theta;
    ak_quat r = {wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z,
                 wa * a.w + wb * b.w};
    return r;
}

/* parent * local. */
AK_INLINE ak_xform akx_mul(ak_xform a, ak_xform b)
{
    ak_xform r;
    r.rotation = akq_mul(a.rotation, b.rotation);
    r.translation = akv_add(a.translation, akq_rotate(a.rotation, b.translation));
    return r;
}

AK_INLINE ak_xform akx_inverse(ak_xform a)
{
    ak_xform r;
    r.rotation = akq_conj(a.rotation);
    r.translation = akv_scale(akq_rotate(r.rotation, a.translation), -1.0f);
    return r;
}

/* ---- Formerly the IK solvers' own helpers; now everyone's ---- */

/* Square roots on hot paths never see a negative argument, but with errno semantics (C's
 * default) the compiler turns many sqrtf calls into libm calls. akf_sqrt uses the SSE
 * instruction directly where there is one (the same correctly rounded IEEE result);
 * AK_NO_SIMD keeps sqrtf. */
#if !defined(AK_NO_SIMD) &&                                                                        \
    (defined(__SSE__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 1))
#include <xmmintrin.h>
AK_INLINE float akf_sqrt(float x)
{
    return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x)));
}
#else
AK_INLINE float akf_sqrt(float x)
{
    return sqrtf(x);
}
#endif
/* Finite test without branches: x * 0 is 0 for finite x and NaN for inf/NaN. */
AK_INLINE int akv_finite(ak_vec3 v)
{
    return v.x * 0.0f + v.y * 0.0f + v.z * 0.0f == 0.0f;
}
AK_INLINE int akq_finite(ak_quat q)
{
    return q.x * 0.0f + q.y * 0.0f + q.z * 0.0f + q.w * 0.0f == 0.0f;
}
AK_INLINE float akv_len(ak_vec3 v)
{
    return akf_sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}
/* a / |a|, or fallback where |a| is zero, tiny (1e-12) or not finite. */
AK_INLINE ak_vec3 akv_normalize_or(ak_vec3 a, ak_vec3 fallback)
{
    const float len = akv_len(a);
    if (!(len > 1e-12f) || !isfinite(len)) return fallback;
    return akv_scale(a, 1.0f / len);
}

AK_INLINE float akf_min(float a, float b)
{
    return a < b ? a : b;
}
AK_INLINE float akf_max(float a, float b)
{
    return a > b ? a : b;
}

AK_INLINE ak_quat akq_identity(void)
{
    ak_quat q = {0.0f, 0.0f, 0.0f, 1.0f};
    return q;
}

/* Any unit vector perpendicular to the unit vector v. */
AK_INLINE ak_vec3 akv_any_perpendicular(ak_vec3 v)
{
    const ak_vec3 ex = {1.0f, 0.0f, 0.0f}, ey = {0.0f, 1.0f, 0.0f};
    ak_vec3 axis = akv_cross(v, fabsf(v.x) < 0.7f ? ex : ey);
    float len = akv_len(axis);
    return akv_scale(axis, 1.0f / len);
}

/* Rotation by `angle` about the unit axis `k`. */
AK_INLINE ak_quat akq_axis_angle(ak_vec3 k, float angle)
{
    float s = sinf(0.5f * angle);
    ak_quat q = {k.x * s, k.y * s, k.z * s, cosf(0.5f * angle)};
    return q;
}

/* Shortest rotation taking the direction of `from` onto the direction of `to`, without trig:
 * with unit a, b: q = normalize(a x b, 1 + a.b) (the half-angle form). The inputs are
 * normalised first so no product of their lengths can overflow. Opposite directions turn by
 * pi about a perpendicular axis; a zero vector gives the identity. */
AK_INLINE ak_quat akq_from_to(ak_vec3 from, ak_vec3 to)
{
    const float lf = akf_sqrt(akv_dot(from, from)), lt = akf_sqrt(akv_dot(to, to));
    if (!(lf > 1e-15f) || !(lt > 1e-15f) || !isfinite(lf) || !isfinite(lt)) return akq_identity();
    const ak_vec3 a = akv_scale(from, 1.0f / lf), b = akv_scale(to, 1.0f / lt);
    const float w = 1.0f + akv_dot(a, b);
    if (w <= 1e-6f) {
        const ak_vec3 k = akv_any_perpendicular(a);
        ak_quat q = {k.x, k.y, k.z, 0.0f};
        return q;
    }
    const ak_vec3 c = akv_cross(a, b);
    const float inv = 1.0f / akf_sqrt(akv_dot(c, c) + w * w);
    ak_quat q = {c.x * inv, c.y * inv, c.z * inv, w * inv};
    return q;
}

/* Rotation about the unit axis `k` taking x onto y, both perpendicular to k (any finite
 * lengths). With unit x^, y^: q = normalize(k ((x^ cross y^).k), 1 + x^.y^); opposite vectors
 * turn by pi about k, never about another axis. */
AK_INLINE ak_quat akq_twist_between(ak_vec3 x, ak_vec3 y, ak_vec3 k)
{
    const float lx = akf_sqrt(akv_dot(x, x)), ly = akf_sqrt(akv_dot(y, y));
    if (!(lx > 1e-15f) || !(ly > 1e-15f) || !isfinite(lx) || !isfinite(ly)) return akq_identity();
    const ak_vec3 a = akv_scale(x, 1.0f / lx), b = akv_scale(y, 1.0f / ly);
    const float c = 1.0f + akv_dot(a, b);
    const float s = akv_dot(akv_cross(a, b), k);
    if (c <= 1e-6f && fabsf(s) <= 1e-3f) {
        ak_quat q = {k.x, k.y, k.z, 0.0f};
        return q;
    }
    const float inv = 1.0f / akf_sqrt(s * s + c * c);
    ak_quat q = {k.x * s * inv, k.y * s * inv, k.z * s * inv, c * inv};
    return q;
}

/* Unit quaternion of the rotation matrix m (row-major, m[row][col]); Shepperd's method,
 * branching on the largest of trace and diagonal for accuracy. */
AK_INLINE ak_quat akq_from_matrix(float m[3][3])
{
    ak_quat q;
    const float tr = m[0][0] + m[1][1] + m[2][2];
    if (tr > 0.0f) {
        const float s = 2.0f * akf_sqrt(tr + 1.0f), inv = 1.0f / s;
        q.w = 0.25f * s;
        q.x = (m[2][1] - m[1][2]) * inv;
        q.y = (m[0][2] - m[2][0]) * inv;
        q.z = (m[1][0] - m[0][1]) * inv;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        const float s = 2.0f * akf_sqrt(akf_max(0.0f, 1.0f + m[0][0] - m[1][1] - m[2][2])),
                    inv = 1.0f / s;
        q.w = (m[2][1] - m[1][2]) * inv;
        q.x = 0.25f * s;
        q.y = (m[0][1] + m[1][0]) * inv;
        q.z = (m[0][2] + m[2][0]) * inv;
    } else if (m[1][1] > m[2][2]) {
        const float s = 2.0f * akf_sqrt(akf_max(0.0f, 1.0f + m[1][1] - m[0][0] - m[2][2])),
                    inv = 1.0f / s;
        q.w = (m[0][2] - m[2][0]) * inv;
        q.x = (m[0][1] + m[1][0]) * inv;
        q.y = 0.25f * s;
        q.z = (m[1][2] + m[2][1]) * inv;
    } else {
        const float s = 2.0f * akf_sqrt(akf_max(0.0f, 1.0f + m[2][2] - m[0][0] - m[1][1])),
                    inv = 1.0f / s;
        q.w = (m[1][0] - m[0][1]) * inv;
        q.x = (m[0][2] + m[2][0]) * inv;
        q.y = (m[1][2] + m[2][1]) * inv;
        q.z = 0.25f * s;
    }
    return q;
}

/* q expressed in the frame f: conj(f) q f (a model-space delta as a local correction). */
AK_INLINE ak_quat akq_in_frame(ak_quat f, ak_quat q)
{
    return akq_mul(akq_conj(f), akq_mul(q, f));
}

/* Canonical sign (w >= 0) so slerps from identity take the short way. */
AK_INLINE ak_quat akq_positive_w(ak_quat q)
{
    if (q.w < 0.0f) {
        ak_quat r = {-q.x, -q.y, -q.z, -q.w};
        return r;
    }
    return q;
}

AK_INLINE float akf_clamp(float x, float lo, float hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* Unit-length check used by validators and tests: |q|^2 within 1e-4 of 1. */
AK_INLINE int akq_is_unit(ak_quat q)
{
    float n = akq_dot(q, q);
    return akq_finite(q) && fabsf(n - 1.0f) < 1e-4f;
}

#endif
