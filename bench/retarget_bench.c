/* Retargeting cost: the CMU walk onto other rigs, per target joint per frame, for the live
 * per-frame transfer (ak_retargeter_pose), the whole-clip run without contacts and with
 * contact IK (ak_retarget_run). Medians of repeated runs. */
#include "harness.h"
#include "animkit/animkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct job {
    ak_retarget_params p;
    ak_retargeter *rt;
    ak_xform *src_local, *dst_local;
    int32_t frames;
} job;

static void run_pose(void *arg)
{
    job *j = (job *)arg;
    for (int32_t f = 0; f < j->frames; ++f) {
        ak_clip_frame(j->p.source_clip, j->p.source, f, j->src_local);
        ak_retargeter_pose(j->rt, j->src_local, j->dst_local);
    }
    akb_sink(j->dst_local, sizeof(ak_xform));
}

static void run_clip(void *arg)
{
    job *j = (job *)arg;
    ak_clip *out = NULL;
    if (ak_retarget_run(&j->p, &out, NULL, NULL) == AK_OK)
        akb_sink(out->rotations, sizeof(ak_quat));
    ak_clip_destroy(out);
}

/* Sampling alone, to subtract from the per-frame figure. */
static void run_sample(void *arg)
{
    job *j = (job *)arg;
    for (int32_t f = 0; f < j->frames; ++f)
        ak_clip_frame(j->p.source_clip, j->p.source, f, j->src_local);
    akb_sink(j->src_local, sizeof(ak_xform));
}

static void bench_pair(const char *name, const ak_skeleton *src, const ak_clip *clip,
                       const ak_skeleton *dst)
{
    job j;
    memset(&j, 0, sizeof j);
    j.p = ak_retarget_defaults();
    j.p.source = src;
    j.p.source_clip = clip;
    j.p.target = dst;
    j.frames = clip->frame_count;
    if (ak_retargeter_create(&j.p, &j.rt, NULL) != AK_OK) return;
    j.src_local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)src->joint_count);
    j.dst_local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)dst->joint_count);
    const double per = (double)j.frames * (double)dst->joint_count;
    const double sample = akb_median_seconds(run_sample, &j, 31);
    const double pose = akb_median_seconds(run_pose, &j, 31) - sample;
    j.p.contacts = 0;
    const double plain = akb_median_seconds(run_clip, &j, 11);
    j.p.contacts = 1;
    const double contacts = akb_median_seconds(run_clip, &j, 11);
    printf(
        "%-22s %3d -> %3d joints, %4d frames | live pose %6.1f ns/joint/frame (%5.2f us/frame) | "
        "clip run %6.1f ns/joint/frame, with contact IK %6.1f ns/joint/frame (%.2f ms/clip)\n",
        name, (int)src->joint_count, (int)dst->joint_count, (int)j.frames, 1e9 * pose / per,
        1e6 * pose / j.frames, 1e9 * plain / per, 1e9 * contacts / per, 1e3 * contacts);
    free(j.src_local);
    free(j.dst_local);
    ak_retargeter_destroy(j.rt);
}

int main(int argc, char **argv)
{
    char path[1024], other[1024];
    const char *dir = getenv("AK_MOCAP_DIR");
    snprintf(path, sizeof path, "%s/cmu_02_01_walk.bvh", dir ? dir : "tests/data/mocap");
    snprintf(other, sizeof other, "%s/arena_louise_stand_walk_cycle.bvh",
             dir ? dir : "tests/data/mocap");
    if (argc >= 2) snprintf(path, sizeof path, "%s", argv[1]);
    ak_skeleton *cmu = NULL, *louise = NULL, *biped = NULL;
    ak_clip *clip = NULL, *louise_clip = NULL, *walk = NULL;
    if (ak_bvh_read_file(path, NULL, &cmu, &clip, NULL) != AK_OK ||
        ak_bvh_read_file(other, NULL, &louise, &louise_clip, NULL) != AK_OK) {
        printf("retarget bench skipped: %s or %s not readable (set AK_MOCAP_DIR)\n", path, other);
        return 0;
    }
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    ak_walk_clip_create(&wp, &biped, &walk, NULL);
    bench_pair("cmu walk -> biped", cmu, clip, biped);
    bench_pair("cmu walk -> louise", cmu, clip, louise);
    bench_pair("cmu walk -> cmu", cmu, clip, cmu);
    ak_skeleton_destroy(cmu);
    ak_skeleton_destroy(louise);
    ak_skeleton_destroy(biped);
    ak_clip_destroy(clip);
    ak_clip_destroy(louise_clip);
    ak_clip_destroy(walk);
    return 0;
}
