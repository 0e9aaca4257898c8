//! `GetMyGames`: the player's chess games as `XfccGame` records, and the numbers Xfcc
//! names them by.
//!
//! Listed: every active chess game the player sits in, and those that ended in the last
//! [`FINISHED_DAYS`] days (at most [`FINISHED_GAMES`]), so that a program learns how a game
//! it was following ended. Games of other variants are not listed (see the module
//! documentation of [`super`]).

use chrono::{DateTime, Duration, Utc};
use missive_board::escape;
use missive_domain::{GameId, Head, MoveRecord, Player, Seat, SeatClock, SeatDoc, Status};
use missive_game::timing::Turn;
use missive_game::{GameSummary, Membership, MessageView, ServiceError, messages_of};
use missive_rules::{MoveNumber, MoveNumbering, SeatResult};

use crate::App;

/// The one variant Xfcc carries.
pub const CHESS: &str = "chess";
/// Finished games are listed for this many days after their end.
pub const FINISHED_DAYS: i64 = 30;
/// At most this many finished games are listed.
pub const FINISHED_GAMES: usize = 50;
/// The rating sent for a player without a chess rating (clients read 0 as none).
const NO_RATING: u32 = 0;
/// Games read from the store at once.
const PAGE: usize = 100;

/// The fields of an `XfccGame`, in the order of the WSDL's sequence, with their XML Schema
/// types (`tns:Result` is the result enumeration).
pub const GAME_FIELDS: [(&str, &str); 25] = [
    ("id", "s:int"),
    ("white", "s:string"),
    ("black", "s:string"),
    ("whiteElo", "s:int"),
    ("blackElo", "s:int"),
    ("event", "s:string"),
    ("site", "s:string"),
    ("eventDate", "s:string"),
    ("myTurn", "s:boolean"),
    ("hasWhite", "s:boolean"),
    ("daysPlayer", "s:int"),
    ("hoursPlayer", "s:int"),
    ("minutesPlayer", "s:int"),
    ("daysOpponent", "s:int"),
    ("hoursOpponent", "s:int"),
    ("minutesOpponent", "s:int"),
    ("moves", "s:string"),
    ("drawOffered", "s:boolean"),
    ("result", "tns:Result"),
    ("message", "s:string"),
    ("setup", "s:boolean"),
    ("fen", "s:string"),
    ("timeControl", "s:string"),
    ("gameLink", "s:string"),
    ("variant", "s:string"),
];

/// The values of the `Result` enumeration, as the protocol names them (Missive sends the
/// first five).
pub const RESULTS: [&str; 12] = [
    "Ongoing",
    "WhiteWins",
    "BlackWins",
    "Draw",
    "Cancelled",
    "WhiteWinAdjudicated",
    "BlackWinAdjudicated",
    "DrawAdjudicated",
    "WhiteDefaulted",
    "BlackDefaulted",
    "BothDefaulted",
    "AdjudicationPending",
];

/// The number Xfcc names game `id` by (its `xs:int` id): FNV-1a of the id folded into
/// 1 to 2³¹ - 1. Two of one player's games sharing a number is possible but unlikely
/// (about one in 20 million for a player with a hundred games); the first listed wins.
pub fn number_of(id: &GameId) -> i32 {
    let hash = id.0.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    (hash % (i32::MAX as u64)) as i32 + 1
}

/// The chess games Xfcc shows `player`: active ones, then those finished lately.
pub async fn listed(app: &App, player: &str) -> Result<Vec<GameSummary>, ServiceError> {
    let mut games = Vec::new();
    let mut cursor = None;
    loop {
        let page = app
            .service
            .games_of(player, Membership::Active, cursor.as_ref(), PAGE)
            .await?;
        games.extend(page.items);
        cursor = page.next;
        if cursor.is_none() {
            break;
        }
    }
    let since = app.clock.now() - Duration::days(FINISHED_DAYS);
    let finished = app
        .service
        .finished_by(player, None, FINISHED_GAMES, Some(player))
        .await?;
    games.extend(
        finished
            .items
            .into_iter()
            .filter(|game| game.ending.as_ref().is_some_and(|end| end.at >= since)),
    );
    games.retain(|game| game.variant == CHESS);
    Ok(games)
}

/// The listed game Xfcc number `number` names for `player`, if any.
pub async fn find(app: &App, player: &str, number: i32) -> Result<Option<GameId>, ServiceError> {
    Ok(listed(app, player)
        .await?
        .into_iter()
        .map(|game| game.id)
        .find(|id| number_of(id) == number))
}

