; Deliberately broken routines: the ABI harness's self-test must catch each.

        bits    64
        default rel
        section .text

        global  abi_clean:function
abi_clean:                              ; the control: breaks nothing
        mov     rax, rdi
        ret

        global  abi_clobbers_rbx:function
abi_clobbers_rbx:
        mov     rbx, 1
        ret

        global  abi_clobbers_r15:function
abi_clobbers_r15:
        xor     r15, r15
        ret

        global  abi_clobbers_r11:function
abi_clobbers_r11:                       ; allowed by the SysV ABI, not by a flavor of general registers
        xor     r11d, r11d
        ret

        global  abi_leaves_df_set:function
abi_leaves_df_set:
        std
        ret

        global  abi_writes_red_zone:function
abi_writes_red_zone:
        mov     [rsp - 64], rdi
        ret

        global  abi_moves_rsp:function
abi_moves_rsp:
        pop     rcx
        add     rsp, 8
        jmp     rcx

        global  abi_dirties_upper:function
abi_dirties_upper:                      ; upper ymm state left in use: no vzeroupper
        vpcmpeqd ymm1, ymm1, ymm1
        ret

        global  abi_writes_zmm16:function
abi_writes_zmm16:                       ; zmm16 left in use: vzeroupper does not clear zmm16-31
        vpternlogd zmm16, zmm16, zmm16, 0xff
        vzeroupper
        ret

        section .note.GNU-stack noalloc noexec nowrite progbits
