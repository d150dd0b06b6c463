/* Aim and look-at.
 *
 * Aim (as ozz-animation's IKAimJob, without its offset): with the joint's model rotation W and
 * position p, forward_model = W forward and to_target = target - p,
 *   R1 = shortest rotation forward_model -> to_target, limited to (1 - clamp_weight) * pi;
 *   R2 = twist about the new forward taking the projection of R1 W up onto the plane
 *        perpendicular to it to the projection of up_model (the "keep upright" part);
 *   correction (joint-local) = conj(W) (R2 R1) W.
 * Without a clamp this rotation is computed directly as a change of frame (aim_by_frames:
 * the local frame (forward, up) onto the model frame (aim direction, up_model made
 * perpendicular)), the same rotation with half the dependency chain; with a clamp, or when a
 * frame is degenerate, R1 and R2 are built from their half-angle forms (no trig).
 *
 * Look-at over a chain: for i = 0..n-1 joint i turns by joint_weights[i] of the shortest
 * rotation that points the last joint's forward axis at the target (as seen from the last
 * joint's current position); the last joint takes weight 1 so it lands exactly, then its up
 * axis is twisted upright. The clamp moves the target toward the initial forward so the total
 * turn is at most (1 - clamp_weight) * pi. */
#include "ik/ik_internal.h"

#include <stddef.h>
#include <string.h>

static ak_vec3 unit_or_zero(ak_vec3 v)
{
    float l = akv_len(v);
    return l > 1e-12f && isfinite(l) ? akv_scale(v, 1.0f / l) : (ak_vec3){0.0f, 0.0f, 0.0f};
}

/* Angle between two vectors in [0, pi]. */
static float angle_between(ak_vec3 a, ak_vec3 b)
{
    return atan2f(akv_len(akv_cross(a, b)), akv_dot(a, b));
}

/* The twist about unit `axis` that brings `joint_up_model` as close as possible to `up_model`. */
static ak_quat upright_twist(ak_vec3 axis, ak_vec3 joint_up_model, ak_vec3 up_model)
{
    const ak_vec3 u = akv_sub(joint_up_model, akv_scale(axis, akv_dot(joint_up_model, axis)));
    const ak_vec3 w = akv_sub(up_model, akv_scale(axis, akv_dot(up_model, axis)));
    if (!(akv_dot(u, u) > 1e-10f) || !(akv_dot(w, w) > 1e-10f)) return akq_identity();
    return akq_twist_between(u, w, axis);
}

static int32_t check_aim_common(const ak_skeleton *s, ak_vec3 target, ak_vec3 forward, ak_vec3 up,
                                ak_vec3 up_model, float clamp_weight, float tolerance, float weight,
                                ak_error *err)
{
    int32_t st;
    if (!s) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "skeleton is NULL");
    if ((st = ik_check_vec(target, "target", err)) < 0) return st;
    if ((st = ik_check_vec(forward, "forward", err)) < 0) return st;
    if ((st = ik_check_vec(up, "up", err)) < 0) return st;
    if ((st = ik_check_vec(up_model, "up_model", err)) < 0) return st;
    const float f2 = akv_dot(forward, forward), u2 = akv_dot(up, up),
                w2 = akv_dot(up_model, up_model);
    if (!(f2 > 1e-12f) || !isfinite(f2))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "forward axis is zero or too long");
    if (!isfinite(u2) || !isfinite(w2))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "up or up_model is too long");
    if (!(clamp_weight >= 0.0f && clamp_weight <= 1.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clamp_weight must be in [0, 1]");
    if (!(tolerance >= 0.0f) || !isfinite(tolerance))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "tolerance must be finite and >= 0");
    return ik_check_weight(weight, err);
}

/* The aiming fields aim and look-at share (same names in both params structs), with their
 * one set of defaults. */
#define SET_AIM_DEFAULTS(p)                                                                        \
    do {                                                                                           \
        (p).target = ak_vec3_make(0.0f, 0.0f, 0.0f);                                               \
        (p).forward = ak_vec3_make(0.0f, 0.0f, 1.0f);                                              \
        (p).up = ak_vec3_make(0.0f, 1.0f, 0.0f);                                                   \
        (p).up_model = ak_vec3_make(0.0f, 1.0f, 0.0f);                                             \
        (p).clamp_weight = 0.0f;                                                                   \
        (p).tolerance = 1e-3f;                                                                     \
        (p).weight = 1.0f;                                                                         \
    } while (0)

