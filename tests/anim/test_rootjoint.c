/* src/anim/rootjoint.c: which joint carries a clip's travel (ak_root_joint_find, _describe) and
 * the clip with that travel moved onto the top joint (ak_clip_travel_on_top,
 * ak_clip_root_motion_prepare). Its calls take no params struct: the first case is the
 * validity of their arguments (null pointers, another joint count, a name the skeleton lacks,
 * a report that does not fit: refused with the reason, nothing changed). Then the shipped CMU
 * run (the top joint travels, its reach measured here), the same run under a still
 * "joint_Root" as other studios export it (the hips found below it; moved onto the top joint
 * with every joint's model transform unchanged in every frame, the top joint then on the hips'
 * ground track), a named joint, and an idle capture (nothing travels). Last, the body
 * (ak_clip_body_root): a still joint_Root above the hips is not part of it, so every shipped
 * capture's still-top copy stands exactly as tall as its original (ak_clip_standing_height,
 * the frame-0 body height, the rest pose's ak_skeleton_rest_height), its moved clip too, also where
 * no humanoid name is known; the originals measure as before (every joint: their top joint is the
 * hips). */
#include "test_params.h"
#include "locomotion/studio_variants.h"

static void load(const char *name, ak_skeleton **s, ak_clip **c)
{
    char path[1024];
    ak_error err;
    if (ak_bvh_read_file(akt_mocap_path(name, path, sizeof path), NULL, s, c, &err) != AK_OK)
        fail_msg("%s:%d: %s", name, (int)err.line, err.message);
}

/* The largest XZ distance of joint j from its frame-0 model position, measured here. */
static double reach_of(const ak_skeleton *s, const ak_clip *c, int32_t j)
{
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)s->joint_count * 2);
    ak_xform *model = local + s->joint_count;
    double x0 = 0.0, z0 = 0.0, reach = 0.0;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, model);
        if (f == 0) x0 = model[j].translation.x, z0 = model[j].translation.z;
        const double d = hypot(model[j].translation.x - x0, model[j].translation.z - z0);
        reach = d > reach ? d : reach;
    }
    free(local);
    return reach;
}

static void expect_status(int32_t got, int32_t want, const ak_error *err, const char *needle)
{
    if (got != want || !strstr(err->message, needle))
        fail_msg("got %s '%s', want %s with '%s'", ak_status_name(got), err->message,
                 ak_status_name(want), needle);
}

