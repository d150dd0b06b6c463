/* Internal: inline forms of the hot math used by FK, sampling and the solvers.
 * Built on cglm (header-only); ak_quat/ak_vec3 share cglm's versor/vec3 memory layout
 * (x,y,z,w / x,y,z floats), so we hand our structs to cglm through casts of their address. */
#ifndef AK_XFORM_INLINE_H
#define AK_XFORM_INLINE_H

#include <math.h>
#include <cglm/cglm.h>
#include "animkit/math.h"

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
AK_INLINE float akf_rsqrt(float x) { return 1.0f / sqrtf(x); }
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

AK_INLINE ak_vec3 akv_add(ak_vec3 a, ak_vec3 b) { ak_vec3 r = {a.x + b.x, a.y + b.y, a.z + b.z}; return r; }
AK_INLINE ak_vec3 akv_sub(ak_vec3 a, ak_vec3 b) { ak_vec3 r = {a.x - b.x, a.y - b.y, a.z - b.z}; return r; }
AK_INLINE ak_vec3 akv_scale(ak_vec3 a, float s) { ak_vec3 r = {a.x * s, a.y * s, a.z * s}; return r; }
AK_INLINE float akv_dot(ak_vec3 a, ak_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
AK_INLINE ak_vec3 akv_cross(ak_vec3 a, ak_vec3 b)
{
    ak_vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return r;
}
AK_INLINE float akv_len(ak_vec3 a) { return sqrtf(akv_dot(a, a)); }
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
AK_INLINE ak_quat akq_conj(ak_quat q) { ak_quat r = {-q.x, -q.y, -q.z, q.w}; return r; }
AK_INLINE float akq_dot(ak_quat a, ak_quat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

/* v' = v + 2w(u x v) + 2 u x (u x v), u = (x,y,z): the 15-multiply form of q v q*. */
AK_INLINE ak_vec3 akq_rotate(ak_quat q, ak_vec3 v)
{
    ak_vec3 u = {q.x, q.y, q.z};
    ak_vec3 t = akv_scale(akv_cross(u, v), 2.0f);
    return akv_add(akv_add(v, akv_scale(t, q.w)), akv_cross(u, t));
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
    ak_quat r = {a.x + (s * b.x - a.x) * t, a.y + (s * b.y - a.y) * t,
                 a.z + (s * b.z - a.z) * t, a.w + (s * b.w - a.w) * t};
    return akq_normalize(r);
}

/* Slerp along the shorter arc. Falls back to nlerp when the keys are within ~0.1 degree,
 * where sin(theta) loses precision. */
AK_INLINE ak_quat akq_slerp(ak_quat a, ak_quat b, float t)
{
    float d = akq_dot(a, b);
    float s = 1.0f;
    if (d < 0.0f) { d = -d; s = -1.0f; }
    if (d > 0.9995f) return akq_nlerp(a, b, t);
    float theta = acosf(d);
    float sin_theta = sinf(theta);
    float wa = sinf((1.0f - t) * theta) / sin_theta;
    float wb = s * sinf(t * theta) / sin_theta;
    ak_quat r = {wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w};
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

AK_INLINE int akv_finite(ak_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }
AK_INLINE int akq_finite(ak_quat q)
{
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}

#endif
