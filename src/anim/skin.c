/* Skinning job: params, validation, the palette (each joint's S_j = model_pose[j] *
 * inverse_bind[j] as a 3x4 matrix and as a unit dual quaternion) and the scalar kernels, the
 * twins of the SSE ones in skin_simd.c. The maths is written out in include/animkit/skin.h. */
#include <math.h>
#include <stddef.h>

#include "anim/skin_internal.h"
#include "core/xform_inline.h"

ak_skin_params ak_skin_defaults(void)
{
    ak_skin_params p;
    p.method = AK_SKIN_LINEAR;
    p.joint_count = 0;
    p.model_pose = NULL;
    p.inverse_bind = NULL;
    p.palette = NULL;
    p.vertex_count = 0;
    p.influences = 4;
    p.joints = NULL;
    p.weights = NULL;
    p.positions = NULL;
    p.normals = NULL;
    p.out_positions = NULL;
    p.out_normals = NULL;
    p.use_simd = 1;
    p.check_influences = 1;
    return p;
}

static int32_t check_pose(const ak_skin_params *p, ak_error *err)
{
    for (int32_t j = 0; j < p->joint_count; ++j) {
        const ak_xform *x = &p->model_pose[j];
        if (!akq_finite(x->rotation) || !akv_finite(x->translation))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "model_pose[%d] is not finite", (int)j);
        if (!p->inverse_bind) continue;
        for (int k = 0; k < 16; ++k)
            if (!isfinite(p->inverse_bind[16 * j + k]))
                return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "inverse_bind[%d] is not finite",
                                    (int)j);
    }
    return AK_OK;
}

static int32_t check_influences(const ak_skin_params *p, ak_error *err)
{
    const int32_t k = p->influences;
    for (int32_t v = 0; v < p->vertex_count; ++v) {
        double sum = 0.0;
        for (int32_t i = 0; i < k; ++i) {
            const size_t at = (size_t)v * (size_t)k + (size_t)i;
            const float w = p->weights[at];
            if (p->joints[at] >= p->joint_count)
                return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                    "vertex %d influence %d: joint %u out of range (%d joints)",
                                    (int)v, (int)i, (unsigned)p->joints[at], (int)p->joint_count);
            if (!(w >= 0.0f) || !isfinite(w))
                return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                    "vertex %d influence %d: weight %g is negative or not finite",
                                    (int)v, (int)i, (double)w);
            sum += w;
        }
        if (fabs(sum - 1.0) > 1e-3)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "vertex %d: weights sum to %.6g, not 1 (ak_skin_normalize_weights)",
                                (int)v, sum);
    }
    return AK_OK;
}

int32_t ak_skin_validate(const ak_skin_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "params is NULL");
    if (p->method != AK_SKIN_LINEAR && p->method != AK_SKIN_DUAL_QUAT)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "method %d is not LINEAR (0) or "
                            "DUAL_QUAT (1)",
                            (int)p->method);
    if (p->joint_count < 1 || p->joint_count > 65536)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint_count %d is not in 1..65536",
                            (int)p->joint_count);
    if (!p->model_pose || !p->palette)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "model_pose or palette is NULL");
    if (p->use_simd < 0 || p->use_simd > 3)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "use_simd %d is not 0 (scalar), 1 (widest), 2 (SSE only) or 3 "
                            "(AVX2 at most)",
                            (int)p->use_simd);
    if (p->vertex_count < 0)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "vertex_count %d is negative",
                            (int)p->vertex_count);
    if (p->influences < 1 || p->influences > AK_SKIN_MAX_INFLUENCES)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "influences %d is not in 1..%d",
                            (int)p->influences, AK_SKIN_MAX_INFLUENCES);
    if (p->vertex_count > 0 && (!p->joints || !p->weights || !p->positions || !p->out_positions))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "joints, weights, positions or out_positions is NULL");
    if (p->out_normals && !p->normals)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "out_normals needs normals");
    if (p->out_positions && (p->out_positions == p->positions || p->out_positions == p->normals))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "out_positions aliases an input");
    if (p->out_normals && (p->out_normals == p->normals || p->out_normals == p->positions))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "out_normals aliases an input");
    int32_t st = check_pose(p, err);
    if (st < 0 || !p->check_influences) return st;
    return check_influences(p, err);
}

