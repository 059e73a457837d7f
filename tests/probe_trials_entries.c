/* As the probe runs them on this CPU (probe_trials.h): each strategy's own
 * entry, through which the probe times the strategy at every point of its
 * plan (compile_strategies): it starts a 64-byte line, jumps to that
 * strategy's routine or holds its body, and copies, and in memmove copies an overlap either
 * way right (its guard). And a table that enters avx512_medium at its
 * pieces, compiled: its jumps land at the pieces, and it copies right;
 * and each piece's own entry, through which the probe times the strategy
 * at the piece's lengths. */
#include "probe_trials.h"

#include "../derive/dispatch.h"
#include "../plan/layout.h"
#include "../plan/pieces.h"
#include "../probe/compiled.h"
#include "../probe/measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where an indirect jmp [rip + rel32] at p lands; NULL where p is not one
 * (FF /4, ModRM 25h: Intel SDM vol. 2, JMP). */
static const unsigned char *jumps_through_pointer(const unsigned char *p)
{
	int32_t rel;
	if (!p || p[0] != 0xff || p[1] != 0x25)
		return NULL;
	memcpy(&rel, p + 2, sizeof rel);
	return *(const unsigned char *const *)(p + 6 + rel);
}

/* The jumps in front of what the probe times. In the flavor of the
 * drop-in library, the C library's memmove, the shipped entry and each
 * compiled table are reached through one jump through a pointer, as the
 * library's memmove reaches the one it chose, and that jump lands on the
 * copy itself, not on another jump (the static probe's .iplt slot of the
 * C library's memmove). In a kernel's, none: the baseline is the copy. */
static void check_library_jumps(const struct probe_flavor *f)
{
	const unsigned char *base = (const unsigned char *)f->baseline_copy(),
			    *shipped = (const unsigned char *)f->shipped_copy(), *table = NULL;
	struct derived_rule r;
	struct compiled_tables c = {0};
	/* small to 32 bytes, forward above: a tree. */
	derived_baseline(&r);
	r.bands[1] = r.bands[0], r.bands[0].hi = 32, r.bands[1].lo = 33, r.n_bands = 2;
	for (int k = 0; k < N_DISTANCE_CLASSES; k++)
		r.bands[0].strategy[k] = STRATEGY_SMALL;
	if (compile_tables(f, &r, 1, 0, &c) == 0)
		table = (const unsigned char *)c.entries[0];
	const unsigned char *to_base = jumps_through_pointer(base), *to_shipped = jumps_through_pointer(shipped),
			    *to_table = jumps_through_pointer(table);
	if (f->moves)
		check(to_base && !jumps_through_pointer(to_base) && to_shipped == (const unsigned char *)f->table_copy &&
			      to_table && !jumps_through_pointer(to_table),
		      f->name,
		      "the C library's memmove, the shipped entry and a compiled table are not each one jump through "
		      "a pointer to the copy itself");
	else
		check(base && !to_base && shipped == (const unsigned char *)f->table_copy && table && !to_table, f->name,
		      "in a kernel's flavor the baseline, the shipped entry or a compiled table takes a jump through a "
		      "pointer");
	compiled_tables_free(&c);
}

/* Each strategy the CPU runs, through its entry: the last instruction a
 * jmp rel32 to the strategy's own routine, or, for a copy a patched entry
 * holds (plan/layout.h), the routine's body itself right after the entry's
 * first instructions, as a compiled tree's fall-through reaches it; and
 * the copy right. */
