/* Batched sample + FK: many characters on one clip in lockstep. Linear and cubic in SSE (one
 * or two characters) and AVX2 + FMA over eight (chosen at run time), linear also SoA over
 * four; step, and everything without SSE, through the per-joint scalar forms. */
#include "anim/clip_internal.h"
#include "core/simd8.h"

#ifdef AK_HAVE_SSE
/* The span-table row of a span starting at key f0: the clamped clip's row f0, or for a
 * looping clip's spans that differ (f0 = 0, last - 1, last) rows frame_count..+2. */
static int32_t span_row(const ak_clip *c, int32_t f0)
{
    const int32_t n = c->frame_count, last = n - 1;
    if (!c->loop) return f0;
    if (f0 == 0) return n;
    if (f0 == last) return n + 2;
    return f0 == last - 1 ? n + 1 : f0;
}
#endif

#ifdef AK_HAVE_SSE
/* Catmull-Rom weights of pm, p0, p1, p2 at t (catmull_rom in clip_internal.h), broadcast. */
typedef struct cr_weights {
    __m128 a, b, c, d;
} cr_weights;

AK_INLINE cr_weights cr_weights_at(float t)
{
    const float t2 = t * t, t3 = t2 * t;
    cr_weights w = {
        _mm_set1_ps(-0.5f * t3 + t2 - 0.5f * t), _mm_set1_ps(1.5f * t3 - 2.5f * t2 + 1.0f),
        _mm_set1_ps(-1.5f * t3 + 2.0f * t2 + 0.5f * t), _mm_set1_ps(0.5f * t3 - 0.5f * t2)};
    return w;
}

/* One character's inputs of the SSE pass: the key rows it blends (translation rows of
 * frames fm, f0, f1, f2; rotation rows of f0, f1), its slerp parameters of t and of the SQUAD
 * blend 2t(1 - t), its Catmull-Rom weights, and whether the SSE SQUAD applies. */
typedef struct sse_lane {
    const key_span *s;
    const ak_quat *r0, *r1;
    const ak_vec3 *vm, *v0, *v1, *v2;
    aks_slerp_t sp, sph;
    cr_weights cw;
    __m128 alpha;
    const ak_quat *s0, *s1; /* control-point rows of f0 and f1 (cubic, prepared clip) */
    const float *span;      /* its span-table row (cubic, where the clip has the table) */
    int squad_fast;
} sse_lane;

AK_INLINE void sse_lane_load(const ak_clip *c, const key_span *s, ak_interp interp, sse_lane *l)
{
    const size_t n = (size_t)c->joint_count, m = (size_t)c->track_count;
    l->s = s;
    l->r0 = c->rotations + (size_t)s->f0 * n;
    l->r1 = c->rotations + (size_t)s->f1 * n;
    l->vm = c->translations + (size_t)s->fm * m;
    l->v0 = c->translations + (size_t)s->f0 * m;
    l->v1 = c->translations + (size_t)s->f1 * m;
    l->v2 = c->translations + (size_t)s->f2 * m;
    l->sp = aks_slerp_params(s->alpha);
    l->alpha = _mm_set1_ps(s->alpha);
    if (interp != AK_INTERP_CUBIC) return;
    l->sph = aks_slerp_params(2.0f * s->alpha * (1.0f - s->alpha));
    l->cw = cr_weights_at(s->alpha);
    l->span = NULL;
    l->squad_fast = squad4_applies(c, s);
    if (!l->squad_fast) return;
    l->s0 = squad_row(c, s->f0);
    l->s1 = squad_row(c, s->f1);
    const float *spans = ak_clip_spans(c);
    l->span = spans ? spans + (size_t)span_row(c, s->f0) * n * AK_CUBIC_SPAN_FLOATS : NULL;
}

/* Four floats at `at` of joints j..j+3's entries of a span-table row, one register per
 * float. */
AK_INLINE aks_quat4 span4_load(const float *row, int32_t j, size_t at)
{
    const float *e = row + (size_t)j * AK_CUBIC_SPAN_FLOATS + at;
    aks_quat4 r = {_mm_loadu_ps(e), _mm_loadu_ps(e + AK_CUBIC_SPAN_FLOATS),
                   _mm_loadu_ps(e + 2 * AK_CUBIC_SPAN_FLOATS),
                   _mm_loadu_ps(e + 3 * AK_CUBIC_SPAN_FLOATS)};
    _MM_TRANSPOSE4_PS(r.x, r.y, r.z, r.w);
    return r;
}

/* squad4_at from the span table (keys, differences and slerp coefficients made once per
 * key): the outer and inner slerps without their dot products, sign flips and polynomials.
 * Returns 0 where the outer and inner slerps land on opposite hemispheres. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
AK_INLINE int
squad4_span(const float *row, int32_t j, const aks_slerp_t *pt, const aks_slerp_t *ph,
            __m128 out[4])
{
    const aks_quat4 ab = span4_load(row, j, 16); /* A, B outer; A, B inner */
    const __m128 ot_outer =
        _mm_add_ps(pt->t, _mm_mul_ps(pt->g, _mm_add_ps(_mm_mul_ps(ab.x, pt->h), ab.y)));
    const __m128 ot_inner =
        _mm_add_ps(pt->t, _mm_mul_ps(pt->g, _mm_add_ps(_mm_mul_ps(ab.z, pt->h), ab.w)));
    const aks_quat4 outer =
        aks_lerp_normalize_soa(span4_load(row, j, 0), span4_load(row, j, 4), ot_outer);
    const aks_quat4 inner =
        aks_lerp_normalize_soa(span4_load(row, j, 8), span4_load(row, j, 12), ot_inner);
    return squad4_blend(outer, inner, ph, out);
}

/* Local translation of joint j (track tk, or the rest offset) in lanes 0..2; the cubic form
 * sums in catmull_rom's order, so it gives the scalar path's bits. */
AK_INLINE __m128 translation_sse(const ak_skeleton *sk, const sse_lane *l, int32_t j, int32_t tk,
                                 ak_interp interp)
{
    if (tk < 0) return aks_load_translation(&sk->rest_local[j]);
    const __m128 p0 = aks_load3(&l->v0[tk]), p1 = aks_load3(&l->v1[tk]);
    if (interp != AK_INTERP_CUBIC) return _mm_add_ps(p0, _mm_mul_ps(_mm_sub_ps(p1, p0), l->alpha));
    const __m128 pm = aks_load3(&l->vm[tk]), p2 = aks_load3(&l->v2[tk]);
    return _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(l->cw.a, pm), _mm_mul_ps(l->cw.b, p0)),
                                 _mm_mul_ps(l->cw.c, p1)),
                      _mm_mul_ps(l->cw.d, p2));
}

/* Rotations of joints j..j+3 of one character, AoS: four slerps at once (linear), the SSE
 * SQUAD where it applies, else the scalar SQUAD joint by joint. */
AK_INLINE void rotations4_sse(const ak_clip *c, const sse_lane *l, int32_t j, ak_interp interp,
                              __m128 out[4])
{
    if (interp != AK_INTERP_CUBIC) {
        aks_slerp4(l->r0 + j, l->r1 + j, &l->sp, out);
        return;
    }
    if (l->span && squad4_span(l->span, j, &l->sp, &l->sph, out)) return;
    if (l->squad_fast && !l->span && squad4_at(l->r0, l->r1, l->s0, l->s1, j, &l->sp, &l->sph, out))
        return;
    for (int k = 0; k < 4; ++k) {
        const ak_quat q = sample_squad(c, l->s, j + k);
        out[k] = _mm_loadu_ps(&q.x);
    }
}

/* Cubic rotations of joints full..n-1 (at most three; full >= 4) in out[0..]: joints
 * n-4..n-1 made like a block (from the span table where the clip has it), the last n - full
 * kept. They are the blocks' maths, not sample_squad's: a few ulps from the scalar form, as the
 * blocks' joints are. */
AK_INLINE void tail_rotations(const ak_clip *c, const sse_lane *l, int32_t full, int32_t n,
                              __m128 out[4])
{
    __m128 q[4];
    rotations4_sse(c, l, n - 4, AK_INTERP_CUBIC, q);
    for (int32_t k = full; k < n; ++k)
        out[k - full] = q[k - (n - 4)];
}

