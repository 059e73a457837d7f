/* The run archive's lines, read one at a time by archive.c: each error
 * names the line it met. */
#ifndef DERIVE_ARCHIVE_CURSOR_H
#define DERIVE_ARCHIVE_CURSOR_H

#include <stddef.h>

struct cursor {
	const char *p, *end;
	int line;
	char *why;
	size_t why_size;
};

/* Writes "line N: " and the message into c->why; returns -1. */
int cursor_fail(struct cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The next line, without its newline, into out (NUL-terminated). */
int cursor_next_line(struct cursor *c, char *out, size_t size);

/* A line of the dispatch's and the trials' at the end of the body: where
 * the body ends already, an empty one, so that its parser says which line
 * is missing. */
int cursor_trailing_line(struct cursor *c, char *out, size_t size);

/* "KEY VALUE": the value after the key, or NULL after failing. */
const char *cursor_keyed(struct cursor *c, char *line, size_t size, const char *key);

/* s as a whole number in lo..hi, into *out; what names it in the error. */
int cursor_int(struct cursor *c, const char *s, const char *what, long lo, long hi, long *out);

/* "KEY TEXT", the text checked (common/text.h) and at most
 * ARCHIVE_TEXT_MAX bytes, copied into out. */
int cursor_text_field(struct cursor *c, char *line, size_t size, const char *key, char *out);

#endif
