/* animkit — locomotion, the umbrella of its jobs (each header is also usable alone):
 *   walkclip.h    the built-in walk and idle clips
 *   contacts.h    units of a clip, heel/toe contacts, foot calibration, stance at a time
 *   walkmotion.h  walk cycles in mocap, a clip prepared for walking
 *   grounding.h   foot placement: the pose put on the ground (foot IK)
 *   reach.h       a hand on a fixed point
 *   walker.h      the guide-joint walker
 *   walkmetrics.h walk quality, measured
 * with ground.h (terrain, the two-phase ray form) and controller.h (capsule controller). */
#ifndef ANIMKIT_LOCOMOTION_H
#define ANIMKIT_LOCOMOTION_H

#include "ground.h"
#include "controller.h"
#include "walkclip.h"
#include "contacts.h"
#include "walkmotion.h"
#include "grounding.h"
#include "reach.h"
#include "walker.h"
#include "walkmetrics.h"

#endif
