/* The documented ranges of the readers' and writers' params float fields (status.h), checked
 * by their _validate and read by the plugin, Python and JS. */
#include "animkit/gltf.h"

#include "core/param_table.h"

#define RANGE(type, f, lo, hi) AKP_RANGE(type, f, lo, hi, 0)
#define TABLE                  AKP_TABLE

static const ak_param_range k_gltf[] = {
    RANGE(ak_gltf_params, metres_per_unit, 1e-9f, 1e6f),
};
static const ak_param_table k_gltf_table = TABLE(ak_gltf_params, k_gltf);

static const ak_param_range k_gltf_clip[] = {
    RANGE(ak_gltf_clip_params, fps, 0.0f, 1000.0f), /* 0: chosen from the key times */
    RANGE(ak_gltf_clip_params, max_fps, 1.0f, 1000.0f),
};
static const ak_param_table k_gltf_clip_table = TABLE(ak_gltf_clip_params, k_gltf_clip);

const ak_param_table *ak_gltf_param_ranges(void)
{
    return &k_gltf_table;
}
const ak_param_table *ak_gltf_clip_param_ranges(void)
{
    return &k_gltf_clip_table;
}
