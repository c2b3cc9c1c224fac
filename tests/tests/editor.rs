//! The position editor end to end: the terminal client's `App` (keys and clicks, no
//! terminal) arranges an endgame on the board, creates a room from it on a real server
//! against a bot, plays it to mate, and opens its replay, which starts from the position.
//! The app's messages travel over a real connection: what it sends is sent, what the
//! server says is handed to it.

use banco_client::app::{App, Effect, Screen};
use banco_client::locale::Locale;
use banco_client::settings::Settings;
use banco_client::theme::Theme;
use banco_protocol::{ClientMsg, EndReason, GameSettings, Level, Seat, ServerMsg, XqSquare};
use banco_rules::xiangqi::{Game, Move as XqMove, Reason};
use banco_tests::{Client, TestServer, iccs};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

/// Red: general d0, chariot a1, horse f6; Black: general e9, advisor d9. Red mates in
/// two whatever Black answers (a1f1, then the chariot or the horse mates).
const ENDGAME: &str = "3ak4/9/9/5N3/9/9/9/9/R8/3K5 w - - 0 1";

/// The terminal's size the app believes it has (for mapping clicks).
const SIZE: (u16, u16) = (100, 32);

/// The app and its connection.
struct Ui {
    app: App,
    client: Client,
}

impl Ui {
    /// Sends whatever the app asked to send.
    async fn flush(&mut self) {
        for effect in self.app.take_effects() {
            if let Effect::Send(msg) = effect {
                self.client.send(msg).await;
            }
        }
    }

    async fn keys(&mut self, codes: &[KeyCode]) {
        for code in codes {
            self.app.key(KeyEvent::new(*code, KeyModifiers::NONE));
        }
        self.flush().await;
    }

    async fn typ(&mut self, text: &str) {
        let codes: Vec<KeyCode> = text.chars().map(KeyCode::Char).collect();
        self.keys(&codes).await;
    }

    async fn click(&mut self, col: u16, row: u16) {
        self.app.mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: col,
            row,
            modifiers: KeyModifiers::NONE,
        });
        self.flush().await;
    }

    /// Hands the server's messages to the app until one matches `pred`.
    async fn until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let msg = self.client.recv().await;
            self.app.server(msg.clone());
            self.flush().await;
            if pred(&msg) {
                return msg;
            }
        }
    }

    /// The editor's xiangqi cursor.
    fn cursor(&self) -> banco_rules::xiangqi::Square {
        match &self.app.screen {
            Screen::Editor(ed) => match &ed.board {
                banco_client::app::editor::EditBoard::Xiangqi(x) => x.cursor,
                other => panic!("not a xiangqi board: {other:?}"),
            },
            _ => panic!("the editor is not open"),
        }
    }

    /// Puts the piece `letter` on `square` with the arrow keys and the letter.
    async fn put(&mut self, square: &str, letter: char) {
        let target: banco_rules::xiangqi::Square = square.parse().expect("a square");
        let at = self.cursor();
        let df = i32::from(target.file()) - i32::from(at.file());
        let dr = i32::from(target.rank()) - i32::from(at.rank());
        let h = if df > 0 {
            KeyCode::Right
        } else {
            KeyCode::Left
        };
        let v = if dr > 0 { KeyCode::Up } else { KeyCode::Down };
        self.keys(&vec![h; df.unsigned_abs() as usize]).await;
        self.keys(&vec![v; dr.unsigned_abs() as usize]).await;
        self.typ(&letter.to_string()).await;
        assert_eq!(self.cursor(), target);
    }

    /// Plays `mv` by clicking its two squares on the room's board.
    async fn click_move(&mut self, mv: XqMove) {
        for sq in [mv.from(), mv.to()] {
            let Screen::Room(rs) = &self.app.screen else {
                panic!("not in the room");
            };
            let area = Rect::new(0, 0, SIZE.0, SIZE.1);
            let board = self.app.room_layout(area, rs).board;
            let g = banco_client::layout::xiangqi::Geometry::new(board, rs.room.flipped());
            let (col, row) = g.cell(XqSquare {
                file: sq.file(),
                rank: sq.rank(),
            });
            self.click(col, row).await;
        }
    }

    /// The room's game as the app sees it.
    fn game(&self) -> Game {
        let Screen::Room(rs) = &self.app.screen else {
            panic!("not in the room");
        };
        let state = rs.room.game.as_ref().expect("a game is on");
        state.board.xiangqi().expect("a xiangqi board").clone()
    }
}

/// A move for the side to move that mates within `n` of its moves whatever the other
/// side answers.
fn mating_move(game: &Game, n: u32) -> Option<XqMove> {
    game.legal_moves().into_iter().find(|&m| {
        let mut after = game.clone();
        after.play(m).expect("a legal move");
        match after.outcome() {
            Some(o) => o.reason == Reason::Checkmate,
            None if n > 1 => after.legal_moves().into_iter().all(|r| {
                let mut next = after.clone();
                next.play(r).expect("a legal move");
                next.outcome().is_none() && mating_move(&next, n - 1).is_some()
            }),
            None => false,
        }
    })
}

