/* Compressed clips on CMU 02_01 (31 joints + 7 End Sites, 343 frames): size against raw
 * (10 floats per joint-sample, ACL's baseline) and against ozz-animation's optimized animation
 * of the same clip (82,642 B, issue 25), worst error, and decompression + FK against the plain
 * clip's sampling + FK, rows interleaved run by run (medians of 15 runs).
 * Usage: bench_compress                 the table
 *        bench_compress --row NAME N    N operations of one row, no timing (for callgrind) */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animkit/animkit.h"

enum { CB_CROWD = 16, CB_RUNS = 15 };
#define OZZ_BYTES 82642.0

typedef struct cb_ctx {
    ak_skeleton *sk;
    ak_clip *clip;
    ak_compressed_clip *cc;
    ak_xform *local, *world;
    float t, times[CB_CROWD];
} cb_ctx;

static void advance(cb_ctx *c)
{
    c->t += 1.0f / 60.0f;
    for (int i = 0; i < CB_CROWD; ++i)
        c->times[i] += 1.0f / 60.0f;
}
static void op_plain_fused(cb_ctx *c)
{
    ak_clip_sample_fk_batch(c->clip, c->sk, &c->t, 1, AK_INTERP_LINEAR, c->world);
    advance(c);
}
static void op_cc_fused(cb_ctx *c)
{
    ak_compressed_clip_sample_fk_batch(c->cc, c->sk, &c->t, 1, AK_INTERP_LINEAR, c->world);
    advance(c);
}
static void op_plain_then_fk(cb_ctx *c)
{
    ak_clip_sample(c->clip, c->sk, c->t, AK_INTERP_LINEAR, c->local);
    ak_fk(c->sk, c->local, c->world);
    advance(c);
}
static void op_cc_then_fk(cb_ctx *c)
{
    ak_compressed_clip_sample(c->cc, c->sk, c->t, AK_INTERP_LINEAR, c->local);
    ak_fk(c->sk, c->local, c->world);
    advance(c);
}
static void op_plain_crowd(cb_ctx *c)
{
    ak_clip_sample_fk_batch(c->clip, c->sk, c->times, CB_CROWD, AK_INTERP_LINEAR, c->world);
    advance(c);
}
static void op_cc_crowd(cb_ctx *c)
{
    ak_compressed_clip_sample_fk_batch(c->cc, c->sk, c->times, CB_CROWD, AK_INTERP_LINEAR,
                                       c->world);
    advance(c);
}

typedef struct cb_row {
    const char *name, *what;
    void (*op)(cb_ctx *);
    int batch, characters;
} cb_row;

/* Pairs: plain, then compressed. */
static const cb_row k_rows[] = {
    {"plain_fused", "plain: sample + FK fused, 1 character", op_plain_fused, 400, 1},
    {"cc_fused", "compressed: sample + FK, 1 character", op_cc_fused, 400, 1},
    {"plain_then_fk", "plain: ak_clip_sample then ak_fk", op_plain_then_fk, 400, 1},
    {"cc_then_fk", "compressed: sample then ak_fk", op_cc_then_fk, 400, 1},
    {"plain_crowd", "plain: sample + FK, 16 characters", op_plain_crowd, 40, CB_CROWD},
    {"cc_crowd", "compressed: sample + FK, 16 characters", op_cc_crowd, 40, CB_CROWD},
};
enum { CB_ROWS = (int)(sizeof k_rows / sizeof k_rows[0]) };

static int setup(cb_ctx *c, float *mpu)
{
    const char *env = getenv("AK_MOCAP_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/cmu_02_01_walk.bvh", env && *env ? env : "tests/data/mocap");
    ak_error err;
    if (ak_bvh_read_file(path, NULL, &c->sk, &c->clip, &err) != AK_OK) {
        fprintf(stderr, "%s: %s\n", path, err.message);
        return -1;
    }
    ak_units_detect(ak_clip_standing_height(c->clip, c->sk), mpu);
    const size_t n = (size_t)c->sk->joint_count;
    c->local = malloc(sizeof(ak_xform) * n);
    c->world = malloc(sizeof(ak_xform) * n * CB_CROWD);
    for (int i = 0; i < CB_CROWD; ++i)
        c->times[i] = 0.173f * (float)i;
    return c->local && c->world ? 0 : -1;
}

