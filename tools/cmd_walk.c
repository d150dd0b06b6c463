/* animkit walk — the main demo: a character walks to a target over terrain with foot IK.
 * The settings and the set-up are the library's walk scenario (animkit/scenario.h), shared
 * with the viewer, the web page and Python; this file adds the CLI's own flags (--out,
 * --quiet), progress, and the outputs: DIR/walk.bvh, DIR/walk.csv and a JSON summary as the
 * last line on stdout. */
#include "cli.h"
#include "heightmap_png.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if defined(_WIN32)
#include <direct.h>
#define ak_mkdir(p) _mkdir(p)
#else
#define ak_mkdir(p) mkdir((p), 0777)
#endif

/* The flags `animkit walk` has beyond the scenario's. */
typedef struct walk_cli_options {
    char out[AK_FLAG_TEXT_MAX];
    int32_t quiet;
} walk_cli_options;

static const ak_flag k_cli_flags[] = {
    {.name = "out", .type = AK_FLAG_TEXT, .offset = offsetof(walk_cli_options, out),
     .size = AK_FLAG_TEXT_MAX, .metavar = "DIR", .def = "out/walk", .help = "output folder"},
    {.name = "quiet", .type = AK_FLAG_SWITCH, .offset = offsetof(walk_cli_options, quiet),
     .on = 1, .def = "0", .help = "no progress on stderr"},
};
static const ak_flag_table k_cli_table = {"walk", k_cli_flags, 2};

static void usage(FILE *out)
{
    char help[4096];
    fprintf(out,
            "usage: animkit walk [options]\n"
            "\n"
            "Walks a character from --start to --target across terrain with foot IK, at the\n"
            "clip's frame rate, and writes DIR/walk.bvh (the walked motion, world root baked in),\n"
            "DIR/walk.csv (per frame: root, heading, sole points, ground, stance, hip drop) and,\n"
            "as the last line on stdout, a JSON summary. Progress goes to stderr. The same\n"
            "settings work in `animkit-view --walk` and as URL parameters of the web page.\n"
            "\n"
            "options:\n");
    ak_flags_help(ak_walk_scenario_flags(), help, sizeof help);
    fputs(help, out);
    ak_flags_help(&k_cli_table, help, sizeof help);
    fputs(help, out);
    fprintf(out,
            "  %-24s this help\n"
            "\n"
            "CSV columns: "
            "t,root_x,root_y,root_z,heading,left_x,left_y,left_z,left_ground,left_stance,\n"
            "right_x,right_y,right_z,right_ground,right_stance,hip_drop (metres, seconds, heading in\n"
            "degrees; foot = sole contact point, ground = terrain height under it, stance 0/1).\n",
            "-h, --help");
}

/* mkdir -p */
static int make_dirs(const char *path)
{
    char buf[1024];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; ++i) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (ak_mkdir(buf) != 0 && errno != EEXIST) return -1;
            buf[i] = c;
        }
    }
    return 0;
}

/* Flags -> scenario + CLI options. Returns 0, or the exit code of a usage error (2). */
static int parse_walk_flags(int argc, char **argv, ak_walk_scenario *scenario,
                            walk_cli_options *cli, int *wants_help)
{
    const ak_flag_table *tables[2] = {ak_walk_scenario_flags(), &k_cli_table};
    void *params[2] = {scenario, cli};
    ak_flags_result parsed;
    ak_error err;
    *scenario = ak_walk_scenario_defaults();
    ak_flags_defaults(&k_cli_table, cli, NULL);
    if (ak_flags_parse_args(tables, params, 2, argc, (const char *const *)argv, 0, &parsed,
                            &err) != AK_OK)
        return ak_cli_usage_error("walk", "%s", err.message);
    *wants_help = parsed.wants_help;
    if (!*wants_help && ak_walk_scenario_validate(scenario, &err) != AK_OK)
        return ak_cli_usage_error("walk", "%s", err.message);
    return 0;
}

/* The outputs: the walked motion as a clip (written as BVH at the end), the per-frame CSV and
 * the metrics behind the JSON summary. */
typedef struct walk_output {
    ak_clip *clip; /* capacity: the scene's max_frames */
    int32_t capacity;
    FILE *csv;
    ak_walk_metrics metrics;
    int32_t frames;
} walk_output;

