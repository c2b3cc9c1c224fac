//! Turning a stored game back into what players are shown: its settings, its ending, and
//! its moves replayed through the rules (which give back xiangqi's WXF text and check
//! flags, and caro's winning line for games stored before lines were kept).

use std::str::FromStr;

use banco_protocol::{
    CaroOpening, EndReason, GameRecord, GameSettings, GameSummary, MoveRecord, Point, RoomSettings,
    Rule, TimeControl,
};
use banco_rules::game::{Game, GameSpec, Move as RulesMove, Side};
use banco_rules::xiangqi;

use super::StoreError;
use super::archive::parse_point;
use banco_protocol::convert::to_wire;

/// A game's settings as stored: JSON since schema 3, words before.
pub(super) struct StoredSettings {
    /// `caro` or `xiangqi`.
    pub game: String,
    /// `15x15 caro`, or the xiangqi start FEN (`start` for the usual one).
    pub variant: String,
    /// The time control as [`TimeControl`]'s `Display` writes it.
    pub time: String,
    /// The room's settings as JSON; empty for games stored before schema 3.
    pub json: String,
}

/// What was played: the game and its time control.
pub(super) struct Played {
    pub game: GameSettings,
    pub time: TimeControl,
}

impl StoredSettings {
    pub fn settings(&self) -> Result<Played, String> {
        if !self.json.is_empty() {
            let s: RoomSettings = serde_json::from_str(&self.json).map_err(|e| e.to_string())?;
            return Ok(Played {
                game: s.game,
                time: s.time,
            });
        }
        let time = TimeControl::from_str(&self.time).map_err(|e| e.to_string())?;
        let game = match self.game.as_str() {
            "caro" => parse_caro_variant(&self.variant)
                .ok_or_else(|| format!("the caro variant '{}' cannot be read", self.variant))?,
            "xiangqi" => GameSettings::Xiangqi {
                fen: (self.variant != "start").then(|| self.variant.clone()),
            },
            other => return Err(format!("unknown game '{other}'")),
        };
        Ok(Played { game, time })
    }
}

/// `15x15 caro` (as the store's `describe` writes it).
fn parse_caro_variant(text: &str) -> Option<GameSettings> {
    let (size, rule) = text.split_once(' ')?;
    let (w, h) = size.split_once('x')?;
    Some(GameSettings::Caro {
        width: w.parse().ok()?,
        height: h.parse().ok()?,
        rule: Rule::from_str(rule).ok()?,
        opening: CaroOpening::None,
    })
}

/// The ending named by its stable name (`five`, `perpetual_check`, ...); `None` for the
/// reasons an unfinished game is stored with (`restarted`, `shutdown`).
pub(super) fn end_reason(name: &str) -> Option<EndReason> {
    // The wire's names are serde's snake_case names of the variants.
    let reason: EndReason = serde_json::from_value(serde_json::Value::from(name)).ok()?;
    (reason.as_str() == name).then_some(reason)
}

/// The whole game `summary` describes, from its caro `opening` and its stored `moves`
/// (space-separated `x,y` for caro, ICCS for xiangqi), replayed through the rules.
pub(super) fn rebuild(
    mut summary: GameSummary,
    opening: &[Point],
    moves: &str,
) -> Result<GameRecord, StoreError> {
    let corrupt = |why: String| StoreError::Corrupt {
        id: summary.id as i64,
        why,
    };
    let spec = match &summary.game {
        GameSettings::Caro {
            width,
            height,
            rule,
            ..
        } => GameSpec::Caro {
            width: *width,
            height: *height,
            rule: *rule,
            opening: opening.to_vec(),
        },
        GameSettings::Xiangqi { fen } => GameSpec::Xiangqi { fen: fen.clone() },
    };
    let mut position = Game::new(&spec).map_err(|e| corrupt(e.to_string()))?;
    let mut records = Vec::new();
    for (ply, text) in moves.split_whitespace().enumerate() {
        let mv = match &position {
            Game::Caro(_) => parse_point(text).map(RulesMove::Caro),
            Game::Xiangqi(_) => xiangqi::Move::from_str(text).ok().map(RulesMove::Xiangqi),
        }
        .ok_or_else(|| corrupt(format!("move {} '{text}' cannot be read", ply + 1)))?;
        let by = match position.to_move() {
            Side::First => summary.first,
            Side::Second => summary.first.other(),
        };
        position
            .play(mv)
            .map_err(|e| corrupt(format!("move {} '{text}': {e}", ply + 1)))?;
        let note = position.note(ply).unwrap_or_default();
        records.push(MoveRecord {
            mv: to_wire(mv),
            by,
            wxf: note.wxf,
            check: note.check,
        });
    }
    if summary.over.line.is_empty()
        && let Some(ending) = position.ending()
    {
        summary.over.line = ending.line;
    }
    Ok(GameRecord {
        start_fen: position.start_fen().unwrap_or_default(),
        opening: position.opening().to_vec(),
        summary,
        moves: records,
        swap: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wire_reason_reads_back_and_unfinished_ones_do_not() {
        for reason in EndReason::ALL {
            assert_eq!(end_reason(reason.as_str()), Some(reason));
        }
        for unfinished in ["restarted", "shutdown", "unfinished", "", "Five"] {
            assert_eq!(end_reason(unfinished), None, "{unfinished}");
        }
    }

    #[test]
    fn settings_stored_in_words_read_back() {
        let old = |game: &str, variant: &str, time: &str| StoredSettings {
            game: game.into(),
            variant: variant.into(),
            time: time.into(),
            json: String::new(),
        };
        let p = old("caro", "20x15 freestyle", "5m+3s").settings().unwrap();
        assert_eq!(
            p.game,
            GameSettings::Caro {
                width: 20,
                height: 15,
                rule: Rule::Freestyle,
                opening: CaroOpening::None,
            }
        );
        assert_eq!(
            p.time,
            TimeControl::clock(
                std::time::Duration::from_secs(300),
                std::time::Duration::from_secs(3)
            )
        );
        let p = old("xiangqi", "start", "20s/move").settings().unwrap();
        assert_eq!(p.game, GameSettings::Xiangqi { fen: None });
        assert_eq!(p.time, TimeControl::PerMove { millis: 20_000 });
        let fen = "3k5/9/9/9/9/9/1r7/9/r8/4K4 b";
        let p = old("xiangqi", fen, "none").settings().unwrap();
        assert_eq!(
            p.game,
            GameSettings::Xiangqi {
                fen: Some(fen.into())
            }
        );
        assert!(old("caro", "15 caro", "none").settings().is_err());
        assert!(old("go", "19x19", "none").settings().is_err());
        assert!(old("caro", "15x15 caro", "soon").settings().is_err());
    }
}
