/* animkit — locomotion: the built-in walk clip, foot contacts, walk cycles from mocap, foot IK,
 * reach, and the guide-joint walker that takes a character to a target over uneven ground.
 *
 * World: metres, Y up, right-handed. A character faces +Z at heading 0 (see rootmotion.h).
 * Per frame the walker runs: sample -> root motion (guide + controller) -> foot IK -> FK.
 * Create functions allocate; step functions never do. */
#ifndef ANIMKIT_LOCOMOTION_H
#define ANIMKIT_LOCOMOTION_H

#include "clip.h"
#include "controller.h"
#include "ground.h"
#include "rootmotion.h"

AK_EXTERN_C_BEGIN

/* ---- The built-in walk clip ---------------------------------------------------------- */

/* A procedural gait for animkit's own biped (21 joints + 5 End Site tips, CMU-style names,
 * metres, facing +Z, left = +X). Feet follow planted/swing trajectories (stance feet do not
 * move in the world), legs are solved analytically from them, the pelvis bobs, sways and
 * rolls, arms swing against the legs. The clip loops: one cycle = two steps. */
typedef struct ak_walk_clip_params {
    float stride_length; /* metres travelled per cycle (two steps); default 1.3 */
    float cycle_time;    /* seconds per cycle; default 1.1 (109 steps/min) */
    float frame_rate;    /* frames per second; default 60 */
    float duty_factor;   /* fraction of the cycle each foot is in stance, (0.5, 0.8); default 0.6 */
    float hip_height;    /* hip joint height at double support, m; default 0.795 */
    float hip_bob;       /* extra hip height at mid-stance, m; default 0.105 (knee 17.5 deg) */
    float hip_sway;      /* lateral pelvis amplitude, m; default 0.025 */
    float step_width;    /* lateral distance between the feet, m; default 0.18 */
    float foot_clearance; /* peak ankle lift in swing, m; default 0.10 */
    float arm_swing_deg;  /* shoulder swing amplitude; default 16 */
    float pelvis_yaw_deg; /* pelvis rotation amplitude; default 4 */
} ak_walk_clip_params;

AK_API ak_walk_clip_params ak_walk_clip_defaults(void);
AK_API int32_t ak_walk_clip_validate(const ak_walk_clip_params *params, ak_error *err);
/* Builds the biped and its looping walk clip (the root travels +Z by stride_length per
 * cycle). Both outputs are new objects the caller destroys. */
AK_API int32_t ak_walk_clip_create(const ak_walk_clip_params *params, ak_skeleton **out_skeleton,
                                   ak_clip **out_clip, ak_error *err);
/* The exact contact flags of the built-in walk clip's frames (left, right: clip frame_count
 * values each): AK_CONTACT_HEEL | AK_CONTACT_TOE while the foot is planted (flat) by
 * construction, 0 in swing. */
AK_API int32_t ak_walk_clip_contacts(const ak_walk_clip_params *params, const ak_clip *clip,
                                     uint8_t *left, uint8_t *right, ak_error *err);
/* A looping standing idle (gentle breathing and weight shift) for the same biped. */
AK_API int32_t ak_idle_clip_create(const ak_walk_clip_params *params, const ak_skeleton *skeleton,
                                   ak_clip **out_clip, ak_error *err);

/* ---- Units of a clip ------------------------------------------------------------------- */

/* The one units rule every caller uses: the clip's typical standing height
 * (ak_clip_standing_height), or the skeleton's rest height when the clip gives none, mapped by
 * ak_units_detect. `clip` may be NULL. Writes metres per unit (1 when nothing fits). */
AK_API ak_units ak_units_detect_clip(const ak_skeleton *skeleton, const ak_clip *clip,
                                     float *metres_per_unit);

/* ---- Foot contacts: heel and toe ------------------------------------------------------- */

/* Contact flags, one byte per frame and foot: AK_CONTACT_HEEL while the heel (ankle) point is
 * down, AK_CONTACT_TOE while the toe (ball) point is. The foot is in stance when either is. */
enum { AK_CONTACT_HEEL = 1, AK_CONTACT_TOE = 2 };

/* Contact detection on a clip. Each point (heel = the ankle joint, toe = the ball joint) is
 * down while its height above its local floor and its horizontal speed are both small, with
 * hysteresis (on below the "on" thresholds, off above any "off" threshold). The local
 * floor of a point at frame f is the lowest it comes within floor_window seconds either side,
 * so floors that are uneven or drift, forefoot running (toe down, heel up) and flight phases
 * (neither foot down) are all found. Blips shorter than min_stance / min_swing are removed.
 * Thresholds in metres and metres per second, after metres_per_unit. */
