/* PNG heightmaps for the walk scenario, shared by the CLI and the viewer (both link
 * animkit_tools_common). The library reads PGM only (libc + libm); PNG decoding comes from
 * stb_image, which the CLI and the viewer already depend on. */
#ifndef AK_TOOLS_HEIGHTMAP_PNG_H
#define AK_TOOLS_HEIGHTMAP_PNG_H

#include "animkit/scenario.h"

/* An ak_heightmap_loader: 8- or 16-bit PNG, first channel, value / max * height metres over a
 * square of side `size` metres (the PGM mapping). NULL when this build has no stb_image, so
 * callers can pass it to ak_walk_scene_create either way. */
extern const ak_heightmap_loader ak_tools_png_heightmap_loader;

#endif
