//! Where the keys come from besides the settings themselves: the key files in the data
//! folder, or an SSM parameter read once at start-up. Each holds a key set: one key a line,
//! oldest first, the last one signing ([`SigningKey::parse_set`]); a key rotated in is
//! appended, a key retired is deleted (`missive key rotate|remove` for the files).

use std::path::Path;

use missive_archive::KeyPair;
use missive_auth::{SigningKey, VapidKey};

use crate::{Opening, SettingsError};

/// Name of the key file written into the data folder on first local start.
pub const KEY_FILE: &str = "missive.key";

/// Name of the archive key file written into the data folder on first local start.
pub const ARCHIVE_KEY_FILE: &str = "archive.key";

/// Name of the VAPID key file (Web Push) written into the data folder on first local start.
pub const VAPID_KEY_FILE: &str = "vapid.key";

/// The token key set in `folder`'s key file; if there is none, a fresh key written there
/// with [`Opening::MayCreate`], else an error naming the file.
pub(crate) fn in_folder(folder: &Path, opening: Opening) -> Result<Vec<SigningKey>, SettingsError> {
    let text = key_file(folder, KEY_FILE, opening, || {
        SigningKey::generate().to_text()
    })?
    .ok_or_else(|| {
        in_file(
            folder,
            KEY_FILE,
            &"no key file here (`missive serve` creates it)",
        )
    })?;
    SigningKey::parse_set(&text).map_err(|e| in_file(folder, KEY_FILE, &e))
}

/// The archive key set in `folder`'s archive key file, made as [`in_folder`] makes its
/// key; empty when there is no such file and it may not be created (the games then export
/// unsigned).
pub(crate) fn archive_keys_in_folder(
    folder: &Path,
    opening: Opening,
) -> Result<Vec<KeyPair>, SettingsError> {
    let generate = || KeyPair::generate().secret_text();
    match key_file(folder, ARCHIVE_KEY_FILE, opening, generate)? {
        Some(text) => archive_key_set(&text).map_err(|e| in_file(folder, ARCHIVE_KEY_FILE, &e)),
        None => Ok(Vec::new()),
    }
}

/// Reads an archive key set: one `ed25519-secret:BASE64` a line, oldest first (the last
/// one signs), blank lines and `#` comments left out, as token key sets are written; at
/// least one key, a bad line named by its number.
pub fn archive_key_set(text: &str) -> Result<Vec<KeyPair>, String> {
    let keys = missive_auth::key_lines(text)
        .map(|(number, line)| KeyPair::from_text(line).map_err(|e| format!("line {number}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    if keys.is_empty() {
        return Err("no key in the text".into());
    }
    Ok(keys)
}

/// The text of `folder`'s file `name`; if there is none, `generate`'s written there (only
/// its owner may read it) with [`Opening::MayCreate`] (or the one another process wrote
/// there meanwhile), else none.
fn key_file(
    folder: &Path,
    name: &str,
    opening: Opening,
    generate: impl FnOnce() -> String,
) -> Result<Option<String>, SettingsError> {
    let file = folder.join(name);
    let failed = |e: &dyn std::fmt::Display| in_file(folder, name, e);
    match std::fs::read_to_string(&file) {
        Ok(text) => Ok(Some(text)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => match opening {
            Opening::MustExist => Ok(None),
            Opening::MayCreate => {
                let text = generate();
                std::fs::create_dir_all(folder).map_err(|e| failed(&e))?;
                match write_private(&file, &text) {
                    Ok(()) => Ok(Some(text)),
                    // Another process made it first: its key stands.
                    Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                        std::fs::read_to_string(&file)
                            .map(Some)
                            .map_err(|e| failed(&e))
                    }
                    Err(error) => Err(failed(&error)),
                }
            }
        },
        Err(error) => Err(failed(&error)),
    }
}

/// A key error about `folder`'s file `name`.
fn in_file(folder: &Path, name: &str, error: &dyn std::fmt::Display) -> SettingsError {
    SettingsError::Key(format!("{}: {error}", folder.join(name).display()))
}

/// The key set held by the SSM parameter `name` (a SecureString, decrypted by SSM), through
/// the standard AWS configuration.
pub(crate) async fn from_parameter(name: &str) -> Result<Vec<SigningKey>, SettingsError> {
    let text = parameter_text(name).await?;
    SigningKey::parse_set(&text).map_err(|e| parameter_error(name, &e))
}

/// The VAPID key held by the SSM parameter `name`, read as [`from_parameter`] reads.
pub(crate) async fn vapid_from_parameter(name: &str) -> Result<VapidKey, SettingsError> {
    let text = parameter_text(name).await?;
    VapidKey::parse(&text).map_err(|e| parameter_error(name, &e))
}

/// The VAPID key in `folder`'s VAPID key file, made there on first start as
/// [`in_folder`] makes its key; `None` when there is none and it may not be created.
pub(crate) fn vapid_in_folder(
    folder: &Path,
    opening: Opening,
) -> Result<Option<VapidKey>, SettingsError> {
    let generate = || VapidKey::generate().to_text();
    key_file(folder, VAPID_KEY_FILE, opening, generate)?
        .map(|text| VapidKey::parse(&text).map_err(|e| in_file(folder, VAPID_KEY_FILE, &e)))
        .transpose()
}

/// A key error about SSM parameter `name`.
fn parameter_error(name: &str, error: &dyn std::fmt::Display) -> SettingsError {
    SettingsError::Key(format!("SSM parameter {name}: {error}"))
}

/// The text of the SSM parameter `name` (a SecureString, decrypted by SSM).
async fn parameter_text(name: &str) -> Result<String, SettingsError> {
    let failed = |e: &dyn std::fmt::Display| parameter_error(name, e);
    let config = missive_aws::config().await;
    let answer = aws_sdk_ssm::Client::new(&config)
        .get_parameter()
        .name(name)
        .with_decryption(true)
        .send()
        .await
        .map_err(|e| failed(&aws_sdk_ssm::error::DisplayErrorContext(e)))?;
    let text = answer
        .parameter()
        .and_then(|parameter| parameter.value())
        .ok_or_else(|| failed(&"the parameter has no value"))?;
    Ok(text.to_string())
}

/// Replaces the text of `file` with `text` at once: written to a fresh file beside it (only
/// its owner may read it), then renamed over it, so a reader sees the old text or the new,
/// never a part.
pub fn replace_key_file(file: &Path, text: &str) -> std::io::Result<()> {
    let name = file
        .file_name()
        .map_or("key".into(), |n| n.to_string_lossy());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let temporary = file.with_file_name(format!(".{name}.{}-{nanos}", std::process::id()));
    write_private(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, file))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&temporary);
        })
}

