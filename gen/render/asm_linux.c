/* The Linux back-end of the neutral assembly (asm_syntax.h): a GAS file for
 * arch/x86/lib, assembled by Kbuild and checked by objtool. It is the GAS
 * back-end but for what Linux writes with its own macros:
 *   section .text        .noinstr.text, as memcpy_64.S's code (section())
 *   func / endfunc       SYM_FUNC_START / SYM_FUNC_END (linux/linkage.h):
 *                        with CONFIG_X86_KERNEL_IBT the start holds ENDBR
 *                        itself (arch/x86/include/asm/linkage.h), so a
 *                        literal endbr64 is refused here (gen --linux
 *                        implies --no-endbr)
 *   entry NAME           SYM_FUNC_START_LOCAL: a routine reached only by a
 *                        jump or a pointer is still a function to objtool,
 *                        which validates each symbol from its start; it
 *                        ends at the next func, entry or section
 *   ret                  RET: a jmp to __x86_return_thunk with
 *                        CONFIG_RETHUNK, ret; int3 with CONFIG_SLS; objtool
 *                        --rethunk refuses a bare ret
 *   stac / clac          ASM_STAC / ASM_CLAC (asm/smap.h): alternatives,
 *                        nops until the boot CPU says it has SMAP
 *   access L, FIXUP      from here to endaccess, every instruction that
 *   endaccess L          may touch user memory gets its own __ex_table
 *                        entry, _ASM_EXTABLE_UA(insn, FIXUP) (asm/asm.h):
 *                        Linux's fault handler looks the faulting rip up
 *                        entry by entry (search_exception_tables), it
 *                        knows no ranges
 *   builtin_alias A, N   built into the kernel (MODULE undefined), A is
 *   [, weak]             another name of function N, exported to modules
 *                        (SYM_FUNC_ALIAS[_WEAK], EXPORT_SYMBOL): how the
 *                        copy becomes Linux's memcpy
 *   builtin_export N     built into the kernel, N is exported to modules,
 *                        which inline calls to it
 *   linux_include <H>    #include <H>: the headers that differ between
 *                        Linux versions (EXPORT_SYMBOL's, the alternatives')
 *   alternative "OLD", "NEW", FEATURE
 *                        ALTERNATIVE (asm/alternative.h): OLD, rewritten
 *                        at boot to NEW where the CPU has FEATURE; inside
 *                        an access range it gets an exception entry at its
 *                        start, as Linux's copy_user_generic gives its own
 * Those four are Linux's alone: the templates write them in an exceptions
 * extable block, which the other back-ends leave out.
 * "Touches memory": a memory operand that is not rip-relative (those are
 * the file's own tables, kernel data) and not lea's, or a string
 * instruction. A load from the kernel side gets an entry too, as Linux's
 * own copy_user_64.S gives its loads and stores alike: one body serves
 * both directions. */
#include "asm_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kbuild runs a .S file through the C preprocessor: Linux's macros come
 * from these headers. */
static const char header[] = "#include <linux/linkage.h>\n"
			     "#include <asm/asm.h>\n"
			     "#include <asm/smap.h>\n"
			     "\n"
			     "        .intel_syntax noprefix";

static int string_op(const char *op)
{
	static const char *const ops[] = {"movsb", "movsw", "movsd", "movsq", "stosb", "stosw", "stosd", "stosq"};
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (strcmp(op, ops[i]) == 0)
			return 1;
	return 0;
}

/* Whether instruction op rest may touch memory that is not the file's own. */
static int touches_memory(const char *op, const char *rest)
{
	if (strcmp(op, "rep") == 0)
		return string_op(rest);
	if (string_op(op))
		return 1;
	if (strcmp(op, "lea") == 0 || strncmp(op, "nop", 3) == 0 || strncmp(op, "prefetch", 8) == 0)
		return 0;
	return strchr(rest, '[') && !strstr(rest, "[rel ");
}

/* func and entry write their symbol's label themselves: the label line
 * that follows is theirs. */
static void name_label(struct asm_state *st, const char *label)
{
	for (size_t i = 0; i < st->n_named; i++)
		if (strcmp(st->named[i], label) == 0)
			return;
	st->named = xrealloc(st->named, (st->n_named + 1) * sizeof *st->named);
	st->named[st->n_named++] = xstrdup(label);
}

/* 1 when func or entry wrote label, which is then no longer theirs. */
static int take_label(struct asm_state *st, const char *label)
{
	for (size_t i = 0; i < st->n_named; i++) {
		if (strcmp(st->named[i], label) == 0) {
			free(st->named[i]);
			st->named[i] = st->named[--st->n_named];
			return 1;
		}
	}
	return 0;
}

