/* The guide-joint walker: a looping walk clip driven toward a target over the ground.
 *
 * The guide is the character's place on the ground and its base heading. The clip's root
 * motion inside a cycle is applied relative to the guide, so the clip never snaps back when
 * it loops; before each cycle (or every frame in continuous mode) the guide turns toward the
 * target, at most turn_rate, so the path stays smooth. Per frame:
 * sample -> root motion (guide, controller) -> foot IK -> FK. */
#include "core/busy.h"
#include "animkit/walker.h"
#include "animkit/walkmetrics.h"
#include "core/skeleton_internal.h"
#include "core/spring.h"
#include "core/xform_inline.h"
#include "anim/clip_internal.h"
#include "anim/rootmotion_internal.h"
#include "locomotion/internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The most risers a tread scan keeps. */
#define SCAN_EDGES 4
enum { SCAN_IDLE = 0, SCAN_ON = 1, SCAN_DONE = 2 };
enum { PLAN_NONE = 0, PLAN_SET = 1, PLAN_OFF = 2, PLAN_RUN = 3 };

/* One sample of a tread scan: its distance along the line, the ground's height and slope. */
typedef struct scan_sample {
    float d, h, slope;
} scan_sample;

/* A planted foot's scan of the ground ahead along a line (origin, dir: its heel and the travel
 * where its stance began), one ray a frame: first coarse samples `step` apart from `d` to `end`;
 * two that differ by a riser (more than the slopes carry) hold an edge between them (`lo`,
 * `hi`), which bisection then narrows down to SCAN_FINE, the widest first. The step is
 * SCAN_STEP, wider when the stance has too few frames for it (scan_step): the scan covers its
 * reach at any frame rate, and an edge the stance left wider is read at its worst. */
typedef struct tread_scan {
    int32_t state; /* SCAN_IDLE (starts with the next stance), SCAN_ON, SCAN_DONE */
    ak_vec3 origin, dir;
    float d, end, step, probe; /* the next coarse distance, where they end, their spacing, this
                                  frame's probe */
    float covered;             /* the farthest coarse sample taken */
    int32_t has_prev;
    scan_sample prev; /* the last coarse sample */
    int32_t edges;
    int32_t narrow; /* the edge this frame's probe narrows, -1 for a coarse sample */
    scan_sample lo[SCAN_EDGES], hi[SCAN_EDGES]; /* each edge's interval */
    int32_t edge_up[SCAN_EDGES];                /* the ground beyond the edge is the higher */
} tread_scan;

struct ak_walker {
    ak_busy_flag busy; /* a call is in flight (core/busy.h) */
    void *block;       /* the one allocation holding this struct and its poses (walker_alloc) */
    const ak_walk_motion *m;
    ak_walker_params p;
    int32_t J;
    ak_xform *anim; /* in-place local pose of this frame (walk, idle blended) */
    /* The clip last sampled into anim whole, if nothing has written anim's translations since
     * (a blend does): its joints without a translation track still hold their rest offsets
     * there, so the next sample of it writes only what changes (ak_clip_sample_keyed). */
    const ak_clip *anim_keyed;
    ak_xform *idle_local; /* scratch for the idle pose */
    ak_xform *local;      /* output local pose, character baked into the root */
    ak_xform *world;
    ak_xform *hold; /* the in-place pose shown when walking resumed out of a captured stop */
    /* What the walker is doing (ak_walker_phase) and what plays (ak_walker_play: the loop or a
     * captured segment). The phase changes only in the steps of walker_begin and
     * walker_finish and in ak_walker_set_target; see the diagram before walker_begin. */
    int32_t phase;
    int32_t play;
    int32_t rest;  /* the pose the idle weight blends the walk with (walker_rest) */
    ak_clip *idle; /* scaled copy of the idle clip, or NULL */
    ak_root_motion *idle_root;
    float idle_floor; /* lowest foot point of the idle clip, metres */
    ak_foot_ik_params fik;
    akf_foot_fixed fik_fixed; /* what the solve derives from fik, which does not change */
    ak_foot_ik_state fst;
    /* The feet the rays were cast from (ak_walker_ground_rays: the heel and toe query points;
     * with foot IK also the feet's axes, which the solve in walker_finish reads again:
     * feet_set while the pose has moved only vertically since). */
    akf_foot_points feet;
    int32_t feet_set;
    ak_controller ctrl;
    /* guide */
    ak_vec3 pos;        /* ground point, world */
    float heading;      /* character heading (guide + the clip's own turning) */
    float base_heading; /* the guide's heading */
    float guide_target; /* where the guide wants to point */
    float floor_y;      /* smoothed ground height the clip floor is placed on */
    float floor_v;      /* its rate of change, m/s */
    float foothold[2];  /* ground each foot last stood on */
    int32_t has_foothold[2];
    float clip_time;
    /* Seconds simulated and of the idle, in double: a float sum of 1/120 s steps reads
     * 96,544.8 s after 100,000 s (its rounding of dt is one-sided within each binade). */
    double time, idle_time;
    float dt;            /* of the frame in progress */
    float clip_heading0; /* the clip's root heading at cycle time 0 (the motion's, constant) */
    float loop_heading;  /* the clip's net turn per loop (ak_root_motion_loop) */
    int32_t cycle;
    float idle_w;
    /* The walk's hips height (their local y) where it last stood still (rate 0), set: the idle
     * crossfade's hips offset is taken from it (animated_pose). */
    float rest_hips_y;
    int32_t rest_hips_set;
    float rate;           /* playback rate of the walk clip, 0..1 */
    float rate_last;      /* the clip's rate last frame, clip_rate (the source hips' acceleration as
                             played) */
    float rate_accel_max; /* the most rate' it reads: twice the ramps' (source_hip_accel) */
    float window_dt;      /* the frame time hip_window was counted for (0: none yet) */
    int32_t hip_window;   /* akw_hip_window(window_dt) */
    float stop_left;      /* stopping: clip seconds until the stop frame */
    float stop_scale;     /* stopping: the travel to the stop is scaled to end at the target */
    /* stopping on a loop's stop frame: clip seconds played per second at the walk's pace (rate
     * 1), at most 1: the last steps' cadence, which makes the stop take the time its distance
     * takes whichever stop frame it stops on (plan_stop) */
    float stop_cadence;
    float cadence; /* the cadence played: 1 walking, then following stop_cadence (CADENCE_RATE) */
    /* Walking: the root's travel is scaled by step_scale (1 on gentle ground), which follows
     * step_goal (step_goal_of) through a critically damped spring (step_scale_v its rate):
     * shorter steps where the ground between the footholds is steep (shorter_steps). */
    float step_scale, step_scale_v, step_goal;
    /* The step scale the feet were last placed with (placement_shift), and each foot's x,z
     * offset (world) that keeps the scale's changes off a planted foot and off a decided
     * landing (held_offset); held_lift: the offset its last stance left. */
    float placed_scale;
    ak_vec3 held[2], held_lift[2];
    /* placed_stop: the stop's scale the feet were last placed with (1 walking); stop_held: a
     * swinging foot's offset that keeps a change of it off where the foot is shown, faded out
     * before it lands (stop_fade; stop_held_u: its swing phase last frame, u0 when taken) */
    float placed_stop;
    ak_vec3 stop_held[2];
    float stop_held_u[2], stop_held_u0[2];
    /* stopping: the clip's travel left to a swinging foot's landing when its share of the stop's
     * travel began (stop_shift; at its lift-off, or where the stop began in its swing), set */
    float stop_d0[2];
    int32_t stop_d0_set[2];
    /* swing_now's last landing frame found for each foot: what played, the frame it was
     * looked for from, the landing frame (-1: none) */
    int32_t land_play[2], land_from[2], land_at[2];
    /* stance_left_now's lift-off frame found for each planted foot: what played, the frame it
     * was looked for from, the first frame with the foot up (-1: none) */
    int32_t lift_play[2], lift_from[2], lift_at[2];
    ak_vec3 travel_local; /* the clip's travel direction in the character frame (constant) */
    int32_t held_now[2];  /* this frame: the foot is planted and held by its lock (held_at_lock) */
    int32_t stance_next[2];
    float path_length;
    ak_vec3 desired;
    int32_t position_set;
    int32_t frame_index; /* frame of what plays (the cycle or a segment) nearest its time */
    /* A captured segment plays at seg_time. During a segment base_heading is the heading its
     * first frame had; the character turns with the segment's own root from there. */
    float seg_time;
    float stop_entry; /* the captured stop's entry: the unwrapped cycle time of the loop's wrap */
    /* Per-frame data of what plays (the loop's or the segment's arrays). */
    const uint8_t *play_contacts[2];
    const float *play_phase[2];
    const ak_vec3 *play_land[2], *play_land_toe[2];
    float anim_root_y;             /* root height of the placed pose above the character origin */
    ak_root_period_memo root_memo; /* the loop's root motion at this frame's times */
    ak_quat yaw;                   /* yaw(heading), computed once per frame */
    int32_t initialized;
    int32_t stance[2];
    int32_t contact[2]; /* AK_CONTACT_* this frame (0 in swing) */
    /* Foot placement (stairs): each swing decides once where the foot lands relative to the
     * clip's landing point; the shift glides there from where the last stance left it. */
    ak_vec3 place_from[2], place_target[2], place_now[2];
    float place_end[2]; /* the swing phase the glide is done by (place_glide_end) */
    int32_t place_decided[2];
    /* The landing heel ray looks under the heel itself (not LAND_HEEL_MARGIN behind it): this
     * frame to probe (1), or for the rest of the swing (2; ak_foot_place_decide). */
    int32_t place_probe[2];
    ak_vec3 land[2];
    ak_vec3 land_toe[2];
    ak_vec3 land_ray[2], land_toe_ray[2]; /* where this frame's landing heel and toe rays look */
    ak_vec3 land_behind[2]; /* from the landing heel ray to the heel, along the foot */
    ak_vec3 toe_last[2];    /* each solved toe a frame before fst.toe (toe_ray_ahead) */
    int32_t toe_last_set[2];
    ak_ground_hit foot_hit[2]; /* this frame's hit under each heel (for the tilt without IK) */
    float sole_ground[2];
    float toe_ground[2];
    ak_vec3 anim_sole[2], anim_toe[2]; /* without foot IK: the posed heel and toe (no shift) */
    ak_root_motion_memo stop_memo;     /* the stop planner's candidates of the last frame */
    /* Footholds on stairs: each planted foot's landing ray (unused while it stands) scans the
     * ground ahead for risers (tread_scan); at lift-off the swing picks a tread for its landing
     * (plan_foothold) and the step scale that lands it there (foothold_goal). */
    tread_scan scan[2];
    int32_t plan[2]; /* this swing's plan: PLAN_NONE (to make), PLAN_SET, PLAN_OFF, PLAN_RUN */
    ak_vec3 plan_target[2]; /* the planned landing heel, world (x, z) */
    float plan_goal[2];     /* the step scale last asked for it */
    int32_t run_gait; /* the cycle has both feet up longer than either stands (cycle_is_run) */
};

static int32_t walker_busy(ak_error *err, const char *call);

/* The pose the idle weight blends the walk with: the idle clip (or, without one, the stand
 * pose), or the pose held where walking resumed out of a captured stop. */
enum walker_rest { REST_IDLE = 0, REST_HELD = 1 };

/* The captured segment (AK_SEGMENT_*) of a play that is one (AK_WALKER_PLAY_START/STOP). */
#define PLAY_SEGMENT(play) ((play)-AK_WALKER_PLAY_START)

/* Stopping at the target: a stop is planned or playing, or the walker settles or stands. */
static int stopping(const ak_walker *w)
{
    return w->phase >= AK_WALKER_PHASE_STOP;
}

/* The loop's clip seconds per second: the rate, times the cadence of a stop on a loop's stop
 * frame (stop_cadence). */
static float clip_rate(const ak_walker *w)
{
    return stopping(w) ? w->rate * w->cadence : w->rate;
}

/* Stopping with the captured stop: planned (the loop plays to its entry) or playing, or
 * settling or standing after it. */
static int stop_is_captured(const ak_walker *w)
{
    return w->phase == AK_WALKER_PHASE_STOP_APPROACH || w->play == AK_WALKER_PLAY_STOP;
}

/* Metres: a foot settling in the air lands once its leg lacks at most this to reach the ground
 * (settle_lands). The planned hips close on their goal as a critically damped spring, so the
 * last tenths of a millimetre took most of the wait (CMU 07_01 on the stairs: 1 s more); the
 * grounding's last resort takes what is left, at most 1 mm in one frame. */
#define AK_SETTLE_REACH 0.001f

/* Whether foot s, in the air as the settle pose is reached, lands now: its leg reaches the
 * ground where the pose shows it with the hips as low as they are (the grounding's due_drop,
 * last frame's; within AK_SETTLE_REACH), or they can go no lower (max_hip_drop: the grounding's
 * last resort then), or there is no grounding. Until then its landing is due (grounding_frame)
 * and the planned hips come down for it at up to the landing cap, as the matcher holds a foot
 * its frame lands out of reach. It landed at once as the settle pose was reached, and the
 * settle pose need not put it where the cycle's landings do: the last resort dropped the hips
 * to it in one frame. CMU 02_02 on the stairs from (0, 0) to (2, 4), its foot coming down a
 * riser: 93 mm in its last frame, -34.18 g (bound -1.25); CMU 07_01 mirrored at 30 fps (the
 * cycle found on the 1/120 s grid) on the held-out heightmap, its right foot 21 cm across from its
 * hip: 3.7 mm, -1.58 g (bound -1.45). */
static int settle_lands(const ak_walker *w, int32_t s)
{
    return !w->p.foot_ik || !(w->fst.due_drop[s] > AK_SETTLE_REACH) ||
           w->fst.applied_hip_drop >= w->fik.max_hip_drop;
}

/* A stop at rest (stop_left 0) settles, then stands, once its idle weight reaches 1 and no
 * foot is held in the air (settle_lands: foot_contacts lands it this frame). A
 * pending resume keeps its phase until both feet are down. */
static void rest_phase(ak_walker *w)
{
    const int32_t ph = w->phase;
    if ((ph == AK_WALKER_PHASE_STOP || ph == AK_WALKER_PHASE_STOP_CAPTURED ||
         ph == AK_WALKER_PHASE_SETTLE || ph == AK_WALKER_PHASE_STOPPED) &&
        w->stop_left <= 0.0f)
        w->phase = w->idle_w >= 1.0f && (w->stance[0] || settle_lands(w, 0)) &&
                           (w->stance[1] || settle_lands(w, 1))
                       ? AK_WALKER_PHASE_STOPPED
                       : AK_WALKER_PHASE_SETTLE;
}

/* Ray slots of one foot. */
#define FOOT_RAY(s)    (AK_WALKER_RAY_LEFT_FOOT + (s))
#define LANDING_RAY(s) (AK_WALKER_RAY_LEFT_LANDING + (s))
#define TOE_RAY(s)     (AK_WALKER_RAY_LEFT_TOE + (s))

/* How far behind a landing foot's heel its landing ray looks, metres (ak_foot_place_decide). */
#define LAND_HEEL_MARGIN 0.02f
/* place_probe of a run's landing moved onto the tread ahead (run_placements; 1 and 2 are
 * ak_foot_place_decide's): its heel ray looks under the heel, as with 2. */
#define PLACE_AHEAD 3

/* A swinging foot's placement is decided half to three quarters through its swing, not while
 * the walker settles at a stop (the foot comes down with the settle pose, not at the clip's
 * landing). Meanwhile its toe ray looks at its landing (beyond the landing toe); otherwise
 * under the toe, so the grounding keeps a swinging toe above the ground it passes over. */
static int toe_ray_at_landing(const ak_walker *w, int32_t s)
{
    const float u = w->play_phase[s][w->frame_index];
    return !(w->stance[s] || w->stance_next[s]) && u >= 0.5f && u <= 0.75f &&
           !(stopping(w) && w->stop_left <= 0.0f);
}

/* Seconds ahead along its path a swinging toe's ray looks (toe_ray_ahead), and the farthest,
 * metres (the ground found there is carried back to the toe on its tangent plane: farther
 * out, a heightmap's curve puts it a few mm low). */
#define TOE_AHEAD_TIME 0.05f
#define TOE_AHEAD_MAX  0.06f

/* Whether foot s's toe ray looks ahead of its toe: a swinging foot with a toe, not landing
 * soon, outside toe_ray_at_landing, with foot IK (which keeps the toe above what it finds:
 * footik.c clear_ground). Sets *at to where: the last solved toe moved on by its last
 * frame's horizontal move (to about where it is this frame) and TOE_AHEAD_TIME of that speed
 * beyond (at most TOE_AHEAD_MAX), and feet.ahead_time[s] to when the toe gets there. */
static int toe_ray_ahead(ak_walker *w, int32_t s, ak_vec3 *at)
{
    *at = w->feet.toe_q[s];
    if (!w->p.foot_ik || !w->fik.legs[s].has_toe || w->stance[s] || w->stance_next[s] ||
        !w->fst.initialized || !w->toe_last_set[s] || !(w->dt > 0.0f) || toe_ray_at_landing(w, s))
        return 0;
    /* (the solved toe's last move, w->dt apart: it leads the query point by up to 5 cm) */
    const ak_vec3 t = w->fst.toe[s];
    const float dx = t.x - w->toe_last[s].x, dz = t.z - w->toe_last[s].z;
    const float len = sqrtf(dx * dx + dz * dz);
    if (!(len > 1e-4f)) return 0;
    const float ahead = akf_min(TOE_AHEAD_TIME * len / w->dt, TOE_AHEAD_MAX);
    const float c = 1.0f + ahead / len;
    *at = akv_make(t.x + dx * c, at->y, t.z + dz * c);
    w->feet.ahead_time[s] = w->dt * c; /* (this frame's move, then `ahead`) */
    return 1;
}

