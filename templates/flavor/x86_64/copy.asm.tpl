${banner(";")}
@ -- Written once, in the neutral assembly of templates/lib/asm.lua; the
@ -- generator renders it as NASM (copy.asm) and as GAS (copy.S).
@ local P = opts.prefix
@ local T = opts.target and target_rule(opts.target, flavor.name)
@ local remaining = opts.user_copy_result == "remaining"
@ local has = {}
@ for _, r in ipairs(flavor.routines) do has[r.name] = true end
@ local ALIGN_MIN = 64 -- the smallest copy that gets an alignment head, and that may go down
;
; Copy routines of flavor ${flavor.name}.
; System V calling convention.
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
;  - only rax, rcx, rdx, rsi, rdi, r8 and r9 change; callee-saved registers
;    are untouched.

        intel64

@ -- The descending copy: rdi = dst, rsi = src, rdx = n >= 8. Clobbers rcx, r8.
@ -- rdi and rsi do not move, which is what the user copies' fault exit reads.
@ local function copy_down_body(tag)
        ; descending body: begin
        mov     r8, [rsi + rdx - 8]
        mov     [rdi + rdx - 8], r8             ; top store
        lea     rcx, [rdi + rdx]
        and     rcx, -8
        sub     rcx, rdi                        ; aligned end, as an offset
        sub     rcx, 8                          ; first aligned store
        jbe     .L${tag}_bottom
.L${tag}_loop:
        mov     r8, [rsi + rcx]
        mov     [rdi + rcx], r8                 ; aligned store
        sub     rcx, 8                          ; loop step
        ja      .L${tag}_loop                   ; loop bound: offsets above 0
.L${tag}_bottom:
        mov     r8, [rsi]
        mov     [rdi], r8                       ; bottom store
        ; descending body: end
@ end
@
@ -- Jumps to .L<tag>_down when the copy goes down. rdi = dst, rsi = src,
@ -- rdx = n. Clobbers rcx.
@ local function goes_down(tag)
@   if T and T.window == 0 then
        ; ${opts.target}'s window is 0: no copy goes down.
@   else
        cmp     rdx, ${ALIGN_MIN}                         ; length test
        jb      .L${tag}_forward
        mov     ecx, edi
        sub     ecx, esi                        ; distance: dst - src
        and     ecx, 4095
        jz      .L${tag}_forward
@     if T then
        cmp     ecx, ${string.format("%-24d", T.window)}; window compare
@     else
        cmp     rcx, [rel ${P}copy_window]      ; window compare
@     end
        jb      .L${tag}_down                   ; window branch
.L${tag}_forward:
@   end
@ end
@
@ -- The forward path: one rep movsb, after an alignment head where the rule
@ -- has one. Clobbers rcx, r8 and rdx.
@ local function forward_copy(tag)
@   if T and T.align_dst == 0 then
        mov     rcx, rdx
        rep movsb
@   else
@     if T then
        cmp     rdx, ${ALIGN_MIN}                         ; align threshold
        jb      .L${tag}_body
        mov     rcx, ${T.align_dst - 1}
@     else
        mov     rcx, [rel ${P}copy_align_dst]
        test    rcx, rcx
        jz      .L${tag}_body
        cmp     rdx, ${ALIGN_MIN}                         ; align threshold
        jb      .L${tag}_body
        dec     rcx
@     end
        mov     r8, rdi
        neg     r8
        and     rcx, r8                         ; head: bytes until dst is aligned
        sub     rdx, rcx
        rep movsb                               ; head
.L${tag}_body:
        mov     rcx, rdx
        rep movsb                               ; body
@   end
@ end

        section .text

; Why copy_down exists: on AMD Zen 2 a load whose address bits 11:0 match an
; older in-flight store waits for that store (AMD 56305 rev. 3.02, section
; 2.12). A forward rep movsb whose destination is 1..31 bytes above its
; source modulo 4 KiB therefore stalls on every load: 1946 ns against 88 ns at
; distance 0 for 8 KiB on a Ryzen 7 4800U. Copied highest first, the nearest
; older store with the same low 12 bits is 4 KiB - d back, long retired; the
; same copy took 260 ns at every distance (toyos pull request 1139).
;
; Eight bytes per store. The top and bottom 8 bytes are stored unaligned;
; every store between them is aligned on the destination. The aligned end
; (dst + n) & ~7 lies in (n - 8, n] from dst, so every access stays in [0, n).
;
; A copy goes down when n >= ${ALIGN_MIN} and 0 < (dst - src) mod 4096 < window.
; dst == src has d = 0 and goes forward, which is what memcpy's callers need:
; LLVM emits memcpy(p, p, n).
;
; With align_dst, a forward copy of ${ALIGN_MIN} bytes or more first moves the head
; that brings dst to that alignment: on Intel cores with fast-string
; microcode rep movsb runs twice as fast to a 32-byte-aligned destination
; (David Laight, LKML, 2025-03-16, in the thread below), and aligning
; copy_user_generic's destination to 8 bytes for copies of 64 bytes or more
; measured consistently faster on an EPYC 7742 (LKML, "x86: add back the
; alignment of the destination to 8 bytes in copy_user_generic()",
; 2025-03-16). Whether a core gains is measured per entry.
@ if has.memcpy then

; void *${P}memcpy(void *dst, const void *src, size_t n): dst and src are
; disjoint or identical. Returns dst.
        func    ${P}memcpy
@   if opts.memcpy_symbol then
        ; A strong memcpy, to override compiler_builtins' weak one.
        func    memcpy
memcpy:
@   end
${P}memcpy:
        mov     rax, rdi
