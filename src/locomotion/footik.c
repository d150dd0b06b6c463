/* Foot IK: hip drop, limb IK per leg, feet aligned to the ground normal, stance locks,
 * weights that fade at per-second rates. And reach: a hand on a fixed point. */
#include "animkit/ik.h"
#include "animkit/grounding.h"
#include "core/skeleton_internal.h"
#include "core/spring.h"
#include "core/xform_inline.h"
#include "ik/ik_internal.h"
#include "locomotion/internal.h"

#include <float.h>
#include <string.h>

ak_foot_ik_params ak_foot_ik_defaults(void)
{
    ak_foot_ik_params p;
    memset(&p, 0, sizeof p);
    for (int s = 0; s < 2; ++s) {
        p.legs[s].upper = p.legs[s].lower = p.legs[s].foot = -1;
        p.legs[s].sole_height = 0.08f;
        p.legs[s].up_local = ak_vec3_make(0, 1, 0);
    }
    p.hips = 0;
    p.weight = 1.0f;
    p.max_tilt = 45.0f * AK_PI / 180.0f;
    p.lock_release_rate = 8.0f;
    p.ground_fade_rate = 4.0f;
    p.stance_fade_rate = 20.0f;
    p.swing_height_rate = 2.0f;
    p.hip_drop_rate = 0.8f;
    p.max_hip_drop = 0.45f;
    p.max_hip_rise = 0.0f;
    p.hip_drop_stiffness = 20.0f;
    p.hip_accel_down = 0.0f;
    p.hip_accel_up = 0.0f;
    p.pole_distance = 0.5f;
    p.lock_feet = 1;
    return p;
}

static int valid_joint(const ak_skeleton *sk, int32_t j)
{
    return j >= 0 && j < sk->joint_count;
}

int32_t ak_foot_ik_validate(const ak_foot_ik_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params");
    const ak_skeleton *sk = p->skeleton;
    if (!sk) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "params.skeleton is required");
    for (int s = 0; s < 2; ++s) {
        const ak_foot_ik_leg *l = &p->legs[s];
        if (!valid_joint(sk, l->upper) || !valid_joint(sk, l->lower) || !valid_joint(sk, l->foot) ||
            !(l->upper < l->lower && l->lower < l->foot))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "%s leg joints missing or not upper < lower < foot",
                                s == 0 ? "left" : "right");
        if (!(l->sole_height >= 0.0f) || !isfinite(l->sole_height) || !akv_finite(l->up_local) ||
            akv_len(l->up_local) < 0.5f || !akv_finite(l->toe_local))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "legs[%d]: sole_height must be >= 0, up_local a unit vector and "
                                "toe_local finite",
                                s);
    }
    if (!valid_joint(sk, p->hips))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "hips joint out of range");
    /* the range table first: its messages name the field and its bounds */
    const int32_t st = ak_params_check(ak_foot_ik_param_ranges(), p, err);
    if (st != AK_OK) return st;
    if (!(p->weight >= 0.0f && p->weight <= 1.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "weight must be in [0, 1]");
    if (!(p->max_tilt >= 0.0f && p->max_tilt <= 89.0f * AK_PI / 180.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "max_tilt must be in [0, 1.5533] radians (89 degrees)");
    if (!(p->lock_release_rate > 0.0f) || !(p->ground_fade_rate > 0.0f) ||
        !(p->stance_fade_rate > 0.0f) || !(p->swing_height_rate > 0.0f) ||
        !(p->hip_drop_rate > 0.0f) || !(p->hip_drop_stiffness > 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "lock_release_rate, ground_fade_rate, stance_fade_rate, "
                            "swing_height_rate, hip_drop_rate and hip_drop_stiffness must be > 0");
    if (!(p->hip_accel_down >= 0.0f) || !(p->hip_accel_up >= 0.0f) ||
        !isfinite(p->hip_accel_down) || !isfinite(p->hip_accel_up) ||
        (p->hip_accel_down > 0.0f) != (p->hip_accel_up > 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "hip_accel_down and hip_accel_up must be both 0 (off) or both > 0");
    for (int s = 0; s < 2; ++s)
        if (!(p->legs[s].landing_slack >= 0.0f) || !isfinite(p->legs[s].landing_slack))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "legs[%d].landing_slack must be >= 0",
                                s);
    if (!(p->max_hip_drop >= 0.0f) || !isfinite(p->max_hip_drop) || !isfinite(p->pole_distance))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "max_hip_drop must be >= 0 and pole_distance finite");
    if (!(p->max_hip_rise >= 0.0f) || !isfinite(p->max_hip_rise))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "max_hip_rise must be >= 0");
    return AK_OK;
}

void ak_foot_ik_state_reset(ak_foot_ik_state *st)
{
    if (st) memset(st, 0, sizeof *st);
}

/* The sole (heel) and toe contact points of leg `side` in a world pose; inlined here, where
 * every frame asks for them several times, and behind the public forms below. */
/* The sole point below an ankle at `ankle` whose foot's up axis (world) is `up`. */
static inline ak_vec3 sole_below(const ak_foot_ik_leg *l, ak_vec3 ankle, ak_vec3 up)
{
    return akv_sub(ankle, akv_scale(up, l->sole_height));
}

static ak_vec3 sole_point(const ak_foot_ik_params *p, const ak_xform *world, int32_t side)
{
    const ak_foot_ik_leg *l = &p->legs[side & 1];
    const ak_xform f = world[l->foot];
    return sole_below(l, f.translation, akq_rotate(f.rotation, l->up_local));
}

static ak_vec3 toe_point(const ak_foot_ik_params *p, const ak_xform *world, int32_t side)
{
    const ak_foot_ik_leg *l = &p->legs[side & 1];
    const ak_xform f = world[l->foot];
    return akv_add(f.translation, akq_rotate(f.rotation, l->toe_local));
}

ak_vec3 ak_foot_ik_sole(const ak_foot_ik_params *p, const ak_xform *world, int32_t side)
{
    return sole_point(p, world, side);
}

/* The world point of leg `side`'s toe contact (the floor point under the ball) in a pose. */
ak_vec3 ak_foot_ik_toe(const ak_foot_ik_params *p, const ak_xform *world, int32_t side)
{
    return toe_point(p, world, side);
}

/* A stance on the toe alone (heel up): the foot pivots about its ball. */
static int toe_only(const ak_foot_ik_params *p, int32_t side, int32_t contact)
{
    return p->legs[side].has_toe && contact == AK_CONTACT_TOE;
}

/* Point v raised by lift (the world pose's pending lift, foot_frame.lift). */
static inline ak_vec3 lifted(ak_vec3 v, float lift)
{
    v.y += lift;
    return v;
}

/* Where the lock (weight w) pulls point a: its x,z blended onto the lock point. */
static ak_vec3 pull_to_lock(ak_vec3 a, ak_vec3 lock, float w)
{
    return akv_make(a.x + (lock.x - a.x) * w, a.y, a.z + (lock.z - a.z) * w);
}

/* The animated heel (sole) and toe points of leg s with its ankle at `ankle`, its foot's up
 * axis `up` and ankle-to-toe offset `toe_off` (world), moved by the caller's placement shift:
 * sole_point's and toe_point's sums. */
static void anim_points_at(const ak_foot_ik_params *p, const ak_foot_ik_state *st, int32_t s,
                           ak_vec3 ankle, ak_vec3 up, ak_vec3 toe_off, ak_vec3 *heel, ak_vec3 *toe)
{
    const ak_foot_ik_leg *l = &p->legs[s];
    const ak_vec3 d = st ? akv_make(st->shift[s].x, 0.0f, st->shift[s].z) : akv_make(0, 0, 0);
    *heel = akv_add(sole_below(l, ankle, up), d);
    *toe = l->has_toe ? akv_add(akv_add(ankle, toe_off), d) : *heel;
}

/* Leg s's foot up axis and ankle-to-toe offset in a world pose (zero without a toe). */
static void foot_axes(const ak_foot_ik_params *p, const ak_xform *world, int32_t s, ak_vec3 *up,
                      ak_vec3 *toe_off)
{
    const ak_foot_ik_leg *l = &p->legs[s];
    const ak_quat r = world[l->foot].rotation;
    *up = akq_rotate(r, l->up_local); /* sole_point's */
    *toe_off = l->has_toe ? akq_rotate(r, l->toe_local) : akv_make(0, 0, 0);
}

/* The animated heel (sole) and toe points of leg s, moved by the caller's placement shift;
 * *up (where asked) gets the foot's up axis, world, which the heel point is found along. */
static void anim_points_up(const ak_foot_ik_params *p, const ak_foot_ik_state *st,
                           const ak_xform *world, int32_t s, ak_vec3 *heel, ak_vec3 *toe,
                           ak_vec3 *up)
{
    ak_vec3 u, toe_off;
    foot_axes(p, world, s, &u, &toe_off);
    anim_points_at(p, st, s, world[p->legs[s].foot].translation, u, toe_off, heel, toe);
    if (up) *up = u;
}

static void anim_points(const ak_foot_ik_params *p, const ak_foot_ik_state *st,
                        const ak_xform *world, int32_t s, ak_vec3 *heel, ak_vec3 *toe)
{
    anim_points_up(p, st, world, s, heel, toe, NULL);
}

/* Heel and toe query points of both legs from their animated points (heel_a, toe_a). */
static void query_points_from(const ak_foot_ik_state *st, const ak_vec3 heel_a[2],
                              const ak_vec3 toe_a[2], ak_vec3 heel_q[2], ak_vec3 toe_q[2])
{
    const int init = st && st->initialized;
    for (int s = 0; s < 2; ++s) {
        const ak_vec3 a = heel_a[s];
        const int heel_lock = init && !st->lock_toe[s];
        heel_q[s] = heel_lock ? pull_to_lock(a, st->lock_point[s], st->lock_weight[s]) : a;
        /* A planted foot rolling on its toe: its heel is where the last solve left it (and
         * where a lock moving back onto the heel will start). */
        if (init && st->lock_toe[s] && st->was_stance[s] && st->lock_weight[s] >= 1.0f)
            heel_q[s] = akv_make(st->sole[s].x, a.y, st->sole[s].z);
        if (!toe_q) continue;
        const ak_vec3 t = toe_a[s];
        if (init && st->lock_toe[s]) {
            toe_q[s] = pull_to_lock(t, st->lock_point[s], st->lock_weight[s]);
        } else if (init && st->was_stance[s] && st->lock_weight[s] >= 1.0f) {
            /* A planted foot: its toe is where the last solve left it (and where a lock moving
             * onto the toe will start). */
            toe_q[s] = akv_make(st->toe[s].x, t.y, st->toe[s].z);
        } else {
            /* The toe goes where the heel goes: the animated heel-to-toe offset. */
            toe_q[s] = akv_make(heel_q[s].x + t.x - a.x, t.y, heel_q[s].z + t.z - a.z);
        }
    }
}

void ak_foot_ik_query_points(const ak_foot_ik_params *p, const ak_foot_ik_state *st,
                             const ak_xform *world, ak_vec3 heel_q[2], ak_vec3 toe_q[2])
{
    ak_vec3 heel_a[2], toe_a[2];
    for (int s = 0; s < 2; ++s)
        anim_points(p, st, world, s, &heel_a[s], &toe_a[s]);
    query_points_from(st, heel_a, toe_a, heel_q, toe_q);
}

void akf_foot_ik_query(const ak_foot_ik_params *p, const ak_foot_ik_state *st,
                       const ak_xform *world, akf_foot_points *out)
{
    ak_vec3 heel_a[2], toe_a[2];
    for (int s = 0; s < 2; ++s) {
        foot_axes(p, world, s, &out->up[s], &out->toe_off[s]);
        anim_points_at(p, st, s, world[p->legs[s].foot].translation, out->up[s], out->toe_off[s],
                       &heel_a[s], &toe_a[s]);
    }
    query_points_from(st, heel_a, toe_a, out->heel_q, out->toe_q);
}

static float approach(float v, float goal, float step)
{
    if (v < goal) return v + step < goal ? v + step : goal;
    return v - step > goal ? v - step : goal;
}

/* The ground normal tipped back toward +Y so it is at most max_tilt from vertical. */
static inline ak_vec3 clamp_normal(ak_vec3 n, float cos_max, float sin_max)
{
    n = akv_normalize_or(n, akv_make(0, 1, 0));
    if (n.y < 0.0f) n = akv_scale(n, -1.0f);
    if (n.y >= cos_max) return n; /* within the limit: tilt = acos(n.y) <= max */
    const float h = sqrtf(n.x * n.x + n.z * n.z);
    if (h < 1e-9f) return akv_make(0, 1, 0);
    const float s = sin_max / h;
    return akv_make(n.x * s, cos_max, n.z * s);
}

/* Weighted blend of two rotations; exact at the ends, nlerp between (the weights fade over a
 * few frames, where nlerp and slerp differ by far less than a degree). */
static inline ak_quat blend_rot(ak_quat a, ak_quat b, float w)
{
    if (!(w > 0.0f)) return a;
    if (w >= 1.0f) return b;
    return akq_nlerp(a, b, w);
}

/* Radians between a and b. */
static float angle_between(ak_vec3 a, ak_vec3 b)
{
    float d = akv_dot(akv_normalize_or(a, a), akv_normalize_or(b, b));
    d = d > 1.0f ? 1.0f : (d < -1.0f ? -1.0f : d);
    return acosf(d);
}

/* What one frame needs per leg and shares between the phases. */
typedef struct foot_frame {
    float dt;
    ak_vec3 forward;                    /* the character's facing, world */
    float cos_tilt, sin_tilt, cos_knee; /* of max_tilt, max_knee_flex (akf_foot_fixed) */
    ak_vec3 ankle_target[2];
    ak_quat foot_rot[2];
    float shortfall[2];              /* the hips' drop this leg would like (smoothed) */
    float reach_drop[2];             /* the drop this leg needs to reach its target */
    float knee_drop[2];              /* both feet planted: the most the hips may come down with
                                        this leg's knee within max_knee_flex (FLT_MAX: any) */
    float toe_plan_drop[2];          /* a foot planted on its toe while the other foot is not
                                        planted: the drop its leg needs with the heel rolled up
                                        at most the roll's budget (toe_roll_budget; the hips'
                                        plan, plan_hip_drop); else reach_drop */
    float roll_need[2];              /* that foot's roll need this frame (toe_roll_need), -1 */
    float due_drop[2];               /* a foot not planted: the drop its leg needs to reach the
                                        ground under its heel, the foot as animated */
    float due_hold[2];               /* the same with the foot moved by the placement shift */
    int32_t due[2];                  /* and its landing is due (swing phase 1) */
    int32_t due_trails[2];           /* and it trails a riser below (trailing_landing) */
    float rise_room[2];              /* a planted leg: how far the hips may rise above the
                                        animation with its knee still bent AK_RISE_REACH */
    float reach_room[2];             /* a planted leg: how far the hips may rise above the
                                        animation with the leg (0.999 of its bones) still
                                        reaching its target (negative: short); a foot not
                                        planted: FLT_MAX */
    float single_support;            /* 0..1: one foot planted, the other in mid-swing */
    float floor;                     /* the animation's floor height this frame */
    float lift;                      /* the world heights' pending lift (akf_foot_ik_solve) */
    int pivot[2];                    /* the foot turns about its toe (lock on the toe) */
    int stance[2];                   /* the foot is planted this frame */
    ak_vec3 toe_target[2];           /* where the toe goes while pivoting, world */
    ak_vec3 ray_heel[2], ray_toe[2]; /* where this frame's ground hits were asked (the query
                                        points, from the state before this frame) */
    ak_vec3 heel_a[2], toe_a[2];     /* the animated heel and toe, shifted (anim_points) */
    ak_vec3 up_a[2];                 /* each foot's up axis as animated, world (the feet turn
                                        only when the legs are solved, solve_legs) */
    ak_vec3 heel_n[2];               /* the heel ground's clamped normal (or up), where set */
    int heel_n_set[2];
    ak_vec3 prev_ankle[2]; /* each ankle target last frame (clear_ground) */
    float foothold[2];     /* the ground this leg stands on, or a swinging leg will land on */
    float swing_room[2];   /* a swinging foot: how far its ankle target may come down with no
                              point below its floor (clear_ground) */
    float heel_floor[2], toe_floor[2], ankle_floor[2]; /* and the floors its points keep above */
    float clear_by[2][2]; /* how much of the heel's [0] and toe's [1] floor is the source's
                             clearance over the re-step's lift (room for the knee limit) */
    ak_vec3 heel_floor_n[2], toe_floor_n[2]; /* the normals of the planes the heel's and toe's
                                                floors lie on (up: a glide's) */
    int has_foothold[2];
    int hold_level[2];          /* that ground is level (AK_LEVEL_COS) */
    const akf_foot_points *pts; /* the caller's query points (akf_foot_ik_query), or NULL */
    float step_lift[2];  /* m: a re-step's lift over those floors (ak_foot_ik_solve_lifted) */
    int standing;        /* the pose source stands (ak_foot_ik_solve_lifted) */
    int may_stand;       /* a standing solve may follow on this state (every entry but the
                            walker's akf_foot_ik_solve): the held flat heading is kept */
    int rising_alone;    /* the guide walker's hips rising (last frame) over a leg planted
                            alone: pelvis_drop's rise brake reads its reach (reach_room) */
    int toe_held[2];     /* the caller holds that foot, not planted, at its toe
                            (ak_foot_ik_solve_lifted): it turns about the toe */
    int planted[2];      /* the foot was planted last frame, its lock full */
    float toe_need_rate; /* m/s: how fast the drop a foot planted on its toe alone needs grows,
                            while it sets the hips' drop (plan_hip_drop); fed to pelvis_drop */
    int toe_keep;        /* that toe stands no lower than the other foot will land: the hips
                            may come down for it at up to the landing cap (plan_hip_drop) */
    /* m: the least clearance each heel [0] and toe [1] of a foot not planted keeps over the
     * ground where the caller gives no source points (ak_foot_ik_solve_lifted's point_clear) */
    float point_clear[2][2];
} foot_frame;

static void reset_weights(ak_foot_ik_state *st, const ak_foot_ik_frame *fr)
{
    for (int s = 0; s < 2; ++s) {
        st->ground_weight[s] = fr->ground[s].hit ? 1.0f : 0.0f;
        st->stance_weight[s] = fr->stance[s] ? 1.0f : 0.0f;
        st->plant_weight[s] = st->stance_weight[s];
        st->pivot_weight[s] = 0.0f;
        st->lock_weight[s] = 0.0f;
        st->swing_offset[s] = 0.0f;
        st->was_stance[s] = 0;
        st->lock_toe[s] = 0;
    }
    st->hip_drop = 0.0f;
}

