/* The flat Unity ABI over the animkit library: handles in, Unity-frame arrays out.
 *
 * Each entry point: acquire the handle(s) (a reference held for the call), check the
 * caller's buffers, do the work with the library, convert right-handed <-> left-handed at
 * the boundary, release. Failures are recorded per thread and per handle for
 * ak_plugin_last_error. */
#include "anim/reach.h"
#include "plugin/handles.h"
#include "plugin/plugin_internal.h"

#include "animkit/bvh.h"
#include "animkit/clipfile.h"
#include "animkit/clip.h"
#include "animkit/rootmotion.h"
#include "animkit/skeleton.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ak_plugin_xform must be the library's ak_xform bit for bit: the plugin hands caller
 * buffers straight to ak_clip_sample / ak_fk. */
typedef char akp_check_xform_size[sizeof(ak_plugin_xform) == sizeof(ak_xform) ? 1 : -1];
typedef char akp_check_xform_pos
    [offsetof(ak_plugin_xform, position) == offsetof(ak_xform, translation) ? 1 : -1];
typedef char akp_check_mat4_size[sizeof(ak_plugin_mat4) == 16 * sizeof(float) ? 1 : -1];

/* ---- Handedness ---- */

void akp_mirror_xforms(ak_xform *x, int32_t count)
{
    for (int32_t i = 0; i < count; ++i) {
        x[i].translation = akp_mirror_point(x[i].translation);
        x[i].rotation = akp_mirror_rotation(x[i].rotation);
    }
}

/* ---- Objects ---- */

void akp_skeleton_free(akp_object *obj)
{
    akp_skeleton *s = (akp_skeleton *)obj;
    ak_skeleton_destroy(s->skeleton);
    free(s);
}

void akp_clip_free(akp_object *obj)
{
    akp_clip *c = (akp_clip *)obj;
    ak_clip_destroy(c->clip);
    free(c);
}

int32_t akp_acquire_skeleton(ak_handle h, akp_skeleton **out)
{
    return akp_acquire(h, AKP_KIND_SKELETON, (akp_object **)out);
}

int32_t akp_acquire_clip(ak_handle h, akp_clip **out)
{
    return akp_acquire(h, AKP_KIND_CLIP, (akp_object **)out);
}

/* Records on `owner` why a second handle passed to the same call is invalid. */
int32_t akp_fail_other_handle(akp_object *owner, ak_handle other, int32_t kind)
{
    char why[160];
    akp_describe_invalid(other, kind, why, sizeof why);
    return akp_fail(owner, AK_PLUGIN_ERR_HANDLE, "%s", why);
}

/* ---- Version, errors, lifetime ---- */

AK_PLUGIN_API int32_t ak_plugin_abi_version(void)
{
    return AK_PLUGIN_ABI_VERSION;
}

AK_PLUGIN_API int32_t ak_plugin_live_handles(void)
{
    return akp_live_count();
}

