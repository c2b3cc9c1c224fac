// The protocol's JSON form as TypeScript types, generated from
// protocol/schema/protocol.schema.json by banco-protocol's `schema::typescript`.
// Do not edit: regenerate with `UPDATE_SCHEMA=1 cargo test -p banco-protocol --test schema`.
// The page's modules name these types in JSDoc (`import('./protocol').ServerMsg`).

/** The protocol version these types describe. */
export type ProtocolVersion = 11;

/**
 * A long-lived secret that logs in to one account without its password (the browser
 * page's "stay logged in"): handed out in [`crate::Welcome`] when a login asks to be
 * remembered, presented as [`crate::Credentials::Token`]. The server keeps only its hash.
 */
export type AccountToken = number[];

/**
 * A board being arranged by hand in a position editor (the browser page's: the terminal
 * client carries the rules and judges its own), for the server to judge with the rules.
 */
export type Arrangement = {
  caro: {
    height: number;
    o: Point[];
    rule: Rule;
    width: number;
    x: Point[];
  };
  xiangqi?: never;
} | {
  xiangqi: {
    pieces: [XqSquare, string][];
    red_to_move: boolean;
  };
  caro?: never;
};

/** A win worth remembering. */
export type BestWin = {
  ended_at_ms: number;
  /** The game, for replay. */
  game: number;
  opponent: string;
  /** The opponent's rating before that game. */
  opponent_rating: number;
};

/** How a pairing ended, white's (seat One's) side first. */
export type BoardResult = ("white_wins" | "draw" | "black_wins") | "white_wins_by_forfeit" | "black_wins_by_forfeit" | "double_forfeit";

/** A board of a round (or of an arena's wave). */
export type BoardView = {
  /**
   * Arena: white and black went berserk (half their clock, one more point on a
   * win).
   */
  berserk?: [boolean, boolean];
  /** Black's entrant number. */
  black: number;
  /** The board, from 1 within its round. */
  board: number;
  /** The result was set by the organiser, not played out. */
  by_hand: boolean;
  /** `None` while it is being played. */
  result?: BoardResult | null;
  /** The room it is played in, while it is open (spectators may watch). */
  room?: number | null;
  /** The round (arena: the wave), from 1. */
  round: number;
  /** White's (seat One's, who moves first) entrant number. */
  white: number;
};

/** A bye a player has asked for, for a round not yet paired (Swiss). */
export type ByeRequestView = {
  /** Who asked. */
  entrant: number;
  /** The round it is for. */
  round: number;
};

/**
 * What the pairing-allocated bye (the one player left over in a round of an odd
 * number) is worth.
 */
export type ByeValue = "win" | "draw" | "nothing";

/** A round's bye. */
export type ByeView = {
  entrant: number;
  /** Points it is worth, in tenths. */
  points: number;
  round: number;
};

/** What a caro room's games start from. */
export type CaroOpening = "none" | {
  stones: Point[];
} | "balanced" | "swap1" | "swap2";

/**
 * A challenge as sent to the challenger, the one challenged, and (for an open one)
 * everyone.
 */
export type Challenge = {
  /** Milliseconds left before the challenge expires, as of this message. */
  expires_in_ms: number;
  /** Who challenges (seat One of the room it makes). */
  from: string;
  /** The challenger is a bot account (an engine brought with `banco bot`). */
  from_bot: boolean;
  id: number;
  /**
   * The room the game is played in, as the challenger chose it: `first` is said from
   * the challenger's side (`me`: the challenger moves first), `seats` are two people.
   */
  settings: RoomSettings;
  /** Who is challenged; `None` for an open challenge anyone may take. */
  to?: string | null;
};

/** How a challenge ended. */
export type ChallengeEnd = {
  accepted: {
    by: string;
    room: number;
  };
  declined?: never;
} | {
  declined: {
    by: string;
    reason: DeclineReason;
  };
  accepted?: never;
} | "cancelled" | "expired" | "withdrawn";

/**
 * Who may challenge a player, as the player chose
 * ([`crate::ClientMsg::SetChallenges`]).
 */
export type ChallengePolicy = "everyone" | "accounts" | "nobody";

/** One chat line. */
export type ChatLine = {
  /** When the server received it, in milliseconds since the Unix epoch. */
  at_ms: number;
  from: string;
  text: string;
};

