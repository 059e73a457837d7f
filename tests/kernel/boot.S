/* The test kernel's boot stub, in GAS (Intel syntax), so that the test
 * kernel builds with the C compiler alone. QEMU's -kernel loads a Multiboot
 * (v1) image in 32-bit protected mode with paging off (Multiboot
 * Specification 0.6.96, section 3.2); under Bochs, bootsect.S does the same.
 * This identity-maps the first GiB with 2 MiB pages, enters long mode (Intel
 * SDM vol. 3A, 10.8.5), enables the vector state and calls kmain. */

        .intel_syntax noprefix

        .set    MB_MAGIC, 0x1BADB002
        .set    MB_FLAGS, 0

        .section .multiboot, "a"
        .balign 4
        .long   MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)

        .bss
        .balign 4096
pml4:   .skip   4096
pdpt:   .skip   4096
pd:     .skip   4096
stack:  .skip   65536
stack_top:

        .section .rodata
        .balign 8
gdt:    .quad   0
        .quad   0x00209a0000000000      /* 0x08: 64-bit code, present, ring 0 */
        .quad   0x0000920000000000      /* 0x10: data, present, writable */
gdt_end:
gdt_ptr:
        .word   gdt_end - gdt - 1
        .long   gdt

        .text
        .code32
        .globl  _start
_start:
        cli
        mov     esp, offset stack_top
        mov     edi, offset pml4
        mov     ecx, 3 * 4096 / 4
        xor     eax, eax
        rep stosd                       /* the page tables start empty */
        mov     dword ptr [pml4], offset pdpt + 3 /* present, writable */
        mov     dword ptr [pdpt], offset pd + 3
        xor     ecx, ecx
1:
        mov     eax, ecx
        shl     eax, 21
        or      eax, 0x83               /* present, writable, 2 MiB page */
        mov     [pd + ecx * 8], eax
        inc     ecx
        cmp     ecx, 512
        jne     1b
        mov     eax, offset pml4
        mov     cr3, eax
        mov     eax, cr4
        or      eax, 1 << 5             /* PAE */
        mov     cr4, eax
        mov     ecx, 0xc0000080         /* IA32_EFER */
        rdmsr
        or      eax, 1 << 8             /* LME */
        wrmsr
        mov     eax, cr0
        or      eax, (1 << 31) | 1      /* PG, PE */
        mov     cr0, eax
        lgdt    [gdt_ptr]
        ljmp    0x08, offset long_mode

        .code64
long_mode:
        mov     ax, 0x10
        mov     ds, ax
        mov     es, ax
        mov     ss, ax
        mov     fs, ax
        mov     gs, ax
        mov     rsp, offset stack_top
        /* The SSE state, and where the CPU has XSAVE, every state of x87,
         * SSE, AVX and AVX-512 it supports: the user flavor's vector copies
         * need the OS to enable them (Intel SDM vol. 3A, 2.5 for CR0.MP/EM
         * and CR4.OSFXSR/OSXMMEXCPT/OSXSAVE; vol. 1, 13.3 for XCR0). */
        mov     rax, cr0
        and     rax, ~(1 << 2)          /* EM */
        or      rax, 1 << 1             /* MP */
        mov     cr0, rax
        mov     rax, cr4
        or      rax, (1 << 9) | (1 << 10)  /* OSFXSR, OSXMMEXCPT */
        mov     cr4, rax
        mov     eax, 1
        cpuid
        bt      ecx, 26                 /* XSAVE */
        jnc     3f
        mov     rax, cr4
        or      rax, 1 << 18            /* OSXSAVE */
        mov     cr4, rax
        mov     eax, 0xd
        xor     ecx, ecx
        cpuid                           /* eax: the XCR0 bits this CPU supports */
        and     eax, 0xe7               /* x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM */
        xor     edx, edx
        xor     ecx, ecx
        xsetbv
3:
        call    kmain
2:
        cli
        hlt
        jmp     2b

        .section .note.GNU-stack, "", @progbits
