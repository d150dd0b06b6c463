/* Compressed clips: sampling straight from the records (one character, or a batch with FK in
 * the same pass), the block as bytes (data, load with every field checked), info, and the
 * way back to a plain clip. No allocation in the sampling calls. */
#include "anim/compress_internal.h"
#include "core/simd8.h"

#include <stdlib.h>

void ak_compressed_clip_destroy(ak_compressed_clip *c)
{
    if (!c) return;
    free(c->header);
    free(c);
}

void ak_compressed_clip_get_info(const ak_compressed_clip *c, ak_compressed_info *info)
{
    if (!info) return;
    memset(info, 0, sizeof *info);
    if (!c) return;
    const akc_header *h = c->header;
    info->joint_count = h->joint_count;
    info->frame_count = h->frame_count;
    info->frame_time = h->frame_time;
    info->loop = h->loop;
    info->bytes = h->total_bytes;
    info->raw_bytes = (uint64_t)h->joint_count * (uint64_t)h->frame_count * 10u * sizeof(float);
    info->tolerance = h->tolerance;
    info->worst_error = h->worst_error;
    info->worst_joint = h->worst_joint;
    info->worst_frame = h->worst_frame;
    uint64_t bits = 0;
    for (int32_t i = 0; i < 2 * h->joint_count; ++i) {
        const akc_track *t = &c->tracks[i];
        if (t->mode == AKC_CONSTANT) info->constant_tracks++;
        if (t->mode == AKC_RAW) info->raw_tracks++;
        if (t->mode == AKC_QUANTIZED) {
            info->quantized_tracks++;
            bits += t->bits;
        }
    }
    if (info->quantized_tracks) info->mean_bits = (float)bits / (float)info->quantized_tracks;
}

const void *ak_compressed_clip_data(const ak_compressed_clip *c, size_t *size)
{
    if (size) *size = c ? (size_t)c->header->total_bytes : 0;
    return c ? (const void *)c->header : NULL;
}

static int track_ok(const akc_track *t, int is_trans, uint32_t frame_bits)
{
    /* Lane 3 of a decoded translation, and of a quantized key, is base[3] + q * step[3]. */
    if (t->step[3] != 0.0f || ((is_trans || t->mode == AKC_QUANTIZED) && t->base[3] != 0.0f))
        return 0;
    for (int k = 0; k < 4; ++k)
        if (!isfinite(t->base[k])) return 0;
    for (int k = 0; k < 4; ++k)
        if (!isfinite(t->step[k])) return 0;
    if (t->unused != 0) return 0;
    switch (t->mode) {
    case AKC_CONSTANT: return t->bits == 0;
    case AKC_QUANTIZED:
        return t->bits >= 1 && t->bits <= AKC_MAX_BITS && t->offset <= frame_bits &&
               3u * t->bits <= frame_bits - t->offset;
    case AKC_RAW: {
        const uint32_t need = is_trans ? 96u : 128u;
        return t->bits == 0 && t->offset % 8u == 0 && t->offset <= frame_bits &&
               need <= frame_bits - t->offset;
    }
    default: return 0;
    }
}

/* Checks a block's header and tracks against its size (the sizes are those of the caller). */
static int32_t check_block(const uint8_t *data, size_t size, ak_error *err)
{
    akc_header h;
    if (size < sizeof h)
        return ak_error_set(err, AK_ERR_PARSE, 0, "%llu bytes: too short",
                            (unsigned long long)size);
    memcpy(&h, data, sizeof h);
    if (h.magic != AKC_MAGIC) return ak_error_set(err, AK_ERR_PARSE, 0, "not a compressed clip");
    if (h.version != AKC_VERSION)
        return ak_error_set(err, AK_ERR_PARSE, 0, "version %u (this build reads %u)",
                            (unsigned)h.version, (unsigned)AKC_VERSION);
    if (h.joint_count < 1 || h.frame_count < 1 ||
        (uint64_t)h.joint_count * (uint64_t)h.frame_count > ((uint64_t)1 << 24))
        return ak_error_set(err, AK_ERR_PARSE, 0, "bad counts: %d joints, %d frames",
                            (int)h.joint_count, (int)h.frame_count);
    if (!(h.frame_time > 0.0f) || !isfinite(h.frame_time) || (h.loop != 0 && h.loop != 1))
        return ak_error_set(err, AK_ERR_PARSE, 0, "bad frame time or loop flag");
    if (h.frame_bytes > 32u * (uint32_t)h.joint_count)
        return ak_error_set(err, AK_ERR_PARSE, 0, "record of %u bytes for %d joints",
                            (unsigned)h.frame_bytes, (int)h.joint_count);
    const uint64_t want = (uint64_t)akc_records_offset(h.joint_count) +
                          (uint64_t)h.frame_bytes * (uint64_t)h.frame_count + AKC_PAD;
    if (h.total_bytes != want || (uint64_t)size != want)
        return ak_error_set(err, AK_ERR_PARSE, 0, "%llu bytes, the header says %llu (want %llu)",
                            (unsigned long long)size, (unsigned long long)h.total_bytes,
                            (unsigned long long)want);
    for (int32_t i = 0; i < 2 * h.joint_count; ++i) {
        akc_track t;
        memcpy(&t, data + akc_tracks_offset() + sizeof t * (size_t)i, sizeof t);
        if (!track_ok(&t, i % 2, h.frame_bytes * 8u))
            return ak_error_set(err, AK_ERR_PARSE, 0, "track %d (joint %d) is malformed", (int)i,
                                (int)(i / 2));
    }
    return AK_OK;
}

