/* The walk scenario: its flag table (the one place its settings, defaults, ranges and help
 * live) and the set-up every surface shares: flags -> params -> clips, walk motion, terrain,
 * walker. The CLI (`animkit walk`), the viewer (--walk), the web page and Python call this. */
#include "animkit/scenario.h"

#include "animkit/bvh.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define WALK_FIELD(f) offsetof(ak_walk_scenario_params, f)
#define WALK_TEXT(f)  WALK_FIELD(f), sizeof(((ak_walk_scenario_params *)0)->f)

static const ak_flag k_walk_flags[] = {
    {.name = "clip",
     .type = AK_FLAG_TEXT_LIST,
     .offset = WALK_TEXT(clip),
     .metavar = "FILE.bvh",
     .help = "walk clip (default: the built-in procedural walk); repeatable with --steer match"},
    {.name = "library",
     .type = AK_FLAG_TEXT,
     .offset = WALK_TEXT(library),
     .metavar = "DIR",
     .help = "with --steer match: every .bvh in DIR joins the motion database"},
    {.name = "cycle",
     .type = AK_FLAG_INT,
     .offset = WALK_FIELD(cycle),
     .count = 2,
     .separator = ':',
     .metavar = "A:B",
     .def = "-1:-1",
     .range = "[0,100000000]",
     .help = "frames [A,B) of --clip as the cycle; -1:-1 finds it"},
    {.name = "idle",
     .type = AK_FLAG_TEXT,
     .offset = WALK_TEXT(idle),
     .metavar = "FILE.bvh",
     .help = "idle clip crossfaded in on arrival (the walk clip's skeleton)"},
    {.name = "root-joint",
     .type = AK_FLAG_TEXT,
     .offset = WALK_TEXT(root_joint),
     .metavar = "NAME",
     .help = "joint that carries the travel (default: measured; animkit info says which)"},
    {.name = "up",
     .type = AK_FLAG_CHOICE,
     .offset = WALK_FIELD(up),
     .def = "auto",
     .choices = "auto|y|z",
     .help = "axis the BVH rigs of --clip, --idle and --library stand along: auto measures it (a "
             "rig standing along +Z is turned to Y-up, with a warning), y keeps the file's axes, "
             "z turns them"},
    {.name = "scale",
     .type = AK_FLAG_FLOAT,
     .offset = WALK_FIELD(scale),
     .metavar = "M",
     .def = "0",
     .range = "[0,1000000]",
     .help = "metres per file unit of --clip; 0 detects it from the height"},
    {.name = "terrain",
     .type = AK_FLAG_CHOICE,
     .offset = WALK_FIELD(terrain),
     .def = "hills",
     .choices = "flat|hills|stairs",
     .help = "built-in terrain"},
    {.name = "heightmap",
     .type = AK_FLAG_TEXT,
     .offset = WALK_TEXT(heightmap),
     .metavar = "FILE",
     .help = "PGM (P2/P5) or PNG (8/16-bit) heightmap instead of --terrain"},
    {.name = "size",
     .type = AK_FLAG_FLOAT,
     .offset = WALK_FIELD(size),
     .metavar = "S",
     .def = "40",
     .range = "[0.01,1000000]",
     .help = "heightmap side in metres (x and z span -S/2..S/2)"},
    {.name = "height",
     .type = AK_FLAG_FLOAT,
     .offset = WALK_FIELD(height),
     .metavar = "H",
     .def = "3",
     .range = "[-10000,10000]",
     .help = "heightmap metres at the maximum pixel value"},
    {.name = "seed",
     .type = AK_FLAG_INT,
     .offset = WALK_FIELD(seed),
     .metavar = "N",
     .def = "1",
     .range = "[0,2147483647]",
     .help = "hills seed"},
    {.name = "start",
     .type = AK_FLAG_FLOAT,
     .offset = WALK_FIELD(start),
     .count = 2,
     .metavar = "X,Z",
     .def = "-6,-4",
     .range = "[-1000000,1000000]",
     .help = "start point, metres"},
    {.name = "target",
     .type = AK_FLAG_FLOAT,
     .offset = WALK_FIELD(target),
     .count = 2,
     .metavar = "X,Z",
     .def = "6,4",
     .range = "[-1000000,1000000]",
     .help = "target point, metres"},
    {.name = "max-time",
     .type = AK_FLAG_FLOAT,
     .offset = WALK_FIELD(max_time),
     .metavar = "S",
     .def = "0",
     .range = "[0,100000]",
     .help = "give up after S simulated seconds; 0 follows the walk: twice the straight route "
             "at the walk's own speed, at least 60"},
    {.name = "steer",
     .type = AK_FLAG_CHOICE,
     .offset = WALK_FIELD(steer),
     .def = "cycle",
     .choices = "cycle|continuous|match",
     .help = "the guide re-aims before each cycle, or every frame; or motion matching"},
    {.name = "turn-rate",
     .type = AK_FLAG_FLOAT,
     .offset = WALK_FIELD(turn_rate_deg),
     .metavar = "DEG",
     .def = "90",
     .range = "(0,100000]",
     .help = "heading turn-rate limit, degrees/s"},
    {.name = "arrival",
     .type = AK_FLAG_FLOAT,
     .offset = WALK_FIELD(arrival),
     .metavar = "R",
     .def = "0.3",
     .range = "(0,1000]",
     .help = "arrival radius, metres"},
    {.name = "no-foot-ik",
     .type = AK_FLAG_SWITCH,
     .offset = WALK_FIELD(foot_ik),
     .on = 0,
     .def = "1",
     .help = "play the animation on the terrain without foot IK"},
    {.name = "start-heading",
     .type = AK_FLAG_FLOAT,
     .offset = WALK_FIELD(start_heading_deg),
     .metavar = "DEG",
     .def = "1000",
     .range = "[-360,360]",
     .help = "facing at the start, degrees (0: +Z, 90: +X, as the CSV's heading); "
             "by default facing the target"},
    {.name = "no-captured-transitions",
     .type = AK_FLAG_SWITCH,
     .offset = WALK_FIELD(captured_transitions),
     .on = 0,
     .def = "1",
     .help = "start and stop procedurally even when --clip holds a start or stop"},
};

