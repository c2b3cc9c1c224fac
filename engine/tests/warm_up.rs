//! `GameBot::warm_up` builds every rule's caro pattern table ahead, so a host's first bot
//! move of a rule does not build one inside its deadline. Its own test binary: no other
//! test in this process has built a table before it looks.

use banco_engine::bot::GameBot;
use banco_engine::caro::pattern::PatternTable;
use banco_rules::caro::Rule;

#[test]
fn warm_up_builds_every_rules_pattern_table() {
    for rule in Rule::ALL {
        assert!(
            !PatternTable::is_built(rule),
            "{rule:?} built before warm_up"
        );
    }
    GameBot::warm_up();
    for rule in Rule::ALL {
        assert!(
            PatternTable::is_built(rule),
            "{rule:?} not built by warm_up"
        );
        assert_eq!(PatternTable::get(rule).rule(), rule);
    }
}
