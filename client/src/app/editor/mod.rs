//! The position editor ("sắp cờ thế", seed 002): arrange a xiangqi or caro position on
//! the board, opened from the create-room form's "start from a position…" line.
//!
//! - [`xiangqi`], [`caro`]: each game's board being arranged and what each edit does.
//!
//! Every change is judged at once by the engine's own checks (`Setup::flaws`, the code
//! the server runs when a room is created from a position) and the flaws are shown on
//! the points they concern. Enter is refused while any remain, and the room's settings
//! then go through the server's own validation, so a position the editor lets through is
//! one the server accepts. The position goes back into the form as a FEN (xiangqi) or
//! typed stones (caro), and the room is created from the form as usual.

pub mod caro;
pub mod xiangqi;

use banco_protocol::RoomSettings;
use banco_rules::caro::setup::Setup as CaroSetup;
use banco_rules::caro::{Point, Stone};
use banco_rules::xiangqi::{Piece, START, Setup as XiangqiSetup, Square};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton};
use ratatui::layout::Rect;

use super::create::{CreateForm, FEN_MAX, Field, GameKind, OpeningKind, STONES_MAX};
use super::input::TextInput;
use super::{App, Lobby, Screen};
use crate::layout::BoardShape;
use crate::layout::editor::{EditorHit, EditorLayout};
use crate::room::board::xq_square;
use crate::room::opening::{parse_stones, stones_text};
use crate::tr;
use caro::CaroEdit;
use xiangqi::XiangqiEdit;

/// The most edits `u` can take back.
const HISTORY: usize = 200;

/// The editor screen: the board being arranged, and the form it came from.
#[derive(Debug, Clone)]
pub struct EditorScreen {
    /// The create form, put back (with the position filled in, if used) on leaving.
    pub form: CreateForm,
    /// The lobby's highlighted room, put back on leaving.
    pub lobby_selected: usize,
    pub board: EditBoard,
    /// Earlier boards, for `u`.
    history: Vec<EditBoard>,
    /// The import line (a FEN, or caro stones), while open.
    pub import: Option<TextInput>,
    /// Why the server would refuse a room from this position, when the engine's checks
    /// pass but the room's own limits do not (a caro opening over a third of the
    /// board): the server's sentence. Kept up to date with the board.
    pub refusal: Option<String>,
}

/// The board being arranged, per game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditBoard {
    Xiangqi(Box<XiangqiEdit>),
    Caro(Box<CaroEdit>),
}

/// Where a click on the editor screen lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorSpot {
    Xiangqi(Square),
    Caro(Point),
    /// A palette entry (xiangqi).
    Palette(usize),
}

impl EditorScreen {
    /// Where the editor's parts go in `area` (the ui draws there; clicks are read there).
    pub fn layout(&self, area: Rect) -> EditorLayout {
        let shape = match &self.board {
            EditBoard::Xiangqi(_) => BoardShape::Xiangqi,
            EditBoard::Caro(c) => BoardShape::Caro {
                width: c.setup.board().width(),
            },
        };
        EditorLayout::new(area, shape)
    }

    /// What a click at (`col`, `row`) lands on, the screen being `area`: a point of the
    /// board, or a palette entry.
    pub fn spot_at(&self, area: Rect, col: u16, row: u16) -> Option<EditorSpot> {
        let l = self.layout(area);
        let hit = match &self.board {
            EditBoard::Xiangqi(x) => l.xiangqi_hit(x.flipped, col, row)?,
            EditBoard::Caro(c) => {
                let board = c.setup.board();
                l.caro_hit(board.width(), board.height(), c.cursor, col, row)?
            }
        };
        match hit {
            EditorHit::Square(sq) => xq_square(sq).map(EditorSpot::Xiangqi),
            EditorHit::Point(p) => Some(EditorSpot::Caro(p)),
            EditorHit::Palette(i) => Some(EditorSpot::Palette(i)),
        }
    }