/* The heading (radians about +y, atan2(x, z)) of leg s's animated heel-to-toe line. */
static float foot_heading(const foot_frame *ff, int32_t s)
{
    return atan2f(ff->toe_a[s].x - ff->heel_a[s].x, ff->toe_a[s].z - ff->heel_a[s].z);
}

/* The turn about +y (radians, -pi..pi) that keeps a locked foot on the heading it landed with,
 * weighted by its lock: the heel lock alone let the animated foot turn about its heel, so a
 * flat foot's toe swept the ground (a veering capture's planted toes at 20-70 mm/s). */
static float held_turn(const ak_foot_ik_params *p, const ak_foot_ik_state *st, const foot_frame *ff,
                       int32_t s)
{
    if (!p->lock_feet || !p->legs[s].has_toe || !(st->lock_weight[s] > 0.0f)) return 0.0f;
    float d = st->lock_yaw[s] - foot_heading(ff, s);
    while (d > AK_PI)
        d -= 2.0f * AK_PI;
    while (d < -AK_PI)
        d += 2.0f * AK_PI;
    return d * st->lock_weight[s];
}

/* The ground at p's x,z from a hit asked at q: the hit's tangent plane carried over. */
static ak_ground_hit ground_at(const ak_ground_hit *h, ak_vec3 q, ak_vec3 p)
{
    ak_ground_hit g = *h;
    if (g.hit && g.normal.y > 1e-3f)
        g.height -= (g.normal.x * (p.x - q.x) + g.normal.z * (p.z - q.z)) / g.normal.y;
    return g;
}

/* Whether leg s's heel (p 0) or toe (p 1) was shown on the ground last frame: within
 * AK_WALK_SKATE_HEIGHT (what the measures count as down) of the ground its ray found this frame
 * (a toe's own, else the heel's), carried to where the last solve put it. */
static int shown_down(const ak_foot_ik_state *st, const ak_foot_ik_frame *fr, const foot_frame *ff,
                      int32_t s, int p)
{
    const int toe_ray = p && fr->ground_toe[s].hit;
    const ak_ground_hit *g = toe_ray ? &fr->ground_toe[s] : &fr->ground[s];
    if (!g->hit) return 0;
    const ak_vec3 q = toe_ray ? ff->ray_toe[s] : ff->ray_heel[s];
    const ak_vec3 at = p ? st->toe[s] : st->sole[s];
    return at.y - ground_at(g, q, at).height <= AK_WALK_SKATE_HEIGHT;
}

/* Fades the leg's weights and holds its stance lock: on the heel (sole point) with the heel
 * down, on the toe when the heel has lifted. A lock taken when the foot lands starts where
 * the foot is; a lock that moves from heel to toe (or back) mid-stance starts where the IK put
 * that point last frame (on the ground), so the switch does not move the foot. */
static void leg_weights_and_lock(const ak_foot_ik_params *p, ak_foot_ik_state *st,
                                 const ak_foot_ik_frame *fr, const foot_frame *ff, int32_t s)
{
    const float dt = ff->dt;
    const int want = (fr->stance[s] || fr->stance_next[s]) ? 1 : 0;
    /* The foot rolls (keeps its animated pitch) while only the toe is down; the lock stays on
     * the toe as long as the toe is down, so a heel coming down (a forefoot landing, a
     * settle) pivots about the toe instead of jumping to where the heel is. */
    /* A planted leg the hips left out of reach rolls over its toe for the rest of its stance
     * (roll_when_out_of_reach). */
    if (!fr->stance[s]) st->reach_roll[s] = 0;
    const int roll = fr->stance[s] && (toe_only(p, s, fr->contact[s]) || st->reach_roll[s]);
    const int pivot =
        roll || (fr->stance[s] && st->was_stance[s] && st->lock_toe[s] && p->legs[s].has_toe &&
                 (fr->contact[s] & AK_CONTACT_TOE) && st->pivot_weight[s] > 0.0f);
    st->ground_weight[s] =
        approach(st->ground_weight[s], fr->ground[s].hit ? 1.0f : 0.0f, p->ground_fade_rate * dt);
    st->stance_weight[s] = approach(st->stance_weight[s], (float)want, p->stance_fade_rate * dt);
    st->plant_weight[s] = approach(st->plant_weight[s], (float)want, p->stance_fade_rate * dt);
    /* Rolling fades in on the toe and out when the heel is down again or the foot is about
     * to land; a foot leaving the ground off its toe keeps rolling (its animated pitch) into
     * the swing. */
    if (roll || fr->stance[s] || fr->stance_next[s])
        st->pivot_weight[s] =
            approach(st->pivot_weight[s], roll ? 1.0f : 0.0f, p->stance_fade_rate * dt);
    if (fr->stance[s] && p->lock_feet) {
        ak_vec3 anim = pivot ? ff->toe_a[s] : ff->heel_a[s];
        /* standing (the pose source's stop) a landing heel's lock starts where the foot was
         * shown, not where its frame has it: the solve holds a landing foot within its leg's
         * reach (swing_within_reach), and at CMU 09_02's stop (24 fps, stairs from (-5.4,0)) a
         * lock at the frame's heel, 17 mm farther from the hips than the shown foot, was 15.7 mm
         * out of reach: rolled, released, stepped anew */
        int shown = ff->standing && !pivot && st->initialized && !st->was_stance[s];
        /* a landing whose locked point (its heel, or its toe landing on the forefoot) was shown
         * on the ground takes its lock where it was shown: at the animated point, a foot laid on
         * the ground by the planting and turned to it about the ankle moved to where the frame
         * has it on top of the clip's own move, in its landing frame within 5 mm of the ground
         * (a run's toe, CMU 09_01 on the tests' heightmap, frame 428: 8.8 mm, 1.06 m/s against
         * the clip's fastest that low, 0.88; a heel, CMU 07_01 mirrored at 30 fps on the stairs,
         * frame 316, laid flat 4.6 mm up: its toe 3.4 mm, 0.41 m/s against 0.34). A point
         * landing from higher up lands where its frame has it: locked where it was shown 27 mm
         * up, CMU 02_01's toe at 24 fps down the heightmap's 35 % slope (frame 1052) left its
         * heel 4.9 mm up, which came down about the toe the next frame and moved 2 mm along the
         * slope (0.19 m/s against the clip's 0.12). */
        if (st->initialized && !st->was_stance[s] && shown_down(st, fr, ff, s, pivot)) shown = 1;
        if (shown) {
            const ak_vec3 at = pivot ? st->toe[s] : st->sole[s];
            anim = akv_make(at.x, anim.y, at.z);
        }
        if (!st->was_stance[s] || !st->initialized) {
            /* (a lock starting where the foot was shown has the fading one's pull in it
             * already: blended in again, the matcher's stop moved a landing heel 3.6 mm in its
             * first stance frame, CMU 02_01 at 30 fps up the stairs from (-6,0), 0.22 m/s) */
            const float w = st->initialized && !shown ? st->lock_weight[s] : 0.0f;
            /* a lock still fading that held the other point (toe against heel) is blended in
             * as where this lock's point is shown now, not as its own point: taken as a heel
             * point, a toe lock fading out moved the matcher's stop's left heel 10.2 cm in a
             * frame (the library on the stairs, 6.1 m/s) */
            const ak_vec3 was = st->lock_toe[s] == pivot ? st->lock_point[s]
                                : pivot                  ? st->toe[s]
                                                         : st->sole[s];
            st->lock_point[s] = akv_lerp(anim, was, w);
            /* the heading the foot is shown with (a lock still fading: as the point) */
            st->lock_yaw[s] =
                foot_heading(ff, s) + (st->initialized ? held_turn(p, st, ff, s) : 0.0f);
        } else if (pivot != st->lock_toe[s]) {
            st->lock_point[s] = pivot ? st->toe[s] : st->sole[s];
        }
        st->lock_toe[s] = pivot;
        st->lock_weight[s] = 1.0f;
    } else {
        st->lock_weight[s] = approach(st->lock_weight[s], 0.0f, p->lock_release_rate * dt);
    }
    st->was_stance[s] = fr->stance[s];
}

/* The part of a swing (its phase) by which a foot stepping up has risen to the ground it
 * lands on: the toe leads the heel by a foot length, so it meets a riser well before the
 * landing. */
#define AK_STEP_OVER 0.4f
/* A rise of more than AK_STEP_RISER (metres: a steep stair's riser) is more than one riser: the
 * swing meets the last of them later, by AK_STEP_OVER_LAST of it (the foot's toe over the
 * first riser early, the knee not folded under a foot raised two risers at once). */
#define AK_STEP_RISER     0.18f
#define AK_STEP_OVER_LAST 0.55f

/* The height a swinging foot passes at its swing phase, from the ground it left (`from`) to
 * the ground it will land on (`land`), `g` the ground under it now. Up a step (level ground
 * where it is and where it lands, higher: a riser between) it reaches the landing height early
 * in the swing (by AK_STEP_OVER of it) and carries it forward, as a person steps over a riser
 * (*step_up set); on a slope, or down, it glides over the whole swing (the ground under the
 * heel holds it up going down). The foot's glide (swing_glide) and, for the guide walker, its
 * foothold under the floor (ak_floor_support): one rule, so the hips rise with the foot. */
static inline float step_glide(float from, const ak_ground_hit *land, const ak_ground_hit *g,
                               float swing_phase, int *step_up)
{
    const float rise = land->height - from;
    *step_up = rise > 0.0f && land->normal.y >= AK_LEVEL_COS && g->normal.y >= AK_LEVEL_COS;
    float u = *step_up ? swing_phase / AK_STEP_OVER : swing_phase;
    u = u < 0.0f ? 0.0f : (u > 1.0f ? 1.0f : u);
    if (!*step_up || rise <= AK_STEP_RISER) return from + rise * (u * u * (3.0f - 2.0f * u));
    /* (a rise of more than one riser: the first by AK_STEP_OVER, the rest by AK_STEP_OVER_LAST) */
    float v = akf_clamp(swing_phase / AK_STEP_OVER_LAST, 0.0f, 1.0f);
    return from + AK_STEP_RISER * (u * u * (3.0f - 2.0f * u)) +
           (rise - AK_STEP_RISER) * (v * v * (3.0f - 2.0f * v));
}

/* Leg s's glide (not in stance, its landing known): step_glide from its lift-off ground, or
 * from where the glide was when its landing moved to another tread, over the rest of the
 * swing (track_glide). */
static float swing_glide(const ak_foot_ik_state *st, const ak_foot_ik_frame *fr,
                         const ak_ground_hit *g, int32_t s, int *step_up)
{
    const float u0 = st->glide_at[s];
    const float u = u0 > 0.0f ? (fr->swing_phase[s] - u0) / (1.0f - u0) : fr->swing_phase[s];
    return step_glide(st->glide_from[s], &fr->ground_land[s], g, u, step_up);
}

/* Swing phases over which a swinging foot's height goes from moving with the hips back onto
 * its glide (swing_with_hips): done by half the swing, where the walker's toe ray turns to the
 * landing and the toe's ground is only the heel's plane carried forward (on a curved heightmap a
 * foot lowered beyond that passed up to 30 mm under it). The offset moves at most
 * swing_height_rate, so the foot is back a little later. */
#define AK_HIPS_SWING_FROM 0.45f
#define AK_HIPS_SWING_TO   0.5f

/* A swinging foot under planned hips gliding toward a known landing (leg_offset): early in
 * its swing it keeps its animated height relative to the hips (the animated point lowered by
 * the hips' drop of last frame) where the glide toward its landing, plus its animated lift over
 * that glide, would carry it higher: so its knee bends as the source's does instead of folding
 * while the foot rises with the ground it will land on (uphill: the glide rises ahead of the
 * hips, which follow the floor, the mean of both footholds) or the hips drop for a landing
 * below. Never below the ground under its heel (clear_ground keeps the toe and ankle up); back
 * on the glide between AK_HIPS_SWING_FROM and AK_HIPS_SWING_TO (smoothstep). A swing with no
 * landing known (no glide: a matcher's database frame can have none) keeps its animated lift
 * over the ground under it: lowered onto that ground with nothing ahead known, its
 * rate-limited offset lagged ground rising under a run's foot (55 mm under) and left a toe in
 * a riser (90 mm). `offset` is the glide's offset from the animated point `point`; returns the
 * one to use. */
static float swing_with_hips(const ak_foot_ik_state *st, const ak_foot_ik_frame *fr,
                             const ak_ground_hit *g, int32_t s, ak_vec3 point, float offset)
{
    float u = akf_clamp((fr->swing_phase[s] - AK_HIPS_SWING_FROM) /
                            (AK_HIPS_SWING_TO - AK_HIPS_SWING_FROM),
                        0.0f, 1.0f);
    u = u * u * (3.0f - 2.0f * u);
    const float excess = offset + st->applied_hip_drop; /* above the point moved with the hips */
    if (!(excess > 0.0f)) return offset;
    return akf_max(offset - excess * (1.0f - u), g->height - point.y);
}

/* The height the locked point is held at: the ground, plus the animated lift above the clip
 * floor while planting fades in; a swinging foot glides from the ground it left to the
 * ground it will land on (never below the ground it passes over), its offset rate-limited. */
static float leg_offset(const ak_foot_ik_params *p, ak_foot_ik_state *st,
                        const ak_foot_ik_frame *fr, const ak_ground_hit *g, int32_t s,
                        ak_vec3 point, float dt)
{
    if (!g->hit) {
        st->swing_offset[s] = approach(st->swing_offset[s], 0.0f, p->swing_height_rate * dt);
        return st->swing_offset[s];
    }
    float lift = point.y - fr->floor_height;
    if (lift < 0.0f) lift = 0.0f;
    float ground_y = g->height;
    int step_up = 0, glide = 0;
    if (fr->stance[s]) {
        st->liftoff_ground[s] = g->height;
        st->has_liftoff[s] = 1;
    } else if (fr->ground_land[s].hit && st->has_liftoff[s]) {
        st->glide_last[s] = swing_glide(st, fr, g, s, &step_up);
        ground_y = akf_max(st->glide_last[s], g->height);
        glide = 1;
    }
    float want = ground_y + lift * (1.0f - st->plant_weight[s]) - point.y;
    /* (not stepping up a riser: there the glide lifts the toe over it) */
    if (glide && p->hip_accel_down > 0.0f && st->initialized && !step_up)
        want = swing_with_hips(st, fr, g, s, point, want);
    float offset = want;
    if (!fr->stance[s] && st->initialized)
        offset = approach(st->swing_offset[s], want, p->swing_height_rate * dt);
    st->swing_offset[s] = offset;
    return offset;
}

/* Where a flat foot's toe lies for the line of its ground (akf_two_point_normal): the heel plus
 * the animated heel-to-toe offset, or the toe ray's point when that offset is less than half
 * as long (an animated foot pitched toe-down, a run's crouched stand frame: its toe over the
 * heel made a 3 mm line that tipped the planted foot 10 degrees and its toe 14 mm into a
 * curved ground; a planted foot's toe ray asks where the last solve put the toe). */
static ak_vec3 flat_toe_point(const ak_foot_ik_frame *fr, const foot_frame *ff, int32_t s,
                              ak_vec3 heel_q, ak_vec3 toe_q)
{
    if (!fr->ground_toe[s].hit) return toe_q;
    const ak_vec3 r = ff->ray_toe[s];
    const float da =
        (toe_q.x - heel_q.x) * (toe_q.x - heel_q.x) + (toe_q.z - heel_q.z) * (toe_q.z - heel_q.z);
    const float dr = (r.x - heel_q.x) * (r.x - heel_q.x) + (r.z - heel_q.z) * (r.z - heel_q.z);
    return 4.0f * da < dr ? akv_make(r.x, toe_q.y, r.z) : toe_q;
}

/* Leg s's ankle target and foot rotation. The foot turns so its up axis meets the (clamped)
 * ground normal: flat in stance, with its animated pitch kept relative to the slope in swing
 * and while it rolls over its toe. The ankle goes where the locked point (heel, or toe when
 * pivoting) wants it. */
/* The normal a flat foot lies on: the heel's, tipped about the foot's side axis so the
 * heel-to-toe line follows the ground between the two hits (heel and toe both on it). */
ak_vec3 akf_two_point_normal(ak_vec3 n, ak_vec3 heel_q, float heel_y, ak_vec3 toe_q, float toe_y)
{
    const ak_vec3 d = {toe_q.x - heel_q.x, toe_y - heel_y, toe_q.z - heel_q.z};
    if (d.x * d.x + d.z * d.z < 1e-6f) return n;
    const ak_vec3 side = akv_cross(d, n);
    if (akv_dot(side, side) < 1e-12f) return n;
    const ak_vec3 m = akv_normalize_or(akv_cross(side, d), n);
    return m.y > 0.0f ? m : n;
}

/* The normal leg s's flat foot lies on: the heel ground's clamped normal n, tipped so the line
 * from its heel to its toe (flat_toe_point) follows the ground between the two hits when the toe
 * ray hit (akf_two_point_normal). A foot planted on its heel last frame (`held`: its heel and
 * heading locked) keeps the normal it was laid on: a new one would turn the foot about its heel and
 * move its toe over the ground. Its rays, asked where the lock had yet to be (a landing shortened
 * toward the hips moves its heel 2-4 cm back from them, shorten_landing), gave the landing its
 * ground from their tangent planes carried there; on a curved heightmap the next frame's rays,
 * under the heel and toe, told a normal 0.4 degrees off and the toe moved 0.14-0.17 mm in that
 * frame (the built-in clip on the heightmap, frame 557, and on the ridges, frame 326: 17 and
 * 10 mm/s against the skate floor of 10; the clip is skate-free). The heel's height still
 * follows its ground: the held foot is off the ground it finds by what the landing's estimate
 * was off (0.9 mm there). Only a riser found between heel and toe (the toe's ground a riser's
 * least rise, AK_FLOOR_STEP_MIN, off the held line: the matcher's toe ray beyond a flat toe
 * short of a riser up) lays the foot anew. */
