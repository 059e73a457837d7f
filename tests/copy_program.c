/* A program that copies with memmove (overlapping) and memcpy and prints
 * three bytes: what the drop-in library's tests (preload.sh, install.sh)
 * link against the library and against the C library alone, and compare. */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char a[300], b[300];
	for (int i = 0; i < 300; i++)
		a[i] = (char)(i * 7);
	memmove(a + 3, a, 280);
	memcpy(b, a, sizeof b);
	printf("%d %d %d\n", b[2], b[3], b[283]);
	return 0;
}
