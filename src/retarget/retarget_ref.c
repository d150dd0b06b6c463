/* The source's reference pose for retargeting (ak_retarget_params.reference_frame): the zero
 * pose when it stands, else a standing frame of the clip, made the zero pose of a copy of the
 * source ("re-rested") so every joint's model position is unchanged in every frame. With
 * contacts on, the reference's feet are set flat as the capture's flat stance has them (a
 * standing zero pose is re-rested for that too), so neither the zero pose's nor a walking
 * frame's foot pitch and turn-out end up in the target's stance. */
#include "retarget/retarget_internal.h"
#include "core/xform_inline.h"
#include "locomotion/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The frame to re-rest on: the named frame (or AKR_REFERENCE_POSE for the named pose), else
 * ak_clip_standing_frame's: -1 when the zero pose stands (keep it) or there is no clip to pick
 * from, else the clip's most upright frame (never a T-pose frame 0: CMU 09_01, 09_02 and 07_04
 * picked it). */
static int32_t pick_reference(const ak_retarget_params *p, const ak_humanoid *m, ak_xform *local,
                              ak_xform *model)
{
    if (p->reference_frame >= 0) return p->reference_frame;
    if (p->reference_pose) return AKR_REFERENCE_POSE;
    return ak_clip_standing_frame(p->source, p->source_clip, m, local, model);
}

ak_clip *akr_clip_without_reference_frame(const ak_clip *c)
{
    if (!ak_clip_first_frame_is_reference(c)) return NULL;
    ak_clip *copy = ak_clip_clone(c);
    if (!copy) return NULL;
    memcpy(copy->rotations, copy->rotations + copy->joint_count,
           sizeof(ak_quat) * (size_t)copy->joint_count);
    memcpy(copy->translations, copy->translations + copy->track_count,
           sizeof(ak_vec3) * (size_t)copy->track_count);
    return copy;
}

int32_t akr_stance_detect(const ak_skeleton *s, const ak_clip *c, int32_t lf, int32_t rf, float mpu,
                          const ak_contact_params *params, akr_stance *out, ak_error *err)
{
    memset(out, 0, sizeof *out);
    out->grid = ak_contact_grid(c->frame_time);
    out->count = ak_contact_grid_count(c, out->grid);
    out->reference = ak_clip_first_frame_is_reference(c);
    ak_clip *copy = out->grid == 1 ? akr_clip_without_reference_frame(c) : NULL;
    out->flags = (uint8_t *)malloc((size_t)out->count * 2u);
    if (!out->flags || (out->reference && out->grid == 1 && !copy)) {
        ak_clip_destroy(copy);
        akr_stance_free(out);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    ak_contact_params cp = *params; /* the joints as ak_foot_contacts_detect takes them */
    cp.skeleton = s;
    cp.clip = copy ? copy : c;
    cp.metres_per_unit = mpu;
    const int32_t end[2] = {lf, rf};
    for (int side = 0; side < 2; ++side) {
        cp.heel[side] = end[side];
        const int32_t child = end[side] + 1;
        cp.toe[side] = child < s->joint_count && s->parents[child] == end[side] ? child : end[side];
    }
    const int32_t st =
        ak_contact_run_grid(&cp, out->grid, out->flags, out->flags + out->count, err);
    ak_clip_destroy(copy);
    if (st < 0) {
        akr_stance_free(out);
        return st;
    }
    if (out->reference) out->flags[0] = out->flags[out->count] = 0; /* no stance: a T-pose */
    return st;
}

void akr_stance_free(akr_stance *st)
{
    free(st->flags);
    st->flags = NULL;
}

/* Where the flat foot's up is, per joint of ak_humanoid_foot_joints: model +Y seen from the
 * joint's own frame, averaged over the frames the contact detector has that part flat on the
 * floor (an ankle: heel and toe down; a ball: toe down), else over its lowest frames
 * (ak_clip_lowest_up_axes). Measured on the motion, so it does not depend on the zero pose.
 * The detector refuses the clip: all zero, the feet are taken as they are. */
static void flat_up_axes(const ak_retarget_params *p, const ak_humanoid *m, ak_xform *local,
                         ak_xform *model, ak_vec3 up[4])
{
    const ak_skeleton *s = p->source;
    const ak_clip *c = p->source_clip;
    int32_t j[4];
    ak_humanoid_foot_joints(m, j);
    for (int i = 0; i < 4; ++i)
        up[i] = akv_make(0.0f, 0.0f, 0.0f);
    if (!c) return; /* no capture to measure the flat stance on */
    const int32_t F = c->frame_count;
    float mpu = p->source_metres_per_unit;
    if (!(mpu > 0.0f)) ak_units_detect(ak_clip_standing_height(c, s), &mpu);
    akr_stance st;
    if (j[0] < 0 || j[1] < 0 ||
        akr_stance_detect(s, c, j[0], j[1], mpu, &p->contact, &st, NULL) < 0)
        return;
    for (int32_t f = 0; f < F; ++f) {
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, model);
        for (int i = 0; i < 4; ++i) {
            const uint8_t need = i < 2 ? (AK_CONTACT_HEEL | AK_CONTACT_TOE) : AK_CONTACT_TOE;
            uint8_t got = st.flags[(size_t)(i & 1) * st.count + (size_t)f * st.grid];
            if (got & AK_CONTACT_ROLL) got |= AK_CONTACT_HEEL; /* the heel is on the floor */
            if (j[i] < 0 || (got & need) != need) continue;
            up[i] = akv_add(up[i], ak_joint_up(model, j[i]));
        }
    }
    akr_stance_free(&st);
    ak_clip_lowest_up_axes(s, c, j, AK_LOWEST_TOL_M / mpu, local, model, up);
    for (int i = 0; i < 4; ++i)
        up[i] = akv_normalize_or(up[i], akv_make(0.0f, 0.0f, 0.0f));
}

