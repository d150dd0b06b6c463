/* Test helpers for the IK tests: a seeded RNG and random chain skeletons.
 *
 * A test chain skeleton has, in depth-first order:
 *   0            "base": the parent of the chain root, at a random offset and rotation
 *   1 .. n       the chain (joint 1 is the chain root, joint n the tip)
 *   n+1          "tip_child": a joint below the tip (must move rigidly with it)
 *   n+2          "sibling": a child of base outside the chain (must stay untouched) */
#ifndef AK_IK_TEST_UTIL_H
#define AK_IK_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animkit/ik.h"

#define AK_PI_TEST 3.14159265358979323846f

typedef struct test_rng {
    uint64_t s;
} test_rng;

static inline uint32_t rng_u32(test_rng *r)
{
    /* xorshift64* */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 2685821657736338717ULL) >> 32);
}
static inline float rng_unit(test_rng *r)
{
    return (float)(rng_u32(r) >> 8) / 16777216.0f;
}
static inline float rng_range(test_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * rng_unit(r);
}
static inline int rng_int(test_rng *r, int lo, int hi)
{
    return lo + (int)(rng_u32(r) % (uint32_t)(hi - lo + 1));
}
static inline ak_vec3 rng_dir(test_rng *r)
{
    for (;;) {
        ak_vec3 v = ak_vec3_make(rng_range(r, -1, 1), rng_range(r, -1, 1), rng_range(r, -1, 1));
        float l = ak_vec3_length(v);
        if (l > 0.1f && l <= 1.0f) return ak_vec3_scale(v, 1.0f / l);
    }
}
static inline ak_quat rng_quat(test_rng *r, float max_angle)
{
    return ak_quat_from_axis_angle(rng_dir(r), rng_range(r, 0.0f, max_angle));
}

typedef struct test_chain {
    ak_skeleton *skel;
    int32_t n;                      /* chain joints */
    int32_t chain[AK_IK_MAX_CHAIN]; /* 1..n */
    float length;                   /* sum of chain bone lengths */
    int32_t count;                  /* n + 3 */
} test_chain;

/* Builds a random chain of n joints: bone lengths in [lmin, lmax], directions random in the
 * parent frame (or all along +Y when straight != 0). Returns 0 on success. */
static inline int test_chain_make(test_chain *tc, test_rng *r, int n, float lmin, float lmax,
                                  int straight)
{
    enum { MAXJ = AK_IK_MAX_CHAIN + 3 };
    static char namebuf[MAXJ][16];
    const char *names[MAXJ];
    int32_t parents[MAXJ];
    ak_xform rest[MAXJ];
    int count = n + 3;
    tc->n = n;
    tc->count = count;
    tc->length = 0.0f;
    for (int j = 0; j < count; ++j) {
        snprintf(namebuf[j], sizeof namebuf[j], "j%d", j);
        names[j] = namebuf[j];
        rest[j] = ak_xform_identity();
    }
    parents[0] = -1;
    rest[0].translation =
        ak_vec3_make(rng_range(r, -1, 1), rng_range(r, -1, 1), rng_range(r, -1, 1));
    rest[0].rotation = rng_quat(r, 3.0f);
    for (int j = 1; j <= n; ++j) {
        parents[j] = j - 1;
        tc->chain[j - 1] = j;
        if (j == 1) {
            rest[j].translation = ak_vec3_scale(rng_dir(r), 0.3f);
            continue;
        }
        float len = rng_range(r, lmin, lmax);
        ak_vec3 dir = straight ? ak_vec3_make(0, 1, 0) : rng_dir(r);
        rest[j].translation = ak_vec3_scale(dir, len);
        tc->length += len;
    }
    parents[n + 1] = n;
    rest[n + 1].translation = ak_vec3_make(0.1f, 0.05f, 0.0f);
    parents[n + 2] = 0;
    rest[n + 2].translation = ak_vec3_make(-0.2f, 0.3f, 0.1f);
    ak_skeleton_desc desc = {count, names, parents, rest, NULL, NULL};
    ak_error err;
    return ak_skeleton_create(&desc, &tc->skel, &err) == AK_OK ? 0 : -1;
}

static inline void test_chain_free(test_chain *tc)
{
    ak_skeleton_destroy(tc->skel);
}

/* Random local rotations (angle up to max_angle) on the chain joints; rest elsewhere. */
static inline void test_random_pose(const test_chain *tc, test_rng *r, float max_angle,
                                    ak_xform *local)
{
    ak_pose_rest(tc->skel, local);
    local[0].rotation = tc->skel->rest_local[0].rotation;
    for (int i = 0; i < tc->n; ++i)
        local[tc->chain[i]].rotation = rng_quat(r, max_angle);
}

static inline float vdist(ak_vec3 a, ak_vec3 b)
{
    return ak_vec3_length(ak_vec3_sub(a, b));
}

static inline int quat_is_unit(ak_quat q)
{
    float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    return isfinite(n) && fabsf(n - 1.0f) < 1e-4f;
}

static inline int xform_equal_bits(ak_xform a, ak_xform b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Angle at b between b->a and b->c, degrees. */
static inline double angle_at_deg(ak_vec3 a, ak_vec3 b, ak_vec3 c)
{
    ak_vec3 u = ak_vec3_sub(a, b), v = ak_vec3_sub(c, b);
    double cr = ak_vec3_length(ak_vec3_cross(u, v));
    return atan2(cr, (double)ak_vec3_dot(u, v)) * 180.0 / 3.14159265358979323846;
}

#endif
