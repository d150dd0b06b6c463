/* animkit — scenarios: one table of flags per scenario, and the walk scenario built from it.
 *
 * A flag table (ak_flag_table) lists every setting of a scenario once: its name, type, default,
 * range and one line of help. Everything a surface needs comes from that one table:
 *   - command-line parsing (`--max-time 30`, `--no-foot-ik`) for the CLI and the viewer,
 *   - URL-query parsing (`?max-time=30&no-foot-ik`) for the web page,
 *   - the defaults of the params struct (ak_flags_defaults),
 *   - validation messages ("--max-time wants a number in (0,100000], got '-1'"),
 *   - the options section of `--help` (ak_flags_help),
 * so the CLI, the viewer, the web page and the Python binding cannot drift apart. BVHView's
 * `Arg*` helpers are the model.
 *
 * The walk scenario (ak_walk_scenario_params) is the main demo: a character walks from a start
 * point to a target across terrain with foot IK. ak_walk_scene_create turns its params into the
 * skeleton, clip, walk motion, terrain and walker (or, with steer match, the motion database
 * and the matcher), once, for every surface.
 *
 * Library code: libc + libm only. Heightmap images other than PGM come through a loader the
 * caller passes (the CLI and viewer pass a PNG loader built on stb_image). */
#ifndef ANIMKIT_SCENARIO_H
#define ANIMKIT_SCENARIO_H

#include "ak_config.h"
#include "clipfile.h"
#include "ground.h"
#include "locomotion.h"
#include "matching.h"
#include "status.h"

AK_EXTERN_C_BEGIN

/* ---------------------------------------------------------------------------------------
 * Flag tables */

typedef enum ak_flag_type {
    AK_FLAG_SWITCH = 0,   /* no value: stores `on` into an int32_t field */
    AK_FLAG_INT = 1,      /* `count` int32_t values separated by `separator` */
    AK_FLAG_FLOAT = 2,    /* `count` float values separated by `separator`; finite only */
    AK_FLAG_TEXT = 3,     /* a char[] field of `size` bytes (NUL-terminated copy) */
    AK_FLAG_CHOICE = 4,   /* int32_t: the index of the value in `choices` ("flat|hills|stairs") */
    AK_FLAG_TEXT_LIST = 5 /* repeatable: a char[] field of `size` bytes holding every value
                             given, in order, separated by '\n' (ak_flags_list_item) */
} ak_flag_type;

/* The longest value a text flag takes, including the terminating NUL, unless `size` says less. */
#define AK_FLAG_TEXT_MAX 512
/* Values of one INT/FLOAT flag at most ("X,Y,Z", "A:B:STEP"). */
#define AK_FLAG_MAX_VALUES 4

typedef struct ak_flag {
    const char *name;    /* long name without dashes: "max-time" -> --max-time, max-time= */
    char short_name;     /* optional one-letter alias ('o' -> -o), 0 for none */
    int32_t type;        /* ak_flag_type */
    size_t offset;       /* offsetof(params struct, field) */
    size_t size;         /* TEXT: sizeof the char[] field (0: AK_FLAG_TEXT_MAX) */
    int32_t count;       /* INT/FLOAT: values in the field (0 means 1) */
    int32_t min_count;   /* INT/FLOAT: values the user must give (0: all `count`) */
    char separator;      /* between values: ',' (0 means ','), ':' or 'x' */
    int32_t on;          /* SWITCH: the value it stores when present (1 or 0) */
    const char *metavar; /* how help shows the value: "FILE.bvh", "X,Z" */
    const char *def;     /* default as text ("60", "-6,-4", "hills"); NULL: zero / empty */
    const char *range;   /* numbers, every value: "[0,inf)", "(0,100000]"; NULL: any finite */
    const char *choices; /* CHOICE: the values, '|'-separated */
    const char *help;    /* one line for --help */
} ak_flag;

typedef struct ak_flag_table {
    const char *command; /* "walk": error messages and help say "animkit walk" */
    const ak_flag *flags;
    int32_t count;
} ak_flag_table;

#define AK_FLAGS_MAX_POSITIONAL 16

/* What a parse found besides the flags' values. */
typedef struct ak_flags_result {
    int32_t wants_help;                              /* -h or --help was given */
    int32_t positional_count;                        /* arguments that are not flags */
    const char *positional[AK_FLAGS_MAX_POSITIONAL]; /* pointers into argv */
    uint64_t given[4]; /* bit (t*64 + i): flag i of table t was given (tables < 4, flags < 64) */
} ak_flags_result;

