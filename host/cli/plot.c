/* A small SVG line chart of interval series (hpmctl record --plot): one step
 * line per series over a shared x axis, axes with round ticks, a legend. */
#include <math.h>
#include <string.h>
#include "plot.h"

#define W 960
#define H_MIN 480
#define LEFT 70
#define RIGHT 240          /* room for the legend */
#define TOP 44
#define BOTTOM 56
#define INSET 4            /* lines at 0 and at the top stay off the frame */

/* 10 colours x 4 dash patterns: 40 series tell apart (31 events and more) */
static const char *const colors[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
static const char *const dashes[] = { NULL, "6,3", "2,2", "8,3,2,3" };
#define NCOLORS (sizeof colors / sizeof colors[0])
#define NDASHES (sizeof dashes / sizeof dashes[0])

static void stroke_style(FILE *f, size_t s)
{
	const char *dash = dashes[s / NCOLORS % NDASHES];
	fprintf(f, "stroke=\"%s\"", colors[s % NCOLORS]);
	if (dash)
		fprintf(f, " stroke-dasharray=\"%s\"", dash);
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:  fputc(*s, f);
		}
	}
}

/* A round step (1, 2 or 5 x 10^k) giving about `target` ticks over range. */
static double nice_step(double range, int target)
{
	double raw = range / target, mag = pow(10, floor(log10(raw))), f = raw / mag;
	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

/* 1500000 -> "1.5M", 250 -> "250", 0.25 -> "0.25" */
static void tick_label(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (a >= 1e9)
		snprintf(buf, len, "%gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
}

int plot_svg(FILE *f, const struct plot *p)
{
	double xmin = p->x0, xmax = p->x0, ymax = 0;
	for (size_t i = 0; i < p->npoints; i++) {
		xmax = p->x[i] > xmax ? p->x[i] : xmax;
		for (size_t s = 0; s < p->nseries; s++)
			ymax = p->y[i * p->nseries + s] > ymax ? p->y[i * p->nseries + s] : ymax;
	}
	if (xmax <= xmin)
		xmax = xmin + 1;
	double ystep = nice_step(ymax > 0 ? ymax : 1, 5);
	double ytop = ceil((ymax > 0 ? ymax : 1) / ystep) * ystep;
	double xstep = nice_step(xmax - xmin, 8);
	/* the legend keeps one row per series: a taller chart for many */
	int row = p->nseries > 16 ? 16 : 20;
	int H = TOP + BOTTOM + 10 + row * (int)p->nseries;
	if (H < H_MIN)
		H = H_MIN;
	double pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
#define PX(v) (LEFT + ((v) - xmin) / (xmax - xmin) * pw)
#define PY(v) (TOP + ph - INSET - (v) / ytop * (ph - 2 * INSET))

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H, W, H, W, H);
	fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"15\">", LEFT);
	xml_text(f, p->title);
	fputs("</text>\n", f);

	/* grid, ticks and their labels */
	char lab[32];
	for (double y = 0; y <= ytop + ystep / 2; y += ystep) {
		tick_label(y, lab, sizeof lab);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			LEFT, PY(y), LEFT + pw, PY(y), LEFT - 6, PY(y) + 4, lab);
	}
	for (double x = ceil(xmin / xstep) * xstep; x <= xmax + xstep / 1e6; x += xstep) {
		tick_label(x, lab, sizeof lab);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			PX(x), TOP, PX(x), TOP + ph, PX(x), TOP + ph + 18, lab);
	}
	/* the frame is drawn first and grey, so a series along it shows */
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#999\"/>\n",
		LEFT, TOP, pw, ph);
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", LEFT + pw / 2, H - 12);
	xml_text(f, p->xlabel);
	fprintf(f, "</text>\n<text transform=\"translate(18,%.1f) rotate(-90)\" text-anchor=\"middle\">",
		TOP + ph / 2);
	xml_text(f, p->ylabel);
	fputs("</text>\n", f);

	/* one step line per series: each interval is a horizontal segment */
	for (size_t s = 0; s < p->nseries; s++) {
		fputs("<path fill=\"none\" ", f);
		stroke_style(f, s);
		fputs(" stroke-width=\"1.5\" d=\"", f);
		for (size_t i = 0; i < p->npoints; i++) {
			double y = PY(p->y[i * p->nseries + s]);
			if (i)
				fprintf(f, "V%.2f", y);
			else
				fprintf(f, "M%.2f,%.2f", PX(xmin), y);
			fprintf(f, "H%.2f", PX(p->x[i]));
		}
		fputs("\"/>\n", f);
		double ly = TOP + 10 + (double)row * (double)s;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ", LEFT + pw + 14, ly,
			LEFT + pw + 44, ly);
		stroke_style(f, s);
		fprintf(f, " stroke-width=\"3\"/><text x=\"%.1f\" y=\"%.1f\">", LEFT + pw + 50, ly + 4);
		xml_text(f, p->names[s]);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
#undef PX
#undef PY
	return ferror(f) ? -1 : 0;
}
