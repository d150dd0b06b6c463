/* animkit — glTF 2.0 export of a skeleton and clip (nodes, skin, animation), and reading a
 * skin's joint hierarchy back as a rig.
 *
 * Layout of an exported asset:
 * - one node per joint (End Site tips included), node index == joint index, named after the
 *   joint, carrying the rest pose as TRS; parents list their children. When the skeleton has
 *   several roots an extra node "animkit_root" (identity) holds them, so the skin has one root.
 * - one skin whose joints are every joint node in joint order; its inverse bind matrices are
 *   the inverses of the rest pose's model-space transforms (metres), or of the pose the body
 *   is built on when the rest pose does not stand (ak_body_params.clip: a standing frame of
 *   the clip, e.g. for a rig whose zero pose lies along X).
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
#include "skin.h"

AK_EXTERN_C_BEGIN

typedef struct ak_gltf_params {
    float metres_per_unit; /* scale applied to translations (1 = keep file units); default 1;
                              must be finite and > 0 */
    int32_t cubic;         /* 1: CUBICSPLINE samplers, 0: LINEAR; default 0 (clips of one
                              frame always use LINEAR: a spline needs two keys) */
    int32_t with_mesh;     /* 0: no mesh; 1: the generated skinned body (default); 2: a capsule per
                              bone */
} ak_gltf_params;

AK_API ak_gltf_params ak_gltf_defaults(void);
/* Checks the options: AK_ERR_INVALID_ARG with the reason in `err` when a field is out of range. */
AK_API int32_t ak_gltf_validate(const ak_gltf_params *options, ak_error *err);
/* The documented range of every float field (status.h), checked by the _validate above. */
AK_API const ak_param_table *ak_gltf_param_ranges(void);
/* Writes OUT.gltf (JSON with embedded base64 buffer) or OUT.glb (binary), chosen by the
 * path's extension (case-insensitive; anything other than .glb writes JSON). `clip` may be
 * NULL for a skeleton without animation; otherwise its joint_count must match. `options`
 * may be NULL for the defaults. Fails with AK_ERR_INVALID_ARG for bad input (non-finite
 * keys included, and values that overflow once scaled by metres_per_unit: JSON has no
 * infinity), AK_ERR_IO when the file cannot be written. Numbers use '.' in every C locale;
 * names are written as UTF-8. The file (UTF-8 path) is replaced atomically: on failure the
 * old one is left whole. */
AK_API int32_t ak_gltf_write_file(const char *path, const ak_skeleton *skeleton,
                                  const ak_clip *clip, const ak_gltf_params *options,
                                  ak_error *err);
/* Same, into a malloc'ed buffer the caller frees with ak_free (bvh.h). `binary` 1 writes GLB
 * bytes, 0 writes .gltf JSON text (NUL-terminated; *out_size excludes the NUL). */
