/* Test helper: reads an exported glTF (.gltf with a base64 data URI, or .glb) back with cJSON
 * and evaluates its node transforms at a key of the animation, so tests can run FK over the
 * glTF nodes and compare with animkit's own FK. Only what animkit writes is supported. */
#ifndef AK_TEST_GLTF_READ_H
#define AK_TEST_GLTF_READ_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "animkit/ak_math.h"

typedef struct gltf_doc {
    cJSON *root;
    uint8_t *bin;
    size_t bin_size;
} gltf_doc;

static int gltf_b64_value(int c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

static uint8_t *gltf_b64_decode(const char *s, size_t *out_size)
{
    size_t n = strlen(s);
    uint8_t *out = (uint8_t *)malloc(n / 4 * 3 + 3);
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; ++i) {
        int v = gltf_b64_value((unsigned char)s[i]);
        if (v < 0) continue; /* '=' padding */
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    *out_size = o;
    return out;
}

static uint32_t gltf_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* 0 on success. */
static int gltf_parse(const uint8_t *data, size_t size, gltf_doc *doc)
{
    memset(doc, 0, sizeof *doc);
    if (size >= 12 && gltf_u32(data) == 0x46546C67u) {
        if (gltf_u32(data + 4) != 2 || gltf_u32(data + 8) != size) return -1;
        uint32_t json_len = gltf_u32(data + 12);
        if (gltf_u32(data + 16) != 0x4E4F534Au || json_len % 4 || 20 + json_len + 8 > size)
            return -1;
        doc->root = cJSON_ParseWithLength((const char *)data + 20, json_len);
        const uint8_t *bin = data + 20 + json_len;
        uint32_t bin_len = gltf_u32(bin);
        if (gltf_u32(bin + 4) != 0x004E4942u || 28 + json_len + bin_len != size) return -1;
        doc->bin = (uint8_t *)malloc(bin_len ? bin_len : 1);
        memcpy(doc->bin, bin + 8, bin_len);
        doc->bin_size = bin_len;
    } else {
        doc->root = cJSON_ParseWithLength((const char *)data, size);
        if (!doc->root) return -1;
        cJSON *buf = cJSON_GetArrayItem(cJSON_GetObjectItem(doc->root, "buffers"), 0);
        const char *uri = cJSON_GetStringValue(cJSON_GetObjectItem(buf, "uri"));
        const char *prefix = "data:application/octet-stream;base64,";
        if (!uri || strncmp(uri, prefix, strlen(prefix)) != 0) return -1;
        doc->bin = gltf_b64_decode(uri + strlen(prefix), &doc->bin_size);
    }
    if (!doc->root) return -1;
    cJSON *buf = cJSON_GetArrayItem(cJSON_GetObjectItem(doc->root, "buffers"), 0);
    if ((size_t)cJSON_GetNumberValue(cJSON_GetObjectItem(buf, "byteLength")) != doc->bin_size)
        return -1;
    return 0;
}

static void gltf_free(gltf_doc *doc)
{
    cJSON_Delete(doc->root);
    free(doc->bin);
}

static cJSON *gltf_get(const gltf_doc *doc, const char *array, int index)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(doc->root, array), index);
}

static int gltf_int(const cJSON *obj, const char *key, int fallback)
{
    const cJSON *v = cJSON_GetObjectItem(obj, key);
    return cJSON_IsNumber(v) ? v->valueint : fallback;
}

/* Float data of a FLOAT accessor (bounds-checked against the buffer); *count elements. */
static const float *gltf_floats(const gltf_doc *doc, int acc_index, int *count)
{
    cJSON *acc = gltf_get(doc, "accessors", acc_index);
    if (!acc || gltf_int(acc, "componentType", 0) != 5126) return NULL;
    cJSON *view = gltf_get(doc, "bufferViews", gltf_int(acc, "bufferView", -1));
    if (!view) return NULL;
    size_t offset =
        (size_t)gltf_int(view, "byteOffset", 0) + (size_t)gltf_int(acc, "byteOffset", 0);
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(acc, "type"));
    size_t comps = strcmp(type, "SCALAR") == 0 ? 1
                   : strcmp(type, "VEC3") == 0 ? 3
                   : strcmp(type, "VEC4") == 0 ? 4
                                               : 16;
    *count = gltf_int(acc, "count", 0);
    if (offset % 4 || offset + (size_t)*count * comps * 4 > doc->bin_size) return NULL;
    return (const float *)(doc->bin + offset);
}

