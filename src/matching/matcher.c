/* The matching controller. Per frame:
 *  1. what is wanted: a velocity toward the target (walk speed far away, slower inside
 *     slow_radius, zero while the target is far off the facing: turn on the spot) and a
 *     facing; two critically damped springs (Holden's exact spring-damper form) carry the
 *     wanted trajectory from now to +0.33/+0.67/+1.0 s;
 *  2. every search_interval (or at once on a sharp change of what is wanted) the database
 *     is searched with the playing frame's pose features and that trajectory; a better frame
 *     is jumped to with inertialization: the jump's pose and velocity differences become
 *     offsets that decay as a critically damped spring, so the output pose and its velocity
 *     are continuous (Bollo, GDC 2016; no crossfade);
 *  3. the frame's root motion moves the character (through the capsule controller); the
 *     facing also turns toward the wanted one at a capped rate (orientation warping);
 *  4. stance feet are locked and put on the ground by the walker's foot IK.
 * Arrival: the character stops on the stand frame of the database (both feet down, the
 * stillest), the root coasting to rest so the stop lands on the target (stop_steer). */
#include "core/busy.h"
#include "animkit/matching.h"
#include "core/spring.h"
#include "core/xform_inline.h"
#include "matching/internal.h"
#include "locomotion/internal.h"

#include <stdlib.h>
#include <string.h>

#define AK_MATCHER_HISTORY 4

/* A foot's re-step (restep_hold, ak_restep): the step, whether one starts this frame (due: its
 * start point is where the foot was shown, fst.sole), whether it steps from its toe (toe: walking,
 * its lock held the toe), its hold (an x,z shift), whether a step of the stop has just put the
 * foot down where the stand frame has it at rest (placed, until its stance begins), whether a
 * step of the stop not lifted yet waits this frame for the other foot (waits, restep_waits), and
 * whether the stop's landing brought it down where it was (away, stop_step_after). */
typedef struct restep_foot {
    ak_restep step;
    int32_t due, placed, waits, away, toe, rolled;
    /* a step of the stop timed by the run's landing (land_at): 1 while in the air, 2 once the
     * foot bears and waits for the other (it lifts later, timed by its own length) */
    int32_t flight;
    ak_vec3 hold;
    /* a foot in the air when the stop began: when its walk frame would have put it down (s of
     * the matcher's time; 0: none, it was down or no landing was ahead) */
    double land_at;
} restep_foot;

/* A foot held where it stands while its stance waits (touchdown_hold): holding, on its toe, the
 * point held (world) and the hold (an x,z shift). */
typedef struct touch_foot {
    int32_t on, toe;
    ak_vec3 at, hold;
} touch_foot;

struct ak_matcher {
    ak_busy_flag busy; /* a call is in flight (core/busy.h) */
    const ak_motion_db *db;
    ak_matcher_params p;
    int32_t J;
    ak_xform *anim, *local, *world;
    ak_xform *own_local, *own_world; /* scratch: the playing frame's own pose (stance gate) */
    ak_vec3 *off_x, *off_v;          /* per joint rotation offset (rotation vector) and its rate */
    ak_vec3 root_x, root_v;          /* root translation offset (in-place pose) and its rate */
    /* root_offset_y: the database's own lowest and highest hips acceleration (m/s^2), the
     * in-place root heights shown (newest first; root_hist_n of them, at steps of root_hist_dt) */
    float src_accel_lo, src_accel_hi;
    float root_hist[AK_HIP_WINDOW_MAX + 1];
    int32_t root_hist_n;
    float root_hist_dt;
    ak_vec3 vel_x, vel_v; /* character velocity offset (world) and its rate */
    float turn_x, turn_v; /* heading-rate offset */
    int32_t frame;
    float frac, rate; /* rate: playback-rate warping */
    int32_t standing, arrived;
    /* the stop is due (stop_within) and waits for a foot to bear, at most stop_wait s more */
    int32_t stop_due;
    double stop_wait;
    ak_vec3 pos;
    float heading;
    ak_vec3 sim_vel, sim_acc, want_vel, searched_want;
    float sim_heading, sim_angvel, want_heading;
    float search_timer, cost, path_length;
    double time; /* s simulated; double so a long session reads true (walker.h: elapsed) */
    /* m/s: the fastest the database's own frames move a foot (horizontal, its ankle;
     * stop_step_time) */
    float foot_speed;
    /* what the database holds (from its candidates): the largest facing change and direction
     * of travel at each trajectory point, radians, and whether it turns on the spot */
    float max_turn[AK_MATCH_TRAJ_POINTS], max_dir[AK_MATCH_TRAJ_POINTS];
    int32_t turns_in_place;
    /* the stretches played before the current one (ring), for reselect_time */
    int32_t seg_first[AK_MATCHER_HISTORY], seg_last[AK_MATCHER_HISTORY];
    double seg_left[AK_MATCHER_HISTORY];
    int32_t seg_next, seg_start;
    int32_t transitions, searches, force_search, initialized;
    int32_t phase; /* 0: between frames, 1: after begin, 2: after the ground rays */
    ak_foot_ik_params fik;
    ak_foot_ik_state fst;
    ak_controller ctrl;
    float floor_y, floor_v, foothold[2];
    int32_t has_foothold[2], stance[2], released[2], unlocks;
    /* world: the character's travel from its velocity offset (vel_x) since planted foot s's
     * stance began or the last jump, the body's own, not the frame's (unlock) */
    ak_vec3 lead[2];
    /* a jump this frame left planted foot s beyond unlock_distance: released in
     * matcher_finish unless its destination ray finds a riser between (update_stance) */
    int32_t unlock_due[2];
    int32_t held_back[2]; /* a landing held back out of reach (out_of_reach) until it lands */
    /* each foot's ak_foot_ik_state.due_drop the frame before last, and whether it was known
     * (out_of_reach; matcher_finish sets both every frame, unknown on the first after a reset,
     * and out_of_reach is 0 until then) */
    float due_was[2];
    int32_t due_known[2];
    int32_t pushed_off[2];     /* the grounding has lifted this planted foot (push_off) */
    int32_t contact[2];        /* AK_CONTACT_* of the shown stance (0 in swing) */
    int32_t source_contact[2]; /* the playing frame's own contact bits (both standing) */
    float offset_lift[2];      /* |shown ankle height - the playing frame's own|, m */
    float dt;                  /* of the frame in progress */
    ak_vec3 move;              /* its wanted displacement */
    int32_t position_set, height_from_ray;
    float sole_ground[2], toe_ground[2];
    /* Foot placement (stairs, the walker's rule: ak_foot_place_decide): each swing decides once
     * where the foot lands relative to the playing frame's landing; the shift glides there
     * from where the last stance left it. toe_at_land: this frame's toe ray looks at the
     * landing (the decision's), not under the toe. */
    ak_vec3 place_from[2], place_target[2], place_shift[2];
    /* the glide's end it goes to (the decided target, else place_from) and the part of the
     * glide done when it began toward that end (place_glide: 0 unless it began late) */
    ak_vec3 place_to[2];
    float place_g0[2];
    /* the shift's part that takes a transition's offset out of the foot by its landing
     * (cancel_offset): the part, the foot's offset last frame and its rate (m/s), the glide
     * done last frame */
    ak_vec3 cancel[2], foot_off[2], foot_off_v[2];
    float cancel_g[2];
    int32_t cancel_rebase; /* a transition: the offsets jumped (cancel_offset keeps the foot) */
    int32_t place_decided[2], toe_at_land[2];
    float place_ground[2]; /* the landing heel's ground when its placement was last looked at */
    ak_vec3 land[2], land_toe[2], land_ray[2], land_toe_ray[2];
    /* Shorter steps on steep ground (the guide walker's rule, walker.c: shorter_steps): the
     * root's travel and each foot's place along the facing are scaled by step_scale, which
     * follows step_goal (step_goal_of) as a critically damped spring (step_scale_v its rate);
     * anim_sole: each foot's sole in the playing frame's in-place pose (update_stance), for the
     * step's length. */
    float step_scale, step_scale_v, step_goal;
    ak_vec3 anim_sole[2];
    /* Each foot's heel and toe as shown (before the grounding) last frame, world, whether that
     * was known, and whether the stop's foot moves too fast to land (stop_landing_moving) */
    ak_vec3 shown_last[2][2];
    int32_t has_shown_last, stop_moving[2];
    /* Footholds on stairs (tread_goal_of): the step scale each swing asks for, decided at its
     * lift-off (tread_fresh: foot s has been down since its last swing; tread_walk: this swing
     * saw its landing over a planted foot from its lift-off) and only lowered while it swings. */
    float tread_goal[2];
    int32_t tread_fresh[2], tread_walk[2];
    /* The held offset (the walker's rule, akw_held_offset): a change of the step scale moves
     * neither a foot the frame has down nor a decided landing; placed_scale: the scale the
     * feet were last placed with. */
    ak_vec3 held[2], held_lift[2];
    float placed_scale;
    /* The landing ray no landing needs (a planted foot's; a swinging foot's with none known)
     * looks elsewhere (spare_rays), and so does the last ray (k = 2): spare[k] says where ray
     * 5 + k looks (AK_SPARE_*), for foot spare_foot[k]; spare_at[k] is the point. */
    int32_t spare[3], spare_foot[3];
    ak_vec3 spare_at[3];
    /* a toe whose own ray looks at its landing (toe_at_land): the ground a spare ray found a
     * riser or more above its heel's, ahead of (or under) it, the grounding's toe ground (no hit:
     * none found) */
    ak_ground_hit toe_guard[2];
    /* Under where the frame has a planted heel the unlock is about to release
     * (release_crosses_riser): the ground found there (NAN: none asked last frame) and whether it
     * and the ground under the heel are treads. */
    float dest_ground[2];
    int32_t dest_level[2];
    /* A released foot whose frame's foot is a riser above it steps up (step_up_hold): stepping
     * while it lifts in place, the tread it lifts to (step_ground), and the hold that keeps it
     * in place (an x,z shift; it glides out once the foot is over the tread). */
    int32_t stepping[2];
    float step_ground[2];
    ak_vec3 step_hold[2];
    /* A foot that must move while the frame has it down steps (restep_hold) */
    restep_foot rs[2];
    /* The stand frame's own heel and toe of each foot (in place, no offsets; stand_point),
     * known once stand_known */
    ak_vec3 stand_pt[2][2];
    int32_t stand_known;
    /* A foot the frame has down, on the ground, whose stance waits (touchdown_hold); toe_held:
     * held at its toe (a toe-only contact, or toe_lands_first), foot IK turns it about the toe
     * (ak_foot_ik_solve_lifted) */
    touch_foot touch[2];
    int32_t toe_held[2];
    /* The heel and toe rays of a foot whose lock fades look where this frame's solve puts them
     * (fade_query); the grounding carries each hit along its tangent plane from its own query
     * point (ak_foot_ik_query_points'): query[k] is that point, cast[k] the ray's (heels 0, 1;
     * toes 2, 3). */
    ak_vec3 query[4], cast[4];
    /* whether a planted foot's toe ray looks just beyond where its toe is flat this frame
     * (flat_toe_ray), and whether it found a tread a riser up there (the foot turned toe-up
     * against the riser: a re-step starts from its toe, restep_hold) */
    int32_t toe_flat[2], toe_up[2];
    /* The pose source's own vertical acceleration of the hips at each of the last frames
     * (source_hip_accel's `now`), m/s^2, newest first; INFINITY: none yet; and frames since the
     * last jump (transition), counted there up to AK_HIP_WINDOW_MAX. */
    float hip_accel_past[AK_HIP_WINDOW_MAX - 1];
    int32_t jump_age;
    /* this frame's jump (walking on) plants foot s, which the playing frame swings higher than
     * the planting's fade-in brings a foot down (transition): it steps onto its new frame's foot
     * (cancel_offset, update_stance) */
    int32_t landing_jump[2];
    /* F*4, [4 f + 2 s + p]: foot s's heel (p 0) and toe (p 1) in database frame f, in place,
     * over that point's lowest in the frame's range (point_clearance) */
    float *point_clear;
};

enum { AK_SPARE_NONE, AK_SPARE_DEST, AK_SPARE_AHEAD };

static ak_vec3 coast_rest(const ak_matcher *m);
static int touches(const ak_matcher *m, int k);

static float wrap_pi(float a)
{
    while (a > AK_PI)
        a -= 2.0f * AK_PI;
    while (a < -AK_PI)
        a += 2.0f * AK_PI;
    return a;
}

/* Rotation vector (axis * angle) of a unit quaternion, shortest way, and back. */
static ak_vec3 quat_log(ak_quat q)
{
    if (q.w < 0.0f) q = (ak_quat){-q.x, -q.y, -q.z, -q.w};
    const float s = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    if (s < 1e-7f) return ak_vec3_make(2.0f * q.x, 2.0f * q.y, 2.0f * q.z);
    const float a = 2.0f * atan2f(s, q.w) / s;
    return ak_vec3_make(q.x * a, q.y * a, q.z * a);
}

static ak_quat quat_exp(ak_vec3 v)
{
    const float a = akv_len(v);
    if (a < 1e-7f) return akq_normalize((ak_quat){0.5f * v.x, 0.5f * v.y, 0.5f * v.z, 1.0f});
    const float s = sinf(0.5f * a) / a;
    return (ak_quat){v.x * s, v.y * s, v.z * s, cosf(0.5f * a)};
}

ak_matcher_params ak_matcher_defaults(void)
{
    ak_matcher_params p;
    memset(&p, 0, sizeof p);
    p.target = ak_vec3_make(0, 0, 5);
    p.start_heading = NAN;
    p.arrival_radius = 0.3f;
    p.walk_speed = 1.4f;
    p.slow_radius = 1.5f;
    p.turn_on_spot = 110.0f * AK_PI / 180.0f;
    p.velocity_halflife = 0.3f;
    p.heading_halflife = 0.25f;
    p.search_interval = 0.1f;
    p.sharp_change = 0.5f;
    p.inertia_halflife = 0.12f;
    p.transition_cost = 0.5f;
    p.exclude_time = 0.33f;
    p.reselect_time = 0.5f;
    p.turn_rate = 100.0f * AK_PI / 180.0f; /* 100 deg/s */
    p.stop_time = 0.35f;
    p.rate_warp = 0.0f;
    p.stance_gate = 0.006f;
    p.unlock_distance = 0.1f;
    p.search_mode = AK_MATCH_BOXES;
    p.foot_ik = 1;
    p.use_controller = 1;
    p.controller = ak_controller_defaults();
    p.ground_smoothing = 0.12f;
    p.foot = ak_foot_ik_defaults();
    return p;
}

/* The positive fields, by name (what the range table does not already bound below by > 0). */
static int32_t check_positive(const ak_matcher_params *p, ak_error *err)
{
    const float pos[] = {p->unlock_distance, p->arrival_radius,    p->walk_speed,
                         p->slow_radius,     p->velocity_halflife, p->heading_halflife,
                         p->search_interval, p->sharp_change,      p->inertia_halflife,
                         p->stop_time};
    static const char *const names[] = {"unlock_distance", "arrival_radius",    "walk_speed",
                                        "slow_radius",     "velocity_halflife", "heading_halflife",
                                        "search_interval", "sharp_change",      "inertia_halflife",
                                        "stop_time"};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; ++i)
        if (!(pos[i] > 0.0f) || !isfinite(pos[i]))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s = %g: must be finite and > 0",
                                names[i], (double)pos[i]);
    return AK_OK;
}

int32_t ak_matcher_validate(const ak_matcher_params *p, const ak_motion_db *db, ak_error *err)
{
    if (!p || !db) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    /* the range table first: its messages name the field and its bounds */
    int32_t st = ak_params_check(ak_matcher_param_ranges(), p, err);
    if (st != AK_OK) return st;
    if (!akv_finite(p->start) || !akv_finite(p->target))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "start and target must be finite");
    if (!(p->stance_gate >= 0.0f) || !isfinite(p->stance_gate))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "stance_gate must be finite and >= 0");
    if ((st = check_positive(p, err)) != AK_OK) return st;
    if (!(p->transition_cost >= 0.0f) || !isfinite(p->transition_cost) ||
        !(p->exclude_time >= 0.0f) || !isfinite(p->exclude_time) || !(p->reselect_time >= 0.0f) ||
        !isfinite(p->reselect_time))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "transition_cost, exclude_time and reselect_time must be finite and "
                            ">= 0");
    if (!(p->turn_on_spot >= 0.0f && p->turn_on_spot <= AK_PI))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "turn_on_spot must be in [0, 3.1416] radians (180 degrees)");
    if (!(p->turn_rate >= 0.0f) || !isfinite(p->turn_rate))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "turn_rate must be finite and >= 0");
    if (p->search_mode != AK_MATCH_BRUTE && p->search_mode != AK_MATCH_BOXES)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "search_mode %d is unknown",
                            (int)p->search_mode);
    if (!(p->ground_smoothing >= 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "ground_smoothing must be >= 0");
    if (p->box_count < 0 || (p->box_count > 0 && !p->boxes))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "box_count %d without boxes",
                            (int)p->box_count);
    if (p->use_controller) return ak_controller_validate(&p->controller, err);
    return AK_OK;
}

void ak_matcher_destroy(ak_matcher *m)
{
    if (!m) return;
    free(m->anim);
    free(m->off_x);
    free(m->point_clear);
    free(m);
}

/* The foot IK rig from the humanoid map and the database's calibration. */
static void rig_from_db(ak_matcher *m)
{
    const ak_humanoid *h = &m->db->humanoid;
    for (int s = 0; s < 2; ++s) {
        m->fik.legs[s].upper = h->joint[s == 0 ? AK_HUM_LEFT_UPPER_LEG : AK_HUM_RIGHT_UPPER_LEG];
        m->fik.legs[s].lower = h->joint[s == 0 ? AK_HUM_LEFT_LOWER_LEG : AK_HUM_RIGHT_LOWER_LEG];
        m->fik.legs[s].foot = h->joint[s == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT];
        m->fik.legs[s].sole_height = m->db->sole_height[s];
        m->fik.legs[s].up_local = m->db->foot_up_local[s];
        m->fik.legs[s].toe_local = m->db->toe_local[s];
        m->fik.legs[s].has_toe = m->db->has_toe[s];
    }
    m->fik.hips = h->joint[AK_HUM_HIPS] >= 0 ? h->joint[AK_HUM_HIPS] : 0;
}

/* Angle of (x, z) from +Z (forward), radians. */
static float angle_of(float x, float z)
{
    return x * x + z * z > 1e-12f ? atan2f(x, z) : 0.0f;
}

/* How far the database's candidates turn and veer at each trajectory point, and whether any
 * turns on the spot (slower than 0.25 m/s while turning faster than 45 deg/s). */
static void database_reach(ak_matcher *m)
{
    const ak_motion_db *db = m->db;
    memset(m->max_turn, 0, sizeof m->max_turn);
    memset(m->max_dir, 0, sizeof m->max_dir);
    m->turns_in_place = 0;
    m->foot_speed = 0.0f;
    for (int32_t f = 0; f < db->F; ++f) {
        const float *u = db->raw + (size_t)f * AK_MATCH_FEATURES + 6; /* the ankles' velocities */
        for (int s = 0; s < 2; ++s)
            m->foot_speed =
                akf_max(m->foot_speed, sqrtf(u[3 * s] * u[3 * s] + u[3 * s + 2] * u[3 * s + 2]));
        if (!db->cand[f]) continue;
        const float *r = db->raw + (size_t)f * AK_MATCH_FEATURES;
        for (int k = 0; k < AK_MATCH_TRAJ_POINTS; ++k) {
            const float turn = fabsf(angle_of(r[21 + 2 * k], r[22 + 2 * k]));
            const float dir = fabsf(angle_of(r[15 + 2 * k], r[16 + 2 * k]));
            m->max_turn[k] = turn > m->max_turn[k] ? turn : m->max_turn[k];
            m->max_dir[k] = dir > m->max_dir[k] ? dir : m->max_dir[k];
        }
        const float speed = akv_len(db->delta[f]) / db->frame_time;
        const float rate = fabsf(db->dturn[f]) / db->frame_time;
        if (speed < 0.25f && rate > 0.25f * AK_PI) m->turns_in_place = 1;
    }
}

/* Planned hips, the walker's rule and the matcher's one grounding (issue 21): the grounding's
 * acceleration bounds from the database's own envelope (ak_foot_ik_plan_accel) and each leg's
 * landing slack over the database's landings (ak_foot_ik_landing_room, at least 0). Uses the
 * scratch poses (create time). */
static int32_t plan_hips(ak_matcher *m, ak_error *err)
{
    const ak_motion_db *db = m->db;
    ak_walk_metrics src;
    const int32_t st = ak_motion_db_source_metrics(db, &src, err);
    if (st != AK_OK) return st;
    ak_foot_ik_plan_accel(&m->fik, src.hip_accel_min_g, src.hip_accel_max_g);
    m->src_accel_lo = src.hip_accel_min_g * AK_GRAVITY;
    m->src_accel_hi = src.hip_accel_max_g * AK_GRAVITY;
    for (int s = 0; s < 2; ++s) {
        float slack = INFINITY;
        for (int32_t r = 0; r < db->range_count; ++r)
            for (int32_t f = db->range_start[r] + 1; f < db->range_start[r + 1]; ++f) {
                if (!db->contact[2 * f + s] || db->contact[2 * (f - 1) + s]) continue;
                ak_motion_db_pose(db, f, m->own_local);
                ak_fk(db->skeleton, m->own_local, m->own_world);
                slack = fminf(slack, ak_foot_ik_landing_room(&m->fik, m->own_world, s, 0.0f));
            }
        m->fik.legs[s].landing_slack = slack < INFINITY && slack > 0.0f ? slack : 0.0f;
    }
    return AK_OK;
}

/* Each heel's and toe's height in every database frame over that point's lowest in the frame's
 * range (m->point_clear): the range's floor is where the capture stood, as the grounding puts a
 * planted point on the ground. Uses the scratch poses (create time). */
static int32_t point_clearance(ak_matcher *m, ak_error *err)
{
    const ak_motion_db *db = m->db;
    m->point_clear = (float *)calloc((size_t)db->F * 4, sizeof(float));
    if (!m->point_clear) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t r = 0; r < db->range_count; ++r) {
        float low[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
        const int32_t first = db->range_start[r], end = db->range_start[r + 1];
        for (int32_t f = first; f < end; ++f) {
            ak_motion_db_pose(db, f, m->own_local);
            ak_fk(db->skeleton, m->own_local, m->own_world);
            for (int s = 0; s < 2; ++s) {
                if (m->fik.legs[s].foot < 0) continue;
                float *c = m->point_clear + 4 * (size_t)f + 2 * s;
                c[0] = ak_foot_ik_sole(&m->fik, m->own_world, s).y;
                c[1] = m->fik.legs[s].has_toe ? ak_foot_ik_toe(&m->fik, m->own_world, s).y : c[0];
                low[2 * s] = akf_min(low[2 * s], c[0]);
                low[2 * s + 1] = akf_min(low[2 * s + 1], c[1]);
            }
        }
        /* (at most what the grounding's lift can come down by the frame's landing, at
         * swing_height_rate: a jump into a swing's end is not landed late) */
        float left[2] = {INFINITY, INFINITY}; /* s to the foot's next contact in the range */
        for (int32_t f = end - 1; f >= first; --f)
            for (int i = 0; i < 4; ++i) {
                const int s = i / 2;
                if (i % 2 == 0) left[s] = db->contact[2 * f + s] ? 0.0f : left[s] + db->frame_time;
                float *c = m->point_clear + 4 * (size_t)f + i;
                if (isfinite(low[i])) *c -= low[i];
                *c = akf_min(*c, m->fik.swing_height_rate * left[s]);
            }
    }
    return AK_OK;
}

static float clampf_abs(float v, float limit)
{
    return v > limit ? limit : (v < -limit ? -limit : v);
}

int32_t ak_matcher_create(const ak_motion_db *db, const ak_matcher_params *p,
                          const ak_ground *ground, ak_matcher **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_matcher_validate(p, db, err);
    if (st != AK_OK) return st;
    ak_matcher *m = (ak_matcher *)calloc(1, sizeof *m);
    if (!m) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    m->db = db;
    m->p = *p;
    m->J = db->J;
    m->anim = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)m->J * 5);
    m->off_x = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)m->J * 2);
    if (!m->anim || !m->off_x) {
        ak_matcher_destroy(m);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    m->local = m->anim + m->J;
    m->world = m->anim + 2 * m->J;
    m->own_local = m->anim + 3 * m->J;
    m->own_world = m->anim + 4 * m->J;
    m->off_v = m->off_x + m->J;
    m->fik = p->foot;
    m->fik.skeleton = db->skeleton; /* the matcher poses the database's skeleton */
    if (m->fik.legs[0].upper < 0) rig_from_db(m);
    /* a swinging knee bends at most the database's peak + 20 degrees (the walker's rule) */
    ak_foot_ik_plan_knee(&m->fik, db->knee_peak);
    st = plan_hips(m, err);
    if (st == AK_OK) st = point_clearance(m, err);
    database_reach(m);
    if (st == AK_OK && p->foot_ik) st = ak_foot_ik_validate(&m->fik, err);
    if (st != AK_OK) {
        ak_matcher_destroy(m);
        return st;
    }
    ak_matcher_reset(m, ground);
    *out = m;
    return AK_OK;
}

