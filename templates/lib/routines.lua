-- Every routine a flavor may list (table flavor_routine of uarch.db), in
-- the order the files emit them. The routine file must export exactly the
-- flavor's list (the generator fails otherwise), copy_rule.h declares them
-- from here, and the ABI harness and the instruction scan cover each one, so
-- a routine added here is declared and tested everywhere.
--
--   kind    what its arguments are, for the harnesses to build valid calls:
--           "copy" (dst, src, n), "predicate" (dst, src, n), "to_user"
--           (user dst, src, n), "from_user" (dst, user src, n), "clear_user"
--           (user dst, n), "fault_exit" (no arguments)
--   min_n   the smallest n it accepts
--   access  it touches user memory inside an exported access range
--   proto   its C declaration; %s is the prefixed name, RESULT the type of
--           a user copy's result (int, or size_t with --user-copy-result=remaining)
--   doc     one line for copy_rule.h
return {
  { name = "memcpy", kind = "copy", min_n = 0, access = false,
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "the rule's forward or descending copy; dst and src disjoint or identical; returns dst" },
  { name = "copy_forward", kind = "copy", min_n = 0, access = false,
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "the forward path alone (rep movsb, with the rule's alignment head); returns dst" },
  { name = "copy_down", kind = "copy", min_n = 8, access = false,
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "the descending path alone, for n >= 8; returns dst" },
  { name = "copy_goes_down", kind = "predicate", min_n = 0, access = false,
    proto = "int %s(const void *dst, const void *src, size_t n)",
    doc = "1 when memcpy would copy highest first, else 0" },
  { name = "copy_to_user", kind = "to_user", min_n = 0, access = true,
    proto = "RESULT %s(void *user_dst, const void *src, size_t n)",
    doc = "memcpy's rule and bodies inside an access range; see the result contract above" },
  { name = "copy_from_user", kind = "from_user", min_n = 0, access = true,
    proto = "RESULT %s(void *dst, const void *user_src, size_t n)",
    doc = "memcpy's rule and bodies inside an access range; see the result contract above" },
  { name = "clear_user", kind = "clear_user", min_n = 0, access = true,
    proto = "RESULT %s(void *user_dst, size_t n)",
    doc = "zeroes n user bytes (rep stosb: stores only, so no distance can stall it); see the result contract above" },
  { name = "user_fault_exit", kind = "fault_exit", min_n = 0, access = false,
    proto = "RESULT %s(void)",
    doc = "where the kernel's fault handler sends rip for a fault it does not serve (closing SMAP first)" },
}
