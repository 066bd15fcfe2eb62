/* json.c - JSON paths into a record and a growable string (json.h). */
#include "json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <math.h>
#include <string.h>

/* ---- JSON helpers ----------------------------------------------------------------------- */

const json_t *gmb_jpath(const json_t *j, const char *path)
{
    char key[128];
    while (j && path && *path) {
        const char *dot = strchr(path, '.');
        size_t l = dot ? (size_t)(dot - path) : strlen(path);
        if (l >= sizeof key)
            return NULL;
        memcpy(key, path, l);
        key[l] = '\0';
        char *end;
        long idx = strtol(key, &end, 10);
        if (json_is_array(j) && key[0] && !*end) /* "sizes.0": an array element */
            j = idx >= 0 ? json_array_get(j, (size_t)idx) : NULL;
        else
            j = json_object_get(j, key);
        path = dot ? dot + 1 : NULL;
    }
    return j;
}

double gmb_jnum(const json_t *j, const char *path)
{
    const json_t *v = gmb_jpath(j, path);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *gmb_jstr(const json_t *j, const char *path)
{
    const char *s = json_string_value(gmb_jpath(j, path));
    return s ? s : "";
}

/* ---- growable string -------------------------------------------------------------------- */

void gmb_str_put(gmb_str_t *b, const char *fmt, ...)
{
    va_list ap;
    if (b->bad)
        return;
    for (;;) {
        va_start(ap, fmt);
        int l = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (l < 0) {
            b->bad = 1;
            return;
        }
        if (b->s && b->n + (size_t)l < b->cap) {
            b->n += (size_t)l;
            return;
        }
        size_t cap = (b->cap ? 2 * b->cap : 1024) + (size_t)l;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->bad = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

char *gmb_str_done(gmb_str_t *b)
{
    if (b->bad) {
        free(b->s);
        return NULL;
    }
    if (!b->s)
        return strdup("");
    return b->s;
}
