/* manpage.c - gmb(1), made from the subcommands' help table (gmb --man; make builds it). */
#include "gmb.h"
#include "opts.h"
#include "tools/help.h"

#include <string.h>

void gmb_cmd_man(FILE *f, char *const *benches, int nbenches)
{
    fprintf(f, ".TH GMB 1 \"\" \"gmb %s\" \"gmb manual\"\n.ad l\n.SH NAME\n", GMB_VERSION);
    fputs("gmb \\- GPU memory microbenchmarks: list, run, plot, tabulate, report and compare\n"
          ".SH SYNOPSIS\n.nf\n",
          f);
    for (const gmb_cmd_help_t *h = gmb_cmd_help; h->name; h++) {
        gmb_man_text(h->synopsis, f);
        fputc('\n', f);
    }
    fputs(".fi\n.SH DESCRIPTION\n"
          "gmb drives the benchmark programs installed beside it (gmb\\-NAME, one per "
          "measurement), runs them as a suite on one device, and reads their records (JSON "
          "and CSV) back to draw figures with gnuplot, print tables (Markdown, LaTeX, CSV), "
          "write a report and compare two runs. It never measures by itself: every number "
          "comes from a program's record.\n.SH COMMANDS\n",
          f);
    for (const gmb_cmd_help_t *h = gmb_cmd_help; h->name; h++) {
        fputs(".SS ", f);
        gmb_man_text(h->name, f);
        fputs("\n.nf\n", f);
        gmb_man_text(h->synopsis, f);
        fputs("\n.fi\n.PP\n", f);
        gmb_man_text(h->summary, f);
        fputc('\n', f);
        gmb_opt_man(h->opts, f);
    }
    fputs(".SH PROGRAMS\n", f);
    for (int i = 0; i < nbenches; i++) {
        fputs(".TP\n.BR gmb\\-", f);
        gmb_man_text(benches[i], f);
        fputs(" (1)\n", f);
        fputs("see its own page; gmb run ", f);
        gmb_man_text(benches[i], f);
        fputs(" \\-\\-help prints the same options.\n", f);
    }
    fputs(".SH ENVIRONMENT\n"
          ".TP\n.B GMB_PLOTS\nthe directory of the gnuplot scripts and run profiles "
          "(profiles.conf) [default beside the programs: ../plots, or "
          "PREFIX/share/gmb/plots once installed].\n"
          ".TP\n.B GMB_GNUPLOT\nthe gnuplot program gmb plot runs [default gnuplot].\n"
          ".PP\nThe programs' own variables are in their pages.\n"
          ".SH EXIT STATUS\n0 ok, 1 verification failed (or gmb compare \\-\\-fail\\-below "
          "found a regression), 2 usage error, 3 runtime error, 77 skipped (no usable device; "
          "the reason on standard error).\n"
          ".SH FILES\n.TP\n.I results/DEVICE/UTC/\na gmb run: run.json, each program's "
          "record (.json, .csv) and log, figures/, table.md, table.tex, table.csv, "
          "report.md.\n.SH SEE ALSO\n",
          f);
    for (int i = 0; i < nbenches; i++) {
        fputs(".BR gmb\\-", f);
        gmb_man_text(benches[i], f);
        fputs(i + 1 < nbenches ? " (1),\n" : " (1)\n", f);
    }
}
