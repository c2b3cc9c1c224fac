//! Checking and cleaning what people type: player names and chat lines. Pure functions,
//! so the rules are tested here and the actors only apply them.

use banco_protocol::{ErrorCode, ErrorMsg, MAX_CHAT_CHARS, MAX_NAME_CHARS};

/// A player name as asked for in `Hello`, trimmed; refused if empty, too long or holding
/// control characters (they would garble other people's screens).
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
    Ok(name.to_string())
}

/// `base` made different from every name `taken` says is in use (compared without
/// case): `An`, then `An 2`, `An 3`, ... cut so the result still fits [`MAX_NAME_CHARS`].
pub fn unique_name(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_string();
    }
    (2u32..)
        .map(|n| {
            let suffix = format!(" {n}");
            let keep = MAX_NAME_CHARS.saturating_sub(suffix.chars().count());
            let stem: String = base.chars().take(keep).collect();
            format!("{}{suffix}", stem.trim_end())
        })
        .find(|candidate| !taken(candidate))
        .expect("some numbered name is free: finitely many names are taken")
}

/// A chat line as it will be shown: control characters (newlines, escapes) become spaces,
/// then the ends are trimmed. Refused if nothing is left or it is too long.
pub fn clean_chat(text: &str) -> Result<String, ErrorMsg> {
    let cleaned: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
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
    fn unique_names_get_a_number_and_still_fit() {
        let taken = ["An", "an 2", "Bình"];
        let is_taken = |n: &str| taken.iter().any(|t| t.eq_ignore_ascii_case(n));
        assert_eq!(unique_name("Chi", is_taken), "Chi");
        assert_eq!(unique_name("An", is_taken), "An 3");
        let long = "y".repeat(MAX_NAME_CHARS);
        let again = unique_name(&long, |n| n == long);
        assert_eq!(again.chars().count(), MAX_NAME_CHARS);
        assert!(again.ends_with(" 2"));
    }

    #[test]
    fn chat_is_cleaned_and_bounded() {
        assert_eq!(clean_chat("  xin chào \n").unwrap(), "xin chào");
        assert_eq!(clean_chat("a\nb\u{1b}c").unwrap(), "a b c");
        assert_eq!(clean_chat(" \n\t ").unwrap_err().code, ErrorCode::EmptyChat);
        let long = "á".repeat(MAX_CHAT_CHARS + 1);
        assert_eq!(clean_chat(&long).unwrap_err().code, ErrorCode::ChatTooLong);
        assert!(clean_chat(&"á".repeat(MAX_CHAT_CHARS)).is_ok());
    }
}
