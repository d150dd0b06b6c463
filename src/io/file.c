/* The file layer: UTF-8 paths, checked atomic replacement, multi-file commits.
 * See file.h for the promises; this file is the only place that knows the platform calls. */
#if !defined(_WIN32)
#define _XOPEN_SOURCE 700 /* fsync, realpath, fdopen, fileno, lstat under -std=c11 */
#endif

#include "io/file.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <fcntl.h>
#include <io.h>
#include <process.h>
#include <sys/stat.h>
#include <windows.h>
#else
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

/* Chunk of a large write: small enough that the stop hook lands mid-file. */
#define AKIO_CHUNK ((size_t)1 << 16)

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* ---- platform primitives ---- */

#if defined(_WIN32)
/* UTF-8 -> malloc'ed UTF-16; NULL (errno EINVAL or ENOMEM) on failure. */
static wchar_t *widen(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    if (n <= 0) {
        errno = EINVAL;
        return NULL;
    }
    wchar_t *w = (wchar_t *)malloc(sizeof(wchar_t) * (size_t)n);
    if (!w) {
        errno = ENOMEM;
        return NULL;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
    return w;
}

FILE *akio_fopen(const char *path, const char *mode)
{
    wchar_t *wp = widen(path), *wm = widen(mode);
    FILE *f = wp && wm ? _wfopen(wp, wm) : NULL;
    free(wp);
    free(wm);
    return f;
}

FILE *akio_fopen_regular(const char *path, int *not_regular)
{
    *not_regular = 0;
    wchar_t *wp = widen(path);
    struct _stat64 st;
    const int found = wp && _wstat64(wp, &st) == 0;
    free(wp);
    if (!found) return NULL;
    if ((st.st_mode & _S_IFMT) != _S_IFREG) {
        *not_regular = 1;
        errno = EINVAL;
        return NULL;
    }
    return akio_fopen(path, "rb");
}

static FILE *create_exclusive(const char *path)
{
    wchar_t *wp = widen(path);
    if (!wp) return NULL;
    int fd = _wopen(wp, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY, _S_IREAD | _S_IWRITE);
    free(wp);
    if (fd < 0) return NULL;
    FILE *f = _fdopen(fd, "wb");
    if (!f) _close(fd);
    return f;
}

static int sync_file(FILE *f)
{
    return _commit(_fileno(f));
}

static int replace_file(const char *from, const char *to)
{
    wchar_t *wf = widen(from), *wt = widen(to);
    int ok = wf && wt && MoveFileExW(wf, wt, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);
    if (wf && wt && !ok) errno = EACCES;
    free(wf);
    free(wt);
    return ok ? 0 : -1;
}

static int remove_file(const char *path)
{
    wchar_t *wp = widen(path);
    int r = wp ? _wremove(wp) : -1;
    free(wp);
    return r;
}

static void sync_dir(const char *dir)
{
    (void)dir; /* MOVEFILE_WRITE_THROUGH covers it */
}

static long current_pid(void)
{
    return (long)_getpid();
}

/* The target as it will be replaced; direct mode is not used on Windows. */
static int resolve_target(const char *path, char **final_path, int *direct)
{
    *direct = 0;
    *final_path = dup_string(path);
    if (!*final_path) errno = ENOMEM;
    return *final_path ? 0 : -1;
}

typedef HANDLE akio_lock;
#define AKIO_NO_LOCK INVALID_HANDLE_VALUE

static akio_lock lock_path(const char *path)
{
    wchar_t *wp = widen(path);
    if (!wp) return AKIO_NO_LOCK;
    HANDLE h = CreateFileW(wp, GENERIC_READ | GENERIC_WRITE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_ALWAYS, FILE_ATTRIBUTE_HIDDEN, NULL);
    free(wp);
    if (h == INVALID_HANDLE_VALUE) return AKIO_NO_LOCK;
    OVERLAPPED ov;
    memset(&ov, 0, sizeof ov);
    if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ov)) {
        CloseHandle(h);
        return AKIO_NO_LOCK;
    }
    return h;
}

static void unlock_path(akio_lock h)
{
    OVERLAPPED ov;
    memset(&ov, 0, sizeof ov);
    UnlockFileEx(h, 0, 1, 0, &ov);
    CloseHandle(h);
}

