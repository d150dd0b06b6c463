/* Flag tables: one description of a scenario's settings, from which command-line parsing,
 * URL-query parsing, defaults, range checks and --help all come (see animkit/scenario.h). */
#include "animkit/scenario.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLAG_VALUE_MAX AK_FLAG_TEXT_MAX

static int32_t flag_count(const ak_flag *f) { return f->count > 0 ? f->count : 1; }
static int32_t flag_min_count(const ak_flag *f)
{
    return f->min_count > 0 ? f->min_count : flag_count(f);
}
static char flag_separator(const ak_flag *f) { return f->separator ? f->separator : ','; }
static size_t flag_text_size(const ak_flag *f) { return f->size ? f->size : AK_FLAG_TEXT_MAX; }

/* ---- ranges: "[a,b]", "(a,b)", "[0,inf)"; NULL accepts any finite number ---- */

typedef struct range {
    double lo, hi;
    int lo_open, hi_open;
} range;

static int parse_bound(const char *s, const char *end, double *out)
{
    char buf[64];
    size_t n = (size_t)(end - s);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (strcmp(buf, "inf") == 0) *out = HUGE_VAL;
    else if (strcmp(buf, "-inf") == 0) *out = -HUGE_VAL;
    else {
        char *e = NULL;
        *out = strtod(buf, &e);
        if (e == buf || *e != '\0') return -1;
    }
    return 0;
}

static int parse_range(const char *text, range *r)
{
    r->lo = -HUGE_VAL;
    r->hi = HUGE_VAL;
    r->lo_open = r->hi_open = 1;
    if (!text) return 0;
    size_t n = strlen(text);
    const char *comma = strchr(text, ',');
    if (n < 5 || !comma || (text[0] != '[' && text[0] != '(') ||
        (text[n - 1] != ']' && text[n - 1] != ')'))
        return -1;
    r->lo_open = text[0] == '(';
    r->hi_open = text[n - 1] == ')';
    return parse_bound(text + 1, comma, &r->lo) || parse_bound(comma + 1, text + n - 1, &r->hi);
}

static int in_range(const range *r, double v)
{
    if (r->lo_open ? !(v > r->lo) : !(v >= r->lo)) return 0;
    if (r->hi_open ? !(v < r->hi) : !(v <= r->hi)) return 0;
    return 1;
}

/* ---- values ---- */

static int parse_number(const ak_flag *f, const char *s, size_t n, double *out)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end = NULL;
    errno = 0;
    if (f->type == AK_FLAG_INT) {
        long v = strtol(buf, &end, 10);
        if (errno || end == buf || *end != '\0' || v < -2147483647L || v > 2147483647L) return -1;
        *out = (double)v;
    } else {
        double v = strtod(buf, &end);
        if (errno || end == buf || *end != '\0' || !isfinite(v) || fabs(v) > 3.0e38) return -1;
        *out = v;
    }
    return 0;
}

/* Splits "a,b,c" on the flag's separator into up to count numbers; checks count and range. */
static int parse_numbers(const ak_flag *f, const char *value, double *v, int32_t *got)
{
    const char sep = flag_separator(f);
    const int32_t count = flag_count(f);
    range r;
    if (parse_range(f->range, &r)) return -1;
    int32_t k = 0;
    const char *p = value;
    for (;;) {
        const char *end = strchr(p, sep);
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (k >= count || parse_number(f, p, n, &v[k]) || !in_range(&r, v[k])) return -1;
        ++k;
        if (!end) break;
        p = end + 1;
    }
    *got = k;
    return k >= flag_min_count(f) ? 0 : -1;
}

static int choice_index(const char *choices, const char *value)
{
    size_t n = strlen(value);
    int index = 0;
    for (const char *p = choices; p && *p; ++index) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, value, n) == 0) return index;
        p = bar ? bar + 1 : NULL;
    }
    return -1;
}

