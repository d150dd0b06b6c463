/* Internal: what the IK solvers share beyond the math layer (core/xform_inline.h): argument
 * checks, subtree tests and the chain state of CCD, FABRIK and the look-at chain. */
#ifndef AK_IK_INTERNAL_H
#define AK_IK_INTERNAL_H

#include "animkit/ik.h"
#include "core/simd.h"
#include "core/xform_inline.h"

#include <float.h>

/* ak_limb_ik_defaults, inline for a caller that fills a limb's params every frame (the foot
 * IK: the call and its copy were 60 instructions of a walker's frame). */
AK_INLINE ak_limb_ik_params ik_limb_defaults(void)
{
    ak_limb_ik_params p;
    p.skeleton = NULL;
    p.upper = p.middle = p.end = -1;
    p.target = ak_vec3_make(0.0f, 0.0f, 0.0f);
    p.use_pole = 0;
    p.pole = ak_vec3_make(0.0f, 0.0f, 0.0f);
    p.mid_axis = ak_vec3_make(0.0f, 0.0f, 1.0f);
    p.soft_limit = 0.0f;
    p.match_end_rotation = 0;
    p.end_rotation = ak_quat_identity();
    p.tolerance = 1e-4f;
    p.weight = 1.0f;
    return p;
}

/* Hot solver entry points inline every helper they call (the quaternion/vector helpers are
 * small structs; left as calls, passing them costs more than the math). GCC and Clang only;
 * elsewhere the compiler decides. */
#if defined(__GNUC__) || defined(__clang__)
#define IK_FLATTEN __attribute__((flatten))
#else
#define IK_FLATTEN
#endif

#ifdef AK_HAVE_SSE
/* The quaternion of m = f1 e1^T + f2 e2^T + f3 e3^T (a change of frame (e1, e2, e3) ->
 * (f1, f2, f3), lane 3 ignored): its rows summed in that order, then Shepperd's branches.
 * The limb's and the aim's packed solves take it for turns of 90 degrees or more. */
AK_INLINE ak_quat ik_frames_quat(__m128 f1, __m128 f2, __m128 f3, __m128 e1, __m128 e2, __m128 e3)
{
    float rows[3][4], m[3][3];
    _mm_storeu_ps(rows[0], _mm_add_ps(_mm_add_ps(_mm_mul_ps(AK_SHUF(f1, 0, 0, 0, 0), e1),
                                                 _mm_mul_ps(AK_SHUF(f2, 0, 0, 0, 0), e2)),
                                      _mm_mul_ps(AK_SHUF(f3, 0, 0, 0, 0), e3)));
    _mm_storeu_ps(rows[1], _mm_add_ps(_mm_add_ps(_mm_mul_ps(AK_SHUF(f1, 1, 1, 1, 1), e1),
                                                 _mm_mul_ps(AK_SHUF(f2, 1, 1, 1, 1), e2)),
                                      _mm_mul_ps(AK_SHUF(f3, 1, 1, 1, 1), e3)));
    _mm_storeu_ps(rows[2], _mm_add_ps(_mm_add_ps(_mm_mul_ps(AK_SHUF(f1, 2, 2, 2, 2), e1),
                                                 _mm_mul_ps(AK_SHUF(f2, 2, 2, 2, 2), e2)),
                                      _mm_mul_ps(AK_SHUF(f3, 2, 2, 2, 2), e3)));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            m[i][j] = rows[i][j];
    return akq_from_matrix(m);
}
#endif

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
    if (!akv_finite(v)) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s is not finite", what);
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
/* 1 when every v[i] lies in [lo[i], hi[i]] (NaN and infinities fail): a params struct's
 * range-table bounds (param_ranges.c) checked in one pass over its consecutive float fields,
 * which the compiler turns into a few packed compares. The solvers accept on it and run the
 * field-by-field checks only when it fails, for their messages. */
AK_INLINE int ik_floats_within(const float *v, const float *lo, const float *hi, int n)
{
#ifdef AK_HAVE_SSE
    if ((n & 3) == 0) { /* four lanes at a time: callers pad their arrays to a multiple of 4 */
        __m128 in = _mm_castsi128_ps(_mm_set1_epi32(-1));
        for (int i = 0; i < n; i += 4) {
            const __m128 x = _mm_loadu_ps(v + i);
            in = _mm_and_ps(in, _mm_and_ps(_mm_cmpge_ps(x, _mm_loadu_ps(lo + i)),
                                           _mm_cmple_ps(x, _mm_loadu_ps(hi + i))));
        }
        return _mm_movemask_ps(in) == 0xF;
    }
#endif
    int ok = 1;
    for (int i = 0; i < n; ++i)
        ok &= (v[i] >= lo[i]) & (v[i] <= hi[i]);
    return ok;
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
    ak_vec3 pos[AK_IK_MAX_CHAIN];   /* model-space positions */
    ak_quat rot[AK_IK_MAX_CHAIN];   /* model-space rotations */
    ak_quat local[AK_IK_MAX_CHAIN]; /* local rotations being solved */
    ak_quat input[AK_IK_MAX_CHAIN]; /* local rotations as given (for weights) */
    ak_quat rest[AK_IK_MAX_CHAIN];  /* rest local rotations (limit reference) */
    /* link[0]: model rotation of chain[0]'s parent (identity for a root); link[i]: rotation
     * from chain[i-1]'s frame to chain[i]'s parent frame (identity for a direct child). */
    ak_quat link[AK_IK_MAX_CHAIN];
    ak_vec3 offset[AK_IK_MAX_CHAIN]; /* chain[i] -> chain[i+1] in chain[i]'s frame */
    float length[AK_IK_MAX_CHAIN];   /* |offset[i]| */
    float total;                     /* sum of lengths */
} ik_chain;

