/* Skinning kernels in SSE (core/simd.h's conventions): one vertex per iteration, the palette's
 * padded columns and dual-quaternion parts one register each, so blending an influence is
 * four (LBS) or two (DQS) multiply-adds. The scalar twins in skin.c compute the same numbers;
 * tests/anim/test_skin.c holds them to each other.
 * Stores: a vertex's x,y,z are written as one 16-byte store whose fourth lane lands on the next
 * vertex's x, which that vertex then overwrites; the last vertex of a run is stored as 8 + 4
 * bytes so nothing past the caller's buffer is touched. */
#include "anim/skin_internal.h"
#include "core/simd.h"

#ifdef AK_HAVE_SSE

/* _MM_SHUFFLE with the lanes written in order: result lanes 0,1 from the first operand. */
#define AK_LANES(l0, l1, l2, l3) _MM_SHUFFLE((l3), (l2), (l1), (l0))

int akskin_have_simd(void)
{
    return 1;
}

/* (x, y, z, 0) from three packed floats; reads exactly 12 bytes. */
static inline __m128 load_xyz(const float *f)
{
    return aks_load3((const ak_vec3 *)(const void *)f);
}

static inline void store_xyz(float *out, __m128 v, int last)
{
    if (!last) {
        _mm_storeu_ps(out, v);
        return;
    }
    _mm_storel_pi((__m64 *)(void *)out, v);
    _mm_store_ss(out + 2, _mm_movehl_ps(v, v));
}

/* v / |v| over lanes 0..2 (lane 3 must be 0). */
static inline __m128 normalize3(__m128 v)
{
    const __m128 n2 = aks_dot4(v, v);
    const __m128 ok = _mm_cmpgt_ps(n2, _mm_set1_ps(1e-30f));
    const __m128 unit = _mm_mul_ps(v, aks_rsqrt(_mm_max_ps(n2, _mm_set1_ps(1e-30f))));
    return _mm_or_ps(_mm_and_ps(ok, unit), _mm_andnot_ps(ok, _mm_setr_ps(0, 1, 0, 0)));
}

/* One vertex by LBS: the weighted sum of its joints' columns, applied to the position and
 * (without translation) to the normal; lane 3 of both is 0. */
static inline void lbs_vertex(const ak_skin_params *p, int32_t v, const int32_t k, __m128 *pos,
                              __m128 *nrm)
{
    const ak_skin_joint *pal = p->palette;
    const uint16_t *jv = p->joints + (size_t)v * (size_t)k;
    *nrm = _mm_setzero_ps();
    const float *wv = p->weights + (size_t)v * (size_t)k;
    __m128 c0 = _mm_setzero_ps(), c1 = c0, c2 = c0, c3 = c0;
    for (int32_t i = 0; i < k; ++i) {
        const __m128 w = _mm_set1_ps(wv[i]);
        const float *m = &pal[akskin_joint(jv[i], p->joint_count)].columns[0][0];
        c0 = _mm_add_ps(c0, _mm_mul_ps(w, _mm_loadu_ps(m)));
        c1 = _mm_add_ps(c1, _mm_mul_ps(w, _mm_loadu_ps(m + 4)));
        c2 = _mm_add_ps(c2, _mm_mul_ps(w, _mm_loadu_ps(m + 8)));
        c3 = _mm_add_ps(c3, _mm_mul_ps(w, _mm_loadu_ps(m + 12)));
    }
    const float *x = p->positions + 3 * (size_t)v;
    *pos =
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(x[0])), _mm_mul_ps(c1, _mm_set1_ps(x[1]))),
                   _mm_add_ps(_mm_mul_ps(c2, _mm_set1_ps(x[2])), c3));
    if (!p->out_normals) return;
    const float *n = p->normals + 3 * (size_t)v;
    *nrm = normalize3(
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(n[0])), _mm_mul_ps(c1, _mm_set1_ps(n[1]))),
                   _mm_mul_ps(c2, _mm_set1_ps(n[2]))));
}

/* The LBS body for `k` influences one vertex at a time (runs shorter than four vertices). */
static inline void lbs_vertices(const ak_skin_params *p, int32_t first, int32_t count,
                                const int32_t k)
{
    const int32_t end = first + count;
    for (int32_t v = first; v < end; ++v) {
        __m128 pos, nrm;
        lbs_vertex(p, v, k, &pos, &nrm);
        const int last = v == end - 1;
        store_xyz(p->out_positions + 3 * (size_t)v, pos, last);
        if (p->out_normals) store_xyz(p->out_normals + 3 * (size_t)v, nrm, last);
    }
}

/* Four x,y,z vectors (lane 3 ignored) packed into 48 bytes: three 16-byte stores, streamed past
 * the caches (non-temporal) when `stream` (then f is 16-byte aligned). */
static inline void store_packed4(float *f, const __m128 v[4], int stream)
{
    const __m128 t0 = _mm_shuffle_ps(v[0], v[1], AK_LANES(2, 2, 0, 0));
    const __m128 a = _mm_shuffle_ps(v[0], t0, AK_LANES(0, 1, 0, 2));
    const __m128 b = _mm_shuffle_ps(v[1], v[2], AK_LANES(1, 2, 0, 1));
    const __m128 t1 = _mm_shuffle_ps(v[2], v[3], AK_LANES(2, 2, 0, 0));
    const __m128 c = _mm_shuffle_ps(t1, v[3], AK_LANES(0, 2, 1, 2));
    if (stream) {
        _mm_stream_ps(f, a), _mm_stream_ps(f + 4, b), _mm_stream_ps(f + 8, c);
    } else {
        _mm_storeu_ps(f, a), _mm_storeu_ps(f + 4, b), _mm_storeu_ps(f + 8, c);
    }
}

/* Outputs larger than this go around the caches (a frame's skinned mesh is read next by the
 * GPU upload, not by this core; streaming spares the read-for-ownership of every line). */
#define AK_SKIN_STREAM_BYTES ((size_t)8 << 20)

/* 1 when the run's outputs are big enough to stream and every group of four vertices starts
 * on 16 bytes (the first does; 48-byte groups keep it). */
static inline int stream_outputs(const ak_skin_params *p, int32_t first, int32_t count)
{
    const size_t bytes = (size_t)count * 12 * (p->out_normals ? 2 : 1);
    const float *po = p->out_positions + 3 * (size_t)first;
    const float *no = p->out_normals ? p->out_normals + 3 * (size_t)first : po;
    return bytes > AK_SKIN_STREAM_BYTES && ((uintptr_t)po & 15) == 0 && ((uintptr_t)no & 15) == 0;
}

/* GCC's pure-const analysis takes a function whose only effect is __builtin_prefetch for
 * pure and drops the calls to it before they are inlined (none of the prefetches below was in
 * the binary): prefetch_inputs is inlined always. */
#if defined(__GNUC__) || defined(__clang__)
#define AKSKIN_ALWAYS_INLINE __attribute__((always_inline))
#else
#define AKSKIN_ALWAYS_INLINE
#endif

/* Asks for the input lines `ahead` vertices on (each stream advances at most 64 bytes per four
 * vertices, so one prefetch per stream per step covers every line). Prefetches never fault. */
AKSKIN_ALWAYS_INLINE static inline void prefetch_inputs(const ak_skin_params *p, int32_t v,
                                                        int32_t end, const int32_t k)
{
    enum { AHEAD = 64 };
    const size_t a = (size_t)(v + AHEAD < end ? v + AHEAD : end - 1); /* stay inside the arrays */
    _mm_prefetch((const char *)(p->positions + 3 * a), _MM_HINT_T0);
    _mm_prefetch((const char *)(p->weights + (size_t)k * a), _MM_HINT_T0);
    _mm_prefetch((const char *)(p->joints + (size_t)k * a), _MM_HINT_T0);
    if (p->out_normals) _mm_prefetch((const char *)(p->normals + 3 * a), _MM_HINT_T0);
}

static inline void lbs_run(const ak_skin_params *p, int32_t first, int32_t count, const int32_t k)
{
    const int32_t quads = count / 4;
    const int stream = stream_outputs(p, first, count);
    for (int32_t q = 0; q < quads; ++q) {
        const int32_t v = first + 4 * q;
        __m128 pos[4], nrm[4];
        if (stream) prefetch_inputs(p, v, first + count, k);
        for (int l = 0; l < 4; ++l)
            lbs_vertex(p, v + l, k, &pos[l], &nrm[l]);
        store_packed4(p->out_positions + 3 * (size_t)v, pos, stream);
        if (p->out_normals) store_packed4(p->out_normals + 3 * (size_t)v, nrm, stream);
    }
    if (stream) _mm_sfence();
    if (count > 4 * quads) lbs_vertices(p, first + 4 * quads, count - 4 * quads, k);
}

/* Blended, antipodality-fixed, normalised dual quaternion of one vertex (skin.c dqs_blend). */
static inline void dqs_blend(const ak_skin_joint *pal, int32_t n, const uint16_t *jv,
                             const float *wv, const int32_t k, __m128 *r_out, __m128 *d_out)
{
    const __m128 sign_bit = _mm_set1_ps(-0.0f);
    const ak_skin_joint *s0 = &pal[akskin_joint(jv[0], n)];
    const __m128 r0 = _mm_loadu_ps(&s0->real.x);
    __m128 r = _mm_setzero_ps(), d = r;
    for (int32_t i = 0; i < k; ++i) {
        const ak_skin_joint *si = &pal[akskin_joint(jv[i], n)];
        const __m128 ri = _mm_loadu_ps(&si->real.x);
        const __m128 di = _mm_loadu_ps(&si->dual.x);
        const __m128 w = _mm_xor_ps(_mm_set1_ps(wv[i]), _mm_and_ps(aks_dot4(r0, ri), sign_bit));
        r = _mm_add_ps(r, _mm_mul_ps(w, ri));
        d = _mm_add_ps(d, _mm_mul_ps(w, di));
    }
    const __m128 n2 = aks_dot4(r, r);
    const __m128 ok = _mm_cmpgt_ps(n2, _mm_set1_ps(1e-20f));
    const __m128 inv = aks_rsqrt(_mm_max_ps(n2, _mm_set1_ps(1e-20f)));
    const __m128 d0 = _mm_loadu_ps(&s0->dual.x);
    *r_out = _mm_or_ps(_mm_and_ps(ok, _mm_mul_ps(r, inv)), _mm_andnot_ps(ok, r0));
    *d_out = _mm_or_ps(_mm_and_ps(ok, _mm_mul_ps(d, inv)), _mm_andnot_ps(ok, d0));
}

