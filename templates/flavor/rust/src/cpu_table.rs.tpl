${banner("//")}
@ local rust = import("rule_rust")
@ local function status(r)
@   if r.status == "measured" then return "measured: " .. r.evidence end
@   if r.status == "inherited" then return "inherited from " .. r.source end
@   return "baseline (no evidence)"
@ end
//! The CPUID table, as copy_rule.c holds it: vendor, family, model range,
//! then the rule. A core no row holds gets the baseline, not another core's
//! rule.

use crate::rule::{Band, CpuMatch, Rule, Status};

@ local ranges = {}
@ for _, e in ipairs(db.entries) do
@   for _, r in ipairs(e.ranges) do ranges[#ranges + 1] = { e = e, r = r } end
@ end
@ table.sort(ranges, function(a, b)
@   if a.e.vendor ~= b.e.vendor then return a.e.vendor < b.e.vendor end
@   if a.r.family ~= b.r.family then return a.r.family < b.r.family end
@   return a.r.model_lo < b.r.model_lo
@ end)
pub(crate) static CPU_TABLE: [CpuMatch; ${#ranges}] = [
@ for _, x in ipairs(ranges) do
@   local rule = x.e.rules[flavor.name]
    // ${x.e.name}: ${(x.r.source:gsub("%c", "?"))}. Rule ${(status(rule):gsub("%c", "?"))}.
    CpuMatch {
        vendor: ${rust.vendor(x.e.vendor)},
        family: 0x${string.format("%02x", x.r.family)},
        model_lo: 0x${string.format("%02x", x.r.model_lo)},
        model_hi: 0x${string.format("%02x", x.r.model_hi)},
        rule: ${rust.literal(rule, x.e.name)},
    },
@ end
];

/// A core no entry holds: the baseline, every copy forward.
pub(crate) static BASELINE: Rule = ${rust.literal(lookup("", 0, 0, flavor.name), "")};
