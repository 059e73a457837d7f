#include "machine.h"

#include "../common/text.h"

#include <cpuid.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

/* CPUID, as the compiler's <cpuid.h> executes it: the probe carries several
 * flavors, and reads the CPU once, for all of them. */
static void cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	__cpuid_count(leaf, subleaf, regs[0], regs[1], regs[2], regs[3]);
}

/* One printable line of at most ARCHIVE_TEXT_MAX bytes, or "unknown". */
static void keep(char *out, const char *s)
{
	snprintf(out, ARCHIVE_TEXT_MAX + 1, "%s", s);
	out[strcspn(out, "\n")] = '\0';
	text_sanitize(out);
	if (text_problem(out))
		strcpy(out, "unknown");
}

static int read_line(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(out, (int)size, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

/* /proc/cpuinfo's "microcode : 0x..." line, of the first CPU. */
static void microcode(char *out)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");
	keep(out, "unknown");
	while (f && fgets(line, sizeof line, f)) {
		if (strncmp(line, "microcode", 9) == 0 && strchr(line, ':')) {
			const char *v = strchr(line, ':') + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			keep(out, v);
			break;
		}
	}
	if (f)
		fclose(f);
}

void machine_read(struct run_archive *a)
{
	cpuid_read_all(&a->cpuid, cpuid);
	struct cpu_info c;
	cpu_decode(&a->cpuid, &c);
	keep(a->hypervisor, c.guest ? c.hypervisor : "none");

	struct utsname u;
	char text[4 * 65 + 4];
	if (uname(&u) == 0) {
		snprintf(text, sizeof text, "%s %s %s %s", u.sysname, u.release, u.version, u.machine);
		keep(a->kernel, text);
	} else {
		keep(a->kernel, "unknown");
	}
	microcode(a->microcode);
	/* DMI names the platform; a hypervisor that hides CPUID's hypervisor
	 * bit usually still names itself here. */
	char vendor[100], product[100];
	if (read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof vendor) == 0 &&
	    read_line("/sys/class/dmi/id/product_name", product, sizeof product) == 0) {
		snprintf(text, sizeof text, "%s / %s", vendor, product);
		keep(a->platform, text);
	} else {
		keep(a->platform, "unknown");
	}
}