/** A client's request. */
export type ClientMsg = {
  Hello: Hello;
} | "ListRooms" | {
  CreateRoom: RoomSettings;
} | {
  JoinRoom: number;
} | {
  WatchRoom: number;
} | "LeaveRoom" | {
  Move: Move;
} | {
  Chat: string;
} | {
  Offer: OfferKind;
} | {
  Answer: {
    accept: boolean;
    kind: OfferKind;
  };
} | {
  Withdraw: OfferKind;
} | "Resign" | "ResignMatch" | "Hint" | {
  Leaderboard: GameKind;
} | {
  History: {
    player?: string | null;
  };
} | {
  Replay: number;
} | {
  Pong: number;
} | "Facts" | {
  ChangePassword: PasswordChange;
} | {
  Profile: {
    bot?: Level | null;
    name: string;
  };
} | {
  Judge: Arrangement;
} | {
  Review: number;
} | {
  ParseRecord: {
    text: string;
    zone_minutes: number;
  };
} | {
  WriteRecord: {
    record: RecordedGame;
    zone_minutes: number;
  };
} | {
  Trial: Move[];
} | "LogOut" | {
  Challenge: {
    settings: RoomSettings;
    to?: string | null;
  };
} | {
  AcceptChallenge: number;
} | {
  DeclineChallenge: {
    id: number;
    reason: DeclineReason;
  };
} | {
  CancelChallenge: number;
} | {
  SetChallenges: ChallengePolicy;
} | "Players" | {
  CreateTournament: TournamentSettings;
} | "ListTournaments" | {
  JoinTournament: number;
} | {
  WithdrawTournament: number;
} | {
  ShowTournament: number;
} | {
  StartTournament: number;
} | {
  PairRound: number;
} | {
  PauseTournament: {
    id: number;
    paused: boolean;
  };
} | {
  AddRound: number;
} | {
  AddTournamentBot: {
    id: number;
    level: Level;
  };
} | {
  EnterBotAccount: {
    id: number;
    name: string;
  };
} | {
  RemoveEntrant: {
    id: number;
    name: string;
  };
} | {
  SetResult: {
    board: number;
    id: number;
    result: BoardResult;
    round: number;
  };
} | {
  ExportTournament: {
    format: ExportFormat;
    id: number;
  };
} | {
  Swap: SwapChoice;
} | "Berserk" | {
  RequestBye: {
    cancel: boolean;
    id: number;
    round?: number | null;
  };
};

/** How much time each seat has, as of the moment the message was sent. */
export type Clocks = {
  /**
   * Milliseconds left, by seat. With a per-move timer, the mover's time left for this
   * move; the other seat shows a full timer.
   */
  remaining_ms: [number, number];
  /** The seat whose time is running, if any. */
  running?: Seat | null;
};

/**
 * How a client proves it is the account named in [`Hello`]. Its `Debug` hides the
 * password and the token, so neither can reach a log by way of a message dump.
 */
export type Credentials = {
  password: {
    /**
     * A bot account: an engine's (`banco bot`), marked BOT wherever its name is
     * shown. Registering makes the account a bot's for good; a login must say the
     * same as the account is (a person's account is not an engine's, nor the other
     * way round).
     */
    bot?: boolean;
    password: string;
    /** Make the account (the name must be free) instead of logging in to it. */
    register: boolean;
    /**
     * Also hand out an [`AccountToken`] in [`crate::Welcome`], so this client can log
     * in again without the password (the browser page's "stay logged in").
     */
    remember?: boolean;
  };
  token?: never;
} | {
  token: AccountToken;
  password?: never;
};

/** One cell of the crosstable: what an entrant did in one round. */
export type CrossCell = {
  /** The opponent's entrant number (none for a bye or an absence). */
  opponent?: number | null;
  /** Played over the board (not a forfeit, bye or absence). */
  played: boolean;
  /** Points scored, in tenths; `None` while the game is being played. */
  points?: number | null;
  /** Played with white (`Some(true)`), black, or neither. */
  white?: boolean | null;
};

/** An entrant's line of the crosstable, one cell per round. */
export type CrossRow = {
  cells: CrossCell[];
  entrant: number;
};

/** Why a challenge was declined: the short list a person picks from. */
export type DeclineReason = "not_now" | "time_control" | "rated_only" | "casual_only" | "no_bots" | "variant";

/** Why a game ended. */
export type EndReason = ("resign" | "checkmate" | "perpetual_check" | "repetition" | "sixty_moves" | "no_material") | "five" | "draw" | "timeout" | "quit" | "abandoned" | "stalemate" | "agreement" | "aborted" | "new_game";

/** One entrant. */
export type Entrant = {
  /**
   * Not connected to the server now (the server's bots never are away): an arena
   * passes over them, a board of theirs waits for them until its forfeit time.
   */
  away?: boolean;
  /** The server's bot of this level, entered by the organiser. */
  bot?: Level | null;
  name: string;
  /** The pairing number, from 1 (entry order at the start: strongest first). */
  number: number;
  /** The rating that ordered the pairing numbers (0: unrated). */
  rating: number;
  /** Withdrawn or removed: not paired again; earlier games stand. */
  withdrawn: boolean;
};

/**
 * Why the server refused a request. The names (see [`ErrorCode::as_str`]) are stable:
 * scripts match on them. Whatever was refused changed nothing.
 */
export type ErrorCode = ("no_such_room" | "not_in_room" | "game_over" | "not_your_turn" | "empty_chat" | "chat_too_long" | "shutting_down") | "version_mismatch" | "malformed" | "unexpected" | "bad_name" | "bad_settings" | "room_full" | "already_in_room" | "not_a_player" | "no_game" | "illegal_move" | "occupied" | "out_of_bounds" | "chat_too_fast" | "offer_pending" | "no_offer" | "own_offer" | "nothing_to_undo" | "hints_off" | "busy" | "internal" | "no_such_game" | "login_failed" | "name_registered" | "name_taken" | "too_many_tries" | "bad_password" | "not_logged_in" | "spectators_full" | "offer_too_soon" | "engines_busy" | "hint_used" | "no_such_player" | "taken_over" | "no_match" | "challenge_refused" | "no_such_challenge" | "challenge_pending" | "too_many_challenges" | "challenge_too_soon" | "player_busy" | "no_such_tournament" | "not_organiser" | "entries_closed" | "already_entered" | "not_entered" | "round_in_progress" | "no_such_board" | "tournament_over" | "fell_behind" | "not_a_bot";