int32_t ak_compressed_clip_load(const void *data, size_t size, ak_compressed_clip **out,
                                ak_error *err)
{
    if (out) *out = NULL;
    if (!data || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    const int32_t st = check_block((const uint8_t *)data, size, err);
    if (st != AK_OK) return st;
    uint8_t *block = (uint8_t *)malloc(size);
    ak_compressed_clip *c = NULL;
    if (block) {
        memcpy(block, data, size);
        c = akc_clip_wrap(block);
    }
    if (!c) {
        free(block);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    *out = c;
    return AK_OK;
}

/* Group g's decode layout from its four rotation tracks tr[0], tr[2], tr[4], tr[6]. */
static void rot4_build(const akc_track *tr, akc_rot4 *g)
{
    memset(g, 0, sizeof *g);
    g->usable = 1;
    for (int k = 0; k < 4; ++k) {
        const akc_track *t = &tr[2 * k];
        const int q = t->mode == AKC_QUANTIZED;
        if (t->mode == AKC_RAW) g->usable = 0;
        g->byte[k] = q ? (int32_t)(t->offset >> 3) : 0;
        g->quantized[k] = q ? -1 : 0;
        g->mask[k] = q ? (int64_t)(((uint64_t)1 << t->bits) - 1u) : 0;
        for (int c = 0; c < 3; ++c) {
            g->shift[c][k] = q ? (int64_t)((t->offset & 7u) + (uint32_t)c * t->bits) : 0;
            g->base[c][k] = t->base[c];
            g->step[c][k] = q ? t->step[c] : -0.0f;
        }
        g->w[k] = t->base[3];
    }
}

/* Track t's words for the eight-character pass (a quantized track; the others unused). */
static void gather8_build(const akc_track *t, akc_gather8 *g)
{
    memset(g, 0, sizeof *g);
    if (t->mode != AKC_QUANTIZED) return;
    g->mask = (int32_t)(((uint32_t)1 << t->bits) - 1u);
    for (int i = 0; i < 3; ++i) {
        const uint32_t bit = t->offset + (uint32_t)i * t->bits;
        g->at[i] = ((bit >> 5) & 15u) * 32u; /* 32 bytes a ring word (eight lanes) */
        g->next[i] = (((bit >> 5) + 1u) & 15u) * 32u;
        g->shift[i] = (int32_t)(bit & 31u);
        g->up[i] = (bit & 31u) + t->bits > 32u ? 32 - g->shift[i] : 0;
    }
    g->first = (int32_t)(t->offset >> 8);
    g->last = (int32_t)((((t->offset + 3u * t->bits - 1u) >> 5) + 1u) >> 3);
}

/* Whether the ring of two groups serves every track in turn: tracks read in index order (as
 * the compressor lays them out), none reading a group before the last two transposed. */
static int gather8_ring_ok(const akc_track *tracks, const akc_gather8 *g, size_t count)
{
    int32_t reach = 0;
    for (size_t i = 0; i < count; ++i) {
        if (tracks[i].mode != AKC_QUANTIZED) continue;
        if (g[i].last > reach) reach = g[i].last;
        if (g[i].first < reach - 1) return 0;
    }
    return 1;
}

ak_compressed_clip *akc_clip_wrap(uint8_t *block)
{
    akc_header h;
    memcpy(&h, block, sizeof h);
    size_t groups = 0, tracks = 0;
#ifdef AK_HAVE_AVX2_DISPATCH
    groups = (size_t)(h.joint_count / 4);
    tracks = 2u * (size_t)h.joint_count;
#endif
    ak_compressed_clip *c = (ak_compressed_clip *)calloc(1, sizeof *c + groups * sizeof(akc_rot4) +
                                                                tracks * sizeof(akc_gather8));
    if (!c) return NULL;
    c->header = (akc_header *)(void *)block;
    c->tracks = (const akc_track *)(const void *)(block + akc_tracks_offset());
    c->records = block + akc_records_offset(h.joint_count);
    if (tracks) {
        akc_rot4 *g = (akc_rot4 *)(void *)(c + 1);
        for (size_t i = 0; i < groups; ++i)
            rot4_build(&c->tracks[8 * i], &g[i]);
        akc_gather8 *g8 = (akc_gather8 *)(void *)(g + groups);
        for (size_t i = 0; i < tracks; ++i)
            gather8_build(&c->tracks[i], &g8[i]);
        c->rot4 = groups ? g : NULL;
        c->gather8 = gather8_ring_ok(c->tracks, g8, tracks) ? g8 : NULL;
    }
    return c;
}

static key_span locate_c(const ak_compressed_clip *c, float t)
{
    const akc_header *h = c->header;
    return locate_frames(h->frame_count, h->frame_time, h->loop, t);
}

#ifdef AK_HAVE_SSE
/* Linear sample of joint j (tracks tr) between records r0 and r1 as rotation q and
 * translation t registers; step: r1 == r0. Constant tracks skip the interpolation. */
AK_INLINE __m128 sample_rotation4(const akc_track *tr, const uint8_t *r0, const uint8_t *r1,
                                  const aks_slerp_t *sp)
{
    if (tr->mode == AKC_CONSTANT || r1 == r0) return akc_rotation4(tr, r0);
    if (tr->mode == AKC_QUANTIZED) {
        __m128 a, b;
        akc_dequant2(tr, akc_read_bits(r0, tr->offset), akc_read_bits(r1, tr->offset), &a, &b);
        return aks_slerp(akc_with_w(a), akc_with_w(b), sp);
    }
    return aks_slerp(akc_rotation4(tr, r0), akc_rotation4(tr, r1), sp);
}

AK_INLINE void sample_joint4(const akc_track *tr, const uint8_t *r0, const uint8_t *r1,
                             const aks_slerp_t *sp, __m128 *q, __m128 *t)
{
    *q = sample_rotation4(&tr[0], r0, r1, sp);
    const __m128 t0 = akc_translation4(&tr[1], r0);
    if (tr[1].mode == AKC_CONSTANT || r1 == r0)
        *t = t0;
    else
        *t = _mm_add_ps(t0, _mm_mul_ps(_mm_sub_ps(akc_translation4(&tr[1], r1), t0), sp->t));
}
#else
AK_INLINE ak_xform sample_joint(const akc_track *tr, const uint8_t *r0, const uint8_t *r1,
                                float alpha)
{
    ak_xform x;
    if (tr[0].mode == AKC_CONSTANT || r1 == r0)
        x.rotation = akc_rotation(&tr[0], r0);
    else
        x.rotation = fast_slerp(akc_rotation(&tr[0], r0), akc_rotation(&tr[0], r1), alpha);
    if (tr[1].mode == AKC_CONSTANT || r1 == r0)
        x.translation = akc_translation(&tr[1], r0);
    else
        x.translation = akv_lerp(akc_translation(&tr[1], r0), akc_translation(&tr[1], r1), alpha);
    return x;
}
#endif

#ifdef AK_HAVE_SSE
/* The end of a four-joint rotation decode: keys a and b of joints j..j+3 in SoA form, their
 * quantized lanes' w rebuilt four at a time (is_q; the same operations as akc_with_w; the
 * others keep the w they have), then one slerp for the four. Returns 0, writing nothing,
 * where a quantized key fell outside the unit ball (akc_with_w renormalises it). */
AK_INLINE int rotations4_end(aks_quat4 qa, aks_quat4 qb, __m128 is_q, const aks_slerp_t *sp,
                             __m128 q[4])
{
    const __m128 one = _mm_set1_ps(1.0f);
    const __m128 sa = _mm_add_ps(_mm_add_ps(_mm_mul_ps(qa.x, qa.x), _mm_mul_ps(qa.y, qa.y)),
                                 _mm_mul_ps(qa.z, qa.z));
    const __m128 sb = _mm_add_ps(_mm_add_ps(_mm_mul_ps(qb.x, qb.x), _mm_mul_ps(qb.y, qb.y)),
                                 _mm_mul_ps(qb.z, qb.z));
    if (_mm_movemask_ps(_mm_and_ps(is_q, _mm_or_ps(_mm_cmpgt_ps(sa, one), _mm_cmpgt_ps(sb, one)))))
        return 0; /* rare: a key rounded outside the unit ball (akc_with_w renormalises) */
    qa.w = _mm_or_ps(_mm_and_ps(is_q, _mm_sqrt_ps(_mm_sub_ps(one, sa))), _mm_andnot_ps(is_q, qa.w));
    qb.w = _mm_or_ps(_mm_and_ps(is_q, _mm_sqrt_ps(_mm_sub_ps(one, sb))), _mm_andnot_ps(is_q, qb.w));
    aks_store_transposed(aks_slerp_soa(qa, qb, sp->t, sp->h, sp->g), q);
    return 1;
}

/* Linear rotations of joints j..j+3 (tracks tr), each key decoded on its own, then
 * rotations4_end. */
static int rotations4(const akc_track *tr, const uint8_t *r0, const uint8_t *r1,
                      const aks_slerp_t *sp, __m128 q[4])
{
    __m128 a[4], b[4];
    int quantized = 0;
    for (int k = 0; k < 4; ++k) {
        const akc_track *t = &tr[2 * k];
        if (t->mode == AKC_QUANTIZED) {
            akc_dequant2(t, akc_read_bits(r0, t->offset), akc_read_bits(r1, t->offset), &a[k],
                         &b[k]);
            quantized |= 1 << k;
        } else {
            a[k] = akc_rotation4(t, r0);
            b[k] = akc_rotation4(t, r1);
        }
    }
    aks_quat4 qa = {a[0], a[1], a[2], a[3]}, qb = {b[0], b[1], b[2], b[3]};
    _MM_TRANSPOSE4_PS(qa.x, qa.y, qa.z, qa.w);
    _MM_TRANSPOSE4_PS(qb.x, qb.y, qb.z, qb.w);
    const __m128i bits = _mm_set_epi32(quantized & 8, quantized & 4, quantized & 2, quantized & 1);
    const __m128 is_q = _mm_castsi128_ps(_mm_cmpgt_epi32(bits, _mm_setzero_si128()));
    return rotations4_end(qa, qb, is_q, sp, q);
}

#ifdef AK_HAVE_AVX2_DISPATCH
/* Components 0..2 of group g's four keys in record rec, one register per component: one
 * 64-bit read per lane (a gather; akc_read_bits reads the same bytes), per-lane shifts and
 * masks, then base + q * step as akc_dequant does it (the same integers and float
 * operations: the same bits). */
AK_AVX2 static inline void rot4_keys(const akc_rot4 *g, const uint8_t *rec, aks_quat4 *k)
{
    const __m256i v =
        _mm256_i32gather_epi64((const long long *)(const void *)rec,
                               _mm_loadu_si128((const __m128i *)(const void *)g->byte), 1);
    const __m256i mask = _mm256_loadu_si256((const __m256i *)(const void *)g->mask);
    const __m256i low = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6); /* each lane's low half */
    __m128 out[3];
    for (int c = 0; c < 3; ++c) {
        const __m256i sh = _mm256_loadu_si256((const __m256i *)(const void *)g->shift[c]);
        const __m256i q = _mm256_and_si256(_mm256_srlv_epi64(v, sh), mask);
        const __m128i q32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(q, low));
        out[c] = _mm_add_ps(_mm_loadu_ps(g->base[c]),
                            _mm_mul_ps(_mm_cvtepi32_ps(q32), _mm_loadu_ps(g->step[c])));
    }
    k->x = out[0];
    k->y = out[1];
    k->z = out[2];
    k->w = _mm_loadu_ps(g->w);
}