#[cfg(unix)]
fn write_private(file: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(file)?;
    out.write_all(text.as_bytes())?;
    out.sync_all()
}

#[cfg(not(unix))]
fn write_private(file: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(file, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh, empty folder in the temporary folder.
    fn folder(name: &str) -> std::path::PathBuf {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let folder = std::env::temp_dir().join(format!(
            "missive-settings-{name}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&folder).unwrap();
        folder
    }

    #[test]
    fn a_key_file_of_several_lines_is_a_key_set_and_a_missing_one_is_made() {
        let made = folder("made");
        let first = in_folder(&made, Opening::MayCreate).unwrap();
        assert_eq!(first.len(), 1);
        let again = in_folder(&made, Opening::MustExist).unwrap();
        assert_eq!(again[0].id(), first[0].id());

        let rotated = folder("rotated");
        let [old, new] = [SigningKey::generate(), SigningKey::Ed25519([5; 32])];
        let text = format!("{}\n# rotated in\n{}\n", old.to_text(), new.to_text());
        std::fs::write(rotated.join(KEY_FILE), text).unwrap();
        let set = in_folder(&rotated, Opening::MustExist).unwrap();
        let ids: Vec<String> = set.iter().map(SigningKey::id).collect();
        assert_eq!(ids, [old.id(), new.id()]);

        let [a, b] = [KeyPair::from_seed([1; 32]), KeyPair::from_seed([2; 32])];
        let text = format!("{}\n{}", a.secret_text(), b.secret_text());
        std::fs::write(rotated.join(ARCHIVE_KEY_FILE), text).unwrap();
        let set = archive_keys_in_folder(&rotated, Opening::MustExist).unwrap();
        let ids: Vec<String> = set.iter().map(KeyPair::id).collect();
        assert_eq!(ids, [a.id(), b.id()]);
        assert!(
            archive_keys_in_folder(&folder("none"), Opening::MustExist)
                .unwrap()
                .is_empty()
        );
        for dir in [made, rotated] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }

    #[test]
    fn archive_key_sets_name_a_bad_line() {
        let good = KeyPair::from_seed([1; 32]).secret_text();
        assert_eq!(archive_key_set(&format!("\n{good}\n")).unwrap().len(), 1);
        let error = archive_key_set(&format!("{good}\ned25519-secret:AAAA")).unwrap_err();
        assert!(error.starts_with("line 2:"), "{error}");
        assert!(archive_key_set("# none\n").is_err());
    }

    #[test]
    fn a_replaced_key_file_holds_the_new_text_for_its_owner_only() {
        let dir = folder("replaced");
        let file = dir.join(KEY_FILE);
        std::fs::write(&file, "old\n").unwrap();
        replace_key_file(&file, "new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
