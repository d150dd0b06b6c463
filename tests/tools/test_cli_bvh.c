/* The BVH commands of the CLI, run as a user would: `animkit positions` reproduces the
 * reference CSVs, `info --json` is valid JSON with every joint, `convert` round-trips,
 * info/positions/walk/retarget/render take glTF, GLB and FBX clips, errors go to stderr as
 * FILE:LINE: reason with the documented exit codes. */
#define _POSIX_C_SOURCE 200809L
#include "../io/bvh_test_util.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct run_result {
    int code;
    char *out, *err;
    size_t out_size;
} run_result;

static const char *animkit_path(void)
{
    static char path[1024];
    const char *b = getenv("AK_BUILD_DIR");
    if (!b) fail_msg("AK_BUILD_DIR is not set (run through ctest)");
    snprintf(path, sizeof path, "%s/bin/animkit", b);
    return path;
}

/* Runs `animkit ARGS`, capturing stdout and stderr. */
static run_result run(const char *args)
{
    char out_path[1100], err_path[1100], cmd[4096];
    const char *b = getenv("AK_BUILD_DIR");
    snprintf(out_path, sizeof out_path, "%s/tests/cli_bvh_%d.out", b, (int)getpid());
    snprintf(err_path, sizeof err_path, "%s/tests/cli_bvh_%d.err", b, (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", animkit_path(), args, out_path, err_path);
    int st = system(cmd);
    run_result r;
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = slurp(out_path, &r.out_size);
    r.err = slurp(err_path, NULL);
    remove(out_path);
    remove(err_path);
    return r;
}

static void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
}

/* Finds "frame,joint," rows of `csv` in a hash-free way: the CLI output is in frame order,
 * so index its rows by frame once. */
typedef struct csv_row {
    int frame;
    const char *joint; /* points into the text, ends at ',' */
    size_t joint_len;
    double x, y, z;
} csv_row;

static csv_row *parse_csv(char *text, size_t *count)
{
    size_t cap = 1024, n = 0;
    csv_row *rows = (csv_row *)malloc(cap * sizeof *rows);
    char *line = strchr(text, '\n');
    assert_non_null(line);
    ++line; /* header */
    while (*line) {
        char *eol = strchr(line, '\n');
        if (eol) *eol = '\0';
        char *cr = strchr(line, '\r');
        if (cr) *cr = '\0';
        if (*line) {
            if (n == cap) rows = (csv_row *)realloc(rows, (cap *= 2) * sizeof *rows);
            csv_row *r = &rows[n++];
            r->frame = atoi(line);
            r->joint = strchr(line, ',') + 1;
            char *c2 = strchr(r->joint, ',');
            r->joint_len = (size_t)(c2 - r->joint);
            assert_int_equal(sscanf(c2 + 1, "%lf,%lf,%lf", &r->x, &r->y, &r->z), 3);
        }
        if (!eol) break;
        line = eol + 1;
    }
    *count = n;
    return rows;
}

static void cli_positions_match_every_reference_csv(void **state)
{
    (void)state;
    static const char *const files[] = {"cmu_02_01_walk",
                                        "cmu_07_01_walk",
                                        "cmu_09_01_run",
                                        "cmu_05_06_dance",
                                        "cmu_16_11_walk_veer_left",
                                        "arena_louise_stand_walk_cycle",
                                        "reactidle_003_genuine_idle"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        char bvh[64], csv[64], args[1200];
        snprintf(bvh, sizeof bvh, "%s.bvh", files[i]);
        snprintf(csv, sizeof csv, "%s.positions.csv", files[i]);
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        assert_int_equal(ak_bvh_read_file(mocap_path(bvh), NULL, &s, &c, NULL), AK_OK);
        const double height = standing_height(s, c);
        const int32_t J = s->joint_count;
        snprintf(args, sizeof args, "positions '%s'", mocap_path(bvh));
        run_result r = run(args);
        assert_int_equal(r.code, 0);
        assert_true(strncmp(r.out, "frame,joint,x,y,z\n", 18) == 0);
        size_t n_out = 0, n_ref = 0;
        csv_row *out = parse_csv(r.out, &n_out);
        char *ref_text = slurp(mocap_path(csv), NULL);
        csv_row *ref = parse_csv(ref_text, &n_ref);
        /* One row per joint per frame, in file order. */
        assert_int_equal(n_out, (size_t)J * (size_t)c->frame_count);
        double worst = 0.0;
        for (size_t k = 0; k < n_ref; ++k) {
            const csv_row *want = &ref[k];
            assert_true(want->frame >= 0 && want->frame < c->frame_count);
            const csv_row *block = out + (size_t)want->frame * (size_t)J;
            const csv_row *got = NULL;
            for (int32_t j = 0; j < J; ++j)
                if (block[j].joint_len == want->joint_len &&
                    memcmp(block[j].joint, want->joint, want->joint_len) == 0)
                    got = &block[j];
            if (!got)
                fail_msg("%s: no output row for frame %d joint %.*s", bvh, want->frame,
                         (int)want->joint_len, want->joint);
            assert_int_equal(got->frame, want->frame);
            double d = sqrt((got->x - want->x) * (got->x - want->x) +
                            (got->y - want->y) * (got->y - want->y) +
                            (got->z - want->z) * (got->z - want->z));
            if (d > worst) worst = d;
        }
        printf("  %-34s %zu reference rows matched, worst %.3g (rel %.3g)\n", bvh, n_ref, worst,
               worst / height);
        assert_true(worst / height < 1e-4);
        free(out);
        free(ref);
        free(ref_text);
        run_free(&r);
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
}

static void cli_positions_frame_lists_and_times(void **state)
{
    (void)state;
    char args[1200];
    const char *bvh = mocap_path("cmu_09_01_run.bvh");
    snprintf(args, sizeof args, "positions '%s' --frames 0,5:25:10,147:", bvh);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    size_t n = 0;
    csv_row *rows = parse_csv(r.out, &n);
    assert_int_equal(n, 38 * 6); /* frames 0, 5, 15, 25, 147, 148 */
    static const int frames[] = {0, 5, 15, 25, 147, 148};
    for (int i = 0; i < 6; ++i)
        assert_int_equal(rows[i * 38].frame, frames[i]);
    /* --time at frame 15's time gives frame 15's positions in every interpolation mode. */
    for (int mode = 0; mode < 3; ++mode) {
        static const char *const modes[] = {"step", "linear", "cubic"};
        snprintf(args, sizeof args, "positions '%s' --time %.9g --interp %s", bvh, 15 * 0.0083333,
                 modes[mode]);
        run_result t = run(args);
        assert_int_equal(t.code, 0);
        assert_true(strncmp(t.out, "time,joint,x,y,z\n", 17) == 0);
        size_t m = 0;
        csv_row *trow = parse_csv(t.out, &m);
        assert_int_equal(m, 38);
        for (int j = 0; j < 38; ++j) {
            const csv_row *f15 = &rows[2 * 38 + j];
            double d =
                fabs(trow[j].x - f15->x) + fabs(trow[j].y - f15->y) + fabs(trow[j].z - f15->z);
            if (d > 1e-3) fail_msg("%s joint %d differs by %g", modes[mode], j, d);
        }
        free(trow);
        run_free(&t);
    }
    free(rows);
    run_free(&r);
}

static void cli_info_json_lists_every_joint_units_and_humanoid(void **state)
{
    (void)state;
    static const struct {
        const char *file, *units;
        int joints;
    } cases[] = {{"cmu_02_01_walk.bvh", "cmu", 38},
                 {"arena_louise_stand_walk_cycle.bvh", "centimetres", 23},
                 {"reactidle_003_genuine_idle.bvh", "metres", 26}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char args[1200];
        snprintf(args, sizeof args, "info '%s' --json", mocap_path(cases[i].file));
        run_result r = run(args);
        assert_int_equal(r.code, 0);
        cJSON *root = cJSON_Parse(r.out);
        if (!root) fail_msg("info --json for %s is not JSON:\n%s", cases[i].file, r.out);
        cJSON *joints = cJSON_GetObjectItem(root, "joints");
        assert_int_equal(cJSON_GetArraySize(joints), cases[i].joints);
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        assert_int_equal(ak_bvh_read_file(mocap_path(cases[i].file), NULL, &s, &c, NULL), AK_OK);
        for (int j = 0; j < cases[i].joints; ++j) {
            cJSON *e = cJSON_GetArrayItem(joints, j);
            assert_string_equal(cJSON_GetObjectItem(e, "name")->valuestring, s->names[j]);
            cJSON *parent = cJSON_GetObjectItem(e, "parent");
            if (s->parents[j] < 0)
                assert_true(cJSON_IsNull(parent));
            else
                assert_string_equal(parent->valuestring, s->names[s->parents[j]]);
            assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(e, "channels")),
                             s->channels[j].count);
        }
        assert_int_equal(cJSON_GetObjectItem(root, "frames")->valueint, c->frame_count);
        cJSON *units = cJSON_GetObjectItem(root, "units");
        assert_string_equal(cJSON_GetObjectItem(units, "name")->valuestring, cases[i].units);
        double metres = cJSON_GetObjectItem(units, "standing_height_m")->valuedouble;
        assert_true(metres > 1.2 && metres < 2.0);
        cJSON *hum = cJSON_GetObjectItem(root, "humanoid");
        assert_true(cJSON_IsTrue(cJSON_GetObjectItem(hum, "complete")));
        assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(hum, "joints"), "left_foot"));
        cJSON_Delete(root);
        run_free(&r);
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
    /* The text form names the units and what the humanoid map is missing. */
    char args[1200];
    snprintf(args, sizeof args, "info '%s'", mocap_path("arena_louise_stand_walk_cycle.bvh"));
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "units       centimetres"));
    assert_non_null(strstr(r.out, "frames      2998"));
    assert_non_null(strstr(r.out, "missing: spine left_toe right_toe"));
    run_free(&r);
}

