#!/usr/bin/env python3
"""Writes assets/tables/*.ron from the Markdown tables of the DMG chapter 8 text.

Run from the repository root with ../shared beside it: python3 tools/tables_from_rules.py

Each table of 002_ce573f1e51986339.txt is its header, its rows and the ^anchor line after them,
with the bold title before it; tables inside a callout (lines starting with "> ") count too. The
anchor is the table's id. A bold title followed by several tables (the three Conversation
Reaction tables: friendly, indifferent, hostile creature) names each "Title: Subject", the
subject being the header that tells the tables apart ("Friendly Creature's Reaction" gives
"Friendly Creature"). A first column headed "dice: dN" makes the table rollable on dN; "dice: dN
<words>" makes it a lookup by a dN result (the Mob Attacks table). Markdown links keep only their
text.

A table's source is the section whose text names it ("The Poisons table gives suggested
prices..."), not merely the last heading before it: the layout puts some tables under a
sub-heading of another topic (Ability Checks after "Multiple Ability Checks", Poisons after
"Injury").

Tables that 000_8c43542ae10d17a7.txt also holds (Escape Factors, both Chase Complications tables)
are compared row by row with it; where the wording differs, the second copy's is taken (it reads
right where 002 has typos: urban complication 9, wilderness complication 7), and the script says
so.

Text copied with a wrong encoding (UTF-8 read as Latin-1 or Windows-1252, "Â½" for "½", "â€”"
for "—", sometimes with bytes lost: "Ã" for "×", "â" for "—") is repaired by `clean`; the script
stops if any such damage is left in a table.
"""
import re
import sys
from pathlib import Path

RULES = Path("../shared/rules")
SOURCE = RULES / "002_ce573f1e51986339.txt"
SECOND = RULES / "000_8c43542ae10d17a7.txt"
OUT = Path("assets/tables")

# Windows-1252's characters for the bytes 0x80-0x9F (the five it leaves undefined are absent).
CP1252 = {chr(b).encode("latin-1").decode("cp1252"): b for b in range(0x80, 0xA0) if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)}
# What a table must not hold once cleaned: the usual first characters of mis-decoded UTF-8, the
# replacement character and C1 control characters.
DAMAGE = re.compile("[ÂÃâ\ufffd\u0080-\u009f]")
# Contractions after an apostrophe: "don't", "it's", "I'll", "you're", "I've", "I'd", "I'm".
CONTRACTION = re.compile(r"(s|t|ll|re|ve|d|m)(?![A-Za-z])")


def byte_of(char):
    """The byte a character stands for when UTF-8 was read as Latin-1 or Windows-1252."""
    if ord(char) < 0x100:
        return ord(char)
    return CP1252.get(char)


def utf8_length(byte):
    if byte is None:
        return 0
    if 0xC2 <= byte <= 0xDF:
        return 2
    if 0xE0 <= byte <= 0xEF:
        return 3
    if 0xF0 <= byte <= 0xF4:
        return 4
    return 0


def is_continuation(byte):
    return byte is not None and 0x80 <= byte <= 0xBF


def lost_bytes(text, i, lead):
    """What a UTF-8 sequence stood for when only its lead byte (and maybe some of its last bytes)
    is left: the bytes 0x80-0x9F, read as C1 control characters, are often dropped."""
    before = text[i - 1] if i > 0 else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    if lead == "Â":
        # 0xC2 0x80-0x9F is a control character, 0xC2 0xA0 a no-break space: nothing to keep.
        return "", 1
    if lead == "Ã" and (before.isspace() or before.isdigit()) and (after.isspace() or after.isdigit()):
        # 0xC3 0x97, "×", between numbers: "1d4 Ã 5 feet", "1d10 Ã 10 hours".
        return "×", 1
    if lead == "â":
        # 0xE2 0x80 0x??: general punctuation, the second byte (0x80) lost, maybe the third too.
        j = i + 1
        if j < len(text) and text[j] == "€":
            j += 1
        third = byte_of(text[j]) if j < len(text) else None
        if is_continuation(third) and third >= 0xA0:
            return bytes([0xE2, 0x80, third]).decode("utf-8"), j + 1 - i
        after = text[j] if j < len(text) else " "
        if before.isdigit() and after.isdigit():
            return "–", j - i  # a range: "11–20"
        if before.isalpha() and CONTRACTION.match(text, j):
            return "'", j - i  # "donât" for "don't"
        if before.isalnum() and after.isalnum():
            return "—", j - i  # "knowâadopting" for "know—adopting"
        if (before.isspace() or before in "([") and after.isalnum():
            return '"', j - i  # an opening quote
        if before.isalnum() or before in ".,!?;:":
            return '"', j - i  # a closing quote
    return None, 0


