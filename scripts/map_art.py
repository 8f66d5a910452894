#!/usr/bin/env python3
"""Renders a painted "drawn map" of a scenario: a picture such as a DM might buy, with no grid
lines, for the game to show under its own grid. Standard library only (zlib, struct, math,
random with fixed seeds); every run writes the same bytes.

Run from the repository root:
    python3 scripts/map_art.py                      # scenes/river_ford.ron -> scenes/maps/river_ford.png
    python3 scripts/map_art.py scenes/X.ron [out.png]

It reads the scenario's `grid`, `legend` and `map` rows and paints each cell's terrain:
`.` grass, `~` water (a river with muddy banks, depth and ripples), `%` rough muddy ground with
stones, `=` mossy boulders (a low obstacle), `*` bushes, `^` rubble, `#` and `!` dark stone, and
custom terrain by name (reeds, trees/woods, undergrowth; anything else in its legend colour).
Boundaries are blurred and warped with noise, so terrains run into each other.

Scale and placement: 70 px per grid unit, the distance between the centres of adjacent cells
(`Grid::center` in src/rules/grid.rs), so a square cell is 70 x 70 px and a hex is 70 px flat to
flat. The image covers the map's bounding box and nothing else:
- Square: W*70 x H*70 px; cell (x, y) covers pixels [70x, 70x+70) x [70y, 70y+70).
- Hex: the bounding box of all the hexes of the map rectangle. With hex (0, 0) centred at the
  origin (grid units, x east, y south), the image's top-left corner is at grid units
  (-1/sqrt(3), -0.5) for flat-top and (-0.5, -1/sqrt(3)) for pointy-top; pixel (px, py) is at
  grid units corner + (px, py) / 70. Flat-top: column c, row r (odd columns half a hex south)
  is centred at (c*sqrt(3)/2, r + (c odd ? 0.5 : 0)); pointy-top: odd rows half a hex east.
The PNG is 8-bit RGB (sRGB values); rows use the PNG "Sub"/"Up"/"Paeth" filters, chosen per
row, to keep the file small.
"""
import math
import os
import random
import re
import struct
import sys
import zlib

PX = 70.0  # pixels per grid unit
STEP = 4  # coarse grid for the slowly varying fields, in pixels
SQ3 = math.sqrt(3.0)


# ----------------------------------------------------------------------------------------------
# helpers


def clamp(x, lo=0.0, hi=1.0):
    return lo if x < lo else hi if x > hi else x


def smoothstep(e0, e1, x):
    t = clamp((x - e0) / (e1 - e0))
    return t * t * (3.0 - 2.0 * t)


def mix(a, b, t):
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


