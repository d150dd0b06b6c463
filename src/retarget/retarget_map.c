/* Retargeting, the offline half: which target joint follows which source joint, the rest
 * offsets, the proportions and the heading between two rigs (see retarget.h). Allocates. */
#include "animkit/retarget.h"
#include "retarget/retarget_internal.h"
#include "core/xform_inline.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

ak_retarget_params ak_retarget_defaults(void)
{
    ak_retarget_params p;
    memset(&p, 0, sizeof p);
    p.scale = 1.0f;
    p.floor_height = NAN;
    p.contacts = 1;
    p.fade_time = 0.1f;
    p.contact = ak_contact_defaults();
    p.reference_frame = -1;
    return p;
}

/* A caller's humanoid map: indices in range, hips and both legs present. */
static int32_t check_map(const ak_humanoid *m, const ak_skeleton *s, const char *which,
                         ak_error *err)
{
    static const int required[7] = {
        AK_HUM_HIPS,      AK_HUM_LEFT_UPPER_LEG,  AK_HUM_LEFT_LOWER_LEG,
        AK_HUM_LEFT_FOOT, AK_HUM_RIGHT_UPPER_LEG, AK_HUM_RIGHT_LOWER_LEG,
        AK_HUM_RIGHT_FOOT};
    if (!m) return AK_OK;
    for (int slot = 0; slot < AK_HUM_SLOT_COUNT; ++slot)
        if (m->joint[slot] < -1 || m->joint[slot] >= s->joint_count)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s map: %s joint %d out of range",
                                which, ak_humanoid_slot_name(slot), (int)m->joint[slot]);
    for (int i = 0; i < 7; ++i)
        if (m->joint[required[i]] < 0)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s map: no %s joint", which,
                                ak_humanoid_slot_name(required[i]));
    return AK_OK;
}

#define RT(f, lo, hi, nan_ok)                                                                      \
    {                                                                                              \
#f, (uint32_t)offsetof(ak_retarget_params, f), lo, hi, nan_ok                              \
    }
/* fade_time: up to 10 s (the CLI's --fade range); at 1e20 the pin planner's frame counts
 * overflowed, at 1e7 a retarget took 3.2 s. Target units may be millimetres: floors 1e9. */
static const ak_param_range k_retarget[] = {
    RT(scale, 1e-6f, 1000.0f, 0),
    RT(floor_height, -1e9f, 1e9f, 1),
    RT(fade_time, 0.0f, 10.0f, 0),
    RT(source_metres_per_unit, 0.0f, 1e6f, 0),
};
#undef RT
static const ak_param_table k_retarget_table = {
    "ak_retarget_params", k_retarget, (int32_t)(sizeof k_retarget / sizeof k_retarget[0])};

const ak_param_table *ak_retarget_param_ranges(void)
{
    return &k_retarget_table;
}

/* Every transform finite with a unit rotation. */
static int pose_ok(const ak_xform *pose, int32_t n)
{
    for (int32_t j = 0; j < n; ++j)
        if (!akv_finite(pose[j].translation) || !akq_is_unit(pose[j].rotation)) return 0;
    return 1;
}

int32_t ak_retarget_validate(const ak_retarget_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null retarget params");
    if (!p->source || !p->target)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "retarget needs a source and a target skeleton");
    if (p->source_clip && p->source_clip->joint_count != p->source->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "source clip has %d joints, its skeleton %d",
                            (int)p->source_clip->joint_count, (int)p->source->joint_count);
    if (!isfinite(p->scale) || p->scale <= 0.0f)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "scale must be finite and > 0");
    if (!isfinite(p->fade_time) || p->fade_time < 0.0f)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "fade_time must be finite and >= 0");
    if (isinf(p->floor_height))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "floor_height must be finite or NaN");
    if (!isfinite(p->source_metres_per_unit) || p->source_metres_per_unit < 0.0f)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "source_metres_per_unit must be >= 0");
    if (p->reference_frame < -1 ||
        (p->reference_frame >= 0 &&
         (!p->source_clip || p->reference_frame >= p->source_clip->frame_count)))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "reference_frame %d is not a frame of the source clip",
                            (int)p->reference_frame);
    if (p->reference_pose && p->reference_frame >= 0)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "give reference_frame or reference_pose, not both");
    if (p->reference_pose && !pose_ok(p->reference_pose, p->source->joint_count))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "reference_pose holds a non-finite or non-unit transform");
    if ((p->stance_left == NULL) != (p->stance_right == NULL))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "give stance flags for both feet or neither");
    if (ak_params_check(ak_retarget_param_ranges(), p, err) != AK_OK) return AK_ERR_INVALID_ARG;
    if (check_map(p->source_map, p->source, "source", err) < 0 ||
        check_map(p->target_map, p->target, "target", err) < 0)
        return AK_ERR_INVALID_ARG;
    ak_humanoid m;
    ak_error why;
    int32_t st;
    if (!p->source_map && (st = ak_humanoid_find(p->source, p->source_overrides, &m, &why)) < 0)
        return ak_error_set(err, st, 0, "source rig: %.200s", why.message);
    if (!p->target_map && (st = ak_humanoid_find(p->target, p->target_overrides, &m, &why)) < 0)
        return ak_error_set(err, st, 0, "target rig: %.200s", why.message);
    ak_error_clear(err);
    return AK_OK;
}

