/* Any clip file: BVH, glTF or GLB by the first bytes, then the extension. */
#include "animkit/clipfile.h"

#include "animkit/bvh.h"
#include "animkit/gltf.h"
#include "io/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ends_with(const char *path, const char *ext)
{
    const size_t n = strlen(path), e = strlen(ext);
    if (n < e) return 0;
    for (size_t i = 0; i < e; ++i) {
        char c = path[n - e + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != ext[i]) return 0;
    }
    return 1;
}

ak_clip_format ak_clip_format_detect(const char *path, const uint8_t *head, size_t n)
{
    if (head && n >= 4 && memcmp(head, "glTF", 4) == 0) return AK_FORMAT_GLB;
    if (head && n >= 18 && memcmp(head, "Kaydara FBX Binary", 18) == 0) return AK_FORMAT_FBX;
    size_t i = head && n >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (head && i < n &&
           (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
        ++i;
    if (head && i < n && head[i] == '{') return AK_FORMAT_GLTF;
    if (head && i + 9 <= n && memcmp(head + i, "HIERARCHY", 9) == 0) return AK_FORMAT_BVH;
    if (head && i + 5 <= n && memcmp(head + i, "; FBX", 5) == 0) return AK_FORMAT_FBX;
    if (!path) return AK_FORMAT_UNKNOWN;
    if (ends_with(path, ".glb")) return AK_FORMAT_GLB;
    if (ends_with(path, ".gltf")) return AK_FORMAT_GLTF;
    if (ends_with(path, ".fbx")) return AK_FORMAT_FBX;
    if (ends_with(path, ".bvh")) return AK_FORMAT_BVH;
    return AK_FORMAT_UNKNOWN;
}

const char *ak_clip_format_name(ak_clip_format format)
{
    switch (format) {
    case AK_FORMAT_BVH: return "BVH";
    case AK_FORMAT_GLTF: return "glTF";
    case AK_FORMAT_GLB: return "GLB";
    case AK_FORMAT_FBX: return "FBX";
    default: return "unknown";
    }
}

/* glTF params for an animation given as text: digits are an index, anything else a name. */
static ak_gltf_clip_params params_for(const char *animation)
{
    ak_gltf_clip_params p = ak_gltf_clip_defaults();
    if (!animation || !*animation) return p;
    char *end = NULL;
    const long idx = strtol(animation, &end, 10);
    if (end && *end == '\0' && animation[0] >= '0' && animation[0] <= '9' && idx <= 1000000)
        p.animation = (int32_t)idx;
    else
        p.animation_name = animation;
    return p;
}

static const char fbx_message[] =
    "FBX is read by the animkit tools built with assimp (libassimp-dev), not by the library";

/* AK_OK for an ak_up_axis, else AK_ERR_INVALID_ARG saying so. */
static int32_t check_up(int32_t up, ak_error *err)
{
    if (up != AK_UP_AUTO && up != AK_UP_Y && up != AK_UP_Z)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "up = %d: must be 0 (auto), 1 (y) or 2 (z)",
                            (int)up);
    return AK_OK;
}

int32_t ak_clip_read_memory(const uint8_t *data, size_t size, const char *animation,
                            ak_skeleton **out_skeleton, ak_clip **out_clip, ak_error *err)
{
    return ak_clip_read_memory_up(data, size, animation, AK_UP_AUTO, out_skeleton, out_clip, err);
}

int32_t ak_clip_read_memory_up(const uint8_t *data, size_t size, const char *animation, int32_t up,
                               ak_skeleton **out_skeleton, ak_clip **out_clip, ak_error *err)
{
    if (!out_skeleton || !out_clip) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    *out_skeleton = NULL;
    *out_clip = NULL;
    if (check_up(up, err) < 0) return AK_ERR_INVALID_ARG;
    if (!data) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null data");
    const ak_clip_format f = ak_clip_format_detect(NULL, data, size);
    if (f == AK_FORMAT_FBX) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s", fbx_message);
    if (f == AK_FORMAT_GLB || f == AK_FORMAT_GLTF) {
        const ak_gltf_clip_params p = params_for(animation);
        return ak_gltf_read_clip_memory(data, size, NULL, &p, out_skeleton, out_clip, NULL, err);
    }
    ak_bvh_read_params p = ak_bvh_read_defaults();
    p.up = up;
    return ak_bvh_read_memory((const char *)data, size, &p, out_skeleton, out_clip, err);
}

/* The first bytes of a file (0 when it cannot be opened). */
static size_t read_head(const char *path, uint8_t *head, size_t cap)
{
    FILE *f = akio_fopen(path, "rb");
    if (!f) return 0;
    const size_t n = fread(head, 1, cap, f);
    fclose(f);
    return n;
}

/* A glTF/GLB clip and, when out_mesh is given, the mesh its skin draws (NULL when there is
 * none or it cannot be read: the clip still opens). */
static int32_t read_gltf(const char *path, const char *animation, ak_skeleton **out_skeleton,
                         ak_clip **out_clip, ak_body_mesh **out_mesh, ak_error *err)
{
    const ak_gltf_clip_params p = params_for(animation);
    ak_gltf_clip_info info;
    int32_t joint_node[1024];
    memset(&info, 0, sizeof info);
    info.joint_node = joint_node;
    info.joint_node_capacity = 1024;
    int32_t st = ak_gltf_read_clip_file(path, &p, out_skeleton, out_clip, &info, err);
    if (st < 0 || !out_mesh || info.skin < 0) return st;
    ak_gltf_mesh_params mp = ak_gltf_mesh_defaults();
    mp.skin = info.skin;
    mp.joint_node = joint_node;
    mp.joint_count = (*out_skeleton)->joint_count;
    ak_error mesh_err;
    if (ak_gltf_read_mesh_file(path, &mp, out_mesh, &mesh_err) < 0 &&
        mesh_err.status != AK_ERR_NOT_FOUND && err && !err->message[0])
        ak_error_set(err, AK_OK, mesh_err.line, "the skinned mesh is not drawn: %s",
                     mesh_err.message);
    return st;
}

/* ak_clip_read_file, ak_clip_read_file_up and ak_clip_read_file_mesh; `up` for BVH. */
static int32_t read_any(const char *path, int32_t up, ak_skeleton **out_skeleton,
                        ak_clip **out_clip, ak_body_mesh **out_mesh, ak_error *err)
{
    if (out_mesh) *out_mesh = NULL;
    if (!out_skeleton || !out_clip) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    *out_skeleton = NULL;
    *out_clip = NULL;
    if (!path) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null path");
    uint8_t head[64];
    size_t n = read_head(path, head, sizeof head);
    char *file = NULL;
    const char *animation = NULL, *hash = strrchr(path, '#');
    if (n == 0 && hash) { /* "file.glb#Run": the file without the selector */
        file = (char *)malloc((size_t)(hash - path) + 1);
        if (!file) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        memcpy(file, path, (size_t)(hash - path));
        file[hash - path] = '\0';
        animation = hash + 1;
        n = read_head(file, head, sizeof head);
    }
    const char *real = file ? file : path;
    const ak_clip_format f = ak_clip_format_detect(real, head, n);
    int32_t st;
    if (f == AK_FORMAT_FBX)
        st = ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s", fbx_message);
    else if (f == AK_FORMAT_GLB || f == AK_FORMAT_GLTF)
        st = read_gltf(real, animation, out_skeleton, out_clip, out_mesh, err);
    else {
        ak_bvh_read_params p = ak_bvh_read_defaults();
        p.up = up;
        st = ak_bvh_read_file(real, &p, out_skeleton, out_clip, err);
    }
    free(file);
    return st;
}

int32_t ak_clip_read_file(const char *path, ak_skeleton **out_skeleton, ak_clip **out_clip,
                          ak_error *err)
{
    return read_any(path, AK_UP_AUTO, out_skeleton, out_clip, NULL, err);
}

int32_t ak_clip_read_file_up(const char *path, int32_t up, ak_skeleton **out_skeleton,
                             ak_clip **out_clip, ak_error *err)
{
    if (out_skeleton) *out_skeleton = NULL;
    if (out_clip) *out_clip = NULL;
    if (check_up(up, err) < 0) return AK_ERR_INVALID_ARG;
    return read_any(path, up, out_skeleton, out_clip, NULL, err);
}

int32_t ak_clip_read_file_mesh(const char *path, ak_skeleton **out_skeleton, ak_clip **out_clip,
                               ak_body_mesh **out_mesh, ak_error *err)
{
    if (!out_mesh) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null mesh output");
    return read_any(path, AK_UP_AUTO, out_skeleton, out_clip, out_mesh, err);
}
