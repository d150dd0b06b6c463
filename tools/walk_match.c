/* animkit walk --steer match: the motion-matching walker over a database of clips (--clip,
 * repeatable, or every .bvh in --library DIR). Same outputs as the guide walker: DIR/walk.bvh,
 * DIR/walk.csv (the walker's columns plus clip and frame) and a JSON summary line. */
#include "walk_match.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *copy_string(const char *s)
{
    const size_t n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The clip paths: --clip values, then the .bvh files of --library in name order. */
static int collect_paths(const ak_walk_match_opts *o, char ***out, int *count)
{
    int cap = o->clip_count + 256, n = 0;
    char **paths = (char **)calloc((size_t)cap, sizeof(char *));
    if (!paths) return -1;
    for (int i = 0; i < o->clip_count; ++i)
        paths[n++] = copy_string(o->clips[i]);
    if (o->library) {
        DIR *d = opendir(o->library);
        if (!d) {
            fprintf(stderr, "animkit walk: cannot open --library %s: %s\n", o->library,
                    strerror(errno));
            free(paths);
            return -1;
        }
        const int first = n;
        struct dirent *e;
        while ((e = readdir(d)) != NULL && n < cap) {
            const size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 4, ".bvh") != 0) continue;
            char *p = (char *)malloc(strlen(o->library) + len + 2);
            if (!p) break;
            sprintf(p, "%s/%s", o->library, e->d_name);
            paths[n++] = p;
        }
        closedir(d);
        qsort(paths + first, (size_t)(n - first), sizeof(char *), cmp_str);
    }
    *out = paths;
    *count = n;
    return 0;
}

/* Reads every clip (one skeleton: the first file's) and builds the database. */
static int build_db(const ak_walk_match_opts *o, ak_skeleton **sk_out, ak_motion_db **db_out)
{
    char **paths = NULL;
    int n = 0, rc = 1;
    if (collect_paths(o, &paths, &n) != 0) return 1;
    if (n == 0) {
        fprintf(stderr, "animkit walk: --steer match needs --clip FILE (repeatable) or --library "
                        "DIR with .bvh files\n");
        free(paths);
        return 2;
    }
    ak_skeleton **sks = (ak_skeleton **)calloc((size_t)n, sizeof *sks);
    ak_clip **clips = (ak_clip **)calloc((size_t)n, sizeof *clips);
    ak_motion_db_clip *src = (ak_motion_db_clip *)calloc((size_t)n, sizeof *src);
    ak_error err;
    int i = 0;
    for (; sks && clips && src && i < n; ++i) {
        if (ak_bvh_read_file(paths[i], NULL, &sks[i], &clips[i], &err) != AK_OK) {
            ak_cli_file_error(paths[i], &err);
            break;
        }
        if (sks[i]->joint_count != sks[0]->joint_count) {
            fprintf(stderr, "animkit walk: %s has %d joints, %s has %d: one skeleton please\n",
                    paths[i], (int)sks[i]->joint_count, paths[0], (int)sks[0]->joint_count);
            break;
        }
        src[i].clip = clips[i];
        const char *slash = strrchr(paths[i], '/');
        src[i].name = slash ? slash + 1 : paths[i];
    }
    if (i == n) {
        ak_motion_db_params dp = ak_motion_db_defaults();
        dp.metres_per_unit = o->scale;
        if (ak_motion_db_create(sks[0], src, n, &dp, db_out, &err) != AK_OK)
            fprintf(stderr, "animkit walk: motion database: %s\n", err.message);
        else if (ak_skeleton_clone(ak_motion_db_skeleton(*db_out), sk_out, &err) == AK_OK)
            rc = 0;
    }
    for (int k = 0; k < n; ++k) {
        if (sks) ak_skeleton_destroy(sks[k]);
        if (clips) ak_clip_destroy(clips[k]);
        free(paths[k]);
    }
    free(sks);
    free(clips);
    free(src);
    free(paths);
    return rc;
}

static void csv_row(FILE *csv, const ak_walker_state *s, const ak_xform *world,
                    const ak_matcher_info *mi)
{
    const ak_vec3 r = world[0].translation;
    fprintf(csv, "%.5f,%.5f,%.5f,%.5f,%.4f", (double)s->time, (double)r.x, (double)r.y, (double)r.z,
            (double)(s->heading * 180.0f / 3.14159265f));
    for (int k = 0; k < 2; ++k)
        fprintf(csv, ",%.5f,%.5f,%.5f,%.5f,%d", (double)s->sole[k].x, (double)s->sole[k].y,
                (double)s->sole[k].z, (double)(isfinite(s->sole_ground[k]) ? s->sole_ground[k] : 0),
                (int)s->stance[k]);
    fprintf(csv, ",%.5f,%d,%d\n", (double)s->hip_drop, (int)mi->clip, (int)mi->frame);
}

