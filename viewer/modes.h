/* animkit viewer — the IK and walker modes, drawn by the same renderer as clip playback.
 * Built on the ik and locomotion modules when they are in the tree (AKV_HAVE_IK,
 * AKV_HAVE_WALK); otherwise akv_mode_create says the mode is not in this build. */
#ifndef AKV_MODES_H
#define AKV_MODES_H

#include "animkit/scenario.h"
#include "render.h"
#include "scene.h"

typedef struct akv_mode_state akv_mode_state;

/* IK mode uses the first character of `scene` (or a built-in arm when there is none);
 * walker mode builds its own terrain and character from the walker flags in `s`. */
akv_mode_state *akv_mode_create(const akv_settings *s, akv_scene *scene, char *err,
                                size_t err_size);
void akv_mode_destroy(akv_mode_state *m);
/* Headless sequencing: how many frames the mode can render and the time between them. */
int akv_mode_frame_count(const akv_mode_state *m);
float akv_mode_frame_time(const akv_mode_state *m);
/* Advances (walker: simulates) to frame `frame`. */
void akv_mode_step_to(akv_mode_state *m, int frame);
/* World box worth framing, metres. */
void akv_mode_bounds(akv_mode_state *m, ak_vec3 *lo, ak_vec3 *hi);
void akv_mode_draw(akv_mode_state *m, akr_renderer *r);
void akv_mode_hud(akv_mode_state *m, akr_renderer *r, int w, int h);
/* IK mode: distance from the chain's tip to the target after the last solve, metres, and
 * the target; -1 for other modes. */
float akv_mode_ik_error_m(const akv_mode_state *m, ak_vec3 *target_m);
/* A point the camera should follow (walker: the character's hips); 0 when the mode has none. */
int akv_mode_focus(const akv_mode_state *m, ak_vec3 *point);
/* The points a picture of the walker must show (akv_walk_view_figure); 0 for other modes. */
int akv_mode_figure(const akv_mode_state *m, ak_vec3 *out, int max);
/* Walker mode: what it walks ("built-in walk" or the clip's name); "" otherwise. */
const char *akv_mode_walk_label(const akv_mode_state *m);
/* Walker mode: the library's walk scene (guide walker or matcher); NULL for other modes. */
ak_walk_scene *akv_mode_walk_scene(akv_mode_state *m);
/* Walker mode: the HUD's feet line for the shown frame ("feet: L planted, R swinging ...");
 * 0 (and "") for other modes. */
int akv_mode_walk_feet_text(const akv_mode_state *m, char *out, size_t size);
/* Window: real-time update, a key press (GLFW key code; returns 1 when used), and a mouse
 * drag at pixel (px, py): phase 0 press, 1 move, 2 release (returns 1 when it grabbed); phase 3
 * is a right click (the walker's new target). */
void akv_mode_update(akv_mode_state *m, float dt);
int akv_mode_key(akv_mode_state *m, int key);
int akv_mode_drag(akv_mode_state *m, const akr_camera *cam, int w, int h, float px, float py,
                  int phase);

/* The look (body or bones, skinning) from now on: the window's M, K and J keys. */
void akv_mode_set_look(akv_mode_state *m, const akr_look *look);

#endif
