/* SPDX-License-Identifier: MIT */
/* Shared between the wilc1000 glue files (compiled into each variant). */
#ifndef NICSIM_WILC_GLUE_H
#define NICSIM_WILC_GLUE_H

#include <linux/types.h>
#include <linux/workqueue.h>

struct host_if_drv;
struct wilc_vif;
struct net_device;
struct lx_bus_wilc_bss;

/* connect_glue.c: one job on the driver's hif workqueue, as hif.c queues its messages: the
 * interface, and the MAC status an 'I' carried (0 when the job has none). `run` finds the job
 * with container_of(work, struct wilc_glue_job, work) and frees it. 0 or -errno. */
struct wilc_glue_job {
    struct wilc_vif* vif;
    u8 mac_status;
    struct work_struct work;
};
int wilc_glue_queue_job(struct wilc_vif* vif, work_func_t run, u8 mac_status);

/* connect_glue.c: the connect timer of hif.c's wilc_init/wilc_deinit, and the testbench's
 * connect entry points (struct lx_bus_wilc_ops). */
void wilc_glue_connect_init(struct host_if_drv* hif_drv);
void wilc_glue_connect_deinit(struct host_if_drv* hif_drv);
int wilc_glue_connect(struct net_device* dev, const struct lx_bus_wilc_bss* bss);
int wilc_glue_connected(struct net_device* dev);

/* stats_glue.c: hif.c's 5 s statistics timer (wilc_init/wilc_deinit) and the TCP ACK filter's
 * state for the testbench. */
void wilc_glue_stats_init(struct wilc_vif* vif);
void wilc_glue_stats_deinit(struct wilc_vif* vif);
int wilc_glue_tcp_ack_filter(struct net_device* dev);

#endif
