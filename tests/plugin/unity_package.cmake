# The Unity package as Unity sees it: every asset has a .meta with a unique, well-formed GUID
# (tools/unity_meta.py --check; run tools/unity_meta.py without --check to add missing ones).
find_program(AK_PYTHON3 python3)
if(AK_PYTHON3)
  add_test(NAME unity_package_every_asset_has_a_unique_meta
    COMMAND ${AK_PYTHON3} ${PROJECT_SOURCE_DIR}/tools/unity_meta.py --check
            ${PROJECT_SOURCE_DIR}/unity)
  set_tests_properties(unity_package_every_asset_has_a_unique_meta PROPERTIES LABELS nosan)
endif()
