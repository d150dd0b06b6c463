/* The table: every locomotion clip in the test data walks 16 m on flat ground, hills,
 * stairs and a 16-bit PGM heightmap, from standing to standing, and every frame is measured:
 * stopped within the arrival radius, every heel and toe that is down within 5 mm of the ground,
 * the holding point never sliding 1 cm/s, the hips never accelerating beyond their
 * geometry-derived limit. The clips that hold no locomotion are refused with what was
 * measured. */
#include "walk_util.h"

enum { TERRAINS = 4 };
static ak_terrain *g_terrain[TERRAINS];
static ak_terrain_params g_params[TERRAINS];

static int setup(void **state)
{
    (void)state;
    return walk_terrains_create(g_terrain, g_params);
}

static int teardown(void **state)
{
    (void)state;
    return walk_terrains_destroy(g_terrain);
}

/* One clip across the four grounds. The hip acceleration limit is the clip's own largest (the
 * same walk, start and stop on flat ground without foot IK) plus what the walker's two
 * critically damped springs may add following a step: the floor (omega = 1/ground_smoothing)
 * follows the height change h per step, omega^2 h; the hip drop (omega = hip_drop_stiffness)
 * follows the lower foot, which moves by h and by e, how far the capture's own planted heels
 * and toes are off a flat floor (the foot IK puts them on it), omega^2 (h + e). Asserted for
 * every walk. */
static void walk_clip(const char *name)
{
    walk_source src;
    source_open(&src, name, -1, -1);
    ak_walk_motion_info info;
    ak_walk_motion_get_info(src.motion, &info);
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(-8.0f, 0.0f, 0.0f);
    wp.target = ak_vec3_make(8.0f, 0.0f, 0.0f);
    wp.foot_ik = 0;
    ak_ground flat = ak_terrain_ground(g_terrain[0]);
    const walk_result ref = walk_run(&src, &flat, wp, 40.0f);
    /* How far the capture's own planted heels and toes are off a flat floor: the foot IK moves
     * them that far, and the hip drop follows the lower foot. */
    const float e = fmaxf(ref.m.max_penetration, ref.m.max_float);
    wp.foot_ik = 1;
    const float wf = 1.0f / wp.ground_smoothing, wh = wp.foot.hip_drop_stiffness;
    for (int t = 0; t < TERRAINS; ++t) {
        ak_ground g = ak_terrain_ground(g_terrain[t]);
        const walk_result r = walk_run(&src, &g, wp, 40.0f);
        const float h =
            t == 0 ? 0.0f : step_rise(g_terrain[t], &g_params[t], 0.5f * info.stride_length);
        const float limit = ref.m.max_hip_accel + wf * wf * h + wh * wh * (h + e);
        char label[128];
        snprintf(label, sizeof label, "%s %s (%.2f m/s)", name, walk_terrain_name(t),
                 (double)info.speed);
        print_result(label, &r);
        printf(
            "  hip acceleration %.1f m/s^2, limit %.1f (clip %.1f + step %.3f m + feet %.3f m)%s\n",
            (double)r.m.max_hip_accel, (double)limit, (double)ref.m.max_hip_accel, (double)h,
            (double)e, r.m.max_hip_accel <= limit ? "" : "  OVER");
        printf("  start %d frames: heel %.1f/%.1f toe %.1f/%.1f mm; stop %d frames: heel "
               "%.1f/%.1f toe %.1f/%.1f mm (below/above); captured start %s, stop %s\n",
               r.start_frames, 1e3 * (double)r.start_m.max_heel_penetration,
               1e3 * (double)r.start_m.max_heel_float, 1e3 * (double)r.start_m.max_toe_penetration,
               1e3 * (double)r.start_m.max_toe_float, r.stop_frames,
               1e3 * (double)r.stop_m.max_heel_penetration, 1e3 * (double)r.stop_m.max_heel_float,
               1e3 * (double)r.stop_m.max_toe_penetration, 1e3 * (double)r.stop_m.max_toe_float,
               info.start_frames[0] >= 0 ? "yes" : "none",
               info.stop_frames[0] >= 0 ? "yes" : "none");
        assert_walk_goals(&r, wp.arrival_radius);
        /* The start and the stop are measured (every frame above, and apart here). */
        assert_true(r.start_frames > 0 && r.start_m.stance_samples > 0);
        assert_true(r.stop_frames > 0 && r.stop_m.stance_samples > 0);
        assert_true(r.m.max_hip_accel <= limit);
    }
    source_close(&src);
}

