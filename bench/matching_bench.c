/* Motion-matching benchmark: search time against database size (1k, 10k, 50k frames; brute
 * force and the box search, and their ratio), the whole matching frame per character for 1
 * and 1,000 characters, and the side-by-side table of the same walks with the guide walker
 * and with matching. Usage: bench_matching [MOCAP_DIR] (default tests/data/mocap). */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "animkit/animkit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *g_dir = "tests/data/mocap";

/* This machine is shared: time is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), which
 * counts only while the benchmark runs on a core, and medians of repeated runs. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double median_cpu_seconds(void (*fn)(void *), void *arg, int repeats)
{
    double v[64];
    repeats = repeats > 64 ? 64 : repeats;
    for (int r = 0; r < repeats; ++r) {
        const double t0 = cpu_now();
        fn(arg);
        v[r] = cpu_now() - t0;
    }
    return akb_median(v, repeats);
}

/* A database of about `frames` frames: built-in gaits of varied stride, cadence, hip height,
 * width and arm swing, each unrolled for `loops` cycles. */
static ak_motion_db *gait_db(int frames)
{
    const int gaits = frames < 2000 ? 4 : (frames < 20000 ? 20 : 50);
    ak_clip *clips[64];
    ak_motion_db_clip src[64];
    ak_skeleton *sk = NULL;
    float cycle_sum = 0.0f;
    for (int i = 0; i < gaits; ++i) {
        ak_walk_clip_params wp = ak_walk_clip_defaults();
        const float u = (float)((i * 37) % 101) / 100.0f, w = (float)((i * 59) % 97) / 96.0f;
        wp.stride_length = 0.9f + 0.4f * u;
        wp.cycle_time = 0.95f + 0.35f * w;
        wp.hip_height -= 0.02f * u; /* the default (0.795) at most: hip + bob stay below the leg */
        wp.step_width = 0.14f + 0.08f * w;
        wp.arm_swing = (10.0f + 15.0f * u * w) * 3.14159265f / 180.0f; /* 10..25 degrees */
        ak_skeleton *s = NULL;
        if (ak_walk_clip_create(&wp, &s, &clips[i], NULL) != AK_OK) return NULL;
        if (i == 0)
            sk = s;
        else
            ak_skeleton_destroy(s);
        cycle_sum += wp.cycle_time;
        memset(&src[i], 0, sizeof src[i]);
        src[i].clip = clips[i];
    }
    const int loops = (int)ceilf((float)frames / (60.0f * cycle_sum));
    for (int i = 0; i < gaits; ++i)
        src[i].loops = loops < 2 ? 2 : loops;
    ak_motion_db_params p = ak_motion_db_defaults();
    p.metres_per_unit = 1.0f;
    ak_motion_db *db = NULL;
    ak_error err;
    if (ak_motion_db_create(sk, src, gaits, &p, &db, &err) != AK_OK)
        fprintf(stderr, "database: %s\n", err.message);
    for (int i = 0; i < gaits; ++i)
        ak_clip_destroy(clips[i]);
    ak_skeleton_destroy(sk);
    return db;
}

typedef struct search_job {
    const ak_motion_db *db;
    const float *queries, *bound;
    int n, mode;
    long tested;
} search_job;

/* As the controller searches: only costs below the playing frame's own count. */
static void run_searches(void *arg)
{
    search_job *j = (search_job *)arg;
    ak_match_result r;
    for (int i = 0; i < j->n; ++i) {
        ak_motion_db_search(j->db, j->queries + (size_t)i * AK_MATCH_FEATURES, j->mode, j->bound[i],
                            &r);
        j->tested += r.frames_tested;
    }
    akb_sink(&r, sizeof r);
}

/* Queries as the controller makes them: a database frame's pose features with a wanted
 * trajectory that differs from that frame's (uniform noise of +-0.5 per normalised
 * dimension), searched below that frame's own cost. */
