# make        builds gen/uarchgen and regenerates out/ from uarch.db
# make check  runs every test; the last line is "N passed, N failed"
# make help   lists every target

CC      ?= cc
NASM    ?= nasm
CFLAGS  ?= -O2 -g
V       ?= 0
Q        = $(if $(filter 1,$(V)),,@)

LUA_CFLAGS  := $(shell pkg-config --cflags lua5.4 2>/dev/null)
LUA_LIBS    := $(or $(shell pkg-config --libs lua5.4 2>/dev/null),-llua5.4)
GEN_CFLAGS  := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $(LUA_CFLAGS)
# The flags a kernel builds out/ with; copy_rule.c must stay warning-free under them.
KERNEL_CFLAGS := -std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding \
                 -mgeneral-regs-only -mno-red-zone -O2

GEN        := gen/uarchgen
# common/: helpers that include nothing else of the project (errors, memory,
# text checks, sha256, gnuplot, the strategy catalogue, the timer), shared by
# uarchgen, the probe and the bench.
# text_poke.c is for the programs that patch the routines in user space
# (tests, probe, bench), not uarchgen.
POKE_SRC    := common/text_poke.c
COMMON_SRCS := $(filter-out $(POKE_SRC),$(wildcard common/*.c))
# derive/: what a probe run is (its archive, its points) and the derivation
# of a table from it, shared by the probe, which writes archives, and
# uarchgen import, which reads them. It includes common/ alone.
DERIVE_SRCS := $(wildcard derive/*.c)
# plan/: what a table becomes: the class and choice of a point, the table at
# each isa level, the routine sets and each set's branch tree. Below
# derive/, over common/: the generator prints it, the derivation and the
# probe ask it.
PLAN_SRCS   := $(wildcard plan/*.c) common/strategies.c common/size_profile.c
# gen/: uarchgen, main.c over its rooms: merge/ uses render/ and model/,
# import/ uses model/, render/ fills the file set output/ writes, and
# model/ is uarch.db in memory.
GEN_SRCS   := $(wildcard gen/*.c gen/*/*.c) $(DERIVE_SRCS) $(wildcard plan/*.c) $(COMMON_SRCS)
GEN_HDRS   := $(wildcard gen/*/*.h derive/*.h plan/*.h common/*.h)
TEMPLATES  := $(shell find templates -type f 2>/dev/null | LC_ALL=C sort)
B          := build

.PHONY: all deps check dump query debt clean help check-out
all: $(GEN) out/MANIFEST $(B)/libuarchcopy.so $(B)/libuarchcopy.a

help:
	@echo "make              build gen/uarchgen and regenerate out/"
	@echo "make deps         install the Debian packages the project needs (root)"
	@echo "make rust-floor   unpack Debian 12's Rust 1.63, the crate's oldest, into $(RUST_FLOOR) (root; make deps does)"
	@echo "make check        run every test"
	@echo "make check-out    fail, with a diff, where out/ differs from what uarch.db and templates/ make"
	@echo "make dump         print uarch.db as canonical SQL"
	@echo "make query        list every rule: measured, inherited or baseline, and its evidence"
	@echo "make debt         list the unmeasured entries"
	@echo "make mutate       run the mutation tests on the generated routines and the Rust crate"
	@echo "make check-kernel boot the test kernel (GAS output only) under QEMU and Bochs on AMD and Intel CPU models"
	@echo "make check-linux  build Linux's form (gen --linux) as a module of Debian's kernel, under objtool, and boot it in QEMU"
	@echo "make check-linux-tree  build Linux 6.1 and 6.12 on the generated copies (objtool, IBT) and boot each on three CPU models"
	@echo "make fuzz         run the fuzzer for ten million cases (FUZZ_RUNS=N)"
	@echo "make probe        measure this CPU, import its run (rule, evidence), regenerate (NAME=entry)"
	@echo "make probe-portable  build build/uarchcopy-probe, the static probe for other machines"
	@echo "make bench        compare the copies side by side on this CPU"
	@echo "make bench-against BASE=REV  time the routines out/ ships now against REV's, each in turns with rep movsb, in one process"
	@echo "make bench-real   the drop-in library on a long random stream and under sqlite3, python3 and zstd (BENCH_RUNS=N, OTHER_LIB=PATH.so)"
	@echo "make git-drivers  register git's diff and merge drivers for uarch.db and out/ (make deps does)"
	@echo "make install      install uarchgen, the probe, the libraries, uarchcopy.pc and the man pages"
	@echo "                  (PREFIX=/usr/local, DESTDIR, BINDIR, LIBDIR, INCLUDEDIR, MANDIR; make uninstall)"
	@echo "make clean        remove build outputs (not out/)"

# bochs runs the AVX-512 routines (tests/kernel/run.sh); of the display
# libraries it needs one of, bochs-term needs no window. qemu-user runs the
# tests that depend on the core as other cores (tests/identities.sh).
# linux-source-6.1 and linux-source-6.12 are the Linux trees make
# check-linux-tree builds on the generated copies, with flex, bison and bc
# (Kbuild) and libelf-dev (objtool).
# linux-headers-amd64 builds Linux's form as a module, with the kbuild and
# objtool of that kernel (tests/linux/); linux-image-amd64 is the kernel it
# was configured for, and busybox-static the shell of its test boot. The
# two metapackages come from one archive, so their versions match;
# tests/linux/kernel_version.sh finds that version at build time.
# rustc-web, cargo-web and rust-web-clippy are Debian's current Rust (from
# bookworm-security: its version moves with Debian's security updates);
# they build and test the Rust crate (out/<flavor>/rust/,
# tests/rust_crate.sh), offline. rust-web-src holds core and the crates
# vendored for it, from which -Z build-std builds core for
# x86_64-unknown-none. They conflict with Debian 12's own rustc, cargo,
# rust-clippy and rust-src (Rust 1.63), the oldest Rust the crate declares,
# which make deps unpacks into /opt/uarchcopy/rust-1.63 without installing
# it, for tests/rust_floor.sh (make rust-floor, tests/rust/floor.mk).
DEBIAN_PACKAGES := gcc make pkg-config nasm lua5.4 liblua5.4-dev libsqlite3-dev sqlite3 \
                   binutils diffutils gnuplot-nox clang libclang-rt-14-dev qemu-system-x86 qemu-user git python3 \
                   bochs bochs-term bochsbios vgabios linux-headers-amd64 linux-image-amd64 busybox-static \
                   man-db groff-base \
                   linux-source-6.1 linux-source-6.12 flex bison bc libelf-dev \
                   rustc-web cargo-web rust-web-clippy rust-web-src
# make bench times zstd with the drop-in library and without.
DEBIAN_PACKAGES += zstd
deps:
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(DEBIAN_PACKAGES) $(RUST_FLOOR_LIBS)
	$(MAKE) rust-floor
	-$(MAKE) git-drivers

# git's drivers for uarch.db and out/ (see .gitattributes): git diff shows
# uarch.db as SQL text; git merge merges its rows three-way, and writes the
# files of out/ that both branches changed again from the merged database.
.PHONY: git-drivers
git-drivers:
	git config diff.uarchdb.textconv "gen/uarchgen dump --db"
	git config merge.uarchdb.name "uarch.db: a three-way merge of its rows"
	git config merge.uarchdb.driver "gen/uarchgen merge-db %O %A %B"
	git config merge.uarchgen-out.name "out/: generated again from the merged uarch.db"
	git config merge.uarchgen-out.driver "gen/uarchgen merge-out %A %P"

$(GEN): $(GEN_SRCS) $(GEN_HDRS)
	@echo "  CC      $@"
	$(Q)$(CC) $(GEN_CFLAGS) $(CFLAGS) $(GEN_SRCS) -o $@.tmp $(LUA_LIBS) -lsqlite3 -lm && mv $@.tmp $@

# One rule writes every out/ file (atomically); MANIFEST stands for them all.
# Files of out/ that the generator no longer writes (a flavor removed, a file
# renamed) make `uarchgen check` fail until they are deleted.
out/MANIFEST: $(GEN) uarch.db $(TEMPLATES)
	$(Q)$(GEN) gen
	$(Q)touch $@

dump: $(GEN)
	$(Q)$(GEN) dump
query: $(GEN)
	$(Q)$(GEN) query
debt: $(GEN)
	$(Q)$(GEN) debt

# ---- building the generated code and the tests, once per flavor ----
# Each out/<flavor>/ is one vendorable unit; build/<flavor>/ holds its objects
# and test programs. The flavors are the directories make finds in out/.

FLAVORS := $(patsubst out/%/copy_rule.h,%,$(wildcard out/*/copy_rule.h))
TEST_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -no-pie -Iout/$* -I.

