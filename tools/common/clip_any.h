/* Clip files for the tools (CLI, viewer, Python's FBX helper): everything the library reads
 * (BVH, glTF, GLB through ak_clip_read_file) plus FBX through assimp where the build found
 * it (pkg-config assimp; Debian libassimp-dev). Where it did not, an FBX file gets a clear
 * error saying what to install. */
#ifndef AK_TOOLS_CLIP_ANY_H
#define AK_TOOLS_CLIP_ANY_H

#include "animkit/clipfile.h"
#include "animkit/gltf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An ak_clip_loader: FBX by its first bytes or extension, the rest by ak_clip_read_file.
 * "file.fbx#Name" or "file.fbx#1" picks an animation stack (the first by default). */
int32_t ak_tools_read_clip(const char *path, ak_skeleton **out_skeleton, ak_clip **out_clip,
                           ak_error *err);

/* ak_tools_read_clip plus, for a glTF/GLB file, the mesh its skin draws bound to the
 * skeleton (ak_clip_read_file_mesh; *out_mesh NULL for BVH, FBX and files without one). */
/* ak_tools_read_clip that prints the warning a reader returns with AK_OK ("path:line: warning:
 * ...") on stderr: the loader the walk scene gets, which keeps no message of its own. */
int32_t ak_tools_read_clip_warn(const char *path, ak_skeleton **out_skeleton, ak_clip **out_clip,
                                ak_error *err);
int32_t ak_tools_read_clip_mesh(const char *path, ak_skeleton **out_skeleton, ak_clip **out_clip,
                                ak_body_mesh **out_mesh, ak_error *err);

/* How the readers above take a BVH file's up axis from now on (the commands' --up): an
 * ak_up_axis, AK_UP_AUTO (default) as the library reads it (measured: a rig standing along +Z
 * turned to Y-up, with a warning), AK_UP_Y the file's axes, AK_UP_Z turned. */
void ak_tools_set_up(int32_t up);

/* The --up flag of every command that reads a BVH file (the CLI's and the viewer's; an
 * ak_flag of animkit/scenario.h whose value, an ak_up_axis, goes to ak_tools_set_up before the
 * files are read). */
#define AK_CLI_UP_HELP                                                                             \
    "axis the BVH rig stands along: auto measures it (a rig standing along +Z is turned to "       \
    "Y-up, with a warning), y keeps the file's axes, z turns it"
#define AK_CLI_UP_FLAG(field)                                                                      \
    {                                                                                              \
        .name = "up", .type = AK_FLAG_CHOICE, .offset = (field), .def = "auto",                    \
        .choices = "auto|y|z", .help = AK_CLI_UP_HELP                                              \
    }

/* 1 when this build reads FBX. */
int ak_tools_have_fbx(void);

/* FBX through assimp: the scene's nodes (without assimp's scene root "RootNode" when that
 * holds a single tree and is identity, not animated, without mesh), the meshes' bones as a
 * skin and every animation
 * stack, written as a GLB document in memory (malloc'ed; the caller frees) that
 * ak_gltf_read_clip_memory reads like any glTF file (one evaluation of channels for both
 * formats). assimp's import with FBX pivots collapsed (AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS
 * 0). Key times are ticks / mTicksPerSecond (25 when the file gives none), shifted so
 * the first key of a stack is not before 0. AK_ERR_PARSE with assimp's reason when the
 * file cannot be imported; AK_ERR_INVALID_ARG in a build without assimp. */
int32_t ak_tools_fbx_to_glb(const char *path, uint8_t **out_glb, size_t *out_size, ak_error *err);

#ifdef __cplusplus
}
#endif

#endif
