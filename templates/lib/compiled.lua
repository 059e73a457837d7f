-- The routine sets of a generic build: which code each patched entry
-- (memcpy, memmove, the user copies, copy_strategy) jumps to once a rule is
-- installed. Stated here once, for copy.asm (the routines and the patch
-- list) and copy_rule.c (the choice of a set).
--
--   set 0  the entries' own bodies: the baseline, every copy one forward
--          rep movsb, with no dispatch at all; nothing is patched
--   set 1  the table dispatch, which reads the installed table: for tables
--          no entry holds (forced ones, the tests' own)
--   set 2.. one measured table compiled to a branch tree, for one isa level
--          of the flavor (the strategies a CPU without it cannot run
--          replaced by their fallbacks, as rule_install does)
local M = {}

local BASELINE, FIRST_COMPILED = 0, 2

local function strategy(name)
  for _, s in ipairs(db.strategies) do if s.name == name then return s end end
  error("no strategy " .. tostring(name) .. " in the catalogue")
end

-- What runs where the table says `name` for lengths lo..hi (hi -1: no
-- bound) at isa level `isa`, as copy_rule.c's runs() decides at one length:
-- the fallback chain down to the isa, then forward where that strategy
-- cannot copy the length, and forward_aligned without an alignment is
-- forward. Returns a list of { lo, hi, name } covering lo..hi.
local function runs(name, lo, hi, isa, align_dst)
  local s = strategy(name)
  while s.isa_level > isa do s = strategy(s.fallback) end
  if s.name == "forward_aligned" and align_dst == 0 then s = strategy("forward") end
  local out = {}
  local function add(a, b, n) if b < 0 or a <= b then out[#out + 1] = { lo = a, hi = b, name = n } end end
  local below = s.min_n - 1                      -- lengths lo..below are too short
  local above = s.max_n                          -- lengths past above are too long (-1: none)
  if lo <= below then add(lo, (hi >= 0 and hi < below) and hi or below, "forward") end
  local a = math.max(lo, s.min_n)
  local b = hi
  if above >= 0 and (b < 0 or b > above) then b = above end
  add(a, b, s.name)
  if above >= 0 and (hi < 0 or hi > above) then add(math.max(lo, above + 1), hi, "forward") end
  return out
end

-- rule's table as the routines run it at isa level `isa`: the same class
-- bounds, the bands split where a stand-in copies only some of a band's
-- lengths, neighbours that copy alike merged.
function M.resolve(rule, isa)
  local classes = db.classes
  local cuts = {}
  for _, b in ipairs(rule.bands) do
    local pieces = {}
    for _, c in ipairs(classes) do pieces[c] = runs(b[c], b.lo, b.hi, isa, rule.align_dst) end
    -- Every length where some class changes strategy starts a new band.
    local starts, seen = {}, {}
    for _, c in ipairs(classes) do
      for _, p in ipairs(pieces[c]) do
        if not seen[p.lo] then seen[p.lo] = true; starts[#starts + 1] = p.lo end
      end
    end
    table.sort(starts)
    for i, lo in ipairs(starts) do
      local hi = starts[i + 1] and starts[i + 1] - 1 or b.hi
      local band = { lo = lo, hi = hi }
      for _, c in ipairs(classes) do
        for _, p in ipairs(pieces[c]) do
          if p.lo <= lo and (p.hi < 0 or p.hi >= lo) then band[c] = p.name end
        end
      end
      local last = cuts[#cuts]
      local same = last ~= nil
      if last then for _, c in ipairs(classes) do same = same and last[c] == band[c] end end
      if same then last.hi = hi else cuts[#cuts + 1] = band end
    end
  end
  return { zero_mod = rule.zero_mod, above_max = rule.above_max, near_max = rule.near_max,
           below_max = rule.below_max, align_dst = rule.align_dst, bands = cuts }
end

local function copies_forward(t)
  for _, b in ipairs(t.bands) do
    for _, c in ipairs(db.classes) do if b[c] ~= "forward" then return false end end
  end
  return true
end

local function same_table(a, b)
  if a.zero_mod ~= b.zero_mod or a.above_max ~= b.above_max or a.near_max ~= b.near_max or
     a.below_max ~= b.below_max or a.align_dst ~= b.align_dst or #a.bands ~= #b.bands then return false end
  for i, x in ipairs(a.bands) do
    local y = b.bands[i]
    if x.lo ~= y.lo or x.hi ~= y.hi then return false end
    for _, c in ipairs(db.classes) do if x[c] ~= y[c] then return false end end
  end
  return true
end

-- of(flavor) = {
--   sets = { { id = 2.., name = "zen3" or "zen5_avx2", table = resolved,
--              suffix = "_zen3" }, ... },
--   rows = { { entry = name, rule = the measured rule, by_isa = { [0] = id,
--              ... } }, ... }: each measured table and the set of each isa
--          level (0 where it copies forward everywhere there),
-- }
-- Inherited rules carry their source's table and so find its row.
-- --target builds have no sets: their entries are the target's tree.
function M.of()
  local out = { sets = {}, rows = {} }
  if target_name() then return out end
  local vector = flavor.isa_level > 0
  for _, e in ipairs(db.entries) do
    local r = e.rules[flavor.name]
    if r.status == "measured" then
      local row = { entry = e.name, rule = r, by_isa = {} }
      for isa = flavor.isa_level, 0, -1 do
        local t = M.resolve(r, isa)
        local id = BASELINE
        if not copies_forward(t) then
          for _, s in ipairs(out.sets) do if same_table(s.table, t) then id = s.id end end
          if id == BASELINE then
            -- Named for the widest isa its copies use.
            local widest = 0
            for _, b in ipairs(t.bands) do
              for _, cl in ipairs(db.classes) do widest = math.max(widest, strategy(b[cl]).isa_level) end
            end
            local name = e.name .. (vector and ("_" .. db.isa_levels[widest + 1]) or "")
            id = #out.sets + FIRST_COMPILED
            out.sets[#out.sets + 1] = { id = id, name = name, table = t, suffix = "_" .. name }
          end
        end
        row.by_isa[isa] = id
      end
      out.rows[#out.rows + 1] = row
    end
  end
  return out
end

-- The names of the sets that run entry e's rule at each isa level of the
-- flavor, from 0: its measured table's (its source's, where it inherits),
-- else "baseline"; with --target, the target's own.
function M.set_names(e)
  local c = M.of()
  local r, names, by_id = e.rules[flavor.name], {}, { [BASELINE] = "baseline" }
  for _, s in ipairs(c.sets) do by_id[s.id] = s.name end
  local row
  for _, x in ipairs(c.rows) do
    if not row and (x.entry == e.name or (r.status == "inherited" and x.entry == r.source)) then row = x end
  end
  for isa = 0, flavor.isa_level do
    names[#names + 1] = target_name() or (row and by_id[row.by_isa[isa]]) or "baseline"
  end
  return names
end

return M
