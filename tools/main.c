/* animkit — command-line tool. One subcommand per file (cmd_*.c). */
#include "cli.h"
#include "progress.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    ak_cli_command_fn fn;
    const char *summary;
} k_commands[] = {
    {"info", ak_cmd_info, "joints, channels, frames, duration, height, units, humanoid map"},
    {"positions", ak_cmd_positions, "world positions of every joint as CSV frame,joint,x,y,z"},
    {"convert", ak_cmd_convert, "BVH -> BVH (any rotation order), BVH -> glTF 2.0"},
    {"edit", ak_cmd_edit,
     "trim, resample, mirror, root reset, in place, units, append: BVH -> BVH"},
    {"ik", ak_cmd_ik, "solve IK on one frame: limb, ccd, fabrik, jacobian, dls"},
    {"walk", ak_cmd_walk, "walk a character to a target over terrain (the main demo)"},
    {"retarget", ak_cmd_retarget, "play a humanoid capture on another rig (BVH, glTF skin, biped)"},
    {"render", ak_cmd_render, "render frames of a clip or the walker to PNG/GIF/MP4"},
};

/* A command's progress: render counts frames and walk reports its own place once a second;
 * every other job is watched (progress.h: a terminal sees it working after 2 s, a log gets
 * a timing line for a job over 2 s). --help and --version print at once, unwatched. */
static int run_command(size_t i, int argc, char **argv)
{
    const int counts_itself =
        strcmp(k_commands[i].name, "render") == 0 || strcmp(k_commands[i].name, "walk") == 0;
    int quick = 0;
    for (int a = 2; a < argc; ++a)
        quick |= strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0 ||
                 strcmp(argv[a], "--version") == 0;
    char prog[64];
    snprintf(prog, sizeof prog, "animkit %s", k_commands[i].name);
    if (!counts_itself && !quick) akt_progress_watch_begin(prog);
    const int rc = k_commands[i].fn(argc - 1, argv + 1);
    if (!counts_itself && !quick) akt_progress_watch_end();
    return rc;
}

static void usage(FILE *out)
{
    fprintf(out,
            "animkit %s — character animation toolkit\n\nusage: animkit COMMAND "
            "[options]\n\ncommands:\n",
            AK_VERSION_STRING);
    for (size_t i = 0; i < sizeof k_commands / sizeof k_commands[0]; ++i)
        fprintf(out, "  %-10s %s\n", k_commands[i].name, k_commands[i].summary);
    fprintf(out, "\n'animkit COMMAND --help' describes each command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("animkit %s\n", AK_VERSION_STRING);
        return 0;
    }
    for (size_t i = 0; i < sizeof k_commands / sizeof k_commands[0]; ++i)
        if (strcmp(argv[1], k_commands[i].name) == 0) return run_command(i, argc, argv);
    fprintf(stderr, "animkit: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
