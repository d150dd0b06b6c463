/* animkit viewer — an OpenGL 3.3 core context with no window, and a multisampled framebuffer
 * to render into and read back. Tries EGL on Mesa's surfaceless platform first (no X server
 * needed), then a hidden GLFW window (needs $DISPLAY, e.g. under xvfb-run). AK_GL=glfw or
 * AK_GL=egl forces one. */
#ifndef AKV_OFFSCREEN_H
#define AKV_OFFSCREEN_H

#include <stddef.h>
#include <stdint.h>

typedef struct akv_offscreen akv_offscreen;

/* Creates the context and a w x h framebuffer (4x MSAA, depth + stencil) and binds it.
 * NULL with the reason in `err` when no GL can be had. */
akv_offscreen *akv_offscreen_create(int w, int h, char *err, size_t err_size);
/* Binds the framebuffer to draw into. */
void akv_offscreen_bind(akv_offscreen *o);
/* Resolves the multisampled image and reads it back as RGB rows, top row first. */
void akv_offscreen_read(akv_offscreen *o, uint8_t *rgb);
/* "EGL surfaceless (llvmpipe ...)" or "GLFW hidden window (...)". */
const char *akv_offscreen_describe(const akv_offscreen *o);
void akv_offscreen_destroy(akv_offscreen *o);

#endif
