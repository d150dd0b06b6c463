/* Retargeting a whole clip offline: the per-frame transfer plus contacts kept — stance feet
 * (and optionally hands) pinned where the scaled source put them, by limb IK with fades. */
#include "animkit/ik.h"
#include "animkit/retarget.h"
#include "retarget/retarget_internal.h"
#include "core/xform_inline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One pinned limb: source end joint, target upper/middle/end, and per frame the stance flag,
 * pin weight, the mapped source end position (goal) and the run's pinned point; the stance
 * read on the contact grid (fine: `grid` samples per frame, fine_count in all). */
typedef struct akr_limb {
    int32_t src_end, up, mid, end;
    int32_t grid, fine_count;
    uint8_t *fine;
    uint8_t *stance;
    float *weight;
    ak_vec3 *goal;
    ak_vec3 *pin;
    ak_vec3 *free_end; /* the target end joint after the rotation transfer, before IK */
    ak_vec3 *free_pad; /* the point a stance holds there: a foot's heel pad (the sole point
                          under the ankle, turned with it), a hand's wrist */
    float reach;       /* target upper->middle + middle->end rest lengths */
} akr_limb;

typedef struct akr_job {
    const ak_retarget_params *p;
    ak_retargeter *rt;
    akr_limb limb[4];
    int32_t limb_count;
    int32_t frames;
    int reference; /* frame 0 is a reference pose (a T-pose), not motion: never pinned */
    ak_xform *src_local, *dst_local, *dst_world;
    float source_floor;
    float target_floor; /* where the target's soles stand (target units) */
    float *dst_clear;   /* target sole offsets (sole_offsets) */
    ak_quat *dst_rest_rot;
} akr_job;

static const int k_limb_slots[4][4] = {
    {AK_HUM_LEFT_FOOT, AK_HUM_LEFT_UPPER_LEG, AK_HUM_LEFT_LOWER_LEG, AK_HUM_LEFT_FOOT},
    {AK_HUM_RIGHT_FOOT, AK_HUM_RIGHT_UPPER_LEG, AK_HUM_RIGHT_LOWER_LEG, AK_HUM_RIGHT_FOOT},
    {AK_HUM_LEFT_HAND, AK_HUM_LEFT_UPPER_ARM, AK_HUM_LEFT_LOWER_ARM, AK_HUM_LEFT_HAND},
    {AK_HUM_RIGHT_HAND, AK_HUM_RIGHT_UPPER_ARM, AK_HUM_RIGHT_LOWER_ARM, AK_HUM_RIGHT_HAND}};

static void job_free(akr_job *job)
{
    for (int i = 0; i < 4; ++i) {
        free(job->limb[i].stance);
        free(job->limb[i].fine);
        free(job->limb[i].weight);
        free(job->limb[i].goal);
        free(job->limb[i].pin);
        free(job->limb[i].free_end);
        free(job->limb[i].free_pad);
    }
    free(job->src_local);
    free(job->dst_local);
    free(job->dst_world);
    free(job->dst_clear);
    free(job->dst_rest_rot);
    ak_retargeter_destroy(job->rt);
}

/* Distance between two joints of a skeleton's rest pose. */
static float rest_distance(const ak_skeleton *s, int32_t a, int32_t b)
{
    ak_vec3 pa = {0, 0, 0}, pb = {0, 0, 0};
    for (int32_t x = a; x >= 0; x = s->parents[x])
        pa = ak_xform_point(s->rest_local[x], pa);
    for (int32_t x = b; x >= 0; x = s->parents[x])
        pb = ak_xform_point(s->rest_local[x], pb);
    return akv_len(akv_sub(pa, pb));
}