/* Next slots a segment may end on, nearest first; -1 ends a list. */
static const int8_t k_successors[AK_HUM_SLOT_COUNT][4] = {
    [AK_HUM_HIPS] = {-1},
    [AK_HUM_SPINE] = {AK_HUM_CHEST, AK_HUM_NECK, AK_HUM_HEAD, -1},
    [AK_HUM_CHEST] = {AK_HUM_NECK, AK_HUM_HEAD, -1},
    [AK_HUM_NECK] = {AK_HUM_HEAD, -1},
    [AK_HUM_HEAD] = {-1},
    [AK_HUM_LEFT_UPPER_LEG] = {AK_HUM_LEFT_LOWER_LEG, -1},
    [AK_HUM_LEFT_LOWER_LEG] = {AK_HUM_LEFT_FOOT, -1},
    [AK_HUM_LEFT_FOOT] = {AK_HUM_LEFT_TOE, -1},
    [AK_HUM_LEFT_TOE] = {-1},
    [AK_HUM_RIGHT_UPPER_LEG] = {AK_HUM_RIGHT_LOWER_LEG, -1},
    [AK_HUM_RIGHT_LOWER_LEG] = {AK_HUM_RIGHT_FOOT, -1},
    [AK_HUM_RIGHT_FOOT] = {AK_HUM_RIGHT_TOE, -1},
    [AK_HUM_RIGHT_TOE] = {-1},
    [AK_HUM_LEFT_SHOULDER] = {AK_HUM_LEFT_UPPER_ARM, -1},
    [AK_HUM_LEFT_UPPER_ARM] = {AK_HUM_LEFT_LOWER_ARM, -1},
    [AK_HUM_LEFT_LOWER_ARM] = {AK_HUM_LEFT_HAND, -1},
    [AK_HUM_LEFT_HAND] = {-1},
    [AK_HUM_RIGHT_SHOULDER] = {AK_HUM_RIGHT_UPPER_ARM, -1},
    [AK_HUM_RIGHT_UPPER_ARM] = {AK_HUM_RIGHT_LOWER_ARM, -1},
    [AK_HUM_RIGHT_LOWER_ARM] = {AK_HUM_RIGHT_HAND, -1},
    [AK_HUM_RIGHT_HAND] = {-1},
};

static int descends(const ak_skeleton *s, int32_t j, int32_t ancestor)
{
    return ancestor >= 0 && j > ancestor && j < s->subtree_end[ancestor];
}

/* Both rigs have the slot. */
static int both(const ak_retargeter *rt, int slot)
{
    return rt->src_map.joint[slot] >= 0 && rt->dst_map.joint[slot] >= 0;
}

/* Ankle height above the lowest joint of its own foot subtree in the rest pose, averaged
 * over both feet: the sole height the floor placement uses. */
static float rest_sole(const ak_skeleton *s, const ak_humanoid *m, const ak_xform *rest_w)
{
    float sum = 0.0f;
    for (int side = 0; side < 2; ++side) {
        int32_t f = m->joint[side ? AK_HUM_RIGHT_FOOT : AK_HUM_LEFT_FOOT];
        float lo = rest_w[f].translation.y;
        for (int32_t j = f; j < s->subtree_end[f]; ++j)
            if (rest_w[j].translation.y < lo) lo = rest_w[j].translation.y;
        sum += rest_w[f].translation.y - lo;
    }
    return 0.5f * sum;
}

/* Thigh + shin in the rest pose, averaged over both legs. */
static float rest_leg(const ak_humanoid *m, const ak_xform *rest_w)
{
    float sum = 0.0f;
    for (int side = 0; side < 2; ++side) {
        int base = side ? AK_HUM_RIGHT_UPPER_LEG : AK_HUM_LEFT_UPPER_LEG;
        ak_vec3 h = rest_w[m->joint[base]].translation, k = rest_w[m->joint[base + 1]].translation;
        ak_vec3 a = rest_w[m->joint[base + 2]].translation;
        sum += akv_len(akv_sub(k, h)) + akv_len(akv_sub(a, k));
    }
    return 0.5f * sum;
}

/* The rig's left axis in its rest pose (right hip -> left hip; upper arms, knees as
 * fallbacks when the hips coincide). */
static ak_vec3 rest_left(const ak_humanoid *m, const ak_xform *rest_w)
{
    static const int pairs[3][2] = {{AK_HUM_LEFT_UPPER_LEG, AK_HUM_RIGHT_UPPER_LEG},
                                    {AK_HUM_LEFT_UPPER_ARM, AK_HUM_RIGHT_UPPER_ARM},
                                    {AK_HUM_LEFT_LOWER_LEG, AK_HUM_RIGHT_LOWER_LEG}};
    for (int i = 0; i < 3; ++i) {
        int32_t l = m->joint[pairs[i][0]], r = m->joint[pairs[i][1]];
        if (l < 0 || r < 0) continue;
        ak_vec3 d = akv_sub(rest_w[l].translation, rest_w[r].translation);
        d.y = 0.0f;
        if (akv_len(d) > 1e-6f) return d;
    }
    return ak_vec3_make(1.0f, 0.0f, 0.0f);
}

