/* animkit viewer — what the renderer's own files share (render.c owns the GL state;
 * render_skin.c draws skinned bodies with it). Not for callers of render.h. */
#ifndef AKV_RENDER_INTERNAL_H
#define AKV_RENDER_INTERNAL_H

#include "render.h"

/* The current frame as akr_begin set it up. */
typedef struct akr_frame {
    float vp[16];     /* view-projection, column-major */
    float shadow[16]; /* planar shadow projection onto the shadow plane (world -> world) */
    ak_vec3 eye;
    float fog[2];
    int shadows; /* planar shadows on */
} akr_frame;

void akr_frame_info(const akr_renderer *r, akr_frame *out);
/* Compiles and links a program from a vertex shader and the lit fragment shader (render.c's
 * k_lit_fs, whose uniforms u_color, u_light, u_eye, u_fog, u_fog_color, u_flat, u_contour it
 * expects); 0 with the reason in err. */
unsigned akr_lit_program(const char *vertex_source, char *err, size_t err_size);
/* Where render_skin.c keeps its per-renderer state; released by akr_destroy. */
void **akr_skin_state(akr_renderer *r);
void akr_skin_release(akr_renderer *r);
/* The stencilled shadow pass around a draw call (render.c draw_shadow's state). */
void akr_shadow_begin(void);
void akr_shadow_end(void);

#endif
