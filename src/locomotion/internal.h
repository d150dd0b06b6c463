/* Internal to src/locomotion: the walk motion's fields and the limb-IK adapter. */
#ifndef AK_LOCOMOTION_INTERNAL_H
#define AK_LOCOMOTION_INTERNAL_H

#include "animkit/locomotion.h"

#include <math.h>

#define AK_WALK_MAX_STOPS 16

/* Cache line the walker's allocation is laid out on (walker.c). */
#define AK_WALKER_LINE 64

/* Prefetches the part of a walker its next step touches (the struct's hot fields and the
 * anim, local and world poses): ak_walker_step_range asks for walker i + 1 while stepping i. */
void akw_prefetch(const ak_walker *w);

/* Standard gravity, m/s^2: the unit of the hips' acceleration bounds and measures. */
#define AK_GRAVITY 9.81f

/* Ground this close to level (cos 2 degrees) is a tread, not a slope. */
#define AK_LEVEL_COS 0.99939f
/* Metres: the least rise between level grounds that is a riser (the floor's foothold steps up
 * early over it, ak_floor_support; the matcher looks for one, matcher.c): a third of a low
 * riser. */
#define AK_FLOOR_STEP_MIN 0.05f

/* Shorter steps on steep ground (issue 21: shorten the step rather than fold a knee or drop the
 * hips), the guide walker's and the matcher's one rule. The most a step rises or falls, as a
 * fraction of the leg's length (a steep stair's riser is about a fifth of a leg); seconds: the
 * step scale follows its goal as a critically damped spring of omega 1/this, so the speed
 * changes over about a step; the least step scale (the steepest ground walks at half the
 * stride). */
#define AK_STEP_RISE_MAX        0.25f
#define AK_STEP_SCALE_SMOOTHING 0.1f
#define AK_STEP_SCALE_MIN       0.5f

/* The step scale for a step of horizontal length `step` along f, from the ground under the
 * planted foot to the ground where the swinging one lands, for a leg of length `leg`: on the
 * mean of the two grounds' slopes along f (their normals: a stair's treads are level), a step
 * rising or falling more than AK_STEP_RISE_MAX of the leg is shortened to that rise; 1
 * otherwise. Continuous in the hits (no threshold a last bit could flip). walker.c. */
float akw_step_scale_goal(const ak_ground_hit *land, const ak_ground_hit *planted, ak_vec3 f,
                          float step, float leg);

/* The step scale (*scale, its rate *rate) one step of dt toward goal. walker.c. */
void akw_step_scale_follow(float *scale, float *rate, float goal, float dt);

/* Where a change dS of the step scale leaves a foot (the guide walker's and the matcher's one
 * rule): the scale moves every foot by dS times its offset from the character along the travel
 * f, a planted foot (its heel's offset, rel) and a swinging foot's landing already decided (the
 * landing heel's offset at scale 1, from halfway through the swing, swing phase u >= 0.5:
 * ak_foot_place_decide). The held offset (*held) takes that back, so a planted foot stays where
 * it stands and a decided landing where it was decided; the scale's changes move the hips and a
 * foot still to decide. A foot lifts off with the offset its stance left (*held_lift) and sheds
 * it over the first half of its swing (smoothstep), before its landing is decided. walker.c. */
void akw_held_offset(ak_vec3 *held, ak_vec3 *held_lift, int32_t stance, float u, float dS,
                     ak_vec3 f, ak_vec3 rel);

/* The hips' acceleration is measured on their height averaged over 33 ms (capture noise of a
 * frame or two does not count, a drop over a step does): the window in frames of dt, at least
 * 1 and at most AK_HIP_WINDOW_MAX. One rule for the walk metrics (walkmetrics.c) and the
 * source clip's own table (motion.c), so the two measure the same thing. */
#define AK_HIP_WINDOW_S   0.033f
#define AK_HIP_WINDOW_MAX 8
static inline int32_t akw_hip_window(float dt)
{
    const long n = dt > 0.0f ? lroundf(AK_HIP_WINDOW_S / dt) : 1;
    return n < 1 ? 1 : n > AK_HIP_WINDOW_MAX ? AK_HIP_WINDOW_MAX : (int32_t)n;
}

/* The four frames of the 33 ms second difference ending at frame f of n (window w): f, f - 1,
 * f - w, f - w - 1, wrapped on a loop, else held at frame 0. */
