/* Skinning throughput (one core, 4 influences, positions + normals) against a memory floor
 * measured in the same run: the bytes a vertex reads and writes divided by the rate of a
 * streaming copy (memcpy of a buffer far larger than the caches, read + write bytes per
 * second; glibc's memcpy streams a copy that large past the caches, as the kernels stream
 * their outputs). Goals (issue 23): LBS time within 2x the floor, DQS time at most 1.5x LBS.
 * The mesh is large (1 Mi vertices, 72 MiB of streams) so the kernels stream from memory
 * like the copy does; a cache-resident mesh (16 Ki vertices) is reported beside it. Every
 * path runs in every round: the widest SIMD (AVX-512 or AVX2 + FMA, what the CPU has), SSE
 * alone (use_simd 2: the kernels before AVX2), the scalar twins and AVX2 at most (use_simd 3:
 * the kernels before AVX-512). Prints the rows of
 * bench/results.md (akb_result). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "animkit/skin.h"
#include "harness.h"

enum { JOINTS = 64, K = 4 };

typedef struct skin_case {
    ak_skin_params p;
} skin_case;

static void run_skin(void *arg)
{
    skin_case *c = (skin_case *)arg;
    ak_skin_run(&c->p, NULL);
    akb_sink(c->p.out_positions, sizeof(float) * 3);
}

typedef struct copy_case {
    char *dst;
    const char *src;
    size_t bytes;
} copy_case;

static void run_copy(void *arg)
{
    copy_case *c = (copy_case *)arg;
    memcpy(c->dst, c->src, c->bytes);
    akb_sink(c->dst, 1);
}

static uint32_t rng = 12345u;
static float frand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f;
}

/* Fills a mesh of n vertices with random positions, normals and 4 normalised influences. */
static void fill_mesh(int32_t n, float *pos, float *nrm, uint16_t *joints, float *weights)
{
    for (int32_t i = 0; i < 3 * n; ++i)
        pos[i] = frand() * 2.0f - 1.0f, nrm[i] = frand() - 0.5f;
    for (int32_t i = 0; i < K * n; ++i) {
        joints[i] = (uint16_t)(rng % JOINTS);
        weights[i] = frand() + 0.01f;
        (void)frand();
    }
    ak_skin_normalize_weights(weights, n, K);
}

/* Seconds this thread ran (CLOCK_THREAD_CPUTIME_ID): on a loaded machine the time spent
 * waiting for a core is not counted, which wall time would add to whichever kernel the
 * scheduler happened to interrupt; on a quiet machine the two agree. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double time_once(void (*fn)(void *), void *arg)
{
    const double t0 = cpu_now();
    fn(arg);
    return cpu_now() - t0;
}

static double skin_seconds(skin_case *c, int32_t method, int32_t simd)
{
    c->p.method = method;
    c->p.use_simd = simd;
    return time_once(run_skin, c);
}

enum { ROUNDS = 15, MAX_ROUNDS = 64, PATHS = 8 };

/* The kernels of a round: LBS and DQS on the widest SIMD path (use_simd 1: AVX-512 or AVX2 + FMA,
 * what the CPU has), on SSE alone (use_simd 2, the path before AVX2), on the scalar twin and on
 * AVX2 at most (use_simd 3, the path before AVX-512). */
static const struct {
    int32_t method, simd;
    const char *name;
} k_paths[PATHS] = {{AK_SKIN_LINEAR, 1, "LBS"},        {AK_SKIN_DUAL_QUAT, 1, "DQS"},
                    {AK_SKIN_LINEAR, 2, "LBS SSE"},    {AK_SKIN_DUAL_QUAT, 2, "DQS SSE"},
                    {AK_SKIN_LINEAR, 0, "LBS scalar"}, {AK_SKIN_DUAL_QUAT, 0, "DQS scalar"},
                    {AK_SKIN_LINEAR, 3, "LBS AVX2"},   {AK_SKIN_DUAL_QUAT, 3, "DQS AVX2"}};

typedef struct figures {
    double rate[PATHS]; /* M vertices/s, medians */
    double floor_rate;  /* M vertices/s the copy's rate allows at BYTES_PER_VERTEX */
    double copy_gbs;
    double lbs_floor, dqs_floor, dqs_lbs, sse_lbs_floor, sse_dqs_lbs; /* medians of per-round */
    double avx2_lbs_floor, avx2_dqs_lbs;
} figures;