/* rotations4 of a group without raw tracks, its four keys of a record decoded at once. */
AK_AVX2 static inline int rotations4_avx2(const akc_rot4 *g, const uint8_t *r0, const uint8_t *r1,
                                          const aks_slerp_t *sp, __m128 q[4])
{
    aks_quat4 qa, qb;
    rot4_keys(g, r0, &qa);
    rot4_keys(g, r1, &qb);
    const __m128 is_q = _mm_loadu_ps((const float *)(const void *)g->quantized);
    return rotations4_end(qa, qb, is_q, sp, q);
}
#endif

/* The translation of joint j's track tr, linear between r0 and r1 (r1 == r0: step). */
AK_INLINE __m128 translation_linear(const akc_track *tr, const uint8_t *r0, const uint8_t *r1,
                                    __m128 alpha)
{
    const __m128 t0 = akc_translation4(tr, r0);
    if (tr->mode == AKC_CONSTANT || r1 == r0) return t0;
    return _mm_add_ps(t0, _mm_mul_ps(_mm_sub_ps(akc_translation4(tr, r1), t0), alpha));
}

/* out[j] = local (q, t), or out[parent] * local when FK runs (parents != NULL); prev holds
 * out[j - 1] in registers, as in ak_fk. */
AK_INLINE void emit(const int32_t *parents, int32_t j, __m128 q, __m128 t, __m128 prev[2],
                    ak_xform *out)
{
    const int32_t p = parents ? parents[j] : -1;
    if (p >= 0) {
        __m128 pq = prev[0], pt = prev[1];
        if (p != j - 1) {
            pq = _mm_loadu_ps(&out[p].rotation.x);
            pt = aks_load_translation(&out[p]);
        }
        t = _mm_add_ps(pt, aks_rotate(pq, t));
        q = aks_qmul(pq, q);
    }
    aks_store_xform(&out[j], q, t);
    prev[0] = q;
    prev[1] = t;
}
#endif

