/* One statement of the neutral assembly (asm_syntax.h) as NASM or GAS
 * writes it (asm_backend.h): the statements that name symbols and the
 * instructions here, the file's frame and data in asm_data.c, the words
 * of a statement in asm_words.c. */
#include "asm_backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The opcodes of the jumps written "near": jmp rel32, and jcc rel32 (0f 8x). */
static const struct {
	const char *op, *bytes;
} near_jumps[] = {
	{"jmp", "0xe9"},        {"jb", "0x0f, 0x82"},  {"jae", "0x0f, 0x83"}, {"jz", "0x0f, 0x84"},
	{"je", "0x0f, 0x84"},   {"jnz", "0x0f, 0x85"}, {"jne", "0x0f, 0x85"}, {"jbe", "0x0f, 0x86"},
	{"ja", "0x0f, 0x87"},
};

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
	if ((func || strcmp(op, "object") == 0) && asm_is_symbol(rest)) {
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
	} else if ((strcmp(op, "entry") == 0 || strcmp(op, "endaccess") == 0) && asm_is_symbol(rest)) {
		*out = xasprintf("%s:", rest);
	} else if (strcmp(op, "access") == 0) {
		const char *e = asm_symbol_end(rest, 0), *fixup = e;
		if (!e || *e != ',')
			return 0;
		for (fixup++; asm_space((unsigned char)*fixup); fixup++)
			;
		const char *f = asm_symbol_end(fixup, 1);
		if (!f || *f)
			return 0;
		*out = xasprintf("%.*s:", (int)(e - rest), rest);
	} else if (strcmp(op, "global") == 0) {
		size_t n;
		char **args = asm_split_args(rest, &n);
		for (size_t i = 0; i < n && !st->error; i++)
			if (!asm_is_symbol(args[i]))
				asm_fail(st, "global: '%s' is not a symbol", args[i]);
		asm_free_list(args, n);
		*out = st->error ? NULL : xasprintf("%s%s  %s", indent, nasm ? "global" : ".globl", rest);
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
		const char *target = rest + strlen("near "), *e = asm_symbol_end(target, 1);
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

/* One statement (body: no comment, trimmed, not empty) as NASM (nasm) or
 * GAS writes it; NULL after asm_fail. */
static char *statement(struct asm_state *st, int nasm, const char *indent, const char *body)
{
	char *out = NULL;
	if (asm_label(body))
		return xstrdup(body);
	const char *rest;
	char *op = asm_split(body, &rest);
	if (!symbols(st, nasm, indent, op, rest, &out) && !asm_layout(st, nasm, indent, op, rest, &out) &&
	    !code(nasm, indent, op, rest, body, &out))
		asm_fail(st, "not neutral assembly: '%s'", body);
	free(op);
	return out;
}

char *asm_statement(struct asm_state *st, const char *indent, const char *body)
{
	return statement(st, st->syntax == ASM_NASM, indent, body);
}

char *asm_gas_statement(struct asm_state *st, const char *indent, const char *body)
{
	return statement(st, 0, indent, body);
}
