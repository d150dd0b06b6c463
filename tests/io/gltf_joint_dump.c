/* Prints the model-space joints of every animation of a glTF/GLB file at 50 evenly spaced
 * times (0 .. the animation's last key) as animkit reads them, for three_joints.mjs to
 * compare with three.js. The clip is read at 49 / duration fps so the 50 times are its
 * frames: what is compared is the reader (channels, interpolation, node transforms), not
 * sampling between frames (tested in tests/anim).
 *   gltf_joint_dump MODEL  ->  "size S" then "anim,sample,time,node,px,py,pz,xx,xy,xz,yx,yy,yz"
 * (x and y: the joint's rotated X and Y axes). Exit 1 on a read error.
 * When the file has a skinned triangle mesh (ak_gltf_read_mesh_file: nodes in file order,
 * their triangle primitives in order), a line "skin K" follows the joints of sample 0 and
 * every 7th sample and the last also print every vertex of that mesh skinned by LBS
 * (ak_skin_run from the joints above): "v,anim,sample,index,x,y,z". */
#include "animkit/animkit.h"

#include <stdio.h>
#include <stdlib.h>

/* LBS of the file's skinned mesh (skin `skin`) at the model pose `world`. */
static void dump_vertices(const char *path, int32_t skin, const int32_t *nodes, int32_t n,
                          const ak_xform *world, int32_t anim, int sample)
{
    ak_gltf_mesh_params mp = ak_gltf_mesh_defaults();
    mp.skin = skin;
    mp.joint_node = nodes;
    mp.joint_count = n;
    ak_body_mesh *m = NULL;
    ak_error err;
    if (skin < 0 || ak_gltf_read_mesh_file(path, &mp, &m, &err) != AK_OK) return;
    float *out = (float *)malloc(sizeof(float) * 3 * (size_t)m->vertex_count);
    ak_skin_joint *pal = (ak_skin_joint *)malloc(sizeof(ak_skin_joint) * (size_t)n);
    ak_skin_params p = ak_skin_defaults();
    p.joint_count = n, p.model_pose = world, p.inverse_bind = m->inverse_bind, p.palette = pal;
    p.vertex_count = m->vertex_count, p.joints = m->joints, p.weights = m->weights;
    p.positions = m->positions, p.out_positions = out;
    if (!out || !pal || ak_skin_run(&p, &err) != AK_OK) {
        fprintf(stderr, "%s: skinning failed: %s\n", path, out && pal ? err.message : "memory");
        exit(1);
    }
    if (sample == 0) printf("skin %d\n", (int)skin);
    for (int32_t v = 0; v < m->vertex_count; ++v)
        printf("v,%d,%d,%d,%.9g,%.9g,%.9g\n", (int)anim, sample, (int)v, out[3 * v], out[3 * v + 1],
               out[3 * v + 2]);
    free(out);
    free(pal);
    ak_body_mesh_destroy(m);
}

static int dump(const char *path, int32_t anim, int32_t *count)
{
    ak_gltf_clip_params p = ak_gltf_clip_defaults();
    p.animation = anim;
    ak_gltf_clip_info info = {0};
    int32_t nodes[1024];
    info.joint_node = nodes;
    info.joint_node_capacity = 1024;
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    ak_error err;
    if (ak_gltf_read_clip_file(path, &p, &sk, &clip, &info, &err) != AK_OK) {
        fprintf(stderr, "%s:%d: %s\n", path, (int)err.line, err.message);
        return 1;
    }
    *count = info.animation_count;
    const float duration = info.duration;
    ak_skeleton_destroy(sk);
    ak_clip_destroy(clip);
    p.fps = duration > 0.0f ? 49.0f / duration : 30.0f;
    if (ak_gltf_read_clip_file(path, &p, &sk, &clip, &info, &err) != AK_OK) return 1;
    const int32_t n = sk->joint_count;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)n);
    ak_xform *world = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)n);
    if (anim == 0) { /* model size: the diagonal of the rest joints' box */
        ak_pose_rest(sk, local);
        ak_fk(sk, local, world);
        float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
        for (int32_t j = 0; j < n; ++j) {
            const float v[3] = {world[j].translation.x, world[j].translation.y,
                                world[j].translation.z};
            for (int k = 0; k < 3; ++k)
                lo[k] = v[k] < lo[k] ? v[k] : lo[k], hi[k] = v[k] > hi[k] ? v[k] : hi[k];
        }
        printf("size %.9g\n",
               ak_vec3_length(ak_vec3_make(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])));
    }
    const int samples = duration > 0.0f ? 50 : 1;
    for (int s = 0; s < samples; ++s) {
        ak_clip_frame(clip, sk, s < clip->frame_count ? s : clip->frame_count - 1, local);
        ak_fk(sk, local, world);
        for (int32_t j = 0; j < n; ++j) {
            const ak_vec3 x = ak_quat_rotate(world[j].rotation, ak_vec3_make(1, 0, 0));
            const ak_vec3 y = ak_quat_rotate(world[j].rotation, ak_vec3_make(0, 1, 0));
            printf("%d,%d,%.9g,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", (int)anim, s,
                   (double)duration * s / 49.0, (int)nodes[j], world[j].translation.x,
                   world[j].translation.y, world[j].translation.z, x.x, x.y, x.z, y.x, y.y, y.z);
        }
        if (s % 7 == 0 || s == samples - 1)
            dump_vertices(path, info.skin, nodes, n, world, anim, s);
    }
    free(local);
    free(world);
    ak_skeleton_destroy(sk);
    ak_clip_destroy(clip);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gltf_joint_dump MODEL.gltf|MODEL.glb\n");
        return 2;
    }
    int32_t count = 1;
    for (int32_t a = 0; a < (count > 0 ? count : 1); ++a)
        if (dump(argv[1], a, &count) != 0) return 1;
    return 0;
}