ak_walker_params ak_walker_defaults(void)
{
    ak_walker_params p;
    memset(&p, 0, sizeof p);
    p.start = ak_vec3_make(0, 0, 0);
    p.target = ak_vec3_make(0, 0, 5);
    p.start_heading = NAN;
    p.arrival_radius = 0.3f;
    p.steer = AK_STEER_CYCLE;
    p.turn_rate = 0.5f * AK_PI; /* 90 deg/s */
    p.foot_ik = 1;
    p.use_controller = 1;
    p.controller = ak_controller_defaults();
    p.ground_smoothing = 0.12f;
    p.idle_fade = 0.3f;
    p.start_time = 0.5f;
    p.stop_time = 0.5f;
    p.interp = AK_INTERP_LINEAR;
    p.foot = ak_foot_ik_defaults();
    p.foot.max_hip_rise = 0.3f;
    return p;
}

int32_t ak_walker_validate(const ak_walker_params *p, const ak_walk_motion *m, ak_error *err)
{
    if (!p || !m) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if (!akv_finite(p->start) || !akv_finite(p->target))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "start and target must be finite");
    if (!(p->arrival_radius > 0.0f) || !isfinite(p->arrival_radius))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "arrival radius must be positive");
    if (p->steer != AK_STEER_CYCLE && p->steer != AK_STEER_CONTINUOUS)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "steer must be cycle or continuous");
    if (!(p->turn_rate > 0.0f) || !isfinite(p->turn_rate))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "max turn rate must be positive");
    if (!(p->ground_smoothing >= 0.0f) || !(p->idle_fade > 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "ground smoothing must be >= 0 and idle fade > 0");
    if (!(p->start_time >= 0.0f) || !(p->start_time < 60.0f) || !(p->stop_time > 0.0f) ||
        !(p->stop_time < 60.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "start time must be in [0, 60) s and stop time in (0, 60) s");
    if (p->interp < AK_INTERP_STEP || p->interp > AK_INTERP_CUBIC)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "unknown interpolation");
    if (p->box_count < 0 || (p->box_count > 0 && !p->boxes))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "boxes missing");
    if (p->idle_clip && p->idle_clip->joint_count != m->skeleton->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "the idle clip has %d joints, the walk skeleton %d",
                            (int)p->idle_clip->joint_count, (int)m->skeleton->joint_count);
    if (p->use_controller) {
        int32_t st = ak_controller_validate(&p->controller, err);
        if (st != AK_OK) return st;
    }
    return ak_params_check(ak_walker_param_ranges(), p, err);
}

void ak_walker_destroy(ak_walker *w)
{
    if (!w) return;
    ak_clip_destroy(w->idle);
    ak_root_motion_destroy(w->idle_root);
    free(w->block);
}

/* Bytes of one pose of J joints. The poses are packed, not padded to cache lines: padding
 * added 5 lines (8 %) to what a frame reads from memory (callgrind's cache model). */
static size_t pose_stride(int32_t J)
{
    return sizeof(ak_xform) * (size_t)J;
}

/* One allocation per walker, starting on a cache line: the struct, then its five poses. A
 * frame touches the struct and three poses (anim, local, world: the first three), about 57
 * lines; 10,000 walkers (~40 MB) stream from memory every frame, so each walker is one
 * contiguous run the prefetcher (and akw_prefetch) can fetch ahead, and no line is written by
 * two walkers (two threads at a range border). The idle scratch and the held pose, rarely
 * touched, come last. Zeroed like calloc. */
static ak_walker *walker_alloc(int32_t J)
{
    const size_t head = (sizeof(ak_walker) + AK_WALKER_LINE - 1) & ~(size_t)(AK_WALKER_LINE - 1);
    const size_t stride = pose_stride(J);
    unsigned char *block = (unsigned char *)malloc(AK_WALKER_LINE + head + 5 * stride);
    if (!block) return NULL;
    const uintptr_t at = ((uintptr_t)block + AK_WALKER_LINE - 1) & ~(uintptr_t)(AK_WALKER_LINE - 1);
    ak_walker *w = (ak_walker *)(void *)(block + (at - (uintptr_t)block));
    memset(w, 0, sizeof *w);
    w->block = block;
    w->J = J;
    unsigned char *poses = (unsigned char *)w + head;
    w->anim = (ak_xform *)(void *)poses;
    w->local = (ak_xform *)(void *)(poses + stride);
    w->world = (ak_xform *)(void *)(poses + 2 * stride);
    w->idle_local = (ak_xform *)(void *)(poses + 3 * stride);
    w->hold = (ak_xform *)(void *)(poses + 4 * stride);
    return w;
}

void akw_prefetch(const ak_walker *w)
{
#if defined(__GNUC__) || defined(__clang__)
    /* The struct up to the stop planner's memo (touched only near the target), then anim,
     * local and world (contiguous after the struct). */
    const char *p = (const char *)w;
    for (size_t i = 0; i < offsetof(ak_walker, stop_memo); i += AK_WALKER_LINE)
        __builtin_prefetch(p + i, 1, 3);
    const char *q = (const char *)w->anim;
    const size_t hot = 3 * pose_stride(w->J);
    for (size_t i = 0; i < hot; i += AK_WALKER_LINE)
        __builtin_prefetch(q + i, 1, 3);
#else
    (void)w;
#endif
}

static float wrap_pi(float a)
{
    return akf_wrap_pi(a);
}

/* What plays from now (ak_walker_play): the loop or a captured segment, from its first
 * frame. */
static void select_play(ak_walker *w, int32_t play)
{
    const ak_walk_motion *m = w->m;
    w->play = play;
    w->seg_time = 0.0f;
    for (int s = 0; s < 2; ++s) {
        if (play != AK_WALKER_PLAY_LOOP) {
            const ak_walk_segment *g = &m->segment[PLAY_SEGMENT(play)];
            w->play_contacts[s] = g->contacts[s];
            w->play_phase[s] = g->swing_phase[s];
            w->play_land[s] = g->land_rel[s];
            w->play_land_toe[s] = g->land_toe_rel[s];
        } else {
            w->play_contacts[s] = m->contacts[s];
            w->play_phase[s] = m->swing_phase[s];
            w->play_land[s] = m->land_rel[s];
            w->play_land_toe[s] = m->land_toe_rel[s];
        }
    }
}

/* The captured segment `seg` exists and may be played. */
static int has_segment(const ak_walker *w, int32_t seg)
{
    return w->m->segment[seg].clip != NULL && w->m->segment[seg].root != NULL;
}

/* The heading a segment's root has turned since its first frame at segment time t. */
static float segment_turn(const ak_walk_motion *m, int32_t seg, float t)
{
    float h, h0;
    ak_root_motion_at(m->segment[seg].root, t, NULL, &h);
    ak_root_motion_at(m->segment[seg].root, 0.0f, NULL, &h0);
    return h - h0;
}

static void animated_pose(ak_walker *w);

/* The idle clip: a copy in metres, its floor (the lowest point of either foot over the clip)
 * and its root motion. */
static int32_t load_idle(ak_walker *w, const ak_walk_motion *m, const ak_walker_params *p,
                         ak_error *err)
{
    w->idle = ak_clip_clone(p->idle_clip);
    if (!w->idle) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    const float s = p->idle_metres_per_unit > 0.0f ? p->idle_metres_per_unit : m->metres_per_unit;
    for (size_t k = 0; k < (size_t)w->idle->frame_count * (size_t)w->idle->track_count; ++k)
        w->idle->translations[k] = akv_scale(w->idle->translations[k], s);
    w->idle_floor = INFINITY;
    for (int32_t f = 0; f < w->idle->frame_count; ++f) {
        ak_clip_frame(w->idle, m->skeleton, f, w->local);
        ak_fk(m->skeleton, w->local, w->world);
        for (int k = 0; k < 2; ++k) {
            const int32_t foot = m->humanoid.joint[k == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT];
            for (int32_t j = foot; j < m->skeleton->subtree_end[foot]; ++j)
                if (w->world[j].translation.y < w->idle_floor)
                    w->idle_floor = w->world[j].translation.y;
        }
    }
    ak_root_motion_params rp = ak_root_motion_defaults();
    return ak_root_motion_create(m->skeleton, w->idle, &rp, &w->idle_root, err);
}

/* Leg s's landing slack (ak_foot_ik_landing_room) over the cycle's own landings, at least 0.
 * Uses the walker's pose buffers (create time). */
static float landing_slack(ak_walker *w, const ak_foot_ik_params *fik, int32_t s)
{
    const ak_walk_motion *m = w->m;
    const ak_skeleton *sk = m->skeleton;
    const int32_t n = m->clip->frame_count;
    float slack = INFINITY;
    for (int32_t f = 0; f < n; ++f) {
        if (!m->contacts[s][f] || m->contacts[s][(f + n - 1) % n]) continue;
        ak_clip_frame(m->clip, sk, f, w->local);
        ak_fk(sk, w->local, w->world);
        slack = fminf(slack, ak_foot_ik_landing_room(fik, w->world, s, m->floor_y));
    }
    return slack < INFINITY && slack > 0.0f ? slack : 0.0f;
}

/* Planned hips, the walker's one grounding (issue 21): the grounding's acceleration bounds from
 * the source cycle's own (ak_foot_ik_plan_accel, the matcher's rule too); each leg's landing
 * slack; the swinging knee's limit from the source's (ak_foot_ik_plan_knee). */
static int32_t plan_hips(ak_walker *w, ak_foot_ik_params *fik, ak_error *err)
{
    ak_walk_metrics src;
    for (int s = 0; s < 2; ++s)
        fik->legs[s].landing_slack = landing_slack(w, fik, s);
    const int32_t st = ak_walk_metrics_source(w->m, &src, err);
    if (st != AK_OK) return st;
    ak_foot_ik_plan_knee(fik, src.knee_peak);
    ak_foot_ik_plan_accel(fik, src.hip_accel_min_g, src.hip_accel_max_g);
    return AK_OK;
}

/* Whether the cycle is a run: its frames with both feet up outnumber either foot's in stance
 * (CMU 09_01, 09_02, 02_03 at any frame rate: 49-53 of 89-94 frames up, 19-23 on each foot; a
 * walk's contacts leave it up 0-26 of 117-180 frames, 37-103 on each foot). */
static int cycle_is_run(const ak_walk_motion *m)
{
    const int32_t n = m->clip->frame_count;
    int32_t up = 0, on[2] = {0, 0};
    for (int32_t f = 0; f < n; ++f) {
        up += !m->contacts[0][f] && !m->contacts[1][f];
        on[0] += m->contacts[0][f] != 0;
        on[1] += m->contacts[1][f] != 0;
    }
    return up > on[0] && up > on[1];
}

/* The swing phase by which foot s's placement shift has glided onto its target
 * (ak_foot_place_glide): 0.9, or earlier where the cycle first brings the foot's heel or toe
 * within AK_WALK_DRAG_HEIGHT of its lowest after mid-swing, though not before 0.8 (the landing is
 * decided until three quarters, decide_placement). A foot still gliding while the clip carries
 * it along the ground moved faster there than the clip's: CMU 02_02's stop on the stairs from
 * (0, 0) to (2, 4), the last step's landing moved 18 cm back from the clip's onto its tread, had
 * its heel 4.9 -> 2.2 mm up at 0.54 m/s (frame 355; the clip's fastest that low 0.29) at swing
 * phase 0.86, its glide moving 2-4 mm a frame; the clip has that heel within 5 mm from 0.848. */
static float place_glide_end(const ak_walk_motion *m, int s)
{
    float end = 0.9f;
    if (!m->point_clear || !m->swing_phase[s]) return end;
    for (int32_t f = 0; f < m->clip->frame_count; ++f) {
        const float u = m->swing_phase[s][f], *c = m->point_clear + 4 * f + 2 * s;
        if (u > 0.5f && u < end && fminf(c[0], c[1]) <= AK_WALK_DRAG_HEIGHT) end = u;
    }
    return fmaxf(end, 0.8f);
}

int32_t ak_walker_create(const ak_walk_motion *m, const ak_walker_params *p,
                         const ak_ground *ground, ak_walker **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_walker_validate(p, m, err);
    if (st != AK_OK) return st;
    ak_walker *w = walker_alloc(m->skeleton->joint_count);
    if (!w) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    w->m = m;
    w->p = *p;
    w->travel_local = akv_make(sinf(m->travel_heading), 0.0f, cosf(m->travel_heading));
    w->rate_accel_max = 2.0f / fmaxf(fminf(p->start_time, p->stop_time), 1e-3f);
    w->hip_window = 1; /* (akw_hip_window of no frame time) */
    /* Foot IK rig from the humanoid map and the motion's calibration, unless given. */
    w->fik = p->foot;
    w->fik.skeleton = m->skeleton; /* the walker poses the walk motion's skeleton */
    if (w->fik.legs[0].upper < 0) {
        const ak_humanoid *h = &m->humanoid;
        for (int s = 0; s < 2; ++s) {
            w->fik.legs[s].upper =
                h->joint[s == 0 ? AK_HUM_LEFT_UPPER_LEG : AK_HUM_RIGHT_UPPER_LEG];
            w->fik.legs[s].lower =
                h->joint[s == 0 ? AK_HUM_LEFT_LOWER_LEG : AK_HUM_RIGHT_LOWER_LEG];
            w->fik.legs[s].foot = h->joint[s == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT];
            w->fik.legs[s].sole_height = m->sole_height[s];
            w->fik.legs[s].up_local = m->foot_up_local[s];
            w->fik.legs[s].toe_local = m->toe_local[s];
            w->fik.legs[s].has_toe = m->has_toe[s];
            w->feet.point_floor[s][0] = m->point_floor[s][0];
            w->feet.point_floor[s][1] = m->point_floor[s][1];
        }
        w->feet.has_point_floor = 1; /* (the points are the calibration's) */
        w->fik.hips = h->joint[AK_HUM_HIPS] >= 0 ? h->joint[AK_HUM_HIPS] : 0;
    }
    w->run_gait = cycle_is_run(m);
    for (int s = 0; s < 2; ++s)
        w->place_end[s] = place_glide_end(m, s);
    st = plan_hips(w, &w->fik, err);
    if (st == AK_OK && p->foot_ik) st = ak_foot_ik_validate(&w->fik, err);
    if (st != AK_OK) {
        ak_walker_destroy(w);
        return st;
    }
    akf_foot_fixed_of(&w->fik, &w->fik_fixed);
    if (p->idle_clip && (st = load_idle(w, m, p, err)) != AK_OK) {
        ak_walker_destroy(w);
        return st;
    }
    ak_walker_reset(w, ground);
    *out = w;
    return AK_OK;
}

static float heading_to_target(const ak_walker *w)
{
    const float dx = w->p.target.x - w->pos.x, dz = w->p.target.z - w->pos.z;
    if (dx * dx + dz * dz < 1e-10f) return w->base_heading;
    /* Aim the direction of travel (travel_heading off the facing) at the target. */
    return atan2f(dx, dz) - w->m->travel_heading;
}

static float distance_to_target(const ak_walker *w);

/* The captured start is played when there is one and the target lies beyond its travel. */
static int captured_start_fits(const ak_walker *w)
{
    if (!has_segment(w, AK_SEGMENT_START)) return 0;
    const ak_walk_segment *g = &w->m->segment[AK_SEGMENT_START];
    ak_vec3 d;
    ak_root_motion_delta(g->root, 0.0f, clip_duration(g->clip), &d, NULL);
    return distance_to_target(w) > akv_len(d) + w->p.arrival_radius;
}

/* Standing, ready to walk: the captured start from its first frame when it fits (out of the
 * idle where there is one), else on a stop frame with the playback rate ramping from 0 (in the
 * idle or settle pose where there is one). */
static void standing_start(ak_walker *w)
{
    w->rest_hips_set = 0;
    select_play(w, AK_WALKER_PLAY_LOOP);
    w->phase = AK_WALKER_PHASE_WALK;
    if (w->p.start_time > 0.0f && captured_start_fits(w)) {
        select_play(w, AK_WALKER_PLAY_START);
        w->phase = AK_WALKER_PHASE_START;
        w->clip_time = 0.0f;
        w->rate = 1.0f;
        w->idle_w = w->idle ? 1.0f : 0.0f;
    } else if (w->p.start_time > 0.0f && w->m->stop_count > 0) {
        w->clip_time = w->m->stop_times[0];
        w->rate = 0.0f;
        w->idle_w = (w->idle || w->m->stand_pose) ? 1.0f : 0.0f;
    }
}

void ak_walker_reset(ak_walker *w, const ak_ground *ground)
{
    if (!w) return;
    ak_ground_hit h;
    w->pos = ak_vec3_make(w->p.start.x, 0.0f, w->p.start.z);
    if (ak_ground_query(ground, w->pos.x, w->pos.z, &h))
        w->pos.y = h.height;
    else
        w->pos.y = w->p.start.y;
    ak_root_motion_at(w->m->root, 0.0f, NULL, &w->clip_heading0);
    ak_root_motion_loop(w->m->root, NULL, &w->loop_heading);
    w->base_heading = 0.0f;
    w->base_heading = isfinite(w->p.start_heading) ? w->p.start_heading : heading_to_target(w);
    w->guide_target = w->base_heading;
    /* The character's heading also carries the clip's own turning within the cycle. */
    w->heading = w->base_heading;
    w->yaw = ak_quat_yaw(w->heading);
    w->floor_y = w->pos.y;
    w->floor_v = 0.0f;
    w->has_foothold[0] = w->has_foothold[1] = 0;
    w->clip_time = 0.0f;
    w->time = w->idle_time = 0.0;
    w->cycle = 0;
    w->idle_w = 0.0f;
    w->rest_hips_set = 0;
    w->rate = 1.0f;
    w->stop_left = 0.0f;
    w->stop_scale = w->stop_cadence = w->cadence = 1.0f;
    w->step_scale = w->step_goal = w->placed_scale = w->placed_stop = 1.0f;
    w->step_scale_v = 0.0f;
    w->stop_entry = 0.0f;
    w->rest = REST_IDLE;
    standing_start(w);
    w->path_length = 0.0f;
    w->desired = ak_vec3_make(0, 0, 0);
    w->position_set = 0;
    w->initialized = 0;
    ak_foot_ik_state_reset(&w->fst);
    w->feet_set = 0;
    if (w->p.use_controller) ak_controller_init(&w->ctrl, &w->p.controller, w->pos, NULL);
    w->ctrl.grounded = 1;
    for (int s = 0; s < 2; ++s) {
        w->sole_ground[s] = w->toe_ground[s] = NAN;
        w->stance[s] = w->contact[s] = w->stance_next[s] = 0;
        w->place_from[s] = w->place_target[s] = w->place_now[s] = ak_vec3_make(0, 0, 0);
        w->held[s] = w->held_lift[s] = w->stop_held[s] = ak_vec3_make(0, 0, 0);
        w->stop_held_u[s] = w->stop_held_u0[s] = 0.0f;
        w->land_play[s] = w->lift_play[s] = -1;
        w->held_now[s] = 0;
        w->place_decided[s] = w->place_probe[s] = 0;
        w->scan[s].state = SCAN_IDLE;
        w->plan[s] = PLAN_NONE;
    }
    /* A first pose so world/local are valid before the first step. */
    animated_pose(w);
    memcpy(w->local, w->anim, sizeof(ak_xform) * (size_t)w->J);
    ak_xform ch = {ak_quat_yaw(w->heading),
                   ak_vec3_make(w->pos.x, w->floor_y - w->m->floor_y, w->pos.z)};
    w->local[0] = akx_mul(ch, w->local[0]);
    ak_fk(w->m->skeleton, w->local, w->world);
}

