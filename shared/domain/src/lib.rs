//! Missive's domain model: what a correspondence game is, independent of where it is kept.
//!
//! - A game is a [`Head`] (its one mutable record: the [`GameDoc`] with seats, time control
//!   and status, who is to move until when, and what the next move needs, [`Resume`]) and an
//!   append-only log of [`MoveRecord`]s and [`EventRecord`]s, chained by hashes.
//! - A change to a game is decided on the aggregate [`Game`] (a move, an event, the start,
//!   the end: pure, at a given time) and stored as one [`Commit`]: the new head, the
//!   entries appended, on condition that the head is still at the revision and ply read,
//!   and what the players are told of it.
//! - Clocks ([`timing`]): whose time runs, from when, for how long, and how vacations and
//!   pauses stop it.
//! - Endings speak the rules crate's types: an [`Ending`] names the rule
//!   ([`missive_rules::EndRule`], or why a game was called off) and each seat's
//!   [`missive_rules::SeatResult`]; seats are [`missive_rules::Seat`]s.
//! - Players, their vacations, application passwords, mail preferences and message mail
//!   choices, and markers of mails sent once.
//! - A player's event feed: [`FeedItem`]s written with the changes they tell of.
//! - Players' hooks ([`Hook`]): webhooks and Web Push subscriptions, sent every event of the
//!   player's feed; and their open WebSocket connections ([`Socket`]), sent the same.
//! - Open [`Challenge`]s: games offered to anyone, until accepted, withdrawn or expired.
//! - [`Tournament`]s (round robins) and players' [`RatingRecord`]s per variant.
//! - Lists come in [`Page`]s with an opaque [`Cursor`].
//!
//! The stores (`missive-store`) keep these values in their own formats; the JSON written by
//! serde here is the stored form of heads and must stay readable by every later version.

mod challenge;
mod change;
mod feed;
mod game;
mod hook;
mod id;
mod lines;
mod log;
mod notice;
mod page;
mod player;
mod rating;
mod socket;
pub mod timing;
mod told;
mod tournament;

pub use challenge::{Challenge, ChallengeFilter, ChallengeId, ChallengeState};
pub use change::{ADJUDICATION, Game, GameError, clocks_of};
pub use feed::{FEED_RETENTION, FeedEntry, FeedEvent, FeedItem, FeedPage};
pub use game::{
    ConditionalLine, Ending, GameDoc, Head, Reason, Resume, SeatClock, SeatDoc, Status,
    TimeControl, Waiting,
};
pub use hook::{DeliveryAttempt, Hook, HookId, HookState, PushKeys};
pub use id::GameId;
pub use log::{
    Commit, EventRecord, GameEvent, InvalidCommit, LogEntry, MoveRecord, StoredGame, WakeChange,
    hex, hex_sha256, merged, rechain,
};
pub use missive_rules::{EndRule, Seat, SeatResult, Window};
pub use notice::{LeaveEdge, MailPreference, MessageMail, Notice, TournamentEdge};
pub use page::{Cursor, Page};
pub use player::{AppPassword, Period, Player, VacationRecord};
pub use rating::{PeriodsClosed, RatedGame, RatingChange, RatingRecord};
pub use socket::{SOCKET_LIFETIME, Socket, SocketId};
pub use told::{
    told_of_challenge_accepted, told_of_change, told_of_invitations, told_of_tournament,
};
pub use tournament::{
    StartJob, Tournament, TournamentGame, TournamentId, TournamentStart, TournamentState,
    Withdrawal, WithdrawalScoring,
};
