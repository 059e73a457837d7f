/* Runs a program under a seccomp filter that refuses to make memory
 * writable after the fact: mprotect with PROT_WRITE, and mmap of memory
 * both writable and executable, fail with EACCES (the filter cannot see
 * whether a page holds code, so it refuses every such mprotect; a loader
 * and a C library that never write code need none). A library that
 * patched its own text would be refused here, and a test checks that
 * libuarchcopy still selects its routine. With --exec, mprotect with
 * PROT_EXEC is refused instead: data may be made writable (a GOT page),
 * but no page executable again once written, so that a library that wrote
 * code would be refused or would fault, and one that writes only data
 * runs as without it.
 * usage: no_write_exec [--exec] PROGRAM [ARGS...]   (--self-test: try to
 *        make this program's own text writable, or with --exec
 *        executable, under the filter, and exit 0 only if that was
 *        refused) */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ARG_LOW(i) (offsetof(struct seccomp_data, args) + 8 * (i))

static int install_filter(unsigned int refused_prot)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mprotect, 0, 3),
		/* mprotect(addr, len, prot): any prot with refused_prot. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(2)),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, refused_prot, 0, 5),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 0, 3),
		/* mmap(addr, len, prot, ...): PROT_WRITE and PROT_EXEC together. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(2)),
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PROT_WRITE | PROT_EXEC),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PROT_WRITE | PROT_EXEC, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
	};
	struct sock_fprog prog = {sizeof code / sizeof code[0], code};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* 0 when the filter refused to make this program's text writable (or,
 * refusing PROT_EXEC, executable). */
static int self_test(unsigned int refused_prot)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	void *text = (void *)((uintptr_t)&self_test & ~(page - 1));
	if (mprotect(text, page, PROT_READ | refused_prot | PROT_EXEC) == 0) {
		fprintf(stderr, "no_write_exec: the filter let this program's text become %s\n",
			refused_prot == PROT_EXEC ? "executable again" : "writable");
		return 1;
	}
	if (errno != EACCES) {
		fprintf(stderr, "no_write_exec: mprotect failed, but not by the filter: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int refused_prot = PROT_WRITE;
	if (argc > 1 && strcmp(argv[1], "--exec") == 0)
		refused_prot = PROT_EXEC, argc--, argv++;
	if (argc < 2 || strcmp(argv[1], "--help") == 0) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: no_write_exec [--exec] PROGRAM [ARGS...] | [--exec] --self-test\n"
			"Runs PROGRAM where mprotect with PROT_WRITE (with --exec: PROT_EXEC), and writable\n"
			"executable mmap, fail.\n");
		return argc < 2 ? 2 : 0;
	}
	if (install_filter(refused_prot) != 0) {
		perror("no_write_exec: seccomp");
		return 1;
	}
	if (strcmp(argv[1], "--self-test") == 0)
		return self_test(refused_prot);
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no_write_exec: %s: %s\n", argv[1], strerror(errno));
	return 1;
}