static ak_vec3 flat_normal(const ak_foot_ik_state *st, const ak_foot_ik_frame *fr,
                           const foot_frame *ff, int32_t s, int held, ak_vec3 n,
                           const ak_ground_hit *hg, int toe_hit, ak_vec3 heel_q, ak_vec3 toe_q)
{
    if (!hg->hit || !toe_hit) return held ? st->flat_normal[s] : n;
    const ak_vec3 toe_l = flat_toe_point(fr, ff, s, heel_q, toe_q);
    const float toe_y = ground_at(fr->ground_toe[s].hit ? &fr->ground_toe[s] : &fr->ground[s],
                                  fr->ground_toe[s].hit ? ff->ray_toe[s] : ff->ray_heel[s], toe_l)
                            .height;
    /* (a riser down between heel and toe: the foot lies on its heel's tread, its toe over the
     * edge; tipped down to the lower tread, the edge would stand in its sole) */
    if (hg->normal.y > 1e-3f) {
        const float plane_y = hg->height - (hg->normal.x * (toe_l.x - heel_q.x) +
                                            hg->normal.z * (toe_l.z - heel_q.z)) /
                                               hg->normal.y;
        if (plane_y - toe_y >= AK_FLOOR_STEP_MIN) return held ? st->flat_normal[s] : n;
    }
    if (held) {
        const ak_vec3 m = st->flat_normal[s];
        const float line_y =
            hg->height - (m.x * (toe_l.x - heel_q.x) + m.z * (toe_l.z - heel_q.z)) / m.y;
        if (fabsf(toe_y - line_y) < AK_FLOOR_STEP_MIN) return m;
    }
    return clamp_normal(akf_two_point_normal(hg->normal, heel_q, hg->height, toe_l, toe_y),
                        ff->cos_tilt, ff->sin_tilt);
}

/* The heading (radians about +y, atan2(x, z)) of the heel-to-toe line of a foot rotated by r. */
static float flat_heading(const ak_foot_ik_leg *l, ak_quat r)
{
    const ak_vec3 f = akq_rotate(r, akv_add(l->toe_local, akv_scale(l->up_local, l->sole_height)));
    return atan2f(f.x, f.z);
}

/* The shortest turn that lays a tilted animated foot flat (to_flat, `laid` the foot it gives)
 * turns it about its normal too (about up_a x n, as the tilt changes): standing (the matcher's
 * stop, where the transition to the stand frame tilts the animated feet), a held foot keeps the
 * heading it was laid with last frame, the rest undone about the normal (CMU 09_02's stop, a foot
 * planted while the other stepped: the frame's foot tilting 45 deg swept its toe 4.5 cm about
 * the locked heel, 0.04-0.23 m/s); one released from that heel lock (lifting into a step of the
 * stop) turns off it as its lock fades, not at once (CMU subject 9's stop on the heightmap: the
 * heading jumped 17 deg as the foot lifted, its toe swept 33 mm in a frame 21 mm up), by w (2 - w)
 * of its lock's weight w: eased as the lock lets go (slope 0), what the turn about +y by the
 * lock's weight (held_turn, left out there: laid_release) and this one gave together where the
 * animated heel-to-toe line is well defined. */
static ak_quat held_heading(const ak_foot_ik_state *st, const ak_foot_ik_frame *fr, int32_t s,
                            const ak_foot_ik_leg *leg, int held_flat, int pivot, ak_vec3 n_flat,
                            ak_quat laid, ak_quat to_flat)
{
    const float w = st->lock_weight[s];
    const float keep = held_flat                                      ? 1.0f
                       : !fr->stance[s] && !pivot && !st->lock_toe[s] ? w * (2.0f - w)
                                                                      : 0.0f;
    if (!(keep > 0.0f)) return to_flat;
    float d = st->flat_yaw[s] - flat_heading(leg, laid);
    while (d > AK_PI)
        d -= 2.0f * AK_PI;
    while (d < -AK_PI)
        d += 2.0f * AK_PI;
    return akq_mul(akq_axis_angle(n_flat, d * keep), to_flat);
}

/* A foot held flat keeps its heading for held_heading, which only a standing solve runs: the
 * walker's, whose pose source never stands, leaves it (an atan2 a planted foot a frame: 208 of
 * the built-in walk's 18336 instructions a frame with stops, 123 of CMU 02_01's 20262). */
static void keep_flat_heading(const ak_foot_ik_leg *leg, ak_foot_ik_state *st, const foot_frame *ff,
                              int32_t s)
{
    if (st->flat_held[s] && leg->has_toe && ff->may_stand)
        st->flat_yaw[s] = flat_heading(leg, ff->foot_rot[s]);
}

/* A foot its caller holds at its toe, not planted (ak_foot_ik_solve_lifted's toe_held: the
 * matcher's toe-only contact waiting to plant, or a landing shown toe-first, its frame's heel
 * down) turns about that toe, not about its heel point: its ankle target and heel go by what the
 * turn moves the toe off toe_q (x, z), where the caller asks the toe to be. Turned about the heel,
 * the toe went on 2-3 mm a frame while the heel dropped its last 12-26 mm (CMU 02_01 at 30 fps
 * mirrored, the flat CLI route, frames 188-190: 0.15-0.23 m/s against the database's 0.14), and
 * 6.3 mm in a frame as the frame lifted a toe-only contact's heel (frame 94, 0.39 m/s). */
static void turn_about_held_toe(const ak_foot_ik_leg *leg, foot_frame *ff, int32_t s, ak_vec3 toe_q)
{
    const ak_vec3 toe = akv_add(ff->ankle_target[s], akq_rotate(ff->foot_rot[s], leg->toe_local));
    const ak_vec3 d = akv_make(toe_q.x - toe.x, 0.0f, toe_q.z - toe.z);
    ff->ankle_target[s] = akv_add(ff->ankle_target[s], d);
    ff->toe_target[s] = akv_add(ff->toe_target[s], d);
}

/* Leg s's ankle target from its point's (ff->toe_target, the toe's when it pivots, else the
 * heel's) and its foot's rotation; a foot held at its toe, not planted, turned about it
 * (turn_about_held_toe: toe_q, where its toe is asked to be). */
static void place_ankle(const ak_foot_ik_leg *leg, const ak_foot_ik_frame *fr, foot_frame *ff,
                        int32_t s, ak_vec3 toe_q)
{
    const ak_quat r = ff->foot_rot[s];
    const ak_vec3 target = ff->toe_target[s];
    if (ff->pivot[s])
        ff->ankle_target[s] = akv_sub(target, akq_rotate(r, leg->toe_local));
    else
        ff->ankle_target[s] =
            akv_add(target, akv_scale(akq_rotate(r, leg->up_local), leg->sole_height));
    if (ff->toe_held[s] && !ff->pivot[s] && !fr->stance[s] && leg->has_toe)
        turn_about_held_toe(leg, ff, s, toe_q);
}

/* Leg s's ankle target and foot rotation. The foot turns so its up axis meets the (clamped)
 * ground normal: flat in stance (on the line through the heel's and the toe's ground), with
 * its animated pitch kept relative to the slope in swing and while it rolls over its toe. The
 * ankle goes where the locked point (heel, or toe when pivoting) wants it. */
static void leg_target(const ak_foot_ik_params *p, ak_foot_ik_state *st, const ak_foot_ik_frame *fr,
                       const ak_xform *world, int32_t s, foot_frame *ff)
{
    const ak_foot_ik_leg *leg = &p->legs[s];
    const ak_xform foot = world[leg->foot];
    const int pivot = st->lock_toe[s] && st->lock_weight[s] > 0.0f;
    /* standing, a foot lifting off its heel lock turns off the heading it was laid with by its
     * laid heading alone (held_heading): the animated heel-to-toe line of a stand frame's foot
     * on its toes is nearly vertical (2.6 of its 10 cm across the ground: CMU 09_02 at 24 fps)
     * and its heading, which held_turn turns it back from, ill-defined: turned about +y by the
     * lock's weight (33 deg at first) and then laid flat, the foot's heading went 21.1 -> 15.8 ->
     * 14.8 -> 26.7 deg as it lifted into a step of the stop, its toe 9.5 mm sideways in a frame
     * 21 mm up (0.57 m/s; the database's worst skate 0.27) */
    const int laid_release =
        ff->standing && leg->has_toe && !fr->stance[s] && !pivot && !st->lock_toe[s];
    const float turn = laid_release ? 0.0f : held_turn(p, st, ff, s);
    const ak_quat held = akq_axis_angle(akv_make(0.0f, 1.0f, 0.0f), turn);
    const ak_vec3 heel_a = ff->heel_a[s];
    /* the animated toe turned about the heel onto the held heading */
    const ak_vec3 toe_a = akv_add(heel_a, akq_rotate(held, akv_sub(ff->toe_a[s], heel_a)));
    const ak_vec3 heel_q =
        pull_to_lock(heel_a, st->lock_point[s], pivot ? 0.0f : st->lock_weight[s]);
    const ak_vec3 toe_q = pivot ? pull_to_lock(toe_a, st->lock_point[s], st->lock_weight[s])
                                : akv_add(heel_q, akv_sub(toe_a, heel_a));
    const ak_ground_hit hg = ground_at(&fr->ground[s], ff->ray_heel[s], heel_q);
    ak_ground_hit tg = fr->ground_toe[s].hit ? ground_at(&fr->ground_toe[s], ff->ray_toe[s], toe_q)
                                             : ground_at(&fr->ground[s], ff->ray_heel[s], toe_q);
    /* a toe rolled over past the edge of its heel's tread (a riser down between) rolls over
     * that edge, at the tread's height, not on the tread below */
    if (pivot && hg.hit && tg.hit && hg.normal.y > 1e-3f) {
        const ak_ground_hit edge = ground_at(&hg, heel_q, toe_q);
        if (edge.height - tg.height >= AK_FLOOR_STEP_MIN) tg = edge;
    }
    const ak_ground_hit *g = pivot ? &tg : &hg;
    const ak_vec3 anim = pivot ? toe_a : heel_a;
    const float gw = st->ground_weight[s] * p->weight;
    ak_vec3 target = pivot ? toe_q : heel_q;
    target.y = anim.y + leg_offset(p, st, fr, g, s, anim, ff->dt) * gw;
    const ak_vec3 up = {0, 1, 0};
    const ak_vec3 n = g->hit ? clamp_normal(g->normal, ff->cos_tilt, ff->sin_tilt) : up;
    /* Not pivoting, n is the heel ground's clamped normal, which the tilt measure reuses. */
    ff->heel_n_set[s] = !pivot;
    ff->heel_n[s] = n;
    /* Only the rotations the blends below use are made: to_slope unless the foot is wholly
     * flat, to_flat (the two-point normal) only when it is flat at all, neither without
     * ground weight (blend_rot's ends return one side exactly). */
    const float flat_w = st->stance_weight[s] * (1.0f - st->pivot_weight[s]);
    /* A foot planted on its heel last frame keeps the normal it was laid on: held at its heel
     * (and its heading), a new normal would turn its toe over the ground. */
    const int held_flat = ff->planted[s] && !pivot && st->flat_held[s];
    st->flat_held[s] = 0;
    ak_quat applied = akq_identity();
    if (gw > 0.0f) {
        ak_quat to_slope = akq_identity(), to_flat = akq_identity();
        if (!(flat_w >= 1.0f)) to_slope = akq_from_to(up, n);
        if (flat_w > 0.0f) {
            const ak_vec3 n_flat = flat_normal(st, fr, ff, s, held_flat && leg->has_toe, n, &hg,
                                               tg.hit && leg->has_toe, heel_q, toe_q);
            to_flat = akq_from_to(akq_rotate(held, ff->up_a[s]), n_flat);
            st->flat_normal[s] = n_flat;
            if (leg->has_toe && ff->standing)
                to_flat = held_heading(st, fr, s, leg, held_flat, pivot, n_flat,
                                       akq_mul(to_flat, akq_mul(held, foot.rotation)), to_flat);
        }
        applied = blend_rot(akq_identity(), blend_rot(to_slope, to_flat, flat_w), gw);
    }
    st->flat_held[s] = fr->stance[s] && !pivot && flat_w > 0.0f && gw > 0.0f;
    ff->foot_rot[s] = akq_normalize(akq_mul(applied, akq_mul(held, foot.rotation)));
    keep_flat_heading(leg, st, ff, s);
    target = akv_lerp(anim, target, p->weight);
    ff->pivot[s] = pivot;
    ff->stance[s] = fr->stance[s] != 0;
    ff->toe_target[s] = target;
    place_ankle(leg, fr, ff, s, toe_q);
    st->ankle_target[s] = ff->ankle_target[s];
}

/* m/s: the most a swinging leg's reach need is fed forward at (a glitch guard; the legs'
 * geometry moves the need at about 2 m/s at most on the test terrains). */
#define AK_NEED_RATE_MAX 4.0f

/* A planted leg lets the hips rise until it is this fraction of its length from hip to ankle:
 * the knee still bent about 10 degrees (cos 5 deg), where the law of cosines is
 * well-conditioned (a straight knee amplifies rounding, see AK_SWING_REACH). */
#define AK_RISE_REACH 0.996f
/* Swing phases where single support is full: after lift-off and before landing the rise
 * fades (smoothstep), so the hips are back on the animation at double support. */
#define AK_SS_IN  0.15f
#define AK_SS_OUT 0.4f
#define AK_SS_END 0.65f

/* A foot pivoting on its toe may lift its heel further (plantarflex about the toe) so a leg
 * near full extension reaches without the hips dropping: the most it adds to the animated
 * pitch. A human ankle plantarflexes about 50 degrees from standing; the captured toe-off
 * already uses up to about 20 of them. */
/* A swinging leg that falls short stops this fraction of its full length from the hip: the
 * knee stays 1.6 degrees from straight, where its angle is well-conditioned (the law of
 * cosines' acos has an infinite slope at a straight knee, so a straight swing leg would
 * amplify rounding: 1e-7 in the target moved the foot 0.2 mm). */
#define AK_SWING_REACH 0.9999f

#define AK_TOE_ROLL_MAX (30.0f * AK_PI / 180.0f)

/* The heel-up turn (radians, 0..AK_TOE_ROLL_MAX) about the toe that brings the ankle within
 * reach L of the hip. The ankle circles the toe: a(t) = toe + u cos t + (k x u) sin t with
 * u = ankle - toe and k = unit(u x Y) (positive t lifts the heel). |hip - a(t)|^2 = L^2 is
 * A cos t + B sin t = C with d = hip - toe, A = d.u, B = d.(k x u), C = (|d|^2 + |u|^2 - L^2)/2,
 * i.e. rho cos(t - phi) = C: the first root phi - acos(C / rho), or phi (the nearest the
 * circle comes) when C > rho. */
static float toe_roll_need(ak_vec3 hip, ak_vec3 toe, ak_vec3 ankle, float L, ak_vec3 *axis)
{
    const ak_vec3 u = akv_sub(ankle, toe), d = akv_sub(hip, toe);
    const ak_vec3 kr = akv_cross(u, ak_vec3_make(0, 1, 0));
    const float kl = akv_len(kr);
    *axis = ak_vec3_make(1, 0, 0);
    if (!(kl > 1e-6f)) return 0.0f;
    const ak_vec3 k = akv_scale(kr, 1.0f / kl);
    *axis = k;
    const float uu = akv_dot(u, u), dd = akv_dot(d, d);
    const float A = akv_dot(d, u), B = akv_dot(d, akv_cross(k, u));
    const float C = 0.5f * (dd + uu - L * L);
    if (A >= C) return 0.0f; /* reachable as animated */
    const float rho = sqrtf(A * A + B * B), phi = atan2f(B, A);
    const float t = C < rho ? phi - acosf(C / rho) : phi;
    return akf_max(t, 0.0f);
}

static float toe_roll_angle(ak_vec3 hip, ak_vec3 toe, ak_vec3 ankle, float L, ak_vec3 *axis)
{
    return akf_min(toe_roll_need(hip, toe, ankle, L, axis), AK_TOE_ROLL_MAX);
}

/* The part of the roll's limit the hips' plan counts on for a foot planted on its toe while the
 * other foot is not planted (leg_drop, plan_hip_drop): where the roll the leg needs, carried on
 * at the rate it grows until the pose source lifts the foot (ak_foot_ik_frame.stance_left, its
 * look-ahead), would pass the limit by x, the limit less x; else the whole limit (and with no
 * look-ahead). Planned with the whole roll, the hips began down only once the roll had run out,
 * the leg's need then growing at 1 m/s, faster than they can follow: a toe planted 24 cm behind
 * where the source has it (a step shortened onto a tread, CMU 02_02 at 24 fps on the stairs from
 * (-5.0,0), frames 444-456) rose 64 mm straight up while the source still stood on it. A toe
 * the source lifts before its roll runs out (a stop's last push-off on flat ground) keeps the
 * whole roll: planned for half of it, the hips dipped 27 mm there for nothing. */
static float toe_roll_budget(const ak_foot_ik_state *st, const ak_foot_ik_frame *fr,
                             const foot_frame *ff, int32_t s, float need)
{
    const float left = fr->stance_left[s], was = st->roll_need[s];
    if (!(left > 0.0f) || !st->initialized || !(was >= 0.0f) || !(ff->dt > 0.0f))
        return AK_TOE_ROLL_MAX;
    const float at_lift = need + akf_max(need - was, 0.0f) / ff->dt * left;
    return akf_clamp(2.0f * AK_TOE_ROLL_MAX - at_lift, 0.5f * AK_TOE_ROLL_MAX, AK_TOE_ROLL_MAX);
}

/* The least heel-up turn (radians, 0..AK_TOE_ROLL_MAX) about the toe, axis k, that keeps a
 * planted foot's heel on or above the ground under it: a foot rolling over its toe whose
 * animated pitch has the heel below the toe (just after a heel strike, or a stance the hips
 * left out of reach) would otherwise put the heel into the ground. The heel's height is
 * A cos t + B sin t over the toe (k horizontal); bisection, 12 steps (0.01 degrees). The ground
 * under the heel is the sole's, not one point's: where the toe's tread stands a riser's least
 * rise (AK_FLOOR_STEP_MIN) over the heel ray's ground, the riser's edge lies between heel and
 * toe and a heel below that tread puts the sole through it, so the heel keeps to the toe's tread.
 * The heel ray alone, asked where the last solve left the heel (a heel 4 cm behind a riser up),
 * let the source's heel-down pitch take the heel 93 mm into the step, and the next frame's ray,
 * asked there, found the upper tread and held it level: a heel flipping between the treads every
 * frame (the guide walker, Debian's assimp 01_03.bvh on the stairs, frame 785). */
static float heel_clear_angle(const ak_foot_ik_params *p, const ak_foot_ik_frame *fr,
                              const foot_frame *ff, int32_t s, ak_vec3 k)
{
    const ak_foot_ik_leg *leg = &p->legs[s];
    if (!fr->ground[s].hit) return 0.0f;
    const ak_vec3 toe = ff->toe_target[s];
    const ak_vec3 heel =
        akv_sub(ff->ankle_target[s],
                akv_scale(akq_rotate(ff->foot_rot[s], leg->up_local), leg->sole_height));
    float ground = ground_at(&fr->ground[s], ff->ray_heel[s], heel).height;
    if (fr->ground_toe[s].hit) {
        const float tread = ground_at(&fr->ground_toe[s], ff->ray_toe[s], heel).height;
        if (tread - ground >= AK_FLOOR_STEP_MIN) ground = tread;
    }
    const float c = ground - toe.y;
    const ak_vec3 v = akv_sub(heel, toe);
    const float A = v.y, B = akv_cross(k, v).y;
    if (A >= c) return 0.0f;
    float lo = 0.0f, hi = AK_TOE_ROLL_MAX;
    if (A * cosf(hi) + B * sinf(hi) < c) return hi;
    for (int i = 0; i < 12; ++i) {
        const float m = 0.5f * (lo + hi);
        if (A * cosf(m) + B * sinf(m) >= c)
            hi = m;
        else
            lo = m;
    }
    return hi;
}

