/* The database in Lua: the strategy catalogue of common/strategies.h, the
 * entries with their CPUID ranges, and each rule as a core resolves it. */
#include "bind_db.h"

#include "../../common/rule_limits.h"
#include "bind_lua.h"

#include <string.h>


static const char *const status_names[] = {"baseline", "inherited", "measured"};

/* A band as Lua sees it: lo, hi (-1: no bound) and a strategy name per class. */
static void push_band(lua_State *L, const struct band *b)
{
	lua_newtable(L);
	set_int(L, "lo", b->lo);
	set_int(L, "hi", b->hi == BAND_UNBOUNDED ? -1 : (lua_Integer)b->hi);
	for (int c = 0; c < N_DISTANCE_CLASSES; c++)
		set_str(L, class_names[c], strategy_catalogue[b->strategy[c]].name);
}

/* What a core gets: status, the table (bands and class bounds), and the
 * facts of the measurement behind it (nil on the baseline). */
void bind_push_resolved(lua_State *L, const struct resolved_rule *rr)
{
	const struct rule *t = rr->table;
	int measured = rr->status != RULE_BASELINE;
	lua_newtable(L);
	set_str(L, "status", status_names[rr->status]);
	set_str(L, "source", rr->source);
	set_str(L, "reason", rr->reason);
	set_int(L, "above_max", t->above_max);
	set_int(L, "near_max", t->near_max);
	set_int(L, "below_max", t->below_max);
	set_int(L, "zero_mod", t->zero_mod);
	set_int(L, "align_dst", t->align_dst);
	/* memmove's copies where the ranges overlap ("": the flavor's) and
	 * their bounds (0: none), which end some of its overlap paths. */
	set_str(L, "overlap_below", t->stand_in[DIR_UP] ? strategy_catalogue[t->stand_in[DIR_UP] - 1].name : "");
	set_str(L, "overlap_above", t->stand_in[DIR_DOWN] ? strategy_catalogue[t->stand_in[DIR_DOWN] - 1].name : "");
	set_int(L, "overlap_below_max", t->stand_in[DIR_UP] ? t->stand_in_max[DIR_UP] : 0);
	set_int(L, "overlap_above_max", t->stand_in[DIR_DOWN] ? t->stand_in_max[DIR_DOWN] : 0);
	lua_newtable(L);
	for (int i = 0; i < t->n_bands; i++) {
		push_band(L, &t->bands[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "bands");
	set_str(L, "evidence", measured ? t->evidence : NULL);
	set_str(L, "method", measured ? t->method : NULL);
	set_str(L, "measured_on", measured ? t->measured_on : NULL);
	set_str(L, "cpu_signature", measured ? t->cpu_signature : NULL);
	set_str(L, "hypervisor", measured ? t->hypervisor : NULL);
}

static void push_entry(lua_State *L, const struct model *m, const struct uarch *u)
{
	lua_newtable(L);
	set_str(L, "name", u->name);
	set_str(L, "vendor", u->vendor);
	set_str(L, "example", u->example);
	set_str(L, "cpuid_limit", u->cpuid_limit);
	lua_newtable(L);
	int n = 0;
	for (size_t j = 0; j < m->n_ranges; j++) {
		const struct cpuid_range *r = &m->ranges[j];
		if (strcmp(r->uarch, u->name) != 0)
			continue;
		lua_newtable(L);
		set_int(L, "family", r->family);
		set_int(L, "model_lo", r->model_lo);
		set_int(L, "model_hi", r->model_hi);
		set_str(L, "source", r->source);
		lua_rawseti(L, -2, ++n);
	}
	lua_setfield(L, -2, "ranges");
	lua_newtable(L);
	for (size_t f = 0; f < m->n_flavors; f++) {
		struct resolved_rule rr = model_resolve(m, u->name, m->flavors[f].name);
		bind_push_resolved(L, &rr);
		lua_setfield(L, -2, m->flavors[f].name);
	}
	lua_setfield(L, -2, "rules");
}

void bind_push_db(lua_State *L, const struct model *m)
{
	lua_newtable(L);
	set_str(L, "hash", m->hash);
	set_int(L, "schema_version", UARCH_SCHEMA_VERSION);
	static const int aligns[] = {ALIGN_DST_VALUES};
	lua_newtable(L);
	for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; i++) {
		lua_pushinteger(L, aligns[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "align_dst_values");

	lua_newtable(L);
	for (size_t i = 0; i < m->n_flavors; i++) {
		lua_newtable(L);
		set_str(L, "name", m->flavors[i].name);
		set_str(L, "what", m->flavors[i].what);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "flavors");

	lua_newtable(L);
	for (size_t i = 0; i < m->n_uarchs; i++) {
		push_entry(L, m, &m->uarchs[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "entries");


	/* The strategy catalogue and the distance classes, in code order. */
	lua_newtable(L);
	for (size_t i = 0; i < N_COPY_STRATEGIES; i++) {
		const struct strategy *s = &strategy_catalogue[i];
		lua_newtable(L);
		set_str(L, "name", s->name);
		set_int(L, "code", s->code);
		set_int(L, "min_n", s->min_n);
		set_int(L, "max_n", s->max_n);
		set_str(L, "isa", isa_names[s->isa]);
		set_int(L, "isa_level", s->isa);
		char letter[2] = {s->letter, '\0'};
		set_str(L, "letter", letter);
		set_str(L, "fallback", strategy_catalogue[s->fallback].name);
		set_str(L, "direction", direction_names[s->direction]);
		lua_pushboolean(L, s->streams);
		lua_setfield(L, -2, "streams");
		lua_pushboolean(L, s->aligns);
		lua_setfield(L, -2, "aligns");
		lua_pushboolean(L, s->defers);
		lua_setfield(L, -2, "defers");
		set_str(L, "clobbers", s->clobbers);
		set_str(L, "what", s->what);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "strategies");
	lua_newtable(L);
	for (int k = 0; k < N_ISA_LEVELS; k++) {
		lua_pushstring(L, isa_names[k]);
		lua_rawseti(L, -2, k + 1);
	}
	lua_setfield(L, -2, "isa_levels");
	lua_newtable(L);
	for (int c = 0; c < N_DISTANCE_CLASSES; c++) {
		lua_pushstring(L, class_names[c]);
		lua_rawseti(L, -2, c + 1);
	}
	lua_setfield(L, -2, "classes");
	set_int(L, "max_bands", MAX_BANDS);
	set_int(L, "class_bound_max", CLASS_BOUND_MAX);
	set_str(L, "baseline", strategy_catalogue[BASELINE_STRATEGY].name);
}

void bind_push_strategies(lua_State *L, int isa_level, int moves)
{
	lua_getglobal(L, "db");
	lua_getfield(L, -1, "strategies");
	lua_newtable(L);
	for (size_t i = 0, k = 0; i < N_COPY_STRATEGIES; i++)
		if (strategy_offered((int)i, isa_level, moves)) {
			lua_geti(L, -2, (lua_Integer)i + 1);
			lua_rawseti(L, -2, (lua_Integer)++k);
		}
	lua_replace(L, -3);
	lua_pop(L, 1);
}
