/* Internal: every file animkit opens or writes goes through here (library and tools).
 *
 * - akio_read_file: the one whole-file reader (size limit, a sniff of the head, regular
 *   files only); every reader of the library loads its file through it.
 * - akio_fopen: a UTF-8 path on every platform (Windows: converted to UTF-16, _wfopen), so
 *   "Hüfte/walk.bvh" works from Unity and the CLI alike.
 * - akio_atomic: a checked, atomic replacement of one file. Bytes go to a new temporary file
 *   in the target's own folder (same file system, so the final rename is atomic); every
 *   write, the flush and the close are checked; the data is fsync'ed; then the temporary is
 *   renamed over the target (MoveFileExW with MOVEFILE_REPLACE_EXISTING on Windows). Until
 *   the rename, the old file is untouched: a kill, a full disk or an error leaves it whole.
 *   A symlinked target is resolved first (the link stays a link). A target that exists and
 *   is not a regular file (/dev/stdout, /dev/full, a FIFO) cannot be replaced by rename: it is
 *   written in place, still with every write checked.
 * - akio_commit_set: several finished temporaries renamed together under a lock file in their
 *   folder (.animkit.lock), so a multi-file output is all new or all old, and concurrent runs
 *   into one folder each land whole (the last one to commit wins every file).
 *
 * Errors are AK_ERR_IO (or AK_ERR_INVALID_ARG) with "cannot write: reason" in err (the caller
 * names the file, as for every other file error); akio_commit_set says which file failed. */
#ifndef AK_IO_FILE_H
#define AK_IO_FILE_H

#include <stdio.h>

#include "animkit/status.h"

/* fopen with a UTF-8 path. NULL on failure with errno set. */
FILE *akio_fopen(const char *path_utf8, const char *mode);
/* Opens a regular file for binary reading (UTF-8 path). A FIFO, device or folder is refused
 * without blocking: NULL with *not_regular set to 1. Other failures: NULL, errno set. */
FILE *akio_fopen_regular(const char *path_utf8, int *not_regular);

/* ---- Reading a whole file: the one reader every file format uses ---- */

/* Looks at the first bytes of a file before the rest is read (at most AKIO_SNIFF_BYTES, all
 * of a smaller file): a text format refuses binary input (UTF-16, an image, /dev/zero) on its
 * first kilobyte, not after max_bytes of reading. Returns AK_OK or an error it has set. */
#define AKIO_SNIFF_BYTES 1024
typedef int32_t (*akio_sniff_fn)(const char *head, size_t size, ak_error *err);

#define AKIO_DEFAULT_MAX_BYTES ((int64_t)512 * 1024 * 1024)
typedef struct akio_read_params {
    int64_t max_bytes;   /* larger files are refused (AK_ERR_LIMIT); default 512 MiB, >= 0 */
    akio_sniff_fn sniff; /* optional check of the head; NULL: any bytes */
} akio_read_params;

akio_read_params akio_read_defaults(void);

/* Reads the regular file at path (UTF-8, as akio_fopen) into a malloc'ed buffer with a NUL
 * byte after its *out_size bytes (text parsers may stop there; the caller frees). A folder,
 * FIFO or device is refused without blocking. An empty file gives size 0 and "". Errors,
 * with nothing allocated (the caller names the file in its own message):
 *   AK_ERR_IO "cannot open: reason" | "not a regular file (...)" | "cannot read: reason";
 *   AK_ERR_LIMIT "file of N bytes is larger than the limit of M bytes";
 *   AK_ERR_NOMEM; or the sniff's own error. */
int32_t akio_read_file(const char *path, const akio_read_params *params, char **out_data,
                       size_t *out_size, ak_error *err);

typedef struct akio_atomic {
    FILE *f;               /* the open temporary (or the target itself in direct mode) */
    char *final_path;      /* where the data ends up (a symlink resolved) */
    char *tmp_path;        /* the temporary; NULL in direct mode */
    const char *shown;     /* the path as the caller gave it, for messages */
    int direct;            /* the target is a device/FIFO: written in place */
    int failed;            /* a write failed: the commit will refuse */
    int err_no;            /* errno of the first failure */
    int finished;          /* flushed, synced and closed; ready to rename */
    long long written;     /* bytes written so far */
    long long pause_after; /* test hook, see akio_atomic_write */
} akio_atomic;

/* Creates the temporary for `path`. On failure nothing exists and *a is safe to abort. */
int32_t akio_atomic_open(akio_atomic *a, const char *path, ak_error *err);
/* Appends n bytes. Failures are sticky: later writes do nothing and the commit reports the
 * first error. Test hook: when the environment variable AK_TEST_STOP_AFTER_BYTES holds N>0,
 * the process stops itself (SIGSTOP, POSIX only) once N bytes have been written, so a test
 * can kill it at a known point mid-write. */
int32_t akio_atomic_write(akio_atomic *a, const void *data, size_t n, ak_error *err);
/* printf-style append (C locale is the caller's business: used for CSV/JSON of the CLI). */
int32_t akio_atomic_printf(akio_atomic *a, ak_error *err, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Byte offset of the next write / overwrite at an earlier offset (for a count that is only
 * known at the end; not in direct mode). */
int32_t akio_atomic_tell(akio_atomic *a, long long *offset, ak_error *err);
int32_t akio_atomic_patch(akio_atomic *a, long long offset, const void *data, size_t n,
                          ak_error *err);
/* Flushes, fsyncs and closes the temporary (idempotent); the rename is still to come. */
int32_t akio_atomic_finish(akio_atomic *a, ak_error *err);
/* finish + rename over the target. On failure the temporary is removed, the target kept. */
int32_t akio_atomic_commit(akio_atomic *a, ak_error *err);
/* Closes and removes the temporary, frees everything; the target is untouched. Safe on a
 * zeroed, failed or committed akio_atomic. */
void akio_atomic_abort(akio_atomic *a);

/* Commits count files as one set: finishes all, and only when every one succeeded renames
 * them all while holding the folder's lock. On any failure all temporaries are removed and
 * every target keeps its old content. The files are aborted (freed) in every case. */
int32_t akio_commit_set(akio_atomic *const *files, int count, ak_error *err);

/* One-shot: writes data to path atomically (open, write, commit). */
int32_t akio_write_file(const char *path, const void *data, size_t n, ak_error *err);

/* For a program that writes the file itself (ffmpeg): a fresh temporary name beside path,
 * "DIR/.NAME.tmp-PID-K" + suffix (the suffix keeps an extension the program needs), and the
 * rename of its finished output over path. Nothing is created by akio_temp_path; the caller
 * frees the name and removes the temporary when the program fails. */
char *akio_temp_path(const char *path, const char *suffix);
int32_t akio_replace(const char *from, const char *to, ak_error *err);

/* True when a and b name the same existing file (same device and inode; on Windows the same
 * volume and file index). 0 when either does not exist. */
int akio_same_file(const char *a, const char *b);

/* The regular files of folder `dir` whose names end with `suffix` (ASCII case ignored, e.g.
 * ".bvh"), as "dir/name" paths in byte order of their names (the same order on every
 * machine). Allocates; free with akio_list_free (also safe on a failed or zeroed list).
 * AK_ERR_IO "cannot read folder: reason" when the folder cannot be read. */
typedef struct akio_list {
    char **paths;
    int count, capacity;
} akio_list;

int32_t akio_list_folder(const char *dir, const char *suffix, akio_list *out, ak_error *err);
void akio_list_free(akio_list *l);

#endif
