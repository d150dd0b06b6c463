/* animkit — the guide-joint walker: takes a character to a target over uneven ground.
 *
 * World: metres, Y up, right-handed. A character faces +Z at heading 0 (see rootmotion.h).
 * Per frame the walker runs: sample -> root motion (guide + controller) -> foot IK -> FK.
 * Create functions allocate; step functions never do. */
#ifndef ANIMKIT_WALKER_H
#define ANIMKIT_WALKER_H

#include "walkmotion.h"
#include "grounding.h"
#include "controller.h"

AK_EXTERN_C_BEGIN

typedef enum ak_steer_mode {
    AK_STEER_CYCLE = 0,     /* the guide re-aims at the target before each cycle */
    AK_STEER_CONTINUOUS = 1 /* the guide re-aims every frame */
} ak_steer_mode;

typedef struct ak_walker_params {
    ak_vec3 start;        /* world x,z where the character starts (y from the ground) */
    ak_vec3 target;       /* world x,z to walk to */
    float start_heading;  /* radians; NaN (default) = facing the target */
    float arrival_radius; /* stop inside this distance, m; default 0.3 */
    int32_t steer;        /* ak_steer_mode; default AK_STEER_CYCLE */
    float turn_rate;      /* rad/s the heading may turn toward the guide; default pi/2 (90 deg/s) */
    int32_t foot_ik;      /* 1 (default): foot IK on */
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
    ak_foot_ik_params foot;     /* legs/hips filled from the walk motion when legs[0].upper < 0.
                                   The hips are planned over the footholds (the landing rays)
                                   and move within physics: foot.hip_accel_down/up (when 0)
                                   become 0.25 g / 0.5 g beyond the source's own envelope widened
                                   to +-1 g (the walk's hips then stay within [min(source, -1 g) -
                                   0.25 g, max(source, +1 g) + 0.5 g]), each leg's landing slack
                                   comes from the cycle's landings, a planted heel the hips leave
                                   out of reach rolls over its toe (never below its ground) and a
                                   landing heel out of reach lands short (issue 21) */
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
    ak_vec3 sole[2];           /* world sole contact points */
    float sole_ground[2];      /* ground height under each sole (NaN where none) */
    float tilt[2];             /* radians: foot up vs ground normal */
    float hip_drop;            /* metres the hips were lowered (negative: raised over a stance foot
                                  above the animation's floor, ak_foot_ik_params.max_hip_rise) */
    int32_t contact[2];        /* AK_CONTACT_* of each foot this frame (0 in swing) */
    ak_vec3 toe[2];            /* world toe contact points (= sole for a foot without a toe) */
    float toe_ground[2];       /* ground height under each toe point (NaN where none or unknown) */
    float rate;                /* the walk clip's playback rate, 0 (standing) .. 1 */
    double elapsed;            /* seconds simulated, kept in double (`time` is this as a float, its
                                  step 7.8 ms beyond 65,536 s): a day of 1/120 s frames reads to the
                                  microsecond */
    int32_t source_contact[2]; /* AK_CONTACT_HEEL / AK_CONTACT_TOE bits the pose source has down
                                  this frame, held by the grounding or not: the walk cycle's
                                  contacts (flat on both feet settling at a stop), the matcher's
                                  database frame's (both standing); a heel the grounding lifts
                                  about the locked toe (the foot rolled: contact toe only) is
                                  up */
} ak_walker_state;

typedef struct ak_walker ak_walker;

/* The rays of one frame, in this order: under the character's centre, under each heel (sole
 * point), where each swinging foot will land, under each toe. A swinging foot's toe ray looks
 * ahead of its toe along its path (up to 6 cm beyond where it is this frame; the grounding
 * keeps the toe above that ground and the ground under the heel, so it rises over a riser
 * before it meets it), except from half to three quarters through the swing, while the foot's
 * placement is decided, when it looks 4 cm beyond where the toe will land, and just before
 * the foot lands, when it looks under the toe. */
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
/* The ranges of its float fields (status.h), checked by ak_walker_validate. */
AK_API const ak_param_table *ak_walker_param_ranges(void);

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

/* Moves the world origin by `shift` (x, z metres; y must be 0): every world position the
 * walker holds becomes position - shift, as when an engine re-centres its world on the
 * player (a floating origin). Floats carry 24 bits: at 1.7e5 m from the origin a position
 * steps by 1.6 cm, and a planted foot skated 0.143 m/s after a long walk; a caller that
 * shifts the origin whenever the character is farther than a few hundred metres keeps every
 * coordinate small (the walk scene does it: scenario.h). The ground and the obstacle boxes
 * are the caller's: from now on they must answer in the shifted frame. Between frames only
 * (not between ak_walker_begin and ak_walker_finish). */
AK_API int32_t ak_walker_shift_origin(ak_walker *walker, ak_vec3 shift, ak_error *err);

/* What the walker shows this frame: the looping cycle, or the clip's captured start or stop
 * (ak_walk_motion_info start_frames / stop_frames). */
typedef enum ak_walker_play {
    AK_WALKER_PLAY_LOOP = 0,
    AK_WALKER_PLAY_START = 1,
    AK_WALKER_PLAY_STOP = 2
} ak_walker_play;
/* What the walker is doing. A walk runs START (when the clip holds a captured start that fits)
 * or WALK from standing, then STOP, or STOP_APPROACH and STOP_CAPTURED, then SETTLE and
 * STOPPED; a new target outside the arrival radius walks on (from a captured stop through
 * RESUME when a foot is in the air). */
typedef enum ak_walker_phase {
    AK_WALKER_PHASE_START = 0,         /* the clip's captured start plays, from standing */
    AK_WALKER_PHASE_WALK = 1,          /* the loop plays; from standing its rate ramps up to 1 */
    AK_WALKER_PHASE_STOP = 2,          /* stopping on a stop frame of the loop: the playback
                                          slows at a constant rate to rest on it */
    AK_WALKER_PHASE_STOP_APPROACH = 3, /* the captured stop is planned: the loop plays on to its
                                          entry, its travel aimed to end on the target */
    AK_WALKER_PHASE_STOP_CAPTURED = 4, /* the captured stop plays */
    AK_WALKER_PHASE_RESUME = 5, /* a new target came while the captured stop had a foot in the
                                   air: the stop plays on to its next frame with both feet
                                   down, then walks */
    AK_WALKER_PHASE_SETTLE = 6, /* at rest on the stop frame, easing into the idle or stand pose */
    AK_WALKER_PHASE_STOPPED = 7 /* at rest at the target (ak_walker_state.stopped) */
} ak_walker_phase;
/* The phase after the last frame (or ak_walker_reset / ak_walker_set_target). */
AK_API ak_walker_phase ak_walker_get_phase(const ak_walker *walker);

/* Returns the ak_walker_play of the last frame; *source_frame (may be NULL) gets the frame of
 * the source clip nearest to the pose shown (for the loop: cycle_start + the cycle frame). */
AK_API int32_t ak_walker_playing(const ak_walker *walker, int32_t *source_frame);
/* World transforms of every joint after the last frame (joint_count of the motion's skeleton). */
AK_API const ak_xform *ak_walker_world_pose(const ak_walker *walker);
/* Local pose after the last frame with the character transform baked into the root joint
 * (what a BVH of the walk stores). */
AK_API const ak_xform *ak_walker_local_pose(const ak_walker *walker);

AK_EXTERN_C_END

#endif
