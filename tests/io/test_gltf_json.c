/* src/io/gltf_json.c: the glTF writer's JSON text. Its function takes the buffers' document
 * and the rig, no params struct: the first case is the validity of the text for any input
 * (names with quotes, backslashes, control bytes and Latin-1 bytes escaped into valid UTF-8
 * JSON; a non-finite number flagged, never printed). Then the document read back: scene,
 * nodes (rest TRS in metres to the float's last bit, children, the common root of two roots),
 * skin, animation, and every accessor and buffer view as gltf_buffers.c laid them out, the
 * embedded base64 buffer decoding to the very bytes (read back through gltf_doc.c), the GLB
 * form without a URI, and the capsule mesh's node and primitive. */
#include "gltf_write_fixture.h"
#include "io/gltf_doc.h"
#include "io/json.h"

typedef struct written {
    akt_gltf_case k;
    akio_gbuf js;
    akj_doc json;
} written;

/* The JSON of w (GLB form when binary), parsed back into w->json. */
static void json_of(written *w, int binary)
{
    ak_error err;
    akj_free(&w->json);
    free(w->js.data);
    memset(&w->js, 0, sizeof w->js);
    memset(&w->json, 0, sizeof w->json);
    akio_gltf_write_json(&w->js, w->k.d, w->k.s, w->k.c, w->k.rest_m, binary);
    assert_int_equal(w->js.failed, 0);
    if (akj_parse((const char *)w->js.data, w->js.size, &w->json, &err) != AK_OK)
        fail_msg("line %d: %s\n%s", (int)err.line, err.message, (const char *)w->js.data);
}

/* The buffers of the fixture rig and clip under o, and under the same options the JSON text
 * (GLB form when binary) parsed back into w->json. */
static void write_rig(written *w, const ak_gltf_params *o, int binary)
{
    memset(w, 0, sizeof *w);
    akt_gltf_case_open(&w->k);
    akt_gltf_case_write(&w->k, o, w->k.c);
    json_of(w, binary);
}

static void written_free(written *w)
{
    akj_free(&w->json);
    free(w->js.data);
    akt_gltf_case_close(&w->k);
}

/* Member path from the root: "nodes", 2, "name" as (key, index) steps; index -1 = a key. */
static int32_t at(const akj_doc *j, const char *key, int32_t index, const char *key2)
{
    int32_t v = akj_get(j, 0, key);
    if (index >= 0) v = akj_at(j, v, index);
    if (key2) v = akj_get(j, v, key2);
    return v;
}

static double num(const akj_doc *j, int32_t v)
{
    if (akj_type(j, v) != AKJ_NUMBER) fail_msg("value %d is not a number", (int)v);
    return akj_number(j, v, NAN);
}

static void gltf_json_text_validity(void **state)
{
    (void)state;
    written w;
    ak_gltf_params o = ak_gltf_defaults();
    o.with_mesh = 0;
    write_rig(&w, &o, 0);
    snprintf(w.k.s->names[0], AK_NAME_MAX, "h\"i\\p\x01");
    snprintf(w.k.s->names[1], AK_NAME_MAX, "kn\xe9");      /* Latin-1 e acute */
    snprintf(w.k.s->names[3], AK_NAME_MAX, "pr\xc3\xb6p"); /* UTF-8 o umlaut, kept */
    w.k.rest_m[3].translation = ak_vec3_make(0.1f, -0.0f, 1e-7f);
    json_of(&w, 0);
    assert_int_equal(w.js.nonfinite, 0);
    assert_string_equal(akj_string(&w.json, at(&w.json, "nodes", 0, "name")), "h\"i\\p\x01");
    assert_string_equal(akj_string(&w.json, at(&w.json, "nodes", 1, "name")), "kn\xc3\xa9");
    assert_string_equal(akj_string(&w.json, at(&w.json, "nodes", 3, "name")), "pr\xc3\xb6p");
    assert_non_null(strstr((const char *)w.js.data, "\"h\\\"i\\\\p\\u0001\""));
    /* 9 significant digits: each float comes back to the same bits; -0 is written as 0 */
    const int32_t t = at(&w.json, "nodes", 3, "translation");
    assert_true((float)num(&w.json, akj_at(&w.json, t, 0)) == 0.1f);
    assert_true((float)num(&w.json, akj_at(&w.json, t, 2)) == 1e-7f);
    assert_false(signbit(num(&w.json, akj_at(&w.json, t, 1))));
    assert_null(strstr((const char *)w.js.data, "-0,"));
    /* JSON has no infinity: flagged (gltf.c refuses the document), a finite 0 in the text */
    w.k.rest_m[2].translation.z = INFINITY;
    json_of(&w, 0);
    assert_int_equal(w.js.nonfinite, 1);
    assert_null(strstr((const char *)w.js.data, "inf"));
    written_free(&w);
}

