/* A boot sector for the test kernel under Bochs, which has no Multiboot
 * loader. The BIOS loads this sector at 0x7c00 in real mode, with the boot
 * drive in dl. It reads the kernel image that follows it on the disk (the
 * kernel's load segments from 1 MiB up, flat) to 0x10000 with the BIOS's
 * extended read (INT 13h, AH = 42h), enters 32-bit protected mode, moves the
 * image to 1 MiB, zeroes the kernel's bss and jumps to _start in the state a
 * Multiboot loader leaves (Multiboot Specification 0.6.96, section 3.2:
 * protected mode, flat segments, paging off). run.sh defines KERNEL_SECTORS,
 * KERNEL_BYTES, KERNEL_END (the end of the bss) and KERNEL_ENTRY. The image
 * must fit below 0xa0000, where the BIOS's memory ends: 1152 sectors. */

        .intel_syntax noprefix
        .set    LOAD_SEGMENT, 0x1000
        .set    SECTORS_PER_READ, 64    /* some BIOSes take at most 127 */

        .text
        .code16
        .globl  start16
start16:
        cli
        xor     ax, ax
        mov     ds, ax
        mov     es, ax
        mov     ss, ax
        mov     sp, 0x7c00
        mov     [drive], dl
        mov     word ptr [left], KERNEL_SECTORS
read:
        mov     ax, [left]
        test    ax, ax
        jz      loaded
        cmp     ax, SECTORS_PER_READ
        jbe     1f
        mov     ax, SECTORS_PER_READ
1:
        mov     [dap_count], ax
        mov     si, offset dap
        mov     dl, [drive]
        mov     ah, 0x42
        int     0x13
        jc      failed
        mov     ax, [dap_count]
        sub     [left], ax
        add     [dap_lba], ax
        shl     ax, 5                   /* 512-byte sectors in 16-byte paragraphs */
        add     [dap_segment], ax
        jmp     read
loaded:
        in      al, 0x92                /* the A20 gate, through port 92h */
        or      al, 2
        and     al, 0xfe                /* bit 0 would reset the machine */
        out     0x92, al
        lgdt    [gdt_ptr]
        mov     eax, cr0
        or      eax, 1                  /* PE */
        mov     cr0, eax
        ljmp    0x08, offset protected

failed:
        mov     si, offset no_read
2:
        lodsb
        test    al, al
        jz      3f
        out     0xe9, al                /* Bochs prints what port e9h receives */
        jmp     2b
3:
        hlt
        jmp     3b

        .code32
protected:
        mov     ax, 0x10
        mov     ds, ax
        mov     es, ax
        mov     ss, ax
        mov     fs, ax
        mov     gs, ax
        cld
        mov     esi, LOAD_SEGMENT * 16
        mov     edi, 0x100000
        mov     ecx, KERNEL_BYTES
        rep movsb
        mov     ecx, KERNEL_END
        sub     ecx, edi
        xor     eax, eax
        rep stosb
        mov     eax, KERNEL_ENTRY
        jmp     eax

        .balign 4
dap:    .byte   16, 0                   /* the disk address packet */
dap_count:
        .word   0
        .word   0                       /* offset */
dap_segment:
        .word   LOAD_SEGMENT
dap_lba:
        .quad   1                       /* the image starts after this sector */
left:   .word   0
drive:  .byte   0
no_read:
        .asciz  "bootsect: the BIOS could not read the kernel image\n"

        .balign 8
gdt:    .quad   0
        .quad   0x00cf9a000000ffff      /* 0x08: 32-bit code, base 0, 4 GiB */
        .quad   0x00cf92000000ffff      /* 0x10: data, base 0, 4 GiB */
gdt_ptr:
        .word   gdt_ptr - gdt - 1
        .long   gdt

        .org    510
        .byte   0x55, 0xaa

        .section .note.GNU-stack, "", @progbits
