/* Core benchmark: BVH parse throughput, and clip sample + FK in ns per joint for one
 * character and for 1,000 characters sharing a clip (keys every 1/30 s, playback advancing
 * 1/60 s per call): poses, SoA output, cubic and the crowd's compute floor measured in the
 * same run. Prints medians of repeated runs.
 * Usage: bench_core [MOCAP_DIR]   (default: $AK_MOCAP_DIR, else tests/data/mocap)
 *        bench_core --row NAME N  N calls of one crowd path (crowd_aos, crowd_soa,
 *                                 crowd_floor, crowd_cubic), no timing, for callgrind */
#define _POSIX_C_SOURCE 200809L
#include "bench_rig.h"
#include "harness.h"
#include "animkit/animkit.h"
#include "core/simd8.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct play_job {
    const ak_skeleton *s;
    const ak_clip *c;
    int characters;
    int calls;
    float *times;
    ak_xform *world;
    ak_interp interp;
} play_job;

static void run_play(void *arg)
{
    play_job *p = (play_job *)arg;
    for (int call = 0; call < p->calls; ++call) {
        ak_clip_sample_fk_batch(p->c, p->s, p->times, p->characters, p->interp, p->world);
        for (int i = 0; i < p->characters; ++i)
            p->times[i] += 1.0f / 60.0f;
    }
    akb_sink(p->world, sizeof(ak_xform) * (size_t)p->s->joint_count);
}

/* Separate path for one character: sample into a local pose, then FK (the two public calls
 * a user would make), to show what fusing them in the batch path buys. */
typedef struct single_job {
    const ak_skeleton *s;
    const ak_clip *c;
    int calls;
    float t;
    ak_xform *local, *world;
} single_job;

static void run_single(void *arg)
{
    single_job *p = (single_job *)arg;
    for (int call = 0; call < p->calls; ++call) {
        ak_clip_sample(p->c, p->s, p->t, AK_INTERP_LINEAR, p->local);
        ak_fk(p->s, p->local, p->world);
        p->t += 1.0f / 60.0f;
    }
    akb_sink(p->world, sizeof(ak_xform) * (size_t)p->s->joint_count);
}

/* The crowd with the SoA output (ak_clip_sample_fk_batch_soa). */
typedef struct soa_job {
    const ak_skeleton *s;
    const ak_clip *c;
    int characters;
    int calls;
    float *times;
    float *model; /* ceil(characters / 8) blocks of joint_count * AK_BATCH_SOA_JOINT_FLOATS */
} soa_job;

static void run_soa(void *arg)
{
    soa_job *p = (soa_job *)arg;
    for (int call = 0; call < p->calls; ++call) {
        ak_clip_sample_fk_batch_soa(p->c, p->s, p->times, p->characters, AK_INTERP_LINEAR,
                                    p->model);
        for (int i = 0; i < p->characters; ++i)
            p->times[i] += 1.0f / 60.0f;
    }
    akb_sink(p->model, sizeof(float) * AK_BATCH_SOA_JOINT_FLOATS * (size_t)p->s->joint_count);
}

#ifdef AK_HAVE_AVX2_DISPATCH
/* The crowd's compute floor: the maths of the eight-lane linear pass (the library's own
 * soa8_slerp, lerp, soa8_parent_times, written to the SoA output as
 * ak_clip_sample_fk_batch_soa writes it) on keys already laid out for it: eight characters'
 * key pairs in SoA form, made once before timing (one block's, reused by every block, so in L1:
 * no key gathering, no transposes, no cache misses on keys), each block with its own
 * characters' interpolation parameters, the output the same 1,000 characters' SoA poses. */
enum { FLOOR_KEY_FLOATS = 14 * 8 }; /* per joint: r0 xyzw, r1 xyzw, v0 xyz, v1 xyz; 8 lanes */

typedef struct floor_job {
    const ak_skeleton *s;
    const ak_clip *c;
    int blocks;
    int calls;
    float *keys;   /* joint_count * FLOOR_KEY_FLOATS: block 0's characters' keys */
    float *params; /* per block: t, (t - 1/2)^2, t (t - 1/2)(t - 1), eight lanes each */
    float *model;  /* blocks of joint_count * AK_BATCH_SOA_JOINT_FLOATS */
} floor_job;

