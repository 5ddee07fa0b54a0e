#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The house's rules (issue 22), checked on a built kernel.

    house.py [--root DIR] [--objs DIR] [--report FILE]

Reads which global symbols each object of the kernel build defines and
which it takes from others (nm), puts every source file in its room, and
fails, one line per breach, on

  arch    an arch/ object taking a kernel/ symbol that is not one of the
          contract's callbacks (kernel/include/kernel/arch.h, declarations
          marked __arch_callback), or a kernel/ object taking an arch/
          symbol the contract does not declare; an arch/ file including a
          kernel header other than <kernel/arch.h>, a kernel file including
          an <asm/...> header (only the contract does);
  lib     a lib/ object taking anything from outside lib/ but the port
          contract (include/dynhz/port.h, and the C runtime a port links
          in: docs/PORTING.md), or a lib/ file including a kernel or arch
          header; the core (time/) likewise calls only itself and lib/;
  cycle   rooms that call each other in a loop (a strongly connected
          component of the room graph with more than one room), each
          reported with the calls that close it. A call through a
          contract (the arch's or the port's) is an arrow to the contract,
          not to the room behind it;
  size    a source file of kernel/, arch/ or lib/ over LIMIT lines that
          tests/house/one-concept does not name (with its reason).

The rooms: time/ (the core), lib/, arch/<arch>/, each folder of kernel/,
and kernel/ itself for the files at its top. The report (--report) lists
the rooms, the arrows between them with the calls behind each, the
contract's callbacks and the longest files.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

LIMIT = 700
CONTRACT = 'kernel/include/kernel/arch.h'
PORT = 'include/dynhz/port.h'
# What a freestanding build links from its port besides port.h
# (docs/PORTING.md, "What the core links against").
C_RUNTIME = {'memcpy', 'memmove', 'memset', 'memcmp', 'strlen'}
# The compiler's runtime (-lgcc): no file of ours defines these.
SOURCE_DIRS = ('kernel', 'arch', 'lib')


def room_of(path):
    """The room of a source path (without its extension)."""
    parts = path.split('/')
    if parts[0] == 'time':
        return 'time/'
    if parts[0] == 'lib':
        return 'lib/'
    if parts[0] == 'arch':
        return 'arch/' + parts[1] + '/'
    if parts[0] == 'kernel':
        return 'kernel/' + parts[1] + '/' if len(parts) > 2 else 'kernel/'
    return parts[0] + '/'


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def declarations(path):
    """Names declared at file scope (functions, extern objects), and which carry __arch_callback."""
    try:
        text = strip_comments(open(path).read())
    except OSError:
        return set(), set()
    # Drop preprocessor lines and the bodies of inline functions and structures.
    text = re.sub(r'^\s*#(?:[^\n]*\\\n)*[^\n]*', ' ', text, flags=re.M)
    flat, depth = [], 0
    for ch in text:
        if ch == '{':
            depth += 1
            flat.append(';')
        elif ch == '}':
            depth -= 1
        elif depth == 0:
            flat.append(ch)
    names, callbacks = set(), set()
    for stmt in ''.join(flat).split(';'):
        stmt = ' '.join(stmt.split())
        if not stmt or stmt.startswith(('typedef', 'static')):
            continue
        m = re.search(r'(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:__attribute__\s*\(\(.*\)\))?\s*$', stmt)
        if not m:
            m = re.search(r'^extern\b.*?\b(\w+)\s*(?:\[[^\]]*\])?\s*$', stmt)
        if not m:
            continue
        names.add(m.group(1))
        if '__arch_callback' in stmt:
            callbacks.add(m.group(1))
    return names, callbacks


