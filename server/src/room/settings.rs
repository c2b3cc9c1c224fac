//! Which room settings the server accepts. Everything a creator chooses is checked here
//! before a room exists, so a room never holds settings it cannot play.

use std::time::Duration;

use banco_engine::caro::{MAX_SIDE, MIN_SIDE};
use banco_engine::game::GameSpec;
use banco_protocol::{ErrorCode, ErrorMsg, GameSettings, RoomSettings, TimeControl};

/// The shortest time a player can be given for a move or a game.
pub const MIN_TIME: Duration = Duration::from_secs(1);
/// The longest per-move timer or game clock.
pub const MAX_TIME: Duration = Duration::from_secs(24 * 3600);
/// The largest increment per move.
pub const MAX_INCREMENT: Duration = Duration::from_secs(3600);

/// The game to set up for `settings`, or why they cannot be played.
pub fn validate(settings: &RoomSettings) -> Result<GameSpec, ErrorMsg> {
    check_time(settings.time)?;
    match settings.game {
        GameSettings::Caro {
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
        GameSettings::Xiangqi { .. } => Err(bad("xiangqi rooms are not available yet")),
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
        let xq = RoomSettings {
            game: GameSettings::Xiangqi { fen: None },
            ..RoomSettings::default()
        };
        let e = validate(&xq).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadSettings);
        assert_eq!(e.message, "xiangqi rooms are not available yet");
    }
}