static inline void dqs_vertices(const ak_skin_params *p, int32_t first, int32_t count,
                                const int32_t k)
{
    const __m128 xyz_mask = _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0));
    const int32_t end = first + count;
    for (int32_t v = first; v < end; ++v) {
        __m128 r, d;
        dqs_blend(p->palette, p->joint_count, p->joints + (size_t)v * (size_t)k,
                  p->weights + (size_t)v * (size_t)k, k, &r, &d);
        /* t = 2 (r.w d.v - d.w r.v + r.v x d.v) */
        __m128 t = _mm_sub_ps(_mm_mul_ps(AK_SHUF(r, 3, 3, 3, 3), d),
                              _mm_mul_ps(AK_SHUF(d, 3, 3, 3, 3), r));
        t = _mm_add_ps(t, aks_cross(r, d));
        t = _mm_add_ps(t, t);
        const __m128 x = load_xyz(p->positions + 3 * (size_t)v);
        const int last = v == end - 1;
        store_xyz(p->out_positions + 3 * (size_t)v, _mm_add_ps(aks_rotate(r, x), t), last);
        if (!p->out_normals) continue;
        const __m128 n = aks_rotate(r, load_xyz(p->normals + 3 * (size_t)v));
        store_xyz(p->out_normals + 3 * (size_t)v, normalize3(_mm_and_ps(n, xyz_mask)), last);
    }
}

/* ---- DQS over four vertices at once: one vertex per lane (structure of arrays), so the
 * sign test, the normalisation and both rotations are plain vertical arithmetic. ---- */

typedef struct soa3 {
    __m128 x, y, z;
} soa3;

/* Four packed x,y,z vertices (48 bytes) into x, y, z registers. */
static inline soa3 load_soa3(const float *f)
{
    const __m128 a = _mm_loadu_ps(f), b = _mm_loadu_ps(f + 4), c = _mm_loadu_ps(f + 8);
    soa3 r; /* a = x0 y0 z0 x1, b = y1 z1 x2 y2, c = z2 x3 y3 z3 */
    r.x = _mm_shuffle_ps(a, _mm_shuffle_ps(b, c, AK_LANES(2, 2, 1, 1)), AK_LANES(0, 3, 0, 2));
    r.y = _mm_shuffle_ps(_mm_shuffle_ps(a, b, AK_LANES(1, 1, 0, 0)),
                         _mm_shuffle_ps(b, c, AK_LANES(3, 3, 2, 2)), AK_LANES(0, 2, 0, 2));
    r.z = _mm_shuffle_ps(_mm_shuffle_ps(a, b, AK_LANES(2, 2, 1, 1)),
                         _mm_shuffle_ps(c, c, AK_LANES(0, 0, 3, 3)), AK_LANES(0, 2, 0, 2));
    return r;
}

static inline void store_soa3(float *f, soa3 v, int stream)
{
    const __m128 a =
        _mm_shuffle_ps(_mm_shuffle_ps(v.x, v.y, AK_LANES(0, 0, 0, 0)),
                       _mm_shuffle_ps(v.z, v.x, AK_LANES(0, 0, 1, 1)), AK_LANES(0, 2, 0, 2));
    const __m128 b =
        _mm_shuffle_ps(_mm_shuffle_ps(v.y, v.z, AK_LANES(1, 1, 1, 1)),
                       _mm_shuffle_ps(v.x, v.y, AK_LANES(2, 2, 2, 2)), AK_LANES(0, 2, 0, 2));
    const __m128 c =
        _mm_shuffle_ps(_mm_shuffle_ps(v.z, v.x, AK_LANES(2, 2, 3, 3)),
                       _mm_shuffle_ps(v.y, v.z, AK_LANES(3, 3, 3, 3)), AK_LANES(0, 2, 0, 2));
    if (stream) {
        _mm_stream_ps(f, a), _mm_stream_ps(f + 4, b), _mm_stream_ps(f + 8, c);
    } else {
        _mm_storeu_ps(f, a), _mm_storeu_ps(f + 4, b), _mm_storeu_ps(f + 8, c);
    }
}

static inline soa3 cross_soa3(soa3 a, soa3 b)
{
    soa3 r;
    r.x = _mm_sub_ps(_mm_mul_ps(a.y, b.z), _mm_mul_ps(a.z, b.y));
    r.y = _mm_sub_ps(_mm_mul_ps(a.z, b.x), _mm_mul_ps(a.x, b.z));
    r.z = _mm_sub_ps(_mm_mul_ps(a.x, b.y), _mm_mul_ps(a.y, b.x));
    return r;
}

/* v + w t + u x t with t = 2 u x v (u = r.xyz, w = r.w): r v r* for unit r, per lane. */
static inline soa3 rotate_soa3(soa3 u, __m128 w, soa3 v)
{
    soa3 t = cross_soa3(u, v);
    t.x = _mm_add_ps(t.x, t.x), t.y = _mm_add_ps(t.y, t.y), t.z = _mm_add_ps(t.z, t.z);
    const soa3 c = cross_soa3(u, t);
    soa3 r;
    r.x = _mm_add_ps(_mm_add_ps(v.x, _mm_mul_ps(w, t.x)), c.x);
    r.y = _mm_add_ps(_mm_add_ps(v.y, _mm_mul_ps(w, t.y)), c.y);
    r.z = _mm_add_ps(_mm_add_ps(v.z, _mm_mul_ps(w, t.z)), c.z);
    return r;
}

/* Influence i of vertices v..v+3: real and dual parts transposed, and the four weights. */
static inline void gather_influence(const ak_skin_params *p, int32_t v, int32_t i, int32_t k,
                                    aks_quat4 *r, aks_quat4 *d, __m128 *w)
{
    const ak_skin_joint *s[4];
    for (int l = 0; l < 4; ++l)
        s[l] = &p->palette[akskin_joint(p->joints[(size_t)(v + l) * (size_t)k + (size_t)i],
                                        p->joint_count)];
    *r = aks_load_quat4(&s[0]->real, &s[1]->real, &s[2]->real, &s[3]->real);
    *d = aks_load_quat4(&s[0]->dual, &s[1]->dual, &s[2]->dual, &s[3]->dual);
    const float *wv = p->weights + (size_t)v * (size_t)k + (size_t)i;
    *w = _mm_setr_ps(wv[0], wv[k], wv[2 * k], wv[3 * k]);
}

static inline void quat4_madd(aks_quat4 *acc, __m128 w, const aks_quat4 *q)
{
    acc->x = _mm_add_ps(acc->x, _mm_mul_ps(w, q->x));
    acc->y = _mm_add_ps(acc->y, _mm_mul_ps(w, q->y));
    acc->z = _mm_add_ps(acc->z, _mm_mul_ps(w, q->z));
    acc->w = _mm_add_ps(acc->w, _mm_mul_ps(w, q->w));
}

/* The blended dual quaternions of four vertices, antipodality fixed against each one's first
 * influence, normalised (a blend without length keeps the first influence, as skin.c does). */
static inline void dqs_blend4(const ak_skin_params *p, int32_t v, const int32_t k, aks_quat4 *r,
                              aks_quat4 *d)
{
    aks_quat4 r0, d0, ri, di;
    __m128 w;
    gather_influence(p, v, 0, k, &r0, &d0, &w);
    r->x = _mm_mul_ps(w, r0.x), r->y = _mm_mul_ps(w, r0.y), r->z = _mm_mul_ps(w, r0.z);
    r->w = _mm_mul_ps(w, r0.w);
    d->x = _mm_mul_ps(w, d0.x), d->y = _mm_mul_ps(w, d0.y), d->z = _mm_mul_ps(w, d0.z);
    d->w = _mm_mul_ps(w, d0.w);
    for (int32_t i = 1; i < k; ++i) {
        gather_influence(p, v, i, k, &ri, &di, &w);
        const __m128 dot = _mm_add_ps(_mm_add_ps(_mm_mul_ps(r0.x, ri.x), _mm_mul_ps(r0.y, ri.y)),
                                      _mm_add_ps(_mm_mul_ps(r0.z, ri.z), _mm_mul_ps(r0.w, ri.w)));
        w = _mm_xor_ps(w, _mm_and_ps(dot, _mm_set1_ps(-0.0f)));
        quat4_madd(r, w, &ri);
        quat4_madd(d, w, &di);
    }
    const __m128 n2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(r->x, r->x), _mm_mul_ps(r->y, r->y)),
                                 _mm_add_ps(_mm_mul_ps(r->z, r->z), _mm_mul_ps(r->w, r->w)));
    const __m128 ok = _mm_cmpgt_ps(n2, _mm_set1_ps(1e-20f));
    const __m128 inv = _mm_and_ps(ok, aks_rsqrt(_mm_max_ps(n2, _mm_set1_ps(1e-20f))));
    const __m128 keep = _mm_andnot_ps(ok, _mm_set1_ps(1.0f)); /* 1 where the blend failed */
    r->x = _mm_add_ps(_mm_mul_ps(r->x, inv), _mm_mul_ps(keep, r0.x));
    r->y = _mm_add_ps(_mm_mul_ps(r->y, inv), _mm_mul_ps(keep, r0.y));
    r->z = _mm_add_ps(_mm_mul_ps(r->z, inv), _mm_mul_ps(keep, r0.z));
    r->w = _mm_add_ps(_mm_mul_ps(r->w, inv), _mm_mul_ps(keep, r0.w));
    d->x = _mm_add_ps(_mm_mul_ps(d->x, inv), _mm_mul_ps(keep, d0.x));
    d->y = _mm_add_ps(_mm_mul_ps(d->y, inv), _mm_mul_ps(keep, d0.y));
    d->z = _mm_add_ps(_mm_mul_ps(d->z, inv), _mm_mul_ps(keep, d0.z));
    d->w = _mm_add_ps(_mm_mul_ps(d->w, inv), _mm_mul_ps(keep, d0.w));
}

static inline soa3 normalize_soa3(soa3 v)
{
    const __m128 n2 =
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(v.x, v.x), _mm_mul_ps(v.y, v.y)), _mm_mul_ps(v.z, v.z));
    const __m128 ok = _mm_cmpgt_ps(n2, _mm_set1_ps(1e-30f));
    const __m128 inv = _mm_and_ps(ok, aks_rsqrt(_mm_max_ps(n2, _mm_set1_ps(1e-30f))));
    v.x = _mm_mul_ps(v.x, inv);
    v.y = _mm_add_ps(_mm_mul_ps(v.y, inv), _mm_andnot_ps(ok, _mm_set1_ps(1.0f)));
    v.z = _mm_mul_ps(v.z, inv);
    return v;
}