/* The part of a leg's reach (the 0.999 of its length that last_resort_drop measures) a roll
 * about the toe brings the ankle to: toe_roll_angle solves |hip - ankle| = L exactly, so at L
 * itself rounding left the ankle 0.1 um out of reach and last_resort_drop released a foot the
 * roll had brought within reach: shown in the air (no stance, no contact) in the very pose of a
 * foot planted on its toe with its heel rolled up, and released again the next frame
 * (was_released). The built-in clip on the ridges and the heightmap, one or two frames before
 * the clip lifts a heel the hips left out of reach. 0.1 mm inside L, far beyond rounding. */
#define AK_ROLL_REACH 0.9999f

/* The ankle target of a pivoting leg turned heel-up about its toe: in stance by the roll
 * toe_roll_angle finds for a hip at `hip`; once the foot leaves the ground, while its toe lock
 * fades, by that roll eased out with the lock (a smoothstep of its weight) or the last roll
 * faded by the same part as the lock, whichever is more: the toe leaves the ground from where
 * it stood and the foot never turns in one frame. The last roll once faded by AK_TOE_ROLL_MAX
 * per fade of the lock, so a small one was gone in a frame while the lock still held 87 %: a
 * push-off released out of reach (the matcher's, CMU subject 2 on flat ground, frame 233)
 * lost a 0.068 rad roll and the leg pulled its toe 8 mm forward and 17 mm up in that frame,
 * 0.53 m/s while the database still has it down (walk_physics.h's hover, bound 0.37 m/s). */
static void roll_about_toe(const ak_foot_ik_params *p, const ak_skeleton *sk, ak_foot_ik_state *st,
                           const ak_foot_ik_frame *fr, foot_frame *ff, int32_t s, ak_vec3 hip)
{
    const ak_foot_ik_leg *leg = &p->legs[s];
    if (!ff->pivot[s]) {
        st->toe_roll[s] = 0.0f;
        return;
    }
    const float L =
        (sk->bone_lengths[leg->lower] + sk->bone_lengths[leg->foot]) * 0.999f * AK_ROLL_REACH;
    ak_vec3 k;
    float t = toe_roll_angle(hip, ff->toe_target[s], ff->ankle_target[s], L, &k);
    if (!fr->stance[s]) {
        /* the lock's weight now and last frame (it fades linearly, pivot: still above 0) */
        const float w = st->lock_weight[s], was = w + p->lock_release_rate * ff->dt;
        t = akf_max(t * w * w * (3.0f - 2.0f * w), st->toe_roll[s] * (w / was));
    } else {
        t = akf_max(t, heel_clear_angle(p, fr, ff, s, k));
    }
    st->toe_roll[s] = t;
    if (!(t > 0.0f)) return;
    const ak_quat r = akq_axis_angle(k, t);
    ff->foot_rot[s] = akq_normalize(akq_mul(r, ff->foot_rot[s]));
    ff->ankle_target[s] = akv_sub(ff->toe_target[s], akq_rotate(ff->foot_rot[s], leg->toe_local));
}

/* How far the hip must come down (vertically) so a leg of length L reaches target; 0 when it
 * already does or when no drop helps (the target is further than L horizontally). */
static float drop_to_reach(ak_vec3 hip, ak_vec3 target, float L)
{
    const float dx = target.x - hip.x, dz = target.z - hip.z;
    const float dh2 = dx * dx + dz * dz;
    if (!(dh2 < L * L)) return 0.0f;
    const float need = (hip.y - target.y) - sqrtf(L * L - dh2);
    return need > 0.0f ? need : 0.0f;
}

/* How far the hip may rise (vertically) with a leg of length L still reaching target; 0 when
 * it cannot. */
static float rise_room(ak_vec3 hip, ak_vec3 target, float L)
{
    const float dx = target.x - hip.x, dz = target.z - hip.z;
    const float dh2 = dx * dx + dz * dz;
    if (!(dh2 < L * L)) return 0.0f;
    const float room = sqrtf(L * L - dh2) - (hip.y - target.y);
    return room > 0.0f ? room : 0.0f;
}

/* How far (vertically) the hip may rise with a leg of length L still reaching target, negative
 * when it must come down that much; -FLT_MAX when no height reaches it. */
static float reach_room(ak_vec3 hip, ak_vec3 target, float L)
{
    const float dx = target.x - hip.x, dz = target.z - hip.z;
    const float dh2 = dx * dx + dz * dz;
    return dh2 < L * L ? sqrtf(L * L - dh2) - (hip.y - target.y) : -FLT_MAX;
}

/* How far (vertically) the hip may come down with the leg's knee bent at most max_knee_flex
 * over an ankle at target: the hip-to-ankle distance of a knee bent by theta is
 * d(theta) = sqrt(a^2 + b^2 + 2 a b cos theta) (law of cosines, thigh a, shank b), so the hip
 * stays sqrt(d^2 - h^2) above the ankle for the horizontal distance h; FLT_MAX when no limit is
 * set or no height bends the knee that far. */
static float knee_drop(const ak_foot_ik_params *p, const ak_skeleton *sk, const foot_frame *ff,
                       int32_t s, ak_vec3 hip, ak_vec3 target)
{
    if (!(p->max_knee_flex > 0.0f)) return FLT_MAX;
    const ak_foot_ik_leg *leg = &p->legs[s];
    const float a = sk->bone_lengths[leg->lower], b = sk->bone_lengths[leg->foot];
    const float d2 = a * a + b * b + 2.0f * a * b * ff->cos_knee;
    const float dx = target.x - hip.x, dz = target.z - hip.z, h2 = dx * dx + dz * dz;
    if (!(h2 < d2)) return FLT_MAX;
    return (hip.y - target.y) - sqrtf(d2 - h2);
}

/* Single support, by the swinging foot's phase u: 0 at lift-off, 1 from AK_SS_IN to AK_SS_OUT,
 * back to 0 at landing (smoothstep ramps), so a rise is gone by double support. */
static float single_support_weight(float u)
{
    float a = akf_clamp(u / AK_SS_IN, 0.0f, 1.0f),
          b = akf_clamp((AK_SS_END - u) / (AK_SS_END - AK_SS_OUT), 0.0f, 1.0f);
    a = a * a * (3.0f - 2.0f * a);
    b = b * b * (3.0f - 2.0f * b);
    return a < b ? a : b;
}

/* The ground leg s stands on (its heel's, or its toe's while it pivots), or for a swinging
 * leg the ground it will land on (the landing hint, else the ground under its heel now). */
static void leg_foothold(const ak_foot_ik_state *st, const ak_foot_ik_frame *fr, int32_t s,
                         foot_frame *ff)
{
    const ak_ground_hit *g = &fr->ground[s];
    if (fr->stance[s] && ff->pivot[s] && fr->ground_toe[s].hit) g = &fr->ground_toe[s];
    if (!fr->stance[s]) g = &fr->ground_land[s];
    ff->has_foothold[s] = g->hit && st->ground_weight[s] > 0.0f;
    ff->hold_level[s] = g->normal.y >= AK_LEVEL_COS;
    ff->foothold[s] = g->height;
}

/* How far this leg would like the hips lowered (its ankle target below the animated ankle,
 * or the ground a swinging foot will land on below the clip floor, over the swing), and how
 * far it needs them lowered to reach its target at all. */
static void leg_drop(const ak_foot_ik_params *p, const ak_skeleton *sk, const ak_foot_ik_state *st,
                     const ak_foot_ik_frame *fr, const ak_xform *world, int32_t s, foot_frame *ff)
{
    const ak_foot_ik_leg *leg = &p->legs[s];
    ff->shortfall[s] = (world[leg->foot].translation.y + ff->lift) - ff->ankle_target[s].y;
    if (!fr->stance[s] && fr->ground_land[s].hit) {
        float u = fr->swing_phase[s];
        u = u < 0.0f ? 0.0f : (u > 1.0f ? 1.0f : u);
        const float land_short =
            (fr->floor_height - fr->ground_land[s].height) * u * u * (3.0f - 2.0f * u);
        if (land_short > ff->shortfall[s]) ff->shortfall[s] = land_short;
        if (fr->stance[1 - s]) ff->single_support = single_support_weight(u);
    }
    const ak_vec3 hip = lifted(world[leg->upper].translation, ff->lift);
    const float L = (sk->bone_lengths[leg->lower] + sk->bone_lengths[leg->foot]) * 0.999f;
    ak_vec3 target = ff->ankle_target[s];
    ff->rise_room[s] = fr->stance[s] ? rise_room(hip, target, L * AK_RISE_REACH / 0.999f) : 0.0f;
    ak_vec3 planned = target;
    int plan_less = 0;
    ff->roll_need[s] = -1.0f;
    if (ff->pivot[s] && fr->stance[s]) {
        /* What the leg needs with its heel lifted as far as the roll allows; for the hips'
         * plan, while the other foot is not planted, as far as its budget. */
        ak_vec3 k;
        const float need = toe_roll_need(hip, ff->toe_target[s], target, L, &k);
        const float t = akf_min(need, AK_TOE_ROLL_MAX);
        const ak_vec3 v = akv_sub(target, ff->toe_target[s]);
        target = akv_add(ff->toe_target[s], akq_rotate(akq_axis_angle(k, t), v));
        planned = target;
        if (!fr->stance[1 - s]) {
            ff->roll_need[s] = need;
            const float b = toe_roll_budget(st, fr, ff, s, need);
            plan_less = t > b;
            if (plan_less)
                planned = akv_add(ff->toe_target[s], akq_rotate(akq_axis_angle(k, b), v));
        }
    }
    ff->reach_drop[s] = drop_to_reach(hip, target, L);
    ff->knee_drop[s] =
        fr->stance[s] && fr->stance[1 - s] ? knee_drop(p, sk, ff, s, hip, target) : FLT_MAX;
    /* only the rise brake reads it (pelvis_drop: the pose source standing, or the guide walker's
     * hips rising over a leg planted alone): one sqrt a planted leg a frame saved otherwise */
    ff->reach_room[s] =
        fr->stance[s] && (ff->standing || ff->rising_alone) ? reach_room(hip, target, L) : FLT_MAX;
    ff->toe_plan_drop[s] = plan_less ? drop_to_reach(hip, planned, L) : ff->reach_drop[s];
    ff->due_drop[s] = ff->due_hold[s] = 0.0f;
    ff->due[s] = !fr->stance[s] && fr->swing_phase[s] >= 1.0f;
    if (!fr->stance[s] && fr->ground[s].hit) {
        /* the ankle with the heel on its ground, the foot as animated; for the pose source's
         * landing hold (ak_foot_ik_state.due_drop) moved by its placement shift as heel_a is (a
         * matching transition's offset held in the foot lands with it). Standing (the pose
         * source's stop) the foot comes down flat, as far as its flat alignment has faded in:
         * the ankle a sole height over its heel point, as leg_target puts it; the drop is the
         * larger of the two. A stand frame's foot on its toes (the ankle 2 cm over its heel
         * point and 9 cm ahead of it: CMU 09_02 at 24 fps) lands 9 cm farther from the hips
         * than it is shown: planned for as shown, it landed 17 mm out of the leg's reach,
         * rolled, and the hips dropped at -4.9 g. The flat drop alone, smaller for a foot shown
         * heel down, left CMU 09_01 at 30 fps (stairs from (-5.9,0)) 14 mm out of reach. */
        const ak_vec3 ankle = lifted(world[leg->foot].translation, ff->lift);
        const float shown = ankle.y - ff->heel_a[s].y;
        const float flat =
            ff->standing ? st->stance_weight[s] * (1.0f - st->pivot_weight[s]) : 0.0f;
        const ak_vec3 over = akv_lerp(ankle, ff->heel_a[s], flat);
        const ak_vec3 down = akv_make(ankle.x, fr->ground[s].height + shown, ankle.z);
        const ak_vec3 laid = akv_make(
            over.x, fr->ground[s].height + shown + (leg->sole_height - shown) * flat, over.z);
        const ak_vec3 shift = akv_make(st->shift[s].x, 0.0f, st->shift[s].z);
        ff->due_drop[s] = drop_to_reach(hip, down, L);
        ff->due_hold[s] = drop_to_reach(hip, akv_add(down, shift), L);
        if (flat > 0.0f) {
            ff->due_drop[s] = akf_max(ff->due_drop[s], drop_to_reach(hip, laid, L));
            ff->due_hold[s] = akf_max(ff->due_hold[s], drop_to_reach(hip, akv_add(laid, shift), L));
        }
    }
    leg_foothold(st, fr, s, ff);
}

/* In single support the planted leg's shortfall is the goal (weight w); the part of its rate
 * that is the animation's floor moving over the planted foot is fed forward like a swinging
 * leg's reach, so the hips hold the stance knee at the animation's bend instead of lagging
 * 2 rate / omega behind (and the hip drop moves at most hip_drop_rate plus the floor's own
 * speed, which the floor has already added to the hips). Weighted, not switched on where the
 * shortfall wins the max: a near tie decided by the last bit would make builds with and
 * without fused multiply-add walk apart. */
static float stance_goal_rate(ak_foot_ik_state *st, const foot_frame *ff, float w)
{
    const int leg = ff->stance[0] != ff->stance[1] && w > 0.0f ? (ff->stance[0] ? 0 : 1) : -1;
    float rate = 0.0f;
    if (leg >= 0 && st->initialized && st->stance_goal_leg == leg && ff->dt > 0.0f)
        rate = w * akf_clamp((ff->floor - st->stance_goal) / ff->dt, -AK_NEED_RATE_MAX,
                             AK_NEED_RATE_MAX);
    st->stance_goal_leg = leg;
    st->stance_goal = ff->floor;
    return rate;
}

/* The lower foot's shortfall is followed smoothly (critically damped, speed capped at
 * hip_drop_rate). What a swinging leg needs to reach its target is a goal too, followed with
 * the rate it rises at fed forward (x'' = w^2 (g - x) + 2 w (g' - x'), which tracks a ramp
 * without lag), so the hips are down when the foot lands; what a planted leg needs is a hard
 * floor (a planted foot must reach the ground) -- a toe-rolling foot lifts its heel first
 * (roll_about_toe), so the floor only rises when even that is not enough. When the floor
 * pushes the drop up, the spring continues from there (its velocity taken over), so the hips
 * come back up at the capped rate, not at whatever speed the need falls away. */
static void follow_hip_drop(const ak_foot_ik_params *p, ak_foot_ik_state *st, const foot_frame *ff)
{
    float sf[2] = {ff->shortfall[0], ff->shortfall[1]};
    float rise = 0.0f, ws = 0.0f;
    const float floor_drop = -p->max_hip_rise;
    if (p->max_hip_rise > 0.0f && ff->stance[0] != ff->stance[1]) {
        /* Single support: the hips follow the planted foot's ground (rising over it when it is
         * above the animation's floor); the swinging leg's shortfall and landing anticipation
         * and the drop it needs to reach its target come back as the swing ends: what it needs
         * at landing, not what it needed leaving the ground behind (in the air it may fall
         * short, swing_within_reach). */
        const int st_leg = ff->stance[0] ? 0 : 1, sw = 1 - st_leg;
        const float w = ff->single_support;
        ws = w;
        sf[sw] = sf[sw] + (sf[st_leg] - sf[sw]) * w;
        rise = w * akf_min(p->max_hip_rise, ff->rise_room[st_leg]);
    }
    float want = sf[0] > sf[1] ? sf[0] : sf[1];
    float need = floor_drop;
    const float dt = ff->dt;
    float goal_rate = stance_goal_rate(st, ff, ws);
    for (int s = 0; s < 2; ++s) {
        if (ff->stance[s]) {
            need = akf_max(need, ff->reach_drop[s] > 0.0f ? ff->reach_drop[s] : -ff->rise_room[s]);
            st->swing_need[s] = -1.0f;
            continue;
        }
        /* A swinging leg's reach is followed, not forced: the goal and the rate it moves at
         * (the leg's geometry is continuous), so the hips are down by the time it lands. */
        const float prev = st->swing_need[s];
        const float reach = ff->reach_drop[s] * (1.0f - ws);
        st->swing_need[s] = reach;
        if (reach > 0.0f && reach >= want) {
            want = reach;
            goal_rate = st->initialized && prev >= 0.0f && dt > 0.0f
                            ? akf_clamp((reach - prev) / dt, 0.0f, AK_NEED_RATE_MAX)
                            : 0.0f;
        }
    }
    if (want < -rise) {
        want = -rise;
        goal_rate = 0.0f;
    }
    if (want > p->max_hip_drop) want = p->max_hip_drop;
    if (need > p->max_hip_drop) need = p->max_hip_drop;
    if (!st->initialized || dt <= 0.0f) {
        st->hip_drop = want > need ? want : need;
        st->hip_drop_velocity = 0.0f;
        return;
    }
    const float omega = p->hip_drop_stiffness;
    float v = st->hip_drop_velocity + (omega * omega * (want - st->hip_drop) +
                                       2.0f * omega * (goal_rate - st->hip_drop_velocity)) *
                                          dt;
    const float cap = p->hip_drop_rate + fabsf(goal_rate);
    v = akf_clamp(v, -cap, cap);
    float next = st->hip_drop + v * dt;
    if (next < need) {
        v = (need - st->hip_drop) / dt;
        next = need;
    }
    if (next < floor_drop) {
        next = floor_drop;
        v = 0.0f;
    }
    st->hip_drop_velocity = v;
    st->hip_drop = next;
}

/* Metres: a heel's ground this far off the plane of its ground a frame before (carried along
 * its tangent) is another tread: a riser lies between the two query points (place_edge's rule;
 * a slope or a curved heightmap carries the plane over a frame's travel). */
#define AK_TREAD_EDGE 0.02f

/* Whether due landing s (a foot its pose source holds in the air until its leg reaches: the
 * matcher's, out_of_reach) trails a riser below: its ankle behind the hips and behind the other
 * foot's along the facing, over a level tread, while the other foot stands on, or will land on, a
 * level tread a riser higher (more than AK_TREAD_EDGE: a riser between). Going up stairs a person
 * does not crouch to set the trailing foot back down on the tread below; it lifts and steps on
 * past the other. The hips do not come down for such a landing (plan_hip_drop, landing_accel):
 * the foot waits in the air until its pose source lifts it. A foot ahead of the other (the guide
 * walker's settle a riser down: 0.15 m behind the hips, the other foot 0.31 m) still brings them
 * down. CMU 07_04 (the held-out trials' slow30 and slow60cm) up the CLI's stairs, frames
 * 315-343: a jump left the left foot's frame down on its toe 0.52 m behind the hips, a riser
 * under the right foot's tread; the hips came down 0.11 -> 0.16 m for it (the planted right knee
 * at 95-98 deg), and the left foot, lifted from there to step two risers up, folded its knee to
 * 116.1 deg (bound 100). */
