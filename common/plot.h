/* gnuplot, as the probe's evidence and the bench both draw with it. */
#ifndef UARCHGEN_PLOT_H
#define UARCHGEN_PLOT_H

/* 1 when gnuplot is on PATH: asked before a long measurement rather than
 * after it, when the plot is due. */
int plot_available(void);

/* "set xtics (...)" for a length axis on a log2 scale: 1, 4, 16, ... 64 MiB,
 * labelled 1 KiB and 1 MiB rather than 1024 and 1.04858e+06. */
extern const char plot_length_xtics[];

/* Writes DIR/SCRIPT (a pngcairo terminal of width x height drawing to PNG,
 * twelve distinct line colours, then body) and runs gnuplot on it in DIR. gnuplot draws into a temporary
 * file that becomes DIR/PNG only when it succeeds, so a failed or killed run
 * leaves no half-drawn image. `gnuplot SCRIPT` run by hand in DIR draws PNG
 * again. Nonzero after printing why, after "who: ". */
int plot_png(const char *who, const char *dir, const char *script, const char *png, int width, int height,
	     const char *body);

#endif
