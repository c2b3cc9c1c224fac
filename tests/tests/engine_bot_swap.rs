//! `banco bot` in Swap2 openings, end to end against the real server: a person (a test
//! client) challenges a bot running `pbrain-banco` over the Gomocup protocol (built for
//! this crate as `e2e-pbrain-banco`) to Swap2 freestyle games, and the bot's engine is
//! asked each of its steps through `SWAP2BOARD`:
//!
//! - the bot proposes (its three stones arrive as moves), she places two more, and the
//!   bot chooses a colour;
//! - she proposes an opening good for White: the bot stays White and its fourth stone
//!   is its first move;
//! - she proposes an opening good for Black: the bot swaps to Black;
//! - an engine without the extension resigns with the reason said in the room (before
//!   both players acted, so the server calls the game aborted).
//!
//! Each game is played to a stated result.

use std::collections::HashSet;

use banco_client::bot::engine::EngineSpec;
use banco_protocol::{
    CaroOpening, ChallengeEnd, ClientMsg, EndReason, ErrorCode, FirstMove, GameOver, GameSettings,
    Move, Point, RoomSettings, Rule, Seat, ServerMsg, SwapChoice, SwapStage, SwapStep, SwapView,
    TimeControl,
};
use banco_tests::bots::{self, RunningBot, online};
use banco_tests::{Client, TempDir, TestServer, test_config};

const PBRAIN: &str = env!("CARGO_BIN_EXE_e2e-pbrain-banco");

/// Swap2 freestyle on 15x15 without a clock; `first` says who proposes (the seat that
/// would move first): `Me` the challenger (seat One), `Them` the bot (seat Two).
fn swap2(first: FirstMove) -> RoomSettings {
    RoomSettings {
        game: GameSettings::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening: CaroOpening::Swap2,
        },
        time: TimeControl::Unlimited,
        first,
        rated: false,
        ..RoomSettings::default()
    }
}

/// `person` challenges `bot` and sees it accepted.
async fn challenge(person: &mut Client, bot: &str, settings: RoomSettings) {
    person
        .send(ClientMsg::Challenge {
            to: Some(bot.to_string()),
            settings,
        })
        .await;
    // (An error for her last move, made as the bot's winning move arrived, may come
    // first: the game was already over.)
    let end = match person
        .recv_until(|m| match m {
            ServerMsg::ChallengeEnded { .. } => true,
            ServerMsg::Error(e) => e.code != ErrorCode::GameOver,
            _ => false,
        })
        .await
    {
        ServerMsg::ChallengeEnded { end, .. } => end,
        other => panic!("the challenge was refused: {other:?}"),
    };
    assert!(matches!(end, ChallengeEnd::Accepted { .. }), "{end:?}");
}

/// The next swap view that satisfies `pred`.
async fn swap_until(person: &mut Client, pred: impl Fn(&SwapView) -> bool) -> SwapView {
    loop {
        match person.recv().await {
            ServerMsg::Swap(view) if pred(&view) => return *view,
            ServerMsg::GameOver(over) => panic!("the game ended in the opening: {over:?}"),
            _ => {}
        }
    }
}

/// The decision in a decided opening's steps: who took which.
fn decision(view: &SwapView) -> (Seat, SwapChoice) {
    view.steps
        .iter()
        .rev()
        .find_map(|s| match *s {
            SwapStep::Decided { by, choice } if choice != SwapChoice::PlaceTwo => {
                Some((by, choice))
            }
            _ => None,
        })
        .expect("a decision")
}

/// Plays the game after its opening to the end: she (seat One) plays the first free
/// point column by column from the corner (a line the bot blocks). Returns the end and
/// the bot's moves, in order.
async fn play_out(person: &mut Client) -> (GameOver, Vec<Point>) {
    let mut taken: HashSet<(u8, u8)> = HashSet::new();
    let mut bot_moves = Vec::new();
    let free = |taken: &HashSet<(u8, u8)>| {
        (0..15u8)
            .flat_map(|x| (0..15u8).map(move |y| (x, y)))
            .find(|p| !taken.contains(p))
            .expect("a free point")
    };
    loop {
        match person.recv().await {
            ServerMsg::GameStarted(view) => {
                assert!(view.swap.is_none_or(|s| s.stage == SwapStage::Done));
                taken.extend(view.opening.iter().map(|p| (p.x, p.y)));
                // After an odd opening the seat listed first is the one to move (O).
                if view.first == Seat::One && view.moves.is_empty() {
                    let (x, y) = free(&taken);
                    person.play(x, y).await;
                }
            }
            ServerMsg::Moved { record, .. } => {
                let Move::Caro(p) = record.mv else {
                    panic!("a caro move expected: {record:?}")
                };
                taken.insert((p.x, p.y));
                if record.by == Seat::Two {
                    bot_moves.push(p);
                    let (x, y) = free(&taken);
                    person.play(x, y).await;
                }
            }
            ServerMsg::GameOver(over) => return (over, bot_moves),
            _ => {}
        }
    }
}

