/* glTF 2.0 export: joints as nodes, a skin, one animation, optionally a capsule mesh.
 *
 * The JSON is written by hand (the library links libc + libm only). All binary data goes in
 * one buffer, laid out as: key times | rotation outputs | translation outputs | inverse bind
 * matrices | mesh positions | normals | joints | weights | indices, each block 4-byte aligned.
 * Offline code: it allocates freely. */
#include "animkit/gltf.h"
#include "animkit/bvh.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xform_inline.h"
#include "io/file.h"
#include "io/number_text.h"

/* glTF constants (the OpenGL enums the format reuses). */
#define GLTF_FLOAT                5126
#define GLTF_UNSIGNED_SHORT       5123
#define GLTF_UNSIGNED_INT         5125
#define GLTF_ARRAY_BUFFER         34962
#define GLTF_ELEMENT_ARRAY_BUFFER 34963

/* Capsule mesh resolution: sides around the bone. */
#define CAPSULE_SIDES 8
#define CAPSULE_VERTS 18 /* 2 rings of CAPSULE_SIDES + 2 tips */
#define CAPSULE_TRIS  32 /* 4 per side: 2 caps + a quad */

ak_gltf_options ak_gltf_defaults(void)
{
    ak_gltf_options o;
    o.metres_per_unit = 1.0f;
    o.cubic = 0;
    o.with_mesh = 1;
    return o;
}

int32_t ak_gltf_validate(const ak_gltf_options *o, ak_error *err)
{
    if (!o) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "options is NULL");
    if (!(o->metres_per_unit > 0.0f) || !isfinite(o->metres_per_unit))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "metres_per_unit must be finite and > 0 (got %g)",
                            (double)o->metres_per_unit);
    if (o->cubic != 0 && o->cubic != 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "cubic must be 0 or 1");
    if (o->with_mesh != 0 && o->with_mesh != 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "with_mesh must be 0 or 1");
    return AK_OK;
}

/* ---- a growable byte buffer with printf-append (JSON text and binary data) ---- */

typedef struct gbuf {
    uint8_t *data;
    size_t size, cap;
    int failed;
    int nonfinite; /* a float that is not finite was asked for: the document is refused */
} gbuf;

static int gbuf_reserve(gbuf *b, size_t extra)
{
    if (b->failed) return -1;
    if (b->size + extra + 1 <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->size + extra + 1)
        cap *= 2;
    uint8_t *p = (uint8_t *)realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

static void gbuf_append(gbuf *b, const void *src, size_t n)
{
    if (gbuf_reserve(b, n) != 0 || !b->data) return;
    memcpy(b->data + b->size, src, n);
    b->size += n;
    b->data[b->size] = 0;
}

static void gbuf_printf(gbuf *b, const char *fmt, ...)
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
        gbuf_append(b, small, (size_t)n);
        return;
    }
    if (gbuf_reserve(b, (size_t)n) != 0) return;
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->size, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->size += (size_t)n;
}

static void gbuf_align4(gbuf *b, uint8_t pad)
{
    while (b->size % 4)
        gbuf_append(b, &pad, 1);
}

/* A float as JSON: 9 significant digits round-trip a float exactly; -0 is written as 0; '.'
 * whatever the C locale. JSON has no infinity or NaN: those mark the document refused. */
static void json_float(gbuf *b, float v)
{
    char num[AKIO_NUMBER_MAX];
    if (!isfinite(v)) {
        b->nonfinite = 1;
        v = 0.0f;
    }
    gbuf_append(b, num, (size_t)akio_format_number(num, (double)v, 9));
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when p does not start one
 * (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF). */
static int utf8_length(const unsigned char *p)
{
    const unsigned c = p[0];
    int n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F;
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    if (p[1] < lo || p[1] > hi) return 0;
    for (int i = 2; i < n; ++i)
        if (p[i] < 0x80 || p[i] > 0xBF) return 0;
    return n;
}

/* A JSON string: UTF-8 text is copied as it is, with only the escapes JSON requires (quote,
 * backslash, control characters). A byte that is not valid UTF-8 is taken as Latin-1 (names
 * from old BVH files) and written as that character's UTF-8, so the output is always valid. */
static void json_string(gbuf *b, const char *s)
{
    gbuf_append(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = *p >= 0x80 ? utf8_length(p) : 1;
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            gbuf_append(b, e, 2);
        } else if (*p < 0x20) {
            gbuf_printf(b, "\\u%04x", (unsigned)*p);
        } else if (n == 0) {
            unsigned char latin1[2] = {(unsigned char)(0xC0 | (*p >> 6)),
                                       (unsigned char)(0x80 | (*p & 0x3F))};
            gbuf_append(b, latin1, 2);
            n = 1;
        } else {
            gbuf_append(b, p, (size_t)n);
        }
        p += n;
    }
    gbuf_append(b, "\"", 1);
}

