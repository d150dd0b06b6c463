/* The walk command's streamed, all-or-nothing outputs; see walk_output.h. */
#include "walk_output.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if defined(_WIN32)
#include <direct.h>
#define ak_mkdir(p) _mkdir(p)
#else
#define ak_mkdir(p) mkdir((p), 0777)
#endif

/* mkdir -p */
static int make_dirs(const char *path)
{
    char buf[1024];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; ++i) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (ak_mkdir(buf) != 0 && errno != EEXIST) return -1;
            buf[i] = c;
        }
    }
    return 0;
}

/* Puts "PATH: " before an I/O error's reason; returns st. */
static int32_t name_file(int32_t st, const char *path, ak_error *err)
{
    if (st == AK_ERR_IO && err) {
        char reason[sizeof err->message];
        memcpy(reason, err->message, sizeof reason);
        ak_error_set(err, st, 0, "%s: %s", path, reason);
    }
    return st;
}

static int32_t open_member(akio_atomic *a, char *path, size_t cap, const char *dir,
                           const char *name, ak_error *err)
{
    if ((size_t)snprintf(path, cap, "%s/%s", dir, name) >= cap)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "--out path too long");
    return name_file(akio_atomic_open(a, path, err), path, err);
}

int32_t akcli_walk_output_open(akcli_walk_output *o, const char *dir, const ak_skeleton *skeleton,
                               int32_t hips, float dt, ak_error *err)
{
    memset(o, 0, sizeof *o);
    if (!dir || !*dir) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "--out needs a folder name");
    if (make_dirs(dir) != 0)
        return ak_error_set(err, AK_ERR_IO, 0, "cannot create folder %s: %s", dir, strerror(errno));
    int32_t st = open_member(&o->csv, o->csv_path, sizeof o->csv_path, dir, "walk.csv", err);
    if (!st) st = open_member(&o->bvh, o->bvh_path, sizeof o->bvh_path, dir, "walk.bvh", err);
    if (!st)
        st = open_member(&o->summary, o->summary_path, sizeof o->summary_path, dir, "summary.json",
                         err);
    if (!st)
        st = name_file(akio_atomic_printf(&o->csv, err,
                                          "t,root_x,root_y,root_z,heading,left_x,left_y,left_z,"
                                          "left_ground,left_stance,right_x,right_y,right_z,"
                                          "right_ground,right_stance,hip_drop,"
                                          "left_heel_x,left_heel_y,left_heel_z,left_heel_ground,"
                                          "left_heel_down,left_toe_x,left_toe_y,left_toe_z,"
                                          "left_toe_ground,left_toe_down,right_heel_x,"
                                          "right_heel_y,right_heel_z,right_heel_ground,"
                                          "right_heel_down,right_toe_x,right_toe_y,right_toe_z,"
                                          "right_toe_ground,right_toe_down,"
                                          "left_heel_source_down,left_toe_source_down,"
                                          "right_heel_source_down,right_toe_source_down\n"),
                       o->csv_path, err);
    /* The root and the joints down to the hips move: a still top joint's hips carry their own
     * height and travel, which a root-only file would drop (the hips drawn at the top joint).
     * So do the joints beside the hips (the UE4 mannequin's ik_foot_l/r and ik_hand_* under
     * `root`, which the walk scene keeps on the walked feet and hands: ak_copy_bones): with
     * rotation channels only they stayed at their rest offsets, 1.2-1.8 m from the feet. */
    uint8_t *moving = NULL;
    if (!st && skeleton && skeleton->joint_count > 0) {
        moving = (uint8_t *)calloc((size_t)skeleton->joint_count, 1);
        if (!moving) st = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        for (int32_t j = hips; moving && j >= 0 && j < skeleton->joint_count;
             j = skeleton->parents[j])
            moving[j] = 1;
        const int valid_hips = hips >= 0 && hips < skeleton->joint_count;
        for (int32_t j = 0; moving && valid_hips && j < skeleton->joint_count; ++j)
            if (!skeleton->is_end_site[j] && (j < hips || j >= skeleton->subtree_end[hips]))
                moving[j] = 1;
        if (moving) moving[0] = 1;
    }
    if (!st)
        st = name_file(
            akbvh_stream_begin(&o->bvh, skeleton, moving, AK_ORDER_ZYX, dt, &o->motion, err),
            o->bvh_path, err);
    free(moving);
    if (st) akcli_walk_output_abort(o);
    return st;
}

/* ",value" with `decimals` decimals; refuses a non-finite value. */
static int32_t csv_number(akcli_walk_output *o, const char *name, double v, int decimals,
                          ak_error *err)
{
    if (!isfinite(v))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "frame %d: %s is not finite (%g)",
                            (int)o->frames, name, v);
    return akio_atomic_printf(&o->csv, err, ",%.*f", decimals, v);
}

/* One foot's heel (sole) and toe points: x, y, z, the ground under each (empty where none)
 * and whether that point is down this frame (1/0). */