def contract_headers(root):
    """The contract and the headers it includes: the kernel's (the C runtime) and the arch's (asm/)."""
    heads = [CONTRACT]
    try:
        text = open(os.path.join(root, CONTRACT)).read()
    except OSError:
        return heads
    for inc in re.findall(r'^#include <((?:kernel|asm)/[\w.-]+)>', text, flags=re.M):
        if inc.startswith('kernel/'):
            heads.append('kernel/include/' + inc)
        else:
            for arch in sorted(os.listdir(os.path.join(root, 'arch'))):
                heads.append(f'arch/{arch}/include/{inc}')
    return heads


def scan_objects(objs, root):
    """Defined and taken symbols of each object whose source is still there."""
    defs, uses = {}, collections.defaultdict(set)
    paths = []
    for top in ('time', 'lib', 'arch', 'kernel'):
        for d, _, files in os.walk(os.path.join(objs, top)):
            paths += [os.path.join(d, f) for f in files if f.endswith('.o')]
    for o in sorted(paths):
        name = os.path.relpath(o, objs)[:-2]
        if not any(os.path.exists(os.path.join(root, name + e)) for e in ('.c', '.S')):
            continue  # a file moved away left its object behind
        out = subprocess.run(['nm', o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 2 and p[0] in 'Uwv':
                uses[name].add(p[1])
            elif len(p) == 3 and p[1] in 'TDBRCGSVWu':
                defs.setdefault(p[2], name)
    return defs, uses


def source_of(obj, root):
    for ext in ('.c', '.S'):
        if os.path.exists(os.path.join(root, obj + ext)):
            return obj + ext
    return obj + '.c'


def sccs(nodes, edges):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
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
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def includes(path):
    try:
        return re.findall(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', open(path).read(), flags=re.M)
    except (OSError, UnicodeDecodeError):
        return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', default='.')
    ap.add_argument('--objs', default='build/x86')
    ap.add_argument('--report')
    args = ap.parse_args()
    root = args.root
    breaches = collections.defaultdict(list)
    report = []

    provided, callbacks = set(), set()
    for h in contract_headers(root):
        names, cbs = declarations(os.path.join(root, h))
        provided |= names - cbs
        callbacks |= cbs
    port, _ = declarations(os.path.join(root, PORT))
    port |= C_RUNTIME

    defs, uses = scan_objects(args.objs, root)
    if not uses:
        print(f'house: no objects under {args.objs}', file=sys.stderr)
        return 2

    # File-level arrows, each with the symbols behind it.
    calls = collections.defaultdict(lambda: collections.defaultdict(set))
    for a, syms in uses.items():
        for s in syms:
            b = defs.get(s)
            if b and b != a:
                calls[a][b].add(s)

    room_edges = collections.defaultdict(set)
    why = collections.defaultdict(list)
    rooms = set(room_of(o) for o in set(uses) | set(defs.values()))
    for a in sorted(calls):
        ra = room_of(a)
        for b in sorted(calls[a]):
            rb = room_of(b)
            syms = sorted(calls[a][b])
            if ra == rb:
                continue
            src = source_of(a, root)
            if ra.startswith('arch/') and rb.startswith('kernel'):
                bad = [s for s in syms if s not in callbacks]
                if bad:
                    breaches['arch'].append(f'{src} calls {source_of(b, root)}: {" ".join(bad)}'
                                            ' (not a callback of the contract)')
            if ra.startswith('kernel') and rb.startswith('arch/'):
                bad = [s for s in syms if s not in provided and s not in port]
                if bad:
                    breaches['arch'].append(f'{src} calls {source_of(b, root)}: {" ".join(bad)}'
                                            ' (not in the contract)')
            if ra in ('lib/', 'time/'):
                allowed = ('lib/',) if ra == 'lib/' else ('lib/', 'time/')
                bad = [s for s in syms if rb not in allowed and s not in port]
                if bad:
                    breaches['lib'].append(f'{src} calls {source_of(b, root)}: {" ".join(bad)}'
                                           f' ({ra} calls only {" and ".join(allowed)}'
                                           ' and the port contract)')
            # Through a contract: an arrow to the contract, not to the room behind it.
            through = [s for s in syms
                       if s in port or (ra.startswith('arch/') != rb.startswith('arch/') and
                                        (s in provided or s in callbacks))]
            direct = [s for s in syms if s not in through]
            if direct:
                room_edges[ra].add(rb)
                why[(ra, rb)].append(f'{src} -> {source_of(b, root)}: {" ".join(direct)}')

    # Includes: the contract is the arch's only window on the kernel, and the kernel's on the arch.
    for top in SOURCE_DIRS:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith(('.c', '.h', '.S')):
                    continue
                rel = os.path.relpath(os.path.join(d, f), root)
                for inc in includes(os.path.join(d, f)):
                    if top == 'arch' and inc.startswith('kernel/') and inc != 'kernel/arch.h':
                        breaches['arch'].append(f'{rel} includes <{inc}> (the arch sees the kernel'
                                                ' through <kernel/arch.h> only)')
                    if top == 'kernel' and inc.startswith('asm/') and rel != CONTRACT:
                        breaches['arch'].append(f'{rel} includes <{inc}> (the kernel sees the arch'
                                                ' through <kernel/arch.h> only)')
                    if top == 'lib' and inc.startswith(('kernel/', 'asm/')):
                        breaches['lib'].append(f'{rel} includes <{inc}>')

    for comp in sccs(rooms, room_edges):
        if len(comp) < 2:
            continue
        lines = [f'rooms in a circle: {", ".join(comp)}']
        for ra in comp:
            for rb in sorted(room_edges[ra]):
                if rb in comp:
                    lines += [f'    {ra} -> {rb}'] + [f'        {w}' for w in why[(ra, rb)]]
        breaches['cycle'].append('\n'.join(lines))

    allow = {}
    try:
        for line in open(os.path.join(root, 'tests/house/one-concept')):
            line = line.split('#', 1)[0].strip()
            if line:
                path, _, reason = line.partition(' ')
                allow[path] = reason.strip()
    except OSError:
        pass
    sizes = []
    for top in SOURCE_DIRS:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith(('.c', '.h', '.S')):
                    rel = os.path.relpath(os.path.join(d, f), root)
                    with open(os.path.join(d, f), errors='replace') as fh:
                        sizes.append((sum(1 for _ in fh), rel))
    for n, rel in sorted(sizes, reverse=True):
        if n > LIMIT and rel not in allow:
            breaches['size'].append(f'{rel}: {n} lines (over {LIMIT}, and not in'
                                    ' tests/house/one-concept)')
        if n > LIMIT and rel in allow and not allow[rel]:
            breaches['size'].append(f'{rel}: {n} lines; tests/house/one-concept gives no reason')

    report.append('rooms (files):')
    files_of = collections.defaultdict(list)
    for o in sorted(set(uses) | set(defs.values())):
        files_of[room_of(o)].append(os.path.basename(source_of(o, root)))
    for r in sorted(files_of):
        report.append(f'  {r:16} {" ".join(files_of[r])}')
    report.append('arrows between rooms (calls through a contract not counted):')
    for ra in sorted(room_edges):
        report.append(f'  {ra:16} -> {" ".join(sorted(room_edges[ra]))}')
    report.append('the contract\'s callbacks (arch -> kernel): ' + ' '.join(sorted(callbacks)))
    report.append(f'the contract provides {len(provided)} names (kernel -> arch)')
    report.append('longest files: ' + ', '.join(f'{rel} {n}' for n, rel in sorted(sizes)[::-1][:8]))
    if args.report:
        with open(args.report, 'w') as fh:
            fh.write('\n'.join(report) + '\n')
            for rule in ('arch', 'lib', 'cycle', 'size'):
                for b in breaches[rule]:
                    fh.write(f'{rule}: {b}\n')

    for rule in ('arch', 'lib', 'cycle', 'size'):
        for b in breaches[rule]:
            print(f'{rule}: {b}')
    return 1 if any(breaches.values()) else 0


if __name__ == '__main__':
    sys.exit(main())