ak_aim_ik_params ak_aim_ik_defaults(void)
{
    ak_aim_ik_params p;
    p.skeleton = NULL;
    p.joint = -1;
    SET_AIM_DEFAULTS(p);
    return p;
}

/* The range table's bounds (param_ranges.c) over the 15 consecutive floats target..weight in
 * one pass: inside them every field is finite, so with a non-null skeleton, a joint in range
 * and a non-zero forward axis the params are valid, and the field-by-field checks (70 % of a
 * solve's validation) run only when this fails, for their messages. The bounds must equal the
 * table's: tests/ik/test_param_ranges.c probes every row through _validate. */
enum { AIM_FLOATS = 15 };
_Static_assert(offsetof(ak_aim_ik_params, weight) - offsetof(ak_aim_ik_params, target) ==
                   (AIM_FLOATS - 1) * sizeof(float),
               "ak_aim_ik_params: target..weight are consecutive floats");
static inline int aim_valid_fast(const ak_aim_ik_params *p)
{
    const char *f = (const char *)p + offsetof(ak_aim_ik_params, target);
#ifdef AK_HAVE_SSE
    /* Four loads straight from the params: floats 0-3, 4-7, 8-11 and 11-14 (the last overlaps
     * by one, so nothing past weight is read). */
    static const float lo[16] = {-1e6f, -1e6f, -1e6f, -1e6f, -1e6f, -1e6f, -1e6f, -1e6f,
                                 -1e6f, -1e6f, -1e6f, -1e6f, -1e6f, 0.0f,  0.0f,  0.0f};
    static const float hi[16] = {1e6f, 1e6f, 1e6f, 1e6f, 1e6f, 1e6f, 1e6f,        1e6f,
                                 1e6f, 1e6f, 1e6f, 1e6f, 1e6f, 1.0f, 3.14159265f, 1.0f};
    __m128 in = _mm_castsi128_ps(_mm_set1_epi32(-1));
    for (int i = 0; i < 4; ++i) {
        const __m128 x =
            _mm_loadu_ps((const float *)(const void *)(f + sizeof(float) * (i < 3 ? 4 * i : 11)));
        in = _mm_and_ps(in, _mm_and_ps(_mm_cmpge_ps(x, _mm_loadu_ps(lo + 4 * i)),
                                       _mm_cmple_ps(x, _mm_loadu_ps(hi + 4 * i))));
    }
    const int within = _mm_movemask_ps(in) == 0xF;
#else
    /* Padded to 16 (the last lane 0 in [0, 0]) for ik_floats_within. */
    static const float lo[16] = {-1e6f, -1e6f, -1e6f, -1e6f, -1e6f, -1e6f, -1e6f, -1e6f,
                                 -1e6f, -1e6f, -1e6f, -1e6f, 0.0f,  0.0f,  0.0f,  0.0f};
    static const float hi[16] = {1e6f, 1e6f, 1e6f, 1e6f, 1e6f, 1e6f,        1e6f, 1e6f,
                                 1e6f, 1e6f, 1e6f, 1e6f, 1.0f, 3.14159265f, 1.0f, 0.0f};
    float v[16] = {0.0f};
    memcpy(v, f, AIM_FLOATS * sizeof(float));
    const int within = ik_floats_within(v, lo, hi, 16);
#endif
    return p->skeleton && p->joint >= 0 && p->joint < p->skeleton->joint_count &&
           within & (akv_dot(p->forward, p->forward) > 1e-12f);
}

static int32_t aim_validate(const ak_aim_ik_params *p, ak_error *err)
{
    if (p && aim_valid_fast(p)) return AK_OK;
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "params is NULL");
    int32_t st = check_aim_common(p->skeleton, p->target, p->forward, p->up, p->up_model,
                                  p->clamp_weight, p->tolerance, p->weight, err);
    if (st < 0) return st;
    st = ik_check_joint(p->skeleton, p->joint, "aim", err);
    if (st < 0) return st;
    return ak_params_check(ak_aim_ik_param_ranges(), p, err);
}

