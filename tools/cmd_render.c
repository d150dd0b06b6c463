/* animkit render — frames of a clip (or the walker / an IK solve) to PNG, GIF or MP4 with no
 * window. The work is in viewer/headless.c, shared with `animkit-view --headless`. */
#include "cli.h"

#include <stdio.h>

#ifdef AK_HAVE_RENDER
#include "headless.h"

int ak_cmd_render(int argc, char **argv)
{
    return akv_render_main(argc, argv, "animkit render");
}
#else
int ak_cmd_render(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "animkit render: this build has no renderer (needs GLFW, libepoxy and stb; "
                    "configure with -DAK_BUILD_VIEWER=ON)\n");
    return 1;
}
#endif