typedef struct ak_contact_params {
    const ak_skeleton *skeleton; /* required */
    const ak_clip *clip;         /* required; as many joints as the skeleton */
    int32_t heel[2];       /* ankle joints [left, right]; -1 (default): the humanoid map's feet */
    int32_t toe[2];        /* ball joints; -1 (default): the humanoid map's toes, else none */
    float metres_per_unit; /* the clip's units; 0 (default): ak_units_detect_clip */
    float height_on;       /* m above the local floor; default 0.025 */
    float height_off;      /* m; default 0.045 */
    float speed_on;        /* m/s, horizontal; default 0.25 */
    float speed_off;       /* m/s; default 0.45 */
    float rise_off;        /* m/s: the heel also lifts off when it rises this fast (heel-off
                              in a walk); 0 disables; default 0.12 */
    float floor_window;    /* s either side of a frame for its local floor; default 0.8 */
    float max_floor_rise;  /* m: a local floor higher than this above the point's lowest in
                              the clip is no floor (a foot on a pedal); default 0.3 */
    float min_stance;      /* s: shorter stance runs are dropped; default 0.05 */
    float min_swing;       /* s: shorter gaps between two stances are filled; default 0.06 */
} ak_contact_params;

AK_API ak_contact_params ak_contact_defaults(void);
AK_API int32_t ak_contact_validate(const ak_contact_params *params, ak_error *err);
/* Writes a flag byte (AK_CONTACT_*) for frames [0, clip->frame_count) of the left and right
 * foot. Looping clips are treated as circular. Allocates scratch (load-time use). */
AK_API int32_t ak_contact_run(const ak_contact_params *params, uint8_t *left, uint8_t *right,
                              ak_error *err);

/* ---- Foot calibration ------------------------------------------------------------------ */

/* Where a clip's feet meet its floor, model space of the clip (its units), from its contacts.
 * The one calibration rule the walker and the plugin use. */
typedef struct ak_foot_calibration {
    float floor_y;        /* Y of the clip floor: the lowest point of either foot's subtree */
    float sole_height[2]; /* ankle above the floor while the heel is down (else over stance,
                             else over every frame) */
    ak_vec3 up_local[2];  /* the foot's up axis (+Y seen from the ankle joint), same frames */
    ak_vec3 toe_local[2]; /* the floor point under the ball, in the ankle joint's frame,
                             while the toe is down; (0,0,0) without a toe joint */
    int32_t has_toe[2];
    float stance_fraction[2]; /* fraction of frames in stance (0: no contact at all) */
} ak_foot_calibration;

/* `foot` and `toe` are the ankle and ball joints [left, right] (toe -1: none); `left`/`right`
 * are contact flag bytes per frame (AK_CONTACT_*), or NULL to use every frame. Allocates
 * scratch (load-time use). */
AK_API int32_t ak_foot_calibrate(const ak_skeleton *skeleton, const ak_clip *clip,
                                 const int32_t foot[2], const int32_t toe[2], const uint8_t *left,
                                 const uint8_t *right, ak_foot_calibration *out, ak_error *err);

/* Plain planted flags (1/0) of two given end joints (ankles, or wrists): the joint's own
 * contact (the heel bit) by ak_contact_run's rule. `params` gives the thresholds (its
 * skeleton, clip and joints are replaced by the arguments; the joint's first child, if any,
 * is its toe point). For heel and toe bits use ak_contact_run. */
AK_API int32_t ak_foot_contacts_detect(const ak_skeleton *skeleton, const ak_clip *clip,
                                       int32_t left_foot, int32_t right_foot, float metres_per_unit,
                                       const ak_contact_params *params, uint8_t *left,
                                       uint8_t *right, ak_error *err);

/* The contact flag byte at time t (seconds) of a clip of frame_count frames: the nearest
 * frame, wrapped when `loop`, clamped otherwise. The one stance-at-time rule. */
AK_API uint8_t ak_contact_at(const uint8_t *flags, int32_t frame_count, float frame_time,
                             int32_t loop, float t);

/* ---- Walk cycles in mocap -------------------------------------------------------------- */