/** A refusal as sent on the wire. */
export type ErrorMsg = {
  code: ErrorCode;
  /** One sentence for a person: what happened and, where useful, what to do. */
  message: string;
};

/** What a tournament is exported as. */
export type ExportFormat = "trf" | "csv" | "json";

/** Who moves first in a room's first game, as the creator chose. */
export type FirstMove = "me" | "them" | "random";

/**
 * One reason an arrangement cannot be played, and where on the board (none when it
 * concerns the whole board, such as a missing general).
 */
export type Flaw = {
  /** Caro points concerned. */
  points: Point[];
  reason: string;
  /** Xiangqi points concerned. */
  squares: XqSquare[];
};

/** A point Black may not play under renju, and why. */
export type ForbiddenPoint = {
  foul: Foul;
  point: Point;
};

/** Why a point is forbidden to Black under renju. */
export type Foul = "overline" | "double_four" | "double_three";

/**
 * The two games, for what is counted per game: ratings, leaderboards, profiles. Every
 * caro rule and board size counts as caro.
 */
export type GameKind = "caro" | "xiangqi";

/** How a game ended. */
export type GameOver = {
  /** Caro: the winning line's points, for highlighting. Empty otherwise. */
  line: Point[];
  reason: EndReason;
  /** `None` for a draw. */
  winner?: Seat | null;
};

/** A finished game, move by move. */
export type GameRecord = {
  moves: MoveRecord[];
  /** Caro: the stones the game started from (see [`GameView::opening`]). */
  opening: Point[];
  /** Xiangqi: the start position's FEN. Empty for caro. */
  start_fen: string;
  summary: GameSummary;
  /**
   * A game with a swap opening: how its opening was played (who placed which stone,
   * who decided what). `None` otherwise, and for games stored before it was kept.
   */
  swap?: SwapView | null;
};

/** A whole game reviewed. */
export type GameReview = {
  /** The engine's time per position, in milliseconds, when the review was made. */
  budget_ms: number;
  /** The seat that moved first: the one whose chances [`ReviewedPly::chances`] are. */
  first: Seat;
  game: number;
  /** By seat ([`Seat::index`]). */
  players: [PlayerReview, PlayerReview];
  /** By ply, from the first. */
  plies: ReviewedPly[];
  /** The first mover's chances before any move, per mille. */
  start_chances: number;
};

/** Which game a room plays, and its variant. */
export type GameSettings = {
  caro: {
    height: number;
    /**
     * What every game of the room starts from. (Settings stored before openings
     * existed read as [`CaroOpening::None`].)
     */
    opening?: CaroOpening;
    rule: Rule;
    width: number;
  };
  xiangqi?: never;
} | {
  xiangqi: {
    fen?: string | null;
  };
  caro?: never;
};

/** A finished game, as the history lists it. */
export type GameSummary = {
  /** When it ended, in milliseconds since the Unix epoch. */
  ended_at_ms: number;
  /** The seat to move at the start (see [`GameView::first`]). */
  first: Seat;
  game: GameSettings;
  id: number;
  /** The match it was a game of, if any. */
  in_match?: MatchGame | null;
  over: GameOver;
  /** Names by seat. */
  players: [string, string];
  /** Moves played (a caro opening's stones are not moves). */
  plies: number;
  /** Whether it counted for ratings (between accounts, both sides moved, not farmed). */
  rated: boolean;
  time: TimeControl;
};

/** The state of the room's current (or last) game. */
export type GameView = {
  /** `None` when the room plays without clocks. */
  clocks?: Clocks | null;
  /**
   * The seat to move at the start: in caro the one to move after the opening stones
   * (it plays X after an even opening or none, O after an odd one); in xiangqi the one
   * playing the start position's side to move.
   */
  first: Seat;
  moves: MoveRecord[];
  /** Games played in this room so far, this one included (1 for the first). */
  number: number;
  /**
   * Caro: the stones this game started from, X first and alternating (for a room
   * with balanced openings, the one dealt to this game). Empty for xiangqi and for a
   * caro game from an empty board. Not moves: `moves` starts after them.
   */
  opening: Point[];
  /** Set once the game has ended. */
  over?: GameOver | null;
  /** Xiangqi: the start position's FEN. Empty for caro. */
  start_fen: string;
  /**
   * A room with a swap opening: the opening phase, in progress (no moves yet; its
   * stones are not yet in `opening`) or decided (its stones are then `opening`, and
   * `first` is the seat that took White).
   */
  swap?: SwapView | null;
};

