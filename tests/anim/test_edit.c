/* Motion editing on the real captures: trim keeps world positions, resampling to the same rate
 * is the identity, mirroring twice is the identity and once reflects the pose up to the rig's
 * own left/right asymmetry, root reset is one rigid motion, in place + bake recombines,
 * units scale, concatenation of a clip's two halves gives the clip back. */
#include "test_util.h"

static const char *const k_files[] = {"cmu_02_01_walk.bvh",
                                      "cmu_07_01_walk.bvh",
                                      "cmu_09_01_run.bvh",
                                      "cmu_16_11_walk_veer_left.bvh",
                                      "cmu_05_06_dance.bvh",
                                      "arena_louise_stand_walk_cycle.bvh",
                                      "reactidle_003_genuine_idle.bvh"};
#define FILE_COUNT (sizeof k_files / sizeof k_files[0])

typedef struct loaded {
    ak_skeleton *s;
    ak_clip *c;
    float height; /* standing height, file units: the scale of every length tolerance */
    ak_xform *local, *world;
} loaded;

static loaded load(const char *name)
{
    loaded l;
    char path[1024];
    ak_error err;
    if (ak_bvh_read_file(akt_mocap_path(name, path, sizeof path), NULL, &l.s, &l.c, &err) != AK_OK)
        fail_msg("%s:%d: %s", name, (int)err.line, err.message);
    l.height = ak_clip_standing_height(l.c, l.s);
    assert_true(l.height > 0.0f);
    l.local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)l.s->joint_count);
    l.world = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)l.s->joint_count);
    return l;
}

static void unload(loaded *l)
{
    ak_skeleton_destroy(l->s);
    ak_clip_destroy(l->c);
    free(l->local);
    free(l->world);
}

/* World positions of frame f of clip c (skeleton s) into pos. */
static void frame_positions(const ak_skeleton *s, const ak_clip *c, int32_t f, ak_vec3 *pos)
{
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * 2 * (size_t)s->joint_count);
    ak_clip_frame(c, s, f, local);
    ak_fk(s, local, local + s->joint_count);
    for (int32_t j = 0; j < s->joint_count; ++j)
        pos[j] = local[s->joint_count + j].translation;
    free(local);
}

static double dist(ak_vec3 a, ak_vec3 b)
{
    return sqrt((double)(a.x - b.x) * (a.x - b.x) + (double)(a.y - b.y) * (a.y - b.y) +
                (double)(a.z - b.z) * (a.z - b.z));
}

/* Largest world-position difference between frame fa of a and frame fb of b. */
static double frame_diff(const ak_skeleton *s, const ak_clip *a, int32_t fa, const ak_clip *b,
                         int32_t fb)
{
    ak_vec3 *pa = (ak_vec3 *)malloc(sizeof(ak_vec3) * 2 * (size_t)s->joint_count);
    ak_vec3 *pb = pa + s->joint_count;
    frame_positions(s, a, fa, pa);
    frame_positions(s, b, fb, pb);
    double worst = 0.0;
    for (int32_t j = 0; j < s->joint_count; ++j) {
        double d = dist(pa[j], pb[j]);
        if (d > worst) worst = d;
    }
    free(pa);
    return worst;
}

/* Keys equal: rotations component by component (q and -q alike), translations. */
static void assert_same_keys(const ak_clip *a, const ak_clip *b, double rot_tol, double len_tol)
{
    assert_int_equal(a->frame_count, b->frame_count);
    assert_int_equal(a->track_count, b->track_count);
    const size_t nq = (size_t)a->frame_count * (size_t)a->joint_count;
    for (size_t i = 0; i < nq; ++i) {
        const ak_quat p = a->rotations[i], q = b->rotations[i];
        const double sgn = ak_quat_dot(p, q) < 0.0f ? -1.0 : 1.0;
        const double d = fmax(fmax(fabs(p.x - sgn * q.x), fabs(p.y - sgn * q.y)),
                              fmax(fabs(p.z - sgn * q.z), fabs(p.w - sgn * q.w)));
        if (!(d <= rot_tol)) fail_msg("rotation key %zu differs by %.3g", i, d);
    }
    const size_t nt = (size_t)a->frame_count * (size_t)a->track_count;
    for (size_t i = 0; i < nt; ++i)
        AKT_NEAR(dist(a->translations[i], b->translations[i]), 0.0, len_tol);
}

