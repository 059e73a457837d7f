/* Where a compiled routine lays out the copies its branch tree reaches,
 * and which of them a patched entry holds itself.
 *
 * A patched entry holds the routine's first bytes (rule_patch copies
 * them, from past its endbr64 to its mark copy_end): its tree, then, in
 * an entry that holds copies, the short copies (plan_inline), so that a call of
 * a few bytes runs the tree's compares and its moves with no jump out of
 * the entry, as the C library's memmove reaches them in two compares
 * (glibc 2.36's __memmove_avx512_unaligned_erms). A jump out of the entry
 * to a copy laid out far away costs a short copy a large share of its
 * time, enough for the probe's grid gate to refuse a table (measured: see
 * docs/notebook/measurements-2026-12.md#short-copies-held-in-the-entry).
 * The longer copies, whose time a jump does not show, stay behind rel32
 * jumps that rule_patch moves. A leaf past the tree's first whose copy is
 * one held here takes no jump even to it: its moves are laid out inside
 * the tree, after its compare (tree.h, falls), and the copy's body here
 * as well, for the tree's other leaves. */
#ifndef PLAN_LAYOUT_H
#define PLAN_LAYOUT_H

#include "tree.h"

/* 1 where the entry holds strategy's copy after its tree: a copy of
 * bounded length (max_n set) that loads everything before it stores
 * (DIR_ANY), so that memmove takes no overlap compares before it and its
 * body, having no jump out of itself and no address of its own, runs
 * wherever it is copied. */
int plan_inline(int strategy);

/* The copies tree reaches, in the order the routine lays them out, into
 * order (room for N_COPY_STRATEGIES); how many. The inline ones first,
 * then the others, each group in code order, except that the copy the
 * tree's last step goes to (at its start) leads its group: with no
 * compare after it, that jump is left out and the tree falls through to
 * it, where it leads the layout. */
int plan_layout(const struct plan_tree *tree, int *order);

/* 1 where the tree falls through to copy first, the one laid out right
 * after it: its last step jumps to first's start, and that jump is left
 * out. The one rule for the encoder (encode.c), the templates (the
 * field falls_through of a routine set, gen/render/bind_plan.c) and
 * plan_layout, which lays such a copy out first. */
int plan_falls_through(const struct plan_tree *tree, int first);

/* The copies an entry that holds copies holds after tree: a bit (1 <<
 * strategy) for each of order[0..n) (plan_layout's, the copies the flavor
 * offers) that plan_inline takes, which plan_layout lays out first. */
unsigned int plan_held(const int *order, int n);

/* 1 where step i of tree is a jump to a copy that an entry holding the
 * copies of held (plan_held's, 0 for one that holds none) leaves as a
 * rel32 jump out of itself, which rule_patch moves to reach the copy from
 * the entry: a jump to a copy not held, and not the last step left out
 * because the tree falls through to the copy after it (falls_through,
 * plan_falls_through's). */
int plan_moved(const struct plan_tree *tree, int i, unsigned int held, int falls_through);

/* 1 where step i of tree is a goto (tree.h, falls) whose copy's moves an
 * entry holding held lays out right there, instead of the jump. */
int plan_falls_here(const struct plan_tree *tree, int i, unsigned int held);

#endif
