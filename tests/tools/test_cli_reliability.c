/* Nothing the user owns is lost (issue 10), tested on the real CLI:
 * - `convert` killed mid-write (SIGKILL while it is stopped at a known byte, through the
 *   file layer's AK_TEST_STOP_AFTER_BYTES hook) leaves the previous output, or with
 *   --in-place the input, intact and parseable;
 * - `convert IN IN` is refused without --in-place;
 * - a full disk (/dev/full) gives exit 1 and the reason, and the other outputs of the set
 *   keep their old content;
 * - eight concurrent walks into one folder leave one whole run's files, which belong together;
 * - walk's memory does not depend on --max-time;
 * - flags whose values would print non-finite numbers or fail silently are refused, naming
 *   the flag and its value. */
#define _XOPEN_SOURCE 700
#include "test_util.h"
#include "../io/bvh_test_util.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char g_dir[1024];

static const char *animkit_path(void)
{
    static char path[1024];
    const char *b = getenv("AK_BUILD_DIR");
    if (!b) fail_msg("AK_BUILD_DIR is not set (run through ctest)");
    snprintf(path, sizeof path, "%s/bin/animkit", b);
    return path;
}

static const char *in_dir(const char *name)
{
    static char p[8][1200];
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s/%s", g_dir, name);
    return p[k];
}

typedef struct child {
    pid_t pid;
    char out[1200], err[1200];
} child;

/* Starts animkit with argv (NULL-terminated) and stdout/stderr into files; env_stop sets the
 * stop-after-bytes hook; as_limit_mb > 0 caps the address space. */
