/* Chain state shared by CCD, FABRIK and the look-at chain, and joint limits.
 *
 * A chain joint's model rotation is rot[i] = parent_rot(i) * local[i] with
 * parent_rot(i) = rot[i-1] * link[i], and the next chain joint sits at
 * pos[i+1] = pos[i] + rot[i] * offset[i]. Joints between two chain joints (when the chain
 * skips over one) are rigid during the solve, which is what link[] and offset[] encode. */
#include "ik/ik_internal.h"

int32_t ik_check_chain(const ak_skeleton *s, const int32_t *chain, int32_t n, ak_error *err)
{
    if (!chain) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "chain is NULL");
    if (n < 1 || n > AK_IK_MAX_CHAIN)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "chain length %d outside [1, %d]", (int)n,
                            AK_IK_MAX_CHAIN);
    for (int32_t i = 0; i < n; ++i) {
        int32_t st = ik_check_joint(s, chain[i], "chain", err);
        if (st < 0) return st;
        if (i > 0 && (chain[i] == chain[i - 1] || !ik_is_in_subtree(s, chain[i - 1], chain[i])))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "chain joint %d (index %d) is not below the previous one", (int)i,
                                (int)chain[i]);
    }
    return AK_OK;
}

int32_t ik_check_limits(const ak_ik_limit *limits, int32_t n, ak_error *err)
{
    if (!limits) return AK_OK;
    for (int32_t i = 0; i + 1 < n; ++i) {
        const ak_ik_limit *l = &limits[i];
        if (l->type == AK_IK_LIMIT_NONE) continue;
        if (l->type != AK_IK_LIMIT_HINGE && l->type != AK_IK_LIMIT_CONE)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "limit %d: unknown type", (int)i);
        if (!akv_finite(l->axis) || !isfinite(l->min_angle) || !isfinite(l->max_angle) ||
            !isfinite(l->cone_angle))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "limit %d: not finite", (int)i);
        if (l->type == AK_IK_LIMIT_HINGE && !(akv_dot(l->axis, l->axis) > 1e-12f))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "limit %d: hinge axis is zero", (int)i);
        if (!(l->min_angle <= l->max_angle) || l->min_angle < -AK_PI - 1e-5f ||
            l->max_angle > AK_PI + 1e-5f)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "limit %d: need -pi <= min_angle <= max_angle <= pi", (int)i);
        if (l->type == AK_IK_LIMIT_CONE &&
            !(l->cone_angle >= 0.0f && l->cone_angle <= AK_PI + 1e-5f))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "limit %d: cone_angle outside [0, pi]",
                                (int)i);
    }
    return AK_OK;
}

ak_ik_limit ak_ik_limit_none(void)
{
    ak_ik_limit l = {AK_IK_LIMIT_NONE, {0.0f, 0.0f, 0.0f}, -AK_PI, AK_PI, AK_PI};
    return l;
}

ak_ik_limit ak_ik_limit_hinge(ak_vec3 axis, float min_angle, float max_angle)
{
    ak_ik_limit l = {AK_IK_LIMIT_HINGE, axis, min_angle, max_angle, 0.0f};
    return l;
}

ak_ik_limit ak_ik_limit_cone(ak_vec3 axis, float cone_angle, float twist_min, float twist_max)
{
    ak_ik_limit l = {AK_IK_LIMIT_CONE, axis, twist_min, twist_max, cone_angle};
    return l;
}

/* Swing-twist decomposition about the unit axis a: twist = normalize(a (q.xyz . a), q.w),
 * swing = q * conj(twist). The twist angle is 2 atan2(q.xyz . a, q.w) in (-pi, pi]. */
