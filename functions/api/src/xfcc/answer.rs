//! What Xfcc calls are answered: XML, and `MakeAMove`'s result codes (the protocol's
//! enumeration and the ones Missive answers).

use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use missive_xfcc::XFCC_NS;

/// The `MakeAMoveResult` enumeration, as the protocol names it (`MoveIsAmbigous` is spelt
/// as the clients spell it: Scid and Lucas Chess match that text).
pub const MOVE_RESULTS: [&str; 13] = [
    "Success",
    "ServerError",
    "AuthenticationFailed",
    "InvalidGameID",
    "NotYourGame",
    "NotYourTurn",
    "InvalidMoveNumber",
    "InvalidMove",
    "NoDrawWasOffered",
    "LostOnTime",
    "YouAreOnLeave",
    "MoveIsAmbigous",
    "FeatureUnavailable",
];

/// The result codes Missive answers (a game the player does not sit in is not theirs to
/// name, so it is `InvalidGameID`; moves are taken on leave, so `YouAreOnLeave` is never
/// sent; every feature of the operation is there, so `FeatureUnavailable` is not either).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Done.
    Success,
    /// The store failed: try again.
    ServerError,
    /// Unknown handle or wrong application password.
    AuthenticationFailed,
    /// No chess game of the player's has this number.
    InvalidGameID,
    /// It is the opponent's turn, or the game is over.
    NotYourTurn,
    /// `movecount` is not the number of the move to make.
    InvalidMoveNumber,
    /// The move is not legal (or unreadable), a claim does not hold, or nothing was asked.
    InvalidMove,
    /// `acceptDraw` without an offer standing.
    NoDrawWasOffered,
    /// The player's time had run out: the game ended on time instead.
    LostOnTime,
    /// The move text fits several legal moves.
    MoveIsAmbiguous,
}

impl Outcome {
    /// The protocol's name for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Success => "Success",
            Outcome::ServerError => "ServerError",
            Outcome::AuthenticationFailed => "AuthenticationFailed",
            Outcome::InvalidGameID => "InvalidGameID",
            Outcome::NotYourTurn => "NotYourTurn",
            Outcome::InvalidMoveNumber => "InvalidMoveNumber",
            Outcome::InvalidMove => "InvalidMove",
            Outcome::NoDrawWasOffered => "NoDrawWasOffered",
            Outcome::LostOnTime => "LostOnTime",
            Outcome::MoveIsAmbiguous => "MoveIsAmbigous",
        }
    }

    /// The body of the answer carrying this outcome.
    pub fn answer(self) -> String {
        format!(
            "<MakeAMoveResponse xmlns=\"{XFCC_NS}\"><MakeAMoveResult>{}</MakeAMoveResult>\
             </MakeAMoveResponse>",
            self.as_str()
        )
    }
}

/// An XML answer of `status` and `content_type` holding `text`.
pub(crate) fn xml(status: StatusCode, content_type: &'static str, text: String) -> Response {
    (
        status,
        [(CONTENT_TYPE, HeaderValue::from_static(content_type))],
        text,
    )
        .into_response()
}
