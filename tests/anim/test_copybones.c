/* Bones that copy a foot or a hand (ak_copy_bones): the UE4 mannequin's ik_foot_l/r and
 * ik_hand_gun, ik_hand_r/l found on CMU 02_01 in the UE4 shape (studio_variants.h) and on its
 * rest pose, nothing on the original; a bone within 1 % of the body's height of its foot in
 * every frame copies it, one 2 % away in one frame does not; a pose whose feet and hands moved
 * gets its copies back on them, and a clip whose copies have no translation track gains one. */
#include "test_util.h"

#include "locomotion/studio_variants.h"

static const char *const k_copies[5][2] = {{"ik_foot_l", "LeftFoot"},
                                           {"ik_foot_r", "RightFoot"},
                                           {"ik_hand_gun", "RightHand"},
                                           {"ik_hand_r", "RightHand"},
                                           {"ik_hand_l", "LeftHand"}};

/* The five copies, each on its joint, in joint order (ik_hand_gun before ik_hand_r, ik_hand_l
 * below it). */
static void expect_the_ue4_copies(const ak_skeleton *s, const ak_copy_bones *b, double height)
{
    assert_int_equal(b->count, 5);
    for (int k = 0; k < 5; ++k) {
        const int32_t bone = ak_skeleton_find(s, k_copies[k][0]);
        int found = 0;
        for (int32_t i = 0; i < b->count; ++i)
            if (b->bone[i] == bone) {
                found = 1;
                assert_int_equal(b->target[i], ak_skeleton_find(s, k_copies[k][1]));
                /* the generator keys each on its joint: rounding of the BVH text only */
                assert_true(b->distance[i] <= 1e-5 * height);
                AKT_NEAR(b->offset[i].translation.x, 0.0, 1e-5 * height);
                AKT_NEAR(fabs(b->offset[i].rotation.w), 1.0, 1e-5);
            }
        if (!found) fail_msg("%s not found as a copy", k_copies[k][0]);
    }
    for (int32_t i = 1; i < b->count; ++i)
        assert_true(b->bone[i] > b->bone[i - 1]);
    /* the ik roots on the floor are no copies */
    for (int32_t i = 0; i < b->count; ++i) {
        assert_int_not_equal(b->bone[i], ak_skeleton_find(s, "ik_foot_root"));
        assert_int_not_equal(b->bone[i], ak_skeleton_find(s, "ik_hand_root"));
    }
}

/* CMU 02_01 in the UE4 shape, its copy bones found; the standing height. */
static double ue4_copies(ak_skeleton **s, ak_clip **c, ak_copy_bones *b)
{
    ak_error err;
    akv_make("cmu_02_01_walk.bvh", AKV_GROUND_ROOT | AKV_IK_BONES, s, c);
    assert_int_equal(ak_copy_bones_find(*s, *c, b, &err), AK_OK);
    return ak_clip_standing_height(*c, *s);
}

