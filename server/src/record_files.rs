//! Record files for clients that do not carry the rules (the browser page): the page
//! sends a file's text and gets the game back, or sends a game and gets the file, both
//! through the rules crate's one reader and writer ([`banco_rules::record`]). Pure rule
//! work on a bounded text (at most [`MAX_RECORD_TEXT`] bytes, one client message):
//! milliseconds at worst, fine on the runtime, like judging an arrangement. Bad input is
//! answered with [`ServerMsg::RecordRefused`] and a sentence; nothing here can panic on
//! what a peer sends.

use banco_protocol::record::{MAX_ZONE_MINUTES, Zone};
use banco_protocol::{MAX_RECORD_TEXT, RecordedGame, ServerMsg};
use banco_rules::record::{self, RecordError};

/// The refusal for `e`.
fn refused(e: RecordError) -> ServerMsg {
    ServerMsg::RecordRefused {
        line: u32::try_from(e.line).unwrap_or(u32::MAX),
        message: e.message,
    }
}

fn whole(message: String) -> ServerMsg {
    refused(RecordError { line: 0, message })
}

/// The reader's zone, if it is one a clock can be in; else why not.
fn zone(minutes: i16) -> Result<Zone, RecordError> {
    // `unsigned_abs`: a peer may send i16::MIN, whose `abs` overflows.
    if minutes.unsigned_abs() > MAX_ZONE_MINUTES.unsigned_abs() {
        return Err(RecordError {
            line: 0,
            message: format!("{minutes} minutes is not an offset from UTC a clock can have"),
        });
    }
    Ok(Zone(minutes))
}

/// The answer to `ParseRecord`: the game the text holds, or why it is not a record.
pub fn parse(text: &str, zone_minutes: i16) -> ServerMsg {
    let zone = match zone(zone_minutes) {
        Ok(z) => z,
        Err(e) => return refused(e),
    };
    if text.len() > MAX_RECORD_TEXT {
        return whole(format!(
            "it is larger than a record the page can send ({} bytes; at most {MAX_RECORD_TEXT})",
            text.len()
        ));
    }
    match record::parse(text) {
        Ok(r) => {
            ServerMsg::RecordParsed(Box::new(RecordedGame::from_record(r, |w| zone.instant(w))))
        }
        Err(e) => refused(e),
    }
}

/// The answer to `WriteRecord`: the file's name and text, or why the game cannot be
/// written (a move the rules refuse, an ending the moves do not make).
pub fn write(game: &RecordedGame, zone_minutes: i16) -> ServerMsg {
    let zone = match zone(zone_minutes) {
        Ok(z) => z,
        Err(e) => return refused(e),
    };
    match game.to_record(|ms| zone.wall(ms)).and_then(|r| r.check()) {
        Ok(r) => ServerMsg::RecordText {
            name: record::file_name(&r),
            text: record::write(&r),
        },
        Err(e) => refused(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_file_read_for_the_page_writes_back_the_same() {
        let text = "game: caro\nboard: 9x9\nrule: freestyle\nx: An\no: Bình\nended: 2025-05-01 19:42\n\n1. e5 a1\n";
        let ServerMsg::RecordParsed(game) = parse(text, 420) else {
            panic!("not read");
        };
        assert_eq!(game.moves.len(), 2);
        let ServerMsg::RecordText { name, text: again } = write(&game, 420) else {
            panic!("not written");
        };
        assert_eq!(name, "banco-caro-20250501-1942.txt");
        assert!(again.contains("ended: 2025-05-01 19:42\n"), "{again}");
        assert!(again.contains("\n1. e5    a1\n"), "{again}");
    }

    #[test]
    fn bad_records_are_refused_with_a_sentence() {
        assert_eq!(
            parse("game: caro\n\n1. h8 h8\n", 0),
            ServerMsg::RecordRefused {
                line: 3,
                message: "move 2 (h8): h8 is already taken".into()
            }
        );
        let huge = "#".repeat(MAX_RECORD_TEXT + 1);
        assert!(matches!(
            parse(&huge, 0),
            ServerMsg::RecordRefused { line: 0, .. }
        ));
        assert!(matches!(
            parse("game: caro\n", 5000),
            ServerMsg::RecordRefused { .. }
        ));
        let ServerMsg::RecordParsed(mut game) = parse("game: caro\n1. h8 i9\n", 0) else {
            panic!("not read");
        };
        game.moves[1].mv = game.moves[0].mv;
        let ServerMsg::RecordRefused { message, .. } = write(&game, 0) else {
            panic!("written");
        };
        assert!(message.contains("move 2 is not legal"), "{message}");
    }

    #[test]
    fn the_farthest_zones_a_peer_can_send_are_refused() {
        for minutes in [
            i16::MIN,
            i16::MAX,
            MAX_ZONE_MINUTES + 1,
            -MAX_ZONE_MINUTES - 1,
        ] {
            assert!(
                matches!(parse("", minutes), ServerMsg::RecordRefused { .. }),
                "{minutes}"
            );
        }
        assert!(zone(MAX_ZONE_MINUTES).is_ok() && zone(-MAX_ZONE_MINUTES).is_ok());
    }

    proptest! {
        /// Whatever a peer sends, the answer is a game or a refusal, never a panic.
        #[test]
        fn any_text_gets_an_answer(text in "\\PC{0,300}", zone in any::<i16>()) {
            let answer = parse(&text, zone);
            let answered = matches!(answer, ServerMsg::RecordParsed(_) | ServerMsg::RecordRefused { .. });
            prop_assert!(answered);
        }
    }
}
