/* The native side of the WebAssembly comparison (docs/web.md, bench/web/run.mjs): BVH parse
 * MB/s and clip sample + FK ns per joint on each shared mocap clip, with the same kernel the
 * browser runs inside the .wasm (akw_bench_sample_fk in web/api.c: linear sampling, +1/60 s
 * per call, wrapping). Prints one JSON line per clip.
 * Usage: bench_web [FILE.bvh ...]   (default: every .bvh in $AK_MOCAP_DIR) */
#include "harness.h"
#include "animkit/animkit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parse_job {
    const char *text;
    size_t size;
    int ok;
} parse_job;

static void parse_once(void *arg)
{
    parse_job *p = arg;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    p->ok = ak_bvh_read_memory(p->text, p->size, NULL, &s, &c, NULL) == AK_OK;
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

typedef struct play_job {
    const ak_clip *clip;
    const ak_skeleton *sk;
    int calls;
    ak_xform *local, *world;
} play_job;

/* The kernel of web/api.c's akw_bench_sample_fk. */
static void play(void *arg)
{
    play_job *p = arg;
    const float duration = ak_clip_duration(p->clip);
    float t = 0.0f;
    for (int i = 0; i < p->calls; ++i) {
        ak_clip_sample(p->clip, p->sk, t, AK_INTERP_LINEAR, p->local);
        ak_fk(p->sk, p->local, p->world);
        t += 1.0f / 60.0f;
        if (t >= duration) t -= duration;
    }
    akb_sink(p->world, sizeof(ak_xform));
}

static void bench_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n);
    size_t got = text ? fread(text, 1, (size_t)n, f) : 0;
    fclose(f);
    parse_job pj = {text, got, 0};
    double parse_s = akb_median_seconds(parse_once, &pj, 9);
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    if (!pj.ok || ak_bvh_read_memory(text, got, NULL, &sk, &clip, NULL) != AK_OK) {
        printf("{\"file\":\"%s\",\"error\":\"parse failed\"}\n", path);
        free(text);
        return;
    }
    play_job p = {clip, sk, 20000, malloc(sizeof(ak_xform) * (size_t)sk->joint_count),
                  malloc(sizeof(ak_xform) * (size_t)sk->joint_count)};
    double play_s = akb_median_seconds(play, &p, 15);
    const char *base = strrchr(path, '/');
    printf("{\"file\":\"%s\",\"bytes\":%zu,\"joints\":%d,\"parse_mb_s\":%.1f,\"sample_fk_ns_per_"
           "joint\":%.2f}\n",
           base ? base + 1 : path, got, (int)sk->joint_count, (double)got / parse_s / 1e6,
           play_s / p.calls / sk->joint_count * 1e9);
    free(p.local);
    free(p.world);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(sk);
    free(text);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; ++i)
            bench_file(argv[i]);
        return 0;
    }
    const char *dir = getenv("AK_MOCAP_DIR");
    if (!dir) dir = "tests/data/mocap";
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "bench_web: cannot open %s\n", dir);
        return 1;
    }
    static char names[256][256];
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) && count < 256;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".bvh") == 0)
            snprintf(names[count++], sizeof names[0], "%s", e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], by_name);
    for (int i = 0; i < count; ++i) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        bench_file(path);
    }
    return 0;
}
