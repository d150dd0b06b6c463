/* The handle table: a growable array of slots under one short lock.
 *
 * A handle packs (generation << AKP_SLOT_BITS) | (slot + 1). Destroying a handle bumps the
 * slot's generation, so a stale copy no longer matches and is reported, not dereferenced.
 * The lock is held only to look up / count references / recycle slots, never while a call
 * does its real work, so calls on distinct handles run in parallel. */
#include "plugin/handles.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
static SRWLOCK g_lock = SRWLOCK_INIT;
static void table_lock(void)
{
    AcquireSRWLockExclusive(&g_lock);
}
static void table_unlock(void)
{
    ReleaseSRWLockExclusive(&g_lock);
}
#else
#include <pthread.h>
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static void table_lock(void)
{
    pthread_mutex_lock(&g_lock);
}
static void table_unlock(void)
{
    pthread_mutex_unlock(&g_lock);
}
#endif

#define AKP_SLOT_BITS 20
#define AKP_SLOT_MASK ((uintptr_t)((1u << AKP_SLOT_BITS) - 1u))
#define AKP_MAX_SLOTS ((int32_t)AKP_SLOT_MASK) /* slot + 1 must fit the mask */
/* Generations are kept within the bits a pointer has above the slot bits. */
#define AKP_GEN_MASK ((uintptr_t)(~(uintptr_t)0) >> AKP_SLOT_BITS)

typedef struct akp_slot {
    akp_object *obj;      /* NULL when free */
    int32_t kind;         /* kind of the last object held (for "was destroyed" messages) */
    uintptr_t generation; /* >= 1; bumped on destroy */
    int32_t next_free;    /* free-list link, -1 at the end */
} akp_slot;

static akp_slot *g_slots;
static int32_t g_slot_count;
static int32_t g_free_head = -1;
static int32_t g_live;

static ak_handle make_handle(int32_t slot, uintptr_t generation)
{
    uintptr_t v = (generation << AKP_SLOT_BITS) | ((uintptr_t)slot + 1u);
    return (ak_handle)v;
}

static void split_handle(ak_handle h, int32_t *slot, uintptr_t *generation)
{
    uintptr_t v = (uintptr_t)h;
    *slot = (int32_t)(v & AKP_SLOT_MASK) - 1;
    *generation = v >> AKP_SLOT_BITS;
}

const char *akp_kind_name(int32_t kind)
{
    switch (kind) {
    case AKP_KIND_SKELETON: return "skeleton";
    case AKP_KIND_CLIP: return "clip";
    case AKP_KIND_CHARACTER: return "character";
    case AKP_KIND_FOOT_IK: return "foot IK";
    case AKP_KIND_RETARGETER: return "retargeter";
    case AKP_KIND_MOTION_DB: return "motion database";
    case AKP_KIND_MATCHER: return "matcher";
    default: return "object";
    }
}

ak_handle akp_register(akp_object *obj)
{
    if (!obj) return NULL;
    ak_handle h = NULL;
    obj->refs = 1;
    table_lock();
    if (g_free_head < 0 && g_slot_count < AKP_MAX_SLOTS) {
        int32_t grow = g_slot_count ? g_slot_count : 64;
        if (grow > AKP_MAX_SLOTS - g_slot_count) grow = AKP_MAX_SLOTS - g_slot_count;
        akp_slot *s =
            (akp_slot *)realloc(g_slots, sizeof(akp_slot) * (size_t)(g_slot_count + grow));
        if (s) {
            g_slots = s;
            /* Push the new slots so the lowest index comes out first. */
            for (int32_t i = g_slot_count + grow - 1; i >= g_slot_count; --i) {
                g_slots[i].obj = NULL;
                g_slots[i].kind = 0;
                g_slots[i].generation = 1;
                g_slots[i].next_free = g_free_head;
                g_free_head = i;
            }
            g_slot_count += grow;
        }
    }
    if (g_free_head >= 0) {
        int32_t slot = g_free_head;
        g_free_head = g_slots[slot].next_free;
        g_slots[slot].obj = obj;
        g_slots[slot].kind = obj->kind;
        g_slots[slot].next_free = -1;
        h = make_handle(slot, g_slots[slot].generation);
        obj->handle = h; /* before the unlock that publishes it */
        ++g_live;
    }
    table_unlock();
    return h;
}

/* Caller holds the lock. The slot of a live handle, or -1. */
static int32_t find_live(ak_handle h)
{
    int32_t slot;
    uintptr_t gen;
    if (!h) return -1;
    split_handle(h, &slot, &gen);
    if (slot < 0 || slot >= g_slot_count) return -1;
    if (!g_slots[slot].obj || g_slots[slot].generation != gen) return -1;
    return slot;
}

static void record_error(ak_handle handle, int32_t status, const char *text);

/* A live handle of another kind is refused, and the reason kept on it: the caller's
 * ak_plugin_last_error(handle) says "handle is a retargeter, not a character" (it said
 * nothing: the object itself had no error). */
int32_t akp_acquire(ak_handle h, int32_t kind, akp_object **out)
{
    int32_t status = AK_PLUGIN_ERR_HANDLE, wrong_kind = 0;
    *out = NULL;
    table_lock();
    int32_t slot = find_live(h);
    if (slot >= 0 && (kind == 0 || g_slots[slot].obj->kind == kind)) {
        *out = g_slots[slot].obj;
        ++(*out)->refs;
        status = AK_OK;
    } else if (slot >= 0) {
        wrong_kind = g_slots[slot].obj->kind;
    }
    table_unlock();
    if (wrong_kind) {
        char text[160];
        snprintf(text, sizeof text, "handle is a %s, not a %s", akp_kind_name(wrong_kind),
                 akp_kind_name(kind));
        record_error(h, status, text);
    }
    return status;
}

