; The ABI harness's trampoline, in the spirit of BoringSSL's CHECK_ABI: it
; calls a routine with chosen callee-saved registers and a filled red zone,
; and records what the routine left behind. tests/abi_harness.c judges it.
;
; uint64_t abi_call(const void *fn, const uint64_t args[4], struct abi_state *st)
;
; struct abi_state, in this order, 8 bytes each:
;   in[6]    rbx, rbp, r12, r13, r14, r15 to call with
;   out[6]   the same registers after the call
;   rflags   after the call
;   rsp_in   rsp at the call instruction
;   rsp_out  rsp after the return
;   red_bad  how many of the 16 qwords below the callee's entry rsp changed
;   ret      rax after the call
;   xinuse   XGETBV(1) after the call (XINUSE: which state components are not
;            in their initial state), when abi_check_xinuse is set; the
;            upper vector state is cleared (vzeroupper) before the call

        bits    64
        default rel

%define IN       0
%define OUT      48
%define RFLAGS   96
%define RSP_IN   104
%define RSP_OUT  112
%define RED_BAD  120
%define RET      128
%define XINUSE   136

; The pattern the 128 bytes below the callee's rsp are filled with.
%define RED_PATTERN 0x5ca1ab1e0ddba11

        section .bss
        align   8
state:  resq    1       ; the abi_state: a broken routine may move rsp, so not on the stack

        section .data
        align   8
; Set by the harness where CPUID reports AVX and XGETBV with ECX = 1
; (leaf 0xd, subleaf 1, eax bit 2): XINUSE is read after every call.
        global  abi_check_xinuse:data
abi_check_xinuse: dq 0

        section .text
        global  abi_call:function
abi_call:
        push    rbx
        push    rbp
        push    r12
        push    r13
        push    r14
        push    r15                     ; six pushes: rsp is 16-byte aligned again
        mov     [state], rdx
        mov     rax, rdi
        mov     r10, rsi
        mov     r11, rdx

        ; The callee's entry rsp is rsp - 8 (the return address); its red zone
        ; is the 128 bytes below that.
        mov     r8, RED_PATTERN
        mov     ecx, 16
.fill:
        mov     [rsp + rcx * 8 - 144], r8     ; [rsp - 136, rsp - 8)
        dec     ecx
        jnz     .fill

        mov     [r11 + RSP_IN], rsp
        mov     rbx, [r11 + IN + 0]
        mov     rbp, [r11 + IN + 8]
        mov     r12, [r11 + IN + 16]
        mov     r13, [r11 + IN + 24]
        mov     r14, [r11 + IN + 32]
        mov     r15, [r11 + IN + 40]
        mov     rdi, [r10]
        mov     rsi, [r10 + 8]
        mov     rdx, [r10 + 16]
        mov     rcx, [r10 + 24]
        cmp     qword [abi_check_xinuse], 0
        je      .call
        vzeroupper                      ; the routine starts with clean upper state
.call:
        call    rax

        mov     r11, [state]
        mov     [r11 + RET], rax
        mov     [r11 + RSP_OUT], rsp
        cmp     qword [abi_check_xinuse], 0
        je      .no_xinuse
        mov     ecx, 1
        xgetbv                          ; XINUSE, before any code of the harness runs
        shl     rdx, 32
        or      rax, rdx
        mov     [r11 + XINUSE], rax
.no_xinuse:
        mov     rsp, [r11 + RSP_IN]     ; carry on even after a routine that moved it
        pushfq
        pop     qword [r11 + RFLAGS]
        cld                             ; C must not run with a routine's DF
        mov     [r11 + OUT + 0], rbx
        mov     [r11 + OUT + 8], rbp
        mov     [r11 + OUT + 16], r12
        mov     [r11 + OUT + 24], r13
        mov     [r11 + OUT + 32], r14
        mov     [r11 + OUT + 40], r15

        xor     eax, eax
        mov     r8, RED_PATTERN
        mov     ecx, 16
.check:
        cmp     [rsp + rcx * 8 - 144], r8
        je      .same
        inc     eax
.same:
        dec     ecx
        jnz     .check
        mov     [r11 + RED_BAD], rax

        pop     r15
        pop     r14
        pop     r13
        pop     r12
        pop     rbp
        pop     rbx
        mov     rax, [r11 + RET]
        ret

        section .note.GNU-stack noalloc noexec nowrite progbits