/* Size and error at one tolerance; keeps the clip compressed at the default tolerance. */
static void size_row(cb_ctx *c, float mpu, float tolerance, int keep)
{
    ak_compress_params p = ak_compress_defaults();
    p.tolerance = tolerance;
    p.metres_per_unit = mpu;
    ak_compressed_clip *cc = NULL;
    const double t0 = akb_now();
    if (ak_compress_run(c->clip, c->sk, &p, &cc, NULL) != AK_OK) return;
    const double sec = akb_now() - t0;
    ak_compressed_info info;
    ak_compressed_clip_get_info(cc, &info);
    printf("  %.4f m  %8llu B  %5.1f:1  %5.2fx ozz (%s)  worst %.4f cm  %4.0f ms  "
           "%d constant, %d quantized (%.1f bits), %d raw tracks\n",
           (double)tolerance, (unsigned long long)info.bytes,
           (double)info.raw_bytes / (double)info.bytes, (double)info.bytes / OZZ_BYTES,
           (double)info.bytes <= OZZ_BYTES ? "met" : "not met", (double)info.worst_error * 100.0,
           sec * 1e3, info.constant_tracks, info.quantized_tracks, (double)info.mean_bits,
           info.raw_tracks);
    if (tolerance > 0.00049f && tolerance < 0.0005f) { /* ACL's published error */
        char what[128];
        snprintf(what, sizeof what,
                 "compressed CMU 02_01 at %.4f cm (worst error %.4f cm, 3 cm from each bone)",
                 (double)tolerance * 100.0, (double)info.worst_error * 100.0);
        akb_result(what, (double)info.bytes / OZZ_BYTES, 2, "× ozz's size", "<=", 1.0,
                   "ozz-animation optimized: 82,642 B");
        char num[32];
        snprintf(what, sizeof what, "the same against raw (10 floats per joint-sample): %s B",
                 akb_thousands(num, sizeof num, (long long)info.bytes));
        akb_result(what, (double)info.raw_bytes / (double)info.bytes, 1, ":1", NULL, 0.0,
                   "ACL, whole CMU database: 21.8:1 at 0.0495 cm");
    }
    if (keep)
        c->cc = cc;
    else
        ak_compressed_clip_destroy(cc);
}

typedef struct timed {
    cb_ctx *c;
    const cb_row *row;
} timed;
static void run_timed(void *arg)
{
    timed *t = (timed *)arg;
    for (int i = 0; i < t->row->batch; ++i)
        t->row->op(t->c);
    akb_sink(t->c->world, sizeof(ak_xform));
}

static void timing(cb_ctx *c)
{
    static double runs[CB_ROWS][CB_RUNS];
    for (int r = 0; r < CB_RUNS; ++r) /* interleaved: each run measures every row once */
        for (int i = 0; i < CB_ROWS; ++i) {
            timed t = {c, &k_rows[i]};
            runs[i][r] =
                akb_median_seconds(run_timed, &t, 1) / k_rows[i].batch / k_rows[i].characters;
        }
    const int joints = c->sk->joint_count;
    printf("\nDecompression + FK, linear, ns per character (median of %d interleaved runs)\n",
           CB_RUNS);
    for (int i = 0; i < CB_ROWS; i += 2) {
        const double plain = akb_median(runs[i], CB_RUNS) * 1e9;
        const double cc = akb_median(runs[i + 1], CB_RUNS) * 1e9;
        printf("  %-40s %8.1f ns  %5.2f ns/joint\n", k_rows[i].what, plain, plain / joints);
        printf("  %-40s %8.1f ns  %5.2f ns/joint  %.2fx plain (goal <= 1.30x: %s)\n",
               k_rows[i + 1].what, cc, cc / joints, cc / plain,
               cc / plain <= 1.30 ? "met" : "not met");
        char what[128];
        snprintf(what, sizeof what, "decompression + FK ÷ plain sampling + FK (time), %s",
                 k_rows[i + 1].what + strlen("compressed: "));
        akb_result(what, cc / plain, 2, "×", "<=", 1.3, NULL);
    }
}

int main(int argc, char **argv)
{
    static cb_ctx ctx;
    float mpu = 1.0f;
    if (setup(&ctx, &mpu) != 0) return 1;
    const int row_mode = argc == 4 && strcmp(argv[1], "--row") == 0;
    if (!row_mode) {
        printf("Compressed clips, CMU 02_01 (%d joints x %d frames, raw %d B; ozz %.0f B)\n",
               ctx.sk->joint_count, ctx.clip->frame_count,
               ctx.sk->joint_count * ctx.clip->frame_count * 40, OZZ_BYTES);
        printf("  tolerance    bytes    ratio   vs ozz      worst error  compress\n");
    }
    const float tolerances[] = {0.0001f, 0.000495f, 0.001f};
    for (int k = 0; k < 3; ++k) {
        if (row_mode && k > 0) break;
        if (row_mode) {
            ak_compress_params p = ak_compress_defaults();
            p.metres_per_unit = mpu;
            if (ak_compress_run(ctx.clip, ctx.sk, &p, &ctx.cc, NULL) != AK_OK) return 1;
        } else {
            size_row(&ctx, mpu, tolerances[k], k == 0);
        }
    }
    if (!ctx.cc) return 1;
    if (row_mode) {
        const int n = atoi(argv[3]);
        for (int i = 0; i < CB_ROWS; ++i) {
            if (strcmp(argv[2], k_rows[i].name) != 0) continue;
            for (int k = 0; k < n; ++k)
                k_rows[i].op(&ctx);
            akb_sink(ctx.world, sizeof(ak_xform));
            return 0;
        }
        fprintf(stderr, "no row %s\n", argv[2]);
        return 2;
    }
    timing(&ctx);
    return 0;
}