static int32_t csv_contact_points(akcli_walk_output *o, const ak_walker_state *s,
                                  const double origin[2], int k, ak_error *err)
{
    const int32_t c = s->stance[k] ? (s->contact[k] ? s->contact[k] : AK_CONTACT_HEEL) : 0;
    const ak_vec3 p[2] = {s->sole[k], s->toe[k]};
    const float g[2] = {s->sole_ground[k], s->toe_ground[k]};
    const int down[2] = {(c & AK_CONTACT_HEEL) != 0, (c & AK_CONTACT_TOE) != 0};
    int32_t st = AK_OK;
    for (int i = 0; i < 2 && !st; ++i) {
        const char *name = i == 0 ? "heel" : "toe";
        st = csv_number(o, name, origin[0] + p[i].x, 5, err);
        if (!st) st = csv_number(o, name, p[i].y, 5, err);
        if (!st) st = csv_number(o, name, origin[1] + p[i].z, 5, err);
        if (!st && isfinite(g[i]))
            st = csv_number(o, name, g[i], 5, err);
        else if (!st)
            st = akio_atomic_printf(&o->csv, err, ",");
        if (!st) st = akio_atomic_printf(&o->csv, err, ",%d", down[i]);
    }
    return st;
}

static int32_t csv_row(akcli_walk_output *o, const ak_walker_state *s, const double origin[2],
                       const ak_xform *near, ak_error *err)
{
    static const char *const side[2][4] = {{"left_x", "left_y", "left_z", "left_ground"},
                                           {"right_x", "right_y", "right_z", "right_ground"}};
    const ak_vec3 r = near[0].translation;
    if (!isfinite(s->elapsed))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "time is not finite");
    int32_t st = akio_atomic_printf(&o->csv, err, "%.5f", s->elapsed);
    if (!st) st = csv_number(o, "root_x", origin[0] + r.x, 5, err);
    if (!st) st = csv_number(o, "root_y", r.y, 5, err);
    if (!st) st = csv_number(o, "root_z", origin[1] + r.z, 5, err);
    if (!st) st = csv_number(o, "heading", s->heading * 180.0f / 3.14159265f, 4, err);
    for (int k = 0; k < 2 && !st; ++k) {
        st = csv_number(o, side[k][0], origin[0] + s->sole[k].x, 5, err);
        if (!st) st = csv_number(o, side[k][1], s->sole[k].y, 5, err);
        if (!st) st = csv_number(o, side[k][2], origin[1] + s->sole[k].z, 5, err);
        /* No ground under the foot: an empty field, never "nan". */
        if (!st && isfinite(s->sole_ground[k]))
            st = csv_number(o, side[k][3], s->sole_ground[k], 5, err);
        else if (!st)
            st = akio_atomic_printf(&o->csv, err, ",");
        if (!st) st = akio_atomic_printf(&o->csv, err, ",%d", (int)s->stance[k]);
    }
    if (!st) st = csv_number(o, "hip_drop", s->hip_drop, 5, err);
    for (int k = 0; k < 2 && !st; ++k)
        st = csv_contact_points(o, s, origin, k, err);
    /* what the pose source has down (its contact bits), whatever the grounding shows */
    for (int k = 0; k < 2 && !st; ++k)
        st = akio_atomic_printf(&o->csv, err, ",%d,%d",
                                (s->source_contact[k] & AK_CONTACT_HEEL) != 0,
                                (s->source_contact[k] & AK_CONTACT_TOE) != 0);
    if (!st) st = akio_atomic_printf(&o->csv, err, "\n");
    return st;
}

int32_t akcli_walk_output_frame(akcli_walk_output *o, const ak_walker_state *s,
                                const double origin[2], const ak_xform *near, const ak_xform *local,
                                ak_error *err)
{
    int32_t st = name_file(csv_row(o, s, origin, near, err), o->csv_path, err);
    if (!st) st = name_file(akbvh_stream_frame(o->motion, local, err), o->bvh_path, err);
    if (!st) ++o->frames;
    return st;
}

int32_t akcli_walk_output_commit(akcli_walk_output *o, const char *summary_json, ak_error *err)
{
    akbvh_stream *motion = o->motion;
    o->motion = NULL;
    int32_t st = name_file(akbvh_stream_end(motion, err), o->bvh_path, err);
    if (!st)
        st = name_file(akio_atomic_printf(&o->summary, err, "%s\n", summary_json), o->summary_path,
                       err);
    if (st) {
        akcli_walk_output_abort(o);
        return st;
    }
    akio_atomic *set[3] = {&o->csv, &o->bvh, &o->summary};
    return akio_commit_set(set, 3, err);
}

void akcli_walk_output_abort(akcli_walk_output *o)
{
    akbvh_stream_destroy(o->motion);
    o->motion = NULL;
    akio_atomic_abort(&o->csv);
    akio_atomic_abort(&o->bvh);
    akio_atomic_abort(&o->summary);
}