/* The pelvis's left axis (right hip -> left hip, not flattened: a pelvis tilted in the
 * reference pose keeps its tilt), else rest_left's. */
static ak_vec3 pelvis_left(const ak_humanoid *m, const ak_xform *w)
{
    ak_vec3 d = akv_sub(w[m->joint[AK_HUM_LEFT_UPPER_LEG]].translation,
                        w[m->joint[AK_HUM_RIGHT_UPPER_LEG]].translation);
    return akv_len(d) > 1e-6f ? d : rest_left(m, w);
}

/* Heading of a rig facing left x up: forward = left x Y = (-left.z, 0, left.x). */
static float rest_heading(ak_vec3 left)
{
    return atan2f(-left.z, left.x);
}

/* A point of the rest pose that is "up the body" from the hips: the first spine slot both
 * rigs have; returns the slot or -1. */
static int up_slot(const ak_retargeter *rt)
{
    static const int order[4] = {AK_HUM_SPINE, AK_HUM_CHEST, AK_HUM_NECK, AK_HUM_HEAD};
    for (int i = 0; i < 4; ++i)
        if (both(rt, order[i])) return order[i];
    return -1;
}

static ak_vec3 hip_mid(const ak_humanoid *m, const ak_xform *w)
{
    return akv_scale(akv_add(w[m->joint[AK_HUM_LEFT_UPPER_LEG]].translation,
                             w[m->joint[AK_HUM_RIGHT_UPPER_LEG]].translation),
                     0.5f);
}

/* Hip midpoint -> the joint toward slot `up` that hangs on the hips itself (rigid with the
 * pelvis, so a back bent in the reference pose does not tilt it), or -> the slot's joint
 * when that one sits on the hip line. */
static ak_vec3 pelvis_up(const ak_skeleton *s, const ak_humanoid *m, int up, const ak_xform *w)
{
    const int32_t hips = m->joint[AK_HUM_HIPS];
    const ak_vec3 mid = hip_mid(m, w);
    int32_t j = m->joint[up];
    while (j >= 0 && s->parents[j] != hips)
        j = s->parents[j];
    if (j >= 0) {
        ak_vec3 v = akv_sub(w[j].translation, mid);
        ak_vec3 l = akv_sub(w[m->joint[AK_HUM_LEFT_UPPER_LEG]].translation,
                            w[m->joint[AK_HUM_RIGHT_UPPER_LEG]].translation);
        ak_vec3 n = akv_cross(v, l);
        if (akv_dot(n, n) > 1e-6f * akv_dot(v, v) * akv_dot(l, l)) return v;
    }
    return akv_sub(w[m->joint[up]].translation, mid);
}

/* The source's pelvis left axis (pelvis_left) in its hips joint's own frame, summed over the
 * frames of clip c (a reference frame 0 left out) into rt->src_pelvis_left: the joints
 * between the hips and the thighs (CMU's LHipJoint) turn a degree or three with every frame,
 * so the axis measured on the one reference pose tilted the whole body by that pose's turn
 * (1.2 cm at the hands between 16_11's zero pose and its X-along variant's reference frame);
 * held in the hips' frame over the motion it is the same whichever frame is the reference.
 * (The up axis is already rigid with the hips: pelvis_up.) No clip, or thighs hanging on the
 * hips themselves: the reference pose's. */
static void measure_pelvis(ak_retargeter *rt, const ak_clip *c)
{
    const ak_skeleton *s = rt->src;
    const int32_t hips = rt->src_map.joint[AK_HUM_HIPS];
    const int32_t thigh[2] = {rt->src_map.joint[AK_HUM_LEFT_UPPER_LEG],
                              rt->src_map.joint[AK_HUM_RIGHT_UPPER_LEG]};
    rt->has_src_pelvis = 0;
    if (!c || c->frame_count < 1 || (s->parents[thigh[0]] == hips && s->parents[thigh[1]] == hips))
        return; /* thighs on the hips: the axis is rigid with them in every pose */
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count * 2);
    if (!local) return; /* the reference pose's axis */
    ak_xform *w = local + s->joint_count;
    ak_vec3 sum = {0.0f, 0.0f, 0.0f};
    for (int32_t f = ak_clip_first_frame_is_reference(c); f < c->frame_count; ++f) {
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, w);
        sum = akv_add(sum, akq_rotate(akq_conj(w[hips].rotation), pelvis_left(&rt->src_map, w)));
    }
    free(local);
    rt->src_pelvis_left = sum;
    rt->has_src_pelvis = akv_len(sum) > 1e-9f;
}

/* Rest offset of the hips: the rotation taking the target's rest pelvis frame (left axis,
 * up toward the spine) onto the source's (its left axis measure_pelvis's, in the reference's
 * hips frame), after R_align. Two swings: the left axes, then about the left axis the up
 * directions. */