static child start(const char *const *argv, const char *env_stop, long as_limit_mb)
{
    static int serial;
    child c;
    snprintf(c.out, sizeof c.out, "%s/run%d.out", g_dir, serial);
    snprintf(c.err, sizeof c.err, "%s/run%d.err", g_dir, serial++);
    c.pid = fork();
    assert_true(c.pid >= 0);
    if (c.pid == 0) {
        int o = open(c.out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(c.err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1);
        dup2(e, 2);
        if (env_stop) setenv("AK_TEST_STOP_AFTER_BYTES", env_stop, 1);
        if (as_limit_mb > 0) {
            struct rlimit rl = {(rlim_t)as_limit_mb << 20, (rlim_t)as_limit_mb << 20};
            setrlimit(RLIMIT_AS, &rl);
        }
        execv(animkit_path(), (char *const *)argv);
        _exit(127);
    }
    return c;
}

/* Waits for exit; returns the exit code (-1 when killed by a signal). */
static int finish(child *c)
{
    int st = 0;
    assert_int_equal(waitpid(c->pid, &st, 0), c->pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run(const char *const *argv, char **err_text)
{
    child c = start(argv, NULL, 0);
    int code = finish(&c);
    if (err_text) *err_text = slurp(c.err, NULL);
    remove(c.out);
    remove(c.err);
    return code;
}

static void copy_file(const char *from, const char *to)
{
    size_t n = 0;
    char *d = slurp(from, &n);
    FILE *f = fopen(to, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    fclose(f);
    free(d);
}

static int same_bytes(const char *a, const char *b)
{
    size_t na = 0, nb = 0;
    char *da = slurp(a, &na), *db = slurp(b, &nb);
    int same = na == nb && memcmp(da, db, na) == 0;
    free(da);
    free(db);
    return same;
}

/* Names in g_dir that look like the file layer's temporaries (".NAME.tmp-PID-K"). */
static int temporaries(void)
{
    DIR *d = opendir(g_dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)))
        n += strstr(e->d_name, ".tmp-") != NULL;
    closedir(d);
    return n;
}

static void parses(const char *path)
{
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    int32_t st = ak_bvh_read_file(path, NULL, &s, &c, &err);
    if (st != AK_OK) fail_msg("%s does not parse: %s (line %d)", path, err.message, (int)err.line);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "%s/tests/reliability_XXXXXX", getenv("AK_BUILD_DIR"));
    assert_non_null(mkdtemp(g_dir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[1300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Stops `convert` after its first 64 KiB, checks the target is still the old file while the
 * new one is half written, kills it, and checks again. */
static void kill_mid_write(const char *const *argv, const char *target, const char *reference)
{
    const int before = temporaries(); /* an earlier kill's temporary may still be there */
    child c = start(argv, "65536", 0);
    int st = 0;
    assert_int_equal(waitpid(c.pid, &st, WUNTRACED), c.pid);
    assert_true(WIFSTOPPED(st)); /* stopped mid-write, at the hook */
    assert_int_equal(temporaries(), before + 1);
    assert_true(same_bytes(target, reference));
    kill(c.pid, SIGKILL);
    assert_int_equal(waitpid(c.pid, &st, 0), c.pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    assert_true(same_bytes(target, reference));
    parses(target);
    remove(c.out);
    remove(c.err);
}

static void convert_killed_mid_write_keeps_the_old_output(void **state)
{
    (void)state;
    const char *src = mocap_path("cmu_02_01_walk.bvh");
    const char *out = in_dir("out.bvh"), *old = in_dir("old.bvh");
    const char *first[] = {"animkit", "convert", src, out, "--order", "XYZ", NULL};
    assert_int_equal(run(first, NULL), 0);
    copy_file(out, old);
    struct stat sb;
    assert_int_equal(stat(out, &sb), 0);
    assert_true(sb.st_size > 4 * 65536); /* so the kill lands well inside the file */
    const char *again[] = {"animkit", "convert", src, out, NULL};
    kill_mid_write(again, out, old);
    remove(out);
    remove(old);
    /* The killed run's temporary stays (nothing can remove it after SIGKILL); it is hidden
     * and never mistaken for the output. */
}

static void convert_in_place_killed_keeps_the_input(void **state)
{
    (void)state;
    const char *in = in_dir("in.bvh"), *copy = in_dir("copy.bvh");
    copy_file(mocap_path("cmu_02_01_walk.bvh"), in);
    copy_file(in, copy);
    const char *argv[] = {"animkit", "convert", in, in, "--order", "XYZ", "--in-place", NULL};
    kill_mid_write(argv, in, copy);
}

static void convert_onto_its_input_needs_in_place(void **state)
{
    (void)state;
    const char *in = in_dir("self.bvh"), *copy = in_dir("self_copy.bvh");
    copy_file(mocap_path("cmu_02_01_walk.bvh"), in);
    copy_file(in, copy);
    char dotted[1300];
    snprintf(dotted, sizeof dotted, "%s/./self.bvh", g_dir);
    const char *argv[] = {"animkit", "convert", in, dotted, "--order", "XYZ", NULL};
    char *err = NULL;
    assert_int_equal(run(argv, &err), 2);
    assert_non_null(strstr(err, "is the input file; add --in-place"));
    free(err);
    assert_true(same_bytes(in, copy));
    const char *ok[] = {"animkit", "convert", in, dotted, "--order", "XYZ", "--in-place", NULL};
    assert_int_equal(run(ok, NULL), 0);
    assert_false(same_bytes(in, copy));
    parses(in);
}

static void convert_to_a_full_disk_says_so(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0) skip();
    const char *out = in_dir("full.bvh"), *gl = in_dir("full.glb");
    assert_int_equal(symlink("/dev/full", out), 0);
    assert_int_equal(symlink("/dev/full", gl), 0);
    char *err = NULL;
    const char *argv[] = {"animkit", "convert", mocap_path("cmu_02_01_walk.bvh"), out, NULL};
    assert_int_equal(run(argv, &err), 1);
    assert_non_null(strstr(err, "full.bvh: cannot write: No space left on device"));
    free(err);
    const char *argv2[] = {"animkit", "convert", mocap_path("cmu_02_01_walk.bvh"), gl, NULL};
    assert_int_equal(run(argv2, &err), 1);
    assert_non_null(strstr(err, "full.glb: cannot write: No space left on device"));
    free(err);
}

static void walk_with_a_full_disk_fails_and_keeps_the_old_set(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0) skip();
    const char *dir = in_dir("walkfull");
    const char *first[] = {"animkit", "walk", "--quiet", "--out", dir, NULL};
    assert_int_equal(run(first, NULL), 0);
    char bvh[1300], csv[1300], old_bvh[1300];
    snprintf(bvh, sizeof bvh, "%s/walk.bvh", dir);
    snprintf(csv, sizeof csv, "%s/walk.csv", dir);
    snprintf(old_bvh, sizeof old_bvh, "%s/old.bvh", g_dir);
    copy_file(bvh, old_bvh);
    remove(csv);
    assert_int_equal(symlink("/dev/full", csv), 0);
    const char *again[] = {"animkit", "walk", "--quiet", "--target", "5,3", "--out", dir, NULL};
    child c = start(again, NULL, 0);
    assert_int_equal(finish(&c), 1);
    char *err = slurp(c.err, NULL), *out = slurp(c.out, NULL);
    assert_non_null(strstr(err, "walk.csv: cannot write: No space left on device"));
    assert_string_equal(out, ""); /* no summary for a run whose files were not written */
    free(err);
    free(out);
    assert_true(same_bytes(bvh, old_bvh)); /* the BVH of the set was not replaced alone */
    remove(c.out);
    remove(c.err);
}

/* Reads walk.csv: checks every row has 40 fields and times increase; returns the rows and
 * the last time. */
static int csv_rows(const char *path, double *last_t)
{
    size_t n = 0;
    char *text = slurp(path, &n);
    int rows = 0;
    double prev = -1.0;
    char *line = strchr(text, '\n') + 1;
    while (*line) {
        char *eol = strchr(line, '\n');
        assert_non_null(eol);
        *eol = '\0';
        int commas = 0;
        for (char *p = line; *p; ++p)
            commas += *p == ',';
        assert_int_equal(commas, 39); /* 40 columns: see animkit walk --help */
        double t = atof(line);
        assert_true(t > prev);
        prev = t;
        ++rows;
        line = eol + 1;
    }
    free(text);
    *last_t = prev;
    return rows;
}

static void eight_concurrent_walks_leave_one_whole_set(void **state)
{
    (void)state;
    const char *dir = in_dir("walk8");
    char targets[8][32];
    child c[8];
    for (int i = 0; i < 8; ++i) {
        snprintf(targets[i], sizeof targets[i], "%d,%d", 2 + i, 1 + (i % 3));
        const char *argv[] = {"animkit",  "walk",  "--quiet", "--target",
                              targets[i], "--out", dir,       NULL};
        c[i] = start(argv, NULL, 0);
    }
    for (int i = 0; i < 8; ++i) {
        assert_int_equal(finish(&c[i]), 0);
        remove(c[i].out);
        remove(c[i].err);
    }
    char path[1300];
    snprintf(path, sizeof path, "%s/walk.csv", dir);
    double last_t = 0.0;
    int rows = csv_rows(path, &last_t);
    snprintf(path, sizeof path, "%s/walk.bvh", dir);
    ak_skeleton *s = NULL;
    ak_clip *clip = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(path, NULL, &s, &clip, &err), AK_OK);
    assert_int_equal(clip->frame_count, rows); /* the BVH and the CSV are of one run */
    ak_skeleton_destroy(s);
    ak_clip_destroy(clip);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *json = slurp(path, NULL);
    cJSON *doc = cJSON_Parse(json);
    assert_non_null(doc);
    AKT_NEAR(cJSON_GetObjectItem(doc, "time_s")->valuedouble, last_t, 0.0005 + 1e-9);
    cJSON_Delete(doc);
    free(json);
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)))
        assert_null(strstr(e->d_name, ".tmp-")); /* no run left a temporary behind */
    closedir(d);
}