$(B)/%/copy.o: out/%/x86_64/copy.asm out/MANIFEST
	@mkdir -p $(@D)
	@echo "  NASM    $<"
	$(Q)$(NASM) -f elf64 -w+all -Werror $< -o $@

# The GAS form of the same routines: identical bytes (tests/syntax_identity.sh).
$(B)/%/copy_gas.o: out/%/x86_64/copy.S out/MANIFEST
	@mkdir -p $(@D)
	@echo "  AS      $<"
	$(Q)$(CC) -c $< -o $@

$(B)/%/copy_rule.o: out/%/copy_rule.c out/%/copy_rule.h out/MANIFEST
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(KERNEL_CFLAGS) -c $< -o $@

$(B)/%/rule_tests.o: out/%/tests/rule_tests.c out/%/tests/rule_tests.h out/%/copy_rule.h out/MANIFEST
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(KERNEL_CFLAGS) -c $< -o $@

$(B)/%/run_rule_tests: tests/run_rule_tests.c $(POKE_SRC) $(B)/%/rule_tests.o $(B)/%/copy_rule.o $(B)/%/copy.o
	@echo "  LD      $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(CFLAGS) $^ -o $@

$(B)/test_text: tests/test_text.c common/text.c common/text.h
	@mkdir -p $(B)
	@echo "  CC      $@"
	$(Q)$(CC) $(GEN_CFLAGS) $(CFLAGS) -Icommon tests/test_text.c common/text.c -o $@

