/* Internal: the plugin's handle table. Handles are (slot, generation) pairs packed into a
 * pointer-sized value; objects are reference counted so a character can keep the skeleton
 * and clip it uses alive after their own handles are destroyed, and so a call holds its
 * object for its whole duration. The table is the plugin's only global state. */
#ifndef AK_PLUGIN_HANDLES_H
#define AK_PLUGIN_HANDLES_H

#include "animkit/plugin.h"

enum { AKP_KIND_SKELETON = 1, AKP_KIND_CLIP = 2, AKP_KIND_CHARACTER = 3, AKP_KIND_FOOT_IK = 4,
       AKP_KIND_RETARGETER = 5, AKP_KIND_MOTION_DB = 6, AKP_KIND_MATCHER = 7 };

#define AKP_ERROR_MAX 512

/* Every plugin object starts with this header. `refs` is guarded by the table lock. Errors
 * are not stored here: a failure is recorded for the calling thread (see akp_fail), so
 * concurrent failing calls on one shared skeleton or clip never race or read each other's
 * message. `handle` is set once, before the handle is published. */
typedef struct akp_object {
    int32_t kind;
    int32_t refs;
    void (*free_fn)(struct akp_object *obj);
    ak_handle handle;
} akp_object;

/* Gives `obj` (refs = 1, owned by the new handle) a handle; NULL when the table is full or
 * out of memory (the caller then frees obj itself). */
ak_handle akp_register(akp_object *obj);
/* Looks `handle` up; on success takes a reference the caller must drop with akp_release.
 * `kind` 0 accepts any kind. Returns AK_OK or AK_PLUGIN_ERR_HANDLE. */
int32_t akp_acquire(ak_handle handle, int32_t kind, akp_object **out);
/* Takes another reference on an object already held. */
void akp_retain(akp_object *obj);
/* Drops a reference; frees the object (outside the lock) when it was the last. */
void akp_release(akp_object *obj);
/* Invalidates `handle` and drops its reference. AK_PLUGIN_ERR_HANDLE if it was not live. */
int32_t akp_unregister(ak_handle handle);
/* Why `handle` is not valid for `kind`, as text; returns AK_PLUGIN_ERR_HANDLE. */
int32_t akp_describe_invalid(ak_handle handle, int32_t kind, char *buffer, size_t size);
int32_t akp_live_count(void);
const char *akp_kind_name(int32_t kind);

/* Records a failure of a call on obj's handle for the calling thread (printf-style) and
 * returns status. Each thread keeps the last failures on its few most recent handles. */
int32_t akp_fail(akp_object *obj, int32_t status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Forgets the calling thread's last failure on obj's handle (a call that succeeded). */
void akp_clear_error(akp_object *obj);
/* The calling thread's last failure on `handle`: its status (AK_OK when none) and message. */
int32_t akp_last_error(ak_handle handle, char *buffer, int32_t size);

/* Copies `text` into a caller buffer: NUL-terminated, truncated, nothing written when
 * buffer is NULL or size < 1. */
void akp_copy_text(char *buffer, int32_t size, const char *text);

#endif
