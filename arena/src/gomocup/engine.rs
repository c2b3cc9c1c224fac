//! The Gomocup ("pbrain", piskvork) protocol, engine side: what `pbrain-banco` says to a
//! tournament manager.
//!
//! [`Brain::handle`] takes one input line and returns the lines to print, so the whole
//! protocol is testable from a transcript. Commands:
//!
//! - `START n` / `RECTSTART w,h`: a new board (5..=64 per side) -> `OK`.
//! - `RESTART`: clear the board -> `OK`.
//! - `BEGIN`: play first -> `x,y`.
//! - `TURN x,y`: the opponent played there -> our `x,y`.
//! - `BOARD` then `x,y,f` lines (`f` 1 ours, 2 theirs, 3 ignored) then `DONE` -> `x,y`.
//! - `TAKEBACK x,y`: remove that stone -> `OK`.
//! - `PLAY x,y`: put our stone there (the manager decides) -> `x,y`.
//! - `SWAP2BOARD` then `x,y` (or `x,y,field`) lines (the opening's stones so far, X
//!   first) then `DONE`:
//!   Gomocup's Swap2 extension. No stones: propose three -> `x,y x,y x,y` (of four
//!   openings drawn from the shipped balanced list, the one the search scores closest
//!   to even with White to move, each on a quarter of the move's time). Three or five stones: decide by a search of the position with
//!   White (O) to move: White when it stands at least even -> its move `x,y`, else
//!   `SWAP` (take Black). Placing two more stones is never answered: the proposer would
//!   then take the better colour, worth at most even to us.
//! - `INFO key value`: `timeout_turn`, `timeout_match`, `time_left` (ms), `max_memory`
//!   (bytes), `rule` (0 freestyle, 1 exactly five, 4 or 5 renju, 8 caro with overlines,
//!   9 caro), others ignored. No answer.
//! - `ABOUT` -> `name="pbrain-banco", ...`; `END` -> stop.
//!
//! Anything else gets `UNKNOWN ...`; a command that cannot be carried out (bad
//! coordinates, an occupied point, a move before `START`) gets `ERROR ...` and changes
//! nothing.
//!
//! Time: the move's budget is the turn time less a margin for the manager, and never
//! more than a share of the match time left; with no time given, the level's own.

use std::time::Duration;

use banco_engine::bot::{Bot, Limits};
use banco_engine::caro::Config;
use banco_engine::caro::Engine;
use banco_engine::caro::position::Position;
use banco_rules::Level;
use banco_rules::caro::{Board, MAX_SIDE, MIN_SIDE, Point, Rule, Stone};

/// Kept back from the turn time for reading, writing and the manager's own clock.
fn turn_margin(turn: Duration) -> Duration {
    (turn / 20 + Duration::from_millis(40)).min(turn / 2)
}

/// How many balanced openings a Swap2 proposal weighs with the search before it
/// proposes the most even.
const SWAP2_PROPOSALS: usize = 4;

/// Moves a match clock is assumed to still have to pay for.
const MOVES_TO_GO: u32 = 20;

/// The engine side of one Gomocup session.
pub struct Brain {
    /// Level settings (time when the manager gives none, table size, search budgets).
    level: Level,
    /// The engine, rebuilt when the memory limit changes.
    engine: Engine,
    /// What wins (INFO rule).
    rule: Rule,
    /// The board, once `START`ed.
    board: Option<Board>,
    /// Our colour, once known (X moves first).
    own: Option<Stone>,
    /// The opponent's last move, when known (the evaluation compares the position with
    /// the one before it).
    last: Option<Point>,
    /// Stones received inside `BOARD ... DONE`, or `None` outside it. A bad line makes
    /// the whole board an error at `DONE`.
    pending: Option<Result<Vec<(Point, u8)>, String>>,
    /// INFO timeout_turn.
    timeout_turn: Option<Duration>,
    /// INFO timeout_match (zero: no match clock).
    timeout_match: Option<Duration>,
    /// INFO time_left.
    time_left: Option<Duration>,
    /// INFO max_memory in bytes (zero: no limit).
    max_memory: u64,
    /// `END` was received.
    ended: bool,
    /// Most nodes per move, if limited (`--nodes`).
    node_limit: Option<u64>,
    /// Stones received inside `SWAP2BOARD ... DONE`, or `None` outside it.
    swap2: Option<Result<Vec<Point>, String>>,
}

