//! Missive's tokens: JWTs signed with the newest of the configured keys (HS256 or EdDSA),
//! each minted for exactly one [`Purpose`].
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
//!
//! Keys rotate: a key set ([`SigningKey::parse_set`]) is one key per line, oldest first;
//! the last one signs and every one verifies. Each token names the key that signed it by
//! its id ([`SigningKey::id`]) in the JWT header's `kid`, and is checked with that key only
//! (a token of a key no longer in the set is invalid); a token without a `kid` (minted
//! before tokens carried one) is tried with every key, as is a reply token with each key's
//! reply secret.

pub mod move_link;
pub mod reply_token;
pub mod vapid;

pub use move_link::{MOVE_LINK_GRACE, MoveLink};
pub use reply_token::ReplyToken;
pub use vapid::VapidKey;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use missive_domain::{GameId, Seat};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
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

    /// Reads a key set: one key per line as [`SigningKey::parse`] reads it, oldest first
    /// (the last one signs), blank lines and lines starting with `#` left out. A text of one
    /// key is a set of one. At least one key is needed; a bad line is named by its number.
    pub fn parse_set(text: &str) -> Result<Vec<SigningKey>, AuthError> {
        let keys = key_lines(text)
            .map(|(number, line)| {
                SigningKey::parse(line).map_err(|e| AuthError::Key(format!("line {number}: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if keys.is_empty() {
            return Err(AuthError::Key("no key in the text".into()));
        }
        Ok(keys)
    }

    /// The key's id: the first 8 hex digits of the SHA-256 of its kind and material, what a
    /// token's `kid` names. It tells keys apart and gives nothing of the secret away.
    pub fn id(&self) -> String {
        let mut hash = Sha256::new();
        hash.update(self.kind().as_bytes());
        hash.update(b":");
        hash.update(self.material());
        hash.finalize()[..4]
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }

    /// The key's kind as its text names it: `hs256` or `ed25519`.
    pub fn kind(&self) -> &'static str {
        match self {
            SigningKey::Hs256(_) => "hs256",
            SigningKey::Ed25519(_) => "ed25519",
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

/// The lines of a key set's text that hold a key, with their numbers from 1: blank lines
/// and `#` comments left out, each trimmed. The one reading of a key set's lines, for the
/// token keys ([`SigningKey::parse_set`]) and the archive keys alike, and for the tools that
/// edit a key file line by line.
pub fn key_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(index, line)| (index + 1, line))
}

/// What checks the tokens of one key: its id, its JWT validation and its reply secret.
#[derive(Clone)]
struct Verifier {
    id: String,
    decoding: DecodingKey,
    validation: Validation,
    reply_secret: reply_token::ReplySecret,
}

impl Verifier {
    /// The verifier of `key`'s tokens for `issuer` and `audience`.
    fn new(key: &SigningKey, issuer: &str, audience: &str) -> Result<Verifier, AuthError> {
        let mut validation = Validation::new(key.algorithm());
        validation.set_issuer(&[issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        // Expiry is checked against the caller's clock in `verify`.
        validation.validate_exp = false;
        Ok(Verifier {
            id: key.id(),
            decoding: key.decoding()?,
            validation,
            reply_secret: reply_token::ReplySecret::derive(key.material(), issuer),
        })
    }
}

/// Mints and checks tokens for one issuer and audience with a key set: the newest key signs,
/// every key verifies.
#[derive(Clone)]
pub struct Authority {
    issuer: String,
    audience: String,
    header: Header,
    encoding: EncodingKey,
    /// Oldest first; the last one signs.
    verifiers: Vec<Verifier>,
}

impl Authority {
    /// An authority signing with `key` (and verifying with it alone) as `issuer` for
    /// `audience`.
    pub fn new(key: &SigningKey, issuer: &str, audience: &str) -> Result<Authority, AuthError> {
        Authority::with_keys(std::slice::from_ref(key), issuer, audience)
    }

    /// An authority of the key set `keys` (oldest first) as `issuer` for `audience`: the
    /// last key signs, naming itself in each token's `kid`; every key verifies the tokens it
    /// signed. An empty set is refused.
    pub fn with_keys(
        keys: &[SigningKey],
        issuer: &str,
        audience: &str,
    ) -> Result<Authority, AuthError> {
        let signing = keys
            .last()
            .ok_or_else(|| AuthError::Key("the key set is empty".into()))?;
        let mut header = Header::new(signing.algorithm());
        header.kid = Some(signing.id());
        Ok(Authority {
            issuer: issuer.to_string(),
            audience: audience.to_string(),
            header,
            encoding: signing.encoding()?,
            verifiers: keys
                .iter()
                .map(|key| Verifier::new(key, issuer, audience))
                .collect::<Result<_, _>>()?,
        })
    }

    /// The id of the key that signs.
    pub fn signing_key_id(&self) -> &str {
        &self.signing().id
    }

    /// The verifier of the key that signs.
    fn signing(&self) -> &Verifier {
        self.verifiers
            .last()
            .expect("an authority has at least one key")
    }

    /// The reply secrets of every key, the signing key's first.
    pub(crate) fn reply_secrets(&self) -> impl Iterator<Item = &reply_token::ReplySecret> {
        self.verifiers.iter().rev().map(|key| &key.reply_secret)
    }

    /// The reply secret new reply tokens are sealed with: the signing key's.
    pub(crate) fn signing_reply_secret(&self) -> &reply_token::ReplySecret {
        &self.signing().reply_secret
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

    /// The claims of `token` if it is signed by one of this authority's keys with its
    /// algorithm (the key its `kid` names, or any key for a token without one), names its
    /// issuer and audience, has not expired at `now` and is for `purpose`. A `kid` naming
    /// no key of the set is [`AuthError::Invalid`], as a bad signature is.
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
        let invalid = |e: jsonwebtoken::errors::Error| AuthError::Invalid(e.to_string());
        let header = jsonwebtoken::decode_header(token).map_err(invalid)?;
        let candidates: Vec<&Verifier> = match &header.kid {
            Some(kid) => vec![
                self.verifiers
                    .iter()
                    .find(|key| &key.id == kid)
                    .ok_or_else(|| AuthError::Invalid(format!("no key has the id {kid}")))?,
            ],
            None => self.verifiers.iter().rev().collect(),
        };
        let mut decoded = Err(AuthError::Invalid("no key to check the token with".into()));
        for key in candidates {
            decoded = jsonwebtoken::decode::<Claims>(token, &key.decoding, &key.validation)
                .map_err(invalid);
            if decoded.is_ok() {
                break;
            }
        }
        let claims = decoded?.claims;
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

    /// The `kid` in `token`'s header.
    fn kid(token: &str) -> Option<String> {
        jsonwebtoken::decode_header(token).unwrap().kid
    }

    #[test]
    fn tokens_name_the_key_that_signed_them() {
        for key in keys() {
            let authority = Authority::new(&key, "missive", "api").unwrap();
            let token = authority.mint(&grant(Purpose::Access), NOW).unwrap();
            assert_eq!(kid(&token), Some(key.id()));
            assert_eq!(authority.signing_key_id(), key.id());
            assert_eq!(key.id().len(), 8);
            assert!(
                key.id().bytes().all(|c| c.is_ascii_hexdigit()),
                "{}",
                key.id()
            );
        }
        let [hs256, ed25519] = [SigningKey::generate(), SigningKey::Ed25519([7; 32])];
        assert_ne!(hs256.id(), SigningKey::generate().id());
        assert_eq!(ed25519.id(), SigningKey::Ed25519([7; 32]).id());
        assert_ne!(ed25519.id(), SigningKey::Hs256(vec![7; 32]).id());
        assert!(!format!("{hs256:?}").contains(&hs256.to_text()[6..]));
    }

    #[test]
    fn an_older_key_of_the_set_verifies_and_the_newest_signs() {
        let [old, new] = [SigningKey::generate(), SigningKey::Ed25519([7; 32])];
        let before = Authority::new(&old, "missive", "api").unwrap();
        let token = before.mint(&grant(Purpose::MoveLink), NOW).unwrap();
        let rotated = Authority::with_keys(&[old.clone(), new.clone()], "missive", "api").unwrap();
        assert_eq!(
            rotated.verify(&token, Purpose::MoveLink, NOW).unwrap().sub,
            "ann"
        );
        let minted = rotated.mint(&grant(Purpose::Access), NOW).unwrap();
        assert_eq!(kid(&minted), Some(new.id()));
        assert!(rotated.verify(&minted, Purpose::Access, NOW).is_ok());
        assert!(matches!(
            before.verify(&minted, Purpose::Access, NOW),
            Err(AuthError::Invalid(_))
        ));
        assert_eq!(
            rotated.verify(&token, Purpose::Access, NOW),
            Err(AuthError::WrongPurpose)
        );
        assert_eq!(
            rotated.verify(&token, Purpose::MoveLink, NOW + 600),
            Err(AuthError::Expired)
        );
    }

    #[test]
    fn a_token_of_a_removed_key_is_refused_as_invalid() {
        let [old, new] = [SigningKey::generate(), SigningKey::generate()];
        let token = Authority::new(&old, "missive", "api")
            .unwrap()
            .mint(&grant(Purpose::MoveLink), NOW)
            .unwrap();
        let removed = Authority::with_keys(&[new], "missive", "api").unwrap();
        assert!(matches!(
            removed.verify(&token, Purpose::MoveLink, NOW),
            Err(AuthError::Invalid(_))
        ));
        assert!(matches!(
            Authority::with_keys(&[], "missive", "api"),
            Err(AuthError::Key(_))
        ));
    }

    #[test]
    fn a_token_without_a_kid_is_tried_with_every_key() {
        for old in keys() {
            let claims = Claims {
                iss: "missive".into(),
                aud: "api".into(),
                sub: "ann".into(),
                iat: NOW,
                exp: NOW + 60,
                purpose: Purpose::Access,
                game: None,
                seat: None,
                ply: None,
                email: None,
            };
            let header = Header::new(old.algorithm());
            let token = jsonwebtoken::encode(&header, &claims, &old.encoding().unwrap()).unwrap();
            assert_eq!(kid(&token), None);
            let set = [
                old.clone(),
                SigningKey::generate(),
                SigningKey::Ed25519([3; 32]),
            ];
            let authority = Authority::with_keys(&set, "missive", "api").unwrap();
            assert_eq!(authority.verify(&token, Purpose::Access, NOW), Ok(claims));
            let without = Authority::with_keys(&set[1..], "missive", "api").unwrap();
            assert!(matches!(
                without.verify(&token, Purpose::Access, NOW),
                Err(AuthError::Invalid(_))
            ));
        }
    }

    #[test]
    fn key_sets_read_one_key_a_line_oldest_first() {
        let [a, b] = [SigningKey::generate(), SigningKey::Ed25519([7; 32])];
        let text = format!("# rotated\n{}\n\n  {}  \n", a.to_text(), b.to_text());
        let set = SigningKey::parse_set(&text).unwrap();
        let ids: Vec<String> = set.iter().map(SigningKey::id).collect();
        assert_eq!(ids, [a.id(), b.id()]);
        let one = SigningKey::parse_set(&format!("{}\n", a.to_text())).unwrap();
        assert_eq!(one.len(), 1);
        for (bad, says) in [
            ("", "no key"),
            ("# only a comment\n", "no key"),
            (&format!("{}\nhs256:c2hvcnQ=", a.to_text()), "line 2"),
        ] {
            match SigningKey::parse_set(bad) {
                Err(AuthError::Key(reason)) => assert!(reason.contains(says), "{reason}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
