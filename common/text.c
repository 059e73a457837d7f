#include "text.h"

#include <stdio.h>
#include <string.h>

/* The length of the UTF-8 sequence at s that encodes one printable
 * character, or 0: ASCII controls (0x00-0x1f, 0x7f), the C1 controls
 * (U+0080-U+009F), and bytes that are not well-formed UTF-8 are not. */
static size_t printable_at(const unsigned char *s)
{
	if (*s >= 0x20 && *s < 0x7f)
		return 1;
	size_t n = (*s & 0xe0) == 0xc0 ? 2 : (*s & 0xf0) == 0xe0 ? 3 : (*s & 0xf8) == 0xf0 ? 4 : 0;
	if (n == 0 || (n == 2 && *s < 0xc2) || (s[0] == 0xc2 && s[1] < 0xa0))
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

const char *text_problem(const char *s)
{
	static char what[160];
	const unsigned char *p = (const unsigned char *)s;
	if (!*s)
		return "is empty; where there is nothing to say, the column is NULL";
	if (strlen(s) > TEXT_MAX) {
		snprintf(what, sizeof what, "is %zu bytes long; text is at most %d", strlen(s), TEXT_MAX);
		return what;
	}
	while (*p) {
		size_t n = printable_at(p);
		if (!n) {
			snprintf(what, sizeof what,
				 "holds byte 0x%02x at offset %zu: a control character or not UTF-8; text is one "
				 "printable line",
				 *p, (size_t)(p - (const unsigned char *)s));
			return what;
		}
		p += n;
	}
	if (strstr(s, "*/") || strstr(s, "/*"))
		return "holds a comment delimiter (slash-star or star-slash): the text goes into C comments";
	return NULL;
}

void text_sanitize(char *s)
{
	unsigned char *p = (unsigned char *)s;
	while (*p) {
		size_t n = printable_at(p);
		if (!n) {
			*p++ = '?';
			continue;
		}
		if (n == 1 && p[1] && ((p[0] == '*' && p[1] == '/') || (p[0] == '/' && p[1] == '*')))
			p[1] = '?';
		p += n;
	}
}

/* Every vendor string Linux knows a CPU by (the c_ident of each
 * arch/x86/kernel/cpu/<vendor>.c): intel, amd, hygon, centaur, zhaoxin,
 * cyrix (two), transmeta (two), umc, vortex. */
static const char *const vendors[] = {
	"GenuineIntel", "AuthenticAMD", "HygonGenuine", "CentaurHauls", "  Shanghai  ", "CyrixInstead",
	"Geode by NSC", "GenuineTMx86", "TransmetaCPU", "UMC UMC UMC ", "Vortex86 SoC",
};

const char vendor_list[] = "GenuineIntel, AuthenticAMD, HygonGenuine, CentaurHauls, '  Shanghai  ', CyrixInstead, "
			   "'Geode by NSC', GenuineTMx86, TransmetaCPU, 'UMC UMC UMC ', 'Vortex86 SoC'";

int vendor_known(const char *vendor)
{
	for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; i++)
		if (strcmp(vendor, vendors[i]) == 0)
			return 1;
	return 0;
}
