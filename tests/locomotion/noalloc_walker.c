/* No allocation per frame: malloc/calloc/realloc are wrapped at link time (-Wl,--wrap) and
 * counted while walkers step — built-in, mocap and a clip with a captured start and stop, with
 * and without foot IK, through arrival, idle and a new target, and through the engine's
 * two-phase calls. */
#include "walk_util.h"

static long g_allocs;
static int g_counting;
void *__real_malloc(size_t n);
void *__real_calloc(size_t a, size_t b);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n)
{
    if (g_counting) ++g_allocs;
    return __real_malloc(n);
}
void *__wrap_calloc(size_t a, size_t b)
{
    if (g_counting) ++g_allocs;
    return __real_calloc(a, b);
}
void *__wrap_realloc(void *p, size_t n)
{
    if (g_counting) ++g_allocs;
    return __real_realloc(p, n);
}

static void run_frames(const walk_source *src, const ak_ground *g, int foot_ik)
{
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(-3, 0, -2);
    wp.target = ak_vec3_make(-1, 0, 0);
    wp.foot_ik = foot_ik;
    ak_walker *w = NULL;
    g_allocs = 0;
    g_counting = 1;
    assert_int_equal(ak_walker_create(src->motion, &wp, g, &w, NULL), AK_OK);
    g_counting = 0;
    assert_true(g_allocs > 0); /* the wrap sees the library's allocations: create does allocate */
    const float dt = ak_walk_motion_clip(src->motion)->frame_time;
    g_allocs = 0;
    g_counting = 1;
    ak_walker_state s;
    int new_targets = 0;
    for (int f = 0; f < 1500; ++f) {
        if (f % 2 == 0) {
            assert_int_equal(ak_walker_step(w, dt, g, NULL), AK_OK);
        } else {
            ak_vec3 move;
            ak_ground_ray rays[AK_WALKER_RAY_COUNT];
            ak_ground_hit hits[AK_WALKER_RAY_COUNT];
            assert_int_equal(ak_walker_begin(w, dt, &move, NULL), AK_OK);
            ak_walker_ground_rays(w, rays, AK_WALKER_RAY_COUNT);
            for (int i = 0; i < AK_WALKER_RAY_COUNT; ++i)
                ak_ground_cast(g, &rays[i], &hits[i]);
            assert_int_equal(ak_walker_finish(w, hits, AK_WALKER_RAY_COUNT, NULL), AK_OK);
        }
        ak_walker_get_state(w, &s);
        if (s.stopped) {
            ak_walker_set_target(w, ak_vec3_make(new_targets % 2 ? -3.0f : 2.0f, 0, 1.0f));
            ++new_targets;
        }
    }
    g_counting = 0;
    ak_walker_destroy(w);
    printf("1500 frames (foot IK %d), %d new targets: %ld allocations\n", foot_ik, new_targets,
           g_allocs);
    assert_true(new_targets >= 1);
    assert_int_equal(g_allocs, 0);
}

static void walker_frames_never_allocate(void **state)
{
    (void)state;
    ak_terrain_params p = ak_terrain_defaults();
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&p, &t, NULL), AK_OK);
    ak_ground g = ak_terrain_ground(t);
    walk_source src;
    source_open(&src, NULL, 0, 0);
    run_frames(&src, &g, 1);
    run_frames(&src, &g, 0);
    source_close(&src);
    source_open(&src, "cmu_07_01_walk.bvh", 79, 208);
    run_frames(&src, &g, 1);
    source_close(&src);
    /* A clip with a captured start and stop (a recorded start-walk-stop): the segments, the
     * stop planner and walking on out of a captured stop. */
    ak_terrain_params fp = ak_terrain_defaults();
    fp.kind = AK_TERRAIN_FLAT;
    ak_terrain *flat_terrain = NULL;
    assert_int_equal(ak_terrain_create(&fp, &flat_terrain, NULL), AK_OK);
    const ak_ground flat = ak_terrain_ground(flat_terrain);
    walk_source orig;
    source_open(&orig, NULL, 0, 0);
    source_open_recorded(&src, &orig, &flat, 1);
    run_frames(&src, &g, 1);
    source_close(&src);
    source_close(&orig);
    ak_terrain_destroy(flat_terrain);
    ak_terrain_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walker_frames_never_allocate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
