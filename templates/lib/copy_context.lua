-- What every part of copy.asm.tpl reads of the flavor being rendered,
-- computed in one place: parts are rendered apart and share no locals.
local M = {}

-- of() = {
--   P = symbol prefix, T = the --target rule (nil: the installed table),
--   plan = T's branch tree (dispatch.lua), code = {name = code},
--   strategy = {name = catalogue row}, CLASS = {class = index from 0},
--   NB = bands a table holds, remaining = the user copies' result contract,
--   has = {routine = true}, access = the routines that touch user memory,
--   in the flavor's order, reachable = the strategies the dispatch can
--   reach, in code order,
-- }
function M.of()
  local c = { P = opts.prefix, NB = db.max_bands, code = {}, strategy = {}, CLASS = {}, has = {} }
  c.T = target_name() and target_rule(target_name(), flavor.name)
  c.plan = c.T and import("dispatch").plan(c.T)
  c.remaining = opts.user_copy_result == "remaining"
  c.access = {}
  for _, r in ipairs(flavor.routines) do
    c.has[r.name] = true
    if r.access then c.access[#c.access + 1] = r.name end
  end
  for _, s in ipairs(db.strategies) do c.code[s.name], c.strategy[s.name] = s.code, s end
  for i, class in ipairs(db.classes) do c.CLASS[class] = i - 1 end
  c.reachable = {}
  for _, s in ipairs(flavor_strategies()) do
    if not c.T or c.plan.used[s.name] then c.reachable[#c.reachable + 1] = s.name end
  end
  return c
end

-- Whether strategy s's body writes rax, which a routine returning dst
-- restores after it.
function M.clobbers_rax(s)
  return (" " .. s.clobbers .. " "):find(" rax ", 1, true) ~= nil
end

-- The strategy memmove runs in s's place where the copy must go `way` ("up"
-- or "down"): s itself where it copies that way or loads everything first,
-- else the plain loop of its isa that copies that way (neither streaming
-- nor aligning).
function M.safe_for(s, way)
  if s.direction == way or s.direction == "any" then return s end
  for _, o in ipairs(flavor_strategies()) do
    if o.isa == s.isa and o.direction == way and not o.streams and not o.aligns then return o end
  end
  error("strategy " .. s.name .. " has no " .. way .. "ward strategy of isa " .. s.isa .. " for memmove")
end

return M
