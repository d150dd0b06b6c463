/* The motion-matching walker (src/matching/matcher.c) on a database of CMU subject 2's walks:
 * ak_matcher_params refused field by field through ak_matcher_validate and ak_matcher_create
 * (the range table, the positive fields, NULLs, the search mode, boxes); a bad step refused;
 * then worked behaviour: one sent 4 m along +Z arrives within the radius, and reset puts it
 * back at its start. (The case moved here from test_matching_walk.c.) */
#include "match_util.h"
#include "test_params.h"

AKT_DB_FIXTURE(akt_subject2, AKT_SUBJECT2_COUNT)

static int32_t validate(const void *params, ak_error *err)
{
    return ak_matcher_validate((const ak_matcher_params *)params, g_db, err);
}

static int32_t create(const void *params, ak_error *err)
{
    ak_matcher *m = (ak_matcher *)1;
    const int32_t st = ak_matcher_create(g_db, (const ak_matcher_params *)params, NULL, &m, err);
    if (st != AK_OK) assert_null(m);
    ak_matcher_destroy(st == AK_OK ? m : NULL);
    return st;
}

static void matcher_params_validity(void **state)
{
    (void)state;
    const ak_matcher_params d = ak_matcher_defaults();
    const ak_param_table *t = ak_matcher_param_ranges();
    assert_true(akt_check_param_table(t, &d, sizeof d, validate) > 0);
    akt_expect_refused(create, &d, AK_OK, NULL, "defaults create");
    akt_expect_refused(create, NULL, AK_ERR_INVALID_ARG, NULL, "NULL create");
    ak_error err;
    assert_int_equal(ak_matcher_validate(&d, NULL, &err), AK_ERR_INVALID_ARG);
    const struct {
        size_t offset;
        const char *field;
    } positive[] = {{offsetof(ak_matcher_params, arrival_radius), "arrival_radius"},
                    {offsetof(ak_matcher_params, walk_speed), "walk_speed"},
                    {offsetof(ak_matcher_params, slow_radius), "slow_radius"},
                    {offsetof(ak_matcher_params, search_interval), "search_interval"},
                    {offsetof(ak_matcher_params, stop_time), "stop_time"},
                    {offsetof(ak_matcher_params, unlock_distance), "unlock_distance"}};
    const float bad[] = {0.0f, -1.0f, NAN, INFINITY};
    for (size_t i = 0; i < sizeof positive / sizeof positive[0]; ++i)
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b) {
            ak_matcher_params p = d;
            memcpy((char *)&p + positive[i].offset, &bad[b], sizeof(float));
            char what[64];
            snprintf(what, sizeof what, "%s = %g", positive[i].field, (double)bad[b]);
            akt_expect_refused(create, &p, AK_ERR_INVALID_ARG, positive[i].field, what);
        }
    ak_matcher_params p = d;
    p.stance_gate = -0.1f;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "stance_gate", "stance_gate < 0");
    p = d;
    p.turn_on_spot_deg = 200.0f;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "turn_on_spot_deg", "200 degrees");
    p = d;
    p.search_mode = 7;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "search_mode", "search_mode 7");
    p = d;
    p.box_count = 2; /* without boxes */
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "box_count", "boxes missing");
    p = d;
    p.ground_smoothing = NAN;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "ground_smoothing", "smoothing NaN");
    /* a step with a bad time is refused and the matcher still steps afterwards */
    ak_matcher *m = NULL;
    assert_int_equal(ak_matcher_create(g_db, &d, NULL, &m, &err), AK_OK);
    assert_int_equal(ak_matcher_step(m, -1.0f, NULL, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_matcher_step(m, NAN, NULL, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_matcher_step(m, 1.0f / 60.0f, NULL, &err), AK_OK);
    assert_int_equal(ak_matcher_step(NULL, 1.0f / 60.0f, NULL, &err), AK_ERR_INVALID_ARG);
    ak_matcher_destroy(m);
}

/* Target 4 m along +Z from the origin on flat ground: after 8 s (4 m at the default 1.4 m/s
 * takes under 3 s, plus the start and the stop) the character stands within the arrival
 * radius, has travelled at least the 4 m less the radius, and the state's distance is the
 * distance of its position to the target. */
static void the_matcher_walks_to_its_target_and_stands_still(void **state)
{
    (void)state;
    ak_matcher_params p = ak_matcher_defaults();
    p.target = ak_vec3_make(0.0f, 0.0f, 4.0f);
    ak_terrain_params tp = ak_terrain_defaults();
    tp.kind = AK_TERRAIN_FLAT;
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&tp, &t, NULL), AK_OK);
    const ak_ground g = ak_terrain_ground(t);
    ak_matcher *m = NULL;
    ak_error err;
    assert_int_equal(ak_matcher_create(g_db, &p, &g, &m, &err), AK_OK);
    const float dt = 1.0f / 60.0f;
    ak_walker_state st;
    for (int f = 0; f < 8 * 60; ++f)
        assert_int_equal(ak_matcher_step(m, f == 0 ? 0.0f : dt, &g, &err), AK_OK);
    ak_matcher_get_state(m, &st);
    const float left =
        sqrtf(st.position.x * st.position.x + (st.position.z - 4.0f) * (st.position.z - 4.0f));
    if (!(left <= p.arrival_radius)) fail_msg("%.3f m from the target after 8 s", (double)left);
    AKT_NEAR(st.distance, left, 1e-4);
    assert_true(st.path_length >= 4.0f - p.arrival_radius);
    assert_true(st.arrived);
    /* reset: back at the start, standing */
    ak_matcher_reset(m, &g);
    ak_matcher_get_state(m, &st);
    AKT_NEAR(st.position.x, 0.0f, 1e-6);
    AKT_NEAR(st.position.z, 0.0f, 1e-6);
    ak_matcher_destroy(m);
    ak_terrain_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matcher_params_validity),
        cmocka_unit_test(the_matcher_walks_to_its_target_and_stands_still),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
