/* Walks a walk scenario to its stop, every frame in the walk summary: for tests that hold a
 * whole walk to issue 21's bounds. Needs the scenario library (animkit/scenario.h). */
#ifndef AK_SCENE_WALK_UTIL_H
#define AK_SCENE_WALK_UTIL_H

#include "test_util.h"
#include "animkit/scenario.h"

/* Makes the scene of `sc`, steps it until its walker stops or its max_frames pass, adding every
 * frame to *sum (the first as the start); *last gets the final state. Fails the test, naming
 * `what`, when the scene or its summary cannot be made. */
static inline void akt_walk_to_stop(const ak_walk_scenario_params *sc, const char *what,
                                    ak_walk_summary *sum, ak_walker_state *last)
{
    ak_walk_scene *w = NULL;
    ak_error err;
    if (ak_walk_scene_create(sc, NULL, &w, &err) != AK_OK) fail_msg("%s: %s", what, err.message);
    ak_walk_scene_info info;
    ak_walk_scene_get_info(w, &info);
    if (ak_walk_summary_begin(sum, w, &err) != AK_OK) fail_msg("%s: %s", what, err.message);
    ak_walk_scene_get_state(w, last);
    ak_walk_summary_add(sum, w, 1);
    for (int32_t i = 1; i < info.max_frames && !last->stopped; ++i) {
        if (ak_walk_scene_step(w, &err) != AK_OK) fail_msg("%s: %s", what, err.message);
        ak_walk_scene_get_state(w, last);
        ak_walk_summary_add(sum, w, 0);
    }
    ak_walk_scene_destroy(w);
}

/* Issue 21's bounds around a source's figures (`src`: the summary's source metrics): the hips'
 * vertical acceleration within [min(source, -1 g) - 0.25 g, max(source, +1 g) + 0.5 g] and the
 * peak knee at most max(source peak, 75 deg) + 25 deg (radians). */
typedef struct akt_walk_bounds {
    float hips_lo_g, hips_hi_g, knee;
} akt_walk_bounds;

static inline akt_walk_bounds akt_issue21_bounds(const ak_walk_metrics *src)
{
    akt_walk_bounds b;
    b.hips_lo_g = fminf(src->hip_accel_min_g, -1.0f) - 0.25f;
    b.hips_hi_g = fmaxf(src->hip_accel_max_g, 1.0f) + 0.5f;
    b.knee = fmaxf(src->knee_peak, AKT_RAD(75.0f)) + AKT_RAD(25.0f);
    return b;
}

/* Walks Debian assimp-testmodels' `file` (akt_assimp_bvh) on the CLI's route with `steer` over
 * `terrain` (hills of `seed`) to its stop, as akt_walk_to_stop. Returns 0, having said why, when
 * the package is absent: the caller skips. */
static inline int akt_walk_assimp(const char *file, int32_t steer, int32_t terrain, int32_t seed,
                                  ak_walk_summary *sum, ak_walker_state *last)
{
    char path[1024];
    if (!akt_assimp_bvh(file, path, sizeof path)) return 0;
    ak_walk_scenario_params sc = ak_walk_scenario_defaults();
    snprintf(sc.clip, sizeof sc.clip, "%s", path);
    sc.steer = steer;
    sc.terrain = terrain;
    sc.seed = seed;
    akt_walk_to_stop(&sc, path, sum, last);
    return 1;
}

#endif
