/* Foot contacts and the cycle finder's params (src/locomotion/contacts.c): ak_contact_params
 * and ak_cycle_params refused field by field; then worked numbers: a made-up clip whose left
 * ankle stands still for 0.5 s and then rises and moves away at known speeds, the right one
 * still throughout; a landing heel rolling before it settles (the roll bit); the
 * stance-at-time rule's nearest frame, wrap and clamp. */
#include "test_params.h"

enum { FRAMES = 60 };
#define FT (1.0f / 60.0f)

AKT_CLIP_FIXTURE

/* root; lankle and rankle children of it, each with a translation track (metres). */
static int setup(void **state)
{
    (void)state;
    static const char *const names[3] = {"root", "lankle", "rankle"};
    const int32_t parents[3] = {-1, 0, 0};
    ak_xform rest[3] = {ak_xform_identity(), ak_xform_identity(), ak_xform_identity()};
    rest[1].translation = ak_vec3_make(0.1f, 0.08f, 0.0f);
    rest[2].translation = ak_vec3_make(-0.1f, 0.08f, 0.0f);
    ak_skeleton_desc d = {3, names, parents, rest, NULL, NULL};
    ak_error err;
    assert_int_equal(ak_skeleton_create(&d, &g_s, &err), AK_OK);
    const uint8_t tracks[3] = {1, 1, 1};
    assert_int_equal(ak_clip_create(3, FRAMES, FT, tracks, &g_c, &err), AK_OK);
    for (int32_t f = 0; f < FRAMES; ++f) {
        ak_vec3 *t = &g_c->translations[(size_t)f * 3];
        t[0] = ak_vec3_make(0.0f, 0.9f, 0.0f); /* the root stands still 0.9 m up */
        /* ankles 0.08 m above the floor at y = 0 */
        t[1] = ak_vec3_make(0.1f, -0.82f, 0.0f);
        t[2] = ak_vec3_make(-0.1f, -0.82f, 0.0f);
        if (f >= 30) { /* left: 1.2 m/s forward, 0.6 m/s up from frame 30 */
            t[1].z = 0.02f * (float)(f - 29);
            t[1].y += 0.01f * (float)(f - 29);
        }
    }
    ak_clip_finalize(g_c);
    return 0;
}

static ak_contact_params valid_contacts(void)
{
    ak_contact_params p = ak_contact_defaults();
    p.skeleton = g_s;
    p.clip = g_c;
    p.heel[0] = 1;
    p.heel[1] = 2;
    p.metres_per_unit = 1.0f;
    p.body_speed_fraction = 0.0f;
    return p;
}

static int32_t contact_validate(const void *params, ak_error *err)
{
    return ak_contact_validate((const ak_contact_params *)params, err);
}

static int32_t contact_run(const void *params, ak_error *err)
{
    uint8_t l[FRAMES], r[FRAMES];
    return ak_contact_run((const ak_contact_params *)params, l, r, err);
}

static void contact_params_validity(void **state)
{
    (void)state;
    const ak_contact_params ok = valid_contacts();
    const ak_param_table *t = ak_contact_param_ranges();
    assert_true(akt_check_param_table(t, &ok, sizeof ok, contact_validate) > 0);
    assert_true(akt_check_param_table(t, &ok, sizeof ok, contact_run) > 0);
    ak_contact_params p = ok;
    p.skeleton = NULL;
    akt_expect_refused(contact_run, &p, AK_ERR_INVALID_ARG, "skeleton", "skeleton NULL");
    p = ok;
    p.clip = NULL;
    akt_expect_refused(contact_run, &p, AK_ERR_INVALID_ARG, "clip", "clip NULL");
    p = ok;
    p.heel[1] = 3;
    akt_expect_refused(contact_run, &p, AK_ERR_INVALID_ARG, "right heel", "heel out of range");
    p = ok;
    p.toe[0] = -2;
    akt_expect_refused(contact_run, &p, AK_ERR_INVALID_ARG, "left heel/toe", "toe -2");
    p = ok;
    p.root_joint = 3; /* the skeleton's joints are 0..2 */
    akt_expect_refused(contact_run, &p, AK_ERR_INVALID_ARG, "root_joint", "root joint 3");
    p = ok;
    p.root_joint = -2;
    akt_expect_refused(contact_run, &p, AK_ERR_INVALID_ARG, "root_joint", "root joint -2");
    p = ok;
    p.root_joint = 2;
    akt_expect_refused(contact_run, &p, AK_OK, NULL, "root joint 2");
    /* the rules across fields name both */
    p = ok;
    p.height_off = p.height_on * 0.5f;
    akt_expect_refused(contact_run, &p, AK_ERR_INVALID_ARG, "height_off", "off below on");
    p = ok;
    p.speed_off = p.speed_on * 0.5f;
    akt_expect_refused(contact_run, &p, AK_ERR_INVALID_ARG, "speed_off", "speed off below on");
    ak_error err;
    uint8_t l[FRAMES];
    assert_int_equal(ak_contact_run(&ok, l, NULL, &err), AK_ERR_INVALID_ARG);
}