/* Writes every flag's default (ak_flag.def) into the params struct at `params`. Returns AK_OK,
 * or AK_ERR_INVALID_ARG when a default does not parse (a bug in the table). */
AK_API int32_t ak_flags_defaults(const ak_flag_table *table, void *params, ak_error *err);

/* Parses argv[1..argc) against `table_count` tables, each writing into its own params struct
 * (tables[t] -> params[t]). `--name VALUE`, `--name=VALUE`, `-x VALUE`; a flag known to several
 * tables goes to the first whose parse of the value succeeds (the viewer's `--size WxH` and the
 * walker's `--size S`). Non-flag arguments (and everything after `--`) are positional: at most
 * max_positional (<= AK_FLAGS_MAX_POSITIONAL) of them, or an error. -h/--help sets wants_help
 * and stops. Returns AK_OK or AK_ERR_INVALID_ARG with the message for the user (unknown flag,
 * missing value, bad value with the expected type/range/choices). */
AK_API int32_t ak_flags_parse_args(const ak_flag_table *const *tables, void *const *params,
                                   int32_t table_count, int argc, const char *const *argv,
                                   int32_t max_positional, ak_flags_result *result, ak_error *err);

/* Parses a URL query string ("clip=a.bvh&max-time=30&no-foot-ik", a leading '?' allowed;
 * %XX and '+' decoded) into one table's params. A switch takes no value or 1/true/on
 * (present) or 0/false/off (absent). Same errors as ak_flags_parse_args. */
AK_API int32_t ak_flags_parse_query(const ak_flag_table *table, void *params, const char *query,
                                    ak_flags_result *result, ak_error *err);

/* Checks every INT/FLOAT field against its range and every CHOICE against its choices, for
 * params filled by code rather than parsed (the Python and JS bindings). A value equal to the
 * flag's default is accepted (defaults may be sentinels, e.g. 0 = detect). */
AK_API int32_t ak_flags_check(const ak_flag_table *table, const void *params, ak_error *err);

/* True when flag `name` of table number `table_index` was given in the parse. */
AK_API int32_t ak_flags_given(const ak_flags_result *result, const ak_flag_table *table,
                              int32_t table_index, const char *name);

/* Item `index` of a TEXT_LIST field ("a.bvh\nb.bvh") copied into buf (NUL-terminated).
 * Returns the number of items in the list; buf is "" when index is past the end. */
AK_API int32_t ak_flags_list_item(const char *list, int32_t index, char *buf, size_t size);

/* The index of the flag called `name` (without dashes) in the table, or -1. */
AK_API int32_t ak_flags_find(const ak_flag_table *table, const char *name);

/* Writes the options section of --help (one line a flag: name, value, help, default, range or
 * choices; -h/--help itself is the caller's line) into buf (always NUL-terminated when size > 0).
 * Returns the length the whole text needs, like snprintf. */
AK_API size_t ak_flags_help(const ak_flag_table *table, char *buf, size_t size);

/* ---------------------------------------------------------------------------------------
 * The walk scenario */

typedef enum ak_walk_steer {
    AK_WALK_STEER_CYCLE = 0,      /* the guide walker re-aims before each cycle (AK_STEER_CYCLE) */
    AK_WALK_STEER_CONTINUOUS = 1, /* the guide walker steers every frame (AK_STEER_CONTINUOUS) */
    AK_WALK_STEER_MATCH = 2       /* motion matching over the clips (src/matching) */
} ak_walk_steer;

/* Bytes for every --clip of a scenario together ('\n'-separated). */
#define AK_WALK_CLIPS_MAX 16384

typedef enum ak_walk_terrain {
    AK_WALK_TERRAIN_FLAT = 0,
    AK_WALK_TERRAIN_HILLS = 1,
    AK_WALK_TERRAIN_STAIRS = 2
} ak_walk_terrain;

/* Every setting of the walk demo. Fill with ak_walk_scenario_defaults, then parse flags or a
 * URL query into it, or set fields directly. World space: metres, y up, the terrain's x,z. */
