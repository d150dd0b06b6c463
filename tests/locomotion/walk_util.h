/* Shared by the locomotion tests: build a walk motion (built-in or mocap), run a walk, measure. */
#ifndef AK_TEST_WALK_UTIL_H
#define AK_TEST_WALK_UTIL_H

#include "test_util.h"

/* Every locomotion capture of the test data: walks, the veer, runs, the four new captures. */
static const char *const akt_locomotion_clips[] = {"cmu_02_01_walk.bvh",
                                                   "cmu_07_01_walk.bvh",
                                                   "cmu_16_11_walk_veer_left.bvh",
                                                   "cmu_09_01_run.bvh",
                                                   "locomotion/cmu_02_02_walk.bvh",
                                                   "locomotion/cmu_02_03_run.bvh",
                                                   "locomotion/cmu_07_04_slow_walk.bvh",
                                                   "locomotion/cmu_09_02_run.bvh"};
#define AKT_LOCOMOTION_CLIPS (sizeof akt_locomotion_clips / sizeof akt_locomotion_clips[0])

typedef struct walk_source {
    ak_skeleton *skeleton;
    ak_clip *clip;
    ak_walk_motion *motion;
    uint8_t *stance;
    int measure_legs; /* walk_run measures the knees and ankles too (ak_walk_metrics_set_legs):
                         knee_peak, and the ankle in `deepest` */
} walk_source;

/* Built-in clip, or mocap `name` with cycle [a,b) (both -1: found automatically). */
static inline void source_open(walk_source *s, const char *name, int a, int b)
{
    memset(s, 0, sizeof *s);
    ak_error err;
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    if (!name) {
        ak_walk_clip_params wp = ak_walk_clip_defaults();
        assert_int_equal(ak_walk_clip_create(&wp, &s->skeleton, &s->clip, &err), AK_OK);
        mp.metres_per_unit = 1.0f;
        mp.cycle_start = mp.cycle_end = 0;
        s->stance = (uint8_t *)malloc((size_t)s->clip->frame_count * 2);
        assert_int_equal(
            ak_walk_clip_contacts(&wp, s->clip, s->stance, s->stance + s->clip->frame_count, &err),
            AK_OK);
        mp.stance_left = s->stance;
        mp.stance_right = s->stance + s->clip->frame_count;
    } else {
        char path[1024];
        akt_mocap_path(name, path, sizeof path);
        if (ak_bvh_read_file(path, NULL, &s->skeleton, &s->clip, &err) != AK_OK)
            fail_msg("%s: %s", path, err.message);
        mp.cycle_start = a;
        mp.cycle_end = b;
    }
    if (ak_walk_motion_create(s->skeleton, s->clip, &mp, &s->motion, &err) != AK_OK)
        fail_msg("motion: %s", err.message);
}

static inline void source_close(walk_source *s)
{
    ak_walk_motion_destroy(s->motion);
    ak_clip_destroy(s->clip);
    ak_skeleton_destroy(s->skeleton);
    free(s->stance);
}

typedef struct walk_result {
    ak_walk_metrics m;
    ak_walker_state last;
    float max_hip_drop;
    int frames;
    /* The same measures over the start (from the first frame until the loop plays at full
     * rate with no idle or settle pose blended in) and over the stop (from the frame the
     * walker commits to stopping, `arrived`, to the end). */
    ak_walk_metrics start_m, stop_m;
    int start_frames, stop_frames;
} walk_result;

/* Adds this frame to the start's or the stop's measures (walk_result). */
static inline void walk_phase_add(walk_result *r, const ak_walker *w, int32_t hips, float dt,
                                  int *started)
{
    const int32_t play = ak_walker_playing(w, NULL);
    if (!*started && r->last.rate >= 1.0f && !(r->last.idle_weight > 0.0f) &&
        play == AK_WALKER_PLAY_LOOP)
        *started = 1;
    if (!*started) {
        ak_walk_metrics_add(&r->start_m, &r->last, ak_walker_world_pose(w), hips, dt);
        ++r->start_frames;
    }
    if (r->last.arrived) {
        ak_walk_metrics_add(&r->stop_m, &r->last, ak_walker_world_pose(w), hips, dt);
        ++r->stop_frames;
    }
}

/* Walks from start to target on `ground` until it has stopped (or max_time); every frame is
 * measured: the start from standing, the walk, the turns and the stop. */