static inline void dqs_vertices4(const ak_skin_params *p, int32_t v, const int32_t k, int stream)
{
    aks_quat4 r, d;
    dqs_blend4(p, v, k, &r, &d);
    const soa3 u = {r.x, r.y, r.z}, dv = {d.x, d.y, d.z};
    /* t = 2 (r.w d.v - d.w r.v + r.v x d.v) */
    soa3 t = cross_soa3(u, dv);
    t.x = _mm_add_ps(t.x, _mm_sub_ps(_mm_mul_ps(r.w, d.x), _mm_mul_ps(d.w, r.x)));
    t.y = _mm_add_ps(t.y, _mm_sub_ps(_mm_mul_ps(r.w, d.y), _mm_mul_ps(d.w, r.y)));
    t.z = _mm_add_ps(t.z, _mm_sub_ps(_mm_mul_ps(r.w, d.z), _mm_mul_ps(d.w, r.z)));
    soa3 x = rotate_soa3(u, r.w, load_soa3(p->positions + 3 * (size_t)v));
    x.x = _mm_add_ps(x.x, _mm_add_ps(t.x, t.x));
    x.y = _mm_add_ps(x.y, _mm_add_ps(t.y, t.y));
    x.z = _mm_add_ps(x.z, _mm_add_ps(t.z, t.z));
    store_soa3(p->out_positions + 3 * (size_t)v, x, stream);
    if (!p->out_normals) return;
    const soa3 n = rotate_soa3(u, r.w, load_soa3(p->normals + 3 * (size_t)v));
    store_soa3(p->out_normals + 3 * (size_t)v, normalize_soa3(n), stream);
}

static inline void dqs_run(const ak_skin_params *p, int32_t first, int32_t count, const int32_t k)
{
    const int32_t quads = count / 4;
    const int stream = stream_outputs(p, first, count);
    for (int32_t q = 0; q < quads; ++q) {
        if (stream) prefetch_inputs(p, first + 4 * q, first + count, k);
        dqs_vertices4(p, first + 4 * q, k, stream);
    }
    if (stream) _mm_sfence();
    if (count > 4 * quads) dqs_vertices(p, first + 4 * quads, count - 4 * quads, k);
}

/* ---- AVX2 + FMA (chosen at run time, as clip_batch.c's eight-character path is) ---- */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define AKSKIN_HAVE_AVX2 1
#include <immintrin.h>
#define AK_AVX2 __attribute__((target("avx2,fma")))
/* Inlined into each influence count's copy of the run (k a constant, its loops unrolled) */
#define AK_AVX2_INLINE __attribute__((target("avx2,fma"), always_inline))

static int cpu_has_avx2_fma(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/* Byte offsets into the palette of the n joint indices at j (clamped to the palette, as
 * akskin_joint does), eight at a time; n is a multiple of 4 (four vertices' influences). */
AK_AVX2 static inline void palette_offsets(const uint16_t *j, int32_t n, int32_t joint_count,
                                           uint32_t *off)
{
    const __m128i last = _mm_set1_epi16((short)(uint16_t)(joint_count - 1));
    int32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i jj =
            _mm_min_epu16(_mm_loadu_si128((const __m128i *)(const void *)(j + i)), last);
        const __m256i x = _mm256_cvtepu16_epi32(jj); /* * sizeof(ak_skin_joint) = 96 */
        const __m256i o = _mm256_add_epi32(_mm256_slli_epi32(x, 6), _mm256_slli_epi32(x, 5));
        _mm256_storeu_si256((__m256i *)(void *)(off + i), o);
    }
    for (; i < n; ++i)
        off[i] = (uint32_t)akskin_joint(j[i], joint_count) * (uint32_t)sizeof(ak_skin_joint);
}

/* The palette entry at offset off[i], the offset read as one scalar load: through a volatile
 * pointer, as otherwise the compiler builds DQS's eight addresses of an influence in 64-bit
 * vector lanes and extracts each (about 4 instructions per DQS vertex more, and slower). */
AK_AVX2 static inline const char *palette_at(const char *pal, const uint32_t *off, int32_t i)
{
    const volatile uint32_t *o = off;
    /* o[i] was written by palette_offsets' vector stores, which the analyser does not follow */
    // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
    return pal + o[i];
}

/* One vertex's blended columns in two registers, a = (c0 | c1) and b = (c2 | c3): an influence
 * is one broadcast and two fused multiply-adds. `off`: its influences' palette offsets. */
AK_AVX2 static inline void lbs_blend_avx2(const char *pal, const uint32_t *off, const float *wv,
                                          const int32_t k, __m256 *a_out, __m256 *b_out)
{
    /* off[0..k) were written by palette_offsets' vector stores, which the analyser does not
     * follow; the compiler takes them out of the register (faster here than palette_at) */
    // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
    const float *m = (const float *)(const void *)(pal + off[0]);
    __m256 w = _mm256_broadcast_ss(wv);
    __m256 a = _mm256_mul_ps(w, _mm256_loadu_ps(m)), b = _mm256_mul_ps(w, _mm256_loadu_ps(m + 8));
    for (int32_t i = 1; i < k; ++i) {
        // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
        m = (const float *)(const void *)(pal + off[i]);
        w = _mm256_broadcast_ss(wv + i);
        a = _mm256_fmadd_ps(w, _mm256_loadu_ps(m), a);
        b = _mm256_fmadd_ps(w, _mm256_loadu_ps(m + 8), b);
    }
    *a_out = a, *b_out = b;
}

/* The x,y,z of two packed vertices (f[0..6)) spread one per register, vertex A (f[0..3)) in the
 * low half and B in the high half: (xA x4 | xB x4), (yA.. | yB..), (zA.. | zB..). Two 16-byte
 * loads, f[0..4) and f[2..6), so nothing past B is read; then in-lane permutes. */
AK_AVX2 static inline void spread_pair(const float *f, __m256 *x, __m256 *y, __m256 *z)
{
    const __m256 v =
        _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(f)), _mm_loadu_ps(f + 2), 1);
    /* v = (xA yA zA xB | zA xB yB zB) */
    *x = _mm256_permutevar_ps(v, _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
    *y = _mm256_permutevar_ps(v, _mm256_setr_epi32(1, 1, 1, 1, 2, 2, 2, 2));
    *z = _mm256_permutevar_ps(v, _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3));
}

/* Two vertices by LBS, A in the low half of each register and B in the high half: the blended
 * columns regrouped as (c_A | c_B), then p' = c0 x + c1 y + c2 z + c3 and n' = c0 nx + c1 ny +
 * c2 nz for both at once (lane 3 of each half is 0). ab: A's (a, b) from lbs_blend_avx2,
 * then B's. */
AK_AVX2 static inline void lbs_pair_avx2(const __m256 ab[4], const float *x, const float *n,
                                         __m256 *pos, __m256 *nrm)
{
    const __m256 c0 = _mm256_permute2f128_ps(ab[0], ab[2], 0x20);
    const __m256 c1 = _mm256_permute2f128_ps(ab[0], ab[2], 0x31);
    const __m256 c2 = _mm256_permute2f128_ps(ab[1], ab[3], 0x20);
    const __m256 c3 = _mm256_permute2f128_ps(ab[1], ab[3], 0x31);
    __m256 sx, sy, sz;
    spread_pair(x, &sx, &sy, &sz);
    *pos = _mm256_fmadd_ps(c0, sx, _mm256_fmadd_ps(c1, sy, _mm256_fmadd_ps(c2, sz, c3)));
    *nrm = _mm256_setzero_ps();
    if (!n) return;
    spread_pair(n, &sx, &sy, &sz);
    *nrm = _mm256_fmadd_ps(c0, sx, _mm256_fmadd_ps(c1, sy, _mm256_mul_ps(c2, sz)));
}

/* Two vertex pairs (lane 3 of each half 0) made unit together: one reciprocal square root for
 * the four lengths (a vector of length 0 becomes (0, 1, 0), as normalize3 does). */
AK_AVX2 static inline void normalize_pairs(__m256 *v01, __m256 *v23)
{
    const __m256 h = _mm256_hadd_ps(_mm256_mul_ps(*v01, *v01), _mm256_mul_ps(*v23, *v23));
    /* per half: low (|v0|^2, |v2|^2, ..), high (|v1|^2, |v3|^2, ..) */
    const __m256 n2 = _mm256_hadd_ps(h, h), tiny = _mm256_set1_ps(1e-30f);
    const __m256 ok = _mm256_cmp_ps(n2, tiny, _CMP_GT_OQ), m = _mm256_max_ps(n2, tiny);
    const __m256 y = _mm256_rsqrt_ps(m);
    const __m256 inv = _mm256_and_ps(
        ok, _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), y),
                          _mm256_fnmadd_ps(_mm256_mul_ps(y, y), m, _mm256_set1_ps(3.0f))));
    /* (0, 1, 0) where the length was 0 (inv is 0 there); each vertex's lanes take its own */
    const __m256 unit_y = _mm256_setr_ps(0, 1, 0, 0, 0, 1, 0, 0);
    *v01 = _mm256_fmadd_ps(*v01, _mm256_permute_ps(inv, 0x00),
                           _mm256_andnot_ps(_mm256_permute_ps(ok, 0x00), unit_y));
    *v23 = _mm256_fmadd_ps(*v23, _mm256_permute_ps(inv, 0x55),
                           _mm256_andnot_ps(_mm256_permute_ps(ok, 0x55), unit_y));
}

/* Four x,y,z vectors as two pairs, (v0 | v1) and (v2 | v3) (lane 3 of each half ignored),
 * packed into 48 bytes: two cross-lane permutes and a blend; streamed past the caches as three
 * 16-byte non-temporal stores when `stream` (then f is 16-byte aligned). */