ak_quat ak_ik_limit_apply(const ak_ik_limit *l, ak_quat q, ak_vec3 bone_axis)
{
    q = akq_normalize(q);
    if (!l || l->type == AK_IK_LIMIT_NONE) return q;
    ak_vec3 a = l->axis;
    if (!(akv_dot(a, a) > 1e-12f) || !akv_finite(a)) a = bone_axis;
    float a_len = akv_len(a);
    if (!(a_len > 1e-12f) || !isfinite(a_len)) return q;
    a = akv_scale(a, 1.0f / a_len);
    if (q.w < 0.0f) q = (ak_quat){-q.x, -q.y, -q.z, -q.w};

    const ak_vec3 v = {q.x, q.y, q.z};
    const float proj = akv_dot(v, a);
    float twist_angle = 2.0f * atan2f(proj, q.w);
    float clamped = akf_clamp(twist_angle, l->min_angle, l->max_angle);
    ak_quat twist = akq_axis_angle(a, clamped);
    if (l->type == AK_IK_LIMIT_HINGE) return twist;

    /* Cone: the swing part (what remains after removing the twist) tilts the axis. */
    ak_quat raw_twist = {a.x * proj, a.y * proj, a.z * proj, q.w};
    float rt2 = akq_dot(raw_twist, raw_twist);
    ak_quat swing;
    if (rt2 > 1e-12f) {
        swing = akq_mul(q, akq_conj(akq_normalize(raw_twist)));
    } else {
        /* Twist undefined (a half turn that flips the axis): q is all swing. */
        swing = q;
    }
    if (swing.w < 0.0f) swing = (ak_quat){-swing.x, -swing.y, -swing.z, -swing.w};
    const float swing_angle =
        2.0f * atan2f(akf_sqrt(swing.x * swing.x + swing.y * swing.y + swing.z * swing.z), swing.w);
    if (swing_angle > l->cone_angle) {
        ak_vec3 axis = {swing.x, swing.y, swing.z};
        float len = akv_len(axis);
        swing = len > 1e-12f ? akq_axis_angle(akv_scale(axis, 1.0f / len), l->cone_angle)
                             : akq_identity();
    }
    return akq_normalize(akq_mul(swing, twist));
}

int32_t ik_chain_load(ik_chain *c, const ak_skeleton *s, const int32_t *chain, int32_t n,
                      const ak_xform *local, const ak_xform *model, int allow_zero, ak_error *err)
{
    c->n = n;
    c->joints = chain;
    c->total = 0.0f;
    for (int32_t i = 0; i < n; ++i) {
        const int32_t j = chain[i];
        if (!akv_finite(model[j].translation) || !akq_finite(model[j].rotation) ||
            !akq_finite(local[j].rotation))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "pose is not finite at joint %d",
                                (int)j);
        c->pos[i] = model[j].translation;
        c->rot[i] = model[j].rotation;
        c->local[i] = local[j].rotation;
        c->input[i] = local[j].rotation;
        c->rest[i] = s->rest_local[j].rotation;
        const int32_t parent = s->parents[j];
        const ak_quat parent_rot = parent < 0 ? akq_identity() : model[parent].rotation;
        c->link[i] =
            i == 0 ? parent_rot
                   : akq_normalize(akq_mul(akq_conj(model[chain[i - 1]].rotation), parent_rot));
        if (i > 0) {
            ak_vec3 bone = akv_sub(model[j].translation, model[chain[i - 1]].translation);
            c->offset[i - 1] = akq_rotate(akq_conj(model[chain[i - 1]].rotation), bone);
            c->length[i - 1] = akv_len(bone);
            c->total += c->length[i - 1];
        }
    }
    c->offset[n - 1] = (ak_vec3){0.0f, 0.0f, 0.0f};
    c->length[n - 1] = 0.0f;
    if (!isfinite(c->total)) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "chain is not finite");
    for (int32_t i = 0; i + 1 < n && !allow_zero; ++i)
        if (!(c->length[i] > 1e-6f * c->total))
            return ak_error_set(err, AK_ERR_DEGENERATE, 0,
                                "zero-length bone between chain joints %d and %d", (int)chain[i],
                                (int)chain[i + 1]);
    return AK_OK;
}

void ik_chain_fk_from(ik_chain *c, int32_t k)
{
    for (int32_t i = k; i < c->n; ++i) {
        c->rot[i] = akq_mul(ik_chain_parent_rot(c, i), c->local[i]);
        if (i + 1 < c->n) c->pos[i + 1] = akv_add(c->pos[i], akq_rotate(c->rot[i], c->offset[i]));
    }
}

void ik_chain_set_rot(ik_chain *c, int32_t i, ak_quat rot_model, const ak_ik_limit *limit)
{
    const ak_quat parent = ik_chain_parent_rot(c, i);
    ak_quat q = akq_normalize(akq_mul(akq_conj(parent), rot_model));
    if (limit && limit->type != AK_IK_LIMIT_NONE) {
        const ak_quat rel = akq_mul(akq_conj(c->rest[i]), q);
        q = akq_normalize(akq_mul(c->rest[i], ak_ik_limit_apply(limit, rel, c->offset[i])));
    }
    c->local[i] = q;
    c->rot[i] = akq_mul(parent, q);
}

