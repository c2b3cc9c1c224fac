//! The pool with engines the tests control: each search reports that it started and
//! runs until its deadline or until it is stopped.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use banco_engine::bot::{Limits, Thought};
use banco_rules::Level;
use banco_rules::caro::{Point, Rule};
use banco_rules::game::{Game, GameSpec, Move};

use super::*;

/// Longest a test waits for something that should happen; only turns a hang into a failure.
const WAIT: Duration = Duration::from_secs(60);

fn spec() -> GameSpec {
    GameSpec::Caro {
        width: 15,
        height: 15,
        rule: Rule::Caro,
        opening: Vec::new(),
    }
}

/// An engine that says when it starts (by level, which tests use to tell jobs apart) and
/// thinks until its deadline or until stopped. At `easy` a stopped search has found no
/// move yet; at every other level it has one.
struct Sleeper {
    started: mpsc::Sender<Level>,
    level: Level,
}

impl Engine for Sleeper {
    fn think(&mut self, _: &Game, limits: &Limits) -> Thought<Move> {
        let _ = self.started.send(self.level);
        let give_up = Instant::now() + WAIT;
        while !limits.cancel.is_cancelled()
            && limits.deadline.is_none_or(|d| Instant::now() < d)
            && Instant::now() < give_up
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        let found = self.level != Level::Easy || !limits.cancel.is_cancelled();
        Thought {
            best: found.then_some(Move::Caro(Point::new(7, 7))),
            score: 1,
            depth: 1,
            nodes: 1,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }

    fn set_level(&mut self, level: Level) {
        self.level = level;
    }
}

/// A pool of `threads` sleepers, and where their starts are reported.
fn pool(threads: usize) -> (EnginePool, mpsc::Receiver<Level>) {
    let (tx, rx) = mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    let factory: EngineFactory = Arc::new(move |_, level, _| {
        let started = tx.lock().unwrap().clone();
        Box::new(Sleeper { started, level })
    });
    (
        EnginePool::with_factory(threads, 4 << 20, factory).unwrap(),
        rx,
    )
}

/// A job at `level` (the tests' tag) whose answer goes to `answers`; `think` is how long it
/// may run (`None`: until stopped).
fn job(
    priority: Priority,
    level: Level,
    think: Option<Duration>,
    answers: &mpsc::Sender<(Level, Finished)>,
) -> Job {
    let answers = answers.clone();
    let limits = think.map_or_else(Limits::none, Limits::within);
    Job::new(
        priority,
        spec(),
        level,
        Game::new(&spec()).unwrap(),
        limits,
        move |f| {
            let _ = answers.send((level, f));
        },
    )
}

#[test]
fn runs_the_configured_number_of_named_threads() {
    let count = |names: &[String]| {
        std::fs::read_dir("/proc/self/task")
            .unwrap()
            .filter_map(|t| std::fs::read_to_string(t.unwrap().path().join("comm")).ok())
            .filter(|comm| names.iter().any(|n| n == comm.trim()))
            .count()
    };
    let (pool, _) = pool(3);
    assert_eq!(pool.threads(), 3);
    let names = pool.thread_names();
    let until = Instant::now() + WAIT;
    while count(&names) < 3 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(count(&names), 3, "{names:?}");
    // Dropping the last handle ends them.
    drop(pool);
    while count(&names) > 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(count(&names), 0);
    // Zero threads asked still gives one.
    assert_eq!(self::pool(0).0.threads(), 1);
}

#[test]
fn people_go_first_then_hints_then_bots_only() {
    let (pool, started) = pool(1);
    let (tx, answers) = mpsc::channel();
    let blocker = pool.submit(job(Priority::PersonsBot, Level::Max, None, &tx));
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Max));
    let short = Some(Duration::from_millis(1));
    let _a = pool.submit(job(Priority::BotsOnly, Level::Easy, short, &tx));
    let _b = pool.submit(job(Priority::Hint, Level::Medium, short, &tx));
    let _c = pool.submit(job(Priority::PersonsBot, Level::Hard, short, &tx));
    blocker.cancel();
    let order: Vec<Level> = (0..4)
        .map(|_| answers.recv_timeout(WAIT).unwrap().0)
        .collect();
    assert_eq!(
        order,
        [Level::Max, Level::Hard, Level::Medium, Level::Easy],
        "the stopped job first, then by priority"
    );
}

#[test]
fn a_persons_bot_stops_a_bots_only_search_which_resumes_after() {
    let (pool, started) = pool(1);
    let (tx, answers) = mpsc::channel();
    let bots = pool.submit(job(Priority::BotsOnly, Level::Easy, None, &tx));
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Easy));
    let _person = pool.submit(job(
        Priority::PersonsBot,
        Level::Max,
        Some(Duration::from_millis(1)),
        &tx,
    ));
    // The person's job runs and answers; the bots' search was put back, not answered.
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Max));
    let (level, finished) = answers.recv_timeout(WAIT).unwrap();
    assert_eq!(level, Level::Max);
    assert!(!finished.cancelled);
    assert!(finished.best.is_some());
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Easy), "it runs again");
    bots.cancel();
    let (level, finished) = answers.recv_timeout(WAIT).unwrap();
    assert_eq!(level, Level::Easy);
    assert!(finished.cancelled);
}

