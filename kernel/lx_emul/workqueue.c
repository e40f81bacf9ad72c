// SPDX-License-Identifier: MIT
/* lx_emul: workqueues with kernel pending/running semantics (see lx_emul/workqueue.h), and
 * their work items for C on the real headers (lx_emul/shared.h: lx_emul_work_item_*).
 * Workers never touch a work item after its function returned (the function may free it); the
 * running state lives in the worker records. */
#include <stdlib.h>

#include "internal.h"

#include <lx_emul/workqueue.h>

struct lx_emul_worker {
    struct workqueue_struct* wq;
    struct work_struct* current_work; /* NULL when idle */
    unsigned long current_seq;        /* queued_seq of the instance it runs */
    bool exited;
    struct lx_kit_task* task;
    struct lx_emul_worker* next;
};

struct workqueue_struct {
    char name[32];
    unsigned int flags;
    int max_active;
    struct list_head pending;
    struct lx_kit_wait* work_wq; /* idle workers */
    struct lx_kit_wait* done_wq; /* flushers, destroyers */
    struct lx_emul_worker* workers;
    int nr_workers;
    int nr_busy;
    bool dying;
};

static struct workqueue_struct* the_system_wq;

static bool worker_runs(struct workqueue_struct* wq, struct work_struct* work, unsigned long seq)
{
    for (struct lx_emul_worker* w = wq->workers; w; w = w->next)
        if (w->current_work == work && w->current_seq <= seq)
            return true;
    return false;
}

static struct work_struct* pick(struct workqueue_struct* wq)
{
    struct work_struct* work;
    /* Skip items another worker is still running: a work item never runs concurrently with
     * itself; the running worker picks it up when done. */
    list_for_each_entry(work, &wq->pending, entry) {
        if (!worker_runs(wq, work, ULONG_MAX))
            return work;
    }
    return NULL;
}

static void worker_thread(void* arg)
{
    struct lx_emul_worker* self = arg;
    struct workqueue_struct* wq = self->wq;
    for (;;) {
        struct work_struct* work = pick(wq);
        if (!work) {
            if (wq->dying)
                break;
            lx_kit_wait_block(wq->work_wq, -1, "worker idle");
            continue;
        }
        list_del_init(&work->entry);
        clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
        self->current_work = work;
        self->current_seq = work->queued_seq;
        wq->nr_busy++;
        work_func_t fn = work->func;
        fn(work); /* may free `work` */
        if (*lx_kit_task_atomic_depth(lx_kit_task_current()) != 0)
            lx_kit_abort("workqueue '%s': work function %p returned in atomic context "
                         "(unbalanced spin_lock/local_bh_disable)",
                         wq->name, (void*)fn);
        wq->nr_busy--;
        self->current_work = NULL;
        lx_kit_wait_notify_all(wq->done_wq);
    }
    self->exited = true;
    wq->nr_workers--;
    lx_kit_wait_notify_all(wq->done_wq);
}

static void spawn_worker(struct workqueue_struct* wq)
{
    char name[48];
    struct lx_emul_worker* w = calloc(1, sizeof(*w));
    if (!w)
        lx_kit_abort("out of host memory allocating a worker");
    w->wq = wq;
    w->next = wq->workers;
    wq->workers = w;
    lx_emul_snprintf(name, sizeof(name), "kworker/%s:%d", wq->name, wq->nr_workers);
    wq->nr_workers++;
    w->task = lx_kit_task_create(name, worker_thread, w);
}

static void enqueue(struct workqueue_struct* wq, struct work_struct* work)
{
    work->wq = wq;
    work->queued_seq++;
    list_add_tail(&work->entry, &wq->pending);
    lx_kit_wait_notify_one(wq->work_wq);
    /* More pending items than workers that are not running one: add a worker (the kernel's
     * pools do so when a worker sleeps), up to max_active. */
    if ((int)list_count_nodes(&wq->pending) > wq->nr_workers - wq->nr_busy &&
        wq->nr_workers < wq->max_active)
        spawn_worker(wq);
}

