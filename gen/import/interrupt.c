#include "interrupt.h"

#include <signal.h>

static volatile sig_atomic_t came;

static void on_signal(int sig)
{
	(void)sig;
	came = 1;
}

void interrupt_catch(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	/* Restarted: a write or the wait for gnuplot finishes, and the step
	 * after it sees the signal. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int interrupt_came(void)
{
	return came;
}