/* Sample and FK fused, SSE, for K characters in lockstep (K = 1 or 2: two characters give
 * the CPU two independent parent chains to overlap, FK being bound by the latency of one
 * quaternion product per level); linear or cubic. Rotations come four joints at a time (they
 * don't depend on each other), one block ahead of the FK walk so their latency overlaps the
 * previous block's FK. The parent is usually the previous joint, whose model transform is
 * still in registers; other parents are loaded back. */
AK_INLINE void sample_fk_sse(const ak_clip *c, const ak_skeleton *sk, const key_span *s,
                             ak_xform *const *w, const int K, const ak_interp interp)
{
    const int32_t n = c->joint_count;
    const int32_t *parents = sk->parents, *track = c->joint_track;
    sse_lane lane[2];
    __m128 block[2][4], next[2][4], prev_q[2], prev_t[2];
    const int32_t full = n & ~3;
    /* cubic: the joints after the last block of four (n not a multiple of four) are made by
     * tail_rotations like a block, one block ahead like the others (a 31-joint character's
     * cubic / linear time: joint by joint with sample_squad 1.76; sample_squad's maths four
     * lanes at once 1.55; as a block 1.42). */
    const int tail = interp == AK_INTERP_CUBIC && full > 0 && full < n;
    for (int k = 0; k < K; ++k) {
        sse_lane_load(c, &s[k], interp, &lane[k]);
        prev_q[k] = prev_t[k] = _mm_setzero_ps();
        block[k][0] = block[k][1] = block[k][2] = block[k][3] = prev_q[k];
        next[k][0] = next[k][1] = next[k][2] = next[k][3] = prev_q[k];
        if (full > 0) rotations4_sse(c, &lane[k], 0, interp, next[k]);
    }
    for (int32_t j = 0; j < n; ++j) {
        const int32_t p = parents[j], tk = track[j];
        for (int k = 0; k < K; ++k) {
            __m128 lq;
            if ((j & 3) == 0 && j < full) {
                block[k][0] = next[k][0];
                block[k][1] = next[k][1];
                block[k][2] = next[k][2];
                block[k][3] = next[k][3];
                if (j + 4 < full)
                    rotations4_sse(c, &lane[k], j + 4, interp, next[k]);
                else if (tail)
                    tail_rotations(c, &lane[k], full, n, next[k]);
            }
            if (j < full) {
                lq = block[k][j & 3];
            } else if (tail) {
                lq = next[k][j - full];
            } else if (interp != AK_INTERP_CUBIC) {
                lq = aks_slerp(_mm_loadu_ps(&lane[k].r0[j].x), _mm_loadu_ps(&lane[k].r1[j].x),
                               &lane[k].sp);
            } else {
                const ak_quat q = sample_squad(c, &s[k], j);
                lq = _mm_loadu_ps(&q.x);
            }
            __m128 lt = translation_sse(sk, &lane[k], j, tk, interp);
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
 * needs no shuffles. Keys are gathered and transposed in, model transforms transposed out.
 * `scratch` holds the four characters' model transforms in SoA form, 7 registers a joint. */
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

typedef struct soa_xform {
    __m128 qx, qy, qz, qw, tx, ty, tz;
} soa_xform;

/* l <- P * l for four transforms in SoA form: t = P.t + rotate(P.q, l.t) with the rotation
 * written out per lane (v + 2w(u x v) + 2u x (u x v)), q = P.q l.q (Hamilton product). */
static inline void soa4_parent_times(const soa_xform *P, soa_xform *l)
{
    const __m128 tx = l->tx, ty = l->ty, tz = l->tz, qx = l->qx, qy = l->qy, qz = l->qz, qw = l->qw;
    __m128 cx = _mm_sub_ps(_mm_mul_ps(P->qy, tz), _mm_mul_ps(P->qz, ty));
    __m128 cy = _mm_sub_ps(_mm_mul_ps(P->qz, tx), _mm_mul_ps(P->qx, tz));
    __m128 cz = _mm_sub_ps(_mm_mul_ps(P->qx, ty), _mm_mul_ps(P->qy, tx));
    cx = _mm_add_ps(cx, cx);
    cy = _mm_add_ps(cy, cy);
    cz = _mm_add_ps(cz, cz);
    const __m128 ux = _mm_sub_ps(_mm_mul_ps(P->qy, cz), _mm_mul_ps(P->qz, cy));
    const __m128 uy = _mm_sub_ps(_mm_mul_ps(P->qz, cx), _mm_mul_ps(P->qx, cz));
    const __m128 uz = _mm_sub_ps(_mm_mul_ps(P->qx, cy), _mm_mul_ps(P->qy, cx));
    l->tx = _mm_add_ps(_mm_add_ps(P->tx, tx), _mm_add_ps(_mm_mul_ps(P->qw, cx), ux));
    l->ty = _mm_add_ps(_mm_add_ps(P->ty, ty), _mm_add_ps(_mm_mul_ps(P->qw, cy), uy));
    l->tz = _mm_add_ps(_mm_add_ps(P->tz, tz), _mm_add_ps(_mm_mul_ps(P->qw, cz), uz));
    l->qw = _mm_sub_ps(_mm_sub_ps(_mm_mul_ps(P->qw, qw), _mm_mul_ps(P->qx, qx)),
                       _mm_add_ps(_mm_mul_ps(P->qy, qy), _mm_mul_ps(P->qz, qz)));
    l->qx = _mm_add_ps(_mm_add_ps(_mm_mul_ps(P->qw, qx), _mm_mul_ps(P->qx, qw)),
                       _mm_sub_ps(_mm_mul_ps(P->qy, qz), _mm_mul_ps(P->qz, qy)));
    l->qy = _mm_add_ps(_mm_sub_ps(_mm_mul_ps(P->qw, qy), _mm_mul_ps(P->qx, qz)),
                       _mm_add_ps(_mm_mul_ps(P->qy, qw), _mm_mul_ps(P->qz, qx)));
    l->qz = _mm_add_ps(_mm_add_ps(_mm_mul_ps(P->qw, qz), _mm_mul_ps(P->qx, qy)),
                       _mm_sub_ps(_mm_mul_ps(P->qz, qw), _mm_mul_ps(P->qy, qx)));
}

/* The model transforms of joint p of the four characters, read back from their poses. */
static inline void soa4_gather(ak_xform *const *w, int32_t p, soa_xform *P)
{
    __m128 q0 = _mm_loadu_ps(&w[0][p].rotation.x), q1 = _mm_loadu_ps(&w[1][p].rotation.x);
    __m128 q2 = _mm_loadu_ps(&w[2][p].rotation.x), q3 = _mm_loadu_ps(&w[3][p].rotation.x);
    __m128 t0 = aks_load_translation(&w[0][p]), t1 = aks_load_translation(&w[1][p]);
    __m128 t2 = aks_load_translation(&w[2][p]), t3 = aks_load_translation(&w[3][p]);
    _MM_TRANSPOSE4_PS(q0, q1, q2, q3);
    _MM_TRANSPOSE4_PS(t0, t1, t2, t3);
    P->qx = q0;
    P->qy = q1;
    P->qz = q2;
    P->qw = q3;
    P->tx = t0;
    P->ty = t1;
    P->tz = t2;
}

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
        const aks_quat4 q =
            aks_slerp_soa(aks_load_quat4(&r0[0][j], &r0[1][j], &r0[2][j], &r0[3][j]),
                          aks_load_quat4(&r1[0][j], &r1[1][j], &r1[2][j], &r1[3][j]), T, H, G);
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
        /* FK: model = parent * local */
        const int32_t p = parents[j];
        soa_xform o = {q.x, q.y, q.z, q.w, tx, ty, tz};
        if (p >= 0) {
            int32_t slot = p & (AK_SOA_TILE - 1);
            if (j - p >= AK_SOA_TILE) { /* outside the window: read back, into the spare slot */
                slot = AK_SOA_TILE;
                soa4_gather(w, p, &ws[slot]);
            }
            soa4_parent_times(&ws[slot], &o);
        }
        ws[j & (AK_SOA_TILE - 1)] = o;
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

#ifdef AK_HAVE_AVX2_DISPATCH
/* Eight lanes' key spans in registers: the keys fm, f0, f1, f2 and the fraction alpha, as
 * locate makes them. */
typedef struct span8 {
    __m256i fm, f0, f1, f2;
    __m256 alpha;
} span8;

/* What locate8 needs of a clip of n frames, made once per call (in registers or one load
 * each, where a clip field would be read again after every block's stores). */
typedef struct locate8_clip {
    __m256 nf, last, d, d_neg, d2, frame_time;
    __m256i last_i, n_i;
    int32_t n, loop;
} locate8_clip;

AK_AVX2 static inline locate8_clip locate8_prepare(int32_t n, float frame_time, int32_t loop)
{
    locate8_clip k;
    const __m256 d = _mm256_set1_ps((float)n * frame_time);
    k.nf = _mm256_set1_ps((float)n);
    k.last = _mm256_set1_ps((float)(n - 1));
    k.d = d;
    k.d_neg = _mm256_sub_ps(_mm256_setzero_ps(), d);
    k.d2 = _mm256_add_ps(d, d);
    k.frame_time = _mm256_set1_ps(frame_time);
    k.last_i = _mm256_set1_epi32(n - 1);
    k.n_i = _mm256_set1_epi32(n);
    k.n = n;
    k.loop = loop;
    return k;
}

/* The keys around f0 (s->f0 set): the next key f1 and the keys fm and f2 around f0 and f1,
 * wrapped on a looping clip of n keys and clamped on the other, as locate makes them. */
AK_AVX2 static inline void span8_neighbours(const locate8_clip *k, span8 *s)
{
    const __m256i one = _mm256_set1_epi32(1), nv = k->n_i;
    const __m256i last = k->last_i, zero = _mm256_setzero_si256();
    const __m256i f0 = s->f0;
    __m256i f1 = _mm256_add_epi32(f0, one), fm = _mm256_sub_epi32(f0, one), f2;
    if (k->loop) {
        f1 = _mm256_andnot_si256(_mm256_cmpeq_epi32(f1, nv), f1);
        fm = _mm256_blendv_epi8(fm, last, _mm256_cmpeq_epi32(f0, zero));
        f2 = _mm256_add_epi32(f1, one);
        f2 = _mm256_andnot_si256(_mm256_cmpeq_epi32(f2, nv), f2);
    } else {
        f1 = _mm256_min_epi32(f1, last);
        fm = _mm256_max_epi32(fm, zero);
        f2 = _mm256_min_epi32(_mm256_add_epi32(f0, _mm256_set1_epi32(2)), last);
    }
    s->f1 = f1, s->fm = fm, s->f2 = f2;
}

/* locate_frames() of eight times at once (a clip k, locate8_prepare): the same operations in
 * the same order (IEEE division, truncation, compares), so the same spans bit for bit.
 * Returns 0, writing nothing, when a time needs what only the scalar form does (not finite;
 * outside [-duration, 2 duration) of a looping clip, which fmodf wraps). */
AK_AVX2 static inline int locate8(const locate8_clip *k, const float *times, span8 *s)
{
    const __m256 t = _mm256_loadu_ps(times), zero = _mm256_setzero_ps();
    __m256 u;
    if (k->loop) {
        /* in [-duration, 2 duration): fmodf's remainder is t, or t - duration (exact: within
         * a factor 2), and a negative one gets duration added, as locate does */
        const __m256 d = k->d;
        const __m256 ok = _mm256_and_ps(_mm256_cmp_ps(t, k->d_neg, _CMP_GE_OQ),
                                        _mm256_cmp_ps(t, k->d2, _CMP_LT_OQ));
        if (_mm256_movemask_ps(ok) != 0xFF) return 0;
        __m256 w = _mm256_blendv_ps(t, _mm256_sub_ps(t, d), _mm256_cmp_ps(t, d, _CMP_GE_OQ));
        w = _mm256_blendv_ps(w, _mm256_add_ps(t, d), _mm256_cmp_ps(t, zero, _CMP_LT_OQ));
        u = _mm256_div_ps(w, k->frame_time);
    } else {
        const __m256 finite = _mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), t),
                                            _mm256_set1_ps(INFINITY), _CMP_LT_OQ);
        if (_mm256_movemask_ps(finite) != 0xFF) return 0;
        u = _mm256_div_ps(t, k->frame_time);
        u = _mm256_blendv_ps(u, zero, _mm256_cmp_ps(u, zero, _CMP_LT_OQ));
        u = _mm256_blendv_ps(u, k->last, _mm256_cmp_ps(u, k->last, _CMP_GT_OQ));
    }
    const __m256 nearest =
        _mm256_cvtepi32_ps(_mm256_cvttps_epi32(_mm256_add_ps(u, _mm256_set1_ps(0.5f))));
    const __m256 off = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), _mm256_sub_ps(u, nearest));
    u = _mm256_blendv_ps(u, nearest, _mm256_cmp_ps(off, _mm256_set1_ps(1e-4f), _CMP_LT_OQ));
    if (k->loop) u = _mm256_blendv_ps(u, zero, _mm256_cmp_ps(u, k->nf, _CMP_GE_OQ));
    __m256i f0 = _mm256_cvttps_epi32(u);
    f0 = _mm256_max_epi32(_mm256_min_epi32(f0, k->last_i), _mm256_setzero_si256());
    __m256 a = _mm256_sub_ps(u, _mm256_cvtepi32_ps(f0));
    a = _mm256_blendv_ps(a, zero, _mm256_cmp_ps(a, zero, _CMP_LT_OQ));
    a = _mm256_blendv_ps(a, _mm256_set1_ps(0.99999994f),
                         _mm256_cmp_ps(a, _mm256_set1_ps(1.0f), _CMP_GE_OQ));
    s->f0 = f0;
    s->alpha = a;
    span8_neighbours(k, s);
    return 1;
}