void ik_chain_store(const ik_chain *c, const ak_skeleton *s, int32_t count, float weight,
                    ak_xform *local, ak_xform *model)
{
    for (int32_t i = 0; i < count; ++i) {
        ak_quat q = c->local[i];
        if (weight < 1.0f) q = akq_normalize(akq_slerp(c->input[i], q, weight));
        local[c->joints[i]].rotation = q;
    }
    ak_fk_subtree(s, local, model, c->joints[0]);
}

/* ---- The chain solvers' shared params (CCD and FABRIK) and their common start ---- */

ak_chain_ik_params ak_chain_ik_defaults(void)
{
    ak_chain_ik_params p;
    p.skeleton = NULL;
    p.chain = NULL;
    p.chain_length = 0;
    p.target = ak_vec3_make(0.0f, 0.0f, 0.0f);
    p.joint_weights = NULL;
    p.limits = NULL;
    p.max_iterations = 100;
    p.tolerance = 1e-4f;
    p.weight = 1.0f;
    return p;
}

static int32_t chain_ik_validate_shape(const ak_chain_ik_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "params is NULL");
    if (!p->skeleton) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "skeleton is NULL");
    int32_t st = ik_check_chain(p->skeleton, p->chain, p->chain_length, err);
    if (st < 0) return st;
    if ((st = ik_check_vec(p->target, "target", err)) < 0) return st;
    if (p->joint_weights)
        for (int32_t i = 0; i + 1 < p->chain_length; ++i)
            if (!(p->joint_weights[i] >= 0.0f && p->joint_weights[i] <= 1.0f))
                return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint_weights[%d] outside [0, 1]",
                                    (int)i);
    if ((st = ik_check_limits(p->limits, p->chain_length, err)) < 0) return st;
    if (p->max_iterations < 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "max_iterations must be >= 1");
    if (!(p->tolerance >= 0.0f) || !isfinite(p->tolerance))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "tolerance must be finite and >= 0");
    return ik_check_weight(p->weight, err);
}

int32_t ak_chain_ik_validate(const ak_chain_ik_params *p, ak_error *err)
{
    const int32_t st = chain_ik_validate_shape(p, err);
    return st < 0 ? st : ak_params_check(ak_chain_ik_param_ranges(), p, err);
}

int32_t ik_chain_begin(ik_chain *c, const ak_chain_ik_params *p, const ak_xform *local,
                       const ak_xform *model, ak_error *err)
{
    int32_t st = ak_chain_ik_validate(p, err);
    if (st == AK_OK && (!local || !model))
        st = ak_error_set(err, AK_ERR_INVALID_ARG, 0, "NULL pose");
    if (st == AK_OK)
        st = ik_chain_load(c, p->skeleton, p->chain, p->chain_length, local, model, 0, err);
    if (st == AK_OK) st = ik_check_range(c->pos[0], p->target, c->total, err);
    return st;
}

int32_t ik_chain_solve_begin(ik_chain *c, ik_chain_solve *s, const ak_chain_ik_params *p,
                             const ak_xform *local, const ak_xform *model, ak_ik_result *result,
                             ak_error *err)
{
    const ak_ik_result zero = {0, 0, 0, 0.0f};
    s->res = zero;
    const int32_t st = ik_chain_begin(c, p, local, model, err);
    if (st < 0) {
        if (result) *result = zero;
        return st;
    }
    const int32_t n = c->n;
    s->tol = p->tolerance * c->total;
    s->error = akv_len(akv_sub(c->pos[n - 1], p->target));
    s->res.unreachable = akv_len(akv_sub(p->target, c->pos[0])) - c->total > s->tol;
    if (p->weight <= 0.0f || n < 2) {
        s->res.error = s->error;
        s->res.reached = s->error <= s->tol;
        if (result) *result = s->res;
        return AK_OK;
    }
    return 1;
}

int32_t ik_chain_solve_end(const ik_chain *c, ik_chain_solve *s, const ak_chain_ik_params *p,
                           int32_t iterations, ak_xform *local, ak_xform *model,
                           ak_ik_result *result)
{
    const int32_t n = c->n;
    ik_chain_store(c, p->skeleton, n - 1, p->weight, local, model);
    s->res.iterations = iterations;
    s->res.error = akv_len(akv_sub(model[p->chain[n - 1]].translation, p->target));
    s->res.reached = s->res.error <= s->tol;
    if (result) *result = s->res;
    return AK_OK;
}
