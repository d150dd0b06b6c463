/* Locomotion benchmark: characters per second for the whole per-frame pipeline
 * (sample, root motion, controller, foot IK, FK) — 1 and 1,000 characters — on the built-in
 * clip and a CMU mocap skeleton, with a breakdown; and one character walking to targets 8 m
 * away, so starts, stop planning and stops are in the cost. The soak run (`--soak SECONDS`):
 * one character walking between random targets on seeded hills, checking bone lengths,
 * quaternion norms, foot errors and memory. Fixed work for instruction counts
 * (`--frames N [--characters C] [--no-foot-ik] [--stops] [FILE.bvh]`): N frames, no timing,
 * for valgrind --tool=callgrind or perf stat (tools/bench_compare.sh subtracts a 0-frame run). */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "animkit/animkit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct source {
    ak_skeleton *sk;
    ak_clip *clip;
    ak_walk_motion *motion;
    uint8_t *stance;
    const char *name;
} source;

static int open_source(source *s, const char *bvh)
{
    memset(s, 0, sizeof *s);
    ak_error err;
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    if (!bvh) {
        ak_walk_clip_params wp = ak_walk_clip_defaults();
        if (ak_walk_clip_create(&wp, &s->sk, &s->clip, &err) != AK_OK) return -1;
        s->stance = malloc((size_t)s->clip->frame_count * 2);
        ak_walk_clip_contacts(&wp, s->clip, s->stance, s->stance + s->clip->frame_count, NULL);
        mp.metres_per_unit = 1.0f;
        mp.cycle_start = mp.cycle_end = 0;
        mp.stance_left = s->stance;
        mp.stance_right = s->stance + s->clip->frame_count;
        s->name = "built-in biped";
    } else {
        if (ak_bvh_read_file(bvh, NULL, &s->sk, &s->clip, &err) != AK_OK) {
            fprintf(stderr, "%s: %s\n", bvh, err.message);
            return -1;
        }
        s->name = bvh;
    }
    if (ak_walk_motion_create(s->sk, s->clip, &mp, &s->motion, &err) != AK_OK) {
        fprintf(stderr, "motion: %s\n", err.message);
        return -1;
    }
    return 0;
}

static void close_source(source *s)
{
    ak_walk_motion_destroy(s->motion);
    ak_clip_destroy(s->clip);
    ak_skeleton_destroy(s->sk);
    free(s->stance);
}

typedef struct crowd {
    ak_walker **w;
    int n;
    float dt;
    const ak_ground *ground;
    int foot_ik;
    float target_distance; /* > 0: a new target this far away whenever a character stops */
    uint64_t rng;
} crowd;

/* n characters spread over 30 x 30 m, each walking to a target target_distance away (1 km:
 * they never arrive) in its own direction. */
static void crowd_create(crowd *c, const source *s, const ak_ground *g, int n, int foot_ik,
                         float target_distance)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->dt = ak_walk_motion_clip(s->motion)->frame_time;
    c->ground = g;
    c->foot_ik = foot_ik;
    c->target_distance = target_distance < 1000.0f ? target_distance : 0.0f;
    c->rng = 0x9E3779B97F4A7C15ull;
    c->w = calloc((size_t)n, sizeof *c->w);
    for (int i = 0; i < n; ++i) {
        ak_walker_params wp = ak_walker_defaults();
        const float a = 6.2831853f * (float)i / (float)n;
        wp.start = ak_vec3_make(-15.0f + 30.0f * (float)((i * 37) % 101) / 101.0f, 0,
                                -15.0f + 30.0f * (float)((i * 53) % 103) / 103.0f);
        wp.target = ak_vec3_make(wp.start.x + target_distance * cosf(a), 0,
                                 wp.start.z + target_distance * sinf(a));
        wp.foot_ik = foot_ik;
        ak_walker_create(s->motion, &wp, g, &c->w[i], NULL);
    }
}