static void rootjoint_arguments_validity(void **state)
{
    (void)state;
    ak_skeleton *s, *small;
    ak_clip *c, *sc;
    load("cmu_09_01_run.bvh", &s, &c);
    small = akt_line_skeleton(2, 1.0f);
    assert_int_equal(ak_clip_create(2, 1, 0.1f, NULL, &sc, NULL), AK_OK);
    ak_root_joint_report r;
    ak_error err;
    expect_status(ak_root_joint_find(NULL, c, NULL, &r, &err), AK_ERR_INVALID_ARG, &err,
                  "null argument");
    expect_status(ak_root_joint_find(s, c, NULL, NULL, &err), AK_ERR_INVALID_ARG, &err,
                  "null argument");
    expect_status(ak_root_joint_find(s, sc, NULL, &r, &err), AK_ERR_INVALID_ARG, &err,
                  "clip has 2 joints, skeleton 38");
    expect_status(ak_root_joint_find(s, c, "Nope", &r, &err), AK_ERR_NOT_FOUND, &err,
                  "no joint named 'Nope' to carry the root motion");
    assert_int_equal(ak_root_joint_find(s, c, "", &r, &err), AK_OK); /* "": measure */
    assert_int_equal(r.reason, AK_ROOT_JOINT_TOP_TRAVELS);
    ak_clip *out = (ak_clip *)1;
    ak_root_joint_report bad = r;
    bad.joint = 38;
    expect_status(ak_clip_travel_on_top(s, c, &bad, &out, &err), AK_ERR_INVALID_ARG, &err,
                  "report does not fit the skeleton");
    assert_null(out);
    bad.joint = -1;
    expect_status(ak_clip_travel_on_top(s, c, &bad, &out, &err), AK_ERR_INVALID_ARG, &err,
                  "report does not fit the skeleton");
    expect_status(ak_clip_travel_on_top(s, c, NULL, &out, &err), AK_ERR_INVALID_ARG, &err,
                  "null argument");
    expect_status(ak_clip_root_motion_prepare(s, NULL, NULL, NULL, &err), AK_ERR_INVALID_ARG, &err,
                  "null clip");
    ak_clip *keep = c;
    expect_status(ak_clip_root_motion_prepare(s, &c, "Nope", NULL, &err), AK_ERR_NOT_FOUND, &err,
                  "no joint named 'Nope'");
    assert_ptr_equal(c, keep); /* unchanged on failure */
    char buf[8] = "xxxxxxx";
    ak_root_joint_describe(NULL, &r, buf, sizeof buf);
    assert_string_equal(buf, "?");
    ak_root_joint_describe(s, &bad, buf, sizeof buf);
    assert_string_equal(buf, "?");
    buf[0] = 'x';
    ak_root_joint_describe(s, &r, buf, 0); /* no room: nothing written */
    assert_int_equal(buf[0], 'x');
    ak_root_joint_describe(s, &r, buf, sizeof buf); /* cut to the buffer, terminated */
    assert_int_equal(strlen(buf), sizeof buf - 1);
    ak_clip_destroy(sc);
    ak_skeleton_destroy(small);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* CMU 09_01 run: the Hips are the top joint and travel (a run of about 1.2 s covers metres,
 * far over a quarter of the standing height); the report's reaches are the ones measured
 * here; travel_on_top of such a report is a plain copy. */
static void rootjoint_top_joint_travels_in_a_cmu_run(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    load("cmu_09_01_run.bvh", &s, &c);
    ak_root_joint_report r;
    assert_int_equal(ak_root_joint_find(s, c, NULL, &r, NULL), AK_OK);
    assert_int_equal(r.joint, 0);
    assert_int_equal(r.top, 0);
    assert_int_equal(r.reason, AK_ROOT_JOINT_TOP_TRAVELS);
    AKT_NEAR(r.height, ak_clip_standing_height(c, s), 0.0);
    AKT_NEAR(r.travel, reach_of(s, c, 0), 1e-4 * r.height);
    AKT_NEAR(r.top_travel, r.travel, 0.0);
    assert_true(r.travel > 0.25f * r.height);
    char line[256];
    ak_root_joint_describe(s, &r, line, sizeof line);
    assert_non_null(strstr(line, "Hips (the top joint travels: it reaches"));
    ak_clip *copy = NULL;
    assert_int_equal(ak_clip_travel_on_top(s, c, &r, &copy, NULL), AK_OK);
    assert_int_equal(copy->frame_count, c->frame_count);
    assert_memory_equal(copy->rotations, c->rotations,
                        sizeof(ak_quat) * (size_t)c->frame_count * (size_t)c->joint_count);
    ak_clip_destroy(copy);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* The run under a still joint_Root: the Hips (joint 1) are found, the top joint's reach is 0;
 * the moved clip keeps every joint's model transform but the top joint's (within float
 * rounding of the clip's size: 1e-5 of the standing height, unit rotations), its top joint runs
 * on the Hips' ground track (x, 0, z) turning about +Y only, and measured again it travels. prepare
 * does the same in one call; naming joint_Root keeps the clip. */
static void rootjoint_hips_under_a_still_top_move_onto_it(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    load("cmu_09_01_run.bvh", &s, &c);
    akv_still_top(&s, &c);
    ak_root_joint_report r;
    assert_int_equal(ak_root_joint_find(s, c, NULL, &r, NULL), AK_OK);
    assert_int_equal(r.joint, 1);
    assert_string_equal(s->names[r.joint], "Hips");
    assert_int_equal(r.top, 0);
    assert_int_equal(r.reason, AK_ROOT_JOINT_UNDER_STILL);
    AKT_NEAR(r.top_travel, 0.0, 0.0);
    AKT_NEAR(r.travel, reach_of(s, c, 1), 1e-4 * r.height);
    char line[256];
    ak_root_joint_describe(s, &r, line, sizeof line);
    assert_non_null(strstr(line, "Hips (the top joint joint_Root is still"));
    ak_clip *moved = NULL;
    assert_int_equal(ak_clip_travel_on_top(s, c, &r, &moved, NULL), AK_OK);
    const int32_t J = s->joint_count;
    ak_xform *a = malloc(sizeof(ak_xform) * (size_t)J * 4), *ma = a + J, *b = a + 2 * J,
             *mb = a + 3 * J;
    double worst = 0.0;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_clip_frame(c, s, f, a);
        ak_fk(s, a, ma);
        ak_clip_frame(moved, s, f, b);
        ak_fk(s, b, mb);
        for (int32_t j = 0; j < J; ++j) {
            AKT_NEAR(sqrt(ak_quat_dot(b[j].rotation, b[j].rotation)), 1.0, 1e-6);
            if (j == 0) continue; /* the top joint now carries the travel */
            const double d = ak_vec3_length(ak_vec3_sub(ma[j].translation, mb[j].translation));
            worst = d > worst ? d : worst;
            /* float FK down chains of up to 9 joints: some 1e-7 per product, both sides */
            AKT_NEAR(fabsf(ak_quat_dot(ma[j].rotation, mb[j].rotation)), 1.0, 1e-5);
        }
        AKT_NEAR(mb[0].translation.x, ma[1].translation.x, 1e-5 * r.height);
        AKT_NEAR(mb[0].translation.y, 0.0, 0.0);
        AKT_NEAR(mb[0].rotation.x, 0.0, 1e-7); /* a yaw: (0, sin, 0, cos) */
        AKT_NEAR(mb[0].rotation.z, 0.0, 1e-7);
        AKT_NEAR(mb[0].translation.z, ma[1].translation.z, 1e-5 * r.height);
    }
    print_message("travel moved onto joint_Root: worst model-space change %.3g (height %.3g)\n",
                  worst, (double)r.height);
    assert_true(worst <= 1e-5 * r.height);
    ak_root_joint_report again;
    assert_int_equal(ak_root_joint_find(s, moved, NULL, &again, NULL), AK_OK);
    assert_int_equal(again.joint, 0);
    assert_int_equal(again.reason, AK_ROOT_JOINT_TOP_TRAVELS);
    ak_root_joint_report prepared;
    ak_clip *clip = ak_clip_clone(c);
    assert_int_equal(ak_clip_root_motion_prepare(s, &clip, NULL, &prepared, NULL), AK_OK);
    assert_int_equal(prepared.reason, AK_ROOT_JOINT_UNDER_STILL);
    assert_memory_equal(clip->rotations, moved->rotations,
                        sizeof(ak_quat) * (size_t)c->frame_count * (size_t)J);
    ak_clip_destroy(clip);
    clip = ak_clip_clone(c);
    assert_int_equal(ak_clip_root_motion_prepare(s, &clip, "joint_Root", &prepared, NULL), AK_OK);
    assert_int_equal(prepared.reason, AK_ROOT_JOINT_NAMED);
    assert_int_equal(prepared.joint, 0);
    assert_memory_equal(clip->rotations, c->rotations,
                        sizeof(ak_quat) * (size_t)c->frame_count * (size_t)J);
    ak_root_joint_describe(s, &prepared, line, sizeof line);
    assert_non_null(strstr(line, "joint_Root (named;"));
    ak_clip_destroy(clip);
    free(a);
    ak_clip_destroy(moved);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* The ReActIdle standing capture: the root drifts under a centimetre a second, under a quarter
 * of the height over the clip, so no joint travels and the top joint is named as such. */
static void rootjoint_nothing_travels_in_an_idle_capture(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    load("reactidle_003_genuine_idle.bvh", &s, &c);
    ak_root_joint_report r;
    assert_int_equal(ak_root_joint_find(s, c, NULL, &r, NULL), AK_OK);
    assert_int_equal(r.joint, 0);
    assert_int_equal(r.reason, AK_ROOT_JOINT_TOP_TRAVELS);
    assert_true(r.travel < 0.25f * r.height);
    const double reach = reach_of(s, c, 0);
    AKT_NEAR(r.travel, reach, 1e-4 * r.height);
    char line[256];
    ak_root_joint_describe(s, &r, line, sizeof line);
    if (reach > 1e-3 * r.height)
        assert_non_null(strstr(line, "the top joint travels"));
    else
        assert_non_null(strstr(line, "no joint travels"));
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* The standing height as it was measured before the body was known: the median over up to 64
 * evenly spaced frames of every joint's height span (what the originals must still give). */
static float every_joint_height(const ak_skeleton *s, const ak_clip *c)
{
    const int32_t n = s->joint_count, samples = c->frame_count < 64 ? c->frame_count : 64;
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n * 2);
    float h[64];
    for (int32_t i = 0; i < samples; ++i) {
        const int32_t f =
            samples > 1 ? (int32_t)((int64_t)i * (c->frame_count - 1) / (samples - 1)) : 0;
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, local + n);
        float lo = local[n].translation.y, hi = lo;
        for (int32_t j = 1; j < n; ++j) {
            lo = fminf(lo, local[n + j].translation.y);
            hi = fmaxf(hi, local[n + j].translation.y);
        }
        h[i] = hi - lo;
    }
    for (int32_t i = 1; i < samples; ++i) /* insertion sort: 64 at most */
        for (int32_t k = i; k > 0 && h[k - 1] > h[k]; --k) {
            const float t = h[k];
            h[k] = h[k - 1];
            h[k - 1] = t;
        }
    free(local);
    return h[samples / 2];
}

/* The frame-0 body height (ak_pose_body_height of ak_clip_body_root's joint). */
static float frame0_body_height(const ak_skeleton *s, const ak_clip *c)
{
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)s->joint_count * 2);
    ak_clip_frame(c, s, 0, local);
    ak_fk(s, local, local + s->joint_count);
    const float h = ak_pose_body_height(s, local + s->joint_count, ak_clip_body_root(s, c));
    free(local);
    return h;
}

