/* FBX through assimp, handed to the library as an in-memory GLB (see clip_any.h): the node
 * tree (animated nodes as TRS, the others as matrices), the meshes' bones as one skin, and
 * every animation stack with LINEAR samplers (assimp's own evaluation: lerp, slerp). */
#include "clip_any.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(AK_HAVE_ASSIMP)
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/scene.h>

int ak_tools_have_fbx(void)
{
    return 1;
}

typedef struct fb_buf {
    char *data;
    size_t size, cap;
    int failed;
} fb_buf;

static void fb_put(fb_buf *b, const void *src, size_t n)
{
    if (b->failed) return;
    if (b->size + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->size + n + 1)
            cap *= 2;
        char *p = (char *)realloc(b->data, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->size, src, n);
    b->size += n;
    b->data[b->size] = '\0';
}

static void fb_printf(fb_buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) fb_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void fb_puts(fb_buf *b, const char *s)
{
    if (s) fb_put(b, s, strlen(s));
}

/* A JSON string (control characters escaped; bytes >= 0x80 copied: assimp names are UTF-8). */
static void fb_string(fb_buf *b, const char *s)
{
    fb_put(b, "\"", 1);
    for (; *s; ++s) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fb_printf(b, "\\%c", c);
        else if (c < 0x20)
            fb_printf(b, "\\u%04x", c);
        else
            fb_put(b, s, 1);
    }
    fb_put(b, "\"", 1);
}

typedef struct fb_ctx {
    const struct aiScene *scene;
    const struct aiNode **nodes; /* depth-first, parents first */
    int count, cap;
    fb_buf json, bin;
    int accessors;
} fb_ctx;

static int collect(fb_ctx *c, const struct aiNode *n, int depth)
{
    if (depth > 4096) return -1;
    if (c->count == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        const struct aiNode **p =
            (const struct aiNode **)realloc(c->nodes, sizeof(*p) * (size_t)c->cap);
        if (!p) return -1;
        c->nodes = p;
    }
    c->nodes[c->count++] = n;
    for (unsigned i = 0; i < n->mNumChildren; ++i)
        if (collect(c, n->mChildren[i], depth + 1) < 0) return -1;
    return 0;
}

static int node_index(const fb_ctx *c, const char *name)
{
    for (int i = 0; i < c->count; ++i)
        if (strcmp(c->nodes[i]->mName.data, name) == 0) return i;
    return -1;
}

static int is_animated(const fb_ctx *c, const struct aiNode *n)
{
    for (unsigned a = 0; a < c->scene->mNumAnimations; ++a)
        for (unsigned k = 0; k < c->scene->mAnimations[a]->mNumChannels; ++k)
            if (strcmp(c->scene->mAnimations[a]->mChannels[k]->mNodeName.data, n->mName.data) == 0)
                return 1;
    return 0;
}

static void write_node(fb_ctx *c, int i)
{
    const struct aiNode *n = c->nodes[i];
    const struct aiMatrix4x4 *m = &n->mTransformation;
    fb_printf(&c->json, "%s{\"name\":", i ? "," : "");
    fb_string(&c->json, n->mName.data[0] ? n->mName.data : "node");
    if (is_animated(c, n)) {
        struct aiVector3D s, p;
        struct aiQuaternion q;
        aiDecomposeMatrix(m, &s, &q, &p);
        fb_printf(&c->json, ",\"translation\":[%.9g,%.9g,%.9g]", p.x, p.y, p.z);
        fb_printf(&c->json, ",\"rotation\":[%.9g,%.9g,%.9g,%.9g]", q.x, q.y, q.z, q.w);
        fb_printf(&c->json, ",\"scale\":[%.9g,%.9g,%.9g]", s.x, s.y, s.z);
    } else { /* assimp matrices are row-major (a1..a4 is the first row) */
        fb_printf(&c->json, ",\"matrix\":[%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,", m->a1, m->b1,
                  m->c1, m->d1, m->a2, m->b2, m->c2, m->d2);
        fb_printf(&c->json, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g]", m->a3, m->b3, m->c3, m->d3,
                  m->a4, m->b4, m->c4, m->d4);
    }
    if (n->mNumChildren > 0) {
        fb_printf(&c->json, ",\"children\":[");
        for (unsigned k = 0; k < n->mNumChildren; ++k)
            for (int j = 0; j < c->count; ++j)
                if (c->nodes[j] == n->mChildren[k]) fb_printf(&c->json, "%s%d", k ? "," : "", j);
        fb_printf(&c->json, "]");
    }
    fb_printf(&c->json, "}");
}