int32_t ak_aim_ik_validate(const ak_aim_ik_params *p, ak_error *err)
{
    return aim_validate(p, err);
}

/* The model-space rotation of the aim, before weighting. The aim direction after R1 is the
 * target direction itself, and the up axis after R1 is R1 (W up), so nothing waits on a
 * second rotation of the forward axis. */
static ak_quat aim_rotation_model(ak_quat w, ak_vec3 pos, ak_vec3 forward, ak_vec3 up,
                                  ak_vec3 target, ak_vec3 up_model, float clamp_weight)
{
    const ak_vec3 forward_model = akq_rotate(w, forward);
    const ak_vec3 to_target = akv_sub(target, pos);
    const float to_len2 = akv_dot(to_target, to_target);
    if (!(to_len2 > 1e-20f)) return akq_identity();
    ak_quat r1 = akq_from_to(forward_model, to_target);
    ak_vec3 aim = akv_scale(to_target, 1.0f / akf_sqrt(to_len2));
    if (clamp_weight > 0.0f) {
        const float max_angle = (1.0f - clamp_weight) * AK_PI;
        const float angle = 2.0f * atan2f(akf_sqrt(r1.x * r1.x + r1.y * r1.y + r1.z * r1.z), r1.w);
        if (angle > max_angle) {
            r1 = max_angle > 0.0f ? akq_normalize(akq_slerp(akq_identity(), r1, max_angle / angle))
                                  : akq_identity();
            aim = unit_or_zero(akq_rotate(r1, forward_model));
        }
    }
    if (!(akv_dot(up, up) > 0.0f)) return r1;
    const ak_quat r2 = upright_twist(aim, akq_rotate(r1, akq_rotate(w, up)), up_model);
    return akq_mul(r2, r1);
}

/* Angle between two vectors; the small-angle form |a x b| / (a.b) (error below 1e-9 rad
 * under 1e-3 rad) saves the atan2 in the common case of a landed aim. */
static float small_angle_between(ak_vec3 a, ak_vec3 b)
{
    const ak_vec3 c = akv_cross(a, b);
    const float s = akf_sqrt(akv_dot(c, c)), d = akv_dot(a, b);
    if (d > 0.0f && s < 1e-3f * d) return s / d;
    return atan2f(s, d);
}

/* The aim as a change of frame: the joint-local frame (f, u, f x u) (forward, up made
 * perpendicular to it) must land on the model-space frame (aim, t, aim x t) with t up_model
 * made perpendicular to the aim. That is the same rotation as the shortest turn of the
 * forward axis followed by the upright twist, but it needs one matrix and one quaternion
 * extraction instead of two chained half-angle constructions, so it is about half the latency.
 * Written for a short dependency chain (the solve waits on it): t0 = up_model minus its part
 * along to_target, (to_target . up_model) / |to_target|^2, needs no square root; unit vectors
 * from reciprocal square roots; and for a turn under 90 degrees (trace > 0) the quaternion of
 * the matrix, (v, 1 + tr) / (2 sqrt(1 + tr)) with v its antisymmetric part, goes through the
 * product with conj(W) unnormalised, the scale computed beside it.
 * Writes the joint-local correction conj(W) W_new. Returns 0 when a frame is degenerate (up
 * along forward, up_model along the aim). */
