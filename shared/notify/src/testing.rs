//! A notifier over a fresh store for tests (feature `testing`): the game service with a
//! hand-driven clock, a known token authority, a real outbox in the temporary folder, and
//! two registered players, ann and bob.

use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use missive_auth::{Authority, SigningKey};
use missive_domain::{GameId, TimeControl};
use missive_game::{GameService, ManualClock, MoveRequest, NewGame, SeatRequest};
use missive_mail::Outbox;
use missive_store::testing::{Kind, TestStore, unique_name};

use crate::Notifier;

/// The public URL links are minted for.
pub const URL: &str = "http://missive.test";

/// A notifier and everything around it; the outbox is removed when this is dropped.
pub struct Setup {
    /// The game service over the store.
    pub service: GameService,
    /// The clock of the service and the notifier, standing at [`start`].
    pub clock: Arc<ManualClock>,
    /// Mints and checks the mailed tokens.
    pub authority: Arc<Authority>,
    /// The notifier under test.
    pub notifier: Notifier,
    /// Where mail is written.
    pub outbox: PathBuf,
    _test: TestStore,
}

impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.outbox);
    }
}

/// A mail as read back from the outbox.
#[derive(Debug)]
pub struct Sent {
    /// The `To` header.
    pub to: String,
    /// The `Subject` header.
    pub subject: String,
    /// The whole message.
    pub text: String,
}

impl Sent {
    /// The token of the first link to `{URL}/{path}/` (or panics).
    pub fn token(&self, path: &str) -> String {
        let prefix = format!("{URL}/{path}/");
        let start = self.text.find(&prefix).expect("a link") + prefix.len();
        self.text[start..]
            .split(|c: char| c.is_whitespace() || c == '>')
            .next()
            .unwrap_or_default()
            .to_string()
    }
}

/// Monday 2030-01-07, 08:00 UTC: past the default digest hour.
pub fn start() -> DateTime<Utc> {
    DateTime::from_timestamp(1_894_003_200, 0).unwrap_or_default()
}

impl Setup {
    /// A fresh store of `kind` with ann and bob signed up, the clock at [`start`].
    pub async fn new(kind: Kind) -> Setup {
        let test = TestStore::new(kind).await;
        let clock = Arc::new(ManualClock::new(start()));
        let service = GameService::new(test.store.clone(), clock.clone());
        let authority =
            Arc::new(Authority::new(&SigningKey::generate(), "m", "m").expect("a fresh key"));
        let outbox = std::env::temp_dir().join(unique_name("missive-notify"));
        let notifier = Notifier::new(
            service.clone(),
            authority.clone(),
            Arc::new(Outbox::new(&outbox, "missive@example.org")),
            clock.clone(),
            URL,
        );
        for handle in ["ann", "bob"] {
            service
                .sign_up(handle, &format!("{handle}@example.org"))
                .await
                .expect("sign up");
        }
        Setup {
            service,
            clock,
            authority,
            notifier,
            outbox,
            _test: test,
        }
    }

    /// A started chess game, ann white, bob black, 3 days per move.
    pub async fn chess(&self) -> GameId {
        let id = self
            .service
            .create_game(NewGame {
                creator: "ann".into(),
                variant: "chess".into(),
                options: String::new(),
                start_position: None,
                seats: vec![SeatRequest::Creator, SeatRequest::Open],
                time_control: TimeControl::DaysPerMove { days: 3 },
                rated: false,
                private: false,
            })
            .await
            .expect("create a game");
        self.service.join(&id, "bob", None).await.expect("join");
        id
    }

    /// Plays `text` for `player` at `ply` (or panics).
    pub async fn play(&self, id: &GameId, player: &str, text: &str, ply: u32) {
        let request = MoveRequest {
            player: player.into(),
            expected_ply: ply,
            key: format!("{player}-{ply}"),
            text: text.into(),
            offer_draw: false,
        };
        self.service
            .submit_move(id, &request)
            .await
            .expect("an accepted move");
    }

    /// Every mail in the outbox, oldest first, and empties it.
    pub fn take_mail(&self) -> Vec<Sent> {
        let Ok(entries) = std::fs::read_dir(&self.outbox) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        files
            .into_iter()
            .map(|file| {
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                let _ = std::fs::remove_file(&file);
                let header = |name: &str| {
                    text.lines()
                        .find_map(|line| line.strip_prefix(&format!("{name}: ")))
                        .unwrap_or_default()
                        .to_string()
                };
                Sent {
                    to: header("To"),
                    subject: header("Subject"),
                    text: text.clone(),
                }
            })
            .collect()
    }
}
