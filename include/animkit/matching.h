/* animkit — motion matching: a database of captured motion searched every few frames for the
 * frame whose pose and future trajectory best match what the controller wants.
 *
 * Data flow: many clips on one skeleton -> ak_motion_db (offline: metres, per-frame features,
 * contacts, search boxes; saved/loaded as one binary blob) -> ak_matcher (per frame: desired
 * trajectory from springs -> search -> inertialized playback -> root motion through the
 * controller -> foot IK -> FK). The guide walker (locomotion.h) stays beside it.
 *
 * World: metres, Y up, right-handed; heading 0 faces +Z (rootmotion.h). Every frame of the
 * database has a "character frame" on the ground: the root's horizontal position and facing,
 * lightly smoothed. Features are written in that frame ("_cs": x left, y up, z forward).
 * Create functions allocate; the per-frame functions never do. */
#ifndef ANIMKIT_MATCHING_H
#define ANIMKIT_MATCHING_H

#include "locomotion.h"

AK_EXTERN_C_BEGIN

/* ---- Features ---------------------------------------------------------------------------- */

/* Feature layout (floats per frame, in this order; groups normalised separately):
 *  group 0  foot positions    6: left ankle xyz, right ankle xyz (character frame, m)
 *  group 1  foot velocities   6: left, right (m/s, character frame)
 *  group 2  hips velocity     3 (m/s, character frame)
 *  group 3  trajectory pos.   6: root x,z at +0.33, +0.67, +1.0 s (character frame, m)
 *  group 4  trajectory facing 6: facing x,z (unit) at the same times */
#define AK_MATCH_FEATURES    27
#define AK_MATCH_GROUPS      5
#define AK_MATCH_TRAJ_POINTS 3

AK_API int32_t ak_match_group_offset(int32_t group); /* first float of a group */
AK_API int32_t ak_match_group_size(int32_t group);
AK_API const char *ak_match_group_name(int32_t group);

/* ---- The database ------------------------------------------------------------------------ */

typedef struct ak_motion_db ak_motion_db;

/* One source clip. Frames [first, end) are used (end 0: to the last frame). Looping clips are
 * unrolled (root motion continues across the wrap) for `loops` cycles. */
typedef struct ak_motion_db_clip {
    const ak_clip *clip;
    int32_t first, end;
    int32_t loops;    /* looping clips: cycles to unroll (0: enough for 3 s) */
    const char *name; /* kept (truncated to 63 bytes) for reports; may be NULL */
} ak_motion_db_clip;

typedef struct ak_motion_db_params {
    float metres_per_unit; /* 0 (default): detected from the first clip's standing height */
    float frame_rate;      /* database frames per second (clips are resampled); default 60 */
    float weights[AK_MATCH_GROUPS]; /* per group; defaults 0.75, 1.0, 1.0, 1.0, 1.5 */
    float max_joint_speed;    /* rad/s: a larger frame-to-frame turn of a body joint (humanoid-
                                 mapped, not toes or fingers) is a cut in the capture (e.g. CMU's
                                 T-pose frame 0); the clip is split there; a key of any joint
                                 that turns faster in and out, its neighbours within twice that,
                                 is repaired (their halfway rotation) first; default 25 */
    float position_smoothing; /* s: Gaussian sigma of the character frame's position; 0.1 */
    float heading_smoothing;  /* s: Gaussian sigma of its heading; default 0.2 */
    const char *humanoid_overrides; /* see ak_humanoid_find; NULL */
    ak_contact_params contacts;     /* the walker's contact detector, same defaults (no roll
                                       bit: roll_height is taken as 0) */
    /* The joint that carries the travel; NULL (default): measured (ak_root_joint_find) over
     * the clips, and the first found below a still top joint is named for all, so every clip
     * has one shape (ak_clip_root_motion_prepare). */
    const char *root_joint;
} ak_motion_db_params;