static void crowd_destroy(crowd *c)
{
    for (int i = 0; i < c->n; ++i)
        ak_walker_destroy(c->w[i]);
    free(c->w);
}

/* A stopped character turns to a new target target_distance away (seeded directions). */
static void retarget(crowd *c, ak_walker *w)
{
    ak_walker_state st;
    ak_walker_get_state(w, &st);
    if (!st.stopped) return;
    c->rng = c->rng * 6364136223846793005ull + 1442695040888963407ull;
    const float a = 6.2831853f * (float)((c->rng >> 33) % 10000) / 10000.0f;
    ak_walker_set_target(w, ak_vec3_make(st.position.x + c->target_distance * cosf(a), 0,
                                         st.position.z + c->target_distance * sinf(a)));
}

static void step_crowd(void *arg)
{
    crowd *c = (crowd *)arg;
    for (int i = 0; i < c->n; ++i) {
        ak_walker_step(c->w[i], c->dt, c->ground, NULL);
        if (c->target_distance > 0.0f) retarget(c, c->w[i]);
    }
}

/* Frames stepped before anything is timed or counted: 1 s, past the start from standing (the
 * 0.5 s playback ramp and the 0.3 s fade out of the stand pose), so the rows measure walking;
 * starts and stops are in the "between stops" row. */
#define WARM_UP_FRAMES 60

/* Median seconds per frame of the crowd: one character timed 200 frames per sample (31
 * samples) for resolution, a crowd one frame per sample (21). Seconds this thread ran
 * (akb_cpu_now, as bench_core's crowd rows): a sample that waited for a core is not longer for
 * it (in wall-clock time, tools/bench_compare.sh's runs of the same library, minutes after the
 * main table's, printed 25-128 % above it on a shared machine). */
static double crowd_seconds(crowd *c)
{
    for (int f = 0; f < WARM_UP_FRAMES; ++f)
        step_crowd(c);
    const int n = c->n > 1 ? 21 : 31, frames = c->n > 1 ? 1 : 200;
    double v[31];
    for (int r = 0; r < n; ++r) {
        const double t0 = akb_cpu_now();
        for (int f = 0; f < frames; ++f)
            step_crowd(c);
        v[r] = (akb_cpu_now() - t0) / (double)frames;
    }
    return akb_median(v, n);
}

static void print_cost(int n, const char *what, double per)
{
    printf("  %5d character%s, %-12s %8.3f us per character-frame, %10.0f "
           "character-frames/s, %6.0f characters at 60 Hz on one core\n",
           n, n == 1 ? " " : "s", what, per * 1e6, 1.0 / per, 1.0 / (per * 60.0));
}

typedef struct sample_job {
    const ak_walk_motion *m;
    ak_xform *local, *world;
    float t;
    int n;
} sample_job;

/* The baseline: sample + in-place + FK, what any player does per character. */
static void sample_fk(void *arg)
{
    sample_job *j = (sample_job *)arg;
    const ak_skeleton *sk = ak_walk_motion_skeleton(j->m);
    const ak_clip *c = ak_walk_motion_clip(j->m);
    for (int i = 0; i < j->n; ++i) {
        j->t += 0.0167f;
        ak_clip_sample(c, sk, j->t, AK_INTERP_LINEAR, j->local);
        ak_root_motion_make_in_place(ak_walk_motion_root(j->m), j->t, j->local);
        ak_fk(sk, j->local, j->world);
    }
    akb_sink(j->world, sizeof(ak_xform));
}

