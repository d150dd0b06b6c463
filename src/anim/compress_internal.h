/* Internal: the compressed clip's block and the key decoder, shared by the compressor
 * (compress.c, which measures its error through this same decoder) and the sampler
 * (compress_sample.c). */
#ifndef AK_ANIM_COMPRESS_INTERNAL_H
#define AK_ANIM_COMPRESS_INTERNAL_H

#include "animkit/compress.h"
#include "anim/clip_internal.h"

#include <string.h>

#define AKC_MAGIC    0x43434b41u /* "AKCC" little-endian */
#define AKC_VERSION  1u
#define AKC_MAX_BITS 19 /* 3 * 19 bits + a 7-bit shift fit one 64-bit read */
#define AKC_PAD      8  /* bytes after the last record, so every 64-bit read stays inside */

enum { AKC_CONSTANT = 0, AKC_QUANTIZED = 1, AKC_RAW = 2 };

/* One track: a joint's rotation (tracks[2j]) or translation (tracks[2j + 1]). */
typedef struct akc_track {
    uint8_t mode;    /* AKC_CONSTANT, AKC_QUANTIZED, AKC_RAW */
    uint8_t bits;    /* per component, 1..AKC_MAX_BITS when quantized, else 0 */
    uint16_t unused; /* zero */
    uint32_t offset; /* bit offset of the track's key inside a frame record */
    float base[4];   /* constant value (quaternion x,y,z,w or vector x,y,z) or, quantized,
                        the minimum of each component */
    float step[4];   /* quantized: component extent / (2^bits - 1); step[3] is 0 */
} akc_track;

/* The block's header; the tracks and the records follow it in the same allocation. */
typedef struct akc_header {
    uint32_t magic, version;
    int32_t joint_count, frame_count;
    float frame_time;
    int32_t loop;
    uint32_t frame_bytes; /* bytes per frame record */
    uint32_t unused;
    uint64_t total_bytes; /* header + tracks + records + AKC_PAD */
    float tolerance, worst_error, shell_distance, metres_per_unit;
    int32_t worst_joint, worst_frame;
} akc_header;

/* The rotation tracks of joints 4g..4g+3 laid out for decoding the four keys of a record at
 * once (AVX2: one gather, per-lane shifts): each quantized lane's byte and bit shifts in a
 * record, its mask, base and step; a constant lane reads byte 0 under a zero mask with step
 * -0 (base + 0 * -0 is base, bit for bit) and keeps its w. Made when the clip is made or
 * loaded, beside the block (not part of its bytes). */
typedef struct akc_rot4 {
    int32_t byte[4];      /* byte of the lane's key in a record (0: constant lane) */
    int32_t quantized[4]; /* -1: quantized lane (w rebuilt), 0: constant lane */
    int64_t shift[3][4];  /* bit shift of component c in the 64 bits read at byte */
    int64_t mask[4];      /* 2^bits - 1, or 0 */
    float base[3][4], step[3][4], w[4];
    int32_t usable; /* 1: no raw track among the four (the others take the per-joint path) */
    int32_t unused;
} akc_rot4;

/* A quantized track's components for the eight-character pass, which reads the lanes'
 * records as 32-bit words, transposed eight words at a time (one register per word, one lane
 * per element) into a ring of two such groups: component c starts at bit shift[c] of the ring
 * word at byte at[c]; where it runs on into the next word (at byte next[c]), up[c] = 32 -
 * shift[c] shifts that word's bits up to meet it (else 0). `first` and `last`: the first group the
 * track reads and the last one it needs transposed (its words and the one after). Made with
 * akc_rot4. */
typedef struct akc_gather8 {
    uint32_t at[3], next[3];
    int32_t shift[3], up[3];
    int32_t mask; /* 2^bits - 1 */
    int32_t first, last;
} akc_gather8;

struct ak_compressed_clip {
    akc_header *header; /* the start of the block */
    const akc_track *tracks;
    const uint8_t *records;
    const akc_rot4 *rot4;       /* joint_count / 4 groups after this struct, or NULL */
    const akc_gather8 *gather8; /* one per track (2 joint_count) after them, or NULL (also
                                   where a track reads words before the ring's two groups) */
};

