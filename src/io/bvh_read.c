/* BVH reader: the whole file in memory, one pass over the hierarchy, one pass over the
 * motion lines with a hand-written number parser, then skeleton + clip.
 *
 * Grammar accepted (keywords case-insensitive, any whitespace, LF / CRLF / CR lines):
 *   HIERARCHY
 *   ROOT name { body }            (one or more roots)
 *   body := OFFSET x y z | CHANNELS n kind... | JOINT name { body } | End Site { OFFSET x y z }
 *   MOTION
 *   Frames: N
 *   Frame Time: T
 *   N lines of exactly (sum of channel counts) numbers
 * Files whose frame lines disagree with Frames: read as Blender reads them (every complete
 * frame line; a last line without a line break is dropped when the file ends early, as it
 * may be cut mid-number) with a warning carrying the line; see bvh.h.
 * A joint name is the rest of its line (so names may hold spaces, ':', '.', '-').
 * Memory is never sized from a header count alone: the frame buffer is capped by what the
 * remaining bytes can hold (each value needs at least one byte). */
#include "animkit/bvh.h"
#include "anim/reach.h"
#include "io/bvh_internal.h"
#include "io/bvh_number.h"
#include "io/file.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bvh_joint {
    char name[AK_NAME_MAX];
    int32_t parent;
    int32_t line; /* line of ROOT/JOINT/End Site, for messages */
    ak_vec3 offset;
    ak_channel_layout layout;
    int32_t first_value; /* index of the joint's first channel in a frame line */
    uint8_t is_end_site;
    uint8_t has_offset;
    uint8_t has_channels;
} bvh_joint;

typedef struct bvh_parser {
    const char *p, *end;
    const char *line_start;
    int32_t line;
    ak_error *err;
    ak_bvh_read_params limits;
    bvh_joint *joints;
    int32_t joint_count, joint_cap;
    int32_t values_per_frame;
    int32_t frames_declared;
    int32_t frames_line; /* line of "Frames:" */
    double frame_time;
    float *values; /* frames_read * values_per_frame */
    int32_t frames_read;
    int32_t warn_line;  /* 0: no warning */
    char warn_msg[200]; /* the warning, when warn_line > 0 */
    char up_msg[160];   /* the up axis's warning (ak_up_describe), "" for none */
} bvh_parser;

/* ---- errors ---- */

static int32_t fail_at(bvh_parser *ps, int32_t status, int32_t line, const char *where,
                       const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int32_t fail_at(bvh_parser *ps, int32_t status, int32_t line, const char *where,
                       const char *fmt, ...)
{
    char msg[224];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ak_error_set(ps->err, status, line, "%s", msg);
    if (ps->err && where && where >= ps->line_start && line == ps->line)
        ps->err->column = (int32_t)(where - ps->line_start) + 1;
    return status;
}

/* Copies up to 24 bytes of the token at [s, e) into buf for messages, printable only. */
static const char *quote(const char *s, const char *e, char buf[32])
{
    size_t n = 0;
    for (; s < e && n < 24; ++s) {
        unsigned char c = (unsigned char)*s;
        buf[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    if (s < e) {
        buf[n++] = '.';
        buf[n++] = '.';
        buf[n++] = '.';
    }
    buf[n] = '\0';
    return buf;
}

/* ---- lexing ---- */

AK_INLINE int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}
AK_INLINE int is_space(char c)
{
    return is_blank(c) || c == '\n' || c == '\r';
}

/* Consumes one line break at p ('\n', "\r\n" or a lone '\r') and counts it. */
AK_INLINE void eat_newline(bvh_parser *ps)
{
    if (*ps->p == '\r') {
        ++ps->p;
        if (ps->p < ps->end && *ps->p == '\n') ++ps->p;
    } else {
        ++ps->p;
    }
    ++ps->line;
    ps->line_start = ps->p;
}

static void skip_space(bvh_parser *ps)
{
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == '\n' || c == '\r')
            eat_newline(ps);
        else if (is_blank(c))
            ++ps->p;
        else
            break;
    }
}

typedef struct token {
    const char *s, *e;
    int32_t line;
} token;

/* Next whitespace-separated token; '{' and '}' are tokens of their own. Empty at EOF. */
static token next_token(bvh_parser *ps)
{
    token t;
    skip_space(ps);
    t.s = ps->p;
    t.line = ps->line;
    if (ps->p < ps->end && (*ps->p == '{' || *ps->p == '}')) {
        ++ps->p;
    } else {
        while (ps->p < ps->end && !is_space(*ps->p) && *ps->p != '{' && *ps->p != '}')
            ++ps->p;
    }
    t.e = ps->p;
    return t;
}

static int tok_is(token t, const char *kw)
{
    size_t n = strlen(kw);
    if ((size_t)(t.e - t.s) != n) return 0;
    for (size_t i = 0; i < n; ++i) {
        char a = t.s[i], b = kw[i];
        if (a >= 'a' && a <= 'z') a = (char)(a - 'a' + 'A');
        if (b >= 'a' && b <= 'z') b = (char)(b - 'a' + 'A');
        if (a != b) return 0;
    }
    return 1;
}

static int tok_empty(token t)
{
    return t.s == t.e;
}

/* The whole token must be a finite number. */
static int32_t tok_number(bvh_parser *ps, token t, const char *what, double *out)
{
    char q[32];
    if (tok_empty(t))
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "file ends where %s was expected", what);
    const char *e = akbvh_parse_number(t.s, t.e, out);
    if (!e || e != t.e) {
        char c = *t.s == '-' || *t.s == '+' ? t.s[t.e - t.s > 1] : *t.s;
        if (c == 'n' || c == 'N' || c == 'i' || c == 'I' || (e && *e == '#'))
            return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "%s is not finite: '%s'", what,
                           quote(t.s, t.e, q));
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "expected %s, found '%s'", what,
                       quote(t.s, t.e, q));
    }
    if (!isfinite(*out) || !isfinite((float)*out))
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "%s is out of range: '%s'", what,
                       quote(t.s, t.e, q));
    return AK_OK;
}

