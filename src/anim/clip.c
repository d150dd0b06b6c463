/* Clips: storage, sampling (step / linear / cubic), batched sample + FK, pose blending. */
#include "animkit/clip.h"
#include "core/xform_inline.h"
#include "core/simd.h"

#include <stdlib.h>
#include <string.h>

int32_t ak_clip_create(int32_t joint_count, int32_t frame_count, float frame_time,
                       const uint8_t *has_translation, ak_clip **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    if (joint_count < 1 || frame_count < 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip needs at least one joint and one frame");
    if (!(frame_time > 0.0f) || !isfinite(frame_time))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "frame time must be positive and finite");
    /* Guard the key count against size_t overflow (and absurd sizes) before allocating. */
    const uint64_t keys = (uint64_t)joint_count * (uint64_t)frame_count;
    if (keys > ((uint64_t)1 << 34) / sizeof(ak_quat))
        return ak_error_set(err, AK_ERR_LIMIT, 0, "clip of %d joints x %d frames is too large",
                            (int)joint_count, (int)frame_count);
    ak_clip *c = (ak_clip *)calloc(1, sizeof *c);
    if (!c) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    c->joint_count = joint_count;
    c->frame_count = frame_count;
    c->frame_time = frame_time;
    c->joint_track = (int32_t *)malloc(sizeof(int32_t) * (size_t)joint_count);
    c->track_joint = (int32_t *)malloc(sizeof(int32_t) * (size_t)joint_count);
    c->rotations = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)keys);
    if (!c->joint_track || !c->track_joint || !c->rotations) {
        ak_clip_destroy(c);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    for (int32_t j = 0; j < joint_count; ++j) {
        int has = has_translation ? has_translation[j] != 0 : j == 0;
        c->joint_track[j] = has ? c->track_count : -1;
        if (has) c->track_joint[c->track_count++] = j;
    }
    c->translations = (ak_vec3 *)calloc((size_t)frame_count * (size_t)(c->track_count ? c->track_count : 1),
                                        sizeof(ak_vec3));
    if (!c->translations) {
        ak_clip_destroy(c);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    for (uint64_t k = 0; k < keys; ++k) c->rotations[k] = ak_quat_identity();
    *out = c;
    return AK_OK;
}

void ak_clip_destroy(ak_clip *c)
{
    if (!c) return;
    free(c->rotations);
    free(c->track_joint);
    free(c->joint_track);
    free(c->translations);
    free(c->squad_points);
    free(c);
}

static ak_quat squad_point(ak_quat qm, ak_quat q, ak_quat qp);

void ak_clip_finalize(ak_clip *c)
{
    if (!c) return;
    const int32_t n = c->joint_count;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_quat *row = c->rotations + (size_t)f * (size_t)n;
        const ak_quat *prev = f > 0 ? row - n : NULL;
        for (int32_t j = 0; j < n; ++j) {
            ak_quat q = akq_normalize(row[j]);
            if (prev && akq_dot(q, prev[j]) < 0.0f) {
                q.x = -q.x; q.y = -q.y; q.z = -q.z; q.w = -q.w;
            }
            row[j] = q;
        }
    }
    /* Keys changed: cubic control points made from the old keys are stale. */
    if (c->squad_points) ak_clip_prepare_cubic(c);
}

int32_t ak_clip_prepare_cubic(ak_clip *c)
{
    if (!c) return AK_ERR_INVALID_ARG;
    const int32_t n = c->joint_count;
    /* SQUAD inner points with clamped ends (a looping clip recomputes its first and last
     * frame's points with wrapped neighbours when sampled). */
    if (!c->squad_points)
        c->squad_points = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)n * (size_t)c->frame_count);
    if (!c->squad_points) return AK_ERR_NOMEM;
    const int32_t last = c->frame_count - 1;
    for (int32_t f = 0; f <= last; ++f) {
        const ak_quat *row = c->rotations + (size_t)f * (size_t)n;
        const ak_quat *before = f > 0 ? row - n : row, *after = f < last ? row + n : row;
        for (int32_t j = 0; j < n; ++j)
            c->squad_points[(size_t)f * (size_t)n + (size_t)j] = squad_point(before[j], row[j], after[j]);
    }
    return AK_OK;
}

float ak_clip_duration(const ak_clip *c)
{
    if (!c) return 0.0f;
    return (float)(c->loop ? c->frame_count : c->frame_count - 1) * c->frame_time;
}

ak_clip *ak_clip_clone(const ak_clip *c)
{
    if (!c) return NULL;
    uint8_t *has = (uint8_t *)calloc((size_t)c->joint_count, 1);
    if (!has) return NULL;
    for (int32_t j = 0; j < c->joint_count; ++j) has[j] = c->joint_track[j] >= 0;
    ak_clip *out = NULL;
    ak_clip_create(c->joint_count, c->frame_count, c->frame_time, has, &out, NULL);
    free(has);
    if (!out) return NULL;
    out->loop = c->loop;
    memcpy(out->rotations, c->rotations, sizeof(ak_quat) * (size_t)c->joint_count * (size_t)c->frame_count);
    memcpy(out->translations, c->translations,
           sizeof(ak_vec3) * (size_t)c->track_count * (size_t)c->frame_count);
    if (c->squad_points) ak_clip_prepare_cubic(out);
    return out;
}

/* Where t falls: frames f0 (at or before t) and f1 (after), fraction alpha in [0,1), and the
 * neighbours fm (before f0) and f2 (after f1) that the cubic spline needs. */
typedef struct key_span {
    int32_t fm, f0, f1, f2;
    float alpha;
} key_span;