$(B)/sha256_prefixes: tests/sha256_prefixes.c common/sha256.c common/sha256.h
	@mkdir -p $(B)
	@echo "  CC      $@"
	$(Q)$(CC) $(GEN_CFLAGS) $(CFLAGS) tests/sha256_prefixes.c common/sha256.c -o $@

$(B)/test_template: tests/test_template.c gen/render/template.c common/util.c gen/render/template.h common/util.h
	@mkdir -p $(B)
	@echo "  CC      $@"
	$(Q)$(CC) $(GEN_CFLAGS) $(CFLAGS) -Igen/render tests/test_template.c gen/render/template.c common/util.c -o $@ \
		$(LUA_LIBS)

$(B)/abi_%.o: tests/abi/%.asm
	@mkdir -p $(B)
	@echo "  NASM    $<"
	$(Q)$(NASM) -f elf64 -w+all -Werror $< -o $@

$(B)/%/abi_harness: tests/abi_harness.c $(POKE_SRC) $(B)/abi_trampoline.o $(B)/abi_broken.o $(B)/%/copy_rule.o $(B)/%/copy.o out/%/tests/routines.h
	@echo "  LD      $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(CFLAGS) $(filter %.c %.o,$^) -o $@

# ---- the fuzzer (clang's libFuzzer) ----

FUZZ_RUNS ?= 10000000
$(B)/%/fuzz_copy: tests/fuzz/fuzz_copy.c $(POKE_SRC) $(B)/%/copy.o $(B)/%/copy_rule.o
	@echo "  CLANG   $@"
	$(Q)clang -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -fsanitize=fuzzer -no-pie -Iout/$* $^ -o $@

# make fuzz [FUZZ_RUNS=N]: N cases per flavor (ten million by default, 20 minutes at most), corpus in build/.
.PHONY: fuzz
fuzz: all $(FLAVORS:%=$(B)/%/fuzz_copy)
	$(Q)for f in $(FLAVORS); do mkdir -p $(B)/$$f/fuzz-corpus && \
		$(B)/$$f/fuzz_copy -runs=$(FUZZ_RUNS) -max_total_time=1200 -max_len=160 -print_final_stats=1 \
		$(B)/$$f/fuzz-corpus || exit 1; done

