/* animkit — skinning: a mesh bound to a skeleton follows a model pose, by linear blend
 * skinning (LBS) or dual-quaternion skinning (DQS); and a generated body mesh for any rig.
 *
 *     ak_skin_params p = ak_skin_defaults();
 *     p.joint_count = n; p.model_pose = model; p.inverse_bind = ibm; p.palette = palette;
 *     p.vertex_count = v; p.influences = 4; p.joints = joints; p.weights = weights;
 *     p.positions = rest_xyz; p.out_positions = skinned_xyz;
 *     if (ak_skin_run(&p, &err) < 0) ...;
 *
 * Spaces: the mesh is given in bind space (where the inverse bind matrices take it to each
 * joint's own frame); the output is in the model space of `model_pose` (the space ak_fk
 * writes). Each joint's skinning transform is S_j = model_pose[j] * inverse_bind[j].
 *   LBS:  p' = sum_i w_i S_{j_i} p,  n' = normalize(sum_i w_i L_{j_i} n)  (L: the 3x3 part).
 *   DQS:  each S_j as a unit dual quaternion (r_j, d_j) with d_j = 1/2 (t_j, 0) r_j;
 *         b = sum_i w_i s_i (r, d)_{j_i}, s_i = sign(r_{j_0} . r_{j_i}) (the antipodality fix:
 *         q and -q are the same rotation, so every influence is blended on the first one's
 *         side of the 4-sphere), then (r, d) = b / |b.r|; p' = r p r* + 2 (d r*).xyz,
 *         n' = r n r*  (Kavan et al., "Skinning with dual quaternions", I3D 2007).
 * DQS treats S_j as rigid: a scale or shear in an inverse bind matrix is dropped (rotation
 * from the orthonormal part, translation kept). LBS uses the full affine S_j.
 * Nothing here allocates except ak_body_mesh_create. */
#ifndef ANIMKIT_SKIN_H
#define ANIMKIT_SKIN_H

#include "clip.h"
#include "skeleton.h"

AK_EXTERN_C_BEGIN

#define AK_SKIN_MAX_INFLUENCES 8

typedef enum ak_skin_method { AK_SKIN_LINEAR = 0, AK_SKIN_DUAL_QUAT = 1 } ak_skin_method;

/* One joint's skinning transform S_j in both forms, as ak_skin_palette writes it (the GPU
 * path uploads the same numbers). `columns` is the affine 3x4 matrix as four columns padded
 * to four floats (c0, c1, c2: the linear part; c3: the translation; every lane 3 is 0). */
typedef struct ak_skin_joint {
    float columns[4][4];
    ak_quat real; /* rotation of S_j (unit, w >= 0) */
    ak_quat dual; /* 1/2 (t, 0) * real */
} ak_skin_joint;

typedef struct ak_skin_params {
    int32_t method;             /* ak_skin_method; default AK_SKIN_LINEAR */
    int32_t joint_count;        /* entries in model_pose, inverse_bind and palette; >= 1 */
    const ak_xform *model_pose; /* joint_count model-space transforms (ak_fk output) */
    const float *inverse_bind;  /* joint_count column-major 4x4 matrices (glTF's layout), bind
                                   space -> joint space; NULL = identity for every joint
                                   (the mesh is then given in each joint's own space) */
    ak_skin_joint *palette;     /* joint_count entries, written by ak_skin_run (scratch that
                                   the caller owns; readable afterwards) */
    int32_t vertex_count;       /* >= 0 */
    int32_t influences;         /* per vertex, 1..AK_SKIN_MAX_INFLUENCES; default 4 */
    const uint16_t *joints;     /* vertex_count * influences joint indices (< joint_count) */
    const float *weights;       /* vertex_count * influences weights: each >= 0, finite, and
                                   each vertex's sum within 1e-3 of 1 (they are used as given) */
    const float *positions;     /* vertex_count * 3 floats (x,y,z), bind space */
    const float *normals;       /* vertex_count * 3 floats, or NULL (no normals out) */
    float *out_positions;       /* vertex_count * 3 floats, model space; must not alias inputs */
    float *out_normals;         /* vertex_count * 3 floats (unit), or NULL; needs normals */
    int32_t use_simd;           /* 1 (default): the widest SIMD path the build and CPU have
                                   (AVX-512, else AVX2 + FMA, chosen at run time, else SSE);
                                   2: the SSE path even where wider ones are there; 3: AVX2 +
                                   FMA at most (the path before AVX-512); 0: the scalar twin.
                                   All give the same numbers within float rounding (2e-6 in
                                   the tests) */
    int32_t check_influences;   /* 1 (default): validate reads every vertex's joints and weights
                                   (a pass over them); 0: a mesh already validated once skips
                                   that pass per frame. The kernels clamp joint indices to the
                                   palette either way, so bad indices never read outside it */
} ak_skin_params;

