//! What the app does with each message from the server.

use banco_protocol::{ClientMsg, Move, Role, ServerMsg, Storage};

use super::board::BoardCursor;
use super::input::TextInput;
use super::{App, CHAT_MAX, Effect, Lobby, Popup, RoomScreen, Screen};
use crate::narrate;
use crate::reconnect::Return;
use crate::room::Room;
use crate::tr;

impl App {
    /// One message from the server.
    pub fn server(&mut self, msg: ServerMsg) {
        if let Some(change) = self.session.challenges.apply(&msg) {
            self.challenge_changed(change);
            return;
        }
        if matches!(
            msg,
            ServerMsg::Tournaments(_)
                | ServerMsg::Tournament(_)
                | ServerMsg::TournamentGame(_)
                | ServerMsg::TournamentOver { .. }
                | ServerMsg::TournamentExport { .. }
        ) {
            self.tournament_msg(msg);
            return;
        }
        match msg {
            ServerMsg::Welcome(_) | ServerMsg::RoomCreated(_) | ServerMsg::Ping(_) => {}
            ServerMsg::Storage(storage) => self.storage_changed(storage),
            ServerMsg::PasswordChanged => self.password_changed(),
            ServerMsg::Rooms(list) => {
                self.session.rooms = list;
                if matches!(self.session.rejoining, Some(Return::Seat(_))) {
                    // The list instead of our room: the seat was not held.
                    self.seat_lost();
                } else if self.session.rejoining.is_none()
                    && let Screen::Lobby(lobby) = &mut self.screen
                {
                    lobby.selected = lobby
                        .selected
                        .min(self.session.rooms.len().saturating_sub(1));
                    // In the lobby, sitting nowhere (a seat claimed at start that the
                    // server did not give back, say).
                    self.effects.push(Effect::ForgetSeat);
                }
            }
            ServerMsg::RoomsChanged { changed, closed } => {
                banco_protocol::apply_room_changes(&mut self.session.rooms, &changed, &closed);
                if let Screen::Lobby(lobby) = &mut self.screen {
                    lobby.selected = lobby
                        .selected
                        .min(self.session.rooms.len().saturating_sub(1));
                }
            }
            ServerMsg::Joined(view) => {
                self.session.rejoining = None;
                self.joined(Room::from_view(*view, self.now));
            }
            ServerMsg::Left => {
                self.screen = Screen::Lobby(Lobby::default());
                self.popup = None;
                self.send(ClientMsg::ListRooms);
                self.effects.push(Effect::ForgetSeat);
                if let Some(last) = self.review_after_leaving.take() {
                    self.open_last_game_review(last);
                }
            }
            ServerMsg::Error(e) => {
                if self.password_refused(&e) {
                    return;
                }
                self.records_refused();
                self.review_refused();
                self.profile_refused(&crate::narrate::server_error(&e, &self.loc));
                if matches!(self.session.rejoining, Some(Return::Watch(_))) {
                    // The room we watched is gone: the lobby.
                    self.session.rejoining = None;
                    self.screen = Screen::Lobby(Lobby::default());
                    self.send(ClientMsg::ListRooms);
                }
                let text = crate::narrate::server_error(&e, &self.loc);
                self.warn(text);
            }
            ServerMsg::Leaderboard { game, standings } => self.got_leaderboard(game, standings),
            ServerMsg::Profile(profile) => self.got_profile(*profile),
            ServerMsg::History(list) => self.got_history(list),
            ServerMsg::Replay(record) => self.got_replay(*record),
            ServerMsg::ReviewProgress { game, done, total } => {
                self.review_progress(game, done, total);
            }
            ServerMsg::Review(review) => self.got_review(*review),
            other => self.room_event(other),
        }
    }

    /// The server started or stopped saving games.
    fn storage_changed(&mut self, storage: Storage) {
        match storage {
            Storage::NotSaving { reason } => {
                let text = tr!(self.loc, "net.not_saving", reason = reason);
                self.session.storage = Some(reason);
                self.warn(text);
            }
            Storage::Saving => {
                if self.session.storage.take().is_some() {
                    let text = tr!(self.loc, "net.saving_again").to_string();
                    self.info(text);
                }
            }
        }
    }

