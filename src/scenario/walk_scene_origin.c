/* The walk scene's moving origin (issue 26): a guide walker far from the world origin keeps
 * its precision because the scene moves the walker's origin, in whole metres, whenever the
 * character is more than AKWS_ORIGIN_RADIUS from it (ak_walker_shift_origin). The stepper
 * sees the terrain through `ground`, which adds the origin back in double; the world
 * accessors add it back to the state and the poses, the origin accessors do not. */
#include "walk_scene_internal.h"

#include <stdlib.h>
#include <string.h>

/* Metres from the origin before it moves: float positions step by 30 um at 256 m. */
#define AKWS_ORIGIN_RADIUS 256.0f

static int32_t origin_height_at(void *user, float x, float z, ak_ground_hit *out)
{
    const ak_walk_scene *w = (const ak_walk_scene *)user;
    return ak_ground_query(&w->terrain_ground, (float)((double)x + w->origin[0]),
                           (float)((double)z + w->origin[1]), out);
}

static int32_t origin_raycast(void *user, const ak_ground_ray *ray, ak_ground_hit *out)
{
    const ak_walk_scene *w = (const ak_walk_scene *)user;
    ak_ground_ray r = *ray;
    r.origin.x = (float)((double)r.origin.x + w->origin[0]);
    r.origin.z = (float)((double)r.origin.z + w->origin[1]);
    return ak_ground_cast(&w->terrain_ground, &r, out);
}

void ak_walk_scene_origin_init(ak_walk_scene *w, ak_ground terrain_ground)
{
    w->terrain_ground = terrain_ground;
    w->origin[0] = w->origin[1] = 0.0;
    w->ground.height_at = origin_height_at;
    w->ground.raycast = origin_raycast;
    w->ground.user = w;
}

int32_t ak_walk_scene_origin_alloc(ak_walk_scene *w, const ak_skeleton *skeleton, ak_error *err)
{
    const int32_t joints = skeleton->joint_count;
    w->pose_skeleton = skeleton;
    w->world_pose = (ak_xform *)malloc((size_t)joints * 2 * sizeof *w->world_pose);
    if (!w->world_pose) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    w->local_pose = w->world_pose + joints;
    return AK_OK;
}

void ak_walk_scene_origin_free(ak_walk_scene *w)
{
    free(w->world_pose);
    w->world_pose = w->local_pose = NULL;
    free(w->shown_local);
    w->shown_local = w->shown_model = NULL;
}

int32_t ak_walk_scene_copies_init(ak_walk_scene *w, const ak_skeleton *skeleton,
                                  const ak_copy_bones *found, float metres_per_unit, ak_error *err)
{
    w->copies = *found;
    ak_copy_bones_scale(&w->copies, metres_per_unit);
    w->copies_skeleton = skeleton;
    if (w->copies.count == 0) return AK_OK;
    const size_t joints = (size_t)skeleton->joint_count;
    w->shown_local = (ak_xform *)malloc(joints * 2 * sizeof *w->shown_local);
    if (!w->shown_local) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    w->shown_model = w->shown_local + joints;
    return AK_OK;
}

/* The stepper's own poses, before the copy bones are put back. */
static const ak_xform *stepper_model(const ak_walk_scene *w)
{
    return w->matcher ? ak_matcher_world_pose(w->matcher) : ak_walker_world_pose(w->walker);
}
static const ak_xform *stepper_local(const ak_walk_scene *w)
{
    return w->matcher ? ak_matcher_local_pose(w->matcher) : ak_walker_local_pose(w->walker);
}

void ak_walk_scene_show_copies(ak_walk_scene *w)
{
    if (!w->shown_local) return;
    const size_t bytes = (size_t)w->copies_skeleton->joint_count * sizeof(ak_xform);
    memcpy(w->shown_local, stepper_local(w), bytes);
    memcpy(w->shown_model, stepper_model(w), bytes);
    ak_copy_bones_apply(w->copies_skeleton, &w->copies, w->shown_local, w->shown_model);
}

int32_t ak_walk_scene_follow(ak_walk_scene *w, ak_error *err)
{
    if (!w->walker) return AK_OK; /* the matcher keeps the world origin */
    ak_walker_state s;
    ak_walker_get_state(w->walker, &s);
    if (fabsf(s.position.x) <= AKWS_ORIGIN_RADIUS && fabsf(s.position.z) <= AKWS_ORIGIN_RADIUS)
        return AK_OK;
    const ak_vec3 shift =
        ak_vec3_make(floorf(s.position.x + 0.5f), 0.0f, floorf(s.position.z + 0.5f));
    const int32_t st = ak_walker_shift_origin(w->walker, shift, err);
    if (st != AK_OK) return st;
    w->origin[0] += (double)shift.x;
    w->origin[1] += (double)shift.z;
    return AK_OK;
}

void ak_walk_scene_origin(const ak_walk_scene *w, double origin[2])
{
    if (!origin) return;
    origin[0] = w ? w->origin[0] : 0.0;
    origin[1] = w ? w->origin[1] : 0.0;
}

void ak_walk_scene_get_origin_state(const ak_walk_scene *w, ak_walker_state *state)
{
    if (!w || !state) return;
    if (w->matcher)
        ak_matcher_get_state(w->matcher, state);
    else
        ak_walker_get_state(w->walker, state);
}

const ak_xform *ak_walk_scene_origin_pose(const ak_walk_scene *w)
{
    if (!w) return NULL;
    return w->shown_model ? w->shown_model : stepper_model(w);
}

static ak_vec3 to_world(const ak_walk_scene *w, ak_vec3 p)
{
    p.x = (float)((double)p.x + w->origin[0]);
    p.z = (float)((double)p.z + w->origin[1]);
    return p;
}

static int origin_moved(const ak_walk_scene *w)
{
    return w->origin[0] != 0.0 || w->origin[1] != 0.0;
}

void ak_walk_scene_get_state(const ak_walk_scene *w, ak_walker_state *state)
{
    if (!w || !state) return;
    ak_walk_scene_get_origin_state(w, state);
    if (!origin_moved(w)) return;
    state->position = to_world(w, state->position);
    for (int k = 0; k < 2; ++k) {
        state->sole[k] = to_world(w, state->sole[k]);
        state->toe[k] = to_world(w, state->toe[k]);
    }
}

const ak_xform *ak_walk_scene_world_pose(const ak_walk_scene *w)
{
    const ak_xform *pose = ak_walk_scene_origin_pose(w);
    if (!pose || !origin_moved(w) || !w->world_pose) return pose;
    const int32_t n = w->pose_skeleton->joint_count;
    for (int32_t j = 0; j < n; ++j) {
        w->world_pose[j] = pose[j];
        w->world_pose[j].translation = to_world(w, pose[j].translation);
    }
    return w->world_pose;
}

const ak_xform *ak_walk_scene_local_pose(const ak_walk_scene *w)
{
    if (!w) return NULL;
    const ak_xform *pose = w->shown_local ? w->shown_local : stepper_local(w);
    if (!pose || !origin_moved(w) || !w->local_pose) return pose;
    const ak_skeleton *sk = w->pose_skeleton;
    for (int32_t j = 0; j < sk->joint_count; ++j) {
        w->local_pose[j] = pose[j];
        if (sk->parents[j] < 0) w->local_pose[j].translation = to_world(w, pose[j].translation);
    }
    return w->local_pose;
}