#[tokio::test]
async fn an_arranged_endgame_is_played_against_the_bot_to_mate_and_replayed_from_its_start() {
    let server = TestServer::start().await;
    let client = server.connect("An").await;
    let welcome = client.welcome.clone().expect("welcomed");
    let mut app = App::new(
        Locale::english(),
        Theme::classic(),
        Settings::default(),
        None,
        "An".into(),
        std::time::Instant::now(),
    );
    app.resize(SIZE.0, SIZE.1);
    app.connected(welcome, server.addr.to_string());
    let mut ui = Ui { app, client };
    ui.flush().await;

    // The create form: xiangqi, then "start from a position…".
    ui.keys(&[
        KeyCode::Char('c'),
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Down,
    ])
    .await;
    ui.keys(&[KeyCode::Enter]).await;
    assert!(matches!(ui.app.screen, Screen::Editor(_)));
    // An empty board, then the endgame piece by piece; the editor refuses Enter until
    // both generals stand.
    ui.keys(&[KeyCode::Char('d')]).await;
    ui.put("d0", 'K').await;
    ui.keys(&[KeyCode::Enter]).await;
    assert!(
        matches!(ui.app.screen, Screen::Editor(_)),
        "black has no general"
    );
    ui.put("a1", 'R').await;
    ui.put("f6", 'N').await;
    ui.put("e9", 'k').await;
    ui.put("d9", 'a').await;
    ui.keys(&[KeyCode::Enter]).await;
    let Screen::Lobby(lobby) = &ui.app.screen else {
        panic!("back on the form");
    };
    assert_eq!(
        lobby.create.as_ref().map(|f| f.fen.text().to_string()),
        Some(ENDGAME.to_string())
    );
    // Down from the FEN line to who plays: arrange, first, time, clock, increment, who
    // plays; me against a bot; down to its level, the hard one (easy, casual, medium,
    // advanced, hard); Enter creates the room.
    ui.keys(&[KeyCode::Down; 6]).await;
    ui.keys(&[KeyCode::Right, KeyCode::Down]).await;
    ui.keys(&[KeyCode::Right; 4]).await;
    ui.keys(&[KeyCode::Enter]).await;
    let ServerMsg::Joined(view) = ui.until(|m| matches!(m, ServerMsg::Joined(_))).await else {
        unreachable!()
    };
    assert_eq!(
        view.settings.game,
        GameSettings::Xiangqi {
            fen: Some(ENDGAME.into())
        }
    );
    assert_eq!(
        view.settings.seats[1],
        banco_protocol::SeatKind::Bot(Level::Hard)
    );

    // Someone in the lobby sees the room from its position.
    let mut other = server.connect("Bình").await;
    other.send(ClientMsg::ListRooms).await;
    let rooms = other.rooms().await;
    assert_eq!(rooms.len(), 1);
    assert_eq!(
        rooms[0].settings.game,
        GameSettings::Xiangqi {
            fen: Some(ENDGAME.into())
        }
    );
    let line = banco_client::narrate::game_line(&rooms[0].settings.game, &Locale::english());
    assert_eq!(line, "xiangqi, set position");

    // The game starts from the endgame with Red (us) to move; mate in two by clicks.
    ui.until(|m| matches!(m, ServerMsg::GameStarted(_))).await;
    assert_eq!(ui.game().start_fen(), ENDGAME);
    let mut plies = Vec::new();
    let over = loop {
        let game = ui.game();
        let mv = mating_move(&game, 2).expect("a forced mate from here");
        ui.click_move(mv).await;
        plies.push(mv.to_string());
        let msg = ui
            .until(|m| match m {
                ServerMsg::GameOver(_) => true,
                ServerMsg::Moved { record, .. } => record.by == Seat::Two,
                _ => false,
            })
            .await;
        match msg {
            ServerMsg::GameOver(over) => break over,
            ServerMsg::Moved { record, .. } => plies.push(iccs(record.mv)),
            _ => unreachable!(),
        }
    };
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Checkmate),
        "{plies:?}"
    );
    assert_eq!(plies.len(), 3, "mate in two: {plies:?}");
    assert_eq!(plies[0], "a1f1");

    // The history keeps it, and its replay starts from the endgame.
    ui.client.send(ClientMsg::History { player: None }).await;
    let ServerMsg::History(games) = ui.until(|m| matches!(m, ServerMsg::History(_))).await else {
        unreachable!()
    };
    assert_eq!(games.len(), 1);
    assert_eq!(
        games[0].game,
        GameSettings::Xiangqi {
            fen: Some(ENDGAME.into())
        }
    );
    ui.client.send(ClientMsg::Replay(games[0].id)).await;
    let ServerMsg::Replay(record) = ui.until(|m| matches!(m, ServerMsg::Replay(_))).await else {
        unreachable!()
    };
    assert_eq!(record.start_fen, ENDGAME);
    let moves: Vec<String> = record.moves.iter().map(|r| iccs(r.mv)).collect();
    assert_eq!(moves, plies);
    // Stepped back to its start, the replay shows the arranged position.
    let mut replay = banco_client::record::Replay::from_record(*record);
    replay.go_to(0);
    let start = replay.board().xiangqi().expect("a xiangqi board").fen();
    assert_eq!(start, ENDGAME);
    replay.go_to(replay.last_step());
    let end = replay.board().xiangqi().expect("a xiangqi board").clone();
    assert!(end.in_check());
    assert!(end.legal_moves().is_empty(), "mated: {}", end.fen());
    server.stop().await;
}