static ak_quat hips_offset(const ak_retargeter *rt, const ak_xform *rs, const ak_xform *rd)
{
    const ak_quat hips = rs[rt->src_map.joint[AK_HUM_HIPS]].rotation;
    ak_vec3 ls = akq_rotate(rt->yaw, rt->has_src_pelvis ? akq_rotate(hips, rt->src_pelvis_left)
                                                        : pelvis_left(&rt->src_map, rs)),
            ld = pelvis_left(&rt->dst_map, rd);
    ak_quat a1 = ak_quat_from_to(ld, ls);
    int up = up_slot(rt);
    if (up < 0) return a1;
    ak_vec3 us = akq_rotate(rt->yaw, pelvis_up(rt->src, &rt->src_map, up, rs));
    ak_vec3 ud = akq_rotate(a1, pelvis_up(rt->dst, &rt->dst_map, up, rd));
    ak_vec3 axis = ak_vec3_normalize_or(ls, ak_vec3_make(1, 0, 0));
    us = akv_sub(us, akv_scale(axis, akv_dot(us, axis)));
    ud = akv_sub(ud, akv_scale(axis, akv_dot(ud, axis)));
    if (akv_len(us) < 1e-9f || akv_len(ud) < 1e-9f) return a1;
    return akq_normalize(akq_mul(ak_quat_from_to(ud, us), a1));
}

/* Which target joint each source joint drives: slots both maps have, then equal names
 * (not above the hips, whose joints stay at rest so the hips placement is exact). */
static void assign_sources(ak_retargeter *rt)
{
    const ak_skeleton *s = rt->src, *d = rt->dst;
    uint8_t *used = rt->kind; /* borrowed as a scratch flag per target joint */
    memset(used, 0, (size_t)d->joint_count);
    for (int32_t j = 0; j < d->joint_count; ++j)
        rt->src_of[j] = -1;
    for (int slot = 0; slot < AK_HUM_SLOT_COUNT; ++slot)
        if (both(rt, slot)) rt->src_of[rt->dst_map.joint[slot]] = rt->src_map.joint[slot];
    int32_t sh = rt->src_map.joint[AK_HUM_HIPS], dh = rt->dst_map.joint[AK_HUM_HIPS];
    for (int32_t j = 0; j < d->joint_count; ++j) {
        if (rt->src_of[j] >= 0 || !descends(d, j, dh)) continue;
        int32_t sj = ak_skeleton_find(s, d->names[j]);
        if (sj < 0 || !descends(s, sj, sh)) continue;
        int taken = 0;
        for (int slot = 0; slot < AK_HUM_SLOT_COUNT; ++slot)
            if (rt->src_map.joint[slot] == sj) taken = 1;
        if (!taken) rt->src_of[j] = sj;
    }
}

/* Humanoid slot of target joint j (both rigs have it), or -1. */
static int dst_slot(const ak_retargeter *rt, int32_t j)
{
    for (int slot = 0; slot < AK_HUM_SLOT_COUNT; ++slot)
        if (rt->dst_map.joint[slot] == j && rt->src_map.joint[slot] >= 0) return slot;
    return -1;
}

/* Joints between a and b share their rotation when they bend with the body: along the spine
 * and neck (b a spine slot) or inside a limb (b the next slot of a's limb: twist joints).
 * Joints between the hips and a thigh or the chest and a shoulder (CMU's LHipJoint, collar
 * helpers) are part of the pelvis/ribcage and stay rigid with their parent. */
static int chain_bends(const ak_retargeter *rt, int32_t a, int32_t b)
{
    int sa = dst_slot(rt, a), sb = dst_slot(rt, b);
    if (sb == AK_HUM_SPINE || sb == AK_HUM_CHEST || sb == AK_HUM_NECK || sb == AK_HUM_HEAD)
        return 1;
    if (sa < 0 || sb < 0) return 0;
    return sa != AK_HUM_HIPS && sa != AK_HUM_CHEST && sa != AK_HUM_SPINE && sb == sa + 1;
}

/* Joint kinds: mapped; chain (strictly between a mapped joint and its nearest mapped
 * ancestor, where the body bends: shares their rotation); rest (everything else). */
static void assign_kinds(ak_retargeter *rt)
{
    const ak_skeleton *d = rt->dst;
    for (int32_t j = 0; j < d->joint_count; ++j)
        rt->kind[j] = rt->src_of[j] >= 0 ? AKR_MAPPED : AKR_REST;
    for (int32_t b = 0; b < d->joint_count; ++b) {
        if (rt->kind[b] != AKR_MAPPED) continue;
        int32_t n = 0, a = d->parents[b];
        while (a >= 0 && rt->kind[a] != AKR_MAPPED) {
            ++n;
            a = d->parents[a];
        }
        if (a < 0 || n == 0 || !chain_bends(rt, a, b)) continue;
        int32_t x = d->parents[b], i = n;
        for (; x != a; x = d->parents[x], --i) {
            if (rt->kind[x] != AKR_REST) continue; /* claimed by an earlier chain */
            rt->kind[x] = AKR_CHAIN;
            rt->chain_a[x] = a;
            rt->chain_b[x] = b;
            rt->chain_t[x] = (float)i / (float)(n + 1);
        }
    }
}

