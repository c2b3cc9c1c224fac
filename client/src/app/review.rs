//! The engine's review of a finished game, seen in its replay: asked for with `v` (in the
//! replay, on a game in the history, or in the game-over dialog), followed while the
//! server analyses, then drawn as a graph of chances with each move's class.

use banco_protocol::{ClientMsg, GameId, GameReview, ReviewedPly};

use super::records::{HistoryFilter, LastGame};
use super::{App, Screen};
use crate::tr;

/// Where a replay's review stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewView {
    /// Asked for; nothing heard yet.
    Asked,
    /// The server is analysing: `done` of `total` plies.
    Running {
        done: u32,
        total: u32,
    },
    Done(Box<GameReview>),
}

impl ReviewView {
    /// The finished review, if it has come.
    pub fn done(&self) -> Option<&GameReview> {
        match self {
            ReviewView::Done(r) => Some(r),
            _ => None,
        }
    }
}

impl App {
    /// Asks for the review of the replay shown (if it is a server's game).
    pub(super) fn ask_review(&mut self) {
        let Screen::Replay(rs) = &mut self.screen else {
            return;
        };
        let id = rs.replay.id.filter(|_| self.session.welcome.is_some());
        let Some(id) = id else {
            let msg = tr!(self.loc, "review.offline").to_string();
            return self.warn(msg);
        };
        if matches!(
            rs.review,
            Some(ReviewView::Asked | ReviewView::Running { .. })
        ) {
            return;
        }
        rs.review = Some(ReviewView::Asked);
        self.send(ClientMsg::Review(id));
    }

    /// Whether the game that just ended was aborted before both players moved (nothing
    /// to review: the game-over dialog offers no `v`).
    pub(super) fn last_game_aborted(&self) -> bool {
        let Screen::Room(rs) = &self.screen else {
            return false;
        };
        rs.room
            .game
            .as_ref()
            .and_then(|g| g.over.as_ref())
            .is_some_and(|o| o.reason == banco_protocol::EndReason::Aborted)
    }

    /// `v` in the game-over dialog: leave the room (the game is over: nothing is lost)
    /// and open the review of the game just played: the newest between its players in
    /// one's own history, or, for a spectator, in a player's (everyone's when both seats
    /// were bots).
    pub(super) fn review_last_game(&mut self) {
        let Screen::Room(rs) = &self.screen else {
            return;
        };
        let room = &rs.room;
        let players = room.recorded_players();
        let filter = if room.my_seat().is_some() {
            HistoryFilter::Mine
        } else {
            match room.history_holding_game("") {
                Some(person) => HistoryFilter::Player(person),
                None => HistoryFilter::Everyone,
            }
        };
        self.review_after_leaving = Some(LastGame { players, filter });
        self.send(ClientMsg::LeaveRoom);
    }

    /// Back in the lobby after `v` in the game-over dialog: the history that holds the
    /// game just played, which opens reviewed when the list comes.
    pub(super) fn open_last_game_review(&mut self, last: LastGame) {
        self.open_history(last.filter);
        if let Screen::History(h) = &mut self.screen {
            h.review_newest = Some(last.players);
        }
    }

    /// The history came with `review_newest` set: open its newest game between those
    /// players, reviewed; say so when it is not there.
    pub(super) fn open_newest_reviewed(&mut self) {
        let Screen::History(h) = &mut self.screen else {
            return;
        };
        let Some(players) = h.review_newest.take() else {
            return;
        };
        let found = h
            .games
            .as_ref()
            .and_then(|g| g.iter().find(|g| g.players == players))
            .map(|g| g.id);
        match found {
            Some(id) => open_reviewed(self, id),
            None => {
                let msg = tr!(self.loc, "review.last_missing").to_string();
                self.warn(msg);
            }
        }
    }

    pub(super) fn review_progress(&mut self, game: GameId, done: u32, total: u32) {
        if let Some(view) = self.review_of(game)
            && !matches!(view, ReviewView::Done(_))
        {
            *view = ReviewView::Running { done, total };
        }
    }

    pub(super) fn got_review(&mut self, review: GameReview) {
        let game = review.game;
        if let Some(view) = self.review_of(game) {
            *view = ReviewView::Done(Box::new(review));
        }
    }

    /// A refusal while a review was awaited: stop waiting (the notice says why).
    pub(super) fn review_refused(&mut self) {
        if let Screen::Replay(rs) = &mut self.screen
            && matches!(
                rs.review,
                Some(ReviewView::Asked | ReviewView::Running { .. })
            )
        {
            rs.review = None;
        }
    }

    fn review_of(&mut self, game: GameId) -> Option<&mut ReviewView> {
        match &mut self.screen {
            Screen::Replay(rs) if rs.replay.id == Some(game) => rs.review.as_mut(),
            _ => None,
        }
    }
}

/// Asks for game `id`'s replay and its review together, from the history.
pub(super) fn open_reviewed(app: &mut App, id: GameId) {
    let Screen::History(h) = &mut app.screen else {
        return;
    };
    if h.opening.is_some() {
        return;
    }
    h.opening = Some(id);
    h.then_review = true;
    app.send(ClientMsg::Replay(id));
    app.send(ClientMsg::Review(id));
}

/// The mark a move's class gets in move lists: `??` for a blunder, as chess players
/// write it; nothing for a good move.
pub fn class_mark(ply: &ReviewedPly) -> &'static str {
    use banco_protocol::MoveClass::*;
    match ply.class {
        Best | Good => "",
        Inaccuracy => "?!",
        Mistake => "?",
        Blunder => "??",
        MissedWin => "?w",
        MissedDefence => "?d",
    }
}

/// The class's word, from the locale (`review.class_blunder`, ...).
pub fn class_key(ply: &ReviewedPly) -> String {
    format!("review.class_{}", ply.class.as_str())
}
