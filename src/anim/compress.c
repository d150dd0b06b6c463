/* Clip compression under an error bound (ACL's measure: model-space error at each joint and at
 * virtual points shell_distance along its axes, every frame). Offline: allocates.
 *
 * Each track starts at the cheapest form that keeps the bound with every other track exact
 * (constant, then the fewest bits by bisection, else raw floats). Errors of a chain add up, so
 * while the clip with every track at its choice exceeds the bound somewhere, every lossy track
 * on the path from the worst joint to its root gets one more bit (a constant one becomes
 * 1-bit, a 19-bit one raw) — each bit halves a track's quantization step. Finally each
 * quantized track in turn gives back bits while the whole clip stays within the bound.
 * The error is always measured on keys decoded by the sampler's own decoder. */
#include "anim/compress_internal.h"

#include <float.h>
#include <stdlib.h>

typedef struct work {
    const ak_clip *clip;
    const ak_skeleton *sk;
    int32_t n, frames;
    float tol, shell; /* clip units */
    ak_xform *raw_w, *lossy_w;
    ak_quat *rot; /* lossy local keys, frame-major */
    ak_vec3 *trans;
    akc_track *tracks; /* 2n */
    uint8_t *exact;    /* 2n: every key bitwise the same (constant is exact) */
    int32_t worst_joint, worst_frame;
} work;

ak_compress_params ak_compress_defaults(void)
{
    ak_compress_params p;
    p.tolerance = 0.0001f;
    p.shell_distance = 0.03f;
    p.metres_per_unit = 1.0f;
    return p;
}

int32_t ak_compress_validate(const ak_compress_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params");
    if (!(p->tolerance > 0.0f) || !isfinite(p->tolerance))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "tolerance must be positive and finite");
    if (!(p->shell_distance >= 0.0f) || !isfinite(p->shell_distance))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "shell_distance must be zero or positive and finite");
    if (!(p->metres_per_unit > 0.0f) || !isfinite(p->metres_per_unit))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "metres_per_unit must be positive and finite");
    /* The range table last, after the checks that say more (and their status). */
    return ak_params_check(ak_compress_param_ranges(), p, err);
}

static ak_quat raw_rotation(const work *w, int32_t f, int32_t j)
{
    return w->clip->rotations[(size_t)f * (size_t)w->n + (size_t)j];
}

static ak_vec3 raw_translation(const work *w, int32_t f, int32_t j)
{
    const int32_t k = w->clip->joint_track[j];
    if (k < 0) return w->sk->rest_local[j].translation;
    return w->clip->translations[(size_t)f * (size_t)w->clip->track_count + (size_t)k];
}

/* Component k of track (j, is_trans) at frame f; rotations with w >= 0 (the stored sign). */
static void raw_key(const work *w, int32_t f, int32_t j, int is_trans, float out[4])
{
    if (is_trans) {
        const ak_vec3 v = raw_translation(w, f, j);
        out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = 0.0f;
        return;
    }
    ak_quat q = raw_rotation(w, f, j);
    const float s = q.w < 0.0f ? -1.0f : 1.0f;
    out[0] = s * q.x, out[1] = s * q.y, out[2] = s * q.z, out[3] = s * q.w;
}

/* Fills t's base/step for the mode and bits already in t: constant = the middle of each
 * component's range (renormalised for a rotation), quantized = range minimum and step. */
