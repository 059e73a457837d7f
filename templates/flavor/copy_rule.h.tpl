${banner("/*", "*/")}
@ local P = opts.prefix
@ local G = string.upper(P)
@ local has_access = false
@ for _, r in ipairs(flavor.routines) do has_access = has_access or r.access end
/*
 * Which copy each x86-64 core gets, chosen from CPUID. Freestanding C99:
 * no libc, no header.
 */
#ifndef ${P}copy_rule_h
#define ${P}copy_rule_h

/* Macros take the prefix in upper case, so the headers of two prefixes that
 * differ only in case (kc_ and KC_) would define the same ones: the second
 * one included stops the build instead of redefining them. */
#ifdef ${G}COPY_RULE_STAMP
#error "copy_rule.h of prefix ${P}: ${G}COPY_RULE_STAMP is defined already, by the copy_rule.h of a prefix that differs from ${P} only in case; their macros would clash: generate one of them with another prefix"
#endif

/* The header needs no other, so that it builds under -nostdinc too: its
 * types come from the compiler's own predefined macros (GCC and Clang),
 * and are the same types as size_t, uint32_t, uint64_t and uintptr_t. */
typedef __SIZE_TYPE__ ${P}size_t;
typedef __UINT32_TYPE__ ${P}u32;
typedef __UINT64_TYPE__ ${P}u64;
typedef __UINTPTR_TYPE__ ${P}uintptr;

/* Every out/ file of one uarchgen run carries the same stamp. copy_rule.c
 * refuses to build against a header of another run, and refers to a symbol
 * that only the copy.asm of its own run defines. */
#define ${G}COPY_RULE_STAMP 0x${gen.stamp}UL

/* The flavor these files were generated for, and its limits. */
#define ${G}FLAVOR "${flavor.name}"
#define ${G}FLAVOR_ISA "${flavor.isa}"
#define ${G}FLAVOR_RED_ZONE ${flavor.red_zone and 1 or 0}
@ if target_name() then
#define ${G}COPY_RULE_TARGET "${target_name()}"
@ end

/* The strategies a rule's table chooses from, by code (the catalogue,
 * common/strategies.h): those the flavor's isa allows. A code is stable:
 * a strategy added later takes a new one, so a flavor's codes may have
 * gaps. Every code is below N_STRATEGIES; bit k of STRATEGY_CODES is set
 * where code k is one of this flavor's. */
@ local mask = 0
@ for _, st in ipairs(flavor.strategies) do
@   mask = mask | (1 << st.code)
#define ${G}STRATEGY_${string.upper(st.name)} ${st.code}
@ end
@ local strategies = flavor.strategies
#define ${G}N_STRATEGIES ${strategies[#strategies].code + 1}
#define ${G}STRATEGY_CODES ${string.format("0x%xull", mask)}
@ local defers = false
@ for _, st in ipairs(flavor.strategies) do defers = defers or st.defers end
@ if defers then
/* What strategy libc jumps to: the C library's memmove, where the
 * drop-in library's constructor (or the probe) has set it; until then
 * the flavor's own memmove of one forward rep movsb, highest first where
 * the destination lies inside the source's range. */
extern void *(*${P}libc_memmove)(void *dst, const void *src, ${P}size_t n);
#define ${G}HAS_LIBC 1
@ end
#define ${G}IS_STRATEGY(code) ((unsigned int)(code) < ${G}N_STRATEGIES && ((${G}STRATEGY_CODES >> (code)) & 1u))
/* The same, as an X-macro: X(code, "name", min_n, max_n, isa), the lengths a
 * strategy copies (max_n (size_t)-1 where there is no limit) and the
 * instructions it needs (0 general registers, 1 AVX2, 2 AVX-512). */
#define ${G}STRATEGIES(X) \
@ for _, st in ipairs(flavor.strategies) do
	X(${G}STRATEGY_${string.upper(st.name)}, "${st.name}", ${st.min_n}, ${st.max_n < 0 and "(" .. P .. "size_t)-1" or st.max_n}, ${st.isa_level}) \
@ end
	/* end */

/* Distance classes, by d = (dst - src) mod 4096, tested in this order: zero
 * (d mod zero_mod = 0), above (d <= above_max), near (d <= near_max), below
 * (d >= 4096 - below_max), elsewhere. */
