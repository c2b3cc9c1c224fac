//! Checking and cleaning what people type: player names and chat lines. Pure functions,
//! so the rules are tested here and the actors only apply them.

use banco_protocol::{ErrorCode, ErrorMsg, MAX_CHAT_CHARS, MAX_NAME_CHARS};

/// A player name as asked for in `Hello`, trimmed; refused if empty, too long, or holding
/// anything that would let it pose as someone else or garble other people's screens:
/// control characters, direction overrides (`evil\u{202e}gnp.exe` shows as `evilexe.png`),
/// invisible characters (zero-width spaces and joiners, fillers), or blanks other than a
/// plain space.
pub fn clean_name(asked: &str) -> Result<String, ErrorMsg> {
    let name = asked.trim();
    if name.is_empty() {
        return Err(ErrorMsg::new(ErrorCode::BadName, "a name cannot be empty"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ErrorMsg::new(
            ErrorCode::BadName,
            format!("a name can be at most {MAX_NAME_CHARS} characters"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(ErrorMsg::new(
            ErrorCode::BadName,
            "a name cannot hold control characters (tabs, newlines, escapes)",
        ));
    }
    if name.chars().any(is_direction_control) {
        return Err(ErrorMsg::new(
            ErrorCode::BadName,
            "a name cannot hold right-to-left or other direction marks: they make text \
             show in another order than it is written",
        ));
    }
    if let Some(c) = name.chars().find(|&c| is_invisible(c) || is_odd_blank(c)) {
        return Err(ErrorMsg::new(
            ErrorCode::BadName,
            format!(
                "a name cannot hold invisible or blank characters other than a plain space \
                 (it has U+{:04X})",
                u32::from(c)
            ),
        ));
    }
    if name.contains("  ") {
        return Err(ErrorMsg::new(
            ErrorCode::BadName,
            "a name cannot hold two spaces in a row",
        ));
    }
    Ok(name.to_string())
}

/// Characters that reorder the text around them (Unicode bidi controls and marks).
fn is_direction_control(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Unicode's Default_Ignorable_Code_Point: characters that show as nothing at all
/// (zero-width spaces and joiners, soft hyphens, fillers, variation selectors, tags).
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}' | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
}

/// Blanks that look like nothing or like a space but are not one: no-break and wide
/// spaces, the Braille blank.
fn is_odd_blank(c: char) -> bool {
    (c.is_whitespace() && c != ' ') || c == '\u{2800}'
}

/// What two names must not share to be told apart by a person: the Unicode TR39
/// confusable skeleton, without case (`Alice`, `alice`, `AIice` with a capital i, and
/// `Аlice` with a Cyrillic А all have the same).
pub fn look_alike_key(name: &str) -> String {
    let once: String = unicode_security::skeleton(name).collect();
    unicode_security::skeleton(&once.to_lowercase()).collect()
}

/// Whether `name` looks like the name of one of the server's bots (`Bot (max)`, also
/// with a Cyrillic `В` or a capital `I` for an `l`, in any case): no person may go by
/// it, as a guest or an account.
pub fn poses_as_bot(name: &str) -> bool {
    let key = look_alike_key(name.trim());
    banco_protocol::Level::ALL
        .into_iter()
        .any(|level| look_alike_key(&banco_protocol::bot_name(level)) == key)
}

/// A chat line as it will be shown: control characters (newlines, escapes) and line or
/// paragraph separators become spaces, direction overrides are dropped, then the ends are
/// trimmed. Refused if nothing is left or it is too long.
pub fn clean_chat(text: &str) -> Result<String, ErrorMsg> {
    // Every script stays; what goes is what could reorder or break other people's
    // screens: control characters and line or paragraph separators become spaces,
    // direction overrides and isolates are dropped.
    let cleaned: String = text
        .chars()
        .filter(|&c| !is_direction_control(c))
        .map(|c| {
            if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{0085}') {
                ' '
            } else {
                c
            }
        })
        .collect();
    let line = cleaned.trim();
    if line.is_empty() {
        return Err(ErrorMsg::new(ErrorCode::EmptyChat, "say something first"));
    }
    let chars = line.chars().count();
    if chars > MAX_CHAT_CHARS {
        return Err(ErrorMsg::new(
            ErrorCode::ChatTooLong,
            format!("a chat line can be at most {MAX_CHAT_CHARS} characters, this one has {chars}"),
        ));
    }
    Ok(line.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(clean_name("  An  ").unwrap(), "An");
        assert_eq!(clean_name("Nguyễn Thị Thùy").unwrap(), "Nguyễn Thị Thùy");
        for bad in ["", "   ", "a\u{1b}[31m", "tab\there"] {
            assert_eq!(
                clean_name(bad).unwrap_err().code,
                ErrorCode::BadName,
                "{bad:?}"
            );
        }
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        assert_eq!(clean_name(&long).unwrap_err().code, ErrorCode::BadName);
        assert!(clean_name(&"é".repeat(MAX_NAME_CHARS)).is_ok());
    }

    #[test]
    fn names_that_would_pose_or_hide_are_refused() {
        for bad in [
            "evil\u{202e}gnp.exe",
            "An\u{2066}x",
            "A\u{200b}n",
            "Bob\u{200d}",
            "\u{3164}",
            "An\u{00a0}Binh",
            "\u{2800}",
            "An  Bình",
            "soft\u{00ad}hyphen",
        ] {
            let e = clean_name(bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadName, "{bad:?}");
        }
        assert!(
            clean_name("evil\u{202e}gnp.exe")
                .unwrap_err()
                .message
                .contains("right-to-left")
        );
        // Every script is welcome on its own.
        for good in ["Nguyễn Văn An", "Алиса", "李小龙", "Ἀλέξανδρος", "علي"]
        {
            assert_eq!(clean_name(good).unwrap(), good);
        }
    }

    #[test]
    fn look_alikes_share_a_key_and_different_names_do_not() {
        let alice = look_alike_key("Alice");
        assert_eq!(look_alike_key("alice"), alice);
        assert_eq!(look_alike_key("\u{0410}lice"), alice, "Cyrillic A");
        assert_eq!(look_alike_key("AIice"), alice, "capital i for l");
        assert_ne!(look_alike_key("Alicia"), alice);
        assert_ne!(look_alike_key("An"), look_alike_key("Ân"));
    }

    #[test]
    fn names_that_look_like_a_bot_s_are_told() {
        for pose in [
            "Bot (max)",
            "bot (MAX)",
            "\u{0412}ot (max)",
            "B\u{043E}t (max)",
            "Bot (rnax)",
        ] {
            assert!(poses_as_bot(pose), "{pose}");
        }
        for person in ["Bot", "Bot (maxi)", "Bình", "Robot (max)", "Bot (max) 2"] {
            assert!(!poses_as_bot(person), "{person}");
        }
    }

    #[test]
    fn chat_is_cleaned_and_bounded() {
        assert_eq!(clean_chat("  xin chào \n").unwrap(), "xin chào");
        assert_eq!(clean_chat("a\nb\u{1b}c").unwrap(), "a b c");
        // Other scripts stay; overrides and separators go.
        assert_eq!(
            clean_chat("xin chào \u{202e}olleh\u{2028}مرحبا").unwrap(),
            "xin chào olleh مرحبا"
        );
        assert_eq!(clean_chat(" \n\t ").unwrap_err().code, ErrorCode::EmptyChat);
        let long = "á".repeat(MAX_CHAT_CHARS + 1);
        assert_eq!(clean_chat(&long).unwrap_err().code, ErrorCode::ChatTooLong);
        assert!(clean_chat(&"á".repeat(MAX_CHAT_CHARS)).is_ok());
    }
}
