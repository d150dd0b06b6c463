/* Rows and tables of the documented float ranges of params structs (status.h's
 * ak_param_range / ak_param_table), written the same way by every module's param_ranges.c. */
#ifndef AK_CORE_PARAM_TABLE_H
#define AK_CORE_PARAM_TABLE_H

#include "animkit/status.h"

#include <stddef.h>

/* Field f of struct type in [lo, hi]; nan_ok 1: NaN means "not set" and is accepted. */
#define AKP_RANGE(type, f, lo, hi, nan_ok)                                                         \
    {                                                                                              \
#f, (uint32_t)offsetof(type, f), lo, hi, nan_ok                                            \
    }
/* d degrees in radians, rounded as the library's own `d * AK_PI / 180.0f` (the bounds of
 * angle fields, which are radians, written in the degrees a reader knows). */
#define AKP_DEG(d) ((d)*3.14159265358979323846f / 180.0f)
/* A table named after its struct over a static array of rows. */
#define AKP_TABLE(name, list)                                                                      \
    {                                                                                              \
#name, list, (int32_t)(sizeof(list) / sizeof((list)[0]))                                   \
    }

#endif
