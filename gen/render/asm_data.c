/* The neutral assembly's frame and data (asm_syntax.h) as NASM or GAS
 * writes them: sections, alignment and padding, data, marks and the CET
 * note. asm_statement.c calls asm_layout for every statement it does not
 * know itself. */
#include "asm_backend.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *nasm, *gas;
} sections[] = {
	{".text", "section .text", ".text"},
	{".data", "section .data", ".data"},
	{".rodata", "section .rodata", ".section .rodata"},
	{".bss", "section .bss", ".bss"},
	/* Read-only once relocated: data that holds addresses, so that a shared
	 * object needs no relocation in a read-only segment. */
	{".data.rel.ro", "section .data.rel.ro progbits alloc noexec write align=8",
	 ".section .data.rel.ro,\"aw\",@progbits"},
	{".note.GNU-stack", "section .note.GNU-stack noalloc noexec nowrite progbits",
	 ".section .note.GNU-stack,\"\",@progbits"},
};

/* How syntax spells the label a mark statement defined. */
static char *mark_spelling(int nasm, const char *name)
{
	return xasprintf(nasm ? "..@%s" : ".L%s", name);
}

/* rest with every symbol that names a mark spelled as the mark's label. */
static char *spell_marks(const struct asm_state *st, int nasm, const char *rest)
{
	struct buf b = {0};
	buf_adds(&b, "");
	for (const char *p = rest; *p;) {
		const char *e = asm_symbol_end(p, 0);
		if (!e || (p > rest && asm_word((unsigned char)p[-1]))) {
			buf_add(&b, p, 1);
			p++;
			continue;
		}
		size_t len = (size_t)(e - p);
		int mark = 0;
		for (size_t i = 0; i < st->n_marks && !mark; i++)
			mark = strlen(st->marks[i]) == len && strncmp(st->marks[i], p, len) == 0;
		if (mark) {
			char *name = xasprintf("%.*s", (int)len, p), *spelled = mark_spelling(nasm, name);
			buf_adds(&b, spelled);
			free(spelled);
			free(name);
		} else {
			buf_add(&b, p, len);
		}
		p = e;
	}
	return b.data;
}

/* The note of NT_GNU_PROPERTY_TYPE_0 (5), owner "GNU", one property:
 * GNU_PROPERTY_X86_FEATURE_1_AND (0xc0000002) = IBT (1) | SHSTK (2). */
static char *cet_note(int nasm, const char *indent)
{
	static const char *const nasm_lines[] = {
		"section .note.gnu.property note alloc noexec nowrite align=8", "dd      4, 16, 5",
		"db      \"GNU\", 0", "dd      0xc0000002, 4, 3, 0", NULL};
	static const char *const gas_lines[] = {
		".section .note.gnu.property,\"a\",@note", ".balign 8", ".long   4, 16, 5", ".asciz  \"GNU\"",
		".long   0xc0000002, 4, 3, 0", NULL};
	const char *const *lines = nasm ? nasm_lines : gas_lines;
	struct buf b = {0};
	for (size_t i = 0; lines[i]; i++)
		buf_printf(&b, "%s%s%s", i ? "\n" : "", indent, lines[i]);
	return b.data;
}

/* dq: for NASM, a relocation names an exported symbol, as GAS writes it,
 * not its section. Not a local one: NASM would name the exported symbol
 * before it in its section, and finds none for a routine laid out before
 * every entry (baseline.tpi). */
static char *quads(const struct asm_state *st, int nasm, const char *indent, const char *rest)
{
	if (!nasm)
		return xasprintf("%s.quad   %s", indent, rest);
	size_t n;
	char **args = asm_split_args(rest, &n);
	struct buf b = {0};
	buf_printf(&b, "%sdq      ", indent);
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s%s", i ? ", " : "", args[i],
			   asm_is_symbol(args[i]) && asm_exported(st, args[i]) ? " wrt ..sym" : "");
	asm_free_list(args, n);
	return b.data;
}

