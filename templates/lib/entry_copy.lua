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
-- holds its baseline, then int3 up to room() bytes from its site.
local M = {}

-- The bytes each instruction of a tree step can take at most, as
-- dispatch.tpi prints them in a generic build: the jumps to copies rel32
-- (6 bytes, jmp 5), to the tree's labels at most 6, cmp with an imm32.
local STEP_MAX = {
  distance = 10,   -- mov ecx, edi; sub ecx, esi; and ecx, 4095
  if_class = 12,   -- test or cmp ecx, imm32; jcc rel32
  ["goto"] = 5,     -- jmp rel32
  cmp_length = 7,  -- cmp rdx, imm32
  if_at_most = 6,  -- jbe rel32
  if_above = 6,    -- ja rel32
  label = 0,
}

-- What precedes the tree in each routine copied, at most: memcpy's and
-- memmove's mov rax, rdi; a user copy's lea r9 and stac.
local PREFIX_MAX = { memcpy = 3, copy_strategy = 0, memmove = 3, copy_to_user = 7, copy_from_user = 7 }

-- The sites whose entries hold the short copies too. Not copy_strategy,
-- whose leaves return a code, nor the user copies: their bodies lie in
-- an access range, which the exception table names by the routine's
-- addresses, not the entry's.
local HOLDING_SITES = { memcpy = true, memmove = true }

-- The bytes each copy a site may hold takes at most, its return
-- included: the copy_<strategy> routines' bodies as NASM assembles them
-- (small 136, small_flat 202, avx2_small 339, avx512_small 36, avx512_masked 38,
-- avx512_medium 428), rounded up to 8. rule_patch refuses a copy that
-- does not fit its site's room (patch.c.tpi), which the tests install.
local BODY_MAX = { small = 144, small_flat = 208, avx2_small = 344, avx512_small = 40, avx512_medium = 432,
  avx512_masked = 48 }

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

-- The baseline each entry holds, at most (memmove's has the descending
-- body, its loop aligned to 16 bytes).
local BASELINE_MAX = { memmove = 128 }

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

-- The bytes a copy of way's routine for site takes in its entry at most,
-- with the copies it holds and the jmp rel32 that ends it.
local function copy_max(site, way)
  local n = PREFIX_MAX[site] or error("entry_copy: no prefix bound for site " .. site)
  for _, x in ipairs(way.tree) do
    n = n + (STEP_MAX[x.op] or error("entry_copy: no bound for step " .. x.op))
  end
  for _, name in ipairs(M.held(way, site)) do
    n = n + (BODY_MAX[name] or error("entry_copy: no bound for the body of " .. name))
  end
  for i, x in ipairs(way.tree) do
    if M.falls(way, i, site) then n = n + BODY_MAX[x.to] end
  end
  return n + 5
end

-- The room of site's entry: bytes from its site that its baseline and
-- every compiled set's copy fit in (c: copy_context.of()).
function M.room(c, site)
  local n = BASELINE_MAX[site] or 40
  for _, w in ipairs(c.ways) do
    if w.tree then n = math.max(n, copy_max(site, w)) end
  end
  return n
end

-- The largest room of c's sites: what rule_patch keeps of each as built.
function M.largest_room(c)
  local n = 5
  for _, site in ipairs(c.sites) do n = math.max(n, M.room(c, site)) end
  return n
end

return M