static void bench_search(int frames)
{
    ak_motion_db *db = gait_db(frames);
    if (!db) return;
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    enum { NQ = 256 };
    float *q = (float *)malloc(sizeof(float) * NQ * AK_MATCH_FEATURES);
    float bound[NQ], x[AK_MATCH_FEATURES];
    uint64_t s = 88172645463325252ULL;
    float raw[AK_MATCH_FEATURES];
    for (int i = 0; i < NQ; ++i) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        ak_motion_db_features(db, (int32_t)(s % (uint64_t)info.frame_count), raw);
        ak_motion_db_normalize(db, raw, x);
        float *qi = q + (size_t)i * AK_MATCH_FEATURES;
        memcpy(qi, x, sizeof x);
        bound[i] = 0.0f;
        for (int k = 15; k < AK_MATCH_FEATURES; ++k) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            qi[k] += (float)((double)(s % 1000) / 1000.0 - 0.5);
            bound[i] += (qi[k] - x[k]) * (qi[k] - x[k]);
        }
    }
    int same = 0;
    for (int i = 0; i < NQ; ++i) {
        ak_match_result a, b;
        ak_motion_db_search(db, q + (size_t)i * AK_MATCH_FEATURES, AK_MATCH_BRUTE, bound[i], &a);
        ak_motion_db_search(db, q + (size_t)i * AK_MATCH_FEATURES, AK_MATCH_BOXES, bound[i], &b);
        same += a.frame == b.frame;
    }
    search_job jb = {db, q, bound, NQ, AK_MATCH_BRUTE, 0},
               jx = {db, q, bound, NQ, AK_MATCH_BOXES, 0};
    const double tb = median_cpu_seconds(run_searches, &jb, 15) / NQ;
    const double tx = median_cpu_seconds(run_searches, &jx, 15) / NQ;
    printf("| %6d | %6d | %8.2f | %8.2f | %5.1fx | %5.1f %% | %d/%d |\n", (int)info.frame_count,
           (int)info.candidate_count, tb * 1e6, tx * 1e6, tb / tx,
           100.0 * (double)jx.tested / (double)(jb.tested > 0 ? jb.tested : 1), same, NQ);
    if (info.frame_count >= 50000) {
        char what[96], scale[96], num[32];
        snprintf(what, sizeof what,
                 "motion-matching search, %s-frame database, boxes over frame blocks (CPU time)",
                 akb_thousands(num, sizeof num, info.frame_count));
        snprintf(scale, sizeof scale, "brute force %.0f µs; %d/%d queries the same frame", tb * 1e6,
                 same, NQ);
        akb_result(what, tx * 1e6, 1, "µs", "<=", 20.0, scale);
    }
    free(q);
    ak_motion_db_destroy(db);
}

/* ---- The subject-2 database, the matching frame cost and the side-by-side walks ---- */

typedef struct subject2 {
    ak_skeleton *sk[3];
    ak_clip *clip[3];
    ak_motion_db *db;
} subject2;

static int open_subject2(subject2 *s)
{
    static const char *const names[3] = {"cmu_02_01_walk.bvh", "locomotion/cmu_02_02_walk.bvh",
                                         "locomotion/cmu_02_03_run.bvh"};
    ak_motion_db_clip src[3];
    memset(s, 0, sizeof *s);
    memset(src, 0, sizeof src);
    ak_error err;
    for (int i = 0; i < 3; ++i) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", g_dir, names[i]);
        if (ak_bvh_read_file(path, NULL, &s->sk[i], &s->clip[i], &err) != AK_OK) {
            fprintf(stderr, "%s: %s\n", path, err.message);
            return -1;
        }
        src[i].clip = s->clip[i];
        src[i].name = names[i];
    }
    ak_motion_db_params p = ak_motion_db_defaults();
    if (ak_motion_db_create(s->sk[0], src, 3, &p, &s->db, &err) != AK_OK) {
        fprintf(stderr, "database: %s\n", err.message);
        return -1;
    }
    return 0;
}

static void close_subject2(subject2 *s)
{
    ak_motion_db_destroy(s->db);
    for (int i = 0; i < 3; ++i) {
        ak_clip_destroy(s->clip[i]);
        ak_skeleton_destroy(s->sk[i]);
    }
}

typedef struct crowd {
    ak_matcher **m;
    int n;
    float dt;
    const ak_ground *g;
} crowd;

static void step_crowd(void *arg)
{
    crowd *c = (crowd *)arg;
    for (int i = 0; i < c->n; ++i)
        ak_matcher_step(c->m[i], c->dt, c->g, NULL);
}

