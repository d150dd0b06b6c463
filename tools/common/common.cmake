# animkit_tools_common: code the CLI (tools/) and the viewer (viewer/) share that does not
# belong in the library because it needs more than libc + libm (PNG decoding via stb_image).
# Included from tools/CMakeLists.txt and viewer/render.cmake; defined once.
if(NOT TARGET animkit_tools_common)
  add_library(animkit_tools_common STATIC ${PROJECT_SOURCE_DIR}/tools/common/heightmap_png.c
    ${PROJECT_SOURCE_DIR}/tools/common/progress.c)
  target_include_directories(animkit_tools_common PUBLIC ${PROJECT_SOURCE_DIR}/tools/common)
  target_link_libraries(animkit_tools_common PUBLIC animkit_static m)
  target_compile_options(animkit_tools_common PRIVATE -Wall -Wextra)
endif()
