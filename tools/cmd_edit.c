/* animkit edit IN.bvh OUT.bvh|OUT.gltf [--trim A:B] [--fps N] [--mirror] [--reset-root]
 *                                       [--in-place] [--units U] [--append B.bvh] ...
 * Chains the library's motion-editing steps (edit.h) in the order given on the command line. */
#include "cli_bvh.h"
#include "clip_any.h"
#include "animkit/edit.h"
#include "animkit/gltf.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The edit steps, in the flag-table form of animkit/scenario.h: each step flag parses into an
 * edit_step of its own (so steps keep their command-line order and may repeat); the options
 * that tune steps parse once into edit_options. Help, ranges and messages come from here. */
typedef enum { OP_TRIM, OP_FPS, OP_MIRROR, OP_RESET, OP_IN_PLACE, OP_UNITS, OP_APPEND } edit_op;

typedef struct edit_step {
    char trim[32];
    float fps;
    int32_t on; /* the switches */
    int32_t units;
    char append[AK_FLAG_TEXT_MAX];
} edit_step;

#define STEP_FIELD(f) offsetof(edit_step, f)
static const ak_flag k_step_flags[] = {
    /* in edit_op order */
    {.name = "trim",
     .type = AK_FLAG_TEXT,
     .offset = STEP_FIELD(trim),
     .size = 32,
     .metavar = "A:B",
     .help = "keep frames A..B (both included; A or B may be left out)"},
    {.name = "fps",
     .type = AK_FLAG_FLOAT,
     .offset = STEP_FIELD(fps),
     .metavar = "N",
     .range = "(0,100000]",
     .help = "resample to N frames per second (slerp between keys)"},
    {.name = "mirror",
     .type = AK_FLAG_SWITCH,
     .offset = STEP_FIELD(on),
     .on = 1,
     .help = "swap left and right through the sagittal plane (chosen from the rig)"},
    {.name = "reset-root",
     .type = AK_FLAG_SWITCH,
     .offset = STEP_FIELD(on),
     .on = 1,
     .help = "move the clip so frame 0 stands at x = z = 0 facing +Z"},
    {.name = "in-place",
     .type = AK_FLAG_SWITCH,
     .offset = STEP_FIELD(on),
     .on = 1,
     .help = "remove root motion: no horizontal travel, no heading change"},
    {.name = "units",
     .type = AK_FLAG_CHOICE,
     .offset = STEP_FIELD(units),
     .choices = "m|cm|mm|in|cmu",
     .help = "change units (the input's are detected from its height)"},
    {.name = "append",
     .type = AK_FLAG_TEXT,
     .offset = STEP_FIELD(append),
     .metavar = "B.bvh",
     .help = "append a clip of the same skeleton, aligned and crossfaded (--blend)"},
};
static const ak_flag_table k_step_table = {"edit", k_step_flags,
                                           (int32_t)(sizeof k_step_flags / sizeof k_step_flags[0])};

typedef struct edit_options {
    float blend;                       /* --blend seconds for --append */
    int32_t mirror_axis;               /* 0: from the rig, 1..3: x, y, z */
    char humanoid[AK_FLAG_TEXT_MAX];   /* humanoid overrides */
    int32_t order;                     /* 0: the input's main order, else ak_rot_order + 1 */
    char root_joint[AK_FLAG_TEXT_MAX]; /* joint carrying the travel; "": measured */
    int32_t up;                        /* ak_up_axis: --up (IN and --append files) */
} edit_options;

#define OPT_FIELD(f) offsetof(edit_options, f)
static const ak_flag k_option_flags[] = {
    {.name = "blend",
     .type = AK_FLAG_FLOAT,
     .offset = OPT_FIELD(blend),
     .metavar = "S",
     .def = "0.2",
     .range = "[0,1000]",
     .help = "crossfade seconds for --append"},
    {.name = "mirror-axis",
     .type = AK_FLAG_CHOICE,
     .offset = OPT_FIELD(mirror_axis),
     .def = "rig",
     .choices = "rig|x|y|z",
     .help = "normal of the mirror plane"},
    {.name = "humanoid",
     .type = AK_FLAG_TEXT,
     .offset = OPT_FIELD(humanoid),
     .metavar = "MAP",
     .help = "humanoid overrides slot=Joint,... (mirror, facing)"},
    {.name = "order",
     .type = AK_FLAG_CHOICE,
     .offset = OPT_FIELD(order),
     .def = "input",
     .choices = "input|XYZ|XZY|YXZ|YZX|ZXY|ZYX",
     .help = "rotation order of BVH output"},
    {.name = "root-joint",
     .type = AK_FLAG_TEXT,
     .offset = OPT_FIELD(root_joint),
     .metavar = "NAME",
     .help = "joint that carries the travel for --reset-root/--in-place (default: measured, "
             "as animkit info says)"},
    AK_CLI_UP_FLAG(OPT_FIELD(up)),
};
static const ak_flag_table k_option_table = {
    "edit", k_option_flags, (int32_t)(sizeof k_option_flags / sizeof k_option_flags[0])};

