/* The plugin's retargeting entry points: rigs from Unity arrays or glTF skins, whole clips
 * retargeted into new clip handles, and a live per-frame retargeter. Unity's frame at the
 * boundary (mirror Z), the library's right-handed frame inside. */
#include "plugin/handles.h"
#include "plugin/plugin_internal.h"
#include "animkit/gltf.h"
#include "animkit/retarget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct akp_retargeter {
    akp_object hdr;
    akp_skeleton *source, *target; /* references held for the retargeter's lifetime */
    ak_retargeter *rt;
    ak_xform *source_local; /* right-handed scratch */
    /* The target rig's copy bones (ak_copy_bones on its rest pose: the UE4 mannequin's ik_foot
     * and ik_hand bones), put back on the retargeted feet and hands every pose, as
     * ak_plugin_retarget_clip's clips have them (ak_retarget_run; ak_retargeter_pose alone
     * leaves them where the rest pose has them: 2.77 m off for CMU 02_01 onto the UE4 shape);
     * target_model: FK scratch, NULL without copies. */
    ak_copy_bones copies;
    ak_xform *target_model;
} akp_retargeter;

static void retargeter_free(akp_object *obj)
{
    akp_retargeter *r = (akp_retargeter *)obj;
    ak_retargeter_destroy(r->rt);
    if (r->source) akp_release(&r->source->hdr);
    if (r->target) akp_release(&r->target->hdr);
    free(r->source_local);
    free(r->target_model);
    free(r);
}

/* Gives a metres skeleton a handle (takes ownership; frees it on failure). */
static int32_t wrap_skeleton(ak_skeleton *sk, ak_handle *out, char *error_buffer,
                             int32_t error_size)
{
    akp_skeleton *ps = (akp_skeleton *)calloc(1, sizeof *ps);
    if (!ps) {
        ak_skeleton_destroy(sk);
        akp_copy_text(error_buffer, error_size, "out of memory");
        return AK_ERR_NOMEM;
    }
    ps->hdr.kind = AKP_KIND_SKELETON;
    ps->hdr.free_fn = akp_skeleton_free;
    ps->skeleton = sk;
    ps->units = AK_UNITS_METRES;
    ps->metres_per_unit = 1.0f;
    ps->rest_height = ak_skeleton_rest_height(sk);
    ps->standing_height = ps->rest_height;
    *out = akp_register(&ps->hdr);
    if (!*out) {
        akp_skeleton_free(&ps->hdr);
        akp_copy_text(error_buffer, error_size, "handle table full");
        return AK_ERR_LIMIT;
    }
    return AK_OK;
}

/* Splits `size` bytes of NUL-ended names into `count` pointers; 0 when they do not fit. */
static int split_names(const char *names, int32_t size, int32_t count, const char **out)
{
    int32_t at = 0;
    for (int32_t j = 0; j < count; ++j) {
        out[j] = names + at;
        while (at < size && names[at] != '\0')
            ++at;
        if (at >= size) return 0;
        ++at;
    }
    return 1;
}

