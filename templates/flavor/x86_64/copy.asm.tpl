${banner(";")}
@ -- Written once, in the neutral assembly of templates/lib/asm.lua; the
@ -- generator renders it as NASM (copy.asm) and as GAS (copy.S).
@ local P = opts.prefix
@ local T = target_name() and target_rule(target_name(), flavor.name)
@ local plan = T and import("dispatch").plan(T)
@ local remaining = opts.user_copy_result == "remaining"
@ local has = {}
@ for _, r in ipairs(flavor.routines) do has[r.name] = true end
@ local code = {}
@ for _, s in ipairs(db.strategies) do code[s.name] = s.code end
@ local CLASS = {}
@ for i, c in ipairs(db.classes) do CLASS[c] = i - 1 end
@ local NB = db.max_bands
@ assert(code.forward == 0 and code.forward_aligned == 1 and code.down == 2 and code.small == 3,
@        "the table dispatch below tests the strategy codes in the catalogue's order")
@ local ALIGN_MIN = 64 -- forward_aligned's smallest n: a head is at most 63 bytes
@ local SHORT_BITS = 8
@ local SHORT = 1 << SHORT_BITS -- lengths below this read their strategy from one byte each
;
; Copy routines of flavor ${flavor.name}.
; System V calling convention.
@ if T then
; Specialised to ${target_name()} (${T.status}${T.source and ", from " .. T.source or ""}): its table is
; compiled to a branch tree with the bounds as immediates.
@ else
; The rule is the table that ${P}rule_init() (copy_rule.c) installs from
; CPUID, before the first copy, into ${P}copy_above_max, ${P}copy_near_max,
; ${P}copy_below_from, ${P}copy_align_dst, ${P}copy_short (a strategy byte per
; class and length below ${SHORT}, so that a short copy finds its strategy with
; one load) and ${P}copy_long_hi and ${P}copy_long_cells (the bands that reach
; ${SHORT} bytes or more), and ${P}copy_baseline, set where every copy goes
; forward.
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

        intel64

@ -- After each exported entry: an indirect call may land there, and with
@ -- CET's indirect branch tracking only an endbr64 may be landed on.
@ local function landing()
@   if opts.endbr then
        endbr64
@   end
@ end
@
@ -- Strategy down: rdi = dst, rsi = src, rdx = n >= 8. Clobbers rcx, r8.
@ -- rdi and rsi do not move, which is what the user copies' fault exit reads.
@ local function down_body(tag)
        ; descending body: begin
        mov     r8, [rsi + rdx - 8]
        mov     [rdi + rdx - 8], r8             ; top store
        lea     rcx, [rdi + rdx]
        and     rcx, -8
        sub     rcx, rdi                        ; aligned end, as an offset
        sub     rcx, 8                          ; first aligned store
        ja      .L${tag}_loop
        jmp     .L${tag}_bottom
        ; The loop starts a 16-byte block, so that it never straddles a
        ; 64-byte line and its speed does not depend on where it lies: before
        ; this, make bench on a Zen 3 guest timed memcpy's copy of the loop,
        ; which straddled a line, at 1.6x the time of copy_down's at 256
        ; bytes (one run, not kept).
        codealign 16
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
@ -- Strategy small: rdi = dst, rsi = src, rdx = n <= 32. Every load comes
@ -- before any store, so any overlap copies correctly and no load waits on a
@ -- store of this copy. Clobbers rax, rcx, r8 and rsi; rdi does not move.
@ local function small_body(tag)
        ; small body: begin
        cmp     rdx, 16
        jae     .L${tag}_s16
        cmp     rdx, 8
        jae     .L${tag}_s8
        cmp     rdx, 4
        jae     .L${tag}_s4
        cmp     rdx, 2
        jae     .L${tag}_s2
        test    rdx, rdx
        jz      .L${tag}_s_end
        movzx   ecx, byte [rsi]
        mov     [rdi], cl
        jmp     .L${tag}_s_end
.L${tag}_s2:
        movzx   ecx, word [rsi]
        movzx   r8d, word [rsi + rdx - 2]
        mov     [rdi], cx
        mov     [rdi + rdx - 2], r8w            ; tail store
        jmp     .L${tag}_s_end
.L${tag}_s4:
        mov     ecx, [rsi]
        mov     r8d, [rsi + rdx - 4]
        mov     [rdi], ecx
        mov     [rdi + rdx - 4], r8d            ; tail store
        jmp     .L${tag}_s_end
.L${tag}_s8:
        mov     rcx, [rsi]
        mov     r8, [rsi + rdx - 8]
        mov     [rdi], rcx
        mov     [rdi + rdx - 8], r8             ; tail store
        jmp     .L${tag}_s_end
.L${tag}_s16:
        mov     rcx, [rsi]
        mov     r8, [rsi + 8]
        mov     rax, [rsi + rdx - 16]
        mov     rsi, [rsi + rdx - 8]            ; the last load: rsi is free after it
        mov     [rdi], rcx
        mov     [rdi + 8], r8
        mov     [rdi + rdx - 16], rax
        mov     [rdi + rdx - 8], rsi            ; tail store
.L${tag}_s_end:
        ; small body: end