/* The node the skeleton starts at: assimp's own scene root ("RootNode", standing for FBX's
 * implicit scene object 0: identity, no mesh, never animated) when it holds a single tree is
 * left out and that tree's top node is taken, so the joints are the file's models; an extra
 * still joint at the origin would count in the pose height (ak_clip_standing_height) and the
 * units detected from it. Otherwise (several trees, a transform) the scene root itself. */
static const struct aiNode *top_node(const fb_ctx *c)
{
    const struct aiNode *r = c->scene->mRootNode;
    if (r->mNumChildren != 1 || r->mNumMeshes != 0 || is_animated(c, r) ||
        !aiMatrix4IsIdentity(&r->mTransformation))
        return r;
    return r->mChildren[0];
}

/* Appends floats to the binary buffer as one view + accessor; returns the accessor index. */
static int add_accessor(fb_ctx *c, fb_buf *views, fb_buf *accs, const float *v, size_t count,
                        const char *type, int comps)
{
    const size_t off = c->bin.size;
    fb_put(&c->bin, v, sizeof(float) * count * (size_t)comps);
    fb_printf(views, "%s{\"buffer\":0,\"byteOffset\":%lu,\"byteLength\":%lu}",
              c->accessors ? "," : "", (unsigned long)off,
              (unsigned long)(sizeof(float) * count * (size_t)comps));
    fb_printf(accs, "%s{\"bufferView\":%d,\"componentType\":5126,\"count\":%lu,\"type\":\"%s\"}",
              c->accessors ? "," : "", c->accessors, (unsigned long)count, type);
    return c->accessors++;
}

/* The first key time of a stack, in ticks (keys before 0 are shifted to start at 0). */
static double stack_origin(const struct aiAnimation *a)
{
    double lo = 0.0;
    for (unsigned k = 0; k < a->mNumChannels; ++k) {
        const struct aiNodeAnim *ch = a->mChannels[k];
        if (ch->mNumPositionKeys) lo = fmin(lo, ch->mPositionKeys[0].mTime);
        if (ch->mNumRotationKeys) lo = fmin(lo, ch->mRotationKeys[0].mTime);
        if (ch->mNumScalingKeys) lo = fmin(lo, ch->mScalingKeys[0].mTime);
    }
    return lo;
}

typedef struct fb_anim {
    fb_buf chans, samplers, *views, *accs;
    int n;
} fb_anim;

static void add_channel(fb_ctx *c, fb_anim *a, int node, const char *path, const float *times,
                        const float *values, unsigned keys, int comps)
{
    const int in = add_accessor(c, a->views, a->accs, times, keys, "SCALAR", 1);
    const int out =
        add_accessor(c, a->views, a->accs, values, keys, comps == 4 ? "VEC4" : "VEC3", comps);
    fb_printf(&a->samplers, "%s{\"input\":%d,\"output\":%d,\"interpolation\":\"LINEAR\"}",
              a->n ? "," : "", in, out);
    fb_printf(&a->chans, "%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"%s\"}}",
              a->n ? "," : "", a->n, node, path);
    a->n++;
}