typedef struct ak_cycle {
    int32_t start, end;   /* frames: the cycle is [start, end); frame `end` repeats `start` */
    float pose_error;     /* mean per-joint rotation difference between start and end, radians */
    float velocity_error; /* mean per-joint angular velocity difference, rad/s */
    float step_length;    /* m: mean root travel per step (half the cycle's travel) */
    float speed;          /* m/s over the cycle */
} ak_cycle;

/* The cycle finder looks for locomotion. A candidate [start, end) holds, for each foot,
 * exactly one stance and one swing (two steps), with the same contact state at both ends, and
 * the root travels at least min_step_fraction * leg_length per step. Among those it prefers
 * the steadiest stretch (the two steps alike in length and turn) with the best seam (pose and
 * velocity match, root heading removed). A clip with no such stretch is refused with what was
 * measured (how far the root moves in how long). */
typedef struct ak_cycle_params {
    const ak_skeleton *skeleton; /* required, in metres (scale first) */
    const ak_clip *clip;         /* required, same units */
    const uint8_t *left, *right; /* contact flags per frame (ak_contact_run); required */
    float leg_length;            /* m, hip to ankle; 0 (default): from the humanoid map */
    float min_time, max_time;    /* cycle length range, s; defaults 0.45 and 1.8 */
    float min_step_fraction;     /* default 0.3 */
} ak_cycle_params;

AK_API ak_cycle_params ak_cycle_defaults(void);
AK_API int32_t ak_cycle_validate(const ak_cycle_params *params, ak_error *err);
/* AK_ERR_NOT_FOUND with the measured reason when the clip holds no locomotion. */
AK_API int32_t ak_cycle_find(const ak_cycle_params *params, ak_cycle *out, ak_error *err);

/* ---- Walk motion: a clip prepared for walking ---------------------------------------- */

/* A walk clip made ready: skeleton and clip scaled to metres, the cycle cut and its seam
 * blended, heading drift over the cycle removed (so cycles chain straight), root motion,
 * foot contacts and the foot calibration (sole height, the foot's up axis). Read-only after
 * creation, so many walkers can share one. */
typedef struct ak_walk_motion ak_walk_motion;

typedef struct ak_walk_motion_params {
    float metres_per_unit; /* 0 (default): detect from the standing height (ak_units_detect) */
    int32_t cycle_start; /* frames [cycle_start, cycle_end); both -1 (default): find automatically;
                            both 0: the clip already loops (clip->loop must be 1) */
    int32_t cycle_end;
    float seam_blend;               /* seconds of crossfade hiding the seam; default 0.1 */
    float min_cycle_time;           /* automatic search range, seconds; default 0.45 */
    float max_cycle_time;           /* default 1.8 */
    const char *humanoid_overrides; /* "slot=Joint,..." or NULL (see ak_humanoid_find) */
    ak_contact_params contacts;     /* thresholds (skeleton, clip and joints are filled in) */
    const uint8_t *stance_left;     /* optional, with a clip that already loops: stance flags per */
    const uint8_t *stance_right;    /* frame instead of detection (e.g. ak_walk_clip_contacts) */
    int32_t use_captured_transitions; /* 1 (default): a start (standing on both feet, root still,
                                         then the ramp into the cycle) or stop found in the clip
                                         around the cycle is kept and the walker plays it;
                                         0: procedural starts and stops only */
} ak_walk_motion_params;

typedef struct ak_walk_motion_info {
    float metres_per_unit;
    int32_t units; /* ak_units */
    int32_t cycle_start,
        cycle_end; /* in the source clip's frames (0, frame_count for a ready loop) */
    float pose_error, velocity_error; /* seam quality (ak_cycle) */
    float cycle_time;                 /* seconds */
    float stride_length;              /* metres per cycle */
    float speed;                      /* metres per second */
    float travel_heading;             /* direction of travel relative to the facing, radians */
    float sole_height[2];             /* ankle above sole, m: [0] left, [1] right */
    float stance_fraction[2];
    float leg_length[2];
    int32_t start_frames[2]; /* source frames [first, last] of the captured start; -1,-1: none */
    int32_t stop_frames[2];  /* the same for the captured stop */
    float start_join_error;  /* rad: the start's last frame against the loop's first */
    float stop_join_error;   /* rad: the stop's first frame against the loop's first */
} ak_walk_motion_info;

