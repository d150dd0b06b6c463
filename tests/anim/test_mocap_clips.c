/* Real mocap through the core: units detected from the standing height, humanoid map found
 * on every rig in the test set, sampled poses keep bone lengths and unit quaternions. */
#include "test_util.h"

typedef struct expect {
    const char *file;
    ak_units units;
    const char *left_foot, *right_lower_leg, *hips, *left_hand;
} expect;

static const expect k_files[] = {
    {"cmu_02_01_walk.bvh", AK_UNITS_CMU, "LeftFoot", "RightLeg", "Hips", "LeftHand"},
    {"cmu_07_01_walk.bvh", AK_UNITS_CMU, "LeftFoot", "RightLeg", "Hips", "LeftHand"},
    {"cmu_09_01_run.bvh", AK_UNITS_CMU, "LeftFoot", "RightLeg", "Hips", "LeftHand"},
    {"cmu_16_11_walk_veer_left.bvh", AK_UNITS_CMU, "LeftFoot", "RightLeg", "Hips", "LeftHand"},
    {"cmu_05_06_dance.bvh", AK_UNITS_CMU, "LeftFoot", "RightLeg", "Hips", "LeftHand"},
    {"arena_louise_stand_walk_cycle.bvh", AK_UNITS_CENTIMETRES, "LeftAnkle", "RightKnee", "Hips",
     "LeftWrist"},
    {"reactidle_003_genuine_idle.bvh", AK_UNITS_METRES, "foot.L", "shin.R", "pelvis", NULL},
};

static void load(const char *name, ak_skeleton **s, ak_clip **c)
{
    char path[1024];
    ak_error err;
    akt_mocap_path(name, path, sizeof path);
    if (ak_bvh_read_file(path, NULL, s, c, &err) != AK_OK)
        fail_msg("%s:%d: %s", name, err.line, err.message);
}

static void units_and_humanoid_found_on_every_shared_file(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof k_files / sizeof k_files[0]; ++i) {
        const expect *e = &k_files[i];
        ak_skeleton *s;
        ak_clip *c;
        load(e->file, &s, &c);
        float h = ak_clip_standing_height(c, s);
        float mpu = 0;
        ak_units u = ak_units_detect(h, &mpu);
        print_message("%-36s standing height %8.3f -> %s, %.3f m\n", e->file, h, ak_units_name(u),
                      h * mpu);
        assert_int_equal(u, e->units);
        /* joint positions span head joint to ankle/toe: about 0.8 of a person's stature */
        assert_true(h * mpu > 1.2f && h * mpu < 2.1f);
        ak_humanoid hm;
        ak_error err;
        if (ak_humanoid_find(s, NULL, &hm, &err) != AK_OK) fail_msg("%s: %s", e->file, err.message);
        assert_string_equal(s->names[hm.joint[AK_HUM_LEFT_FOOT]], e->left_foot);
        assert_string_equal(s->names[hm.joint[AK_HUM_RIGHT_LOWER_LEG]], e->right_lower_leg);
        assert_string_equal(s->names[hm.joint[AK_HUM_HIPS]], e->hips);
        if (e->left_hand) assert_string_equal(s->names[hm.joint[AK_HUM_LEFT_HAND]], e->left_hand);
        ak_clip_destroy(c);
        ak_skeleton_destroy(s);
    }
}

/* Sampling between keys of real data (every interpolation mode, wrap-around angles of the
 * dance clip included) keeps bones at their rest lengths and quaternions unit. */
static void sampled_mocap_keeps_bone_lengths(void **state)
{
    (void)state;
    const char *files[] = {"cmu_05_06_dance.bvh", "arena_louise_stand_walk_cycle.bvh",
                           "reactidle_003_genuine_idle.bvh"};
    for (size_t i = 0; i < 3; ++i) {
        ak_skeleton *s;
        ak_clip *c;
        load(files[i], &s, &c);
        const int n = s->joint_count;
        ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n),
                 *world = malloc(sizeof(ak_xform) * (size_t)n);
        float height = ak_skeleton_rest_height(s);
        double worst = 0;
        for (int interp = 0; interp < 3; ++interp) {
            for (int k = 0; k < 40; ++k) {
                float t = ak_clip_duration(c) * ((float)k + 0.37f) / 40.0f;
                ak_clip_sample(c, s, t, (ak_interp)interp, local);
                ak_fk(s, local, world);
                for (int j = 0; j < n; ++j) {
                    ak_quat q = world[j].rotation;
                    AKT_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1.0f, 1e-5f);
                    int p = s->parents[j];
                    /* joints with position channels have animated offsets: skip those */
                    if (p < 0 || c->joint_track[j] >= 0) continue;
                    float len =
                        ak_vec3_length(ak_vec3_sub(world[j].translation, world[p].translation));
                    double e = fabs(len - s->bone_lengths[j]) / height;
                    if (e > worst) worst = e;
                }
            }
        }
        print_message("%-36s worst bone length error %.2g of height\n", files[i], worst);
        assert_true(worst < 1e-5);
        free(local);
        free(world);
        ak_clip_destroy(c);
        ak_skeleton_destroy(s);
    }
}

