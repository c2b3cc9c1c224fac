//! The room screen's regions: board on the left; players and clocks, moves and chat on
//! the right; status, latest event and keys at the bottom. Narrow terminals stack the
//! side panel under the board (or squeeze it beside a xiangqi board that would not fit
//! otherwise).

use banco_protocol::{GameSettings, Point};
use ratatui::layout::{Constraint, Layout, Rect};

use super::{BoardShape, Spot, caro, xiangqi};
use crate::room::Room;

/// Where each part of the room screen goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoomLayout {
    /// The title bar: where we are, who we are.
    pub title: Rect,
    /// The connection or the server's store in trouble (empty while all is well).
    pub banner: Rect,
    /// The board, centred (and scrolled) inside.
    pub board: Rect,
    /// The players, their clocks, the time control and the series (or the match).
    pub players: Rect,
    /// The move list (empty on narrow terminals: the board shows the moves).
    pub moves: Rect,
    /// The chat and its input line.
    pub chat: Rect,
    /// Whose turn it is, an offer, or the result.
    pub status: Rect,
    /// The latest event.
    pub notice: Rect,
    /// The key legend, two lines.
    pub keys: Rect,
}

/// The side panel's width when the terminal is wide enough for one.
const SIDE_MIN: u16 = 30;
const SIDE_MAX: u16 = 48;
/// A side panel this narrow still goes beside a xiangqi board when the window is too
/// short to stack them (60x20): a cramped panel beats a board that is not drawn.
const SIDE_NARROW: u16 = 19;
/// Rows around the body: the title, status and notice lines, two of keys.
const CHROME_ROWS: u16 = 5;

/// The smallest window that shows a xiangqi board: the compact board beside a narrow
/// side panel. A smaller one says so on the board's place.
pub fn xiangqi_window() -> (u16, u16) {
    (
        BoardShape::Xiangqi.wants() + SIDE_NARROW,
        xiangqi::MIN_HEIGHT + CHROME_ROWS,
    )
}

/// Where a narrow window (one that would stack the side panel, `side_h` rows, under
/// the board) puts the side panel beside a xiangqi board instead, because stacking
/// leaves the board too few rows: the panel's width, if so.
pub fn xiangqi_beside(body: Rect, side_h: u16) -> Option<u16> {
    let board_w = BoardShape::Xiangqi.wants();
    let short = body.height.saturating_sub(side_h) < xiangqi::MIN_HEIGHT;
    (short && body.width >= board_w + SIDE_NARROW).then(|| body.width - board_w)
}

impl RoomLayout {
    /// Splits `area` for `room`, with a banner line when `banner` (the connection or the
    /// store in trouble).
    pub fn new(area: Rect, room: &Room, banner: bool) -> RoomLayout {
        let [title, banner, body, status, notice, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(u16::from(banner)),
            Constraint::Min(4),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(2),
        ])
        .areas(area);
        let board_wants = BoardShape::of(&room.settings.game).wants();
        let players_h = 5
            + u16::from(!room.spectators.is_empty())
            + u16::from(room.settings.match_format.is_some());
        let narrow = body.width < SIDE_MIN + 40;
        let side_h = players_h.max(7).min(body.height / 2);
        let beside = match room.settings.game {
            GameSettings::Xiangqi { .. } if narrow => xiangqi_beside(body, side_h),
            _ => None,
        };
        if narrow && beside.is_none() {
            // Narrow: the board on top; players and chat side by side under it, no move
            // list (the board shows the moves).
            let [board, side] =
                Layout::vertical([Constraint::Min(6), Constraint::Length(side_h)]).areas(body);
            let [players, chat] =
                Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                    .areas(side);
            return RoomLayout {
                title,
                banner,
                board,
                players,
                moves: Rect::default(),
                chat,
                status,
                notice,
                keys,
            };
        }
        let side_w = beside.unwrap_or_else(|| {
            body.width
                .saturating_sub(board_wants)
                .clamp(SIDE_MIN, SIDE_MAX)
        });
        let [board, side] =
            Layout::horizontal([Constraint::Min(20), Constraint::Length(side_w)]).areas(body);
        let rest = side.height.saturating_sub(players_h);
        let moves_h = (rest / 3).max(3);
        let [players, moves, chat] = Layout::vertical([
            Constraint::Length(players_h),
            Constraint::Length(moves_h),
            Constraint::Min(3),
        ])
        .areas(side);
        RoomLayout {
            title,
            banner,
            board,
            players,
            moves,
            chat,
            status,
            notice,
            keys,
        }
    }
}

/// The board spot drawn at screen cell (`col`, `row`), when `room`'s board is drawn in
/// `board` around `focus` (the cursor's point; a caro board without one takes no clicks).
pub fn spot_at(room: &Room, focus: Option<Point>, board: Rect, col: u16, row: u16) -> Option<Spot> {
    match room.settings.game {
        GameSettings::Caro { width, height, .. } => {
            caro::Geometry::new(board, width, height, focus?)
                .point_at(col, row)
                .map(Spot::Caro)
        }
        GameSettings::Xiangqi { .. } => xiangqi::Geometry::new(board, room.flipped())
            .square_at(col, row)
            .map(Spot::Xiangqi),
    }
}
