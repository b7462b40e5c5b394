#!/usr/bin/env python3
"""Import cycles of any length in each crate's source (issue 34).

For each crate source dir (default: src, crates/ylem-sandbox/src and
crates/ylem-client/src when it exists) this builds the module tree from the
`mod x;` declarations (x.rs, x/mod.rs, #[path]), turns every reference to
another module of the same crate (`use crate::..`, `super::`, `self::`,
`{..}` groups, a child module's name, and such paths inline in code) into
an edge to the FILE of the deepest module it names, and looks for cycles
(Tarjan's strongly connected components):
  - among files, and
  - at every folder level, among the entries of that folder, each sub-folder
    (with its foo.rs, if any) collapsed to one node.
A parent's `mod child;` is an edge parent -> child (and `pub use child::X`
is one anyway), so a child importing from its own mod.rs closes a circle:
a mod.rs is a facade or something its children import from, never both.
`#[cfg(test)] mod ..` (blocks and files) are skipped: tests may look up.

Then the map: ARCHITECTURE.md's fenced block with the info string `layers`
says, per crate, each node (a top-level module, or a module under a parent
the block splits, `commands/<wing>`) and the nodes it may import. It fails
on an import between nodes the block does not allow, a node in the code the
block does not name, a name in the block with no module (unless it ends in
`?`: a node of the target state not in the code yet), and on
ARCHITECTURE.md over 12,288 bytes (a map, not a history).

Prints each cycle with one example reference per arrow (file:line), a
summary line per crate, and exits 1 if any cycle or layer breach was found. Within a knot
of files it prints, for each arrow in it, the shortest cycle through that
arrow (imports before `mod` lines), so every arrow to remove is shown.
Usage: scripts/check-imports.py [CRATE_SRC_DIR...]
"""
import os
import re
import sys
from collections import defaultdict, deque

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text):
    """Comments and the insides of string/char literals become spaces (line
    breaks kept), so nothing in a doc comment or a message counts."""
    out, i, n = [], 0, len(text)
    blank = lambda s: re.sub(r"[^\n]", " ", s)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j])); i = j
        elif text.startswith("/*", i):  # nested block comments
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j): depth += 1; j += 2
                elif text.startswith("*/", j): depth -= 1; j += 2
                else: j += 1
            out.append(blank(text[i:j])); i = j
        elif (m := re.compile(r'b?r(#*)"').match(text, i)) and (i == 0 or not re.match(r"\w", text[i - 1])):
            end = text.find('"' + m.group(1), m.end())  # raw string
            j = n if end < 0 else end + 1 + len(m.group(1))
            out.append(m.group(0) + blank(text[m.end():j])); i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('"' + blank(text[i + 1:j]) + '"'); i = j + 1
        elif c == "'":  # a char literal, or else a lifetime
            m = re.compile(r"'(\\(u\{[0-9a-fA-F]+\}|x..|.)|[^\\'])'", re.S).match(text, i)
            if m:
                out.append(blank(m.group(0))); i = m.end()
            else:
                out.append(c); i += 1
        else:
            out.append(c); i += 1
    return "".join(out)


