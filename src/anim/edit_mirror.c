/* Motion editing, part 3: mirror left <-> right through the sagittal plane.
 *
 * Reflection M through the plane with normal axis a (M = identity with -1 at a). A rotation
 * R becomes M R M: for a rotation by theta about u that is a rotation by -theta about M u, so
 * the quaternion (v, w) becomes (-M v, w): the component along a is kept, the other two are
 * negated. BVH rest rotations are identity, so every joint frame is parallel to the model
 * frame at rest and the same rule holds for local keys. Translations become M t. */
#include "anim/edit_internal.h"
#include "core/humanoid_internal.h"
#include "core/xform_inline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

ak_edit_mirror_params ak_edit_mirror_defaults(void)
{
    ak_edit_mirror_params p = {-1, NULL};
    return p;
}

int32_t ak_edit_mirror_validate(const ak_edit_mirror_params *p, const ak_skeleton *s, ak_error *err)
{
    if (!p || !s) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params or skeleton");
    if (p->axis < -1 || p->axis > 2)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "axis must be -1 (from the rig), 0, 1 or 2");
    return AK_OK;
}

/* Pairs joints with the same base name on opposite sides ("LeftArm"/"RightArm"). */
static void pair_by_name(const ak_skeleton *s, int32_t *partner)
{
    const int32_t n = s->joint_count;
    for (int32_t j = 0; j < n; ++j)
        partner[j] = j;
    char base_j[AK_NAME_MAX], base_k[AK_NAME_MAX];
    for (int32_t j = 0; j < n; ++j) {
        if (s->is_end_site[j] || ak_humanoid_name_side(s->names[j], base_j) != 1) continue;
        for (int32_t k = 0; k < n; ++k) {
            if (s->is_end_site[k] || partner[k] != k) continue;
            if (ak_humanoid_name_side(s->names[k], base_k) == 2 && strcmp(base_j, base_k) == 0) {
                partner[j] = k;
                partner[k] = j;
                break;
            }
        }
    }
}

/* The humanoid map's left/right slots (with overrides) win over the names. */
static int32_t pair_by_humanoid(const ak_skeleton *s, const char *overrides, ak_humanoid *h,
                                int32_t *partner, ak_error *herr, ak_error *err)
{
    const int32_t st = ak_humanoid_find(s, overrides, h, herr);
    if (st != AK_OK && st != AK_ERR_NOT_FOUND) {
        if (err) *err = *herr;
        return st;
    }
    static const int pairs[][2] = {{AK_HUM_LEFT_UPPER_LEG, AK_HUM_RIGHT_UPPER_LEG},
                                   {AK_HUM_LEFT_LOWER_LEG, AK_HUM_RIGHT_LOWER_LEG},
                                   {AK_HUM_LEFT_FOOT, AK_HUM_RIGHT_FOOT},
                                   {AK_HUM_LEFT_TOE, AK_HUM_RIGHT_TOE},
                                   {AK_HUM_LEFT_SHOULDER, AK_HUM_RIGHT_SHOULDER},
                                   {AK_HUM_LEFT_UPPER_ARM, AK_HUM_RIGHT_UPPER_ARM},
                                   {AK_HUM_LEFT_LOWER_ARM, AK_HUM_RIGHT_LOWER_ARM},
                                   {AK_HUM_LEFT_HAND, AK_HUM_RIGHT_HAND}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) {
        const int32_t l = h->joint[pairs[i][0]], r = h->joint[pairs[i][1]];
        if (l < 0 || r < 0 || partner[l] == r) continue;
        partner[partner[l]] = partner[l]; /* release the old partners */
        partner[partner[r]] = partner[r];
        partner[l] = r;
        partner[r] = l;
    }
    return AK_OK;
}

/* End Sites pair through their parents: the k-th End Site child of p pairs with the k-th
 * End Site child of partner(p). */
static void pair_end_sites(const ak_skeleton *s, int32_t *partner)
{
    for (int32_t j = 0; j < s->joint_count; ++j) {
        const int32_t p = s->parents[j];
        if (!s->is_end_site[j] || p < 0 || partner[p] == p) continue;
        int32_t rank = 0;
        for (int32_t k = p + 1; k < j; ++k)
            rank += s->parents[k] == p && s->is_end_site[k];
        const int32_t q = partner[p];
        for (int32_t k = q + 1; k < s->subtree_end[q]; ++k)
            if (s->parents[k] == q && s->is_end_site[k] && rank-- == 0) {
                partner[j] = k;
                break;
            }
    }
}

/* The axis along which the humanoid's left and right upper legs (else upper arms) lie
 * furthest apart in the rest pose; -1 when neither pair is mapped. */
