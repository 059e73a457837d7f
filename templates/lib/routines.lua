-- Every routine x86_64/copy.asm exports, in one list. copy.asm must export
-- exactly these (it fails the run otherwise), copy_rule.h declares them from
-- here, and the ABI harness and the instruction scan cover each one, so a
-- routine added here is declared and tested everywhere.
--
--   kind   what its arguments are: "copy" (dst, src, n) or "predicate"
--          (dst, src, n), for the ABI harness to build valid calls
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
}