AK_AVX2 static inline void store_pairs(float *f, __m256 v01, __m256 v23, int stream)
{
    const __m256 a = _mm256_permutevar8x32_ps(v01, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 6, 6));
    const __m256 b = _mm256_permutevar8x32_ps(v23, _mm256_setr_epi32(2, 4, 5, 6, 2, 2, 0, 1));
    const __m256 head = _mm256_blend_ps(a, b, 0xC0); /* x0 y0 z0 x1 y1 z1 x2 y2 */
    const __m128 tail = _mm256_castps256_ps128(b);   /* z2 x3 y3 z3 */
    if (stream) {
        _mm_stream_ps(f, _mm256_castps256_ps128(head));
        _mm_stream_ps(f + 4, _mm256_extractf128_ps(head, 1));
        _mm_stream_ps(f + 8, tail);
    } else {
        _mm256_storeu_ps(f, head);
        _mm_storeu_ps(f + 8, tail);
    }
}

/* Four vertices from v: blended, transformed as two pairs, normals made unit, stored packed. */
AK_AVX2_INLINE static inline void lbs_quad_avx2(const ak_skin_params *p, int32_t v, const int32_t k,
                                                int stream)
{
    uint32_t off[4 * AK_SKIN_MAX_INFLUENCES];
    palette_offsets(p->joints + (size_t)v * (size_t)k, 4 * k, p->joint_count, off);
    const char *pal = (const char *)(const void *)p->palette;
    const float *wv = p->weights + (size_t)v * (size_t)k, *x = p->positions + 3 * (size_t)v;
    const float *n = p->out_normals ? p->normals + 3 * (size_t)v : NULL;
    __m256 ab[8], pos[2], nrm[2];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
    for (int l = 0; l < 4; ++l)
        lbs_blend_avx2(pal, off + l * k, wv + l * k, k, &ab[2 * l], &ab[2 * l + 1]);
    lbs_pair_avx2(ab, x, n, &pos[0], &nrm[0]);
    lbs_pair_avx2(ab + 4, x + 6, n ? n + 6 : NULL, &pos[1], &nrm[1]);
    store_pairs(p->out_positions + 3 * (size_t)v, pos[0], pos[1], stream);
    if (!n) return;
    normalize_pairs(&nrm[0], &nrm[1]);
    store_pairs(p->out_normals + 3 * (size_t)v, nrm[0], nrm[1], stream);
}

AK_AVX2 static void lbs_run_avx2(const ak_skin_params *params, int32_t first, int32_t count,
                                 const int32_t k)
{
    /* A local copy: the output stores cannot alias it, so its pointers stay in registers
     * instead of being read again from *params after every store. */
    const ak_skin_params local = *params, *p = &local;
    const int32_t quads = count / 4;
    const int stream = stream_outputs(p, first, count);
    for (int32_t q = 0; q < quads; ++q) {
        if (stream) prefetch_inputs(p, first + 4 * q, first + count, k);
        lbs_quad_avx2(p, first + 4 * q, k, stream);
    }
    if (stream) _mm_sfence();
    if (count > 4 * quads) lbs_vertices(p, first + 4 * quads, count - 4 * quads, k);
}

/* ---- DQS over eight vertices at once (one per lane), the SoA4 path at twice the width ---- */

typedef struct soa8q {
    __m256 x, y, z, w;
} soa8q;

/* Four rows into one register per float: row l holds four floats of vertex l in its low half
 * and of vertex l + 4 in its high half; an in-lane 4x4 transpose puts vertex l in lane l. */
AK_AVX2 static inline void transpose8x4(const __m256 row[4], soa8q *q)
{
    const __m256 t0 = _mm256_unpacklo_ps(row[0], row[1]), t1 = _mm256_unpackhi_ps(row[0], row[1]);
    const __m256 t2 = _mm256_unpacklo_ps(row[2], row[3]), t3 = _mm256_unpackhi_ps(row[2], row[3]);
    q->x = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    q->y = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    q->z = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    q->w = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

/* Four floats at each of eight addresses, lane l from f[l]: f[l] and f[l + 4] share a row (one
 * load and one insert), then transpose8x4. */
AK_AVX2 static inline void load8x4(const float *const f[8], soa8q *q)
{
    __m256 row[4];
    for (int l = 0; l < 4; ++l)
        row[l] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(f[l])),
                                      _mm_loadu_ps(f[l + 4]), 1);
    transpose8x4(row, q);
}

/* One part (real or dual, `part` its byte offset in ak_skin_joint) of influence i of eight
 * vertices, one register per component (`off`: offsets of influence i, k apart). */
AK_AVX2 static inline void gather8_part(const char *pal, const uint32_t *off, int32_t k,
                                        size_t part, soa8q *q)
{
    __m256 row[4];
    for (int l = 0; l < 4; ++l) {
        const char *lo = palette_at(pal, off, l * k), *hi = palette_at(pal, off, (l + 4) * k);
        row[l] = _mm256_insertf128_ps(
            _mm256_castps128_ps256(_mm_loadu_ps((const float *)(const void *)(lo + part))),
            _mm_loadu_ps((const float *)(const void *)(hi + part)), 1);
    }
    transpose8x4(row, q);
}

AK_AVX2 static inline void soa8q_madd(soa8q *acc, __m256 w, const soa8q *q)
{
    acc->x = _mm256_fmadd_ps(w, q->x, acc->x);
    acc->y = _mm256_fmadd_ps(w, q->y, acc->y);
    acc->z = _mm256_fmadd_ps(w, q->z, acc->z);
    acc->w = _mm256_fmadd_ps(w, q->w, acc->w);
}

AK_AVX2 static inline __m256 soa8q_dot(const soa8q *a, const soa8q *b)
{
    return _mm256_fmadd_ps(
        a->x, b->x,
        _mm256_fmadd_ps(a->y, b->y, _mm256_fmadd_ps(a->z, b->z, _mm256_mul_ps(a->w, b->w))));
}

/* r, d scaled by 1/|r|; lanes whose blend has no length (|r|^2 <= 1e-20, as skin.c's
 * dqs_blend) take their first influence's (r0, d0) instead, read again from the palette: that
 * case is rare, so (r0, d0) are not kept in registers through the blend. */
AK_AVX2 static inline void soa8q_unit_or(soa8q *r, soa8q *d, const char *pal, const uint32_t *off,
                                         int32_t k)
{
    const __m256 n2 = soa8q_dot(r, r), tiny = _mm256_set1_ps(1e-20f);
    const __m256 ok = _mm256_cmp_ps(n2, tiny, _CMP_GT_OQ), m = _mm256_max_ps(n2, tiny);
    const __m256 y = _mm256_rsqrt_ps(m);
    const __m256 inv =
        _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), y),
                      _mm256_fnmadd_ps(_mm256_mul_ps(y, y), m, _mm256_set1_ps(3.0f)));
    r->x = _mm256_mul_ps(r->x, inv), r->y = _mm256_mul_ps(r->y, inv);
    r->z = _mm256_mul_ps(r->z, inv), r->w = _mm256_mul_ps(r->w, inv);
    d->x = _mm256_mul_ps(d->x, inv), d->y = _mm256_mul_ps(d->y, inv);
    d->z = _mm256_mul_ps(d->z, inv), d->w = _mm256_mul_ps(d->w, inv);
    if (_mm256_movemask_ps(ok) == 0xFF) return;
    soa8q r0, d0;
    gather8_part(pal, off, k, offsetof(ak_skin_joint, real), &r0);
    gather8_part(pal, off, k, offsetof(ak_skin_joint, dual), &d0);
    r->x = _mm256_blendv_ps(r0.x, r->x, ok), r->y = _mm256_blendv_ps(r0.y, r->y, ok);
    r->z = _mm256_blendv_ps(r0.z, r->z, ok), r->w = _mm256_blendv_ps(r0.w, r->w, ok);
    d->x = _mm256_blendv_ps(d0.x, d->x, ok), d->y = _mm256_blendv_ps(d0.y, d->y, ok);
    d->z = _mm256_blendv_ps(d0.z, d->z, ok), d->w = _mm256_blendv_ps(d0.w, d->w, ok);
}

/* The weights of influence i of the eight vertices from wv (k per vertex): four influences
 * are four loads and a transpose (w[0..3]), other counts gather. */
AK_AVX2 static inline void weights8(const float *wv, const int32_t k,
                                    __m256 w[AK_SKIN_MAX_INFLUENCES])
{
    if (k == 4) {
        const float *f[8];
        for (int l = 0; l < 8; ++l)
            f[l] = wv + 4 * l;
        soa8q q;
        load8x4(f, &q);
        w[0] = q.x, w[1] = q.y, w[2] = q.z, w[3] = q.w;
        return;
    }
    const __m256i idx =
        _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(k));
    w[0] = _mm256_i32gather_ps(wv, idx, 4); /* k >= 1 */
    for (int32_t i = 1; i < k; ++i)
        w[i] = _mm256_i32gather_ps(wv + i, idx, 4);
}

/* The blended, antipodality-fixed, normalised dual quaternions of vertices v..v+7. */
AK_AVX2 static inline void dqs_blend8(const ak_skin_params *p, int32_t v, const int32_t k, soa8q *r,
                                      soa8q *d)
{
    uint32_t off[8 * AK_SKIN_MAX_INFLUENCES];
    palette_offsets(p->joints + (size_t)v * (size_t)k, 8 * k, p->joint_count, off);
    const char *pal = (const char *)(const void *)p->palette;
    __m256 w[AK_SKIN_MAX_INFLUENCES];
    weights8(p->weights + (size_t)v * (size_t)k, k, w);
    const size_t real = offsetof(ak_skin_joint, real), dual = offsetof(ak_skin_joint, dual);
    soa8q r0, q;
    /* the real parts first, then the dual parts with the signed weights: fewer registers live
     * at once than blending both together (AVX2 has 16) */
    gather8_part(pal, off, k, real, &r0);
    r->x = _mm256_mul_ps(w[0], r0.x), r->y = _mm256_mul_ps(w[0], r0.y);
    r->z = _mm256_mul_ps(w[0], r0.z), r->w = _mm256_mul_ps(w[0], r0.w);
    for (int32_t i = 1; i < k; ++i) {
        gather8_part(pal, off + i, k, real, &q);
        w[i] = _mm256_xor_ps(w[i], _mm256_and_ps(soa8q_dot(&r0, &q), _mm256_set1_ps(-0.0f)));
        soa8q_madd(r, w[i], &q);
    }
    gather8_part(pal, off, k, dual, &q);
    d->x = _mm256_mul_ps(w[0], q.x), d->y = _mm256_mul_ps(w[0], q.y);
    d->z = _mm256_mul_ps(w[0], q.z), d->w = _mm256_mul_ps(w[0], q.w);
    for (int32_t i = 1; i < k; ++i) {
        gather8_part(pal, off + i, k, dual, &q);
        soa8q_madd(d, w[i], &q);
    }
    soa8q_unit_or(r, d, pal, off, k);
}

