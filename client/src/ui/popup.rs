//! Dialogs: the other player's offer, confirmations, the game's result, settings.

use banco_protocol::{EndReason, OfferKind};
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{centered, dialog, wrap};
use crate::app::{App, Confirm, Popup, Screen, SettingsMenu};
use crate::narrate;
use crate::tr;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, popup: &Popup) {
    match popup {
        Popup::Offer(offer) => {
            let Some(rs) = app.room() else { return };
            let title = match offer.kind {
                OfferKind::Undo => tr!(app.loc, "dialog.undo_title"),
                OfferKind::NewGame => tr!(app.loc, "dialog.newgame_title"),
                OfferKind::Draw => tr!(app.loc, "dialog.draw_title"),
            };
            let text = narrate::offered(&rs.room, offer, &app.loc);
            question(
                frame,
                area,
                app,
                title,
                &text,
                tr!(app.loc, "dialog.yes_no_later"),
            );
        }
        Popup::Confirm(what) => {
            // What the dialog does, named in its title and its keys; one that loses the
            // game takes `r`, which no other dialog uses for yes.
            // Before both players have moved, giving up aborts the game: nobody wins.
            let aborts = what.ends_game() && app.room().is_some_and(|r| r.room.giving_up_aborts());
            let key = match (what, aborts) {
                (Confirm::Leave { loses: true }, true) => "leave_aborts",
                (Confirm::Leave { loses: true }, false) => "leave_loses",
                (Confirm::Leave { loses: false }, _) => "leave",
                (Confirm::Quit { loses: true }, true) => "quit_aborts",
                (Confirm::Quit { loses: true }, false) => "quit_loses",
                (Confirm::Quit { loses: false }, _) => "quit",
                (Confirm::Resign, true) => "resign_aborts",
                (Confirm::Resign, false) => "resign",
                (Confirm::ResignMatch, _) => "resign_match",
            };
            let loc = &app.loc;
            let mut text = tr!(loc, &format!("dialog.{key}")).to_string();
            if matches!(what, Confirm::Quit { .. }) && app.hosting.is_some() {
                text = format!("{text} {}", tr!(loc, "dialog.quit_hosting"));
            }
            question(
                frame,
                area,
                app,
                tr!(loc, &format!("dialog.{key}_title")),
                &text,
                tr!(loc, &format!("dialog.{key}_keys")),
            );
        }
        Popup::GameOver => game_over(frame, area, app),
        Popup::Swap => {
            let Some(rs) = app.room() else { return };
            let text = narrate::swap_line(&rs.room, &app.loc).unwrap_or_default();
            let two = rs
                .room
                .game
                .as_ref()
                .and_then(|g| g.swap_in_progress())
                .is_some_and(|s| s.choices.contains(&banco_protocol::SwapChoice::PlaceTwo));
            let keys = if two {
                "dialog.swap_keys"
            } else {
                "dialog.swap_keys_colour"
            };
            // Over the lower right, not the board's centre: the stones to judge stay in
            // sight.
            let corner = Rect {
                x: area.x + area.width / 2,
                y: area.y + area.height / 2,
                width: area.width - area.width / 2,
                height: area.height - area.height / 2,
            };
            question(
                frame,
                corner,
                app,
                tr!(app.loc, "dialog.swap_title"),
                &text,
                tr!(app.loc, keys),
            );
        }
        Popup::Settings(menu) => settings(frame, area, app, menu),
        Popup::Profile(sp) => super::profile::draw_seat_profile(frame, area, app, sp),
        Popup::Challenge(ch) => {
            let me = app.session.name().unwrap_or_default();
            let text = crate::challenges::incoming_text(ch, &me, &app.loc);
            question(
                frame,
                area,
                app,
                tr!(app.loc, "challenge.answer_title"),
                &text,
                tr!(app.loc, "challenge.answer_keys"),
            );
        }
        Popup::Decline(d) => decline(frame, area, app, d),
    }
}