static void cli_convert_writes_a_bvh_that_reads_back_the_same(void **state)
{
    (void)state;
    char args[2400], out[1100];
    snprintf(out, sizeof out, "%s/tests/cli_bvh_convert_%d.bvh", getenv("AK_BUILD_DIR"),
             (int)getpid());
    snprintf(args, sizeof args, "convert '%s' '%s' --order YZX", mocap_path("cmu_09_01_run.bvh"),
             out);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.err, "rotation order YZX"));
    ak_skeleton *s = NULL, *s2 = NULL;
    ak_clip *c = NULL, *c2 = NULL;
    assert_int_equal(ak_bvh_read_file(mocap_path("cmu_09_01_run.bvh"), NULL, &s, &c, NULL), AK_OK);
    assert_int_equal(ak_bvh_read_file(out, NULL, &s2, &c2, NULL), AK_OK);
    assert_true(max_world_distance(s, c, s2, c2) / standing_height(s, c) < 1e-5);
    assert_int_equal(s2->channels[1].kind[0], AK_CH_YROT);
    remove(out);
    run_free(&r);
    /* To glTF binary: the detected units are reported and a GLB comes out. */
    snprintf(out, sizeof out, "%s/tests/cli_bvh_convert_%d.glb", getenv("AK_BUILD_DIR"),
             (int)getpid());
    snprintf(args, sizeof args, "convert '%s' '%s'", mocap_path("cmu_09_01_run.bvh"), out);
    r = run(args);
    if (r.code != 0) fail_msg("convert to glb failed: %s", r.err);
    assert_non_null(strstr(r.err, "units: cmu"));
    size_t glb_size = 0;
    char *glb = slurp(out, &glb_size);
    assert_true(glb_size > 12 && memcmp(glb, "glTF", 4) == 0);
    free(glb);
    remove(out);
    run_free(&r);
    /* --cubic --no-mesh: CUBICSPLINE samplers and no mesh in the JSON; BVH output refuses them. */
    snprintf(out, sizeof out, "%s/tests/cli_bvh_convert_%d.gltf", getenv("AK_BUILD_DIR"),
             (int)getpid());
    snprintf(args, sizeof args, "convert '%s' '%s' --cubic --no-mesh",
             mocap_path("cmu_09_01_run.bvh"), out);
    r = run(args);
    if (r.code != 0) fail_msg("convert --cubic --no-mesh failed: %s", r.err);
    char *json = slurp(out, &glb_size);
    assert_non_null(strstr(json, "\"CUBICSPLINE\""));
    assert_null(strstr(json, "\"LINEAR\""));
    assert_null(strstr(json, "\"meshes\""));
    free(json);
    remove(out);
    run_free(&r);
    snprintf(args, sizeof args, "convert '%s' x.bvh --cubic", mocap_path("cmu_09_01_run.bvh"));
    r = run(args);
    assert_int_equal(r.code, 2);
    run_free(&r);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    ak_skeleton_destroy(s2);
    ak_clip_destroy(c2);
}

