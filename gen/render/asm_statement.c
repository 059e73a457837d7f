/* One statement of the neutral assembly (asm_syntax.h) as NASM or GAS
 * writes it, and the state the back-ends share (asm_backend.h). */
#include "asm_backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *nasm, *gas;
} sections[] = {
	{".text", "section .text", ".text"},
	{".data", "section .data", ".data"},
	{".rodata", "section .rodata", ".section .rodata"},
	/* Read-only once relocated: data that holds addresses, so that a shared
	 * object needs no relocation in a read-only segment. */
	{".data.rel.ro", "section .data.rel.ro progbits alloc noexec write align=8",
	 ".section .data.rel.ro,\"aw\",@progbits"},
	{".note.GNU-stack", "section .note.GNU-stack noalloc noexec nowrite progbits",
	 ".section .note.GNU-stack,\"\",@progbits"},
};

/* The opcodes of the jumps written "near": jmp rel32, and jcc rel32 (0f 8x). */
static const struct {
	const char *op, *bytes;
} near_jumps[] = {
	{"jmp", "0xe9"},        {"jb", "0x0f, 0x82"},  {"jae", "0x0f, 0x83"}, {"jz", "0x0f, 0x84"},
	{"je", "0x0f, 0x84"},   {"jnz", "0x0f, 0x85"}, {"jne", "0x0f, 0x85"}, {"jbe", "0x0f, 0x86"},
	{"ja", "0x0f, 0x87"},
};

char *asm_fail(struct asm_state *st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *what = xvasprintf(fmt, ap);
	va_end(ap);
	free(st->error);
	st->error = xasprintf("%s%s", st->where, what);
	free(what);
	return NULL;
}

void asm_export(struct asm_state *st, const char *name, const char *kind)
{
	for (size_t i = 0; i < st->n_exported; i++) {
		if (strcmp(st->exported[i].name, name) == 0) {
			st->exported[i].kind = kind;
			return;
		}
	}
	st->exported = xrealloc(st->exported, (st->n_exported + 1) * sizeof *st->exported);
	st->exported[st->n_exported++] = (struct asm_export){xstrdup(name), kind};
}

const char *asm_exported(const struct asm_state *st, const char *name)
{
	for (size_t i = 0; i < st->n_exported; i++)
		if (strcmp(st->exported[i].name, name) == 0)
			return st->exported[i].kind;
	return NULL;
}

char *asm_split(const char *body, const char **rest)
{
	size_t n = 0;
	while (body[n] && !asm_space((unsigned char)body[n]))
		n++;
	for (*rest = body + n; asm_space((unsigned char)**rest); (*rest)++)
		;
	return xasprintf("%.*s", (int)n, body);
}

/* The end of the symbol that starts at s ([a-zA-Z_][a-zA-Z0-9_.]*, or a '.'
 * first too with dot_first), or NULL when none does. */
static const char *symbol_end(const char *s, int dot_first)
{
	int c = (unsigned char)*s;
	if (!(asm_alpha(c) || c == '_' || (dot_first && c == '.')))
		return NULL;
	return s + 1 + asm_word_span(s + 1);
}

static int is_symbol(const char *s)
{
	const char *e = symbol_end(s, 0);
	return e && !*e;
}

/* 1 when s is a digit, then digits and characters of also: with also "",
 * a number; with ", ", a list of numbers. */
static int is_numbers(const char *s, const char *also)
{
	if (!asm_digit(*s))
		return 0;
	for (; *s; s++)
		if (!asm_digit(*s) && !strchr(also, *s))
			return 0;
	return 1;
}

/* The comma-separated items of s, trimmed. Two commas in a row make no
 * item, but a space between them makes an empty one, which global then
 * names in its error. */
static char **split_args(const char *s, size_t *n)
{
	char **list = NULL;
	*n = 0;
	while (*s) {
		size_t len = strcspn(s, ",");
		const char *a = s, *b = s + len;
		while (a < b && asm_space((unsigned char)*a))
			a++;
		while (b > a && asm_space((unsigned char)b[-1]))
			b--;
		if (len) {
			list = xrealloc(list, (*n + 1) * sizeof *list);
			list[(*n)++] = xasprintf("%.*s", (int)(b - a), a);
		}
		s += len + (s[len] == ',');
	}
	return list;
}

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

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
		const char *e = symbol_end(p, 0);
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

/* endfunc or endobject: ends every name opened since the last one. */
static char *close_open(struct asm_state *st, int nasm, const char *indent, const char *op)
{
	if (!st->n_open)
		return asm_fail(st, "%s closes nothing", op);
	struct buf b = {0};
	for (size_t i = 0; i < st->n_open; i++) {
		if (i)
			buf_adds(&b, "\n");
		if (nasm)
			buf_printf(&b, "%s.end:", st->open[i]);
		else
			buf_printf(&b, "%s.size   %s, . - %s", indent, st->open[i], st->open[i]);
		free(st->open[i]);
	}
	st->n_open = 0;
	return b.data;
}

