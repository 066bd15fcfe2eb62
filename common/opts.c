/* opts.c - strict parsing of numbers, sizes, sweeps and lists, driven by option tables. */
#include "opts.h"
#include "gmb.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int gmb_parse_long(const char *s, long *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return GMB_EUSAGE;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end)
        return GMB_EUSAGE;
    *out = v;
    return GMB_OK;
}

int gmb_parse_double(const char *s, double *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return GMB_EUSAGE;
    /* decimal only: strtod would also take hex (0x10), inf and nan */
    if (s[strspn(s, "0123456789+-.eE")])
        return GMB_EUSAGE;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v))
        return GMB_EUSAGE;
    *out = v;
    return GMB_OK;
}

/* Multiplier of a size suffix, 0 when unknown. */
static double size_unit(const char *u)
{
    static const struct {
        const char *s;
        double m;
    } units[] = {
        {"", 1.0},     {"B", 1.0},      {"K", 0x1p10},   {"KiB", 0x1p10}, {"KB", 1e3},
        {"M", 0x1p20}, {"MiB", 0x1p20}, {"MB", 1e6},     {"G", 0x1p30},   {"GiB", 0x1p30},
        {"GB", 1e9},   {"T", 0x1p40},   {"TiB", 0x1p40}, {"TB", 1e12},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcasecmp(u, units[i].s))
            return units[i].m;
    return 0.0;
}

int gmb_parse_size(const char *s, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return GMB_EUSAGE;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || !isfinite(v) || end == s)
        return GMB_EUSAGE;
    /* reject hex floats and exponents: sizes are plain decimals */
    int frac = 0;
    for (const char *p = s; p < end; p++) {
        if (!isdigit((unsigned char)*p) && *p != '.')
            return GMB_EUSAGE;
        frac |= *p == '.';
    }
    double m = size_unit(end);
    if (m == 0.0)
        return GMB_EUSAGE;
    if (!frac) { /* whole numbers exactly, also above 2^53 */
        unsigned long long n = strtoull(s, NULL, 10), um = (unsigned long long)m;
        if (errno || !n || n > ((1ULL << 63) - 1) / um)
            return GMB_EUSAGE;
        *out = n * um;
        return GMB_OK;
    }
    double b = v * m;
    if (b < 1.0 || b >= 0x1p53 || b != floor(b))
        return GMB_EUSAGE;
    *out = (uint64_t)b;
    return GMB_OK;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int sweep_add(gmb_sweep_t *sw, uint64_t v, char *err, size_t errlen)
{
    if (sw->n >= GMB_MAX_SWEEP) {
        snprintf(err, errlen, "more than %d points in the sweep", GMB_MAX_SWEEP);
        return GMB_EUSAGE;
    }
    sw->v[sw->n++] = v;
    return GMB_OK;
}