#[tokio::test]
async fn the_bot_plays_each_of_its_swap2_steps_through_its_engine() {
    let server = TestServer::with_config(test_config()).await;
    let _bot = RunningBot::start(bots::options(
        &server,
        server.addr,
        "swapper",
        EngineSpec::Gomocup(format!("{PBRAIN} --level medium")),
    ));
    let mut her = server.player("hoa").await;
    online(&mut her, "swapper").await;

    // 1. The bot proposes; she places two more; the bot chooses a colour.
    challenge(&mut her, "swapper", swap2(FirstMove::Them)).await;
    let view = swap_until(&mut her, |v| v.stage == SwapStage::Answer).await;
    assert_eq!(view.proposer, Seat::Two);
    assert_eq!(view.stones.len(), 3);
    assert!(
        view.steps
            .iter()
            .all(|s| matches!(s, SwapStep::Stone { by: Seat::Two, .. }))
    );
    her.send(ClientMsg::Swap(SwapChoice::PlaceTwo)).await;
    // Two more, far from the centre where the bot's stones are.
    for (x, y) in [(0, 14), (14, 0)] {
        her.play(x, y).await;
    }
    let view = swap_until(&mut her, |v| v.stage == SwapStage::Done).await;
    assert_eq!(view.stones.len(), 5);
    let (by, choice) = decision(&view);
    assert_eq!(by, Seat::Two, "the proposer chooses");
    let bot_x = choice == SwapChoice::Black;
    assert_eq!(view.x_seat == Some(Seat::Two), bot_x, "{view:?}");
    let (over, _) = play_out(&mut her).await;
    assert_eq!(over.reason, EndReason::Five, "{over:?}");
    assert_eq!(over.winner, Some(Seat::Two), "the engine wins: {over:?}");

    // 2. She proposes an opening where White stands well (X's stones in two corners,
    // O's in the centre): the bot stays White, and its fourth stone is its first move.
    challenge(&mut her, "swapper", swap2(FirstMove::Me)).await;
    for (x, y) in [(0, 0), (7, 7), (14, 14)] {
        her.play(x, y).await;
    }
    let view = swap_until(&mut her, |v| v.stage == SwapStage::Done).await;
    assert_eq!(decision(&view), (Seat::Two, SwapChoice::White), "{view:?}");
    assert_eq!(view.x_seat, Some(Seat::One));
    let (over, bot_moves) = play_out(&mut her).await;
    assert!(!bot_moves.is_empty());
    assert_eq!(over.winner, Some(Seat::Two), "the engine wins: {over:?}");

    // 3. She proposes an opening where Black stands well (two X stones side by side in
    // the centre, O's in a corner): the bot swaps to Black, and she, White, moves next.
    challenge(&mut her, "swapper", swap2(FirstMove::Me)).await;
    for (x, y) in [(7, 7), (0, 0), (8, 7)] {
        her.play(x, y).await;
    }
    let view = swap_until(&mut her, |v| v.stage == SwapStage::Done).await;
    assert_eq!(decision(&view), (Seat::Two, SwapChoice::Black), "{view:?}");
    assert_eq!(view.x_seat, Some(Seat::Two));
    let (over, _) = play_out(&mut her).await;
    assert_eq!(over.winner, Some(Seat::Two), "the engine wins: {over:?}");
    server.stop().await;
}

#[tokio::test]
async fn an_engine_without_swap2board_resigns_with_the_reason_said() {
    let server = TestServer::with_config(test_config()).await;
    let dir = TempDir::new("engine-bot-noswap");
    // A Gomocup engine that knows no swap openings: UNKNOWN to SWAP2BOARD.
    let path = dir.path().join("noswap");
    std::fs::write(
        &path,
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    START*|RESTART*) echo OK ;;\n    ABOUT*) echo 'name=\"noswap\", version=\"1\"' ;;\n    SWAP2BOARD*) echo 'UNKNOWN command SWAP2BOARD' ;;\n    DONE*|BEGIN*|TURN*) echo 4,4 ;;\n  esac\ndone\n",
    )
    .expect("write the script");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .expect("make the script executable");
    let _bot = RunningBot::start(bots::options(
        &server,
        server.addr,
        "noswapper",
        EngineSpec::Gomocup(path.display().to_string()),
    ));
    let mut her = server.player("lan").await;
    online(&mut her, "noswapper").await;
    challenge(&mut her, "noswapper", swap2(FirstMove::Them)).await;
    let mut said = None;
    let over = loop {
        match her.recv().await {
            ServerMsg::Chat(line) if line.text.contains("engine failed") => said = Some(line.text),
            ServerMsg::GameOver(over) => break over,
            _ => {}
        }
    };
    // Given up before both players acted: the server's rule makes it an aborted game.
    assert_eq!(over.reason, EndReason::Aborted, "{over:?}");
    assert_eq!(over.winner, None);
    let said = said.expect("the reason was said in the room");
    assert!(
        said.contains("swap opening") && said.contains("UNKNOWN"),
        "{said}"
    );
    server.stop().await;
}
