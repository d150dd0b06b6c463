/* PNG heightmaps through stb_image (see heightmap_png.h). */
#include "heightmap_png.h"

#include <stdlib.h>

#if defined(__has_include)
#if __has_include(<stb/stb_image.h>)
#define AK_TOOLS_PNG 1
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#if defined(__GNUC__)
/* stb declares static functions this file never uses; the warning is reported at the end of
 * the file, so it stays off for this file. */
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb/stb_image.h>
#endif
#endif

#ifdef AK_TOOLS_PNG
static int32_t load_png(const char *path, float size, float height, ak_terrain **out, ak_error *err)
{
    int w = 0, h = 0, comp = 0;
    stbi_us *px = stbi_load_16(path, &w, &h, &comp, 1);
    if (!px)
        return ak_error_set(err, AK_ERR_PARSE, 0, "cannot read PNG: %s", stbi_failure_reason());
    float *hs = (float *)malloc(sizeof(float) * (size_t)w * (size_t)h);
    if (!hs) {
        stbi_image_free(px);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    for (size_t i = 0; i < (size_t)w * (size_t)h; ++i)
        hs[i] = (float)px[i] / 65535.0f * height;
    stbi_image_free(px);
    const int32_t st = ak_terrain_create_grid(hs, w, h, size, out, err);
    free(hs);
    return st;
}
const ak_heightmap_loader ak_tools_png_heightmap_loader = load_png;
#else
const ak_heightmap_loader ak_tools_png_heightmap_loader = NULL;
#endif
