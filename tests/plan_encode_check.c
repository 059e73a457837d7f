/* Whether plan_encode writes the bytes the assembler made: for each routine
 * set of a flavor's copy.o, the set's branch tree encoded by plan/encode.c,
 * its jumps to the copies aimed at the copies' labels in the object, and
 * after it the copies the entry holds (plan/layout.h), their bytes taken
 * from the copy_<strategy> routines as the probe takes them, must equal
 * the object's bytes after the set's memcpy entry, up to its copy_end.
 * usage: plan_encode_check FLAVOR TEXT.BIN < LINES
 * LINES: "flavor NAME ISA_LEVEL", "rule ENTRY FLAVOR ABOVE NEAR BELOW
 * ZERO_MOD ALIGN_DST", "band ENTRY FLAVOR LO HI(-1: none) ZERO ABOVE NEAR
 * BELOW ELSEWHERE" (bands in length order), and "sym ADDRESS NAME", nm's
 * lines of the object's .text. Prints a line per set; exits 1 on a
 * difference. */
#include "../plan/encode.h"
#include "../plan/sets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RULES 64
#define MAX_SYMS 65536

static struct {
	char entry[32];
	struct copy_table t;
} rules[MAX_RULES];
static int n_rules, isa_level = -1;
static struct {
	unsigned long at;
	char name[128];
} syms[MAX_SYMS];
static int n_syms;
static unsigned char *text;
static size_t text_len;

static int code_of(const char *name)
{
	int s = strategy_named(name);
	if (s >= 0)
		return s;
	fprintf(stderr, "plan_encode_check: no strategy %s\n", name);
	exit(2);
}

static long sym(const char *name)
{
	for (int i = 0; i < n_syms; i++)
		if (strcmp(syms[i].name, name) == 0)
			return (long)syms[i].at;
	return -1;
}

static void read_lines(const char *flavor)
{
	char line[512], a[32], b[32], c[5][32];
	while (fgets(line, sizeof line, stdin)) {
		long lo, hi;
		unsigned int v[5];
		int k;
		if (sscanf(line, "flavor %31s %d", a, &k) == 2 && strcmp(a, flavor) == 0)
			isa_level = k;
		else if (sscanf(line, "rule %31s %31s %u %u %u %u %u", a, b, &v[0], &v[1], &v[2], &v[3], &v[4]) == 7 &&
			 strcmp(b, flavor) == 0 && n_rules < MAX_RULES) {
			struct copy_table *t = &rules[n_rules].t;
			snprintf(rules[n_rules++].entry, sizeof rules[0].entry, "%s", a);
			t->classes = (struct class_bounds){v[0], v[1], v[2], (int)v[3]};
			t->align_dst = (int)v[4];
		} else if (sscanf(line, "band %31s %31s %ld %ld %31s %31s %31s %31s %31s", a, b, &lo, &hi, c[0], c[1], c[2],
				  c[3], c[4]) == 9 &&
			   strcmp(b, flavor) == 0) {
			for (k = 0; k < n_rules && strcmp(rules[k].entry, a) != 0; k++)
				;
			if (k == n_rules || rules[k].t.n_bands == MAX_BANDS)
				continue;
			struct band *band = &rules[k].t.bands[rules[k].t.n_bands++];
			band->lo = (unsigned int)lo;
			band->hi = hi < 0 ? BAND_UNBOUNDED : (unsigned int)hi;
			for (int cl = 0; cl < N_DISTANCE_CLASSES; cl++)
				band->strategy[cl] = code_of(c[cl]);
		} else if (sscanf(line, "sym %lx %127s", &syms[n_syms].at, syms[n_syms].name) == 2 && n_syms < MAX_SYMS) {
			n_syms++;
		}
	}
}

/* The bytes of each copy an entry holds (plan_inline) in the flavor's
 * copy_<strategy> routine, from its mark .body to .body_end, and where its
 * pieces start in them (their marks .n<lo>) and end (.n<lo>_end). */
static void hold_bodies(struct plan_targets *targets)
{
	char label[192];
	for (int s = 0; s < N_COPY_STRATEGIES; s++) {
		if (!plan_inline(s))
			continue;
		snprintf(label, sizeof label, "..@uc_copy_%s.body", strategy_catalogue[s].name);
		long from = sym(label);
		snprintf(label, sizeof label, "..@uc_copy_%s.body_end", strategy_catalogue[s].name);
		long to = sym(label);
		if (from < 0 || to <= from || (size_t)to > text_len)
			continue;
		targets->bytes[s] = text + from;
		targets->len[s] = (size_t)(to - from);
		for (int i = 0; i < N_PLAN_PIECES; i++) {
			if (plan_pieces[i].strategy != s)
				continue;
			snprintf(label, sizeof label, "..@uc_copy_%s.n%u", strategy_catalogue[s].name, plan_pieces[i].lo);
			long at = sym(label);
			snprintf(label, sizeof label, "..@uc_copy_%s.n%u_end", strategy_catalogue[s].name,
				 plan_pieces[i].lo);
			long end = sym(label);
			targets->piece_at[i] = at < from ? 0 : (size_t)(at - from);
			targets->piece_len[i] = at < from || end < at ? 0 : (size_t)(end - at);
		}
	}
}