static int trailing_landing(const ak_foot_ik_params *p, const ak_foot_ik_frame *fr,
                            const foot_frame *ff, const ak_xform *world, int32_t s)
{
    const int32_t o = 1 - s;
    const ak_ground_hit *g = &fr->ground[s];
    if (!ff->due[s] || ff->standing || !g->hit || !ff->has_foothold[o]) return 0;
    if (!(g->normal.y >= AK_LEVEL_COS) || !ff->hold_level[o] ||
        !(ff->foothold[o] > g->height + AK_TREAD_EDGE))
        return 0;
    /* (each ankle ahead of its hip along the facing: the other's target where it is planted) */
    const ak_vec3 hip = world[p->legs[s].upper].translation,
                  ankle = world[p->legs[s].foot].translation;
    const ak_vec3 hip_o = world[p->legs[o].upper].translation;
    const ak_vec3 ankle_o =
        fr->stance[o] ? ff->ankle_target[o] : world[p->legs[o].foot].translation;
    const float ahead = (ankle.x - hip.x) * ff->forward.x + (ankle.z - hip.z) * ff->forward.z;
    const float ahead_o =
        (ankle_o.x - hip_o.x) * ff->forward.x + (ankle_o.z - hip_o.z) * ff->forward.z;
    return ahead < akf_min(ahead_o, 0.0f);
}

/* Both feet planted (with planned hips): the most the hips may come down with either knee
 * within max_knee_flex (knee_drop), less the distance hips rising from rest at hip_accel_up
 * fall behind that limit as it rises at its rate r, r^2 / (2 hip_accel_up), so they start up
 * before the knee gets there. The limit is kept for its rate next frame in stance_goal
 * (stance_goal_leg 2; with planned hips the follow path's fields are free). Following the
 * lower foot's whole shortfall, Debian assimp-testmodels' 01_01.bvh up the CLI's stairs
 * (frames 1140-1180: its crouch before a jump, the left foot on the tread at 0.30 m, the right
 * on 0.15 m, the floor between at 0.225) kept the hips 7.4 cm down for the right foot, whose
 * knee had 11 cm of room to straighten, and folded the left knee to 110.0 deg (bound 108.7,
 * limit 103.7); held at the limit alone, the hips lagged it and the knee reached 108.1. */
static float knee_cap(const ak_foot_ik_params *p, ak_foot_ik_state *st, const foot_frame *ff)
{
    const float cap = akf_min(ff->knee_drop[0], ff->knee_drop[1]);
    const int had = st->initialized && st->stance_goal_leg == 2 && ff->dt > 0.0f;
    const float r =
        had ? akf_clamp((st->stance_goal - cap) / ff->dt, 0.0f, AK_NEED_RATE_MAX) : 0.0f;
    st->stance_goal_leg = cap < FLT_MAX ? 2 : -1;
    st->stance_goal = cap;
    return cap - r * r / (2.0f * p->hip_accel_up);
}

/* The hips' drop this frame, planned (hip_accel_down > 0): low enough that each planted foot
 * reaches its ground (its shortfall and what its leg needs), and, known from lift-off, that a
 * swinging foot will reach the ground it lands on -- that ground below the animation's floor,
 * less the room its leg has at landing (landing_slack) -- so the hips start down a slope or a
 * stair as the foot leaves the ground instead of when the leg runs out; a landing that is due
 * on a foot held in the air, what its leg needs to reach the ground (due_drop); no higher than a
 * planted leg reaches with its knee still bent (AK_RISE_REACH). pelvis_drop moves the hips
 * there within physics. A foot planted on its toe alone while the other foot is not planted
 * needs the hips lower frame by frame as the body goes on over it; while that need sets the
 * drop, the rate it grows at (toe_need_rate) is fed forward, so the hips follow the ramp instead
 * of lagging behind it and leaving the toe out of reach, which last_resort_drop then lifts
 * straight up in place while the pose source still stands on it (the matcher's CMU subjects 2
 * and 7 up the stairs, 61.9 and 70.5 mm). Where the other foot will land no higher than that
 * toe stands (toe_keep), nothing asks the body to rise, and the hips may come down to the toe
 * as fast as a landing brings them (pelvis_drop): at hip_accel_down alone a growing need
 * (0.5-1 m/s as the body goes on over a toe planted short) outran them by 5-9 cm, the toe
 * lifted straight up while the source still stood on it (CMU 02_02 at 24 fps off the CLI's
 * stairs, 07_01 and 02_02 stopping down the hills). There the need the plan follows is the
 * leg's with the heel rolled up at most the roll's budget (toe_roll_budget: less than its limit
 * where the roll will run out before the pose source lifts the foot), so the hips start down
 * while the roll still has room instead of once it has run out. Stepping up (the other foot lands
 * on a higher tread) the body must rise onto it and the toe lifts early: pulled down for the
 * trailing toe, the matcher's library walk up the stairs had to climb back at hip_accel_up and
 * bent a knee to 145.3 deg (bound 138.8). */
static void plan_hip_drop(const ak_foot_ik_params *p, ak_foot_ik_state *st, foot_frame *ff,
                          const ak_foot_ik_frame *fr, const ak_xform *world)
{
    for (int s = 0; s < 2; ++s)
        ff->due_trails[s] = trailing_landing(p, fr, ff, world, s);
    float want = 0.0f, rise = -p->max_hip_rise, rate[2] = {0.0f, 0.0f}, toe_need[2] = {0.0f, 0.0f};
    int level[2] = {0, 0};
    for (int s = 0; s < 2; ++s) {
        const float prev = st->swing_need[s];
        st->swing_need[s] = -1.0f;
        if (ff->stance[s] && ff->pivot[s] && !ff->stance[1 - s]) {
            /* (the other foot lands no higher than this toe stands, within 1 cm: planned with
             * the roll's budget, toe_roll_budget) */
            level[s] = ff->has_foothold[s] && ff->has_foothold[1 - s] &&
                       ff->foothold[1 - s] <= ff->foothold[s] + 0.01f;
            toe_need[s] = level[s] ? ff->toe_plan_drop[s] : ff->reach_drop[s];
            st->swing_need[s] = toe_need[s];
            if (st->initialized && prev > 0.0f && ff->dt > 0.0f)
                rate[s] = akf_clamp((toe_need[s] - prev) / ff->dt, 0.0f, AK_NEED_RATE_MAX);
            want = akf_max(want, toe_need[s]);
        }
        if (!ff->stance[s]) {
            if (ff->due_trails[s]) continue;
            if (ff->has_foothold[s])
                want = akf_max(want, ff->floor - ff->foothold[s] - p->legs[s].landing_slack);
            if (ff->due[s]) want = akf_max(want, ff->due_drop[s]);
            continue;
        }
        want = akf_max(want, akf_max(ff->reach_drop[s], ff->shortfall[s]));
        rise = akf_max(rise, -ff->rise_room[s]);
    }
    if (ff->stance[0] && ff->stance[1])
        want = akf_max(akf_min(want, knee_cap(p, st, ff)),
                       akf_max(ff->reach_drop[0], ff->reach_drop[1]));
    else
        st->stance_goal_leg = -1;
    ff->toe_need_rate = 0.0f;
    ff->toe_keep = 0;
    for (int s = 0; s < 2; ++s)
        if (rate[s] > 0.0f && toe_need[s] >= want && want < p->max_hip_drop) {
            ff->toe_need_rate = akf_max(ff->toe_need_rate, rate[s]);
            if (level[s]) ff->toe_keep = 1;
        }
    want = akf_max(want, rise);
    st->hip_drop = akf_min(want, p->max_hip_drop);
}

/* The most a swinging foot's landing may accelerate the grounding's move of the hips downward
 * (landing_accel): with hip_accel_total_down, the room the animation's own hips leave under that
 * bound now (total + the pose source's own hips acceleration, ak_foot_ik_frame.anim_hip_accel,
 * negative while they fall), at least hip_accel_down; else (and never beyond) one g: a body
 * falls no faster than gravity. */
static float landing_cap(const ak_foot_ik_params *p, const ak_foot_ik_frame *fr)
{
    if (!(p->hip_accel_total_down > 0.0f) || !isfinite(fr->anim_hip_accel)) return AK_GRAVITY;
    return akf_clamp(p->hip_accel_total_down + fr->anim_hip_accel, p->hip_accel_down, AK_GRAVITY);
}

/* The downward acceleration the hips may take this frame: hip_accel_down, or, when a swinging
 * foot lands before the hips could reach their goal at that rate, the constant acceleration
 * that brings them there by its landing, 2 (gap - v T) / T^2 for the gap to the goal, their
 * velocity v and the time T to landing (the swing phase's rate), up to the landing cap: a
 * body falls no faster than gravity, so what is left at the landing is the last resort's. A
 * landing that is due (swing phase 1) on a foot its pose source holds in the air until it can
 * reach (the matcher's, out_of_reach) takes the cap while the hips are above where its leg
 * reaches the ground (due_drop). */
static float landing_accel(const ak_foot_ik_params *p, ak_foot_ik_state *st,
                           const ak_foot_ik_frame *fr, const foot_frame *ff, float goal)
{
    float down = p->hip_accel_down;
    const float cap = landing_cap(p, fr);
    const float gap = goal - st->pelvis, v = st->pelvis_velocity;
    for (int s = 0; s < 2; ++s) {
        const float u = fr->stance[s] ? 0.0f : fr->swing_phase[s];
        const float du = u - st->swing_phase_last[s];
        st->swing_phase_last[s] = u;
        if (fr->stance[s] || !ff->has_foothold[s]) continue;
        if (ff->due[s] && !ff->due_trails[s] && ff->floor - st->pelvis < ff->due_drop[s])
            down = akf_max(down, cap);
        if (!(du > 0.0f) || !(u < 1.0f)) continue;
        const float T = akf_max((1.0f - u) / du * ff->dt, ff->dt);
        const float a = -2.0f * (gap - v * T) / (T * T);
        if (a > down) down = akf_min(a, cap);
    }
    return down;
}

/* The pose source standing (the matcher's stop): the downward acceleration (up to the landing
 * cap: a rising body stops by ceasing to push, gravity brakes it) that stops hips rising now
 * before they pass the height where a planted leg still reaches its foot, v^2 / (2 room); 0 when
 * they fall or have room. Braked at hip_accel_down alone, hips springing up from a landing's
 * crouch at 0.7-0.9 m/s overshot their goal by 6-10 cm: CMU 09_02 at 24 fps (stairs from
 * (-5.4,0)), a left foot stepped back 0.62 m landed flat at its place, the hips went on 7 cm
 * past its reach and rolled it over its toe (released, stepped anew twice). */
static float rise_brake(const ak_foot_ik_params *p, const ak_foot_ik_state *st,
                        const ak_foot_ik_frame *fr, const foot_frame *ff)
{
    const float v = st->pelvis_velocity;
    if (!(v > 0.0f)) return 0.0f;
    const float top = ff->floor + akf_min(ff->reach_room[0], ff->reach_room[1]);
    const float room = top - st->pelvis;
    const float cap = landing_cap(p, fr);
    return room > 1e-4f ? akf_min(v * v / (2.0f * room), cap) : cap;
}

/* The drop the hips get this frame. Their height correction c = floor - drop (what the
 * grounding adds to the animation's own hip height) follows its goal, floor - hip_drop, as the
 * critically damped spring of hip_drop_stiffness (the goal is a foothold height, constant
 * between lift-offs and landings, so nothing is fed forward), its
 * acceleration held within [-hip_accel_down, hip_accel_up]: nothing pulls a body down faster
 * than gravity, and legs push it up at about a g at most. */
static float pelvis_drop(const ak_foot_ik_params *p, ak_foot_ik_state *st,
                         const ak_foot_ik_frame *fr, const foot_frame *ff)
{
    const float goal = ff->floor - st->hip_drop, dt = ff->dt;
    const float floor_rate =
        st->initialized && dt > 0.0f ? (ff->floor - st->floor_last) / dt : 0.0f;
    st->floor_last = ff->floor;
    if (!st->initialized || !(dt > 0.0f)) {
        st->pelvis = st->pelvis_goal = goal;
        st->pelvis_velocity = 0.0f;
        for (int s = 0; s < 2; ++s)
            st->swing_phase_last[s] = fr->stance[s] ? 0.0f : fr->swing_phase[s];
        return st->hip_drop;
    }
    ak_spring1 c = {st->pelvis, st->pelvis_velocity};
    /* The grounding's own pull down leaves the hips as a whole within hip_accel_total_down: at
     * most what the pose source's own acceleration (anim_hip_accel, its lowest over the
     * measure's window) leaves of it, none where the source alone takes it all. A run's start
     * at 24 fps up the stairs (CMU 09_02 from -5.5, frame 12): as a foot about to land below
     * the floor cut the floor's rate fed forward, the spring pulled the hips down at
     * hip_accel_down (0.23 g) while the run as played (its rate rising) fell at 1.09 g:
     * -1.27 g against -1.25. */
    float down = landing_accel(p, st, fr, ff, goal);
    /* A toe kept within reach while the other foot is not planted (plan_hip_drop's toe_keep)
     * may bring them down as a landing does, within the landing cap (a body falls no faster
     * than gravity, and the hips as a whole stay within hip_accel_total_down). Not while the
     * pose source stands (the matcher's stop: its stand frame's hips; a waiting toe steps
     * instead): pulled down to it, a run's stop folded a knee to 157 deg (CMU 09_01 at 50 fps
     * on the stairs). */
    if (ff->toe_keep && !ff->standing) down = akf_max(down, landing_cap(p, fr));
    if (ff->standing) down = akf_max(down, rise_brake(p, st, fr, ff));
    float total = FLT_MAX;
    if (p->hip_accel_total_down > 0.0f && isfinite(fr->anim_hip_accel)) {
        total = akf_max(p->hip_accel_total_down + fr->anim_hip_accel, 0.0f);
        down = akf_min(down, total);
    }
    /* Walking, hips rising toward the reach of a leg planted alone faster than hip_accel_down
     * stops them there brake at what does (within the hips' whole bound): they rose with the floor
     * and braked only once the leg was out of reach. CMU 02_01 at 24 fps up the tests' heightmap's
     * 40 % climb (frames 565-571), the floor's climb rate fed forward (walker.c update_floor):
     * the trailing leg, planted alone, ran out of reach as the hips rose at 0.46 m/s, and its
     * heel rolled about its toe 0.019 rad in the frame its pivot began, 1.3 mm back along the
     * slope (0.16 m/s within 5 mm of the ground, the clip's fastest there 0.15). */
    float up = p->hip_accel_up;
    if (ff->rising_alone) {
        const float brake = rise_brake(p, st, fr, ff);
        if (brake > p->hip_accel_down) {
            const float b = akf_min(brake, total);
            down = akf_max(down, b);
            up = -b;
        }
    }
    /* A rising floor's rate is fed forward: the hips follow the character's smoothed ground up
     * stairs and slopes without lagging behind it (and bending the stance knee for it). Going
     * down, the plan already has them low by each landing. Not while a swinging foot will land
     * below the floor (a run in flight toward a tread three risers up lands its other foot
     * first, short of the stairs): the hips rose with the floor and had to come down on that
     * landing faster than physics (the last resort's drop). */
    float rate = akf_clamp(floor_rate, 0.0f, AK_NEED_RATE_MAX);
    for (int s = 0; s < 2; ++s)
        if (!fr->stance[s] && ff->has_foothold[s] && ff->foothold[s] < ff->floor - 0.01f)
            rate = 0.0f;
    rate -= ff->toe_need_rate; /* (a toe's growing need: plan_hip_drop) */
    aks_spring_step_limited(&c, goal, rate, p->hip_drop_stiffness, dt, down, up);
    st->pelvis = c.x;
    st->pelvis_velocity = c.v;
    st->pelvis_goal = goal;
    return ff->floor - c.x;
}

/* Lowers the hips joint by the drop: a pure world translation of its subtree. Its world
 * heights first get the caller's pending lift (akf_foot_ik_solve's), in the same pass: each
 * height is (y + lift) - drop, the two moves' sums in their order. */
static void apply_hip_drop(const ak_foot_ik_params *p, const ak_skeleton *sk, float drop,
                           float lift, ak_xform *local, ak_xform *world)
{
    const int32_t end = sk->subtree_end[p->hips];
    if (drop == 0.0f || !isfinite(drop)) {
        if (lift != 0.0f)
            for (int32_t j = p->hips; j < end; ++j)
                world[j].translation.y += lift;
        return;
    }
    const int32_t parent = sk->parents[p->hips];
    ak_vec3 d = {0, -drop, 0};
    if (parent >= 0) d = akq_rotate(akq_conj(world[parent].rotation), d);
    local[p->hips].translation = akv_add(local[p->hips].translation, d);
    for (int32_t j = p->hips; j < end; ++j)
        world[j].translation.y = world[j].translation.y + lift - drop;
}

/* With planned hips, the part of the leg's reach (AK_SWING_REACH) over which a swinging ankle
 * target is drawn in softly (swing_within_reach). */
#define AK_SWING_SOFT 0.04f

/* A swinging leg's ankle target pulled toward the hip to at most AK_SWING_REACH of the leg:
 * the foot falls short along the leg instead of the knee locking straight. With planned hips
 * (which do not come down for a swinging leg's reach) a target beyond L - k (k = AK_SWING_SOFT
 * of L) is drawn in to L - k exp(-(d - (L - k)) / k): continuous with its slope, and never quite
 * L. A straight knee turns fastest for a given move of its target (the flexion goes as the
 * square root of L - d), so a hard clamp at L snapped the knee from straight to 20-35 deg and
 * back in one frame when a target held past reach swept under the hip (2627 rad/s^2, 2.0x the
 * captures, tests/matching/test_matching_walk.c, heightmap 180 deg). A pose source that knows
 * each point's path over its cycle (the guide walker's, akf_foot_points.has_point_floor: its
 * swinging foot keeps the clip's path over the ground and lands where its stride's placement
 * puts it) has the foot fall short straight up instead, on that path: drawn along the leg, the
 * foot was taken back off it toward the hip and, let go as the hips came on over it, moved ahead
 * faster than the clip's within 5 mm of the ground. Held-out trial 2's walk30m (CMU 02_01 at 30
 * fps, mirrored) on the hills, the floor fed the ground's climb (walker.c update_floor) and the
 * hips 3.8 mm higher for it: the landing heel drawn 0.2 mm back at 2.8 mm up in frame 602, in
 * reach in 603, 0.316 m/s against the clip's 0.309. The matcher's database frame can be far out
 * of reach ahead of where its foot lands (subject 7 on the ridges, 14-16 mm drawn in): drawn
 * straight up, that heel came down 10 mm back onto its landing in one frame (0.61 m/s, the
 * database's 0.45), so it is drawn along the leg. */