/* Bytes a vertex reads and writes: position, normal, 4 joint indices (u16), 4 weights in; the
 * skinned position and normal out. */
#define BYTES_PER_VERTEX (3.0 * 4 + 3 * 4 + K * 2 + K * 4 + 3 * 4 + 3 * 4)

/* Rounds of: one streaming copy, then every kernel, so that a busy machine slows all of them
 * alike; each figure is a median over the rounds, each ratio the median of the per-round
 * ratios. */
static figures measure(skin_case *c, copy_case *copy, int rounds)
{
    double t[PATHS][MAX_ROUNDS], tc[MAX_ROUNDS], r[7][MAX_ROUNDS];
    const double n = (double)c->p.vertex_count;
    (void)skin_seconds(c, AK_SKIN_LINEAR, 1); /* warm-up: fault the pages in */
    for (int i = 0; i < rounds; ++i) {
        tc[i] = copy ? time_once(run_copy, copy) : 0.0;
        for (int k = 0; k < PATHS; ++k)
            t[k][i] = skin_seconds(c, k_paths[k].method, k_paths[k].simd);
        /* floor time = n * bytes per vertex / copy rate (read + write bytes per second) */
        const double floor_s =
            copy ? n * BYTES_PER_VERTEX * tc[i] / (2.0 * (double)copy->bytes) : 1;
        r[0][i] = t[0][i] / floor_s, r[1][i] = t[1][i] / floor_s, r[2][i] = t[1][i] / t[0][i];
        r[3][i] = t[2][i] / floor_s, r[4][i] = t[3][i] / t[2][i];
        r[5][i] = t[6][i] / floor_s, r[6][i] = t[7][i] / t[6][i];
    }
    figures f = {{0}, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < PATHS; ++k)
        f.rate[k] = n / akb_median(t[k], rounds) / 1e6;
    if (copy) {
        const double rate = 2.0 * (double)copy->bytes / akb_median(tc, rounds);
        f.copy_gbs = rate / 1e9, f.floor_rate = rate / BYTES_PER_VERTEX / 1e6;
        f.lbs_floor = akb_median(r[0], rounds), f.dqs_floor = akb_median(r[1], rounds);
        f.sse_lbs_floor = akb_median(r[3], rounds), f.avx2_lbs_floor = akb_median(r[5], rounds);
    }
    f.dqs_lbs = akb_median(r[2], rounds), f.sse_dqs_lbs = akb_median(r[4], rounds);
    f.avx2_dqs_lbs = akb_median(r[6], rounds);
    return f;
}

static void print_figures(const figures *f, const char *label, int n, int rounds)
{
    printf("%s (%d vertices, %d influences, positions + normals; CPU time of this thread, medians "
           "of %d rounds):\n",
           label, n, K, rounds);
    if (f->floor_rate > 0)
        printf("  streaming copy %.2f GB/s (read + write) -> memory floor %.1f M vertices/s at "
               "%g bytes per vertex\n",
               f->copy_gbs, f->floor_rate, BYTES_PER_VERTEX);
    for (int k = 0; k < PATHS; ++k)
        printf("  %-10s %7.1f M vertices/s\n", k_paths[k].name, f->rate[k]);
    if (f->floor_rate > 0)
        printf("  time / memory floor: LBS %.2fx (goal <= 2), DQS %.2fx; LBS on AVX2 at most "
               "%.2fx, on SSE alone %.2fx\n",
               f->lbs_floor, f->dqs_floor, f->avx2_lbs_floor, f->sse_lbs_floor);
    printf("  DQS / LBS time %.2fx (goal <= 1.5); AVX2 at most %.2fx, SSE alone %.2fx\n",
           f->dqs_lbs, f->avx2_dqs_lbs, f->sse_dqs_lbs);
}

