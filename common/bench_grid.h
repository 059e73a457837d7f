/* make bench's grid (bench/grid.c), which the probe's grid gate times too
 * (probe/grid_gate.c, which adds every band's own points): 8 B to 8 MiB,
 * the probe's longest length, past the caches, where streaming stores may
 * win, no gap wider than a factor of four; at the probe's sparse distances
 * (probe/measure.c says why 2061). */
#ifndef COMMON_BENCH_GRID_H
#define COMMON_BENCH_GRID_H

#include <stddef.h>

__attribute__((unused)) static const size_t bench_grid_lengths[] = {
	8, 16, 32, 64, 128, 256, 512, 1024, 2048, 3072, 4096, 16384, 65536, 262144, 1048576, 2097152, 4194304, 8388608};
/* The grid's length count before 512, 2048, 3072, 2 MiB and 4 MiB joined
 * it: what an archive of a probe before GATE_BANDS_VERSION was gated on. */
#define BENCH_GRID_LENGTHS_BEFORE_BANDS 13
__attribute__((unused)) static const unsigned int bench_grid_distances[] = {0, 1, 16, 31, 32, 33, 63, 64, 65, 2061,
									   4064, 4088, 4095};
#define BENCH_GRID_LENGTHS (sizeof bench_grid_lengths / sizeof *bench_grid_lengths)
#define BENCH_GRID_DISTANCES (sizeof bench_grid_distances / sizeof *bench_grid_distances)

#endif
