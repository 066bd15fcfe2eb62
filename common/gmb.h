/* gmb.h - shared definitions of libgmb: error codes, logging, small helpers. */
#ifndef GMB_H
#define GMB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GMB_VERSION "0.1.0"

/* Error codes returned by every libgmb function; a program exits with -code. */
#define GMB_OK       0
#define GMB_EVERIFY  (-1)   /* a kernel produced a wrong result (exit 1) */
#define GMB_EUSAGE   (-2)   /* bad option, size, device index ... (exit 2) */
#define GMB_ERUNTIME (-3)   /* vendor API or system failure (exit 3) */
#define GMB_ESKIP    (-77)  /* no usable device or capability (exit 77) */
#define GMB_EINTR    (-128) /* stopped by SIGINT/SIGTERM/SIGHUP (exit 128 + the signal's number) */

/* Exit status for an error code (0, 1, 2, 3, 77, or 128 + signal for GMB_EINTR). */
int gmb_exit_code(int err);

/* Stop on SIGINT/SIGTERM/SIGHUP between samples: gmb_catch_stop() installs handlers that
 * only note the signal (a second one acts as usual, but the same signal again within
 * GMB_STOP_SAME_MS is taken as the first delivered twice: to the process group and passed on
 * by gmb run); gmb_stop_signal() is the signal noted, or 0. */
#define GMB_STOP_SAME_MS 500
extern const int gmb_stop_signals[]; /* SIGINT, SIGTERM, SIGHUP (gmb run's too) */
#define GMB_NSTOP_SIGNALS 3
void gmb_catch_stop(void);
int gmb_stop_signal(void);
/* "SIGINT", "SIGTERM", "SIGHUP" ... as a record names it ("signal" for another). */
const char *gmb_signal_name(int sig);

/* Standard output checked at exit: gmb_stdout_init() (first thing in main) puts a closed one
 * back as one that fails every write, and notes why a write failed; gmb_stdout_done(rc) flushes
 * it and, when a write failed, says "cannot write to standard output: <reason>" and returns 3
 * (rc when rc is already an error; quietly 141, or rc, when the reader closed a pipe). */
void gmb_stdout_init(void);
int gmb_stdout_done(int rc);

/* Name of the running program, used as the prefix of every message. */
extern const char *gmb_progname;

/* Print "prog: error: <msg>" on stderr (one line). */
void gmb_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "prog: skipped: <msg>" on stderr (one line). */
void gmb_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "prog: <msg>" on stderr unless quiet. */
void gmb_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "prog: warning: <msg>" on stderr. */
void gmb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 to silence gmb_info(). */
extern int gmb_quiet;

/* Check a condition; on failure log file:line and return err from the caller. */
#define GMB_CHECK(cond, err, ...)                                                                  \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            gmb_error(__VA_ARGS__);                                                                \
            return (err);                                                                          \
        }                                                                                          \
    } while (0)

/* Monotonic wall clock in nanoseconds. */
double gmb_now_ns(void);

/* Format a byte count with a binary suffix ("4 KiB", "1.5 GiB") into buf; returns buf. */
char *gmb_fmt_size(uint64_t bytes, char *buf, size_t len);
/* Format a number with 4 significant digits, no exponent ("3912", "180.6", "0.01940"). */
void gmb_fmt_num(double v, char *buf, size_t len);

/* Copy src into dst of size len, always NUL-terminated. */
void gmb_strlcpy(char *dst, const char *src, size_t len);
/* qsort comparator of C strings (an array of char *), ascending. */
int gmb_cmp_str(const void *a, const void *b);

/* A paragraph built piece by piece (summaries); what does not fit is cut, at a character's
 * start, and ends in "…" (a GPU chase of every space and page size may need 4-5 KiB). */
typedef struct gmb_text {
    char text[16384]; /* the paragraph, NUL-terminated UTF-8 */
    size_t len;       /* its length */
} gmb_text_t;
/* Append printf-formatted text. */
void gmb_text_add(gmb_text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif
#endif