/* S_j's rotation: the inverse bind's 3x3 with its columns made unit (a scale is dropped),
 * as a quaternion, after the model pose's rotation. */
static ak_quat bind_rotation(const float *b)
{
    float m[3][3];
    for (int c = 0; c < 3; ++c) {
        const float len = akf_sqrt(b[4 * c] * b[4 * c] + b[4 * c + 1] * b[4 * c + 1] +
                                   b[4 * c + 2] * b[4 * c + 2]);
        const float inv = len > 1e-20f ? 1.0f / len : 0.0f;
        for (int r = 0; r < 3; ++r)
            m[r][c] = b[4 * c + r] * inv;
    }
    return akq_normalize(akq_from_matrix(m));
}

static void palette_joint(ak_xform x, const float *b, ak_skin_joint *out)
{
    static const float k_identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    if (!b) b = k_identity;
    for (int c = 0; c < 4; ++c) {
        ak_vec3 col = akq_rotate(x.rotation, akv_make(b[4 * c], b[4 * c + 1], b[4 * c + 2]));
        if (c == 3) col = akv_add(col, x.translation);
        out->columns[c][0] = col.x;
        out->columns[c][1] = col.y;
        out->columns[c][2] = col.z;
        out->columns[c][3] = 0.0f;
    }
    const ak_quat r = akq_positive_w(akq_normalize(akq_mul(x.rotation, bind_rotation(b))));
    const ak_quat t = {0.5f * out->columns[3][0], 0.5f * out->columns[3][1],
                       0.5f * out->columns[3][2], 0.0f};
    out->real = r;
    out->dual = akq_mul(t, r);
}

void ak_skin_palette(const ak_xform *model_pose, const float *inverse_bind, int32_t joint_count,
                     ak_skin_joint *palette)
{
    if (!model_pose || !palette) return;
    for (int32_t j = 0; j < joint_count; ++j)
        palette_joint(model_pose[j], inverse_bind ? inverse_bind + 16 * (size_t)j : NULL,
                      &palette[j]);
}

int32_t ak_skin_normalize_weights(float *weights, int32_t vertex_count, int32_t influences)
{
    int32_t changed = 0;
    if (!weights || influences < 1) return 0;
    for (int32_t v = 0; v < vertex_count; ++v) {
        float *w = weights + (size_t)v * (size_t)influences;
        double sum = 0.0;
        for (int32_t i = 0; i < influences; ++i)
            sum += w[i] > 0.0f ? w[i] : 0.0f;
        if (fabs(sum - 1.0) > 1e-6) ++changed;
        for (int32_t i = 0; i < influences; ++i)
            w[i] = sum > 0.0 ? (float)((w[i] > 0.0f ? w[i] : 0.0f) / sum) : (i == 0 ? 1.0f : 0.0f);
    }
    return changed;
}

int32_t ak_skin_run(const ak_skin_params *p, ak_error *err)
{
    int32_t st = ak_skin_validate(p, err);
    if (st < 0) return st;
    ak_skin_palette(p->model_pose, p->inverse_bind, p->joint_count, p->palette);
    const int simd = p->use_simd && akskin_have_simd();
    if (p->method == AK_SKIN_LINEAR) {
        if (simd)
            akskin_lbs_simd(p, 0, p->vertex_count);
        else
            akskin_lbs_scalar(p, 0, p->vertex_count);
    } else {
        if (simd)
            akskin_dqs_simd(p, 0, p->vertex_count);
        else
            akskin_dqs_scalar(p, 0, p->vertex_count);
    }
    return AK_OK;
}

/* ---- scalar kernels ---- */

static void store3(float *out, ak_vec3 v)
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

static ak_vec3 load3(const float *in)
{
    return akv_make(in[0], in[1], in[2]);
}

