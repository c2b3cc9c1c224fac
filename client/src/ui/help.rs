//! The help overlay: every key of the current screen in two columns, and what the
//! room's rule and coordinates mean.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use super::{centered, dialog, wrap};
use crate::app::keys::{self, KeyHelp};
use crate::app::{App, Screen};
use crate::theme::Theme;
use crate::tr;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let loc = &app.loc;
    let theme = &app.theme;
    let profile_keys;
    let (title, table): (&str, &[KeyHelp]) = match &app.screen {
        Screen::Connect(_) => (tr!(loc, "help.connect"), keys::CONNECT),
        Screen::Lobby(l) if l.create.is_some() => (tr!(loc, "help.create"), keys::CREATE),
        Screen::Lobby(_) => (tr!(loc, "help.lobby"), keys::LOBBY),
        Screen::Room(rs) if rs.chat_focus => (tr!(loc, "help.chat"), keys::CHAT),
        Screen::Room(rs) if rs.draft.is_some() => (tr!(loc, "help.draft"), keys::DRAFT),
        Screen::Room(_) => (tr!(loc, "help.room"), keys::ROOM),
        Screen::Leaderboard(_) => (tr!(loc, "help.leaderboard"), keys::LEADERBOARD),
        Screen::History(_) => (tr!(loc, "help.history"), keys::HISTORY),
        Screen::Profile(p) => {
            profile_keys = keys::profile_keys(p.mine, app.logged_in());
            (tr!(loc, "help.profile"), profile_keys.as_slice())
        }
        Screen::Password(_) => (tr!(loc, "help.password"), keys::PASSWORD),
        Screen::People(p) if p.form.is_some() => {
            (tr!(loc, "challenge.people"), keys::CHALLENGE_FORM)
        }
        Screen::People(_) => (tr!(loc, "challenge.people"), keys::PEOPLE),
        Screen::Tournaments(t) if t.form.is_some() => (
            tr!(loc, "tournament.create_title"),
            t.form
                .as_ref()
                .map_or(keys::TOURNAMENT_FORM, keys::tournament_form_keys),
        ),
        Screen::Tournaments(t) if t.open.is_some() => {
            (tr!(loc, "tournament.title"), keys::TOURNAMENT)
        }
        Screen::Tournaments(_) => (tr!(loc, "tournament.title"), keys::TOURNAMENTS),
        Screen::Replay(r) if r.save.is_some() => (tr!(loc, "help.replay"), keys::SAVE),
        Screen::Replay(_) => (tr!(loc, "help.replay"), keys::REPLAY),
        Screen::Editor(ed) => match ed.board {
            crate::app::editor::EditBoard::Xiangqi(_) => {
                (tr!(loc, "help.editor"), keys::EDITOR_XIANGQI)
            }
            crate::app::editor::EditBoard::Caro(_) => (tr!(loc, "help.editor"), keys::EDITOR_CARO),
        },
    };
    // Keys of the other game are left out, and a spectator's help lists only the keys
    // that apply to watching.
    let mut skip: Vec<&str> = match &app.screen {
        Screen::Room(rs) => match rs.room.settings.game {
            banco_protocol::GameSettings::Caro { .. } => vec!["keys.move_piece"],
            banco_protocol::GameSettings::Xiangqi { .. } => vec!["keys.place", "keys.threats"],
        },
        _ => Vec::new(),
    };
    let watching = matches!(&app.screen, Screen::Room(rs) if rs.room.my_seat().is_none());
    if watching {
        skip.extend(keys::PLAYER_ONLY);
    }
    let table: Vec<KeyHelp> = table
        .iter()
        .filter(|k| !skip.contains(&k.what))
        .map(|k| match k.what {
            // Leaving loses nothing for a spectator.
            "keys.leave" if watching => KeyHelp {
                what: "keys.leave_watching",
                ..*k
            },
            _ => *k,
        })
        .collect();
    let table = table.as_slice();
    let width = area.width.min(104);
    let inner_w = width.saturating_sub(2) as usize;
    let columns = if table.len() > 6 && inner_w >= 70 {
        2
    } else {
        1
    };
    let mut lines = key_lines(app, theme, table, inner_w, columns);
    let mut notes = Vec::new();
    if let Screen::Room(rs) = &app.screen {
        if let banco_protocol::GameSettings::Caro {
            rule, ref opening, ..
        } = rs.room.settings.game
        {
            notes.push(loc.get(&format!("help.rule_{}", rule.name())).to_string());
            if *opening != banco_protocol::CaroOpening::None {
                notes.push(tr!(loc, "help.opening").to_string());
            }
        }
        notes.push(tr!(loc, "help.coordinates").to_string());
        if watching {
            notes.push(tr!(loc, "help.watching").to_string());
        }
    }
    if let Screen::Room(rs) = &app.screen
        && rs.draft.is_some()
    {
        notes.push(tr!(loc, "help.draft_note").to_string());
    }
    if let Screen::Lobby(lobby) = &app.screen
        && lobby
            .create
            .as_ref()
            .is_some_and(|f| f.game == crate::app::create::GameKind::Caro)
    {
        notes.push(tr!(loc, "help.opening").to_string());
    }
    if let Screen::Editor(ed) = &app.screen {
        notes.push(
            match ed.board {
                crate::app::editor::EditBoard::Xiangqi(_) => tr!(loc, "help.editor_xiangqi"),
                crate::app::editor::EditBoard::Caro(_) => tr!(loc, "help.editor_caro"),
            }
            .to_string(),
        );
    }
    if let Screen::Replay(_) = &app.screen {
        notes.push(tr!(loc, "help.record_file").to_string());
    }
    if let Screen::Profile(_) | Screen::Leaderboard(_) = &app.screen {
        notes.push(tr!(loc, "help.ratings").to_string());
    }
    if let Screen::Password(_) = &app.screen {
        notes.push(tr!(loc, "help.password_note").to_string());
    }
    notes.push(tr!(loc, "help.close").to_string());
    lines.push(Line::default());
    for note in notes {
        for l in wrap(&note, inner_w.saturating_sub(2)) {
            lines.push(Line::from(Span::styled(format!(" {l}"), theme.dim())));
        }
    }
    let height = lines.len() as u16 + 2;
    let title = format!("{} — {title}", tr!(loc, "help.title"));
    let inner = dialog(frame, centered(area, width, height), theme, &title);
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The key table in `columns` columns, descriptions wrapped within their column.
fn key_lines(
    app: &App,
    theme: &Theme,
    table: &[KeyHelp],
    width: usize,
    columns: usize,
) -> Vec<Line<'static>> {
    let col_w = width / columns;
    // Split where the wrapped heights of the two columns come out closest.
    let key_w_all = table.iter().map(|k| k.keys.width()).max().unwrap_or(1);
    let heights: Vec<usize> = table
        .iter()
        .map(|k| {
            wrap(
                app.loc.get(k.what),
                col_w.saturating_sub(key_w_all + 4).max(8),
            )
            .len()
        })
        .collect();
    let total: usize = heights.iter().sum();
    let split = if columns == 1 {
        table.len()
    } else {
        (1..table.len())
            .min_by_key(|i| {
                let left: usize = heights[..*i].iter().sum();
                left.max(total - left)
            })
            .unwrap_or(table.len())
    };
    let (left, right) = table.split_at(split);
    let blocks: Vec<Vec<Vec<Span<'static>>>> = [left, right]
        .into_iter()
        .filter(|c| !c.is_empty())
        .map(|chunk| {
            let key_w = chunk.iter().map(|k| k.keys.width()).max().unwrap_or(1);
            let text_w = col_w.saturating_sub(key_w + 4).max(8);
            let mut rows = Vec::new();
            for k in chunk {
                for (i, part) in wrap(app.loc.get(k.what), text_w).into_iter().enumerate() {
                    let keys = if i == 0 { k.keys } else { "" };
                    let pad = key_w - keys.width();
                    rows.push(vec![
                        Span::styled(format!(" {}{keys}  ", " ".repeat(pad)), theme.key()),
                        Span::styled(
                            format!("{part}{}", " ".repeat(text_w.saturating_sub(part.width()))),
                            theme.style(),
                        ),
                        Span::raw(" "),
                    ]);
                }
            }
            rows
        })
        .collect();
    let height = blocks.iter().map(Vec::len).max().unwrap_or(0);
    (0..height)
        .map(|r| {
            let mut spans = Vec::new();
            for block in &blocks {
                match block.get(r) {
                    Some(row) => spans.extend(row.iter().cloned()),
                    None => spans.push(Span::raw(" ".repeat(col_w))),
                }
            }
            Line::from(spans)
        })
        .collect()
}
