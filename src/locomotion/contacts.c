/* Reading locomotion out of a capture: the clip's units, heel and toe contacts, and the walk
 * cycle finder. Everything here runs once at load time and may allocate. */
#include "animkit/contacts.h"
#include "animkit/rootmotion.h"
#include "core/humanoid_internal.h"
#include "core/xform_inline.h"
#include "locomotion/internal.h"

#include <stdlib.h>
#include <string.h>

ak_units ak_units_detect_clip(const ak_skeleton *sk, const ak_clip *clip, float *mpu)
{
    float h = (sk && clip) ? ak_clip_standing_height(clip, sk) : 0.0f;
    /* The clip's typical standing height, not the rest pose: CMU rest poses splay the legs,
     * and some files' rest pose is not a standing person at all. */
    if (!(h > 0.0f) && sk) h = ak_skeleton_rest_height(sk);
    const ak_units u = ak_units_detect(h, mpu);
    if (mpu && !(*mpu > 0.0f)) *mpu = 1.0f;
    return u;
}

/* ---- Contacts ---- */

ak_contact_params ak_contact_defaults(void)
{
    ak_contact_params p;
    memset(&p, 0, sizeof p);
    p.heel[0] = p.heel[1] = p.toe[0] = p.toe[1] = -1;
    p.metres_per_unit = 0.0f;
    p.height_on = 0.025f;
    p.height_off = 0.045f;
    p.speed_on = 0.25f;
    p.speed_off = 0.45f;
    p.rise_off = 0.12f;
    p.floor_window = 0.8f;
    p.max_floor_rise = 0.3f;
    p.min_stance = 0.05f;
    p.min_swing = 0.06f;
    p.body_speed_fraction = 0.12f;
    p.roll_height = 0.0125f;
    p.root_joint = -1;
    return p;
}

int32_t ak_contact_validate(const ak_contact_params *p, ak_error *err)
{
    if (!p || !p->skeleton || !p->clip)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "contacts need a skeleton and a clip");
    const int32_t J = p->skeleton->joint_count;
    if (p->clip->joint_count != J)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has %d joints, skeleton %d",
                            (int)p->clip->joint_count, (int)J);
    for (int s = 0; s < 2; ++s)
        if (p->heel[s] < -1 || p->heel[s] >= J || p->toe[s] < -1 || p->toe[s] >= J)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s heel/toe joint out of range",
                                s == 0 ? "left" : "right");
    if (p->root_joint >= J)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "root_joint %d out of range (-1: measured, else 0..%d)",
                            (int)p->root_joint, (int)J - 1);
    return ak_contact_thresholds_validate(p, err);
}

int32_t ak_contact_thresholds_validate(const ak_contact_params *p, ak_error *err)
{
    /* the range table first: its messages name the field and its bounds */
    const int32_t st = ak_params_check(ak_contact_param_ranges(), p, err);
    if (st != AK_OK) return st;
    if (p->root_joint < -1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "root_joint %d out of range (-1: measured, else a joint)",
                            (int)p->root_joint);
    if (!(p->metres_per_unit >= 0.0f) || !isfinite(p->metres_per_unit))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "metres_per_unit must be >= 0");
    if (!(p->height_on > 0.0f) || !(p->height_off >= p->height_on) || !isfinite(p->height_off))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "height_on must be > 0 and height_off >= height_on (off >= on)");
    if (!(p->speed_on > 0.0f) || !(p->speed_off >= p->speed_on) || !isfinite(p->speed_off))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "speed_on must be > 0 and speed_off >= speed_on (off >= on)");
    if (!(p->rise_off >= 0.0f) || !isfinite(p->rise_off))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "rise_off must be >= 0");
    if (!(p->max_floor_rise >= 0.0f) || !isfinite(p->max_floor_rise))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "max_floor_rise must be >= 0 m");
    if (!(p->floor_window > 0.0f) || !isfinite(p->floor_window))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "floor_window must be > 0 s");
    if (!(p->min_stance >= 0.0f) || !isfinite(p->min_stance) || !(p->min_swing >= 0.0f) ||
        !isfinite(p->min_swing))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "min_stance and min_swing must be >= 0 s");
    if (!(p->body_speed_fraction >= 0.0f) || !isfinite(p->body_speed_fraction))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "body_speed_fraction must be >= 0");
    if (!(p->roll_height >= 0.0f) || !isfinite(p->roll_height))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "roll_height must be >= 0 m");
    return AK_OK;
}

int32_t ak_contact_grid(float frame_time)
{
    if (!(frame_time * AK_CONTACT_GRID_BELOW_RATE > 1.0f)) return 1;
    const int32_t k = (int32_t)ceilf(frame_time * AK_CONTACT_GRID_RATE - 1e-3f);
    return k > 1 ? k : 1;
}

int32_t ak_contact_grid_count(const ak_clip *c, int32_t k)
{
    if (c->frame_count < 2) return c->frame_count;
    return c->loop ? c->frame_count * k : (c->frame_count - 1) * k + 1;
}

/* World positions (times scale) of joints at every grid time (k per frame, linear between
 * frames: slerp and lerp, as a player shows them): out[j*n + i], n = ak_contact_grid_count. */
static int32_t joint_tracks(const ak_skeleton *sk, const ak_clip *c, int32_t k, int32_t n,
                            const int32_t *joints, int32_t count, float scale, ak_vec3 *out)
{
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)sk->joint_count * 2);
    if (!local) return AK_ERR_NOMEM;
    ak_xform *world = local + sk->joint_count;
    for (int32_t f = 0; f < n; ++f) {
        if (f % k == 0)
            ak_clip_frame(c, sk, f / k, local);
        else
            ak_clip_sample(c, sk, (float)((double)f * (double)c->frame_time / (double)k),
                           AK_INTERP_LINEAR, local);
        ak_fk(sk, local, world);
        for (int32_t k = 0; k < count; ++k)
            out[(size_t)k * n + f] = joints[k] >= 0 ? akv_scale(world[joints[k]].translation, scale)
                                                    : ak_vec3_make(0, 0, 0);
    }
    free(local);
    return AK_OK;
}

/* Frame index f+d in a clip of n frames: wrapped for loops, clamped otherwise. */
static int32_t frame_at(int32_t f, int32_t d, int32_t n, int32_t loop)
{
    int32_t g = f + d;
    if (loop) return ((g % n) + n) % n;
    return g < 0 ? 0 : (g > n - 1 ? n - 1 : g);
}

