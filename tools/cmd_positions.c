/* animkit positions FILE.bvh [--frames all|LIST] [--time T[,T...]] [--interp step|linear|cubic]
 * World positions of every joint and End Site, in the file's own units and axes, as CSV
 * frame,joint,x,y,z with 9 significant digits: the columns of the reference CSVs. */
#include "cli_bvh.h"
#include "clip_any.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct positions_options {
    char frames[AK_FLAG_TEXT_MAX];
    char time[AK_FLAG_TEXT_MAX];
    int32_t interp; /* ak_interp */
    int32_t up;     /* ak_up_axis: --up */
} positions_options;

static const ak_flag k_positions_flags[] = {
    {.name = "frames",
     .type = AK_FLAG_TEXT,
     .offset = offsetof(positions_options, frames),
     .metavar = "all|LIST",
     .help = "frames to print (default all): 0-based numbers and ranges A:B or A:B:STEP, "
             "ends included, A or B may be left out; e.g. 0,1,100:200:10,343"},
    {.name = "time",
     .type = AK_FLAG_TEXT,
     .offset = offsetof(positions_options, time),
     .metavar = "T[,T...]",
     .help =
         "sample at times in seconds instead, from 0 to the clip's duration (first column 'time')"},
    {.name = "interp",
     .type = AK_FLAG_CHOICE,
     .offset = offsetof(positions_options, interp),
     .def = "linear",
     .choices = "step|linear|cubic",
     .help = "interpolation for --time"},
    AK_CLI_UP_FLAG(offsetof(positions_options, up)),
};
static const ak_flag_table k_positions_table = {
    "positions", k_positions_flags,
    (int32_t)(sizeof k_positions_flags / sizeof k_positions_flags[0])};

static void usage(FILE *out)
{
    ak_cli_print_help(
        out,
        "usage: animkit positions FILE.bvh [--frames all|LIST] [--time T[,T...]]\n"
        "                                  [--interp step|linear|cubic]\n"
        "\n"
        "Prints world positions as CSV 'frame,joint,x,y,z' (9 significant digits), one row\n"
        "per joint and End Site in file order, in the file's own units and axes.\n"
        "\n",
        &k_positions_table);
}

/* Appends frame f to the list, growing it. */
static int push_frame(int32_t **list, size_t *count, size_t *cap, int32_t f)
{
    if (*count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 256;
        int32_t *n = (int32_t *)realloc(*list, ncap * sizeof(int32_t));
        if (!n) return -1;
        *list = n;
        *cap = ncap;
    }
    (*list)[(*count)++] = f;
    return 0;
}

/* Parses an integer in [s, e) (non-empty, digits only) into *out. */
static int parse_index(const char *s, const char *e, int32_t *out)
{
    if (s == e || e - s > 9) return -1;
    int32_t v = 0;
    for (; s < e; ++s) {
        if (*s < '0' || *s > '9') return -1;
        v = v * 10 + (*s - '0');
    }
    *out = v;
    return 0;
}

/* "all" or a LIST (see usage). Returns 0 and a malloc'ed list, or prints a usage error. */
static int parse_frames(const char *spec, int32_t frame_count, int32_t **out, size_t *out_count)
{
    size_t count = 0, cap = 0;
    int32_t *list = NULL;
    const int32_t last = frame_count - 1;
    if (strcmp(spec, "all") == 0) {
        for (int32_t f = 0; f < frame_count; ++f)
            if (push_frame(&list, &count, &cap, f)) goto nomem;
        *out = list;
        *out_count = count;
        return 0;
    }
    const char *p = spec;
    for (;;) {
        const char *item_end = strchr(p, ',');
        if (!item_end) item_end = p + strlen(p);
        const char *c1 = memchr(p, ':', (size_t)(item_end - p));
        int32_t a, b, step = 1;
        if (!c1) {
            if (parse_index(p, item_end, &a)) goto bad;
            b = a;
        } else {
            const char *c2 = memchr(c1 + 1, ':', (size_t)(item_end - c1 - 1));
            const char *b_end = c2 ? c2 : item_end;
            if (p == c1)
                a = 0;
            else if (parse_index(p, c1, &a))
                goto bad;
            if (c1 + 1 == b_end)
                b = last;
            else if (parse_index(c1 + 1, b_end, &b))
                goto bad;
            if (c2 && (parse_index(c2 + 1, item_end, &step) || step < 1)) goto bad;
        }
        if (a > last || b > last) {
            free(list);
            return ak_cli_usage_error("positions",
                                      "--frames %s: frame %d is past the last frame %d", spec,
                                      (int)(a > last ? a : b), (int)last);
        }
        if (b < a) {
            free(list);
            return ak_cli_usage_error("positions", "range %d:%d runs backwards", (int)a, (int)b);
        }
        for (int32_t f = a; f <= b; f += step) {
            if (push_frame(&list, &count, &cap, f)) goto nomem;
            if (b - f < step) break;
        }
        if (*item_end == '\0') break;
        p = item_end + 1;
    }
    *out = list;
    *out_count = count;
    return 0;
bad:
    free(list);
    return ak_cli_usage_error(
        "positions", "bad --frames '%s': use all, N, A:B or A:B:STEP, comma-separated", spec);
nomem:
    free(list);
    fprintf(stderr, "animkit positions: out of memory\n");
    return 1;
}