/* Runs `animkit ARGS` and fails with its stderr unless it exits with `code`. */
static run_result run_expect(const char *args, int code)
{
    run_result r = run(args);
    if (r.code != code) fail_msg("animkit %s: exit %d (want %d): %s", args, r.code, code, r.err);
    return r;
}

/* Removes what `walk --out DIR` writes (its three files and the folder lock), then DIR. */
static void walk_out_remove(const char *dir)
{
    static const char *const files[] = {"walk.bvh", "walk.csv", "summary.json", ".animkit.lock"};
    char path[1200];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        assert_int_equal(remove(path), 0);
    }
    if (remove(dir) != 0) fail_msg("remove %s: %s", dir, strerror(errno));
}

/* info, positions, walk, retarget and render on one clip file whose rig is a humanoid: each
 * exits 0; positions writes `joints` rows a frame, returned (the caller frees). */
static char *clip_commands_run(const char *clip, int joints)
{
    char args[4096], out[1100];
    const char *b = getenv("AK_BUILD_DIR");
    snprintf(args, sizeof args, "info '%s'", clip);
    run_result r = run_expect(args, 0);
    char want[64];
    snprintf(want, sizeof want, "joints      %d + 0 End Sites", joints);
    if (!strstr(r.out, want)) fail_msg("info %s: no '%s' in %s", clip, want, r.out);
    run_free(&r);
    snprintf(out, sizeof out, "%s/tests/cli_clip_walk_%d", b, (int)getpid());
    snprintf(args, sizeof args,
             "walk --clip '%s' --terrain flat --start -1,0 --target 1,0 "
             "--max-time 10 --out '%s'",
             clip, out);
    r = run_expect(args, 0);
    if (!strstr(r.out, "\"arrived\":true")) fail_msg("walk --clip %s: %s", clip, r.out);
    run_free(&r);
    walk_out_remove(out);
    snprintf(out, sizeof out, "%s/tests/cli_clip_%d.bvh", b, (int)getpid());
    snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s'", clip, out);
    r = run_expect(args, 0);
    run_free(&r);
    assert_int_equal(remove(out), 0);
    snprintf(out, sizeof out, "%s/tests/cli_clip_%d.png", b, (int)getpid());
    snprintf(args, sizeof args, "render '%s' --frame 10 --out '%s'", clip, out);
    r = run(args);
    /* A build configured without the viewer (-DAK_BUILD_VIEWER=OFF) has no renderer. */
    const int no_renderer = r.code == 1 && strstr(r.err, "this build has no renderer");
    if (!no_renderer && r.code != 0) fail_msg("animkit %s: exit %d: %s", args, r.code, r.err);
    run_free(&r);
    if (!no_renderer) {
        size_t png_size = 0;
        char *png = slurp(out, &png_size);
        assert_true(png_size > 8 && memcmp(png, "\x89PNG", 4) == 0);
        free(png);
        remove(out);
    }
    snprintf(args, sizeof args, "positions '%s' --frames 10", clip);
    r = run_expect(args, 0);
    size_t rows = 0;
    free(parse_csv(r.out, &rows));
    assert_int_equal((int)rows, joints);
    free(r.err);
    return r.out;
}