/* Validates the index list (range, descendant order, length) into err. */
int32_t ik_check_chain(const ak_skeleton *s, const int32_t *chain, int32_t n, ak_error *err);
/* Loads the chain from a pose; AK_ERR_DEGENERATE for a zero-length bone (unless allow_zero)
 * and AK_ERR_INVALID_ARG for a non-finite pose. */
int32_t ik_chain_load(ik_chain *c, const ak_skeleton *s, const int32_t *chain, int32_t n,
                      const ak_xform *local, const ak_xform *model, int allow_zero, ak_error *err);
/* The common start of CCD and FABRIK: validates the params and the pose pointers, loads the
 * chain and checks the target's range. */
int32_t ik_chain_begin(ik_chain *c, const ak_chain_ik_params *p, const ak_xform *local,
                       const ak_xform *model, ak_error *err);
/* What CCD and FABRIK share around their iterations. */
typedef struct ik_chain_solve {
    ak_ik_result res;
    float tol;   /* p->tolerance times the chain's length */
    float error; /* the end effector's distance to the target */
} ik_chain_solve;
/* Starts a CCD/FABRIK solve: ik_chain_begin, then the tolerance, the error and
 * res.unreachable. Returns < 0 on an error (*result zeroed), AK_OK when there is nothing to
 * solve (weight 0 or a one-joint chain; *result written), 1 to iterate. */
int32_t ik_chain_solve_begin(ik_chain *c, ik_chain_solve *s, const ak_chain_ik_params *p,
                             const ak_xform *local, const ak_xform *model, ak_ik_result *result,
                             ak_error *err);
/* Ends it: stores the chain (weighted) and writes *result measured on the stored pose. */
int32_t ik_chain_solve_end(const ik_chain *c, ik_chain_solve *s, const ak_chain_ik_params *p,
                           int32_t iterations, ak_xform *local, ak_xform *model,
                           ak_ik_result *result);
/* 1 when a pass from `error` to `new_error` no longer improves (limits, or a straight chain
 * pointing at an unreachable target): the solve ends. */
AK_INLINE int ik_stalled(float new_error, float error, float tol)
{
    return !(new_error < error - 1e-3f * tol - 1e-7f * error);
}
/* Model rotation of chain[i]'s parent under the current state. */
AK_INLINE ak_quat ik_chain_parent_rot(const ik_chain *c, int32_t i)
{
    return i == 0 ? c->link[0] : akq_mul(c->rot[i - 1], c->link[i]);
}
/* Recomputes rot[k..n) and pos[k+1..n) from local[]. */
void ik_chain_fk_from(ik_chain *c, int32_t k);
/* Sets local[i] so chain[i]'s model rotation becomes `rot_model`, applies `limit` (may be NULL),
 * and updates rot[i] (not the joints below). */
void ik_chain_set_rot(ik_chain *c, int32_t i, ak_quat rot_model, const ak_ik_limit *limit);
/* Writes local rotations of chain[0..count) (slerp by weight) and refreshes model from
 * chain[0] down. */
void ik_chain_store(const ik_chain *c, const ak_skeleton *s, int32_t count, float weight,
                    ak_xform *local, ak_xform *model);
/* Aim's frame solve (aim.c): the local correction conj(W) W_new of the joint whose model
 * transform is *x (W its rotation) turning p->forward onto p->target (at least 1e-10 away) with
 * p->up kept toward p->up_model; 0 when a frame is degenerate. The scalar form, and the packed
 * one the solve uses where there is SSE (tests/ik/test_aim.c holds them equal). */
int ik_aim_frames_scalar(const ak_aim_ik_params *p, const ak_xform *x, ak_quat *correction);
#ifdef AK_HAVE_SSE
int ik_aim_frames_sse(const ak_aim_ik_params *p, const ak_xform *x, ak_quat *correction);
#endif
/* Limb IK's solve in model space (limb.c): the rotations r_upper_model (applied to the whole
 * limb about the upper joint) and r_middle_model (to the lower bone about the middle joint),
 * where the end joint lands at full weight, l1 + l2 and whether the target is out of reach.
 * The packed solve also writes the local corrections conj(W) R W of both joints (has_local 1),
 * which it computes first; the scalar one leaves them to the caller (has_local 0). */
typedef struct ik_limb_solution {
    ak_quat r_upper_model;
    ak_quat r_middle_model;
    ak_vec3 end_model;
    float reach;
    int unreachable;
    int has_local;
    ak_quat upper_local, middle_local;
} ik_limb_solution;
/* The scalar solve (every case; the reference) and, where there is SSE, the packed one the
 * solve tries first: it covers a bent limb (bend sine >= 1e-2) with a usable reference side and
 * returns 0 for everything else (the scalar solve then decides, with its error messages); this
 * entry point also fills the model-space rotations from its local corrections.
 * tests/ik/test_limb.c holds them equal over a sweep. Params must have passed validation. */
int32_t ik_limb_model_scalar(const ak_limb_ik_params *p, const ak_xform *model,
                             ik_limb_solution *out, ak_error *err);
#ifdef AK_HAVE_SSE
int ik_limb_model_sse(const ak_limb_ik_params *p, const ak_xform *model, ik_limb_solution *out);
#endif
int32_t ik_check_limits(const ak_ik_limit *limits, int32_t n, ak_error *err);
/* One CCD pass (tip to root) over the chain state; returns the new end-effector error. */
float ik_ccd_pass(ik_chain *c, ak_vec3 target, const float *joint_weights,
                  const ak_ik_limit *limits);

#endif
