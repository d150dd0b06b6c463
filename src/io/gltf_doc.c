/* glTF 2.0 documents for the readers: GLB framing, JSON tables, node hierarchy, buffers and
 * typed accessors. See gltf_doc.h. */
#include "io/gltf_doc.h"

#include "io/file.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int32_t akgd_fail(akgd_doc *d, int32_t status, int32_t v, const char *fmt, ...)
{
    char why[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    const int32_t line = v >= 0 && v < d->json.count ? d->json.v[v].line : 0;
    return ak_error_set(d->err, status, line, "glTF: %s", why);
}

int32_t akgd_index(const akgd_doc *d, int32_t obj, const char *key, int32_t fallback)
{
    const int32_t v = akj_get(&d->json, obj, key);
    if (v < 0) return fallback;
    const double x = akj_number(&d->json, v, -1.0);
    return (x >= 0.0 && x <= 1073741824.0 && x == floor(x)) ? (int32_t)x : -2;
}

/* Splits a GLB container into its JSON and BIN chunks; every length is checked against the
 * bytes present. */
static int32_t split_glb(akgd_doc *d, const uint8_t *data, size_t size, const char **json,
                         size_t *json_len)
{
    uint32_t h[5];
    if (size < 20)
        return ak_error_set(d->err, AK_ERR_PARSE, 0,
                            "glTF: GLB of %lu bytes is shorter than "
                            "its 20-byte header",
                            (unsigned long)size);
    memcpy(h, data, 20);
    if (h[1] != 2)
        return ak_error_set(d->err, AK_ERR_PARSE, 0, "glTF: GLB version %u (only 2 is read)",
                            (unsigned)h[1]);
    if (h[2] > size || h[2] < 20)
        return ak_error_set(d->err, AK_ERR_PARSE, 0,
                            "glTF: GLB header says %u bytes but the file has %lu (truncated?)",
                            (unsigned)h[2], (unsigned long)size);
    if (h[4] != 0x4E4F534Au || h[3] > h[2] - 20)
        return ak_error_set(d->err, AK_ERR_PARSE, 0,
                            "glTF: GLB chunk 0 at byte 12 is not a JSON chunk inside the file "
                            "(length %u)",
                            (unsigned)h[3]);
    *json = (const char *)data + 20;
    *json_len = h[3];
    const size_t at = 20 + (size_t)h[3];
    if (at + 8 <= h[2]) {
        uint32_t ch[2];
        memcpy(ch, data + at, 8);
        if (ch[1] == 0x004E4942u) {
            if (ch[0] > h[2] - at - 8)
                return ak_error_set(d->err, AK_ERR_PARSE, 0,
                                    "glTF: GLB BIN chunk at byte %lu says %u bytes but only %lu "
                                    "follow",
                                    (unsigned long)at, (unsigned)ch[0],
                                    (unsigned long)(h[2] - at - 8));
            d->bin = data + at + 8;
            d->bin_size = ch[0];
        }
    }
    return AK_OK;
}

static int32_t make_table(akgd_doc *d, const char *key, akgd_table *t)
{
    const int32_t arr = akj_get(&d->json, 0, key);
    t->count = 0;
    t->v = NULL;
    if (arr < 0) return AK_OK;
    if (akj_type(&d->json, arr) != AKJ_ARRAY)
        return akgd_fail(d, AK_ERR_INVALID_ARG, arr, "\"%s\" is not an array", key);
    t->count = d->json.v[arr].count;
    t->v = (int32_t *)malloc(sizeof(int32_t) * (size_t)(t->count > 0 ? t->count : 1));
    if (!t->v) return akgd_fail(d, AK_ERR_NOMEM, arr, "out of memory");
    int32_t i = 0;
    for (int32_t e = d->json.v[arr].first; e >= 0; e = d->json.v[e].next) {
        if (akj_type(&d->json, e) != AKJ_OBJECT)
            return akgd_fail(d, AK_ERR_INVALID_ARG, e, "%s[%d] is not an object", key, (int)i);
        t->v[i++] = e;
    }
    return AK_OK;
}

/* Children lists -> parent, first_child, next_sibling (file order); one parent per node. */
int32_t akgd_link_children(const akj_doc *json, int32_t node_v, int32_t i, akgd_tree *t,
                           int32_t *where, char *why, size_t why_size)
{
    const int32_t kids = akj_get(json, node_v, "children");
    *where = kids;
    if (kids < 0) return AK_OK;
    if (akj_type(json, kids) != AKJ_ARRAY) {
        snprintf(why, why_size, "nodes[%d].children must be an array of node indices", (int)i);
        return AK_ERR_INVALID_ARG;
    }
    for (int32_t k = json->v[kids].first; k >= 0; k = json->v[k].next) {
        const double x = akj_number(json, k, -1.0);
        *where = k;
        if (!(x >= 0.0 && x < t->count && x == floor(x))) {
            snprintf(why, why_size, "nodes[%d].children names node %g, outside 0..%d", (int)i, x,
                     (int)t->count - 1);
            return AK_ERR_INVALID_ARG;
        }
        const int32_t c = (int32_t)x;
        if (c == i || t->parent[c] >= 0) {
            snprintf(why, why_size, "node %d has two parents (%d and %d) or is its own child",
                     (int)c, (int)(t->parent[c] >= 0 ? t->parent[c] : c), (int)i);
            return AK_ERR_INVALID_ARG;
        }
        t->parent[c] = i;
        if (t->last_child[i] < 0)
            t->first_child[i] = c;
        else
            t->next_sibling[t->last_child[i]] = c;
        t->last_child[i] = c;
    }
    return AK_OK;
}

static int32_t link_children(akgd_doc *d, int32_t *last)
{
    akgd_tree t = {d->nodes.count, d->parent, d->first_child, d->next_sibling, last};
    for (int32_t i = 0; i < d->nodes.count; ++i) {
        char why[128];
        int32_t where = -1;
        const int32_t st =
            akgd_link_children(&d->json, d->nodes.v[i], i, &t, &where, why, sizeof why);
        if (st < 0) return akgd_fail(d, st, where, "%s", why);
    }
    return AK_OK;
}

/* Every node must hang below a root: a node no walk from the roots reaches is on a cycle. */
static int32_t check_cycles(akgd_doc *d, int32_t *stack)
{
    const int32_t n = d->nodes.count;
    uint8_t *seen = (uint8_t *)calloc((size_t)n, 1);
    if (!seen) return akgd_fail(d, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t r = 0; r < n; ++r) {
        if (d->parent[r] >= 0) continue;
        int32_t top = 0;
        stack[top++] = r;
        while (top > 0) {
            const int32_t i = stack[--top];
            seen[i] = 1;
            for (int32_t k = d->first_child[i]; k >= 0; k = d->next_sibling[k])
                stack[top++] = k; /* each node has one parent: pushed at most once */
        }
    }
    int32_t st = AK_OK;
    for (int32_t i = 0; i < n && st >= 0; ++i)
        if (!seen[i])
            st = akgd_fail(d, AK_ERR_INVALID_ARG, d->nodes.v[i],
                           "node hierarchy has a cycle through nodes[%d]", (int)i);
    free(seen);
    return st;
}

static int32_t read_hierarchy(akgd_doc *d)
{
    const size_t n = (size_t)(d->nodes.count > 0 ? d->nodes.count : 1);
    if (d->nodes.count > AKGD_MAX_NODES)
        return akgd_fail(d, AK_ERR_LIMIT, 0, "%d nodes (at most %d)", (int)d->nodes.count,
                         AKGD_MAX_NODES);
    d->parent = (int32_t *)malloc(sizeof(int32_t) * n);
    d->first_child = (int32_t *)malloc(sizeof(int32_t) * n);
    d->next_sibling = (int32_t *)malloc(sizeof(int32_t) * n);
    int32_t *scratch = (int32_t *)malloc(sizeof(int32_t) * n);
    int32_t st = AK_OK;
    const int have = d->parent && d->first_child && d->next_sibling && scratch;
    if (!have) st = akgd_fail(d, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t i = 0; have && st >= 0 && i < d->nodes.count; ++i)
        d->parent[i] = d->first_child[i] = d->next_sibling[i] = scratch[i] = -1;
    if (st >= 0) st = link_children(d, scratch);
    if (st >= 0) st = check_cycles(d, scratch);
    free(scratch);
    return st;
}

int32_t akgd_open(akgd_doc *d, const uint8_t *data, size_t size, const char *base_dir,
                  ak_error *err)
{
    memset(d, 0, sizeof *d);
    d->err = err;
    d->base_dir = base_dir;
    if (size > AKGD_MAX_BYTES)
        return ak_error_set(err, AK_ERR_LIMIT, 0, "glTF: larger than 512 MiB");
    const char *json = (const char *)data;
    size_t json_len = size;
    int32_t st = AK_OK;
    if (size >= 4 && memcmp(data, "glTF", 4) == 0) st = split_glb(d, data, size, &json, &json_len);
    if (st >= 0) st = akj_parse(json, json_len, &d->json, err);
    if (st >= 0 && akj_type(&d->json, 0) != AKJ_OBJECT)
        st = akgd_fail(d, AK_ERR_PARSE, 0, "the document is not a JSON object");
    if (st >= 0) st = make_table(d, "nodes", &d->nodes);
    if (st >= 0) st = make_table(d, "accessors", &d->accessors);
    if (st >= 0) st = make_table(d, "bufferViews", &d->views);
    if (st >= 0) st = make_table(d, "buffers", &d->buffers);
    if (st >= 0) st = make_table(d, "skins", &d->skins);
    if (st >= 0) st = make_table(d, "animations", &d->animations);
    if (st >= 0) {
        const size_t b = (size_t)(d->buffers.count > 0 ? d->buffers.count : 1);
        d->buffer_data = (const uint8_t **)calloc(b, sizeof(uint8_t *));
        d->buffer_size = (size_t *)calloc(b, sizeof(size_t));
        d->buffer_tried = (uint8_t *)calloc(b, 1);
        if (!d->buffer_data || !d->buffer_size || !d->buffer_tried)
            st = akgd_fail(d, AK_ERR_NOMEM, 0, "out of memory");
    }
    if (st >= 0) st = read_hierarchy(d);
    return st;
}

void akgd_close(akgd_doc *d)
{
    for (int32_t b = 0; d->buffer_data && b < d->buffers.count; ++b)
        if (d->buffer_data[b] != d->bin) free((void *)d->buffer_data[b]); /* not the caller's */
    free((void *)d->buffer_data);
    free(d->buffer_size);
    free(d->buffer_tried);
    free(d->nodes.v);
    free(d->accessors.v);
    free(d->views.v);
    free(d->buffers.v);
    free(d->skins.v);
    free(d->animations.v);
    free(d->parent);
    free(d->first_child);
    free(d->next_sibling);
    akj_free(&d->json);
    memset(d, 0, sizeof *d);
}

/* ---- node transforms ---- */

void akgd_mat_mul(const double a[16], const double b[16], double out[16])
{
    double r[16];
    for (int col = 0; col < 4; ++col)
        for (int row = 0; row < 4; ++row) {
            double s = 0.0;
            for (int k = 0; k < 4; ++k)
                s += a[k * 4 + row] * b[col * 4 + k];
            r[col * 4 + row] = s;
        }
    memcpy(out, r, sizeof r);
}

void akgd_compose(akgd_trs *trs)
{
    const double *q = trs->r;
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double rot[9] = {
        1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
        2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
        2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
    for (int col = 0; col < 3; ++col) {
        for (int row = 0; row < 3; ++row)
            trs->m[col * 4 + row] = rot[col * 3 + row] * trs->s[col];
        trs->m[col * 4 + 3] = 0.0;
    }
    trs->m[12] = trs->t[0];
    trs->m[13] = trs->t[1];
    trs->m[14] = trs->t[2];
    trs->m[15] = 1.0;
}

/* `count` finite numbers of array member `key`; 1 read, 0 absent, <0 error. */
static int32_t member_numbers(akgd_doc *d, int32_t obj, const char *key, double *out, int count,
                              int32_t node)
{
    const int32_t arr = akj_get(&d->json, obj, key);
    if (arr < 0) return 0;
    if (akj_type(&d->json, arr) != AKJ_ARRAY || d->json.v[arr].count != count)
        return akgd_fail(d, AK_ERR_INVALID_ARG, arr, "nodes[%d].%s must be %d numbers", (int)node,
                         key, count);
    int i = 0;
    for (int32_t e = d->json.v[arr].first; e >= 0; e = d->json.v[e].next, ++i) {
        const double x = akj_number(&d->json, e, NAN);
        if (!isfinite(x) || fabs(x) > 1e30)
            return akgd_fail(d, AK_ERR_INVALID_ARG, e, "nodes[%d].%s[%d] is not a finite number",
                             (int)node, key, i);
        out[i] = x;
    }
    return 1;
}

int32_t akgd_node_trs(akgd_doc *d, int32_t node, akgd_trs *out)
{
    const int32_t v = d->nodes.v[node];
    memset(out, 0, sizeof *out);
    out->r[3] = 1.0;
    out->s[0] = out->s[1] = out->s[2] = 1.0;
    int32_t st = member_numbers(d, v, "matrix", out->m, 16, node);
    if (st < 0) return st;
    if (st == 1) {
        out->has_matrix = 1;
        return AK_OK;
    }
    if ((st = member_numbers(d, v, "translation", out->t, 3, node)) < 0) return st;
    if ((st = member_numbers(d, v, "rotation", out->r, 4, node)) < 0) return st;
    if ((st = member_numbers(d, v, "scale", out->s, 3, node)) < 0) return st;
    const double n = sqrt(out->r[0] * out->r[0] + out->r[1] * out->r[1] + out->r[2] * out->r[2] +
                          out->r[3] * out->r[3]);
    if (!(n > 1e-12))
        return akgd_fail(d, AK_ERR_INVALID_ARG, v, "nodes[%d].rotation is a zero quaternion",
                         (int)node);
    for (int k = 0; k < 4; ++k)
        out->r[k] /= n;
    akgd_compose(out);
    return AK_OK;
}

/* ---- buffers ---- */

static int b64_value(char ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+' || ch == '-') return 62;
    if (ch == '/' || ch == '_') return 63;
    return -1;
}

uint8_t *akgd_b64_decode(const char *s, size_t *out_size)
{
    const size_t n = strlen(s);
    size_t k = 0;
    uint8_t *out = (uint8_t *)malloc(n / 4 * 3 + 3);
    if (!out) return NULL;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n && s[i] != '='; ++i) {
        const int v = b64_value(s[i]);
        if (v < 0) {
            free(out);
            return NULL;
        }
        acc = ((acc << 6) | (unsigned)v) & 0xFFFFFFu;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[k++] = (uint8_t)(acc >> bits);
        }
    }
    *out_size = k;
    return out;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int akgd_uri_decode(const char *uri, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; uri[i]; ++i) {
        char c = uri[i];
        if (c == '%') {
            const int hi = hex_value(uri[i + 1]), lo = hi < 0 ? -1 : hex_value(uri[i + 2]);
            if (lo < 0 || (hi == 0 && lo == 0)) return 0;
            c = (char)(hi * 16 + lo);
            i += 2;
        }
        if (k + 1 >= cap) return 0;
        out[k++] = c;
    }
    out[k] = '\0';
    return 1;
}

