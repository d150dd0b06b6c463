# Links the renderer into the CLI for `animkit render` (when the viewer is enabled and its
# libraries exist; otherwise `animkit render` explains it is not in this build).
if(AK_BUILD_VIEWER)
  include(${PROJECT_SOURCE_DIR}/viewer/render.cmake)
  if(TARGET animkit_render)
    target_link_libraries(animkit_cli PRIVATE animkit_render)
    target_compile_definitions(animkit_cli PRIVATE AK_HAVE_RENDER=1)
  endif()
endif()