/* A new target while a captured stop is coming or playing, or after it: still in the loop,
 * walk on; in the stop, start again from the pose shown (held, the idle weight fading out of
 * it), with the captured start when it fits, else the procedural ramp. The start stands on
 * both feet, so a stop shown with a foot in the air finishes that step first: the restart
 * waits for the stop's next frame with both feet down (AK_WALKER_PHASE_RESUME; at most a
 * step). */
static void resume_walking(ak_walker *w)
{
    if (w->play == AK_WALKER_PLAY_STOP && !(w->stance[0] && w->stance[1])) {
        w->phase = AK_WALKER_PHASE_RESUME;
        return;
    }
    w->phase = AK_WALKER_PHASE_WALK;
    w->stop_scale = w->stop_cadence = w->cadence = 1.0f;
    w->stop_left = 0.0f;
    if (w->play == AK_WALKER_PLAY_LOOP) return;
    memcpy(w->hold, w->anim, sizeof(ak_xform) * (size_t)w->J);
    w->base_heading =
        wrap_pi(w->base_heading + segment_turn(w->m, PLAY_SEGMENT(w->play), w->seg_time));
    w->rate = 1.0f;
    standing_start(w);
    w->rest = REST_HELD;
    w->idle_w = 1.0f;
}

void ak_walker_set_target(ak_walker *w, ak_vec3 target)
{
    if (!w || !akv_finite(target)) return;
    w->p.target = target;
    /* Walk again only for a target outside the arrival radius: an engine may set the target
     * every frame, and a character standing at it must stay stopped. */
    if (stopping(w) && distance_to_target(w) <= w->p.arrival_radius) {
        if (w->phase == AK_WALKER_PHASE_RESUME) { /* the restart is called off */
            w->phase = AK_WALKER_PHASE_STOP_CAPTURED;
            rest_phase(w);
        }
        return;
    }
    if (stopping(w) && stop_is_captured(w))
        resume_walking(w);
    else if (stopping(w)) { /* a planned stop is called off: what plays walks on */
        w->phase = w->play == AK_WALKER_PLAY_START ? AK_WALKER_PHASE_START : AK_WALKER_PHASE_WALK;
        w->stop_cadence = w->cadence = 1.0f;
    }
    w->guide_target = heading_to_target(w);
}

/* The clip's heading at cycle time t relative to the cycle start, minus the steady part of
 * its loop turn. */
static float clip_wiggle(ak_walker *w, float t, float dur)
{
    const float tm = t - floorf(t / dur) * dur;
    float h;
    ak_root_motion_at_memo(w->m->root, &w->root_memo, tm, NULL, &h);
    return (h - w->clip_heading0) - w->loop_heading * tm / dur;
}

static float distance_to_target(const ak_walker *w)
{
    const float dx = w->p.target.x - w->pos.x, dz = w->p.target.z - w->pos.z;
    return sqrtf(dx * dx + dz * dz);
}

/* The next stop frame at or after cycle time t (both unwrapped). */
static float next_stop(const ak_walk_motion *m, float t, float dur)
{
    const float base = floorf(t / dur) * dur;
    for (int pass = 0; pass < 3; ++pass)
        for (int32_t k = 0; k < m->stop_count; ++k) {
            const float c = base + (float)pass * dur + m->stop_times[k];
            if (c >= t) return c;
        }
    return t + dur;
}

/* Where the captured stop ends if it is entered at the loop wrap `entry` (unwrapped cycle
 * time >= clip_time): the loop's travel to the wrap, then the segment's; the character frame
 * now. */
static ak_vec3 captured_stop_travel(const ak_walker *w, float entry)
{
    const ak_walk_segment *g = &w->m->segment[AK_SEGMENT_STOP];
    ak_vec3 dp, ds;
    float dh;
    ak_root_motion_delta(w->m->root, w->clip_time, entry, &dp, &dh);
    ak_root_motion_delta(g->root, 0.0f, clip_duration(g->clip), &ds, NULL);
    return akv_add(dp, akq_rotate(ak_quat_yaw(dh), ds));
}

/* While the loop still plays toward a committed captured stop: the travel left is scaled to
 * the distance (0.7..1.3) and the guide aims that travel's end at the target, every frame, so
 * the stop's last frame lands on it. */
static void aim_captured_stop(ak_walker *w)
{
    const ak_vec3 P = captured_stop_travel(w, w->stop_entry);
    const float len = sqrtf(P.x * P.x + P.z * P.z), d = distance_to_target(w) / w->step_scale;
    const float k = len > 1e-3f ? d / len : 1.0f;
    w->stop_scale = k < 0.7f ? 0.7f : (k > 1.3f ? 1.3f : k);
    if (len > 1e-3f && d > 1e-3f) {
        const float want = atan2f(w->p.target.x - w->pos.x, w->p.target.z - w->pos.z);
        w->guide_target = w->base_heading + wrap_pi(want - (w->heading + atan2f(P.x, P.z)));
    }
}

/* The captured stop is entered at a wrap of the loop (after its last frame). Of the next
 * three wraps, the one whose whole travel best matches the distance; committed once that
 * wrap is within two cycles and the travel needs scaling by no more than 0.7..1.3. Returns 1
 * when committed. */
/* A committed stop no longer steers, so it is committed only with the target within 5 degrees
 * of the guide (or inside the arrival radius): one set near a standing character, beside or
 * behind it, is turned to first, with the sharpened steering of the last 1.5 m, else the
 * character would stop a step or more beside it. Asked only where a stop could commit. */
static int faces_target(const ak_walker *w, float d)
{
    return d <= w->p.arrival_radius ||
           fabsf(wrap_pi(heading_to_target(w) - w->base_heading)) <= AK_PI / 36.0f;
}

static int plan_captured_stop(ak_walker *w, float dur, float d)
{
    const ak_walk_segment *g = &w->m->segment[AK_SEGMENT_STOP];
    if (!g->clip || !g->root || w->play != AK_WALKER_PLAY_LOOP) return 0;
    ak_vec3 ds;
    ak_root_motion_delta(g->root, 0.0f, clip_duration(g->clip), &ds, NULL);
    if (d > 3.0f * w->m->stride_length + akv_len(ds) + w->p.arrival_radius) return 0;
    const float first = ceilf(w->clip_time / dur) * dur;
    float best_e = INFINITY, best_w = 0.0f, best_len = 0.0f;
    for (int k = 0; k < 3; ++k) {
        const ak_vec3 P = captured_stop_travel(w, first + (float)k * dur);
        const float len = sqrtf(P.x * P.x + P.z * P.z);
        if (fabsf(d - len) < best_e) {
            best_e = fabsf(d - len);
            best_w = first + (float)k * dur;
            best_len = len;
        }
    }
    if (best_w - w->clip_time > 2.0f * dur || !(best_len > 1e-3f)) return 0;
    const float k = d / best_len;
    if (k < 0.7f || k > 1.3f || !faces_target(w, d)) return 0;
    w->phase = AK_WALKER_PHASE_STOP_APPROACH;
    w->stop_entry = best_w;
    w->stop_left = best_w - w->clip_time + clip_duration(g->clip);
    aim_captured_stop(w);
    return 1;
}

/* How fast the cadence played follows a stop's (per second): 1 -> 0.8 in 0.1 s, not in one
 * frame. */
#define CADENCE_RATE 2.0f

/* Near the target: pick the stop frame whose place lies nearest the target, among those the
 * deceleration can still reach, and commit to it once it is within a cycle (or the target is
 * inside the arrival radius). The travel to it is scaled (0.7..1.3) so it ends on the target:
 * the last steps lengthen or shorten, the stance feet stay locked.
 * The stop frames are the cycle's, a step apart, so which one is nearest jumps as the stride
 * changes (a 2 % longer cycle commits a step earlier or later), and with the clip at its own
 * cadence the arrival jumped with it (CMU 02_01's 30 fps copy: 4.742 s against 5.208). The
 * last steps play at a cadence (stop_cadence) that makes the time to the stop the distance's
 * own: travel / cadence = scale x travel + STOP_LATE x stride, so the stop's steps take
 * (d + STOP_LATE x stride) / speed whichever frame was picked: continuous in the stride (02_01's
 * copy 5.167 s against 5.208). The cadence only slows (0.5..1): quickening it by 1 / scale,
 * the source hips' acceleration as played grows by its square (CMU 09_01's run stopping up the
 * stairs at scale 0.83: hips 2.33 g against its bound 1.95) and a swinging heel's speed with
 * it (09_01 on the ridges 0.99 m/s against 0.88). The nearest frame lies at most half a step
 * (a quarter stride) beyond the target; STOP_LATE covers 0.4 of a step of it, and a stop frame
 * farther beyond plays at the clip's cadence, up to a tenth of a step late. A quarter stride
 * (every stop frame in time) slowed the built-in walk's stops to cadence 0.72, and a planted
 * toe on the CLI's hills moved 17.9 mm/s the frame after its landing (the foot turned 0.0025
 * rad about its locked heel; not traced further; 7.5 mm/s with STOP_LATE, bound 10). */
#define STOP_LATE 0.2f
static void plan_stop(ak_walker *w, float dur)
{
    const ak_walk_motion *m = w->m;
    if (w->phase == AK_WALKER_PHASE_STOP_APPROACH) aim_captured_stop(w);
    if (stopping(w) || m->stop_count == 0 || w->play != AK_WALKER_PLAY_LOOP) return;
    /* (in the clip's travel: with shorter steps the walker covers step_scale of it, held
     * through the stop) */
    const float d = distance_to_target(w) / w->step_scale;
    if (plan_captured_stop(w, dur, d)) return;
    if (d > 2.5f * m->stride_length + w->p.arrival_radius) return;
    float t = w->clip_time + 0.5f * w->rate * w->p.stop_time;
    float best_t = 0.0f, best_travel = 0.0f, best_e = INFINITY;
    /* The candidate stop frames, then their travels from now in one pass (the root motion
     * at clip_time evaluated once). */
    float cand[3 * AK_WALK_MAX_STOPS], travel[3 * AK_WALK_MAX_STOPS];
    int32_t n = 0;
    for (int32_t i = 0; i < 3 * m->stop_count; ++i) {
        const float c = next_stop(m, t, dur);
        if (c - w->clip_time > 2.0f * dur) break;
        cand[n++] = c;
        t = c + 1e-4f;
    }
    ak_root_motion_travels(m->root, w->clip_time, cand, n, travel, &w->stop_memo);
    for (int32_t i = 0; i < n; ++i)
        if (fabsf(d - travel[i]) < best_e) {
            best_e = fabsf(d - travel[i]);
            best_t = cand[i];
            best_travel = travel[i];
        }
    if (!(best_e < INFINITY)) return;
    if (best_t - w->clip_time > dur && d > w->p.arrival_radius) return;
    if (!faces_target(w, d)) return;
    w->phase = AK_WALKER_PHASE_STOP;
    w->stop_left = best_t - w->clip_time;
    float k = best_travel > 1e-3f ? d / best_travel : 1.0f;
    w->stop_scale = k < 0.7f ? 0.7f : (k > 1.3f ? 1.3f : k);
    const float late = STOP_LATE * m->stride_length;
    w->stop_cadence = akf_clamp(best_travel / (best_travel * w->stop_scale + late), 0.5f, 1.0f);
}

/* This frame's playback rate and idle weight; returns how far the clip advances (s).
 * Stopping: constant deceleration (1/stop_time per second) that comes to rest exactly on the
 * stop frame, then the settle (idle weight up). Walking: the rate ramps up over start_time
 * while any idle or settle pose fades out. */
static float advance_clip(ak_walker *w, float dt)
{
    float adv;
    if (stopping(w)) {
        /* The clip plays at rate x cadence (stop_cadence); the rate ramps and decelerates in
         * the walk's own seconds, stop_left / cadence of them left. */
        const float step = CADENCE_RATE * dt;
        w->cadence = akf_clamp(w->stop_cadence, w->cadence - step, w->cadence + step);
        const float c = w->cadence;
        /* A stop committed before the walk is up to speed (a new target within the stop
         * planner's reach of a standing character) still ramps up and fades the idle out: at
         * rate 0 the deceleration below would hold it short of the target for ever. Below
         * that deceleration's curve only, so a stop from walking pace is unchanged. */
        const float reach = sqrtf(2.0f * w->stop_left / (c * w->p.stop_time));
        if (w->stop_left > 0.0f && w->rate < 1.0f && w->rate < reach) {
            const float up = w->p.start_time > 0.0f ? w->rate + dt / w->p.start_time : 1.0f;
            w->rate = fminf(fminf(up, 1.0f), reach);
            w->idle_w = fmaxf(0.0f, w->idle_w - dt / w->p.idle_fade);
        }
        adv = w->rate * c * dt;
        if (adv > w->stop_left) adv = w->stop_left;
        w->stop_left -= adv;
        const float limit = sqrtf(2.0f * w->stop_left / (c * w->p.stop_time));
        if (limit < w->rate) w->rate = limit;
        if (w->stop_left <= 0.0f) {
            w->rate = 0.0f;
            w->idle_w =
                w->idle_w + dt / w->p.idle_fade > 1.0f ? 1.0f : w->idle_w + dt / w->p.idle_fade;
        }
        return adv;
    }
    w->rate = w->p.start_time > 0.0f ? w->rate + dt / w->p.start_time : 1.0f;
    if (w->rate > 1.0f) w->rate = 1.0f;
    w->idle_w = w->idle_w - dt / w->p.idle_fade < 0.0f ? 0.0f : w->idle_w - dt / w->p.idle_fade;
    return w->rate * dt;
}

/* The in-place animated pose at the clip time: the walk, crossfaded into the idle clip or the
 * settle pose by the idle weight. */
static void animated_pose(ak_walker *w)
{
    const ak_walk_motion *m = w->m;
    const int in_segment = w->play != AK_WALKER_PLAY_LOOP;
    const ak_walk_segment *g = &m->segment[in_segment ? PLAY_SEGMENT(w->play) : 0];
    const float t = in_segment ? w->seg_time : w->clip_time;
    const ak_clip *clip = in_segment ? g->clip : m->clip;
    if (w->anim_keyed == clip) {
        /* (the root motion's joint too: its in place below moves it) */
        ak_clip_sample_keyed(clip, m->skeleton, t, (ak_interp)w->p.interp, w->anim,
                             ak_root_motion_joint(in_segment ? g->root : m->root));
    } else {
        ak_clip_sample(clip, m->skeleton, t, (ak_interp)w->p.interp, w->anim);
        w->anim_keyed = clip;
    }
    if (in_segment)
        ak_root_motion_make_in_place(g->root, t, w->anim);
    else
        ak_root_motion_make_in_place_memo(m->root, &w->root_memo, t, w->anim);
    const int32_t hips = m->humanoid.joint[AK_HUM_HIPS] >= 0 ? m->humanoid.joint[AK_HUM_HIPS] : 0;
    const float hips_y = w->anim[hips].translation.y;
    if (!w->rest_hips_set || w->rate == 0.0f) {
        w->rest_hips_y = hips_y;
        w->rest_hips_set = 1;
    }
    /* A captured start or stop stands as the capture stood: only an idle clip blends in (or,
     * walking again out of a captured stop, the pose it was left in). */
    const int stand = m->stand_pose && w->play == AK_WALKER_PLAY_LOOP &&
                      w->phase != AK_WALKER_PHASE_STOP_APPROACH;
    if (!(w->idle_w > 0.0f) || stopping(w)) w->rest = REST_IDLE;
    const int held = w->rest == REST_HELD;
    if (!(w->idle_w > 0.0f) || (!w->idle && !stand && !held)) return;
    if (held) {
        memcpy(w->idle_local, w->hold, sizeof(ak_xform) * (size_t)w->J);
    } else if (w->idle) {
        const float it = (float)w->idle_time;
        ak_clip_sample(w->idle, m->skeleton, it, (ak_interp)w->p.interp, w->idle_local);
        ak_root_motion_make_in_place(w->idle_root, it, w->idle_local);
        /* The idle stands on its own floor: put that floor where the walk's is. */
        w->idle_local[0].translation.y += m->floor_y - w->idle_floor;
    } else {
        memcpy(w->idle_local, m->stand_pose, sizeof(ak_xform) * (size_t)w->J);
    }
    const float s = w->idle_w * w->idle_w * (3.0f - 2.0f * w->idle_w); /* smoothstep */
    ak_pose_blend(w->anim, w->idle_local, w->J, s, NULL, w->anim);
    /* The hips' height is the walk's with the idle's offset from where the walk stood faded
     * out: hips_y + s (idle - rest_hips_y), not the blend's (1 - s) hips_y + s idle, whose own
     * acceleration, s'' (idle - hips_y) - 2 s' hips_y', takes the hips as the walk moves them
     * from its stand (and no figure of the source counts it: source_hip_accel). A run's start
     * at 24 fps (CMU 09_02 on the heightmap from -6.0, its hips rising 0.4 m/s off its stand as
     * the idle faded out) fell at 0.15 g more than the run as the fade ended, -1.26 g against
     * -1.25. Where the walk stands still (the settle) the two are the same: the blend's is kept. */
    if (w->rate > 0.0f && s < 1.0f)
        w->anim[hips].translation.y =
            hips_y + s * (w->idle_local[hips].translation.y - w->rest_hips_y);
    w->anim_keyed = NULL;
}

