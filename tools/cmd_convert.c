/* animkit convert — placeholder. */
#include "cli.h"

#include <stdio.h>

int ak_cmd_convert(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "animkit convert: not available in this build yet\n");
    return 1;
}
