//! Schemas for the API description of values the rules name in words: variant ids, seat
//! results, the ends of games. Built from the rules crate's own lists, so the description
//! cannot fall behind them.
//!
//! And schema-only mirrors of the domain's values the read models show (ids, seats, time
//! controls, statuses, conditional lines, feed events), which the views' fields (and the
//! API's) name with `value_type`, so the domain stays free of the description. Each keeps
//! its domain type's serde form and doc comments (the descriptions), with the plain JSON
//! type where the domain has a seat, an end reason or a seat result.

use chrono::{DateTime, Utc};
use missive_rules::{Claim, EndRule, SeatResult};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    ArrayBuilder, KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type,
};

/// The pattern of the kebab-case names the API uses for rules, results and statuses.
pub const KEBAB: &str = "^[a-z0-9]+(-[a-z0-9]+)*$";

/// A string that is one of `words`, with `description`.
pub fn words<'a>(words: impl IntoIterator<Item = &'a str>, description: &str) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(words))
        .description(Some(description))
        .into()
}

/// A variant id: one of the variants the server plays.
pub fn variant_id() -> Schema {
    words(
        missive_rules::variants().iter().map(|v| v.id()),
        "A variant id (GET /v1/variants describes each)",
    )
}

/// One seat's result.
pub fn seat_result() -> Schema {
    words(SeatResult::ALL.map(SeatResult::as_str), "One seat's result")
}

/// Every seat's result, in seat order.
pub fn seat_results() -> Schema {
    ArrayBuilder::new()
        .items(RefOr::T(seat_result()))
        .description(Some(
            "Each seat's result in seat order; empty when the game was called off",
        ))
        .into()
}

/// Why a game ended: a rule of ours, `aborted` or `declined`, or for an imported game any
/// kebab-case name its archive gave (so a pattern, not an enumeration).
pub fn end_reason() -> Schema {
    let known: Vec<&str> = EndRule::ALL
        .map(EndRule::as_str)
        .into_iter()
        .chain(["aborted", "declined"])
        .collect();
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(KEBAB))
        .description(Some(format!(
            "Why the game ended: {}; an imported game may name another end (kebab-case) \
             as its archive did",
            known.join(", ")
        )))
        .into()
}

/// A player's handle: 2 to 24 letters, digits, `_` or `-`, starting with a letter
/// ([`crate::check_handle`]).
pub fn handle() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some("^[A-Za-z][A-Za-z0-9_-]{1,23}$"))
        .description(Some("A player's handle"))
        .into()
}

/// One plain mailbox address ([`crate::check_email`]).
pub fn email() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Email)))
        .max_length(Some(254))
        .description(Some("One plain mailbox address, `local@domain.tld`"))
        .into()
}

/// The draws a player may claim: the claim names `POST /v1/games/{id}/claim` takes, less
/// `timeout`.
pub fn claims() -> Schema {
    ArrayBuilder::new()
        .items(RefOr::T(words(
            Claim::ALL.map(|claim| claim.rule().as_str()),
            "A draw rule",
        )))
        .into()
}

/// Where a challenge is in its life.
pub fn challenge_status() -> Schema {
    words(
        ["open", "accepted", "withdrawn", "expired"],
        "Where the challenge is in its life",
    )
}

/// The schema of variant ids, named `VariantId` in the description so every field and
/// filter holding one shares it.
pub struct VariantId;

impl utoipa::PartialSchema for VariantId {
    fn schema() -> RefOr<Schema> {
        RefOr::T(variant_id())
    }
}

impl utoipa::ToSchema for VariantId {}

/// A game's id: a ULID in text, sortable by creation time.
#[derive(utoipa::ToSchema)]
pub struct GameId(pub String);

/// A challenge's identity: a ULID in text, sortable by publication time.
#[derive(utoipa::ToSchema)]
pub struct ChallengeId(pub String);

/// Who sits in a seat.
#[derive(utoipa::ToSchema)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum SeatDoc {
    /// Any player may take the seat.
    #[schema(title = "OpenSeat")]
    Open,
    /// Kept for one invited player until they join or decline.
    #[schema(title = "InvitedSeat")]
    Invited {
        /// The invited player.
        player: String,
    },
    /// Taken by a player.
    #[schema(title = "TakenSeat")]
    Taken {
        /// The player sitting there.
        player: String,
    },
    /// Kept for a player invited by e-mail address who has not signed up yet: only the
    /// invitation mailed to that address takes it (the address is in the mail, not here).
    #[schema(title = "ReservedSeat")]
    Reserved,
    /// In an imported game: the name the archive gives, which need not be a registered
    /// player's handle (nobody acts or is listed for it).
    #[schema(title = "NamedSeat")]
    Named {
        /// The name in the archive.
        name: String,
    },
}

/// How much time a player has.
#[derive(utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TimeControl {
    /// A fixed number of days for every move.
    #[schema(title = "DaysPerMove")]
    DaysPerMove {
        /// Days per move.
        days: u16,
    },
    /// ICCF style: `days` for every `moves` moves, unused time carried over.
    #[schema(title = "IccfTimeControl")]
    Iccf {
        /// Moves per period.
        moves: u16,
        /// Days per period.
        days: u16,
    },
}

/// Where a game is in its life.
#[derive(utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Waiting for seats to be taken.
    Forming,
    /// Being played.
    Active,
    /// Ended with a result.
    Finished,
    /// Ended without a result: aborted before the first move, or an invitation declined.
    Cancelled,
}

