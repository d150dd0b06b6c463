/* A small JSON reader: recursive descent into a flat, index-linked value array. */
#include "io/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AKJ_MAX_DEPTH 64
/* 2^22 values of 40 bytes: at most 160 MiB for the value array however large the text (a
 * glTF keeps its bulk in buffers; 2^22 JSON values is far beyond any real skin or clip). */
#define AKJ_MAX_VALUES (1 << 22)

typedef struct akj_parser {
    const char *s;
    size_t n, i;
    int32_t line;
    akj_doc *doc;
    ak_error *err;
} akj_parser;

static int32_t fail(akj_parser *p, const char *why)
{
    return ak_error_set(p->err, AK_ERR_PARSE, p->line, "JSON: %s", why);
}

static void skip_space(akj_parser *p)
{
    while (p->i < p->n) {
        char c = p->s[p->i];
        if (c == '\n')
            ++p->line;
        else if (c != ' ' && c != '\t' && c != '\r')
            return;
        ++p->i;
    }
}

static int32_t new_value(akj_parser *p, int32_t type)
{
    akj_doc *d = p->doc;
    if (d->count >= AKJ_MAX_VALUES)
        return ak_error_set(p->err, AK_ERR_LIMIT, p->line, "JSON: too many values");
    if (d->count == d->cap) {
        int32_t cap = d->cap ? (d->cap > AKJ_MAX_VALUES / 2 ? AKJ_MAX_VALUES : d->cap * 2) : 256;
        akj_value *v = (akj_value *)realloc(d->v, sizeof(akj_value) * (size_t)cap);
        if (!v) return ak_error_set(p->err, AK_ERR_NOMEM, 0, "out of memory");
        d->v = v;
        d->cap = cap;
    }
    akj_value *v = &d->v[d->count];
    memset(v, 0, sizeof *v);
    v->type = type;
    v->first = v->next = v->key = -1;
    v->line = p->line;
    return d->count++;
}

static int32_t pool_put(akj_parser *p, char c)
{
    akj_doc *d = p->doc;
    if (d->pool_len == d->pool_cap) {
        size_t cap = d->pool_cap ? d->pool_cap * 2 : 1024;
        char *np = (char *)realloc(d->pool, cap);
        if (!np) return ak_error_set(p->err, AK_ERR_NOMEM, 0, "out of memory");
        d->pool = np;
        d->pool_cap = cap;
    }
    d->pool[d->pool_len++] = c;
    return AK_OK;
}