AK_AVX2 static void floor_block(const floor_job *f, const float *params, float *out)
{
    const int32_t n = f->s->joint_count;
    const int32_t *parents = f->s->parents, *track = f->c->joint_track;
    const ak_xform *rest = f->s->rest_local;
    const __m256 T = _mm256_loadu_ps(params), H = _mm256_loadu_ps(params + 8),
                 G = _mm256_loadu_ps(params + 16);
    for (int32_t j = 0; j < n; ++j) {
        const float *k = f->keys + (size_t)j * FLOOR_KEY_FLOATS;
        const soa8_quat a = {_mm256_loadu_ps(k), _mm256_loadu_ps(k + 8), _mm256_loadu_ps(k + 16),
                             _mm256_loadu_ps(k + 24)};
        const soa8_quat b = {_mm256_loadu_ps(k + 32), _mm256_loadu_ps(k + 40),
                             _mm256_loadu_ps(k + 48), _mm256_loadu_ps(k + 56)};
        const soa8_quat q = soa8_slerp(a, b, T, H, G);
        soa8_xform o = {q.x,
                        q.y,
                        q.z,
                        q.w,
                        _mm256_set1_ps(rest[j].translation.x),
                        _mm256_set1_ps(rest[j].translation.y),
                        _mm256_set1_ps(rest[j].translation.z)};
        if (track[j] >= 0) {
            const __m256 x0 = _mm256_loadu_ps(k + 64), y0 = _mm256_loadu_ps(k + 72),
                         z0 = _mm256_loadu_ps(k + 80);
            o.tx = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_loadu_ps(k + 88), x0), T, x0);
            o.ty = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_loadu_ps(k + 96), y0), T, y0);
            o.tz = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_loadu_ps(k + 104), z0), T, z0);
        }
        soa8_fk_soa(out, j, parents[j], o);
    }
}

static void run_floor(void *arg)
{
    floor_job *f = (floor_job *)arg;
    const size_t block = (size_t)f->s->joint_count * AK_BATCH_SOA_JOINT_FLOATS;
    for (int call = 0; call < f->calls; ++call)
        for (int b = 0; b < f->blocks; ++b)
            floor_block(f, f->params + (size_t)b * 24, f->model + (size_t)b * block);
    akb_sink(f->model, sizeof(float) * block);
}

/* Where t falls in the looping clip, as the library's sampling finds it (frames f0, f1 and
 * the fraction; the same snapping to keys). */
static float floor_alpha(const ak_clip *c, float t, int32_t *f0, int32_t *f1)
{
    const int32_t n = c->frame_count;
    float w = fmodf(t, (float)n * c->frame_time);
    if (w < 0.0f) w += (float)n * c->frame_time;
    float u = w / c->frame_time;
    const float nearest = floorf(u + 0.5f);
    if (fabsf(u - nearest) < 1e-4f) u = nearest;
    if (u >= (float)n) u = 0.0f;
    *f0 = (int32_t)u < n ? (int32_t)u : n - 1;
    *f1 = (*f0 + 1) % n;
    float a = u - (float)*f0;
    return a < 0.0f ? 0.0f : (a >= 1.0f ? 0.99999994f : a);
}

/* Lays out block 0's keys and every block's parameters at `times` (untimed). */
static void floor_setup(floor_job *f, const float *times, int characters)
{
    const int32_t n = f->c->joint_count, m = f->c->track_count;
    for (int b = 0; b < f->blocks; ++b)
        for (int l = 0; l < 8; ++l) {
            const int i = 8 * b + l < characters ? 8 * b + l : characters - 1;
            int32_t f0, f1;
            const float t = floor_alpha(f->c, times[i], &f0, &f1);
            float *p = f->params + (size_t)b * 24;
            p[l] = t, p[8 + l] = (t - 0.5f) * (t - 0.5f), p[16 + l] = t * (t - 0.5f) * (t - 1.0f);
            if (b > 0) continue;
            for (int32_t j = 0; j < n; ++j) {
                float *k = f->keys + (size_t)j * FLOOR_KEY_FLOATS;
                const ak_quat a = f->c->rotations[(size_t)f0 * (size_t)n + (size_t)j];
                const ak_quat e = f->c->rotations[(size_t)f1 * (size_t)n + (size_t)j];
                const float q[8] = {a.x, a.y, a.z, a.w, e.x, e.y, e.z, e.w};
                for (int c = 0; c < 8; ++c)
                    k[8 * c + l] = q[c];
                const int32_t tk = f->c->joint_track[j];
                if (tk < 0) continue;
                const ak_vec3 u = f->c->translations[(size_t)f0 * (size_t)m + (size_t)tk];
                const ak_vec3 v = f->c->translations[(size_t)f1 * (size_t)m + (size_t)tk];
                const float x[6] = {u.x, u.y, u.z, v.x, v.y, v.z};
                for (int c = 0; c < 6; ++c)
                    k[64 + 8 * c + l] = x[c];
            }
        }
}
#endif

