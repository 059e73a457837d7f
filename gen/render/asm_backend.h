/* What the back-ends of the neutral assembly share, private to them: the
 * state of one file's rendering and its records (asm_words.c), the
 * statements of each back-end (NASM and GAS in asm_statement.c, Linux's
 * in asm_linux.c), which the line loop of asm_syntax.c calls, and the
 * character classes of the grammar. */
#ifndef UARCHGEN_ASM_BACKEND_H
#define UARCHGEN_ASM_BACKEND_H

#include "asm_syntax.h"

#include <stddef.h>

/* A name exported with func or object (kind), in the order first seen. */
struct asm_export {
	char *name;
	const char *kind; /* "func" or "object" */
};

struct asm_state {
	enum asm_syntax syntax;
	const char *where; /* "NAME: output line N: ", the start of the line's errors */
	char *error;       /* set once a statement fails */
	char **open;       /* what the next endfunc/endobject closes */
	size_t n_open;
	struct asm_export *exported;
	size_t n_exported;
	char **marks; /* the names mark defined, in the order seen */
	size_t n_marks;
	/* Linux only: */
	char **named; /* labels func and entry wrote themselves */
	size_t n_named;
	char *local_fn; /* the entry open, ended by the next func, entry or section */
	char *fixup;    /* inside access..endaccess: where a fault goes */
	int n_extable;
};

/* Sets st->error to where, then the message; returns NULL. */
char *asm_fail(struct asm_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records name as exported with kind; a second export of it changes the kind. */
void asm_export(struct asm_state *st, const char *name, const char *kind);

/* The kind name was exported with, or NULL. */
const char *asm_exported(const struct asm_state *st, const char *name);

/* body, one statement (no comment, trimmed, not empty), as NASM writes
 * it where st->syntax is NASM's, else as GAS does (asm_syntax.c gives
 * Linux's back-end its own statements first); NULL after asm_fail. */
char *asm_statement(struct asm_state *st, const char *indent, const char *body);

/* body as GAS writes it, which Linux's back-end builds on; NULL after
 * asm_fail. */
char *asm_gas_statement(struct asm_state *st, const char *indent, const char *body);

/* One statement as Linux writes it: 1 and *out, or 0 when it is GAS's,
 * or -1 after asm_fail. */
int asm_linux_statement(struct asm_state *st, const char *indent, const char *body, char **out);

/* The line that ends the local function open, or NULL when none is. */
char *asm_linux_close(struct asm_state *st, const char *indent);

/* The frame and data statements (asm_data.c): 1 with *out (NULL after
 * asm_fail), or 0 when op is none of them or its operands do not fit it. */
int asm_layout(struct asm_state *st, int nasm, const char *indent, const char *op, const char *rest, char **out);

/* The end of the symbol that starts at s ([a-zA-Z_][a-zA-Z0-9_.]*, or a '.'
 * first too with dot_first), or NULL when none does. */
const char *asm_symbol_end(const char *s, int dot_first);
int asm_is_symbol(const char *s);

/* 1 when s is a digit, then digits and characters of also: with also "",
 * a number; with ", ", a list of numbers. */
int asm_is_numbers(const char *s, const char *also);

/* The comma-separated items of s, trimmed (asm_words.c says more), and
 * their release. */
char **asm_split_args(const char *s, size_t *n);
void asm_free_list(char **list, size_t n);

/* The statement's first word (its mnemonic or directive), up to the first
 * space, as a new string; *rest: what follows it and its spaces. */
char *asm_split(const char *body, const char **rest);

/* The character classes of Lua patterns the grammar was first written in
 * (%s, %a, %d, %w in the C locale), so that what a line may hold does not
 * depend on the locale. */
static inline int asm_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static inline int asm_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline int asm_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* A character of a symbol after its first: letter, digit, '_' or '.'. */
static inline int asm_word(int c)
{
	return asm_alpha(c) || asm_digit(c) || c == '_' || c == '.';
}

/* The length of the run of symbol characters at s. */
static inline size_t asm_word_span(const char *s)
{
	size_t n = 0;
	while (asm_word((unsigned char)s[n]))
		n++;
	return n;
}

/* 1 when op is a mnemonic: a lower-case letter, then lower-case letters
 * and digits. */
static inline int asm_mnemonic(const char *op)
{
	if (!(*op >= 'a' && *op <= 'z'))
		return 0;
	for (op++; *op; op++)
		if (!((*op >= 'a' && *op <= 'z') || asm_digit(*op)))
			return 0;
	return 1;
}

/* 1 when body is a label: symbol characters, then ':'. */
static inline int asm_label(const char *body)
{
	size_t n = asm_word_span(body);
	return n && body[n] == ':' && !body[n + 1];
}

#endif
