/* The walk scene: what ak_walk_scenario_params describes, built once — the walk clip (a file or the
 * built-in procedural walk), the idle clip, the walk motion, the terrain and the walker; or,
 * with steer match, the motion database and the matcher (walk_scene_match.c). Stepping and
 * the character's accessors serve both. */
#include "walk_scene_internal.h"

#include "animkit/clipfile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t load_file_clip(ak_walk_scene *w, const ak_walk_scenario_params *s,
                              ak_walk_motion_params *mp, ak_error *err)
{
    const char *path = w->clip_path;
    const int32_t st = akws_read_clip(w, path, &w->source_skeleton, &w->source_clip, err);
    if (st != AK_OK) return ak_walk_scene_file_error(path, st, err);
    mp->metres_per_unit = s->scale;
    if (s->cycle[0] >= 0) {
        mp->cycle_start = s->cycle[0];
        mp->cycle_end = s->cycle[1];
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const size_t n = akws_bounded_length(base, sizeof w->clip_label - 1);
    memcpy(w->clip_label, base, n);
    w->clip_label[n] = '\0';
    return AK_OK;
}

/* The built-in procedural walk (metres, a ready loop with known contacts) and its idle. */
static int32_t make_builtin_clip(ak_walk_scene *w, const ak_walk_scenario_params *s,
                                 ak_walk_motion_params *mp, ak_error *err)
{
    const ak_walk_clip_params cp = ak_walk_clip_defaults();
    int32_t st = ak_walk_clip_create(&cp, &w->source_skeleton, &w->source_clip, err);
    if (st == AK_OK && !s->idle[0])
        st = ak_idle_clip_create(&cp, w->source_skeleton, &w->idle_clip, err);
    if (st != AK_OK) return ak_walk_scene_file_error("built-in walk", st, err);
    const int32_t frames = w->source_clip->frame_count;
    w->builtin_stance = (uint8_t *)malloc((size_t)frames * 2);
    if (!w->builtin_stance) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    st = ak_walk_clip_contacts(&cp, w->source_clip, w->builtin_stance, w->builtin_stance + frames,
                               err);
    if (st != AK_OK) return ak_walk_scene_file_error("built-in walk contacts", st, err);
    mp->metres_per_unit = 1.0f;
    mp->cycle_start = mp->cycle_end = 0;
    mp->stance_left = w->builtin_stance;
    mp->stance_right = w->builtin_stance + frames;
    snprintf(w->clip_label, sizeof w->clip_label, "built-in walk");
    return AK_OK;
}

static int32_t load_idle(ak_walk_scene *w, const char *path, ak_error *err)
{
    const int32_t st = akws_read_clip(w, path, &w->idle_skeleton, &w->idle_clip, err);
    if (st != AK_OK) return ak_walk_scene_file_error(path, st, err);
    if (w->idle_skeleton->joint_count != w->source_skeleton->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "%.120s: the idle clip has %d joints but the walk skeleton has %d: "
                            "they must match",
                            path, (int)w->idle_skeleton->joint_count,
                            (int)w->source_skeleton->joint_count);
    w->idle_clip->loop = 1;
    return AK_OK;
}

/* The idle clip takes the walk's shape: its travel on the top joint when the walk's was
 * measured (or named) below a still top joint, so the two crossfade joint by joint. */
static int32_t idle_like_walk(ak_walk_scene *w, ak_error *err)
{
    if (!w->idle_clip || !w->idle_skeleton) return AK_OK;
    ak_walk_motion_info info;
    ak_walk_motion_get_info(w->motion, &info);
    if (info.root_joint.joint == info.root_joint.top) return AK_OK;
    const int32_t st =
        ak_clip_root_motion_prepare(w->idle_skeleton, &w->idle_clip,
                                    w->source_skeleton->names[info.root_joint.joint], NULL, err);
    return st == AK_OK ? st : ak_walk_scene_file_error("idle clip", st, err);
}

static int ends_with_pgm(const char *path)
{
    const size_t n = strlen(path);
    if (n < 4) return 0;
    const char *e = path + n - 4;
    return e[0] == '.' && (e[1] | 32) == 'p' && (e[2] | 32) == 'g' && (e[3] | 32) == 'm';
}

static int32_t make_terrain(ak_walk_scene *w, const ak_walk_scenario_params *s,
                            ak_heightmap_loader image_loader, ak_error *err)
{
    int32_t st;
    if (s->heightmap[0] && (ends_with_pgm(s->heightmap) || !image_loader)) {
        st = ak_terrain_load_pgm(s->heightmap, s->size, s->height, &w->terrain, err);
        if (st != AK_OK) return ak_walk_scene_file_error(s->heightmap, st, err);
    } else if (s->heightmap[0]) {
        st = image_loader(s->heightmap, s->size, s->height, &w->terrain, err);
        if (st != AK_OK) return ak_walk_scene_file_error(s->heightmap, st, err);
    } else {
        ak_terrain_params tp = ak_terrain_defaults();
        tp.kind = s->terrain == AK_WALK_TERRAIN_FLAT     ? AK_TERRAIN_FLAT
                  : s->terrain == AK_WALK_TERRAIN_STAIRS ? AK_TERRAIN_STAIRS
                                                         : AK_TERRAIN_HILLS;
        tp.seed = (uint32_t)s->seed;
        st = ak_terrain_create(&tp, &w->terrain, err);
        if (st != AK_OK) return ak_walk_scene_file_error("terrain", st, err);
    }
    ak_walk_scene_origin_init(w, ak_terrain_ground(w->terrain));
    return AK_OK;
}

/* A start or target off the ground would walk on NaN: say which, and where the ground is. */
static int32_t check_on_ground(const ak_walk_scene *w, const ak_walk_scenario_params *s,
                               ak_error *err)
{
    ak_ground_hit hit;
    const char *off = !ak_ground_query(&w->ground, s->start[0], s->start[1], &hit)     ? "start"
                      : !ak_ground_query(&w->ground, s->target[0], s->target[1], &hit) ? "target"
                                                                                       : NULL;
    if (!off) return AK_OK;
    const float *p = off[0] == 's' ? s->start : s->target;
    float extent = 0.0f;
    ak_terrain_info(w->terrain, NULL, &extent, NULL, NULL);
    return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                        "--%s %g,%g is outside the ground (x and z span %g..%g m)", off,
                        (double)p[0], (double)p[1], -0.5 * (double)extent, 0.5 * (double)extent);
}

