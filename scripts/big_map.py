#!/usr/bin/env python3
"""Writes a big battle map for measuring frame time and sight (docs/performance.md): a SIDE x SIDE
map with 20% walls and CREATURES Medium creatures (every other one an enemy), seeded so every run
writes the same file. `python3 scripts/big_map.py square > /tmp/big-square.ron`,
`python3 scripts/big_map.py hex > /tmp/big-hex.ron` (pointy-top); optional SIDE and CREATURES
follow (200 and 300 by default). `--dark` makes the same map and creatures a dark scene: 64 lamps
(20/20 ft) on free floor, every tenth creature a torch-bearer (20/20 ft, all party), 30 others with
darkvision 60 ft (15 party, 15 enemies)."""
import random
import sys

dark = "--dark" in sys.argv
argv = [a for a in sys.argv if a != "--dark"]
grid = argv[1] if len(argv) > 1 else "square"
side = int(argv[2]) if len(argv) > 2 else 200
creatures = int(argv[3]) if len(argv) > 3 else 300
if grid not in ("square", "hex"):
    sys.exit("the grid is `square` or `hex`")

rng = random.Random(14)
rows = [["#" if rng.random() < 0.2 else "." for _ in range(side)] for _ in range(side)]
# Creatures stand on floor, one to a cell, spread over the whole map.
free = [(x, y) for y in range(side) for x in range(side) if rows[y][x] == "."]
places = rng.sample(free, creatures)

out = [
    "Scenario(",
    f'    name: "Big {grid} map: {side} by {side}, {creatures} creatures{", dark" if dark else ""}",',
    f"    grid: {'Square' if grid == 'square' else 'Hex(PointyTop)'},",
]
if dark:
    # A generator of their own: the map and the creatures stay those of the daylight file.
    pool = [c for c in free if c not in set(places)]
    out += ["    light: Dark,", "    lights: ["]
    for x, y in random.Random(15).sample(pool, min(64, len(pool))):
        out.append(f"        (at: ({x - y // 2 if grid == 'hex' else x}, {y}), bright: 20, dim: 20),")
    out.append("    ],")
out.append("    map: [")
out += [f'        "{"".join(row)}",' for row in rows]
out += ["    ],", "    creatures: ["]
for i, (x, y) in enumerate(places):
    # Hex maps are written as offset rows; positions are axial: q = column - floor(row / 2).
    q = x - y // 2 if grid == "hex" else x
    side_name, name = ("Enemy", "Goblin") if i % 2 else ("Party", "Guard")
    extra = ""
    if dark and i % 10 == 0:
        extra = ", light: (bright: 20, dim: 20)"
    elif dark and i % 20 in (3, 6):
        extra = ", darkvision: 60"
    out.append(
        f'        (id: "c{i}", name: "{name} {i}", side: {side_name}, size: Medium, at: ({q}, {y}), '
        f'speed: 30, ac: 13, hp: 11, attacks: [(name: "Spear", bonus: 4, damage: "1d6+2", damage_type: "piercing")]{extra}),'
    )
out += ["    ],", ")"]
print("\n".join(out))
