; The ABI harness's trampoline, in the spirit of BoringSSL's CHECK_ABI: it
; calls a routine with chosen callee-saved registers and a filled red zone,
; and records what the routine left behind. tests/abi_harness.c judges it.
;
; uint64_t abi_call(const void *fn, const uint64_t args[4], struct abi_state *st)
;
; struct abi_state, in this order, 8 bytes each:
;   in[8]    rbx, rbp, r12, r13, r14, r15, r10, r11 to call with
;   out[8]   the same registers after the call
;   rflags   after the call
;   rsp_in   rsp at the call instruction
;   rsp_out  rsp after the return
;   red_bad  how many of the 16 qwords below the callee's entry rsp changed
;   ret      rax after the call
;   xinuse   XGETBV(1) right after the call (XINUSE: which state components
;            are not in their initial state), when abi_xstate_reset is set
;   xinuse_before  XGETBV(1) right before the call, after the reset
;
; Before the call, the components of abi_xstate_reset (the upper vector
; state that XCR0 enables) are brought to their initial state by XRSTOR
; from an area whose XSTATE_BV is zero (Intel SDM vol. 1, 13.8.1: a
; component requested but clear in XSTATE_BV is initialised). vzeroupper
; would not do: it leaves zmm16-31, which the C library's
; EVEX string functions use before the call, in use.

        bits    64
        default rel

%define IN       0
%define OUT      64
%define RFLAGS   128
%define RSP_IN   136
%define RSP_OUT  144
%define RED_BAD  152
%define RET      160
%define XINUSE   168
%define XINUSE_BEFORE 176

; The pattern the 128 bytes below the callee's rsp are filled with.
%define RED_PATTERN 0x5ca1ab1e0ddba11

        section .bss nobits alloc noexec write align=64
; The XRSTOR area (64-byte aligned, first in the section): the legacy
; region's MXCSR is written before each reset; the header (XSTATE_BV,
; XCOMP_BV and the reserved bytes) stays zero.
reset_area: resb 1024
state:  resq    1       ; the abi_state: a broken routine may move rsp, so not on the stack
after_r10: resq  1       ; r10 and r11 as the routine left them, before the
after_r11: resq  1       ; trampoline needs a register to reach the state

        section .data
        align   8
; Set by the harness where CPUID reports XSAVE, OSXSAVE and XGETBV with
; ECX = 1 (leaf 0xd, subleaf 1, eax bit 2): the components to reset before
; each call, within XCR0. XINUSE is read around every call when it is set.
        global  abi_xstate_reset:data
abi_xstate_reset: dq 0
; Set by the harness's self-test: a routine the trampoline calls before
; the reset, to stand for whatever ran before the routine under test.
        global  abi_dirty_before:data
abi_dirty_before: dq 0

        section .text
        global  abi_call:function
abi_call:
        push    rbx
        push    rbp
        push    r12
        push    r13
        push    r14
        push    r15
        sub     rsp, 8                  ; rsp is 16-byte aligned at each call below
        mov     r12, rdi
        mov     r13, rsi
        mov     r14, rdx
        mov     rax, [abi_dirty_before]
        test    rax, rax
        jz      .dirty_done
        call    rax                     ; the state that code before the routine leaves
.dirty_done:
        mov     [state], r14
        mov     r9, r12
        mov     r10, r13
        mov     r11, r14

        ; The callee's entry rsp is rsp - 8 (the return address); its red zone
        ; is the 128 bytes below that.
        mov     r8, RED_PATTERN
        mov     ecx, 16
.fill:
        mov     [rsp + rcx * 8 - 144], r8     ; [rsp - 136, rsp - 8)
        dec     ecx
        jnz     .fill

        cmp     qword [abi_xstate_reset], 0
        je      .reset_done
        ; The routine starts with the upper vector state initial, whatever
        ; ran before: only what it adds is its own. Nothing between here
        ; and the call touches vector state.
        stmxcsr [reset_area + 24]       ; XRSTOR loads MXCSR with the AVX state
        mov     eax, [abi_xstate_reset]
        xor     edx, edx
        xrstor  [reset_area]
        mov     ecx, 1
        xgetbv
        shl     rdx, 32
        or      rax, rdx
        mov     [r11 + XINUSE_BEFORE], rax
.reset_done:

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
        mov     r10, [r11 + IN + 48]
        mov     r11, [r11 + IN + 56]    ; last: it held the state
        call    r9

        mov     [after_r10], r10
        mov     [after_r11], r11
        mov     r11, [state]
        mov     [r11 + RET], rax
        mov     [r11 + RSP_OUT], rsp
        cmp     qword [abi_xstate_reset], 0
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
        mov     rax, [after_r10]
        mov     [r11 + OUT + 48], rax
        mov     rax, [after_r11]
        mov     [r11 + OUT + 56], rax

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

        add     rsp, 8
        pop     r15
        pop     r14
        pop     r13
        pop     r12
        pop     rbp
        pop     rbx
        mov     rax, [r11 + RET]
        ret

        section .note.GNU-stack noalloc noexec nowrite progbits
