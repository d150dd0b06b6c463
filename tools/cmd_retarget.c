/* animkit retarget SRC.bvh --to RIG.bvh|RIG.glb|RIG.gltf|biped --out OUT.bvh|OUT.glb|OUT.gltf
 *   [--map overrides.json] [--no-contacts] [--pin-hands] [--scale S] [--floor Y] [--fade S]
 *   [--reference-frame N] [--root-joint NAME] */
#include "cli_bvh.h"
#include "clip_any.h"
#include "animkit/gltf.h"
#include "animkit/retarget.h"
#include "animkit/scenario.h"
#include "io/file.h"
#include "io/json.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every flag of `animkit retarget` (the shared flag table: parsing, errors and --help). */
typedef struct rt_args {
    char to[AK_FLAG_TEXT_MAX], out[AK_FLAG_TEXT_MAX], map[AK_FLAG_TEXT_MAX];
    char root_joint[AK_FLAG_TEXT_MAX]; /* joint carrying the travel; "": measured */
    int32_t no_contacts, pin_hands, reference_frame;
    float scale, floor, fade;
    int32_t up; /* ak_up_axis: --up */
    const char *src;
} rt_args;

#define RT_TEXT(f) offsetof(rt_args, f), AK_FLAG_TEXT_MAX
static const ak_flag k_flags[] = {
    {.name = "to",
     .type = AK_FLAG_TEXT,
     .offset = RT_TEXT(to),
     .metavar = "RIG",
     .help = "target rig: RIG.bvh (hierarchy, rest pose), RIG.glb/.gltf (skin), or biped"},
    {.name = "out",
     .type = AK_FLAG_TEXT,
     .offset = RT_TEXT(out),
     .metavar = "OUT",
     .help = "output: OUT.bvh, OUT.glb or OUT.gltf (the motion on RIG, in RIG's units)"},
    {.name = "map",
     .type = AK_FLAG_TEXT,
     .offset = RT_TEXT(map),
     .metavar = "FILE.json",
     .help = "humanoid overrides {\"source\": {\"left_foot\": \"LFoot\"}, \"target\": {...}}"},
    {.name = "no-contacts",
     .type = AK_FLAG_SWITCH,
     .offset = offsetof(rt_args, no_contacts),
     .on = 1,
     .def = "0",
     .help = "rotations and hips only, no foot pinning"},
    {.name = "pin-hands",
     .type = AK_FLAG_SWITCH,
     .offset = offsetof(rt_args, pin_hands),
     .on = 1,
     .def = "0",
     .help = "pin hands that hold still, too"},
    {.name = "scale",
     .type = AK_FLAG_FLOAT,
     .offset = offsetof(rt_args, scale),
     .metavar = "S",
     .def = "1",
     .range = "(0,1000]",
     .help = "extra scale on top of the leg-length ratio"},
    {.name = "floor",
     .type = AK_FLAG_FLOAT,
     .offset = offsetof(rt_args, floor),
     .metavar = "Y",
     .range = "[-1000000000,1000000000]", /* ak_retarget_param_ranges' floor_height */
     .help = "put the target's soles at height Y (target units; default: the source's floor)"},
    {.name = "fade",
     .type = AK_FLAG_FLOAT,
     .offset = offsetof(rt_args, fade),
     .metavar = "S",
     .def = "0.1",
     .range = "[0,10]",
     .help = "seconds a pin fades in/out around a stance"},
    {.name = "reference-frame",
     .type = AK_FLAG_INT,
     .offset = offsetof(rt_args, reference_frame),
     .metavar = "N",
     .def = "-1",
     .range = "[-1,2147483647]",
     .help = "source frame whose pose is matched to the rig's rest pose (-1: the zero pose if "
             "it stands, else the most upright frame)"},
    {.name = "root-joint",
     .type = AK_FLAG_TEXT,
     .offset = RT_TEXT(root_joint),
     .metavar = "NAME",
     .help = "the source joint that carries the travel, read by the contact detector for the "
             "body's speed (default: measured, as animkit info says)"},
    AK_CLI_UP_FLAG(offsetof(rt_args, up)),
};
static const ak_flag_table k_table = {"retarget", k_flags,
                                      (int32_t)(sizeof k_flags / sizeof k_flags[0])};