typedef struct ak_walk_scenario_params {
    char clip[AK_WALK_CLIPS_MAX];     /* walk BVH; "" (default): the built-in procedural walk.
                                         Repeatable with steer match: the clips of the motion
                                         database, '\n'-separated (ak_flags_list_item) */
    char library[AK_FLAG_TEXT_MAX];   /* steer match: every .bvh in this folder joins the
                                         database; "" none */
    int32_t cycle[2];                 /* frames [A,B) of `clip` as the cycle; -1,-1: automatic */
    char idle[AK_FLAG_TEXT_MAX];      /* idle BVH crossfaded in on arrival; "" none (built-in
                                         clip: the built-in idle) */
    float scale;                      /* metres per file unit of `clip`; 0: detected */
    int32_t terrain;                  /* ak_walk_terrain; default hills */
    char heightmap[AK_FLAG_TEXT_MAX]; /* PGM/PNG heightmap instead of `terrain`; "" none */
    float size;                       /* heightmap side in metres, spans -size/2..size/2; 40 */
    float height;                     /* heightmap metres at the maximum pixel value; 3 */
    int32_t seed;                     /* hills seed; 1 */
    float start[2];                   /* start x,z; -6,-4 */
    float target[2];                  /* target x,z; 6,4 */
    float max_time;                   /* give up after this many simulated seconds; 0
                                         (default): twice the straight route from start to
                                         target at the walk's own speed (the guide's cycle;
                                         matching: its walk_speed within the database's
                                         fastest), at least 60 s */
    int32_t steer;                    /* ak_walk_steer; cycle */
    float turn_rate_deg;              /* heading turn-rate limit, degrees/s; 90 */
    float arrival;                    /* arrival radius, m; 0.3 */
    int32_t foot_ik;                  /* 1: foot IK on (default); --no-foot-ik */
    int32_t captured_transitions;     /* 1 (default): a start or stop held by `clip` is played
                                         (ak_walk_motion_params.use_captured_transitions);
                                         --no-captured-transitions */
    float start_heading_deg;          /* facing at the start, degrees (0: +Z, 90: +X, the CSV's
                                     heading); AK_WALK_FACE_TARGET (default, 1000): facing
                                     the target */
    /* The joint that carries the travel; "" (default): measured (ak_root_joint_find). */
    char root_joint[AK_FLAG_TEXT_MAX];
    int32_t up; /* ak_up_axis (clip.h) of the BVH files the scene reads (ak_clip_read_file_up):
                   AK_UP_AUTO (default) measures, AK_UP_Y keeps the file's axes, AK_UP_Z turns
                   them. A clip_loader given to ak_walk_scene_create_with reads as it does
                   (the tools' reader takes the same setting from `animkit walk --up`). */
} ak_walk_scenario_params;

/* ak_walk_scenario_params.start_heading_deg's default: start facing the target. */
#define AK_WALK_FACE_TARGET 1000.0f

/* The walk scenario's flag table (the CLI's `animkit walk`, the viewer's --walk mode, the web
 * page's URL parameters). */
AK_API const ak_flag_table *ak_walk_scenario_flags(void);
AK_API ak_walk_scenario_params ak_walk_scenario_defaults(void);
/* Ranges and choices (ak_flags_check) plus the rules between flags: --cycle needs --clip,
 * a non-default --size or --height needs --heightmap, several --clip or --library need steer
 * match, which needs a --clip or --library and takes no --cycle or --idle.
 * AK_ERR_INVALID_ARG with the reason. */
AK_API int32_t ak_walk_scenario_validate(const ak_walk_scenario_params *scenario, ak_error *err);

/* Loads a heightmap image other than PGM (e.g. PNG): value / max * height, side `size` metres. */
typedef int32_t (*ak_heightmap_loader)(const char *path, float size, float height, ak_terrain **out,
                                       ak_error *err);

typedef struct ak_walk_scene ak_walk_scene;

/* Builds everything the scenario describes: the terrain (hills/flat/stairs, or the heightmap:
 * PGM here, any other extension through `image_loader`, which may be NULL), checks start and
 * target are on it, then
 *  - guide walker (steer cycle/continuous): reads the clip (or makes the built-in walk and
 *    idle), the walk motion and the walker;
 *  - motion matching (steer match): reads every --clip and every .bvh of --library (name
 *    order; one skeleton, the first file's), builds the motion database (metres per unit
 *    `scale`, 0 detects) and the matcher (start, target, arrival radius, foot IK);
 * and places the character (the first step, dt 0). Validates first. Errors name the file they
 * come from ("walk.bvh:12: ..."). */
