/* Internal: key lookup and per-joint interpolation (step, linear, SQUAD, Catmull-Rom) shared by
 * the clip's storage (finalize prepares SQUAD points), sampling (clip_sample.c) and batched
 * sample + FK (clip_batch.c). Everything is inline: it runs per joint per sample. */
#ifndef AK_ANIM_CLIP_INTERNAL_H
#define AK_ANIM_CLIP_INTERNAL_H

#include "animkit/clip.h"
#include "core/simd.h"
#include "core/xform_inline.h"

/* Where t falls: frames f0 (at or before t) and f1 (after), fraction alpha in [0,1), and the
 * neighbours fm (before f0) and f2 (after f1) that the cubic spline needs. */
typedef struct key_span {
    int32_t fm, f0, f1, f2;
    float alpha;
} key_span;

/* ak_clip_duration of a clip that is not NULL, inline for callers that ask it every frame (the
 * walker, five times a frame). */
AK_INLINE float clip_duration(const ak_clip *c)
{
    return (float)(c->loop ? c->frame_count : c->frame_count - 1) * c->frame_time;
}

/* fmodf(t, d) for finite t >= d > 0 with t / d < 2^24, to the bit, without fmodf's bit-by-bit
 * loop (85 instructions a call, most of a looping clip's locate once the time is past its
 * first period). The remainder is exact: t - k d with k = floor(t / d). In double, k d is
 * exact (k below 2^24, d of 24 bits), and so is t - k d (a multiple of d's ulp, t's ulp being
 * no smaller, below 2 d); the quotient's rounding can only make k one too large (it rounds up
 * to an integer at most), which the correction takes back. */
AK_INLINE float wrap_period(float t, float d)
{
    const double dd = (double)d;
    double r = (double)t - (double)(int64_t)((double)t / dd) * dd;
    if (r < 0.0) r += dd;
    return (float)r;
}

AK_INLINE key_span locate_frames(int32_t n, float frame_time, int32_t loop, float t)
{
    key_span s;
    if (!isfinite(t)) t = 0.0f;
    float u;
    if (loop) {
        const float duration = (float)n * frame_time;
        /* fmodf gives t itself there (exactly), at a tenth of the cost; past it wrap_period
         * gives fmodf's bits */
        float w = t >= 0.0f && t < duration                     ? t
                  : t >= duration && t < 16777216.0f * duration ? wrap_period(t, duration)
                                                                : fmodf(t, duration);
        if (w < 0.0f) w += duration;
        u = w / frame_time;
    } else {
        u = t / frame_time;
        if (u < 0.0f) u = 0.0f;
        if (u > (float)(n - 1)) u = (float)(n - 1);
    }
    /* Times computed as f * frame_time land a rounding error either side of key f: snap
     * within 1e-4 of a frame so key times give their key exactly (step mode included). */
    /* u is in [0, n] here, so the integer conversion is floorf's (without its call) */
    const float nearest = (float)(int32_t)(u + 0.5f);
    if (fabsf(u - nearest) < 1e-4f) u = nearest;
    if (loop && u >= (float)n) u = 0.0f;
    int32_t f0 = (int32_t)u;
    if (f0 >= n) f0 = n - 1;
    if (f0 < 0) f0 = 0;
    s.alpha = u - (float)f0;
    if (s.alpha < 0.0f) s.alpha = 0.0f;
    if (s.alpha >= 1.0f) s.alpha = 0.99999994f;
    s.f0 = f0;
    if (loop) { /* the neighbours modulo n, without three integer divisions */
        s.f1 = f0 + 1 == n ? 0 : f0 + 1;
        s.fm = f0 == 0 ? n - 1 : f0 - 1;
        s.f2 = s.f1 + 1 == n ? 0 : s.f1 + 1;
    } else {
        s.f1 = f0 + 1 < n ? f0 + 1 : n - 1;
        s.fm = f0 > 0 ? f0 - 1 : 0;
        s.f2 = f0 + 2 < n ? f0 + 2 : n - 1;
    }
    return s;
}

/* locate_frames of eight times at once with AVX2 (clip_batch.c; builds with
 * AK_HAVE_AVX2_DISPATCH, callers check aks8_cpu_ok): the same spans bit for bit. Returns 0,
 * writing nothing, when a time needs what only the scalar form does (not finite; outside
 * [-duration, 2 duration) of a looping clip). */
int ak_locate8_frames(int32_t n, float frame_time, int32_t loop, const float *times, key_span s[8]);

