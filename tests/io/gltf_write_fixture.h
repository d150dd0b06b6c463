/* Test helper: the glTF writer's parts (gltf_buffers.c, gltf_json.c) run on a small rig, as
 * gltf.c runs them, for test_gltf_buffers.c and test_gltf_json.c.
 *
 * The rig: "hip" (root, rest (0, 1, 0)) > "knee" (rest (0, -0.5, 0), turned 90 degrees about
 * +X) > "knee_end" (End Site, (0, 0, 0.25)), and a second root "prop" at (1, 0, 0), so the
 * writer adds a common root node. The clip: 3 frames 0.5 s apart; hip translation track
 * (1, 2, 3), (2, 2, 3), (4, 2, 3); hip turning 0.3 rad about +Y per frame; knee keys twice the
 * unit quaternion (the writer normalises). */
#ifndef AK_TEST_GLTF_WRITE_FIXTURE_H
#define AK_TEST_GLTF_WRITE_FIXTURE_H

#include "test_util.h"
#include "io/gltf_internal.h"

static inline void akt_gltf_rig(ak_skeleton **s, ak_clip **c)
{
    const char *names[] = {"hip", "knee", "knee_end", "prop"};
    const int32_t parents[] = {-1, 0, 1, -1};
    const uint8_t end_site[] = {0, 0, 1, 0};
    ak_xform rest[4];
    for (int j = 0; j < 4; ++j)
        rest[j] = ak_xform_identity();
    rest[0].translation = ak_vec3_make(0, 1, 0);
    rest[1].translation = ak_vec3_make(0, -0.5f, 0);
    rest[1].rotation = ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), 1.5707963f);
    rest[2].translation = ak_vec3_make(0, 0, 0.25f);
    rest[3].translation = ak_vec3_make(1, 0, 0);
    ak_skeleton_desc desc = {4, names, parents, rest, NULL, end_site};
    assert_int_equal(ak_skeleton_create(&desc, s, NULL), AK_OK);
    const uint8_t has_tr[] = {1, 0, 0, 0};
    assert_int_equal(ak_clip_create(4, 3, 0.5f, has_tr, c, NULL), AK_OK);
    const float x[3] = {1, 2, 4};
    for (int32_t f = 0; f < 3; ++f) {
        ak_quat *q = (*c)->rotations + 4 * f;
        q[0] = ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), 0.3f * (float)f);
        q[1] = rest[1].rotation;
        q[1].x *= 2, q[1].y *= 2, q[1].z *= 2, q[1].w *= 2;
        q[2] = q[3] = ak_quat_identity();
        (*c)->translations[f] = ak_vec3_make(x[f], 2, 3);
    }
    ak_clip_finalize(*c);
}

/* As gltf.c: the rest pose in metres (rest_m) and its model-space transforms (model_m), then
 * the buffers into *d (calloc'ed; free d->bin.data and d). */
static inline int32_t akt_gltf_buffers(const ak_skeleton *s, const ak_clip *c,
                                       const ak_gltf_params *o, akio_gltf_doc **d, ak_xform *rest_m,
                                       ak_xform *model_m, ak_error *err)
{
    for (int32_t j = 0; j < s->joint_count; ++j) {
        rest_m[j] = s->rest_local[j];
        rest_m[j].rotation = ak_quat_normalize(rest_m[j].rotation);
        rest_m[j].translation = ak_vec3_scale(rest_m[j].translation, o->metres_per_unit);
    }
    ak_fk(s, rest_m, model_m);
    *d = (akio_gltf_doc *)calloc(1, sizeof **d);
    assert_non_null(*d);
    return akio_gltf_write_buffers(*d, s, c, o, model_m, err);
}

static inline void akt_gltf_free(akio_gltf_doc *d)
{
    if (d) free(d->bin.data);
    free(d);
}

/* The rig and what the writer's buffers made of it. */
typedef struct akt_gltf_case {
    ak_skeleton *s;
    ak_clip *c;
    akio_gltf_doc *d;
    ak_xform rest_m[4], model_m[4];
} akt_gltf_case;

static inline void akt_gltf_case_open(akt_gltf_case *k)
{
    memset(k, 0, sizeof *k);
    akt_gltf_rig(&k->s, &k->c);
}

/* The buffers of k's rig and `clip` (k->c, or NULL for none) under o, replacing k->d. */
static inline akio_gltf_doc *akt_gltf_case_write(akt_gltf_case *k, const ak_gltf_params *o,
                                                 const ak_clip *clip)
{
    akt_gltf_free(k->d);
    k->d = NULL;
    ak_error err;
    if (akt_gltf_buffers(k->s, clip, o, &k->d, k->rest_m, k->model_m, &err) != AK_OK)
        fail_msg("%s", err.message);
    return k->d;
}

static inline void akt_gltf_case_close(akt_gltf_case *k)
{
    akt_gltf_free(k->d);
    ak_skeleton_destroy(k->s);
    ak_clip_destroy(k->c);
}

#endif
