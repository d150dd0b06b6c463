/* src/io/gltf_anim_eval.c: a glTF animation's channels read and evaluated (glTF 2.0 appendix
 * C), node matrices made rigid joints. Its functions take the reader's context, not a params
 * struct: the first case is the validity of what they read (samplers and channels: the
 * interpolation's name, key times that go back, outputs miscounted for the interpolation,
 * components for the path, targets and samplers that do not exist), each refused through
 * ak_gltf_read_clip_memory with the JSON path and nothing returned. Then values worked by
 * hand at 10 fps: LINEAR translation and slerp the short way, STEP on its keys, CUBICSPLINE
 * Hermite with tangents per second, first and last values held outside the keys, an animated
 * parent scale baked into the child's translation, and the rigid shortcut (ga_rigid_local)
 * giving the same locals as the full evaluation (ga_evaluate, ga_local). Last, the reader's
 * sweep over a run of frames (ga_rigid_sweep) against the evaluation at each time
 * (ga_rigid_local): the same floats, bit for bit, on awkward keys. */
#include "gltf_text.h"
#include "io/gltf_anim_internal.h"

/* A document under construction: float data, one bufferView and accessor per block. */
typedef struct anim_doc {
    float data[256];
    int32_t n;
    akt_text views, accessors;
    int32_t count;
} anim_doc;

/* Adds `count` elements of `type` (comps floats each); returns the accessor index. */
static int32_t add_acc(anim_doc *d, const float *v, int32_t count, const char *type, int32_t comps)
{
    const int32_t floats = count * comps;
    assert_true(d->n + floats <= 256);
    memcpy(d->data + d->n, v, sizeof(float) * (size_t)floats);
    akt_put(&d->views, "%s{\"buffer\": 0, \"byteOffset\": %d, \"byteLength\": %d}",
            d->count ? ", " : "", (int)(4 * d->n), (int)(4 * floats));
    akt_put(&d->accessors,
            "%s{\"bufferView\": %d, \"componentType\": 5126, \"count\": %d, \"type\": \"%s\"}",
            d->count ? ", " : "", (int)d->count, (int)count, type);
    d->n += floats;
    return d->count++;
}

/* The whole document: `nodes` and `animation` (JSON text) around d's buffer. */
static char *finish(anim_doc *d, const char *nodes, const char *animation)
{
    akt_text t = {0};
    akt_put(&t,
            "{\"nodes\": [%s],\n\"animations\": [%s],\n\"bufferViews\": [%s],\n"
            "\"accessors\": [%s],\n",
            nodes, animation, d->views.s ? d->views.s : "", d->accessors.s ? d->accessors.s : "");
    akt_put_buffer(&t, d->data, sizeof(float) * (size_t)d->n, 4 * d->n);
    akt_put(&t, "}");
    free(d->views.s);
    free(d->accessors.s);
    memset(d, 0, sizeof *d);
    return t.s;
}

/* Reads `doc` at `fps` (0: the reader's choice). */
static int32_t read_doc(const char *doc, float fps, ak_skeleton **s, ak_clip **c,
                        ak_gltf_clip_info *info, ak_error *err)
{
    ak_gltf_clip_params p = ak_gltf_clip_defaults();
    p.fps = fps;
    p.skin = -2; /* the node tree */
    return ak_gltf_read_clip_memory((const uint8_t *)doc, strlen(doc), NULL, &p, s, c, info, err);
}

static void expect_refused(const char *doc, const char *needle)
{
    ak_skeleton *s = (ak_skeleton *)1;
    ak_clip *c = (ak_clip *)1;
    ak_error err;
    const int32_t st = read_doc(doc, 0.0f, &s, &c, NULL, &err);
    if (st != AK_ERR_INVALID_ARG || !strstr(err.message, needle))
        fail_msg("got %s '%s' (line %d), want INVALID_ARG with '%s'", ak_status_name(st),
                 err.message, (int)err.line, needle);
    assert_true(err.line >= 1);
    assert_null(s);
    assert_null(c);
}

