/* A generated Mixamo-style test rig for retargeting: "mixamorig:" names, an A-pose (arms 45
 * degrees down), Mixamo's joint axes (each joint's local +Y points along its bone, so rest
 * rotations are not identity), three spine joints, fingers and toe ends the captures lack,
 * and proportions unlike CMU's (long thighs, short torso). Metres, facing +Z, left = +X. */
#ifndef AK_TESTS_RETARGET_RIGS_H
#define AK_TESTS_RETARGET_RIGS_H

#include "animkit/animkit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define AKT_APOSE_JOINTS 35

/* Builds the rig (the caller destroys it). Returns AK_OK or the ak_skeleton_create status. */
static inline int32_t akt_apose_rig_create(ak_skeleton **out, ak_error *err)
{
    static const char *const base[AKT_APOSE_JOINTS] = {"Hips",
                                                       "Spine",
                                                       "Spine1",
                                                       "Spine2",
                                                       "Neck",
                                                       "Head",
                                                       "HeadTop_End",
                                                       "LeftShoulder",
                                                       "LeftArm",
                                                       "LeftForeArm",
                                                       "LeftHand",
                                                       "LeftHandIndex1",
                                                       "LeftHandIndex2",
                                                       "LeftHandIndex3",
                                                       "LeftHandThumb1",
                                                       "RightShoulder",
                                                       "RightArm",
                                                       "RightForeArm",
                                                       "RightHand",
                                                       "RightHandIndex1",
                                                       "RightHandIndex2",
                                                       "RightHandIndex3",
                                                       "RightHandThumb1",
                                                       "LeftUpLeg",
                                                       "LeftLeg",
                                                       "LeftFoot",
                                                       "LeftToeBase",
                                                       "LeftToe_End",
                                                       "LeftFootTwist",
                                                       "RightUpLeg",
                                                       "RightLeg",
                                                       "RightFoot",
                                                       "RightToeBase",
                                                       "RightToe_End",
                                                       "RightFootTwist"};
    static const int32_t parents[AKT_APOSE_JOINTS] = {
        -1, 0,  1,  2,  3,  4, 5,  3,  7,  8,  9,  10, 11, 12, 10, 3,  15, 16,
        17, 18, 19, 20, 18, 0, 23, 24, 25, 26, 25, 0,  29, 30, 31, 32, 31};
    /* World positions, metres. Arms hang 45 degrees: direction (+-0.7071, -0.7071, 0). */
    const float c = 0.70710678f;
    float pos[AKT_APOSE_JOINTS][3] = {{0, 1.02f, 0},
                                      {0, 1.10f, -0.01f},
                                      {0, 1.21f, -0.015f},
                                      {0, 1.32f, -0.01f},
                                      {0, 1.47f, 0},
                                      {0, 1.56f, 0.02f},
                                      {0, 1.78f, 0.02f},
                                      {0.05f, 1.43f, 0},
                                      {0.17f, 1.43f, 0},
                                      {0.17f + 0.27f * c, 1.43f - 0.27f * c, 0},
                                      {0.17f + 0.52f * c, 1.43f - 0.52f * c, 0},
                                      {0.17f + 0.61f * c, 1.43f - 0.61f * c, 0.01f},
                                      {0.17f + 0.645f * c, 1.43f - 0.645f * c, 0.01f},
                                      {0.17f + 0.67f * c, 1.43f - 0.67f * c, 0.01f},
                                      {0.17f + 0.55f * c, 1.43f - 0.55f * c, 0.04f},
                                      {0},
                                      {0},
                                      {0},
                                      {0},
                                      {0},
                                      {0},
                                      {0},
                                      {0},
                                      {0.095f, 0.97f, 0},
                                      {0.10f, 0.49f, 0.012f},
                                      {0.10f, 0.085f, -0.01f},
                                      {0.10f, 0.02f, 0.12f},
                                      {0.10f, 0.02f, 0.20f},
                                      {0.10f, 0.05f, 0.04f},
                                      {0},
                                      {0},
                                      {0},
                                      {0},
                                      {0},
                                      {0}};
    for (int i = 0; i < 8; ++i) { /* right arm mirrors the left */
        pos[15 + i][0] = -pos[7 + i][0];
        pos[15 + i][1] = pos[7 + i][1];
        pos[15 + i][2] = pos[7 + i][2];
    }
    for (int i = 0; i < 6; ++i) {
        pos[29 + i][0] = -pos[23 + i][0];
        pos[29 + i][1] = pos[23 + i][1];
        pos[29 + i][2] = pos[23 + i][2];
    }
    /* World rotation per joint: +Y along the bone to its first child (Mixamo's axes), a twist
     * about it that keeps +Z as close to the world +Z (or +Y for horizontal feet) as it can. */
    ak_quat world_rot[AKT_APOSE_JOINTS];
    for (int32_t j = 0; j < AKT_APOSE_JOINTS; ++j) {
        int32_t child = -1;
        for (int32_t k = j + 1; k < AKT_APOSE_JOINTS && child < 0; ++k)
            if (parents[k] == j) child = k;
        int32_t from = child >= 0 ? j : parents[j], to = child >= 0 ? child : j;
        ak_vec3 dir = ak_vec3_make(pos[to][0] - pos[from][0], pos[to][1] - pos[from][1],
                                   pos[to][2] - pos[from][2]);
        ak_quat swing = ak_quat_from_to(ak_vec3_make(0, 1, 0), dir);
        ak_vec3 z_now = ak_quat_rotate(swing, ak_vec3_make(0, 0, 1));
        ak_vec3 axis = ak_vec3_normalize_or(dir, ak_vec3_make(0, 1, 0));
        ak_vec3 want = fabsf(axis.z) > 0.7f ? ak_vec3_make(0, 1, 0) : ak_vec3_make(0, 0, 1);
        want = ak_vec3_sub(want, ak_vec3_scale(axis, ak_vec3_dot(want, axis)));
        float ang = atan2f(ak_vec3_dot(ak_vec3_cross(z_now, want), axis), ak_vec3_dot(z_now, want));
        world_rot[j] = ak_quat_mul(ak_quat_from_axis_angle(axis, ang), swing);
    }
    char names[AKT_APOSE_JOINTS][AK_NAME_MAX];
    const char *name_ptr[AKT_APOSE_JOINTS];
    ak_xform rest[AKT_APOSE_JOINTS];
    for (int32_t j = 0; j < AKT_APOSE_JOINTS; ++j) {
        snprintf(names[j], AK_NAME_MAX, "mixamorig:%s", base[j]);
        name_ptr[j] = names[j];
        ak_xform w = {world_rot[j], ak_vec3_make(pos[j][0], pos[j][1], pos[j][2])};
        if (parents[j] < 0) {
            rest[j] = w;
            continue;
        }
        ak_xform pw = {world_rot[parents[j]],
                       ak_vec3_make(pos[parents[j]][0], pos[parents[j]][1], pos[parents[j]][2])};
        rest[j] = ak_xform_mul(ak_xform_inverse(pw), w);
    }
    ak_skeleton_desc desc = {AKT_APOSE_JOINTS, name_ptr, parents, rest, NULL, NULL};
    return ak_skeleton_create(&desc, out, err);
}

#endif
