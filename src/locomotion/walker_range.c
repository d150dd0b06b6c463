/* A range of walkers stepped in order: the unit of work a thread pool runs for a crowd
 * (ak_walker_step_range; the split is ak_batch_range). Wraps the public per-frame call,
 * prefetching the next walker. */
#include "animkit/walker.h"
#include "locomotion/internal.h"

int32_t ak_walker_step_range(ak_walker *const *walkers, int32_t begin, int32_t end, float dt,
                             const ak_ground *ground, int32_t *statuses)
{
    if (!walkers || begin < 0 || end < begin) return AK_ERR_INVALID_ARG;
    int32_t first = AK_OK;
    for (int32_t i = begin; i < end; ++i) {
        /* A crowd's walkers do not fit the cache (10,000: ~40 MB a frame): fetch the next one's
         * lines while this one steps (its ~1.7 us hide the memory latency). */
        if (i + 1 < end && walkers[i + 1]) akw_prefetch(walkers[i + 1]);
        const int32_t st = ak_walker_step(walkers[i], dt, ground, NULL);
        if (statuses) statuses[i - begin] = st;
        if (st != AK_OK && first == AK_OK) first = st;
    }
    return first;
}
