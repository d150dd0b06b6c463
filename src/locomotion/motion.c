/* Walk motion: a clip made ready for walking — metres, one seamless heading-neutral cycle,
 * root motion, foot contacts and foot calibration. Also contact detection and the cycle
 * finder it uses. Everything here runs once at load time and may allocate. */
#include "animkit/locomotion.h"
#include "core/xform_inline.h"
#include "locomotion/internal.h"

#include <stdlib.h>
#include <string.h>

ak_contact_params ak_contact_defaults(void)
{
    ak_contact_params p;
    p.height_on = 0.02f;
    p.height_off = 0.035f;
    p.speed_on = 0.25f;
    p.speed_off = 0.45f;
    p.min_stance = 0.08f;
    p.rise_off = 0.12f;
    return p;
}

ak_walk_motion_params ak_walk_motion_defaults(void)
{
    ak_walk_motion_params p;
    memset(&p, 0, sizeof p);
    p.metres_per_unit = 0.0f;
    p.cycle_start = -1;
    p.cycle_end = -1;
    p.seam_blend = 0.1f;
    p.min_cycle_time = 0.7f;
    p.max_cycle_time = 1.6f;
    p.humanoid_overrides = NULL;
    p.contacts = ak_contact_defaults();
    return p;
}

/* World positions of `joint` over every frame of the clip, times `scale`. */
static int32_t joint_track(const ak_skeleton *sk, const ak_clip *c, int32_t joint, float scale,
                           ak_vec3 *out)
{
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)sk->joint_count * 2);
    if (!local) return AK_ERR_NOMEM;
    ak_xform *world = local + sk->joint_count;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_clip_frame(c, sk, f, local);
        ak_fk(sk, local, world);
        out[f] = akv_scale(world[joint].translation, scale);
    }
    free(local);
    return AK_OK;
}

/* Drops stance runs shorter than min_frames; circular for loops. */
static void drop_short_runs(uint8_t *flag, int32_t n, int32_t min_frames, int32_t loop)
{
    int32_t start = 0;
    if (loop) {
        start = -1;
        for (int32_t i = 0; i < n; ++i)
            if (!flag[i]) {
                start = i;
                break;
            }
        if (start < 0) return; /* stance everywhere */
    }
    int32_t i = 0;
    while (i < n) {
        const int32_t a = (start + i) % n;
        if (!flag[a]) {
            ++i;
            continue;
        }
        int32_t len = 0;
        while (i + len < n && flag[(start + i + len) % n])
            ++len;
        if (len < min_frames)
            for (int32_t k = 0; k < len; ++k)
                flag[(start + i + k) % n] = 0;
        i += len;
    }
}

int32_t ak_foot_contacts_detect(const ak_skeleton *sk, const ak_clip *c, int32_t lf, int32_t rf,
                                float mpu, const ak_contact_params *p, uint8_t *left,
                                uint8_t *right, ak_error *err)
{
    if (!sk || !c || !p || !left || !right)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if (lf < 0 || rf < 0 || lf >= sk->joint_count || rf >= sk->joint_count ||
        c->joint_count != sk->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "foot joints out of range or clip/skeleton mismatch");
    if (!(mpu > 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "metres per unit must be positive");
    const int32_t n = c->frame_count;
    ak_vec3 *pos = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)n);
    if (!pos) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int side = 0; side < 2; ++side) {
        uint8_t *flag = side == 0 ? left : right;
        if (joint_track(sk, c, side == 0 ? lf : rf, mpu, pos) != AK_OK) {
            free(pos);
            return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        }
        float miny = pos[0].y;
        for (int32_t f = 1; f < n; ++f)
            if (pos[f].y < miny) miny = pos[f].y;
        /* Central differences over +-2 frames (circular for loops, one-sided at the ends). */
        int32_t state = -1;
        for (int32_t pass = 0; pass < (c->loop ? 2 : 1); ++pass)
            for (int32_t f = 0; f < n; ++f) {
                int32_t a = f - 2, b = f + 2;
                if (c->loop) {
                    a = (a + n) % n;
                    b = b % n;
                } else {
                    if (a < 0) a = 0;
                    if (b > n - 1) b = n - 1;
                }
                float span =
                    c->loop ? 4.0f
                            : (float)((f + 2 > n - 1 ? n - 1 : f + 2) - (f - 2 < 0 ? 0 : f - 2));
                ak_vec3 d = akv_sub(pos[b], pos[a]);
                if (c->loop && (f < 2 || f >= n - 2)) {
                    /* Across the wrap the root may have moved a whole loop: use the
                     * in-range neighbours only. */
                    int32_t a2 = f - 1 < 0 ? f : f - 1, b2 = f + 1 >= n ? f : f + 1;
                    d = akv_sub(pos[b2], pos[a2]);
                    span = (float)(b2 - a2);
                }
                const float speed =
                    span > 0.0f ? sqrtf(d.x * d.x + d.z * d.z) / (span * c->frame_time) : 0.0f;
                const float h = pos[f].y - miny;
                const int on = h < p->height_on && speed < p->speed_on;
                const float rise = span > 0.0f ? d.y / (span * c->frame_time) : 0.0f;
                const int off = h > p->height_off || speed > p->speed_off ||
                                (p->rise_off > 0.0f && rise > p->rise_off);
                if (state < 0)
                    state = on;
                else if (state == 0 && on)
                    state = 1;
                else if (state == 1 && off)
                    state = 0;
                flag[f] = (uint8_t)state;
            }
        drop_short_runs(flag, n, (int32_t)ceilf(p->min_stance / c->frame_time), c->loop);
    }
    free(pos);
    return AK_OK;
}