static void swing_within_reach(const ak_foot_ik_params *p, const ak_skeleton *sk, foot_frame *ff,
                               int32_t s, ak_vec3 hip)
{
    const ak_foot_ik_leg *leg = &p->legs[s];
    if (ff->stance[s]) return;
    const float L = (sk->bone_lengths[leg->lower] + sk->bone_lengths[leg->foot]) * AK_SWING_REACH;
    const ak_vec3 d = akv_sub(ff->ankle_target[s], hip);
    const float len = akv_len(d);
    const float k = p->hip_accel_down > 0.0f ? AK_SWING_SOFT * L : 0.0f;
    float reach = len;
    if (k > 0.0f && len > L - k)
        reach = L - k * expf(-(len - (L - k)) / k);
    else if (len > L)
        reach = L;
    if (!(reach < len)) return;
    const float across = d.x * d.x + d.z * d.z; /* (squared: the foot's offset over the ground) */
    if (ff->pts && ff->pts->has_point_floor && d.y < 0.0f && across < reach * reach)
        ff->ankle_target[s].y = hip.y - sqrtf(reach * reach - across);
    else
        ff->ankle_target[s] = akv_add(hip, akv_scale(d, reach / len));
}

/* How far ground g rises from `from` to `to` (x, z) on its tangent plane, 0 going down or
 * level: a tread's plane is level, so a riser between is not in it. */
static float sweep_rise(const ak_ground_hit *g, ak_vec3 from, ak_vec3 to)
{
    if (!g->hit || !(g->normal.y > 1e-3f)) return 0.0f;
    const float rise =
        -(g->normal.x * (to.x - from.x) + g->normal.z * (to.z - from.z)) / g->normal.y;
    return rise > 0.0f ? rise : 0.0f;
}

/* The lift that holds swinging foot s's ankle and toe up to where they were last frame plus
 * `up`, the larger (clear_ground's, which is not rate-limited): the animation's own point diving
 * faster (a matching transition's offset decaying) does not take the foot below the ground, nor
 * does the foot's turn changing under it (a foot pushing off pitches its toe down as its heel
 * rises, a landing is laid flat on the tread above). Holding the ankle only, CMU 02_01 at 24 fps
 * matched up the stairs from (-4.7,0), a toe pushing off 2 cm short of a riser: the lift, from 0
 * after the stance at 3.3 cm a frame, only kept pace with the turn, and the toe went on 64.4 mm
 * into the riser. */
static inline float held_lift(const ak_foot_ik_params *p, const ak_foot_ik_state *st,
                              const foot_frame *ff, int32_t s, float up)
{
    const ak_foot_ik_leg *leg = &p->legs[s];
    const ak_vec3 a = ff->ankle_target[s];
    const float ankle = ff->prev_ankle[s].y + up - a.y;
    if (!leg->has_toe) return ankle;
    const ak_vec3 toe = akv_add(a, akq_rotate(ff->foot_rot[s], leg->toe_local));
    return akf_max(ankle, st->toe[s].y + up - toe.y);
}

/* *y becomes the higher of itself and ground g carried from q to p (ground_at), *n the
 * normal of the one that is (the plane a toe-up turn moves the point over: toe_up_room). */
static void floor_max(float *y, ak_vec3 *n, const ak_ground_hit *g, ak_vec3 q, ak_vec3 p)
{
    const float h = ground_at(g, q, p).height;
    if (h > *y) {
        *y = h;
        *n = g->normal;
    }
}

/* A toe ray cast ahead along the toe's path (the walker's): the ground it found there (a riser
 * the toe is about to meet) holds swinging toe s, at `toe`, up already, so it rises over it in
 * time; and, with no ray under the toe, the ground under the heel last frame (a heel leading
 * its toe in a run's swing has just passed the edge of a tread the toe is still over). Raises
 * ff->toe_floor[s] to them; returns the height found ahead (-INFINITY: no ray ahead). */
static float toe_floor_ahead(foot_frame *ff, int32_t s, ak_vec3 toe)
{
    const akf_foot_points *pt = ff->pts;
    if (!pt || !pt->ahead_hit[s].hit) return -INFINITY;
    float h = -INFINITY;
    ak_vec3 hn = akv_make(0, 1, 0);
    floor_max(&h, &hn, &pt->ahead_hit[s], pt->ahead_at[s], toe);
    /* (last frame's, while the toe has not passed it: the path's direction jitters as a run's
     * foot leaves the ground) */
    const ak_vec3 la = pt->ahead_last_at[s], na = pt->ahead_at[s];
    if (pt->ahead_last_hit[s].hit &&
        (la.x - toe.x) * (na.x - toe.x) + (la.z - toe.z) * (na.z - toe.z) > 0.0f)
        floor_max(&h, &hn, &pt->ahead_last_hit[s], la, toe);
    const float ahead = h;
    if (pt->heel_last_hit[s].hit)
        floor_max(&h, &hn, &pt->heel_last_hit[s], pt->heel_last_at[s], toe);
    if (h > ff->toe_floor[s]) {
        ff->toe_floor[s] = h;
        ff->toe_floor_n[s] = hn;
    }
    return ahead;
}

/* m: the least clearance a swinging toe keeps over the ground in human walking (the gait
 * literature's minimum toe clearance, about 1.3 cm at mid-swing); a swinging toe whose knee is at
 * its limit keeps at most this much of its own clearance by turning toe-up (toe_up_room). */
#define AK_TOE_MIN_CLEAR 0.013f

/* The source's own clearance of point p (0 heel, 1 toe) of foot s not planted: its animated
 * height over its lowest in the source's cycle (akf_foot_points.point_floor), at least the
 * caller's least (point_clear: the cycle frame's own, which a blend with the stand pose can
 * carry lower) and 0; without those points the caller's own least (the matcher's frame,
 * ak_foot_ik_solve_lifted's point_clear), else 0. The animated point is the pose's before the
 * hips come down, so hips lowered for the ground ahead bend the swinging leg rather than lower
 * its foot. */
static float source_clearance(const ak_foot_ik_frame *fr, const foot_frame *ff, int32_t s, int p)
{
    const akf_foot_points *pt = ff->pts;
    if (!pt || !pt->has_point_floor) return akf_max(ff->point_clear[s][p], 0.0f);
    const float y = p ? ff->toe_a[s].y : ff->heel_a[s].y;
    return akf_max(y - fr->floor_height - pt->point_floor[s][p], pt->point_clear[s][p]);
}

/* clear_ground's toe: its floor (the ground under it and ahead of it, or `floor` stepping up;
 * over that the re-step's lift `up_by` or the source's clearance, room the knee limit may take
 * back) into ff->toe_floor and clear_by; *lift and the ground's own *need raised to the toe's.
 * Returns the lift the ground found ahead of the toe needs. Ground ahead higher than the toe's
 * own plus its clearance (a riser it is about to meet) is cleared by that clearance too: lifted
 * just onto the riser's top, a toe meeting it early in its swing rode its edge (CMU 16_11 up the
 * stairs, frames 700-702, 2.50 m/s; 09_01 at 120 fps from -5.1, frames 180-181, 1.84 m/s).
 * Ground ahead higher than its own that its clearance does carry it over (a riser) keeps at
 * least the least toe clearance (AK_TOE_MIN_CLEAR, up to its own) over its top as well: counted
 * as room for the knee's limit all but what it reached above the top, a toe stepping up onto a
 * tread (its glide 0.40 m, its clearance over it 5.1 cm, the tread at 0.45) was held 4.4 mm over
 * the tread at 2 m/s (CMU 02_02 at 24 fps up the stairs, frames 311-320). */
static float clear_toe(const ak_foot_ik_params *p, const ak_foot_ik_frame *fr, foot_frame *ff,
                       int32_t s, float floor, float stood, float up_by, float *lift, float *need)
{
    const ak_foot_ik_leg *leg = &p->legs[s];
    const ak_vec3 toe = akv_add(ff->ankle_target[s], akq_rotate(ff->foot_rot[s], leg->toe_local));
    const ak_ground_hit *g = fr->ground_toe[s].hit ? &fr->ground_toe[s] : &fr->ground[s];
    const ak_vec3 q = fr->ground_toe[s].hit ? ff->ray_toe[s] : ff->ray_heel[s];
    const float toe_by = akf_max(up_by, source_clearance(fr, ff, s, 1));
    float toe_y = floor;
    ak_vec3 toe_n = akv_make(0, 1, 0);
    floor_max(&toe_y, &toe_n, g, q, toe);
    if (stood > toe_y) {
        toe_y = stood;
        toe_n = akv_make(0, 1, 0);
    }
    /* the ground ahead against the toe's own ground, the lift added after it: both are the
     * ground's need */
    ff->toe_floor[s] = toe_y;
    ff->toe_floor_n[s] = toe_n;
    const float ahead_need = toe_floor_ahead(ff, s, toe) - toe.y;
    *need = akf_max(*need, ff->toe_floor[s] - toe.y);
    if (toe_y + toe_by >= ff->toe_floor[s]) {
        /* (over ground higher than its own, a riser's top: at least the least toe clearance, up
         * to its own, on that top's plane) */
        const float top = ff->toe_floor[s];
        const float over = top > toe_y ? top + akf_min(toe_by, AK_TOE_MIN_CLEAR) : -INFINITY;
        ff->clear_by[s][1] = akf_min(akf_max(toe_y + toe_by, over) - top, toe_by - up_by);
        if (toe_y + toe_by >= over) {
            ff->toe_floor[s] = toe_y + toe_by;
            ff->toe_floor_n[s] = toe_n;
        } else {
            ff->toe_floor[s] = over;
        }
    } else {
        ff->clear_by[s][1] = toe_by - up_by;
        ff->toe_floor[s] += toe_by;
    }
    *lift = akf_max(*lift, ff->toe_floor[s] - toe.y);
    *need = akf_max(*need, ff->toe_floor[s] - toe_by - toe.y);
    return ahead_need;
}

/* A toe whose lock still fades, its ray cast ahead (the guide walker's: toe_floor_ahead), has
 * the tread it stood on under it, the lock pulling it back toward where it stood: that tread's
 * height (the lock point's), else -INFINITY; nothing else looked under it. A toe 5-9 mm in front
 * of a riser up's edge, lifting off straight up with its path drifting back at 0.3 m/s, had its
 * ray 1.4-1.8 cm back on the tread below and the heel's, and went 50.9 mm into the tread it had
 * stood on (Debian's assimp 01_03.bvh on the built-in stairs, frames 867-871). A toe ray under
 * the pulled toe (the matcher's) finds that tread itself, and past an edge down the tread below:
 * held to the one it stood on, CMU 09_01's run down the stairs at 50 fps held a toe 55.5 mm up
 * while its frame stood on it. */
static inline float stood_tread(const ak_foot_ik_state *st, const foot_frame *ff, int32_t s)
{
    return st->lock_toe[s] && st->lock_weight[s] > 0.0f && ff->pts && ff->pts->ahead_hit[s].hit
               ? st->lock_point[s].y
               : -INFINITY;
}

/* A foot not planted this frame (swinging, landing, settling) keeps its heel, toe and ankle at
 * or above the ground under them: the ankle target rises by the deepest of the three below
 * it. The heel's ground is its ray's hit carried along the tangent plane; the toe's is the
 * toe ray's where the caller asked one, else the heel's plane; stepping up, the glide too.
 * The leg reaches the raised target by limb IK from the hips, so the whole foot lifts, turned
 * as it was: an animated toe pitched down in a swing or a settle does not pass through the
 * floor. */
static void clear_ground(const ak_foot_ik_params *p, ak_foot_ik_state *st,
                         const ak_foot_ik_frame *fr, foot_frame *ff, int32_t s)
{
    const ak_foot_ik_leg *leg = &p->legs[s];
    ff->swing_room[s] = 0.0f;
    if (fr->stance[s] || !fr->ground[s].hit || !(p->weight > 0.0f)) {
        st->clear_lift[s] = 0.0f;
        ff->heel_floor[s] = ff->toe_floor[s] = ff->ankle_floor[s] = NAN; /* (no toe-up turn) */
        ff->clear_by[s][0] = ff->clear_by[s][1] = 0.0f;
        ff->heel_floor_n[s] = ff->toe_floor_n[s] = akv_make(0, 1, 0);
        return;
    }
    /* Stepping up, the toe does not pass below its glide: the riser lies somewhere between, and
     * the toe must be over it before it gets there. The heel, a foot's length behind, keeps to
     * the ground under it (and the foot turns toe-up at most AK_TOE_MIN_CLEAR past level,
     * toe_up_room): held on the glide too, a foot lifting three risers (0 -> 0.45 m) rode 8-13
     * cm over the middle tread with the whole foot, its knee at the limit with no room to lower
     * it (CMU 02_02 at 24 fps matched up the CLI's stairs, the held-out walk24, frames 166-170:
     * 103.5 deg against 103.1). */
    float floor = -INFINITY;
    int step_up = 0;
    if (fr->ground_land[s].hit && st->has_liftoff[s]) {
        const float glide = swing_glide(st, fr, &fr->ground[s], s, &step_up);
        if (step_up) floor = glide;
    }
    const ak_vec3 a = ff->ankle_target[s];
    const ak_vec3 heel =
        akv_sub(a, akv_scale(akq_rotate(ff->foot_rot[s], leg->up_local), leg->sole_height));
    float ahead_need = -INFINITY; /* the lift ground found ahead of the toe needs */
    /* a re-step keeps the whole foot its lift above the ground its rays found, and each of its
     * heel and toe keeps at least the source's own clearance (source_clearance): room the
     * knee limit may take back, as the re-step's lift */
    const float up_by = ff->step_lift[s];
    const float heel_by = akf_max(up_by, source_clearance(fr, ff, s, 0));
    float heel_y = -INFINITY;
    ff->heel_floor_n[s] = ff->toe_floor_n[s] = akv_make(0, 1, 0);
    floor_max(&heel_y, &ff->heel_floor_n[s], &fr->ground[s], ff->ray_heel[s], heel);
    ff->heel_floor[s] = heel_y + heel_by;
    ff->clear_by[s][0] = heel_by - up_by;
    ff->clear_by[s][1] = 0.0f;
    const float ankle_y = ground_at(&fr->ground[s], ff->ray_heel[s], a).height;
    ff->ankle_floor[s] = ankle_y + up_by;
    float lift = akf_max(ff->heel_floor[s] - heel.y, ff->ankle_floor[s] - a.y);
    /* what the ground itself needs */
    float ground_need = akf_max(heel_y - heel.y, ankle_y - a.y);
    if (leg->has_toe)
        ahead_need =
            clear_toe(p, fr, ff, s, floor, stood_tread(st, ff, s), up_by, &lift, &ground_need);
    /* The lift moves at most swing_height_rate (either way), rising faster by as much as the
     * ground under the heel rises along the ankle's path since last frame (sweep_rise: a
     * slope the foot swings over is followed, a run's foot meets 3 m/s of it): ground that
     * rises under the foot faster than that (a riser met without warning) is climbed, not
     * jumped. A lift that only holds the ankle and the toe up to where they were last frame
     * (plus that) is not limited (held_lift). */
    const float need = ground_need;
    lift = akf_max(lift, 0.0f);
    if (st->initialized && ff->dt > 0.0f) {
        const float step = p->swing_height_rate * ff->dt;
        float up = step + sweep_rise(&fr->ground[s], ff->prev_ankle[s], a);
        /* (ground ahead that needs more: the lift gets there by the time the toe does) */
        if (ahead_need > st->clear_lift[s] && ff->pts->ahead_time[s] > ff->dt)
            up = akf_max(up, (ahead_need - st->clear_lift[s]) *
                                 akf_min(2.0f * ff->dt / ff->pts->ahead_time[s], 1.0f));
        const float hold = akf_min(lift, held_lift(p, st, ff, s, up));
        lift =
            akf_max(approach(st->clear_lift[s], lift, lift > st->clear_lift[s] ? up : step), hold);
    }
    st->clear_lift[s] = lift;
    ff->ankle_target[s].y += lift * p->weight;
    ff->swing_room[s] = akf_max((lift - need) * p->weight, 0.0f);
}

/* The height of a point of the foot over its floor as a turn t about the ankle moves it (the
 * offset v from the ankle, k the horizontal unit axis across the foot, p = v - k (k . v)): the
 * point moves by p (cos t - 1) + (k x v) sin t (Rodrigues), up by its y and across its floor's
 * plane (normal n) by its x, z, where the plane rises under it along its slope: A (cos t - 1) +
 * B sin t in all. */
static void turn_gap_terms(ak_vec3 k, ak_vec3 v, ak_vec3 n, float *A, float *B)
{
    const ak_vec3 p = akv_sub(v, akv_scale(k, akv_dot(k, v))), w = akv_cross(k, v);
    const float gx = n.y > 1e-3f ? -n.x / n.y : 0.0f, gz = n.y > 1e-3f ? -n.z / n.y : 0.0f;
    *A = p.y - (gx * p.x + gz * p.z);
    *B = w.y - (gx * w.x + gz * w.z);
}

/* A swinging foot held up by its toe (the toe nearest its floor, below the heel) that its knee
 * needs lower by `want` than its room allows, or by so much that the toe would keep less than
 * `keep` (its own clearance) over its ground, turns toe-up about the ankle (dorsiflexes), at most
 * until the toe is AK_TOE_MIN_CLEAR higher than the heel, as a person lifts the toe over a step:
 * the least turn t that raises the toe's room to `want` plus `keep`, to the ankle's plus `keep`,
 * or to the heel's, which the turn lowers (each point's room over its floor is A cos t + B sin t
 * plus a constant, turn_gap_terms, the axis k horizontal across the foot; bisection, 12 steps).
 * The turn draws the toe back toward the ankle, so its floor is taken on its plane where the turn
 * puts it: down a 40 % slope a 1.2 cm draw back is 4.8 mm more ground, and CMU 02_01 at 24 fps on
 * the heightmap from -5.7 had a toe 5.2 mm into it (bound 5). Turns ff->foot_rot; returns the
 * turned foot's room. Turned only as far as the knee needed (no `keep`), the toe kept nothing over
 * its ground while the heel stayed 9 cm up: a foot stepping down a stair over the tread it left,
 * its hips lowered for the landing two risers below and the stance leg on the tread between at
 * full reach, has its knee at the limit and the toe pitched down as the clip swings it; the toe
 * skimmed the tread for 0.6 m (CMU 02_02 down the stairs, frames 603-608, 6.15 m/s; 16_11, 07_01
 * on the heightmap the same way). Turned at most level with the heel, a foot whose heel is still
 * over the tread below while its toe passes over the riser's edge had no turn left: stepping two
 * risers up, the hips as high as the stance leg and the hips' acceleration let them rise (the
 * trailing leg at full reach until its lift-off, then +0.66 g), the knee at its limit held the
 * level foot's toe on the tread's top, 0-3 mm up, and it slid over it at 7.37 m/s (CMU 02_01 at 30
 * fps matched up the stairs from (-4.7,0), frames 179-180, the heel 154 mm over the tread below).
 */