/* Limbs both rigs have completely; hands only with pin_hands. Allocates their tracks. */
static int32_t plan_limbs(akr_job *job)
{
    const ak_humanoid *sm = &job->rt->src_map, *dm = &job->rt->dst_map;
    size_t n = (size_t)job->frames;
    int limbs = job->p->pin_hands ? 4 : 2;
    job->limb_count = 0;
    for (int i = 0; i < limbs; ++i) {
        if (sm->joint[k_limb_slots[i][0]] < 0) continue;
        akr_limb *l = &job->limb[i];
        l->src_end = sm->joint[k_limb_slots[i][0]];
        l->up = dm->joint[k_limb_slots[i][1]];
        l->mid = dm->joint[k_limb_slots[i][2]];
        l->end = dm->joint[k_limb_slots[i][3]];
        if (l->up < 0 || l->mid < 0 || l->end < 0) {
            l->src_end = -1;
            continue;
        }
        l->reach = rest_distance(job->p->target, l->up, l->mid) +
                   rest_distance(job->p->target, l->mid, l->end);
        l->stance = (uint8_t *)calloc(n, 1);
        l->weight = (float *)calloc(n, sizeof(float));
        l->goal = (ak_vec3 *)calloc(n, sizeof(ak_vec3));
        l->pin = (ak_vec3 *)calloc(n, sizeof(ak_vec3));
        l->free_end = (ak_vec3 *)calloc(n, sizeof(ak_vec3));
        l->free_pad = (ak_vec3 *)calloc(n, sizeof(ak_vec3));
        if (!l->stance || !l->weight || !l->goal || !l->pin || !l->free_end || !l->free_pad)
            return AK_ERR_NOMEM;
        job->limb_count = i + 1;
    }
    for (int i = limbs; i < 4; ++i)
        job->limb[i].src_end = -1;
    return AK_OK;
}

/* Rest sole offsets of a rig's feet: for each joint of a foot subtree, its rest height above
 * the rest foot's lowest joint (-1 outside the feet), kept with the joint's rest world rotation
 * so the offset turns with the joint. `world` is scratch (joint_count). */
static void sole_offsets(const ak_skeleton *s, const ak_humanoid *m, ak_xform *world, float *clear,
                         ak_quat *rest_rot)
{
    ak_fk(s, s->rest_local, world);
    for (int32_t j = 0; j < s->joint_count; ++j) {
        clear[j] = -1.0f;
        rest_rot[j] = world[j].rotation;
    }
    for (int side = 0; side < 2; ++side) {
        int32_t foot = m->joint[side ? AK_HUM_RIGHT_FOOT : AK_HUM_LEFT_FOOT];
        float lo = world[foot].translation.y;
        for (int32_t j = foot; j < s->subtree_end[foot]; ++j)
            lo = fminf(lo, world[j].translation.y);
        for (int32_t j = foot; j < s->subtree_end[foot]; ++j)
            clear[j] = world[j].translation.y - lo;
    }
}

/* The sole point under joint j of a world pose: the joint minus its rest clearance, turned
 * with the joint away from its rest rotation. */
static ak_vec3 sole_point(const ak_xform *w, const float *clear, const ak_quat *rest_rot, int32_t j)
{
    ak_quat turn = akq_mul(w[j].rotation, akq_conj(rest_rot[j]));
    return akv_add(w[j].translation, akq_rotate(turn, ak_vec3_make(0.0f, -clear[j], 0.0f)));
}

/* Pass over the source: the floor (the lowest sole point of either foot over all frames: each
 * foot joint minus its rest clearance, turned with the joint) and each limb's end position
 * per frame (source units; mapped later, once the floor is known). */
static int32_t measure_source(akr_job *job)
{
    const ak_skeleton *s = job->p->source;
    ak_xform *sw = job->rt->src_world;
    float *clear = (float *)malloc(sizeof(float) * (size_t)s->joint_count);
    ak_quat *rest_rot = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)s->joint_count);
    if (!clear || !rest_rot) {
        free(clear);
        free(rest_rot);
        return AK_ERR_NOMEM;
    }
    sole_offsets(s, &job->rt->src_map, sw, clear, rest_rot);
    float lo = INFINITY;
    for (int32_t f = 0; f < job->frames; ++f) {
        ak_clip_frame(job->p->source_clip, s, f, job->src_local);
        ak_fk(s, job->src_local, sw);
        for (int32_t j = 0; j < s->joint_count; ++j)
            if (clear[j] >= 0.0f) lo = fminf(lo, sole_point(sw, clear, rest_rot, j).y);
        for (int i = 0; i < job->limb_count; ++i)
            if (job->limb[i].src_end >= 0)
                job->limb[i].goal[f] = sw[job->limb[i].src_end].translation;
    }
    job->source_floor = lo;
    free(clear);
    free(rest_rot);
    return AK_OK;
}

static float metres_per_unit(const ak_retarget_params *p)
{
    if (p->source_metres_per_unit > 0.0f) return p->source_metres_per_unit;
    float mpu = 1.0f;
    ak_units_detect(ak_clip_standing_height(p->source_clip, p->source), &mpu);
    return mpu;
}