AK_INLINE key_span locate(const ak_clip *c, float t)
{
    return locate_frames(c->frame_count, c->frame_time, c->loop, t);
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
    ak_quat r = {a.x + (s * b.x - a.x) * ot, a.y + (s * b.y - a.y) * ot, a.z + (s * b.z - a.z) * ot,
                 a.w + (s * b.w - a.w) * ot};
    float inv = akf_rsqrt(akq_dot(r, r));
    r.x *= inv;
    r.y *= inv;
    r.z *= inv;
    r.w *= inv;
    return r;
}

/* Quaternion log/exp for unit quaternions (log returns the vector part theta * axis). */
AK_INLINE ak_vec3 quat_log(ak_quat q)
{
    float v = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    if (v < 1e-9f) return ak_vec3_make(q.x, q.y, q.z);
    float a = atan2f(v, q.w) / v;
    return ak_vec3_make(q.x * a, q.y * a, q.z * a);
}
AK_INLINE ak_quat quat_exp(ak_vec3 v)
{
    float th = akv_len(v);
    if (th < 1e-9f) {
        ak_quat r = {v.x, v.y, v.z, 1.0f};
        return akq_normalize(r);
    }
    float s = sinf(th) / th;
    ak_quat r = {v.x * s, v.y * s, v.z * s, cosf(th)};
    return r;
}
/* q on ref's side (akq_same_side with the reference first, as SQUAD's formulas read). */
AK_INLINE ak_quat same_hemisphere(ak_quat ref, ak_quat q)
{
    return akq_same_side(q, ref);
}
/* SQUAD inner control point at key q with neighbours qm, qp (Shoemake):
 * s = q exp(-(log(q^-1 qp) + log(q^-1 qm)) / 4). With these points SQUAD is C1. */
AK_INLINE ak_quat squad_point(ak_quat qm, ak_quat q, ak_quat qp)
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
AK_INLINE ak_quat squad(ak_quat q0, ak_quat q1, ak_quat s0, ak_quat s1, float t)
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

/* The prepared control points of key f (c->squad_points set): its row, or for a looping
 * clip's first and last key the rows made with wrapped neighbours (ak_clip_prepare_cubic). */
AK_INLINE const ak_quat *squad_row(const ak_clip *c, int32_t f)
{
    const int32_t last = c->frame_count - 1;
    if (c->loop && (f == 0 || f == last)) f = f == 0 ? c->frame_count : c->frame_count + 1;
    return c->squad_points + (size_t)f * (size_t)c->joint_count;
}

/* ak_clip_sample for a caller that keeps the other joints' translations at their rest
 * offsets (what ak_clip_sample writes there) between calls on the same clip: every rotation,
 * and the translations of the joints with a translation track and of joint `also` (-1: none;
 * the joint a caller moves afterwards, e.g. the root motion's in place) only. The same bits
 * as ak_clip_sample where it writes. */
void ak_clip_sample_keyed(const ak_clip *c, const ak_skeleton *sk, float t, ak_interp interp,
                          ak_xform *local, int32_t also);

/* The eight-lane cubic pass's span table (clip_batch.c), made by ak_clip_prepare_cubic in
 * the control points' allocation, after their rows: per key span and joint, the key, the
 * control point and their slerps' constants, so each character's joint is one read. */
#define AK_CUBIC_SPAN_FLOATS 20
/* Bytes the table needs beyond the control-point rows (0 where the eight-lane pass does not
 * run: no AVX2 + FMA, or a build without it). */
size_t ak_clip_spans_size(const ak_clip *c);
/* The table, or NULL (clip not prepared, or no table on this CPU). */
const float *ak_clip_spans(const ak_clip *c);
/* Fills the table from the keys and control points (c->squad_points made). */
void ak_clip_spans_build(ak_clip *c);

/* Cubic rotation of joint j: the precomputed inner points, else (a clip never prepared)
 * made here. */
AK_INLINE ak_quat sample_squad(const ak_clip *c, const key_span *s, int32_t j)
{
    const size_t n = (size_t)c->joint_count;
    const ak_quat *r = c->rotations;
    ak_quat q0 = r[(size_t)s->f0 * n + (size_t)j];
    ak_quat q1 = same_hemisphere(q0, r[(size_t)s->f1 * n + (size_t)j]);
    ak_quat s0, s1;
    if (c->squad_points) {
        s0 = squad_row(c, s->f0)[j];
        s1 = same_hemisphere(q1, squad_row(c, s->f1)[j]);
    } else {
        s0 = squad_point(r[(size_t)s->fm * n + (size_t)j], q0, q1);
        s1 = squad_point(q0, q1, same_hemisphere(q1, r[(size_t)s->f2 * n + (size_t)j]));
    }
    return squad(q0, q1, s0, s1, s->alpha);
}