/* UTF-8 bytes of code point cp. */
static int32_t pool_utf8(akj_parser *p, unsigned cp)
{
    int32_t st = AK_OK;
    if (cp < 0x80) return pool_put(p, (char)cp);
    if (cp < 0x800) {
        st |= pool_put(p, (char)(0xC0 | (cp >> 6)));
    } else {
        if (cp < 0x10000)
            st |= pool_put(p, (char)(0xE0 | (cp >> 12)));
        else {
            st |= pool_put(p, (char)(0xF0 | (cp >> 18)));
            st |= pool_put(p, (char)(0x80 | ((cp >> 12) & 0x3F)));
        }
        st |= pool_put(p, (char)(0x80 | ((cp >> 6) & 0x3F)));
    }
    st |= pool_put(p, (char)(0x80 | (cp & 0x3F)));
    return st ? AK_ERR_NOMEM : AK_OK;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
        char c = s[k];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

static int32_t escape(akj_parser *p)
{
    char c = p->s[p->i++];
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k = strchr(from, c);
    if (c && k) return pool_put(p, to[k - from]);
    if (c != 'u' || p->i + 4 > p->n) return fail(p, "bad escape in string");
    unsigned cp;
    if (hex4(p->s + p->i, &cp)) return fail(p, "bad \\u escape");
    p->i += 4;
    if (cp >= 0xD800 && cp < 0xDC00 && p->i + 6 <= p->n && p->s[p->i] == '\\' &&
        p->s[p->i + 1] == 'u') {
        unsigned lo;
        if (hex4(p->s + p->i + 2, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            p->i += 6;
        }
    }
    /* A surrogate left alone has no UTF-8 form (RFC 3629): the text would not be UTF-8. */
    if (cp >= 0xD800 && cp < 0xE000) return fail(p, "lone surrogate in a \\u escape");
    return pool_utf8(p, cp);
}

/* Reads a string at p->i (on the opening quote) into the pool; *offset gets its start. */
static int32_t read_string(akj_parser *p, int32_t *offset)
{
    if (p->doc->pool_len > 0x7fffffff)
        return ak_error_set(p->err, AK_ERR_LIMIT, p->line, "JSON: too much text");
    *offset = (int32_t)p->doc->pool_len;
    ++p->i;
    while (p->i < p->n) {
        char c = p->s[p->i++];
        int32_t st;
        if (c == '"') return pool_put(p, '\0');
        if ((unsigned char)c < 0x20) return fail(p, "control character in string");
        if ((unsigned char)c >= 0x80) { /* RFC 8259: JSON text is UTF-8; copy whole sequences */
            const size_t at = p->i - 1;
            const int len = akj_utf8_length((const unsigned char *)p->s + at, p->n - at);
            if (len == 0) return fail(p, "string is not valid UTF-8");
            for (int k = 0; k < len - 1; ++k)
                if ((st = pool_put(p, p->s[at + (size_t)k])) < 0) return st;
            p->i = at + (size_t)len;
            c = p->s[p->i - 1];
        }
        st =
            c == '\\' ? (p->i < p->n ? escape(p) : fail(p, "unterminated string")) : pool_put(p, c);
        if (st < 0) return st;
    }
    return fail(p, "unterminated string");
}

static int32_t parse_value(akj_parser *p, int depth, int32_t *out);

int akj_utf8_length(const unsigned char *p, size_t avail)
{
    if (avail == 0) return 0;
    const unsigned c = p[0];
    if (c < 0x80) return 1;
    int n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if ((size_t)n > avail) return 0;
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F;
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    if (p[1] < lo || p[1] > hi) return 0;
    for (int i = 2; i < n; ++i)
        if (p[i] < 0x80 || p[i] > 0xBF) return 0;
    return n;
}

/* Array or object body after its opening bracket; members linked through `next`. */
static int32_t parse_container(akj_parser *p, int depth, int32_t self, int is_object)
{
    const char close = is_object ? '}' : ']';
    int32_t last = -1;
    skip_space(p);
    if (p->i < p->n && p->s[p->i] == close) {
        ++p->i;
        return AK_OK;
    }
    for (;;) {
        int32_t key = -1, child, st;
        skip_space(p);
        if (is_object) {
            if (p->i >= p->n || p->s[p->i] != '"') return fail(p, "expected a member name");
            if ((st = read_string(p, &key)) < 0) return st;
            skip_space(p);
            if (p->i >= p->n || p->s[p->i] != ':') return fail(p, "expected ':'");
            ++p->i;
        }
        if ((st = parse_value(p, depth + 1, &child)) < 0) return st;
        p->doc->v[child].key = key;
        if (last < 0)
            p->doc->v[self].first = child;
        else
            p->doc->v[last].next = child;
        last = child;
        p->doc->v[self].count++;
        skip_space(p);
        if (p->i >= p->n) return fail(p, is_object ? "unterminated object" : "unterminated array");
        char c = p->s[p->i++];
        if (c == close) return AK_OK;
        if (c != ',') return fail(p, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

/* The index after the digits at s[k..n). */
static size_t skip_digits(const char *s, size_t k, size_t n)
{
    while (k < n && s[k] >= '0' && s[k] <= '9')
        ++k;
    return k;
}

/* 1 when s[0..n) is RFC 8259's number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
 * (strtod alone would also take "01", "1." and "1e"). */
static int number_grammar(const char *s, size_t n)
{
    size_t k = (n > 0 && s[0] == '-') ? 1 : 0, d = k;
    k = (k < n && s[k] == '0') ? k + 1 : skip_digits(s, k, n);
    if (k == d) return 0;
    if (k < n && s[k] == '.') {
        d = k + 1;
        if ((k = skip_digits(s, d, n)) == d) return 0;
    }
    if (k < n && (s[k] == 'e' || s[k] == 'E')) {
        d = (k + 1 < n && (s[k + 1] == '+' || s[k + 1] == '-')) ? k + 2 : k + 1;
        if ((k = skip_digits(s, d, n)) == d) return 0;
    }
    return k == n;
}

static int32_t parse_number(akj_parser *p, int32_t self)
{
    size_t start = p->i, k = p->i;
    if (k < p->n && p->s[k] == '-') ++k;
    size_t digits = k;
    while (k < p->n && ((p->s[k] >= '0' && p->s[k] <= '9') || p->s[k] == '.' || p->s[k] == 'e' ||
                        p->s[k] == 'E' || p->s[k] == '+' || p->s[k] == '-'))
        ++k;
    if (k == digits || k - start > 63 || !number_grammar(p->s + start, k - start))
        return fail(p, "bad number");
    char buf[64];
    memcpy(buf, p->s + start, k - start);
    buf[k - start] = '\0';
    char *end = NULL;
    double v = strtod(buf, &end);
    if (!end || *end != '\0' || !isfinite(v)) return fail(p, "bad number");
    p->doc->v[self].number = v;
    p->i = k;
    return AK_OK;
}

static int32_t parse_value(akj_parser *p, int depth, int32_t *out)
{
    if (depth > AKJ_MAX_DEPTH)
        return ak_error_set(p->err, AK_ERR_LIMIT, p->line, "JSON: nested too deeply");
    skip_space(p);
    if (p->i >= p->n) return fail(p, "unexpected end of input");
    char c = p->s[p->i];
    static const struct {
        const char *word;
        int32_t type;
    } words[3] = {{"null", AKJ_NULL}, {"true", AKJ_TRUE}, {"false", AKJ_FALSE}};
    for (int w = 0; w < 3; ++w) {
        size_t len = strlen(words[w].word);
        if (c == words[w].word[0]) {
            if (p->i + len > p->n || memcmp(p->s + p->i, words[w].word, len) != 0)
                return fail(p, "bad literal");
            p->i += len;
            return (*out = new_value(p, words[w].type)) < 0 ? *out : AK_OK;
        }
    }
    int32_t type = c == '{'   ? AKJ_OBJECT
                   : c == '[' ? AKJ_ARRAY
                   : c == '"' ? AKJ_STRING
                              : AKJ_NUMBER;
    int32_t self = new_value(p, type);
    if (self < 0) return self;
    *out = self;
    if (type == AKJ_STRING) {
        int32_t off = 0, st = read_string(p, &off);
        p->doc->v[self].str = off;
        return st;
    }
    if (type == AKJ_NUMBER) return parse_number(p, self);
    ++p->i;
    return parse_container(p, depth, self, type == AKJ_OBJECT);
}

int32_t akj_parse(const char *text, size_t len, akj_doc *doc, ak_error *err)
{
    memset(doc, 0, sizeof *doc);
    if (!text) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null JSON text");
    akj_parser p = {text, len, 0, 1, doc, err};
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        p.i = 3;
    int32_t root, st = parse_value(&p, 0, &root);
    if (st >= 0) {
        skip_space(&p);
        if (p.i != p.n) st = fail(&p, "unexpected text after the document");
    }
    if (st < 0) akj_free(doc);
    return st < 0 ? st : AK_OK;
}

void akj_free(akj_doc *doc)
{
    if (!doc) return;
    free(doc->v);
    free(doc->pool);
    memset(doc, 0, sizeof *doc);
}

int32_t akj_type(const akj_doc *d, int32_t v)
{
    return v >= 0 && v < d->count ? d->v[v].type : AKJ_NULL;
}

int32_t akj_get(const akj_doc *d, int32_t obj, const char *key)
{
    if (akj_type(d, obj) != AKJ_OBJECT) return -1;
    for (int32_t c = d->v[obj].first; c >= 0; c = d->v[c].next)
        if (strcmp(d->pool + d->v[c].key, key) == 0) return c;
    return -1;
}

int32_t akj_at(const akj_doc *d, int32_t arr, int32_t i)
{
    if (akj_type(d, arr) != AKJ_ARRAY || i < 0) return -1;
    int32_t c = d->v[arr].first;
    while (c >= 0 && i-- > 0)
        c = d->v[c].next;
    return c;
}

const char *akj_string(const akj_doc *d, int32_t v)
{
    return akj_type(d, v) == AKJ_STRING ? d->pool + d->v[v].str : NULL;
}

const char *akj_key(const akj_doc *d, int32_t v)
{
    return v >= 0 && v < d->count && d->v[v].key >= 0 ? d->pool + d->v[v].key : NULL;
}

double akj_number(const akj_doc *d, int32_t v, double fallback)
{
    return akj_type(d, v) == AKJ_NUMBER ? d->v[v].number : fallback;
}