/* One limb's stance on its grid: `flags` (the heel and roll bits of the end joint) of `count`
 * samples, `grid` per frame; its frames' flags are the samples on them. */
static int32_t limb_stance(akr_limb *l, const uint8_t *flags, int32_t grid, int32_t count,
                           int32_t frames)
{
    l->grid = grid;
    l->fine_count = count;
    if (!(l->fine = (uint8_t *)calloc((size_t)count, 1))) return AK_ERR_NOMEM;
    for (int32_t i = 0; i < count; ++i)
        l->fine[i] = flags[i] & (AK_CONTACT_HEEL | AK_CONTACT_ROLL);
    for (int32_t f = 0; f < frames; ++f)
        l->stance[f] =
            (size_t)f * (size_t)grid < (size_t)count ? l->fine[(size_t)f * (size_t)grid] : 0;
    return AK_OK;
}

/* Source stance per limb: given (per frame), or the contact detector's on its grid (feet;
 * wrists for hands: akr_stance_detect). The end joint is pinned while it is down itself: the
 * heel or roll bit (a heel rolling over its toe moves the ankle; a heel rolling over its pad
 * keeps the pad, which pin_run holds). A reference frame 0 is no stance. */
static int32_t detect_stance(akr_job *job, ak_error *err)
{
    const ak_retarget_params *p = job->p;
    const float mpu = metres_per_unit(p);
    int32_t st = AK_OK;
    for (int pair = 0; pair < 2 && st >= 0; ++pair) {
        akr_limb *l = &job->limb[2 * pair], *r = &job->limb[2 * pair + 1];
        if (l->src_end < 0 || r->src_end < 0) continue;
        if (pair == 0 && p->stance_left) {
            const uint8_t given = AK_CONTACT_HEEL;
            if (limb_stance(l, p->stance_left, 1, job->frames, job->frames) < 0 ||
                limb_stance(r, p->stance_right, 1, job->frames, job->frames) < 0)
                return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
            for (int32_t f = 0; f < job->frames; ++f) { /* any nonzero flag is stance */
                l->fine[f] = l->stance[f] = p->stance_left[f] ? given : 0;
                r->fine[f] = r->stance[f] = p->stance_right[f] ? given : 0;
            }
        } else {
            akr_stance ss;
            st = akr_stance_detect(p->source, p->source_clip, l->src_end, r->src_end, mpu,
                                   &p->contact, &ss, err);
            if (st < 0) break;
            if (limb_stance(l, ss.flags, ss.grid, ss.count, job->frames) < 0 ||
                limb_stance(r, ss.flags + ss.count, ss.grid, ss.count, job->frames) < 0)
                st = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
            akr_stance_free(&ss);
        }
        if (job->reference) l->fine[0] = r->fine[0] = l->stance[0] = r->stance[0] = 0;
    }
    return st;
}

static float smoothstep01(float x)
{
    x = x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
    return x * x * (3.0f - 2.0f * x);
}

/* A per-frame track of a limb (free_end, free_pad) at grid sample i (linear between frames). */
static ak_vec3 track_at(const akr_limb *l, const ak_vec3 *x, int32_t frames, int32_t i)
{
    const int32_t f = i / l->grid, r = i % l->grid;
    if (r == 0 || f + 1 >= frames) return x[f < frames ? f : frames - 1];
    return akv_lerp(x[f], x[f + 1], (float)r / (float)l->grid);
}

/* The pins of one stance run, grid samples [s, e]: frames inside hold the stance point (a
 * foot's heel pad, free_pad) at the run's mean free position (over the run's samples), the end
 * joint where the frame's own rotation about that point puts it (a landing heel rolls over its
 * pad: the ankle moves 0.2-0.5 m/s, the pad does not; a flat foot's pad and ankle move
 * together); frames within fade_time (seconds from the run's edge sample, which on a 30 fps
 * file lies between its frames) follow their free path shifted by the run's offset at that
 * edge, with a smoothstep weight. */