/* A relative URI as a path inside `dir`: %XX decoded; absolute paths, schemes, "..",
 * backslashes and NULs refused (a buffer never reaches outside the file's folder). */
static int uri_to_path(const char *dir, const char *uri, char *path, size_t cap)
{
    char rel[1024];
    if (!akgd_uri_decode(uri, rel, sizeof rel)) return 0;
    if (!rel[0] || rel[0] == '/' || strchr(rel, '\\') || strchr(rel, ':') || strstr(rel, ".."))
        return 0;
    return snprintf(path, cap, "%s/%s", dir, rel) < (int)cap;
}

uint8_t *akgd_read_file(const char *path, size_t *size, const char **why)
{
    akio_read_params rp = akio_read_defaults();
    rp.max_bytes = AKGD_MAX_BYTES;
    ak_error e;
    char *data = NULL;
    switch (akio_read_file(path, &rp, &data, size, &e)) {
    case AK_OK: return (uint8_t *)data;
    case AK_ERR_LIMIT: *why = "is larger than 512 MiB"; break;
    case AK_ERR_NOMEM: *why = "cannot be read (out of memory)"; break;
    default:
        *why =
            strstr(e.message, "not a regular file") ? "is not a regular file" : "cannot be opened";
    }
    return NULL;
}

/* Bytes of buffer b (loaded once), checked against its byteLength. */
static int32_t buffer_bytes(akgd_doc *d, int32_t b, const uint8_t **bytes, size_t *size)
{
    const int32_t bv = d->buffers.v[b];
    const int32_t declared = akgd_index(d, bv, "byteLength", -1);
    const char *uri = akj_string(&d->json, akj_get(&d->json, bv, "uri"));
    if (!d->buffer_tried[b]) {
        d->buffer_tried[b] = 1;
        const char *why = "is missing";
        if (!uri) {
            if (b == 0 && d->bin) { /* read in place: the caller's bytes outlive the doc */
                d->buffer_data[b] = d->bin;
                d->buffer_size[b] = d->bin_size;
            }
            why = "has no uri and the file has no GLB BIN chunk";
        } else if (strncmp(uri, "data:", 5) == 0) {
            const char *comma = strstr(uri, ";base64,");
            d->buffer_data[b] = comma ? akgd_b64_decode(comma + 8, &d->buffer_size[b]) : NULL;
            why = "has a data: URI that is not valid base64";
        } else {
            char path[2048];
            if (!d->base_dir || !uri_to_path(d->base_dir, uri, path, sizeof path))
                why = "names a file outside the glTF file's folder (or none can be read here)";
            else
                d->buffer_data[b] = akgd_read_file(path, &d->buffer_size[b], &why);
        }
        if (!d->buffer_data[b])
            return akgd_fail(d, AK_ERR_IO, bv, "buffers[%d] %s%s%.200s%s", (int)b, why,
                             uri && strncmp(uri, "data:", 5) != 0 ? " (\"" : "",
                             uri && strncmp(uri, "data:", 5) != 0 ? uri : "",
                             uri && strncmp(uri, "data:", 5) != 0 ? "\")" : "");
    }
    if (!d->buffer_data[b]) return akgd_fail(d, AK_ERR_IO, bv, "buffers[%d] is missing", (int)b);
    if (declared < 0 || (size_t)declared > d->buffer_size[b])
        return akgd_fail(d, AK_ERR_INVALID_ARG, bv,
                         "buffers[%d].byteLength %d is missing or larger than its %lu bytes",
                         (int)b, (int)declared, (unsigned long)d->buffer_size[b]);
    *bytes = d->buffer_data[b];
    *size = (size_t)declared;
    return AK_OK;
}