AK_API ak_motion_db_params ak_motion_db_defaults(void);
AK_API int32_t ak_motion_db_validate(const ak_motion_db_params *params, ak_error *err);
/* The documented range of every float field (status.h), checked by the _validate above. */
AK_API const ak_param_table *ak_motion_db_param_ranges(void);
/* Builds the database (offline: allocates, resamples, runs FK per frame). Every clip must
 * have the skeleton's joint count. Parts of a clip shorter than 1.0 s + 2 frames after the
 * cuts are dropped; fails with AK_ERR_DEGENERATE when no candidate frame is left. */
AK_API int32_t ak_motion_db_create(const ak_skeleton *skeleton, const ak_motion_db_clip *clips,
                                   int32_t clip_count, const ak_motion_db_params *params,
                                   ak_motion_db **out, ak_error *err);
AK_API void ak_motion_db_destroy(ak_motion_db *db);

typedef struct ak_motion_db_info {
    int32_t frame_count;     /* frames stored */
    int32_t candidate_count; /* frames with 1 s of future in their range */
    int32_t range_count;     /* continuous pieces after cuts */
    int32_t clip_count;
    int32_t joint_count;
    float frame_time;           /* seconds */
    float metres_per_unit;      /* of the sources */
    int32_t units;              /* ak_units */
    float sole_height[2];       /* ankle above sole in stance, m */
    int32_t stand_frame;        /* the frame held when standing (most still double support) */
    float min_speed, max_speed; /* root speed over candidates, m/s */
} ak_motion_db_info;

AK_API void ak_motion_db_get_info(const ak_motion_db *db, ak_motion_db_info *info);
AK_API const ak_skeleton *ak_motion_db_skeleton(const ak_motion_db *db); /* metres */
AK_API const ak_humanoid *ak_motion_db_humanoid(const ak_motion_db *db);
/* Which joint carries the sources' travel and why (ak_root_joint_find's report), the rule of
 * ak_motion_db_params.root_joint: the joint named (reason AK_ROOT_JOINT_NAMED, measured on the
 * first clip), or the first clip's joint under a still top joint, else the first clip's top
 * joint. Joint indices of ak_motion_db_skeleton; travel, top_travel and height in the source
 * clips' units (ak_motion_db_info.metres_per_unit: metres), as ak_root_joint_describe says them
 * for the sources. Kept in the blob. NULL for a NULL database. */
AK_API const ak_root_joint_report *ak_motion_db_root_joint(const ak_motion_db *db);
/* Name of a source clip (as given, "" when none) and the clip / source frame of a database
 * frame (the source frame at the source's own rate, rounded). */
AK_API const char *ak_motion_db_clip_name(const ak_motion_db *db, int32_t clip);
AK_API void ak_motion_db_frame_source(const ak_motion_db *db, int32_t frame, int32_t *clip,
                                      float *source_time);
/* 1 when `frame` has a future (may be the result of a search). */
AK_API int32_t ak_motion_db_is_candidate(const ak_motion_db *db, int32_t frame);
/* Stance of foot `side` (0 left, 1 right) at `frame`. */
AK_API int32_t ak_motion_db_contact(const ak_motion_db *db, int32_t frame, int32_t side);
/* The in-place local pose of `frame` (root relative to the frame's character frame). */
AK_API void ak_motion_db_pose(const ak_motion_db *db, int32_t frame, ak_xform *local);
/* Raw (unnormalised) features of `frame`, AK_MATCH_FEATURES floats. */
AK_API void ak_motion_db_features(const ak_motion_db *db, int32_t frame, float *raw);
/* Root motion from `frame` to frame + 1 in the character frame of `frame`: translation (x,z)
 * and heading change. */
AK_API void ak_motion_db_root_delta(const ak_motion_db *db, int32_t frame, ak_vec3 *delta,
                                    float *delta_heading);

/* The source's own figures, as ak_walk_metrics_source gives a walk motion's: the hips'
 * vertical acceleration min and max in g (33 ms average) and the peak knee flexion, over every
 * frame of every range of the database (each range a sequence of its own), and the skate (on
 * the stored poses' floor, y = 0) and each heel's and toe's drag (a point's ground that floor
 * where its contact has it down, its lowest over the range where not, as the grounding holds
 * it) over every range with its root deltas (a range is no cycle: no seam). The other fields
 * stay 0 (drag_frame -1). Allocates a pose buffer (load-time use); AK_ERR_INVALID_ARG on NULL. */