/* Frames either side of a frame for its speed (a central difference over 1/30 s). */
static int32_t speed_half_window(float ft)
{
    const int32_t k = (int32_t)lroundf((1.0f / 60.0f) / ft);
    return k < 1 ? 1 : k;
}

/* Samples either side of a frame for the speed a point must be under to come down: the mean
 * over +-AK_CONTACT_ON_WINDOW (1/24 s, one frame of a 24 fps file) where the samples are
 * 1/100 s apart or closer (a 120 fps capture, and the 120-a-second grid every file under 50
 * fps is read on: five samples either side for each of them). On that grid a 30 fps copy's
 * speed over +-1/60 s was its frames' chord over 1/30 s, the original's a chord over 1/30 s
 * of its own frames, two measures: a heel dipping under speed_on for 2-4 original frames at
 * contact while it rolls on at 0.3-0.5 m/s came down in one and not the other (CMU 16_11).
 * Over 1/12 s both read the heel rolling. Samples further apart (files of 50-100 fps, read
 * at their own rate) keep the off window: +-1/24 s is 2.5 frames at 60 fps, and neither 2
 * nor 3 frames nor 2.5 read by interpolation held the 60 fps rows (the issue-22 note). */
static int32_t on_half_window(float ft)
{
    if (ft * 100.0f > 1.0001f) return speed_half_window(ft);
    const int32_t k = (int32_t)lroundf(AK_CONTACT_ON_WINDOW / ft);
    return k < 1 ? 1 : k;
}

/* Horizontal speed (m/s) and rise (m/s, into *rise) of track pos at sample f over +-k samples
 * ([first, n) not looping: cut by the clip's ends, see cut_window_speed). */
static float window_speed(const ak_vec3 *pos, int32_t f, int32_t k, int32_t first, int32_t n,
                          int32_t loop, int32_t grid, float ft, float *rise);

/* The velocity (per sample) at sample f of a track x on a contact grid of `grid` samples a
 * frame (samples [first, n), not looping), from the parabola through the file's last three
 * frames (its first three, f nearer the start): at the end itself the one-sided second-order
 * difference (3 x[e] - 4 x[e-grid] + x[e-2 grid]) / (2 grid). */
static ak_vec3 end_velocity(const ak_vec3 *x, int32_t f, int32_t first, int32_t n, int32_t grid)
{
    const int at_start = f - first < n - 1 - f;
    const int32_t e = at_start ? first : n - 1, dir = at_start ? 1 : -1;
    const ak_vec3 p0 = x[e], p1 = x[e + dir * grid], p2 = x[e + 2 * dir * grid];
    const float s = (float)(f - e) / (float)(dir * grid); /* 0 at the end, 1 a frame inward */
    /* d/ds of the parabola through (0, p0), (1, p1), (2, p2) */
    const ak_vec3 d = akv_add(akv_add(akv_scale(p0, s - 1.5f), akv_scale(p1, 2.0f - 2.0f * s)),
                              akv_scale(p2, s - 0.5f));
    return akv_scale(d, (float)dir / (float)grid);
}

/* Horizontal speed (m/s) at sample f of a non-looping track on a contact grid whose speed
 * window [a, b] an end of the clip cuts. The grid's samples between two frames lie on one
 * straight segment, so the one-sided difference there reads the last frame's mean speed, not
 * the speed at the end: a landing that slows inside the last 1/30 s of a 30 fps file (CMU
 * 09_02's right heel, 0.85 m/s over frames 124-128 in 120 fps frames) read as moving where
 * the capture, cut at the same frame, reads its last 1/60 s (0.71 m/s, under the roll's
 * speed_off) and lands. The end's own speed comes from the file's last three frames (the
 * parabola's slope, 0.67 m/s there); a kink the parabola cannot follow (a foot still on the
 * first frames, then off at once) reads slow in the segment's mean, so the slower of the two.
 * A file at the grid's rate reads its last 1/60 s of frames and keeps the one-sided
 * difference. */
static float cut_window_speed(const ak_vec3 *pos, int32_t f, int32_t a, int32_t b, int32_t first,
                              int32_t n, int32_t grid, float ft)
{
    const ak_vec3 d = akv_sub(pos[b], pos[a]);
    float speed = b > a ? sqrtf(d.x * d.x + d.z * d.z) / ((float)(b - a) * ft) : 0.0f;
    if (grid > 1 && n - first > 2 * grid) {
        const ak_vec3 v = end_velocity(pos, f, first, n, grid);
        speed = fminf(speed, sqrtf(v.x * v.x + v.z * v.z) / ft);
    }
    return speed;
}

static float window_speed(const ak_vec3 *pos, int32_t f, int32_t k, int32_t first, int32_t n,
                          int32_t loop, int32_t grid, float ft, float *rise)
{
    /* The root may have travelled a whole loop across a looping clip's wrap: the difference
     * uses in-range frames only. */
    int32_t a = f - k < first ? first : f - k, b = f + k > n - 1 ? n - 1 : f + k;
    if (b == a) {
        a = f > first ? f - 1 : f;
        b = f < n - 1 ? f + 1 : f;
    }
    const ak_vec3 d = akv_sub(pos[b], pos[a]);
    const float span = (float)(b - a) * ft;
    *rise = span > 0.0f ? d.y / span : 0.0f;
    return !loop && b - a < 2 * k ? cut_window_speed(pos, f, a, b, first, n, grid, ft)
                                  : (span > 0.0f ? sqrtf(d.x * d.x + d.z * d.z) / span : 0.0f);
}

/* One point's down flag: height above its local floor (the lowest `level` comes within +-w
 * frames: the point's own track, or its mean over a time window) and horizontal speed
 * (central difference over +-k frames), with hysteresis; the speed and rise thresholds times
 * gain[f] (>= 1). With roll > 0 the point also comes down under `roll` m above its floor
 * while slower than the off speed (a heel rolling over its pad). ORs `bit` into flags[f]. */