/* A non-negative decimal integer token (no sign, no fraction). */
static int32_t tok_count(bvh_parser *ps, token t, const char *what, int64_t cap, int64_t *out)
{
    char q[32];
    if (tok_empty(t))
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "file ends where %s was expected", what);
    int64_t v = 0;
    for (const char *c = t.s; c < t.e; ++c) {
        if (!akbvh_is_digit(*c))
            return fail_at(ps, AK_ERR_PARSE, t.line, t.s,
                           "%s must be a non-negative integer, found '%s'", what,
                           quote(t.s, t.e, q));
        if (v <= cap) v = v * 10 + (*c - '0');
    }
    *out = v; /* > cap means "more than cap" whatever the digits were */
    return AK_OK;
}

/* ---- hierarchy ---- */

static int32_t add_joint(bvh_parser *ps, int32_t parent, int32_t line, const char *at)
{
    if (ps->joint_count >= ps->limits.max_joints)
        return fail_at(ps, AK_ERR_LIMIT, line, at, "more than %d joints (End Sites included)",
                       (int)ps->limits.max_joints);
    if (ps->joint_count == ps->joint_cap) {
        int32_t cap = ps->joint_cap ? ps->joint_cap * 2 : 64;
        if (cap > ps->limits.max_joints) cap = ps->limits.max_joints;
        bvh_joint *j = (bvh_joint *)realloc(ps->joints, sizeof(bvh_joint) * (size_t)cap);
        if (!j) return fail_at(ps, AK_ERR_NOMEM, line, at, "out of memory");
        ps->joints = j;
        ps->joint_cap = cap;
    }
    bvh_joint *j = &ps->joints[ps->joint_count++];
    memset(j, 0, sizeof *j);
    j->parent = parent;
    j->line = line;
    return AK_OK;
}

/* Joint names must be unique (ak_skeleton_find, the humanoid map and the CSV columns go by
 * name). Checked once the hierarchy is read, through an open-addressing hash of the names
 * (FNV-1a), so large limits stay linear; the error points at the second occurrence. */
static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; ++s)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static int32_t check_unique_names(bvh_parser *ps)
{
    size_t cap = 16;
    while (cap < (size_t)ps->joint_count * 2)
        cap *= 2;
    int32_t *slots = (int32_t *)malloc(sizeof(int32_t) * cap);
    if (!slots) return ak_error_set(ps->err, AK_ERR_NOMEM, 0, "out of memory");
    for (size_t i = 0; i < cap; ++i)
        slots[i] = -1;
    int32_t st = AK_OK;
    for (int32_t j = 0; j < ps->joint_count && st == AK_OK; ++j) {
        const bvh_joint *bj = &ps->joints[j];
        size_t i = name_hash(bj->name) & (cap - 1);
        while (slots[i] >= 0) {
            const bvh_joint *other = &ps->joints[slots[i]];
            if (strcmp(other->name, bj->name) == 0) {
                st =
                    ak_error_set(ps->err, AK_ERR_PARSE, bj->line,
                                 bj->is_end_site ? "End Site name '%s' is already a joint (line %d)"
                                                 : "duplicate joint name '%s' (first on line %d)",
                                 bj->name, (int)other->line);
                break;
            }
            i = (i + 1) & (cap - 1);
        }
        slots[i] = j;
    }
    free(slots);
    return st;
}

/* Reads the joint name: the rest of the line, trimmed. A trailing '{' opens the block. */
static int32_t read_name(bvh_parser *ps, const char *keyword, char name[AK_NAME_MAX],
                         int *brace_open)
{
    while (ps->p < ps->end && is_blank(*ps->p))
        ++ps->p;
    const char *s = ps->p;
    while (ps->p < ps->end && *ps->p != '\n' && *ps->p != '\r')
        ++ps->p;
    const char *e = ps->p;
    while (e > s && is_blank(e[-1]))
        --e;
    *brace_open = 0;
    if (e > s && e[-1] == '{') {
        *brace_open = 1;
        --e;
        while (e > s && is_blank(e[-1]))
            --e;
    }
    if (e == s) return fail_at(ps, AK_ERR_PARSE, ps->line, s, "%s without a name", keyword);
    for (const char *c = s; c < e; ++c) {
        unsigned char ch = (unsigned char)*c;
        if (ch == '{' || ch == '}' || ch < 0x20 || ch == 0x7f) {
            char q[32];
            return fail_at(ps, AK_ERR_PARSE, ps->line, c, "bad character in joint name '%s'",
                           quote(s, e, q));
        }
    }
    if ((size_t)(e - s) >= AK_NAME_MAX) {
        char q[32];
        return fail_at(ps, AK_ERR_PARSE, ps->line, s, "joint name '%s' is longer than %d bytes",
                       quote(s, e, q), AK_NAME_MAX - 1);
    }
    memcpy(name, s, (size_t)(e - s));
    name[e - s] = '\0';
    return AK_OK;
}

static int32_t expect_open_brace(bvh_parser *ps, int brace_open, const char *what)
{
    if (brace_open) return AK_OK;
    token t = next_token(ps);
    if (t.e - t.s == 1 && *t.s == '{') return AK_OK;
    char q[32];
    if (tok_empty(t))
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "file ends where '{' after %s was expected",
                       what);
    return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "expected '{' after %s, found '%s'", what,
                   quote(t.s, t.e, q));
}

static int channel_kind(token t)
{
    static const char *const names[6] = {"Xposition", "Yposition", "Zposition",
                                         "Xrotation", "Yrotation", "Zrotation"};
    for (int k = 0; k < 6; ++k)
        if (tok_is(t, names[k])) return k;
    return -1;
}

static int32_t parse_offset(bvh_parser *ps, bvh_joint *j, token kw)
{
    if (j->has_offset)
        return fail_at(ps, AK_ERR_PARSE, kw.line, kw.s, "second OFFSET in joint '%s'", j->name);
    double v[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < 3; ++i) {
        int32_t st = tok_number(ps, next_token(ps), "an OFFSET value", &v[i]);
        if (st) return st;
    }
    j->offset.x = (float)v[0];
    j->offset.y = (float)v[1];
    j->offset.z = (float)v[2];
    j->has_offset = 1;
    return AK_OK;
}

