//! Move links: `{public_url}/play/{token}`, the token a JWT for one player, game, seat and
//! ply (see `missive-auth`), minted with the mail in `missive_notify::links`. A link is
//! good for the one move it was mailed for: once the game has gone past that ply the service
//! refuses it as stale.

use axum::http::StatusCode;
use missive_auth::{AuthError, Purpose};
use missive_domain::{GameId, Seat};

use crate::{ApiError, App};

/// What a verified move link allows: `handle` plays for `seat` in `game` at `ply`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLink {
    /// The player.
    pub handle: String,
    /// The game.
    pub game: GameId,
    /// The seat the player moves for.
    pub seat: Seat,
    /// The ply the move will have: the game's ply when it became the seat's turn.
    pub ply: u32,
}

/// The link `token` stands for, if it is a move-link token of this server that has not
/// expired: 401 `link-expired` once expired, 400 `not-a-move-link` for tokens of another
/// purpose, 401 `unauthorized` for forged or malformed ones.
pub fn read(app: &App, token: &str) -> Result<MoveLink, ApiError> {
    let claims = app
        .authority
        .verify(token, Purpose::MoveLink, app.now_seconds())
        .map_err(|error| match error {
            AuthError::Expired => ApiError::new(
                StatusCode::UNAUTHORIZED,
                "link-expired",
                "this move link has expired",
            ),
            AuthError::WrongPurpose => ApiError::new(
                StatusCode::BAD_REQUEST,
                "not-a-move-link",
                "this token is not a move link",
            ),
            error => ApiError::from(error),
        })?;
    match (claims.game, claims.seat, claims.ply) {
        (Some(game), Some(seat), Some(ply)) => Ok(MoveLink {
            handle: claims.sub,
            game: GameId(game),
            seat: Seat(seat),
            ply,
        }),
        _ => Err(ApiError::unauthorized(
            "invalid token: a move link names a game, a seat and a ply",
        )),
    }
}
