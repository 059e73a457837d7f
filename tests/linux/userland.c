/*
 * The userland check of tests/linux/tree.sh, run as init's child in the
 * Linux tree built on the generated copies: it moves bytes through the
 * kernel's own paths, which copy with copy_from_user (write) and
 * copy_to_user (read, pread), and compares every byte.
 *   - a pipe: write, then read;
 *   - a tmpfs file: write, then read and pread, at file offsets 0 and 3;
 * with the user buffer at page offsets 0, 16, 31, 64 and 4080 (the pipe
 * case of the toyos pull request that seeded this project), lengths from
 * 1 B to 1 MiB, and the bytes beside the user buffer checked untouched.
 * Then the faults: a read or pread into an unmapped page, and a write from
 * one, must fail with EFAULT, the kernel's exception entries serving them.
 * Prints one line a failure and "N passed, M failed"; exit 1 on a failure.
 * usage: userland DIR (a tmpfs directory)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096
#define MAX_LEN (1 << 20)
#define GUARD 64 /* bytes checked untouched on each side of a buffer */

static int passed, failed;

static void result(int ok, const char *what, size_t offset, size_t len)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL %s: offset %zu, %zu bytes\n", what, offset, len);
}

/* A buffer of MAX_LEN bytes at every page offset, with guards. */
static unsigned char *map_buffer(void)
{
	unsigned char *p = mmap(NULL, MAX_LEN + 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("userland: mmap");
		exit(2);
	}
	return p + PAGE;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 131 + seed * 7 + (i >> 8));
}

/* Whether dst[0, n) equals src[0, n) and the guards around dst hold 0xa5. */
static int same(const unsigned char *dst, const unsigned char *src, size_t n)
{
	for (size_t i = 1; i <= GUARD; i++)
		if (dst[-(long)i] != 0xa5 || dst[n + i - 1] != 0xa5)
			return 0;
	return memcmp(dst, src, n) == 0;
}

/* Fills the destination area with 0xa5: guards and all. */
static unsigned char *clear(unsigned char *base, size_t offset, size_t n)
{
	memset(base + offset - GUARD + PAGE, 0xa5, n + 2 * GUARD);
	return base + PAGE + offset;
}

/* ok when a full transfer of n bytes happened. */
static int full(ssize_t got, size_t n)
{
	return got >= 0 && (size_t)got == n;
}

static void pipe_case(unsigned char *src_base, unsigned char *dst_base, size_t offset, size_t n, unsigned seed)
{
	int fd[2];
	unsigned char *src = src_base + PAGE + offset, *dst = clear(dst_base, offset, n);
	fill(src, n, seed);
	if (pipe(fd) != 0 || fcntl(fd[1], F_SETPIPE_SZ, MAX_LEN) < 0) {
		result(0, "pipe (setup)", offset, n);
		return;
	}
	int ok = full(write(fd[1], src, n), n);
	result(ok, "pipe write (copy_from_user)", offset, n);
	size_t got = 0;
	while (ok && got < n) {
		ssize_t r = read(fd[0], dst + got, n - got);
		if (r <= 0)
			ok = 0;
		else
			got += (size_t)r;
	}
	result(ok && same(dst, src, n), "pipe read (copy_to_user)", offset, n);
	close(fd[0]);
	close(fd[1]);
}

static void file_case(const char *path, unsigned char *src_base, unsigned char *dst_base, size_t offset, size_t n,
		      unsigned seed)
{
	unsigned char *src = src_base + PAGE + offset;
	fill(src, n, seed);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		result(0, "tmpfs file (open)", offset, n);
		return;
	}
	for (off_t at = 0; at <= 3; at += 3) {
		result(full(pwrite(fd, src, n, at), n), "tmpfs pwrite (copy_from_user)", offset, n);
		unsigned char *dst = clear(dst_base, offset, n);
		result(full(pread(fd, dst, n, at), n) && same(dst, src, n), "tmpfs pread (copy_to_user)", offset, n);
		dst = clear(dst_base, offset, n);
		int ok = lseek(fd, at, SEEK_SET) == at && full(read(fd, dst, n), n);
		result(ok && same(dst, src, n), "tmpfs read (copy_to_user)", offset, n);
	}
	close(fd);
}

/* A read or pread into an unmapped page, and a write from one: EFAULT. */
static void fault_cases(const char *path, unsigned char *src_base)
{
	static const size_t lens[] = {1, 8, 16, 31, 64, 256, 4096};
	unsigned char *hole = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600), p[2];
	if (hole == MAP_FAILED || fd < 0 || pipe(p) != 0) {
		result(0, "faults (setup)", 0, 0);
		return;
	}
	fill(src_base + PAGE, PAGE, 1);
	for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
		size_t n = lens[i];
		result(full(pwrite(fd, src_base + PAGE, n, 0), n), "faults: pwrite", 0, n);
		errno = 0;
		result(pread(fd, hole, n, 0) < 0 && errno == EFAULT, "pread into an unmapped page: EFAULT", 0, n);
		errno = 0;
		result(write(fd, hole, n) < 0 && errno == EFAULT, "write from an unmapped page: EFAULT", 0, n);
		result(full(write(p[1], src_base + PAGE, n), n), "faults: pipe write", 0, n);
		errno = 0;
		result(read(p[0], hole, n) < 0 && errno == EFAULT, "pipe read into an unmapped page: EFAULT", 0, n);
		unsigned char *dst = clear(src_base, 2 * PAGE, n); /* the bytes stay in the pipe */
		result(full(read(p[0], dst, n), n) && same(dst, src_base + PAGE, n), "pipe read after the fault", 0, n);
	}
	close(fd);
	close(p[0]);
	close(p[1]);
}

int main(int argc, char **argv)
{
	static const size_t offsets[] = {0, 16, 31, 64, 4080};
	static const size_t lens[] = {1,   7,    8,    15,   16,   17,    31,    32,    33,    63,         64,
				      65,  100,  255,  256,  257,  1000,  4095,  4096,  4097,  8192 + 13, 65536,
				      65536 + 77, 300000, MAX_LEN - PAGE};
	if (argc != 2) {
		fprintf(stderr, "usage: userland DIR (a tmpfs directory)\n");
		return 2;
	}
	char path[4096];
	snprintf(path, sizeof path, "%s/userland.data", argv[1]);
	unsigned char *src = map_buffer(), *dst = map_buffer();
	unsigned seed = 0;
	for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++) {
		for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
			pipe_case(src, dst, offsets[o], lens[l], ++seed);
			file_case(path, src, dst, offsets[o], lens[l], ++seed);
		}
	}
	fault_cases(path, src);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