static int32_t cycle_validate(const void *params, ak_error *err)
{
    return ak_cycle_validate((const ak_cycle_params *)params, err);
}

static void cycle_params_validity(void **state)
{
    (void)state;
    static uint8_t flags[FRAMES];
    ak_cycle_params ok = ak_cycle_defaults();
    AKT_NEAR(ok.min_time, 0.45f, 0.0);
    AKT_NEAR(ok.max_time, 1.8f, 0.0);
    ok.skeleton = g_s;
    ok.clip = g_c;
    ok.left = flags;
    ok.right = flags;
    akt_expect_refused(cycle_validate, &ok, AK_OK, NULL, "defaults");
    akt_expect_refused(cycle_validate, NULL, AK_ERR_INVALID_ARG, NULL, "NULL");
    ak_cycle_params p = ok;
    p.left = NULL;
    akt_expect_refused(cycle_validate, &p, AK_ERR_INVALID_ARG, "contact flags", "flags NULL");
    const float bad[] = {NAN, INFINITY, -INFINITY, -1.0f, -1e20f};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        p = ok;
        p.min_time = bad[i];
        akt_expect_refused(cycle_validate, &p, AK_ERR_INVALID_ARG, "min_time", "min_time");
        p = ok;
        p.max_time = bad[i];
        akt_expect_refused(cycle_validate, &p, AK_ERR_INVALID_ARG, "max_time", "max_time");
        p = ok;
        p.leg_length = bad[i];
        akt_expect_refused(cycle_validate, &p, AK_ERR_INVALID_ARG, "leg_length", "leg_length");
        p = ok;
        p.min_step_fraction = bad[i];
        akt_expect_refused(cycle_validate, &p, AK_ERR_INVALID_ARG, "min_step_fraction",
                           "min_step_fraction");
    }
    p = ok;
    p.min_time = 0.0f;
    akt_expect_refused(cycle_validate, &p, AK_ERR_INVALID_ARG, "min_time", "min_time 0");
    p = ok;
    p.max_time = 0.4f; /* below min_time */
    akt_expect_refused(cycle_validate, &p, AK_ERR_INVALID_ARG, "max_time", "max < min");
    p = ok;
    p.max_time = p.min_time; /* a bound */
    akt_expect_refused(cycle_validate, &p, AK_OK, NULL, "max = min");
}

/* Left: down while still at 0.08 m (frames 0..29); from frame 30 it moves at 1.34 m/s, far
 * above speed_off (0.45 m/s), and rises past height_off: up by frame 31 at the latest and for
 * good. Right: still at its floor: down on every frame. */
static void a_foot_that_lifts_away_is_down_then_up(void **state)
{
    (void)state;
    ak_contact_params p = valid_contacts();
    uint8_t l[FRAMES], r[FRAMES];
    ak_error err;
    assert_int_equal(ak_contact_run(&p, l, r, &err), AK_OK);
    for (int32_t f = 0; f < FRAMES; ++f) {
        if (!(r[f] & AK_CONTACT_HEEL)) fail_msg("right heel up at frame %d", (int)f);
        if (f < 29 && !(l[f] & AK_CONTACT_HEEL)) fail_msg("left heel up at frame %d", (int)f);
        if (f > 31 && l[f] != 0) fail_msg("left foot down at frame %d (%d)", (int)f, (int)l[f]);
        assert_int_equal(l[f] & AK_CONTACT_TOE, 0); /* no toe joint */
    }
}

