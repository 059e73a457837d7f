@ -- Printed by `uarchgen query`: one line per entry and flavor, then the fallbacks.
@ local function cpuid(e)
@   local parts = {}
@   for _, r in ipairs(e.ranges) do
@     parts[#parts + 1] = r.model_lo == r.model_hi and string.format("%02x/%02x", r.family, r.model_lo)
@                         or string.format("%02x/%02x-%02x", r.family, r.model_lo, r.model_hi)
@   end
@   return table.concat(parts, ",")
@ end
@ local function row(name, vendor, flavor, ids, st, ev, tbl)
@   return string.format("%-15s %-12s %-6s %-36s %-42s %-38s %s", name, vendor, flavor, st, ev, ids, tbl)
@ end
${row("entry", "vendor", "flavor", "cpuid family/models", "status", "evidence", "table")}
@ for _, e in ipairs(db.entries) do
@   for _, f in ipairs(db.flavors) do
@     local r = e.rules[f.name]
@     local ev = r.status == "measured" and r.evidence or (r.status == "inherited" and ("see " .. r.source .. ": " .. r.reason) or "-")
${row(e.name, e.vendor, f.name, cpuid(e), rule_status_text(r), ev, table_text(r))}
@   end
@ end
${row("(other)", "any", "all", "any other family/model", "baseline (no evidence)", "-", table_text(lookup("", 0, 0, db.flavors[1].name)))}
