/* Hot-path rows: clip sampling (scalar, batched), FK, blending and every IK solver, one
 * operation per row on fixed inputs, through the public API only, so the same source builds
 * against an older library and compares like with like (tools/bench_compare.sh).
 * Usage: bench_hotpath                 ns per operation, median of repeated runs
 *        bench_hotpath --check         a hash of every row's outputs (same hash: same results)
 *        bench_hotpath --row NAME N    N operations of one row, no timing (for callgrind: the
 *                                      instructions of N minus those of 0 are N operations)
 *        bench_hotpath --list          "NAME N" per row: the operations one timed run does */
#include "bench_rig.h"
#include "harness.h"
#include "ik_bench_common.h"
#include "animkit/animkit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HP_JOINTS  60
#define HP_BATCH   16
#define HP_TARGETS 64
#define HP_CHAIN   7

typedef struct hp_ctx {
    ak_skeleton *sk; /* HP_JOINTS joints: chains of five off the root */
    ak_clip *clip;   /* 300 keys at 30 Hz, cubic points prepared */
    ak_xform *local, *local_b, *world;
    float times[HP_BATCH];
    float t;
    ak_skeleton *limb;     /* two unit bones */
    ak_skeleton *chain_sk; /* HP_CHAIN unit bones */
    int32_t chain[HP_CHAIN + 1];
    ak_xform start_local[HP_CHAIN + 1], start_world[HP_CHAIN + 1];
    ak_xform ik_local[HP_CHAIN + 1], ik_world[HP_CHAIN + 1];
    ak_vec3 targets[HP_TARGETS];
    ak_quat q[3];
    ak_ik_result r;
    unsigned char workspace[1 << 16];
    int k;          /* operation counter: picks the target */
    char *bvh_text; /* cmu_02_01_walk.bvh of the mocap folder; NULL: the file rows are skipped */
    size_t bvh_size;
    ak_skeleton *io_sk; /* what the last file row read */
    ak_clip *io_clip;
    const void *out; /* what the last file row read or wrote, for --check */
    size_t out_size;
    void *written;          /* the last writer's buffer */
    ak_skeleton *big_sk[4]; /* the crowd rows' rigs: k_big_joints joints */
    ak_clip *big_clip[4];
    ak_xform *big_world; /* HP_BATCH poses of the largest rig */
} hp_ctx;

/* Rig sizes of the crowd rows: either side of the 128 joints the wide paths once stopped at,
 * a rig with fingers and face, and the largest ozz handles. */
static const int k_big_joints[4] = {128, 129, 250, 1023};

/* The rig of bench/bench_rig.h, its clip with SQUAD tangents for the cubic rows. */
static ak_clip *make_clip(int joints, int frames)
{
    ak_clip *c = akb_rig_clip(joints, frames, 0);
    ak_clip_prepare_cubic(c);
    return c;
}

/* The CMU walk (31 joints, 343 frames) as text in memory, and read once for the writers. */
static void load_bvh(hp_ctx *c)
{
    const char *env = getenv("AK_MOCAP_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/cmu_02_01_walk.bvh", env && *env ? env : "tests/data/mocap");
    FILE *f = fopen(path, "rb");
    if (!f) return;
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    c->bvh_text = size > 0 ? malloc((size_t)size) : NULL;
    if (c->bvh_text && fread(c->bvh_text, 1, (size_t)size, f) == (size_t)size &&
        ak_bvh_read_memory(c->bvh_text, (size_t)size, NULL, &c->io_sk, &c->io_clip, NULL) ==
            AK_OK) {
        c->bvh_size = (size_t)size;
    } else {
        free(c->bvh_text);
        c->bvh_text = NULL;
    }
    fclose(f);
}

