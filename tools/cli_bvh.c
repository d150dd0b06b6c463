/* Helpers shared by the BVH commands of the CLI. */
#include "cli_bvh.h"

#include "clip_any.h"

#include <stdio.h>
#include <stdlib.h>

int akcli_load_bvh(const char *path, ak_skeleton **skeleton, ak_clip **clip)
{
    ak_error err;
    if (ak_tools_read_clip(path, skeleton, clip, &err) != AK_OK)
        return ak_cli_file_error(path, &err);
    ak_cli_file_warning(path, &err);
    return 0;
}

akcli_heights akcli_measure_heights(const ak_skeleton *s, const ak_clip *c)
{
    akcli_heights h;
    h.rest = ak_skeleton_rest_height(s);
    h.frame0 = 0.0f;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    ak_xform *world = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    if (local && world) {
        ak_clip_frame(c, s, 0, local);
        ak_fk(s, local, world);
        h.frame0 = ak_pose_body_height(s, world, ak_clip_body_root(s, c));
    }
    free(local);
    free(world);
    h.standing = ak_clip_standing_height(c, s);
    if (!(h.standing > 0.0f)) h.standing = h.frame0 > h.rest ? h.frame0 : h.rest;
    return h;
}

const char *akcli_channel_name(int kind)
{
    static const char *const names[6] = {"Xposition", "Yposition", "Zposition",
                                         "Xrotation", "Yrotation", "Zrotation"};
    return kind >= 0 && kind < 6 ? names[kind] : "?";
}

int akcli_joint_order(const ak_skeleton *s, int32_t j)
{
    char name[4];
    int n = 0;
    const ak_channel_layout *l = &s->channels[j];
    for (int i = 0; i < l->count; ++i) {
        if (l->kind[i] < AK_CH_XROT) continue;
        if (n == 3) return -1;
        name[n++] = (char)('X' + (l->kind[i] - AK_CH_XROT));
    }
    if (n != 3) return -1;
    name[3] = '\0';
    ak_rot_order o;
    return ak_rot_order_parse(name, &o) == 0 ? (int)o : -1;
}

ak_rot_order akcli_main_order(const ak_skeleton *s)
{
    int count[6] = {0, 0, 0, 0, 0, 0};
    for (int32_t j = 0; j < s->joint_count; ++j) {
        int o = akcli_joint_order(s, j);
        if (o >= 0) ++count[o];
    }
    int best = AK_ORDER_ZYX;
    for (int o = 0; o < 6; ++o)
        if (count[o] > count[best]) best = o;
    return (ak_rot_order)best;
}
