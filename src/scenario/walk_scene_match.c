/* The walk scene with steer match: every --clip and every .bvh of --library read on one
 * skeleton, the motion database built from them, and the matcher placed at the start. */
#include "walk_scene_internal.h"

#include "animkit/bvh.h"
#include "io/file.h"

#include <math.h>
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

/* The copy bones every source clip keeps on its feet and hands (ak_copy_bones_find, the same
 * joint on the same target in each), kept on the matched feet and hands: the matcher's foot IK
 * and blends moved the body and left them (CMU 02_01 in the UE4 shape on flat ground:
 * ik_hand_l up to 1.96 m off its hand in walk.bvh, ik_foot_l 0.72 m). */
static int32_t find_copies(ak_walk_scene *w, const match_sources *m, ak_error *err)
{
    ak_copy_bones all, one;
    int32_t st = ak_copy_bones_find(m->skeletons[0], m->clips[0], &all, err);
    for (int i = 1; i < m->paths.count && st == AK_OK && all.count > 0; ++i) {
        st = ak_copy_bones_find(m->skeletons[0], m->clips[i], &one, err);
        int32_t kept = 0;
        for (int32_t a = 0; a < all.count; ++a)
            for (int32_t b = 0; b < one.count; ++b)
                if (one.bone[b] == all.bone[a] && one.target[b] == all.target[a]) {
                    all.bone[kept] = all.bone[a];
                    all.target[kept] = all.target[a];
                    all.offset[kept] = all.offset[a];
                    all.distance[kept++] =
                        all.distance[a] > one.distance[b] ? all.distance[a] : one.distance[b];
                }
        all.count = kept;
    }
    if (st != AK_OK) return st;
    ak_motion_db_info info;
    ak_motion_db_get_info(w->db, &info);
    return ak_walk_scene_copies_init(w, ak_motion_db_skeleton(w->db), &all, info.metres_per_unit,
                                     err);
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
    /* the database's own report: its skeleton (metres) has the sources' joints and names */
    if (st == AK_OK) akws_set_root(w, ak_motion_db_skeleton(w->db), ak_motion_db_root_joint(w->db));
    if (st == AK_OK) st = find_copies(w, &m, err);
    if (st == AK_OK) set_label(w, m.paths.count);
    free_sources(&m);
    return st;
}

/* The database's piece [first, end) as a clip in metres (the root's travel and heading put
 * back from the root deltas, as the matcher plays them) and its contact flags (left[0..n), then
 * right). */
static void piece_clip(const ak_motion_db *db, int32_t first, ak_clip *c, ak_xform *local,
                       uint8_t *flags)
{
    const int32_t n = c->frame_count, J = c->joint_count;
    float x = 0.0f, z = 0.0f, heading = 0.0f;
    for (int32_t k = 0; k < n; ++k) {
        if (k > 0) {
            ak_vec3 step;
            float turn;
            ak_motion_db_root_delta(db, first + k - 1, &step, &turn);
            x += cosf(heading) * step.x + sinf(heading) * step.z;
            z += cosf(heading) * step.z - sinf(heading) * step.x;
            heading += turn;
        }
        ak_motion_db_pose(db, first + k, local);
        const ak_quat yaw = ak_quat_from_axis_angle(ak_vec3_make(0.0f, 1.0f, 0.0f), heading);
        local[0].rotation = ak_quat_mul(yaw, local[0].rotation);
        local[0].translation =
            ak_vec3_add(ak_vec3_make(x, 0.0f, z), ak_quat_rotate(yaw, local[0].translation));
        for (int32_t j = 0; j < J; ++j)
            c->rotations[(size_t)k * J + j] = local[j].rotation;
        c->translations[(size_t)k * c->track_count] = local[0].translation;
        for (int32_t s = 0; s < 2; ++s)
            flags[s * n + k] = (uint8_t)ak_motion_db_contact(db, first + k, s);
    }
    ak_clip_finalize(c);
}

/* Whether the piece [first, end) walks by the guide walker's rule (ak_cycle_find: a 0.45-1.8 s
 * stretch with one step of each foot of at least 0.3 leg lengths, going one way). *walks is 1
 * or 0; the status is an allocation's. */