static void gltf_read_floats(const cJSON *arr, float *out, int n)
{
    for (int i = 0; i < n; ++i)
        out[i] = (float)cJSON_GetNumberValue(cJSON_GetArrayItem(arr, i));
}

/* Local transforms of nodes [0, node_count) at animation key `key` (the keyed value; for
 * CUBICSPLINE the middle element of the key's triplet). Nodes without a channel keep their
 * static TRS. Writes parent[] from the children lists (-1 for roots). Returns 0 on success. */
static int gltf_locals_at_key(const gltf_doc *doc, int key, int node_count, ak_xform *local,
                              int *parent)
{
    for (int i = 0; i < node_count; ++i) {
        cJSON *node = gltf_get(doc, "nodes", i);
        float t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1};
        if (cJSON_GetObjectItem(node, "translation"))
            gltf_read_floats(cJSON_GetObjectItem(node, "translation"), t, 3);
        if (cJSON_GetObjectItem(node, "rotation"))
            gltf_read_floats(cJSON_GetObjectItem(node, "rotation"), r, 4);
        local[i].translation = ak_vec3_make(t[0], t[1], t[2]);
        local[i].rotation.x = r[0];
        local[i].rotation.y = r[1];
        local[i].rotation.z = r[2];
        local[i].rotation.w = r[3];
        parent[i] = -1;
    }
    for (int i = 0; i < node_count; ++i) {
        cJSON *kids = cJSON_GetObjectItem(gltf_get(doc, "nodes", i), "children");
        for (int k = 0; k < cJSON_GetArraySize(kids); ++k) {
            int c = cJSON_GetArrayItem(kids, k)->valueint;
            if (c >= 0 && c < node_count) parent[c] = i;
        }
    }
    cJSON *anim = gltf_get(doc, "animations", 0);
    if (!anim) return 0;
    cJSON *channels = cJSON_GetObjectItem(anim, "channels");
    cJSON *samplers = cJSON_GetObjectItem(anim, "samplers");
    for (int i = 0; i < cJSON_GetArraySize(channels); ++i) {
        cJSON *ch = cJSON_GetArrayItem(channels, i);
        cJSON *target = cJSON_GetObjectItem(ch, "target");
        int node = gltf_int(target, "node", -1);
        const char *path = cJSON_GetStringValue(cJSON_GetObjectItem(target, "path"));
        cJSON *sampler = cJSON_GetArrayItem(samplers, gltf_int(ch, "sampler", -1));
        int cubic = strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(sampler, "interpolation")),
                           "CUBICSPLINE") == 0;
        int n_in = 0, n_out = 0;
        const float *in = gltf_floats(doc, gltf_int(sampler, "input", -1), &n_in);
        const float *out = gltf_floats(doc, gltf_int(sampler, "output", -1), &n_out);
        if (!in || !out || node < 0 || node >= node_count || key >= n_in) return -1;
        if (n_out != n_in * (cubic ? 3 : 1)) return -1;
        int e = cubic ? key * 3 + 1 : key;
        if (strcmp(path, "rotation") == 0) {
            memcpy(&local[node].rotation, out + (size_t)e * 4, sizeof(ak_quat));
        } else if (strcmp(path, "translation") == 0) {
            memcpy(&local[node].translation, out + (size_t)e * 3, sizeof(ak_vec3));
        } else {
            return -1;
        }
    }
    return 0;
}

/* FK over glTF nodes: needs parent[i] < i (what animkit writes). Returns 0 on success. */
static int gltf_fk(const ak_xform *local, const int *parent, int node_count, ak_xform *world)
{
    for (int i = 0; i < node_count; ++i) {
        if (parent[i] >= i) return -1;
        world[i] = parent[i] < 0 ? local[i] : ak_xform_mul(world[parent[i]], local[i]);
    }
    return 0;
}

#endif
