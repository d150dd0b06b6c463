/* animkit web — the C side of the JavaScript API (web/animkit.mjs). Thin glue only: it turns
 * plain numbers and pointers from JavaScript into the library's params structs and calls the
 * library; no animation logic lives here. Every function is exported from the .wasm. */
#include <emscripten.h>
#include <stdlib.h>
#include <string.h>

#include "animkit/animkit.h"
#include "animkit/ik.h"
#include "animkit/locomotion.h"
#include "animkit/retarget.h"
#include "animkit/scenario.h"
#include "heightmap_png.h"

#define AKW EMSCRIPTEN_KEEPALIVE

/* Sizes the JavaScript side relies on; it refuses to run when they differ from its own. */
AKW int32_t akw_abi(int32_t what)
{
    switch (what) {
    case 0: return (int32_t)sizeof(ak_error);
    case 1: return (int32_t)offsetof(ak_error, message);
    case 2: return (int32_t)sizeof(ak_xform);
    case 3: return (int32_t)sizeof(ak_ik_result);
    case 4: return AK_NAME_MAX;
    case 5: return AK_HUM_SLOT_COUNT;
    case 6: return (int32_t)sizeof(ak_walker_state);
    default: return -1;
    }
}

/* out: joint_count, names, parents, rest_local, bone_lengths, is_end_site (pointers as ints). */
AKW void akw_skeleton_fields(const ak_skeleton *sk, int32_t *out)
{
    out[0] = sk->joint_count;
    out[1] = (int32_t)(intptr_t)sk->names;
    out[2] = (int32_t)(intptr_t)sk->parents;
    out[3] = (int32_t)(intptr_t)sk->rest_local;
    out[4] = (int32_t)(intptr_t)sk->bone_lengths;
    out[5] = (int32_t)(intptr_t)sk->is_end_site;
}

/* out: joint_count, frame_count, loop, rotations, track_count, track_joint, translations;
 * *frame_time gets the seconds per frame. */
AKW void akw_clip_fields(const ak_clip *c, int32_t *out, float *frame_time)
{
    out[0] = c->joint_count;
    out[1] = c->frame_count;
    out[2] = c->loop;
    out[3] = (int32_t)(intptr_t)c->rotations;
    out[4] = c->track_count;
    out[5] = (int32_t)(intptr_t)c->track_joint;
    out[6] = (int32_t)(intptr_t)c->translations;
    *frame_time = c->frame_time;
}

AKW void akw_clip_set_loop(ak_clip *c, int32_t loop)
{
    c->loop = loop ? 1 : 0;
}

/* ak_bvh_read_memory with the defaults and `up` (an ak_up_axis: loadBVH's up). */
AKW int32_t akw_bvh_read_memory(const char *text, int32_t size, int32_t up, ak_skeleton **out_sk,
                                ak_clip **out_clip, ak_error *err)
{
    ak_bvh_read_params p = ak_bvh_read_defaults();
    p.up = up;
    return ak_bvh_read_memory(text, (size_t)size, &p, out_sk, out_clip, err);
}

/* ---- IK: one call per solver; vectors come as pointers to 3 floats (NULL: not given) ---- */

static ak_vec3 v3(const float *p)
{
    return ak_vec3_make(p[0], p[1], p[2]);
}

/* A target the JS side did not give is refused here too (issue 26: limbIK with a missing
 * target, jacobianIK with fewer targets than effectors read whatever lay at address 0 and
 * reported `reached`). The values' ranges are the solver's _validate's (ik.h tables). */
static int32_t need_target(const float *target, const char *call, ak_ik_result *res, ak_error *err)
{
    if (target) return AK_OK;
    if (res) memset(res, 0, sizeof *res);
    return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s: target needs 3 finite numbers", call);
}

