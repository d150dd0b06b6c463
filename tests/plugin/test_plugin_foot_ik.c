/* The plugin's standalone foot IK (src/plugin/plugin_foot_ik.c) on the built-in biped's walk
 * handed over as a Unity script would: its params' defaults are the library's, every float
 * field out of range is refused naming it, and rays, contact points and one solved frame are
 * what the library's own calls give (ak_contact_run + ak_foot_calibrate at create,
 * ak_foot_ik_query_points / ak_ground_ray_down, ak_foot_ik_sole, ak_foot_ik_run) mirrored into
 * Unity's frame. The slope scenario on a capture stays in test_plugin_abi.c. */
#include "plugin_rig.h"

#include <stddef.h>

enum { MAXJ = 64 };

/* The library side of a foot IK made with the plugin's defaults: the same map, contacts and
 * calibration the plugin makes at create. */
typedef struct lib_foot {
    ak_foot_ik_params params;
    uint8_t *contacts[2];
    float floor_y; /* the clip's floor (ak_foot_calibrate) */
} lib_foot;

static void lib_foot_make(const akpt_rig *r, lib_foot *lf)
{
    ak_humanoid hum;
    ak_error e;
    assert_int_equal(ak_humanoid_find(r->skeleton, NULL, &hum, &e), AK_OK);
    ak_foot_ik_params p = ak_foot_ik_defaults();
    const int32_t slots[2][3] = {
        {AK_HUM_LEFT_UPPER_LEG, AK_HUM_LEFT_LOWER_LEG, AK_HUM_LEFT_FOOT},
        {AK_HUM_RIGHT_UPPER_LEG, AK_HUM_RIGHT_LOWER_LEG, AK_HUM_RIGHT_FOOT}};
    for (int s = 0; s < 2; ++s) {
        p.legs[s].upper = hum.joint[slots[s][0]];
        p.legs[s].lower = hum.joint[slots[s][1]];
        p.legs[s].foot = hum.joint[slots[s][2]];
    }
    p.hips = hum.joint[AK_HUM_HIPS];
    p.skeleton = r->skeleton;
    const int32_t n = r->clip->frame_count;
    lf->contacts[0] = (uint8_t *)calloc((size_t)n * 2, 1);
    assert_non_null(lf->contacts[0]);
    lf->contacts[1] = lf->contacts[0] + n;
    ak_contact_params cp = ak_contact_defaults();
    cp.skeleton = r->skeleton;
    cp.clip = r->clip;
    cp.metres_per_unit = 1.0f;
    cp.heel[0] = p.legs[0].foot;
    cp.heel[1] = p.legs[1].foot;
    assert_int_equal(ak_contact_run(&cp, lf->contacts[0], lf->contacts[1], &e), AK_OK);
    const int32_t foot[2] = {p.legs[0].foot, p.legs[1].foot};
    const int32_t toe[2] = {hum.joint[AK_HUM_LEFT_TOE], hum.joint[AK_HUM_RIGHT_TOE]};
    ak_foot_calibration cal;
    assert_int_equal(ak_foot_calibrate(r->skeleton, r->clip, foot, toe, lf->contacts[0],
                                       lf->contacts[1], &cal, &e),
                     AK_OK);
    for (int s = 0; s < 2; ++s) {
        p.legs[s].sole_height = cal.sole_height[s];
        p.legs[s].up_local = cal.up_local[s];
        p.legs[s].toe_local = cal.toe_local[s];
        p.legs[s].has_toe = cal.has_toe[s];
    }
    assert_int_equal(ak_foot_ik_validate(&p, &e), AK_OK);
    lf->params = p;
    lf->floor_y = cal.floor_y;
}

/* The walk on both sides, the library's foot IK and the plugin's made with the defaults. */
typedef struct fixture {
    akpt_rig r;
    lib_foot lf;
    ak_handle f;
} fixture;

static void fixture_open(fixture *x)
{
    akpt_rig_walk(&x->r);
    lib_foot_make(&x->r, &x->lf);
    ak_plugin_foot_ik_params p;
    ak_plugin_foot_ik_defaults(&p);
    char err[256];
    if (ak_plugin_foot_ik_create(x->r.s, x->r.c, &p, &x->f, err, sizeof err) != AK_OK)
        fail_msg("foot IK: %s", err);
}