/* The 1,000-character crowd's four paths on one clip (cubic control points prepared): AoS
 * poses, SoA output, the compute floor, cubic. */
typedef struct crowd_jobs {
    play_job linear, cubic;
    soa_job soa;
#ifdef AK_HAVE_AVX2_DISPATCH
    floor_job floor;
#endif
    int have_floor; /* the CPU runs the eight-lane maths (the floor is made of them) */
} crowd_jobs;

static void crowd_jobs_make(crowd_jobs *j, const ak_skeleton *s, const ak_clip *c, int big)
{
    const int joints = s->joint_count, blocks = (big + 7) / 8;
    const size_t block = (size_t)joints * AK_BATCH_SOA_JOINT_FLOATS;
    memset(j, 0, sizeof *j);
    play_job p = {s,
                  c,
                  big,
                  20,
                  malloc(sizeof(float) * (size_t)big),
                  malloc(sizeof(ak_xform) * (size_t)joints * (size_t)big),
                  AK_INTERP_LINEAR};
    for (int i = 0; i < big; ++i)
        p.times[i] = 0.0137f * (float)i;
    j->linear = j->cubic = p;
    j->cubic.interp = AK_INTERP_CUBIC;
    soa_job q = {s,
                 c,
                 big,
                 20,
                 malloc(sizeof(float) * (size_t)big),
                 malloc(sizeof(float) * block * (size_t)blocks)};
    memcpy(q.times, p.times, sizeof(float) * (size_t)big);
    j->soa = q;
#ifdef AK_HAVE_AVX2_DISPATCH
    floor_job f = {s,
                   c,
                   blocks,
                   20,
                   calloc((size_t)joints * FLOOR_KEY_FLOATS, sizeof(float)),
                   malloc(sizeof(float) * 24 * (size_t)blocks),
                   malloc(sizeof(float) * block * (size_t)blocks)};
    floor_setup(&f, p.times, big);
    j->floor = f;
    j->have_floor = aks8_cpu_ok();
    if (j->have_floor) { /* the floor is the same maths: block 0 gives the SoA output's bits */
        run_floor(&j->floor);
        ak_clip_sample_fk_batch_soa(c, s, p.times, big, AK_INTERP_LINEAR, q.model);
        if (memcmp(f.model, q.model, sizeof(float) * block) != 0)
            printf("crowd floor: block 0 differs from ak_clip_sample_fk_batch_soa's\n");
    }
#endif
}

static void crowd_jobs_free(crowd_jobs *j)
{
#ifdef AK_HAVE_AVX2_DISPATCH
    free(j->floor.keys);
    free(j->floor.params);
    free(j->floor.model);
#endif
    free(j->linear.times);
    free(j->linear.world);
    free(j->soa.times);
    free(j->soa.model);
}

/* One call (20 frames of the crowd) of path k: 0 AoS, 1 SoA, 2 floor, 3 cubic. */
static void crowd_run(crowd_jobs *j, int k)
{
    if (k == 0) run_play(&j->linear);
    if (k == 1) run_soa(&j->soa);
#ifdef AK_HAVE_AVX2_DISPATCH
    if (k == 2 && j->have_floor) run_floor(&j->floor);
#endif
    if (k == 3) run_play(&j->cubic);
}

/* Medians over interleaved rounds (each round runs the four paths in turn, CPU time) of the
 * 1,000-character crowd; prints the rows of bench/results.md. At 31 joints (CMU 02_01's count)
 * every row; at 60 joints the cubic row alone (issue 25: cubic within 1.5x of linear for
 * crowds, and a 60-joint rig is two of the cubic pass's 32-joint runs). */