/* The commands take glTF and GLB clips as they take BVH ones (a CMU walk converted both
 * ways gives the same positions), and FBX where the CLI has assimp: its non-humanoid test
 * skeleton is read by info, positions and render, and walk names the joints it lacks. */
static void cli_commands_take_gltf_glb_and_fbx_clips(void **state)
{
    (void)state;
    char glb[1100], gltf[1100], args[4096];
    const char *b = getenv("AK_BUILD_DIR");
    snprintf(glb, sizeof glb, "%s/tests/cli_clip_%d.glb", b, (int)getpid());
    snprintf(gltf, sizeof gltf, "%s/tests/cli_clip_%d.gltf", b, (int)getpid());
    const char *src = mocap_path("cmu_02_01_walk.bvh");
    snprintf(args, sizeof args, "convert '%s' '%s'", src, glb);
    run_result r = run_expect(args, 0);
    run_free(&r);
    snprintf(args, sizeof args, "convert '%s' '%s'", src, gltf);
    r = run_expect(args, 0);
    run_free(&r);
    char *from_glb = clip_commands_run(glb, 38), *from_gltf = clip_commands_run(gltf, 38);
    assert_string_equal(from_glb, from_gltf);
    free(from_glb), free(from_gltf);
    remove(glb), remove(gltf);
    const char *fbx = "/usr/share/assimp/models/FBX/animation_with_skeleton.fbx";
    FILE *f = fopen(fbx, "rb");
    if (!f) skip(); /* Debian's assimp-testmodels not installed */
    fclose(f);
    snprintf(args, sizeof args, "info '%s'", fbx);
    r = run(args);
    if (r.code != 0 && strstr(r.err, "assimp")) skip(); /* a CLI built without assimp */
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "joints      16 + 0 End Sites"));
    run_free(&r);
    snprintf(args, sizeof args, "positions '%s' --frames 0", fbx);
    r = run_expect(args, 0);
    run_free(&r);
    snprintf(args, sizeof args, "walk --clip '%s' --max-time 1", fbx);
    r = run(args);
    assert_true(r.code != 0);
    assert_non_null(strstr(r.err, "humanoid joints not found"));
    run_free(&r);
}

/* Writes the CMU walk as FBX 7.4 ASCII into `dir` (tests/tools/make_fbx_ascii.py; 5.6444 cm per
 * unit, CMU's 0.056444 m that ak_units_detect finds, as UnitScaleFactor); skips the test
 * without python3. */
static void make_walk_fbx(const char *dir, char *fbx, size_t size)
{
    char cmd[4096];
    snprintf(fbx, size, "%s/walk.fbx", dir);
    snprintf(cmd, sizeof cmd,
             "python3 '%s/tests/tools/make_fbx_ascii.py' '%s' '%s' --unit-cm 5.6444",
             getenv("AK_SOURCE_DIR"), mocap_path("cmu_02_01_walk.bvh"), fbx);
    const int st = system(cmd);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127) skip(); /* no python3 */
    assert_int_equal(st, 0);
}