static void pin_run(const akr_job *job, akr_limb *l, int32_t s, int32_t e, int32_t *inside)
{
    const int32_t n = job->frames, k = l->grid;
    const float dt = job->p->source_clip->frame_time / (float)k, fade = job->p->fade_time;
    const ak_vec3 *held = l->free_pad;
    ak_vec3 mean = {0.0f, 0.0f, 0.0f};
    for (int32_t i = s; i <= e; ++i)
        mean = akv_add(mean, track_at(l, held, n, i));
    mean = akv_scale(mean, 1.0f / (float)(e - s + 1));
    const int32_t reach = fade > 0.0f ? (int32_t)ceilf(fade / dt) : 0;
    const int32_t g0 = (s - reach + k - 1) / k > 0 ? (s - reach + k - 1) / k : 0;
    for (int32_t g = g0; g < n && g * k <= e + reach; ++g) {
        const int32_t i = g * k, d = i < s ? s - i : (i > e ? i - e : 0);
        const float w =
            d == 0 ? 1.0f : (fade > 0.0f ? smoothstep01(1.0f - (float)d * dt / fade) : 0.0f);
        *inside += d == 0;
        if (w <= l->weight[g]) continue;
        /* Fades carry the run's end offset along the free path instead of pulling the
         * moving end back to the pin. */
        const ak_vec3 off = akv_sub(mean, d == 0 ? held[g] : track_at(l, held, n, i < s ? s : e));
        l->weight[g] = w;
        l->pin[g] = ak_vec3_make(l->free_end[g].x + off.x, l->goal[g].y, l->free_end[g].z + off.z);
    }
}

/* Pins of one limb: each stance run holds its end joint at the mean horizontal position the
 * rotation transfer gives it over the run (so the IK only removes the skate and bends the
 * bones little) and at the height of the mapped source (so the sole meets the floor), faded
 * in time (pin_run). A reference frame 0 is left as the transfer gives it. */
static int32_t plan_pins(akr_job *job, akr_limb *l, ak_retarget_info *info, int limb_index)
{
    int32_t start = -1;
    for (int32_t i = 0; i <= l->fine_count; ++i) {
        const int on = i < l->fine_count && l->fine[i];
        if (on && start < 0) start = i;
        if (on || start < 0) continue;
        int32_t inside = 0;
        pin_run(job, l, start, i - 1, &inside);
        info->stance_frames[limb_index] += inside;
        info->pinned_runs += 1;
        start = -1;
    }
    if (job->reference) l->weight[0] = 0.0f;
    return AK_OK;
}

/* Maps every goal into the target's world now that the floor placement is final, and records
 * where the rotation transfer alone puts each end joint. */
static void map_goals(akr_job *job)
{
    for (int i = 0; i < job->limb_count; ++i) {
        akr_limb *l = &job->limb[i];
        if (l->src_end < 0) continue;
        for (int32_t f = 0; f < job->frames; ++f)
            l->goal[f] = ak_retargeter_map_point(job->rt, l->goal[f]);
    }
    for (int32_t f = 0; f < job->frames; ++f) {
        ak_clip_frame(job->p->source_clip, job->p->source, f, job->src_local);
        ak_retargeter_pose(job->rt, job->src_local, job->dst_local);
        ak_fk(job->p->target, job->dst_local, job->dst_world);
        for (int i = 0; i < job->limb_count; ++i) {
            akr_limb *l = &job->limb[i];
            if (l->src_end < 0) continue;
            l->free_end[f] = job->dst_world[l->end].translation;
            l->free_pad[f] =
                i < 2 && job->dst_clear[l->end] >= 0.0f
                    ? sole_point(job->dst_world, job->dst_clear, job->dst_rest_rot, l->end)
                    : l->free_end[f];
        }
    }
}

/* 3x3 solve M x = b by Cramer's rule; x = 0 when M is singular. */
static ak_vec3 solve3(const float m[9], ak_vec3 b)
{
    float det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                m[2] * (m[3] * m[7] - m[4] * m[6]);
    ak_vec3 x = {0.0f, 0.0f, 0.0f};
    if (!(fabsf(det) > 1e-20f)) return x;
    x.x = (b.x * (m[4] * m[8] - m[5] * m[7]) - m[1] * (b.y * m[8] - m[5] * b.z) +
           m[2] * (b.y * m[7] - m[4] * b.z)) /
          det;
    x.y = (m[0] * (b.y * m[8] - m[5] * b.z) - b.x * (m[3] * m[8] - m[5] * m[6]) +
           m[2] * (m[3] * b.z - b.y * m[6])) /
          det;
    x.z = (m[0] * (m[4] * b.z - b.y * m[7]) - m[1] * (m[3] * b.z - b.y * m[6]) +
           b.x * (m[3] * m[7] - m[4] * m[6])) /
          det;
    return x;
}