/* Stores `value` into the flag's field. Returns 0, or -1 when the value is not acceptable. */
static int store_value(const ak_flag *f, void *params, const char *value)
{
    char *field = (char *)params + f->offset;
    double v[AK_FLAG_MAX_VALUES];
    int32_t got = 0;
    switch (f->type) {
    case AK_FLAG_SWITCH:
        *(int32_t *)field = f->on;
        return 0;
    case AK_FLAG_TEXT:
        if (strlen(value) >= flag_text_size(f)) return -1;
        memcpy(field, value, strlen(value) + 1);
        return 0;
    case AK_FLAG_TEXT_LIST: {
        /* Appends: "a" then "b" gives "a\nb"; an item may not be empty or hold a newline. */
        const size_t used = strlen(field), n = strlen(value);
        const size_t need = used + (used ? 1 : 0) + n + 1;
        if (n == 0 || strchr(value, '\n') || need > flag_text_size(f)) return -1;
        if (used) field[used] = '\n';
        memcpy(field + used + (used ? 1 : 0), value, n + 1);
        return 0;
    }
    case AK_FLAG_CHOICE: {
        const int index = choice_index(f->choices, value);
        if (index < 0) return -1;
        *(int32_t *)field = index;
        return 0;
    }
    case AK_FLAG_INT:
    case AK_FLAG_FLOAT:
        if (flag_count(f) > AK_FLAG_MAX_VALUES || parse_numbers(f, value, v, &got)) return -1;
        for (int32_t k = 0; k < got; ++k) {
            if (f->type == AK_FLAG_INT) ((int32_t *)(void *)field)[k] = (int32_t)v[k];
            else ((float *)(void *)field)[k] = (float)v[k];
        }
        return 0;
    default:
        return -1;
    }
}

/* "a number in (0,100000]", "X,Z (2 numbers)", "flat, hills or stairs" */
static void describe_expected(const ak_flag *f, char *buf, size_t size)
{
    if (f->type == AK_FLAG_CHOICE) {
        size_t o = 0;
        int index = 0;
        for (const char *p = f->choices; p && *p && o < size; ++index) {
            const char *bar = strchr(p, '|');
            const int len = (int)(bar ? (size_t)(bar - p) : strlen(p));
            const char *joint = index == 0 ? "" : bar ? ", " : " or ";
            o += (size_t)snprintf(buf + o, size - o, "%s%.*s", joint, len, p);
            p = bar ? bar + 1 : NULL;
        }
        return;
    }
    if (f->type == AK_FLAG_TEXT || f->type == AK_FLAG_TEXT_LIST) {
        snprintf(buf, size, f->type == AK_FLAG_TEXT ? "a value shorter than %d bytes"
                                                    : "non-empty values, %d bytes in all",
                 (int)flag_text_size(f));
        return;
    }
    const char *kind = f->type == AK_FLAG_INT ? "an integer" : "a number";
    const char *metavar = f->metavar ? f->metavar : "";
    if (flag_count(f) > 1)
        snprintf(buf, size, "%s (%d %s%s%s)", metavar, (int)flag_count(f),
                 f->type == AK_FLAG_INT ? "integers" : "numbers", f->range ? " in " : "",
                 f->range ? f->range : "");
    else
        snprintf(buf, size, "%s%s%s", kind, f->range ? " in " : "", f->range ? f->range : "");
}

static int32_t bad_value(const ak_flag *f, const char *spelled, const char *value, ak_error *err)
{
    char expected[160];
    describe_expected(f, expected, sizeof expected);
    return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s%s wants %s, got '%.100s'", spelled, f->name,
                        expected, value);
}

/* ---- tables ---- */

int32_t ak_flags_list_item(const char *list, int32_t index, char *buf, size_t size)
{
    int32_t count = 0;
    if (buf && size) buf[0] = '\0';
    if (!list) return 0;
    for (const char *p = list; *p; ++count) {
        const char *nl = strchr(p, '\n');
        const size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (count == index && buf && size) {
            const size_t k = n < size - 1 ? n : size - 1;
            memcpy(buf, p, k);
            buf[k] = '\0';
        }
        p = nl ? nl + 1 : p + n;
    }
    return count;
}

int32_t ak_flags_find(const ak_flag_table *table, const char *name)
{
    if (!table || !name) return -1;
    for (int32_t i = 0; i < table->count; ++i)
        if (strcmp(table->flags[i].name, name) == 0) return i;
    return -1;
}

static int32_t find_short(const ak_flag_table *table, char c)
{
    for (int32_t i = 0; i < table->count; ++i)
        if (c && table->flags[i].short_name == c) return i;
    return -1;
}

static void mark_given(ak_flags_result *result, int32_t table_index, int32_t flag_index)
{
    if (table_index < 4 && flag_index < 64)
        result->given[table_index] |= (uint64_t)1 << flag_index;
}

