/* Internal: the humanoid map's joint-name rules, shared with the mirror edit. */
#ifndef AK_HUMANOID_INTERNAL_H
#define AK_HUMANOID_INTERNAL_H

#include "animkit/skeleton.h"

/* Side of a joint name (0 none, 1 left, 2 right) and its canonical base with the side word
 * or letter, rig prefixes and separators removed ("LeftUpLeg" -> 1 "upleg", "thigh.R" ->
 * 2 "thigh", "LThumb" -> 1 "thumb"). Written into base (AK_NAME_MAX bytes). */
int ak_humanoid_name_side(const char *name, char base[AK_NAME_MAX]);

#endif
