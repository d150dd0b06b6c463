/* plugin_sample_check PLUGIN WORK_DIR INTERP SAMPLES
 *
 * Loads the Unity plugin at run time, as Unity does (LoadLibraryW on Windows, dlopen
 * elsewhere), reads WORK_DIR/<non-ASCII folder>/<non-ASCII name>.bvh through
 * ak_plugin_bvh_load with a UTF-8 path, samples SAMPLES evenly spaced times over the clip
 * with INTERP (0 step, 1 linear, 2 cubic) and prints every joint's model-space transform:
 *   sample,joint,px,py,pz,qx,qy,qz,qw   (%.9g: float round-trips exactly)
 * then reads the glTF beside it (same name, .gltf) through ak_plugin_gltf_skin_load and
 * prints its skin's rest pose as rows "rest,joint,...".
 * The same source is built with gcc (libanimkit_unity.so) and with mingw-w64 and run under
 * wine (animkit_unity.dll); check_wine.sh compares the two outputs. The folder and file names
 * below are UTF-8 bytes written as escapes, so the source is ASCII and no command-line code
 * page can alter them: "Hüfte ñ 日本/gang-ß.bvh". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animkit/plugin.h"

#if defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#endif

#define UTF8_DIR                                                                                   \
    "H\xc3\xbc"                                                                                    \
    "fte \xc3\xb1 \xe6\x97\xa5\xe6\x9c\xac"
#define UTF8_FILE  "gang-\xc3\x9f.bvh"
#define UTF8_GLTF  "gang-\xc3\x9f.gltf"
#define MAX_JOINTS 256

typedef int32_t (*abi_version_fn)(void);
typedef int32_t (*bvh_load_fn)(const char *, float, int32_t, ak_handle *, ak_handle *, char *,
                               int32_t);
typedef int32_t (*clip_info_fn)(ak_handle, ak_plugin_clip_info *);
typedef int32_t (*sample_world_fn)(ak_handle, ak_handle, float, int32_t, ak_plugin_xform *,
                                   int32_t);
typedef int32_t (*destroy_fn)(ak_handle);
typedef int32_t (*gltf_skin_load_fn)(const char *, int32_t, ak_handle *, char *, int32_t);
typedef int32_t (*skeleton_info_fn)(ak_handle, ak_plugin_skeleton_info *);
typedef int32_t (*rest_pose_fn)(ak_handle, ak_plugin_xform *, int32_t);

typedef struct plugin {
    abi_version_fn abi_version;
    bvh_load_fn bvh_load;
    clip_info_fn clip_info_get;
    sample_world_fn sample_world;
    destroy_fn destroy;
    gltf_skin_load_fn gltf_skin_load;
    skeleton_info_fn skeleton_info_get;
    rest_pose_fn rest_pose;
} plugin;

#define SYMBOLS 8

static void *load_library(const char *path)
{
#if defined(_WIN32)
    wchar_t wide[1024];
    if (!MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, 1024)) return NULL;
    return (void *)LoadLibraryW(wide);
#else
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
#endif
}

static void *symbol(void *lib, const char *name)
{
#if defined(_WIN32)
    return (void *)GetProcAddress((HMODULE)lib, name);
#else
    return dlsym(lib, name);
#endif
}

static int resolve(void *lib, plugin *p)
{
    /* Object-to-function pointer casts through memcpy (ISO C has no direct conversion). */
    void *s[SYMBOLS];
    const char *names[SYMBOLS] = {"ak_plugin_abi_version",       "ak_plugin_bvh_load",
                                  "ak_plugin_clip_info_get",     "ak_plugin_clip_sample_model",
                                  "ak_plugin_destroy",           "ak_plugin_gltf_skin_load",
                                  "ak_plugin_skeleton_info_get", "ak_plugin_skeleton_rest_pose"};
    for (int i = 0; i < SYMBOLS; ++i) {
        s[i] = symbol(lib, names[i]);
        if (!s[i]) {
            fprintf(stderr, "plugin has no %s\n", names[i]);
            return 0;
        }
    }
    memcpy(&p->abi_version, &s[0], sizeof s[0]);
    memcpy(&p->bvh_load, &s[1], sizeof s[1]);
    memcpy(&p->clip_info_get, &s[2], sizeof s[2]);
    memcpy(&p->sample_world, &s[3], sizeof s[3]);
    memcpy(&p->destroy, &s[4], sizeof s[4]);
    memcpy(&p->gltf_skin_load, &s[5], sizeof s[5]);
    memcpy(&p->skeleton_info_get, &s[6], sizeof s[6]);
    memcpy(&p->rest_pose, &s[7], sizeof s[7]);
    return 1;
}