static int32_t make_walker(ak_walk_scene *w, const ak_walk_scenario_params *s, ak_error *err)
{
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(s->start[0], 0.0f, s->start[1]);
    wp.target = ak_vec3_make(s->target[0], 0.0f, s->target[1]);
    wp.start_heading = ak_walk_scene_start_heading(s);
    wp.steer = s->steer == AK_WALK_STEER_CONTINUOUS ? AK_STEER_CONTINUOUS : AK_STEER_CYCLE;
    wp.turn_rate = s->turn_rate_deg * 0.01745329252f; /* deg/s -> rad/s */
    wp.arrival_radius = s->arrival;
    wp.foot_ik = s->foot_ik;
    wp.idle_clip = w->idle_clip;
    int32_t st = ak_walker_create(w->motion, &wp, &w->ground, &w->walker, err);
    if (st != AK_OK) return ak_walk_scene_file_error("walker", st, err);
    if (ak_walk_scene_origin_alloc(w, ak_walk_motion_skeleton(w->motion), err) != AK_OK)
        return AK_ERR_NOMEM;
    /* A start far out moves the origin before the first step places the character there. */
    if ((st = ak_walk_scene_follow(w, err)) != AK_OK) return st;
    ak_walk_motion_info mi;
    ak_walk_motion_get_info(w->motion, &mi);
    ak_walk_scene_set_timing(w, s, ak_walk_motion_clip(w->motion)->frame_time, mi.speed);
    const ak_humanoid *h = ak_walk_motion_humanoid(w->motion);
    w->hips = h->joint[AK_HUM_HIPS] >= 0 ? h->joint[AK_HUM_HIPS] : 0;
    return AK_OK;
}

