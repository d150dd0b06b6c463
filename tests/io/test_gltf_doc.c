/* src/io/gltf_doc.c: the parsed glTF document the clip and mesh readers share. Its API takes
 * no params struct: the first case is the validity of what akgd_open is given (JSON that is
 * not an object or breaks at a line, root members of the wrong kind, GLB framing that lies).
 * Then the node hierarchy (children in file order, cycles and second parents refused with the
 * node's line), node transforms worked by hand (T R S, a matrix, the 4x4 helpers, the folder
 * of a path), accessors of every component type (normalized integers as glTF 2.0 3.11 says,
 * strides, sparse substitution), and buffers that lie: byteLengths past their bytes, views
 * outside buffers, accessors outside views or missing, non-finite values, and buffer files
 * outside the document's folder. */
#include "gltf_text.h"
#include "io/gltf_doc.h"

/* Opens `text`; fails the test unless the status is `status` and, for a refusal, the message
 * holds `needle` and the error's line is `line` (-1: any). */
static void expect_open(const char *text, size_t size, int32_t status, const char *needle,
                        int32_t line)
{
    akgd_doc d;
    ak_error err;
    memset(&err, 0, sizeof err);
    const int32_t st = akgd_open(&d, (const uint8_t *)text, size, NULL, &err);
    if (st != status || (needle && !strstr(err.message, needle)) || (line >= 0 && err.line != line))
        fail_msg("got %s '%s' line %d, want %s with '%s' line %d", ak_status_name(st), err.message,
                 (int)err.line, ak_status_name(status), needle ? needle : "", (int)line);
    akgd_close(&d);
}

static void expect_open_text(const char *text, int32_t status, const char *needle, int32_t line)
{
    expect_open(text, strlen(text), status, needle, line);
}

/* A GLB of `json` (padded to 4 bytes) with a BIN chunk of `bin_len` bytes that says it has
 * `bin_says`; *size its bytes. */
static uint8_t *make_glb(const char *json, const void *bin, uint32_t bin_len, uint32_t bin_says,
                         size_t *size)
{
    const uint32_t jlen = (uint32_t)((strlen(json) + 3) / 4 * 4);
    const uint32_t total = 20 + jlen + 8 + bin_len;
    uint8_t *g = (uint8_t *)calloc(total, 1);
    const uint32_t h[5] = {0x46546C67u, 2u, total, jlen, 0x4E4F534Au};
    memcpy(g, h, 20);
    memset(g + 20, ' ', jlen);
    memcpy(g + 20, json, strlen(json));
    const uint32_t ch[2] = {bin_says, 0x004E4942u};
    memcpy(g + 20 + jlen, ch, 8);
    memcpy(g + 28 + jlen, bin, bin_len);
    *size = total;
    return g;
}

