/* Jacobian IK: pseudo-inverse and damped least squares (Buss, "Introduction to inverse
 * kinematics with Jacobian transpose, pseudoinverse and damped least squares methods", 2004).
 *
 * Unknowns: three rotation rates per rotating joint i, about the model-space x, y, z axes
 * through its position p_i. Rows: three per effector e (position p_e, target t_e, weight w_e).
 *   J[3e + r][3i + a] = w_e * (axis_a x (p_e - p_i))[r]   if effector e lies below joint i
 *   err[3e + r]       = w_e * (t_e - p_e)[r]
 *   dtheta = J^T y  with  (J J^T + lambda^2 I) y = err      (lambda = 0: pseudo-inverse)
 * With r_ei = w_e (p_e - p_i) the 3x3 block of J for (e, i) is -[r_ei]x (the cross-product
 * matrix), so J is never stored:
 *   (J J^T) block (e, f) = sum_i [r_ei]x [r_fi]x^T = sum_i (r_ei . r_fi) I - r_fi r_ei^T
 *   dtheta_i             = sum_e r_ei x y_e
 * over the joints i both effectors lie below. J J^T is only (3 x effectors)^2, so the dense
 * solve is a small LDL^T written here (no LAPACK). For the pseudo-inverse, pivots below 1e-6 of the
 * largest diagonal are dropped (a singular direction gets no motion). Each step is scaled so its
 * largest component is at most max_step radians, then applied: joint i turns by the rotation vector
 * dtheta_i (model space), local_i <- conj(P_i) R_i W_i with P_i, W_i its parent's and its own model
 * rotations. */
#include "ik/ik_internal.h"

#include <string.h>

ak_jacobian_ik_params ak_jacobian_ik_defaults(void)
{
    ak_jacobian_ik_params p;
    memset(&p, 0, sizeof p);
    p.skeleton = NULL;
    p.method = AK_JACOBIAN_DLS;
    p.target = ak_vec3_make(0.0f, 0.0f, 0.0f);
    p.damping = 0.05f;
    p.max_step = 0.0f; /* per method: 0.1 rad pseudo-inverse, 0.5 rad DLS */
    p.max_iterations = 100;
    p.tolerance = 1e-4f;
    p.weight = 1.0f;
    return p;
}

/* Workspace layout (all 4-byte words, 16-byte aligned start):
 *   a[rows*rows] err[rows] y[rows] r[rows] dtheta[cols] input[4*k] saved[4*k] top[k]
 *   below[k*m] */
static size_t workspace_words(int64_t k, int64_t m)
{
    const int64_t rows = 3 * m, cols = 3 * k;
    return (size_t)(rows * rows + 3 * rows + cols + 8 * k + k + k * m);
}

size_t ak_jacobian_ik_workspace_size(int32_t joint_count, int32_t effector_count)
{
    if (joint_count < 1 || effector_count < 1 || joint_count > 4096 || effector_count > 256)
        return 0;
    return workspace_words(joint_count, effector_count) * 4u + 16u;
}

/* The joints/effectors/targets a solve works on, whichever form the params use. */
typedef struct jac_problem {
    const int32_t *joints;
    int32_t k;
    const int32_t *effectors;
    const ak_vec3 *targets;
    const float *weights;
    int32_t m;
} jac_problem;

static void problem_of(const ak_jacobian_ik_params *p, jac_problem *q)
{
    if (p->effector_count > 0) {
        q->joints = p->joints;
        q->k = p->joint_count;
        q->effectors = p->effectors;
        q->targets = p->targets;
        q->weights = p->effector_weights;
        q->m = p->effector_count;
    } else {
        q->joints = p->chain;
        q->k = p->chain_length - 1;
        q->effectors = &p->chain[p->chain_length - 1]; /* after ik_check_chain: not NULL */
        q->targets = &p->target;
        q->weights = NULL;
        q->m = 1;
    }
}

