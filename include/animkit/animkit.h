/* animkit — umbrella header of libanimkit. Each module header is also usable alone. The flag
 * tables and the walk scenario are a library of their own: animkit/scenario.h,
 * libanimkit_scenario. */
#ifndef ANIMKIT_ANIMKIT_H
#define ANIMKIT_ANIMKIT_H

#include "ak_config.h"
#include "status.h"
#include "ak_math.h"
#include "skeleton.h"
#include "clip.h"
#include "compress.h"
#include "bvh.h"
#include "clipfile.h"
#include "gltf.h"
#include "ik.h"
#include "retarget.h"

#include "ground.h"
#include "rootmotion.h"
#include "controller.h"
#include "locomotion.h"
#include "matching.h"
#include "edit.h"
#include "skin.h"

#endif
