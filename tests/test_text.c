/* common/text.c: which database text the generator refuses, and the probe's
 * repair of text a CPU reports. Prints N passed, N failed. */
#include "text.h"

#include <stdio.h>
#include <string.h>

static int passed, failed;

static void expect(const char *what, int ok)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAIL %s\n", what);
	}
}

int main(int argc, char **argv)
{
	static const char *const good[] = {
		"AMD 56305 rev. 3.02, \xc2\xa7" "2.12", "Linux arch/x86/include/asm/intel-family.h", "a | b",
		"https://github.com/Japabu/toyos/pull/1139",
	};
	static const char *const bad[] = {
		"x */ int evil; /* y", "/* open", "two\nlines", "tab\there", "esc\x1b[2J", "del\x7f",
		"c1 \xc2\x85 control", "lone \xc3", "overlong \xc0\xaf", "bad \xe2\x82 cut",
	};
	if (argc > 1) {
		printf("usage: %s\nThe database text checks of common/text.c; prints N passed, N failed.\n", argv[0]);
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		char what[160];
		snprintf(what, sizeof what, "good text %zu is accepted", i);
		expect(what, text_problem(good[i]) == NULL);
	}
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char what[160], copy[64];
		snprintf(what, sizeof what, "bad text %zu is refused", i);
		expect(what, text_problem(bad[i]) != NULL);
		/* The probe's repair makes it acceptable, keeping its length. */
		snprintf(copy, sizeof copy, "%s", bad[i]);
		text_sanitize(copy);
		snprintf(what, sizeof what, "bad text %zu, sanitized, is accepted", i);
		expect(what, text_problem(copy) == NULL && strlen(copy) == strlen(bad[i]));
	}
	char long_text[TEXT_MAX + 2];
	memset(long_text, 'a', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	expect("text longer than TEXT_MAX is refused", text_problem(long_text) != NULL);
	long_text[TEXT_MAX] = '\0';
	expect("text of TEXT_MAX bytes is accepted", text_problem(long_text) == NULL);
	expect("empty text is refused", text_problem("") != NULL);
	char brand[] = "AMD EPYC */\x1b[31m";
	text_sanitize(brand);
	expect("a hostile brand string becomes plain text", strcmp(brand, "AMD EPYC *?\?[31m") == 0);
	expect("a real vendor is known", vendor_known("AuthenticAMD") && vendor_known("  Shanghai  "));
	expect("a vendor no CPU reports is not", !vendor_known("AuthenticAMB") && !vendor_known("authenticamd"));
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