#ifdef AK_HAVE_SSE
/* Linear sample of every joint between records r0 and r1 (r1 != r0), with FK where parents
 * is set; rotations four joints at a time (with avx2, four keys decoded at once where the
 * group has no raw track). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
AK_INLINE void
linear_pass(const ak_compressed_clip *c, const uint8_t *r0, const uint8_t *r1,
            const aks_slerp_t *sp, const int32_t *parents, ak_xform *out, const int avx2)
{
    const int32_t n = c->header->joint_count;
    __m128 prev[2] = {_mm_setzero_ps(), _mm_setzero_ps()};
    __m128 q[4];
    int32_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const akc_track *tr = &c->tracks[2 * j];
        int done = 0;
#ifdef AK_HAVE_AVX2_DISPATCH
        const akc_rot4 *g = avx2 ? &c->rot4[j >> 2] : NULL;
        if (avx2 && g->usable) done = rotations4_avx2(g, r0, r1, sp, q);
#endif
        if (!done && !rotations4(tr, r0, r1, sp, q))
            for (int k = 0; k < 4; ++k)
                q[k] = sample_rotation4(&tr[2 * k], r0, r1, sp);
        for (int k = 0; k < 4; ++k)
            emit(parents, j + k, q[k], translation_linear(&tr[2 * k + 1], r0, r1, sp->t), prev,
                 out);
    }
    for (; j < n; ++j) {
        __m128 lq, lt;
        sample_joint4(&c->tracks[2 * j], r0, r1, sp, &lq, &lt);
        emit(parents, j, lq, lt, prev, out);
    }
    (void)avx2;
}

static void linear_pass_sse(const ak_compressed_clip *c, const uint8_t *r0, const uint8_t *r1,
                            const aks_slerp_t *sp, const int32_t *parents, ak_xform *out)
{
    linear_pass(c, r0, r1, sp, parents, out, 0);
}

#ifdef AK_HAVE_AVX2_DISPATCH
AK_AVX2 static void linear_pass_avx2(const ak_compressed_clip *c, const uint8_t *r0,
                                     const uint8_t *r1, const aks_slerp_t *sp,
                                     const int32_t *parents, ak_xform *out)
{
    linear_pass(c, r0, r1, sp, parents, out, 1);
}
#endif
#endif

/* Linear or step sample of every joint; with `parents`, FK in the same pass (model[j] =
 * model[parent] * local[j]). */
