/* The plugin's character (src/plugin/plugin_character.c) on the built-in biped's walk handed
 * over as a Unity script would: its params' defaults are the walker's, foot IK's and walk
 * motion's (mirrored, degrees for a person), every float field out of range is refused naming
 * it, and two seconds of the two-phase frame (begin, rays, hits, finish) give what the
 * library's walk motion + walker give on the same clip and ground, mirrored into Unity's
 * frame. The engine-ground scenario stays in test_plugin_abi.c. */
#include "plugin_rig.h"

#include <stddef.h>

enum { MAXJ = 64 };

/* The built-in walk on both sides and the plugin's defaults for it (the walk is one cycle
 * already: cycle 0, 0). */
static void walk_and_defaults(akpt_rig *r, ak_plugin_character_params *p)
{
    akpt_rig_walk(r);
    assert_int_equal(ak_plugin_character_defaults(p), AK_OK);
    p->cycle_start = p->cycle_end = 0;
}

static int32_t create(const akpt_rig *r, const ak_plugin_character_params *p, ak_handle *ch,
                      char *err, int32_t size)
{
    return ak_plugin_character_create(r->s, r->c, NULL, p, ch, err, size);
}

/* Validity: the defaults are the library's and create; NULL params, each float field out of
 * its range and swapped handles are refused with the reason, no handle made. */