AK_API ak_walk_motion_params ak_walk_motion_defaults(void);
/* AK_OK, or AK_ERR_INVALID_ARG with the reason (negative or non-finite units, a cycle that is
 * neither -1:-1, 0:0 nor 0 <= start < end - 2, negative seam blend, unordered cycle times,
 * stance flags for one foot only or without a ready loop, bad contact thresholds).
 * ak_walk_motion_create validates first; what needs the clip (end < frame_count) it checks
 * there. */
AK_API int32_t ak_walk_motion_validate(const ak_walk_motion_params *params, ak_error *err);
AK_API int32_t ak_walk_motion_create(const ak_skeleton *skeleton, const ak_clip *clip,
                                     const ak_walk_motion_params *params, ak_walk_motion **out,
                                     ak_error *err);
AK_API void ak_walk_motion_destroy(ak_walk_motion *motion);
AK_API void ak_walk_motion_get_info(const ak_walk_motion *motion, ak_walk_motion_info *info);
AK_API const ak_skeleton *ak_walk_motion_skeleton(const ak_walk_motion *motion); /* metres */
AK_API const ak_clip *ak_walk_motion_clip(const ak_walk_motion *motion); /* the looping cycle */
AK_API const ak_humanoid *ak_walk_motion_humanoid(const ak_walk_motion *motion);
AK_API const ak_root_motion *ak_walk_motion_root(const ak_walk_motion *motion);
/* Stance flags per frame of the cycle clip; side 0 = left, 1 = right. */
AK_API const uint8_t *ak_walk_motion_contacts(const ak_walk_motion *motion, int32_t side);
/* Overrides the detected stance flags (clip->frame_count values per side). */
AK_API int32_t ak_walk_motion_set_contacts(ak_walk_motion *motion, const uint8_t *left,
                                           const uint8_t *right, ak_error *err);
/* The contact flag byte (AK_CONTACT_*, 0 in swing) of foot `side` (0 left, 1 right) at cycle
 * time t: ak_contact_at over the motion's contacts (nearest frame, wraps). What the walker
 * plays; the motion-level form of the one stance-at-time rule. */
AK_API uint8_t ak_walk_motion_stance_at(const ak_walk_motion *motion, int32_t side, float t);

/* ---- Foot IK --------------------------------------------------------------------------- */

/* One leg of the foot IK rig (indices into the skeleton). */
typedef struct ak_foot_ik_leg {
    int32_t upper, lower, foot; /* hip (thigh), knee (shin), ankle joints */
    float sole_height;          /* metres from the ankle down to the sole contact point */
    ak_vec3 up_local;           /* the foot's up axis in the ankle joint's local frame (unit) */
    ak_vec3 toe_local;          /* the toe contact (floor point under the ball), ankle frame */
    int32_t has_toe;            /* 1: the foot rolls over toe_local when only the toe is down;
                                   0 (default): one contact point */
} ak_foot_ik_leg;

/* Settings and rig of one character's foot IK. The skeleton and the joints that belong to it
 * (legs, hips) are here, like every solver's params (ik.h); per-frame input is
 * ak_foot_ik_frame, what carries over between frames is ak_foot_ik_state. */
typedef struct ak_foot_ik_params {
    const ak_skeleton *skeleton; /* required (the walker and matcher fill in their own) */
    ak_foot_ik_leg legs[2];      /* [0] left, [1] right */
    int32_t hips;                /* the joint lowered by the hip drop (usually the root) */
    float weight;                /* overall 0..1; default 1 */
    float max_tilt_deg;          /* feet follow the surface normal up to this angle; default 45 */
    float lock_release_rate;     /* per second: how fast a released stance lock fades; default 8 */
    float ground_fade_rate; /* per second: fade in/out where ground appears/disappears; default 4 */
    float stance_fade_rate; /* per second: how fast flat alignment and planting follow stance;
                               default 20 */
    float swing_height_rate; /* m/s: the swing foot's ground offset changes at most this fast;
                                default 2 */
    float hip_drop_rate;     /* m/s: the smoothed hip drop changes at most this fast; default 0.8 */
    float hip_drop_stiffness; /* 1/s: the hip drop follows its goal as a critically damped spring
                                 of this angular frequency; default 15 */
    float max_hip_drop;       /* metres; default 0.45 */
    float max_hip_rise;       /* metres the hips may rise above the animation in single support
                                 (over a stance foot above the animation's floor, so the stance
                                 knee keeps the animated bend); default 0 (the walker: 0.3) */
    float pole_distance;      /* knee pole this far in front of the knee, m; default 0.5 */
    int32_t lock_feet;        /* 1 (default): stance feet stay where they landed */
} ak_foot_ik_params;

