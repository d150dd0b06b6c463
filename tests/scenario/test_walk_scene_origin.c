/* Issue 26: a walk of 100,000 s reported time_s 96,544.8 and a planted foot skated 0.143 m/s
 * 1.7e5 m from the origin (float world coordinates step by 1.6 cm there). The walk scene (the
 * CLI, viewer, web page and Python) now moves its walker's origin by itself; tested without a
 * day of frames: the clock starts at 99,990 s and the walk starts 170,000 m out on a flat
 * heightmap 1,000 km wide. The measures are fed as the CLI feeds them (cmd_walk.c). */
#include "test_util.h"

#include "animkit/scenario.h"
#include "animkit/walkmetrics.h"
#include "locomotion/internal.h" /* ak_walker_set_clock: a late clock without the frames */

#define FAR_X 170000.0f
#define CLOCK 99990.0

typedef struct far_run {
    ak_walk_metrics metrics;
    double elapsed, origin[2], world_x, csv_x;
    int32_t frames, shifts;
    float frame_time;
    int arrived;
} far_run;

static const char *flat_pgm(void)
{
    static const char path[] = "walk_scene_far_flat.pgm";
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    const unsigned char px[4] = {0, 0, 0, 0};
    fprintf(f, "P5\n2 2\n255\n");
    assert_int_equal(fwrite(px, 1, 4, f), 4);
    fclose(f);
    return path;
}

/* Walks 20 m along +z from (x, 0) on the flat map, the clock starting at CLOCK. */
static void walk_from(float x, far_run *r)
{
    memset(r, 0, sizeof *r);
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    snprintf(s.heightmap, sizeof s.heightmap, "%s", flat_pgm());
    s.size = 1e6f;
    s.start[0] = s.target[0] = x;
    s.start[1] = 0.0f;
    s.target[1] = 20.0f;
    s.max_time = 40.0f;
    ak_walk_scene *scene = NULL;
    ak_error e;
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_OK);
    ak_walker_set_clock(ak_walk_scene_walker(scene), CLOCK);
    ak_walk_scene_info info;
    ak_walk_scene_get_info(scene, &info);
    r->frame_time = info.frame_time;
    ak_walk_metrics_reset(&r->metrics);
    double origin[2] = {0.0, 0.0};
    ak_walker_state st;
    for (int32_t f = 0;; ++f) {
        double now[2];
        ak_walk_scene_origin(scene, now);
        if (now[0] != origin[0] || now[1] != origin[1]) {
            ak_walk_metrics_shift_origin(&r->metrics, (float)(now[0] - origin[0]),
                                         (float)(now[1] - origin[1]));
            origin[0] = now[0];
            origin[1] = now[1];
            ++r->shifts;
        }
        ak_walk_scene_get_origin_state(scene, &st);
        ak_walk_metrics_add(&r->metrics, &st, ak_walk_scene_origin_pose(scene), info.hips,
                            f == 0 ? 0.0f : info.frame_time);
        r->frames = f + 1;
        if (st.stopped || r->frames >= info.max_frames) break;
        assert_int_equal(ak_walk_scene_step(scene, &e), AK_OK);
    }
    r->elapsed = st.elapsed;
    r->arrived = st.arrived;
    r->origin[0] = origin[0];
    r->origin[1] = origin[1];
    r->csv_x = origin[0] + (double)st.position.x;
    ak_walker_state world;
    ak_walk_scene_get_state(scene, &world);
    r->world_x = world.position.x;
    ak_walk_scene_destroy(scene);
}

static void a_far_late_walk_keeps_its_clock_and_its_feet(void **state)
{
    (void)state;
    far_run home, far;
    walk_from(0.0f, &home);
    walk_from(FAR_X, &far);
    print_message("home: %d frames, skate %.4f mm/s (worst %.3f), origin moved %d times\n",
                  (int)home.frames, 1e3 * home.metrics.skate, 1e3 * home.metrics.max_skate,
                  (int)home.shifts);
    print_message("170 km out: %d frames, skate %.4f mm/s (worst %.3f), origin moved %d times "
                  "to x = %.0f, clock %.6f s\n",
                  (int)far.frames, 1e3 * far.metrics.skate, 1e3 * far.metrics.max_skate,
                  (int)far.shifts, far.origin[0], far.elapsed);
    assert_true(home.arrived && far.arrived);
    /* Near home the origin never moves: nothing changes for walks within 256 m. */
    assert_int_equal(home.shifts, 0);
    /* Far out it moved once (the first step: 170,000 m is past 256 m), by whole metres. */
    assert_int_equal(far.shifts, 1);
    assert_true(far.origin[0] == (double)FAR_X && far.origin[1] == 0.0);
    /* The world accessors add it back; the CLI's double sum keeps the centimetres. */
    AKT_NEAR(far.world_x, FAR_X, 0.05);
    AKT_NEAR(far.csv_x, FAR_X, 0.05);
    /* The clock: frames - 1 steps of the frame time from 99,990 s, to the microsecond. */
    const double want = CLOCK + (double)(far.frames - 1) * (double)far.frame_time;
    AKT_NEAR(far.elapsed, want, 1e-6);
    /* The walk far out is the walk at home: same frames, and planted feet under 1 mm/s
     * (unshifted, at 170 km, the walker-level test measures 809.7 mm/s). */
    assert_int_equal(far.frames, home.frames);
    assert_true(far.metrics.skate < 1e-3f);
    assert_true(fabsf(far.metrics.skate - home.metrics.skate) < 1e-4f);
    assert_true(fabsf(far.metrics.max_skate - home.metrics.max_skate) < 1e-3f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_far_late_walk_keeps_its_clock_and_its_feet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
