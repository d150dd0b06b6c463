/* animkit — build configuration: export macros and the few compiler-specific bits.
 * Everything non-portable lives here so the rest of the code is plain C11 that MSVC,
 * GCC, Clang and MinGW all compile. */
#ifndef ANIMKIT_AK_CONFIG_H
#define ANIMKIT_AK_CONFIG_H

#include <stdint.h>
#include <stddef.h>

/* The project's version: this is the one place it is written. CMake reads it from here (the
 * CMake package, pkg-config), `animkit --version` and ak_version() print it, and a test checks
 * the Unity package.json and CHANGELOG.md agree (tools/version.sh prints or sets it). */
#define AK_VERSION_MAJOR  0
#define AK_VERSION_MINOR  1
#define AK_VERSION_PATCH  0
#define AK_VERSION_STRING "0.1.0"

/* AK_API marks the public, exported symbols. Define AK_STATIC when linking the static
 * library on Windows; AK_BUILDING is set by the build when compiling animkit itself. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(AK_STATIC)
#define AK_API
#elif defined(AK_BUILDING)
#define AK_API __declspec(dllexport)
#else
#define AK_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define AK_API __attribute__((visibility("default")))
#else
#define AK_API
#endif

#if defined(_MSC_VER)
#define AK_INLINE   static __inline
#define AK_RESTRICT __restrict
#else
#define AK_INLINE   static inline
#define AK_RESTRICT restrict
#endif

#ifdef __cplusplus
#define AK_EXTERN_C_BEGIN extern "C" {
#define AK_EXTERN_C_END   }
#else
#define AK_EXTERN_C_BEGIN
#define AK_EXTERN_C_END
#endif

#endif