@ end
@
@ -- Strategy forward: rdi = dst, rsi = src, rdx = n. Clobbers rcx.
@ local function forward_body(tag)
        mov     rcx, rdx
        rep movsb
@ end
@
@ -- Strategy forward_aligned: for n >= ${ALIGN_MIN}, the head that brings dst to
@ -- align_dst, then the rest. Clobbers rcx, r8 and rdx.
@ local function forward_aligned_body(tag)
@   if T and T.align_dst == 0 then
        ; ${target_name()}'s align_dst is 0: no head.
        mov     rcx, rdx
        rep movsb
@     return
@   end
        cmp     rdx, ${ALIGN_MIN}                         ; align threshold
        jb      .L${tag}_body
@   if T then
        ; ecx, which zero-extends into rcx: NASM would write mov rcx, imm as
        ; that 5-byte form and GAS as the 7-byte sign-extending one.
        mov     ecx, ${T.align_dst - 1}
@   else
        mov     rcx, [rel ${P}copy_align_dst.here]
        test    rcx, rcx
        jz      .L${tag}_body                   ; no alignment installed
        dec     rcx
@   end
        mov     r8, rdi
        neg     r8
        and     rcx, r8                         ; head: bytes until dst is aligned
        sub     rdx, rcx
        rep movsb                               ; head
.L${tag}_body:
        mov     rcx, rdx
        rep movsb                               ; body
@ end
@
@ -- The vector strategies: W-byte moves in registers V0..V5 (ymm: W = 32, AVX2;
@ -- zmm: W = 64, AVX-512F; never V16..V31, which vzeroupper leaves dirty).
@ -- rdi = dst, rsi = src, rdx = n >= W; clobbers rcx, r8 and r9. The first
@ -- and the last W bytes are loaded before any store and stored after the
@ -- loops, so every access stays in [0, n) and, going up,
@ -- a destination below an overlapping source copies correctly (going down,
@ -- one above it). Every path that wrote a ymm or zmm register ends with
@ -- vzeroupper: upper vector state left dirty slows every SSE instruction
@ -- that follows (Intel 248966, "Mixing AVX code and SSE code").
@ local function vector(width)
@   local reg = width == 32 and "ymm" or "zmm"
@   local mov, mova = width == 32 and "vmovdqu" or "vmovdqu64", width == 32 and "vmovdqa" or "vmovdqa64"
@   return reg, mov, mova
@ end
@ -- Strategy avx2_nt (stream): the same with streaming stores (vmovntdq)
@ -- for the aligned blocks between head and tail: they go to memory through
@ -- write-combining buffers, without reading the destination's lines first
@ -- or evicting other lines for them, which pays where a copy is larger
@ -- than the caches hold. They are weakly ordered (Intel SDM vol. 1,
@ -- 10.4.6.2, "Caching of Temporal vs. Non-Temporal Data"; vol. 3A,
@ -- 11.3.1), so an sfence follows them: a store that the caller makes after
@ -- the copy, to publish the buffer, cannot become visible before the
@ -- copy's.
@ -- The vector loops move four blocks a step, every load of a step before
@ -- its stores, while four blocks fit, then one block a step: one block a
@ -- step alone, in a process that timed both side by side, took 31-34
@ -- ticks for 1 KiB at d = 0 against the C library's 25.7, and 54-59 in
@ -- some placements of the loop; four a step took 25.6-25.7 in every
@ -- placement (Zen 3 guest, 1 to 8 rotating buffers in L1; one run).
@ -- Loading four blocks from the far end before the loop instead of
@ -- finishing one at a time cost up to 1.9x at 160-300 bytes. Against one
@ -- block a step, the two loops took 0.69-1.01x the time at each of 60
@ -- points (avx2_forward and avx2_down, 160 B-64 KiB, d = 0, 100, 2061,
@ -- 1 and 16 buffers; same process, same run). Overlaps
@ -- stay safe: a step loads what it stores before storing, and what
@ -- earlier steps stored lies behind it in the copy's direction.
@ local function vector_forward_body(width, stream)
@   local reg, mov, mova = vector(width)
@   local what = stream and "streaming forward body" or "vector forward body"
@   local W = width
@   local function store(at, k)
@     if stream then
        vmovntdq ${at}, ${reg}${k}              ; streaming store, aligned
@     else
        ${mova} ${at}, ${reg}${k}               ; aligned store
@     end
@   end
@   return function(tag)
        ; ${what}: begin
        ${mov} ${reg}0, [rsi]
        ${mov} ${reg}1, [rsi + rdx - ${W}]            ; the tail, loaded before any store
        cmp     rdx, ${2 * W}
        jbe     .L${tag}_ends                   ; head and tail cover n
        mov     rcx, rdi
        neg     rcx
        and     rcx, ${W - 1}                         ; the first aligned destination block
        lea     r8, [rdx - ${W}]                      ; blocks start below n - ${W}
        lea     r9, [rdx - ${4 * W}]                     ; steps of four start below n - ${4 * W}
        cmp     rcx, r9
        jge     .L${tag}_single                 ; signed: n - ${4 * W} may be below 0
        jmp     .L${tag}_loop4
        ; The loops start a 16-byte block, as the descending ones do: one
        ; in-process A/B on the Zen 3 guest timed the same avx2_forward copy
        ; of 2 KiB at 63 and 107 ticks from two placements of the loop (one
        ; run, not kept).
        codealign 16