static void bench_source(source *s, const ak_ground *g)
{
    const int counts[2] = {1, 1000};
    const int J = ak_walk_motion_skeleton(s->motion)->joint_count;
    printf("%s (%d joints):\n", s->name, J);
    for (int k = 0; k < 2; ++k) {
        for (int ik = 1; ik >= 0; --ik) {
            crowd c;
            crowd_create(&c, s, g, counts[k], ik, 1000.0f);
            const double per = crowd_seconds(&c) / c.n;
            print_cost(c.n, ik ? "full (IK)" : "no foot IK", per);
            if (ik) {
                char what[160];
                snprintf(what, sizeof what,
                         "whole walker frame (sample, root motion, controller, foot IK, FK), %s, "
                         "%d joints, %s",
                         strrchr(s->name, '/') ? strrchr(s->name, '/') + 1 : s->name, J,
                         c.n == 1 ? "one character" : "1,000 characters");
                akb_result(what, per * 1e6, 2, "µs per character-frame", "<=", 1.66,
                           "10,000 characters at 60 Hz on one core");
            }
            crowd_destroy(&c);
        }
    }
    crowd c;
    crowd_create(&c, s, g, 1, 1, 8.0f);
    print_cost(1, "full (IK), walking 8 m between stops", crowd_seconds(&c));
    crowd_destroy(&c);
    sample_job j;
    j.m = s->motion;
    j.local = malloc(sizeof(ak_xform) * (size_t)J * 2);
    j.world = j.local + J;
    j.t = 0.0f;
    j.n = 1000;
    const double sec = akb_median_seconds(sample_fk, &j, 21) / 1000.0;
    printf("  baseline sample + in-place + FK only:      %8.3f us per character-frame\n",
           sec * 1e6);
    free(j.local);
}

#ifndef AKB_COMPARE /* tools/bench_compare.sh builds this file against an older library too,       \
                     * whose walk metrics had other field names; the soak does not run there */
/* Resident memory not backed by a file (heap, stack: what a leak grows), KiB. The program's
 * own code pages count in the whole resident set when first run, so a branch first taken late
 * in the soak looked like growth (64 KiB, one read-ahead). */
static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    long pages = 0, rss = 0, shared = 0;
    int ok = fscanf(f, "%ld %ld %ld", &pages, &rss, &shared) == 3;
    fclose(f);
    return ok ? (rss - shared) * 4 : -1;
}

