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

int32_t ak_params_check(const ak_param_table *table, const void *params, ak_error *err)
{
    if (!table || !params) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params");
    for (int32_t i = 0; i < table->count; ++i) {
        const ak_param_range *r = &table->ranges[i];
        float v;
        memcpy(&v, (const char *)params + r->offset, sizeof v);
        if (v >= r->lo && v <= r->hi) continue;
        if (r->nan_ok && v != v) continue; /* NaN: "automatic" */
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s = %g: must be in [%g, %g]%s", r->field,
                            (double)v, (double)r->lo, (double)r->hi, r->nan_ok ? " or NaN" : "");
    }
    return AK_OK;
}

const ak_param_range *ak_param_find(const ak_param_table *table, const char *field)
{
    for (int32_t i = 0; table && field && i < table->count; ++i)
        if (strcmp(table->ranges[i].field, field) == 0) return &table->ranges[i];
    return NULL;
}
