/* make bench: the text the compressor it times works on, made where it
 * runs: words of a made-up vocabulary, each drawn with a probability
 * falling as 1/rank as words in natural text do (Zipf's law), in lines
 * and paragraphs, with numbers among them. The same bytes for the same
 * size on every machine. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WORDS = 8192 };

static uint64_t next(uint64_t *state)
{
	/* splitmix64 (Steele, Lea and Flood, OOPSLA 2014). */
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* A uniform number in [0, 1). */
static double unit(uint64_t *state)
{
	return (double)(next(state) >> 11) / 9007199254740992.0;
}

/* The vocabulary: words of one to four syllables. */
static void make_words(char words[WORDS][16], uint64_t *state)
{
	static const char *const syllables[] = {"a",  "an", "ar", "be", "ca", "de", "di", "el", "en", "fo",
						"ga", "he", "in", "is", "ka", "le", "lo", "ma", "me", "ne",
						"no", "on", "or", "pa", "pe", "qu", "ra", "re", "ri", "sa",
						"se", "st", "ta", "te", "th", "ti", "to", "un", "ve", "wi"};
	enum { SYLLABLES = sizeof syllables / sizeof *syllables };
	for (int w = 0; w < WORDS; w++) {
		int parts = 1 + (int)(next(state) % 4);
		words[w][0] = 0;
		for (int p = 0; p < parts; p++)
			strcat(words[w], syllables[next(state) % SYLLABLES]);
	}
}

int main(int argc, char **argv)
{
	long mib = argc == 3 ? atol(argv[2]) : 0;
	if (mib < 1 || mib > 4096) {
		fprintf(stderr, "usage: bench-corpus FILE MIB   (writes MIB MiB of generated text, 1..4096)\n");
		return 2;
	}
	FILE *out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	static char words[WORDS][16];
	uint64_t state = 0x636f72707573u;
	make_words(words, &state);
	long long left = mib << 20;
	int column = 0;
	while (left > 0) {
		/* Rank r with probability about 1/r: e^(u ln WORDS) - 1. */
		int rank = (int)exp(unit(&state) * log(WORDS)) - 1;
		char piece[32];
		int len = next(&state) % 23 == 0 ? snprintf(piece, sizeof piece, "%u", (unsigned)(next(&state) % 100000))
						 : snprintf(piece, sizeof piece, "%s", words[rank]);
		const char *sep = column + len > 72 ? (next(&state) % 9 == 0 ? ".\n\n" : "\n") : " ";
		left -= fprintf(out, "%s%s", piece, sep);
		column = sep[0] == ' ' ? column + len + 1 : 0;
	}
	if (fclose(out)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
