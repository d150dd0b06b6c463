# The renderer shared by the CLI's `render` command and animkit-view: a static library of
# viewer/{render,render_skin,scene,offscreen,headless,modes,walk_view,match_overlay}.c. Included from tools/extra.cmake and
# viewer/CMakeLists.txt; defines animkit_render when GLFW, libepoxy and stb are present.
if(NOT TARGET animkit_render)
  pkg_check_modules(AKV_GL IMPORTED_TARGET glfw3 epoxy)
  find_path(AKV_STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb)
  find_library(AKV_STB_LIBRARY stb)
  if(AKV_GL_FOUND AND AKV_STB_INCLUDE_DIR)
    set(AKV_DIR ${PROJECT_SOURCE_DIR}/viewer)
    add_library(animkit_render STATIC ${AKV_DIR}/render.c ${AKV_DIR}/render_skin.c ${AKV_DIR}/scene.c ${AKV_DIR}/offscreen.c
                ${AKV_DIR}/headless.c ${AKV_DIR}/modes.c ${AKV_DIR}/ik_solvers.c
                ${AKV_DIR}/walk_view.c ${AKV_DIR}/match_overlay.c)
    target_include_directories(animkit_render PUBLIC ${AKV_DIR} PRIVATE ${AKV_STB_INCLUDE_DIR} ${CGLM_INCLUDE_DIR})
    include(${PROJECT_SOURCE_DIR}/tools/common/common.cmake)
    target_link_libraries(animkit_render PUBLIC animkit_scenario animkit_static animkit_tools_common PkgConfig::AKV_GL m
                          PRIVATE animkit_internal)
    if(AKV_STB_LIBRARY)
      target_link_libraries(animkit_render PUBLIC ${AKV_STB_LIBRARY})
    else()
      # No libstb.a: compile stb_image_write's implementation here.
      target_sources(animkit_render PRIVATE ${AKV_DIR}/stb_impl.c)
    endif()
    target_compile_options(animkit_render PRIVATE -Wall -Wextra)
  else()
    message(STATUS "animkit: GLFW/libepoxy/stb not found - no renderer, viewer or `animkit render`")
  endif()
endif()