static void print_rows(const ak_skeleton *s, const ak_xform *world, const char *key)
{
    for (int32_t j = 0; j < s->joint_count; ++j) {
        fputs(key, stdout);
        putchar(',');
        ak_cli_print_csv_field(s->names[j]);
        const ak_vec3 p = world[j].translation;
        printf(",%.9g,%.9g,%.9g\n", (double)p.x, (double)p.y, (double)p.z);
    }
}

/* "T,T,..." seconds -> a malloc'ed array. Returns 0, 1 (out of memory) or 2 (usage error). */
static int parse_times(const char *spec, float **out, size_t *count)
{
    size_t n = 1;
    for (const char *c = spec; *c; ++c)
        n += *c == ',';
    float *times = (float *)malloc(n * sizeof(float));
    char *copy = (char *)malloc(strlen(spec) + 1);
    *count = 0;
    if (!times || !copy) {
        free(times);
        free(copy);
        fprintf(stderr, "animkit positions: out of memory\n");
        return 1;
    }
    strcpy(copy, spec);
    for (char *p = copy;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        if (ak_cli_parse_float(p, &times[*count])) {
            free(times);
            free(copy);
            return ak_cli_usage_error("positions", "bad --time '%s': seconds, comma-separated",
                                      spec);
        }
        if (times[*count] < 0.0f) {
            const double t = (double)times[*count];
            free(times);
            free(copy);
            return ak_cli_usage_error("positions",
                                      "--time %g is before the start of the clip (0 s)", t);
        }
        ++*count;
        if (!comma) break;
        p = comma + 1;
    }
    free(copy);
    *out = times;
    return 0;
}

/* The CSV: at the given times, or at the given frames. Returns the exit code. */
static int print_positions(const ak_skeleton *s, const ak_clip *c, const positions_options *o,
                           const float *times, size_t time_count)
{
    int32_t *frames = NULL;
    size_t frame_count = 0;
    int rc = 0;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count * 2);
    if (!local) {
        fprintf(stderr, "animkit positions: out of memory\n");
        return 1;
    }
    ak_xform *world = local + s->joint_count;
    const float duration = ak_clip_duration(c);
    for (size_t i = 0; i < time_count; ++i)
        if (times[i] > duration * (1.0f + 1e-6f)) {
            free(local);
            return ak_cli_usage_error("positions", "--time %g is past the end of the clip (%.3f s)",
                                      (double)times[i], (double)duration);
        }
    if (times || (rc = parse_frames(o->frames[0] ? o->frames : "all", c->frame_count, &frames,
                                    &frame_count)) == 0) {
        static char outbuf[1 << 16];
        setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
        char key[48];
        printf(times ? "time,joint,x,y,z\n" : "frame,joint,x,y,z\n");
        const size_t rows = times ? time_count : frame_count;
        for (size_t i = 0; i < rows; ++i) {
            if (times)
                ak_clip_sample(c, s, times[i], (ak_interp)o->interp, local);
            else
                ak_clip_frame(c, s, frames[i], local);
            ak_fk(s, local, world);
            if (times)
                snprintf(key, sizeof key, "%.9g", (double)times[i]);
            else
                snprintf(key, sizeof key, "%d", (int)frames[i]);
            print_rows(s, world, key);
        }
        if (fflush(stdout) != 0) {
            fprintf(stderr, "animkit positions: cannot write the output\n");
            rc = 1;
        }
    }
    free(frames);
    free(local);
    return rc;
}

int ak_cmd_positions(int argc, char **argv)
{
    positions_options o;
    ak_flags_result r;
    int exit_code;
    if (!ak_cli_parse_flags(&k_positions_table, &o, argc, argv, 1, usage, &r, &exit_code))
        return exit_code;
    ak_tools_set_up(o.up);
    if (r.positional_count == 0) return ak_cli_usage_error("positions", "missing FILE.bvh");
    if (o.frames[0] && o.time[0])
        return ak_cli_usage_error("positions", "use --frames or --time, not both");
    if (ak_flags_given(&r, &k_positions_table, 0, "interp") && !o.time[0])
        return ak_cli_usage_error("positions", "--interp applies to --time sampling");
    /* Times are checked before the file is read so usage errors come first. */
    float *times = NULL;
    size_t time_count = 0;
    if (o.time[0]) {
        const int prc = parse_times(o.time, &times, &time_count);
        if (prc) return prc;
    }
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    int rc = 1;
    if (!akcli_load_bvh(r.positional[0], &s, &c)) rc = print_positions(s, c, &o, times, time_count);
    free(times);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    return rc;
}
