# The Unity package as Unity sees it: every asset has a .meta with a unique, well-formed GUID,
# and every GUID a scene refers to exists (tools/unity_meta.py --check; run
# tools/unity_meta.py without --check to add missing ones).
find_program(AK_PYTHON3 python3)
if(AK_PYTHON3)
  add_test(NAME unity_package_every_asset_has_a_unique_meta
    COMMAND ${AK_PYTHON3} ${PROJECT_SOURCE_DIR}/tools/unity_meta.py --check
            ${PROJECT_SOURCE_DIR}/unity)
  add_test(NAME unity_meta_tool_reports_problems_and_keeps_guids
    COMMAND ${AK_PYTHON3} ${PROJECT_SOURCE_DIR}/tools/unity_meta.py --self-test)
  set_tests_properties(unity_package_every_asset_has_a_unique_meta
    unity_meta_tool_reports_problems_and_keeps_guids PROPERTIES LABELS nosan)
  # The sample scene is generated (tools/unity_sample_scene.py): the committed file is what
  # the generator writes, and every field it sets on a script exists in that script.
  add_test(NAME unity_sample_scene_matches_its_generator_and_scripts
    COMMAND ${AK_PYTHON3} ${PROJECT_SOURCE_DIR}/tools/unity_sample_scene.py --check)
  set_tests_properties(unity_sample_scene_matches_its_generator_and_scripts PROPERTIES LABELS nosan)
  add_test(NAME unity_package_manifest_is_complete
    COMMAND ${AK_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/check_unity_manifest.py
            ${PROJECT_SOURCE_DIR}/unity/com.animkit.animation ${PROJECT_VERSION})
  set_tests_properties(unity_package_manifest_is_complete PROPERTIES LABELS nosan)
endif()

# Each asmdef compiled alone with exactly its settings (unsafe, defines, references), in
# dependency order, against stub UnityEngine/UnityEditor/Input System assemblies; then the
# package's own NUnit tests (Tests/Runtime, Tests/Editor) run under Mono with Debian's NUnit
# against the real plugin. Not in sanitizer builds (Mono cannot load the ASan plugin).
find_program(AK_MCS mcs)
find_program(AK_NUNIT_CONSOLE nunit-console)
find_file(AK_NUNIT_FRAMEWORK nunit.framework.dll
  PATHS /usr/lib/cli/nunit.framework-2.6.3 /usr/lib/cli/nunit.framework-2.6 /usr/lib/mono/4.5)
if(AK_PYTHON3 AND AK_MCS AND NOT AK_SANITIZE AND TARGET animkit_unity)
  set(AK_ASMDEF_OUT ${CMAKE_BINARY_DIR}/tests/unity-asmdefs)
  if(AK_NUNIT_FRAMEWORK)
    add_test(NAME unity_package_compiles_per_asmdef
      COMMAND ${AK_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/compile_asmdefs.py
              ${PROJECT_SOURCE_DIR}/unity/com.animkit.animation ${CMAKE_CURRENT_SOURCE_DIR}
              ${AK_ASMDEF_OUT} ${AK_NUNIT_FRAMEWORK})
  else()
    add_test(NAME unity_package_compiles_per_asmdef
      COMMAND sh -c "echo 'nunit.framework.dll not found (make deps installs libnunit-cil-dev)'; exit 77")
  endif()
  set_tests_properties(unity_package_compiles_per_asmdef PROPERTIES LABELS nosan
    SKIP_RETURN_CODE 77 FIXTURES_SETUP ak_unity_asmdefs)
  if(AK_NUNIT_CONSOLE AND AK_NUNIT_FRAMEWORK)
    add_test(NAME unity_package_nunit_tests_under_mono
      COMMAND ${AK_NUNIT_CONSOLE} -nologo -noshadow -labels -xml=${AK_ASMDEF_OUT}/nunit-result.xml
              ${AK_ASMDEF_OUT}/editor/AnimKit.Tests.Runtime.dll ${AK_ASMDEF_OUT}/editor/AnimKit.Tests.Editor.dll)
  else()
    add_test(NAME unity_package_nunit_tests_under_mono
      COMMAND sh -c "echo 'nunit-console not found (make deps installs nunit-console)'; exit 77")
  endif()
  set_tests_properties(unity_package_nunit_tests_under_mono PROPERTIES LABELS nosan
    SKIP_RETURN_CODE 77 FIXTURES_REQUIRED ak_unity_asmdefs
    ENVIRONMENT "LD_LIBRARY_PATH=$<TARGET_FILE_DIR:animkit_unity>;AK_MOCAP_DIR=${AK_MOCAP_DIR}")
endif()