typedef struct soa8v {
    __m256 x, y, z;
} soa8v;

/* Eight packed x,y,z vertices (96 bytes) into x, y, z registers: the SoA4 shuffles of
 * load_soa3 on both halves at once (vertices 0..3 in the low half, 4..7 in the high). */
AK_AVX2 static inline soa8v load_soa8v(const float *f)
{
    const __m256 a =
        _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(f)), _mm_loadu_ps(f + 12), 1);
    const __m256 b =
        _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(f + 4)), _mm_loadu_ps(f + 16), 1);
    const __m256 c =
        _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(f + 8)), _mm_loadu_ps(f + 20), 1);
    soa8v r; /* a = x0 y0 z0 x1, b = y1 z1 x2 y2, c = z2 x3 y3 z3 (per half) */
    r.x = _mm256_shuffle_ps(a, _mm256_shuffle_ps(b, c, AK_LANES(2, 2, 1, 1)), AK_LANES(0, 3, 0, 2));
    r.y = _mm256_shuffle_ps(_mm256_shuffle_ps(a, b, AK_LANES(1, 1, 0, 0)),
                            _mm256_shuffle_ps(b, c, AK_LANES(3, 3, 2, 2)), AK_LANES(0, 2, 0, 2));
    r.z = _mm256_shuffle_ps(_mm256_shuffle_ps(a, b, AK_LANES(2, 2, 1, 1)),
                            _mm256_shuffle_ps(c, c, AK_LANES(0, 0, 3, 3)), AK_LANES(0, 2, 0, 2));
    return r;
}

/* The inverse of load_soa8v: 96 bytes, six 16-byte stores (streamed when `stream`). */
AK_AVX2 static inline void store_soa8v(float *f, soa8v v, int stream)
{
    const __m256 a =
        _mm256_shuffle_ps(_mm256_shuffle_ps(v.x, v.y, AK_LANES(0, 0, 0, 0)),
                          _mm256_shuffle_ps(v.z, v.x, AK_LANES(0, 0, 1, 1)), AK_LANES(0, 2, 0, 2));
    const __m256 b =
        _mm256_shuffle_ps(_mm256_shuffle_ps(v.y, v.z, AK_LANES(1, 1, 1, 1)),
                          _mm256_shuffle_ps(v.x, v.y, AK_LANES(2, 2, 2, 2)), AK_LANES(0, 2, 0, 2));
    const __m256 c =
        _mm256_shuffle_ps(_mm256_shuffle_ps(v.z, v.x, AK_LANES(2, 2, 3, 3)),
                          _mm256_shuffle_ps(v.y, v.z, AK_LANES(3, 3, 3, 3)), AK_LANES(0, 2, 0, 2));
    const __m128 lo[3] = {_mm256_castps256_ps128(a), _mm256_castps256_ps128(b),
                          _mm256_castps256_ps128(c)};
    const __m128 hi[3] = {_mm256_extractf128_ps(a, 1), _mm256_extractf128_ps(b, 1),
                          _mm256_extractf128_ps(c, 1)};
    if (stream) {
        for (int i = 0; i < 3; ++i)
            _mm_stream_ps(f + 4 * i, lo[i]), _mm_stream_ps(f + 12 + 4 * i, hi[i]);
    } else {
        for (int i = 0; i < 3; ++i)
            _mm_storeu_ps(f + 4 * i, lo[i]), _mm_storeu_ps(f + 12 + 4 * i, hi[i]);
    }
}

/* u x v per lane. */
AK_AVX2 static inline soa8v cross8(soa8v a, soa8v b)
{
    soa8v r;
    r.x = _mm256_fmsub_ps(a.y, b.z, _mm256_mul_ps(a.z, b.y));
    r.y = _mm256_fmsub_ps(a.z, b.x, _mm256_mul_ps(a.x, b.z));
    r.z = _mm256_fmsub_ps(a.x, b.y, _mm256_mul_ps(a.y, b.x));
    return r;
}

/* r v r* for unit r = (u, w), per lane: v + w t + u x t with t = 2 u x v (akq_rotate's order,
 * which the positions keep: their sums are held to the scalar twin's); plus `add`. */
AK_AVX2 static inline soa8v rotate8(soa8v u, __m256 w, soa8v v, soa8v add)
{
    soa8v t = cross8(u, v);
    t.x = _mm256_add_ps(t.x, t.x), t.y = _mm256_add_ps(t.y, t.y), t.z = _mm256_add_ps(t.z, t.z);
    const soa8v c = cross8(u, t);
    soa8v r;
    r.x = _mm256_add_ps(_mm256_fmadd_ps(w, t.x, v.x), _mm256_add_ps(c.x, add.x));
    r.y = _mm256_add_ps(_mm256_fmadd_ps(w, t.y, v.y), _mm256_add_ps(c.y, add.y));
    r.z = _mm256_add_ps(_mm256_fmadd_ps(w, t.z, v.z), _mm256_add_ps(c.z, add.z));
    return r;
}

/* r n r* for unit r = (u, w) when only the direction matters (normals, made unit after): with
 * s = u x n, n + 2w s + 2 u x s, the doublings folded into the multiply-adds. */
AK_AVX2 static inline soa8v rotate8_direction(soa8v u, __m256 w2, soa8v n)
{
    const __m256 two = _mm256_set1_ps(2.0f);
    const soa8v s = cross8(u, n);
    soa8v o;
    o.x = _mm256_fmadd_ps(two, _mm256_fmsub_ps(u.y, s.z, _mm256_mul_ps(u.z, s.y)),
                          _mm256_fmadd_ps(w2, s.x, n.x));
    o.y = _mm256_fmadd_ps(two, _mm256_fmsub_ps(u.z, s.x, _mm256_mul_ps(u.x, s.z)),
                          _mm256_fmadd_ps(w2, s.y, n.y));
    o.z = _mm256_fmadd_ps(two, _mm256_fmsub_ps(u.x, s.y, _mm256_mul_ps(u.y, s.x)),
                          _mm256_fmadd_ps(w2, s.z, n.z));
    return o;
}

AK_AVX2 static inline soa8v normalize8(soa8v v)
{
    const __m256 tiny = _mm256_set1_ps(1e-30f);
    const __m256 n2 = _mm256_fmadd_ps(v.x, v.x, _mm256_fmadd_ps(v.y, v.y, _mm256_mul_ps(v.z, v.z)));
    const __m256 ok = _mm256_cmp_ps(n2, tiny, _CMP_GT_OQ), m = _mm256_max_ps(n2, tiny);
    const __m256 y = _mm256_rsqrt_ps(m);
    const __m256 inv = _mm256_and_ps(
        ok, _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), y),
                          _mm256_fnmadd_ps(_mm256_mul_ps(y, y), m, _mm256_set1_ps(3.0f))));
    v.x = _mm256_mul_ps(v.x, inv);
    v.y = _mm256_fmadd_ps(v.y, inv, _mm256_andnot_ps(ok, _mm256_set1_ps(1.0f)));
    v.z = _mm256_mul_ps(v.z, inv);
    return v;
}

AK_AVX2_INLINE static inline void dqs_vertices8(const ak_skin_params *p, int32_t v, const int32_t k,
                                                int stream)
{
    soa8q r, d;
    dqs_blend8(p, v, k, &r, &d);
    const soa8v u = {r.x, r.y, r.z}, dv = {d.x, d.y, d.z};
    /* t = 2 (r.w d.v - d.w r.v + r.v x d.v) */
    soa8v t = cross8(u, dv);
    t.x = _mm256_add_ps(t.x, _mm256_fmsub_ps(r.w, d.x, _mm256_mul_ps(d.w, r.x)));
    t.y = _mm256_add_ps(t.y, _mm256_fmsub_ps(r.w, d.y, _mm256_mul_ps(d.w, r.y)));
    t.z = _mm256_add_ps(t.z, _mm256_fmsub_ps(r.w, d.z, _mm256_mul_ps(d.w, r.z)));
    t.x = _mm256_add_ps(t.x, t.x), t.y = _mm256_add_ps(t.y, t.y), t.z = _mm256_add_ps(t.z, t.z);
    const soa8v x = rotate8(u, r.w, load_soa8v(p->positions + 3 * (size_t)v), t);
    store_soa8v(p->out_positions + 3 * (size_t)v, x, stream);
    if (!p->out_normals) return;
    const soa8v n =
        rotate8_direction(u, _mm256_add_ps(r.w, r.w), load_soa8v(p->normals + 3 * (size_t)v));
    store_soa8v(p->out_normals + 3 * (size_t)v, normalize8(n), stream);
}

AK_AVX2 static void dqs_run_avx2(const ak_skin_params *params, int32_t first, int32_t count,
                                 const int32_t k)
{
    const ak_skin_params local = *params, *p = &local; /* as in lbs_run_avx2 */
    const int32_t octs = count / 8;
    const int stream = stream_outputs(p, first, count);
    for (int32_t q = 0; q < octs; ++q) {
        if (stream) {
            prefetch_inputs(p, first + 8 * q, first + count, k);
            prefetch_inputs(p, first + 8 * q + 4, first + count, k);
        }
        dqs_vertices8(p, first + 8 * q, k, stream);
    }
    if (stream) _mm_sfence();
    if (count > 8 * octs) dqs_run(p, first + 8 * octs, count - 8 * octs, k);
}
#endif

/* ---- AVX-512 (F) + FMA: one blended 3x4 matrix per register (chosen at run time) ----
 * The palette's four padded columns are 64 bytes, one register: an influence is one
 * broadcast and one fused multiply-add (AVX2 needs two). Four vertices' matrices are then
 * regrouped by column, (c_v0 | c_v1 | c_v2 | c_v3), so three multiply-adds transform four
 * positions and three four normals; AVX2 works in pairs of vertices. */
#if defined(AKSKIN_HAVE_AVX2) && !defined(_WIN32)
/* Not in Windows builds: mingw-w64's GCC does not realign the stack for the 64-byte spills of
 * AVX-512 registers (GCC bug 54412); the Unity DLL keeps the AVX2 path. */
#define AKSKIN_HAVE_AVX512 1
#define AK_AVX512          __attribute__((target("avx512f,avx2,fma")))
#define AK_AVX512_INLINE   __attribute__((target("avx512f,avx2,fma"), always_inline))

