${banner("//")}
@ local P = opts.prefix
@ local rust = import("rule_rust")
@ local ctx = import("copy_context").of()
//! Choosing once: which routine set the installed rule runs, and patch(),
//! which copies that set's dispatch into each entry through the kernel's
//! text poke, as copy_rule.c's rule_patch does (docs/vendoring.md, "Choosing
//! once: the patch list").

/// The patched routines, by site: each entry's first bytes, the baseline
/// until [`patch`] writes the installed rule's dispatch there.
@ for i, r in ipairs(ctx.sites) do
pub const SITE_${string.upper(r)}: usize = ${i - 1};
@ end
pub const N_PATCH_SITES: usize = ${#ctx.sites};

/// Writes bytes over the code at addr, as a kernel's text poke does (Linux's
/// text_poke_early). It may be the very memcpy it patches.
pub type TextPoke = unsafe fn(addr: *mut u8, bytes: &[u8]);

/// [`patch`] wrote nothing: no poke was given, or the patch list is not what
/// this crate expects, or a jump would not reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused;
@ if target_name() then

/// Built for ${target_name()} alone: the entries are its tree already.
///
/// # Safety
///
/// None needed; unsafe as the generic build's is.
pub unsafe fn patch(poke: Option<TextPoke>) -> Result<(), Refused> {
    poke.map(|_| ()).ok_or(Refused)
}

/// The routines the installed rule runs, by name.
pub fn routines() -> &'static str {
    "${target_name()}"
}

/// The routine a site runs: none to choose in a build for one core.
pub fn routine(_site: usize) -> Option<usize> {
    None
}
@ else

use crate::rule::Rule;
use core::ptr::{addr_of, addr_of_mut, read_volatile};
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