static void print_xform(const char *row, int joint, const ak_plugin_xform *x)
{
    printf("%s,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", row, joint, x->position.x, x->position.y,
           x->position.z, x->rotation.x, x->rotation.y, x->rotation.z, x->rotation.w);
}

static int print_samples(const plugin *p, ak_handle skeleton, ak_handle clip, int interp,
                         int samples)
{
    static ak_plugin_xform world[MAX_JOINTS];
    ak_plugin_clip_info info;
    if (p->clip_info_get(clip, &info) != 0 || info.joint_count > MAX_JOINTS) return 0;
    for (int k = 0; k < samples; ++k) {
        float t = info.duration * (float)k / (float)(samples > 1 ? samples - 1 : 1);
        if (p->sample_world(clip, skeleton, t, interp, world, MAX_JOINTS) != 0) return 0;
        char row[16];
        snprintf(row, sizeof row, "%d", k);
        for (int j = 0; j < info.joint_count; ++j)
            print_xform(row, j, &world[j]);
    }
    return 1;
}

/* The glTF skin's rest pose (local transforms), rows "rest,joint,...". */
static int print_gltf_rest(const plugin *p, const char *path)
{
    static ak_plugin_xform rest[MAX_JOINTS];
    ak_handle skeleton = NULL;
    char err[512];
    ak_plugin_skeleton_info info;
    int32_t st = p->gltf_skin_load(path, 0, &skeleton, err, (int32_t)sizeof err);
    if (st != 0) {
        fprintf(stderr, "ak_plugin_gltf_skin_load(UTF-8 path) failed with status %d: %s\n", (int)st,
                err);
        return 0;
    }
    int ok = p->skeleton_info_get(skeleton, &info) == 0 && info.joint_count <= MAX_JOINTS &&
             p->rest_pose(skeleton, rest, MAX_JOINTS) == 0;
    for (int j = 0; ok && j < info.joint_count; ++j)
        print_xform("rest", j, &rest[j]);
    p->destroy(skeleton);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s PLUGIN WORK_DIR INTERP SAMPLES\n", argv[0]);
        return 2;
    }
    void *lib = load_library(argv[1]);
    plugin p;
    if (!lib || !resolve(lib, &p)) {
        fprintf(stderr, "cannot load the plugin %s\n", argv[1]);
        return 1;
    }
    if (p.abi_version() != AK_PLUGIN_ABI_VERSION) {
        fprintf(stderr, "plugin ABI %d, this program %d\n", (int)p.abi_version(),
                AK_PLUGIN_ABI_VERSION);
        return 1;
    }
    char path[2048], err[512];
    snprintf(path, sizeof path, "%s/%s/%s", argv[2], UTF8_DIR, UTF8_FILE);
    ak_handle skeleton = NULL, clip = NULL;
    int32_t st = p.bvh_load(path, 0.0f, 1, &skeleton, &clip, err, (int32_t)sizeof err);
    if (st != 0) {
        fprintf(stderr, "ak_plugin_bvh_load(UTF-8 path) failed with status %d: %s\n", (int)st, err);
        return 1;
    }
    int ok = print_samples(&p, skeleton, clip, atoi(argv[3]), atoi(argv[4]));
    p.destroy(clip);
    p.destroy(skeleton);
    snprintf(path, sizeof path, "%s/%s/%s", argv[2], UTF8_DIR, UTF8_GLTF);
    ok = ok && print_gltf_rest(&p, path);
    fflush(stdout);
    return ok ? 0 : 1;
}