/* The statements that name symbols: 1 with *out (NULL after asm_fail), or
 * 0 when op is none of them or its operands do not fit it. */
static int symbols(struct asm_state *st, int nasm, const char *indent, const char *op, const char *rest, char **out)
{
	int func = strcmp(op, "func") == 0;
	if ((func || strcmp(op, "object") == 0) && is_symbol(rest)) {
		st->open = xrealloc(st->open, (st->n_open + 1) * sizeof *st->open);
		st->open[st->n_open++] = xstrdup(rest);
		asm_export(st, rest, func ? "func" : "object");
		if (nasm)
			*out = xasprintf("%sglobal  %s:%s (%s.end - %s)", indent, rest, func ? "function" : "data", rest, rest);
		else
			*out = xasprintf("%s.globl  %s\n%s.type   %s, @%s", indent, rest, indent, rest,
					 func ? "function" : "object");
	} else if ((strcmp(op, "endfunc") == 0 || strcmp(op, "endobject") == 0) && !*rest) {
		*out = close_open(st, nasm, indent, op);
	} else if ((strcmp(op, "entry") == 0 || strcmp(op, "endaccess") == 0) && is_symbol(rest)) {
		*out = xasprintf("%s:", rest);
	} else if (strcmp(op, "access") == 0) {
		const char *e = symbol_end(rest, 0), *fixup = e;
		if (!e || *e != ',')
			return 0;
		for (fixup++; asm_space((unsigned char)*fixup); fixup++)
			;
		const char *f = symbol_end(fixup, 1);
		if (!f || *f)
			return 0;
		*out = xasprintf("%.*s:", (int)(e - rest), rest);
	} else if (strcmp(op, "mark") == 0 && is_symbol(rest)) {
		for (size_t i = 0; i < st->n_marks; i++)
			if (strcmp(st->marks[i], rest) == 0)
				return asm_fail(st, "mark %s is defined twice", rest), 1;
		st->marks = xrealloc(st->marks, (st->n_marks + 1) * sizeof *st->marks);
		st->marks[st->n_marks++] = xstrdup(rest);
		char *label = mark_spelling(nasm, rest);
		*out = xasprintf("%s:", label);
		free(label);
	} else if (strcmp(op, "global") == 0) {
		size_t n;
		char **args = split_args(rest, &n);
		for (size_t i = 0; i < n && !st->error; i++)
			if (!is_symbol(args[i]))
				asm_fail(st, "global: '%s' is not a symbol", args[i]);
		free_list(args, n);
		*out = st->error ? NULL : xasprintf("%s%s  %s", indent, nasm ? "global" : ".globl", rest);
	} else {
		return 0;
	}
	return 1;
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

/* dq: for NASM, a relocation names the symbol, as GAS writes it, not its
 * section. */
static char *quads(int nasm, const char *indent, const char *rest)
{
	if (!nasm)
		return xasprintf("%s.quad   %s", indent, rest);
	size_t n;
	char **args = split_args(rest, &n);
	struct buf b = {0};
	buf_printf(&b, "%sdq      ", indent);
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s%s", i ? ", " : "", args[i], is_symbol(args[i]) ? " wrt ..sym" : "");
	free_list(args, n);
	return b.data;
}

/* 1 when s is "A - B" with A and B labels: their distance. */
static int is_distance(const char *s, size_t len)
{
	const char *a = symbol_end(s, 0);
	if (!a || a + 3 > s + len || strncmp(a, " - ", 3) != 0)
		return 0;
	const char *b = symbol_end(a + 3, 0);
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

/* The file's frame and its data: 1 with *out (NULL after asm_fail), or 0
 * when op is none of them or its operands do not fit it. */
static int layout(struct asm_state *st, int nasm, const char *indent, const char *op, const char *rest, char **out)
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
	} else if (strcmp(op, "codealign") == 0 && is_numbers(rest, "")) {
		*out = nasm ? xasprintf("%salign   %s, db 0xcc", indent, rest) : xasprintf("%s.balign %s, 0xcc", indent, rest);
	} else if (strcmp(op, "align") == 0 && is_numbers(rest, "")) {
		*out = nasm ? xasprintf("%salign   %s, db 0", indent, rest) : xasprintf("%s.balign %s, 0", indent, rest);
	} else if (strcmp(op, "dq") == 0) {
		*out = quads(nasm, indent, rest);
	} else if (strcmp(op, "codepad") == 0) {
		const char *e = symbol_end(rest, 0), *n = e;
		if (!e || *e != ',')
			return 0;
		for (n++; asm_space((unsigned char)*n); n++)
			;
		if (!is_numbers(n, ""))
			return 0;
		char *name = xasprintf("%.*s", (int)(e - rest), rest), *label = spell_marks(st, nasm, name);
		free(name);
		/* Both forms refuse code that already runs past: NASM's negative
		 * count, GAS's .org backwards (GAS only warns of a negative .skip). */
		*out = nasm ? xasprintf("%stimes   %s - ($ - %s) db 0xcc", indent, n, label)
			    : xasprintf("%s.org    %s + %s, 0xcc", indent, label, n);
		free(label);
	} else if (strcmp(op, "dd") == 0 || strcmp(op, "dw") == 0) {
		/* Distances between labels of one section: constants once
		 * assembled, so that the data needs no relocation. dw also takes
		 * numbers. */
		int word = op[1] == 'w';
		if (!is_distances(rest) && !(word && is_numbers(rest, ", ")))
			return 0;
		char *spelled = spell_marks(st, nasm, rest);
		*out = xasprintf("%s%s%s", indent, nasm ? (word ? "dw      " : "dd      ") : (word ? ".short  " : ".long   "),
				 spelled);
		free(spelled);
	} else if (strcmp(op, "db") == 0) {
		/* Numbers, or the distance A - B between two labels. */
		const char *a = symbol_end(rest, 0), *b = a && strncmp(a, " - ", 3) == 0 ? symbol_end(a + 3, 0) : NULL;
		if (!is_numbers(rest, ", ") && !(b && !*b))
			return 0;
		char *spelled = spell_marks(st, nasm, rest);
		*out = xasprintf("%s%s%s", indent, nasm ? "db      " : ".byte   ", spelled);
		free(spelled);
	} else {
		return 0;
	}
	return 1;
}