    /// The editor for `form`'s game, starting from the position the form holds (its FEN
    /// or typed stones), else the usual start (xiangqi) or an empty board (caro). The
    /// second value says why the form's position could not be read, when it could not
    /// (the editor then starts afresh). `Err`: the form's caro board size is out of
    /// range, and says so.
    pub fn open(
        form: CreateForm,
        lobby_selected: usize,
    ) -> Result<(EditorScreen, Option<String>), String> {
        let mut trouble = None;
        let board = match form.game {
            GameKind::Xiangqi => {
                let typed = form.fen.text().trim();
                let setup = if typed.is_empty() {
                    XiangqiSetup::start()
                } else {
                    XiangqiSetup::from_fen(typed).unwrap_or_else(|e| {
                        trouble = Some(e.to_string());
                        XiangqiSetup::start()
                    })
                };
                EditBoard::Xiangqi(Box::new(XiangqiEdit::new(setup)))
            }
            GameKind::Caro => {
                let (w, h, rule) = (form.width, form.height, form.rule);
                let empty = CaroSetup::new(w, h, rule).map_err(|e| e.to_string())?;
                let typed = form.stones.text().trim();
                let setup = if form.opening == OpeningKind::Stones && !typed.is_empty() {
                    let read = parse_stones(typed, w, h).and_then(|stones| {
                        CaroSetup::from_opening(w, h, rule, &stones).map_err(|e| e.to_string())
                    });
                    read.unwrap_or_else(|e| {
                        trouble = Some(e);
                        empty
                    })
                } else {
                    empty
                };
                EditBoard::Caro(Box::new(CaroEdit::new(setup)))
            }
        };
        let mut screen = EditorScreen {
            form,
            lobby_selected,
            board,
            history: Vec::new(),
            import: None,
            refusal: None,
        };
        screen.refresh_refusal();
        Ok((screen, trouble))
    }

    /// The form with this position filled in: a FEN (none for the usual start) or the
    /// stones, X first (none for an empty board).
    pub fn filled_form(&self) -> CreateForm {
        let mut form = self.form.clone();
        match &self.board {
            EditBoard::Xiangqi(x) => {
                let fen = x.setup.fen();
                let fen = if fen == START { String::new() } else { fen };
                form.fen = TextInput::with_text(FEN_MAX, &fen);
                form.focus = Field::Fen;
            }
            EditBoard::Caro(c) => {
                let stones = c.setup.opening().unwrap_or_default();
                let board = c.setup.board();
                if stones.is_empty() {
                    form.opening = OpeningKind::None;
                    form.stones = TextInput::new(STONES_MAX);
                    form.focus = Field::Opening;
                } else {
                    form.opening = OpeningKind::Stones;
                    let text = stones_text(&stones, board.width(), board.height());
                    form.stones = TextInput::with_text(STONES_MAX, &text);
                    form.focus = Field::Stones;
                }
            }
        }
        form
    }

    /// The room settings the form would send with this position.
    pub fn settings(&self) -> RoomSettings {
        self.filled_form().settings()
    }

    /// The flaws' sentences, each with the points it concerns, as (text, points on the
    /// board); the server's refusal last, with no points.
    pub fn reasons(&self) -> Vec<(String, Vec<EditorSpot>)> {
        let mut out: Vec<(String, Vec<EditorSpot>)> = match &self.board {
            EditBoard::Xiangqi(x) => x
                .reasons()
                .into_iter()
                .map(|(t, sq)| (t, sq.into_iter().map(EditorSpot::Xiangqi).collect()))
                .collect(),
            EditBoard::Caro(c) => c
                .reasons()
                .into_iter()
                .map(|(t, ps)| (t, ps.into_iter().map(EditorSpot::Caro).collect()))
                .collect(),
        };
        if let Some(r) = &self.refusal {
            out.push((r.clone(), Vec::new()));
        }
        out
    }

    /// Whether a game can start from this position.
    pub fn ready(&self) -> bool {
        self.reasons().is_empty()
    }

