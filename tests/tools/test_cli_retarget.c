/* `animkit retarget` run as a user would: a CMU walk onto the built-in biped drives
 * `animkit walk --clip`; a glTF rig gives the same motion as the BVH it was converted from;
 * another studio's shape of the walk (and a reference frame named with --reference-frame)
 * gives the original's motion; overrides come from --map JSON; errors exit 1 (runtime) or 2
 * (usage) with a message and write nothing. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include "../locomotion/studio_variants.h"

#include <sys/wait.h>
#include <unistd.h>

/* Runs `animkit ARGS` with stdout/stderr captured into out_text (may be NULL); the exit code. */
static int run_cli(const char *args, char *out_text, size_t size)
{
    const char *b = getenv("AK_BUILD_DIR");
    if (!b) fail_msg("AK_BUILD_DIR is not set (run through ctest)");
    char out_path[1100], cmd[4096];
    snprintf(out_path, sizeof out_path, "%s/tests/cli_retarget_%d.out", b, (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s/bin/animkit' %s >'%s' 2>&1", b, args, out_path);
    const int st = system(cmd);
    if (out_text) {
        FILE *f = fopen(out_path, "rb");
        size_t n = f ? fread(out_text, 1, size - 1, f) : 0;
        out_text[n] = '\0';
        if (f) fclose(f);
    }
    remove(out_path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void tmp_path(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/tests/%d_%s", getenv("AK_BUILD_DIR"), (int)getpid(), name);
}

static int exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

/* The end-to-end check: retarget, then walk with the result. */
static void cli_retargeted_cmu_walk_drives_the_walker(void **state)
{
    (void)state;
    char src[1024], out[1100], dir[1100], args[4096], text[8192];
    akt_mocap_path("cmu_02_01_walk.bvh", src, sizeof src);
    tmp_path("walk_on_biped.bvh", out, sizeof out);
    tmp_path("walk_dir", dir, sizeof dir);
    snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s'", src, out);
    assert_int_equal(run_cli(args, text, sizeof text), 0);
    assert_non_null(strstr(text, "stance runs pinned"));
    ak_skeleton *s;
    ak_clip *c;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(out, NULL, &s, &c, &err), AK_OK);
    assert_int_equal(c->frame_count, 344);
    assert_int_equal(ak_skeleton_find(s, "LeftToeBase") >= 0, 1); /* the biped's own joints */
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    snprintf(args, sizeof args,
             "walk --clip '%s' --terrain flat --start -3,0 --target 3,0 --max-time 20 --out '%s' "
             "--quiet",
             out, dir);
    assert_int_equal(run_cli(args, text, sizeof text), 0);
    if (!strstr(text, "\"arrived\":true")) fail_msg("the walker did not arrive: %s", text);
    remove(out);
    char f[1200];
    static const char *const outputs[] = {"walk.bvh", "walk.csv"};
    for (int i = 0; i < 2; ++i)
        remove((snprintf(f, sizeof f, "%s/%s", dir, outputs[i]), f));
    rmdir(dir);
}

/* A rig converted to GLB (metres) and read back by the skin reader takes the same motion as
 * the BVH rig (centimetres): positions agree after the unit change. */
static void cli_gltf_rig_matches_its_bvh(void **state)
{
    (void)state;
    char src[1024], rig[1024], glb[1100], a[1100], b[1100], args[4096], text[8192];
    akt_mocap_path("cmu_02_01_walk.bvh", src, sizeof src);
    akt_mocap_path("arena_louise_stand_walk_cycle.bvh", rig, sizeof rig);
    tmp_path("louise_rig.glb", glb, sizeof glb);
    tmp_path("on_glb.bvh", a, sizeof a);
    tmp_path("on_bvh.bvh", b, sizeof b);
    assert_int_equal(
        run_cli((snprintf(args, sizeof args, "convert '%s' '%s' --no-mesh", rig, glb), args), text,
                sizeof text),
        0);
    assert_int_equal(
        run_cli(
            (snprintf(args, sizeof args, "retarget '%s' --to '%s' --out '%s'", src, glb, a), args),
            text, sizeof text),
        0);
    assert_int_equal(
        run_cli(
            (snprintf(args, sizeof args, "retarget '%s' --to '%s' --out '%s'", src, rig, b), args),
            text, sizeof text),
        0);
    ak_skeleton *sa, *sb;
    ak_clip *ca, *cb;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(a, NULL, &sa, &ca, &err), AK_OK);
    assert_int_equal(ak_bvh_read_file(b, NULL, &sb, &cb, &err), AK_OK);
    assert_int_equal(sa->joint_count, sb->joint_count);
    ak_xform *x = (ak_xform *)malloc(sizeof(ak_xform) * 4 * (size_t)sa->joint_count);
    const int32_t J = sa->joint_count;
    double worst = 0.0;
    for (int32_t f = 0; f < ca->frame_count; f += 5) {
        ak_clip_frame(ca, sa, f, x);
        ak_fk(sa, x, x + J);
        ak_clip_frame(cb, sb, f, x + 2 * J);
        ak_fk(sb, x + 2 * J, x + 3 * J);
        for (int32_t j = 0; j < J; ++j)
            worst = fmax(
                worst, ak_vec3_length(ak_vec3_sub(x[J + j].translation,
                                                  ak_vec3_scale(x[3 * J + j].translation, 0.01f))));
    }
    printf("GLB rig vs BVH rig: worst %.2g m\n", worst);
    /* float32 matrices in the GLB and 6-digit BVH text: well under a millimetre */
    assert_true(worst < 1e-3);
    free(x);
    ak_skeleton_destroy(sa);
    ak_skeleton_destroy(sb);
    ak_clip_destroy(ca);
    ak_clip_destroy(cb);
    remove(glb);
    remove(a);
    remove(b);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Issue 22 on the CLI: the CMU walk in every other studio's shape at once (a still joint_Root
 * above the travelling hips, the zero pose along X, six channels, ZXY, centimetres, one frame
 * line more than Frames: says) retargets onto the biped like the original, joint positions
 * within 0.5 % of the biped's height (measured 0.06 %); its zero pose does not stand, so the
 * reference pose is a standing frame, and a frame named with --reference-frame is used and
 * said (frame 100: 0.19 %). */
static void cli_retarget_of_another_studio_s_shape_matches_the_original(void **state)
{
    (void)state;
    char src[1024], var[1100], out_o[1100], out_v[1100], out_r[1100], args[4096], text[8192];
    akt_mocap_path("cmu_02_01_walk.bvh", src, sizeof src);
    tmp_path("all_shapes.bvh", var, sizeof var);
    tmp_path("all_shapes_o.bvh", out_o, sizeof out_o);
    tmp_path("all_shapes_v.bvh", out_v, sizeof out_v);
    tmp_path("all_shapes_r.bvh", out_r, sizeof out_r);
    size_t size = 0;
    char *bvh = akv_text("cmu_02_01_walk.bvh", AKV_ALL, &size);
    write_text(var, bvh);
    free(bvh);
    snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s'", src, out_o);
    assert_int_equal(run_cli(args, text, sizeof text), 0);
    snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s'", var, out_v);
    assert_int_equal(run_cli(args, text, sizeof text), 0);
    if (!strstr(text, "reference pose: source frame ") ||
        !strstr(text, "(its zero pose does not stand)\n") || strstr(text, "as given"))
        fail_msg("no standing reference frame said: %s", text);
    snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s' --reference-frame 100", var,
             out_r);
    assert_int_equal(run_cli(args, text, sizeof text), 0);
    /* Which reason applied: the frame given, not a zero pose that does not stand. */
    if (!strstr(text, "reference pose: source frame 100 (as given by --reference-frame)\n") ||
        strstr(text, "does not stand"))
        fail_msg("--reference-frame 100 not said as given: %s", text);
    ak_skeleton *s[3];
    ak_clip *c[3];
    const char *const outs[3] = {out_o, out_v, out_r};
    ak_error err;
    for (int i = 0; i < 3; ++i) {
        if (ak_bvh_read_file(outs[i], NULL, &s[i], &c[i], &err) != AK_OK)
            fail_msg("%s: %s", outs[i], err.message);
        assert_int_equal(s[i]->joint_count, s[0]->joint_count);
        remove(outs[i]);
    }
    remove(var);
    assert_int_equal(c[0]->frame_count, 344);
    assert_int_equal(c[1]->frame_count, 345); /* the extra frame line is read */
    const double height = ak_clip_standing_height(c[0], s[0]);
    for (int i = 1; i < 3; ++i) {
        const double d = akt_max_joint_distance(s[0], c[0], s[0], c[i], NULL, NULL);
        print_message("another studio's shape%s: joints within %.3f %% of the height\n",
                      i == 2 ? ", --reference-frame 100" : "", 100.0 * d / height);
        assert_true(d <= 0.005 * height);
    }
    for (int i = 0; i < 3; ++i) {
        ak_skeleton_destroy(s[i]);
        ak_clip_destroy(c[i]);
    }
}

/* The source's root-motion joint (issue 22), measured or named with --root-joint as info,
 * edit and walk take it: the CMU walk with its travel in the Hips under a still joint_Root,
 * and under a floor bone `root` with the UE4 mannequin's ik bones beside the hips, retargets
 * onto the biped like the original whether the joint is measured or named (joints within 0.5 %
 * of the biped's height, the bound), and the report says which joint and why; a name
 * the source has not is refused with exit 2 and the library's message, and nothing is
 * written. */
static void cli_retarget_names_the_source_s_root_joint(void **state)
{
    (void)state;
    static const struct {
        unsigned kinds;
        const char *joint, *measured;
    } shapes[] = {
        {AKV_STILL_TOP, "Hips", "source root motion: Hips (the top joint joint_Root is still: "},
        {AKV_GROUND_ROOT | AKV_IK_BONES, "root",
         "source root motion: root (the top joint travels: "},
    };
    char src[1024], var[1100], out_o[1100], out_v[1100], args[4096], text[8192], want[160];
    akt_mocap_path("cmu_02_01_walk.bvh", src, sizeof src);
    tmp_path("root_joint_var.bvh", var, sizeof var);
    tmp_path("root_joint_o.bvh", out_o, sizeof out_o);
    tmp_path("root_joint_v.bvh", out_v, sizeof out_v);
    snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s'", src, out_o);
    assert_int_equal(run_cli(args, text, sizeof text), 0);
    assert_non_null(strstr(text, "source root motion: Hips (the top joint travels: "));
    ak_skeleton *so, *sv;
    ak_clip *co, *cv;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(out_o, NULL, &so, &co, &err), AK_OK);
    const double height = ak_clip_standing_height(co, so);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        akv_write("cmu_02_01_walk.bvh", shapes[i].kinds, var);
        for (int named = 0; named < 2; ++named) {
            snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s'%s%s", var, out_v,
                     named ? " --root-joint " : "", named ? shapes[i].joint : "");
            assert_int_equal(run_cli(args, text, sizeof text), 0);
            snprintf(want, sizeof want, "source root motion: %s (named; ", shapes[i].joint);
            if (!strstr(text, named ? want : shapes[i].measured))
                fail_msg("%s: the root joint not said: %s", args, text);
            assert_int_equal(ak_bvh_read_file(out_v, NULL, &sv, &cv, &err), AK_OK);
            const double d = akt_max_joint_distance(so, co, sv, cv, NULL, NULL);
            print_message("%s%s: joints within %.4f %% of the height\n", shapes[i].joint,
                          named ? " named" : " measured", 100.0 * d / height);
            assert_true(d <= 0.005 * height);
            ak_skeleton_destroy(sv);
            ak_clip_destroy(cv);
            remove(out_v);
        }
    }
    snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s' --root-joint Nope", var,
             out_v);
    assert_int_equal(run_cli(args, text, sizeof text), 2);
    if (!strstr(text, ": no joint named 'Nope' to carry the root motion (--root-joint)\n"))
        fail_msg("no message for a bad name: %s", text);
    assert_false(exists(out_v));
    assert_int_equal(run_cli("retarget --help", text, sizeof text), 0);
    assert_non_null(strstr(text, "--root-joint NAME"));
    ak_skeleton_destroy(so);
    ak_clip_destroy(co);
    remove(out_o);
    remove(var);
}

