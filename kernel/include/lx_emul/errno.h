/* SPDX-License-Identifier: MIT */
/* lx_emul: error numbers. The UAPI values come from the system's <asm-generic/errno.h>; the
 * kernel-internal ones (>= 512) are added here with the kernel's values. */
#ifndef LX_EMUL_ERRNO_H
#define LX_EMUL_ERRNO_H

#include <asm-generic/errno.h>

#ifndef ERESTARTSYS
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ENOIOCTLCMD 515
#define ERESTART_RESTARTBLOCK 516
#define EPROBE_DEFER 517
#define EOPENSTALE 518
#define ENOPARAM 519
#define EBADHANDLE 521
#define ENOTSYNC 522
#define EBADCOOKIE 523
#define ENOTSUPP 524
#define ETOOSMALL 525
#define ESERVERFAULT 526
#define EBADTYPE 527
#define EJUKEBOX 528
#define EIOCBQUEUED 529
#define ERECALLCONFLICT 530
#define ENOGRACE 531
#endif

#define MAX_ERRNO 4095

#endif /* LX_EMUL_ERRNO_H */