.L${tag}_loop4:
        ${mov} ${reg}2, [rsi + rcx]
        ${mov} ${reg}3, [rsi + rcx + ${W}]
        ${mov} ${reg}4, [rsi + rcx + ${2 * W}]
        ${mov} ${reg}5, [rsi + rcx + ${3 * W}]
@     store("[rdi + rcx]", 2)
@     store("[rdi + rcx + " .. W .. "]", 3)
@     store("[rdi + rcx + " .. 2 * W .. "]", 4)
@     store("[rdi + rcx + " .. 3 * W .. "]", 5)
        add     rcx, ${4 * W}                        ; vector loop step
        cmp     rcx, r9
        jl      .L${tag}_loop4                  ; vector loop bound, four blocks
.L${tag}_single:
        cmp     rcx, r8
        jae     .L${tag}_done                   ; at most three blocks follow: no alignment
.L${tag}_loop:
        ${mov} ${reg}2, [rsi + rcx]
@     store("[rdi + rcx]", 2)
        add     rcx, ${W}                         ; vector loop step
        cmp     rcx, r8
        jb      .L${tag}_loop                   ; vector loop bound
.L${tag}_done:
@     if stream then
        sfence                                  ; the streaming stores before any later store
@     end
.L${tag}_ends:
        ${mov} [rdi], ${reg}0                     ; head store
        ${mov} [rdi + rdx - ${W}], ${reg}1            ; tail store
        vzeroupper
        ; ${what}: end
@   end
@ end
@ local function vector_down_body(width)
@   local reg, mov, mova = vector(width)
@   local W = width
@   return function(tag)
        ; vector down body: begin
        ${mov} ${reg}0, [rsi]                     ; the head, loaded before any store
        ${mov} ${reg}1, [rsi + rdx - ${W}]
        cmp     rdx, ${2 * W}
        jbe     .L${tag}_ends                   ; head and tail cover n
        lea     rcx, [rdi + rdx - ${W}]
        and     rcx, -${W}
        sub     rcx, rdi                        ; the last aligned destination block
        cmp     rcx, ${3 * W}
        jle     .L${tag}_loop                   ; fewer than four blocks above the head
        jmp     .L${tag}_loop4
        codealign 16
.L${tag}_loop4:
        ${mov} ${reg}2, [rsi + rcx]
        ${mov} ${reg}3, [rsi + rcx - ${W}]
        ${mov} ${reg}4, [rsi + rcx - ${2 * W}]
        ${mov} ${reg}5, [rsi + rcx - ${3 * W}]
        ${mova} [rdi + rcx], ${reg}2               ; aligned store
        ${mova} [rdi + rcx - ${W}], ${reg}3
        ${mova} [rdi + rcx - ${2 * W}], ${reg}4
        ${mova} [rdi + rcx - ${3 * W}], ${reg}5
        sub     rcx, ${4 * W}                        ; vector loop step
        cmp     rcx, ${3 * W}
        jg      .L${tag}_loop4                  ; vector loop bound, four blocks above the head
        test    rcx, rcx
        jle     .L${tag}_ends                   ; the step passed the head; at most three blocks follow
.L${tag}_loop:
        ${mov} ${reg}2, [rsi + rcx]
        ${mova} [rdi + rcx], ${reg}2               ; aligned store
        sub     rcx, ${W}                         ; vector loop step
        ja      .L${tag}_loop                   ; vector loop bound: offsets above 0
.L${tag}_ends:
        ${mov} [rdi + rdx - ${W}], ${reg}1            ; tail store
        ${mov} [rdi], ${reg}0                     ; head store
        vzeroupper
        ; vector down body: end
@   end
@ end
@
@ -- Strategy avx2_small: rdi = dst, rsi = src, rdx = n <= 256. Every load
@ -- before any store, so an overlap either way copies correctly: eight ymm
@ -- from 128 bytes (four from each end), four from 64, two from 32, two xmm
@ -- from 16, below that small's general registers. The C library copies
@ -- these lengths this way, and at 64..256 bytes took 0.6-0.85x the time of
@ -- uc_memcpy under a table that chose avx2_down there (make bench, user
@ -- flavor, Zen 3 guest, one run, not kept). The probe on that guest then
@ -- chose it at 193..256 bytes only: at 96 it took 9.6 ticks a call against
@ -- the loops' 8.8 (evidence/zen3-2026-11-30-41ab45). Clobbers rax, rcx, r8
@ -- and rsi like small.
@ local function avx2_small_body(tag)
        ; avx2 small body: begin
        cmp     rdx, 64
        jae     .L${tag}_q64
        cmp     rdx, 32
        jae     .L${tag}_q32
        cmp     rdx, 16
        jb      .L${tag}_gpr
        vmovdqu xmm0, [rsi]
        vmovdqu xmm1, [rsi + rdx - 16]
        vmovdqu [rdi], xmm0
        vmovdqu [rdi + rdx - 16], xmm1          ; xmm tail store
        jmp     .L${tag}_q_end
