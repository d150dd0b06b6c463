/* animkit ik — placeholder until its module lands. */
#include "cli.h"

#include <stdio.h>

int ak_cmd_ik(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "animkit ik: not available in this build yet\n");
    return 1;
}
