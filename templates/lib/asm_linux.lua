-- The Linux back-end of templates/lib/asm.lua: the neutral assembly as a
-- GAS file for arch/x86/lib, assembled by Kbuild and checked by objtool.
-- It is the GAS back-end but for what Linux writes with its own macros:
--   func / endfunc       SYM_FUNC_START / SYM_FUNC_END (linux/linkage.h):
--                        with CONFIG_X86_KERNEL_IBT the start holds ENDBR
--                        itself (arch/x86/include/asm/linkage.h), so a
--                        literal endbr64 is refused here (gen --linux
--                        implies --no-endbr)
--   entry NAME           SYM_FUNC_START_LOCAL: a routine reached only by a
--                        jump or a pointer is still a function to objtool,
--                        which validates each symbol from its start; it
--                        ends at the next func, entry or section
--   ret                  RET: a jmp to __x86_return_thunk with
--                        CONFIG_RETHUNK, ret; int3 with CONFIG_SLS; objtool
--                        --rethunk refuses a bare ret
--   stac / clac          ASM_STAC / ASM_CLAC (asm/smap.h): alternatives,
--                        nops until the boot CPU says it has SMAP
--   access L, FIXUP      from here to endaccess, every instruction that
--   endaccess L          may touch user memory gets its own __ex_table
--                        entry, _ASM_EXTABLE_UA(insn, FIXUP) (asm/asm.h):
--                        Linux's fault handler looks the faulting rip up
--                        entry by entry (search_exception_tables), it
--                        knows no ranges
-- "Touches memory": a memory operand that is not rip-relative (those are
-- the file's own tables, kernel data) and not lea's, or a string
-- instruction. A load from the kernel side gets an entry too, as Linux's
-- own copy_user_64.S gives its loads and stores alike: one body serves
-- both directions.
local M = {}

M.HEADER = table.concat({
  "#include <linux/linkage.h>",
  "#include <asm/asm.h>",
  "#include <asm/smap.h>",
  "",
  "        .intel_syntax noprefix",
}, "\n")

local STRING_OPS = { movsb = true, movsw = true, movsd = true, movsq = true,
                     stosb = true, stosw = true, stosd = true, stosq = true }

-- Whether instruction op rest may touch memory that is not the file's own.
function M.touches_memory(op, rest)
  if op == "rep" then return STRING_OPS[rest] ~= nil end
  if STRING_OPS[op] then return true end
  if op == "lea" or op:match("^nop") or op:match("^prefetch") then return false end
  return rest:find("[", 1, true) ~= nil and not rest:find("[rel ", 1, true)
end

-- Closes the local function open, if any: the lines to emit before a new
-- function or section starts.
function M.close(state, indent)
  if not state.linux_fn then return nil end
  local line = (indent or "") .. "SYM_FUNC_END(" .. state.linux_fn .. ")"
  state.linux_fn = nil
  return line
end

-- The lines given, less the nil and empty ones, as one string.
local function join(...)
  local t = {}
  for i = 1, select("#", ...) do
    local s = select(i, ...)
    if s and s ~= "" then t[#t + 1] = s end
  end
  return table.concat(t, "\n")
end

-- Renders one statement, or returns nil to let the GAS back-end render it.
-- gas(indent, body) renders a statement as GAS does.
function M.statement(indent, body, where, state, gas)
  local label = body:match("^([%w_.]+):$")
  if label then
    -- func and entry write the symbol's label themselves.
    if state.named[label] then state.named[label] = nil; return "" end
    return nil
  end
  local op, rest = body:match("^(%S+)%s*(.*)$")
  if op == "intel64" then return M.HEADER end
  if op == "endbr64" then
    error(where .. "endbr64: SYM_FUNC_START writes ENDBR itself (generate with --no-endbr)", 0)
  elseif op == "func" then
    if #state.open > 0 then
      error(where .. "func " .. rest .. ": Linux takes one function at a time (" .. state.open[1] .. " is open)", 0)
    end
    state.open[1] = rest
    state.exported[rest] = "func"
    state.named[rest] = true
    return join(M.close(state, indent), indent .. "SYM_FUNC_START(" .. rest .. ")")
  elseif op == "endfunc" and #state.open > 0 and state.exported[state.open[1]] == "func" then
    local name = state.open[1]
    state.open = {}
    return indent .. "SYM_FUNC_END(" .. name .. ")"
  elseif op == "entry" then
    local closed = M.close(state, indent)
    state.linux_fn, state.named[rest] = rest, true
    return join(closed, indent .. "SYM_FUNC_START_LOCAL(" .. rest .. ")")
  elseif op == "section" then
    return join(M.close(state, indent), gas(indent, body))
  elseif op == "access" then
    local name, fixup = rest:match("^([%w_.]+),%s*([%w_.]+)$")
    if not name then error(where .. "access NAME, FIXUP: '" .. rest .. "'", 0) end
    state.fixup = fixup
    return name .. ":"
  elseif op == "endaccess" then
    state.fixup = nil
    return rest .. ":"
  elseif op == "ret" and rest == "" then
    return indent .. "RET"
  elseif op == "stac" and rest == "" then
    return indent .. "ASM_STAC"
  elseif op == "clac" and rest == "" then
    return indent .. "ASM_CLAC"
  elseif state.fixup and op:match("^[a-z][a-z0-9]*$") and M.touches_memory(op, rest) then
    state.n_extable = state.n_extable + 1
    local at = string.format(".Luc_uaccess_%d", state.n_extable)
    return indent .. "_ASM_EXTABLE_UA(" .. at .. ", " .. state.fixup .. ")\n" .. at .. ":\n" .. gas(indent, body)
  end
  return nil
end

return M