/* Set name's tree against the object: 0 when alike. */
static int check_set(const char *name, const struct copy_table *t)
{
	char label[192];
	snprintf(label, sizeof label, "uc_memcpy_%s", name);
	long entry = sym(label);
	if (entry < 0) {
		printf("FAIL %s: no symbol %s in the object\n", name, label);
		return 1;
	}
	struct plan_targets targets = {0};
	for (int s = 0; s < N_COPY_STRATEGIES; s++) {
		snprintf(label, sizeof label, "uc_memcpy_%s.Lmemcpy_%s_%s", name, name, strategy_catalogue[s].name);
		long at = sym(label);
		targets.body[s] = at < 0 ? 0 : (uintptr_t)at;
	}
	for (int i = 0; i < N_PLAN_PIECES; i++) {
		snprintf(label, sizeof label, "uc_memcpy_%s.Lmemcpy_%s_%s_n%u", name, name,
			 strategy_catalogue[plan_pieces[i].strategy].name, plan_pieces[i].lo);
		long at = sym(label);
		targets.piece[i] = at < 0 ? 0 : (uintptr_t)at;
	}
	hold_bodies(&targets);
	/* The entry's prologue: endbr64 (unless --no-endbr), then rax = dst. */
	size_t at = (size_t)entry;
	if (at + 4 <= text_len && !memcmp(text + at, "\xf3\x0f\x1e\xfa", 4))
		at += 4;
	if (at + 3 > text_len || memcmp(text + at, "\x48\x89\xf8", 3) != 0) {
		printf("FAIL %s: no mov rax, rdi after the entry\n", name);
		return 1;
	}
	at += 3;
	struct plan_tree tree;
	uint8_t code[PLAN_CODE_MAX + PLAN_INLINE_MAX];
	if (plan_tree(t, &tree))
		exit(2);
	size_t n = plan_encode(&tree, code, sizeof code, at, &targets);
	/* The assembler's output drops a last jmp to the copy laid out next. */
	size_t want = n;
	const struct plan_step *last = &tree.steps[tree.n_steps - 1];
	if (n >= 5 && code[n - 5] == 0xe9 && last->op == PLAN_GOTO && last->piece < 0 &&
	    targets.body[last->to] == at + n - 5)
		want = n - 5;
	plan_tree_free(&tree);
	if (n == 0 || at + want > text_len) {
		printf("FAIL %s: the tree could not be encoded\n", name);
		return 1;
	}
	snprintf(label, sizeof label, "..@uc_memcpy_%s.copy_end", name);
	long end = sym(label);
	if (end >= 0 && (size_t)end != at + want) {
		printf("FAIL %s: the code takes %zu bytes, the object's copy_end is %ld bytes after the tree's start\n",
		       name, want, end - (long)at);
		return 1;
	}
	for (size_t i = 0; i < want; i++)
		if (code[i] != text[at + i]) {
			printf("FAIL %s: byte %zu of the tree is %02x, the object has %02x\n", name, i, code[i],
			       text[at + i]);
			return 1;
		}
	printf("ok %s: %zu bytes alike\n", name, want);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: plan_encode_check FLAVOR TEXT.BIN < LINES\n");
		return 2;
	}
	FILE *f = fopen(argv[2], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (text_len = (size_t)ftell(f)) == 0 || fseek(f, 0, SEEK_SET) ||
	    !(text = malloc(text_len)) || fread(text, 1, text_len, f) != text_len) {
		fprintf(stderr, "plan_encode_check: cannot read %s\n", argv[2]);
		return 2;
	}
	fclose(f);
	read_lines(argv[1]);
	if (isa_level < 0) {
		fprintf(stderr, "plan_encode_check: no flavor %s in the input\n", argv[1]);
		return 2;
	}
	struct plan_measured measured[MAX_RULES];
	for (int i = 0; i < n_rules; i++)
		measured[i] = (struct plan_measured){rules[i].entry, &rules[i].t};
	struct plan_sets ps;
	if (plan_sets(measured, n_rules, isa_level, &ps))
		return 2;
	int failed = 0;
	for (int i = 0; i < ps.n_sets; i++)
		failed += check_set(ps.sets[i].name, &ps.sets[i].table);
	printf("%d sets, %d differ\n", ps.n_sets, failed);
	plan_sets_free(&ps);
	return failed ? 1 : 0;
}
