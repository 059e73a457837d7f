/* uarchgen: reads uarch.db and renders the templates into out/. */
#include "../common/strategies.h"
#include "../common/util.h"
#include "import/import.h"
#include "data_dir.h"
#include "import/rederive.h"
#include "merge/merge.h"
#include "model/dump.h"
#include "model/model.h"
#include "model/resolve_print.h"
#include "output/output.h"
#include "render/linux_patch.h"
#include "render/render.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The catalogue, for scripts and people (common/strategies.h). */
static int print_strategies(void)
{
	for (int i = 0; i < N_COPY_STRATEGIES; i++) {
		const struct strategy *s = &strategy_catalogue[i];
		printf("%d %s %c %s %d %d %s\n", s->code, s->name, s->letter, isa_names[s->isa], s->min_n, s->max_n,
		       direction_names[s->direction]);
	}
	return 0;
}

static const char usage[] =
	"usage: uarchgen [COMMAND] [OPTIONS]\n"
	"\n"
	"Generates copy routines, the CPUID rule table and their tests from uarch.db.\n"
	"\n"
	"commands:\n"
	"  gen      write the output directory (the default command)\n"
	"  check    regenerate in memory and fail, with a diff, if the output directory differs\n"
	"  query    list every entry: CPUID ranges, rule (measured, inherited or baseline), evidence\n"
	"  debt     list the unmeasured entries and the measurement that would close each\n"
	"  dump     print the database as canonical SQL text\n"
	"  import ARCHIVE...\n"
	"           derive each probe run archive's rule and record it, its run and its\n"
	"           evidence folder (evidence/<run>/) in one transaction; an archive already\n"
	"           imported changes nothing (--name N: the entry, when no CPUID range holds\n"
	"           the CPU; --dry-run: derive and print, write nothing)\n"
	"  rederive [RUN...]\n"
	"           derive every recorded run (or each RUN named) again from its archive,\n"
	"           evidence/<run>/run.archive, with the current derivation; write each evidence\n"
	"           folder again and replace each rule that cites one, all in one transaction\n"
	"           (--dry-run: derive and print, write nothing)\n"
	"  lookup VENDOR FAMILY MODEL\n"
	"           print the rule a CPU gets, one line per flavor (--flavor F: that one):\n"
	"           flavor=F entry=E status=S source=E2 above_max=A near_max=N below_max=B zero_mod=Z\n"
	"           align_dst=N table=LO..HI:ZERO,ABOVE,NEAR,BELOW,ELSEWHERE;... (FAMILY, MODEL: 0x.. or\n           decimal)\n"
	"  flavors  print each flavor: name, isa, red_zone\n"
	"  strategies\n"
	"           print the strategy catalogue, one strategy a line in code order:\n"
	"           code name letter isa min_n max_n (-1: none) direction\n"
	"  merge-db BASE OURS THEIRS\n"
	"           git's merge driver for uarch.db (make deps registers it): merges the\n"
	"           rows three-way and rebuilds OURS from them; a row both branches changed\n"
	"           differently (one entry measured on both) stops it, OURS unchanged\n"
	"  merge-out OURS PATH\n"
	"           git's merge driver for out/: writes into OURS the file PATH as the\n"
	"           generator makes it from the merge of the commits' uarch.db\n"
	"  help     print this text (so does --help after any command)\n"
	"\n"
	"options:\n"
	"  --db PATH          the database (default uarch.db)\n"
	"  --templates DIR    the templates (default templates)\n"
	"  --out DIR          the output directory (default out; required with --target)\n"
	"  --prefix P         prefix of every exported symbol (default uc_)\n"
	"  --target NAME      specialise the routines to entry NAME: the rule becomes immediates\n"
	"  --memcpy-symbol    also export the rule's copy (uc_memcpy) as a strong memcpy\n"
	"  --smap             put stac/clac around the user copies' accesses (needs CPUID SMAP)\n"
	"  --no-endbr         no endbr64 at the routines' entries and no CET property note\n"
	"                     (by default both: a CET link (IBT, shadow stack) accepts the objects)\n"
	"  --user-copy-result status|remaining\n"
	"                     what copy_to_user, copy_from_user and clear_user return: status (the\n"
	"                     default) 0, or 1 after an unserved fault; remaining (Linux's contract)\n"
	"                     the number of bytes not copied\n"
	"  --linux            also write x86_64/copy_linux.S, the routines as Linux's arch/x86/lib\n"
	"                     takes them (SYM_FUNC_START, RET, ASM_STAC, an __ex_table entry per\n"
	"                     user access); implies --smap, --user-copy-result remaining, --no-endbr\n"
	"  --linux-version V  the Linux tree linux/uarchcopy.patch is for: 6.1 (the default) or\n"
	"                     6.12 (docs/linux.md); implies --linux\n"
	"  --flavor F         lookup: only flavor F\n"
	"  --name N           import: the entry to record into (a new one when no CPUID range\n"
	"                     holds the CPU)\n"
	"  --dry-run          import, rederive: derive and print the rules, write nothing\n"
	"  -q, --quiet        gen: do not list the files written\n"
	"\n"
	"exit status: 0 success, 1 bad data, stale output or I/O error, 2 usage error\n";

