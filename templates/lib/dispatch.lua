-- A rule's table as a branch tree, for code specialised to one core
-- (--target): what to test first, and in which order, with the table's
-- bounds as immediates. The routine template writes the instructions; this
-- module only decides their shape.
--
-- The tree first tests length where every distance class agrees (the
-- bands at the bottom that all classes share, such as small copies), since
-- that needs no distance at all. Then it tests only the classes whose
-- strategies differ from "elsewhere", the class most distances fall in,
-- which the tree reaches last with no further test.
local M = {}

local CLASSES = { "zero", "above", "near", "below", "elsewhere" }

-- The runs of one class: { {hi = H, s = strategy}, ... }, adjacent bands
-- with the same strategy merged; the last run has hi = -1 (no bound).
local function runs(t, class)
  local out = {}
  for _, b in ipairs(t.bands) do
    local s = b[class]
    if #out > 0 and out[#out].s == s then
      out[#out].hi = b.hi
    else
      out[#out + 1] = { hi = b.hi, s = s }
    end
  end
  return out
end

local function same(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i].hi ~= b[i].hi or a[i].s ~= b[i].s then return false end
  end
  return true
end

-- The class bounds that apply: a class with no distance in it is never
-- tested, whatever its column says.
local function live(t, class)
  if class == "above" then return t.above_max > 0 end
  if class == "near" then return t.near_max > 0 end
  if class == "below" then return t.below_max > 0 end
  return true
end

-- plan(t) = {
--   shared = runs every class takes, tested on length alone (may be empty),
--   split_from = the length from which classes differ (nil: they never do),
--   tests = { {class = "zero"|"above"|"near"|"below", runs = {...}}, ... } in
--           test order,
--   elsewhere = the runs of class elsewhere, past split_from,
--   used = { strategy = true } for every strategy the tree reaches,
-- }
function M.plan(t)
  local per = {}
  for _, c in ipairs(CLASSES) do per[c] = runs(t, c) end
  local differs, tested = {}, {}
  for _, c in ipairs({ "zero", "above", "near", "below" }) do
    tested[c] = live(t, c) and not same(per[c], per.elsewhere)
  end
  -- The near test compares d <= near_max, which every d of the above class
  -- passes too: testing near means testing above first.
  if tested.near and live(t, "above") then tested.above = true end
  for _, c in ipairs({ "zero", "above", "near", "below" }) do
    if tested[c] then differs[#differs + 1] = c end
  end
  -- Bands at the bottom where every tested class agrees with elsewhere.
  local shared, cut = {}, 0
  for i, b in ipairs(t.bands) do
    local agree = true
    for _, c in ipairs(differs) do agree = agree and b[c] == b.elsewhere end
    if not agree then break end
    cut = i
  end
  local function tail(class)
    local out = {}
    for i = cut + 1, #t.bands do
      local b = t.bands[i]
      if #out > 0 and out[#out].s == b[class] then out[#out].hi = b.hi
      else out[#out + 1] = { hi = b.hi, s = b[class] } end
    end
    return out
  end
  local p = { shared = {}, tests = {}, used = {} }
  if cut == #t.bands then
    p.shared = per.elsewhere
  else
    for i = 1, cut do
      local b = t.bands[i]
      if #p.shared > 0 and p.shared[#p.shared].s == b.elsewhere then p.shared[#p.shared].hi = b.hi
      else p.shared[#p.shared + 1] = { hi = b.hi, s = b.elsewhere } end
    end
    p.split_from = cut > 0 and t.bands[cut].hi + 1 or 0
    -- Class zero comes first, as in the table's own order: the above test
    -- compares d <= above_max, which d = 0 passes, and with zero_mod below
    -- 4096 a multiple of it may lie in the above or below range.
    if #differs > 0 then p.tests[#p.tests + 1] = { class = "zero", runs = tail("zero") } end
    for _, c in ipairs(differs) do
      if c ~= "zero" then p.tests[#p.tests + 1] = { class = c, runs = tail(c) } end
    end
    p.elsewhere = tail("elsewhere")
  end
  local function mark(list) for _, r in ipairs(list) do p.used[r.s] = true end end
  mark(p.shared)
  for _, x in ipairs(p.tests) do mark(x.runs) end
  if p.elsewhere then mark(p.elsewhere) end
  return p
end

return M
