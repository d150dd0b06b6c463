/* animkit viewer — walker view: waits for the locomotion module's walker API. */
#include "walk_view.h"

#include <stdio.h>

akv_walk_view *akv_walk_view_create(const akv_settings *s, char *err, size_t err_size)
{
    (void)s;
    snprintf(err, err_size, "walker mode is not in this build yet");
    return NULL;
}
void akv_walk_view_destroy(akv_walk_view *w) { (void)w; }
int akv_walk_view_frame_count(const akv_walk_view *w) { (void)w; return 1; }
float akv_walk_view_frame_time(const akv_walk_view *w) { (void)w; return 1.0f / 30.0f; }
void akv_walk_view_step_to(akv_walk_view *w, int frame) { (void)w; (void)frame; }
void akv_walk_view_update(akv_walk_view *w, float dt) { (void)w; (void)dt; }
void akv_walk_view_bounds(akv_walk_view *w, ak_vec3 *lo, ak_vec3 *hi)
{
    (void)w;
    *lo = ak_vec3_make(-1, 0, -1);
    *hi = ak_vec3_make(1, 2, 1);
}
void akv_walk_view_draw(akv_walk_view *w, akr_renderer *r, const akv_settings *s) { (void)w; (void)r; (void)s; }
void akv_walk_view_hud(akv_walk_view *w, akr_renderer *r) { (void)w; (void)r; }
int akv_walk_view_key(akv_walk_view *w, int key) { (void)w; (void)key; return 0; }
