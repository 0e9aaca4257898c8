//! `missive push keygen`: a VAPID key for Web Push (RFC 8292), for a deployment that keeps
//! it in an SSM parameter (`missive serve` makes its own, `vapid.key` beside the database).

use clap::Subcommand;
use missive_auth::VapidKey;

/// `missive push ...`.
#[derive(Subcommand)]
pub enum PushCommand {
    /// Print a fresh VAPID key (`vapid:BASE64URL`) on standard output, and its public key
    /// (what apps subscribe with) on standard error.
    Keygen,
}

/// Runs a push command.
pub fn run(command: &PushCommand) -> Result<(), String> {
    match command {
        PushCommand::Keygen => {
            let key = VapidKey::generate();
            println!("{}", key.to_text());
            eprintln!("public key: {}", key.public_key());
            Ok(())
        }
    }
}
