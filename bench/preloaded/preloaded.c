/* make bench, under LD_PRELOAD=build/libuarchcopy.so: memcpy as a program
 * calls it (the preloaded library, through the PLT) against the C
 * library's own, on the random-size workload and its sorted control, side
 * by side in one run; and where the library's memmove entry jumps, read
 * from its first bytes, so that a test can see which copy a call runs. It
 * reports; it asserts nothing about speed. */
#include "../../common/workload.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const char usage[] =
	"usage: LD_PRELOAD=build/libuarchcopy.so preloaded [--rounds N]\n"
	"\n"
	"Times memcpy as this program calls it (the preloaded libuarchcopy) against the\n"
	"C library's own memcpy, on the random-size workload (glibc bench-memcpy-random's\n"
	"sizes) and the same calls sorted by size, and prints where libuarchcopy's\n"
	"memmove entry jumps (its first instruction, decoded). Each ratio is the median\n"
	"of N rounds' ratios (default and most 61), the two copies timed in turns.\n"
	"Exit status 2 when the library is not preloaded.\n";

/* The object that holds addr, by file name. */
static const char *object_of(const void *addr)
{
	Dl_info info;
	if (!dladdr(addr, &info) || !info.dli_fname)
		return "(no object)";
	const char *slash = strrchr(info.dli_fname, '/');
	return slash ? slash + 1 : info.dli_fname;
}

/* Where the code at p goes first: the target of a jmp rel32 or of a
 * jmp [rip + disp32], after an endbr64; p itself where it is neither. */
static const void *first_jump(const unsigned char *p)
{
	static const unsigned char endbr64[4] = {0xf3, 0x0f, 0x1e, 0xfa};
	if (memcmp(p, endbr64, 4) == 0)
		p += 4;
	int32_t rel;
	if (p[0] == 0xe9) {
		memcpy(&rel, p + 1, 4);
		return p + 5 + rel;
	}
	if (p[0] == 0xff && p[1] == 0x25) {
		void *target;
		memcpy(&rel, p + 2, 4);
		memcpy(&target, p + 6 + rel, sizeof target);
		return target;
	}
	return p;
}

/* The C library's memcpy as a program calls it: through a jump via a
 * pointer, as its PLT entry jumps via the GOT, so that both sides of the
 * ratio pay the same first hop. */
copy_fn libc_memcpy_target; /* global: the jump below names it */
__attribute__((naked)) static void *libc_via_plt(void *dst, const void *src, size_t n)
{
	(void)dst, (void)src, (void)n;
	__asm__("jmp *libc_memcpy_target(%rip)");
}

int main(int argc, char **argv)
{
	int rounds = WORKLOAD_PAIRED_ROUNDS;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0 &&
			   atoi(argv[i + 1]) <= WORKLOAD_PAIRED_ROUNDS) {
			rounds = atoi(argv[++i]);
		} else {
			fprintf(stderr, "preloaded: unknown or incomplete option '%s' (try --help)\n", argv[i]);
			return 2;
		}
	}
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	copy_fn theirs = libc ? (copy_fn)dlsym(libc, "memcpy") : NULL, ours = memcpy;
	void *entry = dlsym(RTLD_DEFAULT, "memmove");
	if (!theirs || !entry || strcmp(object_of(entry), object_of((void *)theirs)) == 0) {
		fprintf(stderr, "preloaded: memcpy is the C library's: run it with LD_PRELOAD=build/libuarchcopy.so\n");
		return 2;
	}
	printf("preloaded: %s's memmove entry jumps to %s\n", object_of(entry), object_of(first_jump(entry)));

	enum { CALLS = WORKLOAD_CALLS, REGION = WORKLOAD_REGION };
	static struct call calls[2][CALLS];
	/* Page-aligned, as make bench's and the probe's arenas are: the
	 * workload's offsets are drawn aligned (to 64 bytes, say) from the
	 * arena's start, which malloc leaves wherever the heap stands in this
	 * process, so that each run copied at other alignments (this ratio
	 * 0.94-1.13 in five runs of one build on a Zen 4 guest, make bench's
	 * vendored one 0.87 in three). */
	unsigned char *arena = mmap(NULL, 2 * REGION + 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		perror("preloaded: mmap");
		return 1;
	}
	memset(arena, 0x5a, 2 * REGION + 8192);
	random_calls(calls[0], CALLS, REGION, 1);
	memcpy(calls[1], calls[0], sizeof calls[0]);
	sort_calls(calls[1], CALLS);
	libc_memcpy_target = theirs;
	/* b over a, the median of per-round ratios (time_paired); ours against
	 * itself is the floor a ratio cannot be read below. */
	const struct call *const streams[2] = {calls[0], calls[1]};
	unsigned char *dst = arena + REGION + 4096 + 2048;
	struct paired p = time_paired(libc_via_plt, ours, dst, arena, streams, CALLS, rounds);
	struct paired self = time_paired(ours, ours, dst, arena, streams, CALLS, rounds);
	printf("preloaded: memcpy / the C library's memcpy, random sizes %.3f, sorted control %.3f (the median of\n"
	       "  %d rounds' ratios, the two timed in turns; memcpy / itself %.3f and %.3f)\n"
	       "  (median ticks per call: random %.1f against %.1f, sorted %.1f against %.1f)\n",
	       p.ratio[0], p.ratio[1], rounds, self.ratio[0], self.ratio[1], p.ticks[1][0], p.ticks[0][0],
	       p.ticks[1][1], p.ticks[0][1]);
	/* The drop-in library's targets: the C library's time, less only the
	 * stub's jump, where the core has no compiled table; no slower than
	 * the C library where it has. */
	int deferred = strcmp(object_of(first_jump(entry)), object_of((void *)theirs)) == 0;
	printf("targets, the drop-in library (%s):\n  %-62s %8.3f   %s\n  %-62s %8.3f   %s\n\n",
	       deferred ? "no compiled table here: the C library's memmove" : "this core's routines",
	       "random sizes, preloaded memcpy / C library", p.ratio[0], deferred ? "<= 1.01" : "<= 1.00",
	       "sorted control, preloaded memcpy / C library", p.ratio[1], deferred ? "<= 1.01" : "<= 1.00");
	munmap(arena, 2 * REGION + 8192);
	return 0;
}
