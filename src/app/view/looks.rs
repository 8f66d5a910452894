//! What a token shows of its fight: a health bar (amber when bloodied, grey when dead), a badge
//! naming its state and conditions (and its place in a running chase), and the facing notch
//! turned the way it faces.

use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use bevy::sprite::Anchor;

use crate::app::core::components::{
    Allegiance, ChaseState, Combatant, Facing, HitPoints, LastingEffects, PlayerCharacter, TokenDisc, Vitals,
};
use crate::app::core::layout::MapLayout;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::Audience;
use crate::app::view::pictures::{EXHAUSTION_ICON, IconAtlas, condition_icon};
use crate::rules::chase::Role;
use crate::rules::conditions::Conditions;
use crate::rules::health::{Health, Life, Outward};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, update.in_set(AppSystems::Show));
}

/// The bar's full width behind the fill.
#[derive(Component, Clone, Copy, Debug)]
pub struct HealthBar {
    pub width: f32,
}

/// The bar's fill: its width is the share of hit points left.
#[derive(Component, Clone, Copy, Debug)]
pub struct HealthFill;

/// The text over the bar: bloodied, dying, conditions.
#[derive(Component, Clone, Copy, Debug)]
pub struct StateBadge;

/// The badge's dark backing, sized to its text.
#[derive(Component, Clone, Copy, Debug)]
pub struct StateBadgeBack;

/// The row of condition icons along the bottom of a token's disc; its children are the icons.
#[derive(Component, Clone, Copy, Debug)]
pub struct ConditionIcons {
    /// The disc's radius, which sizes the icons.
    radius: f32,
}

/// One condition's icon, naming the condition (exhaustion has `None`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConditionIcon(pub Option<crate::rules::conditions::Condition>);

/// The notch on the disc's rim, drawn pointing east and turned to the facing.
#[derive(Component, Clone, Copy, Debug)]
pub struct FacingNotch;

const BAR_HEIGHT: f32 = 6.0;
const BADGE_FONT: f32 = 11.0;
const BAR_BACK: Color = Color::srgb(0.08, 0.08, 0.1);

/// The bar's colour: green, amber when bloodied, red when down, grey when dead.
pub(crate) fn bar_color(health: &Health) -> Color {
    match health.life {
        Life::Dead => Color::srgb(0.45, 0.45, 0.45),
        Life::Dying | Life::Stable => Color::srgb(0.85, 0.2, 0.2),
        Life::Up if health.bloodied() => Color::srgb(0.95, 0.6, 0.15),
        Life::Up => Color::srgb(0.3, 0.8, 0.35),
    }
}

/// The share of the bar filled: hit points over the maximum.
pub(crate) fn bar_share(health: &Health) -> f32 {
    let max = health.max_now();
    if max <= 0 { 0.0 } else { (health.hp as f32 / max as f32).clamp(0.0, 1.0) }
}

/// The badge's words (the map's font has no middle dot, so commas): its place in a running chase,
/// its state (bloodied, dying, dead), its conditions, exhaustion and temporary hit points; `None`
/// when there is nothing to say.
pub(crate) fn badge_text(
    health: &Health,
    conditions: &Conditions,
    exhaustion: u8,
    dodging: bool,
    hidden: bool,
    chase: Option<&ChaseState>,
    effects: &[String],
) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    if let Some(chase) = chase {
        let role = if chase.roles.contains(&Role::Quarry) { "quarry" } else { "pursuer" };
        parts.push(format!("{role} at {} ft", chase.position));
    }
    match health.life {
        Life::Up if health.bloodied() => parts.push("bloodied".into()),
        Life::Up => {}
        life => parts.push(life.word().into()),
    }
    parts.extend(conditions.iter().map(|c| c.name().to_owned()));
    if exhaustion > 0 {
        parts.push(format!("exhaustion {exhaustion}"));
    }
    if health.temp_hp > 0 {
        parts.push(format!("+{} temp", health.temp_hp));
    }
    if dodging {
        parts.push("dodging".into());
    }
    if hidden {
        parts.push("hidden".into());
    }
    parts.extend(effects.iter().cloned());
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The conditions the badge names besides the effects' badges: a condition is left out where an
/// effect shown of the same name ("frightened 8r") already says it.
pub(crate) fn conditions_besides_effects(
    conditions: &Conditions,
    effects: Option<&LastingEffects>,
    dm: bool,
) -> Conditions {
    let mut shown = conditions.clone();
    for lasting in effects.into_iter().flat_map(|e| e.0.applying()).filter(|l| dm || !l.effect.secret) {
        for condition in crate::rules::conditions::Condition::ALL {
            if lasting.effect.name.eq_ignore_ascii_case(condition.name())
                && lasting.effect.conditions.contains(&condition)
            {
                shown.set(condition, false);
            }
        }
    }
    shown
}