static void every_locomotion_clip_walks_on_every_ground(void **state)
{
    (void)state;
    for (size_t i = 0; i < AKT_LOCOMOTION_CLIPS; ++i)
        walk_clip(akt_locomotion_clips[i]);
}

/* Knee flexion of the stance leg at each mid-stance (the hip passing over the planted ankle
 * along the heading) while walking at full rate. Geometry lets the gait keep its own knees
 * there (17.5 degrees, test_walkclip) when the other foot, both where it left the ground and
 * where it lands next, is within reach of its leg with the hips at the gait's double-support
 * height over the stance foot: those mid-stances are held to 25 degrees. Where it is not (a
 * foothold a riser or a steep slope away), the hips must come below the gait around that
 * double support and the stance knee bends for it: counted and printed. Decided from the
 * positions (hips, ankles, bone lengths), not from what the walker chose. */
typedef struct knee_figures {
    float worst, sum, worst_free, worst_held;
    int count, held;
} knee_figures;

static float dist3(ak_vec3 a, ak_vec3 b)
{
    return sqrtf((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

/* Whether leg o's ankle is within its length of its hip put `height` above the stance ankle. */
static int within_reach(const ak_xform *world, const int32_t leg[3], ak_vec3 ankle,
                        ak_vec3 stance_ankle, float height)
{
    const ak_vec3 hip = world[leg[0]].translation, knee = world[leg[1]].translation;
    const float L = dist3(hip, knee) + dist3(knee, world[leg[2]].translation);
    const ak_vec3 h = ak_vec3_make(hip.x, stance_ankle.y + height, hip.z);
    return dist3(h, ankle) <= L;
}

typedef struct knee_walk {
    knee_figures k;
    float prev_rel[2], flex[2];
    int was_stance[2], pending[2], off_ok[2];
    ak_vec3 ankle_prev[2];
} knee_walk;

/* One frame: leg o leaving or landing is checked for reach, a pending mid-stance of the other
 * leg is settled on landing, and leg i's mid-stance is taken. */
static void knee_frame(knee_walk *kw, const ak_walker_state *s, const ak_xform *world,
                       const int32_t legs[2][3], float height)
{
    for (int i = 0; i < 2; ++i) {
        const int o = 1 - i;
        const ak_vec3 hip = world[legs[i][0]].translation, ankle = world[legs[i][2]].translation;
        const ak_vec3 other = world[legs[o][2]].translation;
        if (kw->was_stance[o] && !s->stance[o] && s->stance[i])
            kw->off_ok[o] = within_reach(world, legs[o], kw->ankle_prev[o], ankle, height);
        if (!kw->was_stance[o] && s->stance[o] && kw->pending[i]) {
            const int free = kw->off_ok[o] && within_reach(world, legs[o], other, ankle, height);
            knee_figures *k = &kw->k;
            const float flex = kw->flex[i];
            k->worst = fmaxf(k->worst, flex);
            k->sum += flex;
            ++k->count;
            if (free)
                k->worst_free = fmaxf(k->worst_free, flex);
            else {
                k->worst_held = fmaxf(k->worst_held, flex);
                ++k->held;
            }
            kw->pending[i] = 0;
        }
        const float rel =
            (hip.x - ankle.x) * sinf(s->heading) + (hip.z - ankle.z) * cosf(s->heading);
        if (s->stance[i] && kw->was_stance[i] && kw->prev_rel[i] < 0.0f && rel >= 0.0f &&
            s->rate >= 1.0f && !s->arrived) {
            kw->pending[i] = 1;
            kw->flex[i] = knee_flexion_deg(world, legs[i][0], legs[i][1], legs[i][2]);
        }
        kw->prev_rel[i] = rel;
    }
    for (int i = 0; i < 2; ++i) {
        kw->was_stance[i] = s->stance[i];
        kw->ankle_prev[i] = world[legs[i][2]].translation;
    }
}

static knee_figures knees_at_mid_stance(const walk_source *src, const ak_ground *ground,
                                        ak_walker_params wp)
{
    knee_walk kw;
    memset(&kw, 0, sizeof kw);
    /* The gait's hips at double support, above the ankle (which stands 0.08 m up, test_walkclip).
     */
    const float height = ak_walk_clip_defaults().hip_height - 0.08f;
    ak_walker *w = NULL;
    assert_int_equal(ak_walker_create(src->motion, &wp, ground, &w, NULL), AK_OK);
    const ak_humanoid *h = ak_walk_motion_humanoid(src->motion);
    const int32_t legs[2][3] = {{h->joint[AK_HUM_LEFT_UPPER_LEG], h->joint[AK_HUM_LEFT_LOWER_LEG],
                                 h->joint[AK_HUM_LEFT_FOOT]},
                                {h->joint[AK_HUM_RIGHT_UPPER_LEG], h->joint[AK_HUM_RIGHT_LOWER_LEG],
                                 h->joint[AK_HUM_RIGHT_FOOT]}};
    const float dt = ak_walk_motion_clip(src->motion)->frame_time;
    for (int f = 0; f * dt < 40.0f; ++f) {
        assert_int_equal(ak_walker_step(w, f == 0 ? 0.0f : dt, ground, NULL), AK_OK);
        ak_walker_state s;
        ak_walker_get_state(w, &s);
        knee_frame(&kw, &s, ak_walker_world_pose(w), legs, height);
        if (s.stopped) break;
    }
    ak_walker_destroy(w);
    return kw.k;
}

/* The built-in gait's knees at mid-stance on the four grounds: within 25 degrees wherever
 * geometry lets the hips keep the gait's heights (above); printed where it does not. */
static void builtin_knees_at_mid_stance_on_every_ground(void **state)
{
    (void)state;
    walk_source src;
    source_open(&src, NULL, 0, 0);
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(-8.0f, 0.0f, 0.0f);
    wp.target = ak_vec3_make(8.0f, 0.0f, 0.0f);
    for (int t = 0; t < TERRAINS; ++t) {
        const ak_ground g = ak_terrain_ground(g_terrain[t]);
        const knee_figures k = knees_at_mid_stance(&src, &g, wp);
        printf("built-in %-9s mid-stance knee over %d: worst %.1f deg, mean %.1f; where the gait's "
               "hips reach the other foot %.1f (%d), where they must come lower %.1f (%d)\n",
               walk_terrain_name(t), k.count, (double)k.worst,
               (double)(k.sum / (float)(k.count ? k.count : 1)), (double)k.worst_free,
               k.count - k.held, (double)k.worst_held, k.held);
        assert_true(k.count >= 20);
        if (t == 0) assert_int_equal(k.held, 0);
        assert_true(k.worst_free <= 25.0f);
    }
    source_close(&src);
}

/* What holds no locomotion is refused with what was measured; nothing is made. */
static void clips_without_locomotion_are_refused_with_the_measure(void **state)
{
    (void)state;
    static const char *const clips[] = {"cmu_05_06_dance.bvh", "reactidle_003_genuine_idle.bvh",
                                        "arena_louise_stand_walk_cycle.bvh"};
    for (size_t i = 0; i < sizeof clips / sizeof clips[0]; ++i) {
        char path[1024];
        akt_mocap_path(clips[i], path, sizeof path);
        ak_skeleton *sk;
        ak_clip *c;
        ak_error err;
        assert_int_equal(ak_bvh_read_file(path, NULL, &sk, &c, &err), AK_OK);
        ak_walk_motion_params mp = ak_walk_motion_defaults();
        ak_walk_motion *m = (ak_walk_motion *)&mp; /* must come back NULL */
        assert_int_equal(ak_walk_motion_create(sk, c, &mp, &m, &err), AK_ERR_NOT_FOUND);
        assert_null(m);
        printf("%s: %s\n", clips[i], err.message);
        assert_non_null(strstr(err.message, "the root moves"));
        assert_non_null(strstr(err.message, "no walking found; give --cycle A:B"));
        ak_clip_destroy(c);
        ak_skeleton_destroy(sk);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_locomotion_clip_walks_on_every_ground),
        cmocka_unit_test(builtin_knees_at_mid_stance_on_every_ground),
        cmocka_unit_test(clips_without_locomotion_are_refused_with_the_measure),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
