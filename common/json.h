/* json.h - JSON paths into a record and a growable string: what the harness, the programs'
 * headline figures and bin/gmb's readers share (json.c). */
#ifndef GMB_JSON_H
#define GMB_JSON_H

#include <jansson.h>
#include <stddef.h>

/* A value at a dotted path ("results.best.read.bw_GBps") or NULL. */
const json_t *gmb_jpath(const json_t *j, const char *path);
/* A number (integer or real) at a path, or NaN. */
double gmb_jnum(const json_t *j, const char *path);
/* A growable string: zero it, add with gmb_str_put, take it with gmb_str_done. */
typedef struct {
    char *s;       /* the text (NULL until the first put) */
    size_t n, cap; /* its length, its allocation */
    int bad;       /* an allocation or format failed: gmb_str_done returns NULL */
} gmb_str_t;
/* Append printf-formatted text (nothing once bad). */
void gmb_str_put(gmb_str_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text, the caller's to free ("" when nothing was put); NULL (freed) when bad. */
char *gmb_str_done(gmb_str_t *b);
/* The string at dotted path in j; "" when absent or not a string. */
const char *gmb_jstr(const json_t *j, const char *path);

#endif