AKW int32_t akw_limb_ik(const ak_skeleton *sk, ak_xform *local, ak_xform *world, int32_t upper,
                        int32_t middle, int32_t end, const float *target, const float *pole,
                        float soft_limit, float tolerance, float weight, ak_ik_result *res,
                        ak_error *err)
{
    const int32_t given = need_target(target, "limbIK", res, err);
    if (given != AK_OK) return given;
    ak_limb_ik_params p = ak_limb_ik_defaults();
    p.skeleton = sk;
    p.upper = upper;
    p.middle = middle;
    p.end = end;
    p.target = v3(target);
    p.use_pole = pole != NULL;
    if (pole) p.pole = v3(pole);
    p.soft_limit = soft_limit;
    if (tolerance >= 0) p.tolerance = tolerance;
    p.weight = weight;
    return ak_limb_ik_run(&p, local, world, res, err);
}

/* kind 0: CCD, 1: FABRIK. joint_weights may be NULL. */
AKW int32_t akw_chain_ik(int32_t kind, const ak_skeleton *sk, ak_xform *local, ak_xform *world,
                         const int32_t *chain, int32_t chain_length, const float *target,
                         const float *joint_weights, int32_t max_iterations, float tolerance,
                         float weight, ak_ik_result *res, ak_error *err)
{
    const int32_t given = need_target(target, kind == 1 ? "fabrikIK" : "ccdIK", res, err);
    if (given != AK_OK) return given;
    ak_chain_ik_params p = ak_chain_ik_defaults();
    p.skeleton = sk;
    p.chain = chain;
    p.chain_length = chain_length;
    p.target = v3(target);
    p.joint_weights = joint_weights;
    if (max_iterations > 0) p.max_iterations = max_iterations;
    if (tolerance >= 0) p.tolerance = tolerance;
    p.weight = weight;
    return kind == 1 ? ak_fabrik_ik_run(&p, local, world, res, err)
                     : ak_ccd_ik_run(&p, local, world, res, err);
}

/* The single-chain form when effector_count is 0 (chain, target), else the multi-effector
 * form (joints, effectors, targets: 3 floats each, effector_weights may be NULL). The
 * workspace is the caller's, ak_jacobian_ik_workspace_size bytes. */
AKW int32_t akw_jacobian_ik(const ak_skeleton *sk, ak_xform *local, ak_xform *world, int32_t method,
                            const int32_t *chain, int32_t chain_length, const float *target,
                            const int32_t *joints, int32_t joint_count, const int32_t *effectors,
                            const float *targets, const float *effector_weights,
                            int32_t effector_count, float damping, int32_t max_iterations,
                            float tolerance, float weight, void *workspace, int32_t workspace_bytes,
                            ak_ik_result *res, ak_error *err)
{
    const int32_t given = need_target(
        effector_count > 0 ? (effectors ? targets : NULL) : target,
        effector_count > 0 ? "jacobianIK (one target per effector)" : "jacobianIK", res, err);
    if (given != AK_OK) return given;
    ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
    p.skeleton = sk;
    p.method = method;
    p.chain = chain;
    p.chain_length = chain_length;
    if (target) p.target = v3(target);
    p.joints = joints;
    p.joint_count = joint_count;
    p.effectors = effectors;
    p.targets = (const ak_vec3 *)targets;
    p.effector_weights = effector_weights;
    p.effector_count = effector_count;
    if (damping >= 0) p.damping = damping;
    if (max_iterations > 0) p.max_iterations = max_iterations;
    if (tolerance >= 0) p.tolerance = tolerance;
    p.weight = weight;
    p.workspace = workspace;
    p.workspace_bytes = (size_t)workspace_bytes;
    return ak_jacobian_ik_run(&p, local, world, res, err);
}

/* The aim axes of aim and look-at: each pointer may be NULL (keep the default). */
static void aim_axes(const float *forward, const float *up, const float *up_model,
                     ak_vec3 *forward_out, ak_vec3 *up_out, ak_vec3 *world_up_out)
{
    if (forward) *forward_out = v3(forward);
    if (up) *up_out = v3(up);
    if (up_model) *world_up_out = v3(up_model);
}