/* The bytes of bufferView `view`: start and length inside its buffer, and its stride. */
static int32_t view_bytes(akgd_doc *d, int32_t view, const char *what, const uint8_t **bytes,
                          size_t *len, int32_t *stride)
{
    if (view < 0 || view >= d->views.count)
        return akgd_fail(d, AK_ERR_INVALID_ARG, 0, "%s: bufferView %d does not exist", what,
                         (int)view);
    const int32_t vv = d->views.v[view];
    const int32_t b = akgd_index(d, vv, "buffer", -1);
    const int32_t off = akgd_index(d, vv, "byteOffset", 0);
    const int32_t n = akgd_index(d, vv, "byteLength", -1);
    *stride = akgd_index(d, vv, "byteStride", 0);
    if (b < 0 || b >= d->buffers.count || off < 0 || n < 0 || *stride < 0 ||
        (*stride != 0 && (*stride < 4 || *stride > 252)))
        return akgd_fail(d, AK_ERR_INVALID_ARG, vv,
                         "%s: bufferViews[%d] has a bad buffer, byteOffset, byteLength or "
                         "byteStride",
                         what, (int)view);
    const uint8_t *data = NULL;
    size_t size = 0;
    const int32_t st = buffer_bytes(d, b, &data, &size);
    if (st < 0) return st;
    if ((size_t)off + (size_t)n > size)
        return akgd_fail(d, AK_ERR_INVALID_ARG, vv,
                         "%s: bufferViews[%d] (bytes %d..%d) lies outside buffers[%d] (%lu "
                         "bytes)",
                         what, (int)view, (int)off, (int)off + (int)n, (int)b, (unsigned long)size);
    *bytes = data + off;
    *len = (size_t)n;
    return AK_OK;
}