AK_PLUGIN_API int32_t ak_plugin_skeleton_create(int32_t count, const char *names,
                                                int32_t names_size, const int32_t *parents,
                                                const ak_plugin_xform *rest_local, ak_handle *out,
                                                char *error_buffer, int32_t error_size)
{
    akp_copy_text(error_buffer, error_size, "");
    if (out) *out = NULL;
    if (!out || !names || !parents || !rest_local || count < 1 || count > 1024 || names_size < 1) {
        akp_copy_text(error_buffer, error_size,
                      "skeleton: need 1..1024 joints with names, parents and rest poses");
        return AK_ERR_INVALID_ARG;
    }
    ak_xform *rest = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)count);
    const char **name_ptr = (const char **)malloc(sizeof(char *) * (size_t)count);
    int32_t status = AK_OK;
    const char *why = "";
    if (!rest || !name_ptr)
        status = AK_ERR_NOMEM, why = "out of memory";
    else if (!split_names(names, names_size, count, name_ptr))
        status = AK_ERR_INVALID_ARG,
        why = "skeleton: names must be `count` NUL-ended strings within names_size bytes";
    for (int32_t j = 0; status == AK_OK && j < count; ++j) {
        rest[j] = *(const ak_xform *)&rest_local[j];
        if (!isfinite(rest[j].translation.x) || !isfinite(rest[j].translation.y) ||
            !isfinite(rest[j].translation.z))
            status = AK_ERR_INVALID_ARG, why = "skeleton: a non-finite rest position";
        rest[j].rotation = ak_quat_normalize(rest[j].rotation);
    }
    ak_skeleton *sk = NULL;
    if (status == AK_OK) {
        akp_mirror_xforms(rest, count);
        ak_skeleton_desc desc = {count, name_ptr, parents, rest, NULL, NULL};
        ak_error err;
        status = ak_skeleton_create(&desc, &sk, &err);
        if (status != AK_OK) akp_copy_text(error_buffer, error_size, err.message);
    } else {
        akp_copy_text(error_buffer, error_size, why);
    }
    free(rest);
    free(name_ptr);
    return status == AK_OK ? wrap_skeleton(sk, out, error_buffer, error_size) : status;
}

AK_PLUGIN_API int32_t ak_plugin_gltf_skin_load(const char *path, int32_t skin, ak_handle *out,
                                               char *error_buffer, int32_t error_size)
{
    akp_copy_text(error_buffer, error_size, "");
    if (out) *out = NULL;
    if (!out || !path) {
        akp_copy_text(error_buffer, error_size, "path and out_skeleton are required");
        return AK_ERR_INVALID_ARG;
    }
    ak_skeleton *sk = NULL;
    ak_error err;
    int32_t status = ak_gltf_read_skin_file(path, skin, &sk, &err);
    if (status != AK_OK) {
        char text[AKP_ERROR_MAX];
        if (err.line > 0)
            snprintf(text, sizeof text, "line %d: %s", (int)err.line, err.message);
        else
            snprintf(text, sizeof text, "%s", err.message);
        akp_copy_text(error_buffer, error_size, text);
        return status;
    }
    return wrap_skeleton(sk, out, error_buffer, error_size);
}

AK_PLUGIN_API int32_t ak_plugin_retarget_defaults(ak_plugin_retarget_params *out)
{
    if (!out) return AK_ERR_INVALID_ARG;
    ak_retarget_params p = ak_retarget_defaults();
    out->scale = p.scale;
    out->floor_height = p.floor_height;
    out->contacts = p.contacts;
    out->pin_hands = p.pin_hands;
    out->fade_time = p.fade_time;
    out->reference_frame = p.reference_frame;
    return AK_OK;
}

/* The library params from the plugin's (Unity Y is the library's Y: the mirror leaves it). */
static ak_retarget_params library_params(const ak_plugin_retarget_params *pp,
                                         const ak_skeleton *source, const ak_skeleton *target,
                                         const char *so, const char *to)
{
    ak_retarget_params p = ak_retarget_defaults();
    p.source = source;
    p.target = target;
    p.source_overrides = so;
    p.target_overrides = to;
    p.source_metres_per_unit = 1.0f; /* plugin skeletons and clips are in metres */
    if (pp) {
        p.scale = pp->scale;
        p.floor_height = pp->floor_height;
        p.contacts = pp->contacts;
        p.pin_hands = pp->pin_hands;
        p.fade_time = pp->fade_time;
        p.reference_frame = pp->reference_frame;
    }
    return p;
}

