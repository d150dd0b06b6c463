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

#endif