/** The first message of every session. */
export type Hello = {
  /**
   * Log in to (or register) the account `name`; `None` plays as a guest, under a
   * marked name (`~name`) and unrated. Absent in JSON from pages that predate accounts.
   */
  account?: Credentials | null;
  /** How others see this player (the server may add a suffix to make it unique). */
  name: string;
  /** From an earlier session's [`crate::Welcome`]: take back a seat held after a drop. */
  resume?: ResumeToken | null;
  /**
   * Must equal the server's [`crate::PROTOCOL_VERSION`]. Kept the first field so a
   * server can read it even from a client of another version.
   */
  version: number;
};

/** What the rules say of an [`Arrangement`], as asked by [`crate::ClientMsg::Judge`]. */
export type Judgement = {
  /** The arrangement judged, so an answer about a board since changed is dropped. */
  arrangement: Arrangement;
  /**
   * Every reason a game cannot start from it, in the server's words; empty when one
   * can.
   */
  flaws: Flaw[];
  /**
   * When it has no flaws: the game to create a room with (caro: the opening's stones
   * laid alternately from X; xiangqi: the FEN).
   */
  game?: GameSettings | null;
};

/** How someone plays one game kind. */
export type KindRecord = {
  /** The rated win against the highest-rated opponent. */
  best_win?: BestWin | null;
  draws: number;
  game: GameKind;
  /** Rated games. */
  games: number;
  /**
   * The rating after each rated game, oldest first (the newest few hundred): what the
   * rating chart draws.
   */
  history: RatingPoint[];
  losses: number;
  /** Matches of this game finished (rated or not): won, lost, drawn. */
  matches: MatchTally;
  /** Place on that game's leaderboard (from 1); `None` while provisional or unrated. */
  rank?: number | null;
  rating: Rating;
  wins: number;
};

/**
 * How strong a bot plays, weakest first. Neighbouring levels are meant to stand some
 * 200-300 Elo apart (the book's results log measures each pair); `easy` loses to a
 * beginner's plain play and `max` is the engine at full strength.
 */
export type Level = "Easy" | "Casual" | "Medium" | "Advanced" | "Hard" | "Expert" | "Max";

/** Why a match ended. */
export type MatchEnd = "decided" | "resign" | "quit" | "abandoned";

/**
 * A room's games played as one match (as international gomoku is played: first to win
 * 5 of at most 9 games). The colours alternate game by game; a game with no result (an
 * aborted one, or one the players agreed to replace) is played again and not counted.
 */
export type MatchFormat = {
  /**
   * The match is won as soon as a player has won this many games (`5` of at most
   * `9`); `None`: every one of `games` is played (a two-game mini-match, one game with
   * each colour, is `games: 2, first_to: None`).
   */
  first_to?: number | null;
  /**
   * The most games the match has: once this many have a result, the match is over
   * (won by whoever won more of them, drawn when level).
   */
  games: number;
};

/**
 * A finished game's place in a match, as the history and replays show it ("game 3 of
 * match #12").
 */
export type MatchGame = {
  format: MatchFormat;
  /**
   * Which game of the match it was, from 1 (a game with no result and the one that
   * replayed it share a number).
   */
  game: number;
  /** The match's number in the server's records. */
  id: number;
  /**
   * How the match ended; `None` while it is still being played (or was never
   * finished: the server stopped with only bots in it).
   */
  result?: MatchResult | null;
};

/** How a match ended. */
export type MatchResult = {
  reason: MatchEnd;
  /** The final score: wins by seat, and draws. */
  score: Series;
  /** `None`: drawn (an even number of games, the score level). */
  winner?: Seat | null;
};

/** Where a room's match stands. */
export type MatchState = {
  format: MatchFormat;
  /**
   * The match game being played, or the last one played, from 1 (0 before its first
   * game). A game with no result is played again under the same number.
   */
  game: number;
  /** The seat that has won more of them; `None` when level. */
  leader?: Seat | null;
  /**
   * Between two of its games: the next starts by itself in this many milliseconds (as
   * of the moment the message was sent), or at once when both players are ready (a
   * new-game offer accepted). `None` while a game runs, once the match is over, and
   * after a game with no result (then the players start the next by agreeing).
   */
  next_game_in_ms?: number | null;
  /**
   * The room's matches so far, this one included (1 for its first: the players may
   * start another once one is over).
   */
  number: number;
  /** Set once the match is over. */
  result?: MatchResult | null;
  /** The match's games with a result: wins by seat, and draws. */
  score: Series;
};

/** Matches someone finished, by result. */
export type MatchTally = {
  drawn: number;
  lost: number;
  won: number;
};

/** A move in either game. */
export type Move = {
  caro: Point;
  xiangqi?: never;
} | {
  xiangqi: {
    from: XqSquare;
    to: XqSquare;
  };
  caro?: never;
};

/**
 * How a move compares with what the engine would have played, by the winning chances
 * it gave away (see [`MoveClass::of_loss`] for the thresholds of each game).
 */
export type MoveClass = ("inaccuracy" | "mistake" | "blunder") | "best" | "good" | "missed_win" | "missed_defence";

/** One played move, as the server records it. */
export type MoveRecord = {
  by: Seat;
  /** Xiangqi: the move gives check. */
  check: boolean;
  mv: Move;
  /** Xiangqi: the move in WXF notation (`C2.5`). Empty for caro. */
  wxf: string;
};

/**
 * Why a caro stone that made five (or more) in a row did not win, told with the move so
 * no player is left wondering.
 */
