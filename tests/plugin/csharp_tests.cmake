# C# tests of later ABI parts (each in its own PluginTests*.cs partial class file).
list(APPEND AK_CS_TESTS
  retarget_clip_onto_rig_from_arrays_matches_bvh_rig
  live_retargeter_matches_clip_retarget_without_contacts
  motion_database_builds_saves_and_loads
  matcher_walks_to_a_target_over_two_phase_ground
  crowd_on_three_threads_steps_like_each_character_in_turn
  crowd_splits_evenly_and_reports_a_range_error_as_thrown)
