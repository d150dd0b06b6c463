/* The built-in walk clip and biped, contact detection, and reach. */
#include "walk_util.h"

static void builtin_biped_maps_every_humanoid_slot(void **state)
{
    (void)state;
    ak_skeleton *sk;
    ak_clip *c;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &c, NULL), AK_OK);
    ak_humanoid h;
    ak_error err;
    assert_int_equal(ak_humanoid_find(sk, NULL, &h, &err), AK_OK);
    for (int s = 0; s < AK_HUM_SLOT_COUNT; ++s)
        assert_true(h.joint[s] >= 0);
    assert_int_equal(sk->joint_count, 26);
    AKT_NEAR(ak_clip_duration(c), wp.cycle_time, 1e-6);
    assert_int_equal(c->loop, 1);
    /* About 1.7 m tall in metres. */
    const float height = ak_skeleton_rest_height(sk);
    assert_true(height > 1.6f && height < 1.85f);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

/* By construction a planted foot does not move in the world: FK of every stance frame puts
 * the ankle on the same spot, on the floor, and the foot flat. */
static void builtin_walk_stance_feet_stay_planted(void **state)
{
    (void)state;
    ak_skeleton *sk;
    ak_clip *c;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &c, NULL), AK_OK);
    const int32_t n = c->frame_count, J = sk->joint_count;
    uint8_t *st = malloc((size_t)n * 2);
    assert_int_equal(ak_walk_clip_contacts(&wp, c, st, st + n, NULL), AK_OK);
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)J * 2), *world = local + J;
    const int32_t feet[2] = {ak_skeleton_find(sk, "LeftFoot"), ak_skeleton_find(sk, "RightFoot")};
    int stance_frames[2] = {0, 0};
    for (int s = 0; s < 2; ++s) {
        ak_vec3 plant = {0, 0, 0};
        int have = 0;
        for (int32_t f = 0; f < n; ++f) {
            ak_clip_frame(c, sk, f, local);
            ak_fk(sk, local, world);
            const ak_vec3 a = world[feet[s]].translation;
            if (!st[s * n + f]) {
                have = 0;
                continue;
            }
            ++stance_frames[s];
            AKT_NEAR(a.y, 0.08f, 1e-4); /* ankle height above the floor */
            const ak_vec3 up = ak_quat_rotate(world[feet[s]].rotation, ak_vec3_make(0, 1, 0));
            AKT_NEAR(up.y, 1.0f, 1e-5); /* flat */
            if (!have) {
                plant = a;
                have = 1;
            }
            AKT_NEAR(a.x, plant.x, 1e-4);
            AKT_NEAR(a.z, plant.z, 1e-4);
        }
    }
    /* Duty factor 0.6 of 66 frames. */
    assert_true(abs(stance_frames[0] - (int)(0.6f * (float)n)) <= 1);
    assert_true(abs(stance_frames[1] - (int)(0.6f * (float)n)) <= 1);
    /* Detection on the clip agrees with construction on nearly every frame. */
    uint8_t *det = malloc((size_t)n * 2);
    ak_contact_params cp = ak_contact_defaults();
    cp.skeleton = sk;
    cp.clip = c;
    cp.metres_per_unit = 1.0f;
    assert_int_equal(ak_contact_run(&cp, det, det + n, NULL), AK_OK);
    /* The construction plants the whole foot flat: the heel is down exactly then, and the toe
     * (ball) with it; the toe may stay down a little longer, as the foot pitches toe-down at
     * the start of its swing. */
    int agree = 0, toe_with_heel = 0;
    for (int32_t i = 0; i < 2 * n; ++i) {
        agree += ((det[i] & AK_CONTACT_HEEL) != 0) == (st[i] != 0);
        toe_with_heel += !st[i] || (det[i] & AK_CONTACT_TOE);
    }
    printf("heel contact agrees with construction on %d of %d frames\n", agree, (int)(2 * n));
    assert_true(agree >= 2 * n - 2);
    assert_int_equal(toe_with_heel, 2 * n);
    free(det);
    free(local);
    free(st);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

/* Straight-ish knees: at mid-stance (the hip passing over the planted ankle) the stance knee
 * bends at most 25 degrees (human walking: about 15-20), and by what the law of cosines gives
 * the leg for its hip at hip_height + hip_bob above the floor, swayed hip_sway sideways over a
 * foot step_width/2 out (the hips are HIP_HALF = step_width/2 out too). */
