/* Faults in the user copies, in user space. A SIGSEGV handler plays the
 * kernel's page-fault handler with uc_user_access_ranges as its exception
 * table: for a fault at a "user" address with rip in an access range it
 * either serves the fault (unprotects the page and returns, so the faulting
 * instruction reruns) or sends rip to uc_user_fault_exit. Any other fault is
 * an oops: it is not swallowed. The cases run under tables no entry holds
 * (the table dispatch) and under each measured table (its compiled user
 * copies, each with its own access range). */
#include "fault_tests.h"

#include "copy_rule.h"
#include "../common/text_poke.h"

#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define USER_PAGES 24u
#define USER_SIZE (USER_PAGES * PAGE)
#define KERN_SIZE (USER_SIZE + 2 * PAGE)

static unsigned char *user;        /* the "user" mapping, pages PROT_NONE as a test wants */
static unsigned char *kern;        /* kernel memory: always mapped */
static unsigned char *kern_hole;   /* a PROT_NONE page that is not user memory */
static unsigned char user_before[USER_SIZE], kern_before[KERN_SIZE];

static volatile enum mode mode;
static volatile int served, refused, oopses;
static sigjmp_buf oops_exit;
static volatile sig_atomic_t armed; /* oops_exit is valid: a user copy is running */

static int in_access_range(uintptr_t rip)
{
	for (uint64_t i = 0; i < uc_user_access_range_count; i++)
		if (rip >= uc_user_access_ranges[2 * i] && rip < uc_user_access_ranges[2 * i + 1])
			return 1;
	return 0;
}

static void on_segv(int sig, siginfo_t *info, void *context)
{
	(void)sig;
	ucontext_t *uc = context;
	uintptr_t rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	unsigned char *addr = info->si_addr;
	int user_address = addr >= user && addr < user + USER_SIZE;
	if (user_address && in_access_range(rip)) {
		if (mode == SERVE) {
			mprotect((void *)((uintptr_t)addr & ~(uintptr_t)(PAGE - 1)), PAGE, PROT_READ | PROT_WRITE);
			served++;
		} else {
			uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)uc_user_fault_exit;
			refused++;
		}
		return;
	}
	oopses++;
	if (!armed) {
		/* A fault in the test itself: die of it, loudly, instead of jumping to a dead frame. */
		char msg[96];
		int len = snprintf(msg, sizeof msg, "fault_tests: a fault outside any user copy (rip %#lx, address %p)\n",
				   (unsigned long)rip, (void *)addr);
		if (write(2, msg, (size_t)len) < 0)
			_exit(3);
		signal(SIGSEGV, SIG_DFL);
		return;
	}
	armed = 0;
	siglongjmp(oops_exit, 1);
}

static int passed, failed;

void result(const char *name, int ok, const char *why)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAIL %s: %s\n", name, why);
	}
}

static void reset(void)
{
	mprotect(user, USER_SIZE, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < USER_SIZE; i++)
		user[i] = user_before[i] = (unsigned char)(i * 7 + 3);
	for (size_t i = 0; i < KERN_SIZE; i++)
		kern[i] = kern_before[i] = (unsigned char)(i * 13 + 101);
	served = refused = oopses = 0;
}

static void protect(size_t first_page, size_t pages)
{
	mprotect(user + first_page * PAGE, pages * PAGE, PROT_NONE);
}

/* Runs one user copy; what it returned, or -1 after an oops. */
static long run(enum direction dir, unsigned char *udst_or_usrc, unsigned char *k, size_t n)
{
	long ret;
	if (sigsetjmp(oops_exit, 1))
		return -1;
	armed = 1;
	if (dir == TO_USER)
		ret = uc_copy_to_user(udst_or_usrc, k, n);
	else if (dir == FROM_USER)
		ret = uc_copy_from_user(k, udst_or_usrc, n);
	else
		ret = uc_clear_user(udst_or_usrc, n);
	armed = 0;
	return ret;
}

