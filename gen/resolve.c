/* What a core gets: an entry's own rule, or its vendor's default. */
#include "model.h"

#include <string.h>

const struct rule *model_rule(const struct model *m, const char *uarch, const char *flavor)
{
	for (size_t i = 0; i < m->n_rules; i++)
		if (m->rules[i].uarch && m->rules[i].flavor && strcmp(m->rules[i].uarch, uarch) == 0 &&
		    strcmp(m->rules[i].flavor, flavor) == 0)
			return &m->rules[i];
	return NULL;
}

const struct uarch *model_uarch(const struct model *m, const char *name)
{
	for (size_t i = 0; i < m->n_uarchs; i++)
		if (m->uarchs[i].name && strcmp(m->uarchs[i].name, name) == 0)
			return &m->uarchs[i];
	return NULL;
}

const struct vendor_default *model_default(const struct model *m, const char *vendor, const char *flavor)
{
	for (size_t i = 0; i < m->n_defaults; i++)
		if (strcmp(m->defaults[i].vendor, vendor) == 0 && strcmp(m->defaults[i].flavor, flavor) == 0)
			return &m->defaults[i];
	return NULL;
}

/* Each field falls back separately: an entry whose window was measured but
 * not its alignment takes the alignment of its vendor's default. */
struct resolved_rule model_resolve(const struct model *m, const char *uarch, const char *flavor)
{
	struct resolved_rule rr = {0};
	const struct uarch *u = model_uarch(m, uarch);
	const struct rule *own = model_rule(m, uarch, flavor);
	const struct vendor_default *d = u ? model_default(m, u->vendor, flavor) : NULL;
	const struct rule *def = d ? model_rule(m, d->uarch, flavor) : NULL;
	rr.stored = own;
	if (own && own->has_window) {
		rr.window = own->window, rr.window_from = own->uarch, rr.measured = 1;
	} else if (def && def->has_window) {
		rr.window = def->window, rr.window_from = def->uarch;
	}
	if (own && own->has_align)
		rr.align_dst = own->align_dst, rr.align_from = own->uarch;
	else if (def && def->has_align)
		rr.align_dst = def->align_dst, rr.align_from = def->uarch;
	return rr;
}

const struct uarch *model_lookup(const struct model *m, const char *vendor, int family, int model,
				 const char *flavor, struct resolved_rule *out)
{
	for (size_t i = 0; i < m->n_ranges; i++) {
		const struct cpuid_range *r = &m->ranges[i];
		const struct uarch *u = model_uarch(m, r->uarch);
		if (strcmp(u->vendor, vendor) == 0 && r->family == family && model >= r->model_lo &&
		    model <= r->model_hi) {
			*out = model_resolve(m, u->name, flavor);
			return u;
		}
	}
	memset(out, 0, sizeof *out);
	const struct vendor_default *d = model_default(m, vendor, flavor);
	if (d) {
		struct resolved_rule def = model_resolve(m, d->uarch, flavor);
		out->window = def.window, out->window_from = def.window_from;
		out->align_dst = def.align_dst, out->align_from = def.align_from;
	}
	return NULL;
}
