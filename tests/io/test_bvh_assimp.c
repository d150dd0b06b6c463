#define _POSIX_C_SOURCE 200809L
/* The BVH files of Debian's assimp-testmodels (a peer project's test corpus, installed under
 * /usr/share/assimp/models/BVH by `make deps`) read, and every joint's position in every frame
 * matches a forward kinematics written here from the BVH definition alone (its own tokenizer,
 * double-precision rotation matrices composed in channel order, position channels replacing
 * the OFFSET), independent of the library's reader, quaternions and FK.
 *
 * Boxing_Toes.bvh has 3,070 frame lines where its Frames: line says 3,069: it reads (as Blender
 * and assimp read it) with a warning naming the line. The test skips with a message when the
 * package is not installed; $AK_ASSIMP_BVH_DIR points elsewhere. */
#include "bvh_test_util.h"
#include "test_util.h"

#define REF_MAX_JOINTS 256

typedef struct ref_joint {
    int parent;
    double offset[3];
    int channels, kind[6]; /* 0..2 position x/y/z, 3..5 rotation x/y/z */
} ref_joint;

typedef struct ref_bvh {
    ref_joint joints[REF_MAX_JOINTS];
    int count, values_per_frame, frames;
    double *values;
} ref_bvh;

/* The hierarchy and the motion values of a BVH text, tokens split on white space. */
static void ref_parse(char *text, ref_bvh *b)
{
    memset(b, 0, sizeof *b);
    char *save = NULL;
    int cur = -1;
    for (char *t = strtok_r(text, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        if (!strcmp(t, "ROOT") || !strcmp(t, "JOINT") || !strcmp(t, "End")) {
            strtok_r(NULL, " \t\r\n", &save); /* the name, or "Site" */
            assert_true(b->count < REF_MAX_JOINTS);
            b->joints[b->count].parent = cur;
            cur = b->count++;
        } else if (!strcmp(t, "}")) {
            cur = b->joints[cur].parent;
        } else if (!strcmp(t, "OFFSET")) {
            for (int i = 0; i < 3; ++i)
                b->joints[cur].offset[i] = strtod(strtok_r(NULL, " \t\r\n", &save), NULL);
        } else if (!strcmp(t, "CHANNELS")) {
            ref_joint *j = &b->joints[cur];
            j->channels = atoi(strtok_r(NULL, " \t\r\n", &save));
            for (int i = 0; i < j->channels; ++i) {
                const char *c = strtok_r(NULL, " \t\r\n", &save);
                j->kind[i] = (c[0] - 'X') + (strstr(c, "rotation") ? 3 : 0);
            }
            b->values_per_frame += j->channels;
        } else if (!strcmp(t, "Time:")) {
            strtok_r(NULL, " \t\r\n", &save);
            break;
        }
    }
    size_t cap = 1024, n = 0;
    b->values = (double *)malloc(sizeof(double) * cap);
    for (char *t = strtok_r(NULL, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == cap) b->values = (double *)realloc(b->values, sizeof(double) * (cap *= 2));
        b->values[n++] = strtod(t, NULL);
    }
    b->frames = (int)(n / (size_t)b->values_per_frame);
    assert_int_equal(n % (size_t)b->values_per_frame, 0);
}

/* out = a * b for 3x3 row-major matrices. */
static void mat_mul(const double a[9], const double b[9], double out[9])
{
    double r[9];
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            r[3 * i + k] = a[3 * i] * b[k] + a[3 * i + 1] * b[3 + k] + a[3 * i + 2] * b[6 + k];
    memcpy(out, r, sizeof r);
}

/* Rotation by deg degrees about axis 0/1/2 (x/y/z), right-handed. */
static void axis_matrix(int axis, double deg, double m[9])
{
    const double a = deg * 3.14159265358979323846 / 180.0, c = cos(a), s = sin(a);
    const int i = (axis + 1) % 3, k = (axis + 2) % 3;
    memset(m, 0, sizeof(double) * 9);
    m[3 * axis + axis] = 1.0;
    m[3 * i + i] = c;
    m[3 * i + k] = -s;
    m[3 * k + i] = s;
    m[3 * k + k] = c;
}

/* World positions of frame f: rotation = channel matrices multiplied in listed order. */
static void ref_positions(const ref_bvh *b, int f, double (*pos)[3])
{
    double rot[REF_MAX_JOINTS][9];
    const double *v = b->values + (size_t)f * (size_t)b->values_per_frame;
    for (int j = 0; j < b->count; ++j) {
        const ref_joint *jt = &b->joints[j];
        double local_t[3] = {jt->offset[0], jt->offset[1], jt->offset[2]};
        double local_r[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, m[9];
        for (int i = 0; i < jt->channels; ++i, ++v) {
            if (jt->kind[i] < 3) {
                local_t[jt->kind[i]] = *v;
            } else {
                axis_matrix(jt->kind[i] - 3, *v, m);
                mat_mul(local_r, m, local_r);
            }
        }
        if (jt->parent < 0) {
            memcpy(rot[j], local_r, sizeof local_r);
            memcpy(pos[j], local_t, sizeof local_t);
            continue;
        }
        const double *pr = rot[jt->parent];
        for (int r = 0; r < 3; ++r)
            pos[j][r] = pos[jt->parent][r] + pr[3 * r] * local_t[0] + pr[3 * r + 1] * local_t[1] +
                        pr[3 * r + 2] * local_t[2];
        mat_mul(pr, local_r, rot[j]);
    }
}

typedef struct assimp_case {
    const char *file;
    int frames;
    int32_t warn_line; /* 0: no warning expected */
    const char *warn;
} assimp_case;

static void bvh_reads_assimp_testmodels_and_matches_an_independent_fk(void **state)
{
    (void)state;
    static const assimp_case cases[] = {
        {"01_01.bvh", 2752, 0, NULL},
        {"01_03.bvh", 4511, 0, NULL},
        {"Boxing_Toes.bvh", 3070, 3199, "3070 frame lines where Frames: says 3069 (line 128)"},
    };
    char probe[1024];
    if (!akt_assimp_bvh(cases[0].file, probe, sizeof probe)) {
        skip();
        return;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", akt_assimp_dir(), cases[i].file);
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        ak_error err;
        if (ak_bvh_read_file(path, NULL, &s, &c, &err) != AK_OK)
            fail_msg("%s:%d: %s", cases[i].file, (int)err.line, err.message);
        if (err.line != cases[i].warn_line ||
            (cases[i].warn && !strstr(err.message, cases[i].warn)))
            fail_msg("%s: warning line %d '%s', expected line %d '%s'", cases[i].file,
                     (int)err.line, err.message, (int)cases[i].warn_line,
                     cases[i].warn ? cases[i].warn : "");
        assert_int_equal(c->frame_count, cases[i].frames);

        char *text = slurp(path, NULL);
        ref_bvh ref;
        ref_parse(text, &ref);
        assert_int_equal(ref.count, s->joint_count);
        assert_int_equal(ref.frames, c->frame_count);
        ak_vec3 *got = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)s->joint_count);
        double(*want)[3] = (double(*)[3])malloc(sizeof(double[3]) * (size_t)ref.count);
        double worst = 0.0, extent = 0.0;
        for (int f = 0; f < ref.frames; ++f) {
            world_positions(s, c, f, got);
            ref_positions(&ref, f, want);
            for (int j = 0; j < ref.count; ++j) {
                const double d[3] = {got[j].x - want[j][0], got[j].y - want[j][1],
                                     got[j].z - want[j][2]};
                const double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                const double r = sqrt(want[j][0] * want[j][0] + want[j][1] * want[j][1] +
                                      want[j][2] * want[j][2]);
                if (!(dist <= worst)) worst = dist;
                if (r > extent) extent = r;
            }
        }
        /* Float keys and FK against double: a few float epsilons (1.2e-7) of the distance from
         * the origin per joint of a chain about ten deep. */
        print_message("%s: %d frames, worst %.3g of %.3g (%.2g relative)\n", cases[i].file,
                      ref.frames, worst, extent, worst / extent);
        assert_true(worst <= 1e-5 * extent);
        free(got);
        free(want);
        free(ref.values);
        free(text);
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bvh_reads_assimp_testmodels_and_matches_an_independent_fk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
