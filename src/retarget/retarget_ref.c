/* The source's reference pose for retargeting (ak_retarget_params.reference_frame): the zero
 * pose when it stands, else a standing frame of the clip, made the zero pose of a copy of the
 * source ("re-rested") so every joint's model position is unchanged in every frame. */
#include "retarget/retarget_internal.h"
#include "core/xform_inline.h"

#include <stdlib.h>
#include <string.h>

/* cos 37 degrees: how vertical hips-to-head and hips-to-foot must be for a pose to stand. */
#define STANDS_COS 0.8f

/* The least upright of hips-to-head (up) and hips-to-each-foot (down), as the cosine with the
 * vertical; 1 for a pose standing straight. */
static float uprightness(const ak_humanoid *m, const ak_xform *model)
{
    const int32_t hips = m->joint[AK_HUM_HIPS];
    int32_t top = m->joint[AK_HUM_HEAD];
    if (top < 0) top = m->joint[AK_HUM_NECK];
    if (hips < 0 || top < 0) return 1.0f; /* nothing to measure: take the zero pose */
    const ak_vec3 h = model[hips].translation;
    const ak_vec3 up = akv_sub(model[top].translation, h);
    float worst = up.y / (akv_len(up) + 1e-12f);
    const int32_t feet[2] = {m->joint[AK_HUM_LEFT_FOOT], m->joint[AK_HUM_RIGHT_FOOT]};
    for (int s = 0; s < 2; ++s) {
        if (feet[s] < 0) continue;
        const ak_vec3 down = akv_sub(h, model[feet[s]].translation);
        const float c = down.y / (akv_len(down) + 1e-12f);
        if (c < worst) worst = c;
    }
    return worst;
}

/* The frame to re-rest on: -1 when the zero pose stands (keep it), else the named frame or
 * the clip's most upright one. */
static int32_t pick_reference(const ak_retarget_params *p, const ak_humanoid *m, ak_xform *local,
                              ak_xform *model)
{
    if (p->reference_frame >= 0) return p->reference_frame;
    const ak_skeleton *s = p->source;
    ak_fk(s, s->rest_local, model);
    if (uprightness(m, model) >= STANDS_COS || !p->source_clip) return -1;
    int32_t best = 0;
    float best_score = -2.0f;
    for (int32_t f = 0; f < p->source_clip->frame_count; ++f) {
        ak_clip_frame(p->source_clip, s, f, local);
        ak_fk(s, local, model);
        const float score = uprightness(m, model);
        if (score > best_score) {
            best_score = score;
            best = f;
        }
    }
    return best;
}

/* The yaw Y of the reference frame's facing: the one taking +X to its left (right upper leg
 * to left upper leg, on XZ), so the re-rested zero pose faces +Z as a standing zero pose does. */
static ak_quat facing_yaw(const ak_humanoid *m, const ak_xform *model)
{
    const int32_t l = m->joint[AK_HUM_LEFT_UPPER_LEG], r = m->joint[AK_HUM_RIGHT_UPPER_LEG];
    if (l < 0 || r < 0) return ak_quat_identity();
    const ak_vec3 left = akv_sub(model[l].translation, model[r].translation);
    if (left.x * left.x + left.z * left.z < 1e-12f) return ak_quat_identity();
    return ak_quat_yaw(atan2f(-left.z, left.x));
}

/* The copy: offsets o''_k = Y^-1 R_p(ref) o_k (the reference frame's model-space bone vectors,
 * turned to face +Z), identity rest rotations, and rotations R''_j(f) = R_j(f) R_j(ref)^-1 Y
 * in model space, so R''_p(f) o''_k = R_p(f) o_k: positions unchanged, the zero pose is the
 * reference frame. */
static int32_t rerest(const ak_skeleton *s, const ak_clip *c, int32_t ref, const ak_humanoid *m,
                      ak_xform *local, ak_xform *model, akr_rested *out, ak_error *err)
{
    const int32_t J = s->joint_count;
    ak_clip_frame(c, s, ref, local);
    ak_fk(s, local, model);
    const ak_quat yaw_inv = akq_conj(facing_yaw(m, model));
    ak_quat *ref_rot = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)J);
    ak_xform *rest = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    const char **names = (const char **)malloc(sizeof(char *) * (size_t)J);
    int32_t st =
        ref_rot && rest && names ? AK_OK : ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; st == AK_OK && j < J; ++j) {
        const int32_t p = s->parents[j];
        ref_rot[j] = akq_normalize(akq_mul(yaw_inv, model[j].rotation)); /* Y^-1 R_j(ref) */
        names[j] = s->names[j];
        rest[j].rotation = ak_quat_identity();
        rest[j].translation = p < 0 ? s->rest_local[j].translation
                                    : akq_rotate(ref_rot[p], s->rest_local[j].translation);
    }
    ak_skeleton_desc d = {J, names, s->parents, rest, s->channels, s->is_end_site};
    if (st == AK_OK) st = ak_skeleton_create(&d, &out->skeleton, err);
    if (st == AK_OK) out->clip = ak_clip_clone(c);
    if (st == AK_OK && !out->clip) st = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t f = 0; st == AK_OK && f < c->frame_count; ++f) {
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, model);
        for (int32_t j = 0; j < J; ++j) {
            const int32_t p = s->parents[j];
            const ak_quat r = akq_mul(model[j].rotation, akq_conj(ref_rot[j]));
            const ak_quat rp =
                p < 0 ? ak_quat_identity() : akq_mul(model[p].rotation, akq_conj(ref_rot[p]));
            out->clip->rotations[(size_t)f * J + j] = akq_normalize(akq_mul(akq_conj(rp), r));
            const int32_t tr = c->joint_track[j];
            if (tr >= 0 && p >= 0) {
                ak_vec3 *t = &out->clip->translations[(size_t)f * c->track_count + tr];
                *t = akq_rotate(ref_rot[p], *t);
            }
        }
    }
    if (st == AK_OK) ak_clip_finalize(out->clip);
    free(ref_rot);
    free(rest);
    free(names);
    return st;
}

int32_t akr_reference_source(const ak_retarget_params *p, const ak_humanoid *m, akr_rested *out,
                             ak_error *err)
{
    memset(out, 0, sizeof *out);
    out->frame = -1;
    const int32_t J = p->source->joint_count;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    if (!local) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    int32_t st = AK_OK;
    out->frame = pick_reference(p, m, local, local + J);
    if (out->frame >= 0 && p->source_clip)
        st = rerest(p->source, p->source_clip, out->frame, m, local, local + J, out, err);
    free(local);
    if (st != AK_OK) akr_rested_free(out);
    return st;
}

void akr_rested_free(akr_rested *r)
{
    ak_skeleton_destroy(r->skeleton);
    ak_clip_destroy(r->clip);
    r->skeleton = NULL;
    r->clip = NULL;
}
