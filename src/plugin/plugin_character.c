/* Characters: the guide-joint walker with foot IK behind a handle, in the two-phase form
 * (the engine moves the character and casts the ground rays; no callbacks).
 *
 * Frames: the walker works in animkit's right-handed world; everything crossing the ABI is
 * mirrored to Unity's frame (points and directions (x,y,-z); rotations (-x,-y,z,w); a yaw of
 * h radians right-handed is a Unity yaw of -h). */
#include "plugin/plugin_internal.h"

#include "animkit/locomotion.h"
#include "core/xform_inline.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef char akp_check_ray[sizeof(ak_plugin_ray) == sizeof(ak_ground_ray) ? 1 : -1];
typedef char akp_check_hit[sizeof(ak_plugin_ground_hit) == sizeof(ak_ground_hit) ? 1 : -1];
typedef char akp_check_rays[AK_WALKER_RAY_COUNT <= AK_PLUGIN_CHARACTER_MAX_RAYS ? 1 : -1];

typedef struct akp_character {
    akp_object hdr;
    akp_skeleton *skeleton; /* retained */
    akp_clip *walk;         /* retained */
    akp_clip *idle;         /* retained, may be NULL */
    ak_walk_motion *motion;
    ak_walker *walker;
    int32_t joint_count;
    ak_vec3 target;      /* right-handed, the last target given */
    akp_summary summary; /* the walk's measures (ak_plugin_character_summary_get) */
    /* The walk clip's copy bones (ak_copy_bones: the UE4 mannequin's ik_foot and ik_hand
     * bones) and the walker's last poses with them put back on the walked feet and hands
     * (local, then world; NULL without copies): what the pose accessors give. */
    ak_copy_bones copies;
    ak_xform *shown;
} akp_character;

void akp_summary_init(akp_summary *s, const ak_humanoid *h, const ak_walk_metrics *source)
{
    memset(s, 0, sizeof *s);
    ak_walk_metrics_reset(&s->walk);
    const int32_t upper[2] = {h->joint[AK_HUM_LEFT_UPPER_LEG], h->joint[AK_HUM_RIGHT_UPPER_LEG]};
    const int32_t lower[2] = {h->joint[AK_HUM_LEFT_LOWER_LEG], h->joint[AK_HUM_RIGHT_LOWER_LEG]};
    const int32_t foot[2] = {h->joint[AK_HUM_LEFT_FOOT], h->joint[AK_HUM_RIGHT_FOOT]};
    ak_walk_metrics_set_legs(&s->walk, upper, lower, foot);
    s->hips = h->joint[AK_HUM_HIPS] >= 0 ? h->joint[AK_HUM_HIPS] : 0;
    if (source) s->source = *source;
}

void akp_summary_add(akp_summary *s, const ak_walker_state *state, const ak_xform *world)
{
    ak_walk_metrics_add(&s->walk, state, world, s->hips, s->added ? s->dt : 0.0f);
    ++s->added;
}

void akp_summary_get(const akp_summary *s, ak_plugin_walk_summary *out)
{
    const float deg = 180.0f / AK_PI;
    memset(out, 0, sizeof *out);
    out->frames = s->walk.frames;
    out->deepest_any_phase = s->walk.deepest;
    out->deepest_planted = s->walk.deepest_planted;
    out->skate = s->walk.skate;
    out->max_skate = s->walk.max_skate;
    out->hip_accel_min_g = s->walk.hip_accel_min_g;
    out->hip_accel_max_g = s->walk.hip_accel_max_g;
    out->knee_peak_deg = s->walk.knee_peak * deg;
    out->source_hip_accel_min_g = s->source.hip_accel_min_g;
    out->source_hip_accel_max_g = s->source.hip_accel_max_g;
    out->source_knee_peak_deg = s->source.knee_peak * deg;
    ak_walk_drag drag;
    ak_walk_metrics_drag_worst(&s->walk, &s->source, &drag);
    out->drag_m_s = drag.speed;
    out->source_drag_m_s = drag.bound;
}

static void character_free(akp_object *obj)
{
    akp_character *c = (akp_character *)obj;
    ak_walker_destroy(c->walker);
    ak_walk_motion_destroy(c->motion);
    free(c->shown);
    if (c->idle) akp_release(&c->idle->hdr);
    if (c->walk) akp_release(&c->walk->hdr);
    if (c->skeleton) akp_release(&c->skeleton->hdr);
    free(c);
}

