//! Reply tokens: what a reply address (`reply+{token}@domain`) carries so that a player's
//! answer to a turn mail can play their move. An address's local part holds at most 64
//! characters (RFC 5321), so the token is no JWT but 30 bytes written as 48 characters of
//! lowercase base32 (RFC 4648's alphabet, read in either case, since mail systems may fold
//! an address's case):
//!
//! | bytes | what |
//! |---|---|
//! | 16 | the game's id, a ULID |
//! | 1 | the seat |
//! | 4 | the ply (big-endian) |
//! | 9 | the seal: HMAC-SHA-256, truncated, over the above and the player's handle |
//!
//! The handle is sealed but not carried: whoever reads a token looks up the player sitting
//! in its seat and checks the seal for them ([`ReplyToken::open`]). The seal's key is
//! derived from the signing key and the issuer, so a token is good only where its key is:
//! a token carries no key id, so it is checked with each key of the set in turn.
//! A token does not expire: it stands for the move at its ply, and once the game has moved
//! on it is stale.

use hmac::{Hmac, Mac};
use missive_domain::{GameId, Seat};
use sha2::{Digest, Sha256};

use crate::{AuthError, Authority, MoveLink};

/// Bytes of the seal a token carries.
const SEAL: usize = 9;
/// Bytes of a whole token.
const TOKEN_BYTES: usize = 16 + 1 + 4 + SEAL;
/// Characters of a token's text: five bits each.
pub const TOKEN_CHARS: usize = TOKEN_BYTES * 8 / 5;
/// The base32 alphabet of RFC 4648, in lowercase.
const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// The secret reply tokens are sealed with, derived from a signing key.
#[derive(Clone)]
pub(crate) struct ReplySecret([u8; 32]);

impl ReplySecret {
    /// The secret of the key made of `material`, for `issuer`.
    pub(crate) fn derive(material: &[u8], issuer: &str) -> ReplySecret {
        let mut hash = Sha256::new();
        hash.update(b"missive reply token\0");
        hash.update(issuer.as_bytes());
        hash.update(b"\0");
        hash.update(material);
        ReplySecret(hash.finalize().into())
    }

    /// The MAC over `place` and `handle`, ready to finish or verify.
    fn mac(&self, place: &[u8], handle: &str) -> Hmac<Sha256> {
        let mut mac =
            <Hmac<Sha256> as Mac>::new_from_slice(&self.0).expect("HMAC takes a key of any size");
        mac.update(place);
        mac.update(handle.as_bytes());
        mac
    }
}

/// A reply token as read from an address: the game, seat and ply it names, and its seal,
/// not yet checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyToken {
    /// The game.
    pub game: GameId,
    /// The seat.
    pub seat: Seat,
    /// The ply the reply's move is for.
    pub ply: u32,
    seal: [u8; SEAL],
}

impl ReplyToken {
    /// The token of `link` sealed by `authority`: lowercase base32, [`TOKEN_CHARS`]
    /// characters. None when the game's id is no ULID (no such game is made).
    pub fn mint(authority: &Authority, link: &MoveLink) -> Option<String> {
        let place = place(&link.game, link.seat, link.ply)?;
        let seal = authority
            .signing_reply_secret()
            .mac(&place, &link.handle)
            .finalize()
            .into_bytes();
        let mut bytes = place.to_vec();
        bytes.extend_from_slice(&seal[..SEAL]);
        Some(encode(&bytes))
    }

    /// The token `text` (in either case) names; [`AuthError::Invalid`] if it is not of the
    /// form. Its seal is not checked here.
    pub fn read(text: &str) -> Result<ReplyToken, AuthError> {
        let invalid = || AuthError::Invalid("not a reply token".into());
        let bytes = decode(text).ok_or_else(invalid)?;
        let game = ulid::Ulid::from_bytes(bytes[..16].try_into().map_err(|_| invalid())?);
        let ply = u32::from_be_bytes(bytes[17..21].try_into().map_err(|_| invalid())?);
        Ok(ReplyToken {
            game: GameId(game.to_string()),
            seat: Seat(bytes[16]),
            ply,
            seal: bytes[21..].try_into().map_err(|_| invalid())?,
        })
    }

    /// The move link the token stands for, if one of `authority`'s keys sealed it for
    /// `handle` (the player in its seat); [`AuthError::Invalid`] otherwise (forged, a key's
    /// not in the set, or another player's).
    pub fn open(&self, authority: &Authority, handle: &str) -> Result<MoveLink, AuthError> {
        let forged = || AuthError::Invalid("the reply token's seal does not hold".into());
        let place = place(&self.game, self.seat, self.ply).ok_or_else(forged)?;
        let sealed = authority.reply_secrets().any(|secret| {
            secret
                .mac(&place, handle)
                .verify_truncated_left(&self.seal)
                .is_ok()
        });
        if !sealed {
            return Err(forged());
        }
        Ok(MoveLink {
            handle: handle.to_string(),
            game: self.game.clone(),
            seat: self.seat,
            ply: self.ply,
        })
    }
}

/// The game, seat and ply as a token's first bytes; none when the id is no ULID.
fn place(game: &GameId, seat: Seat, ply: u32) -> Option<[u8; 21]> {
    let id = ulid::Ulid::from_string(&game.0).ok()?;
    let mut place = [0; 21];
    place[..16].copy_from_slice(&id.to_bytes());
    place[16] = seat.0;
    place[17..].copy_from_slice(&ply.to_be_bytes());
    Some(place)
}

