//! Engine reviews of finished games, in the model of lichess's server analysis: every
//! position of the game goes to the server's engine pool at the lowest priority (it
//! waits for every bot move and hint, and a running one is stopped for them), at a fixed
//! budget per position the host sets; the asker hears the progress, then the review,
//! which is stored with the game so the next asker gets it at once.
//!
//! - `classify`: from the engine's scores to chances, losses, move classes.
//!
//! Bounds: a client has at most one review under way (its session holds the
//! [`Running`] review); the server runs at most `--reviews` at once. A review survives
//! its asker leaving: it runs on and is stored, for the next to ask. A review's positions go to the pool one at a time, so
//! reviews never crowd it: each holds at most one search.

mod classify;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};
use tokio_util::sync::CancellationToken;

use banco_engine::bot::Limits;
use banco_protocol::{
    ErrorCode, ErrorMsg, GameId, GameRecord, GameReview, GameSettings, ServerMsg,
};
use banco_rules::Level;
use banco_rules::game::{Game, GameSpec};

use crate::connection::Outbox;
use crate::engines::{EnginePool, Job, Priority};
use crate::room::moves::{to_rules, to_wire};
use crate::store::{ReadError, StoreHandle};

pub use classify::{Kind, Verdict};

/// What every review of the server shares.
#[derive(Clone)]
pub struct Reviewer {
    /// Where the positions are searched.
    engines: EnginePool,
    /// Where games are read and reviews kept.
    store: StoreHandle,
    /// The engine's time per position.
    budget: Duration,
    /// The most nodes per position, if capped.
    nodes: Option<u64>,
    /// One permit per review that may be under way at once.
    slots: Arc<Semaphore>,
}

/// A review under way for one client (it goes on if the client leaves).
pub struct Running {
    /// The game under review.
    pub game: GameId,
    /// Fires when the review ends.
    done: CancellationToken,
}

impl Running {
    /// Whether it is still under way.
    pub fn is_running(&self) -> bool {
        !self.done.is_cancelled()
    }
}

impl Reviewer {
    pub fn new(
        engines: EnginePool,
        store: StoreHandle,
        budget: Duration,
        nodes: Option<u64>,
        reviews: usize,
    ) -> Reviewer {
        Reviewer {
            engines,
            store,
            budget,
            nodes,
            slots: Arc::new(Semaphore::new(reviews.max(1))),
        }
    }

    /// Starts the review of game `id` for the client behind `outbox` (or sends the stored
    /// one). Refused, with the sentence to show, when the server already runs as many
    /// reviews as it allows.
    pub fn start(&self, id: GameId, outbox: Outbox) -> Result<Running, ErrorMsg> {
        let permit = self.slots.clone().try_acquire_owned().map_err(|_| {
            ErrorMsg::new(
                ErrorCode::EnginesBusy,
                "the server is already reviewing as many games as it allows: ask again in a minute",
            )
        })?;
        let done = CancellationToken::new();
        let running = Running {
            game: id,
            done: done.clone(),
        };
        let reviewer = self.clone();
        // A review survives its asker leaving (the rule): it runs on to the end
        // and is stored, so asking again later, from anywhere, shows it at once. The
        // server-wide slots bound how many run, whoever left.
        tokio::spawn(async move {
            let _done = done.drop_guard();
            reviewer.run(id, &outbox, permit).await;
        });
        Ok(running)
    }

    async fn run(&self, id: GameId, outbox: &Outbox, _slot: OwnedSemaphorePermit) {
        let refuse = |code, message: String| {
            outbox.send(ServerMsg::Error(ErrorMsg::new(code, message)));
        };
        let read_failed = |e: ReadError| {
            refuse(
                ErrorCode::Busy,
                format!("the server could not read its records ({e}): ask again in a moment"),
            );
        };
        match self.store.review(id).await {
            Ok(Some(stored)) => {
                outbox.send(ServerMsg::Review(Box::new(stored)));
                return;
            }
            Ok(None) => {}
            Err(e) => return read_failed(e),
        }
        let record = match self.store.replay(id).await {
            Ok(Some(record)) => record,
            Ok(None) => {
                return refuse(
                    ErrorCode::NoSuchGame,
                    format!("there is no finished game {id}: see the history for the games kept"),
                );
            }
            Err(e) => return read_failed(e),
        };
        let Some(review) = self.analyse(&record, outbox).await else {
            return refuse(
                ErrorCode::ShuttingDown,
                "the server's engines stopped before the review was done".into(),
            );
        };
        if let Err(e) = self.store.save_review(review.clone()).await {
            tracing::warn!(game = id, error = %e, "a review could not be stored; it is sent all the same");
        }
        outbox.send(ServerMsg::Review(Box::new(review)));
    }

    /// Searches every position of the game, telling the asker how far it has got.
    /// `None` if the pool closed under it.
    async fn analyse(&self, record: &GameRecord, outbox: &Outbox) -> Option<GameReview> {
        let id = record.summary.id;
        let (spec, kind) = match &record.summary.game {
            GameSettings::Caro {
                width,
                height,
                rule,
                ..
            } => (
                GameSpec::Caro {
                    width: *width,
                    height: *height,
                    rule: *rule,
                    opening: record.opening.clone(),
                },
                Kind::Caro,
            ),
            GameSettings::Xiangqi { .. } => (
                GameSpec::Xiangqi {
                    fen: Some(record.start_fen.clone()).filter(|f| !f.is_empty()),
                },
                Kind::Xiangqi,
            ),
        };
        let mut game = Game::new(&spec).ok()?;
        let total = record.moves.len() as u32;
        let moves: Vec<_> = record.moves.iter().map(|m| (m.mv, m.by)).collect();
        let mut verdicts = Vec::with_capacity(moves.len() + 1);
        for ply in 0..=moves.len() {
            outbox.send(ServerMsg::ReviewProgress {
                game: id,
                done: ply as u32,
                total,
            });
            verdicts.push(self.verdict(&spec, &game).await?);
            if let Some(&(mv, _)) = moves.get(ply) {
                // The store replayed these through the rules already; a move that no
                // longer plays ends the review where it is.
                let played = to_rules(mv).and_then(|m| game.play(m).ok());
                if played.is_none() {
                    tracing::error!(
                        game = id,
                        ply,
                        "a stored move does not replay; review cut short"
                    );
                    return None;
                }
            }
        }
        let budget_ms = u32::try_from(self.budget.as_millis()).unwrap_or(u32::MAX);
        Some(classify::review(
            id,
            kind,
            record.summary.first,
            &moves,
            &verdicts,
            budget_ms,
        ))
    }

    /// The engine on `game`'s position; the rules' verdict if it is over.
    async fn verdict(&self, spec: &GameSpec, game: &Game) -> Option<Verdict> {
        if let Some(ending) = game.ending() {
            let to_move = game.to_move();
            return Some(Verdict::decided(ending.winner.map(|w| w == to_move)));
        }
        let (tx, rx) = oneshot::channel();
        let job = Job::new(
            Priority::Review,
            spec.clone(),
            Level::Max,
            game.clone(),
            Limits {
                max_nodes: self.nodes,
                ..Limits::none()
            },
            move |finished| {
                let _ = tx.send(finished);
            },
        )
        .with_budget(self.budget);
        // Held while waiting: dropped (the review stopped), it calls the search off.
        let _handle = self.engines.submit(job);
        let finished = rx.await.ok()?;
        if finished.cancelled {
            return None;
        }
        Some(Verdict {
            score: finished.score,
            line: finished.line.into_iter().map(to_wire).collect(),
        })
    }
}