@ for i, c in ipairs(db.classes) do
#define ${G}CLASS_${string.upper(c)} ${i - 1}
@ end
#define ${G}N_CLASSES ${#db.classes}
#define ${G}MAX_BANDS ${db.max_bands}

/* Where a rule comes from. */
#define ${G}RULE_BASELINE 0  /* no evidence for this core: every copy forward */
#define ${G}RULE_INHERITED 1 /* a measured entry's table, through a row that says why */
#define ${G}RULE_MEASURED 2  /* measured on this core's own entry */
/* Never in the generated table: a table a caller built to force a path
 * (tests), whose reason says how. */
#define ${G}RULE_FORCED 3

struct ${P}band {
	/* The band holds lengths from the previous band's hi + 1 (0 for the
	 * first) to hi; (${P}size_t)-1 for the last band. */
	${P}size_t hi;
	/* The strategy code of each distance class, indexed by ${G}CLASS_*. */
	unsigned char strategy[${G}N_CLASSES];
};

/* A core's rule: a decision table of length bands x distance classes. */
struct ${P}rule {
	/* 0 leaves a class empty; near_max is 0 or more than above_max. */
	unsigned int above_max, near_max, below_max;
	/* 4096: class zero is d = 0 alone; 8..64: every d that is a multiple
	 * (the buffers mutually aligned to it). */
	unsigned int zero_mod;
	/* The head of a strategy that aligns (common/strategies.h, aligns)
	 * brings dst to a multiple of this many bytes. */
	unsigned int align_dst;
	unsigned int n_bands; /* 1..${G}MAX_BANDS */
	struct ${P}band bands[${G}MAX_BANDS];
	int status; /* ${G}RULE_* */
	/* The entry CPUID selected ("zen3"); "" when no entry matched. */
	const char *entry;
	/* The entry whose measurement gave the table ("zen2"); "" for the baseline. */
	const char *source;
	/* Why an inherited rule is inherited; "" otherwise. */
	const char *reason;
};

/* The two CPUID words the rule depends on. Tests fill them from recorded
 * leaves, so no particular CPU is needed to check the lookup. */
struct ${P}cpuid {
	${P}u32 vendor[3]; /* leaf 0: ebx, edx, ecx */
	${P}u32 signature; /* leaf 1: eax */
};

/* Executes CPUID: r = { eax, ebx, ecx, edx } of leaf, subleaf. The one CPUID
 * wrapper of the project: the rule, the probe and the test kernel read
 * through it. */
void ${P}cpuid_leaf(${P}u32 leaf, ${P}u32 subleaf, ${P}u32 r[4]);

/* Reads the two words the rule depends on from this CPU. */
void ${P}cpuid_read(struct ${P}cpuid *id);

/* The rule for a display family and model (as Linux computes them). Never
 * NULL: a core no entry holds gets the baseline. vendor is the 12-byte
 * CPUID string. */
const struct ${P}rule *${P}rule_lookup(const char vendor[12], unsigned int family, unsigned int model);

/* The rule of row i of the CPUID table (a row per CPUID range of every
 * entry), 0 past the last: for tests and logs that visit every entry. */
const struct ${P}rule *${P}rule_at(unsigned int i);

/* The display family and model of a leaf 1 EAX signature, as Linux computes them. */
void ${P}cpuid_family_model(${P}u32 signature, unsigned int *family, unsigned int *model);

/* The rule for recorded CPUID words. */
const struct ${P}rule *${P}rule_from_cpuid(const struct ${P}cpuid *id);

/* Reads CPUID on this CPU, installs the rule for the copy routines and
 * returns it. Call once, before other CPUs copy. */
const struct ${P}rule *${P}rule_init(void);

/* Makes the copy routines follow rule: writes the table the table
 * dispatch reads and chooses the routines that run rule (its compiled
 * ones, the baseline, or the table dispatch). The entries run them once
 * ${P}rule_patch has pointed them there. */
void ${P}rule_install(const struct ${P}rule *rule);

/* Writes len bytes over code at addr, as a kernel's text poke does
 * (Linux's text_poke_early). */
typedef void (*${P}text_poke)(void *addr, const void *bytes, ${P}size_t len);

@ local ctx = import("copy_context").of()
/* The patched routines, by site: each entry's first bytes, which are the
 * baseline (every copy one forward rep movsb, no dispatch) until
 * ${P}rule_patch writes the installed rule's dispatch there. */
