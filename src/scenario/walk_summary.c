/* The walk's measures over every frame and its summary line, for every surface: the CLI's
 * last line and summary.json, Python's Walker.summary() and the web module's
 * walkerSummary() all come from here, so they name and round the same figures. */
#include "animkit/scenario.h"
#include "walk_scene_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The legs whose knees and ankles the measures see: the humanoid map of the posed skeleton. */
static void summary_legs(ak_walk_metrics *m, const ak_walk_scene *scene)
{
    ak_humanoid h;
    const ak_walk_motion *motion = ak_walk_scene_motion(scene);
    if (motion)
        h = *ak_walk_motion_humanoid(motion);
    else if (ak_humanoid_find(ak_walk_scene_skeleton(scene), NULL, &h, NULL) != AK_OK)
        return;
    const int32_t upper[2] = {h.joint[AK_HUM_LEFT_UPPER_LEG], h.joint[AK_HUM_RIGHT_UPPER_LEG]};
    const int32_t lower[2] = {h.joint[AK_HUM_LEFT_LOWER_LEG], h.joint[AK_HUM_RIGHT_LOWER_LEG]};
    const int32_t foot[2] = {h.joint[AK_HUM_LEFT_FOOT], h.joint[AK_HUM_RIGHT_FOOT]};
    ak_walk_metrics_set_legs(m, upper, lower, foot);
}

int32_t ak_walk_summary_begin(ak_walk_summary *summary, const ak_walk_scene *scene, ak_error *err)
{
    if (!summary || !scene)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "walk summary: NULL argument");
    memset(summary, 0, sizeof *summary);
    ak_walk_metrics_reset(&summary->metrics);
    summary_legs(&summary->metrics, scene);
    ak_walk_scene_origin(scene, summary->origin);
    /* The source: the guide walker's cycle, or every range of the matcher's database. */
    const ak_walk_motion *motion = ak_walk_scene_motion(scene);
    const ak_motion_db *db = ak_walk_scene_motion_db(scene);
    int32_t st = AK_OK;
    if (motion)
        st = ak_walk_metrics_source(motion, &summary->source, err);
    else if (db)
        st = ak_motion_db_source_metrics(db, &summary->source, err);
    else
        return AK_OK;
    summary->has_source = st == AK_OK;
    return st;
}

void ak_walk_summary_add(ak_walk_summary *summary, const ak_walk_scene *scene, int32_t first)
{
    if (!summary || !scene) return;
    double now[2];
    ak_walk_scene_origin(scene, now);
    if (now[0] != summary->origin[0] || now[1] != summary->origin[1]) {
        ak_walk_metrics_shift_origin(&summary->metrics, (float)(now[0] - summary->origin[0]),
                                     (float)(now[1] - summary->origin[1]));
        summary->origin[0] = now[0];
        summary->origin[1] = now[1];
    }
    ak_walk_scene_info info;
    ak_walker_state s;
    ak_walk_scene_get_info(scene, &info);
    ak_walk_scene_get_origin_state(scene, &s);
    ak_walk_metrics_add(&summary->metrics, &s, ak_walk_scene_origin_pose(scene), info.hips,
                        first ? 0.0f : info.frame_time);
}

enum { AKWS_FIGURES = 23, AKWS_SOURCE_FIGURES = 4 };

static const char *const k_names[AKWS_FIGURES] = {"time_s",
                                                  "final_distance",
                                                  "path_length",
                                                  "max_penetration",
                                                  "max_float",
                                                  "max_heel_penetration",
                                                  "max_heel_float",
                                                  "max_toe_penetration",
                                                  "max_toe_float",
                                                  "skate",
                                                  "max_skate",
                                                  "max_foot_tilt_deg",
                                                  "max_hip_accel",
                                                  "deepest_any_phase",
                                                  "deepest_planted",
                                                  "hip_accel_min_g",
                                                  "hip_accel_max_g",
                                                  "knee_peak_deg",
                                                  "drag_m_s",
                                                  "source_hip_accel_min_g",
                                                  "source_hip_accel_max_g",
                                                  "source_knee_peak_deg",
                                                  "source_drag_m_s"};
static const int k_decimals[AKWS_FIGURES] = {3, 4, 3, 5, 5, 5, 5, 5, 5, 5, 5, 3,
                                             3, 5, 5, 2, 2, 1, 3, 2, 2, 1, 3};

/* The library's angles are radians; the summary a person reads shows degrees (keys _deg). */
#define DEG_PER_RAD 57.295779513082321

/* The figures in k_names' order. */
static void summary_figures(const ak_walk_summary *sum, const ak_walker_state *s, double *v)
{
    const ak_walk_metrics *m = &sum->metrics, *src = &sum->source;
    ak_walk_drag drag;
    ak_walk_metrics_drag_worst(m, sum->has_source ? src : NULL, &drag);
    const double f[AKWS_FIGURES] = {s->elapsed,
                                    s->distance,
                                    s->path_length,
                                    m->max_penetration,
                                    m->max_float,
                                    m->max_heel_penetration,
                                    m->max_heel_float,
                                    m->max_toe_penetration,
                                    m->max_toe_float,
                                    m->skate,
                                    m->max_skate,
                                    m->max_tilt * DEG_PER_RAD,
                                    m->max_hip_accel,
                                    m->deepest,
                                    m->deepest_planted,
                                    m->hip_accel_min_g,
                                    m->hip_accel_max_g,
                                    m->knee_peak * DEG_PER_RAD,
                                    drag.speed,
                                    src->hip_accel_min_g,
                                    src->hip_accel_max_g,
                                    src->knee_peak * DEG_PER_RAD,
                                    drag.bound};
    memcpy(v, f, sizeof f);
}

