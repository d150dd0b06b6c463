/* Shared by the locomotion tests: build a walk motion (built-in or mocap), run a walk, measure. */
#ifndef AK_TEST_WALK_UTIL_H
#define AK_TEST_WALK_UTIL_H

#include "test_util.h"

typedef struct walk_source {
    ak_skeleton *skeleton;
    ak_clip *clip;
    ak_walk_motion *motion;
    uint8_t *stance;
} walk_source;

/* Built-in clip, or mocap `name` with cycle [a,b) (both -1: found automatically). */
static inline void source_open(walk_source *s, const char *name, int a, int b)
{
    memset(s, 0, sizeof *s);
    ak_error err;
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    if (!name) {
        ak_walk_clip_params wp = ak_walk_clip_defaults();
        assert_int_equal(ak_walk_clip_create(&wp, &s->skeleton, &s->clip, &err), AK_OK);
        mp.metres_per_unit = 1.0f;
        mp.cycle_start = mp.cycle_end = 0;
        s->stance = (uint8_t *)malloc((size_t)s->clip->frame_count * 2);
        assert_int_equal(
            ak_walk_clip_contacts(&wp, s->clip, s->stance, s->stance + s->clip->frame_count, &err),
            AK_OK);
        mp.stance_left = s->stance;
        mp.stance_right = s->stance + s->clip->frame_count;
    } else {
        char path[1024];
        akt_mocap_path(name, path, sizeof path);
        if (ak_bvh_read_file(path, NULL, &s->skeleton, &s->clip, &err) != AK_OK)
            fail_msg("%s: %s", path, err.message);
        mp.cycle_start = a;
        mp.cycle_end = b;
    }
    if (ak_walk_motion_create(s->skeleton, s->clip, &mp, &s->motion, &err) != AK_OK)
        fail_msg("motion: %s", err.message);
}

static inline void source_close(walk_source *s)
{
    ak_walk_motion_destroy(s->motion);
    ak_clip_destroy(s->clip);
    ak_skeleton_destroy(s->skeleton);
    free(s->stance);
}

typedef struct walk_result {
    ak_walk_metrics m;
    ak_walker_state last;
    float max_hip_drop;
    int frames;
} walk_result;

/* Walks from start to target on `ground` until arrival (or max_time); measures up to arrival. */
static inline walk_result walk_run(const walk_source *s, const ak_ground *ground,
                                   ak_walker_params wp, float max_time)
{
    walk_result r;
    memset(&r, 0, sizeof r);
    ak_walker *w = NULL;
    ak_error err;
    if (ak_walker_create(s->motion, &wp, ground, &w, &err) != AK_OK)
        fail_msg("walker: %s", err.message);
    const float dt = ak_walk_motion_clip(s->motion)->frame_time;
    const int32_t hips = ak_walk_motion_humanoid(s->motion)->joint[AK_HUM_HIPS];
    ak_walk_metrics_reset(&r.m);
    for (int f = 0; f * dt < max_time; ++f) {
        assert_int_equal(ak_walker_step(w, f == 0 ? 0.0f : dt, ground, &err), AK_OK);
        ak_walker_get_state(w, &r.last);
        if (r.last.arrived) break;
        ak_walk_metrics_add(&r.m, &r.last, ak_walker_world_pose(w), hips, f == 0 ? 0.0f : dt);
        if (r.last.hip_drop > r.max_hip_drop) r.max_hip_drop = r.last.hip_drop;
        ++r.frames;
    }
    ak_walker_destroy(w);
    return r;
}

static inline void print_result(const char *label, const walk_result *r)
{
    printf("%-34s arrived %d t %.2f s dist %.3f pen %.4f float %.4f skate %.4f tilt %.2f foot_step "
           "%.4f hip_step %.4f hip_drop %.3f\n",
           label, (int)r->last.arrived, (double)r->last.time, (double)r->last.distance,
           (double)r->m.max_penetration, (double)r->m.max_float, (double)r->m.skate,
           (double)r->m.max_tilt_deg, (double)r->m.max_foot_step, (double)r->m.max_hip_step,
           (double)r->max_hip_drop);
}

#endif