static void fit_track(const work *w, int32_t j, int is_trans, akc_track *t)
{
    float lo[4] = {FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX};
    float hi[4] = {-FLT_MAX, -FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (int32_t f = 0; f < w->frames; ++f) {
        float k[4];
        raw_key(w, f, j, is_trans, k);
        for (int c = 0; c < 4; ++c) {
            lo[c] = k[c] < lo[c] ? k[c] : lo[c];
            hi[c] = k[c] > hi[c] ? k[c] : hi[c];
        }
    }
    memset(t->base, 0, sizeof t->base);
    memset(t->step, 0, sizeof t->step);
    if (t->mode == AKC_CONSTANT) {
        float k0[4];
        raw_key(w, 0, j, is_trans, k0);
        for (int c = 0; c < 4; ++c)
            t->base[c] = lo[c] == hi[c] ? k0[c] : 0.5f * (lo[c] + hi[c]);
        if (!is_trans) {
            ak_quat q = {t->base[0], t->base[1], t->base[2], t->base[3]};
            q = akq_normalize(q);
            t->base[0] = q.x, t->base[1] = q.y, t->base[2] = q.z, t->base[3] = q.w;
        }
    } else if (t->mode == AKC_QUANTIZED) {
        const float levels = (float)(((uint32_t)1 << t->bits) - 1u);
        for (int c = 0; c < 3; ++c) {
            t->base[c] = lo[c];
            t->step[c] = (hi[c] - lo[c]) / levels;
        }
    }
}

static uint32_t quantize(float v, float base, float step, uint32_t levels)
{
    if (!(step > 0.0f)) return 0;
    const float u = floorf((v - base) / step + 0.5f);
    if (u <= 0.0f) return 0;
    return u >= (float)levels ? levels : (uint32_t)u;
}

/* The bits of the key k (components 0..2) quantized on track t, as the record holds them. */
static uint64_t pack_key(const akc_track *t, const float k[4])
{
    const uint32_t levels = ((uint32_t)1 << t->bits) - 1u;
    uint64_t v = 0;
    for (int c = 0; c < 3; ++c)
        v |= (uint64_t)quantize(k[c], t->base[c], t->step[c], levels) << ((uint32_t)c * t->bits);
    return v;
}

/* Writes the decoded keys of track (j, is_trans) under t into the lossy locals. */
static void apply_track(work *w, int32_t j, int is_trans, const akc_track *t)
{
    uint8_t rec[24];
    akc_track local = *t;
    local.offset = 0;
    for (int32_t f = 0; f < w->frames; ++f) {
        float k[4];
        raw_key(w, f, j, is_trans, k);
        memset(rec, 0, sizeof rec);
        if (t->mode == AKC_QUANTIZED) {
            uint64_t v = pack_key(t, k);
            memcpy(rec, &v, sizeof v);
        } else if (t->mode == AKC_RAW) {
            if (is_trans) {
                const ak_vec3 v = raw_translation(w, f, j);
                memcpy(rec, &v, sizeof v);
            } else {
                const ak_quat q = raw_rotation(w, f, j);
                memcpy(rec, &q, sizeof q);
            }
        }
        const size_t i = (size_t)f * (size_t)w->n + (size_t)j;
        if (is_trans)
            w->trans[i] = akc_translation(&local, rec);
        else
            w->rot[i] = akc_rotation(&local, rec);
    }
}

/* Model-space error between two transforms: the largest distance between the images of the
 * origin and of the points `shell` along x, y and z. */
static float xform_error(ak_xform a, ak_xform b, float shell)
{
    const ak_vec3 d = akv_sub(a.translation, b.translation);
    float e = akv_len(d);
    const ak_vec3 points[3] = {{shell, 0.0f, 0.0f}, {0.0f, shell, 0.0f}, {0.0f, 0.0f, shell}};
    for (int k = 0; k < 3; ++k) {
        const ak_vec3 p = points[k];
        const ak_vec3 q = akv_add(d, akv_sub(akq_rotate(a.rotation, p), akq_rotate(b.rotation, p)));
        const float ek = akv_len(q);
        e = ek > e ? ek : e;
    }
    return e;
}

/* FK of the lossy keys for joints [first, end) (a subtree, or everything) at every frame;
 * returns the largest error there and notes where it was. */
static float eval_joints(work *w, int32_t first, int32_t end)
{
    float worst = 0.0f;
    const int32_t *parents = w->sk->parents;
    w->worst_joint = first;
    w->worst_frame = 0;
    for (int32_t f = 0; f < w->frames; ++f) {
        const size_t row = (size_t)f * (size_t)w->n;
        for (int32_t j = first; j < end; ++j) {
            ak_xform local = {w->rot[row + (size_t)j], w->trans[row + (size_t)j]};
            const int32_t p = parents[j];
            const ak_xform m = p < 0 ? local : akx_mul(w->lossy_w[row + (size_t)p], local);
            w->lossy_w[row + (size_t)j] = m;
            const float e = xform_error(w->raw_w[row + (size_t)j], m, w->shell);
            if (e > worst) {
                worst = e;
                w->worst_joint = j;
                w->worst_frame = f;
            }
        }
    }
    return worst;
}

static float eval_track(work *w, int32_t j, int is_trans, const akc_track *t)
{
    apply_track(w, j, is_trans, t);
    return eval_joints(w, j, w->sk->subtree_end[j]);
}

/* The cheapest form of track (j, is_trans) alone within the bound (phase one). */
static akc_track choose_alone(work *w, int32_t j, int is_trans)
{
    akc_track t;
    memset(&t, 0, sizeof t);
    t.mode = AKC_CONSTANT;
    fit_track(w, j, is_trans, &t);
    if (w->exact[2 * j + is_trans] || eval_track(w, j, is_trans, &t) <= w->tol) return t;
    int lo = 1, hi = AKC_MAX_BITS + 1; /* hi: the fewest bits known to pass (20 = raw) */
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        akc_track q = t;
        q.mode = AKC_QUANTIZED;
        q.bits = (uint8_t)mid;
        fit_track(w, j, is_trans, &q);
        if (eval_track(w, j, is_trans, &q) <= w->tol)
            hi = mid;
        else
            lo = mid + 1;
    }
    t.mode = hi > AKC_MAX_BITS ? AKC_RAW : AKC_QUANTIZED;
    t.bits = hi > AKC_MAX_BITS ? 0 : (uint8_t)hi;
    fit_track(w, j, is_trans, &t);
    return t;
}