@ for i, r in ipairs(ctx.sites) do
#define ${G}SITE_${string.upper(r)} ${i - 1}
@ end
#define ${G}N_PATCH_SITES ${#ctx.sites}
/* The routine sets: the baseline, the table dispatch, then each measured
 * table compiled${target_name() and " (--target: the entries are the target's own tree)" or ""}. */
#define ${G}N_ROUTINE_SETS ${target_name() and 1 or (2 + #ctx.sets)}

/* Makes every patched entry run the routines the installed rule chose,
 * writing with poke: for a measured table compiled, a copy of its
 * routine's dispatch into the entry (its jumps to the copy bodies moved to
 * reach them from there), so that a call takes no jump to reach the
 * dispatch; for the table dispatch, a jmp rel32 to it; for the baseline,
 * the bytes the entry was built with. While an entry changes, its first 5
 * bytes jump to a routine of the rule, so poke may be the very memcpy it
 * patches. Call it after ${P}rule_install, before other CPUs copy; a kernel
 * that never calls it runs the baseline. 0, or -1 where poke is null or
 * the patch list is not what copy_rule.c expects, or a jump does not reach
 * (nothing is then written). */
int ${P}rule_patch(${P}text_poke poke);

/* The routines the installed rule runs, by name: "baseline", "table", or
 * the compiled table's ("zen3", or "zen5_avx512" in a flavor of vector
 * strategies, named for the widest isa it uses). */
const char *${P}rule_routines(void);

/* The routine site ${G}SITE_* runs under the installed rule (the entry
 * itself for the baseline): what an IFUNC resolver returns. 0 for a site
 * out of range${target_name() and ", and in a --target build" or ""}. */
const void *${P}rule_routine(unsigned int site);
@ if not target_name() then

/* The routine set (0 the baseline, then as ${P}rule_routines counts them)
 * that ${P}rule_init installs on the CPU whose CPUID words are id, at isa
 * level isa (0 general registers, 1 AVX2, 2 AVX-512; clamped to the
 * flavor's), found from integers alone: what an IFUNC resolver needs, for
 * it may run before its object's relocations are applied. Routine site of
 * set s is ${P}patch_offsets[s * ${G}N_PATCH_SITES + site] bytes from
 * ${P}${ctx.sites[1]} (x86_64/copy.asm); 0 is the baseline, the entries'
 * own bytes. */
unsigned int ${P}rule_resolve_set(const struct ${P}cpuid *id, int isa);
@ end

/* Fills rule with a table that forces strategy: it in every class for the
 * lengths it copies, forward at the others, the head of a strategy that
 * aligns aligned to align_dst; status ${G}RULE_FORCED, entry and source "", reason
 * the caller's (it is kept, not copied). Installed, a forced table is read
 * by the dispatch like a measured one, even where it is all forward, so
 * that timing forward under it times the dispatch too. 0, or -1 (rule
 * untouched) where strategy is not a code of this flavor. For the probe,
 * the tests and UARCHCOPY_STRATEGY. */
int ${P}rule_force(struct ${P}rule *rule, int strategy, unsigned int align_dst, const char *reason);

/* The strategy the routines run, under the installed rule, where its table
 * says strategy for n bytes: strategy itself, or the strategy that stands in
 * for it (a strategy that aligns, without an alignment, is its fallback; a strategy whose
 * isa the CPU or the OS does not enable gives way to its fallback). */
int ${P}rule_runs(int strategy, ${P}size_t n);
@ if flavor.isa_level > 0 then

/* Caps the vector isa the rules installed from now on may use: 0 general
 * registers only, 1 AVX2, 2 AVX-512 (the default: whatever copy_isa()
 * reports). For a program that must not touch vector state, and for tests
 * that check the fallbacks. */
void ${P}rule_limit_isa(int isa);
@ end

/* Writes the log line, NUL-terminated and cut to size, and returns its full
 * length: "memcpy: Rule { above_max: 31, below_max: 0, align_dst: 0, bands:
 * [0..63 FFFFF, 64.. FDFFF] } (zen2, measured)". Each band lists its
 * strategy for the classes zero, above, near, below and elsewhere:
@ local legend = {}
@ for _, st in ipairs(flavor.strategies) do legend[#legend + 1] = st.letter .. " " .. st.name end
@ for _, line in ipairs(wrap(table.concat(legend, ", ") .. "; near_max shows when there is a near class.", 72)) do
 * ${line}
@ end
 */