static void bench_crowd_rows(const ak_skeleton *s, const ak_clip *c)
{
    enum { ROUNDS = 21, BIG = 1000 };
    const int all = s->joint_count == 31;
    crowd_jobs j;
    crowd_jobs_make(&j, s, c, BIG);
    double t[4][ROUNDS], r[3][ROUNDS];
    for (int k = 0; k < ROUNDS; ++k) {
        for (int path = 0; path < 4; ++path) {
            if (!all && (path == 1 || path == 2)) continue;
            const double t0 = akb_cpu_now();
            crowd_run(&j, path);
            t[path][k] = akb_cpu_now() - t0;
        }
        if (all) r[0][k] = t[0][k] / t[2][k], r[1][k] = t[1][k] / t[2][k];
        r[2][k] = t[3][k] / t[0][k];
    }
    const double per = 1e9 / (20.0 * BIG * s->joint_count);
    if (!all) {
        akb_result("cubic ÷ linear, 1,000 characters, 60 joints (time)", akb_median(r[2], ROUNDS),
                   2, "×", "<=", 1.5, "issue 25 goal");
        crowd_jobs_free(&j);
        return;
    }
    akb_result("1,000 characters sharing a clip, 31 joints, linear", akb_median(t[0], ROUNDS) * per,
               2, "ns per joint per character", NULL, 0.0, "ozz-animation 0.16: 20.5 ns");
    akb_result("the same, SoA output (ak_clip_sample_fk_batch_soa)", akb_median(t[1], ROUNDS) * per,
               2, "ns per joint per character", NULL, 0.0, NULL);
    if (j.have_floor) {
        akb_result("the crowd's compute floor: the same maths on keys already laid out (SoA, "
                   "in cache), SoA output",
                   akb_median(t[2], ROUNDS) * per, 2, "ns per joint per character", NULL, 0.0,
                   "measured in the same run, interleaved");
        akb_result("crowd ÷ floor, 1,000 characters, linear, poses (time)",
                   akb_median(r[0], ROUNDS), 2, "×", "<=", 1.6, "issue 25 goal");
        akb_result("crowd ÷ floor, 1,000 characters, linear, SoA output (time)",
                   akb_median(r[1], ROUNDS), 2, "×", "<=", 1.6, "issue 25 goal");
    }
    akb_result("the same, cubic (SQUAD, control points prepared)", akb_median(t[3], ROUNDS) * per,
               2, "ns per joint per character", NULL, 0.0, NULL);
    akb_result("cubic ÷ linear, 1,000 characters (time)", akb_median(r[2], ROUNDS), 2, "×",
               "<=", 1.5, "issue 25 goal");
    crowd_jobs_free(&j);
}

/* One character, fused sample + FK (ak_clip_sample_fk_batch of 1), cubic ÷ linear: medians
 * over interleaved rounds of CPU time (issue 25: cubic within 1.5x of linear for one
 * character). The clip's control points are prepared. */
static void bench_one_cubic_row(const ak_skeleton *s, const ak_clip *c)
{
    enum { ROUNDS = 21 };
    const int joints = s->joint_count;
    play_job p[2];
    for (int k = 0; k < 2; ++k) {
        play_job q = {s,
                      c,
                      1,
                      20000,
                      calloc(1, sizeof(float)),
                      malloc(sizeof(ak_xform) * (size_t)joints),
                      k ? AK_INTERP_CUBIC : AK_INTERP_LINEAR};
        p[k] = q;
    }
    double r[ROUNDS];
    for (int round = 0; round < ROUNDS; ++round) {
        double t[2];
        for (int k = 0; k < 2; ++k) {
            const double t0 = akb_cpu_now();
            run_play(&p[k]);
            t[k] = akb_cpu_now() - t0;
        }
        r[round] = t[1] / t[0];
    }
    char what[96];
    snprintf(what, sizeof what, "cubic ÷ linear, sample + FK fused, one %d-joint character (time)",
             joints);
    akb_result(what, akb_median(r, ROUNDS), 2, "×", "<=", 1.5, "issue 25 goal");
    for (int k = 0; k < 2; ++k) {
        free(p[k].times);
        free(p[k].world);
    }
}

