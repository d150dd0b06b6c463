/* animkit info — placeholder. */
#include "cli.h"

#include <stdio.h>

int ak_cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "animkit info: not available in this build yet\n");
    return 1;
}