/* Per-character state, caller-owned; ak_foot_ik_state_reset before the first frame. */
typedef struct ak_foot_ik_state {
    int32_t initialized;
    float hip_drop;          /* metres: the smoothed shortfall drop (negative: the hips raised,
                                up to max_hip_rise) */
    float hip_drop_velocity; /* m/s */
    float applied_hip_drop;  /* metres the hips were lowered this frame (>= hip_drop when a
                                leg needed more to reach its target) */
    float lock_weight[2];
    ak_vec3 lock_point[2]; /* world sole point held in stance */
    float ground_weight[2];
    float stance_weight[2]; /* flat alignment (leads stance by stance_next) */
    float pivot_weight[2];  /* rolling over the toe: the animated pitch is kept */
    int32_t lock_toe[2];    /* the lock holds the toe point (heel up), not the sole point */
    float plant_weight[2];  /* the animated lift fades out as this rises in stance */
    float swing_offset[2];  /* m, the swing foot's smoothed vertical ground offset */
    int32_t was_stance[2];
    ak_vec3 shift[2];        /* input the caller may set: a world x,z offset added to where
                                each foot is animated (foot placement: a swinging foot moved
                                off a stair edge lands there and is locked there) */
    float liftoff_ground[2]; /* ground height the foot last stood on */
    int32_t has_liftoff[2];
    float swing_need[2];     /* m: the drop a swinging leg needed last frame to reach (-1 in
                                stance) */
    float toe_roll[2];       /* radians the foot was turned heel-up about its toe beyond the
                                animation so a stretched leg reaches (0 unless needed) */
    float stance_goal;       /* m: the animation's floor last frame in single support */
    int32_t stance_goal_leg; /* which leg that was (-1: none) */
    /* outputs of the last run */
    ak_vec3 sole[2]; /* world sole (heel) contact points after IK */
    ak_vec3 toe[2];  /* world toe contact points after IK (= sole without a toe) */
    ak_vec3 ankle_target[2];
    float tilt_deg[2]; /* angle between foot up and surface normal after IK */
    int32_t reached[2];
} ak_foot_ik_state;

/* Input of one frame. */
typedef struct ak_foot_ik_frame {
    float dt;                /* seconds since the previous frame (> 0) */
    ak_xform character;      /* world_from_character: where the character stands, its heading */
    float floor_height;      /* world Y of the animation's floor (the clip floor is placed here) */
    int32_t stance[2];       /* 1 when the foot is in stance this frame */
    int32_t stance_next[2];  /* 1 when it will be in stance 1/stance_fade_rate s from now, so
                                flat alignment fades in before touchdown (else = stance) */
    ak_ground_hit ground[2]; /* ground under each heel query point (ak_foot_ik_query_points) */
    ak_ground_hit ground_toe[2];  /* ground under each toe query point
                                     (ak_foot_ik_toe_query_points); hit 0: the heel's plane */
    ak_ground_hit ground_land[2]; /* ground where each swinging foot will land (hit 0: unknown) */
    float swing_phase[2];         /* 0 at lift-off .. 1 at landing (unused in stance) */
    int32_t contact[2];           /* AK_CONTACT_* of each stance foot; AK_CONTACT_TOE alone
                                     rolls the foot over its toe; 0 = a plain stance */
} ak_foot_ik_frame;

AK_API ak_foot_ik_params ak_foot_ik_defaults(void);
/* AK_OK, or AK_ERR_INVALID_ARG with the reason (null skeleton, leg joints out of range or not
 * upper < lower < foot, non-unit up axis, weight outside [0,1], non-positive rates). */
AK_API int32_t ak_foot_ik_validate(const ak_foot_ik_params *params, ak_error *err);
AK_API void ak_foot_ik_state_reset(ak_foot_ik_state *state);
/* Where to ask for ground (x,z; y = the animated height) under each foot's heel (sole point)
 * given the animated world pose: pulled onto the stance lock while the heel holds the foot,
 * the animated sole point otherwise. The contact arguments are unused (kept for the ABI). */
AK_API void ak_foot_ik_query_points(const ak_foot_ik_params *params, const ak_foot_ik_state *state,
                                    const ak_xform *world, int32_t contact_left,
                                    int32_t contact_right, ak_vec3 out_points[2]);
