//! Move links: `{public_url}/play/{token}`, the token a JWT for one player, game, seat and
//! ply (see `missive-auth`), minted with the mail in `missive_notify::links`. A link is
//! good for the one move it was mailed for: once the game has gone past that ply the service
//! refuses it as stale.

use missive_auth::Purpose;
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
/// expired; token failures as every route answers them (401 `token-expired`, 403
/// `wrong-token-purpose`, 401 `invalid-token`).
pub fn read(app: &App, token: &str) -> Result<MoveLink, ApiError> {
    let claims = app
        .authority
        .verify(token, Purpose::MoveLink, app.now_seconds())?;
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
