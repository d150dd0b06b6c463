/* animkit ik FILE.bvh --frame N --root JOINT --tip JOINT --target X,Y,Z [--pole X,Y,Z]
 *               --solver limb|ccd|fabrik|jacobian|dls [--iterations N] [--tolerance T]
 *               [--weight W] [--positions]
 * Poses one frame of a BVH file with an IK solver and prints one JSON line
 * {"solver":...,"reached":...,"iterations":...,"error":...}; with --positions, then the
 * solved pose's world positions as CSV frame,joint,x,y,z (9 significant digits), the columns
 * of `animkit positions`. Units and axes are the file's own. */
#include "cli_bvh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: animkit ik FILE.bvh --root JOINT --tip JOINT --target X,Y,Z\n"
            "                  --solver limb|ccd|fabrik|jacobian|dls [--frame N] [--pole X,Y,Z]\n"
            "                  [--iterations N] [--tolerance T] [--weight W] [--positions]\n"
            "\n"
            "Moves the chain from --root down to --tip so the tip reaches --target (model space,\n"
            "the file's units and axes) at frame N of the file, and prints one JSON line:\n"
            "  {\"solver\":\"limb\",\"reached\":true,\"iterations\":1,\"error\":0.00012}\n"
            "(error: final tip-target distance in file units). Joints outside the chain keep\n"
            "their positions, joints below the tip move rigidly with it, bones keep their length.\n"
            "\n"
            "  --frame N          frame to pose (0-based, default 0)\n"
            "  --root, --tip      joint names; limb needs exactly three joints root..tip\n"
            "                     (e.g. --root LeftUpLeg --tip LeftFoot)\n"
            "  --solver S         limb (analytic two-bone), ccd, fabrik, jacobian (pseudo-inverse)\n"
            "                     or dls (damped least squares)\n"
            "  --pole X,Y,Z       limb only: the middle joint bends toward this point\n"
            "  --iterations N     iteration cap for ccd/fabrik/jacobian/dls (default 100)\n"
            "  --tolerance T      reached when error <= T * chain length (default 1e-4)\n"
            "  --weight W         0..1 blend between the input pose and the solve (default 1)\n"
            "  --positions        also print the solved pose as CSV frame,joint,x,y,z\n"
            "  -h, --help         this help\n");
}

static void print_name(const char *name)
{
    if (!strpbrk(name, ",\"")) {
        fputs(name, stdout);
        return;
    }
    putchar('"');
    for (const char *c = name; *c; ++c) {
        if (*c == '"') putchar('"');
        putchar(*c);
    }
    putchar('"');
}