static void point_contacts(const ak_contact_params *p, const ak_vec3 *pos, const ak_vec3 *level,
                           const float *gain, int32_t n, int32_t loop, float ft, int32_t first,
                           uint8_t bit, float roll, uint8_t *flags)
{
    int32_t w = (int32_t)lroundf(p->floor_window / ft);
    if (w < 1) w = 1;
    if (loop && 2 * w + 1 > n) w = n / 2;
    const int32_t k = speed_half_window(ft), k_on = on_half_window(ft);
    const int32_t grid = (int32_t)lroundf(p->clip->frame_time / ft); /* samples a frame */
    /* The lowest the point comes in the whole clip: a local floor more than max_floor_rise
     * above it is not a floor (a foot on a pedal, a step onto a chair). */
    float lowest = INFINITY;
    for (int32_t f = first; f < n; ++f)
        if (level[f].y < lowest) lowest = level[f].y;
    int state = -1;
    /* Loops: a second pass so the hysteresis state at frame 0 is the one the loop ends in. */
    for (int32_t pass = 0; pass < (loop ? 2 : 1); ++pass)
        for (int32_t f = 0; f < n; ++f) {
            if (f < first) continue;
            float floor_y = level[f].y;
            /* A faster gait takes its steps in less time: the floor window shrinks with it. */
            const int32_t wf = gain[f] > 1.0f ? (int32_t)lroundf((float)w / gain[f]) : w;
            for (int32_t d = -wf; d <= wf; ++d) {
                const int32_t g = frame_at(f, d, n, loop);
                if (g >= first && level[g].y < floor_y) floor_y = level[g].y;
            }
            float rise = 0.0f, rise_on = 0.0f;
            const float speed = window_speed(pos, f, k, first, n, loop, grid, ft, &rise);
            /* A faster gait also stays down for less time: the on window shrinks with it. */
            int32_t kf = gain[f] > 1.0f ? (int32_t)lroundf((float)k_on / gain[f]) : k_on;
            if (kf < k) kf = k;
            const float speed_in =
                kf == k ? speed : window_speed(pos, f, kf, first, n, loop, grid, ft, &rise_on);
            const float h = pos[f].y - floor_y;
            const float g = gain[f];
            const int rising =
                bit == AK_CONTACT_HEEL && p->rise_off > 0.0f && rise > p->rise_off * g;
            const int on = (h < p->height_on && speed_in < p->speed_on * g) ||
                           (h < roll && speed < p->speed_off * g);
            const int down = on && !rising && floor_y - lowest <= p->max_floor_rise;
            const int off = h > p->height_off || speed > p->speed_off * g || rising;
            if (state < 0)
                state = down;
            else if (state == 0 && down)
                state = 1;
            else if (state == 1 && off)
                state = 0;
            if (pass == (loop ? 1 : 0) && state) flags[f] |= bit;
        }
}

/* Per frame: how much the speed thresholds grow with the body's horizontal speed (the
 * travelling joint's track `body`, mean over +-floor_window/2 of in-range frames): at least
 * 1, else body_speed_fraction * speed / speed_on. */
static void speed_gain(const ak_contact_params *p, const ak_vec3 *body, int32_t n, float ft,
                       int32_t first, float *gain)
{
    int32_t w = (int32_t)lroundf(0.5f * p->floor_window / ft);
    if (w < 1) w = 1;
    for (int32_t f = 0; f < n; ++f) {
        gain[f] = 1.0f;
        if (!(p->body_speed_fraction > 0.0f) || f < first) continue;
        const int32_t a = f - w < first ? first : f - w, b = f + w > n - 1 ? n - 1 : f + w;
        if (b <= a) continue;
        const float dx = body[b].x - body[a].x, dz = body[b].z - body[a].z;
        const float speed = sqrtf(dx * dx + dz * dz) / ((float)(b - a) * ft);
        const float g = p->body_speed_fraction * speed / p->speed_on;
        if (g > 1.0f) gain[f] = g;
    }
}

/* 1 when frame 0 of a capture is a reference pose rather than motion (CMU files start with
 * a T-pose): some tracked point jumps from it to frame 1 faster than 10 m/s and by 5 cm (the
 * file's frames: `grid` samples per frame, ft the file's frame time). */
static int32_t reference_frames(const ak_vec3 *pos, int32_t tracks, int32_t n, int32_t loop,
                                float ft, int32_t grid)
{
    if (loop || n < 3 * grid) return 0;
    float limit = 10.0f * ft;
    if (limit < 0.05f) limit = 0.05f;
    for (int32_t k = 0; k < tracks; ++k)
        if (akv_len(akv_sub(pos[(size_t)k * n + grid], pos[(size_t)k * n])) > limit) return 1;
    return 0;
}

/* The frames a clip's ends cut: [0, first) is a reference pose (never stance), and the
 * `edge` frames after it and before the end have a one-sided speed difference. */
typedef struct clip_ends {
    int32_t first, edge;
} clip_ends;

/* Runs of stance (`stance` 1) or of swing (0) shorter than min_frames take the other state:
 * a stance blip is dropped, a swing blip between two stances is filled with the contacts
 * around it. Circular for loops. A non-loop's swing at either end is kept, and so is a stance
 * that reaches into either end's edge frames and lasts as many: the clip cut it short, not
 * the foot (CMU 09_02's right foot lands 2 frames before the file ends; 07_01 starts on a
 * toe push-off). */
static void drop_short_runs(uint8_t *flag, int32_t n, clip_ends ends, int32_t min_frames,
                            int32_t loop, int stance)
{
    int32_t start = 0;
    if (loop) {
        start = -1;
        for (int32_t i = 0; i < n; ++i)
            if ((flag[i] != 0) != stance) {
                start = i;
                break;
            }
        if (start < 0) return; /* one state everywhere */
    }
    int32_t i = 0;
    while (i < n) {
        if ((flag[(start + i) % n] != 0) != stance) {
            ++i;
            continue;
        }
        int32_t len = 0;
        while (i + len < n && (flag[(start + i + len) % n] != 0) == stance)
            ++len;
        const int32_t margin = stance ? ends.edge : 0;
        const int at_end =
            !loop && (i <= (stance ? ends.first + margin : 0) || i + len >= n - margin);
        /* a cut stance still lasts its speed's half window (1/60 s): one frame where a foot
         * meets the thresholds as the clip ends is as likely a swing passing low */
        const int32_t need = at_end ? margin : min_frames;
        if (len < need) {
            const uint8_t fill =
                stance ? 0 : (uint8_t)(flag[(start + i + n - 1) % n] | flag[(start + i + len) % n]);
            for (int32_t q = 0; q < len; ++q)
                flag[(start + i + q) % n] = fill;
        }
        i += len;
    }
}

