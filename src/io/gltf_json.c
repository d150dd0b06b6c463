/* glTF export, the JSON text: written by hand (the library links libc + libm only), in the
 * order scene, nodes, skin, material and mesh, animation, accessors, buffer views, buffer.
 * One node per joint (node index = joint index, rest pose as TRS), then a common root when
 * the skeleton has several roots, then the mesh node. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "io/gltf_internal.h"
#include "io/json.h"
#include "io/number_text.h"

/* ---- JSON values ---- */

static void gbuf_printf(akio_gbuf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        akio_gbuf_append(b, small, (size_t)n);
        return;
    }
    if (akio_gbuf_reserve(b, (size_t)n) != 0) return;
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->size, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->size += (size_t)n;
}

/* A float as JSON: 9 significant digits round-trip a float exactly; -0 is written as 0; '.'
 * whatever the C locale. JSON has no infinity or NaN: those mark the document refused. */
static void json_float(akio_gbuf *b, float v)
{
    char num[AKIO_NUMBER_MAX];
    if (!isfinite(v)) {
        b->nonfinite = 1;
        v = 0.0f;
    }
    akio_gbuf_append(b, num, (size_t)akio_format_number(num, (double)v, 9));
}

/* count floats as a JSON array body, comma-separated. */
static void json_floats(akio_gbuf *b, const float *v, int count)
{
    for (int k = 0; k < count; ++k) {
        if (k) akio_gbuf_append(b, ",", 1);
        json_float(b, v[k]);
    }
}

/* A JSON string: UTF-8 text is copied as it is, with only the escapes JSON requires (quote,
 * backslash, control characters). A byte that is not valid UTF-8 is taken as Latin-1 (names
 * from old BVH files) and written as that character's UTF-8, so the output is always valid. */
static void json_string(akio_gbuf *b, const char *s)
{
    akio_gbuf_append(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        /* 4 bytes may be read: a shorter NUL-terminated tail fails the check at its NUL. */
        int n = *p >= 0x80 ? akj_utf8_length(p, 4) : 1;
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            akio_gbuf_append(b, e, 2);
        } else if (*p < 0x20) {
            gbuf_printf(b, "\\u%04x", (unsigned)*p);
        } else if (n == 0) {
            unsigned char latin1[2] = {(unsigned char)(0xC0 | (*p >> 6)),
                                       (unsigned char)(0x80 | (*p & 0x3F))};
            akio_gbuf_append(b, latin1, 2);
            n = 1;
        } else {
            akio_gbuf_append(b, p, (size_t)n);
        }
        p += n;
    }
    akio_gbuf_append(b, "\"", 1);
}

/* RFC 4648 base64 of n bytes, for the embedded buffer's data URI. */
static void base64(akio_gbuf *out, const uint8_t *src, size_t n)
{
    static const char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (akio_gbuf_reserve(out, (n + 2) / 3 * 4) != 0) return;
    char *o = (char *)out->data + out->size;
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8 | src[i + 2];
        *o++ = k[v >> 18 & 63];
        *o++ = k[v >> 12 & 63];
        *o++ = k[v >> 6 & 63];
        *o++ = k[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)src[i] << 16 | (i + 1 < n ? (uint32_t)src[i + 1] << 8 : 0);
        *o++ = k[v >> 18 & 63];
        *o++ = k[v >> 12 & 63];
        *o++ = i + 1 < n ? k[v >> 6 & 63] : '=';
        *o++ = '=';
    }
    out->size = (size_t)(o - (char *)out->data);
    out->data[out->size] = 0;
}

/* ---- the document's sections ---- */

/* The node layout: joints 0..n-1, then the common root (when there are several roots), then
 * the mesh node. */
typedef struct node_layout {
    int32_t joints;
    int wrapper; /* several roots: a common root node holds them */
    int32_t wrapper_node, mesh_node;
} node_layout;

static node_layout layout_nodes(const ak_skeleton *s)
{
    node_layout l;
    int32_t root_count = 0;
    for (int32_t j = 0; j < s->joint_count; ++j)
        root_count += s->parents[j] < 0;
    l.joints = s->joint_count;
    l.wrapper = root_count > 1;
    l.wrapper_node = s->joint_count;
    l.mesh_node = s->joint_count + l.wrapper;
    return l;
}