/* Root rotation with its heading removed, so straight and veering walks compare alike. */
static ak_quat root_no_heading(const ak_clip *c, int32_t f, int32_t root)
{
    const ak_quat q = c->rotations[(size_t)f * c->joint_count + root];
    return akq_mul(ak_quat_yaw(-ak_heading_of(q, ak_vec3_make(0, 0, 1))), q);
}

static float quat_angle_between(ak_quat a, ak_quat b)
{
    float d = fabsf(akq_dot(a, b));
    if (d > 1.0f) d = 1.0f;
    return 2.0f * acosf(d);
}

/* Seam quality of the cycle [a, b): mean per-joint angle between the poses of a and b (root
 * heading removed) and between their frame-to-frame rotations, per second. */
static void cycle_errors(const ak_clip *c, int32_t a, int32_t b, float *pose_error,
                         float *velocity_error)
{
    const int32_t J = c->joint_count, n = c->frame_count;
    if (a < 0 || b < 0 || a + 1 >= n || b + 1 >= n) {
        *pose_error = *velocity_error = 0.0f;
        return;
    }
    float pe = 0.0f, ve = 0.0f;
    for (int32_t j = 0; j < J; ++j) {
        ak_quat qa = c->rotations[(size_t)a * J + j], qb = c->rotations[(size_t)b * J + j];
        ak_quat qa1 = c->rotations[(size_t)(a + 1) * J + j],
                qb1 = c->rotations[(size_t)(b + 1) * J + j];
        if (j == 0) {
            qa = root_no_heading(c, a, 0);
            qb = root_no_heading(c, b, 0);
            qa1 = root_no_heading(c, a + 1, 0);
            qb1 = root_no_heading(c, b + 1, 0);
        }
        pe += quat_angle_between(qa, qb);
        ve += quat_angle_between(akq_mul(akq_conj(qa), qa1), akq_mul(akq_conj(qb), qb1)) /
              c->frame_time;
    }
    *pose_error = pe / (float)J;
    *velocity_error = ve / (float)J;
}

