/* The documented ranges of the animation params structs' float fields (status.h): one table
 * per struct, checked by its _validate (ak_body_params by ak_body_mesh_create) and read by the
 * plugin, Python and JS. Metres or file units, seconds, radians. Fields read only under a flag
 * (root motion's loop end without has_loop_end) are checked under the flag, not here. */
#include "animkit/compress.h"
#include "animkit/edit.h"
#include "animkit/rootmotion.h"
#include "animkit/skin.h"

#include "core/param_table.h"

#define RANGE(type, f, lo, hi) AKP_RANGE(type, f, lo, hi, 0)
#define TABLE                  AKP_TABLE

static const ak_param_range k_body[] = {
    RANGE(ak_body_params, thickness, 1e-3f, 4.0f),
};
static const ak_param_table k_body_table = TABLE(ak_body_params, k_body);

static const ak_param_range k_compress[] = {
    RANGE(ak_compress_params, tolerance, 1e-9f, 1e3f),
    RANGE(ak_compress_params, shell_distance, 0.0f, 1e3f),
    RANGE(ak_compress_params, metres_per_unit, 1e-9f, 1e6f),
};
static const ak_param_table k_compress_table = TABLE(ak_compress_params, k_compress);

static const ak_param_range k_resample[] = {
    RANGE(ak_edit_resample_params, frame_time, 1e-30f,
          1e3f), /* > 0; too many frames: AK_ERR_LIMIT */
};
static const ak_param_table k_resample_table = TABLE(ak_edit_resample_params, k_resample);

static const ak_param_range k_units[] = {
    RANGE(ak_edit_units_params, from_metres_per_unit, 0.0f, 1e6f), /* 0: detect */
    RANGE(ak_edit_units_params, to_metres_per_unit, 1e-9f, 1e6f),
};
static const ak_param_table k_units_table = TABLE(ak_edit_units_params, k_units);

static const ak_param_range k_concat[] = {
    RANGE(ak_edit_concat_params, blend_time, 0.0f, 1000.0f),
};
static const ak_param_table k_concat_table = TABLE(ak_edit_concat_params, k_concat);

/* The facing axis is a direction in the root's space (normalised; not vertical: _validate). */
static const ak_param_range k_root_motion[] = {
    RANGE(ak_root_motion_params, forward_axis.x, -1e6f, 1e6f),
    RANGE(ak_root_motion_params, forward_axis.y, -1e6f, 1e6f),
    RANGE(ak_root_motion_params, forward_axis.z, -1e6f, 1e6f),
};
static const ak_param_table k_root_motion_table = TABLE(ak_root_motion_params, k_root_motion);

const ak_param_table *ak_body_param_ranges(void)
{
    return &k_body_table;
}
const ak_param_table *ak_compress_param_ranges(void)
{
    return &k_compress_table;
}
const ak_param_table *ak_edit_resample_param_ranges(void)
{
    return &k_resample_table;
}
const ak_param_table *ak_edit_units_param_ranges(void)
{
    return &k_units_table;
}
const ak_param_table *ak_edit_concat_param_ranges(void)
{
    return &k_concat_table;
}
const ak_param_table *ak_root_motion_param_ranges(void)
{
    return &k_root_motion_table;
}