/* Mapped segments (slot -> its nearest successor both rigs have), in slot order, and the
 * rest offset A_j of the joint each starts from. */
/* First child of joint j, or -1. */
static int32_t first_child(const ak_skeleton *s, int32_t j)
{
    return j + 1 < s->subtree_end[j] ? j + 1 : -1;
}

/* offset[a] = the rotation taking the target's rest direction dir_d onto the source's dir_s
 * (source rest, before R_align); `heading` aligns the directions' headings only (pitch kept). */
static void align_offset(ak_retargeter *rt, int32_t a, ak_vec3 dir_s, ak_vec3 dir_d, int heading,
                         ak_quat *offset, uint8_t *has)
{
    dir_s = akq_rotate(rt->yaw, dir_s);
    if (heading) dir_s.y = dir_d.y = 0.0f;
    if (akv_len(dir_s) < 1e-9f || akv_len(dir_d) < 1e-9f) return;
    offset[a] = ak_quat_from_to(dir_d, dir_s);
    if (has) has[a] = 1;
}

/* Rest offset of a foot: the heading of its rest foot bone (to the toe, or to its first
 * child on rigs without toes) turned onto the source's, pitch kept (see build_segments). */
static void foot_offset(ak_retargeter *rt, int slot, const ak_xform *rs, const ak_xform *rd,
                        ak_quat *offset, uint8_t *has)
{
    int toe = slot == AK_HUM_LEFT_FOOT ? AK_HUM_LEFT_TOE : AK_HUM_RIGHT_TOE;
    int32_t a = rt->dst_map.joint[slot], sa = rt->src_map.joint[slot];
    int32_t b = both(rt, toe) ? rt->dst_map.joint[toe] : first_child(rt->dst, a);
    int32_t sb = both(rt, toe) ? rt->src_map.joint[toe] : first_child(rt->src, sa);
    if (b < 0 || sb < 0) return;
    align_offset(rt, a, akv_sub(rs[sb].translation, rs[sa].translation),
                 akv_sub(rd[b].translation, rd[a].translation), 1, offset, has);
}

/* Joint j to the mean of its children in a rest pose (zero: none, or they sit on j). */
static ak_vec3 children_direction(const ak_skeleton *s, int32_t j, const ak_xform *w)
{
    ak_vec3 sum = {0.0f, 0.0f, 0.0f};
    for (int32_t k = j + 1; k < s->subtree_end[j]; ++k)
        if (s->parents[k] == j) sum = akv_add(sum, akv_sub(w[k].translation, w[j].translation));
    return sum;
}

/* The direction a tip joint's bone points in a rest pose: to the mean of its children, or,
 * where they sit on it (CMU 16_11's head End Site: a zero offset), along the axis of the
 * joint's own frame (`frame`: its rotation, the reference's when the source was re-rested)
 * nearest its parent's bone (the head continues the neck). A rig puts each bone along an axis
 * of its frame; that axis turns with the joint, so the tip points the same way whichever
 * standing pose is the reference. Taking the parent segment's offset instead copied the
 * reference's head bend into every frame: 3.9 % of the height between 16_11's zero pose and
 * its X-along variant's reference frame. Zero: no parent bone either. */
static ak_vec3 tip_direction(const ak_skeleton *s, int32_t j, const ak_xform *w, ak_quat frame)
{
    const ak_vec3 own = children_direction(s, j, w);
    if (akv_len(own) > 1e-6f) return own;
    int32_t p = s->parents[j];
    while (p >= 0 && akv_len(akv_sub(w[j].translation, w[p].translation)) < 1e-6f)
        p = s->parents[p];
    if (p < 0) return own;
    const ak_vec3 bone = akv_sub(w[j].translation, w[p].translation);
    ak_vec3 best = own;
    float best_dot = 0.0f;
    for (int k = 0; k < 6; ++k) {
        const float sign = k < 3 ? 1.0f : -1.0f;
        const ak_vec3 e =
            akv_make(k % 3 == 0 ? sign : 0.0f, k % 3 == 1 ? sign : 0.0f, k % 3 == 2 ? sign : 0.0f);
        const ak_vec3 axis = akq_rotate(frame, e);
        if (akv_dot(axis, bone) > best_dot) {
            best_dot = akv_dot(axis, bone);
            best = axis;
        }
    }
    return best;
}

/* Rest offset of the head or a toe, slots that end the map: the rotation taking the target's
 * tip direction onto the source's (tip_direction; a toe: its heading, pitch kept as a
 * foot's), so the tip points where the source's does whatever pose the reference holds the
 * joint in. Inheriting the parent segment's offset copied the reference's head pitch into
 * every frame: 6 % of the height between two standing references of one capture. Hands keep
 * their forearm's: a hand's end site is a marker that points anywhere (Arena's hangs down, 90
 * degrees off the forearm, and a CMU hand followed it through a right angle). */