int akio_same_file(const char *a, const char *b)
{
    wchar_t *wa = widen(a), *wb = widen(b);
    int same = 0;
    if (wa && wb) {
        HANDLE ha = CreateFileW(wa, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                                OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
        HANDLE hb = CreateFileW(wb, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                                OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
        BY_HANDLE_FILE_INFORMATION ia, ib;
        if (ha != INVALID_HANDLE_VALUE && hb != INVALID_HANDLE_VALUE &&
            GetFileInformationByHandle(ha, &ia) && GetFileInformationByHandle(hb, &ib))
            same = ia.dwVolumeSerialNumber == ib.dwVolumeSerialNumber &&
                   ia.nFileIndexHigh == ib.nFileIndexHigh && ia.nFileIndexLow == ib.nFileIndexLow;
        if (ha != INVALID_HANDLE_VALUE) CloseHandle(ha);
        if (hb != INVALID_HANDLE_VALUE) CloseHandle(hb);
    }
    free(wa);
    free(wb);
    return same;
}

#define AKIO_DIR_SEPS "/\\"
#else /* POSIX */

FILE *akio_fopen(const char *path, const char *mode)
{
    return fopen(path, mode);
}

/* Opened without blocking (a FIFO with no writer would block open() for ever), checked to be
 * a regular file on the descriptor itself (no race with a rename), then made blocking. */
FILE *akio_fopen_regular(const char *path, int *not_regular)
{
    *not_regular = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *not_regular = 1;
        close(fd);
        errno = EINVAL;
        return NULL;
    }
    const int flags = fcntl(fd, F_GETFL);
    if (flags == -1 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1) {
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) close(fd);
    return f;
}

/* The mode new temporaries get: the existing target's, else 0666 less the umask (open). */
static FILE *create_exclusive_mode(const char *path, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f) close(fd);
    return f;
}

static int sync_file(FILE *f)
{
    return fsync(fileno(f));
}
static int replace_file(const char *from, const char *to)
{
    return rename(from, to);
}
static int remove_file(const char *path)
{
    return remove(path);
}
static long current_pid(void)
{
    return (long)getpid();
}

static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY);
    if (fd < 0) return;
    (void)fsync(fd); /* best effort: some file systems refuse fsync on a folder */
    close(fd);
}

/* Follows a symlink to the file it names (so the link survives the replace) and tells a
 * device/FIFO target (written in place) from a regular or new one (replaced). */
static int resolve_target(const char *path, char **final_path, int *direct)
{
    struct stat st;
    *direct = 0;
    *final_path = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) *final_path = realpath(path, NULL);
    if (!*final_path) *final_path = dup_string(path);
    if (!*final_path) {
        errno = ENOMEM;
        return -1;
    }
    if (stat(*final_path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            free(*final_path);
            *final_path = NULL;
            errno = EISDIR;
            return -1;
        }
        *direct = !S_ISREG(st.st_mode);
    }
    return 0;
}

typedef int akio_lock;
#define AKIO_NO_LOCK (-1)

static akio_lock lock_path(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT, 0666);
    if (fd < 0) return AKIO_NO_LOCK;
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    int r;
    do {
        r = fcntl(fd, F_SETLKW, &fl);
    } while (r != 0 && errno == EINTR);
    if (r != 0) {
        close(fd);
        return AKIO_NO_LOCK;
    }
    return fd;
}

static void unlock_path(akio_lock fd)
{
    close(fd); /* closing drops the fcntl lock */
}

int akio_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0) return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

#define AKIO_DIR_SEPS "/"
#endif

/* ---- paths ---- */

/* Length of the folder part of path including its last separator (0: no folder). */
static size_t dir_length(const char *path)
{
    size_t n = strlen(path);
    while (n > 0 && !strchr(AKIO_DIR_SEPS, path[n - 1]))
        --n;
    return n;
}

/* "DIR/NAME" for a file NAME in path's folder; malloc'ed. */
static char *sibling_path(const char *path, const char *name)
{
    size_t d = dir_length(path), n = strlen(name);
    char *s = (char *)malloc(d + n + 1);
    if (!s) return NULL;
    memcpy(s, path, d);
    memcpy(s + d, name, n + 1);
    return s;
}

