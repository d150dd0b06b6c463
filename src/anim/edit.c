/* Motion editing, part 1: trim, resample, in place, change units; the shared helpers.
 * Every step reads a clip and writes a new one with the same translation-track layout. */
#include "anim/edit_internal.h"
#include "core/xform_inline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Largest clip a resample may produce (keeps frame counts and sizes far from overflow). */
#define AK_EDIT_MAX_FRAMES 10000000

int32_t ak_edit_check_pair(const ak_skeleton *s, const ak_clip *c, ak_error *err)
{
    if (!s || !c) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null skeleton or clip");
    if (s->joint_count != c->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has %d joints, skeleton %d",
                            (int)c->joint_count, (int)s->joint_count);
    return AK_OK;
}

int32_t ak_edit_clip_like(const ak_clip *src, int32_t frame_count, float frame_time, ak_clip **out,
                          ak_error *err)
{
    uint8_t *has = (uint8_t *)calloc((size_t)src->joint_count, 1);
    if (!has) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; j < src->joint_count; ++j)
        has[j] = src->joint_track[j] >= 0;
    int32_t st = ak_clip_create(src->joint_count, frame_count, frame_time, has, out, err);
    free(has);
    return st;
}

void ak_edit_copy_frames(ak_clip *dst, int32_t dst_frame, const ak_clip *src, int32_t src_frame,
                         int32_t count)
{
    const size_t J = (size_t)src->joint_count, T = (size_t)src->track_count;
    memcpy(dst->rotations + (size_t)dst_frame * J, src->rotations + (size_t)src_frame * J,
           sizeof(ak_quat) * J * (size_t)count);
    if (T)
        memcpy(dst->translations + (size_t)dst_frame * T, src->translations + (size_t)src_frame * T,
               sizeof(ak_vec3) * T * (size_t)count);
}

/* ---- Trim ----------------------------------------------------------------------------- */

ak_edit_trim_params ak_edit_trim_defaults(void)
{
    ak_edit_trim_params p = {0, -1};
    return p;
}

int32_t ak_edit_trim_validate(const ak_edit_trim_params *p, const ak_clip *c, ak_error *err)
{
    if (!p || !c) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params or clip");
    const int32_t last = p->last < 0 ? c->frame_count - 1 : p->last;
    if (p->first < 0 || p->first >= c->frame_count || last >= c->frame_count || last < p->first)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "trim %d:%d is outside frames 0:%d or runs backwards", (int)p->first,
                            (int)p->last, (int)(c->frame_count - 1));
    return AK_OK;
}

int32_t ak_edit_trim_run(const ak_edit_trim_params *p, const ak_clip *c, ak_clip **out,
                         ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_edit_trim_validate(p, c, err);
    if (st != AK_OK) return st;
    const int32_t last = p->last < 0 ? c->frame_count - 1 : p->last;
    const int32_t n = last - p->first + 1;
    st = ak_edit_clip_like(c, n, c->frame_time, out, err);
    if (st != AK_OK) return st;
    ak_edit_copy_frames(*out, 0, c, p->first, n);
    return AK_OK;
}

/* ---- Resample ------------------------------------------------------------------------- */

ak_edit_resample_params ak_edit_resample_defaults(void)
{
    ak_edit_resample_params p = {1.0f / 30.0f, AK_INTERP_LINEAR};
    return p;
}

/* Output frame count for the params (0 when it is out of range). */
static double resample_count(const ak_edit_resample_params *p, const ak_clip *c)
{
    const double duration = (double)ak_clip_duration(c);
    if (c->loop) return ceil(duration / (double)p->frame_time - 1e-3);
    return floor(duration / (double)p->frame_time + 1e-3) + 1.0;
}

int32_t ak_edit_resample_validate(const ak_edit_resample_params *p, const ak_clip *c, ak_error *err)
{
    if (!p || !c) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params or clip");
    if (!isfinite(p->frame_time) || !(p->frame_time > 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "frame_time must be finite and > 0");
    if (p->interp < AK_INTERP_STEP || p->interp > AK_INTERP_CUBIC)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "interp must be step, linear or cubic");
    const double n = resample_count(p, c);
    if (!(n <= AK_EDIT_MAX_FRAMES))
        return ak_error_set(err, AK_ERR_LIMIT, 0, "resampling gives %.0f frames (limit %d)", n,
                            AK_EDIT_MAX_FRAMES);
    /* The range table last, after the checks that say more (and their status). */
    return ak_params_check(ak_edit_resample_param_ranges(), p, err);
}