/* A clip of the fixture's skeleton where each ankle stays at its floor (0.08 m) and moves
 * along +Z at 1.2 m/s (speed_off 0.45 m/s) from each frame to the next, except into the
 * frames f where still[side][f] is set (there it stays where it was at f - 1). */
static ak_clip *ankles_still_on(const uint8_t still[2][FRAMES])
{
    const uint8_t tracks[3] = {1, 1, 1};
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_clip_create(3, FRAMES, FT, tracks, &c, &err), AK_OK);
    float z[2] = {0.0f, 0.0f};
    for (int32_t f = 0; f < FRAMES; ++f) {
        ak_vec3 *t = &c->translations[(size_t)f * 3];
        t[0] = ak_vec3_make(0.0f, 0.9f, 0.0f);
        for (int s = 0; s < 2; ++s) {
            if (f > 0 && !still[s][f]) z[s] += 0.02f;
            t[1 + s] = ak_vec3_make(s ? -0.1f : 0.1f, -0.82f, z[s]);
        }
    }
    ak_clip_finalize(c);
    return c;
}

/* Contacts of ankles_still_on(still) with the fixture's parameters, into l and r. */
static void contacts_of_still(const uint8_t still[2][FRAMES], uint8_t l[FRAMES], uint8_t r[FRAMES])
{
    ak_clip *c = ankles_still_on(still);
    ak_contact_params p = valid_contacts();
    p.clip = c;
    ak_error err;
    assert_int_equal(ak_contact_run(&p, l, r, &err), AK_OK);
    ak_clip_destroy(c);
}

/* min_stance is 0.05 s (3 frames at 60 fps). Left: in one place on frames 20..23 (the speed
 * over +-1 frame is 0 on 21 and 22: a 2-frame blip inside the clip, dropped) and on the last
 * three frames 57..59 (0 on 58 and 59: a landing the clip's end cuts, kept). Right: in one
 * place on frames 0..2, then moving (0 on frames 0 and 1: a push-off the clip's start cuts,
 * kept). Before, both cut stances were dropped as short. */
static void a_stance_cut_by_the_clip_is_kept_a_blip_inside_is_not(void **state)
{
    (void)state;
    uint8_t still[2][FRAMES];
    memset(still, 0, sizeof still);
    for (int32_t f = 21; f <= 23; ++f)
        still[0][f] = 1;
    still[0][58] = still[0][59] = 1;
    still[1][1] = still[1][2] = 1;
    uint8_t l[FRAMES], r[FRAMES];
    contacts_of_still(still, l, r);
    for (int32_t f = 0; f < FRAMES; ++f) {
        const int left_down = f >= 58, right_down = f <= 1;
        if ((l[f] != 0) != left_down)
            fail_msg("left foot %s at frame %d", l[f] ? "down" : "up", (int)f);
        if ((r[f] != 0) != right_down)
            fail_msg("right foot %s at frame %d", r[f] ? "down" : "up", (int)f);
    }
}

/* A frame line written twice at the end is no motion: frame 59 repeats frame 58 exactly
 * (both ankles still into it, the root still throughout). Before, the speed difference over
 * [58, 59] was 0 and frame 59 alone was a stance the clip's end cuts (kept: it lasts the
 * speed's half window at 60 fps); now it takes frame 58's contacts, swing, as the same clip
 * without its repeated line gives. */
static void a_repeated_last_frame_is_no_motion(void **state)
{
    (void)state;
    uint8_t still[2][FRAMES];
    memset(still, 0, sizeof still);
    still[0][FRAMES - 1] = still[1][FRAMES - 1] = 1;
    uint8_t l[FRAMES], r[FRAMES];
    contacts_of_still(still, l, r);
    for (int32_t f = 0; f < FRAMES; ++f)
        if (l[f] != 0 || r[f] != 0)
            fail_msg("a foot down at frame %d (L %d R %d)", (int)f, (int)l[f], (int)r[f]);
    /* a pose held for the whole clip is one stance still */
    memset(still, 1, sizeof still);
    contacts_of_still(still, l, r);
    for (int32_t f = 0; f < FRAMES; ++f)
        if (!(l[f] & AK_CONTACT_HEEL) || !(r[f] & AK_CONTACT_HEEL))
            fail_msg("a foot up at frame %d of a held pose", (int)f);
}

