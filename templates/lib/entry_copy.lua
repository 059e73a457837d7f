-- What rule_patch copies into a patched entry, so that a call runs the
-- installed set's dispatch from the entry itself, with no jmp to reach it
-- (patch.c.tpi says how it writes it): each compiled routine's first
-- bytes, from after its endbr64 to the end of its branch tree (memmove's
-- is memcpy's, memmove.tpi), then, in memcpy and memmove, the short copies
-- the tree reaches (held: plan/layout.h says which and why), up to its
-- mark "<routine>.copy_end". A jump from there to a copy past that mark is
-- rel32 and is followed by a mark, "<routine>.jump<k>", where its
-- displacement ends: rule_patch adds the distance from the routine to the
-- entry to each of them; a jump to a copy held moves with it. The entry
-- holds its baseline, then int3 up to the room the assembler measures
-- for the longest of them (baseline.tpi).
local M = {}

-- The sites whose entries hold the short copies too. Not copy_strategy,
-- whose leaves return a code, nor the user copies: their bodies lie in
-- an access range, which the exception table names by the routine's
-- addresses, not the entry's.
local HOLDING_SITES = { memcpy = true, memmove = true }

-- The copies way's routine for site holds after its tree, in the order
-- cases.tpi lays them out: only in a generic build's compiled sets
-- (way.far), whose entries rule_patch copies, and not with gen --linux.
-- There a body's ret is Linux's RET, a jmp rel32 to __x86_return_thunk
-- (gen/render/asm_linux.c), which rule_patch does not move: copied as it
-- was, it jumped into the entry's int3 in a boot as EPYC-Milan
-- (make check-linux-tree).
function M.held(way, site)
  local list = {}
  if not (HOLDING_SITES[site] and way.far and way.tree) or opts.linux then return list end
  for _, name in ipairs(way.inline) do list[#list + 1] = name end
  return list
end

local function holds(way, site, name)
  for _, held in ipairs(M.held(way, site)) do
    if held == name then return true end
  end
  return false
end

-- Whether step i of way's tree at site prints a rel32 jump that
-- rule_patch moves (to a copy the entry does not hold), and whether
-- dispatch.tpi leaves it out: the last, where the tree falls through to
-- the copy laid out right after it (way.falls_through, plan/layout.h).
function M.step_jump(way, i, site)
  local x = way.tree[i]
  if i == #way.tree and way.falls_through then
    return false, true
  end
  local jumps = x.op == "goto" or x.op == "if_at_most" or ((x.op == "if_class" or x.op == "if_above") and x.to)
  return jumps and way.far and not holds(way, site, x.to), false
end

-- Whether step i of way's tree at site is a goto whose copy's moves
-- dispatch.tpi lays out right there (plan/tree.h, falls), the bytes of
-- its piece, or of its whole body, as the copy's routine holds them: only
-- where the entry holds that copy; elsewhere the goto is a jump.
function M.falls(way, i, site)
  local x = way.tree[i]
  return x.op == "goto" and x.falls and holds(way, site, x.to)
end

-- The marks of routine (a routine's label, prefix included) for site that
-- end each relocated jump, in address order: "<routine>.jump<k>", k from 1.
function M.jumps(routine, way, site)
  local list = {}
  for i = 1, #way.tree do
    if M.step_jump(way, i, site) then list[#list + 1] = routine .. ".jump" .. #list + 1 end
  end
  return list
end

return M