AK_AVX2 int ak_locate8_frames(int32_t n, float frame_time, int32_t loop, const float *times,
                              key_span s[8])
{
    span8 v;
    const locate8_clip k = locate8_prepare(n, frame_time, loop);
    if (!locate8(&k, times, &v)) return 0;
    /* transposed out: fm, f0, f1, f2 of a lane in one store */
    __m128 rows[8];
    soa8_store(_mm256_castsi256_ps(v.fm), _mm256_castsi256_ps(v.f0), _mm256_castsi256_ps(v.f1),
               _mm256_castsi256_ps(v.f2), rows);
    float al[8];
    _mm256_storeu_ps(al, v.alpha);
    for (int k = 0; k < 8; ++k) {
        _mm_storeu_ps((float *)(void *)&s[k].fm, rows[k]);
        s[k].alpha = al[k];
    }
    return 1;
}

/* The spans of eight characters at `times` in registers: locate8 (clip k), else locate lane
 * by lane (the same spans either way). Inlined into each pass: a call hands them over in
 * memory. */
AK_AVX2 __attribute__((always_inline)) static inline span8
locate_lanes8(const ak_clip *c, const locate8_clip *k, const float *times)
{
    span8 v;
    if (locate8(k, times, &v)) return v;
    int32_t fm[8], f0[8], f1[8], f2[8];
    float a[8];
    for (int k = 0; k < 8; ++k) {
        const key_span e = locate(c, times[k]);
        fm[k] = e.fm, f0[k] = e.f0, f1[k] = e.f1, f2[k] = e.f2, a[k] = e.alpha;
    }
    v.fm = _mm256_loadu_si256((const __m256i *)(const void *)fm);
    v.f0 = _mm256_loadu_si256((const __m256i *)(const void *)f0);
    v.f1 = _mm256_loadu_si256((const __m256i *)(const void *)f1);
    v.f2 = _mm256_loadu_si256((const __m256i *)(const void *)f2);
    v.alpha = _mm256_loadu_ps(a);
    return v;
}

/* The eight lanes' rows base + row * stride bytes, into `out` (eight pointers): stride below
 * 2^32 (batch_soa8 checks), so the 32 x 32-bit products are exact. */
AK_AVX2 static inline void lane_rows8(const void *base, __m256i row, uint32_t stride, void *out)
{
    const __m256i b = _mm256_set1_epi64x((long long)(uintptr_t)base);
    const __m256i st = _mm256_set1_epi64x((long long)stride);
    const __m256i lo = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(row));
    const __m256i hi = _mm256_cvtepu32_epi64(_mm256_extracti128_si256(row, 1));
    _mm256_storeu_si256((__m256i *)out, _mm256_add_epi64(b, _mm256_mul_epu32(lo, st)));
    _mm256_storeu_si256((__m256i *)out + 1, _mm256_add_epi64(b, _mm256_mul_epu32(hi, st)));
}

/* Eight characters in lockstep (core/simd8.h): linear, and cubic on prepared control points.
 * Each pass writes either the eight AoS poses w (through the SoA window ws) or, with `soa`
 * set, the eight characters' SoA block (ak_clip_sample_fk_batch_soa); the two forms are
 * compiled apart (always inline on a constant), so neither pays for the other. */
