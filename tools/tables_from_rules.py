#!/usr/bin/env python3
"""Writes assets/tables/*.ron from the Markdown tables of the DMG chapter 8 text.

Run from the repository root with ../shared beside it: python3 tools/tables_from_rules.py
Each table is the bold title before it, its header, its rows and the ^anchor after it. A first
column headed "dice: dN" makes the table rollable on dN; "dice: dN <words>" makes it a lookup by
a dN result (the Mob Attacks table). Markdown links keep only their text.
"""
import re
from pathlib import Path

SOURCE = Path("../shared/rules/002_ce573f1e51986339.txt")
OUT = Path("assets/tables")


def clean(text):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    # "Ã" alone is a "×" whose second byte was lost (the fall of wilderness complication 6).
    return text.replace("Ã·", "÷").replace("â€™", "'").replace(" Ã ", " × ").strip()


def ron_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    lines = SOURCE.read_text(encoding="utf-8").splitlines()
    OUT.mkdir(parents=True, exist_ok=True)
    heading = ""
    for i, line in enumerate(lines):
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if not line.startswith("^"):
            continue
        anchor = line[1:].strip()
        end = i
        while end > 0 and not lines[end - 1].strip():
            end -= 1
        start = end
        while start > 0 and lines[start - 1].startswith("|"):
            start -= 1
        table = [l for l in lines[start:end] if l.startswith("|")]
        if len(table) < 3:
            continue
        title = next((clean(l.strip("*")) for l in reversed(lines[:start]) if l.startswith("**")), anchor)
        header = [clean(c) for c in table[0].strip("|").split("|")]
        rows = [[clean(c) for c in r.strip("|").split("|")] for r in table[2:]]
        die, kind = None, "Reference"
        m = re.match(r"dice: d(\d+)\s*(.*)", header[0])
        if m:
            die = int(m.group(1))
            kind = "Random" if not m.group(2) else "Lookup"
            header[0] = m.group(2) or f"d{die}"
        out = [f"// {title}: from 002_ce573f1e51986339.txt, \"{heading}\" (^{anchor}). Written by tools/tables_from_rules.py.", "Table("]
        out.append(f"    id: {ron_string(anchor)},")
        out.append(f"    name: {ron_string(title)},")
        out.append(f"    source: {ron_string('DMG chapter 8, ' + heading)},")
        out.append(f"    kind: {kind},")
        if die:
            out.append(f"    die: {die},")
        out.append("    columns: [" + ", ".join(ron_string(h) for h in header) + "],")
        out.append("    rows: [")
        for r in rows:
            out.append("        [" + ", ".join(ron_string(c) for c in r) + "],")
        out.append("    ],")
        out.append(")")
        (OUT / f"{anchor}.ron").write_text("\n".join(out) + "\n", encoding="utf-8")
        print(anchor, len(rows), "rows", kind, die or "")


main()