/* Blips removed from each point's flag (a heel up for a few frames mid-stance, a toe that
 * touches for one), then from the foot's stance as a whole. `scratch` holds n bytes. */
static void clean_contacts(uint8_t *flags, int32_t n, clip_ends ends, int32_t min_stance,
                           int32_t min_swing, int32_t loop, uint8_t *bit)
{
    static const uint8_t bits[2] = {AK_CONTACT_HEEL, AK_CONTACT_TOE};
    for (int k = 0; k < 2; ++k) {
        for (int32_t f = 0; f < n; ++f)
            bit[f] = (flags[f] & bits[k]) ? 1 : 0;
        drop_short_runs(bit, n, ends, min_swing, loop, 0);
        drop_short_runs(bit, n, ends, min_stance, loop, 1);
        for (int32_t f = 0; f < n; ++f)
            flags[f] = (uint8_t)((flags[f] & ~bits[k]) | (bit[f] ? bits[k] : 0));
    }
    drop_short_runs(flags, n, ends, min_swing, loop, 0);
    drop_short_runs(flags, n, ends, min_stance, loop, 1);
}

/* The heel and toe joints: given, or from the humanoid map (toes optional). */
static int32_t contact_joints(const ak_contact_params *p, int32_t joints[4], ak_error *err)
{
    ak_humanoid h;
    int have_map = 0;
    for (int s = 0; s < 2; ++s) {
        joints[s] = p->heel[s];
        joints[2 + s] = p->toe[s];
    }
    if (joints[0] < 0 || joints[1] < 0 || joints[2] < 0 || joints[3] < 0) {
        ak_error e;
        have_map = ak_humanoid_find(p->skeleton, NULL, &h, &e) == AK_OK;
        if (!have_map && (joints[0] < 0 || joints[1] < 0))
            return ak_error_set(err, AK_ERR_NOT_FOUND, 0, "contacts: %s", e.message);
    }
    if (have_map) {
        static const int32_t slot[4] = {AK_HUM_LEFT_FOOT, AK_HUM_RIGHT_FOOT, AK_HUM_LEFT_TOE,
                                        AK_HUM_RIGHT_TOE};
        for (int k = 0; k < 4; ++k)
            if (joints[k] < 0) joints[k] = h.joint[slot[k]];
    }
    /* No toe joint in the map: the foot's End Site tip, when it has one (rigs that end the
     * leg at the ankle); a toe that is the ankle itself: heel only. */
    const ak_skeleton *sk = p->skeleton;
    for (int s = 0; s < 2; ++s) {
        const int32_t tip = joints[s] + 1;
        if (joints[2 + s] < 0 && tip < sk->joint_count && sk->parents[tip] == joints[s] &&
            sk->subtree_end[tip] == tip + 1 && sk->bone_lengths[tip] > 0.0f)
            joints[2 + s] = tip;
        if (joints[2 + s] == joints[s]) joints[2 + s] = -1;
    }
    return AK_OK;
}

int32_t ak_clip_last_moving(const ak_clip *c, int32_t first, int32_t end)
{
    const size_t J = (size_t)c->joint_count, T = (size_t)c->track_count;
    int32_t f = end - 1;
    while (f > first &&
           !memcmp(c->rotations + (size_t)f * J, c->rotations + (size_t)(f - 1) * J,
                   sizeof(ak_quat) * J) &&
           (T == 0 || !memcmp(c->translations + (size_t)f * T,
                              c->translations + (size_t)(f - 1) * T, sizeof(ak_vec3) * T)))
        --f;
    return f;
}

/* Trailing frames of a non-looping clip that repeat the frame before them exactly
 * (ak_clip_last_moving). A repeated pose is no motion: its speed differences would read a foot
 * that stops dead (CMU 02_01 with its last line twice had a 2-frame right stance at its end where
 * the file has a 1-frame one). At least two frames are left. */
static int32_t repeated_end_frames(const ak_clip *c)
{
    if (c->loop) return 0;
    const int32_t last = ak_clip_last_moving(c, 0, c->frame_count);
    return c->frame_count - 1 - (last > 1 ? last : 1);
}

/* Grid samples [0, moving) of the n on a clip's contact grid reach its last moving frame. */
static int32_t moving_samples(const ak_clip *c, int32_t grid, int32_t n)
{
    const int32_t moving = n - repeated_end_frames(c) * grid;
    return moving >= 1 && moving <= n ? moving : n;
}

/* The heel, toe and travelling joints' tracks (metres) on the n grid samples and the speed
 * gain on the first `moving`: pos[k*n + f] for k = heel L, heel R, toe L, toe R, body. */
