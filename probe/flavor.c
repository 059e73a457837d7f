/* The probe's view of one flavor: built once per flavor against that
 * flavor's copy_rule.h; the Makefile then renames its symbols (flavor.h). */
#include "flavor.h"

#include "../derive/derive.h"
#include "../derive/dispatch.h"
#include "copy_rule.h"
#include "../common/text_poke.h"

#include <string.h>

#define ROUTINE(code, fn, isa, body, body_end) {code, fn, isa, &body, &body_end},
static const struct probe_routine routines[] = {UC_STRATEGY_ROUTINES(ROUTINE)};
#undef ROUTINE

/* The pieces, then an end that is none (a flavor may have no piece). */
#define PIECE(code, lo, offset, end) {code, lo, &offset, &end},
static const struct probe_piece pieces[] = {UC_STRATEGY_PIECES(PIECE){-1, 0, NULL, NULL}};
#undef PIECE

static int machine_isa(void)
{
	return UC_ISA_ENABLED();
}

/* Installs a table that gives every length and distance the strategy
 * copies to it, an aligning strategy's head aligned to PROBE_ALIGN_DST.
 * The dispatch reads a forced table even where it is all forward, so
 * forward is timed through the table as under a measured one. */
static void force_strategy(int code)
{
	struct uc_rule r;
	if (uc_rule_force(&r, code, PROBE_ALIGN_DST, "the probe") == 0)
		rule_install_patched(&r);
}

static void install_table(const struct derived_rule *d)
{
	struct uc_rule r = {.above_max = d->above_max, .near_max = d->near_max, .below_max = d->below_max,
			    .zero_mod = (unsigned int)d->zero_mod, .align_dst = (unsigned int)d->align_dst,
			    .n_bands = (unsigned int)d->n_bands, .status = UC_RULE_FORCED, .entry = "", .source = "",
			    .reason = "the probe's candidate"};
	for (int i = 0; i < d->n_bands; i++) {
		r.bands[i].hi = d->bands[i].hi == BAND_UNBOUNDED ? (uc_size_t)-1 : d->bands[i].hi;
		for (int c = 0; c < UC_N_CLASSES; c++)
			r.bands[i].strategy[c] = (unsigned char)d->bands[i].strategy[c];
	}
	rule_install_patched(&r);
}

/* Installs and patches r, and writes its table into out. */
static void install_rule(const struct uc_rule *r, struct derived_rule *out)
{
	rule_install_patched(r);
	derived_baseline(out);
	out->above_max = r->above_max, out->near_max = r->near_max, out->below_max = r->below_max;
	out->zero_mod = (int)r->zero_mod, out->align_dst = (int)r->align_dst, out->n_bands = (int)r->n_bands;
	for (int i = 0; i < out->n_bands; i++) {
		out->bands[i].lo = i ? out->bands[i - 1].hi + 1 : 0;
		out->bands[i].hi = r->bands[i].hi == (uc_size_t)-1 ? BAND_UNBOUNDED : (unsigned int)r->bands[i].hi;
		for (int c = 0; c < UC_N_CLASSES; c++)
			out->bands[i].strategy[c] = r->bands[i].strategy[c];
	}
}

static int install_own(struct derived_rule *out)
{
	struct uc_cpuid id;
	uc_cpuid_read(&id);
	const struct uc_rule *r = uc_rule_from_cpuid(&id);
	if (!r || r->status == UC_RULE_BASELINE)
		return 0;
	install_rule(r, out);
	return 1;
}

static int install_at(unsigned int i, struct derived_rule *out, const char **routines)
{
	const struct uc_rule *r = uc_rule_at(i);
	if (!r)
		return -1;
	if (r->status != UC_RULE_MEASURED)
		return 0;
	install_rule(r, out);
	*routines = uc_rule_routines();
	return 1;
}

/* The copy the table dispatches: memmove where the flavor has one, since
 * the drop-in library serves memcpy with it too; that library's baseline
 * is the C library's memmove. */
#ifdef UC_HAS_MEMMOVE
#define TABLE_COPY uc_memmove
#define MOVES 1
/* The C library's memmove itself, where a call through a program's PLT
 * lands, as a call of the drop-in library's memmove lands on the routine
 * its resolver chose. The probe is linked statically, and there the C
 * library's memmove, an IFUNC, is reached through an .iplt slot, a jmp
 * through the pointer its resolver wrote: timed through it, the C
 * library paid a jump the probe's tables did not, and took longer than
 * in a program linked dynamically (measured: see
 * docs/notebook/measurements-2026-12.md#the-c-librarys-memmove-past-its-slot). */
static copy_fn libc_memmove(void)
{
	const unsigned char *slot = (const unsigned char *)memmove;
	int32_t rel;
	/* jmp [rip + rel32]: FF /4 with ModRM 25h (Intel SDM vol. 2, JMP) */
	if (slot[0] != 0xff || slot[1] != 0x25)
		return memmove;
	memcpy(&rel, slot + 2, sizeof rel);
	return *(const copy_fn *)(slot + 6 + rel);
}

/* The C library's memmove as a program reaches it through its PLT: one
 * jump through a pointer, its GOT slot. Where the drop-in library is
 * preloaded, its constructor points that slot at the routine it chose
 * (preload/rebind.c), or at the C library's own copy where it defers. A
 * compiled table is timed behind the same jump (library_memmove below),
 * so that both sides of every comparison pay the one hop a program pays
 * either way. */
static copy_fn deferred_to;

__attribute__((noinline)) static void *deferring_memmove(void *dst, const void *src, size_t n)
{
	return deferred_to(dst, src, n);
}

static copy_fn baseline_copy(void)
{
	deferred_to = libc_memmove();
	return deferring_memmove;
}

/* A program's memmove where the library's constructor chose this
 * flavor's routine: the same jump, through a pointer of its own. */
static copy_fn chosen;

__attribute__((noinline)) static void *library_memmove(void *dst, const void *src, size_t n)
{
	return chosen(dst, src, n);
}

static copy_fn shipped_copy(void)
{
	chosen = TABLE_COPY;
	return library_memmove;
}

#ifdef UC_HAS_LIBC
/* Strategy libc's cells run the memmove the probe judges tables against,
 * as in the drop-in library, whose cells jump to the C library's memmove
 * itself (dlsym(RTLD_NEXT), preload/uarchcopy.c). A static program
 * applies its IRELATIVE relocations, which fill the C library's .iplt
 * slots, before its constructors run. */
__attribute__((constructor)) static void point_libc(void)
{
	uc_libc_memmove = libc_memmove();
}
#endif
#else
#define TABLE_COPY uc_memcpy
#define MOVES 0
static copy_fn baseline_copy(void)
{
	return uc_copy_forward;
}

/* A kernel calls the patched entry itself. */
static copy_fn shipped_copy(void)
{
	return TABLE_COPY;
}
#endif

const struct probe_flavor probe_flavor = {UC_FLAVOR,
					  routines,
					  sizeof routines / sizeof *routines,
					  pieces,
					  sizeof pieces / sizeof *pieces - 1,
					  machine_isa,
					  force_strategy,
					  install_table,
					  TABLE_COPY,
					  MOVES,
					  baseline_copy,
					  shipped_copy,
					  install_own,
					  install_at};
