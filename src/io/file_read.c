/* The one whole-file reader of the library: every reader (BVH, glTF and its buffers, PGM
 * heightmaps, motion databases) loads its file through akio_read_file. See file.h. */
#include "io/file.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/grow.h"

/* Opens path as a regular file, or says why not. */
static int32_t open_regular(const char *path, FILE **f, ak_error *err)
{
    int not_regular = 0;
    errno = 0;
    *f = akio_fopen_regular(path, &not_regular);
    if (*f) return AK_OK;
    if (not_regular)
        return ak_error_set(err, AK_ERR_IO, 0, "not a regular file (a folder, FIFO or device)");
    return ak_error_set(err, AK_ERR_IO, 0, "cannot open: %s",
                        errno ? strerror(errno) : "unknown error");
}

/* The length the file says it has (0 when the stream cannot tell), refused up front when it
 * is over the limit, so a large file is not read to find out. */
static int32_t stated_length(FILE *f, int64_t max_bytes, size_t *len, ak_error *err)
{
    *len = 0;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (fseek(f, 0, SEEK_SET) != 0)
        return ak_error_set(err, AK_ERR_IO, 0, "cannot read: %s", strerror(errno));
    if (n > 0 && (int64_t)n > max_bytes)
        return ak_error_set(err, AK_ERR_LIMIT, 0,
                            "file of %lld bytes is larger than the limit of %lld bytes",
                            (long long)n, (long long)max_bytes);
    if (n > 0) *len = (size_t)n;
    return AK_OK;
}

/* Reads to the end into *data (capacity *cap), growing it; the file may be longer than it
 * said (it grew meanwhile), never more than max_bytes. sniff runs once on the head. */
static int32_t read_all(FILE *f, const akio_read_params *p, char **data, size_t *cap, size_t *size,
                        ak_error *err)
{
    int sniffed = p->sniff == NULL;
    for (;;) {
        if (*size + 1 >= *cap && akio_grow((void **)data, cap, *size + 2) != 0)
            return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        const size_t got = fread(*data + *size, 1, *cap - 1 - *size, f);
        *size += got;
        if (!sniffed && (*size >= AKIO_SNIFF_BYTES || got == 0)) {
            sniffed = 1;
            int32_t st = p->sniff(*data, *size, err);
            if (st) return st;
        }
        if ((int64_t)*size > p->max_bytes)
            return ak_error_set(err, AK_ERR_LIMIT, 0, "file is larger than the limit of %lld bytes",
                                (long long)p->max_bytes);
        if (got == 0) break;
    }
    if (ferror(f)) return ak_error_set(err, AK_ERR_IO, 0, "cannot read: %s", strerror(errno));
    return AK_OK;
}

int32_t akio_read_file(const char *path, const akio_read_params *params, char **out_data,
                       size_t *out_size, ak_error *err)
{
    if (out_data) *out_data = NULL;
    if (out_size) *out_size = 0;
    if (!path || !params || !out_data || !out_size)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument to akio_read_file");
    if (params->max_bytes < 0)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "negative size limit");
    akio_read_params p = *params;
    /* a limit past what a size_t can double (32-bit machines) stops at a quarter of it */
    if ((uint64_t)p.max_bytes > (uint64_t)(SIZE_MAX / 4)) p.max_bytes = (int64_t)(SIZE_MAX / 4);
    FILE *f = NULL;
    int32_t st = open_regular(path, &f, err);
    if (st) return st;
    size_t len = 0, size = 0, cap = 0;
    char *data = NULL;
    st = stated_length(f, p.max_bytes, &len, err);
    /* one byte more than stated: the end of file is seen on the first pass */
    if (!st && akio_grow((void **)&data, &cap, len + 2) != 0)
        st = ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    if (!st) st = read_all(f, &p, &data, &cap, &size, err);
    fclose(f);
    if (st) {
        free(data);
        return st;
    }
    data[size] = '\0';
    *out_data = data;
    *out_size = size;
    return AK_OK;
}

akio_read_params akio_read_defaults(void)
{
    akio_read_params p;
    p.max_bytes = AKIO_DEFAULT_MAX_BYTES;
    p.sniff = NULL;
    return p;
}