/* The walk clip's copy bones (ak_copy_bones_find on the source, file units), kept on the
 * walked feet and hands: the walker's foot IK and root placement moved the body and left them
 * (CMU 02_01 in the UE4 shape on flat ground: ik_foot_l up to 1.25 m off its foot in
 * walk.bvh, ik_hand_l 1.51 m). */
static int32_t find_copies(ak_walk_scene *w, const ak_walk_motion_info *mi, ak_error *err)
{
    ak_copy_bones found;
    const int32_t st = ak_copy_bones_find(w->source_skeleton, w->source_clip, &found, err);
    if (st != AK_OK) return st;
    return ak_walk_scene_copies_init(w, ak_walk_motion_skeleton(w->motion), &found,
                                     mi->metres_per_unit, err);
}

static int32_t build(ak_walk_scene *w, const ak_walk_scenario_params *s, ak_heightmap_loader loader,
                     ak_error *err)
{
    int32_t st = make_terrain(w, s, loader, err);
    if (st == AK_OK) st = check_on_ground(w, s, err);
    if (st != AK_OK) return st;
    if (s->steer == AK_WALK_STEER_MATCH) {
        st = ak_walk_scene_build_matcher(w, s, err);
        return st == AK_OK ? ak_walk_scene_step(w, err) : st;
    }
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    mp.use_captured_transitions = s->captured_transitions;
    mp.root_joint = s->root_joint[0] ? s->root_joint : NULL;
    ak_flags_list_item(s->clip, 0, w->clip_path, sizeof w->clip_path);
    st = w->clip_path[0] ? load_file_clip(w, s, &mp, err) : make_builtin_clip(w, s, &mp, err);
    if (st == AK_OK && s->idle[0]) st = load_idle(w, s->idle, err);
    if (st != AK_OK) return st;
    st = ak_walk_motion_create(w->source_skeleton, w->source_clip, &mp, &w->motion, err);
    if (st != AK_OK)
        return ak_walk_scene_file_error(w->clip_path[0] ? w->clip_path : "built-in walk", st, err);
    ak_walk_motion_info mi;
    ak_walk_motion_get_info(w->motion, &mi);
    akws_set_root(w, w->source_skeleton, &mi.root_joint);
    if ((st = idle_like_walk(w, err)) != AK_OK) return st;
    if ((st = find_copies(w, &mi, err)) != AK_OK) return st;
    st = make_walker(w, s, err);
    if (st == AK_OK) st = ak_walk_scene_step(w, err);
    return st;
}

int32_t ak_walk_scene_create(const ak_walk_scenario_params *scenario,
                             ak_heightmap_loader image_loader, ak_walk_scene **out, ak_error *err)
{
    return ak_walk_scene_create_with(scenario, image_loader, NULL, out, err);
}

int32_t ak_walk_scene_create_with(const ak_walk_scenario_params *scenario,
                                  ak_heightmap_loader image_loader, ak_clip_loader clip_loader,
                                  ak_walk_scene **out, ak_error *err)
{
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    *out = NULL;
    int32_t st = ak_walk_scenario_validate(scenario, err);
    if (st != AK_OK) return st;
    ak_walk_scene *w = (ak_walk_scene *)calloc(1, sizeof *w);
    if (!w) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    w->read_clip = clip_loader;
    w->up = scenario->up;
    st = build(w, scenario, image_loader, err);
    if (st != AK_OK) {
        ak_walk_scene_destroy(w);
        return st;
    }
    *out = w;
    return AK_OK;
}

