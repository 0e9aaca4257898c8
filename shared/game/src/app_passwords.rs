//! Application passwords: second secrets of a player's for programs that cannot sign in by
//! mail (Xfcc desktop clients), created, listed and revoked by the player.
//!
//! A password reads `<id>-<secret>`: an id of [`ID_LENGTH`] and a secret of
//! [`SECRET_LENGTH`] characters from a 32-letter alphabet without look-alikes (lower-case
//! letters but `l` and `o`, digits but `0` and `1`), so 120 random bits. It is shown once,
//! when created; the store keeps its id, its label and the secret's argon2id hash (a PHC
//! string with its own salt). Checking one reads the one record its id names and verifies
//! one hash (on the blocking pool: it takes tens of milliseconds by design). A player has at
//! most [`MAX_APP_PASSWORDS`]; a label has 1 to [`MAX_LABEL`] characters.
//!
//! Hashing costs memory: argon2id fills [`HASH_MEMORY_KIB`] for a new hash, and a stored
//! hash costs what its own PHC string says (hashes made before were of argon2's defaults,
//! 19 MiB). So at most [`HASHES_AT_ONCE`] hashes are computed at once and
//! [`WAITING_TO_HASH`] more wait, on threads of their own (so the memory an allocator keeps
//! for a thread stays with these few); beyond that, [`ServiceError::Busy`] at once. A secret is
//! 120 random bits, which no guessing reaches whatever the hash's cost, so a new hash is
//! argon2id at 1 MiB and one pass: the memory cost that defends words people choose
//! buys nothing here.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use chrono::Duration;
use missive_domain::{AppPassword, Player};
use missive_gate::Gate;
use missive_store::StoreError;
use rand::Rng;

use crate::{GameService, ServiceError, check_handle};

/// Most application passwords one player may have.
pub const MAX_APP_PASSWORDS: usize = 10;
/// Longest label, in characters.
pub const MAX_LABEL: usize = 64;
/// Characters of an id.
pub const ID_LENGTH: usize = 8;
/// Characters of a secret.
pub const SECRET_LENGTH: usize = 24;
/// The letters of ids and secrets: 32, none like another.
const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";
/// A use is recorded when the last one recorded is older than this.
const USE_GRANULARITY: Duration = Duration::minutes(1);
/// The memory argon2id fills for a new hash, in KiB.
pub const HASH_MEMORY_KIB: u32 = 1024;
/// The passes over that memory of a new hash.
const HASH_PASSES: u32 = 1;
/// Hashes computed at once: with stored hashes of argon2's defaults, 4 x 19 MiB.
pub const HASHES_AT_ONCE: usize = 4;
/// Hashes waiting for a place to be computed.
pub const WAITING_TO_HASH: usize = 32;

/// The gate of hashing.
static HASHING: Gate = Gate::new("check a password", HASHES_AT_ONCE, WAITING_TO_HASH);

/// An application password just created: its record and the password itself, which is
/// never seen again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAppPassword {
    /// What is stored (the hash, not the password).
    pub record: AppPassword,
    /// The password to give the program.
    pub password: String,
}

impl GameService {
    /// Creates an application password for registered `player`, labelled `label` (trimmed,
    /// 1 to [`MAX_LABEL`] characters, no control characters): refused beyond
    /// [`MAX_APP_PASSWORDS`].
    pub async fn create_app_password(
        &self,
        player: &str,
        label: &str,
    ) -> Result<NewAppPassword, ServiceError> {
        let label = checked_label(label)?;
        let player = self.player(player).await?.handle;
        if self.store.app_passwords_of(&player).await?.len() >= MAX_APP_PASSWORDS {
            return Err(ServiceError::refused(format!(
                "a player has at most {MAX_APP_PASSWORDS} application passwords: revoke one first"
            )));
        }
        let (id, secret) = (random_text(ID_LENGTH), random_text(SECRET_LENGTH));
        let record = AppPassword {
            hash: hashed(secret.clone()).await?,
            id: id.clone(),
            player,
            label,
            created_at: self.now(),
            last_used: None,
        };
        match self.store.create_app_password(&record).await {
            Ok(()) => Ok(NewAppPassword {
                password: format!("{id}-{secret}"),
                record,
            }),
            Err(StoreError::Conflict) => Err(ServiceError::Contended),
            Err(error) => Err(error.into()),
        }
    }

    /// Every application password of `player`, oldest first (their hashes too: callers
    /// show the rest).
    pub async fn app_passwords(&self, player: &str) -> Result<Vec<AppPassword>, ServiceError> {
        Ok(self.store.app_passwords_of(player).await?)
    }

    /// Revokes `player`'s application password `id` at once: it signs nothing in any more.
    /// [`ServiceError::NoAppPassword`] if the player has none with that id.
    pub async fn revoke_app_password(&self, player: &str, id: &str) -> Result<(), ServiceError> {
        let revoked = is_id(id) && self.store.revoke_app_password(player, id).await?;
        match revoked {
            true => Ok(()),
            false => Err(ServiceError::NoAppPassword(id.to_string())),
        }
    }