def block_end(text, open_at):
    """Index just past the brace that closes the one at open_at."""
    depth = 0
    for j in range(open_at, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return j + 1
    return len(text)


class Crate:
    def __init__(self, src):
        self.src = src
        self.modules = {}  # module path (tuple, root name first) -> file
        self.home = {}     # file -> its module path
        self.text = {}     # file -> stripped text
        self.raw = {}      # file -> source lines, for the examples
        self.inline = {}   # file -> [(start, end, name)] of inline mods
        self.edges = {}    # (from file, to file) -> first example "file:line  code"
        self.decls = []    # (file, module path, name, attrs, line) of `mod x;`
        for root in ("lib.rs", "main.rs"):
            if os.path.isfile(os.path.join(src, root)):
                self.load(os.path.join(src, root), (root[:-3],))

    def load(self, path, modpath):
        """Reads one file of module `modpath` and, recursively, its `mod x;`."""
        self.modules[modpath] = path
        self.home[path] = modpath
        raw = open(path, encoding="utf-8").read()
        self.raw[path] = raw.splitlines()
        text = strip(raw)
        # #[cfg(test)] mod x { .. } blocks vanish; #[cfg(test)] mod x; files are not read.
        attrs = r"((?:#\[[^\]]*\]\s*)*)"
        for m in reversed(list(re.finditer(attrs + r"(?<!\w)(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*([;{])", text))):
            if "cfg(test)" in m.group(1).replace(" ", "") and m.group(3) == "{":
                end = block_end(text, m.end() - 1)
                text = text[:m.start()] + re.sub(r"[^\n]", " ", text[m.start():end]) + text[end:]
        self.text[path] = text
        self.inline[path] = [(m.end() - 1, block_end(text, m.end() - 1), m.group(1))
                             for m in re.finditer(r"\bmod\s+(" + IDENT + r")\s*\{", text)]
        base = os.path.dirname(path)
        stem = os.path.basename(path)[:-3]
        own_dir = base if stem in ("lib", "main", "mod") else os.path.join(base, stem)
        for m in re.finditer(attrs + r"(?<!\w)(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", text):
            attr, name = m.group(1).replace(" ", ""), m.group(2)
            if "cfg(test)" in attr:
                continue
            inner = self.scope(path, m.start())
            here = modpath + inner
            line = text.count("\n", 0, m.start(2)) + 1
            # (the attribute's string is read from the source: strip() blanked it)
            p = re.search(r'#\[path="([^"]*)"\]', "".join(raw[m.start(1):m.end(1)].split()))
            if p:  # relative to the declaring file's folder
                child = os.path.normpath(os.path.join(base, *inner, p.group(1)))
            else:
                d = os.path.join(own_dir, *inner)
                child = os.path.join(d, name + ".rs")
                if not os.path.isfile(child):
                    child = os.path.join(d, name, "mod.rs")
            if not os.path.isfile(child):
                print(f"warning: {path}:{line}: no file for mod {name}", file=sys.stderr)
                continue
            self.add_edge(path, child, line)
            self.load(child, here + (name,))
        # Inline (non-test) modules live in their file.
        for start, _, _ in self.inline[path]:
            self.modules.setdefault(modpath + self.scope(path, start + 1), path)

    def scope(self, path, pos):
        """Names of the inline modules around position pos of a file."""
        return tuple(name for s, e, name in sorted(self.inline[path]) if s < pos < e)

    def add_edge(self, a, b, line):
        if a != b and (a, b) not in self.edges:
            self.edges[(a, b)] = f"{a}:{line}  {self.raw[a][line - 1].strip()}"

    def resolve(self, cur, segs):
        """File of the deepest module a path names from module cur, or None
        (an external crate, std, or a local item)."""
        if segs[0] in ("crate", "$crate"):
            m, rest = cur[:1], segs[1:]
        elif segs[0] == "super":
            m, rest = cur, list(segs)
            while rest and rest[0] == "super":
                m, rest = m[:-1], rest[1:]
        elif segs[0] == "self":
            m, rest = cur, segs[1:]
        elif cur + (segs[0],) in self.modules:  # a child module, by its own name
            m, rest = cur, segs
        else:
            return None
        for s in rest:
            if s == "self":
                continue
            if m + (s,) not in self.modules:
                break
            m = m + (s,)
        return self.modules.get(m)

    def references(self):
        """Every `use` and inline path of every file, as edges."""
        for path, text in self.text.items():
            base = self.home[path]
            for m in re.finditer(r"\buse\s+([^;]*);", text):
                cur = base + self.scope(path, m.start())
                for segs, pos in use_paths(m.group(1), m.start(1)):
                    target = self.resolve(cur, segs)
                    if target:
                        self.add_edge(path, target, text.count("\n", 0, pos) + 1)
            # Inline paths, outside the `use` lines just read.
            code = re.sub(r"\buse\s+[^;]*;", lambda u: re.sub(r"[^\n]", " ", u.group(0)), text)
            for m in re.finditer(r"(?<![\w:])(\$?" + IDENT + r"(?:\s*::\s*" + IDENT + r")+)", code):
                segs = re.split(r"\s*::\s*", m.group(1))
                target = self.resolve(base + self.scope(path, m.start()), segs)
                if target:
                    self.add_edge(path, target, code.count("\n", 0, m.start()) + 1)


def use_paths(tree, offset):
    """The paths of one `use` tree, groups expanded: [(segments, position)]."""
    toks = [(t.group(0), offset + t.start()) for t in re.finditer(r"::|[{},*]|\$?" + IDENT, tree)]
    out = []

    def walk(i, prefix):
        path = list(prefix)
        while i < len(toks):
            tok, pos = toks[i]
            if tok == "{":
                i += 1
                while i < len(toks) and toks[i][0] != "}":
                    i = walk(i, path)
                    if i < len(toks) and toks[i][0] == ",":
                        i += 1
                return i + 1
            if tok == "::":
                i += 1
                continue
            if tok == "*":
                out.append((path or ["self"], pos))
                return i + 1
            if tok in (",", "}"):
                return i
            if tok == "as":
                i += 2  # the alias
                continue
            path.append(tok)
            i += 1
            if i >= len(toks) or toks[i][0] != "::":
                if i < len(toks) and toks[i][0] == "as":
                    i += 2
                out.append((path, pos))
                return i
        return i

    if toks and toks[0][0] != "::":  # `use ::x` names an external crate
        walk(0, [])
    return out


def tarjan(nodes, graph):
    """Strongly connected components with more than one node."""
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]; counter[0] += 1
        stack.append(v); on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop(); on.discard(w); comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return comps