export type NotAWin = "blocked_both_ends" | "overline";

/** An open offer: what, and from which seat. */
export type Offer = {
  by: Seat;
  kind: OfferKind;
};

/** What can be offered to the other player. */
export type OfferKind = "undo" | "new_game" | "draw";

/**
 * The old password (proof it is the owner at the keyboard) and the new one. `Debug`
 * hides both.
 */
export type PasswordChange = {
  new: string;
  old: string;
};

/** A line of the people list: someone on the server now, or one of the server's bots. */
export type PlayerLine = {
  /** Logged in to an account (else a guest, or the server's bot). */
  account: boolean;
  /** A bot account: an engine brought with `banco bot`. */
  bot: boolean;
  /** Who may challenge them. */
  challenges: ChallengePolicy;
  /**
   * `Some` for the server's bot of that level (always there, always takes a
   * challenge it can play).
   */
  level?: Level | null;
  name: string;
  /** Seated in a game being played now (a challenge waits until it ends). */
  playing: boolean;
};

/** One player's errors over the game. */
export type PlayerReview = {
  /**
   * The mean drop of the engine's score over the player's moves, in the game's
   * evaluation units (like chess's average centipawn loss), scores clipped to
   * ±[`SCORE_CAP`].
   */
  average_loss: number;
  blunders: number;
  inaccuracies: number;
  missed_defences: number;
  /** Caro only. */
  missed_wins: number;
  mistakes: number;
};

/**
 * A point on the board: `x` is the column from the left, `y` the row from the top, both
 * 0-based (the Gomocup convention).
 */
export type Point = {
  x: number;
  y: number;
};

/**
 * What the rules say about a room's position, for a client that does not carry the rules
 * (the browser page asks for it after every change instead of re-implementing them).
 */
export type PositionFacts = {
  /** Xiangqi: the side to move is in check. */
  check: boolean;
  /**
   * Caro, by seat: the empty points where that seat's player would make five with
   * their next stone (the four warning's "answer now").
   */
  fives: [Point[], Point[]];
  /**
   * Renju: the points forbidden to Black (X) now, with why, when Black is to move
   * (empty otherwise): clients draw them (×) for the player to move.
   */
  forbidden?: ForbiddenPoint[];
  /** The room's game number ([`GameView::number`]) this is about. */
  game: number;
  /**
   * Xiangqi: every legal move of the side to move (none once the game is over). Empty
   * for caro, where every empty point is legal.
   */
  legal: Move[];
  /**
   * Plies played in that game when this was worked out: an answer about a position
   * the client has already moved past is dropped.
   */
  ply: number;
  /**
   * Caro, by seat: the empty points that stop one of that seat's open threes (the four
   * warning's "answer soon"), fives left out.
   */
  three_stops: [Point[], Point[]];
};

/**
 * Someone's record: who they are and how they play each game, as the profile screen
 * ("My info") shows it.
 */
export type Profile = {
  /** `Some` for the server's bots. */
  bot?: Level | null;
  /** A bot account (an engine brought with `banco bot`). */
  bot_account?: boolean;
  /** When the name first played here (ms since the Unix epoch). */
  first_seen_ms: number;
  /** One per game kind, in [`GameKind::ALL`]'s order, played or not. */
  games: KindRecord[];
  name: string;
  /** The newest games (either kind, any result, rated or not), newest first. */
  recent: GameSummary[];
  /**
   * When the account was registered (ms since the Unix epoch); `None` for bots and
   * for a name nobody has registered (a record from before accounts).
   */
  registered_at_ms?: number | null;
};

/** A rating as shown: Glicko-2's rating and its deviation, both rounded. */
export type Rating = {
  /** Glicko-2's rating deviation: how uncertain the rating still is. */
  deviation: number;
  /** Too uncertain to rank yet (few games, or none for a long time): shown `1500?`. */
  provisional: boolean;
  rating: number;
};

/** One point of a rating chart. */
export type RatingPoint = {
  at_ms: number;
  deviation: number;
  rating: number;
};

/**
 * A game as a record file holds it. Shaped like [`GameRecord`] (a server's replay is
 * one, and reads as one), with what a file may leave out optional.
 */
export type RecordedGame = {
  /** Every move after the opening, in order. */
  moves: MoveRecord[];
  /** Caro: the stones the game started from, X first (empty for none). Not moves. */
  opening: Point[];
  /** Xiangqi: the start position's FEN; empty for the usual start and for caro. */
  start_fen: string;
  /** Who played what, and how it ended, where known. */
  summary: RecordedSummary;
};

/** The facts about a recorded game, as [`crate::GameSummary`] has them where known. */
export type RecordedSummary = {
  /** When it ended, in milliseconds since the Unix epoch, when known. */
  ended_at_ms?: number | null;
  /** The seat that moved first. */
  first: Seat;
  /** Which game, board and rule (or start position). */
  game: GameSettings;
  /** The server's number for the game; `None` for one it never stored. */
  id?: number | null;
  /** How it ended; `None` for an unfinished game. */
  over?: GameOver | null;
  /** Names by seat. */
  players: [string, string];
  /** Whether the server counted it for ratings; `None` for a game read from a file. */
  rated?: boolean | null;
  /** The time control it was played with, when known. */
  time?: TimeControl | null;
};