static int32_t jacobian_ik_validate_shape(const ak_jacobian_ik_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "params is NULL");
    const ak_skeleton *s = p->skeleton;
    if (!s) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "skeleton is NULL");
    if (p->method != AK_JACOBIAN_PSEUDO_INVERSE && p->method != AK_JACOBIAN_DLS)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "unknown method %d", (int)p->method);
    int32_t st;
    if (p->effector_count < 0)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "effector_count is negative");
    if (p->effector_count == 0) {
        if ((st = ik_check_chain(s, p->chain, p->chain_length, err)) < 0) return st;
        if ((st = ik_check_vec(p->target, "target", err)) < 0) return st;
    } else {
        if (!p->joints || !p->effectors || !p->targets)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joints, effectors or targets is NULL");
        if (p->joint_count < 1)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint_count must be >= 1");
        for (int32_t i = 0; i < p->joint_count; ++i) {
            if ((st = ik_check_joint(s, p->joints[i], "joints[]", err)) < 0) return st;
            if (i > 0 && p->joints[i] <= p->joints[i - 1])
                return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                    "joints[] must be strictly ascending");
        }
        for (int32_t e = 0; e < p->effector_count; ++e) {
            if ((st = ik_check_joint(s, p->effectors[e], "effectors[]", err)) < 0) return st;
            if ((st = ik_check_vec(p->targets[e], "targets[]", err)) < 0) return st;
            if (p->effector_weights &&
                !(p->effector_weights[e] >= 0.0f && p->effector_weights[e] <= 1e6f))
                return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                    "effector_weights[%d] outside [0, 1e6]", (int)e);
        }
    }
    if (!(p->damping >= 0.0f) || !isfinite(p->damping))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "damping must be finite and >= 0");
    if (!(p->max_step >= 0.0f) || !isfinite(p->max_step))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "max_step must be finite and >= 0");
    if (p->max_iterations < 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "max_iterations must be >= 1");
    if (!(p->tolerance >= 0.0f) || !isfinite(p->tolerance))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "tolerance must be finite and >= 0");
    if ((st = ik_check_weight(p->weight, err)) < 0) return st;
    jac_problem q;
    problem_of(p, &q);
    if (q.k >= 1) {
        size_t need = ak_jacobian_ik_workspace_size(q.k, q.m);
        if (need == 0) return ak_error_set(err, AK_ERR_LIMIT, 0, "too many joints or effectors");
        if (!p->workspace || p->workspace_bytes < need)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "workspace needs %lu bytes",
                                (unsigned long)need);
    }
    return AK_OK;
}

int32_t ak_jacobian_ik_validate(const ak_jacobian_ik_params *p, ak_error *err)
{
    const int32_t st = jacobian_ik_validate_shape(p, err);
    return st < 0 ? st : ak_params_check(ak_jacobian_ik_param_ranges(), p, err);
}

/* Solves (A) y = b in place for the symmetric positive semi-definite n x n matrix A
 * (row-major) by LDL^T; pivots <= floor are treated as zero (that direction gets y = 0).
 * A's lower triangle is overwritten with L (unit diagonal implied) and its diagonal with D. */
static void ldlt_solve(float *a, int32_t n, float floor, const float *b, float *y)
{
    for (int32_t j = 0; j < n; ++j) {
        float d = a[j * n + j];
        for (int32_t k = 0; k < j; ++k)
            d -= a[j * n + k] * a[j * n + k] * a[k * n + k];
        const int keep = d > floor;
        a[j * n + j] = keep ? d : 0.0f;
        for (int32_t i = j + 1; i < n; ++i) {
            float v = a[i * n + j];
            for (int32_t k = 0; k < j; ++k)
                v -= a[i * n + k] * a[j * n + k] * a[k * n + k];
            a[i * n + j] = keep ? v / d : 0.0f;
        }
    }
    for (int32_t i = 0; i < n; ++i) { /* L z = b */
        float v = b[i];
        for (int32_t k = 0; k < i; ++k)
            v -= a[i * n + k] * y[k];
        y[i] = v;
    }
    for (int32_t i = 0; i < n; ++i)
        y[i] = a[i * n + i] > 0.0f ? y[i] / a[i * n + i] : 0.0f;
    for (int32_t i = n - 1; i >= 0; --i) { /* L^T y = z */
        float v = y[i];
        for (int32_t k = i + 1; k < n; ++k)
            v -= a[k * n + i] * y[k];
        y[i] = v;
    }
}

/* Quaternion of the rotation vector v (|v| = angle). Steps are small, so the half-angle sine
 * and cosine come from their Taylor series (truncation error below 2e-8 for half-angles up
 * to 0.25 rad); larger steps take sinf/cosf. */
