/* Internal: a small JSON reader (RFC 8259) for the glTF skin reader and the tools. The whole
 * document becomes a flat array of values linked by index; strings live in one pool. */
#ifndef AK_IO_JSON_H
#define AK_IO_JSON_H

#include "animkit/status.h"

#include <stddef.h>

enum { AKJ_NULL = 0, AKJ_FALSE, AKJ_TRUE, AKJ_NUMBER, AKJ_STRING, AKJ_ARRAY, AKJ_OBJECT };

typedef struct akj_value {
    int32_t type;
    int32_t count; /* array/object: number of children */
    int32_t first; /* first child, -1 */
    int32_t next;  /* next sibling, -1 */
    int32_t key;   /* object member: key offset in the pool, -1 */
    int32_t str;   /* string: offset in the pool */
    int32_t line;  /* 1-based line where the value starts */
    double number;
} akj_value;

typedef struct akj_doc {
    akj_value *v;
    int32_t count, cap;
    char *pool;
    size_t pool_len, pool_cap;
} akj_doc;

/* Parses `len` bytes; the root is value 0. Nesting deeper than 64, more than 2^22 values (the value
 * array stays under 160 MiB), bad syntax, trailing garbage: AK_ERR_PARSE (or AK_ERR_LIMIT) with the
 * line. */
int32_t akj_parse(const char *text, size_t len, akj_doc *doc, ak_error *err);
void akj_free(akj_doc *doc);
/* Member `key` of object `obj`, or -1. */
int32_t akj_get(const akj_doc *doc, int32_t obj, const char *key);
/* Element i of array `arr`, or -1. */
int32_t akj_at(const akj_doc *doc, int32_t arr, int32_t i);
/* The string of a string value, or NULL. */
const char *akj_string(const akj_doc *doc, int32_t v);
/* Key of an object member value. */
const char *akj_key(const akj_doc *doc, int32_t v);
/* The number of a number value, else `fallback`. */
double akj_number(const akj_doc *doc, int32_t v, double fallback);
/* Length of the valid UTF-8 sequence at p (1 for ASCII, 2..4), or 0 when p does not start
 * one within `avail` bytes (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF). Strings of a parsed document are always valid UTF-8. */
int akj_utf8_length(const unsigned char *p, size_t avail);
/* Type of value v (AKJ_NULL when v < 0). */
int32_t akj_type(const akj_doc *doc, int32_t v);

#endif
