/* Internal: small inline helpers shared by the IK solvers (model-space vector/quaternion
 * constructions that xform_inline.h does not have). */
#ifndef AK_IK_INTERNAL_H
#define AK_IK_INTERNAL_H

/* sqrt never sees a negative argument in the solvers, so errno handling only turns sqrtf into
 * a libm call; GCC drops it with -fno-math-errno (results are identical). Set here, before any
 * function is defined, so every function of an IK translation unit shares the option (GCC
 * does not inline across different optimize attributes). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-math-errno")
#endif

#include "animkit/ik.h"
#include "core/xform_inline.h"

#include <float.h>

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

#endif
