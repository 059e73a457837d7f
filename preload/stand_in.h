/* What the static library runs where the shared one runs the C library's
 * memmove (preload/stand_in.c). */
#ifndef PRELOAD_STAND_IN_H
#define PRELOAD_STAND_IN_H

/* Points uc_libc_memmove, which a table's cells of strategy libc and
 * memmove's overlapping copies jump through, at the static library's
 * stand-in, its descending copy the widest loop the installed rule may
 * run; returns that strategy's name. Called once the rule is installed. */
const char *stand_in_install(void);

#endif
