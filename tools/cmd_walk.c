/* animkit walk — the main demo: a character walks to a target over terrain with foot IK.
 * Writes DIR/walk.bvh, DIR/walk.csv and prints a JSON summary as the last line on stdout. */
#include "cli.h"
#include "walk_output.h"
#include "animkit/locomotion.h"
#include "walk_match.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* PNG heightmaps are read here in the CLI with stb_image (the library reads PGM only). */
#if defined(__has_include)
#if __has_include(<stb/stb_image.h>)
#define AK_WALK_PNG 1
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#if defined(__GNUC__)
/* stb declares static functions this file never defines or uses; the warning is reported at
 * the end of the file, so it stays off for this file. */
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb/stb_image.h>
#endif
#endif

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: animkit walk [options]\n"
        "\n"
        "Walks a character from --start to --target across terrain with foot IK, at the\n"
        "clip's frame rate, and writes DIR/walk.bvh (the walked motion, world root baked in),\n"
        "DIR/walk.csv (per frame: root, heading, sole points, ground, stance, hip drop) and,\n"
        "as the last line on stdout, a JSON summary. Progress goes to stderr.\n"
        "\n"
        "options:\n"
        "  --clip FILE.bvh      walk clip (default: the built-in procedural walk); with --steer\n"
        "                       match repeatable: the clips of the motion database\n"
        "  --library DIR        with --steer match: every .bvh in DIR joins the database\n"
        "  --cycle A:B          use frames [A,B) of --clip as the cycle (default: found "
        "automatically)\n"
        "  --idle FILE.bvh      idle clip to crossfade into on arrival (same skeleton as the "
        "walk)\n"
        "  --scale M            metres per file unit of --clip (default: detected from its "
        "height)\n"
        "  --terrain KIND       flat | hills | stairs (default hills)\n"
        "  --heightmap FILE     PGM (P2/P5) or PNG (8/16-bit, first channel) heightmap instead of "
        "--terrain\n"
        "  --size S             heightmap side in metres (x and z span -S/2..S/2; default 40)\n"
        "  --height H           heightmap height in metres for the maximum pixel value (default "
        "3)\n"
        "  --seed N             hills seed (default 1)\n"
        "  --start X,Z          start point (default -6,-4)\n"
        "  --target X,Z         target point (default 6,4)\n"
        "  --max-time S         give up after S simulated seconds (default 60)\n"
        "  --steer MODE         cycle (guide re-aims before each cycle) | continuous | match\n"
        "                       (motion matching over the --clip/--library database; default "
        "cycle)\n"
        "  --turn-rate DEG      heading turn-rate limit in degrees/s (default 90)\n"
        "  --arrival R          arrival radius in metres (default 0.3)\n"
        "  --no-foot-ik         play the animation on the terrain without foot IK\n"
        "  --out DIR            output folder (default out/walk)\n"
        "  --quiet              no progress on stderr\n"
        "  -h, --help           this help\n"
        "\n"
        "CSV columns: "
        "t,root_x,root_y,root_z,heading,left_x,left_y,left_z,left_ground,left_stance,\n"
        "right_x,right_y,right_z,right_ground,right_stance,hip_drop (metres, seconds, heading in\n"
        "degrees; foot = sole contact point, ground = terrain height under it, stance 0/1), then\n"
        "per foot left_heel_x,_y,_z,_ground,_down and left_toe_x,_y,_z,_ground,_down (and right):\n"
        "each contact point, the ground under it and whether it is down (1/0).\n");
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k) return 0;
    for (size_t i = 0; i < k; ++i) {
        char a = s[n - k + i], b = suffix[i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != b) return 0;
    }
    return 1;
}

/* A PNG heightmap with the same mapping as PGM: value / max * height, 8 or 16 bit, the first
 * channel of colour images. */
