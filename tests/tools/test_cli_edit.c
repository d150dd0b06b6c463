/* `animkit edit` run as a user would: steps chain in command-line order, mirroring twice
 * gives the capture back, trim keeps world positions, errors exit 1 (runtime) or 2 (usage)
 * with a message and leave no output file. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include "../locomotion/studio_variants.h"

#include <sys/wait.h>
#include <unistd.h>

/* Runs `animkit edit ARGS` with stderr captured into err_text (may be NULL); the exit code. */
static int run_edit(const char *args, char *err_text, size_t size)
{
    const char *b = getenv("AK_BUILD_DIR");
    if (!b) fail_msg("AK_BUILD_DIR is not set (run through ctest)");
    char err_path[1100], cmd[4096];
    snprintf(err_path, sizeof err_path, "%s/tests/cli_edit_%d.err", b, (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s/bin/animkit' edit %s 2>'%s'", b, args, err_path);
    const int st = system(cmd);
    if (err_text) {
        FILE *f = fopen(err_path, "rb");
        size_t n = f ? fread(err_text, 1, size - 1, f) : 0;
        err_text[n] = '\0';
        if (f) fclose(f);
    }
    remove(err_path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void out_path(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/tests/%d_%s", getenv("AK_BUILD_DIR"), (int)getpid(), name);
}

/* Largest world-position difference between frame fa of (sa, ca) and frame fb of (sb, cb). */
static double pose_diff(const ak_skeleton *sa, const ak_clip *ca, int32_t fa, const ak_skeleton *sb,
                        const ak_clip *cb, int32_t fb)
{
    const int32_t J = sa->joint_count;
    ak_xform *x = (ak_xform *)malloc(sizeof(ak_xform) * 4 * (size_t)J);
    ak_clip_frame(ca, sa, fa, x);
    ak_fk(sa, x, x + J);
    ak_clip_frame(cb, sb, fb, x + 2 * J);
    ak_fk(sb, x + 2 * J, x + 3 * J);
    double worst = 0.0;
    for (int32_t j = 0; j < J; ++j) {
        ak_vec3 d = ak_vec3_sub(x[J + j].translation, x[3 * J + j].translation);
        if (ak_vec3_length(d) > worst) worst = ak_vec3_length(d);
    }
    free(x);
    return worst;
}

static void edit_mirror_twice_and_trim_keep_the_capture(void **state)
{
    (void)state;
    char in[1024], out[1100], args[4096];
    akt_mocap_path("arena_louise_stand_walk_cycle.bvh", in, sizeof in);
    out_path("edit_mirror2.bvh", out, sizeof out);
    assert_int_equal(run_edit((snprintf(args, sizeof args,
                                        "'%s' '%s' --trim 500:899 --mirror --mirror", in, out),
                               args),
                              NULL, 0),
                     0);
    ak_skeleton *s, *s2;
    ak_clip *c, *c2;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(in, NULL, &s, &c, &err), AK_OK);
    assert_int_equal(ak_bvh_read_file(out, NULL, &s2, &c2, &err), AK_OK);
    remove(out);
    assert_int_equal(c2->frame_count, 400);
    const float h = ak_clip_standing_height(c, s);
    /* BVH text keeps world positions to 1e-5 of the size (bvh.h); two mirrors are exact. */
    for (int32_t f = 0; f < 400; f += 3)
        assert_true(pose_diff(s, c, 500 + f, s2, c2, f) < 1e-5 * h);
    ak_skeleton_destroy(s2);
    ak_clip_destroy(c2);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

static void edit_reports_errors_and_writes_nothing(void **state)
{
    (void)state;
    char in[1024], out[1100], args[4096], msg[2048];
    akt_mocap_path("cmu_09_01_run.bvh", in, sizeof in);
    out_path("edit_bad.bvh", out, sizeof out);
    snprintf(args, sizeof args, "'%s' '%s' --trim 10:900", in, out);
    assert_int_equal(run_edit(args, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "--trim"));
    assert_true(access(out, F_OK) != 0);
    snprintf(args, sizeof args, "'%s' '%s' --fps -3", in, out);
    assert_int_equal(run_edit(args, msg, sizeof msg), 2);
    snprintf(args, sizeof args, "'%s' '%s' --units furlongs", in, out);
    assert_int_equal(run_edit(args, msg, sizeof msg), 2);
    assert_non_null(strstr(msg, "--units wants m, cm, mm, in or cmu, got 'furlongs'"));
    snprintf(args, sizeof args, "'%s' --mirror", in);
    assert_int_equal(run_edit(args, msg, sizeof msg), 2);
    snprintf(args, sizeof args, "'%s' '%s' --mirror-axis w", in, out);
    assert_int_equal(run_edit(args, msg, sizeof msg), 2);
    snprintf(args, sizeof args, "'%s' '%s' --append '%s.missing'", in, out, in);
    assert_int_equal(run_edit(args, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, ".missing: cannot open"));
    assert_true(access(out, F_OK) != 0);
    /* A root joint the skeleton does not have: the library says what is missing, the CLI
     * which flag named it; a bad value, exit 2 as info, walk and retarget (it was 1 here). */
    snprintf(args, sizeof args, "'%s' '%s' --in-place --root-joint Nope", in, out);
    assert_int_equal(run_edit(args, msg, sizeof msg), 2);
    assert_non_null(strstr(msg, "\nanimkit edit: --in-place: no joint named 'Nope' to carry the "
                                "root motion (--root-joint)\n"));
    assert_true(access(out, F_OK) != 0);
}

/* Worst world-position distance over every frame between (so, co) and (sv, cv), where joint j of
 * the original is joint j + shift of the variant (a still joint_Root above: shift 1). */
static double worst_shifted(const ak_skeleton *so, const ak_clip *co, const ak_skeleton *sv,
                            const ak_clip *cv, int32_t shift)
{
    assert_int_equal(co->frame_count, cv->frame_count);
    assert_int_equal(so->joint_count + shift, sv->joint_count);
    const int32_t J = so->joint_count, V = sv->joint_count;
    ak_xform *lo = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    ak_xform *lv = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)V * 2);
    double worst = 0.0;
    for (int32_t f = 0; f < co->frame_count; ++f) {
        ak_clip_frame(co, so, f, lo);
        ak_fk(so, lo, lo + J);
        ak_clip_frame(cv, sv, f, lv);
        ak_fk(sv, lv, lv + V);
        for (int32_t j = 0; j < J; ++j) {
            assert_string_equal(so->names[j], sv->names[j + shift]);
            const double d =
                ak_vec3_length(ak_vec3_sub(lo[J + j].translation, lv[V + j + shift].translation));
            if (d > worst) worst = d;
        }
    }
    free(lo);
    free(lv);
    return worst;
}

/* --reset-root and --in-place on another studio's shape of the CMU walk (a joint_Root that
 * never moves above the Hips that carry the travel), the hips named with --root-joint, give the
 * original's edited result: every joint, every frame. The bound is the files' precision: a
 * BVH written and read back keeps model-space positions to 1e-5 of the height (bvh.h); the
 * variant's input went through one write (the generator) and each output through one more, so
 * the two results may differ by up to 3e-5 of the height. Naming the still joint_Root instead
 * edits its zero track and leaves the hips' travel: far from the original's result, so the name
 * given is the one used. */
static void edit_root_steps_on_a_still_top_joint_give_the_original_s_result(void **state)
{
    (void)state;
    char in[1024], var[1100], out_o[1100], out_v[1100], args[4096];
    akt_mocap_path("cmu_02_01_walk.bvh", in, sizeof in);
    out_path("still_top.bvh", var, sizeof var);
    akv_write("cmu_02_01_walk.bvh", AKV_STILL_TOP, var);
    static const char *const steps[] = {"--reset-root", "--in-place"};
    ak_error err;
    ak_skeleton *so = NULL, *sv = NULL;
    ak_clip *co = NULL, *cv = NULL;
    assert_int_equal(ak_bvh_read_file(in, NULL, &so, &co, &err), AK_OK);
    const double height = ak_clip_standing_height(co, so);
    ak_skeleton_destroy(so);
    ak_clip_destroy(co);
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; ++k) {
        out_path("edit_root_o.bvh", out_o, sizeof out_o);
        out_path("edit_root_v.bvh", out_v, sizeof out_v);
        snprintf(args, sizeof args, "'%s' '%s' %s", in, out_o, steps[k]);
        assert_int_equal(run_edit(args, NULL, 0), 0);
        snprintf(args, sizeof args, "'%s' '%s' %s --root-joint Hips", var, out_v, steps[k]);
        assert_int_equal(run_edit(args, NULL, 0), 0);
        assert_int_equal(ak_bvh_read_file(out_o, NULL, &so, &co, &err), AK_OK);
        assert_int_equal(ak_bvh_read_file(out_v, NULL, &sv, &cv, &err), AK_OK);
        remove(out_o);
        const double d = worst_shifted(so, co, sv, cv, 1);
        snprintf(args, sizeof args, "'%s' '%s' %s --root-joint joint_Root", var, out_v, steps[k]);
        assert_int_equal(run_edit(args, NULL, 0), 0);
        ak_skeleton *sr = NULL;
        ak_clip *cr = NULL;
        assert_int_equal(ak_bvh_read_file(out_v, NULL, &sr, &cr, &err), AK_OK);
        remove(out_v);
        const double named_still = worst_shifted(so, co, sr, cr, 1);
        ak_skeleton_destroy(sr);
        ak_clip_destroy(cr);
        /* Against the unedited input: the step moved the walk (the test is not vacuous). */
        ak_skeleton *si = NULL;
        ak_clip *ci = NULL;
        assert_int_equal(ak_bvh_read_file(in, NULL, &si, &ci, &err), AK_OK);
        const double moved = worst_shifted(si, ci, so, co, 0);
        print_message("%s --root-joint Hips on a still top joint: every joint within %.3g of the "
                      "height of the original's result (the step moved joints up to %.3f "
                      "heights; --root-joint joint_Root: %.3f heights off)\n",
                      steps[k], d / height, moved / height, named_still / height);
        assert_true(d <= 3e-5 * height);
        assert_true(named_still > 0.25 * height);
        assert_true(moved > 0.25 * height);
        ak_skeleton_destroy(si);
        ak_clip_destroy(ci);
        ak_skeleton_destroy(so);
        ak_clip_destroy(co);
        ak_skeleton_destroy(sv);
        ak_clip_destroy(cv);
    }
    remove(var);
}

/* Issue 26: 65 step flags are refused before the 65th is stored (the plan holds 64; the
 * overflow wrote one past it: ASan heap-buffer-overflow, release "free(): invalid pointer"). */
static void edit_more_steps_than_the_plan_holds_is_a_usage_error(void **state)
{
    (void)state;
    char in[1024], out[1100], msg[2048];
    akt_mocap_path("cmu_09_01_run.bvh", in, sizeof in);
    out_path("edit_65.bvh", out, sizeof out);
    char *args = (char *)malloc(8192);
    assert_non_null(args);
    int n = snprintf(args, 8192, "'%s' '%s'", in, out);
    for (int i = 0; i < 65; ++i)
        n += snprintf(args + n, 8192 - (size_t)n, " --mirror");
    assert_int_equal(run_edit(args, msg, sizeof msg), 2);
    assert_non_null(strstr(msg, "at most 64 steps"));
    assert_true(access(out, F_OK) != 0);
    /* the same with valued steps, given past the limit */
    n = snprintf(args, 8192, "'%s' '%s'", in, out);
    for (int i = 0; i < 70; ++i)
        n += snprintf(args + n, 8192 - (size_t)n, " --fps 30 --trim 0:");
    assert_int_equal(run_edit(args, msg, sizeof msg), 2);
    assert_non_null(strstr(msg, "at most 64 steps"));
    assert_true(access(out, F_OK) != 0);
    free(args);
}

/* The UE4 mannequin's ik bones (CMU 02_01 in the UE4 shape: ik_foot_l/r and ik_hand_gun,
 * ik_hand_r/l copies of the feet and hands in every frame) stay on their feet and hands through
 * the edits that move those otherwise: mirroring (ik_hand_gun, which has no partner, mirrored
 * onto the left hand: 23.6 units, 1.3 m, off the right; the feet of the unsymmetric rig 0.09
 * units beside their mirrored copies) and appending with a crossfade (ik_foot_r 0.075 units
 * off in the blend). Bound: 1e-5 of the standing height (the BVH text's rounding). */
static void edit_keeps_the_ue4_ik_bones_on_their_feet_and_hands(void **state)
{
    (void)state;
    char in[1100], out[1100], args[4096];
    out_path("ue4_shape.bvh", in, sizeof in);
    out_path("ue4_edited.bvh", out, sizeof out);
    akv_write("cmu_02_01_walk.bvh", AKV_GROUND_ROOT | AKV_IK_BONES, in);
    static const char *const steps[2] = {"--mirror", "--trim 0:200 --append '%s' --blend 0.5"};
    for (int k = 0; k < 2; ++k) {
        char step[1400];
        snprintf(step, sizeof step, steps[k], in);
        snprintf(args, sizeof args, "'%s' '%s' %s", in, out, step);
        assert_int_equal(run_edit(args, NULL, 0), 0);
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        ak_error err;
        assert_int_equal(ak_bvh_read_file(out, NULL, &s, &c, &err), AK_OK);
        const double height = ak_clip_standing_height(c, s), apart = akv_ik_bones_apart(s, c);
        print_message("%s: ik bones up to %.2g of the height from their feet and hands\n",
                      k ? "append" : "mirror", apart / height);
        assert_true(apart <= 1e-5 * height);
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
        remove(out);
    }
    remove(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edit_mirror_twice_and_trim_keep_the_capture),
        cmocka_unit_test(edit_keeps_the_ue4_ik_bones_on_their_feet_and_hands),
        cmocka_unit_test(edit_reports_errors_and_writes_nothing),
        cmocka_unit_test(edit_root_steps_on_a_still_top_joint_give_the_original_s_result),
        cmocka_unit_test(edit_more_steps_than_the_plan_holds_is_a_usage_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