AK_API int32_t ak_motion_db_source_metrics(const ak_motion_db *db, ak_walk_metrics *out,
                                           ak_error *err);

/* Group weights (AK_MATCH_GROUPS values, >= 0, not all 0): renormalises the features and
 * rebuilds the search boxes (offline cost, allocates nothing). */
AK_API int32_t ak_motion_db_set_weights(ak_motion_db *db, const float *weights, ak_error *err);
/* Raw features -> the normalised, weighted space the search works in. */
AK_API void ak_motion_db_normalize(const ak_motion_db *db, const float *raw, float *normalized);

/* ---- Search ------------------------------------------------------------------------------ */

typedef enum ak_match_search_mode {
    AK_MATCH_BRUTE = 0, /* every candidate: the reference */
    AK_MATCH_BOXES = 1  /* bounding boxes over blocks of 16 and 64 candidates; same answer */
} ak_match_search_mode;

typedef struct ak_match_result {
    int32_t frame; /* best candidate, -1 when none beat `best_cost` */
    float cost;    /* squared distance in the normalised space */
    int32_t frames_tested;
} ak_match_result;

/* Finds the candidate with the lowest squared distance to `query` (normalised features),
 * considering only costs below `best_cost` (INFINITY: any). Ties go to the lowest frame, so
 * both modes return the same frame. No allocation. */
AK_API void ak_motion_db_search(const ak_motion_db *db, const float *query,
                                ak_match_search_mode mode, float best_cost, ak_match_result *out);
/* The same, skipping the database frames of `exclude_count` ranges [exclude[2i],
 * exclude[2i+1]) (the playing frame's neighbourhood and what was just played: Holden's demo
 * and Unreal's pose search keep a jump from landing a few frames from where playback already
 * is, or from going back to a pose it just left). Both modes still return the same frame. */
AK_API void ak_motion_db_search_excluding(const ak_motion_db *db, const float *query,
                                          ak_match_search_mode mode, float best_cost,
                                          const int32_t *exclude, int32_t exclude_count,
                                          ak_match_result *out);

/* ---- Save / load: one binary blob -------------------------------------------------------- */

/* Bytes the blob of `db` takes. */
AK_API size_t ak_motion_db_blob_size(const ak_motion_db *db);
/* Writes the blob into `buffer` (capacity bytes; AK_ERR_LIMIT when too small). Little-endian
 * on every machine, a magic, a version and a checksum of everything after the header. */
AK_API int32_t ak_motion_db_save_memory(const ak_motion_db *db, void *buffer, size_t capacity,
                                        ak_error *err);
/* Reads a blob: checks magic, version, sizes and checksum (AK_ERR_PARSE with the reason). */
AK_API int32_t ak_motion_db_load_memory(const void *data, size_t bytes, ak_motion_db **out,
                                        ak_error *err);
/* The same through a file; saving writes a temporary beside `path` and renames it. */
AK_API int32_t ak_motion_db_save_file(const ak_motion_db *db, const char *path, ak_error *err);
AK_API int32_t ak_motion_db_load_file(const char *path, ak_motion_db **out, ak_error *err);

/* ---- The matching controller ------------------------------------------------------------- */

typedef struct ak_matcher ak_matcher;

