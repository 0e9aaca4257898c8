//! Where the signing key comes from besides the settings themselves: the key file in the
//! data folder, or an SSM parameter read once at start-up.

use std::path::Path;

use missive_auth::SigningKey;

use crate::{Opening, SettingsError};

/// Name of the key file written into the data folder on first local start.
pub const KEY_FILE: &str = "missive.key";

/// The key in `folder`'s key file; if there is none, a fresh key written there with
/// [`Opening::MayCreate`], else an error naming the file.
pub(crate) fn in_folder(folder: &Path, opening: Opening) -> Result<SigningKey, SettingsError> {
    let file = folder.join(KEY_FILE);
    let failed = |e: &dyn std::fmt::Display| SettingsError::Key(format!("{}: {e}", file.display()));
    match std::fs::read_to_string(&file) {
        Ok(text) => SigningKey::parse(&text).map_err(|e| failed(&e)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => match opening {
            Opening::MustExist => Err(failed(&"no key file here (`missive serve` creates it)")),
            Opening::MayCreate => {
                let key = SigningKey::generate();
                std::fs::create_dir_all(folder).map_err(|e| failed(&e))?;
                write_private(&file, &key.to_text()).map_err(|e| failed(&e))?;
                Ok(key)
            }
        },
        Err(error) => Err(failed(&error)),
    }
}

/// The key held by the SSM parameter `name` (a SecureString, decrypted by SSM), through
/// the standard AWS configuration.
pub(crate) async fn from_parameter(name: &str) -> Result<SigningKey, SettingsError> {
    let failed =
        |e: &dyn std::fmt::Display| SettingsError::Key(format!("SSM parameter {name}: {e}"));
    let config = aws_config::load_defaults(aws_config::BehaviorVersion::latest()).await;
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
    SigningKey::parse(text).map_err(|e| failed(&e))
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
    out.write_all(text.as_bytes())
}

#[cfg(not(unix))]
fn write_private(file: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(file, text)
}
