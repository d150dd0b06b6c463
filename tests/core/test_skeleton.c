/* Skeleton construction, FK invariants, humanoid map and unit detection. */
#include "test_util.h"

/* A random tree of n joints in depth-first order: parent of j is a random earlier joint on
 * the current root-to-j path, so subtrees stay contiguous. */
static ak_skeleton *random_skeleton(akt_rng *rng, int n)
{
    char names[64][16];
    const char *name_ptrs[64];
    int32_t parents[64];
    ak_xform rest[64];
    int32_t stack[64];
    int depth = 0;
    for (int j = 0; j < n; ++j) {
        snprintf(names[j], sizeof names[j], "j%d", j);
        name_ptrs[j] = names[j];
        if (j == 0) {
            parents[j] = -1;
            stack[depth++] = 0;
        } else {
            int pop = (int)(akt_next(rng) % (uint64_t)depth);
            depth -= pop;
            if (depth < 1) depth = 1;
            parents[j] = stack[depth - 1];
            stack[depth++] = j;
        }
        rest[j].rotation = akt_random_quat(rng);
        rest[j].translation =
            ak_vec3_make(akt_uniform(rng, -1, 1), akt_uniform(rng, -1, 1), akt_uniform(rng, -1, 1));
    }
    ak_skeleton_desc d = {n, name_ptrs, parents, rest, NULL, NULL};
    ak_skeleton *s = NULL;
    ak_error err;
    assert_int_equal(ak_skeleton_create(&d, &s, &err), AK_OK);
    return s;
}

static float dist(ak_vec3 a, ak_vec3 b)
{
    return ak_vec3_length(ak_vec3_sub(a, b));
}

static void fk_keeps_bone_lengths_under_any_rotation(void **state)
{
    (void)state;
    akt_rng rng = {42};
    ak_xform local[64], world[64];
    for (int trial = 0; trial < 200; ++trial) {
        int n = 2 + (int)(akt_next(&rng) % 60);
        ak_skeleton *s = random_skeleton(&rng, n);
        ak_pose_rest(s, local);
        for (int j = 0; j < n; ++j)
            local[j].rotation = akt_random_quat(&rng);
        ak_fk(s, local, world);
        for (int j = 1; j < n; ++j) {
            float len = dist(world[j].translation, world[s->parents[j]].translation);
            AKT_NEAR(len, s->bone_lengths[j], 1e-5f * (1.0f + s->bone_lengths[j]) * 4);
            AKT_NEAR(ak_quat_dot(world[j].rotation, world[j].rotation), 1.0f, 1e-5f);
        }
        ak_skeleton_destroy(s);
    }
}

static void fk_subtree_matches_full_fk(void **state)
{
    (void)state;
    akt_rng rng = {5};
    ak_xform local[64], world[64], full[64];
    for (int trial = 0; trial < 100; ++trial) {
        int n = 3 + (int)(akt_next(&rng) % 50);
        ak_skeleton *s = random_skeleton(&rng, n);
        ak_pose_rest(s, local);
        ak_fk(s, local, world);
        int j = (int)(akt_next(&rng) % (uint64_t)n);
        local[j].rotation = akt_random_quat(&rng);
        ak_fk_subtree(s, local, world, j);
        ak_fk(s, local, full);
        for (int k = 0; k < n; ++k) {
            AKT_NEAR(world[k].translation.x, full[k].translation.x, 1e-6f);
            AKT_NEAR(world[k].translation.y, full[k].translation.y, 1e-6f);
            AKT_NEAR(world[k].translation.z, full[k].translation.z, 1e-6f);
        }
        /* subtree ranges: every joint in [j, end) descends from j */
        for (int k = j + 1; k < s->subtree_end[j]; ++k) {
            int a = k;
            while (a > j)
                a = s->parents[a];
            assert_int_equal(a, j);
        }
        ak_skeleton_destroy(s);
    }
}

static void clone_is_deep_and_equal(void **state)
{
    (void)state;
    akt_rng rng = {77};
    ak_skeleton *s = random_skeleton(&rng, 20), *c = NULL;
    assert_int_equal(ak_skeleton_clone(s, &c, NULL), AK_OK);
    assert_int_equal(c->joint_count, 20);
    for (int j = 0; j < 20; ++j) {
        assert_string_equal(c->names[j], s->names[j]);
        assert_int_equal(c->parents[j], s->parents[j]);
        assert_int_equal(c->subtree_end[j], s->subtree_end[j]);
        assert_memory_equal(&c->rest_local[j], &s->rest_local[j], sizeof(ak_xform));
    }
    ak_skeleton_scale(c, 2.0f);
    AKT_NEAR(c->bone_lengths[5], 2.0f * s->bone_lengths[5], 1e-6f);
    ak_skeleton_destroy(s);
    ak_skeleton_destroy(c);
    assert_int_equal(ak_skeleton_clone(NULL, &c, NULL), AK_ERR_INVALID_ARG);
}

static void skeleton_rejects_bad_descriptions(void **state)
{
    (void)state;
    const char *names[3] = {"a", "b", "c"};
    ak_xform rest[3] = {ak_xform_identity(), ak_xform_identity(), ak_xform_identity()};
    int32_t bad_parent[3] = {-1, 2, 0};
    ak_skeleton_desc d = {3, names, bad_parent, rest, NULL, NULL};
    ak_skeleton *s = (ak_skeleton *)1;
    ak_error err;
    assert_int_equal(ak_skeleton_create(&d, &s, &err), AK_ERR_INVALID_ARG);
    assert_null(s);
    assert_non_null(strstr(err.message, "parent"));
    /* not depth-first: c's parent is a, but b (a's other child) sits between... fine; make
     * a subtree non-contiguous: a -> b, a -> c, b -> d placed after c */
    const char *names4[4] = {"a", "b", "c", "d"};
    ak_xform rest4[4] = {ak_xform_identity(), ak_xform_identity(), ak_xform_identity(),
                         ak_xform_identity()};
    int32_t p4[4] = {-1, 0, 0, 1};
    ak_skeleton_desc d4 = {4, names4, p4, rest4, NULL, NULL};
    assert_int_equal(ak_skeleton_create(&d4, &s, &err), AK_ERR_INVALID_ARG);
    const char *empty[1] = {""};
    ak_skeleton_desc d1 = {1, empty, bad_parent, rest, NULL, NULL};
    assert_int_equal(ak_skeleton_create(&d1, &s, &err), AK_ERR_INVALID_ARG);
    d.joint_count = 0;
    assert_int_equal(ak_skeleton_create(&d, &s, &err), AK_ERR_INVALID_ARG);
}

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fk_keeps_bone_lengths_under_any_rotation),
        cmocka_unit_test(fk_subtree_matches_full_fk),
        cmocka_unit_test(skeleton_rejects_bad_descriptions),
        cmocka_unit_test(clone_is_deep_and_equal),
        cmocka_unit_test(humanoid_map_finds_common_rigs),
        cmocka_unit_test(units_detected_from_height),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
