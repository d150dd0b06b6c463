/* Example: play a BVH clip and follow a foot.
 *
 *     play_bvh FILE.bvh
 *
 * Reads the file, finds the humanoid joints, brings the units to metres, then samples the
 * clip at 30 frames per second and prints the left foot's height above its lowest point.
 * Shows the whole data flow of the library: read -> sample(t) -> FK -> positions. */
#include <animkit/animkit.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: play_bvh FILE.bvh\n");
        return 2;
    }
    ak_skeleton *skel = NULL;
    ak_clip *clip = NULL;
    ak_error err;
    if (ak_bvh_read_file(argv[1], NULL, &skel, &clip, &err) != AK_OK) {
        fprintf(stderr, "%s:%d: %s\n", argv[1], (int)err.line, err.message);
        return 1;
    }
    ak_humanoid hum;
    if (ak_humanoid_find(skel, NULL, &hum, &err) != AK_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], err.message);
        return 1;
    }
    float metres_per_unit = 1.0f;
    ak_units units = ak_units_detect(ak_clip_standing_height(clip, skel), &metres_per_unit);
    ak_skeleton_scale(skel, metres_per_unit);
    ak_clip_scale(clip, metres_per_unit);
    printf("%s: %d joints, %.2f s, units %s\n", argv[1], (int)skel->joint_count,
           ak_clip_duration(clip), ak_units_name(units));

    const int32_t n = ak_skeleton_joint_count(skel);
    const int32_t foot = hum.joint[AK_HUM_LEFT_FOOT];
    ak_xform *local = malloc(sizeof *local * (size_t)n);
    ak_xform *world = malloc(sizeof *world * (size_t)n);
    const int steps = (int)(ak_clip_duration(clip) * 30.0f) + 1;
    float *height = malloc(sizeof *height * (size_t)steps);
    float lowest = 1e30f;
    for (int i = 0; i < steps; ++i) {
        ak_clip_sample(clip, skel, (float)i / 30.0f, AK_INTERP_LINEAR, local);
        ak_fk(skel, local, world);
        height[i] = world[foot].translation.y;
        if (height[i] < lowest) lowest = height[i];
    }
    for (int i = 0; i < steps; ++i) {
        int bar = (int)((height[i] - lowest) * 100.0f); /* 1 character = 1 cm */
        printf("%6.3f s %6.3f m |%.*s\n", (double)i / 30.0, height[i] - lowest, bar > 60 ? 60 : bar,
               "############################################################");
    }
    free(height);
    free(local);
    free(world);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(skel);
    return 0;
}