/* One step finer: constant -> 1 bit, n bits -> n + 1, 19 bits -> raw. 0 if already raw. */
static int refine(work *w, int32_t j, int is_trans)
{
    akc_track *t = &w->tracks[2 * j + is_trans];
    if (t->mode == AKC_RAW || w->exact[2 * j + is_trans]) return 0;
    if (t->mode == AKC_CONSTANT) {
        t->mode = AKC_QUANTIZED;
        t->bits = 1;
    } else if (t->bits < AKC_MAX_BITS) {
        t->bits++;
    } else {
        t->mode = AKC_RAW;
        t->bits = 0;
    }
    fit_track(w, j, is_trans, t);
    apply_track(w, j, is_trans, t);
    return 1;
}

/* Phase two: refine the chain of the worst joint until the whole clip keeps the bound. */
static float settle(work *w)
{
    float e = eval_joints(w, 0, w->n);
    while (e > w->tol) {
        int changed = 0;
        for (int32_t a = w->worst_joint; a >= 0; a = w->sk->parents[a])
            changed += refine(w, a, 0) + refine(w, a, 1);
        if (!changed) break; /* every track on the chain is exact already */
        e = eval_joints(w, 0, w->n);
    }
    return e;
}

/* Phase three: each quantized track gives back bits while the whole clip keeps the bound. */
static void trim(work *w)
{
    for (int32_t i = 0; i < 2 * w->n; ++i) {
        akc_track *t = &w->tracks[i];
        const int32_t j = i / 2, is_trans = i % 2;
        while (t->mode == AKC_QUANTIZED && t->bits > 1) {
            akc_track fewer = *t;
            fewer.bits--;
            fit_track(w, j, is_trans, &fewer);
            apply_track(w, j, is_trans, &fewer);
            /* Joints outside the subtree keep their (bounded) error. */
            if (eval_joints(w, j, w->sk->subtree_end[j]) > w->tol) {
                apply_track(w, j, is_trans, t);
                eval_joints(w, j, w->sk->subtree_end[j]);
                break;
            }
            *t = fewer;
        }
    }
}

static void work_free(work *w)
{
    free(w->raw_w);
    free(w->lossy_w);
    free(w->rot);
    free(w->trans);
    free(w->tracks);
    free(w->exact);
}

/* Whether two floats have the same bits (-0 and 0 differ: constant means bitwise here). */
static int same_bits(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y;
}

