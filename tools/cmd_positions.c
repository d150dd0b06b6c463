/* animkit positions FILE.bvh [--frames all|LIST] [--time T[,T...]] [--interp step|linear|cubic]
 * World positions of every joint and End Site, in the file's own units and axes, as CSV
 * frame,joint,x,y,z with 9 significant digits: the columns of the reference CSVs. */
#include "cli_bvh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: animkit positions FILE.bvh [--frames all|LIST] [--time T[,T...]]\n"
            "                                  [--interp step|linear|cubic]\n"
            "\n"
            "Prints world positions as CSV 'frame,joint,x,y,z' (9 significant digits), one row\n"
            "per joint and End Site in file order, in the file's own units and axes.\n"
            "\n"
            "  --frames all|LIST   frames to print (default all). LIST is comma-separated\n"
            "                      frame numbers (0-based) and ranges A:B or A:B:STEP, both ends\n"
            "                      included; A or B may be left out (first / last frame).\n"
            "                      Example: --frames 0,1,100:200:10,343\n"
            "  --time T[,T...]     sample at times in seconds instead; the first column is then\n"
            "                      'time'. Times past the end clamp to the last frame.\n"
            "  --interp MODE       step, linear (default) or cubic; used with --time\n"
            "  -h, --help          this help\n");
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
            if (p == c1) a = 0;
            else if (parse_index(p, c1, &a)) goto bad;
            if (c1 + 1 == b_end) b = last;
            else if (parse_index(c1 + 1, b_end, &b)) goto bad;
            if (c2 && (parse_index(c2 + 1, item_end, &step) || step < 1)) goto bad;
        }
        if (a > last || b > last) {
            free(list);
            return ak_cli_usage_error("positions", "frame %d is past the last frame %d", (int)(a > last ? a : b),
                                      (int)last);
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
    return ak_cli_usage_error("positions", "bad --frames '%s': use all, N, A:B or A:B:STEP, comma-separated", spec);
nomem:
    free(list);
    fprintf(stderr, "animkit positions: out of memory\n");
    return 1;
}

/* A joint name as a CSV field: quoted only when it holds a comma or a quote. */
static void print_name(const char *name)
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

static void print_rows(const ak_skeleton *s, const ak_xform *world, const char *key)
{
    for (int32_t j = 0; j < s->joint_count; ++j) {
        fputs(key, stdout);
        putchar(',');
        print_name(s->names[j]);
        const ak_vec3 p = world[j].translation;
        printf(",%.9g,%.9g,%.9g\n", (double)p.x, (double)p.y, (double)p.z);
    }
}

int ak_cmd_positions(int argc, char **argv)
{
    const char *path = NULL, *frames_spec = NULL, *time_spec = NULL, *interp_name = NULL;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--frames") == 0 || strcmp(a, "--time") == 0 || strcmp(a, "--interp") == 0) {
            if (i + 1 >= argc) return ak_cli_usage_error("positions", "%s needs a value", a);
            const char *v = argv[++i];
            if (a[2] == 'f') frames_spec = v;
            else if (a[2] == 't') time_spec = v;
            else interp_name = v;
        } else if (a[0] == '-' && a[1] != '\0') {
            return ak_cli_usage_error("positions", "unknown option '%s'", a);
        } else if (!path) {
            path = a;
        } else {
            return ak_cli_usage_error("positions", "one file at a time ('%s' is extra)", a);
        }
    }
    if (!path) return ak_cli_usage_error("positions", "missing FILE.bvh");
    if (frames_spec && time_spec) return ak_cli_usage_error("positions", "use --frames or --time, not both");
    ak_interp interp = AK_INTERP_LINEAR;
    if (interp_name) {
        if (!time_spec) return ak_cli_usage_error("positions", "--interp applies to --time sampling");
        if (strcmp(interp_name, "step") == 0) interp = AK_INTERP_STEP;
        else if (strcmp(interp_name, "linear") == 0) interp = AK_INTERP_LINEAR;
        else if (strcmp(interp_name, "cubic") == 0) interp = AK_INTERP_CUBIC;
        else return ak_cli_usage_error("positions", "--interp must be step, linear or cubic, not '%s'", interp_name);
    }
    /* Times are checked before the file is read so usage errors come first. */
    float *times = NULL;
    size_t time_count = 0;
    if (time_spec) {
        size_t n = 1;
        for (const char *c = time_spec; *c; ++c) n += *c == ',';
        times = (float *)malloc(n * sizeof(float));
        char *copy = (char *)malloc(strlen(time_spec) + 1);
        if (!times || !copy) {
            free(times);
            free(copy);
            fprintf(stderr, "animkit positions: out of memory\n");
            return 1;
        }
        strcpy(copy, time_spec);
        char *p = copy;
        for (;;) {
            char *comma = strchr(p, ',');
            if (comma) *comma = '\0';
            if (ak_cli_parse_float(p, &times[time_count])) {
                free(times);
                free(copy);
                return ak_cli_usage_error("positions", "bad --time '%s': seconds, comma-separated", time_spec);
            }
            ++time_count;
            if (!comma) break;
            p = comma + 1;
        }
        free(copy);
    }

    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    if (akcli_load_bvh(path, &s, &c)) {
        free(times);
        return 1;
    }
    int rc = 0;
    int32_t *frames = NULL;
    size_t frame_count = 0;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    ak_xform *world = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    if (!local || !world) {
        fprintf(stderr, "animkit positions: out of memory\n");
        rc = 1;
    } else if (!time_spec && (rc = parse_frames(frames_spec ? frames_spec : "all", c->frame_count, &frames,
                                                &frame_count)) != 0) {
        /* usage error printed */
    } else {
        static char outbuf[1 << 16];
        setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
        char key[48];
        if (time_spec) {
            printf("time,joint,x,y,z\n");
            for (size_t i = 0; i < time_count; ++i) {
                ak_clip_sample(c, s, times[i], interp, local);
                ak_fk(s, local, world);
                snprintf(key, sizeof key, "%.9g", (double)times[i]);
                print_rows(s, world, key);
            }
        } else {
            printf("frame,joint,x,y,z\n");
            for (size_t i = 0; i < frame_count; ++i) {
                ak_clip_frame(c, s, frames[i], local);
                ak_fk(s, local, world);
                snprintf(key, sizeof key, "%d", (int)frames[i]);
                print_rows(s, world, key);
            }
        }
        if (fflush(stdout) != 0) {
            fprintf(stderr, "animkit positions: cannot write the output\n");
            rc = 1;
        }
    }
    free(frames);
    free(times);
    free(local);
    free(world);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    return rc;
}
