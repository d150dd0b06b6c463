/* The benchmarks' made-up rig: a humanoid-shaped random skeleton and a smooth clip on it.
 * Public API only, so a bench built against an older library (tools/bench_compare.sh) gets the
 * same rig. Not part of the tests. */
#ifndef AK_BENCH_RIG_H
#define AK_BENCH_RIG_H

#include "animkit/animkit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* `n` joints, depth-first: chains of 5 joints hanging off the root (like legs, arms and spine);
 * bone offsets from rand() seeded with `seed`. NULL (with a message) if the skeleton is refused. */
static ak_skeleton *akb_rig_skeleton(int n, unsigned seed)
{
    char(*names)[16] = malloc(sizeof *names * (size_t)n);
    const char **ptrs = malloc(sizeof *ptrs * (size_t)n);
    int32_t *parents = malloc(sizeof *parents * (size_t)n);
    ak_xform *rest = malloc(sizeof *rest * (size_t)n);
    srand(seed);
    for (int j = 0; j < n; ++j) {
        snprintf(names[j], sizeof names[j], "joint%d", j);
        ptrs[j] = names[j];
        parents[j] = j == 0 ? -1 : (j % 5 == 1 ? 0 : j - 1);
        rest[j] = ak_xform_identity();
        rest[j].translation = ak_vec3_make((float)(rand() % 100) / 500.0f,
                                           0.1f + (float)(rand() % 100) / 400.0f, 0.0f);
    }
    ak_skeleton_desc d = {n, ptrs, parents, rest, NULL, NULL};
    ak_skeleton *s = NULL;
    ak_error err;
    if (ak_skeleton_create(&d, &s, &err) != AK_OK) fprintf(stderr, "skeleton: %s\n", err.message);
    free(names);
    free(ptrs);
    free(parents);
    free(rest);
    return s;
}

/* `frames` keys at 30 fps of every joint turning on its own sines, the root moving 2 cm a key;
 * finalized, looping or not. */
static ak_clip *akb_rig_clip(int joints, int frames, int loop)
{
    ak_clip *c = NULL;
    ak_clip_create(joints, frames, 1.0f / 30.0f, NULL, &c, NULL);
    for (int f = 0; f < frames; ++f) {
        for (int j = 0; j < joints; ++j) {
            ak_vec3 e = {0.5f * sinf(0.1f * (float)f + (float)j),
                         0.4f * cosf(0.07f * (float)f * (float)(j % 3 + 1)),
                         0.3f * sinf(0.13f * (float)f)};
            c->rotations[(size_t)f * (size_t)joints + (size_t)j] =
                ak_quat_from_euler(e, AK_ORDER_ZYX);
        }
        c->translations[f] = ak_vec3_make(0.02f * (float)f, 1.0f, 0.0f);
    }
    c->loop = loop;
    ak_clip_finalize(c);
    return c;
}

#endif