/* Characters walking toward far targets (they never arrive) on hills. */
static void bench_frames(const ak_motion_db *db, const ak_ground *g, int n, int foot_ik)
{
    crowd c = {(ak_matcher **)calloc((size_t)n, sizeof(ak_matcher *)), n, 1.0f / 60.0f, g};
    for (int i = 0; i < n; ++i) {
        ak_matcher_params p = ak_matcher_defaults();
        const float a = 6.2831853f * (float)i / (float)n;
        p.start = ak_vec3_make(-15.0f + 30.0f * (float)((i * 37) % 101) / 101.0f, 0,
                               -15.0f + 30.0f * (float)((i * 53) % 103) / 103.0f);
        p.target = ak_vec3_make(p.start.x + 1000.0f * cosf(a), 0, p.start.z + 1000.0f * sinf(a));
        p.foot_ik = foot_ik;
        ak_matcher_create(db, &p, g, &c.m[i], NULL);
    }
    for (int f = 0; f < 30; ++f)
        step_crowd(&c);
    double v[64];
    const int frames = n == 1 ? 600 : 3;
    for (int r = 0; r < 21; ++r) {
        const double t0 = cpu_now();
        for (int f = 0; f < frames; ++f)
            step_crowd(&c);
        v[r] = (cpu_now() - t0) / frames / n;
    }
    const double per = akb_median(v, 21);
    printf("| %5d | %-12s | %7.2f us | %6.0f |\n", n, foot_ik ? "full (IK)" : "no foot IK",
           per * 1e6, 1.0 / (per * 60.0));
    for (int i = 0; i < n; ++i)
        ak_matcher_destroy(c.m[i]);
    free(c.m);
}

/* ---- Side by side: the same walks with the guide walker and with matching ---- */

typedef struct walk_figures {
    ak_walker_state last;
    ak_walk_metrics m;
    int transitions, frames;
    double cpu;
} walk_figures;

static walk_figures walk_guide(const ak_walk_motion *motion, const ak_ground *g, ak_vec3 start,
                               ak_vec3 target)
{
    walk_figures r;
    memset(&r, 0, sizeof r);
    ak_walker_params p = ak_walker_defaults();
    p.start = start;
    p.target = target;
    p.start_heading = 0.0f;
    ak_walker *w = NULL;
    if (ak_walker_create(motion, &p, g, &w, NULL) != AK_OK) return r;
    const float dt = ak_walk_motion_clip(motion)->frame_time;
    const int32_t hips = ak_walk_motion_humanoid(motion)->joint[AK_HUM_HIPS];
    ak_walk_metrics_reset(&r.m);
    for (r.frames = 0; r.frames < (int)(40.0f / dt); ++r.frames) {
        const double t0 = cpu_now();
        ak_walker_step(w, r.frames ? dt : 0.0f, g, NULL);
        r.cpu += cpu_now() - t0;
        ak_walker_get_state(w, &r.last);
        ak_walk_metrics_add(&r.m, &r.last, ak_walker_world_pose(w), hips, r.frames ? dt : 0.0f);
        if (r.last.stopped) break;
    }
    ak_walker_destroy(w);
    return r;
}

static walk_figures walk_match(const ak_motion_db *db, const ak_ground *g, ak_vec3 start,
                               ak_vec3 target)
{
    walk_figures r;
    memset(&r, 0, sizeof r);
    ak_matcher_params p = ak_matcher_defaults();
    p.start = start;
    p.target = target;
    p.start_heading = 0.0f;
    ak_matcher *m = NULL;
    if (ak_matcher_create(db, &p, g, &m, NULL) != AK_OK) return r;
    const float dt = 1.0f / 60.0f;
    const int32_t hips = ak_motion_db_humanoid(db)->joint[AK_HUM_HIPS];
    ak_walk_metrics_reset(&r.m);
    for (r.frames = 0; r.frames < (int)(40.0f / dt); ++r.frames) {
        const double t0 = cpu_now();
        ak_matcher_step(m, r.frames ? dt : 0.0f, g, NULL);
        r.cpu += cpu_now() - t0;
        ak_matcher_get_state(m, &r.last);
        ak_walk_metrics_add(&r.m, &r.last, ak_matcher_world_pose(m), hips, r.frames ? dt : 0.0f);
        if (r.last.stopped && r.last.arrived) break;
    }
    ak_matcher_info mi;
    ak_matcher_get_info(m, &mi);
    r.transitions = mi.transitions;
    ak_matcher_destroy(m);
    return r;
}

