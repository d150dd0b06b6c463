/* Motion matching behind handles: a motion database (built from clip handles, or loaded
 * from its blob) and matchers on it, in the two-phase form (the engine moves the character
 * and casts the ground rays; no callbacks). Everything crossing the ABI is in Unity's frame
 * (mirrored as for characters). */
#include "plugin/plugin_internal.h"

#include "animkit/matching.h"
#include "core/xform_inline.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef char akp_check_matcher_rays[AK_MATCHER_RAY_COUNT <= AK_PLUGIN_CHARACTER_MAX_RAYS ? 1 : -1];

typedef struct akp_motion_db {
    akp_object hdr;
    ak_motion_db *db;
} akp_motion_db;

typedef struct akp_matcher {
    akp_object hdr;
    akp_motion_db *db; /* retained */
    ak_matcher *matcher;
    int32_t joint_count;
    ak_vec3 target;      /* right-handed, the last target given */
    akp_summary summary; /* the walk's measures (ak_plugin_matcher_summary_get) */
} akp_matcher;

static void motion_db_free(akp_object *obj)
{
    akp_motion_db *d = (akp_motion_db *)obj;
    ak_motion_db_destroy(d->db);
    free(d);
}

static void matcher_free(akp_object *obj)
{
    akp_matcher *m = (akp_matcher *)obj;
    ak_matcher_destroy(m->matcher);
    if (m->db) akp_release(&m->db->hdr);
    free(m);
}

static void error_text(char *buffer, int32_t size, const char *what, const ak_error *e)
{
    char text[AKP_ERROR_MAX];
    /* A message that already names its subject ("motion database blob: ...") is not
     * prefixed again. */
    const size_t n = strlen(what);
    if (strncmp(e->message, what, n) == 0)
        snprintf(text, sizeof text, "%s (%s)", e->message, ak_status_name(e->status));
    else
        snprintf(text, sizeof text, "%s: %s (%s)", what, e->message, ak_status_name(e->status));
    akp_copy_text(buffer, size, text);
}

/* Wraps a built database in a handle (frees it on failure). */
static int32_t register_db(ak_motion_db *db, ak_handle *out, char *error_buffer, int32_t error_size)
{
    akp_motion_db *d = (akp_motion_db *)calloc(1, sizeof *d);
    if (!d) {
        ak_motion_db_destroy(db);
        akp_copy_text(error_buffer, error_size, "out of memory");
        return AK_ERR_NOMEM;
    }
    d->hdr.kind = AKP_KIND_MOTION_DB;
    d->hdr.free_fn = motion_db_free;
    d->db = db;
    *out = akp_register(&d->hdr);
    if (!*out) {
        motion_db_free(&d->hdr);
        akp_copy_text(error_buffer, error_size, "handle table full");
        return AK_ERR_LIMIT;
    }
    return AK_OK;
}

/* The clips' handles held for the build, released after. */
static int32_t acquire_clips(const ak_handle *clips, int32_t n, akp_clip **held,
                             ak_motion_db_clip *src, char *why, size_t why_size)
{
    for (int32_t i = 0; i < n; ++i) {
        if (akp_acquire_clip(clips[i], &held[i]) != AK_OK) {
            akp_describe_invalid(clips[i], AKP_KIND_CLIP, why, why_size);
            return AK_PLUGIN_ERR_HANDLE;
        }
        memset(&src[i], 0, sizeof src[i]);
        src[i].clip = held[i]->clip;
    }
    return AK_OK;
}

