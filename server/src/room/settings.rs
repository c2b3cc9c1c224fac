//! Which room settings the server accepts. Everything a creator chooses is checked here
//! before a room exists, so a room never holds settings it cannot play.

use std::time::Duration;

use banco_protocol::{CaroOpening, ErrorCode, ErrorMsg, GameSettings, RoomSettings, TimeControl};
use banco_rules::caro::openings::{BALANCED_MIN_SIDE, random_balanced};
use banco_rules::caro::{MAX_SIDE, MIN_SIDE};
use banco_rules::game::{Game, GameSpec};

/// The shortest time a player can be given for a move or a game.
pub const MIN_TIME: Duration = Duration::from_secs(1);
/// The longest per-move timer or game clock.
pub const MAX_TIME: Duration = Duration::from_secs(24 * 3600);
/// The largest increment per move.
pub const MAX_INCREMENT: Duration = Duration::from_secs(3600);
/// The longest xiangqi FEN accepted (a full one is under 100 characters).
pub const MAX_FEN: usize = 200;

/// The most stones a caro opening may hold on a `width` x `height` board: a third of it,
/// so a game is left to play.
pub fn max_opening_stones(width: u8, height: u8) -> usize {
    usize::from(width) * usize::from(height) / 3
}

/// The game to set up for `settings`, or why they cannot be played. A room with balanced
/// openings gets a spec from an empty board: [`deal`] gives each game its opening.
pub fn validate(settings: &RoomSettings) -> Result<GameSpec, ErrorMsg> {
    check_time(settings.time)?;
    if let Some(format) = settings.match_format {
        format.check().map_err(bad)?;
    }
    match &settings.game {
        GameSettings::Caro {
            width,
            height,
            rule,
            opening,
        } => {
            let (width, height, rule) = (*width, *height, *rule);
            let sides = MIN_SIDE..=MAX_SIDE;
            if !sides.contains(&width) || !sides.contains(&height) {
                return Err(bad(format!(
                    "a caro board must be {MIN_SIDE} to {MAX_SIDE} cells on each side, not {width}x{height}"
                )));
            }
            let stones = match opening {
                CaroOpening::None => Vec::new(),
                CaroOpening::Stones(stones) => {
                    let most = max_opening_stones(width, height);
                    if stones.len() > most {
                        return Err(bad(format!(
                            "an opening on a {width}x{height} board can hold at most {most} stones (a third of the board), not {}",
                            stones.len()
                        )));
                    }
                    stones.clone()
                }
                CaroOpening::Balanced | CaroOpening::Swap1 | CaroOpening::Swap2 => {
                    if width < BALANCED_MIN_SIDE || height < BALANCED_MIN_SIDE {
                        return Err(bad(format!(
                            "balanced openings need a board of at least {BALANCED_MIN_SIDE}x{BALANCED_MIN_SIDE}, not {width}x{height}"
                        )));
                    }
                    Vec::new()
                }
            };
            let spec = GameSpec::Caro {
                width,
                height,
                rule,
                opening: stones,
            };
            Game::new(&spec).map_err(|e| bad(format!("cannot start from that opening: {e}")))?;
            Ok(spec)
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

/// The game to set up for the room's next game: `spec` as validated, with a freshly drawn
/// balanced opening (chosen by `roll`, a random number) in a room that deals them.
pub fn deal(settings: &RoomSettings, spec: &GameSpec, roll: u64) -> GameSpec {
    match (&settings.game, spec) {
        (
            GameSettings::Caro {
                opening: CaroOpening::Balanced,
                ..
            },
            &GameSpec::Caro {
                width,
                height,
                rule,
                ..
            },
        ) => GameSpec::Caro {
            width,
            height,
            rule,
            // `validate` made sure the board takes one.
            opening: random_balanced(width, height, roll).unwrap_or_default(),
        },
        _ => spec.clone(),
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
                opening: CaroOpening::None,
            },
            time,
            ..RoomSettings::default()
        }
    }

    fn caro_from(width: u8, height: u8, opening: CaroOpening) -> RoomSettings {
        RoomSettings {
            game: GameSettings::Caro {
                width,
                height,
                rule: Rule::Caro,
                opening,
            },
            ..RoomSettings::default()
        }
    }

    #[test]
    fn openings_are_checked_by_the_rules_and_capped_at_a_third_of_the_board() {
        use banco_protocol::Point;
        let p = Point::new;
        let stones = vec![p(7, 7), p(8, 8), p(6, 8)];
        let spec = validate(&caro_from(15, 15, CaroOpening::Stones(stones.clone()))).unwrap();
        assert_eq!(
            spec,
            GameSpec::Caro {
                width: 15,
                height: 15,
                rule: Rule::Caro,
                opening: stones.clone()
            }
        );
        let settings = caro_from(15, 15, CaroOpening::Stones(stones.clone()));
        assert_eq!(deal(&settings, &spec, 99), spec, "explicit stones stay put");

        for (opening, words) in [
            (
                vec![p(7, 7), p(15, 0)],
                "opening stone 2 (15,0) is off the 15x15 board",
            ),
            (vec![p(7, 7), p(7, 7)], "stone 1 already holds"),
            (
                vec![
                    p(0, 0),
                    p(0, 1),
                    p(1, 0),
                    p(1, 1),
                    p(2, 0),
                    p(2, 1),
                    p(3, 0),
                    p(3, 1),
                    p(4, 0),
                ],
                "winning line for X",
            ),
        ] {
            let e = validate(&caro_from(15, 15, CaroOpening::Stones(opening))).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadSettings);
            assert!(e.message.contains(words), "{}", e.message);
        }
        // A third of a 5x5 board is 8 stones: 8 pass, 9 do not (none of them in a line).
        let spread: Vec<Point> = (0..9u8).map(|i| p(i % 3 * 2, i / 3 * 2)).collect();
        assert!(validate(&caro_from(5, 5, CaroOpening::Stones(spread[..8].to_vec()))).is_ok());
        let e = validate(&caro_from(5, 5, CaroOpening::Stones(spread))).unwrap_err();
        assert!(e.message.contains("at most 8 stones"), "{}", e.message);
    }

    #[test]
    fn match_formats_are_checked_before_a_room_exists() {
        use banco_protocol::MatchFormat;
        let with = |games, first_to| RoomSettings {
            match_format: Some(MatchFormat { games, first_to }),
            ..RoomSettings::default()
        };
        assert!(validate(&with(9, Some(5))).is_ok());
        assert!(validate(&with(2, None)).is_ok());
        let e = validate(&with(0, None)).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadSettings);
        assert!(e.message.contains("1 to 99 games"), "{}", e.message);
        let e = validate(&with(5, Some(6))).unwrap_err();
        assert!(e.message.contains("first to 6"), "{}", e.message);
    }

    #[test]
    fn balanced_rooms_deal_a_fresh_opening_to_each_game() {
        let settings = caro_from(19, 15, CaroOpening::Balanced);
        let spec = validate(&settings).unwrap();
        let GameSpec::Caro { opening, .. } = &spec else {
            panic!("caro");
        };
        assert!(opening.is_empty(), "dealt per game, not at creation");
        let dealt: std::collections::HashSet<Vec<banco_protocol::Point>> = (0..20u64)
            .map(|roll| match deal(&settings, &spec, roll) {
                GameSpec::Caro { opening, .. } => opening,
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(dealt.len() > 10, "rolls deal different openings");
        for opening in &dealt {
            assert_eq!(opening.len(), 3);
        }
        let e = validate(&caro_from(6, 15, CaroOpening::Balanced)).unwrap_err();
        assert!(e.message.contains("at least 7x7"), "{}", e.message);
        // A plain caro room deals nothing.
        let plain = caro(15, 15, TimeControl::Unlimited);
        let spec = validate(&plain).unwrap();
        assert_eq!(deal(&plain, &spec, 5), spec);
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
        assert!(validate(&xiangqi(Some(banco_rules::xiangqi::START))).is_ok());
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