/// `bytes` (a multiple of five long) in lowercase base32, without padding.
fn encode(bytes: &[u8]) -> String {
    bytes
        .chunks(5)
        .flat_map(|chunk| {
            let mut group = [0u8; 8];
            group[3..3 + chunk.len()].copy_from_slice(chunk);
            let bits = u64::from_be_bytes(group);
            (0..8)
                .rev()
                .map(move |i| ALPHABET[((bits >> (5 * i)) & 31) as usize] as char)
        })
        .collect()
}

/// The [`TOKEN_BYTES`] bytes `text` encodes in base32 of either case; none if it is not
/// exactly such a text.
fn decode(text: &str) -> Option<[u8; TOKEN_BYTES]> {
    if text.len() != TOKEN_CHARS {
        return None;
    }
    let mut bytes = [0; TOKEN_BYTES];
    for (group, out) in text.as_bytes().chunks(8).zip(bytes.chunks_mut(5)) {
        let mut bits = 0u64;
        for c in group {
            let value = ALPHABET.iter().position(|a| *a == c.to_ascii_lowercase())?;
            bits = bits << 5 | value as u64;
        }
        out.copy_from_slice(&bits.to_be_bytes()[3..]);
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SigningKey;

    fn authority(key: &SigningKey) -> Authority {
        Authority::new(key, "missive", "missive").unwrap()
    }

    fn link() -> MoveLink {
        MoveLink {
            handle: "ann".into(),
            game: GameId("01JQ3Z5M8Y2W0K7T4N6V9B1C3D".into()),
            seat: Seat(1),
            ply: 41,
        }
    }

    #[test]
    fn a_token_opens_as_its_link_for_its_player() {
        for key in [SigningKey::generate(), SigningKey::Ed25519([7; 32])] {
            let authority = authority(&key);
            let text = ReplyToken::mint(&authority, &link()).unwrap();
            assert_eq!(text.len(), TOKEN_CHARS);
            assert!(text.bytes().all(|c| ALPHABET.contains(&c)), "{text}");
            let token = ReplyToken::read(&text).unwrap();
            assert_eq!(
                (&token.game, token.seat, token.ply),
                (&link().game, link().seat, link().ply)
            );
            assert_eq!(token.open(&authority, "ann"), Ok(link()));
        }
    }

    #[test]
    fn an_address_fits_the_local_part_of_a_mail_address() {
        assert!("reply+".len() + TOKEN_CHARS <= 64);
    }

    #[test]
    fn case_folding_keeps_the_token() {
        let authority = authority(&SigningKey::generate());
        let text = ReplyToken::mint(&authority, &link()).unwrap();
        let token = ReplyToken::read(&text.to_ascii_uppercase()).unwrap();
        assert_eq!(token.open(&authority, "ann"), Ok(link()));
    }

    #[test]
    fn a_changed_character_breaks_the_seal_or_the_form() {
        let authority = authority(&SigningKey::generate());
        let text = ReplyToken::mint(&authority, &link()).unwrap();
        for at in 0..text.len() {
            let mut tampered = text.clone().into_bytes();
            tampered[at] = if tampered[at] == b'a' { b'b' } else { b'a' };
            let tampered = String::from_utf8(tampered).unwrap();
            let opened = ReplyToken::read(&tampered).and_then(|t| t.open(&authority, "ann"));
            assert!(matches!(opened, Err(AuthError::Invalid(_))), "{tampered}");
        }
    }

    #[test]
    fn another_player_key_or_issuer_does_not_open_it() {
        let key = SigningKey::generate();
        let text = ReplyToken::mint(&authority(&key), &link()).unwrap();
        let token = ReplyToken::read(&text).unwrap();
        assert!(token.open(&authority(&key), "bob").is_err());
        assert!(
            token
                .open(&authority(&SigningKey::generate()), "ann")
                .is_err()
        );
        let other_issuer = Authority::new(&key, "elsewhere", "missive").unwrap();
        assert!(token.open(&other_issuer, "ann").is_err());
    }

    #[test]
    fn texts_of_other_forms_are_no_tokens() {
        let authority = authority(&SigningKey::generate());
        let text = ReplyToken::mint(&authority, &link()).unwrap();
        for bad in [
            "",
            "reply",
            &text[1..],
            &format!("{text}a"),
            &text.replace(&text[..1], "1"),
        ] {
            assert!(ReplyToken::read(bad).is_err(), "{bad}");
        }
        let no_ulid = MoveLink {
            game: GameId("G1".into()),
            ..link()
        };
        assert_eq!(ReplyToken::mint(&authority, &no_ulid), None);
    }

    #[test]
    fn a_token_sealed_by_an_older_key_of_the_set_opens_until_it_is_removed() {
        let [old, new] = [SigningKey::generate(), SigningKey::Ed25519([7; 32])];
        let text = ReplyToken::mint(&authority(&old), &link()).unwrap();
        let token = ReplyToken::read(&text).unwrap();
        let rotated = Authority::with_keys(&[old, new.clone()], "missive", "missive").unwrap();
        assert_eq!(token.open(&rotated, "ann"), Ok(link()));
        let fresh = ReplyToken::read(&ReplyToken::mint(&rotated, &link()).unwrap()).unwrap();
        assert_eq!(fresh.open(&authority(&new), "ann"), Ok(link()));
        assert!(token.open(&authority(&new), "ann").is_err());
    }
}
