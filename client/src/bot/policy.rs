//! What the bot says yes to: which challenges fit its engine, and how it answers undo
//! requests and draw offers. Pure functions, tested here.

use banco_adapters::player::Eval;
use banco_protocol::{DeclineReason, GameSettings, RoomSettings, Rule};

use super::engine::EngineSpec;

/// How undo requests are answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UndoPolicy {
    /// Declined.
    Never,
    /// Taken back.
    Always,
}

impl std::str::FromStr for UndoPolicy {
    type Err = String;

    fn from_str(s: &str) -> Result<UndoPolicy, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "never" | "no" => Ok(UndoPolicy::Never),
            "always" | "yes" => Ok(UndoPolicy::Always),
            other => Err(format!(
                "'{other}' is not an undo policy: say never or always"
            )),
        }
    }
}

/// How draw offers are answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawPolicy {
    /// Declined.
    Never,
    /// Taken when the engine's last score is even or better for it.
    WhenNotBehind,
}

impl std::str::FromStr for DrawPolicy {
    type Err = String;

    fn from_str(s: &str) -> Result<DrawPolicy, String> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "never" | "no" => Ok(DrawPolicy::Never),
            "when-not-behind" | "not-behind" => Ok(DrawPolicy::WhenNotBehind),
            other => Err(format!(
                "'{other}' is not a draw policy: say never or when-not-behind"
            )),
        }
    }
}

impl DrawPolicy {
    /// Whether to take a draw, given the engine's last score in this game (from its own
    /// side). No score: taken to be behind, so never.
    pub fn takes(self, last: Option<Eval>) -> bool {
        match (self, last) {
            (DrawPolicy::Never, _) | (_, None) => false,
            (DrawPolicy::WhenNotBehind, Some(Eval::Units(u))) => u >= 0,
            (DrawPolicy::WhenNotBehind, Some(Eval::MateIn(p))) => p > 0,
        }
    }
}

/// Whether a challenge's settings fit the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fit {
    /// It plays this.
    Plays,
    /// It cannot: the reason to decline with, and a sentence for the log.
    Declines(DeclineReason, String),
    /// Only the engine can say: a Gomocup engine asked about this board and rule.
    AskEngine {
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
        /// The rule.
        rule: Rule,
    },
}

/// Whether `engine` can play a game with `settings`: the game must be the engine's
/// (caro for Gomocup, xiangqi for UCI); a caro board and rule are the engine's to judge.
/// Swap openings are played like any caro game (the engine is asked them through
/// Gomocup's `SWAP2BOARD`): an engine without that extension resigns the game with the
/// reason when the opening asks it, rather than sitting on its clock.
pub fn fit(engine: &EngineSpec, settings: &RoomSettings) -> Fit {
    match (engine, &settings.game) {
        (
            EngineSpec::Gomocup(_),
            GameSettings::Caro {
                width,
                height,
                rule,
                ..
            },
        ) => Fit::AskEngine {
            width: *width,
            height: *height,
            rule: *rule,
        },
        (EngineSpec::Uci(_), GameSettings::Xiangqi { .. }) => Fit::Plays,
        (EngineSpec::Gomocup(_), GameSettings::Xiangqi { .. }) => Fit::Declines(
            DeclineReason::Variant,
            "a Gomocup engine plays caro only".into(),
        ),
        (EngineSpec::Uci(_), GameSettings::Caro { .. }) => Fit::Declines(
            DeclineReason::Variant,
            "a UCI engine plays xiangqi only".into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::CaroOpening;

    #[test]
    fn policies_read_as_the_flags_say() {
        assert_eq!("never".parse(), Ok(UndoPolicy::Never));
        assert_eq!("Always".parse(), Ok(UndoPolicy::Always));
        assert!("sometimes".parse::<UndoPolicy>().is_err());
        assert_eq!("when-not-behind".parse(), Ok(DrawPolicy::WhenNotBehind));
        assert_eq!("when_not_behind".parse(), Ok(DrawPolicy::WhenNotBehind));
        assert!("maybe".parse::<DrawPolicy>().is_err());
    }

    #[test]
    fn draws_are_taken_only_when_not_behind() {
        let p = DrawPolicy::WhenNotBehind;
        assert!(p.takes(Some(Eval::Units(0))));
        assert!(p.takes(Some(Eval::Units(35))));
        assert!(!p.takes(Some(Eval::Units(-1))));
        assert!(p.takes(Some(Eval::MateIn(3))));
        assert!(!p.takes(Some(Eval::MateIn(-4))));
        assert!(!p.takes(None), "no score: never");
        assert!(!DrawPolicy::Never.takes(Some(Eval::Units(500))));
    }

    #[test]
    fn challenges_fit_the_engines_game() {
        let gomocup = EngineSpec::Gomocup("pbrain".into());
        let uci = EngineSpec::Uci("fsf".into());
        let caro = RoomSettings::default();
        let xiangqi = RoomSettings {
            game: GameSettings::Xiangqi { fen: None },
            ..RoomSettings::default()
        };
        assert!(matches!(
            fit(&gomocup, &caro),
            Fit::AskEngine { width: 15, .. }
        ));
        assert!(matches!(
            fit(&gomocup, &xiangqi),
            Fit::Declines(DeclineReason::Variant, _)
        ));
        assert_eq!(fit(&uci, &xiangqi), Fit::Plays);
        let swap2 = RoomSettings {
            game: GameSettings::Caro {
                width: 15,
                height: 15,
                rule: Rule::Freestyle,
                opening: CaroOpening::Swap2,
            },
            ..RoomSettings::default()
        };
        assert_eq!(
            fit(&gomocup, &swap2),
            Fit::AskEngine {
                width: 15,
                height: 15,
                rule: Rule::Freestyle
            }
        );
        assert!(matches!(
            fit(&uci, &caro),
            Fit::Declines(DeclineReason::Variant, _)
        ));
    }
}
