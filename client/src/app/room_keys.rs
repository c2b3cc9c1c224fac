//! Keys on the room screen: the board, offers, chat, leaving.

use banco_protocol::{ClientMsg, Move, OfferKind};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::board::{BoardInput, Pointed, Spot};
use super::input::Edit;
use super::{App, Confirm, Popup, Screen};
use crate::tr;

impl App {
    pub(super) fn room_key(&mut self, key: KeyEvent) {
        let Screen::Room(rs) = &mut self.screen else {
            return;
        };
        if rs.chat_focus {
            match key.code {
                KeyCode::Esc => rs.chat_focus = false,
                KeyCode::Enter => {
                    let text = rs.chat.text().trim().to_string();
                    if !text.is_empty() {
                        rs.chat.take();
                        rs.chat_scroll = 0;
                        self.send(ClientMsg::Chat(text));
                    }
                }
                KeyCode::PageUp => rs.chat_scroll += 3,
                KeyCode::PageDown => rs.chat_scroll = rs.chat_scroll.saturating_sub(3),
                _ => {
                    if rs.chat.edit(key) == Edit::Full {
                        let msg = tr!(self.loc, "room.chat_full", max = super::CHAT_MAX);
                        self.warn(msg);
                    }
                }
            }
            return;
        }
        // Esc first puts down a picked-up piece, then leaves draft mode; only then does
        // it mean leaving.
        if key.code == KeyCode::Esc && rs.cursor.deselect() {
            return;
        }
        let drafting = rs.draft.is_some();
        if drafting {
            match key.code {
                KeyCode::Esc | KeyCode::Char('p') => return self.toggle_draft(),
                KeyCode::Enter | KeyCode::Char(' ') => return self.draft_activate(None),
                KeyCode::Char('u') | KeyCode::Backspace => return self.draft_undo(),
                _ => {}
            }
        }
        let far = key.modifiers.contains(KeyModifiers::SHIFT);
        let step = if far { 5 } else { 1 };
        let board = match key.code {
            KeyCode::Left | KeyCode::Char('h') => Some(BoardInput::Step(-step, 0)),
            KeyCode::Right | KeyCode::Char('l') => Some(BoardInput::Step(step, 0)),
            KeyCode::Up | KeyCode::Char('k') => Some(BoardInput::Step(0, -step)),
            KeyCode::Down | KeyCode::Char('j') => Some(BoardInput::Step(0, step)),
            KeyCode::Char('H') => Some(BoardInput::Step(-5, 0)),
            KeyCode::Char('L') => Some(BoardInput::Step(5, 0)),
            KeyCode::Char('K') => Some(BoardInput::Step(0, -5)),
            KeyCode::Char('J') => Some(BoardInput::Step(0, 5)),
            KeyCode::Enter | KeyCode::Char(' ') => Some(BoardInput::Activate),
            _ => None,
        };
        if let Some(input) = board {
            let room = rs.room.clone();
            let pointed = rs.cursor.input(&room, input);
            return self.pointed(pointed, |_| true);
        }
        match key.code {
            KeyCode::Char('p') => self.toggle_draft(),
            KeyCode::Char('u') => self.offer(OfferKind::Undo),
            KeyCode::Char('g') => self.offer(OfferKind::NewGame),
            KeyCode::Char('d') => self.offer(OfferKind::Draw),
            KeyCode::Char('r') => self.ask_resign(),
            KeyCode::Char('R') => self.ask_resign_match(),
            KeyCode::Char('i') => self.ask_hint(),
            // An arena's berserk (the server says when it cannot be done).
            KeyCode::Char('B') => self.send(ClientMsg::Berserk),
            KeyCode::Char('y') | KeyCode::Char('n') => {
                let answer = self.room().and_then(|r| r.room.offer_to_me());
                match answer {
                    Some(offer) => self.send(ClientMsg::Answer {
                        kind: offer.kind,
                        accept: key.code == KeyCode::Char('y'),
                    }),
                    None => {
                        let msg = tr!(self.loc, "room.no_offer");
                        self.warn(msg.to_string());
                    }
                }
            }
            KeyCode::Char('x') => {
                let mine = self.room().and_then(|r| r.room.my_offer());
                match mine {
                    Some(offer) => self.send(ClientMsg::Withdraw(offer.kind)),
                    None => {
                        let msg = tr!(self.loc, "room.no_own_offer");
                        self.warn(msg.to_string());
                    }
                }
            }
            KeyCode::Char('c') | KeyCode::Char('t') | KeyCode::Char('/') | KeyCode::Tab => {
                if let Screen::Room(rs) = &mut self.screen {
                    rs.chat_focus = true;
                }
            }
            KeyCode::Char('.') | KeyCode::Char('m') => {
                if let Screen::Room(rs) = &mut self.screen {
                    match rs
                        .room
                        .game
                        .as_ref()
                        .and_then(|g| g.last_move())
                        .map(|m| m.mv)
                    {
                        Some(Move::Caro(p)) => rs.cursor.set(p),
                        Some(Move::Xiangqi { to, .. }) => rs.cursor.set_square(to),
                        None => {}
                    }
                }
            }
            KeyCode::PageUp => {
                if let Screen::Room(rs) = &mut self.screen {
                    rs.chat_scroll += 3;
                }
            }
            KeyCode::PageDown => {
                if let Screen::Room(rs) = &mut self.screen {
                    rs.chat_scroll = rs.chat_scroll.saturating_sub(3);
                }
            }
            KeyCode::Char('o') => {
                if matches!(self.room().and_then(|r| r.room.game.as_ref()), Some(g) if g.over.is_some())
                {
                    self.popup = Some(Popup::GameOver);
                }
            }
            KeyCode::Char('s') => self.open_settings(),
            KeyCode::Char('v') => self.open_seat_profile(None),
            KeyCode::Char('w') => {
                self.settings.threat_warning = !self.settings.threat_warning;
                self.effects.push(super::Effect::SaveSettings);
                let key = if self.settings.threat_warning {
                    "room.threats_on"
                } else {
                    "room.threats_off"
                };
                let msg = tr!(self.loc, key).to_string();
                self.info(msg);
            }
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('q') | KeyCode::Esc => {
                let loses = self
                    .room()
                    .is_some_and(|r| r.room.playing() && r.room.my_seat().is_some());
                if loses {
                    self.popup = Some(Popup::Confirm(Confirm::Leave { loses }));
                } else {
                    self.send(ClientMsg::LeaveRoom);
                }
            }
            _ => {}
        }
    }

