/* animkit — grounding (foot placement): puts an animated pose on the ground. Per frame: the
 * ground under each heel and toe and where a swinging foot will land, the hips lowered or
 * raised, each leg solved with limb IK, each foot turned to the surface, stance feet held.
 * World: metres, Y up. The run functions never allocate. */
#ifndef ANIMKIT_GROUNDING_H
#define ANIMKIT_GROUNDING_H

#include "ground.h"
#include "skeleton.h"

AK_EXTERN_C_BEGIN

/* One leg of the foot IK rig (indices into the skeleton). */
typedef struct ak_foot_ik_leg {
    int32_t upper, lower, foot; /* hip (thigh), knee (shin), ankle joints */
    float sole_height;          /* metres from the ankle down to the sole contact point */
    ak_vec3 up_local;           /* the foot's up axis in the ankle joint's local frame (unit) */
    ak_vec3 toe_local;          /* the toe contact (floor point under the ball), ankle frame */
    int32_t has_toe;            /* 1: the foot rolls over toe_local when only the toe is down;
                                   0 (default): one contact point */
    float landing_slack;        /* m: how far the hips may stay above the ground a swinging foot
                                   lands on (relative to the animation's floor) with the leg
                                   still reaching at landing; planned hips only; default 0 */
} ak_foot_ik_leg;

/* Settings and rig of one character's foot IK. The skeleton and the joints that belong to it
 * (legs, hips) are here, like every solver's params (ik.h); per-frame input is
 * ak_foot_ik_frame, what carries over between frames is ak_foot_ik_state. */
