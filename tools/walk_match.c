/* animkit walk --steer match: the motion-matching walker over a database of clips (--clip,
 * repeatable, or every .bvh in --library DIR). The guide walker's outputs (DIR/walk.bvh,
 * DIR/walk.csv, DIR/summary.json, committed as a set) and its summary keys plus the matching
 * figures. */
#include "walk_match.h"
#include "walk_output.h"

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

/* The walk itself: steps until stopped or max time, streaming the walker's outputs; the
 * summary adds the matching figures to the walker's keys. */
static int run_walk(const ak_walk_match_opts *o, ak_matcher *m, const ak_motion_db *db,
                    const ak_ground *ground, akcli_walk_output *out)
{
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    const int32_t hips = ak_motion_db_humanoid(db)->joint[AK_HUM_HIPS];
    const float dt = info.frame_time;
    const double max_frames = ceil((double)o->max_time / (double)dt) + 1.0;
    ak_walk_metrics metrics;
    ak_walk_metrics_reset(&metrics);
    ak_walker_state s;
    ak_matcher_info mi;
    ak_error err;
    float next_report = 0.0f;
    for (int32_t frames = 0; frames < max_frames; ++frames) {
        if (ak_matcher_step(m, frames == 0 ? 0.0f : dt, ground, &err) != AK_OK) {
            fprintf(stderr, "animkit walk: step failed: %s\n", err.message);
            return 1;
        }
        ak_matcher_get_state(m, &s);
        ak_matcher_get_info(m, &mi);
        const ak_xform *world = ak_matcher_world_pose(m);
        if (!s.arrived) ak_walk_metrics_add(&metrics, &s, world, hips, frames == 0 ? 0.0f : dt);
        if (akcli_walk_output_frame(out, &s, world, ak_matcher_local_pose(m), &err) != AK_OK) {
            fprintf(stderr, "animkit walk: %s\n", err.message);
            return 1;
        }
        if (!o->quiet && s.time >= next_report) {
            fprintf(stderr, "walk: t=%5.1f s  at (%6.2f, %6.2f)  distance %6.2f m  %s frame %d%s\n",
                    (double)s.time, (double)s.position.x, (double)s.position.z, (double)s.distance,
                    ak_motion_db_clip_name(db, mi.clip), (int)mi.frame,
                    s.arrived ? "  arrived" : "");
            next_report += 1.0f;
        }
        if (s.stopped && s.arrived) break;
    }
    char summary[768];
    if (akcli_walk_summary_json(summary, sizeof summary - 160, &s, &metrics, &err) != AK_OK) {
        fprintf(stderr, "animkit walk: %s (the files in %s are unchanged)\n", err.message,
                o->out_dir);
        return 1;
    }
    const size_t len = strlen(summary);
    if (len > 0 && summary[len - 1] == '}')
        snprintf(summary + len - 1, sizeof summary - len + 1,
                 ",\"transitions\":%d,\"searches\":%d,\"unlocks\":%d,\"db_frames\":%d}",
                 (int)mi.transitions, (int)mi.searches, (int)mi.unlocks, (int)info.frame_count);
    if (akcli_walk_output_commit(out, summary, &err) != AK_OK) {
        fprintf(stderr, "animkit walk: %s (the files in %s are unchanged)\n", err.message,
                o->out_dir);
        return 1;
    }
    printf("%s\n", summary);
    return s.arrived && s.stopped ? 0 : 1;
}

int ak_walk_match_run(const ak_walk_match_opts *o, const ak_ground *ground)
{
    ak_skeleton *sk = NULL;
    ak_motion_db *db = NULL;
    ak_matcher *m = NULL;
    akcli_walk_output out;
    memset(&out, 0, sizeof out);
    ak_error err;
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
    if (akcli_walk_output_open(&out, o->out_dir, sk, info.frame_time, &err) != AK_OK) {
        fprintf(stderr, "animkit walk: %s\n", err.message);
        goto done;
    }
    rc = run_walk(o, m, db, ground, &out);
done:
    akcli_walk_output_abort(&out);
    ak_matcher_destroy(m);
    ak_motion_db_destroy(db);
    ak_skeleton_destroy(sk);
    return rc;
}