static int32_t contact_tracks(const ak_contact_params *p, const int32_t joints[4], int32_t grid,
                              int32_t n, int32_t moving, ak_vec3 **pos, float **gain,
                              int32_t *first, ak_error *err)
{
    const ak_clip *c = p->clip;
    float mpu = p->metres_per_unit;
    if (!(mpu > 0.0f)) ak_units_detect_clip(p->skeleton, c, &mpu);
    ak_root_joint_report rj;
    ak_error e;
    int32_t tracked[5] = {joints[0], joints[1], joints[2], joints[3], p->root_joint};
    if (p->root_joint < 0)
        tracked[4] = ak_root_joint_find(p->skeleton, c, NULL, &rj, &e) == AK_OK ? rj.joint : 0;
    /* calloc: joint_tracks writes every sample; zeroed, no path reads an unset one */
    *pos = (ak_vec3 *)calloc((size_t)n * 5, sizeof(ak_vec3));
    *gain = (float *)malloc(sizeof(float) * (size_t)n);
    if (!*pos || !*gain || joint_tracks(p->skeleton, c, grid, n, tracked, 5, mpu, *pos) != AK_OK) {
        free(*pos);
        free(*gain);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    /* a reference frame 0 takes the grid samples up to frame 1 (they blend from it) */
    *first = grid * reference_frames(*pos, 4, n, c->loop, c->frame_time, grid);
    speed_gain(p, *pos + (size_t)4 * n, moving, c->frame_time / (float)grid, *first, *gain);
    return AK_OK;
}

/* Heel and toe flags of one foot on grid samples [0, moving), the heel's floor read on
 * `heel_level` and the heel coming down under `roll` m while slower than the off speed too
 * (0: not), blips removed. */
static void point_pair(const ak_contact_params *p, const ak_vec3 *heel, const ak_vec3 *heel_level,
                       const ak_vec3 *toe, const float *gain, int32_t moving, float ft,
                       int32_t first, float roll, uint8_t *flags, uint8_t *scratch)
{
    const int32_t loop = p->clip->loop;
    memset(flags, 0, (size_t)moving);
    point_contacts(p, heel, heel_level, gain, moving, loop, ft, first, AK_CONTACT_HEEL, roll,
                   flags);
    if (toe)
        point_contacts(p, toe, toe, gain, moving, loop, ft, first, AK_CONTACT_TOE, 0.0f, flags);
    const clip_ends ends = {first, speed_half_window(ft)};
    clean_contacts(flags, moving, ends, (int32_t)ceilf(p->min_stance / ft),
                   (int32_t)ceilf(p->min_swing / ft), loop, scratch);
}

/* A track's mean over +-k samples (the trapezoid rule: on a grid linear between a file's
 * frames, the mean of what a player shows over those 2k sample steps), samples [first, n);
 * circular for loops, in-range samples only otherwise. */
static void track_mean(const ak_vec3 *x, int32_t n, int32_t first, int32_t k, int32_t loop,
                       ak_vec3 *out)
{
    for (int32_t f = 0; f < n; ++f) {
        ak_vec3 sum = {0.0f, 0.0f, 0.0f};
        float weight = 0.0f;
        for (int32_t d = -k; d <= k; ++d) {
            const int32_t g = loop ? frame_at(f, d, n, 1) : f + d;
            if (g < first || g >= n) continue;
            const float w = (d == -k || d == k) ? 0.5f : 1.0f;
            sum = akv_add(sum, akv_scale(x[g], w));
            weight += w;
        }
        out[f] = weight > 0.0f ? akv_scale(sum, 1.0f / weight) : x[f];
    }
}

/* One foot's flags on grid samples [0, n): the heel and toe bits, then the roll bit where the
 * heel with roll_height (cleaned the same way) is down and the heel bit is not. The roll's
 * floor is the lowest of the heel's height averaged over +-1/60 s (the speed's window, the
 * same time at every rate): a heel rolling over its pad sits within millimetres of its floor,
 * and a marker glitch of one 120 fps frame (16_11's left ankle 1.3 cm low at frame 398) set
 * the floor there, a floor a 30 fps copy never sees. The
 * samples from `moving` on repeat the clip's last pose: they take sample moving - 1's flags.
 * `scratch` holds 2n bytes, `level` n points. */
static void foot_contacts(const ak_contact_params *p, const ak_vec3 *heel, const ak_vec3 *toe,
                          const float *gain, int32_t n, int32_t moving, float ft, int32_t first,
                          uint8_t *flags, uint8_t *scratch, ak_vec3 *level)
{
    point_pair(p, heel, heel, toe, gain, moving, ft, first, 0.0f, flags, scratch);
    if (p->roll_height > 0.0f) {
        uint8_t *rolled = scratch + n;
        track_mean(heel, moving, first, speed_half_window(ft), p->clip->loop, level);
        point_pair(p, heel, level, toe, gain, moving, ft, first, p->roll_height, rolled, scratch);
        for (int32_t f = 0; f < moving; ++f)
            if ((rolled[f] & AK_CONTACT_HEEL) && !(flags[f] & AK_CONTACT_HEEL))
                flags[f] |= AK_CONTACT_ROLL;
    }
    for (int32_t f = moving; f < n; ++f)
        flags[f] = flags[moving - 1];
}

int32_t ak_contact_run_grid(const ak_contact_params *p, int32_t grid, uint8_t *left, uint8_t *right,
                            ak_error *err)
{
    int32_t st = ak_contact_validate(p, err);
    if (st != AK_OK) return st;
    if (!left || !right || !(grid >= 1))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output or grid < 1");
    int32_t joints[4];
    st = contact_joints(p, joints, err);
    if (st != AK_OK) return st;
    const ak_clip *c = p->clip;
    const int32_t n = ak_contact_grid_count(c, grid);
    const float ft = c->frame_time / (float)grid;
    ak_vec3 *pos = NULL;
    float *gain = NULL;
    int32_t first = 0;
    /* grid samples up to the last frame that moves */
    const int32_t moving = moving_samples(c, grid, n);
    st = contact_tracks(p, joints, grid, n, moving, &pos, &gain, &first, err);
    if (st != AK_OK) return st;
    uint8_t *out[2] = {left, right};
    uint8_t *scratch = (uint8_t *)malloc((size_t)n * 2u);
    ak_vec3 *level = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)n);
    if (!scratch || !level) {
        free(scratch);
        free(level);
        free(pos);
        free(gain);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    for (int s = 0; s < 2; ++s)
        foot_contacts(p, pos + (size_t)s * n, joints[2 + s] >= 0 ? pos + (size_t)(2 + s) * n : NULL,
                      gain, n, moving, ft, first, out[s], scratch, level);
    free(level);
    free(scratch);
    free(gain);
    free(pos);
    return AK_OK;
}

int32_t ak_contact_run(const ak_contact_params *p, uint8_t *left, uint8_t *right, ak_error *err)
{
    return ak_contact_run_grid(p, 1, left, right, err);
}

int32_t ak_foot_contacts_detect(const ak_skeleton *sk, const ak_clip *c, int32_t lf, int32_t rf,
                                float mpu, const ak_contact_params *params, uint8_t *left,
                                uint8_t *right, ak_error *err)
{
    if (!sk || !c || !params || !left || !right)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if (lf < 0 || rf < 0 || lf >= sk->joint_count || rf >= sk->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "end joints out of range");
    ak_contact_params cp = *params;
    cp.skeleton = sk;
    cp.clip = c;
    cp.metres_per_unit = mpu;
    const int32_t end[2] = {lf, rf};
    for (int s = 0; s < 2; ++s) {
        cp.heel[s] = end[s];
        const int32_t child = end[s] + 1;
        cp.toe[s] = child < sk->joint_count && sk->parents[child] == end[s] ? child : end[s];
    }
    /* Heel and toe bits as ak_contact_run gives them (a joint without a child is its own toe
     * point, so its two bits agree). */
    return ak_contact_run(&cp, left, right, err);
}

