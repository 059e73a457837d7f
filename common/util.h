/* Small helpers shared by uarchgen and the probe: errors, memory, growable text. */
#ifndef UARCHGEN_UTIL_H
#define UARCHGEN_UTIL_H

#include <stdarg.h>
#include <signal.h>
#include <stddef.h>

/* Exit statuses: 0 success, 1 failure (bad data, drift, I/O), 2 usage. */
enum { EXIT_FAIL = 1, EXIT_USAGE = 2 };

void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

struct buf {
	char *data;
	size_t len, cap;
};

void buf_add(struct buf *b, const char *s, size_t n);
void buf_adds(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_free(struct buf *b);

/* Reads a whole file; NULL (errno set) when it cannot. */
char *read_file(const char *path, size_t *len);

/* Writes a whole file as PATH.tmp.<pid>, then renames it over path: a
 * reader sees the old file or the new one, never a part. -1 (errno set,
 * nothing left behind) when it cannot. */
int write_file_replacing(const char *path, const void *data, size_t len);

/* Holds SIGINT, SIGTERM and SIGHUP until sigprocmask(SIG_SETMASK, old,
 * NULL): what is written meanwhile is finished, or undone, before Ctrl-C
 * stops the program. */
void signals_hold(sigset_t *old);

/* 1 when s is YYYY-MM-DD of a day that exists (from 1970). */
int day_exists(const char *s);

#endif