static void the_ue4_shape_s_ik_bones_are_copies(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    ak_copy_bones b;
    const double height = ue4_copies(&s, &c, &b);
    expect_the_ue4_copies(s, &b, height);
    /* a rig without motion: the rest pose has them on their joints too */
    assert_int_equal(ak_copy_bones_find(s, NULL, &b, &err), AK_OK);
    expect_the_ue4_copies(s, &b, height);
    ak_copy_bones_scale(&b, 0.5f);
    assert_true(b.distance[0] <= 0.5e-5 * height);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    /* the original and its floor-root shape have none */
    const unsigned none[2] = {0u, AKV_GROUND_ROOT};
    for (int k = 0; k < 2; ++k) {
        akv_make("cmu_02_01_walk.bvh", none[k], &s, &c);
        assert_int_equal(ak_copy_bones_find(s, c, &b, &err), AK_OK);
        assert_int_equal(b.count, 0);
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
    assert_int_equal(ak_copy_bones_find(NULL, NULL, &b, &err), AK_ERR_INVALID_ARG);
}

/* ik_foot_l moved away from the left foot in one frame (frame 100) along +X by `fraction` of
 * the standing height: 0.5 % still copies it, 2 % does not (the bound: 1 %). */
static void a_bone_that_leaves_its_foot_is_no_copy(void **state)
{
    (void)state;
    const double fraction[2] = {0.005, 0.02};
    for (int k = 0; k < 2; ++k) {
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        ak_error err;
        akv_make("cmu_02_01_walk.bvh", AKV_GROUND_ROOT | AKV_IK_BONES, &s, &c);
        const float height = ak_clip_standing_height(c, s);
        const int32_t bone = ak_skeleton_find(s, "ik_foot_l");
        assert_true(c->joint_track[bone] >= 0);
        /* its parent ik_foot_root has no turn: the local +X is the model's */
        c->translations[(size_t)100 * c->track_count + c->joint_track[bone]].x +=
            (float)fraction[k] * height;
        ak_copy_bones b;
        assert_int_equal(ak_copy_bones_find(s, c, &b, &err), AK_OK);
        int found = 0;
        for (int32_t i = 0; i < b.count; ++i)
            if (b.bone[i] == bone) {
                found = 1;
                AKT_NEAR(b.distance[i], fraction[k] * height, 1e-4 * height);
            }
        assert_int_equal(found, k == 0);
        assert_int_equal(b.count, k == 0 ? 5 : 4);
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
}

/* A pose whose left leg and right arm turned (what foot IK or a retarget does to the body):
 * the copies left where they were, 10-50 cm off; after ak_copy_bones_apply each is on its
 * joint again (position and rotation), and every other joint's transforms are untouched. The
 * clip form does the same on every frame, and gives a copy without a translation track one. */
static void copies_are_put_back_on_moved_feet_and_hands(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    ak_copy_bones b;
    const double height = ue4_copies(&s, &c, &b);
    const int32_t J = s->joint_count;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 3);
    ak_xform *model = local + J, *before = local + 2 * J;
    ak_clip_frame(c, s, 150, local);
    const int32_t thigh = ak_skeleton_find(s, "LeftUpLeg"), arm = ak_skeleton_find(s, "RightArm");
    assert_true(thigh > 0 && arm > 0);
    const ak_quat turn = ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), 0.6f);
    local[thigh].rotation = ak_quat_mul(turn, local[thigh].rotation);
    local[arm].rotation = ak_quat_mul(turn, local[arm].rotation);
    ak_fk(s, local, model);
    memcpy(before, local, sizeof(ak_xform) * (size_t)J);
    const int32_t foot = ak_skeleton_find(s, "LeftFoot"), ik = ak_skeleton_find(s, "ik_foot_l");
    const double off = ak_vec3_length(ak_vec3_sub(model[ik].translation, model[foot].translation));
    printf("ik_foot_l %.3f of the height off its foot before\n", off / height);
    assert_true(off > 0.05 * height);
    ak_copy_bones_apply(s, &b, local, model);
    for (int k = 0; k < 5; ++k) {
        const int32_t bj = ak_skeleton_find(s, k_copies[k][0]);
        const int32_t tj = ak_skeleton_find(s, k_copies[k][1]);
        AKT_NEAR(ak_vec3_length(ak_vec3_sub(model[bj].translation, model[tj].translation)), 0.0,
                 1e-5 * height);
        AKT_NEAR(fabs(ak_quat_dot(model[bj].rotation, model[tj].rotation)), 1.0, 1e-5);
    }
    /* the model transforms agree with the locals, and no other local changed */
    ak_xform *check = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    ak_fk(s, local, check);
    int copies = 0;
    for (int32_t j = 0; j < J; ++j) {
        AKT_NEAR(ak_vec3_length(ak_vec3_sub(check[j].translation, model[j].translation)), 0.0,
                 1e-5 * height);
        int is_copy = 0;
        for (int32_t i = 0; i < b.count; ++i)
            is_copy |= b.bone[i] == j;
        copies += is_copy;
        if (!is_copy) assert_memory_equal(&local[j], &before[j], sizeof(ak_xform));
    }
    assert_int_equal(copies, 5);
    free(check);
    free(local);
    /* the clip form, on a clip whose copies lost their translation tracks (rest offsets) */
    uint8_t *has = (uint8_t *)malloc((size_t)J);
    for (int32_t j = 0; j < J; ++j)
        has[j] = c->joint_track[j] >= 0 && strncmp(s->names[j], "ik_", 3) != 0;
    ak_clip *bare = NULL;
    assert_int_equal(ak_clip_create(J, c->frame_count, c->frame_time, has, &bare, &err), AK_OK);
    for (int32_t f = 0; f < c->frame_count; ++f)
        for (int32_t j = 0; j < J; ++j) {
            bare->rotations[(size_t)f * J + j] = c->rotations[(size_t)f * J + j];
            if (bare->joint_track[j] >= 0)
                bare->translations[(size_t)f * bare->track_count + bare->joint_track[j]] =
                    c->translations[(size_t)f * c->track_count + c->joint_track[j]];
        }
    ak_clip_finalize(bare);
    const double apart = akv_ik_bones_apart(s, bare);
    printf("without their tracks the copies are %.2f of the height off\n", apart / height);
    assert_true(apart > 0.1 * height);
    assert_int_equal(ak_clip_copy_bones_apply(s, &b, &bare, &err), AK_OK);
    assert_true(akv_ik_bones_apart(s, bare) <= 1e-5 * height);
    for (int32_t i = 0; i < b.count; ++i)
        assert_true(bare->joint_track[b.bone[i]] >= 0);
    free(has);
    ak_clip_destroy(bare);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_ue4_shape_s_ik_bones_are_copies),
        cmocka_unit_test(a_bone_that_leaves_its_foot_is_no_copy),
        cmocka_unit_test(copies_are_put_back_on_moved_feet_and_hands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
