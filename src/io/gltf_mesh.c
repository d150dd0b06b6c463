/* The skinned mesh of a glTF 2.0 / GLB file, bound to the skeleton the clip reader built:
 * every triangle primitive of every node that uses the skin, its POSITION, NORMAL (computed
 * when absent), JOINTS_0 and WEIGHTS_0 read through gltf_doc.c (any component type, sparse,
 * quantized), the skin's joints renumbered to skeleton joints, its inverse bind matrices. */
#include "animkit/gltf.h"
#include "io/gltf_doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { GM_MAX_JOINTS = 1024, GM_MAX_VERTICES = 1 << 22, GM_MAX_INDICES = 1 << 24 };

typedef struct gm_ctx {
    akgd_doc d;
    const ak_gltf_mesh_params *p;
    int32_t skin_joints; /* joints of the skin */
    int32_t *skin_joint; /* skin joint -> skeleton joint */
    float *ibm;          /* skin_joints * 16, or NULL (identity) */
    ak_body_mesh *m;     /* being filled */
    int32_t vcap, icap;  /* capacities of m's arrays */
    int32_t primitives;  /* primitives read */
} gm_ctx;

ak_gltf_mesh_params ak_gltf_mesh_defaults(void)
{
    ak_gltf_mesh_params p;
    p.skin = 0;
    p.joint_node = NULL;
    p.joint_count = 0;
    return p;
}

int32_t ak_gltf_mesh_validate(const ak_gltf_mesh_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params");
    if (p->skin < 0) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "skin %d < 0", (int)p->skin);
    if (p->joint_count < 1 || p->joint_count > GM_MAX_JOINTS)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint_count %d outside 1..%d",
                            (int)p->joint_count, GM_MAX_JOINTS);
    if (!p->joint_node) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null joint_node");
    return AK_OK;
}

/* The skin's joints as skeleton joints, and its inverse bind matrices. */
static int32_t map_skin(gm_ctx *c)
{
    const int32_t skin = c->p->skin;
    if (skin >= c->d.skins.count)
        return akgd_fail(&c->d, AK_ERR_NOT_FOUND, 0, "no skin %d (the file has %d)", (int)skin,
                         (int)c->d.skins.count);
    const int32_t sv = c->d.skins.v[skin];
    const int32_t joints = akj_get(&c->d.json, sv, "joints");
    if (akj_type(&c->d.json, joints) != AKJ_ARRAY || c->d.json.v[joints].count < 1)
        return akgd_fail(&c->d, AK_ERR_INVALID_ARG, sv, "skins[%d] has no joints", (int)skin);
    c->skin_joints = c->d.json.v[joints].count;
    c->skin_joint = (int32_t *)malloc(sizeof(int32_t) * (size_t)c->skin_joints);
    if (!c->skin_joint) return akgd_fail(&c->d, AK_ERR_NOMEM, sv, "out of memory");
    int32_t k = 0;
    for (int32_t e = c->d.json.v[joints].first; e >= 0; e = c->d.json.v[e].next, ++k) {
        const double node = akj_number(&c->d.json, e, -1);
        c->skin_joint[k] = -1;
        for (int32_t j = 0; j < c->p->joint_count; ++j)
            if (c->p->joint_node[j] == node) c->skin_joint[k] = j;
        if (c->skin_joint[k] < 0)
            return akgd_fail(&c->d, AK_ERR_INVALID_ARG, e,
                             "skins[%d].joints[%d] (node %g) is not a joint of the skeleton",
                             (int)skin, (int)k, node);
    }
    const int32_t ibm = akgd_index(&c->d, sv, "inverseBindMatrices", -1);
    if (ibm < 0) return AK_OK;
    int32_t count = 0;
    int32_t st = akgd_read_floats(&c->d, ibm, 16, "skin inverseBindMatrices", &count, &c->ibm);
    if (st >= 0 && count < c->skin_joints)
        st = akgd_fail(&c->d, AK_ERR_INVALID_ARG, sv,
                       "skins[%d].inverseBindMatrices has %d matrices for %d joints", (int)skin,
                       (int)count, (int)c->skin_joints);
    return st;
}