/// A badge per effect in force, with its rounds left (`ui::effects::badge`); the players' view
/// leaves out the DM's secret ones.
pub(crate) fn effect_badges(effects: Option<&LastingEffects>, dm: bool) -> Vec<String> {
    let Some(effects) = effects else { return Vec::new() };
    effects
        .0
        .applying()
        .filter(|l| dm || !l.effect.secret)
        .map(|l| crate::ui::effects::badge(&l.effect.name, l.rounds_left))
        .collect()
}

/// Spawns the bar and the badge above a token's disc (as children of `root`).
pub(crate) fn spawn(commands: &mut Commands, root: Entity, disc: TokenDisc) {
    let width = (disc.radius * 1.7).max(26.0);
    let y = disc.center.y + disc.radius + 7.0;
    let left = disc.center.x - width / 2.0;
    commands.spawn((
        HealthBar { width },
        Sprite::from_color(BAR_BACK, Vec2::new(width + 2.0, BAR_HEIGHT + 2.0)),
        Transform::from_translation(Vec3::new(disc.center.x, y, 0.5)),
        ChildOf(root),
    ));
    commands.spawn((
        HealthFill,
        Sprite::from_color(Color::NONE, Vec2::new(width, BAR_HEIGHT)),
        Anchor::CENTER_LEFT,
        Transform::from_translation(Vec3::new(left, y, 0.55)),
        ChildOf(root),
    ));
    let badge_y = y + BAR_HEIGHT / 2.0 + BADGE_FONT * 1.1;
    commands.spawn((
        StateBadgeBack,
        Sprite::from_color(Color::srgba(0.05, 0.05, 0.07, 0.82), Vec2::ZERO),
        Transform::from_translation(Vec3::new(disc.center.x, badge_y, 0.6)),
        ChildOf(root),
    ));
    commands.spawn((
        ConditionIcons { radius: disc.radius },
        Transform::from_translation(Vec3::new(disc.center.x, disc.center.y - disc.radius * 0.72, 0.8)),
        Visibility::default(),
        ChildOf(root),
    ));
    commands.spawn((
        StateBadge,
        Text2d::new(""),
        TextFont::from_font_size(BADGE_FONT),
        TextColor(Color::srgb(1.0, 0.85, 0.6)),
        Anchor::CENTER,
        Transform::from_translation(Vec3::new(disc.center.x, badge_y, 0.65)),
        ChildOf(root),
    ));
}

/// What a token's bar, badge and notch show, and whether it changed.
#[derive(QueryData)]
pub(crate) struct Shown {
    hit_points: Ref<'static, HitPoints>,
    combatant: Ref<'static, Combatant>,
    vitals: Ref<'static, Vitals>,
    facing: Option<Ref<'static, Facing>>,
    children: Ref<'static, Children>,
    pc: Has<PlayerCharacter>,
    side: &'static Allegiance,
    chase: Option<Ref<'static, ChaseState>>,
    effects: Option<Ref<'static, LastingEffects>>,
}

