//! What each key does, screen by screen: one table read by the help overlay and the key
//! legend, so what is shown is what the handlers do.

/// A key (or keys) and what it does (a locale key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyHelp {
    /// The keys as shown: `u`, `←↑→↓ hjkl`.
    pub keys: &'static str,
    /// Locale key of the description.
    pub what: &'static str,
}

const fn k(keys: &'static str, what: &'static str) -> KeyHelp {
    KeyHelp { keys, what }
}

pub const CONNECT: &[KeyHelp] = &[
    k("Tab ↑↓", "keys.next_field"),
    k("↓ Enter", "keys.pick_server"),
    k("Enter", "keys.connect"),
    k("F2", "keys.register"),
    k("Esc", "keys.quit"),
    k("? F1", "keys.help"),
];

pub const LOBBY: &[KeyHelp] = &[
    k("↑↓ jk", "keys.select_room"),
    k("Enter", "keys.join"),
    k("w", "keys.watch"),
    k("c", "keys.create"),
    k("p", "keys.people"),
    k("t", "keys.tournaments"),
    k("r", "keys.refresh"),
    k("l", "keys.leaderboard"),
    k("h", "keys.history"),
    k("i", "keys.my_info"),
    k("s", "keys.settings"),
    k("?", "keys.help"),
    k("q", "keys.quit"),
];

pub const CREATE: &[KeyHelp] = &[
    k("↑↓ Tab", "keys.next_field"),
    k("←→ 0-9", "keys.change_value"),
    k("Enter", "keys.create_room"),
    k("Esc", "keys.cancel"),
];

pub const CHALLENGE_FORM: &[KeyHelp] = &[
    k("↑↓ Tab", "keys.next_field"),
    k("←→ 0-9", "keys.change_value"),
    k("Enter", "keys.send_challenge"),
    k("Esc", "keys.cancel"),
];

/// The games' page of the tournament form.
pub const TOURNAMENT_GAMES_FORM: &[KeyHelp] = &[
    k("↑↓ Tab", "keys.next_field"),
    k("←→ 0-9", "keys.change_value"),
    k("Enter", "keys.create_tournament"),
    k("Esc", "keys.cancel"),
];

/// The people and challenges screen.
pub const PEOPLE: &[KeyHelp] = &[
    k("↑↓ jk", "keys.select_line"),
    k("Enter", "keys.people_enter"),
    k("c", "keys.challenge_person"),
    k("o", "keys.challenge_open"),
    k("x", "keys.cancel_challenge"),
    k("t", "keys.challenge_policy"),
    k("r", "keys.refresh"),
    k("?", "keys.help"),
    k("q Esc", "keys.back_to_lobby"),
];

/// The tournaments list.
pub const TOURNAMENTS: &[KeyHelp] = &[
    k("↑↓ jk", "keys.select_line"),
    k("Enter", "keys.tournament_open"),
    k("e", "keys.tournament_join"),
    k("c", "keys.tournament_create"),
    k("r", "keys.refresh"),
    k("?", "keys.help"),
    k("q Esc", "keys.back_to_lobby"),
];

/// One tournament opened.
pub const TOURNAMENT: &[KeyHelp] = &[
    k("↑↓ jk", "keys.select_line"),
    k("Enter", "keys.tournament_board"),
    k("g", "keys.tournament_my_game"),
    k("Tab", "keys.tournament_pane"),
    k("e", "keys.tournament_join"),
    k("w", "keys.tournament_withdraw"),
    k("h", "keys.tournament_bye"),
    k("s", "keys.tournament_start"),
    k("p", "keys.tournament_pair"),
    k("P", "keys.tournament_pause"),
    k("+", "keys.tournament_add_round"),
    k("1 0 =", "keys.tournament_result"),
    k("b", "keys.tournament_bot"),
    k("B", "keys.tournament_bot_account"),
    k("x", "keys.tournament_remove"),
    k("E", "keys.tournament_export"),
    k("r", "keys.refresh"),
    k("q Esc", "keys.tournament_back"),
];