/* Parse one item of a sweep: a size or a range. */
static int sweep_item(char *item, gmb_sweep_t *sw, char *err, size_t errlen)
{
    char *f[3] = {item, NULL, NULL};
    int nf = 1;
    for (char *p = item; *p; p++)
        if (*p == ':') {
            if (nf == 3) {
                snprintf(err, errlen, "'%s': a range is FROM:TO[:STEP]", item);
                return GMB_EUSAGE;
            }
            *p = '\0';
            f[nf++] = p + 1;
        }
    uint64_t lo, hi;
    if (gmb_parse_size(f[0], &lo)) {
        snprintf(err, errlen, "'%s' is not a size (> 0, e.g. 4096, 4KiB, 2GiB)", f[0]);
        return GMB_EUSAGE;
    }
    if (nf == 1)
        return sweep_add(sw, lo, err, errlen);
    if (gmb_parse_size(f[1], &hi)) {
        snprintf(err, errlen, "'%s' is not a size (> 0, e.g. 4096, 4KiB, 2GiB)", f[1]);
        return GMB_EUSAGE;
    }
    if (hi < lo) {
        snprintf(err, errlen, "range %s:%s ends below its start", f[0], f[1]);
        return GMB_EUSAGE;
    }
    const char *st = nf == 3 ? f[2] : "x2";
    if (st[0] == 'x') {
        double fac;
        if (gmb_parse_double(st + 1, &fac) || fac <= 1.0 || fac > 1024.0) {
            snprintf(err, errlen, "step '%s': xF needs 1 < F <= 1024", st);
            return GMB_EUSAGE;
        }
        /* F so near 1 that the loop would repeat the same sizes for ages (x1.000000000000001) */
        if (log((double)hi / (double)lo) / log(fac) > 1e8) {
            snprintf(err, errlen, "step '%s': F too close to 1 for %s:%s (over 1e8 steps)", st,
                     f[0], f[1]);
            return GMB_EUSAGE;
        }
        double prev = 0;
        for (double v = (double)lo; v <= (double)hi * (1 + 1e-12); v *= fac) {
            uint64_t r = (uint64_t)llround(v);
            if ((double)r != prev && sweep_add(sw, r > hi ? hi : r, err, errlen))
                return GMB_EUSAGE;
            prev = (double)r;
        }
    } else if (st[0] == '+') {
        uint64_t inc;
        if (gmb_parse_size(st + 1, &inc)) {
            snprintf(err, errlen, "step '%s': +S needs a size > 0", st);
            return GMB_EUSAGE;
        }
        if ((hi - lo) / inc >= GMB_MAX_SWEEP) {
            snprintf(err, errlen, "more than %d points in the sweep", GMB_MAX_SWEEP);
            return GMB_EUSAGE;
        }
        for (uint64_t v = lo; v <= hi; v += inc) {
            if (sweep_add(sw, v, err, errlen))
                return GMB_EUSAGE;
            if (v > UINT64_MAX - inc)
                break;
        }
    } else {
        long per;
        char *slash = strchr(st, '/');
        char num[32];
        if (!slash || strcmp(slash, "/oct") || (size_t)(slash - st) >= sizeof num) {
            snprintf(err, errlen, "step '%s': use xF, +SIZE or N/oct", st);
            return GMB_EUSAGE;
        }
        memcpy(num, st, (size_t)(slash - st));
        num[slash - st] = '\0';
        if (gmb_parse_long(num, &per) || per < 1 || per > 64) {
            snprintf(err, errlen, "step '%s': N/oct needs 1 <= N <= 64", st);
            return GMB_EUSAGE;
        }
        double fac = pow(2.0, 1.0 / (double)per);
        for (long k = 0;; k++) {
            double v = (double)lo * pow(fac, (double)k);
            if (v > (double)hi * (1 + 1e-12))
                break;
            uint64_t r = (uint64_t)llround(v);
            if (r > hi)
                r = hi;
            if (k && sw->n && sw->v[sw->n - 1] == r)
                continue; /* small sizes round to the same byte count */
            if (sweep_add(sw, r, err, errlen))
                return GMB_EUSAGE;
        }
    }
    return GMB_OK;
}

/* 1 when a comma list has an empty item (",a", "a,,b", "a,"). */
static int has_empty_item(const char *s)
{
    size_t l = strlen(s);
    return s[0] == ',' || (l && s[l - 1] == ',') || strstr(s, ",,") != NULL;
}

int gmb_parse_sweep(const char *s, gmb_sweep_t *out, char *err, size_t errlen)
{
    if (!s || !*s) {
        snprintf(err, errlen, "empty size list");
        return GMB_EUSAGE;
    }
    char *dup = strdup(s);
    if (!dup) {
        snprintf(err, errlen, "out of memory");
        return GMB_EUSAGE;
    }
    out->n = 0;
    int rc = GMB_OK;
    if (has_empty_item(s)) {
        snprintf(err, errlen, "'%s': empty item", s);
        rc = GMB_EUSAGE;
    }
    char *save = NULL;
    for (char *it = strtok_r(dup, ",", &save); it && !rc; it = strtok_r(NULL, ",", &save))
        rc = sweep_item(it, out, err, errlen);
    free(dup);
    if (rc)
        return rc;
    if (!out->n) {
        snprintf(err, errlen, "'%s' holds no size", s);
        return GMB_EUSAGE;
    }
    qsort(out->v, out->n, sizeof out->v[0], cmp_u64);
    size_t k = 1;
    for (size_t i = 1; i < out->n; i++)
        if (out->v[i] != out->v[k - 1])
            out->v[k++] = out->v[i];
    out->n = k;
    out->set = 1;
    return GMB_OK;
}

