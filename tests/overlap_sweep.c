/* For tests/preload.sh: memmove where the ranges overlap either way, at
 * lengths from 1 to past 64 KiB and shifts from 1 to 4096 bytes, each
 * against a byte-by-byte reference. Linked statically with
 * build/libuarchcopy.a, it runs the static library's stand-in for the C
 * library's memmove (preload/stand_in.c), which the library's cells of
 * strategy libc and memmove's overlaps reach.
 * usage: overlap_sweep   (prints "N overlaps right" or the first wrong
 *        one, and exits 1) */
#include <stdio.h>
#include <string.h>

enum { MOST = 65536 + 4096 + 64 };
static unsigned char buf[3 * MOST], want[3 * MOST];

/* memmove(buf + at + shift, buf + at, n) as the C standard defines it. */
static void reference(size_t at, long shift, size_t n)
{
	unsigned char tmp[MOST];
	for (size_t i = 0; i < n; i++)
		tmp[i] = want[at + i];
	for (size_t i = 0; i < n; i++)
		want[at + shift + i] = tmp[i];
}

int main(void)
{
	static const size_t lengths[] = {1, 7, 8, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 257, 1000, 4095, 4096,
					 4097, 16384 + 5, 65536, 65536 + 63};
	static const long shifts[] = {1, 3, 8, 31, 32, 63, 64, 65, 127, 4095, 4096};
	int right = 0;
	for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++)
		for (size_t j = 0; j < sizeof shifts / sizeof *shifts; j++)
			for (int sign = -1; sign <= 1; sign += 2) {
				size_t n = lengths[i], at = MOST + 3;
				long shift = sign * shifts[j];
				if ((size_t)shifts[j] >= n)
					continue;
				for (size_t k = 0; k < sizeof buf; k++)
					buf[k] = want[k] = (unsigned char)(k * 7 + k / 251);
				memmove(buf + at + shift, buf + at, n);
				reference(at, shift, n);
				if (memcmp(buf, want, sizeof buf) != 0) {
					printf("memmove of %zu bytes, the destination %ld bytes from the source: wrong\n", n,
					       shift);
					return 1;
				}
				right++;
			}
	printf("%d overlaps right\n", right);
	return 0;
}
