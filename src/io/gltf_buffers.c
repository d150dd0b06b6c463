/* glTF export, the binary buffer: key times, rotation and translation outputs (LINEAR or
 * CUBICSPLINE), inverse bind matrices and the capsule mesh, each block 4-byte aligned, with
 * the buffer views and accessors that describe them (layout: gltf_internal.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/simd.h"
#include "core/xform_inline.h"
#include "animkit/skin.h"
#include "io/gltf_internal.h"
#include "io/grow.h"

/* glTF constants (the OpenGL enums the format reuses). */
#define GLTF_FLOAT                5126
#define GLTF_UNSIGNED_SHORT       5123
#define GLTF_UNSIGNED_INT         5125
#define GLTF_ARRAY_BUFFER         34962
#define GLTF_ELEMENT_ARRAY_BUFFER 34963

/* ---- the growable byte buffer ---- */

int akio_gbuf_reserve(akio_gbuf *b, size_t extra)
{
    if (b->failed) return -1;
    void *p = b->data;
    if (akio_grow(&p, &b->cap, b->size + extra + 1) != 0) {
        b->failed = 1;
        return -1;
    }
    b->data = (uint8_t *)p;
    return 0;
}

void akio_gbuf_append(akio_gbuf *b, const void *src, size_t n)
{
    if (akio_gbuf_reserve(b, n) != 0 || !b->data) return;
    memcpy(b->data + b->size, src, n);
    b->size += n;
    b->data[b->size] = 0;
}

void akio_gbuf_align4(akio_gbuf *b, uint8_t pad)
{
    while (b->size % 4)
        akio_gbuf_append(b, &pad, 1);
}

/* ---- blocks, views, accessors ---- */

/* 1 when every one of count floats is finite, on the bits: the exponent bits plus one
 * exponent step carry into bit 31 exactly when all of them are set (inf or NaN). Into
 * locals, 16 floats a step with SSE: a store to bin->nonfinite per float made the GLB writer
 * 16% slower than before the check. */
static int all_finite(const float *v, size_t count)
{
    uint32_t acc = 0;
    size_t i = 0;
#ifdef AK_HAVE_SSE
    const __m128i exp = _mm_set1_epi32(0x7f800000), step = _mm_set1_epi32(0x00800000);
    __m128i a = _mm_setzero_si128(), b = a, c = a, d = a;
    for (; i + 16 <= count; i += 16) {
        const __m128i *p = (const __m128i *)(const void *)(v + i);
        a = _mm_or_si128(a, _mm_add_epi32(_mm_and_si128(_mm_loadu_si128(p), exp), step));
        b = _mm_or_si128(b, _mm_add_epi32(_mm_and_si128(_mm_loadu_si128(p + 1), exp), step));
        c = _mm_or_si128(c, _mm_add_epi32(_mm_and_si128(_mm_loadu_si128(p + 2), exp), step));
        d = _mm_or_si128(d, _mm_add_epi32(_mm_and_si128(_mm_loadu_si128(p + 3), exp), step));
    }
    const __m128i any = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
    if (_mm_movemask_ps(_mm_castsi128_ps(any)) != 0) acc = 0x80000000u;
#endif
    for (; i < count; ++i) {
        uint32_t u;
        memcpy(&u, v + i, sizeof u);
        acc |= (u & 0x7f800000u) + 0x00800000u;
    }
    return (acc >> 31) == 0;
}

/* count floats as a 4-byte aligned block; a non-finite one marks the document refused. */
static akio_block bin_floats(akio_gbuf *bin, const float *v, size_t count)
{
    akio_block r;
    if (!all_finite(v, count)) bin->nonfinite = 1;
    akio_gbuf_align4(bin, 0);
    r.offset = bin->size;
    akio_gbuf_append(bin, v, count * sizeof(float));
    r.length = count * sizeof(float);
    return r;
}

/* size bytes of integers as a 4-byte aligned block. */
static akio_block bin_bytes(akio_gbuf *bin, const void *v, size_t size)
{
    akio_block r;
    akio_gbuf_align4(bin, 0);
    r.offset = bin->size;
    r.length = size;
    akio_gbuf_append(bin, v, size);
    return r;
}

static size_t add_view(akio_gltf_doc *d, akio_block b, int target)
{
    d->views[d->view_count] = b;
    d->view_target[d->view_count] = target;
    return (size_t)d->view_count++;
}