static int setup(hp_ctx *c)
{
    c->sk = akb_rig_skeleton(HP_JOINTS, 67u);
    c->clip = make_clip(HP_JOINTS, 300);
    c->local = malloc(sizeof(ak_xform) * HP_JOINTS);
    c->local_b = malloc(sizeof(ak_xform) * HP_JOINTS);
    c->world = malloc(sizeof(ak_xform) * HP_JOINTS * HP_BATCH);
    c->limb = akb_ik_chain_skeleton(2);
    c->chain_sk = akb_ik_chain_skeleton(HP_CHAIN);
    if (!c->sk || !c->clip || !c->local || !c->local_b || !c->world || !c->limb || !c->chain_sk)
        return -1;
    for (int i = 0; i < HP_BATCH; ++i)
        c->times[i] = 0.0137f * (float)i;
    ak_clip_sample(c->clip, c->sk, 0.5f, AK_INTERP_LINEAR, c->local);
    ak_clip_sample(c->clip, c->sk, 1.7f, AK_INTERP_LINEAR, c->local_b);
    for (int j = 0; j <= HP_CHAIN; ++j)
        c->chain[j] = j;
    float zyx[3 * 64];
    akb_ik_start_angles(HP_CHAIN, zyx);
    akb_ik_pose(c->chain_sk, zyx, c->start_local);
    ak_fk(c->chain_sk, c->start_local, c->start_world);
    static ak_vec3 all[AKB_IK_TARGETS];
    akb_ik_targets(c->chain_sk, HP_CHAIN, all);
    memcpy(c->targets, all, sizeof c->targets);
    for (int i = 0; i < 4; ++i) {
        c->big_sk[i] = akb_rig_skeleton(k_big_joints[i], 67u);
        c->big_clip[i] = make_clip(k_big_joints[i], 60);
        if (!c->big_sk[i] || !c->big_clip[i]) return -1;
    }
    c->big_world = malloc(sizeof(ak_xform) * 1023 * HP_BATCH);
    if (!c->big_world) return -1;
    load_bvh(c);
    return 0;
}

/* ---- The rows: one operation each ---- */

static void op_sample_linear(hp_ctx *c)
{
    ak_clip_sample(c->clip, c->sk, c->t, AK_INTERP_LINEAR, c->local);
    c->t += 1.0f / 60.0f;
}

static void op_sample_cubic(hp_ctx *c)
{
    ak_clip_sample(c->clip, c->sk, c->t, AK_INTERP_CUBIC, c->local);
    c->t += 1.0f / 60.0f;
}

static void op_fk(hp_ctx *c)
{
    ak_fk(c->sk, c->local, c->world);
}

static void op_sample_then_fk(hp_ctx *c)
{
    op_sample_linear(c);
    ak_fk(c->sk, c->local, c->world);
}

static void op_fused_1(hp_ctx *c)
{
    ak_clip_sample_fk_batch(c->clip, c->sk, &c->t, 1, AK_INTERP_LINEAR, c->world);
    c->t += 1.0f / 60.0f;
}

static void op_fused_1_cubic(hp_ctx *c)
{
    ak_clip_sample_fk_batch(c->clip, c->sk, &c->t, 1, AK_INTERP_CUBIC, c->world);
    c->t += 1.0f / 60.0f;
}

static void batch(hp_ctx *c, ak_interp interp)
{
    ak_clip_sample_fk_batch(c->clip, c->sk, c->times, HP_BATCH, interp, c->world);
    for (int i = 0; i < HP_BATCH; ++i)
        c->times[i] += 1.0f / 60.0f;
}

static void op_batch_linear(hp_ctx *c)
{
    batch(c, AK_INTERP_LINEAR);
}

static void op_batch_cubic(hp_ctx *c)
{
    batch(c, AK_INTERP_CUBIC);
}

static void crowd(hp_ctx *c, int rig)
{
    ak_clip_sample_fk_batch(c->big_clip[rig], c->big_sk[rig], c->times, HP_BATCH, AK_INTERP_LINEAR,
                            c->big_world);
    for (int i = 0; i < HP_BATCH; ++i)
        c->times[i] += 1.0f / 60.0f;
    c->out = c->big_world;
    c->out_size = sizeof(ak_xform) * (size_t)k_big_joints[rig] * HP_BATCH;
}

