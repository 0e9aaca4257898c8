//! Tamper evidence: the canonical content of a game, its digest and its Ed25519 signature.
//!
//! The canonical content is a small line-based text made of three sections (setup, play,
//! result), written out in `docs/archive.md`. The `Digest` tag holds the SHA-256 of each
//! section, so a failed check says which part changed; the `Signature` tag holds the server's
//! Ed25519 signature over the whole content. Keys are written as `ed25519:<base64 of the
//! bytes>`, signatures as `ed25519:<key id>:<base64 of the bytes>` (the id of the key that
//! made it, [`PublicKey::id`], so that a server with several keys knows which one to check it
//! with; signatures made before carry no id, `ed25519:<base64>`, and are tried with every
//! key); a secret key file holds `ed25519-secret:<base64 of the 32-byte seed>`, one a line
//! when the key has been rotated.

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use chrono::{DateTime, Utc};
use ed25519_dalek::{Signature, Signer as _, SigningKey, Verifier as _, VerifyingKey};
use rand::RngCore as _;
use sha2::{Digest as _, Sha256};

use missive_rules::{AnyGame, Notation};

use crate::record::{Entry, GameRecord};
use crate::text::{clean, escape_free_text, push_time_fields};

/// The three sections of a game's canonical content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// Format version, variant, options, start position and players.
    pub setup: String,
    /// Every move (long notation) and event with its time.
    pub play: String,
    /// The ending rule and each seat's result, or `result *`.
    pub result: String,
}

/// The parts of a game a digest covers, named in verification reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Variant, options, start position, players.
    Setup,
    /// Moves, their times and the events.
    Play,
    /// The result and the ending rule.
    Result,
}

impl Section {
    /// What the section covers, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Section::Setup => "the variant, options, start position or players",
            Section::Play => "the moves, their times or the events",
            Section::Result => "the result or the ending rule",
        }
    }
}

const SECTIONS: [Section; 3] = [Section::Setup, Section::Play, Section::Result];

impl Canonical {
    /// The canonical content of `record`, whose move texts must be in the variant's long
    /// notation (as import gives them; export normalises before sealing).
    pub fn of(record: &GameRecord) -> Canonical {
        Canonical::written(record, None)
    }

    /// The canonical content of `record`, each move without a text (as a reader that leaves
    /// them out gives it) written in long notation by `replay`, the game the record's moves
    /// were played in.
    pub(crate) fn written(record: &GameRecord, replay: Option<&dyn AnyGame>) -> Canonical {
        let mut setup = String::from("missive-archive 1\n");
        let _ = writeln!(setup, "variant {}", record.variant);
        let _ = writeln!(setup, "options {}", record.options);
        let _ = writeln!(setup, "start {}", record.start.as_deref().unwrap_or("-"));
        for (seat, player) in record.players.iter().enumerate() {
            let _ = writeln!(setup, "seat {seat} {}", clean(player));
        }
        let mut play = String::with_capacity(PLAY_LINE * record.entries.len());
        let mut moves = 0;
        for entry in &record.entries {
            match entry {
                Entry::Move(mv) => {
                    play.push_str("move ");
                    match replay.filter(|_| mv.text.is_empty()) {
                        Some(game) => game.push_played(moves, Notation::Long, &mut play),
                        None => play.push_str(&mv.text),
                    }
                    moves += 1;
                    play.push(' ');
                    push_time(&mut play, mv.received);
                    play.push_str(if mv.conditional {
                        " conditional\n"
                    } else {
                        "\n"
                    });
                }
                Entry::Event(event) => {
                    let _ = write!(play, "event {} {}", event.kind.name(), event.seat.0);
                    if let Some(argument) = event.kind.argument() {
                        let _ = write!(play, " {}", argument.canonical());
                    }
                    play.push(' ');
                    push_time(&mut play, event.at);
                    play.push('\n');
                }
                Entry::Organiser(organiser) => {
                    let _ = write!(play, "event {} -", organiser.act.name());
                    for argument in organiser.act.arguments() {
                        let _ = write!(play, " {argument}");
                    }
                    play.push(' ');
                    push_time(&mut play, organiser.at);
                    let _ = match organiser.act.text() {
                        Some(text) => writeln!(play, " {}", escape_free_text(text)),
                        None => writeln!(play),
                    };
                }
                Entry::Message(_) => {}
            }
        }
        let result = match &record.result {
            None => "result *\n".to_string(),
            Some(result) => {
                let seats: Vec<&str> = result.results.iter().map(|r| r.as_str()).collect();
                format!("result {} {}\n", result.rule, seats.join(" "))
            }
        };
        Canonical {
            setup,
            play,
            result,
        }
    }

    /// The whole content, the bytes a signature covers.
    pub fn bytes(&self) -> Vec<u8> {
        [&self.setup, &self.play, &self.result]
            .map(|s| s.as_bytes())
            .concat()
    }

