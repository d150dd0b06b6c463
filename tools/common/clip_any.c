/* Clip files for the tools: the library's formats plus FBX (fbx_assimp.c). */
#include "clip_any.h"

#include "animkit/bvh.h"

#include "io/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first bytes of a file (0 when it cannot be opened). */
static size_t read_head(const char *path, uint8_t *head, size_t cap)
{
    FILE *f = akio_fopen(path, "rb"); /* UTF-8 paths on Windows too */
    if (!f) return 0;
    const size_t n = fread(head, 1, cap, f);
    fclose(f);
    return n;
}

static int32_t read_fbx(const char *file, const char *animation, ak_skeleton **sk, ak_clip **clip,
                        ak_error *err)
{
    uint8_t *glb = NULL;
    size_t size = 0;
    int32_t st = ak_tools_fbx_to_glb(file, &glb, &size, err);
    if (st != AK_OK) return st;
    st = ak_clip_read_memory(glb, size, animation, sk, clip, err); /* the GLB assimp made */
    free(glb);
    return st;
}

/* --up of the command (ak_tools_set_up): how a BVH file's up axis is taken. */
static int32_t g_up = AK_UP_AUTO;

void ak_tools_set_up(int32_t up)
{
    g_up = up;
}

/* FBX through assimp; the rest through the library, with the glTF skin's mesh when `mesh`. */
static int32_t read_any(const char *path, ak_skeleton **out_skeleton, ak_clip **out_clip,
                        ak_body_mesh **mesh, ak_error *err)
{
    if (mesh) *mesh = NULL;
    if (!path || !out_skeleton || !out_clip)
        return ak_clip_read_file(path, out_skeleton, out_clip, err);
    uint8_t head[64];
    size_t n = read_head(path, head, sizeof head);
    const char *hash = strrchr(path, '#');
    if (ak_clip_format_detect(path, head, n) == AK_FORMAT_FBX)
        return read_fbx(path, NULL, out_skeleton, out_clip, err);
    if (n == 0 && hash) {
        char *file = (char *)malloc((size_t)(hash - path) + 1);
        if (!file) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        memcpy(file, path, (size_t)(hash - path));
        file[hash - path] = '\0';
        n = read_head(file, head, sizeof head);
        int32_t st = 0;
        const int fbx = ak_clip_format_detect(file, head, n) == AK_FORMAT_FBX;
        if (fbx) st = read_fbx(file, hash + 1, out_skeleton, out_clip, err);
        free(file);
        if (fbx) return st;
    }
    if (g_up != AK_UP_AUTO && ak_clip_format_detect(path, head, n) == AK_FORMAT_BVH) {
        ak_bvh_read_params p = ak_bvh_read_defaults();
        p.up = g_up;
        return ak_bvh_read_file(path, &p, out_skeleton, out_clip, err);
    }
    return mesh ? ak_clip_read_file_mesh(path, out_skeleton, out_clip, mesh, err)
                : ak_clip_read_file(path, out_skeleton, out_clip, err);
}

int32_t ak_tools_read_clip(const char *path, ak_skeleton **out_skeleton, ak_clip **out_clip,
                           ak_error *err)
{
    return read_any(path, out_skeleton, out_clip, NULL, err);
}

int32_t ak_tools_read_clip_mesh(const char *path, ak_skeleton **out_skeleton, ak_clip **out_clip,
                                ak_body_mesh **out_mesh, ak_error *err)
{
    if (!out_mesh) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null mesh output");
    return read_any(path, out_skeleton, out_clip, out_mesh, err);
}

int32_t ak_tools_read_clip_warn(const char *path, ak_skeleton **out_skeleton, ak_clip **out_clip,
                                ak_error *err)
{
    const int32_t st = read_any(path, out_skeleton, out_clip, NULL, err);
    if (st == AK_OK && err && err->message[0]) {
        if (err->line > 0)
            fprintf(stderr, "%s:%d: warning: %s\n", path, (int)err->line, err->message);
        else
            fprintf(stderr, "%s: warning: %s\n", path, err->message);
    }
    return st;
}