int ik_aim_frames_scalar(const ak_aim_ik_params *p, const ak_xform *x, ak_quat *correction)
{
    const ak_quat w = x->rotation;
    const ak_vec3 forward = unit_or_zero(p->forward), up = p->up, up_model = p->up_model;
    const ak_vec3 to_target = akv_sub(p->target, x->translation);
    const float to_len2 = akv_dot(to_target, to_target);
    const ak_vec3 u0 = akv_sub(up, akv_scale(forward, akv_dot(forward, up)));
    const float along = akv_dot(to_target, up_model) * (1.0f / to_len2);
    const ak_vec3 t0 = akv_sub(up_model, akv_scale(to_target, along));
    const float lu2 = akv_dot(u0, u0), lt2 = akv_dot(t0, t0);
    if (!(lu2 > 1e-10f * akv_dot(up, up)) || !(lt2 > 1e-10f * akv_dot(up_model, up_model)))
        return 0;
    const ak_vec3 aim = akv_scale(to_target, akf_rsqrt(to_len2));
    const ak_vec3 u = akv_scale(u0, akf_rsqrt(lu2)), t = akv_scale(t0, akf_rsqrt(lt2));
    const ak_vec3 sl = akv_cross(forward, u), st = akv_cross(aim, t);
    const float a[3] = {aim.x, aim.y, aim.z}, tt[3] = {t.x, t.y, t.z}, ss[3] = {st.x, st.y, st.z};
    const float f[3] = {forward.x, forward.y, forward.z}, uu[3] = {u.x, u.y, u.z},
                su[3] = {sl.x, sl.y, sl.z};
    float m[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            m[i][j] = a[i] * f[j] + tt[i] * uu[j] + ss[i] * su[j];
    const float tr1 = 1.0f + m[0][0] + m[1][1] + m[2][2];
    if (tr1 > 1.0f) {
        const ak_quat q = {m[2][1] - m[1][2], m[0][2] - m[2][0], m[1][0] - m[0][1], tr1};
        const ak_quat c = akq_mul(akq_conj(w), q);
        const float k = 0.5f * akf_rsqrt(tr1);
        *correction = (ak_quat){c.x * k, c.y * k, c.z * k, c.w * k};
    } else {
        *correction = akq_mul(akq_conj(w), akq_from_matrix(m));
    }
    return 1;
}

#ifdef AK_HAVE_SSE
/* ik_aim_frames_scalar with each vector in one register (lane 3 zero): the same formulas in a
 * third of the instructions and without the scalar form's register spills. */
static inline __m128 aim_hsum(__m128 d)
{
    const __m128 s = _mm_add_ps(d, AK_SHUF(d, 1, 0, 3, 2));
    return _mm_add_ps(s, AK_SHUF(s, 2, 3, 0, 1));
}

/* The packed frame solve from to_target = target - position (lane 3 zero) and the rotation W
 * (x, y, z, w): the solve computes to_target once for its checks and this. Each frame's third
 * and second axes come from cross products of the inputs (l ~ forward x up, u ~ l x forward;
 * s ~ to_target x up_model, t ~ s x to_target: Gram-Schmidt without its divisions, each
 * perpendicular to what it came from to a rounding), so nothing waits on a first
 * normalisation: the four lengths they need are one square root and one division after one
 * set of dot products. A frame is degenerate where the scalar form's is: |forward x up|^2 below
 * 1e-10 |up|^2 |forward|^2 is its |u0|^2 below 1e-10 |up|^2, and likewise for the model frame. */
static inline int aim_frames_packed(const ak_aim_ik_params *p, __m128 tt, const ak_quat *w,
                                    ak_quat *correction)
{
    const __m128 pf = aks_load3(&p->forward), up4 = aks_load3(&p->up);
    const __m128 um = aks_load3(&p->up_model);
    const __m128 lv = aks_cross(pf, up4), sv = aks_cross(tt, um);
    const __m128 uv = aks_cross(lv, pf), tv = aks_cross(sv, tt);
    /* (|p|^2, |lv|^2, |tt|^2, |sv|^2), and |up|^2, |up_model|^2 for the degenerate test. */
    const __m128 d1 = aks_dots4(pf, pf, lv, lv, tt, tt, sv, sv);
    const __m128 d2 = aks_dots4(up4, up4, up4, up4, um, um, um, um);
    const __m128 floor2 = _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(1e-10f), d2), AK_SHUF(d1, 0, 0, 2, 2));
    if ((_mm_movemask_ps(_mm_cmpgt_ps(d1, floor2)) & 0xA) != 0xA) return 0;
    /* 1/|p|, 1/|lv|, 1/|tt|, 1/|sv| (correctly rounded: the trace form below amplifies the
     * frames' errors up to 5x, and reciprocal-root estimates cost the test's margin); then
     * 1/(|p| |lv|) and 1/(|tt| |sv|) for uv and tv. */
    const __m128 r = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(d1));
    const __m128 r2 = _mm_mul_ps(r, AK_SHUF(r, 1, 0, 3, 2));
    const __m128 f = _mm_mul_ps(pf, AK_SHUF(r, 0, 0, 0, 0)),
                 l = _mm_mul_ps(lv, AK_SHUF(r, 1, 1, 1, 1));
    const __m128 u = _mm_mul_ps(uv, AK_SHUF(r2, 0, 0, 0, 0));
    const __m128 a = _mm_mul_ps(tt, AK_SHUF(r, 2, 2, 2, 2)),
                 s = _mm_mul_ps(sv, AK_SHUF(r, 3, 3, 3, 3));
    const __m128 t = _mm_mul_ps(tv, AK_SHUF(r2, 2, 2, 2, 2));
    const __m128 tr1 = _mm_add_ps(
        _mm_set1_ps(1.0f),
        aim_hsum(_mm_add_ps(_mm_add_ps(_mm_mul_ps(a, f), _mm_mul_ps(t, u)), _mm_mul_ps(s, l))));
    const __m128 conj_w = _mm_xor_ps(_mm_loadu_ps(&w->x), _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
    /* (v, 1 + tr) is 4 w q for the matrix's quaternion q: normalised by its own length its
     * error is that of m's entries over 4 w, at most 5x for 1 + tr > 1e-2 (a turn under 174
     * degrees, all but a few percent of random aims; the branch predicts well, a sign test of
     * the trace would not). Nearer a half turn, Shepperd's branches. */
    if (!(_mm_cvtss_f32(tr1) > 1e-2f)) {
        *correction = akq_mul(akq_conj(*w), ik_frames_quat(a, t, s, f, u, l));
        return 1;
    }
    /* v = f x a + u x t + l x s, each x cross y = (x y.yzx - x.yzx y).yzx */
    const __m128 sum = _mm_add_ps(
        _mm_add_ps(_mm_sub_ps(_mm_mul_ps(f, AK_SHUF(a, 1, 2, 0, 3)),
                              _mm_mul_ps(AK_SHUF(f, 1, 2, 0, 3), a)),
                   _mm_sub_ps(_mm_mul_ps(u, AK_SHUF(t, 1, 2, 0, 3)),
                              _mm_mul_ps(AK_SHUF(u, 1, 2, 0, 3), t))),
        _mm_sub_ps(_mm_mul_ps(l, AK_SHUF(s, 1, 2, 0, 3)), _mm_mul_ps(AK_SHUF(l, 1, 2, 0, 3), s)));
    const __m128 lane_w = _mm_castsi128_ps(_mm_setr_epi32(0, 0, 0, -1));
    const __m128 q = _mm_add_ps(AK_SHUF(sum, 1, 2, 0, 3), _mm_and_ps(tr1, lane_w));
    const __m128 c = _mm_mul_ps(aks_qmul(conj_w, q), aks_rsqrt(aks_dot4(q, q)));
    _mm_storeu_ps(&correction->x, c);
    return 1;
}