/// The body of the answer to `GetMyGames` for `player`, with links under `base` (the
/// server's public URL).
pub async fn get_my_games(app: &App, player: &Player, base: &str) -> Result<String, ServiceError> {
    let mut records = String::new();
    for game in listed(app, &player.handle).await? {
        let record = xfcc_game(app, &player.handle, &game.id, base).await?;
        records.push_str(&record);
    }
    Ok(format!(
        "<GetMyGamesResponse xmlns=\"{}\"><GetMyGamesResult>{records}</GetMyGamesResult>\
         </GetMyGamesResponse>",
        missive_xfcc::XFCC_NS
    ))
}

/// Days, hours and minutes of time left.
struct TimeLeft([i64; 3]);

impl TimeLeft {
    fn of(left: Duration) -> TimeLeft {
        let minutes = left.num_minutes().max(0);
        TimeLeft([minutes / (24 * 60), minutes / 60 % 24, minutes % 60])
    }
}

/// The `XfccGame` element of `game` as `player` sees it.
async fn xfcc_game(
    app: &App,
    player: &str,
    game: &GameId,
    base: &str,
) -> Result<String, ServiceError> {
    let detail = app.service.game_detail(game, Some(player)).await?;
    let head = &detail.stored.head;
    let messages = messages_of(&detail.stored);
    let view = &detail.view;
    let mine = seat_of(head, player)?;
    let theirs = Seat(1 - mine.0.min(1));
    let now = app.clock.now();
    let time_left = |seat: Seat| TimeLeft::of(time_left(head, view.deadline, seat, now));
    let (mine_left, theirs_left) = (time_left(mine), time_left(theirs));
    let start = detail.game.start_text();
    let white_elo = elo(app, head, Seat(0)).await?;
    let black_elo = elo(app, head, Seat(1)).await?;
    let values: [String; GAME_FIELDS.len()] = [
        number_of(game).to_string(),
        seat_name(head, Seat(0)),
        seat_name(head, Seat(1)),
        white_elo.to_string(),
        black_elo.to_string(),
        "Missive".into(),
        base.to_string(),
        head.doc
            .started_at
            .map_or(String::new(), |at| at.format("%Y.%m.%d").to_string()),
        (view.status == Status::Active && view.to_move == Some(mine)).to_string(),
        (mine == Seat(0)).to_string(),
        mine_left.0[0].to_string(),
        mine_left.0[1].to_string(),
        mine_left.0[2].to_string(),
        theirs_left.0[0].to_string(),
        theirs_left.0[1].to_string(),
        theirs_left.0[2].to_string(),
        movetext(&start, &detail.stored.moves),
        view.draw_offers.contains(&theirs).to_string(),
        result(head).to_string(),
        news(&messages, &detail.stored.moves, mine),
        head.doc.start_position.is_some().to_string(),
        head.doc
            .start_position
            .as_ref()
            .map_or(String::new(), |_| start),
        time_control(head),
        format!("{base}/games/{}", game.0),
        CHESS.to_string(),
    ];
    let fields: String = GAME_FIELDS
        .iter()
        .zip(values)
        .map(|((name, _), value)| format!("<{name}>{}</{name}>", escape(&value)))
        .collect();
    Ok(format!("<XfccGame>{fields}</XfccGame>"))
}

/// The seat `player` sits in.
pub fn seat_of(head: &Head, player: &str) -> Result<Seat, ServiceError> {
    head.doc
        .seat_of(player)
        .ok_or_else(|| ServiceError::NotSeated {
            player: player.to_string(),
        })
}

/// Who sits in `seat`: the handle, or nothing while it is not taken.
/// The current chess rating of the player in `seat`, rounded ([`NO_RATING`] unrated).
async fn elo(app: &App, head: &Head, seat: Seat) -> Result<u32, ServiceError> {
    let player = seat_name(head, seat);
    if player.is_empty() {
        return Ok(NO_RATING);
    }
    let ratings = app.service.ratings_of(&player).await?;
    Ok(ratings
        .iter()
        .find(|record| record.variant == CHESS)
        .map_or(NO_RATING, |record| record.rating.round() as u32))
}

fn seat_name(head: &Head, seat: Seat) -> String {
    match head.doc.seats.get(usize::from(seat.0)) {
        Some(SeatDoc::Taken { player } | SeatDoc::Invited { player }) => player.clone(),
        _ => String::new(),
    }
}

/// The running time `seat` has left: until the turn's deadline (vacations counted) while
/// it is to move; otherwise what its next turn will start with. Nothing once the game is
/// over.
fn time_left(
    head: &Head,
    deadline: Option<DateTime<Utc>>,
    seat: Seat,
    now: DateTime<Utc>,
) -> Duration {
    if head.doc.status != Status::Active {
        return Duration::zero();
    }
    if head.to_move == Some(seat) {
        return deadline.map_or(Duration::zero(), |deadline| deadline - now);
    }
    let clock = head
        .resume
        .as_ref()
        .and_then(|resume| resume.clocks.get(usize::from(seat.0)))
        .copied()
        .unwrap_or(SeatClock::default());
    Turn::of(&head.doc, &clock, now).map_or(Duration::zero(), |turn| turn.allowance)
}

