/* The documented ranges of ak_matcher_params' float fields (status.h), checked by
 * ak_matcher_validate and read by the plugin, Python and JS. Metres, seconds, radians; world
 * coordinates within 1e6 m of the origin. */
#include "animkit/matching.h"

#include "core/param_table.h"

#define M(f, lo, hi) AKP_RANGE(ak_matcher_params, f, lo, hi, 0)
static const ak_param_range k_matcher[] = {
    M(start.x, -1e6f, 1e6f),
    M(start.y, -1e6f, 1e6f),
    M(start.z, -1e6f, 1e6f),
    M(target.x, -1e6f, 1e6f),
    M(target.y, -1e6f, 1e6f),
    M(target.z, -1e6f, 1e6f),
    {"start_heading", (uint32_t)offsetof(ak_matcher_params, start_heading), -1e6f, 1e6f, 1},
    M(arrival_radius, 1e-3f, 1e3f),
    M(walk_speed, 1e-2f, 20.0f),
    M(slow_radius, 1e-3f, 1e3f),
    M(turn_on_spot, 0.0f, AKP_DEG(180.0f)), /* radians */
    M(velocity_halflife, 1e-3f, 10.0f),
    M(heading_halflife, 1e-3f, 10.0f),
    M(search_interval, 1e-3f, 10.0f),
    M(sharp_change, 1e-3f, 100.0f),
    M(inertia_halflife, 1e-3f, 10.0f),
    M(transition_cost, 0.0f, 1e6f),
    M(exclude_time, 0.0f, 100.0f),
    M(reselect_time, 0.0f, 100.0f),
    M(turn_rate, 0.0f, 1745.33f), /* rad/s: 1e5 deg/s */
    M(stop_time, 1e-3f, 60.0f),
    M(rate_warp, 0.0f, 0.5f),
    M(stance_gate, 0.0f, 1.0f),
    M(unlock_distance, 1e-3f, 100.0f),
    M(ground_smoothing, 0.0f, 60.0f),
};
#undef M
static const ak_param_table k_matcher_table = AKP_TABLE(ak_matcher_params, k_matcher);

const ak_param_table *ak_matcher_param_ranges(void)
{
    return &k_matcher_table;
}

#define D(f, lo, hi) AKP_RANGE(ak_motion_db_params, f, lo, hi, 0)
/* The database's: file units per metre (0: detected), frames per second, the cost weights of
 * the five feature groups, the glitch speed (rad/s) and the smoothing sigmas (s). */
static const ak_param_range k_motion_db[] = {
    D(metres_per_unit, 0.0f, 1e6f),    D(frame_rate, 10.0f, 1000.0f),
    D(weights[0], 0.0f, 1e3f),         D(weights[1], 0.0f, 1e3f),
    D(weights[2], 0.0f, 1e3f),         D(weights[3], 0.0f, 1e3f),
    D(weights[4], 0.0f, 1e3f),         D(max_joint_speed, 1e-3f, 1e6f),
    D(position_smoothing, 0.0f, 2.0f), D(heading_smoothing, 0.0f, 2.0f),
};
#undef D
static const ak_param_table k_motion_db_table = AKP_TABLE(ak_motion_db_params, k_motion_db);
const ak_param_table *ak_motion_db_param_ranges(void)
{
    return &k_motion_db_table;
}
