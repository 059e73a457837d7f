/* The CPUs the probe may run on (cpus.h). */
#include "cpus.h"

#include <sched.h>

static cpu_set_t allowed;
static int home = -1;

void cpus_settle(void)
{
	CPU_ZERO(&allowed);
	home = sched_getcpu();
	if (home < 0)
		home = 0;
	if (sched_getaffinity(0, sizeof allowed, &allowed) || !CPU_ISSET(home, &allowed)) {
		CPU_ZERO(&allowed);
		CPU_SET(home, &allowed);
	}
	cpus_pin(home);
}

int cpus_home(void)
{
	return home < 0 ? 0 : home;
}

int cpus_timed(int *out)
{
	static int others[CPU_SETSIZE];
	int n = 0, m = 0;
	out[n++] = cpus_home();
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed) && cpu != cpus_home())
			others[m++] = cpu;
	/* Up to CPUS_TIMED_MAX - 1 of the others, evenly spread. */
	int take = m < CPUS_TIMED_MAX - 1 ? m : CPUS_TIMED_MAX - 1;
	for (int k = 0; k < take; k++)
		out[n++] = others[k * m / take];
	return n;
}

int cpus_pin(int cpu)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof one, &one) ? -1 : 0;
}
