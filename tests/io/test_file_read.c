/* The one whole-file reader (src/io/file_read.c, akio_read_file): every file format loads its
 * file through it, so its limits and refusals hold for BVH, glTF, PGM and motion databases. */
#define _XOPEN_SOURCE 700
#include "test_util.h"
#include "io/file.h"

#include <sys/stat.h>
#include <unistd.h>

static char g_dir[256];

static const char *in_dir(const char *name)
{
    static char p[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", g_dir, name);
    return p[k];
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "%s/ak_read_test_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = {"ten.txt",
                           "empty.txt",
                           "big.bin",
                           "bin.txt",
                           "fifo",
                           "H\xc3\xbc"
                           "fte.bvh",
                           "bad\xff.txt"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        remove(in_dir(names[i]));
    rmdir(in_dir("sub"));
    rmdir(g_dir);
    return 0;
}

/* The params shape: the defaults are valid (512 MiB, no sniff), a negative limit and null
 * arguments are refused with a reason and nothing allocated. */
static void read_params_validity(void **state)
{
    (void)state;
    akio_read_params p = akio_read_defaults();
    assert_true(p.max_bytes == (int64_t)512 * 1024 * 1024);
    assert_null(p.sniff);
    write_bytes(in_dir("ten.txt"), "0123456789", 10);
    char *data = (char *)&p;
    size_t size = 7;
    ak_error err;
    p.max_bytes = -1;
    assert_int_equal(akio_read_file(in_dir("ten.txt"), &p, &data, &size, &err), AK_ERR_INVALID_ARG);
    assert_null(data);
    assert_int_equal(size, 0);
    assert_non_null(strstr(err.message, "negative size limit"));
    p = akio_read_defaults();
    assert_int_equal(akio_read_file(NULL, &p, &data, &size, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(akio_read_file(in_dir("ten.txt"), NULL, &data, &size, &err),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(akio_read_file(in_dir("ten.txt"), &p, NULL, &size, &err), AK_ERR_INVALID_ARG);
}

/* A file is read whole, with a NUL after its bytes; a file exactly at the limit passes. */
static void reads_a_whole_file_with_a_nul_after_it(void **state)
{
    (void)state;
    write_bytes(in_dir("ten.txt"), "0123456789", 10);
    akio_read_params p = akio_read_defaults();
    p.max_bytes = 10;
    char *data = NULL;
    size_t size = 0;
    ak_error err;
    assert_int_equal(akio_read_file(in_dir("ten.txt"), &p, &data, &size, &err), AK_OK);
    assert_int_equal(size, 10);
    assert_memory_equal(data, "0123456789", 11); /* the NUL included */
    free(data);
}

/* An empty file is not an error of the reader: size 0 and "" (the format says what it lacks). */
static void an_empty_file_gives_an_empty_string(void **state)
{
    (void)state;
    write_bytes(in_dir("empty.txt"), "", 0);
    akio_read_params p = akio_read_defaults();
    char *data = NULL;
    size_t size = 99;
    ak_error err;
    assert_int_equal(akio_read_file(in_dir("empty.txt"), &p, &data, &size, &err), AK_OK);
    assert_int_equal(size, 0);
    assert_non_null(data);
    assert_int_equal(data[0], '\0');
    free(data);
}

/* One byte over the limit is refused as AK_ERR_LIMIT, naming both sizes; nothing returned. */
static void a_file_over_the_limit_is_refused(void **state)
{
    (void)state;
    char block[4096];
    memset(block, 'x', sizeof block);
    write_bytes(in_dir("big.bin"), block, sizeof block);
    akio_read_params p = akio_read_defaults();
    p.max_bytes = 4095;
    char *data = (char *)block;
    size_t size = 1;
    ak_error err;
    assert_int_equal(akio_read_file(in_dir("big.bin"), &p, &data, &size, &err), AK_ERR_LIMIT);
    assert_null(data);
    assert_int_equal(size, 0);
    assert_string_equal(err.message, "file of 4096 bytes is larger than the limit of 4095 bytes");
}

/* A missing file, a folder and a FIFO are refused with AK_ERR_IO and the reason; the FIFO is
 * not waited on (no writer ever opens it). */
static void missing_folder_and_fifo_are_refused(void **state)
{
    (void)state;
    akio_read_params p = akio_read_defaults();
    char *data = NULL;
    size_t size = 0;
    ak_error err;
    assert_int_equal(akio_read_file(in_dir("none.txt"), &p, &data, &size, &err), AK_ERR_IO);
    assert_string_equal(err.message, "cannot open: No such file or directory");
    assert_int_equal(mkdir(in_dir("sub"), 0700), 0);
    assert_int_equal(akio_read_file(in_dir("sub"), &p, &data, &size, &err), AK_ERR_IO);
    assert_non_null(strstr(err.message, "not a regular file"));
    assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
    assert_int_equal(akio_read_file(in_dir("fifo"), &p, &data, &size, &err), AK_ERR_IO);
    assert_non_null(strstr(err.message, "not a regular file"));
    assert_null(data);
}

static int g_sniffed_bytes;
static int32_t refuse_nul(const char *head, size_t n, ak_error *err)
{
    g_sniffed_bytes = (int)n;
    return memchr(head, 0, n) ? ak_error_set(err, AK_ERR_PARSE, 1, "binary data") : AK_OK;
}

/* The sniff sees the first AKIO_SNIFF_BYTES (or all of a smaller file) once, and its error is
 * the reader's: a 64 KiB binary file fails after its first kilobyte is looked at. */
static void the_sniff_sees_the_head_and_can_refuse(void **state)
{
    (void)state;
    static char bin[65536];
    memset(bin, 'a', sizeof bin);
    bin[100] = '\0';
    write_bytes(in_dir("bin.txt"), bin, sizeof bin);
    akio_read_params p = akio_read_defaults();
    p.sniff = refuse_nul;
    char *data = NULL;
    size_t size = 0;
    ak_error err;
    assert_int_equal(akio_read_file(in_dir("bin.txt"), &p, &data, &size, &err), AK_ERR_PARSE);
    assert_null(data);
    assert_true(g_sniffed_bytes >= AKIO_SNIFF_BYTES);
    assert_string_equal(err.message, "binary data");
    write_bytes(in_dir("ten.txt"), "0123456789", 10);
    assert_int_equal(akio_read_file(in_dir("ten.txt"), &p, &data, &size, &err), AK_OK);
    assert_int_equal(g_sniffed_bytes, 10);
    free(data);
}

/* UTF-8 names are read as given (on Windows through _wfopen: tests/plugin/windows runs the CLI
 * on "gang-ß" there); a name that is not UTF-8 still reads on POSIX, where names are bytes. */
static void utf8_and_byte_names_are_read(void **state)
{
    (void)state;
    write_bytes(in_dir("H\xc3\xbc"
                       "fte.bvh"),
                "abc", 3);
    write_bytes(in_dir("bad\xff.txt"), "de", 2);
    akio_read_params p = akio_read_defaults();
    char *data = NULL;
    size_t size = 0;
    ak_error err;
    assert_int_equal(akio_read_file(in_dir("H\xc3\xbc"
                                           "fte.bvh"),
                                    &p, &data, &size, &err),
                     AK_OK);
    assert_string_equal(data, "abc");
    free(data);
    assert_int_equal(akio_read_file(in_dir("bad\xff.txt"), &p, &data, &size, &err), AK_OK);
    assert_string_equal(data, "de");
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(read_params_validity),
        cmocka_unit_test(reads_a_whole_file_with_a_nul_after_it),
        cmocka_unit_test(an_empty_file_gives_an_empty_string),
        cmocka_unit_test(a_file_over_the_limit_is_refused),
        cmocka_unit_test(missing_folder_and_fifo_are_refused),
        cmocka_unit_test(the_sniff_sees_the_head_and_can_refuse),
        cmocka_unit_test(utf8_and_byte_names_are_read),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