static void gltf_doc_open_validity(void **state)
{
    (void)state;
    const char *ok = "{\"nodes\": [{}, {}], \"accessors\": [{}], \"skins\": [{}]}";
    akgd_doc d;
    ak_error err;
    assert_int_equal(akgd_open(&d, (const uint8_t *)ok, strlen(ok), NULL, &err), AK_OK);
    assert_int_equal(d.nodes.count, 2);
    assert_int_equal(d.accessors.count, 1);
    assert_int_equal(d.skins.count, 1);
    assert_int_equal(d.views.count, 0);
    assert_int_equal(d.buffers.count, 0);
    assert_int_equal(d.animations.count, 0);
    assert_null(d.bin);
    akgd_close(&d);
    /* malformed JSON: the line of the fault (a trailing comma on line 4) */
    expect_open_text("{\n\"nodes\": [\n{},\n{},]\n}", AK_ERR_PARSE, "JSON", 4);
    expect_open_text("{\"nodes\": [{}", AK_ERR_PARSE, "JSON", 1);
    expect_open_text("[1, 2]", AK_ERR_PARSE, "the document is not a JSON object", -1);
    expect_open_text("{\n\"nodes\": {}}", AK_ERR_INVALID_ARG, "\"nodes\" is not an array", 2);
    expect_open_text("{\"accessors\": [{},\n 5]}", AK_ERR_INVALID_ARG,
                     "accessors[1] is not an object", 2);
    /* GLB framing */
    const float one = 1.0f;
    size_t size = 0;
    uint8_t *glb = make_glb("{\"nodes\": [{}]}", &one, 4, 4, &size);
    assert_int_equal(akgd_open(&d, glb, size, NULL, &err), AK_OK);
    assert_int_equal(d.bin_size, 4);
    assert_memory_equal(d.bin, &one, 4);
    akgd_close(&d);
    expect_open((const char *)glb, 19, AK_ERR_PARSE, "shorter than its 20-byte header", 0);
    expect_open((const char *)glb, size - 1, AK_ERR_PARSE, "(truncated?)", 0);
    uint32_t v = 8, json_len = 0;
    memcpy(&json_len, glb + 12, 4);
    memcpy(glb + 20 + json_len, &v, 4); /* the BIN chunk says 8 bytes, 4 follow */
    expect_open((const char *)glb, size, AK_ERR_PARSE, "says 8 bytes but only 4 follow", 0);
    v = 1;
    memcpy(glb + 4, &v, 4);
    expect_open((const char *)glb, size, AK_ERR_PARSE, "GLB version 1", 0);
    free(glb);
}

/* Children in file order; one parent each; a loop, a second parent, a node its own child or
 * an index outside the nodes refused with the reason and the line of the offending value. */
static void gltf_doc_links_children_and_refuses_cycles(void **state)
{
    (void)state;
    const char *tree = "{\"nodes\": [{\"children\": [3, 1]}, {\"children\": [2]}, {}, {}, {}]}";
    akgd_doc d;
    ak_error err;
    assert_int_equal(akgd_open(&d, (const uint8_t *)tree, strlen(tree), NULL, &err), AK_OK);
    const int32_t parent[5] = {-1, 0, 1, 0, -1}, first[5] = {3, 2, -1, -1, -1};
    const int32_t next[5] = {-1, -1, -1, 1, -1};
    for (int i = 0; i < 5; ++i) {
        assert_int_equal(d.parent[i], parent[i]);
        assert_int_equal(d.first_child[i], first[i]);
        assert_int_equal(d.next_sibling[i], next[i]);
    }
    akgd_close(&d);
    /* a loop below nothing: 1 -> 2 -> 3 -> 1, node 0 a root alone; node 1 is on line 3 */
    expect_open_text("{\"nodes\": [\n{},\n{\"children\": [2]},\n{\"children\": [3]},\n"
                     "{\"children\": [1]}]}",
                     AK_ERR_INVALID_ARG, "node hierarchy has a cycle through nodes[1]", 3);
    expect_open_text("{\"nodes\": [{\"children\": [1]}, {\"children\": [0]}]}", AK_ERR_INVALID_ARG,
                     "cycle through nodes[0]", 1);
    expect_open_text("{\"nodes\": [{\"children\": [0]}]}", AK_ERR_INVALID_ARG,
                     "or is its own child", 1);
    expect_open_text("{\"nodes\": [{\"children\": [2]}, {\"children\": [2]}, {}]}",
                     AK_ERR_INVALID_ARG, "node 2 has two parents (0 and 1)", 1);
    expect_open_text("{\"nodes\": [{},\n{\"children\": [1.5]}]}", AK_ERR_INVALID_ARG,
                     "nodes[1].children names node 1.5, outside 0..1", 2);
    expect_open_text("{\"nodes\": [{\"children\": 1}]}", AK_ERR_INVALID_ARG,
                     "nodes[0].children must be an array", 1);
}

static void expect_mat(const double *got, const double *want, double tol)
{
    for (int i = 0; i < 16; ++i)
        AKT_NEAR(got[i], want[i], tol);
}

/* T R S with an unnormalised quaternion (0, 0, 2, 0): 180 degrees about Z, normalised; the
 * matrix columns R e_k s_k; a "matrix" node taken as given; inverse(m) m = I; a singular
 * matrix has no inverse; bad members refused by name. */
