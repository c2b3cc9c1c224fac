//! What players agree on: undo, a new game (a rematch after the game) and a draw; and
//! resigning, which needs no agreement. The rules of offers are in [`super::offer`];
//! this is what the room does with them.

use tokio::time::Instant;

use banco_protocol::{EndReason, ErrorCode, ErrorMsg, Offer, OfferKind, Seat, ServerMsg};

use super::offer::{Situation, Stage, undo_plies};
use super::{CurrentGame, Room, SeatState};
use crate::ClientId;
use crate::store::Event;

/// How far behind (in its engine's score, from its own side) a bot must stand to take a
/// draw in a game still young: about a soldier in xiangqi, a stone's worth of shape in
/// caro.
const BOT_DRAW_BEHIND: i32 = 100;
/// From this many plies on, a bot that is not ahead takes a draw: the game has come to
/// nothing.
const BOT_DRAW_LONG_GAME: usize = 80;

/// Whether a bot accepts a draw offer, given its last search's score and the plies played.
/// People expect a bot to play on from an even position and to take a draw when it
/// stands worse or a long game is going nowhere.
fn bot_takes_draw(score: i32, plies: usize) -> bool {
    score <= -BOT_DRAW_BEHIND || (plies >= BOT_DRAW_LONG_GAME && score <= 0)
}

impl Room {
    /// A member offers `kind`. Against a bot the bot answers at once.
    pub(super) fn offer(&mut self, client: ClientId, kind: OfferKind) -> Result<(), ErrorMsg> {
        let Some(seat) = self.seat_of(client) else {
            return self.spectator_offer(kind);
        };
        let has_moved = self
            .game
            .as_ref()
            .is_some_and(|m| m.moves.iter().any(|r| r.by == seat));
        let situation = Situation {
            stage: self.stage(),
            asker_has_moved: has_moved,
        };
        // A bot answers at once and minds no number of offers; a person is spared floods.
        let offer = if matches!(self.seats[seat.other().index()], SeatState::Bot(_)) {
            self.offers.make(kind, seat, situation)?
        } else {
            self.offers
                .make_paced(kind, seat, situation, Instant::now())?
        };
        tracing::info!(?offer, "offer made");
        self.broadcast(ServerMsg::Offered(offer));
        let plies = self.game.as_ref().map_or(0, |m| m.moves.len());
        if let SeatState::Bot(bot) = &self.seats[seat.other().index()] {
            // The bot agrees to undo and to a new game; a draw only on its judgement.
            let accept = match kind {
                OfferKind::Undo | OfferKind::NewGame => true,
                OfferKind::Draw => bot_takes_draw(bot.last_score, plies),
            };
            if self.offers.answer(kind, seat.other()).is_ok() {
                self.settle(offer, accept);
            }
        }
        Ok(())
    }

    /// In a room only bots play, whoever watches may start the next game once one ends.
    fn spectator_offer(&mut self, kind: OfferKind) -> Result<(), ErrorMsg> {
        if kind != OfferKind::NewGame || !self.bots_only() {
            return Err(ErrorMsg::new(
                ErrorCode::NotAPlayer,
                "spectators cannot make offers",
            ));
        }
        if self.game.as_ref().is_some_and(CurrentGame::running) {
            return Err(ErrorMsg::new(
                ErrorCode::NotAPlayer,
                "the bots are still playing: a new game can start when this one ends",
            ));
        }
        self.start_game();
        Ok(())
    }

    /// Where the game stands for an offer.
    fn stage(&self) -> Stage {
        let seated = self.seats.iter().all(|s| !matches!(s, SeatState::Free));
        match &self.game {
            Some(m) if seated && m.running() => Stage::Running,
            Some(_) if seated => Stage::Over,
            // A match reopened between two of its games: the next may be agreed on.
            None if seated && self.live_match().is_some() => Stage::Over,
            _ => Stage::NoGame,
        }
    }

