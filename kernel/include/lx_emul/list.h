/* SPDX-License-Identifier: MIT */
/* lx_emul: doubly linked lists (linux/list.h, rculist.h), written for nicsim to the kernel's
 * documented semantics: circular list through a head, list_add inserts after the head,
 * list_add_tail before it, list_del poisons the entry's pointers. The _rcu variants are the plain
 * operations (the cooperative scheduler has no concurrent readers). */
#ifndef LX_EMUL_LIST_H
#define LX_EMUL_LIST_H

#include <lx_emul/types.h>
#include <lx_emul/container_of.h>

/* Same poison values as an x86-64 kernel (CONFIG_ILLEGAL_POINTER_VALUE 0xdead000000000000). */
#define POISON_POINTER_DELTA 0xdead000000000000UL
#define LIST_POISON1 ((void*)(0x100 + POISON_POINTER_DELTA))
#define LIST_POISON2 ((void*)(0x122 + POISON_POINTER_DELTA))

#define LIST_HEAD_INIT(name) {&(name), &(name)}
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head* list)
{
    list->next = list;
    list->prev = list;
}
static inline void __list_link(struct list_head* entry, struct list_head* prev,
                               struct list_head* next)
{
    next->prev = entry;
    entry->next = next;
    entry->prev = prev;
    prev->next = entry;
}
static inline void list_add(struct list_head* entry, struct list_head* head)
{
    __list_link(entry, head, head->next);
}
static inline void list_add_tail(struct list_head* entry, struct list_head* head)
{
    __list_link(entry, head->prev, head);
}
static inline void __list_unlink(struct list_head* prev, struct list_head* next)
{
    next->prev = prev;
    prev->next = next;
}
static inline void __list_del_entry(struct list_head* entry)
{
    __list_unlink(entry->prev, entry->next);
}
static inline void list_del(struct list_head* entry)
{
    __list_del_entry(entry);
    entry->next = (struct list_head*)LIST_POISON1;
    entry->prev = (struct list_head*)LIST_POISON2;
}
static inline void list_del_init(struct list_head* entry)
{
    __list_del_entry(entry);
    INIT_LIST_HEAD(entry);
}
static inline void list_replace(struct list_head* old, struct list_head* entry)
{
    entry->next = old->next;
    entry->next->prev = entry;
    entry->prev = old->prev;
    entry->prev->next = entry;
}
static inline void list_replace_init(struct list_head* old, struct list_head* entry)
{
    list_replace(old, entry);
    INIT_LIST_HEAD(old);
}
static inline void list_move(struct list_head* entry, struct list_head* head)
{
    __list_del_entry(entry);
    list_add(entry, head);
}
static inline void list_move_tail(struct list_head* entry, struct list_head* head)
{
    __list_del_entry(entry);
    list_add_tail(entry, head);
}
static inline int list_is_first(const struct list_head* entry, const struct list_head* head)
{
    return entry->prev == head;
}
static inline int list_is_last(const struct list_head* entry, const struct list_head* head)
{
    return entry->next == head;
}
static inline int list_is_head(const struct list_head* entry, const struct list_head* head)
{
    return entry == head;
}
static inline int list_empty(const struct list_head* head) { return READ_ONCE(head->next) == head; }
static inline int list_empty_careful(const struct list_head* head)
{
    return head->next == head && head->next == head->prev;
}
static inline int list_is_singular(const struct list_head* head)
{
    return !list_empty(head) && head->next == head->prev;
}
static inline void list_rotate_left(struct list_head* head)
{
    if (!list_empty(head))
        list_move_tail(head->next, head);
}
static inline void __list_splice_between(const struct list_head* list, struct list_head* prev,
                                         struct list_head* next)
{
    struct list_head* first = list->next;
    struct list_head* last = list->prev;
    first->prev = prev;
    prev->next = first;
    last->next = next;
    next->prev = last;
}
static inline void list_splice(const struct list_head* list, struct list_head* head)
{
    if (!list_empty(list))
        __list_splice_between(list, head, head->next);
}
static inline void list_splice_tail(struct list_head* list, struct list_head* head)
{
    if (!list_empty(list))
        __list_splice_between(list, head->prev, head);
}
static inline void list_splice_init(struct list_head* list, struct list_head* head)
{
    if (!list_empty(list)) {
        __list_splice_between(list, head, head->next);
        INIT_LIST_HEAD(list);
    }
}
static inline void list_splice_tail_init(struct list_head* list, struct list_head* head)
{
    if (!list_empty(list)) {
        __list_splice_between(list, head->prev, head);
        INIT_LIST_HEAD(list);
    }
}
static inline size_t list_count_nodes(struct list_head* head)
{
    size_t n = 0;
    for (struct list_head* p = head->next; p != head; p = p->next)
        n++;
    return n;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member) list_entry((ptr)->prev, type, member)
#define list_first_entry_or_null(ptr, type, member)                                                \
    ({                                                                                             \
        struct list_head* __lx_head = (ptr);                                                       \
        struct list_head* __lx_pos = READ_ONCE(__lx_head->next);                                   \
        __lx_pos != __lx_head ? list_entry(__lx_pos, type, member) : NULL;                         \
    })
