-- Every routine x86_64/copy.asm exports, in one list. copy.asm must export
-- exactly these (it fails the run otherwise), copy_rule.h declares them from
-- here, and the ABI harness and the instruction scan cover each one, so a
-- routine added here is declared and tested everywhere.
--
--   kind   what its arguments are, for the harnesses to build valid calls:
--          "copy" (dst, src, n), "predicate" (dst, src, n), "to_user"
--          (user dst, src, n), "from_user" (dst, user src, n), "clear_user"
--          (user dst, n), "fault_exit" (no arguments)
--   min_n  the smallest n it accepts
--   proto  its C declaration; %s is the prefixed name
--   doc    one line for copy_rule.h
return {
  { name = "memcpy", kind = "copy", min_n = 0,
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "the rule's forward or descending copy; dst and src disjoint or identical; returns dst" },
  { name = "copy_forward", kind = "copy", min_n = 0,
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "the forward path alone (rep movsb, with the rule's alignment head); returns dst" },
  { name = "copy_down", kind = "copy", min_n = 8,
    proto = "void *%s(void *dst, const void *src, size_t n)",
    doc = "the descending path alone, for n >= 8; returns dst" },
  { name = "copy_goes_down", kind = "predicate", min_n = 0,
    proto = "int %s(const void *dst, const void *src, size_t n)",
    doc = "1 when memcpy would copy highest first, else 0" },
  { name = "copy_to_user", kind = "to_user", min_n = 0,
    proto = "int %s(void *user_dst, const void *src, size_t n)",
    doc = "memcpy's rule and bodies inside an access range; 0, or nonzero after an unserved fault (some or none of the bytes copied)" },
  { name = "copy_from_user", kind = "from_user", min_n = 0,
    proto = "int %s(void *dst, const void *user_src, size_t n)",
    doc = "memcpy's rule and bodies inside an access range; 0, or nonzero after an unserved fault (some or none of the bytes copied)" },
  { name = "clear_user", kind = "clear_user", min_n = 0,
    proto = "int %s(void *user_dst, size_t n)",
    doc = "zeroes n user bytes (rep stosb: stores only, so no distance can stall it); 0, or nonzero after an unserved fault" },
  { name = "user_fault_exit", kind = "fault_exit", min_n = 0,
    proto = "int %s(void)",
    doc = "where the kernel's fault handler sends rip for a fault it does not serve; returns 1 (closing SMAP first)" },
}
