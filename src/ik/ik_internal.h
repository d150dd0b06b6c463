/* Internal: small inline helpers shared by the IK solvers (model-space vector/quaternion
 * constructions that xform_inline.h does not have). */
#ifndef AK_IK_INTERNAL_H
#define AK_IK_INTERNAL_H

#include "animkit/ik.h"
#include "core/xform_inline.h"

#include <float.h>

AK_INLINE ak_quat akq_identity(void)
{
    ak_quat q = {0.0f, 0.0f, 0.0f, 1.0f};
    return q;
}

/* Any unit vector perpendicular to the unit vector v. */
AK_INLINE ak_vec3 ik_any_perpendicular(ak_vec3 v)
{
    const ak_vec3 ex = {1.0f, 0.0f, 0.0f}, ey = {0.0f, 1.0f, 0.0f};
    ak_vec3 axis = akv_cross(v, fabsf(v.x) < 0.7f ? ex : ey);
    float len = akv_len(axis);
    return akv_scale(axis, 1.0f / len);
}

/* Rotation by `angle` about the unit axis `k`. */
AK_INLINE ak_quat ik_axis_angle(ak_vec3 k, float angle)
{
    float s = sinf(0.5f * angle);
    ak_quat q = {k.x * s, k.y * s, k.z * s, cosf(0.5f * angle)};
    return q;
}

/* Shortest rotation taking the direction of `from` onto the direction of `to`, without trig:
 * q = normalize(|f||t| + f.t, f x t) (the half-angle form). Opposite directions turn by pi
 * about a perpendicular axis; a zero vector gives the identity. */
AK_INLINE ak_quat ik_from_to(ak_vec3 from, ak_vec3 to)
{
    float lf2 = akv_dot(from, from), lt2 = akv_dot(to, to);
    if (!(lf2 > 1e-30f) || !(lt2 > 1e-30f)) return akq_identity();
    float norms = sqrtf(lf2 * lt2);
    float d = akv_dot(from, to);
    if (d <= -0.999999f * norms) {
        ak_vec3 k = ik_any_perpendicular(akv_scale(from, 1.0f / sqrtf(lf2)));
        ak_quat q = {k.x, k.y, k.z, 0.0f};
        return q;
    }
    ak_vec3 c = akv_cross(from, to);
    ak_quat q = {c.x, c.y, c.z, norms + d};
    return akq_normalize(q);
}

/* Rotation about the unit axis `k` taking x onto y, both perpendicular to k (any lengths).
 * Half-angle form q = normalize(|x||y| + x.y, k ((x cross y).k)); opposite vectors turn by pi
 * about k, never about another axis. */
AK_INLINE ak_quat ik_twist_between(ak_vec3 x, ak_vec3 y, ak_vec3 k)
{
    float norms = sqrtf(akv_dot(x, x) * akv_dot(y, y));
    float c = norms + akv_dot(x, y);
    float s = akv_dot(akv_cross(x, y), k);
    if (!(norms > 1e-30f)) return akq_identity();
    if (c <= 1e-6f * norms && fabsf(s) <= 1e-6f * norms) {
        ak_quat q = {k.x, k.y, k.z, 0.0f};
        return q;
    }
    ak_quat q = {k.x * s, k.y * s, k.z * s, c};
    return akq_normalize(q);
}

/* q expressed in the frame f: conj(f) q f (a model-space delta as a local correction). */
AK_INLINE ak_quat ik_to_local(ak_quat f, ak_quat q) { return akq_mul(akq_conj(f), akq_mul(q, f)); }

/* Canonical sign (w >= 0) so slerps from identity take the short way. */
AK_INLINE ak_quat ik_positive_w(ak_quat q)
{
    if (q.w < 0.0f) {
        ak_quat r = {-q.x, -q.y, -q.z, -q.w};
        return r;
    }
    return q;
}

AK_INLINE float ik_clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* Unit-length check used by validators and tests: |q|^2 within 1e-4 of 1. */
AK_INLINE int ik_quat_is_unit(ak_quat q)
{
    float n = akq_dot(q, q);
    return akq_finite(q) && fabsf(n - 1.0f) < 1e-4f;
}

/* Validation helpers: each returns AK_OK or sets err and returns AK_ERR_INVALID_ARG. */
int32_t ik_check_joint(const ak_skeleton *s, int32_t j, const char *what, ak_error *err);
int32_t ik_check_weight(float w, ak_error *err);
int32_t ik_check_vec(ak_vec3 v, const char *what, ak_error *err);
/* 1 when `d` is `a` itself or lies in a's subtree. */
int ik_is_in_subtree(const ak_skeleton *s, int32_t a, int32_t d);

#endif