static int cpu_has_avx512(void)
{
    return __builtin_cpu_supports("avx512f") && cpu_has_avx2_fma();
}

/* palette_offsets for n = 4 k indices: sixteen at a time (one load, clamp, widen, scale). */
AK_AVX512 static inline void palette_offsets16(const uint16_t *j, int32_t n, int32_t joint_count,
                                               uint32_t *off)
{
    if (n % 16) {
        palette_offsets(j, n, joint_count, off);
        return;
    }
    const __m256i last = _mm256_set1_epi16((short)(uint16_t)(joint_count - 1));
    const __m512i size = _mm512_set1_epi32((int)sizeof(ak_skin_joint));
    for (int32_t i = 0; i < n; i += 16) {
        const __m256i jj =
            _mm256_min_epu16(_mm256_loadu_si256((const __m256i *)(const void *)(j + i)), last);
        _mm512_storeu_si512(off + i, _mm512_mullo_epi32(_mm512_cvtepu16_epi32(jj), size));
    }
}

/* One vertex's blended columns (c0 | c1 | c2 | c3) in one register. */
AK_AVX512 static inline __m512 lbs_blend_avx512(const char *pal, const uint32_t *off,
                                                const float *wv, const int32_t k)
{
    /* off[0..k) were written by palette_offsets16's vector stores (see lbs_blend_avx2) */
    // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
    __m512 m = _mm512_mul_ps(_mm512_set1_ps(wv[0]), _mm512_loadu_ps(pal + off[0]));
    for (int32_t i = 1; i < k; ++i)
        // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
        m = _mm512_fmadd_ps(_mm512_set1_ps(wv[i]), _mm512_loadu_ps(pal + off[i]), m);
    return m;
}

/* The x, y, z of four packed vertices (f[0..12), a masked load: nothing past them is read),
 * each spread over its vertex's quarter: (x0 x4 | x1 x4 | x2 x4 | x3 x4), and y, z alike. */
AK_AVX512 static inline void spread_quad(const float *f, __m512 *x, __m512 *y, __m512 *z)
{
    const __m512 v = _mm512_maskz_loadu_ps(0x0FFF, f);
    const __m512i ix = _mm512_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3, 6, 6, 6, 6, 9, 9, 9, 9);
    *x = _mm512_permutexvar_ps(ix, v);
    *y = _mm512_permutexvar_ps(_mm512_add_epi32(ix, _mm512_set1_epi32(1)), v);
    *z = _mm512_permutexvar_ps(_mm512_add_epi32(ix, _mm512_set1_epi32(2)), v);
}

/* Four vertices' p' = c0 x + c1 y + c2 z + c3 and n' = c0 nx + c1 ny + c2 nz, vertex l in
 * quarter l (lane 3 of each quarter 0): m[l] = (c0 | c1 | c2 | c3) of vertex l, regrouped by a
 * 4x4 transpose of quarters into (c_v0 | c_v1 | c_v2 | c_v3) per column. */
AK_AVX512 static inline void lbs_quad_transform(const __m512 m[4], const float *x, const float *n,
                                                __m512 *pos, __m512 *nrm)
{
    const __m512 t0 = _mm512_shuffle_f32x4(m[0], m[1], 0x44); /* c0 c1 of v0, of v1 */
    const __m512 t1 = _mm512_shuffle_f32x4(m[0], m[1], 0xEE); /* c2 c3 of v0, of v1 */
    const __m512 t2 = _mm512_shuffle_f32x4(m[2], m[3], 0x44);
    const __m512 t3 = _mm512_shuffle_f32x4(m[2], m[3], 0xEE);
    const __m512 c0 = _mm512_shuffle_f32x4(t0, t2, 0x88), c1 = _mm512_shuffle_f32x4(t0, t2, 0xDD);
    const __m512 c2 = _mm512_shuffle_f32x4(t1, t3, 0x88), c3 = _mm512_shuffle_f32x4(t1, t3, 0xDD);
    __m512 sx, sy, sz;
    spread_quad(x, &sx, &sy, &sz);
    *pos = _mm512_fmadd_ps(c0, sx, _mm512_fmadd_ps(c1, sy, _mm512_fmadd_ps(c2, sz, c3)));
    *nrm = _mm512_setzero_ps();
    if (!n) return;
    spread_quad(n, &sx, &sy, &sz);
    *nrm = _mm512_fmadd_ps(c0, sx, _mm512_fmadd_ps(c1, sy, _mm512_mul_ps(c2, sz)));
}

/* Four vectors (one per quarter, lane 3 0) made unit: each quarter's |v|^2 summed in place by
 * two in-quarter swaps, one reciprocal square root (14 bits) and a Newton step; a vector of
 * length 0 becomes (0, 1, 0), as normalize3 does. */
AK_AVX512 static inline __m512 normalize_quad(__m512 v)
{
    const __m512 sq = _mm512_mul_ps(v, v);
    const __m512 s1 = _mm512_add_ps(sq, _mm512_permute_ps(sq, 0xB1)); /* lanes 1 0 3 2 */
    const __m512 n2 = _mm512_add_ps(s1, _mm512_permute_ps(s1, 0x4E)); /* lanes 2 3 0 1 */
    const __m512 tiny = _mm512_set1_ps(1e-30f), m = _mm512_max_ps(n2, tiny);
    const __mmask16 ok = _mm512_cmp_ps_mask(n2, tiny, _CMP_GT_OQ);
    const __m512 y = _mm512_rsqrt14_ps(m);
    const __m512 inv =
        _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), y),
                      _mm512_fnmadd_ps(_mm512_mul_ps(y, y), m, _mm512_set1_ps(3.0f)));
    const __m512 unit_y = _mm512_setr_ps(0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0);
    return _mm512_mask_mul_ps(unit_y, ok, v, inv);
}

/* Four x,y,z vectors (one per quarter) packed into 48 bytes: one permute, then a masked store,
 * or three 16-byte non-temporal stores when `stream` (then f is 16-byte aligned). */
AK_AVX512 static inline void store_quad(float *f, __m512 v, int stream)
{
    const __m512i pack = _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0);
    const __m512 packed = _mm512_permutexvar_ps(pack, v);
    if (!stream) {
        _mm512_mask_storeu_ps(f, 0x0FFF, packed);
        return;
    }
    _mm_stream_ps(f, _mm512_castps512_ps128(packed));
    _mm_stream_ps(f + 4, _mm512_extractf32x4_ps(packed, 1));
    _mm_stream_ps(f + 8, _mm512_extractf32x4_ps(packed, 2));
}

/* Four vertices from v: four blends, transformed together, normals made unit, stored packed. */
AK_AVX512_INLINE static inline void lbs_quad_avx512(const ak_skin_params *p, int32_t v,
                                                    const int32_t k, int stream)
{
    uint32_t off[4 * AK_SKIN_MAX_INFLUENCES];
    palette_offsets16(p->joints + (size_t)v * (size_t)k, 4 * k, p->joint_count, off);
    const char *pal = (const char *)(const void *)p->palette;
    const float *wv = p->weights + (size_t)v * (size_t)k, *x = p->positions + 3 * (size_t)v;
    const float *n = p->out_normals ? p->normals + 3 * (size_t)v : NULL;
    __m512 m[4], pos, nrm;
    for (int l = 0; l < 4; ++l)
        m[l] = lbs_blend_avx512(pal, off + l * k, wv + l * k, k);
    lbs_quad_transform(m, x, n, &pos, &nrm);
    store_quad(p->out_positions + 3 * (size_t)v, pos, stream);
    if (!n) return;
    store_quad(p->out_normals + 3 * (size_t)v, normalize_quad(nrm), stream);
}

AK_AVX512_INLINE static inline void lbs_run_avx512(const ak_skin_params *params, int32_t first,
                                                   int32_t count, const int32_t k)
{
    const ak_skin_params local = *params, *p = &local; /* as in lbs_run_avx2 */
    const int32_t quads = count / 4;
    const int stream = stream_outputs(p, first, count);
    for (int32_t q = 0; q < quads; ++q) {
        if (stream) prefetch_inputs(p, first + 4 * q, first + count, k);
        lbs_quad_avx512(p, first + 4 * q, k, stream);
    }
    if (stream) _mm_sfence();
    if (count > 4 * quads) lbs_vertices(p, first + 4 * quads, count - 4 * quads, k);
}

/* lbs_run_avx512 compiled for 4 and 8 influences (its loops unrolled) and for any count. */
AK_AVX512 static void lbs_run_avx512_4(const ak_skin_params *p, int32_t first, int32_t count)
{
    lbs_run_avx512(p, first, count, 4);
}

AK_AVX512 static void lbs_run_avx512_8(const ak_skin_params *p, int32_t first, int32_t count)
{
    lbs_run_avx512(p, first, count, 8);
}

AK_AVX512 static void lbs_run_avx512_k(const ak_skin_params *p, int32_t first, int32_t count)
{
    lbs_run_avx512(p, first, count, p->influences);
}

/* ---- DQS over sixteen vertices at once (one per lane): the SoA8 path at twice the width;
 * an influence's real and dual parts (32 contiguous bytes) are one load per vertex. ---- */

typedef struct soa16q {
    __m512 x, y, z, w;
} soa16q;

typedef struct soa16v {
    __m512 x, y, z;
} soa16v;

/* In-quarter 4x4 transpose: quarter q of row[l] holds four floats; out x takes float 0 of
 * each row into lanes 0..3 of every quarter, y float 1, z float 2, w float 3. */
