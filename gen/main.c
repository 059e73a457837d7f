/* uarchgen: reads uarch.db and renders the templates into out/. */
#include "../common/strategies.h"
#include "../common/util.h"
#include "import/import.h"
#include "merge/merge.h"
#include "model/dump.h"
#include "model/model.h"
#include "model/resolve_print.h"
#include "output/output.h"
#include "render/render.h"

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
	"  --flavor F         lookup: only flavor F\n"
	"  --name N           import: the entry to record into (a new one when no CPUID range\n"
	"                     holds the CPU)\n"
	"  --dry-run          import: derive and print the rule, write nothing\n"
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

int main(int argc, char **argv)
{
	struct options o = {.db_path = "uarch.db", .templates_dir = "templates", .out_dir = NULL, .prefix = "uc_",
			    .user_copy_result = "status", .endbr = 1};
	const char *command = "gen", *flavor = NULL, *name = NULL, *positional[3];
	int merging = argc > 1 && (strcmp(argv[1], "merge-db") == 0 || strcmp(argv[1], "merge-out") == 0);
	int user_copy_result_set = 0;
	int quiet = 0, i = 1, n_positional = 0, dry_run = 0, n_archives = 0;
	char **archives = calloc((size_t)argc, sizeof *archives);
	if (argc > 1 && argv[1][0] != '-')
		command = argv[i++];
	for (; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if (strcmp(a, "--db") == 0) {
			slot = &o.db_path;
		} else if (strcmp(a, "--templates") == 0) {
			slot = &o.templates_dir;
		} else if (strcmp(a, "--out") == 0) {
			slot = &o.out_dir;
		} else if (strcmp(a, "--prefix") == 0) {
			slot = &o.prefix;
		} else if (strcmp(a, "--target") == 0) {
			slot = &o.target;
		} else if (strcmp(a, "--memcpy-symbol") == 0) {
			o.memcpy_symbol = 1;
		} else if (strcmp(a, "--smap") == 0) {
			o.smap = 1;
		} else if (strcmp(a, "--no-endbr") == 0) {
			o.endbr = 0;
		} else if (strcmp(a, "--linux") == 0) {
			o.linux_form = 1;
		} else if (strcmp(a, "--user-copy-result") == 0) {
			slot = &o.user_copy_result;
			user_copy_result_set = 1;
		} else if (strcmp(a, "--flavor") == 0) {
			slot = &flavor;
		} else if (strcmp(a, "--name") == 0 && strcmp(command, "import") == 0) {
			slot = &name;
		} else if (strcmp(a, "--dry-run") == 0 && strcmp(command, "import") == 0) {
			dry_run = 1;
		} else if (a[0] != '-' && strcmp(command, "import") == 0) {
			archives[n_archives++] = argv[i];
		} else if (a[0] != '-' && (strcmp(command, "lookup") == 0 || merging) && n_positional < 3) {
			positional[n_positional++] = a;
		} else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
			quiet = 1;
		} else {
			return bad_usage("unknown option '%s'", a);
		}
		if (slot) {
			if (i + 1 >= argc)
				return bad_usage("%s needs a value", a);
			*slot = argv[++i];
		}
	}
	if (strcmp(command, "help") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (strcmp(command, "gen") && strcmp(command, "check") && strcmp(command, "query") &&
	    strcmp(command, "debt") && strcmp(command, "dump") && strcmp(command, "lookup") &&
	    strcmp(command, "flavors") && strcmp(command, "import") && strcmp(command, "strategies") && !merging)
		return bad_usage("unknown command '%s'", command);
	if (strcmp(command, "import") == 0 && n_archives == 0)
		return bad_usage("%s: import needs one or more run archives (probe --help)", "import");
	if (strcmp(command, "merge-db") == 0)
		return n_positional == 3 ? merge_db_command(positional[0], positional[1], positional[2])
					 : bad_usage("%s: merge-db needs BASE OURS THEIRS", "merge-db");
	if (strcmp(command, "merge-out") == 0)
		return n_positional == 2 ? merge_out_command(positional[0], positional[1])
					 : bad_usage("%s: merge-out needs OURS PATH", "merge-out");
	if (strcmp(command, "lookup") == 0 && n_positional != 3)
		return bad_usage("%s: lookup needs VENDOR FAMILY MODEL", "lookup");
	if (strcmp(o.user_copy_result, "status") && strcmp(o.user_copy_result, "remaining"))
		return bad_usage("--user-copy-result '%s': say status or remaining", o.user_copy_result);
	if (o.linux_form) {
		/* Linux's contract and macros: bytes not copied, SMAP through
		 * ASM_STAC/ASM_CLAC, ENDBR from SYM_FUNC_START. */
		if (strcmp(o.user_copy_result, "remaining") && user_copy_result_set)
			return bad_usage("--linux: Linux's user copies return the bytes not copied "
					 "(--user-copy-result remaining), not '%s'", o.user_copy_result);
		/* The kernel has its own memcpy: a strong one would clash. */
		if (o.memcpy_symbol)
			return bad_usage("--linux: the kernel has its own memcpy (%s)", "no --memcpy-symbol");
		o.user_copy_result = "remaining";
		o.smap = 1;
		o.endbr = 0;
	}
	if (!prefix_ok(o.prefix))
		return bad_usage("--prefix '%s' is not a symbol prefix ([A-Za-z_][A-Za-z0-9_]*)", o.prefix);
	if (o.target && !o.out_dir)
		return bad_usage("--target %s needs --out DIR: out/ holds the routines for every core", o.target);
	if (!o.out_dir)
		o.out_dir = "out";

	if (strcmp(command, "strategies") == 0)
		return print_strategies();
	if (strcmp(command, "dump") == 0)
		return dump_command(o.db_path);
	if (strcmp(command, "import") == 0)
		return import_archives(o.db_path, name, dry_run, archives, n_archives);

	struct model m;
	if (model_load(&m, o.db_path))
		return EXIT_FAIL;
	if (o.target && !model_uarch(&m, o.target)) {
		err("--target %s: %s has no such entry (see: uarchgen query)", o.target, o.db_path);
		return EXIT_FAIL;
	}

	if (strcmp(command, "lookup") == 0)
		return print_lookup(&m, positional[0], positional[1], positional[2], flavor);
	if (strcmp(command, "flavors") == 0)
		return print_flavors(&m);
	if (strcmp(command, "query") == 0 || strcmp(command, "debt") == 0) {
		struct buf text = {0};
		char *tpl = xasprintf("%s/%s", o.templates_dir,
				      strcmp(command, "query") == 0 ? "report/query.txt.tpl" : "out/DEBT.md.tpl");
		int rc = render_one(&m, &o, NULL, tpl, &text);
		free(tpl);
		if (!rc)
			fputs(text.data ? text.data : "", stdout);
		buf_free(&text);
		return rc;
	}

	struct fileset fs;
	if (render_all(&m, &o, &fs)) {
		err("nothing was written to %s/", o.out_dir);
		return EXIT_FAIL;
	}
	int rc;
	if (strcmp(command, "check") == 0) {
		int differences = output_check(&fs, o.out_dir);
		if (differences) {
			err("%s/ does not match %s and the templates (%d difference%s).", o.out_dir, o.db_path,
			    differences, differences == 1 ? "" : "s");
			err("fix: make    (or: gen/uarchgen gen --db %s --out %s)", o.db_path, o.out_dir);
			rc = EXIT_FAIL;
		} else {
			rc = 0;
		}
	} else {
		rc = output_write(&fs, o.out_dir, !quiet);
	}
	fileset_free(&fs);
	return rc;
}
