//! Missive's tokens: JWTs signed with one configured key (HS256 or EdDSA), each minted for
//! exactly one [`Purpose`].
//!
//! Validation pins everything: the algorithm of the configured key, the issuer, the
//! audience, an expiry (checked against the caller's clock, so tests can move time), and the
//! purpose the caller expects: a sign-in link's token is no access token and a move link's
//! token is good for nothing but that one move. A move link is one type, [`MoveLink`]
//! (player, game, seat, ply), minted and verified in [`move_link`]; its token carries the
//! game, seat and ply in [`Claims::game`], [`Claims::seat`] and [`Claims::ply`]. Invitation
//! tokens ([`Authority::mint_invitation`]) carry the game and seat the same way, and sign-up
//! tokens the address they confirm in [`Claims::email`].
//!
//! Reply addresses carry no JWT (an address's local part holds 64 characters): their
//! token is a [`ReplyToken`], a short MAC-sealed code made with a secret derived from the
//! same key ([`reply_token`]).
//!
//! Keys are written as text: `hs256:<base64 secret of at least 32 bytes>` or
//! `ed25519:<base64 32-byte seed>` ([`SigningKey::generate`] makes an HS256 one).

pub mod move_link;
pub mod reply_token;

pub use move_link::{MOVE_LINK_GRACE, MoveLink};
pub use reply_token::ReplyToken;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use missive_domain::{GameId, Seat};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Shortest HS256 secret accepted, in bytes.
const MIN_SECRET: usize = 32;

/// What a token may be used for; a token is refused for every other purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Purpose {
    /// Acts as the player on the API.
    Access,
    /// Mailed in a sign-in link; exchanged once for an access token.
    SignIn,
    /// Mailed with a move notification; plays one move in one game, seat and ply.
    MoveLink,
    /// Mailed in every notification; changes that player's mail preference.
    Unsubscribe,
    /// Mailed with an invitation to a game; accepts or declines that one seat, for the
    /// invited player (or, for an address not registered yet, its owner).
    Invitation,
    /// Mailed to confirm a sign-up: names the handle and the address; exchanged once for
    /// the new player's access token.
    SignUp,
    /// Carried in the path of a signed-in player's pages (`/me/{token}`): their games and
    /// their vacations, after a sign-in link was exchanged on the sign-in page.
    Session,
}

/// What a token says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// Issuer.
    pub iss: String,
    /// Audience.
    pub aud: String,
    /// The player's handle.
    pub sub: String,
    /// Issued at, seconds since the epoch.
    pub iat: i64,
    /// Expires at, seconds since the epoch.
    pub exp: i64,
    /// What the token is for.
    pub purpose: Purpose,
    /// The game a move link is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The seat a move link is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The ply a move link is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// The address a sign-up token confirms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

impl Claims {
    /// Binds the token to `seat` of `game` at `ply` (the claims' wire form: three fields).
    fn place(&mut self, game: &GameId, seat: Seat, ply: u32) {
        self.game = Some(game.0.clone());
        self.seat = Some(seat.0);
        self.ply = Some(ply);
    }
}

/// What a token is minted for: a purpose, a player, and how long it lives. Move links,
/// invitations and sign-ups, which carry more, are minted by [`MoveLink::token`],
/// [`Authority::mint_invitation`] and [`Authority::mint_sign_up`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    /// The purpose.
    pub purpose: Purpose,
    /// The player's handle.
    pub subject: String,
    /// Seconds the token lives.
    pub lifetime: i64,
}

/// Why a key or a token was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum AuthError {
    /// The key text is not a valid key.
    #[error("invalid signing key: {0}")]
    Key(String),
    /// The token is malformed, forged, or for another issuer, audience or algorithm.
    #[error("invalid token: {0}")]
    Invalid(String),
    /// The token has expired.
    #[error("the token has expired")]
    Expired,
    /// The token was minted for another purpose.
    #[error("the token is not meant for this")]
    WrongPurpose,
}