static key_span locate(const ak_clip *c, float t)
{
    key_span s;
    const int32_t n = c->frame_count;
    if (!isfinite(t)) t = 0.0f;
    float u;
    if (c->loop) {
        const float duration = (float)n * c->frame_time;
        float w = fmodf(t, duration);
        if (w < 0.0f) w += duration;
        u = w / c->frame_time;
    } else {
        u = t / c->frame_time;
        if (u < 0.0f) u = 0.0f;
        if (u > (float)(n - 1)) u = (float)(n - 1);
    }
    /* Times computed as f * frame_time land a rounding error either side of key f: snap
     * within 1e-4 of a frame so key times give their key exactly (step mode included). */
    const float nearest = floorf(u + 0.5f);
    if (fabsf(u - nearest) < 1e-4f) u = nearest;
    if (c->loop && u >= (float)n) u = 0.0f;
    int32_t f0 = (int32_t)u;
    if (f0 >= n) f0 = n - 1;
    if (f0 < 0) f0 = 0;
    s.alpha = u - (float)f0;
    if (s.alpha < 0.0f) s.alpha = 0.0f;
    if (s.alpha >= 1.0f) s.alpha = 0.99999994f;
    s.f0 = f0;
    if (c->loop) {
        s.f1 = (f0 + 1) % n;
        s.fm = (f0 - 1 + n) % n;
        s.f2 = (f0 + 2) % n;
    } else {
        s.f1 = f0 + 1 < n ? f0 + 1 : n - 1;
        s.fm = f0 > 0 ? f0 - 1 : 0;
        s.f2 = f0 + 2 < n ? f0 + 2 : n - 1;
    }
    return s;
}

/* Slerp accurate to about 1e-5 rad without trig: nlerp with its parameter corrected by a
 * polynomial in cos(theta) (the "onlerp" fit described by A. Kapoulkine, 2015).
 * Exact at t = 0 and t = 1. */
AK_INLINE ak_quat fast_slerp(ak_quat a, ak_quat b, float t)
{
    float ca = akq_dot(a, b);
    float d = fabsf(ca);
    float A = 1.0904f + d * (-3.2452f + d * (3.55645f - d * 1.43519f));
    float B = 0.848013f + d * (-1.06021f + d * 0.215638f);
    float k = A * (t - 0.5f) * (t - 0.5f) + B;
    float ot = t + t * (t - 0.5f) * (t - 1.0f) * k;
    float s = ca < 0.0f ? -1.0f : 1.0f;
    ak_quat r = {a.x + (s * b.x - a.x) * ot, a.y + (s * b.y - a.y) * ot,
                 a.z + (s * b.z - a.z) * ot, a.w + (s * b.w - a.w) * ot};
    float inv = akf_rsqrt(akq_dot(r, r));
    r.x *= inv; r.y *= inv; r.z *= inv; r.w *= inv;
    return r;
}

/* Quaternion log/exp for unit quaternions (log returns the vector part theta * axis). */
static ak_vec3 quat_log(ak_quat q)
{
    float v = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    if (v < 1e-9f) return ak_vec3_make(q.x, q.y, q.z);
    float a = atan2f(v, q.w) / v;
    return ak_vec3_make(q.x * a, q.y * a, q.z * a);
}
static ak_quat quat_exp(ak_vec3 v)
{
    float th = akv_len(v);
    if (th < 1e-9f) { ak_quat r = {v.x, v.y, v.z, 1.0f}; return akq_normalize(r); }
    float s = sinf(th) / th;
    ak_quat r = {v.x * s, v.y * s, v.z * s, cosf(th)};
    return r;
}
static ak_quat same_hemisphere(ak_quat ref, ak_quat q)
{
    if (akq_dot(ref, q) < 0.0f) { q.x = -q.x; q.y = -q.y; q.z = -q.z; q.w = -q.w; }
    return q;
}
/* SQUAD inner control point at key q with neighbours qm, qp (Shoemake):
 * s = q exp(-(log(q^-1 qp) + log(q^-1 qm)) / 4). With these points SQUAD is C1. */
static ak_quat squad_point(ak_quat qm, ak_quat q, ak_quat qp)
{
    ak_quat qi = akq_conj(q);
    ak_vec3 a = quat_log(akq_mul(qi, same_hemisphere(q, qp)));
    ak_vec3 b = quat_log(akq_mul(qi, same_hemisphere(q, qm)));
    return akq_mul(q, quat_exp(akv_scale(akv_add(a, b), -0.25f)));
}
/* SQUAD between keys q0 and q1 with inner points s0, s1 (Shoemake):
 * slerp(slerp(q0,q1,t), slerp(s0,s1,t), 2t(1-t)). The keys are close, so the fast slerp is
 * used throughout; the outer blend keeps the sign it has (no shortest-arc flip between
 * outer and inner, which would break continuity). */
static ak_quat squad(ak_quat q0, ak_quat q1, ak_quat s0, ak_quat s1, float t)
{
    ak_quat outer = fast_slerp(q0, q1, t);
    ak_quat inner = fast_slerp(s0, same_hemisphere(s0, s1), t);
    float h = 2.0f * t * (1.0f - t);
    if (akq_dot(outer, inner) >= 0.0f) return fast_slerp(outer, inner, h);
    float d = akq_dot(outer, inner);
    if (d < -0.9995f) return akq_nlerp(outer, inner, h);
    float th = acosf(d), st = sinf(th);
    float wa = sinf((1.0f - h) * th) / st, wb = sinf(h * th) / st;
    ak_quat r = {wa * outer.x + wb * inner.x, wa * outer.y + wb * inner.y,
                 wa * outer.z + wb * inner.z, wa * outer.w + wb * inner.w};
    return akq_normalize(r);
}

/* Cubic rotation of joint j: the precomputed inner points, except where a looping clip
 * wraps (first/last frame) or the clip was never finalised. */