static int32_t axis_from_rig(const ak_skeleton *s, const ak_humanoid *h)
{
    ak_xform *rest = (ak_xform *)malloc(sizeof(ak_xform) * 2 * (size_t)s->joint_count);
    if (!rest) return -1;
    ak_pose_rest(s, rest);
    ak_fk(s, rest, rest + s->joint_count);
    const ak_xform *model = rest + s->joint_count;
    static const int pairs[2][2] = {{AK_HUM_LEFT_UPPER_LEG, AK_HUM_RIGHT_UPPER_LEG},
                                    {AK_HUM_LEFT_UPPER_ARM, AK_HUM_RIGHT_UPPER_ARM}};
    int32_t axis = -1;
    for (int i = 0; i < 2 && axis < 0; ++i) {
        const int32_t l = h->joint[pairs[i][0]], r = h->joint[pairs[i][1]];
        if (l < 0 || r < 0) continue;
        const ak_vec3 d = akv_sub(model[l].translation, model[r].translation);
        const float c[3] = {fabsf(d.x), fabsf(d.y), fabsf(d.z)};
        const int32_t best = c[0] >= c[1] && c[0] >= c[2] ? 0 : (c[1] >= c[2] ? 1 : 2);
        if (c[best] > 0.0f) axis = best;
    }
    free(rest);
    return axis;
}

/* A mirror needs partners whose parents are partners, and position keys on both sides. */
static int32_t check_symmetry(const ak_skeleton *s, const ak_clip *c, const int32_t *partner,
                              ak_error *err)
{
    for (int32_t j = 0; j < s->joint_count; ++j) {
        const int32_t k = partner[j], pj = s->parents[j], pk = s->parents[k];
        if (partner[k] != j || (pj < 0) != (pk < 0) || (pj >= 0 && partner[pj] != pk))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "joints %s and %s mirror each other but their parents do not "
                                "(name the sides with humanoid overrides)",
                                s->names[j], s->names[k]);
        if (c && (c->joint_track[j] < 0) != (c->joint_track[k] < 0))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "%s has position keys but its mirror %s does not", s->names[j],
                                s->names[k]);
    }
    return AK_OK;
}

int32_t ak_edit_mirror_map(const ak_edit_mirror_params *p, const ak_skeleton *s, const ak_clip *c,
                           int32_t *partner, int32_t *axis, ak_error *err)
{
    int32_t st = ak_edit_mirror_validate(p, s, err);
    if (st != AK_OK) return st;
    if (!partner || !axis) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    if (c && c->joint_count != s->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip and skeleton differ in joints");
    ak_humanoid h;
    ak_error herr; /* why the humanoid map is incomplete, for the axis's message */
    ak_error_clear(&herr);
    pair_by_name(s, partner);
    st = pair_by_humanoid(s, p->humanoid_overrides, &h, partner, &herr, err);
    if (st != AK_OK) return st;
    pair_end_sites(s, partner);
    st = check_symmetry(s, c, partner, err);
    if (st != AK_OK) return st;
    *axis = p->axis >= 0 ? p->axis : axis_from_rig(s, &h);
    if (*axis < 0)
        return ak_error_set(err, AK_ERR_NOT_FOUND, 0,
                            "no left/right legs or arms to choose the mirror plane from: set the "
                            "axis (humanoid map: %s)",
                            herr.status != AK_OK ? herr.message : "complete");
    return AK_OK;
}

/* M q M for the reflection with normal `axis`. */
static ak_quat reflect_quat(ak_quat q, int32_t axis)
{
    ak_quat r = {-q.x, -q.y, -q.z, q.w};
    if (axis == 0)
        r.x = q.x;
    else if (axis == 1)
        r.y = q.y;
    else
        r.z = q.z;
    return r;
}

static ak_vec3 reflect_vec(ak_vec3 v, int32_t axis)
{
    if (axis == 0)
        v.x = -v.x;
    else if (axis == 1)
        v.y = -v.y;
    else
        v.z = -v.z;
    return v;
}

int32_t ak_edit_mirror_run(const ak_edit_mirror_params *p, const ak_skeleton *s, const ak_clip *c,
                           ak_clip **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_edit_check_pair(s, c, err);
    if (st != AK_OK) return st;
    int32_t *partner = (int32_t *)malloc(sizeof(int32_t) * (size_t)s->joint_count);
    if (!partner) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    int32_t axis = 0;
    st = ak_edit_mirror_map(p, s, c, partner, &axis, err);
    if (st == AK_OK) st = ak_edit_clip_like(c, c->frame_count, c->frame_time, out, err);
    if (st != AK_OK) {
        free(partner);
        return st;
    }
    ak_clip *o = *out;
    o->loop = c->loop;
    const size_t J = (size_t)c->joint_count, T = (size_t)c->track_count;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        const ak_quat *qi = c->rotations + (size_t)f * J;
        const ak_vec3 *ti = c->translations + (size_t)f * T;
        for (size_t j = 0; j < J; ++j) {
            const int32_t k = partner[j];
            o->rotations[(size_t)f * J + j] = reflect_quat(qi[k], axis);
            if (c->joint_track[j] >= 0)
                o->translations[(size_t)f * T + (size_t)c->joint_track[j]] =
                    reflect_vec(ti[c->joint_track[k]], axis);
        }
    }
    free(partner);
    ak_clip_finalize(o);
    /* an unpaired copy (ik_hand_gun on the right hand) mirrors onto the left hand, and the
     * mirrored feet of an unsymmetric rig land beside their mirrored copies (CMU 02_01 in the
     * UE4 shape: ik_hand_gun 23.6 units from the right hand, ik_foot_l 0.09) */
    return ak_clip_keep_copy_bones(s, c, out, err);
}