impl Brain {
    pub fn new(level: Level) -> Brain {
        Brain {
            level,
            engine: Engine::new(level),
            rule: Rule::Freestyle,
            board: None,
            own: None,
            last: None,
            pending: None,
            timeout_turn: None,
            timeout_match: None,
            time_left: None,
            max_memory: 0,
            ended: false,
            node_limit: None,
            swap2: None,
        }
    }

    /// A brain that searches at most `nodes` per move (still within the manager's time).
    pub fn with_node_limit(mut self, nodes: Option<u64>) -> Brain {
        self.node_limit = nodes;
        self
    }

    /// Whether `END` was received.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// The board as it stands (for tests and tools).
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// The time the next move may take.
    pub fn move_budget(&self) -> Duration {
        self.budget_and_spend().0
    }

    /// The time the next move may take, and whether it should all be spent: yes when the
    /// turn limit (or the engine's own time) binds, since nothing saved carries over; no
    /// when the match clock's share binds, since what is saved is there for later moves.
    fn budget_and_spend(&self) -> (Duration, bool) {
        let mut budget = self.engine.config().move_time;
        if let Some(turn) = self.timeout_turn {
            budget = if turn.is_zero() {
                // "As fast as possible."
                Duration::from_millis(50)
            } else {
                turn - turn_margin(turn)
            };
        }
        let mut spend_all = true;
        if let (Some(total), Some(left)) = (self.timeout_match, self.time_left)
            && !total.is_zero()
            && left / MOVES_TO_GO < budget
        {
            budget = left / MOVES_TO_GO;
            spend_all = false;
        }
        (budget.max(Duration::from_millis(5)), spend_all)
    }

