//! Matches: a room whose settings have a match format plays its games as one match, of
//! at most N games or first to K wins, and the room's series score is the match's score.
//!
//! - [`MatchPlay`]: the match's own state (its key, number, format, who opens it, its
//!   result, the break before its next game) and how the wire shows it.
//! - A match begins with its first game (when both seats are taken, or, once a match is
//!   over, when the players agree to a new game): the series starts again at 0-0.
//! - The colours alternate game by game ([`MatchFormat::first_mover`]); a game with no
//!   result (aborted, or replaced by agreement) is played again with the same colours.
//! - After a game that does not decide it comes a break: the next game starts when both
//!   players are ready (a new-game offer accepted; a bot is always ready) or by itself
//!   after [`crate::Config::match_break`], counted only while both players are here. After
//!   a game with no result the players start the next by agreeing, so a room whose players
//!   walked away does not abort game after game.
//! - It ends when decided (a player reaches K wins, or N games have a result: won by the
//!   leader, drawn when level), or at once when a player resigns it, leaves, or does not
//!   come back in time (the other player wins it, and the game in progress too).
//! - Written ahead like games: its beginning, its score and seats at every break (a
//!   restart between games brings the room back with them), its end, each committed
//!   before anyone hears of it.

use tokio::time::Instant;

use banco_protocol::{
    EndReason, ErrorCode, ErrorMsg, MatchEnd, MatchFormat, MatchResult, MatchState, Seat, Series,
    ServerMsg,
};

use super::{CurrentGame, Room, SeatState};
use crate::ClientId;
use crate::store::{Entry, LiveMatch, MatchEnding, MatchLink};
use crate::wall_clock::unix_ms;

/// A room's match: the one being played, or the last one, over.
#[derive(Debug, Clone)]
pub(super) struct MatchPlay {
    /// Identifies the match in the store (random, chosen when it begins).
    pub(super) key: u64,
    /// The room's matches so far, this one included.
    pub(super) number: u32,
    /// As the room's settings say.
    pub(super) format: MatchFormat,
    /// The seat that moves first in the match's odd games.
    pub(super) opener: Seat,
    /// Unix milliseconds at its beginning, for the record.
    pub(super) started_ms: u64,
    /// Set when it ends.
    pub(super) result: Option<MatchResult>,
    /// Between two of its games: when the next starts by itself (`None` after a game
    /// with no result: the players agree to go on).
    pub(super) next_at: Option<Instant>,
}

impl MatchPlay {
    /// Whether it is still being played.
    pub(super) fn running(&self) -> bool {
        self.result.is_none()
    }

    /// The wire's view at `now`: `score` is the room's series, `game_running` whether a
    /// game of it is being played.
    pub(super) fn state(&self, score: Series, game_running: bool, now: Instant) -> MatchState {
        let score = self.result.map_or(score, |r| r.score);
        let playing = game_running && self.running();
        MatchState {
            format: self.format,
            number: self.number,
            score,
            leader: score.leader(),
            game: score.games() + u32::from(playing),
            next_game_in_ms: self
                .next_at
                .filter(|_| self.running() && !playing)
                .map(|at| {
                    u64::try_from(at.saturating_duration_since(now).as_millis()).unwrap_or(0)
                }),
            result: self.result,
        }
    }
}

impl Room {
    /// The match being played (not over), if any.
    pub(super) fn live_match(&self) -> Option<&MatchPlay> {
        self.match_play.as_ref().filter(|m| m.running())
    }

    /// For the game about to start, in a room that plays matches: begins a match if none
    /// is being played, and says who moves first and which game of the match it is.
    /// `None` in a room without matches.
    pub(super) fn match_game_to_start(&mut self) -> Option<(Seat, MatchLink)> {
        let format = self.settings.match_format?;
        if self.live_match().is_none() {
            self.begin_match(format);
        }
        let m = self.match_play.as_mut()?;
        m.next_at = None;
        let link = MatchLink {
            key: m.key,
            game: self.series.games() + 1,
        };
        Some((MatchFormat::first_mover(m.opener, &self.series), link))
    }

    /// A new match: the series starts again at 0-0; the first match opens as the room's
    /// settings say, each later one with the other seat.
    fn begin_match(&mut self, format: MatchFormat) {
        let (number, opener) = match &self.match_play {
            Some(last) => (last.number + 1, last.opener.other()),
            None => (1, self.first_seat()),
        };
        self.series = Series::default();
        self.match_play = Some(MatchPlay {
            key: rand::random(),
            number,
            format,
            opener,
            started_ms: unix_ms(),
            result: None,
            next_at: None,
        });
        tracing::info!(number, %format, ?opener, "match began");
        if let Some(live) = self.live_match_record() {
            self.write(Entry::MatchBegin(Box::new(live)));
        }
    }

    /// The match as the store keeps it for a restart.
    fn live_match_record(&self) -> Option<LiveMatch> {
        let m = self.match_play.as_ref()?;
        Some(LiveMatch {
            key: m.key,
            room: self.id,
            number: m.number,
            settings: self.settings.clone(),
            seats: self.live_seats(),
            opener: m.opener,
            score: self.series,
            last_game: self.last_number,
            chat: self.chat.lines(),
            started_ms: m.started_ms,
        })
    }

    /// Tells everyone where the room's match stands (in a room that plays matches).
    pub(super) fn announce_match(&mut self) {
        let running = self.game.as_ref().is_some_and(CurrentGame::running);
        let state = self
            .match_play
            .as_ref()
            .map(|m| m.state(self.series, running, Instant::now()));
        if let Some(state) = state {
            self.broadcast(ServerMsg::Match(state));
        }
    }