/// The reasons to decline a challenge, one highlighted.
fn decline(frame: &mut Frame, area: Rect, app: &App, d: &crate::app::people::Decline) {
    let theme = &app.theme;
    let loc = &app.loc;
    let reasons = banco_protocol::DeclineReason::ALL;
    let width = 46u16.min(area.width);
    let height = reasons.len() as u16 + 4;
    let inner = dialog(
        frame,
        centered(area, width, height),
        theme,
        tr!(loc, "challenge.decline_title"),
    );
    let mut lines = vec![Line::default()];
    for (i, reason) in reasons.iter().enumerate() {
        let text = crate::challenges::reason_text(*reason, loc);
        let style = if i == d.selected {
            theme.selected()
        } else {
            theme.style()
        };
        let mark = if i == d.selected { "▶ " } else { "  " };
        lines.push(Line::from(Span::styled(format!(" {mark}{text}"), style)));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// A question box: text, then the keys that answer it.
fn question(frame: &mut Frame, area: Rect, app: &App, title: &str, text: &str, keys: &str) {
    let theme = &app.theme;
    let width = 50u16.min(area.width);
    let body = wrap(text, width.saturating_sub(4) as usize);
    let height = body.len() as u16 + 5;
    let inner = dialog(frame, centered(area, width, height), theme, title);
    let mut lines: Vec<Line> = vec![Line::default()];
    lines.extend(
        body.into_iter()
            .map(|l| Line::from(Span::styled(l, theme.style())).alignment(Alignment::Center)),
    );
    lines.push(Line::default());
    lines
        .push(Line::from(Span::styled(keys.to_string(), theme.key())).alignment(Alignment::Center));
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The result box, placed over the side panel (or the bottom of a narrow screen) so the
/// winning line on the board stays in view.
fn game_over(frame: &mut Frame, area: Rect, app: &App) {
    let Screen::Room(rs) = &app.screen else {
        return;
    };
    let Some(over) = rs.room.game.as_ref().and_then(|g| g.over.as_ref()) else {
        return;
    };
    let theme = &app.theme;
    let loc = &app.loc;
    let l = app.room_layout(area, rs);
    // Over the chat: the board with its winning line and the players' clocks stay in view.
    let side = l.chat;
    let width = side.width.min(44).max(30.min(area.width));
    let headline = narrate::result_headline(&rs.room, over, loc);
    let reason = narrate::end_reason(&rs.room, over, loc);
    let player = rs.room.my_seat().is_some();
    let text_w = width.saturating_sub(4) as usize;
    let won = over.winner.is_some() && over.winner == rs.room.my_seat();
    let lost = over.winner.is_some() && player && !won;
    let head_style = if lost { theme.error() } else { theme.good() };
    let centred = |text: &str, style: ratatui::style::Style| -> Vec<Line<'static>> {
        wrap(text, text_w)
            .into_iter()
            .map(|l| Line::from(Span::styled(l, style)).alignment(Alignment::Center))
            .collect()
    };
    let mut lines = vec![Line::default()];
    lines.extend(centred(&headline, head_style.add_modifier(Modifier::BOLD)));
    lines.extend(centred(&reason, theme.style()));
    // In a match: its score, then its result or when the next game begins.
    let room = &rs.room;
    if let Some(score) = narrate::match_line(room, loc) {
        lines.push(Line::default());
        lines.extend(centred(&score, theme.accent()));
        let next = match room.match_state.and_then(|m| m.result) {
            Some(result) => Some(narrate::match_over(room, &result, loc)),
            None => narrate::match_next(room, app.now, loc),
        };
        if let Some(next) = next {
            lines.extend(centred(&next, theme.accent().add_modifier(Modifier::BOLD)));
        }
    }
    lines.push(Line::default());
    // An aborted game (before both players moved) has nothing to review.
    let unplayed = over.reason == EndReason::Aborted;
    let keys = match (player, unplayed) {
        (true, false) => tr!(loc, "dialog.rematch_keys"),
        (true, true) => tr!(loc, "dialog.rematch_keys_unplayed"),
        (false, false) => tr!(loc, "dialog.watch_keys"),
        (false, true) => tr!(loc, "dialog.watch_keys_unplayed"),
    };
    lines.extend(centred(keys, theme.key()));
    lines.extend(centred(tr!(loc, "dialog.look_keys"), theme.dim()));
    let height = lines.len() as u16 + 2;
    // Over the side panel, moved left as far as it must to stay on screen (a narrow
    // panel beside a xiangqi board is thinner than the dialog).
    let x = (side.x + side.width.saturating_sub(width) / 2)
        .min(area.right().saturating_sub(width))
        .max(area.x);
    let spot = Rect::new(x, side.y + 1, width, height.min(area.height)).intersection(area);
    let inner = dialog(frame, spot, theme, tr!(loc, "dialog.game_over_title"));
    frame.render_widget(Paragraph::new(lines), inner);
}

fn settings(frame: &mut Frame, area: Rect, app: &App, menu: &SettingsMenu) {
    let theme = &app.theme;
    let loc = &app.loc;
    // Where saved games go, and how to change it (a folder is typed on the command line
    // or in the settings file, not stepped through here).
    let games = app.games_dir.as_deref().map(|dir| {
        tr!(
            loc,
            "settings.games_dir",
            dir = crate::settings::home_short(dir)
        )
    });
    let width = 60u16.min(area.width);
    let games_lines = games
        .as_deref()
        .map(|t| wrap(t, width.saturating_sub(4) as usize))
        .unwrap_or_default();
    let height = 12 + games_lines.len() as u16 + u16::from(!games_lines.is_empty());
    let inner = dialog(
        frame,
        centered(area, width, height),
        theme,
        tr!(loc, "settings.title"),
    );
    let theme_name = menu
        .themes
        .iter()
        .find(|t| t.id == app.theme.id)
        .map_or(app.theme.name.clone(), |t| t.name.clone());
    let rows = [
        (tr!(loc, "settings.language"), app.loc.name().to_string()),
        (tr!(loc, "settings.theme"), theme_name),
        (
            tr!(loc, "settings.threats"),
            tr!(
                loc,
                if app.settings.threat_warning {
                    "create.on"
                } else {
                    "create.off"
                }
            )
            .to_string(),
        ),
        (
            tr!(loc, "settings.bell"),
            tr!(
                loc,
                if app.settings.bell {
                    "create.on"
                } else {
                    "create.off"
                }
            )
            .to_string(),
        ),
        (
            tr!(loc, "settings.challenges"),
            crate::challenges::policy_text(app.settings.challenges, loc),
        ),
    ];
    let mut lines = vec![Line::default()];
    for (i, (label, value)) in rows.iter().enumerate() {
        let focused = i == menu.focus;
        lines.push(Line::from(vec![
            Span::styled(
                format!(" {label:>18}  "),
                if focused { theme.accent() } else { theme.dim() },
            ),
            Span::styled(
                if focused {
                    format!("‹ {value} ›")
                } else {
                    format!("  {value}  ")
                },
                if focused {
                    theme.selected()
                } else {
                    theme.style()
                },
            ),
        ]));
    }
    if !games_lines.is_empty() {
        lines.push(Line::default());
        for l in games_lines {
            lines.push(Line::from(Span::styled(format!(" {l}"), theme.dim())));
        }
    }
    lines.push(Line::default());
    lines.push(
        Line::from(Span::styled(
            tr!(loc, "settings.keys").to_string(),
            theme.dim(),
        ))
        .alignment(Alignment::Center),
    );
    frame.render_widget(Paragraph::new(lines), inner);
}
