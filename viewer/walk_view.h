/* animkit viewer — the walker scene: terrain, the walking character, its target, guide
 * joint, ground rays, stance feet and hip drop; with --steer match the wanted and matched
 * trajectories and the clip, frame and cost playing. Built on the walk scenario. */
#ifndef AKV_WALK_VIEW_H
#define AKV_WALK_VIEW_H

#include "animkit/scenario.h"
#include "render.h"
#include "scene.h"

typedef struct akv_walk_view akv_walk_view;

/* Builds the walk scene from s->walk (the walk scenario); NULL with a reason on failure. */
akv_walk_view *akv_walk_view_create(const akv_settings *s, char *err, size_t err_size);
void akv_walk_view_destroy(akv_walk_view *w);
int akv_walk_view_frame_count(const akv_walk_view *w);
float akv_walk_view_frame_time(const akv_walk_view *w);
void akv_walk_view_step_to(akv_walk_view *w, int frame);
void akv_walk_view_update(akv_walk_view *w, float dt);
void akv_walk_view_bounds(akv_walk_view *w, ak_vec3 *lo, ak_vec3 *hi);
void akv_walk_view_draw(akv_walk_view *w, akr_renderer *r, const akv_settings *s);
/* The HUD lines (what the walker is doing, labelled with units and meaning), fitted to
 * `width` pixels. */
void akv_walk_view_hud(akv_walk_view *w, akr_renderer *r, int width);
/* What a foot does in the shown frame, as the HUD says it and the sole balls colour it. */
typedef struct akv_foot_shown {
    int held;    /* the grounding holds it planted (the walker state's stance) */
    int down;    /* planted: held, or standing on the ground by itself (heel and toe within
                    1 cm of the ground under them, or one of them within 1 cm and slower than
                    0.3 m/s) */
    float slide; /* m/s: how fast the slower of its points that are down moves (0 in swing) */
} akv_foot_shown;

/* Both feet of a walker state (world metres) against the state `dt` s earlier (`prev`; NULL
 * on the first frame, when only a held foot or one with both points within 1 cm is down).
 * The walker state's stance is the grounding's (the feet it holds), and the matcher does not
 * hold a foot that a transition brought down at another height than its frame has it: that
 * foot stands on the ground all the same, so the HUD reads the feet themselves. */
void akv_walk_feet_shown(const ak_walker_state *now, const ak_walker_state *prev, float dt,
                         akv_foot_shown out[2]);
/* The shown frame's feet (against the frame before it). */
void akv_walk_view_feet(const akv_walk_view *w, akv_foot_shown out[2]);
/* The HUD's feet line: "feet: L planted, R swinging   sole tilt from the ground: ...". */
void akv_walk_view_feet_text(const akv_walk_view *w, char *out, size_t size);
/* What the walker walks: "built-in walk" or the clip's file name. */
const char *akv_walk_view_clip_label(const akv_walk_view *w);
int akv_walk_view_key(akv_walk_view *w, int key);
/* Sends the walker to where the ray (world, unit direction) meets the terrain; 1 when it did. */
int akv_walk_view_target_ray(akv_walk_view *w, ak_vec3 origin, ak_vec3 direction);
/* The library's walk scene behind the view (its matcher, when steering by matching). */
ak_walk_scene *akv_walk_view_scene(akv_walk_view *w);
/* The character's hips, metres (what the camera follows). */
ak_vec3 akv_walk_view_focus(const akv_walk_view *w);
/* Up to `max` points, metres, that a picture of the character must show (akv_figure_points):
 * over its highest joint by AKV_HEAD_TOP, and the ground under each heel (sole point) and toe
 * (the point itself where it is lower, or where no ground is known); returns how many. */
int akv_walk_view_figure(const akv_walk_view *w, ak_vec3 *out, int max);

#endif