/* The highest minus the lowest joint along Y in `frame` of positions rows. */
static double pose_height(const csv_row *rows, size_t n, int frame)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; ++i)
        if (rows[i].frame == frame) lo = fmin(lo, rows[i].y), hi = fmax(hi, rows[i].y);
    return hi - lo;
}

/* The line of `text` that starts with `key` (up to its end), for comparing info outputs. */
static void info_line(const char *text, const char *key, char *out, size_t size)
{
    const char *l = strstr(text, key);
    if (!l) {
        fail_msg("no '%s' in %s", key, text);
        return;
    }
    const size_t n = strcspn(l, "\n");
    snprintf(out, size, "%.*s", (int)n, l);
}

/* `animkit positions` of clip b against clip a: the same rows, each of a has b's row of the same
 * frame and joint (both in frame order) within `bound` (a fraction of a's frame-0 pose
 * height). Returns the worst fraction. */
static double positions_agree(const char *a, const char *b, double bound)
{
    char args[4096];
    snprintf(args, sizeof args, "positions '%s'", a);
    run_result ra = run_expect(args, 0);
    snprintf(args, sizeof args, "positions '%s'", b);
    run_result rb = run_expect(args, 0);
    size_t na = 0, nb = 0, first = 0, matched = 0;
    csv_row *pa = parse_csv(ra.out, &na), *pb = parse_csv(rb.out, &nb);
    const double height = pose_height(pa, na, 0);
    double worst = 0.0;
    for (size_t i = 0; i < na; ++i) {
        while (first < nb && pb[first].frame < pa[i].frame)
            ++first;
        size_t k = first;
        while (k < nb && pb[k].frame == pa[i].frame &&
               !(pb[k].joint_len == pa[i].joint_len &&
                 memcmp(pb[k].joint, pa[i].joint, pa[i].joint_len) == 0))
            ++k;
        if (k == nb || pb[k].frame != pa[i].frame)
            fail_msg("%s: no row for frame %d joint %.*s", b, pa[i].frame, (int)pa[i].joint_len,
                     pa[i].joint);
        const double d =
            fmax(fabs(pa[i].x - pb[k].x), fmax(fabs(pa[i].y - pb[k].y), fabs(pa[i].z - pb[k].z)));
        worst = fmax(worst, d / height);
        ++matched;
    }
    assert_int_equal((int)matched, (int)nb);
    printf("positions %s vs %s: %d rows, worst %.2e of height %.4g (bound %.0e)\n", b, a, (int)na,
           worst, height, bound);
    assert_true(worst <= bound);
    free(pa), free(pb);
    run_free(&ra), run_free(&rb);
    return worst;
}

/* `animkit walk` with clip a and with clip b: both arrive, the summary's figures (time, path,
 * frames, hip acceleration, knee peak) agree within 1 %, its error measures (penetration,
 * float, skate, all near 0) within 1 mm and the foot tilt within 0.1 degree; the cycle found in
 * the clip is the same frames, with stride and speed within 1 %. */
static void walk_figures_agree(const char *dir, const char *a, const char *b)
{
    cJSON *sum[2];
    double cycle[2][4];
    for (int i = 0; i < 2; ++i) {
        char args[4096];
        snprintf(args, sizeof args,
                 "walk --clip '%s' --terrain flat --start -1,0 --target 1,0 --max-time 10 "
                 "--out '%s/walk%d'",
                 i ? b : a, dir, i);
        run_result r = run_expect(args, 0);
        sum[i] = cJSON_Parse(strrchr(r.out, '{'));
        assert_non_null(sum[i]);
        const char *c = strstr(r.err, "cycle frames ");
        int f0 = 0, f1 = 0;
        if (!c || sscanf(c, "cycle frames %d:%d (%lf s), stride %lf m, speed %lf m/s", &f0, &f1,
                         &cycle[i][2], &cycle[i][0], &cycle[i][1]) != 5)
            fail_msg("walk --clip %s: no cycle line in %s", i ? b : a, r.err);
        cycle[i][3] = f0 * 10000.0 + f1;
        run_free(&r);
    }
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sum[0], "arrived")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sum[1], "arrived")));
    assert_true(cycle[0][3] == cycle[1][3]);
    for (int k = 0; k < 3; ++k)
        assert_true(fabs(cycle[0][k] - cycle[1][k]) <= 0.01 * fabs(cycle[0][k]));
    int numbers = 0;
    for (cJSON *e = sum[0]->child; e; e = e->next) {
        if (!cJSON_IsNumber(e)) continue;
        cJSON *o = cJSON_GetObjectItem(sum[1], e->string);
        assert_non_null(o);
        const char *k = e->string;
        const int error_m = strstr(k, "penetration") || strstr(k, "float") || strstr(k, "skate") ||
                            strstr(k, "deepest") || strcmp(k, "final_distance") == 0;
        const double bound = error_m ? 1e-3 : strstr(k, "tilt") ? 0.1 : 0.01 * fabs(e->valuedouble);
        if (fabs(e->valuedouble - o->valuedouble) > bound)
            fail_msg("walk %s: %s %g, from %s %g (bound %g)", b, k, o->valuedouble, a,
                     e->valuedouble, bound);
        ++numbers;
    }
    printf("walk %s: arrived, %d figures as from %s (time %.3f s, path %.3f m, stride %.2f m)\n", b,
           numbers, a, cJSON_GetObjectItem(sum[1], "time_s")->valuedouble,
           cJSON_GetObjectItem(sum[1], "path_length")->valuedouble, cycle[1][0]);
    assert_true(numbers >= 20);
    cJSON_Delete(sum[0]), cJSON_Delete(sum[1]);
}

