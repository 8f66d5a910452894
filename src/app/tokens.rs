//! Creatures and objects as entities: their components from the scenario, and their look on the
//! map: a tinted footprint covering the whole space, a disc coloured by side, and a name label.

use bevy::prelude::*;
use bevy::sprite::Anchor;

use super::components::*;
use super::layout::{BoardLayout, PIXELS_PER_UNIT};
use super::state::{LoadedScenario, ScenarioChanged};
use crate::rules::{Cell, Footprint, Grid, Size};
use crate::scenario::{RuleOptions, Token};
use crate::ui::style::token_color;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, spawn_tokens.run_if(on_message::<ScenarioChanged>).in_set(super::AppSystems::Build));
}

/// Marks a token's root entity.
#[derive(Component, Clone, Copy, Debug, Default)]
pub(super) struct TokenMarker;

/// Where the token's disc is drawn and how big, in world units (for picking and overlays).
/// Its look is built around `home_anchor`; when the token moves, the whole token is translated.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub(super) struct TokenDisc {
    /// The disc's centre where the token stands now.
    pub center: Vec2,
    pub radius: f32,
    /// The anchor and disc centre the token's look was built at.
    pub home_anchor: Cell,
    pub home_center: Vec2,
}

const TOKEN_Z: f32 = 10.0;

/// The radius of a token's disc, in grid units, by the space it covers.
fn disc_radius(grid: Grid, size: Size, square_side: Option<u32>) -> f32 {
    match (grid, size) {
        (_, Size::Tiny) => 0.22,
        (Grid::Square, _) => 0.42 * Footprint::of(grid, size, square_side).len().isqrt() as f32,
        (Grid::Hex(_), Size::Small | Size::Medium) => 0.42,
        (Grid::Hex(_), Size::Large) => 0.7,
        (Grid::Hex(_), Size::Huge) => 1.2,
        (Grid::Hex(_), Size::Gargantuan) => 1.45,
    }
}

/// The centre of a token's disc: the middle of its space; Tiny creatures sharing a cell take a
/// quarter each (`tiny_index` is their place among the Tiny ones in that cell).
pub(super) fn disc_center(layout: &BoardLayout, cells: &[Cell], tiny_index: Option<usize>) -> Vec2 {
    let sum: Vec2 = cells.iter().map(|&c| layout.world(c)).sum();
    let center = sum / cells.len().max(1) as f32;
    match tiny_index {
        Some(i) => {
            let quarter = [Vec2::new(-1.0, 1.0), Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, -1.0)];
            center + quarter[i % 4] * 0.24 * PIXELS_PER_UNIT
        }
        None => center,
    }
}

#[allow(clippy::too_many_arguments)]
fn spawn_tokens(
    mut commands: Commands,
    loaded: Res<LoadedScenario>,
    old: Query<Entity, With<TokenMarker>>,
    mut meshes: Option<ResMut<Assets<Mesh>>>,
    mut materials: Option<ResMut<Assets<ColorMaterial>>>,
) {
    for entity in &old {
        commands.entity(entity).despawn();
    }
    let scenario = &loaded.scenario;
    let layout = BoardLayout::of(&scenario.map);
    let mut tiny_in_cell: std::collections::HashMap<Cell, usize> = Default::default();
    for (order, token) in scenario.tokens.iter().enumerate() {
        let cells = token.cells(scenario.grid);
        let tiny_index = (token.size == Size::Tiny).then(|| {
            let n = tiny_in_cell.entry(token.anchor).or_default();
            *n += 1;
            *n - 1
        });
        let center = disc_center(&layout, &cells, tiny_index);
        let disc = TokenDisc {
            center,
            radius: disc_radius(scenario.grid, token.size, token.square_side) * PIXELS_PER_UNIT,
            home_anchor: token.anchor,
            home_center: center,
        };
        let mut entity = commands.spawn((
            TokenMarker,
            components(token, scenario.rules),
            RosterOrder(order),
            disc,
            Transform::from_translation(Vec3::new(0.0, 0.0, TOKEN_Z + order as f32 * 0.01)),
            Visibility::default(),
        ));
        if let Some(facing) = token.facing {
            entity.insert(Facing(facing));
        }
        if let Some(shield) = token.shield {
            entity.insert(Shield(shield));
        }
        if token.player_character {
            entity.insert(PlayerCharacter);
        }
        if token.hidden {
            entity.insert(Secret);
        }
        if let (Some(meshes), Some(materials)) = (meshes.as_deref_mut(), materials.as_deref_mut()) {
            let root = entity.id();
            spawn_visuals(&mut commands, root, token, &layout, &cells, disc, meshes, materials);
        }
    }
}