@   goes_down("memcpy")
@   forward_copy("memcpy")
        ret
.Lmemcpy_down:
@   copy_down_body("memcpy")
        ret
        endfunc
@ end
@ if has.copy_forward then

; void *${P}copy_forward(void *dst, const void *src, size_t n): the forward
; path alone, whatever the rule. Returns dst.
        func    ${P}copy_forward
${P}copy_forward:
        mov     rax, rdi
@   forward_copy("copy_forward")
        ret
        endfunc
@ end
@ if has.copy_down then

; void *${P}copy_down(void *dst, const void *src, size_t n): the descending
; copy alone, for n >= 8. Returns dst.
        func    ${P}copy_down
${P}copy_down:
        mov     rax, rdi
@   copy_down_body("copy_down")
        ret
        endfunc
@ end
@ if has.copy_goes_down then

; int ${P}copy_goes_down(const void *dst, const void *src, size_t n): 1 when
; ${P}memcpy would copy highest first, else 0. The same predicate, expanded
; from the same template function, so tests and logs see what memcpy does.
        func    ${P}copy_goes_down
${P}copy_goes_down:
@   goes_down("copy_goes_down")
        xor     eax, eax
        ret
.Lcopy_goes_down_down:
        mov     eax, 1
        ret
        endfunc
@ end
@ local access = {}
@ for _, r in ipairs(flavor.routines) do if r.access then access[#access + 1] = r.name end end
@ if #access > 0 then
@   local stac = opts.smap and "        stac" or "        ; (no SMAP: built without --smap)"
@   local clac = opts.smap and "        clac" or "        ; (no SMAP)"

; The user copies expand memcpy's rule and bodies (the same template
; functions) between the labels ${P}<routine>_access and
; ${P}<routine>_access_end: every instruction that touches user memory lies
; in [access, access_end). A kernel's page-fault handler, on a fault at a user
; address with rip in such a range, either serves the fault and returns, so
; the faulting instruction reruns (rep movsb and rep stosb resume from rcx,
; rsi and rdi; each mov of the descending body stands alone), or sets rip to
; ${P}user_fault_exit. Nothing is pushed inside a range, so rsp at the fault
; is rsp at entry.
@   if remaining then
;
; Result (--user-copy-result=remaining, Linux's contract): the number of
; bytes not copied. r9 holds the end of the destination from entry on and no
; body writes it. After a fault, rep movsb and rep stosb leave rdi at the
; first byte not stored, every byte below it stored: the count is exact on
; the forward path (tests/fault_tests.c checks it with a guard page at every
; byte offset). The descending body never moves rdi, so a fault there
; reports n, all of it, although bytes at the top of the destination may
; have been written already.
@   else
;
; Result (the default): 0, or 1 after a fault that was not served. After a
; failure some or none of the bytes were copied: a descending copy may have
; written the top of the destination already (toyos pull request 1244).
@   end
@   if opts.smap then
; SMAP: stac opens user access before the range, clac closes it after the
; range and in the fault exit.
@   end
@   for _, name in ipairs(access) do
@     if name == "clear_user" then

; ${P}clear_user(void *user_dst, size_t n): rep stosb has no loads, so no
; distance can make it wait; it needs no rule.
        func    ${P}clear_user
        global  ${P}clear_user_access, ${P}clear_user_access_end
${P}clear_user:
@       if remaining then
        lea     r9, [rdi + rsi]                 ; end of the destination
@       end
${stac}
${P}clear_user_access:
        mov     rcx, rsi
        xor     eax, eax
        rep stosb
${P}clear_user_access_end:
${clac}
        ret
        endfunc
@     else

; ${P}${name}(void *dst, const void *src, size_t n): memcpy's rule and bodies
; inside an access range.
        func    ${P}${name}
        global  ${P}${name}_access, ${P}${name}_access_end
${P}${name}:
@       if remaining then
        lea     r9, [rdi + rdx]                 ; end of the destination
@       end
${stac}
${P}${name}_access:
@       goes_down(name)
@       forward_copy(name)
        jmp     .L${name}_done
.L${name}_down:
@       copy_down_body(name)
.L${name}_done:
${P}${name}_access_end:
${clac}
        xor     eax, eax
        ret
        endfunc
@     end
@   end

; The shared fault exit: where a kernel sends rip after a fault in an access
; range that it does not serve.
        func    ${P}user_fault_exit
${P}user_fault_exit:
${clac}
@   if remaining then
        mov     rax, r9
        sub     rax, rdi                        ; bytes not copied
@   else
        mov     eax, 1                          ; failure
@   end
        ret
        endfunc
@ end
@ if not T then

        section .data
        align   8
; The installed rule. Zero until ${P}rule_init(): every copy forward, no
; alignment head, which is correct on every CPU, only sometimes slower.
        object  ${P}copy_window
${P}copy_window:
        dq      0
        endobject
        object  ${P}copy_align_dst
${P}copy_align_dst:
        dq      0
        endobject
@ end
@ if #access > 0 then

        section .rodata
        align   8
; The access ranges for a kernel's exception table: [begin, end) pairs.
        object  ${P}user_access_ranges
${P}user_access_ranges:
@   for _, name in ipairs(access) do
        dq      ${P}${name}_access, ${P}${name}_access_end
@   end
        endobject
        object  ${P}user_access_range_count
${P}user_access_range_count:
        dq      ${#access}
        endobject
@ end

        section .rodata
; copy_rule.c refers to this symbol: linking it with a copy object from
; another uarchgen run fails instead of mixing two rules.
        object  ${P}out_stamp_${gen.stamp}
${P}out_stamp_${gen.stamp}:
        db      1
        endobject

        section .note.GNU-stack