static inline void akw_hip_frames(int32_t f, int32_t n, int wrap, int32_t w, int32_t k[4])
{
    k[0] = f, k[1] = f - 1, k[2] = f - w, k[3] = f - w - 1;
    for (int i = 0; i < 4; ++i)
        k[i] = wrap ? ((k[i] % n) + n) % n : (k[i] < 0 ? 0 : k[i]);
}

/* The hips' vertical acceleration from heights y at frames k (akw_hip_frames): the mean of the
 * w second differences, (y[f] - y[f-1] - y[f-w] + y[f-w-1]) / (w ft^2). */
static inline float akw_hip_accel(const float *y, const int32_t k[4], int32_t w, float ft)
{
    return (y[k[0]] - y[k[1]] - y[k[2]] + y[k[3]]) / ((float)w * ft * ft);
}

/* The knee's flexion in a world pose: the angle between the thigh (hip -> knee) and the shank
 * (knee -> ankle), radians, 0 for a straight leg; -1 when a bone has no length. One rule for the
 * walk metrics (walkmetrics.c) and the captured transitions' check (transitions.c). */
static inline float akw_knee_flexion(const ak_xform *world, int32_t hip, int32_t knee,
                                     int32_t ankle)
{
    const ak_vec3 h = world[hip].translation, k = world[knee].translation,
                  a = world[ankle].translation;
    const float tx = k.x - h.x, ty = k.y - h.y, tz = k.z - h.z; /* the thigh */
    const float sx = a.x - k.x, sy = a.y - k.y, sz = a.z - k.z; /* the shank */
    const float lt = sqrtf(tx * tx + ty * ty + tz * tz), ls = sqrtf(sx * sx + sy * sy + sz * sz);
    if (!(lt > 1e-6f && ls > 1e-6f)) return -1.0f;
    float c = (tx * sx + ty * sy + tz * sz) / (lt * ls);
    c = c > 1.0f ? 1.0f : c < -1.0f ? -1.0f : c;
    return acosf(c);
}

/* A captured transition: source frames played once, not looped. The start runs from a frame
 * standing on both feet into the loop's frame 0 (its last frame is the loop's first); the stop
 * runs from a frame that follows the loop's last frame to a frame standing on both feet. */
typedef struct ak_walk_segment {
    ak_clip *clip; /* metres, loop 0; NULL: the capture holds none */
    ak_root_motion *root;
    uint8_t *contacts[2];
    ak_vec3 *land_rel[2], *land_toe_rel[2]; /* as the loop's (see below), clamped at the end;
                                               the start's last swing lands in the loop */
    float *swing_phase[2];
    float *hip_accel;                  /* as the loop's (see below), the ends held */
    int32_t source_first, source_last; /* source frames [first, last] */
    float join_error;                  /* rad: pose difference to the loop frame it meets */
} ak_walk_segment;

enum { AK_SEGMENT_START = 0, AK_SEGMENT_STOP = 1 };

