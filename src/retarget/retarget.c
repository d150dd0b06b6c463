/* Retargeting, the per-frame half: a source pose onto the target rig (world rotations,
 * segment directions, hips placement), and the offline run over a clip with stance feet
 * pinned by limb IK (see retarget.h for the math). */
#include "animkit/ik.h"
#include "animkit/retarget.h"
#include "retarget/retarget_internal.h"
#include "core/xform_inline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

ak_vec3 ak_retargeter_map_point(const ak_retargeter *rt, ak_vec3 p)
{
    ak_vec3 h = akq_rotate(rt->yaw, ak_vec3_make(p.x, 0.0f, p.z));
    return ak_vec3_make(rt->k * h.x, rt->k * p.y + rt->y_offset, rt->k * h.z);
}

/* Sum of the bone vectors from target joint a down to b with the current world rotations:
 * where b sits relative to a. */
static ak_vec3 path_vector(const ak_retargeter *rt, int32_t a, int32_t b)
{
    const ak_skeleton *d = rt->dst;
    ak_vec3 v = {0.0f, 0.0f, 0.0f};
    for (int32_t x = b; x != a && x >= 0; x = d->parents[x])
        v = akv_add(v, akq_rotate(rt->w[d->parents[x]], d->rest_local[x].translation));
    return v;
}

/* Swings the joints from sg->turn down to b's parent so the segment a->b points where the
 * source's does: C = from_to(current, source direction), pre-multiplied on each. When turn
 * is below a (a sits on its parent, an earlier segment set a->turn), b swings about turn
 * onto the line from a along the source direction (the far point at b's distance from
 * turn; the nearest point of the line when it passes farther away). */
static void correct_segment(ak_retargeter *rt, const akr_segment *sg)
{
    const ak_skeleton *d = rt->dst;
    ak_vec3 have = path_vector(rt, sg->turn, sg->b);
    ak_vec3 want = akq_rotate(
        rt->yaw, akv_sub(rt->src_world[sg->sb].translation, rt->src_world[sg->sa].translation));
    if (akv_dot(have, have) < 1e-20f || akv_dot(want, want) < 1e-20f) return;
    if (sg->turn != sg->a) {
        const ak_vec3 u = akv_normalize_or(want, want), off = path_vector(rt, sg->a, sg->turn);
        const float ud = akv_dot(u, off), disc = ud * ud - akv_dot(off, off) + akv_dot(have, have);
        const float t = ud + (disc > 0.0f ? sqrtf(disc) : 0.0f);
        want = akv_sub(akv_scale(u, t), off); /* turn -> the point on the line */
        if (akv_dot(want, want) < 1e-20f) return;
    }
    ak_quat c = ak_quat_from_to(have, want);
    for (int32_t x = d->parents[sg->b]; x >= 0; x = d->parents[x]) {
        rt->w[x] = akq_normalize(akq_mul(c, rt->w[x]));
        if (x == sg->turn) break;
    }
}

/* World rotations of every target joint for the source world pose in rt->src_world. */
static void target_world_rotations(ak_retargeter *rt)
{
    const ak_skeleton *d = rt->dst;
    const int32_t n = d->joint_count;
    for (int32_t j = 0; j < n; ++j)
        if (rt->kind[j] == AKR_MAPPED)
            rt->w[j] =
                akq_mul(akq_mul(rt->yaw, rt->src_world[rt->src_of[j]].rotation), rt->offset[j]);
    for (int32_t j = 0; j < n; ++j) {
        if (rt->kind[j] != AKR_CHAIN) continue;
        int32_t a = rt->chain_a[j], b = rt->chain_b[j];
        ak_quat da = akq_mul(rt->w[a], akq_conj(rt->rest_world[a]));
        ak_quat db = akq_mul(rt->w[b], akq_conj(rt->rest_world[b]));
        rt->w[j] = akq_normalize(akq_mul(akq_slerp(da, db, rt->chain_t[j]), rt->rest_world[j]));
    }
    for (int32_t i = 0; i < rt->segment_count; ++i)
        correct_segment(rt, &rt->segments[i]);
    for (int32_t j = 0; j < n; ++j) {
        if (rt->kind[j] != AKR_REST) continue;
        int32_t p = d->parents[j];
        rt->w[j] = p < 0 ? d->rest_local[j].rotation : akq_mul(rt->w[p], d->rest_local[j].rotation);
    }
}

static void retarget_pose(ak_retargeter *rt, const ak_xform *source_local, ak_xform *target_local)
{
    const ak_skeleton *d = rt->dst;
    const ak_humanoid *sm = &rt->src_map, *dm = &rt->dst_map;
    ak_fk(rt->src, source_local, rt->src_world);
    if (rt->rested.ref_rot) /* the re-rested copy's rotations: W_j ref_rot[j]^-1 */
        for (int32_t j = 0; j < rt->src->joint_count; ++j)
            rt->src_world[j].rotation =
                akq_mul(rt->src_world[j].rotation, akq_conj(rt->rested.ref_rot[j]));
    target_world_rotations(rt);
    for (int32_t j = 0; j < d->joint_count; ++j) {
        int32_t p = d->parents[j];
        target_local[j].rotation =
            p < 0 ? rt->w[j] : akq_normalize(akq_mul(akq_conj(rt->w[p]), rt->w[j]));
        target_local[j].translation = d->rest_local[j].translation;
    }
    /* Hips: the midpoint of the target's hip joints goes to M(source's midpoint). */
    int32_t h = dm->joint[AK_HUM_HIPS];
    ak_vec3 src_mid =
        akv_scale(akv_add(rt->src_world[sm->joint[AK_HUM_LEFT_UPPER_LEG]].translation,
                          rt->src_world[sm->joint[AK_HUM_RIGHT_UPPER_LEG]].translation),
                  0.5f);
    ak_vec3 rel = akv_scale(akv_add(path_vector(rt, h, dm->joint[AK_HUM_LEFT_UPPER_LEG]),
                                    path_vector(rt, h, dm->joint[AK_HUM_RIGHT_UPPER_LEG])),
                            0.5f);
    ak_vec3 hips_world = akv_sub(ak_retargeter_map_point(rt, src_mid), rel);
    target_local[h].translation = ak_xform_point(rt->hips_parent_inv, hips_world);
}

int32_t ak_retargeter_pose(ak_retargeter *rt, const ak_xform *source_local, ak_xform *target_local)
{
    if (!rt || !source_local || !target_local) return AK_ERR_INVALID_ARG;
    if (!akb_enter(&rt->busy)) return AK_ERR_STATE; /* another thread's call is in flight */
    retarget_pose(rt, source_local, target_local);
    akb_leave(&rt->busy);
    return AK_OK;
}
