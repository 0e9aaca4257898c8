//! The links mailed to players, minted in one place: move links (`/play/{token}`),
//! unsubscribe links (`/unsubscribe/{token}`) and invitations (`/invitations/{token}`). The
//! pages behind them verify tokens, and hand on fresh move-link tokens minted here for the
//! ply an act left the game at.

use chrono::{DateTime, Duration, Utc};
use missive_auth::{AuthError, Authority, Grant, Purpose};
use missive_domain::{GameId, Seat};

/// How long a move link outlives the deadline of the turn it was minted for.
pub const MOVE_LINK_GRACE: Duration = Duration::days(7);

/// How long an unsubscribe link works, in seconds (a year).
pub const UNSUBSCRIBE_LIFETIME: i64 = 365 * 24 * 3600;

/// The move being asked for: which game, seat and ply, and until when the turn runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLinkFor<'a> {
    /// The player sitting in the seat.
    pub handle: &'a str,
    /// The game.
    pub game: &'a GameId,
    /// The seat to move.
    pub seat: Seat,
    /// The head's ply when it became the seat's turn: the ply the move will have.
    pub ply: u32,
    /// The turn's deadline; the link works until [`MOVE_LINK_GRACE`] after it.
    pub deadline: DateTime<Utc>,
}

/// `{public_url}/play/{token}`: a [`Purpose::MoveLink`] token for exactly that game, seat
/// and ply, minted at `now`, for the player.
pub fn move_link(
    authority: &Authority,
    public_url: &str,
    target: &MoveLinkFor<'_>,
    now: DateTime<Utc>,
) -> Result<String, AuthError> {
    let token = move_link_token(authority, target, now)?;
    Ok(format!("{}/play/{token}", public_url.trim_end_matches('/')))
}

/// The token of [`move_link`]: for exactly that game, seat and ply, minted at `now`, good
/// until [`MOVE_LINK_GRACE`] after the turn's deadline.
pub fn move_link_token(
    authority: &Authority,
    target: &MoveLinkFor<'_>,
    now: DateTime<Utc>,
) -> Result<String, AuthError> {
    let expires = target.deadline.max(now) + MOVE_LINK_GRACE;
    let grant = Grant {
        purpose: Purpose::MoveLink,
        subject: target.handle.to_string(),
        lifetime: (expires - now).num_seconds(),
        move_link: Some((target.game.0.clone(), target.seat.0, target.ply)),
    };
    authority.mint(&grant, now.timestamp())
}

/// `{public_url}/unsubscribe/{token}`: a [`Purpose::Unsubscribe`] token for the player,
/// good for [`UNSUBSCRIBE_LIFETIME`] from `now`.
pub fn unsubscribe_link(
    authority: &Authority,
    public_url: &str,
    handle: &str,
    now: DateTime<Utc>,
) -> Result<String, AuthError> {
    let grant = Grant {
        purpose: Purpose::Unsubscribe,
        subject: handle.to_string(),
        lifetime: UNSUBSCRIBE_LIFETIME,
        move_link: None,
    };
    let token = authority.mint(&grant, now.timestamp())?;
    Ok(format!(
        "{}/unsubscribe/{token}",
        public_url.trim_end_matches('/')
    ))
}

/// How long an invitation link works, in seconds (30 days).
pub const INVITATION_LIFETIME: i64 = 30 * 24 * 3600;

/// An invitation: to which seat of which game, for whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvitationFor<'a> {
    /// The invited player's handle, or the address the invitation is mailed to when no
    /// player has it.
    pub invitee: &'a str,
    /// The game.
    pub game: &'a GameId,
    /// The seat kept for the invitee.
    pub seat: Seat,
}

/// `{public_url}/invitations/{token}`: a [`Purpose::Invitation`] token for that seat of
/// that game, good for [`INVITATION_LIFETIME`] from `now`. The page at `…/accept`
/// accepts the invitation, the one at `…/decline` declines it; both ask before acting.
pub fn invitation_link(
    authority: &Authority,
    public_url: &str,
    target: &InvitationFor<'_>,
    now: DateTime<Utc>,
) -> Result<String, AuthError> {
    let grant = Grant {
        purpose: Purpose::Invitation,
        subject: target.invitee.to_string(),
        lifetime: INVITATION_LIFETIME,
        move_link: Some((target.game.0.clone(), target.seat.0, 0)),
    };
    let token = authority.mint(&grant, now.timestamp())?;
    Ok(format!(
        "{}/invitations/{token}",
        public_url.trim_end_matches('/')
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use missive_auth::SigningKey;

    #[test]
    fn move_links_carry_game_seat_and_ply_until_a_week_past_the_deadline() {
        let authority = Authority::new(&SigningKey::generate(), "m", "m").unwrap();
        let now = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let game = GameId("G1".into());
        let target = MoveLinkFor {
            handle: "ann",
            game: &game,
            seat: Seat(1),
            ply: 7,
            deadline: now + Duration::days(3),
        };
        let link = move_link(&authority, "https://m.example/", &target, now).unwrap();
        let token = link.strip_prefix("https://m.example/play/").unwrap();
        let claims = authority
            .verify(token, Purpose::MoveLink, now.timestamp())
            .unwrap();
        assert_eq!(
            (
                claims.sub.as_str(),
                claims.game.as_deref(),
                claims.seat,
                claims.ply
            ),
            ("ann", Some("G1"), Some(1), Some(7))
        );
        assert_eq!(claims.exp, (now + Duration::days(10)).timestamp());
    }

    #[test]
    fn unsubscribe_links_are_for_unsubscribing_only() {
        let authority = Authority::new(&SigningKey::generate(), "m", "m").unwrap();
        let now = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let link = unsubscribe_link(&authority, "https://m.example", "ann", now).unwrap();
        let token = link.strip_prefix("https://m.example/unsubscribe/").unwrap();
        let claims = authority
            .verify(token, Purpose::Unsubscribe, now.timestamp() + 1000)
            .unwrap();
        assert_eq!(claims.sub, "ann");
        assert_eq!(
            authority.verify(token, Purpose::Access, now.timestamp()),
            Err(AuthError::WrongPurpose)
        );
    }
}
