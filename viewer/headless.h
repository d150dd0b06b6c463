/* animkit viewer — headless rendering: `animkit render` and `animkit-view --headless`.
 * Renders frames offscreen to one PNG, numbered PNGs, a contact sheet, a GIF or an MP4
 * (the last two through ffmpeg). */
#ifndef AKV_HEADLESS_H
#define AKV_HEADLESS_H

#include <stdint.h>
#include <stdio.h>

#include "render.h"

/* Runs the render command; argv[0] is the command name. Returns the exit code (0 ok,
 * 1 runtime error, 2 usage error, 3 no OpenGL context could be had). */
int akv_render_main(int argc, char **argv, const char *prog);
void akv_render_usage(FILE *out, const char *prog);
/* Frames a followed figure in a w x h picture at the camera's yaw and pitch: the n points
 * (metres: the top of its head, the ground under its feet; akv_mode_figure, akv_scene_figure)
 * centred in the picture's height with 5 % of it free above and below, the camera slid along
 * its own up axis (target and eye together); where they need more than the picture's height at
 * the camera's distance it backs off until they fit. Returns the distance it ends at. */
float akv_frame_figure(akr_camera *cam, int w, int h, const ak_vec3 *pts, int n);
/* Writes an RGB image (rows top first) as PNG; 0 on success. */
int akv_write_png(const char *path, int w, int h, const uint8_t *rgb);

#endif
