//! Move links: `{public_url}/play/{token}`, the token a JWT for one player, game, seat and
//! ply (see `missive-auth`), minted with the mail in `missive_notify::links`. A link acts for
//! its seat while the game stands at its ply: it plays the move when the seat is to move,
//! and sets the seat's conditional lines while another seat is; once the game has gone past
//! that ply the service refuses it as stale. A page that acts through a link hands on a fresh
//! one for the ply it left the game at ([`fresh`]), and the games page of a signed-in player
//! mints one per game.

use chrono::{DateTime, Utc};
use missive_auth::Purpose;
use missive_domain::{GameId, Seat};
use missive_notify::links::{MoveLinkFor, move_link_token};

use crate::{ApiError, App};

/// What a verified move link allows: `handle` acts for `seat` in `game` at `ply`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLink {
    /// The player.
    pub handle: String,
    /// The game.
    pub game: GameId,
    /// The seat the player acts for.
    pub seat: Seat,
    /// The ply the link is good at: the ply the seat's move will have, or the ply its
    /// conditional lines start from.
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

/// A fresh move-link token for `link`'s player and seat at `ply`, good until a week after
/// `deadline` (the turn's, vacations counted; now if there is none).
pub fn fresh(
    app: &App,
    link: &MoveLink,
    ply: u32,
    deadline: Option<DateTime<Utc>>,
) -> Result<String, ApiError> {
    let now = app.clock.now();
    let target = MoveLinkFor {
        handle: &link.handle,
        game: &link.game,
        seat: link.seat,
        ply,
        deadline: deadline.unwrap_or(now),
    };
    Ok(move_link_token(&app.authority, &target, now)?)
}