AK_PLUGIN_API int32_t ak_plugin_last_error(ak_handle h, char *buffer, int32_t size)
{
    akp_object *obj;
    if (akp_acquire(h, 0, &obj) != AK_OK) {
        char why[160];
        akp_describe_invalid(h, 0, why, sizeof why);
        akp_copy_text(buffer, size, why);
        return AK_PLUGIN_ERR_HANDLE;
    }
    int32_t status = akp_last_error(h, buffer, size);
    akp_release(obj);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_destroy(ak_handle h)
{
    return akp_unregister(h);
}

/* ---- Loading ---- */

/* A copy of `in` with every rest translation multiplied by k (bone lengths follow). */
static void format_load_error(const ak_error *e, const char *what, char *buffer, int32_t size)
{
    char text[AKP_ERROR_MAX];
    if (e->line > 0)
        snprintf(text, sizeof text, "%s: line %d: %s (%s)", what, (int)e->line, e->message,
                 ak_status_name(e->status));
    else
        snprintf(text, sizeof text, "%s: %s (%s)", what, e->message, ak_status_name(e->status));
    akp_copy_text(buffer, size, text);
}

/* Wraps a freshly read skeleton + clip into handles, scaled to metres. Consumes both. */
static int32_t wrap_loaded(ak_skeleton *sk, ak_clip *clip, float metres_per_unit, int32_t loop,
                           ak_handle *out_skeleton, ak_handle *out_clip, ak_error *err)
{
    akp_skeleton *ps = NULL;
    akp_clip *pc = NULL;
    int32_t status = AK_OK;
    float rest_height = ak_skeleton_rest_height(sk);
    float standing_height = ak_clip_standing_height(clip, sk);
    ak_units units = AK_UNITS_METRES;
    float k = metres_per_unit;
    if (k == 0.0f) {
        /* The clip's typical standing height, not the rest pose: CMU rest poses splay the
         * legs, and some files' rest pose is not a standing person at all. */
        units = ak_units_detect(standing_height > 0.0f ? standing_height : rest_height, &k);
    }
    if (k != 1.0f) {
        ak_skeleton_scale(sk, k);
        ak_clip_scale(clip, k);
    }
    /* A scale that carries a joint beyond float range is refused (see anim/reach.h). */
    double reach = 0.0;
    const int32_t far = akanim_first_joint_beyond(sk, clip, AK_MAX_REACH, &reach);
    if (far == -2)
        status = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    else if (far >= 0)
        status = ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                              "metres_per_unit %g puts joint '%s' up to %g m from the origin, "
                              "beyond float range",
                              (double)k, sk->names[far], reach);
    /* Unity scripts pick the interpolation per call: have cubic's control points ready
     * (a failed allocation leaves cubic sampling on its slower path, still correct). */
    if (status == AK_OK) ak_clip_prepare_cubic(clip);
    if (status == AK_OK) {
        clip->loop = loop ? 1 : 0;
        ps = (akp_skeleton *)calloc(1, sizeof *ps);
        pc = (akp_clip *)calloc(1, sizeof *pc);
        if (!ps || !pc) {
            ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
            status = AK_ERR_NOMEM;
        }
    }
    if (status == AK_OK) {
        ps->hdr.kind = AKP_KIND_SKELETON;
        ps->hdr.free_fn = akp_skeleton_free;
        ps->skeleton = sk;
        ps->units = (int32_t)units;
        ps->metres_per_unit = k;
        ps->rest_height = rest_height * k;
        ps->standing_height = standing_height * k;
        pc->hdr.kind = AKP_KIND_CLIP;
        pc->hdr.free_fn = akp_clip_free;
        pc->clip = clip;
        *out_skeleton = akp_register(&ps->hdr);
        if (!*out_skeleton) {
            status = ak_error_set(err, AK_ERR_LIMIT, 0, "handle table full");
        } else {
            *out_clip = akp_register(&pc->hdr);
            if (!*out_clip) {
                status = ak_error_set(err, AK_ERR_LIMIT, 0, "handle table full");
                akp_unregister(*out_skeleton); /* frees ps and sk */
                *out_skeleton = NULL;
                ps = NULL;
                sk = NULL;
            }
        }
        /* ps and pc now belong to the handle table (the analyzer cannot see across files). */
        if (status == AK_OK) return AK_OK; // NOLINT(clang-analyzer-unix.Malloc)
    }
    if (ps) free(ps);
    if (pc) free(pc);
    ak_skeleton_destroy(sk);
    ak_clip_destroy(clip);
    return status;
}

static int32_t check_scale(float metres_per_unit, ak_error *err)
{
    if (!(metres_per_unit >= 0.0f) || !isfinite(metres_per_unit))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "metres_per_unit must be finite and >= 0 (0 detects it)");
    return AK_OK;
}