static void fixture_close(fixture *x)
{
    assert_int_equal(ak_plugin_destroy(x->f), AK_OK);
    free(x->lf.contacts[0]);
    akpt_rig_free(&x->r);
}

static int32_t create(const akpt_rig *r, const ak_plugin_foot_ik_params *p, ak_handle *f, char *err,
                      int32_t size)
{
    return ak_plugin_foot_ik_create(r->s, r->c, p, f, err, size);
}

/* Validity: the defaults are the library's (and rays 0.5 m up, 1 m down) and create; NULL
 * params, each float field out of its range, rays of length 0, a clip of another skeleton and
 * swapped handles are refused with the reason in the caller's buffer, no handle made. */
static void foot_ik_params_validity(void **state)
{
    (void)state;
    akpt_rig r;
    akpt_rig_walk(&r);
    const int32_t live0 = ak_plugin_live_handles();
    ak_plugin_foot_ik_params p;
    assert_int_equal(ak_plugin_foot_ik_defaults(NULL), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_foot_ik_defaults(&p), AK_OK);
    const ak_foot_ik_params d = ak_foot_ik_defaults();
    AKT_NEAR(p.weight, d.weight, 0);
    AKT_NEAR(p.max_tilt_deg, 45.0f, 1e-4); /* plugin.h's documented default, degrees */
    AKT_NEAR(p.max_hip_drop, d.max_hip_drop, 0);
    AKT_NEAR(p.hip_drop_rate, d.hip_drop_rate, 0);
    AKT_NEAR(p.pole_distance, d.pole_distance, 0);
    assert_int_equal(p.lock_feet, d.lock_feet);
    AKT_NEAR(p.ray_up, 0.5f, 0);
    AKT_NEAR(p.ray_down, 1.0f, 0);
    char err[256];
    ak_handle f = NULL;
    assert_int_equal(create(&r, &p, &f, err, sizeof err), AK_OK);
    assert_string_equal(err, "");
    assert_int_equal(ak_plugin_destroy(f), AK_OK);
    assert_int_equal(create(&r, NULL, &f, err, sizeof err), AK_ERR_INVALID_ARG);
    assert_string_equal(err, "params and out_foot_ik are required");
    const struct {
        size_t offset;
        const char *name;
        float bad;
    } fields[] = {
        {offsetof(ak_plugin_foot_ik_params, weight), "weight", 1.5f},
        {offsetof(ak_plugin_foot_ik_params, weight), "weight", NAN},
        {offsetof(ak_plugin_foot_ik_params, max_tilt_deg), "max_tilt_deg", -1.0f},
        {offsetof(ak_plugin_foot_ik_params, max_hip_drop), "max_hip_drop", INFINITY},
        {offsetof(ak_plugin_foot_ik_params, hip_drop_rate), "hip_drop_rate", -0.5f},
        {offsetof(ak_plugin_foot_ik_params, pole_distance), "pole_distance", 1e30f},
        {offsetof(ak_plugin_foot_ik_params, ray_up), "ray_up", 2e3f},
        {offsetof(ak_plugin_foot_ik_params, ray_down), "ray_down", -1.0f},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
        ak_plugin_foot_ik_params q = p;
        memcpy((char *)&q + fields[i].offset, &fields[i].bad, sizeof(float));
        f = (ak_handle)(uintptr_t)1;
        const int32_t st = create(&r, &q, &f, err, sizeof err);
        if (st != AK_ERR_INVALID_ARG || f)
            fail_msg("%s = %g: status %d, '%s'", fields[i].name, (double)fields[i].bad, (int)st,
                     err);
        char expect[64];
        snprintf(expect, sizeof expect, "foot IK: %s = ", fields[i].name);
        if (strncmp(err, expect, strlen(expect)) != 0 || !strstr(err, "must be in ["))
            fail_msg("%s = %g: '%s'", fields[i].name, (double)fields[i].bad, err);
    }
    ak_plugin_foot_ik_params q = p;
    q.ray_up = 0.0f; /* in the range table, but a ray needs a length */
    assert_int_equal(create(&r, &q, &f, err, sizeof err), AK_ERR_INVALID_ARG);
    assert_string_equal(err, "foot IK: ray_up and ray_down must be > 0");
    /* a clip of another skeleton: the leg of test_plugin_ik's kind */
    static const char leg[] = "HIERARCHY\nROOT A\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition "
                              "Yposition Zposition Zrotation Yrotation Xrotation\n End Site\n {\n"
                              "  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n"
                              "0 0 0 0 0 0\n";
    ak_handle ls, lc;
    assert_int_equal(
        ak_plugin_bvh_load_memory(leg, (int32_t)strlen(leg), 1.0f, 0, &ls, &lc, err, sizeof err),
        AK_OK);
    assert_int_equal(ak_plugin_foot_ik_create(r.s, lc, &p, &f, err, sizeof err),
                     AK_ERR_INVALID_ARG);
    assert_string_equal(err, "foot IK: clip and skeleton were not loaded together");
    assert_true(ak_plugin_foot_ik_create(ls, lc, &p, &f, err, sizeof err) != AK_OK);
    assert_non_null(strstr(err, "foot IK: ")); /* no legs to find */
    assert_int_equal(ak_plugin_foot_ik_create(r.c, r.s, &p, &f, err, sizeof err),
                     AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(err, "foot IK: handle is a clip, not a skeleton");
    ak_plugin_destroy(ls);
    ak_plugin_destroy(lc);
    assert_int_equal(ak_plugin_live_handles(), live0);
    akpt_rig_free(&r);
}

/* The rays are the library's query points with 0.5 m up / 1 m down, and the contact points
 * its ak_foot_ik_sole / ak_foot_ik_toe, for the pose placed at a turned, moved character. */
static void rays_and_contact_points_are_the_librarys(void **state)
{
    (void)state;
    fixture x;
    fixture_open(&x);
    const int32_t J = x.r.joints;
    assert_true(J <= MAXJ);
    /* the character: 2 m along x, 0.3 m up, turned 30 degrees about +Y (right-handed) */
    ak_xform place = ak_xform_identity();
    place.rotation = ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), 0.5235988f);
    place.translation = ak_vec3_make(2.0f, 0.3f, -1.0f);
    const ak_plugin_xform character = akpt_to_unity(place);
    ak_foot_ik_state st;
    ak_foot_ik_state_reset(&st);
    for (int32_t fr = 0; fr < x.r.clip->frame_count; fr += 7) {
        ak_xform local[MAXJ], model[MAXJ], world[MAXJ];
        ak_plugin_xform umodel[MAXJ];
        ak_clip_frame(x.r.clip, x.r.skeleton, fr, local);
        ak_fk(x.r.skeleton, local, model);
        for (int32_t j = 0; j < J; ++j) {
            umodel[j] = akpt_to_unity(model[j]);
            world[j] = ak_xform_mul(place, model[j]);
        }
        ak_plugin_ray rays[2];
        int32_t nr = 0;
        assert_int_equal(ak_plugin_foot_ik_rays(x.f, (float)fr * x.r.clip->frame_time, &character,
                                                umodel, J, rays, 2, &nr),
                         AK_OK);
        assert_int_equal(nr, AK_PLUGIN_FOOT_IK_RAYS);
        ak_vec3 heel[2], toe[2];
        ak_foot_ik_query_points(&x.lf.params, &st, world, heel, NULL);
        ak_vec3 uheel[2], utoe[2];
        assert_int_equal(ak_plugin_foot_ik_contact_points(x.f, &character, umodel, J, uheel, utoe),
                         AK_OK);
        for (int s = 0; s < 2; ++s) {
            const ak_ground_ray g = ak_ground_ray_down(heel[s], 0.5f, 1.0f);
            const ak_vec3 o = akpt_mirror_point(g.origin);
            AKT_NEAR(rays[s].origin.x, o.x, 1e-4);
            AKT_NEAR(rays[s].origin.y, o.y, 1e-4);
            AKT_NEAR(rays[s].origin.z, o.z, 1e-4);
            AKT_NEAR(rays[s].direction.y, -1.0f, 1e-6);
            AKT_NEAR(rays[s].max_distance, g.max_distance, 1e-5);
            const ak_vec3 sole = akpt_mirror_point(ak_foot_ik_sole(&x.lf.params, world, s));
            toe[s] = x.lf.params.legs[s].has_toe ? ak_foot_ik_toe(&x.lf.params, world, s)
                                                 : ak_foot_ik_sole(&x.lf.params, world, s);
            toe[s] = akpt_mirror_point(toe[s]);
            AKT_NEAR(uheel[s].x, sole.x, 1e-4);
            AKT_NEAR(uheel[s].y, sole.y, 1e-4);
            AKT_NEAR(uheel[s].z, sole.z, 1e-4);
            AKT_NEAR(utoe[s].x, toe[s].x, 1e-4);
            AKT_NEAR(utoe[s].z, toe[s].z, 1e-4);
        }
    }
    fixture_close(&x);
}

