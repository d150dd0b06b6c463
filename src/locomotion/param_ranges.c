/* The documented ranges of the locomotion params structs' float fields: one table per struct,
 * checked by its _validate and read by the plugin, Python and JS (status.h). Lengths in
 * metres, times in seconds, angles in radians (bounds written AKP_DEG(degrees)). World
 * coordinates stay within 1e6 m of the origin (the plugin's and the CLI's bound). */
#include "animkit/locomotion.h"

#include "core/param_table.h"

#define RANGE AKP_RANGE
/* NOLINTBEGIN(bugprone-macro-parentheses): a type and a field path are offsetof's operands */
#define COORD(type, v)                                                                             \
    RANGE(type, v.x, -1e6f, 1e6f, 0), RANGE(type, v.y, -1e6f, 1e6f, 0),                            \
        RANGE(type, v.z, -1e6f, 1e6f, 0)
/* NOLINTEND(bugprone-macro-parentheses) */
#define TABLE AKP_TABLE

#define F(f, lo, hi) RANGE(ak_foot_ik_params, f, lo, hi, 0)
static const ak_param_range k_foot_ik[] = {
    F(weight, 0.0f, 1.0f),
    F(max_tilt, 0.0f, AKP_DEG(89.0f)), /* radians */
    F(lock_release_rate, 1e-3f, 1e4f),
    F(ground_fade_rate, 1e-3f, 1e4f),
    F(stance_fade_rate, 1e-3f, 1e4f),
    F(swing_height_rate, 1e-3f, 1e4f),
    F(hip_drop_rate, 1e-3f, 1e3f),
    F(hip_drop_stiffness, 1e-3f, 1e4f),
    F(max_hip_drop, 0.0f, 10.0f),
    F(hip_accel_down, 0.0f, 1e3f),
    F(hip_accel_up, 0.0f, 1e3f),
    F(hip_accel_total_down, 0.0f, 1e3f),
    F(max_hip_rise, 0.0f, 10.0f),
    F(max_knee_flex, 0.0f, AKP_DEG(180.0f)), /* radians */
    F(pole_distance, -100.0f, 100.0f),
};
#undef F
static const ak_param_table k_foot_ik_table = TABLE(ak_foot_ik_params, k_foot_ik);

#define W(f, lo, hi) RANGE(ak_walker_params, f, lo, hi, 0)
static const ak_param_range k_walker[] = {
    COORD(ak_walker_params, start),
    COORD(ak_walker_params, target),
    RANGE(ak_walker_params, start_heading, -1e6f, 1e6f, 1),
    W(arrival_radius, 1e-3f, 1e3f),
    W(turn_rate, 1.745e-5f, 1745.33f), /* rad/s: 1e-3 .. 1e5 deg/s */
    W(ground_smoothing, 0.0f, 60.0f),
    W(idle_fade, 1e-3f, 60.0f),
    W(start_time, 0.0f, 59.0f),
    W(stop_time, 1e-3f, 59.0f),
    W(idle_metres_per_unit, 0.0f, 1e6f),
};
#undef W
static const ak_param_table k_walker_table = TABLE(ak_walker_params, k_walker);

#define C(f, lo, hi) RANGE(ak_controller_params, f, lo, hi, 0)
static const ak_param_range k_controller[] = {
    C(radius, 1e-3f, 10.0f),      C(height, 2e-3f, 100.0f),
    C(step_height, 0.0f, 100.0f), C(max_slope, AKP_DEG(1e-3f), AKP_DEG(89.9f)), /* radians */
    C(gravity, 0.0f, 1e3f),       C(skin, 0.0f, 10.0f),
};
#undef C
static const ak_param_table k_controller_table = TABLE(ak_controller_params, k_controller);

#define K(f, lo, hi) RANGE(ak_contact_params, f, lo, hi, 0)
static const ak_param_range k_contact[] = {
    K(metres_per_unit, 0.0f, 1e6f),      K(height_on, 1e-6f, 10.0f),
    K(height_off, 1e-6f, 10.0f),         K(speed_on, 1e-6f, 100.0f),
    K(speed_off, 1e-6f, 100.0f),         K(rise_off, 0.0f, 100.0f),
    K(floor_window, 1e-3f, 100.0f),      K(max_floor_rise, 0.0f, 10.0f),
    K(min_stance, 0.0f, 100.0f),         K(min_swing, 0.0f, 100.0f),
    K(body_speed_fraction, 0.0f, 10.0f), K(roll_height, 0.0f, 10.0f),
};
#undef K
static const ak_param_table k_contact_table = TABLE(ak_contact_params, k_contact);

