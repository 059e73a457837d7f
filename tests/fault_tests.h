/* What the fault tests' sweeps (fault_sweeps.c) use of the handler and the
 * one-copy check that fault_tests.c holds. */
#ifndef TESTS_FAULT_TESTS_H
#define TESTS_FAULT_TESTS_H

#include <stddef.h>

#define PAGE 4096u

enum direction { TO_USER, FROM_USER, CLEAR };
/* SERVE: every user page faults once and is served; REFUSE: the last user
 * page faults and nobody serves it. */
enum mode { SERVE, REFUSE };

/* Where the user side of a copy starts (fault_one): 40 bytes into page 1,
 * unless a sweep puts it across the boundary of pages 1 and 2. */
extern size_t user_start;

/* Counts a case, and prints it with why where it failed. */
void result(const char *name, int ok, const char *why);

/* One copy under the installed rule (fault_tests.c): NULL, or what went
 * wrong (in why, with what the copy returned). */
const char *fault_one(enum direction dir, unsigned int dist, size_t n, enum mode m, char *why, size_t size);

/* The sweeps: each measured table's compiled user copies, and the copies
 * of 32 bytes or less across a page boundary. */
void measured_tables(void);
void short_copies(void);

#endif