    /// Handles one line from the manager; returns the lines to answer with.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        if let Some(pending) = &mut self.swap2 {
            if line.eq_ignore_ascii_case("DONE") {
                return match self.swap2.take() {
                    Some(Ok(stones)) => self.swap2_answer(&stones),
                    Some(Err(e)) => vec![format!("ERROR {e}")],
                    None => Vec::new(),
                };
            }
            if let Ok(stones) = pending {
                // `x,y` as the extension's examples write it, or `x,y,field` as managers
                // send it for Rapfi: the stones alternate from X, so the field adds nothing.
                match parse_point(line).or_else(|| parse_board_line(line).map(|(p, _)| p)) {
                    Some(p) => stones.push(p),
                    None => *pending = Err(format!("bad SWAP2BOARD line '{line}'")),
                }
            }
            return Vec::new();
        }
        if let Some(pending) = &mut self.pending {
            if line.eq_ignore_ascii_case("DONE") {
                let pending = self.pending.take();
                return match pending {
                    Some(Ok(stones)) => self.load_board(stones),
                    Some(Err(e)) => vec![format!("ERROR {e}")],
                    None => Vec::new(),
                };
            }
            if let Ok(stones) = pending {
                match parse_board_line(line) {
                    Some(s) => stones.push(s),
                    None => *pending = Err(format!("bad BOARD line '{line}'")),
                }
            }
            return Vec::new();
        }
        let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        match command.to_ascii_uppercase().as_str() {
            "" => Vec::new(),
            "START" => match args.parse::<u32>() {
                Ok(n) => self.start(n, n),
                Err(_) => vec![format!("ERROR START needs a board size, got '{args}'")],
            },
            "RECTSTART" => match parse_pair(args) {
                Some((w, h)) => self.start(w, h),
                None => vec![format!("ERROR RECTSTART needs width,height, got '{args}'")],
            },
            "RESTART" => match &self.board {
                Some(b) => {
                    let (w, h) = (u32::from(b.width()), u32::from(b.height()));
                    self.start(w, h)
                }
                None => vec!["ERROR RESTART before START".to_string()],
            },
            "BEGIN" => self.begin(),
            "TURN" => self.turn(args),
            "PLAY" => self.play(args),
            "BOARD" => {
                if self.board.is_none() {
                    return vec!["ERROR BOARD before START".to_string()];
                }
                self.pending = Some(Ok(Vec::new()));
                Vec::new()
            }
            "SWAP2BOARD" => {
                if self.board.is_none() {
                    return vec!["ERROR SWAP2BOARD before START".to_string()];
                }
                self.swap2 = Some(Ok(Vec::new()));
                Vec::new()
            }
            "TAKEBACK" => self.takeback(args),
            "INFO" => self.info(args),
            "ABOUT" => vec![format!(
                "name=\"pbrain-banco\", version=\"{}\", author=\"banco\", country=\"Vietnam\", www=\"banco\"",
                env!("CARGO_PKG_VERSION")
            )],
            "END" => {
                self.ended = true;
                Vec::new()
            }
            other => vec![format!("UNKNOWN command '{other}'")],
        }
    }

    fn start(&mut self, width: u32, height: u32) -> Vec<String> {
        match Board::new(width, height) {
            Ok(board) => {
                self.board = Some(board);
                self.own = None;
                self.last = None;
                self.engine.new_game();
                vec!["OK".to_string()]
            }
            Err(_) => vec![format!(
                "ERROR unsupported board size {width}x{height}: {MIN_SIDE} to {MAX_SIDE} per side"
            )],
        }
    }

    fn begin(&mut self) -> Vec<String> {
        let Some(board) = &self.board else {
            return vec!["ERROR BEGIN before START".to_string()];
        };
        if self.own.is_none() {
            self.own = Some(if board.stones() % 2 == 0 {
                Stone::X
            } else {
                Stone::O
            });
        }
        self.think_and_play()
    }

    fn turn(&mut self, args: &str) -> Vec<String> {
        let Some(board) = &self.board else {
            return vec!["ERROR TURN before START".to_string()];
        };
        let Some(p) = parse_point(args) else {
            return vec![format!("ERROR TURN needs x,y, got '{args}'")];
        };
        if !board.is_empty_at(p) {
            return vec![format!("ERROR {p} is taken or off the board")];
        }
        let own = self.own.unwrap_or(if board.stones() % 2 == 0 {
            Stone::O
        } else {
            Stone::X
        });
        self.own = Some(own);
        if let Some(b) = &mut self.board {
            b.place(p, own.opponent());
        }
        self.last = Some(p);
        self.think_and_play()
    }

    fn play(&mut self, args: &str) -> Vec<String> {
        let Some(board) = &mut self.board else {
            return vec!["ERROR PLAY before START".to_string()];
        };
        let Some(p) = parse_point(args) else {
            return vec![format!("ERROR PLAY needs x,y, got '{args}'")];
        };
        if !board.is_empty_at(p) {
            return vec![format!("ERROR {p} is taken or off the board")];
        }
        let own = self.own.unwrap_or(if board.stones() % 2 == 0 {
            Stone::X
        } else {
            Stone::O
        });
        self.own = Some(own);
        board.place(p, own);
        self.last = None;
        vec![p.to_string()]
    }

    fn takeback(&mut self, args: &str) -> Vec<String> {
        let Some(board) = &mut self.board else {
            return vec!["ERROR TAKEBACK before START".to_string()];
        };
        match parse_point(args) {
            Some(p) if board.remove(p).is_some() => {
                self.last = None;
                vec!["OK".to_string()]
            }
            _ => vec![format!("ERROR no stone to take back at '{args}'")],
        }
    }

    fn info(&mut self, args: &str) -> Vec<String> {
        let (key, value) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
        let value = value.trim();
        let ms = || value.parse::<u64>().map(Duration::from_millis);
        let bad = || vec![format!("ERROR bad value '{value}' for INFO {key}")];
        match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => match ms() {
                Ok(t) => self.timeout_turn = Some(t),
                Err(_) => return bad(),
            },
            "timeout_match" => match ms() {
                Ok(t) => self.timeout_match = Some(t),
                Err(_) => return bad(),
            },
            "time_left" => match value.parse::<i64>() {
                Ok(t) => self.time_left = Some(Duration::from_millis(t.max(0) as u64)),
                Err(_) => return bad(),
            },
            "max_memory" => match value.parse::<u64>() {
                Ok(m) => {
                    if m != self.max_memory {
                        self.max_memory = m;
                        self.rebuild_engine();
                    }
                }
                Err(_) => return bad(),
            },
            "rule" => match value.parse::<u32>() {
                Ok(r) => match rule_of(r) {
                    Some(rule) => self.rule = rule,
                    None => {
                        return vec![format!(
                            "ERROR unsupported rule {r}: banco plays 0, 1, 4 (renju), 8 and 9"
                        )];
                    }
                },
                Err(_) => return bad(),
            },
            _ => {}
        }
        Vec::new()
    }

    /// A new engine whose hash table fits in half the memory limit.
    fn rebuild_engine(&mut self) {
        let mut config = Config::for_level(self.level);
        if self.max_memory > 0 {
            let entries = (self.max_memory / 2 / 12).max(1 << 12);
            let bits = 63 - entries.leading_zeros();
            config.tt_bits = config.tt_bits.min(bits);
        }
        self.engine = Engine::with_config(config);
    }

    fn load_board(&mut self, stones: Vec<(Point, u8)>) -> Vec<String> {
        let Some(old) = &self.board else {
            return vec!["ERROR BOARD before START".to_string()];
        };
        let Ok(mut board) = Board::new(u32::from(old.width()), u32::from(old.height())) else {
            return vec!["ERROR bad board".to_string()];
        };
        let own_count = stones.iter().filter(|s| s.1 == 1).count();
        let their_count = stones.iter().filter(|s| s.1 == 2).count();
        // Equal counts: we are to move, so we moved first.
        let own = if own_count == their_count {
            Stone::X
        } else {
            Stone::O
        };
        // Managers list the stones in the order they were played.
        let last = stones.iter().rev().find(|s| s.1 == 2).map(|s| s.0);
        for (p, field) in stones {
            let stone = match field {
                1 => own,
                2 => own.opponent(),
                _ => continue,
            };
            if !board.is_empty_at(p) {
                return vec![format!(
                    "ERROR BOARD puts two stones on {p} or one off the board"
                )];
            }
            board.place(p, stone);
        }
        self.board = Some(board);
        self.own = Some(own);
        self.last = last;
        self.think_and_play()
    }

    /// Gomocup's Swap2 opening: propose three stones, or decide after three or five.
    fn swap2_answer(&mut self, stones: &[Point]) -> Vec<String> {
        let Some(empty) = &self.board else {
            return vec!["ERROR SWAP2BOARD before START".to_string()];
        };
        let (width, height) = (empty.width(), empty.height());
        let mut board = match Board::new(u32::from(width), u32::from(height)) {
            Ok(b) => b,
            Err(e) => return vec![format!("ERROR {e}")],
        };
        for (i, &p) in stones.iter().enumerate() {
            if !board.contains_point(p) || !board.is_empty_at(p) {
                return vec![format!(
                    "ERROR SWAP2BOARD stone {p} is off the board or taken"
                )];
            }
            board.place(p, if i % 2 == 0 { Stone::X } else { Stone::O });
        }
        match stones.len() {
            0 => {
                let roll = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                let (budget, _) = self.budget_and_spend();
                self.engine.set_move_time(budget / SWAP2_PROPOSALS as u32);
                // Candidates from the balanced list, each scored by a search with O to
                // move; the most even one is proposed.
                let mut best: Option<(Vec<Point>, i32)> = None;
                for k in 0..SWAP2_PROPOSALS as u64 {
                    let Some(candidate) = banco_rules::caro::openings::random_balanced(
                        width,
                        height,
                        roll.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                    ) else {
                        break;
                    };
                    let mut scratch = board.clone();
                    for (i, &p) in candidate.iter().enumerate() {
                        scratch.place(p, if i % 2 == 0 { Stone::X } else { Stone::O });
                    }
                    let mut pos = Position::from_board(&scratch, self.rule, Stone::O);
                    let mut limits = Limits::none().spending_all();
                    if let Some(n) = self.node_limit {
                        limits = limits.nodes(n / SWAP2_PROPOSALS as u64);
                    }
                    let score = self.engine.search(&mut pos, &limits).score;
                    if best.as_ref().is_none_or(|(_, s)| score.abs() < s.abs()) {
                        best = Some((candidate, score));
                    }
                }
                let three = best.map(|(c, _)| c).unwrap_or_else(|| {
                    let (cx, cy) = (width / 2, height / 2);
                    vec![
                        Point::new(cx, cy),
                        Point::new(cx + 1, cy),
                        Point::new(cx.saturating_sub(1), cy + 1),
                    ]
                });
                vec![
                    three
                        .iter()
                        .map(Point::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                ]
            }
            3 | 5 => {
                // O (White) is to move after an odd number of stones.
                let (budget, _) = self.budget_and_spend();
                self.engine.set_move_time(budget);
                let mut pos = Position::from_board(&board, self.rule, Stone::O);
                let mut limits = Limits::none().spending_all();
                if let Some(n) = self.node_limit {
                    limits = limits.nodes(n);
                }
                let thought = self.engine.search(&mut pos, &limits);
                let message = format!(
                    "MESSAGE swap2: White scores {} at depth {}",
                    thought.score, thought.depth
                );
                match thought.best {
                    Some(cell) if thought.score >= 0 => {
                        let p = pos.point(cell);
                        board.place(p, Stone::O);
                        self.board = Some(board);
                        self.own = Some(Stone::O);
                        self.last = None;
                        vec![message, p.to_string()]
                    }
                    _ => {
                        self.board = Some(board);
                        self.own = Some(Stone::X);
                        self.last = stones.last().copied();
                        vec![message, "SWAP".to_string()]
                    }
                }
            }
            n => vec![format!("ERROR SWAP2BOARD takes 0, 3 or 5 stones, not {n}")],
        }
    }

    fn think_and_play(&mut self) -> Vec<String> {
        let (budget, spend_all) = self.budget_and_spend();
        let (Some(board), Some(own)) = (&mut self.board, self.own) else {
            return vec!["ERROR no game in progress".to_string()];
        };
        if board.is_full() {
            return vec!["ERROR the board is full".to_string()];
        }
        self.engine.set_move_time(budget);
        let mut pos = Position::from_board_after(board, self.rule, own, self.last);
        let mut limits = Limits::none();
        if spend_all {
            limits = limits.spending_all();
        }
        if let Some(n) = self.node_limit {
            limits = limits.nodes(n);
        }
        let thought = self.engine.play_search(&mut pos, &limits);
        let Some(cell) = thought.best else {
            return vec!["ERROR no move found".to_string()];
        };
        let p = pos.point(cell);
        board.place(p, own);
        self.last = None;
        let mut out = Vec::new();
        out.push(format!(
            "MESSAGE depth {} score {} nodes {} time {} ms",
            thought.depth,
            thought.score,
            thought.nodes,
            thought.elapsed.as_millis()
        ));
        out.push(p.to_string());
        out
    }
}