typedef struct ak_foot_ik_params {
    const ak_skeleton *skeleton; /* required (the walker and matcher fill in their own) */
    ak_foot_ik_leg legs[2];      /* [0] left, [1] right */
    int32_t hips;                /* the joint lowered by the hip drop (usually the root) */
    float weight;                /* overall 0..1; default 1 */
    float max_tilt;              /* feet follow the surface normal up to this angle, radians,
                                    [0, 89 deg]; default pi/4 (45 deg) */
    float lock_release_rate;     /* per second: how fast a released stance lock fades; default 8 */
    float ground_fade_rate; /* per second: fade in/out where ground appears/disappears; default 4 */
    float stance_fade_rate; /* per second: how fast flat alignment and planting follow stance;
                               default 20 */
    float swing_height_rate; /* m/s: the swing foot's ground offset changes at most this fast;
                                default 2 */
    float hip_drop_rate;     /* m/s: the smoothed hip drop changes at most this fast; default 0.8 */
    float hip_drop_stiffness;   /* 1/s: the hip drop follows its goal as a critically damped spring
                                   of this angular frequency; default 15 */
    float max_hip_drop;         /* metres; default 0.45 */
    float hip_accel_down;       /* m/s^2: planned hips (both bounds > 0): the most the grounding's
                                   own vertical move of the hips (ground following + hip drop, on
                                   top of the animation's) accelerates downward; the hips are
                                   planned over the footholds (landing hints) and move as a
                                   critically damped spring within the bounds. 0 (default): the
                                   hip drop follows the legs' needs at once. The walker sets
                                   0.25 g plus the room between the source's lowest and -1 g */
    float hip_accel_up;         /* m/s^2: the same upward; the walker: 0.5 g plus the room between
                                   the source's highest and +1 g; 0 with hip_accel_down */
    float hip_accel_total_down; /* m/s^2: planned hips: the most the hips as a whole (the
                                   animation's own move plus the grounding's, over 33 ms) may
                                   accelerate downward: the grounding's pull down is at most
                                   what the animation leaves of it at that moment (the frame's
                                   anim_hip_accel), none where the animation takes it all; a
                                   swinging foot that lands before the hips reach their plan
                                   speeds them up by at most that (never beyond 1 g). 0
                                   (default): up to 1 g. The walker: 0.25 g below the lower of the
                                   source's lowest and -1 g */
    float max_hip_rise;         /* metres the hips may rise above the animation in single support
                                   (over a stance foot above the animation's floor, so the stance
                                   knee keeps the animated bend); default 0 (the walker: 0.3) */
    float max_knee_flex;        /* radians: a swinging leg's knee bends at most this far where
                                   its foot has room to come down (above its ground and, stepping
                                   up, the glide over the riser), and with planned hips
                                   (hip_accel_down > 0) a planted knee while both feet are
                                   planted, where the other leg still reaches its foot with the
                                   hips higher; 0 (default): off. The walker
                                   and the matcher: the source's (the database's) peak knee
                                   flexion (at least 75 deg) + 20 deg */
    float pole_distance;        /* knee pole this far in front of the knee, m; default 0.5 */
    int32_t lock_feet;          /* 1 (default): stance feet stay where they landed */
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
    float glide_from[2];       /* m: the height a swinging foot's glide starts from: its lift-off
                                  ground, or where the glide was when its landing moved to
                                  another tread (a riser or more up or down) in the swing */
    float glide_at[2];         /* the swing phase the glide starts at (0: lift-off) */
    float glide_land[2];       /* m: the landing height the glide went to last frame */
    float glide_last[2];       /* m: the glide's height last frame */
    int32_t glide_set[2];      /* 1 while glide_land and glide_last hold a swing's last frame */
    float swing_need[2];       /* m: the drop a swinging leg needed last frame to reach (-1 in
                                  stance); with planned hips, the drop a foot planted on its
                                  toe alone needed (-1 otherwise) */
    float toe_roll[2];         /* radians the foot was turned heel-up about its toe beyond the
                                  animation so a stretched leg reaches (0 unless needed) */
    float roll_need[2];        /* radians: the heel-up turn about its toe a foot planted on its
                                  toe needed last frame to reach (past the roll's limit when it
                                  could not), with the hips' plan; -1: none (not rolling, or
                                  no look-ahead, ak_foot_ik_frame.stance_left) */
    float stance_goal;         /* m: the animation's floor last frame in single support; with
                                  planned hips, both feet planted: the most the hips could come
                                  down last frame with both knees within max_knee_flex */
    int32_t stance_goal_leg;   /* which leg that was (-1: none; 2: both, planned hips) */
    float lock_yaw[2];         /* radians: a planted foot's heel-to-toe heading when its lock
                                  was taken; the foot keeps it while locked (the toe held too) */
    int32_t reach_roll[2];     /* a planted leg that could not reach its heel rolls over its toe
                                  until it lifts off (the heel rises, as in push-off) */
    float pelvis;              /* m: the hips' height correction (floor_height - applied drop)
                                  as it moves, acceleration-limited */
    float pelvis_velocity;     /* m/s */
    float pelvis_goal;         /* m: its goal last frame (floor_height - hip_drop) */
    float swing_phase_last[2]; /* each leg's swing phase last frame (0 in stance): how soon a
                                  swinging foot lands */
    float floor_last;          /* m: floor_height last frame (its rate is fed to the hips) */
    float clear_lift[2];       /* m: how far each foot not planted was lifted last frame to keep
                                  its heel, toe and ankle above the ground (0 in stance) */
    int32_t released[2];       /* a foot in stance that lifted this frame: pushing off its toe
                                  out of the leg's reach just before its stance ends, or while
                                  the other foot is in the air, and then while out of reach
                                  until its heel is down again */
    float due_drop[2];         /* m: a foot not planted: how far the hips, where this frame
                                  leaves them, are above where its leg (0.999 of its bones)
                                  reaches the ground under its heel with the foot as animated;
                                  0 when it reaches (and in stance). A pose source may hold a
                                  landing back while it is above a tolerance (the matcher's) */
    ak_vec3 heel_ray[2];       /* each heel's query point last frame */
    ak_ground_hit heel_hit[2]; /* and the ground it hit there */
    ak_vec3 tread_from[2];     /* where the heel's queries first found the ground it is on now,
                                  past a riser (tread_edge): a landing shortened toward the hips
                                  goes no farther back, onto ground it has not sampled */
    int32_t tread_edge[2];     /* 1 once a riser lies behind tread_from */
    ak_vec3 flat_normal[2];    /* the normal a flat foot was laid on last frame (its heel's ground
                                  and its toe's); a foot planted on its heel keeps it */
    int32_t flat_held[2];      /* 1 when flat_normal holds a flat foot in stance on its heel */
    float flat_yaw[2];         /* radians: that held flat foot's heel-to-toe heading last frame */
    /* outputs of the last run */
    ak_vec3 sole[2]; /* world sole (heel) contact points after IK */
    ak_vec3 toe[2];  /* world toe contact points after IK (= sole without a toe) */
    ak_vec3 ankle_target[2];
    float tilt[2]; /* radians between foot up and surface normal after IK */
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
                                     (ak_foot_ik_query_points); hit 0: the heel's plane */
    ak_ground_hit ground_land[2]; /* ground where each swinging foot will land (hit 0: unknown) */
    float swing_phase[2];         /* 0 at lift-off .. 1 at landing (unused in stance) */
    int32_t contact[2];           /* AK_CONTACT_* of each stance foot; AK_CONTACT_TOE alone
                                     rolls the foot over its toe; 0 = a plain stance */
    float anim_hip_accel;         /* m/s^2, up positive: the pose source's own vertical
                                     acceleration of the hips this frame (33 ms average), read
                                     with hip_accel_total_down; 0: none known. The walker
                                     looks it up in its source clip's table (built once per
                                     clip on its key grid), never from the posed frames */
    float stance_left[2];         /* seconds the pose source keeps each planted foot down from
                                     this frame, at its playback rate (its look-ahead: the
                                     guide walker's clip, the matcher's database take); 0: not
                                     known. Read while the other foot is not planted */
} ak_foot_ik_frame;

AK_API ak_foot_ik_params ak_foot_ik_defaults(void);
/* AK_OK, or AK_ERR_INVALID_ARG with the reason (null skeleton, leg joints out of range or not
 * upper < lower < foot, non-unit up axis, weight outside [0,1], non-positive rates). */
AK_API int32_t ak_foot_ik_validate(const ak_foot_ik_params *params, ak_error *err);
/* The ranges of its float fields (status.h), checked by ak_foot_ik_validate. */
AK_API const ak_param_table *ak_foot_ik_param_ranges(void);
AK_API void ak_foot_ik_state_reset(ak_foot_ik_state *state);
/* Where to ask for ground (x,z; y = the animated height) under each foot, given the animated
 * world pose. Heel (sole point), out_heel[left, right]: pulled onto the stance lock while the
 * heel holds the foot, the animated sole point otherwise. Toe, out_toe (NULL: not wanted):
 * the toe lock while the foot rolls over its toe, where the last solve left it on a planted
 * foot, else where the toe goes with the heel's query point (the animated heel-to-toe
 * offset). */
AK_API void ak_foot_ik_query_points(const ak_foot_ik_params *params, const ak_foot_ik_state *state,
                                    const ak_xform *world, ak_vec3 out_heel[2], ak_vec3 out_toe[2]);
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

AK_EXTERN_C_END

#endif
