/* animkit ik FILE.bvh --frame N --root JOINT --tip JOINT --target X,Y,Z [--pole X,Y,Z]
 *               --solver limb|ccd|fabrik|jacobian|dls [--iterations N] [--tolerance T]
 *               [--weight W] [--positions]
 * Poses one frame of a BVH file with an IK solver and prints one JSON line
 * {"solver":...,"reached":...,"iterations":...,"error":...}; with --positions, then the
 * solved pose's world positions as CSV frame,joint,x,y,z (9 significant digits), the columns
 * of `animkit positions`. Units and axes are the file's own. */
#include "cli_bvh.h"
#include "clip_any.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every flag of `animkit ik` (the file is positional). */
typedef struct ik_options {
    char root[256], tip[256];
    int32_t frame;
    float target[3], pole[3];
    int32_t solver; /* ak_ik_kind */
    int32_t iterations;
    float tolerance, weight;
    int32_t positions;
    int32_t have_pole; /* --pole was given (not a flag) */
    int32_t up;        /* ak_up_axis: --up */
} ik_options;

#define IK_FIELD(f) offsetof(ik_options, f)
static const ak_flag k_ik_flags[] = {
    {.name = "root",
     .type = AK_FLAG_TEXT,
     .offset = IK_FIELD(root),
     .size = 256,
     .metavar = "JOINT",
     .help = "first joint of the chain (required)"},
    {.name = "tip",
     .type = AK_FLAG_TEXT,
     .offset = IK_FIELD(tip),
     .size = 256,
     .metavar = "JOINT",
     .help = "end effector (required); limb: exactly three joints root..tip"},
    {.name = "target",
     .type = AK_FLAG_FLOAT,
     .offset = IK_FIELD(target),
     .count = 3,
     .metavar = "X,Y,Z",
     .help = "where the tip goes, model space, file units (required)"},
    {.name = "solver",
     .type = AK_FLAG_CHOICE,
     .offset = IK_FIELD(solver),
     .choices = "limb|ccd|fabrik|jacobian|dls",
     .help = "analytic two-bone, CCD, FABRIK, pseudo-inverse or damped least squares (required)"},
    {.name = "frame",
     .type = AK_FLAG_INT,
     .offset = IK_FIELD(frame),
     .metavar = "N",
     .def = "0",
     .range = "[0,2147483647]",
     .help = "frame to pose (0-based)"},
    {.name = "pole",
     .type = AK_FLAG_FLOAT,
     .offset = IK_FIELD(pole),
     .count = 3,
     .metavar = "X,Y,Z",
     .help = "limb only: the middle joint bends toward this point"},
    {.name = "iterations",
     .type = AK_FLAG_INT,
     .offset = IK_FIELD(iterations),
     .metavar = "N",
     .def = "100",
     .range = "[1,2147483647]",
     .help = "iteration cap of ccd/fabrik/jacobian/dls"},
    {.name = "tolerance",
     .type = AK_FLAG_FLOAT,
     .offset = IK_FIELD(tolerance),
     .metavar = "T",
     .def = "1e-4",
     .range = "[0,1000000]",
     .help = "reached when error <= T * chain length"},
    {.name = "weight",
     .type = AK_FLAG_FLOAT,
     .offset = IK_FIELD(weight),
     .metavar = "W",
     .def = "1",
     .range = "[0,1]",
     .help = "blend between the input pose (0) and the solve (1)"},
    {.name = "positions",
     .type = AK_FLAG_SWITCH,
     .offset = IK_FIELD(positions),
     .on = 1,
     .def = "0",
     .help = "also print the solved pose as CSV frame,joint,x,y,z"},
    AK_CLI_UP_FLAG(offsetof(ik_options, up)),
};
static const ak_flag_table k_ik_table = {"ik", k_ik_flags,
                                         (int32_t)(sizeof k_ik_flags / sizeof k_ik_flags[0])};

static void usage(FILE *out)
{
    ak_cli_print_help(
        out,
        "usage: animkit ik FILE.bvh --root JOINT --tip JOINT --target X,Y,Z\n"
        "                  --solver limb|ccd|fabrik|jacobian|dls [options]\n"
        "\n"
        "Moves the chain from --root down to --tip so the tip reaches --target (model space,\n"
        "the file's units and axes) at frame N of the file, and prints one JSON line:\n"
        "  {\"solver\":\"limb\",\"reached\":true,\"iterations\":1,\"error\":0.00012}\n"
        "(error: final tip-target distance in file units). Joints outside the chain keep\n"
        "their positions, joints below the tip move rigidly with it, bones keep their length.\n"
        "\n",
        &k_ik_table);
}

/* Flags -> options and the input file. Returns 1 to go on, or 0 with *exit_code (help
 * printed: 0; usage error: 2). */
static int parse_ik_flags(int argc, char **argv, ik_options *o, const char **path, int *exit_code)
{
    ak_flags_result r;
    if (!ak_cli_parse_flags(&k_ik_table, o, argc, argv, 1, usage, &r, exit_code)) return 0;
    ak_tools_set_up(o->up);
    *exit_code = 2; /* below, !ak_cli_usage_error(...) prints the error and gives 0: done */
    *path = r.positional_count ? r.positional[0] : NULL;
    if (!*path) return !ak_cli_usage_error("ik", "no input file");
    if (!o->root[0] || !o->tip[0])
        return !ak_cli_usage_error("ik", "--root and --tip are required");
    if (!ak_flags_given(&r, &k_ik_table, 0, "target"))
        return !ak_cli_usage_error("ik", "--target is required");
    if (!ak_flags_given(&r, &k_ik_table, 0, "solver"))
        return !ak_cli_usage_error("ik", "--solver is required (limb|ccd|fabrik|jacobian|dls)");
    o->have_pole = ak_flags_given(&r, &k_ik_table, 0, "pole");
    if (o->have_pole && o->solver != AK_IK_LIMB)
        return !ak_cli_usage_error("ik", "--pole works with --solver limb only");
    return 1;
}