/* One solved frame on ground 4 cm above the clip's floor under both feet (normal tilted 10
 * degrees about x): the plugin's local and model poses are ak_foot_ik_run's on the same
 * frame (stance from the clip's contacts), and its state the library's state. */
static void a_solved_frame_is_the_librarys(void **state)
{
    (void)state;
    fixture x;
    fixture_open(&x);
    const int32_t J = x.r.joints, n = x.r.clip->frame_count;
    const ak_xform place = ak_xform_identity();
    const ak_plugin_xform character = akpt_to_unity(place);
    ak_error e;
    const float ground = x.lf.floor_y + 0.04f;
    const ak_vec3 normal = ak_vec3_make(0.0f, 0.98480775f, 0.17364818f);
    ak_foot_ik_state st;
    ak_foot_ik_state_reset(&st);
    const int32_t frame = n / 3;
    const float t = (float)frame * x.r.clip->frame_time;
    ak_xform local[MAXJ], world[MAXJ];
    ak_plugin_xform ulocal[MAXJ], umodel[MAXJ];
    ak_clip_frame(x.r.clip, x.r.skeleton, frame, local);
    ak_fk(x.r.skeleton, local, world);
    for (int32_t j = 0; j < J; ++j) {
        ulocal[j] = akpt_to_unity(local[j]);
        umodel[j] = akpt_to_unity(world[j]);
    }
    ak_plugin_ray rays[2];
    int32_t nr;
    assert_int_equal(ak_plugin_foot_ik_rays(x.f, t, &character, umodel, J, rays, 2, &nr), AK_OK);
    ak_plugin_ground_hit hits[2];
    ak_foot_ik_frame fr;
    memset(&fr, 0, sizeof fr);
    fr.dt = 0.0f;
    fr.character = place;
    fr.floor_height = x.lf.floor_y;
    for (int s = 0; s < 2; ++s) {
        hits[s].hit = 1;
        hits[s].height = ground;
        hits[s].normal = akpt_mirror_point(normal);
        const int32_t c =
            ak_contact_at(x.lf.contacts[s], n, x.r.clip->frame_time, x.r.clip->loop, t);
        fr.contact[s] = c;
        fr.stance[s] = c != 0;
        fr.stance_next[s] = ak_contact_at(x.lf.contacts[s], n, x.r.clip->frame_time, x.r.clip->loop,
                                          t + 1.0f / x.lf.params.stance_fade_rate) != 0;
        fr.ground[s].hit = 1;
        fr.ground[s].height = ground;
        fr.ground[s].normal = normal;
    }
    assert_int_equal(ak_plugin_foot_ik_apply(x.f, 0.0f, hits, 2, ulocal, umodel, J), AK_OK);
    assert_int_equal(ak_foot_ik_run(&x.lf.params, &st, &fr, local, world, &e), AK_OK);
    akpt_assert_mirrored(ulocal, local, J, 1e-4f, "foot IK local");
    akpt_assert_mirrored(umodel, world, J, 1e-4f, "foot IK model");
    ak_plugin_foot_ik_state ps;
    assert_int_equal(ak_plugin_foot_ik_state_get(x.f, &ps), AK_OK);
    for (int s = 0; s < 2; ++s) {
        assert_int_equal(ps.stance[s], fr.stance[s]);
        assert_int_equal(ps.reached[s], st.reached[s]);
        /* the tilt: the library's solved foot up against the ground normal, in degrees */
        const ak_vec3 up = ak_vec3_normalize_or(
            ak_quat_rotate(world[x.lf.params.legs[s].foot].rotation, x.lf.params.legs[s].up_local),
            ak_vec3_make(0.0f, 1.0f, 0.0f));
        const float dot = ak_vec3_dot(up, normal);
        AKT_NEAR(ps.tilt_deg[s], acosf(dot > 1.0f ? 1.0f : dot) * 57.29578f, 0.05);
        AKT_NEAR(ps.sole[s].y, st.sole[s].y, 1e-4);
        AKT_NEAR(ps.sole[s].z, -st.sole[s].z, 1e-4);
        for (int32_t j = 0; j < J; ++j) /* never NaN */
            assert_true(isfinite(umodel[j].position.x) && isfinite(umodel[j].rotation.w));
    }
    AKT_NEAR(ps.hip_drop, st.applied_hip_drop, 1e-5);
    assert_true(fr.stance[0] || fr.stance[1]);
    fixture_close(&x);
}