static float toe_up_room(const ak_foot_ik_params *p, foot_frame *ff, int32_t s, float want,
                         float keep)
{
    const ak_foot_ik_leg *leg = &p->legs[s];
    const float room = ff->swing_room[s];
    if (!leg->has_toe || p->weight != 1.0f) return room;
    const ak_vec3 a = ff->ankle_target[s];
    const ak_vec3 v = akq_rotate(ff->foot_rot[s], leg->toe_local);
    const ak_vec3 u = akv_scale(akq_rotate(ff->foot_rot[s], leg->up_local), -leg->sole_height);
    /* (the source's clearance is room: clear_ground) */
    const float toe_gap = a.y + v.y - ff->toe_floor[s] + ff->clear_by[s][1];
    const float heel_gap = a.y + u.y - ff->heel_floor[s] + ff->clear_by[s][0];
    const float ankle_gap = a.y - ff->ankle_floor[s];
    if (!(toe_gap < heel_gap) || !(toe_gap < ankle_gap)) return room; /* (room is toe_gap) */
    const ak_vec3 kr = akv_cross(v, akv_make(0, 1, 0));
    const float kl = akv_len(kr), dx = v.x - u.x, dz = v.z - u.z;
    const float foot = akv_len(akv_sub(v, u));
    /* (turned up to level, then on by a toe's least clearance over the heel-to-toe length) */
    const float level = atan2f(u.y - v.y, sqrtf(dx * dx + dz * dz)) +
                        (foot > AK_TOE_MIN_CLEAR ? asinf(AK_TOE_MIN_CLEAR / foot) : 0.0f);
    if (!(kl > 1e-6f) || !(level > 0.0f)) return room;
    const ak_vec3 k = akv_scale(kr, 1.0f / kl);
    float tA, tB, hA, hB;
    turn_gap_terms(k, v, ff->toe_floor_n[s], &tA, &tB);
    turn_gap_terms(k, u, ff->heel_floor_n[s], &hA, &hB);
    const float want_gap = akf_min(want, ankle_gap) + keep;
    float lo = 0.0f, hi = level;
    for (int i = 0; i < 12; ++i) {
        const float m = 0.5f * (lo + hi), c = cosf(m), sn = sinf(m);
        const float toe = toe_gap + tA * (c - 1.0f) + tB * sn;
        const float heel = heel_gap + hA * (c - 1.0f) + hB * sn;
        if (toe >= akf_min(want_gap, heel))
            hi = m;
        else
            lo = m;
    }
    const float c = cosf(hi), sn = sinf(hi);
    const float toe = toe_gap + tA * (c - 1.0f) + tB * sn;
    const float heel = heel_gap + hA * (c - 1.0f) + hB * sn;
    ff->foot_rot[s] = akq_normalize(akq_mul(akq_axis_angle(k, hi), ff->foot_rot[s]));
    return akf_max(akf_min(akf_min(toe, heel), ankle_gap), 0.0f);
}

/* A swinging leg's knee kept within max_knee_flex (when set): the hip-to-ankle distance of a
 * knee bent by theta is d(theta) = sqrt(a^2 + b^2 + 2 a b cos theta) (law of cosines, thigh a,
 * shank b), so an ankle target nearer the hip than d(max_knee_flex) comes down (vertically,
 * to y = hip.y - sqrt(d^2 - h^2) for the horizontal distance h) by as much as its room
 * allows: a foot stepping up lifts as high as its clearance needs, not the animation's whole
 * swing height on top of the rise, which folds the knee (every stairs row's peak was there).
 * A foot with no room, held exactly on its ground by its toe, still gets the toe-up turn
 * (toe_up_room): a toe pitched down over a tread's edge as the hips come down for a landing
 * a riser below folded CMU 02_02's swinging knee to 100.5 deg (its limit 95.6, bound 100.6). */
static void swing_knee_within(const ak_foot_ik_params *p, const ak_skeleton *sk, foot_frame *ff,
                              int32_t s, ak_vec3 hip)
{
    const ak_foot_ik_leg *leg = &p->legs[s];
    if (ff->stance[s] || !(p->max_knee_flex > 0.0f)) return;
    const float a = sk->bone_lengths[leg->lower], b = sk->bone_lengths[leg->foot];
    const float d2 = a * a + b * b + 2.0f * a * b * ff->cos_knee;
    const ak_vec3 t = ff->ankle_target[s];
    const float dx = t.x - hip.x, dz = t.z - hip.z, h2 = dx * dx + dz * dz;
    if (!(h2 < d2)) return;
    const float y_max = hip.y - sqrtf(d2 - h2);
    if (!(t.y > y_max)) return;
    float room = ff->swing_room[s];
    /* (the toe's own clearance, clear_ground's clear_by, up to the least a person's swinging toe
     * keeps, kept where the heel has room for it) */
    const float keep = akf_min(ff->clear_by[s][1], AK_TOE_MIN_CLEAR);
    if (t.y - y_max > room - keep) room = toe_up_room(p, ff, s, t.y - y_max, keep);
    /* The ankle rises toward the hip no faster than the lift climbs (swing_height_rate,
     * clear_ground's) from where it was shown last frame: the room the limit took back before is
     * gone when the ground's need outgrows the lift (a tread a riser up found ahead of the toe),
     * and the foot came up by it at once. CMU 02_01 at 30 fps matched up the stairs from (-6,0),
     * frame 217: the knee at its limit held the foot 5.8 cm under its lift, the toe ray then found
     * the tread above 15 cm ahead, the ankle rose 9 cm in a frame and the knee folded on to 101.1
     * deg (bound 100). */
    if (ff->dt > 0.0f)
        room = akf_max(room, t.y - (ff->prev_ankle[s].y + p->swing_height_rate * ff->dt));
    ff->ankle_target[s].y -= akf_min(t.y - y_max, room);
}

/* Limb IK per leg toward its ankle target and foot rotation, knee pole in front; then the
 * outputs (sole and toe points, tilt against the ground normal). */
static void solve_legs(const ak_foot_ik_params *p, const ak_skeleton *sk, ak_foot_ik_state *st,
                       const ak_foot_ik_frame *fr, const foot_frame *ff, ak_xform *local,
                       ak_xform *world)
{
    for (int s = 0; s < 2; ++s) {
        const ak_foot_ik_leg *leg = &p->legs[s];
        ak_limb_ik_params lp = ik_limb_defaults();
        lp.skeleton = sk;
        lp.upper = leg->upper;
        lp.middle = leg->lower;
        lp.end = leg->foot;
        lp.target = ff->ankle_target[s];
        lp.use_pole = 1;
        lp.pole = akv_add(world[leg->lower].translation, akv_scale(ff->forward, p->pole_distance));
        lp.match_end_rotation = 1;
        lp.end_rotation = ff->foot_rot[s];
        lp.weight = 1.0f;
        ak_ik_result r;
        memset(&r, 0, sizeof r);
        if (ak_limb_ik_run(&lp, local, world, &r, NULL) < 0) {
            /* Refused (a target out of range): the leg keeps its placed pose, and the joints
             * below the foot, which the walker's FK leaves to this solve, get theirs. */
            r.reached = 0;
            ak_fk_range(sk, local, world, leg->foot + 1, sk->subtree_end[leg->foot]);
        }
        st->reached[s] = r.reached;
        /* (sole_point, its up axis kept for the tilt) */
        const ak_xform f = world[leg->foot];
        const ak_vec3 up = akq_rotate(f.rotation, leg->up_local);
        st->sole[s] = sole_below(leg, f.translation, up);
        st->toe[s] = leg->has_toe ? toe_point(p, world, s) : st->sole[s];
        const ak_vec3 n = ff->heel_n_set[s] ? ff->heel_n[s]
                          : fr->ground[s].hit
                              ? clamp_normal(fr->ground[s].normal, ff->cos_tilt, ff->sin_tilt)
                              : akv_make(0, 1, 0);
        /* Tilt is the flat foot's: while it rolls over its toe the pitch is the animation's. */
        st->tilt[s] = angle_between(up, n);
    }
}

int32_t ak_foot_ik_run(const ak_foot_ik_params *p, ak_foot_ik_state *st, const ak_foot_ik_frame *fr,
                       ak_xform *local, ak_xform *world, ak_error *err)
{
    const int32_t valid = ak_foot_ik_validate(p, err);
    if (valid != AK_OK) return valid;
    if (!st || !fr || !local || !world)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    return ak_foot_ik_solve(p, st, fr, local, world, err);
}

/* Where each heel's queries have sampled the ground it is on now (tread_from, tread_edge): the
 * first query point on that ground since a riser, found by comparing each frame's hit with the
 * plane of the last one. A swinging heel's queries follow it, so on stairs this is where its
 * path came onto the tread it lands on; no riser seen (smooth ground, or no hit to compare), no
 * limit. */
static void track_tread(ak_foot_ik_state *st, const ak_foot_ik_frame *fr, const foot_frame *ff)
{
    for (int s = 0; s < 2; ++s) {
        const ak_ground_hit *h = &fr->ground[s];
        const ak_vec3 q = ff->ray_heel[s];
        const int known = st->initialized && h->hit && st->heel_hit[s].hit;
        const float carried =
            known ? ground_at(&st->heel_hit[s], st->heel_ray[s], q).height : h->height;
        if (!known || fabsf(h->height - carried) > AK_TREAD_EDGE) {
            st->tread_from[s] = q;
            st->tread_edge[s] = known;
        }
        st->heel_ray[s] = q;
        st->heel_hit[s] = *h;
    }
}

/* Where each swinging foot's glide starts (swing_glide): its lift-off ground; and when its
 * landing moves to another tread in the swing (the landing's ground AK_TREAD_EDGE or more off
 * the last frame's: a placement decided, a step scale that carried the landing over an edge),
 * where the glide was last frame, at this swing phase: the foot goes on from where it is to
 * the new height over the rest of the swing instead of jumping there (a step up that had
 * reached its tread's height by AK_STEP_OVER of the swing, moved a tread higher at swing
 * phase 0.57, lifted CMU 02_02's foot at 24 fps 7.6 cm in a frame and folded its knee to
 * 104.1 deg against 103.1). */
static void track_glide(ak_foot_ik_state *st, const ak_foot_ik_frame *fr)
{
    for (int s = 0; s < 2; ++s) {
        const ak_ground_hit *land = &fr->ground_land[s];
        if (fr->stance[s] || !land->hit || !st->has_liftoff[s] || !st->initialized) {
            st->glide_from[s] = st->liftoff_ground[s];
            st->glide_at[s] = 0.0f;
            st->glide_set[s] = 0;
            continue;
        }
        const float u = fr->swing_phase[s];
        if (st->glide_set[s] && fabsf(land->height - st->glide_land[s]) > AK_TREAD_EDGE &&
            u > 0.0f && u < 1.0f) {
            st->glide_from[s] = st->glide_last[s];
            st->glide_at[s] = u;
        }
        st->glide_land[s] = land->height;
        st->glide_set[s] = 1;
    }
}

/* A landing heel out of the leg's reach from where the hips are lands short: its lock moves
 * toward the hips along the ground until the ankle is L from the hip (a shorter step, as a
 * person takes down a slope or a stair), d0 - sqrt(L^2 - dv^2) for the hip-to-ankle horizontal
 * distance d0 and height dv. Only onto ground its heel has sampled: a move farther back than
 * where its queries found the tread it lands on (track_tread) would cross the riser behind, of
 * which the grounding knows neither the place nor the height (CMU 16_11 on the CLI's route down
 * the stairs: 5.6 cm back over the edge, the heel held at the lower tread's height 150 mm under
 * the upper one); then the heel does not move and this returns 0. Else 1 (shortened, or no
 * shortening helps). */
static int shorten_landing(const ak_foot_ik_params *p, ak_foot_ik_state *st,
                           const ak_foot_ik_frame *fr, const ak_xform *world, foot_frame *ff,
                           int32_t s, ak_vec3 hip, float L)
{
    const ak_vec3 a = ff->ankle_target[s];
    const float dx = hip.x - a.x, dz = hip.z - a.z, dv = hip.y - a.y;
    const float d0 = sqrtf(dx * dx + dz * dz);
    if (!(d0 > 1e-4f) || !(L > dv)) return 1;
    const ak_vec3 lock = st->lock_weight[s] > 0.0f ? st->lock_point[s] : ff->heel_a[s];
    const float back = akf_min(d0 - sqrtf(L * L - dv * dv), d0);
    if (!(back > 0.0f)) return 1;
    if (st->tread_edge[s]) {
        const ak_vec3 t = st->tread_from[s];
        if (back > ((t.x - lock.x) * dx + (t.z - lock.z) * dz) / d0) return 0;
    }
    st->lock_point[s] = akv_make(lock.x + dx / d0 * back, lock.y, lock.z + dz / d0 * back);
    st->lock_weight[s] = 1.0f;
    leg_target(p, st, fr, world, s, ff);
    return 1;
}

/* Whether planted foot s has its toe on the ground: its contact says so, or the foot stands
 * flat on its heel's ground (stance_weight 1, so the toe is on that ground too): a capture's
 * heel bit alone is the heel holding a flat foot (CMU 02_02 has no frame with both bits; its
 * trailing leg, out of reach on the stairs one frame before its toe bit, dropped the hips
 * 4.4 mm in that frame, -1.59 g). */
static int toe_down(const ak_foot_ik_state *st, const ak_foot_ik_frame *fr, int32_t s)
{
    return (fr->contact[s] & AK_CONTACT_TOE) || st->stance_weight[s] >= 1.0f;
}

/* A planted leg whose heel the hips (which move within physics) leave out of reach this frame
 * lifts the heel and rolls over its toe (toe_down), held where the toe stands, for the rest of
 * its stance (reach_roll), as a trailing foot does in push-off: no frame with the heel off the
 * ground it is meant to be on. A landing out of reach lands short (shorten_landing), or where
 * that would leave the ground its heel sampled, lands on its toe where it is, heel up, and rolls
 * the same way (a forefoot landing, as a person steps down a stair it barely reaches): CMU
 * 16_11's heel is then 2 cm past the edge on the tread below, flat on it 40 ms later. Its toe is
 * where the last solve showed it from the heel: taken at the animated heel-to-toe offset, the
 * toe of a landing foot the grounding had been laying flat (its planting fading in, so its toe
 * lay farther out along the ground than the animation's pitched foot has it) went 3.1 mm back
 * and 23 mm down in the frame it landed (the matcher's CMU subject 2 up the stairs, frame 492,
 * 0.373 m/s; walk_physics.h's hover, bound 0.3727). */
static void roll_when_out_of_reach(const ak_foot_ik_params *p, const ak_skeleton *sk,
                                   ak_foot_ik_state *st, const ak_foot_ik_frame *fr,
                                   const ak_xform *world, foot_frame *ff, int32_t s, int planted)
{
    const ak_foot_ik_leg *leg = &p->legs[s];
    if (!fr->stance[s] || ff->pivot[s] || !p->lock_feet) return;
    if (planted && (!leg->has_toe || !toe_down(st, fr, s))) return;
    const float L = (sk->bone_lengths[leg->lower] + sk->bone_lengths[leg->foot]) * 0.999f;
    const ak_vec3 hip = world[leg->upper].translation;
    if (!(drop_to_reach(hip, ff->ankle_target[s], L) > 0.0f)) return;
    ak_vec3 toe = st->toe[s];
    if (!planted) {
        if (!st->initialized || shorten_landing(p, st, fr, world, ff, s, hip, L * 0.999f) ||
            !leg->has_toe)
            return;
        /* (along the ground; up by the animated offset, which the ground then sets) */
        toe = akv_add(st->lock_point[s],
                      akv_make(st->toe[s].x - st->sole[s].x, ff->toe_a[s].y - ff->heel_a[s].y,
                               st->toe[s].z - st->sole[s].z));
    }
    st->reach_roll[s] = 1;
    st->lock_toe[s] = 1;
    st->lock_point[s] = toe;
    leg_target(p, st, fr, world, s, ff);
}

/* What neither the planned hips, nor a heel rolling over its toe, nor a shorter landing gives
 * a planted leg (other than one pushing off its toe, which lifts early): the hips drop at
 * once by what it still lacks to reach (up to max_hip_drop),
 * the one place the hips may move faster than physics (a foot planted out of any reach, as a
 * matching transition can leave it); their spring goes on from there. */
static void last_resort_drop(const ak_foot_ik_params *p, const ak_skeleton *sk,
                             ak_foot_ik_state *st, const ak_foot_ik_frame *fr, foot_frame *ff,
                             ak_xform *local, ak_xform *world)
{
    float extra = 0.0f;
    for (int s = 0; s < 2; ++s) {
        const ak_foot_ik_leg *leg = &p->legs[s];
        const int was_released = st->released[s] && !(fr->contact[s] & AK_CONTACT_HEEL);
        st->released[s] = 0;
        if (!fr->stance[s]) continue;
        const float L = (sk->bone_lengths[leg->lower] + sk->bone_lengths[leg->foot]) * 0.999f;
        const float drop = drop_to_reach(world[leg->upper].translation, ff->ankle_target[s], L);
        /* A foot pushing off its toe out of reach lifts (released) instead of pulling the
         * hips down when it leaves the ground within the stance fade, or stands alone (the
         * other foot in the air: the body moves on over it, as on a long stop step down a
         * hill); once up it stays up while out of reach, after the other foot lands too,
         * until its heel is down again (a settle brings it down flat). Its ankle rises
         * straight up by what the leg lacks, so the toe peels off where it stood instead of
         * sliding on under the clamped leg (0.3-0.6 m/s within 1 cm of the ground), and the
         * leg swings on from there. */
        if (drop > 0.0f && (!fr->stance_next[s] || !fr->stance[1 - s] || was_released) &&
            ff->pivot[s]) {
            st->released[s] = 1;
            ff->ankle_target[s].y += drop;
            st->ankle_target[s] = ff->ankle_target[s];
            continue;
        }
        extra = akf_max(extra, drop);
    }
    extra = akf_min(extra, p->max_hip_drop - st->applied_hip_drop);
    if (!(extra > 0.0f)) return;
    apply_hip_drop(p, sk, extra, 0.0f, local, world);
    st->applied_hip_drop += extra;
    st->pelvis -= extra;
}

