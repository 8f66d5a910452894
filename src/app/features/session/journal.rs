//! The roll log's journal: one JSON line per roll (`rules::log::LogEntry`), beside the session file
//! (`NAME.session.rolls.jsonl`), to which each new roll is appended and flushed to the disk. So a
//! roll costs the autosave the same in a campaign's log of tens of thousands of rolls as in an
//! evening's, where rewriting the whole log after every roll did not (docs/performance.md).
//!
//! The session file says how many lines are the game's and their digest. Reading back takes that
//! many complete lines and leaves out the rest: a line torn by a kill, or rolls appended after the
//! last session file was written (the journal is always written first). A journal that can't give
//! them all gives what it can, with the reason ([`LogLoss`]); it never stops the game coming back.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use crate::app::core::dice::{LogLoss, Mended};
use crate::files::write_atomically;
use crate::rules::log::LogEntry;

/// The largest journal read, in bytes: past the session file's 300,000 rolls of a few hundred
/// bytes each.
pub const MAX_JOURNAL_BYTES: u64 = 256 * 1024 * 1024;

/// The digest of no line at all (64-bit FNV-1a's offset basis).
pub const EMPTY_DIGEST: u64 = 0xcbf2_9ce4_8422_2325;

/// The journal beside the session file `session`: `tavern.session.json` keeps its rolls in
/// `tavern.session.rolls.jsonl`.
pub fn journal_path(session: &Path) -> PathBuf {
    session.with_extension("rolls.jsonl")
}

/// `digest` carried on over `bytes` (64-bit FNV-1a, the same on every build): the digest of a
/// journal's first lines is the digest of their bytes, newlines included.
pub fn digest_on(digest: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(digest, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(0x100_0000_01b3))
}

/// How far a journal goes: its first `rolls` lines, `bytes` long, whose digest is `digest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JournalEnd {
    pub rolls: usize,
    pub bytes: u64,
    pub digest: u64,
}

impl Default for JournalEnd {
    fn default() -> Self {
        Self { rolls: 0, bytes: 0, digest: EMPTY_DIGEST }
    }
}

/// The journal as the autosave writes it: where it is, how far it is known to go, and the file
/// kept open for appending.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    /// What the file holds for sure; `None`: not known, the next write writes it whole.
    end: Option<JournalEnd>,
    /// The last roll written, to tell a log that grew from one put in its place.
    last: Option<LogEntry>,
    /// More than `end` may be on disk (a torn line, rolls past the session file's): cut it off
    /// before appending.
    trim: bool,
    file: Option<File>,
}

impl Journal {
    /// A journal at `path` whatever it holds now: the first write writes it whole.
    pub fn new(path: PathBuf) -> Self {
        Self { path, end: None, last: None, trim: false, file: None }
    }