/* Phase order, dt and stance arguments are refused with a reason on the handle; the handle
 * keeps its skeleton alive and is refused once destroyed, twice destroyed refused. */
static void phases_arguments_and_lifetime(void **state)
{
    (void)state;
    akpt_rig r;
    akpt_rig_walk(&r);
    ak_plugin_foot_ik_params p;
    ak_plugin_foot_ik_defaults(&p);
    ak_handle f;
    char err[256];
    assert_int_equal(create(&r, &p, &f, err, sizeof err), AK_OK);
    const int32_t J = r.joints;
    ak_plugin_xform local[MAXJ], model[MAXJ];
    assert_int_equal(ak_plugin_clip_sample(r.c, r.s, 0.0f, AK_INTERP_LINEAR, local, J), AK_OK);
    assert_int_equal(ak_plugin_fk(r.s, local, model, J), AK_OK);
    const ak_plugin_xform character = {{0, 0, 0, 1}, {0, 0, 0}};
    ak_plugin_ground_hit hits[2] = {{1, 0.0f, {0, 1, 0}}, {1, 0.0f, {0, 1, 0}}};
    assert_int_equal(ak_plugin_foot_ik_apply(f, 0.0f, hits, 2, local, model, J), AK_ERR_STATE);
    ak_plugin_last_error(f, err, sizeof err);
    assert_string_equal(err, "call ak_plugin_foot_ik_rays first (phase 1)");
    ak_plugin_ray rays[2];
    int32_t nr;
    assert_int_equal(ak_plugin_foot_ik_rays(f, NAN, &character, model, J, rays, 2, &nr),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_foot_ik_rays(f, 0.0f, &character, model, J, rays, 1, &nr),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(nr, 2); /* says how many it needs */
    ak_plugin_xform far = character;
    far.position.x = 2e6f;
    assert_int_equal(ak_plugin_foot_ik_rays(f, 0.0f, &far, model, J, rays, 2, &nr),
                     AK_ERR_INVALID_ARG);
    ak_plugin_last_error(f, err, sizeof err);
    assert_non_null(strstr(err, "character position"));
    assert_int_equal(ak_plugin_foot_ik_rays(f, 0.0f, &character, model, J, rays, 2, &nr), AK_OK);
    assert_int_equal(ak_plugin_foot_ik_apply(f, 11.0f, hits, 2, local, model, J),
                     AK_ERR_INVALID_ARG);
    ak_plugin_last_error(f, err, sizeof err);
    assert_string_equal(err, "dt = 11: must be in [0, 10] seconds");
    assert_int_equal(ak_plugin_foot_ik_apply(f, 0.1f, hits, 1, local, model, J),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_foot_ik_apply(f, 0.1f, hits, 2, local, model, J), AK_OK);
    assert_int_equal(ak_plugin_foot_ik_set_stance(f, -2, 0), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_foot_ik_set_stance(f, 3, 0), AK_OK);
    assert_int_equal(ak_plugin_foot_ik_state_get(f, NULL), AK_ERR_INVALID_ARG);
    /* the skeleton handle goes; the foot IK still holds the skeleton */
    const ak_handle s = r.s;
    assert_int_equal(ak_plugin_destroy(s), AK_OK);
    r.s = NULL;
    assert_int_equal(ak_plugin_foot_ik_rays(f, 0.0f, &character, model, J, rays, 2, &nr), AK_OK);
    assert_int_equal(ak_plugin_destroy(f), AK_OK);
    assert_int_equal(ak_plugin_destroy(f), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_foot_ik_set_stance(f, 0, 0), AK_PLUGIN_ERR_HANDLE);
    ak_plugin_last_error(f, err, sizeof err);
    assert_non_null(strstr(err, "foot IK handle was destroyed"));
    assert_int_equal(ak_plugin_destroy(r.c), AK_OK);
    ak_skeleton_destroy(r.skeleton);
    ak_clip_destroy(r.clip);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(foot_ik_params_validity),
        cmocka_unit_test(rays_and_contact_points_are_the_librarys),
        cmocka_unit_test(a_solved_frame_is_the_librarys),
        cmocka_unit_test(phases_arguments_and_lifetime),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