/// The key tokens are signed and checked with.
#[derive(Clone)]
pub enum SigningKey {
    /// A shared secret (HS256).
    Hs256(Vec<u8>),
    /// An Ed25519 seed (EdDSA).
    Ed25519([u8; 32]),
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SigningKey::Hs256(_) => "SigningKey::Hs256(..)",
            SigningKey::Ed25519(_) => "SigningKey::Ed25519(..)",
        })
    }
}

impl SigningKey {
    /// A fresh random HS256 key.
    pub fn generate() -> SigningKey {
        SigningKey::Hs256(rand::random::<[u8; MIN_SECRET]>().to_vec())
    }

    /// Reads `hs256:<base64>` or `ed25519:<base64 seed>`.
    pub fn parse(text: &str) -> Result<SigningKey, AuthError> {
        let (kind, data) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| AuthError::Key("expected hs256:BASE64 or ed25519:BASE64".into()))?;
        let bytes = STANDARD
            .decode(data)
            .map_err(|e| AuthError::Key(format!("not base64: {e}")))?;
        match kind {
            "hs256" if bytes.len() >= MIN_SECRET => Ok(SigningKey::Hs256(bytes)),
            "hs256" => Err(AuthError::Key(format!(
                "an HS256 secret needs at least {MIN_SECRET} bytes"
            ))),
            "ed25519" => bytes
                .try_into()
                .map(SigningKey::Ed25519)
                .map_err(|_| AuthError::Key("an Ed25519 seed has 32 bytes".into())),
            _ => Err(AuthError::Key("the kind must be hs256 or ed25519".into())),
        }
    }

    /// The key as [`SigningKey::parse`] reads it.
    pub fn to_text(&self) -> String {
        match self {
            SigningKey::Hs256(secret) => format!("hs256:{}", STANDARD.encode(secret)),
            SigningKey::Ed25519(seed) => format!("ed25519:{}", STANDARD.encode(seed)),
        }
    }

    fn algorithm(&self) -> Algorithm {
        match self {
            SigningKey::Hs256(_) => Algorithm::HS256,
            SigningKey::Ed25519(_) => Algorithm::EdDSA,
        }
    }

    fn encoding(&self) -> Result<EncodingKey, AuthError> {
        match self {
            SigningKey::Hs256(secret) => Ok(EncodingKey::from_secret(secret)),
            SigningKey::Ed25519(seed) => {
                // PKCS#8 v1 wrapping of an Ed25519 seed (RFC 8410).
                let mut der = vec![
                    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04,
                    0x22, 0x04, 0x20,
                ];
                der.extend_from_slice(seed);
                Ok(EncodingKey::from_ed_der(&der))
            }
        }
    }

    /// The bytes the key is made of: the HS256 secret or the Ed25519 seed.
    fn material(&self) -> &[u8] {
        match self {
            SigningKey::Hs256(secret) => secret,
            SigningKey::Ed25519(seed) => seed,
        }
    }

    fn decoding(&self) -> Result<DecodingKey, AuthError> {
        match self {
            SigningKey::Hs256(secret) => Ok(DecodingKey::from_secret(secret)),
            SigningKey::Ed25519(seed) => {
                let public = ed25519_dalek::SigningKey::from_bytes(seed)
                    .verifying_key()
                    .to_bytes();
                DecodingKey::from_ed_components(&URL_SAFE_NO_PAD.encode(public))
                    .map_err(|e| AuthError::Key(e.to_string()))
            }
        }
    }
}

/// Mints and checks tokens for one issuer and audience with one key.
#[derive(Clone)]
pub struct Authority {
    issuer: String,
    audience: String,
    header: Header,
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    reply_secret: reply_token::ReplySecret,
}

