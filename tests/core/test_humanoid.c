/* The humanoid map and units (src/core/humanoid.c): bad arguments and overrides refused with
 * a reason; the name matcher on CMU, Arena, Rigify, Mixamo and prefixed rigs; units from a
 * standing height at each class's worked numbers, names and scales round trip. */
#include "test_util.h"

/* Builds a skeleton from names only (a chain per limb) to exercise the name matcher. */
typedef struct named_joint {
    const char *name;
    int parent;
} named_joint;
static ak_skeleton *named_skeleton(const named_joint *j, int n)
{
    const char *names[64];
    int32_t parents[64];
    ak_xform rest[64];
    for (int i = 0; i < n; ++i) {
        names[i] = j[i].name;
        parents[i] = j[i].parent;
        rest[i] = ak_xform_identity();
        rest[i].translation.y = 0.1f;
    }
    ak_skeleton_desc d = {n, names, parents, rest, NULL, NULL};
    ak_skeleton *s = NULL;
    assert_int_equal(ak_skeleton_create(&d, &s, NULL), AK_OK);
    return s;
}

static void check_slot(const ak_skeleton *s, const ak_humanoid *h, int slot, const char *name)
{
    if (!name) {
        assert_int_equal(h->joint[slot], -1);
        return;
    }
    if (h->joint[slot] < 0)
        fail_msg("slot %s not found, expected %s", ak_humanoid_slot_name(slot), name);
    assert_string_equal(s->names[h->joint[slot]], name);
}