def cycles(edges, prefer):
    """For each edge inside a strongly connected component, the shortest
    cycle through it (found first without the `prefer`-rejected edges, i.e.
    over imports only, so a circle of siblings shows as such): a set of
    cycles that shows every edge that takes part in one."""
    graph, nodes = defaultdict(set), set()
    for a, b in edges:
        graph[a].add(b); nodes |= {a, b}
    found = {}
    for comp in tarjan(nodes, graph):
        for a, b in sorted(e for e in edges if e[0] in comp and e[1] in comp):
            for ok in (lambda x, y: prefer(x, y), lambda x, y: True):
                prev, q = {b: None}, deque([b])
                while q and a not in prev:
                    v = q.popleft()
                    for w in sorted(graph[v] & comp):
                        if w not in prev and ok(v, w):
                            prev[w] = v; q.append(w)
                if a in prev:
                    break
            path, v = [], a
            while v is not None:
                path.append(v); v = prev[v]
            cyc = [a] + path[::-1][:-1]  # a -> b -> .. -> (back to a)
            k = cyc.index(min(cyc))
            found.setdefault(tuple(cyc[k:] + cyc[:k]), None)
    return list(found)


def show(kind, cyc, example):
    print(f"{kind} cycle: " + " -> ".join(cyc + [cyc[0]]))
    for a, b in zip(cyc, cyc[1:] + cyc[:1]):
        print(f"    {a} -> {b}:  {example(a, b)}")


def check(src, crate):
    is_decl = lambda a, b: not re.match(r"\s*(pub(\([^)]*\))?\s+)?mod\s", crate.edges[(a, b)].split("  ", 1)[1])
    file_cycles = cycles(crate.edges, is_decl)
    for c in file_cycles:
        show("file", list(c), lambda a, b: crate.edges[(a, b)])
    # Folder levels: an edge a -> b counts in the lowest folder holding both,
    # between the entries of that folder they are in (foo.rs and foo/ are
    # one entry, the module foo).
    level = defaultdict(dict)
    for (a, b), ex in crate.edges.items():
        d = os.path.commonpath([os.path.dirname(a), os.path.dirname(b)])
        ea = os.path.relpath(a, d).split(os.sep)
        eb = os.path.relpath(b, d).split(os.sep)
        na = ea[0] + "/" if len(ea) > 1 or os.path.isdir(os.path.join(d, ea[0][:-3])) else ea[0]
        nb = eb[0] + "/" if len(eb) > 1 or os.path.isdir(os.path.join(d, eb[0][:-3])) else eb[0]
        na, nb = (x.replace(".rs/", "/") for x in (na, nb))
        if na != nb:
            level[d].setdefault((os.path.join(d, na), os.path.join(d, nb)), ex)
    folder_cycles = 0
    for d, edges in sorted(level.items()):
        for c in cycles(edges, lambda a, b: True):
            if any(x.endswith("/") for x in c):  # files only: shown above
                folder_cycles += 1
                show(f"folder ({d})", list(c), lambda a, b: edges[(a, b)])
    crossings = wings(src, crate.edges)
    files = len(set(crate.modules.values()))
    total = len(file_cycles) + folder_cycles + crossings
    found = len(file_cycles) + folder_cycles
    print(f"{src}: {files} files, {found} cycles"
          + (f" ({len(file_cycles)} among files, {folder_cycles} among folders)" if found else "")
          + (f", {crossings} wing crossings" if crossings else ""))
    return total


def wings(src, edges):
    """The commands' wings (`<src>/commands/<wing>/`) import the kit and the
    layers below, never another wing; the kit imports no wing. Prints each
    crossing; returns how many."""
    base = os.path.join(src, "commands") + os.sep
    def wing(f):
        rest = f[len(base):].split(os.sep) if f.startswith(base) else []
        return rest[0] if len(rest) > 1 else None  # commands/mod.rs is no wing
    n = 0
    for (a, b), ex in sorted(edges.items()):
        wa, wb = wing(a), wing(b)
        if wa and wb and wa != wb and wb != "kit":
            n += 1
            print(f"wing crossing: {wa} -> {wb}\n    {ex}")
    return n


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAP = os.path.join(ROOT, "ARCHITECTURE.md")
MAP_LIMIT = 12288