static int32_t acquire_character(ak_handle h, akp_character **out)
{
    return akp_acquire(h, AKP_KIND_CHARACTER, (akp_object **)out);
}

AK_PLUGIN_API int32_t ak_plugin_character_defaults(ak_plugin_character_params *out)
{
    if (!out) return AK_ERR_INVALID_ARG;
    const ak_walker_params w = ak_walker_defaults();
    const ak_walk_motion_params m = ak_walk_motion_defaults();
    memset(out, 0, sizeof *out);
    out->start = akp_mirror_point(w.start);
    out->target = akp_mirror_point(w.target);
    out->face_target = isnan(w.start_heading) ? 1 : 0;
    out->start_heading_deg = isnan(w.start_heading) ? 0.0f : -w.start_heading * 57.29577951f;
    out->arrival_radius = w.arrival_radius;
    out->steer = w.steer;
    out->turn_rate_deg = w.turn_rate * 57.29577951f;
    out->interp = w.interp;
    out->ground_smoothing = w.ground_smoothing;
    out->idle_fade = w.idle_fade;
    out->use_controller = w.use_controller;
    out->foot_ik = w.foot_ik;
    out->foot_weight = w.foot.weight;
    out->max_tilt_deg = w.foot.max_tilt * 180.0f / AK_PI; /* radians -> degrees */
    out->max_hip_drop = w.foot.max_hip_drop;
    out->hip_drop_rate = w.foot.hip_drop_rate;
    out->pole_distance = w.foot.pole_distance;
    out->lock_feet = w.foot.lock_feet;
    out->cycle_start = m.cycle_start;
    out->cycle_end = m.cycle_end;
    out->seam_blend = m.seam_blend;
    return AK_OK;
}

#define CHAR_RANGE(f, lo, hi)                                                                      \
    {                                                                                              \
#f, offsetof(ak_plugin_character_params, f), lo, hi, NULL, NULL                            \
    }
#define CHAR_LIB(f, table, lib)                                                                    \
    {                                                                                              \
#f, offsetof(ak_plugin_character_params, f), 0.0f, 0.0f, table, #lib                       \
    }
static const akp_range k_character_ranges[] = {
    CHAR_RANGE(start.x, -AKP_MAX_COORD, AKP_MAX_COORD),
    CHAR_RANGE(start.y, -AKP_MAX_COORD, AKP_MAX_COORD),
    CHAR_RANGE(start.z, -AKP_MAX_COORD, AKP_MAX_COORD),
    CHAR_RANGE(target.x, -AKP_MAX_COORD, AKP_MAX_COORD),
    CHAR_RANGE(target.y, -AKP_MAX_COORD, AKP_MAX_COORD),
    CHAR_RANGE(target.z, -AKP_MAX_COORD, AKP_MAX_COORD),
    CHAR_RANGE(start_heading_deg, -1e6f, 1e6f),
    CHAR_LIB(arrival_radius, ak_walker_param_ranges, arrival_radius),
    CHAR_RANGE(turn_rate_deg, 1e-3f, 1e5f),
    CHAR_LIB(ground_smoothing, ak_walker_param_ranges, ground_smoothing),
    CHAR_LIB(idle_fade, ak_walker_param_ranges, idle_fade),
    CHAR_LIB(foot_weight, ak_foot_ik_param_ranges, weight),
    CHAR_RANGE(max_tilt_deg, 0.0f, 89.0f), /* degrees: ak_foot_ik_params.max_tilt in radians */
    CHAR_LIB(max_hip_drop, ak_foot_ik_param_ranges, max_hip_drop),
    CHAR_LIB(hip_drop_rate, ak_foot_ik_param_ranges, hip_drop_rate),
    CHAR_LIB(pole_distance, ak_foot_ik_param_ranges, pole_distance),
    CHAR_RANGE(seam_blend, 0.0f, 10.0f),
};

static void format_error(char *buffer, int32_t size, const char *what, const ak_error *e)
{
    char text[AKP_ERROR_MAX];
    snprintf(text, sizeof text, "%s: %s (%s)", what, e->message, ak_status_name(e->status));
    akp_copy_text(buffer, size, text);
}