static void tip_offset(ak_retargeter *rt, int slot, const ak_xform *rs, const ak_xform *rd,
                       ak_quat *offset, uint8_t *has)
{
    int32_t a = rt->dst_map.joint[slot], sa = rt->src_map.joint[slot];
    const int toe = slot == AK_HUM_LEFT_TOE || slot == AK_HUM_RIGHT_TOE;
    const ak_quat src_frame =
        rt->src_ref_rot ? akq_mul(rt->src_ref_rot[sa], rs[sa].rotation) : rs[sa].rotation;
    align_offset(rt, a, tip_direction(rt->src, sa, rs, src_frame),
                 tip_direction(rt->dst, a, rd, rd[a].rotation), toe, offset, has);
}

/* The joint a segment sa -> sb of rig s points at: sb, or where sb sits on sa (CMU's Neck
 * on its Spine1: a zero offset), the first joint below sb on the way to `toward` (a later
 * slot's joint) that does not. Without it the target's chest took its parent segment's
 * offset and leaned as the reference pose's chest did, 1.3 % of the height at the neck. */
static int32_t segment_end(const ak_skeleton *s, const ak_xform *rs, int32_t sa, int32_t sb,
                           int32_t toward)
{
    while (toward > sb && toward < s->subtree_end[sb] &&
           akv_len(akv_sub(rs[sb].translation, rs[sa].translation)) < 1e-6f) {
        int32_t c = toward;
        while (s->parents[c] != sb)
            c = s->parents[c];
        sb = c;
    }
    return sb;
}

/* In map m, the joint of the first slot after successor i of `slot` both rigs have, or -1. */
static int32_t later_joint(const ak_retargeter *rt, const ak_humanoid *m, int slot, int i)
{
    for (int k = i + 1; k_successors[slot][k] >= 0; ++k)
        if (both(rt, k_successors[slot][k])) return m->joint[k_successors[slot][k]];
    return -1;
}

/* The segment from `slot` to its nearest successor both rigs have. A segment that ends on a
 * joint sitting on its parent (CMU's Neck on its Spine1) is carried on to the next joint
 * that does not (segment_end: the chest follows Spine1 -> Neck1, a direction of the capture,
 * not the reference pose's chest twist); on the target that joint starts the next segment's
 * swing (turn[next]), so the two segments never swing one joint. */
static void add_segment(ak_retargeter *rt, int slot, const ak_xform *rs, const ak_xform *rd,
                        ak_quat *offset, uint8_t *has, int32_t *turn)
{
    const int32_t a = rt->dst_map.joint[slot], sa = rt->src_map.joint[slot];
    for (int i = 0; k_successors[slot][i] >= 0; ++i) {
        int next = k_successors[slot][i];
        if (!both(rt, next)) continue;
        int32_t b = rt->dst_map.joint[next], sb = rt->src_map.joint[next];
        if (!descends(rt->dst, b, a) || !descends(rt->src, sb, sa)) break;
        sb = segment_end(rt->src, rs, sa, sb, later_joint(rt, &rt->src_map, slot, i));
        b = segment_end(rt->dst, rd, a, b, later_joint(rt, &rt->dst_map, slot, i));
        ak_vec3 dir_s = akq_rotate(rt->yaw, akv_sub(rs[sb].translation, rs[sa].translation));
        ak_vec3 dir_d = akv_sub(rd[b].translation, rd[a].translation);
        if (akv_len(dir_s) < 1e-9f || akv_len(dir_d) < 1e-9f) break;
        if (b != rt->dst_map.joint[next]) turn[next] = b;
        if (has) has[a] = 1;
        offset[a] = ak_quat_from_to(dir_d, dir_s);
        akr_segment *sg = &rt->segments[rt->segment_count++];
        sg->a = a;
        sg->b = b;
        sg->sa = sa;
        sg->sb = sb;
        sg->turn = turn[slot] >= 0 && descends(rt->dst, b, turn[slot]) ? turn[slot] : a;
        break;
    }
}

static void build_segments(ak_retargeter *rt, const ak_xform *rs, const ak_xform *rd,
                           ak_quat *offset, uint8_t *has)
{
    int32_t turn[AK_HUM_SLOT_COUNT];
    for (int slot = 0; slot < AK_HUM_SLOT_COUNT; ++slot)
        turn[slot] = -1;
    rt->segment_count = 0;
    for (int slot = 1; slot < AK_HUM_SLOT_COUNT; ++slot) {
        if (!both(rt, slot)) continue;
        if (slot == AK_HUM_LEFT_FOOT || slot == AK_HUM_RIGHT_FOOT) {
            /* Feet: where a rig puts its ankle and ball sets the rest pitch of its foot bone
             * (CMU's points 14 degrees down, the biped's 27), so equal world directions would
             * push one foot through the floor. Rest feet stand flat: align their headings
             * only; the foot then turns from its rest as the source's foot turns from its own. */
            foot_offset(rt, slot, rs, rd, offset, has);
        } else if (slot == AK_HUM_HEAD || slot == AK_HUM_LEFT_TOE || slot == AK_HUM_RIGHT_TOE) {
            tip_offset(rt, slot, rs, rd, offset, has);
        } else {
            add_segment(rt, slot, rs, rd, offset, has, turn);
        }
    }
}

/* Per mapped joint: offset = Wrest_s^-1 R_align^-1 A_j Wrest_d, so that per frame
 * W_d = R_align W_s offset. Joints without a segment inherit A from the nearest mapped
 * ancestor that has one (a hand turns with its forearm's rest offset). */