    /// The server's judgement of the room this position makes, once the engine's checks
    /// pass (the server runs those too; here only its own limits can add anything).
    fn refresh_refusal(&mut self) {
        let clean = match &self.board {
            EditBoard::Xiangqi(x) => x.flaws.is_empty(),
            EditBoard::Caro(c) => c.flaws.is_empty(),
        };
        self.refusal = if clean {
            banco_server::room::settings::validate(&self.settings())
                .err()
                .map(|e| e.message)
        } else {
            None
        };
    }

    /// Remembers the board before an edit, for `u`.
    fn remember(&mut self) {
        if self.history.len() == HISTORY {
            self.history.remove(0);
        }
        self.history.push(self.board.clone());
    }

    /// Makes an edit: `edit` returns whether the board changed; if it did not, the
    /// remembered copy is dropped again.
    fn edit(&mut self, edit: impl FnOnce(&mut EditBoard) -> bool) {
        self.remember();
        if edit(&mut self.board) {
            self.refresh_refusal();
        } else {
            // Nothing changed (a pick-up, a cursor move): nothing to take back. The
            // board itself still carries the new cursor and hold.
            self.history.pop();
        }
    }

    /// Takes back the last edit; `false` if there was none.
    fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(board) => {
                self.board = board;
                // A piece picked up before that edit is not in hand any more.
                if let EditBoard::Xiangqi(x) = &mut self.board {
                    x.held = None;
                }
                self.refresh_refusal();
                true
            }
            None => false,
        }
    }
}

impl App {
    /// Opens the editor over the lobby's create form.
    pub(super) fn open_editor(&mut self) {
        let Screen::Lobby(lobby) = &self.screen else {
            return;
        };
        let Some(form) = lobby.create.clone() else {
            return;
        };
        match EditorScreen::open(form, lobby.selected) {
            Ok((editor, trouble)) => {
                self.screen = Screen::Editor(Box::new(editor));
                if let Some(why) = trouble {
                    let msg = tr!(self.loc, "editor.bad_typed", why = why);
                    self.warn(msg);
                }
            }
            Err(_) => {
                let msg = tr!(self.loc, "create.bad_size");
                self.warn(msg.to_string());
            }
        }
    }

    /// Back to the lobby's form: with the position filled in when `use_it`, else as it
    /// was.
    fn close_editor(&mut self, use_it: bool) {
        let Screen::Editor(ed) = &self.screen else {
            return;
        };
        let form = if use_it {
            ed.filled_form()
        } else {
            ed.form.clone()
        };
        self.screen = Screen::Lobby(Lobby {
            selected: ed.lobby_selected,
            create: Some(form),
        });
        if use_it {
            let msg = tr!(self.loc, "editor.used");
            self.info(msg.to_string());
        }
    }

    pub(super) fn editor_key(&mut self, key: KeyEvent) {
        let Screen::Editor(ed) = &mut self.screen else {
            return;
        };
        if ed.import.is_some() {
            return self.import_key(key);
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            return;
        }
        match key.code {
            KeyCode::Enter => return self.use_position(),
            KeyCode::Esc => {
                let held = matches!(&ed.board, EditBoard::Xiangqi(x) if x.held.is_some());
                if let EditBoard::Xiangqi(x) = &mut ed.board
                    && held
                {
                    x.held = None;
                    return;
                }
                return self.close_editor(false);
            }
            KeyCode::Char('q') => return self.close_editor(false),
            KeyCode::Char('?') => {
                self.help = true;
                return;
            }
            KeyCode::Char('u') => {
                if !ed.undo() {
                    let msg = tr!(self.loc, "editor.nothing_to_undo");
                    self.info(msg.to_string());
                }
                return;
            }
            KeyCode::Char('d') => {
                ed.edit(|b| {
                    match b {
                        EditBoard::Xiangqi(x) => x.clear_board(),
                        EditBoard::Caro(c) => c.clear_board(),
                    }
                    true
                });
                let msg = tr!(self.loc, "editor.cleared");
                self.info(msg.to_string());
                return;
            }
            KeyCode::Char('i') => {
                let max = match ed.board {
                    EditBoard::Xiangqi(_) => FEN_MAX,
                    EditBoard::Caro(_) => STONES_MAX,
                };
                ed.import = Some(TextInput::new(max));
                return;
            }
            _ => {}
        }
        match &ed.board {
            EditBoard::Xiangqi(_) => self.xiangqi_key(key),
            EditBoard::Caro(_) => self.caro_key(key),
        }
    }