static void gltf_doc_node_transforms_worked_by_hand(void **state)
{
    (void)state;
    const char *doc = "{\"nodes\": [{\"translation\": [1, 2, 3], \"rotation\": [0, 0, 2, 0], "
                      "\"scale\": [1, 2, 3]}, {\"matrix\": [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, "
                      "4, 5, 6, 1]}, {}]}";
    akgd_doc d;
    ak_error err;
    assert_int_equal(akgd_open(&d, (const uint8_t *)doc, strlen(doc), NULL, &err), AK_OK);
    akgd_trs trs;
    assert_int_equal(akgd_node_trs(&d, 0, &trs), AK_OK);
    assert_int_equal(trs.has_matrix, 0);
    const double want0[16] = {-1, 0, 0, 0, 0, -2, 0, 0, 0, 0, 3, 0, 1, 2, 3, 1};
    expect_mat(trs.m, want0, 1e-12);
    AKT_NEAR(trs.r[2], 1.0, 0.0);
    double inv[16], prod[16];
    const double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    assert_int_equal(akgd_mat_inverse(trs.m, inv), 1);
    akgd_mat_mul(inv, trs.m, prod);
    expect_mat(prod, identity, 1e-12);
    assert_int_equal(akgd_node_trs(&d, 1, &trs), AK_OK);
    assert_int_equal(trs.has_matrix, 1);
    const double want1[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1};
    expect_mat(trs.m, want1, 0.0);
    assert_int_equal(akgd_node_trs(&d, 2, &trs), AK_OK);
    expect_mat(trs.m, identity, 0.0);
    /* a product worked by hand: (the matrix node) * translate(1, 0, 0) moves by (0, 1, 0) */
    const double tx[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1};
    akgd_mat_mul(want1, tx, prod);
    AKT_NEAR(prod[12], 4.0, 0.0);
    AKT_NEAR(prod[13], 6.0, 0.0);
    const double singular[16] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    assert_int_equal(akgd_mat_inverse(singular, inv), 0);
    akgd_close(&d);
    static const struct {
        const char *doc, *needle;
    } bad[] = {
        {"{\"nodes\": [{\"rotation\": [0, 0, 0, 0]}]}", "nodes[0].rotation is a zero quaternion"},
        {"{\"nodes\": [{\"matrix\": [1, 0, 0]}]}", "nodes[0].matrix must be 16 numbers"},
        {"{\"nodes\": [{\"scale\": [1, 1e31, 1]}]}", "nodes[0].scale[1] is not a finite number"},
        {"{\"nodes\": [{\"translation\": [1, \"2\", 3]}]}",
         "nodes[0].translation[1] is not a finite number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_int_equal(akgd_open(&d, (const uint8_t *)bad[i].doc, strlen(bad[i].doc), NULL, &err),
                         AK_OK);
        assert_int_equal(akgd_node_trs(&d, 0, &trs), AK_ERR_INVALID_ARG);
        if (!strstr(err.message, bad[i].needle))
            fail_msg("%s: '%s', want '%s'", bad[i].doc, err.message, bad[i].needle);
        assert_int_equal(err.line, 1);
        akgd_close(&d);
    }
    static const char *const paths[][2] = {
        {"a/b/x.gltf", "a/b"}, {"x.gltf", "."}, {"/x.gltf", "/"}, {"dir/", "dir"}};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; ++i) {
        char *dir = akgd_folder_of(paths[i][0]);
        assert_string_equal(dir, paths[i][1]);
        free(dir);
    }
}

/* The bytes every accessor below reads (little-endian, 4-byte aligned blocks). */
typedef struct bytes {
    int8_t s8[4];      /* 0: -127, -128, 127, 0 */
    uint8_t u8[4];     /* 4: 255, 0, 51, 0 */
    int16_t s16[2];    /* 8: -32767, 16384 */
    uint16_t u16[2];   /* 12: 65535, 0 */
    uint32_t u32[2];   /* 16: 7, 4000000 */
    float f[6];        /* 24: 0.5, 9, 1.5, 9, 2.5, 9 (every other one a float read with stride 8) */
    uint8_t sp_idx[4]; /* 48: sparse indices 0, 2 */
    float sp_val[2];   /* 52: sparse values 5, 7 */
} bytes;