/* A humanoid FBX (the CMU walk written as FBX 7.4 ASCII by tests/tools/make_fbx_ascii.py, read
 * through assimp) does what its BVH does: the same joints, frames, frame time, heights and units,
 * the same positions at every frame, the same walk and the same retarget onto the built-in
 * biped. */
static void cli_walks_and_retargets_a_humanoid_fbx(void **state)
{
    (void)state;
    char dir[1100], fbx[1200], args[4096], a[64], b[64], out_a[1200], out_b[1200];
    snprintf(dir, sizeof dir, "%s/tests/cli_fbx_XXXXXX", getenv("AK_BUILD_DIR"));
    assert_non_null(mkdtemp(dir));
    make_walk_fbx(dir, fbx, sizeof fbx);
    const char *bvh = mocap_path("cmu_02_01_walk.bvh");
    snprintf(args, sizeof args, "info '%s'", fbx);
    run_result rf = run(args);
    if (rf.code != 0 && strstr(rf.err, "assimp")) skip(); /* a CLI built without assimp */
    assert_int_equal(rf.code, 0);
    snprintf(args, sizeof args, "info '%s'", bvh);
    run_result rb = run_expect(args, 0);
    static const char *const keys[] = {"frames  ", "frame_time", "duration",   "height  ",
                                       "units  ",  "humanoid",   "root motion"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k) {
        info_line(rb.out, keys[k], a, sizeof a), info_line(rf.out, keys[k], b, sizeof b);
        assert_string_equal(a, b);
    }
    /* End Sites are joints in FBX: the same total, "= 38" */
    info_line(rb.out, "joints  ", a, sizeof a), info_line(rf.out, "joints  ", b, sizeof b);
    assert_string_equal(strrchr(a, '='), strrchr(b, '='));
    run_free(&rf), run_free(&rb);
    positions_agree(bvh, fbx, 1e-4);
    walk_figures_agree(dir, bvh, fbx);
    snprintf(out_a, sizeof out_a, "%s/from_bvh.bvh", dir);
    snprintf(out_b, sizeof out_b, "%s/from_fbx.bvh", dir);
    snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s'", bvh, out_a);
    rb = run_expect(args, 0);
    snprintf(args, sizeof args, "retarget '%s' --to biped --out '%s'", fbx, out_b);
    rf = run_expect(args, 0);
    run_free(&rf), run_free(&rb);
    positions_agree(out_a, out_b, 5e-3);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    assert_int_equal(system(args), 0);
}

static void cli_reports_errors_with_file_line_and_exit_codes(void **state)
{
    (void)state;
    static const char *const commands[] = {"info", "positions", "convert"};
    char args[1200];
    for (int i = 0; i < 3; ++i) {
        snprintf(args, sizeof args, "%s --help", commands[i]);
        run_result r = run(args);
        assert_int_equal(r.code, 0);
        assert_true(strncmp(r.out, "usage: animkit ", 15) == 0);
        run_free(&r);
        snprintf(args, sizeof args, "%s --no-such-option x.bvh%s", commands[i],
                 i == 2 ? " y.bvh" : "");
        r = run(args);
        assert_int_equal(r.code, 2);
        assert_non_null(strstr(r.err, "unknown option '--no-such-option'"));
        run_free(&r);
        snprintf(args, sizeof args, "%s", commands[i]);
        r = run(args);
        assert_int_equal(r.code, 2);
        run_free(&r);
        /* A malformed file: FILE:LINE: reason on stderr, exit 1, nothing on stdout. */
        const char *bad = data_path("bad_nan.bvh");
        snprintf(args, sizeof args, "%s '%s'%s", commands[i], bad, i == 2 ? " out.bvh" : "");
        r = run(args);
        assert_int_equal(r.code, 1);
        char want[1200];
        snprintf(want, sizeof want, "%s:20: frame 1, value 5 is not finite: 'nan'\n", bad);
        assert_string_equal(r.err, want);
        assert_int_equal(r.out_size, 0);
        run_free(&r);
    }
    run_result r = run("positions no-such-file.bvh");
    assert_int_equal(r.code, 1);
    assert_true(strncmp(r.err, "no-such-file.bvh: cannot open", 29) == 0);
    run_free(&r);
    snprintf(args, sizeof args, "positions '%s' --frames 400", mocap_path("cmu_09_01_run.bvh"));
    r = run(args);
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "past the last frame 148"));
    run_free(&r);
    snprintf(args, sizeof args, "convert '%s' out.bvh --order QXZ",
             mocap_path("cmu_09_01_run.bvh"));
    r = run(args);
    assert_int_equal(r.code, 2);
    run_free(&r);
    /* A root joint the skeleton does not have: the library's message, the flag from the CLI. */
    snprintf(args, sizeof args, "info '%s' --root-joint Nope", mocap_path("cmu_09_01_run.bvh"));
    r = run(args);
    assert_int_equal(r.code, 2);
    assert_string_equal(
        r.err, "animkit info: --root-joint: no joint named 'Nope' to carry the root motion\n");
    run_free(&r);
}

