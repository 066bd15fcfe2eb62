/* runreport.h - the Markdown report of a run directory (runreport.c). */
#ifndef GMB_TOOLS_RUNREPORT_H
#define GMB_TOOLS_RUNREPORT_H

#include <stdio.h>

/* Write the Markdown report of run directory dir (its run.json and records) to f: device and
 * host, each program's status and summary, the table, the figures under dir/figures, linked
 * as figs/NAME.png (figs: "figures" for a page in dir, else a path to them). 0, GMB_EUSAGE
 * (no gmb-run manifest: one line said) or GMB_ERUNTIME (a write failed). */
int gmb_run_report(const char *dir, const char *figs, FILE *f);

#endif