static void sample_linear(const ak_compressed_clip *c, const key_span *s, ak_interp interp,
                          const int32_t *parents, ak_xform *out)
{
    const int32_t n = c->header->joint_count;
    const uint8_t *r0 = akc_record(c, s->f0);
    const uint8_t *r1 = interp == AK_INTERP_STEP ? r0 : akc_record(c, s->f1);
#ifdef AK_HAVE_SSE
    const aks_slerp_t sp = aks_slerp_params(s->alpha);
    if (r1 != r0) {
#ifdef AK_HAVE_AVX2_DISPATCH
        if (c->rot4 && aks8_cpu_ok()) {
            linear_pass_avx2(c, r0, r1, &sp, parents, out);
            return;
        }
#endif
        linear_pass_sse(c, r0, r1, &sp, parents, out);
        return;
    }
    __m128 prev[2] = {_mm_setzero_ps(), _mm_setzero_ps()};
    for (int32_t j = 0; j < n; ++j) {
        __m128 q, t;
        sample_joint4(&c->tracks[2 * j], r0, r1, &sp, &q, &t);
        emit(parents, j, q, t, prev, out);
    }
#else
    for (int32_t j = 0; j < n; ++j) {
        const ak_xform local = sample_joint(&c->tracks[2 * j], r0, r1, s->alpha);
        const int32_t p = parents ? parents[j] : -1;
        out[j] = p < 0 ? local : akx_mul(out[p], local);
    }
#endif
}

/* Cubic sample of joint j: SQUAD with the inner points made here, Catmull-Rom for the
 * translation (as ak_clip_sample on a clip without prepared points). */
static ak_xform sample_joint_cubic(const ak_compressed_clip *c, const key_span *s, int32_t j)
{
    const akc_track *tr = &c->tracks[2 * j];
    const uint8_t *rm = akc_record(c, s->fm), *r0 = akc_record(c, s->f0);
    const uint8_t *r1 = akc_record(c, s->f1), *r2 = akc_record(c, s->f2);
    ak_xform x;
    const ak_quat q0 = akc_rotation(&tr[0], r0);
    const ak_quat q1 = same_hemisphere(q0, akc_rotation(&tr[0], r1));
    const ak_quat s0 = squad_point(akc_rotation(&tr[0], rm), q0, q1);
    const ak_quat s1 = squad_point(q0, q1, same_hemisphere(q1, akc_rotation(&tr[0], r2)));
    x.rotation = tr[0].mode == AKC_CONSTANT ? q0 : squad(q0, q1, s0, s1, s->alpha);
    x.translation = catmull_rom(akc_translation(&tr[1], rm), akc_translation(&tr[1], r0),
                                akc_translation(&tr[1], r1), akc_translation(&tr[1], r2), s->alpha);
    return x;
}

static void sample_local(const ak_compressed_clip *c, float t, ak_interp interp, ak_xform *local)
{
    const key_span s = locate_c(c, t);
    const int32_t n = c->header->joint_count;
    if (interp == AK_INTERP_CUBIC) {
        for (int32_t j = 0; j < n; ++j)
            local[j] = sample_joint_cubic(c, &s, j);
        return;
    }
    sample_linear(c, &s, interp, NULL, local);
}

void ak_compressed_clip_sample(const ak_compressed_clip *c, const ak_skeleton *sk, float t,
                               ak_interp interp, ak_xform *local)
{
    if (!c || !sk || !local || c->header->joint_count != sk->joint_count) return;
    sample_local(c, t, interp, local);
}