/* The same for each toe: the toe lock while the foot rolls over its toe, where the last solve
 * left it on a planted foot, else where the toe goes with the heel's query point (the animated
 * heel-to-toe offset). */
AK_API void ak_foot_ik_toe_query_points(const ak_foot_ik_params *params,
                                        const ak_foot_ik_state *state, const ak_xform *world,
                                        int32_t contact_left, int32_t contact_right,
                                        ak_vec3 out_points[2]);
/* The sole contact point of leg `side` in a world pose: ankle - sole_height * foot up. */
AK_API ak_vec3 ak_foot_ik_sole(const ak_foot_ik_params *params, const ak_xform *world,
                               int32_t side);
/* The toe contact point of leg `side` in a world pose: ankle + rotation * toe_local. */
AK_API ak_vec3 ak_foot_ik_toe(const ak_foot_ik_params *params, const ak_xform *world, int32_t side);
/* One frame of foot IK on an animated pose already placed in the world: `local` (parent
 * space, the character transform baked into the root) and `world` (FK of local, so world
 * space) are read and rewritten. Validates params first. Lowers the hips by the lower foot's
 * shortfall, raises/places each foot with limb IK (knee pole in front), turns each foot to
 * the surface normal (clamped), keeps stance feet locked; all weights fade at their rates.
 * No allocation. */
AK_API int32_t ak_foot_ik_run(const ak_foot_ik_params *params, ak_foot_ik_state *state,
                              const ak_foot_ik_frame *frame, ak_xform *local, ak_xform *world,
                              ak_error *err);

/* ---- Reach: a hand on a fixed point ---------------------------------------------------- */

typedef struct ak_reach_params {
    const ak_skeleton *skeleton; /* required */
    int32_t upper, lower, hand;  /* shoulder (upper arm), elbow, wrist joints */
    ak_vec3 target;              /* world point to put the hand on */
    ak_vec3 pole;                /* world elbow hint (e.g. behind and below the shoulder) */
    float start_distance; /* shoulder-to-target distance where reaching starts; default 1.2 */
    float full_distance;  /* distance where the weight is 1; default 0.8 */
    float fade_rate;      /* weight change per second at most; default 3 */
} ak_reach_params;

typedef struct ak_reach_state {
    float weight; /* current 0..1 */
    int32_t reached;
    float error; /* hand-to-target distance after the solve, m */
} ak_reach_state;

AK_API ak_reach_params ak_reach_defaults(void);
AK_API int32_t ak_reach_validate(const ak_reach_params *params, ak_error *err);
/* Fades the weight toward its distance-based goal at fade_rate, then solves the arm toward
 * the target with limb IK at that weight. Rewrites local and world (FK of the arm subtree).
 * No allocation. */
AK_API int32_t ak_reach_run(const ak_reach_params *params, ak_reach_state *state, float dt,
                            ak_xform *local, ak_xform *world, ak_error *err);

/* ---- The guide-joint walker ------------------------------------------------------------ */

typedef enum ak_steer_mode {
    AK_STEER_CYCLE = 0,     /* the guide re-aims at the target before each cycle */
    AK_STEER_CONTINUOUS = 1 /* the guide re-aims every frame */
} ak_steer_mode;

typedef struct ak_walker_params {
    ak_vec3 start;          /* world x,z where the character starts (y from the ground) */
    ak_vec3 target;         /* world x,z to walk to */
    float start_heading;    /* radians; NaN (default) = facing the target */
    float arrival_radius;   /* stop inside this distance, m; default 0.3 */
    int32_t steer;          /* ak_steer_mode; default AK_STEER_CYCLE */
    float max_turn_rate;    /* deg/s the heading may turn toward the guide; default 90 */
    int32_t foot_ik;        /* 1 (default): foot IK on */
    int32_t use_controller; /* 1 (default): root motion goes through a capsule controller */
    ak_controller_params controller;
    const ak_box
        *boxes; /* obstacles for the controller (copied pointer; must outlive the walker) */
    int32_t box_count;
    float ground_smoothing; /* s: 1/omega of the critically damped floor-height spring; default 0.12
                             */
    float idle_fade;        /* s: crossfade between the stopped pose and the idle; default 0.3 */
    float start_time;       /* s: from standing to full speed (the clip's playback rate ramps
                               up from a stop frame); 0: walk at full speed from the first
                               frame; default 0.5 */
    float stop_time;        /* s: the deceleration to a stop at full speed (playback slows at
                               a constant rate to rest on a frame with both feet down, or a
                               run's mid-stance followed by a settle onto both feet);
                               default 0.5 */
    const ak_clip *idle_clip;   /* optional idle for the same skeleton, in the source units */
    float idle_metres_per_unit; /* 0: the walk motion's scale */
    int32_t interp;             /* ak_interp; default AK_INTERP_LINEAR */
    ak_foot_ik_params foot;     /* legs/hips filled from the walk motion when legs[0].upper < 0 */
} ak_walker_params;

