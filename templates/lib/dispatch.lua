-- A rule's table as a branch tree, for code specialised to one core
-- (--target): what to test, and in which order, with the table's bounds as
-- immediates. The routine template writes the instructions; this module
-- only decides their shape.
--
-- The tree tests length first: the lowest band, where most calls fall
-- (56% of the calls of glibc's bench-memcpy-random distribution copy 8
-- bytes), with one compare, then the other bands by halving their list.
-- Only in a band whose classes copy differently does it compute the
-- distance, and then it tests only the classes whose strategy differs from
-- "elsewhere", the class most distances fall in, which it reaches last
-- with no further test. make bench's dispatch line times the tree against
-- the chosen strategy called directly.
local M = {}

local TESTED = { "zero", "above", "near", "below" }

-- The class bounds that apply: a class with no distance in it is never
-- tested, whatever its column says.
local function live(t, class)
  if class == "above" then return t.above_max > 0 end
  if class == "near" then return t.near_max > 0 end
  if class == "below" then return t.below_max > 0 end
  return true
end

-- The distance tests one band needs, in test order: { {class, s}, ... }.
local function band_tests(t, b)
  local tested = {}
  local any = false
  for _, c in ipairs(TESTED) do
    tested[c] = live(t, c) and b[c] ~= b.elsewhere
    any = any or tested[c]
  end
  if not any then return {} end
  -- The near test compares d <= near_max, which every d of the above class
  -- passes too: testing near means testing above first.
  if tested.near and live(t, "above") then tested.above = true end
  -- Class zero comes first, as in the table's own order: the above test
  -- compares d <= above_max, which d = 0 passes, and with zero_mod below
  -- 4096 a multiple of it may lie in the above, near or below range.
  tested.zero = true
  local out = {}
  for _, c in ipairs(TESTED) do
    if tested[c] then out[#out + 1] = { class = c, s = b[c] } end
  end
  return out
end

local function same_tests(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i].class ~= b[i].class or a[i].s ~= b[i].s then return false end
  end
  return true
end

-- plan(t) = {
--   leaves = { {hi = H (-1: no bound), tests = {...}, elsewhere = strategy}, ... }
--            in length order, neighbours that copy alike merged,
--   used = { strategy = true } for every strategy the tree reaches,
-- }
-- The template tests leaves[1] first, then halves the rest (see the top).
function M.plan(t)
  local p = { leaves = {}, used = {} }
  for _, b in ipairs(t.bands) do
    local leaf = { hi = b.hi, tests = band_tests(t, b), elsewhere = b.elsewhere }
    local last = p.leaves[#p.leaves]
    if last and last.elsewhere == leaf.elsewhere and same_tests(last.tests, leaf.tests) then
      last.hi = leaf.hi
    else
      p.leaves[#p.leaves + 1] = leaf
    end
  end
  for _, leaf in ipairs(p.leaves) do
    p.used[leaf.elsewhere] = true
    for _, x in ipairs(leaf.tests) do p.used[x.s] = true end
  end
  return p
end

return M
