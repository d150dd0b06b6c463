/* Skinning throughput (one core, 4 influences, positions + normals) against a memory floor
 * measured in the same run: the bytes a vertex reads and writes divided by the rate of a
 * streaming copy (memcpy of a buffer far larger than the caches, read + write bytes per
 * second). Goals (issue 23): LBS time within 2x the floor, DQS time at most 1.5x LBS.
 * The mesh is large (1 Mi vertices, 72 MiB of streams) so the kernels stream from memory
 * like the copy does; a cache-resident mesh (16 Ki vertices) is reported beside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static double time_once(void (*fn)(void *), void *arg)
{
    const double t0 = akb_now();
    fn(arg);
    return akb_now() - t0;
}

static double skin_seconds(skin_case *c, int32_t method, int32_t simd)
{
    c->p.method = method;
    c->p.use_simd = simd;
    return time_once(run_skin, c);
}

enum { ROUNDS = 15, MAX_ROUNDS = 64 };

/* Rounds of: one streaming copy, one LBS, one DQS (SSE), one of each scalar, so that a
 * busy machine slows all of them alike; each figure is a median over the rounds, and the
 * ratios are medians of the per-round ratios. */
static void measure(skin_case *c, copy_case *copy, const char *label, int rounds)
{
    double t[5][MAX_ROUNDS], r_lbs[MAX_ROUNDS], r_dqs[MAX_ROUNDS], r_dl[MAX_ROUNDS];
    const double n = (double)c->p.vertex_count, bytes_per_vertex = 72.0;
    (void)skin_seconds(c, AK_SKIN_LINEAR, 1); /* warm-up: fault the pages in */
    for (int i = 0; i < rounds; ++i) {
        t[0][i] = copy ? time_once(run_copy, copy) : 0.0;
        t[1][i] = skin_seconds(c, AK_SKIN_LINEAR, 1);
        t[2][i] = skin_seconds(c, AK_SKIN_DUAL_QUAT, 1);
        t[3][i] = skin_seconds(c, AK_SKIN_LINEAR, 0);
        t[4][i] = skin_seconds(c, AK_SKIN_DUAL_QUAT, 0);
        /* floor time = n * bytes per vertex / copy rate (read + write bytes per second) */
        const double floor_s =
            copy ? n * bytes_per_vertex * t[0][i] / (2.0 * (double)copy->bytes) : 0;
        r_lbs[i] = copy ? t[1][i] / floor_s : 0.0;
        r_dqs[i] = copy ? t[2][i] / floor_s : 0.0;
        r_dl[i] = t[2][i] / t[1][i];
    }
    printf("%s (%d vertices, %d influences, positions + normals; medians of %d rounds):\n", label,
           (int)n, K, rounds);
    if (copy) {
        const double rate = 2.0 * (double)copy->bytes / akb_median(t[0], rounds);
        printf("  streaming copy %.2f GB/s (read + write) -> memory floor %.1f M vertices/s at "
               "%g bytes per vertex\n",
               rate / 1e9, rate / bytes_per_vertex / 1e6, bytes_per_vertex);
    }
    printf("  LBS  SSE %7.1f M vertices/s   scalar %7.1f M/s\n", n / akb_median(t[1], rounds) / 1e6,
           n / akb_median(t[3], rounds) / 1e6);
    printf("  DQS  SSE %7.1f M vertices/s   scalar %7.1f M/s\n", n / akb_median(t[2], rounds) / 1e6,
           n / akb_median(t[4], rounds) / 1e6);
    if (copy)
        printf("  time / memory floor: LBS %.2fx (goal <= 2), DQS %.2fx\n",
               akb_median(r_lbs, rounds), akb_median(r_dqs, rounds));
    printf("  DQS / LBS time %.2fx (goal <= 1.5)\n", akb_median(r_dl, rounds));
}

static void bench_mesh(int32_t n, copy_case *copy, const char *label, int rounds)
{
    float *pos = malloc(sizeof(float) * 3 * n), *nrm = malloc(sizeof(float) * 3 * n);
    float *op = malloc(sizeof(float) * 3 * n), *on = malloc(sizeof(float) * 3 * n);
    uint16_t *jt = malloc(sizeof(uint16_t) * K * n);
    float *w = malloc(sizeof(float) * K * n);
    static ak_xform model[JOINTS];
    static float ibm[JOINTS * 16];
    static ak_skin_joint pal[JOINTS];
    if (!pos || !nrm || !op || !on || !jt || !w) return;
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
    measure(&c, copy, label, rounds);
    free(pos), free(nrm), free(op), free(on), free(jt), free(w);
}

int main(void)
{
    const size_t bytes = (size_t)256 << 20;
    copy_case copy = {malloc(bytes), malloc(bytes), bytes};
    if (!copy.dst || !copy.src) return 1;
    memset(copy.dst, 1, bytes);
    memset((char *)copy.src, 2, bytes);
    bench_mesh(1 << 20, &copy, "streamed mesh", ROUNDS);
    bench_mesh(1 << 14, NULL, "cache-resident mesh", MAX_ROUNDS);
    free(copy.dst);
    free((char *)copy.src);
    return 0;
}
