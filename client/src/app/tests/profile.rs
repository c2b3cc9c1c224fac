//! Per-game leaderboards, profiles ("My info") with their rating chart, changing the
//! password and logging out.

use super::*;
use crate::app::account::PasswordField;
use crate::testing::{
    caro_game_record, established_profile, leaderboard, new_profile, xiangqi_leaderboard,
};
use banco_protocol::{ErrorCode, ErrorMsg, GameKind, Level, PasswordChange, Profile};

/// Bình's record under An's name: what An's own profile looks like with games.
fn ans_profile() -> Box<Profile> {
    let mut p = established_profile();
    p.name = "An".into();
    Box::new(p)
}

/// Logged in to the account An.
fn account_app() -> App {
    let mut a = app();
    a.session.account = Some(Credentials {
        password: "old secret".into(),
        register: false,
        bot: false,
    });
    a.connected(
        Welcome {
            account: true,
            ..welcome()
        },
        "127.0.0.1:7373".into(),
    );
    a.take_effects();
    a
}

fn profile_request(name: &str, bot: Option<Level>) -> ClientMsg {
    ClientMsg::Profile {
        name: name.into(),
        bot,
    }
}

#[test]
fn the_leaderboard_switches_game_and_ignores_the_other_games_late_answer() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('l')]);
    assert_eq!(sent(&mut a), [ClientMsg::Leaderboard(GameKind::Caro)]);
    press(&mut a, &[KeyCode::Tab]);
    assert_eq!(sent(&mut a), [ClientMsg::Leaderboard(GameKind::Xiangqi)]);
    // The caro answer, late, is not drawn under the xiangqi tab.
    a.server(leaderboard());
    assert!(
        matches!(&a.screen, Screen::Leaderboard(b) if b.game == GameKind::Xiangqi && b.standings.is_none())
    );
    a.server(xiangqi_leaderboard());
    assert!(
        matches!(&a.screen, Screen::Leaderboard(b) if b.standings.as_ref().is_some_and(|s| s.len() == 2))
    );
    // c and x choose a game directly; r asks again for the one shown.
    press(&mut a, &[KeyCode::Char('c')]);
    assert_eq!(sent(&mut a), [ClientMsg::Leaderboard(GameKind::Caro)]);
    press(&mut a, &[KeyCode::Char('r')]);
    assert_eq!(sent(&mut a), [ClientMsg::Leaderboard(GameKind::Caro)]);
    press(&mut a, &[KeyCode::Char('x')]);
    assert_eq!(sent(&mut a), [ClientMsg::Leaderboard(GameKind::Xiangqi)]);
}

#[test]
fn snapshot_leaderboard_xiangqi_marks_provisional_ratings_and_the_reader() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('x')]);
    // x is not a lobby key; the leaderboard opens on caro and switches.
    press(&mut a, &[KeyCode::Char('l'), KeyCode::Char('x')]);
    a.server(xiangqi_leaderboard());
    let (text, _) = render(&a, 80, 12);
    assert!(text.contains("1500?"), "{text}");
    assert!(text.contains("An ◀ you"), "{text}");
    insta::assert_snapshot!("leaderboard_xiangqi", text);
}

#[test]
fn enter_on_a_leaderboard_row_opens_that_profile_and_esc_comes_back() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('l')]);
    a.server(leaderboard());
    sent(&mut a);
    // The bot's row asks for the bot of that level.
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(
        sent(&mut a),
        [profile_request("Bot (hard)", Some(Level::Hard))]
    );
    press(&mut a, &[KeyCode::Esc]);
    assert!(matches!(&a.screen, Screen::Leaderboard(b) if b.standings.is_some()));
    // Esc went back without asking again; Bình's row asks for Bình.
    press(&mut a, &[KeyCode::Down, KeyCode::Enter]);
    assert_eq!(sent(&mut a), [profile_request("Bình", None)]);
    let Screen::Profile(ps) = &a.screen else {
        panic!("profile expected");
    };
    assert!(ps.loading() && !ps.mine);
    a.server(ServerMsg::Profile(Box::new(established_profile())));
    let Screen::Profile(ps) = &a.screen else {
        panic!("profile expected");
    };
    assert_eq!(ps.profile.as_ref().map(|p| p.name.as_str()), Some("Bình"));
    // Someone else's profile offers no password change or log out.
    press(&mut a, &[KeyCode::Char('p'), KeyCode::Char('o')]);
    assert!(matches!(a.screen, Screen::Profile(_)));
    assert!(a.take_effects().is_empty());
    press(&mut a, &[KeyCode::Char('q')]);
    assert!(matches!(&a.screen, Screen::Leaderboard(b) if b.selected == 1));
}

