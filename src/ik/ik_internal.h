/* Internal: small inline helpers shared by the IK solvers (model-space vector/quaternion
 * constructions that xform_inline.h does not have). */
#ifndef AK_IK_INTERNAL_H
#define AK_IK_INTERNAL_H

/* Square roots in the solvers never see a negative argument, but with errno semantics (C's
 * default) the compiler turns many sqrtf calls into libm calls. ik_sqrt uses the SSE
 * instruction directly where there is one (same IEEE result); AK_NO_SIMD keeps sqrtf. */
#include "animkit/ik.h"
#include "core/xform_inline.h"

#include <float.h>

#if !defined(AK_NO_SIMD) && (defined(__SSE__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 1))
#include <xmmintrin.h>
AK_INLINE float ik_sqrt(float x) { return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x))); }
#else
AK_INLINE float ik_sqrt(float x) { return sqrtf(x); }
#endif
/* Finite test without branches: x * 0 is 0 for finite x and NaN for inf/NaN. */
AK_INLINE int ik_finite3(ak_vec3 v) { return v.x * 0.0f + v.y * 0.0f + v.z * 0.0f == 0.0f; }
AK_INLINE int ik_finite4(ak_quat q) { return q.x * 0.0f + q.y * 0.0f + q.z * 0.0f + q.w * 0.0f == 0.0f; }
AK_INLINE float ik_len(ak_vec3 v) { return ik_sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }
AK_INLINE float ik_minf(float a, float b) { return a < b ? a : b; }
AK_INLINE float ik_maxf(float a, float b) { return a > b ? a : b; }

/* Hot solver entry points inline every helper they call (the quaternion/vector helpers are
 * small structs; left as calls, passing them costs more than the math). GCC and Clang only;
 * elsewhere the compiler decides. */
#if defined(__GNUC__) || defined(__clang__)
#define IK_FLATTEN __attribute__((flatten))
#else
#define IK_FLATTEN
#endif

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
    float len = ik_len(axis);
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
 * with unit a, b: q = normalize(a x b, 1 + a.b) (the half-angle form). The inputs are
 * normalised first so no product of their lengths can overflow. Opposite directions turn by
 * pi about a perpendicular axis; a zero vector gives the identity. */
AK_INLINE ak_quat ik_from_to(ak_vec3 from, ak_vec3 to)
{
    const float lf = ik_sqrt(akv_dot(from, from)), lt = ik_sqrt(akv_dot(to, to));
    if (!(lf > 1e-15f) || !(lt > 1e-15f) || !isfinite(lf) || !isfinite(lt)) return akq_identity();
    const ak_vec3 a = akv_scale(from, 1.0f / lf), b = akv_scale(to, 1.0f / lt);
    const float w = 1.0f + akv_dot(a, b);
    if (w <= 1e-6f) {
        const ak_vec3 k = ik_any_perpendicular(a);
        ak_quat q = {k.x, k.y, k.z, 0.0f};
        return q;
    }
    const ak_vec3 c = akv_cross(a, b);
    const float inv = 1.0f / ik_sqrt(akv_dot(c, c) + w * w);
    ak_quat q = {c.x * inv, c.y * inv, c.z * inv, w * inv};
    return q;
}

/* Rotation about the unit axis `k` taking x onto y, both perpendicular to k (any finite
 * lengths). With unit x^, y^: q = normalize(k ((x^ cross y^).k), 1 + x^.y^); opposite vectors
 * turn by pi about k, never about another axis. */
AK_INLINE ak_quat ik_twist_between(ak_vec3 x, ak_vec3 y, ak_vec3 k)
{
    const float lx = ik_sqrt(akv_dot(x, x)), ly = ik_sqrt(akv_dot(y, y));
    if (!(lx > 1e-15f) || !(ly > 1e-15f) || !isfinite(lx) || !isfinite(ly)) return akq_identity();
    const ak_vec3 a = akv_scale(x, 1.0f / lx), b = akv_scale(y, 1.0f / ly);
    const float c = 1.0f + akv_dot(a, b);
    const float s = akv_dot(akv_cross(a, b), k);
    if (c <= 1e-6f && fabsf(s) <= 1e-3f) {
        ak_quat q = {k.x, k.y, k.z, 0.0f};
        return q;
    }
    const float inv = 1.0f / ik_sqrt(s * s + c * c);
    ak_quat q = {k.x * s * inv, k.y * s * inv, k.z * s * inv, c * inv};
    return q;
}

/* Unit quaternion of the rotation matrix m (row-major, m[row][col]); Shepperd's method,
 * branching on the largest of trace and diagonal for accuracy. */
AK_INLINE ak_quat ik_quat_from_matrix(float m[3][3])
{
    ak_quat q;
    const float tr = m[0][0] + m[1][1] + m[2][2];
    if (tr > 0.0f) {
        const float s = 2.0f * ik_sqrt(tr + 1.0f), inv = 1.0f / s;
        q.w = 0.25f * s;
        q.x = (m[2][1] - m[1][2]) * inv;
        q.y = (m[0][2] - m[2][0]) * inv;
        q.z = (m[1][0] - m[0][1]) * inv;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        const float s = 2.0f * ik_sqrt(ik_maxf(0.0f, 1.0f + m[0][0] - m[1][1] - m[2][2])), inv = 1.0f / s;
        q.w = (m[2][1] - m[1][2]) * inv;
        q.x = 0.25f * s;
        q.y = (m[0][1] + m[1][0]) * inv;
        q.z = (m[0][2] + m[2][0]) * inv;
    } else if (m[1][1] > m[2][2]) {
        const float s = 2.0f * ik_sqrt(ik_maxf(0.0f, 1.0f + m[1][1] - m[0][0] - m[2][2])), inv = 1.0f / s;
        q.w = (m[0][2] - m[2][0]) * inv;
        q.x = (m[0][1] + m[1][0]) * inv;
        q.y = 0.25f * s;
        q.z = (m[1][2] + m[2][1]) * inv;
    } else {
        const float s = 2.0f * ik_sqrt(ik_maxf(0.0f, 1.0f + m[2][2] - m[0][0] - m[1][1])), inv = 1.0f / s;
        q.w = (m[1][0] - m[0][1]) * inv;
        q.x = (m[0][2] + m[2][0]) * inv;
        q.y = (m[1][2] + m[2][1]) * inv;
        q.z = 0.25f * s;
    }
    return q;
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
    return ik_finite4(q) && fabsf(n - 1.0f) < 1e-4f;
}