/* The old walk allocated every frame of --max-time up front (100000 s at 60 fps: about
 * 2.5 GB for 26 joints); streamed, a walk that arrives after a few seconds fits in 300 MB. */
static void walk_memory_does_not_grow_with_max_time(void **state)
{
    (void)state;
    if (getenv("ASAN_OPTIONS")) skip(); /* ASan reserves terabytes of address space */
    const char *argv[] = {"animkit", "walk",  "--quiet",          "--max-time",
                          "100000",  "--out", in_dir("walklong"), NULL};
    child c = start(argv, NULL, 300);
    assert_int_equal(finish(&c), 0);
    remove(c.out);
    remove(c.err);
}

/* Each: argv tail after "animkit", expected code, a piece of the message. */
static void expect_refusal(const char *const *argv, int code, const char *text)
{
    char *err = NULL;
    int got = run(argv, &err);
    if (got != code || !strstr(err, text))
        fail_msg("%s %s: exit %d (want %d), stderr: %s (want '%s')", argv[1], argv[2], got, code,
                 err, text);
    free(err);
}

static void values_that_would_overflow_are_refused_by_name(void **state)
{
    (void)state;
    const char *bvh = mocap_path("cmu_02_01_walk.bvh");
    const char *pos[] = {"animkit", "positions", bvh, "--time", "1e39", NULL};
    expect_refusal(pos, 2, "--time");
    const char *target[] = {"animkit", "walk", "--target", "1e30,0", "--out", in_dir("x"), NULL};
    expect_refusal(target, 2, "--target");
    const char *height[] = {"animkit", "walk", "--heightmap", "h.pgm", "--height", "1e30", NULL};
    expect_refusal(height, 2, "--height");
    const char *size[] = {"animkit", "walk", "--heightmap", "h.pgm", "--size", "1e-30", NULL};
    expect_refusal(size, 2, "--size");
    const char *out[] = {"animkit", "walk", "--out", "", NULL};
    expect_refusal(out, 2, "--out");
}

