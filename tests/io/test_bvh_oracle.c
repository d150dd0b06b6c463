#define _POSIX_C_SOURCE 200809L
/* Every BVH file in the test mocap folder (tests/data/mocap) read and posed with ak_clip_frame +
 * ak_fk matches its reference world positions (<name>.positions.csv, computed by Blender's BVH
 * importer). The worst error relative to the standing height is printed and must stay
 * below 1e-4. */
#include "bvh_test_util.h"

#include <dirent.h>

typedef struct oracle_result {
    double worst_abs, worst_rel, height;
    int rows, frames_checked, skipped_tips;
    char worst_joint[AK_NAME_MAX];
    int worst_frame;
} oracle_result;

static oracle_result check_file(const char *bvh_name)
{
    oracle_result r;
    memset(&r, 0, sizeof r);
    char csv_name[512];
    size_t n = strlen(bvh_name);
    snprintf(csv_name, sizeof csv_name, "%.*s.positions.csv", (int)(n - 4), bvh_name);

    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    int32_t st = ak_bvh_read_file(mocap_path(bvh_name), NULL, &s, &c, &err);
    if (st != AK_OK) fail_msg("%s:%d: %s", bvh_name, (int)err.line, err.message);
    r.height = standing_height(s, c);
    assert_true(r.height > 0.0);

    char *csv = slurp(mocap_path(csv_name), NULL);
    const int32_t J = s->joint_count;
    ak_vec3 *pos = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)J);
    uint8_t *seen = (uint8_t *)calloc((size_t)J, 1);
    int32_t cur_frame = -1;
    char *save = NULL;
    char *line = strtok_r(csv, "\r\n", &save);
    assert_non_null(line);
    assert_string_equal(line, "frame,joint,x,y,z");
    /* Joints a frame of the CSV leaves out must be End Sites of (near) zero length, which
     * Blender cannot represent (cmu_16_11). */
#define FLUSH_FRAME()                                                                              \
    do {                                                                                           \
        if (cur_frame >= 0)                                                                        \
            for (int32_t j = 0; j < J; ++j)                                                        \
                if (!seen[j]) {                                                                    \
                    if (!s->is_end_site[j] || s->bone_lengths[j] >= 1e-3f)                         \
                        fail_msg("%s frame %d: joint %s has no CSV row", bvh_name, (int)cur_frame, \
                                 s->names[j]);                                                     \
                    ++r.skipped_tips;                                                              \
                }                                                                                  \
    } while (0)
    while ((line = strtok_r(NULL, "\r\n", &save)) != NULL) {
        int frame = -1;
        char joint[AK_NAME_MAX];
        double x, y, z;
        char *c1 = strchr(line, ',');
        assert_non_null(c1);
        char *c2 = strchr(c1 + 1, ',');
        assert_non_null(c2);
        frame = atoi(line);
        snprintf(joint, sizeof joint, "%.*s", (int)(c2 - c1 - 1 < 63 ? c2 - c1 - 1 : 63), c1 + 1);
        assert_int_equal(sscanf(c2 + 1, "%lf,%lf,%lf", &x, &y, &z), 3);
        if (frame != cur_frame) {
            FLUSH_FRAME();
            assert_true(frame >= 0 && frame < c->frame_count);
            world_positions(s, c, frame, pos);
            memset(seen, 0, (size_t)J);
            cur_frame = frame;
            ++r.frames_checked;
        }
        int32_t j = ak_skeleton_find(s, joint);
        if (j < 0) fail_msg("%s: CSV joint '%s' is not in the skeleton", bvh_name, joint);
        seen[j] = 1;
        double dx = pos[j].x - x, dy = pos[j].y - y, dz = pos[j].z - z;
        double d = sqrt(dx * dx + dy * dy + dz * dz);
        if (!(d <= r.worst_abs)) {
            r.worst_abs = d;
            r.worst_frame = frame;
            snprintf(r.worst_joint, sizeof r.worst_joint, "%s", joint);
        }
        ++r.rows;
    }
    FLUSH_FRAME();
    r.worst_rel = r.worst_abs / r.height;
    free(pos);
    free(seen);
    free(csv);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    return r;
}

/* Checks every .bvh in one folder below the mocap folder ("" or "locomotion/"); returns the
 * number of files and raises *worst to the largest relative error. */
static int check_folder(const char *sub, double *worst)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", mocap_dir(), sub);
    DIR *d = opendir(path);
    assert_non_null(d);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".bvh") != 0) continue;
        char name[512];
        snprintf(name, sizeof name, "%s%s", sub, e->d_name);
        oracle_result r = check_file(name);
        printf(
            "  %-48s rows %6d  frames %4d  height %8.4f  worst %.3g (%s, frame %d)  rel %.3g%s\n",
            name, r.rows, r.frames_checked, r.height, r.worst_abs, r.worst_joint, r.worst_frame,
            r.worst_rel, r.skipped_tips ? "  (zero-length End Sites skipped)" : "");
        assert_true(r.rows > 0);
        assert_true(r.worst_rel < 1e-4);
        if (r.worst_rel > *worst) *worst = r.worst_rel;
        ++files;
    }
    closedir(d);
    return files;
}

static void bvh_matches_reference_positions_for_every_mocap_file(void **state)
{
    (void)state;
    double worst = 0.0;
    int top = check_folder("", &worst);
    int loco = check_folder("locomotion/", &worst);
    printf("  worst error relative to standing height over %d files: %.3g\n", top + loco, worst);
    assert_true(top >= 7);
    assert_true(loco >= 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bvh_matches_reference_positions_for_every_mocap_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