/* The same skeleton and clip with joints named "j0", "j1", ...: no humanoid map is found. */
static ak_skeleton *renamed(const ak_skeleton *s)
{
    const int32_t J = s->joint_count;
    char(*text)[16] = malloc(16 * (size_t)J);
    const char **names = malloc(sizeof(char *) * (size_t)J);
    for (int32_t j = 0; j < J; ++j) {
        snprintf(text[j], 16, "j%d", (int)j);
        names[j] = text[j];
    }
    ak_skeleton *out =
        akv_skeleton(J, names, s->parents, s->rest_local, s->channels, s->is_end_site);
    free(names);
    free(text);
    return out;
}

static const char *const k_captures[] = {"cmu_02_01_walk.bvh",
                                         "cmu_05_06_dance.bvh",
                                         "cmu_07_01_walk.bvh",
                                         "cmu_09_01_run.bvh",
                                         "cmu_16_11_walk_veer_left.bvh",
                                         "arena_louise_stand_walk_cycle.bvh",
                                         "reactidle_003_genuine_idle.bvh",
                                         "locomotion/cmu_02_02_walk.bvh",
                                         "locomotion/cmu_02_03_run.bvh",
                                         "locomotion/cmu_07_04_slow_walk.bvh",
                                         "locomotion/cmu_09_02_run.bvh"};