/* The walker's params from the plugin's (Unity space mirrored into animkit's). */
static ak_walker_params character_walker_params(const ak_plugin_character_params *pp,
                                                const akp_clip *idle)
{
    ak_walker_params wp = ak_walker_defaults();
    wp.start = akp_mirror_point(pp->start);
    wp.target = akp_mirror_point(pp->target);
    wp.start_heading = pp->face_target ? NAN : -pp->start_heading_deg * 0.01745329252f;
    wp.arrival_radius = pp->arrival_radius;
    wp.steer = pp->steer;
    wp.turn_rate = pp->turn_rate_deg * 0.01745329252f;
    wp.interp = pp->interp;
    wp.ground_smoothing = pp->ground_smoothing;
    wp.idle_fade = pp->idle_fade;
    wp.use_controller = pp->use_controller;
    wp.foot_ik = pp->foot_ik;
    wp.foot.weight = pp->foot_weight;
    wp.foot.max_tilt = pp->max_tilt_deg * AK_PI / 180.0f;
    wp.foot.max_hip_drop = pp->max_hip_drop;
    wp.foot.hip_drop_rate = pp->hip_drop_rate;
    wp.foot.pole_distance = pp->pole_distance;
    wp.foot.lock_feet = pp->lock_feet;
    if (idle) {
        wp.idle_clip = idle->clip;
        wp.idle_metres_per_unit = 1.0f;
    }
    return wp;
}

/* The skeleton, the walk clip and (when hi is not null) the idle clip. */
static int32_t character_acquire(akp_character *c, ak_handle hs, ak_handle hw, ak_handle hi,
                                 char *error_buffer, int32_t error_size)
{
    int32_t st = akp_create_acquire(hs, AKP_KIND_SKELETON, (akp_object **)&c->skeleton, "character",
                                    error_buffer, error_size);
    if (st == AK_OK)
        st = akp_create_acquire(hw, AKP_KIND_CLIP, (akp_object **)&c->walk, "character",
                                error_buffer, error_size);
    if (st == AK_OK && hi)
        st = akp_create_acquire(hi, AKP_KIND_CLIP, (akp_object **)&c->idle, "character",
                                error_buffer, error_size);
    return st;
}

/* The walker's local and world pose, with the copy bones back on the feet and hands when the
 * walk clip has any (ak_walk_scene shows the same for the CLI, Python and the web page). */
static const ak_xform *shown_local(const akp_character *c)
{
    return c->shown ? c->shown : ak_walker_local_pose(c->walker);
}
static const ak_xform *shown_world(const akp_character *c)
{
    return c->shown ? c->shown + c->joint_count : ak_walker_world_pose(c->walker);
}

/* After the walker posed the character: its poses with the copy bones put back (the walker's
 * foot IK and root placement move the feet and hands and leave the bones that copy them: CMU
 * 02_01 in the UE4 shape walked 3 s by the plugin had them up to 0.154 m off, test_plugin_character
 * copy_bones_stay_on_the_walked_feet_and_hands). */
static void character_show(akp_character *c)
{
    if (!c->shown) return;
    const size_t bytes = sizeof(ak_xform) * (size_t)c->joint_count;
    memcpy(c->shown, ak_walker_local_pose(c->walker), bytes);
    memcpy(c->shown + c->joint_count, ak_walker_world_pose(c->walker), bytes);
    ak_copy_bones_apply(ak_walk_motion_skeleton(c->motion), &c->copies, c->shown,
                        c->shown + c->joint_count);
}

/* The walk clip's copy bones (the plugin's clips are in metres: no scale) and room for the
 * poses shown with them. */
static int32_t character_copies(akp_character *c, char *error_buffer, int32_t error_size)
{
    ak_error err;
    ak_error_clear(&err);
    const int32_t status =
        ak_copy_bones_find(c->skeleton->skeleton, c->walk->clip, &c->copies, &err);
    if (status != AK_OK) {
        format_error(error_buffer, error_size, "copy bones", &err);
        return status;
    }
    if (c->copies.count == 0) return AK_OK;
    c->shown = (ak_xform *)malloc(sizeof(ak_xform) * 2 * (size_t)c->joint_count);
    if (!c->shown) {
        akp_copy_text(error_buffer, error_size, "out of memory");
        return AK_ERR_NOMEM;
    }
    return AK_OK;
}

