/* animkit viewer — IK and walker modes. */
#include "modes.h"

#include <stdio.h>
#include <stdlib.h>

struct akv_mode_state {
    int unused;
};

akv_mode_state *akv_mode_create(const akv_settings *s, akv_scene *scene, char *err, size_t err_size)
{
    (void)scene;
    snprintf(err, err_size, "%s mode is not in this build yet", s->mode == AKV_MODE_IK ? "IK" : "walker");
    return NULL;
}
void akv_mode_destroy(akv_mode_state *m) { free(m); }
int akv_mode_frame_count(const akv_mode_state *m) { (void)m; return 1; }
float akv_mode_frame_time(const akv_mode_state *m) { (void)m; return 1.0f / 30.0f; }
void akv_mode_step_to(akv_mode_state *m, int frame) { (void)m; (void)frame; }
void akv_mode_bounds(akv_mode_state *m, ak_vec3 *lo, ak_vec3 *hi)
{
    (void)m;
    *lo = ak_vec3_make(-1, 0, -1);
    *hi = ak_vec3_make(1, 2, 1);
}
void akv_mode_draw(akv_mode_state *m, akr_renderer *r) { (void)m; (void)r; }
void akv_mode_hud(akv_mode_state *m, akr_renderer *r, int w, int h) { (void)m; (void)r; (void)w; (void)h; }
void akv_mode_update(akv_mode_state *m, float dt) { (void)m; (void)dt; }
int akv_mode_key(akv_mode_state *m, int key) { (void)m; (void)key; return 0; }
int akv_mode_drag(akv_mode_state *m, const akr_camera *cam, int w, int h, float px, float py, int phase)
{
    (void)m; (void)cam; (void)w; (void)h; (void)px; (void)py; (void)phase;
    return 0;
}