static void trim_keeps_world_positions(void **state)
{
    (void)state;
    loaded l = load("cmu_02_01_walk.bvh");
    ak_edit_trim_params p = ak_edit_trim_defaults();
    p.first = 100;
    p.last = 199;
    ak_clip *t = NULL;
    ak_error err;
    assert_int_equal(ak_edit_trim_run(&p, l.c, &t, &err), AK_OK);
    assert_int_equal(t->frame_count, 100);
    for (int32_t f = 0; f < t->frame_count; ++f)
        assert_true(frame_diff(l.s, t, f, l.c, 100 + f) == 0.0);
    ak_clip_destroy(t);
    p.first = 300;
    p.last = 344; /* one past the last frame */
    assert_int_equal(ak_edit_trim_run(&p, l.c, &t, &err), AK_ERR_INVALID_ARG);
    assert_null(t);
    unload(&l);
}

static void resample_to_the_same_rate_is_the_identity(void **state)
{
    (void)state;
    for (size_t i = 0; i < FILE_COUNT; ++i) {
        loaded l = load(k_files[i]);
        ak_edit_resample_params p = ak_edit_resample_defaults();
        p.frame_time = l.c->frame_time;
        ak_clip *r = NULL;
        ak_error err;
        assert_int_equal(ak_edit_resample_run(&p, l.s, l.c, &r, &err), AK_OK);
        assert_same_keys(l.c, r, 1e-6, 1e-6 * l.height);
        ak_clip_destroy(r);
        unload(&l);
    }
}

static void resample_halves_and_interpolates(void **state)
{
    (void)state;
    loaded l = load("cmu_09_01_run.bvh"); /* 149 frames at 120 fps: 1.2333 s */
    ak_edit_resample_params p = ak_edit_resample_defaults();
    p.frame_time = 2.0f * l.c->frame_time;
    ak_clip *r = NULL;
    ak_error err;
    assert_int_equal(ak_edit_resample_run(&p, l.s, l.c, &r, &err), AK_OK);
    assert_int_equal(r->frame_count, 75); /* frames 0, 2, ..., 148 */
    for (int32_t f = 0; f < r->frame_count; ++f)
        assert_true(frame_diff(l.s, r, f, l.c, 2 * f) < 1e-5 * l.height);
    ak_clip_destroy(r);
    /* 30 fps: 1.2333 s / (1/30 s) = 37 intervals -> 38 frames; each is a slerp of the input. */
    p.frame_time = 1.0f / 30.0f;
    assert_int_equal(ak_edit_resample_run(&p, l.s, l.c, &r, &err), AK_OK);
    assert_int_equal(r->frame_count, 38);
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)l.s->joint_count);
    for (int32_t f = 0; f < r->frame_count; ++f) {
        ak_clip_sample(l.c, l.s, (float)f / 30.0f, AK_INTERP_LINEAR, local);
        for (int32_t j = 0; j < l.s->joint_count; ++j)
            assert_true(
                1.0 - fabs(ak_quat_dot(local[j].rotation, r->rotations[f * l.s->joint_count + j])) <
                1e-6);
    }
    free(local);
    ak_clip_destroy(r);
    p.frame_time = 0.0f;
    assert_int_equal(ak_edit_resample_run(&p, l.s, l.c, &r, &err), AK_ERR_INVALID_ARG);
    p.frame_time = NAN;
    assert_int_equal(ak_edit_resample_run(&p, l.s, l.c, &r, &err), AK_ERR_INVALID_ARG);
    p.frame_time = 1e-9f;
    assert_int_equal(ak_edit_resample_run(&p, l.s, l.c, &r, &err), AK_ERR_LIMIT);
    assert_null(r);
    unload(&l);
}

