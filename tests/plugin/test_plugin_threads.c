/* The plugin from several threads at once (issue 10): failing and succeeding calls on one
 * shared skeleton and clip, and handles created and destroyed, from 8 threads. Each thread
 * must read back its own last error (errors are per thread), and the ThreadSanitizer build of
 * this test (plugin_threads_tsan) must report no data race. */
#include "test_util.h"
#include "animkit/plugin.h"

#include <pthread.h>

#define THREADS 8
#define ROUNDS  400

static const char k_bvh[] =
    "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation "
    "Xrotation Yrotation\n JOINT Knee\n {\n  OFFSET 0 -0.5 0\n  CHANNELS 3 Zrotation Xrotation "
    "Yrotation\n  End Site\n  {\n   OFFSET 0 -0.4 0\n  }\n }\n}\nMOTION\nFrames: 3\n"
    "Frame Time: 0.1\n0 1 0 0 0 0 0 0 0\n0 1 0 10 0 0 20 0 0\n0 1 0 20 0 0 40 0 0\n";

typedef struct worker {
    int id;
    ak_handle skeleton, clip;
    int wrong_messages; /* a message that was not this thread's own */
    int bad_samples;
} worker;

static void *work(void *arg)
{
    worker *w = (worker *)arg;
    ak_plugin_xform pose[3];
    char text[256], want[64];
    for (int r = 0; r < ROUNDS; ++r) {
        /* A failure whose message names this thread's own value. */
        const int32_t bad_interp = 10 + w->id * ROUNDS + r;
        int32_t st = ak_plugin_clip_sample(w->clip, w->skeleton, 0.05f, bad_interp, pose, 3);
        snprintf(want, sizeof want, "interp %d is not", (int)bad_interp);
        if (st != AK_ERR_INVALID_ARG ||
            ak_plugin_last_error(w->clip, text, sizeof text) != AK_ERR_INVALID_ARG ||
            !strstr(text, want))
            ++w->wrong_messages;
        /* A success on the same shared objects in between. */
        if (ak_plugin_clip_sample(w->clip, w->skeleton, 0.01f * (float)(r % 20), 1, pose, 3) !=
                AK_OK ||
            !(fabsf(pose[1].position.y + 0.5f) < 1e-4f))
            ++w->bad_samples;
        /* Handles made and dropped while the others work. */
        if (r % 50 == 0) {
            ak_handle s2 = NULL, c2 = NULL;
            char err[128];
            if (ak_plugin_bvh_load_memory(k_bvh, (int32_t)strlen(k_bvh), 1.0f, 0, &s2, &c2, err,
                                          sizeof err) != AK_OK)
                ++w->bad_samples;
            ak_plugin_destroy(c2);
            ak_plugin_destroy(s2);
        }
    }
    return NULL;
}

static void failing_calls_on_shared_handles_keep_per_thread_errors(void **state)
{
    (void)state;
    ak_handle s = NULL, c = NULL;
    char err[128];
    assert_int_equal(
        ak_plugin_bvh_load_memory(k_bvh, (int32_t)strlen(k_bvh), 1.0f, 1, &s, &c, err, sizeof err),
        AK_OK);
    pthread_t t[THREADS];
    worker w[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        w[i] = (worker){i, s, c, 0, 0};
        assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS; ++i) {
        assert_int_equal(w[i].wrong_messages, 0);
        assert_int_equal(w[i].bad_samples, 0);
    }
    /* This thread made no failing call on the clip: nothing to report here. */
    assert_int_equal(ak_plugin_last_error(c, err, sizeof err), AK_OK);
    assert_string_equal(err, "");
    ak_plugin_destroy(c);
    ak_plugin_destroy(s);
    assert_int_equal(ak_plugin_live_handles(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(failing_calls_on_shared_handles_keep_per_thread_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
