//! The key tools of a local store: `missive key rotate|list|remove`, on the key file beside
//! the SQLite database (`missive.key`, the token keys; with `--archive`, `archive.key`, the
//! archive keys). A key file holds a key set, one key a line, oldest first: the last one
//! signs, every one verifies. `rotate` appends a fresh key, `list` shows each key's id, kind
//! and place (never its secret), `remove` drops a retired key. The file is replaced at
//! once (a fresh file renamed over it, readable by its owner only); `missive serve` reads
//! it when it starts.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use missive_archive::KeyPair;
use missive_auth::{SigningKey, key_lines};
use missive_settings::{ARCHIVE_KEY_FILE, KEY_FILE, replace_key_file};
use missive_store::StoreSetting;

/// `missive key ...`.
#[derive(Subcommand)]
pub enum KeyCommand {
    /// Append a fresh key to the key file: it signs from the next start of `missive serve`,
    /// and the keys before it go on verifying what they signed until removed.
    Rotate(KeyArgs),
    /// Print each key's place, id and kind, oldest first, marking the one that signs (the
    /// last); never a secret.
    List(KeyArgs),
    /// Remove the key with this id (as `list` prints it); the signing key stays.
    Remove(RemoveArgs),
}

/// Which key file of which store.
#[derive(Args)]
pub struct KeyArgs {
    /// The store: `sqlite:PATH`; its key files are beside the database.
    #[arg(long, env = missive_store::ENV_VAR)]
    store: StoreSetting,
    /// The archive keys (`archive.key`) rather than the token keys (`missive.key`).
    #[arg(long)]
    archive: bool,
}

/// Arguments of `missive key remove`.
#[derive(Args)]
pub struct RemoveArgs {
    /// The id of the key to remove.
    id: String,
    #[command(flatten)]
    file: KeyArgs,
}

/// What a key file holds: token keys or archive keys.
#[derive(Clone, Copy)]
enum Kind {
    Tokens,
    Archive,
}

impl Kind {
    /// The file's name in the data folder.
    fn file_name(self) -> &'static str {
        match self {
            Kind::Tokens => KEY_FILE,
            Kind::Archive => ARCHIVE_KEY_FILE,
        }
    }

    /// A fresh key's line.
    fn fresh(self) -> String {
        match self {
            Kind::Tokens => SigningKey::generate().to_text(),
            Kind::Archive => KeyPair::generate().secret_text(),
        }
    }

    /// The id and kind of the key written on `line`.
    fn describe(self, line: &str) -> Result<(String, &'static str), String> {
        match self {
            Kind::Tokens => SigningKey::parse(line)
                .map(|key| (key.id(), key.kind()))
                .map_err(|e| e.to_string()),
            Kind::Archive => KeyPair::from_text(line)
                .map(|key| (key.id(), "ed25519"))
                .map_err(|e| e.to_string()),
        }
    }
}

/// One key of a key file: the number of its line, its id and its kind.
struct Entry {
    line: usize,
    id: String,
    kind: &'static str,
}

/// A key file as read: where it is, its text and its keys, oldest first.
struct KeyFile {
    path: PathBuf,
    text: String,
    entries: Vec<Entry>,
}

impl KeyFile {
    /// The key file `args` name, read; an error names the file and says why.
    fn open(args: &KeyArgs) -> Result<KeyFile, String> {
        let kind = args.kind();
        let StoreSetting::Sqlite(database) = &args.store else {
            return Err(
                "`missive key` works on the key files of a SQLite store; a DynamoDB \
                 deployment keeps its keys in its settings (MISSIVE_SIGNING_KEY_PARAMETER, \
                 MISSIVE_ARCHIVE_KEY): see \"Rotating keys\" in the README"
                    .into(),
            );
        };
        let path = database
            .parent()
            .unwrap_or(Path::new("."))
            .join(kind.file_name());
        let text = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => format!(
                "{}: no key file here (`missive serve` creates it on its first start)",
                path.display()
            ),
            _ => format!("{}: {e}", path.display()),
        })?;
        let entries = key_lines(&text)
            .map(|(line, key)| {
                let (id, kind) = kind
                    .describe(key)
                    .map_err(|e| format!("{}, line {line}: {e}", path.display()))?;
                Ok(Entry { line, id, kind })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(KeyFile {
            path,
            text,
            entries,
        })
    }

    /// Writes `text` as the file's new text, at once.
    fn replace(&self, text: &str) -> Result<(), String> {
        replace_key_file(&self.path, text).map_err(|e| format!("{}: {e}", self.path.display()))
    }

    /// The ids of the keys, oldest first, for messages.
    fn ids(&self) -> String {
        let ids: Vec<&str> = self.entries.iter().map(|entry| entry.id.as_str()).collect();
        ids.join(", ")
    }
}

impl KeyArgs {
    /// The kind of key file the arguments name.
    fn kind(&self) -> Kind {
        match self.archive {
            true => Kind::Archive,
            false => Kind::Tokens,
        }
    }
}

/// Runs a key subcommand.
pub fn run(command: &KeyCommand) -> Result<(), String> {
    match command {
        KeyCommand::Rotate(args) => rotate(args),
        KeyCommand::List(args) => list(args),
        KeyCommand::Remove(args) => remove(args),
    }
}

/// Appends a fresh key and says which one signs from the next start.
fn rotate(args: &KeyArgs) -> Result<(), String> {
    let file = KeyFile::open(args)?;
    let fresh = args.kind().fresh();
    let (id, _) = args.kind().describe(&fresh)?;
    let mut text = file.text.clone();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&fresh);
    text.push('\n');
    file.replace(&text)?;
    println!(
        "added key {id} to {}: it signs from the next start of `missive serve`; {} verify \
         until removed (`missive key remove ID`)",
        file.path.display(),
        match file.entries.len() {
            1 => "the key before it goes on to".to_string(),
            n => format!("the {n} keys before it go on to"),
        }
    );
    Ok(())
}

/// Prints `PLACE  ID  KIND`, oldest first, `signs` after the last.
fn list(args: &KeyArgs) -> Result<(), String> {
    let file = KeyFile::open(args)?;
    let last = file.entries.len();
    for (place, entry) in file.entries.iter().enumerate() {
        let signs = if place + 1 == last { "  signs" } else { "" };
        println!("{}  {}  {}{signs}", place + 1, entry.id, entry.kind);
    }
    Ok(())
}

/// Drops the key `args.id`, unless it is the signing key or no key of the file.
fn remove(args: &RemoveArgs) -> Result<(), String> {
    let file = KeyFile::open(&args.file)?;
    let Some(signing) = file.entries.last() else {
        return Err(format!("{}: no key in the file", file.path.display()));
    };
    if signing.id == args.id {
        return Err(format!(
            "key {} signs: it cannot be removed (rotate first, then remove it once what it \
             signed has expired)",
            args.id
        ));
    }
    let lines: Vec<usize> = file
        .entries
        .iter()
        .filter(|entry| entry.id == args.id)
        .map(|entry| entry.line)
        .collect();
    if lines.is_empty() {
        return Err(format!(
            "no key {} in {} (its keys: {})",
            args.id,
            file.path.display(),
            file.ids()
        ));
    }
    let text: String = file
        .text
        .lines()
        .enumerate()
        .filter(|(index, _)| !lines.contains(&(index + 1)))
        .map(|(_, line)| format!("{line}\n"))
        .collect();
    file.replace(&text)?;
    println!(
        "removed key {} from {}: from the next start of `missive serve` what it signed is \
         refused",
        args.id,
        file.path.display()
    );
    Ok(())
}