AK_API int32_t ak_walk_scene_create(const ak_walk_scenario_params *scenario,
                                    ak_heightmap_loader image_loader, ak_walk_scene **out,
                                    ak_error *err);
/* Same, reading every clip file (--clip, --idle, --library) through `clip_loader` (NULL:
 * ak_clip_read_file_up with the scenario's `up`, so BVH, glTF and GLB; the tools pass one that
 * also reads FBX). */
AK_API int32_t ak_walk_scene_create_with(const ak_walk_scenario_params *scenario,
                                         ak_heightmap_loader image_loader,
                                         ak_clip_loader clip_loader, ak_walk_scene **out,
                                         ak_error *err);
AK_API void ak_walk_scene_destroy(ak_walk_scene *scene);

typedef struct ak_walk_scene_info {
    float frame_time;       /* seconds per step: the walk clip's (matching: the database's) */
    int32_t max_frames;     /* frames in the time limit (max_time; 0: the one that follows the
                               walk), counting the placing frame 0: where a recording of the
                               walk stops (stepping may go on, e.g. after a new target in the
                               viewer) */
    int32_t frame;          /* frames stepped so far (1 after create) */
    int32_t hips;           /* the hips joint of the walk skeleton (the root if not found) */
    const char *clip_label; /* "built-in walk", the clip's file name, or for matching
                               "motion database of N clips", plus " (K left out: no 1 s
                               between capture glitches)" when K clips hold no candidate */
} ak_walk_scene_info;

AK_API void ak_walk_scene_get_info(const ak_walk_scene *scene, ak_walk_scene_info *info);
/* Advances one frame (frame_time); no allocation. */
AK_API int32_t ak_walk_scene_step(ak_walk_scene *scene, ak_error *err);
/* Steps scenes[begin, end) one frame each, in order: a range of a crowd (split [0, count) with
 * ak_batch_range). Scenes share nothing, so ranges may run on different threads at the same
 * time (no threads here); the same bits as stepping each scene in turn. Stops at the first
 * failing scene; its index starts err's message. AK_ERR_INVALID_ARG for a null array or scene,
 * begin < 0 or end < begin. */
AK_API int32_t ak_walk_scene_step_range(ak_walk_scene *const *scenes, int32_t begin, int32_t end,
                                        ak_error *err);
/* Back to the start: the walker reset and placed again (frame 1). */
AK_API void ak_walk_scene_reset(ak_walk_scene *scene);

/* The character, whichever steers it (guide walker or matcher): its state (ak_walker_state:
 * position, heading, stance, soles, ...), world and local pose (the walk skeleton's joints,
 * metres), and a new target (world x,z; y ignored). The poses are the stepper's own buffers
 * (the scene's copies where the source has copy bones, ak_copy_bones: the UE4 mannequin's
 * ik_foot and ik_hand bones put back on the walked feet and hands), valid until the next
 * step. */
AK_API void ak_walk_scene_get_state(const ak_walk_scene *scene, ak_walker_state *state);
AK_API const ak_xform *ak_walk_scene_world_pose(const ak_walk_scene *scene);
AK_API const ak_xform *ak_walk_scene_local_pose(const ak_walk_scene *scene);
AK_API void ak_walk_scene_set_target(ak_walk_scene *scene, ak_vec3 target);

/* Long walks keep their precision (floats step by 1.6 cm at 1.7e5 m): the guide walker walks
 * in a frame whose origin moves, in whole metres, whenever the character is more than 256 m
 * from it (ak_walker_shift_origin); within 256 m of the world origin it never moves. The
 * accessors above add the origin back (world x,z, as floats); these give the stepper's own
 * frame, world x,z = frame x,z + origin (in double), for measures that must not see the
 * float steps of far coordinates (the CLI's skate and CSV). The matcher keeps origin 0,0. */
AK_API void ak_walk_scene_origin(const ak_walk_scene *scene, double origin[2]);
AK_API void ak_walk_scene_get_origin_state(const ak_walk_scene *scene, ak_walker_state *state);
AK_API const ak_xform *ak_walk_scene_origin_pose(const ak_walk_scene *scene);

