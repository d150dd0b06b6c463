/* animkit convert IN.bvh OUT.bvh [--order ZXY|...]   BVH -> BVH in one rotation order
 * animkit convert IN.bvh OUT.gltf|OUT.glb [--scale M]  BVH -> glTF 2.0 */
#include "cli_bvh.h"
#include "clip_any.h"
#include "animkit/gltf.h"
#include "io/file.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct convert_options {
    char order[8];
    float scale;
    int32_t cubic, no_mesh, in_place;
    int32_t up; /* ak_up_axis: --up */
} convert_options;

#define CONVERT_FIELD(f) offsetof(convert_options, f)
static const ak_flag k_convert_flags[] = {
    {.name = "order",
     .type = AK_FLAG_TEXT,
     .offset = CONVERT_FIELD(order),
     .size = 8,
     .metavar = "ORDER",
     .help = "BVH: rotation order XYZ, XZY, YXZ, YZX, ZXY or ZYX"},
    {.name = "scale",
     .type = AK_FLAG_FLOAT,
     .offset = CONVERT_FIELD(scale),
     .metavar = "M",
     .def = "0",
     .range = "(0,1000000]",
     .help = "glTF: metres per file unit (default: detected)"},
    {.name = "cubic",
     .type = AK_FLAG_SWITCH,
     .offset = CONVERT_FIELD(cubic),
     .on = 1,
     .help = "glTF: CUBICSPLINE samplers instead of LINEAR"},
    {.name = "no-mesh",
     .type = AK_FLAG_SWITCH,
     .offset = CONVERT_FIELD(no_mesh),
     .on = 1,
     .help = "glTF: skeleton and animation only, no capsule mesh"},
    {.name = "in-place",
     .type = AK_FLAG_SWITCH,
     .offset = CONVERT_FIELD(in_place),
     .on = 1,
     .help = "allow OUT to be IN itself (replaced once the new file is complete)"},
    AK_CLI_UP_FLAG(offsetof(convert_options, up)),
};
static const ak_flag_table k_convert_table = {
    "convert", k_convert_flags, (int32_t)(sizeof k_convert_flags / sizeof k_convert_flags[0])};

static void usage(FILE *out)
{
    ak_cli_print_help(
        out,
        "usage: animkit convert IN.bvh OUT.bvh [--order XYZ|XZY|YXZ|YZX|ZXY|ZYX]\n"
        "       animkit convert IN.bvh OUT.gltf|OUT.glb [--scale METRES_PER_UNIT] [--cubic] "
        "[--no-mesh]\n"
        "\n"
        "BVH output: every joint's rotation channels in one order (default: the order most\n"
        "joints of IN use); joints with position channels keep 6 channels; End Sites stay\n"
        "End Sites; Euler angles are kept continuous from frame to frame.\n"
        "glTF output: skeleton and animation; translations scaled to metres by the units\n"
        "detected from the standing height unless --scale is given (1 keeps file units).\n"
        "\n",
        &k_convert_table);
}

/* The rules between the flags and the output kind. Returns 0 or the usage error's code. */
static int check_convert(const char *in, const char *out, const convert_options *o,
                         ak_rot_order *order)
{
    /* Every output is replaced atomically, so even OUT == IN never loses IN; still, writing
     * over the input is almost always a slip of the keyboard, so it takes --in-place. */
    if (!o->in_place && (strcmp(in, out) == 0 || akio_same_file(in, out)))
        return ak_cli_usage_error("convert",
                                  "OUT '%s' is the input file; add --in-place to replace it", out);
    const int to_bvh = ak_cli_ends_with(out, ".bvh");
    const int to_gltf = ak_cli_ends_with(out, ".gltf") || ak_cli_ends_with(out, ".glb");
    if (!to_bvh && !to_gltf)
        return ak_cli_usage_error("convert", "OUT must end in .bvh, .gltf or .glb");
    if (o->order[0]) {
        if (!to_bvh) return ak_cli_usage_error("convert", "--order applies to BVH output");
        if (ak_rot_order_parse(o->order, order) != 0)
            return ak_cli_usage_error(
                "convert", "unknown rotation order '%s' (XYZ, XZY, YXZ, YZX, ZXY or ZYX)",
                o->order);
    }
    if ((o->cubic || o->no_mesh) && !to_gltf)
        return ak_cli_usage_error("convert", "%s applies to glTF output",
                                  o->cubic ? "--cubic" : "--no-mesh");
    if (o->scale > 0.0f && !to_gltf)
        return ak_cli_usage_error("convert", "--scale applies to glTF output");
    return 0;
}

int ak_cmd_convert(int argc, char **argv)
{
    convert_options o;
    ak_flags_result r;
    int exit_code;
    if (!ak_cli_parse_flags(&k_convert_table, &o, argc, argv, 2, usage, &r, &exit_code))
        return exit_code;
    ak_tools_set_up(o.up);
    if (r.positional_count < 2)
        return ak_cli_usage_error("convert", "needs IN.bvh and OUT.bvh|.gltf|.glb");
    const char *in = r.positional[0], *out = r.positional[1];
    ak_rot_order order = AK_ORDER_ZYX;
    const int usage_rc = check_convert(in, out, &o, &order);
    if (usage_rc) return usage_rc;
    const int to_bvh = ak_cli_ends_with(out, ".bvh");
    const char *order_name = o.order[0] ? o.order : NULL;
    const int cubic = o.cubic, no_mesh = o.no_mesh;
    const float scale = o.scale;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    if (akcli_load_bvh(in, &s, &c)) return 1;
    ak_error err;
    int rc = 0;
    if (to_bvh) {
        if (!order_name) order = akcli_main_order(s);
        if (ak_bvh_write_file(out, s, c, order, &err) != AK_OK)
            rc = ak_cli_file_error(out, &err);
        else
            fprintf(stderr, "wrote %s: %d joints, %d frames, rotation order %s\n", out,
                    (int)s->joint_count, (int)c->frame_count, ak_rot_order_name(order));
    } else {
        ak_gltf_params opt = ak_gltf_defaults();
        opt.cubic = cubic;
        opt.with_mesh = !no_mesh;
        if (scale > 0.0f) {
            opt.metres_per_unit = scale;
        } else {
            akcli_heights h = akcli_measure_heights(s, c);
            ak_units u = ak_units_detect(h.standing, &opt.metres_per_unit);
            fprintf(stderr,
                    "units: %s (%.6g m per unit, from a standing height of %.4g file units)\n",
                    ak_units_name(u), (double)opt.metres_per_unit, (double)h.standing);
        }
        if (ak_gltf_write_file(out, s, c, &opt, &err) != AK_OK)
            rc = ak_cli_file_error(out, &err);
        else
            fprintf(stderr, "wrote %s: %d joints, %d frames\n", out, (int)s->joint_count,
                    (int)c->frame_count);
    }
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    return rc;
}