void ak_walk_scene_destroy(ak_walk_scene *w)
{
    if (!w) return;
    ak_walker_destroy(w->walker);
    ak_matcher_destroy(w->matcher);
    ak_motion_db_destroy(w->db);
    ak_terrain_destroy(w->terrain);
    ak_walk_motion_destroy(w->motion);
    ak_clip_destroy(w->idle_clip);
    ak_skeleton_destroy(w->idle_skeleton);
    ak_clip_destroy(w->source_clip);
    ak_skeleton_destroy(w->source_skeleton);
    free(w->builtin_stance);
    ak_walk_scene_origin_free(w);
    free(w);
}

void ak_walk_scene_get_info(const ak_walk_scene *w, ak_walk_scene_info *info)
{
    if (!w || !info) return;
    info->frame_time = w->frame_time;
    info->max_frames = w->max_frames;
    info->frame = w->frame;
    info->hips = w->hips;
    info->clip_label = w->clip_label;
}

int32_t ak_walk_scene_step(ak_walk_scene *w, ak_error *err)
{
    if (!w) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null scene");
    const float dt = w->frame == 0 ? 0.0f : w->frame_time;
    const int32_t st = w->matcher ? ak_matcher_step(w->matcher, dt, &w->ground, err)
                                  : ak_walker_step(w->walker, dt, &w->ground, err);
    if (st != AK_OK) return st;
    ++w->frame;
    ak_walk_scene_show_copies(w);
    return ak_walk_scene_follow(w, err);
}

int32_t ak_walk_scene_step_range(ak_walk_scene *const *scenes, int32_t begin, int32_t end,
                                 ak_error *err)
{
    if (!scenes || begin < 0 || end < begin)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "scene range: need a scene array and 0 <= begin <= end (got %d, %d)",
                            (int)begin, (int)end);
    for (int32_t i = begin; i < end; ++i) {
        ak_error one = {0};
        const int32_t st = ak_walk_scene_step(scenes[i], &one);
        if (st != AK_OK)
            return ak_error_set(err, st, one.line, "scene %d: %s", (int)i, one.message);
    }
    return AK_OK;
}

void ak_walk_scene_reset(ak_walk_scene *w)
{
    if (!w) return;
    if (w->matcher)
        ak_matcher_reset(w->matcher, &w->ground);
    else
        ak_walker_reset(w->walker, &w->ground);
    w->frame = 0;
    ak_walk_scene_step(w, NULL);
}

void ak_walk_scene_set_target(ak_walk_scene *w, ak_vec3 target)
{
    if (!w) return;
    target.x = (float)((double)target.x - w->origin[0]);
    target.z = (float)((double)target.z - w->origin[1]);
    if (w->matcher)
        ak_matcher_set_target(w->matcher, target);
    else
        ak_walker_set_target(w->walker, target);
}

ak_walker *ak_walk_scene_walker(ak_walk_scene *w)
{
    return w ? w->walker : NULL;
}
const ak_walk_motion *ak_walk_scene_motion(const ak_walk_scene *w)
{
    return w ? w->motion : NULL;
}
ak_matcher *ak_walk_scene_matcher(ak_walk_scene *w)
{
    return w ? w->matcher : NULL;
}
const ak_motion_db *ak_walk_scene_motion_db(const ak_walk_scene *w)
{
    return w ? w->db : NULL;
}
const ak_terrain *ak_walk_scene_terrain(const ak_walk_scene *w)
{
    return w ? w->terrain : NULL;
}
const ak_ground *ak_walk_scene_ground(const ak_walk_scene *w)
{
    return w ? &w->terrain_ground : NULL;
}
const ak_skeleton *ak_walk_scene_skeleton(const ak_walk_scene *w)
{
    if (!w) return NULL;
    if (w->db) return ak_motion_db_skeleton(w->db);
    return w->motion ? ak_walk_motion_skeleton(w->motion) : NULL;
}
