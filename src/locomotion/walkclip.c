/* The built-in biped and its procedural walk and idle clips.
 *
 * The gait is built from where the feet must be, not from joint curves: each foot is
 * planted (fixed in the world) during stance and travels one stride on a cycloid during
 * swing, lifted by a raised-cosine arc. The pelvis moves forward at constant speed, bobs
 * (lowest at double support), sways over the stance foot and yaws with the legs. Thigh and
 * shin then follow from the hip and ankle positions by the law of cosines with the knee bent
 * forward, so a stance foot never slides: the clip is skate-free by construction. */
#include "animkit/contacts.h"
#include "animkit/walkclip.h"
#include "core/xform_inline.h"

#include <stdlib.h>
#include <string.h>

enum {
    J_HIPS,
    J_LUPLEG,
    J_LLEG,
    J_LFOOT,
    J_LTOE,
    J_LTOE_END,
    J_RUPLEG,
    J_RLEG,
    J_RFOOT,
    J_RTOE,
    J_RTOE_END,
    J_SPINE,
    J_CHEST,
    J_NECK,
    J_HEAD,
    J_HEAD_END,
    J_LSHOULDER,
    J_LARM,
    J_LFOREARM,
    J_LHAND,
    J_LHAND_END,
    J_RSHOULDER,
    J_RARM,
    J_RFOREARM,
    J_RHAND,
    J_RHAND_END,
    J_COUNT
};

static const char *const k_names[J_COUNT] = {"Hips",
                                             "LeftUpLeg",
                                             "LeftLeg",
                                             "LeftFoot",
                                             "LeftToeBase",
                                             "LeftToeBase_end",
                                             "RightUpLeg",
                                             "RightLeg",
                                             "RightFoot",
                                             "RightToeBase",
                                             "RightToeBase_end",
                                             "Spine",
                                             "Chest",
                                             "Neck",
                                             "Head",
                                             "Head_end",
                                             "LeftShoulder",
                                             "LeftArm",
                                             "LeftForeArm",
                                             "LeftHand",
                                             "LeftHand_end",
                                             "RightShoulder",
                                             "RightArm",
                                             "RightForeArm",
                                             "RightHand",
                                             "RightHand_end"};
static const int32_t k_parents[J_COUNT] = {-1, 0,  1,  2,  3,  4,  0,  6,  7,  8,  9,  0,  11,
                                           12, 13, 14, 12, 16, 17, 18, 19, 12, 21, 22, 23, 24};

/* Body proportions (metres). The ankle stands ANKLE_H above the floor with the foot flat. */
#define HIP_HALF     0.09f
#define HIP_DROP_OFS 0.05f
#define THIGH        0.42f
#define SHIN         0.41f
#define ANKLE_H      0.08f

static const float k_offsets[J_COUNT][3] = {{0, ANKLE_H + THIGH + SHIN + HIP_DROP_OFS, 0},
                                            {HIP_HALF, -HIP_DROP_OFS, 0},
                                            {0, -THIGH, 0},
                                            {0, -SHIN, 0},
                                            {0, -0.06f, 0.12f},
                                            {0, -0.02f, 0.06f},
                                            {-HIP_HALF, -HIP_DROP_OFS, 0},
                                            {0, -THIGH, 0},
                                            {0, -SHIN, 0},
                                            {0, -0.06f, 0.12f},
                                            {0, -0.02f, 0.06f},
                                            {0, 0.10f, 0},
                                            {0, 0.18f, 0},
                                            {0, 0.22f, 0},
                                            {0, 0.10f, 0},
                                            {0, 0.18f, 0},
                                            {0.04f, 0.17f, 0},
                                            {0.14f, 0, 0},
                                            {0, -0.28f, 0},
                                            {0, -0.25f, 0},
                                            {0, -0.08f, 0},
                                            {-0.04f, 0.17f, 0},
                                            {-0.14f, 0, 0},
                                            {0, -0.28f, 0},
                                            {0, -0.25f, 0},
                                            {0, -0.08f, 0}};

