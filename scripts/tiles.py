#!/usr/bin/env python3
"""Generates the terrain tile atlas `assets/tiles/terrain.png`: painted, textured battle-map tiles
(one warm, muted palette) for every terrain kind, in square, pointy-top hex and flat-top hex
shapes, each with and without a grid line.

Run from the repository root:  `python3 scripts/tiles.py`
(add `--preview` to also write a 3x enlarged copy over a checkerboard to /tmp/tiles_preview.png).
Standard library only (zlib, struct, math, random with fixed seeds): every run writes the same
bytes. Writes an RGBA 8-bit PNG (sRGB colour values, straight alpha, filter type 0 on every row).

Layout (the Rust side indexes it; keep the two in step):
- Cells are 74 x 74 px; 17 columns x 6 rows, so the image is 1258 x 444 px.
  Index = row * 17 + column; the cell's top-left pixel is (column * 74, row * 74).
- Rows (shape, grid line):
    0 square, with grid line        1 square, without
    2 pointy-top hex, with line     3 pointy-top hex, without
    4 flat-top hex, with line       5 flat-top hex, without
- Every shape is centred at (37, 37) in its cell (pixel centres at x + 0.5, y + 0.5) and is
  transparent outside (alpha 0, with the material's mean colour as RGB so filtering does not
  darken the edge). With p the pixel centre relative to (37, 37) and n_i unit normals,
  inside = 32 - max_i |p . n_i| and alpha = clamp(inside + 0.5, 0, 1).
    square:          normals at 0 and 90 degrees       (64 x 64, pixels 5..69)
    pointy-top hex:  normals at 0, 60 and 120 degrees  (64 wide flat to flat, ~73.9 tall)
    flat-top hex:    normals at 30, 90 and 150 degrees (64 tall flat to flat, ~73.9 wide)
  (angles in image coordinates, x right and y down).
- Grid line (rows 0, 2, 4): colour *= 1 - 0.35 * clamp((1.4 - inside) + 0.5, 0, 1).
  Otherwise a column's lined and unlined tiles are identical pixel for pixel.
- The texture is a function of the pixel's position relative to the cell centre, so a
  material's square and hex tiles show the same surface; it repeats every 64 px, so
  same-kind square tiles meet seamlessly (unflipped) and still fit when the game flips them.
- Columns:
    0 flagstones   1 wall          2 rough ground   3 crates    4 foliage   5 water
    6 rubble       7 arrow slit    8 planks         9 grass     10 trees    11 parapet
    12 hearth      13 barrels      14 reeds         15 plain (neutral light grey, for tinting)
    16 shade (pure white, for tinted translucent overlays; alpha from inside - 1.0, no grid
       line in any row, no texture).
"""
import math
import os
import random
import struct
import sys
import zlib

CELL = 74
COLS = 17
ROWS = 6
CENTRE = 37.0
HALF = 32.0
PERIOD = 64.0

OUT = os.path.join("assets", "tiles", "terrain.png")
PREVIEW = "/tmp/tiles_preview.png"


# ----------------------------------------------------------------------------------------------
# Small maths helpers


def clamp(x, lo=0.0, hi=1.0):
    return lo if x < lo else hi if x > hi else x


def smoothstep(e0, e1, x):
    t = clamp((x - e0) / (e1 - e0))
    return t * t * (3.0 - 2.0 * t)


def mix(a, b, t):
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


def scale(c, k):
    return (c[0] * k, c[1] * k, c[2] * k)


def add(c, d):
    return (c[0] + d, c[1] + d, c[2] + d)


def ramp(stops, t):
    """Piecewise-linear colour ramp; stops = [(t, colour), ...] in increasing t."""
    if t <= stops[0][0]:
        return stops[0][1]
    for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
        if t <= t1:
            return mix(c0, c1, (t - t0) / (t1 - t0))
    return stops[-1][1]