/* ---- binary blocks ---- */

typedef struct block {
    size_t offset, length;
} block;

static block bin_floats(gbuf *bin, const float *v, size_t count)
{
    block r;
    for (size_t i = 0; i < count; ++i)
        if (!isfinite(v[i])) bin->nonfinite = 1;
    gbuf_align4(bin, 0);
    r.offset = bin->size;
    gbuf_append(bin, v, count * sizeof(float));
    r.length = count * sizeof(float);
    return r;
}

/* ---- input checks ---- */

static int32_t check_input(const ak_skeleton *s, const ak_clip *c, ak_error *err)
{
    if (!s || s->joint_count < 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "skeleton is NULL or empty");
    for (int32_t j = 0; j < s->joint_count; ++j) {
        if (!akv_finite(s->rest_local[j].translation) || !akq_finite(s->rest_local[j].rotation))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint %d has a non-finite rest pose",
                                (int)j);
    }
    if (!c) return AK_OK;
    if (c->joint_count != s->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has %d joints, skeleton %d",
                            (int)c->joint_count, (int)s->joint_count);
    if (c->frame_count < 1 || !(c->frame_time > 0.0f) || !isfinite(c->frame_time))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has no frames or a bad frame time");
    size_t nr = (size_t)c->frame_count * (size_t)c->joint_count;
    for (size_t i = 0; i < nr; ++i)
        if (!akq_finite(c->rotations[i]))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has a non-finite rotation key");
    size_t nt = (size_t)c->frame_count * (size_t)c->track_count;
    for (size_t i = 0; i < nt; ++i)
        if (!akv_finite(c->translations[i]))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "clip has a non-finite translation key");
    return AK_OK;
}

/* ---- animation outputs ---- */

/* Writes the sampler output for one joint's track of `comps` floats per key, read from
 * keys[f * stride + 0..comps). LINEAR: the keys. CUBICSPLINE: per key (in-tangent, value,
 * out-tangent), tangents as Catmull-Rom derivatives per second:
 *   m_f = (p_{f+1} - p_{f-1}) / (2 dt), one-sided at the ends.
 * glTF's spline is p(s) = h00 p_k + h10 dt b_k + h01 p_{k+1} + h11 dt a_{k+1} with b the
 * out-tangent and a the in-tangent, so equal in/out tangents make the curve C1. */
static void write_track(float *out, const float *keys, size_t stride, int32_t frames, int comps,
                        float dt, float scale, int cubic)
{
    for (int32_t f = 0; f < frames; ++f) {
        const float *p = keys + (size_t)f * stride;
        if (!cubic) {
            for (int c = 0; c < comps; ++c)
                out[(size_t)f * comps + c] = p[c] * scale;
            continue;
        }
        const float *prev = keys + (size_t)(f > 0 ? f - 1 : f) * stride;
        const float *next = keys + (size_t)(f + 1 < frames ? f + 1 : f) * stride;
        float span = dt * (float)((f + 1 < frames ? f + 1 : f) - (f > 0 ? f - 1 : f));
        float *o = out + (size_t)f * 3 * comps;
        for (int c = 0; c < comps; ++c) {
            float m = span > 0.0f ? (next[c] - prev[c]) * scale / span : 0.0f;
            o[c] = m;
            o[comps + c] = p[c] * scale;
            o[2 * comps + c] = m;
        }
    }
}

/* ---- capsule mesh ---- */

