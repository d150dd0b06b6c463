/* Batched sample + FK: many characters on one clip in lockstep, linear interpolation in SSE
 * (one or two characters), SoA over four characters, and AVX2 + FMA over eight (chosen at run
 * time); cubic and step through the per-joint scalar forms. */
#include "anim/clip_internal.h"

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
                block[k][0] = next[k][0];
                block[k][1] = next[k][1];
                block[k][2] = next[k][2];
                block[k][3] = next[k][3];
                if (j + 4 < full) aks_slerp4(&r0[k][j + 4], &r1[k][j + 4], &sp[k], next[k]);
            }
            if (j < full)
                lq = block[k][j & 3];
            else
                lq = aks_slerp(_mm_loadu_ps(&r0[k][j].x), _mm_loadu_ps(&r1[k][j].x), &sp[k]);
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

typedef struct soa_xform {
    __m128 qx, qy, qz, qw, tx, ty, tz;
} soa_xform;
/* The lockstep paths keep the last AK_SOA_TILE joints' world transforms in SoA form (a ring
 * indexed by joint & (tile - 1)); a parent further back than that is read back from the
 * world poses already written and transposed in, which gives the same bits. So any joint
 * count runs on the wide paths, with scratch of a fixed size on the stack. */
#define AK_SOA_TILE 128

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

/* The world transforms of joint p of the four characters, read back from their poses. */
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
        /* FK: world = parent * local */
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

#if defined(AK_HAVE_SSE) && (defined(__GNUC__) || defined(__clang__)) &&                           \
    (defined(__x86_64__) || defined(__i386__))
#define AK_HAVE_AVX2_DISPATCH 1
#include <immintrin.h>
/* Eight characters in lockstep with AVX2 + FMA: the four-character SoA path at twice the
 * width. Compiled for AVX2 with a function attribute and chosen at run time
 * (ak_clip_sample_fk_batch checks the CPU), so the library still runs on any x86-64. */
typedef struct soa8_xform {
    __m256 qx, qy, qz, qw, tx, ty, tz;
} soa8_xform;
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
    a[0] = _mm256_castps256_ps128(q04);
    a[4] = _mm256_extractf128_ps(q04, 1);
    a[1] = _mm256_castps256_ps128(q15);
    a[5] = _mm256_extractf128_ps(q15, 1);
    a[2] = _mm256_castps256_ps128(q26);
    a[6] = _mm256_extractf128_ps(q26, 1);
    a[3] = _mm256_castps256_ps128(q37);
    a[7] = _mm256_extractf128_ps(q37, 1);
}

/* l <- P * l for eight transforms in SoA form: t = P.t + rotate(P.q, l.t), q = P.q l.q. */
AK_AVX2 static inline void soa8_parent_times(const soa8_xform *P, soa8_xform *l)
{
    const __m256 tx = l->tx, ty = l->ty, tz = l->tz, qx = l->qx, qy = l->qy, qz = l->qz, qw = l->qw;
    __m256 cx = _mm256_fmsub_ps(P->qy, tz, _mm256_mul_ps(P->qz, ty));
    __m256 cy = _mm256_fmsub_ps(P->qz, tx, _mm256_mul_ps(P->qx, tz));
    __m256 cz = _mm256_fmsub_ps(P->qx, ty, _mm256_mul_ps(P->qy, tx));
    cx = _mm256_add_ps(cx, cx);
    cy = _mm256_add_ps(cy, cy);
    cz = _mm256_add_ps(cz, cz);
    const __m256 ux = _mm256_fmsub_ps(P->qy, cz, _mm256_mul_ps(P->qz, cy));
    const __m256 uy = _mm256_fmsub_ps(P->qz, cx, _mm256_mul_ps(P->qx, cz));
    const __m256 uz = _mm256_fmsub_ps(P->qx, cy, _mm256_mul_ps(P->qy, cx));
    l->tx = _mm256_add_ps(_mm256_add_ps(P->tx, tx), _mm256_fmadd_ps(P->qw, cx, ux));
    l->ty = _mm256_add_ps(_mm256_add_ps(P->ty, ty), _mm256_fmadd_ps(P->qw, cy, uy));
    l->tz = _mm256_add_ps(_mm256_add_ps(P->tz, tz), _mm256_fmadd_ps(P->qw, cz, uz));
    l->qw = _mm256_sub_ps(_mm256_fmsub_ps(P->qw, qw, _mm256_mul_ps(P->qx, qx)),
                          _mm256_fmadd_ps(P->qy, qy, _mm256_mul_ps(P->qz, qz)));
    l->qx = _mm256_add_ps(_mm256_fmadd_ps(P->qw, qx, _mm256_mul_ps(P->qx, qw)),
                          _mm256_fmsub_ps(P->qy, qz, _mm256_mul_ps(P->qz, qy)));
    l->qy = _mm256_add_ps(_mm256_fmsub_ps(P->qw, qy, _mm256_mul_ps(P->qx, qz)),
                          _mm256_fmadd_ps(P->qy, qw, _mm256_mul_ps(P->qz, qx)));
    l->qz = _mm256_add_ps(_mm256_fmadd_ps(P->qw, qz, _mm256_mul_ps(P->qx, qy)),
                          _mm256_fmsub_ps(P->qz, qw, _mm256_mul_ps(P->qy, qx)));
}

