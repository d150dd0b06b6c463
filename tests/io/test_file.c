/* The file layer (src/io/file.c): atomic replacement, checked writes, sets, UTF-8 paths. */
#define _XOPEN_SOURCE 700
#include "test_util.h"
#include "io/file.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static char g_dir[256];

static void make_dir(void)
{
    snprintf(g_dir, sizeof g_dir, "%s/ak_file_test_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(g_dir));
}

static void remove_dir(void)
{
    DIR *d = opendir(g_dir);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
            continue;
        snprintf(p, sizeof p, "%s/%s", g_dir, e->d_name);
        remove(p);
    }
    if (d) closedir(d);
    rmdir(g_dir);
}

static const char *in_dir(const char *name)
{
    static char p[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", g_dir, name);
    return p[k];
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The file's whole content must equal text. */
static void expect_content(const char *path, const char *text)
{
    char buf[256] = {0};
    FILE *f = akio_fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    assert_string_equal(buf, text);
}

/* Entries in the folder other than . and .. */
static int entry_count(void)
{
    DIR *d = opendir(g_dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void replaces_whole_and_leaves_no_temporary(void **state)
{
    (void)state;
    make_dir();
    const char *p = in_dir("out.txt");
    put(p, "old content that is longer than the new");
    chmod(p, 0640);
    ak_error err;
    assert_int_equal(akio_write_file(p, "new", 3, &err), AK_OK);
    expect_content(p, "new");
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640); /* the replaced file keeps its permissions */
    assert_int_equal(entry_count(), 1);
    remove_dir();
}

static void old_file_untouched_until_commit_and_after_abort(void **state)
{
    (void)state;
    make_dir();
    const char *p = in_dir("out.txt");
    put(p, "old");
    akio_atomic a;
    ak_error err;
    assert_int_equal(akio_atomic_open(&a, p, &err), AK_OK);
    assert_int_equal(akio_atomic_write(&a, "new data", 8, &err), AK_OK);
    assert_int_equal(akio_atomic_finish(&a, &err), AK_OK);
    expect_content(p, "old"); /* written, synced, not yet renamed */
    assert_int_equal(entry_count(), 2);
    akio_atomic_abort(&a);
    expect_content(p, "old");
    assert_int_equal(entry_count(), 1);
    remove_dir();
}

static void full_device_fails_with_reason(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0) skip();
    ak_error err;
    char big[8192];
    memset(big, 'x', sizeof big);
    int32_t st = akio_write_file("/dev/full", big, sizeof big, &err);
    assert_int_equal(st, AK_ERR_IO);
    assert_non_null(strstr(err.message, "No space left on device"));
}

static void set_is_all_or_nothing(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0) skip();
    make_dir();
    const char *a_path = in_dir("a.csv"), *b_path = in_dir("b.bvh");
    put(a_path, "old a");
    assert_int_equal(symlink("/dev/full", b_path), 0);
    akio_atomic a, b;
    ak_error err;
    assert_int_equal(akio_atomic_open(&a, a_path, &err), AK_OK);
    assert_int_equal(akio_atomic_open(&b, b_path, &err), AK_OK);
    assert_int_equal(akio_atomic_printf(&a, &err, "new %d", 1), AK_OK);
    akio_atomic_printf(&b, &err, "new b"); /* buffered: the failure shows at the flush */
    akio_atomic *set[2] = {&a, &b};
    assert_int_equal(akio_commit_set(set, 2, &err), AK_ERR_IO);
    assert_non_null(strstr(err.message, "b.bvh"));
    assert_non_null(strstr(err.message, "No space left on device"));
    expect_content(a_path, "old a"); /* the good member was not committed alone */
    remove(b_path);
    assert_int_equal(entry_count(), 1);

    /* Both good: both replaced. */
    assert_int_equal(akio_atomic_open(&a, a_path, &err), AK_OK);
    assert_int_equal(akio_atomic_open(&b, b_path, &err), AK_OK);
    akio_atomic_printf(&a, &err, "A2");
    akio_atomic_printf(&b, &err, "B2");
    assert_int_equal(akio_commit_set(set, 2, &err), AK_OK);
    expect_content(a_path, "A2");
    expect_content(b_path, "B2");
    remove_dir();
}

static void symlink_target_replaced_link_kept(void **state)
{
    (void)state;
    make_dir();
    const char *real = in_dir("real.txt"), *link = in_dir("link.txt");
    put(real, "old");
    assert_int_equal(symlink("real.txt", link), 0);
    ak_error err;
    assert_int_equal(akio_write_file(link, "new", 3, &err), AK_OK);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    expect_content(real, "new");
    assert_int_equal(entry_count(), 2);
    remove_dir();
}

static void bad_targets_say_why(void **state)
{
    (void)state;
    make_dir();
    ak_error err;
    assert_int_equal(akio_write_file(g_dir, "x", 1, &err), AK_ERR_IO);
    assert_non_null(strstr(err.message, "Is a directory"));
    assert_int_equal(akio_write_file(in_dir("missing/x.txt"), "x", 1, &err), AK_ERR_IO);
    assert_non_null(strstr(err.message, "No such file or directory"));
    assert_int_equal(akio_write_file("", "x", 1, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "empty"));
    remove_dir();
}

static void utf8_paths_and_same_file(void **state)
{
    (void)state;
    make_dir();
    const char *p = in_dir("H\xc3\xbc"
                           "fte.bvh");
    ak_error err;
    assert_int_equal(akio_write_file(p, "ok", 2, &err), AK_OK);
    expect_content(p, "ok");
    assert_true(akio_same_file(p, p));
    const char *q = in_dir("other.bvh");
    assert_false(akio_same_file(p, q)); /* q does not exist */
    put(q, "ok");
    assert_false(akio_same_file(p, q));
    char dotted[600];
    snprintf(dotted, sizeof dotted,
             "%s/./H\xc3\xbc"
             "fte.bvh",
             g_dir);
    assert_true(akio_same_file(p, dotted));
    remove_dir();
}

static void patch_rewrites_a_reserved_field(void **state)
{
    (void)state;
    make_dir();
    const char *p = in_dir("count.txt");
    akio_atomic a;
    ak_error err;
    long long at = -1;
    assert_int_equal(akio_atomic_open(&a, p, &err), AK_OK);
    akio_atomic_printf(&a, &err, "n=");
    assert_int_equal(akio_atomic_tell(&a, &at, &err), AK_OK);
    assert_int_equal(at, 2);
    akio_atomic_printf(&a, &err, "____;rest");
    assert_int_equal(akio_atomic_patch(&a, at, "1234", 4, &err), AK_OK);
    akio_atomic_printf(&a, &err, "!");
    assert_int_equal(akio_atomic_commit(&a, &err), AK_OK);
    expect_content(p, "n=1234;rest!");
    remove_dir();
}

/* A folder's .bvh files: suffix case ignored, sub-folders and other names left out, paths in
 * name order whatever order the folder gives them; a missing folder says why. */
static void folder_listing_is_sorted_and_filtered(void **state)
{
    (void)state;
    make_dir();
    put(in_dir("b.bvh"), "x");
    put(in_dir("A.BVH"), "x");
    put(in_dir("c.bvh.txt"), "x");
    put(in_dir(".bvh"), "x");
    assert_int_equal(mkdir(in_dir("d.bvh"), 0700), 0);
    akio_list l;
    ak_error err;
    char dir_slash[600];
    snprintf(dir_slash, sizeof dir_slash, "%s/", g_dir);
    for (int k = 0; k < 2; ++k) {
        assert_int_equal(akio_list_folder(k ? dir_slash : g_dir, ".bvh", &l, &err), AK_OK);
        assert_int_equal(l.count, 2);
        assert_string_equal(l.paths[0], in_dir("A.BVH"));
        assert_string_equal(l.paths[1], in_dir("b.bvh"));
        akio_list_free(&l);
        assert_null(l.paths);
    }
    rmdir(in_dir("d.bvh"));
    remove_dir();
    assert_int_equal(akio_list_folder(g_dir, ".bvh", &l, &err), AK_ERR_IO);
    assert_string_equal(err.message, "cannot read folder: No such file or directory");
    assert_int_equal(l.count, 0);
    akio_list_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replaces_whole_and_leaves_no_temporary),
        cmocka_unit_test(old_file_untouched_until_commit_and_after_abort),
        cmocka_unit_test(full_device_fails_with_reason),
        cmocka_unit_test(set_is_all_or_nothing),
        cmocka_unit_test(symlink_target_replaced_link_kept),
        cmocka_unit_test(bad_targets_say_why),
        cmocka_unit_test(utf8_paths_and_same_file),
        cmocka_unit_test(patch_rewrites_a_reserved_field),
        cmocka_unit_test(folder_listing_is_sorted_and_filtered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