/* --map overrides reach the humanoid map; bad input fails clearly and writes nothing. */
static void cli_retarget_errors_and_overrides(void **state)
{
    (void)state;
    char src[1024], out[1100], map[1100], args[4096], text[8192];
    akt_mocap_path("cmu_02_01_walk.bvh", src, sizeof src);
    tmp_path("never.bvh", out, sizeof out);
    tmp_path("map.json", map, sizeof map);
    assert_int_equal(
        run_cli((snprintf(args, sizeof args, "retarget '%s' --out '%s'", src, out), args), text,
                sizeof text),
        2);
    assert_non_null(strstr(text, "--to"));
    assert_int_equal(run_cli((snprintf(args, sizeof args,
                                       "retarget '%s' --to biped --out '%s' --scale -1", src, out),
                              args),
                             text, sizeof text),
                     2);
    assert_int_equal(
        run_cli((snprintf(args, sizeof args, "retarget '%s' --to nosuch.bvh --out '%s'", src, out),
                 args),
                text, sizeof text),
        1);
    write_text(map, "{\"target\": {\"left_foot\": \"NoSuchJoint\"}}");
    assert_int_equal(
        run_cli((snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s' --map '%s'", src,
                          out, map),
                 args),
                text, sizeof text),
        1);
    assert_non_null(strstr(text, "NoSuchJoint"));
    write_text(map, "{\"target\": {\n \"left_foot\": 3}}");
    assert_int_equal(
        run_cli((snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s' --map '%s'", src,
                          out, map),
                 args),
                text, sizeof text),
        1);
    assert_non_null(strstr(text, ":2:")); /* the JSON line */
    write_text(
        map,
        "{\"source\": {\"left_foot\": \"LeftFoot\"}, \"target\": {\"left_foot\": \"LeftFoot\"}}");
    assert_false(exists(out));
    assert_int_equal(
        run_cli(
            (snprintf(args, sizeof args,
                      "retarget '%s' --to biped --out '%s' --map '%s' --no-contacts --pin-hands",
                      src, out, map),
             args),
            text, sizeof text),
        0);
    assert_true(exists(out));
    remove(out);
    remove(map);
    assert_int_equal(run_cli("retarget --help", text, sizeof text), 0);
    assert_non_null(strstr(text, "--pin-hands"));
}