/**
 * A secret the server hands out in [`crate::Welcome`]; presenting it in a later
 * [`crate::Hello`] reclaims a seat held for a dropped connection.
 */
export type ResumeToken = number[];

/** One ply as the engine saw it. */
export type ReviewedPly = {
  /**
   * The engine's move in the position before this one, and the line it expected
   * (starting with that move). `None` when it found none in its budget.
   */
  best?: Move | null;
  by: Seat;
  /** The first mover's chances after this move, per mille. */
  chances: number;
  class: MoveClass;
  line: Move[];
  /** What the mover gave away, per mille of winning chances (0 when nothing). */
  loss: number;
  /** The move played. */
  played: Move;
  /** The engine's answer to the move played: after a blunder, the refutation. */
  reply?: Move | null;
  /**
   * The engine's score after this move from the first mover's view, in the game's
   * evaluation units, forced wins shown as ±[`SCORE_CAP`].
   */
  score: number;
};

/** What someone in a room is. */
export type Role = "spectator" | {
  player: Seat;
};

/** Everything chosen when a room is created. */
export type RoomSettings = {
  first: FirstMove;
  game: GameSettings;
  /** Whether players may ask the server for a hint. */
  hints: boolean;
  /**
   * Play the room's games as a match of this format; `None`: an open-ended series of
   * rematches. (Settings stored before matches existed read as `None`.)
   */
  match_format?: MatchFormat | null;
  /**
   * Whether the room's games count for ratings (they do only between two accounts,
   * both having moved); `false`: casual games, rated for nobody. Settings stored
   * before this choice existed read as rated.
   */
  rated?: boolean;
  /**
   * Seat One, then seat Two. A bot in seat One makes the creator a spectator (a
   * bot-vs-bot room when both are bots).
   */
  seats: [SeatKind, SeatKind];
  time: TimeControl;
};

/** Whether a room's game is waiting for a player, being played, or finished. */
export type RoomStatus = "waiting" | "playing" | "finished";

/** A line of the lobby's room list. */
export type RoomSummary = {
  /** By seat: a bot account sits there (an engine, shown with a BOT tag). */
  bot_accounts?: [boolean, boolean];
  id: number;
  /** Names by seat; `None` for a free seat. */
  players: [string | null, string | null];
  settings: RoomSettings;
  spectators: number;
  status: RoomStatus;
};

/** Everything about a room, sent to whoever enters it. */
export type RoomView = {
  /** The most recent lines, oldest first, at most [`crate::CHAT_HISTORY`]. */
  chat: ChatLine[];
  /** `None` until the first game starts. */
  game?: GameView | null;
  id: number;
  /**
   * Where the room's match stands; `None` in a room without a match format, and
   * before its first match begins.
   */
  match_state?: MatchState | null;
  offer?: Offer | null;
  seats: [SeatView | null, SeatView | null];
  /**
   * The score of the games finished since the two players sat down together (in a
   * room that plays matches, since the current match began: the series is the match).
   */
  series: Series;
  settings: RoomSettings;
  spectators: string[];
  /** What the receiver is in this room. */
  you: Role;
};

/** Which runs of stones win. */
export type Rule = "Caro" | "Freestyle" | "Standard" | "CaroOverline" | "Renju";

/**
 * One of the two playing seats of a room. Seat One is the creator's (unless a bot sits
 * there in a bot-vs-bot room).
 */
export type Seat = "one" | "two";

/** Who sits in a seat when the room is made. */
export type SeatKind = "human" | {
  bot: Level;
};

/** Who sits in a seat. */
export type SeatView = {
  /** `Some` for the server's bot. */
  bot?: Level | null;
  /** A bot account's seat: an engine brought with `banco bot`, shown with a BOT tag. */
  bot_account?: boolean;
  /** `false` while a dropped player's seat is held for them. */
  connected: boolean;
  name: string;
};

/**
 * A rematch series: the games the room's two current players have finished against each
 * other, counted from when the second of them sat down. It starts again at 0-0 whenever
 * a seat is given up (a player leaves, or does not come back in time).
 */
export type Series = {
  draws: number;
  /** Games won, by seat. */
  wins: [number, number];
};

