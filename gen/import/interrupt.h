/* Ctrl-C (SIGINT), SIGTERM or SIGHUP during an import (interrupt.c): the
 * import stops at its next step and removes what it wrote, as the probe
 * does, instead of dying with its hidden evidence folder left behind. */
#ifndef UARCHGEN_INTERRUPT_H
#define UARCHGEN_INTERRUPT_H

/* From here on a signal is noted, not fatal. */
void interrupt_catch(void);

/* Nonzero once a signal came. */
int interrupt_came(void);

#endif
