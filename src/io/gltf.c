/* glTF 2.0 export: joints as nodes, a skin, one animation, optionally a capsule mesh.
 *
 * This file: options, input checks, the document's order (rest pose, binary buffer, JSON) and
 * the GLB framing. The binary buffer is gltf_buffers.c, the JSON text gltf_json.c (the
 * layout: gltf_internal.h). Offline code: it allocates freely. */
#include "animkit/gltf.h"
#include "animkit/bvh.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/xform_inline.h"
#include "io/file.h"
#include "io/gltf_internal.h"
#include "io/json.h"

ak_gltf_params ak_gltf_defaults(void)
{
    ak_gltf_params o;
    o.metres_per_unit = 1.0f;
    o.cubic = 0;
    o.with_mesh = 1;
    return o;
}

int32_t ak_gltf_validate(const ak_gltf_params *o, ak_error *err)
{
    if (!o) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "options is NULL");
    if (!(o->metres_per_unit > 0.0f) || !isfinite(o->metres_per_unit))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "metres_per_unit must be finite and > 0 (got %g)",
                            (double)o->metres_per_unit);
    if (o->cubic != 0 && o->cubic != 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "cubic must be 0 or 1");
    if (o->with_mesh < 0 || o->with_mesh > 2)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "with_mesh must be 0 (none), 1 (body) or 2 (capsules)");
    /* The range table last, after the checks that say more (and their status). */
    return ak_params_check(ak_gltf_param_ranges(), o, err);
}

/* ---- input checks ---- */

/* Bytes a name takes once written (gltf_json.c's json_string: a byte that is not UTF-8 is
 * written as the Latin-1 character's two bytes). The readers refuse names of AK_NAME_MAX bytes
 * or more, so the writer refuses them too rather than write a file it cannot read back. */
static size_t written_name_length(const char *name)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p;) {
        const int k = *p >= 0x80 ? akj_utf8_length(p, 4) : 1;
        n += k > 0 ? (size_t)k : 2;
        p += k > 0 ? k : 1;
    }
    return n;
}

static int32_t check_input(const ak_skeleton *s, const ak_clip *c, ak_error *err)
{
    if (!s || s->joint_count < 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "skeleton is NULL or empty");
    for (int32_t j = 0; j < s->joint_count; ++j) {
        if (!akv_finite(s->rest_local[j].translation) || !akq_finite(s->rest_local[j].rotation))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint %d has a non-finite rest pose",
                                (int)j);
        if (written_name_length(s->names[j]) >= AK_NAME_MAX)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "joint %d's name is 63 bytes or more once written as UTF-8 "
                                "(a byte that is not UTF-8 is written as two)",
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

/* ---- the document ---- */

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* GLB: 12-byte header, JSON chunk padded with spaces, BIN chunk padded with zeros (bin is
 * already 4-byte aligned). Framed in bin's own block (its bytes moved up past the header and
 * the JSON chunk), which is handed out, so a write holds the binary data once. With a second
 * buffer for the GLB, CMU 02_01 with the generated body peaked near 1.2 MB, which glibc gave
 * back to the system after every write: 127 page faults a write in bench_hotpath, now 3. */
static int32_t frame_glb(akio_gbuf *js, akio_gbuf *bin, uint8_t **out_data, size_t *out_size,
                         ak_error *err)
{
    akio_gbuf_align4(js, ' ');
    const size_t head = 12 + 8 + js->size + 8, total = head + bin->size;
    if (total > 0xffffffffu) return ak_error_set(err, AK_ERR_LIMIT, 0, "GLB larger than 4 GiB");
    if (js->failed || akio_gbuf_reserve(bin, head) != 0 || !bin->data)
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    uint8_t *p = bin->data;
    memmove(p + head, p, bin->size);
    put_u32(p, 0x46546C67u); /* "glTF" */
    put_u32(p + 4, 2);
    put_u32(p + 8, (uint32_t)total);
    put_u32(p + 12, (uint32_t)js->size);
    put_u32(p + 16, 0x4E4F534Au); /* "JSON" */
    memcpy(p + 20, js->data, js->size);
    put_u32(p + 20 + js->size, (uint32_t)bin->size);
    put_u32(p + 24 + js->size, 0x004E4942u); /* "BIN\0" */
    p[total] = 0;
    *out_data = p;
    *out_size = total;
    bin->data = NULL;
    bin->size = bin->cap = 0;
    return AK_OK;
}