/* Stance frames L and R as the retarget's report prints them. */
static void reported_stance(const char *text, int stance[2])
{
    const char *at = strstr(text, "stance frames L ");
    if (!at || sscanf(at, "stance frames L %d, R %d", &stance[0], &stance[1]) != 2)
        fail_msg("no stance frames in the report: %s", text);
}

/* `--root-joint` naming a still top joint reaches the contact detector
 * (ak_contact_params.root_joint): CMU 09_01's run under a joint_Root that never moves. Measured,
 * or with the hips named, the detector reads the hips' running speed (its speed thresholds grow
 * with it); the still top joint named moves at 0 m/s, so the source's stance is the one with
 * the body's speed left out (body_speed_fraction 0, the library's retarget asked directly).
 * Before, the name reached the report only: the detector measured the hips whatever was
 * named. */
static void cli_retarget_root_joint_reaches_the_contacts(void **state)
{
    (void)state;
    char var[1100], out[1100], args[4096], text[8192];
    tmp_path("still_top_run.bvh", var, sizeof var);
    tmp_path("still_top_run_out.bvh", out, sizeof out);
    akv_write("cmu_09_01_run.bvh", AKV_STILL_TOP, var);
    ak_skeleton *src = NULL, *rig = NULL;
    ak_clip *clip = NULL, *walk = NULL, *rt = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(var, NULL, &src, &clip, &err), AK_OK);
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    assert_int_equal(ak_walk_clip_create(&wp, &rig, &walk, &err), AK_OK);
    int want[2][2]; /* [measured, body speed left out][L, R] */
    for (int k = 0; k < 2; ++k) {
        ak_retarget_params p = ak_retarget_defaults();
        p.source = src;
        p.source_clip = clip;
        p.target = rig;
        if (k) p.contact.body_speed_fraction = 0.0f;
        ak_retarget_info info;
        assert_true(ak_retarget_run(&p, &rt, &info, &err) >= 0);
        want[k][0] = info.stance_frames[0];
        want[k][1] = info.stance_frames[1];
        ak_clip_destroy(rt);
    }
    static const char *const named[3] = {"", " --root-joint Hips", " --root-joint joint_Root"};
    for (int n = 0; n < 3; ++n) {
        snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s'%s", var, out, named[n]);
        assert_int_equal(run_cli(args, text, sizeof text), 0);
        int got[2];
        reported_stance(text, got);
        const int *w = want[n == 2];
        print_message("root joint%s: stance frames L %d, R %d (the library's %d, %d)\n",
                      n ? named[n] : " measured", got[0], got[1], w[0], w[1]);
        assert_int_equal(got[0], w[0]);
        assert_int_equal(got[1], w[1]);
    }
    /* a run: the two readings differ, so the name is what decided */
    assert_true(want[0][0] != want[1][0] || want[0][1] != want[1][1]);
    ak_skeleton_destroy(src);
    ak_skeleton_destroy(rig);
    ak_clip_destroy(clip);
    ak_clip_destroy(walk);
    remove(var);
    remove(out);
}