/* The batched path on real data: ReActIdle has position channels on 18 joints, so every
 * translation track goes through the wide paths too. */
static void batch_matches_single_on_mocap(void **state)
{
    (void)state;
    const char *files[] = {"reactidle_003_genuine_idle.bvh", "cmu_05_06_dance.bvh"};
    for (size_t f = 0; f < 2; ++f) {
        ak_skeleton *s;
        ak_clip *c;
        load(files[f], &s, &c);
        c->loop = 1;
        const int n = s->joint_count, count = 21;
        float times[21];
        for (int i = 0; i < count; ++i)
            times[i] = ak_clip_duration(c) * (float)i / 20.3f;
        ak_xform *world = malloc(sizeof(ak_xform) * (size_t)n * (size_t)count);
        ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n),
                 *ref = malloc(sizeof(ak_xform) * (size_t)n);
        /* Cubic: the batch runs on prepared control points (four-joint SSE SQUAD); the
         * reference is an unprepared copy (scalar SQUAD, points computed per sample). */
        ak_clip *plain = ak_clip_clone(c);
        assert_int_equal(ak_clip_prepare_cubic(c), AK_OK);
        const float h = ak_skeleton_rest_height(s);
        for (int interp = AK_INTERP_LINEAR; interp <= AK_INTERP_CUBIC; interp += 1) {
            ak_clip_sample_fk_batch(c, s, times, count, (ak_interp)interp, world);
            for (int i = 0; i < count; ++i) {
                ak_clip_sample(plain, s, times[i], (ak_interp)interp, local);
                ak_fk(s, local, ref);
                for (int j = 0; j < n; ++j) {
                    const ak_vec3 a = world[(size_t)i * (size_t)n + (size_t)j].translation,
                                  b = ref[j].translation;
                    AKT_NEAR(ak_vec3_length(ak_vec3_sub(a, b)) / h, 0.0f, 2e-6f);
                }
            }
        }
        ak_clip_destroy(plain);
        free(world);
        free(local);
        free(ref);
        ak_clip_destroy(c);
        ak_skeleton_destroy(s);
    }
}

/* Scaling skeleton + clip to metres scales every world position by the same factor. */
static void scaling_to_metres_scales_world_positions(void **state)
{
    (void)state;
    ak_skeleton *s;
    ak_clip *c;
    load("cmu_09_01_run.bvh", &s, &c);
    const int n = s->joint_count;
    ak_xform *a = malloc(sizeof(ak_xform) * (size_t)n * 2),
             *b = malloc(sizeof(ak_xform) * (size_t)n * 2);
    ak_clip_sample(c, s, 0.31f, AK_INTERP_LINEAR, a);
    ak_fk(s, a, a + n);
    const float k = 0.056444f;
    ak_skeleton_scale(s, k);
    ak_clip_scale(c, k);
    ak_clip_sample(c, s, 0.31f, AK_INTERP_LINEAR, b);
    ak_fk(s, b, b + n);
    for (int j = 0; j < n; ++j) {
        AKT_NEAR(b[n + j].translation.x, a[n + j].translation.x * k, 1e-5f);
        AKT_NEAR(b[n + j].translation.y, a[n + j].translation.y * k, 1e-5f);
        AKT_NEAR(b[n + j].translation.z, a[n + j].translation.z * k, 1e-5f);
        if (j > 0)
            AKT_NEAR(s->bone_lengths[j], ak_vec3_length(s->rest_local[j].translation), 1e-6f);
    }
    free(a);
    free(b);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(units_and_humanoid_found_on_every_shared_file),
        cmocka_unit_test(sampled_mocap_keeps_bone_lengths),
        cmocka_unit_test(scaling_to_metres_scales_world_positions),
        cmocka_unit_test(batch_matches_single_on_mocap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
