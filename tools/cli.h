/* animkit CLI — shared helpers for the subcommands (one file per command: cmd_*.c). */
#ifndef AK_TOOLS_CLI_H
#define AK_TOOLS_CLI_H

#include "animkit/animkit.h"
#include "animkit/scenario.h" /* libanimkit_scenario: flag tables */

#include <stdio.h>

/* Each subcommand: argv[0] is the command name; returns the process exit code
 * (0 success, 1 runtime/input error, 2 usage error). */
typedef int (*ak_cli_command_fn)(int argc, char **argv);

int ak_cmd_info(int argc, char **argv);
int ak_cmd_positions(int argc, char **argv);
int ak_cmd_convert(int argc, char **argv);
int ak_cmd_edit(int argc, char **argv);
int ak_cmd_ik(int argc, char **argv);
int ak_cmd_walk(int argc, char **argv);
int ak_cmd_render(int argc, char **argv);
int ak_cmd_retarget(int argc, char **argv);

/* Prints "animkit CMD: message" to stderr; returns 2 (usage error). */
int ak_cli_usage_error(const char *cmd, const char *fmt, ...);
/* Prints "FILE:LINE: reason" (or "FILE: reason" with no line) to stderr; returns 1. */
int ak_cli_file_error(const char *path, const ak_error *err);
/* Prints "path:line: warning: message" to stderr when a successful read left a warning in
 * `err` (status AK_OK, non-empty message; the BVH reader's frame-count warnings). */
void ak_cli_file_warning(const char *path, const ak_error *err);
/* The front of every command: the table's defaults into params, then argv parsed (at most
 * max_positional non-flag arguments, in r). Returns 1 to go on; 0 when the command is done,
 * with *exit_code 0 after printing `usage` for -h/--help or 2 after a usage error. */
int ak_cli_parse_flags(const ak_flag_table *table, void *params, int argc, char **argv,
                       int32_t max_positional, void (*usage)(FILE *), ak_flags_result *r,
                       int *exit_code);
/* Prints `intro`, the table's options and the -h line: a command's whole --help. */
void ak_cli_print_help(FILE *out, const char *intro, const ak_flag_table *table);
/* Prints a joint name as a CSV field on stdout: quoted (with "" for a quote) only when it holds
 * a comma or a quote. */
void ak_cli_print_csv_field(const char *name);
/* True when argv has -h or --help. */
int ak_cli_wants_help(int argc, char **argv);
/* Parses "x,y,z" into v; returns 0 on success. */
int ak_cli_parse_vec3(const char *s, ak_vec3 *v);
/* Parses "a,b" into two floats; returns 0 on success. */
int ak_cli_parse_vec2(const char *s, float *a, float *b);
/* Parses a float/int with full-string validation; returns 0 on success. A float must be
 * finite as a float (|v| <= FLT_MAX). */
int ak_cli_parse_float(const char *s, float *out);
int ak_cli_parse_int(const char *s, int *out);
/* " (--root-joint)" when `err` is the library's refusal of the root-joint name the user gave
 * (`given` not empty, AK_ERR_NOT_FOUND, the message names it: ak_root_joint_find), else "":
 * the library's message says what is missing, the CLI says which flag gave it. */
const char *ak_cli_root_joint_hint(const ak_error *err, const char *given);
/* True when `s` ends with the lower-case `suffix`, ignoring the case of s (".BVH" ends ".bvh"). */
int ak_cli_ends_with(const char *s, const char *suffix);

#endif