static int32_t load_png_heightmap(const char *path, float size, float height, ak_terrain **out,
                                  ak_error *err)
{
#ifdef AK_WALK_PNG
    int w = 0, h = 0, comp = 0;
    stbi_us *px = stbi_load_16(path, &w, &h, &comp, 1);
    if (!px)
        return ak_error_set(err, AK_ERR_PARSE, 0, "cannot read PNG: %s", stbi_failure_reason());
    float *hs = (float *)malloc(sizeof(float) * (size_t)w * (size_t)h);
    if (!hs) {
        stbi_image_free(px);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    for (size_t i = 0; i < (size_t)w * (size_t)h; ++i)
        hs[i] = (float)px[i] / 65535.0f * height;
    stbi_image_free(px);
    int32_t st = ak_terrain_create_grid(hs, w, h, size, out, err);
    free(hs);
    return st;
#else
    (void)path;
    (void)size;
    (void)height;
    (void)out;
    return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "this build reads PGM heightmaps only");
#endif
}

static int parse_cycle(const char *s, int *a, int *b)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s || *end != ':') return -1;
    const char *t = end + 1;
    long y = strtol(t, &end, 10);
    if (end == t || *end != '\0' || x < 0 || y <= x || y > 100000000) return -1;
    *a = (int)x;
    *b = (int)y;
    return 0;
}