#[test]
fn a_stopped_bots_only_search_with_a_move_plays_it() {
    let (pool, started) = pool(1);
    let (tx, answers) = mpsc::channel();
    let _bots = pool.submit(job(Priority::BotsOnly, Level::Hard, None, &tx));
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Hard));
    let _person = pool.submit(job(
        Priority::PersonsBot,
        Level::Max,
        Some(Duration::from_millis(1)),
        &tx,
    ));
    // The bots' search answers with its move, then the person's runs.
    let (level, finished) = answers.recv_timeout(WAIT).unwrap();
    assert_eq!(level, Level::Hard);
    assert!(!finished.cancelled);
    assert!(finished.best.is_some());
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Max));
    assert_eq!(answers.recv_timeout(WAIT).unwrap().0, Level::Max);
    assert!(
        started.try_recv().is_err(),
        "the bots' search did not start over"
    );
}

#[test]
fn hints_are_refused_while_people_s_bots_fill_the_threads() {
    let (pool, started) = pool(1);
    let (tx, _answers) = mpsc::channel();
    let person = pool.submit(job(Priority::PersonsBot, Level::Max, None, &tx));
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Max));
    let hint = pool.try_submit(job(Priority::Hint, Level::Hard, None, &tx));
    assert_eq!(hint.err(), Some(Saturated));
    // Nor does a search called off and still winding down.
    person.cancel();
    assert!(
        pool.try_submit(job(Priority::Hint, Level::Hard, None, &tx))
            .is_ok()
    );
    // A bots-only search does not count: it gives way to the hint.
    let (pool, started) = self::pool(1);
    let _bots = pool.submit(job(Priority::BotsOnly, Level::Easy, None, &tx));
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Easy));
    let hint = pool.try_submit(job(Priority::Hint, Level::Hard, None, &tx));
    assert!(hint.is_ok());
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Hard));
}

#[test]
fn a_called_off_job_never_runs_and_a_dropped_handle_calls_it_off() {
    let (pool, started) = pool(1);
    let (tx, answers) = mpsc::channel();
    let blocker = pool.submit(job(Priority::PersonsBot, Level::Max, None, &tx));
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Max));
    let waiting = pool.submit(job(Priority::PersonsBot, Level::Easy, None, &tx));
    drop(waiting);
    let (level, finished) = answers.recv_timeout(WAIT).unwrap();
    assert_eq!(level, Level::Easy);
    assert!(finished.cancelled);
    assert_eq!(finished.best, None);
    // The running one stops when its handle goes.
    drop(blocker);
    let (level, finished) = answers.recv_timeout(WAIT).unwrap();
    assert_eq!(level, Level::Max);
    assert!(finished.cancelled);
    assert!(
        started.try_recv().is_err(),
        "the called-off job never started"
    );
}

#[test]
fn closing_the_pool_answers_every_job() {
    let (pool, started) = pool(1);
    let (tx, answers) = mpsc::channel();
    let _running = pool.submit(job(Priority::PersonsBot, Level::Max, None, &tx));
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Max));
    let _waiting = pool.submit(job(Priority::Hint, Level::Easy, None, &tx));
    drop(pool);
    let mut got: Vec<(Level, bool)> = (0..2)
        .map(|_| {
            let (l, f) = answers.recv_timeout(WAIT).unwrap();
            (l, f.cancelled)
        })
        .collect();
    got.sort_by_key(|(l, _)| *l);
    assert_eq!(got, [(Level::Easy, true), (Level::Max, true)]);
}

#[test]
fn a_review_gives_way_to_every_move_and_hint_and_starts_its_position_over() {
    for urgent in [Priority::PersonsBot, Priority::Hint, Priority::BotsOnly] {
        let (pool, started) = pool(1);
        let (tx, answers) = mpsc::channel();
        // A review search that has a move when stopped (not easy) still starts over.
        let review = pool.submit(job(Priority::Review, Level::Hard, None, &tx));
        assert_eq!(started.recv_timeout(WAIT), Ok(Level::Hard));
        let _move = pool.submit(job(urgent, Level::Max, Some(Duration::from_millis(1)), &tx));
        assert_eq!(started.recv_timeout(WAIT), Ok(Level::Max), "{urgent:?}");
        let (level, finished) = answers.recv_timeout(WAIT).unwrap();
        assert_eq!(level, Level::Max, "{urgent:?} answered first");
        assert!(!finished.cancelled);
        assert_eq!(
            started.recv_timeout(WAIT),
            Ok(Level::Hard),
            "the review's position is searched again, at its full budget"
        );
        review.cancel();
        assert_eq!(answers.recv_timeout(WAIT).unwrap().0, Level::Hard);
    }
}