int ak_cmd_ik(int argc, char **argv)
{
    if (ak_cli_wants_help(argc, argv)) {
        usage(stdout);
        return 0;
    }
    const char *path = NULL, *root_name = NULL, *tip_name = NULL, *solver = NULL;
    int frame = 0, iterations = 100, have_target = 0, have_pole = 0, positions = 0;
    float tolerance = 1e-4f, weight = 1.0f;
    ak_vec3 target = {0, 0, 0}, pole = {0, 0, 0};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--positions") == 0) {
            positions = 1;
            continue;
        }
        if (a[0] != '-' || a[1] != '-') {
            if (path) return ak_cli_usage_error("ik", "more than one input file ('%s')", a);
            path = a;
            continue;
        }
        if (!v) return ak_cli_usage_error("ik", "%s needs a value", a);
        ++i;
        if (strcmp(a, "--frame") == 0) {
            if (ak_cli_parse_int(v, &frame) || frame < 0)
                return ak_cli_usage_error("ik", "bad --frame '%s'", v);
        } else if (strcmp(a, "--root") == 0) {
            root_name = v;
        } else if (strcmp(a, "--tip") == 0) {
            tip_name = v;
        } else if (strcmp(a, "--target") == 0) {
            if (ak_cli_parse_vec3(v, &target)) return ak_cli_usage_error("ik", "bad --target '%s' (X,Y,Z)", v);
            have_target = 1;
        } else if (strcmp(a, "--pole") == 0) {
            if (ak_cli_parse_vec3(v, &pole)) return ak_cli_usage_error("ik", "bad --pole '%s' (X,Y,Z)", v);
            have_pole = 1;
        } else if (strcmp(a, "--solver") == 0) {
            solver = v;
        } else if (strcmp(a, "--iterations") == 0) {
            if (ak_cli_parse_int(v, &iterations) || iterations < 1)
                return ak_cli_usage_error("ik", "bad --iterations '%s' (>= 1)", v);
        } else if (strcmp(a, "--tolerance") == 0) {
            if (ak_cli_parse_float(v, &tolerance) || tolerance < 0.0f)
                return ak_cli_usage_error("ik", "bad --tolerance '%s' (>= 0)", v);
        } else if (strcmp(a, "--weight") == 0) {
            if (ak_cli_parse_float(v, &weight) || weight < 0.0f || weight > 1.0f)
                return ak_cli_usage_error("ik", "bad --weight '%s' (0..1)", v);
        } else {
            return ak_cli_usage_error("ik", "unknown option '%s'", a);
        }
    }
    if (!path) return ak_cli_usage_error("ik", "no input file");
    if (!root_name || !tip_name) return ak_cli_usage_error("ik", "--root and --tip are required");
    if (!have_target) return ak_cli_usage_error("ik", "--target is required");
    if (!solver) return ak_cli_usage_error("ik", "--solver is required (limb|ccd|fabrik|jacobian|dls)");
    enum { LIMB, CCD, FABRIK, JACOBIAN, DLS } kind;
    if (strcmp(solver, "limb") == 0) kind = LIMB;
    else if (strcmp(solver, "ccd") == 0) kind = CCD;
    else if (strcmp(solver, "fabrik") == 0) kind = FABRIK;
    else if (strcmp(solver, "jacobian") == 0) kind = JACOBIAN;
    else if (strcmp(solver, "dls") == 0) kind = DLS;
    else return ak_cli_usage_error("ik", "unknown --solver '%s' (limb|ccd|fabrik|jacobian|dls)", solver);
    if (have_pole && kind != LIMB) return ak_cli_usage_error("ik", "--pole works with --solver limb only");

    ak_skeleton *s = NULL;
    ak_clip *clip = NULL;
    if (akcli_load_bvh(path, &s, &clip)) return 1;
    int rc = 1;
    ak_xform *local = NULL, *world = NULL;
    void *workspace = NULL;
    int32_t chain[AK_IK_MAX_CHAIN];
    const int32_t root = ak_skeleton_find(s, root_name), tip = ak_skeleton_find(s, tip_name);
    if (root < 0 || tip < 0) {
        fprintf(stderr, "animkit ik: %s: no joint named '%s'\n", path, root < 0 ? root_name : tip_name);
        goto done;
    }
    if (frame >= clip->frame_count) {
        rc = ak_cli_usage_error("ik", "frame %d is past the last frame %d", frame, (int)clip->frame_count - 1);
        goto done;
    }
    int32_t n = ak_ik_chain_from_joints(s, root, tip, chain, AK_IK_MAX_CHAIN);
    /* Joints sitting on their parent (CMU's LHipJoint) are left rigid. */
    if (n > 0) n = ak_ik_chain_skip_zero_bones(s, chain, n);
    if (n == AK_ERR_LIMIT) {
        fprintf(stderr, "animkit ik: the chain %s..%s is longer than %d joints\n", root_name, tip_name, AK_IK_MAX_CHAIN);
        goto done;
    }
    if (n < 2) {
        fprintf(stderr, "animkit ik: '%s' is not below '%s'\n", tip_name, root_name);
        goto done;
    }
    if (kind == LIMB && n != 3) {
        fprintf(stderr, "animkit ik: limb needs three joints from --root to --tip; %s..%s has %d\n",
                root_name, tip_name, (int)n);
        goto done;
    }
    local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    world = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    if (!local || !world) {
        fprintf(stderr, "animkit ik: out of memory\n");
        goto done;
    }
    ak_clip_frame(clip, s, frame, local);
    ak_fk(s, local, world);

    ak_ik_result r;
    ak_error err;
    int32_t st;
    if (kind == LIMB) {
        ak_limb_ik_params p = ak_limb_ik_defaults();
        p.skeleton = s;
        p.upper = chain[0];
        p.middle = chain[1];
        p.end = chain[2];
        p.target = target;
        p.use_pole = have_pole;
        p.pole = pole;
        p.tolerance = tolerance;
        p.weight = weight;
        st = ak_limb_ik_run(&p, local, world, &r, &err);
    } else if (kind == CCD || kind == FABRIK) {
        ak_chain_ik_params p = ak_chain_ik_defaults();
        p.skeleton = s;
        p.chain = chain;
        p.chain_length = n;
        p.target = target;
        p.max_iterations = iterations;
        p.tolerance = tolerance;
        p.weight = weight;
        st = kind == CCD ? ak_ccd_ik_run(&p, local, world, &r, &err) : ak_fabrik_ik_run(&p, local, world, &r, &err);
    } else {
        ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
        p.skeleton = s;
        p.method = kind == JACOBIAN ? AK_JACOBIAN_PSEUDO_INVERSE : AK_JACOBIAN_DLS;
        p.chain = chain;
        p.chain_length = n;
        p.target = target;
        p.max_iterations = iterations;
        p.tolerance = tolerance;
        p.weight = weight;
        p.workspace_bytes = ak_jacobian_ik_workspace_size(n - 1, 1);
        workspace = malloc(p.workspace_bytes);
        if (!workspace) {
            fprintf(stderr, "animkit ik: out of memory\n");
            goto done;
        }
        p.workspace = workspace;
        st = ak_jacobian_ik_run(&p, local, world, &r, &err);
    }
    if (st < 0) {
        fprintf(stderr, "animkit ik: %s: %s (%s)\n", path, err.message, ak_status_name(st));
        goto done;
    }
    printf("{\"solver\":\"%s\",\"reached\":%s,\"iterations\":%d,\"error\":%.9g}\n", solver,
           r.reached ? "true" : "false", (int)r.iterations, (double)r.error);
    if (positions) {
        printf("frame,joint,x,y,z\n");
        for (int32_t j = 0; j < s->joint_count; ++j) {
            printf("%d,", frame);
            print_name(s->names[j]);
            printf(",%.9g,%.9g,%.9g\n", (double)world[j].translation.x, (double)world[j].translation.y,
                   (double)world[j].translation.z);
        }
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "animkit ik: cannot write the output\n");
        goto done;
    }
    rc = 0;
done:
    free(workspace);
    free(local);
    free(world);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(s);
    return rc;
}
