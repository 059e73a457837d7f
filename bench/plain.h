/* The probe's timer checked against a plain loop: at 1 to 8 KiB, where
 * time_copy cuts how many lanes it rotates over, each of a few copies
 * timed by time_copy and by one copy called over and over on two buffers
 * far apart, in turns, on one CPU. It reports; it fails nothing. */
#ifndef BENCH_PLAIN_H
#define BENCH_PLAIN_H

/* Prints the section, a row per copy and length and a closing count of the
 * points where the two agree within 10%. arena is time_copy's
 * (TIMING_ARENA bytes); samples, as for the grid. */
void plain_harness(unsigned char *arena, int samples);

#endif