int32_t ak_contact_frame(int32_t frame_count, float frame_time, int32_t loop, float t)
{
    if (frame_count <= 0 || !(frame_time > 0.0f) || !isfinite(t)) return -1;
    const float x = t / frame_time + 0.5f;
    /* Far beyond the clip, wrap in double so the frame index stays exact. */
    int64_t f = (int64_t)floor((double)x);
    if (loop) {
        f %= frame_count;
        if (f < 0) f += frame_count;
    } else {
        f = f < 0 ? 0 : (f >= frame_count ? frame_count - 1 : f);
    }
    return (int32_t)f;
}

uint8_t ak_contact_at(const uint8_t *flags, int32_t frame_count, float frame_time, int32_t loop,
                      float t)
{
    const int32_t f = flags ? ak_contact_frame(frame_count, frame_time, loop, t) : -1;
    return f >= 0 ? flags[f] : 0;
}

/* ---- Cycle finder ---- */

ak_cycle_params ak_cycle_defaults(void)
{
    ak_cycle_params p;
    memset(&p, 0, sizeof p);
    p.min_time = 0.45f;
    p.max_time = 1.8f;
    p.min_step_fraction = 0.3f;
    return p;
}

int32_t ak_cycle_validate(const ak_cycle_params *p, ak_error *err)
{
    if (!p || !p->skeleton || !p->clip || !p->left || !p->right)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "the cycle finder needs a skeleton, a clip and contact flags");
    if (p->clip->joint_count != p->skeleton->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip/skeleton mismatch");
    if (!(p->min_time > 0.0f) || !isfinite(p->min_time))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "min_time = %g: must be finite and > 0 s",
                            (double)p->min_time);
    if (!(p->max_time >= p->min_time) || !isfinite(p->max_time))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "max_time = %g: must be finite and >= min_time (%g s)",
                            (double)p->max_time, (double)p->min_time);
    if (!(p->leg_length >= 0.0f) || !isfinite(p->leg_length))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "leg_length = %g: must be finite and >= 0 m (0: measured)",
                            (double)p->leg_length);
    if (!(p->min_step_fraction >= 0.0f) || !isfinite(p->min_step_fraction))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "min_step_fraction = %g: must be finite and >= 0",
                            (double)p->min_step_fraction);
    /* The range table last, after the checks that say more (and their status). */
    return ak_params_check(ak_cycle_param_ranges(), p, err);
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