static void usage(FILE *out)
{
    char help[4096];
    fprintf(out,
            "usage: animkit retarget SRC.bvh --to RIG --out OUT.bvh|OUT.glb|OUT.gltf [options]\n"
            "\n"
            "Plays the humanoid capture SRC on another humanoid rig: world bone directions are\n"
            "kept (whatever the rest poses: T-pose, A-pose, CMU's zero pose), the hips travel is\n"
            "scaled by the leg-length ratio, and stance feet stay planted (limb IK with fades).\n"
            "glTF output is in metres. Slots for --map are the ones `animkit info` lists.\n"
            "\n"
            "options:\n");
    ak_flags_help(&k_table, help, sizeof help);
    fputs(help, out);
    fprintf(out, "  %-24s this help\n", "-h, --help");
}

/* Flags -> rt_args. Returns 0, or the exit code of a usage error (2); -1 for --help. */
static int parse_args(int argc, char **argv, rt_args *a)
{
    const ak_flag_table *tables[1] = {&k_table};
    void *params[1] = {a};
    ak_flags_result parsed;
    ak_error err;
    memset(a, 0, sizeof *a);
    ak_flags_defaults(&k_table, a, NULL);
    if (ak_flags_parse_args(tables, params, 1, argc, (const char *const *)argv, 1, &parsed, &err) !=
        AK_OK)
        return ak_cli_usage_error("retarget", "%s", err.message);
    if (parsed.wants_help) return -1;
    ak_tools_set_up(a->up);
    if (!ak_flags_given(&parsed, &k_table, 0, "floor")) a->floor = NAN;
    a->src = parsed.positional_count > 0 ? parsed.positional[0] : NULL;
    if (!a->src) return ak_cli_usage_error("retarget", "needs SRC.bvh");
    if (!a->to[0])
        return ak_cli_usage_error("retarget", "needs --to RIG.bvh|RIG.glb|RIG.gltf|biped");
    if (!a->out[0]) return ak_cli_usage_error("retarget", "needs --out OUT.bvh|OUT.glb|OUT.gltf");
    if (!ak_cli_ends_with(a->out, ".bvh") && !ak_cli_ends_with(a->out, ".glb") &&
        !ak_cli_ends_with(a->out, ".gltf"))
        return ak_cli_usage_error("retarget", "OUT must end in .bvh, .glb or .gltf");
    return 0;
}

/* The target rig: a BVH hierarchy, a glTF skin or the built-in biped. */
static int load_rig(const char *to, ak_skeleton **rig)
{
    ak_error err;
    ak_clip *clip = NULL;
    if (!strcmp(to, "biped")) {
        ak_walk_clip_params wp = ak_walk_clip_defaults();
        if (ak_walk_clip_create(&wp, rig, &clip, &err) < 0) return ak_cli_file_error(to, &err);
        ak_clip_destroy(clip);
        return 0;
    }
    if (ak_cli_ends_with(to, ".glb") || ak_cli_ends_with(to, ".gltf")) {
        if (ak_gltf_read_skin_file(to, 0, rig, &err) < 0) return ak_cli_file_error(to, &err);
        return 0;
    }
    if (!strchr(to, '/') && !strchr(to, '\\') && !strchr(to, '.')) {
        FILE *f = akio_fopen(to, "rb");
        if (!f) {
            fprintf(stderr,
                    "animkit retarget: --to %s: no such file, and not a built-in rig "
                    "(built-in: biped); give RIG.bvh, RIG.glb or RIG.gltf\n",
                    to);
            return 2;
        }
        fclose(f);
    }
    if (akcli_load_bvh(to, rig, &clip)) return 1;
    ak_clip_destroy(clip);
    return 0;
}

