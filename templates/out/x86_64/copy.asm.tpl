${banner(";")}
@ local P = opts.prefix
@ local T = opts.target and target_rule(opts.target, "kernel")
@ -- Every exported routine goes through export(), checked against the one list.
@ local listed, exported = {}, {}
@ for _, r in ipairs(import("routines")) do listed[r.name] = true end
@ local function export(name)
@   if not listed[name] then error("routine " .. name .. " is not in templates/lib/routines.lua", 2) end
@   exported[name] = true
@   return string.format("global  %s%s:function (%s%s.end - %s%s)", P, name, P, name, P, name)
@ end
;
; Kernel-flavor copy routines: NASM, elf64, System V calling convention.
@ if T then
; Specialised to ${opts.target}: window ${T.window}, align_dst ${T.align_dst}, as immediates.
@ else
; The rule is read from ${P}copy_window and ${P}copy_align_dst, which
; ${P}rule_init() (copy_rule.c) installs from CPUID before the first copy.
@ end
;
; Contract, for every routine here:
;  - general registers only: no x87, SSE or AVX state is touched;
;  - no stack below rsp is used (kernels build with -mno-red-zone), nor any
;    stack at all;
;  - DF is trusted clear, as the ABI guarantees on entry, and never written:
;    no std, no cld;
;  - only rax, rcx, rdx, rsi, rdi and r8 change; callee-saved registers are
;    untouched.

        bits    64
        default rel

; The descending copy: rdi = dst, rsi = src, rdx = n >= 8. Clobbers rcx, r8.
;
; Why it exists: on AMD Zen 2 a load whose address bits 11:0 match an older
; in-flight store waits for that store (AMD 56305 rev. 3.02, section 2.12).
; A forward rep movsb whose destination is 1..31 bytes above its source
; modulo 4 KiB therefore stalls on every load: 1946 ns against 88 ns at
; distance 0 for 8 KiB on a Ryzen 7 4800U. Copied highest first, the nearest
; older store with the same low 12 bits is 4 KiB - d back, long retired; the
; same copy took 260 ns at every distance (toyos pull request 1139).
;
; Eight bytes per store. The top and bottom 8 bytes are stored unaligned;
; every store between them is aligned on the destination. The aligned end
; (dst + n) & ~7 lies in (n - 8, n] from dst, so every access stays in [0, n).
%macro COPY_DOWN_BODY 0
        mov     r8, [rsi + rdx - 8]
        mov     [rdi + rdx - 8], r8             ; top store
        lea     rcx, [rdi + rdx]
        and     rcx, -8
        sub     rcx, rdi                        ; aligned end, as an offset
        sub     rcx, 8                          ; first aligned store
        jbe     %%bottom
%%loop:
        mov     r8, [rsi + rcx]
        mov     [rdi + rcx], r8                 ; aligned store
        sub     rcx, 8                          ; loop step
        ja      %%loop                          ; loop bound: offsets above 0
%%bottom:
        mov     r8, [rsi]
        mov     [rdi], r8                       ; bottom store
%endmacro

; Jumps to %1 when the copy goes down: n >= 64 and 0 < (dst - src) mod 4096 < window.
; rdi = dst, rsi = src, rdx = n. Clobbers rcx. dst == src has d = 0 and goes
; forward, which is what memcpy's callers need: LLVM emits memcpy(p, p, n).
%macro GOES_DOWN 1
@ if T and T.window == 0 then
        ; ${opts.target}'s window is 0: no copy goes down.
@ else
        cmp     rdx, 64                         ; length test
        jb      %%forward
        mov     ecx, edi
        sub     ecx, esi                        ; distance: dst - src
        and     ecx, 4095
        jz      %%forward
@ if T then
        cmp     ecx, ${string.format("%-24d", T.window)}; window compare
@ else
        cmp     rcx, [${P}copy_window]          ; window compare
@ end
        jb      %1                              ; window branch
%%forward:
@ end
%endmacro

; The forward path: one rep movsb. With align_dst, a copy of 64 bytes or more
; first moves the head that brings dst to that alignment: on Intel cores with
; fast-string microcode rep movsb runs twice as fast to a 32-byte-aligned
; destination (David Laight, LKML, 2025-03-16, in the thread below), and
; aligning copy_user_generic's destination to 8 bytes for copies of 64 bytes
; or more measured consistently faster on an EPYC 7742 (LKML, "x86: add back
; the alignment of the destination to 8 bytes in copy_user_generic()",
; 2025-03-16). Whether a core gains is measured per entry. Clobbers rcx, r8.
%macro FORWARD_COPY 0
@ if T and T.align_dst == 0 then
        mov     rcx, rdx
        rep movsb
@ else
@ if T then
        cmp     rdx, 64                         ; align threshold
        jb      %%body
        mov     rcx, ${T.align_dst - 1}
@ else
        mov     rcx, [${P}copy_align_dst]
        test    rcx, rcx
        jz      %%body
        cmp     rdx, 64                         ; align threshold
        jb      %%body
        dec     rcx
@ end
        mov     r8, rdi
        neg     r8
        and     rcx, r8                         ; head: bytes until dst is aligned
        sub     rdx, rcx
        rep movsb                               ; head
%%body:
        mov     rcx, rdx
        rep movsb                               ; body
