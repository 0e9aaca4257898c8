//! The store's ports: what the game service needs from storage, one trait per entity or
//! concern, and nothing else. [`Store`] is all of them together, what an adapter provides.
//!
//! Every port keeps the same rules. Writes are conditional: [`GameStore::create`] only if
//! the game is new, [`GameStore::commit`] only if the head is still at the revision and ply
//! the writer read, a versioned record only over the revision before; otherwise
//! [`StoreError::Conflict`](crate::StoreError::Conflict) and nothing is written. A
//! successful return means the write is durable. Lists are read a page at a time: a page
//! holds at most `limit` items (at least one is always asked for) and, while more may
//! follow, a [`Cursor`](missive_domain::Cursor) that only this store reads back; a cursor
//! the store did not make is [`StoreError::BadCursor`](crate::StoreError::BadCursor).

mod challenges;
mod counters;
mod credentials;
mod feed;
mod game_lists;
mod games;
mod hooks;
mod mail;
mod operator;
mod players;
mod ratings;
mod sockets;
mod tournaments;
mod wakes;

pub use challenges::ChallengeStore;
pub use counters::CounterStore;
pub use credentials::CredentialStore;
pub use feed::{FeedStore, TOLD_ON_TIME};
pub use game_lists::{GameListStore, Membership};
pub use games::GameStore;
pub use hooks::HookStore;
pub use mail::MailStore;
pub use operator::{OperatorStore, Usage};
pub use players::PlayerStore;
pub use ratings::RatingStore;
pub use sockets::SocketStore;
pub use tournaments::TournamentStore;
pub use wakes::{Wake, WakeStore, WakeSubject};

/// Declares [`Store`] as every port at once, and makes every type that implements them all
/// a `Store`: the list of ports is written once.
macro_rules! every_port {
    ($(#[$doc:meta])* pub trait Store: $first:ident $(+ $port:ident)*;) => {
        $(#[$doc])*
        pub trait Store: $first $(+ $port)* + Send + Sync {}

        impl<T> Store for T where T: $first $(+ $port)* + Send + Sync {}
    };
}

every_port! {
    /// Storage of games as heads with append-only logs, plus the records and indexes the
    /// read models, the notifier and the sign-in need: every port at once. Every adapter
    /// that implements all the ports is a `Store`, and every one passes the same contract
    /// tests, port by port.
    pub trait Store: GameStore
        + GameListStore
        + WakeStore
        + PlayerStore
        + CredentialStore
        + MailStore
        + ChallengeStore
        + FeedStore
        + HookStore
        + SocketStore
        + TournamentStore
        + RatingStore
        + CounterStore
        + OperatorStore;
}