struct ak_walk_motion {
    ak_skeleton *skeleton; /* metres */
    ak_clip *clip;         /* the looping cycle, metres */
    ak_root_motion *root;
    ak_root_joint_report root_joint; /* the joint whose travel the cycle's top joint carries */
    ak_humanoid humanoid;
    uint8_t *contacts[2]; /* per cycle frame */
    float metres_per_unit;
    int32_t units;
    int32_t cycle_start, cycle_end; /* frames of the working grid (see grid) */
    int32_t grid; /* working frames per source frame: 1, or k for a capture under 50 fps
                     resampled k times finer (ak_walk_motion_create) */
    float pose_error, velocity_error;
    float floor_y; /* lowest foot point of the cycle, clip space (metres) */
    float sole_height[2];
    /* Each foot's heel [0] and toe [1] point (the sole and toe contact points of the
     * calibration) at its lowest over the cycle, above floor_y (metres): a swinging point's
     * clearance is its height above it (akf_foot_points.point_floor). */
    float point_floor[2][2];
    /* Per cycle frame f, [4 f + 2 s + p]: foot s's point p over its point_floor (the clearance
     * the cycle gives it there, at least 0). */
    float *point_clear;
    ak_vec3 foot_up_local[2];
    ak_vec3 toe_local[2]; /* the floor point under the ball, ankle frame (has_toe) */
    int32_t has_toe[2];
    float stance_fraction[2];
    float leg_length[2];
    float stride_length;
    float travel_heading;
    /* Per cycle frame and foot: where the sole lands next (in the character frame of that
     * frame) and how far through its swing the foot is (0 at lift-off, 1 at landing; 0 in
     * stance). Lets the swing foot and the hips prepare for the ground it will land on. */
    ak_vec3 *land_rel[2];
    ak_vec3 *land_toe_rel[2]; /* the same for the toe contact point */
    float *swing_phase[2];
    /* Per cycle frame: the in-place hips' vertical acceleration, m/s^2 (33 ms average, the
     * walk metrics' measure, over the key grid; the loop wraps), then (at [frame_count + f])
     * their vertical velocity over the same frames, m/s. Computed once with the landings, so
     * the grounding's landing limit reads the same figure on every build
     * (ak_foot_ik_frame.anim_hip_accel) instead of differentiating the posed frames. */
    float *hip_accel;
    /* Where a stop comes to rest, cycle times (s, ascending): the middle of each stance, the
     * body over the planted foot and the other foot passing under it. stand_pose is the
     * in-place pose the settle ends in without an idle clip: a mid-stance frame with both
     * legs in the stance leg's pose (mirrored), both feet under the hips. */
    float stop_times[AK_WALK_MAX_STOPS];
    int32_t stop_count;
    ak_xform *stand_pose;
    ak_walk_segment segment[2]; /* AK_SEGMENT_START, AK_SEGMENT_STOP */
    /* What became of each captured segment, with its figures (ak_walk_motion_info
     * start_check / stop_check; frames of the working grid) */
    ak_transition_check transition_check[2];
};

/* ak_foot_ik_run without checking the params and pointers: for a caller that validated the
 * params once and owns them unchanged (the walker), so the per-frame cost has no validation. */
int32_t ak_foot_ik_solve(const ak_foot_ik_params *p, ak_foot_ik_state *st,
                         const ak_foot_ik_frame *fr, ak_xform *local, ak_xform *world,
                         ak_error *err);

/* What a solve derives from its params alone: cos and sin of max_tilt, cos of max_knee_flex.
 * ak_foot_ik_solve makes it every call; a caller whose params do not change (the walker)
 * keeps one (akf_foot_fixed_of). */
typedef struct akf_foot_fixed {
    float cos_tilt, sin_tilt, cos_knee;
} akf_foot_fixed;
void akf_foot_fixed_of(const ak_foot_ik_params *p, akf_foot_fixed *out);

/* The animated feet of a pose as ak_foot_ik_query_points finds them: each foot's up axis and
 * its ankle-to-toe offset (world: they depend on the foot's rotation only) and the heel and
 * toe query points. A solve of the same pose moved only vertically since (the walker's floor)
 * finds the same up axes and offsets and the same query points' x and z, the only parts of
 * them it reads: it takes them from here (akf_foot_ik_solve). */
typedef struct akf_foot_points {
    ak_vec3 up[2], toe_off[2];
    ak_vec3 heel_q[2], toe_q[2];
    /* A swinging toe's ray cast ahead along its path instead of under it (the walker's:
     * ahead_hit[s].hit 0 for none): where, and what it found. The toe then keeps above that
     * ground too (clear_ground), and the frame's ground_toe is the heel's plane. */
    ak_vec3 ahead_at[2];
    ak_ground_hit ahead_hit[2];
    float ahead_time[2];             /* s: when the toe, moving on as it does, gets there */
    ak_vec3 ahead_last_at[2];        /* the ray cast ahead last frame (hit 0: none), which counts */
    ak_ground_hit ahead_last_hit[2]; /* while the toe has not passed it */
    ak_vec3 heel_last_at[2];         /* with a ray ahead: the heel's query point last frame */
    ak_ground_hit heel_last_hit[2];  /* and its ground (the state's heel_ray, heel_hit) */
    /* Each foot's heel [0] and toe [1] lowest over the source's cycle, above its floor
     * (ak_walk_motion.point_floor; has_point_floor 0: not known): a foot not planted keeps
     * each point at least its animated height above that over the ground under it, the
     * source's own clearance (clear_ground). */
    float point_floor[2][2];
    /* and the least clearance each point keeps over the ground (the walker: the cycle frame's
     * own, ak_walk_motion.point_clear, also while the stand pose blends in or out) */
    float point_clear[2][2];
    int32_t has_point_floor;
} akf_foot_points;
/* The normal n tipped about the foot's side axis so the line from heel_q (height heel_y) to
 * toe_q (toe_y) lies in its plane (footik.c: a flat foot on its heel's and toe's hits; the
 * walker: a swinging toe on the line through the samples along its path); n where the line
 * is too short or the result would not point up. */
