/* Which pose of a rig stands and its feet set flat (standing_internal.h): the measures the
 * retargeter's reference pose and the generated body share. */
#include "anim/standing_internal.h"
#include "animkit/rootmotion.h"
#include "core/xform_inline.h"

#include <math.h>

float ak_pose_uprightness(const ak_humanoid *m, const ak_xform *model)
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

int ak_clip_first_frame_is_reference(const ak_clip *c)
{
    if (c->frame_count < 3) return 0;
    for (int32_t j = 0; j < c->joint_count; ++j) {
        float d = fabsf(akq_dot(c->rotations[j], c->rotations[c->joint_count + j]));
        if (d < cosf(0.5f * 0.349f)) return 1;
    }
    return 0;
}

int32_t ak_clip_standing_frame(const ak_skeleton *s, const ak_clip *c, const ak_humanoid *m,
                               ak_xform *local, ak_xform *model)
{
    ak_fk(s, s->rest_local, model);
    if (ak_pose_uprightness(m, model) >= AK_STANDS_COS || !c) return -1;
    int32_t best = 0;
    float best_score = -2.0f;
    for (int32_t f = ak_clip_first_frame_is_reference(c); f < c->frame_count; ++f) {
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, model);
        const float score = ak_pose_uprightness(m, model);
        if (score > best_score) {
            best_score = score;
            best = f;
        }
    }
    return best;
}

void ak_humanoid_foot_joints(const ak_humanoid *m, int32_t j[4])
{
    j[0] = m->joint[AK_HUM_LEFT_FOOT];
    j[1] = m->joint[AK_HUM_RIGHT_FOOT];
    j[2] = m->joint[AK_HUM_LEFT_TOE];
    j[3] = m->joint[AK_HUM_RIGHT_TOE];
}

ak_vec3 ak_joint_up(const ak_xform *model, int32_t j)
{
    return akq_rotate(akq_conj(model[j].rotation), akv_make(0, 1, 0));
}

void ak_clip_lowest_up_axes(const ak_skeleton *s, const ak_clip *c, const int32_t j[4], float tol,
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
                    up[i] = akv_add(up[i], ak_joint_up(model, j[i]));
            }
        }
}

ak_quat ak_pose_facing_yaw(const ak_humanoid *m, const ak_xform *model)
{
    const int32_t l = m->joint[AK_HUM_LEFT_UPPER_LEG], r = m->joint[AK_HUM_RIGHT_UPPER_LEG];
    if (l < 0 || r < 0) return ak_quat_identity();
    const ak_vec3 left = akv_sub(model[l].translation, model[r].translation);
    if (left.x * left.x + left.z * left.z < 1e-12f) return ak_quat_identity();
    return ak_quat_yaw(atan2f(-left.z, left.x));
}

void ak_pose_flatten_feet(const ak_skeleton *s, const ak_humanoid *m, const ak_vec3 up[4],
                          ak_quat yaw, const ak_xform *model, ak_quat *rot)
{
    int32_t j[4];
    ak_humanoid_foot_joints(m, j);
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
