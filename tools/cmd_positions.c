/* animkit positions — placeholder. */
#include "cli.h"

#include <stdio.h>

int ak_cmd_positions(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "animkit positions: not available in this build yet\n");
    return 1;
}
