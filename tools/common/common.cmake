# animkit_tools_common: code the CLI (tools/) and the viewer (viewer/) share that does not
# belong in the library because it needs more than libc + libm (PNG decoding via stb_image).
# Included from tools/CMakeLists.txt and viewer/render.cmake; defined once.
if(NOT TARGET animkit_tools_common)
  add_library(animkit_tools_common STATIC ${PROJECT_SOURCE_DIR}/tools/common/heightmap_png.c
    ${PROJECT_SOURCE_DIR}/tools/common/progress.c ${PROJECT_SOURCE_DIR}/tools/common/clip_any.c
    ${PROJECT_SOURCE_DIR}/tools/common/fbx_assimp.c)
  target_include_directories(animkit_tools_common PUBLIC ${PROJECT_SOURCE_DIR}/tools/common)
  target_include_directories(animkit_tools_common PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(animkit_tools_common PUBLIC animkit_scenario animkit_static m)
  target_compile_options(animkit_tools_common PRIVATE -Wall -Wextra)
  # FBX through assimp (Debian libassimp-dev), only where pkg-config finds it; elsewhere an
  # FBX file gets an error saying what to install.
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND AND NOT AK_NO_ASSIMP)
    pkg_check_modules(AK_ASSIMP QUIET IMPORTED_TARGET GLOBAL assimp)
  endif()
  if(AK_ASSIMP_FOUND)
    target_link_libraries(animkit_tools_common PUBLIC PkgConfig::AK_ASSIMP)
    target_compile_definitions(animkit_tools_common PRIVATE AK_HAVE_ASSIMP=1)
    message(STATUS "FBX: assimp ${AK_ASSIMP_VERSION} found, the tools read .fbx")
  else()
    message(STATUS "FBX: assimp not found (libassimp-dev), the tools will refuse .fbx")
  endif()
endif()
