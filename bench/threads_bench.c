/* Crowds on two cores: 10,000 walkers of the built-in clip on the built-in terrain, the whole
 * walker frame (sample, root motion, controller, foot IK, FK), stepped by
 * ak_walker_step_range on one thread and split with ak_batch_range over two threads (a
 * plain pthread pool: the library starts no threads). Rounds interleave the two (each round:
 * FRAMES frames on one thread, then FRAMES on two); the speed-up is the ratio of the medians.
 * The goal (issue 25) is >= 1.9x, which needs two otherwise idle cores: the load average is
 * printed beside it. Results are the same bits on any split (tests/locomotion: walker ranges).
 * Without an argument, 10,000 walkers (the goal) and then 1,000 (which fit the cache: for
 * scale). Usage: bench_threads [CHARACTERS] */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "animkit/animkit.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { TB_ROUNDS = 11, TB_FRAMES = 4, TB_WARM_UP = 60 };

typedef struct pool {
    ak_walker **w;
    int n;
    float dt;
    const ak_ground *ground;
    pthread_barrier_t start, done;
    int quit;
} pool;

static void step_part(pool *p, int parts, int part)
{
    int32_t b = 0, e = 0;
    ak_batch_range(p->n, parts, part, &b, &e);
    ak_walker_step_range(p->w, b, e, p->dt, p->ground, NULL);
}

/* The second thread: waits for a frame, steps its half, reports. */
static void *worker(void *arg)
{
    pool *p = (pool *)arg;
    for (;;) {
        pthread_barrier_wait(&p->start);
        if (p->quit) return NULL;
        step_part(p, 2, 1);
        pthread_barrier_wait(&p->done);
    }
}

static double frames_seconds(pool *p, int threads)
{
    const double t0 = akb_now();
    for (int f = 0; f < TB_FRAMES; ++f) {
        if (threads == 1) {
            step_part(p, 1, 0);
            continue;
        }
        pthread_barrier_wait(&p->start);
        step_part(p, 2, 0);
        pthread_barrier_wait(&p->done);
    }
    return (akb_now() - t0) / TB_FRAMES;
}

static int make_crowd(pool *p, ak_walk_motion **motion, ak_skeleton **sk, ak_clip **clip,
                      uint8_t **stance)
{
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    if (ak_walk_clip_create(&wp, sk, clip, NULL) != AK_OK) return -1;
    const int frames = (*clip)->frame_count;
    *stance = malloc((size_t)frames * 2);
    if (!*stance) return -1;
    ak_walk_clip_contacts(&wp, *clip, *stance, *stance + frames, NULL);
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    mp.metres_per_unit = 1.0f;
    mp.cycle_start = mp.cycle_end = 0;
    mp.stance_left = *stance;
    mp.stance_right = *stance + frames;
    if (ak_walk_motion_create(*sk, *clip, &mp, motion, NULL) != AK_OK) return -1;
    p->dt = (*clip)->frame_time;
    p->w = calloc((size_t)p->n, sizeof *p->w);
    if (!p->w) return -1;
    for (int i = 0; i < p->n; ++i) { /* spread over 30 x 30 m, targets 1 km away */
        ak_walker_params w = ak_walker_defaults();
        const float a = 6.2831853f * (float)i / (float)p->n;
        w.start = ak_vec3_make(-15.0f + 30.0f * (float)((i * 37) % 101) / 101.0f, 0,
                               -15.0f + 30.0f * (float)((i * 53) % 103) / 103.0f);
        w.target = ak_vec3_make(w.start.x + 1000.0f * cosf(a), 0, w.start.z + 1000.0f * sinf(a));
        if (ak_walker_create(*motion, &w, p->ground, &p->w[i], NULL) != AK_OK) return -1;
    }
    return 0;
}

/* One crowd of n walkers: 1 and 2 threads interleaved; prints the rows. The goal is for
 * 10,000 (~40 MB of walkers a frame: they stream from memory); 1,000 fit the cache, so the two
 * rows together tell memory-bound scaling from the rest. */
static int run_crowd(int n, int with_goal)
{
    pool p = {0};
    p.n = n < 2 ? 2 : n;
    ak_terrain_params tp = ak_terrain_defaults();
    tp.size = 200.0f;
    tp.cell = 0.5f;
    ak_terrain *t = NULL;
    ak_walk_motion *motion = NULL;
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    uint8_t *stance = NULL;
    if (ak_terrain_create(&tp, &t, NULL) != AK_OK) return 1;
    const ak_ground g = ak_terrain_ground(t);
    p.ground = &g;
    if (make_crowd(&p, &motion, &sk, &clip, &stance) != 0) return 1;
    pthread_barrier_init(&p.start, NULL, 2);
    pthread_barrier_init(&p.done, NULL, 2);
    pthread_t th;
    if (pthread_create(&th, NULL, worker, &p) != 0) return 1;
    for (int f = 0; f < TB_WARM_UP; ++f)
        frames_seconds(&p, f % 2 ? 2 : 1);
    double one[TB_ROUNDS], two[TB_ROUNDS];
    for (int r = 0; r < TB_ROUNDS; ++r) {
        one[r] = frames_seconds(&p, 1);
        two[r] = frames_seconds(&p, 2);
    }
    p.quit = 1;
    pthread_barrier_wait(&p.start);
    pthread_join(th, NULL);
    pthread_barrier_destroy(&p.start);
    pthread_barrier_destroy(&p.done);
    const double s1 = akb_median(one, TB_ROUNDS), s2 = akb_median(two, TB_ROUNDS);
    printf("%d walkers, whole frame, medians of %d interleaved rounds of %d frames:\n", p.n,
           TB_ROUNDS, TB_FRAMES);
    printf("  1 thread  %8.3f ms per frame  %6.3f us per character-frame\n", s1 * 1e3,
           s1 / p.n * 1e6);
    printf("  2 threads %8.3f ms per frame  %6.3f us per character-frame  %.2fx\n", s2 * 1e3,
           s2 / p.n * 1e6, s1 / s2);
    char what[128], num[32];
    snprintf(what, sizeof what,
             "%s walkers, whole frame, 2 threads ÷ 1 (ak_walker_step_range, time)",
             akb_thousands(num, sizeof num, p.n));
    if (with_goal)
        akb_result(what, s1 / s2, 2, "×", ">=", 1.9, "needs two idle cores: see the load average");
    else
        akb_result(what, s1 / s2, 2, "×", NULL, 0.0,
                   "fits the cache (10,000 stream ~40 MB a frame from memory)");
    for (int i = 0; i < p.n; ++i)
        ak_walker_destroy(p.w[i]);
    free(p.w);
    ak_walk_motion_destroy(motion);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(sk);
    free(stance);
    ak_terrain_destroy(t);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1) return run_crowd(atoi(argv[1]), atoi(argv[1]) == 10000);
    if (run_crowd(10000, 1) != 0) return 1;
    return run_crowd(1000, 0);
}
