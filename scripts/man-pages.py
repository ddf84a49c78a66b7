#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Manual pages (section 1) of the tools, from Documentation/tools.rst.

    scripts/man-pages.py TOOLS_RST OUTDIR VERSION TOOL...

Each TOOL's part of TOOLS_RST (from its title to the next tool's) becomes
OUTDIR/TOOL.1, written with docutils' manpage writer: its NAME section
gives the page's one-line description, its other sections follow as they
are. References to other pages of the documentation (:doc:`name`) become
plain text naming the page. Exits 1 when a TOOL has no part, or when
docutils reports an error.
"""
import re
import sys

from docutils.core import publish_string


def parts(text):
    """The top-level parts of the document: {title: body lines}."""
    lines = text.splitlines()
    found, title, body = {}, None, []
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line and re.fullmatch(r"=+", nxt) and len(nxt) >= len(line) and \
                (i == 0 or not re.fullmatch(r"=+", lines[i - 1])):
            if title:
                found[title] = body
            title, body = line.strip(), []
        elif title and not re.fullmatch(r"=+", line):
            body.append(line)
    if title:
        found[title] = body
    return found


def page(tool, body, version):
    """The reStructuredText of TOOL's manual page."""
    text = "\n".join(body)
    text = re.sub(r":doc:`([^`]+)`", r"the \1 page of tempo's documentation", text)
    m = re.search(r"^NAME\n-+\n\n(.+?)\n\n", text, re.M | re.S)
    if not m:
        raise SystemExit(f"man-pages: {tool} has no NAME section")
    summary = " ".join(m.group(1).split()).split(" - ", 1)[-1]
    text = text[:m.start()] + text[m.end():]
    bar = "=" * len(tool)
    sub = "-" * len(summary)
    return (f"{bar}\n{tool}\n{bar}\n\n{sub}\n{summary}\n{sub}\n\n"
            f":Manual section: 1\n:Manual group: tempo\n:Version: {version}\n\n"
            f"{text.strip()}\n")


def main(argv):
    if len(argv) < 5:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    rst, outdir, version, tools = argv[1], argv[2], argv[3], argv[4:]
    with open(rst, encoding="utf-8") as f:
        found = parts(f.read())
    for tool in tools:
        if tool not in found:
            print(f"man-pages: no part {tool} in {rst}", file=sys.stderr)
            return 1
        man = publish_string(page(tool, found[tool], version), writer_name="manpage",
                             settings_overrides={"report_level": 3, "halt_level": 3})
        with open(f"{outdir}/{tool}.1", "wb") as f:
            f.write(man)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