/* Every key finite; notes the tracks whose keys are all the same bits. */
static int scan_keys(work *w)
{
    for (int32_t j = 0; j < w->n; ++j) {
        w->exact[2 * j] = w->exact[2 * j + 1] = 1;
        const ak_quat q0 = raw_rotation(w, 0, j);
        const ak_vec3 v0 = raw_translation(w, 0, j);
        for (int32_t f = 0; f < w->frames; ++f) {
            const ak_quat q = raw_rotation(w, f, j);
            const ak_vec3 v = raw_translation(w, f, j);
            if (!akq_finite(q) || !akv_finite(v)) return 0;
            if (!same_bits(q.x, q0.x) || !same_bits(q.y, q0.y) || !same_bits(q.z, q0.z) ||
                !same_bits(q.w, q0.w))
                w->exact[2 * j] = 0;
            if (!same_bits(v.x, v0.x) || !same_bits(v.y, v0.y) || !same_bits(v.z, v0.z))
                w->exact[2 * j + 1] = 0;
        }
    }
    return 1;
}

static int32_t work_init(work *w, const ak_clip *clip, const ak_skeleton *sk,
                         const ak_compress_params *p, ak_error *err)
{
    memset(w, 0, sizeof *w);
    w->clip = clip;
    w->sk = sk;
    w->n = clip->joint_count;
    w->frames = clip->frame_count;
    /* 1 % of headroom: the sampler's and a caller's FK round differently (a few float ulps,
     * about 1e-7 m on a 2 m character), which must not carry a frame over the bound. */
    w->tol = 0.99f * p->tolerance / p->metres_per_unit;
    w->shell = p->shell_distance / p->metres_per_unit;
    if ((uint64_t)w->n * (uint64_t)w->frames > ((uint64_t)1 << 24))
        return ak_error_set(err, AK_ERR_LIMIT, 0, "clip of %d joints x %d frames is too large",
                            (int)w->n, (int)w->frames);
    const size_t keys = (size_t)w->n * (size_t)w->frames;
    w->raw_w = (ak_xform *)malloc(sizeof(ak_xform) * keys);
    w->lossy_w = (ak_xform *)malloc(sizeof(ak_xform) * keys);
    w->rot = (ak_quat *)malloc(sizeof(ak_quat) * keys);
    w->trans = (ak_vec3 *)malloc(sizeof(ak_vec3) * keys);
    w->tracks = (akc_track *)calloc(2u * (size_t)w->n, sizeof(akc_track));
    w->exact = (uint8_t *)calloc(2u * (size_t)w->n, 1);
    if (!w->raw_w || !w->lossy_w || !w->rot || !w->trans || !w->tracks || !w->exact)
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    if (!scan_keys(w)) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has non-finite keys");
    for (int32_t f = 0; f < w->frames; ++f) {
        const size_t row = (size_t)f * (size_t)w->n;
        for (int32_t j = 0; j < w->n; ++j) {
            w->rot[row + (size_t)j] = raw_rotation(w, f, j);
            w->trans[row + (size_t)j] = raw_translation(w, f, j);
        }
        ak_xform *local = w->lossy_w + row; /* scratch until the first evaluation */
        for (int32_t j = 0; j < w->n; ++j) {
            local[j].rotation = w->rot[row + (size_t)j];
            local[j].translation = w->trans[row + (size_t)j];
        }
        ak_fk(sk, local, w->raw_w + row);
    }
    memcpy(w->lossy_w, w->raw_w, sizeof(ak_xform) * keys);
    return AK_OK;
}

/* Bit offsets: raw tracks first (byte-aligned, since every record is), then quantized. */
static uint32_t lay_out(work *w)
{
    uint32_t bit = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (int32_t i = 0; i < 2 * w->n; ++i) {
            akc_track *t = &w->tracks[i];
            if (t->mode != (pass == 0 ? AKC_RAW : AKC_QUANTIZED)) continue;
            t->offset = bit;
            bit += t->mode == AKC_RAW ? (i % 2 ? 96u : 128u) : 3u * t->bits;
        }
    }
    return (bit + 7u) / 8u;
}

static void write_bits(uint8_t *rec, uint32_t bit, uint64_t v)
{
    uint64_t word;
    memcpy(&word, rec + (bit >> 3), sizeof word);
    word |= v << (bit & 7u);
    memcpy(rec + (bit >> 3), &word, sizeof word);
}