static int32_t parse_channels(bvh_parser *ps, bvh_joint *j, token kw)
{
    char q[32];
    if (j->has_channels)
        return fail_at(ps, AK_ERR_PARSE, kw.line, kw.s, "second CHANNELS line in joint '%s'",
                       j->name);
    token ct = next_token(ps);
    int64_t count = 0;
    int32_t st = tok_count(ps, ct, "the CHANNELS count", 100, &count);
    if (st) return st;
    if (count > 6)
        return fail_at(ps, AK_ERR_PARSE, ct.line, ct.s,
                       "joint '%s' has CHANNELS %s: a joint has at most 6 channels", j->name,
                       quote(ct.s, ct.e, q));
    unsigned seen = 0;
    for (int64_t i = 0; i < count; ++i) {
        token t = next_token(ps);
        int k = channel_kind(t);
        if (k < 0) {
            if (tok_empty(t))
                return fail_at(ps, AK_ERR_PARSE, t.line, t.s,
                               "file ends inside the CHANNELS list of '%s'", j->name);
            return fail_at(
                ps, AK_ERR_PARSE, t.line, t.s,
                "CHANNELS of '%s' lists %d names, found '%s' where channel %d was expected",
                j->name, (int)count, quote(t.s, t.e, q), (int)i + 1);
        }
        if (seen & (1u << k))
            return fail_at(ps, AK_ERR_PARSE, t.line, t.s,
                           "channel '%s' appears twice in joint '%s'", quote(t.s, t.e, q), j->name);
        seen |= 1u << k;
        j->layout.kind[i] = (uint8_t)k;
    }
    j->layout.count = (uint8_t)count;
    j->first_value = ps->values_per_frame;
    ps->values_per_frame += (int32_t)count;
    j->has_channels = 1;
    return AK_OK;
}

/* Closes joint `cur`: checks it is complete. */
static int32_t close_joint(bvh_parser *ps, int32_t cur, token t)
{
    bvh_joint *j = &ps->joints[cur];
    if (!j->has_offset)
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "%s '%s' (line %d) has no OFFSET",
                       j->is_end_site ? "End Site of" : "joint",
                       j->is_end_site ? ps->joints[j->parent].name : j->name, (int)j->line);
    if (!j->is_end_site && !j->has_channels)
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "joint '%s' (line %d) has no CHANNELS line",
                       j->name, (int)j->line);
    return AK_OK;
}

/* The file's first word: HIERARCHY, after an optional UTF-8 byte order mark. */
static int32_t expect_hierarchy(bvh_parser *ps)
{
    char q[32];
    if (ps->end - ps->p >= 3 && (unsigned char)ps->p[0] == 0xEF &&
        (unsigned char)ps->p[1] == 0xBB && (unsigned char)ps->p[2] == 0xBF)
        ps->p += 3;
    token t = next_token(ps);
    if (tok_is(t, "HIERARCHY")) return AK_OK;
    if (tok_empty(t))
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "empty file: expected HIERARCHY");
    return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "expected HIERARCHY, found '%s'",
                   quote(t.s, t.e, q));
}

/* The error for a file that ends inside the hierarchy (cur: the innermost open joint). */
static int32_t hierarchy_ends_early(bvh_parser *ps, int32_t cur, token t)
{
    if (cur >= 0) {
        const bvh_joint *j = &ps->joints[cur];
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s,
                       "file ends inside %s '%s' opened on line %d (missing '}' or MOTION)",
                       j->is_end_site ? "the End Site of" : "joint",
                       j->is_end_site ? ps->joints[j->parent].name : j->name, (int)j->line);
    }
    return fail_at(ps, AK_ERR_PARSE, t.line, t.s,
                   ps->joint_count ? "file ends before MOTION" : "file ends before ROOT");
}

/* ROOT or JOINT (keyword t) with its name and '{', under the open joint *cur, which it
 * becomes. */
static int32_t open_joint(bvh_parser *ps, int32_t *cur, token t, int is_root)
{
    int32_t st;
    if (is_root && *cur >= 0)
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "ROOT inside joint '%s' (missing '}'?)",
                       ps->joints[*cur].name);
    if (!is_root && *cur < 0)
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "JOINT outside any ROOT");
    if (*cur >= 0 && ps->joints[*cur].is_end_site)
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "an End Site cannot have child joints");
    if ((st = add_joint(ps, *cur, t.line, t.s))) return st;
    const int32_t me = ps->joint_count - 1;
    int brace_open = 0;
    if ((st = read_name(ps, is_root ? "ROOT" : "JOINT", ps->joints[me].name, &brace_open)))
        return st;
    if ((st = expect_open_brace(ps, brace_open, ps->joints[me].name))) return st;
    *cur = me;
    return AK_OK;
}

/* "End Site" (or "EndSite", keyword t) and its '{' under the open joint *cur, which it
 * becomes; named after its parent with "_end". */
static int32_t open_end_site(bvh_parser *ps, int32_t *cur, token t)
{
    char q[32];
    int32_t st;
    if (tok_is(t, "End")) {
        token site = next_token(ps);
        if (!tok_is(site, "Site"))
            return fail_at(ps, AK_ERR_PARSE, site.line, site.s,
                           "expected 'Site' after 'End', found '%s'", quote(site.s, site.e, q));
    }
    if (*cur < 0) return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "End Site outside any joint");
    if (ps->joints[*cur].is_end_site)
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "an End Site cannot contain an End Site");
    if ((st = add_joint(ps, *cur, t.line, t.s))) return st;
    const int32_t me = ps->joint_count - 1;
    bvh_joint *j = &ps->joints[me];
    j->is_end_site = 1;
    j->has_channels = 1;
    j->first_value = ps->values_per_frame;
    const char *parent_name = ps->joints[*cur].name;
    if (strlen(parent_name) + 4 >= AK_NAME_MAX)
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s,
                       "End Site name '%s_end' would be longer than %d bytes", parent_name,
                       AK_NAME_MAX - 1);
    const size_t plen = strlen(parent_name);
    memcpy(j->name, parent_name, plen);
    memcpy(j->name + plen, "_end", 5);
    if ((st = expect_open_brace(ps, 0, "End Site"))) return st;
    *cur = me;
    return AK_OK;
}