typedef struct soa8_quat {
    __m256 x, y, z, w;
} soa8_quat;

/* The corrected nlerp (aks_slerp_params' fast_slerp) per lane, of keys a and b with the lane
 * parameters T (t), H ((t - 1/2)^2) and G (t (t - 1/2)(t - 1)): the shorter arc, the
 * polynomial correction of t, the lerp, then one Newton step on rsqrt to normalise. */
AK_AVX2 static inline soa8_quat soa8_slerp(const soa8_quat a, const soa8_quat b, const __m256 T,
                                           const __m256 H, const __m256 G)
{
    const __m256 neg0 = _mm256_set1_ps(-0.0f);
    __m256 ca = _mm256_fmadd_ps(
        a.x, b.x, _mm256_fmadd_ps(a.y, b.y, _mm256_fmadd_ps(a.z, b.z, _mm256_mul_ps(a.w, b.w))));
    __m256 sign = _mm256_and_ps(ca, neg0);
    __m256 d = _mm256_xor_ps(ca, sign);
    __m256 A = _mm256_fmadd_ps(
        d,
        _mm256_fmadd_ps(d, _mm256_fnmadd_ps(d, _mm256_set1_ps(1.43519f), _mm256_set1_ps(3.55645f)),
                        _mm256_set1_ps(-3.2452f)),
        _mm256_set1_ps(1.0904f));
    __m256 B =
        _mm256_fmadd_ps(d, _mm256_fmadd_ps(d, _mm256_set1_ps(0.215638f), _mm256_set1_ps(-1.06021f)),
                        _mm256_set1_ps(0.848013f));
    __m256 ot = _mm256_fmadd_ps(G, _mm256_fmadd_ps(A, H, B), T);
    __m256 qx = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_xor_ps(b.x, sign), a.x), ot, a.x);
    __m256 qy = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_xor_ps(b.y, sign), a.y), ot, a.y);
    __m256 qz = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_xor_ps(b.z, sign), a.z), ot, a.z);
    __m256 qw = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_xor_ps(b.w, sign), a.w), ot, a.w);
    __m256 n2 = _mm256_fmadd_ps(
        qx, qx, _mm256_fmadd_ps(qy, qy, _mm256_fmadd_ps(qz, qz, _mm256_mul_ps(qw, qw))));
    __m256 y = _mm256_rsqrt_ps(n2);
    __m256 inv = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), y),
                               _mm256_fnmadd_ps(_mm256_mul_ps(y, y), n2, _mm256_set1_ps(3.0f)));
    const soa8_quat q = {_mm256_mul_ps(qx, inv), _mm256_mul_ps(qy, inv), _mm256_mul_ps(qz, inv),
                         _mm256_mul_ps(qw, inv)};
    return q;
}