void akskin_lbs_scalar(const ak_skin_params *p, int32_t first, int32_t count)
{
    const int32_t k = p->influences;
    for (int32_t v = first; v < first + count; ++v) {
        const uint16_t *jv = p->joints + (size_t)v * (size_t)k;
        const float *wv = p->weights + (size_t)v * (size_t)k;
        float c[4][3] = {{0}};
        for (int32_t i = 0; i < k; ++i) {
            const ak_skin_joint *s = &p->palette[akskin_joint(jv[i], p->joint_count)];
            for (int col = 0; col < 4; ++col)
                for (int r = 0; r < 3; ++r)
                    c[col][r] += wv[i] * s->columns[col][r];
        }
        const float *x = p->positions + 3 * (size_t)v;
        float out[3];
        for (int r = 0; r < 3; ++r)
            out[r] = c[0][r] * x[0] + c[1][r] * x[1] + c[2][r] * x[2] + c[3][r];
        store3(p->out_positions + 3 * (size_t)v, akv_make(out[0], out[1], out[2]));
        if (!p->out_normals) continue;
        const float *n = p->normals + 3 * (size_t)v;
        for (int r = 0; r < 3; ++r)
            out[r] = c[0][r] * n[0] + c[1][r] * n[1] + c[2][r] * n[2];
        store3(p->out_normals + 3 * (size_t)v,
               akv_normalize_or(akv_make(out[0], out[1], out[2]), akv_make(0, 1, 0)));
    }
}

/* The blended dual quaternion of one vertex, antipodality fixed against its first influence
 * and normalised by the real part's length; falls back to the first influence's own when the
 * blend has no length (all weight on rotations that cancel). */
static void dqs_blend(const ak_skin_params *p, int32_t v, ak_quat *r_out, ak_quat *d_out)
{
    const int32_t k = p->influences;
    const uint16_t *jv = p->joints + (size_t)v * (size_t)k;
    const float *wv = p->weights + (size_t)v * (size_t)k;
    const int32_t j0 = akskin_joint(jv[0], p->joint_count);
    const ak_quat r0 = p->palette[j0].real;
    ak_quat r = {0, 0, 0, 0}, d = {0, 0, 0, 0};
    for (int32_t i = 0; i < k; ++i) {
        const ak_skin_joint *s = &p->palette[akskin_joint(jv[i], p->joint_count)];
        const float w = akq_dot(r0, s->real) < 0.0f ? -wv[i] : wv[i];
        r.x += w * s->real.x, r.y += w * s->real.y, r.z += w * s->real.z, r.w += w * s->real.w;
        d.x += w * s->dual.x, d.y += w * s->dual.y, d.z += w * s->dual.z, d.w += w * s->dual.w;
    }
    const float n2 = akq_dot(r, r);
    if (!(n2 > 1e-20f)) {
        *r_out = r0;
        *d_out = p->palette[j0].dual;
        return;
    }
    const float inv = akf_rsqrt(n2);
    r.x *= inv, r.y *= inv, r.z *= inv, r.w *= inv;
    d.x *= inv, d.y *= inv, d.z *= inv, d.w *= inv;
    *r_out = r;
    *d_out = d;
}

void akskin_dqs_scalar(const ak_skin_params *p, int32_t first, int32_t count)
{
    for (int32_t v = first; v < first + count; ++v) {
        ak_quat r, d;
        dqs_blend(p, v, &r, &d);
        /* translation 2 (d r*).xyz = 2 (r.w d.v - d.w r.v + r.v x d.v) */
        const ak_vec3 rv = akv_make(r.x, r.y, r.z), dv = akv_make(d.x, d.y, d.z);
        const ak_vec3 t = akv_scale(
            akv_add(akv_sub(akv_scale(dv, r.w), akv_scale(rv, d.w)), akv_cross(rv, dv)), 2.0f);
        const ak_vec3 x = akq_rotate(r, load3(p->positions + 3 * (size_t)v));
        store3(p->out_positions + 3 * (size_t)v, akv_add(x, t));
        if (!p->out_normals) continue;
        const ak_vec3 n = akq_rotate(r, load3(p->normals + 3 * (size_t)v));
        store3(p->out_normals + 3 * (size_t)v, akv_normalize_or(n, akv_make(0, 1, 0)));
    }
}