void akl_cycle_errors_over(const ak_clip *c, const int32_t *joint, int32_t count, int32_t a,
                           int32_t b, float *pose_error, float *velocity_error)
{
    const int32_t J = c->joint_count, n = c->frame_count;
    if (a < 0 || b < 0 || a + 1 >= n || b + 1 >= n || count < 1) {
        *pose_error = *velocity_error = 0.0f;
        return;
    }
    float pe = 0.0f, ve = 0.0f;
    for (int32_t i = 0; i < count; ++i) {
        const int32_t j = joint ? joint[i] : i;
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
    *pose_error = pe / (float)count;
    *velocity_error = ve / (float)count;
}

void ak_cycle_errors(const ak_clip *c, int32_t a, int32_t b, float *pose_error,
                     float *velocity_error)
{
    akl_cycle_errors_over(c, NULL, c->joint_count, a, b, pose_error, velocity_error);
}

static float ground_dist(ak_vec3 a, ak_vec3 b)
{
    const float dx = b.x - a.x, dz = b.z - a.z;
    return sqrtf(dx * dx + dz * dz);
}

/* Per frame of the source clip: the root's ground position and heading. */
typedef struct cycle_track {
    ak_vec3 *root;
    float *heading; /* unwrapped */
    float *path;    /* root path length from frame 0 */
} cycle_track;

static void free_track(cycle_track *t)
{
    free(t->root);
    free(t->heading);
    free(t->path);
}

static int32_t make_track(const ak_clip *c, const ak_skeleton *sk, cycle_track *t)
{
    const int32_t n = c->frame_count;
    /* calloc: the loop below writes every entry; zeroed, no path can read an unset one */
    t->root = (ak_vec3 *)calloc((size_t)n, sizeof(ak_vec3));
    t->heading = (float *)calloc((size_t)n, sizeof(float));
    t->path = (float *)calloc((size_t)n, sizeof(float));
    if (!t->root || !t->heading || !t->path) return AK_ERR_NOMEM;
    const int32_t tr = c->joint_track[0];
    for (int32_t f = 0; f < n; ++f) {
        ak_vec3 p = tr >= 0 ? c->translations[(size_t)f * c->track_count + tr]
                            : sk->rest_local[0].translation;
        p.y = 0.0f;
        t->root[f] = p;
        float h = ak_heading_of(c->rotations[(size_t)f * c->joint_count], ak_vec3_make(0, 0, 1));
        if (f > 0) {
            while (h - t->heading[f - 1] > AK_PI)
                h -= 2.0f * AK_PI;
            while (h - t->heading[f - 1] < -AK_PI)
                h += 2.0f * AK_PI;
        }
        t->heading[f] = h;
        t->path[f] = f > 0 ? t->path[f - 1] + ground_dist(t->root[f - 1], p) : 0.0f;
    }
    return AK_OK;
}

/* Number of stance starts of one foot inside the circular cycle [a, b) (flags[a] == flags[b]). */
static int32_t stance_starts(const uint8_t *flags, int32_t a, int32_t b)
{
    int32_t starts = 0;
    for (int32_t f = a; f < b; ++f)
        starts += (flags[f + 1] != 0) && (flags[f] == 0);
    return starts;
}

/* The candidate [a, b) is locomotion: contact states equal at both ends (and one frame in),
 * one stance start per foot, enough travel per step. Returns its unsteadiness (>= 0: the two
 * steps' difference in length, relative, plus their difference in turn, radians), or -1. */
static float locomotion_cost(const ak_cycle_params *p, const cycle_track *t, int32_t a, int32_t b,
                             float min_step)
{
    const uint8_t *l = p->left, *r = p->right;
    if ((l[a] != 0) != (l[b] != 0) || (r[a] != 0) != (r[b] != 0) ||
        (l[a + 1] != 0) != (l[b + 1] != 0) || (r[a + 1] != 0) != (r[b + 1] != 0))
        return -1.0f;
    if (stance_starts(l, a, b) != 1 || stance_starts(r, a, b) != 1) return -1.0f;
    const int32_t m = (a + b) / 2;
    const float d1 = ground_dist(t->root[a], t->root[m]), d2 = ground_dist(t->root[m], t->root[b]);
    if (d1 < min_step || d2 < min_step) return -1.0f;
    const float turn1 = t->heading[m] - t->heading[a], turn2 = t->heading[b] - t->heading[m];
    /* Locomotion goes somewhere: at most a quarter turn per cycle, and a root path that is
     * nearly its chord (a spin or a dance step that comes back is not a walk). */
    if (fabsf(turn1 + turn2) > 0.5f * AK_PI) return -1.0f;
    if (d1 + d2 < 0.85f * (t->path[b] - t->path[a])) return -1.0f;
    return fabsf(d1 - d2) / (d1 + d2) + fabsf(turn1 - turn2);
}

/* The seam's pose and velocity difference over the body's joints `joint[0..count)`. */
static float seam_cost(const ak_quat *q, int32_t J, const int32_t *joint, int32_t count, int32_t a,
                       int32_t b)
{
    const ak_quat *qa = q + (size_t)a * J, *qb = q + (size_t)b * J;
    float pose = 0.0f, vel = 0.0f;
    for (int32_t i = 0; i < count; ++i) {
        const int32_t j = joint[i];
        pose += 1.0f - fabsf(akq_dot(qa[j], qb[j]));
        const ak_quat da = akq_mul(akq_conj(qa[j]), qa[J + j]);
        const ak_quat db = akq_mul(akq_conj(qb[j]), qb[J + j]);
        vel += 1.0f - fabsf(akq_dot(da, db));
    }
    return (pose + 4.0f * vel) / (float)count;
}

/* The joints the seam is measured on: the body (ak_humanoid_body_top's subtree) and the joints
 * above it (a still top joint, a floor bone), not a joint beside it: the UE4 mannequin's
 * ik_foot_l/r and ik_hand_* under `root` are copies of the feet and hands, and counted they
 * weighed the feet and hands twice (CMU 02_02's copy with them picked 170:288 against the
 * original's 110:227). Every joint where no humanoid is found. Writes joint[], returns the
 * count. */
int32_t akl_body_joints(const ak_skeleton *sk, int32_t *joint)
{
    const int32_t J = sk->joint_count, body = ak_humanoid_body_top(sk);
    int32_t n = 0;
    for (int32_t j = 0; j < J; ++j) {
        int counted = body < 0 || (j >= body && j < sk->subtree_end[body]);
        for (int32_t a = body >= 0 ? sk->parents[body] : -1; a >= 0 && !counted; a = sk->parents[a])
            counted = a == j;
        if (counted) joint[n++] = j;
    }
    return n;
}

/* Hip-to-ankle length of the longer leg, from the humanoid map (0 when not found). */
static float humanoid_leg_length(const ak_skeleton *sk)
{
    ak_humanoid h;
    if (ak_humanoid_find(sk, NULL, &h, NULL) != AK_OK) return 0.0f;
    float best = 0.0f;
    for (int s = 0; s < 2; ++s) {
        const int32_t lo = h.joint[s == 0 ? AK_HUM_LEFT_LOWER_LEG : AK_HUM_RIGHT_LOWER_LEG];
        const int32_t ft = h.joint[s == 0 ? AK_HUM_LEFT_FOOT : AK_HUM_RIGHT_FOOT];
        if (lo < 0 || ft < 0) continue;
        const float len = sk->bone_lengths[lo] + sk->bone_lengths[ft];
        if (len > best) best = len;
    }
    return best;
}

/* What was measured, for the refusal: how far the root gets from where it starts. */
static int32_t refuse(const ak_cycle_params *p, const cycle_track *t, float min_step, ak_error *err)
{
    const ak_clip *c = p->clip;
    float reach = 0.0f;
    for (int32_t f = 1; f < c->frame_count; ++f) {
        const float d = ground_dist(t->root[0], t->root[f]);
        if (d > reach) reach = d;
    }
    return ak_error_set(err, AK_ERR_NOT_FOUND, 0,
                        "the root moves %.2f m in %.1f s and no %.2f-%.2f s stretch holds one "
                        "step of each foot of at least %.2f m going one way (under a quarter "
                        "turn): no walking found; give --cycle A:B",
                        (double)reach, (double)((float)(c->frame_count - 1) * c->frame_time),
                        (double)p->min_time, (double)p->max_time, (double)min_step);
}

int32_t ak_cycle_find(const ak_cycle_params *p, ak_cycle *out, ak_error *err)
{
    int32_t st = ak_cycle_validate(p, err);
    if (st != AK_OK) return st;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    const ak_clip *c = p->clip;
    const int32_t n = c->frame_count, J = c->joint_count;
    const float leg = p->leg_length > 0.0f ? p->leg_length : humanoid_leg_length(p->skeleton);
    const float min_step = p->min_step_fraction * leg;
    const int32_t lmin = (int32_t)ceilf(p->min_time / c->frame_time);
    const int32_t lmax = (int32_t)floorf(p->max_time / c->frame_time);
    cycle_track t = {NULL, NULL, NULL};
    ak_quat *q = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)n * (size_t)J);
    int32_t *body = (int32_t *)malloc(sizeof(int32_t) * (size_t)J);
    if (!q || !body || make_track(c, p->skeleton, &t) != AK_OK) {
        free(q);
        free(body);
        free_track(&t);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    /* Per frame: rotations with the root's heading removed. */
    memcpy(q, c->rotations, sizeof(ak_quat) * (size_t)n * (size_t)J);
    for (int32_t f = 0; f < n; ++f)
        q[(size_t)f * J] = root_no_heading(c, f, 0);
    /* Frames [first, last] can be cycle ends; each needs a next frame for its velocity.
     * Frame 0 of a capture is often a reference pose, so it is skipped. */
    const int32_t first = n > 8 ? 1 : 0, last = n - 2;
    const int32_t body_count = akl_body_joints(p->skeleton, body);
    float best = INFINITY;
    ak_cycle bc;
    memset(&bc, 0, sizeof bc);
    bc.start = bc.end = -1;
    for (int32_t a = first; lmin >= 2 && a + lmin <= last; ++a)
        for (int32_t b = a + lmin; b <= last && b <= a + lmax; ++b) {
            const float unsteady = locomotion_cost(p, &t, a, b, min_step);
            if (unsteady < 0.0f) continue;
            const float cost = seam_cost(q, J, body, body_count, a, b) + 0.05f * unsteady;
            if (cost < best) {
                best = cost;
                bc.start = a;
                bc.end = b;
            }
        }
    free(q);
    if (bc.start < 0) {
        free(body);
        st = refuse(p, &t, min_step, err);
        free_track(&t);
        return st;
    }
    const float travel = ground_dist(t.root[bc.start], t.root[bc.end]);
    bc.step_length = 0.5f * travel;
    bc.speed = travel / ((float)(bc.end - bc.start) * c->frame_time);
    free_track(&t);
    akl_cycle_errors_over(c, body, body_count, bc.start, bc.end, &bc.pose_error,
                          &bc.velocity_error);
    free(body);
    *out = bc;
    return AK_OK;
}

