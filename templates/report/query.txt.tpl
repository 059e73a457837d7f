@ -- Printed by `uarchgen query`: one line per entry and flavor, then the fallbacks.
@ local function cpuid(e)
@   local parts = {}
@   for _, r in ipairs(e.ranges) do
@     parts[#parts + 1] = r.model_lo == r.model_hi and string.format("%02x/%02x", r.family, r.model_lo)
@                         or string.format("%02x/%02x-%02x", r.family, r.model_lo, r.model_hi)
@   end
@   return table.concat(parts, ",")
@ end
@ local function row(name, vendor, flavor, ids, window, align, st, ev)
@   return string.format("%-15s %-12s %-6s %6s %5s  %-36s %-42s %s", name, vendor, flavor, window, align, st, ev, ids)
@ end
${row("entry", "vendor", "flavor", "cpuid family/models", "window", "align", "status", "evidence")}
@ for _, e in ipairs(db.entries) do
@   for _, f in ipairs(db.flavors) do
@     local r = e.rules[f.name]
@     local guest = r.hypervisor and (" (" .. r.hypervisor .. " guest)") or ""
@     local st = r.measured and "measured " .. (r.measured_on or "") .. guest or (r.window_from and "extrapolated from " .. r.window_from or "default (no measurement)")
@     local ev = r.measured and r.evidence or (r.window_from and "see " .. r.window_from or "-")
${row(e.name, e.vendor, f.name, cpuid(e), r.window, r.align_dst, st, ev)}
@   end
@ end
@ for _, d in ipairs(db.defaults) do
${row("(other)", d.vendor, d.flavor, "any other family/model", d.window, d.align_dst, "extrapolated from " .. d.entry, "see " .. d.entry)}
@ end
${row("(unknown)", "any other", "all", "any", 0, 0, "default (no measurement)", "-")}
