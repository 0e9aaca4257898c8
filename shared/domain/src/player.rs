//! Players and their vacations.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// A period during which a player's clocks stand still.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Period {
    /// The first instant.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub start: DateTime<Utc>,
    /// The first instant after it.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub end: DateTime<Utc>,
}

/// A player's vacations: every period taken, in order.
///
/// Its `revision` guards replacements: the first record stored has revision 1, and a
/// replacement with revision `n` is stored only over revision `n - 1`. Revision 0 is the
/// record of a player who has none, never stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VacationRecord {
    /// Raised by one at every change; 0 for a player without a record.
    pub revision: u64,
    /// The periods, sorted and not overlapping.
    pub periods: Vec<Period>,
}

/// A registered player: a handle unique without regard to case and a unique e-mail address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The public name, unique without regard to case (kept as given).
    pub handle: String,
    /// Where sign-in links go, unique (stored as given, compared lower-cased).
    pub email: String,
    /// When the player signed up.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub created_at: DateTime<Utc>,
}

impl Player {
    /// The e-mail address as it is looked up: lower-cased.
    pub fn email_key(email: &str) -> String {
        email.trim().to_lowercase()
    }

    /// The handle as its uniqueness is decided: ASCII letters lower-cased (handles are
    /// ASCII), so `Ann` and `ANN` are the same handle as `ann`.
    pub fn handle_key(handle: &str) -> String {
        handle.to_ascii_lowercase()
    }
}

/// An application password: a second secret of a player's for programs that cannot sign in
/// by mail (Xfcc desktop clients). Only its hash is kept; the password itself is shown once,
/// when it is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppPassword {
    /// The id, unique among every player's application passwords; the password starts
    /// with it.
    pub id: String,
    /// The player it signs in.
    pub player: String,
    /// What the player named it after (the program or the machine).
    pub label: String,
    /// The secret's hash, a PHC string (argon2id).
    pub hash: String,
    /// When it was created.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub created_at: DateTime<Utc>,
    /// When it last signed a request in, if ever.
    #[serde(default, with = "chrono::serde::ts_milliseconds_option")]
    pub last_used: Option<DateTime<Utc>>,
}
