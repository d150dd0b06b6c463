/* Internal: a parsed glTF 2.0 document for the readers — the JSON (io/json.c), its buffers
 * (GLB BIN chunk, data: URIs, files inside the .gltf's folder), typed accessors (every
 * component type, normalized integers, byte strides, sparse substitution) and the node
 * hierarchy (parents, children in file order, depth-first order, cycles refused).
 *
 * Every index and length from the file is checked before it is used; a failure sets `err`
 * with the JSON line and a path such as "accessors[3]" in the message. Offline code: it
 * allocates freely. */
#ifndef AK_IO_GLTF_DOC_H
#define AK_IO_GLTF_DOC_H

#include "animkit/status.h"
#include "io/json.h"

#include <stddef.h>
#include <stdint.h>

#define AKGD_MAX_BYTES (512u * 1024u * 1024u)
#define AKGD_MAX_NODES 65536

/* An array member of the root ("nodes", "accessors"...) as a table of JSON value indices. */
typedef struct akgd_table {
    int32_t count;
    int32_t *v;
} akgd_table;

typedef struct akgd_doc {
    akj_doc json;
    ak_error *err;
    const uint8_t *bin; /* GLB BIN chunk (NULL for .gltf) */
    size_t bin_size;
    const char *base_dir; /* folder relative URIs resolve in, or NULL */
    akgd_table nodes, accessors, views, buffers, skins, animations;
    const uint8_t **buffer_data; /* per buffer, loaded on first use (a GLB's BIN chunk: bin) */
    size_t *buffer_size;
    uint8_t *buffer_tried;
    int32_t *parent;       /* per node, -1 for a root */
    int32_t *first_child;  /* per node, -1 for none */
    int32_t *next_sibling; /* per node, -1 ends */
} akgd_doc;

/* Splits GLB framing (when `data` starts with "glTF"), parses the JSON, indexes the root's
 * arrays, reads the node hierarchy (one parent per node, no cycles). On failure the doc may
 * be partly filled: always call akgd_close. */
int32_t akgd_open(akgd_doc *d, const uint8_t *data, size_t size, const char *base_dir,
                  ak_error *err);
void akgd_close(akgd_doc *d);

/* Sets d->err with status, the line of JSON value v (0 when v < 0) and "glTF: <why>". */
int32_t akgd_fail(akgd_doc *d, int32_t status, int32_t v, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The node tree as linked lists, shared by the clip reader (akgd_doc) and the skin reader
 * (gltf_read.c); every entry -1 before the first node is linked. */
typedef struct akgd_tree {
    int32_t count; /* nodes */
    int32_t *parent, *first_child, *next_sibling;
    int32_t *last_child; /* scratch: each node's child linked last */
} akgd_tree;

/* Links node i's "children" (JSON object node_v of json) into t: children in file order.
 * AK_OK, or AK_ERR_INVALID_ARG with the reason in why[why_size] and the offending JSON value
 * in *where (not an array, an index out of range, a second parent, a node its own child). */
int32_t akgd_link_children(const akj_doc *json, int32_t node_v, int32_t i, akgd_tree *t,
                           int32_t *where, char *why, size_t why_size);

/* A non-negative whole number member (an index or a count), or `fallback` when absent;
 * -2 when present but not a whole number in [0, 2^30]. */
int32_t akgd_index(const akgd_doc *d, int32_t obj, const char *key, int32_t fallback);

/* The node's local transform: translation, rotation (x,y,z,w, normalised) and scale, and
 * its matrix (column-major; T*R*S unless the node gives "matrix"). *has_matrix is 1 when the
 * node gives a matrix (then t/r/s are the identity and only the matrix counts). */
typedef struct akgd_trs {
    double t[3], r[4], s[3];
    double m[16];
    int has_matrix;
} akgd_trs;
int32_t akgd_node_trs(akgd_doc *d, int32_t node, akgd_trs *out);
/* m = T * R * S from the trs fields. */
void akgd_compose(akgd_trs *trs);

/* Reads accessor `index` as floats: components per element must equal `components` (1
 * SCALAR, 3 VEC3, 4 VEC4, 16 MAT4), integers are converted (normalized ones to [-1,1] /
 * [0,1] as the spec says), sparse values substituted. *out is malloc'ed (count*components
 * floats, the caller frees); `what` names the use in messages ("animations[0].samplers[2]
 * input"). Non-finite values are refused. */
int32_t akgd_read_floats(akgd_doc *d, int32_t index, int32_t components, const char *what,
                         int32_t *count, float **out);

/* A whole regular file (not a FIFO or device, which could block or never end), at most
 * AKGD_MAX_BYTES, malloc'ed (one spare byte); NULL with *why set ("cannot be opened"...). */
uint8_t *akgd_read_file(const char *path, size_t *size, const char **why);
/* Decodes base64 text (standard or URL alphabet, '=' ends it) into a new buffer (free it);
 * NULL on a character outside the alphabet or no memory. */
uint8_t *akgd_b64_decode(const char *s, size_t *out_size);
/* A URI reference with its %XX escapes decoded (RFC 3986) into out (size cap): 0 on a
 * malformed escape, an encoded NUL or a result that does not fit. */
int akgd_uri_decode(const char *uri, char *out, size_t cap);

/* The folder of `path` relative URIs resolve in ("." for a bare name, "/" for "/x.gltf"),
 * malloc'ed; NULL when out of memory. */
char *akgd_folder_of(const char *path);

/* Column-major 4x4 helpers (double). */
void akgd_mat_mul(const double a[16], const double b[16], double out[16]);
int akgd_mat_inverse(const double m[16], double out[16]);

#endif
