/* SPDX-License-Identifier: MIT */
/* The definitions of the locked skb queue functions (skb_queue_tail, skb_queue_head,
 * skb_dequeue, skb_dequeue_tail, skb_unlink), included by the skbuff.c of both emulations
 * (kernel/lx_emul/ on the shadow headers, whose skbuff.h maps the names to lx_emul_ ones, and
 * kernel/lx_emul_real/ on a tree's real headers): the same code compiled against each header
 * set's sk_buff_head, spinlock and unlocked __skb_* inlines. Needs <linux/skbuff.h> and
 * <linux/spinlock.h> included before it. */
#ifndef LX_EMUL_SKB_QUEUE_LOCKED_H
#define LX_EMUL_SKB_QUEUE_LOCKED_H

void skb_queue_tail(struct sk_buff_head* list, struct sk_buff* newsk)
{
    unsigned long flags;
    spin_lock_irqsave(&list->lock, flags);
    __skb_queue_tail(list, newsk);
    spin_unlock_irqrestore(&list->lock, flags);
}

void skb_queue_head(struct sk_buff_head* list, struct sk_buff* newsk)
{
    unsigned long flags;
    spin_lock_irqsave(&list->lock, flags);
    __skb_queue_head(list, newsk);
    spin_unlock_irqrestore(&list->lock, flags);
}

struct sk_buff* skb_dequeue(struct sk_buff_head* list)
{
    unsigned long flags;
    spin_lock_irqsave(&list->lock, flags);
    struct sk_buff* skb = __skb_dequeue(list);
    spin_unlock_irqrestore(&list->lock, flags);
    return skb;
}

struct sk_buff* skb_dequeue_tail(struct sk_buff_head* list)
{
    unsigned long flags;
    spin_lock_irqsave(&list->lock, flags);
    struct sk_buff* skb = __skb_dequeue_tail(list);
    spin_unlock_irqrestore(&list->lock, flags);
    return skb;
}

void skb_unlink(struct sk_buff* skb, struct sk_buff_head* list)
{
    unsigned long flags;
    spin_lock_irqsave(&list->lock, flags);
    __skb_unlink(skb, list);
    spin_unlock_irqrestore(&list->lock, flags);
}

#endif
