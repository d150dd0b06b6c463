/* animkit — status codes and the error record every fallible call can fill. */
#ifndef ANIMKIT_STATUS_H
#define ANIMKIT_STATUS_H

#include "ak_config.h"

AK_EXTERN_C_BEGIN

/* Every fallible animkit call returns one of these. 0 is success; errors are negative so a
 * caller can test `if (status < 0)`. Values are part of the ABI: never renumber. */
typedef enum ak_status {
    AK_OK = 0,
    AK_ERR_INVALID_ARG = -1, /* a null pointer, an out-of-range index, a bad parameter */
    AK_ERR_PARSE = -2,       /* malformed input text; ak_error.line says where */
    AK_ERR_IO = -3,          /* a file could not be opened, read or written */
    AK_ERR_LIMIT = -4,       /* input exceeds a configured limit (joints, frames, bytes) */
    AK_ERR_NOMEM = -5,       /* an allocation failed */
    AK_ERR_NOT_FOUND = -6,   /* a named joint or resource does not exist */
    AK_ERR_DEGENERATE = -7,  /* geometry the operation cannot handle (zero-length bone...) */
    AK_ERR_STATE = -8        /* the object is not in a state that allows the call */
} ak_status;

/* Where and why a call failed. `line` and `column` are 1-based positions in the input text
 * (0 when the error has no location). `message` is a short English reason, NUL-terminated. */
typedef struct ak_error {
    int32_t status;
    int32_t line;
    int32_t column;
    char message[256];
} ak_error;

/* The library's version, "MAJOR.MINOR.PATCH" (AK_VERSION_STRING of the build that made it): a
 * program linked against a shared animkit can compare it with the header it was compiled with. */
AK_API const char *ak_version(void);

/* Short constant name of a status code ("AK_ERR_PARSE"); never NULL. */
AK_API const char *ak_status_name(int32_t status);

/* Sets every field of `err` (if not NULL) and returns `status`; printf-style message. */
AK_API int32_t ak_error_set(ak_error *err, int32_t status, int32_t line, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
#ifdef __clang_analyzer__
/* Static analysis only (clang-tidy, make lint): say that the call returns `status`. The
 * analyzer does not look into other files, so without this it follows paths where a failed
 * check's `st = ak_error_set(...)` "returned AK_OK" and reports null dereferences on them. */
#define ak_error_set(err, status, line, ...)                                                       \
    (ak_error_set((err), (status), (line), __VA_ARGS__), (int32_t)(status))
#endif

/* Clears `err` to AK_OK with an empty message. NULL is allowed. */
AK_API void ak_error_clear(ak_error *err);

/* ---- Parameter ranges: one table per params struct ----------------------------------------
 * Every float field of a params struct has a documented range, kept in ONE table that the
 * struct's _validate checks and that the plugin, Python and JS read (they go through the same
 * _validate, and their own argument checks look the numbers up here). A vector field has one
 * entry per component ("start.x"). */
typedef struct ak_param_range {
    const char *field; /* as in the struct: "fade_time", "start.x" */
    uint32_t offset;   /* byte offset of the float in the struct */
    float lo, hi;      /* inclusive bounds */
    int32_t nan_ok;    /* 1: NaN is accepted (it means "automatic", as the field says) */
} ak_param_range;

typedef struct ak_param_table {
    const char *params; /* the struct: "ak_retarget_params" */
    const ak_param_range *ranges;
    int32_t count;
} ak_param_table;

/* AK_OK when every float of `params` named in `table` is in its range; else
 * AK_ERR_INVALID_ARG with "FIELD = VALUE: must be in [LO, HI]". */
AK_API int32_t ak_params_check(const ak_param_table *table, const void *params, ak_error *err);
/* The entry for `field`, or NULL. */
AK_API const ak_param_range *ak_param_find(const ak_param_table *table, const char *field);

AK_EXTERN_C_END

#endif
