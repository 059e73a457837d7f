/*
 * The test program of the Linux boot (boot.sh), run as the initramfs's
 * only program after insmod uarchcopy_test.ko: through /dev/uarchcopy
 * (module/uarchcopy_dev.h) it runs memcpy's sweep in the module, then
 * copy_to_user, copy_from_user and clear_user against a user buffer whose
 * tail runs into an unmapped page, with the fault after every byte offset
 * k before the 4 KiB boundary, checking the bytes-not-copied count:
 * n - k where the copy goes forward (rep movsb stops at the first byte it
 * cannot store or load), n on the other paths, which never move rdi
 * (docs/vendoring.md, the user copies' result), 0 where nothing faults.
 * Ends with "N passed, N failed"; exit 1 on any failure.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "copy_rule.h"
#include "uarchcopy_dev.h"

#define PAGE 4096
static int dev, pass, fail;

/* One case: n bytes at user, k of them before the unmapped page. Returns
 * a reason, or NULL. */
static const char *one(unsigned long cmd, unsigned char *user, size_t n, size_t k, size_t koff)
{
	struct uarchcopy_req r = { .user = (unsigned long)user, .n = n, .koff = koff };
	size_t i, copied, want;

	for (i = 0; i < k; i++)
		user[i] = uarchcopy_user_byte((unsigned long)(user + i));
	if (ioctl(dev, cmd, &r) != 0)
		return "ioctl failed";
	int exact = r.strategy == UC_STRATEGY_FORWARD || r.strategy == UC_STRATEGY_FORWARD_ALIGNED;
	want = k >= n ? 0 : exact ? n - k : n;
	if (r.result != want)
		return "wrong bytes-not-copied count";
	copied = n - r.result;
	if (r.bad_prefix)
		return "the kernel side does not hold the user's bytes";
	for (i = 0; cmd != UARCHCOPY_FROM_USER && i < k && i < n; i++) {
		unsigned char now = user[i], before = uarchcopy_user_byte((unsigned long)(user + i));
		unsigned char copy = cmd == UARCHCOPY_CLEAR ? 0 : uarchcopy_kernel_byte(koff + i);
		if (i < copied ? now != copy : exact && now != before)
			return i < copied ? "a copied byte is wrong" : "a byte past the count changed";
	}
	return NULL;
}

/* Every k in 0..min(n, 4096) for one direction and length. */
static void sweep_faults(unsigned long cmd, const char *what, unsigned char *boundary, size_t n)
{
	size_t kmax = n < PAGE ? n : PAGE, k;
	const char *why = NULL;

	for (k = 0; k <= kmax && !why; k++)
		why = one(cmd, boundary - k, n, k, (k * 37) % PAGE);
	if (why) {
		fail++;
		printf("FAIL %s, n = %zu, fault after %zu bytes: %s\n", what, n, k - 1, why);
	} else {
		pass++;
	}
}

int main(void)
{
	static const size_t lens[] = { 1, 8, 31, 32, 33, 64, 255, 300, 4200 };
	static const struct { unsigned long cmd; const char *what; } dirs[] = {
		{ UARCHCOPY_TO_USER, "copy_to_user" },
		{ UARCHCOPY_FROM_USER, "copy_from_user" },
		{ UARCHCOPY_CLEAR, "clear_user" },
	};
	struct uarchcopy_req r = { 0 };
	unsigned char *map;
	size_t d, i;

	dev = open("/dev/uarchcopy", O_RDWR);
	map = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (dev < 0 || map == MAP_FAILED || munmap(map + 2 * PAGE, PAGE) != 0) {
		perror("uctest: /dev/uarchcopy or the user pages");
		return 1;
	}
	if (ioctl(dev, UARCHCOPY_SWEEP, &r) != 0 || r.result != 0) {
		fail++;
		printf("FAIL memcpy sweep: %llu of %llu cases wrong\n", (unsigned long long)r.result,
		       (unsigned long long)r.n);
	} else {
		pass++;
		printf("memcpy sweep: %llu cases\n", (unsigned long long)r.n);
	}
	for (d = 0; d < sizeof dirs / sizeof dirs[0]; d++)
		for (i = 0; i < sizeof lens / sizeof lens[0]; i++)
			sweep_faults(dirs[d].cmd, dirs[d].what, map + 2 * PAGE, lens[i]);
	printf("%d passed, %d failed\n", pass, fail);
	return fail != 0;
}