    /// The player `handle` (without regard to case) names, if `password` is one of their
    /// application passwords; its use is recorded (to the minute).
    /// [`ServiceError::BadCredentials`] otherwise, whichever part was wrong.
    pub async fn sign_in_with_app_password(
        &self,
        handle: &str,
        password: &str,
    ) -> Result<Player, ServiceError> {
        let (id, secret) = password
            .trim()
            .split_once('-')
            .filter(|(id, _)| is_id(id))
            .ok_or(ServiceError::BadCredentials)?;
        check_handle(handle.trim()).map_err(|_| ServiceError::BadCredentials)?;
        let player = self
            .store
            .player_by_handle_key(handle.trim())
            .await?
            .ok_or(ServiceError::BadCredentials)?;
        let record = self
            .store
            .app_password(&player.handle, id)
            .await?
            .ok_or(ServiceError::BadCredentials)?;
        if !verified(secret.to_string(), record.hash.clone()).await? {
            return Err(ServiceError::BadCredentials);
        }
        let now = self.now();
        if record
            .last_used
            .is_none_or(|at| now - at >= USE_GRANULARITY)
        {
            self.store
                .touch_app_password(&player.handle, id, now)
                .await?;
        }
        Ok(player)
    }
}

/// Whether `id` could be an application password's id (anything else is looked up
/// nowhere, so no store is asked for a key it cannot hold).
fn is_id(id: &str) -> bool {
    id.len() == ID_LENGTH && id.bytes().all(|b| ALPHABET.contains(&b))
}

/// The label trimmed, or refused when empty, too long or holding control characters.
fn checked_label(label: &str) -> Result<String, ServiceError> {
    let label = label.trim();
    if label.is_empty() || label.chars().any(char::is_control) {
        return Err(ServiceError::refused(
            "a label is some text on one line, without control characters",
        ));
    }
    if label.chars().count() > MAX_LABEL {
        return Err(ServiceError::TooLong {
            what: "a label",
            limit: MAX_LABEL,
        });
    }
    Ok(label.to_string())
}

/// `length` random letters of [`ALPHABET`] (5 bits each, from the thread's CSPRNG).
fn random_text(length: usize) -> String {
    let mut rng = rand::rng();
    (0..length)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

/// The argon2id hash of `secret` with a fresh salt, as a PHC string.
async fn hashed(secret: String) -> Result<String, ServiceError> {
    blocking(move || {
        let salt_bytes: [u8; 16] = rand::rng().random();
        let salt = SaltString::encode_b64(&salt_bytes).map_err(hash_failure)?;
        let params = Params::new(HASH_MEMORY_KIB, HASH_PASSES, 1, None)
            .map_err(|error| hash_failure(error.into()))?;
        Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
            .hash_password(secret.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(hash_failure)
    })
    .await
}

/// Whether `secret` matches the PHC string `hash`, computed with the parameters the hash
/// names (an unreadable hash is corrupt).
async fn verified(secret: String, hash: String) -> Result<bool, ServiceError> {
    blocking(move || {
        let parsed = PasswordHash::new(&hash).map_err(hash_failure)?;
        Ok(Argon2::default()
            .verify_password(secret.as_bytes(), &parsed)
            .is_ok())
    })
    .await
}

/// Runs the hash work `work` on a thread of the gate of hashing, waited for on the
/// blocking pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ServiceError> + Send + 'static,
) -> Result<T, ServiceError> {
    tokio::task::spawn_blocking(move || HASHING.run(work))
        .await
        .map_err(|error| ServiceError::Store(StoreError::Backend(error.to_string())))??
}

fn hash_failure(error: argon2::password_hash::Error) -> ServiceError {
    ServiceError::Store(StoreError::Corrupt(format!(
        "application password hash: {error}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_secrets_are_of_the_alphabet_and_differ() {
        let secret = random_text(SECRET_LENGTH);
        assert_eq!(secret.len(), SECRET_LENGTH);
        assert!(secret.bytes().all(|b| ALPHABET.contains(&b)), "{secret}");
        assert_ne!(secret, random_text(SECRET_LENGTH));
        assert!(is_id(&random_text(ID_LENGTH)));
        for not_id in ["", "abcdefgl", "abcdefghj", "ABCDEFGH", &"a".repeat(2000)] {
            assert!(!is_id(not_id), "{not_id}");
        }
    }

    #[test]
    fn labels_are_trimmed_one_line_and_short() {
        assert_eq!(
            checked_label("  Scid on the laptop ").unwrap(),
            "Scid on the laptop"
        );
        assert!(checked_label(" ").is_err());
        assert!(checked_label("a\nb").is_err());
        assert!(checked_label(&"x".repeat(MAX_LABEL + 1)).is_err());
    }

    #[tokio::test]
    async fn a_hash_verifies_its_secret_only() {
        let hash = hashed("secret".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verified("secret".into(), hash.clone()).await.unwrap());
        assert!(!verified("Secret".into(), hash).await.unwrap());
        assert!(
            verified("secret".into(), "not a hash".into())
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn new_hashes_are_light_and_hashes_of_the_old_parameters_still_verify() {
        let hash = hashed("secret".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=1024,t=1,p=1$"), "{hash}");
        let salt = SaltString::encode_b64(b"sixteen byte sal").unwrap();
        let old = Argon2::default()
            .hash_password(b"secret", &salt)
            .unwrap()
            .to_string();
        assert!(old.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{old}");
        assert!(verified("secret".into(), old.clone()).await.unwrap());
        assert!(!verified("Secret".into(), old).await.unwrap());
    }
}
