/* Which axis a clip stands along (a BVH file has no up field), and a Z-up file turned to the
 * library's Y-up (clip.h). Offline: the measure allocates. */
#include "animkit/clip.h"
#include "core/xform_inline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The body axis counts when the mean unit vector lies within 45 degrees of +Y or +Z and the
 * frames agree (a mean of unit vectors shorter than 0.7 is frames pointing apart). */
#define AXIS_COS 0.7071f
#define AGREE    0.7f

typedef struct up_joints {
    int32_t hips, head, foot[2];
} up_joints;

static int find_joints(const ak_skeleton *s, up_joints *j)
{
    ak_humanoid h;
    ak_humanoid_find(s, NULL, &h, NULL);
    j->hips = h.joint[AK_HUM_HIPS];
    j->head = h.joint[AK_HUM_HEAD] >= 0 ? h.joint[AK_HUM_HEAD] : h.joint[AK_HUM_NECK];
    j->foot[0] = h.joint[AK_HUM_LEFT_FOOT];
    j->foot[1] = h.joint[AK_HUM_RIGHT_FOOT];
    return j->hips >= 0 && j->head >= 0 && j->foot[0] >= 0 && j->foot[1] >= 0;
}

/* The body vector and the hips' path over up to 64 evenly spaced frames. */
static int32_t measure_frames(const ak_skeleton *s, const ak_clip *c, const up_joints *uj,
                              ak_up_report *r)
{
    const int32_t J = s->joint_count, F = c->frame_count;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    if (!local) return AK_ERR_NOMEM;
    ak_xform *model = local + J;
    const int32_t samples = F < 64 ? F : 64;
    ak_vec3 sum = akv_make(0, 0, 0), lo = akv_make(0, 0, 0), hi = lo;
    double length = 0.0;
    for (int32_t i = 0; i < samples; ++i) {
        const int32_t f = samples > 1 ? (int32_t)((int64_t)i * (F - 1) / (samples - 1)) : 0;
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, model);
        const ak_vec3 feet = akv_scale(
            akv_add(model[uj->foot[0]].translation, model[uj->foot[1]].translation), 0.5f);
        const ak_vec3 body = akv_sub(model[uj->head].translation, feet);
        const float len = akv_len(body);
        if (len > 0.0f) sum = akv_add(sum, akv_scale(body, 1.0f / len));
        length += len;
        const ak_vec3 h = model[uj->hips].translation;
        lo = i ? akv_make(fminf(lo.x, h.x), fminf(lo.y, h.y), fminf(lo.z, h.z)) : h;
        hi = i ? akv_make(fmaxf(hi.x, h.x), fmaxf(hi.y, h.y), fmaxf(hi.z, h.z)) : h;
    }
    free(local);
    r->body = samples ? akv_scale(sum, 1.0f / (float)samples) : sum;
    r->body_length = samples ? (float)(length / samples) : 0.0f;
    r->hips_extent = akv_sub(hi, lo);
    return AK_OK;
}

int32_t ak_clip_up_measure(const ak_skeleton *s, const ak_clip *c, ak_up_report *r)
{
    if (!s || !c || !r || c->joint_count != s->joint_count) return AK_ERR_INVALID_ARG;
    memset(r, 0, sizeof *r);
    r->up = AK_UP_Y;
    up_joints uj;
    if (!find_joints(s, &uj) || c->frame_count < 1) {
        r->reason = AK_UP_REASON_NO_HUMANOID;
        return AK_OK;
    }
    const int32_t st = measure_frames(s, c, &uj, r);
    if (st != AK_OK) return st;
    const ak_vec3 b = r->body, e = r->hips_extent;
    const float len = akv_len(b);
    if (len >= AGREE && b.y >= AXIS_COS * len) {
        r->reason = AK_UP_REASON_STANDS_Y;
    } else if (len < AGREE || b.z < AXIS_COS * len) {
        r->reason = AK_UP_REASON_NO_AXIS;
    } else if (e.z >= r->body_length && e.z >= 2.0f * e.y) {
        r->reason = AK_UP_REASON_LIES_ALONG_Z; /* travels in XZ, perpendicular to Y */
    } else {
        r->reason = AK_UP_REASON_STANDS_Z;
        r->up = AK_UP_Z;
    }
    return AK_OK;
}

/* x' = R x R^-1 for the rotation R of -90 degrees about X. */
static ak_quat turn_q(ak_quat r, ak_quat q)
{
    return akq_mul(r, akq_mul(q, akq_conj(r)));
}

void ak_clip_turn_z_up(ak_skeleton *s, ak_clip *c)
{
    if (!s || !c || c->joint_count != s->joint_count) return;
    const float h = 0.70710678f;
    const ak_quat r = {-h, 0.0f, 0.0f, h}; /* -90 degrees about X: +Z to +Y */
    const int32_t J = s->joint_count;
    for (int32_t j = 0; j < J; ++j) {
        s->rest_local[j].rotation = turn_q(r, s->rest_local[j].rotation);
        s->rest_local[j].translation = akq_rotate(r, s->rest_local[j].translation);
    }
    const size_t keys = (size_t)c->frame_count * (size_t)J;
    for (size_t k = 0; k < keys; ++k)
        c->rotations[k] = turn_q(r, c->rotations[k]);
    const size_t moves = (size_t)c->frame_count * (size_t)c->track_count;
    for (size_t k = 0; k < moves; ++k)
        c->translations[k] = akq_rotate(r, c->translations[k]);
    ak_clip_finalize(c);
}

int32_t ak_clip_up_apply(ak_skeleton *s, ak_clip *c, int32_t up, ak_up_report *out)
{
    ak_up_report r;
    memset(&r, 0, sizeof r);
    if (up != AK_UP_AUTO && up != AK_UP_Y && up != AK_UP_Z) return AK_ERR_INVALID_ARG;
    if (!s || !c || c->joint_count != s->joint_count) return AK_ERR_INVALID_ARG;
    if (up == AK_UP_AUTO) {
        const int32_t st = ak_clip_up_measure(s, c, &r);
        if (st != AK_OK) return st;
    } else {
        r.up = up;
        r.reason = AK_UP_REASON_GIVEN;
    }
    if (r.up == AK_UP_Z) ak_clip_turn_z_up(s, c);
    r.turned = r.up == AK_UP_Z;
    if (out) *out = r;
    return AK_OK;
}

void ak_up_describe(const ak_up_report *r, char *buf, size_t size)
{
    if (!buf || size == 0) return;
    buf[0] = '\0';
    if (!r) return;
    if (r->reason == AK_UP_REASON_STANDS_Z)
        snprintf(buf, size,
                 "the rig stands along +Z: read as Z-up (turned to Y-up); --up y to keep the "
                 "file's axes");
    else if (r->reason == AK_UP_REASON_LIES_ALONG_Z)
        snprintf(buf, size,
                 "the rig lies along +Z and its hips travel %.3g along Z (%.3g along Y): read "
                 "as lying on a Y-up floor; --up z to stand it up",
                 (double)r->hips_extent.z, (double)r->hips_extent.y);
}