float ak_floor_support(float *foothold, int32_t *has_foothold, int32_t stance,
                       const ak_ground_hit *foot, const ak_ground_hit *land, float swing_phase,
                       float fallback, int32_t step_early)
{
    if (stance && foot->hit) {
        *foothold = foot->height;
        *has_foothold = 1;
        return foot->height;
    }
    if (!*has_foothold) return fallback;
    if (stance || !land || !land->hit) return *foothold;
    /* (stepping up needs the ground under the foot now: without it, the whole swing; and a
     * rise of AK_FLOOR_STEP_MIN at least, a riser, far from the rises between near-level
     * points of smooth ground, so no last bit of a height or normal decides it) */
    const ak_ground_hit sloped = {1, 0.0f, {0.0f, 0.0f, 0.0f}};
    const int early = step_early && foot->hit && land->height - *foothold >= AK_FLOOR_STEP_MIN;
    int step_up;
    return step_glide(*foothold, land, early ? foot : &sloped, swing_phase, &step_up);
}

ak_vec3 ak_foot_place_toe_ray(ak_vec3 land, ak_vec3 land_toe, ak_vec3 shift)
{
    const ak_vec3 d = akv_sub(land_toe, land);
    const float len = sqrtf(d.x * d.x + d.z * d.z);
    const ak_vec3 beyond = len > 1e-3f ? akv_make(d.x / len * 0.04f, 0.0f, d.z / len * 0.04f) : d;
    return akv_add(akv_add(land_toe, shift), beyond);
}

/* Whether the landing rays find ground a step apart: the toe's ground off the plane of the
 * heel's by more than 2 cm (a slope carries the heel's plane to the toe; a riser does not).
 * *up: the toe's ground is the higher. */
static int place_edge(const ak_ground_hit *h, const ak_ground_hit *t, ak_vec3 heel_ray,
                      ak_vec3 toe_ray, int *up)
{
    *up = 0;
    if (!h->hit || !t->hit || !(h->normal.y > 1e-3f)) return 0;
    const float dx = toe_ray.x - heel_ray.x, dz = toe_ray.z - heel_ray.z;
    const float plane = h->height - (h->normal.x * dx + h->normal.z * dz) / h->normal.y;
    *up = t->height > plane;
    return fabsf(t->height - plane) > 0.02f;
}

void ak_foot_place_decide(const ak_ground_hit *h, const ak_ground_hit *t, ak_vec3 heel_ray,
                          ak_vec3 toe_ray, ak_vec3 land, ak_vec3 land_toe, float heel_margin,
                          ak_vec3 *target, int32_t *decided, int32_t *probe)
{
    int up;
    const int edge = place_edge(h, t, heel_ray, toe_ray, &up);
    const int probed = probe && *probe == 1;
    if (*decided && !edge && !probed) return;
    const ak_vec3 d = akv_sub(land_toe, land);
    const float len = sqrtf(d.x * d.x + d.z * d.z);
    /* back: a foot length, the toe ray's 4 cm and 1 cm (0.05), going down the heel margin too */
    const int first_up = probe && !*decided && edge && up;
    const float span = len + 0.05f + (probed || first_up ? 0.0f : heel_margin);
    const float fwd = heel_margin + 0.01f;
    const ak_vec3 back = len > 1e-3f ? ak_vec3_make(-d.x / len * span, 0.0f, -d.z / len * span)
                                     : ak_vec3_make(0, 0, 0);
    const ak_vec3 ahead =
        len > 1e-3f ? ak_vec3_make(d.x / len * fwd, 0.0f, d.z / len * fwd) : ak_vec3_make(0, 0, 0);
    const ak_vec3 tg = *target;
    if (probed || first_up) {
        /* going up: back (a straddle's place) while the probe looks under the heel; the probe
         * finds the edge there too: it stays there; none: ahead */
        *probe = probed ? (edge ? 0 : 2) : 1;
        *target = !probed ? back : edge ? tg : ahead;
    } else if (!*decided || (probe && tg.x == 0.0f && tg.z == 0.0f)) {
        *target = edge ? back : ak_vec3_make(0, 0, 0);
    } else if (tg.x * back.x + tg.z * back.z > 0.0f) {
        *target = akv_scale(back, -1.0f); /* back was an edge too: forward */
    }
    *decided = 1;
}

ak_vec3 ak_foot_place_glide(ak_vec3 from, ak_vec3 to, float swing_phase, float end)
{
    float u = (swing_phase - 0.5f) / (end - 0.5f);
    u = u < 0.0f ? 0.0f : (u > 1.0f ? 1.0f : u);
    u = u * u * (3.0f - 2.0f * u);
    return akv_lerp(from, to, u);
}

void ak_foot_ik_plan_accel(ak_foot_ik_params *fik, float src_min_g, float src_max_g)
{
    if (fik->hip_accel_down > 0.0f) return;
    fik->hip_accel_down = 0.9f * AK_GRAVITY * (0.25f + fmaxf(0.0f, 1.0f + src_min_g));
    fik->hip_accel_up = 0.9f * AK_GRAVITY * (0.5f + fmaxf(0.0f, 1.0f - src_max_g));
    fik->hip_accel_total_down = 0.9f * AK_GRAVITY * (0.25f + fmaxf(1.0f, -src_min_g));
}

#define AK_KNEE_FLEX_FLOOR (75.0f * AK_PI / 180.0f)
#define AK_KNEE_FLEX_ROOM  (20.0f * AK_PI / 180.0f)

/* The source's peak knee with room, within the range ak_foot_ik_validate takes, [0, pi]: a
 * source knee past 160 degrees (Debian assimp-testmodels' Boxing_Toes, 163.7 over its motion
 * database: a boxer's crouch) planned 183.7 and the matcher refused the clip
 * ("max_knee_flex = 3.20595: must be in [0, 3.14159]"). */
void ak_foot_ik_plan_knee(ak_foot_ik_params *fik, float src_knee_peak)
{
    if (fik->max_knee_flex > 0.0f || !isfinite(src_knee_peak)) return;
    fik->max_knee_flex = fminf(fmaxf(src_knee_peak, AK_KNEE_FLEX_FLOOR) + AK_KNEE_FLEX_ROOM, AK_PI);
}

float ak_foot_ik_landing_room(const ak_foot_ik_params *fik, const ak_xform *world, int32_t s,
                              float floor_y)
{
    const ak_foot_ik_leg *leg = &fik->legs[s];
    const ak_skeleton *sk = fik->skeleton;
    /* a leg the humanoid map leaves incomplete (a database without knees, foot IK off) has no
     * room to plan: callers run this before ak_foot_ik_validate */
    if (!valid_joint(sk, leg->upper) || !valid_joint(sk, leg->lower) || !valid_joint(sk, leg->foot))
        return 0.0f;
    const float L = (sk->bone_lengths[leg->lower] + sk->bone_lengths[leg->foot]) * 0.999f;
    const ak_vec3 hip = world[leg->upper].translation;
    const ak_vec3 ankle = world[leg->foot].translation;
    const float dx = hip.x - ankle.x, dz = hip.z - ankle.z, dv = hip.y - ankle.y;
    const float dh2 = dx * dx + dz * dz;
    const float room = dh2 < L * L ? sqrtf(L * L - dh2) - dv : 0.0f;
    const float heel = ak_foot_ik_sole(fik, world, s).y - floor_y;
    return room - fmaxf(heel, 0.0f);
}

int32_t ak_foot_ik_shown_contact(const ak_foot_ik_state *st, int32_t k, int32_t stance,
                                 int32_t contact, int32_t *shown_stance)
{
    const int released = st->initialized && st->released[k];
    *shown_stance = stance && !released;
    if (released) return 0;
    /* the foot stands on its locked toe (a heel-only contact from a matching transition onto
     * a foot still rolled showed no point down, and the measures took the raised heel) */
    if (contact && st->lock_toe[k] &&
        (st->pivot_weight[k] > 0.0f || st->reach_roll[k] || st->toe_roll[k] > 0.0f))
        contact = AK_CONTACT_TOE;
    return contact;
}

void ak_floor_follow_climb(float *y, float *v, float support, float climb_rate, float smoothing,
                           float dt, int32_t initialized)
{
    if (!initialized || !(smoothing > 0.0f)) {
        *y = support;
        *v = 0.0f;
        return;
    }
    ak_spring1 s = {*y, *v};
    /* (the goal as it was at the step's start: it rises to support by the step's end) */
    aks_spring_step(&s, support - climb_rate * dt, climb_rate, 1.0f / smoothing, dt);
    *y = s.x;
    *v = s.v;
}

void ak_floor_follow(float *y, float *v, float support, float smoothing, float dt,
                     int32_t initialized)
{
    ak_floor_follow_climb(y, v, support, 0.0f, smoothing, dt, initialized);
}

void akf_foot_fixed_of(const ak_foot_ik_params *p, akf_foot_fixed *out)
{
    out->cos_tilt = cosf(p->max_tilt);
    out->sin_tilt = sinf(p->max_tilt);
    out->cos_knee = cosf(p->max_knee_flex);
}

/* `standing`: the pose source stands this frame; `may_stand`: it may on a later frame with
 * this state (0 only for the walker's akf_foot_ik_solve). */
static int32_t foot_ik_solve_core(const ak_foot_ik_params *p, const akf_foot_fixed *fixed,
                                  ak_foot_ik_state *st, const ak_foot_ik_frame *fr,
                                  const akf_foot_points *pts, float lift, const float *step_lift,
                                  const float (*point_clear)[2], const int32_t *toe_held,
                                  int standing, int may_stand, ak_xform *local, ak_xform *world,
                                  ak_error *err);

int32_t ak_foot_ik_solve(const ak_foot_ik_params *p, ak_foot_ik_state *st,
                         const ak_foot_ik_frame *fr, ak_xform *local, ak_xform *world,
                         ak_error *err)
{
    akf_foot_fixed fixed;
    akf_foot_fixed_of(p, &fixed);
    return foot_ik_solve_core(p, &fixed, st, fr, NULL, 0.0f, NULL, NULL, NULL, 0, 1, local, world,
                              err);
}

int32_t ak_foot_ik_solve_lifted(const ak_foot_ik_params *p, ak_foot_ik_state *st,
                                const ak_foot_ik_frame *fr, const float step_lift[2],
                                const float point_clear[2][2], const int32_t toe_held[2],
                                int32_t standing, ak_xform *local, ak_xform *world, ak_error *err)
{
    akf_foot_fixed fixed;
    akf_foot_fixed_of(p, &fixed);
    return foot_ik_solve_core(p, &fixed, st, fr, NULL, 0.0f, step_lift, point_clear, toe_held,
                              standing != 0, 1, local, world, err);
}

/* The animated points of both feet (the pose and the placement shift stay as they are until
 * the hip drop: one set serves the locks and the targets) and the query points, from the
 * caller's akf_foot_ik_query where given. */
static void frame_points(const ak_foot_ik_params *p, const ak_foot_ik_state *st,
                         const ak_xform *world, const akf_foot_points *pts, foot_frame *ff)
{
    for (int s = 0; s < 2; ++s) {
        const ak_vec3 ankle = lifted(world[p->legs[s].foot].translation, ff->lift);
        ak_vec3 toe_off;
        if (pts) {
            ff->up_a[s] = pts->up[s];
            toe_off = pts->toe_off[s];
            ff->ray_heel[s] = pts->heel_q[s];
            ff->ray_toe[s] = pts->toe_q[s];
        } else {
            foot_axes(p, world, s, &ff->up_a[s], &toe_off);
        }
        anim_points_at(p, st, s, ankle, ff->up_a[s], toe_off, &ff->heel_a[s], &ff->toe_a[s]);
        ff->prev_ankle[s] = st->ankle_target[s];
    }
    if (!pts) query_points_from(st, ff->heel_a, ff->toe_a, ff->ray_heel, ff->ray_toe);
    ff->pts = pts;
}

int32_t akf_foot_ik_solve(const ak_foot_ik_params *p, const akf_foot_fixed *fixed,
                          ak_foot_ik_state *st, const ak_foot_ik_frame *fr,
                          const akf_foot_points *pts, float lift, ak_xform *local, ak_xform *world,
                          ak_error *err)
{
    return foot_ik_solve_core(p, fixed, st, fr, pts, lift, NULL, NULL, NULL, 0, 0, local, world,
                              err);
}

static int32_t foot_ik_solve_core(const ak_foot_ik_params *p, const akf_foot_fixed *fixed,
                                  ak_foot_ik_state *st, const ak_foot_ik_frame *fr,
                                  const akf_foot_points *pts, float lift, const float *step_lift,
                                  const float (*point_clear)[2], const int32_t *toe_held,
                                  int standing, int may_stand, ak_xform *local, ak_xform *world,
                                  ak_error *err)
{
    const ak_skeleton *sk = p->skeleton;
    if (!(fr->dt >= 0.0f) || !isfinite(fr->dt)) {
        apply_hip_drop(p, sk, 0.0f, lift, local, world);
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "dt must be >= 0");
    }
    foot_frame ff;
    ff.lift = lift;
    ff.step_lift[0] = step_lift ? step_lift[0] : 0.0f;
    ff.step_lift[1] = step_lift ? step_lift[1] : 0.0f;
    ff.toe_held[0] = toe_held && toe_held[0];
    ff.toe_held[1] = toe_held && toe_held[1];
    for (int s = 0; s < 2; ++s)
        for (int k = 0; k < 2; ++k)
            ff.point_clear[s][k] = point_clear ? point_clear[s][k] : 0.0f;
    ff.standing = standing;
    ff.may_stand = may_stand;
    ff.rising_alone =
        !step_lift && !standing && st->pelvis_velocity > 0.0f && fr->stance[0] != fr->stance[1];
    ff.dt = fr->dt;
    ff.single_support = 0.0f;
    ff.floor = fr->floor_height;
    ff.forward = akq_rotate(fr->character.rotation, akv_make(0, 0, 1));
    ff.cos_tilt = fixed->cos_tilt;
    ff.sin_tilt = fixed->sin_tilt;
    ff.cos_knee = fixed->cos_knee;
    if (!st->initialized) reset_weights(st, fr);
    frame_points(p, st, world, pts, &ff);
    track_tread(st, fr, &ff);
    track_glide(st, fr);
    int planted[2];
    for (int s = 0; s < 2; ++s) {
        planted[s] = st->initialized && st->was_stance[s] && st->lock_weight[s] >= 1.0f;
        ff.planted[s] = planted[s];
        leg_weights_and_lock(p, st, fr, &ff, s);
        leg_target(p, st, fr, world, s, &ff);
        leg_drop(p, sk, st, fr, world, s, &ff);
        st->roll_need[s] = ff.roll_need[s];
    }
    const int plan = p->hip_accel_down > 0.0f;
    if (plan) {
        plan_hip_drop(p, st, &ff, fr, world);
        st->applied_hip_drop = pelvis_drop(p, st, fr, &ff);
    } else {
        follow_hip_drop(p, st, &ff);
        st->applied_hip_drop = st->hip_drop;
    }
    apply_hip_drop(p, sk, st->applied_hip_drop, ff.lift, local, world);
    for (int s = 0; s < 2; ++s) {
        const ak_vec3 hip = world[p->legs[s].upper].translation;
        if (plan) roll_when_out_of_reach(p, sk, st, fr, world, &ff, s, planted[s]);
        roll_about_toe(p, sk, st, fr, &ff, s, hip);
        clear_ground(p, st, fr, &ff, s);
        swing_knee_within(p, sk, &ff, s, hip);
        swing_within_reach(p, sk, &ff, s, hip);
        st->ankle_target[s] = ff.ankle_target[s];
    }
    if (plan) last_resort_drop(p, sk, st, fr, &ff, local, world);
    for (int s = 0; s < 2; ++s) /* the hips came down by the applied drop: a pure translation */
        st->due_drop[s] = akf_max(ff.due_hold[s] - st->applied_hip_drop, 0.0f);
    solve_legs(p, sk, st, fr, &ff, local, world);
    st->initialized = 1;
    return AK_OK;
}

/* ---- Reach ---- */

ak_reach_params ak_reach_defaults(void)
{
    ak_reach_params p;
    memset(&p, 0, sizeof p);
    p.upper = p.lower = p.hand = -1;
    p.start_distance = 1.2f;
    p.full_distance = 0.8f;
    p.fade_rate = 3.0f;
    return p;
}

int32_t ak_reach_validate(const ak_reach_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params");
    const ak_skeleton *sk = p->skeleton;
    if (!sk) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "params.skeleton is required");
    if (!valid_joint(sk, p->upper) || !valid_joint(sk, p->lower) || !valid_joint(sk, p->hand) ||
        !(p->upper < p->lower && p->lower < p->hand))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "arm joints missing or not upper < lower < hand");
    if (!akv_finite(p->target) || !akv_finite(p->pole))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "target or pole is not finite");
    /* the range table first: its messages name the field and its bounds */
    const int32_t st = ak_params_check(ak_reach_param_ranges(), p, err);
    if (st != AK_OK) return st;
    if (!(p->start_distance > p->full_distance) || !(p->full_distance >= 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "need start_distance > full_distance >= 0");
    if (!(p->fade_rate > 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "fade_rate must be > 0");
    return AK_OK;
}

int32_t ak_reach_run(const ak_reach_params *p, ak_reach_state *st, float dt, ak_xform *local,
                     ak_xform *world, ak_error *err)
{
    int32_t v = ak_reach_validate(p, err);
    if (v != AK_OK) return v;
    if (!st || !local || !world || !(dt >= 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "bad argument");
    const float d = akv_len(akv_sub(p->target, world[p->upper].translation));
    float goal = (p->start_distance - d) / (p->start_distance - p->full_distance);
    goal = goal < 0.0f ? 0.0f : (goal > 1.0f ? 1.0f : goal);
    st->weight = approach(st->weight, goal, p->fade_rate * dt);
    ak_limb_ik_params lp = ak_limb_ik_defaults();
    lp.skeleton = p->skeleton;
    lp.upper = p->upper;
    lp.middle = p->lower;
    lp.end = p->hand;
    lp.target = p->target;
    lp.use_pole = 1;
    lp.pole = p->pole;
    lp.weight = st->weight;
    ak_ik_result r;
    memset(&r, 0, sizeof r);
    int32_t rc = ak_limb_ik_run(&lp, local, world, &r, err);
    if (rc < 0) return rc;
    st->reached = r.reached && st->weight >= 1.0f;
    st->error = akv_len(akv_sub(world[p->hand].translation, p->target));
    return AK_OK;
}