int32_t ak_edit_resample_run(const ak_edit_resample_params *p, const ak_skeleton *s,
                             const ak_clip *c, ak_clip **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_edit_check_pair(s, c, err);
    if (st == AK_OK) st = ak_edit_resample_validate(p, c, err);
    if (st != AK_OK) return st;
    int32_t n = (int32_t)resample_count(p, c);
    if (n < 1) n = 1;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)c->joint_count);
    if (!local) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    st = ak_edit_clip_like(c, n, p->frame_time, out, err);
    if (st != AK_OK) {
        free(local);
        return st;
    }
    ak_clip *o = *out;
    o->loop = c->loop;
    const size_t J = (size_t)c->joint_count, T = (size_t)c->track_count;
    for (int32_t f = 0; f < n; ++f) {
        /* A time that lands on an input key (same rate, or every other frame) samples that key
         * exactly rather than a slerp a rounding error away from it. */
        const double t = (double)f * (double)p->frame_time;
        const double key = t / (double)c->frame_time;
        const double nearest = floor(key + 0.5);
        if (fabs(key - nearest) < 1e-4 && nearest < (double)c->frame_count)
            ak_clip_frame(c, s, (int32_t)nearest, local);
        else
            ak_clip_sample(c, s, (float)t, (ak_interp)p->interp, local);
        for (size_t j = 0; j < J; ++j)
            o->rotations[(size_t)f * J + j] = local[j].rotation;
        for (size_t k = 0; k < T; ++k)
            o->translations[(size_t)f * T + k] = local[c->track_joint[k]].translation;
    }
    free(local);
    ak_clip_finalize(o);
    return AK_OK;
}

/* ---- In place ------------------------------------------------------------------------- */

int32_t ak_edit_in_place_validate(const ak_root_motion_params *p, const ak_skeleton *s,
                                  const ak_clip *c, ak_error *err)
{
    int32_t st = ak_edit_check_pair(s, c, err);
    if (st != AK_OK) return st;
    st = ak_root_motion_validate(p, s, c, err);
    if (st != AK_OK) return st;
    if (c->joint_track[p->root_joint] < 0)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "root joint %s has no translation keys",
                            s->names[p->root_joint]);
    return AK_OK;
}

int32_t ak_edit_in_place_run(const ak_root_motion_params *p, const ak_skeleton *s, const ak_clip *c,
                             ak_clip **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_edit_in_place_validate(p, s, c, err);
    if (st != AK_OK) return st;
    ak_root_motion *rm = NULL;
    st = ak_root_motion_create(s, c, p, &rm, err);
    if (st != AK_OK) return st;
    ak_clip *o = ak_clip_clone(c);
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)c->joint_count);
    if (!o || !local) {
        ak_root_motion_destroy(rm);
        ak_clip_destroy(o);
        free(local);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    const int32_t r = p->root_joint, track = c->joint_track[r];
    const size_t J = (size_t)c->joint_count, T = (size_t)c->track_count;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        local[r].rotation = c->rotations[(size_t)f * J + (size_t)r];
        local[r].translation = c->translations[(size_t)f * T + (size_t)track];
        ak_root_motion_make_in_place(rm, (float)f * c->frame_time, local);
        o->rotations[(size_t)f * J + (size_t)r] = local[r].rotation;
        o->translations[(size_t)f * T + (size_t)track] = local[r].translation;
    }
    ak_root_motion_destroy(rm);
    free(local);
    ak_clip_finalize(o);
    *out = o;
    return AK_OK;
}

/* ---- Change units --------------------------------------------------------------------- */

ak_edit_units_params ak_edit_units_defaults(void)
{
    ak_edit_units_params p = {0.0f, 1.0f};
    return p;
}

int32_t ak_edit_units_validate(const ak_edit_units_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params");
    if (!isfinite(p->from_metres_per_unit) || p->from_metres_per_unit < 0.0f)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "from_metres_per_unit must be finite and > 0 (or 0 to detect)");
    if (!isfinite(p->to_metres_per_unit) || !(p->to_metres_per_unit > 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "to_metres_per_unit must be finite and > 0");
    /* The range table last, after the checks that say more (and their status). */
    return ak_params_check(ak_edit_units_param_ranges(), p, err);
}

int32_t ak_edit_units_run(const ak_edit_units_params *p, const ak_skeleton *s, const ak_clip *c,
                          ak_skeleton **out_skeleton, ak_clip **out_clip, float *applied_factor,
                          ak_error *err)
{
    if (out_skeleton) *out_skeleton = NULL;
    if (out_clip) *out_clip = NULL;
    if (!out_skeleton || !out_clip) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_edit_check_pair(s, c, err);
    if (st == AK_OK) st = ak_edit_units_validate(p, err);
    if (st != AK_OK) return st;
    float from = p->from_metres_per_unit;
    if (from == 0.0f) ak_units_detect(ak_clip_standing_height(c, s), &from);
    const float factor = from / p->to_metres_per_unit;
    if (!isfinite(factor) || !(factor > 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "unit factor %g is out of range",
                            (double)factor);
    st = ak_skeleton_clone(s, out_skeleton, err);
    if (st != AK_OK) return st;
    *out_clip = ak_clip_clone(c);
    if (!*out_clip) {
        ak_skeleton_destroy(*out_skeleton);
        *out_skeleton = NULL;
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    ak_skeleton_scale(*out_skeleton, factor);
    ak_clip_scale(*out_clip, factor);
    if (applied_factor) *applied_factor = factor;
    return AK_OK;
}
