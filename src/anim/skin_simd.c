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

/* Asks for the input lines `ahead` vertices on (each stream advances at most 64 bytes per four
 * vertices, so one prefetch per stream per step covers every line). Prefetches never fault. */
static inline void prefetch_inputs(const ak_skin_params *p, int32_t v, int32_t end, const int32_t k)
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

void akskin_lbs_simd(const ak_skin_params *p, int32_t first, int32_t count)
{
    switch (p->influences) {
    case 1: lbs_run(p, first, count, 1); break;
    case 2: lbs_run(p, first, count, 2); break;
    case 4: lbs_run(p, first, count, 4); break;
    case 8: lbs_run(p, first, count, 8); break;
    default: lbs_run(p, first, count, p->influences); break;
    }
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

void akskin_dqs_simd(const ak_skin_params *p, int32_t first, int32_t count)
{
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
