/* animkit walk — the main demo: a character walks to a target over terrain with foot IK.
 * The settings and the set-up are the library's walk scenario (animkit/scenario.h), shared
 * with the viewer, the web page and Python, for the guide walker and for motion matching
 * (--steer match); this file adds the CLI's own flags (--out, --quiet), progress, and the
 * outputs (walk_output.c): DIR/walk.bvh, DIR/walk.csv, DIR/summary.json and the same JSON
 * summary as the last line on stdout (matching adds its transitions, searches, unlocks and
 * database frames). */
#include "cli.h"
#include "clip_any.h"
#include "heightmap_png.h"
#include "progress.h"
#include "walk_output.h"
#include "scenario/walk_scene_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The flags `animkit walk` has beyond the scenario's. */
typedef struct walk_cli_options {
    char out[AK_FLAG_TEXT_MAX];
    int32_t quiet;
} walk_cli_options;

static const ak_flag k_cli_flags[] = {
    {.name = "out",
     .type = AK_FLAG_TEXT,
     .offset = offsetof(walk_cli_options, out),
     .size = AK_FLAG_TEXT_MAX,
     .metavar = "DIR",
     .def = "out/walk",
     .help = "output folder"},
    {.name = "quiet",
     .type = AK_FLAG_SWITCH,
     .offset = offsetof(walk_cli_options, quiet),
     .on = 1,
     .def = "0",
     .help = "no progress on stderr"},
};
static const ak_flag_table k_cli_table = {"walk", k_cli_flags,
                                          (int32_t)(sizeof k_cli_flags / sizeof k_cli_flags[0])};

static void usage(FILE *out)
{
    char help[4096];
    fprintf(out,
            "usage: animkit walk [options]\n"
            "\n"
            "Walks a character from --start to --target across terrain with foot IK, at the\n"
            "clip's frame rate, and writes DIR/walk.bvh (the walked motion, world root baked in),\n"
            "DIR/walk.csv (per frame: root, heading, sole and contact points, ground, stance, hip "
            "drop) and,\n"
            "as the last line on stdout, a JSON summary. Progress goes to stderr. The same\n"
            "settings work in `animkit-view --walk` and as URL parameters of the web page.\n"
            "\n"
            "options:\n");
    ak_flags_help(ak_walk_scenario_flags(), help, sizeof help);
    fputs(help, out);
    ak_flags_help(&k_cli_table, help, sizeof help);
    fputs(help, out);
    fprintf(
        out,
        "  %-24s this help\n"
        "\n"
        "CSV columns: "
        "t,root_x,root_y,root_z,heading,left_x,left_y,left_z,left_ground,left_stance,\n"
        "right_x,right_y,right_z,right_ground,right_stance,hip_drop (metres, seconds, heading in\n"
        "degrees; foot = sole contact point, ground = terrain height under it, stance 0/1), then\n"
        "per foot left_heel_x,_y,_z,_ground,_down and left_toe_x,_y,_z,_ground,_down (and right):\n"
        "each contact point, the ground under it and whether it is down (1/0); last\n"
        "left_heel_source_down,left_toe_source_down,right_heel_source_down,right_toe_source_down:\n"
        "whether the pose source (the clip's or the matched database frame's contacts) has that\n"
        "point down (1/0).\n",
        "-h, --help");
}

/* Flags -> scenario + CLI options. Returns 0, or the exit code of a usage error (2). */
static int parse_walk_flags(int argc, char **argv, ak_walk_scenario_params *scenario,
                            walk_cli_options *cli, int *wants_help)
{
    const ak_flag_table *tables[2] = {ak_walk_scenario_flags(), &k_cli_table};
    void *params[2] = {scenario, cli};
    ak_flags_result parsed;
    ak_error err;
    *scenario = ak_walk_scenario_defaults();
    ak_flags_defaults(&k_cli_table, cli, NULL);
    if (ak_flags_parse_args(tables, params, 2, argc, (const char *const *)argv, 0, &parsed, &err) !=
        AK_OK)
        return ak_cli_usage_error("walk", "%s", err.message);
    *wants_help = parsed.wants_help;
    if (*wants_help) return 0;
    ak_tools_set_up(scenario->up); /* --up is the scenario's: the tools' reader takes it too */
    if (ak_walk_scenario_validate(scenario, &err) != AK_OK)
        return ak_cli_usage_error("walk", "%s", err.message);
    if (!cli->out[0]) return ak_cli_usage_error("walk", "--out needs a folder name, got ''");
    return 0;
}

