/* Core benchmark: BVH parse throughput, and clip sample + FK in ns per joint for one
 * character and for 1,000 characters sharing a clip (keys every 1/30 s, playback advancing
 * 1/60 s per call). Prints medians of repeated runs.
 * Usage: bench_core [MOCAP_DIR]   (default: $AK_MOCAP_DIR, else tests/data/mocap) */
#include "bench_rig.h"
#include "harness.h"
#include "animkit/animkit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (joints == 31) { /* the rows of bench/results.md: CMU 02_01's joint count */
        akb_result("clip sample + FK fused, one 31-joint character",
                   sec1 / (20000.0 * joints) * 1e9, 1, "ns per joint", NULL, 0.0,
                   "ozz-animation 0.16: 18 ns");
        akb_result("1,000 characters sharing a clip, 31 joints, linear",
                   secn / (20.0 * big * joints) * 1e9, 2, "ns per joint per character", NULL, 0.0,
                   "ozz-animation 0.16: 20.5 ns");
        akb_result("the same, cubic (SQUAD, control points prepared)",
                   secn_cubic / (20.0 * big * joints) * 1e9, 2, "ns per joint per character", NULL,
                   0.0, NULL);
        akb_result("cubic ÷ linear, 1,000 characters (time)", secn_cubic / secn, 2, "×", "<=", 1.5,
                   "issue 25 goal");
    }
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
