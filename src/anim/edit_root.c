/* Motion editing, part 2: steps that move the root — facing from the rig, root reset, bake
 * root motion, concatenate with a blend. */
#include "anim/edit_internal.h"
#include "core/xform_inline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

float ak_edit_pose_heading(const ak_humanoid *h, const ak_xform *model)
{
    static const int pairs[2][2] = {{AK_HUM_LEFT_UPPER_LEG, AK_HUM_RIGHT_UPPER_LEG},
                                    {AK_HUM_LEFT_UPPER_ARM, AK_HUM_RIGHT_UPPER_ARM}};
    for (int i = 0; i < 2; ++i) {
        const int32_t l = h->joint[pairs[i][0]], r = h->joint[pairs[i][1]];
        if (l < 0 || r < 0) continue;
        /* forward = (left - right) x up, up = +Y: (lx, ly, lz) x (0, 1, 0) = (-lz, 0, lx). */
        const ak_vec3 lateral = akv_sub(model[l].translation, model[r].translation);
        const float fx = -lateral.z, fz = lateral.x;
        if (fx * fx + fz * fz > 1e-12f) return atan2f(fx, fz);
    }
    return ak_heading_of(model[0].rotation, ak_vec3_make(0.0f, 0.0f, 1.0f));
}

int32_t ak_edit_frame_heading(const ak_skeleton *s, const ak_clip *c, int32_t frame,
                              const char *overrides, float *heading, ak_error *err)
{
    ak_humanoid h;
    ak_error herr;
    const int32_t hst = ak_humanoid_find(s, overrides, &h, &herr);
    if (hst != AK_OK && hst != AK_ERR_NOT_FOUND) {
        if (err) *err = herr;
        return hst; /* a bad override, not just a rig without legs */
    }
    ak_xform *buf = (ak_xform *)malloc(sizeof(ak_xform) * 2 * (size_t)s->joint_count);
    if (!buf) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    ak_clip_frame(c, s, frame, buf);
    ak_fk(s, buf, buf + s->joint_count);
    *heading = ak_edit_pose_heading(&h, buf + s->joint_count);
    free(buf);
    return AK_OK;
}

void ak_edit_move_roots(const ak_skeleton *s, ak_clip *c, int32_t first, int32_t end, ak_xform m)
{
    const size_t J = (size_t)c->joint_count, T = (size_t)c->track_count;
    for (int32_t j = 0; j < s->joint_count; ++j) {
        if (s->parents[j] != -1) continue;
        const int32_t tr = c->joint_track[j];
        for (int32_t f = first; f < end; ++f) {
            ak_quat *q = &c->rotations[(size_t)f * J + (size_t)j];
            *q = akq_mul(m.rotation, *q);
            if (tr >= 0) {
                ak_vec3 *t = &c->translations[(size_t)f * T + (size_t)tr];
                *t = ak_xform_point(m, *t);
            }
        }
    }
}

/* Every root joint (parent -1) must carry translation keys for the steps that move roots. */
static int32_t check_root_tracks(const ak_skeleton *s, const ak_clip *c, ak_error *err)
{
    for (int32_t j = 0; j < s->joint_count; ++j)
        if (s->parents[j] == -1 && c->joint_track[j] < 0)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "root joint %s has no translation keys",
                                s->names[j]);
    return AK_OK;
}

/* The rigid ground motion (turn about +Y by `turn`, then shift) taking horizontal point
 * `from` onto horizontal point `to`: x -> yaw(turn) (x - from) + to. */
static ak_xform ground_motion(ak_vec3 from, float turn, ak_vec3 to)
{
    ak_xform m;
    m.rotation = ak_quat_yaw(turn);
    m.translation = akv_sub(to, akq_rotate(m.rotation, from));
    return m;
}

/* ---- Root reset ----------------------------------------------------------------------- */

ak_edit_root_reset_params ak_edit_root_reset_defaults(void)
{
    ak_edit_root_reset_params p = {0, 1, 0, NULL};
    return p;
}