AK_AVX512 static inline void transpose16x4(const __m512 row[4], soa16q *q)
{
    const __m512 t0 = _mm512_unpacklo_ps(row[0], row[1]), t1 = _mm512_unpackhi_ps(row[0], row[1]);
    const __m512 t2 = _mm512_unpacklo_ps(row[2], row[3]), t3 = _mm512_unpackhi_ps(row[2], row[3]);
    q->x = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    q->y = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    q->z = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    q->w = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

/* The real and dual parts of influence i of sixteen vertices (`off`: that influence's palette
 * offsets, k apart), one register per component. Row l of a group of four holds vertex l's
 * (real | dual) and vertex l + 4's; groups are vertices 0..7 and 8..15. The in-quarter
 * transpose leaves (r_0..3 | d_0..3 | r_4..7 | d_4..7) per component; one quarter shuffle
 * per component joins the groups. */
AK_AVX512 static inline void gather16_joint(const char *pal, const uint32_t *off, int32_t k,
                                            soa16q *r, soa16q *d)
{
    const size_t part = offsetof(ak_skin_joint, real); /* dual follows real */
    soa16q g[2];
    for (int h = 0; h < 2; ++h) {
        __m512 row[4];
        for (int l = 0; l < 4; ++l) {
            const char *lo = palette_at(pal, off, (8 * h + l) * k);
            const char *hi = palette_at(pal, off, (8 * h + l + 4) * k);
            row[l] = _mm512_castpd_ps(_mm512_insertf64x4(
                _mm512_castpd256_pd512(_mm256_loadu_pd((const double *)(const void *)(lo + part))),
                _mm256_loadu_pd((const double *)(const void *)(hi + part)), 1));
        }
        transpose16x4(row, &g[h]);
    }
    r->x = _mm512_shuffle_f32x4(g[0].x, g[1].x, 0x88),
    d->x = _mm512_shuffle_f32x4(g[0].x, g[1].x, 0xDD);
    r->y = _mm512_shuffle_f32x4(g[0].y, g[1].y, 0x88),
    d->y = _mm512_shuffle_f32x4(g[0].y, g[1].y, 0xDD);
    r->z = _mm512_shuffle_f32x4(g[0].z, g[1].z, 0x88),
    d->z = _mm512_shuffle_f32x4(g[0].z, g[1].z, 0xDD);
    r->w = _mm512_shuffle_f32x4(g[0].w, g[1].w, 0x88),
    d->w = _mm512_shuffle_f32x4(g[0].w, g[1].w, 0xDD);
}

AK_AVX512 static inline void soa16q_madd(soa16q *acc, __m512 w, const soa16q *q)
{
    acc->x = _mm512_fmadd_ps(w, q->x, acc->x);
    acc->y = _mm512_fmadd_ps(w, q->y, acc->y);
    acc->z = _mm512_fmadd_ps(w, q->z, acc->z);
    acc->w = _mm512_fmadd_ps(w, q->w, acc->w);
}

AK_AVX512 static inline __m512 soa16q_dot(const soa16q *a, const soa16q *b)
{
    return _mm512_fmadd_ps(
        a->x, b->x,
        _mm512_fmadd_ps(a->y, b->y, _mm512_fmadd_ps(a->z, b->z, _mm512_mul_ps(a->w, b->w))));
}

/* 1 / sqrt(m) to float precision: 14-bit estimate and one Newton step. */
AK_AVX512 static inline __m512 rsqrt16(__m512 m)
{
    const __m512 y = _mm512_rsqrt14_ps(m);
    return _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), y),
                         _mm512_fnmadd_ps(_mm512_mul_ps(y, y), m, _mm512_set1_ps(3.0f)));
}

/* rsqrt16 from the 12-bit estimate the scalar twin's akf_rsqrt refines (its step leaves about
 * 2e-7 relative, which a blend's translation carries into the positions: from the 14-bit
 * estimate DQS positions differ from the twin's by up to 2.2e-6, from this one 1.9e-6). */
AK_AVX512 static inline __m512 rsqrt16_as_scalar(__m512 m)
{
    const __m512d md = _mm512_castps_pd(m);
    const __m256 lo = _mm256_rsqrt_ps(_mm512_castps512_ps256(m));
    const __m256 hi = _mm256_rsqrt_ps(_mm256_castpd_ps(_mm512_extractf64x4_pd(md, 1)));
    const __m512 y = _mm512_castpd_ps(
        _mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(lo)), _mm256_castps_pd(hi), 1));
    return _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), y),
                         _mm512_fnmadd_ps(_mm512_mul_ps(y, y), m, _mm512_set1_ps(3.0f)));
}

/* r, d scaled by 1/|r|; lanes whose blend has no length take their first influence's (r0, d0),
 * gathered again (rare), as soa8q_unit_or does. */
AK_AVX512 static inline void soa16q_unit_or(soa16q *r, soa16q *d, const char *pal,
                                            const uint32_t *off, int32_t k)
{
    const __m512 n2 = soa16q_dot(r, r), tiny = _mm512_set1_ps(1e-20f);
    const __mmask16 ok = _mm512_cmp_ps_mask(n2, tiny, _CMP_GT_OQ);
    const __m512 inv = rsqrt16_as_scalar(_mm512_max_ps(n2, tiny));
    r->x = _mm512_mul_ps(r->x, inv), r->y = _mm512_mul_ps(r->y, inv);
    r->z = _mm512_mul_ps(r->z, inv), r->w = _mm512_mul_ps(r->w, inv);
    d->x = _mm512_mul_ps(d->x, inv), d->y = _mm512_mul_ps(d->y, inv);
    d->z = _mm512_mul_ps(d->z, inv), d->w = _mm512_mul_ps(d->w, inv);
    if (ok == 0xFFFF) return;
    soa16q r0, d0;
    gather16_joint(pal, off, k, &r0, &d0);
    r->x = _mm512_mask_blend_ps(ok, r0.x, r->x), r->y = _mm512_mask_blend_ps(ok, r0.y, r->y);
    r->z = _mm512_mask_blend_ps(ok, r0.z, r->z), r->w = _mm512_mask_blend_ps(ok, r0.w, r->w);
    d->x = _mm512_mask_blend_ps(ok, d0.x, d->x), d->y = _mm512_mask_blend_ps(ok, d0.y, d->y);
    d->z = _mm512_mask_blend_ps(ok, d0.z, d->z), d->w = _mm512_mask_blend_ps(ok, d0.w, d->w);
}

/* The weights of each influence of sixteen vertices from wv (k per vertex), lane v vertex v:
 * four influences are four loads and eight permutes, other counts gather. */
AK_AVX512 static inline void weights16(const float *wv, const int32_t k,
                                       __m512 w[AK_SKIN_MAX_INFLUENCES])
{
    if (k == 4) {
        /* lo: influence 0 of vertices 0..7 then influence 1; hi: influences 2 and 3 */
        const __m512i lo =
            _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
        const __m512i hi = _mm512_add_epi32(lo, _mm512_set1_epi32(2));
        const __m512 a = _mm512_loadu_ps(wv), b = _mm512_loadu_ps(wv + 16);
        const __m512 c = _mm512_loadu_ps(wv + 32), e = _mm512_loadu_ps(wv + 48);
        const __m512 a01 = _mm512_permutex2var_ps(a, lo, b), a23 = _mm512_permutex2var_ps(a, hi, b);
        const __m512 c01 = _mm512_permutex2var_ps(c, lo, e), c23 = _mm512_permutex2var_ps(c, hi, e);
        w[0] = _mm512_shuffle_f32x4(a01, c01, 0x44), w[1] = _mm512_shuffle_f32x4(a01, c01, 0xEE);
        w[2] = _mm512_shuffle_f32x4(a23, c23, 0x44), w[3] = _mm512_shuffle_f32x4(a23, c23, 0xEE);
        return;
    }
    const __m512i idx =
        _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                           _mm512_set1_epi32(k));
    w[0] = _mm512_i32gather_ps(idx, wv, 4); /* k >= 1 */
    for (int32_t i = 1; i < k; ++i)
        w[i] = _mm512_i32gather_ps(idx, wv + i, 4);
}

/* The blended, antipodality-fixed, normalised dual quaternions of vertices v..v+15. */
AK_AVX512 static inline void dqs_blend16(const ak_skin_params *p, int32_t v, const int32_t k,
                                         soa16q *r, soa16q *d)
{
    uint32_t off[16 * AK_SKIN_MAX_INFLUENCES];
    palette_offsets16(p->joints + (size_t)v * (size_t)k, 16 * k, p->joint_count, off);
    const char *pal = (const char *)(const void *)p->palette;
    __m512 w[AK_SKIN_MAX_INFLUENCES];
    weights16(p->weights + (size_t)v * (size_t)k, k, w);
    soa16q r0, d0, ri, di;
    gather16_joint(pal, off, k, &r0, &d0);
    r->x = _mm512_mul_ps(w[0], r0.x), r->y = _mm512_mul_ps(w[0], r0.y);
    r->z = _mm512_mul_ps(w[0], r0.z), r->w = _mm512_mul_ps(w[0], r0.w);
    d->x = _mm512_mul_ps(w[0], d0.x), d->y = _mm512_mul_ps(w[0], d0.y);
    d->z = _mm512_mul_ps(w[0], d0.z), d->w = _mm512_mul_ps(w[0], d0.w);
    for (int32_t i = 1; i < k; ++i) {
        gather16_joint(pal, off + i, k, &ri, &di);
        /* the weight negated where r0 . ri < 0 (the sign bit of the dot product) */
        const __m512i sign = _mm512_and_si512(_mm512_castps_si512(soa16q_dot(&r0, &ri)),
                                              _mm512_set1_epi32((int)0x80000000u));
        const __m512 wi = _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(w[i]), sign));
        soa16q_madd(r, wi, &ri);
        soa16q_madd(d, wi, &di);
    }
    soa16q_unit_or(r, d, pal, off, k);
}

/* Component c of sixteen packed x,y,z vertices (48 floats in a, b, c): lane v from float
 * 3 v + c, two permutes across three registers. */
AK_AVX512 static inline __m512 soa16_component(__m512 a, __m512 b, __m512 e, int c)
{
    int32_t first[16], second[16];
    for (int v = 0; v < 16; ++v) {
        const int f = 3 * v + c;
        first[v] = f < 32 ? f : 0;
        second[v] = f < 32 ? v : 16 + f - 32;
    }
    const __m512 ab = _mm512_permutex2var_ps(a, _mm512_loadu_si512(first), b);
    return _mm512_permutex2var_ps(ab, _mm512_loadu_si512(second), e);
}

AK_AVX512 static inline soa16v load_soa16v(const float *f)
{
    const __m512 a = _mm512_loadu_ps(f), b = _mm512_loadu_ps(f + 16), e = _mm512_loadu_ps(f + 32);
    soa16v r;
    r.x = soa16_component(a, b, e, 0);
    r.y = soa16_component(a, b, e, 1);
    r.z = soa16_component(a, b, e, 2);
    return r;
}

/* Floats 16 o .. 16 o + 15 of the packed x,y,z stream of sixteen vertices (the inverse of
 * load_soa16v): float f is component f % 3 of vertex f / 3; x and y first, then z. */