/** A message from the server. */
export type ServerMsg = {
  Welcome: Welcome;
} | {
  Rooms: RoomSummary[];
} | {
  RoomCreated: number;
} | {
  Joined: RoomView;
} | "Left" | {
  People: {
    came: string[];
    left: string[];
    seats: [SeatView | null, SeatView | null];
  };
} | {
  GameStarted: GameView;
} | {
  Moved: {
    clocks?: Clocks | null;
    /** Caro: why the move made five (or more) in a row and still did not win. */
    not_a_win?: NotAWin | null;
    ply: number;
    record: MoveRecord;
  };
} | {
  Chat: ChatLine;
} | {
  Offered: Offer;
} | {
  Declined: Offer;
} | {
  Withdrawn: Offer;
} | {
  Undone: {
    clocks?: Clocks | null;
    plies: number;
  };
} | {
  Clock: Clocks;
} | {
  GameOver: GameOver;
} | {
  Match: MatchState;
} | {
  MatchOver: MatchResult;
} | {
  Hint: Move;
} | {
  Error: ErrorMsg;
} | {
  Leaderboard: {
    game: GameKind;
    standings: Standing[];
  };
} | {
  History: GameSummary[];
} | {
  Replay: GameRecord;
} | {
  Facts: PositionFacts;
} | {
  Ping: number;
} | {
  Storage: Storage;
} | "PasswordChanged" | {
  RoomsChanged: {
    changed: RoomSummary[];
    closed: number[];
  };
} | {
  Profile: Profile;
} | {
  Judged: Judgement;
} | {
  ReviewProgress: {
    done: number;
    game: number;
    total: number;
  };
} | {
  Review: GameReview;
} | {
  RecordParsed: RecordedGame;
} | {
  RecordText: {
    name: string;
    text: string;
  };
} | {
  RecordRefused: {
    line: number;
    message: string;
  };
} | {
  Tried: Trial;
} | "LoggedOut" | {
  ChallengeSent: Challenge;
} | {
  Challenged: Challenge;
} | {
  ChallengeEnded: {
    end: ChallengeEnd;
    id: number;
  };
} | {
  OpenChallenges: Challenge[];
} | {
  Players: PlayerLine[];
} | {
  ChallengesSet: ChallengePolicy;
} | {
  Tournaments: TournamentSummary[];
} | {
  Tournament: TournamentView;
} | {
  TournamentGame: TournamentGame;
} | {
  TournamentOver: {
    id: number;
    winners: string[];
  };
} | {
  TournamentExport: {
    name: string;
    text: string;
  };
} | {
  Swap: SwapView;
};

/** A player's line on a game's leaderboard. */
export type Standing = {
  /** `Some` for the server's bots, which are rated like everyone else (per level). */
  bot?: Level | null;
  /** A bot account (an engine brought with `banco bot`), rated in its own right. */
  bot_account?: boolean;
  draws: number;
  games: number;
  losses: number;
  name: string;
  rating: Rating;
  wins: number;
};

/** A line of the standings. */
export type StandingLine = {
  entrant: number;
  /** Arena: on a streak of two wins or more (the next win counts double). */
  on_fire?: boolean;
  /** Score in tenths of a point (Swiss, round robin); arena points times ten. */
  points: number;
  /** Place, from 1; players equal on score and every tie-break share it. */
  rank: number;
  /** The tie-break values in the view's `tie_breaks` order, in hundredths. */
  tie_breaks: number[];
};

/** Whether games reach the server's disk. */
export type Storage = "saving" | {
  not_saving: {
    reason: string;
  };
};

/** A decision in a swap opening. */
export type SwapChoice = "white" | "black" | "place_two";

/** Where a swap opening stands ([`CaroOpening::Swap1`], [`CaroOpening::Swap2`]). */
export type SwapStage = "propose" | "answer" | "extend" | "choose" | "done";

/** One thing done in a swap opening, in order: a stone placed or a decision. */
export type SwapStep = {
  stone: {
    by: Seat;
    point: Point;
  };
  decided?: never;
} | {
  decided: {
    by: Seat;
    choice: SwapChoice;
  };
  stone?: never;
};

/** A swap opening as everyone in the room sees it. */
export type SwapView = {
  /** The decisions `to_act` may take now; empty while a stone is due. */
  choices: SwapChoice[];
  /** Swap1 or Swap2 ([`CaroOpening::Swap1`] or [`CaroOpening::Swap2`]). */
  kind: CaroOpening;
  /** The seat that places the first three stones (and chooses after two more). */
  proposer: Seat;
  /** Where it stands. */
  stage: SwapStage;
  /** Everything done so far, in order: the opening phase's record. */
  steps: SwapStep[];
  /** The stones placed so far, X first and alternating. */
  stones: Point[];
  /** Whose turn it is in the opening (their clock runs); `None` once decided. */
  to_act?: Seat | null;
  /** Once decided: the seat playing X (Black). */
  x_seat?: Seat | null;
};

/** A tie-break (FIDE C.07), in the order the organiser ranks them. */
export type TieBreak = "buchholz" | "buchholz_cut1" | "sonneborn_berger" | "direct_encounter" | "wins" | "games_won";

/** How time is kept. */
export type TimeControl = "unlimited" | {
  per_move: {
    millis: number;
  };
  clock?: never;
} | {
  clock: {
    increment_millis: number;
    initial_millis: number;
  };
  per_move?: never;
};

/** How the pairings are made. */
export type TournamentFormat = {
  swiss: {
    rounds: number;
  };
  round_robin?: never;
  arena?: never;
} | {
  round_robin: {
    double: boolean;
  };
  swiss?: never;
  arena?: never;
} | {
  arena: {
    berserk: boolean;
    seconds: number;
  };
  swiss?: never;
  round_robin?: never;
};

/** A player's pairing, as told to them when its room is ready. */
export type TournamentGame = {
  board: number;
  /**
   * You lose by forfeit unless you have made your first move within this many
   * seconds.
   */
  forfeit_secs: number;
  opponent: string;
  /**
   * The room to play in: go in with [`crate::ClientMsg::JoinRoom`] (a player who is
   * free is placed there at once).
   */
  room: number;
  round: number;
  tournament: number;
  /** You play white (seat One, first to move in the first game). */
  white: boolean;
};

