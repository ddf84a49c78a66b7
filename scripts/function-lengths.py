#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Functions longer than a limit, from universal-ctags' start and end lines.

    scripts/function-lengths.py [--max N] [--top K] PATH...

Prints "LINES FILE:LINE NAME" for every function (C and C++, lambdas
excepted) of the files below PATH... longer than N lines (default 80),
longest first, or the K longest with --top. Exits 1 when one is over the
limit, 0 otherwise.
"""
import argparse
import json
import subprocess
import sys


def functions(paths):
    cmd = ['ctags', '-R', '--output-format=json', '--fields=+ne',
           '--languages=C,C++', '--kinds-C=f', '--kinds-C++=f', '-f', '-']
    out = subprocess.run(cmd + paths, check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        tag = json.loads(line)
        if 'end' in tag and 'line' in tag:
            yield tag['end'] - tag['line'] + 1, tag['path'], tag['line'], \
                tag['name']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--max', type=int, default=80)
    ap.add_argument('--top', type=int, default=0)
    ap.add_argument('paths', nargs='+')
    args = ap.parse_args()
    found = sorted(functions(args.paths), reverse=True)
    over = [f for f in found if f[0] > args.max]
    for n, path, line, name in (found[:args.top] if args.top else over):
        print(f'{n:4d} {path}:{line} {name}')
    return 1 if over else 0


if __name__ == '__main__':
    sys.exit(main())
