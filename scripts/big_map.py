#!/usr/bin/env python3
"""Writes a big battle map for measuring frame time and sight (docs/performance.md): a SIDE x SIDE
map with 20% walls and CREATURES Medium creatures (every other one an enemy), seeded so every run
writes the same file. `python3 scripts/big_map.py square > /tmp/big-square.ron`,
`python3 scripts/big_map.py hex > /tmp/big-hex.ron` (pointy-top); optional SIDE and CREATURES
follow (200 and 300 by default)."""
import random
import sys

grid = sys.argv[1] if len(sys.argv) > 1 else "square"
side = int(sys.argv[2]) if len(sys.argv) > 2 else 200
creatures = int(sys.argv[3]) if len(sys.argv) > 3 else 300
if grid not in ("square", "hex"):
    sys.exit("the grid is `square` or `hex`")

rng = random.Random(14)
rows = [["#" if rng.random() < 0.2 else "." for _ in range(side)] for _ in range(side)]
# Creatures stand on floor, one to a cell, spread over the whole map.
free = [(x, y) for y in range(side) for x in range(side) if rows[y][x] == "."]
places = rng.sample(free, creatures)

out = [
    "Scenario(",
    f'    name: "Big {grid} map: {side} by {side}, {creatures} creatures",',
    f"    grid: {'Square' if grid == 'square' else 'Hex(PointyTop)'},",
    "    map: [",
]
out += [f'        "{"".join(row)}",' for row in rows]
out += ["    ],", "    creatures: ["]
for i, (x, y) in enumerate(places):
    # Hex maps are written as offset rows; positions are axial: q = column - floor(row / 2).
    q = x - y // 2 if grid == "hex" else x
    side_name, name = ("Enemy", "Goblin") if i % 2 else ("Party", "Guard")
    out.append(
        f'        (id: "c{i}", name: "{name} {i}", side: {side_name}, size: Medium, at: ({q}, {y}), '
        f'speed: 30, ac: 13, hp: 11, attacks: [(name: "Spear", bonus: 4, damage: "1d6+2", damage_type: "piercing")]),'
    )
out += ["    ],", ")"]
print("\n".join(out))