/* A file other readers accept (one more frame line than Frames: says): read, the warning on
 * stderr as FILE:LINE: warning: reason, exit 0, the output made from every line. */
/* The CMU walk written as a Z-up tool writes it (the whole file turned +90 degrees about X:
 * offsets, every rotation key R q R^-1, the root's travel; the motion unchanged) to `path`. */
static void write_z_up_walk(const char *path)
{
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(mocap_path("cmu_02_01_walk.bvh"), NULL, &s, &c, &err), AK_OK);
    const ak_quat r = {0.70710678f, 0.0f, 0.0f, 0.70710678f}, ri = ak_quat_conjugate(r);
    for (int32_t j = 0; j < s->joint_count; ++j)
        s->rest_local[j].translation = ak_quat_rotate(r, s->rest_local[j].translation);
    for (size_t k = 0; k < (size_t)c->frame_count * (size_t)c->joint_count; ++k)
        c->rotations[k] = ak_quat_mul(r, ak_quat_mul(c->rotations[k], ri));
    for (size_t k = 0; k < (size_t)c->frame_count * (size_t)c->track_count; ++k)
        c->translations[k] = ak_quat_rotate(r, c->translations[k]);
    ak_clip_finalize(c);
    assert_int_equal(ak_bvh_write_file(path, s, c, AK_ORDER_ZYX, &err), AK_OK);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* A Z-up BVH (issue 22: Blender's importer and assimp read such files): every command reads it
 * turned to Y-up and says so on stderr; `info` then gives the original's heights and units,
 * `positions` its positions (1e-5 of the height: the text's rounding) and `walk` its walk. `--up
 * y` keeps the file's axes, silently (the height along Y is then not a person's: the units
 * guess fails); `--up z` turns a file the measure would keep; a bad value is a usage error. */
static void cli_reads_a_z_up_bvh_turned_and_up_overrides(void **state)
{
    (void)state;
    char dir[1100], zup[1200], args[4096], want[1400], a[128], b[128];
    snprintf(dir, sizeof dir, "%s/tests/cli_zup_XXXXXX", getenv("AK_BUILD_DIR"));
    assert_non_null(mkdtemp(dir));
    snprintf(zup, sizeof zup, "%s/walk_z_up.bvh", dir);
    write_z_up_walk(zup);
    const char *bvh = mocap_path("cmu_02_01_walk.bvh");
    snprintf(want, sizeof want,
             "%s: warning: the rig stands along +Z: read as Z-up (turned to Y-up); --up y to keep "
             "the file's axes\n",
             zup);
    snprintf(args, sizeof args, "info '%s'", zup);
    run_result rz = run_expect(args, 0);
    assert_string_equal(rz.err, want);
    snprintf(args, sizeof args, "info '%s'", bvh);
    run_result ro = run_expect(args, 0);
    assert_string_equal(ro.err, "");
    static const char *const keys[] = {"height  ", "units  ", "humanoid", "root motion"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k) {
        info_line(ro.out, keys[k], a, sizeof a), info_line(rz.out, keys[k], b, sizeof b);
        assert_string_equal(a, b);
    }
    run_free(&rz);
    snprintf(args, sizeof args, "info '%s' --up y", zup);
    rz = run_expect(args, 0);
    assert_string_equal(rz.err, "");
    info_line(ro.out, "height  ", a, sizeof a), info_line(rz.out, "height  ", b, sizeof b);
    printf("--up y: '%s' against the original's '%s'\n", b, a);
    assert_string_not_equal(a, b);
    run_free(&rz), run_free(&ro);
    positions_agree(bvh, zup, 1e-5);
    walk_figures_agree(dir, bvh, zup);
    /* --up z on the Y-up original: turned (frame 0's Hips: y = the file's z). */
    snprintf(args, sizeof args, "positions '%s' --frames 0 --up z", bvh);
    run_result rt = run_expect(args, 0);
    snprintf(args, sizeof args, "positions '%s' --frames 0", bvh);
    ro = run_expect(args, 0);
    size_t nt = 0, no = 0;
    csv_row *pt = parse_csv(rt.out, &nt), *po = parse_csv(ro.out, &no);
    assert_int_equal((int)nt, (int)no);
    assert_true(fabs(pt[0].x - po[0].x) < 1e-4 && fabs(pt[0].y - po[0].z) < 1e-4 &&
                fabs(pt[0].z + po[0].y) < 1e-4);
    free(pt), free(po);
    run_free(&rt), run_free(&ro);
    snprintf(args, sizeof args, "info '%s' --up w", zup);
    rz = run_expect(args, 2);
    assert_non_null(strstr(rz.err, "--up"));
    run_free(&rz);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    assert_int_equal(system(args), 0);
}

/* The CMU walk as another studio exports it (the variant generator's still top joint, as
 * text): a ROOT joint_Root (zero offset, six channels that stay 0) above its Hips, six zeros in
 * front of every frame line. */
static void write_still_top_walk(const char *path)
{
    FILE *in = fopen(mocap_path("cmu_02_01_walk.bvh"), "rb");
    assert_non_null(in);
    static char text[1 << 20];
    const size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = '\0';
    const char *root = strstr(text, "ROOT Hips"), *motion = strstr(text, "MOTION");
    assert_non_null(root);
    assert_non_null(motion);
    FILE *out = fopen(path, "wb");
    assert_non_null(out);
    fputs("HIERARCHY\nROOT joint_Root\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition "
          "Zposition Zrotation Yrotation Xrotation\nJOINT Hips",
          out);
    fwrite(root + 9, 1, (size_t)(motion - (root + 9)), out);
    fputs("}\n", out);
    int line = 0;
    for (const char *p = motion; *p; ++line) {
        const char *end = strchr(p, '\n');
        const size_t len = end ? (size_t)(end - p) + 1 : strlen(p);
        if (line >= 3 && len > 2) fputs("0 0 0 0 0 0 ", out); /* a frame line */
        fwrite(p, 1, len, out);
        p += len;
    }
    fclose(out);
}

/* A still joint_Root above the hips (issue 22) is not part of the body: `info` prints the
 * original's heights and units for the copy that has one (before: frame 0 and standing
 * 26.0832 CMU units against 25.3909, 1.472 m against 1.433 m), and says the hips carry the
 * travel. */
static void cli_info_leaves_a_still_top_joint_out_of_the_heights(void **state)
{
    (void)state;
    char dir[1100], path[1200], args[2400], a[160], b[160];
    snprintf(dir, sizeof dir, "%s/tests/cli_still_XXXXXX", getenv("AK_BUILD_DIR"));
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/walk_still_top.bvh", dir);
    write_still_top_walk(path);
    snprintf(args, sizeof args, "info '%s'", mocap_path("cmu_02_01_walk.bvh"));
    run_result ro = run_expect(args, 0);
    snprintf(args, sizeof args, "info '%s'", path);
    run_result rv = run_expect(args, 0);
    static const char *const keys[] = {"height  ", "units  "};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k) {
        info_line(ro.out, keys[k], a, sizeof a), info_line(rv.out, keys[k], b, sizeof b);
        assert_string_equal(a, b);
    }
    info_line(rv.out, "root motion", b, sizeof b);
    assert_non_null(strstr(b, "Hips (the top joint joint_Root is still"));
    run_free(&ro), run_free(&rv);
    remove(path);
    rmdir(dir);
}

static void cli_warns_with_file_and_line_for_frame_counts_other_readers_accept(void **state)
{
    (void)state;
    char args[1200], want[1200];
    const char *file = data_path("warn_extra_frames.bvh");
    snprintf(args, sizeof args, "positions '%s'", file);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    snprintf(want, sizeof want,
             "%s:20: warning: 2 frame lines where Frames: says 1 (line 17); read all 2\n", file);
    assert_string_equal(r.err, want);
    assert_non_null(strstr(r.out, "\n1,Hips,1,90,0"));
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cli_positions_match_every_reference_csv),
        cmocka_unit_test(cli_positions_frame_lists_and_times),
        cmocka_unit_test(cli_info_json_lists_every_joint_units_and_humanoid),
        cmocka_unit_test(cli_convert_writes_a_bvh_that_reads_back_the_same),
        cmocka_unit_test(cli_commands_take_gltf_glb_and_fbx_clips),
        cmocka_unit_test(cli_walks_and_retargets_a_humanoid_fbx),
        cmocka_unit_test(cli_reports_errors_with_file_line_and_exit_codes),
        cmocka_unit_test(cli_warns_with_file_and_line_for_frame_counts_other_readers_accept),
        cmocka_unit_test(cli_reads_a_z_up_bvh_turned_and_up_overrides),
        cmocka_unit_test(cli_info_leaves_a_still_top_joint_out_of_the_heights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