int32_t ak_flags_given(const ak_flags_result *result, const ak_flag_table *table,
                       int32_t table_index, const char *name)
{
    const int32_t i = ak_flags_find(table, name);
    if (!result || i < 0 || i >= 64 || table_index < 0 || table_index >= 4) return 0;
    return (result->given[table_index] >> i) & 1u ? 1 : 0;
}

int32_t ak_flags_defaults(const ak_flag_table *table, void *params, ak_error *err)
{
    if (!table || !params) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    for (int32_t i = 0; i < table->count; ++i) {
        const ak_flag *f = &table->flags[i];
        char *field = (char *)params + f->offset;
        if (f->type == AK_FLAG_TEXT || f->type == AK_FLAG_TEXT_LIST) {
            field[0] = '\0';
        } else if (f->type == AK_FLAG_SWITCH) {
            *(int32_t *)field = f->def && strcmp(f->def, "1") == 0;
            continue;
        } else if (f->type == AK_FLAG_FLOAT) {
            memset(field, 0, sizeof(float) * (size_t)flag_count(f));
        } else {
            memset(field, 0, sizeof(int32_t) * (size_t)flag_count(f));
        }
        if (!f->def || !*f->def) continue;
        /* Defaults skip the range: they may be sentinels (0 = detect, -1 = automatic). */
        ak_flag unranged = *f;
        unranged.range = NULL;
        unranged.min_count = 0;
        if (store_value(&unranged, params, f->def) != 0)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "bad default '%s' for %s", f->def,
                                f->name);
    }
    ak_error_clear(err);
    return AK_OK;
}

/* ---- command line ---- */

typedef struct arg_cursor {
    const ak_flag_table *const *tables;
    void *const *params;
    int32_t table_count;
    ak_flags_result *result;
} arg_cursor;

/* Looks `name` (or the short letter) up in every table; the first table whose parse of
 * `value` succeeds takes it. *needs_value tells the caller whether a value was wanted. */
static int32_t apply_flag(const arg_cursor *c, const char *name, char short_name,
                          const char *value, int *needs_value, ak_error *err)
{
    const ak_flag *first = NULL;
    *needs_value = 0;
    for (int32_t t = 0; t < c->table_count; ++t) {
        const int32_t i =
            short_name ? find_short(c->tables[t], short_name) : ak_flags_find(c->tables[t], name);
        if (i < 0) continue;
        const ak_flag *f = &c->tables[t]->flags[i];
        if (!first) first = f;
        *needs_value = f->type != AK_FLAG_SWITCH;
        if (*needs_value && !value)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "--%s needs a value", f->name);
        if (store_value(f, c->params[t], value) == 0) {
            mark_given(c->result, t, i);
            return AK_OK;
        }
    }
    if (!first)
        return short_name ? ak_error_set(err, AK_ERR_INVALID_ARG, 0, "unknown option '-%c'", short_name)
                          : ak_error_set(err, AK_ERR_INVALID_ARG, 0, "unknown option '--%s'", name);
    return bad_value(first, "--", value, err);
}

static int32_t add_positional(ak_flags_result *result, int32_t max_positional, const char *arg,
                              ak_error *err)
{
    if (result->positional_count >= max_positional ||
        result->positional_count >= AK_FLAGS_MAX_POSITIONAL)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            max_positional == 0 ? "unexpected argument '%.200s'"
                                                : "too many arguments ('%.200s')",
                            arg);
    result->positional[result->positional_count++] = arg;
    return AK_OK;
}

/* One "--name[=value]" or "-x" argument at argv[*i]; advances *i past a consumed value. */
static int32_t parse_one_flag(const arg_cursor *c, int argc, const char *const *argv, int *i,
                              ak_error *err)
{
    const char *a = argv[*i];
    char name[96];
    const char *inline_value = NULL, *next = *i + 1 < argc ? argv[*i + 1] : NULL;
    char short_name = 0;
    if (a[1] == '-') {
        const char *eq = strchr(a + 2, '=');
        size_t n = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
        if (n >= sizeof name) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "unknown option '%.100s'", a);
        memcpy(name, a + 2, n);
        name[n] = '\0';
        inline_value = eq ? eq + 1 : NULL;
    } else {
        short_name = a[1];
        name[0] = '\0';
    }
    int needs_value = 0;
    const int32_t st =
        apply_flag(c, name, short_name, inline_value ? inline_value : next, &needs_value, err);
    if (st != AK_OK) return st;
    if (!needs_value && inline_value)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "--%s takes no value", name);
    if (needs_value && !inline_value) ++*i;
    return AK_OK;
}