/// The game's result as the protocol's enumeration names it.
fn result(head: &Head) -> &'static str {
    match (head.doc.status, &head.doc.ending) {
        (Status::Cancelled, _) => "Cancelled",
        (Status::Finished, Some(ending)) => match ending.results.first() {
            Some(SeatResult::Win | SeatResult::SharedWin) => "WhiteWins",
            Some(SeatResult::Loss) => "BlackWins",
            _ => "Draw",
        },
        _ => "Ongoing",
    }
}

/// The time control as PGN's `TimeControl` tag writes a period: moves, then seconds
/// (`10/4320000` for ten moves in fifty days; days per move are one move in its days,
/// `1/259200` for three).
fn time_control(head: &Head) -> String {
    let (moves, days) = match head.doc.time_control {
        missive_domain::TimeControl::DaysPerMove { days } => (1, days),
        missive_domain::TimeControl::Iccf { moves, days } => (moves, days),
    };
    format!("{moves}/{}", u64::from(days) * 86_400)
}

/// The number of the move to come in the chess position `fen` and the seat to play it
/// (FEN's side and full-move fields; 1 and white when they cannot be read).
pub fn move_number(fen: &str) -> (u32, Seat) {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let seat = match fields.get(1) {
        Some(&"b") => Seat(1),
        _ => Seat(0),
    };
    let number = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    (number, seat)
}

/// The moves in PGN movetext form from the start position `start`, numbered on from its
/// full-move number as the clients' boards number them: `1.e4 e5 2.Nf3`, or
/// `12...Kd7 13.e4` from a position with black to move at move 12.
pub fn movetext(start: &str, moves: &[MoveRecord]) -> String {
    let (first_round, first) = move_number(start);
    let mut numbering = MoveNumbering::new(first, 2);
    let mut text = Vec::with_capacity(moves.len());
    for (index, mv) in moves.iter().enumerate() {
        let number = numbering.number(mv.seat);
        let number = MoveNumber {
            round: number.round + first_round - 1,
            ..number
        };
        match mv.seat == Seat(0) || index == 0 {
            true => text.push(format!("{number}{}", mv.short)),
            false => text.push(mv.short.clone()),
        }
    }
    text.join(" ")
}

/// What the opponent wrote since the player's last move, one message a line.
fn news(messages: &[MessageView], moves: &[MoveRecord], mine: Seat) -> String {
    let since = moves
        .iter()
        .rev()
        .find(|mv| mv.seat == mine)
        .map_or(0, |mv| mv.ply + 1);
    messages
        .iter()
        .filter(|message| message.seat != mine && message.ply >= since)
        .map(|message| message.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(first: u8, shorts: &[&str]) -> Vec<MoveRecord> {
        shorts
            .iter()
            .enumerate()
            .map(|(ply, short)| MoveRecord {
                ply: ply as u32,
                seat: Seat(((ply + usize::from(first)) % 2) as u8),
                long: String::new(),
                short: short.to_string(),
                at: DateTime::UNIX_EPOCH,
                key: None,
                draw_offer: false,
                conditional: false,
                prev_hash: String::new(),
                hash: String::new(),
            })
            .collect()
    }

    #[test]
    fn movetext_numbers_moves_from_the_start_position() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            movetext(start, &played(0, &["f3", "e5", "g4", "Qh4#"])),
            "1.f3 e5 2.g4 Qh4#"
        );
        assert_eq!(movetext(start, &[]), "");
        let black_first = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 12";
        assert_eq!(
            movetext(black_first, &played(1, &["Kd7", "e4", "Kc6"])),
            "12...Kd7 13.e4 Kc6"
        );
        assert_eq!(move_number(black_first), (12, Seat(1)));
        assert_eq!(move_number("nonsense"), (1, Seat(0)));
    }

    #[test]
    fn numbers_are_positive_xs_ints_and_differ() {
        let a = number_of(&GameId("01JAAAAAAAAAAAAAAAAAAAAAAA".into()));
        let b = number_of(&GameId("01JAAAAAAAAAAAAAAAAAAAAAAB".into()));
        assert!(a > 0 && b > 0);
        assert_ne!(a, b);
    }

    #[test]
    fn time_left_is_cut_into_days_hours_and_minutes() {
        let left =
            TimeLeft::of(Duration::days(2) + Duration::hours(5) + Duration::seconds(7 * 60 + 59));
        assert_eq!(left.0, [2, 5, 7]);
        assert_eq!(TimeLeft::of(-Duration::hours(1)).0, [0, 0, 0]);
    }
}