ak_walk_clip_params ak_walk_clip_defaults(void)
{
    ak_walk_clip_params p;
    p.stride_length = 1.3f;
    p.cycle_time = 1.1f;
    p.frame_rate = 60.0f;
    p.duty_factor = 0.6f;
    p.hip_height = 0.795f;
    p.hip_bob = 0.105f;
    p.hip_sway = 0.025f;
    p.step_width = 0.18f;
    p.foot_clearance = 0.12f;
    p.arm_swing = 16.0f * (AK_PI / 180.0f);
    p.pelvis_yaw = 4.0f * (AK_PI / 180.0f);
    return p;
}

int32_t ak_walk_clip_validate(const ak_walk_clip_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null walk clip params");
    if (!(p->stride_length > 0.1f) || !(p->stride_length <= 2.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "stride length must be in (0.1, 2] m");
    if (!(p->cycle_time >= 0.4f) || !(p->cycle_time <= 4.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "cycle time must be in [0.4, 4] s");
    if (!(p->frame_rate >= 10.0f) || !(p->frame_rate <= 480.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "frame rate must be in [10, 480]");
    if (!(p->duty_factor > 0.5f) || !(p->duty_factor < 0.8f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "duty factor must be in (0.5, 0.8)");
    if (!(p->hip_height > 0.4f) ||
        !(p->hip_height + p->hip_bob < ANKLE_H + THIGH + SHIN - 0.005f) || !(p->hip_bob >= 0.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "hip height + bob must stay below the leg length (%.2f m)",
                            (double)(ANKLE_H + THIGH + SHIN));
    /* At heel strike the foot is half a stance ahead: the leg must reach it. */
    const float half = 0.5f * p->stride_length * p->duty_factor;
    const float v = p->hip_height - ANKLE_H;
    if (half * half + v * v > (THIGH + SHIN) * (THIGH + SHIN) * 0.999f)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "stride too long for the hip height (legs cannot reach)");
    if (!(p->hip_sway >= 0.0f && p->hip_sway < 0.2f) ||
        !(p->step_width >= 0.0f && p->step_width < 0.6f) ||
        !(p->foot_clearance >= 0.0f && p->foot_clearance < 0.5f) ||
        !(fabsf(p->arm_swing) <= 80.0f * AK_PI / 180.0f) ||
        !(fabsf(p->pelvis_yaw) <= 30.0f * AK_PI / 180.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "sway, width, clearance, arm swing or pelvis yaw out of range");
    return ak_params_check(ak_walk_clip_param_ranges(), p, err);
}

static ak_quat quat_from_basis(ak_vec3 x, ak_vec3 y, ak_vec3 z)
{
    mat3 m;
    m[0][0] = x.x;
    m[0][1] = x.y;
    m[0][2] = x.z;
    m[1][0] = y.x;
    m[1][1] = y.y;
    m[1][2] = y.z;
    m[2][0] = z.x;
    m[2][1] = z.y;
    m[2][2] = z.z;
    ak_quat q;
    glm_mat3_quat(m, AK_CGLM_Q(q));
    return akq_normalize(q);
}

static ak_vec3 vnorm(ak_vec3 v)
{
    float l = akv_len(v);
    return l > 1e-12f ? akv_scale(v, 1.0f / l) : ak_vec3_make(0, 0, 1);
}

/* World rotations of thigh and shin putting the ankle at `ankle` from the hip at `hip`, knee
 * bent toward `forward`. Each bone's frame: Y' = -bone direction, X' = the knee hinge axis
 * (normal of the bend plane), Z' = X' x Y' — so with the leg straight down and forward = +Z
 * both are the identity, and the knee is a pure hinge about X'. */
static void leg_rotations(ak_vec3 hip, ak_vec3 ankle, ak_vec3 forward, ak_quat *thigh,
                          ak_quat *shin)
{
    ak_vec3 d = akv_sub(ankle, hip);
    float dist = akv_len(d);
    const float maxd = (THIGH + SHIN) * 0.9999f;
    if (dist > maxd) dist = maxd;
    if (dist < 1e-4f) dist = 1e-4f;
    const ak_vec3 u = vnorm(d);
    const ak_vec3 w = vnorm(akv_sub(forward, akv_scale(u, akv_dot(forward, u))));
    /* Law of cosines: angle at the hip between hip->ankle and the thigh. */
    float ca = (THIGH * THIGH + dist * dist - SHIN * SHIN) / (2.0f * THIGH * dist);
    ca = ca > 1.0f ? 1.0f : (ca < -1.0f ? -1.0f : ca);
    const float sa = sqrtf(1.0f - ca * ca);
    const ak_vec3 knee =
        akv_add(hip, akv_scale(akv_add(akv_scale(u, ca), akv_scale(w, sa)), THIGH));
    const ak_vec3 b1 = vnorm(akv_sub(knee, hip));
    const ak_vec3 ankle_reached = akv_add(hip, akv_scale(u, dist));
    const ak_vec3 b2 = vnorm(akv_sub(ankle_reached, knee));
    const ak_vec3 n = vnorm(akv_cross(w, u));
    const ak_vec3 y1 = akv_scale(b1, -1.0f), y2 = akv_scale(b2, -1.0f);
    *thigh = quat_from_basis(n, y1, akv_cross(n, y1));
    *shin = quat_from_basis(n, y2, akv_cross(n, y2));
}

static ak_quat rot_x(float a)
{
    return ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), a);
}
static ak_quat rot_y(float a)
{
    return ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), a);
}
static ak_quat rot_z(float a)
{
    return ak_quat_from_axis_angle(ak_vec3_make(0, 0, 1), a);
}

static int32_t make_skeleton(ak_skeleton **out, ak_error *err)
{
    ak_xform rest[J_COUNT];
    ak_channel_layout ch[J_COUNT];
    uint8_t tip[J_COUNT];
    for (int j = 0; j < J_COUNT; ++j) {
        rest[j].rotation = ak_quat_identity();
        rest[j].translation = ak_vec3_make(k_offsets[j][0], k_offsets[j][1], k_offsets[j][2]);
        const size_t len = strlen(k_names[j]);
        tip[j] = len > 4 && strcmp(k_names[j] + len - 4, "_end") == 0;
        memset(&ch[j], 0, sizeof ch[j]);
        if (!tip[j]) {
            int k = 0;
            if (j == J_HIPS) {
                ch[j].kind[k++] = AK_CH_XPOS;
                ch[j].kind[k++] = AK_CH_YPOS;
                ch[j].kind[k++] = AK_CH_ZPOS;
            }
            ch[j].kind[k++] = AK_CH_ZROT;
            ch[j].kind[k++] = AK_CH_YROT;
            ch[j].kind[k++] = AK_CH_XROT;
            ch[j].count = (uint8_t)k;
        }
    }
    ak_skeleton_desc d;
    d.joint_count = J_COUNT;
    d.names = k_names;
    d.parents = k_parents;
    d.rest_local = rest;
    d.channels = ch;
    d.is_end_site = tip;
    return ak_skeleton_create(&d, out, err);
}

/* Writes one frame's legs: hips world transform, both ankle targets and foot pitches. */
static void pose_legs(ak_quat *rot, ak_xform hips, const ak_vec3 ankle[2], const float pitch[2],
                      ak_vec3 forward)
{
    static const int32_t up[2] = {J_LUPLEG, J_RUPLEG};
    for (int s = 0; s < 2; ++s) {
        const ak_vec3 hip =
            akv_add(hips.translation,
                    akq_rotate(hips.rotation,
                               ak_vec3_make(s == 0 ? HIP_HALF : -HIP_HALF, -HIP_DROP_OFS, 0)));
        ak_quat thigh_w, shin_w;
        leg_rotations(hip, ankle[s], forward, &thigh_w, &shin_w);
        const ak_quat foot_w = rot_x(pitch[s]);
        rot[up[s]] = akq_normalize(akq_mul(akq_conj(hips.rotation), thigh_w));
        rot[up[s] + 1] = akq_normalize(akq_mul(akq_conj(thigh_w), shin_w));
        rot[up[s] + 2] = akq_normalize(akq_mul(akq_conj(shin_w), foot_w));
    }
}

/* Unwrapped foot position along +Z for phase u (cycles, any real): planted for the first
 * `duty` of each cycle, then a cycloid over one stride. The left foot at phase 0 has just
 * landed half a stance ahead of the hips. */
static void foot_track(const ak_walk_clip_params *p, float u, float *z, float *lift, float *pitch,
                       int *stance)
{
    const float S = p->stride_length, D = p->duty_factor;
    const float k = floorf(u), f = u - k;
    const float plant = S * D * 0.5f + k * S;
    if (f < D) {
        *z = plant;
        *lift = 0.0f;
        *pitch = 0.0f;
        *stance = 1;
    } else {
        const float s = (f - D) / (1.0f - D);
        const float two_pi_s = 2.0f * AK_PI * s;
        *z = plant + S * (s - sinf(two_pi_s) / (2.0f * AK_PI));
        *lift = p->foot_clearance * 0.5f * (1.0f - cosf(two_pi_s));
        *pitch =
            0.26f * sinf(two_pi_s); /* ~15 deg toe down early in swing, toe up before landing */
        *stance = 0;
    }
}

int32_t ak_walk_clip_create(const ak_walk_clip_params *params, ak_skeleton **out_sk,
                            ak_clip **out_clip, ak_error *err)
{
    if (out_sk) *out_sk = NULL;
    if (out_clip) *out_clip = NULL;
    if (!out_sk || !out_clip) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_walk_clip_validate(params, err);
    if (st != AK_OK) return st;
    const ak_walk_clip_params *p = params;
    ak_skeleton *sk = NULL;
    st = make_skeleton(&sk, err);
    if (st != AK_OK) return st;
    const int32_t frames = (int32_t)lroundf(p->cycle_time * p->frame_rate);
    const float ft = p->cycle_time / (float)frames; /* exact loop length */
    ak_clip *c = NULL;
    st = ak_clip_create(J_COUNT, frames, ft, NULL, &c, err);
    if (st != AK_OK) {
        ak_skeleton_destroy(sk);
        return st;
    }
    c->loop = 1;
    const float S = p->stride_length;
    const float deg = AK_PI / 180.0f;
    const ak_vec3 forward = {0, 0, 1};
    for (int32_t f = 0; f < frames; ++f) {
        const float phi = (float)f / (float)frames;
        ak_quat *rot = c->rotations + (size_t)f * J_COUNT;
        /* Pelvis: bob lowest at double support (phase 0.05 and 0.55 for duty 0.6). */
        const float ds = 0.5f * (p->duty_factor - 0.5f);
        const float bob = p->hip_bob * 0.5f * (1.0f - cosf(4.0f * AK_PI * (phi - ds)));
        const float sway = p->hip_sway * sinf(2.0f * AK_PI * (phi - ds));
        const float yaw = -p->pelvis_yaw * cosf(2.0f * AK_PI * phi);
        ak_xform hips;
        hips.translation = ak_vec3_make(sway, p->hip_height + bob + HIP_DROP_OFS, S * phi);
        hips.rotation = rot_y(yaw);
        c->translations[(size_t)f * c->track_count] = hips.translation;
        rot[J_HIPS] = hips.rotation;
        ak_vec3 ankle[2];
        float pitch[2];
        for (int s = 0; s < 2; ++s) {
            float z, lift, pch;
            int stance;
            foot_track(p, phi - 0.5f * (float)s, &z, &lift, &pch, &stance);
            if (s == 1) z += 0.5f * S;
            ankle[s] = ak_vec3_make(s == 0 ? 0.5f * p->step_width : -0.5f * p->step_width,
                                    ANKLE_H + lift, z);
            pitch[s] = pch;
        }
        pose_legs(rot, hips, ankle, pitch, forward);
        /* Upper body: spine undoes the pelvis yaw and leans 3 degrees forward; arms hang
         * 8 degrees out and swing against the legs; elbows bend more on the back swing. */
        rot[J_SPINE] = akq_mul(rot_x(3.0f * deg), rot_y(-yaw));
        const float swing = p->arm_swing * cosf(2.0f * AK_PI * phi);
        rot[J_LARM] = akq_mul(rot_z(8.0f * deg), rot_x(swing));
        rot[J_RARM] = akq_mul(rot_z(-8.0f * deg), rot_x(-swing));
        rot[J_LFOREARM] = rot_x(-(15.0f + 10.0f * (0.5f - 0.5f * cosf(2.0f * AK_PI * phi))) * deg);
        rot[J_RFOREARM] = rot_x(-(15.0f + 10.0f * (0.5f + 0.5f * cosf(2.0f * AK_PI * phi))) * deg);
        rot[J_HEAD] = rot_x(-3.0f * deg);
    }
    ak_clip_finalize(c);
    *out_sk = sk;
    *out_clip = c;
    return AK_OK;
}

int32_t ak_walk_clip_contacts(const ak_walk_clip_params *p, const ak_clip *clip, uint8_t *left,
                              uint8_t *right, ak_error *err)
{
    if (!clip || !left || !right) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    int32_t st = ak_walk_clip_validate(p, err);
    if (st != AK_OK) return st;
    for (int32_t f = 0; f < clip->frame_count; ++f) {
        const float phi = (float)f / (float)clip->frame_count;
        for (int s = 0; s < 2; ++s) {
            float z, lift, pitch;
            int stance;
            foot_track(p, phi - 0.5f * (float)s, &z, &lift, &pitch, &stance);
            /* Planted flat: heel and toe down together. */
            (s == 0 ? left : right)[f] = (uint8_t)(stance ? (AK_CONTACT_HEEL | AK_CONTACT_TOE) : 0);
        }
    }
    return AK_OK;
}

int32_t ak_idle_clip_create(const ak_walk_clip_params *params, const ak_skeleton *sk, ak_clip **out,
                            ak_error *err)
{
    if (out) *out = NULL;
    if (!out || !sk) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    int32_t st = ak_walk_clip_validate(params, err);
    if (st != AK_OK) return st;
    if (sk->joint_count != J_COUNT || strcmp(sk->names[J_LFOOT], "LeftFoot") != 0)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "the idle clip is for the built-in biped only");
    const float rate = params->frame_rate;
    const int32_t frames = (int32_t)lroundf(3.0f * rate);
    ak_clip *c = NULL;
    st = ak_clip_create(J_COUNT, frames, 3.0f / (float)frames, NULL, &c, err);
    if (st != AK_OK) return st;
    c->loop = 1;
    const float deg = AK_PI / 180.0f;
    const ak_vec3 forward = {0, 0, 1};
    for (int32_t f = 0; f < frames; ++f) {
        const float a = 2.0f * AK_PI * (float)f / (float)frames;
        ak_quat *rot = c->rotations + (size_t)f * J_COUNT;
        ak_xform hips;
        hips.translation = ak_vec3_make(0.012f * sinf(a),
                                        params->hip_height + params->hip_bob + HIP_DROP_OFS -
                                            0.01f + 0.004f * sinf(2.0f * a),
                                        0.0f);
        hips.rotation = ak_quat_identity();
        c->translations[(size_t)f * c->track_count] = hips.translation;
        const ak_vec3 ankle[2] = {{HIP_HALF, ANKLE_H, 0.02f}, {-HIP_HALF, ANKLE_H, -0.02f}};
        const float pitch[2] = {0.0f, 0.0f};
        pose_legs(rot, hips, ankle, pitch, forward);
        rot[J_SPINE] = rot_x((2.0f + 0.8f * sinf(2.0f * a)) * deg);
        rot[J_LARM] = rot_z(7.0f * deg);
        rot[J_RARM] = rot_z(-7.0f * deg);
        rot[J_LFOREARM] = rot_x(-12.0f * deg);
        rot[J_RFOREARM] = rot_x(-12.0f * deg);
    }
    ak_clip_finalize(c);
    *out = c;
    return AK_OK;
}