static void op_crowd_128(hp_ctx *c)
{
    crowd(c, 0);
}
static void op_crowd_129(hp_ctx *c)
{
    crowd(c, 1);
}
static void op_crowd_250(hp_ctx *c)
{
    crowd(c, 2);
}
static void op_crowd_1023(hp_ctx *c)
{
    crowd(c, 3);
}

static void op_blend(hp_ctx *c)
{
    ak_pose_blend(c->local, c->local_b, HP_JOINTS, 0.3f, NULL, c->world);
}

static ak_vec3 next_target(hp_ctx *c)
{
    return c->targets[c->k++ % HP_TARGETS];
}

static ak_limb_ik_params limb_params(hp_ctx *c)
{
    ak_limb_ik_params p = ak_limb_ik_defaults();
    p.skeleton = c->limb;
    p.upper = 0;
    p.middle = 1;
    p.end = 2;
    p.target = next_target(c);
    p.tolerance = AKB_IK_TOLERANCE;
    return p;
}

static void op_limb_run(hp_ctx *c)
{
    ak_limb_ik_params p = limb_params(c);
    memcpy(c->ik_local, c->start_local, sizeof(ak_xform) * 3);
    memcpy(c->ik_world, c->start_world, sizeof(ak_xform) * 3);
    ak_limb_ik_run(&p, c->ik_local, c->ik_world, &c->r, NULL);
}

static void op_limb_solve(hp_ctx *c)
{
    ak_limb_ik_params p = limb_params(c);
    ak_limb_ik_solve(&p, c->start_local, c->start_world, &c->q[0], &c->q[1], NULL, &c->r, NULL);
}

static ak_aim_ik_params aim_params(hp_ctx *c)
{
    ak_aim_ik_params p = ak_aim_ik_defaults();
    p.skeleton = c->limb;
    p.joint = 1;
    p.forward = ak_vec3_make(0.0f, 1.0f, 0.0f);
    p.up = ak_vec3_make(0.0f, 0.0f, 1.0f);
    p.target = next_target(c);
    return p;
}

static void op_aim_run(hp_ctx *c)
{
    ak_aim_ik_params p = aim_params(c);
    memcpy(c->ik_local, c->start_local, sizeof(ak_xform) * 3);
    memcpy(c->ik_world, c->start_world, sizeof(ak_xform) * 3);
    ak_aim_ik_run(&p, c->ik_local, c->ik_world, &c->r, NULL);
}

static void op_aim_solve(hp_ctx *c)
{
    ak_aim_ik_params p = aim_params(c);
    ak_aim_ik_solve(&p, c->start_world, &c->q[2], &c->r, NULL);
}

static void restore_chain(hp_ctx *c)
{
    memcpy(c->ik_local, c->start_local, sizeof c->ik_local);
    memcpy(c->ik_world, c->start_world, sizeof c->ik_world);
}

static void chain_solve(hp_ctx *c, int fabrik)
{
    ak_chain_ik_params p = ak_chain_ik_defaults();
    p.skeleton = c->chain_sk;
    p.chain = c->chain;
    p.chain_length = HP_CHAIN + 1;
    p.target = next_target(c);
    p.max_iterations = AKB_IK_MAX_ITERATIONS;
    p.tolerance = AKB_IK_TOLERANCE;
    restore_chain(c);
    if (fabrik)
        ak_fabrik_ik_run(&p, c->ik_local, c->ik_world, &c->r, NULL);
    else
        ak_ccd_ik_run(&p, c->ik_local, c->ik_world, &c->r, NULL);
}

static void op_ccd(hp_ctx *c)
{
    chain_solve(c, 0);
}

static void op_fabrik(hp_ctx *c)
{
    chain_solve(c, 1);
}

static void jacobian_solve(hp_ctx *c, int method)
{
    ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
    p.skeleton = c->chain_sk;
    p.method = method;
    p.chain = c->chain;
    p.chain_length = HP_CHAIN + 1;
    p.target = next_target(c);
    p.max_iterations = AKB_IK_MAX_ITERATIONS;
    p.tolerance = AKB_IK_TOLERANCE;
    p.workspace = c->workspace;
    p.workspace_bytes = sizeof c->workspace;
    restore_chain(c);
    ak_jacobian_ik_run(&p, c->ik_local, c->ik_world, &c->r, NULL);
}

