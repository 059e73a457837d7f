/* Prints the SHA-256 of each prefix of a file named by tests/sha256.sh,
 * "LENGTH DIGEST" a line, as common/sha256.c computes it. */
#include "../common/sha256.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: sha256_prefixes FILE LENGTH...\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	static unsigned char data[1 << 21];
	size_t n = fread(data, 1, sizeof data, f);
	fclose(f);
	for (int i = 2; i < argc; i++) {
		size_t len = strtoul(argv[i], NULL, 10);
		char hex[65];
		if (len > n) {
			fprintf(stderr, "sha256_prefixes: %s holds %zu bytes, not %zu\n", argv[1], n, len);
			return 1;
		}
		sha256_hex(data, len, hex);
		printf("%zu %s\n", len, hex);
	}
	return 0;
}