fn components(token: &Token, rules: RuleOptions) -> impl Bundle {
    (
        TokenId(token.id.clone()),
        DisplayName(token.name.clone()),
        Position(token.anchor),
        CreatureSize { size: token.size, square_side: token.square_side },
        Allegiance(token.side),
        Kind(token.kind),
        Vitals { ac: token.ac, speed: token.speed, exhaustion: token.exhaustion },
        HitPoints(token.health()),
        Combatant {
            sheet: token.sheet(),
            conditions: token.conditions.clone(),
            defenses: token.defenses.clone(),
            arcs: token.arcs,
            dodging: false,
            helped_against: None,
            helped_by: None,
            average_damage: token.deals_average_damage(rules),
            hidden: None,
        },
        Actions::default(),
        AbilityModifiers(token.abilities),
    )
}

#[allow(clippy::too_many_arguments)]
fn spawn_visuals(
    commands: &mut Commands,
    root: Entity,
    token: &Token,
    layout: &BoardLayout,
    cells: &[Cell],
    disc: TokenDisc,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<ColorMaterial>,
) {
    let [r, g, b] = token_color(token.side, token.kind);
    let color = Color::srgb_u8(r, g, b);
    if token.size != Size::Tiny {
        let footprint = footprint_mesh(layout, cells);
        commands.spawn((
            Mesh2d(meshes.add(footprint)),
            MeshMaterial2d(materials.add(color.with_alpha(0.32))),
            Transform::from_xyz(0.0, 0.0, 0.0),
            ChildOf(root),
        ));
    }
    let outline = 3.0;
    commands.spawn((
        Mesh2d(meshes.add(Circle::new(disc.radius))),
        MeshMaterial2d(materials.add(Color::srgb_u8(18, 18, 22))),
        Transform::from_translation(disc.center.extend(0.1)),
        ChildOf(root),
    ));
    commands.spawn((
        Mesh2d(meshes.add(Circle::new(disc.radius - outline))),
        MeshMaterial2d(materials.add(color)),
        Transform::from_translation(disc.center.extend(0.2)),
        ChildOf(root),
    ));
    if let Some(facing) = token.facing {
        // A notch on the disc's rim, drawn pointing east and turned the way the creature faces.
        let angle = -(facing.degrees(layout.grid) as f32).to_radians();
        let tip = Vec2::X * (disc.radius + 13.0);
        let side = |turn: f32| Vec2::from_angle(turn) * (disc.radius - 1.0);
        commands.spawn((
            super::fight::looks::FacingNotch,
            Mesh2d(meshes.add(Triangle2d::new(tip, side(0.42), side(-0.42)))),
            MeshMaterial2d(materials.add(Color::srgb_u8(240, 236, 220))),
            Transform::from_translation(disc.center.extend(0.7)).with_rotation(Quat::from_rotation_z(angle)),
            ChildOf(root),
        ));
    }
    super::fight::looks::spawn(commands, root, disc);
    let font_size = if token.size == Size::Tiny { 9.0 } else { 13.0 };
    let label_y = disc.center.y - disc.radius - font_size * 0.75;
    let width = token.name.chars().count() as f32 * font_size * 0.62 + 8.0;
    commands.spawn((
        Sprite::from_color(Color::srgba(0.05, 0.05, 0.07, 0.78), Vec2::new(width, font_size * 1.35)),
        Transform::from_translation(Vec3::new(disc.center.x, label_y, 0.3)),
        ChildOf(root),
    ));
    commands.spawn((
        Text2d::new(token.name.clone()),
        TextFont::from_font_size(font_size),
        TextColor(Color::WHITE),
        Anchor::CENTER,
        Transform::from_translation(Vec3::new(disc.center.x, label_y, 0.4)),
        ChildOf(root),
    ));
    let initials: String = initials(&token.name);
    commands.spawn((
        Text2d::new(initials),
        TextFont::from_font_size((disc.radius * 0.8).clamp(8.0, 40.0)),
        TextColor(Color::WHITE),
        Anchor::CENTER,
        Transform::from_translation(disc.center.extend(0.4)),
        ChildOf(root),
    ));
}

/// One or two letters for the disc: the first letters of the first two words.
fn initials(name: &str) -> String {
    name.split_whitespace().take(2).filter_map(|w| w.chars().next()).flat_map(char::to_uppercase).collect()
}

/// A mesh of the token's cells, each slightly inset so the grid still shows between them.
fn footprint_mesh(layout: &BoardLayout, cells: &[Cell]) -> Mesh {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{Indices, PrimitiveTopology};
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    for &cell in cells {
        let center = layout.world(cell);
        let base = positions.len() as u32;
        positions.push([center.x, center.y, 0.0]);
        let corners = layout.corners(cell);
        for corner in &corners {
            let p = center.lerp(*corner, 0.94);
            positions.push([p.x, p.y, 0.0]);
        }
        let n = corners.len() as u32;
        for i in 0..n {
            indices.extend_from_slice(&[base, base + 1 + (i + 1) % n, base + 1 + i]);
        }
    }
    let normals = vec![[0.0, 0.0, 1.0]; positions.len()];
    let uvs = vec![[0.0, 0.0]; positions.len()];
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initials_take_the_first_letters() {
        assert_eq!(initials("Bandit captain"), "BC");
        assert_eq!(initials("Brom"), "B");
        assert_eq!(initials("Gorm the bouncer"), "GT");
    }
}