$(B)/%/fault_tests: tests/fault_tests.c tests/fault_sweeps.c tests/fault_tests.h $(POKE_SRC) $(B)/%/copy_rule.o \
		   $(B)/%/copy.o out/%/tests/routines.h
	@echo "  LD      $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(CFLAGS) $(filter %.c %.o,$^) -o $@

# The same fault tests against routines generated with Linux's user-copy
# contract (--user-copy-result=remaining), into build/<flavor>-remaining/.
$(B)/%-remaining/out/MANIFEST: $(GEN) uarch.db $(TEMPLATES)
	@mkdir -p $(@D)
	$(Q)$(GEN) gen -q --user-copy-result remaining --out $(@D)

$(B)/%/fault_tests_remaining: tests/fault_tests.c tests/fault_sweeps.c tests/fault_tests.h $(B)/%-remaining/out/MANIFEST
	@echo "  LD      $@"
	$(Q)$(NASM) -f elf64 -w+all -Werror $(B)/$*-remaining/out/$*/x86_64/copy.asm -o $(B)/$*/copy_remaining.o
	$(Q)$(CC) $(KERNEL_CFLAGS) -c $(B)/$*-remaining/out/$*/copy_rule.c -o $(B)/$*/copy_rule_remaining.o
	$(Q)$(CC) $(subst -Iout/$*,-I$(B)/$*-remaining/out/$*,$(TEST_CFLAGS)) $(CFLAGS) tests/fault_tests.c tests/fault_sweeps.c \
		$(POKE_SRC) $(B)/$*/copy_rule_remaining.o $(B)/$*/copy_remaining.o -o $@

