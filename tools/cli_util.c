/* Shared CLI helpers: error printing and strict number parsing. */
#include "cli.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ak_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "animkit %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'animkit %s --help')\n", cmd);
    return 2;
}

int ak_cli_file_error(const char *path, const ak_error *err)
{
    if (err->line > 0)
        fprintf(stderr, "%s:%d: %s\n", path, (int)err->line, err->message);
    else
        fprintf(stderr, "%s: %s\n", path, err->message);
    return 1;
}

void ak_cli_file_warning(const char *path, const ak_error *err)
{
    if (err->status != AK_OK || !err->message[0]) return;
    if (err->line > 0)
        fprintf(stderr, "%s:%d: warning: %s\n", path, (int)err->line, err->message);
    else
        fprintf(stderr, "%s: warning: %s\n", path, err->message);
}

int ak_cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return 1;
    return 0;
}

int ak_cli_parse_float(const char *s, float *out)
{
    if (!s || !*s) return -1;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    /* Beyond FLT_MAX the float would be infinite: refused like any non-number. */
    if (errno || end == s || *end != '\0' || !isfinite(v) || fabs(v) > FLT_MAX) return -1;
    *out = (float)v;
    return 0;
}

int ak_cli_parse_int(const char *s, int *out)
{
    if (!s || !*s) return -1;
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < -2147483647L || v > 2147483647L) return -1;
    *out = (int)v;
    return 0;
}

static int parse_floats(const char *s, float *v, int count)
{
    char buf[256];
    if (!s || strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    char *p = buf;
    for (int i = 0; i < count; ++i) {
        char *comma = strchr(p, ',');
        if (i < count - 1) {
            if (!comma) return -1;
            *comma = '\0';
        } else if (comma) {
            return -1;
        }
        if (ak_cli_parse_float(p, &v[i]) != 0) return -1;
        p = comma ? comma + 1 : p;
    }
    return 0;
}

int ak_cli_parse_vec3(const char *s, ak_vec3 *v)
{
    float f[3];
    if (parse_floats(s, f, 3) != 0) return -1;
    v->x = f[0];
    v->y = f[1];
    v->z = f[2];
    return 0;
}

int ak_cli_parse_vec2(const char *s, float *a, float *b)
{
    float f[2];
    if (parse_floats(s, f, 2) != 0) return -1;
    *a = f[0];
    *b = f[1];
    return 0;
}

const char *ak_cli_root_joint_hint(const ak_error *err, const char *given)
{
    if (!err || !given || !given[0] || err->status != AK_ERR_NOT_FOUND) return "";
    char named[AK_FLAG_TEXT_MAX + 48];
    snprintf(named, sizeof named, "no joint named '%s' to carry the root motion", given);
    return strstr(err->message, named) ? " (--root-joint)" : "";
}

int ak_cli_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return 0;
    for (size_t i = 0; i < m; ++i) {
        char a = s[n - m + i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != suffix[i]) return 0;
    }
    return 1;
}

void ak_cli_print_csv_field(const char *name)
{
    if (!strpbrk(name, ",\"")) {
        fputs(name, stdout);
        return;
    }
    putchar('"');
    for (; *name; ++name) {
        if (*name == '"') putchar('"');
        putchar(*name);
    }
    putchar('"');
}

int ak_cli_parse_flags(const ak_flag_table *table, void *params, int argc, char **argv,
                       int32_t max_positional, void (*usage)(FILE *), ak_flags_result *r,
                       int *exit_code)
{
    const ak_flag_table *tables[1] = {table};
    void *all[1] = {params};
    ak_error err;
    ak_flags_defaults(table, params, NULL);
    *exit_code = 0;
    if (ak_flags_parse_args(tables, all, 1, argc, (const char *const *)argv, max_positional, r,
                            &err) != AK_OK) {
        *exit_code = ak_cli_usage_error(table->command, "%s", err.message);
        return 0;
    }
    if (r->wants_help) {
        usage(stdout);
        return 0;
    }
    return 1;
}

void ak_cli_print_help(FILE *out, const char *intro, const ak_flag_table *table)
{
    char help[8192];
    ak_flags_help(table, help, sizeof help);
    fprintf(out, "%s%s  %-24s this help\n", intro, help, "-h, --help");
}
