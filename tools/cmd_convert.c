/* animkit convert IN.bvh OUT.bvh [--order ZXY|...]   BVH -> BVH in one rotation order
 * animkit convert IN.bvh OUT.gltf|OUT.glb [--scale M]  BVH -> glTF 2.0 */
#include "cli_bvh.h"
#include "animkit/gltf.h"
#include "io/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: animkit convert IN.bvh OUT.bvh [--order XYZ|XZY|YXZ|YZX|ZXY|ZYX]\n"
            "       animkit convert IN.bvh OUT.gltf|OUT.glb [--scale METRES_PER_UNIT] [--cubic] [--no-mesh]\n"
            "\n"
            "BVH output: every joint's rotation channels in one order (default: the order most\n"
            "joints of IN use); joints with position channels keep 6 channels; End Sites stay\n"
            "End Sites; Euler angles are kept continuous from frame to frame.\n"
            "glTF output: skeleton and animation; translations scaled to metres by the units\n"
            "detected from the standing height unless --scale is given (1 keeps file units).\n"
            "\n"
            "  --order ORDER   rotation order for BVH output\n"
            "  --scale M       metres per file unit for glTF output\n"
            "  --cubic         glTF: CUBICSPLINE samplers instead of LINEAR\n"
            "  --no-mesh       glTF: skeleton and animation only, no capsule mesh\n"
            "  --in-place      allow OUT to be IN itself (replaced only once the new file is\n"
            "                  complete; refused otherwise)\n"
            "  -h, --help      this help\n");
}

int ak_cmd_convert(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *order_name = NULL, *scale_text = NULL;
    int cubic = 0, no_mesh = 0, in_place = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--order") == 0 || strcmp(a, "--scale") == 0) {
            if (i + 1 >= argc) return ak_cli_usage_error("convert", "%s needs a value", a);
            if (a[2] == 'o') order_name = argv[++i];
            else scale_text = argv[++i];
        } else if (strcmp(a, "--cubic") == 0) {
            cubic = 1;
        } else if (strcmp(a, "--no-mesh") == 0) {
            no_mesh = 1;
        } else if (strcmp(a, "--in-place") == 0) {
            in_place = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return ak_cli_usage_error("convert", "unknown option '%s'", a);
        } else if (!in) {
            in = a;
        } else if (!out) {
            out = a;
        } else {
            return ak_cli_usage_error("convert", "too many files ('%s')", a);
        }
    }
    if (!in || !out) return ak_cli_usage_error("convert", "needs IN.bvh and OUT.bvh|.gltf|.glb");
    /* Every output is replaced atomically, so even OUT == IN never loses IN; still, writing
     * over the input is almost always a slip of the keyboard, so it takes --in-place. */
    if (!in_place && (strcmp(in, out) == 0 || akio_same_file(in, out)))
        return ak_cli_usage_error("convert", "OUT '%s' is the input file; add --in-place to replace it", out);
    const int to_bvh = ak_cli_ends_with(out, ".bvh");
    const int to_gltf = ak_cli_ends_with(out, ".gltf") || ak_cli_ends_with(out, ".glb");
    if (!to_bvh && !to_gltf) return ak_cli_usage_error("convert", "OUT must end in .bvh, .gltf or .glb");
    ak_rot_order order = AK_ORDER_ZYX;
    if (order_name) {
        if (!to_bvh) return ak_cli_usage_error("convert", "--order applies to BVH output");
        if (ak_rot_order_parse(order_name, &order) != 0)
            return ak_cli_usage_error("convert", "unknown rotation order '%s' (XYZ, XZY, YXZ, YZX, ZXY or ZYX)",
                                      order_name);
    }
    if ((cubic || no_mesh) && !to_gltf)
        return ak_cli_usage_error("convert", "%s applies to glTF output", cubic ? "--cubic" : "--no-mesh");
    float scale = 0.0f;
    if (scale_text) {
        if (!to_gltf) return ak_cli_usage_error("convert", "--scale applies to glTF output");
        if (ak_cli_parse_float(scale_text, &scale) || !(scale > 0.0f))
            return ak_cli_usage_error("convert", "--scale needs a positive number, not '%s'", scale_text);
    }

    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    if (akcli_load_bvh(in, &s, &c)) return 1;
    ak_error err;
    int rc = 0;
    if (to_bvh) {
        if (!order_name) order = akcli_main_order(s);
        if (ak_bvh_write_file(out, s, c, order, &err) != AK_OK) rc = ak_cli_file_error(out, &err);
        else
            fprintf(stderr, "wrote %s: %d joints, %d frames, rotation order %s\n", out, (int)s->joint_count,
                    (int)c->frame_count, ak_rot_order_name(order));
    } else {
        ak_gltf_options opt = ak_gltf_defaults();
        opt.cubic = cubic;
        opt.with_mesh = !no_mesh;
        if (scale > 0.0f) {
            opt.metres_per_unit = scale;
        } else {
            akcli_heights h = akcli_measure_heights(s, c);
            ak_units u = ak_units_detect(h.standing, &opt.metres_per_unit);
            fprintf(stderr, "units: %s (%.6g m per unit, from a standing height of %.4g file units)\n",
                    ak_units_name(u), (double)opt.metres_per_unit, (double)h.standing);
        }
        if (ak_gltf_write_file(out, s, c, &opt, &err) != AK_OK) rc = ak_cli_file_error(out, &err);
        else
            fprintf(stderr, "wrote %s: %d joints, %d frames\n", out, (int)s->joint_count, (int)c->frame_count);
    }
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    return rc;
}