/* The dump reads any database, valid or not, of any schema version: it is
 * how git shows a change to uarch.db (the textconv driver), old ones too. */
static int dump_command(const char *path)
{
	sqlite3 *db;
	int errors = 0;
	if (access(path, R_OK) != 0 || sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		err("%s: cannot open the database", path);
		return EXIT_FAIL;
	}
	char *text = dump_database(db, &errors);
	sqlite3_close(db);
	if (!text)
		return EXIT_FAIL;
	fputs(text, stdout);
	free(text);
	return 0;
}

static int bad_usage(const char *fmt, const char *arg)
{
	fputs("uarchgen: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\ntry: uarchgen --help\n", stderr);
	return EXIT_USAGE;
}

static int prefix_ok(const char *p)
{
	if (!*p || !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_'))
		return 0;
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

/* What the command line says. */
struct invocation {
	struct options o;
	const char *command, *flavor, *name, *positional[3];
	int n_positional, quiet, dry_run, user_copy_result_set;
	char **archives;
	int n_archives;
};

/* Sets a flag option, or the slot of one that takes a value; 0 where a is
 * no option of this command. */
static int option(struct invocation *v, const char *a, const char ***slot)
{
	int import = strcmp(v->command, "import") == 0, rederive = strcmp(v->command, "rederive") == 0;
	static const struct {
		const char *name;
		size_t slot; /* offsetof the value in struct invocation; 0: a flag */
	} valued[] = {
		{"--db", offsetof(struct invocation, o.db_path)},
		{"--templates", offsetof(struct invocation, o.templates_dir)},
		{"--out", offsetof(struct invocation, o.out_dir)},
		{"--prefix", offsetof(struct invocation, o.prefix)},
		{"--target", offsetof(struct invocation, o.target)},
		{"--user-copy-result", offsetof(struct invocation, o.user_copy_result)},
		{"--linux-version", offsetof(struct invocation, o.linux_version)},
		{"--flavor", offsetof(struct invocation, flavor)},
	};
	for (size_t k = 0; k < sizeof valued / sizeof *valued; k++)
		if (strcmp(a, valued[k].name) == 0) {
			*slot = (const char **)((char *)v + valued[k].slot);
			v->user_copy_result_set |= strcmp(a, "--user-copy-result") == 0;
			return 1;
		}
	if (strcmp(a, "--name") == 0 && import)
		*slot = &v->name;
	else if (strcmp(a, "--memcpy-symbol") == 0)
		v->o.memcpy_symbol = 1;
	else if (strcmp(a, "--smap") == 0)
		v->o.smap = 1;
	else if (strcmp(a, "--no-endbr") == 0)
		v->o.endbr = 0;
	else if (strcmp(a, "--linux") == 0)
		v->o.linux_form = 1;
	else if (strcmp(a, "--dry-run") == 0 && (import || rederive))
		v->dry_run = 1;
	else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
		v->quiet = 1;
	else
		return 0;
	return 1;
}

/* Fills v from argv; -1 after --help (printed), else an exit status. */
static int parse(int argc, char **argv, struct invocation *v)
{
	int i = 1;
	if (argc > 1 && argv[1][0] != '-')
		v->command = argv[i++];
	int merging = strcmp(v->command, "merge-db") == 0 || strcmp(v->command, "merge-out") == 0;
	int positional = merging || strcmp(v->command, "lookup") == 0;
	for (; i < argc; i++) {
		const char *a = argv[i], **slot = NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			return -1;
		}
		if (a[0] != '-' && (strcmp(v->command, "import") == 0 || strcmp(v->command, "rederive") == 0))
			v->archives[v->n_archives++] = argv[i];
		else if (a[0] != '-' && positional && v->n_positional < 3)
			v->positional[v->n_positional++] = a;
		else if (!option(v, a, &slot))
			return bad_usage("unknown option '%s'", a);
		if (slot) {
			if (i + 1 >= argc)
				return bad_usage("%s needs a value", a);
			*slot = argv[++i];
		}
	}
	return 0;
}

/* The options' own rules, and what --linux implies. */
static int settle_options(struct invocation *v)
{
	struct options *o = &v->o;
	if (strcmp(o->user_copy_result, "status") && strcmp(o->user_copy_result, "remaining"))
		return bad_usage("--user-copy-result '%s': say status or remaining", o->user_copy_result);
	if (o->linux_version)
		o->linux_form = 1;
	else
		o->linux_version = "6.1";
	if (!linux_tree_find(o->linux_version)) {
		char *known = linux_tree_versions();
		char *what = xasprintf("--linux-version '%s': not a Linux tree the patch knows (%s)", o->linux_version, known);
		int rc = bad_usage("%s", what);
		free(known);
		free(what);
		return rc;
	}
	if (o->linux_form) {
		/* Linux's contract and macros: bytes not copied, SMAP through
		 * ASM_STAC/ASM_CLAC, ENDBR from SYM_FUNC_START. */
		if (strcmp(o->user_copy_result, "remaining") && v->user_copy_result_set)
			return bad_usage("--linux: Linux's user copies return the bytes not copied "
					 "(--user-copy-result remaining), not '%s'", o->user_copy_result);
		/* The kernel has its own memcpy: a strong one would clash. */
		if (o->memcpy_symbol)
			return bad_usage("--linux: the kernel has its own memcpy (%s)", "no --memcpy-symbol");
		o->user_copy_result = "remaining";
		o->smap = 1;
		o->endbr = 0;
	}
	if (!prefix_ok(o->prefix))
		return bad_usage("--prefix '%s' is not a symbol prefix ([A-Za-z_][A-Za-z0-9_]*)", o->prefix);
	if (o->target && !o->out_dir)
		return bad_usage("--target %s needs --out DIR: out/ holds the routines for every core", o->target);
	if (!o->out_dir)
		o->out_dir = "out";
	return 0;
}

static int run_help(struct invocation *v)
{
	(void)v;
	fputs(usage, stdout);
	return 0;
}

static int run_merge_db(struct invocation *v)
{
	return v->n_positional == 3 ? merge_db_command(v->positional[0], v->positional[1], v->positional[2])
				    : bad_usage("%s: merge-db needs BASE OURS THEIRS", "merge-db");
}

static int run_merge_out(struct invocation *v)
{
	return v->n_positional == 2 ? merge_out_command(v->positional[0], v->positional[1])
				    : bad_usage("%s: merge-out needs OURS PATH", "merge-out");
}

static int run_strategies(struct invocation *v)
{
	(void)v;
	return print_strategies();
}

static int run_dump(struct invocation *v)
{
	return dump_command(v->o.db_path);
}

static int run_import(struct invocation *v)
{
	if (v->n_archives == 0)
		return bad_usage("%s: import needs one or more run archives (probe --help)", "import");
	return import_archives(v->o.db_path, v->name, v->dry_run, v->archives, v->n_archives);
}

static int run_rederive(struct invocation *v)
{
	return rederive_runs(v->o.db_path, v->dry_run, v->archives, v->n_archives);
}

static int run_lookup(struct invocation *v, const struct model *m)
{
	return print_lookup(m, v->positional[0], v->positional[1], v->positional[2], v->flavor);
}

static int run_flavors(struct invocation *v, const struct model *m)
{
	(void)v;
	return print_flavors(m);
}

/* query and debt: one template rendered to stdout. */
static int run_report(struct invocation *v, const struct model *m)
{
	struct buf text = {0};
	char *tpl = xasprintf("%s/%s", v->o.templates_dir,
			      strcmp(v->command, "query") == 0 ? "report/query.txt.tpl" : "out/DEBT.md.tpl");
	int rc = render_one(m, &v->o, NULL, tpl, &text);
	free(tpl);
	if (!rc)
		fputs(text.data ? text.data : "", stdout);
	buf_free(&text);
	return rc;
}

/* gen and check: every file rendered, then written, or compared. */
static int run_output(struct invocation *v, const struct model *m)
{
	struct fileset fs;
	if (render_all(m, &v->o, &fs)) {
		err("nothing was written to %s/", v->o.out_dir);
		return EXIT_FAIL;
	}
	int rc;
	if (strcmp(v->command, "check") == 0) {
		int differences = output_check(&fs, v->o.out_dir);
		rc = differences ? EXIT_FAIL : 0;
		if (differences) {
			err("%s/ does not match %s and the templates (%d difference%s).", v->o.out_dir, v->o.db_path,
			    differences, differences == 1 ? "" : "s");
			err("fix: make    (or: gen/uarchgen gen --db %s --out %s)", v->o.db_path, v->o.out_dir);
		}
	} else {
		rc = output_write(&fs, v->o.out_dir, !v->quiet);
	}
	fileset_free(&fs);
	return rc;
}

/* The commands: those that read the database as a model get it loaded
 * and checked first; the others read files of their own. */
static const struct command {
	const char *name;
	int (*run)(struct invocation *v);
	int (*run_model)(struct invocation *v, const struct model *m);
	int positional; /* lookup's VENDOR FAMILY MODEL must all be there */
} commands[] = {
	{"gen", NULL, run_output, 0},	     {"check", NULL, run_output, 0},	 {"query", NULL, run_report, 0},
	{"debt", NULL, run_report, 0},	     {"lookup", NULL, run_lookup, 3},	 {"flavors", NULL, run_flavors, 0},
	{"dump", run_dump, NULL, 0},	     {"import", run_import, NULL, 0},	{"rederive", run_rederive, NULL, 0},	 {"strategies", run_strategies, NULL, 0},
	{"merge-db", run_merge_db, NULL, 0}, {"merge-out", run_merge_out, NULL, 0}, {"help", run_help, NULL, 0},
};

int main(int argc, char **argv)
{
	struct invocation v = {.o = {.db_path = "uarch.db", .templates_dir = "templates", .prefix = "uc_",
				     .user_copy_result = "status", .endbr = 1},
			       .command = "gen",
			       .archives = calloc((size_t)argc, sizeof *v.archives)};
	int rc = parse(argc, argv, &v);
	if (rc)
		return rc < 0 ? 0 : rc;
	const struct command *c = NULL;
	for (size_t k = 0; k < sizeof commands / sizeof *commands; k++)
		if (strcmp(commands[k].name, v.command) == 0)
			c = &commands[k];
	if (!c)
		return bad_usage("unknown command '%s'", v.command);
	if (c->run == run_help || c->run == run_merge_db || c->run == run_merge_out)
		return c->run(&v);
	if (c->run != run_import && c->run != run_rederive)
		data_dir_settle(&v.o.db_path, &v.o.templates_dir);
	if (c->run == run_import && v.n_archives == 0)
		return run_import(&v);
	if (c->positional && v.n_positional != c->positional)
		return bad_usage("%s: lookup needs VENDOR FAMILY MODEL", "lookup");
	if ((rc = settle_options(&v)) != 0)
		return rc;
	if (c->run)
		return c->run(&v);
	struct model m;
	if (model_load(&m, v.o.db_path))
		return EXIT_FAIL;
	if (v.o.target && !model_uarch(&m, v.o.target)) {
		err("--target %s: %s has no such entry (see: uarchgen query)", v.o.target, v.o.db_path);
		return EXIT_FAIL;
	}
	return c->run_model(&v, &m);
}
