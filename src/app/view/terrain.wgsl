// The map's terrain and grid lines in one quad: each pixel finds its cell (square or hex, the
// same arithmetic as `rules::grid` and `app::core::layout`), reads the cell's colour from a texture of
// one texel per cell (columns and rows of the map's storage), and darkens it near the cell's
// edge. The lines are anti-aliased by the pixel's size in the world, so they fade instead of
// shimmering when the map is zoomed far out. Over that come the cell shades (`board::CellShades`:
// arcs, the sight overlay, a drag's reach, flanking cells, the area template): a second texture of one texel per cell holds their colour, premultiplied, and
// alpha, blended here as a translucent mesh over the cells would have been. Cost per pixel is the
// same whatever the map's size.

#import bevy_sprite::mesh2d_vertex_output::VertexOutput

// The grid is not a parameter: the shader is compiled for it (SQUARES, POINTY_HEXES or
// FLAT_HEXES, from `board::TerrainShaderKey`).
struct TerrainParams {
    columns: u32,
    rows: u32,
    // 1 to draw grid lines, 0 not to.
    lines: f32,
    // 1 when some cell is shaded, 0 when no cell is (the shade texture is then not read).
    shaded: f32,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> params: TerrainParams;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var cells: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var shades: texture_2d<f32>;

// World pixels per grid unit (`layout::PIXELS_PER_UNIT`).
const PIXELS_PER_UNIT: f32 = 64.0;
// Half a grid line's width in world pixels, and how dark its middle is.
const HALF_LINE: f32 = 1.6;
const LINE_DARKNESS: f32 = 0.45;
const SQRT3_2: f32 = 0.8660254;
// How far inside its cell a shade begins, in grid units: a shade covers its cell shrunk to 0.97
// about the centre, so a sliver of terrain stays between shaded neighbours.
const SHADE_INSET: f32 = 0.015;

// Axial coordinates rounded to the nearest hex (cube rounding).
fn round_hex(q: f32, r: f32) -> vec2<i32> {
    let s = -q - r;
    var rq = round(q);
    var rr = round(r);
    let rs = round(s);
    let dq = abs(rq - q);
    let dr = abs(rr - r);
    let ds = abs(rs - s);
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    return vec2<i32>(i32(rq), i32(rr));
}

// Floor division by 2 (toward minus infinity), as hexx's offset coordinates use.
fn half_down(v: i32) -> i32 {
    return (v - (v & 1)) / 2;
}

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    // Grid units: x east, y south.
    let g = vec2<f32>(in.world_position.x, -in.world_position.y) / PIXELS_PER_UNIT;
    // The cell's place in the textures, and how far inside its cell the point is, in grid units
    // (the inradius minus the reach toward the nearest side). One version of the shader per grid
    // (`board::TerrainShaderKey`): software rendering would run every branch for every pixel.
#ifdef SQUARES
    // The quad is the map exactly: a pixel on its edge is clamped into the edge's cell.
    let cell = floor(g);
    let storage = clamp(vec2<i32>(cell), vec2<i32>(0), vec2<i32>(i32(params.columns), i32(params.rows)) - 1);
    let f = g - cell;
    let inside = min(min(f.x, 1.0 - f.x), min(f.y, 1.0 - f.y));
#else
#ifdef POINTY_HEXES
    // Pointy tops: centre (q + r / 2, r * sqrt(3) / 2); odd rows sit half a hex east.
    let r = g.y / SQRT3_2;
    let hex = round_hex(g.x - r / 2.0, r);
    let centre = vec2<f32>(f32(hex.x) + f32(hex.y) / 2.0, f32(hex.y) * SQRT3_2);
    let storage = vec2<i32>(hex.x + half_down(hex.y), hex.y);
    let d = g - centre;
    let reach = max(abs(d.x), max(abs(dot(d, vec2<f32>(0.5, SQRT3_2))), abs(dot(d, vec2<f32>(-0.5, SQRT3_2)))));
#else
    // Flat tops: centre (q * sqrt(3) / 2, r + q / 2); odd columns sit half a hex south.
    let q = g.x / SQRT3_2;
    let hex = round_hex(q, g.y - q / 2.0);
    let centre = vec2<f32>(f32(hex.x) * SQRT3_2, f32(hex.y) + f32(hex.x) / 2.0);
    let storage = vec2<i32>(hex.x, hex.y + half_down(hex.x));
    let d = g - centre;
    let reach = max(abs(d.y), max(abs(dot(d, vec2<f32>(SQRT3_2, 0.5))), abs(dot(d, vec2<f32>(SQRT3_2, -0.5)))));
#endif
    let inside = 0.5 - reach;
    // The quad is the map's bounding box: outside the map's hexes nothing is drawn.
    if storage.x < 0 || storage.y < 0 || storage.x >= i32(params.columns) || storage.y >= i32(params.rows) {
        discard;
    }
#endif
    let colour = textureLoad(cells, storage, 0);
    // The line's coverage of this pixel: world pixels per screen pixel from the derivative.
    let pixel = max(fwidth(in.world_position.x), 1e-4);
    let distance = inside * PIXELS_PER_UNIT;
    let coverage = clamp((HALF_LINE - distance) / pixel + 0.5, 0.0, 1.0) * min(1.0, 2.0 * HALF_LINE / pixel);
    var lit = colour.rgb * (1.0 - LINE_DARKNESS * coverage * params.lines);
    if params.shaded > 0.5 && inside >= SHADE_INSET {
        let tint = textureLoad(shades, storage, 0);
        lit = lit * (1.0 - tint.a) + tint.rgb;
    }
    return vec4<f32>(lit, 1.0);
}
