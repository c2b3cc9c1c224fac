//! The people screen: challenges to us, ours and the open ones, then everyone on the
//! server and the server's bots; the challenge form over it while it is open.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};

use super::{banner, legend, legend_items, notice_line, title_bar};
use crate::app::App;
use crate::app::people::{PeopleRow, PeopleScreen, rows};
use crate::challenges::{self, open_line, player_name};
use crate::layout::people::PeopleLayout;
use crate::tr;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, ps: &PeopleScreen) {
    let loc = &app.loc;
    let theme = &app.theme;
    let me = app.session.name().unwrap_or_default();
    let link = app.open_challenge_link();
    let l = PeopleLayout::new(area, app.trouble().is_some(), link.is_some());
    title_bar(frame, l.title, app, tr!(loc, "challenge.people"));
    if let Some(line) = banner(app) {
        frame.render_widget(line, l.banner);
    }
    let list = rows(&app.session.challenges, &me);
    let heading = |row: &PeopleRow| match row {
        PeopleRow::Incoming(_) => "challenge.section_incoming",
        PeopleRow::Sent(_) => "challenge.section_sent",
        PeopleRow::Open(_) => "challenge.section_open",
        PeopleRow::Person(_) => "challenge.section_people",
    };
    let mut lines: Vec<Line> = Vec::new();
    let mut last: Option<&str> = None;
    let mut headings_before_selected = 0;
    for (i, row) in list.iter().enumerate() {
        let h = heading(row);
        if last != Some(h) {
            lines.push(Line::from(Span::styled(
                format!(" {}", tr!(loc, h)),
                theme.accent().add_modifier(Modifier::BOLD),
            )));
            if i <= ps.selected {
                headings_before_selected += 1;
            }
            last = Some(h);
        }
        let text = match row {
            PeopleRow::Incoming(ch) => format!(
                "{}; {}",
                open_line(ch, loc),
                challenges::first_text(ch, &me, loc)
            ),
            PeopleRow::Sent(ch) => {
                let to = match &ch.to {
                    Some(to) => to.clone(),
                    None => tr!(loc, "challenge.taker").to_string(),
                };
                format!("#{} → {to}: {}", ch.id, challenges::terms(ch, loc))
            }
            PeopleRow::Open(ch) => open_line(ch, loc),
            PeopleRow::Person(p) => {
                let mut notes = Vec::new();
                if p.playing {
                    notes.push(tr!(loc, "challenge.playing").to_string());
                }
                match p.challenges {
                    banco_protocol::ChallengePolicy::Everyone => {}
                    banco_protocol::ChallengePolicy::Accounts => {
                        notes.push(tr!(loc, "challenge.accounts_only").to_string());
                    }
                    banco_protocol::ChallengePolicy::Nobody => {
                        notes.push(tr!(loc, "challenge.off").to_string());
                    }
                }
                let notes = if notes.is_empty() {
                    String::new()
                } else {
                    format!("  ({})", notes.join(", "))
                };
                format!("{}{notes}", player_name(p, loc))
            }
        };
        let selected = i == ps.selected && ps.form.is_none();
        let (mark, style) = if selected {
            ("▶ ", theme.selected())
        } else {
            ("  ", theme.style())
        };
        lines.push(Line::from(Span::styled(format!(" {mark}{text}"), style)));
    }
    if list.is_empty() {
        lines.push(Line::from(Span::styled(
            format!("  {}", tr!(loc, "challenge.none")),
            theme.dim(),
        )));
    }
    let first = l.first_shown(ps.selected, headings_before_selected);
    let shown: Vec<Line> = lines.into_iter().skip(first).collect();
    let policy = tr!(
        loc,
        "plain.challenges_policy",
        policy = challenges::policy_text(app.settings.challenges, loc)
    );
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.border())
        .title(Span::styled(
            format!(" {} ", tr!(loc, "challenge.people")),
            theme.accent(),
        ))
        .title(Line::from(Span::styled(format!(" {policy} "), theme.dim())).right_aligned());
    frame.render_widget(Paragraph::new(shown).block(block), l.list);
    if let Some(text) = link {
        frame.render_widget(
            Line::from(Span::styled(format!(" {text}"), theme.accent())),
            l.link,
        );
    }
    frame.render_widget(notice_line(app), l.notice);
    let items = legend_items(app, crate::app::keys::PEOPLE);
    frame.render_widget(
        Paragraph::new(legend(&items, theme, l.keys.width, 2)),
        l.keys,
    );
    if let Some(form) = &ps.form {
        super::lobby::draw_create(frame, area, app, form);
    }
}