static int32_t grow(gm_ctx *c, int32_t vertices, int32_t indices)
{
    ak_body_mesh *m = c->m;
    if (vertices > GM_MAX_VERTICES - m->vertex_count || indices > GM_MAX_INDICES - m->index_count)
        return akgd_fail(&c->d, AK_ERR_LIMIT, 0,
                         "the skinned mesh has over %d vertices or %d indices", GM_MAX_VERTICES,
                         GM_MAX_INDICES);
    const size_t nv = (size_t)m->vertex_count + (size_t)vertices,
                 ni = (size_t)m->index_count + (size_t)indices;
    float *pos = (float *)realloc(m->positions, sizeof(float) * 3 * nv);
    if (pos) m->positions = pos;
    float *nrm = (float *)realloc(m->normals, sizeof(float) * 3 * nv);
    if (nrm) m->normals = nrm;
    uint16_t *jnt = (uint16_t *)realloc(m->joints, sizeof(uint16_t) * 4 * nv);
    if (jnt) m->joints = jnt;
    float *wgt = (float *)realloc(m->weights, sizeof(float) * 4 * nv);
    if (wgt) m->weights = wgt;
    uint32_t *idx = (uint32_t *)realloc(m->indices, sizeof(uint32_t) * (ni ? ni : 1));
    if (idx) m->indices = idx;
    if (!pos || !nrm || !jnt || !wgt || !idx)
        return akgd_fail(&c->d, AK_ERR_NOMEM, 0, "out of memory");
    return AK_OK;
}

/* Area-weighted vertex normals of triangles idx[0..ni) over vertices base.. (unit; +Y when a
 * vertex touches no triangle of non-zero area). */
