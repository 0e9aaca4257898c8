//! The inbox folder of one machine (`missive serve`'s `./inbox/`): each `.eml` file put
//! there (whole: hidden names and other extensions are left alone, so a writer renames a
//! finished file in) is handled once by [`Replies::handle`] and moved to `done/`, or to
//! `failed/` beside a `.reason` file saying why when it played nothing and told nobody, or
//! could not be handled.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::{InboundError, Outcome, Replies};

/// Where a handled file goes, under the inbox folder.
pub const DONE: &str = "done";
/// Where a file goes that played nothing and told nobody, or failed.
pub const FAILED: &str = "failed";

/// Handles the inbox `folder` every `period` until `stop` holds `true`.
pub async fn watch(
    replies: &Replies,
    folder: &Path,
    period: Duration,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    loop {
        if let Err(error) = handle_folder(replies, folder).await {
            tracing::warn!(folder = %folder.display(), %error, "inbox not read");
        }
        tokio::select! {
            () = tokio::time::sleep(period) => {}
            stopped = async { stop.wait_for(|stop| *stop).await.is_ok() } => match stopped {
                true => return,
                // A stop whose sender is gone never comes: only sleep then.
                false => tokio::time::sleep(period).await,
            },
        }
    }
}

/// Handles every mail file in `folder` now, oldest name first: how many. A missing
/// folder holds none.
pub async fn handle_folder(replies: &Replies, folder: &Path) -> Result<usize, InboundError> {
    let mut files = mail_files(folder).await?;
    files.sort();
    for file in &files {
        handle_file(replies, folder, file).await?;
    }
    Ok(files.len())
}

/// The `.eml` files directly in `folder`, hidden ones left out.
async fn mail_files(folder: &Path) -> Result<Vec<PathBuf>, InboundError> {
    let mut entries = match tokio::fs::read_dir(folder).await {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error.into()),
    };
    let mut files = Vec::new();
    while let Some(entry) = entries.next_entry().await? {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && name.ends_with(".eml") && entry.file_type().await?.is_file() {
            files.push(path);
        }
    }
    Ok(files)
}

/// Handles one file and moves it where its outcome says.
async fn handle_file(replies: &Replies, folder: &Path, file: &Path) -> Result<(), InboundError> {
    let raw = tokio::fs::read(file).await?;
    let failure = match replies.handle(&raw, &[]).await {
        Ok(Outcome::Dropped { why }) => Some(why),
        Ok(outcome) => {
            tracing::info!(file = %file.display(), ?outcome, "reply by mail handled");
            None
        }
        Err(error) => {
            tracing::warn!(file = %file.display(), %error, "reply by mail failed");
            Some(error.to_string())
        }
    };
    let place = folder.join(if failure.is_some() { FAILED } else { DONE });
    let moved = move_into(file, &place).await?;
    if let Some(why) = failure {
        let mut reason = moved.into_os_string();
        reason.push(".reason");
        tokio::fs::write(reason, format!("{why}\n")).await?;
    }
    Ok(())
}

/// Moves `file` into `place` (created if needed) under its name, or a fresh one if that
/// is taken there: its new path.
async fn move_into(file: &Path, place: &Path) -> Result<PathBuf, InboundError> {
    tokio::fs::create_dir_all(place).await?;
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    let mut target = place.join(name.as_ref());
    if tokio::fs::try_exists(&target).await? {
        target = place.join(format!("{}-{name}", ulid::Ulid::new()));
    }
    tokio::fs::rename(file, &target).await?;
    Ok(target)
}