static ak_quat rotation_vector_quat(ak_vec3 v, float angle)
{
    const float x = 0.5f * angle;
    float s_over_angle, c;
    if (x < 0.25f) {
        const float x2 = x * x;
        s_over_angle = 0.5f * (1.0f - x2 * (1.0f / 6.0f) * (1.0f - x2 * (1.0f / 20.0f)));
        c = 1.0f - x2 * 0.5f * (1.0f - x2 * (1.0f / 12.0f) * (1.0f - x2 * (1.0f / 30.0f)));
    } else {
        s_over_angle = sinf(x) / angle;
        c = cosf(x);
    }
    ak_quat q = {v.x * s_over_angle, v.y * s_over_angle, v.z * s_over_angle, c};
    return q;
}

/* One solve's state: the problem, its scales and the carved workspace. */
typedef struct jac_solve {
    const ak_jacobian_ik_params *p;
    const ak_skeleton *s;
    jac_problem q;
    int32_t k, m, rows;
    float scale_max; /* longest effector chain: tolerance, damping and clamp are relative to it */
    float tol_abs;
    float *a, *e_vec, *y, *dtheta;
    ak_vec3 *r_vec;
    ak_quat *input, *saved; /* rotations at the start; of the last accepted step */
    int32_t *top;           /* top[i]: no other rotating joint above joint i */
    int32_t *below;         /* below[i * m + e]: effector e lies below joint i */
} jac_solve;

AK_INLINE float effector_weight(const jac_solve *js, int32_t e)
{
    return js->q.weights ? js->q.weights[e] : 1.0f;
}

/* The largest effector-to-target distance. */
static float largest_error(const jac_solve *js, const ak_xform *model)
{
    float error = 0.0f;
    for (int32_t e = 0; e < js->m; ++e) {
        const float d = akv_len(akv_sub(js->q.targets[e], model[js->q.effectors[e]].translation));
        if (d > error || d != d) error = d;
    }
    return error;
}

/* Per-effector scale: the length of the path from the effector up to the topmost rotating
 * joint above it (its chain length); the longest one. NaN when the pose is not finite. */
static float longest_effector_chain(const jac_solve *js, const ak_xform *model)
{
    const ak_skeleton *s = js->s;
    float scale_max = 0.0f;
    for (int32_t e = 0; e < js->m; ++e) {
        float length = 0.0f;
        for (int32_t j = js->q.effectors[e];; j = s->parents[j]) {
            const int32_t parent = s->parents[j];
            int inside = 0;
            for (int32_t i = 0; i < js->k && parent >= 0 && !inside; ++i)
                inside = ik_is_in_subtree(s, js->q.joints[i], parent);
            if (!inside) break;
            length += akv_len(akv_sub(model[j].translation, model[parent].translation));
        }
        if (!isfinite(length)) return NAN;
        if (length > scale_max) scale_max = length;
    }
    return scale_max;
}

/* A rotating joint or an effector sitting on its nearest rotating ancestor is a zero-length
 * bone of the chain: rejected like the other solvers do. */
static int32_t check_bone_lengths(const jac_solve *js, const ak_xform *model, ak_error *err)
{
    const int32_t k = js->k;
    for (int32_t x = 1; x < k + js->m; ++x) {
        const int32_t j = x < k ? js->q.joints[x] : js->q.effectors[x - k];
        int32_t anc = -1;
        for (int32_t o = 0; o < k && o < (x < k ? x : k); ++o)
            if (js->q.joints[o] != j && ik_is_in_subtree(js->s, js->q.joints[o], j))
                anc = js->q.joints[o];
        if (anc >= 0 && !(akv_len(akv_sub(model[j].translation, model[anc].translation)) >
                          1e-6f * js->scale_max))
            return ak_error_set(err, AK_ERR_DEGENERATE, 0,
                                "zero-length bone between joints %d and %d", (int)anc, (int)j);
    }
    return AK_OK;
}