/* A capture retargeted onto a rig in the UE4 mannequin's shape (CMU 02_01's hierarchy under a
 * floor `root` with ik_foot_l/r and ik_hand_gun, ik_hand_r/l on the feet and hands in its rest
 * pose): the ik bones follow the retargeted feet and hands in every frame (within 1e-5 of the
 * height: the BVH text's rounding). The transfer maps the humanoid joints only, and left them
 * at rest under `root`: up to 42.2 units (2.4 m) off. */
static void cli_retarget_onto_a_ue4_rig_keeps_its_ik_bones_on_the_feet(void **state)
{
    (void)state;
    char src[1024], rig[1100], out[1100], args[4096], text[8192];
    akt_mocap_path("cmu_02_01_walk.bvh", src, sizeof src);
    tmp_path("ue4_rig.bvh", rig, sizeof rig);
    tmp_path("ue4_retargeted.bvh", out, sizeof out);
    akv_write("cmu_02_01_walk.bvh", AKV_GROUND_ROOT | AKV_IK_BONES, rig);
    snprintf(args, sizeof args, "retarget '%s' --to '%s' --out '%s'", src, rig, out);
    assert_int_equal(run_cli(args, text, sizeof text), 0);
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(out, NULL, &s, &c, &err), AK_OK);
    const double height = ak_clip_standing_height(c, s), apart = akv_ik_bones_apart(s, c);
    print_message("ik bones up to %.2g of the height from their feet and hands\n", apart / height);
    assert_true(apart <= 1e-5 * height);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    remove(rig);
    remove(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cli_retargeted_cmu_walk_drives_the_walker),
        cmocka_unit_test(cli_gltf_rig_matches_its_bvh),
        cmocka_unit_test(cli_retarget_of_another_studio_s_shape_matches_the_original),
        cmocka_unit_test(cli_retarget_errors_and_overrides),
        cmocka_unit_test(cli_retarget_names_the_source_s_root_joint),
        cmocka_unit_test(cli_retarget_root_joint_reaches_the_contacts),
        cmocka_unit_test(cli_retarget_onto_a_ue4_rig_keeps_its_ik_bones_on_the_feet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