/* The chain root..tip, CMU-style zero-length joints skipped. Returns its length, or 0 after
 * printing why there is none. */
static int32_t find_chain(const ak_skeleton *s, const char *path, const ik_options *o,
                          int32_t *chain)
{
    const int32_t root = ak_skeleton_find(s, o->root), tip = ak_skeleton_find(s, o->tip);
    if (root < 0 || tip < 0) {
        fprintf(stderr, "animkit ik: %s: no joint named '%s'\n", path, root < 0 ? o->root : o->tip);
        return 0;
    }
    int32_t n = ak_ik_chain_from_joints(s, root, tip, chain, AK_IK_MAX_CHAIN);
    /* Joints sitting on their parent (CMU's LHipJoint) are left rigid. */
    if (n > 0) n = ak_ik_chain_skip_zero_bones(s, chain, n);
    if (n == AK_ERR_LIMIT) {
        fprintf(stderr, "animkit ik: the chain %s..%s is longer than %d joints\n", o->root, o->tip,
                AK_IK_MAX_CHAIN);
        return 0;
    }
    if (n < 2) {
        fprintf(stderr, "animkit ik: '%s' is not below '%s'\n", o->tip, o->root);
        return 0;
    }
    if (o->solver == AK_IK_LIMB && n != 3) {
        fprintf(stderr, "animkit ik: limb needs three joints from --root to --tip; %s..%s has %d\n",
                o->root, o->tip, (int)n);
        return 0;
    }
    return n;
}

/* The JSON line and, with --positions, the solved pose as CSV. Returns 0 when written. */
static int print_result(const ak_skeleton *s, const ik_options *o, const ak_ik_result *r,
                        const ak_xform *world)
{
    printf("{\"solver\":\"%s\",\"reached\":%s,\"iterations\":%d,\"error\":%.9g}\n",
           ak_ik_kind_name(o->solver), r->reached ? "true" : "false", (int)r->iterations,
           (double)r->error);
    if (o->positions) {
        printf("frame,joint,x,y,z\n");
        for (int32_t j = 0; j < s->joint_count; ++j) {
            printf("%d,", (int)o->frame);
            ak_cli_print_csv_field(s->names[j]);
            printf(",%.9g,%.9g,%.9g\n", (double)world[j].translation.x,
                   (double)world[j].translation.y, (double)world[j].translation.z);
        }
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "animkit ik: cannot write the output\n");
        return -1;
    }
    return 0;
}

/* Poses the frame and solves. Returns the exit code. */
static int solve_frame(const ak_skeleton *s, const ak_clip *clip, const char *path,
                       const ik_options *o)
{
    int32_t chain[AK_IK_MAX_CHAIN];
    const int32_t n = find_chain(s, path, o, chain);
    if (n == 0) return 1;
    if (o->frame >= clip->frame_count)
        return ak_cli_usage_error("ik", "--frame %d is past the last frame %d", (int)o->frame,
                                  (int)clip->frame_count - 1);
    ak_ik_any_params p = ak_ik_any_defaults();
    p.workspace_bytes = ak_ik_any_workspace_size(o->solver, n);
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    ak_xform *world = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    p.workspace = p.workspace_bytes ? malloc(p.workspace_bytes) : NULL;
    int rc = 1;
    if (!local || !world || (p.workspace_bytes && !p.workspace)) {
        fprintf(stderr, "animkit ik: out of memory\n");
        goto done;
    }
    ak_clip_frame(clip, s, o->frame, local);
    ak_fk(s, local, world);
    p.skeleton = s;
    p.chain = chain;
    p.chain_length = n;
    p.target = ak_vec3_make(o->target[0], o->target[1], o->target[2]);
    p.use_pole = o->have_pole;
    p.pole = ak_vec3_make(o->pole[0], o->pole[1], o->pole[2]);
    p.max_iterations = o->iterations;
    p.tolerance = o->tolerance;
    p.weight = o->weight;
    ak_ik_result r;
    ak_error err;
    const int32_t st = ak_ik_solve_any(o->solver, &p, local, world, &r, &err);
    if (st < 0)
        fprintf(stderr, "animkit ik: %s: %s (%s)\n", path, err.message, ak_status_name(st));
    else
        rc = print_result(s, o, &r, world) == 0 ? 0 : 1;
done:
    free(p.workspace);
    free(local);
    free(world);
    return rc;
}

int ak_cmd_ik(int argc, char **argv)
{
    ik_options o;
    const char *path = NULL;
    int exit_code;
    if (!parse_ik_flags(argc, argv, &o, &path, &exit_code)) return exit_code;
    ak_skeleton *s = NULL;
    ak_clip *clip = NULL;
    if (akcli_load_bvh(path, &s, &clip)) return 1;
    const int rc = solve_frame(s, clip, path, &o);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(s);
    return rc;
}
