/* animkit edit IN.bvh OUT.bvh|OUT.gltf [--trim A:B] [--fps N] [--mirror] [--reset-root]
 *                                       [--in-place] [--units U] [--append B.bvh] ...
 * Chains the library's motion-editing steps (edit.h) in the order given on the command line. */
#include "cli_bvh.h"
#include "animkit/edit.h"
#include "animkit/gltf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The edit steps: one row per flag (name, whether it takes a value, help). */
typedef enum { OP_TRIM, OP_FPS, OP_MIRROR, OP_RESET, OP_IN_PLACE, OP_UNITS, OP_APPEND } edit_op;
static const struct {
    const char *flag;
    int has_value;
    const char *value_name, *help;
} k_ops[] = {
    {"--trim", 1, "A:B", "keep frames A..B (both included; A or B may be left out)"},
    {"--fps", 1, "N", "resample to N frames per second (slerp between keys)"},
    {"--mirror", 0, "", "swap left and right through the sagittal plane (chosen from the rig)"},
    {"--reset-root", 0, "", "move the clip so frame 0 stands at x = z = 0 facing +Z"},
    {"--in-place", 0, "", "remove root motion: no horizontal travel, no heading change"},
    {"--units", 1, "U", "change units to m, cm, mm, in or cmu (input units detected)"},
    {"--append", 1, "B.bvh", "append a clip of the same skeleton, aligned and blended"},
};
#define OP_COUNT ((int)(sizeof k_ops / sizeof k_ops[0]))

typedef struct edit_options {
    float blend;               /* --blend seconds for --append */
    int mirror_axis;           /* --mirror-axis, -1 from the rig */
    const char *humanoid;      /* --humanoid overrides */
    const char *order_name;    /* --order for BVH output */
} edit_options;

static void usage(FILE *out)
{
    fprintf(out, "usage: animkit edit IN.bvh OUT.bvh|OUT.gltf|OUT.glb [STEP...] [options]\n\n"
                 "Applies the steps in the order given (each may repeat):\n");
    for (int i = 0; i < OP_COUNT; ++i) {
        char left[40];
        snprintf(left, sizeof left, "%s %s", k_ops[i].flag, k_ops[i].value_name);
        fprintf(out, "  %-18s %s\n", left, k_ops[i].help);
    }
    fprintf(out, "options:\n"
                 "  --blend S          crossfade seconds for --append (default 0.2)\n"
                 "  --mirror-axis X    mirror plane normal x, y or z instead of from the rig\n"
                 "  --humanoid MAP     humanoid overrides slot=Joint,... (mirror, facing)\n"
                 "  --order ORDER      rotation order of BVH output (default: the input's)\n"
                 "  -h, --help         this help\n"
                 "Example: animkit edit walk.bvh out.bvh --trim 1: --fps 30 --mirror --reset-root\n");
}

static int parse_units(const char *s, float *mpu)
{
    static const struct { const char *name; ak_units u; } k[] = {
        {"m", AK_UNITS_METRES}, {"cm", AK_UNITS_CENTIMETRES}, {"mm", AK_UNITS_MILLIMETRES},
        {"in", AK_UNITS_INCHES}, {"cmu", AK_UNITS_CMU}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i)
        if (strcmp(s, k[i].name) == 0) {
            *mpu = ak_units_metres_per_unit(k[i].u);
            return 0;
        }
    return -1;
}

/* "A:B", "A:", ":B" -> trim params; -1 on a malformed spec. */
static int parse_trim(const char *s, ak_edit_trim_params *p)
{
    const char *colon = strchr(s, ':');
    if (!colon) return -1;
    char a[32] = "", b[32] = "";
    if ((size_t)(colon - s) >= sizeof a || strlen(colon + 1) >= sizeof b) return -1;
    memcpy(a, s, (size_t)(colon - s));
    strcpy(b, colon + 1);
    int fa = 0, fb = -1;
    if (*a && (ak_cli_parse_int(a, &fa) || fa < 0)) return -1;
    if (*b && (ak_cli_parse_int(b, &fb) || fb < 0)) return -1;
    p->first = fa;
    p->last = fb;
    return 0;
}