char *asm_linux_close(struct asm_state *st, const char *indent)
{
	if (!st->local_fn)
		return NULL;
	char *line = xasprintf("%sSYM_FUNC_END(%s)", indent, st->local_fn);
	free(st->local_fn);
	st->local_fn = NULL;
	return line;
}

/* a, then b on a line of its own; an absent or empty one is no line.
 * Frees a and b. */
static char *join(char *a, char *b)
{
	char *both = a && *a && b && *b ? xasprintf("%s\n%s", a, b) : xstrdup(a && *a ? a : b ? b : "");
	free(a);
	free(b);
	return both;
}

/* func, endfunc and entry: 1 with *out (NULL after asm_fail), or 0 when
 * the statement is GAS's. */
static int functions(struct asm_state *st, const char *indent, const char *op, const char *rest, char **out)
{
	if (strcmp(op, "func") == 0) {
		if (st->n_open) {
			asm_fail(st, "func %s: Linux takes one function at a time (%s is open)", rest, st->open[0]);
			return 1;
		}
		st->open = xrealloc(st->open, sizeof *st->open);
		st->open[st->n_open++] = xstrdup(rest);
		asm_export(st, rest, "func");
		name_label(st, rest);
		*out = join(asm_linux_close(st, indent), xasprintf("%sSYM_FUNC_START(%s)", indent, rest));
	} else if (strcmp(op, "endfunc") == 0 && st->n_open && asm_exported(st, st->open[0]) &&
		   strcmp(asm_exported(st, st->open[0]), "func") == 0) {
		*out = xasprintf("%sSYM_FUNC_END(%s)", indent, st->open[0]);
		for (size_t i = 0; i < st->n_open; i++)
			free(st->open[i]);
		st->n_open = 0;
	} else if (strcmp(op, "entry") == 0) {
		char *closed = asm_linux_close(st, indent);
		st->local_fn = xstrdup(rest);
		name_label(st, rest);
		*out = join(closed, xasprintf("%sSYM_FUNC_START_LOCAL(%s)", indent, rest));
	} else {
		return 0;
	}
	return 1;
}

/* A section ends the local function open. NULL after asm_fail. The code
 * goes in .noinstr.text, where Linux keeps its own memcpy (memcpy_64.S):
 * code that must not be instrumented (the entry code; fixup_bad_iret in
 * traps.c calls __memcpy) may call it, and objtool's noinstr validation
 * (CONFIG_DEBUG_ENTRY) refuses a call or jump from there into .text. */
static char *section(struct asm_state *st, const char *indent, const char *body)
{
	const char *rest;
	char *op = asm_split(body, &rest);
	int text = strcmp(rest, ".text") == 0;
	free(op);
	char *closed = asm_linux_close(st, indent),
	     *gas = text ? xasprintf("%s.section .noinstr.text, \"ax\"", indent) : asm_gas_statement(st, indent, body);
	if (!gas) {
		free(closed);
		return NULL;
	}
	return join(closed, gas);
}

/* access NAME, FIXUP: the label NAME; the fixup of the instructions up to
 * endaccess. NULL after asm_fail. */
static char *access_range(struct asm_state *st, const char *rest)
{
	size_t name = asm_word_span(rest);
	if (!name || rest[name] != ',')
		return asm_fail(st, "access NAME, FIXUP: '%s'", rest);
	const char *fixup = rest + name + 1;
	while (asm_space((unsigned char)*fixup))
		fixup++;
	size_t n = asm_word_span(fixup);
	if (!n || fixup[n])
		return asm_fail(st, "access NAME, FIXUP: '%s'", rest);
	free(st->fixup);
	st->fixup = xstrdup(fixup);
	return xasprintf("%.*s:", (int)name, rest);
}

/* An instruction that may touch user memory, inside an access range, with
 * its own exception entry; NULL after asm_fail. */
static char *user_access(struct asm_state *st, const char *indent, const char *body)
{
	char *at = xasprintf(".Luc_uaccess_%d", ++st->n_extable);
	char *gas = asm_gas_statement(st, indent, body);
	char *out = gas ? xasprintf("%s_ASM_EXTABLE_UA(%s, %s)\n%s:\n%s", indent, at, st->fixup, at, gas) : NULL;
	free(at);
	free(gas);
	return out;
}

