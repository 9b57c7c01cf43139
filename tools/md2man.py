#!/usr/bin/env python3
"""md2man.py: docs/hpmctl.md -> hpmctl.1 (man(7) roff), so that the manual
has one source. Handles the Markdown that file uses: # title, ## sections,
### subsections, paragraphs, ``` blocks, "`term`" lines followed by ": text"
(definition lists), "- " bullets, | tables | and inline `code`, **bold**
and [links](url).

  tools/md2man.py docs/hpmctl.md > hpmctl.1
"""
import re
import sys


def esc(text):
    """Plain text for roff: backslashes, and dashes as real hyphen-minus."""
    return text.replace("\\", "\\e").replace("-", "\\-")


def inline(text):
    out = []
    for i, part in enumerate(re.split(r"(`[^`]*`)", text)):
        if i % 2:
            out.append("\\fB" + esc(part[1:-1]) + "\\fR")
            continue
        part = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", part)
        pieces = re.split(r"(\*\*[^*]+\*\*|\*[^*\s][^*]*\*)", part)
        out.append("".join(("\\fB" + esc(p[2:-2]) if p.startswith("**") else "\\fI" + esc(p[1:-1]))
                           + "\\fR" if j % 2 else esc(p) for j, p in enumerate(pieces)))
    line = "".join(out)
    # a line must not start with a control character
    return "\\&" + line if line[:1] in (".", "'") else line


def table(rows):
    cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    cells = [c for c in cells if not all(re.fullmatch(r":?-+:?", x) for x in c)]
    plain = [[re.sub(r"`([^`]*)`", r"\1", x).replace("**", "") for x in c] for c in cells]
    widths = [max(len(r[i]) for r in plain if i < len(r)) for i in range(len(plain[0]))]
    out = [".PP", ".nf"]
    for r in plain:
        out.append(esc("  ".join(x.ljust(widths[i]) for i, x in enumerate(r)).rstrip()))
    out.append(".fi")
    return out


def convert(lines, version):
    # left-adjusted, as long option names and paths cannot be spread
    out = ['.TH HPMCTL 1 "" "hpm-overlay %s" "hpm-overlay manual"' % version, ".ad l"]
    i, para = 0, []

    def flush():
        if para:
            out.append(".PP")
            out.append(inline(" ".join(para)))
            para.clear()

    while i < len(lines):
        line = lines[i].rstrip("\n")
        nxt = lines[i + 1].rstrip("\n") if i + 1 < len(lines) else ""
        if line.startswith("```"):
            flush()
            out += [".PP", ".nf", ".RS 2"]
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                out.append("\\&" + esc(lines[i].rstrip("\n")))
                i += 1
            out += [".RE", ".fi"]
        elif line.startswith("# "):
            pass                                # the title is .TH
        elif line.startswith("## "):
            flush()
            out.append(".SH " + esc(line[3:].upper()))
        elif line.startswith("### "):
            flush()
            out.append(".SS " + inline(line[4:]))
        elif line.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(lines[i])
                i += 1
            out += table(rows)
            continue
        elif nxt.startswith(": ") and line.strip():
            flush()
            out += [".TP", inline(line)]
            i += 1
            text = [lines[i][2:].strip()]
            while i + 1 < len(lines) and lines[i + 1].startswith("  ") and lines[i + 1].strip():
                i += 1
                text.append(lines[i].strip())
            out.append(inline(" ".join(text)))
        elif line.startswith("- "):
            flush()
            text = [line[2:].strip()]
            while i + 1 < len(lines) and lines[i + 1].startswith("  ") and lines[i + 1].strip():
                i += 1
                text.append(lines[i].strip())
            out += [".IP \\(bu 2", inline(" ".join(text))]
        elif not line.strip():
            flush()
        else:
            para.append(line.strip())
        i += 1
    flush()
    return out


def main():
    src = sys.argv[1]
    version = "0"
    try:
        hdr = open(src.replace("docs/hpmctl.md", "host/lib/hpm.h")).read()
        version = re.search(r'HPM_LIB_VERSION "([^"]*)"', hdr).group(1)
    except (OSError, AttributeError):
        pass
    print("\n".join(convert(open(src).readlines(), version)))


if __name__ == "__main__":
    main()
