/* `animkit ik`: JSON result line, solved positions as CSV checked against the reference
 * positions of the test mocap file (joints outside the chain unchanged, foot on target,
 * bone lengths kept), and the usage/input error exit codes. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#define MAXJ 128

typedef struct joint_pos {
    char name[64];
    double p[3];
} joint_pos;

/* Reads `frame,joint,x,y,z` rows for frame f from a CSV stream into out; returns the count. */
static int read_rows(FILE *f, int frame, joint_pos *out, int max)
{
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        int fr;
        char name[64];
        double x, y, z;
        if (sscanf(line, "%d,%63[^,],%lf,%lf,%lf", &fr, name, &x, &y, &z) != 5) continue;
        if (fr != frame || n >= max) continue;
        snprintf(out[n].name, sizeof out[n].name, "%s", name);
        out[n].p[0] = x;
        out[n].p[1] = y;
        out[n].p[2] = z;
        ++n;
    }
    return n;
}

static const joint_pos *find(const joint_pos *rows, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (strcmp(rows[i].name, name) == 0) return &rows[i];
    return NULL;
}

static double dist(const double *a, const double *b)
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

static int run_status(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void cli_ik_limb_puts_foot_on_target(void **state)
{
    (void)state;
    char bvh[1024], csv[1024], cmd[4096];
    akt_mocap_path("cmu_02_01_walk.bvh", bvh, sizeof bvh);
    akt_mocap_path("cmu_02_01_walk.positions.csv", csv, sizeof csv);
    static joint_pos ref[MAXJ], got[MAXJ];
    FILE *f = fopen(csv, "r");
    assert_non_null(f);
    int nref = read_rows(f, 10, ref, MAXJ);
    fclose(f);
    assert_true(nref > 20);
    const joint_pos *hip = find(ref, nref, "LeftUpLeg"), *foot = find(ref, nref, "LeftFoot");
    assert_non_null(hip);
    assert_non_null(foot);
    double target[3];
    for (int k = 0; k < 3; ++k)
        target[k] = hip->p[k] + 0.85 * (foot->p[k] - hip->p[k]) + (k == 2 ? 2.0 : 0.0);

    const char *build = getenv("AK_BUILD_DIR");
    assert_non_null(build);
    const char *solvers[5] = {"limb", "ccd", "fabrik", "jacobian", "dls"};
    for (int s = 0; s < 5; ++s) {
        snprintf(
            cmd, sizeof cmd,
            "'%s/bin/animkit' ik '%s' --frame 10 --root %s --tip LeftFoot --target %.9g,%.9g,%.9g "
            "--solver %s --positions",
            build, bvh, s == 0 ? "LeftUpLeg" : "Hips", target[0], target[1], target[2], solvers[s]);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        char json[512];
        assert_non_null(fgets(json, sizeof json, p));
        char want[64];
        snprintf(want, sizeof want,
                 "{\"solver\":\"%s\",\"reached\":true,\"iterations\":", solvers[s]);
        if (strncmp(json, want, strlen(want)) != 0) fail_msg("unexpected JSON line: %s", json);
        const char *e = strstr(json, "\"error\":");
        assert_non_null(e);
        double err = atof(e + 8);
        int ngot = read_rows(p, 10, got, MAXJ);
        assert_int_equal(pclose(p), 0);
        assert_int_equal(ngot, nref);
        const joint_pos *gfoot = find(got, ngot, "LeftFoot");
        assert_non_null(gfoot);
        AKT_NEAR(dist(gfoot->p, target), err, 1e-4);
        assert_true(err < 1e-2); /* 1e-4 of a ~30-unit chain */
        /* Everything outside the solved chain's subtree (right leg, spine, arms, head) keeps its
         * reference position; bones keep their reference lengths. */
        const char *outside[] = {"RightUpLeg", "RightLeg", "RightFoot", "Spine",
                                 "Head",       "LeftHand", "RightHand"};
        for (int i = 0; i < (int)(sizeof outside / sizeof outside[0]); ++i) {
            const joint_pos *a = find(ref, nref, outside[i]), *b = find(got, ngot, outside[i]);
            assert_non_null(a);
            assert_non_null(b);
            if (s == 0) AKT_NEAR(dist(a->p, b->p), 0.0, 1e-3);
        }
        const char *bones[3][2] = {
            {"LeftUpLeg", "LeftLeg"}, {"LeftLeg", "LeftFoot"}, {"LeftFoot", "LeftToeBase"}};
        for (int i = 0; i < 3; ++i) {
            double lr = dist(find(ref, nref, bones[i][0])->p, find(ref, nref, bones[i][1])->p);
            double lg = dist(find(got, ngot, bones[i][0])->p, find(got, ngot, bones[i][1])->p);
            AKT_NEAR(lg, lr, 1e-4 * lr + 1e-4);
        }
    }
}

static void cli_ik_reports_usage_and_input_errors(void **state)
{
    (void)state;
    char bvh[1024], cmd[4096];
    akt_mocap_path("cmu_02_01_walk.bvh", bvh, sizeof bvh);
    const char *build = getenv("AK_BUILD_DIR");
    assert_non_null(build);
    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' ik '%s' --root Hips --tip LeftFoot --target 0,0,0 --solver nope "
             "2>/dev/null",
             build, bvh);
    assert_int_equal(run_status(cmd), 2);
    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' ik '%s' --root Hips --tip LeftFoot --solver ccd 2>/dev/null", build,
             bvh);
    assert_int_equal(run_status(cmd), 2);
    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' ik '%s' --root Hips --tip LeftFoot --target 0,0,0 --solver limb "
             "2>/dev/null",
             build, bvh);
    assert_int_equal(run_status(cmd), 1);
    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' ik '%s' --root Nobody --tip LeftFoot --target 0,0,0 --solver ccd "
             "2>/dev/null",
             build, bvh);
    assert_int_equal(run_status(cmd), 1);
    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' ik '%s' --root LeftFoot --tip Hips --target 0,0,0 --solver ccd "
             "2>/dev/null",
             build, bvh);
    assert_int_equal(run_status(cmd), 1);
    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' ik '%s' --frame 99999 --root Hips --tip LeftFoot --target 0,0,0 "
             "--solver ccd 2>/dev/null",
             build, bvh);
    assert_int_equal(run_status(cmd), 2);
    snprintf(cmd, sizeof cmd, "'%s/bin/animkit' ik --help >/dev/null", build);
    assert_int_equal(run_status(cmd), 0);
    /* Weight 0: the input pose exactly, and reached only if it already was. */
    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' ik '%s' --root Hips --tip LeftFoot --target 0,100,0 --solver fabrik "
             "--weight 0",
             build, bvh);
    FILE *p = popen(cmd, "r");
    char json[512];
    assert_non_null(fgets(json, sizeof json, p));
    assert_int_equal(pclose(p), 0);
    assert_non_null(strstr(json, "\"reached\":false,\"iterations\":0"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cli_ik_limb_puts_foot_on_target),
        cmocka_unit_test(cli_ik_reports_usage_and_input_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