/* Every byte of [lo, hi) outside [dst, dst + n) is as before; inside, each is
 * either as before or what the copy puts there (some or none copied), or,
 * with whole, exactly what it puts there. */
static const char *check_bytes(const unsigned char *mem, const unsigned char *before, size_t size, size_t dst,
			       size_t n, const unsigned char *want, int whole)
{
	for (size_t i = 0; i < size; i++) {
		int inside = i >= dst && i < dst + n;
		unsigned char expect_new = inside && want ? want[i - dst] : 0;
		if (!inside && mem[i] != before[i])
			return "a byte outside the destination changed";
		if (inside && whole && mem[i] != expect_new)
			return "the destination differs from the reference";
		if (inside && !whole && mem[i] != expect_new && mem[i] != before[i])
			return "a destination byte is neither the old one nor the copied one";
	}
	return NULL;
}

size_t user_start = PAGE + 40;

/* One copy under the installed rule: the user side starts at user_start
 * and spans n bytes; the kernel side is dist bytes (mod 4096) above
 * or below it. SERVE: every user page faults once and is served; REFUSE:
 * the last user page faults and nobody serves it. NULL, or what went wrong
 * (in why, with what the copy returned). */
const char *fault_one(enum direction dir, unsigned int dist, size_t n, enum mode m, char *why, size_t size)
{
	reset();
	size_t uoff = user_start;
	/* The kernel side sits at the same offset mod 4096 as the user side plus or minus dist. */
	size_t koff = PAGE + ((uoff + (dir == FROM_USER ? dist : 4096 - dist)) % PAGE);
	unsigned char *u = user + uoff, *k = kern + koff;
	int s = dir == CLEAR ? UC_STRATEGY_FORWARD : dir == TO_USER ? uc_copy_strategy(u, k, n) : uc_copy_strategy(k, u, n);
	size_t first = uoff / PAGE, last = (uoff + n - 1) / PAGE;
	mode = m;
	if (m == SERVE)
		protect(first, last - first + 1); /* every user page faults once */
	else
		protect(last, 1);                 /* the copy gets some way, then a fault nobody serves */
	long ret = run(dir, u, k, n);
	mprotect(user, USER_SIZE, PROT_READ | PROT_WRITE);
	const char *bad = NULL;
#if UC_USER_COPY_RESULT_REMAINING
	/* Linux's contract: the bytes not copied; exact on the forward paths
	 * (the fault is at the last page), all n on the others, which never
	 * move rdi. */
	int exact = s == UC_STRATEGY_FORWARD || s == UC_STRATEGY_FORWARD_ALIGNED;
	size_t on_last = uoff + n - last * PAGE;
	long remaining = m == SERVE ? 0 : exact ? (long)(on_last < n ? on_last : n) : (long)n;
#else
	(void)s;
	long remaining = m == SERVE ? 0 : 1;
#endif
	if (ret < 0)
		bad = "the fault was not fixed up: an oops";
	else if (m == SERVE && ret != 0)
		bad = "returned failure after served faults";
	else if (m == SERVE && served == 0)
		bad = "no fault was served: the case tested nothing";
	else if (m == REFUSE && ret == 0)
		bad = "returned success after a fault nobody served";
	else if (m == REFUSE && refused != 1)
		bad = "the refused fault did not reach the fault exit once";
	else if (ret != remaining)
		bad = "returned the wrong result";
	else if (dir == TO_USER)
		bad = check_bytes(user, user_before, USER_SIZE, uoff, n, k, m == SERVE);
	else if (dir == CLEAR)
		bad = check_bytes(user, user_before, USER_SIZE, uoff, n, NULL, m == SERVE);
	else
		bad = check_bytes(kern, kern_before, KERN_SIZE, koff, n, user_before + uoff, m == SERVE);
	if (!bad && dir != FROM_USER && memcmp(kern, kern_before, KERN_SIZE) != 0)
		bad = "the kernel source changed";
	if (!bad && dir == FROM_USER && memcmp(user, user_before, USER_SIZE) != 0)
		bad = "the user source changed";
	snprintf(why, size, "%s (ret %ld, want %ld, %d served, %d refused)", bad ? bad : "", ret, remaining, served,
		 refused);
	return bad;
}