    fn xiangqi_key(&mut self, key: KeyEvent) {
        let Screen::Editor(ed) = &mut self.screen else {
            return;
        };
        match key.code {
            KeyCode::Left => ed.edit(|b| step(b, -1, 0)),
            KeyCode::Right => ed.edit(|b| step(b, 1, 0)),
            KeyCode::Up => ed.edit(|b| step(b, 0, -1)),
            KeyCode::Down => ed.edit(|b| step(b, 0, 1)),
            KeyCode::Tab => ed.edit(|b| palette(b, true)),
            KeyCode::BackTab => ed.edit(|b| palette(b, false)),
            KeyCode::Char(' ') => ed.edit(activate),
            KeyCode::Delete | KeyCode::Backspace => ed.edit(clear_point),
            KeyCode::Char('t') => ed.edit(|b| {
                if let EditBoard::Xiangqi(x) = b {
                    x.toggle_side();
                }
                true
            }),
            KeyCode::Char('f') => ed.edit(|b| {
                if let EditBoard::Xiangqi(x) = b {
                    x.flipped = !x.flipped;
                }
                false
            }),
            KeyCode::Char('s') => {
                ed.edit(|b| {
                    if let EditBoard::Xiangqi(x) = b {
                        x.replace(XiangqiSetup::start());
                    }
                    true
                });
                let msg = tr!(self.loc, "editor.start");
                self.info(msg.to_string());
            }
            KeyCode::Char(c) => {
                if let Some(piece) = Piece::from_fen_char(c) {
                    ed.edit(|b| {
                        if let EditBoard::Xiangqi(x) = b {
                            x.place(piece);
                        }
                        true
                    });
                }
            }
            _ => {}
        }
    }