/* How the hips move so the pinned legs need the least bending: s minimises
 *     sum_i w_i (e_i - s)^T Q_i (e_i - s) + max(0, 1 - sum_i w_i) |s|^2,
 * e_i = pin_i - free end_i, Q_i = I + c_i r r^T with r the leg's hip->end direction and
 * c_i = 1 / max(1 - extension, 0.02) - 1: a nearly straight leg can hardly lengthen or shorten
 * (its knee would have to swing far), so the hips take its error along the leg, while
 * sideways errors cost a small hip swing. One leg in stance: s = e (that leg needs no IK). */
static ak_vec3 hips_shift(const akr_job *job, int32_t f)
{
    float m[9] = {0}, total = 0.0f;
    ak_vec3 b = {0.0f, 0.0f, 0.0f};
    for (int i = 0; i < job->limb_count && i < 2; ++i) {
        const akr_limb *l = &job->limb[i];
        const float w = l->weight[f];
        if (l->src_end < 0 || w <= 0.0f) continue;
        ak_vec3 leg = akv_sub(l->free_end[f], job->dst_world[l->up].translation);
        float len = akv_len(leg), ext = l->reach > 0.0f ? len / l->reach : 0.0f;
        ak_vec3 r = len > 1e-12f ? akv_scale(leg, 1.0f / len) : ak_vec3_make(0, 1, 0);
        float c = 1.0f / fmaxf(1.0f - ext, 0.02f) - 1.0f;
        const float rr[3] = {r.x, r.y, r.z};
        ak_vec3 e = akv_sub(l->pin[f], l->free_end[f]);
        float ce = c * akv_dot(r, e);
        /* normal equations: M += w Q, b += w Q e */
        for (int a = 0; a < 3; ++a)
            for (int k = 0; k < 3; ++k)
                m[a * 3 + k] += w * ((a == k ? 1.0f : 0.0f) + c * rr[a] * rr[k]);
        b = akv_add(b, akv_scale(akv_add(e, akv_scale(r, ce)), w));
        total += w;
    }
    if (total <= 0.0f) return b;
    float reg = total < 1.0f ? 1.0f - total : 0.0f;
    m[0] += reg;
    m[4] += reg;
    m[8] += reg;
    return solve3(m, b);
}

/* Shifts the hips, then limb IK on the target pose of frame f toward each limb's weighted
 * pin. The knee/elbow keeps its current bend plane and the end joint its world rotation. */
static void pin_frame(akr_job *job, int32_t f, ak_retarget_info *info)
{
    const ak_skeleton *d = job->p->target;
    const int32_t hips = job->rt->dst_map.joint[AK_HUM_HIPS];
    ak_fk(d, job->dst_local, job->dst_world);
    ak_vec3 shift = hips_shift(job, f);
    job->dst_local[hips].translation = akv_add(
        job->dst_local[hips].translation, akq_rotate(job->rt->hips_parent_inv.rotation, shift));
    ak_fk(d, job->dst_local, job->dst_world);
    for (int i = 0; i < job->limb_count; ++i) {
        akr_limb *l = &job->limb[i];
        if (l->src_end < 0 || l->weight[f] <= 0.0f) continue;
        const float w = l->weight[f];
        ak_vec3 free_pos = job->dst_world[l->end].translation;
        ak_limb_ik_params ik = ak_limb_ik_defaults();
        ik.skeleton = d;
        ik.upper = l->up;
        ik.middle = l->mid;
        ik.end = l->end;
        ik.target = akv_lerp(free_pos, l->pin[f], w);
        ik.match_end_rotation = 1;
        ik.end_rotation = job->dst_world[l->end].rotation;
        ak_ik_result r;
        if (ak_limb_ik_run(&ik, job->dst_local, job->dst_world, &r, NULL) < 0) continue;
        if (w >= 1.0f && r.error > info->max_pin_error) info->max_pin_error = r.error;
    }
}

/* Turns `pivot` (world rotation about a horizontal axis through it) so the sole point p
 * rises by `rise`: a toe bending up at toe-off instead of going through the floor. */