static void usage(FILE *out)
{
    char help[4096];
    fprintf(out, "usage: animkit edit IN.bvh OUT.bvh|OUT.gltf|OUT.glb [STEP...] [options]\n\n"
                 "Applies the steps in the order given (each may repeat):\n");
    ak_flags_help(&k_step_table, help, sizeof help);
    fputs(help, out);
    fprintf(out, "options:\n");
    ak_flags_help(&k_option_table, help, sizeof help);
    fputs(help, out);
    fprintf(out,
            "  %-24s this help\n"
            "Example: animkit edit walk.bvh out.bvh --trim 1: --fps 30 --mirror --reset-root\n",
            "-h, --help");
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

/* --append: read B and join it on. */
static int32_t append_clip(const edit_step *v, const edit_options *o, const ak_skeleton *s,
                           const ak_clip *c, ak_clip **out, ak_error *err)
{
    ak_skeleton *bs = NULL;
    ak_clip *bc = NULL;
    int32_t st = ak_tools_read_clip_warn(v->append, &bs, &bc, err);
    if (st != AK_OK) {
        char reason[sizeof err->message];
        snprintf(reason, sizeof reason, "%s", err->message);
        if (err->line > 0)
            return ak_error_set(err, st, 0, "%s:%d: %s", v->append, (int)err->line, reason);
        return ak_error_set(err, st, 0, "%s: %s", v->append, reason);
    }
    ak_edit_concat_params p = ak_edit_concat_defaults();
    p.blend_time = o->blend;
    p.humanoid_overrides = o->humanoid[0] ? o->humanoid : NULL;
    p.skeleton_b = bs; /* names and parents must be s's (ak_skeleton_same_rig) */
    st = ak_edit_concat_run(&p, s, c, bc, out, err);
    if (st != AK_OK) {
        char reason[sizeof err->message];
        snprintf(reason, sizeof reason, "%s", err->message);
        ak_error_set(err, st, 0, "%s: %s", v->append, reason);
    }
    ak_skeleton_destroy(bs);
    ak_clip_destroy(bc);
    return st;
}

/* Runs one step on (*s, *c), replacing them with the result. Prints what it did. */
static int run_op(edit_op op, const edit_step *v, const edit_options *o, ak_skeleton **s,
                  ak_clip **c)
{
    static const ak_units k_units[] = {AK_UNITS_METRES, AK_UNITS_CENTIMETRES, AK_UNITS_MILLIMETRES,
                                       AK_UNITS_INCHES, AK_UNITS_CMU};
    const char *humanoid = o->humanoid[0] ? o->humanoid : NULL;
    ak_error err;
    ak_clip *out = NULL;
    ak_skeleton *out_s = NULL;
    int32_t st = AK_OK;
    if (op == OP_TRIM) {
        ak_edit_trim_params p = ak_edit_trim_defaults();
        if (parse_trim(v->trim, &p))
            return ak_cli_usage_error("edit", "bad --trim '%s': use A:B", v->trim);
        st = ak_edit_trim_run(&p, *c, &out, &err);
    } else if (op == OP_FPS) {
        ak_edit_resample_params p = ak_edit_resample_defaults();
        p.frame_time = 1.0f / v->fps;
        st = ak_edit_resample_run(&p, *s, *c, &out, &err);
    } else if (op == OP_MIRROR) {
        ak_edit_mirror_params p = ak_edit_mirror_defaults();
        p.axis = o->mirror_axis - 1;
        p.humanoid_overrides = humanoid;
        st = ak_edit_mirror_run(&p, *s, *c, &out, &err);
    } else if ((op == OP_RESET || op == OP_IN_PLACE) &&
               (st = ak_clip_root_motion_prepare(*s, c, o->root_joint[0] ? o->root_joint : NULL,
                                                 NULL, &err)) != AK_OK) {
        /* the travel of a hips under a still top joint moves onto the top joint first */
    } else if (op == OP_RESET) {
        ak_edit_root_reset_params p = ak_edit_root_reset_defaults();
        p.humanoid_overrides = humanoid;
        st = ak_edit_root_reset_run(&p, *s, *c, &out, &err);
    } else if (op == OP_IN_PLACE) {
        ak_root_motion_params p = ak_root_motion_defaults();
        st = ak_edit_in_place_run(&p, *s, *c, &out, &err);
    } else if (op == OP_UNITS) {
        ak_edit_units_params p = ak_edit_units_defaults();
        p.to_metres_per_unit = ak_units_metres_per_unit(k_units[v->units]);
        float factor = 0.0f;
        st = ak_edit_units_run(&p, *s, *c, &out_s, &out, &factor, &err);
        if (st == AK_OK) fprintf(stderr, "  units: lengths scaled by %.6g\n", (double)factor);
    } else {
        st = append_clip(v, o, *s, *c, &out, &err);
    }
    if (st != AK_OK) {
        const char *hint = ak_cli_root_joint_hint(&err, o->root_joint);
        fprintf(stderr, "animkit edit: --%s: %s%s\n", k_step_flags[op].name, err.message, hint);
        return hint[0] ? 2 : 1; /* a --root-joint the file has not: a bad value, as info says */
    }
    if (out_s) {
        ak_skeleton_destroy(*s);
        *s = out_s;
    }
    ak_clip_destroy(*c);
    *c = out;
    fprintf(stderr, "  --%s -> %d frames at %.6g fps\n", k_step_flags[op].name,
            (int)out->frame_count, 1.0 / (double)out->frame_time);
    return 0;
}

static int write_output(const char *path, const ak_skeleton *s, const ak_clip *c,
                        const edit_options *o)
{
    ak_error err;
    int32_t st;
    if (ak_cli_ends_with(path, ".gltf") || ak_cli_ends_with(path, ".glb")) {
        ak_gltf_params g = ak_gltf_defaults();
        ak_units_detect(ak_clip_standing_height(c, s), &g.metres_per_unit);
        st = ak_gltf_write_file(path, s, c, &g, &err);
    } else {
        const ak_rot_order order =
            o->order > 0 ? (ak_rot_order)(o->order - 1) : akcli_main_order(s);
        st = ak_bvh_write_file(path, s, c, order, &err);
    }
    if (st != AK_OK) return ak_cli_file_error(path, &err);
    fprintf(stderr, "wrote %s: %d joints, %d frames\n", path, (int)s->joint_count,
            (int)c->frame_count);
    return 0;
}

#define EDIT_MAX_STEPS 64

/* The steps in command-line order, each with its own parsed values. */
typedef struct edit_plan {
    int count;
    edit_op ops[EDIT_MAX_STEPS];
    edit_step values[EDIT_MAX_STEPS];
} edit_plan;

/* The step flag a word names ("--fps", "--fps=30"), or -1. */
static int step_flag(const char *word)
{
    if (strncmp(word, "--", 2) != 0) return -1;
    char name[32];
    const size_t n = strcspn(word + 2, "=");
    if (n == 0 || n >= sizeof name) return -1;
    memcpy(name, word + 2, n);
    name[n] = '\0';
    return ak_flags_find(&k_step_table, name);
}

/* Parses argv: step flags one by one into the plan (order kept), everything else through the
 * options table. Returns -1 to go on, else an exit code (0 after --help, 2 on a usage error). */
static int parse_args(int argc, char **argv, const char **in, const char **out, edit_plan *plan,
                      edit_options *o)
{
    const char **rest = (const char **)calloc((size_t)argc + 1, sizeof(char *));
    if (!rest) return 1;
    int nrest = 0, rc = -1;
    ak_error err;
    rest[nrest++] = argv[0];
    for (int i = 1; i < argc && rc < 0; ++i) {
        const int op = step_flag(argv[i]);
        if (op < 0) {
            rest[nrest++] = argv[i];
            continue;
        }
        if (plan->count == EDIT_MAX_STEPS) { /* checked before the step is written */
            rc = ak_cli_usage_error("edit", "at most %d steps", EDIT_MAX_STEPS);
            break;
        }
        const int takes_value = k_step_flags[op].type != AK_FLAG_SWITCH && !strchr(argv[i], '=');
        const char *words[3] = {argv[0], argv[i], takes_value && i + 1 < argc ? argv[i + 1] : NULL};
        const ak_flag_table *table = &k_step_table;
        void *params = memset(&plan->values[plan->count], 0, sizeof(edit_step));
        ak_flags_result r;
        if (rc < 0 &&
            ak_flags_parse_args(&table, &params, 1, words[2] ? 3 : 2, words, 0, &r, &err) != AK_OK)
            rc = ak_cli_usage_error("edit", "%s", err.message);
        plan->ops[plan->count++] = (edit_op)op;
        i += takes_value;
    }
    ak_flags_result r;
    const ak_flag_table *table = &k_option_table;
    void *params = o;
    if (rc < 0 && ak_flags_parse_args(&table, &params, 1, nrest, rest, 2, &r, &err) != AK_OK)
        rc = ak_cli_usage_error("edit", "%s", err.message);
    free(rest);
    if (rc >= 0) return rc;
    if (r.wants_help) {
        usage(stdout);
        return 0;
    }
    if (r.positional_count != 2)
        return ak_cli_usage_error("edit", "needs IN.bvh and OUT.bvh|.gltf|.glb");
    *in = r.positional[0];
    *out = r.positional[1];
    return -1;
}

int ak_cmd_edit(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    edit_plan *plan = (edit_plan *)calloc(1, sizeof *plan);
    edit_options o;
    if (!plan || ak_flags_defaults(&k_option_table, &o, NULL) != AK_OK) {
        free(plan);
        return 1;
    }
    int rc = parse_args(argc, argv, &in, &out, plan, &o);
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_tools_set_up(o.up);
    if (rc < 0) rc = akcli_load_bvh(in, &s, &c);
    if (rc == 0 && s) {
        fprintf(stderr, "read %s: %d joints, %d frames at %.6g fps\n", in, (int)s->joint_count,
                (int)c->frame_count, 1.0 / (double)c->frame_time);
        for (int i = 0; i < plan->count && rc == 0; ++i)
            rc = run_op(plan->ops[i], &plan->values[i], &o, &s, &c);
        if (rc == 0) rc = write_output(out, s, c, &o);
    }
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    free(plan);
    return rc;
}