/* forward, up, up_model: NULL for the defaults. */
AKW int32_t akw_aim_ik(const ak_skeleton *sk, ak_xform *local, ak_xform *world, int32_t joint,
                       const float *target, const float *forward, const float *up,
                       const float *up_model, float clamp_weight, float weight, ak_ik_result *res,
                       ak_error *err)
{
    ak_aim_ik_params p = ak_aim_ik_defaults();
    p.skeleton = sk;
    p.joint = joint;
    p.target = v3(target);
    aim_axes(forward, up, up_model, &p.forward, &p.up, &p.up_model);
    p.clamp_weight = clamp_weight;
    p.weight = weight;
    return ak_aim_ik_run(&p, local, world, res, err);
}

AKW int32_t akw_look_at(const ak_skeleton *sk, ak_xform *local, ak_xform *world,
                        const int32_t *chain, int32_t chain_length, const float *joint_weights,
                        const float *target, const float *forward, const float *up,
                        const float *up_model, float clamp_weight, float weight, ak_ik_result *res,
                        ak_error *err)
{
    ak_look_at_params p = ak_look_at_defaults();
    p.skeleton = sk;
    p.chain = chain;
    p.chain_length = chain_length;
    p.joint_weights = joint_weights;
    p.target = v3(target);
    aim_axes(forward, up, up_model, &p.forward, &p.up, &p.up_model);
    p.clamp_weight = clamp_weight;
    p.weight = weight;
    return ak_look_at_run(&p, local, world, res, err);
}

/* ---- The walker: the library's walk scenario (animkit/scenario.h), set up from the same
 * flags as `animkit walk` ---- */

/* The scene from parsed walk-scenario params. */
static ak_walk_scene *walk_scene(const ak_walk_scenario_params *scenario, ak_error *err)
{
    ak_walk_scene *scene = NULL;
    if (ak_walk_scene_create(scenario, ak_tools_png_heightmap_loader, &scene, err) != AK_OK)
        return NULL;
    return scene;
}

/* argv: argc C strings, the walk flags without a program name. NULL with err set on failure
 * (the flag table's own messages: unknown flag, bad value, range). */
AKW ak_walk_scene *akw_walker_create(int32_t argc, const char **argv, ak_error *err)
{
    const char *args[130];
    if (argc < 0 || argc > 128) {
        ak_error_set(err, AK_ERR_INVALID_ARG, 0, "too many walker flags");
        return NULL;
    }
    args[0] = "walk";
    for (int32_t i = 0; i < argc; ++i)
        args[i + 1] = argv[i];
    ak_walk_scenario_params scenario = ak_walk_scenario_defaults();
    const ak_flag_table *tables[1] = {ak_walk_scenario_flags()};
    void *params[1] = {&scenario};
    ak_flags_result parsed;
    if (ak_flags_parse_args(tables, params, 1, argc + 1, args, 0, &parsed, err) != AK_OK)
        return NULL;
    return walk_scene(&scenario, err);
}

/* The same from a URL query ("terrain=stairs&target=5,2&no-foot-ik"), the scenario's own
 * URL syntax (switches take no value or 1/true/on, 0/false/off). */
AKW ak_walk_scene *akw_walker_create_query(const char *query, ak_error *err)
{
    ak_walk_scenario_params scenario = ak_walk_scenario_defaults();
    ak_flags_result parsed;
    if (ak_flags_parse_query(ak_walk_scenario_flags(), &scenario, query, &parsed, err) != AK_OK)
        return NULL;
    return walk_scene(&scenario, err);
}

AKW void akw_walker_destroy(ak_walk_scene *scene)
{
    ak_walk_scene_destroy(scene);
}

/* The walk summary the JS Walker keeps beside its scene (walker.summary()): the CLI's and
 * Python's line, every frame since the placing step. */
