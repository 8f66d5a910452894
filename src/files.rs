//! Writing files so that a crash or a kill never leaves one half written: [`write_atomically`],
//! used by `battlemap fmt` and by the app's Save and autosave; and [`write_in_place`] for a file
//! with several hard links.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// How many temporary names are tried before giving up (each is taken only when no file of that
/// name exists, so a leftover from a killed writer is stepped over, never written through).
const TEMPORARY_NAMES: u64 = 1000;

/// Distinguishes the temporary files of several writes by one process.
static NEXT_WRITE: AtomicU64 = AtomicU64::new(0);

/// Replaces the file at `path` with `text`, all or nothing: the text is written to a new
/// temporary file in the same directory (`.NAME.tmp-PID-N`), flushed to the disk, renamed over
/// `path`, and the directory is flushed too (best effort) so the rename itself is kept. A reader,
/// or a crash at any moment, sees the old text or the new, never a mix. On an error the
/// temporary file is removed and `path` is left as it was.
///
/// A symbolic link at `path` is followed: the file it points to is replaced. The new file gets
/// the old one's permissions. Temporary files left by a writer that was killed are left alone
/// (the name of this write's temporary file is always a new one).
pub fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    let target = match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path)?,
        _ => path.to_path_buf(),
    };
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, format!("{} is not a file name", path.display())))?
        .to_string_lossy()
        .into_owned();
    let directory = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (temporary, file) = create_temporary(&directory, &name)?;
    let written = fill(file, &target, text).and_then(|()| fs::rename(&temporary, &target));
    if let Err(error) = written {
        let _ = fs::remove_file(&temporary);
        return Err(error);
    }
    // The rename is in the directory: flush it too, so that after a power cut the file has the
    // new text rather than none. Not every platform can open a directory; that is no failure.
    if let Ok(directory) = File::open(&directory) {
        let _ = directory.sync_all();
    }
    Ok(())
}

/// Writes `text` into the file at `path` itself, keeping its inode, so that every hard link to
/// it reads the new text (replacing it by a rename would leave the other links with the old).
/// Not atomic: a crash while writing can leave it half written, which is why it is used only
/// for a file with several links, and the text is checked before it is written.
pub fn write_in_place(path: &Path, text: &str) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).truncate(true).open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

/// A new file `.NAME.tmp-PID-N` in `directory`, created only if no file has that name.
fn create_temporary(directory: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    let mut last_error = None;
    for _ in 0..TEMPORARY_NAMES {
        let n = NEXT_WRITE.fetch_add(1, Ordering::Relaxed);
        let temporary = directory.join(format!(".{name}.tmp-{pid}-{n}"));
        match OpenOptions::new().write(true).create_new(true).open(&temporary) {
            Ok(file) => return Ok((temporary, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last_error = Some(error),
            Err(error) => return Err(error),
        }
    }
    Err(last_error.unwrap_or_else(|| io::Error::other("no free temporary file name")))
}

/// Writes the text to the temporary file, gives it the target's permissions and flushes it.
fn fill(mut file: File, target: &Path, text: &str) -> io::Result<()> {
    file.write_all(text.as_bytes())?;
    if let Ok(meta) = fs::metadata(target) {
        file.set_permissions(meta.permissions())?;
    }
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("battlemap-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    }

    #[test]
    fn a_file_is_created_then_replaced_and_no_temporary_file_stays() {
        let dir = scratch("replace");
        let path = dir.join("scene.ron");
        write_atomically(&path, "first").expect("writes");
        assert_eq!(fs::read_to_string(&path).expect("reads"), "first");
        write_atomically(&path, "second").expect("writes");
        assert_eq!(fs::read_to_string(&path).expect("reads"), "second");
        let names: Vec<_> = fs::read_dir(&dir).expect("lists").map(|e| e.expect("entry").file_name()).collect();
        assert_eq!(names, ["scene.ron"]);
    }

    #[test]
    fn leftover_temporary_files_are_stepped_over() {
        let dir = scratch("leftovers");
        let path = dir.join("scene.ron");
        let pid = std::process::id();
        let next = NEXT_WRITE.load(Ordering::Relaxed);
        for n in next..next + 5 {
            fs::write(dir.join(format!(".scene.ron.tmp-{pid}-{n}")), "torn").expect("a leftover");
        }
        write_atomically(&path, "whole").expect("writes");
        assert_eq!(fs::read_to_string(&path).expect("reads"), "whole");
    }

    #[test]
    fn a_failed_write_leaves_the_target_alone() {
        let dir = scratch("fails");
        let path = dir.join("scene.ron");
        fs::write(&path, "old").expect("writes");
        // A directory where the file's name should be: the rename fails.
        let blocked = dir.join("blocked");
        fs::create_dir_all(blocked.join("inside")).expect("a directory");
        assert!(write_atomically(&blocked, "new").is_err());
        let names: Vec<_> = fs::read_dir(&dir).expect("lists").map(|e| e.expect("entry").file_name()).collect();
        assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
        assert!(write_atomically(&dir.join("no-such-dir/scene.ron"), "new").is_err());
        assert_eq!(fs::read_to_string(&path).expect("reads"), "old");
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_followed_and_permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("link");
        let real = dir.join("real.ron");
        fs::write(&real, "old").expect("writes");
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).expect("chmod");
        let link = dir.join("link.ron");
        std::os::unix::fs::symlink(&real, &link).expect("a link");
        write_atomically(&link, "new").expect("writes");
        assert!(fs::symlink_metadata(&link).expect("the link").file_type().is_symlink());
        assert_eq!(fs::read_to_string(&real).expect("reads"), "new");
        assert_eq!(fs::metadata(&real).expect("meta").permissions().mode() & 0o777, 0o600);
    }
}