/* The matcher's own counts, before the closing brace. */
static size_t matcher_counts(ak_walk_scene *scene, char *buf, size_t cap)
{
    const ak_matcher *mt = ak_walk_scene_matcher(scene);
    if (!mt) return 0;
    ak_matcher_info mi;
    ak_motion_db_info d;
    ak_matcher_get_info(mt, &mi);
    ak_motion_db_get_info(ak_walk_scene_motion_db(scene), &d);
    return (size_t)snprintf(
        buf, cap, ",\"transitions\":%d,\"searches\":%d,\"unlocks\":%d,\"db_frames\":%d",
        (int)mi.transitions, (int)mi.searches, (int)mi.unlocks, (int)d.frame_count);
}

/* Appends `text` at buf[*len] (within cap; *len counts what it needs even past cap), as a JSON
 * string's characters when `escape` (quote, backslash and control characters escaped). */
static void put_text(char *buf, size_t cap, size_t *len, const char *text, int escape)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; ++c) {
        char one[8];
        const int n = escape && (*c == '"' || *c == '\\') ? snprintf(one, sizeof one, "\\%c", *c)
                      : escape && *c < 0x20               ? snprintf(one, sizeof one, "\\u%04x", *c)
                                                          : snprintf(one, sizeof one, "%c", *c);
        if (*len + (size_t)n < cap) memcpy(buf + *len, one, (size_t)n + 1);
        *len += (size_t)n;
    }
}

/* ,"root_joint":..,"root_joint_reason":..,"root_joint_why":..: the joint that carries the
 * source's travel and why (ak_root_joint_describe), as `animkit info --json` says it (its
 * reason top, under_still_top or named); flat, as every other key of the line. */
static size_t root_joint_json(const ak_walk_scene *w, char *buf, size_t cap)
{
    static const char *const reasons[3] = {"top", "under_still_top", "named"};
    const int32_t r = w->root.reason >= 0 && w->root.reason < 3 ? w->root.reason : 0;
    size_t len = 0;
    put_text(buf, cap, &len, ",\"root_joint\":\"", 0);
    put_text(buf, cap, &len, w->root_name, 1);
    put_text(buf, cap, &len, "\",\"root_joint_reason\":\"", 0);
    put_text(buf, cap, &len, reasons[r], 0);
    put_text(buf, cap, &len, "\",\"root_joint_why\":\"", 0);
    put_text(buf, cap, &len, w->root_why, 1);
    put_text(buf, cap, &len, "\"", 0);
    return len;
}

/* ,"start":..,"start_why":..,"stop":..,"stop_why":..: what the guide walker starts and stops
 * with (captured or procedural; the matcher plays database frames and has neither) and why, as
 * `animkit walk` says it (ak_transition_check_describe: a captured one left out names the bound
 * it breaks, with the figure). */
static size_t transitions_json(const ak_walk_scene *scene, char *buf, size_t cap)
{
    const ak_walk_motion *motion = ak_walk_scene_motion(scene);
    size_t len = 0;
    if (!motion) return 0;
    ak_walk_motion_info mi;
    ak_walk_motion_get_info(motion, &mi);
    for (int k = 0; k < 2; ++k) {
        const ak_transition_check *c = k == 0 ? &mi.start_check : &mi.stop_check;
        char why[320];
        ak_transition_check_describe(c, k, why, sizeof why);
        put_text(buf, cap, &len, k == 0 ? ",\"start\":\"" : ",\"stop\":\"", 0);
        put_text(buf, cap, &len, c->use == AK_TRANSITION_USED ? "captured" : "procedural", 0);
        put_text(buf, cap, &len, k == 0 ? "\",\"start_why\":\"" : "\",\"stop_why\":\"", 0);
        put_text(buf, cap, &len, why, 1);
        put_text(buf, cap, &len, "\"", 0);
    }
    return len;
}

int32_t ak_walk_summary_json(const ak_walk_summary *summary, ak_walk_scene *scene, char *buf,
                             size_t cap, ak_error *err)
{
    if (!summary || !scene || !buf || cap == 0)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "walk summary: NULL argument");
    ak_walker_state s;
    double v[AKWS_FIGURES];
    ak_walk_scene_get_origin_state(scene, &s);
    summary_figures(summary, &s, v);
    const int shown = summary->has_source ? AKWS_FIGURES : AKWS_FIGURES - AKWS_SOURCE_FIGURES;
    for (int i = 0; i < shown; ++i)
        if (!isfinite(v[i]))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "summary: %s is not finite (%g)",
                                k_names[i], v[i]);
    size_t len = (size_t)snprintf(buf, cap, "{\"arrived\":%s", s.arrived ? "true" : "false");
    for (int i = 0; i < shown && len < cap; ++i)
        len +=
            (size_t)snprintf(buf + len, cap - len, ",\"%s\":%.*f", k_names[i], k_decimals[i], v[i]);
    if (len < cap)
        len +=
            (size_t)snprintf(buf + len, cap - len, ",\"frames\":%d", (int)summary->metrics.frames);
    if (len < cap) len += matcher_counts(scene, buf + len, cap - len);
    if (len < cap) len += root_joint_json(scene, buf + len, cap - len);
    if (len < cap) len += transitions_json(scene, buf + len, cap - len);
    if (len < cap) len += (size_t)snprintf(buf + len, cap - len, "}");
    if (len >= cap) return ak_error_set(err, AK_ERR_LIMIT, 0, "summary: buffer too small");
    return AK_OK;
}