/// A conditional line: moves in turn order from ply `from`, where the owner's own moves are
/// played at once when every earlier move of the line was played. Never shown to others.
#[derive(utoipa::ToSchema)]
pub struct ConditionalLine {
    /// The seat that registered the line and whose moves it contains.
    pub owner: u8,
    /// The ply of the line's first move.
    pub from: u32,
    /// The moves in long notation.
    pub moves: Vec<String>,
}

/// What a player is told of.
#[derive(utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum FeedEvent {
    /// It is the player's turn in the game (after a move, or at the game's start).
    #[schema(title = "YourTurn")]
    YourTurn {
        /// Moves played so far: the player's move will have this ply.
        ply: u32,
        /// When their time runs out, before any vacation.
        deadline: DateTime<Utc>,
    },
    /// Another player of the game moved, or the service played a move from a seat's
    /// conditional line (told to that seat's player too).
    #[schema(title = "Moved")]
    Moved {
        /// The move's ply (the first move has ply 0).
        ply: u32,
        /// The seat that moved.
        #[schema(maximum = 2)]
        seat: u8,
        /// The player who moved.
        player: String,
        /// Long (canonical) notation.
        long: String,
        /// Short notation.
        short: String,
        /// Whether a draw was offered with the move.
        draw_offer: bool,
        /// Whether the service played it for its seat, from the seat's conditional line.
        #[serde(default)]
        conditional: bool,
    },
    /// Another player offered a draw without a move.
    #[schema(title = "DrawOffered")]
    DrawOffered {
        /// The seat that offered it.
        #[schema(maximum = 2)]
        seat: u8,
        /// The player who offered it.
        player: String,
    },
    /// Another player withdrew the draw they offered.
    #[schema(title = "DrawWithdrawn")]
    DrawWithdrawn {
        /// The seat that withdrew it.
        #[schema(maximum = 2)]
        seat: u8,
        /// The player who withdrew it.
        player: String,
    },
    /// Another player accepted the draw offered (the game is over: a `game-over` follows).
    #[schema(title = "DrawAccepted")]
    DrawAccepted {
        /// The seat that accepted.
        #[schema(maximum = 2)]
        seat: u8,
        /// The player who accepted.
        player: String,
    },
    /// Another player declined the draw offered: every standing offer lapsed.
    #[schema(title = "DrawDeclined")]
    DrawDeclined {
        /// The seat that declined.
        #[schema(maximum = 2)]
        seat: u8,
        /// The player who declined.
        player: String,
    },
    /// Another player wrote to the game's players.
    #[schema(title = "MessageWritten")]
    Message {
        /// The writer's seat.
        #[schema(maximum = 2)]
        seat: u8,
        /// The writer.
        player: String,
        /// What they wrote.
        text: String,
    },
    /// A nation of a three-seat game is out; its army passed to `heir`.
    #[schema(title = "Eliminated")]
    Eliminated {
        /// The seat that went out.
        #[schema(maximum = 2)]
        seat: u8,
        /// The seat that took its army over.
        #[schema(maximum = 2)]
        heir: u8,
    },
    /// Every seat is taken: the game has started.
    #[schema(title = "GameStarted")]
    GameStarted,
    /// The game is over: finished with a result, or called off.
    #[schema(title = "GameOver")]
    GameOver {
        /// `finished` or `cancelled`.
        status: Status,
        /// Why it ended (a rule such as `checkmate`, or `aborted`, `declined`).
        rule: String,
        /// Each seat's result in seat order; empty when the game was called off.
        results: Vec<String>,
    },
    /// The player was invited to the game.
    #[schema(title = "Invited")]
    Invited {
        /// Who created the game.
        by: String,
    },
    /// The player's open challenge was accepted: the game is the one it became.
    #[schema(title = "ChallengeAccepted")]
    ChallengeAccepted {
        /// The challenge.
        challenge: String,
        /// Who accepted it.
        by: String,
    },
    /// The game's tournament was paused by its organiser: no clock of the game runs.
    #[schema(title = "GamePaused")]
    GamePaused,
    /// The game's tournament was resumed: the clocks run again, the pause given back.
    #[schema(title = "GameResumed")]
    GameResumed {
        /// When the turn's time runs out now, before any vacation (absent when nobody is
        /// to move).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deadline: Option<DateTime<Utc>>,
    },
    /// The tournament's organiser stopped the game's clocks for `days` days: the turn's
    /// deadline moved that much later.
    #[schema(title = "DeadlineExtended")]
    DeadlineExtended {
        /// The organiser.
        by: String,
        /// Days.
        #[schema(minimum = 1, maximum = 60)]
        days: u16,
        /// The seat to move, whose deadline moved (absent when nobody is to move).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(maximum = 2)]
        seat: Option<u8>,
        /// When the turn's time runs out now, before any vacation (absent when nobody is
        /// to move).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deadline: Option<DateTime<Utc>>,
    },
    /// The tournament's organiser ended the game with a result (a `game-over` follows).
    #[schema(title = "Adjudicated")]
    Adjudicated {
        /// The organiser.
        by: String,
        /// Why, in the organiser's words.
        reason: String,
    },
    /// A tournament the player plays in started: its games are being played (the event
    /// has no `game`).
    #[schema(title = "TournamentStarted")]
    TournamentStarted {
        /// The tournament.
        tournament: String,
        /// Its name.
        name: String,
    },
    /// A tournament the player plays in finished: every game of it is over (the event has
    /// no `game`).
    #[schema(title = "TournamentFinished")]
    TournamentFinished {
        /// The tournament.
        tournament: String,
        /// Its name.
        name: String,
    },
}
