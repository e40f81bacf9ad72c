// SPDX-License-Identifier: MIT
/* lx_emul_real: state kept beside kernel objects whose real struct has no field for it (the
 * lx_kit wait handle of a mutex, ...), found by the object's address and the kind of state
 * (its size: a mutex's and a work item's differ), so memory freed as one kind and reused as
 * another finds fresh state. A chained hash table of emulation-owned nodes; a kernel object's
 * initialiser (e.g. __mutex_init) resets its entry, so memory reused for a new object of the
 * same kind starts from zeroed state too. */
#include <linux/string.h>

#include "internal.h"

#define SIDE_BUCKETS 4096

struct side_node {
    struct side_node *next;
    const void *key;
    unsigned long size;
    unsigned char state[];
};

static struct side_node *buckets[SIDE_BUCKETS];

static unsigned int bucket_of(const void *key)
{
    unsigned long k = (unsigned long)key;
    return (unsigned int)((k >> 4) ^ (k >> 16)) % SIDE_BUCKETS;
}

void *lx_real_side(const void *key, unsigned long size)
{
    struct side_node **head = &buckets[bucket_of(key)];
    for (struct side_node *n = *head; n; n = n->next) {
        if (n->key == key && n->size == size)
            return n->state;
    }
    struct side_node *n = calloc(1, sizeof(*n) + size);
    if (!n)
        lx_kit_abort("out of host memory for the emulation state of %p", key);
    n->key = key;
    n->size = size;
    n->next = *head;
    *head = n;
    return n->state;
}

void lx_real_side_reset(const void *key, unsigned long size)
{
    memset(lx_real_side(key, size), 0, size);
}