/* Runs one step on (*s, *c), replacing them with the result. Prints what it did. */
static int run_op(edit_op op, const char *value, const edit_options *o, ak_skeleton **s, ak_clip **c)
{
    ak_error err;
    ak_clip *out = NULL;
    ak_skeleton *out_s = NULL;
    int32_t st = AK_OK;
    if (op == OP_TRIM) {
        ak_edit_trim_params p = ak_edit_trim_defaults();
        if (parse_trim(value, &p)) return ak_cli_usage_error("edit", "bad --trim '%s': use A:B", value);
        st = ak_edit_trim_run(&p, *c, &out, &err);
    } else if (op == OP_FPS) {
        ak_edit_resample_params p = ak_edit_resample_defaults();
        float fps = 0.0f;
        if (ak_cli_parse_float(value, &fps) || !(fps > 0.0f))
            return ak_cli_usage_error("edit", "--fps needs a positive number, not '%s'", value);
        p.frame_time = 1.0f / fps;
        st = ak_edit_resample_run(&p, *s, *c, &out, &err);
    } else if (op == OP_MIRROR) {
        ak_edit_mirror_params p = ak_edit_mirror_defaults();
        p.axis = o->mirror_axis;
        p.humanoid_overrides = o->humanoid;
        st = ak_edit_mirror_run(&p, *s, *c, &out, &err);
    } else if (op == OP_RESET) {
        ak_edit_root_reset_params p = ak_edit_root_reset_defaults();
        p.humanoid_overrides = o->humanoid;
        st = ak_edit_root_reset_run(&p, *s, *c, &out, &err);
    } else if (op == OP_IN_PLACE) {
        ak_root_motion_params p = ak_root_motion_defaults();
        st = ak_edit_in_place_run(&p, *s, *c, &out, &err);
    } else if (op == OP_UNITS) {
        ak_edit_units_params p = ak_edit_units_defaults();
        if (parse_units(value, &p.to_metres_per_unit))
            return ak_cli_usage_error("edit", "--units must be m, cm, mm, in or cmu, not '%s'", value);
        float factor = 0.0f;
        st = ak_edit_units_run(&p, *s, *c, &out_s, &out, &factor, &err);
        if (st == AK_OK) fprintf(stderr, "  units: lengths scaled by %.6g\n", (double)factor);
    } else {
        ak_skeleton *bs = NULL;
        ak_clip *bc = NULL;
        if (akcli_load_bvh(value, &bs, &bc)) return 1;
        ak_edit_concat_params p = ak_edit_concat_defaults();
        p.blend_time = o->blend;
        p.humanoid_overrides = o->humanoid;
        st = bs->joint_count == (*s)->joint_count
                 ? ak_edit_concat_run(&p, *s, *c, bc, &out, &err)
                 : ak_error_set(&err, AK_ERR_INVALID_ARG, 0, "%s has another skeleton", value);
        ak_skeleton_destroy(bs);
        ak_clip_destroy(bc);
    }
    if (st != AK_OK) {
        fprintf(stderr, "animkit edit: %s: %s\n", k_ops[op].flag, err.message);
        return 1;
    }
    if (out_s) {
        ak_skeleton_destroy(*s);
        *s = out_s;
    }
    ak_clip_destroy(*c);
    *c = out;
    fprintf(stderr, "  %s%s%s -> %d frames at %.6g fps\n", k_ops[op].flag, value ? " " : "", value ? value : "",
            (int)out->frame_count, 1.0 / (double)out->frame_time);
    return 0;
}

