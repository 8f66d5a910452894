//! The chase being played: the rules' engine ([`Chases`]) between the chase feature, which runs
//! it, the session, which saves and restores it, and the screens, which show it.

use bevy::prelude::*;

use crate::rules::chase::Chases;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ChaseRun>();
}

/// The chases running, if any (after a split there may be several, played a round each in turn).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct ChaseRun {
    pub chases: Option<Chases>,
    /// Between turns, until the next participant takes the screen.
    pub awaiting_handover: bool,
    /// How many events of each chase are already in the session's roll log.
    pub logged: Vec<usize>,
}

impl ChaseRun {
    /// Puts back the chases of an undone or restored step; their events are in the log already.
    pub fn restore(&mut self, chases: Option<Chases>, awaiting_handover: bool) {
        self.logged = chases.iter().flat_map(|c| &c.chases).map(|c| c.events.len()).collect();
        self.chases = chases;
        self.awaiting_handover = awaiting_handover;
    }
}