static void open_with_bytes(akgd_doc *d, const char *accessors, const char *views, long declared,
                            ak_error *err)
{
    bytes b = {{-127, -128, 127, 0}, {255, 0, 51, 0}, {-32767, 16384},
               {65535, 0},           {7, 4000000},    {0.5f, 9.0f, 1.5f, 9.0f, 2.5f, 9.0f},
               {0, 2, 0, 0},         {5.0f, 7.0f}};
    akt_text t = {0};
    akt_put(&t, "{\"accessors\": [%s],\n\"bufferViews\": [%s],\n", accessors, views);
    akt_put_buffer(&t, &b, sizeof b, declared);
    akt_put(&t, "}");
    if (akgd_open(d, (const uint8_t *)t.s, t.n, NULL, err) != AK_OK)
        fail_msg("%s\n%s", err->message, t.s);
    free(t.s);
}

#define VIEWS                                                                                      \
    "{\"buffer\": 0, \"byteLength\": 60}, {\"buffer\": 0, \"byteOffset\": 24, \"byteLength\": "    \
    "24, "                                                                                         \
    "\"byteStride\": 8}"

static void expect_floats(akgd_doc *d, int32_t index, int32_t comps, const float *want, int32_t n)
{
    float *got = NULL;
    int32_t count = 0;
    if (akgd_read_floats(d, index, comps, "test", &count, &got) != AK_OK)
        fail_msg("accessor %d: %s", (int)index, d->err->message);
    assert_int_equal(count * comps, n);
    for (int32_t i = 0; i < n; ++i)
        AKT_NEAR(got[i], want[i], 1e-7);
    free(got);
}

/* Normalized integers: int8 c / 127 clamped at -1, uint8 c / 255, int16 c / 32767, uint16
 * c / 65535; plain integers as their values; floats through a byteStride of 8; a sparse
 * accessor without a bufferView is zeros with indices 0 and 2 set to 5 and 7. */
static void gltf_doc_accessors_read_every_component_type(void **state)
{
    (void)state;
    const char *acc =
        "{\"bufferView\": 0, \"componentType\": 5120, \"normalized\": true, \"count\": 4, "
        "\"type\": \"SCALAR\"},"
        "{\"bufferView\": 0, \"byteOffset\": 4, \"componentType\": 5121, \"normalized\": true, "
        "\"count\": 3, \"type\": \"SCALAR\"},"
        "{\"bufferView\": 0, \"byteOffset\": 8, \"componentType\": 5122, \"normalized\": true, "
        "\"count\": 2, \"type\": \"SCALAR\"},"
        "{\"bufferView\": 0, \"byteOffset\": 12, \"componentType\": 5123, \"normalized\": true, "
        "\"count\": 2, \"type\": \"SCALAR\"},"
        "{\"bufferView\": 0, \"byteOffset\": 16, \"componentType\": 5125, \"count\": 2, "
        "\"type\": \"SCALAR\"},"
        "{\"bufferView\": 1, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\"},"
        "{\"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\", \"sparse\": {\"count\": 2, "
        "\"indices\": {\"bufferView\": 0, \"byteOffset\": 48, \"componentType\": 5121}, "
        "\"values\": {\"bufferView\": 0, \"byteOffset\": 52}}},"
        "{\"bufferView\": 0, \"componentType\": 5121, \"count\": 2, \"type\": \"VEC2\"}";
    akgd_doc d;
    ak_error err;
    open_with_bytes(&d, acc, VIEWS, 60, &err);
    const float s8[4] = {-1.0f, -1.0f, 1.0f, 0.0f}, u8[3] = {1.0f, 0.0f, 0.2f};
    const float s16[2] = {-1.0f, 16384.0f / 32767.0f}, u16[2] = {1.0f, 0.0f};
    const float u32[2] = {7.0f, 4000000.0f}, strided[3] = {0.5f, 1.5f, 2.5f};
    const float sparse[3] = {5.0f, 0.0f, 7.0f}, vec2[4] = {129.0f, 128.0f, 127.0f, 0.0f};
    expect_floats(&d, 0, 1, s8, 4);
    expect_floats(&d, 1, 1, u8, 3);
    expect_floats(&d, 2, 1, s16, 2);
    expect_floats(&d, 3, 1, u16, 2);
    expect_floats(&d, 4, 1, u32, 2);
    expect_floats(&d, 5, 1, strided, 3);
    expect_floats(&d, 6, 1, sparse, 3);
    expect_floats(&d, 7, 2, vec2, 4); /* unsigned bytes 129 (-127), 128 (-128), 127, 0 */
    float *out = (float *)&d;
    int32_t count = 9;
    assert_int_equal(akgd_read_floats(&d, 0, 3, "a use", &count, &out), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "a use: accessors[0] must have 3 components"));
    assert_null(out);
    assert_int_equal(count, 0);
    akgd_close(&d);
}