int32_t ak_edit_root_reset_validate(const ak_edit_root_reset_params *p, const ak_skeleton *s,
                                    const ak_clip *c, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params");
    int32_t st = ak_edit_check_pair(s, c, err);
    if (st != AK_OK) return st;
    if (p->frame < 0 || p->frame >= c->frame_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "reference frame %d is outside 0:%d",
                            (int)p->frame, (int)(c->frame_count - 1));
    return check_root_tracks(s, c, err);
}

int32_t ak_edit_root_reset_run(const ak_edit_root_reset_params *p, const ak_skeleton *s,
                               const ak_clip *c, ak_clip **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_edit_root_reset_validate(p, s, c, err);
    if (st != AK_OK) return st;
    float heading = 0.0f;
    if (p->reset_heading) {
        st = ak_edit_frame_heading(s, c, p->frame, p->humanoid_overrides, &heading, err);
        if (st != AK_OK) return st;
    }
    ak_vec3 root =
        c->translations[(size_t)p->frame * (size_t)c->track_count + (size_t)c->joint_track[0]];
    if (!p->reset_height) root.y = 0.0f;
    ak_clip *o = ak_clip_clone(c);
    if (!o) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    ak_edit_move_roots(s, o, 0, o->frame_count,
                       ground_motion(root, -heading, ak_vec3_make(0, 0, 0)));
    ak_clip_finalize(o);
    *out = o;
    return AK_OK;
}

/* ---- Bake root motion ----------------------------------------------------------------- */

ak_edit_bake_root_params ak_edit_bake_root_defaults(void)
{
    ak_edit_bake_root_params p = {NULL, 0};
    return p;
}

int32_t ak_edit_bake_root_validate(const ak_edit_bake_root_params *p, const ak_skeleton *s,
                                   const ak_clip *c, ak_error *err)
{
    if (!p || !p->character)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "no character transforms");
    int32_t st = ak_edit_check_pair(s, c, err);
    if (st != AK_OK) return st;
    if (p->count != c->frame_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%d character transforms for %d frames",
                            (int)p->count, (int)c->frame_count);
    for (int32_t f = 0; f < p->count; ++f) {
        const ak_xform *x = &p->character[f];
        if (!akv_finite(x->translation) ||
            !isfinite(x->rotation.x + x->rotation.y + x->rotation.z + x->rotation.w))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "character transform %d is not finite",
                                (int)f);
    }
    return check_root_tracks(s, c, err);
}

int32_t ak_edit_bake_root_run(const ak_edit_bake_root_params *p, const ak_skeleton *s,
                              const ak_clip *c, ak_clip **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_edit_bake_root_validate(p, s, c, err);
    if (st != AK_OK) return st;
    ak_clip *o = ak_clip_clone(c);
    if (!o) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t f = 0; f < o->frame_count; ++f) {
        ak_xform m = p->character[f];
        m.rotation = ak_quat_normalize(m.rotation);
        ak_edit_move_roots(s, o, f, f + 1, m);
    }
    ak_clip_finalize(o);
    *out = o;
    return AK_OK;
}

/* ---- Concatenate ---------------------------------------------------------------------- */

ak_edit_concat_params ak_edit_concat_defaults(void)
{
    ak_edit_concat_params p = {0.2f, 1, NULL, NULL};
    return p;
}

int32_t ak_edit_concat_validate(const ak_edit_concat_params *p, const ak_clip *a, const ak_clip *b,
                                ak_error *err)
{
    if (!p || !a || !b) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params or clip");
    if (!isfinite(p->blend_time) || p->blend_time < 0.0f || p->blend_time > 1000.0f)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "blend_time must be in [0, 1000] s");
    if (!p->skeleton_b)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "skeleton_b (the skeleton of clip b) is required");
    if (p->skeleton_b->joint_count != b->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip b does not fit skeleton_b");
    if (a->joint_count != b->joint_count || a->track_count != b->track_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "the clips are not of one skeleton");
    for (int32_t j = 0; j < a->joint_count; ++j)
        if ((a->joint_track[j] < 0) != (b->joint_track[j] < 0))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "joint %d has translation keys in one clip only", (int)j);
    if (fabsf(a->frame_time - b->frame_time) > 1e-6f * a->frame_time)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "frame times differ (%g s, %g s): resample one clip first",
                            (double)a->frame_time, (double)b->frame_time);
    if ((int64_t)a->frame_count + b->frame_count > 10000000)
        return ak_error_set(err, AK_ERR_LIMIT, 0, "the joined clip would be too long");
    /* The range table last, after the checks that say more (and their status). */
    return ak_params_check(ak_edit_concat_param_ranges(), p, err);
}

