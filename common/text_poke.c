#include "text_poke.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void text_poke_user(void *addr, const void *bytes, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t first = (uintptr_t)addr & ~(page - 1);
	size_t span = (size_t)((uintptr_t)addr + len - first);
	if (mprotect((void *)first, span, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
		perror("text_poke_user: mprotect (cannot make the routines' code writable)");
		exit(2);
	}
	memcpy(addr, bytes, len);
	if (mprotect((void *)first, span, PROT_READ | PROT_EXEC) != 0) {
		perror("text_poke_user: mprotect");
		exit(2);
	}
	/* Code this thread runs next is fetched after the write (Intel SDM
	 * vol. 3A, 8.1.3, self-modifying code): nothing more to do on one
	 * thread, and the callers patch before any other thread copies. */
}
