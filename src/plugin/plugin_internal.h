/* Internal: the plugin's object types and the boundary conversion, shared by the ABI files
 * (plugin.c: skeletons, clips, FK; the character/IK files). */
#ifndef AK_PLUGIN_INTERNAL_H
#define AK_PLUGIN_INTERNAL_H

#include "plugin/handles.h"
#include "animkit/clip.h"
#include "animkit/ground.h"
#include "animkit/skeleton.h"
#include "animkit/walkmetrics.h"

typedef struct akp_skeleton {
    akp_object hdr;
    ak_skeleton *skeleton; /* right-handed, metres */
    int32_t units;         /* ak_units detected at load (metres when given) */
    float metres_per_unit;
    float rest_height;     /* metres */
    float standing_height; /* metres */
} akp_skeleton;

typedef struct akp_clip {
    akp_object hdr;
    ak_clip *clip; /* right-handed, metres */
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

/* ---- Float arguments (issue 10): every float that crosses the ABI is range-checked ---- */

/* Positions, targets and heights: within 1e6 m of the origin (a float still resolves 6 cm
 * there; squared distances and sums of a few stay far from overflow). */
#define AKP_MAX_COORD 1e6f
/* A frame step: at most 10 s (a hitch); longer steps are refused, not simulated. */
#define AKP_MAX_DT 10.0f

/* A float field of a params struct and its accepted closed range. A field that the plugin
 * copies into a library params struct takes its range from the library's table (`table`,
 * entry `lib_field`): one source of truth for the numbers (status.h); lo/hi are then unused. */
typedef struct akp_range {
    const char *name;
    size_t offset;
    float lo, hi;
    const ak_param_table *(*table)(void);
    const char *lib_field;
} akp_range;

/* AK_OK when every listed field of `params` lies in its range (NaN never does); otherwise
 * AK_ERR_INVALID_ARG with "NAME = V: must be in [LO, HI]" in why. */
int32_t akp_check_ranges(const void *params, const akp_range *ranges, int32_t count, char *why,
                         size_t size);
/* The opening every *_create with a params struct shares: clears error_buffer and *out;
 * `params` and `out` are required (else `required` is the message); every listed float field
 * must be in range (else "WHAT: NAME = V: must be in [LO, HI]"). AK_OK or the status. */
int32_t akp_create_begin(const void *params, const akp_range *ranges, int32_t count,
                         const char *what, const char *required, ak_handle *out, char *error_buffer,
                         int32_t error_size);
/* Writes "WHAT: why" into error_buffer and returns `status`. */
int32_t akp_create_fail(char *error_buffer, int32_t error_size, const char *what, const char *why,
                        int32_t status);
/* Acquires handle `h` of `kind` into *obj; on failure writes "WHAT: <why the handle is
 * invalid>" and returns AK_PLUGIN_ERR_HANDLE. */
int32_t akp_create_acquire(ak_handle h, int32_t kind, akp_object **obj, const char *what,
                           char *error_buffer, int32_t error_size);
/* Registers a created object into *out; a full table frees it and says so (AK_ERR_LIMIT). */
int32_t akp_create_register(akp_object *obj, ak_handle *out, char *error_buffer,
                            int32_t error_size);
/* Engine ray hits (Unity space) into the library's ground hits (right-handed); a hit whose
 * height or normal is unusable counts as no ground. */
void akp_hits_in(const ak_plugin_ground_hit *hits, ak_ground_hit *g, int32_t count);
/* A character's or a matcher's walk measures (ak_plugin_walk_summary): this walk's and the
 * source's own (ak_walk_metrics, as the CLI's walk summary). */
typedef struct akp_summary {
    ak_walk_metrics walk, source;
    int32_t hips;  /* the hips joint */
    float dt;      /* of the frame in progress (begin's) */
    int32_t added; /* frames added */
} akp_summary;
/* Starts the measures: the legs and hips of the humanoid map `h`, the source's figures. */
void akp_summary_init(akp_summary *s, const ak_humanoid *h, const ak_walk_metrics *source);
/* Adds a finished frame: the state and the world pose of the walker or matcher. */
void akp_summary_add(akp_summary *s, const ak_walker_state *state, const ak_xform *world);
/* The figures, converted for the ABI (degrees). */
void akp_summary_get(const akp_summary *s, ak_plugin_walk_summary *out);

/* Every component finite and within +-AKP_MAX_COORD. */
int akp_coord_ok(ak_vec3 v);
/* akp_check_joint_buffer for an input pose, plus every position a usable coordinate and
 * every rotation finite and not zero. */
int32_t akp_check_pose(akp_object *owner, const ak_plugin_xform *pose, int32_t count,
                       int32_t joint_count, const char *what);
/* Records "WHAT = (x, y, z): ..." on owner when v is not a usable coordinate. */
int32_t akp_check_coord(akp_object *owner, const ak_vec3 *v, const char *what);

#endif
