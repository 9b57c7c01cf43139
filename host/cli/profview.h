/* profview.h: views of a prof.data profile shared by report, script and
 * annotate (profile.c, views.c, script.c) and its perf.data export
 * (perfdata.c). */
#ifndef PROFVIEW_H
#define PROFVIEW_H

#include <stdio.h>
#include "hpm.h"

/* The profile and its program, if that is the ELF that ran: else *p is
 * NULL after one line that says why (frames are then shown by address). */
int load_profile(const char *cmd, const char *name, hpm_profdata **d, hpm_program **p,
		 const char **elf_state);

/* perf.data of d (d->program's executable segments mapped), written whole
 * (write_whole). 0, or -1 with a one-line reason in err. */
int perf_data_write(const hpm_profdata *d, const char *path, char *err, size_t errlen);
/* n bytes to path through path.tmp.PID and a rename, a second Ctrl-C held
 * off meanwhile. 0, or -1 with the reason in err. */
int write_whole(const char *path, const void *p, size_t n, char *err, size_t errlen);

/* --time: the samples whose board time lies in [lo, hi] cycles */
struct time_range {
	int set;
	uint64_t lo, hi;
};
/* perf's --time: "START,END" in seconds of board time (either may be
 * empty), or "P%-Q%" of the run. EXIT_USAGE (malformed), EXIT_FAIL (the
 * profile has no sample times) after one line, or 0. */
int time_range_parse(const char *cmd, const char *arg, const hpm_profdata *d, struct time_range *t);
int time_range_has(const struct time_range *t, const hpm_prof_sample *s);

/* Sample s's frames: the pc, then its callers' return addresses. */
unsigned sample_frames(const hpm_prof_sample *s, uint32_t *f);
/* The name of the function at addr ("0x80000124" without a symbol);
 * *off gets addr's offset in it. */
const char *frame_name(const hpm_program *p, uint32_t addr, char *buf, size_t len, uint32_t *off);
int profile_has_stacks(const hpm_profdata *d);

/* report's views of sampled event ev (the samples in t):
 * folded stacks ("main;outer;inner 12", outermost first), the table with
 * Children and Self columns, the call graph under each row */
struct report_opts {
	int by_pc, children, graph, show_nr;
	double limit;
	struct time_range time;
};
int report_folded(const hpm_profdata *d, const hpm_program *p, size_t ev, const struct report_opts *o);
int report_table(const hpm_profdata *d, const hpm_program *p, size_t ev, const struct report_opts *o);

#endif