#define list_next_entry(pos, member) list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member) list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_entry_is_head(pos, head, member) (&(pos)->member == (head))

#define list_for_each(pos, head) for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)
#define list_for_each_prev(pos, head)                                                              \
    for ((pos) = (head)->prev; (pos) != (head); (pos) = (pos)->prev)
#define list_for_each_safe(pos, n, head)                                                           \
    for ((pos) = (head)->next, (n) = (pos)->next; (pos) != (head); (pos) = (n), (n) = (pos)->next)
#define list_for_each_entry(pos, head, member)                                                     \
    for ((pos) = list_first_entry(head, __typeof__(*(pos)), member);                               \
         !list_entry_is_head(pos, head, member); (pos) = list_next_entry(pos, member))
#define list_for_each_entry_reverse(pos, head, member)                                             \
    for ((pos) = list_last_entry(head, __typeof__(*(pos)), member);                                \
         !list_entry_is_head(pos, head, member); (pos) = list_prev_entry(pos, member))
#define list_for_each_entry_continue(pos, head, member)                                            \
    for ((pos) = list_next_entry(pos, member); !list_entry_is_head(pos, head, member);             \
         (pos) = list_next_entry(pos, member))
#define list_for_each_entry_from(pos, head, member)                                                \
    for (; !list_entry_is_head(pos, head, member); (pos) = list_next_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)                                             \
    for ((pos) = list_first_entry(head, __typeof__(*(pos)), member),                               \
        (n) = list_next_entry(pos, member);                                                        \
         !list_entry_is_head(pos, head, member); (pos) = (n), (n) = list_next_entry(n, member))
#define list_for_each_entry_safe_reverse(pos, n, head, member)                                     \
    for ((pos) = list_last_entry(head, __typeof__(*(pos)), member),                                \
        (n) = list_prev_entry(pos, member);                                                        \
         !list_entry_is_head(pos, head, member); (pos) = (n), (n) = list_prev_entry(n, member))

/* RCU list variants: plain operations under the cooperative scheduler. */
#define list_add_rcu list_add
#define list_add_tail_rcu list_add_tail
#define list_del_rcu list_del
#define list_replace_rcu list_replace
#define list_entry_rcu list_entry
#define list_first_or_null_rcu list_first_entry_or_null
#define list_next_rcu(list) ((list)->next)
#define list_for_each_entry_rcu(pos, head, member, ...) list_for_each_entry(pos, head, member)
/* The lockdep condition (6.12 wilc1000: srcu_read_lock_held) is not evaluated, as without lockdep. */
#define list_for_each_entry_srcu(pos, head, member, cond) list_for_each_entry(pos, head, member)

/* ---- hlist ---- */
#define HLIST_HEAD_INIT {.first = NULL}
#define HLIST_HEAD(name) struct hlist_head name = {.first = NULL}
#define INIT_HLIST_HEAD(ptr) ((ptr)->first = NULL)
static inline void INIT_HLIST_NODE(struct hlist_node* h)
{
    h->next = NULL;
    h->pprev = NULL;
}
static inline int hlist_unhashed(const struct hlist_node* h) { return !h->pprev; }
static inline int hlist_empty(const struct hlist_head* h) { return !READ_ONCE(h->first); }
static inline void __hlist_del(struct hlist_node* n)
{
    struct hlist_node* next = n->next;
    struct hlist_node** pprev = n->pprev;
    *pprev = next;
    if (next)
        next->pprev = pprev;
}
static inline void hlist_del(struct hlist_node* n)
{
    __hlist_del(n);
    n->next = (struct hlist_node*)LIST_POISON1;
    n->pprev = (struct hlist_node**)LIST_POISON2;
}
static inline void hlist_del_init(struct hlist_node* n)
{
    if (!hlist_unhashed(n)) {
        __hlist_del(n);
        INIT_HLIST_NODE(n);
    }
}
static inline void hlist_add_head(struct hlist_node* n, struct hlist_head* h)
{
    struct hlist_node* first = h->first;
    n->next = first;
    if (first)
        first->pprev = &n->next;
    h->first = n;
    n->pprev = &h->first;
}
#define hlist_entry(ptr, type, member) container_of(ptr, type, member)
#define hlist_entry_safe(ptr, type, member)                                                        \
    ({                                                                                             \
        __typeof__(ptr) ____lx_ptr = (ptr);                                                        \
        ____lx_ptr ? hlist_entry(____lx_ptr, type, member) : NULL;                                 \
    })
#define hlist_for_each_entry(pos, head, member)                                                    \
    for (pos = hlist_entry_safe((head)->first, __typeof__(*(pos)), member); pos;                   \
         pos = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))
#define hlist_for_each_entry_safe(pos, n, head, member)                                            \
    for (pos = hlist_entry_safe((head)->first, __typeof__(*pos), member);                          \
         pos && ({ n = pos->member.next; 1; });                                                    \
         pos = hlist_entry_safe(n, __typeof__(*pos), member))

#endif /* LX_EMUL_LIST_H */