/* The skeleton's roots, comma-separated. */
static void json_roots(akio_gbuf *js, const ak_skeleton *s)
{
    int first = 1;
    for (int32_t j = 0; j < s->joint_count; ++j)
        if (s->parents[j] < 0) {
            gbuf_printf(js, "%s%d", first ? "" : ",", (int)j);
            first = 0;
        }
}

static void json_scene(akio_gbuf *js, const ak_skeleton *s, const node_layout *l, int has_mesh)
{
    gbuf_printf(js,
                "{\"asset\":{\"version\":\"2.0\",\"generator\":\"animkit %s\"},\"scene\":0,"
                "\"scenes\":[{\"nodes\":[",
                AK_VERSION_STRING);
    if (l->wrapper)
        gbuf_printf(js, "%d", (int)l->wrapper_node);
    else
        json_roots(js, s);
    if (has_mesh) gbuf_printf(js, ",%d", (int)l->mesh_node);
    gbuf_printf(js, "]}]");
}

/* Joint j's node: name, rest TRS in metres, children. */
static void json_joint_node(akio_gbuf *js, const ak_skeleton *s, const ak_xform *rest_m, int32_t j)
{
    gbuf_printf(js, "%s{\"name\":", j ? "," : "");
    json_string(js, s->names[j]);
    const ak_vec3 t = rest_m[j].translation;
    const ak_quat q = rest_m[j].rotation;
    const float tv[3] = {t.x, t.y, t.z}, qv[4] = {q.x, q.y, q.z, q.w};
    gbuf_printf(js, ",\"translation\":[");
    json_floats(js, tv, 3);
    gbuf_printf(js, "],\"rotation\":[");
    json_floats(js, qv, 4);
    gbuf_printf(js, "]");
    int first = 1;
    for (int32_t k = j + 1; k < s->subtree_end[j]; ++k)
        if (s->parents[k] == j) {
            gbuf_printf(js, "%s%d", first ? ",\"children\":[" : ",", (int)k);
            first = 0;
        }
    if (!first) gbuf_printf(js, "]");
    gbuf_printf(js, "}");
}

static void json_nodes(akio_gbuf *js, const ak_skeleton *s, const ak_xform *rest_m,
                       const node_layout *l, int has_mesh)
{
    gbuf_printf(js, ",\"nodes\":[");
    for (int32_t j = 0; j < s->joint_count; ++j)
        json_joint_node(js, s, rest_m, j);
    if (l->wrapper) {
        gbuf_printf(js, ",{\"name\":\"animkit_root\",\"children\":[");
        json_roots(js, s);
        gbuf_printf(js, "]}");
    }
    if (has_mesh)
        gbuf_printf(js, ",{\"name\":\"%s\",\"mesh\":0,\"skin\":0}",
                    has_mesh == 2 ? "animkit_body" : "animkit_capsules");
    gbuf_printf(js, "]");
}

/* The skin over every joint and, with the mesh, its material and primitive. */
static void json_skin_and_mesh(akio_gbuf *js, const akio_gltf_doc *d, const node_layout *l)
{
    gbuf_printf(js,
                ",\"skins\":[{\"name\":\"skeleton\",\"inverseBindMatrices\":%d,\"skeleton\":%d,"
                "\"joints\":[",
                (int)d->ibm_acc, l->wrapper ? (int)l->wrapper_node : 0);
    for (int32_t j = 0; j < l->joints; ++j)
        gbuf_printf(js, "%s%d", j ? "," : "", (int)j);
    gbuf_printf(js, "]}]");
    if (!d->has_mesh) return;
    gbuf_printf(js,
                ",\"materials\":[{\"name\":\"%s\",\"pbrMetallicRoughness\":{\"baseColorFactor\":"
                "[0.8,0.75,0.65,1],\"metallicFactor\":0,\"roughnessFactor\":0.7}}]",
                d->body ? "body" : "bone");
    gbuf_printf(js,
                ",\"meshes\":[{\"name\":\"%s\",\"primitives\":[{\"attributes\":{\"POSITION\":%d,"
                "\"NORMAL\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d},\"indices\":%d,\"material\":0}]}]",
                d->body ? "body" : "capsules", (int)d->pos_acc, (int)d->nrm_acc, (int)d->jnt_acc,
                (int)d->wgt_acc, (int)d->idx_acc);
}