static void write_records(const work *w, uint8_t *records, uint32_t frame_bytes)
{
    for (int32_t f = 0; f < w->frames; ++f) {
        uint8_t *rec = records + (size_t)f * frame_bytes;
        for (int32_t i = 0; i < 2 * w->n; ++i) {
            const akc_track *t = &w->tracks[i];
            const int32_t j = i / 2, is_trans = i % 2;
            if (t->mode == AKC_QUANTIZED) {
                float k[4];
                raw_key(w, f, j, is_trans, k);
                write_bits(rec, t->offset, pack_key(t, k));
            } else if (t->mode == AKC_RAW && is_trans) {
                const ak_vec3 v = raw_translation(w, f, j);
                memcpy(rec + (t->offset >> 3), &v, sizeof v);
            } else if (t->mode == AKC_RAW) {
                const ak_quat q = raw_rotation(w, f, j);
                memcpy(rec + (t->offset >> 3), &q, sizeof q);
            }
        }
    }
}

static int32_t encode(work *w, const ak_compress_params *p, float worst, ak_compressed_clip **out,
                      ak_error *err)
{
    const uint32_t frame_bytes = lay_out(w);
    const size_t records = akc_records_offset(w->n);
    const size_t total = records + (size_t)frame_bytes * (size_t)w->frames + AKC_PAD;
    uint8_t *block = (uint8_t *)calloc(1, total);
    if (!block) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    akc_header h;
    memset(&h, 0, sizeof h);
    h.magic = AKC_MAGIC;
    h.version = AKC_VERSION;
    h.joint_count = w->n;
    h.frame_count = w->frames;
    h.frame_time = w->clip->frame_time;
    h.loop = w->clip->loop ? 1 : 0;
    h.frame_bytes = frame_bytes;
    h.total_bytes = (uint64_t)total;
    h.tolerance = p->tolerance;
    h.worst_error = worst * p->metres_per_unit;
    h.shell_distance = p->shell_distance;
    h.metres_per_unit = p->metres_per_unit;
    h.worst_joint = w->worst_joint;
    h.worst_frame = w->worst_frame;
    memcpy(block, &h, sizeof h);
    memcpy(block + akc_tracks_offset(), w->tracks, sizeof(akc_track) * 2u * (size_t)w->n);
    write_records(w, block + records, frame_bytes);
    ak_compressed_clip *c = akc_clip_wrap(block);
    if (!c) {
        free(block);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    *out = c;
    return AK_OK;
}

int32_t ak_compress_run(const ak_clip *clip, const ak_skeleton *sk, const ak_compress_params *p,
                        ak_compressed_clip **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!clip || !sk || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if (clip->joint_count != sk->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has %d joints, skeleton %d",
                            (int)clip->joint_count, (int)sk->joint_count);
    const ak_compress_params defaults = ak_compress_defaults();
    if (!p) p = &defaults;
    int32_t st = ak_compress_validate(p, err);
    if (st != AK_OK) return st;
    work w;
    st = work_init(&w, clip, sk, p, err);
    if (st == AK_OK) {
        for (int32_t i = 0; i < 2 * w.n; ++i) {
            w.tracks[i] = choose_alone(&w, i / 2, i % 2);
            akc_track exact = {AKC_RAW, 0, 0, 0, {0, 0, 0, 0}, {0, 0, 0}};
            if (w.exact[i]) exact = w.tracks[i];
            eval_track(&w, i / 2, i % 2, &exact); /* back to exact for the next track */
        }
        for (int32_t i = 0; i < 2 * w.n; ++i)
            apply_track(&w, i / 2, i % 2, &w.tracks[i]);
        settle(&w);
        trim(&w);
        const float worst = eval_joints(&w, 0, w.n);
        st = worst <= w.tol ? encode(&w, p, worst, out, err)
                            : ak_error_set(err, AK_ERR_DEGENERATE, 0,
                                           "error %g m over the tolerance with every key exact",
                                           (double)(worst * p->metres_per_unit));
    }
    work_free(&w);
    return st;
}
