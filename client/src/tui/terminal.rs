//! Taking the terminal over and giving it back, on every way out: a normal exit, an
//! error, or a panic.

use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{self, Stdout};

pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Raw mode, the alternate screen and mouse reports; a panic hook that undoes them
/// before the panic message prints, so a crash never leaves a broken terminal.
pub fn enter() -> io::Result<Term> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        leave();
        previous(info);
    }));
    enable_raw_mode()?;
    let mut out = io::stdout();
    if let Err(e) = execute!(out, EnterAlternateScreen, EnableMouseCapture) {
        leave();
        return Err(e);
    }
    let mut term = Terminal::new(CrosstermBackend::new(out))?;
    term.clear()?;
    Ok(term)
}

/// Gives the terminal back as it was. Safe to call more than once.
pub fn leave() {
    let _ = execute!(io::stdout(), DisableMouseCapture, LeaveAlternateScreen);
    let _ = disable_raw_mode();
    let _ = execute!(io::stdout(), crossterm::cursor::Show);
}