/* Validation, scales, reach and bone checks; res gets the starting error and `unreachable`. */
static int32_t prepare(jac_solve *js, const ak_jacobian_ik_params *p, const ak_xform *model,
                       ak_ik_result *res, ak_error *err)
{
    js->p = p;
    js->s = p->skeleton;
    problem_of(p, &js->q);
    js->k = js->q.k;
    js->m = js->q.m;
    js->rows = 3 * js->m;
    js->scale_max = longest_effector_chain(js, model);
    if (!isfinite(js->scale_max))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "pose is not finite");
    for (int32_t e = 0; e < js->m; ++e) {
        const int32_t st = ik_check_range(model[js->q.effectors[e]].translation, js->q.targets[e],
                                          2.0f * js->scale_max, err);
        if (st < 0) return st;
    }
    js->tol_abs = p->tolerance * js->scale_max;
    for (int32_t e = 0; e < js->m && js->k >= 1; ++e)
        if (akv_len(akv_sub(js->q.targets[e], model[js->q.joints[0]].translation)) - js->scale_max >
            js->tol_abs)
            res->unreachable = 1;
    res->error = largest_error(js, model);
    if (!isfinite(res->error))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "pose is not finite");
    return check_bone_lengths(js, model, err);
}

/* Carves the caller's workspace (layout: see workspace_words) and records the input pose. */
static void carve_workspace(jac_solve *js, const ak_xform *local)
{
    const int32_t k = js->k, m = js->m, rows = js->rows;
    const uintptr_t base = ((uintptr_t)js->p->workspace + 15u) & ~(uintptr_t)15u;
    js->a = (float *)base;
    js->e_vec = js->a + (size_t)rows * (size_t)rows;
    js->y = js->e_vec + rows;
    js->r_vec = (ak_vec3 *)(void *)(js->y + rows);
    js->dtheta = (float *)(void *)(js->r_vec + m);
    js->input = (ak_quat *)(void *)(js->dtheta + 3 * k);
    js->saved = js->input + k;
    js->top = (int32_t *)(void *)(js->saved + k);
    js->below = js->top + k;
    for (int32_t i = 0; i < k; ++i) {
        js->input[i] = local[js->q.joints[i]].rotation;
        js->top[i] = 1;
        for (int32_t o = 0; o < i && js->top[i]; ++o)
            if (ik_is_in_subtree(js->s, js->q.joints[o], js->q.joints[i])) js->top[i] = 0;
        for (int32_t e = 0; e < m; ++e)
            js->below[i * m + e] = ik_is_in_subtree(js->s, js->q.joints[i], js->q.effectors[e]);
    }
}

static void refresh_world(const jac_solve *js, const ak_xform *local, ak_xform *model)
{
    for (int32_t i = 0; i < js->k; ++i)
        if (js->top[i]) ak_fk_subtree(js->s, local, model, js->q.joints[i]);
}

/* The weighted squared error (the objective the trust region watches). */
static float objective_of(const jac_solve *js, const ak_xform *model)
{
    float objective = 0.0f;
    for (int32_t e = 0; e < js->m; ++e) {
        const float w = effector_weight(js, e);
        const ak_vec3 d = akv_sub(js->q.targets[e], model[js->q.effectors[e]].translation);
        objective += w * w * akv_dot(d, d);
    }
    return objective;
}

/* The stacked error vector with Buss's clamp: each step aims at most err_clamp toward the
 * target, so far or unreachable targets do not make the linearisation overshoot. Returns the
 * largest effector error. */
static float error_vector(const jac_solve *js, const ak_xform *model)
{
    const float err_clamp = 0.5f * js->scale_max;
    float error = 0.0f;
    for (int32_t e = 0; e < js->m; ++e) {
        const float w = effector_weight(js, e);
        const ak_vec3 d = akv_sub(js->q.targets[e], model[js->q.effectors[e]].translation);
        const float len = akv_len(d);
        if (len > error) error = len;
        const float c = len > err_clamp ? w * err_clamp / len : w;
        js->e_vec[3 * e + 0] = c * d.x;
        js->e_vec[3 * e + 1] = c * d.y;
        js->e_vec[3 * e + 2] = c * d.z;
    }
    return error;
}

/* A = J J^T + lambda^2 I, block by block from the lever arms r_ei (see the top of the file).
 * Returns the largest diagonal entry (the pivot floor is relative to it). */
