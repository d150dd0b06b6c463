/* Internal: the walk scene's fields, shared by walk_scene.c (terrain, guide walker, stepping)
 * and walk_scene_match.c (the motion database and matcher of steer match). */
#ifndef AK_SCENARIO_WALK_SCENE_INTERNAL_H
#define AK_SCENARIO_WALK_SCENE_INTERNAL_H

#include "animkit/clipfile.h"
#include "animkit/scenario.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The helpers both files use are inline here, so walk_scene.c uses walk_scene_match.c and
 * not the other way round (no circle of files). */
struct ak_walk_scene {
    ak_skeleton *source_skeleton; /* the walk clip's, file units */
    ak_clip *source_clip;
    ak_skeleton *idle_skeleton;
    ak_clip *idle_clip;
    uint8_t *builtin_stance; /* the built-in walk's contacts: left frames, then right */
    ak_walk_motion *motion;
    ak_terrain *terrain;
    ak_ground terrain_ground; /* the terrain, world x,z */
    ak_ground ground;         /* what the stepper sees: the terrain in its frame (world - origin) */
    double origin[2];         /* world x,z of the guide walker's origin (moves on long walks) */
    ak_xform *world_pose;     /* the poses moved back to the world when origin is not 0,0 */
    ak_xform *local_pose;
    const ak_skeleton *pose_skeleton; /* the skeleton of those poses */
    /* The source's copy bones (the UE4 mannequin's ik_foot and ik_hand bones, metres) and the
     * stepper's poses with them put back on the feet and hands after each step (its own
     * frame; NULL without copies): what every pose accessor shows. */
    ak_copy_bones copies;
    const ak_skeleton *copies_skeleton;
    ak_xform *shown_local, *shown_model;
    ak_walker *walker;   /* guide walker (steer cycle/continuous), or NULL */
    ak_motion_db *db;    /* steer match, else NULL */
    ak_matcher *matcher; /* steer match, else NULL */
    float frame_time;
    int32_t max_frames, frame, hips;
    char clip_path[AK_FLAG_TEXT_MAX]; /* the first --clip, "" for the built-in walk */
    char clip_label[128];
    ak_clip_loader read_clip; /* every clip file: the caller's, or NULL: ak_clip_read_file_up */
    int32_t up;               /* the scenario's up (ak_up_axis) for ak_clip_read_file_up */
    /* The joint that carries the source's travel (the walk motion's, the database's) and why,
     * as ak_root_joint_describe says it: the walk summary's root_joint and the CLI's line. */
    ak_root_joint_report root;
    char root_name[AK_NAME_MAX];
    char root_why[256];
};

/* The walk's root-motion joint said, "" before it is known (akws_set_root). */
AK_INLINE const char *akws_root_why(const ak_walk_scene *w)
{
    return w ? w->root_why : "";
}

/* Records the root-motion joint `r` of skeleton `s` (the walk motion's or the database's). */
AK_INLINE void akws_set_root(ak_walk_scene *w, const ak_skeleton *s, const ak_root_joint_report *r)
{
    w->root = *r;
    snprintf(w->root_name, sizeof w->root_name, "%s", s->names[r->joint]);
    ak_root_joint_describe(s, r, w->root_why, sizeof w->root_why);
}

/* Reads a clip file of the scenario: the caller's loader, or the library's reader with the
 * scenario's up axis for BVH files. */
AK_INLINE int32_t akws_read_clip(const ak_walk_scene *w, const char *path, ak_skeleton **skeleton,
                                 ak_clip **clip, ak_error *err)
{
    return w->read_clip ? w->read_clip(path, skeleton, clip, err)
                        : ak_clip_read_file_up(path, w->up, skeleton, clip, err);
}

/* Length of s, at most max (s need not be terminated within max). */
AK_INLINE size_t akws_bounded_length(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        ++n;
    return n;
}

/* Prefixes err's message with where it came from ("walk.bvh:12: ..." when the parser gave a
 * line), keeping err->line; returns st. */
