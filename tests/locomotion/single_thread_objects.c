/* Issue 26: objects documented as serving one thread at a time (walker, matcher, retargeter)
 * detect a second thread's call while one is in flight and refuse it (AK_ERR_STATE) instead
 * of racing. The overlap is made certain, not hoped for: the first thread's step blocks inside
 * its ground callback until the second thread has made its call. The object then finishes the
 * first call and walks on exactly as an untouched twin does (nothing was corrupted). */
#include "walk_util.h"

#include "animkit/matching.h"
#include "animkit/retarget.h"

#include <pthread.h>
#include <sched.h>

typedef struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int armed;     /* the next ground query blocks */
    int in_flight; /* a query is blocked inside a step */
    int released;  /* the other thread has made its call */
} gate;

static int32_t gated_flat(void *user, float x, float z, ak_ground_hit *out)
{
    (void)x;
    (void)z;
    gate *g = (gate *)user;
    pthread_mutex_lock(&g->mu);
    if (g->armed) {
        g->armed = 0;
        g->in_flight = 1;
        pthread_cond_broadcast(&g->cv);
        while (!g->released)
            pthread_cond_wait(&g->cv, &g->mu);
    }
    pthread_mutex_unlock(&g->mu);
    out->hit = 1;
    out->height = 0.0f;
    out->normal = ak_vec3_make(0.0f, 1.0f, 0.0f);
    return 1;
}

typedef int32_t (*step_fn)(void *object, const ak_ground *ground, ak_error *err);

typedef struct stepper {
    step_fn step;
    void *object;
    const ak_ground *ground;
    int32_t status;
    ak_error err;
} stepper;

static void *run_step(void *arg)
{
    stepper *s = (stepper *)arg;
    s->status = s->step(s->object, s->ground, &s->err);
    return NULL;
}

/* Thread A steps `object` and blocks in its ground query; this thread then calls the same
 * step: it must be refused at once, naming the call. */
static void second_thread_is_refused(step_fn step, void *object, const char *call)
{
    gate g;
    memset(&g, 0, sizeof g);
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.cv, NULL);
    const ak_ground ground = {gated_flat, NULL, &g};
    g.armed = 1;
    stepper a = {step, object, &ground, 0, {0}};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, run_step, &a), 0);
    pthread_mutex_lock(&g.mu);
    while (!g.in_flight)
        pthread_cond_wait(&g.cv, &g.mu);
    pthread_mutex_unlock(&g.mu);
    ak_error err;
    const int32_t st = step(object, &ground, &err);
    pthread_mutex_lock(&g.mu);
    g.released = 1;
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.mu);
    pthread_join(t, NULL);
    printf("second thread: %s (%s); first thread: %s\n", ak_status_name(st), err.message,
           ak_status_name(a.status));
    assert_int_equal(st, AK_ERR_STATE);
    assert_non_null(strstr(err.message, call));
    assert_non_null(strstr(err.message, "another thread"));
    assert_int_equal(a.status, AK_OK);
    pthread_cond_destroy(&g.cv);
    pthread_mutex_destroy(&g.mu);
}

static int32_t flat(void *user, float x, float z, ak_ground_hit *out)
{
    (void)user;
    (void)x;
    (void)z;
    out->hit = 1;
    out->height = 0.0f;
    out->normal = ak_vec3_make(0.0f, 1.0f, 0.0f);
    return 1;
}

static int32_t walker_step_120(void *o, const ak_ground *g, ak_error *err)
{
    return ak_walker_step((ak_walker *)o, 1.0f / 120.0f, g, err);
}

static void walker_refuses_a_second_thread(void **state)
{
    (void)state;
    walk_source src;
    source_open(&src, NULL, -1, -1);
    const ak_ground ground = {flat, NULL, NULL};
    ak_walker_params wp = ak_walker_defaults();
    wp.target = ak_vec3_make(0.0f, 0.0f, 20.0f);
    ak_walker *w = NULL, *twin = NULL;
    ak_error err;
    assert_int_equal(ak_walker_create(src.motion, &wp, &ground, &w, &err), AK_OK);
    assert_int_equal(ak_walker_create(src.motion, &wp, &ground, &twin, &err), AK_OK);
    for (int f = 0; f < 30; ++f) {
        assert_int_equal(walker_step_120(w, &ground, &err), AK_OK);
        assert_int_equal(walker_step_120(twin, &ground, &err), AK_OK);
    }
    second_thread_is_refused(walker_step_120, w, "ak_walker_step");
    assert_int_equal(walker_step_120(twin, &ground, &err), AK_OK);
    for (int f = 0; f < 60; ++f) {
        assert_int_equal(walker_step_120(w, &ground, &err), AK_OK);
        assert_int_equal(walker_step_120(twin, &ground, &err), AK_OK);
    }
    const int32_t J = ak_skeleton_joint_count(src.skeleton);
    assert_memory_equal(ak_walker_world_pose(w), ak_walker_world_pose(twin), sizeof(ak_xform) * J);
    ak_walker_destroy(w);
    ak_walker_destroy(twin);
    source_close(&src);
}

static int32_t matcher_step_60(void *o, const ak_ground *g, ak_error *err)
{
    return ak_matcher_step((ak_matcher *)o, 1.0f / 60.0f, g, err);
}

