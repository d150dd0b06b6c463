/* A crowd of walkers stepped in ranges on two threads (ak_batch_range + ak_walker_step_range,
 * the way a thread pool runs them) gives, frame by frame, the bits of stepping every walker
 * in turn on one thread. POSIX threads: the test machine's libc has them built in. */
#include "walk_util.h"

#include <pthread.h>

enum { WALKERS = 13, FRAMES = 90, THREADS = 2 };

typedef struct range_job {
    ak_walker *const *walkers;
    int32_t count, part;
    float dt;
    const ak_ground *ground;
    int32_t statuses[WALKERS];
    int32_t status;
} range_job;

static void *run_range(void *arg)
{
    range_job *j = (range_job *)arg;
    int32_t begin, end;
    if (ak_batch_range(j->count, THREADS, j->part, &begin, &end) != AK_OK) {
        j->status = AK_ERR_INVALID_ARG;
        return NULL;
    }
    j->status = ak_walker_step_range(j->walkers, begin, end, j->dt, j->ground, j->statuses);
    return NULL;
}

static void crowd_on_two_threads_matches_one_thread(void **state)
{
    (void)state;
    walk_source src;
    source_open(&src, NULL, 0, 0);
    ak_terrain_params tp = ak_terrain_defaults();
    tp.seed = 5;
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&tp, &t, NULL), AK_OK);
    ak_ground g = ak_terrain_ground(t);
    ak_walker *one[WALKERS], *many[WALKERS];
    for (int i = 0; i < WALKERS; ++i) {
        ak_walker_params wp = ak_walker_defaults();
        wp.start = ak_vec3_make(-4.0f + 0.6f * (float)i, 0, -3.0f + 0.3f * (float)(i % 4));
        wp.target = ak_vec3_make(4.0f - 0.5f * (float)(i % 5), 0, 3.0f);
        assert_int_equal(ak_walker_create(src.motion, &wp, &g, &one[i], NULL), AK_OK);
        assert_int_equal(ak_walker_create(src.motion, &wp, &g, &many[i], NULL), AK_OK);
    }
    const float dt = ak_walk_motion_clip(src.motion)->frame_time;
    const size_t pose = sizeof(ak_xform) * (size_t)ak_walk_motion_skeleton(src.motion)->joint_count;
    range_job jobs[THREADS];
    for (int f = 0; f < FRAMES; ++f) {
        for (int i = 0; i < WALKERS; ++i)
            assert_int_equal(ak_walker_step(one[i], dt, &g, NULL), AK_OK);
        pthread_t threads[THREADS];
        for (int k = 0; k < THREADS; ++k) {
            jobs[k] = (range_job){many, WALKERS, k, dt, &g, {0}, -99};
            assert_int_equal(pthread_create(&threads[k], NULL, run_range, &jobs[k]), 0);
        }
        for (int k = 0; k < THREADS; ++k) {
            assert_int_equal(pthread_join(threads[k], NULL), 0);
            assert_int_equal(jobs[k].status, AK_OK);
        }
        for (int i = 0; i < WALKERS; ++i)
            assert_memory_equal(ak_walker_world_pose(one[i]), ak_walker_world_pose(many[i]), pose);
    }
    /* the walkers moved: the comparison is over walking, not standing, frames */
    ak_walker_state st;
    ak_walker_get_state(many[0], &st);
    assert_true(st.time > 0.5f * dt * FRAMES);
    for (int i = 0; i < WALKERS; ++i) {
        ak_walker_destroy(one[i]);
        ak_walker_destroy(many[i]);
    }
    ak_terrain_destroy(t);
    source_close(&src);
}

/* A failing walker (here a null one) is reported in its slot and by the return value; the
 * others still step. Bad ranges are refused. */
static void step_range_reports_each_walker(void **state)
{
    (void)state;
    walk_source src;
    source_open(&src, NULL, 0, 0);
    ak_terrain_params tp = ak_terrain_defaults();
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&tp, &t, NULL), AK_OK);
    ak_ground g = ak_terrain_ground(t);
    ak_walker_params wp = ak_walker_defaults();
    ak_walker *w[3] = {NULL, NULL, NULL};
    assert_int_equal(ak_walker_create(src.motion, &wp, &g, &w[0], NULL), AK_OK);
    assert_int_equal(ak_walker_create(src.motion, &wp, &g, &w[2], NULL), AK_OK);
    int32_t statuses[3] = {1, 1, 1};
    assert_int_equal(ak_walker_step_range(w, 0, 3, 1.0f / 30.0f, &g, statuses), AK_ERR_INVALID_ARG);
    assert_int_equal(statuses[0], AK_OK);
    assert_int_equal(statuses[1], AK_ERR_INVALID_ARG);
    assert_int_equal(statuses[2], AK_OK);
    assert_int_equal(ak_walker_step_range(w, 2, 1, 1.0f / 30.0f, &g, NULL), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_walker_step_range(NULL, 0, 1, 1.0f / 30.0f, &g, NULL), AK_ERR_INVALID_ARG);
    ak_walker_destroy(w[0]);
    ak_walker_destroy(w[2]);
    ak_terrain_destroy(t);
    source_close(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crowd_on_two_threads_matches_one_thread),
        cmocka_unit_test(step_range_reports_each_walker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
