/* Clips: storage (create, finalize, clone, scale) and the standing-height measure. Sampling
 * is clip_sample.c, batched sample + FK clip_batch.c, blending clip_blend.c. */
#include "animkit/clip.h"
#include "core/xform_inline.h"
#include "anim/clip_internal.h"

#include <stdlib.h>
#include <string.h>

int32_t ak_clip_create(int32_t joint_count, int32_t frame_count, float frame_time,
                       const uint8_t *has_translation, ak_clip **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    if (joint_count < 1 || frame_count < 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "clip needs at least one joint and one frame");
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
    /* one key more than the keys: a fourth float follows every key, so the batch passes
     * load a key of any row in one 16-byte load (clip_batch.c, soa8_vec3_keys_padded) */
    c->translations = (ak_vec3 *)calloc(
        (size_t)frame_count * (size_t)(c->track_count ? c->track_count : 1) + 1u, sizeof(ak_vec3));
    if (!c->translations) {
        ak_clip_destroy(c);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    const ak_quat identity = {0.0f, 0.0f, 0.0f, 1.0f};
    for (uint64_t k = 0; k < keys; ++k)
        c->rotations[k] = identity;
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

void ak_clip_finalize(ak_clip *c)
{
    if (!c) return;
    const int32_t n = c->joint_count;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_quat *row = c->rotations + (size_t)f * (size_t)n;
        const ak_quat *prev = f > 0 ? row - n : NULL;
        for (int32_t j = 0; j < n; ++j) {
            const ak_quat q = akq_normalize(row[j]);
            row[j] = prev ? akq_same_side(q, prev[j]) : q;
        }
    }
    /* Keys changed: cubic control points made from the old keys are stale. */
    if (c->squad_points) ak_clip_prepare_cubic(c);
}

int32_t ak_clip_prepare_cubic(ak_clip *c)
{
    if (!c) return AK_ERR_INVALID_ARG;
    const int32_t n = c->joint_count, last = c->frame_count - 1;
    /* SQUAD inner points with clamped ends, then two rows for a looping clip: the first and
     * the last key's points with wrapped neighbours (squad_row picks them). */
    if (!c->squad_points)
        c->squad_points = (ak_quat *)malloc(
            sizeof(ak_quat) * (size_t)n * ((size_t)c->frame_count + 2u) + ak_clip_spans_size(c));
    if (!c->squad_points) return AK_ERR_NOMEM;
    for (int32_t f = 0; f <= last + 2; ++f) {
        const int32_t k = f <= last ? f : (f == last + 1 ? 0 : last); /* the key */
        const int32_t before = f <= last ? (k > 0 ? k - 1 : 0) : (k > 0 ? k - 1 : last);
        const int32_t after = f <= last ? (k < last ? k + 1 : last) : (k < last ? k + 1 : 0);
        const ak_quat *r = c->rotations;
        for (int32_t j = 0; j < n; ++j)
            c->squad_points[(size_t)f * (size_t)n + (size_t)j] = squad_point(
                r[(size_t)before * (size_t)n + (size_t)j], r[(size_t)k * (size_t)n + (size_t)j],
                r[(size_t)after * (size_t)n + (size_t)j]);
    }
    ak_clip_spans_build(c);
    return AK_OK;
}

float ak_clip_duration(const ak_clip *c)
{
    return c ? clip_duration(c) : 0.0f;
}

ak_clip *ak_clip_clone(const ak_clip *c)
{
    if (!c) return NULL;
    uint8_t *has = (uint8_t *)calloc((size_t)c->joint_count, 1);
    if (!has) return NULL;
    for (int32_t j = 0; j < c->joint_count; ++j)
        has[j] = c->joint_track[j] >= 0;
    ak_clip *out = NULL;
    ak_clip_create(c->joint_count, c->frame_count, c->frame_time, has, &out, NULL);
    free(has);
    if (!out) return NULL;
    out->loop = c->loop;
    memcpy(out->rotations, c->rotations,
           sizeof(ak_quat) * (size_t)c->joint_count * (size_t)c->frame_count);
    memcpy(out->translations, c->translations,
           sizeof(ak_vec3) * (size_t)c->track_count * (size_t)c->frame_count);
    if (c->squad_points) ak_clip_prepare_cubic(out);
    return out;
}

void ak_clip_scale(ak_clip *c, float factor)
{
    if (!c || !isfinite(factor)) return;
    const size_t keys = (size_t)c->frame_count * (size_t)c->track_count;
    for (size_t k = 0; k < keys; ++k)
        c->translations[k] = akv_scale(c->translations[k], factor);
}
