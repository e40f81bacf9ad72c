// SPDX-License-Identifier: MIT
/* lx_emul: mutexes of the shadow headers (lx_emul/sync.h): lx_emul/shared.h's sleeping lock,
 * held in the struct. Its own file, so a link that takes mutexes from the real-header
 * emulation (kernel/lx_emul_real/mutex.c) does not pull these in with the spinlocks. */
#include "internal.h"

void lx_emul_mutex_init(struct mutex* lock, const char* name)
{
    lock->l.owner = NULL;
    lock->l.waitq = NULL;
    lock->l.name = name;
    lock->l.woken = NULL;
    lock->l.handoff = 0;
}

void mutex_lock(struct mutex* lock) { lx_emul_lock_acquire(&lock->l, "mutex_lock"); }
int mutex_trylock(struct mutex* lock) { return lx_emul_lock_try(&lock->l); }
void mutex_unlock(struct mutex* lock) { lx_emul_lock_release(&lock->l, "mutex_unlock"); }
bool mutex_is_locked(struct mutex* lock) { return lock->l.owner != NULL; }
void mutex_destroy(struct mutex* lock) { lx_emul_lock_destroy(&lock->l, "mutex_destroy"); }