/* A landing heel that rolls: the left ankle swings at 1.2 m/s 6 cm above its floor (frames
 * 0..19), comes down to 5 mm above it and moves on at 0.35 m/s (between speed_on 0.25 and
 * speed_off 0.45 m/s: the foot turning about its heel pad) into frames 20..34, then stands
 * still on the floor. The heel bit comes down as the ankle stops (frame 34: its speed over +-1
 * frame 0.175 m/s); the roll bit is set on 20..33 (under roll_height 1.25 cm and the off
 * speed; frame 19 is 6 cm up); with roll_height 0 those frames are swing and the heel bit is
 * the same. */
static void a_landing_heel_rolls_before_it_settles(void **state)
{
    (void)state;
    const uint8_t tracks[3] = {1, 1, 1};
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_clip_create(3, FRAMES, FT, tracks, &c, &err), AK_OK);
    float z = 0.0f;
    for (int32_t f = 0; f < FRAMES; ++f) {
        ak_vec3 *t = &c->translations[(size_t)f * 3];
        t[0] = ak_vec3_make(0.0f, 0.9f, 0.0f);
        if (f > 0) z += f < 20 ? 1.2f * FT : (f < 35 ? 0.35f * FT : 0.0f);
        const float above = f < 20 ? 0.06f : (f < 35 ? 0.005f : 0.0f);
        t[1] = ak_vec3_make(0.1f, -0.82f + above, z);
        t[2] = ak_vec3_make(-0.1f, -0.82f, 0.0f);
    }
    ak_clip_finalize(c);
    ak_contact_params p = valid_contacts();
    p.clip = c;
    uint8_t l[FRAMES], r[FRAMES], hard[FRAMES];
    assert_int_equal(ak_contact_run(&p, l, r, &err), AK_OK);
    p.roll_height = 0.0f;
    assert_int_equal(ak_contact_run(&p, hard, r, &err), AK_OK);
    for (int32_t f = 0; f < FRAMES; ++f) {
        const uint8_t want = f < 20 ? 0 : (f < 34 ? AK_CONTACT_ROLL : AK_CONTACT_HEEL);
        if (l[f] != want) fail_msg("frame %d: flags %d, want %d", (int)f, (int)l[f], (int)want);
        assert_int_equal(hard[f], l[f] & ~AK_CONTACT_ROLL);
        assert_int_equal(r[f], AK_CONTACT_HEEL);
    }
    ak_clip_destroy(c);
}

/* Nearest frame at 1/60 s: t = 0.1 s is frame 6; 0.108 s rounds to 6, 0.109 to 7; a looping
 * clip wraps (t = 1.0 + 0.05 s is frame 3), a clamped one clamps (t = 5 s: frame 59). */
static void stance_at_time_is_the_nearest_frame(void **state)
{
    (void)state;
    uint8_t flags[FRAMES];
    for (int32_t f = 0; f < FRAMES; ++f)
        flags[f] = (uint8_t)(f % 4);
    assert_int_equal(ak_contact_at(flags, FRAMES, FT, 0, 0.1f), 6 % 4);
    assert_int_equal(ak_contact_at(flags, FRAMES, FT, 0, 0.108f), 6 % 4);
    assert_int_equal(ak_contact_at(flags, FRAMES, FT, 0, 0.109f), 7 % 4);
    assert_int_equal(ak_contact_at(flags, FRAMES, FT, 1, 1.05f), 3);
    assert_int_equal(ak_contact_at(flags, FRAMES, FT, 0, 5.0f), 59 % 4);
    assert_int_equal(ak_contact_at(flags, FRAMES, FT, 0, -1.0f), 0);
    assert_int_equal(ak_contact_at(NULL, FRAMES, FT, 0, 0.1f), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(contact_params_validity),
        cmocka_unit_test(cycle_params_validity),
        cmocka_unit_test(a_foot_that_lifts_away_is_down_then_up),
        cmocka_unit_test(a_stance_cut_by_the_clip_is_kept_a_blip_inside_is_not),
        cmocka_unit_test(a_repeated_last_frame_is_no_motion),
        cmocka_unit_test(a_landing_heel_rolls_before_it_settles),
        cmocka_unit_test(stance_at_time_is_the_nearest_frame),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