/* Each clip's share of the database: a clip whose every piece between capture glitches is
 * shorter than a candidate needs is left out by the database, and the user is told so. */
static void report_database_clips(const ak_motion_db *db, const ak_motion_db_info *d)
{
    for (int32_t c = 0; c < d->clip_count; ++c) {
        int frames = 0, candidates = 0;
        for (int32_t f = 0; f < d->frame_count; ++f) {
            int32_t clip;
            float t;
            ak_motion_db_frame_source(db, f, &clip, &t);
            if (clip != c) continue;
            ++frames;
            candidates += ak_motion_db_is_candidate(db, f) ? 1 : 0;
        }
        if (frames > 0)
            fprintf(stderr, "walk:   %.100s: %d frames (%d candidates)\n",
                    ak_motion_db_clip_name(db, c), frames, candidates);
        else
            fprintf(stderr,
                    "walk:   %.100s: left out: no part of it lasts 1 s between capture glitches "
                    "(a joint turning faster than %.0f rad/s from one key to the next)\n",
                    ak_motion_db_clip_name(db, c), (double)ak_motion_db_defaults().max_joint_speed);
    }
}

static void report_clip(ak_walk_scene *scene)
{
    ak_walk_scene_info info;
    ak_walk_scene_get_info(scene, &info);
    /* the joint that carries the travel, as `animkit info` says it (and summary.json) */
    fprintf(stderr, "walk: root motion %s\n", akws_root_why(scene));
    const ak_motion_db *db = ak_walk_scene_motion_db(scene);
    if (db) {
        ak_motion_db_info d;
        ak_motion_db_get_info(db, &d);
        fprintf(stderr,
                "walk: %s: %d frames (%d candidates) at %.0f fps, %s (%.6g m per unit), speeds "
                "%.2f-%.2f m/s\n",
                info.clip_label, (int)d.frame_count, (int)d.candidate_count,
                (double)(1.0f / d.frame_time), ak_units_name((ak_units)d.units),
                (double)d.metres_per_unit, (double)d.min_speed, (double)d.max_speed);
        report_database_clips(db, &d);
        return;
    }
    ak_walk_motion_info m;
    ak_walk_motion_get_info(ak_walk_scene_motion(scene), &m);
    fprintf(stderr,
            "walk: clip %s, %s (%.6g m per unit), cycle frames %d:%d (%.2f s), stride %.2f m, "
            "speed %.2f m/s\n",
            info.clip_label, ak_units_name((ak_units)m.units), (double)m.metres_per_unit,
            (int)m.cycle_start, (int)m.cycle_end, (double)m.cycle_time, (double)m.stride_length,
            (double)m.speed);
    /* What the walker starts and stops with: the clip's own, or the procedural ramp/settle,
     * and why (a captured one left out names the bound it breaks). */
    char start[320], stop[320];
    ak_transition_check_describe(&m.start_check, 0, start, sizeof start);
    ak_transition_check_describe(&m.stop_check, 1, stop, sizeof stop);
    fprintf(stderr, "walk: start %s; stop %s\n", start, stop);
}

/* Once a second: time, place, distance (matching: the clip and frame playing). */
static void report_progress(ak_walk_scene *scene, const double origin[2], const ak_walker_state *s)
{
    char playing[160] = "";
    ak_matcher *m = ak_walk_scene_matcher(scene);
    if (m) {
        ak_matcher_info mi;
        ak_matcher_get_info(m, &mi);
        snprintf(playing, sizeof playing, "  %.100s %.2f s (database frame %d)",
                 ak_motion_db_clip_name(ak_walk_scene_motion_db(scene), mi.clip),
                 (double)mi.source_time, (int)mi.frame);
    }
    fprintf(stderr, "walk: t=%5.1f s  at (%6.2f, %6.2f)  distance %6.2f m%s%s\n", s->elapsed,
            origin[0] + (double)s->position.x, origin[1] + (double)s->position.z,
            (double)s->distance, playing, s->arrived ? "  arrived" : "");
}

