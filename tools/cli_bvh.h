/* animkit CLI — helpers the BVH commands (info, positions, convert) share. */
#ifndef AK_TOOLS_CLI_BVH_H
#define AK_TOOLS_CLI_BVH_H

#include "cli.h"

/* Reads a clip file (BVH, glTF, GLB, FBX where built with assimp; "file.glb#Run" picks an
 * animation); on failure prints "FILE:LINE: reason" and returns 1, else 0. */
int akcli_load_bvh(const char *path, ak_skeleton **skeleton, ak_clip **clip);

/* Heights along Y in file units: of the rest pose's body (ak_skeleton_rest_height), of frame 0's
 * body (ak_pose_body_height: a still joint above the hips is not counted), and the standing height
 * used for unit detection (ak_clip_standing_height: the median body height over the clip, so a rig
 * whose rest pose is odd, lying or folded, still measures as standing). */
typedef struct akcli_heights {
    float rest, frame0, standing;
} akcli_heights;
akcli_heights akcli_measure_heights(const ak_skeleton *skeleton, const ak_clip *clip);

/* "Xposition" ... "Zrotation". */
const char *akcli_channel_name(int kind);

/* Rotation order of a joint's rotation channels, or -1 when it has not exactly three. */
int akcli_joint_order(const ak_skeleton *skeleton, int32_t joint);

/* The rotation order most joints of the file use (ZYX when none has three rotations). */
ak_rot_order akcli_main_order(const ak_skeleton *skeleton);

#endif