/* One node channel: its position, rotation and scale keys as three glTF channels. */
static int node_channel(fb_ctx *c, fb_anim *a, const struct aiNodeAnim *ch, double tps,
                        double origin)
{
    const int node = node_index(c, ch->mNodeName.data);
    if (node < 0) return 0; /* a channel for a node assimp did not keep */
    const unsigned n =
        ch->mNumPositionKeys > ch->mNumRotationKeys ? ch->mNumPositionKeys : ch->mNumRotationKeys;
    const unsigned most = n > ch->mNumScalingKeys ? n : ch->mNumScalingKeys;
    float *t = (float *)malloc(sizeof(float) * (most + 1));
    float *v = (float *)malloc(sizeof(float) * 4 * (most + 1));
    if (!t || !v) {
        free(t);
        free(v);
        return -1;
    }
    for (unsigned k = 0; k < ch->mNumPositionKeys; ++k) {
        const struct aiVectorKey *key = &ch->mPositionKeys[k];
        t[k] = (float)((key->mTime - origin) / tps);
        v[k * 3] = key->mValue.x, v[k * 3 + 1] = key->mValue.y, v[k * 3 + 2] = key->mValue.z;
    }
    if (ch->mNumPositionKeys) add_channel(c, a, node, "translation", t, v, ch->mNumPositionKeys, 3);
    for (unsigned k = 0; k < ch->mNumRotationKeys; ++k) {
        const struct aiQuatKey *key = &ch->mRotationKeys[k];
        t[k] = (float)((key->mTime - origin) / tps);
        v[k * 4] = key->mValue.x, v[k * 4 + 1] = key->mValue.y, v[k * 4 + 2] = key->mValue.z;
        v[k * 4 + 3] = key->mValue.w;
    }
    if (ch->mNumRotationKeys) add_channel(c, a, node, "rotation", t, v, ch->mNumRotationKeys, 4);
    for (unsigned k = 0; k < ch->mNumScalingKeys; ++k) {
        const struct aiVectorKey *key = &ch->mScalingKeys[k];
        t[k] = (float)((key->mTime - origin) / tps);
        v[k * 3] = key->mValue.x, v[k * 3 + 1] = key->mValue.y, v[k * 3 + 2] = key->mValue.z;
    }
    if (ch->mNumScalingKeys) add_channel(c, a, node, "scale", t, v, ch->mNumScalingKeys, 3);
    free(t);
    free(v);
    return 0;
}

static int write_animations(fb_ctx *c, fb_buf *anims, fb_buf *views, fb_buf *accs)
{
    int written = 0;
    for (unsigned i = 0; i < c->scene->mNumAnimations; ++i) {
        const struct aiAnimation *an = c->scene->mAnimations[i];
        const double tps = an->mTicksPerSecond > 0.0 ? an->mTicksPerSecond : 25.0;
        const double origin = stack_origin(an);
        fb_anim a;
        memset(&a, 0, sizeof a);
        a.views = views;
        a.accs = accs;
        for (unsigned k = 0; k < an->mNumChannels; ++k)
            if (node_channel(c, &a, an->mChannels[k], tps, origin) < 0) return -1;
        if (a.n == 0) {
            free(a.chans.data);
            free(a.samplers.data);
            continue;
        }
        fb_printf(anims, "%s{\"name\":", written++ ? "," : "");
        fb_string(anims, an->mName.data[0] ? an->mName.data : "animation");
        fb_puts(anims, ",\"channels\":[");
        fb_puts(anims, a.chans.data);
        fb_puts(anims, "],\"samplers\":[");
        fb_puts(anims, a.samplers.data);
        fb_puts(anims, "]}");
        const int failed = a.chans.failed || a.samplers.failed;
        free(a.chans.data);
        free(a.samplers.data);
        if (failed) return -1;
    }
    return written;
}

/* The meshes' bones (by node name) as one skin's joints. */
static void write_skin(fb_ctx *c, fb_buf *skin)
{
    int n = 0;
    for (int i = 0; i < c->count; ++i) {
        int bone = 0;
        for (unsigned m = 0; !bone && m < c->scene->mNumMeshes; ++m)
            for (unsigned b = 0; !bone && b < c->scene->mMeshes[m]->mNumBones; ++b)
                bone = strcmp(c->scene->mMeshes[m]->mBones[b]->mName.data,
                              c->nodes[i]->mName.data) == 0;
        if (bone) fb_printf(skin, "%s%d", n++ ? "," : "", i);
    }
}