void check_own_entries(const struct probe_flavor *f)
{
	check_library_jumps(f);
	struct compiled_tables c;
	f->force_strategy(BASELINE_STRATEGY);
	if (compile_strategies(f, &c)) {
		check(0, f->name, "the strategies' entries do not compile");
		return;
	}
	static unsigned char src[8192], dst[8192];
	static const size_t lengths[] = {1, 7, 8, 31, 32, 33, 100, 256, 4096};
	for (size_t i = 0; i < f->n_routines; i++) {
		const struct probe_routine *r = &f->routines[i];
		if (!measured_strategy(f, r->code))
			continue;
		const unsigned char *p = (const unsigned char *)c.entries[r->code];
		char what[96];
		if (plan_inline(r->code)) {
			snprintf(what, sizeof what, "%s's entry does not hold its routine's body", strategy_name[r->code]);
			check(memcmp(p + 7, (const unsigned char *)r->fn + *r->body, *r->body_end - *r->body) == 0 &&
				      p[7 + *r->body_end - *r->body] == 0xcc,
			      f->name, what);
		} else {
			/* The last jmp rel32: the one the int3 fill follows. */
			const unsigned char *last = c.region + c.size - 5, *end = p + 7;
			while (end < last && (end[0] != 0xe9 || end[5] != 0xcc))
				end++;
			int32_t rel = 0;
			if (end < last)
				memcpy(&rel, end + 1, 4);
			snprintf(what, sizeof what, "%s's entry does not end in a jump to its routine",
				 strategy_name[r->code]);
			check(end < last && (uintptr_t)(end + 5 + rel) == (uintptr_t)r->fn, f->name, what);
		}
		int right = 1;
		for (size_t k = 0; k < sizeof lengths / sizeof *lengths; k++) {
			size_t n = lengths[k];
			if (!strategy_serves(r->code, (unsigned int)n))
				continue;
			for (size_t j = 0; j < n; j++)
				src[j] = (unsigned char)(j * 7 + k + 1), dst[j] = 0;
			dst[n] = 0x5a;
			right &= c.entries[r->code](dst, src, n) == dst && memcmp(dst, src, n) == 0 && dst[n] == 0x5a;
		}
		snprintf(what, sizeof what, "%s through its entry copies wrong", strategy_name[r->code]);
		check(right, f->name, what);
		snprintf(what, sizeof what, "%s's entry does not start a 64-byte line", strategy_name[r->code]);
		check(((uintptr_t)p & 63) == 0, f->name, what);
		/* memmove's guard sends an overlap either way to the flavor's
		 * memmove: the copy comes out right whatever way it goes. */
		for (int shift = -3; f->moves && shift <= 3; shift += 6) {
			static unsigned char buf[8192], want[8192];
			size_t n = strategy_serves(r->code, 4000) ? 4000 : (size_t)strategy_catalogue[r->code].max_n;
			for (size_t j = 0; j < sizeof buf; j++)
				buf[j] = (unsigned char)(j * 13 + 5);
			memcpy(want, buf, sizeof buf);
			memmove(want + 64 + shift, want + 64, n);
			c.entries[r->code](buf + 64 + shift, buf + 64, n);
			snprintf(what, sizeof what, "%s's entry copies an overlap by %d wrong", strategy_name[r->code],
				 shift);
			check(memcmp(buf, want, sizeof buf) == 0, f->name, what);
		}
	}
	compiled_tables_free(&c);
}

/* The routine's bytes of piece k of f, from its offset, and their length
 * to the routine's body's end. */
static const unsigned char *piece_bytes(const struct probe_flavor *f, size_t k, size_t *len)
{
	for (size_t i = 0; i < f->n_routines; i++)
		if (f->routines[i].code == f->pieces[k].code) {
			*len = *f->routines[i].body_end - *f->pieces[k].offset;
			return (const unsigned char *)f->routines[i].fn + *f->pieces[k].offset;
		}
	*len = 0;
	return NULL;
}

/* Whether the tree compiled in c reaches piece k of f: a jcc rel32 (0f 8x)
 * or jmp rel32 (e9) of the tree to the piece's bytes, or the piece's moves
 * laid out after the compare, twice in the slot. */
static int tree_reaches_piece(const struct probe_flavor *f, const struct compiled_tables *c, size_t k)
{
	/* The tree, past the library's jump in front of it (check_library_jumps). */
	const unsigned char *p = (const unsigned char *)c->entries[0], *end = c->region + c->size;
	if (jumps_through_pointer(p))
		p = jumps_through_pointer(p);
	size_t len;
	const unsigned char *want = piece_bytes(f, k, &len);
	int hit = 0;
	for (const unsigned char *q = p; q + 6 <= end && want && !hit; q++) {
		int32_t rel;
		const unsigned char *to = NULL;
		if (q[0] == 0x0f && (q[1] & 0xf0) == 0x80) {
			memcpy(&rel, q + 2, 4);
			to = q + 6 + rel;
		} else if (q[0] == 0xe9) {
			memcpy(&rel, q + 1, 4);
			to = q + 5 + rel;
		}
		hit = to && (to == want || (to >= c->region && to + len <= end && memcmp(to, want, len) == 0));
	}
	size_t piece_len = *f->pieces[k].end - *f->pieces[k].offset, copies = 0;
	for (const unsigned char *q = p; want && piece_len && q + piece_len <= end; q++)
		copies += memcmp(q, want, piece_len) == 0;
	return (hit || copies >= 2) && *f->pieces[k].offset > 0;
}

/* The table check_pieces compiles: avx512_small to 32 bytes, avx512_medium
 * to 256 and, but at d = 0, to 512, then forward. */