static int find_choice(const char *const *choices, const char *s)
{
    for (int i = 0; choices[i]; i++)
        if (!strcmp(choices[i], s))
            return i;
    return -1;
}

static void choices_text(const char *const *choices, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int i = 0; choices && choices[i]; i++) {
        size_t l = strlen(buf);
        snprintf(buf + l, len - l, "%s%s", i ? "|" : "", choices[i]);
    }
}

int gmb_parse_list(const char *s, const char *const *choices, gmb_list_t *out, char *err,
                   size_t errlen)
{
    char ch[512];
    choices_text(choices, ch, sizeof ch);
    out->n = 0;
    if (!s || !*s) {
        snprintf(err, errlen, "empty list (choose from %s)", ch);
        return GMB_EUSAGE;
    }
    if (!strcmp(s, "all")) {
        for (int i = 0; i < GMB_MAX_LIST && choices[i]; i++)
            out->idx[out->n++] = i;
        return GMB_OK;
    }
    char *dup = strdup(s), *save = NULL;
    if (!dup)
        return GMB_EUSAGE;
    int rc = GMB_OK;
    for (char *it = strtok_r(dup, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
        int k = find_choice(choices, it);
        if (k < 0) {
            snprintf(err, errlen, "unknown item '%s' (choose from %s or all)", it, ch);
            rc = GMB_EUSAGE;
            break;
        }
        int dupl = 0;
        for (size_t j = 0; j < out->n; j++)
            dupl |= out->idx[j] == k;
        if (!dupl && out->n < GMB_MAX_LIST)
            out->idx[out->n++] = k;
    }
    free(dup);
    if (!rc && (!out->n || has_empty_item(s))) {
        snprintf(err, errlen, "'%s': empty item (choose from %s)", s, ch);
        rc = GMB_EUSAGE;
    }
    return rc;
}

/* Add x to out unless it is there; 0, or GMB_EUSAGE when out is full. */
static int ints_add(gmb_ints_t *out, long x)
{
    for (size_t j = 0; j < out->n; j++)
        if (out->v[j] == x)
            return GMB_OK;
    if (out->n == GMB_MAX_INTS)
        return GMB_EUSAGE;
    out->v[out->n++] = x;
    return GMB_OK;
}

int gmb_parse_ints(const char *s, double min, double max, const char *const *words, gmb_ints_t *out,
                   char *err, size_t errlen)
{
    out->n = 0;
    if (!s || !*s || has_empty_item(s)) {
        snprintf(err, errlen, "'%s': empty item", s ? s : "");
        return GMB_EUSAGE;
    }
    char *dup = strdup(s), *save = NULL;
    if (!dup) {
        snprintf(err, errlen, "out of memory");
        return GMB_EUSAGE;
    }
    int rc = GMB_OK;
    for (char *it = strtok_r(dup, ",", &save); it && !rc; it = strtok_r(NULL, ",", &save)) {
        int w = words ? find_choice(words, it) : -1;
        if (w >= 0) {
            rc = ints_add(out, GMB_INTS_WORD(w));
            continue;
        }
        long v[3] = {0, 0, 1};
        int k = 0;
        char item[96], *part = it, *colon;
        snprintf(item, sizeof item, "%s", it); /* (it is cut at its colons below) */
        do {                                   /* N, A:B or A:B:STEP */
            colon = strchr(part, ':');
            if (colon)
                *colon = '\0';
            if (k == 3 || gmb_parse_long(part, &v[k])) {
                k = -1;
                break;
            }
            k++;
            part = colon ? colon + 1 : NULL;
        } while (part);
        if (k < 0) {
            char ch[512] = "";
            if (words)
                choices_text(words, ch, sizeof ch);
            snprintf(err, errlen, "'%s' is not an integer, a range A:B or A:B:STEP%s%s", item,
                     words ? " or one of " : "", ch);
            rc = GMB_EUSAGE;
            break;
        }
        if (k == 1)
            v[1] = v[0];
        if (v[0] > v[1] || v[2] < 1) {
            snprintf(err, errlen, "'%s': a range needs A <= B and STEP >= 1", item);
            rc = GMB_EUSAGE;
            break;
        }
        if ((double)v[0] < min || (double)v[1] > max) {
            if ((double)v[0] < min)
                snprintf(err, errlen, "'%s' is below %.17g", item, min);
            else
                snprintf(err, errlen, "'%s' is above %.17g", item, max);
            rc = GMB_EUSAGE;
            break;
        }
        for (long x = v[0]; !rc; x += v[2]) { /* no overflow: stop before passing B */
            rc = ints_add(out, x);
            if (v[1] - x < v[2])
                break;
        }
        if (rc)
            snprintf(err, errlen, "more than %d values", GMB_MAX_INTS);
    }
    free(dup);
    return rc;
}

int gmb_opt_apply(const gmb_opt_t *o, const char *arg, void *cfg, char *err, size_t errlen)
{
    char *dst = (char *)cfg + o->offset;
    int ranged = o->min <= o->max;
    switch (o->type) {
    case GMB_OPT_FLAG: /* a flag's default must be NULL: present means 1 */
        *(int *)dst = 1;
        return GMB_OK;
    case GMB_OPT_INT: {
        long v;
        if (gmb_parse_long(arg, &v)) {
            snprintf(err, errlen, "--%s: '%s' is not an integer", o->name, arg);
            return GMB_EUSAGE;
        }
        if (ranged && ((double)v < o->min || (double)v > o->max)) {
            snprintf(err, errlen, "--%s: %ld is outside [%.17g, %.17g]", o->name, v, o->min,
                     o->max);
            return GMB_EUSAGE;
        }
        *(long *)dst = v;
        return GMB_OK;
    }
    case GMB_OPT_DOUBLE: {
        double v;
        if (gmb_parse_double(arg, &v)) {
            snprintf(err, errlen, "--%s: '%s' is not a number", o->name, arg);
            return GMB_EUSAGE;
        }
        if (ranged && (v < o->min || v > o->max)) {
            snprintf(err, errlen, "--%s: %g is outside [%g, %g]", o->name, v, o->min, o->max);
            return GMB_EUSAGE;
        }
        *(double *)dst = v;
        return GMB_OK;
    }
    case GMB_OPT_SIZE: {
        uint64_t v;
        if (gmb_parse_size(arg, &v)) {
            snprintf(err, errlen, "--%s: '%s' is not a size (> 0, e.g. 4096, 4KiB, 2GiB)", o->name,
                     arg);
            return GMB_EUSAGE;
        }
        if (ranged && ((double)v < o->min || (double)v > o->max)) {
            snprintf(err, errlen, "--%s: %s is outside [%.0f, %.0f] bytes", o->name, arg, o->min,
                     o->max);
            return GMB_EUSAGE;
        }
        *(uint64_t *)dst = v;
        return GMB_OK;
    }
    case GMB_OPT_SWEEP: {
        char e[256];
        gmb_sweep_t *sw = (gmb_sweep_t *)dst;
        if (gmb_parse_sweep(arg, sw, e, sizeof e)) {
            snprintf(err, errlen, "--%s: %s", o->name, e);
            return GMB_EUSAGE;
        }
        if (ranged && ((double)sw->v[0] < o->min || (double)sw->v[sw->n - 1] > o->max)) {
            snprintf(err, errlen, "--%s: sizes must lie in [%.0f, %.0f] bytes", o->name, o->min,
                     o->max);
            return GMB_EUSAGE;
        }
        return GMB_OK;
    }
    case GMB_OPT_STR:
        if (o->choices && find_choice(o->choices, arg) < 0) {
            char ch[512];
            choices_text(o->choices, ch, sizeof ch);
            snprintf(err, errlen, "--%s: unknown value '%s' (choose from %s)", o->name, arg, ch);
            return GMB_EUSAGE;
        }
        *(const char **)dst = arg;
        return GMB_OK;
    case GMB_OPT_LIST: {
        char e[512];
        if (gmb_parse_list(arg, o->choices, (gmb_list_t *)dst, e, sizeof e)) {
            snprintf(err, errlen, "--%s: %s", o->name, e);
            return GMB_EUSAGE;
        }
        return GMB_OK;
    }
    case GMB_OPT_INTS: {
        char e[768];
        if (gmb_parse_ints(arg, ranged ? fmax(o->min, 0) : 0, ranged ? o->max : 0x1p62, o->choices,
                           (gmb_ints_t *)dst, e, sizeof e)) {
            snprintf(err, errlen, "--%s: %s", o->name, e);
            return GMB_EUSAGE;
        }
        return GMB_OK;
    }
    }
    snprintf(err, errlen, "--%s: bad option type", o->name);
    return GMB_EUSAGE;
}

int gmb_opt_parse(const gmb_opt_set_t *sets, size_t nsets, int argc, char **argv, const char *see,
                  int *first)
{
    size_t n = 0;
    for (size_t s = 0; s < nsets; s++)
        n += gmb_opt_count(sets[s].table);
    struct option *lo = calloc(n + 1, sizeof *lo);
    const gmb_opt_t **map = calloc(n + 1, sizeof *map);
    void **dst = calloc(n + 1, sizeof *dst);
    if (!lo || !map || !dst) {
        free(lo);
        free(map);
        free(dst);
        return GMB_ERUNTIME;
    }
    int help = -1; /* the entry -h stands for */
    for (size_t s = 0, i = 0; s < nsets; s++)
        for (const gmb_opt_t *o = sets[s].table; o && o->name; o++, i++) {
            map[i] = o;
            dst[i] = sets[s].cfg;
            lo[i].name = o->name;
            lo[i].has_arg = o->type == GMB_OPT_FLAG ? no_argument : required_argument;
            lo[i].val = 1000 + (int)i;
            if (!strcmp(o->name, "help") && o->type == GMB_OPT_FLAG)
                help = (int)i;
        }
    int rc = GMB_OK, ch;
    /* a hidden option (a test aid) is spelled in full: getopt_long's abbreviations must not
     * let --inj reach --inject-error */
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
        if (strncmp(argv[i], "--", 2) || !argv[i][2])
            continue;
        size_t l = strcspn(argv[i] + 2, "=");
        int exact = 0, hidden_prefix = 0;
        for (size_t k = 0; k < n; k++) {
            exact |= strlen(map[k]->name) == l && !strncmp(map[k]->name, argv[i] + 2, l);
            hidden_prefix |= map[k]->hidden && strlen(map[k]->name) > l &&
                             !strncmp(map[k]->name, argv[i] + 2, l);
        }
        if (!exact && hidden_prefix) {
            gmb_error("unknown option '--%.*s' (see %s)", (int)(l > 64 ? 64 : l), argv[i] + 2, see);
            rc = GMB_EUSAGE;
            break;
        }
    }
    char err[768];
    opterr = 0;
    optind = 0; /* glibc: start afresh (also after an earlier parse) */
    while (!rc && (ch = getopt_long(argc, argv, help >= 0 ? ":h" : ":", lo, NULL)) != -1) {
        if (ch == 'h') {
            *(int *)((char *)dst[help] + map[help]->offset) = 1;
        } else if (ch == '?' && optopt >= 1000 && (size_t)(optopt - 1000) < n) {
            /* --flag=VALUE: getopt puts the flag's code in optopt, not a character */
            gmb_error("option '--%s' takes no value (see %s)", map[optopt - 1000]->name, see);
            rc = GMB_EUSAGE;
        } else if (ch == '?') {
            if (optopt > ' ' && optopt < 127)
                gmb_error("unknown option '-%c' (see %s)", optopt, see);
            else
                gmb_error("unknown option '%s' (see %s)", argv[optind - 1], see);
            rc = GMB_EUSAGE;
        } else if (ch == ':') {
            gmb_error("option '%s' needs a value (see %s)", argv[optind - 1], see);
            rc = GMB_EUSAGE;
        } else if (gmb_opt_apply(map[ch - 1000], optarg, dst[ch - 1000], err, sizeof err)) {
            gmb_error("%s", err);
            rc = GMB_EUSAGE;
        }
    }
    *first = optind;
    free(lo);
    free(map);
    free(dst);
    return rc;
}

