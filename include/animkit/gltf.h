/* animkit — glTF 2.0 export of a skeleton and clip (nodes, skin, animation), and reading a
 * skin's joint hierarchy back as a rig.
 *
 * Layout of an exported asset:
 * - one node per joint (End Site tips included), node index == joint index, named after the
 *   joint, carrying the rest pose as TRS; parents list their children. When the skeleton has
 *   several roots an extra node "animkit_root" (identity) holds them, so the skin has one root.
 * - one skin whose joints are every joint node in joint order; its inverse bind matrices are
 *   the inverses of the rest pose's model-space transforms (metres).
 * - one animation "clip": a rotation channel for every joint and a translation channel for
 *   every joint with a translation track, all sharing one time accessor (frame f at
 *   f * frame_time seconds), LINEAR or CUBICSPLINE (Catmull-Rom tangents, per second).
 * - optionally a mesh on a node at the scene root, skinned by the skin (JOINTS_0/WEIGHTS_0,
 *   the skin's inverseBindMatrices): the generated body of skin.h (ak_body_mesh_create:
 *   limbs, torso, head and feet with weights blended across the joints) on "animkit_body",
 *   or one low-poly capsule per bone skinned rigidly to its parent joint on
 *   "animkit_capsules" (chosen, and used for rigs that get no body).
 * glTF is right-handed, Y up, metres; BVH axes carry over unchanged, lengths are multiplied by
 * metres_per_unit. */
#ifndef ANIMKIT_GLTF_H
#define ANIMKIT_GLTF_H

#include "clip.h"

AK_EXTERN_C_BEGIN

typedef struct ak_gltf_options {
    float metres_per_unit; /* scale applied to translations (1 = keep file units); default 1;
                              must be finite and > 0 */
    int32_t cubic;         /* 1: CUBICSPLINE samplers, 0: LINEAR; default 0 (clips of one
                              frame always use LINEAR: a spline needs two keys) */
    int32_t with_mesh;     /* 0: no mesh; 1: the generated skinned body (default); 2: a capsule per
                              bone */
} ak_gltf_options;

AK_API ak_gltf_options ak_gltf_defaults(void);
/* Checks the options: AK_ERR_INVALID_ARG with the reason in `err` when a field is out of range. */
AK_API int32_t ak_gltf_validate(const ak_gltf_options *options, ak_error *err);
/* Writes OUT.gltf (JSON with embedded base64 buffer) or OUT.glb (binary), chosen by the
 * path's extension (case-insensitive; anything other than .glb writes JSON). `clip` may be
 * NULL for a skeleton without animation; otherwise its joint_count must match. `options`
 * may be NULL for the defaults. Fails with AK_ERR_INVALID_ARG for bad input (non-finite
 * keys included, and values that overflow once scaled by metres_per_unit: JSON has no
 * infinity), AK_ERR_IO when the file cannot be written. Numbers use '.' in every C locale;
 * names are written as UTF-8. The file (UTF-8 path) is replaced atomically: on failure the
 * old one is left whole. */
AK_API int32_t ak_gltf_write_file(const char *path, const ak_skeleton *skeleton,
                                  const ak_clip *clip, const ak_gltf_options *options,
                                  ak_error *err);
/* Same, into a malloc'ed buffer the caller frees with ak_free (bvh.h). `binary` 1 writes GLB
 * bytes, 0 writes .gltf JSON text (NUL-terminated; *out_size excludes the NUL). */
AK_API int32_t ak_gltf_write_memory(const ak_skeleton *skeleton, const ak_clip *clip,
                                    const ak_gltf_options *options, int32_t binary,
                                    uint8_t **out_data, size_t *out_size, ak_error *err);

/* ---- Reading a rig (skin) from glTF 2.0 ---- */

/* Reads the joint hierarchy of a skin from OUT.gltf (JSON; buffers embedded as data: URIs or
 * in files beside it) or .glb (binary, chosen by the magic bytes): one joint per skin joint
 * plus the nodes above them up to a common root, depth-first (parents first), named after
 * the nodes (a node without a name becomes "node<N>"). The rest pose is the bind pose: each
 * skin joint's world transform is the skinned mesh node's world transform (identity when no
 * mesh uses the skin) times the inverse of its inverse bind matrix; joints outside the skin
 * and skins without inverse bind matrices use the nodes' own TRS/matrix. Scale is baked into
 * translations (scene units, metres for conforming files); rotations are orthonormalised.
 * `skin` picks the skin (0 for the first). On success *out is a new skeleton (no End Sites,
 * 3 rotation channels per joint, 6 on the root). Errors: AK_ERR_IO, AK_ERR_PARSE (with a
 * JSON line), AK_ERR_NOT_FOUND (no such skin), AK_ERR_LIMIT (over 1024 joints or 512 MiB),
 * AK_ERR_INVALID_ARG (bad references, non-finite numbers). */
AK_API int32_t ak_gltf_read_skin_file(const char *path, int32_t skin, ak_skeleton **out,
                                      ak_error *err);
/* Same from `size` bytes in memory (JSON text or GLB); external buffer files are not
 * available here (`base_dir` may be NULL, else the folder relative URIs are resolved in). */
AK_API int32_t ak_gltf_read_skin_memory(const uint8_t *data, size_t size, const char *base_dir,
                                        int32_t skin, ak_skeleton **out, ak_error *err);

AK_EXTERN_C_END

#endif
