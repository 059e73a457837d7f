/* libFuzzer harness: random lengths (0..70000), distances, misalignments,
 * decision tables (bands, class bounds, strategies, align_dst) and layouts, through the generated copies,
 * against the reference "dst now holds what src held", with sentinel guard
 * zones around dst and src, and PROT_NONE pages against the tight layout.
 * Where the flavor has memmove, a fourth layout overlaps dst and src by a
 * random shift either way. Strategies whose isa this CPU lacks are not
 * called alone; in tables, rule_install's fallbacks stand in for them.
 * Build and run: make fuzz (ten million cases) or make check (a short pass). */
#include "copy_rule.h"
#include "../../common/text_poke.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_N 70000u
#define GUARD 256u
#define REGION (48u * 4096u) /* >= 2 * MAX_N + 4096 + 2 * GUARD + 64 */

static unsigned char *region;     /* between two PROT_NONE pages */
static unsigned char background[REGION];

static void setup(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *map = mmap(NULL, REGION + 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || mprotect(map, page, PROT_NONE) || mprotect(map + page + REGION, page, PROT_NONE)) {
		perror("fuzz_copy: mmap");
		abort();
	}
	region = map + page;
	for (size_t i = 0; i < REGION; i++) {
		uint32_t x = (uint32_t)i * 2654435761u;
		background[i] = (unsigned char)((x >> 24) ^ (x >> 11));
	}
	memcpy(region, background, REGION);
}

static void diverged(const char *what, size_t n, size_t src, size_t dst, const struct uc_rule *rule,
		     const char *routine)
{
	char table[1024];
	uc_rule_describe(table, sizeof table, rule);
	fprintf(stderr, "DIVERGED: %s: %s n=%zu src=+%zu dst=+%zu d=%zu under %s\n", routine, what, n, src, dst,
		(dst - src) % 4096, table);
	abort();
}

static const struct {
	size_t min_n, max_n;
} strategies[UC_N_STRATEGIES] = {
#define LIMITS(code, name, min_n, max_n, isa) [code] = {min_n, max_n},
	UC_STRATEGIES(LIMITS)
#undef LIMITS
};

/* The routines called alone: memcpy, each strategy's own, memmove. */
struct routine {
	const char *name;
	void *(*fn)(void *, const void *, size_t);
	int code; /* the strategy it runs alone; -1: any length */
	int isa;
};
static const struct routine routines[] = {
	{"uc_memcpy", uc_memcpy, -1, 0},
#define ROUTINE(code, fn, isa, ...) {#fn, fn, code, isa},
	UC_STRATEGY_ROUTINES(ROUTINE)
#undef ROUTINE
};

/* A table from TABLE_BYTES input bytes, each read for one thing: 1..UC_MAX_BANDS
 * bands with random bounds, random class bounds, zero_mod and alignment,
 * and in each cell a random strategy where it is valid for the band (small
 * to 32 bytes, down from 8, the aligned head from 64), forward elsewhere. */
#define SETTINGS 0                          /* 9 bytes: class bounds, zero_mod, align_dst, bands */
#define BOUND_KIND (SETTINGS + 9)           /* UC_MAX_BANDS bytes: a short or a long band */
#define BOUND_SIZE (BOUND_KIND + UC_MAX_BANDS) /* UC_MAX_BANDS bytes: its length */
#define CELLS (BOUND_SIZE + UC_MAX_BANDS)      /* UC_N_CLASSES bytes a band */
#define TABLE_BYTES (CELLS + UC_N_CLASSES * UC_MAX_BANDS)
/* The whole input: 16 bytes of copy, then the table. libFuzzer makes no
 * input longer than -max_len, and bytes past an input read as 0: a table
 * whose bytes lay past it would always be one band of forward. */
#define INPUT_BYTES (16 + TABLE_BYTES)
_Static_assert(INPUT_BYTES <= 160, "make fuzz and tests/run_all.sh pass -max_len=160");
static void random_table(const uint8_t *b, struct uc_rule *r)
{
	static const unsigned int aligns[] = {0, 8, 16, 32, 64};
	static const unsigned int zero_mods[] = {4096, 64, 32, 16, 8};
	const uint8_t *k = b + SETTINGS;
	memset(r, 0, sizeof *r);
	r->above_max = (k[0] | (unsigned int)k[1] << 8) % 2048;
	r->below_max = (k[2] | (unsigned int)k[3] << 8) % 2048;
	unsigned int near = (k[4] | (unsigned int)k[5] << 8) % 2048;
	r->near_max = near > r->above_max ? near : 0;
	r->zero_mod = zero_mods[k[6] % 5];
	r->align_dst = aligns[k[7] % 5];
	r->n_bands = 1 + k[8] % UC_MAX_BANDS;
	r->entry = r->source = r->reason = "";
	size_t lo = 0;
	for (unsigned int i = 0; i < r->n_bands; i++) {
		size_t size = b[BOUND_KIND + i] % 4 == 0 ? b[BOUND_SIZE + i] : b[BOUND_SIZE + i] * 97u;
		size_t hi = i + 1 == r->n_bands ? (size_t)-1 : lo + size;
		r->bands[i].hi = hi;
		for (unsigned int c = 0; c < UC_N_CLASSES; c++) {
			unsigned int s = b[CELLS + UC_N_CLASSES * i + c] % UC_N_STRATEGIES;
			if (!UC_IS_STRATEGY(s) || lo < strategies[s].min_n || hi > strategies[s].max_n)
				s = UC_STRATEGY_FORWARD;
			r->bands[i].strategy[c] = (unsigned char)s;
		}
		lo = hi + 1;
	}
}

