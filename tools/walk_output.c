/* The walk command's streamed, all-or-nothing outputs; see walk_output.h. */
#include "walk_output.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
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
                               float dt, ak_error *err)
{
    memset(o, 0, sizeof *o);
    if (!dir || !*dir) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "--out needs a folder name");
    if (make_dirs(dir) != 0)
        return ak_error_set(err, AK_ERR_IO, 0, "cannot create folder %s: %s", dir, strerror(errno));
    int32_t st = open_member(&o->csv, o->csv_path, sizeof o->csv_path, dir, "walk.csv", err);
    if (!st) st = open_member(&o->bvh, o->bvh_path, sizeof o->bvh_path, dir, "walk.bvh", err);
    if (!st)
        st = open_member(&o->summary, o->summary_path, sizeof o->summary_path, dir,
                         "summary.json", err);
    if (!st)
        st = name_file(akio_atomic_printf(&o->csv, err,
                                          "t,root_x,root_y,root_z,heading,left_x,left_y,left_z,"
                                          "left_ground,left_stance,right_x,right_y,right_z,"
                                          "right_ground,right_stance,hip_drop\n"),
                       o->csv_path, err);
    if (!st)
        st = name_file(
            akbvh_stream_begin(&o->bvh, skeleton, NULL, AK_ORDER_ZYX, dt, &o->motion, err),
            o->bvh_path, err);
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

static int32_t csv_row(akcli_walk_output *o, const ak_walker_state *s, const ak_xform *world,
                       ak_error *err)
{
    static const char *const side[2][4] = {{"left_x", "left_y", "left_z", "left_ground"},
                                           {"right_x", "right_y", "right_z", "right_ground"}};
    const ak_vec3 r = world[0].translation;
    if (!isfinite(s->time)) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "time is not finite");
    int32_t st = akio_atomic_printf(&o->csv, err, "%.5f", (double)s->time);
    if (!st) st = csv_number(o, "root_x", r.x, 5, err);
    if (!st) st = csv_number(o, "root_y", r.y, 5, err);
    if (!st) st = csv_number(o, "root_z", r.z, 5, err);
    if (!st) st = csv_number(o, "heading", s->heading * 180.0f / 3.14159265f, 4, err);
    for (int k = 0; k < 2 && !st; ++k) {
        st = csv_number(o, side[k][0], s->sole[k].x, 5, err);
        if (!st) st = csv_number(o, side[k][1], s->sole[k].y, 5, err);
        if (!st) st = csv_number(o, side[k][2], s->sole[k].z, 5, err);
        /* No ground under the foot: an empty field, never "nan". */
        if (!st && isfinite(s->sole_ground[k])) st = csv_number(o, side[k][3], s->sole_ground[k], 5, err);
        else if (!st) st = akio_atomic_printf(&o->csv, err, ",");
        if (!st) st = akio_atomic_printf(&o->csv, err, ",%d", (int)s->stance[k]);
    }
    if (!st) st = csv_number(o, "hip_drop", s->hip_drop, 5, err);
    if (!st) st = akio_atomic_printf(&o->csv, err, "\n");
    return st;
}

int32_t akcli_walk_output_frame(akcli_walk_output *o, const ak_walker_state *s,
                                const ak_xform *world, const ak_xform *local, ak_error *err)
{
    int32_t st = name_file(csv_row(o, s, world, err), o->csv_path, err);
    if (!st) st = name_file(akbvh_stream_frame(o->motion, local, err), o->bvh_path, err);
    if (!st) ++o->frames;
    return st;
}

int32_t akcli_walk_summary_json(char *buf, size_t cap, const ak_walker_state *s,
                                const ak_walk_metrics *m, ak_error *err)
{
    const char *names[7] = {"time_s", "final_distance", "path_length", "max_penetration",
                            "max_float", "skate", "max_foot_tilt_deg"};
    const double v[7] = {s->time, s->distance, s->path_length, m->max_penetration,
                         m->max_float, m->skate, m->max_tilt_deg};
    for (int i = 0; i < 7; ++i)
        if (!isfinite(v[i]))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "summary: %s is not finite (%g)",
                                names[i], v[i]);
    snprintf(buf, cap,
             "{\"arrived\":%s,\"time_s\":%.3f,\"final_distance\":%.4f,\"path_length\":%.3f,"
             "\"max_penetration\":%.5f,\"max_float\":%.5f,\"skate\":%.5f,"
             "\"max_foot_tilt_deg\":%.3f}",
             s->arrived ? "true" : "false", v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    return AK_OK;
}

int32_t akcli_walk_output_commit(akcli_walk_output *o, const char *summary_json, ak_error *err)
{
    akbvh_stream *motion = o->motion;
    o->motion = NULL;
    int32_t st = name_file(akbvh_stream_end(motion, err), o->bvh_path, err);
    if (!st)
        st = name_file(akio_atomic_printf(&o->summary, err, "%s\n", summary_json),
                       o->summary_path, err);
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
