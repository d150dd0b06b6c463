/* The search (src/matching/search.c) on a database of CMU subject 2's walks: group weights
 * refused naming the weight (negative, NaN, infinite, all 0); the feature layout's worked offsets
 * and sizes (6 + 6 + 3 + 6 + 6 = 27); a candidate's own features find it at cost 0 in both modes,
 * a best cost of 0 finds nothing, and excluding its neighbourhood finds another frame at a
 * cost above 0, the same in both modes. */
#include "match_util.h"
#include "test_params.h"

AKT_DB_FIXTURE(akt_subject2, AKT_SUBJECT2_COUNT)

static void weights_validity(void **state)
{
    (void)state;
    const float d[AK_MATCH_GROUPS] = {0.75f, 1.0f, 1.0f, 1.0f, 1.5f};
    ak_error err;
    assert_int_equal(ak_motion_db_set_weights(g_db, d, &err), AK_OK);
    assert_int_equal(ak_motion_db_set_weights(g_db, NULL, &err), AK_ERR_INVALID_ARG);
    const float bad[] = {-0.5f, NAN, INFINITY, -INFINITY};
    for (int g = 0; g < AK_MATCH_GROUPS; ++g)
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b) {
            float w[AK_MATCH_GROUPS];
            memcpy(w, d, sizeof w);
            w[g] = bad[b];
            assert_int_equal(ak_motion_db_set_weights(g_db, w, &err), AK_ERR_INVALID_ARG);
            char field[16];
            snprintf(field, sizeof field, "weights[%d]", g);
            assert_non_null(strstr(err.message, field));
        }
    const float zero[AK_MATCH_GROUPS] = {0};
    assert_int_equal(ak_motion_db_set_weights(g_db, zero, &err), AK_ERR_INVALID_ARG);
    /* a refused call leaves the weights as they were: the next search still works */
    assert_int_equal(ak_motion_db_set_weights(g_db, d, &err), AK_OK);
}

static void feature_layout_worked_numbers(void **state)
{
    (void)state;
    const int32_t offsets[AK_MATCH_GROUPS] = {0, 6, 12, 15, 21};
    const int32_t sizes[AK_MATCH_GROUPS] = {6, 6, 3, 6, 6};
    int32_t total = 0;
    for (int32_t g = 0; g < AK_MATCH_GROUPS; ++g) {
        assert_int_equal(ak_match_group_offset(g), offsets[g]);
        assert_int_equal(ak_match_group_size(g), sizes[g]);
        total += ak_match_group_size(g);
    }
    assert_int_equal(total, AK_MATCH_FEATURES);
}

static void a_candidate_finds_itself_and_exclusion_finds_another(void **state)
{
    (void)state;
    ak_motion_db_info info;
    ak_motion_db_get_info(g_db, &info);
    int tested = 0;
    const int32_t step = info.frame_count / 40 > 1 ? info.frame_count / 40 : 1;
    for (int32_t f = 0; f < info.frame_count && tested < 20; f += step) {
        if (!ak_motion_db_is_candidate(g_db, f)) continue;
        ++tested;
        float raw[AK_MATCH_FEATURES], q[AK_MATCH_FEATURES];
        ak_motion_db_features(g_db, f, raw);
        ak_motion_db_normalize(g_db, raw, q);
        ak_match_result brute, boxes;
        ak_motion_db_search(g_db, q, AK_MATCH_BRUTE, INFINITY, &brute);
        ak_motion_db_search(g_db, q, AK_MATCH_BOXES, INFINITY, &boxes);
        AKT_NEAR(brute.cost, 0.0f, 1e-9);
        assert_int_equal(brute.frame, boxes.frame);
        assert_true(ak_motion_db_is_candidate(g_db, brute.frame));
        assert_true(brute.frame <= f); /* ties go to the lowest frame */
        ak_motion_db_search(g_db, q, AK_MATCH_BRUTE, 0.0f, &brute);
        assert_int_equal(brute.frame, -1); /* nothing is below cost 0 */
        const int32_t exclude[2] = {f - 30 < 0 ? 0 : f - 30, f + 30};
        ak_motion_db_search_excluding(g_db, q, AK_MATCH_BRUTE, INFINITY, exclude, 1, &brute);
        ak_motion_db_search_excluding(g_db, q, AK_MATCH_BOXES, INFINITY, exclude, 1, &boxes);
        assert_int_equal(brute.frame, boxes.frame);
        assert_true(brute.frame < exclude[0] || brute.frame >= exclude[1]);
        AKT_NEAR(brute.cost, boxes.cost, 1e-5 * (1.0 + brute.cost));
        assert_true(boxes.frames_tested <= brute.frames_tested);
    }
    assert_true(tested >= 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(weights_validity),
        cmocka_unit_test(feature_layout_worked_numbers),
        cmocka_unit_test(a_candidate_finds_itself_and_exclusion_finds_another),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