static void build_offsets(ak_retargeter *rt, const ak_xform *rs, const ak_xform *rd, ak_quat *a_off)
{
    const ak_skeleton *d = rt->dst;
    uint8_t *has = (uint8_t *)calloc(d->joint_count > 0 ? (size_t)d->joint_count : 1u, 1);
    for (int32_t j = 0; j < d->joint_count; ++j)
        a_off[j] = ak_quat_identity();
    a_off[rt->dst_map.joint[AK_HUM_HIPS]] = hips_offset(rt, rs, rd);
    if (has) has[rt->dst_map.joint[AK_HUM_HIPS]] = 1;
    build_segments(rt, rs, rd, a_off, has);
    for (int32_t j = 0; j < d->joint_count; ++j) {
        if (has && !has[j] && d->parents[j] >= 0) {
            int32_t p = d->parents[j];
            if (has[p]) {
                a_off[j] = a_off[p];
                has[j] = 1;
            }
        }
        if (rt->kind[j] != AKR_MAPPED) continue;
        int32_t s = rt->src_of[j];
        ak_quat q = akq_mul(akq_conj(rs[s].rotation), akq_conj(rt->yaw));
        rt->offset[j] = akq_normalize(akq_mul(q, akq_mul(a_off[j], rd[j].rotation)));
    }
    free(has);
}

/* Proportions, soles, heading and the hips placement constants. */
static void build_placement(ak_retargeter *rt, const ak_retarget_params *p, const ak_xform *rs,
                            const ak_xform *rd)
{
    ak_retarget_info *in = &rt->info;
    float ls = rest_leg(&rt->src_map, rs), ld = rest_leg(&rt->dst_map, rd);
    in->leg_ratio = (ls > 1e-9f && ld > 1e-9f) ? ld / ls : 1.0f;
    in->scale = rt->k = in->leg_ratio * p->scale;
    in->heading_offset =
        rest_heading(rest_left(&rt->dst_map, rd)) - rest_heading(rest_left(&rt->src_map, rs));
    rt->yaw = ak_quat_yaw(in->heading_offset);
    in->source_sole = rest_sole(rt->src, &rt->src_map, rs);
    in->target_sole = rest_sole(rt->dst, &rt->dst_map, rd);
    rt->y_offset = in->target_sole - rt->k * in->source_sole;
    int32_t h = rt->dst_map.joint[AK_HUM_HIPS], hp = rt->dst->parents[h];
    rt->hips_parent_inv = hp >= 0 ? akx_inverse(rd[hp]) : ak_xform_identity();
}

int32_t akr_set_floor(ak_retargeter *rt, float source_floor, float target_floor)
{
    rt->info.source_floor = source_floor;
    if (isfinite(target_floor) && isfinite(source_floor)) {
        rt->y_offset =
            target_floor + rt->info.target_sole - rt->k * (source_floor + rt->info.source_sole);
    }
    rt->info.target_floor = isfinite(source_floor)
                                ? rt->k * source_floor + rt->y_offset - rt->info.target_sole +
                                      rt->k * rt->info.source_sole
                                : NAN;
    return AK_OK;
}

static int32_t alloc_retargeter(const ak_skeleton *s, const ak_skeleton *d, ak_retargeter **out)
{
    *out = NULL;
    if (s->joint_count < 1 || d->joint_count < 1) return AK_ERR_INVALID_ARG;
    ak_retargeter *rt = (ak_retargeter *)calloc(1, sizeof *rt);
    if (!rt) return AK_ERR_NOMEM;
    size_t nd = (size_t)d->joint_count, ns = (size_t)s->joint_count;
    rt->src_of = (int32_t *)malloc(nd * sizeof(int32_t));
    rt->chain_a = (int32_t *)malloc(nd * sizeof(int32_t));
    rt->chain_b = (int32_t *)malloc(nd * sizeof(int32_t));
    rt->chain_t = (float *)malloc(nd * sizeof(float));
    rt->kind = (uint8_t *)malloc(nd);
    rt->offset = (ak_quat *)malloc(nd * sizeof(ak_quat));
    rt->rest_world = (ak_quat *)malloc(nd * sizeof(ak_quat));
    rt->w = (ak_quat *)malloc(nd * sizeof(ak_quat));
    rt->src_world = (ak_xform *)malloc(ns * sizeof(ak_xform));
    *out = rt;
    if (!rt->src_of || !rt->chain_a || !rt->chain_b || !rt->chain_t || !rt->kind || !rt->offset ||
        !rt->rest_world || !rt->w || !rt->src_world)
        return AK_ERR_NOMEM;
    for (size_t j = 0; j < nd; ++j) {
        rt->chain_a[j] = rt->chain_b[j] = -1;
        rt->chain_t[j] = 0.0f;
    }
    return AK_OK;
}

