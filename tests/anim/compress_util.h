/* Test helper: the shipped captures loaded for the compressed-clip tests (test_compress.c,
 * test_compress_sample.c), and ACL's error measure between two transforms. */
#ifndef AK_TEST_COMPRESS_UTIL_H
#define AK_TEST_COMPRESS_UTIL_H

#include "test_util.h"
#include "anim/compress_internal.h"

static inline void akt_load_bvh(const char *name, ak_skeleton **s, ak_clip **c, float *mpu)
{
    char path[1024];
    ak_error err;
    akt_mocap_path(name, path, sizeof path);
    if (ak_bvh_read_file(path, NULL, s, c, &err) != AK_OK)
        fail_msg("%s:%d: %s", name, err.line, err.message);
    *mpu = 0.0f;
    ak_units_detect(ak_clip_standing_height(*c, *s), mpu);
    assert_true(*mpu > 0.0f);
}

/* ACL's measure: distance between the two transforms' images of the joint and of the points
 * `shell` along its x, y and z axes (NaN where either transform has one). */
static inline double akt_point_error(ak_xform a, ak_xform b, float shell)
{
    double worst = 0.0;
    for (int k = 0; k < 4; ++k) {
        ak_vec3 p = {0.0f, 0.0f, 0.0f};
        if (k > 0) (&p.x)[k - 1] = shell;
        const ak_vec3 pa = ak_xform_point(a, p), pb = ak_xform_point(b, p);
        const double dx = (double)pa.x - pb.x, dy = (double)pa.y - pb.y, dz = (double)pa.z - pb.z;
        const double d = sqrt(dx * dx + dy * dy + dz * dz);
        worst = d > worst || d != d ? d : worst; /* NaN stays NaN: no bound passes it */
    }
    return worst;
}

/* A shipped capture compressed under the default tolerance, in the metres its units give. */
static inline ak_compressed_clip *akt_compress_capture(const char *name, ak_skeleton **s,
                                                       ak_clip **c, float *mpu)
{
    akt_load_bvh(name, s, c, mpu);
    ak_compress_params p = ak_compress_defaults();
    p.metres_per_unit = *mpu;
    ak_compressed_clip *cc = NULL;
    ak_error err;
    if (ak_compress_run(*c, *s, &p, &cc, &err) != AK_OK) fail_msg("%s: %s", name, err.message);
    return cc;
}

#endif
