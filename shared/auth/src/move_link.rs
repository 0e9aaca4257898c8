//! Move links: the one type a move link is, minted here for the mail (and for the pages that
//! hand on a fresh link) and verified here for the pages behind it.
//!
//! On the wire a move link's token is a [`Purpose::MoveLink`] JWT whose subject is the
//! player and whose `game`, `seat` and `ply` claims name the move it is for; links mailed
//! before keep verifying as long as that form stays.

use chrono::{DateTime, Duration, Utc};
use missive_domain::{GameId, Seat};

use crate::{AuthError, Authority, Grant, Purpose};

/// How long a move link outlives the deadline of the turn it was minted for.
pub const MOVE_LINK_GRACE: Duration = Duration::days(7);

/// A move link: `handle` acts for `seat` in `game` at `ply`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLink {
    /// The player sitting in the seat.
    pub handle: String,
    /// The game.
    pub game: GameId,
    /// The seat the player acts for.
    pub seat: Seat,
    /// The ply the link is good at: the head's ply when it became the seat's turn (the ply
    /// the seat's move will have), or the ply its conditional lines start from.
    pub ply: u32,
}

impl MoveLink {
    /// The link's token, minted at `now`, good until [`MOVE_LINK_GRACE`] after `deadline`
    /// (the turn's, vacations counted), or after `now` if that is later.
    pub fn token(
        &self,
        authority: &Authority,
        deadline: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<String, AuthError> {
        let expires = deadline.max(now) + MOVE_LINK_GRACE;
        let grant = Grant {
            purpose: Purpose::MoveLink,
            subject: self.handle.clone(),
            lifetime: (expires - now).num_seconds(),
        };
        authority.mint_with(&grant, now.timestamp(), |claims| {
            claims.place(&self.game, self.seat, self.ply)
        })
    }

    /// The link `token` stands for, if it is a move-link token of `authority` that has not
    /// expired at `now` (seconds since the epoch) and names a game, a seat and a ply.
    pub fn verify(authority: &Authority, token: &str, now: i64) -> Result<MoveLink, AuthError> {
        let claims = authority.verify(token, Purpose::MoveLink, now)?;
        match (claims.game, claims.seat, claims.ply) {
            (Some(game), Some(seat), Some(ply)) => Ok(MoveLink {
                handle: claims.sub,
                game: GameId(game),
                seat: Seat(seat),
                ply,
            }),
            _ => Err(AuthError::Invalid(
                "a move link names a game, a seat and a ply".into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use serde_json::Value;

    use super::*;
    use crate::SigningKey;

    fn authority() -> Authority {
        Authority::new(&SigningKey::generate(), "m", "m").unwrap()
    }

    fn now() -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000, 0).unwrap()
    }

    fn link() -> MoveLink {
        MoveLink {
            handle: "ann".into(),
            game: GameId("G1".into()),
            seat: Seat(1),
            ply: 7,
        }
    }

    #[test]
    fn a_link_verifies_as_itself_until_a_week_past_the_deadline() {
        let authority = authority();
        let deadline = now() + Duration::days(3);
        let token = link().token(&authority, deadline, now()).unwrap();
        let last = (deadline + MOVE_LINK_GRACE).timestamp() - 1;
        assert_eq!(MoveLink::verify(&authority, &token, last), Ok(link()));
        assert_eq!(
            MoveLink::verify(&authority, &token, last + 1),
            Err(AuthError::Expired)
        );
    }

    #[test]
    fn a_past_deadline_leaves_a_week_from_now() {
        let authority = authority();
        let token = link()
            .token(&authority, now() - Duration::days(30), now())
            .unwrap();
        let claims = authority
            .verify(&token, Purpose::MoveLink, now().timestamp())
            .unwrap();
        assert_eq!(claims.exp, (now() + MOVE_LINK_GRACE).timestamp());
    }

    #[test]
    fn the_token_keeps_the_form_mailed_links_have() {
        let token = link().token(&authority(), now(), now()).unwrap();
        let payload = token.split('.').nth(1).unwrap();
        let claims: Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
        assert_eq!(claims["purpose"], "move-link");
        assert_eq!(claims["sub"], "ann");
        assert_eq!(
            (&claims["game"], &claims["seat"], &claims["ply"]),
            (&Value::from("G1"), &Value::from(1), &Value::from(7))
        );
        assert_eq!(claims.get("email"), None);
    }

    #[test]
    fn other_tokens_are_no_move_links() {
        let authority = authority();
        let at = now().timestamp();
        let bare = Grant {
            purpose: Purpose::MoveLink,
            subject: "ann".into(),
            lifetime: 600,
        };
        let bare = authority.mint(&bare, at).unwrap();
        assert!(matches!(
            MoveLink::verify(&authority, &bare, at),
            Err(AuthError::Invalid(_))
        ));
        let invitation = authority
            .mint_invitation("ann", &GameId("G1".into()), Seat(1), 600, at)
            .unwrap();
        assert_eq!(
            MoveLink::verify(&authority, &invitation, at),
            Err(AuthError::WrongPurpose)
        );
    }
}