static int32_t fill_retargeter(ak_retargeter *rt, const ak_retarget_params *p, ak_error *err)
{
    const ak_skeleton *s = p->source, *d = p->target;
    ak_xform *rs = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    ak_xform *rd = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)d->joint_count);
    ak_quat *a_off = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)d->joint_count);
    if (!rs || !rd || !a_off) {
        free(rs);
        free(rd);
        free(a_off);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory preparing the retarget");
    }
    ak_fk(s, s->rest_local, rs);
    ak_fk(d, d->rest_local, rd);
    /* Legs of zero length give no proportion to scale by (it used to say "leg ratio 1"). */
    const float ls = rest_leg(&rt->src_map, rs), ld = rest_leg(&rt->dst_map, rd);
    if (!(ls > 1e-9f) || !(ld > 1e-9f)) {
        free(rs);
        free(rd);
        free(a_off);
        return ak_error_set(err, AK_ERR_DEGENERATE, 0,
                            "the %s rig's legs have zero length in its rest pose (hip, knee and "
                            "ankle at one point): no proportion to retarget by",
                            !(ls > 1e-9f) ? "source" : "target");
    }
    build_placement(rt, p, rs, rd);
    measure_pelvis(rt, p->source_clip);
    assign_sources(rt);
    assign_kinds(rt);
    build_offsets(rt, rs, rd, a_off);
    for (int32_t j = 0; j < d->joint_count; ++j) {
        rt->rest_world[j] = rd[j].rotation;
        rt->info.mapped_joints += rt->kind[j] == AKR_MAPPED;
        rt->info.chain_joints += rt->kind[j] == AKR_CHAIN;
        rt->info.rest_joints += rt->kind[j] == AKR_REST;
    }
    rt->info.source_floor = NAN;
    rt->info.target_floor = NAN;
    for (int i = 0; i < 2; ++i) /* measured by ak_retarget_run only */
        rt->info.stance_foot_height[i] = rt->info.source_stance_foot_height[i] = -INFINITY;
    rt->info.reference_frame = -1;
    free(rs);
    free(rd);
    free(a_off);
    return AK_OK;
}

int32_t ak_retargeter_create(const ak_retarget_params *p, ak_retargeter **out, ak_error *err)
{
    return akr_retargeter_create(p, 1, NULL, out, err);
}

/* The source re-rested on its reference pose (akr_reference_source; its clip copy is kept
 * while the mapping is built, then freed: poses come in on the source) and the params the
 * mapping is built from. */
static int32_t choose_reference(ak_retargeter *rt, const ak_retarget_params *p,
                                ak_retarget_params *q, ak_error *err)
{
    *q = *p;
    const int32_t st = akr_reference_source(p, &rt->src_map, &rt->rested, err);
    if (st < 0) return st;
    if (rt->rested.skeleton) {
        q->source = rt->rested.skeleton;
        q->source_clip = rt->rested.clip;
    }
    return AK_OK;
}

int32_t akr_retargeter_create(const ak_retarget_params *p, int pick_reference,
                              const ak_quat *ref_rot, ak_retargeter **out, ak_error *err)
{
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    *out = NULL;
    int32_t st = ak_retarget_validate(p, err);
    if (st < 0) return st;
    ak_retargeter *rt = NULL;
    if (alloc_retargeter(p->source, p->target, &rt) < 0) {
        ak_retargeter_destroy(rt);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory preparing the retarget");
    }
    rt->src = p->source;
    rt->dst = p->target;
    if (p->source_map)
        rt->src_map = *p->source_map;
    else
        ak_humanoid_find(p->source, p->source_overrides, &rt->src_map, NULL);
    if (p->target_map)
        rt->dst_map = *p->target_map;
    else
        ak_humanoid_find(p->target, p->target_overrides, &rt->dst_map, NULL);
    ak_retarget_params q = *p;
    rt->rested.frame = -1;
    if (pick_reference && (st = choose_reference(rt, p, &q, err)) < 0) {
        ak_retargeter_destroy(rt);
        return st;
    }
    rt->src_ref_rot = pick_reference ? rt->rested.ref_rot : ref_rot;
    rt->src = q.source; /* the mapping is built on the reference */
    st = fill_retargeter(rt, &q, err);
    rt->src_ref_rot = NULL; /* read while building only */
    ak_clip_destroy(rt->rested.clip);
    rt->rested.clip = NULL;
    rt->src = p->source; /* poses come in on the source */
    if (st < 0) {
        ak_retargeter_destroy(rt);
        return st;
    }
    rt->info.reference_frame = rt->rested.frame;
    *out = rt;
    ak_error_clear(err);
    return AK_OK;
}

void ak_retargeter_destroy(ak_retargeter *rt)
{
    if (!rt) return;
    free(rt->src_of);
    free(rt->chain_a);
    free(rt->chain_b);
    free(rt->chain_t);
    free(rt->kind);
    free(rt->offset);
    free(rt->rest_world);
    free(rt->w);
    free(rt->src_world);
    akr_rested_free(&rt->rested);
    free(rt);
}

void ak_retargeter_get_info(const ak_retargeter *rt, ak_retarget_info *info)
{
    if (rt && info) *info = rt->info;
}

int32_t ak_retargeter_source_joint(const ak_retargeter *rt, int32_t j)
{
    if (!rt || j < 0 || j >= rt->dst->joint_count) return -1;
    return rt->src_of[j];
}
