//! How the window's systems are run: one after another on their schedule's thread, in the main
//! world and in the render world (docs/performance.md).

use bevy::ecs::schedule::{Schedules, SingleThreadedExecutor};
use bevy::prelude::*;
use bevy::render::RenderApp;

/// Runs every schedule of the main world and of the render world with Bevy's single-threaded
/// executor, in the order of their dependencies, instead of handing systems out to the task pool.
/// The map's systems are small; the frame is the software renderer's work, which already keeps
/// every core busy. Waking pool threads for each system only took processor time from it: on the
/// 2-core benchmark machine, 2 ms of the tavern's frame while dragging. Rendering stays pipelined
/// (the render world still runs on its own thread, beside the next frame's update).
///
/// Applied when the plugins are finished, so that it finds the schedules every plugin has added.
pub(crate) struct SingleThreadedSchedules;

impl Plugin for SingleThreadedSchedules {
    fn build(&self, _app: &mut App) {}

    fn finish(&self, app: &mut App) {
        run_one_system_at_a_time(app.world_mut());
        if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
            run_one_system_at_a_time(render_app.world_mut());
        }
    }
}

fn run_one_system_at_a_time(world: &mut World) {
    if let Some(mut schedules) = world.get_resource_mut::<Schedules>() {
        for (_, schedule) in schedules.iter_mut() {
            schedule.set_executor(SingleThreadedExecutor::new());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::thread::ThreadId;

    use super::*;

    /// Every system of a schedule runs on the thread that runs the schedule: none is handed to
    /// the task pool, which has threads of its own.
    #[test]
    fn systems_run_one_after_another_on_the_schedules_thread() {
        let threads: Arc<Mutex<Vec<ThreadId>>> = Arc::default();
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, SingleThreadedSchedules));
        for _ in 0..16 {
            let threads = threads.clone();
            app.add_systems(Update, move || threads.lock().unwrap().push(std::thread::current().id()));
        }
        app.finish();
        app.cleanup();
        for _ in 0..4 {
            app.update();
        }
        let threads = threads.lock().unwrap();
        assert_eq!(threads.len(), 64);
        assert!(threads.iter().all(|&id| id == std::thread::current().id()));
    }
}