/* The world transforms of joint p of the eight characters, read back from their poses. */
AK_AVX2 __attribute__((noinline)) static void soa8_gather(ak_xform *const *w, int32_t p,
                                                          soa8_xform *P)
{
    __m128 q[8], t[8];
    for (int k = 0; k < 8; ++k) {
        q[k] = _mm_loadu_ps(&w[k][p].rotation.x);
        t[k] = aks_load_translation(&w[k][p]);
    }
    __m256 unused;
    soa8_load(q, &P->qx, &P->qy, &P->qz, &P->qw);
    soa8_load(t, &P->tx, &P->ty, &P->tz, &unused);
}

AK_AVX2 static void sample_fk_linear_soa8(const ak_clip *c, const ak_skeleton *sk,
                                          const key_span *s, ak_xform *const *w,
                                          soa8_xform *AK_RESTRICT ws)
{
    const int32_t n = c->joint_count;
    const int32_t *parents = sk->parents, *track = c->joint_track;
    const ak_xform *rest = sk->rest_local;
    lane_keys keys;
    lane_keys_load(c, s, 8, &keys);
    const ak_quat *const *r0 = keys.r0, *const *r1 = keys.r1;
    const ak_vec3 *const *v0 = keys.v0, *const *v1 = keys.v1;
    const __m256 T = _mm256_loadu_ps(keys.t), H = _mm256_loadu_ps(keys.h),
                 G = _mm256_loadu_ps(keys.g);
    __m128 lanes[8];
    for (int32_t j = 0; j < n; ++j) {
        /* gather + transpose the two keys of each character, slerp per lane */
        soa8_quat a, b;
        for (int k = 0; k < 8; ++k)
            lanes[k] = _mm_loadu_ps(&r0[k][j].x);
        soa8_load(lanes, &a.x, &a.y, &a.z, &a.w);
        for (int k = 0; k < 8; ++k)
            lanes[k] = _mm_loadu_ps(&r1[k][j].x);
        soa8_load(lanes, &b.x, &b.y, &b.z, &b.w);
        const soa8_quat q = soa8_slerp(a, b, T, H, G);
        /* local translation */
        __m256 tx, ty, tz;
        const int32_t tk = track[j];
        if (tk >= 0) {
            __m256 px, py, pz, pw, ex, ey, ez, ew;
            for (int k = 0; k < 8; ++k)
                lanes[k] = aks_load3(&v0[k][tk]);
            soa8_load(lanes, &px, &py, &pz, &pw);
            for (int k = 0; k < 8; ++k)
                lanes[k] = aks_load3(&v1[k][tk]);
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
        soa8_xform o = {q.x, q.y, q.z, q.w, tx, ty, tz};
        if (p >= 0) {
            int32_t slot = p & (AK_SOA_TILE - 1);
            if (j - p >= AK_SOA_TILE) { /* outside the window: read back, into the spare slot */
                slot = AK_SOA_TILE;
                soa8_gather(w, p, &ws[slot]);
            }
            soa8_parent_times(&ws[slot], &o);
        }
        ws[j & (AK_SOA_TILE - 1)] = o;
        __m128 qo[8], to[8];
        soa8_store(o.qx, o.qy, o.qz, o.qw, qo);
        soa8_store(o.tx, o.ty, o.tz, _mm256_setzero_ps(), to);
        for (int k = 0; k < 8; ++k)
            aks_store_xform(&w[k][j], qo[k], to[k]);
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
        if (count >= 8 && cpu_has_avx2_fma()) {
            soa8_xform scratch8[AK_SOA_TILE + 1];
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
        if (count - i >= 4) {
            soa_xform scratch[AK_SOA_TILE + 1];
            for (; i + 4 <= count; i += 4) {
                const key_span s[4] = {locate(c, times[i]), locate(c, times[i + 1]),
                                       locate(c, times[i + 2]), locate(c, times[i + 3])};
                ak_xform *w[4] = {
                    world + (size_t)i * (size_t)n, world + (size_t)(i + 1) * (size_t)n,
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
            if (fast)
                _mm_storeu_ps(&l.rotation.x, q[j & 3]);
            else
#endif
                l.rotation = sample_rotation(c, &s, j, interp);
            l.translation = sample_translation(c, sk, &s, j, interp);
            const int32_t p = parents[j];
            w[j] = p < 0 ? l : akx_mul(w[p], l);
        }
    }
}
