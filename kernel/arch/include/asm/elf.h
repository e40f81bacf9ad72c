/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_ELF_H
#define _NICSIM_ASM_ELF_H
/* Modules are linked into the simulator, never loaded as ELF: the arch's ELF description is the
 * host's word size only. */
#define ELF_CLASS ELFCLASS64
#define ELF_DATA ELFDATA2LSB
#define ELF_ARCH EM_NONE
#define ELF_EXEC_PAGESIZE 4096
typedef unsigned long elf_greg_t;
#define ELF_NGREG 1
typedef elf_greg_t elf_gregset_t[ELF_NGREG];
typedef struct { unsigned long unused; } elf_fpregset_t;
#endif