static void op_jacobian(hp_ctx *c)
{
    jacobian_solve(c, AK_JACOBIAN_PSEUDO_INVERSE);
}

static void op_dls(hp_ctx *c)
{
    jacobian_solve(c, AK_JACOBIAN_DLS);
}

static void op_look_at(hp_ctx *c)
{
    ak_look_at_params p = ak_look_at_defaults();
    p.skeleton = c->chain_sk;
    p.chain = c->chain;
    p.chain_length = HP_CHAIN + 1;
    p.forward = ak_vec3_make(0.0f, 1.0f, 0.0f);
    p.up = ak_vec3_make(0.0f, 0.0f, 1.0f);
    p.target = next_target(c);
    restore_chain(c);
    ak_look_at_run(&p, c->ik_local, c->ik_world, &c->r, NULL);
}

static void op_bvh_read(hp_ctx *c)
{
    if (!c->bvh_text) return;
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    ak_bvh_read_memory(c->bvh_text, c->bvh_size, NULL, &sk, &clip, NULL);
    c->out = clip ? clip->rotations : NULL;
    c->out_size =
        clip ? sizeof(ak_quat) * (size_t)clip->frame_count * (size_t)clip->joint_count : 0;
    akb_sink(c->out, c->out_size);
    ak_clip_destroy(c->io_clip);
    ak_skeleton_destroy(c->io_sk);
    c->io_sk = sk;
    c->io_clip = clip;
}

static void keep_output(hp_ctx *c, void *data, size_t size)
{
    ak_free(c->written);
    c->written = data;
    c->out = data;
    c->out_size = size;
}

static void op_bvh_write(hp_ctx *c)
{
    if (!c->bvh_text) return;
    char *text = NULL;
    size_t size = 0;
    ak_bvh_write_memory(c->io_sk, c->io_clip, AK_ORDER_ZYX, &text, &size, NULL);
    keep_output(c, text, size);
}

static void op_gltf_write(hp_ctx *c)
{
    if (!c->bvh_text) return;
    uint8_t *data = NULL;
    size_t size = 0;
    ak_gltf_write_memory(c->io_sk, c->io_clip, NULL, 1, &data, &size, NULL);
    keep_output(c, data, size);
}

typedef struct hp_row {
    const char *name;
    const char *what;
    void (*op)(hp_ctx *);
    int batch; /* operations per timed run */
} hp_row;

static const hp_row k_rows[] = {
    {"sample_linear", "clip sample, linear, 60 joints", op_sample_linear, 2000},
    {"sample_cubic", "clip sample, cubic, 60 joints", op_sample_cubic, 1000},
    {"fk", "FK, 60 joints", op_fk, 2000},
    {"sample_then_fk", "sample then FK, 60 joints", op_sample_then_fk, 1000},
    {"fused_1", "sample + FK fused, 1 character", op_fused_1, 1000},
    {"fused_1_cubic", "sample + FK fused, 1 character, cubic", op_fused_1_cubic, 500},
    {"batch_linear", "batched sample + FK, 16 characters, linear", op_batch_linear, 100},
    {"batch_cubic", "batched sample + FK, 16 characters, cubic", op_batch_cubic, 50},
    {"crowd_128", "batched sample + FK, 16 characters, linear, 128 joints", op_crowd_128, 20},
    {"crowd_129", "batched sample + FK, 16 characters, linear, 129 joints", op_crowd_129, 20},
    {"crowd_250", "batched sample + FK, 16 characters, linear, 250 joints", op_crowd_250, 10},
    {"crowd_1023", "batched sample + FK, 16 characters, linear, 1,023 joints", op_crowd_1023, 4},
    {"blend", "pose blend, 60 joints", op_blend, 2000},
    {"limb_run", "limb IK run (restore + solve + write)", op_limb_run, 5000},
    {"limb_solve", "limb IK solve (corrections only)", op_limb_solve, 5000},
    {"aim_run", "aim IK run", op_aim_run, 5000},
    {"aim_solve", "aim IK solve (correction only)", op_aim_solve, 5000},
    {"ccd", "CCD, 7 bones, cold solve", op_ccd, 64},
    {"fabrik", "FABRIK, 7 bones, cold solve", op_fabrik, 64},
    {"jacobian", "Jacobian pseudo-inverse, 7 bones, cold solve", op_jacobian, 64},
    {"dls", "Jacobian DLS, 7 bones, cold solve", op_dls, 64},
    {"look_at", "look-at, 7 joints", op_look_at, 640},
    {"bvh_read", "BVH read, CMU 02_01 (31 joints, 343 frames) from memory", op_bvh_read, 2},
    {"bvh_write", "BVH write of that clip to memory", op_bvh_write, 2},
    {"gltf_write", "GLB write of that clip to memory", op_gltf_write, 2},
};
enum { HP_ROWS = (int)(sizeof k_rows / sizeof k_rows[0]) };