/* One animation: a sampler per joint rotation, then per translation track, and a channel
 * for each (sampler i drives channel i). */
static void json_animation(akio_gbuf *js, const akio_gltf_doc *d, const ak_clip *c)
{
    const int32_t n = c->joint_count;
    const char *interp = d->cubic ? "CUBICSPLINE" : "LINEAR";
    gbuf_printf(js, ",\"animations\":[{\"name\":\"clip\",\"samplers\":[");
    for (int32_t j = 0; j < n; ++j)
        gbuf_printf(js, "%s{\"input\":%d,\"output\":%d,\"interpolation\":\"%s\"}", j ? "," : "",
                    (int)d->time_acc, (int)(d->rot_acc0 + (size_t)j), interp);
    for (int32_t k = 0; k < c->track_count; ++k)
        gbuf_printf(js, ",{\"input\":%d,\"output\":%d,\"interpolation\":\"%s\"}", (int)d->time_acc,
                    (int)(d->tr_acc0 + (size_t)k), interp);
    gbuf_printf(js, "],\"channels\":[");
    for (int32_t j = 0; j < n; ++j)
        gbuf_printf(js, "%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"rotation\"}}",
                    j ? "," : "", (int)j, (int)j);
    for (int32_t k = 0; k < c->track_count; ++k)
        gbuf_printf(js, ",{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"translation\"}}",
                    (int)(n + k), (int)c->track_joint[k]);
    gbuf_printf(js, "]}]");
}

static void json_accessors(akio_gbuf *js, const akio_gltf_doc *d)
{
    gbuf_printf(js, ",\"accessors\":[");
    for (size_t i = 0; i < d->acc_count; ++i) {
        const akio_accessor *a = &d->acc[i];
        gbuf_printf(js,
                    "%s{\"bufferView\":%d,\"byteOffset\":%lu,\"componentType\":%d,\"count\":%lu,"
                    "\"type\":\"%s\"",
                    i ? "," : "", (int)a->view, (unsigned long)a->offset, a->component,
                    (unsigned long)a->count, a->type);
        if (a->has_minmax) {
            const int comps = strcmp(a->type, "SCALAR") == 0 ? 1 : 3;
            gbuf_printf(js, ",\"min\":[");
            json_floats(js, a->min, comps);
            gbuf_printf(js, "],\"max\":[");
            json_floats(js, a->max, comps);
            gbuf_printf(js, "]");
        }
        gbuf_printf(js, "}");
    }
    gbuf_printf(js, "]");
}

/* The buffer views and the one buffer: embedded as a base64 data URI in .gltf, the GLB's
 * BIN chunk otherwise. */
static void json_buffers(akio_gbuf *js, const akio_gltf_doc *d, int binary)
{
    gbuf_printf(js, ",\"bufferViews\":[");
    for (int i = 0; i < d->view_count; ++i) {
        gbuf_printf(js, "%s{\"buffer\":0,\"byteOffset\":%lu,\"byteLength\":%lu", i ? "," : "",
                    (unsigned long)d->views[i].offset, (unsigned long)d->views[i].length);
        if (d->view_target[i]) gbuf_printf(js, ",\"target\":%d", d->view_target[i]);
        gbuf_printf(js, "}");
    }
    gbuf_printf(js, "],\"buffers\":[{\"byteLength\":%lu", (unsigned long)d->bin.size);
    if (!binary) {
        gbuf_printf(js, ",\"uri\":\"data:application/octet-stream;base64,");
        base64(js, d->bin.data, d->bin.size);
        gbuf_printf(js, "\"");
    }
    gbuf_printf(js, "}]}");
}

void akio_gltf_write_json(akio_gbuf *js, const akio_gltf_doc *d, const ak_skeleton *s,
                          const ak_clip *c, const ak_xform *rest_m, int binary)
{
    const node_layout l = layout_nodes(s);
    json_scene(js, s, &l, d->has_mesh);
    json_nodes(js, s, rest_m, &l, d->has_mesh ? (d->body ? 2 : 1) : 0);
    json_skin_and_mesh(js, d, &l);
    if (d->animate) json_animation(js, d, c);
    json_accessors(js, d);
    json_buffers(js, d, binary);
}
