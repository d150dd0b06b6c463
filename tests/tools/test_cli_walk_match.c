/* animkit walk --steer match: the database from repeated --clip files and from --library,
 * the walker's outputs and summary, and usage errors. Runs the real binary. */
#define _POSIX_C_SOURCE 200809L /* popen */
#include "test_util.h"

#include <sys/wait.h>

static char g_bin[1024], g_out[1024];

static int setup(void **state)
{
    (void)state;
    const char *b = getenv("AK_BUILD_DIR");
    if (!b) return -1;
    snprintf(g_bin, sizeof g_bin, "%s/bin/animkit", b);
    snprintf(g_out, sizeof g_out, "%s/test-out/matching_cli", b);
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", g_out);
    return system(cmd) == 0 ? 0 : -1;
}

static int run(const char *cmd, char *last, size_t size)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[4096];
    last[0] = '\0';
    while (fgets(line, sizeof line, p))
        snprintf(last, size, "%s", line);
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static double json_number(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *k = strstr(json, pat);
    if (!k) fail_msg("key %s missing in %s", key, json);
    return strtod(k + strlen(pat), NULL);
}

/* Three clips of CMU subject 2 on hills: arrives, stops, writes a BVH that reads back with
 * the database's skeleton and one CSV row per frame. */
static void walk_match_from_clips_arrives_and_writes_its_files(void **state)
{
    (void)state;
    char a[1200], b[1200], c[1200], cmd[6000], last[4096], path[1300];
    akt_mocap_path("cmu_02_01_walk.bvh", a, sizeof a);
    akt_mocap_path("locomotion/cmu_02_02_walk.bvh", b, sizeof b);
    akt_mocap_path("locomotion/cmu_02_03_run.bvh", c, sizeof c);
    snprintf(cmd, sizeof cmd,
             "'%s' walk --steer match --clip '%s' --clip '%s' --clip '%s' --terrain hills "
             "--start -3,-2 --target 3,2 --out '%s/clips' 2>/dev/null",
             g_bin, a, b, c, g_out);
    assert_int_equal(run(cmd, last, sizeof last), 0);
    assert_non_null(strstr(last, "\"arrived\":true"));
    assert_true(json_number(last, "final_distance") <= 0.3);
    assert_true(json_number(last, "transitions") >= 1);
    snprintf(path, sizeof path, "%s/clips/walk.bvh", g_out);
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    assert_int_equal(ak_bvh_read_file(path, NULL, &sk, &clip, NULL), AK_OK);
    assert_int_equal(sk->joint_count, 38);
    snprintf(path, sizeof path, "%s/clips/walk.csv", g_out);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "t,root_x,root_y,root_z,heading,left_x"));
    int rows = 0;
    while (fgets(line, sizeof line, f))
        ++rows;
    fclose(f);
    assert_int_equal(rows, clip->frame_count);
    assert_true(json_number(last, "db_frames") > 300);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(sk);
}

/* --library takes every .bvh of a folder (here the locomotion captures of subjects 2, 7 and
 * 9 share one joint layout; the first file's skeleton carries them). */
static void walk_match_from_a_library_folder(void **state)
{
    (void)state;
    char dir[1200], cmd[4000], last[4096];
    akt_mocap_path("locomotion/cmu_02_02_walk.bvh", dir, sizeof dir);
    *strrchr(dir, '/') = '\0';
    snprintf(cmd, sizeof cmd,
             "'%s' walk --steer match --library '%s' --terrain flat --start 0,0 --target 0,5 "
             "--out '%s/library' 2>/dev/null",
             g_bin, dir, g_out);
    assert_int_equal(run(cmd, last, sizeof last), 0);
    assert_true(json_number(last, "final_distance") <= 0.3);
}

static void walk_match_usage_errors(void **state)
{
    (void)state;
    char cmd[4000], last[4096];
    snprintf(cmd, sizeof cmd, "'%s' walk --steer match --out '%s/none' 2>/dev/null", g_bin, g_out);
    assert_int_equal(run(cmd, last, sizeof last), 2);
    snprintf(cmd, sizeof cmd, "'%s' walk --clip a.bvh --clip b.bvh 2>/dev/null", g_bin);
    assert_int_equal(run(cmd, last, sizeof last), 2);
    snprintf(cmd, sizeof cmd, "'%s' walk --steer sideways 2>/dev/null", g_bin);
    assert_int_equal(run(cmd, last, sizeof last), 2);
    snprintf(cmd, sizeof cmd,
             "'%s' walk --steer match --library '%s/no-such-folder' --out '%s/none' 2>/dev/null",
             g_bin, g_out, g_out);
    assert_int_equal(run(cmd, last, sizeof last), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walk_match_from_clips_arrives_and_writes_its_files),
        cmocka_unit_test(walk_match_from_a_library_folder),
        cmocka_unit_test(walk_match_usage_errors),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
