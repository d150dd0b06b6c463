/* Internal: the humanoid map's joint-name rules, shared with the mirror edit. */
#ifndef AK_HUMANOID_INTERNAL_H
#define AK_HUMANOID_INTERNAL_H

#include "animkit/skeleton.h"

/* Side of a joint name (0 none, 1 left, 2 right) and its canonical base with the side word
 * or letter, rig prefixes and separators removed ("LeftUpLeg" -> 1 "upleg", "thigh.R" ->
 * 2 "thigh", "LThumb" -> 1 "thumb"). Written into base (AK_NAME_MAX bytes). */
int ak_humanoid_name_side(const char *name, char base[AK_NAME_MAX]);

/* The lowest joint whose subtree holds every humanoid joint found by name (ak_humanoid_find:
 * hips and both legs at least), or -1 when the map is not found. Joints above it (another
 * studio's joint_Root, a root bone on the floor) are not the body. */
int32_t ak_humanoid_body_top(const ak_skeleton *s);

/* The body's height in a model pose: ak_pose_body_height of ak_humanoid_body_top's joint, or
 * of every joint when the map is not found. */
float ak_humanoid_body_height(const ak_skeleton *s, const ak_xform *model);

#endif
