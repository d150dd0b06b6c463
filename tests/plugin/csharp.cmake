# C# bindings against the real plugin: mcs compiles Runtime/Core/*.cs + PluginTests.cs into
# one console program; CTest runs each test with mono (label nosan: Mono cannot run under
# ASan). The MonoBehaviours are type-checked against a stub UnityEngine assembly.
find_program(AK_MCS mcs)
find_program(AK_MONO mono)
if(NOT AK_MCS OR NOT AK_MONO)
  message(STATUS "mcs/mono not found: C# plugin tests skipped (make deps installs mono-mcs)")
  return()
endif()
if(AK_SANITIZE)
  return() # the ASan .so cannot be loaded into mono; the C ABI test covers the san build
endif()

set(AK_UNITY_PKG ${PROJECT_SOURCE_DIR}/unity/com.animkit.animation)
file(GLOB AK_CS_CORE CONFIGURE_DEPENDS ${AK_UNITY_PKG}/Runtime/Core/*.cs)
set(AK_CS_TEST_EXE ${CMAKE_BINARY_DIR}/tests/AnimKitPluginTests.exe)
# PluginTests.cs and its partial-class parts (PluginTests*.cs), one per later ABI area.
file(GLOB AK_CS_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/PluginTests*.cs)
add_custom_command(OUTPUT ${AK_CS_TEST_EXE}
  COMMAND ${AK_MCS} -nologo -langversion:7 -warnaserror -debug -out:${AK_CS_TEST_EXE}
          ${AK_CS_CORE} ${AK_CS_TEST_SOURCES}
  DEPENDS ${AK_CS_CORE} ${AK_CS_TEST_SOURCES}
  COMMENT "mcs: AnimKitPluginTests.exe")
add_custom_target(animkit_csharp_tests ALL DEPENDS ${AK_CS_TEST_EXE})
add_dependencies(animkit_csharp_tests animkit_unity)

set(AK_CS_TESTS
  abi_version_matches_bindings
  world_positions_match_reference_csv_mirrored
  rotations_are_consistent_in_unity_frame
  mirror_z_goes_both_ways
  units_are_detected_in_metres
  bad_file_throws_with_line_number
  use_after_dispose_is_an_error_not_a_crash
  buffers_too_small_throw
  matrices_match_unity_memory_order
  everything_destroyed_leaves_no_handles
  limb_ik_moves_the_foot_onto_a_target
  look_at_turns_the_head_onto_a_target
  walker_reaches_target_over_two_phase_ground
  character_keeps_its_objects_alive_and_dies_cleanly)
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/csharp_tests.cmake)
  include(${CMAKE_CURRENT_SOURCE_DIR}/csharp_tests.cmake) # appends tests of later ABI parts
endif()
foreach(t ${AK_CS_TESTS})
  add_test(NAME plugin_cs_${t} COMMAND ${AK_MONO} --debug ${AK_CS_TEST_EXE} ${t})
  set_tests_properties(plugin_cs_${t} PROPERTIES LABELS nosan
    ENVIRONMENT "LD_LIBRARY_PATH=$<TARGET_FILE_DIR:animkit_unity>;AK_MOCAP_DIR=${AK_MOCAP_DIR}")
endforeach()
# Every [Test] in PluginTests.cs is registered above (a forgotten one would never run).
list(SORT AK_CS_TESTS)
string(REPLACE ";" "\n" AK_CS_TEST_LINES "${AK_CS_TESTS}")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cs_tests.want "${AK_CS_TEST_LINES}\n")
add_test(NAME plugin_cs_every_test_registered
  COMMAND sh -c "${AK_MONO} ${AK_CS_TEST_EXE} --list | LC_ALL=C sort | diff ${CMAKE_CURRENT_BINARY_DIR}/cs_tests.want -")
set_tests_properties(plugin_cs_every_test_registered PROPERTIES LABELS nosan)

# ---- The MonoBehaviours: type-checked against a stub UnityEngine, defaults compared ----
file(GLOB AK_CS_COMPONENTS CONFIGURE_DEPENDS ${AK_UNITY_PKG}/Runtime/Components/*.cs)
file(GLOB AK_CS_SAMPLES CONFIGURE_DEPENDS "${AK_UNITY_PKG}/Samples~/*/*.cs")
string(REPLACE ";" " " AK_CS_ALL_SOURCES "${AK_CS_CORE};${AK_CS_COMPONENTS};${AK_CS_SAMPLES}")
set(AK_CS_STUB_DIR ${CMAKE_BINARY_DIR}/tests/unity-stub)
file(MAKE_DIRECTORY ${AK_CS_STUB_DIR})
add_test(NAME plugin_cs_components_typecheck
  COMMAND sh -c "${AK_MCS} -nologo -target:library -out:${AK_CS_STUB_DIR}/UnityEngine.dll ${CMAKE_CURRENT_SOURCE_DIR}/UnityEngineStub.cs ${CMAKE_CURRENT_SOURCE_DIR}/UnityEngineAnimationStub.cs && ${AK_MCS} -nologo -langversion:7 -warnaserror -debug -r:${AK_CS_STUB_DIR}/UnityEngine.dll -out:${AK_CS_STUB_DIR}/AnimKitComponentTests.exe ${AK_CS_ALL_SOURCES} ${CMAKE_CURRENT_SOURCE_DIR}/ComponentTests*.cs")
set_tests_properties(plugin_cs_components_typecheck PROPERTIES LABELS nosan
  FIXTURES_SETUP ak_cs_components)
add_test(NAME plugin_cs_components_defaults_and_walk_scene
  COMMAND ${AK_MONO} --debug ${AK_CS_STUB_DIR}/AnimKitComponentTests.exe)
set_tests_properties(plugin_cs_components_defaults_and_walk_scene PROPERTIES LABELS nosan
  FIXTURES_REQUIRED ak_cs_components
  ENVIRONMENT "LD_LIBRARY_PATH=$<TARGET_FILE_DIR:animkit_unity>;AK_MOCAP_DIR=${AK_MOCAP_DIR};AK_UNITY_PKG=${AK_UNITY_PKG}")