static ak_vec3 reflect(ak_vec3 v, int32_t axis)
{
    if (axis == 0)
        v.x = -v.x;
    else if (axis == 1)
        v.y = -v.y;
    else
        v.z = -v.z;
    return v;
}

/* Mirrored world position of j vs the reflected original position of partner(j). Keys are
 * reflected exactly, so the only difference comes from rest offsets that are not mirror
 * images: |diff_j| <= |diff_parent| + |offset_j - M offset_partner| (rotations keep lengths),
 * summed down the chain for joints whose offset is not replaced by position keys. */
static void check_mirror_geometry(const loaded *l, const ak_clip *m, const int32_t *partner,
                                  int32_t axis)
{
    const int32_t J = l->s->joint_count;
    double *bound = (double *)calloc((size_t)J, sizeof(double)), worst_bound = 0.0;
    for (int32_t j = 0; j < J; ++j) {
        const double own = l->c->joint_track[j] >= 0
                               ? 0.0
                               : dist(l->s->rest_local[j].translation,
                                      reflect(l->s->rest_local[partner[j]].translation, axis));
        bound[j] = own + (l->s->parents[j] >= 0 ? bound[l->s->parents[j]] : 0.0);
        if (bound[j] > worst_bound) worst_bound = bound[j];
    }
    printf("    rest-pose asymmetry bound: %.3g of the height\n", worst_bound / l->height);
    ak_vec3 *po = (ak_vec3 *)malloc(sizeof(ak_vec3) * 2 * (size_t)J), *pm = po + J;
    for (int32_t f = 0; f < l->c->frame_count; f += 7) {
        frame_positions(l->s, l->c, f, po);
        frame_positions(l->s, m, f, pm);
        for (int32_t j = 0; j < J; ++j) {
            const double d = dist(pm[j], reflect(po[partner[j]], axis));
            if (!(d <= bound[j] + 1e-5 * l->height))
                fail_msg("frame %d joint %s: %.6g off, bound %.6g", (int)f, l->s->names[j], d,
                         bound[j]);
        }
    }
    free(po);
    free(bound);
}

static void mirror_twice_is_the_identity_and_once_reflects(void **state)
{
    (void)state;
    for (size_t i = 0; i < FILE_COUNT; ++i) {
        loaded l = load(k_files[i]);
        ak_edit_mirror_params p = ak_edit_mirror_defaults();
        ak_clip *m1 = NULL, *m2 = NULL;
        ak_error err;
        if (ak_edit_mirror_run(&p, l.s, l.c, &m1, &err) != AK_OK)
            fail_msg("%s: %s", k_files[i], err.message);
        assert_int_equal(ak_edit_mirror_run(&p, l.s, m1, &m2, &err), AK_OK);
        assert_same_keys(l.c, m2, 1e-6, 1e-5 * l.height);
        assert_true(frame_diff(l.s, l.c, l.c->frame_count / 2, m2, l.c->frame_count / 2) <
                    1e-5 * l.height);

        int32_t *partner = (int32_t *)malloc(sizeof(int32_t) * (size_t)l.s->joint_count);
        int32_t axis = -1, swapped = 0;
        assert_int_equal(ak_edit_mirror_map(&p, l.s, l.c, partner, &axis, &err), AK_OK);
        assert_int_equal(axis, 0); /* every file here stands with its left and right along X */
        for (int32_t j = 0; j < l.s->joint_count; ++j)
            swapped += partner[j] != j;
        printf("  %-36s %d of %d joints swap sides\n", k_files[i], (int)swapped,
               (int)l.s->joint_count);
        assert_true(swapped >= 12); /* both legs and both arms at least */
        check_mirror_geometry(&l, m1, partner, axis);
        free(partner);
        ak_clip_destroy(m1);
        ak_clip_destroy(m2);
        unload(&l);
    }
}