#define AK_SOA8_PASS AK_AVX2 __attribute__((always_inline)) static inline

/* Joint j's rest offset in every lane (a joint without a translation track): broadcast
 * straight from memory. */
AK_AVX2 static inline void soa8_rest_translation(const ak_xform *rest, int32_t j, soa8_xform *o)
{
    o->tx = _mm256_broadcast_ss(&rest[j].translation.x);
    o->ty = _mm256_broadcast_ss(&rest[j].translation.y);
    o->tz = _mm256_broadcast_ss(&rest[j].translation.z);
}

/* Joint j's model transforms out: into the SoA block, or transposed into the eight poses (w:
 * the first character's, the others following, n joints apart). */
AK_SOA8_PASS void soa8_put(ak_xform *w, int32_t n, soa8_xform *AK_RESTRICT ws, float *soa,
                           const int to_soa, int32_t j, int32_t p, soa8_xform o, const int tiled,
                           int32_t *held)
{
    if (to_soa)
        soa8_fk_soa(soa, j, p, o);
    else
        soa8_fk_store_tiled(ws, w, (size_t)n, j, p, o, tiled, held);
}

/* lane_keys_load's rows of eight lanes from their keys f0, f1 in registers (by value: the
 * spans stay in registers, and the keys fm and f2 the linear pass does not use are not made;
 * the slerp parameters are made in the pass: lane_params8). Returns whether every lane's f1 is f0 +
 * 1 (the second rows are then not made: the pass reads them after the first). */
AK_AVX2 static int lane_keys8(const ak_clip *c, __m256i f0, __m256i f1, lane_keys *k)
{
    const uint32_t rs = (uint32_t)c->joint_count * (uint32_t)sizeof(ak_quat);
    const uint32_t ts = (uint32_t)c->track_count * (uint32_t)sizeof(ak_vec3);
    lane_rows8(c->rotations, f0, rs, k->r0);
    lane_rows8(c->translations, f0, ts, k->v0);
    const __m256i next = _mm256_add_epi32(f0, _mm256_set1_epi32(1));
    const int adjacent =
        _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(f1, next))) == 0xFF;
    if (!adjacent) {
        lane_rows8(c->rotations, f1, rs, k->r1);
        lane_rows8(c->translations, f1, ts, k->v1);
    }
    return adjacent;
}

/* lane_keys_load's slerp parameters t, h, g of eight lanes at t, in registers (the same
 * operations in the same order: the same bits). */
AK_AVX2 static inline void lane_params8(__m256 t, __m256 *T, __m256 *H, __m256 *G)
{
    const __m256 tm = _mm256_sub_ps(t, _mm256_set1_ps(0.5f));
    *T = t;
    *H = _mm256_mul_ps(tm, tm);
    *G = _mm256_mul_ps(_mm256_mul_ps(t, tm), _mm256_sub_ps(t, _mm256_set1_ps(1.0f)));
}

/* soa8_vec3_keys in one 16-byte load a lane instead of a 12-byte one in two parts: a fourth
 * float follows every key (the next key's x, or after the last key the one ak_clip_create
 * allocates beyond the keys). */
AK_AVX2 static inline void soa8_vec3_keys_padded(const ak_vec3 *const *rows, int32_t tk,
                                                 __m256 xyz[3])
{
    __m128 lanes[8];
    for (int k = 0; k < 8; ++k)
        lanes[k] = _mm_loadu_ps(&rows[k][tk].x);
    __m256 unused;
    soa8_load(lanes, &xyz[0], &xyz[1], &xyz[2], &unused);
}

/* Linear sample + FK of eight characters. `adjacent`: every lane's second key row is the row
 * after its first (f1 = f0 + 1: all spans but those that wrap or clamp at the end), so one
 * row pointer per lane reaches both keys (joints j and j + joint_count): eight pointers to
 * hold in registers instead of sixteen. */
AK_SOA8_PASS void sample_fk_linear_soa8(const ak_clip *c, const ak_skeleton *sk,
                                        const lane_keys *keys, __m256 alpha, ak_xform *w,
                                        soa8_xform *AK_RESTRICT ws, float *soa, const int to_soa,
                                        const int adjacent, const int tiled)
{
    const int32_t n = c->joint_count, m = c->track_count;
    const int32_t *parents = sk->parents, *track = c->joint_track;
    const ak_xform *rest = sk->rest_local;
    __m256 T, H, G;
    lane_params8(alpha, &T, &H, &G);
    int32_t held = -1; /* the joint in ws's spare slot (soa8_fk_store_tiled) */
    for (int32_t j = 0; j < n; ++j) {
        /* gather + transpose the two keys of each character, slerp per lane */
        const soa8_quat a = soa8_keys(keys->r0, j);
        const soa8_quat b = adjacent ? soa8_keys(keys->r0, j + n) : soa8_keys(keys->r1, j);
        const soa8_quat q = soa8_slerp(a, b, T, H, G);
        soa8_xform o;
        o.qx = q.x, o.qy = q.y, o.qz = q.z, o.qw = q.w;
        const int32_t tk = track[j];
        if (tk < 0) {
            soa8_rest_translation(rest, j, &o);
        } else {
            __m256 v0[3], v1[3];
            if (adjacent) {
                soa8_vec3_keys_padded(keys->v0, tk, v0);
                soa8_vec3_keys(keys->v0, tk + m, v1);
            } else {
                soa8_vec3_keys(keys->v0, tk, v0);
                soa8_vec3_keys(keys->v1, tk, v1);
            }
            o.tx = _mm256_fmadd_ps(_mm256_sub_ps(v1[0], v0[0]), T, v0[0]);
            o.ty = _mm256_fmadd_ps(_mm256_sub_ps(v1[1], v0[1]), T, v0[1]);
            o.tz = _mm256_fmadd_ps(_mm256_sub_ps(v1[2], v0[2]), T, v0[2]);
        }
        soa8_put(w, n, ws, soa, to_soa, j, parents[j], o, tiled, &held);
    }
}

/* The linear pass of eight characters, its two forms (adjacent key rows or not). */
AK_SOA8_PASS void linear_soa8(const ak_clip *c, const ak_skeleton *sk, const span8 *s, ak_xform *w,
                              soa8_xform *AK_RESTRICT ws, float *soa, const int to_soa)
{
    lane_keys keys;
    const int adjacent = lane_keys8(c, s->f0, s->f1, &keys);
    /* the AoS window holds every joint of a rig of up to AK_SOA_TILE: no wrap to test */
    const int tiled = !to_soa && c->joint_count > AK_SOA_TILE;
    if (adjacent && !tiled)
        sample_fk_linear_soa8(c, sk, &keys, s->alpha, w, ws, soa, to_soa, 1, 0);
    else if (adjacent)
        sample_fk_linear_soa8(c, sk, &keys, s->alpha, w, ws, soa, to_soa, 1, 1);
    else if (!tiled)
        sample_fk_linear_soa8(c, sk, &keys, s->alpha, w, ws, soa, to_soa, 0, 0);
    else
        sample_fk_linear_soa8(c, sk, &keys, s->alpha, w, ws, soa, to_soa, 0, 1);
}

/* Per-character inputs of the cubic lockstep pass: its row of the span table (ak_clip_spans:
 * keys, control points and slerp constants of its span), its translation key rows (frames
 * fm, f0, f1, f2), the slerp parameters of t and of the SQUAD blend 2t(1 - t), and the
 * Catmull-Rom weights. */
typedef struct lane_cubic {
    /* the lanes' slerp parameters (t, h, g of t; bt, bh, bg of the blend) and Catmull-Rom
     * weights, used straight from here by the pass (read as operands, not copied per block) */
    __m256 tp[6], cw[4];
    const float *times; /* the lanes' times, for the rare lane the scalar SQUAD redoes */
    const float *span[8];
    const ak_vec3 *vm[8], *v0[8], *v1[8], *v2[8];
} lane_cubic;

/* The slerp parameters and Catmull-Rom weights of the eight lanes at once: lane_cubic's
 * expressions with the same operations in the same order (the same bits as one lane at a
 * time; no contraction into fmas: each product is its own instruction). */