AK_INLINE int32_t ak_walk_scene_file_error(const char *path, int32_t st, ak_error *err)
{
    if (!err) return st;
    char prefix[160];
    if (err->line > 0)
        snprintf(prefix, sizeof prefix, "%.120s:%d: ", path, (int)err->line);
    else
        snprintf(prefix, sizeof prefix, "%.120s: ", path);
    const size_t p = strlen(prefix);
    size_t m = akws_bounded_length(err->message, sizeof err->message);
    if (m > sizeof err->message - 1 - p) m = sizeof err->message - 1 - p;
    memmove(err->message + p, err->message, m);
    memcpy(err->message, prefix, p);
    err->message[p + m] = '\0';
    err->status = st;
    return st;
}

/* Seconds: the least time limit that follows the walk (ak_walk_scene_time_limit). */
#define AK_WALK_MIN_TIME 60.0

/* The scenario's time limit in seconds: its max_time as given, or for 0 (the default) twice
 * the straight route from start to target at the walk's own speed (m/s), at least
 * AK_WALK_MIN_TIME and at most the flag's 100000 s. A fixed 60 s gave up on a walk its own
 * speed could not finish: Debian assimp-testmodels' Boxing_Toes.bvh shuffles at 0.24 m/s, the
 * default route is 14.4 m (60 s at that speed), and up the stairs it arrived at 66.4 s. */
AK_INLINE double ak_walk_scene_time_limit(const ak_walk_scenario_params *s, float speed)
{
    if (s->max_time > 0.0f) return (double)s->max_time;
    if (!(speed > 0.0f)) return AK_WALK_MIN_TIME;
    const double dx = (double)s->target[0] - (double)s->start[0];
    const double dz = (double)s->target[1] - (double)s->start[1];
    const double t = 2.0 * sqrt(dx * dx + dz * dz) / (double)speed;
    return t > AK_WALK_MIN_TIME ? (t < 100000.0 ? t : 100000.0) : AK_WALK_MIN_TIME;
}

/* frame_time, max_frames from the scenario's time limit (ak_walk_scene_time_limit) for a walk
 * at `speed` m/s. */
AK_INLINE void ak_walk_scene_set_timing(ak_walk_scene *w, const ak_walk_scenario_params *s,
                                        float frame_time, float speed)
{
    w->frame_time = frame_time;
    /* In double and capped: a tiny frame time times a long time limit overflows int32. */
    const double frames = ceil(ak_walk_scene_time_limit(s, speed) / (double)frame_time) + 1.0;
    w->max_frames = frames < 2147483647.0 ? (int32_t)frames : 2147483647;
}

/* The walkers' start_heading_deg (radians; NaN: facing the target) from the scenario's degrees. */
AK_INLINE float ak_walk_scene_start_heading(const ak_walk_scenario_params *s)
{
    return s->start_heading_deg == AK_WALK_FACE_TARGET
               ? NAN
               : s->start_heading_deg * 0.017453292519943295f;
}

/* The moving origin (walk_scene_origin.c): `ground` set to look up `terrain_ground` from the
 * stepper's frame; the pose buffers of the world accessors; after each step, the origin moved
 * when the guide walker is far from it. */
void ak_walk_scene_origin_init(ak_walk_scene *w, ak_ground terrain_ground);
int32_t ak_walk_scene_origin_alloc(ak_walk_scene *w, const ak_skeleton *skeleton, ak_error *err);
void ak_walk_scene_origin_free(ak_walk_scene *w);
int32_t ak_walk_scene_follow(ak_walk_scene *w, ak_error *err);

/* The copy bones of the source (found in its units, scaled by metres_per_unit to the
 * stepper's skeleton); allocates the shown poses when there are any. After each step,
 * akws_show_copies puts them back on the feet and hands of the stepper's pose. */
int32_t ak_walk_scene_copies_init(ak_walk_scene *w, const ak_skeleton *skeleton,
                                  const ak_copy_bones *found, float metres_per_unit, ak_error *err);
void ak_walk_scene_show_copies(ak_walk_scene *w);

/* Steer match: the database from the scenario's clips and library, and the matcher. */
int32_t ak_walk_scene_build_matcher(ak_walk_scene *w, const ak_walk_scenario_params *s,
                                    ak_error *err);

#endif