/* Each foot's contact: the clip's. Settling at a stop, a foot the clip has in the air comes
 * down with the settle pose (planting from halfway) and both stand flat once it is done. */
static void foot_contacts(ak_walker *w)
{
    const ak_walk_motion *m = w->m;
    const int settling = stopping(w) && w->stop_left <= 0.0f;
    const float ahead = clip_rate(w) / w->fik.stance_fade_rate;
    const int32_t loop = w->play == AK_WALKER_PLAY_LOOP;
    const ak_clip *clip = loop ? m->clip : m->segment[PLAY_SEGMENT(w->play)].clip;
    const float t = loop ? w->clip_time : w->seg_time;
    /* The one stance-at-time rule (ak_contact_at), the frame looked up once for both feet. */
    const int32_t f_now = ak_contact_frame(clip->frame_count, clip->frame_time, loop, t);
    const int32_t f_ahead = ak_contact_frame(clip->frame_count, clip->frame_time, loop, t + ahead);
    for (int s = 0; s < 2; ++s) {
        uint8_t c = f_now >= 0 ? w->play_contacts[s][f_now] : 0;
        int next = f_ahead >= 0 && w->play_contacts[s][f_ahead] != 0;
        /* Settling: a foot on the ground stands flat (a heel that is up comes down about the
         * toe), a foot in the air joins it once the settle pose is reached and its leg reaches
         * the ground (settle_lands). */
        if (settling && (c || (w->idle_w >= 1.0f && settle_lands(w, s))))
            c = AK_CONTACT_HEEL | AK_CONTACT_TOE;
        if (settling) next = c != 0 || w->idle_w >= 0.5f;
        w->contact[s] = c;
        w->stance[s] = c != 0;
        w->stance_next[s] = next;
    }
}

/* Playing a captured segment at its own rate (1): its root's travel from seg_time on, in the
 * character frame now; *dh gets its turn. Returns the time not used when it ends (the start
 * then joins the loop at its frame 0 and base_heading takes the segment's whole turn; the
 * stop comes to rest on its last frame). */
static float advance_segment(ak_walker *w, float dt, ak_vec3 *d, float *dh)
{
    const int32_t seg = PLAY_SEGMENT(w->play);
    const ak_walk_segment *g = &w->m->segment[seg];
    const float dur = clip_duration(g->clip), t0 = w->seg_time;
    const float t1 = t0 + dt < dur ? t0 + dt : dur;
    ak_root_motion_delta(g->root, t0, t1, d, dh);
    w->seg_time = t1;
    w->rate = 1.0f;
    if (w->play == AK_WALKER_PLAY_STOP) {
        w->stop_left = dur - t1;
        if (t0 + dt >= dur) {
            w->rate = 0.0f;
            w->idle_w = fminf(1.0f, w->idle_w + dt / w->p.idle_fade);
        }
        return 0.0f;
    }
    w->idle_w = fmaxf(0.0f, w->idle_w - dt / w->p.idle_fade);
    if (t0 + dt < dur) return 0.0f;
    w->base_heading = wrap_pi(w->base_heading + segment_turn(w->m, seg, dur));
    select_play(w, AK_WALKER_PLAY_LOOP);
    if (w->phase == AK_WALKER_PHASE_START) w->phase = AK_WALKER_PHASE_WALK;
    w->clip_time = 0.0f;
    return t0 + dt - dur;
}

/* d + v turned by dh (the travel before it, v after a turn of dh). No turn (the loop alone,
 * every walking frame) adds v as it is: the same sum, yaw(0) being the identity (rotating by it
 * changes at most the sign of a zero, which d's + 0 adds away), without its sine and cosine. */
static ak_vec3 add_turned(ak_vec3 d, float dh, ak_vec3 v)
{
    return akv_add(d, dh == 0.0f ? v : akq_rotate(ak_quat_yaw(dh), v));
}

/* Advances what plays by dt: a captured segment, the loop (into a committed captured stop at
 * its entry wrap), with the playback rate and idle weight. Returns the root's travel in the
 * character frame at the start of the frame. */
static ak_vec3 advance_play(ak_walker *w, float dt)
{
    const ak_walk_motion *m = w->m;
    ak_vec3 d = ak_vec3_make(0, 0, 0), d2;
    float dh = 0.0f, dh2;
    if (w->play != AK_WALKER_PLAY_LOOP) {
        dt = advance_segment(w, dt, &d, &dh);
        if (w->play != AK_WALKER_PLAY_LOOP || !(dt > 0.0f)) return d;
    }
    const float t0 = w->clip_time;
    if (w->phase == AK_WALKER_PHASE_STOP_APPROACH) {
        w->stop_left -= dt;
        if (t0 + dt < w->stop_entry) {
            w->clip_time = t0 + dt;
            ak_root_motion_delta_memo(m->root, &w->root_memo, t0, w->clip_time, &d2, NULL);
            return add_turned(d, dh, d2);
        }
        ak_root_motion_delta_memo(m->root, &w->root_memo, t0, w->stop_entry, &d2, &dh2);
        d = add_turned(d, dh, d2);
        dh += dh2;
        w->clip_time = w->stop_entry;
        const float rest = t0 + dt - w->stop_entry;
        select_play(w, AK_WALKER_PLAY_STOP);
        w->phase = AK_WALKER_PHASE_STOP_CAPTURED;
        advance_segment(w, rest, &d2, &dh2);
        return add_turned(d, dh, d2);
    }
    w->clip_time = t0 + advance_clip(w, dt);
    ak_root_motion_delta_memo(m->root, &w->root_memo, t0, w->clip_time, &d2, NULL);
    return add_turned(d, dh, d2);
}

/* This frame's steering turn of the guide (radians, rate-limited). At a cycle boundary (or
 * every frame with continuous steering, or within 1.5 m) the guide re-aims at the target;
 * near it a person turns more sharply (down to turning on the spot): the limit grows as the
 * distance shrinks below 1.5 m, up to 4x, so a close target is never circled forever. Once
 * stopping it turns only toward a captured stop's aim, and not during a captured stop. */
static float steer_turn(ak_walker *w, float dt, int new_cycle)
{
    if (!stopping(w) && (w->p.steer == AK_STEER_CONTINUOUS || new_cycle))
        w->guide_target = heading_to_target(w);
    const float dist = distance_to_target(w);
    float sharpen = dist > 1e-3f ? 1.5f / dist : 4.0f;
    sharpen = sharpen < 1.0f ? 1.0f : (sharpen > 4.0f ? 4.0f : sharpen);
    if (!stopping(w) && dist < 1.5f) w->guide_target = heading_to_target(w);
    const float max_turn = w->p.turn_rate * sharpen * dt;
    const int steering = !stopping(w) || w->phase == AK_WALKER_PHASE_STOP_APPROACH;
    float turn = steering ? wrap_pi(w->guide_target - w->base_heading) : 0.0f;
    if (turn > max_turn) turn = max_turn;
    if (turn < -max_turn) turn = -max_turn;
    return turn;
}

/* The guide after what plays advanced from cycle time t0 (play0 playing then) by the root's
 * travel d_local: a new cycle is counted, the guide steers and the character's heading follows.
 * Returns the world displacement the character wants this frame. */
static ak_vec3 steer_guide(ak_walker *w, float dt, float t0, int32_t play0, ak_vec3 d_local)
{
    const ak_walk_motion *m = w->m;
    const float dur = clip_duration(m->clip);
    const float t1 = w->clip_time;
    /* Cycle boundary: the guide takes the character's place (it always has it) and turns to
     * the target. Continuous steering re-aims every frame. */
    const int32_t c0 = (int32_t)floorf(t0 / dur), c1 = (int32_t)floorf(t1 / dur);
    if (c1 != c0) ++w->cycle;
    const float turn = steer_turn(w, dt, c1 != c0);
    /* (no turn: the heading's own yaw, which w->yaw holds) */
    const ak_quat half = turn == 0.0f ? w->yaw : ak_quat_yaw(w->heading + 0.5f * turn);
    ak_vec3 move = akq_rotate(half, d_local);
    move = akv_scale(move, (stopping(w) ? w->stop_scale : 1.0f) * w->step_scale);
    /* The guide turns by the steering and by the clip's net turning per loop (zero for the
     * heading-neutral cycles walk motions make); the character's heading is the guide's plus
     * the clip's own periodic wiggle at this point of the cycle (or a segment's own turning
     * since its first frame), computed, not integrated, so no rounding or stop/start can make
     * the two drift apart. */
    const int looped = play0 == AK_WALKER_PLAY_LOOP && w->play == AK_WALKER_PLAY_LOOP;
    const float loop_turn = looped ? w->loop_heading * (t1 - t0) / dur : 0.0f;
    w->base_heading = wrap_pi(w->base_heading + turn + loop_turn);
    w->heading = w->play != AK_WALKER_PLAY_LOOP
                     ? w->base_heading + segment_turn(m, PLAY_SEGMENT(w->play), w->seg_time)
                     : w->base_heading + clip_wiggle(w, t1, dur);
    w->yaw = ak_quat_yaw(w->heading);
    return move;
}

/* The frame's clocks move on by dt; the loop's and a looping idle's times are kept small
 * (float sampling of a periodic clip). */
static void advance_clocks(ak_walker *w, float dt)
{
    const float dur = clip_duration(w->m->clip);
    if (!stopping(w) && w->clip_time > 1000.0f * dur)
        w->clip_time -= floorf(w->clip_time / dur) * dur;
    w->time += (double)dt;
    w->idle_time += (double)dt;
    if (w->idle && w->idle->loop && w->idle_time > 1000.0 * (double)clip_duration(w->idle))
        w->idle_time = fmod(w->idle_time, (double)clip_duration(w->idle));
    w->dt = dt;
}

/* One frame of the walker, as a list of steps (docs/architecture.md shows the same list).
 * walker_begin (ak_walker_begin):
 *  1. resume    a restart waiting in RESUME walks once both feet are down (resume_walking);
 *  2. plan      walking near the target, commit to a stop: STOP (a stop frame of the loop) or
 *               STOP_APPROACH (the captured stop) (plan_stop);
 *  3. advance   what plays moves on by dt (advance_play): START joins WALK at its end,
 *               STOP_APPROACH enters STOP_CAPTURED at the loop's wrap, the playback rate
 *               ramps up from standing or slows onto the stop frame; a stop at rest SETTLEs,
 *               then is STOPPED (rest_phase);
 *  4. steer     the guide turns toward the target and the character's heading follows; the
 *               desired move is the root's travel, shortened on a steep slope (steer_guide);
 *  5. clocks    (advance_clocks);
 *  6. pose      the in-place pose of what plays, the idle or stand pose blended
 *               (animated_pose);
 *  7. contacts  each foot's contact this frame and just ahead (foot_contacts).
 *  8. move      the engine's controller places the character (ak_walker_set_position), or
 *               the plain move does (ak_walker_ground_rays);
 * ak_walker_ground_rays:
 *  9. place     the pose on the character and the floor, FK (place_pose);
 * 10. rays      under each planted heel and toe, where each swinging foot will land
 *               (placement_shift, the foot IK's query points); a planted foot is shown
 *               where its lock holds it (hold_planted_feet).
 * walker_finish (ak_walker_finish), with the hits:
 * 11. placement a swinging foot's landing moved off a stair edge (decide_placement);
 * 12. floor     the floor height follows the footholds through a spring (update_floor);
 *               on a steep slope the steps shorten from the next frame (shorter_steps);
 * 13. ground    foot IK grounds both feet and the hips (ak_foot_ik_solve);
 * 14. arrive    inside the arrival radius without a planned stop: STOP, at rest at once. */
