/* The IK benchmark protocol, shared by bench/ik_bench.c and the Orocos KDL comparison
 * (bench/ik_kdl.cpp) so both solve exactly the same chains from the same start pose toward
 * the same targets.
 *
 * Chain of N unit-length bones: joint 0 at the origin, joint i+1 one unit along +Y of joint i,
 * every rotating joint a ball joint written as Z-Y-X Euler angles (R = Rz Ry Rx; in KDL three
 * revolute joints RotZ, RotY, RotX followed by the unit bone). Start pose: every joint at
 * (z, y, x) = (0.2, 0, 0.1) rad, a gentle non-planar arc (the straight pose is singular for
 * Jacobian methods). Targets: the tip of FK of Euler angles uniform in [-1, 1] rad per axis,
 * so every target is reachable. Tolerance 1e-4 of the chain length, iteration cap 100. */
#ifndef AK_IK_BENCH_COMMON_H
#define AK_IK_BENCH_COMMON_H

#include <stdint.h>

#include "animkit/animkit.h"

#define AKB_IK_TARGETS        1000
#define AKB_IK_TOLERANCE      1e-4f
#define AKB_IK_MAX_ITERATIONS 100
#define AKB_IK_START_Z        0.2f
#define AKB_IK_START_Y        0.0f
#define AKB_IK_START_X        0.1f

static const int akb_ik_sizes[4] = {2, 7, 10, 30};

typedef struct akb_rng {
    uint64_t s;
} akb_rng;

static inline double akb_rng_unit(akb_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (double)((r->s * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

/* A skeleton of n+1 joints (n unit bones); NULL on failure. */
static inline ak_skeleton *akb_ik_chain_skeleton(int n)
{
    static char names[64][8];
    const char *name_ptrs[64];
    int32_t parents[64];
    ak_xform rest[64];
    if (n + 1 > 64) return 0;
    for (int j = 0; j <= n; ++j) {
        names[j][0] = 'j';
        names[j][1] = (char)('0' + j / 10);
        names[j][2] = (char)('0' + j % 10);
        names[j][3] = 0;
        name_ptrs[j] = names[j];
        parents[j] = j - 1;
        rest[j] = ak_xform_identity();
        if (j > 0) rest[j].translation = ak_vec3_make(0.0f, 1.0f, 0.0f);
    }
    ak_skeleton_desc desc;
    desc.joint_count = n + 1;
    desc.names = name_ptrs;
    desc.parents = parents;
    desc.rest_local = rest;
    desc.channels = 0;
    desc.is_end_site = 0;
    ak_skeleton *s = 0;
    if (ak_skeleton_create(&desc, &s, 0) != AK_OK) return 0;
    return s;
}

/* Local pose with every rotating joint at Euler (z, y, x). */
static inline void akb_ik_pose(const ak_skeleton *s, const float *zyx, ak_xform *local)
{
    ak_pose_rest(s, local);
    for (int j = 0; j + 1 < s->joint_count; ++j)
        local[j].rotation = ak_quat_from_euler(
            ak_vec3_make(zyx[3 * j + 2], zyx[3 * j + 1], zyx[3 * j]), AK_ORDER_ZYX);
}

static inline void akb_ik_start_angles(int n, float *zyx)
{
    for (int j = 0; j < n; ++j) {
        zyx[3 * j] = AKB_IK_START_Z;
        zyx[3 * j + 1] = AKB_IK_START_Y;
        zyx[3 * j + 2] = AKB_IK_START_X;
    }
}

/* The AKB_IK_TARGETS targets for a chain of n bones (seeded by n). */
static inline void akb_ik_targets(const ak_skeleton *s, int n, ak_vec3 *targets)
{
    akb_rng rng = {0x5EEDULL * (uint64_t)(n + 1) + 12345ULL};
    float zyx[3 * 64];
    ak_xform local[64], world[64];
    for (int t = 0; t < AKB_IK_TARGETS; ++t) {
        for (int k = 0; k < 3 * n; ++k)
            zyx[k] = (float)(2.0 * akb_rng_unit(&rng) - 1.0);
        akb_ik_pose(s, zyx, local);
        ak_fk(s, local, world);
        targets[t] = world[n].translation;
    }
}

#endif
