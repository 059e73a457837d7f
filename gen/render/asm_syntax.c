/* The line loop every back-end of the neutral assembly (asm_syntax.h)
 * shares: the comments, the exceptions blocks, the jumps to the next
 * statement left out, and the check of the flavor's routine list. The
 * statements are asm_statement.c's and asm_linux.c's. */
#include "asm_syntax.h"

#include "asm_backend.h"

#include <stdlib.h>
#include <string.h>

const struct asm_output asm_outputs[] = {
	{ASM_NASM, ".asm", 0},
	{ASM_GAS, ".S", 0},
	{ASM_LINUX, "_linux.S", 1},
};
const size_t asm_n_outputs = sizeof asm_outputs / sizeof *asm_outputs;

/* A comment in syntax. In GAS's, a "*" "/" of the text would end it early:
 * it becomes "* /". */
static void add_comment(struct buf *b, enum asm_syntax syntax, const char *text)
{
	if (syntax == ASM_NASM) {
		buf_printf(b, ";%s", text);
		return;
	}
	buf_adds(b, "/*");
	for (const char *p = text; *p; p++) {
		if (p[0] == '*' && p[1] == '/')
			buf_adds(b, "* /"), p++;
		else
			buf_add(b, p, 1);
	}
	buf_adds(b, " */");
}

/* The exceptions blocks. skip: -1 outside one, else whether this block is
 * left out. 1 when the line is not written (a block's mark, or a line of a
 * block left out), 0 when it is, -1 after asm_fail. */
static int exceptions(struct asm_state *st, const char *body, int *skip)
{
	const char *model = st->syntax == ASM_LINUX ? "extable" : "ranges";
	const char *m = NULL, *e = NULL;
	if (strncmp(body, "exceptions", 10) == 0 && asm_space((unsigned char)body[10])) {
		for (m = body + 10; asm_space((unsigned char)*m); m++)
			;
		for (e = m; asm_alpha((unsigned char)*e); e++)
			;
	}
	if (m && e > m && !*e) {
		if (*skip >= 0)
			return asm_fail(st, "exceptions inside exceptions"), -1;
		if (strcmp(m, "ranges") && strcmp(m, "extable"))
			return asm_fail(st, "exceptions: no model '%s'", m), -1;
		*skip = strcmp(m, model) != 0;
		return 1;
	}
	if (strcmp(body, "endexceptions") == 0) {
		if (*skip < 0)
			return asm_fail(st, "endexceptions closes nothing"), -1;
		*skip = -1;
		return 1;
	}
	return *skip > 0;
}

/* Renders one line (len bytes at s) onto out; a comment after a statement
 * keeps its column where it can. Nonzero after asm_fail. */
/* body (a statement: no comment, trimmed, not empty) as st's syntax
 * writes it; NULL after asm_fail. Linux's back-end is GAS's but for what
 * it writes itself. */
static char *render_statement(struct asm_state *st, const char *indent, const char *body)
{
	char *out = NULL;
	if (st->syntax == ASM_LINUX && asm_linux_statement(st, indent, body, &out))
		return out;
	return asm_statement(st, indent, body);
}

static int render_line(struct asm_state *st, const char *s, size_t len, int *skip, struct buf *out, size_t *n_out)
{
	/* A statement is a C string here: a NUL byte would cut it short unseen. */
	if (memchr(s, '\0', len))
		return asm_fail(st, "not neutral assembly: a NUL byte"), 1;
	char *code = xasprintf("%.*s", (int)len, s), *note = strchr(code, ';');
	if (note)
		*note++ = '\0';
	size_t n = strlen(code), from = 0, to = n;
	while (asm_space((unsigned char)code[from]))
		from++;
	while (to > from && asm_space((unsigned char)code[to - 1]))
		to--;
	char *indent = xasprintf("%.*s", (int)from, code), *body = xasprintf("%.*s", (int)(to - from), code + from);
	int rc = exceptions(st, body, skip);
	char *rendered = rc || !*body ? NULL : render_statement(st, indent, body);
	if (!rc && (rendered || !*body)) {
		struct buf line = {0};
		buf_adds(&line, note && !*body ? code : rendered ? rendered : "");
		if (note && *body) {
			const char *last = strrchr(line.data, '\n');
			long pad = (long)n - (long)strlen(last ? last + 1 : line.data);
			buf_printf(&line, "%*s", pad > 1 ? (int)pad : 1, "");
		}
		if (note)
			add_comment(&line, st->syntax, note);
		buf_printf(out, "%s\n", line.data);
		buf_free(&line);
		(*n_out)++;
	}
	free(rendered);
	free(indent);
	free(body);
	free(code);
	return rc < 0 || st->error != NULL;
}

/* A line of the neutral text: len bytes at s, without the newline. */
struct line {
	const char *s;
	size_t len;
};

/* The lines of text: a last one without a newline is one too, and an empty
 * text is one empty line. */
static struct line *split_lines(const char *text, size_t len, size_t *n)
{
	struct line *lines = NULL;
	*n = 0;
	for (size_t at = 0; at < len || (len == 0 && *n == 0);) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		lines = xrealloc(lines, (*n + 1) * sizeof *lines);
		lines[(*n)++] = (struct line){text + at, end - at};
		at = end + 1;
	}
	return lines;
}

/* The statement of a line, what precedes its comment, trimmed: *len bytes
 * at the pointer returned. */
static const char *statement_of(struct line l, size_t *len)
{
	const char *semi = memchr(l.s, ';', l.len);
	const char *a = l.s, *b = semi ? semi : l.s + l.len;
	while (a < b && asm_space((unsigned char)*a))
		a++;
	while (b > a && asm_space((unsigned char)b[-1]))
		b--;
	*len = (size_t)(b - a);
	return a;
}