static int32_t walker_begin(ak_walker *w, float dt, ak_vec3 *desired_move, ak_error *err)
{
    if (!w) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null walker");
    if (!(dt >= 0.0f) || !(dt < 10.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "dt must be in [0, 10) s");
    const float t0 = w->clip_time;
    if (w->phase == AK_WALKER_PHASE_RESUME && w->stance[0] && w->stance[1]) { /* 1 */
        resume_walking(w);
        w->guide_target = heading_to_target(w);
    }
    const int32_t play0 = w->play;
    w->rate_last = clip_rate(w);
    plan_stop(w, clip_duration(w->m->clip));     /* 2 */
    const ak_vec3 d_local = advance_play(w, dt); /* 3 */
    rest_phase(w);
    const ak_vec3 move = steer_guide(w, dt, t0, play0, d_local); /* 4 */
    advance_clocks(w, dt);                                       /* 5 */
    w->desired = move;
    w->position_set = 0;
    animated_pose(w); /* 6 */
    foot_contacts(w); /* 7 */
    if (desired_move) *desired_move = move;
    return AK_OK;
}

void ak_walker_set_position(ak_walker *w, ak_vec3 position)
{
    if (!w || !akv_finite(position)) return;
    const float dx = position.x - w->pos.x, dz = position.z - w->pos.z;
    w->path_length += sqrtf(dx * dx + dz * dz);
    w->pos = position;
    w->position_set = 1;
}

/* A hips table (ak_walk_motion.hip_accel: n accelerations, then n velocities) at position u
 * (frames; a loop wraps, a segment clamps), linear between keys, played at rate r changing
 * at dr per second: a r^2 + v dr. A loop's last interval, (n - 1, n), runs from its last key
 * to key 0 (clamped at n - 1 it read the last key a frame too long: at 24 fps, where the 33 ms
 * measure is one frame, CMU 09_01's run read -0.50 g for its hips where they fell at -0.69 g,
 * and a grounding bounded by that figure took the measure to -1.39 g, bound -1.33). */
static inline float table_accel_at(const float *a, int32_t n, int loop, float u, float r, float dr)
{
    if (loop) { /* (the truncation of a quotient in [0, 2^23) is its floorf) */
        const float q = u / (float)n;
        u -= (q >= 0.0f && q < 8388608.0f ? (float)(int32_t)q : floorf(q)) * (float)n;
    }
    u = akf_clamp(u, 0.0f, (float)(loop ? n : n - 1));
    const int32_t i = (int32_t)u < n - 1 ? (int32_t)u : n - 1;
    const int32_t j = i + 1 < n ? i + 1 : (loop ? 0 : i);
    const float f = u - (float)i, *v = a + n;
    return (a[i] + (a[j] - a[i]) * f) * r * r + (v[i] + (v[j] - v[i]) * f) * dr;
}

/* The source's own hips acceleration as played (ak_walk_motion.hip_accel, built once per clip
 * on its key grid, each entry the walk metrics' 33 ms measure ending at that key), scaled by
 * the playback rate squared, whole while the idle fades (the hips keep the walk's height and
 * the idle's offset from where it stood: animated_pose): the same figure on every build (it never
 * differentiates the posed frames, where libm's last bits would show). The least of it over this
 * frame and the next akw_hip_window(dt) - 1: the grounding bounds each frame's own correction by it
 * (landing_cap), and every 33 ms measure that frame falls in must hold, so the bound takes the
 * lowest source figure of them (taking only this frame's, a correction falling at 0.5 g beside the
 * source's +0.9 g let the 33 ms measure reach -1.34 g against a bound of -1.27 g one frame later,
 * when the source's own went to -0.87 g). */
static float source_hip_accel(ak_walker *w)
{
    const ak_walk_motion *m = w->m;
    const int loop = w->play == AK_WALKER_PLAY_LOOP;
    const ak_clip *c = loop ? m->clip : m->segment[PLAY_SEGMENT(w->play)].clip;
    const float *a = loop ? m->hip_accel : m->segment[PLAY_SEGMENT(w->play)].hip_accel;
    if (!a) return 0.0f;
    const int32_t n = c->frame_count;
    const float u = (loop ? w->clip_time : w->seg_time) / c->frame_time;
    /* The loop plays at the rate (a captured segment and the approach to it at 1): played,
     * the source's acceleration scales by rate^2 and its velocity adds rate' times itself. */
    const int rated = loop && w->phase != AK_WALKER_PHASE_STOP_APPROACH;
    const float r = rated ? clip_rate(w) : 1.0f;
    /* rate' at most twice the ramps' (rate_accel_max: 1 / start_time, 1 / stop_time): a
     * restart's jump of the rate is no acceleration of the hips. */
    const float dr_max = w->rate_accel_max;
    const float dr =
        rated && w->dt > 0.0f ? akf_clamp((r - w->rate_last) / w->dt, -dr_max, dr_max) : 0.0f;
    const float step = w->dt * r / c->frame_time; /* table frames per walker frame */
    if (w->dt != w->window_dt) { /* (counted again only when the frame time changes) */
        w->window_dt = w->dt;
        w->hip_window = akw_hip_window(w->dt);
    }
    const int32_t win = w->hip_window;
    float least = table_accel_at(a, n, loop, u, r, dr);
    for (int32_t k = 1; k < win;
         ++k) { /* fminf(least, v) inline: least < v ? least : v, NaN aside */
        const float v = table_accel_at(a, n, loop, u + (float)k * step, r, dr);
        least = least < v || v != v ? least : v;
    }
    return least;
}

/* The direction of travel, world (the heading plus the clip's travel heading). */
static ak_vec3 travel_dir(const ak_walker *w)
{
    const float a = w->heading + w->m->travel_heading;
    return akv_make(sinf(a), 0.0f, cosf(a));
}

/* The direction the shorter stride shortens along, world: the guide's travel (its heading plus
 * the clip's travel heading) while the loop plays, without the pelvis's periodic wiggle the
 * character's heading carries (clip_wiggle): shortened along a wiggling heading, a heel far
 * ahead of the character swept sideways as the heading turned, 0.33 m/s at CMU 02_02's landing
 * up the stairs (step scale 0.63) where the clip moves it 0.19. A segment turns the character
 * with its own root: there the character's heading. */
static ak_vec3 stride_dir(const ak_walker *w)
{
    if (w->play != AK_WALKER_PLAY_LOOP) return travel_dir(w);
    const float a = w->base_heading + w->m->travel_heading;
    return akv_make(sinf(a), 0.0f, cosf(a));
}

/* An offset from the character's place (world) in the shorter stride: its part along the
 * stride (stride_dir) scaled by step_scale, the part across kept (the feet stay as wide apart). */
static inline ak_vec3 gait_scaled(const ak_walker *w, ak_vec3 v)
{
    if (w->step_scale == 1.0f) return v;
    const ak_vec3 f = stride_dir(w);
    return akv_sub(v, akv_scale(f, (1.0f - w->step_scale) * akv_dot(v, f)));
}

/* Foot s moved to its place in the shorter stride: its heel's offset from the character's
 * place, along the travel, scaled by step_scale. With the root's travel scaled the same way,
 * the whole gait shortens along the travel: a planted foot stays still under the slower hips
 * (its place relative to them shrinks as they pass it), a swinging foot moves forward along
 * its captured path shortened, landing that much nearer. */
static ak_vec3 gait_shift(const ak_walker *w, int32_t s)
{
    const ak_vec3 heel = ak_foot_ik_sole(&w->fik, w->world, s);
    const ak_vec3 rel = akv_make(heel.x - w->pos.x, 0.0f, heel.z - w->pos.z);
    return akv_sub(gait_scaled(w, rel), rel);
}

/* FK of the placed pose. With foot IK the joints below each foot (toes, end sites) are left
 * out: the grounding reads each foot's own transform only, and its legs' solve runs FK over
 * each leg from the hip (solve_legs: ak_limb_ik_run), which writes them. */
static void placed_fk(ak_walker *w)
{
    const ak_skeleton *sk = w->m->skeleton;
    int32_t f0 = w->fik.legs[0].foot, f1 = w->fik.legs[1].foot;
    if (f0 > f1) {
        const int32_t f = f0;
        f0 = f1;
        f1 = f;
    }
    /* (one foot below the other: all of it) */
    if (!w->p.foot_ik || f0 < 0 || f1 < sk->subtree_end[f0]) {
        ak_fk(sk, w->local, w->world);
        return;
    }
    const int32_t e0 = sk->subtree_end[f0], e1 = sk->subtree_end[f1];
    ak_fk_range(sk, w->local, w->world, 0, f0 + 1);
    ak_fk_range(sk, w->local, w->world, e0, f1 + 1);
    ak_fk_range(sk, w->local, w->world, e1, w->J);
}

/* Places the in-place pose on the character transform and runs FK. */
static void place_pose(ak_walker *w)
{
    memcpy(w->local, w->anim, sizeof(ak_xform) * (size_t)w->J);
    ak_xform ch;
    ch.rotation = w->yaw;
    ch.translation = akv_make(w->pos.x, w->floor_y - w->m->floor_y, w->pos.z);
    w->local[0] = akx_mul(ch, w->local[0]);
    w->anim_root_y = w->local[0].translation.y - ch.translation.y;
    placed_fk(w);
}

/* The frame nearest the time of what plays: the segment's (clamped), else the cycle's. */
static int32_t cycle_frame(const ak_walker *w)
{
    const ak_walk_motion *m = w->m;
    if (w->play != AK_WALKER_PLAY_LOOP) {
        const ak_clip *c = m->segment[PLAY_SEGMENT(w->play)].clip;
        const int32_t f = (int32_t)floorf(w->seg_time / c->frame_time + 0.5f);
        return f < 0 ? 0 : (f >= c->frame_count ? c->frame_count - 1 : f);
    }
    const float dur = clip_duration(m->clip);
    const float tc = w->clip_time - floorf(w->clip_time / dur) * dur;
    const int32_t f = (int32_t)floorf(tc / m->clip->frame_time + 0.5f);
    return ((f % m->clip->frame_count) + m->clip->frame_count) % m->clip->frame_count;
}

void akw_held_offset(ak_vec3 *held, ak_vec3 *held_lift, int32_t stance, float u, float dS,
                     ak_vec3 f, ak_vec3 rel)
{
    if (stance || u >= 0.5f) {
        if (stance) *held_lift = *held;
        if (dS == 0.0f) return;
        const float along = rel.x * f.x + rel.z * f.z;
        *held = akv_sub(*held, akv_scale(f, dS * along));
        if (stance) *held_lift = *held;
        return;
    }
    const float k = 1.0f - 2.0f * u;
    *held = akv_scale(*held_lift, k * k * (3.0f - 2.0f * k));
}

/* Foot s's held offset (akw_held_offset) after a change dS of the step scale: a planted foot's
 * heel, or a swinging foot's landing heel (the clip's, from halfway through the swing), seen
 * from the character along the travel. */
static void held_offset(ak_walker *w, int32_t s, float dS)
{
    const float u = w->play_phase[s][w->frame_index];
    ak_vec3 f = akv_make(0, 0, 0), rel = akv_make(0, 0, 0);
    if ((w->stance[s] || u >= 0.5f) && dS != 0.0f) {
        f = stride_dir(w);
        const ak_vec3 heel =
            w->stance[s] ? ak_foot_ik_sole(&w->fik, w->world, s)
                         : akv_add(w->pos, akq_rotate(w->yaw, w->play_land[s][w->frame_index]));
        rel = akv_make(heel.x - w->pos.x, 0.0f, heel.z - w->pos.z);
    }
    akw_held_offset(&w->held[s], &w->held_lift[s], w->stance[s], u, dS, f, rel);
}

/* Whether foot s is planted and held by its lock (the grounding's, last frame: the frame's
 * lock is taken in the solve), its animation then shown there (hold_planted_feet). */
static int held_at_lock(const ak_walker *w, int32_t s)
{
    const ak_foot_ik_state *st = &w->fst;
    return w->p.foot_ik && w->fik.lock_feet && st->initialized && w->stance[s] &&
           st->was_stance[s] && st->lock_weight[s] >= 1.0f && !st->released[s];
}

/* The weight left of a swinging foot's stop offset taken at swing phase u0, at phase u: 1 down
 * to 0 (a smoothstep) over the first three quarters of the swing left. */
static float stop_fade(float u, float u0)
{
    const float x = u0 < 1.0f ? (1.0f - u) / (1.0f - u0) : 0.0f;
    const float k = akf_clamp((x - 0.25f) / 0.75f, 0.0f, 1.0f);
    return k * k * (3.0f - 2.0f * k);
}

/* Swinging foot s at the time that plays, between its frames (the nearest frame repeats as a
 * stop slows the clip): its swing phase (*u) and the clip's travel left until it lands (*d,
 * along the travel, world: where its landing is seen from now less where it is seen from the
 * landing frame, the heel then, both turned as the character is now; 0 with no landing ahead
 * in what plays). */
static void swing_now(ak_walker *w, int32_t s, float *u, float *d)
{
    const int loop = w->play == AK_WALKER_PLAY_LOOP;
    const ak_clip *clip = loop ? w->m->clip : w->m->segment[PLAY_SEGMENT(w->play)].clip;
    const int32_t n = clip->frame_count;
    const float dur = clip_duration(clip);
    float t = loop ? w->clip_time - floorf(w->clip_time / dur) * dur : w->seg_time;
    t = akf_clamp(t / clip->frame_time, 0.0f, (float)(n - 1));
    const int32_t f0 = (int32_t)floorf(t), f1 = loop ? (f0 + 1) % n : akf_min(f0 + 1, n - 1);
    const float a = t - (float)f0, u0 = w->play_phase[s][f0];
    /* (the next frame in stance: the swing ends there) */
    const int swing1 = !w->play_contacts[s][f1];
    *u = u0 + a * ((swing1 ? w->play_phase[s][f1] : 1.0f) - u0);
    *d = 0.0f;
    /* (the landing frame: the one found from an earlier frame of this swing, or the next
     * frame in stance; the loop wraps) */
    int32_t land = w->land_at[s];
    const int32_t from = w->land_from[s];
    const int same =
        w->land_play[s] == w->play && land >= 0 &&
        (loop ? (f0 - from + n) % n <= (land - from + n) % n : f0 >= from && f0 <= land);
    if (!same) {
        land = -1;
        for (int32_t i = 1; i < n && land < 0; ++i) {
            const int32_t f = loop ? (f0 + i) % n : f0 + i;
            if (f >= n) break;
            if (w->play_contacts[s][f]) land = f;
        }
        w->land_play[s] = w->play;
        w->land_from[s] = f0;
        w->land_at[s] = land;
    }
    if (land < 0) return;
    const ak_vec3 *l = w->play_land[s];
    /* (f1 in stance is the landing frame; the travel direction turned as the character is) */
    *d = akv_dot(akv_sub(akv_lerp(l[f0], l[f1], a), l[land]), w->travel_local);
}

/* A stop's travel is scaled (stop_scale) to end on the target while the clip plays on: a foot
 * planted meanwhile is shown where it stands (hold_planted_feet), and a swinging foot, moved with
 * the character, would come down still moving at (stop_scale - 1) of the clip's travel speed. It
 * goes instead that much farther over the swing: at swing phase u, a smoothstep of u of the
 * travel d left to its landing (along f, the travel), so it lands where it would, at the
 * clip's own speed. It would also leave the ground at that extra speed: it stays back by
 * (stop_scale - 1) of the travel since its share began (d0 - d: at lift-off, or where the stop
 * began in its swing) until a quarter of the swing, then catches up by three quarters
 * (smoothstep), while high. Carried from lift-off, the built-in clip's toe on the tests'
 * heightmap (scale 1.28) moved 0.175 m/s at 4.3 mm up, where the clip's moves 0.026. */
static ak_vec3 stop_shift(const ak_walker *w, ak_vec3 f, float stop, float u, float d, float d0)
{
    const float g = u * u * (3.0f - 2.0f * u);
    float lag = 0.0f; /* (the travel since its share began, kept off until it is caught up) */
    if (u < 0.75f) {
        const float k = akf_clamp((u - 0.25f) / 0.5f, 0.0f, 1.0f);
        lag = (1.0f - k * k * (3.0f - 2.0f * k)) * (d0 - d);
    }
    return akv_scale(f, (stop - 1.0f) * w->step_scale * (g * d - lag));
}

/* This frame's placement shift of each foot: held in stance, in swing a glide (over the
 * second half of the swing) from where the stance left it to the decided target; plus, with
 * shorter steps, the foot's shift to its place in the shorter stride (gait_shift) and the
 * offset that keeps the scale's changes off planted feet and decided landings (held_offset);
 * a planted foot's animated place is where it is held (hold_planted_feet); stopping, a swinging
 * foot's share of the stop's scaled travel (stop_shift); settling, a foot in the air leaves
 * all but its placement as the settle pose comes in. */
static void placement_shift(ak_walker *w)
{
    const float dS = w->step_scale - w->placed_scale;
    w->placed_scale = w->step_scale;
    const float stop = stopping(w) ? w->stop_scale : 1.0f, d_stop = stop - w->placed_stop;
    w->placed_stop = stop;
    const int settling = stopping(w) && w->stop_left <= 0.0f;
    for (int s = 0; s < 2; ++s) {
        const float u = w->play_phase[s][w->frame_index];
        if (w->stance[s]) {
            w->place_from[s] = w->place_now[s];
            w->place_decided[s] = w->place_probe[s] = 0;
            w->stop_held[s] = akv_make(0, 0, 0);
            w->stop_held_u[s] = 0.0f;
            w->stop_d0_set[s] = 0;
            w->held_now[s] = held_at_lock(w, s);
            if (w->held_now[s]) continue; /* (hold_planted_feet, after the query) */
        } else {
            w->held_now[s] = 0;
            const ak_vec3 to = w->place_decided[s] ? w->place_target[s] : w->place_from[s];
            w->place_now[s] = ak_foot_place_glide(w->place_from[s], to, u, w->place_end[s]);
        }
        held_offset(w, s, dS);
        ak_vec3 gs = w->step_scale != 1.0f ? gait_shift(w, s) : akv_make(0, 0, 0);
        float us = 0.0f; /* (a swinging foot's phase between frames) */
        if (!w->stance[s] && (stop != 1.0f || d_stop != 0.0f || w->stop_held[s].x != 0.0f ||
                              w->stop_held[s].z != 0.0f)) {
            float d;
            swing_now(w, s, &us, &d);
            /* (the most seen this swing: the first frame's d can still read the last landing) */
            if (!w->stop_d0_set[s] || d > w->stop_d0[s]) {
                w->stop_d0[s] = d;
                w->stop_d0_set[s] = 1;
            }
            /* (faded since last frame; a change of the stop's scale kept off, then faded) */
            const float was = stop_fade(w->stop_held_u[s], w->stop_held_u0[s]);
            const float now = stop_fade(us, w->stop_held_u0[s]);
            w->stop_held[s] =
                was > 0.0f ? akv_scale(w->stop_held[s], now / was) : akv_make(0, 0, 0);
            const ak_vec3 f = akq_rotate(w->yaw, w->travel_local),
                          sh = stop_shift(w, f, stop, us, d, w->stop_d0[s]);
            if (d_stop != 0.0f) {
                if (!(now > 0.0f) || us < w->stop_held_u[s] ||
                    (w->stop_held[s].x == 0.0f && w->stop_held[s].z == 0.0f))
                    w->stop_held_u0[s] = us;
                w->stop_held[s] =
                    akv_sub(w->stop_held[s],
                            akv_sub(sh, stop_shift(w, f, stop - d_stop, us, d, w->stop_d0[s])));
            }
            gs = akv_add(gs, akv_add(sh, w->stop_held[s]));
        }
        w->stop_held_u[s] = us;
        ak_vec3 off = akv_add(gs, w->held[s]);
        if (settling)
            off = akv_scale(off, 1.0f - w->idle_w * w->idle_w * (3.0f - 2.0f * w->idle_w));
        w->fst.shift[s] = akv_add(w->place_now[s], off);
    }
}

/* A foot planted and locked is shown where the grounding holds it: its shift (and held offset,
 * which its swing then sheds by mid-swing, akw_held_offset) puts its animated heel, or its toe
 * when the lock holds the toe, on the lock's point. Else whatever moved the animation off the
 * lock during the stance (a stop's travel scaled to end on its target, 116 mm on the built-in
 * clip's last step on the tests' heightmap; a landing the grounding shortened, 37 mm) was
 * slid out along the ground as the lock let go at lift-off (0.96 m/s, heel 1.6 mm up). After
 * the query (w->feet: each foot's up axis and ankle-to-toe offset as animated), whose points
 * for a locked foot are the lock's. */
static void hold_planted_feet(ak_walker *w)
{
    for (int s = 0; s < 2; ++s) {
        if (!w->held_now[s]) continue;
        const ak_foot_ik_leg *l = &w->fik.legs[s];
        const ak_vec3 ankle = w->world[l->foot].translation;
        const ak_vec3 heel = akv_sub(ankle, akv_scale(w->feet.up[s], l->sole_height));
        const ak_vec3 a =
            w->fst.lock_toe[s] && l->has_toe ? akv_add(ankle, w->feet.toe_off[s]) : heel;
        const ak_vec3 at = w->fst.lock_point[s];
        w->fst.shift[s] = akv_make(at.x - a.x, 0.0f, at.z - a.z);
        /* (the held offset the swing starts from: the shift less the placement and, with
         * shorter steps, the gait's shift, gait_shift's of the animated heel) */
        ak_vec3 h = akv_sub(w->fst.shift[s], w->place_now[s]);
        if (w->step_scale != 1.0f) {
            const ak_vec3 f = stride_dir(w);
            const float along = (heel.x - w->pos.x) * f.x + (heel.z - w->pos.z) * f.z;
            h = akv_add(h, akv_scale(f, (1.0f - w->step_scale) * along));
        }
        w->held[s] = w->held_lift[s] = akv_make(h.x, 0.0f, h.z);
    }
}

static void run_placements(ak_walker *w, const ak_ground_hit *hits);

/* A swinging foot whose landing heel and toe rays find ground a step apart would land across
 * an edge, or so near one that pushing off carries the heel back over it into the riser behind
 * (the heel ray looks LAND_HEEL_MARGIN behind the heel): ak_foot_place_decide moves the landing
 * back (the shorter step, which the legs reach) or, going up with the edge just behind the
 * heel, a little forward; a run going up steps onto the tread (run_placements). Decided from
 * halfway through the swing, checked again (the rays follow the decision) until three
 * quarters. */
static void decide_placement(ak_walker *w, const ak_ground_hit *hits)
{
    for (int s = 0; s < 2; ++s) {
        if (!w->fik.legs[s].has_toe || !toe_ray_at_landing(w, s)) {
            if (w->place_probe[s] == 1) w->place_probe[s] = 0; /* a probe the swing outran */
            continue;
        }
        ak_foot_place_decide(&hits[LANDING_RAY(s)], &hits[TOE_RAY(s)], w->land_ray[s],
                             w->land_toe_ray[s], w->land[s], w->land_toe[s], LAND_HEEL_MARGIN,
                             &w->place_target[s], &w->place_decided[s], &w->place_probe[s]);
    }
    if (w->run_gait) run_placements(w, hits);
}

/* The slope of ground hit h along the direction f (rise over run; 0 without a hit). */
static float slope_along(const ak_ground_hit *h, ak_vec3 f)
{
    return h->hit && h->normal.y > 1e-3f ? -(h->normal.x * f.x + h->normal.z * f.z) / h->normal.y
                                         : 0.0f;
}

/* Footholds on stairs (issue 21: a step of the clip's length, 0.65 m, on 0.5 m treads lands
 * anywhere, now and then two risers up or down at once, which folds a knee past 120 degrees).
 * Metres: the scan's coarse spacing and the edge's precision; the least rise or fall between
 * two coarse samples, beyond what their slopes carry, that is a riser (AK_FLOOR_STEP_MIN); the
 * scan's reach as fractions of the stride (the next landing of the foot that scans is a
 * stride ahead of it) plus a foot. */
#define SCAN_STEP 0.1f
#define SCAN_FINE 0.0125f
#define SCAN_FROM 0.25f
#define SCAN_TO   1.15f
#define SCAN_FOOT 0.3f

/* Where foot s's scan looks this frame (a planted foot's landing ray; SCAN_ON only). */
static ak_vec3 scan_point(const tread_scan *c)
{
    return akv_add(c->origin, akv_scale(c->dir, c->probe));
}

/* The share of a stance's frames the coarse samples may take (the rest narrow the edges). */
#define SCAN_COARSE_SHARE 0.6f

/* The coarse step of foot s's scan over `span` metres, starting now: SCAN_STEP, or wider when
 * its stance (the clip's time to its lift-off, over this frame's dt: the frames it lasts at
 * the full rate) has fewer frames than SCAN_COARSE_SHARE of them at SCAN_STEP. In time and
 * metres, not in the clip's frames: a 24 fps walk's stance is 10-13 frames, one at 120 fps
 * 55-60. */
static float scan_step(const ak_walker *w, int32_t s, float span)
{
    const int loop = w->play == AK_WALKER_PLAY_LOOP;
    const ak_clip *clip = loop ? w->m->clip : w->m->segment[PLAY_SEGMENT(w->play)].clip;
    const int32_t n = clip->frame_count;
    int32_t k = 0;
    for (int32_t f = w->frame_index; k < n && w->play_contacts[s][f]; ++k) {
        if (++f == n) {
            if (!loop) break;
            f = 0;
        }
    }
    const float dt = w->dt > 0.0f ? w->dt : clip->frame_time; /* (the first frame's is 0) */
    const float frames = (float)k * clip->frame_time / dt;
    const float coarse = floorf(SCAN_COARSE_SHARE * frames) - 1.0f;
    return coarse >= 1.0f ? akf_max(SCAN_STEP, span / coarse) : SCAN_STEP;
}

/* The edge to narrow next: the widest wider than SCAN_FINE (the nearest of equals), or -1. */
static int32_t scan_widest(const tread_scan *c)
{
    int32_t best = -1;
    float width = SCAN_FINE;
    for (int32_t k = 0; k < c->edges; ++k)
        if (c->hi[k].d - c->lo[k].d > width) best = k, width = c->hi[k].d - c->lo[k].d;
    return best;
}

/* Starts foot s's scan at the first frame of its stance and picks this frame's probe: the next
 * coarse sample until they are done, then the middle of the widest edge. */
static void scan_next(ak_walker *w, int32_t s)
{
    tread_scan *c = &w->scan[s];
    if (!w->stance[s] || c->state == SCAN_DONE || stopping(w)) return;
    if (c->state == SCAN_IDLE) {
        c->origin = w->feet.heel_q[s];
        c->dir = travel_dir(w);
        c->d = SCAN_FROM * w->m->stride_length;
        c->end = SCAN_TO * w->m->stride_length + SCAN_FOOT;
        c->step = scan_step(w, s, c->end - c->d);
        c->covered = 0.0f;
        c->has_prev = c->edges = 0;
        c->state = SCAN_ON;
    }
    c->narrow = c->d <= c->end ? -1 : scan_widest(c);
    if (c->d > c->end && c->narrow < 0) {
        c->state = SCAN_DONE;
        return;
    }
    c->probe = c->narrow < 0 ? c->d : 0.5f * (c->lo[c->narrow].d + c->hi[c->narrow].d);
}

/* Takes this frame's probe hit h into the scan. */
static void scan_take(tread_scan *c, const ak_ground_hit *h)
{
    if (!h->hit) {
        c->state = SCAN_DONE;
        return;
    }
    const scan_sample q = {c->probe, h->height, slope_along(h, c->dir)};
    if (c->narrow >= 0) {
        scan_sample *lo = &c->lo[c->narrow], *hi = &c->hi[c->narrow];
        const float dl = q.h - lo->h - lo->slope * (q.d - lo->d);
        const float dh = q.h - hi->h - hi->slope * (q.d - hi->d);
        if (fabsf(dl) <= fabsf(dh)) {
            *lo = q;
        } else {
            *hi = q;
        }
        return;
    }
    const scan_sample *p = &c->prev;
    if (c->has_prev && c->edges < SCAN_EDGES &&
        fabsf(q.h - p->h - 0.5f * (q.slope + p->slope) * (q.d - p->d)) > AK_FLOOR_STEP_MIN) {
        c->lo[c->edges] = *p;
        c->hi[c->edges] = q;
        c->edge_up[c->edges++] = q.h > p->h;
    }
    c->prev = q;
    c->has_prev = 1;
    c->covered = q.d;
    c->d = q.d + c->step;
}

/* Edge k of scan c, along the line: its middle once narrowed; wider, its near end (`near`:
 * where a riser ahead of a tread may begin) or its far end (where the tread beyond may). */
static float scan_edge(const tread_scan *c, int32_t k, int near)
{
    if (c->hi[k].d - c->lo[k].d <= SCAN_FINE) return 0.5f * (c->lo[k].d + c->hi[k].d);
    return near ? c->lo[k].d : c->hi[k].d;
}

/* Margins of a planned landing, metres: its heel ray's (LAND_HEEL_MARGIN) and 2 cm behind the
 * heel, the toe ray's 4 cm and 2 cm beyond the toe; and the room kept inside the window so a
 * landing a little off still clears both risers. */
#define PLAN_HEEL 0.04f
#define PLAN_TOE  0.06f
/* Metres: the toe's margin to a riser that rises ahead (the toe lifts off in front of it, and
 * a toe 5 cm short of a riser has gone into its corner lifting 15 cm over 4 cm of travel). */
#define PLAN_TOE_UP 0.15f
#define PLAN_TOL    0.03f
/* The least step scale a tread plan asks for (the slopes' rule stops at AK_STEP_SCALE_MIN): a
 * foot planted at the front of a tread leaves the other a short step onto the next one or a
 * long one up two risers. CMU 02_02 at 24 fps needed 0.32 for the short one and took the long
 * one at 0.5..1: hips -2.59 g, knee 111.4 deg. */
#define PLAN_SCALE_MIN 0.25f

/* The along-travel offset of swinging foot s's landing from the character in the clip's
 * stride (scale 1): the predicted landing less the held offset it sheds by mid-swing, divided
 * by the scale it was predicted with. */
static float landing_reach(const ak_walker *w, int32_t s, ak_vec3 f)
{
    const ak_vec3 l = akv_sub(w->land[s], w->held[s]);
    return ((l.x - w->pos.x) * f.x + (l.z - w->pos.z) * f.z) / w->step_scale;
}

/* The heel's place in tread window [a, b] (relative to the planted heel, along the travel)
 * nearest `natural`, PLAN_TOL inside; NAN if the window is shorter than the foot needs. */
static float window_place(float a, float b, float natural)
{
    if (b < a) return NAN;
    if (b - a <= 2.0f * PLAN_TOL) return 0.5f * (a + b);
    return akf_clamp(natural, a + PLAN_TOL, b - PLAN_TOL);
}

/* Distance d along scan c's line, seen along the travel f from point p. */
static float scan_along(const tread_scan *c, float d, ak_vec3 p, ak_vec3 f)
{
    const ak_vec3 q = akv_sub(akv_add(c->origin, akv_scale(c->dir, d)), p);
    return q.x * f.x + q.z * f.z;
}

/* The risers (edges, their near and far ends along the travel) between the planted heel and a
 * landing x ahead of it. */
static int scan_risers(int32_t edges, const float *near, const float *far, float x)
{
    int risers = 0;
    for (int32_t i = 0; i < edges; ++i) {
        const float m = 0.5f * (near[i] + far[i]);
        risers += m > 0.0f && m < x;
    }
    return risers;
}

/* The other foot's swing phase from which it counts as landing at this one's lift-off: a
 * walk's lands at 0.85-0.95 of its swing (its contact a frame or two late), a run's is in
 * mid-flight (0.61-0.69 of it). */
#define PLAN_OTHER_LANDS 0.75f

/* Where swinging foot s's heel lands: its predicted landing moved by its placement, once
 * decided (the shift its rays look with). Not its plan's target: a landing misses that when
 * the step scale lags its goal or the placement moves it off an edge (CMU 07_01 on the CLI's
 * route across the stairs: 13 cm short, so the next plan was a step of 0.89 m down the last
 * riser, not the 0.75 it meant, and the trailing leg ran out of reach: hips +1.98 g). */
static ak_vec3 landing_heel(const ak_walker *w, int32_t s)
{
    const int shifted = w->place_decided[s] && w->place_probe[s] != 1;
    return shifted ? akv_add(w->land[s], w->place_target[s]) : w->land[s];
}

/* At lift-off of foot s with the other down or landing (a walk): the tread it lands on, from
 * its scan. A run (the other foot in mid-flight) plans nothing: runs at 120 fps never finished
 * a scan at 0.1 m (a stance of 0.25 s), and once they did (scan_step), 02_03 on the stairs
 * went to -6.9..+8.7 g and a knee of 155 deg on some starts, its steps shortened in flight.
 * Every tread between the risers found whose window (PLAN_HEEL behind the heel, the foot and
 * PLAN_TOE ahead) a step of scale PLAN_SCALE_MIN..1 reaches is a candidate; the one a
 * single riser or none away is preferred, then the longest step. A step up or down a riser
 * reaches at most the clip's mean step (half its stride) where the landing the hips would
 * carry is longer (after a shortened step the hips run ahead of the planted heel: 07_01
 * mirrored at 30 fps went 0.93 m from its heel up onto the stairs' landing, the trailing leg
 * ran out of reach and the hips fell at -1.95 g). No riser in reach, a scan short of the
 * natural landing, or no candidate: no plan (the slope's goal holds). */
static void plan_foothold(ak_walker *w, int32_t s)
{
    const tread_scan *c = &w->scan[s];
    const int o = 1 - s;
    w->plan[s] = PLAN_OFF;
    if (c->state == SCAN_IDLE || c->edges == 0 || stopping(w)) return;
    if (!w->stance[o] && w->play_phase[o][w->frame_index] < PLAN_OTHER_LANDS) {
        w->plan[s] = PLAN_RUN;
        return;
    }
    /* (the other foot's heel, or where it will land: the risers between count) */
    const ak_vec3 f = travel_dir(w);
    const ak_vec3 p = w->stance[o] ? w->feet.heel_q[o] : landing_heel(w, o);
    const float reach = landing_reach(w, s, f);
    const ak_vec3 dt = akv_sub(w->land_toe[s], w->land[s]);
    const float len = dt.x * f.x + dt.z * f.z;
    if (!(reach > 0.05f)) return;
    const float at = (w->pos.x - p.x) * f.x + (w->pos.z - p.z) * f.z;
    const float natural = at + reach, least = at + PLAN_SCALE_MIN * reach;
    const float mean = 0.5f * w->m->stride_length;
    /* (each edge's near and far end along the travel from p: the same once narrowed) */
    float near[SCAN_EDGES + 1], far[SCAN_EDGES];
    for (int32_t k = 0; k < c->edges; ++k) {
        near[k] = scan_along(c, scan_edge(c, k, 1), p, f);
        far[k] = scan_along(c, scan_edge(c, k, 0), p, f);
    }
    near[c->edges] = scan_along(c, c->covered, p, f);
    if (near[c->edges] < natural + len + PLAN_TOE) return;
    float best = NAN;
    int best_risers = 0;
    for (int32_t k = 0; k <= c->edges; ++k) {
        const float a = (k == 0 ? -1e3f : far[k - 1]) + PLAN_HEEL;
        const float b =
            (k == c->edges ? 1e3f : near[k] - (c->edge_up[k] ? PLAN_TOE_UP : PLAN_TOE)) - len;
        float x = window_place(a, b, natural);
        int risers = scan_risers(c->edges, near, far, x);
        if (risers > 0 && natural > mean) x = window_place(a, b, akf_max(mean, least));
        if (!(x >= least && x <= natural + 1e-4f)) continue;
        risers = scan_risers(c->edges, near, far, x);
        const int better = isnan(best) || (risers <= 1) > (best_risers <= 1) ||
                           ((risers <= 1) == (best_risers <= 1) && x > best);
        if (better) best = x, best_risers = risers;
    }
    if (isnan(best)) return;
    w->plan_target[s] = akv_add(p, akv_scale(f, best));
    w->plan_goal[s] = w->step_scale;
    w->plan[s] = PLAN_SET;
}

/* A run's landing moved back off a riser it would straddle going up (ak_foot_place_decide:
 * a foot and 5 cm, 0.15 m) leaves the foot that far behind where the clip has it under the
 * hips, and pushing off its toe runs out of reach while the clip still stands on it (CMU 09_01
 * and 09_02 up the stairs: the toe lifted 57-125 mm straight up, the other foot landing
 * 1.3 m ahead three risers higher). A runner steps onto the tread: the landing moves ahead,
 * PLAN_HEEL past the riser its foot's last scan (in its stance before) found there, if the
 * foot and PLAN_TOE_UP fit before the next riser found. *target: that placement shift (world
 * x, z). 0: no riser up under the foot (the first one it straddles goes down), or no room. */
static int run_step_up(const ak_walker *w, int32_t s, ak_vec3 *target)
{
    const tread_scan *c = &w->scan[s];
    if (w->plan[s] != PLAN_RUN || c->state != SCAN_IDLE || c->edges == 0) return 0;
    const ak_vec3 f = travel_dir(w), p = w->land[s];
    const ak_vec3 foot = akv_sub(w->land_toe[s], p);
    const float len = foot.x * f.x + foot.z * f.z;
    for (int32_t k = 0; k < c->edges; ++k) {
        /* (a riser between the heel ray and PLAN_TOE beyond the toe) */
        const float near = scan_along(c, scan_edge(c, k, 1), p, f);
        const float far = scan_along(c, scan_edge(c, k, 0), p, f);
        if (far < -LAND_HEEL_MARGIN || near > len + PLAN_TOE) continue;
        if (!c->edge_up[k]) return 0;
        const float x = far + PLAN_HEEL;
        /* (beyond the last riser found, the landing rays check the tread: run_placements) */
        if (k + 1 < c->edges) {
            const float next = scan_along(c, scan_edge(c, k + 1, 1), p, f);
            if (x + len > next - (c->edge_up[k + 1] ? PLAN_TOE_UP : PLAN_TOE)) return 0;
        }
        *target = akv_scale(f, x);
        return 1;
    }
    return 0;
}

/* A run's landings as ak_foot_place_decide decided them this frame: one it moved back going up
 * (probing under the heel: place_probe 1) steps onto the tread instead (run_step_up; its heel
 * ray then under the heel: place_probe PLACE_AHEAD); one moved ahead goes back where the rays
 * find an edge there too (the tread shorter than the foot, beyond the scan). */
static void run_placements(ak_walker *w, const ak_ground_hit *hits)
{
    for (int s = 0; s < 2; ++s) {
        if (!w->fik.legs[s].has_toe || !toe_ray_at_landing(w, s)) continue;
        ak_vec3 *t = &w->place_target[s];
        if (w->place_probe[s] == PLACE_AHEAD) {
            ak_vec3 back = akv_make(0, 0, 0);
            int32_t decided = 0;
            ak_foot_place_decide(&hits[LANDING_RAY(s)], &hits[TOE_RAY(s)], w->land_ray[s],
                                 w->land_toe_ray[s], w->land[s], w->land_toe[s], LAND_HEEL_MARGIN,
                                 &back, &decided, NULL);
            if (back.x != 0.0f || back.z != 0.0f) {
                *t = back;
                w->place_probe[s] = 0;
            }
        } else if (w->place_probe[s] == 1 && run_step_up(w, s, t)) {
            w->place_probe[s] = PLACE_AHEAD;
        }
    }
}

/* The scans and plans of this frame's hits: a planted foot's scan takes its probe; a foot
 * that has just lifted plans its landing, and its scan starts anew with its next stance. */
static void footholds(ak_walker *w, const ak_ground_hit *hits)
{
    for (int s = 0; s < 2; ++s) {
        if (w->stance[s]) {
            if (w->scan[s].state == SCAN_ON) scan_take(&w->scan[s], &hits[LANDING_RAY(s)]);
            w->plan[s] = PLAN_NONE;
            continue;
        }
        if (w->plan[s] == PLAN_NONE) plan_foothold(w, s);
        w->scan[s].state = SCAN_IDLE;
    }
}

/* The step scale that lands swinging foot s on its planned tread: while its landing is still
 * to decide (the first half of the swing, held_offset), the scale that carries the predicted
 * landing there; then the last one asked, held. */
static float foothold_goal(ak_walker *w, int32_t s)
{
    if (w->play_phase[s][w->frame_index] >= 0.5f) return w->plan_goal[s];
    const ak_vec3 f = travel_dir(w);
    const float reach = landing_reach(w, s, f);
    const ak_vec3 t = w->plan_target[s];
    const float want = (t.x - w->pos.x) * f.x + (t.z - w->pos.z) * f.z;
    if (reach > 0.05f) w->plan_goal[s] = akf_clamp(want / reach, PLAN_SCALE_MIN, 1.0f);
    return w->plan_goal[s];
}

/* The least clearance foot IK keeps each heel and toe of a foot not planted at over the ground
 * (akf_foot_points.point_clear): the cycle frame playing's own (ak_walk_motion.point_clear). */
static void feet_clearance(ak_walker *w)
{
    /* (each point of a swinging foot at least as high over its floor as the cycle frame
     * playing lifts it, also while the stand pose blends in or out: a blend of the two
     * poses' leg rotations carries the foot lower than either, and CMU 07_01's first step
     * out of it held its heel at the ground, 26 mm below its lowest in the cycle, at up to
     * 3.2 m/s. Not while standing before the start; in the settle, where the clip no longer
     * plays and the settle pose carries the foot to its place (smoothstep: the distance
     * left falls as the square of the time left), by the square root of the settle left,
     * so the foot comes down as it gets there: held at its frame's lift to the end, CMU
     * 16_11's dropped 12.7 cm in a frame, and falling with the settle left it slid 0.86
     * m/s at the ground) */
    const float moving = w->rate > 0.0f ? 1.0f : stopping(w) ? sqrtf(1.0f - w->idle_w) : 0.0f;
    const float *clear = w->play == AK_WALKER_PLAY_LOOP && w->m->point_clear
                             ? w->m->point_clear + 4 * w->frame_index
                             : NULL;
    for (int s = 0; s < 2 && w->feet.has_point_floor; ++s)
        for (int p = 0; p < 2; ++p)
            w->feet.point_clear[s][p] = clear ? clear[2 * s + p] * moving : 0.0f;
}

/* Without foot IK the feet stay as posed: ak_foot_ik_query_points' points for a state that
 * never ran (heel and toe shifted by the placement), except that a planted toe's ray goes
 * exactly under the toe instead of under the heel plus the heel-to-toe offset (the same point
 * up to rounding), so the toe's ground is that hit, not one more query. The posed heel and toe
 * are kept: the ground under them is read after the frame (which only moves them vertically). */
static void anim_foot_points(ak_walker *w)
{
    for (int s = 0; s < 2; ++s) {
        const ak_vec3 d = akv_make(w->fst.shift[s].x, 0.0f, w->fst.shift[s].z);
        w->anim_sole[s] = ak_foot_ik_sole(&w->fik, w->world, s);
        w->anim_toe[s] =
            w->fik.legs[s].has_toe ? ak_foot_ik_toe(&w->fik, w->world, s) : w->anim_sole[s];
        const ak_vec3 a = akv_add(w->anim_sole[s], d), t = akv_add(w->anim_toe[s], d);
        w->feet.heel_q[s] = a;
        w->feet.toe_q[s] = w->stance[s] && w->fik.legs[s].has_toe
                               ? t
                               : akv_make(a.x + t.x - a.x, t.y, a.z + t.z - a.z);
    }
}

int32_t ak_walker_ground_rays(ak_walker *w, ak_ground_ray *rays, int32_t capacity)
{
    if (!w || !rays || capacity < AK_WALKER_RAY_COUNT) return AK_WALKER_RAY_COUNT;
    if (!w->position_set) { /* 8, without the engine's controller */
        const float dx = w->desired.x, dz = w->desired.z;
        w->path_length += sqrtf(dx * dx + dz * dz);
        w->pos.x += dx;
        w->pos.z += dz;
        w->position_set = 1;
    }
    place_pose(w); /* 9 */
    w->frame_index = cycle_frame(w);
    placement_shift(w);
    if (w->p.foot_ik) {
        akf_foot_ik_query(&w->fik, &w->fst, w->world, &w->feet);
        hold_planted_feet(w);
        w->feet_set = 1;
        feet_clearance(w);
    } else {
        anim_foot_points(w);
    }
    rays[AK_WALKER_RAY_CENTRE] = akg_ray_down(w->pos, 2.0f, 6.0f);
    /* A planted foot's rays go under its heel and toe; a swinging foot's under where its heel
     * and toe will land (the clip's landing points seen from now, moved by the placement). */
    const ak_quat yaw = w->yaw;
    const int32_t f = w->frame_index;
    for (int s = 0; s < 2; ++s) {
        /* (a probe looks where the clip lands the foot) */
        const ak_vec3 shift =
            w->place_decided[s] && w->place_probe[s] != 1 ? w->place_target[s] : akv_make(0, 0, 0);
        /* (with shorter steps the whole stride is shorter: the landing too, along the travel) */
        const ak_vec3 rel = gait_scaled(w, akq_rotate(yaw, w->play_land[s][f]));
        const ak_vec3 rel_toe = gait_scaled(w, akq_rotate(yaw, w->play_land_toe[s][f]));
        /* (and moved by the held offset: a decided landing stays where it was decided) */
        const ak_vec3 h = w->held[s];
        w->land[s] = akv_make(w->pos.x + rel.x + h.x, w->floor_y + rel.y, w->pos.z + rel.z + h.z);
        w->land_toe[s] = akv_make(w->pos.x + rel_toe.x + h.x, w->floor_y + rel_toe.y,
                                  w->pos.z + rel_toe.z + h.z);
        rays[FOOT_RAY(s)] = akg_ray_down(w->feet.heel_q[s], 1.0f, 3.0f);
        /* The landing toe ray looks 4 cm beyond the toe (ak_foot_place_toe_ray), the heel ray
         * LAND_HEEL_MARGIN behind the heel unless probing (ak_foot_place_decide). */
        const ak_vec3 d = akv_sub(w->land_toe[s], w->land[s]);
        const float len = sqrtf(d.x * d.x + d.z * d.z),
                    m = w->place_probe[s] ? 0.0f : LAND_HEEL_MARGIN;
        w->land_behind[s] =
            len > 1e-3f ? akv_make(d.x / len * m, 0.0f, d.z / len * m) : akv_make(0, 0, 0);
        w->land_ray[s] = akv_sub(akv_add(w->land[s], shift), w->land_behind[s]);
        w->land_toe_ray[s] = ak_foot_place_toe_ray(w->land[s], w->land_toe[s], shift);
        scan_next(w, s);
        const int scanning = w->stance[s] && w->scan[s].state == SCAN_ON;
        rays[LANDING_RAY(s)] =
            akg_ray_down(scanning ? scan_point(&w->scan[s]) : w->land_ray[s], 1.5f, 3.5f);
        ak_vec3 ahead;
        if (toe_ray_ahead(w, s, &ahead)) {
            akf_foot_points *ft = &w->feet;
            ft->ahead_last_at[s] = ft->ahead_at[s];
            ft->ahead_last_hit[s] = ft->ahead_hit[s]; /* (hit 0 unless it looked ahead) */
            ft->ahead_at[s] = ahead;
            ft->ahead_hit[s].hit = 1; /* (the hit goes here, walker_finish) */
            ft->heel_last_at[s] = w->fst.heel_ray[s];
            ft->heel_last_hit[s] = w->fst.heel_hit[s];
        } else {
            w->feet.ahead_hit[s].hit = 0;
        }
        rays[TOE_RAY(s)] =
            akg_ray_down(toe_ray_at_landing(w, s) ? w->land_toe_ray[s] : ahead, 1.0f, 3.0f);
    }
    return AK_WALKER_RAY_COUNT;
}

/* The animation's floor goes on the ground that carries the character: the mean of each
 * foot's foothold — the ground a planted foot stands on, and for a swinging foot a glide from
 * the ground it left to the ground it will land on. It follows that support through a
 * critically damped spring (omega = 1/ground_smoothing), so it changes smoothly, step by step
 * with a continuous velocity, never when the centre crosses a stair edge. Climbing, the
 * ground's climb rate (the slope under both heels along this frame's move, per second; 0 on
 * treads and going down) is fed forward as the goal's rate, so the floor keeps up with the
 * footholds instead of lagging 2 rate / omega behind: 9 cm on the tests' heightmap's 40 % climb
 * at 0.46 m/s, the animation so low under the ground rising ahead that the swinging knee's
 * limit held feet on it (CMU 02_02 at 30 fps, 3.27 m/s within 5 mm of the ground; at 120 fps
 * 1.65; now 0.24 and 0.29). Going down the lag leaves the floor above the ground, where the
 * hips' plan lowers them for each landing (footik.c pelvis_drop feeds a rising floor alone);
 * fed there too, CMU 02_02's landing heels came lower on the hills (0.30 m/s, bound 0.29).
 * Without foot IK (no knee's limit, no hips' plan) the floor follows as before. */
static void update_floor(ak_walker *w, const ak_ground_hit *hits, const ak_ground_hit *land,
                         float ground_y)
{
    float support = 0.0f;
    for (int s = 0; s < 2; ++s)
        support += 0.5f * ak_floor_support(&w->foothold[s], &w->has_foothold[s], w->stance[s],
                                           &hits[FOOT_RAY(s)], &land[s],
                                           w->play_phase[s][w->frame_index], ground_y, 1);
    float climb = 0.0f; /* (the heels' mean ground normal's slope along the move, per second) */
    const ak_ground_hit *h0 = &hits[FOOT_RAY(0)], *h1 = &hits[FOOT_RAY(1)];
    if (w->p.foot_ik && h0->hit && h1->hit && (w->desired.x != 0.0f || w->desired.z != 0.0f)) {
        const float nx = h0->normal.x + h1->normal.x, nz = h0->normal.z + h1->normal.z,
                    ny = h0->normal.y + h1->normal.y;
        const float rise = -(nx * w->desired.x + nz * w->desired.z);
        if (rise > 0.0f && ny > 1e-3f && w->dt > 0.0f) climb = rise / (ny * w->dt);
    }
    ak_floor_follow_climb(&w->floor_y, &w->floor_v, support, climb, w->p.ground_smoothing, w->dt,
                          w->initialized);
}

/* The ground where each swinging heel lands: the landing ray's plane (it may look
 * LAND_HEEL_MARGIN behind the heel) carried to the heel. */
static void landing_ground(const ak_walker *w, const ak_ground_hit *hits, ak_ground_hit land[2])
{
    for (int s = 0; s < 2; ++s) {
        land[s] = hits[LANDING_RAY(s)];
        const ak_vec3 b = w->land_behind[s];
        if (land[s].hit && land[s].normal.y > 1e-3f)
            land[s].height -= (land[s].normal.x * b.x + land[s].normal.z * b.z) / land[s].normal.y;
    }
}

float akw_step_scale_goal(const ak_ground_hit *land, const ak_ground_hit *planted, ak_vec3 f,
                          float step, float leg)
{
    const float grade = fabsf(0.5f * (slope_along(land, f) + slope_along(planted, f)));
    const float rise = grade * step, most = AK_STEP_RISE_MAX * leg;
    return rise > most ? akf_max(most / rise, AK_STEP_SCALE_MIN) : 1.0f;
}

void akw_step_scale_follow(float *scale, float *rate, float goal, float dt)
{
    ak_spring1 k = {*scale, *rate};
    aks_spring_step(&k, goal, 0.0f, 1.0f / AK_STEP_SCALE_SMOOTHING, dt);
    *scale = k.x;
    *rate = k.v;
}

/* The step scale for the slope a step is taken on: the mean of the ground's slope along the
 * travel under the planted heel and where the swinging heel will land (the surface normals: a
 * stair's treads are level, its steps are the stairs' own business). A step of the clip's
 * length (half its stride) rising or falling more than AK_STEP_RISE_MAX of the leg on that slope
 * is shortened to that rise; 1 otherwise. Continuous in the hits (no threshold a last bit
 * could flip). Kept while no foot swings over a planted one, and once stopping. */
static float step_goal_of(ak_walker *w, const ak_ground_hit *hits, const ak_ground_hit *land)
{
    if (stopping(w)) return w->step_goal;
    float goal = w->step_goal;
    for (int s = 0; s < 2; ++s) {
        const int o = 1 - s;
        if (!w->stance[s] && w->plan[s] == PLAN_SET) {
            goal = foothold_goal(w, s);
            continue;
        }
        if (w->stance[s] || !w->stance[o] || !land[s].hit || !hits[FOOT_RAY(o)].hit) continue;
        const float leg = 0.5f * (w->m->leg_length[0] + w->m->leg_length[1]);
        goal = akw_step_scale_goal(&land[s], &hits[FOOT_RAY(o)], travel_dir(w),
                                   0.5f * w->m->stride_length, leg);
    }
    return goal;
}

/* Shorter steps on steep ground (issue 21: shorten the step rather than drop the hips): the
 * root's travel while walking is scaled by step_scale, the clip plays on at its rate (the
 * cadence is kept), the planted feet stay locked, so each step covers less ground and both
 * legs keep within reach of the hips. */
static void shorter_steps(ak_walker *w, const ak_ground_hit *hits, const ak_ground_hit *land)
{
    w->step_goal = step_goal_of(w, hits, land);
    if (w->step_scale == w->step_goal && w->step_scale_v == 0.0f) return;
    if (stopping(w)) { /* held: the stop was planned with it (plan_stop) */
        w->step_scale_v = 0.0f;
        return;
    }
    akw_step_scale_follow(&w->step_scale, &w->step_scale_v, w->step_goal, w->dt);
}

/* Whether both legs' upper joints lie in the hips' subtree (so do their feet): then the foot IK
 * may take the floor's shift of that subtree into its hip drop (akf_foot_ik_solve's lift). */
static int legs_under_hips(const ak_walker *w)
{
    const int32_t h = w->fik.hips, end = w->m->skeleton->subtree_end[h];
    for (int s = 0; s < 2; ++s)
        if (w->fik.legs[s].upper < h || w->fik.legs[s].upper >= end) return 0;
    return 1;
}

/* Height at point q of the line through samples a (height ya) and b (yb), x, z: q projected
 * onto it, within the segment (its end's height beyond); *u the projection's fraction. */
static float chord_at(ak_vec3 a, float ya, ak_vec3 b, float yb, ak_vec3 q, float *u)
{
    const float dx = b.x - a.x, dz = b.z - a.z, d2 = dx * dx + dz * dz;
    *u = d2 > 1e-8f ? akf_clamp(((q.x - a.x) * dx + (q.z - a.z) * dz) / d2, 0.0f, 1.0f) : 0.0f;
    return ya + *u * (yb - ya);
}

/* The ground under a swinging toe whose ray looks at its landing (toe_ray_at_landing), asked
 * at its query point: the foot laid on the samples along its path, the heel's hit under it and
 * the landing's heel and toe hits ahead (the line through them, piece by piece), or the heel's
 * tangent plane carried there where that is higher. Smooth ground of one curvature lies between
 * a chord and a tangent (below the chord where it curves up, as a valley does; below the
 * tangent over a crest), so the toe keeps above it either way. The tangent alone, carried 12 cm
 * from the heel to the toe where a heightmap curves up, put the toe 5.0-5.6 mm into the ground
 * (7 of issue 21's 720 sweep walks, bound 5). The hit's normal is the heel's tipped along the line
 * the toe is on (the plane carries the toe from its query point to where the solve puts it). */
static ak_ground_hit laid_toe_ground(const ak_walker *w, const ak_ground_hit *hits, int32_t s)
{
    const ak_ground_hit *h = &hits[FOOT_RAY(s)], *l = &hits[LANDING_RAY(s)], *t = &hits[TOE_RAY(s)];
    ak_ground_hit g = *h;
    if (!h->hit || !(h->normal.y > 1e-3f)) {
        g.hit = 0;
        return g;
    }
    const ak_vec3 a = w->feet.heel_q[s], q = w->feet.toe_q[s];
    g.height = h->height - (h->normal.x * (q.x - a.x) + h->normal.z * (q.z - a.z)) / h->normal.y;
    if (!t->hit) return g;
    /* the pieces: heel to landing heel to landing toe (the landing heel where it lies between) */
    const ak_vec3 lb = w->land_ray[s], tb = w->land_toe_ray[s];
    float ul, uq;
    chord_at(a, h->height, tb, t->height, lb, &ul);
    ak_vec3 p0 = a, p1 = tb;
    float y0 = h->height, y1 = t->height;
    if (l->hit && ul > 0.0f && ul < 1.0f) {
        chord_at(a, h->height, tb, t->height, q, &uq);
        if (uq <= ul) {
            p1 = lb;
            y1 = l->height;
        } else {
            p0 = lb;
            y0 = l->height;
        }
    }
    const float y = chord_at(p0, y0, p1, y1, q, &uq);
    if (y > g.height) {
        g.height = y;
        g.normal = akf_two_point_normal(h->normal, p0, y0, p1, y1);
    }
    return g;
}

/* The ground under foot s's toe for the solve (foot IK): its toe ray's hit; laid_toe_ground's
 * where the ray looked at its landing; none (the heel's plane) where it looked ahead. Keeps a toe
 * ray cast ahead's hit for the grounding (toe_ray_ahead, akf_foot_points) and the solved toe before
 * this solve (its speed next frame). */
static ak_ground_hit frame_toe_ground(ak_walker *w, const ak_ground_hit *hits, int32_t s)
{
    ak_ground_hit g = hits[TOE_RAY(s)];
    /* A swinging foot's toe ray that looked at its landing: not under the toe now. */
    if (!w->fik.legs[s].has_toe)
        g.hit = 0;
    else if (toe_ray_at_landing(w, s))
        g = laid_toe_ground(w, hits, s);
    /* A toe ray cast ahead: the toe keeps above what it found too. */
    if (w->feet_set && w->feet.ahead_hit[s].hit) {
        w->feet.ahead_hit[s] = hits[TOE_RAY(s)];
        g.hit = 0;
    }
    w->toe_last[s] = w->fst.toe[s];
    w->toe_last_set[s] = w->fst.initialized;
    return g;
}

/* Seconds until what plays lifts planted foot s (its contact ends), at the playback rate: the
 * grounding's look-ahead (ak_foot_ik_frame.stance_left); 0 when nothing plays (rate 0), no
 * lift-off lies ahead in it, or the walker stops: the stop scales the character's travel over
 * the clip's (plan_stop) and holds a planted foot where its lock is, drifting from where the
 * clip has it, so the clip's time no longer says how soon the body is past the foot (CMU 07_04's
 * slow walk stopping on flat ground: its hips planned down for a trailing toe dipped 10.5 cm
 * at 1 g instead of 8.1 cm at 0.87 g, and stepped at 1/30 s and 1/120 s the walks parted,
 * -1.00 against -1.05 g). The lift-off frame is looked for once per stance and kept while the
 * frame moves on toward it (the loop wraps), as swing_now keeps a swing's landing. */
static float stance_left_now(ak_walker *w, int32_t s)
{
    const int loop = w->play == AK_WALKER_PLAY_LOOP;
    const ak_clip *clip = loop ? w->m->clip : w->m->segment[PLAY_SEGMENT(w->play)].clip;
    const int32_t n = clip->frame_count, f0 = w->frame_index;
    const float rate = loop ? w->rate : 1.0f;
    if (stopping(w) || !(rate > 0.0f) || f0 < 0 || f0 >= n || !w->play_contacts[s][f0]) return 0.0f;
    int32_t lift = w->lift_at[s];
    const int32_t from = w->lift_from[s];
    const int same = w->lift_play[s] == w->play && lift >= 0 &&
                     (loop ? (f0 - from + n) % n < (lift - from + n) % n : f0 >= from && f0 < lift);
    if (!same) {
        lift = -1;
        for (int32_t i = 1; i < n && lift < 0; ++i) {
            const int32_t f = loop ? (f0 + i) % n : f0 + i;
            if (f >= n) break;
            if (!w->play_contacts[s][f]) lift = f;
        }
        w->lift_play[s] = w->play;
        w->lift_from[s] = f0;
        w->lift_at[s] = lift;
    }
    if (lift < 0) return 0.0f;
    const int32_t frames = loop ? (lift - f0 + n) % n : lift - f0;
    return (float)frames * clip->frame_time / rate;
}

/* The grounding's frame (step 13): the character, the floor, each foot's stance, contact and
 * grounds, what it lands on and how far through its swing it is. */
static void grounding_frame(ak_walker *w, const ak_ground_hit *hits, const ak_ground_hit *land,
                            float dt, ak_foot_ik_frame *fr)
{
    fr->dt = w->initialized ? dt : 0.0f;
    fr->character.rotation = w->yaw;
    fr->character.translation = w->pos;
    fr->floor_height = w->floor_y;
    fr->stance[0] = w->stance[0];
    fr->stance[1] = w->stance[1];
    /* A foot the clip has on its toe alone is pushing off: its stance is ending, and the
     * grounding lifts it (released) once the hips leave it out of its leg's reach even
     * rolled over its toe, instead of its last resort dropping the hips to it (the
     * matcher's push_off rule). A stop's travel scaled up to end on the target (plan_stop)
     * carries the hips that much farther over a stance: CMU 07_04 at 30 fps (the cycle
     * found on the 1/120 s grid) on the held-out heightmap (scale 1.24) left its trailing toe out
     * of reach as the other foot landed, 92 ms before the clip lifts it, and the last resort pulled
     * the hips 31 mm down in 6 frames (-2.01 g, then +2.30 g); the 120 fps capture to (6.1, 4):
     * -1.38 g. */
    for (int s = 0; s < 2; ++s) {
        fr->stance_next[s] = w->stance_next[s] && w->contact[s] != AK_CONTACT_TOE;
        /* (read for a foot on its toe in single support only: looked up then) */
        fr->stance_left[s] = w->stance[s] && !w->stance[1 - s] &&
                                     (w->contact[s] == AK_CONTACT_TOE || w->fst.lock_toe[s])
                                 ? stance_left_now(w, s)
                                 : 0.0f;
    }
    for (int s = 0; s < 2; ++s) {
        fr->ground[s] = hits[FOOT_RAY(s)];
        fr->ground_toe[s] = frame_toe_ground(w, hits, s);
        fr->contact[s] = w->contact[s];
        fr->ground_land[s] = land[s];
        /* (a landing is hidden while the character stands or settles; as the idle pose
         * fades out at the start the planned hips see it, so they are down in time. A foot
         * still in the air as the walker settles comes down with the settle pose
         * (foot_contacts): its landing is the ground under its heel, so the planned hips
         * are down for it by then, not dropped at once as it lands) */
        if (w->stance[s] || (w->idle_w > 0.0f && (w->idle_w >= 1.0f || stopping(w))))
            fr->ground_land[s].hit = 0;
        if (!w->stance[s] && w->idle_w > 0.0f && stopping(w) && w->stop_left <= 0.0f)
            fr->ground_land[s] = hits[FOOT_RAY(s)];
        fr->swing_phase[s] = w->play_phase[s][w->frame_index];
        /* the settle pose reached with the foot still up: its landing is due (settle_lands) */
        if (!w->stance[s] && w->idle_w >= 1.0f && stopping(w) && w->stop_left <= 0.0f)
            fr->swing_phase[s] = 1.0f;
    }
    fr->anim_hip_accel = source_hip_accel(w);
}

static int32_t walker_finish(ak_walker *w, const ak_ground_hit *hits, int32_t count, ak_error *err)
{
    if (!w || !hits || count < AK_WALKER_RAY_COUNT)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "need %d ground hits", AK_WALKER_RAY_COUNT);
    for (int s = 0; s < 2; ++s)
        w->foot_hit[s] = hits[FOOT_RAY(s)];
    decide_placement(w, hits); /* 11 */
    ak_ground_hit land[2];
    landing_ground(w, hits, land);
    /* Character height: the controller's (when it placed us) or the centre ray's. */
    float ground_y = w->pos.y;
    if (!w->p.use_controller && hits[AK_WALKER_RAY_CENTRE].hit)
        ground_y = hits[AK_WALKER_RAY_CENTRE].height;
    w->pos.y = ground_y;
    update_floor(w, hits, land, ground_y); /* 12 */
    footholds(w, hits);
    shorter_steps(w, hits, land);
    const float step_dt = w->dt;
    /* The pose placed for the rays moves only vertically with the new floor: shift it (with
     * foot IK the hips' subtree gets it in the hip drop's pass: akf_foot_ik_solve's lift). */
    const float dy = (w->floor_y - w->m->floor_y) - w->local[0].translation.y + w->anim_root_y;
    w->local[0].translation.y += dy;
    const int lift_in_ik = w->p.foot_ik && legs_under_hips(w);
    {
        const int32_t hips = lift_in_ik ? w->fik.hips : w->J;
        const int32_t end = lift_in_ik ? w->m->skeleton->subtree_end[hips] : w->J;
        for (int32_t j = 0; j < hips; ++j)
            w->world[j].translation.y += dy;
        for (int32_t j = end; j < w->J; ++j)
            w->world[j].translation.y += dy;
    }

    if (w->p.foot_ik) { /* 13 */
        ak_foot_ik_frame fr;
        grounding_frame(w, hits, land, step_dt, &fr);
        /* w->fik was validated in ak_walker_create and does not change. */
        int32_t st =
            akf_foot_ik_solve(&w->fik, &w->fik_fixed, &w->fst, &fr, w->feet_set ? &w->feet : NULL,
                              lift_in_ik ? dy : 0.0f, w->local, w->world, err);
        w->feet_set = 0;
        if (st != AK_OK) return st;
    }
    for (int s = 0; s < 2; ++s) {
        w->sole_ground[s] = hits[FOOT_RAY(s)].hit ? hits[FOOT_RAY(s)].height : NAN;
        w->toe_ground[s] = NAN;
    }
    /* 14. Arrived without a planned stop: it stops where it is (settles at once unless a stop
     * that was called off still has clip time to go). */
    if (!stopping(w) && distance_to_target(w) <= w->p.arrival_radius) {
        w->phase = AK_WALKER_PHASE_STOP;
        rest_phase(w);
    }
    w->initialized = 1;
    return AK_OK;
}

