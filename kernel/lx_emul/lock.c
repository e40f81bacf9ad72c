// SPDX-License-Identifier: MIT
/* lx_emul: what the locks of both header sets share, on lx_kit alone (lx_emul/shared.h):
 * the sleeping lock behind a mutex, the might-sleep check and the BH-enable hooks. No kernel
 * struct layout appears here, so the emulation compiled against the real headers
 * (kernel/lx_emul_real/) calls the same code as the one on the shadow headers. */
#include <lx_emul/shared.h>

#define LX_EMUL_MAX_BH_HOOKS 8

void lx_emul_might_sleep(const char* what)
{
    struct lx_kit_task* t = lx_kit_task_current();
    if (*lx_kit_task_atomic_depth(t) > 0)
        lx_kit_abort("%s: sleeping function called from atomic context (task '%s' holds a "
                     "spinlock, has BH disabled or runs a hard-IRQ/timer handler)",
                     what, lx_kit_task_name(t));
}

static const char* lock_name(const struct lx_emul_lock* l) { return l->name ? l->name : "?"; }

void lx_emul_lock_acquire(struct lx_emul_lock* l, const char* func)
{
    struct lx_kit_task* t = lx_kit_task_current();
    lx_emul_might_sleep(func);
    if (l->owner == t)
        lx_kit_abort("%s: recursive locking of mutex '%s' by task '%s' (deadlock)", func,
                     lock_name(l), lx_kit_task_name(t));
    if (!l->owner) {
        l->owner = t;
        return;
    }
    /* FIFO hand-off: release makes the longest waiter the owner before waking it. */
    if (!l->waitq)
        l->waitq = lx_kit_wait_alloc("mutex");
    lx_kit_wait_block(l->waitq, -1, func);
    if (l->owner != t)
        lx_kit_abort("%s: task '%s' woke up on mutex '%s' without ownership", func,
                     lx_kit_task_name(t), lock_name(l));
}

int lx_emul_lock_try(struct lx_emul_lock* l)
{
    if (l->owner)
        return 0;
    l->owner = lx_kit_task_current();
    return 1;
}

void lx_emul_lock_release(struct lx_emul_lock* l, const char* func)
{
    struct lx_kit_task* t = lx_kit_task_current();
    if (l->owner != t)
        lx_kit_abort("%s: task '%s' unlocks mutex '%s' it does not own (owner: %s)", func,
                     lx_kit_task_name(t), lock_name(l),
                     l->owner ? lx_kit_task_name(l->owner) : "nobody");
    l->owner = l->waitq ? lx_kit_wait_notify_one(l->waitq) : NULL;
}

void lx_emul_lock_destroy(struct lx_emul_lock* l, const char* func)
{
    if (l->owner)
        lx_kit_abort("%s: mutex '%s' is still held by task '%s'", func, lock_name(l),
                     lx_kit_task_name(l->owner));
    if (l->waitq) {
        lx_kit_wait_free(l->waitq);
        l->waitq = NULL;
    }
}

/* ---- BH-enable hooks ---- */

static void (*bh_hooks[LX_EMUL_MAX_BH_HOOKS])(void);
static int bh_hook_count;

void lx_emul_register_bh_enable_hook(void (*fn)(void))
{
    for (int i = 0; i < bh_hook_count; i++)
        if (bh_hooks[i] == fn)
            return;
    if (bh_hook_count == LX_EMUL_MAX_BH_HOOKS)
        lx_kit_abort("too many BH-enable hooks (max %d)", LX_EMUL_MAX_BH_HOOKS);
    bh_hooks[bh_hook_count++] = fn;
}

void lx_emul_run_bh_hooks(void)
{
    for (int i = 0; i < bh_hook_count; i++)
        bh_hooks[i]();
}