/* One case under a table of Zen 2's shape: copies of 64 bytes or more at
 * d = 1..window-1 go down; expect_down says which way this one must go. */
static void fault_case(const char *name, enum direction dir, unsigned int window, unsigned int dist, size_t n,
		       enum mode m, int expect_down)
{
	char why[200];
	struct uc_rule rule = {window ? window - 1 : 0, 0, 0, 4096, 0, 2,
			       {{63, {UC_STRATEGY_FORWARD, UC_STRATEGY_FORWARD, UC_STRATEGY_FORWARD, UC_STRATEGY_FORWARD,
				      UC_STRATEGY_FORWARD}},
				{(size_t)-1, {UC_STRATEGY_FORWARD, UC_STRATEGY_DOWN, UC_STRATEGY_FORWARD, UC_STRATEGY_FORWARD,
					      UC_STRATEGY_FORWARD}}},
			       UC_RULE_BASELINE, "", "", ""};
	rule_install_patched(&rule);
	size_t uoff = PAGE + 40, koff = PAGE + ((uoff + (dir == FROM_USER ? dist : 4096 - dist)) % PAGE);
	unsigned char *u = user + uoff, *k = kern + koff;
	int down = dir == CLEAR ? 0 : (dir == TO_USER ? uc_copy_strategy(u, k, n) : uc_copy_strategy(k, u, n)) == UC_STRATEGY_DOWN;
	if (down != expect_down) {
		snprintf(why, sizeof why, "set-up: the copy goes %s, the case needs it %s", down ? "down" : "forward",
			 expect_down ? "down" : "forward");
		result(name, 0, why);
		return;
	}
	const char *bad = fault_one(dir, dist, n, m, why, sizeof why);
	result(name, bad == NULL, why);
}

#if UC_USER_COPY_RESULT_REMAINING
/* The exact count: a guard page at every byte offset k of a forward copy of
 * n bytes, with and without an alignment head, in each direction. The copy
 * must return n - k and have copied the k bytes before the guard. */
