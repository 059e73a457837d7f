-- What every part of copy.asm.tpl reads of the flavor being rendered,
-- computed in one place: parts are rendered apart and share no locals.
local M = {}

-- A way to write a routine: a table compiled to a branch tree (a set or
-- the target of the plan, plan/tree.h), or the installed table (compiled
-- nil). way = {
--   suffix = what its labels add to the routine's name, name = what it
--   runs, in words, tree = the plan's steps (nil: the installed table),
--   reachable = the strategies it can reach, in the order its routine
--   lays them out (plan/layout.h), falls_through = the tree's last jump,
--   to the first of them, is left out (plan/layout.h), far = its tree's
--   jumps to its copies are rel32 (dispatch.tpi says why), entry_plain
--   and entry_holding = what a patched entry holds of a compiled set's
--   routine, as M.entry says (gen/render/bind_plan.c, set_entry),
--   overlap_safe = what memmove runs in a strategy's place where the
--   ranges overlap, { up = { [name] = name }, down = ... }: the table's
--   measured stand-ins, or the flavor's for the installed table
--   (plan_overlap_safe); overlap_max = { up = n, down = n }, the longest
--   copy a way's stand-in takes, where bounded (else 0), and overlap_longer the
--   strategy that takes the longer ones,
-- }
function M.way(suffix, name, compiled)
  if compiled then
    return { suffix = suffix, name = name, tree = compiled.tree, reachable = compiled.reachable,
             falls_through = compiled.falls_through, far = compiled.far,
             entry_plain = compiled.entry_plain, entry_holding = compiled.entry_holding,
             overlap_safe = compiled.overlap_safe, overlap_max = compiled.overlap_max,
             overlap_longer = compiled.overlap_longer }
  end
  local w = { suffix = suffix, name = name, reachable = {}, far = false,
              overlap_safe = plan.overlap_safe, overlap_max = plan.overlap_max, overlap_longer = plan.overlap_longer }
  for _, s in ipairs(flavor.strategies) do w.reachable[#w.reachable + 1] = s.name end
  return w
end

-- of() = {
--   P = symbol prefix, T = the --target rule (nil: a generic build),
--   defers = the flavor offers a strategy that runs the C library's
--   memmove (libc.tpi),
--   code = {name = code}, strategy = {name = catalogue row},
--   CLASS = {class = index from 0}, NB = bands a table holds,
--   remaining = the user copies' result contract, has = {routine = true},
--   access = the routines that touch user memory, in the flavor's order,
--   sites = the patched routines (routines.lua), in the flavor's order,
--   holding = {site = true} for those whose entries hold the short
--   copies too: memcpy and memmove, whose copies return dst; not
--   copy_strategy, whose leaves return a code, nor the user copies,
--   whose bodies lie in an access range, which the exception table names
--   by the routine's addresses, not the entry's,
--   sets = the compiled sets (the plan's, plan/sets.h),
--   ways = how each patched routine is written: with --target, its entry
--   is the target's tree ({ the target's way }); else its entry is the
--   baseline, and it is written once more under the installed table
--   (suffix "_table") and once for each compiled set (suffix "_<set>"),
-- }
function M.of()
  local c = { P = opts.prefix, NB = db.max_bands, code = {}, strategy = {}, CLASS = {}, has = {} }
  c.T = target_name() and target_rule(target_name(), flavor.name)
  c.remaining = opts.user_copy_result == "remaining"
  c.access, c.sites, c.holding = {}, {}, {}
  for _, r in ipairs(flavor.routines) do
    c.has[r.name] = true
    if r.access then c.access[#c.access + 1] = r.name end
    if r.patched then c.sites[#c.sites + 1] = r.name end
    c.holding[r.name] = r.patched and (r.kind == "copy" or r.kind == "move")
  end
  for _, s in ipairs(db.strategies) do c.code[s.name], c.strategy[s.name] = s.code, s end
  for _, s in ipairs(flavor.strategies) do c.defers = c.defers or s.defers end
  for i, class in ipairs(db.classes) do c.CLASS[class] = i - 1 end
  c.sets = plan.sets
  if c.T then
    c.ways = { M.way("", target_name(), plan.target) }
  else
    c.ways = { M.way("_table", "the installed table", nil) }
    for _, s in ipairs(c.sets) do c.ways[#c.ways + 1] = M.way(s.suffix, s.name .. "'s table", s) end
  end
  return c
end

-- What rule_patch copies into the entry of site (a patched routine) of
-- way's routine, a compiled set's (way.far), which a call then runs with
-- no jmp to reach it (patch.c.tpi says how it writes it): the routine's
-- first bytes, from past its endbr64 to its mark "<routine>.copy_end",
-- after its tree, or after the copies held that follow it. entry = {
--   held = those copies, the first laid out (plan/layout.h),
--   moved = per step of way.tree, true where it jumps rel32 out of the
--   entry and is followed by a mark "<routine>.jump<k>", k from 1, where
--   its displacement ends, to which rule_patch adds the distance from the
--   routine to the entry; n_moved = how many,
--   falls = per step, true where a goto's copy's moves lie right there,
-- }
function M.entry(c, way, site)
  return way[c.holding[site] and "entry_holding" or "entry_plain"]
end

-- Whether strategy s's body writes rax, which a routine returning dst
-- restores after it.
function M.clobbers_rax(s)
  return (" " .. s.clobbers .. " "):find(" rax ", 1, true) ~= nil
end

-- The lines a routine that returns dst ends strategy s's body with: rax
-- put back where the body wrote it, then ret.
function M.return_lines(s)
  if M.clobbers_rax(s) then
    return "        mov     rax, rdi                        ; the body used rax; rdi never moved\n        ret"
  end
  return "        ret"
end

return M
