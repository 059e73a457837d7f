/* Tables compiled in memory (compiled.h). */
#include "compiled.h"

#include "../plan/encode.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Memmove's guard (memmove_guard): mov rcx, rdi; sub rcx, rsi; cmp rcx,
 * rdx; jb rel32 (dst in [src, src + n)), then the same with src - dst;
 * then jmp rel32. */
static const unsigned char guard_code[] = {0x48, 0x89, 0xf9, 0x48, 0x29, 0xf1, 0x48, 0x39, 0xd1, 0x0f, 0x82, 0,
					   0,    0,    0,    0x48, 0x89, 0xf1, 0x48, 0x29, 0xf9, 0x48, 0x39, 0xd1,
					   0x0f, 0x82, 0,    0,    0,    0,    0xe9, 0,    0,    0,    0};

/* A table's slot: the entry as rule_patch writes it for a compiled table,
 * endbr64, then the routine's dispatch and the short copies it holds
 * (plan/layout.h), then, in memmove, the overlap guards
 * (memmove_guards), from GUARDS on, and a PLT entry's jump in front of
 * the entry (plt_jump), at PLT_JUMP. Each slot starts a 64-byte line, as
 * a patched entry does. */
enum {
	LINE = 64,
	CODE = PLAN_CODE_MAX + PLAN_INLINE_MAX,
	GUARDS = (LINE + CODE + LINE - 1) / LINE * LINE,
	PLT_JUMP = (GUARDS + N_COPY_STRATEGIES * sizeof guard_code + LINE - 1) / LINE * LINE,
	SLOT = PLT_JUMP + LINE,
};

static void put32(unsigned char *p, int32_t v)
{
	memcpy(p, &v, 4);
}

static const struct probe_routine *routine_row(const struct probe_flavor *f, int code)
{
	for (size_t i = 0; i < f->n_routines; i++)
		if (f->routines[i].code == code)
			return &f->routines[i];
	return NULL;
}

static copy_fn routine_of(const struct probe_flavor *f, int code)
{
	const struct probe_routine *r = routine_row(f, code);
	return r ? r->fn : NULL;
}

copy_fn timing_reference(const struct probe_flavor *f)
{
	return routine_of(f, BASELINE_STRATEGY);
}

/* Memory within rel32 of the probe's routines: tried at steps of 2 MiB
 * above them, then below, each region from the step after the last one's,
 * so that a region does not take the addresses of code the probe ran
 * before (until some 480 regions wrap around). Compiled where other copies
 * of the same tree had run and been unmapped, a table times slower than at
 * an address no code has taken, where it times as in a process that had
 * timed nothing before (measured: see
 * docs/notebook/comment-figures-2026-12.md#a-table-compiled-where-no-code-had-run). */
