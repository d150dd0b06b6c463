/* glTF 2.0 skin reader: a skin's joints (and the nodes above them) as an animkit skeleton in
 * its bind pose. JSON through io/json.c; buffers from the GLB BIN chunk, data: URIs or files
 * beside the .gltf. Offline code: allocates freely, never trusts an index or a length. */
#include "animkit/bvh.h"
#include "animkit/gltf.h"
#include "io/file.h"
#include "io/gltf_doc.h"
#include "io/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GR_MAX_NODES 1024
#define GR_MAX_BYTES (512u * 1024u * 1024u)

typedef struct gr_ctx {
    akj_doc doc;
    const uint8_t *bin; /* GLB BIN chunk */
    size_t bin_size;
    const char *base_dir;
    ak_error *err;
    int32_t nodes;                     /* node count */
    int32_t *parent;                   /* per node */
    double (*local)[16], (*world)[16]; /* column-major */
    uint8_t *wanted;
    int32_t *first_child, *next_sibling; /* per node, children in file order, -1 ends */
    int32_t *path;                       /* scratch, one per node (world_of, dfs_order) */
    int32_t *node_v;                     /* per node, its JSON value */
} gr_ctx;

static int32_t gr_fail(gr_ctx *c, int32_t st, int32_t v, const char *why)
{
    int32_t line = v >= 0 && v < c->doc.count ? c->doc.v[v].line : 0;
    return ak_error_set(c->err, st, line, "glTF: %s", why);
}

static void mat_identity(double m[16])
{
    memset(m, 0, 16 * sizeof(double));
    m[0] = m[5] = m[10] = m[15] = 1.0;
}

/* Reads `count` numbers of array member `key` of object v into out; 1 when present. */
static int read_numbers(gr_ctx *c, int32_t v, const char *key, double *out, int count, int32_t *bad)
{
    int32_t arr = akj_get(&c->doc, v, key);
    if (arr < 0) return 0;
    if (akj_type(&c->doc, arr) != AKJ_ARRAY || c->doc.v[arr].count != count) {
        *bad = arr;
        return 0;
    }
    int i = 0;
    for (int32_t e = c->doc.v[arr].first; e >= 0; e = c->doc.v[e].next, ++i) {
        if (akj_type(&c->doc, e) != AKJ_NUMBER) {
            *bad = e;
            return 0;
        }
        out[i] = c->doc.v[e].number;
    }
    return 1;
}