static void expect_ints(const akj_doc *j, int32_t arr, const int32_t *want, int32_t n)
{
    assert_int_equal(akj_type(j, arr), AKJ_ARRAY);
    assert_int_equal(j->v[arr].count, n);
    for (int32_t i = 0; i < n; ++i)
        AKT_NEAR(num(j, akj_at(j, arr, i)), want[i], 0.0);
}

/* The scene, nodes, skin and animation of the fixture (LINEAR, no mesh): node i is joint i,
 * "animkit_root" (node 4) holds the two roots; rotation samplers 0..3, the hip's translation
 * sampler 4 on node 0. */
static void gltf_json_nodes_skin_and_animation(void **state)
{
    (void)state;
    written w;
    ak_gltf_params o = ak_gltf_defaults();
    o.with_mesh = 0;
    o.metres_per_unit = 0.5f;
    write_rig(&w, &o, 0);
    const akj_doc *j = &w.json;
    assert_string_equal(akj_string(j, akj_get(j, akj_get(j, 0, "asset"), "version")), "2.0");
    const int32_t scene_nodes[1] = {4}, root_children[2] = {0, 3}, hip_children[1] = {1};
    const int32_t knee_children[1] = {2}, joints[4] = {0, 1, 2, 3};
    expect_ints(j, at(j, "scenes", 0, "nodes"), scene_nodes, 1);
    assert_int_equal(j->v[akj_get(j, 0, "nodes")].count, 5);
    assert_string_equal(akj_string(j, at(j, "nodes", 4, "name")), "animkit_root");
    expect_ints(j, at(j, "nodes", 4, "children"), root_children, 2);
    expect_ints(j, at(j, "nodes", 0, "children"), hip_children, 1);
    expect_ints(j, at(j, "nodes", 1, "children"), knee_children, 1);
    assert_true(at(j, "nodes", 2, "children") < 0);
    for (int32_t n = 0; n < 4; ++n) {
        assert_string_equal(akj_string(j, at(j, "nodes", n, "name")), w.k.s->names[n]);
        const int32_t tv = at(j, "nodes", n, "translation"), rv = at(j, "nodes", n, "rotation");
        const float *t = &w.k.rest_m[n].translation.x, *q = &w.k.rest_m[n].rotation.x;
        for (int k = 0; k < 3; ++k)
            assert_true((float)num(j, akj_at(j, tv, k)) == t[k]);
        for (int k = 0; k < 4; ++k)
            assert_true((float)num(j, akj_at(j, rv, k)) == q[k]);
    }
    AKT_NEAR(num(j, akj_at(j, at(j, "nodes", 0, "translation"), 1)), 0.5, 0.0); /* 1 * mpu */
    const int32_t skin = at(j, "skins", 0, NULL);
    expect_ints(j, akj_get(j, skin, "joints"), joints, 4);
    AKT_NEAR(num(j, akj_get(j, skin, "inverseBindMatrices")), w.k.d->ibm_acc, 0.0);
    AKT_NEAR(num(j, akj_get(j, skin, "skeleton")), 4, 0.0);
    const int32_t anim = at(j, "animations", 0, NULL);
    const int32_t samplers = akj_get(j, anim, "samplers"), chans = akj_get(j, anim, "channels");
    assert_int_equal(j->v[samplers].count, 5);
    assert_int_equal(j->v[chans].count, 5);
    for (int32_t i = 0; i < 5; ++i) {
        const int32_t sv = akj_at(j, samplers, i), cv = akj_at(j, chans, i);
        AKT_NEAR(num(j, akj_get(j, sv, "input")), w.k.d->time_acc, 0.0);
        AKT_NEAR(num(j, akj_get(j, sv, "output")), i < 4 ? w.k.d->rot_acc0 + i : w.k.d->tr_acc0,
                 0.0);
        assert_string_equal(akj_string(j, akj_get(j, sv, "interpolation")), "LINEAR");
        AKT_NEAR(num(j, akj_get(j, cv, "sampler")), i, 0.0);
        const int32_t target = akj_get(j, cv, "target");
        AKT_NEAR(num(j, akj_get(j, target, "node")), i < 4 ? i : 0, 0.0);
        assert_string_equal(akj_string(j, akj_get(j, target, "path")),
                            i < 4 ? "rotation" : "translation");
    }
    assert_true(akj_get(j, 0, "meshes") < 0);
    written_free(&w);
}

/* Every accessor and view as the buffers laid them out; the data URI's bytes, read back as
 * floats by gltf_doc.c, are the buffer's own; the GLB form has no URI. CUBICSPLINE named. */