/* Reads accessor 0 as SCALAR from a document with these accessors, views and declared buffer
 * length; expects `status` and `needle`. */
static void expect_read_refused(const char *acc, const char *views, long declared, int32_t status,
                                const char *needle)
{
    akgd_doc d;
    ak_error err;
    open_with_bytes(&d, acc, views, declared, &err);
    float *out = NULL;
    int32_t count = 0;
    const int32_t st = akgd_read_floats(&d, 0, 1, "animations[0].samplers[0] input", &count, &out);
    if (st != status || !strstr(err.message, needle))
        fail_msg("%s: got %s '%s', want %s with '%s'", acc, ak_status_name(st), err.message,
                 ak_status_name(status), needle);
    assert_null(out);
    assert_true(err.line >= 1);
    akgd_close(&d);
}

#define FLOATS(n, view, offset)                                                                    \
    "{\"bufferView\": " #view ", \"byteOffset\": " #offset ", \"componentType\": 5126, "           \
    "\"count\": " #n ", \"type\": \"SCALAR\"}"

/* Lengths that lie, indices out of range, values that are not finite: each refused with the
 * JSON path and the numbers. */
static void gltf_doc_refuses_lying_lengths_and_missing_accessors(void **state)
{
    (void)state;
    const char *view = "{\"buffer\": 0, \"byteLength\": 60}";
    expect_read_refused(FLOATS(1, 0, 24), view, 61, AK_ERR_INVALID_ARG,
                        "buffers[0].byteLength 61 is missing or larger than its 60 bytes");
    expect_read_refused(FLOATS(1, 0, 24), "{\"buffer\": 0, \"byteOffset\": 40, \"byteLength\": 24}",
                        60, AK_ERR_INVALID_ARG,
                        "bufferViews[0] (bytes 40..64) lies outside buffers[0] (60 bytes)");
    expect_read_refused(FLOATS(10, 0, 24), view, 60, AK_ERR_INVALID_ARG,
                        "10 elements from byteOffset 24 need 64 bytes but the bufferView has 60");
    expect_read_refused(FLOATS(1, 0, 2), view, 60, AK_ERR_INVALID_ARG,
                        "1 elements from byteOffset 2"); /* not a multiple of 4 */
    expect_read_refused(FLOATS(1, 3, 0), view, 60, AK_ERR_INVALID_ARG,
                        "animations[0].samplers[0] input: bufferView 3 does not exist");
    expect_read_refused(FLOATS(1, 0, 0), "{\"buffer\": 1, \"byteLength\": 60}", 60,
                        AK_ERR_INVALID_ARG, "bufferViews[0] has a bad buffer");
    expect_read_refused(FLOATS(1, 0, 0), "{\"buffer\": 0, \"byteLength\": 60, \"byteStride\": 2}",
                        60, AK_ERR_INVALID_ARG, "byteStride");
    expect_read_refused("{\"bufferView\": 0, \"componentType\": 5130, \"count\": 1, "
                        "\"type\": \"SCALAR\"}",
                        view, 60, AK_ERR_INVALID_ARG, "a known componentType");
    expect_read_refused("{\"bufferView\": 0, \"componentType\": 5126, \"count\": 0, "
                        "\"type\": \"SCALAR\"}",
                        view, 60, AK_ERR_INVALID_ARG, "count >= 1");
    expect_read_refused("{\"bufferView\": 0, \"componentType\": 5126, \"count\": 2, "
                        "\"type\": \"VEC2\"}",
                        view, 60, AK_ERR_INVALID_ARG, "must have 1 component");
    expect_read_refused("{\"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\", "
                        "\"sparse\": {\"count\": 2, \"indices\": {\"bufferView\": 0, "
                        "\"byteOffset\": 50, \"componentType\": 5121}, \"values\": "
                        "{\"bufferView\": 0, \"byteOffset\": 52}}}",
                        view, 60, AK_ERR_INVALID_ARG, "sparse index 0 (entry 1)");
    expect_read_refused("{\"componentType\": 5126, \"count\": 1, \"type\": \"SCALAR\", "
                        "\"sparse\": {\"count\": 2, \"indices\": {\"bufferView\": 0, "
                        "\"componentType\": 5121}, \"values\": {\"bufferView\": 0}}}",
                        view, 60, AK_ERR_INVALID_ARG, "sparse count 2 must be 1..1");
    akgd_doc d;
    ak_error err;
    open_with_bytes(&d, FLOATS(1, 0, 0), view, 60, &err);
    float *out = NULL;
    int32_t count = 0;
    assert_int_equal(akgd_read_floats(&d, 5, 1, "skins[0] inverseBindMatrices", &count, &out),
                     AK_ERR_INVALID_ARG);
    assert_non_null(strstr(
        err.message, "skins[0] inverseBindMatrices: accessor 5 does not exist (1 accessors)"));
    akgd_close(&d);
}