AK_PLUGIN_API int32_t ak_plugin_bvh_load(const char *path, float metres_per_unit, int32_t loop,
                                         ak_handle *out_skeleton, ak_handle *out_clip,
                                         char *error_buffer, int32_t error_size)
{
    ak_error err;
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    int32_t status;
    ak_error_clear(&err);
    akp_copy_text(error_buffer, error_size, "");
    if (out_skeleton) *out_skeleton = NULL;
    if (out_clip) *out_clip = NULL;
    if (!path || !out_skeleton || !out_clip) {
        status =
            ak_error_set(&err, AK_ERR_INVALID_ARG, 0, "path and both out handles are required");
    } else if ((status = check_scale(metres_per_unit, &err)) == AK_OK) {
        status = ak_clip_read_file(path, &sk, &clip, &err);
        if (status == AK_OK)
            status = wrap_loaded(sk, clip, metres_per_unit, loop, out_skeleton, out_clip, &err);
    }
    if (status != AK_OK)
        format_load_error(&err, path ? path : "(null path)", error_buffer, error_size);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_bvh_load_memory(const char *text, int32_t size,
                                                float metres_per_unit, int32_t loop,
                                                ak_handle *out_skeleton, ak_handle *out_clip,
                                                char *error_buffer, int32_t error_size)
{
    ak_error err;
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    int32_t status;
    ak_error_clear(&err);
    akp_copy_text(error_buffer, error_size, "");
    if (out_skeleton) *out_skeleton = NULL;
    if (out_clip) *out_clip = NULL;
    if (!text || size < 0 || !out_skeleton || !out_clip) {
        status = ak_error_set(&err, AK_ERR_INVALID_ARG, 0,
                              "text, a size >= 0 and both out handles are required");
    } else if ((status = check_scale(metres_per_unit, &err)) == AK_OK) {
        status = ak_clip_read_memory((const uint8_t *)text, (size_t)size, NULL, &sk, &clip, &err);
        if (status == AK_OK)
            status = wrap_loaded(sk, clip, metres_per_unit, loop, out_skeleton, out_clip, &err);
    }
    if (status != AK_OK) format_load_error(&err, "clip data", error_buffer, error_size);
    return status;
}

/* ---- Skeletons ---- */

AK_PLUGIN_API int32_t ak_plugin_skeleton_info_get(ak_handle h, ak_plugin_skeleton_info *out)
{
    akp_skeleton *s;
    int32_t status = akp_acquire_skeleton(h, &s);
    if (status != AK_OK) return status;
    if (!out) {
        status = akp_fail(&s->hdr, AK_ERR_INVALID_ARG, "out is null");
    } else {
        out->joint_count = s->skeleton->joint_count;
        out->units = s->units;
        out->metres_per_unit = s->metres_per_unit;
        out->rest_height = s->rest_height;
        out->standing_height = s->standing_height;
    }
    akp_release(&s->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_skeleton_joint_name(ak_handle h, int32_t joint, char *buffer,
                                                    int32_t size)
{
    akp_skeleton *s;
    int32_t status = akp_acquire_skeleton(h, &s);
    if (status != AK_OK) return status;
    if (joint < 0 || joint >= s->skeleton->joint_count)
        status = akp_fail(&s->hdr, AK_ERR_INVALID_ARG, "joint %d out of range [0, %d)", (int)joint,
                          (int)s->skeleton->joint_count);
    else if (!buffer || size < 1)
        status = akp_fail(&s->hdr, AK_ERR_INVALID_ARG, "name buffer is null or empty");
    else
        akp_copy_text(buffer, size, s->skeleton->names[joint]);
    akp_release(&s->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_skeleton_parents(ak_handle h, int32_t *out, int32_t count)
{
    akp_skeleton *s;
    int32_t status = akp_acquire_skeleton(h, &s);
    if (status != AK_OK) return status;
    const int32_t n = s->skeleton->joint_count;
    status = akp_check_joint_buffer(&s->hdr, out, count, n, "parents");
    if (status == AK_OK) memcpy(out, s->skeleton->parents, sizeof(int32_t) * (size_t)n);
    akp_release(&s->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_skeleton_find(ak_handle h, const char *name, int32_t *out_joint)
{
    akp_skeleton *s;
    int32_t status = akp_acquire_skeleton(h, &s);
    if (status != AK_OK) return status;
    if (out_joint) *out_joint = -1;
    if (!name || !out_joint) {
        status = akp_fail(&s->hdr, AK_ERR_INVALID_ARG, "name and out_joint are required");
    } else {
        *out_joint = ak_skeleton_find(s->skeleton, name);
        if (*out_joint < 0)
            status = akp_fail(&s->hdr, AK_ERR_NOT_FOUND, "no joint named '%s'", name);
    }
    akp_release(&s->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_skeleton_rest_pose(ak_handle h, ak_plugin_xform *out, int32_t count)
{
    akp_skeleton *s;
    int32_t status = akp_acquire_skeleton(h, &s);
    if (status != AK_OK) return status;
    const int32_t n = s->skeleton->joint_count;
    status = akp_check_joint_buffer(&s->hdr, out, count, n, "out_local");
    if (status == AK_OK) {
        ak_pose_rest(s->skeleton, (ak_xform *)out);
        akp_mirror_xforms((ak_xform *)out, n);
    }
    akp_release(&s->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_skeleton_humanoid(ak_handle h, const char *overrides,
                                                  int32_t *out_joints, int32_t count)
{
    akp_skeleton *s;
    int32_t status = akp_acquire_skeleton(h, &s);
    if (status != AK_OK) return status;
    if (!out_joints || count < AK_HUM_SLOT_COUNT) {
        status = akp_fail(&s->hdr, AK_ERR_INVALID_ARG, "out_joints needs %d entries",
                          (int)AK_HUM_SLOT_COUNT);
    } else {
        ak_humanoid hum;
        ak_error err;
        ak_error_clear(&err);
        status = ak_humanoid_find(s->skeleton, overrides, &hum, &err);
        for (int32_t i = 0; i < count; ++i)
            out_joints[i] = i < AK_HUM_SLOT_COUNT ? hum.joint[i] : -1;
        if (status != AK_OK) akp_fail(&s->hdr, status, "%s", err.message);
    }
    akp_release(&s->hdr);
    return status;
}

/* ---- Clips, sampling, FK ---- */

AK_PLUGIN_API int32_t ak_plugin_clip_info_get(ak_handle h, ak_plugin_clip_info *out)
{
    akp_clip *c;
    int32_t status = akp_acquire_clip(h, &c);
    if (status != AK_OK) return status;
    if (!out) {
        status = akp_fail(&c->hdr, AK_ERR_INVALID_ARG, "out is null");
    } else {
        out->joint_count = c->clip->joint_count;
        out->frame_count = c->clip->frame_count;
        out->frame_time = c->clip->frame_time;
        out->duration = ak_clip_duration(c->clip);
        out->loop = c->clip->loop;
    }
    akp_release(&c->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_clip_set_loop(ak_handle h, int32_t loop)
{
    akp_clip *c;
    int32_t status = akp_acquire_clip(h, &c);
    if (status != AK_OK) return status;
    c->clip->loop = loop ? 1 : 0;
    akp_release(&c->hdr);
    return status;
}

/* Acquires a clip and a skeleton that belong together, checks time/interp/buffer. On
 * success the caller releases both. */
static int32_t acquire_pair(ak_handle hc, ak_handle hs, float time, int32_t interp,
                            const void *buffer, int32_t count, akp_clip **c, akp_skeleton **s)
{
    int32_t status = akp_acquire_clip(hc, c);
    if (status != AK_OK) return status;
    status = akp_acquire_skeleton(hs, s);
    if (status != AK_OK) {
        status = akp_fail_other_handle(&(*c)->hdr, hs, AKP_KIND_SKELETON);
    } else if ((*s)->skeleton->joint_count != (*c)->clip->joint_count) {
        status = akp_fail(&(*c)->hdr, AK_ERR_INVALID_ARG,
                          "clip has %d joints, skeleton has %d: not loaded together",
                          (int)(*c)->clip->joint_count, (int)(*s)->skeleton->joint_count);
    } else if (!isfinite(time)) {
        status = akp_fail(&(*c)->hdr, AK_ERR_INVALID_ARG, "time is not finite");
    } else if (interp < AK_INTERP_STEP || interp > AK_INTERP_CUBIC) {
        status =
            akp_fail(&(*c)->hdr, AK_ERR_INVALID_ARG, "interp %d is not 0, 1 or 2", (int)interp);
    } else {
        status =
            akp_check_joint_buffer(&(*c)->hdr, buffer, count, (*c)->clip->joint_count, "output");
    }
    if (status != AK_OK) {
        if (*s) akp_release(&(*s)->hdr);
        akp_release(&(*c)->hdr);
        *s = NULL;
        *c = NULL;
    }
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_clip_sample(ak_handle hc, ak_handle hs, float time, int32_t interp,
                                            ak_plugin_xform *out, int32_t count)
{
    akp_clip *c;
    akp_skeleton *s;
    int32_t status = acquire_pair(hc, hs, time, interp, out, count, &c, &s);
    if (status != AK_OK) return status;
    ak_clip_sample(c->clip, s->skeleton, time, (ak_interp)interp, (ak_xform *)out);
    akp_mirror_xforms((ak_xform *)out, c->clip->joint_count);
    akp_release(&s->hdr);
    akp_release(&c->hdr);
    return AK_OK;
}

AK_PLUGIN_API int32_t ak_plugin_clip_sample_model(ak_handle hc, ak_handle hs, float time,
                                                  int32_t interp, ak_plugin_xform *out,
                                                  int32_t count)
{
    akp_clip *c;
    akp_skeleton *s;
    int32_t status = acquire_pair(hc, hs, time, interp, out, count, &c, &s);
    if (status != AK_OK) return status;
    ak_clip_sample_fk_batch(c->clip, s->skeleton, &time, 1, (ak_interp)interp, (ak_xform *)out);
    akp_mirror_xforms((ak_xform *)out, c->clip->joint_count);
    akp_release(&s->hdr);
    akp_release(&c->hdr);
    return AK_OK;
}

/* The measure itself (ak_root_joint_find) on a clip and skeleton already acquired. */
static int32_t root_joint_of(akp_clip *c, const akp_skeleton *s, const char *name,
                             ak_plugin_root_joint_info *out, char *buffer, int32_t size)
{
    ak_root_joint_report r;
    ak_error err;
    ak_error_clear(&err);
    const int32_t status = ak_root_joint_find(s->skeleton, c->clip, name, &r, &err);
    if (status != AK_OK) return akp_fail(&c->hdr, status, "%s", err.message);
    out->joint = r.joint;
    out->top = r.top;
    out->reason = r.reason;
    out->travel = r.travel;
    out->top_travel = r.top_travel;
    out->height = r.height;
    if (buffer && size > 0) ak_root_joint_describe(s->skeleton, &r, buffer, (size_t)size);
    return AK_OK;
}

AK_PLUGIN_API int32_t ak_plugin_clip_root_joint(ak_handle hc, ak_handle hs, const char *name,
                                                ak_plugin_root_joint_info *out, char *buffer,
                                                int32_t size)
{
    akp_clip *c;
    akp_skeleton *s = NULL;
    if (buffer && size > 0) buffer[0] = '\0';
    int32_t status = akp_acquire_clip(hc, &c);
    if (status != AK_OK) return status;
    status = akp_acquire_skeleton(hs, &s);
    if (status != AK_OK) {
        s = NULL;
        status = akp_fail_other_handle(&c->hdr, hs, AKP_KIND_SKELETON);
    } else if (s->skeleton->joint_count != c->clip->joint_count) {
        status = akp_fail(&c->hdr, AK_ERR_INVALID_ARG,
                          "clip has %d joints, skeleton has %d: not loaded together",
                          (int)c->clip->joint_count, (int)s->skeleton->joint_count);
    } else if (!out) {
        status = akp_fail(&c->hdr, AK_ERR_INVALID_ARG, "out_info is null");
    } else if (buffer && size < 0) {
        status = akp_fail(&c->hdr, AK_ERR_INVALID_ARG, "size %d is negative", (int)size);
    } else {
        status = root_joint_of(c, s, name, out, buffer, size);
    }
    if (s) akp_release(&s->hdr);
    akp_release(&c->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_fk(ak_handle h, const ak_plugin_xform *local, ak_plugin_xform *out,
                                   int32_t count)
{
    akp_skeleton *s;
    int32_t status = akp_acquire_skeleton(h, &s);
    if (status != AK_OK) return status;
    const int32_t n = s->skeleton->joint_count;
    status = akp_check_pose(&s->hdr, local, count, n, "local");
    if (status == AK_OK) status = akp_check_joint_buffer(&s->hdr, out, count, n, "out_model");
    if (status == AK_OK && (const void *)local < (const void *)(out + n) &&
        (const void *)out < (const void *)(local + n))
        status = akp_fail(&s->hdr, AK_ERR_INVALID_ARG, "local and out_model overlap");
    if (status == AK_OK) {
        /* FK commutes with the mirror: M(a*b) = M(a)*M(b) because M conjugates by the
         * reflection S (S R S, S t), so Unity-frame locals give Unity-frame world
         * transforms directly. */
        ak_fk(s->skeleton, (const ak_xform *)local, (ak_xform *)out);
    }
    akp_release(&s->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_xforms_to_matrices(const ak_plugin_xform *xforms,
                                                   ak_plugin_mat4 *out, int32_t count)
{
    if (!xforms || !out || count < 0) return AK_ERR_INVALID_ARG;
    for (int32_t i = 0; i < count; ++i) {
        ak_xform x;
        x.rotation = xforms[i].rotation;
        x.translation = xforms[i].position;
        ak_xform_to_mat4(x, out[i].m);
    }
    return AK_OK;
}

AK_PLUGIN_API int32_t ak_plugin_mirror_z(ak_plugin_xform *xforms, int32_t count)
{
    if (!xforms || count < 0) return AK_ERR_INVALID_ARG;
    akp_mirror_xforms((ak_xform *)xforms, count);
    return AK_OK;
}