int ak_cmd_walk(int argc, char **argv)
{
    if (ak_cli_wants_help(argc, argv)) {
        usage(stdout);
        return 0;
    }
    const char *clip_path = NULL, *idle_path = NULL, *heightmap = NULL, *out_dir = "out/walk";
    const char *terrain_kind = "hills";
    int cycle_a = -1, cycle_b = -1, seed = 1, foot_ik = 1, quiet = 0, steer = AK_STEER_CYCLE;
    float size = 40.0f, height = 3.0f, max_time = 60.0f, scale = 0.0f, turn_rate = 90.0f,
          arrival = 0.3f;
    float sx = -6.0f, sz = -4.0f, tx = 6.0f, tz = 4.0f;
    int have_size = 0, match = 0, clip_count = 0;
    const char *library = NULL;
    const char *clip_list[256];
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE()                                                                               \
    do {                                                                                           \
        if (!v) return ak_cli_usage_error("walk", "%s needs a value", a);                          \
        ++i;                                                                                       \
    } while (0)
        if (strcmp(a, "--clip") == 0) {
            NEED_VALUE();
            clip_path = v;
            if (clip_count >= 256) return ak_cli_usage_error("walk", "at most 256 --clip files");
            clip_list[clip_count++] = v;
        } else if (strcmp(a, "--library") == 0) {
            NEED_VALUE();
            library = v;
        } else if (strcmp(a, "--idle") == 0) {
            NEED_VALUE();
            idle_path = v;
        } else if (strcmp(a, "--cycle") == 0) {
            NEED_VALUE();
            if (parse_cycle(v, &cycle_a, &cycle_b))
                return ak_cli_usage_error(
                    "walk", "--cycle wants A:B with 0 <= A < B (frames), got '%s'", v);
        } else if (strcmp(a, "--scale") == 0) {
            NEED_VALUE();
            if (ak_cli_parse_float(v, &scale) || !(scale > 0.0f))
                return ak_cli_usage_error("walk", "--scale wants a positive number");
        } else if (strcmp(a, "--terrain") == 0) {
            NEED_VALUE();
            terrain_kind = v;
            if (strcmp(v, "flat") && strcmp(v, "hills") && strcmp(v, "stairs"))
                return ak_cli_usage_error("walk",
                                          "--terrain must be flat, hills or stairs, got '%s'", v);
        } else if (strcmp(a, "--heightmap") == 0) {
            NEED_VALUE();
            heightmap = v;
        } else if (strcmp(a, "--size") == 0) {
            NEED_VALUE();
            if (ak_cli_parse_float(v, &size) || !(size >= 0.01f && size <= 1e6f))
                return ak_cli_usage_error("walk", "--size %s: wants metres in [0.01, 1e6]", v);
            have_size = 1;
        } else if (strcmp(a, "--height") == 0) {
            NEED_VALUE();
            if (ak_cli_parse_float(v, &height) || !(fabsf(height) <= 1e4f))
                return ak_cli_usage_error("walk", "--height %s: wants metres in [-1e4, 1e4]", v);
        } else if (strcmp(a, "--seed") == 0) {
            NEED_VALUE();
            if (ak_cli_parse_int(v, &seed) || seed < 0)
                return ak_cli_usage_error("walk", "--seed wants a non-negative integer");
        } else if (strcmp(a, "--start") == 0) {
            NEED_VALUE();
            if (ak_cli_parse_vec2(v, &sx, &sz) || !(fabsf(sx) <= 1e6f && fabsf(sz) <= 1e6f))
                return ak_cli_usage_error("walk", "--start %s: wants X,Z in metres within 1e6", v);
        } else if (strcmp(a, "--target") == 0) {
            NEED_VALUE();
            if (ak_cli_parse_vec2(v, &tx, &tz) || !(fabsf(tx) <= 1e6f && fabsf(tz) <= 1e6f))
                return ak_cli_usage_error("walk", "--target %s: wants X,Z in metres within 1e6", v);
        } else if (strcmp(a, "--max-time") == 0) {
            NEED_VALUE();
            if (ak_cli_parse_float(v, &max_time) || !(max_time > 0.0f) || max_time > 100000.0f)
                return ak_cli_usage_error("walk", "--max-time wants seconds in (0, 100000]");
        } else if (strcmp(a, "--steer") == 0) {
            NEED_VALUE();
            if (strcmp(v, "cycle") == 0)
                steer = AK_STEER_CYCLE;
            else if (strcmp(v, "continuous") == 0)
                steer = AK_STEER_CONTINUOUS;
            else if (strcmp(v, "match") == 0)
                match = 1;
            else
                return ak_cli_usage_error("walk", "--steer must be cycle, continuous or match");
        } else if (strcmp(a, "--turn-rate") == 0) {
            NEED_VALUE();
            if (ak_cli_parse_float(v, &turn_rate) || !(turn_rate > 0.0f))
                return ak_cli_usage_error("walk", "--turn-rate wants degrees/s > 0");
        } else if (strcmp(a, "--arrival") == 0) {
            NEED_VALUE();
            if (ak_cli_parse_float(v, &arrival) || !(arrival > 0.0f))
                return ak_cli_usage_error("walk", "--arrival wants metres > 0");
        } else if (strcmp(a, "--no-foot-ik") == 0)
            foot_ik = 0;
        else if (strcmp(a, "--out") == 0) {
            NEED_VALUE();
            if (!*v) return ak_cli_usage_error("walk", "--out needs a folder name, got ''");
            out_dir = v;
        } else if (strcmp(a, "--quiet") == 0)
            quiet = 1;
        else
            return ak_cli_usage_error("walk", "unknown option '%s'", a);
#undef NEED_VALUE
    }
    if (cycle_a >= 0 && !clip_path) return ak_cli_usage_error("walk", "--cycle needs --clip");
    if ((have_size || heightmap) && !heightmap)
        return ak_cli_usage_error("walk", "--size is for --heightmap");
    if (!match && (clip_count > 1 || library))
        return ak_cli_usage_error("walk", "several --clip files or --library need --steer match");
    if (match && (cycle_a >= 0 || idle_path))
        return ak_cli_usage_error("walk", "--cycle and --idle are for the guide walker, not "
                                          "--steer match");

    ak_error err;
    int rc = 1;
    ak_skeleton *sk = NULL, *idle_sk = NULL;
    ak_clip *clip = NULL, *idle = NULL;
    ak_walk_motion *motion = NULL;
    ak_terrain *terrain = NULL;
    ak_walker *walker = NULL;
    akcli_walk_output output;
    memset(&output, 0, sizeof output);
    uint8_t *builtin_stance = NULL;

    /* The ground. */
    if (heightmap) {
        const int32_t st = ends_with(heightmap, ".png")
                               ? load_png_heightmap(heightmap, size, height, &terrain, &err)
                               : ak_terrain_load_pgm(heightmap, size, height, &terrain, &err);
        if (st != AK_OK) {
            rc = ak_cli_file_error(heightmap, &err);
            goto done;
        }
    } else {
        ak_terrain_params tp = ak_terrain_defaults();
        tp.kind = strcmp(terrain_kind, "flat") == 0     ? AK_TERRAIN_FLAT
                  : strcmp(terrain_kind, "stairs") == 0 ? AK_TERRAIN_STAIRS
                                                        : AK_TERRAIN_HILLS;
        tp.seed = (uint32_t)seed;
        if (ak_terrain_create(&tp, &terrain, &err) != AK_OK) {
            fprintf(stderr, "animkit walk: terrain: %s\n", err.message);
            goto done;
        }
    }
    const ak_ground ground = ak_terrain_ground(terrain);
    {
        /* A start or target off the ground would walk on NaN: say which, and where the
         * ground is. */
        ak_ground_hit hit;
        const char *off = !ak_ground_query(&ground, sx, sz, &hit)   ? "--start"
                          : !ak_ground_query(&ground, tx, tz, &hit) ? "--target"
                                                                    : NULL;
        if (off) {
            float extent = 0.0f;
            ak_terrain_info(terrain, NULL, &extent, NULL, NULL);
            fprintf(stderr,
                    "animkit walk: %s %g,%g is outside the ground (x and z span %g..%g m)\n", off,
                    off[2] == 's' ? (double)sx : (double)tx, off[2] == 's' ? (double)sz : (double)tz,
                    -0.5 * (double)extent, 0.5 * (double)extent);
            goto done;
        }
    }
    if (match) {
        const ak_walk_match_opts mo = {clip_list, clip_count, library, scale,
                                       ak_vec3_make(sx, 0, sz), ak_vec3_make(tx, 0, tz),
                                       max_time, arrival, foot_ik, quiet, out_dir};
        rc = ak_walk_match_run(&mo, &ground);
        goto done;
    }

    /* The walk clip: a file, or the built-in procedural walk (plus its idle). */
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    if (clip_path) {
        if (ak_bvh_read_file(clip_path, NULL, &sk, &clip, &err) != AK_OK) {
            rc = ak_cli_file_error(clip_path, &err);
            goto done;
        }
        mp.metres_per_unit = scale;
        if (cycle_a >= 0) {
            mp.cycle_start = cycle_a;
            mp.cycle_end = cycle_b;
        }
    } else {
        ak_walk_clip_params wp = ak_walk_clip_defaults();
        if (ak_walk_clip_create(&wp, &sk, &clip, &err) != AK_OK ||
            (!idle_path && ak_idle_clip_create(&wp, sk, &idle, &err) != AK_OK)) {
            fprintf(stderr, "animkit walk: built-in clip: %s\n", err.message);
            goto done;
        }
        mp.metres_per_unit = 1.0f;
        mp.cycle_start = mp.cycle_end = 0;
        builtin_stance = (uint8_t *)malloc((size_t)clip->frame_count * 2);
        if (!builtin_stance ||
            ak_walk_clip_contacts(&wp, clip, builtin_stance, builtin_stance + clip->frame_count,
                                  &err) != AK_OK) {
            fprintf(stderr, "animkit walk: built-in clip contacts failed\n");
            goto done;
        }
        mp.stance_left = builtin_stance;
        mp.stance_right = builtin_stance + clip->frame_count;
    }
    if (idle_path) {
        if (ak_bvh_read_file(idle_path, NULL, &idle_sk, &idle, &err) != AK_OK) {
            rc = ak_cli_file_error(idle_path, &err);
            goto done;
        }
        if (idle_sk->joint_count != sk->joint_count) {
            fprintf(stderr,
                    "animkit walk: --idle has %d joints but the walk skeleton has %d: they must "
                    "match\n",
                    (int)idle_sk->joint_count, (int)sk->joint_count);
            goto done;
        }
        idle->loop = 1;
    }
    if (ak_walk_motion_create(sk, clip, &mp, &motion, &err) != AK_OK) {
        fprintf(stderr, "animkit walk: %s: %s\n", clip_path ? clip_path : "built-in clip",
                err.message);
        goto done;
    }
    ak_walk_motion_info info;
    ak_walk_motion_get_info(motion, &info);
    if (!quiet) {
        fprintf(stderr,
                "walk: clip %s, %s (%.6g m per unit), cycle frames %d:%d (%.2f s), stride %.2f m, "
                "speed %.2f m/s\n",
                clip_path ? clip_path : "built-in", ak_units_name((ak_units)info.units),
                (double)info.metres_per_unit, (int)info.cycle_start, (int)info.cycle_end,
                (double)info.cycle_time, (double)info.stride_length, (double)info.speed);
    }


    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(sx, 0, sz);
    wp.target = ak_vec3_make(tx, 0, tz);
    wp.steer = steer;
    wp.max_turn_rate = turn_rate;
    wp.arrival_radius = arrival;
    wp.foot_ik = foot_ik;
    wp.idle_clip = idle;
    if (ak_walker_create(motion, &wp, &ground, &walker, &err) != AK_OK) {
        fprintf(stderr, "animkit walk: %s\n", err.message);
        goto done;
    }
    const ak_skeleton *wsk = ak_walk_motion_skeleton(motion);
    const float dt = ak_walk_motion_clip(motion)->frame_time;
    /* Frames are streamed to disk: memory does not depend on --max-time. */
    const double max_frames = ceil((double)max_time / (double)dt) + 1.0;
    if (akcli_walk_output_open(&output, out_dir, wsk, dt, &err) != AK_OK) {
        fprintf(stderr, "animkit walk: %s\n", err.message);
        goto done;
    }
    const int32_t hips = ak_walk_motion_humanoid(motion)->joint[AK_HUM_HIPS] >= 0
                             ? ak_walk_motion_humanoid(motion)->joint[AK_HUM_HIPS]
                             : 0;
    ak_walk_metrics metrics;
    ak_walk_metrics_reset(&metrics);
    ak_walker_state s;
    int32_t frames = 0;
    float next_report = 0.0f;
    for (; frames < max_frames; ++frames) {
        if (ak_walker_step(walker, frames == 0 ? 0.0f : dt, &ground, &err) != AK_OK) {
            fprintf(stderr, "animkit walk: step failed: %s\n", err.message);
            goto done;
        }
        ak_walker_get_state(walker, &s);
        const ak_xform *world = ak_walker_world_pose(walker);
        /* Every frame counts in the measures: start, walk, turns and the stop. */
        ak_walk_metrics_add(&metrics, &s, world, hips, frames == 0 ? 0.0f : dt);
        if (akcli_walk_output_frame(&output, &s, world, ak_walker_local_pose(walker), &err) !=
            AK_OK) {
            fprintf(stderr, "animkit walk: %s\n", err.message);
            goto done;
        }
        if (!quiet && s.time >= next_report) {
            fprintf(stderr, "walk: t=%5.1f s  at (%6.2f, %6.2f)  distance %6.2f m%s\n",
                    (double)s.time, (double)s.position.x, (double)s.position.z, (double)s.distance,
                    s.arrived ? "  arrived" : "");
            next_report += 1.0f;
        }
        if (s.stopped) {
            ++frames;
            break;
        }
    }
    char summary[1024];
    if (akcli_walk_summary_json(summary, sizeof summary, &s, &metrics, &err) != AK_OK ||
        akcli_walk_output_commit(&output, summary, &err) != AK_OK) {
        fprintf(stderr, "animkit walk: %s (the files in %s are unchanged)\n", err.message, out_dir);
        goto done;
    }
    if (!quiet)
        fprintf(stderr, "walk: wrote %s/walk.bvh, %s/walk.csv and %s/summary.json (%d frames)\n",
                out_dir, out_dir, out_dir, (int)frames);
    printf("%s\n", summary);
    rc = s.arrived ? 0 : 1;
done:
    akcli_walk_output_abort(&output);
    ak_walker_destroy(walker);
    ak_terrain_destroy(terrain);
    ak_walk_motion_destroy(motion);
    ak_clip_destroy(idle);
    ak_skeleton_destroy(idle_sk);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(sk);
    free(builtin_stance);
    return rc;
}
