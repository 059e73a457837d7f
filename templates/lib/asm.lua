-- The syntax back-ends. A routine file is written once, in the neutral
-- assembly below, and rendered as NASM (elf64) and as GAS in Intel syntax
-- (.intel_syntax noprefix), which gcc -c, clang -c and Rust's global_asm!
-- accept. The two renderings must assemble to the same bytes; the identity
-- test (tests/syntax_identity.sh) proves it for every generated file.
--
-- The neutral assembly is Intel syntax, one statement a line:
--   ; text                    a comment, alone or after a statement
--   name:                     a label; .Lname is local to the file and, for
--                             NASM, to the last label not starting with '.'
--   intel64                   64-bit code, memory operands RIP-relative
--   section NAME              .text, .data, .rodata, .data.rel.ro or
--                             .note.GNU-stack
--   func NAME / endfunc       an exported function; endfunc ends every
--                             function opened since the last one
--   object NAME / endobject   an exported data object, the same way
--   global NAME[, NAME]       an exported label without type
--   entry NAME                a routine of this file that is not exported,
--                             reached by a jump or through a pointer: a label
--                             here, a local function where the back-end
--                             needs one (Linux's objtool)
--   access NAME, FIXUP        the label NAME, which opens the instructions
--   endaccess NAME            that touch user memory, and the label that
--                             closes them; FIXUP is where a back-end that
--                             gives each such instruction its own exception
--                             entry sends a fault
--   exceptions MODEL          the lines up to endexceptions are written only
--   endexceptions             by the back-ends whose exception model is
--                             MODEL: "ranges" (the access ranges and a shared
--                             fault exit, nasm and gas) or "extable" (an
--                             entry per instruction and a fixup in each
--                             routine, linux)
--   align N                   pad with zero bytes to an N-byte boundary (data)
--   codealign N               pad with int3 (0xcc) to an N-byte boundary, in
--                             code that no path falls into: the two
--                             back-ends would fill with different nops
--   dq X[, X] / db N[, N]     data: quadwords (numbers or symbols), bytes
--   db A - B                  a byte: the distance between two labels
--   cetnote                   the GNU property note that marks the file as
--                             compatible with CET (IBT and shadow stacks)
--   jcc near L / jmp near L   a jump with a 32-bit displacement, whatever
--                             the distance
--   anything else             an instruction: mnemonic, then operands, with
--                             [rel SYMBOL] for a RIP-relative operand
-- Anything the back-ends do not know is an error naming the line, so a
-- template cannot write one syntax's idiom by accident.
local M = {}

-- Each back-end and the file it writes: name.asm.tpl renders to name.asm
-- and name.S, and with gen --linux (the option `when` names) to
-- name_linux.S, for Linux's arch/x86/lib (templates/lib/asm_linux.lua).
M.outputs = {
  { syntax = "nasm", suffix = ".asm" },
  { syntax = "gas", suffix = ".S" },
  { syntax = "linux", suffix = "_linux.S", when = "linux" },
}

-- The back-ends this run writes: those without `when`, and those whose
-- option is set.
function M.wanted_outputs()
  local list = {}
  for _, o in ipairs(M.outputs) do
    if not o.when or opts[o.when] then list[#list + 1] = o end
  end
  return list
end

-- How each back-end's kernel finds the fault exit (exceptions above).
local EXCEPTIONS = { nasm = "ranges", gas = "ranges", linux = "extable" }

local SECTIONS = {
  [".text"] = { nasm = "section .text", gas = ".text" },
  [".data"] = { nasm = "section .data", gas = ".data" },
  [".rodata"] = { nasm = "section .rodata", gas = ".section .rodata" },
  -- Read-only once relocated: data that holds addresses, so that a shared
  -- object needs no relocation in a read-only segment.
  [".data.rel.ro"] = { nasm = "section .data.rel.ro progbits alloc noexec write align=8",
                       gas = '.section .data.rel.ro,"aw",@progbits' },
  [".note.GNU-stack"] = { nasm = "section .note.GNU-stack noalloc noexec nowrite progbits",
                          gas = '.section .note.GNU-stack,"",@progbits' },
}

-- The opcodes of the jumps written "near": jmp rel32, and jcc rel32 (0f 8x).
local NEAR = { jmp = "0xe9", jb = "0x0f, 0x82", jae = "0x0f, 0x83", jz = "0x0f, 0x84", je = "0x0f, 0x84",
               jnz = "0x0f, 0x85", jne = "0x0f, 0x85", jbe = "0x0f, 0x86", ja = "0x0f, 0x87" }

local function comment(syntax, text)
  if syntax == "nasm" then return ";" .. text end
  -- A comment must not end early: "*/" inside it would close it.
  return "/*" .. text:gsub("%*/", "* /") .. " */"
end

local function is_symbol(s) return s:match("^[%a_][%w_.]*$") ~= nil end

local function split_args(s)
  local list = {}
  for a in s:gmatch("[^,]+") do list[#list + 1] = a:match("^%s*(.-)%s*$") end
  return list
end

-- Renders one statement (no comment) for syntax; state.open holds the names
-- the next endfunc/endobject closes, state.exported what was exported.
local statement
function statement(syntax, indent, body, where, state)
  local nasm = syntax == "nasm"
  if syntax == "linux" then
    local gas = function(i, b) return statement("gas", i, b, where, state) end
    local linux = import("asm_linux").statement(indent, body, where, state, gas)
    if linux then return linux end
    return gas(indent, body)
  end
  if body:match("^[%w_.]+:$") then return body end
  local op, rest = body:match("^(%S+)%s*(.*)$")
  local function say(n, g) return indent .. (nasm and n or g) end
  if op == "intel64" and rest == "" then
    return nasm and "        bits    64\n        default rel" or "        .intel_syntax noprefix"
  elseif op == "section" then
    local s = SECTIONS[rest] or error(where .. "unknown section '" .. rest .. "'", 0)
    return say(s[syntax], s[syntax])
  elseif (op == "func" or op == "object") and is_symbol(rest) then
    state.open[#state.open + 1] = rest
    state.exported[rest] = op
    if nasm then
      return string.format("%sglobal  %s:%s (%s.end - %s)", indent, rest, op == "func" and "function" or "data", rest, rest)
    end
    return string.format("%s.globl  %s\n%s.type   %s, @%s", indent, rest, indent, rest, op == "func" and "function" or "object")
  elseif (op == "endfunc" or op == "endobject") and rest == "" then
    local lines = {}
    for _, name in ipairs(state.open) do
      lines[#lines + 1] = nasm and (name .. ".end:") or string.format("%s.size   %s, . - %s", indent, name, name)
    end
    if #lines == 0 then error(where .. op .. " closes nothing", 0) end
    state.open = {}
    return table.concat(lines, "\n")
  elseif op == "entry" and is_symbol(rest) then
    return rest .. ":"
  elseif op == "access" and rest:match("^[%a_][%w_.]*,%s*[%a_.][%w_.]*$") then
    return rest:match("^([^,]+)") .. ":"
  elseif op == "endaccess" and is_symbol(rest) then
    return rest .. ":"
  elseif op == "global" then
    for _, a in ipairs(split_args(rest)) do
      if not is_symbol(a) then error(where .. "global: '" .. a .. "' is not a symbol", 0) end
    end
    return say("global  " .. rest, ".globl  " .. rest)
  elseif op == "cetnote" and rest == "" then
    -- NT_GNU_PROPERTY_TYPE_0 (5), owner "GNU", one property:
    -- GNU_PROPERTY_X86_FEATURE_1_AND (0xc0000002) = IBT (1) | SHSTK (2).
    if nasm then
      return indent .. "section .note.gnu.property note alloc noexec nowrite align=8\n" ..
             indent .. "dd      4, 16, 5\n" .. indent .. 'db      "GNU", 0\n' ..
             indent .. "dd      0xc0000002, 4, 3, 0"
    end
    return indent .. '.section .note.gnu.property,"a",@note\n' .. indent .. ".balign 8\n" ..
           indent .. ".long   4, 16, 5\n" .. indent .. '.asciz  "GNU"\n' ..
           indent .. ".long   0xc0000002, 4, 3, 0"
  elseif op == "codealign" and rest:match("^%d+$") then
    return say("align   " .. rest .. ", db 0xcc", ".balign " .. rest .. ", 0xcc")
  elseif op == "align" and rest:match("^%d+$") then
    return say("align   " .. rest .. ", db 0", ".balign " .. rest .. ", 0")
  elseif op == "dq" then
    local args = split_args(rest)
    if nasm then
      -- Relocations name the symbol, as GAS writes them, not its section.
      for i, a in ipairs(args) do if is_symbol(a) then args[i] = a .. " wrt ..sym" end end
    end
    return say("dq      " .. table.concat(args, ", "), ".quad   " .. rest)
  elseif op == "db" and rest:match("^%d+[%d, ]*$") then
    return say("db      " .. rest, ".byte   " .. rest)
  elseif op == "db" and rest:match("^[%a_][%w_.]* %- [%a_][%w_.]*$") then
    return say("db      " .. rest, ".byte   " .. rest)
  elseif NEAR[op] and rest:match("^near [%a_.][%w_.]*$") then
    -- A jump with a rel32 whatever the distance. GAS has no such operand
    -- that Rust's global_asm! accepts ("{disp32}" is a format argument
    -- there), so it gets the bytes: the opcode, then the displacement from
    -- the end of the instruction.
    if nasm then return indent .. body end
    local target = rest:match("^near (.*)$")
    return indent .. ".byte   " .. NEAR[op] .. "\n" .. indent .. ".long   " .. target .. " - . - 4"
  elseif op:match("^[a-z][a-z0-9]*$") and not rest:find("[%%$`\"']") then
    if nasm then return indent .. body end
    local g = body:gsub("%[rel ", "[rip + "):gsub("(%a*word) %[", "%1 ptr ["):gsub("byte %[", "byte ptr [")
    return indent .. g
  end
  error(where .. "not neutral assembly: '" .. body .. "'", 0)
end

-- The lines of text, less every "jmp L" whose next statement is "L:": a
-- tree whose last leaf goes to the copy laid out after it falls through
-- (a taken jump less on that path). A comment-only line in between stays.
local function drop_jumps_to_next(text)
  local lines = {}
  for line in (text .. (text:sub(-1) == "\n" and "" or "\n")):gmatch("(.-)\n") do lines[#lines + 1] = line end
  local function statement(line) return (line:match("^([^;]*)") or ""):match("^%s*(.-)%s*$") end
  local keep = {}
  for i, line in ipairs(lines) do
    local target = statement(line):match("^jmp%s+([%w_.]+)$") or statement(line):match("^jmp%s+near%s+([%w_.]+)$")
    local drop = false
    if target then
      for j = i + 1, #lines do
        local st = statement(lines[j])
        if st ~= "" then drop = st == target .. ":"; break end
      end
    end
    if not drop then keep[#keep + 1] = line end
  end
  return keep
end

-- The text of one syntax. name is the template's name, for errors; every
-- routine of `routines` must be exported with func, and every exported
-- function that starts with prefix must be one of them.
function M.render(text, syntax, name, prefix, routines)
  local out, state = {}, { open = {}, exported = {}, named = {}, n_extable = 0 }
  local model = EXCEPTIONS[syntax] or error(name .. ": no back-end '" .. tostring(syntax) .. "'", 0)
  local n, skip = 0, nil
  for _, line in ipairs(drop_jumps_to_next(text)) do
    n = n + 1
    local where = name .. ": output line " .. n .. ": "
    local code, note = line:match("^(.-);(.*)$")
    if not code then code = line end
    local indent, body = code:match("^(%s*)(.-)%s*$")
    local block = body:match("^exceptions%s+(%a+)$")
    if block then
      if skip ~= nil then error(where .. "exceptions inside exceptions", 0) end
      if block ~= "ranges" and block ~= "extable" then error(where .. "exceptions: no model '" .. block .. "'", 0) end
      skip = block ~= model
      goto next
    elseif body == "endexceptions" then
      if skip == nil then error(where .. "endexceptions closes nothing", 0) end
      skip = nil
      goto next
    elseif skip then
      goto next
    end
    local rendered = body ~= "" and statement(syntax, indent, body, where, state) or ""
    if note and body == "" then
      rendered = code .. comment(syntax, note)
    elseif note then
      -- A comment after a statement keeps its column where it can.
      local last = rendered:match("[^\n]*$")
      rendered = rendered .. string.rep(" ", math.max(1, #code - #last)) .. comment(syntax, note)
    end
    out[#out + 1] = rendered
    ::next::
  end
  if skip ~= nil then error(name .. ": exceptions is never closed (endexceptions)", 0) end
  if syntax == "linux" then out[#out + 1] = import("asm_linux").close(state, "        ") end
  if #state.open > 0 then error(name .. ": " .. state.open[1] .. " is never closed (endfunc/endobject)", 0) end
  for _, r in ipairs(routines) do
    -- The shared fault exit belongs to the ranges model only.
    if r.kind == "fault_exit" and model ~= "ranges" then goto listed end
    if state.exported[prefix .. r.name] ~= "func" then
      error(name .. ": the flavor lists routine " .. r.name .. ", which this file does not export", 0)
    end
    ::listed::
  end
  local listed = {}
  for _, r in ipairs(routines) do listed[prefix .. r.name] = true end
  for sym, kind in pairs(state.exported) do
    if kind == "func" and sym:sub(1, #prefix) == prefix and not listed[sym] then
      error(name .. ": exports " .. sym .. ", which is not in the flavor's routine list", 0)
    end
  end
  return table.concat(out, "\n") .. "\n"
end

return M
