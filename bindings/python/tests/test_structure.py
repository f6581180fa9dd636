# SPDX-License-Identifier: Apache-2.0
"""The package's modules import one way: no circle, and no import hidden in a function
(a lazy import is how a circle survives). The modules form layers, each using only those
below it (see bindings/python/README.md, "Package layout")."""
import ast
import os

import tokenring

PKG = os.path.dirname(tokenring.__file__)


def _imports():
    """{module: (set of package modules it imports, [(module, line) of function-level
    package imports])}."""
    graph = {}
    for fn in sorted(os.listdir(PKG)):
        if not fn.endswith(".py"):
            continue
        mod = fn[:-3]
        with open(os.path.join(PKG, fn), encoding="utf-8") as f:
            tree = ast.parse(f.read(), fn)
        deps, nested = set(), []
        top = set(id(n) for n in tree.body)
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.startswith("tokenring."):
                names = [node.module.split(".")[1]]
            elif isinstance(node, ast.Import):
                names = [a.name.split(".")[1] for a in node.names
                         if a.name.startswith("tokenring.")]
            if not names:
                continue
            deps.update(n.split(".")[0] for n in names)
            if id(node) not in top:
                nested.append((mod, node.lineno))
        graph[mod] = (deps, nested)
    return graph


def test_no_function_level_imports():
    nested = [n for deps, ns in _imports().values() for n in ns]
    assert not nested, f"package imports inside functions (hidden circles): {nested}"


def test_import_graph_has_no_circle():
    graph = {m: deps for m, (deps, _) in _imports().items()}
    assert "_ring" in graph and "_analysis" in graph
    done, stack = set(), []

    def visit(m):
        if m in stack:
            raise AssertionError("import circle: " + " -> ".join(stack[stack.index(m):] + [m]))
        if m in done:
            return
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            visit(d)
        stack.pop()
        done.add(m)

    for m in sorted(graph):
        visit(m)


def test_handles_do_not_know_analyses():
    graph = {m: deps for m, (deps, _) in _imports().items()}
    for handle in ("_topology", "_ring", "_placement", "_replication", "_node"):
        assert not graph[handle] & {"_analysis", "_layout", "_parse", "_cluster_ring"}, handle