int ik_aim_frames_sse(const ak_aim_ik_params *p, const ak_xform *x, ak_quat *correction)
{
    const __m128 tt = _mm_sub_ps(aks_load3(&p->target), aks_load3(&x->translation));
    return aim_frames_packed(p, tt, &x->rotation, correction);
}
#endif

/* target - position: packed (lane 3 zero) where there is SSE, for the frame solve. */
#ifdef AK_HAVE_SSE
typedef __m128 aim_offset;
static inline aim_offset aim_offset_of(const ak_aim_ik_params *p, const ak_xform *x)
{
    return _mm_sub_ps(aks_load3(&p->target), aks_load3(&x->translation));
}
static inline float aim_offset_len2(aim_offset tt)
{
    return _mm_cvtss_f32(aks_dot4(tt, tt)); /* (x^2 + y^2) + z^2, as akv_dot */
}
#else
typedef ak_vec3 aim_offset;
static inline aim_offset aim_offset_of(const ak_aim_ik_params *p, const ak_xform *x)
{
    return akv_sub(p->target, x->translation);
}
static inline float aim_offset_len2(aim_offset tt)
{
    return akv_dot(tt, tt);
}
#endif

/* The frame solve: the packed form where there is SSE. */
static inline int aim_by_frames(const ak_aim_ik_params *p, const ak_xform *x, aim_offset tt,
                                ak_quat *correction)
{
#ifdef AK_HAVE_SSE
    return aim_frames_packed(p, tt, &x->rotation, correction);
#else
    (void)tt;
    return ik_aim_frames_scalar(p, x, correction);
#endif
}

