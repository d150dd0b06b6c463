/* The walk scene with steer match: every --clip and every .bvh of --library read on one
 * skeleton, the motion database built from them, and the matcher placed at the start. */
#include "walk_scene_internal.h"

#include "animkit/bvh.h"
#include "io/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The clips of the database as they were read, and their paths. */
typedef struct match_sources {
    akio_list paths; /* --clip values first, then the library's files in name order */
    ak_skeleton **skeletons;
    ak_clip **clips;
    ak_motion_db_clip *db_clips;
} match_sources;

static void free_sources(match_sources *m)
{
    for (int i = 0; i < m->paths.count; ++i) {
        if (m->skeletons) ak_skeleton_destroy(m->skeletons[i]);
        if (m->clips) ak_clip_destroy(m->clips[i]);
    }
    free(m->skeletons);
    free(m->clips);
    free(m->db_clips);
    akio_list_free(&m->paths);
}

/* The paths: --clip values, then the library's .bvh files (akio_list_folder's order). */
static int32_t collect_paths(const ak_walk_scenario_params *s, akio_list *out, ak_error *err)
{
    memset(out, 0, sizeof *out);
    if (s->library[0]) {
        const int32_t st = akio_list_folder(s->library, ".bvh", out, err);
        if (st != AK_OK) return ak_walk_scene_file_error(s->library, st, err);
    }
    const int32_t clips = ak_flags_list_item(s->clip, 0, NULL, 0);
    if (clips <= 0 && out->count <= 0)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "%.200s: no .bvh file in the --library folder", s->library);
    const int total = out->count + (int)clips;
    char **paths = (char **)calloc((size_t)total, sizeof(char *));
    if (!paths) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t i = 0; i < clips; ++i) {
        char path[AK_FLAG_TEXT_MAX];
        ak_flags_list_item(s->clip, i, path, sizeof path);
        const size_t n = strlen(path) + 1;
        paths[i] = (char *)malloc(n);
        if (!paths[i]) {
            akio_list grown = {paths, (int)i, total};
            akio_list_free(&grown);
            return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        }
        memcpy(paths[i], path, n);
    }
    if (out->count > 0) memcpy(paths + clips, out->paths, sizeof(char *) * (size_t)out->count);
    free(out->paths);
    out->paths = paths;
    out->count = out->capacity = total;
    return AK_OK;
}

/* Reads every path; all on one skeleton (the first file's joint count). */
static int32_t read_sources(const ak_walk_scene *w, match_sources *m, ak_error *err)
{
    const size_t n = (size_t)m->paths.count;
    m->skeletons = (ak_skeleton **)calloc(n, sizeof(ak_skeleton *));
    m->clips = (ak_clip **)calloc(n, sizeof(ak_clip *));
    m->db_clips = (ak_motion_db_clip *)calloc(n, sizeof *m->db_clips);
    if (!m->skeletons || !m->clips || !m->db_clips)
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (size_t i = 0; i < n; ++i) {
        const char *path = m->paths.paths[i];
        const int32_t st = akws_read_clip(w, path, &m->skeletons[i], &m->clips[i], err);
        if (st != AK_OK) return ak_walk_scene_file_error(path, st, err);
        if (m->skeletons[i]->joint_count != m->skeletons[0]->joint_count)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "%.200s has %d joints but %.200s has %d: the clips of a motion "
                                "database share one skeleton",
                                path, (int)m->skeletons[i]->joint_count, m->paths.paths[0],
                                (int)m->skeletons[0]->joint_count);
        const char *slash = strrchr(path, '/');
        m->db_clips[i].clip = m->clips[i];
        m->db_clips[i].name = slash ? slash + 1 : path;
    }
    return AK_OK;
}

/* "motion database of N clips", and how many of them the database left out (no piece long
 * enough for a candidate between capture glitches), which every surface shows. */
static void set_label(ak_walk_scene *w, int clips)
{
    ak_motion_db_info d;
    ak_motion_db_get_info(w->db, &d);
    int kept = 0;
    for (int32_t f = 0, last = -1; f < d.frame_count; ++f) {
        int32_t clip;
        float t;
        ak_motion_db_frame_source(w->db, f, &clip, &t);
        kept += clip != last ? 1 : 0; /* a clip's frames are consecutive */
        last = clip;
    }
    const int out = clips - kept;
    char left[96] = "";
    if (out > 0)
        snprintf(left, sizeof left, " (%d left out: no 1 s between capture glitches)", out);
    snprintf(w->clip_label, sizeof w->clip_label, "motion database of %d clip%s%s", clips,
             clips == 1 ? "" : "s", left);
}

/* The database's root-motion joint, by its rule (db.c sources_root_joint): the one named, or
 * the joint of the first clip whose travel is measured under a still top joint, else the first
 * clip's (its top joint). */
static int32_t database_root(ak_walk_scene *w, const match_sources *m, const char *named,
                             ak_error *err)
{
    if (m->paths.count < 1 || !m->skeletons || !m->skeletons[0]) return AK_OK;
    ak_root_joint_report first, r;
    memset(&first, 0, sizeof first);
    for (int i = 0; i < m->paths.count; ++i) {
        const int32_t st = ak_root_joint_find(m->skeletons[0], m->clips[i], named, &r, err);
        if (st != AK_OK) return st;
        if (i == 0) first = r;
        if (named || r.joint != r.top) {
            first = r;
            break;
        }
    }
    akws_set_root(w, m->skeletons[0], &first);
    return AK_OK;
}

static int32_t make_database(ak_walk_scene *w, const ak_walk_scenario_params *s, ak_error *err)
{
    match_sources m;
    memset(&m, 0, sizeof m);
    int32_t st = collect_paths(s, &m.paths, err);
    if (st == AK_OK) st = read_sources(w, &m, err);
    if (st == AK_OK) {
        ak_motion_db_params dp = ak_motion_db_defaults();
        dp.metres_per_unit = s->scale;
        dp.root_joint = s->root_joint[0] ? s->root_joint : NULL;
        st = ak_motion_db_create(m.skeletons[0], m.db_clips, (int32_t)m.paths.count, &dp, &w->db,
                                 err);
        if (st != AK_OK) ak_walk_scene_file_error("motion database", st, err);
    }
    if (st == AK_OK) st = database_root(w, &m, s->root_joint[0] ? s->root_joint : NULL, err);
    if (st == AK_OK) set_label(w, m.paths.count);
    free_sources(&m);
    return st;
}

int32_t ak_walk_scene_build_matcher(ak_walk_scene *w, const ak_walk_scenario_params *s,
                                    ak_error *err)
{
    int32_t st = make_database(w, s, err);
    if (st != AK_OK) return st;
    ak_matcher_params mp = ak_matcher_defaults();
    mp.start = ak_vec3_make(s->start[0], 0.0f, s->start[1]);
    mp.target = ak_vec3_make(s->target[0], 0.0f, s->target[1]);
    mp.start_heading = ak_walk_scene_start_heading(s);
    mp.arrival_radius = s->arrival;
    mp.foot_ik = s->foot_ik;
    st = ak_matcher_create(w->db, &mp, &w->ground, &w->matcher, err);
    if (st != AK_OK) return ak_walk_scene_file_error("matcher", st, err);
    ak_motion_db_info info;
    ak_motion_db_get_info(w->db, &info);
    ak_walk_scene_set_timing(w, s, info.frame_time);
    const int32_t hips = ak_motion_db_humanoid(w->db)->joint[AK_HUM_HIPS];
    w->hips = hips >= 0 ? hips : 0;
    return AK_OK;
}
