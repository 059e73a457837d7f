/* The run archive's lines, read one at a time (archive_cursor.h). */
#include "archive_cursor.h"
#include "archive.h"

#include "../common/text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cursor_fail(struct cursor *c, const char *fmt, ...)
{
	int n = snprintf(c->why, c->why_size, "line %d: ", c->line);
	va_list ap;
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < c->why_size)
		vsnprintf(c->why + n, c->why_size - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* The next line, without its newline, into out (NUL-terminated). */
int cursor_next_line(struct cursor *c, char *out, size_t size)
{
	c->line++;
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	if (!nl)
		return cursor_fail(c, "the archive ends early");
	size_t n = (size_t)(nl - c->p);
	if (n >= size)
		return cursor_fail(c, "a line of %zu bytes, longer than any this format has", n);
	if (memchr(c->p, '\0', n))
		return cursor_fail(c, "a NUL byte");
	memcpy(out, c->p, n);
	out[n] = '\0';
	c->p = nl + 1;
	return 0;
}

/* A line of the dispatch's and the trials' at the end of the body: where
 * the body ends already, an empty one, so that its parser says which line
 * is missing. */
int cursor_trailing_line(struct cursor *c, char *out, size_t size)
{
	if (c->p == c->end) {
		c->line++, out[0] = '\0';
		return 0;
	}
	return cursor_next_line(c, out, size);
}

/* "KEY VALUE": the value after the key, or NULL after failing. */
const char *cursor_keyed(struct cursor *c, char *line, size_t size, const char *key)
{
	if (cursor_next_line(c, line, size))
		return NULL;
	size_t k = strlen(key);
	if (strncmp(line, key, k) != 0 || line[k] != ' ') {
		cursor_fail(c, "expected '%s ...', found '%.40s'", key, line);
		return NULL;
	}
	return line + k + 1;
}

int cursor_int(struct cursor *c, const char *s, const char *what, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi || (*s != '-' && (*s < '0' || *s > '9')))
		return cursor_fail(c, "%s '%.40s' is not a whole number in %ld..%ld", what, s, lo, hi);
	*out = v;
	return 0;
}

int cursor_text_field(struct cursor *c, char *line, size_t size, const char *key, char *out)
{
	const char *v = cursor_keyed(c, line, size, key);
	if (!v)
		return -1;
	const char *problem = text_problem(v);
	if (problem)
		return cursor_fail(c, "%s: %s", key, problem);
	if (strlen(v) > ARCHIVE_TEXT_MAX)
		return cursor_fail(c, "%s: longer than %d bytes", key, ARCHIVE_TEXT_MAX);
	strcpy(out, v);
	return 0;
}