/* The guide walker and its walk motion (NULL with steer match). */
AK_API ak_walker *ak_walk_scene_walker(ak_walk_scene *scene);
AK_API const ak_walk_motion *ak_walk_scene_motion(const ak_walk_scene *scene);
/* The matcher and its database (NULL unless steer match): ak_matcher_get_info for the clip
 * and frame playing, the cost and the wanted and matched trajectories. */
AK_API ak_matcher *ak_walk_scene_matcher(ak_walk_scene *scene);
AK_API const ak_motion_db *ak_walk_scene_motion_db(const ak_walk_scene *scene);
AK_API const ak_terrain *ak_walk_scene_terrain(const ak_walk_scene *scene);
AK_API const ak_ground *ak_walk_scene_ground(const ak_walk_scene *scene);
/* The skeleton the character is posed on (the walk motion's or the database's, in metres). */
AK_API const ak_skeleton *ak_walk_scene_skeleton(const ak_walk_scene *scene);

/* ---------------------------------------------------------------------------------------
 * The walk's measures and its summary line: one implementation for every surface (the CLI's
 * last line and summary.json, Python's Walker.summary(), the web module's walkerSummary()). */

typedef struct ak_walk_summary {
    ak_walk_metrics metrics; /* this walk, every frame added since ak_walk_summary_begin */
    ak_walk_metrics source;  /* the source's hips, knee and drag figures: the guide walker's
                                cycle (ak_walk_metrics_source), the matcher's database
                                (ak_motion_db_source_metrics) */
    int32_t has_source;      /* 0: no source figures in the line */
    double origin[2];        /* the scene's origin when the last frame was added */
} ak_walk_summary;

/* Starts the measures of the scene's walk: the legs of its humanoid map (knee flexion, ankle
 * depth) and the source's own figures (the guide walker's cycle, the matcher's database;
 * allocates a pose buffer for that, once). AK_ERR_INVALID_ARG on NULL. */
AK_API int32_t ak_walk_summary_begin(ak_walk_summary *summary, const ak_walk_scene *scene,
                                     ak_error *err);
/* Adds the scene's current frame (`first`: the placing frame, no time step), in the stepper's
 * own frame (the origin's moves are taken out of the remembered points). */
AK_API void ak_walk_summary_add(ak_walk_summary *summary, const ak_walk_scene *scene,
                                int32_t first);
/* The summary line, one JSON object: {"arrived":..,"time_s":..,"final_distance":..,
 * "path_length":..,"max_penetration":..,"max_float":..,"max_heel_penetration":..,
 * "max_heel_float":..,"max_toe_penetration":..,"max_toe_float":..,"skate":..,"max_skate":..,
 * "max_foot_tilt_deg":..,"max_hip_accel":..,"deepest_any_phase":..,"deepest_planted":..,
 * "hip_accel_min_g":..,"hip_accel_max_g":..,"knee_peak_deg":..,"drag_m_s":..,
 * "source_hip_accel_min_g":..,"source_hip_accel_max_g":..,"source_knee_peak_deg":..,
 * "source_drag_m_s":..,"frames":..,"root_joint":..,"root_joint_reason":..,"root_joint_why":..,
 * "start":..,"start_why":..,"stop":..,"stop_why":..}
 * (the source's four only with a source; matching adds "transitions", "searches", "unlocks",
 * "db_frames" after "frames" and has no start or stop keys: it plays database frames; root_joint
 * names the joint that carries the source's travel, the walk motion's or the database's, its
 * reason top, under_still_top or named and its why as ak_root_joint_describe says it: `animkit
 * info --json`'s root_joint; start and stop say what the guide walker starts and stops with,
 * "captured" or "procedural", and start_why / stop_why the line ak_transition_check_describe
 * writes: why, with the figures of a captured one left out). drag_m_s is the drag
 * (walkmetrics.h) of the heel or toe farthest over its bound, source_drag_m_s that bound: the
 * source's own fastest for that point that low, at least AK_WALK_DRAG_FLOOR
 * (ak_walk_metrics_drag_worst; without a source every bound is the floor). AK_ERR_LIMIT when
 * cap is too small, AK_ERR_INVALID_ARG
 * naming a figure that is not finite. */
AK_API int32_t ak_walk_summary_json(const ak_walk_summary *summary, ak_walk_scene *scene, char *buf,
                                    size_t cap, ak_error *err);

AK_EXTERN_C_END

#endif