def seg_dist(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    l2 = dx * dx + dy * dy
    t = 0.0 if l2 == 0 else clamp(((px - ax) * dx + (py - ay) * dy) / l2)
    ex, ey = px - ax - t * dx, py - ay - t * dy
    return math.sqrt(ex * ex + ey * ey)


def wrap64(x):
    """x folded into [-32, 32)."""
    return (x + 32.0) % 64.0 - 32.0


# ----------------------------------------------------------------------------------------------
# Value noise, periodic over the 64 px tile so neighbouring tiles continue each other


class Noise:
    def __init__(self, seed):
        rng = random.Random(seed)
        self.table = [rng.random() for _ in range(256 * 256)]

    def value(self, x, y, px, py, salt):
        ix = math.floor(x)
        iy = math.floor(y)
        fx = x - ix
        fy = y - iy
        sx = fx * fx * (3.0 - 2.0 * fx)
        sy = fy * fy * (3.0 - 2.0 * fy)
        sa = (salt * 37) & 255
        sb = (salt * 101 + 11) & 255
        x0 = ((ix % px) + sa) & 255
        x1 = (((ix + 1) % px) + sa) & 255
        y0 = (((iy % py) + sb) & 255) << 8
        y1 = ((((iy + 1) % py) + sb) & 255) << 8
        t = self.table
        a = t[y0 + x0]
        b = t[y0 + x1]
        c = t[y1 + x0]
        d = t[y1 + x1]
        top = a + (b - a) * sx
        bot = c + (d - c) * sx
        return top + (bot - top) * sy

    def fbm(self, u, v, cells=4, octaves=4, salt=0, ax=1, ay=1, gain=0.5):
        """Fractal value noise in [0, 1] at (u, v) px from the centre; periodic in 64 px.
        `cells` lattice cells per 64 px at the first octave (ax, ay stretch it per axis)."""
        tu = (u + 32.0) / PERIOD
        tv = (v + 32.0) / PERIOD
        total = 0.0
        norm = 0.0
        amp = 1.0
        c = cells
        for o in range(octaves):
            cx = c * ax
            cy = c * ay
            total += amp * self.value(tu * cx, tv * cy, cx, cy, salt + o * 7)
            norm += amp
            amp *= gain
            c *= 2
        return total / norm


NOISE = Noise(20240607)


def fbm(u, v, cells=4, octaves=4, salt=0, ax=1, ay=1, gain=0.5):
    return NOISE.fbm(u, v, cells, octaves, salt, ax, ay, gain)


def stretch(n, k=1.8):
    """Push an fbm value (which clusters around 0.5) out towards 0 and 1."""
    return clamp(0.5 + (n - 0.5) * k)


# ----------------------------------------------------------------------------------------------
# A material canvas: 74 x 74 RGB floats, addressed by pixel centre relative to the cell centre


class Canvas:
    def __init__(self):
        self.px = [[0.0, 0.0, 0.0] for _ in range(CELL * CELL)]

    @staticmethod
    def coords():
        for j in range(CELL):
            v = j + 0.5 - CENTRE
            for i in range(CELL):
                yield j * CELL + i, i + 0.5 - CENTRE, v

    def fill(self, fn):
        px = self.px
        for k, u, v in self.coords():
            c = fn(u, v)
            p = px[k]
            p[0], p[1], p[2] = c[0], c[1], c[2]

    def shade(self, fn):
        """fn(u, v, colour) -> colour, for every pixel."""
        px = self.px
        for k, u, v in self.coords():
            p = px[k]
            c = fn(u, v, (p[0], p[1], p[2]))
            p[0], p[1], p[2] = c[0], c[1], c[2]

    def get(self, u, v):
        i = int(math.floor(u + CENTRE))
        j = int(math.floor(v + CENTRE))
        i = min(max(i, 0), CELL - 1)
        j = min(max(j, 0), CELL - 1)
        p = self.px[j * CELL + i]
        return (p[0], p[1], p[2])

    def paint(self, cx, cy, radius, fn, wrap=True):
        """Calls fn(dx, dy, u, v) for the pixels within `radius` (a box) of (cx, cy); it returns
        None or (colour, alpha), blended over. With wrap, the object repeats every 64 px."""
        offsets = (-64.0, 0.0, 64.0) if wrap else (0.0,)
        px = self.px
        for ox in offsets:
            for oy in offsets:
                x0 = cx + ox
                y0 = cy + oy
                i0 = max(0, int(math.floor(x0 - radius + CENTRE)))
                i1 = min(CELL - 1, int(math.floor(x0 + radius + CENTRE)))
                j0 = max(0, int(math.floor(y0 - radius + CENTRE)))
                j1 = min(CELL - 1, int(math.floor(y0 + radius + CENTRE)))
                if i0 > i1 or j0 > j1:
                    continue
                for j in range(j0, j1 + 1):
                    v = j + 0.5 - CENTRE
                    dy = v - y0
                    row = j * CELL
                    for i in range(i0, i1 + 1):
                        u = i + 0.5 - CENTRE
                        r = fn(u - x0, dy, u, v)
                        if r is None:
                            continue
                        col, a = r
                        if a <= 0.0:
                            continue
                        if a > 1.0:
                            a = 1.0
                        p = px[row + i]
                        p[0] += (col[0] - p[0]) * a
                        p[1] += (col[1] - p[1]) * a
                        p[2] += (col[2] - p[2]) * a


def grain(rng, amount):
    return (rng.random() - 0.5) * 2.0 * amount


def blob_radius(rng, base, harmonics=3, rough=0.18):
    """An irregular closed outline: radius as a function of angle."""
    terms = [(k, rng.uniform(0, 2 * math.pi), rng.uniform(0.3, 1.0) * rough / k) for k in range(2, 2 + harmonics)]

    def r(angle):
        s = 1.0
        for k, ph, a in terms:
            s += a * math.sin(k * angle + ph)
        return base * s

    return r


def dome(dx, dy, rad):
    """0 at the rim, 1 at the centre, round like a pebble seen from above."""
    d = math.sqrt(dx * dx + dy * dy) / rad
    return math.sqrt(max(0.0, 1.0 - d * d))


# ----------------------------------------------------------------------------------------------
# Palette (warm, muted)

STONE = (178, 168, 150)
STONE_DARK = (140, 130, 114)
MORTAR = (104, 96, 84)
WALL = (66, 72, 84)
WALL_LIGHT = (132, 138, 148)
EARTH = (116, 98, 68)
EARTH_DARK = (84, 70, 50)
OLIVE = (112, 108, 70)
WOOD = (146, 102, 62)
WOOD_DARK = (88, 60, 38)
WOOD_LIGHT = (176, 132, 84)
LEAF = (88, 108, 78)
LEAF_DARK = (46, 60, 46)
GRASS = (100, 124, 64)
WATER_DEEP = (50, 88, 98)
WATER = (68, 112, 118)
WATER_LIGHT = (160, 200, 198)


def warm_grade(c, amount=0.06):
    """Pull every colour a little towards one warm mid tone so the atlas reads as one palette."""
    return mix(c, (150, 132, 106), amount)


# ----------------------------------------------------------------------------------------------
# Materials


def seams_flag(u, v):
    """Distance (px) to the nearest mortar seam of the flagstone layout and the stone's id.
    Seams on the tile edges (every 32 px in both axes, the outer ones fall on u, v = +-32) with
    the vertical seam of the upper stones at u = +3 and of the lower ones at u = -4."""
    wv = wrap64(v)
    # horizontal seams at v = 0 and +-32
    dh = min(abs(wv), 32.0 - abs(wv))
    upper = wv < 0.0
    sx = 3.0 if upper else -4.0
    wu = wrap64(u)
    dv = min(abs(wu - sx), abs(wu + 32.0), abs(wu - 32.0))
    left = wu < sx
    sid = (1 if upper else 0) * 2 + (1 if left else 0)
    # stones over the tile's edge (on hex tiles) belong to the neighbour: vary them too
    sid += 4 * (int(math.floor((u + 32.0) / 64.0)) % 3) + 12 * (int(math.floor((v + 32.0) / 64.0)) % 3)
    return min(dh, dv), sid


def mat_flagstones():
    rng = random.Random(100)
    tones = [rng.uniform(-9, 9) for _ in range(40)]
    hues = [rng.uniform(-4, 4) for _ in range(40)]
    cv = Canvas()

    def f(u, v):
        d, sid = seams_flag(u, v)
        t = tones[sid]
        h = hues[sid]
        n = fbm(u, v, 4, 4, salt=1)
        m = fbm(u, v, 16, 2, salt=5)
        base = mix(STONE_DARK, STONE, stretch(n, 1.6))
        base = (base[0] + t + h, base[1] + t, base[2] + t - h)
        base = add(base, (m - 0.5) * 14.0 + grain(rng, 4.0))
        # worn bevel: darker right at the seam, faint light lip just inside
        edge = smoothstep(3.5, 0.6, d)
        base = scale(base, 1.0 - 0.16 * edge)
        lip = math.exp(-((d - 2.6) / 0.9) ** 2)
        base = add(base, 5.0 * lip)
        # pits and speckles
        s = fbm(u, v, 32, 1, salt=9)
        if s > 0.82:
            base = scale(base, 0.9)
        mortar = add(MORTAR, grain(rng, 5.0) + (n - 0.5) * 10)
        a = clamp(1.05 - d + 0.5)
        return mix(base, mortar, a)

    cv.fill(f)
    # a few hairline cracks, subtle
    for _ in range(3):
        x0, y0 = rng.uniform(-28, 28), rng.uniform(-28, 28)
        ang = rng.uniform(0, 2 * math.pi)
        pts = [(x0, y0)]
        for _ in range(4):
            ang += rng.uniform(-0.7, 0.7)
            x0 += math.cos(ang) * 3.0
            y0 += math.sin(ang) * 3.0
            pts.append((x0, y0))
        for (ax, ay), (bx, by) in zip(pts, pts[1:]):
            def crack(dx, dy, u, v, ax=ax, ay=ay, bx=bx, by=by):
                dd = seg_dist(u, v, ax, ay, bx, by)
                return (MORTAR, 0.45 * clamp(0.9 - dd))
            cv.paint((ax + bx) / 2, (ay + by) / 2, 4, crack, wrap=True)
    return cv


def wall_blocks(u, v):
    """Running-bond blocks 32 x 16 px; every course has a seam on the tile edges."""
    wv = wrap64(v)
    course = int(math.floor((wv + 32.0) / 16.0))  # 0..3
    dv = abs(((wv + 32.0) % 16.0) - 8.0)
    dh_to_seam = 8.0 - dv
    wu = wrap64(u)
    if course % 2 == 0:
        seams = (-32.0, 0.0, 32.0)
    else:
        seams = (-32.0, -16.0, 16.0, 32.0)
    du = min(abs(wu - s) for s in seams)
    idx = 0
    for s in seams:
        if wu > s:
            idx += 1
    bid = course * 5 + idx + 20 * (int(math.floor((v + 32.0) / 64.0)) % 3) + 60 * (int(math.floor((u + 32.0) / 64.0)) % 3)
    return min(dh_to_seam, du), bid


def mat_wall():
    rng = random.Random(200)
    tones = [rng.uniform(-8, 8) for _ in range(200)]
    cv = Canvas()

    def f(u, v):
        d, bid = wall_blocks(u, v)
        n = fbm(u, v, 4, 4, salt=21)
        m = fbm(u, v, 16, 2, salt=23)
        base = mix(scale(WALL, 0.82), scale(WALL, 1.12), stretch(n, 1.5))
        base = add(base, tones[bid] + (m - 0.5) * 12 + grain(rng, 3.5))
        # blocks are darker towards their middle, chiselled lighter margin near the joints
        base = add(base, 10.0 * smoothstep(5.0, 1.5, d))
        # chips
        c = fbm(u, v, 24, 2, salt=27)
        if c > 0.74:
            base = scale(base, 0.85)
        outline = add(WALL_LIGHT, grain(rng, 5.0) + (n - 0.5) * 16)
        a = clamp(1.0 - d + 0.5)
        return mix(base, outline, a)

    cv.fill(f)
    return cv


class Worley:
    """Cellular noise with one jittered point per cell, periodic over the 64 px tile."""

    def __init__(self, seed, n):
        rng = random.Random(seed)
        self.n = n
        self.size = 64.0 / n
        self.pts = [[(rng.uniform(0.15, 0.85), rng.uniform(0.15, 0.85)) for _ in range(n)] for _ in range(n)]

    def at(self, u, v):
        """(F1, F2, id of the nearest point, offset from it x, y), distances in px."""
        x = (u + 32.0) / self.size
        y = (v + 32.0) / self.size
        ix, iy = math.floor(x), math.floor(y)
        best = [(1e9, 0, 0.0, 0.0), (1e9, 0, 0.0, 0.0)]
        for oy in (-1, 0, 1):
            for ox in (-1, 0, 1):
                cx, cy = ix + ox, iy + oy
                px, py = self.pts[cy % self.n][cx % self.n]
                dx = (x - cx - px) * self.size
                dy = (y - cy - py) * self.size
                d = math.sqrt(dx * dx + dy * dy)
                cid = (cy % self.n) * self.n + (cx % self.n)
                if d < best[0][0]:
                    best[1] = best[0]
                    best[0] = (d, cid, dx, dy)
                elif d < best[1][0]:
                    best[1] = (d, cid, dx, dy)
        return best[0][0], best[1][0], best[0][1], best[0][2], best[0][3]


WORLEY_ROUGH = Worley(31, 5)
_clod_rng = random.Random(32)
CLOD = [(_clod_rng.uniform(-9, 9), _clod_rng.uniform(-1, 1), _clod_rng.uniform(-1, 1)) for _ in range(25)]


def mat_rough():
    rng = random.Random(300)
    cv = Canvas()

    def f(u, v):
        n = fbm(u, v, 4, 5, salt=31)
        o = fbm(u, v, 2, 3, salt=33)
        base = mix(EARTH_DARK, EARTH, stretch(n, 1.8))
        base = mix(base, OLIVE, 0.55 * smoothstep(0.45, 0.65, o))
        # broken clods: cells of a periodic Worley noise, each tilted a little its own way
        wx = (fbm(u, v, 8, 2, salt=35) - 0.5) * 5
        wy = (fbm(u, v, 8, 2, salt=37) - 0.5) * 5
        f1, f2, cid, ddx, ddy = WORLEY_ROUGH.at(u + wx, v + wy)
        tone, tilt_x, tilt_y = CLOD[cid % len(CLOD)]
        base = add(base, tone + (ddx * tilt_x + ddy * tilt_y) * 0.9)
        base = add(base, grain(rng, 7.0))
        gap = f2 - f1
        width = 0.25 + 1.05 * smoothstep(0.35, 0.65, fbm(u, v, 2, 2, salt=41))
        rim = math.exp(-((gap - width - 1.3) / 0.9) ** 2)
        base = add(base, 9.0 * rim)
        crack = clamp(width - gap + 0.5)
        base = mix(base, (50, 40, 28), 0.9 * crack)
        return base

    cv.fill(f)
    # pebbles
    for _ in range(16):
        cx, cy = rng.uniform(-32, 32), rng.uniform(-32, 32)
        rad = rng.uniform(1.2, 2.8)
        col = mix((112, 102, 82), (146, 134, 108), rng.random())
        outline = blob_radius(rng, rad, 2, 0.25)

        def peb(dx, dy, u, v, rad=rad, col=col, outline=outline):
            d = math.sqrt(dx * dx + dy * dy)
            r = outline(math.atan2(dy, dx))
            if d > r + 1.6:
                return None
            if d > r - 0.5:
                # soft contact shadow round the pebble
                a = clamp(r + 0.5 - d)
                sh = 0.45 * clamp((r + 1.6 - d) / 1.6)
                c = mix((60, 50, 36), col, a)
                return (c, max(a, sh))
            h = dome(dx, dy, r + 0.5)
            return (scale(col, 0.72 + 0.38 * h), 1.0)

        cv.paint(cx, cy, rad * 1.5 + 2, peb)
    # dry tufts
    for _ in range(14):
        cx, cy = rng.uniform(-32, 32), rng.uniform(-32, 32)
        for _ in range(5):
            ang = rng.uniform(0, 2 * math.pi)
            ln = rng.uniform(1.5, 3.5)
            bx, by = cx + math.cos(ang) * ln, cy + math.sin(ang) * ln
            col = mix((120, 116, 66), (150, 140, 84), rng.random())

            def tuft(dx, dy, u, v, ax=cx, ay=cy, bx=bx, by=by, col=col):
                return (col, 0.7 * clamp(0.9 - seg_dist(u, v, ax, ay, bx, by)))

            cv.paint(cx, cy, 5, tuft)
    return cv


def mat_crates():
    rng = random.Random(400)
    cv = Canvas()
    R = 23.0  # half size of the crate: it fits inside the hexes too

    def floor(u, v):
        # the crate stands on dusty flagstones
        n = fbm(u, v, 4, 3, salt=43)
        c = add(mix((118, 108, 92), (146, 136, 118), stretch(n, 1.6)), grain(rng, 4))
        sd, _ = seams_flag(u, v)
        return mix(c, MORTAR, clamp(1.05 - sd + 0.5))

    def f(u, v):
        au, av = abs(u), abs(v)
        box = max(au, av)
        if box > R + 0.5:
            c = floor(u, v)
            # shadow falling off the crate
            return scale(c, 1.0 - 0.5 * smoothstep(R + 7.0, R + 0.5, box))
        # planks: horizontal, 4 across the inside
        inner = R - 4.5
        n = fbm(u, v, 2, 4, salt=45, ax=1, ay=6)
        plank = int(math.floor((v + inner) / (2 * inner / 4)))
        tone = [-6, 5, -2, 8, 0, -4][plank % 6]
        g = math.sin((v * 2.1 + n * 9.0) * 1.6)
        base = add(WOOD, tone + 7 * g + grain(rng, 4))
        pv = ((v + inner) % (2 * inner / 4))
        seam = min(pv, 2 * inner / 4 - pv)
        base = scale(base, 1.0 - 0.4 * clamp(1.2 - seam))
        # X brace
        dd = min(abs(u - v), abs(u + v)) / math.sqrt(2)
        if dd < 3.4 and box < inner + 0.5:
            gb = math.sin(((u + v) * 0.9 + n * 8) * 1.3) if abs(u - v) < abs(u + v) else math.sin(((u - v) * 0.9 + n * 8) * 1.3)
            brace = add(scale(WOOD, 0.84), 6 * gb + grain(rng, 3))
            brace = scale(brace, 1.0 - 0.25 * smoothstep(2.2, 3.4, dd))
            base = mix(base, brace, clamp(3.4 - dd + 0.5))
        else:
            base = scale(base, 1.0 - 0.25 * clamp(4.2 - dd) * (1 if box < inner + 0.5 else 0))
        # frame
        if box > inner - 0.5:
            along = u if av > au else v
            gf = math.sin((along * 0.3 + fbm(u, v, 4, 3, salt=47) * 8) * 2.0)
            fr = add(WOOD_DARK, 10 + 6 * gf + grain(rng, 4))
            fr = add(fr, 10 * smoothstep(R - 2.5, R - 3.5, box))  # lit top of the rim
            fr = scale(fr, 1.0 - 0.3 * smoothstep(R - 1.5, R + 0.5, box))
            # mitre joints at the corners
            if abs(au - av) < 0.8:
                fr = scale(fr, 0.8)
            base = mix(base, fr, clamp(box - (inner - 0.5)))
            # shadow of the frame onto the planks
        elif box > inner - 3.0:
            base = scale(base, 1.0 - 0.25 * smoothstep(inner - 3.0, inner - 0.5, box))
        return base

    cv.fill(f)
    # nails at the frame corners
    for sx in (-1, 1):
        for sy in (-1, 1):
            for (ox, oy) in ((R - 2.2, R - 6.5), (R - 6.5, R - 2.2)):
                cx, cy = sx * ox, sy * oy

                def nail(dx, dy, u, v):
                    d = math.sqrt(dx * dx + dy * dy)
                    return ((70, 68, 66), clamp(1.1 - d + 0.5))

                cv.paint(cx, cy, 2, nail, wrap=False)
    return cv


def mat_foliage():
    rng = random.Random(500)
    cv = Canvas()

    def ground(u, v):
        n = fbm(u, v, 4, 3, salt=51)
        return add(mix((38, 46, 36), (58, 66, 48), n), grain(rng, 3))

    cv.fill(ground)
    blobs = []
    for _ in range(34):
        blobs.append((rng.uniform(-32, 32), rng.uniform(-32, 32), rng.uniform(6.5, 11.5), rng.uniform(-8, 8), rng.random()))
    for cx, cy, rad, tone, sd in blobs:
        outline = blob_radius(rng, rad, 4, 0.14)

        def bush(dx, dy, u, v, rad=rad, tone=tone, outline=outline, sd=sd):
            d = math.sqrt(dx * dx + dy * dy)
            r = outline(math.atan2(dy, dx))
            # leafy edge: noise pushes the outline in and out
            leaf = fbm(u, v, 32, 2, salt=53)
            r2 = r + (leaf - 0.5) * 4.0
            if d > r2 + 2.5:
                return None
            if d > r2:
                return ((28, 34, 28), 0.35 * clamp((r2 + 2.5 - d) / 2.5))
            h = dome(dx, dy, r2 + 0.5)
            c = mix(LEAF_DARK, LEAF, 0.25 + 0.75 * h)
            c = add(c, tone + (leaf - 0.5) * 40)
            c = mix(c, (128, 146, 110), 0.35 * smoothstep(0.62, 0.8, leaf) * h)
            return (c, clamp(r2 - d + 0.5))

        cv.paint(cx, cy, rad * 1.3 + 4, bush)

    # fog: a pale haze drifting through
    def fog(u, v, c):
        n = fbm(u, v, 2, 4, salt=57)
        a = 0.3 * smoothstep(0.42, 0.7, n)
        return mix(c, (156, 164, 150), a)

    cv.shade(fog)
    return cv


def mat_water():
    rng = random.Random(600)
    cv = Canvas()

    def f(u, v):
        n = fbm(u, v, 2, 4, salt=61)
        base = mix(scale(WATER_DEEP, 0.9), scale(WATER, 1.08), stretch(n, 2.0))
        wx = (fbm(u, v, 4, 2, salt=63) - 0.5) * 12
        wy = (fbm(u, v, 4, 2, salt=65) - 0.5) * 12
        r = fbm(u + wx, v + wy, 4, 3, salt=67)
        fr = (r * 6.0) % 1.0
        band = math.exp(-((fr - 0.5) / 0.12) ** 2)
        # the darker trough just beside each light crest
        trough = math.exp(-((fr - 0.25) / 0.12) ** 2)
        fade = 0.35 + 0.65 * smoothstep(0.3, 0.65, fbm(u, v, 2, 3, salt=69))
        base = scale(base, 1.0 - 0.12 * trough * fade)
        base = mix(base, WATER_LIGHT, 0.4 * band * fade)
        r2 = fbm(u - wy, v + wx, 8, 2, salt=66)
        fr2 = (r2 * 7.0) % 1.0
        base = mix(base, WATER_LIGHT, 0.16 * math.exp(-((fr2 - 0.5) / 0.08) ** 2))
        base = add(base, grain(rng, 3.0))
        return base

    cv.fill(f)
    # glints
    for _ in range(10):
        cx, cy = rng.uniform(-32, 32), rng.uniform(-32, 32)
        ln = rng.uniform(1.0, 1.8)

        def glint(dx, dy, u, v, ln=ln):
            d = math.sqrt(dx * dx + dy * dy) / ln
            return ((205, 230, 224), 0.5 * clamp(1.0 - d))

        cv.paint(cx, cy, 4, glint)
    return cv


def mat_rubble():
    rng = random.Random(700)
    cv = Canvas()

    def dirt(u, v):
        n = fbm(u, v, 4, 4, salt=71)
        c = mix((88, 76, 58), (124, 108, 84), stretch(n, 1.6))
        return add(c, grain(rng, 6))

    cv.fill(dirt)
    # gravel
    for _ in range(70):
        cx, cy = rng.uniform(-32, 32), rng.uniform(-32, 32)
        rad = rng.uniform(0.6, 1.3)
        col = mix((100, 94, 84), (156, 148, 132), rng.random())

        def grav(dx, dy, u, v, rad=rad, col=col):
            d = math.sqrt(dx * dx + dy * dy)
            return (col, clamp(rad - d + 0.5))

        cv.paint(cx, cy, 2.5, grav)
    # broken stones, biggest first so small ones lie on top
    stones = []
    for _ in range(19):
        stones.append((rng.uniform(-32, 32), rng.uniform(-32, 32), rng.uniform(2.5, 7.5)))
    stones.sort(key=lambda s: -s[2])
    for cx, cy, rad in stones:
        col = mix((104, 98, 88), (150, 142, 126), rng.random())
        col = (col[0] + rng.uniform(-6, 6), col[1], col[2] - rng.uniform(0, 6))
        ridge = rng.uniform(0, math.pi)
        # angular outline: a polygon with jittered corners
        ncorner = rng.randint(5, 7)
        angs = sorted(rng.uniform(0, 2 * math.pi) for _ in range(ncorner))
        poly = [(math.cos(a) * rad * rng.uniform(0.7, 1.1), math.sin(a) * rad * rng.uniform(0.7, 1.1)) for a in angs]
        # facet light: each stone has a flat top, ridges to its corners
        fshift = rng.uniform(-8, 8)

        def poly_sdf(x, y, poly=poly):
            # signed distance to a polygon (negative inside; crossing-number test)
            dmin = 1e9
            inside = False
            n = len(poly)
            for k in range(n):
                ax, ay = poly[k]
                bx, by = poly[(k + 1) % n]
                dmin = min(dmin, seg_dist(x, y, ax, ay, bx, by))
                if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                    inside = not inside
            return -dmin if inside else dmin

        def stone(dx, dy, u, v, col=col, rad=rad, fshift=fshift, poly_sdf=poly_sdf, ridge=ridge):
            s = poly_sdf(dx, dy)
            if s > 2.2:
                return None
            if s > 0.0:
                return ((48, 40, 30), 0.5 * clamp((2.2 - s) / 2.2))
            depth = -s
            # two facets meeting along a ridge through the stone
            side = dx * math.cos(ridge) + dy * math.sin(ridge)
            facet = 10.0 if side > 0 else -8.0
            c = add(col, fshift + facet + (fbm(u, v, 16, 2, salt=73) - 0.5) * 22 + grain(rng, 4))
            c = scale(c, 0.78 + 0.22 * smoothstep(0.0, 2.2, depth))
            c = add(c, 8 * math.exp(-((depth - 1.4) / 0.6) ** 2))
            return (c, clamp(depth + 0.5))

        cv.paint(cx, cy, rad * 1.2 + 3, stone)
    return cv


def mat_arrow_slit(wall):
    cv = Canvas()
    for k in range(CELL * CELL):
        cv.px[k] = list(wall.px[k])
    rng = random.Random(800)

    def box_sdf(u, v, hx, hy):
        dx = abs(u) - hx
        dy = abs(v) - hy
        ox, oy = max(dx, 0.0), max(dy, 0.0)
        return math.sqrt(ox * ox + oy * oy) + min(max(dx, dy), 0.0)

    def slit(u, v, c):
        s = min(box_sdf(u, v, 2.0, 21.0), box_sdf(u, v, 9.5, 1.5))
        frame = min(box_sdf(u, v, 6.5, 25.0), box_sdf(u, v, 13.5, 5.5))
        if frame < 0.5:
            # dressed stone surround, a shade lighter and smoother
            n = fbm(u, v, 8, 3, salt=81)
            dressed = add(mix(scale(WALL, 1.15), scale(WALL, 1.35), n), grain(rng, 3))
            dressed = add(dressed, 14 * math.exp(-((frame + 1.0) / 0.8) ** 2))
            c = mix(c, dressed, clamp(0.5 - frame))
        if s < 3.5:
            # the splay: inner faces darken into the opening
            c = scale(c, 1.0 - 0.45 * smoothstep(3.5, 0.0, s))
        dark = add((18, 18, 24), grain(rng, 2))
        return mix(c, dark, clamp(0.5 - s))

    cv.shade(slit)
    return cv


PLANK_W = 64.0 / 6.0


def plank_colour(u, v, rng, tones, joints, salt=91):
    wv = v + 32.0
    plank = int(math.floor(wv / PLANK_W))
    pv = wv - plank * PLANK_W
    seam = min(pv, PLANK_W - pv)
    pidx = plank % 6 + 6 * (int(math.floor(wv / 64.0)) % 3)
    t = tones[pidx]
    n = fbm(u, v, 2, 3, salt=salt + pidx % 6, ax=1, ay=8)
    m = fbm(u, v, 4, 3, salt=salt + 20 + pidx % 6, ax=1, ay=4)
    base = mix(WOOD_DARK, WOOD_LIGHT, 0.45 + 0.3 * (m - 0.5) * 2 + t)
    # grain lines: contours of a noise stretched along the plank
    g = (v * 0.55 + n * 10.0 + pidx * 0.37) % 1.0
    line = math.exp(-((g - 0.5) / 0.09) ** 2)
    base = scale(base, 1.0 - 0.2 * line)
    base = add(base, (n - 0.5) * 30)
    base = add(base, grain(rng, 3))
    # butt joint somewhere along each plank
    ju = joints[pidx]
    dj = abs(wrap64(u - ju))
    seam2 = min(seam, dj)
    base = scale(base, 1.0 - 0.1 * smoothstep(2.5, 0.8, seam2))
    dark = scale(WOOD_DARK, 0.78)
    return mix(base, dark, clamp(0.7 - seam2 + 0.5) * 0.85)


def mat_planks():
    rng = random.Random(900)
    tones = [rng.uniform(-0.12, 0.12) for _ in range(18)]
    joints = [rng.uniform(-32, 32) for _ in range(18)]
    cv = Canvas()
    cv.fill(lambda u, v: plank_colour(u, v, rng, tones, joints))
    # a couple of knots
    for _ in range(2):
        cx, cy = rng.uniform(-28, 28), rng.uniform(-28, 28)

        def knot(dx, dy, u, v):
            d = math.sqrt((dx / 2.6) ** 2 + (dy / 1.3) ** 2)
            if d > 2.5:
                return None
            ring = 0.5 + 0.5 * math.cos(d * 6.0)
            return (scale(WOOD_DARK, 0.8), 0.6 * clamp(2.5 - d) * (0.5 + 0.5 * ring))

        cv.paint(cx, cy, 8, knot)
    return cv


def mat_grass():
    rng = random.Random(1000)
    cv = Canvas()

    def f(u, v):
        n = fbm(u, v, 4, 4, salt=101)
        m = fbm(u, v, 2, 2, salt=103)
        base = mix((70, 86, 48), (114, 126, 72), stretch(n, 2.2))
        base = mix(base, (126, 124, 78), 0.4 * smoothstep(0.5, 0.72, m))  # drier patches
        c = fbm(u, v, 8, 2, salt=105)
        base = scale(base, 1.0 - 0.18 * smoothstep(0.55, 0.75, c))  # darker tussocks
        return add(base, grain(rng, 10))

    cv.fill(f)
    for _ in range(700):
        cx, cy = rng.uniform(-32, 32), rng.uniform(-32, 32)
        ang = rng.uniform(0, 2 * math.pi)
        ln = rng.uniform(1.5, 3.8)
        bx, by = cx + math.cos(ang) * ln, cy + math.sin(ang) * ln
        if rng.random() < 0.55:
            col = mix((124, 140, 80), (148, 154, 96), rng.random())
        else:
            col = mix((54, 70, 40), (70, 88, 48), rng.random())

        def blade(dx, dy, u, v, ax=cx, ay=cy, bx=bx, by=by, col=col):
            return (col, 0.55 * clamp(0.85 - seg_dist(u, v, ax, ay, bx, by)))

        cv.paint(cx, cy, 5, blade)
    for _ in range(7):  # a few pale flowers
        cx, cy = rng.uniform(-32, 32), rng.uniform(-32, 32)
        col = rng.choice([(222, 212, 150), (214, 200, 196), (226, 222, 204)])

        def flower(dx, dy, u, v, col=col):
            return (col, 0.8 * clamp(0.9 - math.sqrt(dx * dx + dy * dy)))

        cv.paint(cx, cy, 2, flower)
    return cv


def mat_trees():
    rng = random.Random(1100)
    cv = Canvas()

    def ground(u, v):
        n = fbm(u, v, 4, 3, salt=111)
        return add(mix((34, 40, 28), (56, 62, 40), n), grain(rng, 4))

    cv.fill(ground)

    def crown(cx, cy, rad, wrap, tone):
        outline = blob_radius(rng, rad, 4, 0.12)
        # shadow under the crown
        def shadow(dx, dy, u, v):
            d = math.sqrt(dx * dx + dy * dy) - outline(math.atan2(dy, dx))
            if d > 5:
                return None
            return ((16, 22, 14), 0.6 * clamp((5 - d) / 6))

        cv.paint(cx, cy, rad * 1.3 + 6, shadow, wrap)
        # clusters of leaves over a darker body, each its own little dome
        def body(dx, dy, u, v):
            d = math.sqrt(dx * dx + dy * dy)
            r = outline(math.atan2(dy, dx))
            if d > r + 0.5:
                return None
            h = dome(dx, dy, r + 0.5)
            c = mix((24, 40, 24), (52, 80, 42), h)
            return (add(c, tone), clamp(r - d + 0.5))

        cv.paint(cx, cy, rad * 1.3 + 2, body, wrap)
        nclust = max(4, int(rad * 0.75))
        for k in range(nclust):
            a = 2 * math.pi * k / nclust + rng.uniform(-0.3, 0.3)
            dist = rad * rng.uniform(0.35, 0.62)
            px, py = cx + math.cos(a) * dist, cy + math.sin(a) * dist
            cr = rad * rng.uniform(0.36, 0.5)
            leaf_cluster(px, py, cr, wrap, tone)
        leaf_cluster(cx, cy, rad * 0.45, wrap, tone + 4)

    def leaf_cluster(cx, cy, cr, wrap, tone):
        outline = blob_radius(rng, cr, 3, 0.16)

        def cl(dx, dy, u, v):
            d = math.sqrt(dx * dx + dy * dy)
            leaf = fbm(u, v, 32, 2, salt=113)
            r = outline(math.atan2(dy, dx)) + (leaf - 0.5) * 3.0
            if d > r + 1.8:
                return None
            if d > r:
                return ((20, 32, 20), 0.45 * clamp((r + 1.8 - d) / 1.8))
            h = dome(dx, dy, r + 0.5)
            c = mix((40, 66, 36), (84, 116, 58), h)
            c = add(c, tone + (leaf - 0.5) * 34)
            c = mix(c, (130, 156, 84), 0.5 * smoothstep(0.66, 0.82, leaf) * h)
            return (c, clamp(r - d + 0.5))

        cv.paint(cx, cy, cr * 1.3 + 3, cl, wrap)

    # neighbours' crowns in the corners (one quarter each, continuing over the tile edge)
    crown(32.0, 32.0, 12.0, True, -4)
    crown(0.0, 0.0, 27.0, False, 0)
    return cv


def mat_parapet():
    rng = random.Random(1200)
    cv = Canvas()
    P = (150, 144, 132)

    def f(u, v):
        wu, wv = wrap64(u), wrap64(v)
        au, av = abs(wu), abs(wv)
        n = fbm(u, v, 4, 4, salt=121)
        m = fbm(u, v, 16, 2, salt=123)
        # the crenels between merlons: lower, in shadow
        walk = add(mix((78, 76, 72), (98, 94, 86), n), grain(rng, 5) + (m - 0.5) * 10)
        # merlon: a raised block in each quadrant, 3.5 px from the axes and from the tile edge,
        # so the notches come every 32 px along a line of parapet tiles, 7 px wide
        lo, hi = 3.5, 28.5
        dq = min(au - lo, hi - au, av - lo, hi - av)  # >0 inside the merlon
        if dq < -3.5:
            return walk
        if dq < 0.0:
            # shadow of the merlon into the notch
            return scale(walk, 1.0 - 0.35 * smoothstep(-3.5, 0.0, dq))
        top = add(mix(scale(P, 0.92), scale(P, 1.08), stretch(n, 1.5)), grain(rng, 4) + (m - 0.5) * 14)
        # cap stone bevel: bright lip, then a shade
        top = add(top, 18 * math.exp(-((dq - 1.6) / 1.0) ** 2))
        top = scale(top, 1.0 - 0.25 * clamp(0.6 - dq))
        # a joint across each merlon, alternate directions
        joint = (wu * wv > 0)
        dj = abs(au - 16.0) if joint else abs(av - 16.0)
        top = scale(top, 1.0 - 0.22 * clamp(1.0 - dj + 0.4))
        if fbm(u, v, 24, 2, salt=125) > 0.78:
            top = scale(top, 0.92)
        return mix(walk, top, clamp(dq + 0.5))

    cv.fill(f)
    return cv


def mat_hearth():
    rng = random.Random(1300)
    cv = Canvas()
    R_IN, R_MID, R_OUT = 16.5, 23.5, 30.5
    bricks_in = [rng.uniform(-10, 10) for _ in range(12)]
    bricks_out = [rng.uniform(-10, 10) for _ in range(18)]

    def heat_col(h):
        return ramp([(0.0, (34, 26, 22)), (0.3, (92, 30, 18)), (0.55, (186, 62, 24)),
                     (0.78, (238, 128, 40)), (1.0, (255, 214, 120))], h)

    def f(u, v):
        d = math.sqrt(u * u + v * v)
        a = math.atan2(v, u)
        n = fbm(u, v, 4, 4, salt=131)
        if d > R_OUT + 0.5:
            # sooty stone floor round the hearth
            c = add(mix((104, 96, 86), (132, 124, 110), n), grain(rng, 4))
            _, sid = seams_flag(u, v)
            sd, _ = seams_flag(u, v)
            c = mix(c, scale(c, 0.7), clamp(1.0 - sd + 0.5))
            soot = smoothstep(R_OUT + 7, R_OUT + 0.5, d)
            c = scale(c, 1.0 - 0.5 * soot)
            return c
        if d > R_IN - 0.5:
            # brick ring: two courses
            if d > R_MID:
                nb = 18
                tones = bricks_out
                off = 0.5
                r0, r1 = R_MID, R_OUT
            else:
                nb = 12
                tones = bricks_in
                off = 0.0
                r0, r1 = R_IN, R_MID
            pos = (a / (2 * math.pi) * nb + off) % nb
            bi = int(pos) % nb
            fpos = pos - int(pos)
            arc = min(fpos, 1 - fpos) * 2 * math.pi * d / nb  # px to the joint
            radial = min(d - r0, r1 - d)
            jd = min(arc, radial)
            brick = add((150, 82, 58), tones[bi] + (fbm(u, v, 16, 2, salt=133) - 0.5) * 24 + grain(rng, 5))
            brick = scale(brick, 1.0 - 0.18 * smoothstep(2.5, 0.5, jd))
            mortar = add((84, 70, 60), grain(rng, 4))
            c = mix(brick, mortar, clamp(0.9 - jd + 0.5))
            # soot on the inner bricks, glow from the fire
            c = scale(c, 1.0 - 0.45 * smoothstep(R_IN + 5, R_IN, d))
            glow = smoothstep(R_MID + 2, R_IN - 1, d)
            c = (c[0] + 60 * glow, c[1] + 22 * glow, c[2] + 4 * glow)
            c = mix(c, scale(c, 0.6), smoothstep(R_OUT - 1.5, R_OUT + 0.5, d))
            if d < R_IN + 0.5:
                inner = fire(u, v, d, n)
                c = mix(inner, c, clamp(d - (R_IN - 0.5)))
            return c
        return fire(u, v, d, n)

    def fire(u, v, d, n):
        e = fbm(u, v, 8, 4, salt=135)
        w = fbm(u, v, 16, 2, salt=137)
        heat = 0.25 + 0.9 * (e - 0.5) * 2 * 0.6 + 0.45 * (1 - d / R_IN) + (w - 0.5) * 0.4
        # charred logs crossing the fire
        logs = min(seg_dist(u, v, -11, -5, 11, 5), seg_dist(u, v, -6, 10, 6, -10))
        c = heat_col(clamp(heat))
        if logs < 3.2:
            edge = smoothstep(1.4, 3.2, logs)
            logc = mix((40, 28, 22), (210, 90, 30), edge * clamp(heat + 0.2))
            crack = math.exp(-(((u * 0.6 + v * 0.3 + e * 6) % 1.0 - 0.5) / 0.1) ** 2)
            logc = mix(logc, (230, 110, 36), 0.5 * crack * (1 - edge))
            c = mix(c, logc, clamp(3.2 - logs))
        return c

    cv.fill(f)
    # sparks
    for _ in range(8):
        cx, cy = rng.uniform(-12, 12), rng.uniform(-12, 12)

        def spark(dx, dy, u, v):
            return ((255, 226, 150), 0.8 * clamp(0.8 - math.sqrt(dx * dx + dy * dy)))

        cv.paint(cx, cy, 2, spark, wrap=False)
    return cv


def mat_barrels(planks_rng_seed=1400):
    rng = random.Random(planks_rng_seed)
    tones = [rng.uniform(-0.12, 0.12) for _ in range(18)]
    joints = [rng.uniform(-32, 32) for _ in range(18)]
    cv = Canvas()
    cv.fill(lambda u, v: scale(plank_colour(u, v, rng, tones, joints, salt=141), 0.82))
    barrels = [(-13.0, -13.0, 13.2), (14.0, -11.0, 13.2), (-1.0, 15.0, 13.6)]
    for cx, cy, rad in barrels:
        ang = rng.uniform(0, math.pi)
        ca, sa = math.cos(ang), math.sin(ang)
        bung = (rng.uniform(-1, 1) * rad * 0.45, rng.uniform(-1, 1) * rad * 0.45)
        tone = rng.uniform(-8, 8)

        def shadow(dx, dy, u, v, rad=rad):
            d = math.sqrt(dx * dx + dy * dy)
            if d > rad + 4.5:
                return None
            return ((24, 16, 10), 0.55 * clamp((rad + 4.5 - d) / 4.5))

        cv.paint(cx, cy, rad + 5, shadow, wrap=False)

        def barrel(dx, dy, u, v, rad=rad, ca=ca, sa=sa, bung=bung, tone=tone):
            d = math.sqrt(dx * dx + dy * dy)
            if d > rad + 0.5:
                return None
            a = clamp(rad - d + 0.5)
            if d > rad - 2.6:
                # iron hoop
                t = (d - (rad - 2.6)) / 2.6
                c = mix((104, 102, 98), (54, 52, 52), abs(t - 0.35) * 1.6)
                c = add(c, grain(rng, 5))
                return (c, a)
            if d > rad - 4.6:
                # stave ends: a darker ring with radial joints
                ang2 = math.atan2(dy, dx)
                k = (ang2 / (2 * math.pi) * 22) % 1.0
                c = add(scale(WOOD_DARK, 1.1), tone + grain(rng, 4))
                c = scale(c, 1.0 - 0.35 * math.exp(-((k - 0.5) / 0.08) ** 2))
                return (c, 1.0)
            # the head: boards across, with grain
            along = dx * ca + dy * sa
            across = -dx * sa + dy * ca
            bw = 2 * (rad - 4.6) / 4
            fb = ((across + rad) % bw)
            board_seam = min(fb, bw - fb)
            n = fbm(u, v, 8, 3, salt=143)
            g = math.sin((across * 1.7 + n * 7 + along * 0.05) * 2.2)
            c = add(WOOD_LIGHT, tone - 8 + 7 * g + grain(rng, 4))
            c = scale(c, 0.86 + 0.14 * dome(dx, dy, rad))
            c = scale(c, 1.0 - 0.35 * clamp(0.9 - board_seam + 0.3))
            c = scale(c, 1.0 - 0.3 * smoothstep(rad - 6.5, rad - 4.6, d))  # chime shadow
            bd = math.sqrt((dx - bung[0]) ** 2 + (dy - bung[1]) ** 2)
            c = mix(c, (50, 34, 22), clamp(1.6 - bd + 0.5))
            c = mix(c, (80, 56, 36), 0.6 * clamp(2.4 - bd) * clamp(bd - 1.6))
            return (c, 1.0)

        cv.paint(cx, cy, rad + 1, barrel, wrap=False)
    return cv


def mat_reeds():
    rng = random.Random(1500)
    cv = Canvas()

    def f(u, v):
        n = fbm(u, v, 4, 4, salt=151)
        m = fbm(u, v, 2, 3, salt=153)
        c = mix((50, 62, 48), (80, 92, 64), stretch(n, 1.6))
        c = mix(c, (88, 82, 58), 0.45 * smoothstep(0.5, 0.7, m))  # mud showing through
        r = (fbm(u, v, 4, 2, salt=155) * 8.0) % 1.0
        c = mix(c, (120, 140, 118), 0.12 * math.exp(-((r - 0.5) / 0.08) ** 2))
        return add(c, grain(rng, 3))

    cv.fill(f)
    clumps = [(rng.uniform(-32, 32), rng.uniform(-32, 32), rng.uniform(-0.15, 0.15)) for _ in range(14)]
    strokes = []
    for cx, cy, lean in clumps:
        for _ in range(rng.randint(8, 14)):
            x = cx + rng.gauss(0, 2.6)
            y = cy + rng.gauss(0, 3.5)
            ln = rng.uniform(6, 13)
            tilt = lean + rng.uniform(-0.09, 0.09)
            # centred strokes: they look the same flipped either way
            dx, dy = math.sin(tilt) * ln / 2, math.cos(tilt) * ln / 2
            col = mix((128, 124, 66), (186, 172, 100), rng.random())
            strokes.append((x - dx, y - dy, x + dx, y + dy, col, rng.random() < 0.12))
    strokes.sort(key=lambda s: s[4][0])
    for ax, ay, bx, by, col, head in strokes:
        cx, cy = (ax + bx) / 2, (ay + by) / 2

        def under(dx, dy, u, v, ax=ax, ay=ay, bx=bx, by=by):
            d = seg_dist(u, v, ax, ay, bx, by)
            return ((30, 40, 28), 0.4 * clamp(1.6 - d))

        def reed(dx, dy, u, v, ax=ax, ay=ay, bx=bx, by=by, col=col):
            d = seg_dist(u, v, ax, ay, bx, by)
            t = clamp(((u - ax) * (bx - ax) + (v - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2))
            c = scale(col, 0.8 + 0.3 * math.sin(t * math.pi))
            return (c, clamp(0.7 - d + 0.3))

        cv.paint(cx, cy, 10, under)
        cv.paint(cx, cy, 10, reed)
        if head:
            def cattail(dx, dy, u, v, bx=bx, by=by, ax=ax, ay=ay):
                L = math.hypot(bx - ax, by - ay)
                ux, uy = (bx - ax) / L, (by - ay) / L
                hx, hy = bx - ux * 1.8, by - uy * 1.8
                rx, ry = u - hx, v - hy
                along = rx * ux + ry * uy
                across = -rx * uy + ry * ux
                d = math.sqrt((along / 1.9) ** 2 + (across / 0.95) ** 2)
                return ((84, 62, 42), clamp((1.0 - d) * 2.0))

            cv.paint(bx, by, 5, cattail)
    return cv


def mat_plain():
    rng = random.Random(1600)
    cv = Canvas()

    def f(u, v):
        n = fbm(u, v, 4, 4, salt=161)
        m = fbm(u, v, 16, 2, salt=163)
        g = 207 + (stretch(n, 2.0) - 0.5) * 24 + (m - 0.5) * 12 + grain(rng, 3.5)
        if fbm(u, v, 32, 1, salt=165) > 0.84:
            g -= 5
        return (g, g, g)

    cv.fill(f)
    return cv


def mat_shade():
    cv = Canvas()
    cv.fill(lambda u, v: (255.0, 255.0, 255.0))
    return cv


# ----------------------------------------------------------------------------------------------
# Shapes and assembly


def normals(shape):
    angles = {"square": (0, 90), "pointy": (0, 60, 120), "flat": (30, 90, 150)}[shape]
    return [(math.cos(math.radians(a)), math.sin(math.radians(a))) for a in angles]


ROW_SHAPES = [("square", True), ("square", False), ("pointy", True), ("pointy", False), ("flat", True), ("flat", False)]


def build_materials():
    wall = mat_wall()
    mats = [
        mat_flagstones(),  # 0
        wall,  # 1
        mat_rough(),  # 2
        mat_crates(),  # 3
        mat_foliage(),  # 4
        mat_water(),  # 5
        mat_rubble(),  # 6
        mat_arrow_slit(wall),  # 7
        mat_planks(),  # 8
        mat_grass(),  # 9
        mat_trees(),  # 10
        mat_parapet(),  # 11
        mat_hearth(),  # 12
        mat_barrels(),  # 13
        mat_reeds(),  # 14
        mat_plain(),  # 15
        mat_shade(),  # 16
    ]
    assert len(mats) == COLS
    return mats


def to_byte(x):
    x = int(round(x))
    return 0 if x < 0 else 255 if x > 255 else x


def assemble(mats):
    width, height = COLS * CELL, ROWS * CELL
    img = bytearray(width * height * 4)
    means = []
    for mat in mats:
        n = len(mat.px)
        means.append([round(sum(p[c] for p in mat.px) / n) for c in range(3)])
    for row, (shape, lined) in enumerate(ROW_SHAPES):
        ns = normals(shape)
        for col, mat in enumerate(mats):
            textured = col not in (15, 16)
            is_shade = col == 16
            for j in range(CELL):
                v = j + 0.5 - CENTRE
                for i in range(CELL):
                    u = i + 0.5 - CENTRE
                    inside = HALF - max(abs(u * nx + v * ny) for nx, ny in ns)
                    if is_shade:
                        inside -= 1.0
                    alpha = clamp(inside + 0.5)
                    k = ((row * CELL + j) * width + col * CELL + i) * 4
                    # Transparent pixels get the material's mean colour (alpha 0), so filtering
                    # at the edge does not pull in black (and flat runs compress well).
                    p = mat.px[j * CELL + i] if alpha > 0.0 else means[col]
                    c = (p[0], p[1], p[2])
                    if textured:
                        c = warm_grade(c)
                    if lined and not is_shade:
                        cover = clamp((1.4 - inside) + 0.5)
                        c = scale(c, 1.0 - 0.35 * cover)
                    img[k] = to_byte(c[0])
                    img[k + 1] = to_byte(c[1])
                    img[k + 2] = to_byte(c[2])
                    img[k + 3] = to_byte(alpha * 255.0)
    return width, height, img


def write_png(path, width, height, rgba):
    raw = bytearray()
    stride = width * 4
    for y in range(height):
        raw.append(0)  # filter type 0 (None)
        raw += rgba[y * stride:(y + 1) * stride]

    def chunk(tag, data):
        c = struct.pack(">I", len(data)) + tag + data
        return c + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    png += chunk(b"sRGB", b"\x00")
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(png)


def write_preview(path, width, height, rgba, k=3):
    """The atlas k times larger over a dark checkerboard (for looking at it, not for the game)."""
    W, H = width * k, height * k
    out = bytearray(W * H * 4)
    for y in range(H):
        sy = y // k
        for x in range(W):
            sx = x // k
            s = (sy * width + sx) * 4
            a = rgba[s + 3] / 255.0
            bg = 46 if ((x // 12) + (y // 12)) % 2 else 58
            d = (y * W + x) * 4
            out[d] = to_byte(rgba[s] * a + bg * (1 - a))
            out[d + 1] = to_byte(rgba[s + 1] * a + bg * (1 - a))
            out[d + 2] = to_byte(rgba[s + 2] * a + bg * (1 - a))
            out[d + 3] = 255
    write_png(path, W, H, out)


def main():
    mats = build_materials()
    width, height, img = assemble(mats)
    write_png(OUT, width, height, img)
    print(f"wrote {OUT} ({width} x {height})")
    if "--preview" in sys.argv:
        write_preview(PREVIEW, width, height, img)
        print(f"wrote {PREVIEW}")


if __name__ == "__main__":
    main()