static float rig_heading(const ak_skeleton *s, const ak_clip *c, int32_t f)
{
    ak_humanoid h;
    ak_humanoid_find(s, NULL, &h, NULL);
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * 2 * (size_t)s->joint_count);
    ak_clip_frame(c, s, f, local);
    ak_fk(s, local, local + s->joint_count);
    float h0 = ak_edit_pose_heading(&h, local + s->joint_count);
    free(local);
    return h0;
}

static void root_reset_is_one_rigid_motion_to_the_origin(void **state)
{
    (void)state;
    loaded l = load("cmu_16_11_walk_veer_left.bvh");
    ak_edit_root_reset_params p = ak_edit_root_reset_defaults();
    p.frame = 100;
    ak_clip *r = NULL;
    ak_error err;
    assert_int_equal(ak_edit_root_reset_run(&p, l.s, l.c, &r, &err), AK_OK);
    AKT_NEAR(r->translations[100 * r->track_count].x, 0.0, 1e-5 * l.height);
    AKT_NEAR(r->translations[100 * r->track_count].z, 0.0, 1e-5 * l.height);
    AKT_NEAR(r->translations[100 * r->track_count].y, l.c->translations[100 * l.c->track_count].y,
             1e-5 * l.height);
    AKT_NEAR(rig_heading(l.s, r, 100), 0.0, 1e-4);
    /* Every frame: out = yaw(-h) (orig - p), h and p from the original reference frame. */
    const float h = rig_heading(l.s, l.c, 100);
    ak_vec3 p0 = l.c->translations[100 * l.c->track_count];
    p0.y = 0.0f;
    const ak_quat turn = ak_quat_yaw(-h);
    const int32_t J = l.s->joint_count;
    ak_vec3 *po = (ak_vec3 *)malloc(sizeof(ak_vec3) * 2 * (size_t)J), *pr = po + J;
    for (int32_t f = 0; f < l.c->frame_count; f += 5) {
        frame_positions(l.s, l.c, f, po);
        frame_positions(l.s, r, f, pr);
        for (int32_t j = 0; j < J; ++j)
            assert_true(dist(pr[j], ak_quat_rotate(turn, ak_vec3_sub(po[j], p0))) <
                        1e-5 * l.height);
    }
    free(po);
    ak_clip_destroy(r);
    p.frame = l.c->frame_count;
    assert_int_equal(ak_edit_root_reset_run(&p, l.s, l.c, &r, &err), AK_ERR_INVALID_ARG);
    unload(&l);
}

static void in_place_then_bake_recombines(void **state)
{
    (void)state;
    loaded l = load("cmu_16_11_walk_veer_left.bvh");
    ak_root_motion_params rp = ak_root_motion_defaults();
    ak_clip *ip = NULL, *baked = NULL;
    ak_error err;
    assert_int_equal(ak_edit_in_place_run(&rp, l.s, l.c, &ip, &err), AK_OK);
    const int32_t T = l.c->track_count;
    for (int32_t f = 0; f < ip->frame_count; ++f) {
        AKT_NEAR(ip->translations[f * T].x, 0.0, 1e-6 * l.height);
        AKT_NEAR(ip->translations[f * T].z, 0.0, 1e-6 * l.height);
        AKT_NEAR(ip->translations[f * T].y, l.c->translations[f * T].y, 1e-6 * l.height);
        AKT_NEAR(ak_heading_of(ip->rotations[f * l.s->joint_count], rp.forward_axis), 0.0, 1e-4);
    }
    ak_root_motion *rm = NULL;
    assert_int_equal(ak_root_motion_create(l.s, l.c, &rp, &rm, &err), AK_OK);
    ak_xform *ch = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)l.c->frame_count);
    for (int32_t f = 0; f < l.c->frame_count; ++f)
        ch[f] = ak_root_motion_character(rm, (float)f * l.c->frame_time);
    ak_edit_bake_root_params bp = ak_edit_bake_root_defaults();
    bp.character = ch;
    bp.count = l.c->frame_count;
    assert_int_equal(ak_edit_bake_root_run(&bp, l.s, ip, &baked, &err), AK_OK);
    for (int32_t f = 0; f < l.c->frame_count; f += 3)
        assert_true(frame_diff(l.s, baked, f, l.c, f) < 1e-5 * l.height);
    bp.count = 3;
    ak_clip_destroy(baked);
    assert_int_equal(ak_edit_bake_root_run(&bp, l.s, ip, &baked, &err), AK_ERR_INVALID_ARG);
    free(ch);
    ak_root_motion_destroy(rm);
    ak_clip_destroy(ip);
    unload(&l);
}