static ak_quat sample_squad(const ak_clip *c, const key_span *s, int32_t j)
{
    const size_t n = (size_t)c->joint_count;
    const ak_quat *r = c->rotations;
    const int32_t last = c->frame_count - 1;
    ak_quat q0 = r[(size_t)s->f0 * n + (size_t)j];
    ak_quat q1 = same_hemisphere(q0, r[(size_t)s->f1 * n + (size_t)j]);
    ak_quat s0, s1;
    const int wrap0 = c->loop && (s->f0 == 0 || s->f0 == last);
    const int wrap1 = c->loop && (s->f1 == 0 || s->f1 == last);
    if (c->squad_points && !wrap0) s0 = c->squad_points[(size_t)s->f0 * n + (size_t)j];
    else s0 = squad_point(r[(size_t)s->fm * n + (size_t)j], q0, q1);
    if (c->squad_points && !wrap1) s1 = same_hemisphere(q1, c->squad_points[(size_t)s->f1 * n + (size_t)j]);
    else s1 = squad_point(q0, q1, same_hemisphere(q1, r[(size_t)s->f2 * n + (size_t)j]));
    return squad(q0, q1, s0, s1, s->alpha);
}

/* Catmull-Rom through p0 (t=0) and p1 (t=1), tangents from the neighbours pm and p2. */
static ak_vec3 catmull_rom(ak_vec3 pm, ak_vec3 p0, ak_vec3 p1, ak_vec3 p2, float t)
{
    float t2 = t * t, t3 = t2 * t;
    float a = -0.5f * t3 + t2 - 0.5f * t;
    float b = 1.5f * t3 - 2.5f * t2 + 1.0f;
    float c = -1.5f * t3 + 2.0f * t2 + 0.5f * t;
    float d = 0.5f * t3 - 0.5f * t2;
    return ak_vec3_make(a * pm.x + b * p0.x + c * p1.x + d * p2.x,
                        a * pm.y + b * p0.y + c * p1.y + d * p2.y,
                        a * pm.z + b * p0.z + c * p1.z + d * p2.z);
}

AK_INLINE ak_quat sample_rotation(const ak_clip *c, const key_span *s, int32_t j, ak_interp interp)
{
    const size_t n = (size_t)c->joint_count;
    const ak_quat *r = c->rotations;
    switch (interp) {
    case AK_INTERP_STEP: return r[(size_t)s->f0 * n + (size_t)j];
    case AK_INTERP_CUBIC:
        return sample_squad(c, s, j);
    case AK_INTERP_LINEAR:
    default:
        return fast_slerp(r[(size_t)s->f0 * n + (size_t)j], r[(size_t)s->f1 * n + (size_t)j], s->alpha);
    }
}

AK_INLINE ak_vec3 sample_translation(const ak_clip *c, const ak_skeleton *sk, const key_span *s,
                                     int32_t j, ak_interp interp)
{
    const int32_t k = c->joint_track[j];
    if (k < 0) return sk->rest_local[j].translation;
    const size_t m = (size_t)c->track_count;
    const ak_vec3 *v = c->translations;
    switch (interp) {
    case AK_INTERP_STEP: return v[(size_t)s->f0 * m + (size_t)k];
    case AK_INTERP_CUBIC:
        return catmull_rom(v[(size_t)s->fm * m + (size_t)k], v[(size_t)s->f0 * m + (size_t)k],
                           v[(size_t)s->f1 * m + (size_t)k], v[(size_t)s->f2 * m + (size_t)k], s->alpha);
    case AK_INTERP_LINEAR:
    default:
        return akv_lerp(v[(size_t)s->f0 * m + (size_t)k], v[(size_t)s->f1 * m + (size_t)k], s->alpha);
    }
}

#ifdef AK_HAVE_SSE
/* Cubic (SQUAD) rotations of joints j..j+3 at once: the three slerps of squad() in SoA form
 * on the prepared control points. Returns 0, writing nothing, where the scalar path must run
 * instead: unprepared clip, a looping clip's wrapped first/last frame, or an outer/inner pair
 * on opposite hemispheres (squad() then blends without the shortest-arc flip). */
static int squad4(const ak_clip *c, const key_span *s, int32_t j, __m128 out[4])
{
    const int32_t last = c->frame_count - 1;
    if (!c->squad_points || (c->loop && (s->f0 == 0 || s->f0 == last || s->f1 == 0 || s->f1 == last)))
        return 0;
    const size_t n = (size_t)c->joint_count;
    const size_t o0 = (size_t)s->f0 * n + (size_t)j, o1 = (size_t)s->f1 * n + (size_t)j;
    const ak_quat *q0 = c->rotations + o0, *q1 = c->rotations + o1;
    const ak_quat *s0 = c->squad_points + o0, *s1 = c->squad_points + o1;
    const aks_slerp_t pt = aks_slerp_params(s->alpha);
    const aks_slerp_t ph = aks_slerp_params(2.0f * s->alpha * (1.0f - s->alpha));
    const aks_quat4 outer = aks_slerp_soa(aks_load_quat4(q0, q0 + 1, q0 + 2, q0 + 3),
                                          aks_load_quat4(q1, q1 + 1, q1 + 2, q1 + 3), pt.t, pt.h, pt.g);
    const aks_quat4 inner = aks_slerp_soa(aks_load_quat4(s0, s0 + 1, s0 + 2, s0 + 3),
                                          aks_load_quat4(s1, s1 + 1, s1 + 2, s1 + 3), pt.t, pt.h, pt.g);
    const __m128 d = _mm_add_ps(_mm_add_ps(_mm_mul_ps(outer.x, inner.x), _mm_mul_ps(outer.y, inner.y)),
                                _mm_add_ps(_mm_mul_ps(outer.z, inner.z), _mm_mul_ps(outer.w, inner.w)));
    if (_mm_movemask_ps(_mm_cmplt_ps(d, _mm_setzero_ps())) != 0) return 0;
    aks_quat4 r = aks_slerp_soa(outer, inner, ph.t, ph.h, ph.g);
    _MM_TRANSPOSE4_PS(r.x, r.y, r.z, r.w);
    out[0] = r.x; out[1] = r.y; out[2] = r.z; out[3] = r.w;
    return 1;
}
#endif