.L${tag}_q32:
        vmovdqu ymm0, [rsi]
        vmovdqu ymm1, [rsi + rdx - 32]
        vmovdqu [rdi], ymm0
        vmovdqu [rdi + rdx - 32], ymm1          ; ymm tail store
        vzeroupper
        jmp     .L${tag}_q_end
.L${tag}_q64:
        vmovdqu ymm0, [rsi]
        vmovdqu ymm1, [rsi + 32]
        vmovdqu ymm2, [rsi + rdx - 64]
        vmovdqu ymm3, [rsi + rdx - 32]
        cmp     rdx, 128
        jae     .L${tag}_q128
        vmovdqu [rdi], ymm0
        vmovdqu [rdi + 32], ymm1
        vmovdqu [rdi + rdx - 64], ymm2
        vmovdqu [rdi + rdx - 32], ymm3          ; ymm tail store, 64..127
        vzeroupper
        jmp     .L${tag}_q_end
.L${tag}_q128:
        vmovdqu ymm4, [rsi + 64]
        vmovdqu ymm5, [rsi + 96]
        vmovdqu ymm6, [rsi + rdx - 128]
        vmovdqu ymm7, [rsi + rdx - 96]
        vmovdqu [rdi], ymm0
        vmovdqu [rdi + 32], ymm1
        vmovdqu [rdi + 64], ymm4
        vmovdqu [rdi + 96], ymm5
        vmovdqu [rdi + rdx - 128], ymm6
        vmovdqu [rdi + rdx - 96], ymm7
        vmovdqu [rdi + rdx - 64], ymm2
        vmovdqu [rdi + rdx - 32], ymm3          ; ymm tail store, 128..256
        vzeroupper
        jmp     .L${tag}_q_end
.L${tag}_gpr:
@   small_body(tag .. "_g")
.L${tag}_q_end:
        ; avx2 small body: end
