/* The walk summary's keys in the order the line prints them (issue 21 item 5): the output's
 * contract, stated once for the tests that read the line (scenario/test_walk_summary.c,
 * tools/test_cli_walk.c) and kept apart from src/scenario/walk_summary.c on purpose, so a key
 * renamed or moved there fails here. */
#ifndef AKT_WALK_SUMMARY_KEYS_H
#define AKT_WALK_SUMMARY_KEYS_H

static const char *const akt_walk_summary_keys[] = {"arrived",
                                                    "time_s",
                                                    "final_distance",
                                                    "path_length",
                                                    "max_penetration",
                                                    "max_float",
                                                    "max_heel_penetration",
                                                    "max_heel_float",
                                                    "max_toe_penetration",
                                                    "max_toe_float",
                                                    "skate",
                                                    "max_skate",
                                                    "max_foot_tilt_deg",
                                                    "max_hip_accel",
                                                    "deepest_any_phase",
                                                    "deepest_planted",
                                                    "hip_accel_min_g",
                                                    "hip_accel_max_g",
                                                    "knee_peak_deg",
                                                    "drag_m_s",
                                                    "source_hip_accel_min_g",
                                                    "source_hip_accel_max_g",
                                                    "source_knee_peak_deg",
                                                    "source_drag_m_s",
                                                    "frames",
                                                    "root_joint",
                                                    "root_joint_reason",
                                                    "root_joint_why",
                                                    "start",
                                                    "start_why",
                                                    "stop",
                                                    "stop_why"};

/* Fails the test unless every key stands in `line` in this order (include after cmocka). */
static inline void akt_check_walk_summary_keys(const char *line)
{
    const char *at = line;
    for (size_t i = 0; i < sizeof akt_walk_summary_keys / sizeof akt_walk_summary_keys[0]; ++i) {
        char pat[64];
        snprintf(pat, sizeof pat, "\"%s\":", akt_walk_summary_keys[i]);
        const char *k = strstr(at, pat);
        if (!k) fail_msg("key %s missing or out of order in %s", akt_walk_summary_keys[i], line);
        at = k;
    }
}

#endif