AK_AVX512 static inline __m512 packed16_chunk(soa16v v, int o)
{
    int32_t first[16], second[16];
    for (int l = 0; l < 16; ++l) {
        const int f = 16 * o + l, vert = f / 3, c = f % 3;
        first[l] = c == 0 ? vert : c == 1 ? 16 + vert : 0;
        second[l] = c == 2 ? 16 + vert : l;
    }
    const __m512 xy = _mm512_permutex2var_ps(v.x, _mm512_loadu_si512(first), v.y);
    return _mm512_permutex2var_ps(xy, _mm512_loadu_si512(second), v.z);
}

/* Sixteen vertices' x,y,z packed into 192 bytes: three 64-byte stores, or twelve 16-byte
 * non-temporal ones when `stream` (then f is 16-byte aligned). */
AK_AVX512 static inline void store_soa16v(float *f, soa16v v, int stream)
{
    for (int o = 0; o < 3; ++o) {
        const __m512 chunk = packed16_chunk(v, o);
        if (!stream) {
            _mm512_storeu_ps(f + 16 * o, chunk);
            continue;
        }
        _mm_stream_ps(f + 16 * o, _mm512_castps512_ps128(chunk));
        _mm_stream_ps(f + 16 * o + 4, _mm512_extractf32x4_ps(chunk, 1));
        _mm_stream_ps(f + 16 * o + 8, _mm512_extractf32x4_ps(chunk, 2));
        _mm_stream_ps(f + 16 * o + 12, _mm512_extractf32x4_ps(chunk, 3));
    }
}

AK_AVX512 static inline soa16v cross16(soa16v a, soa16v b)
{
    soa16v r;
    r.x = _mm512_fmsub_ps(a.y, b.z, _mm512_mul_ps(a.z, b.y));
    r.y = _mm512_fmsub_ps(a.z, b.x, _mm512_mul_ps(a.x, b.z));
    r.z = _mm512_fmsub_ps(a.x, b.y, _mm512_mul_ps(a.y, b.x));
    return r;
}

/* rotate8 at sixteen lanes: v + w t + u x t with t = 2 u x v, plus `add`. */
AK_AVX512 static inline soa16v rotate16(soa16v u, __m512 w, soa16v v, soa16v add)
{
    soa16v t = cross16(u, v);
    t.x = _mm512_add_ps(t.x, t.x), t.y = _mm512_add_ps(t.y, t.y), t.z = _mm512_add_ps(t.z, t.z);
    const soa16v c = cross16(u, t);
    soa16v r;
    r.x = _mm512_add_ps(_mm512_fmadd_ps(w, t.x, v.x), _mm512_add_ps(c.x, add.x));
    r.y = _mm512_add_ps(_mm512_fmadd_ps(w, t.y, v.y), _mm512_add_ps(c.y, add.y));
    r.z = _mm512_add_ps(_mm512_fmadd_ps(w, t.z, v.z), _mm512_add_ps(c.z, add.z));
    return r;
}

/* rotate8_direction at sixteen lanes (normals: made unit after). */
AK_AVX512 static inline soa16v rotate16_direction(soa16v u, __m512 w2, soa16v n)
{
    const __m512 two = _mm512_set1_ps(2.0f);
    const soa16v s = cross16(u, n);
    soa16v o;
    o.x = _mm512_fmadd_ps(two, _mm512_fmsub_ps(u.y, s.z, _mm512_mul_ps(u.z, s.y)),
                          _mm512_fmadd_ps(w2, s.x, n.x));
    o.y = _mm512_fmadd_ps(two, _mm512_fmsub_ps(u.z, s.x, _mm512_mul_ps(u.x, s.z)),
                          _mm512_fmadd_ps(w2, s.y, n.y));
    o.z = _mm512_fmadd_ps(two, _mm512_fmsub_ps(u.x, s.y, _mm512_mul_ps(u.y, s.x)),
                          _mm512_fmadd_ps(w2, s.z, n.z));
    return o;
}

/* v / |v| per lane; (0, 1, 0) where |v| is 0 (normalize3's rule). */
AK_AVX512 static inline soa16v normalize16(soa16v v)
{
    const __m512 tiny = _mm512_set1_ps(1e-30f);
    const __m512 n2 = _mm512_fmadd_ps(v.x, v.x, _mm512_fmadd_ps(v.y, v.y, _mm512_mul_ps(v.z, v.z)));
    const __mmask16 ok = _mm512_cmp_ps_mask(n2, tiny, _CMP_GT_OQ);
    const __m512 inv = rsqrt16(_mm512_max_ps(n2, tiny));
    v.x = _mm512_maskz_mul_ps(ok, v.x, inv);
    v.y = _mm512_mask_mul_ps(_mm512_set1_ps(1.0f), ok, v.y, inv);
    v.z = _mm512_maskz_mul_ps(ok, v.z, inv);
    return v;
}

AK_AVX512_INLINE static inline void dqs_vertices16(const ak_skin_params *p, int32_t v,
                                                   const int32_t k, int stream)
{
    soa16q r, d;
    dqs_blend16(p, v, k, &r, &d);
    const soa16v u = {r.x, r.y, r.z}, dv = {d.x, d.y, d.z};
    /* t = 2 (r.w d.v - d.w r.v + r.v x d.v) */
    soa16v t = cross16(u, dv);
    t.x = _mm512_add_ps(t.x, _mm512_fmsub_ps(r.w, d.x, _mm512_mul_ps(d.w, r.x)));
    t.y = _mm512_add_ps(t.y, _mm512_fmsub_ps(r.w, d.y, _mm512_mul_ps(d.w, r.y)));
    t.z = _mm512_add_ps(t.z, _mm512_fmsub_ps(r.w, d.z, _mm512_mul_ps(d.w, r.z)));
    t.x = _mm512_add_ps(t.x, t.x), t.y = _mm512_add_ps(t.y, t.y), t.z = _mm512_add_ps(t.z, t.z);
    const soa16v x = rotate16(u, r.w, load_soa16v(p->positions + 3 * (size_t)v), t);
    store_soa16v(p->out_positions + 3 * (size_t)v, x, stream);
    if (!p->out_normals) return;
    const soa16v n =
        rotate16_direction(u, _mm512_add_ps(r.w, r.w), load_soa16v(p->normals + 3 * (size_t)v));
    store_soa16v(p->out_normals + 3 * (size_t)v, normalize16(n), stream);
}

AK_AVX512_INLINE static inline void dqs_run_avx512(const ak_skin_params *params, int32_t first,
                                                   int32_t count, const int32_t k)
{
    const ak_skin_params local = *params, *p = &local; /* as in lbs_run_avx2 */
    const int32_t steps = count / 16;
    const int stream = stream_outputs(p, first, count);
    for (int32_t q = 0; q < steps; ++q) {
        if (stream)
            for (int a = 0; a < 16; a += 4)
                prefetch_inputs(p, first + 16 * q + a, first + count, k);
        dqs_vertices16(p, first + 16 * q, k, stream);
    }
    if (stream) _mm_sfence();
    if (count > 16 * steps) dqs_run(p, first + 16 * steps, count - 16 * steps, k);
}

/* dqs_run_avx512 compiled for 4 and 8 influences and for any count. */
AK_AVX512 static void dqs_run_avx512_4(const ak_skin_params *p, int32_t first, int32_t count)
{
    dqs_run_avx512(p, first, count, 4);
}

AK_AVX512 static void dqs_run_avx512_8(const ak_skin_params *p, int32_t first, int32_t count)
{
    dqs_run_avx512(p, first, count, 8);
}

AK_AVX512 static void dqs_run_avx512_k(const ak_skin_params *p, int32_t first, int32_t count)
{
    dqs_run_avx512(p, first, count, p->influences);
}
#endif

void akskin_lbs_simd(const ak_skin_params *p, int32_t first, int32_t count)
{
#ifdef AKSKIN_HAVE_AVX512
    if (p->use_simd == 1 && cpu_has_avx512()) {
        switch (p->influences) {
        case 4: lbs_run_avx512_4(p, first, count); break;
        case 8: lbs_run_avx512_8(p, first, count); break;
        default: lbs_run_avx512_k(p, first, count); break;
        }
        return;
    }
#endif
#ifdef AKSKIN_HAVE_AVX2
    if (p->use_simd != 2 && cpu_has_avx2_fma()) {
        switch (p->influences) {
        case 4: lbs_run_avx2(p, first, count, 4); break;
        case 8: lbs_run_avx2(p, first, count, 8); break;
        default: lbs_run_avx2(p, first, count, p->influences); break;
        }
        return;
    }
#endif
    switch (p->influences) {
    case 1: lbs_run(p, first, count, 1); break;
    case 2: lbs_run(p, first, count, 2); break;
    case 4: lbs_run(p, first, count, 4); break;
    case 8: lbs_run(p, first, count, 8); break;
    default: lbs_run(p, first, count, p->influences); break;
    }
}

void akskin_dqs_simd(const ak_skin_params *p, int32_t first, int32_t count)
{
#ifdef AKSKIN_HAVE_AVX512
    if (p->use_simd == 1 && cpu_has_avx512()) {
        switch (p->influences) {
        case 4: dqs_run_avx512_4(p, first, count); break;
        case 8: dqs_run_avx512_8(p, first, count); break;
        default: dqs_run_avx512_k(p, first, count); break;
        }
        return;
    }
#endif
#ifdef AKSKIN_HAVE_AVX2
    if (p->use_simd != 2 && cpu_has_avx2_fma()) {
        switch (p->influences) {
        case 4: dqs_run_avx2(p, first, count, 4); break;
        case 8: dqs_run_avx2(p, first, count, 8); break;
        default: dqs_run_avx2(p, first, count, p->influences); break;
        }
        return;
    }
#endif
    switch (p->influences) {
    case 1: dqs_run(p, first, count, 1); break;
    case 2: dqs_run(p, first, count, 2); break;
    case 4: dqs_run(p, first, count, 4); break;
    case 8: dqs_run(p, first, count, 8); break;
    default: dqs_run(p, first, count, p->influences); break;
    }
}

#else

int akskin_have_simd(void)
{
    return 0;
}

/* Never called without SSE (akskin_have_simd is 0: skin.c runs the scalar twins). */
void akskin_lbs_simd(const ak_skin_params *p, int32_t first, int32_t count)
{
    (void)p, (void)first, (void)count;
}

void akskin_dqs_simd(const ak_skin_params *p, int32_t first, int32_t count)
{
    (void)p, (void)first, (void)count;
}

#endif