int32_t ak_cycle_find(const ak_skeleton *sk, const ak_clip *c, const uint8_t *left,
                      const uint8_t *right, float min_time, float max_time, ak_cycle *out,
                      ak_error *err)
{
    if (!sk || !c || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if (c->joint_count != sk->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip/skeleton mismatch");
    if (!(min_time > 0.0f) || !(max_time >= min_time))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "cycle time range must be positive and ordered");
    const int32_t n = c->frame_count, J = c->joint_count;
    const int32_t lmin = (int32_t)ceilf(min_time / c->frame_time);
    const int32_t lmax = (int32_t)floorf(max_time / c->frame_time);
    /* Frames [first, last] can be cycle ends; each needs a next frame for its velocity. */
    const int32_t first = n > 8 ? 1 : 0, last = n - 2;
    if (lmin < 2 || first + lmin > last)
        return ak_error_set(err, AK_ERR_NOT_FOUND, 0,
                            "clip of %d frames is too short for a %.2f s cycle", (int)n,
                            (double)min_time);
    /* Per frame: rotations with the root's heading removed (copied once). */
    ak_quat *q = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)n * (size_t)J);
    if (!q) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    memcpy(q, c->rotations, sizeof(ak_quat) * (size_t)n * (size_t)J);
    for (int32_t f = 0; f < n; ++f)
        q[(size_t)f * J] = root_no_heading(c, f, 0);
    float best = INFINITY;
    ak_cycle bc = {-1, -1, 0.0f, 0.0f};
    for (int32_t a = first; a + lmin <= last; ++a) {
        for (int32_t b = a + lmin; b <= last && b <= a + lmax; ++b) {
            if (left && right &&
                (left[a] != left[b] || right[a] != right[b] || left[a + 1] != left[b + 1] ||
                 right[a + 1] != right[b + 1]))
                continue;
            const ak_quat *qa = q + (size_t)a * J, *qb = q + (size_t)b * J;
            float pose = 0.0f, vel = 0.0f;
            for (int32_t j = 0; j < J; ++j) {
                pose += 1.0f - fabsf(akq_dot(qa[j], qb[j]));
                /* Velocity: compare the frame-to-frame rotation of each joint. */
                const ak_quat da = akq_mul(akq_conj(qa[j]), qa[J + j]);
                const ak_quat db = akq_mul(akq_conj(qb[j]), qb[J + j]);
                vel += 1.0f - fabsf(akq_dot(da, db));
            }
            const float cost = pose + 4.0f * vel;
            if (cost < best) {
                best = cost;
                bc.start = a;
                bc.end = b;
            }
        }
    }
    if (bc.start < 0) {
        free(q);
        return ak_error_set(err, AK_ERR_NOT_FOUND, 0,
                            "no pair of frames %.2f-%.2f s apart with matching foot phases",
                            (double)min_time, (double)max_time);
    }
    free(q);
    cycle_errors(c, bc.start, bc.end, &bc.pose_error, &bc.velocity_error);
    *out = bc;
    return AK_OK;
}

/* ---- Walk motion ---- */

void ak_walk_motion_destroy(ak_walk_motion *m)
{
    if (!m) return;
    ak_skeleton_destroy(m->skeleton);
    ak_clip_destroy(m->clip);
    ak_root_motion_destroy(m->root);
    for (int s = 0; s < 2; ++s) {
        free(m->contacts[s]);
        free(m->land_rel[s]);
        free(m->swing_phase[s]);
    }
    free(m);
}

/* A copy of the skeleton with every rest translation times `s`. */
/* The character frame of frame f (root heading + horizontal position), metres. */
static ak_xform frame_character(const ak_clip *c, const ak_skeleton *sk, int32_t f)
{
    ak_xform x;
    const ak_quat q = c->rotations[(size_t)f * c->joint_count];
    x.rotation = ak_quat_yaw(ak_heading_of(q, ak_vec3_make(0, 0, 1)));
    const int32_t tr = c->joint_track[0];
    ak_vec3 p =
        tr >= 0 ? c->translations[(size_t)f * c->track_count + tr] : sk->rest_local[0].translation;
    x.translation = ak_vec3_make(p.x, 0.0f, p.z);
    return x;
}

/* Cuts frames [a, b) of `src` into a looping clip. The last `blend` frames crossfade toward
 * the frames leading into `a` (carried into the end frame's place), so the pose runs
 * continuously from the last frame into the first. Then the heading drift of the cycle is
 * removed linearly so cycles chain without turning. Writes the root at t = duration
 * (position and heading) for the root-motion loop end. */