#[test]
fn a_recent_game_opens_its_replay_and_the_replay_goes_back_to_the_profile() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('i')]);
    assert_eq!(sent(&mut a), [profile_request("An", None)]);
    a.server(ServerMsg::Profile(ans_profile()));
    press(&mut a, &[KeyCode::End, KeyCode::Enter]);
    assert_eq!(sent(&mut a), [ClientMsg::Replay(42)]);
    // A second Enter while it comes asks nothing more.
    press(&mut a, &[KeyCode::Enter]);
    assert!(sent(&mut a).is_empty());
    a.server(ServerMsg::Replay(Box::new(caro_game_record())));
    assert!(matches!(a.screen, Screen::Replay(_)));
    press(&mut a, &[KeyCode::Esc]);
    let Screen::Profile(ps) = &a.screen else {
        panic!("back to the profile expected");
    };
    assert_eq!((ps.selected, ps.opening), (3, None));
}

#[test]
fn a_late_answer_for_someone_else_is_not_shown_as_this_profile() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('i')]);
    a.server(ServerMsg::Profile(Box::new(established_profile())));
    assert!(matches!(&a.screen, Screen::Profile(ps) if ps.loading()));
    // The same name in another case is the same person.
    let mut mine = established_profile();
    mine.name = "AN".into();
    a.server(ServerMsg::Profile(Box::new(mine)));
    assert!(matches!(&a.screen, Screen::Profile(ps) if !ps.loading()));
}

#[test]
fn nobody_by_that_name_is_said_on_the_profile_screen() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('i')]);
    a.server(ServerMsg::Error(ErrorMsg::new(
        ErrorCode::NoSuchPlayer,
        "Nobody by that name has played on this server.",
    )));
    let Screen::Profile(ps) = &a.screen else {
        panic!("profile expected");
    };
    assert!(!ps.loading());
    let (text, _) = render(&a, 100, 20);
    assert!(text.contains("Nobody by that name"), "{text}");
    // A guest's own: how to register instead of a password change.
    assert!(text.contains("press o"), "{text}");
}

#[test]
fn snapshot_profile_with_its_rating_chart() {
    let mut a = account_app();
    press(&mut a, &[KeyCode::Char('l')]);
    a.server(leaderboard());
    press(&mut a, &[KeyCode::Down, KeyCode::Enter]);
    a.server(ServerMsg::Profile(Box::new(established_profile())));
    let (text, _) = render(&a, 100, 34);
    // A picture, not numbers: the chart is drawn in braille dots.
    assert!(
        text.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)),
        "{text}"
    );
    assert!(text.contains("#2") && text.contains("1724 ±62"), "{text}");
    insta::assert_snapshot!("profile_established", text);
    // Tab: the xiangqi chart, provisional after one game.
    press(&mut a, &[KeyCode::Tab]);
    let (text, _) = render(&a, 100, 34);
    assert!(
        text.contains("1562? ±290") && text.contains("provisional"),
        "{text}"
    );
    insta::assert_snapshot!("profile_xiangqi_provisional", text);
}

#[test]
fn snapshot_profile_of_a_newcomer_in_vietnamese() {
    let mut a = account_app();
    a.loc = Locale::load("vi", None).unwrap();
    press(&mut a, &[KeyCode::Char('i')]);
    a.server(ServerMsg::Profile(Box::new(new_profile())));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("1500? ±350"), "{text}");
    insta::assert_snapshot!("profile_new_vi", text);
}

#[test]
fn the_password_changes_with_its_checks_and_the_kept_one_follows() {
    let mut a = account_app();
    press(&mut a, &[KeyCode::Char('i')]);
    a.server(ServerMsg::Profile(ans_profile()));
    sent(&mut a);
    press(&mut a, &[KeyCode::Char('p')]);
    assert!(matches!(a.screen, Screen::Password(_)));
    let form_error = |a: &App| match &a.screen {
        Screen::Password(ps) => ps.error.clone().unwrap_or_default(),
        _ => panic!("password screen expected"),
    };
    // Nothing typed: the old password is asked for.
    press(&mut a, &[KeyCode::Enter, KeyCode::Enter, KeyCode::Enter]);
    assert_eq!(form_error(&a), "Type your current password first.");
    typ(&mut a, "old secret");
    press(&mut a, &[KeyCode::Tab]);
    typ(&mut a, "new secret");
    press(&mut a, &[KeyCode::Tab]);
    typ(&mut a, "new secrte");
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(
        form_error(&a),
        "The two new passwords differ: type the new one again."
    );
    assert!(sent(&mut a).is_empty());
    // The password never shows, only its dots.
    let (text, _) = render(&a, 80, 20);
    assert!(
        !text.contains("secret") && text.contains("••••••••••"),
        "{text}"
    );
    insta::assert_snapshot!("password_differ", text);
    typ(&mut a, "new secret");
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(
        sent(&mut a),
        [ClientMsg::ChangePassword(PasswordChange {
            old: "old secret".into(),
            new: "new secret".into(),
        })]
    );
    // The server says the old one was wrong: said on the form, which stays.
    a.server(ServerMsg::Error(ErrorMsg::new(
        ErrorCode::LoginFailed,
        "Wrong name or password.",
    )));
    assert_eq!(
        form_error(&a),
        "That is not your current password: type it again."
    );
    assert!(
        matches!(&a.screen, Screen::Password(ps) if ps.focus == PasswordField::Old && ps.old.is_empty())
    );
    typ(&mut a, "old secret");
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(sent(&mut a).len(), 1);
    a.server(ServerMsg::PasswordChanged);
    assert!(matches!(a.screen, Screen::Profile(_)));
    assert_eq!(notice(&a), "Your password was changed.");
    // A change caught by a dropped connection is not left waiting forever.
    press(&mut a, &[KeyCode::Char('p')]);
    typ(&mut a, "new secret");
    press(&mut a, &[KeyCode::Tab]);
    typ(&mut a, "newer secret");
    press(&mut a, &[KeyCode::Tab]);
    typ(&mut a, "newer secret");
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(sent(&mut a).len(), 1);
    a.disconnected(crate::net::Lost::Closed);
    assert!(matches!(&a.screen, Screen::Password(ps) if !ps.waiting));
    assert!(form_error(&a).starts_with("The connection dropped"));
    assert_eq!(
        a.session.account.as_ref().map(|c| c.password.as_str()),
        Some("new secret")
    );
}

