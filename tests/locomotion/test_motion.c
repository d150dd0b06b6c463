/* The walk motion (src/locomotion/motion.c): ak_walk_motion_params refused field by field
 * (units, cycle range, seam, cycle times, stance flags, the flag, the nested contact
 * thresholds as contacts.<field>), then the built-in walk made ready as a loop: its cycle is
 * the clip's own (1.1 s, 1.3 m, 1.18 m/s) and its stance fractions the flags' own. */
#include "test_params.h"

static int32_t validate(const void *params, ak_error *err)
{
    return ak_walk_motion_validate((const ak_walk_motion_params *)params, err);
}

static void set_float(ak_walk_motion_params *p, size_t offset, float v)
{
    memcpy((char *)p + offset, &v, sizeof v);
}

static void walk_motion_params_validity(void **state)
{
    (void)state;
    const ak_walk_motion_params d = ak_walk_motion_defaults();
    assert_int_equal(d.cycle_start, -1);
    assert_int_equal(d.cycle_end, -1);
    AKT_NEAR(d.seam_blend, 0.1f, 0.0);
    akt_expect_refused(validate, &d, AK_OK, NULL, "defaults");
    akt_expect_refused(validate, NULL, AK_ERR_INVALID_ARG, NULL, "NULL");
    const struct {
        size_t offset;
        const char *field;
    } floats[] = {{offsetof(ak_walk_motion_params, metres_per_unit), "metres_per_unit"},
                  {offsetof(ak_walk_motion_params, seam_blend), "seam_blend"},
                  {offsetof(ak_walk_motion_params, min_cycle_time), "min_cycle_time"},
                  {offsetof(ak_walk_motion_params, max_cycle_time), "max_cycle_time"}};
    const float bad[] = {NAN, INFINITY, -INFINITY, -1.0f, -1e20f};
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; ++i)
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b) {
            ak_walk_motion_params p = d;
            set_float(&p, floats[i].offset, bad[b]);
            char what[64];
            snprintf(what, sizeof what, "%s = %g", floats[i].field, (double)bad[b]);
            akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, floats[i].field, what);
        }
    ak_walk_motion_params p = d;
    p.max_cycle_time = 0.4f; /* below min 0.45 */
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "max_cycle_time", "max < min");
    p = d;
    p.min_cycle_time = 0.0f;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "min_cycle_time", "min 0");
    const int32_t cycles[][2] = {{5, -1}, {-1, 5}, {3, 5}, {-2, -2}, {0, 1}};
    for (size_t i = 0; i < sizeof cycles / sizeof cycles[0]; ++i) {
        p = d;
        p.cycle_start = cycles[i][0];
        p.cycle_end = cycles[i][1];
        akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "cycle", "cycle range");
    }
    p = d;
    p.cycle_start = 3;
    p.cycle_end = 6; /* start < end - 2 */
    akt_expect_refused(validate, &p, AK_OK, NULL, "cycle 3:6");
    static const uint8_t flags[4] = {1, 1, 0, 0};
    p = d;
    p.stance_left = flags;
    p.stance_right = flags;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "stance_left", "flags without a loop");
    p.cycle_start = p.cycle_end = 0;
    akt_expect_refused(validate, &p, AK_OK, NULL, "flags with a loop");
    p.stance_right = NULL;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "stance_right", "one foot's flags");
    p = d;
    p.use_captured_transitions = 2;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "use_captured_transitions", "flag 2");
    const ak_param_table *ct = ak_contact_param_ranges();
    for (int32_t i = 0; i < ct->count; ++i) {
        p = d;
        const float v = NAN;
        memcpy((char *)&p.contacts + ct->ranges[i].offset, &v, sizeof v);
        char field[80];
        snprintf(field, sizeof field, "contacts.%s", ct->ranges[i].field);
        akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, field, field);
    }
}

/* The built-in walk loops with its own stance flags: the motion keeps its cycle (frame 0 to
 * the end), 1.3 m in 1.1 s, and its seam is exact (a generated loop). */
static void the_built_in_walk_keeps_its_cycle(void **state)
{
    (void)state;
    const ak_walk_clip_params wp = ak_walk_clip_defaults();
    ak_skeleton *sk = NULL;
    ak_clip *walk = NULL;
    ak_error err;
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &walk, &err), AK_OK);
    const int32_t n = walk->frame_count;
    uint8_t *contacts = malloc((size_t)n * 2);
    assert_non_null(contacts);
    assert_int_equal(ak_walk_clip_contacts(&wp, walk, contacts, contacts + n, &err), AK_OK);
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    mp.cycle_start = mp.cycle_end = 0;
    mp.stance_left = contacts;
    mp.stance_right = contacts + n;
    ak_walk_motion *m = NULL;
    assert_int_equal(ak_walk_motion_create(sk, walk, &mp, &m, &err), AK_OK);
    ak_walk_motion_info info;
    ak_walk_motion_get_info(m, &info);
    AKT_NEAR(info.metres_per_unit, 1.0f, 0.0);
    assert_int_equal(info.cycle_start, 0);
    assert_int_equal(info.cycle_end, n);
    AKT_NEAR(info.cycle_time, wp.cycle_time, 0.5f / wp.frame_rate);
    AKT_NEAR(info.stride_length, wp.stride_length, 1e-3);
    AKT_NEAR(info.speed, wp.stride_length / wp.cycle_time, 2e-3);
    int down[2] = {0, 0};
    for (int32_t f = 0; f < n; ++f)
        for (int s = 0; s < 2; ++s)
            down[s] += contacts[s * n + f] != 0;
    for (int s = 0; s < 2; ++s)
        AKT_NEAR(info.stance_fraction[s], (float)down[s] / (float)n, 1e-6);
    ak_walk_motion_destroy(m);
    free(contacts);
    ak_clip_destroy(walk);
    ak_skeleton_destroy(sk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walk_motion_params_validity),
        cmocka_unit_test(the_built_in_walk_keeps_its_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