typedef struct mesh_data {
    int32_t bone_count;
    float *positions;  /* VEC3 per vertex, metres, rest pose world space */
    float *normals;    /* VEC3 unit */
    uint16_t *joints;  /* VEC4 */
    float *weights;    /* VEC4 */
    uint32_t *indices; /* 3 per triangle */
    float pmin[3], pmax[3];
} mesh_data;

static void mesh_free(mesh_data *m)
{
    free(m->positions);
    free(m->normals);
    free(m->joints);
    free(m->weights);
    free(m->indices);
}

static void put3(float *dst, ak_vec3 v)
{
    dst[0] = v.x;
    dst[1] = v.y;
    dst[2] = v.z;
}

/* One capsule per bone parent->joint (joints with zero-length bones are skipped): two rings
 * of CAPSULE_SIDES vertices one radius in from each end and a tip at each end, all bound to
 * the parent joint with weight 1. Radius: 20% of the bone, at most 3.5 cm. Triangles wind
 * counter-clockwise seen from outside. */
static int build_mesh(const ak_skeleton *s, const ak_xform *world_m, mesh_data *m)
{
    int32_t n = s->joint_count;
    memset(m, 0, sizeof *m);
    for (int32_t j = 0; j < n; ++j) {
        int32_t p = s->parents[j];
        if (p >= 0 && akv_len(akv_sub(world_m[j].translation, world_m[p].translation)) > 1e-5f)
            m->bone_count++;
    }
    if (m->bone_count == 0) return 0;
    size_t nv = (size_t)m->bone_count * CAPSULE_VERTS, nt = (size_t)m->bone_count * CAPSULE_TRIS;
    m->positions = (float *)malloc(nv * 3 * sizeof(float));
    m->normals = (float *)malloc(nv * 3 * sizeof(float));
    m->joints = (uint16_t *)calloc(nv * 4, sizeof(uint16_t));
    m->weights = (float *)calloc(nv * 4, sizeof(float));
    m->indices = (uint32_t *)malloc(nt * 3 * sizeof(uint32_t));
    if (!m->positions || !m->normals || !m->joints || !m->weights || !m->indices) return -1;

    size_t v = 0, t = 0;
    for (int32_t j = 0; j < n; ++j) {
        int32_t p = s->parents[j];
        if (p < 0) continue;
        ak_vec3 a = world_m[p].translation, b = world_m[j].translation;
        ak_vec3 ab = akv_sub(b, a);
        float len = akv_len(ab);
        if (!(len > 1e-5f)) continue;
        ak_vec3 d = akv_scale(ab, 1.0f / len);
        ak_vec3 helper = fabsf(d.y) < 0.9f ? ak_vec3_make(0, 1, 0) : ak_vec3_make(1, 0, 0);
        ak_vec3 u = ak_vec3_normalize_or(akv_cross(helper, d), ak_vec3_make(1, 0, 0));
        ak_vec3 w = akv_cross(d, u); /* u x w = d: right-handed basis around the bone */
        float r = 0.2f * len < 0.035f ? 0.2f * len : 0.035f;
        size_t base = v;
        for (int ring = 0; ring < 2; ++ring) {
            ak_vec3 c = ring == 0 ? akv_add(a, akv_scale(d, r)) : akv_sub(b, akv_scale(d, r));
            for (int k = 0; k < CAPSULE_SIDES; ++k) {
                float th = 2.0f * AK_PI * (float)k / (float)CAPSULE_SIDES;
                ak_vec3 radial = akv_add(akv_scale(u, cosf(th)), akv_scale(w, sinf(th)));
                radial = ak_vec3_normalize_or(radial, u);
                put3(m->positions + v * 3, akv_add(c, akv_scale(radial, r)));
                put3(m->normals + v * 3, radial);
                ++v;
            }
        }
        put3(m->positions + v * 3, a);
        put3(m->normals + v * 3, akv_scale(d, -1.0f));
        size_t tip_a = v++;
        put3(m->positions + v * 3, b);
        put3(m->normals + v * 3, d);
        size_t tip_b = v++;
        for (size_t q = base; q < v; ++q) {
            m->joints[q * 4] = (uint16_t)p;
            m->weights[q * 4] = 1.0f;
        }
        for (int k = 0; k < CAPSULE_SIDES; ++k) {
            uint32_t r0k = (uint32_t)(base + (size_t)k);
            uint32_t r0n = (uint32_t)(base + (size_t)((k + 1) % CAPSULE_SIDES));
            uint32_t r1k = r0k + CAPSULE_SIDES, r1n = r0n + CAPSULE_SIDES;
            uint32_t tri[4][3] = {{r0n, r0k, (uint32_t)tip_a},
                                  {r0k, r0n, r1n},
                                  {r0k, r1n, r1k},
                                  {r1k, r1n, (uint32_t)tip_b}};
            memcpy(m->indices + t * 3, tri, sizeof tri);
            t += 4;
        }
    }
    for (int c = 0; c < 3; ++c) {
        m->pmin[c] = m->positions[c];
        m->pmax[c] = m->positions[c];
    }
    for (size_t q = 0; q < v; ++q)
        for (int c = 0; c < 3; ++c) {
            float x = m->positions[q * 3 + (size_t)c];
            if (x < m->pmin[c]) m->pmin[c] = x;
            if (x > m->pmax[c]) m->pmax[c] = x;
        }
    return 0;
}

