//! Which room settings the server accepts. Everything a creator chooses is checked here
//! before a room exists, so a room never holds settings it cannot play.

use std::time::Duration;

use banco_engine::caro::{MAX_SIDE, MIN_SIDE};
use banco_engine::game::{Game, GameSpec};
use banco_protocol::{ErrorCode, ErrorMsg, GameSettings, RoomSettings, TimeControl};

/// The shortest time a player can be given for a move or a game.
pub const MIN_TIME: Duration = Duration::from_secs(1);
/// The longest per-move timer or game clock.
pub const MAX_TIME: Duration = Duration::from_secs(24 * 3600);
/// The largest increment per move.
pub const MAX_INCREMENT: Duration = Duration::from_secs(3600);
/// The longest xiangqi FEN accepted (a full one is under 100 characters).
pub const MAX_FEN: usize = 200;

/// The game to set up for `settings`, or why they cannot be played.
pub fn validate(settings: &RoomSettings) -> Result<GameSpec, ErrorMsg> {
    check_time(settings.time)?;
    match &settings.game {
        &GameSettings::Caro {
            width,
            height,
            rule,
        } => {
            let sides = MIN_SIDE..=MAX_SIDE;
            if !sides.contains(&width) || !sides.contains(&height) {
                return Err(bad(format!(
                    "a caro board must be {MIN_SIDE} to {MAX_SIDE} cells on each side, not {width}x{height}"
                )));
            }
            Ok(GameSpec::Caro {
                width,
                height,
                rule,
            })
        }
        GameSettings::Xiangqi { fen } => {
            if fen.as_ref().is_some_and(|f| f.len() > MAX_FEN) {
                return Err(bad(format!(
                    "a xiangqi FEN is at most {MAX_FEN} characters long"
                )));
            }
            let spec = GameSpec::Xiangqi { fen: fen.clone() };
            // The position must be one the rules accept and that is not already over.
            Game::new(&spec).map_err(|e| bad(format!("cannot start from that position: {e}")))?;
            Ok(spec)
        }
    }
}

fn check_time(time: TimeControl) -> Result<(), ErrorMsg> {
    let ms = |d: Duration| d.as_millis() as u64;
    let (min, max) = (ms(MIN_TIME), ms(MAX_TIME));
    match time {
        TimeControl::Unlimited => Ok(()),
        TimeControl::PerMove { millis } if (min..=max).contains(&millis) => Ok(()),
        TimeControl::PerMove { .. } => Err(bad(format!(
            "a per-move timer must be between {} and {}",
            TimeControl::per_move(MIN_TIME)
                .to_string()
                .trim_end_matches("/move"),
            TimeControl::per_move(MAX_TIME)
                .to_string()
                .trim_end_matches("/move"),
        ))),
        TimeControl::Clock {
            initial_millis,
            increment_millis,
        } => {
            if !(min..=max).contains(&initial_millis) {
                return Err(bad("a game clock must start with between 1s and 24h"));
            }
            if increment_millis > ms(MAX_INCREMENT) {
                return Err(bad("an increment can be at most 1h per move"));
            }
            Ok(())
        }
    }
}

fn bad(message: impl Into<String>) -> ErrorMsg {
    ErrorMsg::new(ErrorCode::BadSettings, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::Rule;

    fn caro(width: u8, height: u8, time: TimeControl) -> RoomSettings {
        RoomSettings {
            game: GameSettings::Caro {
                width,
                height,
                rule: Rule::Caro,
            },
            time,
            ..RoomSettings::default()
        }
    }

    #[test]
    fn board_sizes_and_times_in_range_are_accepted() {
        assert!(validate(&RoomSettings::default()).is_ok());
        for (w, h) in [(5, 5), (64, 64), (5, 64), (20, 15)] {
            assert!(
                validate(&caro(w, h, TimeControl::Unlimited)).is_ok(),
                "{w}x{h}"
            );
        }
        assert!(
            validate(&caro(
                15,
                15,
                TimeControl::per_move(Duration::from_secs(20))
            ))
            .is_ok()
        );
        assert!(validate(&caro(15, 15, TimeControl::per_move(MIN_TIME))).is_ok());
        let blitz = TimeControl::clock(Duration::from_secs(300), Duration::from_secs(3));
        assert!(validate(&caro(15, 15, blitz)).is_ok());
    }

    #[test]
    fn out_of_range_settings_are_refused() {
        for (w, h) in [(4, 15), (15, 4), (65, 15), (0, 0), (255, 255)] {
            let e = validate(&caro(w, h, TimeControl::Unlimited)).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadSettings);
            assert!(e.message.contains("5 to 64"), "{}", e.message);
        }
        let bad_times = [
            TimeControl::PerMove { millis: 0 },
            TimeControl::PerMove { millis: 999 },
            TimeControl::per_move(MAX_TIME + Duration::from_secs(1)),
            TimeControl::Clock {
                initial_millis: 0,
                increment_millis: 0,
            },
            TimeControl::clock(Duration::from_secs(60), MAX_INCREMENT * 2),
            TimeControl::Clock {
                initial_millis: u64::MAX,
                increment_millis: 0,
            },
        ];
        for t in bad_times {
            assert_eq!(
                validate(&caro(15, 15, t)).unwrap_err().code,
                ErrorCode::BadSettings,
                "{t:?}"
            );
        }
    }

    fn xiangqi(fen: Option<&str>) -> RoomSettings {
        RoomSettings {
            game: GameSettings::Xiangqi {
                fen: fen.map(str::to_string),
            },
            ..RoomSettings::default()
        }
    }

    #[test]
    fn xiangqi_from_the_start_or_any_open_position() {
        assert_eq!(
            validate(&xiangqi(None)).unwrap(),
            GameSpec::Xiangqi { fen: None }
        );
        let fen = "3k5/9/9/9/9/9/1r7/9/r8/4K4 b";
        assert_eq!(
            validate(&xiangqi(Some(fen))).unwrap(),
            GameSpec::Xiangqi {
                fen: Some(fen.into())
            }
        );
        assert!(validate(&xiangqi(Some(banco_engine::xiangqi::START))).is_ok());
    }

    #[test]
    fn bad_or_decided_xiangqi_positions_are_refused_with_the_rules_reason() {
        let cases = [
            ("rnbakabnr/9/9 w", "10 ranks"),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", "generals face"),
            ("3k5/9/9/9/9/9/9/9/9/4K4 w", "already decided"),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                "side to move",
            ),
        ];
        for (fen, words) in cases {
            let e = validate(&xiangqi(Some(fen))).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadSettings, "{fen}");
            assert!(e.message.contains(words), "{fen}: {}", e.message);
        }
        let long = "9/".repeat(200);
        let e = validate(&xiangqi(Some(&long))).unwrap_err();
        assert!(e.message.contains("at most"), "{}", e.message);
    }
}
