/* animkit viewer — the motion-matching overlay (see match_overlay.h). */
#include "match_overlay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const float akv_wanted_rgba[4] = {1.0f, 0.86f, 0.0f, 1.0f};
const float akv_matched_rgba[4] = {0.0f, 0.85f, 0.95f, 1.0f};

/* Facing tick length, metres. */
#define TICK 0.25f

static ak_vec3 on_ground(ak_vec3 p, const ak_ground *ground)
{
    ak_ground_hit hit;
    if (ground && ak_ground_query(ground, p.x, p.z, &hit)) p.y = hit.height;
    p.y += AKV_MATCH_OVERLAY_LIFT;
    return p;
}

void akv_match_overlay_points(const ak_matcher_info *info, const ak_ground *ground,
                              ak_vec3 wanted[AK_MATCH_TRAJ_POINTS],
                              ak_vec3 matched[AK_MATCH_TRAJ_POINTS])
{
    for (int k = 0; k < AK_MATCH_TRAJ_POINTS; ++k) {
        wanted[k] = on_ground(info->desired_position[k], ground);
        matched[k] = on_ground(info->matched_position[k], ground);
    }
}

static void vertex(float *o, ak_vec3 p, const float rgba[4])
{
    o[0] = p.x;
    o[1] = p.y;
    o[2] = p.z;
    memcpy(o + 3, rgba, 4 * sizeof(float));
}

/* One trajectory: from -> p[0] -> p[1] -> p[2], and a tick along each facing. */
static int trajectory(float *v, ak_vec3 from, const ak_vec3 *p, const ak_vec3 *facing,
                      const float rgba[4])
{
    int n = 0;
    for (int k = 0; k < AK_MATCH_TRAJ_POINTS; ++k) {
        vertex(v + 7 * n++, k == 0 ? from : p[k - 1], rgba);
        vertex(v + 7 * n++, p[k], rgba);
        const ak_vec3 tip =
            ak_vec3_add(p[k], ak_vec3_make(facing[k].x * TICK, 0.0f, facing[k].z * TICK));
        vertex(v + 7 * n++, p[k], rgba);
        vertex(v + 7 * n++, tip, rgba);
    }
    return n;
}

int akv_match_overlay_lines(const ak_matcher_info *info, const ak_ground *ground, ak_vec3 from,
                            float *v)
{
    ak_vec3 wanted[AK_MATCH_TRAJ_POINTS], matched[AK_MATCH_TRAJ_POINTS];
    akv_match_overlay_points(info, ground, wanted, matched);
    from = on_ground(from, ground);
    int n = trajectory(v, from, wanted, info->desired_facing, akv_wanted_rgba);
    n += trajectory(v + 7 * n, from, matched, info->matched_facing, akv_matched_rgba);
    return n;
}

void akv_match_overlay_draw(akr_renderer *r, const ak_matcher *matcher, const ak_ground *ground)
{
    ak_matcher_info info;
    ak_walker_state st;
    ak_matcher_get_info(matcher, &info);
    ak_matcher_get_state(matcher, &st);
    float v[AKV_MATCH_OVERLAY_VERTICES * 7];
    const int n = akv_match_overlay_lines(&info, ground, st.position, v);
    akr_draw_lines(r, v, n, 0);
    ak_vec3 wanted[AK_MATCH_TRAJ_POINTS], matched[AK_MATCH_TRAJ_POINTS];
    akv_match_overlay_points(&info, ground, wanted, matched);
    for (int k = 0; k < AK_MATCH_TRAJ_POINTS; ++k) {
        akr_draw_sphere(r, wanted[k], 0.045f, akv_wanted_rgba);
        akr_draw_sphere(r, matched[k], 0.045f, akv_matched_rgba);
    }
}

void akv_match_overlay_hud(akr_renderer *r, const ak_matcher *matcher, const ak_motion_db *db,
                           float x, float y, const float ink[3])
{
    ak_matcher_info info;
    ak_matcher_get_info(matcher, &info);
    char text[256];
    snprintf(text, sizeof text, "%.60s %.2f s (frame %d)  cost %.1f  transitions %d%s",
             ak_motion_db_clip_name(db, info.clip), (double)info.source_time, (int)info.frame,
             (double)info.cost, (int)info.transitions, info.standing ? "  standing" : "");
    akr_draw_text(r, x, y, 2.0f, text, ink);
}
