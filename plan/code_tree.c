/* The table dispatch's code tree, from a strategy code in ecx to its copy
 * (tree.h, plan_code_tree), and the short copies it tests first. */
#include "tree.h"

#include <stdio.h>
#include <stdlib.h>

/* The code tree's builder: codes[1..n], numbered from 1 as its labels are. */
struct code_builder {
	const int *codes;
	struct plan_tree *out;
};

static struct plan_step *code_step(struct code_builder *b, enum plan_op op, int to, unsigned int bound)
{
	struct plan_step *s = plan_emit(b->out, op, to);
	s->bound = bound;
	return s;
}

/* Codes lo..hi: the middle one tested for equality, the halves apart. */
static void split_codes(struct code_builder *b, int lo, int hi, int labelled)
{
	if (labelled)
		snprintf(code_step(b, PLAN_LABEL, -1, 0)->label, sizeof b->out->steps->label, "codes_%d_%d", lo, hi);
	if (lo == hi) {
		code_step(b, PLAN_GOTO, b->codes[lo], 0);
		return;
	}
	int mid = (lo + hi + 1) / 2;
	code_step(b, PLAN_CMP_CODE, -1, (unsigned int)b->codes[mid]);
	code_step(b, PLAN_IF_CODE, b->codes[mid], (unsigned int)b->codes[mid]);
	if (mid < hi)
		snprintf(code_step(b, PLAN_IF_CODE_ABOVE, -1, 0)->label, sizeof b->out->steps->label, "codes_%d_%d",
			 mid + 1, hi);
	if (lo <= mid - 1)
		split_codes(b, lo, mid - 1, 0);
	else
		code_step(b, PLAN_TRAP, -1, 0);
	if (mid < hi)
		split_codes(b, mid + 1, hi, 1);
}

/* Whether codes[0..n) are the four general-register codes 0..3. */
static int general_registers(const int *codes, int n)
{
	if (n != 4)
		return 0;
	for (int i = 0; i < n; i++)
		if (codes[i] != i || strategy_catalogue[codes[i]].isa != ISA_GPR)
			return 0;
	return 1;
}

int plan_short_first(const int *codes, int n, int *out)
{
	int shortest = -1, count = 0;
	for (int i = 0; i < n; i++) {
		int max_n = strategy_catalogue[codes[i]].max_n;
		if (max_n >= 0 && (shortest < 0 || max_n < shortest))
			shortest = max_n;
	}
	for (int i = 0; i < n; i++)
		if (shortest >= 0 && strategy_catalogue[codes[i]].max_n == shortest)
			out[count++] = codes[i];
	return count;
}

int plan_code_tree(const int *codes, int n, struct plan_tree *out)
{
	*out = (struct plan_tree){0};
	out->steps = calloc((size_t)n * 6 + 4, sizeof *out->steps);
	int *numbered = calloc((size_t)n + 1, sizeof *numbered);
	if (!out->steps || !numbered) {
		free(numbered);
		plan_tree_free(out);
		return -1;
	}
	struct code_builder b = {numbered, out};
	for (int i = 0; i < n; i++)
		numbered[i + 1] = codes[i];
	if (general_registers(codes, n)) {
		/* The tree the general-register flavor always took: the code
		 * above the middle one compared once, the lowest by its zero. */
		code_step(&b, PLAN_CMP_CODE, -1, (unsigned int)codes[2]);
		code_step(&b, PLAN_IF_CODE, codes[2], (unsigned int)codes[2]);
		code_step(&b, PLAN_IF_CODE_ABOVE, codes[3], (unsigned int)codes[2]);
		code_step(&b, PLAN_IF_CODE_ZERO, codes[0], 0);
		code_step(&b, PLAN_GOTO, codes[1], 0);
		free(numbered);
		return 0;
	}
	/* A vector flavor's tables often choose the ascending ymm copy past
	 * the small copy's lengths, over most lengths to a few KiB (measured:
	 * see docs/notebook/measurements-2026-12.md#the-ascending-ymm-copy-tested-first):
	 * it is tested first, not three compares deep. */
	for (int i = 0; i < n; i++) {
		const struct strategy *s = &strategy_catalogue[codes[i]];
		if (s->isa == ISA_AVX2 && s->direction == DIR_UP && !s->streams && s->min_n > 0) {
			code_step(&b, PLAN_CMP_CODE, -1, (unsigned int)codes[i]);
			code_step(&b, PLAN_IF_CODE, codes[i], (unsigned int)codes[i]);
			break;
		}
	}
	split_codes(&b, 1, n, 0);
	free(numbered);
	return 0;
}