static void humanoid_arguments_validity(void **state)
{
    (void)state;
    const named_joint legs[] = {{"Hips", -1},    {"LeftUpLeg", 0},  {"LeftLeg", 1},
                                {"LeftFoot", 2}, {"RightUpLeg", 0}, {"RightLeg", 4},
                                {"RightFoot", 5}};
    ak_skeleton *s = named_skeleton(legs, 7);
    ak_humanoid h;
    ak_error err;
    assert_int_equal(ak_humanoid_find(NULL, NULL, &h, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_humanoid_find(s, NULL, NULL, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_humanoid_find(s, NULL, &h, &err), AK_OK);
    /* overrides: an unknown slot, a missing '=', an unknown joint, each named */
    assert_int_equal(ak_humanoid_find(s, "elbow_thing=LeftLeg", &h, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "elbow_thing"));
    assert_int_equal(ak_humanoid_find(s, "left_foot", &h, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_humanoid_find(s, "left_foot=Nope", &h, &err), AK_ERR_NOT_FOUND);
    assert_non_null(strstr(err.message, "Nope"));
    /* slot names: every slot has one, out of range is NULL-safe */
    for (int32_t i = 0; i < AK_HUM_SLOT_COUNT; ++i) {
        assert_non_null(ak_humanoid_slot_name(i));
        assert_true(strlen(ak_humanoid_slot_name(i)) > 0);
    }
    assert_string_equal(ak_humanoid_slot_name(AK_HUM_LEFT_FOOT), "left_foot");
    assert_string_equal(ak_humanoid_slot_name(AK_HUM_SLOT_COUNT), "unknown");
    assert_string_equal(ak_humanoid_slot_name(-1), "unknown");
    /* units: a height that fits no unit's span (NaN, <= 0, huge, between spans) answers
     * metres, as documented; NULL for the scale is allowed */
    const float heights[] = {0.0f, -1.75f, NAN, INFINITY, 1e9f, 500.0f};
    for (size_t i = 0; i < sizeof heights / sizeof heights[0]; ++i) {
        float mpu = 7.0f;
        assert_int_equal(ak_units_detect(heights[i], &mpu), AK_UNITS_METRES);
        AKT_NEAR(mpu, 1.0f, 0.0);
    }
    assert_int_equal(ak_units_detect(31.0f, NULL), AK_UNITS_CMU);
    ak_skeleton_destroy(s);
}

static void humanoid_map_finds_common_rigs(void **state)
{
    (void)state;
    ak_humanoid h;
    ak_error err;
    /* CMU (cgspeed): LHipJoint is not the thigh; LeftShoulder is the clavicle. */
    const named_joint cmu[] = {
        {"Hips", -1},     {"LHipJoint", 0},     {"LeftUpLeg", 1},    {"LeftLeg", 2},
        {"LeftFoot", 3},  {"LeftToeBase", 4},   {"RHipJoint", 0},    {"RightUpLeg", 6},
        {"RightLeg", 7},  {"RightFoot", 8},     {"RightToeBase", 9}, {"LowerBack", 0},
        {"Spine", 11},    {"Spine1", 12},       {"Neck", 13},        {"Neck1", 14},
        {"Head", 15},     {"LeftShoulder", 13}, {"LeftArm", 17},     {"LeftForeArm", 18},
        {"LeftHand", 19}, {"LThumb", 20}};
    ak_skeleton *s = named_skeleton(cmu, (int)(sizeof cmu / sizeof cmu[0]));
    assert_int_equal(ak_humanoid_find(s, NULL, &h, &err), AK_OK);
    check_slot(s, &h, AK_HUM_HIPS, "Hips");
    check_slot(s, &h, AK_HUM_LEFT_UPPER_LEG, "LeftUpLeg");
    check_slot(s, &h, AK_HUM_LEFT_LOWER_LEG, "LeftLeg");
    check_slot(s, &h, AK_HUM_LEFT_FOOT, "LeftFoot");
    check_slot(s, &h, AK_HUM_RIGHT_TOE, "RightToeBase");
    check_slot(s, &h, AK_HUM_LEFT_SHOULDER, "LeftShoulder");
    check_slot(s, &h, AK_HUM_LEFT_UPPER_ARM, "LeftArm");
    check_slot(s, &h, AK_HUM_LEFT_LOWER_ARM, "LeftForeArm");
    check_slot(s, &h, AK_HUM_LEFT_HAND, "LeftHand");
    check_slot(s, &h, AK_HUM_HEAD, "Head");
    check_slot(s, &h, AK_HUM_SPINE, "Spine");
    check_slot(s, &h, AK_HUM_RIGHT_HAND, NULL);
    ak_skeleton_destroy(s);

    /* OptiTrack Arena / 3ds Max style: LeftCollar is the clavicle, LeftShoulder the arm. */
    const named_joint arena[] = {{"Hips", -1},      {"Chest", 0},      {"Neck", 1},
                                 {"Head", 2},       {"LeftCollar", 1}, {"LeftShoulder", 4},
                                 {"LeftElbow", 5},  {"LeftWrist", 6},  {"LeftHip", 0},
                                 {"LeftKnee", 8},   {"LeftAnkle", 9},  {"RightHip", 0},
                                 {"RightKnee", 11}, {"RightAnkle", 12}};
    s = named_skeleton(arena, (int)(sizeof arena / sizeof arena[0]));
    assert_int_equal(ak_humanoid_find(s, NULL, &h, &err), AK_OK);
    check_slot(s, &h, AK_HUM_LEFT_SHOULDER, "LeftCollar");
    check_slot(s, &h, AK_HUM_LEFT_UPPER_ARM, "LeftShoulder");
    check_slot(s, &h, AK_HUM_LEFT_LOWER_ARM, "LeftElbow");
    check_slot(s, &h, AK_HUM_LEFT_HAND, "LeftWrist");
    check_slot(s, &h, AK_HUM_LEFT_UPPER_LEG, "LeftHip");
    check_slot(s, &h, AK_HUM_RIGHT_FOOT, "RightAnkle");
    check_slot(s, &h, AK_HUM_CHEST, "Chest");
    ak_skeleton_destroy(s);

    /* Blender / Rigify with dotted sides; Mixamo with a namespace. */
    const named_joint rigify[] = {
        {"pelvis", -1},    {"spine", 0},       {"spine.001", 1}, {"neck", 2},     {"face", 3},
        {"shoulder.L", 2}, {"upper_arm.L", 5}, {"forearm.L", 6}, {"pelvis.L", 0}, {"thigh.L", 0},
        {"shin.L", 9},     {"foot.L", 10},     {"thigh.R", 0},   {"shin.R", 12},  {"foot.R", 13}};
    s = named_skeleton(rigify, (int)(sizeof rigify / sizeof rigify[0]));
    assert_int_equal(ak_humanoid_find(s, NULL, &h, &err), AK_OK);
    check_slot(s, &h, AK_HUM_HIPS, "pelvis");
    check_slot(s, &h, AK_HUM_LEFT_UPPER_LEG, "thigh.L");
    check_slot(s, &h, AK_HUM_RIGHT_LOWER_LEG, "shin.R");
    check_slot(s, &h, AK_HUM_HEAD, "face");
    check_slot(s, &h, AK_HUM_CHEST, "spine.001");
    check_slot(s, &h, AK_HUM_LEFT_UPPER_ARM, "upper_arm.L");
    ak_skeleton_destroy(s);

    const named_joint mixamo[] = {{"mixamorig:Hips", -1},      {"mixamorig:LeftUpLeg", 0},
                                  {"mixamorig:LeftLeg", 1},    {"mixamorig:LeftFoot", 2},
                                  {"mixamorig:RightUpLeg", 0}, {"mixamorig:RightLeg", 4},
                                  {"mixamorig:RightFoot", 5}};
    s = named_skeleton(mixamo, (int)(sizeof mixamo / sizeof mixamo[0]));
    assert_int_equal(ak_humanoid_find(s, NULL, &h, &err), AK_OK);
    check_slot(s, &h, AK_HUM_RIGHT_FOOT, "mixamorig:RightFoot");
    ak_skeleton_destroy(s);

    /* Lower-case with l_/r_ prefixes, and a missing leg reported by name; then an override. */
    const named_joint odd[] = {{"root", -1},   {"l_thigh", 0}, {"l_calf", 1}, {"l_foot", 2},
                               {"r_thigh", 0}, {"r_calf", 4},  {"r_paw", 5}};
    s = named_skeleton(odd, (int)(sizeof odd / sizeof odd[0]));
    assert_int_equal(ak_humanoid_find(s, NULL, &h, &err), AK_ERR_NOT_FOUND);
    assert_non_null(strstr(err.message, "right_foot"));
    check_slot(s, &h, AK_HUM_LEFT_LOWER_LEG, "l_calf");
    assert_int_equal(ak_humanoid_find(s, "right_foot=r_paw", &h, &err), AK_OK);
    check_slot(s, &h, AK_HUM_RIGHT_FOOT, "r_paw");
    assert_int_equal(ak_humanoid_find(s, "right_foot=nope", &h, &err), AK_ERR_NOT_FOUND);
    assert_int_equal(ak_humanoid_find(s, "elbow_thing=r_paw", &h, &err), AK_ERR_INVALID_ARG);
    ak_skeleton_destroy(s);
}

static void units_detected_from_height(void **state)
{
    (void)state;
    float mpu = 0;
    assert_int_equal(ak_units_detect(1.75f, &mpu), AK_UNITS_METRES);
    AKT_NEAR(mpu, 1.0f, 0.0f);
    assert_int_equal(ak_units_detect(31.0f, &mpu), AK_UNITS_CMU); /* CMU: ~31 units = 1.75 m */
    AKT_NEAR(mpu, 0.056444f, 1e-7f);
    assert_int_equal(ak_units_detect(165.0f, &mpu), AK_UNITS_CENTIMETRES);
    assert_int_equal(ak_units_detect(68.0f, &mpu), AK_UNITS_INCHES);
    assert_int_equal(ak_units_detect(1700.0f, &mpu), AK_UNITS_MILLIMETRES);
    assert_string_equal(ak_units_name(AK_UNITS_CMU), "cmu");
}

/* Each class's scale and name round trip: metres_per_unit(detect(h)) is what detect wrote. */
static void units_names_and_scales_round_trip(void **state)
{
    (void)state;
    const float heights[] = {1.75f, 31.0f, 165.0f, 68.0f, 1700.0f};
    for (size_t i = 0; i < sizeof heights / sizeof heights[0]; ++i) {
        float mpu = 0.0f;
        const ak_units u = ak_units_detect(heights[i], &mpu);
        AKT_NEAR(ak_units_metres_per_unit(u), mpu, 0.0);
        /* the detected height in metres is a person's: 1.5 .. 2.1 m */
        assert_true(heights[i] * mpu > 1.5f && heights[i] * mpu < 2.1f);
        assert_non_null(ak_units_name(u));
    }
    const ak_units all[] = {AK_UNITS_METRES, AK_UNITS_CENTIMETRES, AK_UNITS_CMU, AK_UNITS_INCHES,
                            AK_UNITS_MILLIMETRES};
    const char *const names[] = {"metres", "centimetres", "cmu", "inches", "millimetres"};
    for (size_t i = 0; i < 5; ++i) {
        assert_string_equal(ak_units_name(all[i]), names[i]);
        /* the class's own span holds 1.75 m in its units */
        float mpu = 0.0f;
        assert_int_equal(ak_units_detect(1.75f / ak_units_metres_per_unit(all[i]), &mpu), all[i]);
    }
    AKT_NEAR(ak_units_metres_per_unit(AK_UNITS_CENTIMETRES), 0.01f, 0.0);
    AKT_NEAR(ak_units_metres_per_unit(AK_UNITS_INCHES), 0.0254f, 1e-9);
    AKT_NEAR(ak_units_metres_per_unit(AK_UNITS_MILLIMETRES), 0.001f, 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(humanoid_arguments_validity),
        cmocka_unit_test(humanoid_map_finds_common_rigs),
        cmocka_unit_test(units_detected_from_height),
        cmocka_unit_test(units_names_and_scales_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
