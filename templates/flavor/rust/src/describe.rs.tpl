${banner("//")}
@ local letters, by_code = {}, {}
@ local strategies = flavor.strategies
@ for _, st in ipairs(strategies) do by_code[st.code] = st.letter end
@ for code = 0, strategies[#strategies].code do letters[#letters + 1] = by_code[code] or "?" end
//! A rule as the boot log prints it, the line of copy_rule.c's
//! rule_describe after its "memcpy: ": `Rule { above_max: 31, below_max: 0,
//! align_dst: 0, bands: [0..63 FFFFF, 64.. FDFFF] } (zen2, measured)`. Each
//! band lists its strategy for the classes zero, above, near, below and
//! elsewhere, one letter each; near_max and zero_mod show where the rule has
//! those classes.

use crate::rule::{is_strategy, Rule, Status, MAX_BANDS};
use core::fmt;

/// Each code's letter, '?' where a code is not one of this flavor's.
const LETTERS: &[u8] = b"${table.concat(letters)}";

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rule {{ above_max: {}", self.above_max)?;
        if self.near_max != 0 {
            write!(f, ", near_max: {}", self.near_max)?;
        }
        write!(f, ", below_max: {}", self.below_max)?;
        if self.zero_mod != 0 && self.zero_mod < 4096 {
            write!(f, ", zero_mod: {}", self.zero_mod)?;
        }
        write!(f, ", align_dst: {}, bands: [", self.align_dst)?;
        let mut lo = 0usize;
        for (b, band) in self.bands.iter().take((self.n_bands as usize).min(MAX_BANDS)).enumerate() {
            write!(f, "{}{}..", if b > 0 { ", " } else { "" }, lo)?;
            if band.hi != usize::MAX {
                write!(f, "{}", band.hi)?;
            }
            f.write_str(" ")?;
            for &s in band.strategy.iter() {
                let letter = if is_strategy(s) { LETTERS[usize::from(s)] } else { b'?' };
                write!(f, "{}", char::from(letter))?;
            }
            lo = band.hi.wrapping_add(1);
        }
        f.write_str("] } (")?;
        f.write_str(if self.entry.is_empty() { "no entry for this CPU" } else { self.entry })?;
        match self.status {
            Status::Measured => f.write_str(", measured")?,
            Status::Inherited => write!(f, ", inherited from {}", self.source)?,
            Status::Forced => write!(f, ", forced: {}", self.reason)?,
            Status::Baseline => f.write_str(", baseline: no evidence")?,
        }
        f.write_str(")")
    }
}
