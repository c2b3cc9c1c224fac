//! What plain mode remembers between a request and its answer, so short commands mean
//! what a person means: `history x1` finds the guest `~x1` when nobody else has that
//! name, and `review` alone reviews the game just finished (or the one replayed).

use banco_protocol::{ClientMsg, GUEST_MARK, GameId, GameSummary, ServerMsg};

use crate::room::Room;

/// The game `review` alone means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LastGame {
    /// The game replayed last.
    Replayed(GameId),
    /// The game just finished in a room, to be found in `history`'s list (`None`:
    /// everyone's) by its players, as the server records them.
    Finished {
        players: [String; 2],
        history: Option<String>,
    },
}

/// What to do with a history list that came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HistoryNext {
    /// Print it: it answers what was asked.
    Print,
    /// Not what was meant yet: send this instead (and wait for its answer).
    Ask(ClientMsg),
    /// `review` alone found its game in it: review this one.
    Review(GameId),
    /// `review` alone did not find the game just played in it.
    Missing,
}

/// Plain mode's memory of what its answers are for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recall {
    /// `history NAME` asked: if nothing comes for the name, ask once for the guest
    /// `~NAME`.
    pub guest_retry: Option<String>,
    /// The game `review` alone reviews: the last one replayed or finished.
    pub last_game: Option<LastGame>,
    /// `review` alone is looking for the game just played (its players) in a history.
    pub finding: Option<[String; 2]>,
}

impl Recall {
    /// `history` was asked (for `player`, if given).
    pub fn asked_history(&mut self, player: Option<&str>) {
        self.guest_retry = player
            .filter(|p| !p.starts_with(GUEST_MARK) && banco_protocol::bot_of_name(p).is_none())
            .map(|p| format!("{GUEST_MARK}{p}"));
    }

    /// What `review` alone sends: the review of the game replayed last, or the history
    /// that holds the game just finished; `None` when there is neither.
    pub fn review_last(&mut self) -> Option<ClientMsg> {
        match self.last_game.clone()? {
            LastGame::Replayed(id) => Some(ClientMsg::Review(id)),
            LastGame::Finished { players, history } => {
                self.finding = Some(players);
                self.guest_retry = None;
                Some(ClientMsg::History { player: history })
            }
        }
    }

    /// A history list came.
    pub fn history(&mut self, games: &[GameSummary]) -> HistoryNext {
        if let Some(players) = self.finding.take() {
            // Newest first: the first game between them is the one just played.
            return match games.iter().find(|g| g.players == players) {
                Some(g) => HistoryNext::Review(g.id),
                None => HistoryNext::Missing,
            };
        }
        match self.guest_retry.take() {
            Some(guest) if games.is_empty() => HistoryNext::Ask(ClientMsg::History {
                player: Some(guest),
            }),
            _ => HistoryNext::Print,
        }
    }

    /// Notes what `msg` (already applied to `room`) tells about the last game: a replay
    /// shown, a game finished; a refusal ends any lookup.
    pub fn saw(&mut self, msg: &ServerMsg, room: Option<&Room>, me: &str) {
        match msg {
            ServerMsg::Replay(record) => {
                self.last_game = Some(LastGame::Replayed(record.summary.id));
            }
            ServerMsg::GameOver(_) => {
                if let Some(room) = room {
                    self.last_game = Some(LastGame::Finished {
                        players: room.recorded_players(),
                        history: room.history_holding_game(me),
                    });
                }
            }
            ServerMsg::Error(_) => {
                self.finding = None;
                self.guest_retry = None;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::caro_game_record;

    #[test]
    fn a_name_without_the_guest_mark_is_tried_as_a_guest_once() {
        let mut r = Recall::default();
        r.asked_history(Some("x1"));
        assert_eq!(
            r.history(&[]),
            HistoryNext::Ask(ClientMsg::History {
                player: Some("~x1".into())
            })
        );
        // The guest has none either: that is the answer.
        assert_eq!(r.history(&[]), HistoryNext::Print);
        // Games under the name as typed: no second try.
        r.asked_history(Some("x1"));
        assert_eq!(r.history(&[caro_game_record().summary]), HistoryNext::Print);
        // A name with the mark, a bot's, or everyone's history: as asked.
        for asked in [Some("~x1"), Some("Bot (hard)"), None] {
            r.asked_history(asked);
            assert_eq!(r.history(&[]), HistoryNext::Print, "{asked:?}");
        }
    }

    #[test]
    fn review_alone_means_the_last_game_replayed_or_finished() {
        let mut r = Recall::default();
        assert_eq!(r.review_last(), None);
        let record = caro_game_record();
        r.saw(&ServerMsg::Replay(Box::new(record.clone())), None, "An");
        assert_eq!(r.review_last(), Some(ClientMsg::Review(record.summary.id)));
        // A game just finished: found by its players in one's own history.
        let players = record.summary.players.clone();
        r.last_game = Some(LastGame::Finished {
            players: players.clone(),
            history: Some("An".into()),
        });
        assert_eq!(
            r.review_last(),
            Some(ClientMsg::History {
                player: Some("An".into())
            })
        );
        let mut other = record.summary.clone();
        other.id = 99;
        other.players = ["Cúc".into(), "An".into()];
        assert_eq!(
            r.history(&[other.clone(), record.summary.clone()]),
            HistoryNext::Review(record.summary.id)
        );
        r.review_last();
        assert_eq!(r.history(&[other]), HistoryNext::Missing);
    }
}
