//! Starting the server's engine pool builds every rule's caro pattern table on a thread
//! of its own, so a host's first bot move of a rule does not build one inside its
//! deadline. Its own test binary: no other test in this process has built a table
//! before it looks.

use std::time::{Duration, Instant};

use banco_engine::caro::pattern::PatternTable;
use banco_rules::caro::Rule;
use banco_server::engines::EnginePool;

#[test]
fn starting_the_pool_builds_every_rules_pattern_table_ahead() {
    for rule in Rule::ALL {
        assert!(
            !PatternTable::is_built(rule),
            "{rule:?} built before the pool started"
        );
    }
    let _pool = EnginePool::start(1, 16 << 20).expect("a search thread starts");
    // The tables are built behind the caller's back: wait for them, generously (this
    // says that they are built, not how fast; the results log has the time).
    let waited = Instant::now();
    while !Rule::ALL.into_iter().all(PatternTable::is_built) {
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "the pool's warm-up has not built every rule's table in two minutes"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}