    /// The match's view for someone coming in.
    pub(super) fn match_state(&self) -> Option<MatchState> {
        let running = self.game.as_ref().is_some_and(CurrentGame::running);
        self.match_play
            .as_ref()
            .map(|m| m.state(self.series, running, Instant::now()))
    }

    /// A game of the match ended (`counted`: with a result, already in the series): the
    /// match is decided, or a break before the next game begins.
    pub(super) fn match_game_over(&mut self, counted: bool) {
        let break_for = self.ctx.config.match_break;
        let series = self.series;
        let Some(m) = self.match_play.as_mut().filter(|m| m.running()) else {
            return;
        };
        if counted && m.format.decided(&series) {
            self.end_match(series.leader(), MatchEnd::Decided);
            return;
        }
        m.next_at = counted.then(|| Instant::now() + break_for);
        self.log_match_break();
        self.announce_match();
    }

    /// Logs the match as it stands between two games: its score, seats and chat.
    fn log_match_break(&mut self) {
        if let Some(live) = self.live_match_record() {
            self.write(Entry::MatchBreak(Box::new(live)));
        }
    }

    /// A chat line was said: between two games of a match it is kept with the match (a
    /// game in progress keeps its own).
    pub(super) fn log_chat_between_games(&mut self) {
        let between =
            self.live_match().is_some() && !self.game.as_ref().is_some_and(CurrentGame::running);
        if between {
            self.log_match_break();
        }
    }

    /// The match ends: `winner` (`None`: drawn, or nobody when both players are gone)
    /// wins it, for `reason`. Everyone is told once it is on disk.
    pub(super) fn end_match(&mut self, winner: Option<Seat>, reason: MatchEnd) {
        let score = self.series;
        let Some(m) = self.match_play.as_mut().filter(|m| m.running()) else {
            return;
        };
        let result = MatchResult {
            winner,
            score,
            reason,
        };
        m.result = Some(result);
        m.next_at = None;
        let key = m.key;
        tracing::info!(?winner, reason = reason.as_str(), ?score, "match over");
        self.write(Entry::MatchEnd(MatchEnding::of(key, &result)));
        self.report_match(winner);
        self.broadcast(ServerMsg::MatchOver(result));
    }

    /// When the match's next game starts by itself: between two of its games, once the
    /// break is over and both players are here (the wait is held while one is away).
    pub(super) fn next_game_at(&self) -> Option<Instant> {
        let m = self.live_match()?;
        let here = self.seats.iter().all(|s| match s {
            SeatState::Free => false,
            SeatState::Human(h) => h.held_until.is_none(),
            SeatState::Bot(_) => true,
        });
        let between = !self.game.as_ref().is_some_and(CurrentGame::running);
        m.next_at.filter(|_| here && between)
    }

    /// Starts the match's next game if its break is over.
    pub(super) fn start_next_game_if_due(&mut self, now: Instant) {
        if self.next_game_at().is_some_and(|at| at <= now) {
            self.start_game();
        }
    }

    /// A player gives up the match as a whole: the other wins it, and the game in
    /// progress too.
    pub(super) fn resign_match(&mut self, client: ClientId) -> Result<(), ErrorMsg> {
        let seat = self.player(client, "resign the match")?;
        if self.settings.match_format.is_none() {
            return Err(ErrorMsg::new(
                ErrorCode::NoMatch,
                "this room plays no match: resign the game instead",
            ));
        }
        if self.live_match().is_none() {
            return Err(ErrorMsg::new(
                ErrorCode::NoMatch,
                "the match is over: offer a new game to begin another",
            ));
        }
        tracing::info!(?seat, "resigned the match");
        self.lose_match(
            seat,
            Some(seat.other()),
            EndReason::Resign,
            MatchEnd::Resign,
        );
        Ok(())
    }

    /// The match is lost by `seat`, and won by `winner` (their opponent, or nobody when
    /// the opponent is gone too): a running game ends first, for `game_reason`.
    pub(super) fn lose_match(
        &mut self,
        seat: Seat,
        winner: Option<Seat>,
        game_reason: EndReason,
        reason: MatchEnd,
    ) {
        if self.game.as_ref().is_some_and(CurrentGame::running) {
            self.finish_then(winner, game_reason, Vec::new(), Some((winner, reason)));
        } else {
            if let Some(offer) = self.offers.clear() {
                self.broadcast(ServerMsg::Withdrawn(offer));
            }
            tracing::debug!(?seat, "the match is lost between games");
            self.end_match(winner, reason);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn play(format: MatchFormat) -> MatchPlay {
        MatchPlay {
            key: 1,
            number: 1,
            format,
            opener: Seat::One,
            started_ms: 0,
            result: None,
            next_at: None,
        }
    }

    #[test]
    fn the_view_counts_the_game_being_played_and_the_break() {
        let now = Instant::now();
        let mut m = play(MatchFormat {
            games: 9,
            first_to: Some(5),
        });
        let score = Series {
            wins: [2, 1],
            draws: 0,
        };
        let s = m.state(score, true, now);
        assert_eq!(
            (s.game, s.leader, s.next_game_in_ms),
            (4, Some(Seat::One), None)
        );
        m.next_at = Some(now + Duration::from_secs(10));
        let s = m.state(score, false, now);
        assert_eq!((s.game, s.next_game_in_ms), (3, Some(10_000)));
        // Over: the final score stands, whatever the room's series says since.
        let result = MatchResult {
            winner: Some(Seat::Two),
            score,
            reason: MatchEnd::Resign,
        };
        m.result = Some(result);
        let s = m.state(Series::default(), false, now);
        assert_eq!(s.score, score);
        assert_eq!(s.result, Some(result));
        assert_eq!(s.next_game_in_ms, None, "no next game after the end");
    }
}
