//! Move links: `{public_url}/play/{token}`, the token a JWT for one player, game, seat and
//! ply, minted and verified by `missive_auth::MoveLink` (and mailed by
//! `missive_notify::links`). A link acts for its seat while the game stands at its ply: it
//! plays the move when the seat is to move, and sets the seat's conditional lines while
//! another seat is; once the game has gone past that ply the service refuses it as stale. A
//! page that acts through a link hands on a fresh one for the ply it left the game at
//! ([`fresh`]), and the games page of a signed-in player mints one per game.

use chrono::{DateTime, Utc};
pub use missive_auth::MoveLink;

use crate::{ApiError, App};

/// The link `token` stands for, if it is a move-link token of this server that has not
/// expired ([`MoveLink::verify`]); token failures as every route answers them (401
/// `token-expired`, 403 `wrong-token-purpose`, 401 `invalid-token`).
pub fn read(app: &App, token: &str) -> Result<MoveLink, ApiError> {
    Ok(MoveLink::verify(&app.authority, token, app.now_seconds())?)
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
    let fresh = MoveLink {
        ply,
        ..link.clone()
    };
    Ok(fresh.token(&app.authority, deadline.unwrap_or(now), now)?)
}
