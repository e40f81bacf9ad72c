/* SPDX-License-Identifier: MIT */
/* lx_emul: tasks, scheduling and kernel threads (linux/sched.h, kthread.h).
 * Every task is a SystemC thread (lx_kit). schedule() gives up the CPU: in TASK_RUNNING state for
 * the yield quantum (default one jiffy) or until woken; in a sleeping state until woken
 * (wake_up_process, kthread_stop). kthread_stop() sets the stop flag, wakes the thread and waits
 * until its function returned; a thread that was never woken does not run (-EINTR). */
#ifndef LX_EMUL_SCHED_H
#define LX_EMUL_SCHED_H

#include <lx_emul/types.h>
#include <lx_emul/err.h>
#include <lx_emul/wait.h>

#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_UNINTERRUPTIBLE 0x0002
#define TASK_KILLABLE (TASK_UNINTERRUPTIBLE | 0x0100)
#define TASK_IDLE (TASK_UNINTERRUPTIBLE | 0x0400)
#define TASK_NORMAL (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
#define TASK_COMM_LEN 16

struct task_struct {
    char comm[TASK_COMM_LEN];
    int pid;
    unsigned int __state;
    /* lx_emul */
    struct lx_kit_task* kit;
    int (*threadfn)(void* data);
    void* data;
    bool is_kthread;
    bool started;
    bool should_stop;
    bool exited;
    int result;
    int bh_depth;
    struct completion exited_done;
};

struct task_struct* lx_emul_current(void);
#define current lx_emul_current()
#define get_current() lx_emul_current()
#define set_current_state(s) (current->__state = (s))
#define __set_current_state(s) (current->__state = (s))
#define get_task_struct(t) ((void)(t))
#define put_task_struct(t) ((void)(t))
#define task_pid_nr(t) ((t)->pid)
#define signal_pending(t) 0
#define fatal_signal_pending(t) 0
#define need_resched() 0
#define yield() schedule()

void schedule(void);
long schedule_timeout(long timeout);
long schedule_timeout_interruptible(long timeout);
long schedule_timeout_uninterruptible(long timeout);
long schedule_timeout_idle(long timeout);
int wake_up_process(struct task_struct* t);

/* ---- kthreads ---- */
struct task_struct* lx_emul_kthread_create(int (*threadfn)(void* data), void* data,
                                           const char* namefmt, ...) __printf(3, 4);
#define kthread_create(threadfn, data, namefmt, ...)                                               \
    lx_emul_kthread_create(threadfn, data, namefmt, ##__VA_ARGS__)
#define kthread_create_on_node(threadfn, data, node, namefmt, ...)                                 \
    lx_emul_kthread_create(threadfn, data, namefmt, ##__VA_ARGS__)
#define kthread_run(threadfn, data, namefmt, ...)                                                  \
    ({                                                                                             \
        struct task_struct* __lx_k = kthread_create(threadfn, data, namefmt, ##__VA_ARGS__);       \
        if (!IS_ERR(__lx_k))                                                                       \
            wake_up_process(__lx_k);                                                               \
        __lx_k;                                                                                    \
    })
int kthread_stop(struct task_struct* k);
bool kthread_should_stop(void);
static inline void kthread_bind(struct task_struct* k, unsigned int cpu)
{
    (void)k;
    (void)cpu;
}
static inline void sched_set_fifo(struct task_struct* p) { (void)p; }
static inline void sched_set_fifo_low(struct task_struct* p) { (void)p; }
static inline void set_user_nice(struct task_struct* p, long nice)
{
    (void)p;
    (void)nice;
}

#endif /* LX_EMUL_SCHED_H */