PER_FLAVOR_BINS := fuzz_copy abi_harness run_rule_tests bench copy_gas.o
# The fault tests, for the flavors with user copies (a kernel's).
USER_COPY_FLAVORS := $(patsubst out/%/tests/routines.h,%,$(shell grep -l 'KIND_TO_USER, ' out/*/tests/routines.h 2>/dev/null))
USER_COPY_BINS := fault_tests fault_tests_remaining
TEST_BINS := $(B)/test_template $(B)/test_text $(B)/test_derive $(B)/uarchcopy-probe $(B)/probe_trials $(B)/preloaded $(B)/plan_encode_check \
             $(B)/no_write_exec $(B)/sha256_prefixes \
             $(foreach f,$(FLAVORS),$(PER_FLAVOR_BINS:%=$(B)/$(f)/%)) \
             $(foreach f,$(USER_COPY_FLAVORS),$(USER_COPY_BINS:%=$(B)/$(f)/%))

# The seccomp filter under which tests/preload.sh runs the library.
$(B)/no_write_exec: tests/no_write_exec.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(CFLAGS) -O2 -Wall -Wextra -Werror $< -o $@

# plan/encode.c against what NASM made of out/ (tests/plan_encode.sh).
$(B)/plan_encode_check: tests/plan_encode_check.c $(PLAN_SRCS) $(wildcard plan/*.h) common/strategies.h common/rule_limits.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(PROBE_CFLAGS) $(CFLAGS) tests/plan_encode_check.c $(PLAN_SRCS) -o $@

# ---- the drop-in library: the user flavor as the C library's memcpy and memmove ----
# build/libuarchcopy.so for LD_PRELOAD, build/libuarchcopy.a to link in. The
# flavor's objects are built again, position-independent, for them.
LIB_FLAVOR := user
LIB_CFLAGS := -std=c11 -O2 -fPIC -fno-builtin -Wall -Wextra -Werror -Iout/$(LIB_FLAVOR)
$(B)/lib/copy_rule.o: out/$(LIB_FLAVOR)/copy_rule.c out/MANIFEST
	@mkdir -p $(@D)
	$(Q)$(CC) $(KERNEL_CFLAGS) -fPIC -c $< -o $@
# The static library's memcpy and memmove are IFUNC symbols
# (preload/resolve.c); the shared library's, a stub that jumps through the
# pointer its constructor sets, which can defer to the C library's memmove
# (UARCHCOPY_SHARED), and past which it points the PLT slots of the
# program and its libraries (preload/rebind.c). The resolver runs before
# the C library has set up anything: no stack protector in it.
$(B)/lib/uarchcopy.o $(B)/lib/uarchcopy-shared.o: preload/uarchcopy.c preload/resolve.h preload/rebind.h preload/stand_in.h \
		out/MANIFEST
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(LIB_CFLAGS) $(if $(findstring shared,$@),-DUARCHCOPY_SHARED) -c $< -o $@
$(B)/lib/resolve.o: preload/resolve.c preload/resolve.h out/MANIFEST
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(LIB_CFLAGS) -fno-stack-protector -c $< -o $@
$(B)/lib/stand_in.o: preload/stand_in.c preload/stand_in.h out/MANIFEST
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(LIB_CFLAGS) -c $< -o $@
$(B)/lib/uarchcopy-all.o: $(B)/lib/uarchcopy.o $(B)/lib/resolve.o $(B)/lib/stand_in.o $(B)/lib/copy_rule.o $(B)/$(LIB_FLAVOR)/copy.o \
		Makefile
	$(Q)ld -r $(filter %.o,$^) -o $@
$(B)/lib/rebind.o: preload/rebind.c preload/rebind.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(LIB_CFLAGS) -c $< -o $@
$(B)/lib/uarchcopy-shared-all.o: $(B)/lib/uarchcopy-shared.o $(B)/lib/rebind.o $(B)/lib/copy_rule.o $(B)/$(LIB_FLAVOR)/copy.o Makefile
	$(Q)ld -r $(filter %.o,$^) -o $@
$(B)/libuarchcopy.so: $(B)/lib/uarchcopy-shared-all.o preload/exports.map
	@echo "  LD      $@"
	$(Q)$(CC) -shared -Wl,-soname,libuarchcopy.so.$(SOVERSION) -Wl,-z,text -Wl,-z,now -Wl,-z,noexecstack \
		-Wl,--version-script=preload/exports.map \
		$(filter %.o,$^) -o $@.tmp && mv $@.tmp $@
$(B)/libuarchcopy.a: $(B)/lib/uarchcopy-all.o
	@echo "  AR      $@"
	$(Q)rm -f $@.tmp && ar rcs $@.tmp $^ && mv $@.tmp $@

# ---- the probe: measures this machine's core ----

PROBE_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -no-pie
# The probe runs on machines that lack the toolchain: linked statically, it
# needs nothing but the kernel, and reads no database. It carries every
# flavor: each flavor's probe/flavor.c, copy.o and copy_rule.o become one
# object whose defined symbols are renamed <flavor>_..., so that the
# flavors' routines, all named uc_..., do not clash.
PROBE_SRCS   := probe/main.c probe/measure.c probe/machine.c probe/dispatch_cost.c probe/streams.c probe/checks.c \
		probe/compiled.c probe/placed.c probe/grid_gate.c probe/cpus.c probe/prediction.c probe/overlaps.c probe/run_report.c $(DERIVE_SRCS) $(PLAN_SRCS) common/text.c \
		common/sha256.c common/util.c common/workload.c $(POKE_SRC)

$(B)/probe-flavors/%.o: probe/flavor.c probe/flavor.h common/timer.h $(wildcard derive/*.h) common/rule_limits.h $(B)/%/copy.o $(B)/%/copy_rule.o
	@mkdir -p $(@D)
	@echo "  LD -r   $@"
	$(Q)$(CC) $(PROBE_CFLAGS) -Iout/$* $(CFLAGS) -c probe/flavor.c -o $(@D)/$*-flavor.o
	$(Q)ld -r $(@D)/$*-flavor.o $(B)/$*/copy.o $(B)/$*/copy_rule.o -o $(@D)/$*-all.o
	$(Q)nm --defined-only -g $(@D)/$*-all.o | awk '{ print $$3, "$*_" $$3 }' >$(@D)/$*.syms
	$(Q)objcopy --redefine-syms=$(@D)/$*.syms $(@D)/$*-all.o $@

# The list of flavors the probe carries.
$(B)/probe-flavors/flavors.c: out/MANIFEST
	@mkdir -p $(@D)
	$(Q){ echo '#include "../../probe/flavor.h"'; \
	      for f in $(FLAVORS); do echo "extern const struct probe_flavor $${f}_probe_flavor;"; done; \
	      printf 'const struct probe_flavor *const probe_flavors[] = {'; \
	      for f in $(FLAVORS); do printf '&%s_probe_flavor, ' $$f; done; echo 'NULL};'; } >$@.tmp && mv $@.tmp $@

$(B)/uarchcopy-probe: $(PROBE_SRCS) $(wildcard probe/*.h derive/*.h plan/*.h common/*.h) \
		      $(B)/probe-flavors/flavors.c $(FLAVORS:%=$(B)/probe-flavors/%.o)
	@echo "  CC      $@ (static, every flavor)"
	$(Q)$(CC) $(PROBE_CFLAGS) -static $(CFLAGS) $(PROBE_SRCS) $(B)/probe-flavors/flavors.c $(FLAVORS:%=$(B)/probe-flavors/%.o) \
		-o $@.tmp -lm && mv $@.tmp $@

# The probe's trials run on this CPU against a recorded table (tests/probe_trials.c).
$(B)/probe_trials: tests/probe_trials.c tests/probe_trials_entries.c tests/probe_trials.h $(PROBE_SRCS) \
		   $(wildcard probe/*.h derive/*.h plan/*.h common/*.h) \
		   $(B)/probe-flavors/flavors.c $(FLAVORS:%=$(B)/probe-flavors/%.o)
	@echo "  CC      $@"
	$(Q)$(CC) $(PROBE_CFLAGS) $(CFLAGS) tests/probe_trials.c tests/probe_trials_entries.c $(filter-out probe/main.c,$(PROBE_SRCS)) \
		$(B)/probe-flavors/flavors.c $(FLAVORS:%=$(B)/probe-flavors/%.o) -o $@ -lm

# The derivation: derive.c and the steps it takes (derive/grid.h), with the
# table it reads.
DERIVATION_SRCS := derive/derive.c derive/grid.c derive/grid_gate.c derive/class_bounds.c derive/fit.c derive/fit_weights.c derive/rule.c derive/timings.c \
		   derive/dispatch.c derive/chosen.c derive/trials.c derive/variants.c derive/search.c derive/repair.c derive/gate_path.c derive/model.c \
		   derive/overlap.c derive/gate_effect.c derive/gate_points.c \
		   common/util.c common/workload.c $(PLAN_SRCS)
TEST_DERIVE_SRCS := tests/test_derive.c tests/test_derive_fixtures.c tests/test_derive_dispatch.c tests/test_derive_small_trial.c \
		    tests/test_derive_shaped.c tests/test_derive_classes.c tests/test_derive_grid_gate.c \
		    tests/test_derive_repair.c tests/test_derive_model.c tests/test_derive_search.c tests/test_derive_overlap.c \
		    tests/test_derive_profile.c tests/test_derive_reference.c tests/test_derive_regime.c tests/test_derive_aa.c \
		    tests/test_derive_gate_points.c tests/test_derive_gate_path.c
# The regime check reads whole run archives too. derive/ is searched for
# quoted includes alone: its cpuid.h would stand in for the compiler's
# <cpuid.h>, which common/sha256.c includes.
TEST_DERIVE_ARCHIVE_SRCS := derive/regime.c derive/archive.c derive/archive_cursor.c derive/archive_text.c derive/cpuid.c \
			    derive/points.c common/sha256.c common/text.c
$(B)/test_derive: $(TEST_DERIVE_SRCS) tests/test_derive.h $(DERIVATION_SRCS) $(TEST_DERIVE_ARCHIVE_SRCS) $(wildcard derive/*.h) \
		  common/rule_limits.h common/strategies.h
	@mkdir -p $(B)
	@echo "  CC      $@"
	$(Q)$(CC) $(PROBE_CFLAGS) $(CFLAGS) -iquote derive $(TEST_DERIVE_SRCS) $(DERIVATION_SRCS) $(TEST_DERIVE_ARCHIVE_SRCS) -o $@ -lm

BENCH_SRCS := $(wildcard bench/*.c) common/plot.c common/workload.c common/size_profile.c $(POKE_SRC)
# The bench also times the table compiled for one core (gen --target, prefix
# uct_) in the same process as the installed one: the entry this CPU's CPUID
# selects, or TARGET=NAME; none where no entry holds the CPU, or where this
# CPU cannot be read (this_entry.sh says why: the benchmark, which make check
# builds, still builds). The entry file changes only when the entry does, so
# the build follows it.
BENCH_TARGET := $(B)/bench-target
$(BENCH_TARGET)/entry: $(GEN) FORCE
	@mkdir -p $(@D)
	$(Q)e=$(if $(TARGET),$(TARGET),$$(bench/this_entry.sh $(GEN) || true)) && \
		if [ ! -f $@ ] || [ "$$(cat $@)" != "$$e" ]; then echo "$$e" >$@.tmp && mv $@.tmp $@; fi
$(BENCH_TARGET)/out/MANIFEST: $(BENCH_TARGET)/entry $(GEN) uarch.db $(TEMPLATES)
	$(Q)rm -rf $(@D) && e=$$(cat $<) && if [ -n "$$e" ]; then \
		echo "  GEN     $(@D) (--target $$e)" && $(GEN) gen -q --target "$$e" --prefix uct_ --out $(@D); \
		else mkdir -p $(@D) && : >$@; fi
$(B)/%/bench: $(BENCH_SRCS) $(wildcard bench/*.h) common/plot.h common/timer.h $(B)/%/copy.o $(B)/%/copy_rule.o \
	      $(BENCH_TARGET)/out/MANIFEST
	@echo "  CC      $@"
	$(Q)t=$(BENCH_TARGET)/out/$*; set --; if [ -f $$t/copy_rule.h ]; then \
		$(NASM) -f elf64 -w+all -Werror $$t/x86_64/copy.asm -o $(B)/$*/bench_target_copy.o && \
		$(CC) $(KERNEL_CFLAGS) -c $$t/copy_rule.c -o $(B)/$*/bench_target_rule.o && \
		set -- -DBENCH_TARGET_HEADER='"$(CURDIR)/'$$t'/copy_rule.h"' $(B)/$*/bench_target_copy.o \
			$(B)/$*/bench_target_rule.o; fi && \
	$(CC) $(PROBE_CFLAGS) -Iout/$* $(CFLAGS) "$$@" $(BENCH_SRCS) $(B)/$*/copy.o $(B)/$*/copy_rule.o -o $@ -lm

# The drop-in library as a program meets it: run under LD_PRELOAD.
PLT_SLOT_SRCS := bench/preloaded/plt_slot.c common/jump_slot.c
$(B)/preloaded: bench/preloaded/preloaded.c $(PLT_SLOT_SRCS) bench/preloaded/plt_slot.h common/jump_slot.h common/workload.c \
		common/size_profile.c common/workload.h common/timer.h common/bench_grid.h derive/grid_gate.c derive/dispatch.h
	@echo "  CC      $@"
	$(Q)$(CC) $(PROBE_CFLAGS) -O2 -fno-builtin $(CFLAGS) bench/preloaded/preloaded.c $(PLT_SLOT_SRCS) common/workload.c \
		common/size_profile.c derive/grid_gate.c common/util.c -o $@ -lm

# The drop-in library as a user meets it: a long random stream of memcpy
# calls, and Debian's programs run with it preloaded and without.
$(B)/preloaded-stream: bench/preloaded/stream.c bench/preloaded/size_table.c bench/preloaded/size_table.h \
		       $(PLT_SLOT_SRCS) bench/preloaded/plt_slot.h common/jump_slot.h common/timer.h
	@echo "  CC      $@"
	$(Q)$(CC) $(PROBE_CFLAGS) -O2 -fno-builtin $(CFLAGS) bench/preloaded/stream.c bench/preloaded/size_table.c \
		$(PLT_SLOT_SRCS) -o $@
$(B)/with-without: bench/preloaded/with_without.c
	@echo "  CC      $@"
	$(Q)$(CC) $(PROBE_CFLAGS) $(CFLAGS) $< -o $@
$(B)/bench-corpus: bench/preloaded/corpus.c
	@echo "  CC      $@"
	$(Q)$(CC) $(PROBE_CFLAGS) $(CFLAGS) $< -o $@ -lm
BENCH_REAL_BINS := $(B)/preloaded-stream $(B)/with-without $(B)/bench-corpus
# BENCH_RUNS=N: each program's runs each way (default 5; the stream's rounds
# are 4N + 1); OTHER_LIB=PATH.so: another library, a third side.
BENCH_REAL := bench/preloaded/real.sh $(B) $(if $(BENCH_RUNS),--runs '$(BENCH_RUNS)') \
	      $(if $(OTHER_LIB),--other '$(OTHER_LIB)')

# make bench: the copies side by side, per flavor, and the drop-in library
# under a program, then as a user meets it (make bench-real); reports
# ratios, asserts nothing.
.PHONY: bench bench-real
bench: all $(FLAVORS:%=$(B)/%/bench) $(B)/preloaded $(BENCH_REAL_BINS)
	$(Q)for f in $(FLAVORS); do $(B)/$$f/bench --out $(B)/$$f/bench-results || exit 1; done
	$(Q)UARCHCOPY_REPORT=1 LD_PRELOAD=$(CURDIR)/$(B)/libuarchcopy.so $(B)/preloaded --processes 9
	$(Q)$(BENCH_REAL)
bench-real: $(B)/libuarchcopy.so $(BENCH_REAL_BINS)
	$(Q)$(BENCH_REAL)

# make bench-against BASE=REV: the routines out/ ships now against REV's,
# each measured rule's set timed in turns with rep movsb, in one process, on the random-size
# workload (bench/against/against.sh); reports, asserts nothing.
.PHONY: bench-against
bench-against: all $(FLAVORS:%=$(B)/%/copy.o) $(FLAVORS:%=$(B)/%/copy_rule.o)
	$(Q)NASM='$(NASM)' CC='$(CC)' KERNEL_CFLAGS='$(KERNEL_CFLAGS)' CFLAGS='$(PROBE_CFLAGS) $(CFLAGS)' \
		bench/against/against.sh $(if $(BASE),'$(BASE)',)

# make probe-portable: the static probe, build/uarchcopy-probe.
.PHONY: probe-portable probe
probe-portable: $(B)/uarchcopy-probe

# make probe [NAME=entry]: the portable probe on this machine, then the
# import of its archives: the one path by which a measurement enters uarch.db.
probe: all $(B)/uarchcopy-probe
	$(Q)rm -rf $(B)/this-machine && mkdir -p $(B)/this-machine
	$(Q)$(B)/uarchcopy-probe --out $(B)/this-machine
	$(Q)$(GEN) import $(if $(NAME),--name $(NAME)) $(B)/this-machine/*.run
	$(Q)$(MAKE) all

check: all $(TEST_BINS)
	$(Q)tests/run_all.sh

# make check-kernel: the test kernel, vendoring out/, booted under QEMU (also in make check).
.PHONY: check-kernel
check-kernel: all
	$(Q)for f in $(FLAVORS); do tests/kernel/run.sh $$f || exit 1; done

# make check-linux: Linux's form of the routines as a module of Debian's
# kernel, under objtool, then booted in that kernel under QEMU (also in
# make check).
.PHONY: check-linux
check-linux: all
	$(Q)tests/linux/objtool.sh && tests/linux/boot.sh

# make check-linux-tree: Linux 6.1 and 6.12 themselves on the generated
# copies, built with objtool and IBT (cached in build/linux-6.1 and
# build/linux-6.12), each booted under QEMU as three CPU models, with
# Linux's own user-copy tests and a userland check. Not in make check: each
# tree's first build takes several minutes (.ci/run runs it after).
.PHONY: check-linux-tree
check-linux-tree: all
	$(Q)tests/linux/tree.sh

check-out: $(GEN)
	$(Q)$(GEN) check

clean:
	rm -rf $(B) $(GEN) $(GEN).tmp

# Intermediate objects are kept: the tests and the mutation runs link them.
.SECONDARY:

# A prerequisite that is always remade, for files that change only when
# their recipe finds a change.
.PHONY: FORCE
FORCE:

include tests/mutate.mk
include tests/rust/floor.mk
include install/install.mk