static int is_flag(const char *a)
{
    if (a[0] != '-' || a[1] == '\0') return 0;
    if (a[1] == '-') return a[2] != '\0';
    return a[2] == '\0' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.';
}

int32_t ak_flags_parse_args(const ak_flag_table *const *tables, void *const *params,
                            int32_t table_count, int argc, const char *const *argv,
                            int32_t max_positional, ak_flags_result *result, ak_error *err)
{
    if (!tables || !params || !result || table_count < 1 || argc < 0 || (argc > 0 && !argv))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    memset(result, 0, sizeof *result);
    const arg_cursor c = {tables, params, table_count, result};
    int only_positional = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!a) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument %d", i);
        if (!only_positional && strcmp(a, "--") == 0) {
            only_positional = 1;
        } else if (!only_positional && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)) {
            result->wants_help = 1;
            break;
        } else if (!only_positional && is_flag(a)) {
            const int32_t st = parse_one_flag(&c, argc, argv, &i, err);
            if (st != AK_OK) return st;
        } else {
            const int32_t st = add_positional(result, max_positional, a, err);
            if (st != AK_OK) return st;
        }
    }
    ak_error_clear(err);
    return AK_OK;
}

/* ---- URL query ---- */

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes s[0..n) (%XX, '+' = space) into out; -1 on a bad escape, NUL or overflow. */
static int url_decode(const char *s, size_t n, char *out, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; i < n; ++i) {
        int ch = (unsigned char)s[i];
        if (ch == '+') ch = ' ';
        else if (ch == '%') {
            if (i + 2 >= n || hex_digit(s[i + 1]) < 0 || hex_digit(s[i + 2]) < 0) return -1;
            ch = hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]);
            i += 2;
        }
        if (ch == 0 || o + 1 >= size) return -1;
        out[o++] = (char)ch;
    }
    out[o] = '\0';
    return 0;
}

static int32_t apply_query_pair(const ak_flag_table *table, void *params, const char *key,
                                const char *value, ak_flags_result *result, ak_error *err)
{
    const int32_t i = ak_flags_find(table, key);
    if (i < 0) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "unknown parameter '%.100s'", key);
    const ak_flag *f = &table->flags[i];
    if (f->type == AK_FLAG_SWITCH) {
        if (value && choice_index("0|false|off", value) >= 0) return AK_OK;
        if (value && *value && choice_index("1|true|on", value) < 0)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s wants 1 or 0, got '%.100s'",
                                f->name, value);
    } else if (!value) {
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s needs a value (%s=...)", f->name,
                            f->name);
    }
    if (store_value(f, params, value ? value : "") != 0) return bad_value(f, "", value, err);
    mark_given(result, 0, i);
    return AK_OK;
}

int32_t ak_flags_parse_query(const ak_flag_table *table, void *params, const char *query,
                             ak_flags_result *result, ak_error *err)
{
    if (!table || !params || !query || !result)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    memset(result, 0, sizeof *result);
    if (*query == '?') ++query;
    char key[96], value[FLAG_VALUE_MAX];
    for (const char *p = query; *p;) {
        const char *amp = strchr(p, '&');
        const size_t n = amp ? (size_t)(amp - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        const size_t kn = eq ? (size_t)(eq - p) : n;
        if (kn > 0) {
            if (url_decode(p, kn, key, sizeof key) ||
                (eq && url_decode(eq + 1, n - kn - 1, value, sizeof value)))
                return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "bad URL encoding in '%.*s'",
                                    (int)(n < 100 ? n : 100), p);
            const int32_t st = apply_query_pair(table, params, key, eq ? value : NULL, result, err);
            if (st != AK_OK) return st;
        }
        p = amp ? amp + 1 : p + n;
    }
    ak_error_clear(err);
    return AK_OK;
}

/* ---- checks on params filled by code ---- */

static int32_t check_numbers(const ak_flag *f, const void *params, ak_error *err)
{
    const char *field = (const char *)params + f->offset;
    double def[AK_FLAG_MAX_VALUES] = {0};
    int32_t def_count = 0;
    range r;
    if (flag_count(f) > AK_FLAG_MAX_VALUES || parse_range(f->range, &r))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "flag %s: bad table entry", f->name);
    if (f->def && *f->def) {
        ak_flag unranged = *f;
        unranged.range = NULL;
        unranged.min_count = 1;
        if (parse_numbers(&unranged, f->def, def, &def_count)) def_count = 0;
    }
    for (int32_t k = 0; k < flag_count(f); ++k) {
        const double v = f->type == AK_FLAG_INT ? (double)((const int32_t *)(const void *)field)[k]
                                                : (double)((const float *)(const void *)field)[k];
        if (k < def_count && (float)v == (float)def[k]) continue;
        if (!isfinite(v) || !in_range(&r, v))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s is %g, outside %s", f->name, v,
                                f->range ? f->range : "the finite numbers");
    }
    return AK_OK;
}

