/* plot.h: the SVG chart writer of hpmctl record --plot. */
#ifndef HPMCTL_PLOT_H
#define HPMCTL_PLOT_H

#include <stddef.h>
#include <stdio.h>

struct plot {
	const char *title, *xlabel, *ylabel;
	size_t nseries, npoints;
	const char *const *names;   /* [nseries] */
	double x0;                  /* where the first interval starts */
	const double *x;            /* [npoints]: where interval i ends, ascending */
	const double *y;            /* [npoints][nseries]: value over interval i */
};

/* Writes the chart as one SVG document; -1 on a write error. */
int plot_svg(FILE *f, const struct plot *p);

#endif
