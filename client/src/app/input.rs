//! A one-line text field: the connect screen's address and name, the chat line.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Text being typed, with a cursor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TextInput {
    /// What has been typed.
    text: String,
    /// The cursor, in characters from the start (not bytes: Vietnamese has many
    /// multi-byte letters).
    cursor: usize,
    /// The most characters the field takes.
    max: usize,
}

/// What a key did to a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// The text or cursor changed (or the key was a no-op for text).
    Changed,
    /// Not a text-editing key: the caller decides what it means.
    Ignored,
    /// A character that did not fit: the field holds its most already. Nothing changed,
    /// and the caller should say so rather than drop what was typed unseen.
    Full,
}

impl TextInput {
    pub fn new(max: usize) -> TextInput {
        TextInput {
            text: String::new(),
            cursor: 0,
            max,
        }
    }

    pub fn with_text(max: usize, text: &str) -> TextInput {
        let text: String = text.chars().take(max).collect();
        TextInput {
            cursor: text.chars().count(),
            text,
            max,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor's position in characters.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Characters typed.
    pub fn len(&self) -> usize {
        self.text.chars().count()
    }

    /// The most characters the field takes.
    pub fn max(&self) -> usize {
        self.max
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Empties the field and returns what it held.
    pub fn take(&mut self) -> String {
        self.cursor = 0;
        std::mem::take(&mut self.text)
    }

    fn byte_at(&self, chars: usize) -> usize {
        self.text
            .char_indices()
            .nth(chars)
            .map_or(self.text.len(), |(i, _)| i)
    }

    /// Applies an editing key: characters, Backspace, Delete, arrows, Home/End, Ctrl-U.
    pub fn edit(&mut self, key: KeyEvent) -> Edit {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('u') if ctrl => {
                self.take();
            }
            KeyCode::Char('a') if ctrl => self.cursor = 0,
            KeyCode::Char('e') if ctrl => self.cursor = self.text.chars().count(),
            KeyCode::Char(c) if !ctrl && !c.is_control() => {
                if self.len() >= self.max {
                    return Edit::Full;
                }
                let at = self.byte_at(self.cursor);
                self.text.insert(at, c);
                self.cursor += 1;
            }
            KeyCode::Backspace => {
                if self.cursor > 0 {
                    self.cursor -= 1;
                    let at = self.byte_at(self.cursor);
                    self.text.remove(at);
                }
            }
            KeyCode::Delete => {
                if self.cursor < self.text.chars().count() {
                    let at = self.byte_at(self.cursor);
                    self.text.remove(at);
                }
            }
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(self.text.chars().count()),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = self.text.chars().count(),
            _ => return Edit::Ignored,
        }
        Edit::Changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn edits_multibyte_text_by_characters() {
        let mut t = TextInput::new(10);
        for c in "Việt".chars() {
            t.edit(key(KeyCode::Char(c)));
        }
        assert_eq!(t.text(), "Việt");
        t.edit(key(KeyCode::Left));
        t.edit(key(KeyCode::Backspace));
        assert_eq!(t.text(), "Vit");
        t.edit(key(KeyCode::Home));
        t.edit(key(KeyCode::Delete));
        assert_eq!(t.text(), "it");
        assert_eq!(t.edit(key(KeyCode::Enter)), Edit::Ignored);
        for _ in 0..8 {
            assert_eq!(t.edit(key(KeyCode::Char('x'))), Edit::Changed);
        }
        assert_eq!(
            t.edit(key(KeyCode::Char('x'))),
            Edit::Full,
            "said, not dropped"
        );
        assert_eq!(t.len(), 10);
        t.edit(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        assert!(t.is_empty());
    }
}