ak_vec3 akf_two_point_normal(ak_vec3 n, ak_vec3 heel_q, float heel_y, ak_vec3 toe_q, float toe_y);
void akf_foot_ik_query(const ak_foot_ik_params *p, const ak_foot_ik_state *st,
                       const ak_xform *world, akf_foot_points *out);

/* ak_foot_ik_solve with the params' fixed part given, and the feet of akf_foot_ik_query on
 * this pose (moved only vertically since, the state unchanged) or NULL: the same results.
 * `lift`: metres the world heights of the hips' subtree still lack (the walker's floor
 * shift, 0 for none): added to them in the hip drop's pass over the joints, y + lift - drop,
 * and to what is read of them before it, so the results are those of a pose lifted first.
 * For a pose source that never stands (the walker's): the state's flat_yaw, which only a
 * standing solve reads (ak_foot_ik_solve_lifted), is not kept. */
int32_t akf_foot_ik_solve(const ak_foot_ik_params *p, const akf_foot_fixed *fixed,
                          ak_foot_ik_state *st, const ak_foot_ik_frame *fr,
                          const akf_foot_points *pts, float lift, ak_xform *local, ak_xform *world,
                          ak_error *err);

/* Planned hips (the walker's and the matcher's, one rule): the grounding's own vertical move of
 * the hips may accelerate 0.25 g down and 0.5 g up beyond the animation's, widened by the
 * source's own room (where the source's hips, 33 ms average, accelerate less than 1 g either
 * way: the difference), so the walk stays within [min(source, -1 g) - 0.25 g, max(source,
 * +1 g) + 0.5 g]; 0.9 of that, as the animation's own extreme and the grounding's may meet in
 * one frame. A landing may add to the animation's own fall at most what the lower bound leaves
 * (hip_accel_total_down, 0.9 x (0.25 g below min(source, -1 g))). Bounds already set
 * (hip_accel_down > 0) are kept. */
void ak_foot_ik_plan_accel(ak_foot_ik_params *fik, float src_min_g, float src_max_g);

/* The swinging knee's limit (the walker's and the matcher's, one rule): max_knee_flex = the
 * source's peak knee flexion (radians; at least 75 degrees, a walk's) + 20 degrees, the room
 * stairs need (issue 21's bound allows 25). A limit already set (> 0) is kept. */
void ak_foot_ik_plan_knee(ak_foot_ik_params *fik, float src_knee_peak);

/* How far the hips may stay above the ground leg s lands on with the leg still reaching, at
 * one landing pose (world: FK of the pose the foot comes down in, floor_y its floor): the
 * vertical room of a leg of length L (0.999 of its bones) over the ankle, sqrt(L^2 - dh^2) - dv
 * for the hip-to-ankle horizontal distance dh and height dv, less the heel's height above the
 * floor (the grounding puts the heel on the ground). The walker's and the matcher's landing
 * slack is the least of it over their sources' landings. */
float ak_foot_ik_landing_room(const ak_foot_ik_params *fik, const ak_xform *world, int32_t s,
                              float floor_y);

/* What a walker reports of foot k after the grounding (the walker's and the matcher's state,
 * one rule): a foot the grounding let go a frame before its stance ends (released) is in the
 * air; a heel coming down about a locked toe is not down until the foot is flat, nor while the
 * grounding lifts it about the toe for the leg to reach (toe_roll, reach_roll): the toe is.
 * `stance` and `contact` are the animation's; writes the stance shown, returns the contact
 * shown. */
int32_t ak_foot_ik_shown_contact(const ak_foot_ik_state *st, int32_t k, int32_t stance,
                                 int32_t contact, int32_t *shown_stance);