/* MOTION (keyword t): every joint closed and at least one; the names must be unique. */
static int32_t end_hierarchy(bvh_parser *ps, int32_t cur, token t)
{
    if (cur >= 0)
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s,
                       "MOTION while joint '%s' (line %d) is still open (missing '}')",
                       ps->joints[cur].name, (int)ps->joints[cur].line);
    if (ps->joint_count == 0)
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "MOTION before any ROOT");
    return check_unique_names(ps);
}

/* The error for a word the hierarchy does not expect where t stands. */
static int32_t unexpected_in_hierarchy(bvh_parser *ps, int32_t cur, token t)
{
    char q[32];
    if (cur < 0)
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "expected ROOT or MOTION, found '%s'",
                       quote(t.s, t.e, q));
    return fail_at(
        ps, AK_ERR_PARSE, t.line, t.s,
        "unexpected '%s' in joint '%s' (expected OFFSET, CHANNELS, JOINT, End Site or '}')",
        quote(t.s, t.e, q), ps->joints[cur].name);
}

/* HIERARCHY up to MOTION: one keyword at a time, `cur` the innermost open joint. */
static int32_t parse_hierarchy(bvh_parser *ps)
{
    int32_t st = expect_hierarchy(ps);
    if (st) return st;
    int32_t cur = -1;
    for (;;) {
        token t = next_token(ps);
        if (tok_empty(t)) return hierarchy_ends_early(ps, cur, t);
        int is_root = tok_is(t, "ROOT");
        if (is_root || tok_is(t, "JOINT")) {
            if ((st = open_joint(ps, &cur, t, is_root))) return st;
        } else if (tok_is(t, "End") || tok_is(t, "EndSite")) {
            if ((st = open_end_site(ps, &cur, t))) return st;
        } else if (tok_is(t, "OFFSET")) {
            if (cur < 0) return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "OFFSET outside any joint");
            if ((st = parse_offset(ps, &ps->joints[cur], t))) return st;
        } else if (tok_is(t, "CHANNELS")) {
            if (cur < 0)
                return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "CHANNELS outside any joint");
            if (ps->joints[cur].is_end_site)
                return fail_at(ps, AK_ERR_PARSE, t.line, t.s,
                               "an End Site cannot have CHANNELS (under '%s')",
                               ps->joints[ps->joints[cur].parent].name);
            if ((st = parse_channels(ps, &ps->joints[cur], t))) return st;
        } else if (t.e - t.s == 1 && *t.s == '}') {
            if (cur < 0)
                return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "unbalanced '}': no joint is open");
            if ((st = close_joint(ps, cur, t))) return st;
            cur = ps->joints[cur].parent;
        } else if (t.e - t.s == 1 && *t.s == '{') {
            return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "unexpected '{'");
        } else if (tok_is(t, "MOTION")) {
            return end_hierarchy(ps, cur, t);
        } else {
            return unexpected_in_hierarchy(ps, cur, t);
        }
    }
}

/* ---- motion ---- */

/* Skips blanks; true when the line ends here (newline or EOF). */
AK_INLINE int at_line_end(bvh_parser *ps)
{
    while (ps->p < ps->end && is_blank(*ps->p))
        ++ps->p;
    return ps->p == ps->end || *ps->p == '\n' || *ps->p == '\r';
}

static int32_t parse_motion_header(bvh_parser *ps)
{
    char q[32];
    token t = next_token(ps);
    /* "Frames:" or "Frames :" */
    if (tok_is(t, "Frames")) {
        token colon = next_token(ps);
        if (!(colon.e - colon.s == 1 && *colon.s == ':'))
            return fail_at(ps, AK_ERR_PARSE, colon.line, colon.s, "expected ':' after Frames");
    } else if (!tok_is(t, "Frames:")) {
        if (tok_empty(t))
            return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "file ends where 'Frames:' was expected");
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "expected 'Frames:', found '%s'",
                       quote(t.s, t.e, q));
    }
    token nt = next_token(ps);
    int64_t frames = 0;
    int32_t st = tok_count(ps, nt, "the frame count", (int64_t)INT32_MAX, &frames);
    if (st) return st;
    if (frames > ps->limits.max_frames)
        return fail_at(ps, AK_ERR_LIMIT, nt.line, nt.s,
                       "Frames: %s is more than the limit of %d frames", quote(nt.s, nt.e, q),
                       (int)ps->limits.max_frames);
    if (frames == 0)
        return fail_at(ps, AK_ERR_PARSE, nt.line, nt.s, "Frames: 0 (the file has no motion)");
    ps->frames_declared = (int32_t)frames;
    ps->frames_line = nt.line;

    /* "Frame Time:", "Frame Time :", "FrameTime:" */
    t = next_token(ps);
    int ok = 0;
    if (tok_is(t, "FrameTime:")) {
        ok = 1;
    } else if (tok_is(t, "Frame")) {
        token t2 = next_token(ps);
        if (tok_is(t2, "Time:")) {
            ok = 1;
        } else if (tok_is(t2, "Time")) {
            token colon = next_token(ps);
            ok = colon.e - colon.s == 1 && *colon.s == ':';
        }
    }
    if (!ok) {
        if (tok_empty(t))
            return fail_at(ps, AK_ERR_PARSE, t.line, t.s,
                           "file ends where 'Frame Time:' was expected");
        return fail_at(ps, AK_ERR_PARSE, t.line, t.s, "expected 'Frame Time:', found '%s'",
                       quote(t.s, t.e, q));
    }
    token ft = next_token(ps);
    if ((st = tok_number(ps, ft, "the frame time", &ps->frame_time))) return st;
    if (!(ps->frame_time > 0.0) || !((float)ps->frame_time > 0.0f))
        return fail_at(ps, AK_ERR_PARSE, ft.line, ft.s, "frame time must be positive, found '%s'",
                       quote(ft.s, ft.e, q));
    /* Clip times are floats: the duration of a looping clip, frames * frame time, must be one. */
    if ((double)ps->frames_declared * ps->frame_time > (double)FLT_MAX)
        return fail_at(ps, AK_ERR_PARSE, ft.line, ft.s,
                       "frame time %s over %d frames is a duration of %g s, beyond what a float "
                       "holds",
                       quote(ft.s, ft.e, q), (int)ps->frames_declared,
                       (double)ps->frames_declared * ps->frame_time);
    if (!at_line_end(ps))
        return fail_at(ps, AK_ERR_PARSE, ps->line, ps->p, "unexpected text after the frame time");
    return AK_OK;
}