/* Acquires the two skeletons (and the clip when `hc` is not NULL); writes the reason. */
static int32_t acquire_inputs(ak_handle hs, ak_handle hc, ak_handle ht, akp_skeleton **s,
                              akp_clip **c, akp_skeleton **t, char *text, size_t size)
{
    char why[160];
    *s = NULL;
    *t = NULL;
    if (c) *c = NULL;
    if (akp_acquire_skeleton(hs, s) != AK_OK) {
        akp_describe_invalid(hs, AKP_KIND_SKELETON, why, sizeof why);
        snprintf(text, size, "retarget source: %s", why);
    } else if (c && akp_acquire_clip(hc, c) != AK_OK) {
        akp_describe_invalid(hc, AKP_KIND_CLIP, why, sizeof why);
        snprintf(text, size, "retarget clip: %s", why);
    } else if (akp_acquire_skeleton(ht, t) != AK_OK) {
        akp_describe_invalid(ht, AKP_KIND_SKELETON, why, sizeof why);
        snprintf(text, size, "retarget target: %s", why);
    } else {
        return AK_OK;
    }
    if (*s) akp_release(&(*s)->hdr);
    if (c && *c) akp_release(&(*c)->hdr);
    *s = NULL;
    if (c) *c = NULL;
    return AK_PLUGIN_ERR_HANDLE;
}

/* Wraps a new clip in a handle (takes ownership). */
static int32_t wrap_clip(ak_clip *clip, ak_handle *out, char *text, size_t size)
{
    akp_clip *pc = (akp_clip *)calloc(1, sizeof *pc);
    if (!pc) {
        ak_clip_destroy(clip);
        snprintf(text, size, "out of memory");
        return AK_ERR_NOMEM;
    }
    ak_clip_prepare_cubic(clip);
    pc->hdr.kind = AKP_KIND_CLIP;
    pc->hdr.free_fn = akp_clip_free;
    pc->clip = clip;
    *out = akp_register(&pc->hdr);
    if (!*out) {
        akp_clip_free(&pc->hdr);
        snprintf(text, size, "handle table full");
        return AK_ERR_LIMIT;
    }
    return AK_OK;
}

AK_PLUGIN_API int32_t ak_plugin_retarget_clip(ak_handle hs, ak_handle hc, ak_handle ht,
                                              const char *so, const char *to,
                                              const ak_plugin_retarget_params *pp, ak_handle *out,
                                              char *error_buffer, int32_t error_size)
{
    char text[AKP_ERROR_MAX] = "";
    akp_copy_text(error_buffer, error_size, "");
    if (!out) {
        akp_copy_text(error_buffer, error_size, "out_clip is required");
        return AK_ERR_INVALID_ARG;
    }
    *out = NULL;
    akp_skeleton *s, *t;
    akp_clip *c;
    int32_t status = acquire_inputs(hs, hc, ht, &s, &c, &t, text, sizeof text);
    if (status == AK_OK) {
        ak_retarget_params p = library_params(pp, s->skeleton, t->skeleton, so, to);
        p.source_clip = c->clip;
        ak_clip *clip = NULL;
        ak_error err;
        status = ak_retarget_run(&p, &clip, NULL, &err);
        if (status != AK_OK)
            snprintf(text, sizeof text, "retarget: %s", err.message);
        else
            status = wrap_clip(clip, out, text, sizeof text);
        akp_release(&s->hdr);
        akp_release(&c->hdr);
        akp_release(&t->hdr);
    }
    akp_copy_text(error_buffer, error_size, text);
    return status;
}

/* The retargeter's scratch: the source pose, and the target rig's copy bones with the FK room
 * they need. */
static int32_t retargeter_scratch(akp_retargeter *r, char *text, size_t size)
{
    ak_error err;
    const ak_skeleton *target = r->target->skeleton;
    int32_t status = ak_copy_bones_find(target, NULL, &r->copies, &err);
    if (status != AK_OK) {
        snprintf(text, size, "retargeter: copy bones: %s", err.message);
        return status;
    }
    r->source_local =
        (ak_xform *)malloc(sizeof(ak_xform) * (size_t)r->source->skeleton->joint_count);
    if (r->copies.count > 0)
        r->target_model = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)target->joint_count);
    if (!r->source_local || (r->copies.count > 0 && !r->target_model)) {
        snprintf(text, size, "out of memory");
        return AK_ERR_NOMEM;
    }
    return AK_OK;
}