/// The tournament form's first page.
pub const TOURNAMENT_FORM: &[KeyHelp] = &[
    k("↑↓ Tab", "keys.next_field"),
    k("←→", "keys.change_value"),
    k("Enter", "keys.tournament_games"),
    k("Esc", "keys.cancel"),
];

/// The tournament form's first page while a typed field (the name, the tie-breaks) has
/// the focus: keys type there, so ←→ change nothing.
pub const TOURNAMENT_FORM_TYPING: &[KeyHelp] = &[
    k("↑↓ Tab", "keys.next_field"),
    k("abc ⌫", "keys.type_value"),
    k("Enter", "keys.tournament_games"),
    k("Esc", "keys.cancel"),
];

/// The keys of the tournament form's first page for the field that has the focus.
pub fn tournament_form_keys(form: &super::tournaments::TourneyForm) -> &'static [KeyHelp] {
    use super::tournaments::TourneyField;
    match form.focus {
        TourneyField::Name | TourneyField::TieBreaks => TOURNAMENT_FORM_TYPING,
        _ => TOURNAMENT_FORM,
    }
}

/// An incoming challenge's dialog.
pub const CHALLENGE_ANSWER: &[KeyHelp] = &[
    k("y Enter", "keys.accept_challenge"),
    k("n", "keys.decline_challenge"),
    k("Esc", "keys.later"),
];

pub const ROOM: &[KeyHelp] = &[
    k("←↑→↓ hjkl", "keys.cursor"),
    k("Shift+←↑→↓ HJKL", "keys.cursor_far"),
    k("Enter Space", "keys.place"),
    k("Enter Space", "keys.move_piece"),
    k("click", "keys.click"),
    k(".", "keys.last_move"),
    k("u", "keys.undo"),
    k("y / n", "keys.answer"),
    k("x", "keys.withdraw"),
    k("g", "keys.newgame"),
    k("d", "keys.draw"),
    k("r", "keys.resign"),
    k("R", "keys.resign_match"),
    k("i", "keys.hint"),
    k("B", "keys.berserk"),
    k("p", "keys.draft"),
    k("c Tab", "keys.chat"),
    k("PgUp PgDn", "keys.scroll_chat"),
    k("o", "keys.show_result"),
    k("w", "keys.threats"),
    k("v", "keys.seat_profile"),
    k("s", "keys.settings"),
    k("?", "keys.help"),
    k("q Esc", "keys.leave"),
    k("Ctrl+C", "keys.quit"),
];

/// Room keys that only a player's seat may use: a spectator's help leaves them out.
pub const PLAYER_ONLY: &[&str] = &[
    "keys.place",
    "keys.move_piece",
    "keys.click",
    "keys.undo",
    "keys.answer",
    "keys.withdraw",
    "keys.newgame",
    "keys.draw",
    "keys.resign",
    "keys.resign_match",
    "keys.hint",
    "keys.threats",
];

pub const CHAT: &[KeyHelp] = &[
    k("Enter", "keys.send"),
    k("Esc", "keys.back_to_board"),
    k("F1", "keys.help"),
];

pub const LEADERBOARD: &[KeyHelp] = &[
    k("↑↓ jk", "keys.select_player"),
    k("Enter", "keys.player_profile"),
    k("a", "keys.challenge_player"),
    k("Tab c x", "keys.other_game"),
    k("g", "keys.player_games"),
    k("h", "keys.history"),
    k("r", "keys.refresh"),
    k("?", "keys.help"),
    k("q Esc", "keys.back_to_lobby"),
];

/// The profile screen's keys; [`profile_keys`] leaves out what the reader may not do.
pub const PROFILE: &[KeyHelp] = &[
    k("↑↓ jk", "keys.select_game"),
    k("Enter", "keys.open_replay"),
    k("Tab ←→", "keys.chart_game"),
    k("p", "keys.change_password"),
    k("o", "keys.log_out"),
    k("o", "keys.register_guest"),
    // Help and the way back before the rest: a narrow legend keeps them.
    k("?", "keys.help"),
    k("q Esc", "keys.back"),
    k("l", "keys.leaderboard"),
    k("r", "keys.refresh"),
    k("a", "keys.challenge_player"),
];