static void compute_normals(ak_body_mesh *m, int32_t base, int32_t first_index)
{
    float *n = m->normals;
    memset(n + 3 * (size_t)base, 0, sizeof(float) * 3 * (size_t)(m->vertex_count - base));
    for (int32_t i = first_index; i + 2 < m->index_count; i += 3) {
        const uint32_t a = m->indices[i], b = m->indices[i + 1], d = m->indices[i + 2];
        const float *pa = m->positions + 3 * a, *pb = m->positions + 3 * b,
                    *pd = m->positions + 3 * d;
        const float u[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
        const float v[3] = {pd[0] - pa[0], pd[1] - pa[1], pd[2] - pa[2]};
        const float x[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                            u[0] * v[1] - u[1] * v[0]};
        for (int k = 0; k < 3; ++k)
            n[3 * a + (uint32_t)k] += x[k], n[3 * b + (uint32_t)k] += x[k],
                n[3 * d + (uint32_t)k] += x[k];
    }
    for (int32_t v = base; v < m->vertex_count; ++v) {
        float *q = n + 3 * (size_t)v;
        const float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        if (len > 1e-30f)
            q[0] /= len, q[1] /= len, q[2] /= len;
        else
            q[0] = 0.0f, q[1] = 1.0f, q[2] = 0.0f;
    }
}

/* Attribute accessor `name` of primitive `pv` (-1 when absent). */
static int32_t attribute(gm_ctx *c, int32_t pv, const char *name)
{
    return akgd_index(&c->d, akj_get(&c->d.json, pv, "attributes"), name, -1);
}

typedef struct gm_arrays {
    float *pos, *nrm, *jnt, *wgt, *idx;
    int32_t n_pos, n_nrm, n_jnt, n_wgt, n_idx;
} gm_arrays;

static int32_t read_arrays(gm_ctx *c, int32_t pv, gm_arrays *a)
{
    const int32_t pa = attribute(c, pv, "POSITION"), na = attribute(c, pv, "NORMAL");
    const int32_t ja = attribute(c, pv, "JOINTS_0"), wa = attribute(c, pv, "WEIGHTS_0");
    const int32_t ia = akgd_index(&c->d, pv, "indices", -1);
    if (pa < 0 || ja < 0 || wa < 0)
        return akgd_fail(&c->d, AK_ERR_INVALID_ARG, pv,
                         "a skinned primitive needs POSITION, JOINTS_0 and WEIGHTS_0");
    int32_t st = akgd_read_floats(&c->d, pa, 3, "mesh POSITION", &a->n_pos, &a->pos);
    if (st >= 0 && na >= 0) st = akgd_read_floats(&c->d, na, 3, "mesh NORMAL", &a->n_nrm, &a->nrm);
    if (st >= 0) st = akgd_read_floats(&c->d, ja, 4, "mesh JOINTS_0", &a->n_jnt, &a->jnt);
    if (st >= 0) st = akgd_read_floats(&c->d, wa, 4, "mesh WEIGHTS_0", &a->n_wgt, &a->wgt);
    if (st >= 0 && ia >= 0) st = akgd_read_floats(&c->d, ia, 1, "mesh indices", &a->n_idx, &a->idx);
    if (st < 0) return st;
    if ((na >= 0 && a->n_nrm != a->n_pos) || a->n_jnt != a->n_pos || a->n_wgt != a->n_pos)
        return akgd_fail(&c->d, AK_ERR_INVALID_ARG, pv,
                         "attributes of one primitive differ in count (%d positions, %d joints, "
                         "%d weights)",
                         (int)a->n_pos, (int)a->n_jnt, (int)a->n_wgt);
    return AK_OK;
}

/* Appends the vertices of `a` (joints renumbered, weights normalised) and its triangles. */
static int32_t append(gm_ctx *c, int32_t pv, const gm_arrays *a)
{
    ak_body_mesh *m = c->m;
    const int32_t base = m->vertex_count, first = m->index_count;
    const int32_t ni = a->idx ? a->n_idx - a->n_idx % 3 : a->n_pos - a->n_pos % 3;
    if (!a->pos || !a->jnt || !a->wgt)
        return akgd_fail(&c->d, AK_ERR_INVALID_ARG, pv, "no vertices");
    int32_t st = grow(c, a->n_pos, ni);
    if (st < 0) return st;
    for (int32_t v = 0; v < a->n_pos; ++v)
        for (int k = 0; k < 4; ++k) {
            const float jf = a->jnt[4 * (size_t)v + (size_t)k],
                        w = a->wgt[4 * (size_t)v + (size_t)k];
            if (!(jf >= 0.0f && jf < (float)c->skin_joints && jf == floorf(jf)) || w < 0.0f)
                return akgd_fail(&c->d, AK_ERR_INVALID_ARG, pv,
                                 "vertex %d: joint %g or weight %g outside the skin's %d joints",
                                 (int)v, (double)jf, (double)w, (int)c->skin_joints);
            m->joints[4 * (size_t)(base + v) + (size_t)k] = (uint16_t)c->skin_joint[(int32_t)jf];
            m->weights[4 * (size_t)(base + v) + (size_t)k] = w;
        }
    memcpy(m->positions + 3 * (size_t)base, a->pos, sizeof(float) * 3 * (size_t)a->n_pos);
    if (a->nrm) memcpy(m->normals + 3 * (size_t)base, a->nrm, sizeof(float) * 3 * (size_t)a->n_pos);
    for (int32_t i = 0; i < ni; ++i) {
        const float x = a->idx ? a->idx[i] : (float)i;
        if (!(x >= 0.0f && x < (float)a->n_pos))
            return akgd_fail(&c->d, AK_ERR_INVALID_ARG, pv, "index %d is %g, outside 0..%d", (int)i,
                             (double)x, (int)a->n_pos - 1);
        m->indices[first + i] = (uint32_t)base + (uint32_t)x;
    }
    m->vertex_count += a->n_pos;
    m->index_count += ni;
    ak_skin_normalize_weights(m->weights + 4 * (size_t)base, a->n_pos, 4);
    if (!a->nrm) compute_normals(m, base, first);
    return AK_OK;
}

/* Reads one primitive of mesh `mv` (triangles only: other modes are skipped). */
static int32_t read_primitive(gm_ctx *c, int32_t pv)
{
    if (akgd_index(&c->d, pv, "mode", 4) != 4) return AK_OK;
    gm_arrays a;
    memset(&a, 0, sizeof a);
    int32_t st = read_arrays(c, pv, &a);
    if (st >= 0) st = append(c, pv, &a);
    if (st >= 0) c->primitives++;
    free(a.pos), free(a.nrm), free(a.jnt), free(a.wgt), free(a.idx);
    return st;
}

/* Every node that draws a mesh with the chosen skin. */
static int32_t read_meshes(gm_ctx *c)
{
    const int32_t meshes = akj_get(&c->d.json, 0, "meshes");
    const int32_t mesh_count =
        akj_type(&c->d.json, meshes) == AKJ_ARRAY ? c->d.json.v[meshes].count : 0;
    for (int32_t i = 0; i < c->d.nodes.count; ++i) {
        const int32_t nv = c->d.nodes.v[i];
        const int32_t mesh = akgd_index(&c->d, nv, "mesh", -1);
        if (mesh < 0 || akgd_index(&c->d, nv, "skin", -1) != c->p->skin) continue;
        if (mesh >= mesh_count)
            return akgd_fail(&c->d, AK_ERR_INVALID_ARG, nv, "nodes[%d].mesh %d does not exist",
                             (int)i, (int)mesh);
        const int32_t prims = akj_get(&c->d.json, akj_at(&c->d.json, meshes, mesh), "primitives");
        if (akj_type(&c->d.json, prims) != AKJ_ARRAY) continue;
        for (int32_t e = c->d.json.v[prims].first; e >= 0; e = c->d.json.v[e].next) {
            const int32_t st = read_primitive(c, e);
            if (st < 0) return st;
        }
    }
    if (c->primitives == 0 || c->m->index_count == 0)
        return akgd_fail(&c->d, AK_ERR_NOT_FOUND, 0, "no triangle mesh uses skins[%d]",
                         (int)c->p->skin);
    return AK_OK;
}

/* Inverse bind per skeleton joint: the skin's where it has one, else the identity. */
static int32_t fill_inverse_bind(gm_ctx *c)
{
    const int32_t n = c->p->joint_count;
    float *b = (float *)calloc((size_t)n * 16, sizeof(float));
    if (!b) return akgd_fail(&c->d, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; j < n; ++j)
        b[16 * j] = b[16 * j + 5] = b[16 * j + 10] = b[16 * j + 15] = 1.0f;
    for (int32_t k = 0; c->ibm && k < c->skin_joints; ++k)
        memcpy(b + 16 * (size_t)c->skin_joint[k], c->ibm + 16 * (size_t)k, sizeof(float) * 16);
    c->m->inverse_bind = b;
    c->m->joint_count = n;
    return AK_OK;
}

int32_t ak_gltf_read_mesh_memory(const uint8_t *data, size_t size, const char *base_dir,
                                 const ak_gltf_mesh_params *params, ak_body_mesh **out,
                                 ak_error *err)
{
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    *out = NULL;
    if (!data) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null data");
    int32_t st = ak_gltf_mesh_validate(params, err);
    if (st < 0) return st;
    gm_ctx c;
    memset(&c, 0, sizeof c);
    c.p = params;
    c.m = (ak_body_mesh *)calloc(1, sizeof *c.m);
    if (c.m) c.m->bind_frame = -1; /* bound as the file's own inverse binds say */
    st = akgd_open(&c.d, data, size, base_dir, err);
    if (st >= 0 && !c.m) st = akgd_fail(&c.d, AK_ERR_NOMEM, 0, "out of memory");
    if (st >= 0) st = map_skin(&c);
    if (st >= 0) st = read_meshes(&c);
    if (st >= 0) st = fill_inverse_bind(&c);
    free(c.skin_joint);
    free(c.ibm);
    akgd_close(&c.d);
    if (st < 0) {
        ak_body_mesh_destroy(c.m);
        return st;
    }
    *out = c.m;
    ak_error_clear(err);
    return AK_OK;
}

int32_t ak_gltf_read_mesh_file(const char *path, const ak_gltf_mesh_params *params,
                               ak_body_mesh **out, ak_error *err)
{
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    *out = NULL;
    if (!path) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null path");
    size_t size = 0;
    const char *why = "";
    uint8_t *data = akgd_read_file(path, &size, &why);
    if (!data) return ak_error_set(err, AK_ERR_IO, 0, "file %s", why);
    char *dir = akgd_folder_of(path);
    const int32_t st = dir ? ak_gltf_read_mesh_memory(data, size, dir, params, out, err)
                           : ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    free(dir);
    free(data);
    return st;
}
