/* Internal: the walk scene's fields, shared by walk_scene.c (terrain, guide walker, stepping)
 * and walk_scene_match.c (the motion database and matcher of steer match). */
#ifndef AK_SCENARIO_WALK_SCENE_INTERNAL_H
#define AK_SCENARIO_WALK_SCENE_INTERNAL_H

#include "animkit/scenario.h"

struct ak_walk_scene {
    ak_skeleton *source_skeleton; /* the walk clip's, file units */
    ak_clip *source_clip;
    ak_skeleton *idle_skeleton;
    ak_clip *idle_clip;
    uint8_t *builtin_stance; /* the built-in walk's contacts: left frames, then right */
    ak_walk_motion *motion;
    ak_terrain *terrain;
    ak_ground ground;
    ak_walker *walker;   /* guide walker (steer cycle/continuous), or NULL */
    ak_motion_db *db;    /* steer match, else NULL */
    ak_matcher *matcher; /* steer match, else NULL */
    float frame_time;
    int32_t max_frames, frame, hips;
    char clip_path[AK_FLAG_TEXT_MAX]; /* the first --clip, "" for the built-in walk */
    char clip_label[128];
};

/* Prefixes err's message with where it came from ("walk.bvh:12: ..." when the parser gave a
 * line), keeping err->line; returns st. */
int32_t ak_walk_scene_file_error(const char *path, int32_t st, ak_error *err);
/* frame_time, max_frames from the scenario's max_time. */
void ak_walk_scene_set_timing(ak_walk_scene *w, const ak_walk_scenario *s, float frame_time);
/* Steer match: the database from the scenario's clips and library, and the matcher. */
int32_t ak_walk_scene_build_matcher(ak_walk_scene *w, const ak_walk_scenario *s, ak_error *err);

#endif