/* Whether this frame reads the answer of ray slot i; ak_walker_step casts only those. The
 * centre ray gives the height only without the controller (which has placed the character);
 * a planted foot's landing ray is not read, nor the toe ray of a foot without a toe (a
 * swinging foot's toe ray is read in the whole swing: under the toe, or at its landing while
 * its placement is decided). */
static int ray_read(const ak_walker *w, int i)
{
    if (i == AK_WALKER_RAY_CENTRE) return !w->p.use_controller;
    if (i == LANDING_RAY(0) || i == LANDING_RAY(1))
        return !w->stance[i - LANDING_RAY(0)] || w->scan[i - LANDING_RAY(0)].state == SCAN_ON;
    if (i == TOE_RAY(0) || i == TOE_RAY(1)) return w->fik.legs[i - TOE_RAY(0)].has_toe;
    return 1;
}

/* Metres: a point this near (x, z) to where its ray was cast is that point up to the rounding
 * of world coordinates (a float's step is 7.6e-6 m from 64 m out): the solved foot ends there
 * (a planted or swinging heel, a planted toe: two of every three points, of which the exact
 * equality below caught a third). */
#define SAME_POINT 1e-5f

/* Ground height under point p: the ray's answer when p is where the ray was cast (a planted
 * point; within SAME_POINT, carried along the hit's tangent plane), else a query. NaN where
 * there is none. */
