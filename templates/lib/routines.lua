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
--   isa     the widest instructions it may execute (common/strategies.h):
--           "gpr" (no vector register), "avx2" (up to ymm), "avx512"; a
--           routine that runs the installed table may reach every strategy
--           the flavor has, but only those the installed isa allows
--   min_n   the smallest n it accepts
--   max_n   the largest n it accepts (-1: no limit)
--   access  it touches user memory inside an exported access range
--   proto   its C declaration; %s is the prefixed name, RESULT the type of
--           a user copy's result (int, or size_t with --user-copy-result=remaining)
--   doc     one line for copy_rule.h
--   strategy  for copy_<strategy>, the catalogue's row it runs alone
--   patched   its entry is a patch site (plan/sets.h): it
--           runs the baseline until rule_patch points it at the installed
--           rule's routine
--
-- copy_<strategy> is written here once for every row of the strategy
-- catalogue (common/strategies.h, db.strategies), after memmove.
local isa_clause = { gpr = "", avx2 = ", on a CPU whose copy_isa() is 1 or more", avx512 = ", on a CPU whose copy_isa() is 2" }
local function strategy_routine(s)
  local lengths = (s.min_n > 0 and ", for n >= " .. s.min_n or "") .. (s.max_n >= 0 and ", for n <= " .. s.max_n or "")
  return { name = "copy_" .. s.name, kind = "copy", patched = false, min_n = s.min_n, max_n = s.max_n, access = false, isa = s.isa,
           strategy = s.name, proto = "void *%s(void *dst, const void *src, size_t n)",
           doc = "strategy " .. s.name .. " alone" .. lengths .. isa_clause[s.isa] .. ": " .. s.what .. "; returns dst" }
end

local list = {
  { name = "memcpy", patched = true, kind = "copy", min_n = 0, max_n = -1, access = false, isa = "table",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "the strategy the rule's table picks for n and the distance; dst and src disjoint or identical; returns dst" },
  { name = "memmove", patched = true, kind = "move", min_n = 0, max_n = -1, access = false, isa = "table",
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "memcpy for buffers that may overlap: where they do, the table's strategy where it loads everything before it stores, else strategy libc (the C library's memmove) where the flavor has it, else the table's strategy where it copies in the safe direction, else the one of its isa that does; returns dst" },
}
for _, s in ipairs(db.strategies) do list[#list + 1] = strategy_routine(s) end
for _, r in ipairs({
  { name = "copy_isa", patched = false, kind = "isa", min_n = 0, max_n = -1, access = false, isa = "gpr",
    proto = "int %s(void)",
    doc = "the vector isa this CPU and its OS enable, by CPUID and XGETBV: 2 AVX-512 (AVX512F, BW and VL, and BMI2; XCR0 bits 1, 2, 5, 6, 7), 1 AVX2 (XCR0 bits 1, 2), 0 neither" },
  { name = "copy_strategy", patched = true, kind = "predicate", min_n = 0, max_n = -1, access = false, isa = "gpr",
    proto = "int %s(const void *dst, const void *src, size_t n)",
    doc = "the code (UC_STRATEGY_*) of the strategy memcpy takes for these arguments" },
  { name = "copy_to_user", patched = true, kind = "to_user", min_n = 0, max_n = -1, access = true, isa = "table",
    proto = "RESULT %s(void *user_dst, const void *src, size_t n)",
    doc = "memcpy's table and bodies inside an access range; see the result contract above" },
  { name = "copy_from_user", patched = true, kind = "from_user", min_n = 0, max_n = -1, access = true, isa = "table",
    proto = "RESULT %s(void *dst, const void *user_src, size_t n)",
    doc = "memcpy's table and bodies inside an access range; see the result contract above" },
  { name = "clear_user", patched = false, kind = "clear_user", min_n = 0, max_n = -1, access = true, isa = "gpr",
    proto = "RESULT %s(void *user_dst, size_t n)",
    doc = "zeroes n user bytes (rep stosb: stores only, so no distance can stall it); see the result contract above" },
  { name = "user_fault_exit", patched = false, kind = "fault_exit", min_n = 0, max_n = -1, access = false, isa = "gpr",
    proto = "RESULT %s(void)",
    doc = "where the kernel's fault handler sends rip for a fault it does not serve (closing SMAP first)" },
}) do list[#list + 1] = r end
return list
