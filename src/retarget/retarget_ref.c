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

/* cos 37 degrees: how vertical hips-to-head and hips-to-foot must be for a pose to stand. */
#define STANDS_COS 0.8f
/* A foot the detector never has flat is taken flat within 2 cm of its lowest (metres). */
#define LOWEST_TOL_M 0.02f

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

/* The frame to re-rest on: -1 when the zero pose stands (keep it), else the named frame (or
 * AKR_REFERENCE_POSE for the named pose) or the clip's most upright one, never a T-pose frame
 * 0 (akr_first_frame_is_reference: a reference pose, not motion; its arms out stand as
 * upright as any frame, and CMU 09_01, 09_02 and 07_04 picked it); -1 too without a clip to
 * pick from. */
static int32_t pick_reference(const ak_retarget_params *p, const ak_humanoid *m, ak_xform *local,
                              ak_xform *model)
{
    if (p->reference_frame >= 0) return p->reference_frame;
    if (p->reference_pose) return AKR_REFERENCE_POSE;
    const ak_skeleton *s = p->source;
    ak_fk(s, s->rest_local, model);
    if (uprightness(m, model) >= STANDS_COS || !p->source_clip) return -1;
    int32_t best = 0;
    float best_score = -2.0f;
    for (int32_t f = akr_first_frame_is_reference(p->source_clip); f < p->source_clip->frame_count;
         ++f) {
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

/* True when frame 0 is a reference pose rather than motion (CMU's T-pose frame): some joint
 * turns more than 20 degrees between frames 0 and 1, which no captured motion does in one
 * frame. Its feet would otherwise set the detector's floor. */
int akr_first_frame_is_reference(const ak_clip *c)
{
    if (c->frame_count < 3) return 0;
    for (int32_t j = 0; j < c->joint_count; ++j) {
        float d = fabsf(akq_dot(c->rotations[j], c->rotations[c->joint_count + j]));
        if (d < cosf(0.5f * 0.349f)) return 1;
    }
    return 0;
}

ak_clip *akr_clip_without_reference_frame(const ak_clip *c)
{
    if (!akr_first_frame_is_reference(c)) return NULL;
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
    out->reference = akr_first_frame_is_reference(c);
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

/* The ankle [0, 1] and ball [2, 3] joints of the left and right foot (-1: none). */
static void foot_joints(const ak_humanoid *m, int32_t j[4])
{
    j[0] = m->joint[AK_HUM_LEFT_FOOT];
    j[1] = m->joint[AK_HUM_RIGHT_FOOT];
    j[2] = m->joint[AK_HUM_LEFT_TOE];
    j[3] = m->joint[AK_HUM_RIGHT_TOE];
}

/* Model +Y seen from joint j's own frame. */
static ak_vec3 up_in(const ak_xform *model, int32_t j)
{
    return akq_rotate(akq_conj(model[j].rotation), akv_make(0, 1, 0));
}

/* For each joint of j[4] whose up[i] is still zero (the detector found it never flat: a
 * run's short stances), its up averaged over the frames it (an ankle: and its ball) is
 * within `tol` of its lowest height, where a foot in any gait lies flattest; measured on the
 * motion too. */
static void lowest_up_axes(const ak_skeleton *s, const ak_clip *c, const int32_t j[4], float tol,
                           ak_xform *local, ak_xform *model, ak_vec3 up[4])
{
    float lo[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    int want[4], need = 0;
    for (int i = 0; i < 4; ++i)
        need |= want[i] = j[i] >= 0 && akv_dot(up[i], up[i]) == 0.0f;
    for (int pass = 0; need && pass < 2; ++pass)
        for (int32_t f = 0; f < c->frame_count; ++f) {
            ak_clip_frame(c, s, f, local);
            ak_fk(s, local, model);
            for (int i = 0; i < 4; ++i) {
                if (j[i] < 0) continue;
                const float y = model[j[i]].translation.y;
                const int ball = i < 2 && j[i + 2] >= 0 ? i + 2 : i;
                if (pass == 0 && y < lo[i]) lo[i] = y;
                if (pass == 1 && want[i] && y <= lo[i] + tol &&
                    model[j[ball]].translation.y <= lo[ball] + tol)
                    up[i] = akv_add(up[i], up_in(model, j[i]));
            }
        }
}

/* Where the flat foot's up is, per joint of foot_joints: model +Y seen from the joint's own
 * frame, averaged over the frames the contact detector has that part flat on the floor (an
 * ankle: heel and toe down; a ball: toe down), else over its lowest frames (lowest_up_axes).
 * Measured on the motion, so it does not depend on the zero pose. The detector refuses the
 * clip: all zero, the feet are taken as they are. */
static void flat_up_axes(const ak_retarget_params *p, const ak_humanoid *m, ak_xform *local,
                         ak_xform *model, ak_vec3 up[4])
{
    const ak_skeleton *s = p->source;
    const ak_clip *c = p->source_clip;
    int32_t j[4];
    foot_joints(m, j);
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
            up[i] = akv_add(up[i], up_in(model, j[i]));
        }
    }
    akr_stance_free(&st);
    lowest_up_axes(s, c, j, LOWEST_TOL_M / mpu, local, model, up);
    for (int i = 0; i < 4; ++i)
        up[i] = akv_normalize_or(up[i], akv_make(0.0f, 0.0f, 0.0f));
}

/* The reference frame's feet made to stand as a rest pose's do (model rotations `rot` of the
 * frame, changed in place): each ankle and ball tilted so its flat-stance up axis is vertical,
 * then both turned about the vertical so the foot (ankle to ball, or to its first child)
 * points along the frame's facing (yaw * +Z). A standing zero pose has flat feet pointing
 * forward; a walking frame has one heel or toe up and the feet turned out, which the target's
 * rest feet would otherwise copy. */
static void flatten_feet(const ak_skeleton *s, const ak_humanoid *m, const ak_vec3 up[4],
                         ak_quat yaw, const ak_xform *model, ak_quat *rot)
{
    int32_t j[4];
    foot_joints(m, j);
    const ak_vec3 y = akv_make(0.0f, 1.0f, 0.0f), fwd = akq_rotate(yaw, akv_make(0, 0, 1));
    for (int side = 0; side < 2; ++side) {
        const int32_t foot = j[side], toe = j[2 + side];
        if (foot < 0 || akv_dot(up[side], up[side]) < 0.5f) continue;
        const ak_quat tilt = akq_from_to(akq_rotate(rot[foot], up[side]), y);
        const int32_t tip = toe >= 0 ? toe : (foot + 1 < s->subtree_end[foot] ? foot + 1 : -1);
        ak_quat turn = akq_identity();
        if (tip >= 0) {
            ak_vec3 v = akq_rotate(tilt, akv_sub(model[tip].translation, model[foot].translation));
            v.y = 0.0f;
            if (akv_len(v) > 1e-9f) turn = akq_from_to(v, akv_make(fwd.x, 0.0f, fwd.z));
        }
        rot[foot] = akq_normalize(akq_mul(turn, akq_mul(tilt, rot[foot])));
        if (toe < 0) continue;
        rot[toe] = akq_mul(turn, rot[toe]); /* the ball turns with its foot, then lies flat */
        if (akv_dot(up[2 + side], up[2 + side]) > 0.5f)
            rot[toe] = akq_mul(akq_from_to(akq_rotate(rot[toe], up[2 + side]), y), rot[toe]);
        rot[toe] = akq_normalize(rot[toe]);
    }
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
    const ak_quat yaw_inv = akq_conj(facing_yaw(m, model));
    ak_quat *ref_rot = out->ref_rot = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)J);
    ak_xform *rest = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    const char **names = (const char **)malloc(sizeof(char *) * (size_t)J);
    int32_t st =
        ref_rot && rest && names ? AK_OK : ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; st == AK_OK && j < J; ++j)
        ref_rot[j] = model[j].rotation;
    if (st == AK_OK) flatten_feet(s, m, up, akq_conj(yaw_inv), model, ref_rot);
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
