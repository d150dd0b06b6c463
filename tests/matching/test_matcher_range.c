/* A range of matchers stepped in order (src/matching/matcher_range.c): bad ranges refused;
 * three matchers stepped through ak_matcher_step_range for 1 s give bit for bit the poses of
 * three twins stepped one by one; a sub-range leaves the others alone; a range whose middle
 * matcher is refused (a NULL handle) reports that status for it, steps the others and returns
 * the first failure. */
#include "match_util.h"
#include "test_params.h"

AKT_DB_FIXTURE(akt_subject2, AKT_SUBJECT2_COUNT)

static void range_arguments_validity(void **state)
{
    (void)state;
    ak_matcher *ms[1] = {NULL};
    int32_t st[1];
    assert_int_equal(ak_matcher_step_range(NULL, 0, 1, 0.01f, NULL, st), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_matcher_step_range(ms, -1, 1, 0.01f, NULL, st), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_matcher_step_range(ms, 1, 0, 0.01f, NULL, st), AK_ERR_INVALID_ARG);
    /* an empty range does nothing and succeeds */
    assert_int_equal(ak_matcher_step_range(ms, 0, 0, 0.01f, NULL, st), AK_OK);
}

static ak_matcher *make(float x, const ak_ground *g)
{
    ak_matcher_params p = ak_matcher_defaults();
    p.start = ak_vec3_make(x, 0.0f, 0.0f);
    p.target = ak_vec3_make(x, 0.0f, 3.0f);
    ak_matcher *m = NULL;
    ak_error err;
    assert_int_equal(ak_matcher_create(g_db, &p, g, &m, &err), AK_OK);
    return m;
}

static void a_range_steps_like_one_by_one(void **state)
{
    (void)state;
    ak_terrain_params tp = ak_terrain_defaults();
    tp.kind = AK_TERRAIN_FLAT;
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&tp, &t, NULL), AK_OK);
    const ak_ground g = ak_terrain_ground(t);
    ak_matcher *range[3], *single[3];
    for (int i = 0; i < 3; ++i) {
        range[i] = make((float)i, &g);
        single[i] = make((float)i, &g);
    }
    ak_motion_db_info info;
    ak_motion_db_get_info(g_db, &info);
    const float dt = 1.0f / 60.0f;
    int32_t statuses[3];
    ak_error err;
    for (int f = 0; f < 60; ++f) {
        assert_int_equal(ak_matcher_step_range(range, 0, 3, dt, &g, statuses), AK_OK);
        for (int i = 0; i < 3; ++i) {
            assert_int_equal(statuses[i], AK_OK);
            assert_int_equal(ak_matcher_step(single[i], dt, &g, &err), AK_OK);
        }
    }
    for (int i = 0; i < 3; ++i) {
        assert_memory_equal(ak_matcher_world_pose(range[i]), ak_matcher_world_pose(single[i]),
                            sizeof(ak_xform) * (size_t)info.joint_count);
        ak_walker_state a, b;
        ak_matcher_get_state(range[i], &a);
        ak_matcher_get_state(single[i], &b);
        AKT_NEAR(a.position.x, (float)i, 0.5); /* still in its own lane */
        assert_true(a.path_length > 0.0f);
        assert_memory_equal(&a.position, &b.position, sizeof a.position);
    }
    /* a sub-range [1, 3) steps only those two: matcher 0 stays where it was */
    ak_walker_state before, after;
    ak_matcher_get_state(range[0], &before);
    assert_int_equal(ak_matcher_step_range(range, 1, 3, dt, &g, statuses), AK_OK);
    ak_matcher_get_state(range[0], &after);
    assert_memory_equal(&before.position, &after.position, sizeof before.position);
    /* a refused middle matcher: its status, the others stepped, the first failure returned */
    ak_matcher *holes[3] = {range[0], NULL, range[2]};
    ak_matcher_get_state(range[2], &before);
    assert_int_equal(ak_matcher_step_range(holes, 0, 3, dt, &g, statuses), AK_ERR_INVALID_ARG);
    assert_int_equal(statuses[0], AK_OK);
    assert_int_equal(statuses[1], AK_ERR_INVALID_ARG);
    assert_int_equal(statuses[2], AK_OK);
    ak_matcher_get_state(range[2], &after);
    assert_true(after.time > before.time);
    for (int i = 0; i < 3; ++i) {
        ak_matcher_destroy(range[i]);
        ak_matcher_destroy(single[i]);
    }
    ak_terrain_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(range_arguments_validity),
        cmocka_unit_test(a_range_steps_like_one_by_one),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
