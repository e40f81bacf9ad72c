/* SPDX-License-Identifier: MIT */
/* lx_emul: interrupts (linux/interrupt.h, irq.h).
 * An irq number is bound to an interrupt source the testbench registered in lx_kit
 * (nicsim::lx_kit::register_irq). request_threaded_irq() starts one lx_kit task per action
 * ("irq/<n>-<name>") that waits for the line, then runs the primary handler (atomic context) and,
 * if it returns IRQ_WAKE_THREAD or there is none, the thread function; the line stays masked
 * until the thread returns (ONESHOT). Policy after the thread returns:
 *  - level (IRQF_TRIGGER_LOW/HIGH): if the line is still active, run again;
 *  - edge (IRQF_TRIGGER_FALLING/RISING): active edges that arrived while the handler ran are
 *    remembered as ONE pending edge, which runs the handler once more.
 * An IRQ-to-thread latency (lx_kit platform parameter, default 0) passes before each run.
 * disable_irq() waits for a running handler; edges while disabled are replayed on enable. */
#ifndef LX_EMUL_IRQ_H
#define LX_EMUL_IRQ_H

#include <lx_emul/types.h>

enum irqreturn {
    IRQ_NONE = (0 << 0),
    IRQ_HANDLED = (1 << 0),
    IRQ_WAKE_THREAD = (1 << 1),
};
typedef enum irqreturn irqreturn_t;
#define IRQ_RETVAL(x) ((x) ? IRQ_HANDLED : IRQ_NONE)
typedef irqreturn_t (*irq_handler_t)(int, void*);

#define IRQF_TRIGGER_NONE 0x00000000
#define IRQF_TRIGGER_RISING 0x00000001
#define IRQF_TRIGGER_FALLING 0x00000002
#define IRQF_TRIGGER_HIGH 0x00000004
#define IRQF_TRIGGER_LOW 0x00000008
#define IRQF_TRIGGER_MASK (IRQF_TRIGGER_HIGH | IRQF_TRIGGER_LOW | IRQF_TRIGGER_RISING | IRQF_TRIGGER_FALLING)
#define IRQF_TRIGGER_PROBE 0x00000010
#define IRQF_SHARED 0x00000080
#define IRQF_PROBE_SHARED 0x00000100
#define __IRQF_TIMER 0x00000200
#define IRQF_PERCPU 0x00000400
#define IRQF_NOBALANCING 0x00000800
#define IRQF_IRQPOLL 0x00001000
#define IRQF_ONESHOT 0x00002000
#define IRQF_NO_SUSPEND 0x00004000
#define IRQF_FORCE_RESUME 0x00008000
#define IRQF_NO_THREAD 0x00010000
#define IRQF_EARLY_RESUME 0x00020000
#define IRQF_COND_SUSPEND 0x00040000
#define IRQF_NO_AUTOEN 0x00080000
#define IRQ_TYPE_NONE 0x00000000
#define IRQ_TYPE_EDGE_RISING 0x00000001
#define IRQ_TYPE_EDGE_FALLING 0x00000002
#define IRQ_TYPE_EDGE_BOTH (IRQ_TYPE_EDGE_FALLING | IRQ_TYPE_EDGE_RISING)
#define IRQ_TYPE_LEVEL_HIGH 0x00000004
#define IRQ_TYPE_LEVEL_LOW 0x00000008
#define IRQ_TYPE_SENSE_MASK 0x0000000f

struct device;

int request_threaded_irq(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
                         unsigned long flags, const char* name, void* dev);
static inline int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
                              const char* name, void* dev)
{
    return request_threaded_irq(irq, handler, NULL, flags, name, dev);
}
/* Device-managed: freed by lx_emul_devres_release_all(dev). */
int devm_request_threaded_irq(struct device* dev, unsigned int irq, irq_handler_t handler,
                              irq_handler_t thread_fn, unsigned long irqflags,
                              const char* devname, void* dev_id);
static inline int devm_request_irq(struct device* dev, unsigned int irq, irq_handler_t handler,
                                   unsigned long irqflags, const char* devname, void* dev_id)
{
    return devm_request_threaded_irq(dev, irq, handler, NULL, irqflags, devname, dev_id);
}
const void* free_irq(unsigned int irq, void* dev_id);
void devm_free_irq(struct device* dev, unsigned int irq, void* dev_id);
void disable_irq(unsigned int irq);
void disable_irq_nosync(unsigned int irq);
void enable_irq(unsigned int irq);
void synchronize_irq(unsigned int irq);
static inline int irq_set_irq_wake(unsigned int irq, unsigned int on)
{
    (void)irq;
    (void)on;
    return 0;
}
#define enable_irq_wake(irq) irq_set_irq_wake(irq, 1)
#define disable_irq_wake(irq) irq_set_irq_wake(irq, 0)
static inline void irq_dispose_mapping(unsigned int virq) { (void)virq; }
/* irq_get_trigger_type: the trigger type configured for the line (IRQ_TYPE_*, 0 if none;
 * lx_kit/lx_kit.h). */
unsigned lx_kit_irq_configured_trigger(int irq);
static inline int irq_get_trigger_type_lx(unsigned int irq)
{
    return (int)(lx_kit_irq_configured_trigger((int)irq) & IRQ_TYPE_SENSE_MASK);
}
#define irq_get_trigger_type irq_get_trigger_type_lx

/* Frees the device-managed IRQs of `dev` (called by lx_emul_devres_release_all). */
void lx_emul_irq_release_devm(struct device* dev);

/* Statistics for reports/tests: thread-handler runs of `irq` so far (all actions). */
unsigned long lx_emul_irq_thread_runs(unsigned int irq);

#endif /* LX_EMUL_IRQ_H */
