//! Pictures a scenario names (portraits, object pictures, a map image under the grid), read at
//! the edge with limits: a file over [`MAX_PICTURE_BYTES`] or an image wider or taller than
//! [`MAX_PICTURE_SIDE`] pixels is refused before it is decoded, and every failure is a
//! [`PictureError`] the app turns into a notice (the token keeps its disc) and `battlemap check`
//! into a warning.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The widest or tallest picture read, in pixels.
pub const MAX_PICTURE_SIDE: u32 = 4096;
/// The largest picture file read, in bytes.
pub const MAX_PICTURE_BYTES: u64 = 64 * 1024 * 1024;

/// Why a picture can't be shown. Its path is printed escaped (`rules::text::escaped`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    #[error("{} is not there", shown(.0))]
    Missing(PathBuf),
    #[error("{} can't be read: {why}", shown(path))]
    Unreadable { path: PathBuf, why: String },
    #[error("{} is not a regular file (a directory, a pipe, a socket or a device): name a picture file", shown(.0))]
    NotAFile(PathBuf),
    #[error("{} is {bytes} bytes; a picture may have at most {MAX_PICTURE_BYTES}", shown(path))]
    TooManyBytes { path: PathBuf, bytes: u64 },
    #[error("{} is not a PNG or JPEG image", shown(.0))]
    NotAnImage(PathBuf),
    #[error("{} is cut short or damaged: it can't be decoded whole", shown(.0))]
    Broken(PathBuf),
    #[error(
        "{} is {width}×{height} pixels; a picture may be at most {MAX_PICTURE_SIDE}×{MAX_PICTURE_SIDE}",
        shown(path)
    )]
    TooLarge { path: PathBuf, width: u32, height: u32 },
}

/// A path as it may be printed: control and bidirectional characters escaped.
fn shown(path: &Path) -> String {
    crate::rules::text::escaped(&path.to_string_lossy()).into_owned()
}

/// Where the built-in scenario's pictures are: beside its file in the source tree.
const BUILT_IN_FOLDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes");

/// The file a scenario's picture path names: relative to the scenario file's folder (for the
/// built-in scenario, its folder in the source tree), or absolute.
pub fn resolve(scenario_file: Option<&Path>, picture: &str) -> PathBuf {
    let folder = scenario_file.map_or(Path::new(BUILT_IN_FOLDER), |file| file.parent().unwrap_or(Path::new("")));
    folder.join(picture)
}

/// The picture's bytes, read only if the file is a regular file (looked at before it is opened,
/// through any symbolic link: opening a FIFO waits forever, `/dev/zero` never ends, a link to
/// `/dev/stdin` would read the terminal) and small enough.
fn read_bytes(path: &Path) -> Result<Vec<u8>, PictureError> {
    let cant = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => PictureError::Missing(path.to_owned()),
        _ => PictureError::Unreadable { path: path.to_owned(), why: e.to_string() },
    };
    let meta = std::fs::metadata(path).map_err(cant)?;
    if !meta.is_file() {
        return Err(PictureError::NotAFile(path.to_owned()));
    }
    if meta.len() > MAX_PICTURE_BYTES {
        return Err(PictureError::TooManyBytes { path: path.to_owned(), bytes: meta.len() });
    }
    let file = std::fs::File::open(path).map_err(cant)?;
    let mut bytes = Vec::new();
    file.take(MAX_PICTURE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| PictureError::Unreadable { path: path.to_owned(), why: e.to_string() })?;
    if bytes.len() as u64 > MAX_PICTURE_BYTES {
        return Err(PictureError::TooManyBytes { path: path.to_owned(), bytes: bytes.len() as u64 });
    }
    Ok(bytes)
}

/// A reader of `bytes` that knows their format, or [`PictureError::NotAnImage`].
fn reader<'a>(path: &Path, bytes: &'a [u8]) -> Result<image::ImageReader<std::io::Cursor<&'a [u8]>>, PictureError> {
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|_| PictureError::NotAnImage(path.to_owned()))?;
    match reader.format() {
        Some(image::ImageFormat::Png | image::ImageFormat::Jpeg) => Ok(reader),
        _ => Err(PictureError::NotAnImage(path.to_owned())),
    }
}