static float ground_under(const ak_ground *ground, const ak_ground_ray *ray,
                          const ak_ground_hit *hit, ak_vec3 p)
{
    if (hit->hit && p.x == ray->origin.x && p.z == ray->origin.z) return hit->height;
    const float dx = p.x - ray->origin.x, dz = p.z - ray->origin.z;
    if (hit->hit && dx * dx + dz * dz <= SAME_POINT * SAME_POINT && hit->normal.y > 1e-3f)
        return hit->height - (hit->normal.x * dx + hit->normal.z * dz) / hit->normal.y;
    ak_ground_hit h;
    return ak_ground_query(ground, p.x, p.z, &h) ? h.height : NAN;
}

static int32_t walker_step(ak_walker *w, float dt, const ak_ground *ground, ak_error *err)
{
    ak_vec3 move;
    int32_t st = walker_begin(w, dt, &move, err);
    if (st != AK_OK) return st;
    if (w->p.use_controller) {
        w->ctrl.position = ak_vec3_make(w->pos.x, w->ctrl.position.y, w->pos.z);
        ak_controller_move(&w->ctrl, ground, w->p.boxes, w->p.box_count, move, dt, NULL);
        ak_walker_set_position(w, w->ctrl.position);
    }
    ak_ground_ray rays[AK_WALKER_RAY_COUNT];
    ak_ground_hit hits[AK_WALKER_RAY_COUNT];
    ak_walker_ground_rays(w, rays, AK_WALKER_RAY_COUNT);
    for (int i = 0; i < AK_WALKER_RAY_COUNT; ++i) {
        if (!ray_read(w, i)) {
            hits[i].hit = 0;
            continue;
        }
        ak_ground_cast(ground, &rays[i], &hits[i]);
    }
    st = walker_finish(w, hits, AK_WALKER_RAY_COUNT, err);
    if (st != AK_OK) return st;
    /* Ground exactly under the final heel and toe points, for the state and the measures. */
    for (int s = 0; s < 2; ++s) {
        /* (without foot IK only x and z are read: the posed points, moved up or down since) */
        const ak_vec3 sole = w->p.foot_ik ? w->fst.sole[s] : w->anim_sole[s];
        const ak_vec3 toe = w->p.foot_ik ? w->fst.toe[s] : w->anim_toe[s];
        w->sole_ground[s] = ground_under(ground, &rays[FOOT_RAY(s)], &hits[FOOT_RAY(s)], sole);
        w->toe_ground[s] = w->fik.legs[s].has_toe
                               ? ground_under(ground, &rays[TOE_RAY(s)], &hits[TOE_RAY(s)], toe)
                               : w->sole_ground[s];
    }
    return AK_OK;
}