@ end
@ local bodies = { forward = forward_body, forward_aligned = forward_aligned_body, down = down_body, small = small_body,
@                  avx2_forward = vector_forward_body(32), avx2_down = vector_down_body(32),
@                  avx512_forward = vector_forward_body(64), avx512_down = vector_down_body(64),
@                  avx2_small = avx2_small_body, avx2_nt = vector_forward_body(32, true) }
@ -- Bodies that use rax, which the caller's finish restores to dst.
@ local uses_rax = { small = true, avx2_small = true }
@
@ -- The strategies the dispatch can reach, in code order.
@ local function reachable()
@   local list = {}
@   for _, s in ipairs(flavor_strategies()) do
@     if not T or plan.used[s.name] then list[#list + 1] = s.name end
@   end
@   return list
@ end
@
@ -- Jumps from a strategy code in ecx to .L<tag>_<strategy>. The four codes
@ -- of general registers take the tree they always took; more are split at
@ -- the middle code, each half alike.
@ local function code_tree(tag, names)
@   if #names == 4 and names[1] == "forward" and names[2] == "forward_aligned" and names[3] == "down" and names[4] == "small" then
        cmp     ecx, ${code.down}
        je      .L${tag}_down
        ja      .L${tag}_small
        test    ecx, ecx
        jz      .L${tag}_forward
        jmp     .L${tag}_forward_aligned
@     return
@   end
@   -- A vector flavor's tables choose avx2_forward for most lengths past
@   -- small's: it is tested first. Ten codes put it three compares deep,
@   -- and the dispatch's median cost for n = 1..256 at d = 0 rose from 1.5
@   -- to 3.6 ticks; testing it first took 2.9 (make bench, user flavor,
@   -- Zen 3 guest, two runs each, not kept).
@   for _, name in ipairs(names) do
@     if name == "avx2_forward" then
        cmp     ecx, ${code.avx2_forward}
        je      .L${tag}_avx2_forward
@     end
@   end
@   local function split(lo, hi, label)
@     if label then
.L${tag}_codes_${lo}_${hi}:
@     end
@     if lo == hi then
        jmp     .L${tag}_${names[lo]}
@       return
@     end
@     local mid = (lo + hi + 1) // 2
        cmp     ecx, ${code[names[mid]]}
        je      .L${tag}_${names[mid]}
@     if mid < hi then
        ja      .L${tag}_codes_${mid + 1}_${hi}
@     end
@     if lo <= mid - 1 then split(lo, mid - 1, false) else
        ud2                                     ; no code below
@     end
@     if mid < hi then split(mid + 1, hi, true) end
@   end
@   split(1, #names, false)
@ end
@
@ -- Sets the distance class of rdi - rsi for .L<tag>_<which>class, which
@ -- must follow: the class elsewhere, most distances', falls through, and
@ -- each other class jumps to its stub (classify_stubs, placed where no
@ -- path falls in). Short (""): r8d becomes the class. Long ("long_"): r8d
@ -- holds the band, and becomes class * ${NB} + band, the cell's index.
@ -- With every class jumping to a stub and back, the kernel flavor's
@ -- random-size workload (make bench) took 0.666-0.668x the time of rep
@ -- movsb; laid out this way, 0.588-0.603x (Zen 3 guest, the two builds
@ -- run in turns, three times each).
@ local function set_class(which, class)
@   if which == "" then
        mov     r8d, ${CLASS[class]}
@   elseif CLASS[class] > 0 then
        add     r8d, ${CLASS[class] * NB}
@   end
@ end
@ local function classify(tag, which)
        mov     ecx, edi
        sub     ecx, esi                        ; distance: dst - src
        and     ecx, 4095
        test    [rel ${P}copy_zero_mask.here], rcx   ; zero: d mod zero_mod = 0
        jz      .L${tag}_${which}zero
        cmp     rcx, [rel ${P}copy_above_max.here]   ; above: d <= above_max
        jbe     .L${tag}_${which}above
        cmp     rcx, [rel ${P}copy_near_max.here]    ; near: d <= near_max
        jbe     .L${tag}_${which}near
        cmp     rcx, [rel ${P}copy_below_from.here]  ; below: d >= 4096 - below_max
        jae     .L${tag}_${which}below
@   if which == "" then
        mov     r8d, ${CLASS.elsewhere}                          ; elsewhere, the most common class
@   else
        add     r8d, ${CLASS.elsewhere * NB}                         ; elsewhere, the most common class
@   end
@ end
@ local function classify_stubs(tag, which)
@   for _, class in ipairs({ "zero", "above", "near", "below" }) do
.L${tag}_${which}${class}:
@     if which == "" and class == "zero" then
@       assert(CLASS.zero == 0, "class zero's row of copy_short is the first")
        lea     rcx, [rel ${P}copy_short.here]
        movzx   ecx, byte [rcx + rdx]           ; class zero's row is the first
        jmp     .L${tag}_code
@     else
@       set_class(which, class)
        jmp     .L${tag}_${which}class
@     end
@   end
@ end
@
@ -- Jumps to .L<tag>_<strategy>, the strategy the table picks for rdi = dst,
@ -- rsi = src, rdx = n. Clobbers rcx and r8.
@ local function dispatch(tag)
@   if T then
        ; ${target_name()}'s table, as a branch tree: length first
@     local leaves = plan.leaves
@     -- The distance tests of leaves[i], then its elsewhere class's copy.
@     local function leaf(i)
@       local L = leaves[i]
@       if #L.tests > 0 then
        mov     ecx, edi
        sub     ecx, esi                        ; distance: dst - src
        and     ecx, 4095
@       end
@       for _, x in ipairs(L.tests) do
@         if x.class == "zero" and T.zero_mod < 4096 then
        test    ecx, ${T.zero_mod - 1}                       ; zero: d mod ${T.zero_mod} = 0
        jz      .L${tag}_${x.s}
@         elseif x.class == "zero" then
        jz      .L${tag}_${x.s}                 ; zero: d = 0
@         elseif x.class == "above" then
        cmp     ecx, ${T.above_max}                       ; above: d <= above_max
        jbe     .L${tag}_${x.s}
@         elseif x.class == "near" then
        cmp     ecx, ${T.near_max}                       ; near: d <= near_max
        jbe     .L${tag}_${x.s}
@         else
        cmp     ecx, ${4096 - T.below_max}                     ; below: d >= 4096 - below_max
        jae     .L${tag}_${x.s}
@         end
@       end
        jmp     .L${tag}_${L.elsewhere}
@     end
@     -- Leaves lo..hi, for a length past leaves[lo - 1].hi: halves them.
@     local function search(lo, hi)
@       if lo == hi then
@         leaf(lo)
@         return
@       end
@       local mid = (lo + hi) // 2
        cmp     rdx, ${leaves[mid].hi}                    ; band edge
@       if lo == mid and #leaves[lo].tests == 0 then
        jbe     .L${tag}_${leaves[lo].elsewhere}
@         search(mid + 1, hi)
@       elseif mid + 1 == hi and #leaves[hi].tests == 0 then
        ja      .L${tag}_${leaves[hi].elsewhere}
@         search(lo, mid)
@       else
        ja      .L${tag}_t${mid + 1}_${hi}
@         search(lo, mid)
.L${tag}_t${mid + 1}_${hi}:
@         search(mid + 1, hi)
@       end
@     end
@     if #leaves == 1 then
@       leaf(1)
@     elseif #leaves[1].tests == 0 then
        cmp     rdx, ${leaves[1].hi}                    ; band edge: the lowest band first
        jbe     .L${tag}_${leaves[1].elsewhere}
@       search(2, #leaves)
@     else
        cmp     rdx, ${leaves[1].hi}                    ; band edge: the lowest band first
        ja      .L${tag}_t2_${#leaves}
@       leaf(1)
.L${tag}_t2_${#leaves}:
@       search(2, #leaves)
@     end
@   else
        cmp     byte [rel ${P}copy_baseline.here], 0
        jne     .L${tag}_forward                ; baseline: every copy forward
        ; Most lengths take one strategy in every class: copy_uniform gives
        ; it below ${SHORT} bytes, copy_long_uniform for each band that reaches
        ; ${SHORT}, without the distance; 255 where the classes differ.
        cmp     rdx, ${SHORT - 1}                         ; short: one byte per length
        ja      .L${tag}_long
        lea     rcx, [rel ${P}copy_uniform.here]
        movzx   ecx, byte [rcx + rdx]
        ; Strategy small first, the one short copies take most: one compare
        ; here, not the code tree, was a copy of 8 or 24 bytes in 6.8 ticks
        ; against 11.3, and the C library's memcpy took 7.5 (user flavor on
        ; the Zen 3 guest, the three timed in turns in one process; one run,
        ; not kept).
        cmp     ecx, ${code.small}
        je      .L${tag}_small                  ; uniform: small
        cmp     ecx, 255
        jne     .L${tag}_code                   ; uniform: every class alike
@     classify(tag, "")
.L${tag}_class:
        shl     r8d, ${SHORT_BITS}
        add     r8, rdx
        lea     rcx, [rel ${P}copy_short.here]
        movzx   ecx, byte [rcx + r8]            ; the strategy code
.L${tag}_code:
@     code_tree(tag, reachable())
@     classify_stubs(tag, "")
.L${tag}_long:
        xor     r8d, r8d
@     for i = 0, NB - 2 do
        cmp     rdx, [rel ${P}copy_long_hi.here + ${8 * i}]
        jbe     .L${tag}_long_band              ; long band edge
        inc     r8d
@     end
.L${tag}_long_band:
        lea     rcx, [rel ${P}copy_long_uniform.here]
        movzx   ecx, byte [rcx + r8]
        cmp     ecx, 255
        jne     .L${tag}_code                   ; long uniform: every class alike
@     classify(tag, "long_")
.L${tag}_long_class:
        lea     rcx, [rel ${P}copy_long_cells.here]
        movzx   ecx, byte [rcx + r8]
        jmp     .L${tag}_code
@     classify_stubs(tag, "long_")
@   end
@ end
@
@ -- Every reachable strategy body, each labelled .L<tag>_<strategy> and
@ -- followed by `finish` (a function that writes the tail of each).
@ -- as_ (optional) maps a strategy to the function that writes what runs in
@ -- its place (memmove's overlaps).
@ local function bodies_of(tag, finish, as_)
@   for _, s in ipairs(reachable()) do
.L${tag}_${s}:
@     if as_ and as_[s] then
@       as_[s](tag .. "_" .. s)
@     else
@       bodies[s](tag .. "_" .. s)
@     end
@     finish(s)
@   end
@ end

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
; Strategy small skips rep movsb's start-up for n <= 32: on a Zen 3 guest
; a call took 6 ticks against rep movsb's 19 at 8 and at 32 bytes, d = 0
; (evidence/zen3-2026-11-30-50896c).
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
@   landing()
        mov     rax, rdi
@   dispatch("memcpy")
@   bodies_of("memcpy", function(s)
@     if uses_rax[s] then
        mov     rax, rdi                        ; the body used rax; rdi never moved
@     end
        ret
@   end)
        endfunc
@ end
@ if has.memmove then

; void *${P}memmove(void *dst, const void *src, size_t n): any overlap.
; Disjoint buffers take memcpy's dispatch. Where the destination overlaps
; the source from above (dst in [src, src + n)), a copy must go highest
; first, and where it overlaps from below, lowest first: the table's
; strategy where it already does (small and avx2_small load everything
; first, so they do either), else the one of its isa that goes the safe way.
        func    ${P}memmove
${P}memmove:
@   landing()
        mov     rax, rdi
        mov     rcx, rdi
        sub     rcx, rsi                        ; dst - src
        cmp     rcx, rdx
        jb      .Lmemmove_overlap_above                 ; dst in [src, src + n): copy down
        mov     rcx, rsi
        sub     rcx, rdi                        ; src - dst
        cmp     rcx, rdx
        jae     .Lmemmove_disjoint
@   dispatch("memmove_up")
@   local function up_of(s)
@     return function(tag) bodies[s](tag) end
@   end
@   bodies_of("memmove_up", function(s)
@     if uses_rax[s] then
        mov     rax, rdi                        ; the body used rax; rdi never moved
@     end
        ret
@   end, { down = up_of("forward"), avx2_down = up_of("avx2_forward"), avx512_down = up_of("avx512_forward") })
.Lmemmove_overlap_above:
@   dispatch("memmove_down")
@   -- Strategy down for a destination above an overlapping source: down's
@   -- own top and bottom moves would read bytes its earlier stores wrote
@   -- where the shift is under 8, so here both are loaded first and stored
@   -- last, around the same aligned descending loop. Below 8 bytes, small.
@   local function down_of()
@     return function(tag)
        cmp     rdx, 8
        jb      .L${tag}_tiny                   ; down needs 8 bytes
        mov     r9, [rsi + rdx - 8]             ; the top, loaded before any store
        mov     r10, [rsi]                      ; the bottom, loaded before any store
        lea     rcx, [rdi + rdx]
        and     rcx, -8
        sub     rcx, rdi                        ; aligned end, as an offset
        sub     rcx, 8                          ; first aligned store
        jbe     .L${tag}_ends
.L${tag}_loop:
        mov     r8, [rsi + rcx]
        mov     [rdi + rcx], r8                 ; aligned store
        sub     rcx, 8                          ; loop step
        ja      .L${tag}_loop                   ; loop bound: offsets above 0
.L${tag}_ends:
        mov     [rdi + rdx - 8], r9             ; top store
        mov     [rdi], r10                      ; bottom store
        ret
.L${tag}_tiny:
@       bodies.small(tag)
        mov     rax, rdi                        ; the body used rax; rdi never moved
@     end
@   end
@   bodies_of("memmove_down", function(s)
@     if uses_rax[s] then
        mov     rax, rdi                        ; the body used rax; rdi never moved
@     end
        ret
@   end, { forward = down_of(), forward_aligned = down_of(), down = down_of(),
@          avx2_forward = function(tag) bodies.avx2_down(tag) end,
@          avx2_nt = function(tag) bodies.avx2_down(tag) end,
@          avx512_forward = function(tag) bodies.avx512_down(tag) end })
.Lmemmove_disjoint:
@   dispatch("memmove")
@   bodies_of("memmove", function(s)
@     if uses_rax[s] then
        mov     rax, rdi                        ; the body used rax; rdi never moved
@     end
        ret
@   end)
        endfunc
@ end
@ if has.copy_isa then

; int ${P}copy_isa(void): 2 when CPUID and XGETBV say that the CPU has
; AVX-512F and the OS saves its state (XCR0 bits 1, 2 and 5-7: SSE, AVX,
; opmask, ZMM_Hi256, Hi16_ZMM), 1 when they say so of AVX2 (bits 1 and 2),
; else 0: the detection procedures of Intel SDM vol. 1, chapters 14 (AVX2)
; and 15 (AVX-512F). XGETBV runs only where CPUID reports OSXSAVE: elsewhere
; it faults.
        func    ${P}copy_isa
${P}copy_isa:
@   landing()
        mov     r11, rbx                        ; cpuid writes rbx, which is callee-saved
        xor     r8d, r8d                        ; the answer
        xor     eax, eax
        cpuid
        cmp     eax, 7
        jb      .Lcopy_isa_done                 ; no leaf 7: no AVX2
        mov     eax, 1
        cpuid
        bt      ecx, 27                         ; OSXSAVE: XGETBV is enabled
        jnc     .Lcopy_isa_done
        bt      ecx, 28                         ; AVX
        jnc     .Lcopy_isa_done
        mov     eax, 7
        xor     ecx, ecx
        cpuid
        mov     r9d, ebx                        ; leaf 7 ebx: bit 5 AVX2, bit 16 AVX512F
        xor     ecx, ecx
        xgetbv                                  ; XCR0 in edx:eax
        mov     ecx, eax
        and     ecx, 6
        cmp     ecx, 6
        jne     .Lcopy_isa_done                 ; the OS does not save ymm state
        bt      r9d, 5
        jnc     .Lcopy_isa_done
        mov     r8d, 1
        and     eax, 0xe6
        cmp     eax, 0xe6
        jne     .Lcopy_isa_done                 ; the OS does not save zmm state
        bt      r9d, 16
        jnc     .Lcopy_isa_done
        mov     r8d, 2
.Lcopy_isa_done:
        mov     eax, r8d
        mov     rbx, r11
        ret
        endfunc
@ end
@ for _, s in ipairs(flavor_strategies()) do
@   local name = "copy_" .. s.name
@   if has[name] then

; void *${P}${name}(void *dst, const void *src, size_t n): strategy ${s.name}
; alone, whatever the rule${s.min_n > 0 and ", for n >= " .. s.min_n or ""}${s.max_n >= 0 and ", for n <= " .. s.max_n or ""}. Returns dst.
        func    ${P}${name}
${P}${name}:
@     landing()
        mov     rax, rdi
@     bodies[s.name](name)
@     if uses_rax[s.name] then
        mov     rax, rdi                        ; the body used rax; rdi never moved
@     end
        ret
        endfunc
@   end
@ end
@ if has.copy_strategy then

; int ${P}copy_strategy(const void *dst, const void *src, size_t n): the code
; of the strategy ${P}memcpy takes (UC_STRATEGY_* in copy_rule.h). The same
; dispatch, expanded from the same template function, so tests and logs see
; what memcpy does.
        func    ${P}copy_strategy
${P}copy_strategy:
@   landing()
@   dispatch("copy_strategy")
@   for _, s in ipairs(reachable()) do
.Lcopy_strategy_${s}:
        mov     eax, ${code[s]}
        ret
@   end
        endfunc
@ end
@ local access = {}
@ for _, r in ipairs(flavor.routines) do if r.access then access[#access + 1] = r.name end end
@ if #access > 0 then
@   local stac = opts.smap and "        stac" or "        ; (no SMAP: built without --smap)"
@   local clac = opts.smap and "        clac" or "        ; (no SMAP)"

; The user copies expand memcpy's dispatch and bodies (the same template
; functions) between the labels ${P}<routine>_access and
; ${P}<routine>_access_end: every instruction that touches user memory lies
; in [access, access_end). A kernel's page-fault handler, on a fault at a user
; address with rip in such a range, either serves the fault and returns, so
; the faulting instruction reruns (rep movsb and rep stosb resume from rcx,
; rsi and rdi; each mov of the other bodies stands alone, and the one that
; overwrites rsi is its last load), or sets rip to ${P}user_fault_exit.
; Nothing is pushed inside a range, so rsp at the fault is rsp at entry.
@   if remaining then
;
; Result (--user-copy-result=remaining, Linux's contract): the number of
; bytes not copied. r9 holds the end of the destination from entry on and no
; body writes it. After a fault, rep movsb and rep stosb leave rdi at the
; first byte not stored, every byte below it stored: the count is exact on
; the forward paths (tests/fault_tests.c checks it with a guard page at every
; byte offset). The descending and small bodies never move rdi, so a fault
; there reports n, all of it, although some bytes of the destination may
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
@       landing()
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

; ${P}${name}(void *dst, const void *src, size_t n): memcpy's table and
; bodies inside an access range.
        func    ${P}${name}
        global  ${P}${name}_access, ${P}${name}_access_end
${P}${name}:
@       landing()
@       if remaining then
        lea     r9, [rdi + rdx]                 ; end of the destination
@       end
${stac}
${P}${name}_access:
@       dispatch(name)
@       local list = reachable()
@       bodies_of(name, function(s)
@         if s ~= list[#list] then
        jmp     .L${name}_done
@         end
@       end)
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
@   landing()
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
; The installed table. Code reads each object through its file-local label
; <object>.here, at the same address: a reference to the exported symbol
; could be bound elsewhere at run time (ELF symbol interposition), which a
; shared object cannot reach through rip-relative addressing.
; Until ${P}rule_init() it is the table of the baseline: no class
; bound, every strategy code 0 (forward), which is correct on every CPU,
; only sometimes slower.
; zero_mod - 1: class zero is d & copy_zero_mask = 0.
        object  ${P}copy_zero_mask
${P}copy_zero_mask:
${P}copy_zero_mask.here:
        dq      4095
        endobject
        object  ${P}copy_above_max
${P}copy_above_max:
${P}copy_above_max.here:
        dq      0
        endobject
; 0 (no near class) or more than copy_above_max.
        object  ${P}copy_near_max
${P}copy_near_max:
${P}copy_near_max.here:
        dq      0
        endobject
        object  ${P}copy_below_from
${P}copy_below_from:
${P}copy_below_from.here:
        dq      4096
        endobject
        object  ${P}copy_align_dst
${P}copy_align_dst:
${P}copy_align_dst.here:
        dq      0
        endobject
; The upper bound of each band that reaches ${SHORT} bytes, in order; the last
; band's, and those past it, are the largest length.
        object  ${P}copy_long_hi
${P}copy_long_hi:
${P}copy_long_hi.here:
@   for i = 1, NB - 1 do
        dq      -1
@   end
        endobject
; Their strategy codes, one row of ${NB} per class (${table.concat(db.classes, ", ")}).
        object  ${P}copy_long_cells
${P}copy_long_cells:
${P}copy_long_cells.here:
@   for c = 1, #db.classes do
        db      ${string.rep("0, ", NB - 1)}0
@   end
        endobject
; Per band that reaches ${SHORT} bytes, its strategy code where every class
; takes the same, else 255.
        object  ${P}copy_long_uniform
${P}copy_long_uniform:
${P}copy_long_uniform.here:
        db      ${string.rep("0, ", NB - 1)}0
        endobject
; The strategy code of every length below ${SHORT} where every class takes the
; same, else 255.
        object  ${P}copy_uniform
${P}copy_uniform:
${P}copy_uniform.here:
@   for r = 1, SHORT / 64 do
        db      ${string.rep("0, ", 63)}0
@   end
        endobject
; The strategy code of every length below ${SHORT}, one row per class.
        object  ${P}copy_short
${P}copy_short:
${P}copy_short.here:
@   for r = 1, #db.classes * SHORT / 64 do
        db      ${string.rep("0, ", 63)}0
@   end
        endobject
; 1 where every strategy code above is 0 (forward): the dispatch then goes
; forward before it reads the table. That is the baseline of every core
; nobody measured. make bench's baseline line (n = 1..256, d = 0, against
; rep movsb): through the table, a median of 1.9-2.3 ticks more a call in
; the kernel flavor and 4.2-4.3 in the user flavor; with this test first,
; 0.6-0.7 and 0.1-0.6 (Zen 3 guest, the two builds' benches run in turns,
; three times). On the random-size workload, the user flavor under the
; baseline took 1.155x rep movsb's time through the table and 0.957x with
; this test. A measured table pays a load, a compare and a branch not
; taken, which the placement of the code outweighs: under this guest's
; table the same workload took 0.680-0.732x with the test and 0.738-0.890x
; without in the user flavor, 0.649-0.719x and 0.623-0.693x in the kernel
; flavor (the builds in one process, three runs; not kept).
        object  ${P}copy_baseline
${P}copy_baseline:
${P}copy_baseline.here:
        db      1
        endobject
@ end
@ if #access > 0 then

        section .data.rel.ro
        align   8
; The access ranges for a kernel's exception table: [begin, end) pairs.
; Addresses, so the loader relocates them: a read-only-after-relocation
; section keeps a shared object or PIE free of text relocations.
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

@ if opts.endbr then

; Every entry starts with endbr64 and no routine changes the stack but by
; call and ret: the file is fit for CET's indirect branch tracking and
; shadow stacks, and says so, or a CET link (-z cet-report=error) refuses it.
        cetnote
@ end

        section .note.GNU-stack