void ak_clip_sample(const ak_clip *c, const ak_skeleton *sk, float t, ak_interp interp,
                    ak_xform *local)
{
    if (!c || !sk || !local || c->joint_count != sk->joint_count) return;
    const key_span s = locate(c, t);
    int32_t j = 0;
#ifdef AK_HAVE_SSE
    if (interp == AK_INTERP_LINEAR) {
        /* Rotations four joints at a time; translations follow in the scalar loop below. */
        const size_t n = (size_t)c->joint_count;
        const aks_slerp_t sp = aks_slerp_params(s.alpha);
        const ak_quat *r0 = c->rotations + (size_t)s.f0 * n, *r1 = c->rotations + (size_t)s.f1 * n;
        __m128 q[4];
        for (; j + 4 <= c->joint_count; j += 4) {
            aks_slerp4(r0 + j, r1 + j, &sp, q);
            for (int k = 0; k < 4; ++k) {
                _mm_storeu_ps(&local[j + k].rotation.x, q[k]);
                local[j + k].translation = sample_translation(c, sk, &s, j + k, interp);
            }
        }
    } else if (interp == AK_INTERP_CUBIC) {
        __m128 q[4];
        for (; j + 4 <= c->joint_count; j += 4) {
            const int fast = squad4(c, &s, j, q);
            for (int k = 0; k < 4; ++k) {
                if (fast) _mm_storeu_ps(&local[j + k].rotation.x, q[k]);
                else local[j + k].rotation = sample_rotation(c, &s, j + k, interp);
                local[j + k].translation = sample_translation(c, sk, &s, j + k, interp);
            }
        }
    }
#endif
    for (; j < c->joint_count; ++j) {
        local[j].rotation = sample_rotation(c, &s, j, interp);
        local[j].translation = sample_translation(c, sk, &s, j, interp);
    }
}

void ak_clip_frame(const ak_clip *c, const ak_skeleton *sk, int32_t frame, ak_xform *local)
{
    if (!c || !sk || !local || c->joint_count != sk->joint_count) return;
    if (frame < 0) frame = 0;
    if (frame >= c->frame_count) frame = c->frame_count - 1;
    key_span s = {frame, frame, frame, frame, 0.0f};
    for (int32_t j = 0; j < c->joint_count; ++j) {
        local[j].rotation = sample_rotation(c, &s, j, AK_INTERP_STEP);
        local[j].translation = sample_translation(c, sk, &s, j, AK_INTERP_STEP);
    }
}

#ifdef AK_HAVE_SSE
/* Linear interpolation, sample and FK fused, SSE, for K characters in lockstep (K = 1 or 2:
 * two characters give the CPU two independent parent chains to overlap, FK being bound by
 * the latency of one quaternion product per level). Rotations are slerped four joints at a
 * time (they don't depend on each other), one block ahead of the FK walk so the slerp's
 * latency overlaps the previous block's FK. The parent is usually the previous joint, whose
 * world transform is still in registers; other parents are loaded back. */
AK_INLINE void sample_fk_linear_sse(const ak_clip *c, const ak_skeleton *sk, const key_span *s,
                                    ak_xform *const *w, const int K)
{
    const int32_t n = c->joint_count;
    const size_t m = (size_t)c->track_count;
    const int32_t *parents = sk->parents, *track = c->joint_track;
    const ak_xform *rest = sk->rest_local;
    const ak_quat *r0[2], *r1[2];
    const ak_vec3 *v0[2], *v1[2];
    aks_slerp_t sp[2];
    __m128 alpha[2], block[2][4], next[2][4], prev_q[2], prev_t[2];
    const int32_t full = n & ~3;
    for (int k = 0; k < K; ++k) {
        r0[k] = c->rotations + (size_t)s[k].f0 * (size_t)n;
        r1[k] = c->rotations + (size_t)s[k].f1 * (size_t)n;
        v0[k] = c->translations + (size_t)s[k].f0 * m;
        v1[k] = c->translations + (size_t)s[k].f1 * m;
        sp[k] = aks_slerp_params(s[k].alpha);
        alpha[k] = _mm_set1_ps(s[k].alpha);
        prev_q[k] = prev_t[k] = _mm_setzero_ps();
        block[k][0] = block[k][1] = block[k][2] = block[k][3] = prev_q[k];
        next[k][0] = next[k][1] = next[k][2] = next[k][3] = prev_q[k];
        if (full > 0) aks_slerp4(r0[k], r1[k], &sp[k], next[k]);
    }
    for (int32_t j = 0; j < n; ++j) {
        const int32_t p = parents[j], tk = track[j];
        for (int k = 0; k < K; ++k) {
            __m128 lq, lt;
            if ((j & 3) == 0 && j < full) {
                block[k][0] = next[k][0]; block[k][1] = next[k][1];
                block[k][2] = next[k][2]; block[k][3] = next[k][3];
                if (j + 4 < full) aks_slerp4(&r0[k][j + 4], &r1[k][j + 4], &sp[k], next[k]);
            }
            if (j < full) lq = block[k][j & 3];
            else lq = aks_slerp(_mm_loadu_ps(&r0[k][j].x), _mm_loadu_ps(&r1[k][j].x), &sp[k]);
            if (tk >= 0) {
                __m128 a = aks_load3(&v0[k][tk]);
                lt = _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(aks_load3(&v1[k][tk]), a), alpha[k]));
            } else {
                lt = aks_load_translation(&rest[j]);
            }
            if (p >= 0) {
                __m128 pq = prev_q[k], pt = prev_t[k];
                if (p != j - 1) {
                    pq = _mm_loadu_ps(&w[k][p].rotation.x);
                    pt = aks_load_translation(&w[k][p]);
                }
                lt = _mm_add_ps(pt, aks_rotate(pq, lt));
                lq = aks_qmul(pq, lq);
            }
            aks_store_xform(&w[k][j], lq, lt);
            prev_q[k] = lq;
            prev_t[k] = lt;
        }
    }
}
#endif