/* One character: sample and FK in one pass over the joints (parents come first). */
static void sample_fk_one(const ak_compressed_clip *c, const int32_t *parents, float t,
                          ak_interp interp, ak_xform *model)
{
    const key_span s = locate_c(c, t);
    if (interp != AK_INTERP_CUBIC) {
        sample_linear(c, &s, interp, parents, model);
        return;
    }
    for (int32_t j = 0; j < c->header->joint_count; ++j) {
        const ak_xform local = sample_joint_cubic(c, &s, j);
        model[j] = parents[j] < 0 ? local : akx_mul(model[parents[j]], local);
    }
}

#ifdef AK_HAVE_AVX2_DISPATCH
/* Eight characters in lockstep (core/simd8.h), linear: each key component of the eight
 * characters is one gather from their records (the same bit offset in each; the indices are
 * the records' byte offsets), dequantized eight lanes at a time, then one slerp and FK for
 * the eight. The same decoder as one character's (akc_dequant, akc_with_w) up to rounding. */
typedef struct cc8_lanes {
    const ak_compressed_clip *c;
    const key_span *s;
    __m256i i[2];             /* byte offsets of each lane's records f0, f1 from the first one */
    const uint8_t *rec[2][8]; /* each lane's records f0, f1 */
    __m256 T, H, G;           /* the corrected nlerp's parameters of each lane's t */
    __m256i ring[2][16];      /* records f0, f1: two groups of eight words (akc_gather8) */
    int32_t next_group;       /* the next group of words to transpose */
    int32_t readable;         /* words readable from a record's start (it, then AKC_PAD) */
} cc8_lanes;

AK_AVX2 static void cc8_load(const ak_compressed_clip *c, const key_span *s, cc8_lanes *k)
{
    int32_t i0[8], i1[8];
    float t[8], h[8], g[8];
    const int32_t bytes = (int32_t)c->header->frame_bytes; /* frames x bytes < 2^29 (load) */
    for (int i = 0; i < 8; ++i) {
        i0[i] = s[i].f0 * bytes;
        i1[i] = s[i].f1 * bytes;
        k->rec[0][i] = akc_record(c, s[i].f0);
        k->rec[1][i] = akc_record(c, s[i].f1);
        const float a = s[i].alpha;
        t[i] = a;
        h[i] = (a - 0.5f) * (a - 0.5f);
        g[i] = a * (a - 0.5f) * (a - 1.0f);
    }
    k->c = c;
    k->s = s;
    k->i[0] = _mm256_loadu_si256((const __m256i *)(const void *)i0);
    k->i[1] = _mm256_loadu_si256((const __m256i *)(const void *)i1);
    k->T = _mm256_loadu_ps(t);
    k->H = _mm256_loadu_ps(h);
    k->G = _mm256_loadu_ps(g);
    k->next_group = 0;
    k->readable = (bytes + AKC_PAD) / 4;
}

/* Words 8 group .. 8 group + 7 of the eight lanes' records f0 and f1, one register per word
 * (an 8 x 8 transpose), into the ring; words past the readable ones (the last group) load as
 * 0. Inlined: a call would spill the pass's registers. */
AK_AVX2 __attribute__((always_inline)) static inline void cc8_group(cc8_lanes *k, int32_t group)
{
    const size_t at = (size_t)group * 32u;
    const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(k->readable - 8 * group),
                                         _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    for (int key = 0; key < 2; ++key) {
        __m256 r[8], t[8], u[8];
        for (int l = 0; l < 8; ++l)
            r[l] = _mm256_maskload_ps((const float *)(const void *)(k->rec[key][l] + at), m);
        for (int l = 0; l < 8; l += 2) {
            t[l] = _mm256_unpacklo_ps(r[l], r[l + 1]);
            t[l + 1] = _mm256_unpackhi_ps(r[l], r[l + 1]);
        }
        for (int h = 0; h < 8; h += 4)
            for (int e = 0; e < 2; ++e) {
                u[h + 2 * e] = _mm256_shuffle_ps(t[h + e], t[h + e + 2], 0x44);
                u[h + 2 * e + 1] = _mm256_shuffle_ps(t[h + e], t[h + e + 2], 0xEE);
            }
        __m256i *out = &k->ring[key][(group & 1) * 8];
        for (int w = 0; w < 4; ++w) {
            out[w] = _mm256_castps_si256(_mm256_permute2f128_ps(u[w], u[w + 4], 0x20));
            out[w + 4] = _mm256_castps_si256(_mm256_permute2f128_ps(u[w], u[w + 4], 0x31));
        }
    }
}

/* The ring holding the groups up to `last`, the tracks coming in order. */
AK_AVX2 static inline void cc8_words(cc8_lanes *k, int32_t last)
{
    for (; k->next_group <= last; ++k->next_group)
        cc8_group(k, k->next_group);
}

/* Components 0..count-1 of track t (words g) in the lanes' records f0 (a) and f1 (b):
 * quantized (base + q step, q cut from the ring's words: cc8_words first), or raw floats. */
