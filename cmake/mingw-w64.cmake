# Cross-compiling for Windows x86_64 with Debian's mingw-w64 (package mingw-w64).
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(AK_MINGW_TRIPLE x86_64-w64-mingw32)
# The -win32 variants use native Windows threads (no libwinpthread-1.dll dependency).
find_program(AK_MINGW_CC NAMES ${AK_MINGW_TRIPLE}-gcc-win32 ${AK_MINGW_TRIPLE}-gcc REQUIRED)
set(CMAKE_C_COMPILER ${AK_MINGW_CC})
set(CMAKE_RC_COMPILER ${AK_MINGW_TRIPLE}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${AK_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