#[test]
fn reviews_wait_for_every_other_job_and_never_fill_the_pool_for_hints() {
    let (pool, started) = pool(1);
    let (tx, answers) = mpsc::channel();
    let blocker = pool.submit(job(Priority::PersonsBot, Level::Max, None, &tx));
    assert_eq!(started.recv_timeout(WAIT), Ok(Level::Max));
    let short = Some(Duration::from_millis(1));
    let _r = pool.submit(job(Priority::Review, Level::Easy, short, &tx));
    let _b = pool.submit(job(Priority::BotsOnly, Level::Medium, short, &tx));
    blocker.cancel();
    let order: Vec<Level> = (0..3)
        .map(|_| answers.recv_timeout(WAIT).unwrap().0)
        .collect();
    assert_eq!(order, [Level::Max, Level::Medium, Level::Easy]);
    // A running review does not make the pool too busy for a hint.
    let _review = pool.submit(job(Priority::Review, Level::Hard, None, &tx));
    let _ = started.recv_timeout(WAIT);
    assert!(
        pool.try_submit(job(Priority::Hint, Level::Max, short, &tx))
            .is_ok()
    );
}

#[test]
fn a_judging_engine_searches_every_position_without_noise_until_it_plays_again() {
    use banco_engine::bot::GameBot;
    let mut bot = GameBot::new(&GameSpec::Xiangqi { fen: None }, Level::Max);
    let book = |bot: &GameBot| match bot {
        GameBot::Xiangqi(e) => (e.config().use_book, e.config().root_noise),
        GameBot::Caro(_) => unreachable!(),
    };
    assert!(book(&bot).0, "max plays from its book");
    Engine::judge(&mut bot);
    assert_eq!(book(&bot), (false, 0));
    Engine::set_level(&mut bot, Level::Max);
    assert!(book(&bot).0, "a bot move after a review plays as its level");
    let mut caro = GameBot::new(&spec(), Level::Easy);
    Engine::judge(&mut caro);
    let GameBot::Caro(e) = &caro else {
        unreachable!()
    };
    assert_eq!(e.config().imprecision, 0);
}

/// What the engines of a pool did, in order: `built` (with the spec's game and the bytes
/// given) and `forgot`.
#[derive(Debug, Clone, PartialEq)]
enum Event {
    Built(&'static str, usize),
    Forgot(&'static str),
}

fn game_name(spec: &GameSpec) -> &'static str {
    match spec {
        GameSpec::Caro { .. } => "caro",
        GameSpec::Xiangqi { .. } => "xiangqi",
    }
}

/// An engine that answers at once and reports when it forgets.
struct Quick {
    game: &'static str,
    events: mpsc::Sender<Event>,
}

impl Engine for Quick {
    fn think(&mut self, _: &Game, _: &Limits) -> Thought<Move> {
        Thought {
            best: None,
            score: 0,
            depth: 1,
            nodes: 1,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }

    fn set_level(&mut self, _: Level) {}

    fn forget(&mut self) {
        let _ = self.events.send(Event::Forgot(self.game));
    }
}

#[test]
fn a_thread_builds_each_game_s_engine_once_and_moves_between_games_without_building() {
    let (tx, events) = mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    let factory: EngineFactory = Arc::new(move |spec, _, bytes| {
        let events = tx.lock().unwrap().clone();
        let game = game_name(spec);
        let _ = events.send(Event::Built(game, bytes));
        Box::new(Quick { game, events })
    });
    // One thread with 8 MB: each game's engine gets half.
    let pool = EnginePool::with_factory(1, 8 << 20, factory).unwrap();
    let caro = |width: u8, rule: Rule| GameSpec::Caro {
        width,
        height: width,
        rule,
        opening: Vec::new(),
    };
    let xiangqi = GameSpec::Xiangqi { fen: None };
    let (answers_tx, answers) = mpsc::channel();
    // A host with one search thread, a caro bot and a xiangqi bot: the jobs alternate.
    let specs = [
        caro(15, Rule::Caro),
        xiangqi.clone(),
        caro(15, Rule::Caro),
        xiangqi.clone(),
        caro(9, Rule::Caro),
        caro(9, Rule::Freestyle),
        xiangqi,
        caro(9, Rule::Freestyle),
    ];
    for spec in &specs {
        let reply = answers_tx.clone();
        let game = Game::new(spec).unwrap();
        let job = Job::new(
            Priority::PersonsBot,
            spec.clone(),
            Level::Max,
            game,
            Limits::none(),
            move |f| {
                let _ = reply.send(f);
            },
        );
        let handle = pool.submit(job);
        answers.recv_timeout(WAIT).unwrap();
        drop(handle);
    }
    let seen: Vec<Event> = events.try_iter().collect();
    assert_eq!(
        seen,
        [
            Event::Built("caro", 4 << 20),
            Event::Built("xiangqi", 4 << 20),
            // Another board size, then another rule: the caro tables are emptied.
            Event::Forgot("caro"),
            Event::Forgot("caro"),
        ]
    );
}