AK_API int32_t ak_gltf_write_memory(const ak_skeleton *skeleton, const ak_clip *clip,
                                    const ak_gltf_params *options, int32_t binary,
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

/* ---- Reading an animation clip from glTF 2.0 / GLB ---- */

/* Which animation to read, on which skeleton, at which rate. */
typedef struct ak_gltf_clip_params {
    int32_t animation;          /* index of the animation; default 0; >= 0. Ignored when
                                   animation_name is set */
    const char *animation_name; /* NULL (default) or the exact name of the animation */
    int32_t skin;               /* -1 (default): the skin whose joints the animation moves most
                                   (the first skin when it moves none; the node tree when the
                                   file has no skin); -2: the node tree; >= 0: that skin */
    float fps;                  /* 0 (default): chosen from the key times (below); else frames
                                   per second, (0, 1000] */
    float max_fps;              /* highest rate the automatic choice picks; default 120; 1..1000 */
    int32_t max_frames;         /* limit on the resampled frames; default 1,000,000; >= 1 */
} ak_gltf_clip_params;

/* What the reader found and chose (all fields written by the reader except joint_node and
 * joint_node_capacity, which the caller sets: NULL/0 or a buffer for the node per joint). */
typedef struct ak_gltf_clip_info {
    int32_t animation_count;  /* animations in the file */
    int32_t animation;        /* the one read, -1 when the file has none (one rest frame) */
    char animation_name[64];  /* its name ("" when unnamed), cut to 63 bytes */
    int32_t skin;             /* the skin whose skeleton was used, -1 for the node tree */
    float fps;                /* the clip's rate */
    float duration;           /* the last key time, seconds */
    int32_t keys_on_frames;   /* 1 when every key time lies on a frame (within 2e-4 frame) */
    int32_t channels;         /* channels that move the skeleton */
    int32_t ignored_channels; /* weights channels and channels on nodes outside it */
    int32_t scale_channels;   /* scale channels among `channels` (baked, see below) */
    int32_t *joint_node;      /* in: NULL or joint_node_capacity entries; out: the glTF node
                                 index of each joint (-1 past the last joint) */
    int32_t joint_node_capacity;
} ak_gltf_clip_info;

AK_API ak_gltf_clip_params ak_gltf_clip_defaults(void);
/* AK_ERR_INVALID_ARG with the reason when a field is out of its range. */
AK_API int32_t ak_gltf_clip_validate(const ak_gltf_clip_params *params, ak_error *err);
/* The documented range of every float field (status.h), checked by the _validate above. */
AK_API const ak_param_table *ak_gltf_clip_param_ranges(void);

/* Reads one animation of a .gltf (JSON; buffers as data: URIs or files inside the file's own
 * folder, %XX decoded, never outside it) or .glb (chosen by the magic bytes) as a skeleton
 * and a clip.
 * - Skeleton: a skin's joints plus the nodes above them up to their root, or whole node
 *   trees (see `skin`), depth-first with children in file order, named after the nodes
 *   ("node<N>" for unnamed ones). Its rest pose is the nodes' own transforms (TRS or
 *   matrix), as a viewer shows the file unanimated.
 * - Channels: translation, rotation and scale, STEP / LINEAR (slerp) / CUBICSPLINE (Hermite
 *   with the key interval's tangents), evaluated as the glTF 2.0 specification (appendix C)
 *   and three.js do; outputs of any component type (normalized integers, KHR_mesh_
 *   quantization) and sparse accessors. Before the first key a channel holds its first
 *   value, after the last its last.
 * - Joints are rigid: each joint's model transform is the rigid part of its node's world
 *   matrix (Gram-Schmidt on its axes), so scale (of the nodes or animated) is baked into the
 *   children's translations and joint positions are exact; a joint's own scale is dropped.
 * - Rate: with fps 0, the key times' own spacing when they are evenly spaced, else the
 *   lowest of 24, 25, 30, 48, 50, 60, 72, 90, 100, 120, 144, 240... (up to max_fps) on which
 *   every key lies, else the lowest with a frame in every key interval; a rate under 30 is
 *   raised to its lowest multiple of at least 30 (keys stay on frames, curves between
 *   sparse keys keep their shape) unless it is a capture's: 23.976 fps (NTSC film) or more
 *   with a key on every frame (a 24 or 25 fps clip stays at its rate). Frame f is at f/fps
 *   from time 0 to the last key; keys on frames are reproduced exactly.
 * The clip is not looping; a joint has a translation track when it is a root or its
 * translation moves. `params` and `info` may be NULL. Errors: AK_ERR_IO (file or buffer),
 * AK_ERR_PARSE (JSON or GLB framing, with a line), AK_ERR_NOT_FOUND (no such animation or
 * skin), AK_ERR_LIMIT (over 1024 joints, 512 MiB or max_frames), AK_ERR_INVALID_ARG (bad
 * references, lengths or numbers; the message names the JSON path, the line is set). */
AK_API int32_t ak_gltf_read_clip_file(const char *path, const ak_gltf_clip_params *params,
                                      ak_skeleton **out_skeleton, ak_clip **out_clip,
                                      ak_gltf_clip_info *info, ak_error *err);
/* Same from memory; `base_dir` (may be NULL: no external buffers) is the folder relative
 * buffer URIs resolve in. */
AK_API int32_t ak_gltf_read_clip_memory(const uint8_t *data, size_t size, const char *base_dir,
                                        const ak_gltf_clip_params *params,
                                        ak_skeleton **out_skeleton, ak_clip **out_clip,
                                        ak_gltf_clip_info *info, ak_error *err);

/* ---- Reading a skinned mesh from glTF 2.0 / GLB ---- */

/* Which skin's mesh, bound to which skeleton: the one ak_gltf_read_clip_* built from the same
 * file (its info's `skin` and `joint_node`). */
typedef struct ak_gltf_mesh_params {
    int32_t skin;              /* the skin (ak_gltf_clip_info.skin); default 0; >= 0 */
    const int32_t *joint_node; /* joint_count entries: the glTF node of each skeleton joint
                                  (ak_gltf_clip_info.joint_node); required */
    int32_t joint_count;       /* the skeleton's joints; 1..1024 */
} ak_gltf_mesh_params;

AK_API ak_gltf_mesh_params ak_gltf_mesh_defaults(void);
/* AK_ERR_INVALID_ARG with the reason when a field is out of its range. */
AK_API int32_t ak_gltf_mesh_validate(const ak_gltf_mesh_params *params, ak_error *err);
/* Reads every triangle primitive of every node that draws a mesh with the skin, as one mesh
 * bound to the skeleton: positions (bind space, file units, as the file stores them),
 * normals (computed, area-weighted, when the file has none), JOINTS_0 renumbered from skin
 * joints to skeleton joints, WEIGHTS_0 scaled to sum to 1, indices (0..n-1 when the file has
 * none), and per skeleton joint the skin's inverse bind matrix (identity for joints outside
 * the skin, or every joint when the skin has none). The skinning transform of joint j is then
 * model_pose[j] * inverse_bind[j] (skin.h) with model_pose the clip's FK. Accessors of any
 * component type, normalized or quantized (KHR_mesh_quantization), sparse. On success *out is
 * new (ak_body_mesh_destroy). Errors: AK_ERR_NOT_FOUND (no such skin, no triangle mesh uses
 * it), AK_ERR_INVALID_ARG (a skin joint outside the skeleton, joints or indices out of range,
 * attribute counts that differ; the message names the JSON path, the line is set),
 * AK_ERR_PARSE, AK_ERR_IO, AK_ERR_LIMIT (over 4 Mi vertices or 16 Mi indices). */
AK_API int32_t ak_gltf_read_mesh_memory(const uint8_t *data, size_t size, const char *base_dir,
                                        const ak_gltf_mesh_params *params, ak_body_mesh **out,
                                        ak_error *err);
/* Same from a file (buffers inside its own folder). */
AK_API int32_t ak_gltf_read_mesh_file(const char *path, const ak_gltf_mesh_params *params,
                                      ak_body_mesh **out, ak_error *err);

AK_EXTERN_C_END

#endif
