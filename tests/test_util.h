/* Shared test helpers: cmocka includes, a seeded RNG, float asserts, mocap paths. */
#ifndef AK_TEST_UTIL_H
#define AK_TEST_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "animkit/animkit.h"

/* d degrees in radians, rounded as the library rounds its own `d * AK_PI / 180.0f` (the
 * library's angles are radians; tests write their bounds in the degrees a reader knows). */
#define AKT_RAD(d) ((d)*3.14159265358979323846f / 180.0f)
/* Radians in degrees, for messages. */
#define AKT_DEG(r) ((double)(r)*57.295779513082321)

/* Fails the test with a message when |a - b| > tol. */
#define AKT_NEAR(a, b, tol)                                                                        \
    do {                                                                                           \
        double akt_a_ = (double)(a), akt_b_ = (double)(b), akt_t_ = (double)(tol);                 \
        if (!(fabs(akt_a_ - akt_b_) <= akt_t_))                                                    \
            fail_msg("%s = %.9g, %s = %.9g, differ by %.3g > %.3g", #a, akt_a_, #b, akt_b_,        \
                     fabs(akt_a_ - akt_b_), akt_t_);                                               \
    } while (0)

/* xorshift64*: a deterministic RNG so property tests are reproducible. */
typedef struct akt_rng {
    uint64_t s;
} akt_rng;
static inline uint64_t akt_next(akt_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ULL;
}
/* Uniform in [lo, hi). */
static inline float akt_uniform(akt_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)((akt_next(r) >> 40) * (1.0 / 16777216.0));
}
static inline ak_quat akt_random_quat(akt_rng *r)
{
    ak_quat q = {akt_uniform(r, -1, 1), akt_uniform(r, -1, 1), akt_uniform(r, -1, 1),
                 akt_uniform(r, -1, 1)};
    return ak_quat_normalize(q);
}

/* Path of a file in the test mocap folder ($AK_MOCAP_DIR, else tests/data/mocap in the source
 * tree via $AK_SOURCE_DIR). Fails the test when the file is missing. */
static inline const char *akt_mocap_path(const char *name, char *buf, size_t size)
{
    const char *dir = getenv("AK_MOCAP_DIR");
    char fallback[768];
    if (!dir || !*dir) {
        const char *src = getenv("AK_SOURCE_DIR");
        snprintf(fallback, sizeof fallback, "%.700s/tests/data/mocap", src ? src : ".");
        dir = fallback;
    }
    snprintf(buf, size, "%.900s/%.100s", dir, name);
    FILE *f = fopen(buf, "rb");
    if (!f)
        fail_msg("mocap file %s not found: tests/data/mocap ships with the repository (or set "
                 "AK_MOCAP_DIR)",
                 buf);
    else
        fclose(f);
    return buf;
}

/* The folder of Debian's assimp-testmodels BVH files (make deps installs the package;
 * $AK_ASSIMP_BVH_DIR names another folder): another studio's captures nobody here tuned on. */
static inline const char *akt_assimp_dir(void)
{
    const char *d = getenv("AK_ASSIMP_BVH_DIR");
    return d && *d ? d : "/usr/share/assimp/models/BVH";
}

/* `path` gets assimp-testmodels' file `name`; 0, with the reason printed, when it cannot be read
 * (the caller skips: the package is absent). */
static inline int akt_assimp_bvh(const char *name, char *path, size_t size)
{
    snprintf(path, size, "%.900s/%.100s", akt_assimp_dir(), name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_message("SKIP: %s is missing: install the Debian package assimp-testmodels "
                      "(make deps) or set AK_ASSIMP_BVH_DIR\n",
                      path);
        return 0;
    }
    fclose(f);
    return 1;
}

/* The worst distance between a joint of (sa, ca) and the same joint of (sb, cb), over every
 * frame of cb; cb's frame f is at ca's time f * cb's frame time (same rate: frame f; 30 fps
 * against 120 fps: every 4th frame of ca). Where it was: *worst_joint, *worst_frame (cb's
 * frame; either may be NULL). */
static inline double akt_max_joint_distance(const ak_skeleton *sa, const ak_clip *ca,
                                            const ak_skeleton *sb, const ak_clip *cb,
                                            int32_t *worst_joint, int32_t *worst_frame)
{
    const int32_t J = sa->joint_count;
    ak_xform *buf = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 4);
    assert_non_null(buf);
    double worst = 0.0;
    const int32_t step = (int32_t)lroundf(cb->frame_time / ca->frame_time);
    for (int32_t f = 0; f * step < ca->frame_count && f < cb->frame_count; ++f) {
        ak_clip_frame(ca, sa, f * step, buf);
        ak_fk(sa, buf, buf + J);
        ak_clip_frame(cb, sb, f, buf + 2 * J);
        ak_fk(sb, buf + 2 * J, buf + 3 * J);
        for (int32_t j = 0; j < J; ++j) {
            const double d =
                ak_vec3_length(ak_vec3_sub(buf[J + j].translation, buf[3 * J + j].translation));
            if (!(d <= worst)) {
                worst = d;
                if (worst_joint) *worst_joint = j;
                if (worst_frame) *worst_frame = f;
            }
        }
    }
    free(buf);
    return worst;
}

#endif