/// Brings each changed token's bar, badge and notch up to date (every token when the audience
/// changes: the players see a monster's bar only as healthy, bloodied or down).
pub(crate) fn update(
    layout: Option<Res<MapLayout>>,
    audience: Res<Audience>,
    tokens: Query<Shown>,
    mut chase_ended: RemovedComponents<ChaseState>,
    bars: Query<&HealthBar>,
    mut sprites: Query<(&mut Sprite, Has<HealthFill>), Or<(With<HealthFill>, With<StateBadgeBack>)>>,
    mut badges: Query<&mut Text2d, With<StateBadge>>,
    mut notches: Query<&mut Transform, With<FacingNotch>>,
    rows: Query<(Entity, &ConditionIcons)>,
    icons: Option<Res<IconAtlas>>,
    mut commands: Commands,
) {
    let Some(board) = layout else { return };
    let ended = chase_ended.read().count() > 0;
    for ShownItem { hit_points, combatant, vitals, facing, children, pc, side, chase, effects } in &tokens {
        let changed = effects.as_ref().is_some_and(Ref::is_changed)
            || hit_points.is_changed()
            || combatant.is_changed()
            || vitals.is_changed()
            || facing.as_ref().is_some_and(Ref::is_changed)
            || chase.as_ref().is_some_and(Ref::is_changed)
            // Its bar and badge were just spawned: drawn once whatever else changed.
            || children.is_added();
        if !changed && !audience.is_changed() && !ended {
            continue;
        }
        let health = &hit_points.0;
        let exact = audience.sees_hit_points(pc, side.0);
        let width = children.iter().find_map(|c| bars.get(c).ok()).map_or(0.0, |b| b.width);
        let chase = chase.as_deref();
        let hidden = combatant.hidden.is_some();
        let lasting = effect_badges(effects.as_deref(), audience.dm);
        let conditions = conditions_besides_effects(&combatant.conditions, effects.as_deref(), audience.dm);
        let text = badge_text(health, &conditions, vitals.exhaustion, combatant.dodging, hidden, chase, &lasting)
            .unwrap_or_default();
        for child in children.iter() {
            if let Ok((mut sprite, is_fill)) = sprites.get_mut(child) {
                if is_fill {
                    sprite.color = bar_color(health);
                    let share = if exact { bar_share(health) } else { outward_share(health) };
                    sprite.custom_size = Some(Vec2::new(width * share, BAR_HEIGHT));
                } else {
                    let w = if text.is_empty() { 0.0 } else { text.chars().count() as f32 * BADGE_FONT * 0.56 + 8.0 };
                    sprite.custom_size = Some(Vec2::new(w, BADGE_FONT * 1.4));
                }
            }
            if let Ok(mut badge) = badges.get_mut(child) {
                badge.0.clone_from(&text);
            }
            if let (Ok((row, icons_row)), Some(atlas)) = (rows.get(child), icons.as_deref()) {
                show_condition_icons(
                    &mut commands,
                    row,
                    icons_row.radius,
                    &combatant.conditions,
                    vitals.exhaustion,
                    atlas,
                );
            }
            if let (Ok(mut notch), Some(facing)) = (notches.get_mut(child), facing.as_ref()) {
                notch.rotation = Quat::from_rotation_z(-(facing.0.degrees(board.0.grid) as f32).to_radians());
            }
        }
    }
}