struct workqueue_struct* lx_emul_alloc_workqueue(unsigned int flags, int max_active,
                                                 const char* fmt, ...)
{
    va_list ap;
    struct workqueue_struct* wq = calloc(1, sizeof(*wq));
    if (!wq)
        return NULL;
    va_start(ap, fmt);
    lx_emul_vsnprintf(wq->name, sizeof(wq->name), fmt, ap);
    va_end(ap);
    wq->flags = flags;
    wq->max_active = max_active > 0 ? max_active : WQ_DFL_ACTIVE;
    if (flags & __WQ_ORDERED)
        wq->max_active = 1;
    INIT_LIST_HEAD(&wq->pending);
    wq->work_wq = lx_kit_wait_alloc("workqueue workers");
    wq->done_wq = lx_kit_wait_alloc("workqueue done");
    return wq;
}

struct workqueue_struct* lx_emul_system_wq(void)
{
    if (!the_system_wq)
        the_system_wq = lx_emul_alloc_workqueue(0, WQ_DFL_ACTIVE, "events");
    return the_system_wq;
}

void lx_emul_init_work(struct work_struct* work, work_func_t func)
{
    work->data = 0;
    INIT_LIST_HEAD(&work->entry);
    work->func = func;
    work->wq = NULL;
    work->queued_seq = 0;
}

bool queue_work(struct workqueue_struct* wq, struct work_struct* work)
{
    if (!wq)
        lx_kit_abort("queue_work on a NULL workqueue");
    if (wq->dying) {
        lx_emul_warn(__FILE__, __LINE__, "queue_work", "queue_work on dying workqueue '%s'",
                     wq->name);
        return false;
    }
    if (test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)))
        return false;
    enqueue(wq, work);
    return true;
}

static void wait_not_running(struct workqueue_struct* wq, struct work_struct* work,
                             unsigned long seq, const char* why)
{
    while (worker_runs(wq, work, seq))
        lx_kit_wait_block(wq->done_wq, -1, why);
}

bool flush_work(struct work_struct* work)
{
    struct workqueue_struct* wq = work->wq;
    unsigned long target = work->queued_seq;
    bool waited = false;
    if (!wq)
        return false;
    lx_emul_might_sleep("flush_work");
    for (;;) {
        bool busy = (work_pending(work) && work->queued_seq <= target) ||
                    worker_runs(wq, work, target);
        if (!busy)
            break;
        for (struct lx_emul_worker* w = wq->workers; w; w = w->next)
            if (w->current_work == work && w->task == lx_kit_task_current())
                lx_kit_abort("flush_work: work function flushes itself on '%s' (deadlock)",
                             wq->name);
        waited = true;
        lx_kit_wait_block(wq->done_wq, -1, "flush_work");
    }
    return waited;
}

bool cancel_work(struct work_struct* work)
{
    if (!work_pending(work))
        return false;
    list_del_init(&work->entry);
    clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
    return true;
}

bool cancel_work_sync(struct work_struct* work)
{
    bool ret = cancel_work(work);
    if (work->wq) {
        lx_emul_might_sleep("cancel_work_sync");
        wait_not_running(work->wq, work, ULONG_MAX, "cancel_work_sync");
    }
    return ret;
}

void flush_workqueue(struct workqueue_struct* wq)
{
    lx_emul_might_sleep("flush_workqueue");
    while (!list_empty(&wq->pending) || wq->nr_busy > 0)
        lx_kit_wait_block(wq->done_wq, -1, "flush_workqueue");
}

