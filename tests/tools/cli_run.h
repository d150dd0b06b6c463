/* The CLI tests' shared harness: the animkit binary under $AK_BUILD_DIR, an output folder of
 * their own, a command's exit code and last stdout line, and a number from a JSON summary. */
#ifndef AK_TESTS_CLI_RUN_H
#define AK_TESTS_CLI_RUN_H

#include "test_util.h"

#include <sys/wait.h>

static char g_bin[1024], g_out[1024];

/* Fills g_bin and g_out ($AK_BUILD_DIR/test-out/<out_name>, created); -1 without a build. */
static int cli_setup(const char *out_name)
{
    const char *b = getenv("AK_BUILD_DIR");
    if (!b) return -1;
    snprintf(g_bin, sizeof g_bin, "%s/bin/animkit", b);
    snprintf(g_out, sizeof g_out, "%s/test-out/%s", b, out_name);
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", g_out);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs a command, returns its exit code and the last line of stdout. */
static int run(const char *cmd, char *last, size_t size)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[4096];
    last[0] = '\0';
    while (fgets(line, sizeof line, p))
        snprintf(last, size, "%s", line);
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The number after "key": in a one-line JSON object; fails the test when the key is missing. */
static double json_number(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *k = strstr(json, pat);
    if (!k) fail_msg("key %s missing in %s", key, json);
    return strtod(k + strlen(pat), NULL);
}

#endif