    /// The `Digest` tag's value: `sha256:` and the hex SHA-256 of each section, joined by dots.
    pub fn digest(&self) -> String {
        let parts: Vec<String> = [&self.setup, &self.play, &self.result]
            .iter()
            .map(|section| hex(&Sha256::digest(section.as_bytes())))
            .collect();
        format!("sha256:{}", parts.join("."))
    }

    /// The sections whose digest differs from `digest` (a `Digest` tag's value); every
    /// section when the value is not a digest at all.
    pub fn altered_sections(&self, digest: &str) -> Vec<Section> {
        let ours = self.digest();
        let theirs: Vec<&str> = digest
            .strip_prefix("sha256:")
            .map(|parts| parts.split('.').collect())
            .unwrap_or_default();
        let ours: Vec<&str> = ours["sha256:".len()..].split('.').collect();
        if theirs.len() != ours.len() {
            return SECTIONS.to_vec();
        }
        SECTIONS
            .iter()
            .zip(ours.iter().zip(&theirs))
            .filter(|(_, (a, b))| !a.eq_ignore_ascii_case(b))
            .map(|(section, _)| *section)
            .collect()
    }
}

/// About the length of a move's line in the canonical content.
const PLAY_LINE: usize = 36;

/// Appends a time as the canonical content writes it: RFC 3339 in UTC to the second, `-`
/// when unknown.
fn push_time(text: &mut String, time: Option<DateTime<Utc>>) {
    match time {
        Some(time) => push_time_fields(text, time, '-', 'T', Some('Z')),
        None => text.push('-'),
    }
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    text
}

const PUBLIC_PREFIX: &str = "ed25519:";
const SECRET_PREFIX: &str = "ed25519-secret:";

/// A key pair that signs archives.
#[derive(Clone, Debug)]
pub struct KeyPair {
    signing: SigningKey,
}

/// A public key that checks archive signatures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicKey(VerifyingKey);

/// A key or signature text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid {what}: {reason}")]
pub struct KeyError {
    /// What was being read: `public key`, `secret key` or `signature`.
    pub what: &'static str,
    /// Why it is refused.
    pub reason: String,
}

impl KeyPair {
    /// A new key pair from the operating system's random source.
    pub fn generate() -> KeyPair {
        let mut seed = [0u8; 32];
        rand::rng().fill_bytes(&mut seed);
        KeyPair::from_seed(seed)
    }

    /// The key pair of a 32-byte seed (deterministic, for tests).
    pub fn from_seed(seed: [u8; 32]) -> KeyPair {
        KeyPair {
            signing: SigningKey::from_bytes(&seed),
        }
    }

    /// Reads `ed25519-secret:<base64 of the 32-byte seed>`.
    pub fn from_text(text: &str) -> Result<KeyPair, KeyError> {
        decode::<32>(text, SECRET_PREFIX, "secret key").map(KeyPair::from_seed)
    }

    /// The secret key's text form, `ed25519-secret:<base64>`.
    pub fn secret_text(&self) -> String {
        format!("{SECRET_PREFIX}{}", BASE64.encode(self.signing.to_bytes()))
    }

    /// The public half.
    pub fn public(&self) -> PublicKey {
        PublicKey(self.signing.verifying_key())
    }

    /// The id of the key pair: its public key's ([`PublicKey::id`]).
    pub fn id(&self) -> String {
        self.public().id()
    }

    /// The signature of `content` in text form, `ed25519:<key id>:<base64 of 64 bytes>`.
    pub fn sign(&self, content: &Canonical) -> String {
        let signature = self.signing.sign(&content.bytes());
        format!(
            "{PUBLIC_PREFIX}{}:{}",
            self.id(),
            BASE64.encode(signature.to_bytes())
        )
    }
}

/// The id of the key a signature (text form) names, if it names one: none for a signature
/// of the form written before signatures carried an id.
pub fn signature_key_id(signature: &str) -> Option<&str> {
    signature_parts(signature).0
}

/// A signature text's key id, if it has one, and its base64 part.
fn signature_parts(signature: &str) -> (Option<&str>, &str) {
    let text = signature.trim();
    let body = text.strip_prefix(PUBLIC_PREFIX).unwrap_or(text);
    // Base64 has no colon: one separates the key id from the signature.
    match body.split_once(':') {
        Some((id, signature)) => (Some(id), signature),
        None => (None, body),
    }
}

impl PublicKey {
    /// Reads `ed25519:<base64 of the 32 bytes>` (the prefix may be left out).
    pub fn from_text(text: &str) -> Result<PublicKey, KeyError> {
        let bytes = decode::<32>(text, PUBLIC_PREFIX, "public key")?;
        VerifyingKey::from_bytes(&bytes)
            .map(PublicKey)
            .map_err(|_| KeyError {
                what: "public key",
                reason: "not a point of the Ed25519 curve".into(),
            })
    }