static inline walk_result walk_run(const walk_source *s, const ak_ground *ground,
                                   ak_walker_params wp, float max_time)
{
    walk_result r;
    memset(&r, 0, sizeof r);
    ak_walker *w = NULL;
    ak_error err;
    if (ak_walker_create(s->motion, &wp, ground, &w, &err) != AK_OK)
        fail_msg("walker: %s", err.message);
    const float dt = ak_walk_motion_clip(s->motion)->frame_time;
    const int32_t hips = ak_walk_motion_humanoid(s->motion)->joint[AK_HUM_HIPS];
    ak_walk_metrics_reset(&r.m);
    if (s->measure_legs) {
        const ak_humanoid *h = ak_walk_motion_humanoid(s->motion);
        const int32_t upper[2] = {h->joint[AK_HUM_LEFT_UPPER_LEG],
                                  h->joint[AK_HUM_RIGHT_UPPER_LEG]};
        const int32_t lower[2] = {h->joint[AK_HUM_LEFT_LOWER_LEG],
                                  h->joint[AK_HUM_RIGHT_LOWER_LEG]};
        const int32_t foot[2] = {h->joint[AK_HUM_LEFT_FOOT], h->joint[AK_HUM_RIGHT_FOOT]};
        ak_walk_metrics_set_legs(&r.m, upper, lower, foot);
    }
    int started = 0;
    for (int f = 0; f * dt < max_time; ++f) {
        assert_int_equal(ak_walker_step(w, f == 0 ? 0.0f : dt, ground, &err), AK_OK);
        ak_walker_get_state(w, &r.last);
        ak_walk_metrics_add(&r.m, &r.last, ak_walker_world_pose(w), hips, f == 0 ? 0.0f : dt);
        walk_phase_add(&r, w, hips, f == 0 ? 0.0f : dt, &started);
        if (r.last.hip_drop > r.max_hip_drop) r.max_hip_drop = r.last.hip_drop;
        ++r.frames;
        if (r.last.stopped) break;
    }
    ak_walker_destroy(w);
    return r;
}

static inline void print_result(const char *label, const walk_result *r)
{
    printf("%-34s stopped %d t %.2f s dist %.3f heel %.1f/%.1f toe %.1f/%.1f mm skate %.2f (max "
           "%.2f; held max %.2f) mm/s tilt %.2f foot_step %.4f hip_step %.4f hip_acc %.0f "
           "hip_drop %.3f\n",
           label, (int)r->last.stopped, (double)r->last.time, (double)r->last.distance,
           1e3 * (double)r->m.max_heel_penetration, 1e3 * (double)r->m.max_heel_float,
           1e3 * (double)r->m.max_toe_penetration, 1e3 * (double)r->m.max_toe_float,
           1e3 * (double)r->m.skate, 1e3 * (double)r->m.max_skate,
           1e3 * (double)r->m.max_held_skate, AKT_DEG(r->m.max_tilt), (double)r->m.max_foot_step,
           (double)r->m.max_hip_step, (double)r->m.max_hip_accel, (double)r->max_hip_drop);
}

/* The goals of every walk: stopped within the arrival radius, every heel and toe that is down
 * within 5 mm of the ground (above or below) in every frame, the point the grounding holds a
 * planted foot by never sliding 1 cm/s (held_skate), and the heels and toes the source has down
 * on the ground, held or not, under 1 cm/s on average (skate; its worst pair is bounded by the
 * source's own in the physics tables, walk_physics.h). */
static inline void assert_walk_goals(const walk_result *r, float arrival_radius)
{
    assert_true(r->last.arrived && r->last.stopped);
    assert_true(r->last.distance <= arrival_radius);
    assert_true(r->m.max_heel_penetration <= 0.005f && r->m.max_heel_float <= 0.005f);
    assert_true(r->m.max_toe_penetration <= 0.005f && r->m.max_toe_float <= 0.005f);
    assert_true(r->m.max_held_skate < 0.01f);
    assert_true(r->m.skate < 0.01f);
    assert_true(r->m.stance_samples > 100);
}

/* Knee flexion in degrees: the angle between the thigh (hip -> knee) and the shin (knee ->
 * ankle) in a world pose; 0 is a straight leg. */