    /// A journal read back to `end`, whose last roll is `last`: writing goes on after it (what
    /// lies beyond it on disk is cut off first).
    pub fn resume(path: PathBuf, end: JournalEnd, last: Option<LogEntry>) -> Self {
        Self { path, end: Some(end), last, trim: true, file: None }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Brings the file in step with `log` and says how far it goes now. The rolls it lacks are
    /// appended and flushed to the disk (its data, `fdatasync`), so the session file written next
    /// never names a roll the disk doesn't hold. When the log is not the one written (shorter, put
    /// in its place, a new file), the whole log is written anew, atomically.
    pub fn write(&mut self, log: &[LogEntry]) -> io::Result<JournalEnd> {
        let written = match self.end {
            Some(end) if self.grew_from(end, log) => self.append(end, log),
            _ => self.rewrite(log),
        };
        if written.is_err() {
            // What reached the disk is not known: the next write starts afresh.
            self.end = None;
            self.file = None;
        }
        written
    }

    /// Whether `log` is the log written up to `end`, and maybe more.
    fn grew_from(&self, end: JournalEnd, log: &[LogEntry]) -> bool {
        match end.rolls.checked_sub(1) {
            None => true,
            Some(last) => log.get(last).is_some_and(|entry| self.last.as_ref() == Some(entry)),
        }
    }

    /// Appends the rolls after `end`.
    fn append(&mut self, end: JournalEnd, log: &[LogEntry]) -> io::Result<JournalEnd> {
        let new = &log[end.rolls..];
        if new.is_empty() && !self.trim {
            return Ok(end);
        }
        let mut text = Vec::with_capacity(new.len() * 256);
        for entry in new {
            serde_json::to_writer(&mut text, entry).map_err(io::Error::other)?;
            text.push(b'\n');
        }
        let mut file = match self.file.take() {
            Some(file) => file,
            None => OpenOptions::new().create(true).append(true).open(&self.path)?,
        };
        if std::mem::take(&mut self.trim) {
            let on_disk = file.metadata()?.len();
            if on_disk < end.bytes {
                // Shorter than what was read back: someone else wrote it. Start it afresh.
                return self.rewrite(log);
            }
            if on_disk > end.bytes {
                file.set_len(end.bytes)?;
            }
        }
        if !text.is_empty() {
            file.write_all(&text)?;
            file.sync_data()?;
        }
        self.file = Some(file);
        let end =
            JournalEnd { rolls: log.len(), bytes: end.bytes + text.len() as u64, digest: digest_on(end.digest, &text) };
        self.end = Some(end);
        self.last = log.last().cloned();
        Ok(end)
    }

    /// Writes the whole log in place of the file, all or nothing.
    fn rewrite(&mut self, log: &[LogEntry]) -> io::Result<JournalEnd> {
        let mut text = Vec::with_capacity(log.len() * 256);
        for entry in log {
            serde_json::to_writer(&mut text, entry).map_err(io::Error::other)?;
            text.push(b'\n');
        }
        // Lines of JSON are UTF-8 (serde_json escapes nothing into other bytes).
        let text = String::from_utf8(text).map_err(io::Error::other)?;
        // The file appended to so far is replaced: it is opened again at the next append.
        self.file = None;
        self.trim = false;
        write_atomically(&self.path, &text)?;
        let end =
            JournalEnd { rolls: log.len(), bytes: text.len() as u64, digest: digest_on(EMPTY_DIGEST, text.as_bytes()) };
        self.end = Some(end);
        self.last = log.last().cloned();
        Ok(end)
    }
}

/// A roll log read back from a journal.
#[derive(Debug, Default, PartialEq)]
pub struct ReadBack {
    pub entries: Vec<LogEntry>,
    /// How far the journal goes with them.
    pub end: JournalEnd,
    /// Why fewer rolls came back than the game made.
    pub loss: Option<LogLoss>,
    /// All came back, but not as the autosave wrote them: the journal is to be written anew.
    pub mended: Option<Mended>,
    /// Complete lines past the game's rolls (rolls made after the last session file was
    /// written, or another session file's): they are not the game's, but are kept aside.
    pub past: usize,
}

/// Reads the first `rolls` lines of the journal at `path`, which the session file says have the
/// digest `digest`. Complete lines only: a torn last line and any line past `rolls` are left out
/// (and counted, [`ReadBack::past`]). No more than [`MAX_JOURNAL_BYTES`] are read, and a pipe or
/// a device is not opened (a FIFO with no writer would wait forever). Whatever is wrong, the rolls
/// that can be kept are returned with the reason the rest are not: the lines before one that is
/// not a roll or is cut short; all of them when only their line ends differ, or when every line
/// is a roll and they are as many as the game made; none when there are more lines and the first
/// `rolls` are not the game's, or the session file names no roll but a digest of some.
pub fn read(path: &Path, rolls: usize, digest: u64) -> ReadBack {
    let mut back = ReadBack::default();
    let opened = match fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound && rolls == 0 && digest == EMPTY_DIGEST => return back,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(LogLoss::Missing),
        Err(e) => Err(LogLoss::Unreadable(e.to_string())),
        Ok(meta) if !meta.is_file() => Err(LogLoss::NotAFile),
        Ok(_) => File::open(path).map_err(|e| LogLoss::Unreadable(e.to_string())),
    };
    let file = match opened {
        Ok(file) => file,
        Err(loss) => {
            back.loss = Some(loss);
            return back;
        }
    };
    let mut reader = BufReader::new(file.take(MAX_JOURNAL_BYTES));
    let mut line = Vec::new();
    // The digest of the lines as they would be with LF line ends.
    let mut unix_digest = EMPTY_DIGEST;
    while back.entries.len() < rolls {
        line.clear();
        let read = match reader.read_until(b'\n', &mut line) {
            Ok(read) => read,
            Err(e) => {
                back.loss = Some(LogLoss::Unreadable(e.to_string()));
                break;
            }
        };
        if line.last() != Some(&b'\n') {
            // The end of the file, or a line cut short: by a kill, or by the limit.
            let at_limit = back.end.bytes + read as u64 >= MAX_JOURNAL_BYTES;
            back.loss =
                Some(if at_limit { LogLoss::TooLarge { limit: MAX_JOURNAL_BYTES } } else { LogLoss::EndsEarly });
            break;
        }
        match serde_json::from_slice::<LogEntry>(&line[..read - 1]) {
            Ok(entry) => {
                back.entries.push(entry);
                back.end = JournalEnd {
                    rolls: back.entries.len(),
                    bytes: back.end.bytes + read as u64,
                    digest: digest_on(back.end.digest, &line),
                };
                let text = line.strip_suffix(b"\r\n").unwrap_or(&line[..read - 1]);
                unix_digest = digest_on(digest_on(unix_digest, text), b"\n");
            }
            Err(e) => {
                back.loss = Some(LogLoss::BadLine { line: back.entries.len() + 1, error: e.to_string() });
                break;
            }
        }
    }
    if back.loss.is_some() {
        return back;
    }
    back.past = lines_left(&mut reader);
    if back.end.digest != digest {
        back.mended = if unix_digest == digest && rolls > 0 {
            Some(Mended::LineEnds)
        } else if back.past == 0 && rolls > 0 {
            Some(Mended::Unverified)
        } else {
            None
        };
        if back.mended.is_none() {
            back.entries.clear();
            back.end = JournalEnd::default();
            back.loss = Some(LogLoss::OtherGame);
        }
    }
    back
}