AK_AVX2 static void lane_cubic_weights(const __m256 t, lane_cubic *k)
{
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256 b = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(2.0f), t), _mm256_sub_ps(one, t));
    const __m256 t2 = _mm256_mul_ps(t, t), t3 = _mm256_mul_ps(t2, t);
    const __m256 tm = _mm256_sub_ps(t, half), bm = _mm256_sub_ps(b, half);
    k->tp[0] = t;
    k->tp[1] = _mm256_mul_ps(tm, tm);
    k->tp[2] = _mm256_mul_ps(_mm256_mul_ps(t, tm), _mm256_sub_ps(t, one));
    k->tp[3] = b;
    k->tp[4] = _mm256_mul_ps(bm, bm);
    k->tp[5] = _mm256_mul_ps(_mm256_mul_ps(b, bm), _mm256_sub_ps(b, one));
    /* -0.5 t3 + t2 - 0.5 t;  1.5 t3 - 2.5 t2 + 1;  -1.5 t3 + 2 t2 + 0.5 t;  0.5 t3 - 0.5 t2 */
    k->cw[0] = _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(-0.5f), t3), t2),
                             _mm256_mul_ps(half, t));
    k->cw[1] = _mm256_add_ps(_mm256_sub_ps(_mm256_mul_ps(_mm256_set1_ps(1.5f), t3),
                                           _mm256_mul_ps(_mm256_set1_ps(2.5f), t2)),
                             one);
    k->cw[2] = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(-1.5f), t3),
                                           _mm256_mul_ps(_mm256_set1_ps(2.0f), t2)),
                             _mm256_mul_ps(half, t));
    k->cw[3] = _mm256_sub_ps(_mm256_mul_ps(half, t3), _mm256_mul_ps(half, t2));
}

/* lane_cubic of the eight lanes at `times` from their spans in registers: span_row's rows
 * (a looping clip's spans from keys 0, last - 1 and last have rows of their own), the
 * translation rows, then the weights. */
AK_AVX2 static void lane_cubic_load(const ak_clip *c, const span8 *s, const float *times,
                                    lane_cubic *k)
{
    const int32_t n = c->frame_count, last = n - 1;
    __m256i row = s->f0;
    if (c->loop) { /* in span_row's order of precedence: key 0's row set last */
        const __m256i f0 = s->f0;
        row = _mm256_blendv_epi8(row, _mm256_set1_epi32(n + 1),
                                 _mm256_cmpeq_epi32(f0, _mm256_set1_epi32(last - 1)));
        row = _mm256_blendv_epi8(row, _mm256_set1_epi32(n + 2),
                                 _mm256_cmpeq_epi32(f0, _mm256_set1_epi32(last)));
        row = _mm256_blendv_epi8(row, _mm256_set1_epi32(n),
                                 _mm256_cmpeq_epi32(f0, _mm256_setzero_si256()));
    }
    const uint32_t ts = (uint32_t)c->track_count * (uint32_t)sizeof(ak_vec3);
    k->times = times;
    lane_rows8(ak_clip_spans(c), row,
               (uint32_t)c->joint_count * (uint32_t)(AK_CUBIC_SPAN_FLOATS * sizeof(float)),
               k->span);
    lane_rows8(c->translations, s->fm, ts, k->vm);
    lane_rows8(c->translations, s->f0, ts, k->v0);
    lane_rows8(c->translations, s->f1, ts, k->v1);
    lane_rows8(c->translations, s->f2, ts, k->v2);
    lane_cubic_weights(s->alpha, k);
}

/* SQUAD of joint j for the eight characters: slerp(slerp(q0,q1,t), slerp(s0,s1,t), 2t(1-t))
 * as squad() does it, on the prepared control points. Lanes whose outer and inner slerps land
 * on opposite hemispheres (squad() then blends without the shortest-arc flip) are redone by
 * the scalar SQUAD. */
AK_AVX2 __attribute__((noinline, cold)) static soa8_quat
soa8_squad_redo(const ak_clip *c, const float *times, int32_t j, int redo, soa8_quat q)
{
    __m128 lanes[8];
    soa8_store(q.x, q.y, q.z, q.w, lanes);
    for (int i = 0; i < 8; ++i) {
        if (!(redo & (1 << i))) continue;
        const key_span s = locate(c, times[i]); /* locate8's span, bit for bit */
        const ak_quat r = sample_squad(c, &s, j);
        lanes[i] = _mm_loadu_ps(&r.x);
    }
    soa8_load(lanes, &q.x, &q.y, &q.z, &q.w);
    return q;
}

/* Four floats at `at` of the eight lanes' span rows, one register per float. */
AK_AVX2 static inline soa8_quat span8_load(const lane_cubic *k, size_t at)
{
    __m128 lanes[8];
    for (int i = 0; i < 8; ++i)
        lanes[i] = _mm_loadu_ps(k->span[i] + at);
    soa8_quat q;
    soa8_load(lanes, &q.x, &q.y, &q.z, &q.w);
    return q;
}

/* Four floats at `at` of lanes i and i + 4's span rows, in the low and high halves. */
AK_AVX2 static inline __m256 span8_pair(const lane_cubic *k, int i, size_t at)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(k->span[i] + at)),
                                _mm_loadu_ps(k->span[i + 4] + at), 1);
}

/* soa8_lerp_normalize of the key at `at` and its difference at at + 4 in the eight lanes' span
 * rows, by t per lane ot: the lerp made before the transpose, on lanes i and i + 4 at once
 * (their ot broadcast within the two halves), so the key and the difference are not
 * transposed apart (the same fmas: the same bits). */
AK_AVX2 static inline soa8_quat span8_lerp_normalize(const lane_cubic *k, size_t at, __m256 ot)
{
    const __m256 r0 = _mm256_fmadd_ps(span8_pair(k, 0, at + 4), _mm256_permute_ps(ot, 0x00),
                                      span8_pair(k, 0, at));
    const __m256 r1 = _mm256_fmadd_ps(span8_pair(k, 1, at + 4), _mm256_permute_ps(ot, 0x55),
                                      span8_pair(k, 1, at));
    const __m256 r2 = _mm256_fmadd_ps(span8_pair(k, 2, at + 4), _mm256_permute_ps(ot, 0xAA),
                                      span8_pair(k, 2, at));
    const __m256 r3 = _mm256_fmadd_ps(span8_pair(k, 3, at + 4), _mm256_permute_ps(ot, 0xFF),
                                      span8_pair(k, 3, at));
    /* soa8_load's transpose from there */
    const __m256 u0 = _mm256_unpacklo_ps(r0, r1), u1 = _mm256_unpackhi_ps(r0, r1);
    const __m256 u2 = _mm256_unpacklo_ps(r2, r3), u3 = _mm256_unpackhi_ps(r2, r3);
    return soa8_normalize(_mm256_shuffle_ps(u0, u2, 0x44), _mm256_shuffle_ps(u0, u2, 0xEE),
                          _mm256_shuffle_ps(u1, u3, 0x44), _mm256_shuffle_ps(u1, u3, 0xEE));
}

/* SQUAD of joint j in two steps, each inlined into the pass (a call would spill its registers
 * every joint); the rare redo is out of line. soa8_squad_ends: the outer and inner slerps,
 * from the table (the sign flip, the difference and the coefficients A, B of soa8_slerp made
 * once per key: the same bits). */
AK_AVX2 __attribute__((always_inline)) static inline void
soa8_squad_ends(const lane_cubic *k, int32_t j, soa8_quat *outer, soa8_quat *inner)
{
    const __m256 *tp = k->tp;
    const size_t at = (size_t)j * AK_CUBIC_SPAN_FLOATS;
    /* in the order of use, each slerp's keys loaded after the last one's are consumed: fewer
     * registers live at once (the gathers' transposes need most of them) */
    const soa8_quat ab = span8_load(k, at + 16); /* A, B outer; A, B inner */
    const __m256 ot_outer = _mm256_fmadd_ps(tp[2], _mm256_fmadd_ps(ab.x, tp[1], ab.y), tp[0]);
    const __m256 ot_inner = _mm256_fmadd_ps(tp[2], _mm256_fmadd_ps(ab.z, tp[1], ab.w), tp[0]);
    *outer = span8_lerp_normalize(k, at, ot_outer);
    *inner = span8_lerp_normalize(k, at + 8, ot_inner);
}

/* soa8_squad_blend: the SQUAD blend of the two, slerp(outer, inner, 2t(1 - t)). The blend
 * needs no shortest-arc flip: lanes with the sign bit of d set (d < 0, and -0) are redone by
 * the scalar SQUAD, after the run (soa8_squad_redo_run): d's sign bits are or'ed into
 * *signs, one test a run instead of one a joint. */