/* Node's local matrix: "matrix", or T * R * S. */
static int32_t node_local(gr_ctx *c, int32_t node_v, double m[16])
{
    int32_t bad = -1;
    double t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    if (read_numbers(c, node_v, "matrix", m, 16, &bad)) return AK_OK;
    read_numbers(c, node_v, "translation", t, 3, &bad);
    read_numbers(c, node_v, "rotation", r, 4, &bad);
    read_numbers(c, node_v, "scale", s, 3, &bad);
    if (bad >= 0)
        return gr_fail(c, AK_ERR_INVALID_ARG, bad,
                       "node matrix/translation/rotation/scale has the wrong size");
    double n = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    if (!(n > 1e-12)) return gr_fail(c, AK_ERR_INVALID_ARG, node_v, "zero rotation quaternion");
    double x = r[0] / n, y = r[1] / n, z = r[2] / n, w = r[3] / n;
    double rot[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                     2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                     2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
    mat_identity(m);
    for (int col = 0; col < 3; ++col)
        for (int row = 0; row < 3; ++row)
            m[col * 4 + row] = rot[col * 3 + row] * s[col];
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    return AK_OK;
}

/* An index or byte count from JSON: a whole number in [0, 2^30], else -1. */
static int32_t json_index(const akj_doc *d, int32_t v)
{
    double x = akj_number(d, v, -1.0);
    return (x >= 0.0 && x <= 1073741824.0 && x == floor(x)) ? (int32_t)x : -1;
}

/* Reads a whole regular file beside the .gltf (relative URI only) into *data; the reason
 * for a failure goes into err through the caller's gr_fail. */
static const char *read_side_file(const char *dir, const char *uri, uint8_t **data, size_t *size)
{
    char rel[1024];
    *data = NULL;
    if (!dir) return "a buffer names a file, but the glTF came from memory";
    if (!akgd_uri_decode(uri, rel, sizeof rel))
        return "a buffer URI has a bad %-escape or is too long";
    if (strstr(rel, "..") || rel[0] == '/' || rel[0] == '\\' || strchr(rel, ':'))
        return "a buffer URI leaves the glTF's folder (absolute, '..' or a scheme)";
    const size_t len_path = strlen(dir) + 1 + strlen(rel) + 1;
    char *path = (char *)malloc(len_path);
    if (!path) return "out of memory";
    snprintf(path, len_path, "%s/%s", dir, rel);
    akio_read_params rp = akio_read_defaults();
    rp.max_bytes = GR_MAX_BYTES;
    ak_error e;
    char *bytes = NULL;
    const int32_t st = akio_read_file(path, &rp, &bytes, size, &e);
    free(path);
    *data = (uint8_t *)bytes;
    switch (st) {
    case AK_OK: return NULL;
    case AK_ERR_LIMIT: return "a buffer file is larger than 512 MiB";
    case AK_ERR_NOMEM: return "out of memory";
    default:
        return strstr(e.message, "not a regular file") ? "a buffer file is not a regular file"
                                                       : "cannot open a buffer file";
    }
}

/* Bytes of buffer b: the GLB chunk, a data: URI or a file. *owned is set when the caller
 * must free the result. NULL with the reason in *why on failure. */
static const uint8_t *buffer_bytes(gr_ctx *c, int32_t b, size_t *size, uint8_t **owned,
                                   const char **why)
{
    int32_t buffers = akj_get(&c->doc, 0, "buffers");
    int32_t bv = akj_at(&c->doc, buffers, b);
    *owned = NULL;
    *why = NULL;
    if (bv < 0) {
        *why = "a bufferView names a buffer that does not exist";
        return NULL;
    }
    const char *uri = akj_string(&c->doc, akj_get(&c->doc, bv, "uri"));
    if (!uri) {
        if (!c->bin) *why = "a buffer without a uri, but there is no GLB BIN chunk";
        *size = c->bin_size;
        return c->bin;
    }
    if (strncmp(uri, "data:", 5) == 0) {
        const char *comma = strstr(uri, ";base64,");
        if (!comma) *why = "a data: URI that is not base64";
        if (comma && !(*owned = akgd_b64_decode(comma + 8, size)))
            *why = "a data: URI with bad base64";
        return *owned;
    }
    *why = read_side_file(c->base_dir, uri, owned, size);
    return *owned;
}

/* The skin's inverse bind matrices (count matrices, column-major) into out; 0 when absent. */
static int32_t read_ibm(gr_ctx *c, int32_t skin_v, int32_t count, double (*out)[16], int *have)
{
    *have = 0;
    int32_t acc_i = json_index(&c->doc, akj_get(&c->doc, skin_v, "inverseBindMatrices"));
    if (akj_get(&c->doc, skin_v, "inverseBindMatrices") < 0) return AK_OK;
    int32_t acc = akj_at(&c->doc, akj_get(&c->doc, 0, "accessors"), acc_i);
    const char *type = akj_string(&c->doc, akj_get(&c->doc, acc, "type"));
    if (acc < 0 || !type || strcmp(type, "MAT4") != 0 ||
        akj_number(&c->doc, akj_get(&c->doc, acc, "componentType"), 0) != 5126 ||
        json_index(&c->doc, akj_get(&c->doc, acc, "count")) < count)
        return gr_fail(
            c, AK_ERR_INVALID_ARG, skin_v,
            "inverseBindMatrices must be a float MAT4 accessor with one matrix per joint");
    int32_t view = akj_at(&c->doc, akj_get(&c->doc, 0, "bufferViews"),
                          json_index(&c->doc, akj_get(&c->doc, acc, "bufferView")));
    if (view < 0) return gr_fail(c, AK_ERR_INVALID_ARG, acc, "accessor without a bufferView");
    /* The accessor lies inside its view, the view inside its buffer (byte counts < 2^30). */
    int32_t view_off = akj_get(&c->doc, view, "byteOffset") < 0
                           ? 0
                           : json_index(&c->doc, akj_get(&c->doc, view, "byteOffset"));
    int32_t acc_off = akj_get(&c->doc, acc, "byteOffset") < 0
                          ? 0
                          : json_index(&c->doc, akj_get(&c->doc, acc, "byteOffset"));
    int32_t stride = akj_get(&c->doc, view, "byteStride") < 0
                         ? 64
                         : json_index(&c->doc, akj_get(&c->doc, view, "byteStride"));
    int32_t len = json_index(&c->doc, akj_get(&c->doc, view, "byteLength"));
    size_t size = 0;
    uint8_t *owned = NULL;
    const char *why = NULL;
    const uint8_t *bytes =
        buffer_bytes(c, json_index(&c->doc, akj_get(&c->doc, view, "buffer")), &size, &owned, &why);
    double need = (double)acc_off + (double)stride * (count - 1) + 64.0;
    if (!why && (view_off < 0 || acc_off < 0 || stride < 64 || len < 0))
        why = "the inverseBindMatrices bufferView has a bad byteOffset, byteLength or byteStride";
    else if (!why && need > (double)len)
        why = "the inverseBindMatrices accessor runs past the end of its bufferView";
    else if (!why && (double)view_off + (double)len > (double)size)
        why = "the inverseBindMatrices bufferView runs past the end of its buffer";
    if (why || !bytes) {
        free(owned);
        return gr_fail(c, AK_ERR_INVALID_ARG, acc, why ? why : "a buffer is missing");
    }
    const size_t off = (size_t)view_off + (size_t)acc_off;
    for (int32_t j = 0; j < count; ++j)
        for (int k = 0; k < 16; ++k) {
            float f;
            memcpy(&f, bytes + off + (size_t)stride * (size_t)j + 4u * (size_t)k, 4);
            out[j][k] = f;
        }
    free(owned);
    *have = 1;
    return AK_OK;
}

/* Node i's "children": an array of node indices, each with no other parent; linked into
 * first_child/next_sibling in file order (linear in the number of children). */
static int32_t read_children(gr_ctx *c, int32_t n, int32_t i, int32_t *last_child)
{
    akgd_tree t = {c->nodes, c->parent, c->first_child, c->next_sibling, last_child};
    char why[128];
    int32_t where = -1;
    const int32_t st = akgd_link_children(&c->doc, n, i, &t, &where, why, sizeof why);
    return st < 0 ? gr_fail(c, st, where, why) : AK_OK;
}

/* Parents from the nodes' children lists (one parent each, no cycles) and local matrices. */
static int32_t read_nodes(gr_ctx *c)
{
    int32_t nodes = akj_get(&c->doc, 0, "nodes");
    if (akj_type(&c->doc, nodes) != AKJ_ARRAY || c->doc.v[nodes].count < 1)
        return gr_fail(c, AK_ERR_NOT_FOUND, 0, "no nodes");
    c->nodes = c->doc.v[nodes].count;
    if (c->nodes > 65536) return gr_fail(c, AK_ERR_LIMIT, nodes, "more than 65536 nodes");
    const size_t n = (size_t)c->nodes;
    c->parent = (int32_t *)malloc(sizeof(int32_t) * n);
    c->first_child = (int32_t *)malloc(sizeof(int32_t) * n);
    c->next_sibling = (int32_t *)malloc(sizeof(int32_t) * n);
    int32_t *last_child = (int32_t *)malloc(sizeof(int32_t) * n);
    c->path = (int32_t *)malloc(sizeof(int32_t) * n);
    c->node_v = (int32_t *)malloc(sizeof(int32_t) * n);
    c->local = (double(*)[16])malloc(sizeof(double[16]) * n);
    c->world = (double(*)[16])malloc(sizeof(double[16]) * n);
    c->wanted = (uint8_t *)calloc(n, 1);
    int32_t st = AK_OK;
    if (!c->parent || !c->first_child || !c->next_sibling || !last_child || !c->path ||
        !c->node_v || !c->local || !c->world || !c->wanted)
        st = gr_fail(c, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t i = 0; st >= 0 && i < c->nodes; ++i)
        c->parent[i] = c->first_child[i] = c->next_sibling[i] = last_child[i] = -1;
    int32_t i = 0;
    for (int32_t v = st < 0 ? -1 : c->doc.v[nodes].first; v >= 0 && st >= 0;
         v = c->doc.v[v].next, ++i) {
        if (akj_type(&c->doc, v) != AKJ_OBJECT)
            st = gr_fail(c, AK_ERR_INVALID_ARG, v, "a node is not an object");
        c->node_v[i] = v;
        if (st >= 0) st = node_local(c, v, c->local[i]);
        if (st >= 0) st = read_children(c, v, i, last_child);
    }
    free(last_child);
    return st;
}

/* World matrix of node i (memoised through `done`): walks up to the first known ancestor
 * (at most `nodes` steps: a longer walk is a cycle), then multiplies back down. No recursion,
 * so a chain of 65,536 nodes needs no stack. */
static int world_of(gr_ctx *c, int32_t i, uint8_t *done)
{
    int32_t *path = c->path;
    int32_t depth = 0;
    for (int32_t a = i; a >= 0 && !done[a]; a = c->parent[a]) {
        if (depth >= c->nodes) return 0;
        path[depth++] = a;
    }
    while (depth > 0) {
        const int32_t n = path[--depth], p = c->parent[n];
        if (p < 0)
            memcpy(c->world[n], c->local[n], sizeof(double[16]));
        else
            akgd_mat_mul(c->world[p], c->local[n], c->world[n]);
        done[n] = 1;
    }
    return 1;
}

/* Rigid transform of a world matrix with scale: translation, orthonormalised rotation. */
static int32_t rigid_of(const double m[16], ak_xform *out)
{
    double x[3] = {m[0], m[1], m[2]}, y[3] = {m[4], m[5], m[6]}, z[3];
    double nx = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    if (!(nx > 1e-12)) return -1;
    for (int k = 0; k < 3; ++k)
        x[k] /= nx;
    double d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    for (int k = 0; k < 3; ++k)
        y[k] -= d * x[k];
    double ny = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    if (!(ny > 1e-12)) return -1;
    for (int k = 0; k < 3; ++k)
        y[k] /= ny;
    z[0] = x[1] * y[2] - x[2] * y[1];
    z[1] = x[2] * y[0] - x[0] * y[2];
    z[2] = x[0] * y[1] - x[1] * y[0];
    if (z[0] * m[8] + z[1] * m[9] + z[2] * m[10] < 0.0) return -2; /* mirrored */
    double tr = x[0] + y[1] + z[2], q[4];
    if (tr > 0.0) {
        double s = sqrt(tr + 1.0) * 2.0;
        q[3] = 0.25 * s;
        q[0] = (y[2] - z[1]) / s;
        q[1] = (z[0] - x[2]) / s;
        q[2] = (x[1] - y[0]) / s;
    } else if (x[0] > y[1] && x[0] > z[2]) {
        double s = sqrt(1.0 + x[0] - y[1] - z[2]) * 2.0;
        q[3] = (y[2] - z[1]) / s;
        q[0] = 0.25 * s;
        q[1] = (y[0] + x[1]) / s;
        q[2] = (z[0] + x[2]) / s;
    } else if (y[1] > z[2]) {
        double s = sqrt(1.0 + y[1] - x[0] - z[2]) * 2.0;
        q[3] = (z[0] - x[2]) / s;
        q[0] = (y[0] + x[1]) / s;
        q[1] = 0.25 * s;
        q[2] = (z[1] + y[2]) / s;
    } else {
        double s = sqrt(1.0 + z[2] - x[0] - y[1]) * 2.0;
        q[3] = (x[1] - y[0]) / s;
        q[0] = (z[0] + x[2]) / s;
        q[1] = (z[1] + y[2]) / s;
        q[2] = 0.25 * s;
    }
    ak_quat r = {(float)q[0], (float)q[1], (float)q[2], (float)q[3]};
    out->rotation = ak_quat_normalize(r);
    out->translation = ak_vec3_make((float)m[12], (float)m[13], (float)m[14]);
    return isfinite(out->translation.x) && isfinite(out->translation.y) &&
                   isfinite(out->translation.z)
               ? 0
               : -1;
}

/* The world matrix of the mesh node that uses skin `skin` (identity when none does). */
static void skinned_mesh_world(gr_ctx *c, int32_t skin, uint8_t *done, double out[16])
{
    mat_identity(out);
    int32_t nodes = akj_get(&c->doc, 0, "nodes"), i = 0;
    for (int32_t n = c->doc.v[nodes].first; n >= 0; n = c->doc.v[n].next, ++i) {
        if (akj_number(&c->doc, akj_get(&c->doc, n, "skin"), -1) != skin) continue;
        if (world_of(c, i, done)) memcpy(out, c->world[i], sizeof(double[16]));
        return;
    }
}

/* Depth-first order of the wanted nodes (parents first, children in file order), linear in
 * the nodes; fails as soon as the order would pass GR_MAX_NODES joints. */
static int32_t dfs_order(gr_ctx *c, int32_t *order, int32_t *count)
{
    int32_t n = 0, *stack = c->path;
    for (int32_t root = 0; root < c->nodes; ++root) {
        if (!c->wanted[root] || c->parent[root] >= 0) continue;
        int32_t top = 0;
        stack[top++] = root;
        while (top > 0) {
            int32_t i = stack[--top];
            if (n == GR_MAX_NODES) return gr_fail(c, AK_ERR_LIMIT, 0, "more than 1024 joints");
            order[n++] = i;
            /* Wanted children pushed in reverse file order so the first pops first: they are
             * pushed after being counted, so the stack never holds more than the nodes. */
            int32_t kids = 0;
            for (int32_t k = c->first_child[i]; k >= 0; k = c->next_sibling[k])
                kids += c->wanted[k];
            top += kids;
            int32_t at = top;
            for (int32_t k = c->first_child[i]; k >= 0; k = c->next_sibling[k])
                if (c->wanted[k]) stack[--at] = k;
        }
    }
    *count = n;
    return AK_OK;
}

/* Skin joints -> wanted nodes (with their ancestors); bind-pose world matrices of the joints
 * replace the nodes' own where inverse bind matrices exist. */
static int32_t skin_worlds(gr_ctx *c, int32_t skin)
{
    int32_t skin_v = akj_at(&c->doc, akj_get(&c->doc, 0, "skins"), skin);
    int32_t joints = akj_get(&c->doc, skin_v, "joints");
    if (skin_v < 0) return gr_fail(c, AK_ERR_NOT_FOUND, 0, "no such skin");
    if (akj_type(&c->doc, joints) != AKJ_ARRAY || c->doc.v[joints].count < 1)
        return gr_fail(c, AK_ERR_INVALID_ARG, skin_v, "skin without joints");
    int32_t count = c->doc.v[joints].count;
    if (count > GR_MAX_NODES) return gr_fail(c, AK_ERR_LIMIT, joints, "more than 1024 joints");
    uint8_t *done = (uint8_t *)calloc((size_t)c->nodes, 1);
    double(*ibm)[16] = (double(*)[16])malloc(sizeof(double[16]) * (size_t)count);
    int32_t *idx = (int32_t *)malloc(sizeof(int32_t) * (size_t)count);
    int32_t st = (!done || !ibm || !idx) ? gr_fail(c, AK_ERR_NOMEM, 0, "out of memory") : AK_OK;
    int32_t k = 0;
    for (int32_t e = st < 0 ? -1 : c->doc.v[joints].first; e >= 0 && k < count;
         e = c->doc.v[e].next, ++k) {
        double v = akj_number(&c->doc, e, -1);
        if (v < 0 || v >= c->nodes || v != floor(v)) {
            st = gr_fail(c, AK_ERR_INVALID_ARG, e, "bad joint index");
            break;
        }
        idx[k] = (int32_t)v;
        /* Up to the first node already wanted (its ancestors are too): linear overall. */
        for (int32_t a = idx[k], guard = 0; a >= 0 && !c->wanted[a] && guard <= c->nodes;
             a = c->parent[a], ++guard)
            c->wanted[a] = 1;
    }
    if (st >= 0 && k != count) st = gr_fail(c, AK_ERR_PARSE, skin_v, "skin joints miscounted");
    for (int32_t i = 0; st >= 0 && i < c->nodes; ++i)
        if (c->wanted[i] && !world_of(c, i, done))
            st = gr_fail(c, AK_ERR_INVALID_ARG, 0, "node hierarchy has a cycle");
    int have = 0;
    if (st >= 0) st = read_ibm(c, skin_v, count, ibm, &have);
    if (st >= 0 && have) {
        double mesh[16], bind[16];
        skinned_mesh_world(c, skin, done, mesh);
        for (k = 0; k < count && st >= 0; ++k) {
            if (!akgd_mat_inverse(ibm[k], bind))
                st = gr_fail(c, AK_ERR_INVALID_ARG, skin_v, "singular inverse bind matrix");
            else
                akgd_mat_mul(mesh, bind, c->world[idx[k]]);
        }
    }
    free(done);
    free(ibm);
    free(idx);
    return st;
}

/* Node's name (UTF-8: the JSON reader refuses anything else) into out; "node<N>" when it has
 * none. Longer than AK_NAME_MAX - 1 bytes is refused, as the BVH reader does, rather than cut
 * (a cut could split a UTF-8 sequence and merge two names). */
static int32_t joint_name(gr_ctx *c, int32_t node_v, int32_t node, char out[AK_NAME_MAX])
{
    int32_t name_v = akj_get(&c->doc, node_v, "name");
    const char *nm = akj_string(&c->doc, name_v);
    if (!nm || !*nm) {
        snprintf(out, AK_NAME_MAX, "node%d", (int)node);
        return AK_OK;
    }
    if (strlen(nm) >= AK_NAME_MAX)
        return gr_fail(c, AK_ERR_INVALID_ARG, name_v, "a joint name is longer than 63 bytes");
    memcpy(out, nm, strlen(nm) + 1);
    return AK_OK;
}

/* The skeleton from the wanted nodes in depth-first order. */
static int32_t build_skeleton(gr_ctx *c, ak_skeleton **out)
{
    int32_t *order = (int32_t *)malloc(sizeof(int32_t) * (size_t)c->nodes);
    int32_t *joint_of = (int32_t *)malloc(sizeof(int32_t) * (size_t)c->nodes);
    int32_t n = 0,
            st = (!order || !joint_of) ? gr_fail(c, AK_ERR_NOMEM, 0, "out of memory") : AK_OK;
    if (st >= 0) st = dfs_order(c, order, &n);
    if (st >= 0 && n < 1) st = gr_fail(c, AK_ERR_INVALID_ARG, 0, "skin without joints");
    char(*names)[AK_NAME_MAX] =
        st < 0 ? NULL : (char(*)[AK_NAME_MAX])calloc((size_t)n, AK_NAME_MAX);
    const char **name_ptr = st < 0 ? NULL : (const char **)malloc(sizeof(char *) * (size_t)n);
    int32_t *parents = st < 0 ? NULL : (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    ak_xform *world = st < 0 ? NULL : (ak_xform *)malloc(sizeof(ak_xform) * (size_t)n);
    ak_xform *rest = st < 0 ? NULL : (ak_xform *)malloc(sizeof(ak_xform) * (size_t)n);
    ak_channel_layout *ch =
        st < 0 ? NULL : (ak_channel_layout *)calloc((size_t)n, sizeof(ak_channel_layout));
    if (st >= 0 && (!names || !name_ptr || !parents || !world || !rest || !ch))
        st = gr_fail(c, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; st >= 0 && j < n; ++j) {
        int32_t node = order[j], p = c->parent[node];
        joint_of[node] = j;
        parents[j] = p >= 0 && c->wanted[p] ? joint_of[p] : -1;
        if ((st = joint_name(c, c->node_v[node], node, names[j])) < 0) break;
        name_ptr[j] = names[j];
        int r = rigid_of(c->world[node], &world[j]);
        if (r < 0) {
            st = gr_fail(c, AK_ERR_INVALID_ARG, 0,
                         r == -2 ? "mirrored joint transform" : "degenerate joint transform");
            break;
        }
        rest[j] =
            parents[j] < 0 ? world[j] : ak_xform_mul(ak_xform_inverse(world[parents[j]]), world[j]);
        static const ak_channel_layout root6 = {
            6, {AK_CH_XPOS, AK_CH_YPOS, AK_CH_ZPOS, AK_CH_ZROT, AK_CH_YROT, AK_CH_XROT}};
        static const ak_channel_layout rot3 = {3, {AK_CH_ZROT, AK_CH_YROT, AK_CH_XROT}};
        ch[j] = parents[j] < 0 ? root6 : rot3;
    }
    if (st >= 0) {
        ak_skeleton_desc desc = {n, name_ptr, parents, rest, ch, NULL};
        st = ak_skeleton_create(&desc, out, c->err);
    }
    free(order);
    free(joint_of);
    free(names);
    free(name_ptr);
    free(parents);
    free(world);
    free(rest);
    free(ch);
    return st;
}

/* Splits a GLB container into its JSON and BIN chunks. */
static int32_t split_glb(const uint8_t *d, size_t size, const char **json, size_t *json_len,
                         gr_ctx *c)
{
    uint32_t h[5];
    if (size < 20)
        return ak_error_set(c->err, AK_ERR_PARSE, 0, "glTF: GLB shorter than its header");
    memcpy(h, d, 20);
    if (h[1] != 2 || h[2] > size || h[2] < 20 || h[4] != 0x4E4F534Au || h[3] > h[2] - 20)
        return ak_error_set(c->err, AK_ERR_PARSE, 0, "glTF: bad GLB header or JSON chunk");
    *json = (const char *)d + 20;
    *json_len = h[3];
    size_t at = 20 + (size_t)h[3];
    uint32_t ch[2];
    if (at + 8 <= h[2]) {
        memcpy(ch, d + at, 8);
        if (ch[1] == 0x004E4942u && ch[0] <= h[2] - at - 8) {
            c->bin = d + at + 8;
            c->bin_size = ch[0];
        }
    }
    return AK_OK;
}

int32_t ak_gltf_read_skin_memory(const uint8_t *data, size_t size, const char *base_dir,
                                 int32_t skin, ak_skeleton **out, ak_error *err)
{
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    *out = NULL;
    if (!data || skin < 0)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null data or negative skin index");
    if (size > GR_MAX_BYTES) return ak_error_set(err, AK_ERR_LIMIT, 0, "glTF: larger than 512 MiB");
    gr_ctx c;
    memset(&c, 0, sizeof c);
    c.err = err;
    c.base_dir = base_dir;
    const char *json = (const char *)data;
    size_t json_len = size;
    int32_t st = AK_OK;
    if (size >= 4 && memcmp(data, "glTF", 4) == 0) st = split_glb(data, size, &json, &json_len, &c);
    if (st >= 0) st = akj_parse(json, json_len, &c.doc, err);
    if (st >= 0 && akj_type(&c.doc, 0) != AKJ_OBJECT)
        st = gr_fail(&c, AK_ERR_PARSE, 0, "the document is not an object");
    if (st >= 0) st = read_nodes(&c);
    if (st >= 0) st = skin_worlds(&c, skin);
    if (st >= 0) st = build_skeleton(&c, out);
    akj_free(&c.doc);
    free(c.parent);
    free(c.local);
    free(c.world);
    free(c.wanted);
    free(c.first_child);
    free(c.next_sibling);
    free(c.path);
    free(c.node_v);
    if (st < 0) {
        ak_skeleton_destroy(*out);
        *out = NULL;
        return st;
    }
    ak_error_clear(err);
    return AK_OK;
}

int32_t ak_gltf_read_skin_file(const char *path, int32_t skin, ak_skeleton **out, ak_error *err)
{
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    *out = NULL;
    if (!path) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null path");
    akio_read_params rp = akio_read_defaults();
    rp.max_bytes = GR_MAX_BYTES;
    char *text = NULL;
    size_t len = 0;
    ak_error e;
    int32_t st = akio_read_file(path, &rp, &text, &len, &e);
    if (st) return ak_error_set(err, st, 0, "%s: %s", e.message, path);
    uint8_t *data = (uint8_t *)text;
    char *dir = akgd_folder_of(path);
    if (!dir) {
        free(data);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    st = ak_gltf_read_skin_memory(data, len, dir, skin, out, err);
    free(data);
    free(dir);
    return st;
}
