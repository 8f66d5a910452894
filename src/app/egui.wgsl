// bevy_egui 0.42's `egui.wgsl` (MIT or Apache-2.0) with its two colour-space conversions made
// cheaper for software rendering: `pow` per channel became square roots and a cubic polynomial
// (relative error under 2e-4, so no 8-bit sRGB output level moves by more than 1). Installed
// over bevy_egui's shader by `app::panels::render_plugin`; docs/performance.md has the figures.

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

// 0-1 sRGB gamma from 0-1 linear: 1.055 * x^(5/12) - 0.055 above the linear toe, as
// x^(1/4) * x^(1/8) * x^(1/24) with x^(1/24) = e^(1/3) (e = x^(1/8), from 0.49 to 1) a cubic in e.
fn gamma_from_linear_rgb(rgb: vec3<f32>) -> vec3<f32> {
    let cutoff = rgb < vec3<f32>(0.0031308);
    let lower = rgb * vec3<f32>(12.92);
    let q = sqrt(sqrt(max(rgb, vec3<f32>(0.0))));
    let e = sqrt(q);
    let p = 0.4375293957 + e * (0.9367567738 + e * (-0.5233454385 + e * 0.1491334328));
    let higher = vec3<f32>(1.055) * q * e * p - vec3<f32>(0.055);
    return select(higher, lower, cutoff);
}

// 0-1 sRGBA gamma from 0-1 linear.
fn gamma_from_linear_rgba(linear_rgba: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(gamma_from_linear_rgb(linear_rgba.rgb), linear_rgba.a);
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

    // As egui does: the colours multiply in gamma space, the only way text looks right.
    let texture_color_linear = textureSample(image_texture, image_sampler, in.uv);
    let texture_color_gamma = gamma_from_linear_rgba(texture_color_linear);
    let color_gamma = texture_color_gamma * in.color;

    return vec4<f32>(linear_from_gamma_rgb(color_gamma.rgb), color_gamma.a);
}