/* Keys of the finished clip, against the text that backs them: a quaternion per joint per
 * frame (End Sites and channel-less joints included) and a vector per track. Real files need
 * less than one byte of keys per byte of text; refuse more than 16 (plus 64 MiB), so a small
 * file cannot ask for gigabytes through many channel-less joints. */
static int32_t check_key_budget(bvh_parser *ps, int32_t N, size_t remaining)
{
    int32_t tracks = 0;
    for (int32_t j = 0; j < ps->joint_count; ++j)
        for (int i = 0; i < ps->joints[j].layout.count; ++i)
            if (ps->joints[j].layout.kind[i] <= AK_CH_ZPOS) {
                ++tracks;
                break;
            }
    const uint64_t key_bytes =
        (uint64_t)N * ((uint64_t)ps->joint_count * 16u + (uint64_t)tracks * 12u);
    if (key_bytes > (uint64_t)remaining * 16u + ((uint64_t)64 << 20))
        return fail_at(
            ps, AK_ERR_LIMIT, ps->frames_line, NULL,
            "%d frames x %d joints need %.0f MiB of keys, too much for %.1f MiB of motion text",
            (int)N, (int)ps->joint_count, (double)key_bytes / 1048576.0,
            (double)remaining / 1048576.0);
    return AK_OK;
}

/* Doubles the value buffer (frames, C values each) up to max_frames when frame f does not
 * fit; *cap_frames is its capacity in frames. */
static int32_t grow_values(bvh_parser *ps, int32_t f, size_t max_frames, size_t *cap_frames)
{
    size_t ncap = *cap_frames * 2 < max_frames ? *cap_frames * 2 : max_frames;
    if (ncap <= (size_t)f) ncap = (size_t)f + 1; /* unreachable: max_frames bounds f */
    float *nv = (float *)realloc(ps->values, sizeof(float) * ncap * (size_t)ps->values_per_frame);
    if (!nv) return fail_at(ps, AK_ERR_NOMEM, ps->line, NULL, "out of memory");
    ps->values = nv;
    *cap_frames = ncap;
    return AK_OK;
}

/* Skips blank lines (and the line break ending the previous line), counting lines. */
AK_INLINE const char *skip_blank_lines(bvh_parser *ps, const char *p, const char *end)
{
    while (p < end) {
        char c = *p;
        if (c == '\n') {
            ++p;
            ++ps->line;
            ps->line_start = p;
        } else if (c == '\r') {
            ++p;
            if (p < end && *p == '\n') ++p;
            ++ps->line;
            ps->line_start = p;
        } else if (is_blank(c))
            ++p;
        else
            break;
    }
    return p;
}

/* The error for value c of frame f at p that is not a number (e: where the number parser
 * stopped, NULL when it found none): "not finite" for nan/inf spellings. */
static int32_t value_not_a_number(bvh_parser *ps, const char *p, const char *e, int32_t f,
                                  int32_t c)
{
    char q[32];
    const char *const end = ps->end;
    const char *te = p;
    while (te < end && !is_space(*te))
        ++te;
    char ch = (*p == '-' || *p == '+') && p + 1 < end ? p[1] : *p;
    ps->p = p;
    if (ch == 'n' || ch == 'N' || ch == 'i' || ch == 'I' || (e && e < end && *e == '#'))
        return fail_at(ps, AK_ERR_PARSE, ps->line, p, "frame %d, value %d is not finite: '%s'",
                       (int)f, (int)c + 1, quote(p, te, q));
    return fail_at(ps, AK_ERR_PARSE, ps->line, p, "frame %d, value %d is not a number: '%s'",
                   (int)f, (int)c + 1, quote(p, te, q));
}

/* Reads the values of frame f, one line of ps->values_per_frame numbers starting at *pp, into
 * out; *pp ends at the line break. Wrong counts and values that are no finite float are
 * errors. */
AK_INLINE int32_t read_frame_line(bvh_parser *ps, const char **pp, int32_t f, float *out)
{
    char q[32];
    const int32_t C = ps->values_per_frame;
    const char *p = *pp;
    const char *const end = ps->end;
    for (int32_t c = 0; c < C; ++c) {
        while (p < end && is_blank(*p))
            ++p;
        if (p == end || *p == '\n' || *p == '\r') {
            ps->p = p;
            return fail_at(ps, AK_ERR_PARSE, ps->line, p, "frame %d has %d values, expected %d",
                           (int)f, (int)c, (int)C);
        }
        double v;
        const char *e = akbvh_parse_number(p, end, &v);
        if (!e || (e < end && !is_space(*e))) return value_not_a_number(ps, p, e, f, c);
        float fv = (float)v;
        if (!isfinite(fv)) {
            ps->p = p;
            return fail_at(ps, AK_ERR_PARSE, ps->line, p,
                           "frame %d, value %d is out of range: '%s'", (int)f, (int)c + 1,
                           quote(p, e, q));
        }
        *out++ = fv;
        p = e;
    }
    while (p < end && is_blank(*p))
        ++p;
    if (p < end && *p != '\n' && *p != '\r') {
        ps->p = p;
        return fail_at(ps, AK_ERR_PARSE, ps->line, p, "frame %d has more than %d values", (int)f,
                       (int)C);
    }
    *pp = p;
    return AK_OK;
}

/* After the last frame line only white space may follow; anything else that is not a number
 * is an error. *more is set when a number follows: another frame line. */
