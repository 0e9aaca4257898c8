//! A scheduler over a fresh store for tests (feature `testing`): the game service with a
//! hand-driven clock, a known token authority, a real outbox in the temporary folder, and
//! two registered players, ann and bob.

use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use mail_parser::{MessageParser, MimeHeaders};
use missive_auth::{Authority, SigningKey};
use missive_domain::{GameId, TimeControl};
use missive_game::{GameService, ManualClock, MoveRequest, NewGame, SeatRequest};
use missive_mail::Outbox;
use missive_store::testing::{Kind, TestStore, unique_name};

use crate::Scheduler;

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
    /// The scheduler under test.
    pub notifier: Scheduler,
    /// Where mail is written.
    pub outbox: PathBuf,
    _test: TestStore,
}

impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.outbox);
    }
}

/// A mail as read back from the outbox with a MIME parser.
#[derive(Debug)]
pub struct Sent {
    /// The `To` address.
    pub to: String,
    /// The `Subject`, decoded.
    pub subject: String,
    /// The plain-text part, decoded.
    pub text: String,
    /// The HTML part, decoded (empty if none).
    pub html: String,
    /// The parts that are neither, such as the board picture.
    pub inline: Vec<SentPart>,
    /// The whole message as written.
    pub raw: String,
}

/// A part of a sent mail beside its text and HTML.
#[derive(Debug)]
pub struct SentPart {
    /// Its `Content-ID`, without angle brackets.
    pub content_id: String,
    /// Its media type, `type/subtype`.
    pub content_type: String,
    /// Its decoded bytes.
    pub data: Vec<u8>,
}

impl Sent {
    /// The mail in the RFC 5322 message `raw` (or panics if it is none).
    pub fn read(raw: &str) -> Sent {
        let message = MessageParser::default().parse(raw).expect("a MIME message");
        let to = message
            .to()
            .and_then(|to| to.first())
            .and_then(|to| to.address())
            .unwrap_or_default()
            .to_string();
        let inline = message
            .attachments()
            .map(|part| SentPart {
                content_id: part.content_id().unwrap_or_default().to_string(),
                content_type: part.content_type().map_or_else(String::new, |kind| {
                    format!("{}/{}", kind.ctype(), kind.subtype().unwrap_or_default())
                }),
                data: part.contents().to_vec(),
            })
            .collect();
        Sent {
            to,
            subject: message.subject().unwrap_or_default().to_string(),
            text: message
                .body_text(0)
                .unwrap_or_default()
                .replace("\r\n", "\n"),
            html: message
                .body_html(0)
                .unwrap_or_default()
                .replace("\r\n", "\n"),
            inline,
            raw: raw.to_string(),
        }
    }

    /// The token of the first link to `{URL}/{path}/` in the text part (or panics).
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
        let notifier = Scheduler::new(
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

    /// The store's work so far ([`missive_store::OperatorStore::usage`]).
    pub fn usage(&self) -> missive_store::Usage {
        self._test.store.usage()
    }

    /// The store's round trips, reads and writes since `before` (a [`Setup::usage`]).
    pub fn work_since(&self, before: missive_store::Usage) -> (u64, u64, u64) {
        let work = self.usage().since(before);
        (work.round_trips, work.reads, work.writes)
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
            message: None,
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
                let raw = std::fs::read_to_string(&file).unwrap_or_default();
                let _ = std::fs::remove_file(&file);
                Sent::read(&raw)
            })
            .collect()
    }
}