def read_layers(path):
    """ARCHITECTURE.md's `layers` block: {crate folder (real path): (crate
    name, {node: set of nodes it may import}, set of nodes marked `?`)},
    and the problems of the block itself."""
    text = open(path, encoding="utf-8").read()
    m = re.search(r"^```layers[ \t]*\n(.*?)^```[ \t]*$", text, re.M | re.S)
    if not m:
        return {}, [f"{path}: no fenced block with the info string `layers`"]
    first = text.count("\n", 0, m.start(1)) + 1
    crates, problems, cur = {}, [], None
    for i, line in enumerate(m.group(1).splitlines()):
        where = f"{path}:{first + i}"
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():  # `name folder`: a crate
            parts = line.split()
            if len(parts) != 2:
                problems.append(f"{where}: a crate line is `name source-folder`: {line.strip()}")
                cur = None
                continue
            cur = (parts[0], {}, set())
            crates[os.path.realpath(os.path.join(ROOT, parts[1]))] = cur
            continue
        node, colon, deps = line.strip().partition(":")
        if not colon or cur is None:
            problems.append(f"{where}: a node line is `  node: nodes it may import`, under a crate line")
            continue
        node = node.strip()
        if node.endswith("?"):
            node = node[:-1]
            cur[2].add(node)
        if node in cur[1]:
            problems.append(f"{where}: {node} named twice")
        cur[1][node] = set(deps.split())
    return crates, problems


def layers(src, crate, block):
    """Checks one crate against its part of the block; prints each problem
    and returns how many."""
    name, allowed, coming = block
    named = set(allowed)
    split = {n.split("/")[0] for n in named if "/" in n}

    def node(f):
        m = crate.home[f]
        if len(m) == 1:
            return None  # the crate root
        if m[1] in split and len(m) > 2:
            return m[1] + "/" + m[2]
        return m[1]

    problems = []
    in_code = {node(f) for f in crate.home} - {None}
    for n in sorted(in_code - named):
        f = min(f for f in crate.home if node(f) == n)
        problems.append(f"layers: {name}: {n} ({f}) is not in ARCHITECTURE.md's layers block")
    for n in sorted(named - in_code - coming):
        problems.append(f"layers: {name}: {n} is named in the layers block but there is no such module")
    for n, deps in sorted(allowed.items()):
        for d in sorted(deps):
            if d.endswith("/*") and d[:-2] in split or d in named:
                continue
            problems.append(f"layers: {name}: {n} may import {d}, which the block does not name")
    for (a, b), ex in sorted(crate.edges.items()):
        na, nb = node(a), node(b)
        if na is None or na == nb:
            continue
        if nb is None:
            problems.append(f"layers: {name}: {na} imports the crate root\n    {ex}")
            continue
        deps = allowed.get(na, set())
        if nb in deps or any(d.endswith("/*") and nb.startswith(d[:-1]) for d in deps):
            continue
        if na in named:  # an unnamed node is reported once, above
            problems.append(f"layers: {name}: {na} -> {nb} is not allowed by the layers block\n    {ex}")
    for p in problems:
        print(p)
    here = sorted(coming & in_code)
    note = f"; marked `?` but in the code now (drop the `?`): {', '.join(here)}" if here else ""
    print(f"{src}: layers: {len(in_code)} nodes, {len(problems)} problems{note}")
    return len(problems)


def main():
    dirs = sys.argv[1:] or [d for d in ("src", "crates/ylem-sandbox/src", "crates/ylem-client/src")
                            if os.path.isdir(os.path.join(ROOT, d))]
    if not sys.argv[1:]:
        os.chdir(ROOT)
    blocks, problems = read_layers(MAP)
    size = os.path.getsize(MAP)
    if size > MAP_LIMIT:
        problems.append(f"{MAP}: {size} bytes, over {MAP_LIMIT}: a map, not a history")
    for p in problems:
        print(p)
    bad = len(problems)
    for d in dirs:
        d = d.rstrip("/")
        crate = Crate(d)
        crate.references()
        bad += check(d, crate)
        block = blocks.get(os.path.realpath(d))
        if block:
            bad += layers(d, crate, block)
        elif not sys.argv[1:]:
            print(f"layers: {d} has no crate line in ARCHITECTURE.md's layers block")
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
