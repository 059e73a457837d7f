/* The copies the benchmark times, side by side, and how it times them. */
#ifndef BENCH_ROUTINES_H
#define BENCH_ROUTINES_H

#include "../common/timer.h"

#include <stddef.h>

/* One rep movsb, as a kernel's plain memcpy would be: the baseline. */
void *rep_movsb(void *dst, const void *src, size_t n);

/* The C library's memcpy and memmove, called through these pointers. */
extern copy_fn const libc_copy;
extern copy_fn const libc_move;

/* The generated routine of each strategy code (UC_STRATEGY_*), and its name. */
copy_fn strategy_routine(int code);
const char *strategy_label(int code);

/* 1 when strategy code is timed at length n: the flavor exports its
 * routine, it copies n bytes, and this CPU and its OS enable its isa. */
int strategy_timed(int code, size_t n);

#endif