/* The copy's skeleton: offsets o''_k = Y^-1 R_p(ref) o_k (the reference pose's model-space bone
 * vectors, turned to face +Z) and identity rest rotations; out->ref_rot[j] = Y^-1 R_j(ref) (feet
 * set flat), so rotations R''_j = R_j R_j(ref)^-1 Y in model space give R''_p o''_k = R_p o_k:
 * positions unchanged, the zero pose is the reference. `ref_local` is the reference pose. */
static int32_t rerest_skeleton(const ak_skeleton *s, const ak_xform *ref_local,
                               const ak_humanoid *m, const ak_vec3 up[4], ak_xform *model,
                               akr_rested *out, ak_error *err)
{
    const int32_t J = s->joint_count;
    ak_fk(s, ref_local, model);
    const ak_quat yaw_inv = akq_conj(ak_pose_facing_yaw(m, model));
    ak_quat *ref_rot = out->ref_rot = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)J);
    ak_xform *rest = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    const char **names = (const char **)malloc(sizeof(char *) * (size_t)J);
    int32_t st =
        ref_rot && rest && names ? AK_OK : ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; st == AK_OK && j < J; ++j)
        ref_rot[j] = model[j].rotation;
    if (st == AK_OK) ak_pose_flatten_feet(s, m, up, akq_conj(yaw_inv), model, ref_rot);
    for (int32_t j = 0; st == AK_OK && j < J; ++j) {
        const int32_t p = s->parents[j];
        ref_rot[j] = akq_normalize(akq_mul(yaw_inv, ref_rot[j])); /* Y^-1 R_j(ref) */
        names[j] = s->names[j];
        rest[j].rotation = ak_quat_identity();
        rest[j].translation = p < 0 ? s->rest_local[j].translation
                                    : akq_rotate(ref_rot[p], s->rest_local[j].translation);
    }
    ak_skeleton_desc d = {J, names, s->parents, rest, s->channels, s->is_end_site};
    if (st == AK_OK) st = ak_skeleton_create(&d, &out->skeleton, err);
    free(rest);
    free(names);
    return st;
}

/* The copy's clip: every frame's local rotations R''_p^-1 R''_j (model rotations from
 * out->ref_rot) and translation tracks below the top turned by R''_p(ref). */
static int32_t rerest_clip(const ak_skeleton *s, const ak_clip *c, ak_xform *local, ak_xform *model,
                           akr_rested *out, ak_error *err)
{
    const int32_t J = s->joint_count;
    const ak_quat *ref_rot = out->ref_rot;
    out->clip = ak_clip_clone(c);
    if (!out->clip) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t f = 0; f < c->frame_count; ++f) {
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
    ak_clip_finalize(out->clip);
    return AK_OK;
}

/* The reference pose's local transforms into `local`: the frame, the given pose or the zero
 * pose. */
static void reference_local(const ak_retarget_params *p, int32_t frame, ak_xform *local)
{
    const ak_skeleton *s = p->source;
    if (frame >= 0)
        ak_clip_frame(p->source_clip, s, frame, local);
    else if (frame == AKR_REFERENCE_POSE)
        memcpy(local, p->reference_pose, sizeof(ak_xform) * (size_t)s->joint_count);
    else
        memcpy(local, s->rest_local, sizeof(ak_xform) * (size_t)s->joint_count);
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
    if (out->frame != -1 || (p->source_clip && p->contacts)) {
        ak_vec3 up[4];
        flat_up_axes(p, m, local, local + J, up);
        reference_local(p, out->frame, local);
        st = rerest_skeleton(p->source, local, m, up, local + J, out, err);
        if (st == AK_OK && p->source_clip)
            st = rerest_clip(p->source, p->source_clip, local, local + J, out, err);
    }
    free(local);
    if (st != AK_OK) akr_rested_free(out);
    return st;
}

void akr_rested_free(akr_rested *r)
{
    ak_skeleton_destroy(r->skeleton);
    ak_clip_destroy(r->clip);
    free(r->ref_rot);
    r->skeleton = NULL;
    r->clip = NULL;
    r->ref_rot = NULL;
}
