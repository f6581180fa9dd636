/* SPDX-License-Identifier: Apache-2.0 */
/* Status codes, messages and error details. */
#if !defined(_POSIX_C_SOURCE) && !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L /* strnlen, for builds that set no feature macro */
#endif
#include <stdio.h>
#include <string.h>

#include "internal.h"

TOKENRING_API const char *tokenring_strerror(tokenring_status status)
{
    switch (status) {
    case TOKENRING_OK: return "success";
    case TOKENRING_E_INVAL: return "invalid argument";
    case TOKENRING_E_NOMEM: return "out of memory";
    case TOKENRING_E_NOTFOUND: return "not found";
    case TOKENRING_E_EXISTS: return "already exists";
    case TOKENRING_E_RANGE: return "value out of range";
    case TOKENRING_E_PARSE: return "malformed input";
    case TOKENRING_E_EMPTY: return "nothing to work on (no tokens)";
    case TOKENRING_E_BUFSIZE: return "output buffer too small";
    case TOKENRING_E_UNSUPPORTED: return "unsupported";
    case TOKENRING_E_IMPOSSIBLE: return "impossible request";
    case TOKENRING_E_CANCELLED: return "cancelled";
    case TOKENRING_E_BUDGET: return "estimated work above the budget";
    case TOKENRING_E_BUSY: return "refused while objects are alive";
    case TOKENRING_E_NOT_PLACED: return "valid, but places nothing on the token ring";
    }
    return "unknown status";
}

TOKENRING_API const char *tokenring_status_name(tokenring_status status)
{
    switch (status) {
    case TOKENRING_OK: return "TOKENRING_OK";
    case TOKENRING_E_INVAL: return "TOKENRING_E_INVAL";
    case TOKENRING_E_NOMEM: return "TOKENRING_E_NOMEM";
    case TOKENRING_E_NOTFOUND: return "TOKENRING_E_NOTFOUND";
    case TOKENRING_E_EXISTS: return "TOKENRING_E_EXISTS";
    case TOKENRING_E_RANGE: return "TOKENRING_E_RANGE";
    case TOKENRING_E_PARSE: return "TOKENRING_E_PARSE";
    case TOKENRING_E_EMPTY: return "TOKENRING_E_EMPTY";
    case TOKENRING_E_BUFSIZE: return "TOKENRING_E_BUFSIZE";
    case TOKENRING_E_UNSUPPORTED: return "TOKENRING_E_UNSUPPORTED";
    case TOKENRING_E_IMPOSSIBLE: return "TOKENRING_E_IMPOSSIBLE";
    case TOKENRING_E_CANCELLED: return "TOKENRING_E_CANCELLED";
    case TOKENRING_E_BUDGET: return "TOKENRING_E_BUDGET";
    case TOKENRING_E_BUSY: return "TOKENRING_E_BUSY";
    case TOKENRING_E_NOT_PLACED: return "TOKENRING_E_NOT_PLACED";
    }
    return "TOKENRING_E_UNKNOWN";
}

static int vfail(tokenring_error *err, int code, uint32_t line, uint32_t column,
                 const char *fmt, va_list ap)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = code;
        err->line = line;
        err->column = column;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
    }
    return code;
}

int tr_fail(tokenring_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, code, 0, 0, fmt, ap);
    va_end(ap);
    return code;
}

int tr_fail_at(tokenring_error *err, int code, uint32_t line, uint32_t column,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, code, line, column, fmt, ap);
    va_end(ap);
    return code;
}

/* Offset of the first byte that is not part of valid UTF-8 (overlong forms, surrogates
 * and code points above U+10FFFF are invalid), or n. */
size_t tr_utf8_bad_offset(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07;
        } else {
            return i;
        }
        if (i + len > n)
            return i;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
            return i;
        i += len;
    }
    return n;
}

bool tr_utf8_valid(const uint8_t *s, size_t n)
{
    return tr_utf8_bad_offset(s, n) == n;
}

int tr_check_name(tokenring_error *err, const char *what, const char *name)
{
    if (name == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "%s name is NULL", what);
    size_t n = strnlen(name, TOKENRING_MAX_NAME + 1);
    if (n == 0)
        return tr_fail(err, TOKENRING_E_INVAL, "%s name is empty", what);
    if (n > TOKENRING_MAX_NAME)
        return tr_fail(err, TOKENRING_E_RANGE, "%s name is longer than %d bytes", what,
                       TOKENRING_MAX_NAME);
    if (!tr_utf8_valid((const uint8_t *)name, n))
        return tr_fail(err, TOKENRING_E_INVAL, "%s name is not valid UTF-8", what);
    return TOKENRING_OK;
}

int tr_check_rack_name(tokenring_error *err, const char *what, const char *name)
{
    if (name != NULL && name[0] == '\0')
        return TOKENRING_OK;
    return tr_check_name(err, what, name);
}

int tr_progress_report(tr_progress *p, const char *what, tokenring_error *err)
{
    if (!p || !p->fn)
        return TOKENRING_OK;
    if (p->total < p->done)
        p->total = p->done;
    if (p->fn(p->user, p->done, p->total) != 0)
        return tr_fail(err, TOKENRING_E_CANCELLED,
                       "%s cancelled by its progress callback after %llu of %llu units of work",
                       what, (unsigned long long)p->done, (unsigned long long)p->total);
    return TOKENRING_OK;
}