/// The routine sets: 0 the entries' own baseline, 1 the table dispatch,
/// then each measured table compiled for one isa level.
pub const N_ROUTINE_SETS: usize = ${2 + #ctx.sets};

static SET_NAMES: [&str; N_ROUTINE_SETS] = [
    "baseline",
    "table",
@ for _, s in ipairs(ctx.sets) do
    ${rust.string(s.name)},
@ end
];

// The patch list, in x86_64/copy.S: each patched routine's entry, where its
// site starts from there and the site's room, per routine set the routine
// each site runs, and what of it patch() copies into the site.
extern "C" {
    #[link_name = "${P}patch_entries"]
    static ENTRIES: [usize; N_PATCH_SITES];
    #[link_name = "${P}patch_site_offset"]
    static SITE_OFFSET: [u8; N_PATCH_SITES];
    #[link_name = "${P}patch_site_len"]
    static SITE_LEN: [u16; N_PATCH_SITES];
    #[link_name = "${P}patch_targets"]
    static TARGETS: [usize; N_ROUTINE_SETS * N_PATCH_SITES];
    #[link_name = "${P}patch_copy_end"]
    static COPY_END: [u16; N_ROUTINE_SETS * N_PATCH_SITES];
    #[link_name = "${P}patch_copy_first"]
    static COPY_FIRST: [u16; N_ROUTINE_SETS * N_PATCH_SITES + 1];
    // As long as COPY_FIRST's last entry says.
    #[link_name = "${P}patch_copy_jumps"]
    static COPY_JUMPS: [u16; 0];
    // Per site, twice its room: the bytes it held as built, then those
    // patch() writes there.
    #[link_name = "${P}patch_scratch"]
    static mut SCRATCH: [u8; 0];
}
@ if #plan.rows > 0 then

use crate::rule::{Band, Status, MAX_BANDS};

/// A measured table and the set that runs it at each isa level (0 where it
/// copies forward everywhere there). An inherited rule carries its source's
/// table, and so finds its row.
struct Compiled {
    table: Rule,
    set: [usize; ${flavor.isa_level + 1}],
}

static COMPILED: [Compiled; ${#plan.rows}] = [
@   for _, row in ipairs(plan.rows) do
@     local ids = {}
@     for isa = 0, flavor.isa_level do ids[#ids + 1] = row.by_isa[isa] end
    // ${row.entry}
    Compiled { table: ${rust.literal(row.rule, row.entry)}, set: [${table.concat(ids, ", ")}] },
@   end
];

fn same_table(a: &Rule, b: &Rule) -> bool {
    let n = (a.n_bands as usize).min(MAX_BANDS);
    a.above_max == b.above_max
        && a.near_max == b.near_max
        && a.below_max == b.below_max
        && a.zero_mod == b.zero_mod
        && a.align_dst == b.align_dst
        && a.n_bands == b.n_bands
        && a.bands[..n] == b.bands[..n]
}
@ end

/// The set the installed rule runs, the set whose code the sites hold, and
/// whether the bytes each site held as built have been read (before the
/// first patch, so that a later rule of the baseline can put them back).
static INSTALLED_SET: AtomicUsize = AtomicUsize::new(0);
static PATCHED_SET: AtomicUsize = AtomicUsize::new(0);
static BUILT_READ: AtomicBool = AtomicBool::new(false);

/// Chooses the set that runs rule at isa: a measured table's compiled
/// routines; the baseline where every copy goes forward; else the table
/// dispatch. A forced table always takes the dispatch, so that timing
/// forward under it times the dispatch too.
pub(crate) fn choose_set(rule: &Rule, ${#plan.rows > 0 and "isa" or "_isa"}: i32, all_forward: bool) {
    let set = if rule.status == crate::rule::Status::Forced {
        1
    } else {
@ if #plan.rows > 0 then
        match COMPILED.iter().find(|c| same_table(rule, &c.table)) {
            Some(c) => c.set[isa as usize],
            None if all_forward => 0,
            None => 1,
        }
@ else
        usize::from(!all_forward)
@ end
    };
    INSTALLED_SET.store(set, Relaxed);
}

/// The routines the installed rule runs, by name: "baseline", "table", or
/// the compiled table's.
pub fn routines() -> &'static str {
    SET_NAMES[INSTALLED_SET.load(Relaxed)]
}

/// The address of the routine site SITE_* runs under the installed rule
/// (the entry itself for the baseline); None for a site out of range.
pub fn routine(site: usize) -> Option<usize> {
    if site >= N_PATCH_SITES {
        return None;
    }
    Some(routine_of(INSTALLED_SET.load(Relaxed), site))
}

fn routine_of(set: usize, s: usize) -> usize {
    // SAFETY: data of copy.S, as long as its type says.
    unsafe { TARGETS[set * N_PATCH_SITES + s] }
}

/// Where site s starts: its entry, past the entry's endbr64 if any.
fn site_of(s: usize) -> usize {
    // SAFETY: as above.
    unsafe { ENTRIES[s] + usize::from(SITE_OFFSET[s]) }
}

fn site_len(s: usize) -> usize {
    // SAFETY: as above.
    usize::from(unsafe { SITE_LEN[s] })
}

/// Site s's bytes as built, in SCRATCH; the bytes patch() writes there
/// follow them, as many.
fn built_of(s: usize) -> *mut u8 {
    let at: usize = (0..s).map(|i| 2 * site_len(i)).sum();
    // SAFETY: SCRATCH holds twice the room of every site, in their order.
    unsafe { (addr_of_mut!(SCRATCH) as *mut u8).add(at) }
}

/// The bytes patch() writes into site s, in SCRATCH.
///
/// # Safety
///
/// No other reference to them may be live.
unsafe fn code_of(s: usize) -> &'static mut [u8] {
    core::slice::from_raw_parts_mut(built_of(s).add(site_len(s)), site_len(s))
}

fn code_byte(at: usize) -> u8 {
    // SAFETY: the routines' code, which is mapped and readable.
    unsafe { read_volatile(at as *const u8) }
}

/// A jmp rel32 at code[0..5) that, run at from, goes to to. A jmp rel32
/// reaches 2 GiB either way, and the routines lie in one object.
fn put_jmp(code: &mut [u8], from: usize, to: usize) -> Result<(), Refused> {
    let rel = (to as u64).wrapping_sub(from as u64 + 5);
    if (rel.wrapping_add(0x8000_0000) >> 32) != 0 {
        return Err(Refused);
    }
    code[0] = 0xe9;
    code[1..5].copy_from_slice(&(rel as u32).to_le_bytes());
    Ok(())
}

/// Moves the jump whose rel32 ends at code[at] (code runs at site, copied
/// from routine) so that it reaches what it reached from routine: a jmp
/// rel32 or a jcc rel32 (0f 8x), nothing else.
fn move_jump(code: &mut [u8], at: usize, routine: usize, site: usize) -> Result<(), Refused> {
    if at < 5 || !(code[at - 5] == 0xe9 || (at >= 6 && code[at - 6] == 0x0f && (code[at - 5] & 0xf0) == 0x80)) {
        return Err(Refused);
    }
    let mut rel32 = [0u8; 4];
    rel32.copy_from_slice(&code[at - 4..at]);
    let rel = (i32::from_le_bytes(rel32) as i64 as u64).wrapping_add((routine as u64).wrapping_sub(site as u64));
    if (rel.wrapping_add(0x8000_0000) >> 32) != 0 {
        return Err(Refused);
    }
    code[at - 4..at].copy_from_slice(&(rel as u32).to_le_bytes());
    Ok(())
}

/// The bytes site s holds to run set, into code, and their length: the
/// built ones for set 0; where the set's routine has a copy (a compiled
/// table's), its dispatch, its jumps moved, then a jmp rel32 to the
/// routine's first copy body; else (the table dispatch) a jmp rel32 to the
/// routine.
fn site_code(set: usize, s: usize, code: &mut [u8]) -> Result<usize, Refused> {
    let (site, routine, len) = (site_of(s), routine_of(set, s), site_len(s));
    // SAFETY: data of copy.S, as long as its type says.
    let (from, end) = unsafe { (usize::from(SITE_OFFSET[s]), usize::from(COPY_END[set * N_PATCH_SITES + s])) };
    if set == 0 {
        // SAFETY: the bytes as built are written once, by patch(), before
        // this reads them.
        code[..len].copy_from_slice(unsafe { core::slice::from_raw_parts(built_of(s), len) });
        return Ok(len);
    }
    if end == 0 {
        put_jmp(code, site, routine)?;
        return Ok(5);
    }
    if end <= from || end - from + 5 > len {
        return Err(Refused);
    }
    // The copy starts as far into the routine as the site into its entry:
    // past the same endbr64, or both have none.
    // SAFETY: data of copy.S, as long as its type says.
    let entry = unsafe { ENTRIES[s] };
    if (0..from).any(|i| code_byte(routine + i) != code_byte(entry + i)) {
        return Err(Refused);
    }
    let n = end - from;
    for (i, byte) in code[..n].iter_mut().enumerate() {
        *byte = code_byte(routine + from + i);
    }
    // SAFETY: as above; COPY_JUMPS is as long as COPY_FIRST's last entry.
    let (first, last) = unsafe { (COPY_FIRST[set * N_PATCH_SITES + s], COPY_FIRST[set * N_PATCH_SITES + s + 1]) };
    for j in first..last {
        // SAFETY: as above.
        let at = usize::from(unsafe { read_volatile((addr_of!(COPY_JUMPS) as *const u16).add(usize::from(j))) });
        if at <= from || at > end {
            return Err(Refused);
        }
        move_jump(&mut code[..], at - from, routine + from, site)?;
    }
    put_jmp(&mut code[n..], site + n, routine + end)?;
    Ok(n + 5)
}

/// Makes every patched entry run the routines the installed rule chose,
/// writing with poke: for a measured table compiled, a copy of its
/// routine's dispatch into the entry (its jumps moved to reach the copy
/// bodies from there), so that a call takes no jump to reach the dispatch;
/// for the table dispatch, a jmp rel32 to it; for the baseline, the bytes
/// the entry was built with. While an entry changes, its first 5 bytes
/// jump to a routine of the rule, so poke may be the very memcpy it
/// patches. A kernel that never calls it runs the baseline. Err(Refused),
/// with nothing written, where poke is None, the patch list is not what
/// this crate expects, or a jump would not reach.
///
/// # Safety
///
/// poke must write the bytes over the code at addr. Call it after
/// [`install`](crate::install) or [`init`](crate::init), before other CPUs copy.
pub unsafe fn patch(poke: Option<TextPoke>) -> Result<(), Refused> {
    let poke = match poke {
        Some(poke) => poke,
        None => return Err(Refused), // a harness that set no poke: nothing can be written
    };
    if (0..N_PATCH_SITES).any(|s| site_len(s) < 5) {
        return Err(Refused);
    }
    if !BUILT_READ.load(Relaxed) {
        for s in 0..N_PATCH_SITES {
            for i in 0..site_len(s) {
                *built_of(s).add(i) = code_byte(site_of(s) + i);
            }
        }
        BUILT_READ.store(true, Relaxed);
    }
    let set = INSTALLED_SET.load(Relaxed);
    for s in 0..N_PATCH_SITES {
        site_code(set, s, code_of(s))?;
    }
    let via = if set != 0 { set } else { PATCHED_SET.load(Relaxed) };
    for s in 0..N_PATCH_SITES {
        let site = site_of(s);
        let code = code_of(s);
        let len = site_code(set, s, code)?;
        // A site that holds them already is left alone: tests install a
        // table before every point they check.
        if (0..len).all(|i| code_byte(site + i) == code[i]) {
            continue;
        }
        let mut jmp = [0u8; 5];
        if len == 5 || via == 0 || put_jmp(&mut jmp, site, routine_of(via, s)).is_err() {
            poke(site as *mut u8, &code[..len]);
            continue;
        }
        // More than a jmp: while the rest changes, the site's first bytes
        // jump to the routine of the set it will run (or ran), so that no
        // call runs a half-written site, the poke's own included.
        poke(site as *mut u8, &jmp);
        poke((site + 5) as *mut u8, &code[5..len]);
        poke(site as *mut u8, &code[..5]);
    }
    PATCHED_SET.store(set, Relaxed);
    Ok(())
}
@ end
