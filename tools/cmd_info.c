/* animkit info FILE.bvh [--json] [--humanoid slot=Joint,...]
 * What a BVH file holds: joints and End Sites with their channels, frames, frame time,
 * duration, heights, the detected units and the humanoid map. */
#include "cli_bvh.h"
#include "clip_any.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct info_options {
    int32_t json;
    char humanoid[AK_FLAG_TEXT_MAX];
    char root_joint[AK_FLAG_TEXT_MAX];
    int32_t up; /* ak_up_axis: --up */
} info_options;

static const ak_flag k_info_flags[] = {
    {.name = "json",
     .type = AK_FLAG_SWITCH,
     .offset = offsetof(info_options, json),
     .on = 1,
     .help = "one JSON object; \"joints\" lists every joint in file order as "
             "{\"name\",\"parent\",\"channels\"} (parent null for a root, [] for End Sites)"},
    {.name = "humanoid",
     .type = AK_FLAG_TEXT,
     .offset = offsetof(info_options, humanoid),
     .metavar = "OVERRIDES",
     .help = "name humanoid joints yourself, e.g. hips=pelvis,head=face"},
    {.name = "root-joint",
     .type = AK_FLAG_TEXT,
     .offset = offsetof(info_options, root_joint),
     .metavar = "NAME",
     .help = "the joint that carries the travel (default: measured, as every command does)"},
    AK_CLI_UP_FLAG(offsetof(info_options, up)),
};
static const ak_flag_table k_info_table = {"info", k_info_flags,
                                           (int32_t)(sizeof k_info_flags / sizeof k_info_flags[0])};