int gmb_opt_defaults(const gmb_opt_t *table, void *cfg, char *err, size_t errlen)
{
    for (const gmb_opt_t *o = table; o && o->name; o++) {
        if (!o->def)
            continue;
        if (o->type == GMB_OPT_FLAG) {
            snprintf(err, errlen, "--%s: a flag has no default", o->name);
            return GMB_EUSAGE;
        }
        int rc = gmb_opt_apply(o, o->def, cfg, err, errlen);
        if (rc)
            return rc;
    }
    return GMB_OK;
}

size_t gmb_opt_count(const gmb_opt_t *table)
{
    size_t n = 0;
    while (table && table[n].name)
        n++;
    return n;
}

void gmb_opt_help(const gmb_opt_t *table, FILE *f)
{
    for (const gmb_opt_t *o = table; o && o->name; o++) {
        if (o->hidden)
            continue;
        char left[64], ch[512] = "";
        if (o->type == GMB_OPT_FLAG)
            snprintf(left, sizeof left, "--%s", o->name);
        else
            snprintf(left, sizeof left, "--%s %s", o->name, o->metavar ? o->metavar : "X");
        /* (the words of a list of integers: its help says what they mean) */
        int show = o->choices && o->type != GMB_OPT_INTS;
        if (show)
            choices_text(o->choices, ch, sizeof ch);
        fprintf(f, "  %-26s %s", left, o->help);
        if (show)
            fprintf(f, " (%s)", ch);
        if (o->def && o->type != GMB_OPT_FLAG)
            fprintf(f, " [default %s]", o->def);
        fputc('\n', f);
    }
}

