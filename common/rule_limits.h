/* What a rule may say, written once for the generator, the probe and,
 * through db.strategies and db.align_dst_values, the templates. The
 * strategies themselves are in the catalogue, strategies.h. The schema's
 * CHECKs state the same value sets for SQLite (of a strategy only the form
 * of its name); the generator does not trust that they ran. */
#ifndef UARCHGEN_RULE_LIMITS_H
#define UARCHGEN_RULE_LIMITS_H

/* The values a rule's align_dst may hold (0: no alignment head). */
#define ALIGN_DST_VALUES 0, 8, 16, 32, 64
#define ALIGN_DST_TEXT "0, 8, 16, 32, 64"

#include "strategies.h"

/* Distance classes, by d = (dst - src) mod 4096:
 *  zero: d mod zero_mod = 0: d = 0 alone (dst == src, or the same offset
 *    in another page) when zero_mod is 4096, every mutually aligned pair
 *    of buffers when it is 8..64 (ZERO_MOD_VALUES);
 *  above: dst 1..above_max bytes above the source;
 *  near: dst above_max+1..near_max bytes above it (none when near_max is
 *    above_max), where a core copies its own way again;
 *  below: dst 1..below_max bytes below the source (d >= 4096 - below_max);
 *  elsewhere: every other d.
 * A class bound is 0..2047, so above and below never meet. */
#define DISTANCE_CLASSES(X) X(CLASS_ZERO, "zero") X(CLASS_ABOVE, "above") X(CLASS_NEAR, "near") X(CLASS_BELOW, "below") X(CLASS_ELSEWHERE, "elsewhere")
#define CLASS_ENUM(id, name) id,
enum distance_class { DISTANCE_CLASSES(CLASS_ENUM) N_DISTANCE_CLASSES };
#undef CLASS_ENUM
extern const char *const class_names[N_DISTANCE_CLASSES];
#define CLASS_BOUND_MAX 2047
#define ZERO_MOD_VALUES 4096, 64, 32, 16, 8
#define ZERO_MOD_TEXT "8, 16, 32, 64, 4096"

/* A length band of a rule's table: lengths lo..hi (hi BAND_UNBOUNDED for
 * the last band) and the strategy code of each distance class. */
#define BAND_UNBOUNDED 0xffffffffu
struct band {
	unsigned int lo, hi;
	int strategy[N_DISTANCE_CLASSES];
};

/* A table has at most this many length bands: the generated dispatch reads
 * a fixed number of band bounds. Bands below 256 bytes cost a call nothing
 * (their lengths index a byte table); past it each is one compare. The cap
 * must leave room for every band a core's short copies need: eight forced
 * a Zen 3 kernel table to merge bands its copies split, twelve did not
 * (docs/notebook/derivation-2026-11.md, "The measurements behind the
 * rules"). */
#define MAX_BANDS 16

#endif
