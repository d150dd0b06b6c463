/* stb_image_write's implementation, for systems whose libstb-dev ships headers only. */
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