def seg_dist(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    l2 = dx * dx + dy * dy
    t = 0.0 if l2 == 0 else clamp(((px - ax) * dx + (py - ay) * dy) / l2)
    ex, ey = px - ax - t * dx, py - ay - t * dy
    return math.sqrt(ex * ex + ey * ey)


class Noise:
    """Value noise over a 256-cell lattice (it repeats every 256 cells)."""

    def __init__(self, seed):
        rng = random.Random(seed)
        self.t = [rng.random() for _ in range(256 * 256)]

    def value(self, x, y, salt=0):
        ix = math.floor(x)
        iy = math.floor(y)
        fx = x - ix
        fy = y - iy
        sx = fx * fx * (3.0 - 2.0 * fx)
        sy = fy * fy * (3.0 - 2.0 * fy)
        sa = (salt * 37) & 255
        sb = (salt * 101 + 11) & 255
        x0 = (ix + sa) & 255
        x1 = (ix + 1 + sa) & 255
        y0 = ((iy + sb) & 255) << 8
        y1 = ((iy + 1 + sb) & 255) << 8
        t = self.t
        a = t[y0 + x0]
        b = t[y0 + x1]
        top = a + (b - a) * sx
        c = t[y1 + x0]
        d = t[y1 + x1]
        bot = c + (d - c) * sx
        return top + (bot - top) * sy

    def fbm(self, x, y, octaves=4, salt=0):
        total = 0.0
        norm = 0.0
        amp = 1.0
        f = 1.0
        for o in range(octaves):
            total += amp * self.value(x * f, y * f, salt + o * 7)
            norm += amp
            amp *= 0.5
            f *= 2.0
        return total / norm


NOISE = Noise(777)


# ----------------------------------------------------------------------------------------------
# the scenario


def read_scenario(path):
    text = open(path, encoding="utf-8").read()
    # drop line comments
    text = "\n".join(line.split("//", 1)[0] if not line.strip().startswith('"') else line for line in text.splitlines())
    m = re.search(r"grid\s*:\s*(Square|Hex\s*\(\s*(PointyTop|FlatTop)\s*\))", text)
    grid = "square" if not m or m.group(1) == "Square" else ("flat" if m.group(2) == "FlatTop" else "pointy")
    legend = {}
    for lm in re.finditer(r"'(.)'\s*:\s*Custom\s*\(([^)]*)\)", text):
        body = lm.group(2)
        name = re.search(r'name\s*:\s*"([^"]*)"', body)
        colour = re.search(r'color\s*:\s*"#([0-9a-fA-F]{6})"', body)
        legend[lm.group(1)] = (
            name.group(1) if name else "",
            tuple(int(colour.group(1)[k:k + 2], 16) for k in (0, 2, 4)) if colour else None,
        )
    mm = re.search(r"map\s*:\s*\[(.*?)\]", text, re.S)
    rows = re.findall(r'"([^"]*)"', mm.group(1))
    return grid, legend, rows


def style_of(glyph, legend):
    """What to paint for a glyph."""
    if glyph in legend:
        name, colour = legend[glyph]
        low = name.lower()
        for key, style in (("reed", "reeds"), ("marsh", "reeds"), ("tree", "trees"), ("wood", "trees"),
                           ("forest", "trees"), ("undergrowth", "bushes"), ("bush", "bushes"),
                           ("water", "water"), ("river", "water"), ("rubble", "rubble"), ("mud", "rough")):
            if key in low:
                return style, colour
        return "custom:" + (("%02x%02x%02x" % colour) if colour else "888888"), colour
    return {
        ".": "grass", "~": "water", "%": "rough", "=": "boulders", "*": "bushes", "^": "rubble",
        "#": "stone", "!": "stone",
    }.get(glyph, "grass"), None


class Layout:
    def __init__(self, grid, w, h):
        self.grid, self.w, self.h = grid, w, h
        r = 1.0 / SQ3
        if grid == "square":
            self.ox, self.oy = 0.0, 0.0
            self.gw, self.gh = float(w), float(h)
        elif grid == "flat":
            self.ox, self.oy = -r, -0.5
            self.gw = (w - 1) * SQ3 / 2 + 2 * r
            self.gh = h + (0.5 if w > 1 else 0.0)
        else:
            self.ox, self.oy = -0.5, -r
            self.gw = w + (0.5 if h > 1 else 0.0)
            self.gh = (h - 1) * SQ3 / 2 + 2 * r
        self.width = int(math.ceil(self.gw * PX - 1e-6))
        self.height = int(math.ceil(self.gh * PX - 1e-6))

    def centre(self, c, r):
        if self.grid == "square":
            return c + 0.5, r + 0.5
        if self.grid == "flat":
            return c * SQ3 / 2, r + 0.5 * (c & 1)
        return c + 0.5 * (r & 1), r * SQ3 / 2

    def cell_at(self, gx, gy):
        """The (column, row) of the map cell nearest (gx, gy) (clamped into the map)."""
        w, h = self.w, self.h
        if self.grid == "square":
            return min(max(int(math.floor(gx)), 0), w - 1), min(max(int(math.floor(gy)), 0), h - 1)
        best = None
        if self.grid == "flat":
            c0 = int(math.floor(gx / (SQ3 / 2)))
            for c in (c0 - 1, c0, c0 + 1, c0 + 2):
                cc = min(max(c, 0), w - 1)
                r = int(round(gy - 0.5 * (cc & 1)))
                for rr in (r - 1, r, r + 1):
                    rr = min(max(rr, 0), h - 1)
                    x, y = self.centre(cc, rr)
                    d = (x - gx) ** 2 + (y - gy) ** 2
                    if best is None or d < best[0]:
                        best = (d, cc, rr)
        else:
            r0 = int(math.floor(gy / (SQ3 / 2)))
            for r in (r0 - 1, r0, r0 + 1, r0 + 2):
                rr = min(max(r, 0), h - 1)
                c = int(round(gx - 0.5 * (rr & 1)))
                for cc in (c - 1, c, c + 1):
                    cc = min(max(cc, 0), w - 1)
                    x, y = self.centre(cc, rr)
                    d = (x - gx) ** 2 + (y - gy) ** 2
                    if best is None or d < best[0]:
                        best = (d, cc, rr)
        return best[1], best[2]

    def to_px(self, gx, gy):
        return (gx - self.ox) * PX, (gy - self.oy) * PX


# ----------------------------------------------------------------------------------------------
# fields on the coarse grid


def gaussian_blur(field, cw, ch, sigma):
    rad = max(1, int(math.ceil(sigma * 2.5)))
    ker = [math.exp(-(k * k) / (2 * sigma * sigma)) for k in range(-rad, rad + 1)]
    s = sum(ker)
    ker = [k / s for k in ker]
    tmp = [0.0] * (cw * ch)
    for j in range(ch):
        row = j * cw
        for i in range(cw):
            acc = 0.0
            for k, wgt in enumerate(ker):
                ii = min(max(i + k - rad, 0), cw - 1)
                acc += field[row + ii] * wgt
            tmp[row + i] = acc
    out = [0.0] * (cw * ch)
    for j in range(ch):
        for i in range(cw):
            acc = 0.0
            for k, wgt in enumerate(ker):
                jj = min(max(j + k - rad, 0), ch - 1)
                acc += tmp[jj * cw + i] * wgt
            out[j * cw + i] = acc
    return out


class Coarse:
    def __init__(self, width, height):
        self.cw = width // STEP + 2
        self.ch = height // STEP + 2

    def sample(self, field, x, y):
        """Bilinear sample at pixel (x, y)."""
        fx = x / STEP
        fy = y / STEP
        i = int(fx)
        j = int(fy)
        tx = fx - i
        ty = fy - j
        cw = self.cw
        if i >= cw - 1:
            i, tx = cw - 2, 1.0
        if j >= self.ch - 1:
            j, ty = self.ch - 2, 1.0
        k = j * cw + i
        a = field[k]
        b = field[k + 1]
        c = field[k + cw]
        d = field[k + cw + 1]
        top = a + (b - a) * tx
        return top + (c + (d - c) * tx - top) * ty


# ----------------------------------------------------------------------------------------------
# painting


class Image:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.r = [0.0] * (w * h)
        self.g = [0.0] * (w * h)
        self.b = [0.0] * (w * h)

    def paint(self, cx, cy, radius, fn):
        """fn(dx, dy, x, y) -> None or (colour, alpha), for pixels near (cx, cy)."""
        i0 = max(0, int(cx - radius))
        i1 = min(self.w - 1, int(cx + radius) + 1)
        j0 = max(0, int(cy - radius))
        j1 = min(self.h - 1, int(cy + radius) + 1)
        R, G, B = self.r, self.g, self.b
        for j in range(j0, j1 + 1):
            y = j + 0.5
            for i in range(i0, i1 + 1):
                x = i + 0.5
                res = fn(x - cx, y - cy, x, y)
                if res is None:
                    continue
                col, a = res
                if a <= 0.0:
                    continue
                if a > 1.0:
                    a = 1.0
                k = j * self.w + i
                R[k] += (col[0] - R[k]) * a
                G[k] += (col[1] - G[k]) * a
                B[k] += (col[2] - B[k]) * a


def render(path):
    grid, legend, rows = read_scenario(path)
    h = len(rows)
    w = max(len(r) for r in rows)
    rows = [r.ljust(w, ".") for r in rows]
    lay = Layout(grid, w, h)
    W, H = lay.width, lay.height
    rng = random.Random(4242)

    styles = {}
    cell_style = {}
    custom_colour = {}
    for r in range(h):
        for c in range(w):
            st, colour = style_of(rows[r][c], legend)
            styles.setdefault(st, len(styles))
            cell_style[(c, r)] = st
            if colour:
                custom_colour[st] = colour
    names = list(styles)

    # --- coarse fields: which terrain, after warping the boundaries with noise
    co = Coarse(W, H)
    cw, ch = co.cw, co.ch
    onehot = {st: [0.0] * (cw * ch) for st in names}
    big = [0.0] * (cw * ch)  # broad tone variation
    mid = [0.0] * (cw * ch)
    dry = [0.0] * (cw * ch)
    for j in range(ch):
        for i in range(cw):
            x, y = i * STEP, j * STEP
            nx, ny = x / 120.0, y / 120.0
            wx = (NOISE.fbm(nx, ny, 3, 1) - 0.5) * 0.55
            wy = (NOISE.fbm(nx, ny, 3, 2) - 0.5) * 0.55
            gx = lay.ox + x / PX + wx
            gy = lay.oy + y / PX + wy
            cell = lay.cell_at(gx, gy)
            k = j * cw + i
            onehot[cell_style[cell]][k] = 1.0
            big[k] = NOISE.fbm(x / 260.0, y / 260.0, 3, 5)
            mid[k] = NOISE.fbm(x / 60.0, y / 60.0, 3, 9)
            dry[k] = NOISE.fbm(x / 150.0, y / 150.0, 2, 13)
    weight = {st: gaussian_blur(f, cw, ch, 3.2) for st, f in onehot.items()}
    water_key = "water" if "water" in weight else None
    depth = gaussian_blur(onehot[water_key], cw, ch, 7.0) if water_key else None
    reeds = weight.get("reeds")
    # ripple field for the water, warped
    ripple = [0.0] * (cw * ch)
    if water_key:
        for j in range(ch):
            for i in range(cw):
                k = j * cw + i
                if weight[water_key][k] < 0.05:
                    continue
                x, y = i * STEP, j * STEP
                wx = (NOISE.fbm(x / 90.0, y / 90.0, 2, 21) - 0.5) * 60
                wy = (NOISE.fbm(x / 90.0, y / 90.0, 2, 23) - 0.5) * 60
                ripple[k] = NOISE.fbm((x + wx) / 45.0, (y + wy) / 150.0, 3, 25)

    # --- base colours, pixel by pixel
    img = Image(W, H)
    R, G, B = img.r, img.g, img.b
    land_styles = [st for st in names if st != "water"]
    wfields = [(st, weight[st]) for st in land_styles]
    wat = weight.get("water")
    sample = co.sample
    fine_v = NOISE.value
    for y in range(H):
        for x in range(W):
            fb = sample(big, x, y)
            fm = sample(mid, x, y)
            fine = fine_v(x / 3.2, y / 3.2, 31) + 0.5 * fine_v(x / 1.4, y / 1.4, 33)
            gr = (rng.random() - 0.5)
            # land: the weighted blend of the land terrains here
            tot = 0.0
            cr = cg = cb = 0.0
            for st, f in wfields:
                wgt = sample(f, x, y)
                if wgt < 0.004:
                    continue
                col = land_colour(st, x, y, fb, fm, fine, gr, sample(dry, x, y), custom_colour)
                cr += col[0] * wgt
                cg += col[1] * wgt
                cb += col[2] * wgt
                tot += wgt
            if tot > 0:
                land = (cr / tot, cg / tot, cb / tot)
            else:
                land = (96, 110, 64)
            k = y * W + x
            if wat is not None:
                ww = sample(wat, x, y)
                dpt = sample(depth, x, y)
                if dpt > 0.04:
                    # muddy bank on the land side, darker and wetter near the water
                    bank = max(smoothstep(0.08, 0.3, dpt + (fm - 0.5) * 0.22), smoothstep(0.1, 0.4, ww))
                    mud = mix((128, 110, 80), (84, 74, 56), smoothstep(0.25, 0.5, ww))
                    mud = (mud[0] + (fine - 0.75) * 18 + gr * 8, mud[1] + (fine - 0.75) * 16 + gr * 8,
                           mud[2] + (fine - 0.75) * 12 + gr * 6)
                    land = mix(land, mud, 0.85 * bank)
                    wm = smoothstep(0.44, 0.54, ww)
                    if wm > 0:
                        dp = smoothstep(0.45, 0.95, dpt)
                        wc = mix((78, 108, 100), (40, 74, 86), dp)
                        wc = mix(wc, (30, 60, 74), 0.5 * smoothstep(0.6, 1.0, dp) * fb)
                        rp = sample(ripple, x, y)
                        fr = (rp * 7.0) % 1.0
                        band = math.exp(-((fr - 0.5) / 0.12) ** 2)
                        trough = math.exp(-((fr - 0.28) / 0.12) ** 2)
                        wc = mix(wc, (150, 188, 184), 0.16 * band * (0.4 + 0.6 * fm))
                        wc = (wc[0] * (1 - 0.05 * trough), wc[1] * (1 - 0.05 * trough), wc[2] * (1 - 0.05 * trough))
                        # a pale line of foam and light along the shore
                        shore = math.exp(-((ww - 0.56) / 0.045) ** 2)
                        wc = mix(wc, (170, 190, 176), 0.3 * shore)
                        wc = (wc[0] + gr * 2, wc[1] + gr * 2, wc[2] + gr * 2)
                        land = mix(land, wc, wm)
            R[k], G[k], B[k] = land

    # --- strokes and objects
    paint_details(img, lay, co, weight, rng, cell_style, rows)
    return img


def land_colour(st, x, y, fb, fm, fine, gr, dr, custom):
    if st == "grass":
        t = clamp(0.5 + (fm - 0.5) * 1.7)
        c = mix((72, 90, 48), (112, 126, 70), t)
        c = mix(c, (128, 126, 80), 0.45 * smoothstep(0.5, 0.72, dr))
        c = mix(c, (66, 84, 46), 0.22 * smoothstep(0.55, 0.75, fb))
        f = (fine - 0.75) * 18 + gr * 4
        return (c[0] + f, c[1] + f, c[2] + f * 0.7)
    if st == "reeds":
        # boggy ground: murky pools and mud
        pool = smoothstep(0.4, 0.65, fm)
        c = mix((96, 90, 62), (62, 78, 62), pool)
        f = (fine - 0.75) * 16 + gr * 5
        return (c[0] + f, c[1] + f, c[2] + f * 0.8)
    if st == "rough":
        c = mix((88, 74, 52), (128, 110, 78), clamp(0.5 + (fm - 0.5) * 2))
        f = (fine - 0.75) * 34 + gr * 12
        return (c[0] + f, c[1] + f * 0.9, c[2] + f * 0.7)
    if st == "boulders":
        return land_colour("grass", x, y, fb, fm, fine, gr, dr, custom)
    if st == "bushes":
        c = mix((56, 74, 46), (84, 102, 66), fm)
        f = (fine - 0.75) * 20 + gr * 8
        return (c[0] + f, c[1] + f, c[2] + f)
    if st == "trees":
        c = mix((40, 50, 32), (62, 70, 44), fm)
        f = (fine - 0.75) * 16 + gr * 6
        return (c[0] + f, c[1] + f, c[2] + f)
    if st == "rubble":
        c = mix((96, 84, 64), (130, 116, 92), fm)
        f = (fine - 0.75) * 30 + gr * 12
        return (c[0] + f, c[1] + f, c[2] + f)
    if st == "stone":
        c = mix((60, 66, 78), (84, 90, 102), fm)
        f = (fine - 0.75) * 20 + gr * 8
        return (c[0] + f, c[1] + f, c[2] + f)
    colour = custom.get(st, (136, 136, 136))
    k = 0.85 + 0.3 * fm
    f = (fine - 0.75) * 16 + gr * 6
    return (colour[0] * k + f, colour[1] * k + f, colour[2] * k + f)


def paint_details(img, lay, co, weight, rng, cell_style, rows):
    W, H = img.w, img.h
    sample = co.sample

    def wt(st, x, y):
        f = weight.get(st)
        return 0.0 if f is None else sample(f, x, y)

    def land_here(x, y):
        return wt("water", x, y) < 0.4

    # grass: tufts of darker and lighter blades
    n = int(W * H / 110)
    for _ in range(n):
        x, y = rng.uniform(0, W), rng.uniform(0, H)
        g = wt("grass", x, y) + wt("boulders", x, y)
        if g < 0.6 or not land_here(x, y) or rng.random() > g:
            continue
        light = rng.random() < 0.5
        col = mix((120, 136, 78), (146, 150, 94), rng.random()) if light else mix((52, 68, 38), (68, 86, 46), rng.random())
        for _ in range(3):
            a = rng.uniform(0, 2 * math.pi)
            ln = rng.uniform(2.0, 4.5)
            bx, by = x + math.cos(a) * ln, y + math.sin(a) * ln

            def blade(dx, dy, u, v, ax=x, ay=y, bx=bx, by=by, col=col):
                return (col, 0.5 * clamp(0.85 - seg_dist(u, v, ax, ay, bx, by)))

            img.paint(x, y, 5, blade)
    # a few pale flowers
    for _ in range(int(W * H / 3000)):
        x, y = rng.uniform(0, W), rng.uniform(0, H)
        if wt("grass", x, y) < 0.8 or not land_here(x, y):
            continue
        col = rng.choice([(226, 214, 150), (218, 206, 200), (230, 226, 210), (196, 160, 190)])
        for _ in range(rng.randint(1, 4)):
            fx, fy = x + rng.gauss(0, 4), y + rng.gauss(0, 4)

            def flower(dx, dy, u, v, col=col):
                return (col, 0.85 * clamp(1.1 - math.sqrt(dx * dx + dy * dy)))

            img.paint(fx, fy, 2.5, flower)

    # pebbles on the banks and on rough ground
    for _ in range(int(W * H / 260)):
        x, y = rng.uniform(0, W), rng.uniform(0, H)
        ww = wt("water", x, y)
        rough = wt("rough", x, y)
        on_bank = 0.12 < ww < 0.45
        if not (on_bank and rng.random() < 0.5) and not (rough > 0.55 and rng.random() < rough):
            continue
        rad = rng.uniform(1.2, 3.6) if rough > 0.55 else rng.uniform(1.0, 2.6)
        col = mix((112, 104, 90), (170, 160, 140), rng.random())
        pebble(img, x, y, rad, col, rng)

    # reeds: olive-yellow stalks in clumps, with dark water between
    for _ in range(int(W * H / 40)):
        x, y = rng.uniform(0, W), rng.uniform(0, H)
        r = wt("reeds", x, y)
        if r < 0.3 or rng.random() > smoothstep(0.3, 0.7, r):
            continue
        clump = NOISE.fbm(x / 22.0, y / 22.0, 2, 41)
        if clump < 0.38:
            continue
        ln = rng.uniform(8, 20)
        tilt = (NOISE.value(x / 40.0, y / 40.0, 43) - 0.5) * 0.5 + rng.uniform(-0.1, 0.1)
        dx, dy = math.sin(tilt) * ln / 2, math.cos(tilt) * ln / 2
        ax, ay, bx, by = x - dx, y - dy, x + dx, y + dy
        col = mix((124, 120, 64), (190, 176, 104), rng.random())

        def under(ddx, ddy, u, v, ax=ax, ay=ay, bx=bx, by=by):
            return ((34, 42, 28), 0.35 * clamp(1.7 - seg_dist(u, v, ax, ay, bx, by)))

        def reed(ddx, ddy, u, v, ax=ax, ay=ay, bx=bx, by=by, col=col):
            return (col, clamp(0.75 - seg_dist(u, v, ax, ay, bx, by) + 0.3))

        img.paint(x, y, ln / 2 + 3, under)
        img.paint(x, y, ln / 2 + 2, reed)
        if rng.random() < 0.1:
            def cattail(ddx, ddy, u, v, bx=bx, by=by, tilt=tilt):
                ux, uy = math.sin(tilt), math.cos(tilt)
                rx, ry = u - (bx - ux * 2), v - (by - uy * 2)
                along = rx * ux + ry * uy
                across = -rx * uy + ry * ux
                d = math.sqrt((along / 2.2) ** 2 + (across / 1.1) ** 2)
                return ((88, 64, 42), clamp((1.0 - d) * 2.0))

            img.paint(bx, by, 5, cattail)

    # boulders for low obstacles; bushes; trees
    for (c, r), st in sorted(cell_style.items()):
        gx, gy = lay.centre(c, r)
        cx, cy = lay.to_px(gx, gy)
        if st == "boulders":
            count = rng.randint(2, 3)
            for k in range(count):
                a = 2 * math.pi * k / count + rng.uniform(-0.5, 0.5)
                d = rng.uniform(8, 16)
                boulder(img, cx + math.cos(a) * d, cy + math.sin(a) * d, rng.uniform(11, 16), rng)
            boulder(img, cx + rng.uniform(-3, 3), cy + rng.uniform(-3, 3), rng.uniform(7, 9), rng)
        elif st in ("bushes", "trees"):
            big = st == "trees"
            for _ in range(3 if big else 6):
                rad = rng.uniform(20, 30) if big else rng.uniform(9, 15)
                crown(img, cx + rng.uniform(-18, 18), cy + rng.uniform(-18, 18), rad, rng, big)
        elif st == "rubble":
            for _ in range(9):
                pebble(img, cx + rng.uniform(-30, 30), cy + rng.uniform(-30, 30), rng.uniform(3, 8),
                       mix((110, 102, 90), (158, 148, 132), rng.random()), rng)


def pebble(img, x, y, rad, col, rng):
    ph = rng.uniform(0, 2 * math.pi)
    amp = rng.uniform(0.05, 0.2)

    def fn(dx, dy, u, v):
        d = math.sqrt(dx * dx + dy * dy)
        rr = rad * (1 + amp * math.sin(2 * math.atan2(dy, dx) + ph))
        if d > rr + 1.8:
            return None
        if d > rr:
            return ((48, 40, 30), 0.4 * clamp((rr + 1.8 - d) / 1.8))
        h = math.sqrt(max(0.0, 1 - (d / (rr + 0.5)) ** 2))
        c = (col[0] * (0.74 + 0.36 * h), col[1] * (0.74 + 0.36 * h), col[2] * (0.74 + 0.36 * h))
        return (c, clamp(rr - d + 0.5))

    img.paint(x, y, rad * 1.3 + 3, fn)


def boulder(img, x, y, rad, rng):
    base = mix((118, 114, 104), (150, 144, 130), rng.random())
    phs = [rng.uniform(0, 2 * math.pi) for _ in range(3)]
    amps = [rng.uniform(0.04, 0.12) for _ in range(3)]

    def outline(a):
        return rad * (1 + sum(am * math.sin((k + 2) * a + ph) for k, (am, ph) in enumerate(zip(amps, phs))))

    def shadow(dx, dy, u, v):
        d = math.sqrt(dx * dx + dy * dy) - outline(math.atan2(dy, dx))
        if d > 6:
            return None
        return ((26, 30, 20), 0.5 * clamp((6 - d) / 6))

    def rock(dx, dy, u, v):
        d = math.sqrt(dx * dx + dy * dy)
        rr = outline(math.atan2(dy, dx))
        if d > rr + 0.5:
            return None
        h = math.sqrt(max(0.0, 1 - (d / (rr + 0.5)) ** 2))
        n = NOISE.fbm(u / 7.0, v / 7.0, 3, 51)
        c = mix(base, (base[0] * 1.15, base[1] * 1.15, base[2] * 1.12), n)
        c = (c[0] * (0.62 + 0.45 * h), c[1] * (0.62 + 0.45 * h), c[2] * (0.62 + 0.45 * h))
        moss = smoothstep(0.55, 0.7, NOISE.fbm(u / 9.0, v / 9.0, 2, 53)) * (1 - h * 0.3)
        c = mix(c, (84, 104, 58), 0.7 * moss)
        return (c, clamp(rr - d + 0.5))

    img.paint(x, y, rad * 1.2 + 7, shadow)
    img.paint(x, y, rad * 1.2 + 2, rock)


def crown(img, x, y, rad, rng, tree):
    dark = (26, 42, 26) if tree else (40, 56, 38)
    light = (82, 112, 58) if tree else (100, 122, 80)
    ph = rng.uniform(0, 6.3)

    def shadow(dx, dy, u, v):
        d = math.sqrt(dx * dx + dy * dy) - rad
        if d > 7:
            return None
        return ((18, 24, 16), 0.55 * clamp((7 - d) / 7))

    def body(dx, dy, u, v):
        d = math.sqrt(dx * dx + dy * dy)
        leaf = NOISE.fbm(u / 3.0, v / 3.0, 2, 61)
        rr = rad * (1 + 0.08 * math.sin(5 * math.atan2(dy, dx) + ph)) + (leaf - 0.5) * 5
        if d > rr + 0.5:
            return None
        h = math.sqrt(max(0.0, 1 - (d / (rr + 0.5)) ** 2))
        c = mix(dark, light, 0.2 + 0.8 * h)
        f = (leaf - 0.5) * 40
        c = (c[0] + f, c[1] + f, c[2] + f * 0.7)
        return (c, clamp(rr - d + 0.5))

    img.paint(x, y, rad + 8, shadow)
    img.paint(x, y, rad * 1.2 + 4, body)


# ----------------------------------------------------------------------------------------------
# PNG


def write_png(path, img):
    w, h = img.w, img.h
    R, G, B = img.r, img.g, img.b
    raw = bytearray()
    prev = bytearray(w * 3)
    for y in range(h):
        line = bytearray(w * 3)
        for x in range(w):
            k = y * w + x
            for c, arr in enumerate((R, G, B)):
                val = int(arr[k] + 0.5)
                line[x * 3 + c] = 0 if val < 0 else 255 if val > 255 else val
        # choose a filter per row: the one with the smallest sum of absolute residuals
        cands = []
        sub = bytearray(len(line))
        up = bytearray(len(line))
        pae = bytearray(len(line))
        for i in range(len(line)):
            a = line[i - 3] if i >= 3 else 0
            b = prev[i]
            c = prev[i - 3] if i >= 3 else 0
            sub[i] = (line[i] - a) & 255
            up[i] = (line[i] - b) & 255
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pr = a if (pa <= pb and pa <= pc) else (b if pb <= pc else c)
            pae[i] = (line[i] - pr) & 255
        for ftype, data in ((1, sub), (2, up), (4, pae)):
            score = sum(v if v < 128 else 256 - v for v in data)
            cands.append((score, ftype, data))
        cands.sort(key=lambda t: (t[0], t[1]))
        raw.append(cands[0][1])
        raw += cands[0][2]
        prev = line

    def chunk(tag, data):
        c = struct.pack(">I", len(data)) + tag + data
        return c + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"sRGB", b"\x00")
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(png)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join("scenes", "river_ford.ron")
    stem = os.path.splitext(os.path.basename(src))[0]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join("scenes", "maps", stem + ".png")
    img = render(src)
    write_png(out, img)
    print(f"wrote {out} ({img.w} x {img.h}, {os.path.getsize(out)} bytes)")


if __name__ == "__main__":
    main()