/* What the walker is doing now. */
typedef struct ak_walker_state {
    float time;          /* seconds simulated */
    float clip_time;     /* time in the walk cycle */
    int32_t cycle;       /* cycles started */
    ak_vec3 position;    /* the guide: character's ground point, world */
    float heading;       /* radians */
    float guide_heading; /* where the guide points */
    float distance;      /* to the target, horizontal, m */
    float path_length;   /* horizontal distance travelled, m */
    int32_t arrived;     /* stopping at the target (decelerating, settling or stopped) */
    int32_t stopped;     /* at rest at the target (the settle done, idle weight 1) */
    float idle_weight;
    int32_t stance[2];
    ak_vec3 sole[2];      /* world sole contact points */
    float sole_ground[2]; /* ground height under each sole (NaN where none) */
    float tilt_deg[2];
    float hip_drop;      /* metres the hips were lowered (negative: raised over a stance foot
                            above the animation's floor, ak_foot_ik_params.max_hip_rise) */
    int32_t contact[2];  /* AK_CONTACT_* of each foot this frame (0 in swing) */
    ak_vec3 toe[2];      /* world toe contact points (= sole for a foot without a toe) */
    float toe_ground[2]; /* ground height under each toe point (NaN where none or unknown) */
    float rate;          /* the walk clip's playback rate, 0 (standing) .. 1 */
} ak_walker_state;

typedef struct ak_walker ak_walker;

/* The rays of one frame, in this order: under the character's centre, under each heel (sole
 * point), where each swinging foot will land, under each toe. */
typedef enum ak_walker_ray_slot {
    AK_WALKER_RAY_CENTRE = 0,
    AK_WALKER_RAY_LEFT_FOOT = 1,
    AK_WALKER_RAY_RIGHT_FOOT = 2,
    AK_WALKER_RAY_LEFT_LANDING = 3,
    AK_WALKER_RAY_RIGHT_LANDING = 4,
    AK_WALKER_RAY_LEFT_TOE = 5,
    AK_WALKER_RAY_RIGHT_TOE = 6,
    AK_WALKER_RAY_COUNT = 7
} ak_walker_ray_slot;

AK_API ak_walker_params ak_walker_defaults(void);
AK_API int32_t ak_walker_validate(const ak_walker_params *params, const ak_walk_motion *motion,
                                  ak_error *err);

/* Allocates the walker (pose buffers and copies); `motion` must outlive it. The character is
 * placed at params.start on `ground` (ak_walker_reset); with a NULL ground at start.y. */
AK_API int32_t ak_walker_create(const ak_walk_motion *motion, const ak_walker_params *params,
                                const ak_ground *ground, ak_walker **out, ak_error *err);
AK_API void ak_walker_destroy(ak_walker *walker);
/* Back to the start position on `ground`; clears every state. */
AK_API void ak_walker_reset(ak_walker *walker, const ak_ground *ground);
/* A new target (world, metres). A walker that has arrived starts again only when the new
 * target lies outside its arrival radius, so setting the same target every frame is fine. */
AK_API void ak_walker_set_target(ak_walker *walker, ak_vec3 target);

/* One frame with a C ground: begin, controller move (or the plain delta), rays, finish. */
AK_API int32_t ak_walker_step(ak_walker *walker, float dt, const ak_ground *ground, ak_error *err);

/* ak_walker_step for walkers[begin..end), in order: one range of a crowd, for a thread pool
 * (split [0, count) with ak_batch_range). Distinct walkers may step on different threads at
 * once: they share the motion and the ground only for reading (a C ground's callback must
 * then be safe to call from several threads; the built-in terrain is). Each walker's result
 * is the same bits on any thread. statuses[i - begin] (optional, NULL) gets walker i's
 * status; returns AK_OK, or the first failure's status (the other walkers still step).
 * No allocation. */