    fn caro_key(&mut self, key: KeyEvent) {
        let Screen::Editor(ed) = &mut self.screen else {
            return;
        };
        let far = if key.modifiers.contains(KeyModifiers::SHIFT) {
            5
        } else {
            1
        };
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => ed.edit(|b| step(b, -far, 0)),
            KeyCode::Right | KeyCode::Char('l') => ed.edit(|b| step(b, far, 0)),
            KeyCode::Up | KeyCode::Char('k') => ed.edit(|b| step(b, 0, -far)),
            KeyCode::Down | KeyCode::Char('j') => ed.edit(|b| step(b, 0, far)),
            KeyCode::Char('H') => ed.edit(|b| step(b, -5, 0)),
            KeyCode::Char('L') => ed.edit(|b| step(b, 5, 0)),
            KeyCode::Char('K') => ed.edit(|b| step(b, 0, -5)),
            KeyCode::Char('J') => ed.edit(|b| step(b, 0, 5)),
            KeyCode::Char(' ') => ed.edit(activate),
            KeyCode::Delete | KeyCode::Backspace => ed.edit(clear_point),
            KeyCode::Char('x') | KeyCode::Char('X') => ed.edit(|b| put_stone(b, Stone::X)),
            KeyCode::Char('o') | KeyCode::Char('O') => ed.edit(|b| put_stone(b, Stone::O)),
            KeyCode::Char('t') => {
                let msg = tr!(self.loc, "editor.caro_side");
                self.info(msg.to_string());
            }
            _ => {}
        }
    }

    /// Enter: back to the form with the position, unless the rules (or the server's
    /// limits) refuse it; then the editor stays and says why.
    fn use_position(&mut self) {
        let Screen::Editor(ed) = &self.screen else {
            return;
        };
        match ed.reasons().into_iter().next() {
            Some((why, _)) => {
                let msg = tr!(self.loc, "editor.refused", why = why);
                self.warn(msg);
            }
            None => self.close_editor(true),
        }
    }

    /// Keys while the import line is open: text, Enter reads it, Esc closes it.
    fn import_key(&mut self, key: KeyEvent) {
        let Screen::Editor(ed) = &mut self.screen else {
            return;
        };
        let Some(input) = &mut ed.import else {
            return;
        };
        match key.code {
            KeyCode::Esc => ed.import = None,
            KeyCode::Enter => {
                let text = input.text().trim().to_string();
                let read = match &ed.board {
                    EditBoard::Xiangqi(_) => XiangqiSetup::from_fen(&text)
                        .map(|s| EditBoard::Xiangqi(Box::new(XiangqiEdit::new(s))))
                        .map_err(|e| e.to_string()),
                    EditBoard::Caro(c) => {
                        let board = c.setup.board();
                        let (w, h, rule) = (board.width(), board.height(), c.setup.rule());
                        parse_stones(&text, w, h)
                            .and_then(|stones| {
                                CaroSetup::from_opening(w, h, rule, &stones)
                                    .map_err(|e| e.to_string())
                            })
                            .map(|s| EditBoard::Caro(Box::new(CaroEdit::new(s))))
                    }
                };
                match read {
                    Ok(board) => {
                        ed.import = None;
                        ed.edit(|b| {
                            // The cursor and the view stay where they were.
                            match (b, board) {
                                (EditBoard::Xiangqi(x), EditBoard::Xiangqi(new)) => {
                                    x.replace(new.setup)
                                }
                                (EditBoard::Caro(c), EditBoard::Caro(new)) => c.replace(new.setup),
                                _ => {}
                            }
                            true
                        });
                        let msg = tr!(self.loc, "editor.imported");
                        self.info(msg.to_string());
                    }
                    Err(why) => {
                        let msg = tr!(self.loc, "editor.bad_import", why = why);
                        self.warn(msg);
                    }
                }
            }
            _ => {
                input.edit(key);
            }
        }
    }

    /// A mouse button on the editor: left acts like Space where it lands (or picks a
    /// palette entry), right clears the point.
    pub(super) fn editor_mouse(&mut self, col: u16, row: u16, button: MouseButton) {
        let area = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
        let Screen::Editor(ed) = &mut self.screen else {
            return;
        };
        let Some(spot) = ed.spot_at(area, col, row) else {
            return;
        };
        if ed.import.is_some() {
            return;
        }
        let clear = button == MouseButton::Right;
        match spot {
            EditorSpot::Palette(i) => ed.edit(|b| {
                if let EditBoard::Xiangqi(x) = b {
                    x.palette = i;
                }
                false
            }),
            EditorSpot::Xiangqi(sq) => ed.edit(|b| match b {
                EditBoard::Xiangqi(x) => {
                    x.cursor = sq;
                    if clear { x.clear_point() } else { x.activate() }
                }
                EditBoard::Caro(_) => false,
            }),
            EditorSpot::Caro(p) => ed.edit(|b| match b {
                EditBoard::Caro(c) => {
                    c.cursor = p;
                    if clear {
                        c.clear_point()
                    } else {
                        c.activate();
                        true
                    }
                }
                EditBoard::Xiangqi(_) => false,
            }),
        }
    }
}

fn step(b: &mut EditBoard, dx: i32, dy: i32) -> bool {
    match b {
        EditBoard::Xiangqi(x) => x.step(dx, dy),
        EditBoard::Caro(c) => c.step(dx, dy),
    }
    false
}

fn palette(b: &mut EditBoard, forward: bool) -> bool {
    if let EditBoard::Xiangqi(x) = b {
        x.cycle_palette(forward);
    }
    false
}

fn activate(b: &mut EditBoard) -> bool {
    match b {
        EditBoard::Xiangqi(x) => x.activate(),
        EditBoard::Caro(c) => {
            c.activate();
            true
        }
    }
}

fn clear_point(b: &mut EditBoard) -> bool {
    match b {
        EditBoard::Xiangqi(x) => x.clear_point(),
        EditBoard::Caro(c) => c.clear_point(),
    }
}

fn put_stone(b: &mut EditBoard, stone: Stone) -> bool {
    if let EditBoard::Caro(c) = b {
        c.place(stone);
    }
    true
}