static float normal_matrix(const jac_solve *js, const ak_xform *model, float lambda2)
{
    const int32_t m = js->m, rows = js->rows;
    float *a = js->a;
    memset(a, 0, sizeof(float) * (size_t)rows * (size_t)rows);
    for (int32_t i = 0; i < js->k; ++i) {
        const ak_vec3 pi = model[js->q.joints[i]].translation;
        const int32_t *bi = js->below + i * m;
        for (int32_t e = 0; e < m; ++e)
            if (bi[e])
                js->r_vec[e] = akv_scale(akv_sub(model[js->q.effectors[e]].translation, pi),
                                         effector_weight(js, e));
        for (int32_t e = 0; e < m; ++e) {
            if (!bi[e]) continue;
            const float re[3] = {js->r_vec[e].x, js->r_vec[e].y, js->r_vec[e].z};
            for (int32_t f = 0; f <= e; ++f) {
                if (!bi[f]) continue;
                const float rf[3] = {js->r_vec[f].x, js->r_vec[f].y, js->r_vec[f].z};
                const float d = re[0] * rf[0] + re[1] * rf[1] + re[2] * rf[2];
                float *blk = a + (size_t)(3 * e) * (size_t)rows + (size_t)(3 * f);
                for (int32_t u = 0; u < 3; ++u)
                    for (int32_t v = 0; v < 3; ++v)
                        blk[u * rows + v] += (u == v ? d : 0.0f) - rf[u] * re[v];
            }
        }
    }
    float diag_max = 0.0f;
    for (int32_t r = 0; r < rows; ++r) {
        for (int32_t c = 0; c < r; ++c)
            a[c * rows + r] = a[r * rows + c];
        a[r * rows + r] += lambda2;
        if (a[r * rows + r] > diag_max) diag_max = a[r * rows + r];
    }
    return diag_max;
}

/* dtheta_i = sum_e r_ei x y_e. Returns the largest component (NaN propagates). */
static float joint_rates(const jac_solve *js, const ak_xform *model)
{
    float biggest = 0.0f;
    for (int32_t i = 0; i < js->k; ++i) {
        const ak_vec3 pi = model[js->q.joints[i]].translation;
        ak_vec3 sum = {0.0f, 0.0f, 0.0f};
        for (int32_t e = 0; e < js->m; ++e) {
            if (!js->below[i * js->m + e]) continue;
            const ak_vec3 r = akv_scale(akv_sub(model[js->q.effectors[e]].translation, pi),
                                        effector_weight(js, e));
            const ak_vec3 ye = {js->y[3 * e], js->y[3 * e + 1], js->y[3 * e + 2]};
            sum = akv_add(sum, akv_cross(r, ye));
        }
        js->dtheta[3 * i] = sum.x;
        js->dtheta[3 * i + 1] = sum.y;
        js->dtheta[3 * i + 2] = sum.z;
        const float mx = akf_max(fabsf(sum.x), akf_max(fabsf(sum.y), fabsf(sum.z)));
        if (mx > biggest || mx != mx) biggest = mx;
    }
    return biggest;
}

/* Turns every joint by its scaled rotation vector, from the current (old) model rotations:
 * local_i <- conj(P_i) R_i W_i, then FK below the chain. */
static void apply_step(const jac_solve *js, float step_scale, ak_xform *local, ak_xform *model)
{
    for (int32_t i = 0; i < js->k; ++i) {
        const ak_vec3 v = {js->dtheta[3 * i] * step_scale, js->dtheta[3 * i + 1] * step_scale,
                           js->dtheta[3 * i + 2] * step_scale};
        const float angle = akv_len(v);
        if (!(angle > 1e-12f)) continue;
        const ak_quat r = rotation_vector_quat(v, angle);
        const int32_t j = js->q.joints[i], parent = js->s->parents[j];
        const ak_quat parent_rot = parent < 0 ? akq_identity() : model[parent].rotation;
        local[j].rotation =
            akq_normalize(akq_mul(akq_conj(parent_rot), akq_mul(r, model[j].rotation)));
    }
    refresh_world(js, local, model);
}

/* The trust region: a step that made the weighted squared error worse is undone and the step
 * limit halved (it regrows after accepted steps), which stops the iteration from oscillating
 * around singular poses such as a chain straightened toward an unreachable target. Returns 0
 * when the limit has shrunk to nothing (stop). */
typedef struct jac_trust {
    float max_step, step_limit, accepted;
} jac_trust;