void akp_retain(akp_object *obj)
{
    if (!obj) return;
    table_lock();
    ++obj->refs;
    table_unlock();
}

void akp_release(akp_object *obj)
{
    if (!obj) return;
    table_lock();
    int32_t left = --obj->refs;
    table_unlock();
    if (left == 0 && obj->free_fn) obj->free_fn(obj);
}

int32_t akp_unregister(ak_handle h)
{
    akp_object *obj = NULL;
    table_lock();
    int32_t slot = find_live(h);
    if (slot >= 0) {
        obj = g_slots[slot].obj;
        g_slots[slot].obj = NULL;
        uintptr_t gen = (g_slots[slot].generation + 1u) & AKP_GEN_MASK;
        g_slots[slot].generation = gen ? gen : 1u;
        g_slots[slot].next_free = g_free_head;
        g_free_head = slot;
        --g_live;
    }
    table_unlock();
    if (!obj) return AK_PLUGIN_ERR_HANDLE;
    akp_release(obj);
    return AK_OK;
}

int32_t akp_describe_invalid(ak_handle h, int32_t kind, char *buffer, size_t size)
{
    char text[160];
    if (!h) {
        snprintf(text, sizeof text, "null %s handle", akp_kind_name(kind));
    } else {
        int32_t slot;
        uintptr_t gen;
        split_handle(h, &slot, &gen);
        table_lock();
        if (slot < 0 || slot >= g_slot_count || gen == 0 || gen > g_slots[slot].generation)
            snprintf(text, sizeof text, "invalid %s handle (never created by this plugin)",
                     akp_kind_name(kind));
        else if (!g_slots[slot].obj || g_slots[slot].generation != gen)
            /* A stale generation: say what it was when the slot still holds that kind. */
            snprintf(text, sizeof text, "%s handle was destroyed (use after destroy)",
                     akp_kind_name(kind                                   ? kind
                                   : g_slots[slot].generation == gen + 1u ? g_slots[slot].kind
                                                                          : 0));
        else
            snprintf(text, sizeof text, "handle is a %s, not a %s",
                     akp_kind_name(g_slots[slot].obj->kind), akp_kind_name(kind));
        table_unlock();
    }
    if (buffer && size > 0) {
        strncpy(buffer, text, size - 1);
        buffer[size - 1] = '\0';
    }
    return AK_PLUGIN_ERR_HANDLE;
}

int32_t akp_live_count(void)
{
    table_lock();
    int32_t n = g_live;
    table_unlock();
    return n;
}

/* ---- Per-thread errors ---- */

#if defined(_MSC_VER) && !defined(__clang__)
#define AKP_THREAD_LOCAL __declspec(thread)
#else
#define AKP_THREAD_LOCAL _Thread_local
#endif

/* The last failures of this thread, one per handle, most recent first when searched from
 * `t_next - 1` backwards. A handle value is never reused (generations), so a stale entry can
 * only be for a destroyed handle, which ak_plugin_last_error reports as such first. */
#define AKP_THREAD_ERRORS 8
typedef struct akp_thread_error {
    ak_handle handle;
    int32_t status;
    char message[AKP_ERROR_MAX];
} akp_thread_error;
static AKP_THREAD_LOCAL akp_thread_error t_errors[AKP_THREAD_ERRORS];
static AKP_THREAD_LOCAL int32_t t_next;

static akp_thread_error *thread_error(ak_handle handle)
{
    for (int32_t i = 0; i < AKP_THREAD_ERRORS; ++i) {
        akp_thread_error *e =
            &t_errors[(t_next - 1 - i + 2 * AKP_THREAD_ERRORS) % AKP_THREAD_ERRORS];
        if (handle && e->handle == handle) return e;
    }
    return NULL;
}

static akp_thread_error *error_slot(ak_handle handle)
{
    akp_thread_error *e = thread_error(handle);
    if (!e) {
        e = &t_errors[t_next];
        t_next = (t_next + 1) % AKP_THREAD_ERRORS;
    }
    e->handle = handle;
    return e;
}

static void record_error(ak_handle handle, int32_t status, const char *text)
{
    akp_thread_error *e = error_slot(handle);
    e->status = status;
    snprintf(e->message, sizeof e->message, "%s", text);
}

int32_t akp_fail(akp_object *obj, int32_t status, const char *fmt, ...)
{
    if (!obj) return status;
    akp_thread_error *e = error_slot(obj->handle);
    e->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return status;
}

void akp_clear_error(akp_object *obj)
{
    akp_thread_error *e = obj ? thread_error(obj->handle) : NULL;
    if (e) {
        e->status = AK_OK;
        e->message[0] = '\0';
    }
}

int32_t akp_last_error(ak_handle handle, char *buffer, int32_t size)
{
    const akp_thread_error *e = thread_error(handle);
    akp_copy_text(buffer, size, e ? e->message : "");
    return e ? e->status : AK_OK;
}

void akp_copy_text(char *buffer, int32_t size, const char *text)
{
    if (!buffer || size < 1) return;
    size_t n = text ? strlen(text) : 0;
    if (n > (size_t)size - 1) {
        n = (size_t)size - 1;
        /* Never cut a UTF-8 sequence in half: back up to the start of a code point. */
        while (n > 0 && ((unsigned char)text[n] & 0xC0u) == 0x80u)
            --n;
    }
    if (n) memcpy(buffer, text, n);
    buffer[n] = '\0';
}
