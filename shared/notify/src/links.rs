//! The links mailed to players, minted in one place: move links (`/play/{token}`),
//! unsubscribe links (`/unsubscribe/{token}`), invitations (`/invitations/{token}`) and
//! reply addresses (`reply+{token}@domain`, [`reply_address`]). A
//! move link is [`missive_auth::MoveLink`], whose token is minted and verified in
//! `missive-auth`; here it becomes the address a mail carries. The pages behind the links
//! verify their tokens.

use chrono::{DateTime, Utc};
use missive_auth::reply_token::TOKEN_CHARS;
use missive_auth::{AuthError, Authority, Grant, MoveLink, Purpose, ReplyToken};
use missive_domain::{GameId, Seat};

/// `{local}+{token}@{domain}`, for the reply setting `{local}@{domain}`
/// ([`check_reply_to`]): the address a reply to the mail about `link`'s turn goes to,
/// where it plays the move the reply names. None when the game's id makes no token.
pub fn reply_address(authority: &Authority, reply_to: &str, link: &MoveLink) -> Option<String> {
    let (local, domain) = reply_to.rsplit_once('@')?;
    let token = ReplyToken::mint(authority, link)?;
    Some(format!("{local}+{token}@{domain}"))
}

/// Whether `reply_to` can be the reply setting: `local@domain` with no `+` in the local
/// part, which leaves room in its 64 characters (RFC 5321) for `+` and the token; why not.
pub fn check_reply_to(reply_to: &str) -> Result<(), String> {
    let Some((local, domain)) = reply_to.rsplit_once('@') else {
        return Err("expected an address, local@domain".into());
    };
    let room = 64 - 1 - TOKEN_CHARS;
    match (local, domain) {
        ("", _) | (_, "") => Err("expected an address, local@domain".into()),
        _ if local.contains(['+', '"', ' ', '<', '>']) => {
            Err("the local part takes no `+`, quotes, spaces or brackets".into())
        }
        _ if local.len() > room => Err(format!(
            "the local part has at most {room} characters (the token takes the rest)"
        )),
        _ => Ok(()),
    }
}

/// How long an unsubscribe link works, in seconds (a year).
pub const UNSUBSCRIBE_LIFETIME: i64 = 365 * 24 * 3600;

/// `{public_url}/play/{token}`: the token of `link` ([`MoveLink::token`]) minted at `now`,
/// good until a week after `deadline`, the turn's.
pub fn move_link(
    authority: &Authority,
    public_url: &str,
    link: &MoveLink,
    deadline: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<String, AuthError> {
    let token = link.token(authority, deadline, now)?;
    Ok(format!("{}/play/{token}", public_url.trim_end_matches('/')))
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
    let token = authority.mint_invitation(
        target.invitee,
        target.game,
        target.seat,
        INVITATION_LIFETIME,
        now.timestamp(),
    )?;
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
    fn move_links_are_play_pages_of_their_token() {
        let authority = Authority::new(&SigningKey::generate(), "m", "m").unwrap();
        let now = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let link = MoveLink {
            handle: "ann".into(),
            game: GameId("G1".into()),
            seat: Seat(1),
            ply: 7,
        };
        let url = move_link(&authority, "https://m.example/", &link, now, now).unwrap();
        let token = url.strip_prefix("https://m.example/play/").unwrap();
        assert_eq!(
            MoveLink::verify(&authority, token, now.timestamp()),
            Ok(link)
        );
    }

    #[test]
    fn reply_addresses_carry_the_token_of_their_turn() {
        let authority = Authority::new(&SigningKey::generate(), "m", "m").unwrap();
        let link = MoveLink {
            handle: "ann".into(),
            game: GameId(ulid_text()),
            seat: Seat(0),
            ply: 3,
        };
        let address = reply_address(&authority, "moves@m.example", &link).unwrap();
        let token = address
            .strip_prefix("moves+")
            .and_then(|rest| rest.strip_suffix("@m.example"))
            .unwrap();
        let read = ReplyToken::read(token).unwrap();
        assert_eq!(read.open(&authority, "ann"), Ok(link));
        assert!(address.split('@').next().unwrap().len() <= 64);
    }

    #[test]
    fn the_reply_setting_leaves_room_for_the_token() {
        assert_eq!(check_reply_to("reply@example.org"), Ok(()));
        for bad in ["reply", "@example.org", "reply@", "a+b@example.org"] {
            assert!(check_reply_to(bad).is_err(), "{bad}");
        }
        let long = format!("{}@example.org", "r".repeat(16));
        assert!(check_reply_to(&long).is_err());
    }

    fn ulid_text() -> String {
        "01JQ3Z5M8Y2W0K7T4N6V9B1C3D".into()
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