/* A clip around `block` (header, tracks and records checked or just written; the clip owns it
 * from here), with its decode layout; NULL when out of memory (the block is not freed). */
ak_compressed_clip *akc_clip_wrap(uint8_t *block);

AK_INLINE size_t akc_tracks_offset(void)
{
    return sizeof(akc_header);
}
AK_INLINE size_t akc_records_offset(int32_t joint_count)
{
    return sizeof(akc_header) + sizeof(akc_track) * 2u * (size_t)joint_count;
}

/* 64 bits from bit `bit` of `rec` on (little-endian block). */
AK_INLINE uint64_t akc_read_bits(const uint8_t *rec, uint32_t bit)
{
    uint64_t v;
    memcpy(&v, rec + (bit >> 3), sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v >> (bit & 7u);
}

#ifdef AK_HAVE_SSE
/* Components 0..2 of a quantized key, base + q * step per lane (lane 3: 0). The compressor
 * measures its error through these same functions, so the bound holds for what the sampler
 * decodes. */
AK_INLINE __m128 akc_dequant(const akc_track *t, uint64_t v)
{
    const uint64_t mask = ((uint64_t)1 << t->bits) - 1u;
    const __m128i q = _mm_set_epi32(0, (int)((v >> (2u * t->bits)) & mask),
                                    (int)((v >> t->bits) & mask), (int)(v & mask));
    return _mm_add_ps(_mm_loadu_ps(t->base), _mm_mul_ps(_mm_cvtepi32_ps(q), _mm_loadu_ps(t->step)));
}

/* akc_dequant of two keys at once (the same integers, the same float operations): the
 * components are cut from both 64-bit reads in one register. */
AK_INLINE void akc_dequant2(const akc_track *t, uint64_t v0, uint64_t v1, __m128 *a, __m128 *b)
{
    const __m128i v = _mm_set_epi64x((long long)v1, (long long)v0);
    const __m128i mask = _mm_set1_epi64x((long long)(((uint64_t)1 << t->bits) - 1u));
    const __m128i sh = _mm_cvtsi32_si128((int)t->bits);
    const __m128i x = _mm_and_si128(v, mask);
    const __m128i y = _mm_and_si128(_mm_srl_epi64(v, sh), mask);
    const __m128i z = _mm_and_si128(_mm_srl_epi64(v, _mm_add_epi64(sh, sh)), mask);
    const __m128i xy = _mm_or_si128(x, _mm_slli_epi64(y, 32)); /* (x0, y0, x1, y1) */
    const __m128 base = _mm_loadu_ps(t->base), step = _mm_loadu_ps(t->step);
    *a = _mm_add_ps(base, _mm_mul_ps(_mm_cvtepi32_ps(_mm_unpacklo_epi64(xy, z)), step));
    *b = _mm_add_ps(base, _mm_mul_ps(_mm_cvtepi32_ps(_mm_unpackhi_epi64(xy, z)), step));
}

/* (x, y, z, w) from dequantized (x, y, z, .): w >= 0 rebuilt as sqrt(1 - x^2 - y^2 - z^2)
 * (x, y, z renormalised and w = 0 where rounding put them outside the unit ball). */
AK_INLINE __m128 akc_with_w(__m128 c)
{
    const __m128 m = _mm_mul_ps(c, c);
    const __m128 s = _mm_add_ss(_mm_add_ss(m, AK_SHUF(m, 1, 1, 1, 1)), AK_SHUF(m, 2, 2, 2, 2));
    __m128 w;
    if (_mm_cvtss_f32(s) <= 1.0f) {
        w = _mm_sqrt_ss(_mm_sub_ss(_mm_set_ss(1.0f), s));
    } else {
        c = _mm_mul_ps(c, aks_rsqrt(AK_SHUF(s, 0, 0, 0, 0)));
        w = _mm_setzero_ps();
    }
    const __m128 zw = _mm_unpacklo_ps(AK_SHUF(c, 2, 2, 2, 2), w); /* (z, w, z, w) */
    return _mm_movelh_ps(c, zw);
}

/* The rotation of track t in record rec as (x, y, z, w). */
AK_INLINE __m128 akc_rotation4(const akc_track *t, const uint8_t *rec)
{
    if (t->mode == AKC_QUANTIZED) {
        return akc_with_w(akc_dequant(t, akc_read_bits(rec, t->offset)));
    }
    if (t->mode == AKC_RAW) {
        float q[4];
        memcpy(q, rec + (t->offset >> 3), sizeof q);
        return _mm_loadu_ps(q);
    }
    return _mm_loadu_ps(t->base);
}

/* The translation of track t in record rec as (x, y, z, 0). */
AK_INLINE __m128 akc_translation4(const akc_track *t, const uint8_t *rec)
{
    if (t->mode == AKC_QUANTIZED) return akc_dequant(t, akc_read_bits(rec, t->offset));
    if (t->mode == AKC_RAW) {
        ak_vec3 v;
        memcpy(&v, rec + (t->offset >> 3), sizeof v);
        return _mm_setr_ps(v.x, v.y, v.z, 0.0f);
    }
    return _mm_loadu_ps(t->base); /* base[3] is 0 for a translation */
}

AK_INLINE ak_quat akc_rotation(const akc_track *t, const uint8_t *rec)
{
    float v[4];
    _mm_storeu_ps(v, akc_rotation4(t, rec));
    const ak_quat q = {v[0], v[1], v[2], v[3]};
    return q;
}

AK_INLINE ak_vec3 akc_translation(const akc_track *t, const uint8_t *rec)
{
    float v[4];
    _mm_storeu_ps(v, akc_translation4(t, rec));
    return akv_make(v[0], v[1], v[2]);
}
#else
AK_INLINE void akc_dequant3(const akc_track *t, uint64_t v, float out[3])
{
    const uint64_t mask = ((uint64_t)1 << t->bits) - 1u;
    out[0] = t->base[0] + (float)(uint32_t)(v & mask) * t->step[0];
    out[1] = t->base[1] + (float)(uint32_t)((v >> t->bits) & mask) * t->step[1];
    out[2] = t->base[2] + (float)(uint32_t)((v >> (2u * t->bits)) & mask) * t->step[2];
}

AK_INLINE ak_quat akc_rotation(const akc_track *t, const uint8_t *rec)
{
    ak_quat q;
    if (t->mode == AKC_QUANTIZED) {
        float c[3];
        akc_dequant3(t, akc_read_bits(rec, t->offset), c);
        const float s = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        q.x = c[0];
        q.y = c[1];
        q.z = c[2];
        if (s <= 1.0f) {
            q.w = akf_sqrt(1.0f - s);
        } else {
            const float k = akf_rsqrt(s);
            q.x *= k;
            q.y *= k;
            q.z *= k;
            q.w = 0.0f;
        }
        return q;
    }
    if (t->mode == AKC_RAW) {
        memcpy(&q, rec + (t->offset >> 3), sizeof q);
        return q;
    }
    q.x = t->base[0];
    q.y = t->base[1];
    q.z = t->base[2];
    q.w = t->base[3];
    return q;
}

AK_INLINE ak_vec3 akc_translation(const akc_track *t, const uint8_t *rec)
{
    ak_vec3 v;
    if (t->mode == AKC_QUANTIZED) {
        float c[3];
        akc_dequant3(t, akc_read_bits(rec, t->offset), c);
        v.x = c[0];
        v.y = c[1];
        v.z = c[2];
        return v;
    }
    if (t->mode == AKC_RAW) {
        memcpy(&v, rec + (t->offset >> 3), sizeof v);
        return v;
    }
    v.x = t->base[0];
    v.y = t->base[1];
    v.z = t->base[2];
    return v;
}
#endif

AK_INLINE const uint8_t *akc_record(const ak_compressed_clip *c, int32_t frame)
{
    return c->records + (size_t)frame * c->header->frame_bytes;
}

#endif
