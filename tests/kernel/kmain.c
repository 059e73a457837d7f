/* A minimal x86-64 kernel that uses out/ as a kernel would: vendored by
 * copying (build/kernel/vendor/), the rule installed from CPUID at boot and
 * logged, then the generated tests run in ring 0 (only the groups
 * RING0_GROUPS names, where it is defined), then every strategy this CPU
 * runs, forced in turn (strategies.c). It reports on COM1 and leaves QEMU
 * through isa-debug-exit (status 1 when every test passed), or Bochs
 * through its shutdown port. */
#include "strategies.h"
#include "vendor/copy_rule.h"
#include "vendor/tests/rule_tests.h"

#include <stddef.h>
#include <stdint.h>

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ __volatile__("outb %0, %1" ::"a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ __volatile__("outl %0, %1" ::"a"(v), "Nd"(port));
}

#define COM1 0x3f8

static void serial_init(void)
{
	outb(COM1 + 1, 0x00); /* no interrupts */
	outb(COM1 + 3, 0x80); /* divisor follows */
	outb(COM1 + 0, 0x01); /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03); /* 8N1 */
	outb(COM1 + 2, 0xc7);
}

static void put(const char *s)
{
	for (; *s; s++) {
		while (!(inb(COM1 + 5) & 0x20))
			;
		outb(COM1, (uint8_t)*s);
	}
}

static void put_uint(unsigned long v, int base)
{
	char digits[24];
	char one[2] = {0, 0};
	int n = 0;
	do
		digits[n++] = "0123456789abcdef"[v % (unsigned long)base];
	while ((v /= (unsigned long)base) != 0);
	if (base == 16)
		put(n < 2 ? "0x0" : "0x");
	while (n > 0) {
		one[0] = digits[--n];
		put(one);
	}
}

/* What a kernel provides: the compiler may call these for its own copies. */
void *memcpy(void *dst, const void *src, size_t n)
{
	return uc_memcpy(dst, src, n);
}

void *memset(void *dst, int c, size_t n)
{
	volatile unsigned char *d = dst;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

static void report(void *cookie, const char *group, const char *test, int ok, const char *detail)
{
	(void)cookie;
	if (ok)
		return;
	put("FAIL ");
	put(group);
	put(": ");
	put(test);
	put(": ");
	put(detail);
	put("\n");
}

static unsigned char work[UC_TEST_ARENA] __attribute__((aligned(4096)));
static unsigned char expect[UC_TEST_ARENA] __attribute__((aligned(4096)));

static void put_cpuid(void)
{
	struct uc_cpuid id;
	char vendor[13];
	unsigned int family, model;
	uc_cpuid_read(&id);
	for (int i = 0; i < 12; i++)
		vendor[i] = (char)(id.vendor[i / 4] >> (8 * (i % 4)));
	vendor[12] = '\0';
	uc_cpuid_family_model(id.signature, &family, &model);
	put("cpuid: ");
	put(vendor);
	put(" family ");
	put_uint(family, 16);
	put(" model ");
	put_uint(model, 16);
	put("\n");
}

/* The test kernel's text poke: its pages are mapped writable (boot.S),
 * and one CPU runs, which fetches what it stored before the next jump
 * (Intel SDM vol. 3A, 8.1.3). */
void kernel_poke(void *addr, const void *bytes, uc_size_t len)
{
	volatile unsigned char *to = addr;
	const unsigned char *from = bytes;
	while (len--)
		*to++ = *from++;
}

void kmain(void)
{
	/* The longest table, MAX_BANDS bands of full-width bounds, fits. */
	char line[1024];
	serial_init();
	put_cpuid();
	const struct uc_rule *rule = uc_rule_init();
	int patched = uc_rule_patch(kernel_poke);
	uc_rule_describe(line, sizeof line, rule);
	put(line);
	put("\n");
	put("routines: ");
	put(uc_rule_routines());
	put(patched == 0 ? " (entries patched)\n" : " FAIL: uc_rule_patch refused\n");

	put("vector isa: ");
	put_uint((unsigned long)UC_ISA_ENABLED(), 10);
	put(" (0 general registers, 1 AVX2, 2 AVX-512)\n");

	struct uc_test_ctx t = {work, expect, report, 0, 0, patched != 0, kernel_poke};
#ifdef RING0_GROUPS
	static const char *const groups[] = {RING0_GROUPS, 0};
	for (const char *const *g = groups; *g; g++)
		uc_rule_tests_run(&t, *g);
#else
	uc_rule_tests_run(&t, NULL);
#endif
	strategies_run(work, sizeof work, put, &t.passed, &t.failed);
	put("ring 0: ");
	put_uint(t.passed, 10);
	put(" passed, ");
	put_uint(t.failed, 10);
	put(" failed\n");
	outl(0xf4, t.failed ? 1 : 0); /* QEMU exits with (value << 1) | 1 */
	while (!(inb(COM1 + 5) & 0x40)) /* the line is idle: the report is out */
		;
	/* Bochs leaves when its shutdown port, 8900h, receives "Shutdown" (the
	 * port its BIOS uses for APM power-off); QEMU has left already. */
	for (const char *p = "Shutdown"; *p; p++)
		outb(0x8900, (uint8_t)*p);
	for (;;)
		__asm__ __volatile__("cli; hlt");
}