static void matcher_refuses_a_second_thread(void **state)
{
    (void)state;
    char path[1024];
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    ak_error err;
    akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path);
    assert_int_equal(ak_bvh_read_file(path, NULL, &sk, &clip, &err), AK_OK);
    ak_motion_db_clip c = {clip, 0, 0, 0, "walk"};
    ak_motion_db_params dp = ak_motion_db_defaults();
    ak_motion_db *db = NULL;
    assert_int_equal(ak_motion_db_create(sk, &c, 1, &dp, &db, &err), AK_OK);
    ak_matcher_params mp = ak_matcher_defaults();
    mp.target = ak_vec3_make(3.0f, 0.0f, 4.0f);
    ak_matcher *m = NULL, *twin = NULL;
    assert_int_equal(ak_matcher_create(db, &mp, NULL, &m, &err), AK_OK);
    assert_int_equal(ak_matcher_create(db, &mp, NULL, &twin, &err), AK_OK);
    const ak_ground ground = {flat, NULL, NULL};
    for (int f = 0; f < 20; ++f) {
        assert_int_equal(matcher_step_60(m, &ground, &err), AK_OK);
        assert_int_equal(matcher_step_60(twin, &ground, &err), AK_OK);
    }
    second_thread_is_refused(matcher_step_60, m, "ak_matcher_step");
    assert_int_equal(matcher_step_60(twin, &ground, &err), AK_OK);
    for (int f = 0; f < 40; ++f) {
        assert_int_equal(matcher_step_60(m, &ground, &err), AK_OK);
        assert_int_equal(matcher_step_60(twin, &ground, &err), AK_OK);
    }
    const int32_t J = ak_skeleton_joint_count(ak_motion_db_skeleton(db));
    assert_memory_equal(ak_matcher_world_pose(m), ak_matcher_world_pose(twin),
                        sizeof(ak_xform) * J);
    ak_matcher_destroy(m);
    ak_matcher_destroy(twin);
    ak_motion_db_destroy(db);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(sk);
}

/* ---- The retargeter: no callback to block in, so 4 threads share one, each posing 3,000
 * frames and trying again when refused; every pose they get must be the reference bits
 * (before: differing results, nothing said). ---- */

enum { THREADS = 4, ROUNDS = 3000 };

typedef struct rt_job {
    ak_retargeter *rt;
    const ak_clip *clip;
    const ak_skeleton *src;
    const ak_xform *reference; /* target pose per source frame */
    int32_t nt;
    int ok, refused, wrong;
} rt_job;

static void *rt_hammer(void *arg)
{
    rt_job *j = (rt_job *)arg;
    const int32_t ns = j->src->joint_count;
    ak_xform *in = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)(ns + j->nt)), *out = in + ns;
    for (int r = 0; r < ROUNDS; ++r) {
        const int32_t f = r % j->clip->frame_count;
        ak_clip_sample(j->clip, j->src, (float)f * j->clip->frame_time, AK_INTERP_STEP, in);
        int32_t st;
        while ((st = ak_retargeter_pose(j->rt, in, out)) == AK_ERR_STATE) {
            ++j->refused; /* another thread's pose is in flight: try again */
            sched_yield();
        }
        if (st == AK_OK && memcmp(out, j->reference + (size_t)f * (size_t)j->nt,
                                  sizeof(ak_xform) * (size_t)j->nt) == 0)
            ++j->ok;
        else
            ++j->wrong;
    }
    free(in);
    return NULL;
}

static void retargeter_shared_by_threads_refuses_or_is_exact(void **state)
{
    (void)state;
    walk_source src;
    source_open(&src, "cmu_02_01_walk.bvh", -1, -1);
    ak_skeleton *target = NULL;
    ak_clip *unused = NULL;
    ak_error err;
    ak_walk_clip_params wcp = ak_walk_clip_defaults();
    assert_int_equal(ak_walk_clip_create(&wcp, &target, &unused, &err), AK_OK);
    ak_retarget_params rp = ak_retarget_defaults();
    rp.source = src.skeleton;
    rp.target = target;
    ak_retargeter *rt = NULL;
    assert_int_equal(ak_retargeter_create(&rp, &rt, &err), AK_OK);
    const int32_t ns = src.skeleton->joint_count, nt = target->joint_count;
    const int32_t frames = src.clip->frame_count < 60 ? src.clip->frame_count : 60;
    ak_xform *ref = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)nt * (size_t)frames);
    ak_xform *in = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)ns);
    for (int32_t f = 0; f < frames; ++f) {
        ak_clip_sample(src.clip, src.skeleton, (float)f * src.clip->frame_time, AK_INTERP_STEP, in);
        assert_int_equal(ak_retargeter_pose(rt, in, ref + (size_t)f * (size_t)nt), AK_OK);
    }
    ak_clip shown = *src.clip;
    shown.frame_count = frames;
    rt_job jobs[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        jobs[i] = (rt_job){rt, &shown, src.skeleton, ref, nt, 0, 0, 0};
        assert_int_equal(pthread_create(&t[i], NULL, rt_hammer, &jobs[i]), 0);
    }
    int ok = 0, refused = 0, wrong = 0;
    for (int i = 0; i < THREADS; ++i) {
        pthread_join(t[i], NULL);
        ok += jobs[i].ok;
        refused += jobs[i].refused;
        wrong += jobs[i].wrong;
        printf("  thread %d: %d exact, %d refused, %d wrong\n", i, jobs[i].ok, jobs[i].refused,
               jobs[i].wrong);
    }
    printf("retargeter shared by %d threads: %d exact, %d refused (in use), %d wrong\n", THREADS,
           ok, refused, wrong);
    assert_int_equal(wrong, 0);
    assert_int_equal(ok, THREADS * ROUNDS);
    assert_int_equal(ak_retargeter_pose(NULL, in, ref), AK_ERR_INVALID_ARG);
    free(in);
    free(ref);
    ak_retargeter_destroy(rt);
    ak_skeleton_destroy(target);
    ak_clip_destroy(unused);
    source_close(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walker_refuses_a_second_thread),
        cmocka_unit_test(matcher_refuses_a_second_thread),
        cmocka_unit_test(retargeter_shared_by_threads_refuses_or_is_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
