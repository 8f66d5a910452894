#!/usr/bin/env python3
"""Writes a chase scenario with N quarry and N pursuers on an open square map, for measuring how
chases scale (docs/performance.md): `python3 scripts/big_chase.py 300 > /tmp/chase-300.ron`."""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
side = min(2 * n + 2, 500)
rows = ["." * side for _ in range(8)]
out = ["Scenario(", f'    name: "Chase {n} v {n}",', "    grid: Square,", "    map: ["]
out += [f'        "{row}",' for row in rows]
out += ["    ],", "    creatures: ["]
for i in range(n):
    out.append(f'        (id: "q{i}", name: "Runner {i}", side: Party, size: Medium, at: ({side // 2 + i // 8}, {i % 8}), '
               f'speed: {30 + 5 * (i % 3)}, ac: 12, hp: 20, abilities: (dex: {i % 4}, con: {i % 3})),')
for i in range(n):
    out.append(f'        (id: "p{i}", name: "Hunter {i}", side: Enemy, size: Medium, at: ({i // 8}, {i % 8}), '
               f'speed: {30 + 5 * (i % 2)}, ac: 13, hp: 22, abilities: (str: 1, dex: {i % 3}, con: {1 + i % 2}), '
               'skills: {Perception: 2}),')
out += ["    ],", "    chase: (", f'        name: "The great chase",', "        table: Urban,"]
out.append("        quarry: [" + ", ".join(f'"q{i}"' for i in range(n)) + "],")
out.append("        pursuers: [" + ", ".join(f'"p{i}"' for i in range(n)) + "],")
out += ["    ),", ")"]
print("\n".join(out))
