/* A branch tree as machine code (encode.h). The encodings are the ones
 * the assemblers pick for dispatch.tpi's lines: an immediate that fits a
 * signed byte takes the short form of cmp, test has none, and every jump
 * is rel32 (dispatch.tpi's far, which says why). */
#include "encode.h"

#include <string.h>

struct emitter {
	uint8_t *out;
	size_t len, cap;
	int overflow;
};

static void put(struct emitter *e, const uint8_t *b, size_t n)
{
	if (e->len + n > e->cap) {
		e->overflow = 1;
		return;
	}
	memcpy(e->out + e->len, b, n);
	e->len += n;
}

static void put32(struct emitter *e, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
	put(e, b, 4);
}

/* cmp reg, imm: /7 of 83 (imm8) or 81 (imm32); rex 0x48 for rdx, none for ecx. */
static void compare(struct emitter *e, int rex_w, uint8_t modrm, uint32_t imm)
{
	if (rex_w)
		put(e, (const uint8_t[]){0x48}, 1);
	if (imm <= 127) {
		put(e, (const uint8_t[]){0x83, modrm, (uint8_t)imm}, 3);
	} else {
		put(e, (const uint8_t[]){0x81, modrm}, 2);
		put32(e, imm);
	}
}

enum { JCC_JA = 0x7, JCC_JAE = 0x3, JCC_JBE = 0x6, JCC_JZ = 0x4, JMP = -1 };

/* A jump with a rel32 to target, from the end of the instruction. */
static int jump_near(struct emitter *e, int cc, uintptr_t at, uintptr_t target)
{
	size_t n = cc == JMP ? 5 : 6;
	int64_t rel = (int64_t)target - (int64_t)(at + n);
	if (rel < INT32_MIN || rel > INT32_MAX)
		return -1;
	if (cc == JMP)
		put(e, (const uint8_t[]){0xe9}, 1);
	else
		put(e, (const uint8_t[]){0x0f, (uint8_t)(0x80 | cc)}, 2);
	put32(e, (uint32_t)(int32_t)rel);
	return 0;
}

static int condition(enum plan_op op, int class)
{
	if (op == PLAN_IF_AT_MOST)
		return JCC_JBE;
	if (op == PLAN_IF_ABOVE)
		return JCC_JA;
	if (op == PLAN_GOTO)
		return JMP;
	if (class == CLASS_ZERO)
		return JCC_JZ;
	return class == CLASS_BELOW ? JCC_JAE : JCC_JBE;
}

/* One pass over the steps: label offsets from the last pass say where a
 * label jump lands (none on the first); every jump is rel32, so the
 * second pass has them all. */
static int pass(const struct plan_tree *t, struct emitter *e, uintptr_t base, const struct plan_targets *targets,
		size_t *at_label)
{
	e->len = 0;
	e->overflow = 0;
	for (int i = 0; i < t->n_steps; i++) {
		const struct plan_step *s = &t->steps[i];
		uintptr_t at = base + e->len;
		switch (s->op) {
		case PLAN_DISTANCE:
			put(e, (const uint8_t[]){0x89, 0xf9, 0x29, 0xf1, 0x81, 0xe1, 0xff, 0x0f, 0x00, 0x00}, 10);
			continue;
		case PLAN_CMP_LENGTH:
			compare(e, 1, 0xfa, s->bound);
			continue;
		case PLAN_LABEL:
			at_label[i] = e->len;
			continue;
		case PLAN_IF_CLASS:
			if (s->class == CLASS_ZERO && !s->flags) {
				put(e, (const uint8_t[]){0xf7, 0xc1}, 2);
				put32(e, s->bound);
			} else if (s->class != CLASS_ZERO) {
				compare(e, 0, 0xf9, s->bound);
			}
			at = base + e->len;
			break;
		case PLAN_GOTO:
			if (s->falls && s->to >= 0 && targets->bytes[s->to]) {
				/* The copy's moves right here: its piece's, or its
				 * body's, which jump only inside themselves. */
				if (s->piece >= 0)
					put(e, targets->bytes[s->to] + targets->piece_at[s->piece],
					    targets->piece_len[s->piece]);
				else
					put(e, targets->bytes[s->to], targets->len[s->to]);
				continue;
			}
			break;
		case PLAN_IF_AT_MOST:
		case PLAN_IF_ABOVE:
			break;
		default:
			return -1;
		}
		int cc = condition(s->op, s->class);
		if (s->to >= 0) {
			uintptr_t to = s->piece >= 0 ? targets->piece[s->piece] : targets->body[s->to];
			if (!to || jump_near(e, cc, at, to))
				return -1;
			continue;
		}
		/* A label jump: the label step with the same name. */
		int k = 0;
		while (k < t->n_steps && !(t->steps[k].op == PLAN_LABEL && strcmp(t->steps[k].label, s->label) == 0))
			k++;
		if (k == t->n_steps || cc == JMP || jump_near(e, cc, at, base + at_label[k]))
			return -1;
	}
	return e->overflow ? -1 : 0;
}

/* The tree alone, its jumps landing at targets' addresses. */
static size_t encode_tree(const struct plan_tree *tree, uint8_t *out, size_t cap, uintptr_t base,
			  const struct plan_targets *targets)
{
	size_t at_label[PLAN_MAX_STEPS] = {0};
	if (tree->n_steps > PLAN_MAX_STEPS)
		return 0;
	struct emitter e = {out, 0, cap, 0};
	for (int round = 0; round < 2; round++)
		if (pass(tree, &e, base, targets, at_label))
			return 0;
	return e.len;
}

size_t plan_encode(const struct plan_tree *tree, uint8_t *out, size_t cap, uintptr_t base,
		   const struct plan_targets *targets)
{
	int order[N_COPY_STRATEGIES], n_order = plan_layout(tree, order), held[N_COPY_STRATEGIES], n_held = 0;
	for (int k = 0; k < n_order; k++)
		if (targets->bytes[order[k]])
			held[n_held++] = order[k];
	if (n_held == 0)
		return encode_tree(tree, out, cap, base, targets);
	/* Every jump to a copy is rel32, so the tree's length does not depend
	 * on where the copies are: a first pass with them all at base gives
	 * it, and where they start. */
	struct plan_targets at = *targets;
	for (int k = 0; k < n_held; k++)
		at.body[held[k]] = base;
	for (int i = 0; i < N_PLAN_PIECES; i++)
		if (targets->bytes[plan_pieces[i].strategy])
			at.piece[i] = base;
	size_t n = encode_tree(tree, out, cap, base, &at);
	if (n == 0)
		return 0;
	/* Where the tree falls through to the first copy, its jmp is left out. */
	size_t falls = plan_falls_through(tree, held[0]) ? 5 : 0;
	n -= falls;
	for (int k = 0; k < n_held; k++) {
		int s = held[k];
		at.body[s] = base + n;
		for (int i = 0; i < N_PLAN_PIECES; i++)
			if (plan_pieces[i].strategy == s)
				at.piece[i] = base + n + targets->piece_at[i];
		n += targets->len[s];
	}
	if (n > cap)
		return 0;
	size_t tree_len = encode_tree(tree, out, cap, base, &at);
	if (tree_len == 0)
		return 0;
	n = tree_len - falls;
	for (int k = 0; k < n_held; k++) {
		memcpy(out + n, targets->bytes[held[k]], targets->len[held[k]]);
		n += targets->len[held[k]];
	}
	return n;
}
