/* Test helper: random rigs and vertices for the skinning tests (test_skin.c, test_skin_simd.c):
 * up to MAXJ joints with random model poses and bind poses, up to MAXV vertices with random
 * positions, normals, joints and weights (normalised), and the params that skin them. */
#ifndef AK_TEST_SKIN_RIG_H
#define AK_TEST_SKIN_RIG_H

#include "test_util.h"

#include "animkit/skin.h"

enum { MAXJ = 8, MAXV = 257 };

typedef struct rig {
    int32_t joints;
    ak_xform model[MAXJ];
    float ibm[MAXJ * 16];
    ak_skin_joint palette[MAXJ];
} rig;

static inline void random_rig(akt_rng *r, rig *g, int32_t joints)
{
    g->joints = joints;
    for (int32_t j = 0; j < joints; ++j) {
        g->model[j].rotation = akt_random_quat(r);
        g->model[j].translation =
            ak_vec3_make(akt_uniform(r, -1, 1), akt_uniform(r, -1, 1), akt_uniform(r, -1, 1));
        ak_xform bind = {akt_random_quat(r),
                         {akt_uniform(r, -1, 1), akt_uniform(r, -1, 1), akt_uniform(r, -1, 1)}};
        ak_xform_to_mat4(ak_xform_inverse(bind), g->ibm + 16 * j);
    }
}

typedef struct verts {
    int32_t count, k;
    float pos[MAXV * 3], nrm[MAXV * 3];
    uint16_t joints[MAXV * AK_SKIN_MAX_INFLUENCES];
    float weights[MAXV * AK_SKIN_MAX_INFLUENCES];
} verts;

static inline void random_verts(akt_rng *r, verts *v, int32_t count, int32_t k, int32_t joints)
{
    v->count = count, v->k = k;
    for (int32_t i = 0; i < count * 3; ++i) {
        v->pos[i] = akt_uniform(r, -1, 1);
        v->nrm[i] = akt_uniform(r, -1, 1);
    }
    for (int32_t i = 0; i < count * k; ++i) {
        v->joints[i] = (uint16_t)(akt_next(r) % (uint64_t)joints);
        v->weights[i] = akt_uniform(r, 0.0f, 1.0f);
    }
    ak_skin_normalize_weights(v->weights, count, k);
}

static inline ak_skin_params params_for(rig *g, verts *v, int32_t method, float *out_p,
                                        float *out_n)
{
    ak_skin_params p = ak_skin_defaults();
    p.method = method;
    p.joint_count = g->joints;
    p.model_pose = g->model;
    p.inverse_bind = g->ibm;
    p.palette = g->palette;
    p.vertex_count = v->count;
    p.influences = v->k;
    p.joints = v->joints;
    p.weights = v->weights;
    p.positions = v->pos;
    p.normals = v->nrm;
    p.out_positions = out_p;
    p.out_normals = out_n;
    return p;
}

#endif