def repair_encoding(text):
    """Repairs UTF-8 that was decoded as Latin-1 or Windows-1252, whole ("Â½", "â€™", "â€”",
    "â€“", "â€œ", "â€\\x9d", "Ã—", "Ã·") or with bytes lost ("Ã" for "×", "â" for "—")."""
    out = []
    i = 0
    while i < len(text):
        length = utf8_length(byte_of(text[i]))
        if length and i + length <= len(text):
            sequence = [byte_of(c) for c in text[i : i + length]]
            if all(is_continuation(b) for b in sequence[1:]):
                try:
                    out.append(bytes(sequence).decode("utf-8"))
                    i += length
                    continue
                except UnicodeDecodeError:
                    pass
        if text[i] in "ÂÃâ":
            repaired, used = lost_bytes(text, i, text[i])
            if repaired is not None:
                out.append(repaired)
                i += used
                continue
        out.append(text[i])
        i += 1
    text = "".join(out)
    # C1 control characters left over: Windows-1252 bytes read as Latin-1.
    text = re.sub("[\u0080-\u009f]", lambda m: bytes([ord(m.group())]).decode("cp1252", errors="ignore"), text)
    # The chapter writes straight quotes and apostrophes: keep to them.
    return text.translate(str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'}))


def clean(text):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"\s+", " ", repair_encoding(text)).strip()


def plain(text):
    """The second copy's text without its emphasis (**guard**, *Monster Manual*)."""
    return clean(re.sub(r"\*+([^*]+)\*+", r"\1", text))


def ron_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cells(line):
    return [clean(c) for c in line.strip().strip("|").split("|")]


def unquote(lines):
    """The lines with callout markers ("> ") taken off, and for each line the callout it is in
    (the index of its first line) or None."""
    out, callout = [], []
    current = None
    for i, line in enumerate(lines):
        if line.startswith(">"):
            current = i if current is None else current
            line = line[1:]
            line = line[1:] if line.startswith(" ") else line
        else:
            current = None
        out.append(line)
        callout.append(current)
    return out, callout


def read_tables(lines, callout):
    """Every Markdown table: its lines, the bold title and anchor around it, and the heading it
    sits under."""
    tables = []
    headings = []  # (line, level, text)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#") and callout[i] is None:
            level = len(line) - len(line.lstrip("#"))
            headings.append((i, level, line.lstrip("#").strip()))
        if line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|[\s|:-]+\|\s*$", lines[i + 1]):
            start = i
            while i < len(lines) and lines[i].startswith("|"):
                i += 1
            end = i
            j = end
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j >= len(lines) or not lines[j].startswith("^"):
                sys.exit(f"{SOURCE}:{start + 1}: a table without an ^anchor after it")
            before = start - 1
            while before >= 0 and not lines[before].strip():
                before -= 1
            title = None
            if before >= 0 and re.fullmatch(r"\*\*[^*]+\*\*", lines[before].strip()):
                title = clean(lines[before].strip().strip("*"))
            tables.append(
                {
                    "start": start,
                    "end": end,
                    "anchor_line": j,
                    "anchor": lines[j][1:].strip(),
                    "title": title,
                    "title_before": before,
                    "callout": callout[start],
                    "heading": headings[-1] if headings else None,
                    "header": cells(lines[start]),
                    "rows": [cells(l) for l in lines[start + 2 : end]],
                }
            )
            i = j + 1
            continue
        i += 1
    return tables, headings


def name_tables(tables):
    """Gives each table its name: its bold title, or for a table right after another one with
    no title of its own (only blank lines between), the group's title and its subject."""
    groups = []
    for t in tables:
        follows = groups and not t["title"] and t["title_before"] == groups[-1][-1]["anchor_line"]
        if follows:
            groups[-1].append(t)
        else:
            groups.append([t])
    for group in groups:
        title = group[0]["title"] or group[0]["anchor"]
        if len(group) == 1:
            group[0]["name"] = title
            continue
        columns = range(min(len(t["header"]) for t in group))
        differ = next(c for c in columns if len({t["header"][c] for t in group}) == len(group))
        for t in group:
            subject = re.sub(r"'s\s+\S+$", "", t["header"][differ])
            t["name"] = f"{title}: {subject}"
            t["group_title"] = title
    return tables