    fn joined(&mut self, room: Room) {
        // A player's token is kept on disk, to take the seat back after a crash.
        self.effects.push(match room.my_seat() {
            Some(_) => Effect::KeepSeat { room: room.id },
            None => Effect::ForgetSeat,
        });
        let cursor = BoardCursor::for_room(&room);
        let text = narrate::joined(&room, &self.loc);
        let offer = room.offer_to_me();
        self.screen = Screen::Room(Box::new(RoomScreen {
            room,
            cursor,
            chat: TextInput::new(CHAT_MAX),
            chat_focus: false,
            chat_scroll: 0,
            draft: None,
        }));
        self.popup = offer.map(Popup::Offer);
        self.info(text);
    }

    /// A message about the room: update the model, then tell the player what changed.
    fn room_event(&mut self, msg: ServerMsg) {
        let now = self.now;
        let Screen::Room(rs) = &mut self.screen else {
            return;
        };
        let seats_before = rs.room.seats.clone();
        let had_offer = rs.room.offer.is_some();
        rs.room.apply(&msg, now);
        let room = rs.room.clone();
        let loc = &self.loc.clone();
        // The trial moves stood on a position that is gone.
        if matches!(
            msg,
            ServerMsg::Moved { .. }
                | ServerMsg::Undone { .. }
                | ServerMsg::GameStarted(_)
                | ServerMsg::GameOver(_)
        ) {
            self.end_draft();
        }
        match &msg {
            ServerMsg::People { seats, .. } => {
                for seat in banco_protocol::Seat::BOTH {
                    let (old, new) = (&seats_before[seat.index()], &seats[seat.index()]);
                    let text = match (old, new) {
                        (None, Some(s)) => Some(tr!(loc, "room.sat_down", name = s.name)),
                        (Some(s), None) => Some(tr!(loc, "room.stood_up", name = s.name)),
                        (Some(a), Some(b)) if a.connected && !b.connected => {
                            Some(tr!(loc, "room.connection_lost", name = b.name))
                        }
                        (Some(a), Some(b)) if !a.connected && b.connected => {
                            Some(tr!(loc, "room.reconnected", name = b.name))
                        }
                        _ => None,
                    };
                    if let Some(t) = text {
                        self.info(t);
                    }
                }
            }
            ServerMsg::GameStarted(_) => {
                if let Screen::Room(rs) = &mut self.screen {
                    rs.cursor = BoardCursor::for_room(&room);
                }
                self.popup = None;
                let text = narrate::game_started(&room, loc);
                self.info(text);
            }
            ServerMsg::Swap(view) => {
                let last = view.steps.last().copied();
                if let Some(banco_protocol::SwapStep::Decided { by, choice }) = last {
                    let text = narrate::swap_decided(&room, by, choice, loc);
                    self.info(text);
                } else if let Some(t) = narrate::swap_line(&room, loc) {
                    self.info(t);
                }
                let mine = view.to_act.is_some() && view.to_act == room.my_seat();
                if mine && !view.choices.is_empty() {
                    self.popup = Some(Popup::Swap);
                    self.bell();
                } else if matches!(self.popup, Some(Popup::Swap)) {
                    self.popup = None;
                }
            }
            ServerMsg::Moved { record, .. } => {
                // One's own moves need no telling; the other side's do, by name and point
                // (and, for a player, by the bell: it is their turn).
                if room.my_seat() != Some(record.by) {
                    let text = narrate::moved(&room, record, loc);
                    self.info(text);
                    if room.my_seat().is_some() {
                        self.bell();
                    }
                } else if narrate::not_a_win(&room, record).is_some() {
                    // One's own five that the rule does not count: say why, or the game
                    // just going on looks like a fault.
                    let text = narrate::moved(&room, record, loc);
                    self.warn(text);
                }
            }
            ServerMsg::Offered(offer) => {
                let text = narrate::offered(&room, offer, loc);
                if room.offer_to_me().is_some() {
                    self.popup = Some(Popup::Offer(*offer));
                    self.bell();
                }
                self.info(text);
                if let Some(n) = &mut self.notice {
                    n.about_offer = true;
                }
            }
            ServerMsg::Declined(offer) => {
                let text = narrate::declined(&room, offer, loc);
                self.close_offer_popup();
                self.warn(text);
            }
            ServerMsg::Withdrawn(offer) => {
                let text = narrate::withdrawn(&room, offer, loc);
                self.close_offer_popup();
                if room.my_seat() != Some(offer.by) {
                    self.info(text);
                }
            }
            ServerMsg::Undone { plies, .. } => {
                let text = narrate::undone(*plies, loc);
                self.close_offer_popup();
                if matches!(self.popup, Some(Popup::GameOver)) {
                    self.popup = None;
                }
                self.info(text);
            }
            ServerMsg::GameOver(_) => {
                // The dialog and the status line say it; the notice would repeat it.
                self.popup = Some(Popup::GameOver);
                self.notice = None;
                if room.my_seat().is_some() {
                    self.bell();
                }
            }
            ServerMsg::Hint(mv) => {
                let text = tr!(loc, "event.hint", point = room.move_text(mv));
                if let Screen::Room(rs) = &mut self.screen {
                    match mv {
                        Move::Caro(p) => rs.cursor.set(*p),
                        Move::Xiangqi { from, .. } => rs.cursor.set_square(*from),
                    }
                }
                self.info(text);
            }
            ServerMsg::Match(state) => {
                // A game of the match begins: its place in the match; one ends without
                // deciding it: the score and when the next begins.
                let text = match (room.playing(), state.game) {
                    (true, 1) => tr!(
                        loc,
                        "match.began",
                        format = narrate::match_format(&state.format, loc)
                    ),
                    (true, game) => tr!(loc, "match.game", game = game),
                    (false, _) => {
                        let line = narrate::match_line(&room, loc).unwrap_or_default();
                        let next = narrate::match_next(&room, now, loc).unwrap_or_default();
                        format!("{line}. {next}")
                    }
                };
                // The result dialog of the game just over stays: the notice goes under it.
                self.info(text);
            }
            ServerMsg::MatchOver(result) => {
                let text = narrate::match_over(&room, result, loc);
                self.info(text);
                if room.my_seat().is_some() {
                    self.bell();
                }
            }
            ServerMsg::Chat(_) | ServerMsg::Clock(_) => {}
            ServerMsg::Welcome(_)
            | ServerMsg::Rooms(_)
            | ServerMsg::RoomsChanged { .. }
            | ServerMsg::RoomCreated(_)
            | ServerMsg::Joined(_)
            | ServerMsg::Left
            | ServerMsg::Error(_) => {}
            // Records are taken in by `server` before room events.
            ServerMsg::Leaderboard { .. }
            | ServerMsg::Profile(_)
            | ServerMsg::History(_)
            | ServerMsg::Replay(_)
            | ServerMsg::Ping(_)
            | ServerMsg::PasswordChanged
            | ServerMsg::LoggedOut
            | ServerMsg::ReviewProgress { .. }
            | ServerMsg::Review(_)
            | ServerMsg::Storage(_) => {}
            // This client carries the rules itself and never asks for the position's facts.
            // What a client without the rules asks for (the browser page); this one has them.
            ServerMsg::Facts(_)
            | ServerMsg::Judged(_)
            | ServerMsg::Tried(_)
            | ServerMsg::RecordParsed(_)
            | ServerMsg::RecordText { .. }
            | ServerMsg::RecordRefused { .. } => {}
            // Taken in by `server` before room events.
            ServerMsg::ChallengeSent(_)
            | ServerMsg::Challenged(_)
            | ServerMsg::ChallengeEnded { .. }
            | ServerMsg::OpenChallenges(_)
            | ServerMsg::Players(_)
            | ServerMsg::ChallengesSet(_)
            | ServerMsg::Tournaments(_)
            | ServerMsg::Tournament(_)
            | ServerMsg::TournamentGame(_)
            | ServerMsg::TournamentOver { .. }
            | ServerMsg::TournamentExport { .. } => {}
        }
        // The offer ended (withdrawn, declined, accepted, or gone with a move): a notice
        // still telling of it would be stale.
        if had_offer
            && self.room().is_some_and(|r| r.room.offer.is_none())
            && self.notice.as_ref().is_some_and(|n| n.about_offer)
        {
            self.notice = None;
        }
        if let Screen::Room(rs) = &mut self.screen
            && rs.room.you == Role::Spectator
            && matches!(self.popup, Some(Popup::Offer(_)))
        {
            self.popup = None;
        }
    }

    fn close_offer_popup(&mut self) {
        if matches!(self.popup, Some(Popup::Offer(_))) {
            self.popup = None;
        }
    }
}