#ifdef AK_HAVE_SSE
/* Four characters in lockstep, structure-of-arrays: each register holds one component for
 * the four characters, so every arithmetic instruction does four characters' work and FK
 * needs no shuffles. Keys are gathered and transposed in, world transforms transposed out.
 * `scratch` holds the four characters' world transforms in SoA form, 7 registers a joint. */
/* Per-character inputs of the lockstep paths: the two key rows each character blends and
 * the corrected-nlerp parameters of its t (see aks_slerp_params), for `lanes` characters. */
typedef struct lane_keys {
    const ak_quat *r0[8], *r1[8];
    const ak_vec3 *v0[8], *v1[8];
    float t[8], h[8], g[8];
} lane_keys;

static void lane_keys_load(const ak_clip *c, const key_span *s, int lanes, lane_keys *k)
{
    const size_t n = (size_t)c->joint_count, m = (size_t)c->track_count;
    for (int i = 0; i < lanes; ++i) {
        k->r0[i] = c->rotations + (size_t)s[i].f0 * n;
        k->r1[i] = c->rotations + (size_t)s[i].f1 * n;
        k->v0[i] = c->translations + (size_t)s[i].f0 * m;
        k->v1[i] = c->translations + (size_t)s[i].f1 * m;
        const float t = s[i].alpha;
        k->t[i] = t;
        k->h[i] = (t - 0.5f) * (t - 0.5f);
        k->g[i] = t * (t - 0.5f) * (t - 1.0f);
    }
}

typedef struct soa_xform { __m128 qx, qy, qz, qw, tx, ty, tz; } soa_xform;
#define AK_SOA_MAX_JOINTS 256

static void sample_fk_linear_soa4(const ak_clip *c, const ak_skeleton *sk, const key_span *s,
                                  ak_xform *const *w, soa_xform *AK_RESTRICT ws)
{
    const int32_t n = c->joint_count;
    const int32_t *parents = sk->parents, *track = c->joint_track;
    const ak_xform *rest = sk->rest_local;
    lane_keys keys;
    lane_keys_load(c, s, 4, &keys);
    const ak_quat *const *r0 = keys.r0, *const *r1 = keys.r1;
    const ak_vec3 *const *v0 = keys.v0, *const *v1 = keys.v1;
    const __m128 T = _mm_loadu_ps(keys.t), H = _mm_loadu_ps(keys.h), G = _mm_loadu_ps(keys.g);
    for (int32_t j = 0; j < n; ++j) {
        /* gather + transpose the two keys of each character, slerp per lane */
        const aks_quat4 q = aks_slerp_soa(aks_load_quat4(&r0[0][j], &r0[1][j], &r0[2][j], &r0[3][j]),
                                          aks_load_quat4(&r1[0][j], &r1[1][j], &r1[2][j], &r1[3][j]),
                                          T, H, G);
        const __m128 qx = q.x, qy = q.y, qz = q.z, qw = q.w;
        /* local translation */
        __m128 tx, ty, tz;
        const int32_t tk = track[j];
        if (tk >= 0) {
            __m128 p0 = aks_load3(&v0[0][tk]), p1 = aks_load3(&v0[1][tk]);
            __m128 p2 = aks_load3(&v0[2][tk]), p3 = aks_load3(&v0[3][tk]);
            __m128 e0 = aks_load3(&v1[0][tk]), e1 = aks_load3(&v1[1][tk]);
            __m128 e2 = aks_load3(&v1[2][tk]), e3 = aks_load3(&v1[3][tk]);
            _MM_TRANSPOSE4_PS(p0, p1, p2, p3);
            _MM_TRANSPOSE4_PS(e0, e1, e2, e3);
            tx = _mm_add_ps(p0, _mm_mul_ps(_mm_sub_ps(e0, p0), T));
            ty = _mm_add_ps(p1, _mm_mul_ps(_mm_sub_ps(e1, p1), T));
            tz = _mm_add_ps(p2, _mm_mul_ps(_mm_sub_ps(e2, p2), T));
        } else {
            tx = _mm_set1_ps(rest[j].translation.x);
            ty = _mm_set1_ps(rest[j].translation.y);
            tz = _mm_set1_ps(rest[j].translation.z);
        }
        /* FK: world = parent * local; rotate by the parent's quaternion written out per lane
         * (v + 2w(u x v) + 2u x (u x v)) and Hamilton product. */
        const int32_t p = parents[j];
        soa_xform o;
        if (p < 0) {
            o.qx = qx; o.qy = qy; o.qz = qz; o.qw = qw; o.tx = tx; o.ty = ty; o.tz = tz;
        } else {
            const soa_xform *P = &ws[p];
            __m128 cx = _mm_sub_ps(_mm_mul_ps(P->qy, tz), _mm_mul_ps(P->qz, ty));
            __m128 cy = _mm_sub_ps(_mm_mul_ps(P->qz, tx), _mm_mul_ps(P->qx, tz));
            __m128 cz = _mm_sub_ps(_mm_mul_ps(P->qx, ty), _mm_mul_ps(P->qy, tx));
            cx = _mm_add_ps(cx, cx); cy = _mm_add_ps(cy, cy); cz = _mm_add_ps(cz, cz);
            __m128 ux = _mm_sub_ps(_mm_mul_ps(P->qy, cz), _mm_mul_ps(P->qz, cy));
            __m128 uy = _mm_sub_ps(_mm_mul_ps(P->qz, cx), _mm_mul_ps(P->qx, cz));
            __m128 uz = _mm_sub_ps(_mm_mul_ps(P->qx, cy), _mm_mul_ps(P->qy, cx));
            o.tx = _mm_add_ps(_mm_add_ps(P->tx, tx), _mm_add_ps(_mm_mul_ps(P->qw, cx), ux));
            o.ty = _mm_add_ps(_mm_add_ps(P->ty, ty), _mm_add_ps(_mm_mul_ps(P->qw, cy), uy));
            o.tz = _mm_add_ps(_mm_add_ps(P->tz, tz), _mm_add_ps(_mm_mul_ps(P->qw, cz), uz));
            o.qw = _mm_sub_ps(_mm_sub_ps(_mm_mul_ps(P->qw, qw), _mm_mul_ps(P->qx, qx)),
                              _mm_add_ps(_mm_mul_ps(P->qy, qy), _mm_mul_ps(P->qz, qz)));
            o.qx = _mm_add_ps(_mm_add_ps(_mm_mul_ps(P->qw, qx), _mm_mul_ps(P->qx, qw)),
                              _mm_sub_ps(_mm_mul_ps(P->qy, qz), _mm_mul_ps(P->qz, qy)));
            o.qy = _mm_add_ps(_mm_sub_ps(_mm_mul_ps(P->qw, qy), _mm_mul_ps(P->qx, qz)),
                              _mm_add_ps(_mm_mul_ps(P->qy, qw), _mm_mul_ps(P->qz, qx)));
            o.qz = _mm_add_ps(_mm_add_ps(_mm_mul_ps(P->qw, qz), _mm_mul_ps(P->qx, qy)),
                              _mm_sub_ps(_mm_mul_ps(P->qz, qw), _mm_mul_ps(P->qy, qx)));
        }
        ws[j] = o;
        /* transpose out: four quaternions, four translations */
        __m128 q0 = o.qx, q1 = o.qy, q2 = o.qz, q3 = o.qw;
        _MM_TRANSPOSE4_PS(q0, q1, q2, q3);
        __m128 t0 = o.tx, t1 = o.ty, t2 = o.tz, t3 = _mm_setzero_ps();
        _MM_TRANSPOSE4_PS(t0, t1, t2, t3);
        aks_store_xform(&w[0][j], q0, t0);
        aks_store_xform(&w[1][j], q1, t1);
        aks_store_xform(&w[2][j], q2, t2);
        aks_store_xform(&w[3][j], q3, t3);
    }
}
#endif