AK_AVX2 __attribute__((always_inline)) static inline soa8_quat
soa8_squad_blend(const lane_cubic *k, const soa8_quat outer, const soa8_quat inner, __m256 *signs)
{
    const __m256 *tp = k->tp;
    const __m256 d = soa8_dot(outer, inner);
    *signs = _mm256_or_ps(*signs, d);
    return soa8_nlerp_fixed(outer, inner, d, tp[3], tp[4], tp[5]);
}

/* A joint's SQUAD in the cubic pass: q the outer slerp, then the SQUAD; inner the inner slerp. */
typedef struct squad_pair {
    soa8_quat q, inner;
} squad_pair;

/* The rare run where some joint's blend had a lane with d's sign bit set: the slerps of each
 * joint made again (the same bits), d again, and its lanes with the sign bit set redone. */
AK_AVX2 __attribute__((noinline, cold)) static void
soa8_squad_redo_run(const ak_clip *c, const lane_cubic *k, int32_t j0, int32_t run, squad_pair *sq)
{
    for (int32_t r = 0; r < run; ++r) {
        soa8_quat outer, inner;
        soa8_squad_ends(k, j0 + r, &outer, &inner);
        const int redo = _mm256_movemask_ps(soa8_dot(outer, inner));
        if (redo) sq[r].q = soa8_squad_redo(c, k->times, j0 + r, redo, sq[r].q);
    }
}

/* One coordinate of Catmull-Rom (catmull_rom in clip_internal.h) per lane, weights cw. */
AK_AVX2 static inline __m256 soa8_catmull_rom(const __m256 cw[4], __m256 pm, __m256 p0, __m256 p1,
                                              __m256 p2)
{
    return _mm256_fmadd_ps(
        cw[3], p2,
        _mm256_fmadd_ps(cw[2], p1, _mm256_fmadd_ps(cw[1], p0, _mm256_mul_ps(cw[0], pm))));
}

/* Cubic sample + FK for eight characters in lockstep: the SQUAD rotations (three slerps per
 * lane) and Catmull-Rom translations in the same pass as FK. Needs prepared control points. */
AK_SOA8_PASS void sample_fk_cubic_soa8(const ak_clip *c, const ak_skeleton *sk, const span8 *s,
                                       const float *times, ak_xform *w, soa8_xform *AK_RESTRICT ws,
                                       float *soa, const int to_soa, const int tiled)
{
    const int32_t n = c->joint_count;
    const int32_t *parents = sk->parents, *track = c->joint_track;
    const ak_xform *rest = sk->rest_local;
    lane_cubic k;
    lane_cubic_load(c, s, times, &k);
    int32_t held = -1; /* the joint in ws's spare slot (soa8_fk_store_tiled) */
    /* The rotations of a run of joints first, then their FK. The SQUADs of a run do not
     * depend on each other, so the CPU overlaps their long chains (three slerps, two
     * normalisations) with one another; in one loop with FK, each joint's SQUAD waited on or
     * held up the FK chain. 1,000 characters, 31 joints: cubic / linear time 1.75 -> 1.25,
     * instructions 1.49 -> 1.50 (runs of 8 joints: 1.53, of 16: 1.51).
     * The SQUADs themselves in two loops, the outer and inner slerps of every joint of the run,
     * then the blends: a joint's SQUAD is one dependency chain of about 140 cycles by its
     * instructions' latencies (three slerps after the transposes), longer than an Intel core's
     * scheduler holds a few joints of, so in one loop each joint mostly waited on its own chain. In
     * two loops each iteration's chain is half as long and more joints overlap. Intel Xeon (AVX2
     * paths), 1,000 characters: cubic / linear time 1.60 -> 1.35 (cubic 3.9 -> 3.4 ns per joint);
     * the blends fused with FK instead: 1.48; a third loop (the slerp parameters first): 1.40. The
     * cost: the outer and inner slerps go through memory, cubic / linear instructions 1.492 ->
     * 1.613 (16 characters, 60 joints: 1.474 -> 1.595), past that goal of 1.5. Won back
     * without undoing the split (instructions per joint of a block of eight): both slerps in
     * one array (one base register for the stores and loads, the SQUAD written over the outer
     * slerp: 8), the lerps on lane pairs before the transposes (span8_lerp_normalize: 9), the
     * root's translation keys in 16-byte loads (3), one test of the blends' signs a run (3):
     * 1.613 -> 1.496 (16 characters, 60 joints: 1.595 -> 1.488). Time: the same within this
     * shared machine's noise (interleaved medians at load 7: 1.37 -> 1.33; at load 10: 1.47 ->
     * 1.47; CPU time, 1,000 characters of 31 joints: 1.36 -> 1.35, of 60 joints: 1.52 -> 1.52). */
    enum { RUN = 32 };
    squad_pair sq[RUN];
    for (int32_t j0 = 0; j0 < n; j0 += RUN) {
        const int32_t run = n - j0 < RUN ? n - j0 : RUN;
        for (int32_t r = 0; r < run; ++r)
            soa8_squad_ends(&k, j0 + r, &sq[r].q, &sq[r].inner);
        __m256 signs = _mm256_setzero_ps();
        for (int32_t r = 0; r < run; ++r)
            sq[r].q = soa8_squad_blend(&k, sq[r].q, sq[r].inner, &signs);
        if (_mm256_movemask_ps(signs)) soa8_squad_redo_run(c, &k, j0, run, sq);
        for (int32_t r = 0; r < run; ++r) {
            const int32_t j = j0 + r;
            soa8_xform o;
            o.qx = sq[r].q.x, o.qy = sq[r].q.y, o.qz = sq[r].q.z, o.qw = sq[r].q.w;
            const int32_t tk = track[j];
            if (tk < 0) {
                soa8_rest_translation(rest, j, &o);
            } else {
                __m256 pm[3], p0[3], p1[3], p2[3];
                soa8_vec3_keys_padded(k.vm, tk, pm);
                soa8_vec3_keys_padded(k.v0, tk, p0);
                soa8_vec3_keys_padded(k.v1, tk, p1);
                soa8_vec3_keys_padded(k.v2, tk, p2);
                o.tx = soa8_catmull_rom(k.cw, pm[0], p0[0], p1[0], p2[0]);
                o.ty = soa8_catmull_rom(k.cw, pm[1], p0[1], p1[1], p2[1]);
                o.tz = soa8_catmull_rom(k.cw, pm[2], p0[2], p1[2], p2[2]);
            }
            soa8_put(w, n, ws, soa, to_soa, j, parents[j], o, tiled, &held);
        }
    }
}

/* The two outputs of each pass, compiled apart; linear and cubic in functions of their own
 * (one function's register allocation serves its own loop only). */
#define AK_SOA8_FORM AK_AVX2 __attribute__((noinline)) static void

AK_SOA8_FORM linear_aos(const ak_clip *c, const ak_skeleton *sk, const float *times, int32_t blocks,
                        ak_xform *w, soa8_xform *AK_RESTRICT ws)
{
    const locate8_clip k = locate8_prepare(c->frame_count, c->frame_time, c->loop);
    const size_t poses = (size_t)8 * (size_t)c->joint_count;
    for (int32_t b = 0; b < blocks; ++b) {
        const span8 s = locate_lanes8(c, &k, times + 8 * b);
        linear_soa8(c, sk, &s, w + poses * (size_t)b, ws, NULL, 0);
    }
}

AK_SOA8_FORM cubic_aos(const ak_clip *c, const ak_skeleton *sk, const float *times, int32_t blocks,
                       ak_xform *w, soa8_xform *AK_RESTRICT ws)
{
    const locate8_clip k = locate8_prepare(c->frame_count, c->frame_time, c->loop);
    const size_t poses = (size_t)8 * (size_t)c->joint_count;
    /* the window holds every joint of a rig of up to AK_SOA_TILE: no wrap to test */
    const int tiled = c->joint_count > AK_SOA_TILE;
    for (int32_t b = 0; b < blocks; ++b) {
        const float *t = times + 8 * b;
        const span8 s = locate_lanes8(c, &k, t);
        if (tiled)
            sample_fk_cubic_soa8(c, sk, &s, t, w + poses * (size_t)b, ws, NULL, 0, 1);
        else
            sample_fk_cubic_soa8(c, sk, &s, t, w + poses * (size_t)b, ws, NULL, 0, 0);
    }
}