/** Everything the organiser chooses when creating a tournament. */
export type TournamentSettings = {
  /** What the pairing-allocated bye is worth (Swiss and round robin). */
  bye?: ByeValue;
  /**
   * A player who has not made their first move this many seconds after their game
   * starts (or who has not come to the board by then) loses it by forfeit.
   */
  forfeit_secs: number;
  format: TournamentFormat;
  /** Shown in the list and on standings. */
  name: string;
  /** Whether the games count for ratings (accounts only then: no guests). */
  rated: boolean;
  /**
   * What a bye a player asks for before a round is worth (Swiss;
   * [`crate::ClientMsg::RequestBye`]): half a point unless the organiser says
   * otherwise.
   */
  requested_bye?: ByeValue;
  /**
   * The room each pairing is played in: the game, rule and board, time control,
   * hints and match format (a caro pairing is by default a two-game mini-match,
   * [`MatchFormat::MINI`], a xiangqi pairing one game). Its seats, first move and
   * rated flag are the tournament's to set.
   */
  room: RoomSettings;
  start: TournamentStart;
  /** The tie-breaks, in order (Swiss and round robin). */
  tie_breaks: TieBreak[];
};

/** When the tournament starts. */
export type TournamentStart = "manual" | {
  at: {
    unix_ms: number;
  };
};

/** Where a tournament stands. */
export type TournamentStatus = "entries" | "running" | "paused" | "over";

/** A line of the tournament list. */
export type TournamentSummary = {
  /** Entrants, withdrawn ones included. */
  entrants: number;
  format: TournamentFormat;
  game: GameKind;
  id: number;
  name: string;
  /** The account that made it and runs it. */
  organiser: string;
  rated: boolean;
  /** The rounds paired so far (arena: waves of pairings). */
  round: number;
  /** The rounds it has (0 for an arena). */
  rounds: number;
  status: TournamentStatus;
  /** The time control of its games, for the list (as [`TournamentSettings::room`] has it). */
  time: TimeControl;
};

/** All of one tournament. */
export type TournamentView = {
  /** Every board of every round, round by round, board by board. */
  boards: BoardView[];
  /**
   * Byes asked for rounds not yet paired (Swiss), round by round; each is worth
   * `settings.requested_bye` once its round is paired.
   */
  bye_requests?: ByeRequestView[];
  byes: ByeView[];
  /** By entrant number (Swiss and round robin). */
  crosstable: CrossRow[];
  /** Arena: milliseconds left, as of this message; `None` before the start or after. */
  ends_in_ms?: number | null;
  entrants: Entrant[];
  settings: TournamentSettings;
  /** Best first. */
  standings: StandingLine[];
  /** Starts by itself in this many milliseconds (a set start time). */
  starts_in_ms?: number | null;
  summary: TournamentSummary;
  /** The tie-breaks the standings carry, in order (empty for an arena). */
  tie_breaks: TieBreak[];
};

/** Trial moves (draft mode) played on a copy of a room's position, as the rules see them. */
export type Trial = {
  /** The trial moves asked for, so an answer about a line since changed is dropped. */
  asked: Move[];
  /**
   * What the rules say after the moves that stand: the side to move's legal moves
   * (xiangqi), check, the four warning's threats (caro).
   */
  facts: PositionFacts;
  /**
   * The room's game number ([`GameView::number`]) the moves were tried in: an answer
   * about another game is dropped.
   */
  game: number;
  /**
   * The trial moves that stand, in order, as the rules record them (WXF and check for
   * xiangqi): the first of `asked`, up to the first the rules refuse.
   */
  moves: MoveRecord[];
  /** How the moves that stand end the game by the rules, if they do (a five in draft). */
  over?: GameOver | null;
  /**
   * The plies played in that game when the moves were tried on it: an answer about a
   * position the game has moved past is dropped.
   */
  ply: number;
  /**
   * Why the rules refuse the first trial move that does not stand (the one after
   * `moves`); `None` when they all stand.
   */
  refused?: string | null;
};

/** The answer to a good [`crate::Hello`]. */
export type Welcome = {
  /**
   * Logged in to the account `name`; `false` for a guest (whose name starts with
   * [`crate::GUEST_MARK`]).
   */
  account?: boolean;
  /**
   * Asked for with [`crate::Credentials::Password`]'s `remember`: present it as
   * [`crate::Credentials::Token`] to log in again without the password.
   */
  account_token?: AccountToken | null;
  /** The account is a bot account (an engine's, `banco bot`). */
  bot?: boolean;
  /** The name the server gave this player (the asked name, made unique). */
  name: string;
  /** Present this in a later Hello to reclaim a held seat. */
  resume: ResumeToken;
  /** The server's name for itself, for the client's title bar. */
  server: string;
  version: number;
};

/**
 * A square on the xiangqi board in ICCS coordinates: `file` 0..=8 is a..i from Red's
 * left, `rank` 0..=9 counts from Red's side.
 */
export type XqSquare = {
  file: number;
  rank: number;
};