static void character_params_validity(void **state)
{
    (void)state;
    akpt_rig r;
    akpt_rig_walk(&r);
    const int32_t live0 = ak_plugin_live_handles();
    ak_plugin_character_params p;
    assert_int_equal(ak_plugin_character_defaults(NULL), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_character_defaults(&p), AK_OK);
    const ak_walker_params w = ak_walker_defaults();
    const ak_walk_motion_params m = ak_walk_motion_defaults();
    AKT_NEAR(p.target.z, -w.target.z, 0);
    AKT_NEAR(p.start.x, w.start.x, 0);
    assert_int_equal(p.face_target, isnan(w.start_heading) ? 1 : 0);
    AKT_NEAR(p.arrival_radius, w.arrival_radius, 0);
    AKT_NEAR(p.turn_rate_deg * 0.01745329252f, w.turn_rate, 1e-6);
    AKT_NEAR(p.ground_smoothing, w.ground_smoothing, 0);
    AKT_NEAR(p.idle_fade, w.idle_fade, 0);
    AKT_NEAR(p.foot_weight, w.foot.weight, 0);
    AKT_NEAR(p.max_tilt_deg, 45.0f, 1e-4); /* plugin.h's documented default, degrees */
    AKT_NEAR(p.max_hip_drop, w.foot.max_hip_drop, 0);
    AKT_NEAR(p.hip_drop_rate, w.foot.hip_drop_rate, 0);
    AKT_NEAR(p.pole_distance, w.foot.pole_distance, 0);
    assert_int_equal(p.cycle_start, m.cycle_start);
    assert_int_equal(p.cycle_end, m.cycle_end);
    AKT_NEAR(p.seam_blend, m.seam_blend, 0);
    assert_int_equal(p.use_controller, w.use_controller);
    assert_int_equal(p.foot_ik, w.foot_ik);
    char err[256];
    ak_handle ch = NULL;
    p.cycle_start = p.cycle_end = 0; /* the built-in walk is one cycle already */
    if (create(&r, &p, &ch, err, sizeof err) != AK_OK) fail_msg("defaults: %s", err);
    assert_int_equal(ak_plugin_destroy(ch), AK_OK);
    assert_int_equal(create(&r, NULL, &ch, err, sizeof err), AK_ERR_INVALID_ARG);
    assert_string_equal(err, "params and out_character are required");
    const struct {
        size_t offset;
        const char *name;
        float bad;
    } fields[] = {
        {offsetof(ak_plugin_character_params, start) + 0, "start.x", 2e6f},
        {offsetof(ak_plugin_character_params, target) + 8, "target.z", NAN},
        {offsetof(ak_plugin_character_params, start_heading_deg), "start_heading_deg", INFINITY},
        {offsetof(ak_plugin_character_params, arrival_radius), "arrival_radius", -1.0f},
        {offsetof(ak_plugin_character_params, turn_rate_deg), "turn_rate_deg", 0.0f},
        {offsetof(ak_plugin_character_params, ground_smoothing), "ground_smoothing", -1.0f},
        {offsetof(ak_plugin_character_params, idle_fade), "idle_fade", NAN},
        {offsetof(ak_plugin_character_params, foot_weight), "foot_weight", 1.5f},
        {offsetof(ak_plugin_character_params, max_tilt_deg), "max_tilt_deg", 1e9f},
        {offsetof(ak_plugin_character_params, max_hip_drop), "max_hip_drop", -0.1f},
        {offsetof(ak_plugin_character_params, hip_drop_rate), "hip_drop_rate", -INFINITY},
        {offsetof(ak_plugin_character_params, pole_distance), "pole_distance", 200.0f},
        {offsetof(ak_plugin_character_params, seam_blend), "seam_blend", 11.0f},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
        ak_plugin_character_params q = p;
        memcpy((char *)&q + fields[i].offset, &fields[i].bad, sizeof(float));
        ch = (ak_handle)(uintptr_t)1;
        const int32_t st = create(&r, &q, &ch, err, sizeof err);
        if (st != AK_ERR_INVALID_ARG || ch)
            fail_msg("%s = %g: status %d, '%s'", fields[i].name, (double)fields[i].bad, (int)st,
                     err);
        char expect[64];
        snprintf(expect, sizeof expect, "character: %s = ", fields[i].name);
        if (strncmp(err, expect, strlen(expect)) != 0 || !strstr(err, "must be in ["))
            fail_msg("%s = %g: '%s'", fields[i].name, (double)fields[i].bad, err);
    }
    assert_int_equal(ak_plugin_character_create(r.c, r.c, NULL, &p, &ch, err, sizeof err),
                     AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(err, "character: handle is a clip, not a skeleton");
    assert_int_equal(ak_plugin_character_create(r.s, r.s, NULL, &p, &ch, err, sizeof err),
                     AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(err, "character: handle is a skeleton, not a clip");
    /* a walk motion the library refuses: its message comes through */
    ak_plugin_character_params q = p;
    q.cycle_start = 5;
    q.cycle_end = 3;
    assert_true(create(&r, &q, &ch, err, sizeof err) != AK_OK);
    assert_non_null(strstr(err, "walk motion: "));
    assert_int_equal(ak_plugin_live_handles(), live0);
    akpt_rig_free(&r);
}

/* Flat ground at y = 0 for each ray. */
static void flat_hits(const ak_ground_ray *rays, ak_ground_hit *hits, int32_t n)
{
    for (int32_t i = 0; i < n; ++i) {
        hits[i].hit = rays[i].origin.y >= 0.0f && rays[i].origin.y <= rays[i].max_distance;
        hits[i].height = 0.0f;
        hits[i].normal = ak_vec3_make(0.0f, 1.0f, 0.0f);
    }
}

/* One two-phase frame of dt seconds on flat ground at y = 0 (every ray hits it). */
static void flat_frame(ak_handle ch, float dt)
{
    ak_plugin_ray rays[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_plugin_ground_hit hits[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_vec3 move;
    int32_t nr;
    assert_int_equal(ak_plugin_character_begin(ch, dt, &move), AK_OK);
    assert_int_equal(ak_plugin_character_ground_rays(ch, rays, AK_PLUGIN_CHARACTER_MAX_RAYS, &nr),
                     AK_OK);
    for (int32_t i = 0; i < nr; ++i)
        hits[i] = (ak_plugin_ground_hit){1, 0.0f, {0.0f, 1.0f, 0.0f}};
    assert_int_equal(ak_plugin_character_finish(ch, hits, nr), AK_OK);
}

/* 120 frames at 60 Hz toward a target 4 m ahead and to the side, started turned 20 degrees:
 * the plugin's state and world pose are the library walker's mirrored at every frame. */
static void two_seconds_walk_as_the_library_walker(void **state)
{
    (void)state;
    akpt_rig r;
    ak_plugin_character_params p;
    walk_and_defaults(&r, &p);
    p.target = ak_vec3_make(1.5f, 0.0f, -4.0f);
    p.face_target = 0;
    p.start_heading_deg = 20.0f;
    char err[256];
    ak_handle ch;
    assert_int_equal(create(&r, &p, &ch, err, sizeof err), AK_OK);
    /* the library side, as plugin_character.c builds it */
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    mp.metres_per_unit = 1.0f;
    mp.cycle_start = p.cycle_start;
    mp.cycle_end = p.cycle_end;
    mp.seam_blend = p.seam_blend;
    ak_walk_motion *motion = NULL;
    ak_walker *w = NULL;
    ak_error e;
    assert_int_equal(ak_walk_motion_create(r.skeleton, r.clip, &mp, &motion, &e), AK_OK);
    /* the walker's defaults (the validity case shows the plugin's are the same) with what
     * this test changed, in the library's frame: Unity yaw +20 degrees is heading -20 */
    ak_walker_params wp = ak_walker_defaults();
    wp.target = akpt_mirror_point(p.target);
    wp.start_heading = -p.start_heading_deg * 0.01745329252f;
    wp.turn_rate = p.turn_rate_deg * 0.01745329252f;
    assert_int_equal(ak_walker_create(motion, &wp, NULL, &w, &e), AK_OK);
    ak_walker_set_position(w, wp.start);
    ak_plugin_character_info info;
    assert_int_equal(ak_plugin_character_info_get(ch, &info), AK_OK);
    ak_walk_motion_info mi;
    ak_walk_motion_get_info(motion, &mi);
    assert_int_equal(info.joint_count, r.joints);
    assert_int_equal(info.cycle_start, mi.cycle_start);
    assert_int_equal(info.cycle_end, mi.cycle_end);
    AKT_NEAR(info.speed, mi.speed, 0);
    AKT_NEAR(info.stride_length, mi.stride_length, 0);
    /* a clip that loops already: no captured start or stop looked for (ABI 7) */
    assert_int_equal(info.start.use, AK_TRANSITION_NOT_SOUGHT);
    assert_int_equal(info.stop.use, AK_TRANSITION_NOT_SOUGHT);
    assert_int_equal(info.stop.first_frame, -1);
    const int32_t J = r.joints;
    ak_plugin_xform world[MAXJ];
    /* the walk's measures on the library side, as the walk summary takes them */
    ak_walk_metrics wm, src;
    const ak_humanoid *hum = ak_walk_motion_humanoid(motion);
    const int32_t upper[2] = {hum->joint[AK_HUM_LEFT_UPPER_LEG],
                              hum->joint[AK_HUM_RIGHT_UPPER_LEG]};
    const int32_t lower[2] = {hum->joint[AK_HUM_LEFT_LOWER_LEG],
                              hum->joint[AK_HUM_RIGHT_LOWER_LEG]};
    const int32_t foot[2] = {hum->joint[AK_HUM_LEFT_FOOT], hum->joint[AK_HUM_RIGHT_FOOT]};
    ak_walk_metrics_reset(&wm);
    ak_walk_metrics_set_legs(&wm, upper, lower, foot);
    assert_int_equal(ak_walk_metrics_source(motion, &src, &e), AK_OK);
    for (int frame = 0; frame < 120; ++frame) {
        const float dt = 1.0f / 60.0f;
        ak_vec3 umove, move;
        assert_int_equal(ak_plugin_character_begin(ch, dt, &umove), AK_OK);
        assert_int_equal(ak_walker_begin(w, dt, &move, &e), AK_OK);
        AKT_NEAR(umove.x, move.x, 1e-6);
        AKT_NEAR(umove.z, -move.z, 1e-6);
        ak_plugin_ray urays[AK_PLUGIN_CHARACTER_MAX_RAYS];
        ak_ground_ray rays[AK_WALKER_RAY_COUNT];
        int32_t nr = 0;
        assert_int_equal(
            ak_plugin_character_ground_rays(ch, urays, AK_PLUGIN_CHARACTER_MAX_RAYS, &nr), AK_OK);
        assert_int_equal(nr, AK_WALKER_RAY_COUNT);
        ak_walker_ground_rays(w, rays, AK_WALKER_RAY_COUNT);
        ak_ground_hit hits[AK_WALKER_RAY_COUNT];
        ak_plugin_ground_hit uhits[AK_PLUGIN_CHARACTER_MAX_RAYS];
        flat_hits(rays, hits, nr);
        for (int32_t i = 0; i < nr; ++i) {
            AKT_NEAR(urays[i].origin.z, -rays[i].origin.z, 1e-5);
            uhits[i].hit = hits[i].hit;
            uhits[i].height = hits[i].height;
            uhits[i].normal = hits[i].normal; /* (0,1,0) mirrors to itself */
        }
        assert_int_equal(ak_plugin_character_finish(ch, uhits, nr), AK_OK);
        assert_int_equal(ak_walker_finish(w, hits, nr, &e), AK_OK);
        ak_plugin_character_state us;
        ak_walker_state s;
        assert_int_equal(ak_plugin_character_state_get(ch, &us), AK_OK);
        ak_walker_get_state(w, &s);
        AKT_NEAR(us.position.x, s.position.x, 1e-5);
        AKT_NEAR(us.position.y, s.position.y, 1e-5);
        AKT_NEAR(us.position.z, -s.position.z, 1e-5);
        AKT_NEAR(us.path_length, s.path_length, 1e-5);
        AKT_NEAR(us.hip_drop, s.hip_drop, 1e-5);
        /* facing = the walker's heading, seen in Unity's frame: (sin h, 0, -cos h) */
        AKT_NEAR(us.facing.x, sinf(s.heading), 1e-5);
        AKT_NEAR(us.facing.z, -cosf(s.heading), 1e-5);
        assert_int_equal(ak_plugin_character_world_pose(ch, world, J), AK_OK);
        akpt_assert_mirrored(world, ak_walker_world_pose(w), J, 1e-5f, "world pose");
        ak_walk_metrics_add(&wm, &s, ak_walker_world_pose(w), hum->joint[AK_HUM_HIPS],
                            frame == 0 ? 0.0f : dt);
    }
    /* The summary is the walk's measures over the 120 frames beside the cycle's own, in the
     * ABI's units (g, degrees). */
    ak_plugin_walk_summary sum;
    assert_int_equal(ak_plugin_character_summary_get(ch, &sum), AK_OK);
    assert_int_equal(ak_plugin_character_summary_get(ch, NULL), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_character_summary_get(NULL, &sum), AK_PLUGIN_ERR_HANDLE);
    printf("plugin walk summary: %d frames, deepest %.5f m (planted %.5f), skate %.5f (worst "
           "%.5f) m/s, hips %.2f..%.2f g (source %.2f..%.2f), knee %.1f deg (source %.1f), drag "
           "%.4f m/s (source %.4f)\n",
           (int)sum.frames, (double)sum.deepest_any_phase, (double)sum.deepest_planted,
           (double)sum.skate, (double)sum.max_skate, (double)sum.hip_accel_min_g,
           (double)sum.hip_accel_max_g, (double)sum.source_hip_accel_min_g,
           (double)sum.source_hip_accel_max_g, (double)sum.knee_peak_deg,
           (double)sum.source_knee_peak_deg, (double)sum.drag_m_s, (double)sum.source_drag_m_s);
    /* The two walkers agree to 1e-5 m a frame (above): a speed to twice that over a frame, an
     * acceleration to four times that over a frame squared, an angle to it over a 0.3 m bone. */
    const double pos = 1e-5, dt = 1.0 / 60.0;
    assert_int_equal(sum.frames, 120);
    AKT_NEAR(sum.deepest_any_phase, wm.deepest, pos);
    AKT_NEAR(sum.deepest_planted, wm.deepest_planted, pos);
    AKT_NEAR(sum.skate, wm.skate, 2.0 * pos / dt);
    AKT_NEAR(sum.max_skate, wm.max_skate, 2.0 * pos / dt);
    AKT_NEAR(sum.hip_accel_min_g, wm.hip_accel_min_g, 4.0 * pos / (dt * dt) / 9.81);
    AKT_NEAR(sum.hip_accel_max_g, wm.hip_accel_max_g, 4.0 * pos / (dt * dt) / 9.81);
    AKT_NEAR(sum.knee_peak_deg, AKT_DEG(wm.knee_peak), 2.0 * AKT_DEG(pos / 0.3));
    AKT_NEAR(sum.source_hip_accel_min_g, src.hip_accel_min_g, 1e-6);
    AKT_NEAR(sum.source_hip_accel_max_g, src.hip_accel_max_g, 1e-6);
    AKT_NEAR(sum.source_knee_peak_deg, AKT_DEG(src.knee_peak), 1e-3);
    assert_true(sum.knee_peak_deg > 0.0f && sum.source_knee_peak_deg > 0.0f);
    /* drag: the worst point against its bound as the summary line and the physics tables take
     * it (ak_walk_metrics_drag_worst), a speed to the walkers' agreement */
    ak_walk_drag drag;
    assert_int_equal(ak_walk_metrics_drag_worst(&wm, &src, &drag), AK_OK);
    AKT_NEAR(sum.drag_m_s, drag.speed, 2.0 * pos / dt);
    AKT_NEAR(sum.source_drag_m_s, drag.bound, 1e-6);
    assert_true(sum.source_drag_m_s >= AK_WALK_DRAG_FLOOR);
    ak_plugin_character_state us;
    ak_plugin_character_state_get(ch, &us);
    /* it walked: at least half the walk clip's speed over the last 1.5 s of the 2 s */
    assert_true(us.path_length > 0.5f * info.speed * 1.5f);
    ak_walker_destroy(w);
    ak_walk_motion_destroy(motion);
    ak_plugin_destroy(ch);
    akpt_rig_free(&r);
}

/* The model pose is the world pose with the character transform taken out: the feet's model
 * positions are the world ones rotated back by the facing and moved back by the position. */
static void model_pose_is_world_pose_in_the_characters_frame(void **state)
{
    (void)state;
    akpt_rig r;
    ak_plugin_character_params p;
    walk_and_defaults(&r, &p);
    p.target = ak_vec3_make(3.0f, 0.0f, 2.0f);
    char err[256];
    ak_handle ch;
    assert_int_equal(create(&r, &p, &ch, err, sizeof err), AK_OK);
    const int32_t J = r.joints;
    for (int frame = 0; frame < 30; ++frame)
        flat_frame(ch, 1.0f / 30.0f);
    ak_plugin_xform local[MAXJ], model[MAXJ], world[MAXJ], check[MAXJ];
    ak_plugin_character_state s;
    assert_int_equal(ak_plugin_character_pose(ch, local, model, J), AK_OK);
    assert_int_equal(ak_plugin_character_world_pose(ch, world, J), AK_OK);
    assert_int_equal(ak_plugin_character_state_get(ch, &s), AK_OK);
    AKT_NEAR(s.rotation.x * s.rotation.x + s.rotation.y * s.rotation.y +
                 s.rotation.z * s.rotation.z + s.rotation.w * s.rotation.w,
             1.0f, 2e-5); /* a unit quaternion */
    for (int32_t j = 0; j < J; ++j) {
        const ak_vec3 back = ak_quat_rotate(ak_quat_conjugate(s.rotation),
                                            ak_vec3_sub(world[j].position, s.position));
        AKT_NEAR(model[j].position.x, back.x, 1e-4);
        AKT_NEAR(model[j].position.y, back.y, 1e-4);
        AKT_NEAR(model[j].position.z, back.z, 1e-4);
    }
    /* model is FK of local */
    assert_int_equal(ak_plugin_fk(r.s, local, check, J), AK_OK);
    for (int32_t j = 0; j < J; ++j)
        AKT_NEAR(ak_vec3_length(ak_vec3_sub(check[j].position, model[j].position)), 0.0f, 1e-4);
    /* bad frames and buffers */
    ak_vec3 move;
    assert_int_equal(ak_plugin_character_begin(ch, 0.0f, &move), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(ch, err, sizeof err);
    assert_string_equal(err, "dt = 0: must be in (0, 10] seconds");
    assert_int_equal(ak_plugin_character_pose(ch, local, NULL, J - 1), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_character_pose(ch, NULL, NULL, J), AK_ERR_INVALID_ARG);
    const ak_plugin_ground_hit hits[2] = {{1, 0.0f, {0.0f, 1.0f, 0.0f}},
                                          {1, 0.0f, {0.0f, 1.0f, 0.0f}}};
    assert_int_equal(ak_plugin_character_finish(ch, hits, 2), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(ch, err, sizeof err);
    assert_non_null(strstr(err, "one per ray), got 2"));
    const ak_vec3 far = {0.0f, 0.0f, -3e6f};
    assert_int_equal(ak_plugin_character_set_target(ch, &far), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_character_set_position(ch, NULL), AK_ERR_INVALID_ARG);
    /* lifetime: the character holds its skeleton and clip; a destroyed one is refused */
    assert_int_equal(ak_plugin_destroy(r.s), AK_OK);
    assert_int_equal(ak_plugin_destroy(r.c), AK_OK);
    assert_int_equal(ak_plugin_character_state_get(ch, &s), AK_OK);
    assert_int_equal(ak_plugin_destroy(ch), AK_OK);
    assert_int_equal(ak_plugin_character_state_get(ch, &s), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_destroy(ch), AK_PLUGIN_ERR_HANDLE);
    ak_skeleton_destroy(r.skeleton);
    ak_clip_destroy(r.clip);
}

/* The plugin's walk of the UE4 mannequin's shape (akpt_rig_cmu: CMU 02_01 with `root` and the
 * ik_foot and ik_hand bones, each a copy of its foot or hand in every frame) keeps those bones
 * on the walked feet and hands, as `animkit walk` does (ak_copy_bones): 3 s at 60 Hz toward a
 * target 4 m off on flat ground, every frame's world pose and model pose within 0.1 mm
 * (float rounding of metre-sized coordinates; without the copies the walker's foot IK and
 * root placement left them up to 0.154 m off), and the model pose still FK of the local one. The
 * clip holds no captured start or stop: the info says none was found. */
static void copy_bones_stay_on_the_walked_feet_and_hands(void **state)
{
    (void)state;
    akpt_rig r;
    akpt_rig_cmu(&r, AKV_GROUND_ROOT | AKV_IK_BONES);
    ak_plugin_character_params p;
    assert_int_equal(ak_plugin_character_defaults(&p), AK_OK);
    p.target = ak_vec3_make(1.0f, 0.0f, -4.0f);
    char err[256];
    ak_handle ch;
    assert_int_equal(create(&r, &p, &ch, err, sizeof err), AK_OK);
    ak_plugin_character_info info;
    assert_int_equal(ak_plugin_character_info_get(ch, &info), AK_OK);
    assert_int_equal(info.start.use, AK_TRANSITION_NONE);
    assert_int_equal(info.stop.use, AK_TRANSITION_NONE);
    assert_int_equal(info.stop.first_frame, -1);
    const int32_t J = r.joints;
    ak_plugin_xform *buf = (ak_plugin_xform *)malloc(sizeof(ak_plugin_xform) * 4 * (size_t)J);
    assert_non_null(buf);
    ak_plugin_xform *local = buf, *model = buf + J, *world = buf + 2 * J, *check = buf + 3 * J;
    double worst_world = 0.0, worst_model = 0.0, worst_fk = 0.0;
    for (int frame = 0; frame < 180; ++frame) {
        flat_frame(ch, 1.0f / 60.0f);
        assert_int_equal(ak_plugin_character_world_pose(ch, world, J), AK_OK);
        assert_int_equal(ak_plugin_character_pose(ch, local, model, J), AK_OK);
        assert_int_equal(ak_plugin_fk(r.s, local, check, J), AK_OK);
        /* the ABI's transforms are ak_xform's layout (plugin.h); distances ignore the mirror */
        worst_world = fmax(worst_world, akv_ik_bones_apart_pose(r.skeleton, (ak_xform *)world));
        worst_model = fmax(worst_model, akv_ik_bones_apart_pose(r.skeleton, (ak_xform *)model));
        for (int32_t j = 0; j < J; ++j)
            worst_fk =
                fmax(worst_fk,
                     (double)ak_vec3_length(ak_vec3_sub(check[j].position, model[j].position)));
    }
    ak_plugin_character_state s;
    assert_int_equal(ak_plugin_character_state_get(ch, &s), AK_OK);
    printf("UE4 shape walked %.2f m: ik bones at most %.2e m (world), %.2e m (model) off their "
           "feet and hands; FK of the local pose %.2e m off the model pose\n",
           (double)s.path_length, worst_world, worst_model, worst_fk);
    assert_true(s.path_length > 1.5f); /* it walked: 3 s at CMU 02_01's 1.2 m/s, less the start */
    assert_true(worst_world <= 1e-4);
    assert_true(worst_model <= 1e-4);
    assert_true(worst_fk <= 1e-4);
    free(buf);
    ak_plugin_destroy(ch);
    akpt_rig_free(&r);
}

/* A walk clip whose captured stop breaks issue 21's bounds: the character's info says it is left
 * out and why, with the figures of the library's walk motion (ak_walk_motion_info stop_check):
 * Debian assimp-testmodels' Boxing_Toes, its stop 2207:2349 (the boxer dropping toward the
 * floor) at -4.23..3.89 g against -1.25..1.50 g and 108.6 deg against 100 deg; its start
 * 2023:2045 played. Skipped, and said, without the package. */
static void character_info_says_why_a_captured_stop_is_left_out(void **state)
{
    (void)state;
    char path[1024], err[256];
    if (!akt_assimp_bvh("Boxing_Toes.bvh", path, sizeof path)) {
        skip();
        return;
    }
    ak_handle s, c, ch;
    assert_int_equal(ak_plugin_bvh_load(path, 0.0f, 0, &s, &c, err, sizeof err), AK_OK);
    ak_plugin_character_params p;
    assert_int_equal(ak_plugin_character_defaults(&p), AK_OK);
    if (ak_plugin_character_create(s, c, NULL, &p, &ch, err, sizeof err) != AK_OK)
        fail_msg("character: %s", err);
    ak_plugin_character_info info;
    assert_int_equal(ak_plugin_character_info_get(ch, &info), AK_OK);
    printf("Boxing_Toes: start use %d frames %d:%d; stop use %d (broken %d) frames %d:%d, hips "
           "%.2f..%.2f g (bounds %.2f..%.2f), knee %.1f deg (bound %.1f)\n",
           (int)info.start.use, (int)info.start.first_frame, (int)info.start.last_frame,
           (int)info.stop.use, (int)info.stop.broken, (int)info.stop.first_frame,
           (int)info.stop.last_frame, (double)info.stop.hip_accel_min_g,
           (double)info.stop.hip_accel_max_g, (double)info.stop.hip_accel_low_g,
           (double)info.stop.hip_accel_high_g, (double)info.stop.knee_peak_deg,
           (double)info.stop.knee_bound_deg);
    assert_int_equal(info.start.use, AK_TRANSITION_USED);
    assert_int_equal(info.start.broken, 0);
    assert_int_equal(info.start.first_frame, 2023);
    assert_int_equal(info.start.last_frame, 2045);
    assert_int_equal(info.stop.use, AK_TRANSITION_DROPPED);
    assert_int_equal(info.stop.broken, AK_TRANSITION_BREAKS_HIPS_FALL |
                                           AK_TRANSITION_BREAKS_HIPS_RISE |
                                           AK_TRANSITION_BREAKS_KNEE);
    assert_int_equal(info.stop.first_frame, 2207);
    assert_int_equal(info.stop.last_frame, 2349);
    AKT_NEAR(info.stop.hip_accel_min_g, -4.23, 0.01);
    AKT_NEAR(info.stop.hip_accel_max_g, 3.89, 0.01);
    AKT_NEAR(info.stop.hip_accel_low_g, -1.25, 0.01);
    AKT_NEAR(info.stop.hip_accel_high_g, 1.50, 0.01);
    AKT_NEAR(info.stop.knee_peak_deg, 108.6, 0.1);
    AKT_NEAR(info.stop.knee_bound_deg, 100.0, 0.1);
    ak_plugin_destroy(ch);
    ak_plugin_destroy(c);
    ak_plugin_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(character_params_validity),
        cmocka_unit_test(two_seconds_walk_as_the_library_walker),
        cmocka_unit_test(model_pose_is_world_pose_in_the_characters_frame),
        cmocka_unit_test(copy_bones_stay_on_the_walked_feet_and_hands),
        cmocka_unit_test(character_info_says_why_a_captured_stop_is_left_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