/* The floor a walking character's animation stands on (the walker's and the matcher's, one
 * rule). One foot's support height: a planted foot with ground under its heel stands there
 * (its foothold, remembered); a swinging foot glides from its foothold to the ground where it
 * will land (`land`, hit 0: unknown) with smoothstep(swing_phase), or, with `step_early`, as
 * the grounding glides the foot itself: up a step between level grounds (`foot`, the ground
 * under it now, and `land`) by 40 % of the swing (more than a riser: its first 0.18 m by 40 %, the
 * rest by 55 %), so the hips rise with the foot instead of after it, over a rise of 5 cm at least
 * (a riser: no near-level point of smooth ground decides it by a last bit) (the guide walker:
 * stairs knees 130-164 degrees came from a leg folded under hips still low; the matcher's, 102-120
 * degrees on CMU walks up the stairs); else its foothold, else `fallback` (the character's own
 * ground height). */
float ak_floor_support(float *foothold, int32_t *has_foothold, int32_t stance,
                       const ak_ground_hit *foot, const ak_ground_hit *land, float swing_phase,
                       float fallback, int32_t step_early);
/* A re-step (restep.c; the matcher's, one rule for any pose source): a foot that must move
 * while its source has it down (released from its lock, a landing that waits while its point
 * still moves) lifts, moves and lands instead of sliding along the ground. The caller holds the
 * foot with ak_restep_hold (an x,z shift added to its placement) and lifts it with
 * ak_restep_lift (the grounding keeps every point of the foot that far above the ground its
 * rays found: ak_foot_ik_solve_lifted). `from`: world, where the foot left the ground. */
/* m: the least a re-step lifts a foot (restep.c: a short adjusting step lifts 7 cm, under the
 * captures' swings' lowest, 9.3 cm) */
#define AK_RESTEP_HEIGHT_MIN 0.07f
typedef struct ak_restep {
    int32_t on;
    float u;        /* 0..1 through the step */
    float duration; /* s, from the distance (ak_restep_begin) */
    float height;   /* m, the lift at the top */
    ak_vec3 from;
    /* fixed (ak_restep_begin_to, ak_restep_fix): the step lands on `to` (world), wherever its
     * caller's point goes meanwhile, carried from `from` over the rest of its carry from carry0 */
    int32_t fixed;
    float carry0;
    ak_vec3 to;
} ak_restep;
/* Starts a step from `from` over `distance` metres (horizontal) to where the foot is going:
 * its duration and height from the captures' swings (restep.c). */
void ak_restep_begin(ak_restep *r, ak_vec3 from, float distance);
/* Starts a step from `from` to `to` (world, x,z): the foot lands there, not on the caller's
 * point (ak_restep_hold), a target that does not move while the foot is in the air. */
void ak_restep_begin_to(ak_restep *r, ak_vec3 from, ak_vec3 to);
/* A step under way toward the caller's point `at` goes on to `to` (fixed) from where it has
 * carried the foot, over the rest of its carry (one coming down goes back up from the height it
 * has, to carry the foot over). */
void ak_restep_fix(ak_restep *r, ak_vec3 at, ak_vec3 to);
/* One frame on; `hover`: the foot must not come down yet (its end point still moves too fast to
 * land on, or its source lifts it before it could land), it waits at the top of the step
 * (carried over it). Ends the step at u = 1. */
void ak_restep_advance(ak_restep *r, float dt, int32_t hover);
/* Seconds: the shortest a fixed step over `distance` m may last for its carry to move the foot
 * no faster than `speed` m/s (> 0) at its peak. */
float ak_restep_shortest(float distance, float speed);
/* Metres the foot is lifted now (0 off a step). */
float ak_restep_lift(const ak_restep *r);
/* Seconds left until the foot lands (0 off a step). */
float ak_restep_left(const ak_restep *r);
/* Whether the step has carried the foot over (it only comes down from here, onto its end
 * point): 1 off a step. */
int32_t ak_restep_carried(const ak_restep *r);
/* Whether the step is rising (lifted off, not yet at the top of its lift). */
int32_t ak_restep_rising(const ak_restep *r);
/* The x,z shift that puts the point `at` (world: where the foot would be without the step)
 * where the step carries it: `from` until the foot is up, then onto `at` (a fixed step: onto
 * its `to`) while it is up. */
ak_vec3 ak_restep_hold(const ak_restep *r, ak_vec3 at);