static const ak_flag_table k_walk_table = {"walk", k_walk_flags,
                                           (int32_t)(sizeof k_walk_flags / sizeof k_walk_flags[0])};

const ak_flag_table *ak_walk_scenario_flags(void)
{
    return &k_walk_table;
}

ak_walk_scenario_params ak_walk_scenario_defaults(void)
{
    ak_walk_scenario_params s;
    memset(&s, 0, sizeof s);
    ak_flags_defaults(&k_walk_table, &s, NULL);
    return s;
}

int32_t ak_walk_scenario_validate(const ak_walk_scenario_params *s, ak_error *err)
{
    if (!s) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null scenario");
    const int32_t st = ak_flags_check(&k_walk_table, s, err);
    if (st != AK_OK) return st;
    const ak_walk_scenario_params d = ak_walk_scenario_defaults();
    const int auto_cycle = s->cycle[0] == -1 && s->cycle[1] == -1;
    if (!auto_cycle && !(s->cycle[0] >= 0 && s->cycle[1] > s->cycle[0]))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "--cycle wants A:B with 0 <= A < B (frames), got %d:%d",
                            (int)s->cycle[0], (int)s->cycle[1]);
    if (!auto_cycle && !s->clip[0])
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "--cycle needs --clip");
    const int match = s->steer == AK_WALK_STEER_MATCH;
    if (!match && (ak_flags_list_item(s->clip, 0, NULL, 0) > 1 || s->library[0]))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "several --clip files or --library need --steer match");
    if (match && !s->clip[0] && !s->library[0])
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "--steer match needs --clip FILE.bvh (repeatable) or --library DIR");
    if (match && (!auto_cycle || s->idle[0]))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "--cycle and --idle are for the guide walker, not --steer match");
    if (match && !s->captured_transitions)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "--no-captured-transitions is for the guide walker: --steer match "
                            "has no procedural start or stop (it plays database frames)");
    if (!s->heightmap[0] && (s->size != d.size || s->height != d.height))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "--size and --height are for --heightmap");
    return AK_OK;
}