/* Catmull-Rom through p0 (t=0) and p1 (t=1), tangents from the neighbours pm and p2. */
AK_INLINE ak_vec3 catmull_rom(ak_vec3 pm, ak_vec3 p0, ak_vec3 p1, ak_vec3 p2, float t)
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
    case AK_INTERP_CUBIC: return sample_squad(c, s, j);
    case AK_INTERP_LINEAR:
    default:
        return fast_slerp(r[(size_t)s->f0 * n + (size_t)j], r[(size_t)s->f1 * n + (size_t)j],
                          s->alpha);
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
                           v[(size_t)s->f1 * m + (size_t)k], v[(size_t)s->f2 * m + (size_t)k],
                           s->alpha);
    case AK_INTERP_LINEAR:
    default:
        return akv_lerp(v[(size_t)s->f0 * m + (size_t)k], v[(size_t)s->f1 * m + (size_t)k],
                        s->alpha);
    }
}

#ifdef AK_HAVE_SSE
/* Cubic (SQUAD) rotations of joints j..j+3 at once: the three slerps of squad() in SoA form
 * on the prepared control points. Returns 0, writing nothing, where the scalar path must run
 * instead: unprepared clip, or an outer/inner pair on opposite hemispheres (squad() then
 * blends without the shortest-arc flip). */
/* Whether squad4 applies to the keys of span s: prepared points. */
AK_INLINE int squad4_applies(const ak_clip *c, const key_span *s)
{
    (void)s;
    return c->squad_points != NULL;
}

/* The SQUAD blend of the outer and inner slerps of four joints by the parameters of
 * 2t(1 - t) (ph), transposed to one quaternion a lane in out. The blend takes no shortest-arc
 * flip: returns 0 when any lane's dot has its sign bit set (d < 0, or -0); that sample goes
 * to the scalar SQUAD. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
AK_INLINE int
squad4_blend(aks_quat4 outer, aks_quat4 inner, const aks_slerp_t *ph, __m128 out[4])
{
    const __m128 d = aks_dot_soa(outer, inner);
    if (_mm_movemask_ps(d) != 0) return 0;
    aks_store_transposed(aks_nlerp_fixed_soa(outer, inner, d, ph->t, ph->h, ph->g), out);
    return 1;
}

/* squad4 of joints j..j+3 between the key rows q0 and q1 (frames f0, f1) with the control
 * point rows s0 and s1 (squad_row of f0, f1), the slerp parameters of t (pt) and of the SQUAD
 * blend 2t(1 - t) (ph) made once per sample. Returns 0 where the outer and inner slerps land
 * on opposite hemispheres. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
AK_INLINE int
squad4_at(const ak_quat *q0, const ak_quat *q1, const ak_quat *s0, const ak_quat *s1, int32_t j,
          const aks_slerp_t *pt_, const aks_slerp_t *ph_, __m128 out[4])
{
    const aks_slerp_t pt = *pt_, ph = *ph_;
    q0 += j, q1 += j, s0 += j, s1 += j;
    const aks_quat4 outer =
        aks_slerp_soa(aks_load_quat4(q0, q0 + 1, q0 + 2, q0 + 3),
                      aks_load_quat4(q1, q1 + 1, q1 + 2, q1 + 3), pt.t, pt.h, pt.g);
    const aks_quat4 inner =
        aks_slerp_soa(aks_load_quat4(s0, s0 + 1, s0 + 2, s0 + 3),
                      aks_load_quat4(s1, s1 + 1, s1 + 2, s1 + 3), pt.t, pt.h, pt.g);
    return squad4_blend(outer, inner, &ph, out);
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline)) /* (into each of clip_sample.c's two forms) */
#endif
AK_INLINE int
squad4(const ak_clip *c, const key_span *s, int32_t j, __m128 out[4])
{
    if (!squad4_applies(c, s)) return 0;
    const aks_slerp_t pt = aks_slerp_params(s->alpha);
    const aks_slerp_t ph = aks_slerp_params(2.0f * s->alpha * (1.0f - s->alpha));
    const size_t n = (size_t)c->joint_count;
    return squad4_at(c->rotations + (size_t)s->f0 * n, c->rotations + (size_t)s->f1 * n,
                     squad_row(c, s->f0), squad_row(c, s->f1), j, &pt, &ph, out);
}
#endif

#endif