/* ---- the document ---- */

typedef struct accessor {
    size_t view, offset, count;
    int component;
    const char *type;
    int has_minmax;
    float min[3], max[3];
} accessor;

typedef struct doc {
    gbuf bin;
    block views[8];
    int view_target[8];
    int view_count;
    accessor acc[1 + 2 * 1100 + 8];
    size_t acc_count;
} doc;

static size_t add_view(doc *d, block b, int target)
{
    d->views[d->view_count] = b;
    d->view_target[d->view_count] = target;
    return (size_t)d->view_count++;
}

static size_t add_acc(doc *d, size_t view, size_t offset, size_t count, int component,
                      const char *type)
{
    accessor *a = &d->acc[d->acc_count];
    memset(a, 0, sizeof *a);
    a->view = view;
    a->offset = offset;
    a->count = count;
    a->component = component;
    a->type = type;
    return d->acc_count++;
}

static void base64(gbuf *out, const uint8_t *src, size_t n)
{
    static const char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (gbuf_reserve(out, (n + 2) / 3 * 4) != 0) return;
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

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static int32_t write_doc(const ak_skeleton *s, const ak_clip *c, const ak_gltf_options *o,
                         int binary, uint8_t **out_data, size_t *out_size, ak_error *err)
{
    const int32_t n = s->joint_count;
    const float mpu = o->metres_per_unit;
    int32_t status = AK_OK;
    int32_t root_count = 0;
    for (int32_t j = 0; j < n; ++j)
        root_count += s->parents[j] < 0;
    const int wrapper = root_count > 1;
    const int32_t wrapper_node = n, mesh_node = n + wrapper;

    doc *d = (doc *)calloc(1, sizeof *d);
    ak_xform *world_m = (ak_xform *)malloc((size_t)n * sizeof *world_m);
    ak_xform *rest_m = (ak_xform *)malloc((size_t)n * sizeof *rest_m);
    float *scratch = NULL;
    gbuf js = {0};
    mesh_data mesh;
    memset(&mesh, 0, sizeof mesh);
    if (!d || !world_m || !rest_m) {
        status = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        goto done;
    }
    if ((size_t)n > 1100) {
        status = ak_error_set(err, AK_ERR_LIMIT, 0,
                              "glTF export supports at most 1100 joints (got %d)", (int)n);
        goto done;
    }

    /* Rest pose in metres, and its world transforms (the bind pose). */
    for (int32_t j = 0; j < n; ++j) {
        rest_m[j] = s->rest_local[j];
        rest_m[j].rotation = akq_normalize(rest_m[j].rotation);
        rest_m[j].translation = akv_scale(rest_m[j].translation, mpu);
    }
    ak_fk(s, rest_m, world_m);

    /* Animation data. */
    const int animate = c != NULL;
    const int cubic = animate && o->cubic && c->frame_count >= 2;
    const int32_t frames = animate ? c->frame_count : 0;
    const size_t per_key = cubic ? 3 : 1;
    size_t time_acc = 0, rot_acc0 = 0, tr_acc0 = 0;
    if (animate) {
        size_t need = (size_t)frames * per_key * 4;
        scratch = (float *)malloc((need > (size_t)frames ? need : (size_t)frames) * sizeof(float));
        if (!scratch) {
            status = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
            goto done;
        }
        gbuf_align4(&d->bin, 0);
        size_t anim_start = d->bin.size;
        for (int32_t f = 0; f < frames; ++f)
            scratch[f] = (float)f * c->frame_time;
        block tb = bin_floats(&d->bin, scratch, (size_t)frames);
        size_t view = (size_t)d->view_count; /* filled in below, once its length is known */
        d->view_count++;
        time_acc = add_acc(d, view, tb.offset - anim_start, (size_t)frames, GLTF_FLOAT, "SCALAR");
        d->acc[time_acc].has_minmax = 1;
        d->acc[time_acc].min[0] = 0.0f;
        d->acc[time_acc].max[0] = scratch[frames - 1];
        rot_acc0 = d->acc_count;
        for (int32_t j = 0; j < n; ++j) {
            /* Normalise each key: the validator requires unit quaternions for LINEAR. */
            const ak_quat *keys = c->rotations + j;
            for (int32_t f = 0; f < frames; ++f) {
                ak_quat q = akq_normalize(keys[(size_t)f * (size_t)n]);
                memcpy(scratch + (size_t)f * 4, &q, sizeof q);
            }
            float *tmp = (float *)malloc((size_t)frames * per_key * 4 * sizeof(float));
            if (!tmp) {
                status = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
                goto done;
            }
            write_track(tmp, scratch, 4, frames, 4, c->frame_time, 1.0f, cubic);
            block rb = bin_floats(&d->bin, tmp, (size_t)frames * per_key * 4);
            free(tmp);
            add_acc(d, view, rb.offset - anim_start, (size_t)frames * per_key, GLTF_FLOAT, "VEC4");
        }
        tr_acc0 = d->acc_count;
        for (int32_t k = 0; k < c->track_count; ++k) {
            const float *keys = (const float *)(c->translations + k);
            float *tmp = (float *)malloc((size_t)frames * per_key * 3 * sizeof(float));
            if (!tmp) {
                status = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
                goto done;
            }
            write_track(tmp, keys, (size_t)c->track_count * 3, frames, 3, c->frame_time, mpu,
                        cubic);
            block b = bin_floats(&d->bin, tmp, (size_t)frames * per_key * 3);
            free(tmp);
            add_acc(d, view, b.offset - anim_start, (size_t)frames * per_key, GLTF_FLOAT, "VEC3");
        }
        d->views[view].offset = anim_start;
        d->views[view].length = d->bin.size - anim_start;
        d->view_target[view] = 0;
    }

    /* Inverse bind matrices: inverse of the rest world transform of each joint. */
    size_t ibm_acc;
    {
        float *m = (float *)malloc((size_t)n * 16 * sizeof(float));
        if (!m) {
            status = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
            goto done;
        }
        for (int32_t j = 0; j < n; ++j)
            ak_xform_to_mat4(akx_inverse(world_m[j]), m + (size_t)j * 16);
        block b = bin_floats(&d->bin, m, (size_t)n * 16);
        free(m);
        ibm_acc = add_acc(d, add_view(d, b, 0), 0, (size_t)n, GLTF_FLOAT, "MAT4");
    }

    /* Mesh. */
    size_t pos_acc = 0, nrm_acc = 0, jnt_acc = 0, wgt_acc = 0, idx_acc = 0;
    int has_mesh = 0;
    if (o->with_mesh) {
        if (build_mesh(s, world_m, &mesh) != 0) {
            status = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
            goto done;
        }
        if (mesh.bone_count > 0) {
            has_mesh = 1;
            size_t nv = (size_t)mesh.bone_count * CAPSULE_VERTS,
                   nt = (size_t)mesh.bone_count * CAPSULE_TRIS;
            block b = bin_floats(&d->bin, mesh.positions, nv * 3);
            pos_acc = add_acc(d, add_view(d, b, GLTF_ARRAY_BUFFER), 0, nv, GLTF_FLOAT, "VEC3");
            d->acc[pos_acc].has_minmax = 1;
            memcpy(d->acc[pos_acc].min, mesh.pmin, sizeof mesh.pmin);
            memcpy(d->acc[pos_acc].max, mesh.pmax, sizeof mesh.pmax);
            b = bin_floats(&d->bin, mesh.normals, nv * 3);
            nrm_acc = add_acc(d, add_view(d, b, GLTF_ARRAY_BUFFER), 0, nv, GLTF_FLOAT, "VEC3");
            gbuf_align4(&d->bin, 0);
            b.offset = d->bin.size;
            b.length = nv * 4 * sizeof(uint16_t);
            gbuf_append(&d->bin, mesh.joints, b.length);
            jnt_acc =
                add_acc(d, add_view(d, b, GLTF_ARRAY_BUFFER), 0, nv, GLTF_UNSIGNED_SHORT, "VEC4");
            b = bin_floats(&d->bin, mesh.weights, nv * 4);
            wgt_acc = add_acc(d, add_view(d, b, GLTF_ARRAY_BUFFER), 0, nv, GLTF_FLOAT, "VEC4");
            gbuf_align4(&d->bin, 0);
            b.offset = d->bin.size;
            b.length = nt * 3 * sizeof(uint32_t);
            gbuf_append(&d->bin, mesh.indices, b.length);
            idx_acc = add_acc(d, add_view(d, b, GLTF_ELEMENT_ARRAY_BUFFER), 0, nt * 3,
                              GLTF_UNSIGNED_INT, "SCALAR");
        }
    }
    gbuf_align4(&d->bin, 0);
    if (d->bin.failed) {
        status = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        goto done;
    }

    /* JSON. */
    gbuf_printf(&js,
                "{\"asset\":{\"version\":\"2.0\",\"generator\":\"animkit %s\"},\"scene\":0,"
                "\"scenes\":[{\"nodes\":[",
                AK_VERSION_STRING);
    {
        int first = 1;
        if (wrapper) {
            gbuf_printf(&js, "%d", (int)wrapper_node);
            first = 0;
        } else {
            for (int32_t j = 0; j < n; ++j)
                if (s->parents[j] < 0) {
                    gbuf_printf(&js, "%s%d", first ? "" : ",", (int)j);
                    first = 0;
                }
        }
        if (has_mesh) gbuf_printf(&js, "%s%d", first ? "" : ",", (int)mesh_node);
    }
    gbuf_printf(&js, "]}],\"nodes\":[");
    for (int32_t j = 0; j < n; ++j) {
        gbuf_printf(&js, "%s{\"name\":", j ? "," : "");
        json_string(&js, s->names[j]);
        ak_vec3 t = rest_m[j].translation;
        ak_quat q = rest_m[j].rotation;
        gbuf_printf(&js, ",\"translation\":[");
        json_float(&js, t.x);
        gbuf_printf(&js, ",");
        json_float(&js, t.y);
        gbuf_printf(&js, ",");
        json_float(&js, t.z);
        gbuf_printf(&js, "],\"rotation\":[");
        json_float(&js, q.x);
        gbuf_printf(&js, ",");
        json_float(&js, q.y);
        gbuf_printf(&js, ",");
        json_float(&js, q.z);
        gbuf_printf(&js, ",");
        json_float(&js, q.w);
        gbuf_printf(&js, "]");
        int first = 1;
        for (int32_t k = j + 1; k < s->subtree_end[j]; ++k)
            if (s->parents[k] == j) {
                gbuf_printf(&js, "%s%d", first ? ",\"children\":[" : ",", (int)k);
                first = 0;
            }
        if (!first) gbuf_printf(&js, "]");
        gbuf_printf(&js, "}");
    }
    if (wrapper) {
        gbuf_printf(&js, ",{\"name\":\"animkit_root\",\"children\":[");
        int first = 1;
        for (int32_t j = 0; j < n; ++j)
            if (s->parents[j] < 0) {
                gbuf_printf(&js, "%s%d", first ? "" : ",", (int)j);
                first = 0;
            }
        gbuf_printf(&js, "]}");
    }
    if (has_mesh) gbuf_printf(&js, ",{\"name\":\"animkit_capsules\",\"mesh\":0,\"skin\":0}");
    gbuf_printf(&js,
                "],\"skins\":[{\"name\":\"skeleton\",\"inverseBindMatrices\":%d,\"skeleton\":%d,"
                "\"joints\":[",
                (int)ibm_acc, wrapper ? (int)wrapper_node : 0);
    for (int32_t j = 0; j < n; ++j)
        gbuf_printf(&js, "%s%d", j ? "," : "", (int)j);
    gbuf_printf(&js, "]}]");
    if (has_mesh) {
        gbuf_printf(
            &js, ",\"materials\":[{\"name\":\"bone\",\"pbrMetallicRoughness\":{\"baseColorFactor\":"
                 "[0.8,0.75,0.65,1],\"metallicFactor\":0,\"roughnessFactor\":0.7}}]");
        gbuf_printf(
            &js,
            ",\"meshes\":[{\"name\":\"capsules\",\"primitives\":[{\"attributes\":{\"POSITION\":%d,"
            "\"NORMAL\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d},\"indices\":%d,\"material\":0}]}]",
            (int)pos_acc, (int)nrm_acc, (int)jnt_acc, (int)wgt_acc, (int)idx_acc);
    }
    if (animate) {
        const char *interp = cubic ? "CUBICSPLINE" : "LINEAR";
        gbuf_printf(&js, ",\"animations\":[{\"name\":\"clip\",\"samplers\":[");
        int32_t sampler = 0;
        for (int32_t j = 0; j < n; ++j, ++sampler)
            gbuf_printf(&js, "%s{\"input\":%d,\"output\":%d,\"interpolation\":\"%s\"}",
                        sampler ? "," : "", (int)time_acc, (int)(rot_acc0 + (size_t)j), interp);
        for (int32_t k = 0; k < c->track_count; ++k, ++sampler)
            gbuf_printf(&js, ",{\"input\":%d,\"output\":%d,\"interpolation\":\"%s\"}",
                        (int)time_acc, (int)(tr_acc0 + (size_t)k), interp);
        gbuf_printf(&js, "],\"channels\":[");
        for (int32_t j = 0; j < n; ++j)
            gbuf_printf(&js, "%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"rotation\"}}",
                        j ? "," : "", (int)j, (int)j);
        for (int32_t k = 0; k < c->track_count; ++k)
            gbuf_printf(&js, ",{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"translation\"}}",
                        (int)(n + k), (int)c->track_joint[k]);
        gbuf_printf(&js, "]}]");
    }
    gbuf_printf(&js, ",\"accessors\":[");
    for (size_t i = 0; i < d->acc_count; ++i) {
        const accessor *a = &d->acc[i];
        gbuf_printf(&js,
                    "%s{\"bufferView\":%d,\"byteOffset\":%lu,\"componentType\":%d,\"count\":%lu,"
                    "\"type\":\"%s\"",
                    i ? "," : "", (int)a->view, (unsigned long)a->offset, a->component,
                    (unsigned long)a->count, a->type);
        if (a->has_minmax) {
            int comps = strcmp(a->type, "SCALAR") == 0 ? 1 : 3;
            gbuf_printf(&js, ",\"min\":[");
            for (int k = 0; k < comps; ++k) {
                if (k) gbuf_printf(&js, ",");
                json_float(&js, a->min[k]);
            }
            gbuf_printf(&js, "],\"max\":[");
            for (int k = 0; k < comps; ++k) {
                if (k) gbuf_printf(&js, ",");
                json_float(&js, a->max[k]);
            }
            gbuf_printf(&js, "]");
        }
        gbuf_printf(&js, "}");
    }
    gbuf_printf(&js, "],\"bufferViews\":[");
    for (int i = 0; i < d->view_count; ++i) {
        gbuf_printf(&js, "%s{\"buffer\":0,\"byteOffset\":%lu,\"byteLength\":%lu", i ? "," : "",
                    (unsigned long)d->views[i].offset, (unsigned long)d->views[i].length);
        if (d->view_target[i]) gbuf_printf(&js, ",\"target\":%d", d->view_target[i]);
        gbuf_printf(&js, "}");
    }
    gbuf_printf(&js, "],\"buffers\":[{\"byteLength\":%lu", (unsigned long)d->bin.size);
    if (!binary) {
        gbuf_printf(&js, ",\"uri\":\"data:application/octet-stream;base64,");
        base64(&js, d->bin.data, d->bin.size);
        gbuf_printf(&js, "\"");
    }
    gbuf_printf(&js, "}]}");
    if (js.failed) {
        status = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        goto done;
    }
    if (js.nonfinite || d->bin.nonfinite) {
        status =
            ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                         "values overflow to infinity (frame time %g s over %d frames, "
                         "metres_per_unit %g): nothing written",
                         c ? (double)c->frame_time : 0.0, c ? (int)c->frame_count : 0, (double)mpu);
        goto done;
    }

    if (!binary) {
        *out_data = js.data;
        *out_size = js.size;
        js.data = NULL;
    } else {
        /* GLB: 12-byte header, JSON chunk padded with spaces, BIN chunk padded with zeros. */
        gbuf_align4(&js, ' ');
        gbuf glb = {0};
        uint8_t hdr[12], ch[8];
        size_t total = 12 + 8 + js.size + 8 + d->bin.size;
        if (total > 0xffffffffu) {
            status = ak_error_set(err, AK_ERR_LIMIT, 0, "GLB larger than 4 GiB");
            goto done;
        }
        put_u32(hdr, 0x46546C67u); /* "glTF" */
        put_u32(hdr + 4, 2);
        put_u32(hdr + 8, (uint32_t)total);
        gbuf_append(&glb, hdr, 12);
        put_u32(ch, (uint32_t)js.size);
        put_u32(ch + 4, 0x4E4F534Au); /* "JSON" */
        gbuf_append(&glb, ch, 8);
        gbuf_append(&glb, js.data, js.size);
        put_u32(ch, (uint32_t)d->bin.size);
        put_u32(ch + 4, 0x004E4942u); /* "BIN\0" */
        gbuf_append(&glb, ch, 8);
        gbuf_append(&glb, d->bin.data, d->bin.size);
        if (glb.failed) {
            free(glb.data);
            status = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
            goto done;
        }
        *out_data = glb.data;
        *out_size = glb.size;
    }

done:
    mesh_free(&mesh);
    free(scratch);
    free(js.data);
    if (d) free(d->bin.data);
    free(d);
    free(world_m);
    free(rest_m);
    return status;
}

