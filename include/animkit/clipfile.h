/* animkit — one call that reads a skeleton and clip from any file the library reads: BVH,
 * glTF 2.0 (.gltf) and GLB, told apart by their first bytes (then by the extension). Every
 * surface (CLI, viewer, walk scenario, plugin, Python, JS) opens clips through it, so a
 * glTF clip goes wherever a BVH one does.
 *
 * One animation of a glTF file is picked by a "#" after the path: "fox.glb#Run" (by name)
 * or "fox.glb#2" (by index; the first by default). The whole path is tried first, so a file
 * whose name holds a "#" still opens. FBX is not read by the library (it stays libc + libm):
 * the animkit tools read it through assimp where they were built with it. */
#ifndef ANIMKIT_CLIPFILE_H
#define ANIMKIT_CLIPFILE_H

#include "clip.h"
#include "skin.h"

AK_EXTERN_C_BEGIN

typedef enum ak_clip_format {
    AK_FORMAT_UNKNOWN = 0,
    AK_FORMAT_BVH = 1,
    AK_FORMAT_GLTF = 2, /* JSON */
    AK_FORMAT_GLB = 3,  /* binary glTF */
    AK_FORMAT_FBX = 4   /* binary or ASCII FBX (read by the tools, not the library) */
} ak_clip_format;

/* The format of a file from its first bytes (`head`, may be NULL) and, when they say
 * nothing, its name's extension (case-insensitive; `path` may be NULL). */
AK_API ak_clip_format ak_clip_format_detect(const char *path, const uint8_t *head,
                                            size_t head_size);
/* "BVH", "glTF", "GLB", "FBX" or "unknown". */
AK_API const char *ak_clip_format_name(ak_clip_format format);

/* Reads a BVH, glTF or GLB file (see above; glTF with ak_gltf_clip_defaults() and the
 * animation the "#" names). On success both outputs are new objects the caller destroys;
 * on failure both are NULL and `err` has the status, line and reason. An FBX file fails
 * with AK_ERR_INVALID_ARG saying so. */
AK_API int32_t ak_clip_read_file(const char *path, ak_skeleton **out_skeleton, ak_clip **out_clip,
                                 ak_error *err);
/* ak_clip_read_file with a BVH file's up axis given: `up` is an ak_up_axis (clip.h),
 * AK_UP_AUTO measuring it as ak_clip_read_file does, AK_UP_Y keeping the file's axes, AK_UP_Z
 * turning them (ak_bvh_read_params.up). glTF and GLB are Y-up by their specification: `up`
 * does not apply to them. AK_ERR_INVALID_ARG for an `up` out of ak_up_axis. */
AK_API int32_t ak_clip_read_file_up(const char *path, int32_t up, ak_skeleton **out_skeleton,
                                    ak_clip **out_clip, ak_error *err);
/* Same from memory (no external glTF buffers). `animation` is NULL (the first) or a glTF
 * animation's name or index as text. */
AK_API int32_t ak_clip_read_memory(const uint8_t *data, size_t size, const char *animation,
                                   ak_skeleton **out_skeleton, ak_clip **out_clip, ak_error *err);
/* ak_clip_read_memory with a BVH text's up axis given, as ak_clip_read_file_up (the web page's
 * loadClip `up`): AK_ERR_INVALID_ARG for an `up` out of ak_up_axis; glTF and GLB are Y-up. */
AK_API int32_t ak_clip_read_memory_up(const uint8_t *data, size_t size, const char *animation,
                                      int32_t up, ak_skeleton **out_skeleton, ak_clip **out_clip,
                                      ak_error *err);

/* ak_clip_read_file, plus for a glTF/GLB file the triangle mesh its skin draws, bound to the
 * skeleton read (ak_gltf_read_mesh_file): *out_mesh is a new mesh (ak_body_mesh_destroy) or
 * NULL for BVH, a file with no skinned mesh, or a mesh that cannot be read (the clip is still
 * read; `err` then keeps status AK_OK and says why in its message). */
AK_API int32_t ak_clip_read_file_mesh(const char *path, ak_skeleton **out_skeleton,
                                      ak_clip **out_clip, ak_body_mesh **out_mesh, ak_error *err);

/* A reader with ak_clip_read_file's contract, for files the library does not read itself
 * (the tools pass one that adds FBX through assimp). */
typedef int32_t (*ak_clip_loader)(const char *path, ak_skeleton **out_skeleton, ak_clip **out_clip,
                                  ak_error *err);

AK_EXTERN_C_END

#endif