void gmb_man_text(const char *s, FILE *f)
{
    int bol = 1;
    for (; s && *s; s++) {
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", f); /* a control character at a line's start */
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
        bol = *s == '\n';
    }
}

void gmb_opt_man(const gmb_opt_t *table, FILE *f)
{
    for (const gmb_opt_t *o = table; o && o->name; o++) {
        if (o->hidden)
            continue;
        char ch[512] = "";
        fputs(".TP\n.B \\-\\-", f);
        gmb_man_text(o->name, f);
        if (o->type != GMB_OPT_FLAG) {
            fputs(" \\fI", f);
            gmb_man_text(o->metavar ? o->metavar : "X", f);
            fputs("\\fR", f);
        }
        fputc('\n', f);
        gmb_man_text(o->help, f);
        if (o->choices && o->type != GMB_OPT_INTS) {
            choices_text(o->choices, ch, sizeof ch);
            fputs(" (", f);
            gmb_man_text(ch, f);
            fputc(')', f);
        }
        if (o->def && o->type != GMB_OPT_FLAG) {
            fputs(" [default ", f);
            gmb_man_text(o->def, f);
            fputc(']', f);
        }
        fputc('\n', f);
    }
}

size_t gmb_sweep_round(gmb_sweep_t *s, uint64_t unit)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        uint64_t v = s->v[i] / unit * unit;
        if (v && (!k || s->v[k - 1] != v))
            s->v[k++] = v;
    }
    s->n = k;
    return k;
}
