/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring._speedups: the per-key Python paths of tokens, without cffi's per-call
 * conversions (optional; CPython only).
 *
 * A cffi call costs more than the Murmur3 hash of a short key, and packing a list of keys
 * for the C batch (b"".join, the lengths, the offsets) costs several times the hash per
 * key. This module takes each key's bytes where they are (a bytes object's buffer, an ASCII
 * str's own characters, a bytearray's buffer) and hashes them with the library's
 * tokenring_token(), reached through the function pointer the cffi module gives _init()
 * (so this module links against nothing and is built the same way whichever library the
 * cffi module carries).
 *
 * Keys of any other type (memoryview, subclasses of bytes or str, non-keys) go to the
 * pure-Python path given to _init() for the scalar call, and make tokens_into() return
 * False for the list call, so that the answers and the errors stay those of the documented
 * Python code. When this module cannot be built, the package uses those paths alone. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* what the Python side checks before using the module: bumped on any change of _init's
 * contract */
#define SPEEDUPS_API 1

typedef int64_t (*token_fn)(const void *key, size_t len);

static token_fn hash_key;      /* tokenring_token */
static PyObject *token_slow;   /* the pure-Python token(key), for keys of other types */

/* The bytes of key k, borrowed from k or from *tmp (a new reference the caller releases).
 * 1: *p, *n set; 0: not a type handled here (no exception set). */
static int key_bytes(PyObject *k, const char **p, Py_ssize_t *n, PyObject **tmp)
{
    if (PyBytes_CheckExact(k)) {
        *p = PyBytes_AS_STRING(k);
        *n = PyBytes_GET_SIZE(k);
        return 1;
    }
    if (PyUnicode_CheckExact(k)) {
        if (PyUnicode_IS_COMPACT_ASCII(k)) { /* its characters are its UTF-8 */
            *p = (const char *)PyUnicode_DATA(k);
            *n = PyUnicode_GET_LENGTH(k);
            return 1;
        }
        /* a temporary, not PyUnicode_AsUTF8AndSize's copy cached in the str for its life */
        PyObject *b = PyUnicode_AsUTF8String(k);
        if (b == NULL) { /* lone surrogates: the Python path raises the error */
            PyErr_Clear();
            return 0;
        }
        *tmp = b;
        *p = PyBytes_AS_STRING(b);
        *n = PyBytes_GET_SIZE(b);
        return 1;
    }
    if (PyByteArray_CheckExact(k)) {
        *p = PyByteArray_AS_STRING(k);
        *n = PyByteArray_GET_SIZE(k);
        return 1;
    }
    return 0;
}

static int ready(void)
{
    if (hash_key != NULL)
        return 1;
    PyErr_SetString(PyExc_RuntimeError, "tokenring._speedups: _init() was not called");
    return 0;
}

PyDoc_STRVAR(token_doc,
"token($module, key, /)\n--\n\n"
"The Murmur3Partitioner token of one partition key, exactly as Cassandra computes it.\n\n"
"``str`` keys are hashed as their UTF-8 bytes (a CQL ``text`` key); bytes-like keys as they\n"
"are. The empty key gives MIN_TOKEN (the partitioner's sentinel, not a real key).");

static PyObject *sp_token(PyObject *self, PyObject *key)
{
    (void)self;
    const char *p;
    Py_ssize_t n;
    PyObject *tmp = NULL;
    if (!ready())
        return NULL;
    if (!key_bytes(key, &p, &n, &tmp))
        return PyObject_CallFunctionObjArgs(token_slow, key, NULL);
    int64_t t = hash_key(n ? p : NULL, (size_t)n);
    Py_XDECREF(tmp);
    return PyLong_FromLongLong((long long)t);
}

PyDoc_STRVAR(tokens_into_doc,
"tokens_into($module, keys, out, /)\n--\n\n"
"Writes the token of each key of the list or tuple keys into out (a writable buffer of\n"
"len(keys) int64). True when done; False, with out partly written, when a key is not\n"
"bytes, bytearray or str (the caller then takes the general path).");

static PyObject *sp_tokens_into(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "tokens_into() takes 2 arguments (keys, out)");
        return NULL;
    }
    PyObject *seq = args[0];
    if (!ready())
        return NULL;
    if (!PyList_CheckExact(seq) && !PyTuple_CheckExact(seq)) {
        PyErr_SetString(PyExc_TypeError, "tokens_into(): keys must be a list or a tuple");
        return NULL;
    }
    Py_buffer out;
    if (PyObject_GetBuffer(args[1], &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (out.len != count * (Py_ssize_t)sizeof(int64_t)) {
        PyBuffer_Release(&out);
        PyErr_Format(PyExc_ValueError,
                     "tokens_into(): out holds %zd bytes, %zd keys need %zd", out.len, count,
                     count * (Py_ssize_t)sizeof(int64_t));
        return NULL;
    }
    /* No Python code should run in the loop (exact types only; the one allocation, a
     * non-ASCII str's UTF-8 copy, is a bytes object, which the garbage collector does not
     * track). Still, each item is held while it is read and the size read again, so that
     * a list changed under the loop cannot be read past its end. */
    char *o = (char *)out.buf;
    int done = 1;
    for (Py_ssize_t i = 0; i < count; i++) {
        const char *p;
        Py_ssize_t n;
        PyObject *tmp = NULL;
        if (i >= PySequence_Fast_GET_SIZE(seq)) {
            done = 0;
            break;
        }
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        Py_INCREF(item);
        if (!key_bytes(item, &p, &n, &tmp)) {
            Py_DECREF(item);
            done = 0;
            break;
        }
        int64_t t = hash_key(n ? p : NULL, (size_t)n);
        Py_XDECREF(tmp);
        Py_DECREF(item);
        memcpy(o + i * (Py_ssize_t)sizeof t, &t, sizeof t); /* any alignment */
    }
    PyBuffer_Release(&out);
    return PyBool_FromLong(done);
}

PyDoc_STRVAR(init_doc,
"_init($module, token_address, token_slow, /)\n--\n\n"
"Takes the address of the library's tokenring_token (from the cffi module) and the\n"
"pure-Python token function for keys of other types.");

static PyObject *sp_init(PyObject *self, PyObject *args)
{
    (void)self;
    unsigned long long addr;
    PyObject *slow;
    if (!PyArg_ParseTuple(args, "KO:_init", &addr, &slow))
        return NULL;
    if (addr == 0 || !PyCallable_Check(slow)) {
        PyErr_SetString(PyExc_ValueError, "_init(): a function address and a callable");
        return NULL;
    }
    Py_INCREF(slow);
    Py_XSETREF(token_slow, slow);
    hash_key = (token_fn)(uintptr_t)addr;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"token", sp_token, METH_O, token_doc},
    {"tokens_into", (PyCFunction)(void (*)(void))sp_tokens_into, METH_FASTCALL,
     tokens_into_doc},
    {"_init", sp_init, METH_VARARGS, init_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "tokenring._speedups",
    "Optional per-key fast paths of tokenring's token and tokens (CPython only).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "API", SPEEDUPS_API) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
