/* For tests/preload.sh: ten memmoves of 64 KiB, the destination 64 bytes
 * above the source ("overlap") or 128 KiB away ("disjoint"), then a
 * checksum of the buffer, which the C library's memmove gives too. With
 * a second argument "memcpy", ten memcpys: the drop-in library's memcpy is
 * its memmove, so an overlapping one copies as memmove does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	enum { N = 65536 };
	static unsigned char buf[4 * N];
	size_t d = argc > 1 && strcmp(argv[1], "overlap") == 0 ? 64 : 2 * N;
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 7 + i / 251);
	void *(*volatile move)(void *, const void *, size_t) = argc > 2 && strcmp(argv[2], "memcpy") == 0 ? memcpy
												      : memmove;
	for (int k = 0; k < 10; k++)
		move(buf + d, buf, N);
	unsigned long sum = 0;
	for (size_t i = 0; i < sizeof buf; i++)
		sum = sum * 31 + buf[i];
	printf("%lx\n", sum);
	return 0;
}