AK_API ak_skin_params ak_skin_defaults(void);
/* Checks every field, that model_pose and inverse_bind are finite and, when check_influences
 * is 1, every vertex's influences (joint index range, weights >= 0, finite, summing to 1
 * within 1e-3). Returns AK_OK or
 * AK_ERR_INVALID_ARG with the reason (and the vertex) in `err`. O(vertex_count * influences). */
AK_API int32_t ak_skin_validate(const ak_skin_params *params, ak_error *err);
/* Validates, fills params->palette, then skins every vertex. No allocation. */
AK_API int32_t ak_skin_run(const ak_skin_params *params, ak_error *err);
/* Fills palette[0..joint_count) from a model pose and inverse binds (NULL = identity) without
 * skinning anything: what a GPU path uploads. No checks beyond NULL pointers. */
AK_API void ak_skin_palette(const ak_xform *model_pose, const float *inverse_bind,
                            int32_t joint_count, ak_skin_joint *palette);
/* Scales each vertex's `influences` weights so they sum to 1 (a vertex whose weights sum to 0
 * or less gets weight 1 on its first influence and 0 elsewhere). Returns the number of
 * vertices whose sum was off by more than 1e-6. */
AK_API int32_t ak_skin_normalize_weights(float *weights, int32_t vertex_count, int32_t influences);

/* ---- A generated body for any rig ---- */

/* A skinned triangle mesh bound to a pose of a skeleton (its bind pose: the zero pose, or the
 * clip frame `bind_frame`), in the skeleton's units. Four influences per vertex; inverse binds
 * are the inverses of the bind pose's model transforms. */
typedef struct ak_body_mesh {
    int32_t vertex_count;
    int32_t index_count; /* triangles * 3, counter-clockwise seen from outside */
    int32_t joint_count; /* the skeleton's */
    float *positions;    /* vertex_count * 3, rest pose, model space */
    float *normals;      /* vertex_count * 3, unit */
    uint16_t *joints;    /* vertex_count * 4 */
    float *weights;      /* vertex_count * 4, each vertex sums to 1 */
    uint32_t *indices;   /* index_count */
    float *inverse_bind; /* joint_count * 16, column-major */
    int32_t bind_frame;  /* the frame of ak_body_params.clip the body is built on, or -1: the
                            skeleton's zero pose (a mesh read from glTF: -1, its own binds) */
} ak_body_mesh;

typedef struct ak_body_params {
    float thickness; /* scales every limb radius; default 1; must be in (0, 4] */
    int32_t feet;  /* 1: a foot box from heel to toe under each ankle (humanoid rigs); default 1 */
    int32_t sides; /* vertices around each limb; default 12; 4..64 */
    int32_t rings; /* rings along each bone; default 6; 2..64 */
    const ak_clip *clip; /* NULL (default), or a clip of the skeleton: when the zero pose does
                            not stand (a studio's rig with every bone along X), the body is
                            built on the clip's most upright frame, the frame the retargeter
                            takes as its reference (see ak_body_mesh_create) */
} ak_body_params;

AK_API ak_body_params ak_body_defaults(void);
/* AK_OK, or AK_ERR_INVALID_ARG naming the field out of its range (thickness, feet, sides,
 * rings). ak_body_mesh_create validates first. */
AK_API int32_t ak_body_validate(const ak_body_params *params, ak_error *err);
/* The documented range of every float field (status.h), checked by ak_body_validate. */
AK_API const ak_param_table *ak_body_param_ranges(void);
/* Builds a body for a standing pose of `skeleton`: a tube with rounded ends along every bone whose
 * child is not an End Site tip (tips end the limb they sit on), thick where a person is thick
 * when the humanoid map finds the rig (torso, thighs, arms, head), else in proportion to the
 * bone; a box from heel to toe under each ankle. Weights blend smoothly across each joint
 * (half and half at the joint, fading out over a quarter of each bone). The pose is the zero
 * pose when it stands (hips-to-head and hips-to-each-foot within 37 degrees of +Y) or when
 * params->clip is NULL; else the clip's most upright frame (not a T-pose frame 0) with each
 * foot set flat as the clip has it where that foot is lowest, so sizes, facing and soles come
 * from a standing body; mesh->bind_frame says which. `params` may be NULL (the defaults).
 * AK_ERR_INVALID_ARG for bad params (ak_body_validate), a clip of another joint count, a
 * skeleton with no bone, or a pose lying flat (its height under 1 % of its length: a zero pose
 * along X without a clip), AK_ERR_NOMEM. */
AK_API int32_t ak_body_mesh_create(const ak_skeleton *skeleton, const ak_body_params *params,
                                   ak_body_mesh **out, ak_error *err);
AK_API void ak_body_mesh_destroy(ak_body_mesh *mesh);

AK_EXTERN_C_END

#endif