IK_FLATTEN int32_t ak_aim_ik_solve(const ak_aim_ik_params *p, const ak_xform *model,
                                   ak_quat *correction, ak_ik_result *result, ak_error *err)
{
    ak_ik_result res = {0, 0, 0, 0.0f};
    int32_t st = aim_validate(p, err);
    if (st == AK_OK && (!model || !correction))
        st = ak_error_set(err, AK_ERR_INVALID_ARG, 0, "NULL model or correction");
    /* A non-finite position makes to_len2 non-finite: one test for both checks below. */
    aim_offset tt;
    memset(&tt, 0, sizeof tt);
    if (st == AK_OK) tt = aim_offset_of(p, &model[p->joint]);
    const float to_len2 = aim_offset_len2(tt);
    if (st == AK_OK && !(akq_finite(model[p->joint].rotation) & isfinite(8.0f * to_len2))) {
        if (!akq_finite(model[p->joint].rotation) || !akv_finite(model[p->joint].translation))
            st = ak_error_set(err, AK_ERR_INVALID_ARG, 0, "model pose is not finite");
        else
            st = ik_check_range(model[p->joint].translation, p->target, 0.0f, err);
    }
    if (st < 0) {
        if (correction) *correction = akq_identity();
        if (result) *result = res;
        return st;
    }
    const ak_quat w = model[p->joint].rotation;
    const ak_vec3 pos = model[p->joint].translation;
    res.iterations = 1;
    if (!(to_len2 > 1e-20f)) { /* target on the joint: nothing to aim at */
        *correction = akq_identity();
        res.reached = 1;
        if (result) *result = res;
        return AK_OK;
    }
    ak_quat c;
    int exact = 0; /* the full aim lands exactly: remaining angle 0 by construction */
    /* (A zero up axis makes the frame degenerate: the frame solve returns 0.) */
    if (p->clamp_weight <= 0.0f && aim_by_frames(p, &model[p->joint], tt, &c)) {
        exact = 1;
    } else {
        c = akq_in_frame(w, aim_rotation_model(w, pos, unit_or_zero(p->forward), p->up, p->target,
                                               p->up_model, p->clamp_weight));
    }
    if (p->weight < 1.0f) {
        c = akq_normalize(akq_slerp(akq_identity(), akq_positive_w(c), p->weight));
        exact = 0;
    }
    *correction = c;
    if (!exact) {
        const ak_vec3 forward_model = akq_rotate(akq_mul(w, c), unit_or_zero(p->forward));
        res.error = small_angle_between(forward_model, akv_sub(p->target, pos));
    }
    res.reached = res.error <= p->tolerance;
    if (result) *result = res;
    return AK_OK;
}

IK_FLATTEN int32_t ak_aim_ik_run(const ak_aim_ik_params *p, ak_xform *local, ak_xform *model,
                                 ak_ik_result *result, ak_error *err)
{
    ak_quat c;
    ak_ik_result res;
    int32_t st = ak_aim_ik_solve(p, model, &c, &res, err);
    if (st == AK_OK && !local) st = ak_error_set(err, AK_ERR_INVALID_ARG, 0, "NULL local");
    if (st == AK_OK && p->weight > 0.0f) {
        local[p->joint].rotation = akq_normalize(akq_mul(local[p->joint].rotation, c));
        ak_fk_subtree(p->skeleton, local, model, p->joint);
    }
    if (result) *result = res;
    return st;
}

ak_look_at_params ak_look_at_defaults(void)
{
    ak_look_at_params p;
    p.skeleton = NULL;
    p.chain = NULL;
    p.chain_length = 0;
    p.joint_weights = NULL;
    SET_AIM_DEFAULTS(p);
    return p;
}