/* One capture: the original's body is joint 0 and its height is every joint's, to the bit; the
 * still-top copy (built in memory) has its body at the Hips and the original's heights to float
 * precision, by name and, renamed, by the measure when the capture travels (an idle one:
 * nothing travels, the top joint is all there is to measure). Float precision: joint_Root's
 * identity changes no product, but the copy's keys are normalized once more (ak_clip_finalize:
 * an ulp or two per key, 1e-7), through chains of up to 9 joints: 1e-6 of the height. Its clip
 * with the travel moved onto joint_Root (which then moves with the hips on the ground): within
 * the move's float rounding, 1e-5 of the height (rootjoint_hips_under_a_still_top_move_onto_it). */
static void body_of_one_capture(const char *name)
{
    ak_skeleton *s, *vs;
    ak_clip *c, *vc;
    load(name, &s, &c);
    load(name, &vs, &vc);
    akv_still_top(&vs, &vc);
    const float h = ak_clip_standing_height(c, s);
    const double keys = 1e-6 * h;
    assert_int_equal(ak_clip_body_root(s, c), 0);
    AKT_NEAR(h, every_joint_height(s, c), 0.0);
    assert_int_equal(ak_clip_body_root(vs, vc), 1);
    AKT_NEAR(ak_clip_standing_height(vc, vs), h, keys);
    AKT_NEAR(frame0_body_height(vs, vc), frame0_body_height(s, c), keys);
    /* the rest pose's too (ak_skeleton_rest_height: the same body, found by name) */
    AKT_NEAR(ak_skeleton_rest_height(vs), ak_skeleton_rest_height(s),
             1e-6 * ak_skeleton_rest_height(s));
    ak_root_joint_report r;
    assert_int_equal(ak_root_joint_find(vs, vc, NULL, &r, NULL), AK_OK);
    assert_int_equal(r.body, 1);
    AKT_NEAR(r.height, ak_clip_standing_height(vc, vs), 0.0);
    ak_clip *moved = ak_clip_clone(vc);
    assert_int_equal(ak_clip_root_motion_prepare(vs, &moved, vs->names[1], NULL, NULL), AK_OK);
    assert_int_equal(ak_clip_body_root(vs, moved), 1);
    AKT_NEAR(ak_clip_standing_height(moved, vs), h, 1e-5 * h);
    ak_skeleton *anon = renamed(vs);
    if (r.joint == 1) {
        assert_int_equal(ak_clip_body_root(anon, vc), 1);
        AKT_NEAR(ak_clip_standing_height(vc, anon), ak_clip_standing_height(vc, vs), 0.0);
    } else {
        assert_int_equal(ak_clip_body_root(anon, vc), 0);
    }
    print_message("%-36s standing height %.7g, still-top copy %.7g (every joint: %.7g), moved "
                  "%.7g, body %s\n",
                  name, (double)h, (double)ak_clip_standing_height(vc, vs),
                  (double)every_joint_height(vs, vc), (double)ak_clip_standing_height(moved, vs),
                  vs->names[r.body]);
    ak_skeleton_destroy(anon);
    ak_clip_destroy(moved);
    ak_clip_destroy(vc);
    ak_skeleton_destroy(vs);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

static void rootjoint_a_still_top_joint_is_not_the_body(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof k_captures / sizeof k_captures[0]; ++i)
        body_of_one_capture(k_captures[i]);
    assert_int_equal(ak_clip_body_root(NULL, NULL), -1);
    assert_true(ak_pose_body_height(NULL, NULL, 0) == 0.0f);
    /* Read back from BVH text (the variant generator's still-top file): the original's height
     * within the text's precision (%.9g lengths, Euler angles: 1e-5 of the height). */
    ak_skeleton *s, *vs;
    ak_clip *c, *vc;
    load("cmu_02_01_walk.bvh", &s, &c);
    akv_make("cmu_02_01_walk.bvh", AKV_STILL_TOP, &vs, &vc);
    const float h = ak_clip_standing_height(c, s);
    AKT_NEAR(ak_clip_standing_height(vc, vs), h, 1e-5 * h);
    ak_clip_destroy(vc);
    ak_skeleton_destroy(vs);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rootjoint_arguments_validity),
        cmocka_unit_test(rootjoint_top_joint_travels_in_a_cmu_run),
        cmocka_unit_test(rootjoint_hips_under_a_still_top_move_onto_it),
        cmocka_unit_test(rootjoint_nothing_travels_in_an_idle_capture),
        cmocka_unit_test(rootjoint_a_still_top_joint_is_not_the_body),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