/* Streams every frame until the character stops or --max-time runs out, then commits the
 * files as one set. Returns the exit code. */
static int run_walk(ak_walk_scene *scene, const walk_cli_options *cli)
{
    akcli_walk_output output;
    ak_walk_summary measures;
    ak_walk_scene_info info;
    ak_walker_state s;
    ak_error err;
    char summary[4096]; /* the library's line: 0.9 KiB with a long root-joint reason, up to
                           0.6 KiB more saying why a captured start and stop are left out */
    double next_report = 0.0, origin[2] = {0.0, 0.0};
    int32_t frames = 0;
    const int tty = akt_stderr_is_terminal();
    const double start_s = akt_wall_seconds();
    memset(&output, 0, sizeof output);
    ak_walk_scene_get_info(scene, &info);
    if (ak_walk_summary_begin(&measures, scene, &err) != AK_OK) goto failed;
    if (akcli_walk_output_open(&output, cli->out, ak_walk_scene_skeleton(scene), info.hips,
                               info.frame_time, &err) != AK_OK)
        goto failed;
    for (;;) {
        /* The stepper's own frame (its origin moves on long walks, scenario.h): the measures
         * and the CSV never see the float steps of far world coordinates. */
        ak_walk_scene_origin(scene, origin);
        ak_walk_scene_get_origin_state(scene, &s);
        const ak_xform *near = ak_walk_scene_origin_pose(scene);
        /* Every frame counts in the measures: the start, the walk, turns and the stop. */
        ak_walk_summary_add(&measures, scene, frames == 0);
        if (akcli_walk_output_frame(&output, &s, origin, near, ak_walk_scene_local_pose(scene),
                                    &err) != AK_OK)
            goto failed;
        ++frames;
        /* The trace once a simulated second on a terminal; a log gets the timing line only. */
        if (!cli->quiet && tty && s.elapsed >= next_report) {
            report_progress(scene, origin, &s);
            next_report += 1.0;
        }
        if (s.stopped || frames >= info.max_frames) break;
        if (ak_walk_scene_step(scene, &err) != AK_OK) goto failed;
    }
    if (ak_walk_summary_json(&measures, scene, summary, sizeof summary, &err) != AK_OK ||
        akcli_walk_output_commit(&output, summary, &err) != AK_OK) {
        fprintf(stderr, "animkit walk: %s (the files in %s are unchanged)\n", err.message,
                cli->out);
        akcli_walk_output_abort(&output);
        return 1;
    }
    if (!cli->quiet)
        fprintf(stderr,
                "walk: wrote %s/walk.bvh, %s/walk.csv and %s/summary.json (%d frames in %.2f s)\n",
                cli->out, cli->out, cli->out, (int)frames, akt_wall_seconds() - start_s);
    printf("%s\n", summary);
    return s.arrived ? 0 : 1;
failed:
    fprintf(stderr, "animkit walk: %s\n", err.message);
    akcli_walk_output_abort(&output);
    return 1;
}

int ak_cmd_walk(int argc, char **argv)
{
    ak_walk_scenario_params scenario;
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
    if (ak_walk_scene_create_with(&scenario, ak_tools_png_heightmap_loader, ak_tools_read_clip_warn,
                                  &scene, &err) != AK_OK) {
        const char *hint = ak_cli_root_joint_hint(&err, scenario.root_joint);
        fprintf(stderr, "animkit walk: %s%s\n", err.message, hint);
        return hint[0] ? 2 : 1; /* a --root-joint the file has not: a bad value, as info says */
    }
    if (!cli.quiet) report_clip(scene);
    const int rc = run_walk(scene, &cli);
    ak_walk_scene_destroy(scene);
    return rc;
}