static int32_t cut_cycle(const ak_skeleton *sk, const ak_clip *src, int32_t a, int32_t b,
                         int32_t blend, ak_clip **out, ak_vec3 *loop_end_pos,
                         float *loop_end_heading, ak_error *err)
{
    const int32_t n = b - a, J = src->joint_count;
    uint8_t *has = (uint8_t *)calloc((size_t)J, 1);
    if (!has) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; j < J; ++j)
        has[j] = src->joint_track[j] >= 0;
    ak_clip *c = NULL;
    int32_t st = ak_clip_create(J, n, src->frame_time, has, &c, err);
    free(has);
    if (st != AK_OK) return st;
    c->loop = 1;
    const int32_t T = src->track_count;
    for (int32_t f = 0; f < n; ++f) {
        memcpy(c->rotations + (size_t)f * J, src->rotations + (size_t)(a + f) * J,
               sizeof(ak_quat) * (size_t)J);
        if (T)
            memcpy(c->translations + (size_t)f * T, src->translations + (size_t)(a + f) * T,
                   sizeof(ak_vec3) * (size_t)T);
    }
    /* G maps the character frame at `a` onto the one at `b`. */
    const ak_xform ca = frame_character(src, sk, a), cb = frame_character(src, sk, b);
    const ak_xform G = akx_mul(cb, akx_inverse(ca));
    const int32_t rt = src->joint_track[0];
    if (blend > a) blend = a;
    if (blend > n / 3) blend = n / 3;
    for (int32_t i = 0; i < blend; ++i) {
        const int32_t f = n - blend + i;  /* cycle frame */
        const int32_t s0 = a - blend + i; /* the frame that leads into a */
        const float w = (float)(i + 1) / (float)(blend + 1);
        ak_quat *dst = c->rotations + (size_t)f * J;
        const ak_quat *lead = src->rotations + (size_t)s0 * J;
        for (int32_t j = 0; j < J; ++j) {
            ak_quat target = lead[j];
            if (j == 0) target = akq_mul(G.rotation, target);
            dst[j] = akq_slerp(dst[j], target, w);
        }
        for (int32_t k = 0; k < T; ++k) {
            ak_vec3 target = src->translations[(size_t)s0 * T + k];
            if (k == rt) {
                const float y = target.y;
                target = akx_mul(G, (ak_xform){ak_quat_identity(), target}).translation;
                target.y = y;
            }
            ak_vec3 *d = c->translations + (size_t)f * T + k;
            *d = akv_lerp(*d, target, w);
        }
    }
    /* Heading drift: rotate frame f by -drift*f/n about the vertical through the start. */
    const float h0 = ak_heading_of(src->rotations[(size_t)a * J], ak_vec3_make(0, 0, 1));
    float drift = ak_heading_of(src->rotations[(size_t)b * J], ak_vec3_make(0, 0, 1)) - h0;
    while (drift > AK_PI)
        drift -= 2.0f * AK_PI;
    while (drift < -AK_PI)
        drift += 2.0f * AK_PI;
    ak_vec3 p0 = rt >= 0 ? src->translations[(size_t)a * T + rt] : sk->rest_local[0].translation;
    p0.y = 0.0f;
    for (int32_t f = 0; f < n; ++f) {
        const ak_quat turn = ak_quat_yaw(-drift * (float)f / (float)n);
        ak_quat *r = &c->rotations[(size_t)f * J];
        *r = akq_normalize(akq_mul(turn, *r));
        if (rt >= 0) {
            ak_vec3 *p = &c->translations[(size_t)f * T + rt];
            ak_vec3 rel = akv_sub(*p, p0);
            const float y = p->y;
            rel.y = 0.0f;
            *p = akv_add(p0, akq_rotate(turn, rel));
            p->y = y;
        }
    }
    ak_vec3 pe = rt >= 0 ? src->translations[(size_t)b * T + rt] : p0;
    ak_vec3 rel = akv_sub(pe, p0);
    rel.y = 0.0f;
    *loop_end_pos = akv_add(p0, akq_rotate(ak_quat_yaw(-drift), rel));
    *loop_end_heading = h0;
    ak_clip_finalize(c);
    *out = c;
    return AK_OK;
}

static int32_t fail(ak_walk_motion *m, int32_t st)
{
    ak_walk_motion_destroy(m);
    return st;
}

/* Foot calibration from the cycle: the clip floor (lowest point of any foot joint or its
 * descendants), each ankle's height above it in stance and the foot's up axis (world +Y
 * seen from the ankle joint, averaged over stance). */