#if defined(AK_HAVE_SSE) && (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define AK_HAVE_AVX2_DISPATCH 1
#include <immintrin.h>
/* Eight characters in lockstep with AVX2 + FMA: the four-character SoA path at twice the
 * width. Compiled for AVX2 with a function attribute and chosen at run time
 * (ak_clip_sample_fk_batch checks the CPU), so the library still runs on any x86-64. */
typedef struct soa8_xform { __m256 qx, qy, qz, qw, tx, ty, tz; } soa8_xform;
#define AK_SOA8_MAX_JOINTS 128
#define AK_AVX2 __attribute__((target("avx2,fma")))

/* a[k] (x,y,z,w each) for k = 0..7 -> one register per component. */
AK_AVX2 static inline void soa8_load(const __m128 a[8], __m256 *x, __m256 *y, __m256 *z, __m256 *w)
{
    __m256 t0 = _mm256_insertf128_ps(_mm256_castps128_ps256(a[0]), a[4], 1);
    __m256 t1 = _mm256_insertf128_ps(_mm256_castps128_ps256(a[1]), a[5], 1);
    __m256 t2 = _mm256_insertf128_ps(_mm256_castps128_ps256(a[2]), a[6], 1);
    __m256 t3 = _mm256_insertf128_ps(_mm256_castps128_ps256(a[3]), a[7], 1);
    __m256 u0 = _mm256_unpacklo_ps(t0, t1), u1 = _mm256_unpackhi_ps(t0, t1);
    __m256 u2 = _mm256_unpacklo_ps(t2, t3), u3 = _mm256_unpackhi_ps(t2, t3);
    *x = _mm256_shuffle_ps(u0, u2, 0x44);
    *y = _mm256_shuffle_ps(u0, u2, 0xEE);
    *z = _mm256_shuffle_ps(u1, u3, 0x44);
    *w = _mm256_shuffle_ps(u1, u3, 0xEE);
}

/* The inverse of soa8_load. */
AK_AVX2 static inline void soa8_store(__m256 x, __m256 y, __m256 z, __m256 w, __m128 a[8])
{
    __m256 u0 = _mm256_unpacklo_ps(x, y), u1 = _mm256_unpackhi_ps(x, y);
    __m256 u2 = _mm256_unpacklo_ps(z, w), u3 = _mm256_unpackhi_ps(z, w);
    __m256 q04 = _mm256_shuffle_ps(u0, u2, 0x44), q15 = _mm256_shuffle_ps(u0, u2, 0xEE);
    __m256 q26 = _mm256_shuffle_ps(u1, u3, 0x44), q37 = _mm256_shuffle_ps(u1, u3, 0xEE);
    a[0] = _mm256_castps256_ps128(q04); a[4] = _mm256_extractf128_ps(q04, 1);
    a[1] = _mm256_castps256_ps128(q15); a[5] = _mm256_extractf128_ps(q15, 1);
    a[2] = _mm256_castps256_ps128(q26); a[6] = _mm256_extractf128_ps(q26, 1);
    a[3] = _mm256_castps256_ps128(q37); a[7] = _mm256_extractf128_ps(q37, 1);
}