/* alternative "OLD", "NEW", FEATURE, as GAS writes Linux's macro; inside
 * an access range, with an exception entry at the site: the first
 * instruction of either form is the one that may fault there (rep movsb),
 * and a call faults only inside its callee, which has entries of its own.
 * NULL after asm_fail. */
static char *alternative(struct asm_state *st, const char *indent, const char *rest)
{
	if (rest[0] != '"' || !strchr(rest + 1, ','))
		return asm_fail(st, "alternative \"OLD\", \"NEW\", FEATURE: '%s'", rest);
	if (!st->fixup)
		return xasprintf("%sALTERNATIVE %s", indent, rest);
	char *at = xasprintf(".Luc_uaccess_%d", ++st->n_extable);
	char *out = xasprintf("%s_ASM_EXTABLE_UA(%s, %s)\n%s:\n%sALTERNATIVE %s", indent, at, st->fixup, at, indent, rest);
	free(at);
	return out;
}

/* builtin_alias ALIAS, NAME[, weak] and builtin_export NAME: what a kernel
 * that links the file in (not a module: Kbuild defines MODULE for those)
 * names and exports. NULL after asm_fail. */
static char *builtin(struct asm_state *st, const char *indent, const char *op, const char *rest)
{
	size_t a = asm_word_span(rest);
	if (strcmp(op, "builtin_export") == 0) {
		if (!a || rest[a])
			return asm_fail(st, "builtin_export NAME: '%s'", rest);
		return xasprintf("#ifndef MODULE\n%sEXPORT_SYMBOL(%s)\n#endif", indent, rest);
	}
	const char *name = rest + a, *weak;
	size_t n = 0;
	if (a && *name == ',') {
		for (name++; asm_space((unsigned char)*name); name++)
			;
		n = asm_word_span(name);
	}
	for (weak = name + n; *weak == ',' || asm_space((unsigned char)*weak); weak++)
		;
	if (!n || (*weak && strcmp(weak, "weak")) || (!*weak && name[n]))
		return asm_fail(st, "builtin_alias ALIAS, NAME[, weak]: '%s'", rest);
	return xasprintf("#ifndef MODULE\n%sSYM_FUNC_ALIAS%s(%.*s, %.*s)\n%sEXPORT_SYMBOL(%.*s)\n#endif", indent,
			 *weak ? "_WEAK" : "", (int)a, rest, (int)n, name, indent, (int)a, rest);
}

int asm_linux_statement(struct asm_state *st, const char *indent, const char *body, char **out)
{
	if (asm_label(body)) {
		char *label = xasprintf("%.*s", (int)strlen(body) - 1, body);
		int named = take_label(st, label);
		free(label);
		if (named)
			*out = xstrdup("");
		return named;
	}
	const char *rest;
	char *op = asm_split(body, &rest);
	int mine = 1;
	if (strcmp(op, "intel64") == 0) {
		*out = xstrdup(header);
	} else if (strcmp(op, "endbr64") == 0) {
		asm_fail(st, "endbr64: SYM_FUNC_START writes ENDBR itself (generate with --no-endbr)");
	} else if (functions(st, indent, op, rest, out)) {
		/* written, or failed */
	} else if (strcmp(op, "section") == 0) {
		*out = section(st, indent, body);
	} else if (strcmp(op, "access") == 0) {
		*out = access_range(st, rest);
	} else if (strcmp(op, "builtin_alias") == 0 || strcmp(op, "builtin_export") == 0) {
		*out = builtin(st, indent, op, rest);
	} else if (strcmp(op, "linux_include") == 0) {
		*out = rest[0] == '<' && rest[strlen(rest) - 1] == '>' ? xasprintf("#include %s", rest)
								      : asm_fail(st, "linux_include <HEADER>: '%s'", rest);
	} else if (strcmp(op, "alternative") == 0) {
		*out = alternative(st, indent, rest);
	} else if (strcmp(op, "endaccess") == 0) {
		free(st->fixup);
		st->fixup = NULL;
		*out = xasprintf("%s:", rest);
	} else if (!*rest && (strcmp(op, "ret") == 0 || strcmp(op, "stac") == 0 || strcmp(op, "clac") == 0)) {
		*out = xasprintf("%s%s", indent, strcmp(op, "ret") == 0 ? "RET" : op[0] == 's' ? "ASM_STAC" : "ASM_CLAC");
	} else if (st->fixup && asm_mnemonic(op) && touches_memory(op, rest)) {
		*out = user_access(st, indent, body);
	} else {
		mine = 0;
	}
	free(op);
	return !mine ? 0 : *out ? 1 : -1;
}