/* Creates "DIR/.NAME.tmp-PID-K" exclusively, K chosen among a few candidates. */
static FILE *create_temporary(akio_atomic *a)
{
    const char *base = a->final_path + dir_length(a->final_path);
    size_t need = strlen(base) + 64;
    char *name = (char *)malloc(need);
    if (!name) return NULL;
#if !defined(_WIN32)
    struct stat st;
    mode_t mode = stat(a->final_path, &st) == 0 ? (st.st_mode & 0777) : 0666;
#endif
    /* The seed only spreads threads of one process over names; O_EXCL makes it safe. */
    unsigned long seed = (unsigned long)(uintptr_t)a ^ (unsigned long)clock();
    FILE *f = NULL;
    for (int k = 0; k < 64 && !f; ++k) {
        snprintf(name, need, ".%s.tmp-%ld-%lu", base, current_pid(),
                 (seed + (unsigned long)k) % 100000ul);
        free(a->tmp_path);
        a->tmp_path = sibling_path(a->final_path, name);
        if (!a->tmp_path) break;
#if defined(_WIN32)
        f = create_exclusive(a->tmp_path);
#else
        f = create_exclusive_mode(a->tmp_path, mode);
#endif
        if (!f && errno != EEXIST) break;
    }
    free(name);
    if (!f) {
        int e = errno;
        free(a->tmp_path);
        a->tmp_path = NULL;
        errno = e;
    }
    return f;
}

/* ---- one file ---- */

static int32_t fail(akio_atomic *a, int e, const char *what, ak_error *err)
{
    if (!a->failed) {
        a->failed = 1;
        a->err_no = e;
    }
    return ak_error_set(err, AK_ERR_IO, 0, "cannot %s: %s", what,
                        strerror(a->err_no ? a->err_no : EIO));
}

int32_t akio_atomic_open(akio_atomic *a, const char *path, ak_error *err)
{
    if (!a) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output file");
    memset(a, 0, sizeof *a);
    if (!path || !*path) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "empty output path");
    a->shown = path;
    if (resolve_target(path, &a->final_path, &a->direct) != 0) return fail(a, errno, "write", err);
    if (a->direct) {
        a->f = akio_fopen(a->final_path, "wb");
    } else {
        a->f = create_temporary(a);
    }
    if (!a->f) return fail(a, errno ? errno : EIO, "create", err);
    const char *hook = getenv("AK_TEST_STOP_AFTER_BYTES");
    if (hook) a->pause_after = atoll(hook);
    return AK_OK;
}

static void maybe_stop_for_test(akio_atomic *a)
{
    if (a->pause_after <= 0 || a->written < a->pause_after) return;
    a->pause_after = 0;
    fflush(a->f); /* the first bytes really are in the temporary when the test looks */
#if defined(SIGSTOP)
    raise(SIGSTOP);
#endif
}

int32_t akio_atomic_write(akio_atomic *a, const void *data, size_t n, ak_error *err)
{
    if (!a->f || a->failed || a->finished)
        return fail(a, a->err_no ? a->err_no : EBADF, "write", err);
    const char *p = (const char *)data;
    while (n > 0) {
        size_t k = n < AKIO_CHUNK ? n : AKIO_CHUNK;
        errno = 0;
        if (fwrite(p, 1, k, a->f) != k) return fail(a, errno ? errno : EIO, "write", err);
        p += k;
        n -= k;
        a->written += (long long)k;
        maybe_stop_for_test(a);
    }
    return AK_OK;
}

int32_t akio_atomic_printf(akio_atomic *a, ak_error *err, const char *fmt, ...)
{
    if (!a->f || a->failed || a->finished)
        return fail(a, a->err_no ? a->err_no : EBADF, "write", err);
    va_list ap;
    va_start(ap, fmt);
    errno = 0;
    int n = vfprintf(a->f, fmt, ap);
    va_end(ap);
    if (n < 0) return fail(a, errno ? errno : EIO, "write", err);
    a->written += n;
    maybe_stop_for_test(a);
    return AK_OK;
}

int32_t akio_atomic_tell(akio_atomic *a, long long *offset, ak_error *err)
{
    if (!a->f || a->failed) return fail(a, a->err_no ? a->err_no : EBADF, "write", err);
    if (a->direct) return fail(a, ESPIPE, "seek in", err);
    *offset = a->written;
    return AK_OK;
}

int32_t akio_atomic_patch(akio_atomic *a, long long offset, const void *data, size_t n,
                          ak_error *err)
{
    if (!a->f || a->failed || a->finished)
        return fail(a, a->err_no ? a->err_no : EBADF, "write", err);
    if (a->direct || offset < 0 || offset > a->written || (long long)n > a->written - offset ||
        offset > (long long)LONG_MAX)
        return fail(a, ESPIPE, "seek in", err);
    errno = 0;
    if (fseek(a->f, (long)offset, SEEK_SET) != 0)
        return fail(a, errno ? errno : EIO, "seek in", err);
    if (fwrite(data, 1, n, a->f) != n) return fail(a, errno ? errno : EIO, "write", err);
    if (fseek(a->f, 0, SEEK_END) != 0) return fail(a, errno ? errno : EIO, "seek in", err);
    return AK_OK;
}

