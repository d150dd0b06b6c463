/* Internal: the plugin's object types and the boundary conversion, shared by the ABI files
 * (plugin.c: skeletons, clips, FK; the character/IK files). */
#ifndef AK_PLUGIN_INTERNAL_H
#define AK_PLUGIN_INTERNAL_H

#include "plugin/handles.h"
#include "animkit/clip.h"
#include "animkit/skeleton.h"

typedef struct akp_skeleton {
    akp_object hdr;
    ak_skeleton *skeleton;     /* right-handed, metres */
    int32_t units;             /* ak_units detected at load (metres when given) */
    float metres_per_unit;
    float rest_height;         /* metres */
    float standing_height;     /* metres */
} akp_skeleton;

typedef struct akp_clip {
    akp_object hdr;
    ak_clip *clip;             /* right-handed, metres */
} akp_clip;

/* free_fn of skeleton and clip objects: destroy the library object, free the wrapper. */
void akp_skeleton_free(akp_object *obj);
void akp_clip_free(akp_object *obj);
int32_t akp_acquire_skeleton(ak_handle h, akp_skeleton **out);
int32_t akp_acquire_clip(ak_handle h, akp_clip **out);
int32_t akp_fail_other_handle(akp_object *owner, ak_handle other, int32_t kind);

/* Unity (left-handed) <-> animkit (right-handed), both Y up: mirror Z. Self-inverse. */
AK_INLINE ak_vec3 akp_mirror_point(ak_vec3 p)
{
    ak_vec3 r = {p.x, p.y, -p.z};
    return r;
}
/* S R S for S = diag(1,1,-1): the axis mirrors to (x,y,-z) and the angle changes sign,
 * which together negate x and y of the quaternion's vector part. */
AK_INLINE ak_quat akp_mirror_rotation(ak_quat q)
{
    ak_quat r = {-q.x, -q.y, q.z, q.w};
    return r;
}
void akp_mirror_xforms(ak_xform *x, int32_t count);
/* Checks a caller array of `count` entries against a joint count (records the failure). */
int32_t akp_check_joint_buffer(akp_object *owner, const void *buffer, int32_t count,
                               int32_t joint_count, const char *what);

#endif
