// bevy_egui 0.42's `egui.wgsl` (MIT or Apache-2.0) made cheaper for software rendering: the
// texture is read as stored, gamma-encoded, so it is not converted to linear light and back, and
// the one conversion left uses square roots and a cubic polynomial instead of `pow` per channel
// (relative error under 2e-4, so no 8-bit sRGB output level moves by more than 1). Installed over
// bevy_egui's shader by `app::view::panels::render_plugin`; docs/performance.md has the figures.

struct Transform {
    scale: vec2<f32>,
    translation: vec2<f32>,
}

struct VertexInput {
    @location(0) position: vec2<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) color: vec4<f32>,
}

struct VertexOutput {
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) uv: vec2<f32>,
}

@group(0) @binding(0) var<uniform> transform: Transform;

#ifdef BINDLESS
@group(1) @binding(0) var image_texture: binding_array<texture_2d<f32>>;
@group(1) @binding(1) var image_sampler: binding_array<sampler>;

struct BindlessOffset {
    offset: u32,
};
var<immediate> offset: BindlessOffset;

#else //BINDLESS
@group(1) @binding(0) var image_texture: texture_2d<f32>;
@group(1) @binding(1) var image_sampler: sampler;
#endif // BINDLESS

// 0-1 linear from 0-1 sRGB gamma: ((x + 0.055) / 1.055)^2.4 above the linear toe, as
// y^2 * sqrt(y) * y^-0.1 with y^-0.1 = r^-0.4 (r = y^(1/4), from 0.55 to 1) a cubic in r.
fn linear_from_gamma_rgb(srgb: vec3<f32>) -> vec3<f32> {
    let cutoff = srgb < vec3<f32>(0.04045);
    let lower = srgb / vec3<f32>(12.92);
    let y = (srgb + vec3<f32>(0.055)) / vec3<f32>(1.055);
    let s = sqrt(y);
    let r = sqrt(s);
    let p = 2.1450931549 + r * (-2.4508319998 + r * (1.8773675803 + r * -0.5717936319));
    let higher = y * y * s * p;
    return select(higher, lower, cutoff);
}

@vertex
fn vs_main(in: VertexInput) -> VertexOutput {
    let position = in.position * transform.scale + transform.translation;
    return VertexOutput(vec4<f32>(position, 0.0, 1.0), in.color, in.uv);
}

@fragment
fn fs_main(in: VertexOutput) -> @location(0) vec4<f32> {
    #ifdef BINDLESS
    let image_texture = image_texture[offset.offset];
    let image_sampler = image_sampler[offset.offset];
    #endif

    // As egui does: the colours multiply in gamma space, the only way text looks right. The
    // texture is read through a view of its bytes as stored, gamma-encoded
    // (`app::view::panels::read_egui_textures_as_stored`), so it needs no conversion.
    let texture_color_gamma = textureSample(image_texture, image_sampler, in.uv);
    let color_gamma = texture_color_gamma * in.color;

    return vec4<f32>(linear_from_gamma_rgb(color_gamma.rgb), color_gamma.a);
}