/* Issue 27: a value outside its range is refused with the flag and the value in the message,
 * and a name that is neither a file nor a built-in lists the built-ins. The bounds are the
 * clip's: cmu_09_01_run has frames 0..148 at 120 fps, so it ends at 148/120 = 1.233 s. */
static void ranges_name_the_flag_and_value(void **state)
{
    (void)state;
    const char *bvh = mocap_path("cmu_09_01_run.bvh");
    const char *before[] = {"animkit", "positions", bvh, "--time", "-1", NULL};
    expect_refusal(before, 2, "--time -1 is before the start of the clip (0 s)");
    const char *after[] = {"animkit", "positions", bvh, "--time", "0,1.3", NULL};
    expect_refusal(after, 2, "--time 1.3 is past the end of the clip (1.233 s)");
    const char *frames[] = {"animkit", "positions", bvh, "--frames", "0,149", NULL};
    expect_refusal(frames, 2, "--frames 0,149: frame 149 is past the last frame 148");
    const char *ik[] = {"animkit", "ik",       bvh,     "--frame",   "149",
                        "--root",  "RightArm", "--tip", "RightHand", "--target",
                        "0,0,0",   "--solver", "limb",  NULL};
    expect_refusal(ik, 2, "--frame 149 is past the last frame 148");
    const char *rig[] = {"animkit", "retarget",      bvh, "--to", "robot",
                         "--out",   in_dir("r.bvh"), NULL};
    expect_refusal(rig, 1, "--to robot: no such file, and not a built-in rig (built-in: biped)");
    const char *slot[] = {"animkit", "info", bvh, "--humanoid", "tail=Hips", NULL};
    expect_refusal(slot, 2, "unknown humanoid slot 'tail' (slots: hips, spine, chest");
    const char *render_help[] = {"animkit", "render", "--help", NULL};
    if (run(render_help, NULL) != 0) return; /* a build without the renderer */
    const char *render_frame[] = {"animkit", "render",        bvh, "--frame", "149",
                                  "--out",   in_dir("r.png"), NULL};
    expect_refusal(render_frame, 2, "--frame 149 is past the last frame (148)");
    const char *render_time[] = {"animkit", "render",        bvh, "--time", "2",
                                 "--out",   in_dir("r.png"), NULL};
    expect_refusal(render_time, 2, "--time 2 is past the end (1.233 s, frame 148)");
    const char *follow[] = {"animkit", "render",        bvh, "--follow", "Tail",
                            "--out",   in_dir("r.png"), NULL};
    expect_refusal(follow, 2, "--follow Tail");
}