AK_AVX2 static inline void cc8_keys(const cc8_lanes *k, const akc_track *t, const akc_gather8 *g,
                                    int count, __m256 *a, __m256 *b)
{
    if (t->mode == AKC_RAW) {
        const float *at = (const float *)(const void *)(k->c->records + (t->offset >> 3));
        for (int i = 0; i < count; ++i) {
            a[i] = _mm256_i32gather_ps(at + i, k->i[0], 1);
            b[i] = _mm256_i32gather_ps(at + i, k->i[1], 1);
        }
        return;
    }
    const __m256i mask = _mm256_set1_epi32(g->mask);
    const char *ra = (const char *)(const void *)k->ring[0];
    const char *rb = (const char *)(const void *)k->ring[1];
    for (int i = 0; i < 3; ++i) {
        const __m256i sh = _mm256_set1_epi32(g->shift[i]);
        __m256i qa = _mm256_srlv_epi32(*(const __m256i *)(const void *)(ra + g->at[i]), sh);
        __m256i qb = _mm256_srlv_epi32(*(const __m256i *)(const void *)(rb + g->at[i]), sh);
        if (g->up[i]) { /* the component runs on into the next word */
            const __m256i up = _mm256_set1_epi32(g->up[i]);
            qa = _mm256_or_si256(
                qa, _mm256_sllv_epi32(*(const __m256i *)(const void *)(ra + g->next[i]), up));
            qb = _mm256_or_si256(
                qb, _mm256_sllv_epi32(*(const __m256i *)(const void *)(rb + g->next[i]), up));
        }
        const __m256 step = _mm256_set1_ps(t->step[i]), base = _mm256_set1_ps(t->base[i]);
        a[i] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_and_si256(qa, mask)), step, base);
        b[i] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_and_si256(qb, mask)), step, base);
    }
}

/* x^2 + y^2 + z^2 per lane. */
AK_AVX2 static inline __m256 cc8_norm3(const soa8_quat *q)
{
    return _mm256_fmadd_ps(q->z, q->z, _mm256_fmadd_ps(q->y, q->y, _mm256_mul_ps(q->x, q->x)));
}

/* The rotations of track t for the eight lanes; 0 where a quantized key rounded outside the
 * unit ball in some lane (akc_with_w renormalises it: the caller takes the one-lane path). */
AK_AVX2 static int cc8_rotation(cc8_lanes *k, const akc_track *t, const akc_gather8 *g,
                                soa8_quat *q)
{
    if (t->mode == AKC_CONSTANT) {
        const soa8_quat b = {_mm256_set1_ps(t->base[0]), _mm256_set1_ps(t->base[1]),
                             _mm256_set1_ps(t->base[2]), _mm256_set1_ps(t->base[3])};
        *q = b;
        return 1;
    }
    __m256 ka[4], kb[4];
    ka[3] = kb[3] = _mm256_setzero_ps(); /* quantized: w is rebuilt below */
    if (t->mode == AKC_QUANTIZED) cc8_words(k, g->last);
    cc8_keys(k, t, g, 4, ka, kb);
    soa8_quat a = {ka[0], ka[1], ka[2], ka[3]}, b = {kb[0], kb[1], kb[2], kb[3]};
    if (t->mode == AKC_QUANTIZED) {
        const __m256 one = _mm256_set1_ps(1.0f);
        const __m256 sa = cc8_norm3(&a), sb = cc8_norm3(&b);
        if (_mm256_movemask_ps(_mm256_cmp_ps(_mm256_max_ps(sa, sb), one, _CMP_GT_OQ))) return 0;
        a.w = _mm256_sqrt_ps(_mm256_sub_ps(one, sa));
        b.w = _mm256_sqrt_ps(_mm256_sub_ps(one, sb));
    }
    *q = soa8_slerp(a, b, k->T, k->H, k->G);
    return 1;
}

/* cc8_rotation lane by lane through the one-character decoder (the rare renormalised key). */
AK_AVX2 static soa8_quat cc8_rotation_lanes(const cc8_lanes *k, const akc_track *t)
{
    __m128 lanes[8];
    for (int i = 0; i < 8; ++i) {
        const aks_slerp_t sp = aks_slerp_params(k->s[i].alpha);
        lanes[i] =
            sample_rotation4(t, akc_record(k->c, k->s[i].f0), akc_record(k->c, k->s[i].f1), &sp);
    }
    soa8_quat q;
    soa8_load(lanes, &q.x, &q.y, &q.z, &q.w);
    return q;
}

/* The translations of track t for the eight lanes, x, y, z. */
AK_AVX2 static inline void cc8_translation(cc8_lanes *k, const akc_track *t, const akc_gather8 *g,
                                           __m256 xyz[3])
{
    if (t->mode == AKC_CONSTANT) {
        for (int i = 0; i < 3; ++i)
            xyz[i] = _mm256_set1_ps(t->base[i]);
        return;
    }
    __m256 a[3], b[3];
    if (t->mode == AKC_QUANTIZED) cc8_words(k, g->last);
    cc8_keys(k, t, g, 3, a, b);
    for (int i = 0; i < 3; ++i)
        xyz[i] = _mm256_fmadd_ps(_mm256_sub_ps(b[i], a[i]), k->T, a[i]);
}