/* Rest pose in metres (rest_m, unit rotations) and its model-space transforms (model_rest):
 * the bind pose. */
static void rest_pose_m(const ak_skeleton *s, float mpu, ak_xform *rest_m, ak_xform *model_rest)
{
    for (int32_t j = 0; j < s->joint_count; ++j) {
        rest_m[j] = s->rest_local[j];
        rest_m[j].rotation = akq_normalize(rest_m[j].rotation);
        rest_m[j].translation = akv_scale(rest_m[j].translation, mpu);
    }
    ak_fk(s, rest_m, model_rest);
}

/* The finished JSON (js) and buffer as a .gltf or .glb in *out_data: refused when memory ran
 * out or a value overflowed to infinity (nothing is written then). */
static int32_t finish_doc(akio_gbuf *js, akio_gbuf *bin, const ak_clip *c, float mpu, int binary,
                          uint8_t **out_data, size_t *out_size, ak_error *err)
{
    if (js->failed) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    if (js->nonfinite || bin->nonfinite)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "values overflow to infinity (frame time %g s over %d frames, "
                            "metres_per_unit %g): nothing written",
                            c ? (double)c->frame_time : 0.0, c ? (int)c->frame_count : 0,
                            (double)mpu);
    if (binary) return frame_glb(js, bin, out_data, out_size, err);
    *out_data = js->data;
    *out_size = js->size;
    js->data = NULL;
    return AK_OK;
}

static int32_t write_doc(const ak_skeleton *s, const ak_clip *c, const ak_gltf_params *o,
                         int binary, uint8_t **out_data, size_t *out_size, ak_error *err)
{
    const int32_t n = s->joint_count;
    if ((size_t)n > AKIO_GLTF_MAX_JOINTS)
        return ak_error_set(err, AK_ERR_LIMIT, 0, "glTF export supports at most %d joints (got %d)",
                            AKIO_GLTF_MAX_JOINTS, (int)n);
    akio_gltf_doc *d = (akio_gltf_doc *)calloc(1, sizeof *d);
    ak_xform *model_rest = (ak_xform *)malloc((size_t)n * sizeof *model_rest);
    ak_xform *rest_m = (ak_xform *)malloc((size_t)n * sizeof *rest_m);
    akio_gbuf js = {0};
    int32_t status;
    if (!d || !model_rest || !rest_m) {
        status = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    } else {
        rest_pose_m(s, o->metres_per_unit, rest_m, model_rest);
        status = akio_gltf_write_buffers(d, s, c, o, model_rest, err);
        if (status == AK_OK) {
            akio_gltf_write_json(&js, d, s, c, rest_m, binary);
            status =
                finish_doc(&js, &d->bin, c, o->metres_per_unit, binary, out_data, out_size, err);
        }
    }
    free(js.data);
    if (d) free(d->bin.data);
    free(d);
    free(model_rest);
    free(rest_m);
    return status;
}

int32_t ak_gltf_write_memory(const ak_skeleton *skeleton, const ak_clip *clip,
                             const ak_gltf_params *options, int32_t binary, uint8_t **out_data,
                             size_t *out_size, ak_error *err)
{
    if (!out_data || !out_size)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "output pointers are NULL");
    *out_data = NULL;
    *out_size = 0;
    ak_gltf_params o = options ? *options : ak_gltf_defaults();
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
                           const ak_gltf_params *options, ak_error *err)
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