#[test]
fn logging_out_closes_the_connection_and_forgets_the_password() {
    let mut a = account_app();
    press(&mut a, &[KeyCode::Char('i')]);
    a.server(ServerMsg::Profile(ans_profile()));
    sent(&mut a);
    press(&mut a, &[KeyCode::Char('o')]);
    let effects = a.take_effects();
    assert!(effects.contains(&Effect::Disconnect), "{effects:?}");
    assert!(effects.contains(&Effect::ForgetSeat), "{effects:?}");
    assert!(a.session.account.is_none() && a.session.welcome.is_none());
    let Screen::Connect(form) = &a.screen else {
        panic!("connect screen expected");
    };
    assert_eq!(form.name.text(), "An");
    assert!(form.password.is_empty());
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("Logged out."), "{text}");
    // The closed connection's news starts no reconnection.
    a.disconnected(crate::net::Lost::Closed);
    assert!(a.session.reconnect.is_none());
}

#[test]
fn a_guest_is_shown_how_to_register_instead_of_a_password() {
    let mut a = app();
    a.connected(
        Welcome {
            name: "~An".into(),
            ..welcome()
        },
        "127.0.0.1:7373".into(),
    );
    press(&mut a, &[KeyCode::Char('i')]);
    let mut guest = new_profile();
    guest.name = "~An".into();
    guest.registered_at_ms = None;
    a.server(ServerMsg::Profile(Box::new(guest)));
    a.take_effects();
    press(&mut a, &[KeyCode::Char('p')]);
    assert!(matches!(a.screen, Screen::Profile(_)));
    let (text, _) = render(&a, 100, 30);
    assert!(
        text.contains("Guest: a guest's games are never rated"),
        "{text}"
    );
    assert!(text.contains("To keep a rated record"), "{text}");
    assert!(
        text.contains("o register") && !text.contains("p password"),
        "{text}"
    );
    // o: the connect screen, set to register the name without its guest mark.
    press(&mut a, &[KeyCode::Char('o')]);
    let Screen::Connect(form) = &a.screen else {
        panic!("connect screen expected");
    };
    assert_eq!(form.name.text(), "An");
    assert!(form.register && form.focus == ConnectField::Password);
}

#[test]
fn v_in_a_room_shows_a_players_profile_over_the_game() {
    let mut a = room_app(Role::Player(Seat::One));
    // The opponent's first.
    press(&mut a, &[KeyCode::Char('v')]);
    assert_eq!(sent(&mut a), [profile_request("Bình", None)]);
    a.server(ServerMsg::Profile(Box::new(established_profile())));
    // The game goes on underneath.
    a.server(moved(7, 7, Seat::One, 1));
    assert!(matches!(&a.popup, Some(Popup::Profile(sp)) if sp.profile.is_some()));
    assert_eq!(
        a.room()
            .map(|r| r.room.game.as_ref().map(|g| g.moves.len())),
        Some(Some(1))
    );
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("1724 ±62"), "{text}");
    insta::assert_snapshot!("seat_profile", text);
    // Tab: the other player, asked for; Esc closes.
    press(&mut a, &[KeyCode::Tab]);
    assert_eq!(sent(&mut a), [profile_request("An", None)]);
    press(&mut a, &[KeyCode::Esc]);
    assert!(a.popup.is_none() && matches!(a.screen, Screen::Room(_)));
}

#[test]
fn v_on_an_empty_seat_says_nobody_sits_there() {
    let mut view = crate::testing::caro_room_view(Role::Player(Seat::One));
    view.seats[1] = None;
    view.game = None;
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(view)));
    a.take_effects();
    press(&mut a, &[KeyCode::Char('v')]);
    assert!(sent(&mut a).is_empty() && a.popup.is_none());
    assert_eq!(notice(&a), "Nobody sits there yet.");
}

#[test]
fn snapshot_my_info_at_80x24() {
    let mut a = account_app();
    press(&mut a, &[KeyCode::Char('i')]);
    a.server(ServerMsg::Profile(ans_profile()));
    let (text, _) = render(&a, 80, 24);
    // The date keeps its time of day when the year goes.
    assert!(text.contains("05-15 09:06"), "{text}");
    insta::assert_snapshot!("my_info_80x24", text);
}