/* ---- Foot calibration ---- */

/* The lowest point of either foot's subtree over the clip. */
static float clip_floor(const ak_skeleton *sk, const ak_clip *c, const int32_t foot[2],
                        ak_xform *local, ak_xform *world)
{
    float floor_y = INFINITY;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_clip_frame(c, sk, f, local);
        ak_fk(sk, local, world);
        for (int s = 0; s < 2; ++s)
            for (int32_t j = foot[s]; j < sk->subtree_end[foot[s]]; ++j)
                if (world[j].translation.y < floor_y) floor_y = world[j].translation.y;
    }
    return isfinite(floor_y) ? floor_y : 0.0f;
}

static int frame_used(uint8_t flags, uint8_t mask)
{
    if (mask == 0) return 1;
    if (mask == 0xff) return flags != 0;
    return (flags & mask) == mask;
}

/* A foot stands flat (or on its heel) for at least this long in a cycle before those frames
 * calibrate it: a walk's flat foot lasts 0.3 s and more; a runner rolls from heel to ball in
 * a few hundredths of a second, and which of those frames a capture holds depends on its
 * rate (a 30 fps run had 0.067 s of flat foot where its 120 fps original had none, and its
 * sole came out 24 mm lower). */
#define AK_CALIBRATION_MIN_TIME 0.1f

/* Which frames calibrate a foot: flat (heel and toe down) for AK_CALIBRATION_MIN_TIME or
 * more, else heel down that long, else stance, else every frame. Returns the flag bits a
 * frame needs (0xff: any stance; 0: every frame). */
static uint8_t calibration_mask(const uint8_t *flags, int32_t n, float frame_time)
{
    static const uint8_t wants[3] = {AK_CONTACT_HEEL | AK_CONTACT_TOE, AK_CONTACT_HEEL, 0xff};
    if (!flags) return 0;
    const int32_t min_frames = (int32_t)ceilf(AK_CALIBRATION_MIN_TIME / frame_time - 1e-3f);
    for (int k = 0; k < 3; ++k) {
        int32_t count = 0;
        for (int32_t f = 0; f < n; ++f)
            count += frame_used(flags[f], wants[k]);
        if (count > 0 && (count >= min_frames || k == 2)) return wants[k];
    }
    return 0;
}

/* One foot: the ankle's height above the floor, its up axis, and the ball's offset and
 * height, averaged over the calibration frames; toe contacts anywhere enable the toe. */
static void calibrate_foot(const ak_skeleton *sk, const ak_clip *c, int32_t foot, int32_t toe,
                           const uint8_t *flags, ak_xform *local, ak_xform *world,
                           ak_foot_calibration *out, int s)
{
    const int32_t n = c->frame_count;
    const uint8_t mask = calibration_mask(flags, n, c->frame_time);
    double ankle_sum = 0.0, ball_sum = 0.0;
    ak_vec3 up_sum = {0, 0, 0}, ball_local = {0, 0, 0};
    int32_t used = 0, stance_n = 0, toe_n = 0;
    for (int32_t f = 0; f < n; ++f) {
        const uint8_t fl = flags ? flags[f] : 0xff;
        stance_n += fl != 0;
        toe_n += (fl & AK_CONTACT_TOE) != 0;
        if (!frame_used(fl, mask)) continue;
        ak_clip_frame(c, sk, f, local);
        ak_fk(sk, local, world);
        const ak_xform ankle = world[foot];
        ankle_sum += ankle.translation.y - out->floor_y;
        up_sum = akv_add(up_sum, akq_rotate(akq_conj(ankle.rotation), ak_vec3_make(0, 1, 0)));
        if (toe >= 0) {
            ball_sum += world[toe].translation.y - out->floor_y;
            ball_local = akq_rotate(akq_conj(ankle.rotation),
                                    akv_sub(world[toe].translation, ankle.translation));
        }
        ++used;
    }
    const float k = used ? 1.0f / (float)used : 0.0f;
    out->sole_height[s] = (float)(ankle_sum * k);
    out->up_local[s] = ak_vec3_normalize_or(up_sum, ak_vec3_make(0, 1, 0));
    out->has_toe[s] = toe >= 0 && used > 0 && (toe_n > 0 || !flags);
    /* The ball is rigid in the ankle's frame; its pad touches the floor toe_height below it
     * along the foot's up axis (the flat foot's ball height above the floor). */
    out->toe_local[s] =
        out->has_toe[s] ? akv_sub(ball_local, akv_scale(out->up_local[s], (float)(ball_sum * k)))
                        : ak_vec3_make(0, 0, 0);
    out->stance_fraction[s] = (float)stance_n / (float)n;
}

int32_t ak_foot_calibrate(const ak_skeleton *sk, const ak_clip *c, const int32_t foot[2],
                          const int32_t toe[2], const uint8_t *left, const uint8_t *right,
                          ak_foot_calibration *out, ak_error *err)
{
    if (!sk || !c || !foot || !out)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    const int32_t J = sk->joint_count;
    if (c->joint_count != J)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip/skeleton mismatch");
    for (int s = 0; s < 2; ++s)
        if (foot[s] < 0 || foot[s] >= J || (toe && toe[s] >= J))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "foot joints out of range");
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    if (!local) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    ak_xform *world = local + J;
    memset(out, 0, sizeof *out);
    out->floor_y = clip_floor(sk, c, foot, local, world);
    const uint8_t *flags[2] = {left, right};
    for (int s = 0; s < 2; ++s) {
        const int32_t t = toe && toe[s] >= 0 && toe[s] != foot[s] ? toe[s] : -1;
        calibrate_foot(sk, c, foot[s], t, flags[s], local, world, out, s);
    }
    free(local);
    return AK_OK;
}
