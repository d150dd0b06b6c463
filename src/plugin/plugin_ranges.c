/* Range checks for the float arguments of the ABI and the size checks of caller arrays;
 * see plugin_internal.h. */
#include "plugin/plugin_internal.h"

#include "core/xform_inline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Checks a caller array of `count` entries against the skeleton's joint count. */
int32_t akp_check_joint_buffer(akp_object *owner, const void *buffer, int32_t count,
                               int32_t joint_count, const char *what)
{
    if (!buffer) return akp_fail(owner, AK_ERR_INVALID_ARG, "%s is null", what);
    if (count < joint_count)
        return akp_fail(owner, AK_ERR_INVALID_ARG,
                        "%s holds %d entries, the skeleton has %d joints", what, (int)count,
                        (int)joint_count);
    return AK_OK;
}

int32_t akp_check_ranges(const void *params, const akp_range *ranges, int32_t count, char *why,
                         size_t size)
{
    for (int32_t i = 0; i < count; ++i) {
        float v, lo = ranges[i].lo, hi = ranges[i].hi;
        memcpy(&v, (const char *)params + ranges[i].offset, sizeof v);
        if (ranges[i].table) { /* the library's range for the field it is copied into */
            const ak_param_range *r = ak_param_find(ranges[i].table(), ranges[i].lib_field);
            lo = r ? r->lo : 1.0f;
            hi = r ? r->hi : 0.0f; /* a missing entry refuses everything: caught by the tests */
        }
        if (!(v >= lo && v <= hi)) {
            snprintf(why, size, "%s = %g: must be in [%g, %g]", ranges[i].name, (double)v,
                     (double)lo, (double)hi);
            return AK_ERR_INVALID_ARG;
        }
    }
    return AK_OK;
}

int akp_coord_ok(ak_vec3 v)
{
    return fabsf(v.x) <= AKP_MAX_COORD && fabsf(v.y) <= AKP_MAX_COORD &&
           fabsf(v.z) <= AKP_MAX_COORD;
}

int32_t akp_check_coord(akp_object *owner, const ak_vec3 *v, const char *what)
{
    if (!v) return akp_fail(owner, AK_ERR_INVALID_ARG, "%s is null", what);
    if (!akp_coord_ok(*v))
        return akp_fail(owner, AK_ERR_INVALID_ARG,
                        "%s = (%g, %g, %g): must be finite and within %g m of the origin", what,
                        (double)v->x, (double)v->y, (double)v->z, (double)AKP_MAX_COORD);
    return AK_OK;
}

int32_t akp_check_pose(akp_object *owner, const ak_plugin_xform *pose, int32_t count,
                       int32_t joint_count, const char *what)
{
    int32_t st = akp_check_joint_buffer(owner, pose, count, joint_count, what);
    for (int32_t j = 0; st == AK_OK && j < joint_count; ++j) {
        const ak_quat q = pose[j].rotation;
        const float n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        if (!akp_coord_ok(pose[j].position) || !(n2 > 1e-12f && n2 < 1e12f))
            st = akp_fail(owner, AK_ERR_INVALID_ARG,
                          "%s[%d]: position beyond %g m or rotation not finite / zero", what,
                          (int)j, (double)AKP_MAX_COORD);
    }
    return st;
}

int32_t akp_create_fail(char *error_buffer, int32_t error_size, const char *what, const char *why,
                        int32_t status)
{
    char text[AKP_ERROR_MAX];
    snprintf(text, sizeof text, "%s: %s", what, why);
    akp_copy_text(error_buffer, error_size, text);
    return status;
}

int32_t akp_create_begin(const void *params, const akp_range *ranges, int32_t count,
                         const char *what, const char *required, ak_handle *out, char *error_buffer,
                         int32_t error_size)
{
    akp_copy_text(error_buffer, error_size, "");
    if (out) *out = NULL;
    if (!params || !out) {
        akp_copy_text(error_buffer, error_size, required);
        return AK_ERR_INVALID_ARG;
    }
    char why[160];
    if (akp_check_ranges(params, ranges, count, why, sizeof why) != AK_OK)
        return akp_create_fail(error_buffer, error_size, what, why, AK_ERR_INVALID_ARG);
    return AK_OK;
}

int32_t akp_create_acquire(ak_handle h, int32_t kind, akp_object **obj, const char *what,
                           char *error_buffer, int32_t error_size)
{
    if (akp_acquire(h, kind, obj) == AK_OK) return AK_OK;
    char why[160];
    akp_describe_invalid(h, kind, why, sizeof why);
    return akp_create_fail(error_buffer, error_size, what, why, AK_PLUGIN_ERR_HANDLE);
}

int32_t akp_create_register(akp_object *obj, ak_handle *out, char *error_buffer, int32_t error_size)
{
    *out = akp_register(obj);
    if (*out) return AK_OK;
    obj->free_fn(obj);
    akp_copy_text(error_buffer, error_size, "handle table full");
    return AK_ERR_LIMIT;
}

void akp_hits_in(const ak_plugin_ground_hit *hits, ak_ground_hit *g, int32_t count)
{
    for (int32_t i = 0; i < count; ++i) {
        g[i].hit = hits[i].hit ? 1 : 0;
        g[i].height = hits[i].height;
        g[i].normal = akp_mirror_point(hits[i].normal);
        if (g[i].hit && (!(fabsf(g[i].height) <= AKP_MAX_COORD) || !akv_finite(g[i].normal) ||
                         !(akv_len(g[i].normal) > 1e-6f)))
            g[i].hit = 0; /* no usable ground: the same as no ground */
    }
}