static int write_output(const rt_args *a, const ak_skeleton *rig, const ak_clip *clip)
{
    ak_error err;
    if (ak_cli_ends_with(a->out, ".bvh")) {
        if (ak_bvh_write_file(a->out, rig, clip, akcli_main_order(rig), &err) < 0)
            return ak_cli_file_error(a->out, &err);
        return 0;
    }
    ak_gltf_params opt = ak_gltf_defaults();
    akcli_heights h = akcli_measure_heights(rig, clip);
    ak_units_detect(h.standing, &opt.metres_per_unit);
    if (ak_gltf_write_file(a->out, rig, clip, &opt, &err) < 0)
        return ak_cli_file_error(a->out, &err);
    return 0;
}

static void report(const rt_args *a, const ak_clip *clip, const ak_retarget_info *in,
                   const char *root_why)
{
    fprintf(stderr,
            "retargeted %s -> %s: %d frames; scale %.4g (leg ratio %.4g), heading offset %.1f deg\n"
            "  target joints: %d mapped, %d sharing a chain, %d at rest\n",
            a->src, a->out, (int)clip->frame_count, (double)in->scale, (double)in->leg_ratio,
            (double)(in->heading_offset * 57.29578f), (int)in->mapped_joints, (int)in->chain_joints,
            (int)in->rest_joints);
    if (!a->no_contacts)
        fprintf(stderr,
                "  contacts: %d stance runs pinned (stance frames L %d, R %d%s), worst pin error "
                "%.3g\n",
                (int)in->pinned_runs, (int)in->stance_frames[0], (int)in->stance_frames[1],
                a->pin_hands ? ", hands too" : "", (double)in->max_pin_error);
    fprintf(stderr, "  source root motion: %s\n", root_why);
    if (in->reference_frame >= 0)
        fprintf(stderr, "  reference pose: source frame %d (%s)\n", (int)in->reference_frame,
                a->reference_frame >= 0 ? "as given by --reference-frame"
                                        : "its zero pose does not stand");
    if (a->no_contacts) return;
    for (int s = 0; s < 2; ++s) {
        if (!isfinite(in->stance_foot_height[s])) continue;
        fprintf(stderr,
                "  %s foot over the source's stance: ankle up to %.3g above the floor (the "
                "source's, mapped: %.3g), target units\n",
                s ? "right" : "left", (double)in->stance_foot_height[s],
                (double)in->source_stance_foot_height[s]);
    }
}

/* One side of the --map file ("source" or "target": {"slot": "Joint", ...}) as the
 * "slot=Joint,..." text ak_humanoid_find takes. */
static int overrides_side(const akj_doc *doc, const char *side, char *out, size_t size,
                          const char *path)
{
    int32_t obj = akj_get(doc, 0, side);
    if (obj < 0) return 0;
    if (akj_type(doc, obj) != AKJ_OBJECT) {
        fprintf(stderr, "%s: \"%s\" must be an object of slot: joint name\n", path, side);
        return 1;
    }
    size_t used = 0;
    for (int32_t m = doc->v[obj].first; m >= 0; m = doc->v[m].next) {
        const char *joint = akj_string(doc, m);
        if (!joint) {
            fprintf(stderr, "%s:%d: %s.%s must be a joint name\n", path, (int)doc->v[m].line, side,
                    akj_key(doc, m));
            return 1;
        }
        int w =
            snprintf(out + used, size - used, "%s%s=%s", used ? "," : "", akj_key(doc, m), joint);
        if (w < 0 || (size_t)w >= size - used) {
            fprintf(stderr, "%s: too many overrides\n", path);
            return 1;
        }
        used += (size_t)w;
    }
    return 0;
}