typedef struct timed {
    hp_ctx *c;
    const hp_row *row;
} timed;

static void run_timed(void *arg)
{
    timed *t = (timed *)arg;
    for (int i = 0; i < t->row->batch; ++i)
        t->row->op(t->c);
    akb_sink(t->c->world, sizeof(ak_xform) * HP_JOINTS);
    akb_sink(t->c->ik_world, sizeof t->c->ik_world);
}

/* FNV-1a over the bytes every row writes. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static void check(hp_ctx *c)
{
    for (int i = 0; i < HP_ROWS; ++i) {
        uint64_t h = 14695981039346656037ULL;
        c->t = 0.0f;
        c->k = 0;
        memset(c->ik_local, 0, sizeof c->ik_local);
        memset(c->q, 0, sizeof c->q);
        memset(&c->r, 0, sizeof c->r);
        c->out = NULL;
        const int n_ops = k_rows[i].batch < HP_TARGETS ? 4 : HP_TARGETS;
        for (int n = 0; n < n_ops; ++n) {
            k_rows[i].op(c);
            h = hash_bytes(h, c->local, sizeof(ak_xform) * HP_JOINTS);
            h = hash_bytes(h, c->world, sizeof(ak_xform) * HP_JOINTS * HP_BATCH);
            h = hash_bytes(h, c->ik_local, sizeof c->ik_local);
            h = hash_bytes(h, c->q, sizeof c->q);
            h = hash_bytes(h, &c->r, sizeof c->r);
            if (c->out) h = hash_bytes(h, c->out, c->out_size);
        }
        printf("%-16s %016llx\n", k_rows[i].name, (unsigned long long)h);
    }
}

int main(int argc, char **argv)
{
    static hp_ctx ctx;
    if (setup(&ctx) != 0) return 1;
    if (argc == 2 && strcmp(argv[1], "--check") == 0) {
        check(&ctx);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < HP_ROWS; ++i)
            printf("%s %d\n", k_rows[i].name, k_rows[i].batch);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "--row") == 0) {
        const int n = atoi(argv[3]);
        for (int i = 0; i < HP_ROWS; ++i) {
            if (strcmp(argv[2], k_rows[i].name) != 0) continue;
            for (int k = 0; k < n; ++k)
                k_rows[i].op(&ctx);
            akb_sink(ctx.world, sizeof(ak_xform) * HP_JOINTS);
            return 0;
        }
        fprintf(stderr, "no row %s\n", argv[2]);
        return 2;
    }
    printf("Hot paths, ns per operation (median of 31 runs)\n\n");
    for (int i = 0; i < HP_ROWS; ++i) {
        timed t = {&ctx, &k_rows[i]};
        const double sec = akb_median_seconds(run_timed, &t, 31);
        printf("  %-16s %10.1f ns  %s\n", k_rows[i].name, sec / k_rows[i].batch * 1e9,
               k_rows[i].what);
    }
    return 0;
}