AK_PLUGIN_API int32_t ak_plugin_retargeter_create(ak_handle hs, ak_handle ht, const char *so,
                                                  const char *to,
                                                  const ak_plugin_retarget_params *pp,
                                                  ak_handle *out, char *error_buffer,
                                                  int32_t error_size)
{
    char text[AKP_ERROR_MAX] = "";
    akp_copy_text(error_buffer, error_size, "");
    if (!out) {
        akp_copy_text(error_buffer, error_size, "out_retargeter is required");
        return AK_ERR_INVALID_ARG;
    }
    *out = NULL;
    akp_retargeter *r = (akp_retargeter *)calloc(1, sizeof *r);
    if (!r) {
        akp_copy_text(error_buffer, error_size, "out of memory");
        return AK_ERR_NOMEM;
    }
    r->hdr.kind = AKP_KIND_RETARGETER;
    r->hdr.free_fn = retargeter_free;
    int32_t status = acquire_inputs(hs, NULL, ht, &r->source, NULL, &r->target, text, sizeof text);
    if (status == AK_OK) {
        ak_retarget_params p = library_params(pp, r->source->skeleton, r->target->skeleton, so, to);
        ak_error err;
        status = ak_retargeter_create(&p, &r->rt, &err);
        if (status != AK_OK) snprintf(text, sizeof text, "retargeter: %s", err.message);
    }
    if (status == AK_OK) status = retargeter_scratch(r, text, sizeof text);
    if (status == AK_OK && !(*out = akp_register(&r->hdr))) {
        status = AK_ERR_LIMIT;
        snprintf(text, sizeof text, "handle table full");
    }
    if (status != AK_OK) retargeter_free(&r->hdr);
    akp_copy_text(error_buffer, error_size, text);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_retargeter_pose(ak_handle h, const ak_plugin_xform *source_local,
                                                int32_t source_count, ak_plugin_xform *target_local,
                                                int32_t target_count)
{
    akp_retargeter *r;
    if (akp_acquire(h, AKP_KIND_RETARGETER, (akp_object **)&r) != AK_OK)
        return AK_PLUGIN_ERR_HANDLE;
    const int32_t ns = r->source->skeleton->joint_count, nt = r->target->skeleton->joint_count;
    int32_t status = akp_check_pose(&r->hdr, source_local, source_count, ns, "source_local");
    if (status == AK_OK)
        status = akp_check_joint_buffer(&r->hdr, target_local, target_count, nt, "target_local");
    if (status == AK_OK) {
        memcpy(r->source_local, source_local, sizeof(ak_xform) * (size_t)ns);
        akp_mirror_xforms(r->source_local, ns);
        ak_retargeter_pose(r->rt, r->source_local, (ak_xform *)target_local);
        if (r->target_model) { /* the copy bones back on the retargeted feet and hands */
            ak_fk(r->target->skeleton, (const ak_xform *)target_local, r->target_model);
            ak_copy_bones_apply(r->target->skeleton, &r->copies, (ak_xform *)target_local,
                                r->target_model);
        }
        akp_mirror_xforms((ak_xform *)target_local, nt);
        akp_clear_error(&r->hdr);
    }
    akp_release(&r->hdr);
    return status;
}

/* ---- A clip from poses (a baked Unity AnimationClip) ---- */

/* 1 when every number of the n transforms is finite. */
static int finite_xforms(const ak_plugin_xform *x, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) {
        const float *v = (const float *)&x[i];
        for (int k = 0; k < 7; ++k)
            if (!isfinite(v[k])) return 0;
    }
    return 1;
}

