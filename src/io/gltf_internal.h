/* Internal: the glTF writer's three parts and what they share.
 *
 *   gltf.c         options, input checks, the document's order, GLB framing, the public calls
 *   gltf_buffers.c the binary buffer: key times, rotation and translation outputs, inverse
 *                  bind matrices, the capsule mesh; its buffer views and accessors
 *   gltf_json.c    the JSON text (scene, nodes, skin, mesh, animation, accessors, buffers)
 *
 * The buffer is laid out as: key times | rotation outputs | translation outputs | inverse
 * bind matrices | mesh positions | normals | joints | weights | indices, each block 4-byte
 * aligned. Offline code: it allocates freely. */
#ifndef AK_IO_GLTF_INTERNAL_H
#define AK_IO_GLTF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "animkit/clip.h"
#include "animkit/gltf.h"
#include "animkit/skeleton.h"

/* glTF export limit: accessors are a fixed table sized for it. */
#define AKIO_GLTF_MAX_JOINTS 1100

/* Capsule mesh resolution: sides around the bone. */
#define AKIO_CAPSULE_SIDES 8
#define AKIO_CAPSULE_VERTS 18 /* 2 rings of AKIO_CAPSULE_SIDES + 2 tips */
#define AKIO_CAPSULE_TRIS  32 /* 4 per side: 2 caps + a quad */

/* A growable byte buffer (JSON text and binary data), always 0-terminated. */
typedef struct akio_gbuf {
    uint8_t *data;
    size_t size, cap;
    int failed;
    int nonfinite; /* a float that is not finite was asked for: the document is refused */
} akio_gbuf;

/* Room for `extra` more bytes (and the terminator); -1 (and b->failed) when out of memory. */
int akio_gbuf_reserve(akio_gbuf *b, size_t extra);
/* Appends n bytes; on failure only b->failed is set. */
void akio_gbuf_append(akio_gbuf *b, const void *src, size_t n);
/* Pads with `pad` bytes to a multiple of 4. */
void akio_gbuf_align4(akio_gbuf *b, uint8_t pad);

/* A byte range of the binary buffer. */
typedef struct akio_block {
    size_t offset, length;
} akio_block;

typedef struct akio_accessor {
    size_t view, offset, count;
    int component;    /* GLTF_FLOAT, ... */
    const char *type; /* "SCALAR", "VEC3", ... */
    int has_minmax;
    float min[3], max[3];
} akio_accessor;

/* The binary buffer with its views and accessors, and the accessor indices the JSON refers
 * to. */
typedef struct akio_gltf_doc {
    akio_gbuf bin;
    akio_block views[8];
    int view_target[8]; /* 0, GLTF_ARRAY_BUFFER or GLTF_ELEMENT_ARRAY_BUFFER */
    int view_count;
    akio_accessor acc[1 + 2 * AKIO_GLTF_MAX_JOINTS + 8];
    size_t acc_count;
    int animate, cubic;                 /* a clip is exported; its sampler is CUBICSPLINE */
    size_t time_acc, rot_acc0, tr_acc0; /* key times, first rotation, first translation */
    size_t ibm_acc;                     /* inverse bind matrices */
    int has_mesh;
    int body; /* the mesh is the generated body (else capsules) */
    size_t pos_acc, nrm_acc, jnt_acc, wgt_acc, idx_acc;
} akio_gltf_doc;

/* Fills d's binary buffer, views and accessors: the clip's keys (c may be NULL: no
 * animation), the inverse bind matrices of model_rest (rest pose, model space, metres) and,
 * with o->with_mesh, the body (1) or capsule (2) mesh. Status and err on failure. */
int32_t akio_gltf_write_buffers(akio_gltf_doc *d, const ak_skeleton *s, const ak_clip *c,
                                const ak_gltf_params *o, const ak_xform *model_rest, ak_error *err);

/* Writes the JSON document for d into js: nodes with rest_m's TRS (metres), the skin, the
 * mesh and animation d holds, and the buffer (embedded as base64 unless binary). Failures
 * set js->failed; non-finite floats set js->nonfinite. */
void akio_gltf_write_json(akio_gbuf *js, const akio_gltf_doc *d, const ak_skeleton *s,
                          const ak_clip *c, const ak_xform *rest_m, int binary);

#endif