AK_PLUGIN_API int32_t ak_plugin_motion_db_create(ak_handle hs, const ak_handle *clips,
                                                 int32_t clip_count, const char *root_joint,
                                                 ak_handle *out, char *error_buffer,
                                                 int32_t error_size)
{
    akp_copy_text(error_buffer, error_size, "");
    if (out) *out = NULL;
    if (!out || !clips || clip_count < 1 || clip_count > 100000) {
        akp_copy_text(error_buffer, error_size, "out_db and 1..100000 clips are required");
        return AK_ERR_INVALID_ARG;
    }
    akp_skeleton *sk = NULL;
    akp_clip **held = (akp_clip **)calloc((size_t)clip_count, sizeof(akp_clip *));
    ak_motion_db_clip *src = (ak_motion_db_clip *)calloc((size_t)clip_count, sizeof *src);
    char why[200] = "out of memory";
    int32_t status = held && src ? AK_OK : AK_ERR_NOMEM;
    if (status == AK_OK && akp_acquire_skeleton(hs, &sk) != AK_OK) {
        akp_describe_invalid(hs, AKP_KIND_SKELETON, why, sizeof why);
        status = AK_PLUGIN_ERR_HANDLE;
    }
    if (status == AK_OK) status = acquire_clips(clips, clip_count, held, src, why, sizeof why);
    if (status != AK_OK) {
        char text[260];
        snprintf(text, sizeof text, "motion database: %s", why);
        akp_copy_text(error_buffer, error_size, text);
    } else {
        ak_motion_db_params p = ak_motion_db_defaults();
        p.metres_per_unit = 1.0f; /* the plugin's skeletons and clips are in metres */
        p.root_joint = root_joint && root_joint[0] ? root_joint : NULL;
        ak_motion_db *db = NULL;
        ak_error err;
        ak_error_clear(&err);
        status = ak_motion_db_create(sk->skeleton, src, clip_count, &p, &db, &err);
        if (status != AK_OK)
            error_text(error_buffer, error_size, "motion database", &err);
        else
            status = register_db(db, out, error_buffer, error_size);
    }
    for (int32_t i = 0; held && i < clip_count; ++i)
        if (held[i]) akp_release(&held[i]->hdr);
    if (sk) akp_release(&sk->hdr);
    free(held);
    free(src);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_motion_db_save(ak_handle h, const char *path)
{
    akp_motion_db *d;
    if (akp_acquire(h, AKP_KIND_MOTION_DB, (akp_object **)&d) != AK_OK) return AK_PLUGIN_ERR_HANDLE;
    ak_error err;
    ak_error_clear(&err);
    int32_t status = path ? ak_motion_db_save_file(d->db, path, &err)
                          : ak_error_set(&err, AK_ERR_INVALID_ARG, 0, "path is null");
    if (status != AK_OK) akp_fail(&d->hdr, status, "%s", err.message);
    akp_release(&d->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_motion_db_load(const char *path, ak_handle *out, char *error_buffer,
                                               int32_t error_size)
{
    akp_copy_text(error_buffer, error_size, "");
    if (out) *out = NULL;
    if (!path || !out) {
        akp_copy_text(error_buffer, error_size, "path and out_db are required");
        return AK_ERR_INVALID_ARG;
    }
    ak_motion_db *db = NULL;
    ak_error err;
    ak_error_clear(&err);
    const int32_t status = ak_motion_db_load_file(path, &db, &err);
    if (status != AK_OK) {
        error_text(error_buffer, error_size, path, &err);
        return status;
    }
    return register_db(db, out, error_buffer, error_size);
}

AK_PLUGIN_API int32_t ak_plugin_motion_db_load_memory(const void *data, int32_t size,
                                                      ak_handle *out, char *error_buffer,
                                                      int32_t error_size)
{
    akp_copy_text(error_buffer, error_size, "");
    if (out) *out = NULL;
    if (!data || size < 0 || !out) {
        akp_copy_text(error_buffer, error_size, "data, size >= 0 and out_db are required");
        return AK_ERR_INVALID_ARG;
    }
    ak_motion_db *db = NULL;
    ak_error err;
    ak_error_clear(&err);
    const int32_t status = ak_motion_db_load_memory(data, (size_t)size, &db, &err);
    if (status != AK_OK) {
        error_text(error_buffer, error_size, "motion database blob", &err);
        return status;
    }
    return register_db(db, out, error_buffer, error_size);
}

AK_PLUGIN_API int32_t ak_plugin_motion_db_info_get(ak_handle h, ak_plugin_motion_db_info *out)
{
    akp_motion_db *d;
    if (akp_acquire(h, AKP_KIND_MOTION_DB, (akp_object **)&d) != AK_OK) return AK_PLUGIN_ERR_HANDLE;
    int32_t status = AK_OK;
    if (!out) {
        status = akp_fail(&d->hdr, AK_ERR_INVALID_ARG, "out is null");
    } else {
        ak_motion_db_info i;
        ak_motion_db_get_info(d->db, &i);
        out->frame_count = i.frame_count;
        out->candidate_count = i.candidate_count;
        out->clip_count = i.clip_count;
        out->joint_count = i.joint_count;
        out->frame_time = i.frame_time;
        out->min_speed = i.min_speed;
        out->max_speed = i.max_speed;
    }
    akp_release(&d->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_matcher_defaults(ak_plugin_matcher_params *out)
{
    if (!out) return AK_ERR_INVALID_ARG;
    const ak_matcher_params m = ak_matcher_defaults();
    memset(out, 0, sizeof *out);
    out->start = akp_mirror_point(m.start);
    out->target = akp_mirror_point(m.target);
    out->face_target = 1;
    out->arrival_radius = m.arrival_radius;
    out->walk_speed = m.walk_speed;
    out->turn_rate_deg = m.turn_rate * 57.29577951f;
    out->inertia_halflife = m.inertia_halflife;
    out->use_controller = m.use_controller;
    out->foot_ik = m.foot_ik;
    return AK_OK;
}

#define MATCHER_RANGE(field, lo, hi)                                                               \
    {                                                                                              \
#field, offsetof(ak_plugin_matcher_params, field), lo, hi, NULL, NULL                      \
    }
#define MATCHER_LIB(field)                                                                         \
    {                                                                                              \
#field, offsetof(ak_plugin_matcher_params, field), 0.0f, 0.0f, ak_matcher_param_ranges,    \
            #field                                                                                 \
    }
static const akp_range k_matcher_ranges[] = {
    MATCHER_RANGE(start.x, -AKP_MAX_COORD, AKP_MAX_COORD),
    MATCHER_RANGE(start.y, -AKP_MAX_COORD, AKP_MAX_COORD),
    MATCHER_RANGE(start.z, -AKP_MAX_COORD, AKP_MAX_COORD),
    MATCHER_RANGE(target.x, -AKP_MAX_COORD, AKP_MAX_COORD),
    MATCHER_RANGE(target.y, -AKP_MAX_COORD, AKP_MAX_COORD),
    MATCHER_RANGE(target.z, -AKP_MAX_COORD, AKP_MAX_COORD),
    MATCHER_RANGE(start_heading_deg, -1e6f, 1e6f),
    MATCHER_LIB(arrival_radius),
    MATCHER_LIB(walk_speed),
    MATCHER_RANGE(turn_rate_deg, 0.0f, 1e5f),
    MATCHER_LIB(inertia_halflife),
};

static ak_matcher_params matcher_params(const ak_plugin_matcher_params *pp)
{
    ak_matcher_params p = ak_matcher_defaults();
    p.start = akp_mirror_point(pp->start);
    p.target = akp_mirror_point(pp->target);
    p.start_heading = pp->face_target ? NAN : -pp->start_heading_deg * 0.01745329252f;
    p.arrival_radius = pp->arrival_radius;
    p.walk_speed = pp->walk_speed;
    p.turn_rate = pp->turn_rate_deg * 0.01745329252f;
    p.inertia_halflife = pp->inertia_halflife;
    p.use_controller = pp->use_controller;
    p.foot_ik = pp->foot_ik;
    return p;
}

AK_PLUGIN_API int32_t ak_plugin_matcher_create(ak_handle hdb, const ak_plugin_matcher_params *pp,
                                               ak_handle *out, char *error_buffer,
                                               int32_t error_size)
{
    int32_t status = akp_create_begin(
        pp, k_matcher_ranges, (int32_t)(sizeof k_matcher_ranges / sizeof k_matcher_ranges[0]),
        "matcher", "params and out_matcher are required", out, error_buffer, error_size);
    if (status != AK_OK) return status;
    akp_matcher *m = (akp_matcher *)calloc(1, sizeof *m);
    if (!m) {
        akp_copy_text(error_buffer, error_size, "out of memory");
        return AK_ERR_NOMEM;
    }
    m->hdr.kind = AKP_KIND_MATCHER;
    m->hdr.free_fn = matcher_free;
    status = akp_create_acquire(hdb, AKP_KIND_MOTION_DB, (akp_object **)&m->db, "matcher",
                                error_buffer, error_size);
    if (status != AK_OK) {
        matcher_free(&m->hdr);
        return status;
    }
    const ak_matcher_params p = matcher_params(pp);
    ak_error err;
    ak_error_clear(&err);
    status = ak_matcher_create(m->db->db, &p, NULL, &m->matcher, &err);
    if (status != AK_OK) {
        error_text(error_buffer, error_size, "matcher", &err);
        matcher_free(&m->hdr);
        return status;
    }
    ak_walk_metrics source;
    status = ak_motion_db_source_metrics(m->db->db, &source, &err);
    if (status != AK_OK) {
        error_text(error_buffer, error_size, "walk summary", &err);
        matcher_free(&m->hdr);
        return status;
    }
    akp_summary_init(&m->summary, ak_motion_db_humanoid(m->db->db), &source);
    m->joint_count = ak_motion_db_skeleton(m->db->db)->joint_count;
    m->target = p.target;
    ak_matcher_set_position(m->matcher, p.start); /* created at y = 0 without a ground */
    return akp_create_register(&m->hdr, out, error_buffer, error_size);
}

static int32_t acquire_matcher(ak_handle h, akp_matcher **out)
{
    return akp_acquire(h, AKP_KIND_MATCHER, (akp_object **)out);
}

AK_PLUGIN_API int32_t ak_plugin_matcher_set_target(ak_handle h, const ak_vec3 *target)
{
    akp_matcher *m;
    if (acquire_matcher(h, &m) != AK_OK) return AK_PLUGIN_ERR_HANDLE;
    const int32_t status = akp_check_coord(&m->hdr, target, "target");
    if (status == AK_OK) {
        const ak_vec3 t = akp_mirror_point(*target);
        const float dx = t.x - m->target.x, dz = t.z - m->target.z;
        if (dx * dx + dz * dz > 1e-8f) {
            m->target = t;
            ak_matcher_set_target(m->matcher, t);
        }
    }
    akp_release(&m->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_matcher_begin(ak_handle h, float dt, ak_vec3 *out_move)
{
    akp_matcher *m;
    if (acquire_matcher(h, &m) != AK_OK) return AK_PLUGIN_ERR_HANDLE;
    int32_t status = AK_OK;
    if (!out_move) {
        status = akp_fail(&m->hdr, AK_ERR_INVALID_ARG, "out_move is null");
    } else if (!(dt > 0.0f && dt <= AKP_MAX_DT)) {
        status = akp_fail(&m->hdr, AK_ERR_INVALID_ARG, "dt = %g: must be in (0, %g] seconds",
                          (double)dt, (double)AKP_MAX_DT);
    } else {
        ak_vec3 move;
        ak_error err;
        ak_error_clear(&err);
        status = ak_matcher_begin(m->matcher, dt, &move, &err);
        if (status != AK_OK)
            akp_fail(&m->hdr, status, "matcher: %s", err.message);
        else
            *out_move = akp_mirror_point(move);
        m->summary.dt = dt;
    }
    akp_release(&m->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_matcher_set_position(ak_handle h, const ak_vec3 *position)
{
    akp_matcher *m;
    if (acquire_matcher(h, &m) != AK_OK) return AK_PLUGIN_ERR_HANDLE;
    const int32_t status = akp_check_coord(&m->hdr, position, "position");
    if (status == AK_OK) ak_matcher_set_position(m->matcher, akp_mirror_point(*position));
    akp_release(&m->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_matcher_ground_rays(ak_handle h, ak_plugin_ray *out,
                                                    int32_t capacity, int32_t *out_count)
{
    akp_matcher *m;
    if (acquire_matcher(h, &m) != AK_OK) return AK_PLUGIN_ERR_HANDLE;
    int32_t status = AK_OK;
    if (out_count) *out_count = AK_MATCHER_RAY_COUNT;
    if (!out || !out_count || capacity < AK_MATCHER_RAY_COUNT) {
        status = akp_fail(&m->hdr, AK_ERR_INVALID_ARG,
                          "rays and out_count are required, with room for %d rays",
                          AK_MATCHER_RAY_COUNT);
    } else {
        ak_ground_ray rays[AK_MATCHER_RAY_COUNT];
        ak_matcher_ground_rays(m->matcher, rays, AK_MATCHER_RAY_COUNT);
        for (int32_t i = 0; i < AK_MATCHER_RAY_COUNT; ++i) {
            out[i].origin = akp_mirror_point(rays[i].origin);
            out[i].direction = akp_mirror_point(rays[i].direction);
            out[i].max_distance = rays[i].max_distance;
        }
    }
    akp_release(&m->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_matcher_finish(ak_handle h, const ak_plugin_ground_hit *hits,
                                               int32_t count)
{
    akp_matcher *m;
    if (acquire_matcher(h, &m) != AK_OK) return AK_PLUGIN_ERR_HANDLE;
    int32_t status = AK_OK;
    if (!hits || count < AK_MATCHER_RAY_COUNT) {
        status = akp_fail(&m->hdr, AK_ERR_INVALID_ARG, "hits need %d entries (one per ray), got %d",
                          AK_MATCHER_RAY_COUNT, (int)count);
    } else {
        ak_ground_hit g[AK_MATCHER_RAY_COUNT];
        akp_hits_in(hits, g, AK_MATCHER_RAY_COUNT);
        ak_error err;
        ak_error_clear(&err);
        status = ak_matcher_finish(m->matcher, g, AK_MATCHER_RAY_COUNT, &err);
        if (status != AK_OK) {
            akp_fail(&m->hdr, status, "matcher: %s", err.message);
        } else {
            ak_walker_state s;
            ak_matcher_get_state(m->matcher, &s);
            akp_summary_add(&m->summary, &s, ak_matcher_world_pose(m->matcher));
        }
    }
    akp_release(&m->hdr);
    return status;
}

static void fill_state(const akp_matcher *m, ak_plugin_matcher_state *out)
{
    ak_walker_state s;
    ak_matcher_info mi;
    ak_matcher_get_state(m->matcher, &s);
    ak_matcher_get_info(m->matcher, &mi);
    const ak_quat yaw = ak_quat_yaw(s.heading);
    memset(out, 0, sizeof *out);
    out->position = akp_mirror_point(s.position);
    out->rotation = akp_mirror_rotation(yaw);
    out->facing = akp_mirror_point(akq_rotate(yaw, ak_vec3_make(0, 0, 1)));
    out->time = s.time;
    out->distance = s.distance;
    out->path_length = s.path_length;
    out->arrived = s.arrived;
    out->stopped = s.stopped;
    out->standing = mi.standing;
    out->frame = mi.frame;
    out->clip = mi.clip;
    out->source_time = mi.source_time;
    out->transitions = mi.transitions;
    out->searches = mi.searches;
    for (int k = 0; k < 2; ++k) {
        out->stance[k] = s.stance[k];
        out->sole[k] = akp_mirror_point(s.sole[k]);
    }
    for (int k = 0; k < 3; ++k) {
        out->desired_position[k] = akp_mirror_point(mi.desired_position[k]);
        out->matched_position[k] = akp_mirror_point(mi.matched_position[k]);
    }
}

AK_PLUGIN_API int32_t ak_plugin_matcher_state_get(ak_handle h, ak_plugin_matcher_state *out)
{
    akp_matcher *m;
    if (acquire_matcher(h, &m) != AK_OK) return AK_PLUGIN_ERR_HANDLE;
    int32_t status = AK_OK;
    if (!out)
        status = akp_fail(&m->hdr, AK_ERR_INVALID_ARG, "out is null");
    else
        fill_state(m, out);
    akp_release(&m->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_matcher_pose(ak_handle h, ak_plugin_xform *out_local,
                                             ak_plugin_xform *out_model, int32_t count)
{
    akp_matcher *m;
    if (acquire_matcher(h, &m) != AK_OK) return AK_PLUGIN_ERR_HANDLE;
    const int32_t n = m->joint_count;
    int32_t status = AK_OK;
    if (!out_local && !out_model)
        status = akp_fail(&m->hdr, AK_ERR_INVALID_ARG, "no output buffer");
    else if (count < n)
        status =
            akp_fail(&m->hdr, AK_ERR_INVALID_ARG,
                     "output holds %d entries, the skeleton has %d joints", (int)count, (int)n);
    if (status == AK_OK) {
        ak_walker_state s;
        ak_matcher_get_state(m->matcher, &s);
        const ak_xform ch = {ak_quat_yaw(s.heading), s.position};
        const ak_xform inv = akx_inverse(ch);
        const ak_skeleton *sk = ak_motion_db_skeleton(m->db->db);
        const ak_xform *local = ak_matcher_local_pose(m->matcher);
        const ak_xform *world = ak_matcher_world_pose(m->matcher);
        if (out_local) {
            ak_xform *o = (ak_xform *)out_local;
            memcpy(o, local, sizeof(ak_xform) * (size_t)n);
            for (int32_t j = 0; j < n; ++j)
                if (sk->parents[j] < 0) o[j] = akx_mul(inv, o[j]);
            akp_mirror_xforms(o, n);
        }
        if (out_model) {
            ak_xform *o = (ak_xform *)out_model;
            for (int32_t j = 0; j < n; ++j)
                o[j] = akx_mul(inv, world[j]);
            akp_mirror_xforms(o, n);
        }
    }
    akp_release(&m->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_matcher_summary_get(ak_handle h, ak_plugin_walk_summary *out)
{
    akp_matcher *m;
    if (acquire_matcher(h, &m) != AK_OK) return AK_PLUGIN_ERR_HANDLE;
    int32_t status = AK_OK;
    if (!out)
        status = akp_fail(&m->hdr, AK_ERR_INVALID_ARG, "out is null");
    else
        akp_summary_get(&m->summary, out);
    akp_release(&m->hdr);
    return status;
}