/* JSON + BIN chunks framed as GLB (each padded to 4 bytes). */
static uint8_t *frame_glb(const fb_buf *json, const fb_buf *bin, size_t *out_size)
{
    const size_t jl = (json->size + 3) & ~(size_t)3, bl = (bin->size + 3) & ~(size_t)3;
    const size_t total = 12 + 8 + jl + (bl ? 8 + bl : 0);
    uint8_t *g = (uint8_t *)calloc(total, 1);
    if (!g) return NULL;
    const uint32_t h[5] = {0x46546C67u, 2u, (uint32_t)total, (uint32_t)jl, 0x4E4F534Au};
    memcpy(g, h, 20);
    memcpy(g + 20, json->data, json->size);
    memset(g + 20 + json->size, ' ', jl - json->size);
    if (bl) {
        const uint32_t ch[2] = {(uint32_t)bl, 0x004E4942u};
        memcpy(g + 20 + jl, ch, 8);
        memcpy(g + 28 + jl, bin->data, bin->size);
    }
    *out_size = total;
    return g;
}

static int write_doc(fb_ctx *c, uint8_t **out, size_t *size)
{
    fb_buf anims = {0}, views = {0}, accs = {0}, skin = {0};
    int st = collect(c, top_node(c), 0);
    if (st == 0) st = write_animations(c, &anims, &views, &accs) < 0 ? -1 : 0;
    write_skin(c, &skin);
    fb_printf(&c->json, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"animkit FBX via "
                        "assimp\"},\"scenes\":[{\"nodes\":[0]}],\"scene\":0,\"nodes\":[");
    for (int i = 0; st == 0 && i < c->count; ++i)
        write_node(c, i);
    fb_printf(&c->json, "]");
    if (skin.size) {
        fb_puts(&c->json, ",\"skins\":[{\"joints\":[");
        fb_puts(&c->json, skin.data);
        fb_puts(&c->json, "]}]");
    }
    if (anims.size) {
        fb_puts(&c->json, ",\"animations\":[");
        fb_puts(&c->json, anims.data);
        fb_puts(&c->json, "],\"bufferViews\":[");
        fb_puts(&c->json, views.data);
        fb_puts(&c->json, "],\"accessors\":[");
        fb_puts(&c->json, accs.data);
        fb_puts(&c->json, "]");
        fb_printf(&c->json, ",\"buffers\":[{\"byteLength\":%lu}]", (unsigned long)c->bin.size);
    }
    fb_printf(&c->json, "}");
    if (anims.failed || views.failed || accs.failed || skin.failed || c->json.failed ||
        c->bin.failed)
        st = -1;
    if (st == 0) *out = frame_glb(&c->json, &c->bin, size);
    free(anims.data);
    free(views.data);
    free(accs.data);
    free(skin.data);
    return st == 0 && *out ? 0 : -1;
}

int32_t ak_tools_fbx_to_glb(const char *path, uint8_t **out_glb, size_t *out_size, ak_error *err)
{
    *out_glb = NULL;
    *out_size = 0;
    struct aiPropertyStore *props = aiCreatePropertyStore();
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    const struct aiScene *scene = aiImportFileExWithProperties(path, 0, NULL, props);
    aiReleasePropertyStore(props);
    if (!scene || !scene->mRootNode) {
        const int32_t st = ak_error_set(err, AK_ERR_PARSE, 0,
                                        "assimp cannot read it as FBX: %.180s", aiGetErrorString());
        if (scene) aiReleaseImport(scene);
        return st;
    }
    fb_ctx c;
    memset(&c, 0, sizeof c);
    c.scene = scene;
    const int st = write_doc(&c, out_glb, out_size);
    free(c.nodes);
    free(c.json.data);
    free(c.bin.data);
    aiReleaseImport(scene);
    if (st < 0)
        return ak_error_set(err, AK_ERR_NOMEM, 0,
                            "out of memory (or a node tree deeper "
                            "than 4096) converting FBX");
    return AK_OK;
}

#else

int ak_tools_have_fbx(void)
{
    return 0;
}

int32_t ak_tools_fbx_to_glb(const char *path, uint8_t **out_glb, size_t *out_size, ak_error *err)
{
    (void)path;
    *out_glb = NULL;
    *out_size = 0;
    return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                        "this animkit was built without FBX support: install libassimp-dev "
                        "(pkg-config assimp) and rebuild");
}

#endif
