-- Every routine a flavor may list (table flavor_routine of uarch.db), in
-- the order the files emit them. The routine file must export exactly the
-- flavor's list (the generator fails otherwise), copy_rule.h declares them
-- from here, and the ABI harness and the instruction scan cover each one, so
-- a routine added here is declared and tested everywhere.
--
--   kind    what its arguments are, for the harnesses to build valid calls:
--           "copy" (dst, src, n), "move" (dst, src, n, overlapping in any
--           way), "predicate" (dst, src, n), "to_user" (user dst, src, n),
--           "from_user" (dst, user src, n), "clear_user" (user dst, n),
--           "fault_exit" and "isa" (no arguments)
--   isa     the widest instructions it may execute (common/rule_limits.h):
--           "gpr" (no vector register), "avx2" (up to ymm), "avx512"; a
--           routine that runs the installed table may reach every strategy
--           the flavor has, but only those the installed isa allows
--   min_n   the smallest n it accepts
--   max_n   the largest n it accepts (-1: no limit)
--   access  it touches user memory inside an exported access range
--   proto   its C declaration; %s is the prefixed name, RESULT the type of
--           a user copy's result (int, or size_t with --user-copy-result=remaining)
--   doc     one line for copy_rule.h
return {
  { name = "memcpy", kind = "copy", min_n = 0, max_n = -1, access = false, isa = "table",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "the strategy the rule's table picks for n and the distance; dst and src disjoint or identical; returns dst" },
  { name = "memmove", kind = "move", min_n = 0, max_n = -1, access = false, isa = "table",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "memcpy for buffers that may overlap: the table's strategy where it is safe for the overlap, else the one of its isa that copies in the safe direction; returns dst" },
  { name = "copy_forward", kind = "copy", min_n = 0, max_n = -1, access = false, isa = "gpr",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "strategy forward alone: one rep movsb (the baseline); returns dst" },
  { name = "copy_forward_aligned", kind = "copy", min_n = 0, max_n = -1, access = false, isa = "gpr",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "strategy forward_aligned alone: for n >= 64 a rep movsb head to the rule's align_dst, then the rest; returns dst" },
  { name = "copy_down", kind = "copy", min_n = 8, max_n = -1, access = false, isa = "gpr",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "strategy down alone: the descending copy, for n >= 8; returns dst" },
  { name = "copy_small", kind = "copy", min_n = 0, max_n = 32, access = false, isa = "gpr",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "strategy small alone: every load before any store, for n <= 32 (any overlap); returns dst" },
  { name = "copy_avx2_forward", kind = "copy", min_n = 32, max_n = -1, access = false, isa = "avx2",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "strategy avx2_forward alone, for n >= 32, on a CPU whose copy_isa() is 1 or more: ymm moves, ascending; returns dst" },
  { name = "copy_avx2_down", kind = "copy", min_n = 32, max_n = -1, access = false, isa = "avx2",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "strategy avx2_down alone, for n >= 32, on a CPU whose copy_isa() is 1 or more: ymm moves, highest first; returns dst" },
  { name = "copy_avx2_small", kind = "copy", min_n = 0, max_n = 256, access = false, isa = "avx2",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "strategy avx2_small alone, for n <= 256 (any overlap), on a CPU whose copy_isa() is 1 or more; returns dst" },
  { name = "copy_avx2_nt", kind = "copy", min_n = 32, max_n = -1, access = false, isa = "avx2",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "strategy avx2_nt alone, for n >= 32, on a CPU whose copy_isa() is 1 or more: ymm moves, ascending, streaming stores, then sfence; returns dst" },
  { name = "copy_avx512_forward", kind = "copy", min_n = 64, max_n = -1, access = false, isa = "avx512",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "strategy avx512_forward alone, for n >= 64, on a CPU whose copy_isa() is 2: zmm moves, ascending; returns dst" },
  { name = "copy_avx512_down", kind = "copy", min_n = 64, max_n = -1, access = false, isa = "avx512",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "strategy avx512_down alone, for n >= 64, on a CPU whose copy_isa() is 2: zmm moves, highest first; returns dst" },
  { name = "copy_isa", kind = "isa", min_n = 0, max_n = -1, access = false, isa = "gpr",
    proto = "int %s(void)",
    doc = "the vector isa this CPU and its OS enable, by CPUID and XGETBV: 2 AVX-512 (AVX512F, XCR0 bits 1, 2, 5, 6, 7), 1 AVX2 (XCR0 bits 1, 2), 0 neither" },
  { name = "copy_strategy", kind = "predicate", min_n = 0, max_n = -1, access = false, isa = "gpr",
    proto = "int %s(const void *dst, const void *src, size_t n)",
    doc = "the code (UC_STRATEGY_*) of the strategy memcpy takes for these arguments" },
  { name = "copy_to_user", kind = "to_user", min_n = 0, max_n = -1, access = true, isa = "table",
    proto = "RESULT %s(void *user_dst, const void *src, size_t n)",
    doc = "memcpy's table and bodies inside an access range; see the result contract above" },
  { name = "copy_from_user", kind = "from_user", min_n = 0, max_n = -1, access = true, isa = "table",
    proto = "RESULT %s(void *dst, const void *user_src, size_t n)",
    doc = "memcpy's table and bodies inside an access range; see the result contract above" },
  { name = "clear_user", kind = "clear_user", min_n = 0, max_n = -1, access = true, isa = "gpr",
    proto = "RESULT %s(void *user_dst, size_t n)",
    doc = "zeroes n user bytes (rep stosb: stores only, so no distance can stall it); see the result contract above" },
  { name = "user_fault_exit", kind = "fault_exit", min_n = 0, max_n = -1, access = false, isa = "gpr",
    proto = "RESULT %s(void)",
    doc = "where the kernel's fault handler sends rip for a fault it does not serve (closing SMAP first)" },
}