    /// A player answers the other's open offer.
    pub(super) fn answer(
        &mut self,
        client: ClientId,
        kind: OfferKind,
        accept: bool,
    ) -> Result<(), ErrorMsg> {
        let seat = self.player(client, "answer offers")?;
        let offer = self.offers.answer(kind, seat)?;
        self.settle(offer, accept);
        Ok(())
    }

    /// A player takes back their open offer.
    pub(super) fn withdraw(&mut self, client: ClientId, kind: OfferKind) -> Result<(), ErrorMsg> {
        let seat = self.player(client, "make or withdraw offers")?;
        let offer = self.offers.withdraw(kind, seat)?;
        self.broadcast(ServerMsg::Withdrawn(offer));
        Ok(())
    }

    /// Carries out an answered offer.
    fn settle(&mut self, offer: Offer, accept: bool) {
        tracing::info!(?offer, accept, "offer answered");
        if !accept {
            self.offers.declined(offer, Instant::now());
            self.broadcast(ServerMsg::Declined(offer));
            return;
        }
        self.offers.accepted(offer);
        match offer.kind {
            OfferKind::Undo => self.take_back(offer.by),
            OfferKind::NewGame => self.start_game(),
            OfferKind::Draw => self.finish(None, EndReason::Agreement, Vec::new()),
        }
    }

    /// Takes the game back to `asker`'s turn: one ply if the opponent has not replied
    /// since the asker's last move, two if they have. The asker's clock restarts.
    fn take_back(&mut self, asker: Seat) {
        let now = Instant::now();
        let Some(m) = self.game.as_mut().filter(|m| m.running()) else {
            return;
        };
        let movers: Vec<Seat> = m.moves.iter().map(|r| r.by).collect();
        let Some(plies) = undo_plies(&movers, asker) else {
            return;
        };
        for _ in 0..plies {
            m.position.undo();
            m.moves.pop();
        }
        let opened = m.moves.len() >= 2;
        if let Some(c) = m.clock.as_mut() {
            if opened {
                c.start(asker, now);
            } else {
                // Back before both first moves: no clock runs, the first move is awaited.
                c.stop(now);
                m.first_move_due = Some(now + self.ctx.config.first_move_wait);
            }
        }
        let clocks = m.clock.as_ref().map(|c| c.snapshot(now));
        self.log_event(Event::Undo {
            plies,
            clocks: clocks.map(|c| c.remaining_ms),
        });
        self.generation += 1;
        tracing::info!(?asker, plies, "moves taken back");
        self.broadcast(ServerMsg::Undone { plies, clocks });
    }

    /// A player gives up the game and stays in the room.
    pub(super) fn resign(&mut self, client: ClientId) -> Result<(), ErrorMsg> {
        let seat = self.player(client, "resign")?;
        match &self.game {
            None => Err(ErrorMsg::new(ErrorCode::NoGame, "no game is running")),
            Some(m) if !m.running() => Err(ErrorMsg::new(
                ErrorCode::GameOver,
                "the game is already over",
            )),
            Some(_) => {
                self.finish(Some(seat.other()), EndReason::Resign, Vec::new());
                Ok(())
            }
        }
    }

    /// `client`'s seat, or the refusal a spectator gets for trying to `what`.
    pub(super) fn player(&self, client: ClientId, what: &str) -> Result<Seat, ErrorMsg> {
        self.seat_of(client).ok_or_else(|| {
            ErrorMsg::new(ErrorCode::NotAPlayer, format!("spectators cannot {what}"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_takes_a_draw_when_worse_or_when_a_long_game_is_even() {
        assert!(!bot_takes_draw(0, 2), "even, early: play on");
        assert!(!bot_takes_draw(-40, 10), "a little worse, early: play on");
        assert!(bot_takes_draw(-250, 10), "clearly worse: take it");
        assert!(bot_takes_draw(0, 120), "a long even game: take it");
        assert!(!bot_takes_draw(300, 120), "ahead: never");
    }
}