static int32_t calibrate(ak_walk_motion *m, ak_error *err)
{
    const ak_skeleton *sk = m->skeleton;
    const ak_clip *c = m->clip;
    const int32_t J = sk->joint_count, n = c->frame_count;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    if (!local) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    ak_xform *world = local + J;
    const int32_t foot[2] = {m->humanoid.joint[AK_HUM_LEFT_FOOT],
                             m->humanoid.joint[AK_HUM_RIGHT_FOOT]};
    float floor_y = INFINITY;
    double ankle_sum[2] = {0, 0};
    ak_vec3 up_sum[2] = {{0, 0, 0}, {0, 0, 0}};
    int32_t stance_n[2] = {0, 0};
    for (int32_t f = 0; f < n; ++f) {
        ak_clip_frame(c, sk, f, local);
        ak_fk(sk, local, world);
        for (int s = 0; s < 2; ++s) {
            for (int32_t j = foot[s]; j < sk->subtree_end[foot[s]]; ++j)
                if (world[j].translation.y < floor_y) floor_y = world[j].translation.y;
        }
    }
    for (int32_t f = 0; f < n; ++f) {
        ak_clip_frame(c, sk, f, local);
        ak_fk(sk, local, world);
        for (int s = 0; s < 2; ++s) {
            if (!m->contacts[s][f]) continue;
            ankle_sum[s] += world[foot[s]].translation.y - floor_y;
            up_sum[s] = akv_add(
                up_sum[s], akq_rotate(akq_conj(world[foot[s]].rotation), ak_vec3_make(0, 1, 0)));
            ++stance_n[s];
        }
    }
    free(local);
    m->floor_y = floor_y;
    for (int s = 0; s < 2; ++s) {
        if (stance_n[s] == 0)
            return ak_error_set(err, AK_ERR_DEGENERATE, 0,
                                "the %s foot never touches the ground in the cycle",
                                s == 0 ? "left" : "right");
        m->sole_height[s] = (float)(ankle_sum[s] / stance_n[s]);
        m->foot_up_local[s] = ak_vec3_normalize_or(up_sum[s], ak_vec3_make(0, 1, 0));
        m->stance_fraction[s] = (float)stance_n[s] / (float)n;
    }
    return AK_OK;
}

