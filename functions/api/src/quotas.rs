//! The settings of the service's limits on what one sender may have it do: mails per
//! recipient, per client and per player, imports per player, a tournament start's batches
//! and working time, open challenges per player ([`missive_game::Quotas`], whose defaults they share). Every quota is
//! counted in the store, so it holds across processes.

use std::time::Duration;

use clap::Args;
use missive_game::Quotas;

/// Quotas on mails, imports, tournament starts and open challenges (0 turns a quota off).
#[derive(Args, Clone, Debug)]
pub struct QuotaSettings {
    /// Mails requests ask for (sign-in and sign-up links, game and tournament invitations)
    /// to one address per mail window, whoever asks.
    #[arg(long, env = "MISSIVE_MAILS_PER_ADDRESS", default_value_t = Quotas::default().mails_per_address)]
    pub mails_per_address: u64,
    /// Sign-in and sign-up mails one client address (IPv6: its /64) may ask for per mail
    /// window.
    #[arg(long, env = "MISSIVE_MAILS_PER_CLIENT", default_value_t = Quotas::default().mails_per_client)]
    pub mails_per_client: u64,
    /// Invitation mails (games and tournaments) one player may have sent per mail window.
    #[arg(long, env = "MISSIVE_MAILS_PER_PLAYER", default_value_t = Quotas::default().mails_per_player)]
    pub mails_per_player: u64,
    /// The mail window, in seconds.
    #[arg(long, env = "MISSIVE_MAIL_WINDOW", default_value_t = Quotas::default().mail_window,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub mail_window: u64,
    /// Bytes of archive text one player may post for import per UTC day.
    #[arg(long, env = "MISSIVE_IMPORT_BYTES_PER_DAY", default_value_t = Quotas::default().import_bytes_per_day)]
    pub import_bytes_per_day: u64,
    /// Games one player may post for import per UTC day.
    #[arg(long, env = "MISSIVE_IMPORT_GAMES_PER_DAY", default_value_t = Quotas::default().import_games_per_day)]
    pub import_games_per_day: u64,
    /// Games one import request may carry.
    #[arg(long, env = "MISSIVE_IMPORT_GAMES_PER_REQUEST", default_value_t = Quotas::default().import_games_per_request)]
    pub import_games_per_request: u64,
    /// Imports one player may run at once.
    #[arg(long, env = "MISSIVE_IMPORTS_AT_ONCE", default_value_t = Quotas::default().imports_at_once)]
    pub imports_at_once: u64,
    /// Seconds one import request may work, reading and storing (fractions allowed).
    #[arg(long, env = "MISSIVE_IMPORT_SECONDS", default_value_t = Quotas::default().import_time.as_secs_f64(),
          value_parser = seconds)]
    pub import_seconds: f64,
    /// Games a tournament's start creates per store call.
    #[arg(long, env = "MISSIVE_TOURNAMENT_START_BATCH", default_value_t = Quotas::default().start_batch,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub tournament_start_batch: u64,
    /// Seconds one start of a tournament (a request's, or a sweep's) creates games before
    /// leaving the rest to the sweep (fractions allowed; 0: one batch).
    #[arg(long, env = "MISSIVE_TOURNAMENT_START_SECONDS", default_value_t = Quotas::default().start_time.as_secs_f64(),
          value_parser = seconds)]
    pub tournament_start_seconds: f64,
    /// Challenges one player may have open at once (not withdrawn, accepted or expired).
    #[arg(long, env = "MISSIVE_OPEN_CHALLENGES", default_value_t = Quotas::default().open_challenges)]
    pub open_challenges: u64,
}

impl QuotaSettings {
    /// The limits these settings give.
    pub fn limits(&self) -> Quotas {
        Quotas {
            mails_per_address: self.mails_per_address,
            mails_per_client: self.mails_per_client,
            mails_per_player: self.mails_per_player,
            mail_window: self.mail_window,
            import_bytes_per_day: self.import_bytes_per_day,
            import_games_per_day: self.import_games_per_day,
            import_games_per_request: self.import_games_per_request,
            imports_at_once: self.imports_at_once,
            import_time: Duration::from_secs_f64(self.import_seconds),
            start_batch: self.tournament_start_batch,
            start_time: Duration::from_secs_f64(self.tournament_start_seconds),
            open_challenges: self.open_challenges,
        }
    }
}

/// A number of seconds: finite, not negative, at most a day.
fn seconds(text: &str) -> Result<f64, String> {
    let value: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=86_400.0).contains(&value) {
        Ok(value)
    } else {
        Err("expected 0 to 86400 seconds".into())
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        quotas: QuotaSettings,
    }

    #[test]
    fn the_defaults_are_the_services_and_flags_change_them() {
        let defaults = Command::parse_from(["missive"]).quotas.limits();
        assert_eq!(defaults, Quotas::default());
        let set = Command::parse_from([
            "missive",
            "--mails-per-address",
            "2",
            "--import-seconds",
            "0.5",
            "--tournament-start-batch",
            "20",
            "--tournament-start-seconds",
            "2.5",
            "--open-challenges",
            "3",
        ])
        .quotas
        .limits();
        assert_eq!(set.mails_per_address, 2);
        assert_eq!(set.import_time, Duration::from_millis(500));
        assert_eq!(set.start_batch, 20);
        assert_eq!(set.start_time, Duration::from_millis(2500));
        assert_eq!(set.open_challenges, 3);
        assert!(Command::try_parse_from(["missive", "--tournament-start-batch", "0"]).is_err());
        assert!(Command::try_parse_from(["missive", "--import-seconds", "-1"]).is_err());
        assert!(Command::try_parse_from(["missive", "--mail-window", "0"]).is_err());
    }
}
