/* Writes what three.js needs to skin animkit's generated body itself, and animkit's own LBS
 * result, as JSON for skin_three.mjs: the rig's local pose at a clip frame (metres), the
 * body's inverse binds, vertices, joints, weights, and ak_skin_run's positions.
 * Usage: skin_three_dump OUT.json [FILE.bvh FRAME]... (no file: the built-in walk, frame 17). */
#include <stdio.h>
#include <stdlib.h>

#include "animkit/animkit.h"
#include "animkit/walkclip.h"

static void floats(FILE *f, const char *name, const float *v, size_t n, int last)
{
    fprintf(f, "\"%s\":[", name);
    for (size_t i = 0; i < n; ++i)
        fprintf(f, "%s%.9g", i ? "," : "", (double)v[i]);
    fprintf(f, "]%s", last ? "" : ",");
}

/* One case: the rig at `frame` of `clip` scaled to metres by `mpu`. */
static int dump_case(FILE *f, const char *label, ak_skeleton *sk, const ak_clip *clip, int frame,
                     float mpu)
{
    const int32_t n = sk->joint_count;
    ak_body_mesh *m = NULL;
    if (ak_body_mesh_create(sk, NULL, &m, NULL) != AK_OK) return -1;
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n),
             *model = malloc(sizeof(ak_xform) * (size_t)n);
    float *ibm = malloc(sizeof(float) * 16 * (size_t)n),
          *pos = malloc(sizeof(float) * 3 * (size_t)m->vertex_count);
    float *out = malloc(sizeof(float) * 3 * (size_t)m->vertex_count);
    ak_skin_joint *pal = malloc(sizeof(ak_skin_joint) * (size_t)n);
    ak_clip_sample(clip, sk, (float)frame * clip->frame_time, AK_INTERP_LINEAR, local);
    for (int32_t j = 0; j < n; ++j)
        local[j].translation = ak_vec3_scale(local[j].translation, mpu);
    ak_fk(sk, local, model);
    for (int32_t j = 0; j < 16 * n; ++j)
        ibm[j] = m->inverse_bind[j] * ((j % 16 >= 12 && j % 16 < 15) ? mpu : 1.0f);
    for (int32_t i = 0; i < 3 * m->vertex_count; ++i)
        pos[i] = m->positions[i] * mpu;
    ak_skin_params p = ak_skin_defaults();
    p.joint_count = n, p.model_pose = model, p.inverse_bind = ibm, p.palette = pal;
    p.vertex_count = m->vertex_count, p.joints = m->joints, p.weights = m->weights;
    p.positions = pos, p.out_positions = out;
    ak_error err;
    if (ak_skin_run(&p, &err) != AK_OK) return -1;
    fprintf(f, "{\"label\":\"%s\",\"parents\":[", label);
    for (int32_t j = 0; j < n; ++j)
        fprintf(f, "%s%d", j ? "," : "", (int)sk->parents[j]);
    fprintf(f, "],");
    floats(f, "local", (const float *)local, (size_t)n * 7, 0);
    floats(f, "inverse_bind", ibm, (size_t)n * 16, 0);
    floats(f, "positions", pos, (size_t)m->vertex_count * 3, 0);
    fprintf(f, "\"joints\":[");
    for (int32_t i = 0; i < 4 * m->vertex_count; ++i)
        fprintf(f, "%s%u", i ? "," : "", (unsigned)m->joints[i]);
    fprintf(f, "],");
    floats(f, "weights", m->weights, (size_t)m->vertex_count * 4, 0);
    floats(f, "animkit", out, (size_t)m->vertex_count * 3, 1);
    fprintf(f, "}");
    free(local), free(model), free(ibm), free(pos), free(out), free(pal);
    ak_body_mesh_destroy(m);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    FILE *f = fopen(argv[1], "w");
    if (!f) return 1;
    fprintf(f, "[");
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    if (ak_walk_clip_create(&wp, &sk, &clip, NULL) != AK_OK ||
        dump_case(f, "biped", sk, clip, 17, 1.0f))
        return 1;
    ak_clip_destroy(clip), ak_skeleton_destroy(sk);
    for (int i = 2; i + 1 < argc; i += 2) {
        ak_error err;
        if (ak_bvh_read_file(argv[i], NULL, &sk, &clip, &err) != AK_OK) {
            fprintf(stderr, "%s: %s\n", argv[i], err.message);
            return 1;
        }
        float mpu;
        ak_units_detect(ak_skeleton_rest_height(sk), &mpu);
        fprintf(f, ",");
        if (dump_case(f, argv[i], sk, clip, atoi(argv[i + 1]), mpu)) return 1;
        ak_clip_destroy(clip), ak_skeleton_destroy(sk);
    }
    fprintf(f, "]\n");
    return fclose(f) == 0 ? 0 : 1;
}