/* Whether region[from, to) still holds the background. */
static int untouched(size_t from, size_t to)
{
	return memcmp(region + from, background + from, to - from) == 0;
}

/* What a copy of n bytes from src to dst (offsets in region), laid out as
 * layout says, must have done: returned dst, written src's bytes there and
 * nothing else. Restores region after. */
static void check_copy(int layout, size_t n, size_t src, size_t dst, const void *ret, const struct uc_rule *rule,
		       const char *name)
{
	if (ret != region + dst)
		diverged("did not return dst", n, src, dst, rule, name);
	if (memcmp(region + dst, background + src, n) != 0)
		diverged("dst differs from the reference", n, src, dst, rule, name);
	size_t lo = dst > GUARD ? dst - GUARD : 0, hi = dst + n + GUARD < REGION ? dst + n + GUARD : REGION;
	if (layout == 3) {
		/* What the move may change is dst; src's bytes outside it stay. */
		if (!untouched(lo, src < dst ? src : dst) || !untouched(dst + n > src + n ? dst + n : src + n, hi) ||
		    !untouched(src < dst ? src : dst + n, src < dst ? dst : src + n))
			diverged("wrote outside dst", n, src, dst, rule, name);
		memcpy(region + lo, background + lo, hi - lo);
		return;
	}
	if (!untouched(lo, dst) || !untouched(dst + n, hi))
		diverged("wrote in a guard zone around dst", n, src, dst, rule, name);
	if (layout != 1) {
		size_t slo = src > GUARD ? src - GUARD : 0;
		if (!untouched(slo, src + n < lo ? src + n : (src + n < dst ? src + n : dst)))
			diverged("wrote into src or below it", n, src, dst, rule, name);
	}
	memcpy(region + dst, background + dst, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t b[INPUT_BYTES] = {0};
	memcpy(b, data, size < sizeof b ? size : sizeof b);
	if (!region)
		setup();

	/* Mostly short copies, where the paths branch; sometimes up to 70000 bytes. */
	size_t n;
	if (b[0] < 200)
		n = b[1] | (size_t)(b[2] & 1) << 8;
	else if (b[0] < 240)
		n = (b[1] | (size_t)b[2] << 8) % 8193;
	else
		n = (b[1] | (size_t)b[2] << 8 | (size_t)b[3] << 16) % (MAX_N + 1);
	unsigned int dist = (b[4] | (unsigned int)b[5] << 8) % 4096;
	unsigned int src_mis = b[6] % 64;
	struct uc_rule rule;
	random_table(b + 16, &rule);
	/* A quarter of the cases take a row of the CPUID table instead: a
	 * measured entry's rule runs its compiled routines. */
	static unsigned int rows;
	if (!rows)
		while (uc_rule_at(rows))
			rows++;
	if ((b[15] >> 2) % 4 == 0 && rows)
		rule = *uc_rule_at(b[12] % rows);
	/* 0 disjoint, 1 dst == src, 2 tight against the guard pages, 3 (memmove) overlapping */
#ifdef UC_HAS_MEMMOVE
	int layout = b[14] % 4;
#else
	int layout = b[14] % 3;
#endif
	static int isa = -1;
	if (isa < 0)
		isa = UC_ISA_ENABLED();
	const struct routine *rt = &routines[b[13] % (sizeof routines / sizeof *routines)];
	if ((rt->code >= 0 && (n < strategies[rt->code].min_n || n > strategies[rt->code].max_n)) || rt->isa > isa)
		rt = &routines[0];
#ifdef UC_HAS_MEMMOVE
	static const struct routine move = {"uc_memmove", uc_memmove, -1, 0};
	if (layout == 3 || b[15] % 4 == 0)
		rt = &move;
#endif
	const char *name = rt->name;

	size_t src, dst;
	if (layout == 3) {
		/* Overlapping by a shift of 1..n-1 bytes, dst above or below src. */
		size_t shift = n > 1 ? 1 + dist % (n - 1) : 0;
		src = GUARD + 64 + src_mis + (b[7] & 1 ? shift : 0);
		dst = GUARD + 64 + src_mis + (b[7] & 1 ? 0 : shift);
	} else if (layout == 1) {
		src = dst = GUARD + 64 + src_mis;
	} else if (layout == 2) {
		src = 0;              /* a read below src faults */
		dst = REGION - n;     /* a write past dst + n faults */
	} else {
		size_t gap = dist;
		while (gap < n)
			gap += 4096;
		src = GUARD + 64 + src_mis;
		dst = src + gap;
	}
	rule_install_patched(&rule);
	void *ret = rt->fn(region + dst, region + src, n);

	check_copy(layout, n, src, dst, ret, &rule, name);
	return 0;
}
