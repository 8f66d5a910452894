//! Text from outside (a scenario's names, notes and rows, a session's, the command line's): the one
//! rule of what it may hold, and how it is printed. Plain text holds no control character (C0, DEL,
//! C1: U+009B alone is a terminal's escape) and no bidirectional formatting character (U+202E
//! turns the rest of a line around on the terminal); whatever is printed of it is escaped, so no
//! text reaches a terminal raw.

use std::borrow::Cow;

/// Whether `c` may not stand in plain text: a control character (C0, DEL, C1), a character that
/// reorders text on the terminal (the bidirectional marks, embeddings, overrides and isolates), or
/// one that breaks a line there (the line and paragraph separators).
pub fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200E}' | '\u{200F}' // left-to-right and right-to-left marks
            | '\u{2028}' | '\u{2029}' // line and paragraph separators
            | '\u{202A}'..='\u{202E}' // embeddings and overrides
            | '\u{2066}'..='\u{2069}' // isolates
        )
}

/// Why text is not plain.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    #[error("{} holds the character {}, which can't be shown: write plain text", escaped(.text), .found.escape_unicode())]
    Unprintable { text: String, found: char },
    #[error("{} is {length} characters long; at most {most}", escaped(&.text.chars().take(40).collect::<String>()))]
    TooLong { text: String, length: usize, most: usize },
}

/// Checks that `text` is plain (no [`unprintable`] character) and at most `most` characters long.
pub fn plain(text: &str, most: usize) -> Result<(), TextError> {
    if let Some(found) = text.chars().find(|&c| unprintable(c)) {
        return Err(TextError::Unprintable { text: text.chars().take(40).collect(), found });
    }
    let length = text.chars().count();
    if length > most {
        return Err(TextError::TooLong { text: text.to_owned(), length, most });
    }
    Ok(())
}

/// `text` as it may be printed: each [`unprintable`] character written as its `\u{…}` escape,
/// the rest as it is.
pub fn escaped(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unprintable) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars().map(|c| if unprintable(c) { c.escape_unicode().to_string() } else { c.to_string() }).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_bidirectional_characters_are_refused_and_escaped() {
        for bad in ["\u{1b}[31m", "a\u{7f}", "\u{9b}2J", "right\u{202e}left", "\u{0}", "cr\r", "tab\t"] {
            assert!(plain(bad, 60).is_err(), "{bad:?}");
            assert!(!escaped(bad).chars().any(unprintable), "{bad:?}");
        }
        assert_eq!(escaped("right\u{202e}left"), "right\\u{202e}left");
        assert_eq!(escaped("Ogre's club — 2d8"), "Ogre's club — 2d8");
        assert_eq!(plain("Sight rot", 60), Ok(()));
        assert_eq!(plain("ábç", 3), Ok(()));
        assert_eq!(plain("abcd", 3).map_err(|e| e.to_string()), Err("abcd is 4 characters long; at most 3".to_owned()));
        assert_eq!(
            plain("x\u{1b}y", 9).map_err(|e| e.to_string()),
            Err("x\\u{1b}y holds the character \\u{1b}, which can't be shown: write plain text".to_owned())
        );
    }
}
