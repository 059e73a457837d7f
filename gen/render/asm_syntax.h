/* The syntax back-ends. A routine file is written once, in the neutral
 * assembly below, and rendered as NASM (elf64) and as GAS in Intel syntax
 * (.intel_syntax noprefix), which gcc -c, clang -c and Rust's global_asm!
 * accept. The two renderings must assemble to the same bytes; the identity
 * test (tests/syntax_identity.sh) proves it for every generated file.
 *
 * The neutral assembly is Intel syntax, one statement a line:
 *   ; text                    a comment, alone or after a statement
 *   name:                     a label; .Lname is local to the file and, for
 *                             NASM, to the last label not starting with '.'
 *   intel64                   64-bit code, memory operands RIP-relative
 *   section NAME              .text, .data, .rodata, .data.rel.ro, .bss
 *                             or .note.GNU-stack
 *   func NAME / endfunc       an exported function; endfunc ends every
 *                             function opened since the last one
 *   object NAME / endobject   an exported data object, the same way
 *   global NAME[, NAME]       an exported label without type
 *   entry NAME                a routine of this file that is not exported,
 *                             reached by a jump or through a pointer: a label
 *                             here, a local function where the back-end
 *                             needs one (Linux's objtool)
 *   access NAME, FIXUP        the label NAME, which opens the instructions
 *   endaccess NAME            that touch user memory, and the label that
 *                             closes them; FIXUP is where a back-end that
 *                             gives each such instruction its own exception
 *                             entry sends a fault
 *   exceptions MODEL          the lines up to endexceptions are written only
 *   endexceptions             by the back-ends whose exception model is
 *                             MODEL: "ranges" (the access ranges and a shared
 *                             fault exit, nasm and gas) or "extable" (an
 *                             entry per instruction and a fixup in each
 *                             routine, linux)
 *   align N                   pad with zero bytes to an N-byte boundary (data)
 *   codealign N               pad with int3 (0xcc) to an N-byte boundary, in
 *                             code that no path falls into: the two
 *                             back-ends would fill with different nops
 *   codepad L, X[, X]         pad with int3 until as many bytes follow label
 *                             L as the largest X (a number, "A - B" or
 *                             "A - B + N", labels defined before), if fewer
 *                             do: a room the assembler measures
 *   reserve X                 X zero bytes of .bss (a number or "A - B")
 *   mark NAME                 a label that only data refers to: it changes
 *                             no label's scope (NASM's ..@NAME, GAS's
 *                             .LNAME), so it may sit between a jump and its
 *                             .L target; data and codepad name it as NAME
 *   dq X[, X] / db N[, N]     data: quadwords (numbers or symbols), bytes
 *   db A - B                  a byte: the distance between two labels
 *   dw N[, N] / dw A - B[, ..] 16-bit words: numbers, or label distances
 *   cetnote                   the GNU property note that marks the file as
 *                             compatible with CET (IBT and shadow stacks)
 *   jcc near L / jmp near L   a jump with a 32-bit displacement, whatever
 *                             the distance
 *   anything else             an instruction: mnemonic, then operands, with
 *                             [rel SYMBOL] for a RIP-relative operand
 * Anything the back-ends do not know is an error naming the line, so a
 * template cannot write one syntax's idiom by accident. The Linux back-end
 * (gen --linux) is asm_linux.c. */
#ifndef UARCHGEN_ASM_SYNTAX_H
#define UARCHGEN_ASM_SYNTAX_H

#include "../../common/util.h"

#include <stddef.h>

enum asm_syntax { ASM_NASM, ASM_GAS, ASM_LINUX };

/* Each back-end and the file it writes: name.asm.tpl renders to name.asm
 * and name.S, and with gen --linux to name_linux.S, for Linux's
 * arch/x86/lib. */
struct asm_output {
	enum asm_syntax syntax;
	const char *suffix;
	int linux_only; /* written only with gen --linux */
};

extern const struct asm_output asm_outputs[];
extern const size_t asm_n_outputs;

/* A routine of the flavor's list: its name, without the prefix, and its
 * kind (routines.lua's; NULL when it has none). */
struct asm_routine {
	const char *name, *kind;
};

/* Appends the text of neutral (len bytes) in syntax to out. name is the
 * template's, for errors; every routine of routines must be exported with
 * func, and every exported function that starts with prefix must be one of
 * them. Nonzero, after printing the error (naming the template and the
 * output line), when the text is not neutral assembly or the lists
 * disagree. */
int asm_render(const char *neutral, size_t len, enum asm_syntax syntax, const char *name, const char *prefix,
	       const struct asm_routine *routines, size_t n_routines, struct buf *out);

#endif