/* ak_foot_ik_solve with a re-step's lift of each foot not planted (metres, NULL: none): its
 * heel, toe and ankle are kept that far above the ground under them, less what the swinging
 * knee's limit (max_knee_flex) takes back: the lift is room, not the ground's need; point_clear
 * (metres, [foot][heel, toe], NULL: none): the least each heel and toe keeps over the ground, room
 * as the lift (the matcher: its frame's own clearance, as a walker's source clearance). toe_held
 * (NULL: none): a foot not planted, nonzero, is held by its caller at its toe (the placement shift
 * puts its animated toe where it is held): it turns about the toe (flat, or with its heel rising),
 * which stays where it is animated, instead of about its heel point. standing
 * (the matcher's stop, nonzero): a landing that is due (swing phase 1) is planned as it comes down,
 * flat (the planned hips and ak_foot_ik_state.due_drop read the drop its leg needs with the ankle
 * over its heel point) and its lock starts where the foot was shown. */
int32_t ak_foot_ik_solve_lifted(const ak_foot_ik_params *p, ak_foot_ik_state *st,
                                const ak_foot_ik_frame *fr, const float step_lift[2],
                                const float point_clear[2][2], const int32_t toe_held[2],
                                int32_t standing, ak_xform *local, ak_xform *world, ak_error *err);

/* Foot placement off stair edges (the walker's and the matcher's, one rule). While a swinging
 * foot's placement is decided (halfway to three quarters through its swing) its toe ray looks
 * 4 cm beyond where its toe will land (`land_toe` + `shift`, the direction from the landing
 * heel `land` to it), so a prediction a little short still sees an edge under it. */
ak_vec3 ak_foot_place_toe_ray(ak_vec3 land, ak_vec3 land_toe, ak_vec3 shift);
/* A swinging foot whose landing heel ray (hit h, asked at heel_ray) and toe ray (t, asked at
 * toe_ray) find ground a step apart (the toe's off the heel's plane by more than 2 cm) would
 * land across an edge: it lands a foot length (plus 5 cm) further back instead (*target, an
 * x,z shift), wholly on the heel's tread; if the rays at that place still find an edge, a foot
 * length further forward. Decided once (*decided), checked again while the rays follow it.
 * With `probe` (the guide walker; NULL and heel_margin 0: the rule above alone) the heel ray
 * looks heel_margin behind the heel, so a heel landing just past an edge (which pushing off
 * carries back into the riser behind it) sees it too: going down the foot lands back by that
 * margin more; going up it takes the place back while *probe (1) asks the caller for one
 * frame of rays where the clip lands it with the heel ray under the heel itself: an edge there
 * too, it stays back; none (*probe 2: the heel ray stays under the heel), heel_margin + 1 cm
 * ahead of the clip's landing. A foot decided to land as the clip does that finds an edge
 * later goes back. */
void ak_foot_place_decide(const ak_ground_hit *h, const ak_ground_hit *t, ak_vec3 heel_ray,
                          ak_vec3 toe_ray, ak_vec3 land, ak_vec3 land_toe, float heel_margin,
                          ak_vec3 *target, int32_t *decided, int32_t *probe);
/* A swinging foot's placement shift at its swing phase: a smoothstep glide over the second
 * half of the swing (phase 0.5 .. end, end in (0.5, 1]: the walker's place_glide_end) from where
 * its last stance left it to the target. */
ak_vec3 ak_foot_place_glide(ak_vec3 from, ak_vec3 to, float swing_phase, float end);
/* The floor height y (rate v) follows `support`, which rises at climb_rate per second (>= 0:
 * the ground's climb, fed forward as the goal's rate, so a climb is followed without the
 * spring's lag of 2 rate / omega), through core's exact critically damped spring (omega = 1 /
 * smoothing s); at once on the first frame or without smoothing. ak_floor_follow: no rate (the
 * matcher's). */
void ak_floor_follow_climb(float *y, float *v, float support, float climb_rate, float smoothing,
                           float dt, int32_t initialized);
void ak_floor_follow(float *y, float *v, float support, float smoothing, float dt,
                     int32_t initialized);

/* The last frame of frames [first, end) of a clip that moves: frame f moves when a key of it
 * differs from frame f - 1's (every rotation and translation, to the bit); `first` when none
 * does. A pose repeated to the bit is no captured motion (a capture's noise never repeats a
 * frame) but a file's padding: a frame line written twice, which the BVH reader keeps as a frame,
 * as Blender's importer does. Contacts (contacts.c) and the motion database's pieces (db.c) end
 * at it. */
int32_t ak_clip_last_moving(const ak_clip *c, int32_t first, int32_t end);

