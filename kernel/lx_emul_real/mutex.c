// SPDX-License-Identifier: MIT
/* lx_emul_real: mutexes. The kernel's struct mutex has no field for an lx_kit task or wait
 * handle: lx_emul's sleeping lock (lx_emul/shared.h) is kept beside it. The real owner field
 * names the owner's task_struct (as __mutex_owner reads it), so the headers' inline tests agree. */
#include <linux/mutex.h>

#include <lx_emul/shared.h>

#include "internal.h"

static struct lx_emul_lock *lock_of(struct mutex *lock)
{
    return lx_real_side(lock, sizeof(struct lx_emul_lock));
}

static void sync_owner(struct mutex *lock, const struct lx_emul_lock *l)
{
    atomic_long_set(&lock->owner, l->owner ? (long)lx_real_task(l->owner) : 0);
}

void __mutex_init(struct mutex *lock, const char *name, struct lock_class_key *key)
{
    (void)key;
    atomic_long_set(&lock->owner, 0);
    INIT_LIST_HEAD(&lock->wait_list);
    struct lx_emul_lock *l = lock_of(lock);
    if (l->owner)
        lx_kit_abort("mutex_init: mutex '%s' is held by task '%s'", name,
                     lx_kit_task_name(l->owner));
    lx_emul_lock_destroy(l, "mutex_init");
    lx_real_side_reset(lock, sizeof(*l));
    l->name = name;
}

void mutex_lock(struct mutex *lock)
{
    struct lx_emul_lock *l = lock_of(lock);
    lx_real_might_sleep("mutex_lock");
    lx_emul_lock_acquire(l, "mutex_lock");
    sync_owner(lock, l);
}

int mutex_lock_interruptible(struct mutex *lock)
{
    mutex_lock(lock); /* no signals in the simulation */
    return 0;
}

int mutex_lock_killable(struct mutex *lock)
{
    mutex_lock(lock);
    return 0;
}

int mutex_trylock(struct mutex *lock)
{
    struct lx_emul_lock *l = lock_of(lock);
    int got = lx_emul_lock_try(l);
    sync_owner(lock, l);
    return got;
}

void mutex_unlock(struct mutex *lock)
{
    struct lx_emul_lock *l = lock_of(lock);
    lx_emul_lock_release(l, "mutex_unlock");
    sync_owner(lock, l);
}

bool mutex_is_locked(struct mutex *lock)
{
    return lock_of(lock)->owner != NULL;
}
