/* The words of a neutral statement, and the records of the state the
 * back-ends share (asm_backend.h): its error, its exports. */
#include "asm_backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
const char *asm_symbol_end(const char *s, int dot_first)
{
	int c = (unsigned char)*s;
	if (!(asm_alpha(c) || c == '_' || (dot_first && c == '.')))
		return NULL;
	return s + 1 + asm_word_span(s + 1);
}

int asm_is_symbol(const char *s)
{
	const char *e = asm_symbol_end(s, 0);
	return e && !*e;
}

/* 1 when s is a digit, then digits and characters of also: with also "",
 * a number; with ", ", a list of numbers. */
int asm_is_numbers(const char *s, const char *also)
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
char **asm_split_args(const char *s, size_t *n)
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

void asm_free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}