AKW int32_t akw_summary_size(void)
{
    return (int32_t)sizeof(ak_walk_summary);
}

AKW int32_t akw_summary_begin(ak_walk_summary *summary, ak_walk_scene *scene, ak_error *err)
{
    if (ak_walk_summary_begin(summary, scene, err) != AK_OK) return err->status;
    ak_walk_summary_add(summary, scene, 1);
    return AK_OK;
}

AKW int32_t akw_summary_json(const ak_walk_summary *summary, ak_walk_scene *scene, char *buf,
                             int32_t cap, ak_error *err)
{
    if (cap <= 0) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "summary buffer size %d", cap);
    return ak_walk_summary_json(summary, scene, buf, (size_t)cap, err);
}

/* Steps until frame `frame` is the last one stepped (0 = the placing step); going back
 * restarts. Every frame stepped is added to `summary` (begun again on a restart). */
AKW int32_t akw_walker_step_to(ak_walk_scene *scene, int32_t frame, ak_walk_summary *summary,
                               ak_error *err)
{
    ak_walk_scene_info info;
    ak_walk_scene_get_info(scene, &info);
    /* Frames past the scenario's budget (--max-time) are refused, not simulated: stepTo(1e9)
     * blocked for 2,900 s and 2^31-1 overflowed `frame + 1`. */
    if (frame < 0 || frame >= info.max_frames)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "frame %d is outside 0..%d (the walk's max-time in frames)", (int)frame,
                            (int)info.max_frames - 1);
    if (frame + 1 < info.frame) {
        ak_walk_scene_reset(scene);
        ak_walk_scene_get_info(scene, &info);
        if (summary && akw_summary_begin(summary, scene, err) != AK_OK) return err->status;
    }
    for (int32_t f = info.frame; f < frame + 1; ++f) {
        if (ak_walk_scene_step(scene, err) != AK_OK) return err->status;
        if (summary) ak_walk_summary_add(summary, scene, 0);
    }
    return AK_OK;
}

/* out: max_frames, joint_count, skeleton pointer, frames stepped; *frame_time. */
AKW void akw_walker_fields(const ak_walk_scene *scene, int32_t *out, float *frame_time)
{
    ak_walk_scene_info info;
    ak_walk_scene_get_info(scene, &info);
    out[0] = info.max_frames;
    out[1] = ak_walk_scene_skeleton(scene)->joint_count;
    out[2] = (int32_t)(intptr_t)ak_walk_scene_skeleton(scene);
    out[3] = info.frame;
    *frame_time = info.frame_time;
}

AKW const ak_xform *akw_walker_world(ak_walk_scene *scene)
{
    return ak_walk_scene_world_pose(scene);
}

AKW void akw_walker_state(ak_walk_scene *scene, ak_walker_state *out)
{
    ak_walk_scene_get_state(scene, out);
}

AKW void akw_walker_set_target(ak_walk_scene *scene, float x, float z)
{
    ak_walk_scene_set_target(scene, ak_vec3_make(x, 0.0f, z));
}

/* ---- Retargeting (animkit/retarget.h) ---- */

/* The params from plain values: overrides may be NULL; floor_height NaN = the source's floor. */
static ak_retarget_params retarget_params(const ak_skeleton *source, const ak_clip *source_clip,
                                          const ak_skeleton *target, const char *source_overrides,
                                          const char *target_overrides, float scale,
                                          float floor_height, int32_t contacts, int32_t pin_hands,
                                          float fade_time)
{
    ak_retarget_params p = ak_retarget_defaults();
    p.source = source;
    p.source_clip = source_clip;
    p.target = target;
    p.source_overrides = source_overrides;
    p.target_overrides = target_overrides;
    p.scale = scale;
    p.floor_height = floor_height;
    p.contacts = contacts;
    p.pin_hands = pin_hands;
    if (fade_time >= 0) p.fade_time = fade_time;
    return p;
}