static float target_distance(const ak_matcher *m)
{
    const float dx = m->p.target.x - m->pos.x, dz = m->p.target.z - m->pos.z;
    return sqrtf(dx * dx + dz * dz);
}

/* ak_matcher_reset's feet placement: no shift, no decision, full steps. */
static void reset_placement(ak_matcher *m)
{
    memset(m->place_from, 0, sizeof m->place_from);
    memset(m->place_to, 0, sizeof m->place_to);
    m->place_g0[0] = m->place_g0[1] = 0.0f;
    memset(m->place_shift, 0, sizeof m->place_shift);
    memset(m->unlock_due, 0, sizeof m->unlock_due);
    memset(m->cancel, 0, sizeof m->cancel);
    m->foot_off[0] = m->foot_off[1] = m->foot_off_v[0] = m->foot_off_v[1] = ak_vec3_make(0, 0, 0);
    m->cancel_g[0] = m->cancel_g[1] = 0.0f;
    m->cancel_rebase = 0;
    memset(m->place_target, 0, sizeof m->place_target);
    m->place_decided[0] = m->place_decided[1] = m->toe_at_land[0] = m->toe_at_land[1] = 0;
    m->place_ground[0] = m->place_ground[1] = NAN;
    m->step_scale = m->step_goal = 1.0f;
    m->step_scale_v = 0.0f;
    m->tread_goal[0] = m->tread_goal[1] = m->placed_scale = 1.0f;
    m->tread_fresh[0] = m->tread_fresh[1] = 1;
    m->tread_walk[0] = m->tread_walk[1] = 0;
    memset(m->held, 0, sizeof m->held);
    memset(m->held_lift, 0, sizeof m->held_lift);
}

void ak_matcher_reset(ak_matcher *m, const ak_ground *ground)
{
    if (!m) return;
    ak_ground_hit h;
    m->pos = ak_vec3_make(m->p.start.x, m->p.start.y, m->p.start.z);
    if (ak_ground_query(ground, m->pos.x, m->pos.z, &h)) m->pos.y = h.height;
    const float dx = m->p.target.x - m->pos.x, dz = m->p.target.z - m->pos.z;
    m->heading = isfinite(m->p.start_heading)
                     ? m->p.start_heading
                     : (dx * dx + dz * dz > 1e-10f ? atan2f(dx, dz) : 0.0f);
    m->sim_heading = m->want_heading = m->heading;
    m->sim_angvel = 0.0f;
    m->sim_vel = m->sim_acc = m->want_vel = m->searched_want = ak_vec3_make(0, 0, 0);
    memset(m->off_x, 0, sizeof(ak_vec3) * (size_t)m->J * 2);
    m->root_x = m->root_v = m->vel_x = m->vel_v = ak_vec3_make(0, 0, 0);
    m->lead[0] = m->lead[1] = ak_vec3_make(0, 0, 0);
    m->root_hist_n = m->jump_age = 0;
    m->turn_x = m->turn_v = 0.0f;
    m->frame = m->db->stand_frame;
    m->frac = 0.0f;
    m->rate = 1.0f;
    for (int k = 0; k < AK_MATCHER_HISTORY; ++k) {
        m->seg_first[k] = m->seg_last[k] = -1;
        m->seg_left[k] = -INFINITY;
    }
    m->seg_next = 0;
    m->seg_start = m->frame;
    m->standing = 1;
    m->arrived = target_distance(m) <= m->p.arrival_radius;
    m->search_timer = 0.0f;
    m->cost = 0.0f;
    m->time = 0.0;
    m->path_length = 0.0f;
    m->transitions = m->searches = m->unlocks = m->stop_due = 0;
    m->stance[0] = m->stance[1] = m->released[0] = m->released[1] = 0;
    m->landing_jump[0] = m->landing_jump[1] = 0;
    m->held_back[0] = m->held_back[1] = m->pushed_off[0] = m->pushed_off[1] = 0;
    m->has_shown_last = m->stop_moving[0] = m->stop_moving[1] = 0;
    m->force_search = 1;
    m->initialized = 0;
    m->phase = 0;
    m->floor_y = m->pos.y;
    m->floor_v = 0.0f;
    for (int k = 0; k < AK_HIP_WINDOW_MAX - 1; ++k)
        m->hip_accel_past[k] = INFINITY;
    m->has_foothold[0] = m->has_foothold[1] = 0;
    m->sole_ground[0] = m->sole_ground[1] = m->toe_ground[0] = m->toe_ground[1] = NAN;
    m->dest_ground[0] = m->dest_ground[1] = m->step_ground[0] = m->step_ground[1] = NAN;
    m->stepping[0] = m->stepping[1] = 0;
    memset(m->step_hold, 0, sizeof m->step_hold);
    memset(m->rs, 0, sizeof m->rs);
    memset(m->touch, 0, sizeof m->touch);
    memset(m->toe_held, 0, sizeof m->toe_held);
    m->spare[0] = m->spare[1] = m->spare[2] = AK_SPARE_NONE;
    m->contact[0] = m->contact[1] = m->toe_flat[0] = m->toe_flat[1] = 0;
    m->source_contact[0] = m->source_contact[1] = m->toe_up[0] = m->toe_up[1] = 0;
    m->offset_lift[0] = m->offset_lift[1] = 0.0f;
    reset_placement(m);
    ak_foot_ik_state_reset(&m->fst);
    if (m->p.use_controller) ak_controller_init(&m->ctrl, &m->p.controller, m->pos, NULL);
    m->ctrl.grounded = 1;
    ak_motion_db_pose(m->db, m->frame, m->anim);
    memcpy(m->local, m->anim, sizeof(ak_xform) * (size_t)m->J);
    const ak_xform ch = {ak_quat_yaw(m->heading), m->pos};
    m->local[0] = akx_mul(ch, m->local[0]);
    ak_fk(m->db->skeleton, m->local, m->world);
}

void ak_matcher_set_target(ak_matcher *m, ak_vec3 target)
{
    if (!m || !akv_finite(target)) return;
    m->p.target = target;
    if (m->arrived && target_distance(m) <= m->p.arrival_radius) return;
    m->arrived = m->stop_due = 0;
    m->force_search = 1;
}