/* The walk motion (cycle cut from the walk clip) and the walker on it, placed at the start. */
static int32_t character_build(akp_character *c, const ak_plugin_character_params *pp,
                               char *error_buffer, int32_t error_size)
{
    ak_error err;
    ak_error_clear(&err);
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    mp.metres_per_unit = 1.0f; /* the plugin's skeletons and clips are in metres already */
    mp.cycle_start = pp->cycle_start;
    mp.cycle_end = pp->cycle_end;
    mp.seam_blend = pp->seam_blend;
    mp.root_joint = pp->root_joint && pp->root_joint[0] ? pp->root_joint : NULL;
    int32_t status =
        ak_walk_motion_create(c->skeleton->skeleton, c->walk->clip, &mp, &c->motion, &err);
    if (status != AK_OK) {
        format_error(error_buffer, error_size, "walk motion", &err);
        return status;
    }
    const ak_walker_params wp = character_walker_params(pp, c->idle);
    status = ak_walker_create(c->motion, &wp, NULL, &c->walker, &err);
    if (status != AK_OK) {
        format_error(error_buffer, error_size, "walker", &err);
        return status;
    }
    c->target = wp.target;
    ak_walk_metrics source;
    status = ak_walk_metrics_source(c->motion, &source, &err);
    if (status != AK_OK) {
        format_error(error_buffer, error_size, "walk summary", &err);
        return status;
    }
    akp_summary_init(&c->summary, ak_walk_motion_humanoid(c->motion), &source);
    /* Start on the given point (create placed it at y = 0 without a ground). */
    ak_walker_set_position(c->walker, wp.start);
    status = character_copies(c, error_buffer, error_size);
    if (status == AK_OK) character_show(c);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_character_create(ak_handle hs, ak_handle hw, ak_handle hi,
                                                 const ak_plugin_character_params *pp,
                                                 ak_handle *out, char *error_buffer,
                                                 int32_t error_size)
{
    int32_t status = akp_create_begin(
        pp, k_character_ranges, (int32_t)(sizeof k_character_ranges / sizeof k_character_ranges[0]),
        "character", "params and out_character are required", out, error_buffer, error_size);
    if (status != AK_OK) return status;
    akp_character *c = (akp_character *)calloc(1, sizeof *c);
    if (!c) {
        akp_copy_text(error_buffer, error_size, "out of memory");
        return AK_ERR_NOMEM;
    }
    c->hdr.kind = AKP_KIND_CHARACTER;
    c->hdr.free_fn = character_free;
    status = character_acquire(c, hs, hw, hi, error_buffer, error_size);
    if (status == AK_OK) {
        c->joint_count = c->skeleton->skeleton->joint_count;
        status = character_build(c, pp, error_buffer, error_size);
    }
    if (status != AK_OK) {
        character_free(&c->hdr);
        return status;
    }
    return akp_create_register(&c->hdr, out, error_buffer, error_size);
}

/* A captured start's or stop's check for the ABI (degrees). */
static void transition_out(const ak_transition_check *c, ak_plugin_transition *out)
{
    const float deg = 180.0f / AK_PI;
    out->use = c->use;
    out->broken = c->broken;
    out->first_frame = c->frames[0];
    out->last_frame = c->frames[1];
    out->hip_accel_min_g = c->hip_accel_min_g;
    out->hip_accel_max_g = c->hip_accel_max_g;
    out->hip_accel_low_g = c->hip_accel_low_g;
    out->hip_accel_high_g = c->hip_accel_high_g;
    out->knee_peak_deg = c->knee_peak * deg;
    out->knee_bound_deg = c->knee_bound * deg;
}

AK_PLUGIN_API int32_t ak_plugin_character_info_get(ak_handle h, ak_plugin_character_info *out)
{
    akp_character *c;
    int32_t status = acquire_character(h, &c);
    if (status != AK_OK) return status;
    if (!out) {
        status = akp_fail(&c->hdr, AK_ERR_INVALID_ARG, "out is null");
    } else {
        ak_walk_motion_info mi;
        ak_walk_motion_get_info(c->motion, &mi);
        out->joint_count = c->joint_count;
        out->cycle_start = mi.cycle_start;
        out->cycle_end = mi.cycle_end;
        out->cycle_time = mi.cycle_time;
        out->stride_length = mi.stride_length;
        out->speed = mi.speed;
        out->sole_height[0] = mi.sole_height[0];
        out->sole_height[1] = mi.sole_height[1];
        transition_out(&mi.start_check, &out->start);
        transition_out(&mi.stop_check, &out->stop);
    }
    akp_release(&c->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_character_set_target(ak_handle h, const ak_vec3 *target)
{
    akp_character *c;
    int32_t status = acquire_character(h, &c);
    if (status != AK_OK) return status;
    status = akp_check_coord(&c->hdr, target, "target");
    if (status == AK_OK) {
        /* Engines set the target every frame; only a moved target restarts the walk (the
         * walker clears its arrival on every new target). */
        const ak_vec3 t = akp_mirror_point(*target);
        const float dx = t.x - c->target.x, dz = t.z - c->target.z;
        if (dx * dx + dz * dz > 1e-8f) {
            c->target = t;
            ak_walker_set_target(c->walker, t);
        }
    }
    akp_release(&c->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_character_begin(ak_handle h, float dt, ak_vec3 *out_move)
{
    akp_character *c;
    int32_t status = acquire_character(h, &c);
    if (status != AK_OK) return status;
    if (!out_move) {
        status = akp_fail(&c->hdr, AK_ERR_INVALID_ARG, "out_move is null");
    } else if (!(dt > 0.0f && dt <= AKP_MAX_DT)) {
        status = akp_fail(&c->hdr, AK_ERR_INVALID_ARG, "dt = %g: must be in (0, %g] seconds",
                          (double)dt, (double)AKP_MAX_DT);
    } else {
        ak_vec3 move;
        ak_error err;
        ak_error_clear(&err);
        status = ak_walker_begin(c->walker, dt, &move, &err);
        if (status != AK_OK)
            akp_fail(&c->hdr, status, "walker: %s", err.message);
        else
            *out_move = akp_mirror_point(move);
        c->summary.dt = dt;
    }
    akp_release(&c->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_character_set_position(ak_handle h, const ak_vec3 *position)
{
    akp_character *c;
    int32_t status = acquire_character(h, &c);
    if (status != AK_OK) return status;
    status = akp_check_coord(&c->hdr, position, "position");
    if (status == AK_OK) ak_walker_set_position(c->walker, akp_mirror_point(*position));
    akp_release(&c->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_character_ground_rays(ak_handle h, ak_plugin_ray *out,
                                                      int32_t capacity, int32_t *out_count)
{
    akp_character *c;
    int32_t status = acquire_character(h, &c);
    if (status != AK_OK) return status;
    if (out_count) *out_count = AK_WALKER_RAY_COUNT;
    if (!out || !out_count || capacity < AK_WALKER_RAY_COUNT) {
        akp_fail(&c->hdr, AK_ERR_INVALID_ARG,
                 "rays and out_count are required, with room for %d rays", AK_WALKER_RAY_COUNT);
        status = AK_ERR_INVALID_ARG;
    } else {
        ak_ground_ray rays[AK_WALKER_RAY_COUNT];
        ak_walker_ground_rays(c->walker, rays, AK_WALKER_RAY_COUNT);
        for (int32_t i = 0; i < AK_WALKER_RAY_COUNT; ++i) {
            out[i].origin = akp_mirror_point(rays[i].origin);
            out[i].direction = akp_mirror_point(rays[i].direction);
            out[i].max_distance = rays[i].max_distance;
        }
    }
    akp_release(&c->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_character_finish(ak_handle h, const ak_plugin_ground_hit *hits,
                                                 int32_t count)
{
    akp_character *c;
    int32_t status = acquire_character(h, &c);
    if (status != AK_OK) return status;
    if (!hits || count < AK_WALKER_RAY_COUNT) {
        akp_fail(&c->hdr, AK_ERR_INVALID_ARG, "hits need %d entries (one per ray), got %d",
                 AK_WALKER_RAY_COUNT, (int)count);
        status = AK_ERR_INVALID_ARG;
    } else {
        ak_ground_hit g[AK_WALKER_RAY_COUNT];
        akp_hits_in(hits, g, AK_WALKER_RAY_COUNT);
        ak_error err;
        ak_error_clear(&err);
        status = ak_walker_finish(c->walker, g, AK_WALKER_RAY_COUNT, &err);
        if (status != AK_OK) {
            akp_fail(&c->hdr, status, "walker: %s", err.message);
        } else {
            ak_walker_state s;
            ak_walker_get_state(c->walker, &s);
            akp_summary_add(&c->summary, &s, ak_walker_world_pose(c->walker));
            character_show(c);
        }
    }
    akp_release(&c->hdr);
    return status;
}

/* The character transform (right-handed): ground point + yaw. */
static ak_xform character_xform(const ak_walker_state *s)
{
    ak_xform x;
    x.rotation = ak_quat_yaw(s->heading);
    x.translation = s->position;
    return x;
}

AK_PLUGIN_API int32_t ak_plugin_character_state_get(ak_handle h, ak_plugin_character_state *out)
{
    akp_character *c;
    int32_t status = acquire_character(h, &c);
    if (status != AK_OK) return status;
    if (!out) {
        status = akp_fail(&c->hdr, AK_ERR_INVALID_ARG, "out is null");
    } else {
        ak_walker_state s;
        ak_walker_get_state(c->walker, &s);
        const ak_xform ch = character_xform(&s);
        const ak_vec3 fwd = {0.0f, 0.0f, 1.0f};
        out->position = akp_mirror_point(s.position);
        out->rotation = akp_mirror_rotation(ch.rotation);
        out->facing = akp_mirror_point(akq_rotate(ch.rotation, fwd));
        out->time = s.time;
        out->clip_time = s.clip_time;
        out->cycle = s.cycle;
        out->distance = s.distance;
        out->path_length = s.path_length;
        out->arrived = s.arrived;
        out->stopped = s.stopped;
        out->idle_weight = s.idle_weight;
        for (int k = 0; k < 2; ++k) {
            /* Planted on the sole point: not while the heel is up (rolling on the toe). */
            out->stance[k] = s.stance[k] && (s.contact[k] & AK_CONTACT_HEEL) != 0;
            out->sole[k] = akp_mirror_point(s.sole[k]);
            out->tilt_deg[k] = s.tilt[k] * 180.0f / AK_PI;
        }
        out->hip_drop = s.hip_drop;
    }
    akp_release(&c->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_character_pose(ak_handle h, ak_plugin_xform *out_local,
                                               ak_plugin_xform *out_model, int32_t count)
{
    akp_character *c;
    int32_t status = acquire_character(h, &c);
    if (status != AK_OK) return status;
    const int32_t n = c->joint_count;
    if (!out_local && !out_model)
        status = akp_fail(&c->hdr, AK_ERR_INVALID_ARG, "no output buffer");
    else if (count < n)
        status =
            akp_fail(&c->hdr, AK_ERR_INVALID_ARG,
                     "output holds %d entries, the skeleton has %d joints", (int)count, (int)n);
    if (status == AK_OK) {
        ak_walker_state s;
        ak_walker_get_state(c->walker, &s);
        const ak_xform inv = akx_inverse(character_xform(&s));
        const ak_xform *local = shown_local(c);
        const ak_xform *world = shown_world(c);
        if (out_local) {
            ak_xform *o = (ak_xform *)out_local;
            memcpy(o, local, sizeof(ak_xform) * (size_t)n);
            /* Roots carry the character transform; take it back out. */
            for (int32_t j = 0; j < n; ++j)
                if (c->skeleton->skeleton->parents[j] < 0) o[j] = akx_mul(inv, o[j]);
            akp_mirror_xforms(o, n);
        }
        if (out_model) {
            ak_xform *o = (ak_xform *)out_model;
            for (int32_t j = 0; j < n; ++j)
                o[j] = akx_mul(inv, world[j]);
            akp_mirror_xforms(o, n);
        }
    }
    akp_release(&c->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_character_world_pose(ak_handle h, ak_plugin_xform *out,
                                                     int32_t count)
{
    akp_character *c;
    int32_t status = acquire_character(h, &c);
    if (status != AK_OK) return status;
    const int32_t n = c->joint_count;
    status = akp_check_joint_buffer(&c->hdr, out, count, n, "out_world");
    if (status == AK_OK) {
        memcpy(out, shown_world(c), sizeof(ak_xform) * (size_t)n);
        akp_mirror_xforms((ak_xform *)out, n);
    }
    akp_release(&c->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_character_summary_get(ak_handle h, ak_plugin_walk_summary *out)
{
    akp_character *c;
    int32_t status = acquire_character(h, &c);
    if (status != AK_OK) return status;
    if (!out)
        status = akp_fail(&c->hdr, AK_ERR_INVALID_ARG, "out is null");
    else
        akp_summary_get(&c->summary, out);
    akp_release(&c->hdr);
    return status;
}
