/* animkit viewer — headless rendering: `animkit render` and `animkit-view --headless`.
 * Renders frames offscreen to one PNG, numbered PNGs, a contact sheet, a GIF or an MP4
 * (the last two through ffmpeg). */
#ifndef AKV_HEADLESS_H
#define AKV_HEADLESS_H

#include <stdint.h>
#include <stdio.h>

/* Runs the render command; argv[0] is the command name. Returns the exit code (0 ok,
 * 1 runtime error, 2 usage error, 3 no OpenGL context could be had). */
int akv_render_main(int argc, char **argv, const char *prog);
void akv_render_usage(FILE *out, const char *prog);
/* Writes an RGB image (rows top first) as PNG; 0 on success. */
int akv_write_png(const char *path, int w, int h, const uint8_t *rgb);

#endif
