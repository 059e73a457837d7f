-- A rule as the C initialiser of struct <prefix>rule (copy_rule.h), written
-- once for the rule table in copy_rule.c and the generated tests' expected
-- values.
local M = {}

function M.literal(r, entry, prefix)
  local G = string.upper(prefix)
  local code = {}
  for _, st in ipairs(db.strategies) do code[st.name] = st.code end
  local bands = {}
  for _, b in ipairs(r.bands) do
    local cells = {}
    for _, c in ipairs(db.classes) do cells[#cells + 1] = code[b[c]] end
    bands[#bands + 1] = string.format("{ %s, { %s } }", b.hi < 0 and "(" .. prefix .. "size_t)-1" or b.hi,
      table.concat(cells, ", "))
  end
  return string.format("{ %d, %d, %d, %d, %d, %d, { %s }, %sRULE_%s, %s, %s, %s }", r.above_max, r.near_max, r.below_max,
    r.zero_mod, r.align_dst,
    #r.bands, table.concat(bands, ", "), G, string.upper(r.status), c_string(entry or ""), c_string(r.source or ""),
    c_string(r.reason or ""))
end

return M
