/* The values a rule's align_dst may hold (0: no alignment head), written
 * once for the generator, the probe and, through db.align_dst_values, the
 * templates. The schema's CHECK on rule.align_dst states them for SQLite. */
#ifndef UARCHGEN_RULE_LIMITS_H
#define UARCHGEN_RULE_LIMITS_H

#define ALIGN_DST_VALUES 0, 8, 16, 32, 64
#define ALIGN_DST_TEXT "0, 8, 16, 32, 64"

#endif