/* A buffer of 8 bytes: a finite float then a NaN; the NaN's element is named. */
static void gltf_doc_refuses_non_finite_values(void **state)
{
    (void)state;
    const uint32_t words[2] = {0x3f800000u, 0x7fc00000u}; /* 1.0f, NaN */
    akt_text t = {0};
    akt_put(&t, "{\"accessors\": [" FLOATS(2, 0, 0) "], \"bufferViews\": [{\"buffer\": 0, "
                                                    "\"byteLength\": 8}], ");
    akt_put_buffer(&t, words, sizeof words, 8);
    akt_put(&t, "}");
    akgd_doc d;
    ak_error err;
    assert_int_equal(akgd_open(&d, (const uint8_t *)t.s, t.n, NULL, &err), AK_OK);
    float *out = NULL;
    int32_t count = 0;
    assert_int_equal(akgd_read_floats(&d, 0, 1, "x", &count, &out), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "x: accessors[0] element 1 is not finite"));
    assert_null(out);
    akgd_close(&d);
    free(t.s);
}

/* Reads accessor 0 of a document whose buffer is `uri`, from folder `dir`. */
static int32_t read_uri(const char *uri, const char *dir, ak_error *err, float *first)
{
    akt_text t = {0};
    akt_put(
        &t,
        "{\"accessors\": [" FLOATS(
            1, 0, 0) "], \"bufferViews\": [{\"buffer\": 0, "
                     "\"byteLength\": 4}], \"buffers\": [{\"byteLength\": 4, \"uri\": \"%s\"}]}",
        uri);
    akgd_doc d;
    int32_t st = akgd_open(&d, (const uint8_t *)t.s, t.n, dir, err);
    float *out = NULL;
    int32_t count = 0;
    if (st == AK_OK) st = akgd_read_floats(&d, 0, 1, "x", &count, &out);
    if (st == AK_OK) *first = out[0];
    free(out);
    akgd_close(&d);
    free(t.s);
    return st;
}