static int32_t piece_walks(const ak_motion_db *db, int32_t first, int32_t end, int *walks,
                           ak_error *err)
{
    const ak_skeleton *sk = ak_motion_db_skeleton(db);
    ak_motion_db_info d;
    ak_motion_db_get_info(db, &d);
    const int32_t n = end - first, J = d.joint_count;
    *walks = 0;
    uint8_t *has_translation = (uint8_t *)calloc((size_t)J, 1);
    uint8_t *flags = (uint8_t *)malloc((size_t)n * 2);
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    ak_clip *c = NULL;
    int32_t st = has_translation && flags && local ? AK_OK : AK_ERR_NOMEM;
    if (st == AK_OK) {
        has_translation[0] = 1;
        st = ak_clip_create(J, n, d.frame_time, has_translation, &c, err);
    }
    if (st == AK_OK) {
        piece_clip(db, first, c, local, flags);
        ak_cycle_params cp = ak_cycle_defaults();
        cp.skeleton = sk;
        cp.clip = c;
        cp.left = flags;
        cp.right = flags + n;
        ak_cycle cycle;
        ak_error ignored;
        *walks = ak_cycle_find(&cp, &cycle, &ignored) == AK_OK;
    }
    ak_clip_destroy(c);
    free(local);
    free(flags);
    free(has_translation);
    if (st == AK_ERR_NOMEM) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    return st;
}

/* Whether any piece of the database walks (piece_walks); a piece ends where the source clip
 * changes or its time skips a frame (the database's cuts). */
static int32_t database_walks(const ak_motion_db *db, const ak_motion_db_info *d, int *walks,
                              ak_error *err)
{
    *walks = 0;
    int32_t first = 0, last_clip = -1;
    float last_t = 0.0f;
    for (int32_t f = 0; f <= d->frame_count && !*walks; ++f) {
        int32_t clip = -1;
        float t = 0.0f;
        if (f < d->frame_count) ak_motion_db_frame_source(db, f, &clip, &t);
        const int cut =
            clip != last_clip || fabsf(t - last_t - d->frame_time) > 0.5f * d->frame_time;
        if (cut && f > first) {
            const int32_t st = piece_walks(db, first, f, walks, err);
            if (st != AK_OK) return st;
        }
        if (cut) first = f;
        last_clip = clip;
        last_t = t;
    }
    return AK_OK;
}

/* The fastest root travel over the matcher's trajectory horizon among the candidates, m/s: the
 * length of each candidate's last trajectory point (matching.h: group 3, root x,z at +1.0 s). */
static float fastest_second(const ak_motion_db *db, const ak_motion_db_info *d)
{
    const int32_t last = ak_match_group_offset(3) + 2 * AK_MATCH_TRAJ_POINTS - 2;
    float raw[AK_MATCH_FEATURES], best = 0.0f;
    for (int32_t f = 0; f < d->frame_count; ++f) {
        if (!ak_motion_db_is_candidate(db, f)) continue;
        ak_motion_db_features(db, f, raw);
        const float travel = sqrtf(raw[last] * raw[last] + raw[last + 1] * raw[last + 1]);
        if (travel > best) best = travel;
    }
    return best; /* metres over 1 s */
}

/* A database that cannot walk is refused before a step by the rule the guide walker refuses a
 * clip with (ak_cycle_find: AK_ERR_NOT_FOUND, "no walking found") (issue 21): Debian
 * assimp-testmodels' CMU 01_01 holds standing broad jumps (left out, db.c off_floor) and
 * turning steps between them, and the matcher crept 5.5 m of the route's 14.1 m in 60 s. The
 * rule runs on the database's pieces, what the matcher plays, not on the source clips: the guide
 * walks 01_01 on a cycle over a jump. ak_matcher_create takes any database (standing and
 * turning on the spot are a database's to hold); the walk scene asks for a walk. */
static int32_t check_can_walk(const ak_walk_scene *w, ak_error *err)
{
    ak_motion_db_info d;
    ak_motion_db_get_info(w->db, &d);
    int walks = 0;
    const int32_t st = database_walks(w->db, &d, &walks, err);
    if (st != AK_OK || walks) return st;
    return ak_error_set(err, AK_ERR_NOT_FOUND, 0,
                        "motion database: %.100s%s: none of its %d pieces (%.1f s kept; the "
                        "fastest travel over 1 s %.2f m/s) holds a 0.45-1.80 s stretch with one "
                        "step of each foot going one way: no walking found",
                        ak_motion_db_clip_name(w->db, 0),
                        d.clip_count > 1 ? " and the other clips" : "", (int)d.range_count,
                        (double)((float)d.frame_count * d.frame_time),
                        (double)fastest_second(w->db, &d));
}

int32_t ak_walk_scene_build_matcher(ak_walk_scene *w, const ak_walk_scenario_params *s,
                                    ak_error *err)
{
    int32_t st = make_database(w, s, err);
    if (st == AK_OK) st = check_can_walk(w, err);
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
    /* (the speed it asks for far from the target, where the database has it) */
    ak_walk_scene_set_timing(w, s, info.frame_time, fminf(mp.walk_speed, info.max_speed));
    const int32_t hips = ak_motion_db_humanoid(w->db)->joint[AK_HUM_HIPS];
    w->hips = hips >= 0 ? hips : 0;
    return AK_OK;
}