static void units_scale_skeleton_and_keys(void **state)
{
    (void)state;
    loaded l = load("cmu_02_01_walk.bvh");
    ak_edit_units_params p = ak_edit_units_defaults(); /* detect -> metres */
    ak_skeleton *s2 = NULL;
    ak_clip *c2 = NULL;
    float factor = 0.0f;
    ak_error err;
    assert_int_equal(ak_edit_units_run(&p, l.s, l.c, &s2, &c2, &factor, &err), AK_OK);
    AKT_NEAR(factor, 0.056444, 1e-6); /* CMU units (CMU FAQ: 1 unit = 1/0.45 inch) */
    ak_vec3 *pa = (ak_vec3 *)malloc(sizeof(ak_vec3) * 2 * (size_t)l.s->joint_count),
            *pb = pa + l.s->joint_count;
    frame_positions(l.s, l.c, 200, pa);
    frame_positions(s2, c2, 200, pb);
    for (int32_t j = 0; j < l.s->joint_count; ++j)
        assert_true(dist(ak_vec3_scale(pa[j], factor), pb[j]) < 1e-5 * l.height * factor);
    free(pa);
    ak_skeleton_destroy(s2);
    ak_clip_destroy(c2);
    p.to_metres_per_unit = 0.0f;
    assert_int_equal(ak_edit_units_run(&p, l.s, l.c, &s2, &c2, NULL, &err), AK_ERR_INVALID_ARG);
    assert_null(s2);
    unload(&l);
}

static void concat_of_two_halves_gives_the_clip_back(void **state)
{
    (void)state;
    loaded l = load("cmu_16_11_walk_veer_left.bvh");
    ak_edit_trim_params t = ak_edit_trim_defaults();
    ak_clip *a = NULL, *b = NULL, *j = NULL;
    ak_error err;
    t.last = 250;
    assert_int_equal(ak_edit_trim_run(&t, l.c, &a, &err), AK_OK);
    t.first = 250;
    t.last = -1;
    assert_int_equal(ak_edit_trim_run(&t, l.c, &b, &err), AK_OK);
    /* One frame of overlap: b's first frame is a's last, so alignment and blend are exact. */
    ak_edit_concat_params p = ak_edit_concat_defaults();
    p.blend_time = l.c->frame_time;
    p.skeleton_b = l.s;
    assert_int_equal(ak_edit_concat_run(&p, l.s, a, b, &j, &err), AK_OK);
    assert_int_equal(j->frame_count, l.c->frame_count);
    for (int32_t f = 0; f < j->frame_count; f += 3)
        assert_true(frame_diff(l.s, j, f, l.c, f) < 1e-4 * l.height);
    ak_clip_destroy(j);
    /* A walk appended to itself continues from where the first copy ends the blend. */
    p.blend_time = 0.25f;
    assert_int_equal(ak_edit_concat_run(&p, l.s, l.c, l.c, &j, &err), AK_OK);
    const int32_t n = 30, seam = l.c->frame_count - n; /* 0.25 s at 120 fps */
    assert_int_equal(j->frame_count, 2 * l.c->frame_count - n);
    for (int32_t f = 0; f < seam; f += 11)
        assert_true(frame_diff(l.s, j, f, l.c, f) < 1e-6 * l.height);
    AKT_NEAR(rig_heading(l.s, j, l.c->frame_count + 10),
             rig_heading(l.s, l.c, seam) +
                 (rig_heading(l.s, l.c, n + 10) - rig_heading(l.s, l.c, 0)),
             1e-3);
    ak_clip_destroy(j);
    ak_clip *other = NULL;
    ak_edit_resample_params rp = ak_edit_resample_defaults();
    assert_int_equal(ak_edit_resample_run(&rp, l.s, b, &other, &err), AK_OK);
    assert_int_equal(ak_edit_concat_run(&p, l.s, a, other, &j, &err), AK_ERR_INVALID_ARG);
    assert_null(j);
    ak_clip_destroy(other);
    ak_clip_destroy(a);
    ak_clip_destroy(b);
    unload(&l);
}

