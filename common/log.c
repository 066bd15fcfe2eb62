/* log.c - messages on stderr, exit codes, clocks and small string helpers. */
#include "gmb.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *gmb_progname = "gmb";
int gmb_quiet = 0;

const int gmb_stop_signals[GMB_NSTOP_SIGNALS] = {SIGINT, SIGTERM, SIGHUP};

static volatile sig_atomic_t stop_sig;
static volatile long stop_ms; /* when it came (CLOCK_MONOTONIC, ms) */

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void on_stop(int sig)
{
    long t = now_ms();
    if (!stop_sig) {
        stop_ms = t;
        stop_sig = sig;
        return;
    }
    /* the same signal again within GMB_STOP_SAME_MS is the one that came, twice: a terminal's
     * Ctrl-C or hangup reaches the whole process group, and gmb run passes it on as well */
    if (sig == stop_sig && t - stop_ms < GMB_STOP_SAME_MS)
        return;
    signal(sig, SIG_DFL); /* a second one: stop at once, as without a handler */
    raise(sig);
}

void gmb_catch_stop(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sa.sa_flags = SA_RESTART; /* calls go on; a second signal stops at once (on_stop) */
    sigfillset(&sa.sa_mask);  /* one handler at a time */
    for (int i = 0; i < GMB_NSTOP_SIGNALS; i++)
        sigaction(gmb_stop_signals[i], &sa, NULL);
}

const char *gmb_signal_name(int sig)
{
    switch (sig) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    case SIGHUP:
        return "SIGHUP";
    case SIGQUIT:
        return "SIGQUIT";
    case SIGKILL:
        return "SIGKILL";
    case SIGPIPE:
        return "SIGPIPE";
    default:
        return "signal";
    }
}

int gmb_stop_signal(void)
{
    return stop_sig;
}

int gmb_exit_code(int err)
{
    switch (err) {
    case GMB_OK:
        return 0;
    case GMB_EVERIFY:
        return 1;
    case GMB_EUSAGE:
        return 2;
    case GMB_ESKIP:
        return 77;
    case GMB_EINTR:
        return 128 + (gmb_stop_signal() ? gmb_stop_signal() : 2);
    default:
        return 3;
    }
}

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
    char line[2048];
    vsnprintf(line, sizeof line, fmt, ap);
    /* one line: fold any newline a vendor message carried */
    for (char *p = line; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    fprintf(stderr, "%s: %s%s\n", gmb_progname, kind, line);
}

void gmb_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("error: ", fmt, ap);
    va_end(ap);
}

void gmb_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("skipped: ", fmt, ap);
    va_end(ap);
}

void gmb_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("warning: ", fmt, ap);
    va_end(ap);
}

void gmb_info(const char *fmt, ...)
{
    if (gmb_quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg("", fmt, ap);
    va_end(ap);
}

double gmb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

char *gmb_fmt_size(uint64_t bytes, char *buf, size_t len)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    double v = (double)bytes;
    while (v >= 1024.0 && u < 5) {
        v /= 1024.0;
        u++;
    }
    if (v == (double)(uint64_t)v)
        snprintf(buf, len, "%llu %s", (unsigned long long)v, unit[u]);
    else
        snprintf(buf, len, "%.3g %s", v, unit[u]);
    return buf;
}

int gmb_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void gmb_strlcpy(char *dst, const char *src, size_t len)
{
    if (!len)
        return;
    size_t n = src ? strlen(src) : 0;
    if (n >= len)
        n = len - 1;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

void gmb_text_add(gmb_text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (t->len < sizeof t->text) {
        int w = vsnprintf(t->text + t->len, sizeof t->text - t->len, fmt, ap);
        if (w > 0)
            t->len += (size_t)w;
    }
    va_end(ap);
    if (t->len >= sizeof t->text) { /* cut: end in an ellipsis, never inside a character */
        static const char ell[] = "\xe2\x80\xa6"; /* U+2026 */
        size_t p = sizeof t->text - sizeof ell;
        while (p > 0 && ((unsigned char)t->text[p] & 0xC0) == 0x80)
            p--;
        memset(t->text + p, 0, sizeof t->text - p);
        memcpy(t->text + p, ell, sizeof ell);
        t->len = sizeof t->text - 1; /* full (the bytes after the ellipsis are NULs): later
                                      * pieces are dropped */
    }
}

/* ---- standard output: a write that failed is an error at exit ---------------------------- */

static int stdout_errno; /* why a write to standard output failed first, or 0 */

static ssize_t stdout_write(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(STDOUT_FILENO, buf + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!stdout_errno)
                stdout_errno = w < 0 ? errno : EIO;
            errno = stdout_errno;
            return -1;
        }
        off += (size_t)w;
    }
    return (ssize_t)n;
}

void gmb_stdout_init(void)
{
    /* a closed standard output (>&-): /dev/null read-only in its place, so that no file
     * opened later becomes descriptor 1 and takes the output, and a write fails (EBADF) */
    if (fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF) {
        int fd = open("/dev/null", O_RDONLY);
        if (fd >= 0 && fd != STDOUT_FILENO) {
            dup2(fd, STDOUT_FILENO);
            close(fd);
        }
    }
    /* stdout through a stream that keeps why its first write failed (stdio forgets it once a
     * line-buffered write fails) */
    cookie_io_functions_t io = {.write = stdout_write};
    FILE *f = fopencookie(NULL, "w", io);
    if (!f)
        return;
    fflush(stdout);
    setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, 0);
    stdout = f;
}

int gmb_stdout_done(int rc)
{
    int bad = fflush(stdout) != 0 || ferror(stdout);
    if (!bad)
        return rc;
    int e = stdout_errno ? stdout_errno : errno ? errno : EIO;
    if (e == EPIPE) /* the reader is gone (| head): quiet, as SIGPIPE would end it */
        return rc ? rc : 128 + SIGPIPE;
    gmb_error("cannot write to standard output: %s", strerror(e));
    return rc ? rc : 3;
}

void gmb_fmt_num(double v, char *buf, size_t len)
{
    if (v != v || isinf(v)) { /* (int)log10(inf) would not fit */
        snprintf(buf, len, "%s", v != v ? "nan" : v > 0 ? "inf" : "-inf");
        return;
    }
    double a = fabs(v);
    int dec = a > 0 ? 3 - (int)floor(log10(a)) : 0;
    if (dec < 0)
        dec = 0;
    if (dec > 6)
        dec = 6;
    snprintf(buf, len, "%.*f", dec, v);
    if (!strcmp(buf, "-0") || !strncmp(buf, "-0.000000", 10))
        snprintf(buf, len, "%.*f", dec, 0.0);
}
