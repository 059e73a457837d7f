${banner(";")}
@ -- Written once, in the neutral assembly of gen/render/asm_syntax.h; the
@ -- generator renders it as NASM (copy.asm) and as GAS (copy.S).
@ -- The parts it joins are in copy/: the dispatch, each strategy's body
@ -- (copy/bodies/<strategy>.tpi, one for each row of the catalogue,
@ -- common/strategies.h), and the routines.
@ local c = import("copy_context").of()
@ local P, T, has = c.P, c.T, c.has
@ local SHORT = import("table_layout").short
;
; Copy routines of flavor ${flavor.name}.
; System V calling convention.
@ if T then
; Specialised to ${target_name()} (${T.status}${T.source and ", from " .. T.source or ""}): its table is
; compiled to a branch tree with the bounds as immediates.
@ else
@   local set_names = {}
@   for _, s in ipairs(c.sets) do set_names[#set_names + 1] = s.name end
; Each patched routine's entry (${table.concat(c.sites, ", ")}) is the
; baseline, every copy one forward rep movsb, until ${P}rule_patch()
; (copy_rule.c) writes a jmp at its start to the installed rule's routine:
; each measured table compiled to a branch tree with its bounds as
; immediates (${#set_names > 0 and table.concat(set_names, ", ") or "none yet"}), or, for a table no entry
; holds (forced ones, the tests'), the dispatch that reads the table
; ${P}rule_install() writes: ${P}copy_above_max, ${P}copy_near_max,
; ${P}copy_below_from, ${P}copy_align_dst, ${P}copy_short (a strategy byte per
; class and length below ${SHORT}, so that a short copy finds its strategy with
; one load) and ${P}copy_long_hi and ${P}copy_long_cells (the bands that reach
; ${SHORT} bytes or more). Nothing is tested on each call.
@ end
;
; Contract, for every routine here:
@ if flavor.isa_level == 0 then
;  - general registers only: no x87, SSE or AVX state is touched;
@ else
;  - general registers, and xmm, ymm and zmm registers (caller-saved in the
;    System V ABI) only where CPUID and XGETBV say that the CPU and the OS
;    enable them; a path that wrote a ymm or zmm register runs vzeroupper
;    before it returns, so the upper state is clean (XINUSE) on return;
@ end
;  - no stack below rsp is used (kernels build with -mno-red-zone), nor any
;    stack at all;
;  - DF is trusted clear, as the ABI guarantees on entry, and never written:
;    no std, no cld;
@ if flavor.isa_level == 0 then
;  - only rax, rcx, rdx, rsi, rdi, r8 and r9 change; callee-saved registers
;    are untouched.
@ else
;  - only rax, rcx, rdx, rsi, rdi and r8 to r11 change; callee-saved
;    registers are untouched.
@ end

@ if opts.linux then
        exceptions extable
        linux_include ${opts.linux_export_header}
@   if opts.linux_own_baseline then
        linux_include <asm/alternative.h>
        linux_include <asm/cpufeatures.h>
@   end
        endexceptions
@ end
        intel64


        section .text

; Why a table: on AMD Zen 2 a load whose address bits 11:0 match an older
; in-flight store waits for that store (AMD 56305 rev. 3.02, section 2.12).
; A forward rep movsb whose destination is 1..31 bytes above its source
; modulo 4 KiB therefore stalls on every load: 1946 ns against 88 ns at
; distance 0 for 8 KiB on a Ryzen 7 4800U, while the descending copy took
; 260 ns at every distance (toyos pull request 1139). Whether a path wins
; depends on the length and on the sign of the distance, and differs from
; core to core, so each core's rule maps length bands x distance classes to
; a strategy, measured by the probe (evidence/). A core with no evidence
; gets the baseline: every copy forward.
;
; Classes, by d = (dst - src) mod 4096, in this order: zero (d mod zero_mod
; = 0; with zero_mod 4096 only d = 0: dst == src, which memcpy's callers
; pass, LLVM emits memcpy(p, p, n); with 8..64 every mutually aligned pair
; of buffers, which a core may copy in its own way), above (d <= above_max),
; near (d <= near_max: further above, where a core may copy its own way
; again), below (d >= 4096 - below_max), elsewhere (every other d).
;
; Strategy down copies highest first: the nearest older store with the same
; low 12 bits is then 4 KiB - d back, long retired. Eight bytes per store;
; the top and bottom 8 bytes are stored unaligned and every store between
; them is aligned on the destination. The aligned end (dst + n) & ~7 lies in
; (n - 8, n] from dst, so every access stays in [0, n).
;
; Strategy forward_aligned first moves the head that brings dst to the
; rule's align_dst: on Intel cores with fast-string microcode rep movsb runs
; twice as fast to a 32-byte-aligned destination (David Laight, LKML,
; 2025-03-16, in the thread below), and aligning copy_user_generic's
; destination to 8 bytes for copies of 64 bytes or more measured
; consistently faster on an EPYC 7742 (LKML, "x86: add back the alignment of
; the destination to 8 bytes in copy_user_generic()", 2025-03-16).
;
; Each patched entry, and each routine an entry runs, starts a 64-byte line,
; so that where its tree and its copies fall in the instruction cache's
; lines depends on the routine alone, not on what the file holds before it
; (and a tree rule_patch copies into an entry lies in the lines as in its
; routine): unaligned, zen5's
; memcpy (a routine shifted 416 bytes by the room of the entries) measured
; a median dispatch cost of 2.50-2.80 ticks in four runs of make bench on
; an Emerald Rapids guest, 0.74-1.04 in four runs aligned.
;
; Strategy small skips rep movsb's start-up for n <= 32: that start-up is
; most of a short copy's time (measured: see
; docs/notebook/measurements-2026-12.md#strategy-small).
@ if has.memcpy then
${include("copy/memcpy.tpi")}
@ end
@ if has.memmove then
${include("copy/memmove.tpi")}
@ end
@ if has.copy_isa then
${include("copy/copy_isa.tpi")}
@ end
${include("copy/strategy_routines.tpi")}
@ if c.defers then
${include("copy/libc.tpi")}
@ end
@ if has.copy_strategy then
${include("copy/copy_strategy.tpi")}
@ end
@ if #c.access > 0 then
${include("copy/user_access.tpi")}
@ end
@ if not T then
${include("copy/data.tpi")}
${include("copy/patch_list.tpi")}
@ end
${include("copy/strategy_offsets.tpi")}
@ if #c.access > 0 then
@   local ranges = {}
@   for _, name in ipairs(c.access) do
@     ranges[#ranges + 1] = name
@     if name ~= "clear_user" and not T then
@       for _, w in ipairs(c.ways) do ranges[#ranges + 1] = name .. w.suffix end
@     end
@   end

        exceptions ranges
        section .data.rel.ro
        align   8
; The access ranges for a kernel's exception table: [begin, end) pairs, one
; for each user copy and each routine rule_patch may send it to.
; Addresses, so the loader relocates them: a read-only-after-relocation
; section keeps a shared object or PIE free of text relocations.
        object  ${P}user_access_ranges
${P}user_access_ranges:
@   for _, name in ipairs(ranges) do
        dq      ${P}${name}_access, ${P}${name}_access_end
@   end
        endobject
        object  ${P}user_access_range_count
${P}user_access_range_count:
        dq      ${#ranges}
        endobject
        endexceptions
@ end
@ if #c.access > 0 and has.memcpy then
        exceptions extable

; Built into Linux (linux/uarchcopy.patch puts this file in
; arch/x86/lib/uarchcopy/), ${P}memcpy is the kernel's memcpy and __memcpy,
; in place of memcpy_64.S's, and the user copies are what
; raw_copy_{to,from}_user call, which modules inline. A module defines none
; of these names.
        builtin_alias __memcpy, ${P}memcpy
        builtin_alias memcpy, ${P}memcpy, weak
        builtin_export ${P}copy_to_user
        builtin_export ${P}copy_from_user
        endexceptions
@ end

        section .rodata
; copy_rule.c refers to this symbol: linking it with a copy object from
; another uarchgen run fails instead of mixing two rules.
        object  ${P}out_stamp_${gen.stamp}
${P}out_stamp_${gen.stamp}:
        db      1
        endobject

@ if opts.endbr then

; Every entry starts with endbr64 and no routine changes the stack but by
; call and ret: the file is fit for CET's indirect branch tracking and
; shadow stacks, and says so, or a CET link (-z cet-report=error) refuses it.
        cetnote
@ end

        section .note.GNU-stack