/* The rows of bench/results.md (tools/bench.sh). */
static void result_rows(const figures *f, const figures *resident)
{
    char scale[200];
    snprintf(scale, sizeof scale,
             "AVX2 at most %.1f, SSE alone %.1f, scalar twin %.1f; cache-resident mesh %.1f",
             f->rate[6], f->rate[2], f->rate[4], resident->rate[0]);
    akb_result("skinning LBS, 1 Mi-vertex mesh from memory, 4 influences, positions + normals, "
               "one core",
               f->rate[0], 1, "M vertices/s", NULL, 0, scale);
    snprintf(scale, sizeof scale,
             "AVX2 at most %.1f, SSE alone %.1f, scalar twin %.1f; cache-resident mesh %.1f",
             f->rate[7], f->rate[3], f->rate[5], resident->rate[1]);
    akb_result("skinning DQS, the same mesh", f->rate[1], 1, "M vertices/s", NULL, 0, scale);
    snprintf(scale, sizeof scale, "streaming copy %.1f GB/s read + write, %g bytes per vertex",
             f->copy_gbs, BYTES_PER_VERTEX);
    akb_result("skinning memory floor: bytes a vertex reads and writes ÷ a streaming copy's rate",
               f->floor_rate, 1, "M vertices/s", NULL, 0, scale);
    snprintf(scale, sizeof scale, "AVX2 at most %.2f×, SSE alone %.2f×", f->avx2_lbs_floor,
             f->sse_lbs_floor);
    akb_result("skinning LBS time ÷ memory floor time", f->lbs_floor, 2, "×", "<=", 2.0, scale);
    snprintf(scale, sizeof scale, "AVX2 at most %.2f×, SSE alone %.2f×; cache-resident mesh %.2f×",
             f->avx2_dqs_lbs, f->sse_dqs_lbs, resident->dqs_lbs);
    akb_result("skinning DQS time ÷ LBS time", f->dqs_lbs, 2, "×", "<=", 1.5, scale);
}

static figures bench_mesh(int32_t n, copy_case *copy, const char *label, int rounds)
{
    float *pos = malloc(sizeof(float) * 3 * n), *nrm = malloc(sizeof(float) * 3 * n);
    float *op = malloc(sizeof(float) * 3 * n), *on = malloc(sizeof(float) * 3 * n);
    uint16_t *jt = malloc(sizeof(uint16_t) * K * n);
    float *w = malloc(sizeof(float) * K * n);
    static ak_xform model[JOINTS];
    static float ibm[JOINTS * 16];
    static ak_skin_joint pal[JOINTS];
    figures f = {{0}, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (!pos || !nrm || !op || !on || !jt || !w) return f;
    fill_mesh(n, pos, nrm, jt, w);
    for (int j = 0; j < JOINTS; ++j) {
        model[j].rotation = ak_quat_normalize(
            (ak_quat){frand() - 0.5f, frand() - 0.5f, frand() - 0.5f, frand() - 0.5f});
        model[j].translation = ak_vec3_make(frand(), frand(), frand());
        ak_xform_to_mat4(ak_xform_inverse(model[(j * 7) % (j + 1)]), ibm + 16 * j);
    }
    skin_case c;
    c.p = ak_skin_defaults();
    c.p.joint_count = JOINTS, c.p.model_pose = model, c.p.inverse_bind = ibm, c.p.palette = pal;
    c.p.vertex_count = n, c.p.influences = K, c.p.joints = jt, c.p.weights = w;
    c.p.positions = pos, c.p.normals = nrm, c.p.out_positions = op, c.p.out_normals = on;
    c.p.check_influences = 0; /* per frame: the mesh was validated once */
    f = measure(&c, copy, rounds);
    print_figures(&f, label, n, rounds);
    free(pos), free(nrm), free(op), free(on), free(jt), free(w);
    return f;
}

int main(void)
{
    const size_t bytes = (size_t)256 << 20;
    copy_case copy = {malloc(bytes), malloc(bytes), bytes};
    if (!copy.dst || !copy.src) return 1;
    memset(copy.dst, 1, bytes);
    memset((char *)copy.src, 2, bytes);
    const figures streamed = bench_mesh(1 << 20, &copy, "streamed mesh", ROUNDS);
    const figures resident = bench_mesh(1 << 14, NULL, "cache-resident mesh", MAX_ROUNDS);
    result_rows(&streamed, &resident);
    free(copy.dst);
    free((char *)copy.src);
    return 0;
}
