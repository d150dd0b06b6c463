/* Internal: FK over a range of joints, for callers that leave some joints out. */
#ifndef AK_SKELETON_INTERNAL_H
#define AK_SKELETON_INTERNAL_H

#include "animkit/skeleton.h"

/* model[j] = model[parent] * local[j] for j in [begin, end), in order (ak_fk's loop, the same
 * bits): a parent outside the range must already be in model. */
void ak_fk_range(const ak_skeleton *s, const ak_xform *local, ak_xform *model, int32_t begin,
                 int32_t end);

#endif
