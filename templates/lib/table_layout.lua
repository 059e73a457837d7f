-- The layout of the installed table, which copy.asm's dispatch reads and
-- copy_rule.c's rule_init writes: stated here alone.
local short_bits = 8
return {
  -- Lengths below `short` read their strategy from one byte each:
  -- copy_uniform[n], or copy_short[class * short + n].
  short_bits = short_bits,
  short = 1 << short_bits,
  -- A copy_uniform or copy_long_uniform byte that says the classes differ,
  -- so that the distance must be classified: no strategy has this code.
  mixed = 255,
}