/// The banco rule for a Gomocup rule number.
pub fn rule_of(number: u32) -> Option<Rule> {
    match number {
        0 => Some(Rule::Freestyle),
        1 => Some(Rule::Standard),
        8 => Some(Rule::CaroOverline),
        9 => Some(Rule::Caro),
        // Bit 4 is renju; with bit 1 (exactly five) too it is still renju, whose Black
        // already wins with exactly five.
        4 | 5 => Some(Rule::Renju),
        _ => None,
    }
}

fn parse_pair(s: &str) -> Option<(u32, u32)> {
    let (a, b) = s.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

fn parse_point(s: &str) -> Option<Point> {
    let (x, y) = parse_pair(s)?;
    Some(Point::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?))
}

fn parse_board_line(s: &str) -> Option<(Point, u8)> {
    let mut parts = s.split(',');
    let x: u8 = parts.next()?.trim().parse().ok()?;
    let y: u8 = parts.next()?.trim().parse().ok()?;
    let f: u8 = parts.next()?.trim().parse().ok()?;
    if parts.next().is_some() || !(1..=3).contains(&f) {
        return None;
    }
    Some((Point::new(x, y), f))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds a transcript; returns every answer line (MESSAGE lines dropped).
    fn run(brain: &mut Brain, lines: &[&str]) -> Vec<String> {
        lines
            .iter()
            .flat_map(|l| brain.handle(l))
            .filter(|l| !l.starts_with("MESSAGE"))
            .collect()
    }

    fn is_point(s: &str) -> Option<Point> {
        parse_point(s)
    }

    #[test]
    fn swap2board_proposes_three_stones_and_answers_with_a_move_or_swap() {
        let mut b = fast();
        b.handle("INFO rule 4");
        assert_eq!(b.rule, Rule::Renju);
        run(&mut b, &["START 15"]);
        let out = run(&mut b, &["SWAP2BOARD", "DONE"]);
        assert_eq!(out.len(), 1, "{out:?}");
        let three: Vec<Point> = out[0].split(' ').filter_map(is_point).collect();
        assert_eq!(three.len(), 3, "{out:?}");
        // Three stones: White's move, or SWAP.
        let out = run(&mut b, &["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"]);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0] == "SWAP" || is_point(&out[0]).is_some(), "{out:?}");
        // Five stones where X has an open three and White nothing: White stands worse, so
        // the brain takes Black.
        let out = run(
            &mut b,
            &["SWAP2BOARD", "5,7", "0,0", "6,7", "0,2", "7,7", "DONE"],
        );
        assert_eq!(out, ["SWAP"]);
        let out = run(&mut b, &["SWAP2BOARD", "7,7", "8,7", "DONE"]);
        assert!(out[0].starts_with("ERROR"), "{out:?}");
        // The stones with fields, as banco's manager sends them (for Rapfi): the same.
        let out = run(
            &mut b,
            &[
                "SWAP2BOARD",
                "5,7,2",
                "0,0,1",
                "6,7,2",
                "0,2,1",
                "7,7,2",
                "DONE",
            ],
        );
        assert_eq!(out, ["SWAP"]);
        let out = run(&mut b, &["SWAP2BOARD", "7,7", "oops", "DONE"]);
        assert!(out[0].starts_with("ERROR"), "{out:?}");
    }

    fn fast() -> Brain {
        let mut b = Brain::new(Level::Easy);
        b.handle("INFO timeout_turn 200");
        b
    }

    #[test]
    fn scripted_session() {
        let mut b = fast();
        let out = run(&mut b, &["ABOUT"]);
        assert!(out[0].starts_with("name=\"pbrain-banco\""));
        assert_eq!(run(&mut b, &["START 15"]), vec!["OK"]);
        assert_eq!(
            run(
                &mut b,
                &[
                    "INFO rule 9",
                    "INFO max_memory 83886080",
                    "INFO timeout_match 0"
                ]
            ),
            Vec::<String>::new()
        );
        // BEGIN: we are X; an empty board's best first move is the centre.
        let out = run(&mut b, &["BEGIN"]);
        assert_eq!(out, vec!["7,7"]);
        // TURN: the opponent's stone lands, we answer with a free point.
        let out = run(&mut b, &["TURN 8,8"]);
        let p = is_point(&out[0]).unwrap();
        let board = b.board().unwrap();
        assert_eq!(board.stone_at(Point::new(8, 8)), Some(Stone::O));
        assert_eq!(board.stone_at(p), Some(Stone::X));
        assert_eq!(board.stones(), 3);
        // TAKEBACK both, the board follows.
        assert_eq!(
            run(&mut b, &[&format!("TAKEBACK {p}"), "TAKEBACK 8,8"]),
            vec!["OK", "OK"]
        );
        assert_eq!(b.board().unwrap().stones(), 1);
        // BOARD: we have four in a row and must complete it.
        let out = run(
            &mut b,
            &[
                "BOARD", "3,3,1", "10,10,2", "4,3,1", "10,11,2", "5,3,1", "10,12,2", "6,3,1",
                "0,14,2", "DONE",
            ],
        );
        let p = is_point(&out[0]).unwrap();
        assert!(p == Point::new(2, 3) || p == Point::new(7, 3), "{p}");
        // BOARD where the opponent threatens five at the edge: we block it.
        let out = run(
            &mut b,
            &[
                "BOARD", "10,10,2", "10,9,1", "10,11,2", "4,4,1", "10,12,2", "0,0,1", "10,13,2",
                "3,3,1", "DONE",
            ],
        );
        assert_eq!(is_point(&out[0]), Some(Point::new(10, 14)));
        // RESTART clears; we can BEGIN again.
        assert_eq!(run(&mut b, &["RESTART"]), vec!["OK"]);
        assert_eq!(b.board().unwrap().stones(), 0);
        assert_eq!(run(&mut b, &["BEGIN"]), vec!["7,7"]);
        assert!(!b.ended());
        assert!(run(&mut b, &["END"]).is_empty());
        assert!(b.ended());
    }

    #[test]
    fn junk_never_crashes_and_changes_nothing() {
        let mut b = fast();
        // Before START.
        for line in [
            "BEGIN",
            "TURN 1,1",
            "BOARD",
            "RESTART",
            "TAKEBACK 1,1",
            "PLAY 1,1",
        ] {
            let out = run(&mut b, &[line]);
            assert!(out[0].starts_with("ERROR"), "{line}: {out:?}");
        }
        assert_eq!(
            run(&mut b, &["START 4"])[0].split(' ').next(),
            Some("ERROR")
        );
        assert_eq!(
            run(&mut b, &["START abc"])[0].split(' ').next(),
            Some("ERROR")
        );
        assert_eq!(run(&mut b, &["RECTSTART 20,15"]), vec!["OK"]);
        for line in [
            "HELLO",
            "TURN",
            "TURN 20,0",
            "TURN -1,2",
            "TURN 1;2",
            "TAKEBACK 3,3",
            "INFO rule 2",
            "INFO timeout_turn soon",
            "\u{0}\u{7f}garbage",
            "SWAP2",
        ] {
            let out = run(&mut b, &[line]);
            assert!(
                out.len() == 1 && (out[0].starts_with("ERROR") || out[0].starts_with("UNKNOWN")),
                "{line:?}: {out:?}"
            );
        }
        assert_eq!(b.board().unwrap().stones(), 0);
        assert!(
            run(
                &mut b,
                &["", "   ", "INFO evaluate 1,1", "INFO folder /tmp"]
            )
            .is_empty()
        );
        // A bad line inside BOARD spoils the board, not the session.
        let out = run(&mut b, &["BOARD", "1,1,1", "what", "DONE"]);
        assert!(out[0].starts_with("ERROR"), "{out:?}");
        let out = run(&mut b, &["BOARD", "1,1,1", "1,1,2", "DONE"]);
        assert!(out[0].starts_with("ERROR"), "{out:?}");
        assert_eq!(b.board().unwrap().stones(), 0);
        // Rectangular board: moves stay on it.
        let out = run(&mut b, &["TURN 19,14"]);
        let p = is_point(&out[0]).unwrap();
        assert!(p.x < 20 && p.y < 15);
        // The same point twice is refused.
        assert!(run(&mut b, &["TURN 19,14"])[0].starts_with("ERROR"));
        // PLAY puts our stone where told.
        assert_eq!(run(&mut b, &["PLAY 0,0"]), vec!["0,0"]);
    }

    #[test]
    fn budget_follows_the_clock() {
        let mut b = Brain::new(Level::Max);
        assert_eq!(b.move_budget(), Duration::from_secs(5));
        b.handle("INFO timeout_turn 1000");
        let turn = b.move_budget();
        assert!(
            turn < Duration::from_secs(1) && turn > Duration::from_millis(800),
            "{turn:?}"
        );
        assert!(
            b.budget_and_spend().1,
            "a turn limit's time is spent: it does not carry over"
        );
        b.handle("INFO timeout_match 60000");
        b.handle("INFO time_left 60000");
        assert!(b.budget_and_spend().1, "the turn limit still binds");
        b.handle("INFO time_left 4000");
        assert_eq!(b.move_budget(), Duration::from_millis(200));
        assert!(
            !b.budget_and_spend().1,
            "the match clock binds: saved time is for later"
        );
        b.handle("INFO timeout_turn 0");
        assert_eq!(b.move_budget(), Duration::from_millis(50));
    }
}