/* Issue 26: a clip of another rig with as many joints is refused (a 38-joint snake appended
 * to a 38-joint walk used to play the snake's rotations on the human): names and parents
 * must match, and b's skeleton must be given. */
static void concat_refuses_a_clip_of_another_rig(void **state)
{
    (void)state;
    loaded l = load("cmu_16_11_walk_veer_left.bvh");
    const int32_t J = l.s->joint_count;
    const char **names = (const char **)malloc(sizeof(char *) * (size_t)J);
    char(*snake_names)[16] = (char(*)[16])malloc(16 * (size_t)J);
    int32_t *chain = (int32_t *)malloc(sizeof(int32_t) * (size_t)J);
    for (int32_t j = 0; j < J; ++j) {
        snprintf(snake_names[j], 16, "seg%d", (int)j);
        names[j] = snake_names[j];
        chain[j] = j - 1;
    }
    ak_error err;
    ak_clip *out = NULL;
    ak_skeleton *snake = NULL, *bent = NULL;
    ak_skeleton_desc d = {J, names, chain, l.s->rest_local, NULL, NULL};
    assert_int_equal(ak_skeleton_create(&d, &snake, &err), AK_OK);
    d.names = (const char *const *)NULL;
    const char **same = (const char **)malloc(sizeof(char *) * (size_t)J);
    for (int32_t j = 0; j < J; ++j)
        same[j] = l.s->names[j];
    d.names = same; /* the human's names on a chain: parents differ */
    assert_int_equal(ak_skeleton_create(&d, &bent, &err), AK_OK);
    ak_edit_concat_params p = ak_edit_concat_defaults();
    assert_int_equal(ak_edit_concat_run(&p, l.s, l.c, l.c, &out, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "skeleton_b"));
    p.skeleton_b = snake;
    assert_int_equal(ak_edit_concat_run(&p, l.s, l.c, l.c, &out, &err), AK_ERR_INVALID_ARG);
    assert_null(out);
    assert_non_null(strstr(err.message, "not one skeleton: joint 0"));
    p.skeleton_b = bent;
    assert_int_equal(ak_edit_concat_run(&p, l.s, l.c, l.c, &out, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "has parent"));
    p.skeleton_b = l.s;
    p.blend_time = 1e20f; /* blend_time has a documented range */
    assert_int_equal(ak_edit_concat_run(&p, l.s, l.c, l.c, &out, &err), AK_ERR_INVALID_ARG);
    p.blend_time = 0.1f;
    assert_int_equal(ak_edit_concat_run(&p, l.s, l.c, l.c, &out, &err), AK_OK);
    ak_clip_destroy(out);
    ak_skeleton_destroy(snake);
    ak_skeleton_destroy(bent);
    free(same);
    free(names);
    free(snake_names);
    free(chain);
    unload(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(concat_refuses_a_clip_of_another_rig),
        cmocka_unit_test(trim_keeps_world_positions),
        cmocka_unit_test(resample_to_the_same_rate_is_the_identity),
        cmocka_unit_test(resample_halves_and_interpolates),
        cmocka_unit_test(mirror_twice_is_the_identity_and_once_reflects),
        cmocka_unit_test(root_reset_is_one_rigid_motion_to_the_origin),
        cmocka_unit_test(in_place_then_bake_recombines),
        cmocka_unit_test(units_scale_skeleton_and_keys),
        cmocka_unit_test(concat_of_two_halves_gives_the_clip_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
