/* The retarget's reference pose (issue 22, retarget_ref.c): a zero pose that stands is kept
 * (CMU's); a zero pose with every bone along X is replaced by a standing frame of the clip, the
 * source re-rested on it with every joint's model position unchanged in every frame (float
 * rounding: 1e-5 of the height), and that zero pose stands (hips to head and to both feet
 * within 37 degrees of vertical). */
#include "test_util.h"

#include "../locomotion/studio_variants.h"
#include "retarget/retarget_internal.h"

static float height_of(const ak_skeleton *s, const ak_clip *c)
{
    return ak_clip_standing_height(c, s);
}

static double max_distance(const ak_skeleton *sa, const ak_clip *ca, const ak_skeleton *sb,
                           const ak_clip *cb)
{
    const int32_t J = sa->joint_count;
    ak_xform *buf = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 4);
    double worst = 0.0;
    for (int32_t f = 0; f < ca->frame_count; ++f) {
        ak_clip_frame(ca, sa, f, buf);
        ak_fk(sa, buf, buf + J);
        ak_clip_frame(cb, sb, f, buf + 2 * J);
        ak_fk(sb, buf + 2 * J, buf + 3 * J);
        for (int32_t j = 0; j < J; ++j) {
            const double d =
                ak_vec3_length(ak_vec3_sub(buf[J + j].translation, buf[3 * J + j].translation));
            if (!(d <= worst)) worst = d;
        }
    }
    free(buf);
    return worst;
}

static void retarget_reference_keeps_a_standing_zero_pose_and_rerests_one_along_x(void **state)
{
    (void)state;
    for (int variant = 0; variant < 2; ++variant) {
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        akv_make("cmu_02_01_walk.bvh", variant ? AKV_ZERO_ALONG_X : 0u, &s, &c);
        ak_retarget_params p = ak_retarget_defaults();
        p.source = s;
        p.source_clip = c;
        ak_humanoid m;
        ak_error err;
        assert_int_equal(ak_humanoid_find(s, NULL, &m, &err), AK_OK);
        akr_rested r;
        assert_int_equal(akr_reference_source(&p, &m, &r, &err), AK_OK);
        if (!variant) {
            assert_int_equal(r.frame, -1); /* CMU's zero pose stands */
            assert_null(r.skeleton);
        } else {
            assert_true(r.frame >= 0 && r.frame < c->frame_count);
            const float h = height_of(s, c);
            const double d = max_distance(s, c, r.skeleton, r.clip);
            printf("re-rested on frame %d: worst position change %.3g of height %.3g\n",
                   (int)r.frame, d, (double)h);
            assert_true(d <= 1e-5 * h);
            /* The new zero pose stands: the reference picks it as it is. */
            ak_retarget_params q = p;
            q.source = r.skeleton;
            q.source_clip = r.clip;
            akr_rested again;
            assert_int_equal(akr_reference_source(&q, &m, &again, &err), AK_OK);
            assert_int_equal(again.frame, -1);
        }
        akr_rested_free(&r);
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(retarget_reference_keeps_a_standing_zero_pose_and_rerests_one_along_x),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