static void pieces_table(struct derived_rule *r)
{
	static const struct {
		unsigned int hi;
		int zero, elsewhere;
	} bands[] = {{32, STRATEGY_AVX512_SMALL, STRATEGY_AVX512_SMALL},
		     {256, STRATEGY_AVX512_MEDIUM, STRATEGY_AVX512_MEDIUM},
		     {512, STRATEGY_AVX512_DOWN, STRATEGY_AVX512_MEDIUM},
		     {BAND_UNBOUNDED, STRATEGY_FORWARD, STRATEGY_FORWARD}};
	derived_baseline(r);
	r->n_bands = 4;
	for (int i = 0; i < r->n_bands; i++) {
		r->bands[i].lo = i ? bands[i - 1].hi + 1 : 0;
		r->bands[i].hi = bands[i].hi;
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			r->bands[i].strategy[c] = c == CLASS_ZERO ? bands[i].zero : bands[i].elsewhere;
	}
}

/* Each piece's own entry, which times the strategy at the piece's lengths
 * (strategy_entry): the piece's moves right after the entry's first
 * instructions, the bytes of the routine's piece, where the entry holds the
 * copy (plan_inline), else a jmp rel32 to the piece; and the copy right at
 * each of its lengths. */
static void check_piece_entries(const struct probe_flavor *f)
{
	static unsigned char src[8192], dst[8192];
	struct compiled_tables c;
	if (f->machine_isa() < 2 || compile_strategies(f, &c)) {
		check(f->machine_isa() < 2, f->name, "the strategies' entries do not compile");
		return;
	}
	int aimed = 1, right = 1;
	for (size_t k = 0; k < f->n_pieces; k++) {
		int i = plan_piece_of(f->pieces[k].code, f->pieces[k].lo, f->pieces[k].lo);
		if (i < 0) {
			aimed = 0;
			continue;
		}
		size_t body_len;
		uintptr_t want = (uintptr_t)piece_bytes(f, k, &body_len);
		const unsigned char *e = (const unsigned char *)strategy_entry(&c, f->pieces[k].code, f->pieces[k].lo);
		int32_t rel = 0;
		memcpy(&rel, e + 8, 4);
		size_t len = *f->pieces[k].end - *f->pieces[k].offset;
		if (plan_inline(f->pieces[k].code))
			aimed &= want && len && memcmp(e + 7, (const void *)want, len) == 0;
		else
			aimed &= e[7] == 0xe9 && (uintptr_t)(e + 12 + rel) == want;
		for (unsigned int n = plan_pieces[i].lo; n <= plan_pieces[i].hi; n++) {
			for (size_t j = 0; j < n; j++)
				src[256 + j] = (unsigned char)(j * 5 + n);
			memset(dst, 0x5a, sizeof dst);
			right &= strategy_entry(&c, f->pieces[k].code, n)(dst + 256, src + 256, n) == dst + 256 &&
				 memcmp(dst + 256, src + 256, n) == 0 && dst[256 + n] == 0x5a;
		}
	}
	check(aimed, f->name, "a piece's own entry does not hold or jump to the piece");
	check(right, f->name, "a piece's own entry copies wrong");
	compiled_tables_free(&c);
}

/* A table whose tree enters avx512_medium at its pieces (plan/pieces.h), as
 * the probe compiles it: on a CPU with AVX-512, a jump of the tree lands
 * at each piece, in the body the entry holds (plan/layout.h): at bytes
 * equal to the flavor's own routine's from the piece's offset to its
 * body's end; or, for the tree's second leaf (plan/tree.h, falls), the
 * piece's bytes, from its offset to its end, lie right after the tree's
 * compare as well as in the body; and the table copies every length
 * right; without it the table runs its stand-ins, and copies right too.
 * Then each piece's own entry (check_piece_entries). */
void check_pieces(const struct probe_flavor *f)
{
	static unsigned char src[8192], dst[8192];
	if (f->n_pieces == 0)
		return;
	struct derived_rule r;
	pieces_table(&r);
	struct compiled_tables c;
	if (compile_tables(f, &r, 1, 0, &c)) {
		check(0, f->name, "a table of avx512_medium does not compile");
		return;
	}
	if (f->machine_isa() >= 2) {
		size_t found = 0;
		for (size_t k = 0; k < f->n_pieces; k++)
			found += tree_reaches_piece(f, &c, k);
		check(found == f->n_pieces, f->name, "the compiled tree does not jump to each piece of avx512_medium");
	}
	int right = 1;
	for (size_t n = 0; n <= 600; n++)
		for (unsigned int d = 0; d <= 64; d += 64) {
			unsigned char *to = dst + 256 + d;
			for (size_t j = 0; j < n; j++)
				src[256 + j] = (unsigned char)(j * 7 + n + 1);
			memset(dst, 0x5a, sizeof dst);
			right &= c.entries[0](to, src + 256, n) == to && memcmp(to, src + 256, n) == 0 &&
				 to[n] == 0x5a && to[-1] == 0x5a;
		}
	check(right, f->name, "a table of avx512_medium's pieces copies wrong");
	compiled_tables_free(&c);
	check_piece_entries(f);
}