${P}size_t ${P}rule_describe(char *buf, ${P}size_t size, const struct ${P}rule *rule);

@ if has_access then
/* The user-access ranges of the user copies, as [begin, end) address pairs,
 * for the kernel's exception table: a fault at a user address with rip in a
 * range is served (return, and the instruction reruns) or sent to
 * ${P}user_fault_exit. */
extern const ${P}uintptr ${P}user_access_ranges[];
extern const ${P}u64 ${P}user_access_range_count;

@ end

@ local result = opts.user_copy_result == "remaining" and (P .. "size_t") or "int"
@ if has_access then
@   if opts.user_copy_result == "remaining" then
/* The user copies' result (--user-copy-result=remaining, Linux's contract):
 * the number of bytes not copied, 0 on success. On the forward path the
 * count is exact: every byte before it was copied. A fault on the descending
 * path reports n, although bytes at the top of the destination may have been
 * written. */
#define ${G}USER_COPY_RESULT_REMAINING 1
@   else
/* The user copies' result: 0 on success, 1 after a fault the kernel did not
 * serve; then some or none of the bytes were copied. */
#define ${G}USER_COPY_RESULT_REMAINING 0
@   end

@ end
/* The routines in x86_64/copy.asm (NASM) and x86_64/copy.S (GAS), one program. */
@ for _, r in ipairs(flavor.routines) do
/* ${P}${r.name}: ${r.doc}. */
${string.format(r.proto, P .. r.name):gsub("size_t", P .. "size_t"):gsub("RESULT", result)};
#define ${G}HAS_${string.upper(r.name)} 1
@ end

/* The vector isa this CPU and its OS enable, for callers of the strategies'
 * own routines: copy_isa() where the flavor has vector strategies, else 0. */
@ local listed_isa = false
@ for _, r in ipairs(flavor.routines) do listed_isa = listed_isa or r.name == "copy_isa" end
#define ${G}ISA_ENABLED() ${listed_isa and P .. "copy_isa()" or "0"}

/* Each strategy whose routine alone the flavor exports, as an X-macro:
 * X(code, routine, isa, body, body_end), isa the instructions it needs (0
 * general registers, 1 AVX2, 2 AVX-512), body and body_end where its body
 * starts and its return ends, in bytes from the routine. */
@ local listed, n_listed = {}, 0
@ for _, r in ipairs(flavor.routines) do listed[r.name] = true end
@ for _, st in ipairs(flavor.strategies) do
@   if listed["copy_" .. st.name] then n_listed = n_listed + 1 end
@ end
@ if n_listed > 0 then
extern const ${P}u32 ${P}copy_body_offsets[${2 * n_listed}];
@ end
#define ${G}STRATEGY_ROUTINES(X) \
@ local k = 0
@ for _, st in ipairs(flavor.strategies) do
@   if listed["copy_" .. st.name] then
	X(${G}STRATEGY_${string.upper(st.name)}, ${P}copy_${st.name}, ${st.isa_level}, ${P}copy_body_offsets[${2 * k}], ${P}copy_body_offsets[${2 * k + 1}]) \
@     k = k + 1
@   end
@ end
	/* end */

/* Each piece of those routines' bodies (plan/pieces.h), as an X-macro:
 * X(code, lo, offset, end), offset its distance in bytes from the
 * strategy's routine, where a compiled tree that has split its lengths at
 * the piece's edges enters the body for the lengths from lo, and end that
 * of the end of its return: a tree whose compare is followed by the
 * piece's moves lays out the bytes between. */
@ local pieces = {}
@ for _, p in ipairs(plan.pieces) do
@   if listed["copy_" .. p.strategy] then pieces[#pieces + 1] = p end
@ end
@ if #pieces > 0 then
extern const ${P}u32 ${P}copy_piece_offsets[${2 * #pieces}];
@ end
#define ${G}STRATEGY_PIECES(X) \
@ for i, p in ipairs(pieces) do
	X(${G}STRATEGY_${string.upper(p.strategy)}, ${p.lo}, ${P}copy_piece_offsets[${2 * i - 2}], ${P}copy_piece_offsets[${2 * i - 1}]) \
@ end
	/* end */

#endif