static void lift_about(akr_job *job, int32_t pivot, ak_vec3 p, float rise)
{
    const ak_skeleton *d = job->p->target;
    ak_vec3 v = akv_sub(p, job->dst_world[pivot].translation);
    float len = akv_len(v);
    ak_vec3 axis = akv_cross(v, ak_vec3_make(0.0f, 1.0f, 0.0f));
    if (len < 1e-9f || akv_len(axis) < 1e-9f * len) return;
    float s0 = v.y / len, s1 = (v.y + rise) / len;
    s1 = s1 > 1.0f ? 1.0f : s1;
    ak_quat r = ak_quat_from_axis_angle(axis, asinf(s1) - asinf(s0 < -1.0f ? -1.0f : s0));
    int32_t parent = d->parents[pivot];
    ak_quat w = akq_mul(r, job->dst_world[pivot].rotation);
    job->dst_local[pivot].rotation =
        akq_normalize(parent < 0 ? w : akq_mul(akq_conj(job->dst_world[parent].rotation), w));
    ak_fk_subtree(d, job->dst_local, job->dst_world, pivot);
}

/* Keeps each foot's sole points on or above the floor: a point of the toe (or, on rigs
 * without toes, of the foot's tip) below it bends that joint up about its base; the ankle
 * or the toe base below it lifts the whole foot with limb IK (foot rotation kept). */
static void floor_feet(akr_job *job, akr_limb *legs)
{
    const ak_skeleton *d = job->p->target;
    for (int side = 0; side < 2; ++side) {
        const akr_limb *l = &legs[side];
        if (l->src_end < 0) continue;
        const int32_t foot = l->end,
                      toe = job->rt->dst_map.joint[side ? AK_HUM_RIGHT_TOE : AK_HUM_LEFT_TOE];
        for (int iter = 0; iter < 3; ++iter) {
            int32_t low = -1;
            ak_vec3 p = {0.0f, INFINITY, 0.0f};
            for (int32_t j = foot; j < d->subtree_end[foot]; ++j) {
                if (job->dst_clear[j] < 0.0f) continue;
                ak_vec3 q = sole_point(job->dst_world, job->dst_clear, job->dst_rest_rot, j);
                if (q.y < p.y) {
                    p = q;
                    low = j;
                }
            }
            const float rise = job->target_floor - p.y;
            if (low < 0 || !(rise > 1e-6f * l->reach)) break;
            int32_t pivot = toe >= 0 ? (low > toe && low < d->subtree_end[toe] ? toe : -1)
                                     : (low != foot ? foot : -1);
            if (pivot >= 0) {
                lift_about(job, pivot, p, rise);
                continue;
            }
            ak_limb_ik_params ik = ak_limb_ik_defaults();
            ik.skeleton = d;
            ik.upper = l->up;
            ik.middle = l->mid;
            ik.end = l->end;
            ik.target = akv_add(job->dst_world[foot].translation, ak_vec3_make(0.0f, rise, 0.0f));
            ik.match_end_rotation = 1;
            ik.end_rotation = job->dst_world[foot].rotation;
            if (ak_limb_ik_run(&ik, job->dst_local, job->dst_world, NULL, NULL) < 0) break;
        }
    }
}

static int32_t job_start(akr_job *job, const ak_retarget_params *p, const ak_quat *ref_rot,
                         ak_retarget_info *info, ak_error *err)
{
    int32_t st = akr_retargeter_create(p, 0, ref_rot, &job->rt, err); /* p: re-rested already */
    if (st < 0) return st;
    job->frames = p->source_clip->frame_count;
    job->reference = ak_clip_first_frame_is_reference(p->source_clip);
    job->src_local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)p->source->joint_count);
    job->dst_local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)p->target->joint_count);
    job->dst_world = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)p->target->joint_count);
    if (!job->src_local || !job->dst_local || !job->dst_world || plan_limbs(job) < 0)
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory retargeting");
    if (measure_source(job) < 0)
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory retargeting");
    akr_set_floor(job->rt, job->source_floor, p->floor_height);
    ak_retargeter_get_info(job->rt, info);
    job->target_floor = info->target_floor;
    job->dst_clear = (float *)malloc(sizeof(float) * (size_t)p->target->joint_count);
    job->dst_rest_rot = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)p->target->joint_count);
    if (!job->dst_clear || !job->dst_rest_rot)
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory retargeting");
    sole_offsets(p->target, &job->rt->dst_map, job->dst_world, job->dst_clear, job->dst_rest_rot);
    if (!p->contacts) return AK_OK;
    map_goals(job);
    if ((st = detect_stance(job, err)) < 0) return st;
    for (int i = 0; i < job->limb_count; ++i)
        if (job->limb[i].src_end >= 0) plan_pins(job, &job->limb[i], info, i);
    return AK_OK;
}