    /// A click on the board: the cursor goes there and, on your turn, the stone too
    /// (caro); xiangqi picks up or moves as Enter does.
    pub(super) fn click_board(&mut self, spot: Spot) {
        let Screen::Room(rs) = &mut self.screen else {
            return;
        };
        if rs.draft.is_some() {
            return self.draft_activate(Some(spot));
        }
        let room = rs.room.clone();
        let pointed = rs.cursor.click(&room, spot);
        // A click on a caro point off turn only moves the cursor.
        self.pointed(pointed, |mv| {
            matches!(mv, Move::Xiangqi { .. }) || room.my_turn()
        });
    }

    /// Carries out what a board key or click asked: plays the move (when `play_it`
    /// agrees), or tells why the rules refuse it.
    fn pointed(&mut self, pointed: Pointed, play_it: impl FnOnce(Move) -> bool) {
        match pointed {
            Ok(Some(mv)) if play_it(mv) => self.play(mv),
            Ok(_) => {}
            Err(refusal) => {
                let msg = refusal.text(&self.loc);
                self.warn(msg);
            }
        }
    }

    /// Sends a move after the checks the client can make itself, so an obvious mistake
    /// gets an instant answer (the server checks everything again).
    fn play(&mut self, mv: Move) {
        let Some(rs) = self.room() else {
            return;
        };
        let room = &rs.room;
        let refusal = if room.my_seat().is_none() {
            Some("room.spectator_cannot_move")
        } else if room.game.is_none() {
            Some("room.no_game_yet")
        } else if !room.playing() {
            Some("room.game_is_over")
        } else if !room.my_turn() {
            Some("room.not_your_turn")
        } else if let (Move::Caro(p), Some(game)) =
            (mv, room.game.as_ref().and_then(|g| g.board.caro()))
            && !game.board().is_empty_at(p)
        {
            Some("room.occupied")
        } else {
            None
        };
        // Xiangqi moves come from the cursor, which has the engine check them first
        // (and says why one is refused); the server checks them again.
        match refusal {
            Some(key) => {
                let msg = tr!(self.loc, key).to_string();
                self.warn(msg);
            }
            None => self.send(ClientMsg::Move(mv)),
        }
    }

    fn ask_resign(&mut self) {
        if self.must_play() {
            self.popup = Some(Popup::Confirm(Confirm::Resign));
        }
    }

    /// `R`: give up the whole match, after a confirmation (between games too).
    fn ask_resign_match(&mut self) {
        if !self.must_be_player() {
            return;
        }
        if self.room().is_some_and(|r| r.room.in_match()) {
            self.popup = Some(Popup::Confirm(Confirm::ResignMatch));
        } else {
            let msg = tr!(self.loc, "server_error.no_match").to_string();
            self.warn(msg);
        }
    }

    fn ask_hint(&mut self) {
        if self.must_be_player() {
            self.send(ClientMsg::Hint);
        }
    }

    /// Whether this client plays in the room (spectators are told they cannot).
    fn must_be_player(&mut self) -> bool {
        let player = self.room().is_some_and(|r| r.room.my_seat().is_some());
        if !player {
            let msg = tr!(self.loc, "room.spectator_cannot").to_string();
            self.warn(msg);
        }
        player
    }

    /// Whether a game is running and this client plays in it.
    fn must_play(&mut self) -> bool {
        if !self.must_be_player() {
            return false;
        }
        let playing = self.room().is_some_and(|r| r.room.playing());
        if !playing {
            let msg = tr!(self.loc, "room.no_running_game").to_string();
            self.warn(msg);
        }
        playing
    }

    fn offer(&mut self, kind: OfferKind) {
        if !self.must_be_player() {
            return;
        }
        if kind == OfferKind::Undo {
            let moved = self.room().is_some_and(|r| {
                let seat = r.room.my_seat();
                r.room
                    .game
                    .as_ref()
                    .is_some_and(|g| seat.is_some_and(|s| g.has_moved(s)))
            });
            if !moved {
                let msg = tr!(self.loc, "room.nothing_to_undo").to_string();
                self.warn(msg);
                return;
            }
        }
        self.send(ClientMsg::Offer(kind));
    }
}