void ak_walker_get_state(const ak_walker *w, ak_walker_state *s)
{
    if (!w || !s) return;
    memset(s, 0, sizeof *s);
    s->time = (float)w->time;
    s->elapsed = w->time;
    const float dur = clip_duration(w->m->clip);
    s->clip_time = w->clip_time - floorf(w->clip_time / dur) * dur;
    s->cycle = w->cycle;
    s->position = w->pos;
    s->heading = w->heading;
    s->guide_heading = w->base_heading;
    s->distance = distance_to_target(w);
    s->path_length = w->path_length;
    s->arrived = stopping(w);
    /* (rest_phase: both feet down as well) */
    s->stopped = stopping(w) && w->stop_left <= 0.0f && w->idle_w >= 1.0f &&
                 w->phase == AK_WALKER_PHASE_STOPPED;
    s->idle_weight = w->idle_w;
    s->rate = w->rate;
    for (int k = 0; k < 2; ++k) {
        /* released feet in the air, heels rolled about the toe not down (the grounding's) */
        s->stance[k] = w->stance[k];
        s->contact[k] = w->contact[k];
        s->source_contact[k] = w->contact[k] & (AK_CONTACT_HEEL | AK_CONTACT_TOE);
        if (w->p.foot_ik)
            s->contact[k] =
                ak_foot_ik_shown_contact(&w->fst, k, w->stance[k], w->contact[k], &s->stance[k]);
        /* a heel the grounding lifts about the locked toe (the foot rolled) is up, not down */
        if (s->stance[k] && s->contact[k] == AK_CONTACT_TOE)
            s->source_contact[k] &= ~AK_CONTACT_HEEL;
        s->sole[k] =
            w->p.foot_ik && w->initialized ? w->fst.sole[k] : ak_foot_ik_sole(&w->fik, w->world, k);
        s->sole_ground[k] = w->sole_ground[k];
        s->toe[k] =
            w->p.foot_ik && w->initialized ? w->fst.toe[k] : ak_foot_ik_toe(&w->fik, w->world, k);
        s->toe_ground[k] = w->toe_ground[k];
        if (w->p.foot_ik && w->initialized) {
            s->tilt[k] = w->fst.tilt[k];
        } else {
            /* Without foot IK: the animated foot against the ground normal under it. */
            const ak_ground_hit *h = &w->foot_hit[k];
            const ak_vec3 up =
                akq_rotate(w->world[w->fik.legs[k].foot].rotation, w->fik.legs[k].up_local);
            const ak_vec3 n = h->hit ? h->normal : ak_vec3_make(0, 1, 0);
            float d = akv_dot(up, n) / (akv_len(up) * akv_len(n) + 1e-20f);
            d = d > 1.0f ? 1.0f : (d < -1.0f ? -1.0f : d);
            s->tilt[k] = acosf(d);
        }
    }
    s->hip_drop = w->p.foot_ik ? w->fst.applied_hip_drop : 0.0f;
}

static void shift_xz(ak_vec3 *v, int32_t n, float dx, float dz)
{
    for (int32_t i = 0; i < n; ++i) {
        v[i].x -= dx;
        v[i].z -= dz;
    }
}

/* Every world x,z the walker holds moves by -shift (heights and everything relative to the
 * character stay): the guide, start and target, the controller's capsule, the foot locks and
 * contact points, this frame's rays and queries, where the heels' queries came onto their
 * treads, the tread scans' lines and the planned footholds, the world pose and the root of the
 * local pose. In float, a shift by a whole number of metres below 2^24 m is exact at both ends, so
 * the walk goes on as if nothing moved. */
int32_t ak_walker_shift_origin(ak_walker *w, ak_vec3 shift, ak_error *err)
{
    const float bound = 1e6f; /* the coordinate bound of start and target (param_ranges.c) */
    if (!w) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null walker");
    if (!(fabsf(shift.x) <= 2.0f * bound) || !(fabsf(shift.z) <= 2.0f * bound) || shift.y != 0.0f)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "origin shift (%g, %g, %g): x and z within %g m, y 0", (double)shift.x,
                            (double)shift.y, (double)shift.z, 2.0 * (double)bound);
    if (!akb_enter(&w->busy)) return walker_busy(err, "ak_walker_shift_origin");
    const float dx = shift.x, dz = shift.z;
    shift_xz(&w->pos, 1, dx, dz);
    shift_xz(&w->p.start, 1, dx, dz);
    shift_xz(&w->p.target, 1, dx, dz);
    shift_xz(&w->ctrl.position, 1, dx, dz);
    shift_xz(w->feet.heel_q, 2, dx, dz);
    shift_xz(w->feet.toe_q, 2, dx, dz);
    shift_xz(w->land, 2, dx, dz);
    shift_xz(w->land_toe, 2, dx, dz);
    shift_xz(w->land_ray, 2, dx, dz);
    shift_xz(w->land_toe_ray, 2, dx, dz);
    shift_xz(w->anim_sole, 2, dx, dz);
    shift_xz(w->anim_toe, 2, dx, dz);
    shift_xz(w->fst.lock_point, 2, dx, dz);
    shift_xz(w->fst.sole, 2, dx, dz);
    shift_xz(w->fst.toe, 2, dx, dz);
    shift_xz(w->fst.ankle_target, 2, dx, dz);
    shift_xz(w->fst.heel_ray, 2, dx, dz);
    shift_xz(w->toe_last, 2, dx, dz);
    shift_xz(w->feet.ahead_at, 2, dx, dz);
    shift_xz(w->feet.ahead_last_at, 2, dx, dz);
    shift_xz(w->feet.heel_last_at, 2, dx, dz);
    shift_xz(w->fst.tread_from, 2, dx, dz);
    shift_xz(w->plan_target, 2, dx, dz);
    for (int32_t s = 0; s < 2; ++s)
        shift_xz(&w->scan[s].origin, 1, dx, dz);
    w->feet_set = 0; /* (the solve finds the feet in the moved pose) */
    for (int32_t j = 0; j < w->J; ++j) {
        shift_xz(&w->world[j].translation, 1, dx, dz);
        if (w->m->skeleton->parents[j] < 0) shift_xz(&w->local[j].translation, 1, dx, dz);
    }
    akb_leave(&w->busy);
    return AK_OK;
}

void ak_walker_set_clock(ak_walker *w, double time)
{
    if (w && isfinite(time) && time >= 0.0) w->time = w->idle_time = time;
}

int32_t ak_walker_playing(const ak_walker *w, int32_t *source_frame)
{
    if (!w) return AK_WALKER_PLAY_LOOP;
    const int32_t f = cycle_frame(w);
    if (source_frame)
        *source_frame = w->play != AK_WALKER_PLAY_LOOP
                            ? w->m->segment[PLAY_SEGMENT(w->play)].source_first + f
                            : w->m->cycle_start + f;
    return w->play;
}

ak_walker_phase ak_walker_get_phase(const ak_walker *w)
{
    return w ? (ak_walker_phase)w->phase : AK_WALKER_PHASE_WALK;
}

const ak_xform *ak_walker_world_pose(const ak_walker *w)
{
    return w ? w->world : NULL;
}
const ak_xform *ak_walker_local_pose(const ak_walker *w)
{
    return w ? w->local : NULL;
}

/* ---- One thread at a time: the frame calls take the busy flag ---- */

static int32_t walker_busy(ak_error *err, const char *call)
{
    return ak_error_set(err, AK_ERR_STATE, 0,
                        "%s: the walker is in use by another thread's call (a walker serves one "
                        "thread at a time)",
                        call);
}

int32_t ak_walker_begin(ak_walker *w, float dt, ak_vec3 *desired_move, ak_error *err)
{
    if (w && !akb_enter(&w->busy)) return walker_busy(err, "ak_walker_begin");
    const int32_t st = walker_begin(w, dt, desired_move, err);
    if (w) akb_leave(&w->busy);
    return st;
}

int32_t ak_walker_finish(ak_walker *w, const ak_ground_hit *hits, int32_t count, ak_error *err)
{
    if (w && !akb_enter(&w->busy)) return walker_busy(err, "ak_walker_finish");
    const int32_t st = walker_finish(w, hits, count, err);
    if (w) akb_leave(&w->busy);
    return st;
}

int32_t ak_walker_step(ak_walker *w, float dt, const ak_ground *ground, ak_error *err)
{
    if (w && !akb_enter(&w->busy)) return walker_busy(err, "ak_walker_step");
    const int32_t st = walker_step(w, dt, ground, err);
    if (w) akb_leave(&w->busy);
    return st;
}