AK_AVX2 static void sample_fk_linear_soa8(const ak_clip *c, const ak_skeleton *sk, const key_span *s,
                                          ak_xform *const *w, soa8_xform *AK_RESTRICT ws)
{
    const int32_t n = c->joint_count;
    const int32_t *parents = sk->parents, *track = c->joint_track;
    const ak_xform *rest = sk->rest_local;
    lane_keys keys;
    lane_keys_load(c, s, 8, &keys);
    const ak_quat *const *r0 = keys.r0, *const *r1 = keys.r1;
    const ak_vec3 *const *v0 = keys.v0, *const *v1 = keys.v1;
    const __m256 T = _mm256_loadu_ps(keys.t), H = _mm256_loadu_ps(keys.h), G = _mm256_loadu_ps(keys.g);
    const __m256 neg0 = _mm256_set1_ps(-0.0f);
    __m128 lanes[8];
    for (int32_t j = 0; j < n; ++j) {
        __m256 ax, ay, az, aw, bx, by, bz, bw;
        for (int k = 0; k < 8; ++k) lanes[k] = _mm_loadu_ps(&r0[k][j].x);
        soa8_load(lanes, &ax, &ay, &az, &aw);
        for (int k = 0; k < 8; ++k) lanes[k] = _mm_loadu_ps(&r1[k][j].x);
        soa8_load(lanes, &bx, &by, &bz, &bw);
        /* corrected nlerp (fast_slerp), per lane */
        __m256 ca = _mm256_fmadd_ps(ax, bx, _mm256_fmadd_ps(ay, by, _mm256_fmadd_ps(az, bz, _mm256_mul_ps(aw, bw))));
        __m256 sign = _mm256_and_ps(ca, neg0);
        __m256 d = _mm256_xor_ps(ca, sign);
        __m256 A = _mm256_fmadd_ps(d, _mm256_fmadd_ps(d, _mm256_fnmadd_ps(d, _mm256_set1_ps(1.43519f), _mm256_set1_ps(3.55645f)),
                                                      _mm256_set1_ps(-3.2452f)), _mm256_set1_ps(1.0904f));
        __m256 B = _mm256_fmadd_ps(d, _mm256_fmadd_ps(d, _mm256_set1_ps(0.215638f), _mm256_set1_ps(-1.06021f)),
                                   _mm256_set1_ps(0.848013f));
        __m256 ot = _mm256_fmadd_ps(G, _mm256_fmadd_ps(A, H, B), T);
        __m256 qx = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_xor_ps(bx, sign), ax), ot, ax);
        __m256 qy = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_xor_ps(by, sign), ay), ot, ay);
        __m256 qz = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_xor_ps(bz, sign), az), ot, az);
        __m256 qw = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_xor_ps(bw, sign), aw), ot, aw);
        __m256 n2 = _mm256_fmadd_ps(qx, qx, _mm256_fmadd_ps(qy, qy, _mm256_fmadd_ps(qz, qz, _mm256_mul_ps(qw, qw))));
        __m256 y = _mm256_rsqrt_ps(n2);
        __m256 inv = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), y),
                                   _mm256_fnmadd_ps(_mm256_mul_ps(y, y), n2, _mm256_set1_ps(3.0f)));
        qx = _mm256_mul_ps(qx, inv); qy = _mm256_mul_ps(qy, inv); qz = _mm256_mul_ps(qz, inv); qw = _mm256_mul_ps(qw, inv);
        /* local translation */
        __m256 tx, ty, tz;
        const int32_t tk = track[j];
        if (tk >= 0) {
            __m256 px, py, pz, pw, ex, ey, ez, ew;
            for (int k = 0; k < 8; ++k) lanes[k] = aks_load3(&v0[k][tk]);
            soa8_load(lanes, &px, &py, &pz, &pw);
            for (int k = 0; k < 8; ++k) lanes[k] = aks_load3(&v1[k][tk]);
            soa8_load(lanes, &ex, &ey, &ez, &ew);
            tx = _mm256_fmadd_ps(_mm256_sub_ps(ex, px), T, px);
            ty = _mm256_fmadd_ps(_mm256_sub_ps(ey, py), T, py);
            tz = _mm256_fmadd_ps(_mm256_sub_ps(ez, pz), T, pz);
        } else {
            tx = _mm256_set1_ps(rest[j].translation.x);
            ty = _mm256_set1_ps(rest[j].translation.y);
            tz = _mm256_set1_ps(rest[j].translation.z);
        }
        /* FK as in the four-character path */
        const int32_t p = parents[j];
        soa8_xform o;
        if (p < 0) {
            o.qx = qx; o.qy = qy; o.qz = qz; o.qw = qw; o.tx = tx; o.ty = ty; o.tz = tz;
        } else {
            const soa8_xform *P = &ws[p];
            __m256 cx = _mm256_fmsub_ps(P->qy, tz, _mm256_mul_ps(P->qz, ty));
            __m256 cy = _mm256_fmsub_ps(P->qz, tx, _mm256_mul_ps(P->qx, tz));
            __m256 cz = _mm256_fmsub_ps(P->qx, ty, _mm256_mul_ps(P->qy, tx));
            cx = _mm256_add_ps(cx, cx); cy = _mm256_add_ps(cy, cy); cz = _mm256_add_ps(cz, cz);
            __m256 ux = _mm256_fmsub_ps(P->qy, cz, _mm256_mul_ps(P->qz, cy));
            __m256 uy = _mm256_fmsub_ps(P->qz, cx, _mm256_mul_ps(P->qx, cz));
            __m256 uz = _mm256_fmsub_ps(P->qx, cy, _mm256_mul_ps(P->qy, cx));
            o.tx = _mm256_add_ps(_mm256_add_ps(P->tx, tx), _mm256_fmadd_ps(P->qw, cx, ux));
            o.ty = _mm256_add_ps(_mm256_add_ps(P->ty, ty), _mm256_fmadd_ps(P->qw, cy, uy));
            o.tz = _mm256_add_ps(_mm256_add_ps(P->tz, tz), _mm256_fmadd_ps(P->qw, cz, uz));
            o.qw = _mm256_sub_ps(_mm256_fmsub_ps(P->qw, qw, _mm256_mul_ps(P->qx, qx)),
                                 _mm256_fmadd_ps(P->qy, qy, _mm256_mul_ps(P->qz, qz)));
            o.qx = _mm256_add_ps(_mm256_fmadd_ps(P->qw, qx, _mm256_mul_ps(P->qx, qw)),
                                 _mm256_fmsub_ps(P->qy, qz, _mm256_mul_ps(P->qz, qy)));
            o.qy = _mm256_add_ps(_mm256_fmsub_ps(P->qw, qy, _mm256_mul_ps(P->qx, qz)),
                                 _mm256_fmadd_ps(P->qy, qw, _mm256_mul_ps(P->qz, qx)));
            o.qz = _mm256_add_ps(_mm256_fmadd_ps(P->qw, qz, _mm256_mul_ps(P->qx, qy)),
                                 _mm256_fmsub_ps(P->qz, qw, _mm256_mul_ps(P->qy, qx)));
        }
        ws[j] = o;
        __m128 qo[8], to[8];
        soa8_store(o.qx, o.qy, o.qz, o.qw, qo);
        soa8_store(o.tx, o.ty, o.tz, _mm256_setzero_ps(), to);
        for (int k = 0; k < 8; ++k) aks_store_xform(&w[k][j], qo[k], to[k]);
    }
}