/* --row NAME N: N calls of one crowd path, no timing (callgrind: N minus 0 calls). */
static int crowd_row(const char *name, int n)
{
    static const char *const names[4] = {"crowd_aos", "crowd_soa", "crowd_floor", "crowd_cubic"};
    int k = 0;
    while (k < 4 && strcmp(name, names[k]) != 0)
        ++k;
    if (k == 4) {
        fprintf(stderr, "no row %s\n", name);
        return 2;
    }
    ak_skeleton *s = akb_rig_skeleton(31, 7u + 31u);
    ak_clip *c = akb_rig_clip(31, 300, 1);
    ak_clip_prepare_cubic(c);
    crowd_jobs j;
    crowd_jobs_make(&j, s, c, 1000);
    for (int i = 0; i < n; ++i)
        crowd_run(&j, k);
    crowd_jobs_free(&j);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
    return 0;
}

static void bench_playback(int joints)
{
    ak_skeleton *s = akb_rig_skeleton(joints, 7u + (unsigned)joints);
    ak_clip *c = akb_rig_clip(joints, 300, 1);
    const int big = 1000;
    play_job p = {s,
                  c,
                  1,
                  20000,
                  calloc(big, sizeof(float)),
                  malloc(sizeof(ak_xform) * (size_t)joints * big),
                  AK_INTERP_LINEAR};
    single_job sj = {s,
                     c,
                     20000,
                     0.0f,
                     malloc(sizeof(ak_xform) * (size_t)joints),
                     malloc(sizeof(ak_xform) * (size_t)joints)};
    double sec1s = akb_median_seconds(run_single, &sj, 21);
    double sec1 = akb_median_seconds(run_play, &p, 21);
    for (int i = 0; i < big; ++i)
        p.times[i] = 0.0137f * (float)i;
    p.characters = big;
    p.calls = 20;
    double secn = akb_median_seconds(run_play, &p, 21);
    ak_clip_prepare_cubic(c);
    p.interp = AK_INTERP_CUBIC;
    double secn_cubic = akb_median_seconds(run_play, &p, 11);
    printf("| %d joints | %.2f | %.2f | %.2f | %.2f |\n", joints, sec1s / (20000.0 * joints) * 1e9,
           sec1 / (20000.0 * joints) * 1e9, secn / (20.0 * big * joints) * 1e9,
           secn_cubic / (20.0 * big * joints) * 1e9);
    if (joints == 31) /* the rows of bench/results.md: CMU 02_01's joint count */
        akb_result("clip sample + FK fused, one 31-joint character",
                   sec1 / (20000.0 * joints) * 1e9, 1, "ns per joint", NULL, 0.0,
                   "ozz-animation 0.16: 18 ns");
    bench_one_cubic_row(s, c);
    bench_crowd_rows(s, c);
    free(p.times);
    free(p.world);
    free(sj.local);
    free(sj.world);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

typedef struct parse_job {
    char *text;
    size_t size;
    int ok;
} parse_job;
static void run_parse(void *arg)
{
    parse_job *p = (parse_job *)arg;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    p->ok = ak_bvh_read_memory(p->text, p->size, NULL, &s, &c, &err) == AK_OK;
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

static void bench_parse(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/arena_louise_stand_walk_cycle.bvh", dir);
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("parse: %s not found, skipped\n", path);
        return;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    parse_job p = {malloc((size_t)size), (size_t)size, 0};
    if (fread(p.text, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(p.text);
        return;
    }
    fclose(f);
    double sec = akb_median_seconds(run_parse, &p, 15);
    if (!p.ok)
        printf("parse: the reader failed on the file\n");
    else {
        printf("BVH parse (arena_louise, %.2f MB, in memory): median %.2f ms, %.0f MB/s\n",
               (double)size / 1e6, sec * 1e3, (double)size / 1e6 / sec);
        akb_result("BVH parse, 2.26 MB Arena file, in memory", (double)size / 1e6 / sec, 0, "MB/s",
                   ">=", 150.0, NULL);
    }
    free(p.text);
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--row") == 0) return crowd_row(argv[2], atoi(argv[3]));
    const char *env = getenv("AK_MOCAP_DIR");
    const char *dir = argc > 1 ? argv[1] : (env && *env ? env : "tests/data/mocap");
    bench_parse(dir);
    printf("\nClip sample + FK, ns per joint (median of 21 runs; keys at 30 Hz, +1/60 s per "
           "call)\n\n");
    printf("| skeleton | 1 char, sample then FK | 1 char, fused | 1,000 chars, fused | 1,000 "
           "chars, cubic |\n");
    printf("|---|---|---|---|---|\n");
    bench_playback(31);
    bench_playback(60);
    return 0;
}