/* Validation helpers (inline: validation runs on every solve): each returns AK_OK or sets
 * err and returns AK_ERR_INVALID_ARG. */
AK_INLINE int32_t ik_check_joint(const ak_skeleton *s, int32_t j, const char *what, ak_error *err)
{
    if (j < 0 || j >= s->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s joint %d out of range [0, %d)", what,
                            (int)j, (int)s->joint_count);
    return AK_OK;
}
AK_INLINE int32_t ik_check_weight(float w, ak_error *err)
{
    if (!(w >= 0.0f && w <= 1.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "weight must be in [0, 1]");
    return AK_OK;
}
AK_INLINE int32_t ik_check_vec(ak_vec3 v, const char *what, ak_error *err)
{
    if (!ik_finite3(v)) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s is not finite", what);
    return AK_OK;
}
/* AK_OK when squares of distances up to |target - origin| + span stay finite in float (with
 * margin), else AK_ERR_INVALID_ARG: coordinates that large overflow every solver.
 * (|d| + span)^2 <= 2 |d|^2 + 2 span^2, so no square root is needed for the bound. */
AK_INLINE int32_t ik_check_range(ak_vec3 origin, ak_vec3 target, float span, ak_error *err)
{
    const ak_vec3 d = akv_sub(target, origin);
    if (!isfinite(8.0f * (akv_dot(d, d) + span * span)))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "coordinates too large: distances overflow single precision");
    return AK_OK;
}
/* 1 when `d` is `a` itself or lies in a's subtree. */
AK_INLINE int ik_is_in_subtree(const ak_skeleton *s, int32_t a, int32_t d)
{
    return d >= a && d < s->subtree_end[a];
}

/* A chain's state during a solve, all model space (suffix-free for brevity: pos and rot are
 * model-space, local is parent-space). Index i is chain[i]. */
typedef struct ik_chain {
    int32_t n;
    const int32_t *joints;
    ak_vec3 pos[AK_IK_MAX_CHAIN];     /* model-space positions */
    ak_quat rot[AK_IK_MAX_CHAIN];     /* model-space rotations */
    ak_quat local[AK_IK_MAX_CHAIN];   /* local rotations being solved */
    ak_quat input[AK_IK_MAX_CHAIN];   /* local rotations as given (for weights) */
    ak_quat rest[AK_IK_MAX_CHAIN];    /* rest local rotations (limit reference) */
    /* link[0]: model rotation of chain[0]'s parent (identity for a root); link[i]: rotation
     * from chain[i-1]'s frame to chain[i]'s parent frame (identity for a direct child). */
    ak_quat link[AK_IK_MAX_CHAIN];
    ak_vec3 offset[AK_IK_MAX_CHAIN];  /* chain[i] -> chain[i+1] in chain[i]'s frame */
    float length[AK_IK_MAX_CHAIN];    /* |offset[i]| */
    float total;                      /* sum of lengths */
} ik_chain;

/* Validates the index list (range, descendant order, length) into err. */
int32_t ik_check_chain(const ak_skeleton *s, const int32_t *chain, int32_t n, ak_error *err);
/* Loads the chain from a pose; AK_ERR_DEGENERATE for a zero-length bone (unless allow_zero)
 * and AK_ERR_INVALID_ARG for a non-finite pose. */
int32_t ik_chain_load(ik_chain *c, const ak_skeleton *s, const int32_t *chain, int32_t n,
                      const ak_xform *local, const ak_xform *world, int allow_zero, ak_error *err);
/* The common start of CCD and FABRIK: validates the params and the pose pointers, loads the
 * chain and checks the target's range. */
int32_t ik_chain_begin(ik_chain *c, const ak_chain_ik_params *p, const ak_xform *local,
                       const ak_xform *world, ak_error *err);
/* Model rotation of chain[i]'s parent under the current state. */
AK_INLINE ak_quat ik_chain_parent_rot(const ik_chain *c, int32_t i)
{
    return i == 0 ? c->link[0] : akq_mul(c->rot[i - 1], c->link[i]);
}
/* Recomputes rot[k..n) and pos[k+1..n) from local[]. */
void ik_chain_fk_from(ik_chain *c, int32_t k);
/* Sets local[i] so chain[i]'s model rotation becomes `rot_ms`, applies `limit` (may be NULL),
 * and updates rot[i] (not the joints below). */
void ik_chain_set_rot(ik_chain *c, int32_t i, ak_quat rot_ms, const ak_ik_limit *limit);
/* Writes local rotations of chain[0..count) (slerp by weight) and refreshes world from
 * chain[0] down. */
void ik_chain_store(const ik_chain *c, const ak_skeleton *s, int32_t count, float weight,
                    ak_xform *local, ak_xform *world);
int32_t ik_check_limits(const ak_ik_limit *limits, int32_t n, ak_error *err);
/* One CCD pass (tip to root) over the chain state; returns the new end-effector error. */
float ik_ccd_pass(ik_chain *c, ak_vec3 target, const float *joint_weights, const ak_ik_limit *limits);

#endif