static int cpu_has_avx2_fma(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

void ak_clip_sample_fk_batch(const ak_clip *c, const ak_skeleton *sk, const float *times,
                             int32_t count, ak_interp interp, ak_xform *world)
{
    if (!c || !sk || !times || !world || c->joint_count != sk->joint_count) return;
    const int32_t n = c->joint_count;
    const int32_t *parents = sk->parents;
    int32_t i = 0;
#ifdef AK_HAVE_SSE
    if (interp == AK_INTERP_LINEAR) {
#ifdef AK_HAVE_AVX2_DISPATCH
        if (count >= 8 && n <= AK_SOA8_MAX_JOINTS && cpu_has_avx2_fma()) {
            soa8_xform scratch8[AK_SOA8_MAX_JOINTS];
            for (; i + 8 <= count; i += 8) {
                key_span s[8];
                ak_xform *w[8];
                for (int k = 0; k < 8; ++k) {
                    s[k] = locate(c, times[i + k]);
                    w[k] = world + (size_t)(i + k) * (size_t)n;
                }
                sample_fk_linear_soa8(c, sk, s, w, scratch8);
            }
        }
#endif
        if (count - i >= 4 && n <= AK_SOA_MAX_JOINTS) {
            soa_xform scratch[AK_SOA_MAX_JOINTS];
            for (; i + 4 <= count; i += 4) {
                const key_span s[4] = {locate(c, times[i]), locate(c, times[i + 1]),
                                       locate(c, times[i + 2]), locate(c, times[i + 3])};
                ak_xform *w[4] = {world + (size_t)i * (size_t)n, world + (size_t)(i + 1) * (size_t)n,
                                  world + (size_t)(i + 2) * (size_t)n, world + (size_t)(i + 3) * (size_t)n};
                sample_fk_linear_soa4(c, sk, s, w, scratch);
            }
        }
        for (; i + 2 <= count; i += 2) {
            const key_span s[2] = {locate(c, times[i]), locate(c, times[i + 1])};
            ak_xform *w[2] = {world + (size_t)i * (size_t)n, world + (size_t)(i + 1) * (size_t)n};
            sample_fk_linear_sse(c, sk, s, w, 2);
        }
        if (i < count) {
            const key_span s = locate(c, times[i]);
            ak_xform *w = world + (size_t)i * (size_t)n;
            sample_fk_linear_sse(c, sk, &s, &w, 1);
        }
        return;
    }
#endif
    for (; i < count; ++i) {
        const key_span s = locate(c, times[i]);
        ak_xform *w = world + (size_t)i * (size_t)n;
        /* Sample and FK fused: each joint's local transform is used once, straight away.
         * Cubic rotations come four joints at a time where the SSE form applies. */
#ifdef AK_HAVE_SSE
        __m128 q[4];
        int fast = 0;
#endif
        for (int32_t j = 0; j < n; ++j) {
            ak_xform l;
#ifdef AK_HAVE_SSE
            if (interp == AK_INTERP_CUBIC && (j & 3) == 0) fast = j + 4 <= n && squad4(c, &s, j, q);
            if (fast) _mm_storeu_ps(&l.rotation.x, q[j & 3]);
            else
#endif
                l.rotation = sample_rotation(c, &s, j, interp);
            l.translation = sample_translation(c, sk, &s, j, interp);
            const int32_t p = parents[j];
            w[j] = p < 0 ? l : akx_mul(w[p], l);
        }
    }
}

void ak_pose_blend(const ak_xform *a, const ak_xform *b, int32_t n, float weight,
                   const float *mask, ak_xform *out)
{
    if (!a || !b || !out || n <= 0) return;
    for (int32_t j = 0; j < n; ++j) {
        float w = weight * (mask ? mask[j] : 1.0f);
        if (!(w > 0.0f)) { out[j] = a[j]; continue; }
        if (w >= 1.0f) { out[j] = b[j]; continue; }
        ak_xform r;
        r.rotation = akq_slerp(a[j].rotation, b[j].rotation, w);
        r.translation = akv_lerp(a[j].translation, b[j].translation, w);
        out[j] = r;
    }
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

float ak_clip_standing_height(const ak_clip *c, const ak_skeleton *sk)
{
    if (!c || !sk || c->joint_count != sk->joint_count) return 0.0f;
    const int32_t n = sk->joint_count;
    const int32_t samples = c->frame_count < 64 ? c->frame_count : 64;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)n * 2);
    float heights[64] = {0};
    if (!local) return 0.0f;
    for (int32_t i = 0; i < samples; ++i) {
        int32_t f = samples > 1 ? (int32_t)((int64_t)i * (c->frame_count - 1) / (samples - 1)) : 0;
        ak_clip_frame(c, sk, f, local);
        ak_fk(sk, local, local + n);
        heights[i] = ak_pose_height(local + n, n);
    }
    free(local);
    qsort(heights, (size_t)samples, sizeof(float), cmp_float);
    return heights[samples / 2];
}

void ak_clip_scale(ak_clip *c, float factor)
{
    if (!c || !isfinite(factor)) return;
    const size_t keys = (size_t)c->frame_count * (size_t)c->track_count;
    for (size_t k = 0; k < keys; ++k) c->translations[k] = akv_scale(c->translations[k], factor);
}