/* A one-node document whose animation has one channel on `path` with `interp`, input keys
 * `times` (count) and `outputs` output elements of `type`. */
static char *one_channel(const char *path, const char *interp, const float *times, int32_t keys,
                         const float *out, int32_t outputs, const char *type, int32_t comps)
{
    anim_doc d = {0};
    const int32_t in = add_acc(&d, times, keys, "SCALAR", 1);
    const int32_t o = add_acc(&d, out, outputs, type, comps);
    char anim[400];
    snprintf(anim, sizeof anim,
             "{\"channels\": [{\"sampler\": 0, \"target\": {\"node\": 0, \"path\": \"%s\"}}],\n"
             "\"samplers\": [{\"input\": %d, \"output\": %d, \"interpolation\": \"%s\"}]}",
             path, (int)in, (int)o, interp);
    return finish(&d, "{\"name\": \"a\"}", anim);
}

static void gltf_anim_eval_channels_validity(void **state)
{
    (void)state;
    const float t2[2] = {0.0f, 1.0f}, back[2] = {0.5f, 0.25f}, neg[2] = {-0.1f, 1.0f};
    const float v6[9] = {0, 0, 0, 1, 0, 0, 2, 0, 0};
    char *doc = one_channel("translation", "LINEAR", t2, 2, v6, 2, "VEC3", 3);
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    if (read_doc(doc, 10.0f, &s, &c, NULL, &err) != AK_OK) fail_msg("%s", err.message);
    assert_int_equal(c->frame_count, 11);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    free(doc);
    static const struct {
        const char *path, *interp;
        int32_t times, outputs; /* times: 0 = 0, 1 s; 1 = going back; 2 = negative */
        const char *type, *needle;
    } bad[] = {
        {"translation", "BEZIER", 0, 2, "VEC3",
         "animations[0].samplers[0].interpolation must be LINEAR, STEP or CUBICSPLINE"},
        {"translation", "linear", 0, 2, "VEC3", "interpolation must be LINEAR"},
        {"translation", "", 0, 2, "VEC3", "interpolation must be LINEAR"},
        {"translation", "LINEAR", 1, 2, "VEC3",
         "animations[0].samplers[0]: key time 1 (0.25 s) is negative or goes back in time"},
        {"translation", "LINEAR", 2, 2, "VEC3", "key time 0 (-0.1 s) is negative"},
        {"translation", "CUBICSPLINE", 0, 3, "VEC3",
         "3 outputs for 2 key times (CUBICSPLINE needs 3 per key)"},
        {"translation", "STEP", 0, 3, "VEC3",
         "3 outputs for 2 key times (this interpolation needs 1 per key)"},
        {"scale", "LINEAR", 0, 2, "SCALAR", "must have 3 components"},
        {"rotation", "LINEAR", 0, 2, "VEC3", "must have 4 components"},
    };
    const float *const times[3] = {t2, back, neg};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const int32_t comps = strcmp(bad[i].type, "SCALAR") == 0 ? 1 : 3;
        doc = one_channel(bad[i].path, bad[i].interp, times[bad[i].times], 2, v6, bad[i].outputs,
                          bad[i].type, comps);
        expect_refused(doc, bad[i].needle);
        free(doc);
    }
    const char *no_node = "{\"nodes\": [{}], \"animations\": [{\"channels\": [{\"sampler\": 0, "
                          "\"target\": {\"node\": 5, \"path\": \"rotation\"}}], \"samplers\": "
                          "[{\"input\": 0, \"output\": 1}]}]}";
    expect_refused(no_node, "animations[0].channels[0] has a bad target (node 5 of 1, path)");
    const char *no_sampler = "{\"nodes\": [{}], \"animations\": [{\"channels\": [{\"sampler\": "
                             "3, \"target\": {\"node\": 0, \"path\": \"rotation\"}}], "
                             "\"samplers\": []}]}";
    expect_refused(no_sampler, "animations[0].samplers[3] does not exist");
    expect_refused("{\"nodes\": [{}],\"animations\": [{}]}",
                   "animations[0] needs channels and samplers arrays");
    /* a weights channel is skipped and counted, not refused */
    doc = one_channel("weights", "LINEAR", t2, 2, v6, 2, "VEC3", 3);
    ak_gltf_clip_info info = {0};
    assert_int_equal(read_doc(doc, 10.0f, &s, &c, &info, &err), AK_OK);
    assert_int_equal(info.ignored_channels, 1);
    assert_int_equal(info.channels, 0);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    free(doc);
}