/* ak_retarget_info as AKW_RETARGET_INFO floats (counts converted): scale, leg_ratio,
 * heading_offset, source_sole, target_sole, source_floor, target_floor, mapped, chain, rest
 * joints, stance frames x4 (left/right foot, left/right hand), pinned_runs, max_pin_error, the
 * highest stance ankle [left, right] of the target and of the source mapped (-INFINITY: no
 * stance), reference_frame. */
enum { AKW_RETARGET_INFO = 21 };
static void info_floats(const ak_retarget_info *i, float *out)
{
    const float v[AKW_RETARGET_INFO] = {i->scale,
                                        i->leg_ratio,
                                        i->heading_offset,
                                        i->source_sole,
                                        i->target_sole,
                                        i->source_floor,
                                        i->target_floor,
                                        (float)i->mapped_joints,
                                        (float)i->chain_joints,
                                        (float)i->rest_joints,
                                        (float)i->stance_frames[0],
                                        (float)i->stance_frames[1],
                                        (float)i->stance_frames[2],
                                        (float)i->stance_frames[3],
                                        (float)i->pinned_runs,
                                        i->max_pin_error,
                                        i->stance_foot_height[0],
                                        i->stance_foot_height[1],
                                        i->source_stance_foot_height[0],
                                        i->source_stance_foot_height[1],
                                        (float)i->reference_frame};
    memcpy(out, v, sizeof v);
}

AKW int32_t akw_retarget_run(const ak_skeleton *source, const ak_clip *source_clip,
                             const ak_skeleton *target, const char *source_overrides,
                             const char *target_overrides, float scale, float floor_height,
                             int32_t contacts, int32_t pin_hands, float fade_time,
                             int32_t reference_frame, ak_clip **out_clip, float *info_out,
                             ak_error *err)
{
    ak_retarget_params p =
        retarget_params(source, source_clip, target, source_overrides, target_overrides, scale,
                        floor_height, contacts, pin_hands, fade_time);
    p.reference_frame = reference_frame;
    ak_retarget_info info;
    memset(&info, 0, sizeof info);
    int32_t st = ak_retarget_run(&p, out_clip, &info, err);
    info_floats(&info, info_out);
    return st;
}

AKW ak_retargeter *akw_retargeter_create(const ak_skeleton *source, const ak_skeleton *target,
                                         const char *source_overrides, const char *target_overrides,
                                         float scale, float floor_height, float *info_out,
                                         ak_error *err)
{
    ak_retarget_params p = retarget_params(source, NULL, target, source_overrides, target_overrides,
                                           scale, floor_height, 0, 0, -1.0f);
    ak_retargeter *r = NULL;
    if (ak_retargeter_create(&p, &r, err) != AK_OK) return NULL;
    ak_retarget_info info;
    ak_retargeter_get_info(r, &info);
    info_floats(&info, info_out);
    return r;
}

/* p: 3 floats in (a source world point), 3 out (where it lands on the target). */
AKW void akw_retargeter_map_point(const ak_retargeter *r, float *p)
{
    ak_vec3 q = ak_retargeter_map_point(r, ak_vec3_make(p[0], p[1], p[2]));
    p[0] = q.x;
    p[1] = q.y;
    p[2] = q.z;
}

/* ---- benchmark kernel (bench/web/, docs/web.md): the loop bench_web runs natively ---- */

/* `calls` times: sample at t (advancing 1/60 s, wrapping at the duration) and run FK. */
AKW void akw_bench_sample_fk(const ak_clip *clip, const ak_skeleton *sk, int32_t calls,
                             ak_xform *local, ak_xform *world)
{
    const float duration = ak_clip_duration(clip);
    float t = 0.0f;
    for (int32_t i = 0; i < calls; ++i) {
        ak_clip_sample(clip, sk, t, AK_INTERP_LINEAR, local);
        ak_fk(sk, local, world);
        t += 1.0f / 60.0f;
        if (t >= duration) t -= duration;
    }
}
