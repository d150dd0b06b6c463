/* A busy flag: objects documented as serving one thread at a time (walker, matcher,
 * retargeter) take it for the length of a call, so a second thread calling in while a call
 * is in flight gets AK_ERR_STATE instead of racing on the object's scratch. One atomic
 * compare-and-swap in and one store out per call (a few nanoseconds against tens of
 * microseconds of work); it detects overlap, it is not a lock: nothing waits. */
#ifndef AK_CORE_BUSY_H
#define AK_CORE_BUSY_H

#include "animkit/ak_config.h"

typedef volatile long ak_busy_flag; /* 0 free, 1 a call in flight; zero-initialised */

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
AK_INLINE int akb_enter(ak_busy_flag *f)
{
    return _InterlockedCompareExchange(f, 1, 0) == 0;
}
AK_INLINE void akb_leave(ak_busy_flag *f)
{
    _InterlockedExchange(f, 0);
}
#else
/* Returns 1 when the flag was free and is now taken, 0 when another call holds it. */
AK_INLINE int akb_enter(ak_busy_flag *f)
{
    long free_value = 0;
    return __atomic_compare_exchange_n(f, &free_value, 1L, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}
AK_INLINE void akb_leave(ak_busy_flag *f)
{
    __atomic_store_n(f, 0L, __ATOMIC_RELEASE);
}
#endif

#endif
