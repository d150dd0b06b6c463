/* Bones that copy a foot or a hand (clip.h, ak_copy_bones): found on a clip (or a rest pose),
 * put back on their joints after a tool moved the feet and hands. */
#include "animkit/clip.h"
#include "anim/tracks.h"
#include "core/humanoid_internal.h"
#include "core/xform_inline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The farthest a copy comes from its joint, as a fraction of the body's standing height: a
 * bone keyed on its joint sits on it to float rounding (1e-5 of the height in the UE4 shape
 * tests/locomotion/studio_variants.h writes as BVH text), 1 % is 1.7 cm on a 1.7 m body, and
 * the bones beside the body that are no copy sit a limb away (the UE4 mannequin's
 * ik_foot_root and ik_hand_root on the floor under the hips: 0.9-1.6 m from the feet and
 * hands). */
#define AK_COPY_BONES_REACH 0.01f

/* The joints a bone may copy: the feet and the hands of the humanoid map (-1: not found). */
static void copy_targets(const ak_humanoid *h, int32_t target[4])
{
    static const int slots[4] = {AK_HUM_LEFT_FOOT, AK_HUM_RIGHT_FOOT, AK_HUM_LEFT_HAND,
                                 AK_HUM_RIGHT_HAND};
    for (int k = 0; k < 4; ++k)
        target[k] = h->joint[slots[k]];
}

/* 1 for a joint beside the body: neither in the body's subtree nor above it, nor an End Site. */
static int beside_body(const ak_skeleton *s, int32_t body, int32_t j)
{
    if (s->is_end_site[j] || (j >= body && j < s->subtree_end[body])) return 0;
    for (int32_t a = s->parents[body]; a >= 0; a = s->parents[a])
        if (a == j) return 0;
    return 1;
}

/* far[j * 4 + k] (zeroed by the caller): the farthest joint j comes from target k over the
 * frames (the rest pose when clip is NULL); model0 gets the first frame's model pose. */
static int32_t measure(const ak_skeleton *s, const ak_clip *c, const int32_t target[4], float *far,
                       ak_xform *model0, ak_error *err)
{
    const int32_t J = s->joint_count, F = c ? c->frame_count : 1;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    if (!local) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    ak_xform *model = local + J;
    for (int32_t f = 0; f < F; ++f) {
        if (c)
            ak_clip_frame(c, s, f, local);
        else
            memcpy(local, s->rest_local, sizeof(ak_xform) * (size_t)J);
        ak_fk(s, local, model);
        if (f == 0) memcpy(model0, model, sizeof(ak_xform) * (size_t)J);
        for (int32_t j = 0; j < J; ++j)
            for (int k = 0; k < 4; ++k) {
                if (target[k] < 0) continue;
                const float d =
                    akv_len(akv_sub(model[j].translation, model[target[k]].translation));
                float *worst = &far[j * 4 + k];
                if (!isnan(*worst) && !(d <= *worst)) *worst = d; /* a NaN stays: no copy */
            }
    }
    free(local);
    return AK_OK;
}

/* Keeps joint j as a copy of the target it stays nearest, when within `reach`. */
static void keep_copy(int32_t j, const int32_t target[4], const float *far, float reach,
                      const ak_xform *model0, ak_copy_bones *out)
{
    int best = -1;
    for (int k = 0; k < 4; ++k)
        if (target[k] >= 0 && far[j * 4 + k] <= reach &&
            (best < 0 || far[j * 4 + k] < far[j * 4 + best]))
            best = k;
    if (best < 0 || out->count >= AK_COPY_BONES_MAX) return;
    const int32_t i = out->count++;
    out->bone[i] = j;
    out->target[i] = target[best];
    out->distance[i] = far[j * 4 + best];
    out->offset[i] = akx_mul(akx_inverse(model0[target[best]]), model0[j]);
}

