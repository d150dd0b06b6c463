/* Which pose of a rig stands (src/anim/standing.c), the measure the retargeter's reference pose
 * and the generated body share: CMU's zero pose stands and is kept; the same capture with its
 * zero pose turned so every bone lies along X does not, and the clip's most upright frame is
 * picked instead (never the T-pose frame 0); that frame's feet set flat have their flat-stance
 * up axes vertical and point along the pose's facing. */
#include "test_util.h"
#include "locomotion/studio_variants.h"

#include "anim/standing_internal.h"

/* Model pose of frame f (f < 0: the zero pose) into model; local is scratch. */
static void pose_of(const ak_skeleton *s, const ak_clip *c, int32_t f, ak_xform *local,
                    ak_xform *model)
{
    if (f < 0)
        ak_pose_rest(s, local);
    else
        ak_clip_frame(c, s, f, local);
    ak_fk(s, local, model);
}

static void the_zero_pose_is_kept_when_it_stands(void **state)
{
    (void)state;
    char path[1024];
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    assert_int_equal(
        ak_bvh_read_file(akt_mocap_path("locomotion/cmu_02_02_walk.bvh", path, sizeof path), NULL,
                         &s, &c, NULL),
        AK_OK);
    ak_humanoid map;
    assert_int_equal(ak_humanoid_find(s, NULL, &map, NULL), AK_OK);
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)s->joint_count),
             *model = malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    pose_of(s, c, -1, local, model);
    const float zero = ak_pose_uprightness(&map, model);
    print_message("CMU 02_02 zero pose: uprightness %.4f\n", (double)zero);
    assert_true(zero >= AK_STANDS_COS);
    assert_int_equal(ak_clip_standing_frame(s, c, &map, local, model), -1);
    assert_int_equal(ak_clip_standing_frame(s, NULL, &map, local, model), -1);
    assert_true(ak_clip_first_frame_is_reference(c)); /* CMU's T-pose frame 0 */
    /* Without hips or a head there is nothing to measure: any pose is taken as it is. */
    ak_humanoid none = map;
    none.joint[AK_HUM_HEAD] = none.joint[AK_HUM_NECK] = -1;
    assert_true(ak_pose_uprightness(&none, model) == 1.0f);
    /* The zero pose faces +Z: its facing yaw is the identity. */
    const ak_quat yaw = ak_pose_facing_yaw(&map, model);
    AKT_NEAR(fabsf(yaw.w), 1.0f, 1e-3);
    free(local), free(model);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

/* The copy along X: its zero pose lies flat (uprightness near 0); the frame picked is the most
 * upright of the clip (none scores higher), stands (>= cos 37 degrees), and is not frame 0.
 * Its feet set flat by their lowest frames' up axes: each axis turns to +Y within 1e-5, and
 * each foot's ankle-to-ball direction on XZ lies along the facing (yaw * +Z) within 1e-3. */
static void a_flat_zero_pose_stands_on_the_most_upright_frame(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    akv_make("locomotion/cmu_02_02_walk.bvh", AKV_ZERO_ALONG_X, &s, &c);
    ak_humanoid map;
    assert_int_equal(ak_humanoid_find(s, NULL, &map, NULL), AK_OK);
    const int32_t n = s->joint_count;
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n),
             *model = malloc(sizeof(ak_xform) * (size_t)n);
    pose_of(s, c, -1, local, model);
    const float zero = ak_pose_uprightness(&map, model);
    const int32_t f = ak_clip_standing_frame(s, c, &map, local, model);
    float best = -2.0f;
    for (int32_t k = 1; k < c->frame_count; ++k) {
        pose_of(s, c, k, local, model);
        best = fmaxf(best, ak_pose_uprightness(&map, model));
    }
    pose_of(s, c, f, local, model);
    const float at_f = ak_pose_uprightness(&map, model);
    print_message("zero pose along X: uprightness %.4f; frame %d picked, %.4f (best %.4f)\n",
                  (double)zero, (int)f, (double)at_f, (double)best);
    assert_true(zero < 0.1f);
    assert_true(f > 0);
    assert_true(at_f == best && at_f >= AK_STANDS_COS);
    /* Feet set flat. */
    int32_t j[4];
    ak_humanoid_foot_joints(&map, j);
    for (int i = 0; i < 4; ++i)
        assert_true(j[i] >= 0);
    float mpu = 1.0f;
    ak_units_detect(ak_clip_standing_height(c, s), &mpu);
    ak_vec3 up[4] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    ak_xform *scratch = malloc(sizeof(ak_xform) * 2 * (size_t)n);
    ak_clip_lowest_up_axes(s, c, j, AK_LOWEST_TOL_M / mpu, scratch, scratch + n, up);
    for (int i = 0; i < 4; ++i)
        up[i] = ak_vec3_normalize_or(up[i], ak_vec3_make(0, 0, 0));
    ak_quat *rot = malloc(sizeof(ak_quat) * (size_t)n);
    for (int32_t k = 0; k < n; ++k)
        rot[k] = model[k].rotation;
    const ak_quat yaw = ak_pose_facing_yaw(&map, model);
    ak_pose_flatten_feet(s, &map, up, yaw, model, rot);
    const ak_vec3 fwd = ak_quat_rotate(yaw, ak_vec3_make(0, 0, 1));
    for (int i = 0; i < 4; ++i) {
        const ak_vec3 v = ak_quat_rotate(rot[j[i]], up[i]);
        print_message("joint %-14s flat up axis turned to (%.2g, %.6f, %.2g)\n", s->names[j[i]],
                      (double)v.x, (double)v.y, (double)v.z);
        AKT_NEAR(v.y, 1.0f, 1e-5);
    }
    for (int side = 0; side < 2; ++side) { /* ankle to ball, in the flattened foot */
        const ak_vec3 bone = ak_quat_rotate(rot[j[side]], s->rest_local[j[2 + side]].translation);
        const float len = hypotf(bone.x, bone.z);
        AKT_NEAR((bone.x * fwd.x + bone.z * fwd.z) / len, 1.0f, 1e-3);
    }
    free(rot), free(scratch), free(local), free(model);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_zero_pose_is_kept_when_it_stands),
        cmocka_unit_test(a_flat_zero_pose_stands_on_the_most_upright_frame),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