AK_SOA8_FORM linear_soa(const ak_clip *c, const ak_skeleton *sk, const float *times, int32_t blocks,
                        float *soa)
{
    const locate8_clip k = locate8_prepare(c->frame_count, c->frame_time, c->loop);
    const size_t block = (size_t)c->joint_count * AK_SOA8_JOINT_FLOATS;
    for (int32_t b = 0; b < blocks; ++b) {
        const span8 s = locate_lanes8(c, &k, times + 8 * b);
        linear_soa8(c, sk, &s, NULL, NULL, soa + block * (size_t)b, 1);
    }
}

AK_SOA8_FORM cubic_soa(const ak_clip *c, const ak_skeleton *sk, const float *times, int32_t blocks,
                       float *soa)
{
    const locate8_clip k = locate8_prepare(c->frame_count, c->frame_time, c->loop);
    const size_t block = (size_t)c->joint_count * AK_SOA8_JOINT_FLOATS;
    for (int32_t b = 0; b < blocks; ++b) {
        const float *t = times + 8 * b;
        const span8 s = locate_lanes8(c, &k, t);
        sample_fk_cubic_soa8(c, sk, &s, t, NULL, NULL, soa + block * (size_t)b, 1, 0);
    }
}

/* Whether the eight-lane passes run this clip in this mode: AVX2 + FMA, linear or prepared
 * cubic, and the lanes' row offsets 32 x 32-bit products (lane_rows8). */
static int soa8_applies(const ak_clip *c, ak_interp interp)
{
    if (!aks8_cpu_ok() || (interp != AK_INTERP_LINEAR && interp != AK_INTERP_CUBIC)) return 0;
    if (interp == AK_INTERP_CUBIC && !ak_clip_spans(c)) return 0;
    return (size_t)c->joint_count * AK_CUBIC_SPAN_FLOATS * sizeof(float) <= UINT32_MAX;
}

/* `blocks` blocks of eight characters, block b's times at times + 8 b: into their poses w
 * (eight characters' poses a block, through the window ws) or, w NULL, into their SoA blocks
 * at soa. One call for every block, so the pass's constants and set-up are made once. */
static void pass_soa8(const ak_clip *c, const ak_skeleton *sk, const float *times, int32_t blocks,
                      ak_interp interp, ak_xform *w, soa8_xform *AK_RESTRICT ws, float *soa)
{
    if (w && interp == AK_INTERP_CUBIC)
        cubic_aos(c, sk, times, blocks, w, ws);
    else if (w)
        linear_aos(c, sk, times, blocks, w, ws);
    else if (interp == AK_INTERP_CUBIC)
        cubic_soa(c, sk, times, blocks, soa);
    else
        linear_soa(c, sk, times, blocks, soa);
}

#endif

/* The span table (clip_internal.h). Rows: the span from every key f0 of a clamped clip, then
 * a looping clip's spans that differ (f0 = 0, last - 1, last); per joint, 20 floats: the key
 * q0, q1 - q0 (q1 on q0's side), the control point s0, s1 - s0 (likewise), then A, B of the
 * outer and of the inner slerp. */
#ifdef AK_HAVE_AVX2_DISPATCH
size_t ak_clip_spans_size(const ak_clip *c)
{
    if (!aks8_cpu_ok()) return 0;
    return 32u + sizeof(float) * AK_CUBIC_SPAN_FLOATS * (size_t)c->joint_count *
                     ((size_t)c->frame_count + 3u);
}

/* After the control-point rows, 32-byte aligned. */
static float *spans_at(const ak_clip *c)
{
    if (!c->squad_points || !aks8_cpu_ok()) return NULL;
    const uintptr_t end =
        (uintptr_t)(c->squad_points + (size_t)c->joint_count * ((size_t)c->frame_count + 2u));
    return (float *)((end + 31u) & ~(uintptr_t)31u);
}

const float *ak_clip_spans(const ak_clip *c)
{
    return spans_at(c);
}

/* a, b - a with b on a's side, and soa8_nlerp_fixed's A and B at d = |a.b|: what soa8_slerp
 * does per sample, with soa8_dot's and soa8_nlerp_fixed's fmas in their order (the same
 * bits). */
AK_AVX2 static void span_pair(ak_quat a, ak_quat b, float *key, float *ab)
{
    const float ca = fmaf(a.x, b.x, fmaf(a.y, b.y, fmaf(a.z, b.z, a.w * b.w)));
    const float sign = signbit(ca) ? -1.0f : 1.0f, d = fabsf(ca);
    key[0] = a.x, key[1] = a.y, key[2] = a.z, key[3] = a.w;
    key[4] = sign * b.x - a.x, key[5] = sign * b.y - a.y;
    key[6] = sign * b.z - a.z, key[7] = sign * b.w - a.w;
    ab[0] = fmaf(d, fmaf(d, fmaf(-d, 1.43519f, 3.55645f), -3.2452f), 1.0904f);
    ab[1] = fmaf(d, fmaf(d, 0.215638f, -1.06021f), 0.848013f);
}

/* The row of the span from key f0, looping or not: locate's next key, squad_row's rows. */
AK_AVX2 static void span_row_build(const ak_clip *c, float *row, int32_t f0, int loop)
{
    const int32_t n = c->frame_count, last = n - 1;
    const int32_t f1 = loop ? (f0 + 1 == n ? 0 : f0 + 1) : (f0 + 1 < n ? f0 + 1 : last);
    const int32_t p0 = loop && (f0 == 0 || f0 == last) ? (f0 == 0 ? n : n + 1) : f0;
    const int32_t p1 = loop && (f1 == 0 || f1 == last) ? (f1 == 0 ? n : n + 1) : f1;
    const size_t joints = (size_t)c->joint_count;
    const ak_quat *r0 = c->rotations + (size_t)f0 * joints,
                  *r1 = c->rotations + (size_t)f1 * joints;
    const ak_quat *s0 = c->squad_points + (size_t)p0 * joints;
    const ak_quat *s1 = c->squad_points + (size_t)p1 * joints;
    for (size_t j = 0; j < joints; ++j) {
        float *e = row + j * AK_CUBIC_SPAN_FLOATS;
        span_pair(r0[j], r1[j], e, e + 16);
        span_pair(s0[j], s1[j], e + 8, e + 18);
    }
}

void ak_clip_spans_build(ak_clip *c)
{
    float *t = spans_at(c);
    if (!t) return;
    const size_t row = (size_t)c->joint_count * AK_CUBIC_SPAN_FLOATS;
    const int32_t n = c->frame_count, last = n - 1;
    for (int32_t f = 0; f < n; ++f)
        span_row_build(c, t + (size_t)f * row, f, 0);
    span_row_build(c, t + (size_t)n * row, 0, 1);
    span_row_build(c, t + (size_t)(n + 1) * row, last > 0 ? last - 1 : 0, 1);
    span_row_build(c, t + (size_t)(n + 2) * row, last, 1);
}
#else
size_t ak_clip_spans_size(const ak_clip *c)
{
    (void)c;
    return 0;
}

const float *ak_clip_spans(const ak_clip *c)
{
    (void)c;
    return NULL;
}

void ak_clip_spans_build(ak_clip *c)
{
    (void)c;
}
#endif

/* The eight-character paths over [i, count) in steps of eight; returns where they stopped. */
#ifdef AK_HAVE_AVX2_DISPATCH
static int32_t batch_soa8(const ak_clip *c, const ak_skeleton *sk, const float *times, int32_t i,
                          int32_t count, ak_interp interp, ak_xform *model)
{
    const int32_t blocks = (count - i) / 8;
    if (blocks < 1 || !soa8_applies(c, interp)) return i;
    soa8_xform scratch[AK_SOA_TILE + 1];
    pass_soa8(c, sk, times + i, blocks, interp, model + (size_t)i * (size_t)c->joint_count, scratch,
              NULL);
    return i + 8 * blocks;
}
#endif