/* The stance feet's heights (issue 22): over the source's heel-down frames of each foot, the
 * highest target ankle above the target floor, and the same of the mapped source ankle, so a
 * foot that floats shows even when every pin holds. */
static void measure_stance_feet(akr_job *job, int32_t f, ak_retarget_info *info)
{
    const float planted = job->target_floor;
    int measured = 0;
    for (int i = 0; i < 2 && i < job->limb_count; ++i) {
        const akr_limb *l = &job->limb[i];
        if (l->src_end < 0 || !l->stance[f]) continue;
        if (!measured) ak_fk(job->p->target, job->dst_local, job->dst_world);
        measured = 1;
        const float h = job->dst_world[l->end].translation.y - planted;
        const float hs = l->goal[f].y - planted;
        if (!(h <= info->stance_foot_height[i])) info->stance_foot_height[i] = h;
        if (!(hs <= info->source_stance_foot_height[i])) info->source_stance_foot_height[i] = hs;
    }
}

/* The transfer of every frame into a new clip on the target. */
static int32_t job_frames(akr_job *job, ak_clip **out, ak_retarget_info *info, ak_error *err)
{
    const ak_retarget_params *p = job->p;
    const ak_skeleton *d = p->target;
    const int32_t n = d->joint_count, hips = job->rt->dst_map.joint[AK_HUM_HIPS];
    uint8_t *has_t = (uint8_t *)calloc((size_t)n, 1);
    if (!has_t) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory retargeting");
    has_t[hips] = 1;
    ak_clip *c = NULL;
    int32_t st = ak_clip_create(n, job->frames, p->source_clip->frame_time, has_t, &c, err);
    free(has_t);
    if (st < 0) return st;
    c->loop = p->source_clip->loop;
    for (int32_t f = 0; f < job->frames; ++f) {
        ak_clip_frame(p->source_clip, p->source, f, job->src_local);
        ak_retargeter_pose(job->rt, job->src_local, job->dst_local);
        if (p->contacts && job->limb_count > 0) {
            pin_frame(job, f, info);
            floor_feet(job, job->limb);
            measure_stance_feet(job, f, info);
        }
        for (int32_t j = 0; j < n; ++j)
            c->rotations[(size_t)f * (size_t)n + (size_t)j] = job->dst_local[j].rotation;
        c->translations[(size_t)f * (size_t)c->track_count + (size_t)c->joint_track[hips]] =
            job->dst_local[hips].translation;
    }
    ak_clip_finalize(c);
    *out = c;
    return AK_OK;
}

int32_t ak_retarget_run(const ak_retarget_params *p, ak_clip **out, ak_retarget_info *info,
                        ak_error *err)
{
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    *out = NULL;
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null retarget params");
    if (!p->source_clip)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "retarget needs a source clip");
    int32_t st = ak_retarget_validate(p, err);
    if (st < 0) return st;
    /* The source re-rested on a standing frame when its zero pose does not stand. */
    ak_humanoid m;
    if (p->source_map)
        m = *p->source_map;
    else
        ak_humanoid_find(p->source, p->source_overrides, &m, NULL);
    akr_rested ref;
    if ((st = akr_reference_source(p, &m, &ref, err)) < 0) return st;
    ak_retarget_params q = *p;
    if (ref.skeleton) {
        q.source = ref.skeleton;
        q.source_clip = ref.clip;
    }
    akr_job job;
    memset(&job, 0, sizeof job);
    job.p = &q;
    ak_retarget_info local_info;
    if (!info) info = &local_info;
    memset(info, 0, sizeof *info);
    st = job_start(&job, &q, ref.ref_rot, info, err); /* fills info from the retargeter's */
    info->reference_frame = ref.frame;
    if (st >= 0) st = job_frames(&job, out, info, err);
    job_free(&job);
    akr_rested_free(&ref);
    /* The target's copy bones (the UE4 mannequin's ik_foot and ik_hand bones sit on their feet
     * and hands in its rest pose) put back on the retargeted feet and hands: the transfer maps
     * the humanoid joints only and left them at rest under `root` (CMU 02_01 onto the UE4
     * shape: ik_foot_r up to 42.2 units, 2.4 m, off its foot). */
    if (st >= 0) st = ak_clip_keep_copy_bones(p->target, NULL, out, err);
    if (st < 0) return st;
    ak_error_clear(err);
    return AK_OK;
}
