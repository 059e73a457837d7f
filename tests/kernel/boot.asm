; The test kernel's boot stub. QEMU's -kernel loads a Multiboot (v1) image
; in 32-bit protected mode with paging off (Multiboot Specification 0.6.96,
; section 3.2). This identity-maps the first GiB with 2 MiB pages, enters
; long mode (Intel SDM vol. 3A, 10.8.5) and calls kmain.

        bits    32

MB_MAGIC equ 0x1BADB002
MB_FLAGS equ 0

        section .multiboot
        align   4
        dd      MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)

        section .bss
        align   4096
pml4:   resb    4096
pdpt:   resb    4096
pd:     resb    4096
stack:  resb    65536
stack_top:

        section .rodata
        align   8
gdt:    dq      0
        dq      0x00209a0000000000      ; 0x08: 64-bit code, present, ring 0
        dq      0x0000920000000000      ; 0x10: data, present, writable
gdt_end:
gdt_ptr:
        dw      gdt_end - gdt - 1
        dd      gdt

        section .text
        global  _start
        extern  kmain
_start:
        cli
        mov     esp, stack_top
        mov     edi, pml4
        mov     ecx, 3 * 4096 / 4
        xor     eax, eax
        rep stosd                       ; the page tables start empty
        mov     dword [pml4], pdpt + 3  ; present, writable
        mov     dword [pdpt], pd + 3
        xor     ecx, ecx
.map:
        mov     eax, ecx
        shl     eax, 21
        or      eax, 0x83               ; present, writable, 2 MiB page
        mov     [pd + ecx * 8], eax
        inc     ecx
        cmp     ecx, 512
        jne     .map
        mov     eax, pml4
        mov     cr3, eax
        mov     eax, cr4
        or      eax, 1 << 5             ; PAE
        mov     cr4, eax
        mov     ecx, 0xc0000080         ; IA32_EFER
        rdmsr
        or      eax, 1 << 8             ; LME
        wrmsr
        mov     eax, cr0
        or      eax, (1 << 31) | 1      ; PG, PE
        mov     cr0, eax
        lgdt    [gdt_ptr]
        jmp     0x08:long_mode

        bits    64
long_mode:
        mov     ax, 0x10
        mov     ds, ax
        mov     es, ax
        mov     ss, ax
        mov     fs, ax
        mov     gs, ax
        mov     rsp, stack_top
        call    kmain
.halt:
        cli
        hlt
        jmp     .halt

        section .note.GNU-stack noalloc noexec nowrite progbits
