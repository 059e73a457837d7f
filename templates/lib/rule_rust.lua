-- What the Rust crate (templates/flavor/rust/) prints of the database: a
-- rule as a Rust constant expression, text as a Rust literal. The Rust
-- twin of rule_c.lua; tests/rust/ checks that the two tables agree.
local M = {}

-- Database text as a Rust string literal: a quote or backslash escaped, a
-- control character as \u{..}, so that no text can end the literal.
function M.string(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    if c == '"' or c == "\\" then return "\\" .. c end
    return string.format("\\u{%x}", c:byte())
  end) .. '"'
end

-- A 12-byte CPUID vendor string as a Rust byte array expression.
function M.vendor(v)
  assert(#v == 12, "a CPUID vendor string is 12 bytes")
  return "*b" .. M.string(v)
end

-- A rule as `Rule { .. }`: its bands, then empty ones up to MAX_BANDS,
-- as copy_rule.c's zero-filled initialiser leaves them.
function M.literal(r, entry)
  local code = {}
  for _, st in ipairs(db.strategies) do code[st.name] = st.code end
  local bands = {}
  for _, b in ipairs(r.bands) do
    local cells = {}
    for _, c in ipairs(db.classes) do cells[#cells + 1] = code[b[c]] end
    bands[#bands + 1] = string.format("Band { hi: %s, strategy: [%s] }", b.hi < 0 and "usize::MAX" or b.hi,
      table.concat(cells, ", "))
  end
  for _ = #r.bands + 1, db.max_bands do bands[#bands + 1] = "Band::EMPTY" end
  local status = r.status:sub(1, 1):upper() .. r.status:sub(2)
  return string.format("Rule { above_max: %d, near_max: %d, below_max: %d, zero_mod: %d, align_dst: %d, n_bands: %d, " ..
    "bands: [%s], status: Status::%s, entry: %s, source: %s, reason: %s }", r.above_max, r.near_max, r.below_max,
    r.zero_mod, r.align_dst, #r.bands, table.concat(bands, ", "), status, M.string(entry or ""),
    M.string(r.source or ""), M.string(r.reason or ""))
end

return M