int32_t ak_copy_bones_find(const ak_skeleton *s, const ak_clip *c, ak_copy_bones *out,
                           ak_error *err)
{
    if (!s || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    memset(out, 0, sizeof *out);
    if (c && c->joint_count != s->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has %d joints, skeleton %d",
                            (int)c->joint_count, (int)s->joint_count);
    if (c && c->frame_count < 1) return AK_OK;
    ak_humanoid h;
    const int32_t body = ak_humanoid_body_top(s);
    if (body < 0 || ak_humanoid_find(s, NULL, &h, NULL) != AK_OK) return AK_OK; /* no body */
    int32_t target[4];
    copy_targets(&h, target);
    const int32_t J = s->joint_count;
    float *far = (float *)calloc((size_t)J * 4, sizeof(float));
    ak_xform *model0 = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    int32_t st = far && model0 ? measure(s, c, target, far, model0, err)
                               : ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    if (st == AK_OK) {
        const float height = c ? ak_clip_standing_height(c, s) : ak_skeleton_rest_height(s);
        const float reach = AK_COPY_BONES_REACH * height;
        for (int32_t j = 0; j < J; ++j)
            if (beside_body(s, body, j)) keep_copy(j, target, far, reach, model0, out);
    }
    free(far);
    free(model0);
    return st;
}

void ak_copy_bones_scale(ak_copy_bones *bones, float factor)
{
    if (!bones) return;
    for (int32_t i = 0; i < bones->count; ++i) {
        bones->offset[i].translation = akv_scale(bones->offset[i].translation, factor);
        bones->distance[i] *= factor;
    }
}

void ak_copy_bones_apply(const ak_skeleton *s, const ak_copy_bones *bones, ak_xform *local,
                         ak_xform *model)
{
    if (!s || !bones || !local || !model) return;
    for (int32_t i = 0; i < bones->count; ++i) {
        const int32_t b = bones->bone[i], p = s->parents[b];
        model[b] = akx_mul(model[bones->target[i]], bones->offset[i]);
        local[b] = p >= 0 ? akx_mul(akx_inverse(model[p]), model[b]) : model[b];
        /* its subtree follows (a copy below it is placed again in its turn: bones ascend) */
        for (int32_t j = b + 1; j < s->subtree_end[b]; ++j)
            model[j] = akx_mul(model[s->parents[j]], local[j]);
    }
}

int32_t akanim_clip_add_tracks(const ak_skeleton *s, ak_clip **c, const uint8_t *want,
                               ak_error *err)
{
    const ak_clip *old = *c;
    const int32_t J = s->joint_count;
    int missing = 0;
    for (int32_t j = 0; j < J; ++j)
        missing += want[j] && old->joint_track[j] < 0;
    if (!missing) return AK_OK;
    uint8_t *has = (uint8_t *)malloc((size_t)J);
    if (!has) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; j < J; ++j)
        has[j] = (uint8_t)(old->joint_track[j] >= 0 || want[j]);
    ak_clip *nc = NULL;
    const int32_t st = ak_clip_create(J, old->frame_count, old->frame_time, has, &nc, err);
    free(has);
    if (st != AK_OK) return st;
    nc->loop = old->loop;
    memcpy(nc->rotations, old->rotations, sizeof(ak_quat) * (size_t)J * (size_t)old->frame_count);
    for (int32_t f = 0; f < old->frame_count; ++f)
        for (int32_t j = 0; j < J; ++j)
            if (nc->joint_track[j] >= 0)
                nc->translations[(size_t)f * nc->track_count + nc->joint_track[j]] =
                    old->joint_track[j] >= 0
                        ? old->translations[(size_t)f * old->track_count + old->joint_track[j]]
                        : s->rest_local[j].translation;
    ak_clip_finalize(nc);
    ak_clip_destroy(*c);
    *c = nc;
    return AK_OK;
}

int32_t ak_clip_keep_copy_bones(const ak_skeleton *s, const ak_clip *source, ak_clip **clip,
                                ak_error *err)
{
    ak_copy_bones bones;
    int32_t st = ak_copy_bones_find(s, source, &bones, err);
    if (st == AK_OK) st = ak_clip_copy_bones_apply(s, &bones, clip, err);
    if (st != AK_OK && clip) {
        ak_clip_destroy(*clip);
        *clip = NULL;
    }
    return st;
}

int32_t ak_clip_copy_bones_apply(const ak_skeleton *s, const ak_copy_bones *bones, ak_clip **clip,
                                 ak_error *err)
{
    if (!s || !bones || !clip || !*clip)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if ((*clip)->joint_count != s->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has %d joints, skeleton %d",
                            (int)(*clip)->joint_count, (int)s->joint_count);
    if (bones->count == 0) return AK_OK;
    uint8_t *want = (uint8_t *)calloc((size_t)s->joint_count, 1);
    if (!want) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t i = 0; i < bones->count; ++i)
        want[bones->bone[i]] = 1;
    int32_t st = akanim_clip_add_tracks(s, clip, want, err);
    free(want);
    if (st != AK_OK) return st;
    ak_clip *c = *clip;
    const int32_t J = s->joint_count;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    if (!local) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    ak_xform *model = local + J;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, model);
        ak_copy_bones_apply(s, bones, local, model);
        for (int32_t i = 0; i < bones->count; ++i) {
            const int32_t b = bones->bone[i];
            c->rotations[(size_t)f * J + b] = local[b].rotation;
            c->translations[(size_t)f * c->track_count + c->joint_track[b]] = local[b].translation;
        }
    }
    free(local);
    ak_clip_finalize(c);
    return AK_OK;
}