static inline float knee_flexion_deg(const ak_xform *world, int32_t hip, int32_t knee,
                                     int32_t ankle)
{
    const ak_vec3 h = world[hip].translation, k = world[knee].translation,
                  a = world[ankle].translation;
    const ak_vec3 u = ak_vec3_make(k.x - h.x, k.y - h.y, k.z - h.z);
    const ak_vec3 v = ak_vec3_make(a.x - k.x, a.y - k.y, a.z - k.z);
    double c = ((double)u.x * v.x + (double)u.y * v.y + (double)u.z * v.z) /
               sqrt(((double)u.x * u.x + (double)u.y * u.y + (double)u.z * u.z) *
                    ((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z));
    c = c > 1.0 ? 1.0 : (c < -1.0 ? -1.0 : c);
    return (float)(acos(c) * 180.0 / 3.14159265358979);
}

/* The interior-angle complement the law of cosines gives a leg of bones l1, l2 whose hip and
 * ankle are d apart: 180 - acos((l1^2 + l2^2 - d^2) / (2 l1 l2)) degrees. */
static inline float knee_flexion_for_distance(float l1, float l2, float d)
{
    double c = ((double)l1 * l1 + (double)l2 * l2 - (double)d * d) / (2.0 * l1 * l2);
    c = c > 1.0 ? 1.0 : (c < -1.0 ? -1.0 : c);
    return (float)(180.0 - acos(c) * 180.0 / 3.14159265358979);
}

/* The most terrain of height change h per step may add to one frame's move (dt): the floor
 * follows footholds through a critically damped spring (omega = 1/ground_smoothing), whose
 * response to a step h peaks at h*omega/e m/s; the hip drop changes at most hip_drop_rate; a
 * swinging foot's ground offset at most swing_height_rate. */
static inline float terrain_step(const ak_walker_params *wp, float h, float dt, int foot)
{
    const float omega = 1.0f / wp->ground_smoothing;
    float v = h * omega / 2.7182818f + wp->foot.hip_drop_rate;
    if (foot) v += wp->foot.swing_height_rate;
    return v * dt;
}

/* The largest ground height change over one step of length `step` on a terrain: the risers a
 * step spans on stairs, the steepest slope over a step elsewhere. */
static inline float step_rise(const ak_terrain *t, const ak_terrain_params *p, float step)
{
    if (p->kind == AK_TERRAIN_STAIRS) return p->step_height * ceilf(step / p->step_depth);
    return tanf(ak_terrain_max_slope(t)) * step;
}

/* The four grounds of the walk tables, in the order walk_terrains_create makes them. */
static inline const char *walk_terrain_name(int t)
{
    static const char *const names[4] = {"flat", "hills", "stairs", "heightmap"};
    return names[t];
}

static inline int walk_terrains_destroy(ak_terrain *terrain[4])
{
    for (int t = 0; t < 4; ++t)
        ak_terrain_destroy(terrain[t]);
    return 0;
}

/* A w x w 16-bit binary PGM of height(x, z) in 0..1 (clamped), sampled over [-half, half]^2:
 * the one writer of the tests' generated heightmaps. */
static inline char *walk_pgm_of(int w, double half, double (*height)(double x, double z),
                                size_t *bytes)
{
    char header[32];
    const int hl = snprintf(header, sizeof header, "P5\n%d %d\n65535\n", w, w);
    *bytes = (size_t)hl + (size_t)w * (size_t)w * 2;
    char *data = malloc(*bytes);
    if (!data) return NULL;
    memcpy(data, header, (size_t)hl);
    unsigned char *px = (unsigned char *)data + hl;
    for (int r = 0; r < w; ++r)
        for (int c = 0; c < w; ++c) {
            const double x = -half + 2.0 * half * c / (w - 1), z = -half + 2.0 * half * r / (w - 1);
            double h = height(x, z);
            h = h < 0.0 ? 0.0 : (h > 1.0 ? 1.0 : h);
            const unsigned v = (unsigned)lround(h * 65535.0);
            px[2 * (r * w + c)] = (unsigned char)(v >> 8);
            px[2 * (r * w + c) + 1] = (unsigned char)(v & 255u);
        }
    return data;
}

/* Smooth hills: two sine products. */
static inline double walk_hills_height(double x, double z)
{
    return 0.5 + 0.25 * sin(0.45 * x + 0.3) * cos(0.38 * z - 0.2) + 0.15 * sin(0.9 * x + 0.34 * z);
}

/* A 161 x 161 16-bit binary PGM of smooth hills, 40 m wide, 2 m high. */
static inline char *walk_make_pgm(size_t *bytes)
{
    return walk_pgm_of(161, 20.0, walk_hills_height, bytes);
}

/* The four grounds of the walk tables: flat, seeded hills (seed 5), stairs and the PGM
 * heightmap above (40 m, 2 m high). Returns 0 on success (a cmocka setup's answer). */
static inline int walk_terrains_create(ak_terrain *terrain[4], ak_terrain_params params[4])
{
    for (int t = 0; t < 3; ++t) {
        params[t] = ak_terrain_defaults();
        params[t].kind = t == 0 ? AK_TERRAIN_FLAT : (t == 1 ? AK_TERRAIN_HILLS : AK_TERRAIN_STAIRS);
        params[t].seed = 5;
        if (ak_terrain_create(&params[t], &terrain[t], NULL) != AK_OK) return -1;
    }
    size_t bytes;
    char *pgm = walk_make_pgm(&bytes);
    const int32_t st = ak_terrain_read_pgm_memory(pgm, bytes, 40.0f, 2.0f, &terrain[3], NULL);
    free(pgm);
    params[3] = ak_terrain_defaults();
    params[3].kind = AK_TERRAIN_HEIGHTMAP;
    return st == AK_OK ? 0 : -1;
}

/* Seconds of standing the recording holds before the walker moves and after it stopped. */
#define PAD_TIME 0.4f

static inline void record_frame(ak_clip *c, int32_t f, const ak_xform *local)
{
    for (int32_t j = 0; j < c->joint_count; ++j) {
        c->rotations[(size_t)f * c->joint_count + j] = local[j].rotation;
        if (c->joint_track[j] >= 0)
            c->translations[(size_t)f * c->track_count + c->joint_track[j]] = local[j].translation;
    }
}

/* A start-walk-stop capture made by a walker on `src` on `flat` ground over `length` metres:
 * PAD_TIME of its standing pose, every frame it walks, PAD_TIME standing after it stopped
 * (metres, the walk motion's skeleton, its translation tracks). */
static inline ak_clip *record_start_walk_stop(const walk_source *src, const ak_ground *flat,
                                              float length)
{
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(0.0f, 0.0f, 0.0f);
    wp.target = ak_vec3_make(0.0f, 0.0f, length);
    ak_walker *w = NULL;
    ak_error err;
    assert_int_equal(ak_walker_create(src->motion, &wp, flat, &w, &err), AK_OK);
    const ak_clip *cycle = ak_walk_motion_clip(src->motion);
    const float dt = cycle->frame_time;
    const int32_t pad = (int32_t)lroundf(PAD_TIME / dt), cap = (int32_t)(40.0f / dt);
    uint8_t *has = calloc((size_t)cycle->joint_count, 1);
    for (int32_t j = 0; j < cycle->joint_count; ++j)
        has[j] = cycle->joint_track[j] >= 0;
    ak_clip *c = NULL;
    assert_int_equal(ak_clip_create(cycle->joint_count, cap, dt, has, &c, &err), AK_OK);
    free(has);
    int32_t n = 0, after = -1;
    ak_walker_state s;
    assert_int_equal(ak_walker_step(w, 0.0f, flat, &err), AK_OK);
    for (; n < pad; ++n)
        record_frame(c, n, ak_walker_local_pose(w));
    while (n < cap && after < pad) {
        assert_int_equal(ak_walker_step(w, dt, flat, &err), AK_OK);
        record_frame(c, n++, ak_walker_local_pose(w));
        ak_walker_get_state(w, &s);
        if (s.stopped || after >= 0) ++after;
    }
    assert_true(after >= pad);
    ak_walker_destroy(w);
    c->frame_count = n; /* the keys past n are never read */
    ak_clip_finalize(c);
    return c;
}

/* A walk source read from a start-walk-stop recording of `orig` (8 m on `flat`), metres, its
 * captured start and stop kept or not. */
static inline void source_open_recorded(walk_source *s, const walk_source *orig,
                                        const ak_ground *flat, int use_captured)
{
    memset(s, 0, sizeof *s);
    ak_error err;
    assert_int_equal(ak_skeleton_clone(ak_walk_motion_skeleton(orig->motion), &s->skeleton, &err),
                     AK_OK);
    s->clip = record_start_walk_stop(orig, flat, 8.0f);
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    mp.metres_per_unit = 1.0f;
    mp.use_captured_transitions = use_captured;
    if (ak_walk_motion_create(s->skeleton, s->clip, &mp, &s->motion, &err) != AK_OK)
        fail_msg("recorded motion: %s", err.message);
}

#endif
