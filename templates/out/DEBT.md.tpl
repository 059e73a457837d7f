<!--
${banner("  ")}
-->
# Unmeasured debt

Each rule below was never measured on its own core. Without evidence a core
takes the baseline, every copy one forward `rep movsb`, which no measured
table may lose to; a guessed rule can cost a core 4x. A core takes a measured
entry's table only through a row of table `inherit` that cites why. Either
way it is debt until a probe runs on the core.
`gen/uarchgen debt` prints this list; `gen/uarchgen query` shows every entry.

@ local function models(e)
@   local parts = {}
@   for _, r in ipairs(e.ranges) do
@     if r.model_lo == r.model_hi then
@       parts[#parts + 1] = string.format("0x%02x", r.model_lo)
@     else
@       parts[#parts + 1] = string.format("0x%02x-0x%02x", r.model_lo, r.model_hi)
@     end
@   end
@   return string.format("family 0x%02x, models %s", e.ranges[1].family, table.concat(parts, ", "))
@ end
@ local n = 0
@ for _, f in ipairs(db.flavors) do
## Flavor `${f.name}`

| entry | vendor | CPUID | takes now | why | closed by a probe run on |
|---|---|---|---|---|---|
@   for _, e in ipairs(db.entries) do
@     local r = e.rules[f.name]
@     if r.status ~= "measured" then
@       n = n + 1
@       local takes = r.status == "inherited" and ("the table of " .. r.source) or "baseline"
| ${e.name} | ${e.vendor} | ${models(e)} | ${takes} | ${md_cell(r.reason or "no evidence")} | ${md_cell(e.example)}: `make probe NAME=${e.name}` |
@     end
@   end

@ end
@ local guests = {}
@ for _, f in ipairs(db.flavors) do
@   for _, e in ipairs(db.entries) do
@     local r = e.rules[f.name]
@     if r.status == "measured" and r.hypervisor then guests[#guests + 1] = { e = e, f = f.name, r = r } end
@   end
@ end
@ if #guests > 0 then
## Measured only inside a virtual machine

These rules were measured, but under a hypervisor, which chooses the CPUID
family and model the guest sees and adds its own costs. A run on bare metal
of the same core closes each.

| entry | flavor | hypervisor | measured on | evidence |
|---|---|---|---|---|
@   for _, g in ipairs(guests) do
| ${g.e.name} | ${g.f} | ${md_cell(g.r.hypervisor)} | ${md_cell(g.r.cpu_signature)} | ${md_cell(g.r.evidence)} |
@   end

@ end
@ local limited = {}
@ for _, e in ipairs(db.entries) do if e.cpuid_limit then limited[#limited + 1] = e end end
@ if #limited > 0 then
## Cores that CPUID cannot tell apart

A measurement of these entries covers the core type the probe ran on; the
other core type of the same part keeps the same rule unmeasured.

@   for _, e in ipairs(limited) do
- **${e.name}**: ${md_cell(e.cpuid_limit)}.
@   end

@ end
${n} unmeasured rule${n == 1 and "" or "s"}.