static int32_t check_after_frames(bvh_parser *ps, const char *p, int *more)
{
    char q[32];
    *more = 0;
    if (p == ps->end) return AK_OK;
    double v;
    if (akbvh_parse_number(p, ps->end, &v)) {
        *more = 1;
        return AK_OK;
    }
    const char *te = p;
    while (te < ps->end && !is_space(*te))
        ++te;
    ps->p = p;
    return fail_at(ps, AK_ERR_PARSE, ps->line, p, "unexpected '%s' after the last frame",
                   quote(p, te, q));
}

/* Frame lines that disagree with Frames: are read (as Blender does) and warned about. */
static void warn_frame_count(bvh_parser *ps, int32_t line, int dropped_cut_line)
{
    const int32_t N = ps->frames_declared, M = ps->frames_read;
    ps->warn_line = line;
    if (M > N)
        snprintf(ps->warn_msg, sizeof ps->warn_msg,
                 "%d frame lines where Frames: says %d (line %d); read all %d", (int)M, (int)N,
                 (int)ps->frames_line, (int)M);
    else
        snprintf(
            ps->warn_msg, sizeof ps->warn_msg,
            "file ends after %d of %d frames (Frames: says %d)%s; read %d", (int)M, (int)N, (int)N,
            dropped_cut_line ? ", its last line has no line break and was dropped as cut off" : "",
            (int)M);
}

/* Frame f of a file that ends early: the last line read has no line break, so it may be cut
 * mid-number; it is dropped. Returns whether it was. */
static int drop_cut_last_line(bvh_parser *ps, const char *p, int32_t f)
{
    if (f == 0 || p != ps->end) return 0;
    const char c = ps->end[-1];
    if (c == '\n' || c == '\r' || is_blank(c)) return 0;
    ps->frames_read = f - 1;
    return 1;
}

/* The value buffer for the frame lines: grows as lines are read, up to what the remaining
 * bytes can hold (every value takes at least two bytes, a digit and a separator; one for the
 * very last) and the frame limit: never sized from Frames: alone. */
static int32_t open_values(bvh_parser *ps, size_t *max_frames, size_t *cap_frames)
{
    const size_t remaining = (size_t)(ps->end - ps->p);
    int32_t st = check_key_budget(ps, ps->frames_declared, remaining);
    if (st) return st;
    *max_frames = (remaining + 1) / (2 * (size_t)ps->values_per_frame) + 1;
    if (*max_frames > (size_t)ps->limits.max_frames) *max_frames = (size_t)ps->limits.max_frames;
    *cap_frames = *max_frames < 256 ? *max_frames : 256;
    if (*cap_frames > (size_t)ps->frames_declared + 1)
        *cap_frames = (size_t)ps->frames_declared + 1;
    ps->values = (float *)malloc(sizeof(float) * *cap_frames * (size_t)ps->values_per_frame);
    if (!ps->values) return fail_at(ps, AK_ERR_NOMEM, ps->line, NULL, "out of memory");
    return AK_OK;
}

/* The frame lines into ps->values: Frames: says how many; more or fewer complete lines are
 * read with a warning (ps->warn_*), none at all is an error. */
static int32_t parse_frames(bvh_parser *ps)
{
    const int32_t C = ps->values_per_frame;
    const int32_t N = ps->frames_declared;
    if (C == 0)
        return fail_at(ps, AK_ERR_PARSE, ps->frames_line, NULL, "the hierarchy has no channels");
    const size_t remaining = (size_t)(ps->end - ps->p);
    size_t max_frames = 0, cap_frames = 0;
    int32_t st = open_values(ps, &max_frames, &cap_frames);
    if (st) return st;
    const char *p = ps->p;
    const char *const end = ps->end;
    int32_t first_extra_line = 0;
    for (int32_t f = 0;; ++f) {
        p = skip_blank_lines(ps, p, end);
        int more = f < N && p < end;
        if (f >= N && (st = check_after_frames(ps, p, &more))) return st;
        if (!more) {
            ps->p = p;
            if (f == 0)
                return fail_at(ps, AK_ERR_PARSE, ps->line, NULL,
                               "file ends after 0 of %d frames (Frames: says %d)", (int)N, (int)N);
            if (f < N) warn_frame_count(ps, ps->line, drop_cut_last_line(ps, p, f));
            if (f > N) warn_frame_count(ps, first_extra_line, 0);
            if (ps->frames_read == 0)
                return fail_at(ps, AK_ERR_PARSE, ps->line, NULL,
                               "file ends inside the first frame line (Frames: says %d)", (int)N);
            break;
        }
        if (f == N) first_extra_line = ps->line;
        if ((size_t)f >= max_frames)
            return fail_at(ps, AK_ERR_LIMIT, ps->line, p,
                           "more than %d frame lines (Frames: says %d)", (int)max_frames, (int)N);
        if ((size_t)f == cap_frames && (st = grow_values(ps, f, max_frames, &cap_frames)))
            return st;
        if ((st = read_frame_line(ps, &p, f, ps->values + (size_t)f * (size_t)C))) return st;
        ps->frames_read = f + 1;
    }
    return ps->frames_read > N ? check_key_budget(ps, ps->frames_read, remaining) : AK_OK;
}

/* ---- building the skeleton and clip ---- */

/* Rotation of one joint from its channel values (degrees), composed in listed order:
 * channels "Z Y X" give Rz * Ry * Rx. Three distinct axes go through ak_quat_from_euler;
 * fewer (or a joint with only some rotation channels) multiply axis rotations directly. */
typedef struct joint_plan {
    int8_t rot_axis[3];  /* axes (0..2) of the rotation channels in listed order */
    int8_t rot_value[3]; /* their value offsets within the joint's channels */
    int8_t rot_count;
    int8_t pos_value[3]; /* value offset of X/Y/Z position, -1 when absent */
    int8_t has_pos;
    int8_t order; /* ak_rot_order when rot_count == 3, else -1 */
} joint_plan;