int32_t ak_walk_motion_create(const ak_skeleton *sk_src, const ak_clip *clip_src,
                              const ak_walk_motion_params *p, ak_walk_motion **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!sk_src || !clip_src || !p || !out)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if (clip_src->joint_count != sk_src->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has %d joints, skeleton %d",
                            (int)clip_src->joint_count, (int)sk_src->joint_count);
    if (sk_src->parents[0] != -1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint 0 must be the root");
    ak_walk_motion *m = (ak_walk_motion *)calloc(1, sizeof *m);
    if (!m) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    int32_t st = ak_humanoid_find(sk_src, p->humanoid_overrides, &m->humanoid, err);
    if (st != AK_OK) return fail(m, st);
    /* Units. */
    m->metres_per_unit = p->metres_per_unit;
    m->units = AK_UNITS_METRES;
    if (!(m->metres_per_unit > 0.0f)) {
        m->units = (int32_t)ak_units_detect(ak_clip_standing_height(clip_src, sk_src),
                                            &m->metres_per_unit);
        if (!(m->metres_per_unit > 0.0f)) m->metres_per_unit = 1.0f;
    }
    const float s = m->metres_per_unit;
    st = ak_skeleton_clone(sk_src, &m->skeleton, err);
    if (st != AK_OK) return fail(m, st);
    ak_skeleton_scale(m->skeleton, s);
    ak_clip *full = ak_clip_clone(clip_src);
    if (!full) return fail(m, ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory"));
    ak_clip_scale(full, s);
    const int32_t lf = m->humanoid.joint[AK_HUM_LEFT_FOOT],
                  rf = m->humanoid.joint[AK_HUM_RIGHT_FOOT];
    ak_vec3 loop_end_pos = {0, 0, 0};
    float loop_end_heading = 0.0f;
    int32_t has_end = 0;
    if (p->cycle_start == 0 && p->cycle_end == 0) {
        if (!full->loop) {
            ak_clip_destroy(full);
            return fail(m,
                        ak_error_set(
                            err, AK_ERR_INVALID_ARG, 0,
                            "the clip does not loop: give a cycle (start:end) or let it be found"));
        }
        m->clip = full;
        m->cycle_start = 0;
        m->cycle_end = full->frame_count;
    } else {
        int32_t a = p->cycle_start, b = p->cycle_end;
        full->loop = 0;
        if (a < 0 && b < 0) {
            uint8_t *fl = (uint8_t *)malloc((size_t)full->frame_count * 2);
            if (!fl) {
                ak_clip_destroy(full);
                return fail(m, ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory"));
            }
            st = ak_foot_contacts_detect(m->skeleton, full, lf, rf, 1.0f, &p->contacts, fl,
                                         fl + full->frame_count, err);
            ak_cycle cyc;
            if (st == AK_OK)
                st = ak_cycle_find(m->skeleton, full, fl, fl + full->frame_count, p->min_cycle_time,
                                   p->max_cycle_time, &cyc, err);
            free(fl);
            if (st != AK_OK) {
                ak_clip_destroy(full);
                return fail(m, st);
            }
            a = cyc.start;
            b = cyc.end;
            m->pose_error = cyc.pose_error;
            m->velocity_error = cyc.velocity_error;
        }
        if (a < 0 || b <= a + 2 || b >= full->frame_count) {
            const int frames = (int)full->frame_count;
            ak_clip_destroy(full);
            return fail(m,
                        ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                     "cycle %d:%d must satisfy 0 <= start < end - 2 and end < %d "
                                     "(the clip's frame count)",
                                     (int)a, (int)b, frames));
        }
        m->cycle_start = a;
        m->cycle_end = b;
        cycle_errors(full, a, b, &m->pose_error, &m->velocity_error);
        const int32_t blend = (int32_t)lroundf(p->seam_blend / full->frame_time);
        st = cut_cycle(m->skeleton, full, a, b, blend, &m->clip, &loop_end_pos, &loop_end_heading,
                       err);
        ak_clip_destroy(full);
        if (st != AK_OK) return fail(m, st);
        has_end = 1;
    }
    /* Root motion of the cycle. */
    ak_root_motion_params rp = ak_root_motion_defaults();
    rp.has_loop_end = has_end;
    rp.loop_end_position = loop_end_pos;
    rp.loop_end_heading = loop_end_heading;
    st = ak_root_motion_create(m->skeleton, m->clip, &rp, &m->root, err);
    if (st != AK_OK) return fail(m, st);
    /* Contacts of the cycle. */
    const int32_t n = m->clip->frame_count;
    m->contacts[0] = (uint8_t *)malloc((size_t)n);
    m->contacts[1] = (uint8_t *)malloc((size_t)n);
    if (!m->contacts[0] || !m->contacts[1])
        return fail(m, ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory"));
    if (p->stance_left && p->stance_right && !has_end) {
        memcpy(m->contacts[0], p->stance_left, (size_t)n);
        memcpy(m->contacts[1], p->stance_right, (size_t)n);
    } else {
        st = ak_foot_contacts_detect(m->skeleton, m->clip, lf, rf, 1.0f, &p->contacts,
                                     m->contacts[0], m->contacts[1], err);
        if (st != AK_OK) return fail(m, st);
    }
    st = calibrate(m, err);
    if (st == AK_OK) st = ak_walk_motion_landings(m, err);
    if (st != AK_OK) return fail(m, st);
    ak_vec3 d;
    ak_root_motion_loop(m->root, &d, NULL);
    m->stride_length = sqrtf(d.x * d.x + d.z * d.z);
    m->travel_heading = m->stride_length > 1e-4f ? atan2f(d.x, d.z) : 0.0f;
    for (int s = 0; s < 2; ++s) {
        const int32_t up =
            m->humanoid.joint[s == 0 ? AK_HUM_LEFT_UPPER_LEG : AK_HUM_RIGHT_UPPER_LEG];
        const int32_t lo =
            m->humanoid.joint[s == 0 ? AK_HUM_LEFT_LOWER_LEG : AK_HUM_RIGHT_LOWER_LEG];
        const int32_t ft = s == 0 ? lf : rf;
        (void)up;
        m->leg_length[s] = m->skeleton->bone_lengths[lo] + m->skeleton->bone_lengths[ft];
    }
    *out = m;
    return AK_OK;
}

void ak_walk_motion_get_info(const ak_walk_motion *m, ak_walk_motion_info *info)
{
    if (!m || !info) return;
    memset(info, 0, sizeof *info);
    info->metres_per_unit = m->metres_per_unit;
    info->units = m->units;
    info->cycle_start = m->cycle_start;
    info->cycle_end = m->cycle_end;
    info->pose_error = m->pose_error;
    info->velocity_error = m->velocity_error;
    info->cycle_time = ak_clip_duration(m->clip);
    info->stride_length = m->stride_length;
    info->speed = info->cycle_time > 0.0f ? m->stride_length / info->cycle_time : 0.0f;
    info->travel_heading = m->travel_heading;
    for (int s = 0; s < 2; ++s) {
        info->sole_height[s] = m->sole_height[s];
        info->stance_fraction[s] = m->stance_fraction[s];
        info->leg_length[s] = m->leg_length[s];
    }
}

const ak_skeleton *ak_walk_motion_skeleton(const ak_walk_motion *m)
{
    return m ? m->skeleton : NULL;
}
const ak_clip *ak_walk_motion_clip(const ak_walk_motion *m)
{
    return m ? m->clip : NULL;
}
const ak_humanoid *ak_walk_motion_humanoid(const ak_walk_motion *m)
{
    return m ? &m->humanoid : NULL;
}
const ak_root_motion *ak_walk_motion_root(const ak_walk_motion *m)
{
    return m ? m->root : NULL;
}
const uint8_t *ak_walk_motion_contacts(const ak_walk_motion *m, int32_t side)
{
    return (m && (side == 0 || side == 1)) ? m->contacts[side] : NULL;
}

int32_t ak_walk_motion_set_contacts(ak_walk_motion *m, const uint8_t *left, const uint8_t *right,
                                    ak_error *err)
{
    if (!m || !left || !right) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    const int32_t n = m->clip->frame_count;
    int any[2] = {0, 0};
    for (int32_t f = 0; f < n; ++f) {
        any[0] |= left[f] != 0;
        any[1] |= right[f] != 0;
    }
    if (!any[0] || !any[1])
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "each foot needs at least one stance frame");
    for (int32_t f = 0; f < n; ++f) {
        m->contacts[0][f] = left[f] != 0;
        m->contacts[1][f] = right[f] != 0;
    }
    int32_t st = calibrate(m, err);
    return st == AK_OK ? ak_walk_motion_landings(m, err) : st;
}

int32_t ak_walk_motion_stance(const ak_walk_motion *m, int32_t side, float t)
{
    if (!m || side < 0 || side > 1) return 0;
    const ak_clip *c = m->clip;
    float d = ak_clip_duration(c);
    if (d > 0.0f) t = t - floorf(t / d) * d;
    int32_t f = (int32_t)floorf(t / c->frame_time + 0.5f);
    f = ((f % c->frame_count) + c->frame_count) % c->frame_count;
    return m->contacts[side][f];
}

int32_t ak_walk_motion_landings(ak_walk_motion *m, ak_error *err)
{
    const ak_skeleton *sk = m->skeleton;
    const ak_clip *c = m->clip;
    const int32_t n = c->frame_count, J = sk->joint_count;
    for (int s = 0; s < 2; ++s) {
        if (!m->land_rel[s]) m->land_rel[s] = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)n);
        if (!m->swing_phase[s]) m->swing_phase[s] = (float *)malloc(sizeof(float) * (size_t)n);
        if (!m->land_rel[s] || !m->swing_phase[s])
            return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    if (!local) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    ak_xform *world = local + J;
    const float ft = c->frame_time;
    for (int s = 0; s < 2; ++s) {
        const uint8_t *con = m->contacts[s];
        const int32_t foot = m->humanoid.joint[s == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT];
        for (int32_t f = 0; f < n; ++f) {
            /* Frames until the next stance start (0 in stance) and since the last lift-off. */
            int32_t ahead = 0, behind = 0;
            if (!con[f]) {
                while (ahead < n && !con[(f + ahead) % n])
                    ++ahead;
                while (behind < n && !con[((f - behind) % n + n) % n])
                    ++behind;
            }
            m->swing_phase[s][f] = con[f] ? 0.0f : (float)behind / (float)(ahead + behind);
            const int32_t land = (f + ahead) % n;
            /* The sole at the landing frame, in the character frame of frame f. */
            const float t0 = (float)f * ft, t1 = t0 + (float)ahead * ft;
            ak_clip_frame(c, sk, land, local);
            ak_root_motion_make_in_place(m->root, (float)land * ft, local);
            ak_fk(sk, local, world);
            const ak_vec3 sole =
                akv_sub(world[foot].translation,
                        akv_scale(akq_rotate(world[foot].rotation, m->foot_up_local[s]),
                                  m->sole_height[s]));
            ak_vec3 dp;
            float dh;
            ak_root_motion_delta(m->root, t0, t1, &dp, &dh);
            m->land_rel[s][f] = akv_add(dp, akq_rotate(ak_quat_yaw(dh), sole));
        }
    }
    free(local);
    return AK_OK;
}