/* s with every occurrence of from replaced by to; frees s. */
static char *replace_all(char *s, const char *from, const char *to)
{
	struct buf b = {0};
	size_t n = strlen(from);
	const char *p = s;
	for (const char *hit; (hit = strstr(p, from)); p = hit + n) {
		buf_add(&b, p, (size_t)(hit - p));
		buf_adds(&b, to);
	}
	buf_adds(&b, p);
	free(s);
	return b.data;
}

/* Instructions: 1 with *out, or 0 when body is not one. */
static int code(int nasm, const char *indent, const char *op, const char *rest, const char *body, char **out)
{
	for (size_t i = 0; i < sizeof near_jumps / sizeof *near_jumps; i++) {
		if (strcmp(op, near_jumps[i].op) || strncmp(rest, "near ", 5))
			continue;
		const char *target = rest + strlen("near "), *e = symbol_end(target, 1);
		if (!e || *e)
			break;
		/* A jump with a rel32 whatever the distance. GAS has no such operand
		 * that Rust's global_asm! accepts ("{disp32}" is a format argument
		 * there), so it gets the bytes: the opcode, then the displacement
		 * from the end of the instruction. */
		*out = nasm ? xasprintf("%s%s", indent, body)
			    : xasprintf("%s.byte   %s\n%s.long   %s - . - 4", indent, near_jumps[i].bytes, indent, target);
		return 1;
	}
	if (!asm_mnemonic(op) || strpbrk(rest, "%$`\"'"))
		return 0;
	if (nasm) {
		*out = xasprintf("%s%s", indent, body);
		return 1;
	}
	/* GAS's Intel syntax names rip, and wants "ptr" after an operand size
	 * (byte, word, dword, qword, xmmword...). */
	char *g = replace_all(xstrdup(body), "[rel ", "[rip + ");
	g = replace_all(g, "word [", "word ptr [");
	g = replace_all(g, "byte [", "byte ptr [");
	*out = xasprintf("%s%s", indent, g);
	free(g);
	return 1;
}

/* One statement (body: no comment, trimmed, not empty) in syntax; NULL
 * after asm_fail. Linux's back-end is GAS's but for what it writes itself. */
static char *statement(struct asm_state *st, enum asm_syntax syntax, const char *indent, const char *body)
{
	char *out = NULL;
	if (syntax == ASM_LINUX) {
		if (asm_linux_statement(st, indent, body, &out))
			return out;
		syntax = ASM_GAS;
	}
	if (asm_label(body))
		return xstrdup(body);
	const char *rest;
	char *op = asm_split(body, &rest);
	int nasm = syntax == ASM_NASM;
	if (!symbols(st, nasm, indent, op, rest, &out) && !layout(st, nasm, indent, op, rest, &out) &&
	    !code(nasm, indent, op, rest, body, &out))
		asm_fail(st, "not neutral assembly: '%s'", body);
	free(op);
	return out;
}

char *asm_statement(struct asm_state *st, const char *indent, const char *body)
{
	return statement(st, st->syntax, indent, body);
}

char *asm_gas_statement(struct asm_state *st, const char *indent, const char *body)
{
	return statement(st, ASM_GAS, indent, body);
}