/* 1 when s is "A - B" with A and B labels: their distance. */
static int is_distance(const char *s, size_t len)
{
	const char *a = asm_symbol_end(s, 0);
	if (!a || a + 3 > s + len || strncmp(a, " - ", 3) != 0)
		return 0;
	const char *b = asm_symbol_end(a + 3, 0);
	return b && b == s + len;
}

/* 1 when s is a list of distances "A - B, C - D, ...". */
static int is_distances(const char *s)
{
	for (;;) {
		const char *comma = strstr(s, ", ");
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		if (!is_distance(s, len))
			return 0;
		if (!comma)
			return 1;
		s = comma + 2;
	}
}

/* 1 when s[0..len) is a room term of codepad: a number, "A - B" or
 * "A - B + N", A and B labels. */
static int is_room_term(const char *s, size_t len)
{
	const char *plus = NULL;
	for (const char *p = s; p + 3 <= s + len; p++)
		if (strncmp(p, " + ", 3) == 0)
			plus = p;
	if (!plus)
		return is_distance(s, len) || (len && strspn(s, "0123456789") == len);
	size_t n = (size_t)(s + len - (plus + 3));
	return is_distance(s, (size_t)(plus - s)) && n && strspn(plus + 3, "0123456789") >= n;
}

/* codepad L, X[, X]...: int3 until as many bytes follow L as the largest
 * X, or as already do: a chain of symbols L.room<k>, each the larger of the
 * one before and X<k>, from what follows L here. Labels the terms name are
 * defined before, so that each assembler knows them when it pads (NASM's
 * times takes no forward reference, GAS's .org none either). NASM's a > b
 * is 1 where true; GAS's (and LLVM's, for rustc's global_asm!) is -1, all
 * ones: the mask of a ^ ((a ^ b) & mask), which is b where b > a. NULL
 * where the operands do not fit. */
static char *codepad(const struct asm_state *st, int nasm, const char *indent, const char *rest)
{
	const char *e = asm_symbol_end(rest, 0);
	if (!e || strncmp(e, ", ", 2) != 0)
		return NULL;
	for (const char *x = e + 2;;) {
		const char *comma = strstr(x, ", ");
		size_t len = comma ? (size_t)(comma - x) : strlen(x);
		if (!is_room_term(x, len))
			return NULL;
		if (!comma)
			break;
		x = comma + 2;
	}
	char *name = xasprintf("%.*s", (int)(e - rest), rest), *label = spell_marks(st, nasm, name);
	char *terms = spell_marks(st, nasm, e + 2);
	struct buf b = {0};
	buf_printf(&b, nasm ? "%s..@%s.room0 equ $ - %s" : "%s.set    .L%s.room0, . - %s", indent, name, label);
	size_t k = 0;
	for (const char *x = terms;; k++) {
		const char *comma = strstr(x, ", ");
		int len = comma ? (int)(comma - x) : (int)strlen(x);
		if (nasm)
			buf_printf(&b, "\n%s..@%s.room%zu equ (%.*s) > ..@%s.room%zu ? (%.*s) : ..@%s.room%zu", indent, name,
				   k + 1, len, x, name, k, len, x, name, k);
		else
			buf_printf(&b, "\n%s.set    .L%s.room%zu, .L%s.room%zu ^ ((.L%s.room%zu ^ (%.*s)) & ((%.*s) > .L%s.room%zu))",
				   indent, name, k + 1, name, k, name, k, len, x, len, x, name, k);
		if (!comma)
			break;
		x = comma + 2;
	}
	if (nasm)
		buf_printf(&b, "\n%stimes   ..@%s.room%zu - ($ - %s) db 0xcc", indent, name, k + 1, label);
	else
		buf_printf(&b, "\n%s.org    %s + .L%s.room%zu, 0xcc", indent, label, name, k + 1);
	free(terms);
	free(label);
	free(name);
	return b.data;
}

