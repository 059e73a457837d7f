#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void err(const char *fmt, ...)
{
	va_list ap;
	fputs("uarchgen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		err("out of memory");
		exit(EXIT_FAIL);
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		err("out of memory");
		exit(EXIT_FAIL);
	}
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, again);
	va_end(again);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->data = xrealloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *tmp = xvasprintf(fmt, ap);
	va_end(ap);
	buf_adds(b, tmp);
	free(tmp);
}

void buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct buf b = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&b, chunk, n);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		buf_free(&b);
		errno = EIO;
		return NULL;
	}
	if (!b.data)
		buf_add(&b, "", 0);
	if (len)
		*len = b.len;
	return b.data;
}

int write_file_replacing(const char *path, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "wb");
	int rc = -1, saved = 0;
	if (f) {
		size_t n = len ? fwrite(data, 1, len, f) : 0;
		saved = n == len ? 0 : errno ? errno : EIO;
		if (fclose(f) != 0 && !saved)
			saved = errno;
		if (!saved && rename(tmp, path) == 0)
			rc = 0;
		else if (!saved)
			saved = errno;
	} else {
		saved = errno;
	}
	if (rc) {
		unlink(tmp);
		errno = saved ? saved : EIO;
	}
	free(tmp);
	return rc;
}

int day_exists(const char *s)
{
	static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int y, mo, d, used = 0;
	if (strlen(s) != 10 || sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &used) != 3 || used != 10 || s[4] != '-' ||
	    s[7] != '-' || y < 1970 || mo < 1 || mo > 12 || d < 1 || d > days[mo - 1])
		return 0;
	return !(mo == 2 && d == 29 && (y % 4 != 0 || (y % 100 == 0 && y % 400 != 0)));
}

void signals_hold(sigset_t *old)
{
	sigset_t block;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, old);
}