impl Authority {
    /// An authority signing with `key` as `issuer` for `audience`.
    pub fn new(key: &SigningKey, issuer: &str, audience: &str) -> Result<Authority, AuthError> {
        let algorithm = key.algorithm();
        let mut validation = Validation::new(algorithm);
        validation.set_issuer(&[issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        // Expiry is checked against the caller's clock in `verify`.
        validation.validate_exp = false;
        Ok(Authority {
            issuer: issuer.to_string(),
            audience: audience.to_string(),
            header: Header::new(algorithm),
            encoding: key.encoding()?,
            decoding: key.decoding()?,
            validation,
            reply_secret: reply_token::ReplySecret::derive(key.material(), issuer),
        })
    }

    /// A sign-up token for `handle` at `email`, living `lifetime` seconds from `now`.
    pub fn mint_sign_up(
        &self,
        handle: &str,
        email: &str,
        lifetime: i64,
        now: i64,
    ) -> Result<String, AuthError> {
        let grant = Grant {
            purpose: Purpose::SignUp,
            subject: handle.to_string(),
            lifetime,
        };
        self.mint_with(&grant, now, |claims| claims.email = Some(email.to_string()))
    }

    /// An invitation token for `invitee` (a handle, or the address invited) to `seat` of
    /// `game`, living `lifetime` seconds from `now`; its ply is 0, as it always was.
    pub fn mint_invitation(
        &self,
        invitee: &str,
        game: &GameId,
        seat: Seat,
        lifetime: i64,
        now: i64,
    ) -> Result<String, AuthError> {
        let grant = Grant {
            purpose: Purpose::Invitation,
            subject: invitee.to_string(),
            lifetime,
        };
        self.mint_with(&grant, now, |claims| claims.place(game, seat, 0))
    }

    /// A token for `grant`, issued at `now` (seconds since the epoch).
    pub fn mint(&self, grant: &Grant, now: i64) -> Result<String, AuthError> {
        self.mint_with(grant, now, |_| {})
    }

    /// A token for `grant` issued at `now`, its claims completed by `fill`.
    fn mint_with(
        &self,
        grant: &Grant,
        now: i64,
        fill: impl FnOnce(&mut Claims),
    ) -> Result<String, AuthError> {
        let mut claims = Claims {
            iss: self.issuer.clone(),
            aud: self.audience.clone(),
            sub: grant.subject.clone(),
            iat: now,
            exp: now + grant.lifetime,
            purpose: grant.purpose,
            game: None,
            seat: None,
            ply: None,
            email: None,
        };
        fill(&mut claims);
        jsonwebtoken::encode(&self.header, &claims, &self.encoding)
            .map_err(|e| AuthError::Key(e.to_string()))
    }

    /// The claims of `token` if it is signed by this authority's key with its algorithm,
    /// names its issuer and audience, has not expired at `now` and is for `purpose`.
    pub fn verify(&self, token: &str, purpose: Purpose, now: i64) -> Result<Claims, AuthError> {
        self.verify_any(token, &[purpose], now)
    }

    /// [`Authority::verify`] for a token of any of `purposes`.
    pub fn verify_any(
        &self,
        token: &str,
        purposes: &[Purpose],
        now: i64,
    ) -> Result<Claims, AuthError> {
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map_err(|e| AuthError::Invalid(e.to_string()))?;
        let claims = data.claims;
        if claims.exp <= now {
            return Err(AuthError::Expired);
        }
        if !purposes.contains(&claims.purpose) {
            return Err(AuthError::WrongPurpose);
        }
        Ok(claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000;

    fn grant(purpose: Purpose) -> Grant {
        Grant {
            purpose,
            subject: "ann".into(),
            lifetime: 600,
        }
    }

    fn keys() -> Vec<SigningKey> {
        vec![SigningKey::generate(), SigningKey::Ed25519([7; 32])]
    }

    #[test]
    fn tokens_verify_for_their_purpose_only() {
        let purposes = [
            Purpose::Access,
            Purpose::SignIn,
            Purpose::MoveLink,
            Purpose::Invitation,
            Purpose::Unsubscribe,
            Purpose::Session,
        ];
        for key in keys() {
            let authority = Authority::new(&key, "missive", "missive-api").unwrap();
            for minted in purposes {
                let token = authority.mint(&grant(minted), NOW).unwrap();
                for wanted in purposes {
                    let result = authority.verify(&token, wanted, NOW + 1);
                    if minted == wanted {
                        let claims = result.unwrap();
                        assert_eq!(claims.sub, "ann");
                        assert_eq!(claims.purpose, minted);
                    } else {
                        assert_eq!(result, Err(AuthError::WrongPurpose));
                    }
                }
            }
        }
    }

    #[test]
    fn sign_up_tokens_carry_their_address_and_serve_nothing_else() {
        let authority = Authority::new(&SigningKey::generate(), "missive", "api").unwrap();
        let token = authority
            .mint_sign_up("ann", "ann@example.org", 600, NOW)
            .unwrap();
        let claims = authority
            .verify_any(&token, &[Purpose::SignIn, Purpose::SignUp], NOW)
            .unwrap();
        assert_eq!(claims.purpose, Purpose::SignUp);
        assert_eq!(claims.email.as_deref(), Some("ann@example.org"));
        for other in [Purpose::Access, Purpose::SignIn, Purpose::MoveLink] {
            assert_eq!(
                authority.verify(&token, other, NOW),
                Err(AuthError::WrongPurpose)
            );
        }
        let sign_in = authority.mint(&grant(Purpose::SignIn), NOW).unwrap();
        assert_eq!(
            authority
                .verify(&sign_in, Purpose::SignIn, NOW)
                .unwrap()
                .email,
            None
        );
    }

    #[test]
    fn invitations_bind_game_and_seat() {
        let authority = Authority::new(&SigningKey::generate(), "missive", "api").unwrap();
        let token = authority
            .mint_invitation("ann@example.org", &GameId("G1".into()), Seat(2), 600, NOW)
            .unwrap();
        let claims = authority.verify(&token, Purpose::Invitation, NOW).unwrap();
        assert_eq!(
            (
                claims.sub.as_str(),
                claims.game.as_deref(),
                claims.seat,
                claims.ply
            ),
            ("ann@example.org", Some("G1"), Some(2), Some(0))
        );
        assert_eq!(claims.exp, NOW + 600);
    }

    #[test]
    fn expired_forged_and_foreign_tokens_are_refused() {
        let key = SigningKey::generate();
        let authority = Authority::new(&key, "missive", "api").unwrap();
        let token = authority.mint(&grant(Purpose::Access), NOW).unwrap();
        assert_eq!(
            authority.verify(&token, Purpose::Access, NOW + 600),
            Err(AuthError::Expired)
        );
        let others = [
            Authority::new(&SigningKey::generate(), "missive", "api").unwrap(),
            Authority::new(&key, "someone-else", "api").unwrap(),
            Authority::new(&key, "missive", "other-audience").unwrap(),
            Authority::new(&SigningKey::Ed25519([1; 32]), "missive", "api").unwrap(),
        ];
        for other in others {
            assert!(matches!(
                other.verify(&token, Purpose::Access, NOW),
                Err(AuthError::Invalid(_))
            ));
        }
        let mut forged = token.clone();
        forged.replace_range(forged.len() - 4.., "AAAA");
        for bad in [forged.as_str(), "", "a.b.c", "not a token"] {
            assert!(matches!(
                authority.verify(bad, Purpose::Access, NOW),
                Err(AuthError::Invalid(_))
            ));
        }
    }

    #[test]
    fn the_none_algorithm_is_refused() {
        let authority = Authority::new(&SigningKey::generate(), "missive", "api").unwrap();
        let header = URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#);
        let body = URL_SAFE_NO_PAD.encode(format!(
            r#"{{"iss":"missive","aud":"api","sub":"ann","iat":{NOW},"exp":{},"purpose":"access"}}"#,
            NOW + 60
        ));
        let token = format!("{header}.{body}.");
        assert!(matches!(
            authority.verify(&token, Purpose::Access, NOW),
            Err(AuthError::Invalid(_))
        ));
    }

    #[test]
    fn keys_read_back_and_bad_keys_say_why() {
        for key in keys() {
            let text = key.to_text();
            assert_eq!(SigningKey::parse(&text).unwrap().to_text(), text);
        }
        for bad in [
            "",
            "hs256:",
            "hs256:c2hvcnQ=",
            "rsa:AAAA",
            "ed25519:AAAA",
            "hs256:***",
        ] {
            assert!(
                matches!(SigningKey::parse(bad), Err(AuthError::Key(_))),
                "{bad}"
            );
        }
    }
}