static void builtin_walk_knees_are_nearly_straight_at_mid_stance(void **state)
{
    (void)state;
    ak_skeleton *sk;
    ak_clip *c;
    const ak_walk_clip_params wp = ak_walk_clip_defaults();
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &c, NULL), AK_OK);
    const int32_t n = c->frame_count, J = sk->joint_count;
    uint8_t *st = malloc((size_t)n * 2);
    assert_int_equal(ak_walk_clip_contacts(&wp, c, st, st + n, NULL), AK_OK);
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)J * 2), *world = local + J;
    static const char *const names[2][3] = {{"LeftUpLeg", "LeftLeg", "LeftFoot"},
                                            {"RightUpLeg", "RightLeg", "RightFoot"}};
    int32_t leg[2][3];
    for (int s = 0; s < 2; ++s)
        for (int j = 0; j < 3; ++j)
            leg[s][j] = ak_skeleton_find(sk, names[s][j]);
    const float l1 = sk->bone_lengths[leg[0][1]], l2 = sk->bone_lengths[leg[0][2]];
    const float rise = wp.hip_height + wp.hip_bob - 0.08f; /* the ankle stands 0.08 m up */
    const float expected =
        knee_flexion_for_distance(l1, l2, sqrtf(rise * rise + wp.hip_sway * wp.hip_sway));
    float prev[2] = {0.0f, 0.0f};
    int events = 0;
    for (int32_t f = 0; f <= n; ++f) {
        ak_clip_frame(c, sk, f % n, local);
        ak_fk(sk, local, world);
        for (int s = 0; s < 2; ++s) {
            /* The clip walks +Z: the hip passes over the ankle where their z difference turns
             * positive. */
            const float rel = world[leg[s][0]].translation.z - world[leg[s][2]].translation.z;
            if (f > 0 && st[s * n + f % n] && prev[s] < 0.0f && rel >= 0.0f) {
                const float flex = knee_flexion_deg(world, leg[s][0], leg[s][1], leg[s][2]);
                printf("%s knee at mid-stance: %.1f deg (law of cosines %.1f)\n",
                       s ? "right" : "left", (double)flex, (double)expected);
                assert_true(flex <= 25.0f);
                AKT_NEAR(flex, expected, 1.0);
                ++events;
            }
            prev[s] = rel;
        }
    }
    assert_int_equal(events, 2);
    free(local);
    free(st);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

static void walk_clip_params_are_validated(void **state)
{
    (void)state;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    ak_error err;
    wp.stride_length = 1.9f; /* the legs cannot reach half a stance this far */
    assert_int_equal(ak_walk_clip_validate(&wp, &err), AK_ERR_INVALID_ARG);
    wp = ak_walk_clip_defaults();
    wp.duty_factor = 0.4f;
    assert_int_equal(ak_walk_clip_validate(&wp, &err), AK_ERR_INVALID_ARG);
    wp = ak_walk_clip_defaults();
    wp.frame_rate = 30.0f;
    wp.stride_length = 1.0f;
    ak_skeleton *sk;
    ak_clip *c;
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &c, NULL), AK_OK);
    assert_int_equal(c->frame_count, 33);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

/* Reach: the weight fades in by distance at most fade_rate per second, the hand lands on the
 * point, and fades out again when the point is far, back to the animated pose exactly. */
static void reach_fades_in_puts_the_hand_on_the_point_and_fades_out(void **state)
{
    (void)state;
    ak_skeleton *sk;
    ak_clip *c;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &c, NULL), AK_OK);
    const int32_t J = sk->joint_count;
    ak_xform *anim = malloc(sizeof(ak_xform) * (size_t)J * 3), *local = anim + J,
             *world = anim + 2 * J;
    ak_pose_rest(sk, anim);
    ak_reach_params rp = ak_reach_defaults();
    rp.skeleton = sk;
    rp.upper = ak_skeleton_find(sk, "RightArm");
    rp.lower = ak_skeleton_find(sk, "RightForeArm");
    rp.hand = ak_skeleton_find(sk, "RightHand");
    ak_fk(sk, anim, world);
    const ak_vec3 shoulder = world[rp.upper].translation;
    rp.target = ak_vec3_add(shoulder, ak_vec3_make(-0.15f, -0.05f, 0.35f)); /* a button in front */
    rp.pole = ak_vec3_add(shoulder, ak_vec3_make(-0.3f, -0.4f, -0.3f));
    ak_reach_state rs = {0, 0, 0};
    const float dt = 1.0f / 60.0f;
    float prev_w = 0.0f;
    for (int f = 0; f < 60; ++f) {
        memcpy(local, anim, sizeof(ak_xform) * (size_t)J);
        ak_fk(sk, local, world);
        assert_int_equal(ak_reach_run(&rp, &rs, dt, local, world, NULL), AK_OK);
        assert_true(rs.weight - prev_w <= rp.fade_rate * dt + 1e-6f);
        prev_w = rs.weight;
    }
    AKT_NEAR(rs.weight, 1.0f, 0);
    assert_true(rs.error < 1e-3f);
    /* Far target: fades out to the animation. */
    rp.target = ak_vec3_add(shoulder, ak_vec3_make(0, 0, 3.0f));
    for (int f = 0; f < 60; ++f) {
        memcpy(local, anim, sizeof(ak_xform) * (size_t)J);
        ak_fk(sk, local, world);
        assert_int_equal(ak_reach_run(&rp, &rs, dt, local, world, NULL), AK_OK);
        assert_true(prev_w - rs.weight <= rp.fade_rate * dt + 1e-6f);
        prev_w = rs.weight;
    }
    AKT_NEAR(rs.weight, 0.0f, 0);
    for (int32_t j = 0; j < J; ++j)
        AKT_NEAR(ak_quat_dot(local[j].rotation, anim[j].rotation), 1.0f, 1e-6);
    free(anim);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtin_biped_maps_every_humanoid_slot),
        cmocka_unit_test(builtin_walk_stance_feet_stay_planted),
        cmocka_unit_test(builtin_walk_knees_are_nearly_straight_at_mid_stance),
        cmocka_unit_test(walk_clip_params_are_validated),
        cmocka_unit_test(reach_fades_in_puts_the_hand_on_the_point_and_fades_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
