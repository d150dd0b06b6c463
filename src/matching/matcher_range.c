/* A range of matchers stepped in order: the unit of work a thread pool runs for a crowd
 * (ak_matcher_step_range; the split is ak_batch_range). Wraps the public per-frame call. */
#include "animkit/matching.h"

int32_t ak_matcher_step_range(ak_matcher *const *matchers, int32_t begin, int32_t end, float dt,
                              const ak_ground *ground, int32_t *statuses)
{
    if (!matchers || begin < 0 || end < begin) return AK_ERR_INVALID_ARG;
    int32_t first = AK_OK;
    for (int32_t i = begin; i < end; ++i) {
        const int32_t st = ak_matcher_step(matchers[i], dt, ground, NULL);
        if (statuses) statuses[i - begin] = st;
        if (st != AK_OK && first == AK_OK) first = st;
    }
    return first;
}
