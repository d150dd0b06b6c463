/* Status names and the error record. */
#include "animkit/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *ak_version(void)
{
    return AK_VERSION_STRING;
}

const char *ak_status_name(int32_t status)
{
    switch (status) {
    case AK_OK: return "AK_OK";
    case AK_ERR_INVALID_ARG: return "AK_ERR_INVALID_ARG";
    case AK_ERR_PARSE: return "AK_ERR_PARSE";
    case AK_ERR_IO: return "AK_ERR_IO";
    case AK_ERR_LIMIT: return "AK_ERR_LIMIT";
    case AK_ERR_NOMEM: return "AK_ERR_NOMEM";
    case AK_ERR_NOT_FOUND: return "AK_ERR_NOT_FOUND";
    case AK_ERR_DEGENERATE: return "AK_ERR_DEGENERATE";
    case AK_ERR_STATE: return "AK_ERR_STATE";
    default: return "AK_ERR_UNKNOWN";
    }
}

/* The name in parentheses: not the analyzer's macro of the same name (status.h). */
int32_t(ak_error_set)(ak_error *err, int32_t status, int32_t line, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->status = status;
        err->line = line;
        err->column = 0;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

void ak_error_clear(ak_error *err)
{
    if (err) memset(err, 0, sizeof *err);
}
