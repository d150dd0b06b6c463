/* animkit viewer — what motion matching is doing, drawn over the walker view: the wanted
 * future trajectory (yellow, what the controller asks for) and the playing frame's own
 * (cyan, what the matched capture will do) at +0.33/+0.67/+1.0 s, each a path from the
 * character through the three points with a facing tick at each (the same colours as the
 * Unity component's Gizmos); and a HUD line with the clip, frame, cost and counts. */
#ifndef AKV_MATCH_OVERLAY_H
#define AKV_MATCH_OVERLAY_H

#include "animkit/matching.h"
#include "render.h"

extern const float akv_wanted_rgba[4], akv_matched_rgba[4];

/* Vertices akv_match_overlay_lines writes at most: two trajectories of three path segments
 * and three facing ticks. */
#define AKV_MATCH_OVERLAY_VERTICES 24
/* Metres above the ground the trajectories are drawn at. */
#define AKV_MATCH_OVERLAY_LIFT 0.05f

/* The trajectory points of `info` on the ground (`ground` may be NULL: the points' own
 * heights), lifted AKV_MATCH_OVERLAY_LIFT: wanted[3] and matched[3], world metres. */
void akv_match_overlay_points(const ak_matcher_info *info, const ak_ground *ground,
                              ak_vec3 wanted[AK_MATCH_TRAJ_POINTS],
                              ak_vec3 matched[AK_MATCH_TRAJ_POINTS]);
/* Line vertices (x,y,z,r,g,b,a; pairs are segments, world) of both trajectories from the
 * character's ground point `from`; returns the count (AKV_MATCH_OVERLAY_VERTICES). */
int akv_match_overlay_lines(const ak_matcher_info *info, const ak_ground *ground, ak_vec3 from,
                            float *xyzrgba);
/* Draws both trajectories (lines on top of everything, a ball at each point). */
void akv_match_overlay_draw(akr_renderer *r, const ak_matcher *matcher, const ak_ground *ground);
/* One HUD line at pixel (x, y): the clip playing, the time in it and the database frame,
 * the last search's cost and the transitions so far ("standing" once stopped). */
void akv_match_overlay_hud(akr_renderer *r, const ak_matcher *matcher, const ak_motion_db *db,
                           float x, float y, const float ink[3]);

#endif