static void exact_count_sweep(enum direction dir, unsigned int align_dst)
{
	static const size_t n = 200;
	struct uc_rule rule = {0, 0, 0, 4096, align_dst, 2,
			       {{63, {UC_STRATEGY_FORWARD, UC_STRATEGY_FORWARD, UC_STRATEGY_FORWARD, UC_STRATEGY_FORWARD,
				      UC_STRATEGY_FORWARD}},
				{(size_t)-1, {UC_STRATEGY_FORWARD_ALIGNED, UC_STRATEGY_FORWARD_ALIGNED, UC_STRATEGY_FORWARD_ALIGNED,
					      UC_STRATEGY_FORWARD_ALIGNED, UC_STRATEGY_FORWARD_ALIGNED}}},
			       UC_RULE_BASELINE, "", "", ""};
	char name[96], why[160];
	int bad_cases = 0;
	rule_install_patched(&rule);
	for (size_t k = 0; k < n; k++) {
		reset();
		mode = REFUSE;
		unsigned char *u = user + 2 * PAGE - k, *kbuf = kern + PAGE + 8;
		protect(2, 1);
		long ret = run(dir, u, kbuf, n);
		mprotect(user, USER_SIZE, PROT_READ | PROT_WRITE);
		const unsigned char *got = dir == FROM_USER ? kbuf : u;
		const unsigned char *want = dir == FROM_USER ? user_before + 2 * PAGE - k : dir == TO_USER ? kern_before + PAGE + 8 : NULL;
		int prefix_ok = 1;
		for (size_t i = 0; i < k; i++)
			prefix_ok &= got[i] == (want ? want[i] : 0);
		if (ret != (long)(n - k) || !prefix_ok) {
			if (!bad_cases++)
				snprintf(why, sizeof why, "guard at byte %zu of %zu: returned %ld, want %zu%s", k, n, ret, n - k,
					 prefix_ok ? "" : "; the bytes before the guard were not all copied");
		}
	}
	snprintf(name, sizeof name, "exact count, %s, align_dst %u, guard at every byte",
		 dir == TO_USER ? "copy_to_user" : dir == FROM_USER ? "copy_from_user" : "clear_user", align_dst);
	result(name, bad_cases == 0, why);
}
#endif

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("usage: %s\nFaults in uc_copy_to_user, uc_copy_from_user and uc_clear_user, served and not.\n",
		       argv[0]);
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	user = mmap(NULL, USER_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	kern = mmap(NULL, KERN_SIZE + PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (user == MAP_FAILED || kern == MAP_FAILED) {
		perror("fault_tests: mmap");
		return 1;
	}
	kern_hole = kern + KERN_SIZE;
	mprotect(kern_hole, PAGE, PROT_NONE);
	struct sigaction sa = {0};
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);

	size_t n = 5 * PAGE + 123;
	fault_case("served, copy_from_user, forward", FROM_USER, 0, 16, n, SERVE, 0);
	fault_case("served, copy_from_user, descending", FROM_USER, 32, 16, n, SERVE, 1);
	fault_case("served, copy_to_user, forward", TO_USER, 0, 16, n, SERVE, 0);
	fault_case("served, copy_to_user, descending", TO_USER, 32, 16, n, SERVE, 1);
	fault_case("served, copy_to_user, forward at d = 2048", TO_USER, 32, 2048, n, SERVE, 0);
	fault_case("served, clear_user", CLEAR, 0, 0, n, SERVE, 0);
	fault_case("refused, copy_from_user, forward", FROM_USER, 0, 16, n, REFUSE, 0);
	fault_case("refused, copy_from_user, descending", FROM_USER, 32, 16, n, REFUSE, 1);
	fault_case("refused, copy_to_user, forward", TO_USER, 0, 16, n, REFUSE, 0);
	fault_case("refused, copy_to_user, descending", TO_USER, 32, 16, n, REFUSE, 1);
	fault_case("refused, clear_user", CLEAR, 0, 0, n, REFUSE, 0);
	fault_case("served, short descending copy", TO_USER, 4096, 1, 64, SERVE, 1);

	measured_tables();
	short_copies();

#if UC_USER_COPY_RESULT_REMAINING
	for (unsigned int a = 0; a <= 32; a += 32) {
		exact_count_sweep(TO_USER, a);
		exact_count_sweep(FROM_USER, a);
		exact_count_sweep(CLEAR, a);
	}
#endif

	/* A fault outside every access range is not the user copies' to fix. */
	reset();
	protect(1, 1);
	mode = SERVE;
	volatile int oops = 0;
	if (sigsetjmp(oops_exit, 1)) {
		oops = 1;
	} else {
		armed = 1;
		uc_memcpy(kern + PAGE, user + PAGE, 100);
		armed = 0;
	}
	mprotect(user, USER_SIZE, PROT_READ | PROT_WRITE);
	result("a fault in memcpy, outside every range, is not swallowed", oops && served == 0,
	       "memcpy's fault was fixed up as if it were a user access");

	/* Nor is a fault on a kernel address inside a range. */
	reset();
	mode = REFUSE;
	long ret = run(FROM_USER, kern_hole, kern + PAGE, 64);
	result("a fault on a kernel address inside a range is not swallowed", ret == -1 && refused == 0,
	       "a kernel-address fault in copy_from_user was sent to the fault exit");

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