typedef struct ak_matcher_params {
    ak_vec3 start, target;   /* world x,z */
    float start_heading;     /* radians; NaN (default): facing the target */
    float arrival_radius;    /* m; default 0.3 */
    float walk_speed;        /* m/s wanted far from the target; default 1.4 */
    float slow_radius;       /* m: the wanted speed falls linearly inside it; default 1.5 */
    float turn_on_spot;      /* radians: wanted speed is 0 while the target is further off the
                                facing than this (turning on the spot), [0, pi]; default
                                110 deg (1.9199) */
    float velocity_halflife; /* s: critically damped spring of the wanted velocity; 0.3 */
    float heading_halflife;  /* s: the same for the wanted facing; default 0.25 */
    float search_interval;   /* s between searches; default 0.1 */
    float sharp_change;      /* a search happens at once when the wanted velocity jumps by
                                more than this, m/s; default 0.5 */
    float inertia_halflife;  /* s: decay of the transition offsets; default 0.12 */
    float transition_cost;   /* a jump happens only when the new frame's cost (normalised squared
                                distance) beats the playing frame's continuation by this much;
                                default 0.5 (Holden's demo: transition_cost) */
    float exclude_time;      /* s: frames of the playing take within this of the playing frame
                                are not jumped to (the demo's ignore_surrounding, Unreal's pose
                                jump threshold); default 0.33 */
    float reselect_time;     /* s: the frames of a stretch left less than this ago (and
                                exclude_time around them) are not jumped back to (Unreal's pose
                                reselect history: no ping-pong between two takes); default 0.5 */
    float turn_rate;         /* orientation warping: the facing turns toward the wanted one by at
                                most this many rad/s beyond the clip's own turning; default
                                100 deg/s (1.745 rad/s); 0: off */
    float stop_time;         /* s the root takes to come to rest when stopping; default 0.35 */
    float rate_warp;         /* playback-rate warping: the clip plays up to this fraction faster
                                or slower (root travel with it, so planted feet stay planted)
                                to meet the wanted speed; default 0 (off; docs/locomotion.md
                                has its figures at 0.1) */
    float stance_gate;       /* m: a stance a transition brings in starts once the foot is at
                                most this far above the frame's own foot, or the shown sole and
                                toe this close to the ground; default 0.006 */
    float unlock_distance;   /* m: a locked stance foot farther than this from where the playing
                                frame puts it is released until the frame lifts it; 0.1 */
    int32_t search_mode;     /* ak_match_search_mode; default AK_MATCH_BOXES */
    int32_t foot_ik;         /* 1 (default) */
    int32_t use_controller;  /* 1 (default): root motion through the capsule controller */
    ak_controller_params controller;
    const ak_box *boxes;
    int32_t box_count;
    float ground_smoothing; /* s: floor-height spring, as the walker; default 0.12 */
    ak_foot_ik_params foot; /* legs/hips filled from the database when legs[0].upper < 0;
                               max_knee_flex (when 0) from the database's peak knee flexion,
                               the walker's rule. The hips are planned, as the walker's
                               (walker.h): they move within physics over the footholds (the
                               landing rays), foot.hip_accel_down/up (when 0) from the
                               database's own envelope (ak_motion_db_source_metrics) by the
                               walker's rule, each leg's landing slack from the database's
                               landings (CMU subject 2 on flat ground: hips -0.72..+1.06 g,
                               tests/matching/test_match_physics.c) */
} ak_matcher_params;

/* What matching is doing now (beyond ak_walker_state, which ak_matcher_get_state fills). */
typedef struct ak_matcher_info {
    int32_t frame;       /* database frame playing */
    int32_t clip;        /* its source clip */
    float source_time;   /* and time in that clip, s */
    float cost;          /* of the last search's winner */
    int32_t transitions; /* jumps to another frame so far */
    int32_t searches;
    int32_t unlocks;  /* stance feet released because the pose left them behind */
    int32_t standing; /* 1 while holding the stand pose */
    float rate;       /* playback rate (1: as captured; rate_warp) */
    /* Trajectories at +0.33/+0.67/+1.0 s, world: what the controller wants and what the
     * playing frame will do. */
    ak_vec3 desired_position[AK_MATCH_TRAJ_POINTS];
    ak_vec3 desired_facing[AK_MATCH_TRAJ_POINTS];
    ak_vec3 matched_position[AK_MATCH_TRAJ_POINTS];
    ak_vec3 matched_facing[AK_MATCH_TRAJ_POINTS];
} ak_matcher_info;