/* The body figures of one pose of a source (ak_walk_metrics_source, the motion database's
 * ak_motion_db_source_metrics): the hips' height into the 33 ms average and its acceleration
 * (dt 0: a new sequence starts here), the knee flexion of the legs set. */
void ak_walk_metrics_add_body(ak_walk_metrics *m, const ak_xform *world, int32_t hips, float dt);

/* Each heel's and toe's lowest height over one run of `frames` frames of pts ([frame][foot][heel,
 * toe], as ak_walk_metrics_source_points reads them), into floor[foot * 2 + point] (INFINITY
 * with no frame): the ground the grounding holds a point not planted over (its clearance, the
 * walk motion's point_floor). The source's drag and the physics tables' landing bound
 * (tests/locomotion/walk_physics.h source_ground_move) measure from it. */
void ak_walk_points_floor(const ak_vec3 *pts, int32_t frames, float floor[4]);

/* The source's skate and drag over one run of `frames` frames dt apart: pts holds each frame's
 * heel (sole point) and toe of both feet, [frame][foot][heel, toe], travel included, bits its
 * contact flags [frame][foot]; seam (NULL: none) the 4 points of the frame after the last where
 * the run is a cycle (its first frame carried by the cycle's travel; its contacts the first
 * frame's), so the pair across the seam that every walk crosses counts; a run cut from a
 * longer clip has no seam. Skate: every pair of consecutive frames whose contacts both have a
 * point's bit (AK_CONTACT_HEEL: the heel, AK_CONTACT_TOE: the toe) while that point is within
 * AK_WALK_SKATE_HEIGHT of floor_y (or below) in both adds the point's horizontal speed between
 * them to m's skate and max_skate, as ak_walk_metrics_add counts the walk's. Drag: each point's
 * fastest horizontal speed over a frame that starts and ends within AK_WALK_DRAG_HEIGHT of the
 * ground the walker puts it on (over floor_y where its contact has it down, planted; over its
 * lowest in the run where not, held at its clearance), measured as the walk's (one function),
 * kept in m->drag where larger (walkmetrics.h). */
void ak_walk_metrics_source_points(ak_walk_metrics *m, const ak_vec3 *pts, const uint8_t *bits,
                                   int32_t frames, float floor_y, float dt, const ak_vec3 *seam);

/* Resets m for a source's body figures: the legs from the humanoid map; returns the hips joint
 * (joint 0 where the map has none). */
int32_t ak_walk_metrics_source_begin(ak_walk_metrics *m, const ak_humanoid *h);

/* Seam quality of the cycle [a, b) of clip c: mean per-joint angle between the poses of a and
 * b (root heading removed) and between their frame-to-frame rotations, per second. */
void ak_cycle_errors(const ak_clip *c, int32_t a, int32_t b, float *pose_error,
                     float *velocity_error);

/* The settings part of ak_contact_validate (units and thresholds; not skeleton, clip or
 * joints), which ak_walk_motion_validate also applies to its `contacts`. */
int32_t ak_contact_thresholds_validate(const ak_contact_params *p, ak_error *err);
/* The walk motion's working grid (a cycle cut between frames): a clip under 50 frames per
 * second is resampled k times finer (the smallest k giving 120 or more: 30 fps -> 4, 24 -> 5)
 * and its contacts read on that grid; else 1. */
#define AK_CONTACT_GRID_BELOW_RATE 50.0f
#define AK_CONTACT_GRID_RATE       120.0f
/* s either side of a sample for the speed a foot point must be under to come down (speed_on),
 * on samples 1/100 s apart or closer: one frame of a 24 fps file (contacts.c, on_half_window). */
#define AK_CONTACT_ON_WINDOW (1.0f / 24.0f)
int32_t ak_contact_grid(float frame_time);
/* Samples on a grid of k per frame: (frames - 1) * k + 1, a loop frames * k. */
int32_t ak_contact_grid_count(const ak_clip *clip, int32_t k);
/* ak_contact_run on the grid: sample i at time i * frame_time / grid (linear between frames,
 * as ak_edit_resample_run makes them; a reference frame 0 takes the samples up to frame 1);
 * left and right hold ak_contact_grid_count(clip, grid) bytes each. Grid 1: ak_contact_run. */
