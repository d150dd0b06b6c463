/* Helpers shared by the BVH tests: the mocap folder, whole-file reads, reference CSVs,
 * and a world-position comparison of two skeleton+clip pairs. */
#ifndef AK_TESTS_IO_BVH_TEST_UTIL_H
#define AK_TESTS_IO_BVH_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "animkit/animkit.h"

/* $AK_MOCAP_DIR (CTest sets it to tests/data/mocap), or a clear failure. */
static inline const char *mocap_dir(void)
{
    const char *d = getenv("AK_MOCAP_DIR");
    if (!d || !*d) fail_msg("AK_MOCAP_DIR is not set: point it at tests/data/mocap");
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/PROVENANCE.md", d);
    FILE *f = fopen(probe, "rb");
    if (!f) fail_msg("mocap folder '%s' is missing (no PROVENANCE.md): set AK_MOCAP_DIR", d);
    fclose(f);
    return d;
}

static inline char *mocap_path(const char *name)
{
    static char buf[4][1024];
    static int slot = 0;
    slot = (slot + 1) & 3;
    snprintf(buf[slot], sizeof buf[slot], "%s/%s", mocap_dir(), name);
    return buf[slot];
}

/* $AK_SOURCE_DIR/tests/io/data/NAME */
static inline char *data_path(const char *name)
{
    static char buf[4][1024];
    static int slot = 0;
    const char *src = getenv("AK_SOURCE_DIR");
    if (!src) fail_msg("AK_SOURCE_DIR is not set (run through ctest)");
    slot = (slot + 1) & 3;
    snprintf(buf[slot], sizeof buf[slot], "%s/tests/io/data/%s", src, name);
    return buf[slot];
}

static inline char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *d = (char *)malloc((size_t)n + 1);
    assert_non_null(d);
    assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
    d[n] = '\0';
    fclose(f);
    if (size) *size = (size_t)n;
    return d;
}

static inline void read_text_ok(const char *text, ak_skeleton **s, ak_clip **c)
{
    ak_error err;
    int32_t st = ak_bvh_read_memory(text, strlen(text), NULL, s, c, &err);
    if (st != AK_OK) fail_msg("read failed: line %d: %s", (int)err.line, err.message);
}

/* World positions of every joint of frame f: out[j]. */
static inline void world_positions(const ak_skeleton *s, const ak_clip *c, int32_t f, ak_vec3 *out)
{
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    ak_xform *world = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    ak_clip_frame(c, s, f, local);
    ak_fk(s, local, world);
    for (int32_t j = 0; j < s->joint_count; ++j)
        out[j] = world[j].translation;
    free(local);
    free(world);
}

/* Largest world-position distance between two readings of the same motion, over every
 * frame and joint (joints matched by index; counts must agree). */
static inline double max_world_distance(const ak_skeleton *sa, const ak_clip *ca,
                                        const ak_skeleton *sb, const ak_clip *cb)
{
    assert_int_equal(sa->joint_count, sb->joint_count);
    assert_int_equal(ca->frame_count, cb->frame_count);
    ak_vec3 *pa = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)sa->joint_count);
    ak_vec3 *pb = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)sa->joint_count);
    double worst = 0.0;
    for (int32_t f = 0; f < ca->frame_count; ++f) {
        world_positions(sa, ca, f, pa);
        world_positions(sb, cb, f, pb);
        for (int32_t j = 0; j < sa->joint_count; ++j) {
            double dx = pa[j].x - pb[j].x, dy = pa[j].y - pb[j].y, dz = pa[j].z - pb[j].z;
            double d = sqrt(dx * dx + dy * dy + dz * dz);
            if (d > worst || d != d) worst = d != d ? INFINITY : d;
        }
    }
    free(pa);
    free(pb);
    return worst;
}

/* Standing height of a clip: the larger of the rest height and frame 0's pose height
 * (some rigs rest in an odd pose). */
static inline double standing_height(const ak_skeleton *s, const ak_clip *c)
{
    double h = ak_skeleton_rest_height(s);
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    ak_xform *world = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    ak_clip_frame(c, s, 0, local);
    ak_fk(s, local, world);
    double h0 = ak_pose_height(world, s->joint_count);
    free(local);
    free(world);
    return h0 > h ? h0 : h;
}

#endif