static joint_plan make_plan(const bvh_joint *j)
{
    joint_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.pos_value[0] = pl.pos_value[1] = pl.pos_value[2] = -1;
    pl.order = -1;
    for (int i = 0; i < j->layout.count; ++i) {
        int k = j->layout.kind[i];
        if (k <= AK_CH_ZPOS) {
            pl.pos_value[k] = (int8_t)i;
            pl.has_pos = 1;
        } else {
            pl.rot_axis[pl.rot_count] = (int8_t)(k - AK_CH_XROT);
            pl.rot_value[pl.rot_count] = (int8_t)i;
            ++pl.rot_count;
        }
    }
    if (pl.rot_count == 3) {
        char name[4] = {(char)('X' + pl.rot_axis[0]), (char)('X' + pl.rot_axis[1]),
                        (char)('X' + pl.rot_axis[2]), '\0'};
        ak_rot_order o;
        if (ak_rot_order_parse(name, &o) == 0) pl.order = (int8_t)o;
    }
    return pl;
}

/* Degrees to radians. Angles beyond one turn are first reduced to (-360, 360) in double
 * (fmod is exact), which keeps the float argument of sin/cos small for angles like 530 or
 * 1e6 degrees; the common case skips the slow fmod. */
AK_INLINE float deg_to_rad(float deg)
{
    double d = (double)deg;
    if (d > 360.0 || d < -360.0) d = fmod(d, 360.0);
    return (float)(d * (3.14159265358979323846 / 180.0));
}

/* Every frame's channel values as the clip's rotation and translation keys. */
static void fill_keys(const bvh_parser *ps, const joint_plan *plans, ak_clip *clip)
{
    const int32_t n = ps->joint_count;
    const int32_t C = ps->values_per_frame;
    for (int32_t f = 0; f < ps->frames_read; ++f) {
        const float *row = ps->values + (size_t)f * (size_t)C;
        ak_quat *rot = clip->rotations + (size_t)f * (size_t)n;
        ak_vec3 *tr = clip->translations + (size_t)f * (size_t)clip->track_count;
        for (int32_t j = 0; j < n; ++j) {
            const joint_plan *pl = &plans[j];
            const float *v = row + ps->joints[j].first_value;
            if (pl->order >= 0) {
                float a[3];
                for (int i = 0; i < 3; ++i)
                    a[pl->rot_axis[i]] = deg_to_rad(v[pl->rot_value[i]]);
                rot[j] =
                    ak_quat_from_euler(ak_vec3_make(a[0], a[1], a[2]), (ak_rot_order)pl->order);
            } else if (pl->rot_count > 0) {
                ak_quat q = ak_quat_identity();
                for (int i = 0; i < pl->rot_count; ++i) {
                    ak_vec3 axis = ak_vec3_make(pl->rot_axis[i] == 0, pl->rot_axis[i] == 1,
                                                pl->rot_axis[i] == 2);
                    q = ak_quat_mul(q,
                                    ak_quat_from_axis_angle(axis, deg_to_rad(v[pl->rot_value[i]])));
                }
                rot[j] = q;
            }
            if (pl->has_pos) {
                /* Position channels replace the OFFSET; a missing axis keeps the OFFSET's. */
                ak_vec3 t = ps->joints[j].offset;
                if (pl->pos_value[0] >= 0) t.x = v[pl->pos_value[0]];
                if (pl->pos_value[1] >= 0) t.y = v[pl->pos_value[1]];
                if (pl->pos_value[2] >= 0) t.z = v[pl->pos_value[2]];
                tr[clip->joint_track[j]] = t;
            }
        }
    }
}

/* Positions must stay finite floats: see anim/reach.h. */
static int32_t check_reach(bvh_parser *ps, const ak_skeleton *skeleton, const ak_clip *clip)
{
    double reach = 0.0;
    const int32_t j = akanim_first_joint_beyond(skeleton, clip, AK_MAX_REACH, &reach);
    if (j == -2) return ak_error_set(ps->err, AK_ERR_NOMEM, 0, "out of memory");
    if (j < 0) return AK_OK;
    return ak_error_set(ps->err, AK_ERR_PARSE, ps->joints[j].line,
                        "joint '%s': offsets and positions along its chain add up to %g, so its "
                        "positions would overflow (limit %g)",
                        ps->joints[j].name, reach, AK_MAX_REACH);
}

static int32_t build(bvh_parser *ps, ak_skeleton **out_skeleton, ak_clip **out_clip)
{
    const int32_t n = ps->joint_count;
    int32_t st = AK_OK;
    const char **names = (const char **)malloc(sizeof(char *) * (size_t)n);
    int32_t *parents = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    ak_xform *rest = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)n);
    ak_channel_layout *layouts = (ak_channel_layout *)malloc(sizeof(ak_channel_layout) * (size_t)n);
    uint8_t *end_site = (uint8_t *)malloc((size_t)n);
    uint8_t *has_translation = (uint8_t *)malloc((size_t)n);
    joint_plan *plans = (joint_plan *)malloc(sizeof(joint_plan) * (size_t)n);
    ak_skeleton *skeleton = NULL;
    ak_clip *clip = NULL;
    if (!names || !parents || !rest || !layouts || !end_site || !has_translation || !plans) {
        st = ak_error_set(ps->err, AK_ERR_NOMEM, 0, "out of memory");
        goto done;
    }
    for (int32_t j = 0; j < n; ++j) {
        const bvh_joint *bj = &ps->joints[j];
        names[j] = bj->name;
        parents[j] = bj->parent;
        rest[j].rotation = ak_quat_identity();
        rest[j].translation = bj->offset;
        layouts[j] = bj->layout;
        end_site[j] = bj->is_end_site;
        plans[j] = make_plan(bj);
        has_translation[j] = (uint8_t)plans[j].has_pos;
    }
    ak_skeleton_desc desc;
    desc.joint_count = n;
    desc.names = names;
    desc.parents = parents;
    desc.rest_local = rest;
    desc.channels = layouts;
    desc.is_end_site = end_site;
    if ((st = ak_skeleton_create(&desc, &skeleton, ps->err))) goto done;
    if ((st = ak_clip_create(n, ps->frames_read, (float)ps->frame_time, has_translation, &clip,
                             ps->err)))
        goto done;

    fill_keys(ps, plans, clip);
    if ((st = check_reach(ps, skeleton, clip))) goto done;
    ak_clip_finalize(clip);
    *out_skeleton = skeleton;
    *out_clip = clip;
    skeleton = NULL;
    clip = NULL;