/* ---- accessors ---- */

static int component_size(int32_t type)
{
    switch (type) {
    case 5120:
    case 5121: return 1;
    case 5122:
    case 5123: return 2;
    case 5125:
    case 5126: return 4;
    default: return 0;
    }
}

static int type_components(const char *type)
{
    static const struct {
        const char *name;
        int n;
    } types[] = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4},
                 {"MAT2", 4},   {"MAT3", 9}, {"MAT4", 16}};
    for (size_t i = 0; type && i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(type, types[i].name) == 0) return types[i].n;
    return 0;
}

/* One component at p as a float (normalized integers to [-1,1] / [0,1], glTF 2.0 3.11). */
static float read_component(const uint8_t *p, int32_t type, int normalized)
{
    switch (type) {
    case 5120: {
        const int8_t v = (int8_t)p[0];
        return normalized ? fmaxf((float)v / 127.0f, -1.0f) : (float)v;
    }
    case 5121: return normalized ? (float)p[0] / 255.0f : (float)p[0];
    case 5122: {
        int16_t v;
        memcpy(&v, p, 2);
        return normalized ? fmaxf((float)v / 32767.0f, -1.0f) : (float)v;
    }
    case 5123: {
        uint16_t v;
        memcpy(&v, p, 2);
        return normalized ? (float)v / 65535.0f : (float)v;
    }
    case 5125: {
        uint32_t v;
        memcpy(&v, p, 4);
        return (float)v;
    }
    default: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

/* An accessor's element layout, checked against the bytes of its view. */
typedef struct gd_layout {
    const uint8_t *bytes; /* first element, NULL for an all-zero (sparse-only) accessor */
    size_t stride;
    int32_t component, normalized, count;
} gd_layout;

static int32_t layout_of(akgd_doc *d, int32_t av, int32_t view, int32_t offset, int32_t count,
                         int32_t component, int32_t comps, const char *what, gd_layout *l)
{
    const uint8_t *bytes = NULL;
    size_t len = 0;
    int32_t stride = 0;
    l->component = component;
    l->count = count;
    l->bytes = NULL;
    l->stride = (size_t)component_size(component) * (size_t)comps;
    if (view < 0) return AK_OK;
    const int32_t st = view_bytes(d, view, what, &bytes, &len, &stride);
    if (st < 0) return st;
    if (stride > 0) {
        if ((size_t)stride < l->stride)
            return akgd_fail(d, AK_ERR_INVALID_ARG, av,
                             "%s: byteStride %d is smaller than an "
                             "element (%lu bytes)",
                             what, (int)stride, (unsigned long)l->stride);
        l->stride = (size_t)stride;
    }
    const size_t elem = (size_t)component_size(component) * (size_t)comps;
    const double need = (double)offset + (double)l->stride * (double)(count - 1) + (double)elem;
    if (offset < 0 || offset % component_size(component) != 0 || need > (double)len)
        return akgd_fail(d, AK_ERR_INVALID_ARG, av,
                         "%s: %d elements from byteOffset %d need %.0f bytes but the "
                         "bufferView has %lu",
                         what, (int)count, (int)offset, need, (unsigned long)len);
    l->bytes = bytes + offset;
    return AK_OK;
}

static void read_elements(const gd_layout *l, int32_t comps, float *out)
{
    const int csize = component_size(l->component);
    if (l->bytes && l->component == 5126) { /* float: the bytes as they are (no conversion) */
        const size_t row = sizeof(float) * (size_t)comps;
        if (l->stride == row)
            memcpy(out, l->bytes, row * (size_t)l->count);
        else
            for (int32_t e = 0; e < l->count; ++e)
                memcpy(out + (size_t)e * (size_t)comps, l->bytes + l->stride * (size_t)e, row);
        return;
    }
    for (int32_t e = 0; e < l->count; ++e)
        for (int32_t k = 0; k < comps; ++k)
            out[(size_t)e * (size_t)comps + (size_t)k] =
                l->bytes
                    ? read_component(l->bytes + l->stride * (size_t)e + (size_t)csize * (size_t)k,
                                     l->component, l->normalized)
                    : 0.0f;
}

/* Sparse substitution (glTF 2.0 3.6.2.3): indices strictly increasing and in range. */
static int32_t apply_sparse(akgd_doc *d, int32_t av, int32_t count, int32_t comps,
                            const gd_layout *base, const char *what, float *out)
{
    const int32_t sp = akj_get(&d->json, av, "sparse");
    if (sp < 0) return AK_OK;
    const int32_t n = akgd_index(d, sp, "count", -1);
    const int32_t iv = akj_get(&d->json, sp, "indices"), vv = akj_get(&d->json, sp, "values");
    if (n < 1 || n > count || iv < 0 || vv < 0)
        return akgd_fail(d, AK_ERR_INVALID_ARG, sp,
                         "%s: sparse count %d must be 1..%d with "
                         "indices and values",
                         what, (int)n, (int)count);
    const int32_t itype = akgd_index(d, iv, "componentType", -1);
    if (itype != 5121 && itype != 5123 && itype != 5125)
        return akgd_fail(d, AK_ERR_INVALID_ARG, iv,
                         "%s: sparse indices must be unsigned "
                         "integers",
                         what);
    gd_layout il, vl;
    int32_t st = layout_of(d, iv, akgd_index(d, iv, "bufferView", -1),
                           akgd_index(d, iv, "byteOffset", 0), n, itype, 1, what, &il);
    if (st >= 0)
        st = layout_of(d, vv, akgd_index(d, vv, "bufferView", -1),
                       akgd_index(d, vv, "byteOffset", 0), n, base->component, comps, what, &vl);
    if (st < 0) return st;
    if (!il.bytes || !vl.bytes)
        return akgd_fail(d, AK_ERR_INVALID_ARG, sp,
                         "%s: sparse indices/values without a "
                         "bufferView",
                         what);
    il.stride = (size_t)component_size(itype); /* tightly packed by the spec */
    vl.stride = (size_t)component_size(base->component) * (size_t)comps;
    vl.normalized = base->normalized;
    double prev = -1.0;
    for (int32_t e = 0; e < n; ++e) {
        const double idx = read_component(il.bytes + il.stride * (size_t)e, itype, 0);
        if (!(idx > prev) || idx >= count)
            return akgd_fail(d, AK_ERR_INVALID_ARG, sp,
                             "%s: sparse index %.0f (entry %d) is "
                             "out of range or not increasing",
                             what, idx, (int)e);
        prev = idx;
        for (int32_t k = 0; k < comps; ++k)
            out[(size_t)idx * (size_t)comps + (size_t)k] =
                read_component(vl.bytes + vl.stride * (size_t)e +
                                   (size_t)component_size(base->component) * (size_t)k,
                               base->component, base->normalized);
    }
    return AK_OK;
}

/* The index of v's first non-finite value, n when all are finite: blocks tested without a
 * branch per value (a loop the compiler vectorises), the culprit sought only in a bad block. */
static size_t first_non_finite(const float *v, size_t n)
{
    for (size_t at = 0; at < n; at += 256) {
        const size_t end = n - at < 256 ? n : at + 256;
        int bad = 0;
        for (size_t i = at; i < end; ++i)
            bad |= !isfinite(v[i]);
        for (size_t i = at; bad && i < end; ++i)
            if (!isfinite(v[i])) return i;
    }
    return n;
}

int32_t akgd_read_floats(akgd_doc *d, int32_t index, int32_t components, const char *what,
                         int32_t *count, float **out)
{
    *out = NULL;
    *count = 0;
    if (index < 0 || index >= d->accessors.count)
        return akgd_fail(d, AK_ERR_INVALID_ARG, 0,
                         "%s: accessor %d does not exist (%d "
                         "accessors)",
                         what, (int)index, (int)d->accessors.count);
    const int32_t av = d->accessors.v[index];
    const int32_t comp = akgd_index(d, av, "componentType", -1);
    const int32_t n = akgd_index(d, av, "count", -1);
    const int comps = type_components(akj_string(&d->json, akj_get(&d->json, av, "type")));
    if (component_size(comp) == 0 || n < 1 || comps != components)
        return akgd_fail(d, AK_ERR_INVALID_ARG, av,
                         "%s: accessors[%d] must have %d component%s "
                         "per element, a known componentType and count >= 1",
                         what, (int)index, (int)components, components == 1 ? "" : "s");
    if ((double)n * components > 16.0 * 1024 * 1024) /* 64 MB of floats */
        return akgd_fail(d, AK_ERR_LIMIT, av, "%s: accessors[%d] is too large", what, (int)index);
    gd_layout l;
    memset(&l, 0, sizeof l);
    int32_t st = layout_of(d, av, akgd_index(d, av, "bufferView", -1),
                           akgd_index(d, av, "byteOffset", 0), n, comp, comps, what, &l);
    if (st < 0) return st;
    l.normalized = akj_type(&d->json, akj_get(&d->json, av, "normalized")) == AKJ_TRUE;
    float *v = (float *)malloc(sizeof(float) * ((size_t)n * (size_t)comps + 1)); /* never 0 B */
    if (!v) return akgd_fail(d, AK_ERR_NOMEM, av, "out of memory");
    read_elements(&l, comps, v);
    st = apply_sparse(d, av, n, comps, &l, what, v);
    const size_t bad = st >= 0 ? first_non_finite(v, (size_t)n * (size_t)comps) : 0;
    if (st >= 0 && bad < (size_t)n * (size_t)comps)
        st = akgd_fail(d, AK_ERR_INVALID_ARG, av, "%s: accessors[%d] element %d is not finite",
                       what, (int)index, (int)(bad / (size_t)comps));
    if (st < 0) {
        free(v);
        return st;
    }
    *out = v;
    *count = n;
    return AK_OK;
}

/* General 4x4 inverse by cofactors; 0 when singular. */
int akgd_mat_inverse(const double m[16], double out[16])
{
    double inv[16];
    inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] +
             m[9] * m[7] * m[14] + m[13] * m[6] * m[11] - m[13] * m[7] * m[10];
    inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] -
             m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10];
    inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] +
             m[8] * m[7] * m[13] + m[12] * m[5] * m[11] - m[12] * m[7] * m[9];
    inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] -
              m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9];
    inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] -
             m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10];
    inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] +
             m[8] * m[3] * m[14] + m[12] * m[2] * m[11] - m[12] * m[3] * m[10];
    inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] -
             m[8] * m[3] * m[13] - m[12] * m[1] * m[11] + m[12] * m[3] * m[9];
    inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] +
              m[8] * m[2] * m[13] + m[12] * m[1] * m[10] - m[12] * m[2] * m[9];
    inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] +
             m[13] * m[2] * m[7] - m[13] * m[3] * m[6];
    inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] -
             m[4] * m[3] * m[14] - m[12] * m[2] * m[7] + m[12] * m[3] * m[6];
    inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] +
              m[4] * m[3] * m[13] + m[12] * m[1] * m[7] - m[12] * m[3] * m[5];
    inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] -
              m[4] * m[2] * m[13] - m[12] * m[1] * m[6] + m[12] * m[2] * m[5];
    inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] -
             m[5] * m[3] * m[10] - m[9] * m[2] * m[7] + m[9] * m[3] * m[6];
    inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] +
             m[8] * m[2] * m[7] - m[8] * m[3] * m[6];
    inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] -
              m[8] * m[1] * m[7] + m[8] * m[3] * m[5];
    inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] +
              m[8] * m[1] * m[6] - m[8] * m[2] * m[5];
    const double det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
    if (!(fabs(det) > 1e-300) || !isfinite(det)) return 0;
    for (int i = 0; i < 16; ++i)
        out[i] = inv[i] / det;
    return 1;
}

char *akgd_folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
#if defined(_WIN32)
    const char *back = strrchr(path, '\\');
    if (back && (!slash || back > slash)) slash = back;
#endif
    const size_t len = slash ? (size_t)(slash - path) : 1;
    char *dir = (char *)malloc(len + 2);
    if (!dir) return NULL;
    memcpy(dir, slash ? path : ".", len);
    dir[len] = '\0';
    if (slash && len == 0) { /* "/x.gltf": the root folder */
        dir[0] = '/';
        dir[1] = '\0';
    }
    return dir;
}
