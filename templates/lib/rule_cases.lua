-- The cases the generated rule tests check, computed from the database:
-- lookups by family and model and by recorded CPUID words, and every band and
-- class edge of a table with the strategy it gives there.
local M = {}
local rule_c = import("rule_c")
local layout = import("table_layout")

-- CPUID leaf 1 EAX for a display family and model, stepping 1; nil where
-- no signature gives them.
local function sig(family, model)
  local base_family, ext_family = family, 0
  if family >= 0xf then base_family, ext_family = 0xf, family - 0xf end
  if family < 6 and model > 15 then return nil end
  return (ext_family << 20) | ((model >> 4) << 16) | (base_family << 8) | ((model & 0xf) << 4) | 1
end
local function vendor_words(v)
  local function word(s) return string.format("0x%08xu", string.unpack("<I4", s)) end
  return word(v:sub(1, 4)) .. ", " .. word(v:sub(5, 8)) .. ", " .. word(v:sub(9, 12))
end

-- A lookup_case initialiser: what the database gives vendor, family, model.
function M.case(vendor, family, model)
  local r = lookup(vendor, family, model, flavor.name)
  local s = sig(family, model)
  return string.format('{ "%s", { %s }, 0x%02x, 0x%02x, 0x%08xu, %d, %s }',
    vendor, vendor_words(vendor), family, model, s or 0, s and 1 or 0, rule_c.literal(r, r.entry, opts.prefix))
end

-- Every band edge and class edge of a table, with the strategy it gives.
function M.edges(r)
  local ns, ds, seen = {}, {}, {}
  -- Every band edge, however long: the strategy check reads no byte, and
  -- the copies stop at COPY_EDGE_MAX (rule_checks.c.tpi).
  local function n_at(n) if n >= 0 and not seen["n" .. n] then seen["n" .. n] = true; ns[#ns + 1] = n end end
  local function d_at(d) if d >= 0 and d <= 4095 and not seen["d" .. d] then seen["d" .. d] = true; ds[#ds + 1] = d end end
  -- layout.short - 1 and layout.short: where the dispatch's per-length
  -- bytes end and its band list begins.
  for _, n in ipairs({ 0, 1, 7, 8, 31, 32, 33, 63, 64, 65, layout.short - 1, layout.short, 300, 4096, 65536 }) do n_at(n) end
  for _, b in ipairs(r.bands) do
    n_at(b.lo - 1); n_at(b.lo); n_at(b.lo + 1)
    if b.hi >= 0 then n_at(b.hi - 1); n_at(b.hi); n_at(b.hi + 1) end
  end
  -- Where memmove's stand-in for an overlap hands longer copies on.
  for _, max in ipairs({ r.overlap_below_max, r.overlap_above_max }) do
    if max > 0 then n_at(max); n_at(max + 1) end
  end
  for _, d in ipairs({ 0, 1, 2, 1023, 2048, 4095 }) do d_at(d) end
  d_at(r.above_max); d_at(r.above_max + 1)
  if r.near_max > 0 then d_at(r.near_max); d_at(r.near_max + 1) end
  d_at(4096 - r.below_max - 1); d_at(4096 - r.below_max)
  if r.zero_mod < 4096 then
    d_at(r.zero_mod - 1); d_at(r.zero_mod); d_at(r.zero_mod + 1); d_at(4096 - r.zero_mod); d_at(4096 - r.zero_mod + 1)
  end
  table.sort(ns); table.sort(ds)
  local out = {}
  for _, n in ipairs(ns) do
    for _, d in ipairs(ds) do
      out[#out + 1] = string.format("{ %d, %d, %d }", n, d, (choice(r, n, d)))
    end
  end
  return out
end

-- A table, no entry's, with every strategy of the list in at least one
-- cell of a band whose lengths it copies: each strategy takes the first free
-- cell that fits it, then the free cells take the strategies in turn where
-- they fit, else forward. The bands cross the short lengths' end and the
-- strategies' bounds (8, 32, 64, 256).
function M.every_strategy_table(strategies)
  local bounds = { { 0, 7 }, { 8, 31 }, { 32, 63 }, { 64, 256 }, { 257, 1023 }, { 1024, -1 } }
  local function fits(s, lo, hi)
    return lo >= s.min_n and (s.max_n < 0 or (hi >= 0 and hi <= s.max_n))
  end
  local bands = {}
  for _, bd in ipairs(bounds) do bands[#bands + 1] = { lo = bd[1], hi = bd[2] } end
  for _, s in ipairs(strategies) do
    local placed = false
    for _, b in ipairs(bands) do
      for _, c in ipairs(db.classes) do
        if not placed and b[c] == nil and fits(s, b.lo, b.hi) then b[c], placed = s.name, true end
      end
    end
  end
  local turn = 0
  for _, b in ipairs(bands) do
    for _, c in ipairs(db.classes) do
      for _ = 1, #strategies do
        if b[c] then break end
        turn = turn % #strategies + 1
        if fits(strategies[turn], b.lo, b.hi) then b[c] = strategies[turn].name end
      end
      b[c] = b[c] or "forward"
    end
  end
  return { status = "baseline", above_max = 31, near_max = 95, below_max = 64, zero_mod = 4096, align_dst = 0,
           bands = bands }
end

return M