def owning_section(t, lines, headings, table_lines):
    """The heading of the section whose text names the table ("the Ability Checks table"), in the
    same top-level section; the last heading before the table when no text names it."""
    title = t.get("group_title", t["name"])
    top = max((h for h in headings if h[0] < t["start"] and h[1] <= 2), default=None)
    top_end = min((h[0] for h in headings if h[0] > t["start"] and h[1] <= (top[1] if top else 1)), default=len(lines))
    pattern = re.compile(r"\b" + re.escape(title) + r" table\b", re.IGNORECASE)
    for i in range(top[0] if top else 0, top_end):
        if i in table_lines or not pattern.search(lines[i]):
            continue
        return max(h for h in headings if h[0] < i)[2]
    return t["heading"][2]


def second_copy(path, titles):
    """The tables of the second copy, by lower-case title: {first cell: [other cells]}. Its tables
    are a heading with the title, then tab-separated lines (the first is the header) or a list
    ("- 1 A large obstacle...") under a header heading ("### d20 Complication")."""
    tables = {}
    title, rows, header_seen = None, None, False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            text = line.lstrip("#").strip().lower()
            if text in titles:
                title, rows, header_seen = text, tables.setdefault(text, {}), False
            elif rows:
                title = None
            continue
        if title is None or not line.strip():
            continue
        if "\t" in line:
            parts = line.split("\t")
            if not header_seen:
                header_seen = True
                continue
            rows[plain(parts[0])] = [plain(p) for p in parts[1:]]
        elif m := re.match(r"^- (\d+(?:[–-]\d+)?) (.+)$", line):
            rows[plain(m.group(1)).replace("–", "-")] = [plain(m.group(2))]
        elif rows:
            title = None
    return tables


def main():
    raw = SOURCE.read_text(encoding="utf-8").splitlines()
    lines, callout = unquote(raw)
    tables, headings = read_tables(lines, callout)
    name_tables(tables)
    table_lines = {i for t in tables for i in range(t["start"] - 1, t["anchor_line"] + 1)}

    ids = [t["anchor"] for t in tables]
    if len(set(ids)) != len(ids):
        sys.exit(f"two tables share an anchor: {sorted(i for i in ids if ids.count(i) > 1)}")
    header_lines = sum(1 for i, l in enumerate(lines[:-1]) if l.startswith("|") and re.match(r"^\|[\s|:-]+\|\s*$", lines[i + 1]))
    if header_lines != len(tables):
        sys.exit(f"{header_lines} tables in the source, {len(tables)} read")

    second = second_copy(SECOND, {t["name"].lower() for t in tables})

    OUT.mkdir(parents=True, exist_ok=True)
    written = set()
    for t in tables:
        anchor, header, rows = t["anchor"], t["header"], t["rows"]
        section = owning_section(t, lines, headings, table_lines)
        if section != t["heading"][2]:
            print(f"  {anchor}: under \"{t['heading'][2]}\", named by the text of \"{section}\"")

        corrected = []
        other = second.get(t["name"].lower())
        for r in rows:
            theirs = other.get(r[0].replace("–", "-")) if other else None
            if theirs is None or len(theirs) != len(r) - 1:
                if other:
                    print(f"  {anchor} {r[0]}: not in {SECOND.name}")
                continue
            for c, text in enumerate(theirs, start=1):
                if text != r[c]:
                    print(f"  {anchor} {r[0]}: {SECOND.name} reads {text!r}\n    where {SOURCE.name} reads {r[c]!r}")
                    r[c] = text
                    corrected += [] if r[0] in corrected else [r[0]]
        die, kind = None, "Reference"
        m = re.match(r"dice: d(\d+)\s*(.*)", header[0])
        if m:
            die = int(m.group(1))
            kind = "Random" if not m.group(2) else "Lookup"
            header[0] = m.group(2) or f"d{die}"

        for text in [t["name"], section, *header, *(c for r in rows for c in r)]:
            if DAMAGE.search(text):
                sys.exit(f"{anchor}: encoding damage left in {text!r}: repair it in clean()")
        for r in rows:
            if len(r) != len(header):
                sys.exit(f"{anchor}: the row {r} has {len(r)} cells for {len(header)} columns")

        note = f"; row {', '.join(corrected)} as {SECOND.name} reads it" if corrected else ""
        out = [
            f"// {t['name']}: from {SOURCE.name}, \"{section}\" (^{anchor}){note}. Written by tools/tables_from_rules.py.",
            "Table(",
        ]
        out.append(f"    id: {ron_string(anchor)},")
        out.append(f"    name: {ron_string(t['name'])},")
        out.append(f"    source: {ron_string('DMG chapter 8, ' + section)},")
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
        written.add(f"{anchor}.ron")
        print(anchor, len(rows), "rows", kind, die or "")
    for stale in sorted(p.name for p in OUT.glob("*.ron") if p.name not in written):
        print(f"  {OUT / stale}: not written from the rules (stale?)")
    print(len(written), "tables")


main()