static void start_outside_the_heightmap_says_so(void **state)
{
    (void)state;
    const char *pgm = in_dir("ramp.pgm");
    FILE *f = fopen(pgm, "wb");
    assert_non_null(f);
    fprintf(f, "P2\n4 4\n255\n");
    for (int i = 0; i < 16; ++i)
        fprintf(f, "%d\n", (i % 4) * 20);
    fclose(f);
    const char *argv[] = {"animkit", "walk",  "--heightmap", pgm,   "--size", "10",
                          "--start", "-20,0", "--target",    "2,0", "--out",  in_dir("outside"),
                          NULL};
    expect_refusal(argv, 1, "--start -20,0");
}

/* Reads everything a shell command prints (stdout; the command redirects what it wants). */
static char *shell_output(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, n = 0;
    char *buf = (char *)malloc(cap);
    assert_non_null(buf);
    size_t got;
    while (n + 1 < cap && (got = fread(buf + n, 1, cap - 1 - n, p)) > 0)
        n += got;
    buf[n] = '\0';
    pclose(p);
    return buf;
}

/* Issue 27: a job the CLI cannot count (here a retarget: one library call) shows a progress
 * line on a terminal once it has run long enough, and a log (stderr not a terminal) gets one
 * timing line instead, with nothing rewritten in place. The 2 s threshold is lowered to 0 by
 * the test hook so a job of any length is "long"; `script` gives the job a terminal. A quick
 * job under the real threshold prints nothing extra to a log. */
static void long_jobs_show_progress_on_a_terminal_and_time_in_a_log(void **state)
{
    (void)state;
    if (system("command -v script >/dev/null 2>&1") != 0) skip();
    const char *bvh = mocap_path("arena_louise_stand_walk_cycle.bvh");
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "AK_TEST_PROGRESS_AFTER_S=0 script -qec \"'%s' retarget '%s' --to biped --out '%s'\" "
             "/dev/null",
             animkit_path(), bvh, in_dir("progress_tty.bvh"));
    char *tty = shell_output(cmd);
    if (!strstr(tty, "animkit retarget: working, ") || !strstr(tty, "animkit retarget: done in "))
        fail_msg("on a terminal: no progress line in: %s", tty);
    free(tty);
    snprintf(cmd, sizeof cmd,
             "AK_TEST_PROGRESS_AFTER_S=0 '%s' retarget '%s' --to biped --out '%s' 2>&1 >/dev/null",
             animkit_path(), bvh, in_dir("progress_log.bvh"));
    char *log = shell_output(cmd);
    if (strstr(log, "working") || strchr(log, '\r') || !strstr(log, "\nanimkit retarget: "))
        fail_msg("in a log: want one timing line and nothing rewritten, got: %s", log);
    free(log);
    snprintf(cmd, sizeof cmd, "'%s' info '%s' 2>&1 >/dev/null", animkit_path(),
             mocap_path("cmu_09_01_run.bvh"));
    char *quick = shell_output(cmd);
    assert_string_equal(quick, "");
    free(quick);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(convert_killed_mid_write_keeps_the_old_output),
        cmocka_unit_test(convert_in_place_killed_keeps_the_input),
        cmocka_unit_test(convert_onto_its_input_needs_in_place),
        cmocka_unit_test(convert_to_a_full_disk_says_so),
        cmocka_unit_test(walk_with_a_full_disk_fails_and_keeps_the_old_set),
        cmocka_unit_test(eight_concurrent_walks_leave_one_whole_set),
        cmocka_unit_test(walk_memory_does_not_grow_with_max_time),
        cmocka_unit_test(values_that_would_overflow_are_refused_by_name),
        cmocka_unit_test(start_outside_the_heightmap_says_so),
        cmocka_unit_test(ranges_name_the_flag_and_value),
        cmocka_unit_test(long_jobs_show_progress_on_a_terminal_and_time_in_a_log),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