done:
    ak_skeleton_destroy(skeleton);
    ak_clip_destroy(clip);
    free(names);
    free(parents);
    free(rest);
    free(layouts);
    free(end_site);
    free(has_translation);
    free(plans);
    return st;
}

/* The up axis (ak_bvh_read_params.up): a rig standing along +Z turned to Y-up, and what was
 * measured said in ps->up_msg (ak_up_describe). */
static int32_t stand_up(bvh_parser *ps, ak_skeleton *skeleton, ak_clip *clip)
{
    ps->up_msg[0] = '\0';
    if (ps->limits.up == AK_UP_Y) return AK_OK;
    ak_up_report r;
    const int32_t st = ak_clip_up_apply(skeleton, clip, ps->limits.up, &r);
    if (st == AK_ERR_NOMEM) return ak_error_set(ps->err, st, 0, "out of memory");
    if (st != AK_OK) return ak_error_set(ps->err, st, 0, "the up axis: invalid argument");
    ak_up_describe(&r, ps->up_msg, sizeof ps->up_msg);
    return AK_OK;
}

/* UTF-16 text: a byte order mark, or ASCII in 16-bit units over the first 8 units (every
 * other byte 0, the others not), e.g. "HIERARCHY" saved as UTF-16. One leading 0x00 byte
 * is binary, not UTF-16. */
static int looks_utf16(const unsigned char *u, size_t n)
{
    if (n >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF))) return 1;
    if (n < 16) return 0;
    int le = 1, be = 1;
    for (size_t i = 0; i < 16; i += 2) {
        le &= u[i] != 0 && u[i] < 0x80 && u[i + 1] == 0;
        be &= u[i] == 0 && u[i + 1] != 0 && u[i + 1] < 0x80;
    }
    return le || be;
}

int32_t akbvh_check_text(const char *data, size_t size, ak_error *err)
{
    const size_t n = size < AKBVH_TEXT_PROBE ? size : AKBVH_TEXT_PROBE;
    const unsigned char *u = (const unsigned char *)data;
    int32_t line = 1, column = 1;
    for (size_t i = 0; i < n; ++i, ++column) {
        const unsigned char c = u[i];
        if (c == '\n') {
            ++line;
            column = 0;
        }
        if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') continue;
        const int utf16 = looks_utf16(u, n);
        ak_error_set(err, AK_ERR_PARSE, line, "binary data (byte 0x%02x), not BVH text%s", c,
                     utf16 ? ": the file looks like UTF-16; save it as UTF-8" : "");
        if (err) err->column = column;
        return AK_ERR_PARSE;
    }
    return AK_OK;
}

int32_t ak_bvh_read_memory(const char *text, size_t size, const ak_bvh_read_params *limits,
                           ak_skeleton **out_skeleton, ak_clip **out_clip, ak_error *err)
{
    if (out_skeleton) *out_skeleton = NULL;
    if (out_clip) *out_clip = NULL;
    if ((!text && size) || !out_skeleton || !out_clip)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument to ak_bvh_read_memory");
    bvh_parser ps;
    memset(&ps, 0, sizeof ps);
    ps.limits = limits ? *limits : ak_bvh_read_defaults();
    int32_t st = ak_bvh_read_validate(&ps.limits, err);
    if (st) return st;
    if ((uint64_t)size > (uint64_t)ps.limits.max_bytes)
        return ak_error_set(err, AK_ERR_LIMIT, 0,
                            "input of %llu bytes is larger than the limit of %lld bytes",
                            (unsigned long long)size, (long long)ps.limits.max_bytes);
    if (!text) text = "";
    if ((st = akbvh_check_text(text, size, err))) return st;
    ps.p = text;
    ps.end = text + size;
    ps.line_start = text;
    ps.line = 1;
    ps.err = err;
    if (!(st = parse_hierarchy(&ps)) && !(st = parse_motion_header(&ps)) &&
        !(st = parse_frames(&ps)))
        st = build(&ps, out_skeleton, out_clip);
    free(ps.joints);
    free(ps.values);
    if (st == AK_OK) st = stand_up(&ps, *out_skeleton, *out_clip);
    if (st != AK_OK) {
        ak_skeleton_destroy(*out_skeleton);
        ak_clip_destroy(*out_clip);
        *out_skeleton = NULL;
        *out_clip = NULL;
        return st;
    }
    ak_error_clear(err);
    if (ps.warn_line > 0 && ps.up_msg[0])
        ak_error_set(err, AK_OK, ps.warn_line, "%s; %s", ps.warn_msg, ps.up_msg);
    else if (ps.warn_line > 0)
        ak_error_set(err, AK_OK, ps.warn_line, "%s", ps.warn_msg);
    else if (ps.up_msg[0])
        ak_error_set(err, AK_OK, 0, "%s", ps.up_msg);
    return st;
}

int32_t ak_bvh_read_file(const char *path, const ak_bvh_read_params *limits,
                         ak_skeleton **out_skeleton, ak_clip **out_clip, ak_error *err)
{
    if (out_skeleton) *out_skeleton = NULL;
    if (out_clip) *out_clip = NULL;
    if (!path || !out_skeleton || !out_clip)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument to ak_bvh_read_file");
    ak_bvh_read_params l = limits ? *limits : ak_bvh_read_defaults();
    int32_t st = ak_bvh_read_validate(&l, err);
    if (st) return st;
    char *data = NULL;
    size_t size = 0;
    akio_read_params rp = akio_read_defaults();
    rp.max_bytes = l.max_bytes;
    rp.sniff = akbvh_check_text; /* binary input fails on its first kilobyte */
    if ((st = akio_read_file(path, &rp, &data, &size, err))) return st;
    st = ak_bvh_read_memory(data, size, &l, out_skeleton, out_clip, err);
    free(data);
    return st;
}