int32_t akio_atomic_finish(akio_atomic *a, ak_error *err)
{
    if (a->finished) return AK_OK;
    if (!a->f || a->failed) return fail(a, a->err_no ? a->err_no : EBADF, "write", err);
    errno = 0;
    int e = 0;
    if (fflush(a->f) != 0) e = errno ? errno : EIO;
    /* Devices and FIFOs need no fsync (and many refuse it). */
    if (!e && !a->direct && sync_file(a->f) != 0) e = errno ? errno : EIO;
    errno = 0;
    if (fclose(a->f) != 0 && !e) e = errno ? errno : EIO;
    a->f = NULL;
    if (e) return fail(a, e, "write", err);
    a->finished = 1;
    return AK_OK;
}

/* Renames a finished temporary over its target (nothing to do in direct mode). */
static int32_t rename_into_place(akio_atomic *a, ak_error *err)
{
    if (a->direct) return AK_OK;
    if (replace_file(a->tmp_path, a->final_path) != 0) return fail(a, errno, "replace", err);
    free(a->tmp_path);
    a->tmp_path = NULL; /* committed: abort must not remove anything now */
    char *dir = sibling_path(a->final_path, ".");
    if (dir) sync_dir(dir);
    free(dir);
    return AK_OK;
}

int32_t akio_atomic_commit(akio_atomic *a, ak_error *err)
{
    int32_t st = akio_atomic_finish(a, err);
    if (st == AK_OK) st = rename_into_place(a, err);
    akio_atomic_abort(a);
    return st;
}

void akio_atomic_abort(akio_atomic *a)
{
    if (!a) return;
    if (a->f) fclose(a->f);
    if (a->tmp_path) remove_file(a->tmp_path);
    free(a->tmp_path);
    free(a->final_path);
    memset(a, 0, sizeof *a);
}

/* ---- sets ---- */

/* Puts "PATH: " before the message of a failed member of a set. */
static void name_failed_file(const akio_atomic *a, ak_error *err)
{
    if (!err) return;
    char reason[sizeof err->message];
    memcpy(reason, err->message, sizeof reason);
    ak_error_set(err, err->status, 0, "%s: %s", a->shown ? a->shown : "output", reason);
}

int32_t akio_commit_set(akio_atomic *const *files, int count, ak_error *err)
{
    int32_t st = AK_OK;
    for (int i = 0; i < count && st == AK_OK; ++i)
        if ((st = akio_atomic_finish(files[i], err)) != AK_OK) name_failed_file(files[i], err);
    if (st == AK_OK && count > 0) {
        char *lock_file = sibling_path(files[0]->final_path, ".animkit.lock");
        akio_lock lock = lock_file ? lock_path(lock_file) : AKIO_NO_LOCK;
        if (lock == AKIO_NO_LOCK) {
            st = ak_error_set(err, AK_ERR_IO, 0, "cannot lock %s: %s",
                              lock_file ? lock_file : "the output folder", strerror(errno));
        } else {
            for (int i = 0; i < count && st == AK_OK; ++i)
                if ((st = rename_into_place(files[i], err)) != AK_OK)
                    name_failed_file(files[i], err);
            unlock_path(lock);
        }
        free(lock_file);
    }
    for (int i = 0; i < count; ++i)
        akio_atomic_abort(files[i]);
    return st;
}

char *akio_temp_path(const char *path, const char *suffix)
{
    if (!path || !*path) return NULL;
    if (!suffix) suffix = "";
    const char *base = path + dir_length(path);
    size_t need = strlen(base) + strlen(suffix) + 64;
    char *name = (char *)malloc(need);
    if (!name) return NULL;
    struct stat st;
    char *tmp = NULL;
    unsigned long seed = (unsigned long)(uintptr_t)name ^ (unsigned long)clock();
    for (int k = 0; k < 64; ++k) {
        snprintf(name, need, ".%s.tmp-%ld-%lu%s", base, current_pid(),
                 (seed + (unsigned long)k) % 100000ul, suffix);
        free(tmp);
        tmp = sibling_path(path, name);
        if (!tmp || stat(tmp, &st) != 0) break; /* free name (or out of memory) */
    }
    free(name);
    return tmp;
}