@ end
%endmacro

        section .text

; void *${P}memcpy(void *dst, const void *src, size_t n): dst and src are
; disjoint or identical. Returns dst.
        ${export("memcpy")}
@ if opts.memcpy_symbol then
        ; A strong memcpy, to override compiler_builtins' weak one.
        global  memcpy:function (${P}memcpy.end - ${P}memcpy)
memcpy:
@ end
${P}memcpy:
        mov     rax, rdi
        GOES_DOWN .down
        FORWARD_COPY
        ret
.down:
        COPY_DOWN_BODY
        ret
.end:

; void *${P}copy_forward(void *dst, const void *src, size_t n): the forward
; path alone, whatever the rule. Returns dst.
        ${export("copy_forward")}
${P}copy_forward:
        mov     rax, rdi
        FORWARD_COPY
        ret
.end:

; void *${P}copy_down(void *dst, const void *src, size_t n): the descending
; copy alone, for n >= 8. Returns dst.
        ${export("copy_down")}
${P}copy_down:
        mov     rax, rdi
        COPY_DOWN_BODY
        ret
.end:

; int ${P}copy_goes_down(const void *dst, const void *src, size_t n): 1 when
; ${P}memcpy would copy highest first, else 0. The same predicate, expanded
; from the same macro, so tests and logs see what memcpy does.
        ${export("copy_goes_down")}
${P}copy_goes_down:
        GOES_DOWN .yes
        xor     eax, eax
        ret
.yes:
        mov     eax, 1
        ret
.end:

; int ${P}copy_to_user(void *user_dst, const void *src, size_t n)
; int ${P}copy_from_user(void *dst, const void *user_src, size_t n)
;
; memcpy's rule and memcpy's bodies (the same macros), expanded between the
; labels ${P}<routine>_access and ${P}<routine>_access_end: every instruction
; that touches user memory lies in [access, access_end). A kernel's
; page-fault handler, on a fault at a user address with rip in such a range,
; either serves the fault and returns, so the faulting instruction reruns
; (rep movsb resumes from rcx, rsi and rdi; each mov of the descending body
; stands alone), or sets rip to ${P}user_fault_exit, which returns 1. Nothing
; is pushed inside a range, so rsp at the fault is rsp at entry. After a
; failure some or none of the bytes were copied: a descending copy may have
; written the top of the destination already (toyos pull request 1244).
@ if opts.smap then
; SMAP: stac opens user access before the range, clac closes it after the
; range and in the fault exit.
@ end
@ local stac = opts.smap and "        stac" or "        ; (no SMAP: built without --smap)"
@ local clac = opts.smap and "        clac" or "        ; (no SMAP)"
@ for _, name in ipairs({ "copy_to_user", "copy_from_user" }) do
        ${export(name)}
        global  ${P}${name}_access, ${P}${name}_access_end
${P}${name}:
${stac}
${P}${name}_access:
        GOES_DOWN .down
        FORWARD_COPY
        jmp     .done
.down:
        COPY_DOWN_BODY
.done:
${P}${name}_access_end:
${clac}
        xor     eax, eax
        ret
${P}${name}.end:

@ end
; int ${P}clear_user(void *user_dst, size_t n): rep stosb has no loads, so no
; distance can make it wait; it needs no rule.
        ${export("clear_user")}
        global  ${P}clear_user_access, ${P}clear_user_access_end
${P}clear_user:
${stac}
${P}clear_user_access:
        mov     rcx, rsi
        xor     eax, eax
        rep stosb
${P}clear_user_access_end:
${clac}
        ret
${P}clear_user.end:

; The shared fault exit: where a kernel sends rip after a fault in an access
; range that it does not serve. Returns 1 from the interrupted routine.
        ${export("user_fault_exit")}
${P}user_fault_exit:
${clac}
        mov     eax, 1
        ret
${P}user_fault_exit.end:

@ if not T then
        section .data
        align   8
; The installed rule. Zero until ${P}rule_init(): every copy forward, no
; alignment head, which is correct on every CPU, only sometimes slower.
        global  ${P}copy_window:data 8
        global  ${P}copy_align_dst:data 8
${P}copy_window:    dq 0
${P}copy_align_dst: dq 0

@ end
        section .rodata
        align   8
; The access ranges for a kernel's exception table: [begin, end) pairs.
        global  ${P}user_access_ranges:data (${P}user_access_ranges.end - ${P}user_access_ranges)
        global  ${P}user_access_range_count:data 8
${P}user_access_ranges:
@ for _, name in ipairs({ "copy_to_user", "copy_from_user", "clear_user" }) do
        dq      ${P}${name}_access, ${P}${name}_access_end
@ end
${P}user_access_ranges.end:
${P}user_access_range_count: dq 3

; copy_rule.c refers to this symbol: linking it with a copy.asm from another
; uarchgen run fails instead of mixing two rules.
        global  ${P}out_stamp_${gen.stamp}:data 1
${P}out_stamp_${gen.stamp}: db 1

        section .note.GNU-stack noalloc noexec nowrite progbits
@ for _, r in ipairs(import("routines")) do
@   if not exported[r.name] then error("templates/lib/routines.lua lists " .. r.name .. ", which copy.asm does not export") end
@ end