void destroy_workqueue(struct workqueue_struct* wq)
{
    if (!wq)
        return;
    for (struct lx_emul_worker* w = wq->workers; w; w = w->next)
        if (w->task == lx_kit_task_current())
            lx_kit_abort("destroy_workqueue('%s') called from one of its own workers (deadlock)",
                         wq->name);
    flush_workqueue(wq);
    wq->dying = true;
    lx_kit_wait_notify_all(wq->work_wq);
    while (wq->nr_workers > 0)
        lx_kit_wait_block(wq->done_wq, -1, "destroy_workqueue");
    while (wq->workers) {
        struct lx_emul_worker* w = wq->workers;
        wq->workers = w->next;
        free(w);
    }
    lx_kit_wait_free(wq->work_wq);
    lx_kit_wait_free(wq->done_wq);
    if (wq == the_system_wq)
        the_system_wq = NULL;
    free(wq);
}

/* ---- delayed work ---- */

static void delayed_work_timer_fn(struct timer_list* t)
{
    struct delayed_work* dwork = from_timer(dwork, t, timer);
    enqueue(dwork->wq, &dwork->work);
}

void lx_emul_init_delayed_work(struct delayed_work* dwork, work_func_t func)
{
    lx_emul_init_work(&dwork->work, func);
    lx_emul_timer_setup(&dwork->timer, delayed_work_timer_fn, 0);
    dwork->wq = NULL;
    dwork->cpu = 0;
}

bool queue_delayed_work(struct workqueue_struct* wq, struct delayed_work* dwork,
                        unsigned long delay)
{
    if (test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(&dwork->work)))
        return false;
    dwork->wq = wq;
    dwork->work.wq = wq;
    if (!delay) {
        enqueue(wq, &dwork->work);
        return true;
    }
    mod_timer(&dwork->timer, lx_emul_jiffies() + delay);
    return true;
}

bool cancel_delayed_work(struct delayed_work* dwork)
{
    if (del_timer(&dwork->timer)) {
        clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(&dwork->work));
        return true;
    }
    return cancel_work(&dwork->work);
}

bool cancel_delayed_work_sync(struct delayed_work* dwork)
{
    bool ret = cancel_delayed_work(dwork);
    del_timer_sync(&dwork->timer);
    if (dwork->work.wq)
        wait_not_running(dwork->work.wq, &dwork->work, ULONG_MAX, "cancel_delayed_work_sync");
    return ret;
}

bool mod_delayed_work(struct workqueue_struct* wq, struct delayed_work* dwork,
                      unsigned long delay)
{
    bool was_pending = cancel_delayed_work(dwork);
    queue_delayed_work(wq, dwork, delay);
    return was_pending;
}

bool flush_delayed_work(struct delayed_work* dwork)
{
    if (del_timer_sync(&dwork->timer))
        enqueue(dwork->wq, &dwork->work);
    return flush_work(&dwork->work);
}

/* ---- work items of C whose struct work_struct is not lx_emul's (lx_emul/shared.h) ---- */

struct lx_emul_work_item {
    struct work_struct work;
    void (*run)(void* ctx);
    void* ctx;
};

static void work_item_fn(struct work_struct* work)
{
    struct lx_emul_work_item* item = container_of(work, struct lx_emul_work_item, work);
    item->run(item->ctx);
}

struct lx_emul_work_item* lx_emul_work_item_alloc(void (*run)(void* ctx), void* ctx)
{
    struct lx_emul_work_item* item = calloc(1, sizeof(*item));
    if (!item)
        lx_kit_abort("out of host memory allocating a work item");
    lx_emul_init_work(&item->work, work_item_fn);
    item->run = run;
    item->ctx = ctx;
    return item;
}

int lx_emul_work_item_queue(struct workqueue_struct* wq, struct lx_emul_work_item* item)
{
    return lx_emul_queue_work(wq ? wq : lx_emul_system_wq(), &item->work);
}

int lx_emul_work_item_flush(struct lx_emul_work_item* item)
{
    return lx_emul_flush_work(&item->work);
}

int lx_emul_work_item_cancel(struct lx_emul_work_item* item)
{
    return lx_emul_cancel_work(&item->work);
}

int lx_emul_work_item_cancel_sync(struct lx_emul_work_item* item)
{
    return lx_emul_cancel_work_sync(&item->work);
}