/* A file inside the folder is read (%20 decoded); every URI that would leave it (.., an
 * absolute path, a scheme, a backslash, an escaped ..) or has nowhere to resolve is refused
 * with AK_ERR_IO and the URI; a data: URI that is not base64 too; a buffer without a URI and
 * without a GLB BIN chunk. */
static void gltf_doc_buffers_stay_inside_the_folder(void **state)
{
    (void)state;
    const char *build = getenv("AK_BUILD_DIR");
    char dir[800], path[900];
    snprintf(dir, sizeof dir, "%.700s/tests", build ? build : ".");
    snprintf(path, sizeof path, "%s/gltf doc one.bin", dir);
    const float one = 1.0f;
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(&one, 4, 1, f), 1);
    fclose(f);
    ak_error err;
    float first = 0.0f;
    if (read_uri("gltf%20doc%20one.bin", dir, &err, &first) != AK_OK) fail_msg("%s", err.message);
    AKT_NEAR(first, 1.0, 0.0);
    static const char *const outside[] = {"../tests/gltf%20doc%20one.bin",
                                          "%2e%2e/x.bin",
                                          "/etc/hostname",
                                          "file:///etc/hostname",
                                          "sub\\\\x.bin",
                                          "x%00.bin",
                                          "bad%2"};
    for (size_t i = 0; i < sizeof outside / sizeof outside[0]; ++i) {
        assert_int_equal(read_uri(outside[i], dir, &err, &first), AK_ERR_IO);
        if (!strstr(err.message, "outside the glTF file's folder"))
            fail_msg("%s: '%s'", outside[i], err.message);
    }
    assert_int_equal(read_uri("gltf%20doc%20one.bin", NULL, &err, &first), AK_ERR_IO);
    assert_non_null(strstr(err.message, "(\"gltf%20doc%20one.bin\")"));
    assert_int_equal(read_uri("missing.bin", dir, &err, &first), AK_ERR_IO);
    assert_non_null(strstr(err.message, "buffers[0] cannot be opened (\"missing.bin\")"));
    assert_int_equal(read_uri("data:application/octet-stream;base64,AA*A", dir, &err, &first),
                     AK_ERR_IO);
    assert_non_null(strstr(err.message, "data: URI that is not valid base64"));
    assert_int_equal(read_uri("data:,AAAA", dir, &err, &first), AK_ERR_IO);
    const char *no_uri = "{\"accessors\": [" FLOATS(
        1, 0, 0) "], \"bufferViews\": [{\"buffer\": "
                 "0, \"byteLength\": 4}], \"buffers\": [{\"byteLength\": 4}]}";
    akgd_doc d;
    assert_int_equal(akgd_open(&d, (const uint8_t *)no_uri, strlen(no_uri), dir, &err), AK_OK);
    float *out = NULL;
    int32_t count = 0;
    assert_int_equal(akgd_read_floats(&d, 0, 1, "x", &count, &out), AK_ERR_IO);
    assert_non_null(strstr(err.message, "has no uri and the file has no GLB BIN chunk"));
    akgd_close(&d);
    /* the same document in a GLB: the BIN chunk is buffer 0 */
    size_t size = 0;
    uint8_t *glb = make_glb(no_uri, &one, 4, 4, &size);
    assert_int_equal(akgd_open(&d, glb, size, NULL, &err), AK_OK);
    assert_int_equal(akgd_read_floats(&d, 0, 1, "x", &count, &out), AK_OK);
    AKT_NEAR(out[0], 1.0, 0.0);
    free(out);
    akgd_close(&d);
    free(glb);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gltf_doc_open_validity),
        cmocka_unit_test(gltf_doc_links_children_and_refuses_cycles),
        cmocka_unit_test(gltf_doc_node_transforms_worked_by_hand),
        cmocka_unit_test(gltf_doc_accessors_read_every_component_type),
        cmocka_unit_test(gltf_doc_refuses_lying_lengths_and_missing_accessors),
        cmocka_unit_test(gltf_doc_refuses_non_finite_values),
        cmocka_unit_test(gltf_doc_buffers_stay_inside_the_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
