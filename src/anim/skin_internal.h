/* Internal: the skinning kernels shared by skin.c (params, palette, scalar twin) and
 * skin_simd.c (the SSE path). Each kernel skins vertices [first, first + count). */
#ifndef AK_ANIM_SKIN_INTERNAL_H
#define AK_ANIM_SKIN_INTERNAL_H

#include "animkit/skin.h"

/* Joint index j clamped to the palette (the kernels never read outside it). */
static inline int32_t akskin_joint(uint16_t j, int32_t joint_count)
{
    return j < joint_count ? (int32_t)j : joint_count - 1;
}

void akskin_lbs_scalar(const ak_skin_params *p, int32_t first, int32_t count);
void akskin_dqs_scalar(const ak_skin_params *p, int32_t first, int32_t count);
/* 1 when the SSE kernels below exist in this build (x86-64 or wasm with SSE, no AK_NO_SIMD). */
int akskin_have_simd(void);
/* SSE kernels; only called when akskin_have_simd() is 1. */
void akskin_lbs_simd(const ak_skin_params *p, int32_t first, int32_t count);
void akskin_dqs_simd(const ak_skin_params *p, int32_t first, int32_t count);

#endif