int32_t akio_replace(const char *from, const char *to, ak_error *err)
{
    if (replace_file(from, to) != 0)
        return ak_error_set(err, AK_ERR_IO, 0, "cannot replace: %s", strerror(errno));
    char *dir = sibling_path(to, ".");
    if (dir) sync_dir(dir);
    free(dir);
    return AK_OK;
}

int32_t akio_write_file(const char *path, const void *data, size_t n, ak_error *err)
{
    akio_atomic a;
    int32_t st = akio_atomic_open(&a, path, err);
    if (st == AK_OK) st = akio_atomic_write(&a, data, n, err);
    if (st == AK_OK) return akio_atomic_commit(&a, err);
    akio_atomic_abort(&a);
    return st;
}

/* ---- folder listing ---- */

static int has_suffix(const char *name, const char *suffix)
{
    const size_t n = strlen(name), k = strlen(suffix);
    if (n <= k) return 0; /* ".bvh" alone is no file name */
    for (size_t i = 0; i < k; ++i) {
        const char a = name[n - k + i], b = suffix[i];
        if ((a >= 'A' && a <= 'Z' ? a + 32 : a) != (b >= 'A' && b <= 'Z' ? b + 32 : b)) return 0;
    }
    return 1;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "DIR/NAME" for NAME inside folder dir (no separator doubled); malloc'ed. */
static char *child_path(const char *dir, const char *name)
{
    const size_t d = strlen(dir), n = strlen(name);
    const int sep = d > 0 && !strchr(AKIO_DIR_SEPS, dir[d - 1]);
    const size_t size = d + (size_t)sep + n + 1;
    char *s = (char *)malloc(size);
    if (s) snprintf(s, size, "%s%s%s", dir, sep ? "/" : "", name);
    return s;
}

/* Appends "dir/name" to the growing list; 0, or -1 out of memory (errno ENOMEM). */
static int list_push(akio_list *l, const char *dir, const char *name)
{
    if (l->count == l->capacity) {
        const int cap = l->capacity ? 2 * l->capacity : 16;
        char **grown = (char **)realloc(l->paths, sizeof(char *) * (size_t)cap);
        if (!grown) return errno = ENOMEM, -1;
        l->paths = grown;
        l->capacity = cap;
    }
    char *p = child_path(dir, name);
    if (!p) return errno = ENOMEM, -1;
    l->paths[l->count++] = p;
    return 0;
}

#if defined(_WIN32)
/* UTF-16 -> malloc'ed UTF-8; NULL on failure. */
static char *narrow(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    char *s = n > 0 ? (char *)malloc((size_t)n) : NULL;
    if (s) WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
    return s;
}

static int list_entries(akio_list *l, const char *dir, const char *suffix)
{
    char *pattern = child_path(dir, "*");
    wchar_t *wp = pattern ? widen(pattern) : NULL;
    free(pattern);
    if (!wp) return errno = ENOMEM, -1;
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(wp, &fd);
    free(wp);
    if (h == INVALID_HANDLE_VALUE) return errno = ENOENT, -1;
    int rc = 0;
    do {
        if (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) continue;
        char *name = narrow(fd.cFileName);
        rc = !name ? (errno = ENOMEM, -1) : has_suffix(name, suffix) ? list_push(l, dir, name) : 0;
        free(name);
    } while (rc == 0 && FindNextFileW(h, &fd));
    FindClose(h);
    return rc;
}
#else
static int list_entries(akio_list *l, const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (!has_suffix(e->d_name, suffix)) continue;
        char *path = child_path(dir, e->d_name);
        struct stat st;
        const int regular = path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
        free(path);
        if (regular) rc = list_push(l, dir, e->d_name);
    }
    const int e_no = errno;
    closedir(d);
    errno = e_no;
    return rc;
}
#endif

int32_t akio_list_folder(const char *dir, const char *suffix, akio_list *out, ak_error *err)
{
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null list");
    memset(out, 0, sizeof *out);
    if (!dir || !*dir) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "empty folder name");
    if (list_entries(out, dir, suffix ? suffix : "") != 0) {
        const int e = errno ? errno : EIO;
        akio_list_free(out);
        return ak_error_set(err, AK_ERR_IO, 0, "cannot read folder: %s", strerror(e));
    }
    if (out->count > 1) qsort(out->paths, (size_t)out->count, sizeof(char *), cmp_names);
    return AK_OK;
}

void akio_list_free(akio_list *l)
{
    if (!l) return;
    for (int i = 0; i < l->count; ++i)
        free(l->paths[i]);
    free(l->paths);
    memset(l, 0, sizeof *l);
}