static int32_t look_at_validate_shape(const ak_look_at_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "params is NULL");
    int32_t st = check_aim_common(p->skeleton, p->target, p->forward, p->up, p->up_model,
                                  p->clamp_weight, p->tolerance, p->weight, err);
    if (st < 0) return st;
    if ((st = ik_check_chain(p->skeleton, p->chain, p->chain_length, err)) < 0) return st;
    if (p->joint_weights)
        for (int32_t i = 0; i + 1 < p->chain_length; ++i)
            if (!(p->joint_weights[i] >= 0.0f && p->joint_weights[i] <= 1.0f))
                return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint_weights[%d] outside [0, 1]",
                                    (int)i);
    return AK_OK;
}

int32_t ak_look_at_validate(const ak_look_at_params *p, ak_error *err)
{
    const int32_t st = look_at_validate_shape(p, err);
    return st < 0 ? st : ak_params_check(ak_look_at_param_ranges(), p, err);
}

int32_t ak_look_at_run(const ak_look_at_params *p, ak_xform *local, ak_xform *model,
                       ak_ik_result *result, ak_error *err)
{
    ak_ik_result res = {0, 0, 0, 0.0f};
    int32_t st = ak_look_at_validate(p, err);
    if (st == AK_OK && (!local || !model))
        st = ak_error_set(err, AK_ERR_INVALID_ARG, 0, "NULL pose");
    ik_chain c;
    if (st == AK_OK)
        st = ik_chain_load(&c, p->skeleton, p->chain, p->chain_length, local, model, 1, err);
    if (st == AK_OK) st = ik_check_range(c.pos[0], p->target, c.total, err);
    if (st < 0) {
        if (result) *result = res;
        return st;
    }
    const int32_t n = c.n, h = n - 1;
    const ak_vec3 forward = unit_or_zero(p->forward);
    const ak_vec3 fwd0 = akq_rotate(c.rot[h], forward);
    const ak_vec3 to_target0 = akv_sub(p->target, c.pos[h]);
    const int has_direction = akv_dot(to_target0, to_target0) > 1e-20f;
    if (p->weight <= 0.0f || !has_direction) {
        res.error = has_direction ? angle_between(fwd0, to_target0) : 0.0f;
        res.reached = res.error <= p->tolerance;
        if (result) *result = res;
        return AK_OK;
    }
    /* Clamp: aim at a point turned at most max_angle away from the current forward. */
    ak_vec3 target = p->target;
    if (p->clamp_weight > 0.0f) {
        const float max_angle = (1.0f - p->clamp_weight) * AK_PI;
        const float angle = angle_between(fwd0, to_target0);
        if (angle > max_angle) {
            ak_quat r = akq_from_to(fwd0, to_target0);
            r = max_angle > 0.0f ? akq_slerp(akq_identity(), r, max_angle / angle) : akq_identity();
            target = akv_add(c.pos[h],
                             akv_scale(akq_rotate(r, unit_or_zero(fwd0)), akv_len(to_target0)));
        }
    }
    for (int32_t i = 0; i < n; ++i) {
        const float w =
            i == h ? 1.0f : (p->joint_weights ? p->joint_weights[i] : 1.0f / (float)(n - i));
        if (w <= 0.0f) continue;
        const ak_vec3 fwd = akq_rotate(c.rot[h], forward);
        ak_quat r = akq_from_to(fwd, akv_sub(target, c.pos[h]));
        if (w < 1.0f) r = akq_slerp(akq_identity(), akq_positive_w(r), w);
        ik_chain_set_rot(&c, i, akq_mul(r, c.rot[i]), NULL);
        ik_chain_fk_from(&c, i);
    }
    if (akv_dot(p->up, p->up) > 0.0f) {
        const ak_vec3 aim = unit_or_zero(akq_rotate(c.rot[h], forward));
        const ak_quat r2 = upright_twist(aim, akq_rotate(c.rot[h], p->up), p->up_model);
        ik_chain_set_rot(&c, h, akq_mul(r2, c.rot[h]), NULL);
    }
    ik_chain_store(&c, p->skeleton, n, p->weight, local, model);
    const int32_t head = p->chain[h];
    res.iterations = 1;
    res.error = angle_between(akq_rotate(model[head].rotation, forward),
                              akv_sub(p->target, model[head].translation));
    res.reached = res.error <= p->tolerance;
    if (result) *result = res;
    return AK_OK;
}
