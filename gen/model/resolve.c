/* What a core gets: its entry's own measured rule, a measured rule it
 * inherits through a row that says why, or the baseline. Nothing else: a
 * guess can cost a core 4x (a window inherited by a newer core sent copies
 * down where the descending copy loses), so a core without evidence copies
 * forward. */
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

static const struct inherit *model_inherit(const struct model *m, const char *uarch, const char *flavor)
{
	for (size_t i = 0; i < m->n_inherits; i++)
		if (m->inherits[i].uarch && m->inherits[i].flavor && strcmp(m->inherits[i].uarch, uarch) == 0 &&
		    strcmp(m->inherits[i].flavor, flavor) == 0)
			return &m->inherits[i];
	return NULL;
}

struct resolved_rule model_resolve(const struct model *m, const char *uarch, const char *flavor)
{
	struct resolved_rule rr = {RULE_BASELINE, &baseline_rule, NULL, NULL};
	const struct rule *own = model_rule(m, uarch, flavor);
	const struct inherit *in = own ? NULL : model_inherit(m, uarch, flavor);
	const struct rule *from = in ? model_rule(m, in->from, flavor) : NULL;
	if (own) {
		rr.status = RULE_MEASURED, rr.table = own, rr.source = own->uarch;
	} else if (from) {
		rr.status = RULE_INHERITED, rr.table = from, rr.source = from->uarch, rr.reason = in->reason;
	}
	return rr;
}

const struct uarch *model_lookup(const struct model *m, const char *vendor, int family, int model,
				 const char *flavor, struct resolved_rule *out)
{
	for (size_t i = 0; i < m->n_ranges; i++) {
		const struct cpuid_range *r = &m->ranges[i];
		const struct uarch *u = r->entry;
		if (r->family == family && model >= r->model_lo && model <= r->model_hi && strcmp(u->vendor, vendor) == 0) {
			*out = model_resolve(m, u->name, flavor);
			return u;
		}
	}
	*out = (struct resolved_rule){RULE_BASELINE, &baseline_rule, NULL, NULL};
	return NULL;
}
