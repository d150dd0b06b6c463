/* The plugin's handle table (src/plugin/handles.c), compiled into this test and called
 * directly: a handle packs (generation << 20) | (slot + 1); destroying it bumps the slot's
 * generation, so a stale or double-freed copy is refused and described, never dereferenced;
 * reference counts keep an object alive across a destroy until the last user releases it;
 * errors are per thread and per handle; copied text never cuts a UTF-8 sequence. */
#include "test_util.h"

#include "plugin/handles.h"

#include <pthread.h>

typedef struct counted {
    akp_object hdr;
    int *freed; /* incremented by free_fn */
} counted;

static void counted_free(akp_object *obj)
{
    counted *c = (counted *)obj;
    ++*c->freed;
}

static counted make(int32_t kind, int *freed)
{
    counted c;
    memset(&c, 0, sizeof c);
    c.hdr.kind = kind;
    c.hdr.free_fn = counted_free;
    c.freed = freed;
    return c;
}

/* The table has no params struct; its validity case is the null and forged handle. */
static void handle_validity_null_and_forged_handles_are_refused(void **state)
{
    (void)state;
    akp_object *got = (akp_object *)(uintptr_t)1;
    assert_null(akp_register(NULL));
    assert_int_equal(akp_acquire(NULL, 0, &got), AK_PLUGIN_ERR_HANDLE);
    assert_null(got);
    assert_int_equal(akp_unregister(NULL), AK_PLUGIN_ERR_HANDLE);
    char text[160];
    assert_int_equal(akp_describe_invalid(NULL, AKP_KIND_CLIP, text, sizeof text),
                     AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(text, "null clip handle");
    /* slot 999998 of generation 7: never handed out */
    const ak_handle forged = (ak_handle)(uintptr_t)(((uintptr_t)7 << 20) | 999999u);
    assert_int_equal(akp_acquire(forged, 0, &got), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(akp_unregister(forged), AK_PLUGIN_ERR_HANDLE);
    akp_describe_invalid(forged, AKP_KIND_SKELETON, text, sizeof text);
    assert_string_equal(text, "invalid skeleton handle (never created by this plugin)");
}

/* Register -> acquire gives the object back with one more reference; the handle's low 20
 * bits are slot + 1 and the rest the generation; unregister frees only after release. */
static void register_acquire_release_counts_references(void **state)
{
    (void)state;
    int freed = 0;
    const int32_t live0 = akp_live_count();
    counted c = make(AKP_KIND_CLIP, &freed);
    const ak_handle h = akp_register(&c.hdr);
    assert_non_null(h);
    assert_ptr_equal(c.hdr.handle, h);
    assert_int_equal(c.hdr.refs, 1);
    assert_int_equal(akp_live_count(), live0 + 1);
    const uintptr_t v = (uintptr_t)h;
    assert_true((v & 0xFFFFFu) >= 1u);
    assert_true((v >> 20) >= 1u); /* generations start at 1 */
    akp_object *got = NULL;
    assert_int_equal(akp_acquire(h, AKP_KIND_CLIP, &got), AK_OK);
    assert_ptr_equal(got, &c.hdr);
    assert_int_equal(c.hdr.refs, 2);
    assert_int_equal(akp_acquire(h, 0, &got), AK_OK); /* kind 0: any kind */
    assert_int_equal(c.hdr.refs, 3);
    akp_release(got);
    /* destroyed while a call still holds it: freed at the last release, not before */
    assert_int_equal(akp_unregister(h), AK_OK);
    assert_int_equal(akp_live_count(), live0);
    assert_int_equal(freed, 0);
    assert_int_equal(c.hdr.refs, 1);
    akp_release(&c.hdr);
    assert_int_equal(freed, 1);
}

/* A destroyed handle is stale: acquire and a second destroy are refused and the message says
 * "was destroyed"; the slot is reused with the next generation, and the old handle still
 * does not reach the new object. */
static void stale_and_double_freed_handles_are_refused_by_generation(void **state)
{
    (void)state;
    int freed = 0;
    counted a = make(AKP_KIND_CHARACTER, &freed), b = make(AKP_KIND_FOOT_IK, &freed);
    const ak_handle ha = akp_register(&a.hdr);
    assert_int_equal(akp_unregister(ha), AK_OK);
    assert_int_equal(freed, 1);
    assert_int_equal(akp_unregister(ha), AK_PLUGIN_ERR_HANDLE); /* double destroy */
    assert_int_equal(freed, 1);
    akp_object *got = NULL;
    assert_int_equal(akp_acquire(ha, AKP_KIND_CHARACTER, &got), AK_PLUGIN_ERR_HANDLE);
    assert_null(got);
    char text[160];
    akp_describe_invalid(ha, 0, text, sizeof text);
    assert_string_equal(text, "character handle was destroyed (use after destroy)");
    /* the freed slot is the head of the free list: b gets it, one generation on */
    const ak_handle hb = akp_register(&b.hdr);
    const uintptr_t va = (uintptr_t)ha, vb = (uintptr_t)hb;
    assert_int_equal(vb & 0xFFFFFu, va & 0xFFFFFu);
    assert_int_equal(vb >> 20, (va >> 20) + 1u);
    assert_int_equal(akp_acquire(ha, 0, &got), AK_PLUGIN_ERR_HANDLE);
    assert_null(got);
    /* the slot holds another kind now: the stale handle is described without a kind */
    akp_describe_invalid(ha, 0, text, sizeof text);
    assert_string_equal(text, "foot IK handle was destroyed (use after destroy)");
    assert_int_equal(akp_unregister(hb), AK_OK);
    akp_describe_invalid(ha, 0, text, sizeof text);
    assert_string_equal(text, "object handle was destroyed (use after destroy)");
    assert_int_equal(freed, 2);
}

/* A live handle of another kind is refused, and the reason is kept on that handle for
 * akp_last_error (this thread). */
static void wrong_kind_is_refused_and_explained(void **state)
{
    (void)state;
    int freed = 0;
    counted c = make(AKP_KIND_RETARGETER, &freed);
    const ak_handle h = akp_register(&c.hdr);
    akp_object *got = NULL;
    assert_int_equal(akp_acquire(h, AKP_KIND_CHARACTER, &got), AK_PLUGIN_ERR_HANDLE);
    assert_null(got);
    assert_int_equal(c.hdr.refs, 1);
    char text[AKP_ERROR_MAX];
    assert_int_equal(akp_last_error(h, text, (int32_t)sizeof text), AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(text, "handle is a retargeter, not a character");
    akp_describe_invalid(h, AKP_KIND_MATCHER, text, sizeof text);
    assert_string_equal(text, "handle is a retargeter, not a matcher");
    assert_int_equal(akp_unregister(h), AK_OK);
    assert_int_equal(freed, 1);
}

/* 100 objects take 100 distinct slots (the table grows past its first 64); every handle
 * reaches its own object; destroying them all returns the live count. */
static void the_table_grows_and_keeps_every_handle_apart(void **state)
{
    (void)state;
    enum { N = 100 };
    static counted objs[N];
    ak_handle h[N];
    int freed = 0;
    const int32_t live0 = akp_live_count();
    for (int i = 0; i < N; ++i) {
        objs[i] = make(AKP_KIND_SKELETON, &freed);
        h[i] = akp_register(&objs[i].hdr);
        assert_non_null(h[i]);
        for (int k = 0; k < i; ++k)
            assert_true(h[k] != h[i]);
    }
    assert_int_equal(akp_live_count(), live0 + N);
    for (int i = 0; i < N; ++i) {
        akp_object *got = NULL;
        assert_int_equal(akp_acquire(h[i], AKP_KIND_SKELETON, &got), AK_OK);
        assert_ptr_equal(got, &objs[i].hdr);
        akp_release(got);
    }
    for (int i = 0; i < N; ++i)
        assert_int_equal(akp_unregister(h[i]), AK_OK);
    assert_int_equal(freed, N);
    assert_int_equal(akp_live_count(), live0);
}

/* akp_fail records per handle; the latest of 8 remembered, a 9th handle's error pushes the
 * oldest out; clear empties one; last_error of a handle without one is AK_OK and "". */
static void errors_are_kept_per_handle(void **state)
{
    (void)state;
    int freed = 0;
    enum { N = 9 };
    counted c[N];
    for (int i = 0; i < N; ++i) {
        c[i] = make(AKP_KIND_CLIP, &freed);
        assert_non_null(akp_register(&c[i].hdr));
    }
    char text[AKP_ERROR_MAX];
    assert_int_equal(akp_last_error(c[0].hdr.handle, text, (int32_t)sizeof text), AK_OK);
    assert_string_equal(text, "");
    assert_int_equal(akp_fail(&c[0].hdr, AK_ERR_INVALID_ARG, "dt = %g", 11.0), AK_ERR_INVALID_ARG);
    assert_int_equal(akp_fail(&c[0].hdr, AK_ERR_LIMIT, "second %d", 2), AK_ERR_LIMIT);
    assert_int_equal(akp_last_error(c[0].hdr.handle, text, (int32_t)sizeof text), AK_ERR_LIMIT);
    assert_string_equal(text, "second 2"); /* the same entry overwritten */
    akp_clear_error(&c[0].hdr);
    assert_int_equal(akp_last_error(c[0].hdr.handle, text, (int32_t)sizeof text), AK_OK);
    assert_string_equal(text, "");
    for (int i = 1; i < N; ++i)
        akp_fail(&c[i].hdr, AK_ERR_PARSE, "object %d", i);
    /* 8 entries: c[0]'s (cleared) was the oldest and is gone; c[1]..c[8] are kept */
    assert_int_equal(akp_last_error(c[1].hdr.handle, text, (int32_t)sizeof text), AK_ERR_PARSE);
    assert_string_equal(text, "object 1");
    assert_int_equal(akp_last_error(c[8].hdr.handle, text, (int32_t)sizeof text), AK_ERR_PARSE);
    assert_string_equal(text, "object 8");
    assert_int_equal(akp_fail(NULL, AK_ERR_IO, "no object"), AK_ERR_IO);
    for (int i = 0; i < N; ++i)
        assert_int_equal(akp_unregister(c[i].hdr.handle), AK_OK);
    assert_int_equal(freed, N);
}

static void *fail_on_other_thread(void *arg)
{
    akp_fail((akp_object *)arg, AK_ERR_IO, "other thread");
    return NULL;
}

/* Another thread's failure on the same handle is not seen on this one. */
static void errors_are_per_thread(void **state)
{
    (void)state;
    int freed = 0;
    counted c = make(AKP_KIND_CLIP, &freed);
    const ak_handle h = akp_register(&c.hdr);
    akp_fail(&c.hdr, AK_ERR_LIMIT, "this thread");
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, fail_on_other_thread, &c.hdr), 0);
    pthread_join(t, NULL);
    char text[AKP_ERROR_MAX];
    assert_int_equal(akp_last_error(h, text, (int32_t)sizeof text), AK_ERR_LIMIT);
    assert_string_equal(text, "this thread");
    assert_int_equal(akp_unregister(h), AK_OK);
}

/* Copies cut at the buffer and never inside a UTF-8 sequence: "añb" (a, C3 B1, b) into 3
 * bytes is "a" (the 2-byte ñ does not fit after it with the terminator), into 4 "añ". */
static void copy_text_cuts_at_code_points(void **state)
{
    (void)state;
    char buf[8];
    akp_copy_text(buf, 3,
                  "a\xC3\xB1"
                  "b");
    assert_string_equal(buf, "a");
    akp_copy_text(buf, 4,
                  "a\xC3\xB1"
                  "b");
    assert_string_equal(buf, "a\xC3\xB1");
    akp_copy_text(buf, 8,
                  "a\xC3\xB1"
                  "b");
    assert_string_equal(buf, "a\xC3\xB1"
                             "b");
    akp_copy_text(buf, 1, "abc");
    assert_string_equal(buf, "");
    akp_copy_text(buf, 8, NULL);
    assert_string_equal(buf, "");
    buf[0] = 'x';
    akp_copy_text(buf, 0, "abc"); /* no room: untouched */
    assert_int_equal(buf[0], 'x');
    akp_copy_text(NULL, 8, "abc");
}

static void kind_names(void **state)
{
    (void)state;
    assert_string_equal(akp_kind_name(AKP_KIND_SKELETON), "skeleton");
    assert_string_equal(akp_kind_name(AKP_KIND_MOTION_DB), "motion database");
    assert_string_equal(akp_kind_name(AKP_KIND_MATCHER), "matcher");
    assert_string_equal(akp_kind_name(0), "object");
    assert_string_equal(akp_kind_name(99), "object");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(handle_validity_null_and_forged_handles_are_refused),
        cmocka_unit_test(register_acquire_release_counts_references),
        cmocka_unit_test(stale_and_double_freed_handles_are_refused_by_generation),
        cmocka_unit_test(wrong_kind_is_refused_and_explained),
        cmocka_unit_test(the_table_grows_and_keeps_every_handle_apart),
        cmocka_unit_test(errors_are_kept_per_handle),
        cmocka_unit_test(errors_are_per_thread),
        cmocka_unit_test(copy_text_cuts_at_code_points),
        cmocka_unit_test(kind_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