/// The picture's size from its header, refused when over [`MAX_PICTURE_SIDE`].
fn checked_size(path: &Path, bytes: &[u8]) -> Result<(u32, u32), PictureError> {
    let (width, height) =
        reader(path, bytes)?.into_dimensions().map_err(|_| PictureError::NotAnImage(path.to_owned()))?;
    if width == 0 || height == 0 {
        return Err(PictureError::NotAnImage(path.to_owned()));
    }
    if width > MAX_PICTURE_SIDE || height > MAX_PICTURE_SIDE {
        return Err(PictureError::TooLarge { path: path.to_owned(), width, height });
    }
    Ok((width, height))
}

/// Whether the picture would load, decoding it whole (a file cut short has a whole header):
/// `battlemap check`'s warning. Its size in pixels.
pub fn probe(path: &Path) -> Result<(u32, u32), PictureError> {
    load(path).map(|image| image.dimensions())
}

/// The picture's pixels, as 8-bit RGBA.
pub fn load(path: &Path) -> Result<image::RgbaImage, PictureError> {
    let bytes = read_bytes(path)?;
    let (width, height) = checked_size(path, &bytes)?;
    let mut reader = reader(path, &bytes)?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_PICTURE_SIDE);
    limits.max_image_height = Some(MAX_PICTURE_SIDE);
    limits.max_alloc = Some(8 * u64::from(width) * u64::from(height) + 1024 * 1024);
    reader.limits(limits);
    let image = reader.decode().map_err(|_| PictureError::Broken(path.to_owned()))?;
    Ok(image.to_rgba8())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenes() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/tokens")
    }

    /// A portrait loads; a missing file, a text file and an image over the size limit are each
    /// refused with their own reason, before decoding.
    #[test]
    fn pictures_are_bounded_at_the_edge() {
        let ogre = load(&scenes().join("ogre.png")).expect("the ogre's portrait loads");
        assert_eq!(ogre.dimensions(), (256, 256));
        assert_eq!(probe(&scenes().join("ogre.png")), Ok((256, 256)));
        let missing = scenes().join("nobody.png");
        assert_eq!(load(&missing), Err(PictureError::Missing(missing.clone())));
        let text = scenes().join("not-an-image.png");
        assert_eq!(load(&text), Err(PictureError::NotAnImage(text.clone())));
        let huge = scenes().join("huge.png");
        assert_eq!(probe(&huge), Err(PictureError::TooLarge { path: huge.clone(), width: 4097, height: 16 }));
        assert!(matches!(load(&huge), Err(PictureError::TooLarge { .. })));
        let folder = scenes();
        assert_eq!(load(&folder), Err(PictureError::NotAFile(folder.clone())));
    }

    /// Issue 37 (22): a picture that is a device, a FIFO or a link to one is refused before it is
    /// opened; one cut short is refused whole, not from its header; a path is printed escaped.
    #[test]
    fn pictures_are_regular_whole_files() {
        let dir = std::env::temp_dir().join(format!("battlemap-pictures-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let zero = Path::new("/dev/zero");
        assert_eq!(probe(zero), Err(PictureError::NotAFile(zero.to_owned())));
        let stdin = dir.join("stdin.png");
        std::os::unix::fs::symlink("/dev/stdin", &stdin).expect("a link");
        assert!(
            matches!(probe(&stdin), Err(PictureError::NotAFile(_) | PictureError::Missing(_))),
            "{:?}",
            probe(&stdin)
        );
        let fifo = dir.join("pipe.png");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo makes the test's pipe: install coreutils");
        assert_eq!(probe(&fifo), Err(PictureError::NotAFile(fifo.clone())), "without waiting for a writer");
        let whole = std::fs::read(scenes().join("ogre.png")).expect("the portrait");
        let cut = dir.join("cut.png");
        std::fs::write(&cut, &whole[..whole.len() / 2]).expect("writes");
        assert_eq!(probe(&cut), Err(PictureError::Broken(cut.clone())));
        let odd = PictureError::Missing(PathBuf::from("right\u{202e}gnp.exe"));
        assert_eq!(odd.to_string(), "right\\u{202e}gnp.exe is not there");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn paths_are_relative_to_the_scenario_file() {
        assert_eq!(
            resolve(Some(Path::new("scenes/tavern.ron")), "tokens/ogre.png"),
            Path::new("scenes/tokens/ogre.png")
        );
        assert_eq!(resolve(None, "tokens/ogre.png"), Path::new(BUILT_IN_FOLDER).join("tokens/ogre.png"));
        assert!(resolve(None, "tokens/ogre.png").is_file(), "the built-in tavern's portraits are in the source tree");
        assert_eq!(resolve(Some(Path::new("scenes/tavern.ron")), "/tmp/a.png"), Path::new("/tmp/a.png"));
    }
}
