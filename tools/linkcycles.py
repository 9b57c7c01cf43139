#!/usr/bin/env python3
"""linkcycles.py: fails on a dependency cycle between the object files of one
library (make lint). An object depends on another when it uses (nm: U) a
symbol the other defines; a cycle means the files cannot be understood, or
replaced, one at a time.

    tools/linkcycles.py [--nm NM] NAME OBJ...

Prints one line: the number of objects and dependencies, or each cycle with
the symbols that close it. Exit status 1 on a cycle.
"""
import argparse
import os
import subprocess
import sys


def symbols(nm, obj):
    """(defined, undefined) global symbol names of one object file."""
    out = subprocess.run([nm, "-P", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper() or kind in "vw":
            defined.add(name)
    return defined, undefined


def cycles(graph):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nm", default="nm")
    ap.add_argument("name")
    ap.add_argument("objs", nargs="+")
    a = ap.parse_args()

    owner, uses = {}, {}
    for o in a.objs:
        d, u = symbols(a.nm, o)
        key = os.path.basename(o)
        uses[key] = u
        for s in d:
            owner.setdefault(s, key)
    graph = {k: set() for k in uses}
    why = {}
    for k, u in uses.items():
        for s in sorted(u):
            t = owner.get(s)
            if t and t != k:
                graph[k].add(t)
                why.setdefault((k, t), s)
    found = cycles(graph)
    if not found:
        edges = sum(len(v) for v in graph.values())
        print(f"link-cycles {a.name}: {len(graph)} objects, {edges} dependencies, no cycle")
        return 0
    for comp in found:
        members = set(comp)
        deps = [f"{k} -> {t} ({why[(k, t)]})" for k in comp
                for t in sorted(graph[k]) if t in members]
        print(f"link-cycles {a.name}: cycle between {' '.join(comp)}: " + ", ".join(deps))
    return 1


if __name__ == "__main__":
    sys.exit(main())