static unsigned char *near_region(const struct probe_flavor *f, size_t size)
{
	enum { HALF = 480, STEPS = 2 * HALF };
	static int next = 0;
	uintptr_t text = (uintptr_t)routine_of(f, BASELINE_STRATEGY) & ~(uintptr_t)0xfffff;
	for (int tried = 0; tried < STEPS; tried++) {
		int k = (next + tried) % STEPS + 1;
		uintptr_t step = (uintptr_t)(k <= HALF ? k : k - HALF) << 21;
		uintptr_t want = k <= HALF ? text + step : text > step ? text - step : 0;
		if (!want)
			continue;
		void *p = mmap((void *)want, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			continue;
		int64_t far = (int64_t)((uintptr_t)p + size) - (int64_t)text;
		if (far > -((int64_t)1 << 30) && far < ((int64_t)1 << 30)) {
			next = k % STEPS;
			return p;
		}
		munmap(p, size);
	}
	return NULL;
}

/* r's table as the routines run it at isa level isa. */
static void to_table(const struct derived_rule *r, int isa, struct copy_table *out)
{
	struct copy_table *t = malloc(sizeof *t);
	if (!t) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	rule_table(r, t);
	plan_at_isa(t, isa, out);
	free(t);
}

/* A program's PLT entry in front of entry, written at line: jmp
 * [rip + rel32] through a pointer to entry at the line's end, the jump a
 * call of memmove makes through its GOT slot, which the drop-in library's
 * constructor points at its routine (preload/rebind.c), and the probe's
 * in front of the C library's (flavor.c, baseline_copy). Returns where a
 * call enters it. */
static copy_fn plt_jump(unsigned char *line, uintptr_t entry)
{
	enum { POINTER = LINE - 8, JMP = 6 };
	line[0] = 0xff, line[1] = 0x25; /* jmp [rip + rel32]: FF /4, ModRM 25h (Intel SDM vol. 2, JMP) */
	put32(line + 2, POINTER - JMP);
	memcpy(line + POINTER, &entry, sizeof entry);
	return (copy_fn)line;
}

/* Memmove's guard of a copy that goes one way (templates/flavor/x86_64/
 * copy/cases.tpi, guard): the two overlap compares, which send an overlap
 * either way to the flavor's memmove (the workload has none), then a jump
 * to the copy, which the shipped routine lays out right after its guard:
 * so the probe's path takes one jump more than the shipped one, only to
 * the copies that go one way, which the longer lengths take. Written at
 * p, to run there; returns its length, 0 for a strategy that loads
 * everything before it stores (it takes no guard). */
static size_t memmove_guard(unsigned char *p, int strategy, uintptr_t body, uintptr_t overlap)
{
	if (strategy_catalogue[strategy].direction == DIR_ANY)
		return 0;
	memcpy(p, guard_code, sizeof guard_code);
	put32(p + 11, (int32_t)(overlap - ((uintptr_t)p + 15)));
	put32(p + 26, (int32_t)(overlap - ((uintptr_t)p + 30)));
	put32(p + 31, (int32_t)(body - ((uintptr_t)p + 35)));
	return sizeof guard_code;
}

/* Where the tree's jumps to each copy land: each strategy's routine (the
 * baseline's where one_body), each piece inside it (pieces.h), as the
 * flavor's offsets place them; and the bodies of the copies the entry
 * holds after its tree (plan_inline), as the flavor's routines hold them:
 * the bytes cases.tpi lays out there, the same template's. */
static void copy_targets(const struct probe_flavor *f, int one_body, struct plan_targets *out)
{
	*out = (struct plan_targets){0};
	for (int s = 0; s < N_COPY_STRATEGIES; s++)
		out->body[s] = (uintptr_t)routine_of(f, one_body ? BASELINE_STRATEGY : s);
	for (int i = 0; i < N_PLAN_PIECES; i++)
		for (size_t k = 0; k < f->n_pieces; k++)
			if (f->pieces[k].code == plan_pieces[i].strategy && f->pieces[k].lo == plan_pieces[i].lo) {
				const struct probe_routine *r = routine_row(f, f->pieces[k].code);
				out->piece[i] = one_body ? out->body[BASELINE_STRATEGY]
							 : (uintptr_t)r->fn + *f->pieces[k].offset;
				out->piece_at[i] = *f->pieces[k].offset - *r->body;
				out->piece_len[i] = *f->pieces[k].end - *f->pieces[k].offset;
			}
	for (size_t j = 0; !one_body && j < f->n_routines; j++) {
		const struct probe_routine *r = &f->routines[j];
		if (plan_inline(r->code)) {
			out->bytes[r->code] = (const uint8_t *)r->fn + *r->body;
			out->len[r->code] = *r->body_end - *r->body;
		}
	}
}

/* Where memmove's tree jumps for each strategy: its guard, written from
 * guards on, for one that takes one, else the copy itself. */
static void memmove_guards(const struct probe_flavor *f, unsigned char *guards, uintptr_t body[N_COPY_STRATEGIES])
{
	for (int s = 0; s < N_COPY_STRATEGIES; s++) {
		if (!body[s])
			continue;
		size_t n = memmove_guard(guards, s, body[s], (uintptr_t)f->table_copy);
		if (n) {
			body[s] = (uintptr_t)guards;
			guards += n;
		}
	}
}

int compiles_to_baseline(const struct probe_flavor *f, const struct derived_rule *r)
{
	struct copy_table *t = malloc(sizeof *t);
	if (!t) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	to_table(r, f->machine_isa(), t);
	int forward = plan_copies_forward(t);
	free(t);
	return forward;
}

static int compile_one(const struct probe_flavor *f, const struct derived_rule *r, int one_body, unsigned char *slot,
		       copy_fn *entry)
{
	struct copy_table *t = malloc(sizeof *t);
	if (!t)
		return -1;
	to_table(r, f->machine_isa(), t);
	/* A table that copies forward everywhere ships as the baseline, which
	 * its candidates are judged against; the tables that time the
	 * dispatch (one_body) time the forward body, as their others do. */
	if (plan_copies_forward(t)) {
		*entry = one_body ? routine_of(f, BASELINE_STRATEGY) : f->baseline_copy();
		free(t);
		return 0;
	}
	struct plan_targets targets;
	copy_targets(f, one_body, &targets);
	struct plan_tree tree;
	if (plan_tree(t, &tree)) {
		free(t);
		return -1;
	}
	free(t);
	/* The patched entry: endbr64 and rax = dst, then the tree, jumping to
	 * the copies, memmove's to their guards where they take one. */
	uintptr_t base = (uintptr_t)slot;
	unsigned char *p = slot;
	memcpy(p, "\xf3\x0f\x1e\xfa\x48\x89\xf8", 7);
	p += 7;
	if (f->moves)
		memmove_guards(f, slot + GUARDS, targets.body);
	size_t n = plan_encode(&tree, p, CODE, (uintptr_t)p, &targets);
	plan_tree_free(&tree);
	if (n == 0)
		return -1;
	/* The trees that time the band cost are judged against one another
	 * and the bare forward routine, so go without it. */
	*entry = f->moves && !one_body ? plt_jump(slot + PLT_JUMP, base) : (copy_fn)base;
	return 0;
}

/* Room for n slots within reach of f's routines, int3 wherever no code
 * is. Nonzero after saying why. */
static int open_slots(const struct probe_flavor *f, size_t n, struct compiled_tables *out)
{
	out->size = n * SLOT;
	out->region = near_region(f, out->size);
	out->entries = calloc(n, sizeof *out->entries);
	if (!out->region || !out->entries) {
		fprintf(stderr, "probe: no memory for compiled code within reach of the routines\n");
		return -1;
	}
	memset(out->region, 0xcc, out->size);
	return 0;
}

/* Written once, then run: never writable and executable at once. */
static int seal_slots(struct compiled_tables *out)
{
	if (mprotect(out->region, out->size, PROT_READ | PROT_EXEC)) {
		perror("probe: mprotect of the compiled code");
		return -1;
	}
	return 0;
}

int compile_tables(const struct probe_flavor *f, const struct derived_rule *tables, int n, int one_body,
		   struct compiled_tables *out)
{
	if (open_slots(f, (size_t)n, out))
		return -1;
	for (int i = 0; i < n; i++)
		if (compile_one(f, &tables[i], one_body, out->region + (size_t)i * SLOT, &out->entries[i])) {
			fprintf(stderr, "probe: table %d could not be compiled\n", i);
			return -1;
		}
	return seal_slots(out);
}

int compile_strategies(const struct probe_flavor *f, struct compiled_tables *out)
{
	if (open_slots(f, N_COPY_STRATEGIES + N_PLAN_PIECES, out))
		return -1;
	struct plan_targets targets;
	copy_targets(f, 0, &targets);
	for (size_t i = 0; i < f->n_routines; i++) {
		int code = f->routines[i].code;
		unsigned char *slot = out->region + (size_t)code * SLOT, *p = slot;
		memcpy(p, "\xf3\x0f\x1e\xfa\x48\x89\xf8", 7);
		p += 7;
		if (f->moves && memmove_guard(p, code, targets.body[code], (uintptr_t)f->table_copy)) {
			out->entries[code] = (copy_fn)slot;
			continue;
		}
		struct plan_step go = {.op = PLAN_GOTO, .to = code, .piece = -1};
		struct plan_tree tree = {&go, 1, {0}};
		if (plan_encode(&tree, p, CODE, (uintptr_t)p, &targets) == 0) {
			fprintf(stderr, "probe: strategy %d's entry could not be compiled\n", code);
			return -1;
		}
		out->entries[code] = (copy_fn)slot;
	}
	/* Each piece's own entry: the jump a tree's leaf of the piece's
	 * lengths takes, past the body's compares (plan/pieces.h); for a copy
	 * the entry holds, the piece's moves right after the entry instead,
	 * as a tree lays out a leaf's past its first (plan/tree.h, falls) and as a
	 * short copy's body is timed, right after its entry: timed behind a
	 * jump, avx512_medium's moves of 64..128 bytes lost to
	 * avx512_forward's loop on a Zen 4 guest, which no tree holds. */
	for (int i = 0; i < N_PLAN_PIECES; i++) {
		if (!targets.piece[i])
			continue;
		unsigned char *slot = out->region + (size_t)(N_COPY_STRATEGIES + i) * SLOT, *p = slot;
		memcpy(p, "\xf3\x0f\x1e\xfa\x48\x89\xf8", 7);
		p += 7;
		struct plan_step go = {.op = PLAN_GOTO, .to = plan_pieces[i].strategy, .piece = i, .falls = 1};
		struct plan_tree tree = {&go, 1, {0}};
		if (plan_encode(&tree, p, CODE, (uintptr_t)p, &targets) == 0) {
			fprintf(stderr, "probe: the entry of a piece of strategy %d could not be compiled\n",
				plan_pieces[i].strategy);
			return -1;
		}
		out->entries[N_COPY_STRATEGIES + i] = (copy_fn)slot;
	}
	return seal_slots(out);
}

copy_fn strategy_entry(const struct compiled_tables *c, int strategy, unsigned int n)
{
	int i = plan_piece_of(strategy, n, n);
	if (i >= 0 && c->entries[N_COPY_STRATEGIES + i])
		return c->entries[N_COPY_STRATEGIES + i];
	return c->entries[strategy];
}

void compiled_tables_free(struct compiled_tables *c)
{
	if (c->region)
		munmap(c->region, c->size);
	free(c->entries);
	memset(c, 0, sizeof *c);
}