int32_t ak_gltf_write_memory(const ak_skeleton *skeleton, const ak_clip *clip,
                             const ak_gltf_options *options, int32_t binary, uint8_t **out_data,
                             size_t *out_size, ak_error *err)
{
    if (!out_data || !out_size)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "output pointers are NULL");
    *out_data = NULL;
    *out_size = 0;
    ak_gltf_options o = options ? *options : ak_gltf_defaults();
    int32_t st = ak_gltf_validate(&o, err);
    if (st != AK_OK) return st;
    st = check_input(skeleton, clip, err);
    if (st != AK_OK) return st;
    st = write_doc(skeleton, clip, &o, binary ? 1 : 0, out_data, out_size, err);
    if (st == AK_OK) ak_error_clear(err);
    return st;
}

static int ends_with_glb(const char *path)
{
    size_t n = strlen(path);
    if (n < 4) return 0;
    const char *e = path + n - 4;
    return e[0] == '.' && tolower((unsigned char)e[1]) == 'g' &&
           tolower((unsigned char)e[2]) == 'l' && tolower((unsigned char)e[3]) == 'b';
}

int32_t ak_gltf_write_file(const char *path, const ak_skeleton *skeleton, const ak_clip *clip,
                           const ak_gltf_options *options, ak_error *err)
{
    if (!path) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "path is NULL");
    uint8_t *data = NULL;
    size_t size = 0;
    int32_t st =
        ak_gltf_write_memory(skeleton, clip, options, ends_with_glb(path), &data, &size, err);
    if (st != AK_OK) return st;
    st = akio_write_file(path, data, size, err);
    free(data);
    if (st != AK_OK) return st;
    return AK_OK;
}