static int trust_update(const jac_solve *js, jac_trust *t, ak_xform *local, ak_xform *model)
{
    const float objective = objective_of(js, model);
    if (objective > t->accepted) {
        for (int32_t i = 0; i < js->k; ++i)
            local[js->q.joints[i]].rotation = js->saved[i];
        refresh_world(js, local, model);
        t->step_limit *= 0.5f;
        return t->step_limit >= 1e-4f * t->max_step;
    }
    t->accepted = objective;
    for (int32_t i = 0; i < js->k; ++i)
        js->saved[i] = local[js->q.joints[i]].rotation;
    t->step_limit = akf_min(t->max_step, 2.0f * t->step_limit);
    return 1;
}

/* The stall watch (issue 10): every JAC_STALL_WINDOW iterations the best error must have
 * dropped by more than a thousandth of the tolerance plus 1e-5 of the smaller of itself and
 * the chain length, or the solve stops: an unreachable target, or a singular pose the steps
 * cannot leave, no longer runs to max_iterations (2e9 iterations used to take minutes).
 * Converging solves shrink the error geometrically and never trip it. */
#define JAC_STALL_WINDOW 16

typedef struct jac_stall {
    float best, window_start;
    int32_t since;
} jac_stall;

static int stalled(jac_stall *w, float error, const jac_solve *js)
{
    if (error < w->best) w->best = error;
    if (++w->since < JAC_STALL_WINDOW) return 0;
    const float scale = akf_min(w->window_start, js->scale_max);
    const int stuck = !(w->best < w->window_start - 1e-3f * js->tol_abs - 1e-5f * scale);
    w->window_start = w->best;
    w->since = 0;
    return stuck;
}

/* Iterates from the current pose (its error start_error); returns the iterations used. */
static int32_t iterate(const jac_solve *js, float start_error, ak_xform *local, ak_xform *model)
{
    const ak_jacobian_ik_params *p = js->p;
    const float lambda = p->method == AK_JACOBIAN_DLS ? p->damping * js->scale_max : 0.0f;
    const float max_step =
        p->max_step > 0.0f ? p->max_step : (p->method == AK_JACOBIAN_DLS ? 0.5f : 0.1f);
    jac_trust trust = {max_step, max_step, INFINITY};
    jac_stall stall = {start_error, start_error, 0};
    int32_t it = 0;
    while (it < p->max_iterations) {
        if (!trust_update(js, &trust, local, model)) break;
        const float error = error_vector(js, model);
        if (error <= js->tol_abs || stalled(&stall, error, js)) break;
        ++it;
        const float diag_max = normal_matrix(js, model, lambda * lambda);
        ldlt_solve(js->a, js->rows, 1e-6f * diag_max + FLT_MIN, js->e_vec, js->y);
        const float biggest = joint_rates(js, model);
        if (!(biggest > 0.0f) || !isfinite(biggest)) break;
        apply_step(js, biggest > trust.step_limit ? trust.step_limit / biggest : 1.0f, local,
                   model);
    }
    return it;
}

IK_FLATTEN int32_t ak_jacobian_ik_run(const ak_jacobian_ik_params *p, ak_xform *local,
                                      ak_xform *model, ak_ik_result *result, ak_error *err)
{
    ak_ik_result res = {0, 0, 0, 0.0f};
    jac_solve js;
    memset(&js, 0, sizeof js);
    int32_t st = ak_jacobian_ik_validate(p, err);
    if (st == AK_OK && (!local || !model))
        st = ak_error_set(err, AK_ERR_INVALID_ARG, 0, "NULL pose");
    if (st == AK_OK) st = prepare(&js, p, model, &res, err);
    if (st < 0) {
        res.unreachable = 0;
        res.error = 0.0f;
        if (result) *result = res;
        return st;
    }
    if (p->weight > 0.0f && js.k >= 1) {
        carve_workspace(&js, local);
        res.iterations = iterate(&js, res.error, local, model);
        if (p->weight < 1.0f) {
            for (int32_t i = 0; i < js.k; ++i) {
                const int32_t j = js.q.joints[i];
                local[j].rotation =
                    akq_normalize(akq_slerp(js.input[i], local[j].rotation, p->weight));
            }
            refresh_world(&js, local, model);
        }
        res.error = largest_error(&js, model);
    }
    res.reached = res.error <= js.tol_abs;
    if (result) *result = res;
    return AK_OK;
}