static int open_output(walk_output *o, const ak_walk_scene *scene, const char *dir)
{
    ak_walk_scene_info info;
    ak_error err;
    char path[1200];
    ak_walk_scene_get_info(scene, &info);
    const int32_t joints = ak_walk_scene_skeleton(scene)->joint_count;
    if (ak_clip_create(joints, info.max_frames, info.frame_time, NULL, &o->clip, &err) != AK_OK) {
        fprintf(stderr, "animkit walk: %s\n", err.message);
        return -1;
    }
    o->capacity = info.max_frames;
    if (make_dirs(dir) != 0) {
        fprintf(stderr, "animkit walk: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/walk.csv", dir);
    o->csv = fopen(path, "w");
    if (!o->csv) {
        fprintf(stderr, "animkit walk: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(o->csv, "t,root_x,root_y,root_z,heading,left_x,left_y,left_z,left_ground,left_stance,"
                    "right_x,right_y,right_z,right_ground,right_stance,hip_drop\n");
    ak_walk_metrics_reset(&o->metrics);
    return 0;
}

static void add_frame(walk_output *o, ak_walk_scene *scene, const ak_walker_state *s)
{
    ak_walk_scene_info info;
    ak_walk_scene_get_info(scene, &info);
    const ak_walker *walker = ak_walk_scene_walker(scene);
    const ak_xform *world = ak_walker_world_pose(walker);
    const ak_xform *local = ak_walker_local_pose(walker);
    const int32_t joints = o->clip->joint_count;
    const float dt = o->frames == 0 ? 0.0f : info.frame_time;
    /* The measures cover the walk itself, up to the moment of arrival. */
    if (!s->arrived) ak_walk_metrics_add(&o->metrics, s, world, info.hips, dt);
    for (int32_t j = 0; j < joints; ++j)
        o->clip->rotations[(size_t)o->frames * joints + j] = local[j].rotation;
    o->clip->translations[(size_t)o->frames * o->clip->track_count] = local[0].translation;
    const ak_vec3 r = world[0].translation;
    fprintf(o->csv, "%.5f,%.5f,%.5f,%.5f,%.4f", (double)s->time, (double)r.x, (double)r.y,
            (double)r.z, (double)(s->heading * 180.0f / 3.14159265f));
    for (int k = 0; k < 2; ++k)
        fprintf(o->csv, ",%.5f,%.5f,%.5f,%.5f,%d", (double)s->sole[k].x, (double)s->sole[k].y,
                (double)s->sole[k].z,
                (double)(isfinite(s->sole_ground[k]) ? s->sole_ground[k] : NAN),
                (int)s->stance[k]);
    fprintf(o->csv, ",%.5f\n", (double)s->hip_drop);
    ++o->frames;
}

/* Closes the CSV, writes the BVH and prints the JSON summary. Returns the exit code. */
static int finish_output(walk_output *o, const ak_walk_scene *scene, const ak_walker_state *s,
                         const walk_cli_options *cli)
{
    char path[1200];
    ak_error err;
    fclose(o->csv);
    o->csv = NULL;
    o->clip->frame_count = o->frames > 0 ? o->frames : 1;
    ak_clip_finalize(o->clip);
    snprintf(path, sizeof path, "%s/walk.bvh", cli->out);
    if (ak_bvh_write_file(path, ak_walk_scene_skeleton(scene), o->clip, AK_ORDER_ZYX, &err) !=
        AK_OK)
        return ak_cli_file_error(path, &err);
    if (!cli->quiet)
        fprintf(stderr, "walk: wrote %s/walk.bvh and %s/walk.csv (%d frames)\n", cli->out,
                cli->out, (int)o->frames);
    printf("{\"arrived\":%s,\"time_s\":%.3f,\"final_distance\":%.4f,\"path_length\":%.3f,\"max_"
           "penetration\":%.5f,"
           "\"max_float\":%.5f,\"skate\":%.5f,\"max_foot_tilt_deg\":%.3f}\n",
           s->arrived ? "true" : "false", (double)s->time, (double)s->distance,
           (double)s->path_length, (double)o->metrics.max_penetration,
           (double)o->metrics.max_float, (double)o->metrics.skate,
           (double)o->metrics.max_tilt_deg);
    return s->arrived ? 0 : 1;
}

static void report_clip(const ak_walk_scene *scene)
{
    ak_walk_motion_info m;
    ak_walk_scene_info info;
    ak_walk_motion_get_info(ak_walk_scene_motion(scene), &m);
    ak_walk_scene_get_info(scene, &info);
    fprintf(stderr,
            "walk: clip %s, %s (%.6g m per unit), cycle frames %d:%d (%.2f s), stride %.2f m, "
            "speed %.2f m/s\n",
            info.clip_label, ak_units_name((ak_units)m.units), (double)m.metres_per_unit,
            (int)m.cycle_start, (int)m.cycle_end, (double)m.cycle_time,
            (double)m.stride_length, (double)m.speed);
}

/* Records every frame until the walker stops or the time runs out. Returns the exit code. */
static int run_walk(ak_walk_scene *scene, const walk_cli_options *cli)
{
    walk_output o = {0};
    ak_walker_state s;
    ak_error err;
    int rc = 1;
    float next_report = 0.0f;
    if (open_output(&o, scene, cli->out) != 0) goto done;
    for (;;) {
        ak_walker_get_state(ak_walk_scene_walker(scene), &s);
        add_frame(&o, scene, &s);
        if (!cli->quiet && s.time >= next_report) {
            fprintf(stderr, "walk: t=%5.1f s  at (%6.2f, %6.2f)  distance %6.2f m%s\n",
                    (double)s.time, (double)s.position.x, (double)s.position.z,
                    (double)s.distance, s.arrived ? "  arrived" : "");
            next_report += 1.0f;
        }
        if (s.stopped || o.frames >= o.capacity) break;
        if (ak_walk_scene_step(scene, &err) != AK_OK) {
            fprintf(stderr, "animkit walk: step failed: %s\n", err.message);
            goto done;
        }
    }
    rc = finish_output(&o, scene, &s, cli);
done:
    if (o.csv) fclose(o.csv);
    ak_clip_destroy(o.clip);
    return rc;
}

int ak_cmd_walk(int argc, char **argv)
{
    ak_walk_scenario scenario;
    walk_cli_options cli;
    int wants_help = 0;
    const int usage_rc = parse_walk_flags(argc, argv, &scenario, &cli, &wants_help);
    if (usage_rc) return usage_rc;
    if (wants_help) {
        usage(stdout);
        return 0;
    }
    ak_walk_scene *scene = NULL;
    ak_error err;
    if (ak_walk_scene_create(&scenario, ak_tools_png_heightmap_loader, &scene, &err) != AK_OK) {
        fprintf(stderr, "animkit walk: %s\n", err.message);
        return 1;
    }
    if (!cli.quiet) report_clip(scene);
    const int rc = run_walk(scene, &cli);
    ak_walk_scene_destroy(scene);
    return rc;
}
