//! Invitation links: `{public_url}/invitations/{token}`, the token an `invitation` JWT for
//! one seat of one game, minted with the invitation mail in `missive_notify::links`; and the
//! word to a game's creator when an invitee declines.

use missive_auth::Purpose;
use missive_domain::{GameId, Seat};
use missive_game::Invitee;

use crate::{ApiError, App};

/// What a verified invitation link is for: seat `seat` of `game`, kept for `invitee`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// The game.
    pub game: GameId,
    /// The seat kept.
    pub seat: Seat,
    /// For whom.
    pub invitee: Invitee,
    /// The invited player's handle, or the address invited (which has no player yet).
    pub subject: String,
}

impl Invitation {
    /// The invitation `token` stands for, if it is an unexpired invitation token of this
    /// server; token failures as every route answers them.
    pub fn read(app: &App, token: &str) -> Result<Invitation, ApiError> {
        let claims = app
            .authority
            .verify(token, Purpose::Invitation, app.now_seconds())?;
        let (Some(game), Some(seat)) = (claims.game, claims.seat) else {
            return Err(ApiError::unauthorized(
                "invalid token: an invitation names a game and a seat",
            ));
        };
        // Handles never hold an `@`: a subject with one is an address.
        let invitee = match claims.sub.contains('@') {
            true => Invitee::Address,
            false => Invitee::Player(claims.sub.clone()),
        };
        Ok(Invitation {
            game: GameId(game),
            seat: Seat(seat),
            invitee,
            subject: claims.sub,
        })
    }
}

/// Tells the creator of `game` by mail that `who` declined; a mail that cannot be sent is
/// logged (the decline stands).
pub(crate) async fn tell_declined(app: &App, game: &GameId, who: &str) {
    if let Err(error) = app.notifier().tell_declined(game, who).await {
        tracing::warn!(%game, %error, "the creator was not told of the decline");
    }
}