/* Crossfades frames [start, start + n) of `o` (copies of a) toward b's frames 0..n-1 with
 * smoothstep weights w = s^2 (3 - 2 s), s = (i + 1) / (n + 1). */
static void blend_overlap(ak_clip *o, int32_t start, const ak_clip *b, int32_t n)
{
    const size_t J = (size_t)o->joint_count, T = (size_t)o->track_count;
    for (int32_t i = 0; i < n; ++i) {
        const float sfrac = (float)(i + 1) / (float)(n + 1);
        const float w = sfrac * sfrac * (3.0f - 2.0f * sfrac);
        ak_quat *qo = o->rotations + (size_t)(start + i) * J;
        const ak_quat *qb = b->rotations + (size_t)i * J;
        for (size_t j = 0; j < J; ++j)
            qo[j] = ak_quat_slerp(qo[j], qb[j], w);
        ak_vec3 *to = o->translations + (size_t)(start + i) * T;
        const ak_vec3 *tb = b->translations + (size_t)i * T;
        for (size_t k = 0; k < T; ++k)
            to[k] = akv_lerp(to[k], tb[k], w);
    }
}

int32_t ak_edit_concat_run(const ak_edit_concat_params *p, const ak_skeleton *s, const ak_clip *a,
                           const ak_clip *b, ak_clip **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_edit_check_pair(s, a, err);
    if (st == AK_OK) st = ak_edit_concat_validate(p, a, b, err);
    if (st == AK_OK) st = ak_skeleton_same_rig(s, p->skeleton_b, err);
    if (st == AK_OK && p->align_root) st = check_root_tracks(s, a, err);
    if (st != AK_OK) return st;
    int32_t n = (int32_t)lroundf(p->blend_time / a->frame_time);
    if (n > a->frame_count) n = a->frame_count;
    if (n > b->frame_count) n = b->frame_count;
    const int32_t seam = a->frame_count - n; /* where b's frame 0 lands */
    ak_clip *bm = ak_clip_clone(b);
    if (!bm) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    if (p->align_root) {
        float ha = 0.0f, hb = 0.0f;
        st = ak_edit_frame_heading(s, a, seam < a->frame_count ? seam : a->frame_count - 1,
                                   p->humanoid_overrides, &ha, err);
        if (st == AK_OK) st = ak_edit_frame_heading(s, bm, 0, p->humanoid_overrides, &hb, err);
        if (st != AK_OK) {
            ak_clip_destroy(bm);
            return st;
        }
        const size_t T = (size_t)a->track_count, r = (size_t)a->joint_track[0];
        const int32_t af = seam < a->frame_count ? seam : a->frame_count - 1;
        ak_vec3 pa = a->translations[(size_t)af * T + r], pb = bm->translations[r];
        pa.y = pb.y = 0.0f;
        ak_edit_move_roots(s, bm, 0, bm->frame_count, ground_motion(pb, ha - hb, pa));
    }
    st = ak_edit_clip_like(a, a->frame_count + b->frame_count - n, a->frame_time, out, err);
    if (st == AK_OK) {
        ak_edit_copy_frames(*out, 0, a, 0, a->frame_count);
        blend_overlap(*out, seam, bm, n);
        ak_edit_copy_frames(*out, a->frame_count, bm, n, b->frame_count - n);
        ak_clip_finalize(*out);
        /* the crossfade blends each joint's keys: a copy's lerped translation leaves the
         * blended foot (CMU 02_01 in the UE4 shape over 0.5 s: ik_foot_r 0.075 units off) */
        st = ak_clip_keep_copy_bones(s, a, out, err);
    }
    ak_clip_destroy(bm);
    return st;
}