/* The walk itself: steps until stopped or max time, writing the CSV and the clip. */
static int run_walk(const ak_walk_match_opts *o, ak_matcher *m, const ak_motion_db *db,
                    const ak_ground *ground, FILE *csv, ak_clip *out_clip, int32_t *frames_out)
{
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    const int32_t J = info.joint_count, hips = ak_motion_db_humanoid(db)->joint[AK_HUM_HIPS];
    const float dt = info.frame_time;
    ak_walk_metrics metrics;
    ak_walk_metrics_reset(&metrics);
    ak_walker_state s;
    ak_matcher_info mi;
    ak_error err;
    int32_t frames = 0;
    float next_report = 0.0f;
    for (; frames < out_clip->frame_count; ++frames) {
        if (ak_matcher_step(m, frames == 0 ? 0.0f : dt, ground, &err) != AK_OK) {
            fprintf(stderr, "animkit walk: step failed: %s\n", err.message);
            return 1;
        }
        ak_matcher_get_state(m, &s);
        ak_matcher_get_info(m, &mi);
        const ak_xform *world = ak_matcher_world_pose(m), *local = ak_matcher_local_pose(m);
        if (!s.arrived) ak_walk_metrics_add(&metrics, &s, world, hips, frames == 0 ? 0.0f : dt);
        for (int32_t j = 0; j < J; ++j)
            out_clip->rotations[(size_t)frames * J + j] = local[j].rotation;
        out_clip->translations[(size_t)frames * out_clip->track_count] = local[0].translation;
        csv_row(csv, &s, world, &mi);
        if (!o->quiet && s.time >= next_report) {
            fprintf(stderr, "walk: t=%5.1f s  at (%6.2f, %6.2f)  distance %6.2f m  %s frame %d%s\n",
                    (double)s.time, (double)s.position.x, (double)s.position.z, (double)s.distance,
                    ak_motion_db_clip_name(db, mi.clip), (int)mi.frame,
                    s.arrived ? "  arrived" : "");
            next_report += 1.0f;
        }
        if (s.stopped && s.arrived) {
            ++frames;
            break;
        }
    }
    *frames_out = frames;
    printf("{\"arrived\":%s,\"time_s\":%.3f,\"final_distance\":%.4f,\"path_length\":%.3f,"
           "\"max_penetration\":%.5f,\"max_float\":%.5f,\"skate\":%.5f,"
           "\"max_foot_tilt_deg\":%.3f,\"transitions\":%d,\"searches\":%d,\"db_frames\":%d}\n",
           s.arrived ? "true" : "false", (double)s.time, (double)s.distance, (double)s.path_length,
           (double)metrics.max_penetration, (double)metrics.max_float, (double)metrics.skate,
           (double)metrics.max_tilt_deg, (int)mi.transitions, (int)mi.searches,
           (int)info.frame_count);
    return s.arrived && s.stopped ? 0 : 1;
}

int ak_walk_match_run(const ak_walk_match_opts *o, const ak_ground *ground)
{
    ak_skeleton *sk = NULL;
    ak_motion_db *db = NULL;
    ak_matcher *m = NULL;
    ak_clip *out_clip = NULL;
    FILE *csv = NULL;
    ak_error err;
    char path[1200];
    int rc = build_db(o, &sk, &db);
    if (rc != 0) goto done;
    rc = 1;
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    if (!o->quiet)
        fprintf(stderr,
                "walk: motion database of %d clips: %d frames (%d candidates) at %.0f fps, %s "
                "(%.6g m per unit), speeds %.2f-%.2f m/s\n",
                (int)info.clip_count, (int)info.frame_count, (int)info.candidate_count,
                (double)(1.0f / info.frame_time), ak_units_name((ak_units)info.units),
                (double)info.metres_per_unit, (double)info.min_speed, (double)info.max_speed);
    ak_matcher_params mp = ak_matcher_defaults();
    mp.start = o->start;
    mp.target = o->target;
    mp.arrival_radius = o->arrival;
    mp.foot_ik = o->foot_ik;
    if (ak_matcher_create(db, &mp, ground, &m, &err) != AK_OK) {
        fprintf(stderr, "animkit walk: %s\n", err.message);
        goto done;
    }
    const int32_t max_frames = (int32_t)ceilf(o->max_time / info.frame_time) + 1;
    if (ak_clip_create(info.joint_count, max_frames, info.frame_time, NULL, &out_clip, &err) !=
        AK_OK) {
        fprintf(stderr, "animkit walk: %s\n", err.message);
        goto done;
    }
    snprintf(path, sizeof path, "%s/walk.csv", o->out_dir);
    csv = fopen(path, "w");
    if (!csv) {
        fprintf(stderr, "animkit walk: cannot write %s: %s\n", path, strerror(errno));
        goto done;
    }
    fprintf(csv, "t,root_x,root_y,root_z,heading,left_x,left_y,left_z,left_ground,left_stance,"
                 "right_x,right_y,right_z,right_ground,right_stance,hip_drop,clip,frame\n");
    int32_t frames = 0;
    rc = run_walk(o, m, db, ground, csv, out_clip, &frames);
    if (fclose(csv) != 0) rc = 1;
    csv = NULL;
    out_clip->frame_count = frames > 0 ? frames : 1;
    ak_clip_finalize(out_clip);
    snprintf(path, sizeof path, "%s/walk.bvh", o->out_dir);
    if (ak_bvh_write_file(path, sk, out_clip, AK_ORDER_ZYX, &err) != AK_OK)
        rc = ak_cli_file_error(path, &err);
done:
    if (csv) fclose(csv);
    ak_clip_destroy(out_clip);
    ak_matcher_destroy(m);
    ak_motion_db_destroy(db);
    ak_skeleton_destroy(sk);
    return rc;
}