static int soak(double seconds, unsigned seed)
{
    source s;
    if (open_source(&s, NULL) != 0) return 1;
    ak_terrain_params tp = ak_terrain_defaults();
    tp.seed = seed;
    ak_terrain *t = NULL;
    ak_terrain_create(&tp, &t, NULL);
    ak_ground g = ak_terrain_ground(t);
    /* Touch the whole heightfield once, so pages first read later do not look like growth. */
    double touch = 0.0;
    for (float z = -20.0f; z <= 20.0f; z += 0.1f)
        for (float x = -20.0f; x <= 20.0f; x += 0.1f) {
            ak_ground_hit h;
            ak_terrain_sample(t, x, z, &h);
            touch += h.height;
        }
    akb_sink(&touch, sizeof touch);
    uint64_t rng = 0x9E3779B97F4A7C15ull ^ seed;
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(0, 0, 0);
    wp.target = ak_vec3_make(5, 0, 5);
    ak_walker *w = NULL;
    ak_error err;
    if (ak_walker_create(s.motion, &wp, &g, &w, &err) != AK_OK) {
        fprintf(stderr, "walker: %s\n", err.message);
        return 1;
    }
    const ak_skeleton *sk = ak_walk_motion_skeleton(s.motion);
    const int32_t J = sk->joint_count;
    const int32_t hips = ak_walk_motion_humanoid(s.motion)->joint[AK_HUM_HIPS];
    const float dt = ak_walk_motion_clip(s.motion)->frame_time;
    const long frames = (long)(seconds / dt);
    ak_walk_metrics m;
    ak_walk_metrics_reset(&m);
    double worst_bone = 0.0, worst_quat = 0.0;
    long targets = 0, rss0 = -1, rss1 = -1;
    /* Every target is reached: frames from one stop to the next, and stops outside the
     * arrival radius (a target near a standing character and off its facing). */
    long since_stop = 0, longest = 0, outside = 0;
    float worst_outside = 0.0f;
    double t0 = akb_now();
    for (long f = 0; f < frames; ++f) {
        if (ak_walker_step(w, dt, &g, &err) != AK_OK) {
            fprintf(stderr, "step %ld: %s\n", f, err.message);
            return 1;
        }
        ak_walker_state st;
        ak_walker_get_state(w, &st);
        const ak_xform *world = ak_walker_world_pose(w);
        const ak_xform *local = ak_walker_local_pose(w);
        if (!st.arrived && st.idle_weight == 0.0f) {
            const float pf = m.max_float;
            ak_walk_metrics_add(&m, &st, world, hips, dt);
            if (getenv("AK_SOAK_DEBUG") && m.max_float > pf + 0.005f)
                printf("  t=%.2f float %.3f at (%.2f,%.2f) sole L (%.2f,%.2f,%.2f) g %.3f st %d R "
                       "(%.2f,%.2f,%.2f) g %.3f st %d drop %.3f\n",
                       (double)st.time, (double)m.max_float, (double)st.position.x,
                       (double)st.position.z, (double)st.sole[0].x, (double)st.sole[0].y,
                       (double)st.sole[0].z, (double)st.sole_ground[0], st.stance[0],
                       (double)st.sole[1].x, (double)st.sole[1].y, (double)st.sole[1].z,
                       (double)st.sole_ground[1], st.stance[1], (double)st.hip_drop);
        } else
            m.has_prev = 0; /* measure walking only; restart the skate pairs after a stop */
        for (int32_t j = 1; j < J; ++j) {
            const ak_vec3 d = ak_vec3_sub(world[j].translation, world[sk->parents[j]].translation);
            const double e = fabs((double)ak_vec3_length(d) - (double)sk->bone_lengths[j]);
            if (e > worst_bone) worst_bone = e;
        }
        for (int32_t j = 0; j < J; ++j) {
            const double e =
                fabs(sqrt((double)ak_quat_dot(local[j].rotation, local[j].rotation)) - 1.0);
            if (e > worst_quat) worst_quat = e;
        }
        ++since_stop;
        if (since_stop > longest) longest = since_stop;
        if (st.stopped) {
            since_stop = 0;
            if (st.distance > wp.arrival_radius) {
                ++outside;
                if (st.distance > worst_outside) worst_outside = st.distance;
            }
            /* a new random target on the terrain */
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            const float x = -16.0f + 32.0f * (float)((rng >> 33) % 10000) / 10000.0f;
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            const float z = -16.0f + 32.0f * (float)((rng >> 33) % 10000) / 10000.0f;
            ak_walker_set_target(w, ak_vec3_make(x, 0, z));
            ++targets;
        }
        if (f == frames / 10) rss0 = rss_kib();
        if (getenv("AK_SOAK_DEBUG") && f % 600 == 0)
            printf("  t=%.0f pos (%.2f, %.2f) target dist %.2f arrived %d idle %.2f heading %.2f "
                   "guide %.2f\n",
                   (double)st.time, (double)st.position.x, (double)st.position.z,
                   (double)st.distance, st.arrived, (double)st.idle_weight, (double)st.heading,
                   (double)st.guide_heading);
    }
    rss1 = rss_kib();
    const double wall = akb_now() - t0;
    printf("soak: %.0f s simulated (%ld frames at %.0f Hz) in %.1f s wall, %ld targets reached\n",
           seconds, frames, 1.0 / dt, wall, targets);
    printf("soak: bone length error max %.3g m (goal 1e-5), quaternion norm error max %.3g (goal "
           "1e-6)\n",
           worst_bone, worst_quat);
    printf("soak: stance penetration %.4f m, float %.4f m (goal < 0.01), skate %.4f m/s (goal < "
           "0.03), tilt %.2f deg (goal < 5)\n",
           (double)m.max_penetration, (double)m.max_float, (double)m.skate,
           (double)m.max_tilt * 57.29578); /* radians, shown in degrees */
    printf("soak: resident anonymous memory %ld KiB after 10%%, %ld KiB at the end\n", rss0, rss1);
    /* Targets lie in a 32 m square: at most its 45.3 m diagonal away. At the built-in walk's
     * 1.2 m/s along a path twice that long, plus the start and the stop: under 90 s. */
    const double longest_s = (double)longest * (double)dt;
    printf("soak: longest stretch between stops %.1f s (goal < 90), %ld stops outside the arrival "
           "radius (worst %.2f m)\n",
           longest_s, outside, (double)worst_outside);
    const int ok = longest_s < 90.0 && worst_bone < 1e-5 && worst_quat < 1e-6 &&
                   m.max_penetration < 0.01f && m.max_float < 0.01f && m.skate < 0.03f &&
                   m.max_tilt < 5.0f * 3.14159265f / 180.0f && (rss0 < 0 || rss1 <= rss0 + 16);
    printf("soak: %s\n", ok ? "PASS" : "FAIL");
    ak_walker_destroy(w);
    ak_terrain_destroy(t);
    close_source(&s);
    return ok ? 0 : 1;
}
#endif