/* has[j] = 1 for joint 0 and every joint whose translation leaves its rest value (Unity
 * frame, so compared with the mirrored rest). */
static void moving_joints(const ak_skeleton *sk, const ak_plugin_xform *frames, int32_t n,
                          uint8_t *has)
{
    int32_t jc = sk->joint_count;
    for (int32_t j = 0; j < jc; ++j) {
        ak_vec3 rest = akp_mirror_point(sk->rest_local[j].translation);
        has[j] = j == 0;
        for (int32_t f = 0; f < n && !has[j]; ++f) {
            ak_vec3 t = frames[(size_t)f * (size_t)jc + (size_t)j].position;
            has[j] = fabsf(t.x - rest.x) > 1e-5f || fabsf(t.y - rest.y) > 1e-5f ||
                     fabsf(t.z - rest.z) > 1e-5f;
        }
    }
}

/* Copies the frames (mirrored into animkit's frame) into the clip's keys. */
static void fill_clip(ak_clip *clip, const ak_plugin_xform *frames)
{
    int32_t jc = clip->joint_count;
    for (int32_t f = 0; f < clip->frame_count; ++f) {
        for (int32_t j = 0; j < jc; ++j) {
            ak_xform x = *(const ak_xform *)&frames[(size_t)f * (size_t)jc + (size_t)j];
            akp_mirror_xforms(&x, 1);
            clip->rotations[(size_t)f * (size_t)jc + (size_t)j] = x.rotation;
            int32_t tr = clip->joint_track[j];
            if (tr >= 0)
                clip->translations[(size_t)f * (size_t)clip->track_count + (size_t)tr] =
                    x.translation;
        }
    }
    ak_clip_finalize(clip);
}

AK_PLUGIN_API int32_t ak_plugin_clip_create(ak_handle hs, int32_t frame_count, float frame_time,
                                            int32_t loop, const ak_plugin_xform *frames,
                                            int32_t count, ak_handle *out, char *error_buffer,
                                            int32_t error_size)
{
    akp_copy_text(error_buffer, error_size, "");
    if (out) *out = NULL;
    akp_skeleton *s;
    int32_t status = akp_acquire_skeleton(hs, &s);
    if (status != AK_OK) {
        akp_copy_text(error_buffer, error_size, "clip: skeleton handle is not valid");
        return status;
    }
    int32_t jc = s->skeleton->joint_count;
    const char *why = NULL;
    if (!out || !frames || frame_count < 1 || frame_count > 1000000)
        why = "clip: need 1..1000000 frames and an out handle";
    else if (!(frame_time > 0.0f) || !isfinite(frame_time))
        why = "clip: frame_time must be a finite number of seconds > 0";
    else if ((int64_t)count < (int64_t)frame_count * jc)
        why = "clip: count is smaller than frame_count * joint_count";
    else if (!finite_xforms(frames, (int64_t)frame_count * jc))
        why = "clip: a pose holds a non-finite number";
    uint8_t *has = why ? NULL : (uint8_t *)malloc((size_t)jc);
    ak_clip *clip = NULL;
    if (why) {
        status = AK_ERR_INVALID_ARG;
    } else if (!has) {
        status = AK_ERR_NOMEM, why = "out of memory";
    } else {
        ak_error err;
        moving_joints(s->skeleton, frames, frame_count, has);
        status = ak_clip_create(jc, frame_count, frame_time, has, &clip, &err);
        if (status != AK_OK) akp_copy_text(error_buffer, error_size, err.message);
    }
    free(has);
    akp_release(&s->hdr);
    if (why) akp_copy_text(error_buffer, error_size, why);
    if (status != AK_OK) return status;
    clip->loop = loop ? 1 : 0;
    fill_clip(clip, frames);
    char text[AKP_ERROR_MAX] = "";
    status = wrap_clip(clip, out, text, sizeof text);
    if (status != AK_OK) akp_copy_text(error_buffer, error_size, text);
    return status;
}