AK_API int32_t ak_walker_step_range(ak_walker *const *walkers, int32_t begin, int32_t end, float dt,
                                    const ak_ground *ground, int32_t *statuses);

/* The same frame in phases, for engines:
 *  1. ak_walker_begin: advances time, samples, takes root motion, steers; writes the desired
 *     world displacement of the character (for the engine's own character controller).
 *  2. ak_walker_set_position (optional): where the engine's controller put the character.
 *     Without it the character moves by the desired displacement (y from the centre ray).
 *  3. ak_walker_ground_rays: the AK_WALKER_RAY_COUNT downward rays to cast.
 *  4. ak_walker_finish: the hits, in the same order -> foot IK, FK, state. */
AK_API int32_t ak_walker_begin(ak_walker *walker, float dt, ak_vec3 *desired_move, ak_error *err);
AK_API void ak_walker_set_position(ak_walker *walker, ak_vec3 position);
AK_API int32_t ak_walker_ground_rays(ak_walker *walker, ak_ground_ray *rays, int32_t capacity);
AK_API int32_t ak_walker_finish(ak_walker *walker, const ak_ground_hit *hits, int32_t count,
                                ak_error *err);

AK_API void ak_walker_get_state(const ak_walker *walker, ak_walker_state *state);

/* What the walker shows this frame: the looping cycle, or the clip's captured start or stop
 * (ak_walk_motion_info start_frames / stop_frames). */
typedef enum ak_walker_play {
    AK_WALKER_PLAY_LOOP = 0,
    AK_WALKER_PLAY_START = 1,
    AK_WALKER_PLAY_STOP = 2
} ak_walker_play;
/* Returns the ak_walker_play of the last frame; *source_frame (may be NULL) gets the frame of
 * the source clip nearest to the pose shown (for the loop: cycle_start + the cycle frame). */
AK_API int32_t ak_walker_playing(const ak_walker *walker, int32_t *source_frame);
/* World transforms of every joint after the last frame (joint_count of the motion's skeleton). */
AK_API const ak_xform *ak_walker_world_pose(const ak_walker *walker);
/* Local pose after the last frame with the character transform baked into the root joint
 * (what a BVH of the walk stores). */
AK_API const ak_xform *ak_walker_local_pose(const ak_walker *walker);

/* ---- Walk quality, measured ----------------------------------------------------------- */

/* Accumulates the walk's quality measures frame by frame from the walker's state. A point
 * counts while it is down: the heel (sole point) while the foot's contact has the heel bit
 * (or is a plain stance), the toe while it has the toe bit; skate is the horizontal speed of
 * the point that holds the foot (the heel, else the toe). */
typedef struct ak_walk_metrics {
    int32_t frames;
    int32_t stance_samples;
    float max_penetration; /* m: worst heel or toe below the ground while down */
    float max_float;       /* m: worst heel or toe above the ground while down */
    float max_heel_penetration, max_heel_float; /* m: the heel's alone */
    float max_toe_penetration, max_toe_float;   /* m: the toe's alone */
    float skate;         /* m/s: mean horizontal speed of the holding point over stance */
    float max_skate;     /* m/s: its worst frame */
    float max_tilt_deg;  /* worst foot-to-normal angle with the heel down */
    float max_foot_step; /* m: largest per-frame move of a sole point */
    float max_hip_step;  /* m: largest per-frame move of the hips joint */
    float max_hip_accel; /* m/s^2: largest second difference of the hips' position / dt^2 */
    /* running sums */
    double skate_sum;
    int32_t skate_n;
    ak_vec3 prev_sole[2];
    ak_vec3 prev_hold[2];      /* the holding point last frame */
    int32_t prev_hold_kind[2]; /* 1 heel, 2 toe, 0 none */
    int32_t prev_stance[2];
    ak_vec3 prev_hips, prev_hips2;
    int32_t has_prev;
} ak_walk_metrics;

AK_API void ak_walk_metrics_reset(ak_walk_metrics *m);
/* Adds one frame: `state` from ak_walker_get_state, `world` the walker's world pose, `hips`
 * the hips joint, dt the frame time. Stance frames whose sole has no ground are skipped. */
AK_API void ak_walk_metrics_add(ak_walk_metrics *m, const ak_walker_state *state,
                                const ak_xform *world, int32_t hips, float dt);

AK_EXTERN_C_END

#endif
