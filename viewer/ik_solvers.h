/* animkit viewer — one call for every IK solver the library has (ak_ik_solve_any), so the IK
 * mode can switch between them with a key; solver indices are ak_ik_kind values. */
#ifndef AKV_IK_SOLVERS_H
#define AKV_IK_SOLVERS_H

#include "animkit/animkit.h"
#include "animkit/ik.h"

typedef struct akv_ik_request {
    const ak_skeleton *skeleton;
    const int32_t *chain; /* root first, tip last */
    int chain_len;
    ak_vec3 target; /* model space, file units */
    int use_pole;
    ak_vec3 pole;              /* model space, file units */
    int iterations;            /* for the iterative solvers */
    unsigned char **workspace; /* Jacobian scratch owned by the caller (grown with realloc, */
    size_t *workspace_size;    /* freed by the caller) */
} akv_ik_request;

int akv_ik_solver_count(void);
const char *akv_ik_solver_name(int index);
/* Index of the solver called `name`, or -1. */
int akv_ik_solver_index(const char *name);
/* "limb, ccd, ..." */
const char *akv_ik_solver_list(void);
/* Solves in place: `local` and `world` (model space) of the pose are updated. */
int32_t akv_ik_solve(int index, const akv_ik_request *q, ak_xform *local, ak_xform *world,
                     ak_ik_result *result, ak_error *err);

#endif