    /// The text form, `ed25519:<base64>`.
    pub fn to_text(&self) -> String {
        format!("{PUBLIC_PREFIX}{}", BASE64.encode(self.0.to_bytes()))
    }

    /// The key's id: the first 8 hex digits of the SHA-256 of its text form, what the
    /// signatures it checks name.
    pub fn id(&self) -> String {
        hex(&Sha256::digest(self.to_text().as_bytes())[..4])
    }

    /// Checks `signature` (text form, with or without a key id) over `content`; a signature
    /// naming another key's id is refused as such.
    pub fn verify(&self, content: &Canonical, signature: &str) -> Result<(), KeyError> {
        let (id, body) = signature_parts(signature);
        if let Some(id) = id
            && id != self.id()
        {
            return Err(KeyError {
                what: "signature",
                reason: format!(
                    "it was made with the key {id}, not with this one ({})",
                    self.id()
                ),
            });
        }
        let bytes = decode::<64>(body, PUBLIC_PREFIX, "signature")?;
        self.0
            .verify(&content.bytes(), &Signature::from_bytes(&bytes))
            .map_err(|_| KeyError {
                what: "signature",
                reason: "it does not match the content and the key".into(),
            })
    }
}

/// Decodes `<prefix><base64>` (prefix optional) into exactly `N` bytes.
fn decode<const N: usize>(
    text: &str,
    prefix: &str,
    what: &'static str,
) -> Result<[u8; N], KeyError> {
    let text = text.trim();
    let body = text.strip_prefix(prefix).unwrap_or(text);
    let error = |reason: String| KeyError { what, reason };
    let bytes = BASE64
        .decode(body)
        .map_err(|e| error(format!("not base64 ({e})")))?;
    let found = bytes.len();
    bytes
        .try_into()
        .map_err(|_| error(format!("expected {N} bytes, found {found}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_texts_round_trip() {
        let pair = KeyPair::from_seed([9; 32]);
        let again = KeyPair::from_text(&pair.secret_text()).expect("reads");
        assert_eq!(again.public(), pair.public());
        let public = PublicKey::from_text(&pair.public().to_text()).expect("reads");
        assert_eq!(public, pair.public());
        assert_ne!(KeyPair::generate().public(), KeyPair::generate().public());
    }

    #[test]
    fn bad_key_texts_say_why() {
        let table = [
            (
                "ed25519:AAAA",
                "invalid public key: expected 32 bytes, found 3",
            ),
            ("ed25519:***", "invalid public key: not base64"),
        ];
        for (text, reason) in table {
            let error = PublicKey::from_text(text).expect_err("refused");
            assert!(error.to_string().starts_with(reason), "{error}");
        }
        let content = Canonical {
            setup: String::new(),
            play: String::new(),
            result: String::new(),
        };
        let key = KeyPair::from_seed([9; 32]).public();
        assert!(key.verify(&content, "ed25519:AAAA").is_err());
    }

    fn content() -> Canonical {
        Canonical {
            setup: "missive-archive 1\n".into(),
            play: "move e2e4 -\n".into(),
            result: "result *\n".into(),
        }
    }

    #[test]
    fn signatures_name_their_key() {
        let pair = KeyPair::from_seed([9; 32]);
        let signature = pair.sign(&content());
        let id = pair.id();
        assert_eq!(id, pair.public().id());
        assert_eq!(id.len(), 8);
        assert!(
            signature.starts_with(&format!("ed25519:{id}:")),
            "{signature}"
        );
        assert_eq!(signature_key_id(&signature), Some(id.as_str()));
        assert_ne!(KeyPair::from_seed([8; 32]).id(), id);
        assert_eq!(pair.public().verify(&content(), &signature), Ok(()));
        let other = KeyPair::from_seed([8; 32]).public();
        let error = other
            .verify(&content(), &signature)
            .expect_err("another key's");
        assert!(error.reason.contains(&id), "{error}");
    }

    #[test]
    fn signatures_without_a_key_id_still_verify() {
        let pair = KeyPair::from_seed([9; 32]);
        let signature = pair.sign(&content());
        let old = signature.replacen(&format!("{}:", pair.id()), "", 1);
        assert_eq!(old.matches(':').count(), 1, "{old}");
        assert_eq!(signature_key_id(&old), None);
        assert_eq!(pair.public().verify(&content(), &old), Ok(()));
        let bare = old.strip_prefix("ed25519:").unwrap();
        assert_eq!(pair.public().verify(&content(), bare), Ok(()));
        let other = KeyPair::from_seed([8; 32]).public();
        assert!(other.verify(&content(), &old).is_err());
    }
}