/* Index of the range holding f. */
static int32_t range_of(const ak_motion_db *db, int32_t f)
{
    int32_t lo = 0, hi = db->range_count - 1;
    while (lo < hi) {
        const int32_t mid = (lo + hi + 1) / 2;
        if (db->range_start[mid] <= f)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* First and last frame of the range holding f. */
static int32_t range_first(const ak_motion_db *db, int32_t f)
{
    return db->range_start[range_of(db, f)];
}
static int32_t range_last(const ak_motion_db *db, int32_t f)
{
    return db->range_start[range_of(db, f) + 1] - 1;
}

/* Local angular velocity of joint j at frame f (rad/s, parent space); 0 while standing. */
static ak_vec3 joint_rate(const ak_motion_db *db, int32_t f, int32_t j)
{
    const int32_t last = range_last(db, f);
    const int32_t a = f < last ? f : f - 1;
    if (a < 0 || a + 1 > last) return ak_vec3_make(0, 0, 0);
    const ak_quat qa = db->rot[(size_t)a * db->J + j], qb = db->rot[(size_t)(a + 1) * db->J + j];
    return akv_scale(quat_log(akq_mul(qb, akq_conj(qa))), 1.0f / db->frame_time);
}

static ak_vec3 root_rate(const ak_motion_db *db, int32_t f)
{
    const int32_t last = range_last(db, f);
    const int32_t a = f < last ? f : f - 1;
    if (a < 0 || a + 1 > last) return ak_vec3_make(0, 0, 0);
    return akv_scale(akv_sub(db->trans[(size_t)(a + 1) * db->T], db->trans[(size_t)a * db->T]),
                     1.0f / db->frame_time);
}

/* An offset in the character's frame (+Z its facing) in the shorter stride: its part along
 * the facing scaled by step_scale, the part across kept (the feet stay as wide apart). */
static ak_vec3 gait_scaled(const ak_matcher *m, ak_vec3 v)
{
    v.z *= m->step_scale;
    return v;
}

/* World velocity and heading rate the playing frame gives the character (its travel in the
 * shorter stride). */
static ak_vec3 anim_velocity(const ak_matcher *m, float *turn_rate)
{
    if (m->standing) {
        if (turn_rate) *turn_rate = 0.0f;
        return ak_vec3_make(0, 0, 0);
    }
    if (turn_rate) *turn_rate = m->rate * m->db->dturn[m->frame] / m->db->frame_time;
    return akv_scale(akq_rotate(ak_quat_yaw(m->heading), gait_scaled(m, m->db->delta[m->frame])),
                     m->rate / m->db->frame_time);
}

/* Jump to frame `to` (standing: hold it): the pose and velocity differences between what is
 * shown now and the new frame become decaying offsets. */
static void transition(ak_matcher *m, int32_t to, int32_t standing)
{
    const ak_motion_db *db = m->db;
    const int32_t from = m->frame;
    for (int32_t j = 0; j < m->J; ++j) {
        const ak_quat src = akq_mul(quat_exp(m->off_x[j]), db->rot[(size_t)from * m->J + j]);
        const ak_vec3 src_w =
            m->standing ? m->off_v[j]
                        : akv_add(m->off_v[j], akv_scale(joint_rate(db, from, j), m->rate));
        const ak_quat dst = db->rot[(size_t)to * m->J + j];
        m->off_x[j] = quat_log(akq_mul(src, akq_conj(dst)));
        m->off_v[j] = standing ? src_w : akv_sub(src_w, akv_scale(joint_rate(db, to, j), m->rate));
    }
    const ak_vec3 src_t = akv_add(m->root_x, db->trans[(size_t)from * db->T]);
    const ak_vec3 src_tv =
        m->standing ? m->root_v : akv_add(m->root_v, akv_scale(root_rate(db, from), m->rate));
    m->root_x = akv_sub(src_t, db->trans[(size_t)to * db->T]);
    m->root_v = standing ? src_tv : akv_sub(src_tv, akv_scale(root_rate(db, to), m->rate));
    float turn_a, turn_b;
    const ak_vec3 va = anim_velocity(m, &turn_a);
    if (!m->standing && from != to) { /* the stretch just left */
        m->seg_first[m->seg_next] = m->seg_start;
        m->seg_last[m->seg_next] = from;
        m->seg_left[m->seg_next] = m->time;
        m->seg_next = (m->seg_next + 1) % AK_MATCHER_HISTORY;
    }
    m->seg_start = to;
    /* A walking jump whose destination plants a foot the playing frame swings higher (its own
     * ankle over the destination's) than a re-step lifts a foot (AK_RESTEP_HEIGHT_MIN: in its
     * swing, not coming down to land): the foot steps onto its new frame's foot (landing_jump;
     * cancel_offset, update_stance). Taken from the planting's reach (stance gate plus its
     * fade-in's 25 mm), the stop's approach of CMU 02_01 stepped a foot 34 mm up that the
     * offset brings down (its studio variants' skate 0.837 against 0.848 mm/s). Held
     * off that foot by the jump's offset it came down only at the transition's rate, its stance
     * never began, and it hung over the ground while its frames stood on it: CMU 02_02 at 24 fps
     * (the held-out walk24), frames 42 -> 18, the left foot 0.20 m up, then 10-93 mm up at up
     * to 2.5 m/s for 0.3 s. Brought down where it was shown (its leg's offset taken off at a
     * 0.04 s half-life, its lock at its shown heel), it landed 0.2-0.3 m off its frame's foot,
     * out of its leg's reach: the grounding pulled the lock 60 mm toward the hips in one frame
     * (3.6 m/s). */
    const float *own_from = db->raw + (size_t)from * AK_MATCH_FEATURES;
    const float *own_to = db->raw + (size_t)to * AK_MATCH_FEATURES;
    for (int s = 0; s < 2; ++s)
        m->landing_jump[s] = m->initialized && !standing && !m->standing && from != to &&
                             !m->stance[s] && !db->contact[2 * from + s] &&
                             db->contact[2 * to + s] &&
                             own_from[1 + 3 * s] - own_to[1 + 3 * s] > AK_RESTEP_HEIGHT_MIN;
    m->cancel_rebase = m->standing || standing ? 1 : 2; /* 2: walking on (cancel_offset) */
    m->frame = to;
    m->frac = 0.0f;
    m->standing = standing;
    if (standing) m->released[0] = m->released[1] = 0; /* the stop plants both feet anew */
    const ak_vec3 vb = anim_velocity(m, &turn_b);
    m->vel_x = akv_add(m->vel_x, akv_sub(va, vb));
    m->lead[0] = m->lead[1] = ak_vec3_make(0, 0, 0); /* the new frame is placed at the body */
    m->turn_x += turn_a - turn_b;
    if (from != to) ++m->transitions;
    m->jump_age = 0;
}

/* Position (relative to now) and heading of the wanted trajectory t seconds ahead: the
 * closed-form integral of the critically damped velocity spring, and the heading spring. */
static void predict(const ak_matcher *m, float t, ak_vec3 *pos, float *heading)
{
    const float y = aks_spring_omega(m->p.velocity_halflife), e = expf(-y * t);
    const ak_vec3 j0 = akv_sub(m->sim_vel, m->want_vel);
    const ak_vec3 j1 = akv_add(m->sim_acc, akv_scale(j0, y));
    *pos = akv_add(akv_add(akv_scale(m->want_vel, t), akv_scale(j0, (1.0f - e) / y)),
                   akv_scale(j1, 1.0f / (y * y) - (t / y + 1.0f / (y * y)) * e));
    const float yh = aks_spring_omega(m->p.heading_halflife), eh = expf(-yh * t);
    const float h0 = m->sim_heading - m->want_heading;
    *heading = m->want_heading + eh * (h0 + (m->sim_angvel + h0 * yh) * t);
}

static const float traj_t[AK_MATCH_TRAJ_POINTS] = {1.0f / 3.0f, 2.0f / 3.0f, 1.0f};

/* The query: the playing frame's pose features and the wanted trajectory, character frame. */
static void build_query(const ak_matcher *m, float *raw)
{
    memcpy(raw, m->db->raw + (size_t)m->frame * AK_MATCH_FEATURES, sizeof(float) * 15);
    if (m->standing) memset(raw + 6, 0, sizeof(float) * 9);
    const ak_quat inv = ak_quat_yaw(-m->heading);
    for (int k = 0; k < AK_MATCH_TRAJ_POINTS; ++k) {
        ak_vec3 d;
        float h;
        predict(m, traj_t[k], &d, &h);
        d = akq_rotate(inv, d);
        /* Ask for no more turn or veer than the database holds: beyond it every frame is far
         * and the choice is noise; orientation warping turns the rest. */
        const float len = sqrtf(d.x * d.x + d.z * d.z);
        const float dir = clampf_abs(angle_of(d.x, d.z), m->max_dir[k]);
        const float turn = clampf_abs(wrap_pi(h - m->heading), m->max_turn[k]);
        raw[15 + 2 * k] = len * sinf(dir);
        raw[16 + 2 * k] = len * cosf(dir);
        raw[21 + 2 * k] = sinf(turn);
        raw[22 + 2 * k] = cosf(turn);
    }
}

/* What is wanted now: speed and facing toward the target; the springs follow. */
static void update_desire(ak_matcher *m, float dt)
{
    const float dx = m->p.target.x - m->pos.x, dz = m->p.target.z - m->pos.z;
    const float dist = sqrtf(dx * dx + dz * dz);
    float speed = 0.0f;
    if (!m->arrived && dist > 1e-5f) {
        m->want_heading = m->sim_heading + wrap_pi(atan2f(dx, dz) - m->sim_heading);
        const float off = fabsf(wrap_pi(atan2f(dx, dz) - m->heading)); /* radians */
        speed = m->p.walk_speed * (dist < m->p.slow_radius ? dist / m->p.slow_radius : 1.0f);
        /* Far off the facing: turn on the spot when the database can, else keep walking at
         * its slowest and turn along a tight arc (orientation warping). */
        if (off > m->p.turn_on_spot)
            speed =
                m->turns_in_place ? 0.0f : (speed < m->db->min_speed ? speed : m->db->min_speed);
    }
    m->want_vel = ak_vec3_make(speed * sinf(m->want_heading), 0.0f, speed * cosf(m->want_heading));
    /* velocity spring */
    const float y = aks_spring_omega(m->p.velocity_halflife), e = expf(-y * dt);
    aks_spring3_step_k(&m->sim_vel, &m->sim_acc, m->want_vel, y, dt, e);
    /* heading spring */
    float hx = m->sim_heading - m->want_heading;
    aks_spring_decay(&hx, &m->sim_angvel, aks_spring_omega(m->p.heading_halflife), dt);
    m->sim_heading = m->want_heading + hx;
    const ak_vec3 change = akv_sub(m->want_vel, m->searched_want);
    if (akv_len(change) > m->p.sharp_change) m->force_search = 1;
}

/* Frames [a - near, b + near] of the range holding a and b, as an exclusion [ex[0], ex[1]). */
static void near_range(const ak_motion_db *db, int32_t a, int32_t b, int32_t near, int32_t *ex)
{
    const int32_t first = range_first(db, a), last = range_last(db, b);
    ex[0] = a - near > first ? a - near : first;
    ex[1] = b + near < last ? b + near + 1 : last + 1;
}

/* What a jump may not land on: the playing frame's neighbourhood (exclude_time either side)
 * and the stretches left less than reselect_time ago (with the same margin). Returns the
 * number of ranges written. */
static int32_t excluded_ranges(const ak_matcher *m, int32_t *ex)
{
    const int32_t near = (int32_t)lroundf(m->p.exclude_time / m->db->frame_time);
    int32_t n = 0;
    if (!m->standing) near_range(m->db, m->frame, m->frame, near, ex + 2 * n++);
    for (int k = 0; k < AK_MATCHER_HISTORY; ++k)
        if (m->seg_first[k] >= 0 && m->time - m->seg_left[k] < m->p.reselect_time)
            near_range(m->db, m->seg_first[k], m->seg_last[k], near, ex + 2 * n++);
    return n;
}

/* Searches when due; jumps when a better frame than the playing one exists. */
static void maybe_search(ak_matcher *m, float dt)
{
    const ak_motion_db *db = m->db;
    m->search_timer -= dt;
    const int32_t last = range_last(db, m->frame);
    if (!m->standing && m->frame + 1 >= last) m->force_search = 1;
    if (m->arrived || (!m->force_search && m->search_timer > 0.0f)) return;
    float raw[AK_MATCH_FEATURES], q[AK_MATCH_FEATURES];
    build_query(m, raw);
    ak_motion_db_normalize(db, raw, q);
    float current = INFINITY;
    if (!m->standing && m->frame + 1 < last) { /* its trajectory clamped at the take end */
        current = 0.0f;
        const float *x = db->feat + (size_t)m->frame * AK_MATCH_FEATURES;
        for (int k = 0; k < AK_MATCH_FEATURES; ++k)
            current += (q[k] - x[k]) * (q[k] - x[k]);
    }
    /* A jump must beat the continuation by transition_cost and land outside the playing
     * frame's neighbourhood in its own take. */
    const float bound = current - m->p.transition_cost;
    int32_t ex[2 * (AK_MATCHER_HISTORY + 1)];
    const int32_t nex = excluded_ranges(m, ex);
    ak_match_result r;
    ak_motion_db_search_excluding(db, q, m->p.search_mode, bound, ex, nex, &r);
    if (r.frame < 0 && !isfinite(current)) /* playback must go somewhere: the nearest any */
        ak_motion_db_search(db, q, m->p.search_mode, INFINITY, &r);
    ++m->searches;
    m->search_timer = m->p.search_interval;
    m->force_search = 0;
    m->searched_want = m->want_vel;
    if (r.frame < 0) {
        m->cost = current;
        return;
    }
    m->cost = r.cost;
    /* A few frames ahead in the same take is where playback goes anyway. */
    if (!m->standing && r.frame >= m->frame && r.frame <= m->frame + 3 &&
        range_last(db, r.frame) == last)
        return;
    transition(m, r.frame, 0);
}

/* Whether the stop comes within `t` seconds at the present velocity: the target within the
 * arrival radius, or the coast's rest (the integral of its decay on) within half of it. */
static int stop_within(const ak_matcher *m, float t)
{
    const ak_vec3 v = akv_add(anim_velocity(m, NULL), m->vel_x);
    if (target_distance(m) - sqrtf(v.x * v.x + v.z * v.z) * t <= m->p.arrival_radius) return 1;
    const float coast = 2.0f / aks_spring_omega(0.5f * m->p.stop_time) + t;
    const float sx = m->pos.x + v.x * coast - m->p.target.x;
    const float sz = m->pos.z + v.z * coast - m->p.target.z;
    return sqrtf(sx * sx + sz * sz) <= 0.5f * m->p.arrival_radius;
}

/* Seconds from now until the playing frame's range next puts down a foot it has up now (the
 * swinging foot's landing; a run in flight, either); 0 when it has both down or no such landing
 * is ahead in the range. */
static float landing_left(const ak_matcher *m)
{
    const ak_motion_db *db = m->db;
    const int32_t up[2] = {!db->contact[2 * m->frame], !db->contact[2 * m->frame + 1]};
    if (m->standing || !(up[0] || up[1])) return 0.0f;
    const int32_t last = range_last(db, m->frame);
    const float step = db->frame_time / (m->rate > 0.1f ? m->rate : 0.1f);
    for (int32_t f = m->frame + 1; f <= last; ++f)
        if ((up[0] && db->contact[2 * f]) || (up[1] && db->contact[2 * f + 1]))
            return ((float)(f - m->frame) - m->frac) * step;
    return 0.0f;
}

/* Stops when the coasting root would come to rest near the target, or inside the radius, on a
 * foot on the ground (no foot brakes in the air): with both feet up (a run in flight, a push-off
 * lifted) the stop waits for the playing frame's next landing and its planting's fade-in, and no
 * longer than the coast can still end on the target (stop_steer) without turning back: a
 * critically damped coast from speed v steered to rest nearer than 0.7 v / w ahead (its own
 * length is 2 v / w) turns back by more than 5 mm at its end. */
static void check_arrival(ak_matcher *m)
{
    if (m->arrived) return;
    const ak_vec3 v = akv_add(anim_velocity(m, NULL), m->vel_x);
    const float speed = sqrtf(v.x * v.x + v.z * v.z);
    const float ahead =
        speed > 1e-3f
            ? ((m->p.target.x - m->pos.x) * v.x + (m->p.target.z - m->pos.z) * v.z) / speed
            : 0.0f;
    const float least = speed * (0.7f / aks_spring_omega(0.5f * m->p.stop_time) + m->dt);
    const int down = touches(m, 0) || touches(m, 1);
    if (!m->stop_due && stop_within(m, 0.0f)) {
        m->stop_due = 1;
        const float left = landing_left(m);
        m->stop_wait = left > 0.0f ? (double)(left + 1.0f / m->fik.stance_fade_rate) : 0.0;
    }
    if (!m->stop_due) return;
    m->stop_wait -= (double)m->dt;
    if (down || m->stop_wait <= 0.0 || ahead <= least) m->arrived = 1;
}

/* Playback-rate warping: the rate follows (time constant 0.2 s) the wanted speed over the
 * playing frame's own, within 1 +- rate_warp. Pose, root travel and contacts all keep their
 * timing relative to each other, so planted feet stay planted; the cadence changes instead
 * of the stride (a stride change would have foot IK stretch the legs after locked feet). */
static void update_rate(ak_matcher *m, float dt)
{
    const ak_motion_db *db = m->db;
    float target = 1.0f;
    const float own = akv_len(db->delta[m->frame]) / db->frame_time;
    if (!m->standing && !m->arrived && own > 0.2f) {
        target = akv_len(m->sim_vel) / own;
        const float lo = 1.0f - m->p.rate_warp, hi = 1.0f + m->p.rate_warp;
        target = target < lo ? lo : (target > hi ? hi : target);
    }
    m->rate += (target - m->rate) * (dt < 0.2f ? dt / 0.2f : 1.0f);
}

/* Root motion, velocity offsets, orientation warping and playback advance. */
static ak_vec3 advance(ak_matcher *m, float dt)
{
    const ak_motion_db *db = m->db;
    update_rate(m, dt);
    float turn;
    const ak_vec3 v = anim_velocity(m, &turn);
    const ak_vec3 move = akv_scale(akv_add(v, m->vel_x), dt);
    for (int s = 0; s < 2; ++s) /* the offset's part of the move, over each planted foot */
        m->lead[s] = m->stance[s] && !m->standing ? akv_add(m->lead[s], akv_scale(m->vel_x, dt))
                                                  : ak_vec3_make(0, 0, 0);
    float warp = 0.0f;
    if (!m->standing) {
        const float e = wrap_pi(m->sim_heading - m->heading);
        const float cap = m->p.turn_rate * dt;
        warp = e * (dt / 0.15f > 1.0f ? 1.0f : dt / 0.15f);
        warp = warp > cap ? cap : (warp < -cap ? -cap : warp);
    }
    m->heading = wrap_pi(m->heading + (turn + m->turn_x) * dt + warp);
    const float yv = aks_spring_omega(0.5f * m->p.stop_time);
    aks_spring3_step_k(&m->vel_x, &m->vel_v, akv_make(0, 0, 0), yv, dt, expf(-yv * dt));
    aks_spring_decay(&m->turn_x, &m->turn_v, yv, dt);
    if (!m->standing) {
        const int32_t last = range_last(db, m->frame);
        m->frac += m->rate * dt / db->frame_time;
        while (m->frac >= 1.0f - 1e-4f && m->frame < last) {
            ++m->frame;
            m->frac = m->frac - 1.0f < 0.0f ? 0.0f : m->frac - 1.0f;
        }
        if (m->frame >= last) m->frac = 0.0f;
    }
    return move;
}

/* The root offset's vertical part keeps the shown in-place root height y (the frame's own
 * height `base` plus the offset) within the source's envelope in the 33 ms measure of the walk
 * metrics (akw_hip_window): y - y1 - yn + yn1 over n dt^2 within [lo, hi], lo the lower of the
 * database's own lowest and -1 g, hi the higher of its highest and +1 g. A transition's
 * offset decays only as fast as that room lets it, and where the jump joins two frames whose
 * own accelerations add up in one window (a database frame rate above the capture's: its
 * hips bend only at the captured samples), the offset takes the difference. */
static void root_offset_y(ak_matcher *m, float base, float x0, float dt)
{
    const int32_t n = akw_hip_window(dt);
    if (dt != m->root_hist_dt) m->root_hist_n = 0;
    m->root_hist_dt = dt;
    float y = base + m->root_x.y;
    if (dt > 0.0f && m->root_hist_n > n) {
        const float *h = m->root_hist;
        const float c = h[0] + h[n - 1] - h[n], k = (float)n * dt * dt;
        const float lo = c + akf_min(m->src_accel_lo, -AK_GRAVITY) * k;
        const float hi = c + akf_max(m->src_accel_hi, AK_GRAVITY) * k;
        const float yc = akf_clamp(y, lo, hi);
        if (yc != y) {
            const float x = yc - base;
            m->root_v.y = (x - x0) / dt;
            m->root_x.y = x;
            y = yc;
        }
    }
    memmove(m->root_hist + 1, m->root_hist, sizeof m->root_hist - sizeof m->root_hist[0]);
    m->root_hist[0] = y;
    if (m->root_hist_n <= AK_HIP_WINDOW_MAX) ++m->root_hist_n;
}

/* The in-place pose of the playing frame plus the decaying transition offsets. */
static void animate(ak_matcher *m, float dt)
{
    const ak_motion_db *db = m->db;
    ak_motion_db_pose(db, m->frame, m->anim);
    if (m->frac > 0.0f && m->frame < range_last(db, m->frame)) {
        const ak_quat *next = db->rot + (size_t)(m->frame + 1) * m->J;
        for (int32_t j = 0; j < m->J; ++j)
            m->anim[j].rotation = akq_nlerp(m->anim[j].rotation, next[j], m->frac);
        m->anim[0].translation =
            akv_lerp(m->anim[0].translation, db->trans[(size_t)(m->frame + 1) * db->T], m->frac);
    }
    const float y = aks_spring_omega(m->p.inertia_halflife), e = expf(-y * dt);
    for (int32_t j = 0; j < m->J; ++j) {
        /* offsets below a microradian are gone: skip their exp (most joints, most frames) */
        if (akv_dot(m->off_x[j], m->off_x[j]) + akv_dot(m->off_v[j], m->off_v[j]) * dt * dt <
            1e-12f) {
            m->off_x[j] = m->off_v[j] = ak_vec3_make(0, 0, 0);
            continue;
        }
        aks_spring3_step_k(&m->off_x[j], &m->off_v[j], akv_make(0, 0, 0), y, dt, e);
        m->anim[j].rotation = akq_normalize(akq_mul(quat_exp(m->off_x[j]), m->anim[j].rotation));
    }
    const float x0 = m->root_x.y;
    aks_spring3_step_k(&m->root_x, &m->root_v, akv_make(0, 0, 0), y, dt, e);
    root_offset_y(m, m->anim[0].translation.y, x0, dt);
    m->anim[0].translation = akv_add(m->anim[0].translation, m->root_x);
}

/* Places the pose on the character and the floor; runs FK. */
static void place_pose(ak_matcher *m)
{
    memcpy(m->local, m->anim, sizeof(ak_xform) * (size_t)m->J);
    const ak_xform ch = {ak_quat_yaw(m->heading), ak_vec3_make(m->pos.x, m->floor_y, m->pos.z)};
    m->local[0] = akx_mul(ch, m->local[0]);
    ak_fk(m->db->skeleton, m->local, m->world);
}

/* Whether foot s swings toward a landing the database knows (the playing frame's own). */
static int landing_known(const ak_matcher *m, int s)
{
    return !m->standing && !m->stance[s] && m->db->swing_phase[2 * m->frame + s] >= 0.0f;
}

/* Whether foot s is down in the playing frame 1/stance_fade_rate ahead (in its range): foot
 * IK fades its planting in over that lead. */
static int contact_ahead(const ak_matcher *m, int s)
{
    const int32_t ahead = (int32_t)lroundf(1.0f / (m->fik.stance_fade_rate * m->db->frame_time));
    const int32_t last = range_last(m->db, m->frame);
    const int32_t fa = m->frame + ahead < last ? m->frame + ahead : last;
    return m->db->contact[2 * fa + s] != 0;
}

/* m/s: the fastest the cancel part of a foot's shift glides (cancel_offset), beyond the
 * foot's own swing. */
#define AK_CANCEL_SPEED 2.0f

/* Seconds until the playing frame lands foot s, swinging toward a known landing (its swing
 * phase to 1 at the rate it moves between this frame and the next, a landing next frame: one
 * frame; at the playback rate), INFINITY for any other foot. */
static float swing_left(const ak_matcher *m, int s)
{
    if (!landing_known(m, s) || !(m->rate > 0.0f)) return INFINITY;
    const float u = m->db->swing_phase[2 * m->frame + s];
    const int32_t next = m->frame < range_last(m->db, m->frame) ? m->frame + 1 : m->frame;
    float u1 = m->db->swing_phase[2 * next + s];
    if (!(u1 > u)) u1 = 1.0f;
    return u1 > u ? (1.0f - u) / (u1 - u) * m->db->frame_time / m->rate : INFINITY;
}

/* The part of foot s's distance from its frame's own (cancel_offset's e, world x,z) that its
 * glide cannot take out at AK_CANCEL_SPEED (from halfway through the swing, glide_part) before
 * the frame lands it: it lands with the foot (0 for a foot not swinging toward a known
 * landing). */
static ak_vec3 landing_carry(const ak_matcher *m, int s)
{
    const ak_vec3 none = ak_vec3_make(0, 0, 0);
    const float left = swing_left(m, s);
    if (!isfinite(left)) return none;
    const float u = m->db->swing_phase[2 * m->frame + s];
    const float glide = u < 0.5f ? left * (0.5f / (1.0f - u)) : left;
    ak_vec3 e = akv_add(m->cancel[s], m->foot_off[s]);
    e.y = 0.0f;
    const float len = akv_len(e), keep = len - AK_CANCEL_SPEED * glide;
    return keep > 0.0f ? akv_scale(e, keep / len) : none;
}

/* The ground foot s will land on and how far through its swing it is: the landing ray's hit
 * while it swings toward a known landing; where the playing frame has the foot down but its
 * stance has not begun yet (a transition's or the stop's foot coming down, the planting fading
 * in: update_stance) the ground under its heel, at the end of its swing; NULL for a planted
 * foot or none known. Within the planting's fade-in of its landing, a foot a jump's offset
 * carries farther than its foot's length from where its frame lands (landing_carry) lands on
 * the ground under its heel as well: the landing ray looks where it will not land. A jump from
 * a push-off into the last 4 frames of a swing left the left foot 0.6 m from where its frame
 * has it; the ray found the hill 65-71 mm over the ground the foot came down on, the grounding's
 * glide lifted the foot 50 mm toward it, and the landing dropped it in one frame, the knee
 * straightening 23 degrees (test_matching_walk, the hills toward a target behind: 1.52 times the
 * captures' angular acceleration). `hit`: the sole, toe and landing hits (floor_and_ik's). */
static const ak_ground_hit *landing_hit(const ak_matcher *m, int s, const ak_ground_hit *hit,
                                        float *phase)
{
    *phase = 0.0f;
    if (m->stance[s]) return NULL;
    if (m->standing || m->db->contact[2 * m->frame + s]) {
        *phase = 1.0f;
        return &hit[s];
    }
    if (!landing_known(m, s)) return NULL;
    if (contact_ahead(m, s) && akv_len(landing_carry(m, s)) > akv_len(m->fik.legs[s].toe_local)) {
        *phase = 1.0f; /* (landing_carry) */
        return &hit[s];
    }
    *phase = m->db->swing_phase[2 * m->frame + s];
    return &hit[4 + s];
}

/* Seconds until the playing take lifts planted foot s (its contact ends), at the playback rate:
 * the grounding's look-ahead (ak_foot_ik_frame.stance_left, the guide walker's rule), looked up
 * where the grounding reads it (a foot on its toe, in single support); 0 when no lift-off lies
 * ahead within the range, or once arrived or standing (the stop's own steps place the feet, as
 * the walker's stop does). */
static float stance_left_of(const ak_matcher *m, int s)
{
    const ak_motion_db *db = m->db;
    if (!m->stance[s] || m->stance[1 - s] || m->standing || m->arrived || !(m->rate > 0.0f) ||
        !db->contact[2 * m->frame + s] || (m->contact[s] != AK_CONTACT_TOE && !m->fst.lock_toe[s]))
        return 0.0f;
    const int32_t last = range_last(db, m->frame);
    for (int32_t f = m->frame + 1; f <= last; ++f)
        if (!db->contact[2 * f + s])
            return ((float)(f - m->frame) - m->frac) * db->frame_time / m->rate;
    return 0.0f;
}

/* Whether planted foot s is pushing off: walking, the playing frame has it down on its toe
 * alone (its heel up), or the grounding has lifted it already in this stance (pushed_off). Its
 * stance is ending: the grounding lifts it (ak_foot_ik_state.released) once the hips have left
 * it out of its leg's reach even rolled over its toe, as it lifts a foot whose stance ends
 * within the planting's fade (stance_next 0), instead of dropping the hips to it at once (its
 * last resort). CMU subject 2 up stairs: a right foot placed 0.17 m back off a tread's edge
 * stood on its toe 0.15 m below a floor rising at 0.65 m/s toward a landing two risers up; the
 * planned hips, which see a planted leg only once it is out of reach, could not brake in time,
 * and the last resort pulled them 29 mm down in two frames (-3.02 g, then +2.87 g as the drop
 * ended) while the frame had the foot on its toe for 5 more frames. Once lifted it stays free
 * to lift: a jump to a frame with that foot flat (a slow walk at 30 fps on the stairs' top
 * landing) otherwise left the last resort the whole way the planned hips had still to come
 * down (41 mm in a frame, -6.33 g). */
static int push_off(const ak_matcher *m, int s)
{
    return !m->standing && m->stance[s] &&
           (m->db->contact[2 * m->frame + s] == AK_CONTACT_TOE || m->pushed_off[s]);
}

/* Leg s's sole in the in-place model pose `pose` (local, parent space): FK down the chain
 * from the root to the foot only, into the scratch world pose. */
static ak_vec3 chain_sole(ak_matcher *m, int s, const ak_xform *pose)
{
    const ak_skeleton *sk = m->db->skeleton;
    int32_t chain[64], n = 0;
    for (int32_t j = m->fik.legs[s].foot; j >= 0 && n < 64; j = sk->parents[j])
        chain[n++] = j;
    for (int32_t i = n - 1; i >= 0; --i) {
        const int32_t j = chain[i], parent = sk->parents[j];
        m->own_world[j] = parent >= 0 ? akx_mul(m->own_world[parent], pose[j]) : pose[j];
    }
    return ak_foot_ik_sole(&m->fik, m->own_world, s);
}

/* Whether leg s carries a transition's offset (the root's or a joint's down its chain). */
static int leg_offset(const ak_matcher *m, int s)
{
    const ak_skeleton *sk = m->db->skeleton;
    int moved = akv_dot(m->root_x, m->root_x) > 0.0f;
    for (int32_t j = m->fik.legs[s].foot; j >= 0 && !moved; j = sk->parents[j])
        moved = akv_dot(m->off_x[j], m->off_x[j]) > 0.0f;
    return moved;
}

/* The playing frame's own in-place pose at this time (animate's interpolation without the
 * offsets) into m->own_local, the chain of leg s only. */
static void own_leg_pose(ak_matcher *m, int s)
{
    const ak_skeleton *sk = m->db->skeleton;
    const ak_motion_db *db = m->db;
    ak_motion_db_pose(db, m->frame, m->own_local);
    if (m->frac > 0.0f && m->frame < range_last(db, m->frame)) {
        const ak_quat *next = db->rot + (size_t)(m->frame + 1) * m->J;
        for (int32_t j = m->fik.legs[s].foot; j >= 0; j = sk->parents[j])
            m->own_local[j].rotation = akq_nlerp(m->own_local[j].rotation, next[j], m->frac);
        m->own_local[0].translation = akv_lerp(m->own_local[0].translation,
                                               db->trans[(size_t)(m->frame + 1) * db->T], m->frac);
    }
}

/* How far the shown foot s is from the playing frame's own (the transition offsets it
 * carries), world, horizontal: the sole of the shown in-place pose minus the sole of the
 * frame's own pose at the same time (animate's interpolation without the offsets). */
static ak_vec3 foot_offset(ak_matcher *m, int s)
{
    if (!leg_offset(m, s)) return ak_vec3_make(0, 0, 0);
    own_leg_pose(m, s);
    const ak_vec3 own = chain_sole(m, s, m->own_local), shown = chain_sole(m, s, m->anim);
    ak_vec3 d = akq_rotate(ak_quat_yaw(m->heading), akv_sub(shown, own));
    d.y = 0.0f;
    return d;
}

/* The part of foot s's placement glide done at swing phase u (ak_foot_place_glide's). */
static float glide_part(float u)
{
    float g = (u - 0.5f) / 0.4f;
    g = g < 0.0f ? 0.0f : (g > 1.0f ? 1.0f : g);
    return g * g * (3.0f - 2.0f * g);
}

/* Whether foot s, not planted, cannot land yet: where the last frame left
 * the hips, its leg does not reach the ground under it (the grounding's
 * ak_foot_ik_state.due_drop) by more than the stance gate plus what a foot comes down over the
 * planting's fade-in (1/stance_fade_rate at 0.5 m/s, floor_and_ik's lead). A shortfall that is
 * shrinking (the hips coming down for the foot) is taken where it goes this frame at the rate
 * it shrank last frame: judged by last frame's alone, a run's landing was held back one frame
 * more at 24 fps and came down 25 mm in its landing frame at 0.55 m/s (CMU 09_02 at 24 fps up
 * the stairs from (-5.4,0), frames 133-134, the shortfall 55 mm then 13 mm; walk_physics.h's
 * hover, bound 0.27 m/s). The hips, which move
 * within physics, are coming down for it (a landing due while its foot is held in the air is in
 * their plan): the foot lands once it reaches, instead of being planted out of reach and the hips
 * dropped to it at once (the grounding's last resort: -56 g on CMU subject 9's heightmap run, a run
 * over a crest and a transition that lengthened its flight). */
static int out_of_reach(const ak_matcher *m, int s)
{
    const float d = m->fst.due_drop[s], was = m->due_was[s];
    const float now = m->due_known[s] && d < was ? d + (d - was) : d;
    return m->p.foot_ik && m->initialized &&
           now > m->p.stance_gate + 0.5f / m->fik.stance_fade_rate;
}

/* The transition offsets a foot carries are taken out of it by its landing (the planned hips do
 * not come down for a foot the frame's pose leaves behind).
 * The shift's cancel part (cancel[s]) keeps the shown foot where it is when the offset jumps
 * (it is continuous); the foot's distance from the frame's own foot, e = cancel + offset, is
 * held while the frame has the foot down (planted, or not yet planted: the decaying offset
 * does not sweep it along the ground; a landing held back out of reach is not held, it dies
 * away as at the stop) and glides to 0 with the placement over the second half
 * of a swing toward a known landing, so the foot lands where the frame (and its landing rays)
 * put it. A jump while the foot is planted (since the last frame) sets e to 0: the lock holds
 * the foot, and the unlock compares it with where the new frame has it; a stance the jump
 * begins holds e, so its lock starts where the foot is. At the stop the part dies away at the
 * transition's rate; a swing with no landing known keeps it. */
static void cancel_offset(ak_matcher *m, int s, int known, float u)
{
    const ak_vec3 o = foot_offset(m, s);
    if (m->cancel_rebase) m->foot_off[s] = o; /* a jump moves the frame, not the shown foot */
    ak_vec3 e = akv_add(m->cancel[s], o);     /* the shown foot off the frame's own, kept */
    /* a landing jump's foot goes to its frame's foot: the re-step (restep_hold) carries it there
     * from where it is shown, lifted over the ground, instead of the kept offset holding it */
    if (m->landing_jump[s] && m->cancel_rebase) {
        m->cancel[s] = akv_scale(o, -1.0f);
        e = ak_vec3_make(0, 0, 0);
    }
    const int down = !m->standing && m->db->contact[2 * m->frame + s];
    if (m->standing || (down && m->held_back[s])) {
        /* the stop's feet, and a landing held back out of the leg's reach (update_stance): the
         * part dies away, the frame puts the foot. Held where it was, a held-back foot hung in
         * the air while the body walked on, its leg ever farther short: a slow walk's left
         * foot 0.28 m up for 0.8 s on hills, then planted there (skate 1.33 cm/s). */
        const float k = expf(-aks_spring_omega(m->p.inertia_halflife) * m->dt);
        e = akv_add(akv_scale(m->cancel[s], k), o);
        m->cancel_g[s] = 0.0f;
    } else if (m->stance[s] && m->cancel_rebase == 2 && m->fst.was_stance[s]) {
        /* the lock holds the foot: the unlock sees where the new frame has it. Not a stance
         * that begins with the jump: its lock starts where the foot is shown (the animated
         * heel, shift included), so setting e to 0 there put the lock, and the foot, on the new
         * frame's own heel: CMU subject 2's left heel, flat on the floor at the end of a swing
         * the frame still called swing, jumped 0.24 m back in one frame at 3.97 s as the
         * transition to frame 20 began its stance (held below, it stays where it stood). */
        e = ak_vec3_make(0, 0, 0);
        m->cancel_g[s] = 0.0f;
    } else if (m->stance[s] || (down && !m->released[s])) {
        e = akv_add(m->cancel[s], m->foot_off[s]); /* as it was: held */
        m->cancel_g[s] = 0.0f;
    } else if (known) {
        const float g = glide_part(u), g0 = m->cancel_g[s] < g ? m->cancel_g[s] : g;
        const ak_vec3 held = e;
        e = akv_scale(e, g0 < 1.0f ? (1.0f - g) / (1.0f - g0) : 0.0f);
        /* at most AK_CANCEL_SPEED: a jump late in a swing (its glide nearly done) moved the
         * foot 0.2-0.55 m in one frame; what is left lands with the foot and is held */
        const ak_vec3 d = akv_sub(e, held);
        const float len = akv_len(d), most = AK_CANCEL_SPEED * m->dt;
        if (len > most) e = akv_add(held, akv_scale(d, most / len));
        m->cancel_g[s] = g;
    } else {
        m->cancel_g[s] = 0.0f;
    }
    m->foot_off_v[s] =
        m->dt > 0.0f ? akv_scale(akv_sub(o, m->foot_off[s]), 1.0f / m->dt) : ak_vec3_make(0, 0, 0);
    m->foot_off[s] = o;
    m->cancel[s] = akv_sub(e, o);
}

/* Foot s moved to its place in the shorter stride (the walker's gait_shift): its sole's offset
 * from the character's place along the facing, in the placed pose, scaled by step_scale. With
 * the root's travel scaled the same way (anim_velocity) the gait shortens along the facing: a
 * planted foot stays still under the slower hips, a swinging one lands that much nearer. */
static ak_vec3 gait_shift(const ak_matcher *m, int s)
{
    const ak_vec3 sole = ak_foot_ik_sole(&m->fik, m->world, s);
    const ak_vec3 f = ak_vec3_make(sinf(m->heading), 0.0f, cosf(m->heading));
    const float along = (sole.x - m->pos.x) * f.x + (sole.z - m->pos.z) * f.z;
    return akv_scale(f, (m->step_scale - 1.0f) * along);
}

/* This frame's placement shift of each foot (the walker's rule, plus the cancel part of
 * cancel_offset): held in stance, in a swing toward a known landing a glide
 * (ak_foot_place_glide) from where the stance left it to the decided target; whether its toe
 * ray looks at the landing (halfway to three quarters through that swing, not yet landing). */
/* Foot s's placement shift at swing phase u gliding to `to` (ak_foot_place_glide, the walker's
 * rule: from where its stance left it, over the second half of the swing). A glide whose end
 * is set (a decision, or a change of it) once it is under way goes on from where the foot is
 * over what is left of it: taken at the phase alone, it jumped there. A swing a jump entered at
 * phase 0.70 (CMU 07_04 at 60 fps in cm, the held-out trial's slow60cm, up the CLI's stairs,
 * frame 343) had its landing decided the frame after, and its shift moved 8.1 cm in that frame
 * with the foot: the toe passed a riser's face 15 cm on in one frame, before its look ahead (two
 * frames of its pace) had seen it, 18.8 mm under the tread above. */
static ak_vec3 place_glide(ak_matcher *m, int s, ak_vec3 to, float u)
{
    const float g = glide_part(u);
    if (to.x != m->place_to[s].x || to.z != m->place_to[s].z) {
        m->place_to[s] = to;
        if (g > 0.0f && g < 1.0f) {
            m->place_from[s] = m->place_shift[s];
            m->place_g0[s] = g;
        }
    }
    const float g0 = m->place_g0[s];
    const float w = g0 < 1.0f ? akf_clamp((g - g0) / (1.0f - g0), 0.0f, 1.0f) : 1.0f;
    return akv_lerp(m->place_from[s], m->place_to[s], w);
}

/* Foot s's held offset after a change dS of the step scale (the walker's rule,
 * akw_held_offset): a foot the frame has down (planted, released, a landing held back: the
 * frame's foot, which a release fades onto, must not move with the scale either: a released
 * heel slid 0.1 m more, back over a riser, as the scale went from 0.66 to 1) holds its heel's
 * place; a swing toward a known landing holds it from halfway (the frame's landing, in the
 * shorter stride's scale 1).
 * A foot sheds the offset it lifted off with over the first half of its swing (the walker's
 * rule); a swing the matcher enters past halfway (a jump, or a range ending early in the swing)
 * hands what is left to the cancel part, which glides it out by the landing (cancel_offset).
 * Kept, it rode from landing to landing: CMU 07_04 at 60 fps in cm up the stairs kept a 0.22 m
 * shift back from a tread, where the scale rose to 1, for 9 s onto the flat top (its left swings
 * played from halfway on), landed the left foot out of its leg's reach from 13 s on and, held
 * back, never set it down after the stop: 7.8 cm up until the 60 s limit.
 * At the stop a foot not planted keeps it (stop_shifts). */
static void held_offset(ak_matcher *m, int s, int known, float u, float dS)
{
    ak_vec3 f = ak_vec3_make(0, 0, 0), rel = ak_vec3_make(0, 0, 0);
    const float phase = known ? u : 0.0f;
    const int down = m->stance[s] || (!m->standing && m->db->contact[2 * m->frame + s]);
    const ak_vec3 h = m->held[s], lift = m->held_lift[s];
    if (m->standing && !m->stance[s]) return;
    if (!down && phase >= 0.5f && (lift.x != 0.0f || lift.z != 0.0f)) {
        m->cancel[s] = akv_add(m->cancel[s], h);
        m->held[s] = m->held_lift[s] = ak_vec3_make(0, 0, 0);
    }
    if ((down || phase >= 0.5f) && dS != 0.0f) {
        f = ak_vec3_make(sinf(m->heading), 0.0f, cosf(m->heading));
        if (down) {
            const ak_vec3 heel = ak_foot_ik_sole(&m->fik, m->world, s);
            rel = ak_vec3_make(heel.x - m->pos.x, 0.0f, heel.z - m->pos.z);
        } else {
            rel = akq_rotate(ak_quat_yaw(m->heading), m->db->land_rel[2 * m->frame + s]);
        }
    }
    akw_held_offset(&m->held[s], &m->held_lift[s], down, phase, dS, f, rel);
}

/* m: how near the tread's height a released foot stepping up lifts its toe before it moves on
 * (the grounding lifts it onto the tread's height, not above). */
#define AK_STEP_ON 0.002f

/* A released foot fades onto the frame's foot along the ground it stood on (the lock's fade,
 * at lock_release_rate); where the frame has that foot a riser up (step_ground), the foot first
 * lifts in place (the hold, added to its shift, keeps the shown toe where it is while its toe
 * ray, which looks at the frame's toe, lifts it over the tread: the grounding's clear_ground)
 * and moves on once its toe is within AK_STEP_ON of that tread's height, the hold gliding out at
 * AK_CANCEL_SPEED. A slow walk at 30 fps up stairs: a jump put the left foot's frame 0.28 m
 * ahead on the tread above while that foot stood on its toe at the riser; faded along the
 * tread below, the toe went 129 mm into the riser. Ends when the frame lifts the foot. */
static void step_up_hold(ak_matcher *m, int s)
{
    if (m->stepping[s] &&
        (!m->released[s] || m->stance[s] || m->fst.toe[s].y >= m->step_ground[s] - AK_STEP_ON))
        m->stepping[s] = 0;
    if (m->stepping[s]) {
        const ak_vec3 toe = ak_foot_ik_toe(&m->fik, m->world, s);
        m->step_hold[s] = ak_vec3_make(m->fst.toe[s].x - toe.x - m->fst.shift[s].x, 0.0f,
                                       m->fst.toe[s].z - toe.z - m->fst.shift[s].z);
    } else {
        const float len = akv_len(m->step_hold[s]), most = AK_CANCEL_SPEED * m->dt;
        m->step_hold[s] =
            len > most ? akv_scale(m->step_hold[s], 1.0f - most / len) : ak_vec3_make(0, 0, 0);
    }
    m->fst.shift[s] = akv_add(m->fst.shift[s], m->step_hold[s]);
}

/* Foot s must move while the frame has it down (released from its lock, or at the stop a landing
 * that waits while its point still moves): it steps (ak_restep) from where it was shown, unless
 * it steps up a riser already (step_up_hold) or is stepping. */
static void restep_start(ak_matcher *m, int s)
{
    if (!m->p.foot_ik || !m->initialized || m->stepping[s] || m->rs[s].step.on) return;
    m->rs[s].due = 1;
}

/* Whether the playing frame lifts foot s (a stance it has down ends, in its range) before a
 * re-step under way could land and plant it (its time left plus the planting's fade-in): the
 * foot waits up and goes on into the frame's swing instead of coming down on a foot that is
 * pushing off. A foot released near the end of its stance (CMU subject 2, a jump leaving the
 * left foot 0.1 m from its lock at toe-off) stepped onto the frame's toe 2-3 frames before the
 * frame lifted it, and that toe slid on along the ground with the frame's push-off at
 * 0.33-1.08 m/s. */
static int lifts_first(const ak_matcher *m, int s)
{
    const ak_motion_db *db = m->db;
    const int32_t last = range_last(db, m->frame);
    if (!db->contact[2 * m->frame + s]) return 0;
    const float wait = ak_restep_left(&m->rs[s].step) + 2.0f / m->fik.stance_fade_rate;
    const float step = db->frame_time / (m->rate > 0.1f ? m->rate : 0.1f);
    float t = (1.0f - m->frac) * step;
    for (int32_t f = m->frame + 1; f <= last && t <= wait; ++f, t += step)
        if (!db->contact[2 * f + s]) return 1;
    return 0;
}

/* The stand frame's own heel (toe: the toe) of foot s as the grounding lays it flat on its floor
 * (in place, without the offsets a transition left; FK of its pose once, the stand frame is the
 * database's): the heel point under the ankle, the toe the flat foot's length on along the
 * foot's heading. A frame's foot on its toes has its heel point behind the ankle (CMU 09_02 at
 * 24 fps: 9 cm); a step to it put the laid foot's ankle there, 9 cm farther from the hips, out
 * of the leg's reach once the hips settled. */
static ak_vec3 stand_point(ak_matcher *m, int s, int toe)
{
    if (!m->stand_known) {
        ak_motion_db_pose(m->db, m->db->stand_frame, m->own_local);
        ak_fk(m->db->skeleton, m->own_local, m->own_world);
        for (int k = 0; k < 2; ++k) {
            const ak_foot_ik_leg *l = &m->fik.legs[k];
            const ak_vec3 sole = ak_foot_ik_sole(&m->fik, m->own_world, k);
            ak_vec3 heel = sole, tip = ak_foot_ik_toe(&m->fik, m->own_world, k);
            if (l->foot >= 0) {
                const ak_xform f = m->own_world[l->foot];
                heel = ak_vec3_make(f.translation.x, sole.y, f.translation.z);
                if (l->has_toe) {
                    /* the flat foot's heel-to-toe, its part across the foot's up axis */
                    const ak_vec3 v = akv_add(l->toe_local, akv_scale(l->up_local, l->sole_height));
                    const ak_vec3 w = akv_sub(v, akv_scale(l->up_local, akv_dot(v, l->up_local)));
                    const ak_vec3 d = akq_rotate(f.rotation, w);
                    const float dh = sqrtf(d.x * d.x + d.z * d.z), len = akv_len(w);
                    if (dh > 1e-6f)
                        tip = ak_vec3_make(heel.x + d.x * len / dh, tip.y, heel.z + d.z * len / dh);
                } else {
                    tip = heel;
                }
            }
            m->stand_pt[k][0] = heel;
            m->stand_pt[k][1] = tip;
        }
        m->stand_known = 1;
    }
    return m->stand_pt[s][toe != 0];
}

/* m: the coast's travel left under which the stop's rest point is where the character stands,
 * and how far from it a step of the stop may have landed a foot its leg does not reach before it
 * steps there again (a landing whose hips are still coming down is out of reach for a frame or
 * two where it should be) */
#define AK_STOP_SETTLED 0.005f
#define AK_STOP_MISSED  0.015f

/* Where the stand frame puts foot s's heel once the stop's coast has come to rest (world, x,z:
 * the coast's rest point, the stand frame's own pose without the offsets a transition left and
 * the shift's part that cancels them, cancel_offset, which die away by then; stop_shifts drops
 * the rest of a stepping foot's shift; the full stride: standing, the step scale goes back to
 * 1, step_goal_of), facing where the heading-rate offset's decay turns it (its integral, as the
 * coast's: a run's stop turned 2.8 degrees after arrival, its wide stand frame's back foot 3.5 cm
 * on, and the foot landed there was out of reach): the stop's re-steps land there. Before, a step
 * went to where the frame showed the foot each frame, which the coast and the dying offsets carried
 * along at 2-9 m/s, and the foot waited at the top of its step, carried with it, until it slowed
 * (CMU subject 2's stop: 43 mm up at 7.3 m/s; the library's 8.5 m/s). */
static ak_vec3 stop_rest_heel(ak_matcher *m, int s)
{
    const ak_vec3 own = stand_point(m, s, 0);
    const float y = aks_spring_omega(0.5f * m->p.stop_time);
    const float heading = m->heading + 2.0f * m->turn_x / y + m->turn_v / (y * y);
    const ak_vec3 at = akv_add(coast_rest(m), akq_rotate(ak_quat_yaw(heading), own));
    return ak_vec3_make(at.x, 0.0f, at.z);
}

/* How far foot s (where it was shown) is from where the stand frame has it at rest. */
static float stop_step_length(ak_matcher *m, int s)
{
    const ak_vec3 to = stop_rest_heel(m, s);
    const float dx = to.x - m->fst.sole[s].x, dz = to.z - m->fst.sole[s].z;
    return sqrtf(dx * dx + dz * dz);
}

/* How far foot s (where it was shown) is from where the coasting root comes to rest (x,z). */
static float from_rest(const ak_matcher *m, int s)
{
    const ak_vec3 rest = coast_rest(m);
    const float dx = rest.x - m->fst.sole[s].x, dz = rest.z - m->fst.sole[s].z;
    return sqrtf(dx * dx + dz * dz);
}

/* Whether the stop's rest point moved foot s's place more than AK_STOP_MISSED from where its
 * step of the stop landed it (rs.step.to). */
static int stop_missed(ak_matcher *m, int s)
{
    const ak_vec3 to = stop_rest_heel(m, s), was = m->rs[s].step.to;
    const float dx = to.x - was.x, dz = to.z - was.z;
    return dx * dx + dz * dz > AK_STOP_MISSED * AK_STOP_MISSED;
}

/* Whether foot k stands on the ground: planted, or its heel or toe shown last frame within
 * AK_WALK_SKATE_HEIGHT of the ground under it. */
static int bears(const ak_matcher *m, int k)
{
    if (m->stance[k]) return 1;
    return touches(m, k);
}

/* Whether foot k's heel or toe was shown last frame within AK_WALK_SKATE_HEIGHT of the ground
 * under it (planted or not: a planted foot the grounding lifted out of reach does not). */
static int touches(const ak_matcher *m, int k)
{
    return (isfinite(m->sole_ground[k]) &&
            m->fst.sole[k].y - m->sole_ground[k] <= AK_WALK_SKATE_HEIGHT) ||
           (isfinite(m->toe_ground[k]) &&
            m->fst.toe[k].y - m->toe_ground[k] <= AK_WALK_SKATE_HEIGHT);
}

/* Whether the stop's re-step of foot s, not lifted yet, waits where it stands (planted, its lock
 * held: update_stance): the other foot is in the air (stepping, or swinging in not yet down), and
 * a person stops on one foot at a time. Both waiting off the ground, the left goes first. Both
 * feet stepping at once hopped: CMU subject 2's stop, both feet 30-50 mm up for 15-25 frames at
 * 120 Hz while the stand frame had them down. */
static int restep_waits(ak_matcher *m, int s)
{
    const int o = 1 - s;
    const ak_restep *me = &m->rs[s].step, *other = &m->rs[o].step;
    if (!m->standing || !(me->on || m->rs[s].due) || (me->on && me->u > 0.0f)) return 0;
    /* a foot in the air when the stop began, the other not down either, lands now */
    if (m->rs[s].land_at > m->time && !bears(m, s) && !bears(m, o)) return 0;
    /* the other lifts (or, decided before this one this frame, is about to) */
    if (other->on && (other->u > 0.0f || (o < s && !m->rs[o].waits))) return 1;
    const int pending = (other->on && other->u <= 0.0f) || m->rs[o].due;
    if (bears(m, o)) {
        /* both about to step from the ground: the one the coast leaves behind goes first, the
         * one farther from where the root comes to rest (its leg runs out of reach while it
         * waits; by the length of the steps, the library's stop up the stairs kept the foot
         * behind waiting 0.79 m from where the root came to rest, the other's step 36 mm
         * longer: rolled up onto its toe and lifted off, both feet up 12 frames) */
        if (!pending || !bears(m, s) || o < s) return 0;
        return from_rest(m, o) > from_rest(m, s);
    }
    return !(s == 0 && pending && !bears(m, s));
}

/* Seconds (up to `horizon`) until the coast carries leg k's hip farther from its planted foot's
 * lock than the leg reaches (thigh and shin, and the foot to its toe for a lock on the toe, 0.999
 * of them: the grounding's own reach, ak_foot_ik_state.due_drop), or than it is already;
 * `horizon` if it stays within or foot k is not planted. The hip moves with the coast, the
 * critically damped velocity offset: x(t) = x0 (1 - e) / w + c (1 / w^2 - e (t / w + 1 / w^2)),
 * e = exp(-w t), c = v0 + w x0. */
static float reach_left(const ak_matcher *m, int k, float horizon)
{
    if (!m->stance[k] || m->fst.lock_weight[k] < 1.0f || !(m->dt > 0.0f)) return horizon;
    const ak_foot_ik_leg *l = &m->fik.legs[k];
    const ak_skeleton *sk = m->db->skeleton;
    if (l->upper < 0 || l->lower < 0 || l->foot < 0) return horizon;
    const float toe = m->fst.lock_toe[k] && l->has_toe ? akv_len(l->toe_local) : 0.0f;
    const float leg = 0.999f * (sk->bone_lengths[l->lower] + sk->bone_lengths[l->foot] + toe);
    const ak_vec3 hip = m->world[l->upper].translation, lock = m->fst.lock_point[k];
    const float dy = hip.y - lock.y;
    const float most2 = akf_max(leg * leg - dy * dy, (hip.x - lock.x) * (hip.x - lock.x) +
                                                         (hip.z - lock.z) * (hip.z - lock.z));
    const float w = aks_spring_omega(0.5f * m->p.stop_time), ww = 1.0f / (w * w);
    const ak_vec3 x0 = m->vel_x, c = akv_add(m->vel_v, akv_scale(m->vel_x, w));
    for (int32_t i = 1; (float)i * m->dt < horizon; ++i) {
        const float t = (float)i * m->dt;
        const float e = expf(-w * t), a = (1.0f - e) / w, b = ww - e * (t / w + ww);
        const float x = hip.x + x0.x * a + c.x * b - lock.x;
        const float z = hip.z + x0.z * a + c.z * b - lock.z;
        if (x * x + z * z > most2) return t - m->dt;
    }
    return horizon;
}

/* A step of the stop (lifting now, or one the walk began, fixed now) lands before the coast
 * carries the body out of the reach of the other foot, planted (reach_left), and carries its foot
 * no faster than the database's own feet move (ak_restep_shortest over what is left of it). */
static void stop_step_time(ak_matcher *m, int s)
{
    ak_restep *r = &m->rs[s].step;
    if (!(m->foot_speed > 0.0f) || !(r->u < 1.0f)) return;
    const float left = (1.0f - r->u) * r->duration;
    const float len = hypotf(r->to.x - r->from.x, r->to.z - r->from.z);
    const float most = akf_max(reach_left(m, 1 - s, left), ak_restep_shortest(len, m->foot_speed));
    if (most < left) r->duration = most / (1.0f - r->u);
}

/* Whether foot s, whose step of the stop begins now, lifts off its toe: the grounding still
 * rolls it over its toe (its pivot) and its lock on that toe still holds it (fading out, or
 * planted). A foot in the air keeps the pivot it left the ground with, but it is not lifting off:
 * a run stopping in flight (CMU 09_01 at 24 fps, its left foot 470 mm up, the toe lock long gone)
 * kept that foot rolled 0.1 s longer, and with it out of the planned hips' landing (stance_next),
 * the hips rose and the foot still planted lost its toe 2 frames sooner (walk_physics.h's
 * support: both feet up 11 -> 13 frames). */
static int lifts_off_toe(const ak_matcher *m, int s)
{
    return m->fst.pivot_weight[s] > 0.0f && m->fst.lock_toe[s] && m->fst.lock_weight[s] > 0.0f;
}

/* Foot s's re-step this frame (after the placement, m->world placed): where the foot would be
 * without it (its heel, the placement's shift in fst.shift) is the step's end point, at the stop
 * where the stand frame has that heel at rest (stop_rest_heel, fixed for the step); a step due
 * begins from where the foot was shown (its duration and height from the distance), one under
 * way goes on (at the stop, not lifting while the other foot is in the air: restep_waits;
 * walking, waiting up while the frame lifts the foot first: lifts_first); its hold joins the
 * shift. A foot turned toe-up against a riser
 * (toe_up) begins from where its heel is with the foot flat and its toe where it was: from its
 * heel, the foot flattened as its lock faded and swept the toe forward into the riser (CMU 02_01
 * at 30 fps up the stairs from (-6,0): a jump released the right foot, 57.7 mm). Walking, a foot
 * whose lock holds its toe (it stands on it: a push-off released out of reach, a jump's unlock)
 * steps from its toe: the step's start and end points are the toe's, so the toe stays where it
 * stands until the foot is up while the fading lock turns the foot about it to the frame's pitch.
 * Stepping from its heel, the toe swept forward as it lifted: CMU subject 7 on flat ground, the
 * right toe at frame 524, 13 mm up, 0.59 m/s (walk_physics.h's hover; the database's worst skate
 * 0.45 m/s); from its toe 0.41 m/s, what the lock's fade still moves it in that frame. */
static void restep_hold(ak_matcher *m, int s)
{
    const ak_vec3 heel = ak_foot_ik_sole(&m->fik, m->world, s);
    const int with_toe = m->rs[s].due || m->rs[s].toe; /* the toe is needed (a step's start) */
    const ak_vec3 toe_now = with_toe ? ak_foot_ik_toe(&m->fik, m->world, s) : heel;
    if (m->rs[s].due)
        m->rs[s].toe = !m->standing && m->fik.legs[s].has_toe && m->fst.lock_toe[s] &&
                       m->fst.lock_weight[s] > 0.0f;
    if (m->rs[s].toe && m->standing) { /* the stop steps heels: the same step, from the heel */
        m->rs[s].step.from.x -= toe_now.x - heel.x;
        m->rs[s].step.from.z -= toe_now.z - heel.z;
        m->rs[s].toe = 0;
    }
    const int on_toe = m->rs[s].toe;
    const ak_vec3 pt = on_toe ? toe_now : heel;
    const ak_vec3 at = akv_add(pt, ak_vec3_make(m->fst.shift[s].x, 0.0f, m->fst.shift[s].z));
    if (m->rs[s].due) {
        m->rs[s].due = 0;
        ak_vec3 from = on_toe ? m->fst.toe[s] : m->fst.sole[s];
        if (m->toe_up[s] && !on_toe) { /* its toe stays: the heel's place with the foot flat */
            from.x = m->fst.toe[s].x - (toe_now.x - heel.x);
            from.z = m->fst.toe[s].z - (toe_now.z - heel.z);
        }
        if (m->standing) {
            ak_restep_begin_to(&m->rs[s].step, from, stop_rest_heel(m, s));
            m->rs[s].rolled = lifts_off_toe(m, s);
            /* a foot in the air when the stop began lands when its run would have landed it */
            const float left = (float)(m->rs[s].land_at - m->time);
            m->rs[s].flight = left > 0.0f && !bears(m, s);
            if (m->rs[s].flight) m->rs[s].step.duration = akf_max(left, 2.0f * m->dt);
            m->rs[s].land_at = 0.0;
        } else {
            const float dx = at.x - from.x, dz = at.z - from.z;
            ak_restep_begin(&m->rs[s].step, from, sqrtf(dx * dx + dz * dz));
        }
    } else if (m->rs[s].step.on && m->standing) {
        /* a step the walk began lands where the stand frame has the foot at rest */
        if (!m->rs[s].step.fixed) {
            ak_restep_fix(&m->rs[s].step, at, stop_rest_heel(m, s));
            m->rs[s].rolled = lifts_off_toe(m, s);
            stop_step_time(m, s);
        }
        /* one waiting planted (restep_waits) lifts from where its lock has it (rolled over its
         * toe as the body coasted on, its heel went on 5 cm: from where it was, its toe slid
         * back along the ground as it lifted) */
        if (m->rs[s].waits && m->stance[s] && m->rs[s].step.u <= 0.0f)
            m->rs[s].step.from = m->fst.sole[s];
        if (m->rs[s].waits && m->rs[s].flight && bears(m, s)) m->rs[s].flight = 2;
        /* one lifting now lands before the coast carries the body out of the reach of the other,
         * planted, and carries its foot no faster than the database's own feet move; one the
         * run's landing timed that came down and waited lifts as a step of its own length (with
         * the run's 0.133 s, CMU 09_02 at 24 fps down the stairs from (-5.4,0) stepped its left
         * foot 0.62 m back at 5-11 m/s, 17-50 mm over the ground: hover at the stop) */
        if (!m->rs[s].waits && m->rs[s].step.u <= 0.0f) {
            if (m->rs[s].flight == 2)
                ak_restep_begin_to(&m->rs[s].step, m->rs[s].step.from, m->rs[s].step.to);
            m->rs[s].flight = 0;
            stop_step_time(m, s);
        }
        ak_restep_advance(&m->rs[s].step, m->rs[s].waits ? 0.0f : m->dt, 0);
        if (!m->rs[s].step.on && m->rs[s].step.fixed) { /* landed: held where it landed */
            m->rs[s].placed = 1;
            m->touch[s].on = 1;
            m->touch[s].toe = 0;
            m->touch[s].at = ak_vec3_make(m->rs[s].step.to.x, m->fst.sole[s].y, m->rs[s].step.to.z);
        }
    } else if (m->rs[s].step.on) {
        ak_restep_advance(&m->rs[s].step, m->dt, lifts_first(m, s));
    }
    m->rs[s].hold = ak_restep_hold(&m->rs[s].step, at);
    m->fst.shift[s] = akv_add(m->fst.shift[s], m->rs[s].hold);
}

/* Where foot s's animated point (its toe, else its heel), shift included, must be for the
 * grounding to show that point at `at` (x, z): foot IK pulls a foot not planted toward its last
 * stance's lock while that fades (by the lock's weight after this frame's fade, the whole foot
 * with the lock's point: ak_foot_ik_query_points, leg_target), and a lock taken as a stance
 * begins blends the one still fading in by its weight (leg_weights_and_lock). A point held
 * where it was shown, itself pulled, was pulled a second time: CMU 02_01 alone up the CLI's
 * stairs, a jump 5 frames before the right foot landed left its last lock at weight 0.33, and
 * the landing heel went 4.6 cm back toward it in the frame its stance began (2.78 m/s, the
 * walk's worst skate; the database's 0.32). */
static ak_vec3 lock_unpulled(const ak_matcher *m, int s, int toe, ak_vec3 at)
{
    const ak_foot_ik_state *st = &m->fst;
    const int starts = m->stance[s] && !st->was_stance[s];
    if (!m->initialized || (m->stance[s] && !starts)) return at;
    float w = st->lock_weight[s];
    ak_vec3 lock = st->lock_point[s];
    if (starts) { /* the new lock's point blends the old one's, or where that point was shown */
        if (m->standing && !toe) return at; /* (standing, a heel's lock starts where shown) */
        if (st->lock_toe[s] != toe) lock = toe ? st->toe[s] : st->sole[s];
    } else { /* the pull moves the lock's point; the point held goes with the foot */
        w = akf_max(w - m->fik.lock_release_rate * m->dt, 0.0f);
        if (st->lock_toe[s] != toe && m->fik.legs[s].has_toe) {
            const ak_vec3 d = akv_sub(ak_foot_ik_toe(&m->fik, m->world, s),
                                      ak_foot_ik_sole(&m->fik, m->world, s));
            lock = toe ? akv_add(lock, d) : akv_sub(lock, d);
        }
    }
    if (!(w > 0.0f) || !(w < 1.0f)) return at;
    const float k = w / (1.0f - w); /* at = a + (lock - a) w, for a */
    return ak_vec3_make(at.x + (at.x - lock.x) * k, at.y, at.z + (at.z - lock.z) * k);
}

/* A foot whose frame has its heel down but shown toe-first (its toe within
 * AK_WALK_SKATE_HEIGHT of its ground, its heel above it, both on one tread) is held at its toe
 * until its heel comes down (touchdown_hold), and foot IK turns it flat about that toe
 * (ak_matcher.toe_held, footik.c turn_about_held_toe). A jump 8 frames before a heel-first landing
 * (CMU 02_01 at 30 fps mirrored, database frames 75 -> 96) left the foot pitched toe-down by its
 * offset: the toe lay on the ground and slid 0.25-0.83 m/s while the heel came down 87 mm
 * (database's bound 0.14). Held, but laid flat about its heel point, the toe still went on 2-3
 * mm a frame while the heel dropped its last 12-26 mm (0.15-0.23 m/s); turned about it, 0. */
static int toe_lands_first(const ak_matcher *m, int s, const touch_foot *t)
{
    const float heel = m->fst.sole[s].y - m->sole_ground[s];
    const float toe = m->fst.toe[s].y - m->toe_ground[s];
    if (t->on && !t->toe) return 0; /* the heel is held: it stays held */
    return !(heel <= AK_WALK_SKATE_HEIGHT) && toe <= AK_WALK_SKATE_HEIGHT &&
           fabsf(m->sole_ground[s] - m->toe_ground[s]) < AK_FLOOR_STEP_MIN;
}

/* Foot s as the frame has it down but not planted yet (its stance waits: the stance gate, the
 * planting's fade-in, update_stance; at the stop the stand frame has both feet down) stays where
 * it stands on the ground: from the first frame its point (the heel, or the toe for a toe-only
 * contact) was shown within AK_WALK_SKATE_HEIGHT of its ground last frame, the hold (added to its
 * shift) keeps that point there, up to the frame its stance begins, whose lock starts there; a
 * foot held at its toe turns about it in foot IK (ak_matcher.toe_held): turned about its heel
 * point as the frame lifted the heel, a toe-only contact's toe held 4 mm up went on 6.3 mm in a
 * frame (CMU 02_01 at 30 fps mirrored on flat, frame 94: 0.39 m/s against the database's 0.13).
 * Without it the foot slid on with the frame's foot over the 3-4 frames of the fade-in (the
 * transition's velocity offset and orientation warping carry the frame's planted foot along:
 * CMU subject 2's start, the right heel 1.0-1.1 m/s; its landings after a jump 0.1-0.6 m/s,
 * 8-12 mm/s of the walks' mean skate), and at the stop with the coast that carries the stand
 * frame (subject 7 on stairs 0.8-1.3 m/s, subject 9's runs 5-7 mm/s of their mean). Once
 * planted, the lock holds it and the hold goes. A foot stepping (a re-step until it has carried
 * the foot over, a release, a step up) is held by its step: no hold. One the frame lifts glides
 * out at AK_CANCEL_SPEED. A landing held back out of reach is not held: its leg does not reach
 * the point, and the solve pulled the foot 3 cm off it in a frame (it is kept off the ground
 * instead, AK_HELD_CLEAR). */
static void touchdown_hold(ak_matcher *m, int s)
{
    touch_foot *t = &m->touch[s];
    const int32_t own =
        m->standing ? AK_CONTACT_HEEL | AK_CONTACT_TOE : m->db->contact[2 * m->frame + s];
    const int planted = m->stance[s] && m->fst.was_stance[s]; /* its lock holds it */
    const int steps = m->rs[s].step.on ? !ak_restep_carried(&m->rs[s].step)
                                       : m->released[s] || m->rs[s].due || m->stepping[s];
    const int waits = own && !planted && !steps && !m->held_back[s] && m->initialized;
    const int toe =
        (!(own & AK_CONTACT_HEEL) || toe_lands_first(m, s, t)) && m->fik.legs[s].has_toe;
    const ak_vec3 shown = toe ? m->fst.toe[s] : m->fst.sole[s];
    const float ground = toe ? m->toe_ground[s] : m->sole_ground[s];
    if (!waits) {
        t->on = 0;
    } else if (t->on ? t->toe != toe
                     : isfinite(ground) && shown.y - ground <= AK_WALK_SKATE_HEIGHT) {
        /* holding begins, or goes over to the other point (a heel lifting: the toe) */
        t->on = 1;
        t->toe = toe;
        t->at = shown;
    }
    if (t->on) {
        const ak_vec3 p =
            toe ? ak_foot_ik_toe(&m->fik, m->world, s) : ak_foot_ik_sole(&m->fik, m->world, s);
        const ak_vec3 at = lock_unpulled(m, s, toe, t->at);
        t->hold =
            ak_vec3_make(at.x - p.x - m->fst.shift[s].x, 0.0f, at.z - p.z - m->fst.shift[s].z);
    } else if (steps || planted) {
        t->hold = ak_vec3_make(0, 0, 0);
    } else {
        const float len = akv_len(t->hold), most = AK_CANCEL_SPEED * m->dt;
        t->hold = len > most ? akv_scale(t->hold, 1.0f - most / len) : ak_vec3_make(0, 0, 0);
    }
    m->fst.shift[s] = akv_add(m->fst.shift[s], t->hold);
    m->toe_held[s] = t->on && toe;
}

/* At the stop the stand frame puts a foot not planted: what the walk left on it goes, its held
 * offset and its placement shift (the last swing's landing, decided off a stair edge), and it
 * steps there (restep_start; one already stepping keeps them until it lands). The held offset
 * once went back to the one its last stance left (the swing's start, phase 0): a 5 cm jump in a
 * frame. The placement shift stayed: CMU 09_02 at 30 fps on the stairs from (-5.6,0), its right
 * foot rolled at the stop and stepping anew, landed 0.17 m back off where the stand frame had it,
 * out of its leg's reach (the planned hips come down for a landing as the frame has it,
 * ak_foot_ik_state.due_drop's unshifted part), held back 3.8 cm up until the 60 s limit. */
static void stop_shifts(ak_matcher *m, int s)
{
    const ak_vec3 h = m->held[s], ps = m->place_shift[s];
    if ((h.x == 0.0f && h.z == 0.0f && ps.x == 0.0f && ps.z == 0.0f) || !m->p.foot_ik ||
        !m->initialized || m->stepping[s] || m->rs[s].step.on)
        return;
    m->held[s] = m->held_lift[s] = m->place_shift[s] = m->place_from[s] = ak_vec3_make(0, 0, 0);
    m->place_to[s] = ak_vec3_make(0, 0, 0);
    m->place_g0[s] = 0.0f;
    restep_start(m, s);
}

static void placement_shift(ak_matcher *m)
{
    const float dS = m->step_scale - m->placed_scale;
    m->placed_scale = m->step_scale;
    for (int s = 0; s < 2; ++s) {
        m->toe_at_land[s] = 0;
        const int known = landing_known(m, s);
        const float u = known ? m->db->swing_phase[2 * m->frame + s] : 0.0f;
        cancel_offset(m, s, known, u);
        if (m->stance[s]) {
            m->place_from[s] = m->place_to[s] = m->place_shift[s];
            m->place_decided[s] = 0;
            m->place_g0[s] = 0.0f;
        }
        if (known) {
            const ak_vec3 to = m->place_decided[s] ? m->place_target[s] : m->place_from[s];
            m->place_shift[s] = place_glide(m, s, to, u);
            /* A decision without an edge stands (the walker's rule): the toe ray goes back
             * under the toe at once, where the grounding keeps a swinging toe above the
             * ground. */
            const int open = !m->place_decided[s] || m->place_target[s].x != 0.0f ||
                             m->place_target[s].z != 0.0f;
            m->toe_at_land[s] =
                m->fik.legs[s].has_toe && open && u >= 0.5f && u <= 0.75f && !contact_ahead(m, s);
        }
        held_offset(m, s, known, u, dS);
        if (m->standing && !m->stance[s]) stop_shifts(m, s);
        m->fst.shift[s] = akv_add(akv_add(m->place_shift[s], m->cancel[s]), m->held[s]);
        if (m->step_scale != 1.0f) m->fst.shift[s] = akv_add(m->fst.shift[s], gait_shift(m, s));
        step_up_hold(m, s);
        restep_hold(m, s);
        touchdown_hold(m, s);
    }
    m->cancel_rebase = m->landing_jump[0] = m->landing_jump[1] = 0;
}

/* Where this frame's solve puts the heel and toe of a foot not planted whose stance lock still
 * holds it partly (the lock fades at lock_release_rate once its stance, or a release, ends):
 * the query points of the state with this frame's fade done (ak_foot_ik_query_points reads last
 * frame's weight: a released foot fading 0.22 m onto a jump's frame passed its rays by 2-3 cm a
 * frame, over a tread's edge). A lock on the toe (the foot lifted off it) pulls the toe, and the
 * solve turns the foot about it, so the heel goes with the toe, not where it is animated (the
 * query point): cast under the animated heel, 0.1 m on, the ray found the tread below past an
 * edge the solved heel had not reached, and the heel went into the tread it was still over (a run
 * at 24 fps down stairs: 39 mm; a slow walk at 60 fps: 71 mm). */
static void fade_query(ak_matcher *m, ak_vec3 q[2], ak_vec3 qt[2])
{
    const float fade = m->initialized ? m->fik.lock_release_rate * m->dt : 0.0f;
    int any = 0;
    for (int s = 0; s < 2; ++s)
        any |= !m->stance[s] && m->fst.lock_weight[s] > 0.0f && fade > 0.0f;
    if (!any) return;
    ak_foot_ik_state st = m->fst;
    for (int s = 0; s < 2; ++s) {
        st.lock_weight[s] =
            m->stance[s] ? st.lock_weight[s] : akf_max(st.lock_weight[s] - fade, 0.0f);
        st.was_stance[s] = m->stance[s] ? st.was_stance[s] : 0;
    }
    ak_vec3 fq[2], fqt[2];
    ak_foot_ik_query_points(&m->fik, &st, m->world, fq, fqt);
    for (int s = 0; s < 2; ++s) {
        if (m->stance[s]) continue;
        if (st.lock_toe[s] && st.lock_weight[s] > 0.0f && m->fik.legs[s].has_toe) {
            const ak_vec3 toe = ak_foot_ik_toe(&m->fik, m->world, s);
            fq[s].x += fqt[s].x - (toe.x + m->fst.shift[s].x);
            fq[s].z += fqt[s].z - (toe.z + m->fst.shift[s].z);
        }
        q[s] = fq[s];
        qt[s] = fqt[s];
    }
}

/* Whether planted foot s's held point (the toe while it rolls, else the heel), where the
 * frame has it now (moved by the placement), is more than half the unlock distance from its
 * lock: a release may come (update_stance), so its spare ray looks under where the frame has
 * the heel (release_crosses_riser). */
static int release_near(const ak_matcher *m, int s)
{
    if (!m->stance[s] || m->fst.lock_weight[s] < 1.0f) return 0;
    const ak_vec3 held = m->fst.lock_toe[s] ? ak_foot_ik_toe(&m->fik, m->world, s)
                                            : ak_foot_ik_sole(&m->fik, m->world, s);
    const float dx = held.x + m->fst.shift[s].x - m->fst.lock_point[s].x;
    const float dz = held.z + m->fst.shift[s].z - m->fst.lock_point[s].z;
    return dx * dx + dz * dz > 0.25f * m->p.unlock_distance * m->p.unlock_distance;
}

/* Frames of a swinging toe's pace its spare ray looks ahead, and the most one frame's pace
 * counts (m): a toe meeting a riser (ground rising AK_FLOOR_STEP_MIN or more between treads)
 * climbs at swing_height_rate (the grounding's clear_ground), 3.3 cm a frame at 60 fps, so a
 * riser seen two frames early is cleared by 6.6 cm more. */
#define AK_AHEAD_FRAMES 2.0f
#define AK_AHEAD_MOST   0.15f

/* Where swinging foot s's toe (this frame's query point qt) will be AK_AHEAD_FRAMES frames on
 * at its pace since last frame; a released foot's, where its fade ends (the frame's toe:
 * its pace just after a planted frame is none, step_up_hold); 0 when it needs no look ahead
 * (planted, no toe, the first frame). A toe whose own ray looks at its landing (toe_at_land)
 * has no ray under it: one moving back (its placement gliding it back off an edge) is looked at
 * where it is, still over the tread it passed. A toe lifting off while its lock fades looks from
 * where the frame has it, when that is ahead of the query point, at the frame toe's pace: the
 * query point, pulled toward the lock, stays behind the toe the frame swings on, and the pace to
 * it pointed back over the toe's own tread (CMU 02_01 at 30 fps up the stairs from (-4.7,0): the
 * riser ahead met unseen, the toe climbing 3.3 cm a frame, 44.2 mm into it). */
static int toe_ahead(const ak_matcher *m, int s, ak_vec3 qt, ak_vec3 *at)
{
    if (!m->initialized || m->stance[s] || !m->fik.legs[s].has_toe) return 0;
    if (m->released[s]) { /* where its fade ends: the frame's toe (step_up_hold) */
        const ak_vec3 toe = ak_foot_ik_toe(&m->fik, m->world, s);
        const ak_vec3 sh = akv_sub(akv_sub(m->fst.shift[s], m->step_hold[s]), m->rs[s].hold);
        *at = ak_vec3_make(toe.x + sh.x, toe.y, toe.z + sh.z);
        return 1;
    }
    ak_vec3 d = akv_sub(qt, m->fst.toe[s]);
    d.y = 0.0f;
    if (m->fst.lock_weight[s] > 0.0f) {
        /* lifting off, its lock fading: the frame's toe (moved by the shift) leads, the query
         * point is pulled back toward the lock (fade_query) */
        const ak_vec3 toe = ak_foot_ik_toe(&m->fik, m->world, s);
        const ak_vec3 an = ak_vec3_make(toe.x + m->fst.shift[s].x, qt.y, toe.z + m->fst.shift[s].z);
        const ak_vec3 f = ak_vec3_make(sinf(m->heading), 0.0f, cosf(m->heading));
        if (akv_dot(akv_sub(an, qt), f) > 0.0f) qt = an;
        d = ak_vec3_make(an.x - m->fst.toe[s].x, 0.0f, an.z - m->fst.toe[s].z);
    }
    if (m->toe_at_land[s] && d.x * sinf(m->heading) + d.z * cosf(m->heading) < 0.0f)
        d = ak_vec3_make(0.0f, 0.0f, 0.0f);
    const float len = akv_len(d);
    if (len > AK_AHEAD_MOST) d = akv_scale(d, AK_AHEAD_MOST / len);
    *at = akv_add(qt, akv_scale(d, AK_AHEAD_FRAMES));
    return 1;
}

/* Where the landing rays no landing needs look: a planted foot's, under where the frame has
 * its heel while a release may come (release_near); the rest ahead of a swinging toe (toe_ahead):
 * its own when it knows no landing, else the planted foot's, else the last ray; a toe whose own
 * ray looks at its landing first (it has no other: with both feet swinging, the other foot's toe
 * took the last ray, and CMU 02_02's toe went on over a tread's edge as its placement glided it
 * back, 130 mm into the riser, on the straight route from (-4.5,0)). With the other foot's ray
 * taken (under a heel a release may move, or that foot released and looking ahead
 * itself) a swinging toe once had none: a slow walk at 30 fps up stairs, its left toe swinging
 * toward a landing whose toe (4 cm beyond the landing toe, looked at halfway) was on the tread,
 * went on 6 cm past it as a transition's offset decayed and met the riser unseen, 110 mm in. */
static void spare_rays(ak_matcher *m, const ak_vec3 qt[2])
{
    m->spare[2] = AK_SPARE_NONE;
    for (int s = 0; s < 2; ++s) {
        m->spare[s] = AK_SPARE_NONE;
        if (!release_near(m, s)) continue;
        const ak_vec3 heel = ak_foot_ik_sole(&m->fik, m->world, s);
        m->spare[s] = AK_SPARE_DEST;
        m->spare_foot[s] = s;
        m->spare_at[s] = akv_make(heel.x + m->fst.shift[s].x, heel.y, heel.z + m->fst.shift[s].z);
    }
    const int first = m->toe_at_land[1] && !m->toe_at_land[0];
    for (int i = 0; i < 2; ++i) {
        const int s = i ^ first;
        ak_vec3 at;
        if (!toe_ahead(m, s, qt[s], &at)) continue;
        int k = !landing_known(m, s) ? s : (m->stance[1 - s] ? 1 - s : -1);
        if (k < 0 || m->spare[k] != AK_SPARE_NONE) k = 2;
        if (m->spare[k] != AK_SPARE_NONE) continue;
        m->spare[k] = AK_SPARE_AHEAD;
        m->spare_foot[k] = s;
        m->spare_at[k] = at;
    }
}

/* How far behind a landing heel its landing ray looks, metres: the guide walker's
 * LAND_HEEL_MARGIN (walker.c), the margin ak_foot_place_decide then keeps past an edge going
 * down. Cast under the heel itself, the ray of CMU 09_02's heel landing 8 mm past a tread's
 * edge going down found the lower tread, the placement let it land there (2 mm past the edge),
 * and the heel, 3 cm above the upper tread a frame before, came down 18 cm in one frame with the
 * hips (-19.8 / +21.3 g against -1.58 / +2.89: the straight route from (-4.5,0)). */
#define AK_LAND_HEEL_MARGIN 0.02f

/* Where landing foot s's landing ray looks: AK_LAND_HEEL_MARGIN behind the landing heel
 * (land, toward the heel from the landing toe), moved by the placement's shift. */
static ak_vec3 land_heel_ray(ak_vec3 land, ak_vec3 land_toe, ak_vec3 shift)
{
    ak_vec3 d = akv_sub(land, land_toe);
    d.y = 0.0f;
    const float len = akv_len(d);
    const ak_vec3 at = akv_add(land, shift);
    return len > 1e-3f ? akv_add(at, akv_scale(d, AK_LAND_HEEL_MARGIN / len)) : at;
}

static int tread(const ak_ground_hit *g);

/* Metres beyond a planted foot's flat toe its toe ray looks (flat_toe_ray). */
#define AK_TOE_FLAT_MARGIN 0.01f

/* A planted foot on its heel (its lock on the heel, on a tread, its toe over the heel's own
 * ground last frame) casts its toe ray AK_TOE_FLAT_MARGIN beyond where its toe is with the foot
 * flat on the heel's lock (q: the heel's query point; the animated heel-to-toe offset), not where
 * the last solve left the toe (ak_foot_ik_query_points). A heel planted just short of a riser up
 * turns its foot toe-up against the riser, which pulls the toe back over the tread below; cast
 * there, the next ray found that tread, the foot lay flat again with its toe in the riser, and so
 * on every other frame (CMU 02_01 at 30 fps up the stairs from (-6,0): the right heel landed
 * 0.114 m short of an edge after a jump late in the swing, the toe 150 mm inside the riser on
 * every second frame of the stance); and a toe planted 7 mm short of a riser pushed off into it
 * (CMU 02_03 run at 30 fps from (-4.6,0): 121.7 mm; turned up, its toe lock is 3.9 cm short). A
 * tread a riser or more below the heel's (its own tread's edge going down, within the margin) is
 * not the toe's: the toe stays level with the heel (spare_hits). */
static void flat_toe_ray(ak_matcher *m, const ak_vec3 q[2], ak_vec3 qt[2])
{
    for (int s = 0; s < 2; ++s) {
        m->toe_flat[s] = m->p.foot_ik && m->initialized && m->stance[s] &&
                         (m->contact[s] & AK_CONTACT_HEEL) && m->fik.legs[s].has_toe &&
                         m->fst.was_stance[s] && m->fst.lock_weight[s] >= 1.0f &&
                         !m->fst.lock_toe[s] && tread(&m->fst.heel_hit[s]) &&
                         fabsf(m->toe_ground[s] - m->sole_ground[s]) < AK_FLOOR_STEP_MIN;
        if (!m->toe_flat[s]) continue;
        const ak_vec3 h = ak_foot_ik_sole(&m->fik, m->world, s);
        const ak_vec3 t = ak_foot_ik_toe(&m->fik, m->world, s);
        const float dx = t.x - h.x, dz = t.z - h.z, len = sqrtf(dx * dx + dz * dz);
        const float k = len > 1e-3f ? 1.0f + AK_TOE_FLAT_MARGIN / len : 1.0f;
        qt[s].x = q[s].x + dx * k;
        qt[s].z = q[s].z + dz * k;
    }
}

/* The rays of this frame: the centre, each heel's query point (the locked point in stance,
 * the animated sole otherwise) and each toe's (or, while its placement is decided, its
 * landing toe's), after placing the pose on the current floor; each swinging foot's landing. */
static void frame_rays(ak_matcher *m, ak_ground_ray *rays)
{
    ak_vec3 q[2], qt[2];
    place_pose(m);
    placement_shift(m);
    ak_foot_ik_query_points(&m->fik, &m->fst, m->world, q, qt);
    for (int s = 0; s < 2; ++s) {
        m->query[s] = q[s];
        m->query[2 + s] = qt[s];
    }
    fade_query(m, q, qt);
    flat_toe_ray(m, q, qt);
    for (int s = 0; s < 2; ++s) {
        m->cast[s] = q[s];
        m->cast[2 + s] = qt[s];
    }
    spare_rays(m, qt);
    rays[0] = ak_ground_ray_down(m->pos, 2.0f, 6.0f);
    const ak_quat yaw = ak_quat_yaw(m->heading);
    for (int s = 0; s < 2; ++s) {
        /* where a swinging foot lands: the playing frame's landing, seen from the character,
         * moved by the placement */
        const ak_vec3 shift = m->place_decided[s] ? m->place_target[s] : ak_vec3_make(0, 0, 0);
        const ak_vec3 rel = akq_rotate(yaw, gait_scaled(m, m->db->land_rel[2 * m->frame + s]));
        const ak_vec3 rel_toe =
            akq_rotate(yaw, gait_scaled(m, m->db->land_toe_rel[2 * m->frame + s]));
        const ak_vec3 h = m->held[s];
        m->land[s] =
            ak_vec3_make(m->pos.x + rel.x + h.x, m->floor_y + rel.y, m->pos.z + rel.z + h.z);
        m->land_toe[s] = ak_vec3_make(m->pos.x + rel_toe.x + h.x, m->floor_y + rel_toe.y,
                                      m->pos.z + rel_toe.z + h.z);
        m->land_ray[s] = land_heel_ray(m->land[s], m->land_toe[s], shift);
        m->land_toe_ray[s] = ak_foot_place_toe_ray(m->land[s], m->land_toe[s], shift);
        rays[1 + s] = ak_ground_ray_down(q[s], 1.0f, 3.0f);
        rays[3 + s] =
            ak_ground_ray_down(m->toe_at_land[s] ? m->land_toe_ray[s] : qt[s], 1.0f, 3.0f);
        const ak_vec3 land_at = landing_known(m, s)            ? m->land_ray[s]
                                : m->spare[s] != AK_SPARE_NONE ? m->spare_at[s]
                                                               : q[s];
        rays[5 + s] = ak_ground_ray_down(land_at, 1.5f, 3.5f);
    }
    rays[7] =
        ak_ground_ray_down(m->spare[2] != AK_SPARE_NONE ? m->spare_at[2] : m->pos, 1.5f, 3.5f);
}

/* The pose source's own vertical acceleration of the hips now, m/s^2 (the grounding's landing
 * limit reads it: ak_foot_ik_frame.anim_hip_accel): the playing frame's from the database's
 * table (linear to the next frame, or lower over the next 33 ms; x rate^2 as it plays at the
 * rate; none while standing on the held stand frame) plus the root offset's that a transition left
 * decaying, the critically damped spring's x'' = -w^2 x - 2 w x' (Holden's form, core/spring.h).
 * Read from the table and the spring's state, never differenced from the posed frames: the same on
 * every build. Called once a frame: it keeps this frame's own figure for the next ones.
 * A jump carries the root's vertical rate over as the new frame's rate read forward (transition,
 * root_rate), where the shown root moved at the old frame's rate: over the frames its measure
 * spans, the shown in-place root height's own second difference (root_offset_y's history) counts
 * too. A 24 fps run played at 60 fps, stopping in flight a frame before its apex, went on at +0.18
 * m/s where it had risen at +0.38: the shown root -1.54 g against the spring's -0.89, and the
 * grounding, given that room, lowered the hips 0.59 g more: -1.74 g against -1.65 (CMU subject
 * 9's runs stopping in flight on the stairs from (-5.4,0): -1.84 g against -1.72). */
static float source_hip_accel(ak_matcher *m)
{
    const ak_motion_db *db = m->db;
    const float w = aks_spring_omega(m->p.inertia_halflife);
    const float offset = -w * w * m->root_x.y - 2.0f * w * m->root_v.y;
    const int32_t n = akw_hip_window(db->frame_time);
    float now = offset, lowest = offset;
    if (!m->standing) {
        const int32_t last = range_last(db, m->frame);
        const float a = db->hip_accel[m->frame];
        const float b = m->frame < last ? db->hip_accel[m->frame + 1] : a;
        /* This frame's grounding acceleration enters the measure of the next n frames (its
         * 33 ms window, akw_hip_window): bounded by the lowest of the table over them, the sum
         * stays within the bound in each (taking only now's, CMU subject 9's heightmap run
         * measured -1.79 g against -1.73 where the table fell from -0.84 to -1.30 g in one
         * frame). */
        float least = a + (b - a) * m->frac;
        now = least * m->rate * m->rate + offset;
        for (int32_t k = 1; k <= n && m->frame + k <= last; ++k)
            least = akf_min(least, db->hip_accel[m->frame + k]);
        lowest = least * m->rate * m->rate + offset;
    }
    /* Those measures also average the source's own figure of the n - 1 frames before this one,
     * which the table's lowest does not see where a jump or the stop left the offset's spring
     * falling there (CMU subject 9's runs at 30 fps in cm on the heightmap, the stop: the
     * offset's -1.40 g one frame, the grounding's cap set by the next frame's -1.00 g, the
     * 33 ms measure -1.72 g against -1.51). */
    if (m->jump_age < n && m->root_hist_n >= 3 && m->root_hist_dt > 0.0f) {
        const float *h = m->root_hist;
        const float shown = (h[0] - 2.0f * h[1] + h[2]) / (m->root_hist_dt * m->root_hist_dt);
        now = akf_min(now, shown);
        lowest = akf_min(lowest, shown);
    }
    if (m->jump_age < AK_HIP_WINDOW_MAX) ++m->jump_age;
    for (int32_t k = 0; k + 1 < n; ++k)
        lowest = akf_min(lowest, m->hip_accel_past[k]);
    for (int32_t k = AK_HIP_WINDOW_MAX - 2; k > 0; --k)
        m->hip_accel_past[k] = m->hip_accel_past[k - 1];
    m->hip_accel_past[0] = now;
    return lowest;
}

/* Whether hit g is a tread (level ground). */
static int tread(const ak_ground_hit *g)
{
    return g->hit && g->normal.y >= AK_LEVEL_COS;
}

/* The legs' mean length, thigh plus shank (the step rules' measure). */
static float leg_length(const ak_matcher *m)
{
    const ak_skeleton *sk = m->db->skeleton;
    float leg = 0.0f;
    for (int k = 0; k < 2; ++k)
        leg +=
            0.5f * (sk->bone_lengths[m->fik.legs[k].lower] + sk->bone_lengths[m->fik.legs[k].foot]);
    return leg;
}

/* Footholds on stairs (issue 21: a step that rises or falls two risers at once folds the
 * leading knee past 120 degrees and drops the hips for the trailing leg; people shorten the
 * step to one riser instead). The slope rule sees no stairs (their treads are level): where the
 * swinging foot s lands and the planted heel stand on treads (level) a rise apart, a step
 * rising or falling more than AK_STEP_RISE_MAX of the leg at the current step scale asks for
 * the scale that brings it to that rise (the same proportion; at least AK_STEP_SCALE_MIN), one
 * within it for 1. Decided at lift-off, then only lowered through the swing (the landing ray
 * follows the shorter step: once it finds the next tread the scale holds), so a landing does
 * not go back and forth over a riser. A swing that first sees its landing over a planted foot
 * after AK_TREAD_LIFT_OFF of it (a run: the other foot lands during this one's flight) asks
 * for nothing: its landing is decided by then (a run shortened in mid-flight landed its heel
 * 0.3 mm short of a tread's edge, 150 mm into the riser as the foot rolled). `land`,
 * `planted`: the landing and planted heels' hits. */
#define AK_TREAD_LIFT_OFF 0.25f
static float tread_goal_of(ak_matcher *m, int s, const ak_ground_hit *land,
                           const ak_ground_hit *planted, float leg)
{
    float goal = 1.0f;
    if (land->normal.y >= AK_LEVEL_COS && planted->normal.y >= AK_LEVEL_COS) {
        const float rise = fabsf(land->height - planted->height);
        const float most = m->step_scale * AK_STEP_RISE_MAX * leg;
        if (rise > most) goal = akf_max(most / rise, AK_STEP_SCALE_MIN);
    }
    if (m->tread_fresh[s]) {
        m->tread_walk[s] = m->db->swing_phase[2 * m->frame + s] < AK_TREAD_LIFT_OFF;
        m->tread_goal[s] = m->tread_walk[s] ? goal : 1.0f;
    } else if (m->tread_walk[s]) {
        m->tread_goal[s] = akf_min(m->tread_goal[s], goal);
    }
    m->tread_fresh[s] = 0;
    return m->tread_goal[s];
}

/* The step scale for the step being taken (the walker's step_goal_of): a foot swinging toward
 * a known landing over a planted one, the mean of the ground's slope along the facing under
 * the planted heel and where the swinging one lands (the normals: a stair's treads are level);
 * a step of the playing frame's own length (its landing from the planted foot, both in its
 * in-place pose) rising more than AK_STEP_RISE_MAX of the leg on that slope is shortened to
 * that rise; 1 otherwise. In a run's flight (neither foot down in the playing frame) the
 * same rule over the ground under the other heel may only lower it: a run's stance is short and
 * its range may end before the next landing, so a foot over a planted one with its landing known
 * is rare (CMU subject 9's heightmap run: 10 frames of a 59-frame loop; the scale stayed 1 up a
 * 46 % slope and over its crest at 3.5 m/s, the floor rose at up to 1.9 m/s, the hips at 2 m/s
 * and, braking at hip_accel_down, went on 1 m above it); the next such frame raises it again.
 * Kept while neither and once arrived; 1 standing. `hit`: floor_and_ik's. */
static float step_goal_of(ak_matcher *m, const ak_ground_hit *hit)
{
    if (m->standing) return 1.0f;
    if (m->arrived) return m->step_goal;
    float goal = m->step_goal;
    const ak_vec3 f = ak_vec3_make(sinf(m->heading), 0.0f, cosf(m->heading));
    const int flight = !m->db->contact[2 * m->frame] && !m->db->contact[2 * m->frame + 1];
    for (int s = 0; s < 2; ++s) {
        const int o = 1 - s;
        if (!landing_known(m, s) || !(m->stance[o] || flight) || !hit[4 + s].hit || !hit[o].hit)
            continue;
        const ak_vec3 d = akv_sub(m->db->land_rel[2 * m->frame + s], m->anim_sole[o]);
        const float step = sqrtf(d.x * d.x + d.z * d.z);
        const float leg = leg_length(m);
        const float slope = akw_step_scale_goal(&hit[4 + s], &hit[o], f, step, leg);
        goal = m->stance[o] ? akf_min(slope, tread_goal_of(m, s, &hit[4 + s], &hit[o], leg))
                            : akf_min(goal, slope);
    }
    for (int s = 0; s < 2; ++s)
        if (m->stance[s]) m->tread_fresh[s] = 1;
    return goal;
}

/* Shorter steps on steep ground (issue 21: shorten the step rather than fold a knee or drop
 * the hips; the guide walker's shorter_steps): the root's travel and the feet's places along
 * the facing are scaled by step_scale from the next frame, the frames play on at their rate
 * (the cadence is kept), the planted feet stay locked. */
static void shorter_steps(ak_matcher *m, const ak_ground_hit *hit)
{
    m->step_goal = step_goal_of(m, hit);
    if (m->step_scale == m->step_goal && m->step_scale_v == 0.0f) return;
    akw_step_scale_follow(&m->step_scale, &m->step_scale_v, m->step_goal, m->dt);
}

/* The landing a swing on stairs glides toward (the grounding's step_glide) and the planned
 * hips see, while the shorter step asked at its lift-off (tread_goal_of) brings it in: the
 * landing ray looks where the step scale of now puts the landing, and the scale follows the
 * shorter step's (a spring over about a step), so the ray sees the tread the unshortened
 * step reaches until the scale has come down. Lifted for that tread, a foot the shorter step
 * brings a riser lower rose too high under hips that had not (CMU subject 7's first step up:
 * the landing two risers, 0.30 m, up at lift-off, one riser up from a third of the swing on;
 * the swinging knee folded to 100.4 degrees, bound 100). Until its landing holds (halfway
 * through the swing, held_offset) the foot aims no farther above or below the planted heel's
 * tread than the rule lets a step rise, AK_STEP_RISE_MAX of the leg; a landing the ray still
 * finds beyond it then is where it lands. `planted`: the planted heel's hit; `land`: the
 * landing hit, changed in place. */
static void tread_landing(const ak_matcher *m, int s, const ak_ground_hit *planted,
                          ak_ground_hit *land)
{
    if (m->arrived || !m->tread_walk[s] || !(m->tread_goal[s] < 1.0f) || !m->stance[1 - s] ||
        !(m->db->swing_phase[2 * m->frame + s] < 0.5f) || !tread(land) || !tread(planted))
        return;
    const float most = AK_STEP_RISE_MAX * leg_length(m);
    land->height = akf_clamp(land->height, planted->height - most, planted->height + most);
}

/* Whether swing s's placement, decided to land where the frame lands it (no edge found), is
 * to be looked at again: its landing heel ray, which follows the landing every frame, now finds
 * ground a riser (AK_FLOOR_STEP_MIN) above or below the ground it found then, before three
 * quarters of the swing. The landing moves after the decision (the held offset as the step
 * scale changes, a transition's new frame): CMU 07_04 at 60 fps up stairs, a jump put the right
 * heel's landing 4 mm past a riser's edge, decided on the tread above, then crept 19 mm back
 * over it; the heel landed on the tread below and its toe, unlooked at, 47.5 mm into the riser.
 * Looked at again, its toe ray turns back to the landing (placement_shift) and the rule lands
 * the foot off the edge. `land`: the landing heel's hit. */
static int reopen_placement(const ak_matcher *m, int s, const ak_ground_hit *land)
{
    const ak_vec3 t = m->place_target[s];
    return m->place_decided[s] && t.x == 0.0f && t.z == 0.0f && landing_known(m, s) &&
           m->db->swing_phase[2 * m->frame + s] <= 0.75f && land->hit &&
           isfinite(m->place_ground[s]) &&
           fabsf(land->height - m->place_ground[s]) >= AK_FLOOR_STEP_MIN;
}

/* m: how far above the ground a landing held back out of reach (out_of_reach) is kept, more than
 * AK_WALK_SKATE_HEIGHT: its leg does not reach the ground, so no point of it stands on the ground
 * (the grounding's swing clearance, which moves at most swing_height_rate). Let down, its toe
 * came down onto the ground and slid along it toward where the frame has the foot as the
 * transition's offset died away: CMU subject 7 on stairs 2.5 m/s, a held-out slow walk at 30 fps
 * 1.1-2.7 m/s on flat ground, the CLI's walk to a target behind 0.89 m/s. */
#define AK_HELD_CLEAR 0.015f

/* How far above its ground a held-back foot is kept per metre the dying offset still carries it
 * (held_clear): two in one. The carry dies at the transition's rate (inertia_halflife 0.12 s:
 * 11.6 /s), so the foot is below 5 cm over its ground only once less than 1.75 cm of carry is
 * left, moving under 0.20 m/s, a planted point's slide (the captures' worst on their floor:
 * 0.21-0.50 m/s; walk_physics.h's hover). One in one let it hang 36-44 mm up carried at
 * 0.2-0.6 m/s (CMU subject 9 on the heightmap, frames 69-78). */
#define AK_HELD_SLOPE 2.0f

/* m: how far the dying transition offset still carries held-back foot s (horizontal): the
 * farthest the foot's distance from its frame's own foot, e = cancel + foot_off (cancel_offset),
 * goes from where it is now. Both parts die at the transition's rate: the cancel part at once
 * (cancel_offset: exp(-w t)), the offset through the joints' critically damped springs, so e(t) =
 * (e + (v + w o) t) exp(-w t) with o = foot_off, v its rate, sampled over 5 / w. The two parts
 * pull opposite ways after a jump: e alone passes near 0 while the foot is still carried (CMU
 * 02_01 at 30 fps up the stairs from (-4.7,0), frame 541: |e| 22 mm, the toe carried 0.11 m on
 * at 2.8 -> 0.3 m/s, 37 mm up). */
static float held_carry(const ak_matcher *m, int s)
{
    const float w = aks_spring_omega(m->p.inertia_halflife);
    const ak_vec3 e = akv_add(m->cancel[s], m->foot_off[s]);
    const ak_vec3 b = akv_add(m->foot_off_v[s], akv_scale(m->foot_off[s], w));
    float most = 0.0f;
    for (int i = 1; i <= 16; ++i) {
        const float t = (float)i * (5.0f / 16.0f) / w;
        const ak_vec3 d = akv_sub(akv_scale(akv_add(e, akv_scale(b, t)), expf(-w * t)), e);
        most = akf_max(most, d.x * d.x + d.z * d.z);
    }
    return sqrtf(most);
}

/* m/s: how fast a landing held back out of reach may rise over where its lowest point was shown
 * last frame while the dying offset carries it (held_clear): the speed the matcher plans a
 * landing to come down at (floor_and_ik's `settled`, 0.5 m/s). Held where it was shown, a foot
 * held back as it came low skimmed the ground as the offset carried it on: held-out slow30 (CMU
 * 07_04 at 30 fps) on the trial's heightmap, the left toe 10-44 mm up for 30 frames at up to 2.8
 * m/s (frames 790-819; the walk's hover 7.25 cm/s with the skate's, now 1.39); CMU 02_01 at 24
 * fps up the stairs from (-4.7,0), frames 567-575 (the row's walking hover 57.7 -> 13.4 mm/s).
 * At 1.5 m/s the left knee turned at 1.65 times the captures' angular acceleration
 * (test_matching_walk: CMU subject 2 on flat ground toward a target behind, bound 1.5). */
#define AK_HELD_RISE 0.5f

/* m: how far above its ground foot s, a landing held back out of reach, is kept (0 for any
 * other foot): AK_HELD_CLEAR plus AK_HELD_SLOPE times the distance (horizontal) the transition's
 * dying offset still carries it (held_carry), so it comes down onto its place steeply, as a
 * swing ends over its landing, and not along the ground; never more than AK_HELD_RISE times
 * the frame time above where its lowest point was shown last frame (it is kept from coming
 * down and rises slowly: lifted to that height at once, a foot held back 76 mm up rose to 227
 * mm in 7 frames, the knee turning at 1.52 times the captures' angular acceleration:
 * test_matching_walk, CMU subject 2's walks on hills toward a target 90 degrees off the start
 * facing). Kept
 * AK_HELD_CLEAR up wherever it was, it skimmed the ground there as the offset died away: CMU
 * 02_01 at 24 fps up the stairs from (-4.7,0), a jump at frame 546 put the left foot, 14 cm up
 * in a re-step, in a frame that has it down; held back, it came down to its toe 38 mm up at
 * 4.57 m/s (frame 548) and slid on 15 mm up to frame 555 (walk_physics.h's hover, bound 0.26
 * m/s). The lift is room the swinging knee's limit takes back (max_knee_flex), as a re-step's. */
static float held_clear(const ak_matcher *m, int s)
{
    if (!m->held_back[s]) return 0.0f;
    /* its lowest point's height over the ground as shown last frame (sole_ground, toe_ground:
     * the ground under the last solve's points) */
    float low = INFINITY;
    if (isfinite(m->sole_ground[s])) low = akf_min(low, m->fst.sole[s].y - m->sole_ground[s]);
    if (isfinite(m->toe_ground[s])) low = akf_min(low, m->fst.toe[s].y - m->toe_ground[s]);
    return akf_min(AK_HELD_CLEAR + AK_HELD_SLOPE * held_carry(m, s),
                   akf_max(low + AK_HELD_RISE * m->dt, AK_HELD_CLEAR));
}

/* Standing, foot IK plans every foot to land (stance_next), which unrolls a foot rolled over its
 * toe at stance_fade_rate; a step of the stop lifting a foot off its toe (lifts_off_toe: one the
 * walk had just lifted off it, or one waiting planted on it) keeps its roll while it rises, as a
 * walking swing does, and unrolls at the top of its lift: unrolled as it rose, the library's stop
 * on the heightmap (frame 498) swung its toe 20 mm in a frame 16-46 mm up, a toe the stand frame
 * has down (0.86 m/s, 1.22 before a foot leaving its toe lock kept the roll its leg needs; now
 * 0.19). */
static int stop_step_rolls(const ak_matcher *m, int s)
{
    return ak_restep_rising(&m->rs[s].step) && m->rs[s].rolled && m->fst.pivot_weight[s] > 0.0f;
}

/* Foot s's stance_next for foot IK (it is planted 1/stance_fade_rate from now; `settled`: it does
 * not carry a transition's offset it cannot come down from in that lead): standing, every foot
 * but a step of the stop that keeps its roll (stop_step_rolls); walking, a foot the frame has
 * down that far ahead, unless released (it follows the animation until the frame lifts it) or
 * pushing off (it lifts once its leg cannot reach it, push_off). */
static int32_t stance_next_of(const ak_matcher *m, int s, int settled)
{
    if (m->standing) return !stop_step_rolls(m, s);
    return settled && !m->released[s] && contact_ahead(m, s) && !push_off(m, s);
}

/* m: the least each heel and toe of a foot not planted keeps over the ground under it (the
 * grounding's source clearance, ak_foot_ik_solve_lifted; room its swinging knee limit may take
 * back): the playing frame's own height of that point over its lowest in the range
 * (point_clearance; between frames as animate's), none for a foot the frame has down and
 * standing. A jump's offset (the pose's, the root's, the velocity's) carried a swinging foot its
 * frame has off the ground along it: it pitched a landing's toe 23-30 mm under where its frame
 * has it (CMU subject 2 on flat, frame 522, the right toe sliding on at 0.39 m/s, the database's
 * own 0.19 that low), held a toe up to 77 mm under its frame on a heightmap (subject 7, frames
 * 497-503, 5.57 m/s), and at the start slid a landing run's toe back with the velocity offset
 * (subject 9, frame 14, 1.77 m/s against 1.16); the lift of the lowest point alone it replaces
 * saw a heel at the floor and lifted nothing.
 * - It goes to nothing over the last half of the planting's fade-in before the frame lands the
 *   foot (1/stance_fade_rate, swing_left), so the landing comes down onto its lock: lifted
 *   whole to keep a toe the start's offset pitched down at its frame's 33 mm, a heel was held 33
 *   mm up a frame before its stance, and the knee straightened 27 degrees in that frame
 *   (test_matching_walk, the heightmap toward a target behind: 1.54 times the captures' angular
 *   acceleration).
 * - Not taken where the stop comes (check_arrival's test) before the lower point could come down
 *   at swing_height_rate: a foot mid-swing at arrival was stepped first by the stop while the
 *   other waited on its toe and was lifted out of reach (the library up the stairs, both feet up
 *   12 frames from 468). Taken all the same while the foot's lock still fades (its stance just
 *   ended): a planted foot a jump puts in mid-swing lifts off with its frame's swing instead of
 *   staying on the ground while the fading lock lets it slide to the frame's foot. CMU 02_01 at
 *   30 fps mirrored on the CLI's route (the held-out walk30m), frame 721, 0.1 s before arrival:
 *   database frames 51 -> 18 (the left planted -> swing phase 0.38), the left heel 0-0.5 mm up
 *   sliding 0.16 m in 8 frames, at up to 3.60 m/s on flat ground (the database's 0.32); lifted
 *   34-110 mm, it lands before the stop, which steps it to its place. */
static void frame_clearance(const ak_matcher *m, float clear[2][2])
{
    memset(clear, 0, sizeof(float) * 4);
    const float *a = m->point_clear + 4 * (size_t)m->frame;
    const int next = m->frac > 0.0f && m->frame < range_last(m->db, m->frame);
    for (int s = 0; s < 2 && !m->standing; ++s) {
        if (m->db->contact[2 * m->frame + s]) continue;
        const float w = akf_min(1.0f, 2.0f * swing_left(m, s) * m->fik.stance_fade_rate);
        for (int k = 0; k < 2; ++k)
            clear[s][k] = w * (next ? a[2 * s + k] + (a[4 + 2 * s + k] - a[2 * s + k]) * m->frac
                                    : a[2 * s + k]);
        const float low = akf_min(clear[s][0], clear[s][1]);
        const int releasing = !m->stance[s] && m->fst.lock_weight[s] > 0.0f;
        if (low > 0.0f && !releasing && stop_within(m, 2.0f * low / m->fik.swing_height_rate))
            clear[s][0] = clear[s][1] = 0.0f;
    }
}

/* The floor the pose stands on follows the ground under the feet (a critically damped
 * spring, as the walker's), then the feet go on the ground with foot IK. A foot stepping up a
 * riser raises its foothold as the grounding lifts the foot, by 40 % of its swing
 * (ak_floor_support's step_early, as the walker's): over the whole swing, the hips came up
 * after the foot and the swinging knee folded (CMU 02_02 at 30 fps up the stairs from (-5,0):
 * 110.9 degrees, bound 103.0). `hit` holds the hits of the two sole rays, the two toe rays,
 * then the two landing rays. */
static int32_t floor_and_ik(ak_matcher *m, const ak_ground_hit *hit, ak_error *err)
{
    const float dt = m->dt, floor0 = m->floor_y;
    float support = 0.0f;
    for (int s = 0; s < 2; ++s) {
        float phase;
        const ak_ground_hit *land = landing_hit(m, s, hit, &phase);
        /* A foot swinging toward no landing its range holds (the range ends first) stands on
         * the ground under the character, which it will land near, and its glide starts there
         * once a jump makes its landing known: the foothold its lift-off left held the floor
         * through the rest of the range (CMU subject 9's heightmap run: the last 0.58 s of
         * 09_02 hold no landing for the right foot; the floor ended 0.62 m under the ground
         * up the slope and the knees folded to 155-165 deg as the feet landed on it). */
        if (!land && !m->stance[s]) {
            m->foothold[s] = m->pos.y;
            m->has_foothold[s] = 1;
        }
        support += 0.5f * ak_floor_support(&m->foothold[s], &m->has_foothold[s], m->stance[s],
                                           &hit[s], land, phase, m->pos.y, 1);
    }
    ak_floor_follow(&m->floor_y, &m->floor_v, support, m->p.ground_smoothing, dt, m->initialized);
    shorter_steps(m, hit);
    /* The placed pose moves only vertically with the new floor. */
    const float dy = m->initialized ? m->floor_y - floor0 : 0.0f;
    if (!m->initialized) place_pose(m);
    m->local[0].translation.y += dy;
    for (int32_t j = 0; j < m->J; ++j)
        m->world[j].translation.y += dy;
    if (!m->p.foot_ik) return AK_OK;
    ak_foot_ik_frame fr;
    memset(&fr, 0, sizeof fr);
    fr.dt = m->initialized ? dt : 0.0f;
    fr.character = (ak_xform){ak_quat_yaw(m->heading), m->pos};
    fr.floor_height = m->floor_y;
    fr.anim_hip_accel = source_hip_accel(m);
    for (int s = 0; s < 2; ++s) {
        /* a planted foot the grounding lifted last frame (push_off) until its stance ends */
        m->pushed_off[s] = !m->standing && m->stance[s] &&
                           (m->pushed_off[s] || (m->initialized && m->fst.released[s]));
        fr.stance[s] = m->stance[s];
        /* a swinging foot lands off a stair edge (the walker's rule) */
        if (m->toe_at_land[s]) {
            ak_foot_place_decide(&hit[4 + s], &hit[2 + s], m->land_ray[s], m->land_toe_ray[s],
                                 m->land[s], m->land_toe[s], AK_LAND_HEEL_MARGIN,
                                 &m->place_target[s], &m->place_decided[s], NULL);
            m->place_ground[s] = hit[4 + s].hit ? hit[4 + s].height : NAN;
        } else if (reopen_placement(m, s, &hit[4 + s])) {
            m->place_decided[s] = 0;
        }
        /* A swinging foot still carrying a transition's offset (off its frame's own height by
         * more than it can come down in the 1/stance_fade_rate lookahead at 0.5 m/s) is not
         * about to land: planting it ahead of time would pin it to the ground under a lifted
         * animation and pull the leg straight (the knee snaps when the hips drop to let it
         * reach). */
        const float reach_down = 0.5f / m->fik.stance_fade_rate;
        const int settled = m->stance[s] || m->offset_lift[s] <= m->p.stance_gate + reach_down;
        /* a released foot follows the animation until the frame lifts it; a foot pushing off
         * lifts once its leg cannot reach it (push_off) */
        fr.stance_next[s] = stance_next_of(m, s, settled);
        fr.stance_left[s] = stance_left_of(m, s);
        fr.ground[s] = hit[s];
        /* the toe ray is under the toe (a swinging toe is kept above it) except while it looks
         * at the landing: then a spare ray's riser ahead, if one found it (toe_guard) */
        fr.ground_toe[s] = m->toe_at_land[s] ? m->toe_guard[s] : hit[2 + s];
        if (!m->fik.legs[s].has_toe) fr.ground_toe[s].hit = 0;
        fr.contact[s] = m->contact[s];
        /* the planned hips see the ground it lands on */
        const ak_ground_hit *land = landing_hit(m, s, hit, &fr.swing_phase[s]);
        if (land) fr.ground_land[s] = *land;
        if (land == &hit[4 + s]) tread_landing(m, s, &hit[1 - s], &fr.ground_land[s]);
    }
    /* The walker's grounding call: m->fik was validated in ak_matcher_create and does not
     * change, so no per-frame validation (ak_foot_ik_run's). */
    float lift[2], clear[2][2];
    for (int s = 0; s < 2; ++s)
        lift[s] = akf_max(ak_restep_lift(&m->rs[s].step), held_clear(m, s));
    frame_clearance(m, clear);
    return ak_foot_ik_solve_lifted(&m->fik, &m->fst, &fr, lift, (const float(*)[2])clear,
                                   m->toe_held, m->standing, m->local, m->world, err);
}

/* How far the shown foot (m->world, in place) is from where the playing frame itself has it
 * (up positive): the ankle for the heel bit, the toe point for the toe bit (the one farther
 * off for both). The toe needs the frame's own pose: FK only here, when
 * a stance would begin. */
static float stance_lift(ak_matcher *m, int s, int32_t contact)
{
    const ak_motion_db *db = m->db;
    float lift = 0.0f;
    if ((contact & AK_CONTACT_HEEL) || !m->fik.legs[s].has_toe) {
        const float *own = db->raw + (size_t)m->frame * AK_MATCH_FEATURES; /* ankles' own y */
        lift = m->world[m->fik.legs[s].foot].translation.y - own[1 + 3 * s];
    }
    if ((contact & AK_CONTACT_TOE) && m->fik.legs[s].has_toe) {
        ak_motion_db_pose(db, m->frame, m->own_local);
        ak_fk(db->skeleton, m->own_local, m->own_world);
        const float toe =
            ak_foot_ik_toe(&m->fik, m->world, s).y - ak_foot_ik_toe(&m->fik, m->own_world, s).y;
        lift = fabsf(toe) > fabsf(lift) ? toe : lift;
    }
    return lift;
}

/* Where the coasting root comes to rest from here: the integral of the decaying velocity
 * offset (the critically damped spring of advance), 2 x0 / w + v0 / w^2; with a frame time h,
 * the sum the frames take (advance moves by the offset at each frame's start, then steps the
 * spring): h sum_k (x0 + (v0 + w x0) k h) q^k, q = exp(-w h), = x0 h / (1 - q) + (v0 + w x0)
 * h^2 q / (1 - q)^2. The integral was 2.4 cm short of where a run's stop (CMU 09_02 at 24 fps
 * played at 60 Hz, 3.5 m/s) came to rest, and a foot stepped to the stand frame's place there
 * was out of its leg's reach. */
static ak_vec3 coast_rest(const ak_matcher *m)
{
    const float y = aks_spring_omega(0.5f * m->p.stop_time);
    if (m->dt > 0.0f) {
        const float h = m->dt, q = expf(-y * h), a = h / (1.0f - q);
        const float b = h * h * q / ((1.0f - q) * (1.0f - q));
        const ak_vec3 c = akv_add(m->vel_v, akv_scale(m->vel_x, y));
        return akv_add(m->pos, akv_add(akv_scale(m->vel_x, a), akv_scale(c, b)));
    }
    return akv_add(m->pos,
                   akv_add(akv_scale(m->vel_x, 2.0f / y), akv_scale(m->vel_v, 1.0f / (y * y))));
}

/* How far the coasting root still travels (horizontally). */
static float coast_left(const ak_matcher *m)
{
    const ak_vec3 d = akv_sub(coast_rest(m), m->pos);
    return sqrtf(d.x * d.x + d.z * d.z);
}

/* Metres: how far from where the frame has the heel now the last frame's look there
 * (AK_SPARE_DEST) may be for its ground to count (a planted foot's frame barely moves it). */
#define AK_DEST_NEAR 0.03f

/* How far the ground where the playing frame has planted foot s's heel (looked at last frame,
 * within AK_DEST_NEAR of where it is now) is above the tread it stands on, both level; 0 when
 * not known. */
static float dest_rise(ak_matcher *m, int s)
{
    if (!isfinite(m->dest_ground[s]) || !m->dest_level[s] || !isfinite(m->sole_ground[s])) return 0;
    const ak_vec3 heel = ak_foot_ik_sole(&m->fik, m->world, s); /* in place */
    const ak_vec3 at =
        akv_add(akv_add(m->pos, akq_rotate(ak_quat_yaw(m->heading), heel)), m->fst.shift[s]);
    const ak_vec3 was = m->spare_at[s];
    const float dx = at.x - was.x, dz = at.z - was.z;
    return dx * dx + dz * dz <= AK_DEST_NEAR * AK_DEST_NEAR ? m->dest_ground[s] - m->sole_ground[s]
                                                            : 0.0f;
}

/* Whether the frame's heel (where the last AK_SPARE_DEST ray looked) is ahead of planted foot
 * s, along its heel-to-toe line: a step up toward it leads with the toe. */
static int dest_ahead(const ak_matcher *m, int s)
{
    const ak_vec3 d = akv_sub(m->spare_at[s], m->fst.sole[s]);
    const ak_vec3 f = akv_sub(m->fst.toe[s], m->fst.sole[s]);
    return d.x * f.x + d.z * f.z > 0.0f;
}

/* Whether a release `rise` below or above (dest_rise) is refused: a riser, down or up, behind
 * the foot. A step back up leads with the heel, which step_up_hold does not lift: going
 * down stairs, a jump put a walk's left foot (02_01 mirrored at 24 fps) 2.6 cm past a tread's edge
 * with its frame's foot on the tread behind; released to step up, its heel slid back into the
 * riser, 79 mm (a held-out trial's; that walk stayed planted before and does again). A riser down
 * ahead is stepped down (the release re-steps, restep_start, over the edge onto the tread below):
 * kept planted, CMU 07_04 at 60 fps going down the CLI's stairs route stood on its left toe
 * 0.44-0.73 m behind its frame's foot for 16 frames while the body went on down, and the
 * grounding lifted that toe straight up out of reach (last_resort_drop) to 39 cm over its tread,
 * then it came down 0.34 m in one frame when the frame lifted the foot. */
static int refuse_release(const ak_matcher *m, int s, float rise)
{
    return fabsf(rise) >= AK_FLOOR_STEP_MIN && !dest_ahead(m, s);
}

/* Whether releasing planted foot s would slide it over a riser it cannot step (refuse_release).
 * A released foot fades onto the frame's foot along the ground it stood on: down and back, off
 * the tread's edge to stand against the riser, which its next lift-off's toe met (CMU subject 2
 * going up: 72 mm into it). Such a foot stays planted until the frame lifts it. Up and ahead, it
 * steps (begin_step_up): kept planted instead (a slow walk at 30 fps up stairs, its foot 0.28 m
 * behind the frame's on its toe at the riser), the hips rising with the frame left it out of reach
 * and the leg dragged the toe 129 mm into the riser. */
static int release_crosses_riser(ak_matcher *m, int s)
{
    return refuse_release(m, s, dest_rise(m, s));
}

/* Released foot s begins a step up (step_up_hold) where the ground at the frame's foot
 * (AK_SPARE_DEST's, level) is `rise`, a riser or more, above the tread it stands on (ahead of it:
 * refuse_release keeps one behind planted, as before, since a fade along the tread below put a
 * heel 146 mm into the riser: a slow walk down stairs, a jump to a frame with that foot on the
 * tread behind). */
static void begin_step_up(ak_matcher *m, int s, float rise)
{
    if (!(rise >= AK_FLOOR_STEP_MIN)) return;
    m->stepping[s] = 1;
    m->step_ground[s] = m->dest_ground[s];
}

/* Foot s as the grounding showed it last frame stands on the ground: heel and toe within
 * the stance gate of the ground under them. */
static int shown_down(const ak_matcher *m, int s)
{
    return isfinite(m->sole_ground[s]) && isfinite(m->toe_ground[s]) &&
           m->fst.sole[s].y - m->sole_ground[s] <= m->p.stance_gate &&
           m->fst.toe[s].y - m->toe_ground[s] <= m->p.stance_gate;
}

/* Whether foot s, whose stance begins now on its points `starts`, is shown above where the
 * playing frame has it by more than the stance gate and not on the ground (its stance waits,
 * update_stance). Not on the first frame, which places the character with the frame's feet
 * down: no foot was shown before it that foot IK would pull down. The start's transition from the
 * stand frame lifted a foot the first frame has down by its offset (CMU 07_04's right heel 2.3 cm
 * at 0.32 s into its take), and with no stance the foot slid back with its frame while the root
 * started from rest: its toe 11 mm in the first frame on the ground, 634 mm/s against the
 * database's own worst 450. */
static int lifted_start(ak_matcher *m, int s, int32_t starts)
{
    return m->initialized && stance_lift(m, s, starts) > m->p.stance_gate && !shown_down(m, s);
}

/* m/s: the fastest the stop lets a foot come down onto its lock (stop_landing_moving): the
 * captures' heels and toes land at 0.5-1.7 m/s, the landing bound is 2 m/s
 * (tests/locomotion/walk_physics.h); the measured landings come out at 1.27-1.47 m/s. At 1.0
 * the later landings moved CMU subject 9's stop on the heightmap so that its right foot
 * re-planted on the slope with its toe 5.7 mm under the ground for a frame (bound 5). */
#define AK_STOP_LAND_SPEED 1.25f

/* Whether each foot, standing, is still moving along the ground faster than
 * AK_STOP_LAND_SPEED (stop_moving, which holds its landing back, update_stance): its heel and
 * toe as shown now (pos, the shorter stride, last frame's shift; m->world the shown in-place
 * pose) against where they were shown last frame, horizontal; every frame books them for the
 * next. At the stop the coast and the transition's dying offset carry a foot the stand frame
 * brings down, and its lock took it mid-motion: at CMU subject 7's stop the released left foot
 * glided onto the stand frame's foot and was planted at 3.6-4.3 m/s (59-72 mm in its landing
 * frame, then released again and faded 0.1 m on along the ground); on the heightmap subject
 * 2's right foot, still swinging forward, was planted at 4.2 m/s (toe 70 mm), and the
 * library's right foot as it pushed off at 7.3 m/s (toe 121 mm). */
static void stop_landing_moving(ak_matcher *m)
{
    const ak_quat yaw = ak_quat_yaw(m->heading);
    const float most = AK_STOP_LAND_SPEED * m->dt;
    for (int s = 0; s < 2; ++s) {
        const ak_vec3 shift = akv_add(akv_add(m->place_shift[s], m->cancel[s]), m->held[s]);
        const ak_vec3 pts[2] = {ak_foot_ik_sole(&m->fik, m->world, s),
                                ak_foot_ik_toe(&m->fik, m->world, s)};
        m->stop_moving[s] = 0;
        for (int k = 0; k < 2; ++k) {
            const ak_vec3 at =
                akv_add(akv_add(m->pos, akq_rotate(yaw, gait_scaled(m, pts[k]))), shift);
            const float dx = at.x - m->shown_last[s][k].x, dz = at.z - m->shown_last[s][k].z;
            if (m->standing && m->has_shown_last && m->dt > 0.0f && dx * dx + dz * dz > most * most)
                m->stop_moving[s] = 1;
            m->shown_last[s][k] = at;
        }
    }
    m->has_shown_last = m->dt > 0.0f;
}

/* rad/s: the controller turning slower than this walks on straight (unlock). */
#define AK_LAG_TURN 0.2f

/* The body's own travel over planted foot s since its stance began or the last jump (lead: the
 * velocity offset a jump carries, decaying over stop_time), which the unlock does not count: the
 * lock is released when the frame leaves the foot, not when the body, still moving as it did
 * before a jump, comes on over the foot, as a walker's body comes on over its stance foot.
 * Counted, it released the only planted foot while its frame stood on it: CMU 01_03 (Debian
 * assimp-testmodels) up the CLI's stairs, a jump at frame 301 carrying 0.41 m/s over its frame's
 * 0.68 (0.16 by frame 316) put the frame's foot 0.106 m from the lock, 0.061 m of it the
 * offset's; released with the other foot 0.28-0.31 m up, it re-stepped, both feet in the air 16
 * frames, and landed heel on a tread with its toe 57 mm in the next riser (hips -10.57..10.50 g);
 * on the hills the same every 70 frames, the right toe sliding 0.25-0.32 m/s (skate 1.06
 * cm/s). A jump places the new frame at the body (lead 0 from there). Forward only: a body
 * lagging the frame is the lags rule's (unlock). And only while the leg reaches the foot as its
 * frame poses it: a body come on over the foot past its leg's reach (last frame's solve rolled
 * the foot over its toe beyond the frame's roll, toe_roll, or onto its toe, reach_roll) has left
 * it, and the frame's foot counts in full. Counted there, it held CMU subject 2's trailing toe,
 * knee straight (5.4 deg) and the foot turned up to 0.30 rad past its frame's roll, for 5-10
 * frames more while the frame's foot went 0.101 -> 0.121 m from the lock (0.031-0.040 less the
 * lead), until its stance ended (a jump) and the knee bent 5.4 -> 36.1 deg in a frame: the right
 * knee at 1897-2260 rad/s^2 after foot IK, 1.47-1.75 times the captures' (test_matching_walk's
 * flat, hills and heightmap walks; bound 1.5); now no joint past the animation's own 1853. */
static ak_vec3 body_lead(const ak_matcher *m, int s, ak_vec3 fwd)
{
    const int reaches = !m->fst.reach_roll[s] && !(m->fst.toe_roll[s] > 0.0f);
    return reaches && akv_dot(m->lead[s], fwd) > 0.0f ? m->lead[s] : ak_vec3_make(0, 0, 0);
}

/* Unlock: planted foot s (shown down this frame) the new frame's pose (a transition, the stop)
 * has left farther than unlock_distance from its lock is released for the rest of that stance
 * (update_stance; `crosses`: its release would slide it over a riser). */
static void unlock(ak_matcher *m, int s, ak_quat yaw, int crosses)
{
    if (!m->stance[s] || m->fst.lock_weight[s] < 1.0f) return;
    /* the point the lock holds: the toe while the foot rolls over it, else the heel */
    const ak_vec3 held = m->fst.lock_toe[s] ? ak_foot_ik_toe(&m->fik, m->world, s)
                                            : ak_foot_ik_sole(&m->fik, m->world, s);
    /* A jump this frame (walking on) sets a planted foot's kept offset to 0
     * (cancel_offset: its cancel part becomes -foot_offset), so the unlock sees where
     * the new frame has the foot now, not a frame later: meanwhile the grounding held
     * the lock under the new frame's hips, and the last resort dropped them (a slow
     * walk at 60 fps on hills: a jump to a frame with the left foot mid-stance while
     * it pivoted at push-off 0.58 m behind, 9.5 mm in one frame, -2.32 g, then
     * +2.63 g as the unlock let them back). Its riser check needs the ray at the new
     * frame's foot (spare_rays casts it this frame): the release waits for
     * matcher_finish. */
    const int jump = m->cancel_rebase == 2 && m->fst.was_stance[s];
    const ak_vec3 cancel = jump ? akv_scale(foot_offset(m, s), -1.0f) : m->cancel[s];
    /* moved by the placement, as the lock was, in the shorter stride; at the stop, where the
     * stand frame has it once the coast is over (stop_release's test: the coast and the dying
     * offsets carry the shown foot toward it, and a foot a step of the stop put there was
     * released again and stepped on the spot) */
    const ak_vec3 root = m->standing ? coast_rest(m) : m->pos;
    const ak_vec3 pt = m->standing ? stand_point(m, s, m->fst.lock_toe[s]) : gait_scaled(m, held);
    /* less the body's own travel over the foot (body_lead) */
    const ak_vec3 fwd = akq_rotate(yaw, ak_vec3_make(0.0f, 0.0f, 1.0f));
    const ak_vec3 lead = body_lead(m, s, fwd);
    const ak_vec3 sole = akv_sub(akv_add(akv_add(root, akq_rotate(yaw, pt)),
                                         akv_add(akv_add(m->place_shift[s], cancel), m->held[s])),
                                 lead);
    const float dx = sole.x - m->fst.lock_point[s].x, dz = sole.z - m->fst.lock_point[s].z;
    /* Walking on straight without a jump (the controller turning slower than AK_LAG_TURN), a
     * frame's foot behind the lock (within 60 degrees of straight back along the heading) is the
     * body lagging the frame's root, not the pose leaving the foot behind: the body comes on
     * over the foot, which stays planted. Starting from rest the body is slower than the
     * frame's walk, and at 0.1 m the release re-stepped the planted foot back to where the
     * frame had it, its heel carried 49 mm up at 1.0 m/s (CMU subject 2 on every ground, frame
     * 9: walk_physics.h's hover, the database's worst skate 0.37 m/s). Turning, the foot is
     * released as before: kept planted through a start turning 90 degrees, its leg twisted and
     * the left foot turned at 4168 rad/s^2 (test_matching_walk, 3.2 times the captures'). */
    const int lags = !jump && !m->standing && fabsf(m->sim_angvel) < AK_LAG_TURN &&
                     dx * fwd.x + dz * fwd.z < -0.5f * sqrtf(dx * dx + dz * dz);
    if (!lags && dx * dx + dz * dz > m->p.unlock_distance * m->p.unlock_distance) {
        if (jump && !m->released[s]) {
            m->unlock_due[s] = 1;
        } else if (!crosses) {
            if (!m->released[s]) {
                ++m->unlocks;
                begin_step_up(m, s, dest_rise(m, s));
                restep_start(m, s);
            }
            m->released[s] = 1;
        }
    }
}

/* Whether planted foot s is rolled over its toe (the grounding's reach_roll) with its heel up by
 * more than the stance gate (within it the heel is down, and the hips come down for it): the
 * stand frame's leg is straight, at the edge of its reach, and a roll begun by the hips' last
 * millimetre re-stepped the foot 2-3 times at CMU 07_01's and 07_04's stops, each step moving
 * the stop 0.1-0.3 s (their studio variants stopped 0.2-0.3 s apart). Not while the planned hips
 * are above their goal by the heel's height or more (ak_foot_ik_state.pelvis against
 * pelvis_goal): they are still coming down, and the heel with them. The hips' spring brakes a
 * rise at a quarter of the g it rises with; CMU subject 9's stop down the stairs from (-5.4,0)
 * (frame 254) carried the hips 59 mm over the animation, 375 mm over their goal, the right foot
 * just landed rolled its heel 51 mm up, stepped anew and its heel moved back 13-15 mm a frame
 * 20-65 mm up as its toe lock faded (walk_physics.h's hover, 926 mm/s). */
static int rolled_up(const ak_matcher *m, int s)
{
    const float up = m->fst.sole[s].y - m->sole_ground[s];
    if (m->fst.pelvis - m->fst.pelvis_goal >= up) return 0;
    return m->fst.reach_roll[s] && up > m->p.stance_gate;
}

/* At the stop, foot s whose landing is held back out of reach: a step of the stop put it where
 * the stand frame had it at rest as foreseen when it lifted, and the stop (a turn still under
 * way, the capsule on a stair) moved that out of its leg's reach, or it came straight down where
 * it was (touchdown_hold) out of reach: once the coast is over, it steps there (a run's foot held
 * 167 mm up for good). */
static void stop_out_of_reach(ak_matcher *m, int s)
{
    if (coast_left(m) < AK_STOP_SETTLED && !m->rs[s].step.on &&
        (m->rs[s].placed ? stop_missed(m, s) : m->touch[s].on)) {
        m->rs[s].placed = 0;
        restep_start(m, s);
    }
}

/* Standing, planted foot s the planned hips left rolled over its toe (its heel up for the rest
 * of the stance, which standing never ends) steps anew: released, it lands where its leg reaches
 * (the grounding's shorter landing) with the heel down (a left heel held 29 mm up at CMU subject
 * 2's stop, tests/plugin/test_plugin_matching.c); one at a time, the other planted (both rolled
 * at once on subject 2's heightmap stop: both released, the one waiting slid 2 cm back onto its
 * lock at 2.3 m/s). */
static void stop_rolled(ak_matcher *m, int s)
{
    const int o = 1 - s;
    if (m->stance[s] && !m->released[s] && rolled_up(m, s) && m->stance[o] && !m->released[o] &&
        !m->rs[o].step.on && !m->rs[s].step.on && !m->rs[s].due) {
        m->released[s] = 1;
        ++m->unlocks;
        restep_start(m, s);
    }
}

/* Whether foot s, not planted, is about to land: its lower point shown last frame within the
 * stance gate plus what a foot comes down over the planting's fade-in (1/stance_fade_rate at 0.5
 * m/s: floor_and_ik's lead, 31 mm with the defaults) of the ground under it. */
static int landing_near(const ak_matcher *m, int s)
{
    const float heel = m->fst.sole[s].y - m->sole_ground[s];
    const float toe = m->fst.toe[s].y - m->toe_ground[s];
    const float low = isfinite(toe) ? (isfinite(heel) ? akf_min(heel, toe) : toe) : heel;
    return isfinite(low) && low <= m->p.stance_gate + 0.5f / m->fik.stance_fade_rate;
}

/* The stop's landing of foot s that waits while its point still moves (stop_landing_moving): a
 * foot in the air steps to where the stand frame has it at rest, the other foot down; one within
 * AK_WALK_SKATE_HEIGHT of the ground is held where it touched (touchdown_hold), and steps there
 * too if that is beyond unlock_distance (its step waits planted while the other foot is in the
 * air, restep_waits): held unplanted, its heel drifting 0.4-6 mm up under the settling hips, it
 * planted when that drift let it, then stepped -- CMU 02_01's stop held its right foot so 38
 * frames, its still-top copy (joints 4.5e-5 m apart) 3 frames longer, and the copy arrived
 * 0.05 s later (test_cli_walk). With the other foot in the air too (a run stopping in flight), or
 * landing within unlock_distance of its place, it comes straight down where it is and bears,
 * and steps on from there once planted if it must (unlock): stepped at once, both feet were up
 * for 12-23 frames at 120 Hz. So does a foot about to land (landing_near): stepped to its place
 * from just over the ground, the other foot waited planted while the body coasted away from it.
 * CMU 02_01 at 30 fps up the stairs from (-4.7,0): the right heel 14 mm up at arrival (frame
 * 586), 0.16 m ahead of its place, stepped back over 0.27 s while the left, 0.81 m behind its
 * place, waited on its toe; the coast carried the hips 0.29 m past that toe, the grounding lifted
 * it out of reach (frame 600: both feet up a frame, 601) and its step began from 26 mm up (a toe
 * the stand frame has down, 0.72 m/s). Now the right comes down where it is, the left (the
 * farther from its place, restep_waits) steps first, then the right. */
static void stop_landing(ak_matcher *m, int s)
{
    if (m->rs[s].step.on || m->rs[s].due) return;
    if (bears(m, s)) {
        if (stop_step_length(m, s) > m->p.unlock_distance) restep_start(m, s);
        return;
    }
    if (bears(m, 1 - s) && stop_step_length(m, s) > m->p.unlock_distance && !landing_near(m, s)) {
        restep_start(m, s);
    } else {
        if (!m->touch[s].on) {
            m->touch[s].on = 1;
            m->touch[s].toe = 0;
            m->touch[s].at = m->fst.sole[s];
        }
        /* it steps on from there once it bears (stop_step_after) */
        m->rs[s].away = 1;
    }
}

/* A foot the stop's landing brought down where it was (stop_landing) beyond unlock_distance
 * from its place: once it bears, its step of the stop is due and waits planted for the other
 * foot (restep_waits), not a lock released once planted (unlock: CMU 09_02 at 24 fps, a left
 * foot landing 0.6 m from its place while the right was in the air; due while still in the
 * air, it stayed up, both feet up 21 frames). */
static void stop_step_after(ak_matcher *m, int s)
{
    if (!m->standing) m->rs[s].away = 0;
    if (!m->rs[s].away || !bears(m, s)) return;
    m->rs[s].away = 0;
    if (stop_step_length(m, s) > m->p.unlock_distance) restep_start(m, s);
}

/* The contact of foot s (c this far, kept: its stance's, own_c: its frame's) while it steps: a
 * step of the stop that waits for the other foot (restep_waits) keeps this one planted, one
 * coming down plants once foot IK has faded its planting in, as any landing (planted at once, the
 * library's stop held its left heel 11.6 mm up, a third of its lift, while the right stepped); a
 * foot released, stepping or about to is not down. */
static int32_t stepping_contact(ak_matcher *m, int s, int32_t c, int32_t kept, int32_t own_c)
{
    m->rs[s].waits = restep_waits(m, s);
    if (m->rs[s].waits && (kept || bears(m, s)))
        return kept ? kept : m->fst.stance_weight[s] < 1.0f ? 0 : own_c;
    if (m->released[s] || m->rs[s].step.on || m->rs[s].due) return 0;
    return c;
}

/* Stance of the shown pose: the playing frame's contacts (heel and toe bits), except that a
 * stance taken over from a new frame (a transition, the stop) begins only once the shown
 * foot, still carrying the transition's offset, has come down to the frame's own height or
 * below (the ankle, or the toe for a toe-only contact), or the grounding already shows it on
 * the ground: foot IK would otherwise pull a lifted foot down over a few frames while calling
 * it planted; nor, at the stop, while the shown foot still moves along the ground faster than
 * a landing (stop_landing_moving). m->world: the shown in-place pose (the floor at y = 0). */
static void update_stance(ak_matcher *m)
{
    const ak_quat yaw = ak_quat_yaw(m->heading);
    for (int s = 0; s < 2; ++s) {
        m->anim_sole[s] = ak_foot_ik_sole(&m->fik, m->world, s);
        const int32_t own_c =
            m->standing ? AK_CONTACT_HEEL | AK_CONTACT_TOE : m->db->contact[2 * m->frame + s];
        int32_t c = own_c;
        m->source_contact[s] = own_c & (AK_CONTACT_HEEL | AK_CONTACT_TOE);
        /* a point that comes down now (heel or toe) must be at the frame's own height */
        const int32_t kept = m->stance[s] ? m->contact[s] : 0, starts = c & ~kept;
        /* a planted foot the frame still has down whose release would slide it over a riser */
        const int crosses = kept && own_c && release_crosses_riser(m, s);
        /* (at or below the frame's foot, or shown on the ground: down; only one above waits) */
        if (starts && lifted_start(m, s, starts)) c &= kept;
        /* a heel coming down on a foot rolling over its toe: where foot IK left that heel;
         * and while the lock still holds the toe (the heel fading down, pivot_weight), a heel
         * the last frame left that far above its ground: the foot stands on its toe on a tread
         * with the heel over the lower one behind its edge (its heel lock would start there and
         * be put on that lower ground, the toe 72 mm into the tread: CMU subject 9's run up
         * stairs) */
        const int pivoting = (kept & AK_CONTACT_HEEL) && (c & AK_CONTACT_TOE) && m->fst.lock_toe[s];
        if ((c & AK_CONTACT_HEEL) && ((starts & AK_CONTACT_HEEL) || pivoting) && kept &&
            isfinite(m->sole_ground[s]) && m->fst.sole[s].y - m->sole_ground[s] > m->p.stance_gate)
            c &= ~AK_CONTACT_HEEL;
        /* and a foot lands only once foot IK has faded its planting in (stance_next leads
         * stance by 1/stance_fade_rate; a transition's offset can cut that lead short) --
         * the stop too: a swinging foot the stand frame brings down kept a third of its lift
         * at its first stance frame (a heel 12 mm up while down); not on the first frame,
         * which places the character with the frame's feet down (nothing fades in) */
        if (c && !kept && m->initialized && (!m->standing || m->p.foot_ik) &&
            m->fst.stance_weight[s] < 1.0f)
            c = 0;
        /* (a foot a step of the stop has put down where the stand frame has it at rest lands
         * there: its touchdown_hold keeps it there, wherever the frame's foot still goes) */
        if (!m->standing || kept) m->rs[s].placed = 0;
        const int moving = m->stop_moving[s] && !m->rs[s].placed;
        if (c && !kept && m->initialized && moving) c = 0; /* stop_landing_moving */
        /* a landing held back stays held back (its foot goes where the frame has it,
         * cancel_offset) until it lands or the frame lifts it */
        if (own_c && !kept && out_of_reach(m, s)) {
            c = 0;
            m->held_back[s] = 1;
            if (m->standing) stop_out_of_reach(m, s);
        }
        const float *own = m->db->raw + (size_t)m->frame * AK_MATCH_FEATURES;
        m->offset_lift[s] = fabsf(m->world[m->fik.legs[s].foot].translation.y - own[1 + 3 * s]);
        /* Unlock: a planted foot the new frame's pose (a transition, the stop) has left far
         * behind is released for the rest of that stance (foot IK fades it onto the
         * animation), else the leg would stretch for it and the hips drop. */
        if (!own_c) m->released[s] = 0; /* the frame lifts it: the release is over */
        /* Standing, a released foot plants anew once foot IK has faded its old lock out. */
        if (m->standing && m->released[s] && m->fst.lock_weight[s] <= 0.0f &&
            coast_left(m) < m->p.unlock_distance)
            m->released[s] = 0;
        m->unlock_due[s] = 0;
        stop_step_after(m, s);
        /* (a step of the stop under way or due moves the foot already) */
        if (c && !(m->standing && (m->rs[s].step.on || m->rs[s].due))) unlock(m, s, yaw, crosses);
        if (m->standing) stop_rolled(m, s);
        if (own_c && !kept && m->standing && m->initialized && moving) stop_landing(m, s);
        /* a re-step lands: its foot plants anew where it lands, the planting faded in over its
         * descent (stance_next leads stance by 1/stance_fade_rate) */
        if (m->rs[s].step.on && own_c &&
            ak_restep_left(&m->rs[s].step) <= 1.0f / m->fik.stance_fade_rate)
            m->released[s] = 0;
        if (m->landing_jump[s] && m->cancel_rebase == 2) { /* (transition) */
            restep_start(m, s);
            /* a step under way goes on to where the foot is kept (cancel_offset) */
            m->landing_jump[s] = m->rs[s].due;
        }
        c = stepping_contact(m, s, c, kept, own_c);
        /* nor does its stance end while the frame has it down (a heel-to-toe change the stance
         * gate refuses, a landing held back) */
        if (crosses && !c && !m->released[s]) c = kept;
        if (c || !own_c || m->standing) m->held_back[s] = 0;
        m->stance[s] = c != 0;
        m->contact[s] = c;
    }
}

/* The stop: a planted foot the coasting root will leave farther than unlock_distance from
 * where the stand frame has that foot at rest is released now and steps there (it lands
 * when the stand frame's foot comes down and the coast is nearly over, update_stance),
 * instead of being held until the leg runs out of reach and the hips drop to let it (a body
 * coasting over a locked foot: -2.40 g at CMU subject 7's stop with planned hips). */
static void stop_release(ak_matcher *m)
{
    const ak_vec3 rest = coast_rest(m);
    const ak_quat yaw = ak_quat_yaw(m->heading);
    ak_motion_db_pose(m->db, m->frame, m->own_local);
    ak_fk(m->db->skeleton, m->own_local, m->own_world);
    for (int s = 0; s < 2; ++s) {
        if (!m->stance[s] || m->fst.lock_weight[s] <= 0.0f) continue;
        const ak_vec3 held = m->fst.lock_toe[s] ? ak_foot_ik_toe(&m->fik, m->own_world, s)
                                                : ak_foot_ik_sole(&m->fik, m->own_world, s);
        const ak_vec3 at = akv_add(rest, akq_rotate(yaw, gait_scaled(m, held)));
        const float dx = at.x - m->fst.lock_point[s].x, dz = at.z - m->fst.lock_point[s].z;
        if (dx * dx + dz * dz > m->p.unlock_distance * m->p.unlock_distance) {
            m->released[s] = 1;
            ++m->unlocks;
            restep_start(m, s);
        }
    }
}

/* The stop's coast ends on the target: the rate of the velocity offset takes the difference
 * between where the root would come to rest and the target, w^2 d (the coast's integral is
 * 2 x0 / w + v0 / w^2): the character brakes harder or less hard (or veers) over the same
 * 0.25 s. A run reaches the radius with 0.9 m of coast left at 3.5 m/s, and its path can pass
 * the target off to the side. A rest point within half the arrival radius was once left
 * alone: the stop then fell anywhere 0.12-0.15 m short, by where the arrival check's frame fell
 * in a walk's 2 cm of travel a frame, so a capture and its 30 fps copy (a few millimetres of
 * path apart) stopped 9-14 mm apart. */
static void stop_steer(ak_matcher *m)
{
    const ak_vec3 rest = coast_rest(m);
    const float dx = m->p.target.x - rest.x, dz = m->p.target.z - rest.z;
    const float y = aks_spring_omega(0.5f * m->p.stop_time);
    m->vel_v = akv_add(m->vel_v, akv_scale(ak_vec3_make(dx, 0.0f, dz), y * y));
}

/* As the stop begins: each foot in the air (not bearing) whose walk frame puts it down further
 * on in its range keeps when that would have been (restep_foot.land_at): its step of the stop
 * lands then, the run's own flight time, not a step's (restep_hold). */
static void stop_landings(ak_matcher *m)
{
    const ak_motion_db *db = m->db;
    const int32_t last = range_last(db, m->frame);
    const float step = db->frame_time / (m->rate > 0.1f ? m->rate : 0.1f);
    const int flight = !touches(m, 0) && !touches(m, 1);
    for (int s = 0; s < 2; ++s) {
        m->rs[s].land_at = 0.0;
        if (!flight || db->contact[2 * m->frame + s]) continue;
        for (int32_t f = m->frame + 1; f <= last; ++f)
            if (db->contact[2 * f + s]) {
                m->rs[s].land_at = m->time + (double)(((float)(f - m->frame) - m->frac) * step);
                break;
            }
    }
}

static int32_t matcher_begin(ak_matcher *m, float dt, ak_vec3 *desired_move, ak_error *err)
{
    if (!m) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null matcher");
    if (!(dt >= 0.0f) || !(dt < 10.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "dt must be in [0, 10) s");
    m->time += (double)dt;
    m->dt = dt;
    update_desire(m, dt);
    check_arrival(m);
    if (m->arrived && !m->standing) {
        stop_landings(m);
        transition(m, m->db->stand_frame, 1);
        stop_steer(m);
        /* the planned hips do not come down for a leg the coast leaves behind: released, it
         * steps (swing_within_reach keeps it in reach) */
        if (m->p.foot_ik) stop_release(m);
    }
    if (!m->arrived && m->standing) m->force_search = 1;
    maybe_search(m, dt);
    m->move = advance(m, dt);
    animate(m, dt);
    m->position_set = 0;
    m->phase = 1;
    if (desired_move) *desired_move = m->move;
    return AK_OK;
}

void ak_matcher_set_position(ak_matcher *m, ak_vec3 position)
{
    if (!m || !akv_finite(position)) return;
    const float dx = position.x - m->pos.x, dz = position.z - m->pos.z;
    m->path_length += sqrtf(dx * dx + dz * dz);
    m->pos = position;
    m->position_set = 1;
}

int32_t ak_matcher_ground_rays(ak_matcher *m, ak_ground_ray *rays, int32_t capacity)
{
    if (!m || !rays || capacity < AK_MATCHER_RAY_COUNT) return AK_MATCHER_RAY_COUNT;
    if (!m->position_set) {
        m->path_length += sqrtf(m->move.x * m->move.x + m->move.z * m->move.z);
        m->pos.x += m->move.x;
        m->pos.z += m->move.z;
        m->position_set = 1;
        m->height_from_ray = 1;
    }
    ak_fk(m->db->skeleton, m->anim, m->world); /* in place: the floor is y = 0 */
    stop_landing_moving(m);
    update_stance(m);
    frame_rays(m, rays);
    if (m->phase == 1) m->phase = 2;
    return AK_MATCHER_RAY_COUNT;
}

/* The hits as the grounding reads them (h: the sole, toe and landing hits, floor_and_ik's):
 * a heel or toe hit of a fading foot moved along its tangent plane to the grounding's query
 * point (fade_query); a swinging toe's, the tread ahead where a riser rises between
 * (toe_ahead: its clearance lifts the toe before it gets there), or for a toe whose ray looks at
 * its landing, toe_guard; and what the planted feet's spare rays found (release_crosses_riser). */
static void spare_hits(ak_matcher *m, const ak_ground_hit *hits, ak_ground_hit *h)
{
    memcpy(h, hits + 1, sizeof(ak_ground_hit) * (AK_MATCHER_RAY_COUNT - 1));
    for (int s = 0; s < 2; ++s) { /* flat_toe_ray's: a riser up, or level with the heel */
        ak_ground_hit *toe = &h[2 + s];
        if (m->toe_flat[s] && tread(toe) && tread(&h[s]) &&
            h[s].height - toe->height >= AK_FLOOR_STEP_MIN)
            *toe = h[s];
        m->toe_up[s] = m->toe_flat[s] && tread(toe) && tread(&h[s]) &&
                       toe->height - h[s].height >= AK_FLOOR_STEP_MIN;
    }
    for (int k = 0; k < 4; ++k) {
        ak_ground_hit *g = &h[k];
        const ak_vec3 a = m->cast[k], b = m->query[k];
        if (g->hit && g->normal.y > 1e-3f && (a.x != b.x || a.z != b.z))
            g->height += (g->normal.x * (a.x - b.x) + g->normal.z * (a.z - b.z)) / g->normal.y;
    }
    for (int k = 0; k < 3; ++k) {
        const ak_ground_hit *g = &hits[5 + k];
        const int dest = m->spare[k] == AK_SPARE_DEST;
        if (k < 2) {
            m->dest_ground[k] = dest && g->hit ? g->height : NAN;
            m->dest_level[k] = dest && tread(g) && tread(&hits[1 + k]);
        }
        if (m->spare[k] != AK_SPARE_AHEAD) continue;
        if (m->stepping[m->spare_foot[k]] && tread(g)) m->step_ground[m->spare_foot[k]] = g->height;
        const int f = m->spare_foot[k];
        if (m->toe_at_land[f]) { /* its toe hit is the landing toe's (ak_foot_place_decide) */
            if (tread(g) && tread(&h[f]) && g->height - h[f].height >= AK_FLOOR_STEP_MIN)
                m->toe_guard[f] = *g;
            continue;
        }
        ak_ground_hit *toe = &h[2 + f];
        if (tread(g) && tread(toe) && g->height - toe->height >= AK_FLOOR_STEP_MIN) *toe = *g;
    }
}

/* A planted foot turned toe-up against a riser (toe_up) that a jump releases keeps its toe where
 * it was shown: its fading lock moves from the heel to that toe. Held at the heel, the fading
 * lock kept the heel in place while the foot turned to the new frame's flatter pitch, and the
 * toe swept forward past the riser's face under the tread above (the held-out trial's walk30m,
 * CMU 02_01 at 30 fps mirrored, up the CLI's stairs, frame 329: the heel on its tread 1 cm
 * short of the riser, the toe 85 mm up, then 14 mm on, 31.7 mm under the tread). Held at the
 * toe the lock turns the foot about it, and its re-step starts from the toe (restep_hold). Only
 * a toe turned up, over its heel by more than a point on the ground is (AK_WALK_SKATE_HEIGHT): a
 * foot flat on its tread with its toe at the riser's foot keeps its heel lock, as the pitch does
 * not change there (turned about its toe, CMU subject 2's left heel up the stairs swung back 41
 * mm up at 0.91 m/s, frame 189, against the database's worst 0.37). */
static void toe_up_lock(ak_matcher *m, int s)
{
    ak_foot_ik_state *st = &m->fst;
    if (!m->toe_up[s] || !m->fik.legs[s].has_toe || st->lock_toe[s] ||
        !(st->lock_weight[s] > 0.0f) || !(st->toe[s].y - st->sole[s].y > AK_WALK_SKATE_HEIGHT))
        return;
    st->lock_toe[s] = 1;
    st->lock_point[s] = st->toe[s];
}

static int32_t matcher_finish(ak_matcher *m, const ak_ground_hit *hits, int32_t count,
                              ak_error *err)
{
    if (!m || !hits || count < AK_MATCHER_RAY_COUNT)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "need %d ground hits",
                            AK_MATCHER_RAY_COUNT);
    /* The hits answer the rays of this frame's begin: finishing a frame that was not begun
     * (or whose rays were not asked for) would apply stale hits to a stale pose. */
    if (m->phase != 2)
        return ak_error_set(err, AK_ERR_STATE, 0,
                            "ak_matcher_finish needs ak_matcher_begin and "
                            "ak_matcher_ground_rays first");
    m->phase = 0;
    if (m->height_from_ray && hits[0].hit) m->pos.y = hits[0].height;
    m->height_from_ray = 0;
    ak_ground_hit h[AK_MATCHER_RAY_COUNT - 1];
    m->toe_guard[0].hit = m->toe_guard[1].hit = 0;
    spare_hits(m, hits, h);
    /* a jump's unlock (update_stance), now that the ray at the new frame's foot has answered:
     * released unless that ray finds it a riser down or up behind where it stands (then it
     * stays planted until the frame lifts it, release_crosses_riser); a riser up ahead, it
     * steps up (begin_step_up) */
    for (int s = 0; s < 2; ++s) {
        if (!m->unlock_due[s]) continue;
        m->unlock_due[s] = 0;
        const int dest = m->spare[s] == AK_SPARE_DEST && isfinite(m->dest_ground[s]) &&
                         m->dest_level[s] && isfinite(m->sole_ground[s]);
        const float rise = dest ? m->dest_ground[s] - m->sole_ground[s] : 0.0f;
        if (refuse_release(m, s, rise)) continue;
        ++m->unlocks;
        m->released[s] = 1;
        m->stance[s] = 0;
        m->contact[s] = 0;
        toe_up_lock(m, s);
        begin_step_up(m, s, rise);
        if (m->stepping[s]) { /* held from this frame's solve on */
            m->fst.shift[s] = akv_sub(m->fst.shift[s], m->step_hold[s]);
            step_up_hold(m, s);
        }
        restep_start(m, s);
        if (m->rs[s].due) restep_hold(m, s);
    }
    for (int s = 0; s < 2; ++s) { /* (out_of_reach's rate) */
        m->due_was[s] = m->fst.due_drop[s];
        m->due_known[s] = m->initialized;
    }
    const int32_t st = floor_and_ik(m, h, err);
    if (st != AK_OK) return st;
    for (int s = 0; s < 2; ++s) {
        m->sole_ground[s] = hits[1 + s].hit ? hits[1 + s].height : NAN;
        m->toe_ground[s] = hits[3 + s].hit ? hits[3 + s].height : NAN;
    }
    m->initialized = 1;
    return AK_OK;
}

static int32_t matcher_step(ak_matcher *m, float dt, const ak_ground *ground, ak_error *err)
{
    int32_t st = matcher_begin(m, dt, NULL, err);
    if (st != AK_OK) return st;
    if (m->p.use_controller) {
        m->ctrl.position = ak_vec3_make(m->pos.x, m->ctrl.position.y, m->pos.z);
        ak_controller_move(&m->ctrl, ground, m->p.boxes, m->p.box_count, m->move, dt, NULL);
        ak_matcher_set_position(m, m->ctrl.position);
    }
    ak_ground_ray rays[AK_MATCHER_RAY_COUNT];
    ak_ground_hit hits[AK_MATCHER_RAY_COUNT];
    ak_matcher_ground_rays(m, rays, AK_MATCHER_RAY_COUNT);
    for (int i = 0; i < AK_MATCHER_RAY_COUNT; ++i)
        ak_ground_cast(ground, &rays[i], &hits[i]);
    st = matcher_finish(m, hits, AK_MATCHER_RAY_COUNT, err);
    if (st != AK_OK) return st;
    /* Ground exactly under the final soles, for the state and the measures. */
    for (int s = 0; s < 2; ++s) {
        const ak_vec3 sole = m->p.foot_ik ? m->fst.sole[s] : ak_foot_ik_sole(&m->fik, m->world, s);
        const ak_vec3 toe = m->p.foot_ik ? m->fst.toe[s] : ak_foot_ik_toe(&m->fik, m->world, s);
        ak_ground_hit h;
        m->sole_ground[s] = ak_ground_query(ground, sole.x, sole.z, &h) ? h.height : NAN;
        m->toe_ground[s] = ak_ground_query(ground, toe.x, toe.z, &h) ? h.height : NAN;
    }
    return AK_OK;
}

void ak_matcher_get_state(const ak_matcher *m, ak_walker_state *s)
{
    if (!m || !s) return;
    memset(s, 0, sizeof *s);
    s->time = (float)m->time;
    s->elapsed = m->time;
    s->clip_time = (float)m->frame * m->db->frame_time;
    s->cycle = m->transitions;
    s->position = m->pos;
    s->heading = m->heading;
    s->guide_heading = m->sim_heading;
    s->distance = target_distance(m);
    s->path_length = m->path_length;
    s->arrived = m->arrived;
    /* Stopped: standing on both feet, the stop's root offsets died away. */
    s->stopped = m->standing && m->stance[0] && m->stance[1] && akv_len(m->vel_x) < 1e-3f &&
                 akv_len(m->root_x) < 1e-3f;
    s->idle_weight = m->standing ? 1.0f : 0.0f;
    for (int k = 0; k < 2; ++k) {
        /* released feet in the air, heels rolled about the toe not down (the grounding's) */
        s->stance[k] = m->stance[k];
        s->contact[k] = m->contact[k];
        s->source_contact[k] = m->source_contact[k];
        if (m->p.foot_ik)
            s->contact[k] =
                ak_foot_ik_shown_contact(&m->fst, k, m->stance[k], m->contact[k], &s->stance[k]);
        /* a heel the grounding lifts about the locked toe (the foot rolled) is up, not down */
        if (s->stance[k] && s->contact[k] == AK_CONTACT_TOE)
            s->source_contact[k] &= ~AK_CONTACT_HEEL;
        s->sole[k] =
            m->p.foot_ik && m->initialized ? m->fst.sole[k] : ak_foot_ik_sole(&m->fik, m->world, k);
        s->sole_ground[k] = m->sole_ground[k];
        s->toe[k] =
            m->p.foot_ik && m->initialized ? m->fst.toe[k] : ak_foot_ik_toe(&m->fik, m->world, k);
        s->toe_ground[k] = m->toe_ground[k];
        s->tilt[k] = m->p.foot_ik ? m->fst.tilt[k] : 0.0f;
    }
    s->hip_drop = m->p.foot_ik ? m->fst.applied_hip_drop : 0.0f;
}

void ak_matcher_get_info(const ak_matcher *m, ak_matcher_info *info)
{
    if (!m || !info) return;
    memset(info, 0, sizeof *info);
    info->frame = m->frame;
    ak_motion_db_frame_source(m->db, m->frame, &info->clip, &info->source_time);
    info->cost = m->cost;
    info->transitions = m->transitions;
    info->searches = m->searches;
    info->unlocks = m->unlocks;
    info->standing = m->standing;
    info->rate = m->rate;
    const ak_quat yaw = ak_quat_yaw(m->heading);
    const float *r = m->db->raw + (size_t)m->frame * AK_MATCH_FEATURES;
    for (int k = 0; k < AK_MATCH_TRAJ_POINTS; ++k) {
        ak_vec3 d;
        float h;
        predict(m, traj_t[k], &d, &h);
        info->desired_position[k] = akv_add(m->pos, d);
        info->desired_facing[k] = ak_vec3_make(sinf(h), 0.0f, cosf(h));
        const ak_vec3 mp =
            m->standing ? ak_vec3_make(0, 0, 0) : ak_vec3_make(r[15 + 2 * k], 0, r[16 + 2 * k]);
        const ak_vec3 mf =
            m->standing ? ak_vec3_make(0, 0, 1) : ak_vec3_make(r[21 + 2 * k], 0, r[22 + 2 * k]);
        info->matched_position[k] = akv_add(m->pos, akq_rotate(yaw, mp));
        info->matched_facing[k] = akq_rotate(yaw, mf);
    }
}

const ak_xform *ak_matcher_world_pose(const ak_matcher *m)
{
    return m ? m->world : NULL;
}
const ak_xform *ak_matcher_local_pose(const ak_matcher *m)
{
    return m ? m->local : NULL;
}
const ak_xform *ak_matcher_anim_pose(const ak_matcher *m)
{
    return m ? m->anim : NULL;
}

/* ---- One thread at a time: the frame calls take the busy flag ---- */

static int32_t matcher_busy(ak_error *err, const char *call)
{
    return ak_error_set(err, AK_ERR_STATE, 0,
                        "%s: the matcher is in use by another thread's call (a matcher serves one "
                        "thread at a time)",
                        call);
}

int32_t ak_matcher_begin(ak_matcher *w, float dt, ak_vec3 *desired_move, ak_error *err)
{
    if (w && !akb_enter(&w->busy)) return matcher_busy(err, "ak_matcher_begin");
    const int32_t st = matcher_begin(w, dt, desired_move, err);
    if (w) akb_leave(&w->busy);
    return st;
}

int32_t ak_matcher_finish(ak_matcher *w, const ak_ground_hit *hits, int32_t count, ak_error *err)
{
    if (w && !akb_enter(&w->busy)) return matcher_busy(err, "ak_matcher_finish");
    const int32_t st = matcher_finish(w, hits, count, err);
    if (w) akb_leave(&w->busy);
    return st;
}

int32_t ak_matcher_step(ak_matcher *w, float dt, const ak_ground *ground, ak_error *err)
{
    if (w && !akb_enter(&w->busy)) return matcher_busy(err, "ak_matcher_step");
    const int32_t st = matcher_step(w, dt, ground, err);
    if (w) akb_leave(&w->busy);
    return st;
}
