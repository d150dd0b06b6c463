/* The harness of the generated plugin probes (test_plugin_generated.c, written by
 * tools/gen_plugin_probes.py): the working handles every probe starts from, the scratch
 * memory the pointer arguments point into, and the verdict of each call. */
#ifndef AK_TEST_PLUGIN_PROBE_HARNESS_H
#define AK_TEST_PLUGIN_PROBE_HARNESS_H

#include "test_util.h"
#include "animkit/plugin.h"

#define PROBE_SCRATCH (1 << 20)

static struct {
    ak_handle skeleton, clip, character, foot_ik, retargeter, db, matcher;
    ak_handle out_handle, forged, stale, other_kind;
    char text[256];
    char long_text[4001];
    char names[64];
    char bvh_path[1024];
    const char *bvh_text;
    float *scratch;
    int32_t ints[4096];
    int calls, findings;
} g;

static const char k_probe_bvh[] =
    "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition "
    "Zrotation Xrotation Yrotation\n JOINT Spine\n {\n  OFFSET 0 1 0\n  CHANNELS 3 Zrotation "
    "Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 1 0\n  }\n }\n}\nMOTION\nFrames: 2\n"
    "Frame Time: 0.1\n0 1 0 0 0 0 0 0 0\n0 1 0 0 10 0 0 5 0\n";

static void reset_scratch(void)
{
    memset(g.scratch, 0, PROBE_SCRATCH);
    memset(g.ints, 0, sizeof g.ints);
    g.text[0] = '\0';
    g.out_handle = NULL;
}

/* A refusal says why; a success leaves only finite floats in the outputs. */
static void judge(const char *what, int32_t status, ak_handle handle)
{
    ++g.calls;
    if (status < 0) {
        char msg[256] = "";
        ak_plugin_last_error(handle, msg, sizeof msg);
        if (!msg[0] && !g.text[0]) {
            ++g.findings;
            if (g.findings <= 30)
                print_message("FINDING %s: status %d without a message\n", what, (int)status);
        }
    } else {
        for (int i = 0; i < PROBE_SCRATCH / (int)sizeof(float); ++i)
            if (!isfinite(g.scratch[i])) {
                ++g.findings;
                if (g.findings <= 30)
                    print_message("FINDING %s: AK_OK with a non-finite output (float %d)\n", what,
                                  i);
                break;
            }
    }
    if (status >= 0 && g.out_handle) ak_plugin_destroy(g.out_handle);
}

static void probe_setup(void)
{
    char err[256];
    g.scratch = (float *)calloc(1, PROBE_SCRATCH);
    assert_non_null(g.scratch);
    memset(g.long_text, 'a', sizeof g.long_text - 1);
    snprintf(g.names, sizeof g.names, "Hips");
    akt_mocap_path("cmu_02_01_walk.bvh", g.bvh_path, sizeof g.bvh_path);
    g.bvh_text = k_probe_bvh;
    assert_int_equal(ak_plugin_bvh_load(g.bvh_path, 0.0f, 1, &g.skeleton, &g.clip, err, sizeof err),
                     AK_OK);
    ak_plugin_character_params cp;
    ak_plugin_character_defaults(&cp);
    assert_int_equal(
        ak_plugin_character_create(g.skeleton, g.clip, NULL, &cp, &g.character, err, sizeof err),
        AK_OK);
    ak_plugin_foot_ik_params fp;
    ak_plugin_foot_ik_defaults(&fp);
    assert_int_equal(ak_plugin_foot_ik_create(g.skeleton, g.clip, &fp, &g.foot_ik, err, sizeof err),
                     AK_OK);
    ak_plugin_retarget_params rp;
    ak_plugin_retarget_defaults(&rp);
    assert_int_equal(ak_plugin_retargeter_create(g.skeleton, g.skeleton, NULL, NULL, &rp,
                                                 &g.retargeter, err, sizeof err),
                     AK_OK);
    if (ak_plugin_motion_db_create(g.skeleton, &g.clip, 1, NULL, &g.db, err, sizeof err) == AK_OK) {
        ak_plugin_matcher_params mp;
        ak_plugin_matcher_defaults(&mp);
        ak_plugin_matcher_create(g.db, &mp, &g.matcher, err, sizeof err);
    }
    ak_handle s = NULL, c = NULL;
    assert_int_equal(ak_plugin_bvh_load_memory(k_probe_bvh, (int32_t)strlen(k_probe_bvh), 1.0f, 0,
                                               &s, &c, err, sizeof err),
                     AK_OK);
    ak_plugin_destroy(c);
    ak_plugin_destroy(s);
    g.stale = s;
    g.forged = (ak_handle)(uintptr_t)0xdeadbeefu;
    g.other_kind = g.retargeter;
}

static void probe_report(int functions)
{
    print_message("generated plugin probes: %d calls over %d exports, %d findings\n", g.calls,
                  functions, g.findings);
    assert_int_equal(g.findings, 0);
    free(g.scratch);
}

#endif