/* Linear sample + FK of eight characters (spans s, model poses w) in one pass. */
AK_AVX2 static void sample_fk_cc8(const ak_compressed_clip *c, const int32_t *parents,
                                  const key_span *s, ak_xform *w, soa8_xform *AK_RESTRICT ws)
{
    cc8_lanes k;
    cc8_load(c, s, &k);
    int32_t held = -1; /* the joint in ws's spare slot (soa8_fk_store) */
    for (int32_t j = 0; j < c->header->joint_count; ++j) {
        const akc_track *tr = &c->tracks[2 * j];
        const akc_gather8 *g = &c->gather8[2 * j];
        soa8_quat q;
        if (!cc8_rotation(&k, tr, g, &q)) q = cc8_rotation_lanes(&k, tr);
        __m256 t[3];
        cc8_translation(&k, &tr[1], &g[1], t);
        const soa8_xform o = {q.x, q.y, q.z, q.w, t[0], t[1], t[2]};
        soa8_fk_store(ws, w, (size_t)c->header->joint_count, j, parents[j], o, &held);
    }
}

/* The eight-character pass over [i, end) in steps of eight (linear, on a CPU with AVX2 and
 * FMA); returns where it stopped. */
static int32_t batch_cc8(const ak_compressed_clip *c, const int32_t *parents, const float *times,
                         int32_t i, int32_t end, ak_interp interp, ak_xform *model)
{
    if (interp != AK_INTERP_LINEAR || end - i < 8 || !c->gather8 || !aks8_cpu_ok()) return i;
    const size_t n = (size_t)c->header->joint_count;
    soa8_xform scratch[AK_SOA_TILE + 1];
    for (; i + 8 <= end; i += 8) {
        key_span s[8];
        const akc_header *h = c->header;
        if (!ak_locate8_frames(h->frame_count, h->frame_time, h->loop, times + i, s))
            for (int k = 0; k < 8; ++k)
                s[k] = locate_c(c, times[i + k]);
        sample_fk_cc8(c, parents, s, model + (size_t)i * n, scratch);
    }
    return i;
}
#endif

int32_t ak_compressed_clip_sample_fk_range(const ak_compressed_clip *c, const ak_skeleton *sk,
                                           const float *times, int32_t count, ak_interp interp,
                                           ak_xform *model, int32_t begin, int32_t end)
{
    if (!c || !sk || !times || !model || count < 0 || c->header->joint_count != sk->joint_count)
        return AK_ERR_INVALID_ARG;
    if (begin < 0 || end < begin || end > count) return AK_ERR_INVALID_ARG;
    const size_t n = (size_t)sk->joint_count;
    int32_t i = begin;
#ifdef AK_HAVE_AVX2_DISPATCH
    i = batch_cc8(c, sk->parents, times, i, end, interp, model);
#endif
    for (; i < end; ++i)
        sample_fk_one(c, sk->parents, times[i], interp, model + (size_t)i * n);
    return AK_OK;
}

int32_t ak_compressed_clip_sample_fk_batch(const ak_compressed_clip *c, const ak_skeleton *sk,
                                           const float *times, int32_t count, ak_interp interp,
                                           ak_xform *model)
{
    return ak_compressed_clip_sample_fk_range(c, sk, times, count, interp, model, 0, count);
}

int32_t ak_compressed_clip_decompress(const ak_compressed_clip *c, const ak_skeleton *sk,
                                      ak_clip **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!c || !sk || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    const akc_header *h = c->header;
    const int32_t n = h->joint_count;
    if (n != sk->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has %d joints, skeleton %d", (int)n,
                            (int)sk->joint_count);
    uint8_t *has = (uint8_t *)calloc((size_t)n, 1);
    if (!has) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; j < n; ++j) {
        const akc_track *t = &c->tracks[2 * j + 1];
        const ak_vec3 rest = sk->rest_local[j].translation;
        has[j] = t->mode != AKC_CONSTANT || t->base[0] != rest.x || t->base[1] != rest.y ||
                 t->base[2] != rest.z;
    }
    ak_clip *clip = NULL;
    const int32_t st = ak_clip_create(n, h->frame_count, h->frame_time, has, &clip, err);
    free(has);
    if (st != AK_OK) return st;
    clip->loop = h->loop;
    for (int32_t f = 0; f < h->frame_count; ++f) {
        const uint8_t *rec = akc_record(c, f);
        for (int32_t j = 0; j < n; ++j) {
            clip->rotations[(size_t)f * (size_t)n + (size_t)j] =
                akc_rotation(&c->tracks[2 * j], rec);
            const int32_t k = clip->joint_track[j];
            if (k >= 0)
                clip->translations[(size_t)f * (size_t)clip->track_count + (size_t)k] =
                    akc_translation(&c->tracks[2 * j + 1], rec);
        }
    }
    ak_clip_finalize(clip);
    *out = clip;
    return AK_OK;
}