/* --frames N [--characters C] [--no-foot-ik] [--stops] [FILE.bvh]: the benchmark's work for N
 * frames (after the warm-up) without timing (the built-in clip unless a file is given), then a
 * checksum of the poses so nothing is optimised away. */
static int fixed_work(int argc, char **argv, const ak_ground *g)
{
    int frames = 0, n = 1, ik = 1;
    float distance = 1000.0f;
    const char *bvh = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--characters") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--no-foot-ik") == 0)
            ik = 0;
        else if (strcmp(argv[i], "--stops") == 0)
            distance = 8.0f;
        else
            bvh = argv[i];
    }
    if (frames < 0 || n < 1) {
        fprintf(stderr, "--frames N (>= 0), --characters C (>= 1)\n");
        return 2;
    }
    source s;
    if (open_source(&s, bvh) != 0) return 1;
    crowd c;
    crowd_create(&c, &s, g, n, ik, distance);
    for (int f = 0; f < WARM_UP_FRAMES + frames; ++f)
        step_crowd(&c);
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
        const ak_xform *x = ak_walker_world_pose(c.w[i]);
        sum += (double)x[0].translation.x + (double)x[0].translation.y;
    }
    printf("%d frames x %d character%s: checksum %.6f\n", frames, n, n == 1 ? "" : "s", sum);
    crowd_destroy(&c);
    close_source(&s);
    return 0;
}

int main(int argc, char **argv)
{
#ifndef AKB_COMPARE
    if (argc >= 3 && strcmp(argv[1], "--soak") == 0) {
        const double secs = atof(argv[2]);
        const unsigned seed = argc >= 4 ? (unsigned)atoi(argv[3]) : 1u;
        return soak(secs > 0 ? secs : 3600.0, seed);
    }
#endif
    ak_terrain_params tp = ak_terrain_defaults();
    tp.size = 200.0f;
    tp.cell = 0.5f;
    ak_terrain *t = NULL;
    ak_terrain_create(&tp, &t, NULL);
    ak_ground g = ak_terrain_ground(t);
    if (argc >= 2 && strcmp(argv[1], "--frames") == 0) {
        const int rc = fixed_work(argc, argv, &g);
        ak_terrain_destroy(t);
        return rc;
    }
    source s;
    if (open_source(&s, NULL) == 0) bench_source(&s, &g);
    close_source(&s);
    char path[1024];
    const char *dir = getenv("AK_MOCAP_DIR");
    snprintf(path, sizeof path, "%s/cmu_02_01_walk.bvh", dir ? dir : "tests/data/mocap");
    if (argc >= 2) snprintf(path, sizeof path, "%s", argv[1]);
    if (open_source(&s, path) == 0)
        bench_source(&s, &g);
    else
        printf("(mocap skeleton skipped: %s not readable; pass a BVH path or set AK_MOCAP_DIR)\n",
               path);
    close_source(&s);
    ak_terrain_destroy(t);
    return 0;
}
