/* Test helper: glTF documents written by the reader tests (test_gltf_doc.c, test_gltf_read.c,
 * test_gltf_anim_eval.c): a growing text with printf, and bytes appended as base64 (RFC 4648,
 * with padding) for data: URIs. */
#ifndef AK_TEST_GLTF_TEXT_H
#define AK_TEST_GLTF_TEXT_H

#include "test_util.h"

typedef struct akt_text {
    char *s;
    size_t n, cap;
} akt_text;

static inline void akt_put(akt_text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        assert_true(k >= 0);
        if (t->s && t->n + (size_t)k < t->cap) {
            t->n += (size_t)k;
            return;
        }
        t->cap = (t->cap + (size_t)k + 1) * 2;
        t->s = (char *)realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
}

/* Appends `n` bytes as base64. */
static inline void akt_put_b64(akt_text *t, const void *data, size_t n)
{
    static const char k_digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const uint8_t *b = (const uint8_t *)data;
    for (size_t i = 0; i < n; i += 3) {
        const uint32_t v = (uint32_t)b[i] << 16 | (i + 1 < n ? (uint32_t)b[i + 1] << 8 : 0u) |
                           (i + 2 < n ? (uint32_t)b[i + 2] : 0u);
        akt_put(t, "%c%c%c%c", k_digits[v >> 18 & 63], k_digits[v >> 12 & 63],
                i + 1 < n ? k_digits[v >> 6 & 63] : '=', i + 2 < n ? k_digits[v & 63] : '=');
    }
}

/* Appends a buffer of `n` bytes as one data: URI buffer object, `"buffers": [{...}]`, with
 * the byteLength it declares (`declared`; pass n to tell the truth). */
static inline void akt_put_buffer(akt_text *t, const void *data, size_t n, long declared)
{
    akt_put(t,
            "\"buffers\": [{\"byteLength\": %ld, \"uri\": \"data:application/octet-stream;base64,",
            declared);
    akt_put_b64(t, data, n);
    akt_put(t, "\"}]");
}

#endif