static void print_walk(const char *who, const char *ground, int deg, const walk_figures *r)
{
    printf(
        "| %-8s | %-9s | %3d | %s %.2f m | %5.2f s | %.1f mm/s | %.1f / %.1f mm | %.1f | %.2f us "
        "|\n",
        who, ground, deg, r->last.arrived ? "yes," : "NO,", (double)r->last.distance,
        (double)r->last.time, 1e3 * (double)r->m.skate, 1e3 * (double)r->m.max_penetration,
        1e3 * (double)r->m.max_float, r->transitions / (double)r->last.time,
        1e6 * r->cpu / (r->frames + 1));
}

/* Flat, hills (seed 3) and a heightmap of two crossing waves; targets 6 m ahead, to the side
 * and behind the start facing (+Z), as tests/matching/test_matching_walk.c walks them. The
 * guide walker plays CMU 02_01's cycle; matching plays the subject-2 database. */
static void side_by_side(const subject2 *s)
{
    ak_walk_motion *motion = NULL;
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    if (ak_walk_motion_create(s->sk[0], s->clip[0], &mp, &motion, NULL) != AK_OK) return;
    enum { W = 65 };
    static char pgm[32 + W * W];
    const int n = snprintf(pgm, sizeof pgm, "P5\n%d %d\n255\n", W, W);
    for (int r = 0; r < W; ++r)
        for (int c = 0; c < W; ++c)
            pgm[n + r * W + c] = (char)(unsigned char)((0.5 + 0.25 * sin(c * 0.35) +
                                                        0.25 * cos(r * 0.28 + c * 0.1)) *
                                                           255.0 +
                                                       0.5);
    ak_terrain *t[3] = {NULL, NULL, NULL};
    ak_terrain_params tp = ak_terrain_defaults();
    tp.kind = AK_TERRAIN_FLAT;
    ak_terrain_create(&tp, &t[0], NULL);
    tp = ak_terrain_defaults();
    tp.seed = 3;
    ak_terrain_create(&tp, &t[1], NULL);
    ak_terrain_read_pgm_memory(pgm, (size_t)n + W * W, 40.0f, 1.2f, &t[2], NULL);
    const char *names[3] = {"flat", "hills", "heightmap"};
    printf(
        "\n| walker | ground | target (deg) | arrived | time | stance skate | penetration / float "
        "| transitions/s | cost per character-frame |\n|---|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < 3; ++k) {
        const ak_ground g = ak_terrain_ground(t[k]);
        for (int d = 0; d <= 180; d += 90) {
            const float a = (float)d * 3.14159265f / 180.0f;
            const ak_vec3 st = ak_vec3_make(-1.0f, 0.0f, -1.0f);
            const ak_vec3 tg = ak_vec3_make(st.x - 6.0f * sinf(a), 0.0f, st.z + 6.0f * cosf(a));
            const walk_figures rg = walk_guide(motion, &g, st, tg);
            const walk_figures rm = walk_match(s->db, &g, st, tg);
            print_walk("guide", names[k], d, &rg);
            print_walk("matching", names[k], d, &rm);
        }
    }
    for (int k = 0; k < 3; ++k)
        ak_terrain_destroy(t[k]);
    ak_walk_motion_destroy(motion);
}

int main(int argc, char **argv)
{
    if (argc > 1) g_dir = argv[1];
    printf("Search time per query (medians of 15 runs of 256 queries):\n\n");
    printf("| frames | candidates | brute us | boxes us | ratio | frames tested | same frame |\n");
    printf("|---|---|---|---|---|---|---|\n");
    const int sizes[3] = {1000, 10000, 50000};
    for (int i = 0; i < 3; ++i)
        bench_search(sizes[i]);
    subject2 s;
    if (open_subject2(&s) != 0) return 1;
    ak_terrain_params tp = ak_terrain_defaults();
    ak_terrain *t = NULL;
    ak_terrain_create(&tp, &t, NULL);
    const ak_ground g = ak_terrain_ground(t);
    printf("\nThe whole matching frame (springs, search every 0.1 s, inertialization, root "
           "motion, controller, foot IK, FK) on the CMU subject-2 database, hills:\n\n");
    printf("| characters | pipeline | per character-frame | characters at 60 Hz "
           "|\n|---|---|---|---|\n");
    bench_frames(s.db, &g, 1, 1);
    bench_frames(s.db, &g, 1, 0);
    bench_frames(s.db, &g, 1000, 1);
    ak_terrain_destroy(t);
    side_by_side(&s);
    close_subject2(&s);
    return 0;
}