/* Local transforms of frame f. */
static void frame_locals(const ak_skeleton *s, const ak_clip *c, int32_t f, ak_xform *local)
{
    assert_true(f < c->frame_count);
    ak_clip_frame(c, s, f, local);
}

static void expect_vec(ak_vec3 v, double x, double y, double z, double tol)
{
    AKT_NEAR(v.x, x, tol);
    AKT_NEAR(v.y, y, tol);
    AKT_NEAR(v.z, z, tol);
}

/* Four nodes, each with its own channel, read at 10 fps over the keys 0..1 s:
 *   lin: translation LINEAR (0,0,0) -> (1,2,0); rotation LINEAR from identity to the
 *        negated 90-degree turn about +Y, which slerp takes the short way (45 degrees at 0.5 s)
 *   stp: translation STEP, keys at 0, 0.5, 1: x = 1, 2, 3
 *   cub: translation CUBICSPLINE, x from 0 to 1 with out-tangent 2/s at key 0, in-tangent 0 at
 *        key 1: x(u) = h01(u) + 2 h10(u), so x(0.5) = 0.5 + 2 * 0.125 = 0.75
 *   late: translation LINEAR keys at 0.2 and 0.6 s: x = 5 before, 7 after, 6 at 0.4 s. */
static void gltf_anim_eval_values_worked_by_hand(void **state)
{
    (void)state;
    anim_doc d = {0};
    const float t01[2] = {0, 1}, t3[3] = {0, 0.5f, 1}, tl[2] = {0.2f, 0.6f};
    const float lin_t[6] = {0, 0, 0, 1, 2, 0};
    const float lin_r[8] = {0, 0, 0, 1, 0, -0.70710678f, 0, -0.70710678f};
    const float stp[9] = {1, 0, 0, 2, 0, 0, 3, 0, 0};
    /* cubic: (in-tangent, value, out-tangent) per key */
    const float cub[18] = {0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    const float late[6] = {5, 0, 0, 7, 0, 0};
    const int32_t a_t01 = add_acc(&d, t01, 2, "SCALAR", 1), a_t3 = add_acc(&d, t3, 3, "SCALAR", 1);
    const int32_t a_tl = add_acc(&d, tl, 2, "SCALAR", 1);
    const int32_t a_lt = add_acc(&d, lin_t, 2, "VEC3", 3), a_lr = add_acc(&d, lin_r, 2, "VEC4", 4);
    const int32_t a_st = add_acc(&d, stp, 3, "VEC3", 3), a_cu = add_acc(&d, cub, 6, "VEC3", 3);
    const int32_t a_la = add_acc(&d, late, 2, "VEC3", 3);
    char anim[1400];
    snprintf(anim, sizeof anim,
             "{\"channels\": [{\"sampler\": 0, \"target\": {\"node\": 1, \"path\": "
             "\"translation\"}}, {\"sampler\": 1, \"target\": {\"node\": 1, \"path\": "
             "\"rotation\"}}, {\"sampler\": 2, \"target\": {\"node\": 2, \"path\": "
             "\"translation\"}}, {\"sampler\": 3, \"target\": {\"node\": 3, \"path\": "
             "\"translation\"}}, {\"sampler\": 4, \"target\": {\"node\": 4, \"path\": "
             "\"translation\"}}],\n\"samplers\": [{\"input\": %d, \"output\": %d}, {\"input\": "
             "%d, \"output\": %d}, {\"input\": %d, \"output\": %d, \"interpolation\": \"STEP\"}, "
             "{\"input\": %d, \"output\": %d, \"interpolation\": \"CUBICSPLINE\"}, {\"input\": "
             "%d, \"output\": %d}]}",
             (int)a_t01, (int)a_lt, (int)a_t01, (int)a_lr, (int)a_t3, (int)a_st, (int)a_t01,
             (int)a_cu, (int)a_tl, (int)a_la);
    char *doc = finish(&d,
                       "{\"name\": \"root\", \"children\": [1, 2, 3, 4]}, {\"name\": \"lin\"}, "
                       "{\"name\": \"stp\"}, {\"name\": \"cub\"}, {\"name\": \"late\"}",
                       anim);
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    ak_gltf_clip_info info = {0};
    if (read_doc(doc, 10.0f, &s, &c, &info, &err) != AK_OK) fail_msg("%s", err.message);
    assert_int_equal(s->joint_count, 5);
    assert_int_equal(c->frame_count, 11);
    assert_int_equal(info.channels, 5);
    ak_xform l[5];
    const ak_vec3 up = ak_vec3_make(0, 1, 0);
    frame_locals(s, c, 5, l); /* 0.5 s */
    expect_vec(l[1].translation, 0.5, 1.0, 0.0, 1e-6);
    AKT_NEAR(fabsf(ak_quat_dot(l[1].rotation, ak_quat_from_axis_angle(up, 0.78539816f))), 1.0,
             1e-6);
    expect_vec(l[2].translation, 2.0, 0.0, 0.0, 0.0); /* STEP on key 1 */
    expect_vec(l[3].translation, 0.75, 0.0, 0.0, 1e-6);
    expect_vec(l[4].translation, 6.5, 0.0, 0.0, 1e-6); /* (0.5 - 0.2) / 0.4 of 5 -> 7 */
    frame_locals(s, c, 4, l);                          /* 0.4 s */
    expect_vec(l[2].translation, 1.0, 0.0, 0.0, 0.0);  /* STEP holds key 0 */
    expect_vec(l[4].translation, 6.0, 0.0, 0.0, 1e-6);
    /* u = 0.4: h01 = -2u^3 + 3u^2 = 0.352, h10 = u^3 - 2u^2 + u = 0.144 */
    expect_vec(l[3].translation, 0.352 + 2 * 0.144, 0.0, 0.0, 1e-6);
    frame_locals(s, c, 1, l); /* 0.1 s: before the late channel's first key */
    expect_vec(l[4].translation, 5.0, 0.0, 0.0, 0.0);
    frame_locals(s, c, 10, l); /* 1 s: the last keys, and past the late channel's */
    expect_vec(l[1].translation, 1.0, 2.0, 0.0, 0.0);
    AKT_NEAR(fabsf(ak_quat_dot(l[1].rotation, ak_quat_from_axis_angle(up, 1.5707963f))), 1.0, 1e-6);
    expect_vec(l[2].translation, 3.0, 0.0, 0.0, 0.0);
    expect_vec(l[3].translation, 1.0, 0.0, 0.0, 0.0);
    expect_vec(l[4].translation, 7.0, 0.0, 0.0, 0.0);
    for (int32_t f = 0; f < c->frame_count; ++f) { /* every rotation a unit quaternion */
        frame_locals(s, c, f, l);
        for (int j = 0; j < 5; ++j)
            AKT_NEAR(sqrt(ak_quat_dot(l[j].rotation, l[j].rotation)), 1.0, 1e-6);
    }
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    free(doc);
}

/* A parent whose scale goes 1 -> 3 (LINEAR over 1 s) above a child at (0, 1, 0) turning
 * about +X: joints are rigid, so the scale is baked into the child's local translation
 * (0, s(t), 0) and dropped from its rotation; `other_scale` puts a static scale on a leaf
 * "other" under the child (a joint's own scale is dropped, so nothing moves). With the
 * parent's scale channel at 1 throughout (`grow` 0) the reader takes the rigid shortcut unless
 * `other_scale` forces the full evaluation; both give the same locals. */
static char *scaled_doc(int grow, float other_scale)
{
    anim_doc d = {0};
    const float t01[2] = {0, 1},
                sc[6] = {1, 1, 1, grow ? 3.0f : 1.0f, grow ? 3.0f : 1.0f, grow ? 3.0f : 1.0f};
    const float rot[8] = {0, 0, 0, 1, 0.70710678f, 0, 0, 0.70710678f};
    const int32_t a_t = add_acc(&d, t01, 2, "SCALAR", 1), a_s = add_acc(&d, sc, 2, "VEC3", 3);
    const int32_t a_r = add_acc(&d, rot, 2, "VEC4", 4);
    char anim[600], nodes[300];
    snprintf(anim, sizeof anim,
             "{\"channels\": [{\"sampler\": 0, \"target\": {\"node\": 0, \"path\": \"scale\"}}, "
             "{\"sampler\": 1, \"target\": {\"node\": 1, \"path\": \"rotation\"}}],\n"
             "\"samplers\": [{\"input\": %d, \"output\": %d}, {\"input\": %d, \"output\": %d}]}",
             (int)a_t, (int)a_s, (int)a_t, (int)a_r);
    snprintf(nodes, sizeof nodes,
             "{\"name\": \"parent\", \"children\": [1]}, {\"name\": \"child\", \"translation\": "
             "[0, 1, 0], \"children\": [2]}, {\"name\": \"other\", \"scale\": [%g, 1, 1]}",
             (double)other_scale);
    return finish(&d, nodes, anim);
}

static void read_locals(const char *doc, ak_xform local[11][3])
{
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    ak_gltf_clip_info info = {0};
    if (read_doc(doc, 10.0f, &s, &c, &info, &err) != AK_OK) fail_msg("%s", err.message);
    assert_int_equal(s->joint_count, 3);
    assert_int_equal(c->frame_count, 11);
    assert_int_equal(info.scale_channels, 1);
    for (int32_t f = 0; f < 11; ++f)
        ak_clip_frame(c, s, f, local[f]);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

static void gltf_anim_eval_bakes_scale_and_the_rigid_path_agrees(void **state)
{
    (void)state;
    static ak_xform grown[11][3], rigid[11][3], full[11][3];
    char *doc = scaled_doc(1, 1.0f);
    read_locals(doc, grown);
    free(doc);
    const ak_vec3 x = ak_vec3_make(1, 0, 0);
    for (int32_t f = 0; f < 11; ++f) {
        const double u = f / 10.0;
        expect_vec(grown[f][1].translation, 0.0, 1.0 + 2.0 * u, 0.0, 1e-5);
        /* slerp from identity to 90 degrees about X: u * 90 degrees */
        const ak_quat want = ak_quat_from_axis_angle(x, (float)(u * 1.5707963));
        AKT_NEAR(fabsf(ak_quat_dot(grown[f][1].rotation, want)), 1.0, 1e-6);
        AKT_NEAR(fabsf(ak_quat_dot(grown[f][0].rotation, ak_quat_identity())), 1.0, 1e-7);
    }
    doc = scaled_doc(0, 1.0f);
    read_locals(doc, rigid);
    free(doc);
    doc = scaled_doc(0, 2.0f);
    read_locals(doc, full);
    free(doc);
    for (int32_t f = 0; f < 11; ++f)
        for (int j = 0; j < 2; ++j) {
            expect_vec(rigid[f][j].translation, full[f][j].translation.x, full[f][j].translation.y,
                       full[f][j].translation.z, 1e-6);
            AKT_NEAR(fabsf(ak_quat_dot(rigid[f][j].rotation, full[f][j].rotation)), 1.0, 1e-6);
            expect_vec(rigid[f][j].translation, 0.0, j ? 1.0 : 0.0, 0.0, 1e-6);
        }
}

/* Channels with awkward keys: a cut (two keys at 0.1 s, the later wins), keys exactly on
 * frames (0.25 s, 0.5 s are exact in binary) and 0.1f just off its frame, a single key, a
 * channel starting late, CUBICSPLINE translations and rotations, slerp across a negative dot.
 * Joint 3 has no channel (its rest local), joint 5 only a rotation, joint 6 only a
 * translation (the node's own value for the other). */
static const float sw_t_cut[5] = {0.0f, 0.1f, 0.1f, 0.25f, 0.4f};
static const float sw_t_step[4] = {0.05f, 0.2f, 0.2f, 0.3f};
static const float sw_t_cub[3] = {0.0f, 0.15f, 0.5f};
static const float sw_t_one[1] = {0.12f};
static const float sw_t_rot[4] = {0.0f, 0.1f, 0.25f, 0.35f};
static const float sw_t_grid[4] = {0.0f, 0.05f, 0.1f, 0.15f}; /* frames 0..3 at 20 fps */
static float sw_v_cut[5][3] = {{0, 0, 0}, {1, 2, 3}, {-1, 0.5f, 2}, {4, 4, 4}, {0, -2, 1}};
static float sw_q_step[4][4] = {
    {0, 0, 0, 1}, {0.6f, 0, 0, 0.8f}, {0, 0.6f, 0, 0.8f}, {0, 0, 0.6f, 0.8f}};
/* per key: in-tangent, value, out-tangent */
static float sw_v_cub[3][3][3] = {{{0, 0, 0}, {1, 0, 0}, {2, -1, 0}},
                                  {{1, 1, 1}, {2, 2, 0}, {-3, 0, 1}},
                                  {{0, 0, 5}, {-1, 4, 0}, {0, 0, 0}}};
static float sw_v_one[1][3] = {{7, 8, 9}};
static float sw_q_rot[4][4] = {{0, 0, 0, 1},
                               {0, 0.7071068f, 0, 0.7071068f},
                               {0, 0, -0.7071068f, -0.7071068f},
                               {0.5f, 0.5f, 0.5f, 0.5f}};
static float sw_q_one[1][3][4] = {{{0.1f, 0, 0, 0}, {0, 0.6f, 0, 0.8f}, {0, 0, 0.2f, 0}}};
static float sw_q_cub[3][3][4] = {{{0, 0, 0, 0}, {0, 0, 0, 1}, {1, 0, 0, 0}},
                                  {{0, 1, 0, 0}, {0.6f, 0, 0, 0.8f}, {0, 0, 2, 0}},
                                  {{-1, 0, 0, 0}, {0.5f, -0.5f, 0.5f, 0.5f}, {0, 0, 0, 0}}};

enum { SW_JOINTS = 8, SW_CHANNELS = 12 };

typedef struct sweep_rig {
    ga_channel ch[SW_CHANNELS];
    int32_t chan_of[SW_JOINTS * 3];
    akgd_trs base[SW_JOINTS];
    ak_xform rest_local[SW_JOINTS];
    ga_ctx c;
} sweep_rig;

static ga_channel sw_channel(int32_t path, int32_t interp, const float *times, int32_t keys,
                             float *values)
{
    ga_channel ch;
    memset(&ch, 0, sizeof ch);
    ch.path = path;
    ch.interp = interp;
    ch.keys = keys;
    ch.comps = path == GA_R ? 4 : 3;
    ch.times = (float *)times;
    ch.values = values;
    return ch;
}

static void sweep_rig_init(sweep_rig *r)
{
    memset(r, 0, sizeof *r);
    r->ch[0] = sw_channel(GA_T, GA_LINEAR, sw_t_cut, 5, &sw_v_cut[0][0]);
    r->ch[1] = sw_channel(GA_R, GA_STEP, sw_t_step, 4, &sw_q_step[0][0]);
    r->ch[2] = sw_channel(GA_T, GA_CUBIC, sw_t_cub, 3, &sw_v_cub[0][0][0]);
    r->ch[3] = sw_channel(GA_R, GA_LINEAR, sw_t_rot, 4, &sw_q_rot[0][0]);
    r->ch[4] = sw_channel(GA_T, GA_STEP, sw_t_one, 1, &sw_v_one[0][0]);
    r->ch[5] = sw_channel(GA_R, GA_CUBIC, sw_t_one, 1, &sw_q_one[0][0][0]);
    r->ch[6] = sw_channel(GA_R, GA_CUBIC, sw_t_cub, 3, &sw_q_cub[0][0][0]);
    r->ch[7] = sw_channel(GA_T, GA_LINEAR, sw_t_step, 4, &sw_v_cut[0][0]); /* from 0.05 s */
    r->ch[8] = sw_channel(GA_R, GA_STEP, sw_t_rot, 4, &sw_q_rot[0][0]);
    r->ch[9] = sw_channel(GA_T, GA_LINEAR, sw_t_rot, 4, &sw_v_cut[0][0]);
    r->ch[10] = sw_channel(GA_T, GA_LINEAR, sw_t_grid, 4, &sw_v_cut[0][0]);
    r->ch[11] = sw_channel(GA_R, GA_LINEAR, sw_t_grid, 4, &sw_q_rot[0][0]);
    /* per joint: the translation, rotation and scale channel */
    static const int32_t chan_of[SW_JOINTS * 3] = {0, 1, -1, 2,  3, -1, 4, 5,  -1, -1, -1, -1,
                                                   7, 6, -1, -1, 8, -1, 9, -1, -1, 10, 11, -1};
    memcpy(r->chan_of, chan_of, sizeof chan_of);
    for (int32_t j = 0; j < SW_JOINTS; ++j) {
        const double t[3] = {0.25 * j, 1.0, -0.5}, q[4] = {0.0, 0.0, 0.6, 0.8};
        memcpy(r->base[j].t, t, sizeof t);
        memcpy(r->base[j].r, q, sizeof q);
        r->rest_local[j] = ak_xform_identity();
        r->rest_local[j].translation = ak_vec3_make(3.0f, (float)j, 1.0f);
    }
    r->c.ch = r->ch;
    r->c.ch_count = SW_CHANNELS;
    r->c.joints = SW_JOINTS;
    r->c.chan_of = r->chan_of;
    r->c.base = r->base;
}

/* Sweeps frames 0 .. n - 1 at fps (the clip's rate, channels with a key on every frame of it
 * marked) in runs of 1, 2, 3 ... frames and compares every joint with ga_rigid_local at the
 * same time, bit for bit; out[n] keeps the sweep. */
static void sweep_matches(sweep_rig *r, double fps, int32_t n, ak_xform (*out)[SW_JOINTS])
{
    double t[64], ulps[64];
    assert_true(n <= 64);
    r->c.fps = (float)fps;
    ga_mark_frame_keys(&r->c);
    for (int32_t i = 0; i < n; ++i) {
        t[i] = (double)i / fps;
        ulps[i] = ga_key_ulps(t[i]);
    }
    for (int32_t f0 = 0, run = 1; f0 < n; f0 += run, ++run) {
        const ga_frames fr = {t + f0, ulps + f0, f0 + run <= n ? run : n - f0, f0};
        for (int32_t j = 0; j < SW_JOINTS; ++j)
            ga_rigid_sweep(&r->c, j, &fr, r->rest_local, &out[f0][j], SW_JOINTS);
    }
    for (int32_t i = 0; i < n; ++i)
        for (int32_t j = 0; j < SW_JOINTS; ++j) {
            const ak_xform want = ga_rigid_local(&r->c, j, t[i], r->rest_local);
            if (memcmp(&want, &out[i][j], sizeof want) != 0)
                fail_msg("%g fps, frame %d (%.17g s), joint %d: sweep (%.9g %.9g %.9g %.9g | %.9g "
                         "%.9g %.9g) vs per time (%.9g %.9g %.9g %.9g | %.9g %.9g %.9g)",
                         fps, (int)i, t[i], (int)j, (double)out[i][j].rotation.x,
                         (double)out[i][j].rotation.y, (double)out[i][j].rotation.z,
                         (double)out[i][j].rotation.w, (double)out[i][j].translation.x,
                         (double)out[i][j].translation.y, (double)out[i][j].translation.z,
                         (double)want.rotation.x, (double)want.rotation.y, (double)want.rotation.z,
                         (double)want.rotation.w, (double)want.translation.x,
                         (double)want.translation.y, (double)want.translation.z);
        }
}

static void gltf_anim_eval_sweep_equals_per_time_evaluation(void **state)
{
    (void)state;
    static sweep_rig r;
    static ak_xform out[64][SW_JOINTS];
    sweep_rig_init(&r);
    /* 20 and 40 fps put frames on 0.25 and 0.5 s exactly and next to 0.1f; 30 and 7.5 fps
     * between keys; every rate runs past the last keys (0.5 s) */
    const double rates[4] = {20.0, 40.0, 30.0, 7.5};
    for (int i = 0; i < 4; ++i) {
        for (int32_t k = 0; k < SW_CHANNELS; ++k)
            r.ch[k].cursor = 0;
        const int32_t n = (int32_t)(0.7 * rates[i]) + 1;
        sweep_matches(&r, rates[i], n, out);
        /* joint 7's keys lie on the frames of 20 fps only: copied there without a search */
        for (int32_t k = 0; k < SW_CHANNELS; ++k)
            assert_int_equal(r.ch[k].frame_keys, i == 0 && k >= 10);
        if (i != 0) continue;
        /* worked values at 20 fps: frame 2 (0.1 s) on the cut takes its later key, and so
         * does STEP at frame 4 (0.2 s); frame 5 (0.25 s) lies on a key exactly; frame 13
         * (0.65 s) past every key holds the last; joint 2's single keys hold everywhere;
         * joint 3 stays at rest; joint 4's late channel holds its first key before it and
         * interpolates 2/3 of the way at 0.15 s, where its cubic rotation is on key 1;
         * joints 5 and 6 take their node's value for the path without a channel */
        expect_vec(out[2][0].translation, -1.0, 0.5, 2.0, 0.0);
        AKT_NEAR(out[4][0].rotation.y, 0.6, 1e-7);
        expect_vec(out[5][0].translation, 4.0, 4.0, 4.0, 0.0);
        expect_vec(out[13][0].translation, 0.0, -2.0, 1.0, 0.0);
        expect_vec(out[13][1].translation, -1.0, 4.0, 0.0, 0.0);
        expect_vec(out[0][2].translation, 7.0, 8.0, 9.0, 0.0);
        expect_vec(out[13][2].translation, 7.0, 8.0, 9.0, 0.0);
        AKT_NEAR(out[7][2].rotation.w, 0.8, 1e-7);
        expect_vec(out[9][3].translation, 3.0, 3.0, 1.0, 0.0);
        expect_vec(out[0][4].translation, 0.0, 0.0, 0.0, 0.0);
        expect_vec(out[3][4].translation, 2.0 / 3.0, 4.0 / 3.0, 2.0, 1e-6);
        AKT_NEAR(out[3][4].rotation.x, 0.6, 1e-7);
        expect_vec(out[4][5].translation, 1.25, 1.0, -0.5, 0.0); /* its node's */
        AKT_NEAR(out[4][5].rotation.y, 0.7071068, 1e-7);         /* STEP: key 1 from 0.1 s */
        AKT_NEAR(out[4][6].rotation.z, 0.6, 1e-7);               /* its node's */
        /* 2/3 of the way from key 1 (1, 2, 3) to key 2 (-1, 0.5, 2) */
        expect_vec(out[4][6].translation, -1.0 / 3.0, 1.0, 7.0 / 3.0, 1e-6);
        /* joint 7: key k on frame k, the last key held past them */
        expect_vec(out[2][7].translation, -1.0, 0.5, 2.0, 0.0);
        expect_vec(out[13][7].translation, 4.0, 4.0, 4.0, 0.0);
        AKT_NEAR(out[1][7].rotation.y, 0.7071068, 1e-7);
        AKT_NEAR(out[9][7].rotation.w, 0.5, 0.0);
    }
    /* Sweeping again from 0 s with the cursors left at the end restarts from the first key. */
    sweep_matches(&r, 20.0, 14, out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gltf_anim_eval_channels_validity),
        cmocka_unit_test(gltf_anim_eval_values_worked_by_hand),
        cmocka_unit_test(gltf_anim_eval_bakes_scale_and_the_rigid_path_agrees),
        cmocka_unit_test(gltf_anim_eval_sweep_equals_per_time_evaluation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