#ifdef AK_HAVE_SSE
/* [i, count) by the four-character SoA path (linear), then two and one at a time (SSE). */
static void batch_sse(const ak_clip *c, const ak_skeleton *sk, const float *times, int32_t i,
                      int32_t count, ak_interp interp, ak_xform *model)
{
    const size_t n = (size_t)c->joint_count;
    if (interp == AK_INTERP_LINEAR && count - i >= 4) {
        soa_xform scratch[AK_SOA_TILE + 1];
        for (; i + 4 <= count; i += 4) {
            const key_span s[4] = {locate(c, times[i]), locate(c, times[i + 1]),
                                   locate(c, times[i + 2]), locate(c, times[i + 3])};
            ak_xform *w[4] = {model + (size_t)i * n, model + (size_t)(i + 1) * n,
                              model + (size_t)(i + 2) * n, model + (size_t)(i + 3) * n};
            sample_fk_linear_soa4(c, sk, s, w, scratch);
        }
    }
    for (; i + 2 <= count; i += 2) {
        const key_span s[2] = {locate(c, times[i]), locate(c, times[i + 1])};
        ak_xform *w[2] = {model + (size_t)i * n, model + (size_t)(i + 1) * n};
        if (interp == AK_INTERP_CUBIC)
            sample_fk_sse(c, sk, s, w, 2, AK_INTERP_CUBIC);
        else
            sample_fk_sse(c, sk, s, w, 2, AK_INTERP_LINEAR);
    }
    if (i < count) {
        const key_span s = locate(c, times[i]);
        ak_xform *w = model + (size_t)i * n;
        if (interp == AK_INTERP_CUBIC)
            sample_fk_sse(c, sk, &s, &w, 1, AK_INTERP_CUBIC);
        else
            sample_fk_sse(c, sk, &s, &w, 1, AK_INTERP_LINEAR);
    }
}
#endif

/* Sample and FK fused joint by joint, the scalar forms (step; every mode without SSE). */
static void batch_scalar(const ak_clip *c, const ak_skeleton *sk, const float *times, int32_t i,
                         int32_t count, ak_interp interp, ak_xform *model)
{
    const int32_t n = c->joint_count;
    for (; i < count; ++i) {
        const key_span s = locate(c, times[i]);
        ak_xform *w = model + (size_t)i * (size_t)n;
        for (int32_t j = 0; j < n; ++j) {
            ak_xform l;
            l.rotation = sample_rotation(c, &s, j, interp);
            l.translation = sample_translation(c, sk, &s, j, interp);
            const int32_t p = sk->parents[j];
            w[j] = p < 0 ? l : akx_mul(w[p], l);
        }
    }
}

int32_t ak_clip_sample_fk_batch(const ak_clip *c, const ak_skeleton *sk, const float *times,
                                int32_t count, ak_interp interp, ak_xform *model)
{
    if (!c || !sk || !times || !model || c->joint_count != sk->joint_count || count < 0)
        return AK_ERR_INVALID_ARG;
    int32_t i = 0;
#ifdef AK_HAVE_SSE
    if (interp == AK_INTERP_LINEAR || interp == AK_INTERP_CUBIC) {
#ifdef AK_HAVE_AVX2_DISPATCH
        i = batch_soa8(c, sk, times, i, count, interp, model);
#endif
        batch_sse(c, sk, times, i, count, interp, model);
        i = count;
    }
#endif
    batch_scalar(c, sk, times, i, count, interp, model);
    /* Done either way; cubic without control points computes them per sample (slow). */
    return interp == AK_INTERP_CUBIC && !c->squad_points ? AK_ERR_STATE : AK_OK;
}

/* Character `lane` of an SoA block's joint (seven components, eight lanes each). */
static ak_xform soa_get(const float *joint, int lane)
{
    ak_xform x;
    x.rotation = (ak_quat){joint[lane], joint[8 + lane], joint[16 + lane], joint[24 + lane]};
    x.translation = ak_vec3_make(joint[32 + lane], joint[40 + lane], joint[48 + lane]);
    return x;
}

static void soa_set(float *joint, int lane, ak_xform x)
{
    joint[lane] = x.rotation.x, joint[8 + lane] = x.rotation.y;
    joint[16 + lane] = x.rotation.z, joint[24 + lane] = x.rotation.w;
    joint[32 + lane] = x.translation.x, joint[40 + lane] = x.translation.y;
    joint[48 + lane] = x.translation.z;
}

/* The block of characters first..first + 7 (past count: the last character again) by the
 * scalar forms, joint by joint, parents read back from the block. */
static void block_scalar_soa(const ak_clip *c, const ak_skeleton *sk, const float *times,
                             int32_t count, int32_t first, ak_interp interp, float *block)
{
    const int32_t n = c->joint_count;
    for (int k = 0; k < AK_BATCH_LANES; ++k) {
        const key_span s = locate(c, times[first + k < count ? first + k : count - 1]);
        for (int32_t j = 0; j < n; ++j) {
            ak_xform l;
            l.rotation = sample_rotation(c, &s, j, interp);
            l.translation = sample_translation(c, sk, &s, j, interp);
            const int32_t p = sk->parents[j];
            if (p >= 0) l = akx_mul(soa_get(block + (size_t)p * AK_BATCH_SOA_JOINT_FLOATS, k), l);
            soa_set(block + (size_t)j * AK_BATCH_SOA_JOINT_FLOATS, k, l);
        }
    }
}

/* Every block of characters by the eight-lane pass where it applies (AVX2 + FMA, linear or
 * prepared cubic): the whole blocks in one pass, then the last, partial one (its missing
 * lanes the last character again). Returns 0 where the pass does not apply. */
static int blocks_soa8(const ak_clip *c, const ak_skeleton *sk, const float *times, int32_t count,
                       ak_interp interp, float *model_soa)
{
#ifdef AK_HAVE_AVX2_DISPATCH
    _Static_assert(AK_SOA8_JOINT_FLOATS == AK_BATCH_SOA_JOINT_FLOATS, "SoA block layout");
    if (!soa8_applies(c, interp)) return 0;
    const size_t block_floats = (size_t)c->joint_count * AK_BATCH_SOA_JOINT_FLOATS;
    const int32_t whole = count / 8, first = 8 * whole;
    if (whole > 0) pass_soa8(c, sk, times, whole, interp, NULL, NULL, model_soa);
    if (first == count) return 1;
    float t[8];
    for (int k = 0; k < 8; ++k)
        t[k] = times[first + k < count ? first + k : count - 1];
    pass_soa8(c, sk, t, 1, interp, NULL, NULL, model_soa + (size_t)whole * block_floats);
    return 1;
#else
    (void)c, (void)sk, (void)times, (void)count, (void)interp, (void)model_soa;
    return 0;
#endif
}

int32_t ak_clip_sample_fk_batch_soa(const ak_clip *c, const ak_skeleton *sk, const float *times,
                                    int32_t count, ak_interp interp, float *model_soa)
{
    if (!c || !sk || !times || !model_soa || c->joint_count != sk->joint_count || count < 0)
        return AK_ERR_INVALID_ARG;
    const size_t block_floats = (size_t)c->joint_count * AK_BATCH_SOA_JOINT_FLOATS;
    if (count > 0 && blocks_soa8(c, sk, times, count, interp, model_soa)) count = 0;
    for (int32_t i = 0; i < count; i += AK_BATCH_LANES) /* the scalar forms where it does not */
        block_scalar_soa(c, sk, times, count, i, interp,
                         model_soa + (size_t)(i / AK_BATCH_LANES) * block_floats);
    return interp == AK_INTERP_CUBIC && !c->squad_points ? AK_ERR_STATE : AK_OK;
}

int32_t ak_batch_range(int32_t count, int32_t parts, int32_t part, int32_t *begin, int32_t *end)
{
    if (begin) *begin = 0;
    if (end) *end = 0;
    if (!begin || !end || count < 0 || parts < 1 || part < 0 || part >= parts)
        return AK_ERR_INVALID_ARG;
    /* Whole blocks of AK_BATCH_LANES shared out evenly, the first `extra` parts one more; the
     * last part also takes the partial block at the end. */
    const int64_t blocks = count / AK_BATCH_LANES, per = blocks / parts, extra = blocks % parts;
    const int64_t first = (int64_t)part * per + (part < extra ? part : extra);
    const int64_t size = per + (part < extra ? 1 : 0);
    *begin = (int32_t)(first * AK_BATCH_LANES);
    *end = part == parts - 1 ? count : (int32_t)((first + size) * AK_BATCH_LANES);
    return AK_OK;
}

int32_t ak_clip_sample_fk_range(const ak_clip *c, const ak_skeleton *sk, const float *times,
                                int32_t count, ak_interp interp, ak_xform *model, int32_t begin,
                                int32_t end)
{
    if (!c || !sk || !times || !model || begin < 0 || end < begin || end > count)
        return AK_ERR_INVALID_ARG;
    return ak_clip_sample_fk_batch(c, sk, times + begin, end - begin, interp,
                                   model + (size_t)begin * (size_t)c->joint_count);
}
