/* animkit render — placeholder until its module lands. */
#include "cli.h"

#include <stdio.h>

int ak_cmd_render(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "animkit render: not available in this build yet\n");
    return 1;
}