static void usage(FILE *out)
{
    ak_cli_print_help(
        out,
        "usage: animkit info FILE.bvh [--json] [--humanoid slot=Joint,...] [--root-joint NAME]\n"
        "\n"
        "Describes a BVH file: joints (End Sites included) with their channels, frames,\n"
        "frame time, duration, rest and standing height, the units guessed from the\n"
        "standing height, the humanoid joints found by name, and the joint that carries\n"
        "the travel (root motion) with why.\n"
        "\n",
        &k_info_table);
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

typedef struct info_facts {
    int32_t end_sites, channels_per_frame;
    int order_count[6], other_rotation_joints;
    akcli_heights h;
    ak_units units;
    float metres_per_unit;
    ak_humanoid hum;
    int32_t hum_status;
    ak_error hum_err;
    ak_root_joint_report root;
    char root_why[256];
} info_facts;

static void gather(const ak_skeleton *s, const ak_clip *c, const char *overrides, info_facts *f)
{
    memset(f, 0, sizeof *f);
    for (int32_t j = 0; j < s->joint_count; ++j) {
        if (s->is_end_site[j]) ++f->end_sites;
        f->channels_per_frame += s->channels[j].count;
        int o = akcli_joint_order(s, j);
        if (o >= 0)
            ++f->order_count[o];
        else if (!s->is_end_site[j])
            ++f->other_rotation_joints;
    }
    f->h = akcli_measure_heights(s, c);
    f->units = ak_units_detect(f->h.standing, &f->metres_per_unit);
    f->hum_status = ak_humanoid_find(s, overrides, &f->hum, &f->hum_err);
}

/* The joint that carries the travel (measured, or `name`), said as ak_root_joint_describe
 * says it; 2 with a message for a name no joint has. */
static int gather_root(const ak_skeleton *s, const ak_clip *c, const char *name, info_facts *f)
{
    ak_error err;
    if (ak_root_joint_find(s, c, name, &f->root, &err) != AK_OK) {
        fprintf(stderr, "animkit info: --root-joint: %s\n", err.message);
        return 2;
    }
    ak_root_joint_describe(s, &f->root, f->root_why, sizeof f->root_why);
    return 0;
}

static void print_text(const char *path, const ak_skeleton *s, const ak_clip *c,
                       const info_facts *f)
{
    const int32_t n = s->joint_count;
    printf("file        %s\n", path);
    printf("joints      %d + %d End Sites = %d\n", (int)(n - f->end_sites), (int)f->end_sites,
           (int)n);
    printf("channels    %d per frame; rotation orders:", (int)f->channels_per_frame);
    for (int o = 0; o < 6; ++o)
        if (f->order_count[o])
            printf(" %s x%d", ak_rot_order_name((ak_rot_order)o), f->order_count[o]);
    if (f->other_rotation_joints)
        printf(" (+%d joints with fewer rotation channels)", f->other_rotation_joints);
    printf("\n");
    printf("frames      %d\n", (int)c->frame_count);
    printf("frame_time  %.7g s (%.4g fps)\n", (double)c->frame_time, 1.0 / (double)c->frame_time);
    printf("duration    %.6g s\n", (double)ak_clip_duration(c));
    printf(
        "height      rest %.6g, frame 0 %.6g, standing (median over the clip) %.6g (file units)\n",
        (double)f->h.rest, (double)f->h.frame0, (double)f->h.standing);
    printf("units       %s (%.6g m per unit): standing height %.4g m\n", ak_units_name(f->units),
           (double)f->metres_per_unit, (double)(f->h.standing * f->metres_per_unit));
    int found = 0;
    for (int i = 0; i < AK_HUM_SLOT_COUNT; ++i)
        found += f->hum.joint[i] >= 0;
    printf("humanoid    %d of %d slots found%s\n", found, AK_HUM_SLOT_COUNT,
           f->hum_status == AK_OK ? "" : " (legs incomplete: foot IK and walking need them)");
    for (int i = 0; i < AK_HUM_SLOT_COUNT; ++i)
        if (f->hum.joint[i] >= 0)
            printf("  %-16s %s\n", ak_humanoid_slot_name(i), s->names[f->hum.joint[i]]);
    if (found < AK_HUM_SLOT_COUNT) {
        printf("  missing:");
        for (int i = 0; i < AK_HUM_SLOT_COUNT; ++i)
            if (f->hum.joint[i] < 0) printf(" %s", ak_humanoid_slot_name(i));
        printf("\n");
    }
    printf("root motion %s\n", f->root_why);
    printf("hierarchy\n");
    for (int32_t j = 0; j < n; ++j) {
        int depth = 0;
        for (int32_t p = s->parents[j]; p >= 0; p = s->parents[p])
            ++depth;
        printf("  %*s%s", 2 * depth, "", s->names[j]);
        if (s->is_end_site[j]) {
            printf("  (End Site)\n");
            continue;
        }
        printf("  [%d:", (int)s->channels[j].count);
        for (int i = 0; i < s->channels[j].count; ++i)
            printf(" %s", akcli_channel_name(s->channels[j].kind[i]));
        printf("]\n");
    }
}

static void print_json(const char *path, const ak_skeleton *s, const ak_clip *c,
                       const info_facts *f)
{
    const int32_t n = s->joint_count;
    printf("{\n  \"file\": ");
    json_string(stdout, path);
    printf(",\n  \"joint_count\": %d,\n  \"end_site_count\": %d,\n  \"channels_per_frame\": %d,\n",
           (int)n, (int)f->end_sites, (int)f->channels_per_frame);
    printf("  \"frames\": %d,\n  \"frame_time\": %.7g,\n  \"duration\": %.7g,\n",
           (int)c->frame_count, (double)c->frame_time, (double)ak_clip_duration(c));
    printf("  \"rest_height\": %.7g,\n  \"frame0_height\": %.7g,\n  \"standing_height\": %.7g,\n",
           (double)f->h.rest, (double)f->h.frame0, (double)f->h.standing);
    printf("  \"units\": {\"name\": \"%s\", \"metres_per_unit\": %.7g, \"standing_height_m\": "
           "%.6g},\n",
           ak_units_name(f->units), (double)f->metres_per_unit,
           (double)(f->h.standing * f->metres_per_unit));
    printf("  \"root_joint\": {\"name\": ");
    json_string(stdout, s->names[f->root.joint]);
    printf(", \"reason\": \"%s\", \"travel\": %.7g, \"top_travel\": %.7g, \"why\": ",
           f->root.reason == AK_ROOT_JOINT_NAMED         ? "named"
           : f->root.reason == AK_ROOT_JOINT_UNDER_STILL ? "under_still_top"
                                                         : "top",
           (double)f->root.travel, (double)f->root.top_travel);
    json_string(stdout, f->root_why);
    printf("},\n");
    printf("  \"humanoid\": {\"complete\": %s, \"joints\": {",
           f->hum_status == AK_OK ? "true" : "false");
    int first = 1;
    for (int i = 0; i < AK_HUM_SLOT_COUNT; ++i) {
        if (f->hum.joint[i] < 0) continue;
        printf("%s\"%s\": ", first ? "" : ", ", ak_humanoid_slot_name(i));
        json_string(stdout, s->names[f->hum.joint[i]]);
        first = 0;
    }
    printf("}, \"missing\": [");
    first = 1;
    for (int i = 0; i < AK_HUM_SLOT_COUNT; ++i) {
        if (f->hum.joint[i] >= 0) continue;
        printf("%s\"%s\"", first ? "" : ", ", ak_humanoid_slot_name(i));
        first = 0;
    }
    printf("]},\n  \"joints\": [\n");
    for (int32_t j = 0; j < n; ++j) {
        printf("    {\"name\": ");
        json_string(stdout, s->names[j]);
        printf(", \"parent\": ");
        if (s->parents[j] < 0)
            printf("null");
        else
            json_string(stdout, s->names[s->parents[j]]);
        printf(", \"end_site\": %s, \"channels\": [", s->is_end_site[j] ? "true" : "false");
        for (int i = 0; i < s->channels[j].count; ++i)
            printf("%s\"%s\"", i ? ", " : "", akcli_channel_name(s->channels[j].kind[i]));
        printf("]}%s\n", j + 1 < n ? "," : "");
    }
    printf("  ]\n}\n");
}

int ak_cmd_info(int argc, char **argv)
{
    info_options o;
    ak_flags_result r;
    int exit_code;
    if (!ak_cli_parse_flags(&k_info_table, &o, argc, argv, 1, usage, &r, &exit_code))
        return exit_code;
    ak_tools_set_up(o.up);
    if (r.positional_count == 0) return ak_cli_usage_error("info", "missing FILE.bvh");
    const char *path = r.positional[0];
    const char *overrides = o.humanoid[0] ? o.humanoid : NULL;
    const int json = o.json;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    if (akcli_load_bvh(path, &s, &c)) return 1;
    info_facts f;
    gather(s, c, overrides, &f);
    int rc = gather_root(s, c, o.root_joint, &f);
    if (rc) {
    } else if (overrides && f.hum_status != AK_OK && f.hum_status != AK_ERR_NOT_FOUND) {
        fprintf(stderr, "animkit info: --humanoid: %s\n", f.hum_err.message);
        rc = 2;
    } else if (json) {
        print_json(path, s, c, &f);
    } else {
        print_text(path, s, c, &f);
    }
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    return rc;
}