int32_t ak_contact_run_grid(const ak_contact_params *p, int32_t grid, uint8_t *left, uint8_t *right,
                            ak_error *err);

/* Fills stop_times / stop_double / stand_pose from the contacts. */
int32_t ak_walk_motion_stops(ak_walk_motion *m, ak_error *err);

/* Fills land_rel / swing_phase from the contacts and the calibration, and hip_accel. */
int32_t ak_walk_motion_landings(ak_walk_motion *m, ak_error *err);

/* Finds a captured start (standing on both feet, root still, before the cycle) and stop
 * (after it) in the metre-scaled source `full` with its contact flags, and copies their
 * frames and contacts into m->segment. Needs m->cycle_start/end. */
int32_t ak_walk_motion_find_transitions(ak_walk_motion *m, const ak_clip *full,
                                        const uint8_t *flags, int32_t blend, ak_error *err);
/* Frame f of clip c (a copy of frames of src) moved by w in [0, 1] toward src's frame `lead`
 * carried by G (akl_carry): the crossfade of the cycle's seam and of the captured joins. */
void akl_blend_toward(const ak_clip *src, int32_t lead, ak_xform G, float w, ak_clip *c, int32_t f);
/* The transform carrying src's character frame (heading and ground position of its root) at
 * frame `from` onto the one at frame `to`. */
ak_xform akl_carry(const ak_clip *src, const ak_skeleton *sk, int32_t from, int32_t to);
/* The joints a pose comparison of the cycle finder and the captured transitions reads: the
 * body (ak_humanoid_body_top's subtree) and the joints above it, not a joint beside it (the
 * UE4 mannequin's ik_ copies of the feet and hands under `root`); every joint without a
 * humanoid. Writes joint[] (room for joint_count), returns the count. */
int32_t akl_body_joints(const ak_skeleton *skeleton, int32_t *joint);
/* ak_cycle_errors over joint[0..count) (joint NULL: joints 0..count-1). */
void akl_cycle_errors_over(const ak_clip *clip, const int32_t *joint, int32_t count, int32_t a,
                           int32_t b, float *pose_error, float *velocity_error);

/* Drops a captured start or stop whose own motion (its frames as played, the join's crossfade
 * included) breaks issue 21's bounds around the cycle's figures (measured as
 * ak_walk_metrics_source measures them): the hips' vertical acceleration and the peak knee. The
 * walker plays a segment as captured (on flat ground it adds nothing), so such a segment cannot
 * be walked within them; the walker starts or stops procedurally instead. Before
 * ak_walk_motion_segments_finish. */
int32_t ak_walk_motion_segments_check(ak_walk_motion *m, ak_error *err);
/* Root motion and landings of the segments (after calibration and the loop's landings). */
int32_t ak_walk_motion_segments_finish(ak_walk_motion *m, ak_error *err);
void ak_walk_segment_free(ak_walk_segment *seg);
/* Allocates per-frame landing arrays of n frames for both feet and the hips' acceleration
 * (kept when already there). */
int32_t ak_walk_landing_alloc(ak_vec3 **land, ak_vec3 **land_toe, float **phase, float **hip_accel,
                              int32_t n, ak_error *err);

/* The frame of per-frame flags nearest time t (ak_contact_at's rule: wraps when looping,
 * clamps otherwise); -1 for an empty table, a non-positive frame time or a non-finite t. */
int32_t ak_contact_frame(int32_t frame_count, float frame_time, int32_t loop, float t);

/* The cycle frame whose contacts hold at cycle time t (ak_walk_motion_stance_at's rule), or
 * -1; lets a caller read both feet's contacts of one time with one lookup. */
int32_t ak_walk_motion_stance_frame(const ak_walk_motion *m, float t);

/* ak_ground_ray_down, inline for the walker's per-frame rays (the public function is this). */
AK_INLINE ak_ground_ray akg_ray_down(ak_vec3 p, float up, float down)
{
    ak_ground_ray r;
    r.origin.x = p.x;
    r.origin.y = p.y + up;
    r.origin.z = p.z;
    r.direction.x = 0.0f;
    r.direction.y = -1.0f;
    r.direction.z = 0.0f;
    r.max_distance = up + down;
    return r;
}

/* Sets the walker's clock (seconds simulated, and the idle's), for tests of long sessions
 * that start late instead of stepping a day of frames. */
void ak_walker_set_clock(ak_walker *w, double time);

#endif