/// The profile's keys for this reader: password and log out on one's own account's,
/// the way to register on a guest's own.
pub fn profile_keys(mine: bool, account: bool) -> Vec<KeyHelp> {
    PROFILE
        .iter()
        .filter(|k| match k.what {
            "keys.change_password" | "keys.log_out" => mine && account,
            "keys.register_guest" => mine && !account,
            "keys.challenge_player" => !mine,
            _ => true,
        })
        .copied()
        .collect()
}

/// The seat profile dialog's keys (over the room).
pub const SEAT_PROFILE: &[KeyHelp] = &[
    k("Tab", "keys.other_player"),
    k("←→", "keys.chart_game"),
    k("Esc v", "keys.close"),
];

pub const PASSWORD: &[KeyHelp] = &[
    k("Tab ↑↓", "keys.next_field"),
    k("Enter", "keys.change_password_send"),
    k("Esc", "keys.cancel"),
    k("F1", "keys.help"),
];

pub const HISTORY: &[KeyHelp] = &[
    k("↑↓ jk", "keys.select_game"),
    k("Enter", "keys.open_replay"),
    k("v", "keys.review"),
    k("Tab m", "keys.mine_or_all"),
    k("l", "keys.leaderboard"),
    k("r", "keys.refresh"),
    k("?", "keys.help"),
    k("q Esc", "keys.back_to_lobby"),
];

pub const REPLAY: &[KeyHelp] = &[
    k("← →", "keys.step"),
    k("↑ ↓", "keys.step_move"),
    k("Home End", "keys.start_end"),
    k("PgUp PgDn", "keys.step_ten"),
    k("Space", "keys.autoplay"),
    k("f", "keys.flip"),
    k("s", "keys.save_record"),
    k("v", "keys.review"),
    k("c", "keys.play_from_here"),
    k("?", "keys.help"),
    k("q Esc", "keys.back"),
];

pub const SAVE: &[KeyHelp] = &[k("Enter", "keys.save_here"), k("Esc", "keys.cancel")];

pub const DRAFT: &[KeyHelp] = &[
    k("←↑→↓ hjkl", "keys.cursor"),
    k("Enter Space", "keys.draft_place"),
    k("u ⌫", "keys.draft_undo"),
    k("p Esc", "keys.draft_leave"),
    k("?", "keys.help"),
];

/// The editor's keys, the everyday ones first: the legend shows what fits, the help
/// shows all.
pub const EDITOR_XIANGQI: &[KeyHelp] = &[
    k("←↑→↓", "keys.cursor"),
    k("KABNRCP kabnrcp", "keys.editor_piece"),
    k("Space", "keys.editor_space"),
    k("Del ⌫", "keys.editor_clear_point"),
    k("Enter", "keys.editor_use"),
    k("Esc q", "keys.editor_cancel"),
    k("t", "keys.editor_side"),
    k("d", "keys.editor_clear"),
    k("s", "keys.editor_start"),
    k("i", "keys.editor_import"),
    k("u", "keys.editor_undo"),
    k("?", "keys.help"),
    k("Tab ⇧Tab", "keys.editor_palette"),
    k("f", "keys.flip"),
    k("click", "keys.editor_click"),
];

pub const EDITOR_CARO: &[KeyHelp] = &[
    k("←↑→↓ hjkl", "keys.cursor"),
    k("x o", "keys.editor_stone"),
    k("Space", "keys.editor_space_caro"),
    k("Del ⌫", "keys.editor_clear_point"),
    k("Enter", "keys.editor_use"),
    k("Esc q", "keys.editor_cancel"),
    k("t", "keys.editor_side_caro"),
    k("d", "keys.editor_clear"),
    k("i", "keys.editor_import_caro"),
    k("u", "keys.editor_undo"),
    k("?", "keys.help"),
    k("Shift+←↑→↓ HJKL", "keys.cursor_far"),
    k("click", "keys.editor_click"),
];

/// The import line's keys.
pub const EDITOR_IMPORT: &[KeyHelp] = &[k("Enter", "keys.editor_read"), k("Esc", "keys.cancel")];