/* The target of "jmp L" or "jmp near L" (*len bytes at the pointer
 * returned), or NULL when the statement (n bytes at s) is not one. */
static const char *jump_target(const char *s, size_t n, size_t *len)
{
	if (n < 4 || memcmp(s, "jmp", 3) || !asm_space((unsigned char)s[3]))
		return NULL;
	const char *end = s + n, *p = s + 3, *t;
	for (int near = 0; near < 2; near++) {
		while (p < end && asm_space((unsigned char)*p))
			p++;
		for (t = p; t < end && asm_word((unsigned char)*t); t++)
			;
		if (t > p && t == end) {
			*len = (size_t)(t - p);
			return p;
		}
		if (near || end - p < 5 || memcmp(p, "near", 4) || !asm_space((unsigned char)p[4]))
			return NULL;
		p += 4;
	}
	return NULL;
}

/* Leaves out every "jmp L" whose next statement is "L:": a tree whose last
 * leaf goes to the copy laid out after it falls through (a taken jump less
 * on that path). A comment-only line in between stays. */
static void drop_jumps_to_next(struct line *lines, size_t *n)
{
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++) {
		size_t len, target_len;
		const char *st = statement_of(lines[i], &len), *target = jump_target(st, len, &target_len);
		int drop = 0;
		for (size_t j = i + 1; target && j < *n; j++) {
			const char *next = statement_of(lines[j], &len);
			if (!len)
				continue;
			drop = len == target_len + 1 && memcmp(next, target, target_len) == 0 && next[target_len] == ':';
			break;
		}
		if (!drop)
			lines[kept++] = lines[i];
	}
	*n = kept;
}

/* What the end of the file must close: nonzero after asm_fail. */
static int finish(struct asm_state *st, int skip, struct buf *out, size_t *n_out)
{
	if (skip >= 0)
		return asm_fail(st, "exceptions is never closed (endexceptions)"), 1;
	char *end = st->syntax == ASM_LINUX ? asm_linux_close(st, "        ") : NULL;
	if (end) {
		buf_printf(out, "%s\n", end);
		(*n_out)++;
		free(end);
	}
	if (st->n_open)
		return asm_fail(st, "%s is never closed (endfunc/endobject)", st->open[0]), 1;
	return 0;
}

/* Every routine listed is exported as a function, and every function
 * exported under the prefix is listed. Nonzero after asm_fail. */
static int check_routines(struct asm_state *st, const char *prefix, const struct asm_routine *r, size_t n)
{
	size_t prefix_len = strlen(prefix);
	for (size_t i = 0; i < n; i++) {
		/* The shared fault exit belongs to the ranges model only. */
		if (st->syntax == ASM_LINUX && r[i].kind && strcmp(r[i].kind, "fault_exit") == 0)
			continue;
		char *sym = xasprintf("%s%s", prefix, r[i].name);
		const char *kind = asm_exported(st, sym);
		free(sym);
		if (!kind || strcmp(kind, "func"))
			return asm_fail(st, "the flavor lists routine %s, which this file does not export", r[i].name), 1;
	}
	for (size_t e = 0; e < st->n_exported; e++) {
		const char *sym = st->exported[e].name;
		int listed = 0;
		if (strcmp(st->exported[e].kind, "func") || strncmp(sym, prefix, prefix_len))
			continue;
		for (size_t i = 0; i < n && !listed; i++)
			listed = strcmp(sym + prefix_len, r[i].name) == 0;
		if (!listed)
			return asm_fail(st, "exports %s, which is not in the flavor's routine list", sym), 1;
	}
	return 0;
}

static void free_state(struct asm_state *st)
{
	for (size_t i = 0; i < st->n_open; i++)
		free(st->open[i]);
	for (size_t i = 0; i < st->n_exported; i++)
		free(st->exported[i].name);
	for (size_t i = 0; i < st->n_named; i++)
		free(st->named[i]);
	for (size_t i = 0; i < st->n_marks; i++)
		free(st->marks[i]);
	free(st->marks);
	free(st->open);
	free(st->exported);
	free(st->named);
	free(st->local_fn);
	free(st->fixup);
	free(st->error);
}

int asm_render(const char *neutral, size_t len, enum asm_syntax syntax, const char *name, const char *prefix,
	       const struct asm_routine *routines, size_t n_routines, struct buf *out)
{
	struct asm_state st = {.syntax = syntax};
	size_t n_lines, n_out = 0;
	struct line *lines = split_lines(neutral, len, &n_lines);
	drop_jumps_to_next(lines, &n_lines);
	struct buf text = {0};
	int skip = -1, rc = 0;
	for (size_t i = 0; i < n_lines && !rc; i++) {
		char *where = xasprintf("%s: output line %zu: ", name, i + 1);
		st.where = where;
		rc = render_line(&st, lines[i].s, lines[i].len, &skip, &text, &n_out);
		free(where);
	}
	char *where = xasprintf("%s: ", name);
	st.where = where;
	rc = rc || finish(&st, skip, &text, &n_out) || check_routines(&st, prefix, routines, n_routines);
	if (rc)
		err("%s", st.error);
	else if (n_out)
		buf_add(out, text.data, text.len);
	else
		buf_adds(out, "\n"); /* no line, and the last one's newline */
	free(where);
	buf_free(&text);
	free(lines);
	free_state(&st);
	return rc ? EXIT_FAIL : 0;
}