static size_t add_acc(akio_gltf_doc *d, size_t view, size_t offset, size_t count, int component,
                      const char *type)
{
    akio_accessor *a = &d->acc[d->acc_count];
    memset(a, 0, sizeof *a);
    a->view = view;
    a->offset = offset;
    a->count = count;
    a->component = component;
    a->type = type;
    return d->acc_count++;
}

static int32_t out_of_memory(ak_error *err)
{
    return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
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

/* One rotation output per joint (unit quaternions: the validator requires them for LINEAR)
 * and one translation output per track (scaled to metres by mpu), in view `view` whose data
 * starts at anim_start. keys: frames x 4 floats; tmp: frames x per_key x 4 floats. */
static void write_key_outputs(akio_gltf_doc *d, const ak_clip *c, float mpu, size_t view,
                              size_t anim_start, float *keys, float *tmp)
{
    const int32_t n = c->joint_count, frames = c->frame_count;
    const size_t per_key = d->cubic ? 3 : 1;
    d->rot_acc0 = d->acc_count;
    for (int32_t j = 0; j < n; ++j) {
        const ak_quat *rotations = c->rotations + j;
        for (int32_t f = 0; f < frames; ++f) {
            ak_quat q = akq_normalize(rotations[(size_t)f * (size_t)n]);
            memcpy(keys + (size_t)f * 4, &q, sizeof q);
        }
        write_track(tmp, keys, 4, frames, 4, c->frame_time, 1.0f, d->cubic);
        akio_block rb = bin_floats(&d->bin, tmp, (size_t)frames * per_key * 4);
        add_acc(d, view, rb.offset - anim_start, (size_t)frames * per_key, GLTF_FLOAT, "VEC4");
    }
    d->tr_acc0 = d->acc_count;
    for (int32_t k = 0; k < c->track_count; ++k) {
        const float *translations = (const float *)(c->translations + k);
        write_track(tmp, translations, (size_t)c->track_count * 3, frames, 3, c->frame_time, mpu,
                    d->cubic);
        akio_block b = bin_floats(&d->bin, tmp, (size_t)frames * per_key * 3);
        add_acc(d, view, b.offset - anim_start, (size_t)frames * per_key, GLTF_FLOAT, "VEC3");
    }
}

/* The animation block: key times (seconds from 0), then the key outputs, all in one buffer
 * view. */
static int32_t write_animation(akio_gltf_doc *d, const ak_clip *c, float mpu, ak_error *err)
{
    const int32_t frames = c->frame_count;
    const size_t per_key = d->cubic ? 3 : 1;
    const size_t need = (size_t)frames * per_key * 4;
    float *keys = (float *)malloc((need > (size_t)frames ? need : (size_t)frames) * sizeof(float));
    float *tmp = (float *)calloc(need, sizeof(float)); /* zeroed: write_track fills it */
    if (!keys || !tmp) {
        free(keys);
        free(tmp);
        return out_of_memory(err);
    }
    akio_gbuf_align4(&d->bin, 0);
    const size_t anim_start = d->bin.size;
    for (int32_t f = 0; f < frames; ++f)
        keys[f] = (float)f * c->frame_time;
    akio_block tb = bin_floats(&d->bin, keys, (size_t)frames);
    const size_t view = (size_t)d->view_count; /* filled in below, once its length is known */
    d->view_count++;
    d->time_acc = add_acc(d, view, tb.offset - anim_start, (size_t)frames, GLTF_FLOAT, "SCALAR");
    d->acc[d->time_acc].has_minmax = 1;
    d->acc[d->time_acc].min[0] = 0.0f;
    d->acc[d->time_acc].max[0] = keys[frames - 1];
    write_key_outputs(d, c, mpu, view, anim_start, keys, tmp);
    d->views[view].offset = anim_start;
    d->views[view].length = d->bin.size - anim_start;
    d->view_target[view] = 0;
    free(keys);
    free(tmp);
    return AK_OK;
}

/* Inverse bind matrices: inverse of the rest world transform of each joint, or `own` (the
 * body's, metres) when the body is bound to another pose than the rest. */
static int32_t write_inverse_binds(akio_gltf_doc *d, const ak_xform *model_rest, const float *own,
                                   int32_t n, ak_error *err)
{
    if (own) {
        d->ibm_acc = add_acc(d, add_view(d, bin_floats(&d->bin, own, (size_t)n * 16), 0), 0,
                             (size_t)n, GLTF_FLOAT, "MAT4");
        return AK_OK;
    }
    float *m = (float *)calloc((size_t)n * 16, sizeof(float)); /* zeroed; the loop fills it */
    if (!m) return out_of_memory(err);
    for (int32_t j = 0; j < n; ++j)
        ak_xform_to_mat4(akx_inverse(model_rest[j]), m + (size_t)j * 16);
    akio_block b = bin_floats(&d->bin, m, (size_t)n * 16);
    free(m);
    d->ibm_acc = add_acc(d, add_view(d, b, 0), 0, (size_t)n, GLTF_FLOAT, "MAT4");
    return AK_OK;
}

/* ---- capsule mesh ---- */

typedef struct mesh_data {
    int32_t bone_count;
    size_t vertex_count, triangle_count;
    float *positions;  /* VEC3 per vertex, metres, rest pose world space */
    float *normals;    /* VEC3 unit */
    uint16_t *joints;  /* VEC4 */
    float *weights;    /* VEC4 */
    uint32_t *indices; /* 3 per triangle */
    float pmin[3], pmax[3];
    float *inverse_bind; /* the body's own binds (column-major 4x4 per joint, metres) when it
                            is bound to a clip frame rather than the rest pose, else NULL */
} mesh_data;

static void mesh_free(mesh_data *m)
{
    free(m->positions);
    free(m->normals);
    free(m->joints);
    free(m->weights);
    free(m->indices);
    free(m->inverse_bind);
}

static void put3(float *dst, ak_vec3 v)
{
    dst[0] = v.x;
    dst[1] = v.y;
    dst[2] = v.z;
}

/* Bones parent->joint longer than 1e-5 m: the ones that get a capsule. */
static int32_t count_bones(const ak_skeleton *s, const ak_xform *model_rest)
{
    int32_t bones = 0;
    for (int32_t j = 0; j < s->joint_count; ++j) {
        int32_t p = s->parents[j];
        if (p >= 0 &&
            akv_len(akv_sub(model_rest[j].translation, model_rest[p].translation)) > 1e-5f)
            ++bones;
    }
    return bones;
}

/* One capsule from a to b (unit direction d, length len) bound to joint p, at vertex v and
 * triangle t: two rings of AKIO_CAPSULE_SIDES vertices one radius in from each end and a tip
 * at each end, all with weight 1. Radius: 20% of the bone, at most 3.5 cm. Triangles wind
 * counter-clockwise seen from outside. Returns the next vertex index. */
static size_t add_capsule(mesh_data *m, size_t v, size_t t, ak_vec3 a, ak_vec3 b, ak_vec3 d,
                          float len, int32_t p)
{
    ak_vec3 helper = fabsf(d.y) < 0.9f ? ak_vec3_make(0, 1, 0) : ak_vec3_make(1, 0, 0);
    ak_vec3 u = ak_vec3_normalize_or(akv_cross(helper, d), ak_vec3_make(1, 0, 0));
    ak_vec3 w = akv_cross(d, u); /* u x w = d: right-handed basis around the bone */
    float r = 0.2f * len < 0.035f ? 0.2f * len : 0.035f;
    const size_t base = v;
    for (int ring = 0; ring < 2; ++ring) {
        ak_vec3 c = ring == 0 ? akv_add(a, akv_scale(d, r)) : akv_sub(b, akv_scale(d, r));
        for (int k = 0; k < AKIO_CAPSULE_SIDES; ++k) {
            float th = 2.0f * AK_PI * (float)k / (float)AKIO_CAPSULE_SIDES;
            ak_vec3 radial = akv_add(akv_scale(u, cosf(th)), akv_scale(w, sinf(th)));
            radial = ak_vec3_normalize_or(radial, u);
            put3(m->positions + v * 3, akv_add(c, akv_scale(radial, r)));
            put3(m->normals + v * 3, radial);
            ++v;
        }
    }
    put3(m->positions + v * 3, a);
    put3(m->normals + v * 3, akv_scale(d, -1.0f));
    const size_t tip_a = v++;
    put3(m->positions + v * 3, b);
    put3(m->normals + v * 3, d);
    const size_t tip_b = v++;
    for (size_t q = base; q < v; ++q) {
        m->joints[q * 4] = (uint16_t)p;
        m->weights[q * 4] = 1.0f;
    }
    for (int k = 0; k < AKIO_CAPSULE_SIDES; ++k) {
        uint32_t r0k = (uint32_t)(base + (size_t)k);
        uint32_t r0n = (uint32_t)(base + (size_t)((k + 1) % AKIO_CAPSULE_SIDES));
        uint32_t r1k = r0k + AKIO_CAPSULE_SIDES, r1n = r0n + AKIO_CAPSULE_SIDES;
        uint32_t tri[4][3] = {{r0n, r0k, (uint32_t)tip_a},
                              {r0k, r0n, r1n},
                              {r0k, r1n, r1k},
                              {r1k, r1n, (uint32_t)tip_b}};
        memcpy(m->indices + (t + 4 * (size_t)k) * 3, tri, sizeof tri);
    }
    return v;
}

static void mesh_bounds(mesh_data *m)
{
    for (int c = 0; c < 3; ++c)
        m->pmin[c] = m->pmax[c] = m->positions[c];
    for (size_t q = 0; q < m->vertex_count; ++q)
        for (int c = 0; c < 3; ++c) {
            float x = m->positions[q * 3 + (size_t)c];
            if (x < m->pmin[c]) m->pmin[c] = x;
            if (x > m->pmax[c]) m->pmax[c] = x;
        }
}

/* The capsules of every bone longer than 1e-5 m (model_rest: rest pose, metres) and the
 * positions' bounds. -1 when out of memory; bone_count 0 when there is no bone. */
static int build_capsules(const ak_skeleton *s, const ak_xform *model_rest, mesh_data *m)
{
    memset(m, 0, sizeof *m);
    m->bone_count = count_bones(s, model_rest);
    if (m->bone_count == 0) return 0;
    size_t nv = (size_t)m->bone_count * AKIO_CAPSULE_VERTS;
    size_t nt = (size_t)m->bone_count * AKIO_CAPSULE_TRIS;
    m->vertex_count = nv, m->triangle_count = nt;
    m->positions = (float *)calloc(nv * 3, sizeof(float));
    m->normals = (float *)calloc(nv * 3, sizeof(float));
    m->joints = (uint16_t *)calloc(nv * 4, sizeof(uint16_t));
    m->weights = (float *)calloc(nv * 4, sizeof(float));
    m->indices = (uint32_t *)malloc(nt * 3 * sizeof(uint32_t));
    if (!m->positions || !m->normals || !m->joints || !m->weights || !m->indices) return -1;
    size_t v = 0, t = 0;
    for (int32_t j = 0; j < s->joint_count; ++j) {
        int32_t p = s->parents[j];
        if (p < 0) continue;
        ak_vec3 a = model_rest[p].translation, b = model_rest[j].translation;
        ak_vec3 ab = akv_sub(b, a);
        float len = akv_len(ab);
        if (!(len > 1e-5f)) continue;
        v = add_capsule(m, v, t, a, b, akv_scale(ab, 1.0f / len), len, p);
        t += 4 * AKIO_CAPSULE_SIDES;
    }
    mesh_bounds(m);
    return 0;
}

/* The generated body (ak_body_mesh_create: tubes, feet, smooth weights) in metres, built on
 * the rest pose when it stands (the skin's inverse binds from model_rest fit it), else on the
 * clip's most upright frame (then m->inverse_bind holds that frame's binds). -1 when out of
 * memory; vertex_count 0 when the rig gets no body (then the capsules are used). */
static int build_body(const ak_skeleton *s, const ak_clip *c, float metres_per_unit, mesh_data *m)
{
    memset(m, 0, sizeof *m);
    ak_body_mesh *b = NULL;
    ak_body_params p = ak_body_defaults();
    p.clip = c;
    const int32_t st = ak_body_mesh_create(s, &p, &b, NULL);
    if (st == AK_ERR_NOMEM) return -1;
    if (st != AK_OK) return 0;
    const size_t nv = (size_t)b->vertex_count, nt = (size_t)b->index_count / 3;
    m->positions = b->positions, b->positions = NULL;
    m->normals = b->normals, b->normals = NULL;
    m->joints = b->joints, b->joints = NULL;
    m->weights = b->weights, b->weights = NULL;
    m->indices = b->indices, b->indices = NULL;
    if (b->bind_frame >= 0) {
        m->inverse_bind = b->inverse_bind, b->inverse_bind = NULL;
        for (int32_t j = 0; j < s->joint_count; ++j) /* translations to metres */
            for (int k = 12; k < 15; ++k)
                m->inverse_bind[16 * (size_t)j + (size_t)k] *= metres_per_unit;
    }
    ak_body_mesh_destroy(b);
    for (size_t i = 0; i < 3 * nv; ++i)
        m->positions[i] *= metres_per_unit;
    m->vertex_count = nv, m->triangle_count = nt;
    m->bone_count = 1;
    mesh_bounds(m);
    return 0;
}

/* The mesh's vertex attributes (positions with their bounds, normals, joints, weights) and
 * its indices, one view each. */
static void write_mesh_views(akio_gltf_doc *d, const mesh_data *mesh)
{
    const size_t nv = mesh->vertex_count, nt = mesh->triangle_count;
    akio_block b = bin_floats(&d->bin, mesh->positions, nv * 3);
    d->pos_acc = add_acc(d, add_view(d, b, GLTF_ARRAY_BUFFER), 0, nv, GLTF_FLOAT, "VEC3");
    d->acc[d->pos_acc].has_minmax = 1;
    memcpy(d->acc[d->pos_acc].min, mesh->pmin, sizeof mesh->pmin);
    memcpy(d->acc[d->pos_acc].max, mesh->pmax, sizeof mesh->pmax);
    b = bin_floats(&d->bin, mesh->normals, nv * 3);
    d->nrm_acc = add_acc(d, add_view(d, b, GLTF_ARRAY_BUFFER), 0, nv, GLTF_FLOAT, "VEC3");
    b = bin_bytes(&d->bin, mesh->joints, nv * 4 * sizeof(uint16_t));
    d->jnt_acc = add_acc(d, add_view(d, b, GLTF_ARRAY_BUFFER), 0, nv, GLTF_UNSIGNED_SHORT, "VEC4");
    b = bin_floats(&d->bin, mesh->weights, nv * 4);
    d->wgt_acc = add_acc(d, add_view(d, b, GLTF_ARRAY_BUFFER), 0, nv, GLTF_FLOAT, "VEC4");
    b = bin_bytes(&d->bin, mesh->indices, nt * 3 * sizeof(uint32_t));
    d->idx_acc = add_acc(d, add_view(d, b, GLTF_ELEMENT_ARRAY_BUFFER), 0, nt * 3, GLTF_UNSIGNED_INT,
                         "SCALAR");
}

/* The body (with_mesh 1, on a standing pose of the clip's when the rest does not stand; rigs
 * without one fall back to capsules) or the capsule mesh (with_mesh 2, each capsule skinned
 * rigidly to the parent joint of its bone). -1 when out of memory. */
static int build_mesh(mesh_data *mesh, int *body, const ak_skeleton *s, const ak_clip *c,
                      const ak_xform *model_rest, const ak_gltf_params *o)
{
    int failed = 0;
    memset(mesh, 0, sizeof *mesh);
    if (o->with_mesh == 1) failed = build_body(s, c, o->metres_per_unit, mesh) != 0;
    *body = mesh->vertex_count > 0;
    if (!failed && !*body) failed = build_capsules(s, model_rest, mesh) != 0;
    return failed ? -1 : 0;
}

int32_t akio_gltf_write_buffers(akio_gltf_doc *d, const ak_skeleton *s, const ak_clip *c,
                                const ak_gltf_params *o, const ak_xform *model_rest, ak_error *err)
{
    int32_t st;
    d->animate = c != NULL;
    d->cubic = d->animate && o->cubic && c->frame_count >= 2;
    if (d->animate && (st = write_animation(d, c, o->metres_per_unit, err))) return st;
    mesh_data mesh;
    memset(&mesh, 0, sizeof mesh);
    if (o->with_mesh && build_mesh(&mesh, &d->body, s, c, model_rest, o) != 0) {
        mesh_free(&mesh);
        return out_of_memory(err);
    }
    st = write_inverse_binds(d, model_rest, mesh.inverse_bind, s->joint_count, err);
    d->has_mesh = st == AK_OK && mesh.vertex_count > 0;
    if (d->has_mesh) write_mesh_views(d, &mesh);
    mesh_free(&mesh);
    if (st) return st;
    akio_gbuf_align4(&d->bin, 0);
    if (d->bin.failed) return out_of_memory(err);
    return AK_OK;
}
