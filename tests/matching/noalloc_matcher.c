/* No allocation per frame: malloc/calloc/realloc are wrapped at link time (-Wl,--wrap) and
 * counted while a matcher walks on hills, searches, transitions, stops and starts again for
 * new targets, with and without foot IK, through the C step and the engine's phases. */
#include "match_util.h"

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

static void matcher_steps_allocate_nothing(void **state)
{
    (void)state;
    akt_sources s;
    akt_sources_load(&s);
    ak_motion_db_params dp = ak_motion_db_defaults();
    ak_motion_db *db = NULL;
    assert_int_equal(ak_motion_db_create(s.sk[0], s.src, AKT_SUBJECT2_COUNT, &dp, &db, NULL),
                     AK_OK);
    ak_terrain_params tp = ak_terrain_defaults();
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&tp, &t, NULL), AK_OK);
    const ak_ground g = ak_terrain_ground(t);
    for (int ik = 0; ik < 2; ++ik) {
        ak_matcher_params p = ak_matcher_defaults();
        p.start = ak_vec3_make(-2, 0, -2);
        p.target = ak_vec3_make(1, 0, 0);
        p.foot_ik = ik;
        ak_matcher *m = NULL;
        g_allocs = 0;
        g_counting = 1;
        assert_int_equal(ak_matcher_create(db, &p, &g, &m, NULL), AK_OK);
        g_counting = 0;
        assert_true(g_allocs > 0); /* the wrap sees the library: create allocates */
        g_allocs = 0;
        g_counting = 1;
        int stops = 0;
        ak_walker_state st;
        ak_matcher_info mi;
        for (int f = 0; f < 1500; ++f) {
            if (f % 2 == 0) {
                assert_int_equal(ak_matcher_step(m, 1.0f / 60.0f, &g, NULL), AK_OK);
            } else { /* the engine's phases */
                ak_vec3 move;
                ak_ground_ray rays[AK_MATCHER_RAY_COUNT];
                ak_ground_hit hits[AK_MATCHER_RAY_COUNT];
                assert_int_equal(ak_matcher_begin(m, 1.0f / 60.0f, &move, NULL), AK_OK);
                assert_int_equal(ak_matcher_ground_rays(m, rays, AK_MATCHER_RAY_COUNT),
                                 AK_MATCHER_RAY_COUNT);
                for (int i = 0; i < AK_MATCHER_RAY_COUNT; ++i)
                    ak_ground_cast(&g, &rays[i], &hits[i]);
                assert_int_equal(ak_matcher_finish(m, hits, AK_MATCHER_RAY_COUNT, NULL), AK_OK);
            }
            ak_matcher_get_state(m, &st);
            ak_matcher_get_info(m, &mi);
            if (st.stopped && st.arrived) {
                ak_matcher_set_target(m, ak_vec3_make(stops % 2 ? -2.0f : 2.0f, 0, 2.0f));
                ++stops;
            }
        }
        g_counting = 0;
        assert_int_equal(g_allocs, 0);
        assert_true(stops >= 2);
        assert_true(mi.transitions > 10);
        ak_matcher_destroy(m);
    }
    ak_terrain_destroy(t);
    ak_motion_db_destroy(db);
    akt_sources_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(matcher_steps_allocate_nothing)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