/* The file's frame and its data: 1 with *out (NULL after asm_fail), or 0
 * when op is none of them or its operands do not fit it. */
int asm_layout(struct asm_state *st, int nasm, const char *indent, const char *op, const char *rest, char **out)
{
	if (strcmp(op, "intel64") == 0 && !*rest) {
		*out = xstrdup(nasm ? "        bits    64\n        default rel" : "        .intel_syntax noprefix");
	} else if (strcmp(op, "section") == 0) {
		for (size_t i = 0; i < sizeof sections / sizeof *sections && !*out; i++)
			if (strcmp(sections[i].name, rest) == 0)
				*out = xasprintf("%s%s", indent, nasm ? sections[i].nasm : sections[i].gas);
		if (!*out)
			asm_fail(st, "unknown section '%s'", rest);
	} else if (strcmp(op, "cetnote") == 0 && !*rest) {
		*out = cet_note(nasm, indent);
	} else if (strcmp(op, "codealign") == 0 && asm_is_numbers(rest, "")) {
		*out = nasm ? xasprintf("%salign   %s, db 0xcc", indent, rest) : xasprintf("%s.balign %s, 0xcc", indent, rest);
	} else if (strcmp(op, "align") == 0 && asm_is_numbers(rest, "")) {
		*out = nasm ? xasprintf("%salign   %s, db 0", indent, rest) : xasprintf("%s.balign %s, 0", indent, rest);
	} else if (strcmp(op, "dq") == 0) {
		*out = quads(st, nasm, indent, rest);
	} else if (strcmp(op, "codepad") == 0) {
		*out = codepad(st, nasm, indent, rest);
		if (!*out)
			return 0;
	} else if (strcmp(op, "reserve") == 0 && (asm_is_numbers(rest, "") || is_distance(rest, strlen(rest)))) {
		char *spelled = spell_marks(st, nasm, rest);
		*out = xasprintf("%s%s%s", indent, nasm ? "resb    " : ".skip   ", spelled);
		free(spelled);
	} else if (strcmp(op, "dd") == 0 || strcmp(op, "dw") == 0) {
		/* Distances between labels of one section: constants once
		 * assembled, so that the data needs no relocation. dw also takes
		 * numbers. */
		int word = op[1] == 'w';
		if (!is_distances(rest) && !(word && asm_is_numbers(rest, ", ")))
			return 0;
		char *spelled = spell_marks(st, nasm, rest);
		*out = xasprintf("%s%s%s", indent, nasm ? (word ? "dw      " : "dd      ") : (word ? ".short  " : ".long   "),
				 spelled);
		free(spelled);
	} else if (strcmp(op, "db") == 0) {
		/* Numbers, or the distance A - B between two labels. */
		const char *a = asm_symbol_end(rest, 0), *b = a && strncmp(a, " - ", 3) == 0 ? asm_symbol_end(a + 3, 0) : NULL;
		if (!asm_is_numbers(rest, ", ") && !(b && !*b))
			return 0;
		char *spelled = spell_marks(st, nasm, rest);
		*out = xasprintf("%s%s%s", indent, nasm ? "db      " : ".byte   ", spelled);
		free(spelled);
	} else if (strcmp(op, "mark") == 0 && asm_is_symbol(rest)) {
		for (size_t i = 0; i < st->n_marks; i++)
			if (strcmp(st->marks[i], rest) == 0)
				return asm_fail(st, "mark %s is defined twice", rest), 1;
		st->marks = xrealloc(st->marks, (st->n_marks + 1) * sizeof *st->marks);
		st->marks[st->n_marks++] = xstrdup(rest);
		char *label = mark_spelling(nasm, rest);
		*out = xasprintf("%s:", label);
		free(label);
	} else {
		return 0;
	}
	return 1;
}