static const ak_param_range k_reach[] = {
    COORD(ak_reach_params, target),
    COORD(ak_reach_params, pole),
    RANGE(ak_reach_params, start_distance, 0.0f, 1e3f, 0),
    RANGE(ak_reach_params, full_distance, 0.0f, 1e3f, 0),
    RANGE(ak_reach_params, fade_rate, 1e-3f, 1e4f, 0),
};
static const ak_param_table k_reach_table = TABLE(ak_reach_params, k_reach);

/* The built-in terrain: every field whatever the kind (the defaults fill them all). */
#define T(f, lo, hi) RANGE(ak_terrain_params, f, lo, hi, 0)
static const ak_param_range k_terrain[] = {
    T(size, 1e-3f, 1e5f),       T(base_height, -1e6f, 1e6f),
    T(cell, 0.01f, 1e5f),       T(max_slope, AKP_DEG(1e-3f), AKP_DEG(60.0f)), /* radians */
    T(wavelength, 0.04f, 1e6f), T(step_height, 1e-3f, 0.5f),
    T(step_depth, 0.05f, 1e3f), T(stairs_start_x, -1e6f, 1e6f),
    T(landing, 0.0f, 1e5f),
};
#undef T
static const ak_param_table k_terrain_table = TABLE(ak_terrain_params, k_terrain);

/* The built-in walk clip; the leg-length and reach conditions between fields stay in
 * ak_walk_clip_validate. */
#define B(f, lo, hi) RANGE(ak_walk_clip_params, f, lo, hi, 0)
static const ak_param_range k_walk_clip[] = {
    B(stride_length, 0.1f, 2.0f),
    B(cycle_time, 0.4f, 4.0f),
    B(frame_rate, 10.0f, 480.0f),
    B(duty_factor, 0.5f, 0.8f),
    B(hip_height, 0.4f, 0.91f),
    B(hip_bob, 0.0f, 0.51f),
    B(hip_sway, 0.0f, 0.2f),
    B(step_width, 0.0f, 0.6f),
    B(foot_clearance, 0.0f, 0.5f),
    B(arm_swing, AKP_DEG(-80.0f), AKP_DEG(80.0f)), /* radians */
    B(pelvis_yaw, AKP_DEG(-30.0f), AKP_DEG(30.0f)),
};
#undef B
static const ak_param_table k_walk_clip_table = TABLE(ak_walk_clip_params, k_walk_clip);

const ak_param_table *ak_terrain_param_ranges(void)
{
    return &k_terrain_table;
}
#define Y(f, lo, hi) RANGE(ak_cycle_params, f, lo, hi, 0)
static const ak_param_range k_cycle[] = {
    Y(leg_length, 0.0f, 100.0f), /* 0: from the humanoid map */
    Y(min_time, 1e-3f, 60.0f),
    Y(max_time, 1e-3f, 60.0f),
    Y(min_step_fraction, 0.0f, 10.0f),
};
#undef Y
static const ak_param_table k_cycle_table = TABLE(ak_cycle_params, k_cycle);

#define V(f, lo, hi) RANGE(ak_walk_motion_params, f, lo, hi, 0)
static const ak_param_range k_walk_motion[] = {
    V(metres_per_unit, 0.0f, 1e6f), /* 0: detected */
    V(seam_blend, 0.0f, 10.0f),
    V(min_cycle_time, 1e-3f, 60.0f),
    V(max_cycle_time, 1e-3f, 60.0f),
    V(cycle_start_time, -1.0f, 1e6f), /* -1: cycle_start/cycle_end */
    V(cycle_end_time, -1.0f, 1e6f),
};
#undef V
static const ak_param_table k_walk_motion_table = TABLE(ak_walk_motion_params, k_walk_motion);

const ak_param_table *ak_cycle_param_ranges(void)
{
    return &k_cycle_table;
}
const ak_param_table *ak_walk_motion_param_ranges(void)
{
    return &k_walk_motion_table;
}
const ak_param_table *ak_walk_clip_param_ranges(void)
{
    return &k_walk_clip_table;
}
const ak_param_table *ak_foot_ik_param_ranges(void)
{
    return &k_foot_ik_table;
}
const ak_param_table *ak_walker_param_ranges(void)
{
    return &k_walker_table;
}
const ak_param_table *ak_controller_param_ranges(void)
{
    return &k_controller_table;
}
const ak_param_table *ak_contact_param_ranges(void)
{
    return &k_contact_table;
}
const ak_param_table *ak_reach_param_ranges(void)
{
    return &k_reach_table;
}