static void gltf_json_accessors_and_buffer_match_the_bytes(void **state)
{
    (void)state;
    written w;
    ak_gltf_params o = ak_gltf_defaults();
    o.with_mesh = 2;
    o.cubic = 1;
    write_rig(&w, &o, 0);
    const akj_doc *j = &w.json;
    const akio_gltf_doc *d = w.k.d;
    assert_int_equal(j->v[akj_get(j, 0, "accessors")].count, (int32_t)d->acc_count);
    assert_int_equal(j->v[akj_get(j, 0, "bufferViews")].count, d->view_count);
    for (int32_t i = 0; i < d->view_count; ++i) {
        const int32_t v = at(j, "bufferViews", i, NULL);
        AKT_NEAR(num(j, akj_get(j, v, "byteOffset")), d->views[i].offset, 0.0);
        AKT_NEAR(num(j, akj_get(j, v, "byteLength")), d->views[i].length, 0.0);
        const int32_t target = akj_get(j, v, "target");
        AKT_NEAR(target < 0 ? 0 : num(j, target), d->view_target[i], 0.0);
    }
    akgd_doc back;
    ak_error err;
    assert_int_equal(akgd_open(&back, w.js.data, w.js.size, NULL, &err), AK_OK);
    for (size_t i = 0; i < d->acc_count; ++i) {
        const akio_accessor *a = &d->acc[i];
        const int32_t v = at(j, "accessors", (int32_t)i, NULL);
        AKT_NEAR(num(j, akj_get(j, v, "bufferView")), a->view, 0.0);
        AKT_NEAR(num(j, akj_get(j, v, "byteOffset")), a->offset, 0.0);
        AKT_NEAR(num(j, akj_get(j, v, "componentType")), a->component, 0.0);
        AKT_NEAR(num(j, akj_get(j, v, "count")), a->count, 0.0);
        assert_string_equal(akj_string(j, akj_get(j, v, "type")), a->type);
        assert_int_equal(akj_get(j, v, "min") >= 0, a->has_minmax);
        if (a->component != 5126) continue;
        const int32_t comps = strcmp(a->type, "SCALAR") == 0 ? 1
                              : strcmp(a->type, "VEC3") == 0 ? 3
                              : strcmp(a->type, "VEC4") == 0 ? 4
                                                             : 16;
        float *got = NULL;
        int32_t count = 0;
        if (akgd_read_floats(&back, (int32_t)i, comps, "written", &count, &got) != AK_OK)
            fail_msg("accessor %d: %s", (int)i, err.message);
        assert_int_equal(count, (int32_t)a->count);
        const uint8_t *bytes = d->bin.data + d->views[a->view].offset + a->offset;
        assert_memory_equal(got, bytes, sizeof(float) * (size_t)count * (size_t)comps);
        free(got);
    }
    akgd_close(&back);
    const int32_t buf = at(j, "buffers", 0, NULL);
    AKT_NEAR(num(j, akj_get(j, buf, "byteLength")), d->bin.size, 0.0);
    assert_non_null(
        strstr(akj_string(j, akj_get(j, buf, "uri")), "data:application/octet-stream;base64,"));
    const int32_t s0 = akj_at(j, akj_get(j, at(j, "animations", 0, NULL), "samplers"), 0);
    assert_string_equal(akj_string(j, akj_get(j, s0, "interpolation")), "CUBICSPLINE");
    /* the capsule mesh: node 5 after the common root, in the scene, its primitive's accessors */
    const int32_t scene_nodes[2] = {4, 5};
    expect_ints(j, at(j, "scenes", 0, "nodes"), scene_nodes, 2);
    assert_string_equal(akj_string(j, at(j, "nodes", 5, "name")), "animkit_capsules");
    const int32_t attrs = akj_get(j, akj_at(j, at(j, "meshes", 0, "primitives"), 0), "attributes");
    AKT_NEAR(num(j, akj_get(j, attrs, "POSITION")), d->pos_acc, 0.0);
    AKT_NEAR(num(j, akj_get(j, attrs, "JOINTS_0")), d->jnt_acc, 0.0);
    json_of(&w, 1); /* GLB: the buffer is the BIN chunk */
    assert_true(akj_get(j, at(j, "buffers", 0, NULL), "uri") < 0);
    AKT_NEAR(num(j, akj_get(j, at(j, "buffers", 0, NULL), "byteLength")), d->bin.size, 0.0);
    written_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gltf_json_text_validity),
        cmocka_unit_test(gltf_json_nodes_skin_and_animation),
        cmocka_unit_test(gltf_json_accessors_and_buffer_match_the_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
