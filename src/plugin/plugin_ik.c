/* IK entry points of the plugin: the library solvers (ik.h) on caller pose buffers.
 *
 * The caller's local/model arrays are in Unity's frame. They are mirrored into animkit's
 * right-handed frame in place, solved, and mirrored back (also on failure), so nothing is
 * allocated and the caller sees only Unity-frame data. Parameters convert the same way:
 * points (x,y,-z), rotations (-x,-y,z,w), rotation axes like a quaternion's vector part
 * (-x,-y,z). */
#include "plugin/plugin_internal.h"

#include "animkit/ik.h"

#include <string.h>

typedef char akp_check_ik_result[sizeof(ak_plugin_ik_result) == sizeof(ak_ik_result) ? 1 : -1];

static ak_vec3 mirror_axis(ak_vec3 a)
{
    ak_vec3 r = {-a.x, -a.y, a.z};
    return r;
}

static void copy_result(ak_plugin_ik_result *out, const ak_ik_result *r)
{
    if (!out) return;
    out->reached = r->reached;
    out->unreachable = r->unreachable;
    out->iterations = r->iterations;
    out->error = r->error;
}

AK_PLUGIN_API int32_t ak_plugin_limb_ik_defaults(ak_plugin_limb_ik_params *out)
{
    if (!out) return AK_ERR_INVALID_ARG;
    const ak_limb_ik_params d = ak_limb_ik_defaults();
    memset(out, 0, sizeof *out);
    out->upper = out->middle = out->end = -1;
    out->use_pole = d.use_pole;
    out->target = akp_mirror_point(d.target);
    out->pole = akp_mirror_point(d.pole);
    out->mid_axis = mirror_axis(d.mid_axis);
    out->soft_limit = d.soft_limit;
    out->match_end_rotation = d.match_end_rotation;
    out->end_rotation = akp_mirror_rotation(d.end_rotation);
    out->tolerance = d.tolerance;
    out->weight = d.weight;
    return AK_OK;
}

AK_PLUGIN_API int32_t ak_plugin_limb_ik(ak_handle h, const ak_plugin_limb_ik_params *pp,
                                        ak_plugin_xform *local, ak_plugin_xform *model,
                                        int32_t count, ak_plugin_ik_result *out_result)
{
    akp_skeleton *s;
    int32_t status = akp_acquire_skeleton(h, &s);
    if (status != AK_OK) return status;
    const int32_t n = s->skeleton->joint_count;
    if (out_result) memset(out_result, 0, sizeof *out_result);
    if (!pp) {
        akp_fail(&s->hdr, AK_ERR_INVALID_ARG, "params is null");
        status = AK_ERR_INVALID_ARG;
    }
    if (status == AK_OK) status = akp_check_pose(&s->hdr, local, count, n, "local");
    if (status == AK_OK) status = akp_check_pose(&s->hdr, model, count, n, "model");
    if (status == AK_OK) {
        ak_limb_ik_params p = ak_limb_ik_defaults();
        ak_ik_result r;
        ak_error err;
        memset(&r, 0, sizeof r);
        ak_error_clear(&err);
        p.skeleton = s->skeleton;
        p.upper = pp->upper;
        p.middle = pp->middle;
        p.end = pp->end;
        p.use_pole = pp->use_pole;
        p.target = akp_mirror_point(pp->target);
        p.pole = akp_mirror_point(pp->pole);
        p.mid_axis = mirror_axis(pp->mid_axis);
        p.soft_limit = pp->soft_limit;
        p.match_end_rotation = pp->match_end_rotation;
        p.end_rotation = akp_mirror_rotation(pp->end_rotation);
        p.tolerance = pp->tolerance;
        p.weight = pp->weight;
        akp_mirror_xforms((ak_xform *)local, n);
        akp_mirror_xforms((ak_xform *)model, n);
        status = ak_limb_ik_run(&p, (ak_xform *)local, (ak_xform *)model, &r, &err);
        akp_mirror_xforms((ak_xform *)local, n);
        akp_mirror_xforms((ak_xform *)model, n);
        if (status != AK_OK)
            akp_fail(&s->hdr, status, "limb IK: %s", err.message);
        else
            copy_result(out_result, &r);
    }
    akp_release(&s->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_look_at_defaults(ak_plugin_look_at_params *out)
{
    if (!out) return AK_ERR_INVALID_ARG;
    const ak_look_at_params d = ak_look_at_defaults();
    memset(out, 0, sizeof *out);
    out->target = akp_mirror_point(d.target);
    /* forward/up/up_model are directions: they mirror like points. */
    out->forward = akp_mirror_point(d.forward);
    out->up = akp_mirror_point(d.up);
    out->up_model = akp_mirror_point(d.up_model);
    out->clamp_weight = d.clamp_weight;
    out->tolerance = d.tolerance;
    out->weight = d.weight;
    return AK_OK;
}

AK_PLUGIN_API int32_t ak_plugin_look_at(ak_handle h, const int32_t *chain,
                                        const float *joint_weights, int32_t chain_length,
                                        const ak_plugin_look_at_params *pp, ak_plugin_xform *local,
                                        ak_plugin_xform *model, int32_t count,
                                        ak_plugin_ik_result *out_result)
{
    akp_skeleton *s;
    int32_t status = akp_acquire_skeleton(h, &s);
    if (status != AK_OK) return status;
    const int32_t n = s->skeleton->joint_count;
    if (out_result) memset(out_result, 0, sizeof *out_result);
    if (!pp || !chain) {
        akp_fail(&s->hdr, AK_ERR_INVALID_ARG, "params and chain are required");
        status = AK_ERR_INVALID_ARG;
    }
    if (status == AK_OK) status = akp_check_pose(&s->hdr, local, count, n, "local");
    if (status == AK_OK) status = akp_check_pose(&s->hdr, model, count, n, "model");
    if (status == AK_OK) {
        ak_look_at_params p = ak_look_at_defaults();
        ak_ik_result r;
        ak_error err;
        memset(&r, 0, sizeof r);
        ak_error_clear(&err);
        p.skeleton = s->skeleton;
        p.chain = chain;
        p.chain_length = chain_length;
        p.joint_weights = joint_weights;
        p.target = akp_mirror_point(pp->target);
        p.forward = akp_mirror_point(pp->forward);
        p.up = akp_mirror_point(pp->up);
        p.up_model = akp_mirror_point(pp->up_model);
        p.clamp_weight = pp->clamp_weight;
        p.tolerance = pp->tolerance;
        p.weight = pp->weight;
        akp_mirror_xforms((ak_xform *)local, n);
        akp_mirror_xforms((ak_xform *)model, n);
        status = ak_look_at_run(&p, (ak_xform *)local, (ak_xform *)model, &r, &err);
        akp_mirror_xforms((ak_xform *)local, n);
        akp_mirror_xforms((ak_xform *)model, n);
        if (status != AK_OK)
            akp_fail(&s->hdr, status, "look-at: %s", err.message);
        else
            copy_result(out_result, &r);
    }
    akp_release(&s->hdr);
    return status;
}
