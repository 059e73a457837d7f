/* Database text is data, never code: every text column the generator reads
 * is one line of printable characters, so that no value can end the C
 * comment, C string, assembly comment or Markdown row it is written into,
 * nor move a terminal's cursor. */
#ifndef UARCHGEN_TEXT_H
#define UARCHGEN_TEXT_H

#include <stddef.h>

/* The longest text a column may hold: a citation, not a document. */
#define TEXT_MAX 1000

/* NULL when s is one line of 1..TEXT_MAX bytes of printable UTF-8 with no
 * comment delimiter ("/" "*" or "*" "/"); else what is wrong with it, for
 * an error message. */
const char *text_problem(const char *s);

/* Makes s acceptable to text_problem in place: each byte of a control
 * character or of invalid UTF-8 becomes '?', and a comment delimiter loses
 * its second character to '?'. For text the probe reads from a CPU, which a
 * hypervisor controls. */
void text_sanitize(char *s);

/* 1 when vendor is a CPUID vendor string a real CPU reports. */
int vendor_known(const char *vendor);

/* The known vendor strings, for an error message. */
extern const char vendor_list[];

#endif