/// How many complete lines are left to read (within the limit the reader was given).
fn lines_left(reader: &mut impl BufRead) -> usize {
    let mut lines = 0;
    loop {
        let buffer = match reader.fill_buf() {
            Ok([]) | Err(_) => return lines,
            Ok(buffer) => buffer,
        };
        lines += buffer.iter().filter(|&&b| b == b'\n').count();
        let used = buffer.len();
        reader.consume(used);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{RollMode, SeededDice};
    use crate::rules::log::RollReason;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("battlemap-journal-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a scratch directory");
        dir.join("game.session.rolls.jsonl")
    }

    /// `n` rolls of dice seeded with `seed`, each with its reason.
    fn rolls_of(seed: u64, n: usize) -> Vec<LogEntry> {
        let mut dice = SeededDice::new(seed);
        (0..n)
            .map(|i| {
                let roll = dice.roll("1d20+4", RollMode::Normal).expect("valid notation");
                let reason = RollReason::Typed { what: format!("roll {i}"), inspired: false };
                LogEntry::new("Brom", reason, roll, i % 3 == 0)
            })
            .collect()
    }

    fn rolls(n: usize) -> Vec<LogEntry> {
        rolls_of(3, n)
    }

    #[test]
    fn the_journal_is_beside_the_session_file() {
        assert_eq!(journal_path(Path::new("/a/tavern.session.json")), Path::new("/a/tavern.session.rolls.jsonl"));
        assert_eq!(journal_path(Path::new("game")), Path::new("game.rolls.jsonl"));
    }

    #[cfg(unix)]
    #[test]
    fn rolls_are_appended_and_read_back_with_their_digest() {
        let path = scratch("append");
        let log = rolls(30);
        let mut journal = Journal::new(path.clone());
        let first = journal.write(&log[..10]).expect("writes");
        let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&fs::metadata(p).expect("exists"));
        let before = inode(&path);
        let mut end = first;
        for n in 11..=30 {
            end = journal.write(&log[..n]).expect("appends");
        }
        assert_eq!(inode(&path), before, "appended to, not written anew");
        let text = fs::read(&path).expect("reads");
        assert_eq!(end, JournalEnd { rolls: 30, bytes: text.len() as u64, digest: digest_on(EMPTY_DIGEST, &text) });
        assert_eq!(text.iter().filter(|&&b| b == b'\n').count(), 30, "one line a roll");
        let back = read(&path, 30, end.digest);
        assert_eq!((back.entries.as_slice(), back.end, back.loss), (log.as_slice(), end, None));
        // The first ten, as the session file written after them names them.
        let back = read(&path, 10, first.digest);
        assert_eq!((back.entries.as_slice(), back.end, back.loss), (&log[..10], first, None));
    }

    #[test]
    fn a_torn_line_and_rolls_past_the_session_file_are_left_out_then_cut_off() {
        let path = scratch("torn");
        let log = rolls(12);
        let mut journal = Journal::new(path.clone());
        let end = journal.write(&log[..10]).expect("writes");
        journal.write(&log[..11]).expect("appends");
        // A kill in the middle of the next append: half a line.
        let line = serde_json::to_string(&log[11]).expect("json");
        let mut file = OpenOptions::new().append(true).open(&path).expect("opens");
        file.write_all(&line.as_bytes()[..line.len() / 2]).expect("writes");
        drop(file);
        let back = read(&path, 10, end.digest);
        assert_eq!((back.entries.as_slice(), back.end, back.loss.clone()), (&log[..10], end, None));
        // Writing goes on after the tenth roll: the eleventh and the torn line are cut off first.
        let mut journal = Journal::resume(path.clone(), back.end, back.entries.last().cloned());
        journal.write(&log[..10]).expect("trims");
        assert_eq!(fs::metadata(&path).expect("exists").len(), end.bytes);
        let end = journal.write(&log).expect("appends");
        assert_eq!(read(&path, 12, end.digest).entries, log);
    }

    #[test]
    fn a_damaged_journal_gives_what_it_can_and_says_why() {
        let path = scratch("damaged");
        let log = rolls(8);
        let end = Journal::new(path.clone()).write(&log).expect("writes");
        let text = fs::read_to_string(&path).expect("reads");

        // Missing, and a directory in its place.
        fs::remove_file(&path).expect("removes");
        assert_eq!(read(&path, 8, end.digest).loss, Some(LogLoss::Missing));
        assert_eq!(read(&path, 0, EMPTY_DIGEST).loss, None, "a game with no roll needs no journal");
        fs::create_dir(&path).expect("a directory");
        assert_eq!(read(&path, 8, end.digest).loss, Some(LogLoss::NotAFile));
        fs::remove_dir(&path).expect("removes");

        // The fourth line is not a roll: three are kept.
        let mut lines: Vec<&str> = text.lines().collect();
        lines[3] = "{\"who\": 12";
        fs::write(&path, lines.join("\n") + "\n").expect("writes");
        let back = read(&path, 8, end.digest);
        assert_eq!(back.entries, &log[..3]);
        assert!(matches!(back.loss, Some(LogLoss::BadLine { line: 4, .. })), "{:?}", back.loss);

        // Cut short: what there is.
        fs::write(&path, &text[..text.len() / 2]).expect("writes");
        let back = read(&path, 8, end.digest);
        assert!(back.entries.len() < 8 && back.entries[..] == log[..back.entries.len()]);
        assert_eq!(back.loss, Some(LogLoss::EndsEarly));

        // Whole, but not the game's: nothing.
        let other = rolls_of(4, 9);
        Journal::new(path.clone()).write(&other).expect("writes");
        let back = read(&path, 8, end.digest);
        assert_eq!((back.entries.len(), back.loss), (0, Some(LogLoss::OtherGame)));
        // Binary rubbish.
        fs::write(&path, [0xff_u8, 0, 7, b'\n', 0xfe]).expect("writes");
        assert!(matches!(read(&path, 8, end.digest).loss, Some(LogLoss::BadLine { line: 1, .. })));
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_is_not_opened() {
        let path = scratch("fifo");
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if !made.is_ok_and(|s| s.success()) {
            return;
        }
        assert_eq!(read(&path, 3, EMPTY_DIGEST).loss, Some(LogLoss::NotAFile));
    }

    #[test]
    fn a_log_put_in_place_of_the_written_one_is_written_whole() {
        let path = scratch("replaced");
        let log = rolls(10);
        let mut journal = Journal::new(path.clone());
        journal.write(&log).expect("writes");
        // Shorter, then as long but different: both written anew, and read back as they are.
        let shorter = &log[..4];
        let end = journal.write(shorter).expect("writes");
        assert_eq!(read(&path, 4, end.digest).entries, shorter);
        let other = rolls(12)[2..].to_vec();
        let end = journal.write(&other).expect("writes");
        assert_eq!((read(&path, 10, end.digest).entries, end.rolls), (other, 10));
    }
}