/* Reads --map FILE.json into the two override strings; prints the error and returns 1. */
static int read_overrides(const char *path, char *source, char *target, size_t size)
{
    FILE *f = akio_fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    char text[65536];
    size_t n = fread(text, 1, sizeof text, f);
    int too_big = n == sizeof text;
    fclose(f);
    if (too_big) {
        fprintf(stderr, "%s: larger than 64 KiB\n", path);
        return 1;
    }
    akj_doc doc;
    ak_error err;
    if (akj_parse(text, n, &doc, &err) < 0) return ak_cli_file_error(path, &err);
    int rc = akj_type(&doc, 0) != AKJ_OBJECT;
    if (rc)
        fprintf(stderr, "%s: expected an object {\"source\": {...}, \"target\": {...}}\n", path);
    if (!rc)
        rc = overrides_side(&doc, "source", source, size, path) ||
             overrides_side(&doc, "target", target, size, path);
    akj_free(&doc);
    return rc;
}

/* The source's root-motion joint, measured or named (--root-joint), said in `why`: a named
 * joint's travel and heading move onto the top joint (ak_clip_root_motion_prepare, every
 * joint's model transform unchanged) and *named_joint is its index (-1: measured), for the
 * contact detector's body speed (ak_contact_params.root_joint): a named still top joint stays
 * as it is in the clip, and measured the detector read the hips below it. A name the source
 * has not: exit 2 with the library's message, as info, edit and walk say it. */
static int source_root(const rt_args *a, const ak_skeleton *src, ak_clip **clip,
                       int32_t *named_joint, char *why, size_t size)
{
    ak_root_joint_report r;
    ak_error err;
    const int32_t st = a->root_joint[0]
                           ? ak_clip_root_motion_prepare(src, clip, a->root_joint, &r, &err)
                           : ak_root_joint_find(src, *clip, NULL, &r, &err);
    if (st != AK_OK) {
        fprintf(stderr, "animkit retarget: %s: %s%s\n", a->src, err.message,
                ak_cli_root_joint_hint(&err, a->root_joint));
        return st == AK_ERR_NOT_FOUND && a->root_joint[0] ? 2 : 1;
    }
    ak_root_joint_describe(src, &r, why, size);
    *named_joint = a->root_joint[0] ? r.joint : -1;
    return 0;
}

int ak_cmd_retarget(int argc, char **argv)
{
    rt_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc < 0) {
        usage(stdout);
        return 0;
    }
    if (rc) return rc;
    char src_over[1024] = "", dst_over[1024] = "", root_why[256];
    if (a.map[0] && read_overrides(a.map, src_over, dst_over, sizeof src_over)) return 1;
    ak_skeleton *src = NULL, *rig = NULL;
    ak_clip *clip = NULL, *out = NULL;
    if (akcli_load_bvh(a.src, &src, &clip)) return 1;
    int32_t named_joint = -1;
    if ((rc = source_root(&a, src, &clip, &named_joint, root_why, sizeof root_why)) != 0 ||
        load_rig(a.to, &rig)) {
        ak_skeleton_destroy(src);
        ak_clip_destroy(clip);
        return rc ? rc : 1;
    }
    ak_retarget_params p = ak_retarget_defaults();
    p.source = src;
    p.source_clip = clip;
    p.target = rig;
    p.source_overrides = src_over;
    p.target_overrides = dst_over;
    p.contacts = !a.no_contacts;
    p.pin_hands = a.pin_hands;
    p.scale = a.scale;
    p.floor_height = a.floor;
    p.fade_time = a.fade;
    p.reference_frame = a.reference_frame;
    p.contact.root_joint = named_joint;
    ak_retarget_info info;
    ak_error err;
    if (ak_retarget_run(&p, &out, &info, &err) < 0) {
        fprintf(stderr, "animkit retarget: %s\n", err.message);
        rc = 1;
    } else if (!(rc = write_output(&a, rig, out))) {
        report(&a, out, &info, root_why);
    }
    ak_clip_destroy(out);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(rig);
    ak_skeleton_destroy(src);
    return rc;
}
