/* Writes glTF exports for the validator test: a built fixture plus every .bvh in MOCAP_DIR,
 * each as NAME.gltf (LINEAR, embedded buffer) and NAME_cubic.glb (CUBICSPLINE, binary), in
 * metres from the detected units. Usage: gltf_export_all OUT_DIR MOCAP_DIR. Exit 0 when
 * every export was written. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "animkit/animkit.h"

static int export_pair(const char *out_dir, const char *stem, const ak_skeleton *s,
                       const ak_clip *c)
{
    float mpu;
    ak_units_detect(ak_skeleton_rest_height(s), &mpu);
    char path[2048];
    ak_error err;
    ak_gltf_params o = ak_gltf_defaults();
    o.metres_per_unit = mpu;
    snprintf(path, sizeof path, "%s/%s.gltf", out_dir, stem);
    if (ak_gltf_write_file(path, s, c, &o, &err) != AK_OK) {
        fprintf(stderr, "%s: %s\n", path, err.message);
        return 1;
    }
    printf("%s\n", path);
    o.cubic = 1;
    snprintf(path, sizeof path, "%s/%s_cubic.glb", out_dir, stem);
    if (ak_gltf_write_file(path, s, c, &o, &err) != AK_OK) {
        fprintf(stderr, "%s: %s\n", path, err.message);
        return 1;
    }
    printf("%s\n", path);
    return 0;
}

/* Two roots (so the export adds a common root), a zero-length bone and one frame. */
static int export_fixture(const char *out_dir)
{
    const char *names[4] = {"a", "a_tip", "b", "b_same"};
    int32_t parents[4] = {-1, 0, -1, 2};
    ak_xform rest[4];
    for (int j = 0; j < 4; ++j)
        rest[j] = ak_xform_identity();
    rest[0].translation = ak_vec3_make(0, 1, 0);
    rest[1].translation = ak_vec3_make(0, 0.5f, 0);
    rest[2].translation = ak_vec3_make(1, 1, 0);
    ak_skeleton_desc d = {4, names, parents, rest, NULL, NULL};
    ak_skeleton *s;
    ak_clip *c;
    if (ak_skeleton_create(&d, &s, NULL) != AK_OK ||
        ak_clip_create(4, 1, 1.0f / 30, NULL, &c, NULL) != AK_OK)
        return 1;
    int rc = export_pair(out_dir, "fixture_two_roots", s, c);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
    /* An animated chain in centimetres: 3 joints + tip, 20 frames, root translating. */
    const char *cnames[4] = {"root", "mid", "end", "end_end"};
    int32_t cparents[4] = {-1, 0, 1, 2};
    for (int j = 0; j < 4; ++j)
        rest[j].translation = ak_vec3_make(0, j ? 40.0f : 100.0f, j == 2 ? 5.0f : 0.0f);
    ak_skeleton_desc cd = {4, cnames, cparents, rest, NULL, NULL};
    if (ak_skeleton_create(&cd, &s, NULL) != AK_OK ||
        ak_clip_create(4, 20, 1.0f / 30, NULL, &c, NULL) != AK_OK)
        return 1;
    for (int f = 0; f < 20; ++f) {
        for (int j = 0; j < 4; ++j) {
            ak_vec3 e = {0.6f * sinf(0.3f * (float)(f + j)), 0.5f * cosf(0.2f * (float)f),
                         0.1f * (float)j};
            c->rotations[f * 4 + j] = ak_quat_from_euler(e, AK_ORDER_ZYX);
        }
        c->translations[f] = ak_vec3_make(3.0f * (float)f, 100.0f, 0.0f);
    }
    ak_clip_finalize(c);
    rc |= export_pair(out_dir, "fixture_chain", s, c);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gltf_export_all OUT_DIR MOCAP_DIR\n");
        return 2;
    }
    int rc = export_fixture(argv[1]);
    DIR *dir = opendir(argv[2]);
    if (!dir) {
        fprintf(stderr, "cannot open %s\n", argv[2]);
        return 1;
    }
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".bvh") != 0) continue;
        char path[2048], stem[512];
        snprintf(path, sizeof path, "%s/%s", argv[2], e->d_name);
        snprintf(stem, sizeof stem, "%.*s", (int)(len - 4), e->d_name);
        ak_skeleton *s;
        ak_clip *c;
        ak_error err;
        int32_t st = ak_bvh_read_file(path, NULL, &s, &c, &err);
        if (st != AK_OK) {
            fprintf(stderr, "%s: %s\n", path, err.message);
            rc = 1;
            continue;
        }
        rc |= export_pair(argv[1], stem, s, c);
        ak_clip_destroy(c);
        ak_skeleton_destroy(s);
    }
    closedir(dir);
    return rc;
}