/// Draws a token's conditions (and exhaustion) as a row of icons on dark discs, centred.
fn show_condition_icons(
    commands: &mut Commands,
    row: Entity,
    radius: f32,
    conditions: &Conditions,
    exhaustion: u8,
    atlas: &IconAtlas,
) {
    commands.entity(row).despawn_related::<Children>();
    let mut shown: Vec<(Option<crate::rules::conditions::Condition>, usize)> =
        conditions.iter().map(|c| (Some(c), condition_icon(c))).collect();
    if exhaustion > 0 {
        shown.push((None, EXHAUSTION_ICON));
    }
    let side = (radius * 0.5).clamp(10.0, 18.0);
    let step = side * 1.05;
    let first = -(shown.len() as f32 - 1.0) * step / 2.0;
    for (i, (condition, index)) in shown.into_iter().enumerate() {
        let x = first + i as f32 * step;
        commands.spawn((
            ConditionIcon(condition),
            Sprite::from_color(Color::srgba(0.1, 0.05, 0.12, 0.9), Vec2::splat(side)),
            Transform::from_translation(Vec3::new(x, 0.0, 0.0)),
            ChildOf(row),
            children![(
                atlas.sprite(index, side * 0.86, Color::srgb(1.0, 0.85, 0.6)),
                Transform::from_translation(Vec3::Z * 0.01)
            )],
        ));
    }
}

/// The bar the players see of a monster: full while healthy, half when bloodied, empty when
/// down.
pub(crate) fn outward_share(health: &Health) -> f32 {
    match health.outward() {
        Outward::Healthy => 1.0,
        Outward::Bloodied => 0.5,
        Outward::Down | Outward::Dead => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::conditions::Condition;
    use crate::rules::health::DeathSaves;

    #[test]
    fn the_badge_names_state_conditions_and_extras() {
        let mut health = Health::new(20, 20, false, DeathSaves::default());
        assert_eq!(badge_text(&health, &Conditions::default(), 0, false, false, None, &[]), None);
        health.take_damage(10, false);
        let prone = Conditions::new([Condition::Prone]);
        assert_eq!(
            badge_text(&health, &prone, 2, true, true, None, &[]).as_deref(),
            Some("bloodied, prone, exhaustion 2, dodging, hidden")
        );
        health.take_damage(10, false);
        assert_eq!(badge_text(&health, &Conditions::default(), 0, false, false, None, &[]).as_deref(), Some("dead"));
        assert_eq!(bar_share(&health), 0.0);
        assert_eq!(bar_color(&health), Color::srgb(0.45, 0.45, 0.45));
    }

    /// A badge per effect in force with its rounds left; a waiting one (same name, less potent)
    /// and, in the players' view, a secret one are left out.
    #[test]
    fn effects_get_badges_with_their_rounds_left() {
        use crate::rules::effects::{Duration, Effect, RepeatedSave, Source, TurnPoint};
        let mut effects = LastingEffects::default();
        let save = |dc| {
            Some(RepeatedSave { ability: crate::rules::creature::Ability::Wis, dc, at: TurnPoint::End, successes: 1 })
        };
        let strong = Effect { save: save(15), ..Effect::new("frightened", Source::Dm, Duration::Rounds(3)) };
        let weak = Effect { save: save(10), ..Effect::new("frightened", Source::Dm, Duration::Rounds(9)) };
        let secret = Effect { secret: true, ..Effect::new("cursed", Source::Dm, Duration::UntilRemoved) };
        for effect in [strong, weak, secret] {
            effects.0.give(effect).expect("valid");
        }
        assert_eq!(effect_badges(Some(&effects), true), vec!["frightened 3r", "cursed"]);
        assert_eq!(effect_badges(Some(&effects), false), vec!["frightened 3r"]);
        let health = Health::new(20, 20, false, DeathSaves::default());
        let badges = effect_badges(Some(&effects), false);
        let mut frightening = LastingEffects::default();
        let fear = Effect {
            conditions: vec![Condition::Frightened],
            ..Effect::new("frightened", Source::Dm, Duration::Rounds(8))
        };
        frightening.0.give(fear).expect("valid");
        let both = Conditions::new([Condition::Frightened, Condition::Prone]);
        assert_eq!(conditions_besides_effects(&both, Some(&frightening), false), Conditions::new([Condition::Prone]));
        assert_eq!(
            badge_text(&health, &Conditions::default(), 0, false, false, None, &badges).as_deref(),
            Some("frightened 3r")
        );
    }
}