static int write_output(const char *path, const ak_skeleton *s, const ak_clip *c, const edit_options *o)
{
    ak_error err;
    int32_t st;
    if (ak_cli_ends_with(path, ".gltf") || ak_cli_ends_with(path, ".glb")) {
        ak_gltf_options g = ak_gltf_defaults();
        ak_units_detect(ak_clip_standing_height(c, s), &g.metres_per_unit);
        st = ak_gltf_write_file(path, s, c, &g, &err);
    } else {
        ak_rot_order order = akcli_main_order(s);
        if (o->order_name && ak_rot_order_parse(o->order_name, &order) != 0)
            return ak_cli_usage_error("edit", "unknown rotation order '%s'", o->order_name);
        st = ak_bvh_write_file(path, s, c, order, &err);
    }
    if (st != AK_OK) return ak_cli_file_error(path, &err);
    fprintf(stderr, "wrote %s: %d joints, %d frames\n", path, (int)s->joint_count, (int)c->frame_count);
    return 0;
}

/* Step flags are collected in order: ops[i] with values[i]. */
typedef struct edit_plan {
    int count;
    edit_op ops[64];
    const char *values[64];
} edit_plan;

/* Parses argv into files, steps and options; returns -1 to go on, else an exit code. */
static int parse_args(int argc, char **argv, const char **in, const char **out, edit_plan *plan,
                      edit_options *o)
{
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        int op = -1;
        for (int k = 0; k < OP_COUNT; ++k)
            if (strcmp(a, k_ops[k].flag) == 0) op = k;
        const int option = strcmp(a, "--blend") == 0 || strcmp(a, "--mirror-axis") == 0 ||
                           strcmp(a, "--humanoid") == 0 || strcmp(a, "--order") == 0;
        if ((op >= 0 && k_ops[op].has_value) || option) {
            if (i + 1 >= argc) return ak_cli_usage_error("edit", "%s needs a value", a);
        }
        if (op >= 0) {
            if (plan->count == 64) return ak_cli_usage_error("edit", "at most 64 steps");
            plan->ops[plan->count] = (edit_op)op;
            plan->values[plan->count++] = k_ops[op].has_value ? argv[++i] : NULL;
        } else if (strcmp(a, "--blend") == 0) {
            if (ak_cli_parse_float(argv[++i], &o->blend) || o->blend < 0.0f)
                return ak_cli_usage_error("edit", "--blend needs seconds >= 0, not '%s'", argv[i]);
        } else if (strcmp(a, "--mirror-axis") == 0) {
            const char *v = argv[++i];
            o->mirror_axis = (v[0] | 32) - 'x';
            if (v[1] != '\0' || o->mirror_axis < 0 || o->mirror_axis > 2)
                return ak_cli_usage_error("edit", "--mirror-axis must be x, y or z, not '%s'", v);
        } else if (strcmp(a, "--humanoid") == 0) {
            o->humanoid = argv[++i];
        } else if (strcmp(a, "--order") == 0) {
            o->order_name = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            return ak_cli_usage_error("edit", "unknown option '%s'", a);
        } else if (!*in) {
            *in = a;
        } else if (!*out) {
            *out = a;
        } else {
            return ak_cli_usage_error("edit", "too many files ('%s')", a);
        }
    }
    if (!*in || !*out) return ak_cli_usage_error("edit", "needs IN.bvh and OUT.bvh|.gltf|.glb");
    return -1;
}

int ak_cmd_edit(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    edit_plan plan;
    plan.count = 0;
    edit_options o = {0.2f, -1, NULL, NULL};
    int rc = parse_args(argc, argv, &in, &out, &plan, &o);
    if (rc >= 0) return rc;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    if (akcli_load_bvh(in, &s, &c)) return 1;
    fprintf(stderr, "read %s: %d joints, %d frames at %.6g fps\n", in, (int)s->joint_count,
            (int)c->frame_count, 1.0 / (double)c->frame_time);
    rc = 0;
    for (int i = 0; i < plan.count && rc == 0; ++i) rc = run_op(plan.ops[i], plan.values[i], &o, &s, &c);
    if (rc == 0) rc = write_output(out, s, c, &o);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    return rc;
}