AK_API ak_matcher_params ak_matcher_defaults(void);
AK_API int32_t ak_matcher_validate(const ak_matcher_params *params, const ak_motion_db *db,
                                   ak_error *err);
/* The ranges of its float fields (status.h), checked by ak_matcher_validate. */
AK_API const ak_param_table *ak_matcher_param_ranges(void);
/* Allocates the matcher; `db` must outlive it. Placed at start on `ground` (may be NULL). */
AK_API int32_t ak_matcher_create(const ak_motion_db *db, const ak_matcher_params *params,
                                 const ak_ground *ground, ak_matcher **out, ak_error *err);
AK_API void ak_matcher_destroy(ak_matcher *matcher);
AK_API void ak_matcher_reset(ak_matcher *matcher, const ak_ground *ground);
/* A new target; a matcher standing inside its arrival radius of it stays standing. */
AK_API void ak_matcher_set_target(ak_matcher *matcher, ak_vec3 target);
/* One frame: springs, search, inertialized pose, root motion (controller), foot IK, FK.
 * No allocation. */
AK_API int32_t ak_matcher_step(ak_matcher *matcher, float dt, const ak_ground *ground,
                               ak_error *err);

/* ak_matcher_step for matchers[begin..end), in order: one range of a crowd for a thread pool,
 * as ak_walker_step_range (the database and ground are shared read-only; same bits on any
 * thread; statuses optional; the first failure's status). No allocation. */
AK_API int32_t ak_matcher_step_range(ak_matcher *const *matchers, int32_t begin, int32_t end,
                                     float dt, const ak_ground *ground, int32_t *statuses);

/* Rays per frame: character centre, left sole, right sole, left toe, right toe (where this
 * frame's foot IK puts them), then where the left and the right swinging foot will land (the
 * playing frame's own landing in the database), then one ahead of a swinging toe. A landing ray
 * no landing needs looks under where the frame has a planted heel a release may move the foot
 * to, or ahead of a swinging toe for a riser; else under the sole. The last looks ahead of a
 * swinging toe no other ray looks ahead of; else under the character's centre. */
#define AK_MATCHER_RAY_COUNT 8

/* The same frame in phases, for engines (as the walker's ak_walker_begin ... _finish):
 *  1. ak_matcher_begin: springs, search, transitions, pose; writes the wanted world
 *     displacement (for the engine's character controller);
 *  2. ak_matcher_set_position (optional): where the engine's controller put the character;
 *     without it the character moves by the wanted displacement (y from the centre ray);
 *  3. ak_matcher_ground_rays: the AK_MATCHER_RAY_COUNT downward rays to cast;
 *  4. ak_matcher_finish: the hits, same order -> floor, foot IK, FK.
 * Out of order (finish before begin and ground_rays, or twice) is AK_ERR_STATE. */
AK_API int32_t ak_matcher_begin(ak_matcher *matcher, float dt, ak_vec3 *desired_move,
                                ak_error *err);
AK_API void ak_matcher_set_position(ak_matcher *matcher, ak_vec3 position);
AK_API int32_t ak_matcher_ground_rays(ak_matcher *matcher, ak_ground_ray *rays, int32_t capacity);
AK_API int32_t ak_matcher_finish(ak_matcher *matcher, const ak_ground_hit *hits, int32_t count,
                                 ak_error *err);
/* The walker's state fields (position, heading, stance, soles, ...) so ak_walk_metrics and
 * every walker report work unchanged. */
AK_API void ak_matcher_get_state(const ak_matcher *matcher, ak_walker_state *state);
AK_API void ak_matcher_get_info(const ak_matcher *matcher, ak_matcher_info *info);
AK_API const ak_xform *ak_matcher_world_pose(const ak_matcher *matcher);
AK_API const ak_xform *ak_matcher_local_pose(const ak_matcher *matcher);
/* The inertialized animation of the last frame before root placement and foot IK: local
 * pose, root relative to the character frame (what matching and the transitions produce). */
AK_API const ak_xform *ak_matcher_anim_pose(const ak_matcher *matcher);

AK_EXTERN_C_END

#endif