static int32_t check_flag(const ak_flag *f, const void *params, ak_error *err)
{
    const char *field = (const char *)params + f->offset;
    const int32_t iv = *(const int32_t *)(const void *)field;
    switch (f->type) {
    case AK_FLAG_SWITCH:
        if (iv != 0 && iv != 1)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s is %d, wants 0 or 1", f->name,
                                (int)iv);
        return AK_OK;
    case AK_FLAG_TEXT:
    case AK_FLAG_TEXT_LIST:
        if (!memchr(field, '\0', flag_text_size(f)))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s is not NUL-terminated", f->name);
        return AK_OK;
    case AK_FLAG_CHOICE: {
        int n = f->choices && *f->choices ? 1 : 0;
        for (const char *p = f->choices; p && *p; ++p)
            n += *p == '|';
        if (iv < 0 || iv >= n)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s is %d, wants 0..%d (%s)", f->name,
                                (int)iv, n - 1, f->choices ? f->choices : "");
        return AK_OK;
    }
    default:
        return check_numbers(f, params, err);
    }
}

int32_t ak_flags_check(const ak_flag_table *table, const void *params, ak_error *err)
{
    if (!table || !params) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    for (int32_t i = 0; i < table->count; ++i) {
        const int32_t st = check_flag(&table->flags[i], params, err);
        if (st != AK_OK) return st;
    }
    ak_error_clear(err);
    return AK_OK;
}

/* ---- --help ---- */

typedef struct text_out {
    char *buf;
    size_t size, len;
} text_out;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void out_printf(text_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const size_t room = o->len < o->size ? o->size - o->len : 0;
    const int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) o->len += (size_t)n;
}

static void help_line(text_out *o, const ak_flag *f)
{
    char head[128];
    char metavar[96];
    snprintf(metavar, sizeof metavar, "%s", f->metavar ? f->metavar : "");
    if (!f->metavar && f->type == AK_FLAG_CHOICE && f->choices)
        snprintf(metavar, sizeof metavar, "%s", f->choices);
    else if (!f->metavar && f->type != AK_FLAG_SWITCH)
        snprintf(metavar, sizeof metavar, "%s", f->type == AK_FLAG_TEXT ? "TEXT" : "N");
    if (f->type == AK_FLAG_TEXT_LIST)
        snprintf(metavar + strlen(metavar), sizeof metavar - strlen(metavar), " ...");
    if (f->short_name)
        snprintf(head, sizeof head, "-%c, --%s%s%s", f->short_name, f->name, *metavar ? " " : "",
                 metavar);
    else
        snprintf(head, sizeof head, "--%s%s%s", f->name, *metavar ? " " : "", metavar);
    char extra[160] = "";
    /* A help line that already explains its default (a sentinel such as -1) keeps it. */
    const int has_def = f->type != AK_FLAG_SWITCH && f->def && *f->def &&
                        !(f->help && strstr(f->help, "default"));
    if (has_def && f->range) snprintf(extra, sizeof extra, "(default %s, range %s)", f->def, f->range);
    else if (has_def) snprintf(extra, sizeof extra, "(default %s)", f->def);
    else if (f->range) snprintf(extra, sizeof extra, "(range %s)", f->range);
    const char *help = f->help ? f->help : "";
    /* A long flag puts its help on the next line; a long line its default and range. */
    static const char *const indent = "\n                           ";
    const int long_head = strlen(head) > 24;
    const int wrap = 27 + strlen(help) + 1 + strlen(extra) > 100;
    out_printf(o, "  %-24s%s%s%s%s\n", head, long_head ? indent : " ", help,
               *extra ? (wrap ? indent : " ") : "", extra);
}

size_t ak_flags_help(const ak_flag_table *table, char *buf, size_t size)
{
    text_out o = {buf, size, 0};
    if (buf && size) buf[0] = '\0';
    if (!table) return 0;
    for (int32_t i = 0; i < table->count; ++i)
        help_line(&o, &table->flags[i]);
    return o.len;
}
