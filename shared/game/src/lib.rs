//! Missive's game service: the use cases of correspondence play, over the rules registry
//! and a [`missive_store::Store`], with time read from a [`Clock`]. No HTTP here: the API,
//! the command line and the sweeper call these functions.
//!
//! # Use cases
//! - **Lobby** ([`GameService::create_game`], [`GameService::join`],
//!   [`GameService::decline`], [`GameService::abort`]): a game names its variant, options,
//!   seats (the creator's, invited players', open seats; 2 or 3 as the variant has), time
//!   control (1, 2, 3, 5, 7, 10 or 14 days per move, or ICCF style N moves in D days) and
//!   whether it is rated. It starts when the last seat is taken; an invited player may
//!   decline (the game is cancelled); a seated player may abort before the first move.
//! - **Moves** ([`GameService::submit_move`]): by the seat to move, against the ply the
//!   client saw (`expected_ply`, else a conflict naming the current ply) with an
//!   idempotency key (a retry returns the first answer and plays nothing); short or long
//!   notation; validated by the rules; appended with the head advanced and the next
//!   deadline computed, in one conditional write. A move after the deadline ends the game
//!   on time instead.
//! - **Ends** ([`GameService::offer_draw`] (also with a move), [`GameService::withdraw_draw`],
//!   [`GameService::accept_draw`], [`GameService::decline_draw`], [`GameService::claim_draw`],
//!   [`GameService::claim_timeout`], [`GameService::enforce_deadline`],
//!   [`GameService::resign`]): a draw needs the agreement of every seat still playing (a
//!   nation already out of a three-seat game has no say, cannot resign again, and keeps its
//!   loss); a move lapses the other seats' offers. Claims and time-outs get their result
//!   from the rules (a loss, or a draw against a side that cannot win, or what three-seat
//!   rules say); a claim the rules refuse is recorded in the log all the same.
//! - **Vacation** ([`GameService::take_vacation`], [`GameService::end_vacation`],
//!   [`GameService::vacation_balance`]): whole days, at most 45 per player per calendar year
//!   by default ([`Config`]), never overlapping, never in the past; they stop the player's
//!   clocks in every game, and each of the player's current games records a leave taken. A
//!   leave is cancelled before it starts or ended early, the days not used given back;
//!   every change makes the player's current games due for the notifier. Stored deadlines
//!   ignore vacations (vacations only extend them), so a move needs the player's vacations
//!   only when it arrives after the stored deadline; the game view, the lists and the
//!   notifier count them.
//! - **Conditional moves** ([`GameService::set_conditional_lines`]): lines of moves in
//!   turn order; when the moves before one of the owner's moves were played, the service
//!   plays it at once, in the same write, marked as played on the owner's behalf. A line
//!   the game leaves is dropped; nobody else
//!   sees them.
//! - **Challenges** ([`GameService::publish_challenge`], [`GameService::open_challenges`],
//!   [`GameService::accept_challenge`], [`GameService::withdraw_challenge`]): a game
//!   offered to anyone, listed newest first, filled seat by seat; the last seat taken
//!   creates the game, started, in the same write; unanswered, it expires after
//!   [`CHALLENGE_LIFETIME`].
//! - **Invitations** ([`GameService::invitations_of`], [`GameService::invitation_view`],
//!   [`GameService::accept_invitation`], [`GameService::decline_invitation`]): seats kept
//!   for a player or for an e-mail address not registered yet, answered through mailed
//!   links.
//! - **Messages** ([`GameService::post_message`], [`GameService::messages`]): plain text
//!   between a game's seated players, kept in its log, limited in length and rate.
//! - **Players** ([`GameService::sign_up`], [`GameService::player`],
//!   [`GameService::player_by_email`]): unique handles and e-mail addresses.
//! - **Application passwords** ([`GameService::create_app_password`],
//!   [`GameService::app_passwords`], [`GameService::revoke_app_password`],
//!   [`GameService::sign_in_with_app_password`]): secrets shown once, kept as argon2id
//!   hashes, for programs that cannot sign in by mail.
//! - **Read models** ([`GameService::game_view`], [`GameService::move_log`],
//!   [`GameService::waiting_for`], [`GameService::games_of`], [`GameService::finished_by`]).
//! - **Archive** ([`GameService::archive_record`], [`GameService::archive_text`],
//!   [`GameService::import_games`]): a game as an archive record with every move and event
//!   of its log, as archive text signed with the server's key (the newest of its set,
//!   [`GameService::with_archive_keys`]); finished games read from an archive, their seal
//!   checked against every key of the set, stored whole in one write for many, flagged as imported (and as verified when
//!   the server's signature holds), with the archive's player names.
//! - **Privacy**: a game created private is visible to its players only; every read model
//!   takes the viewer and answers `GameNotFound` to anyone else.
//! - **Check** ([`GameService::check_all`]): every stored log replays through the rules to
//!   exactly its head.
//!
//! - **Notices** ([`GameService::notice_state`], [`GameService::due`],
//!   [`GameService::move_wake`], [`GameService::claim_notice`], ...): what the notifier
//!   reads and claims, so that it never holds the store.
//! - **Upgrade** ([`GameService::upgrade_all`]): heads an earlier version wrote, rewritten
//!   with what this one keeps.
//!
//! # How a change is made
//! Every use case that changes a game reads its head (one round trip), takes the rules game
//! up from the head's resume point (the log is read only for retries, turns past their
//! stored deadline and heads of earlier versions), decides on the game (the domain's
//! [`missive_domain::Game`]) and commits it on the condition that the head is still at the
//! revision and ply read (one round trip). When
//! another writer got there first, it decides again on the new state: a move whose ply has
//! passed becomes a conflict, a retried key finds its first answer. Games reach the variants
//! only through the rules registry ([`missive_rules::registry`]), so the service knows no
//! variant by name.

#[cfg(feature = "openapi")]
pub mod api_schema;
mod app_passwords;
mod archive_import;
mod challenges;
mod check;
mod clock;
mod ending;
mod error;
mod feed;
pub mod hook_address;
mod hooks;
mod import;
mod invitations;
mod lobby;
mod messages;
mod notices;
mod play;
mod players;
mod quotas;
mod rating_periods;
mod rating_upgrade;
mod ratings;
mod record;
mod rules;
mod service;
mod sockets;
mod tournament_organiser;
mod tournament_start;
mod tournaments;
mod vacation;
mod vacation_log;
mod views;

pub use app_passwords::{
    HASH_MEMORY_KIB, HASHES_AT_ONCE, MAX_APP_PASSWORDS, MAX_LABEL, NewAppPassword, WAITING_TO_HASH,
};
pub use archive_import::{
    ArchiveImport, FILE_IMPORT_BATCH, ImportBatches, ImportPipeline, REQUEST_IMPORT_BATCH,
};
pub use challenges::{
    CHALLENGE_LIFETIME, ChallengeAccepted, ChallengeView, CreatorRating, NewChallenge, ShownRating,
};
pub use check::{CheckReport, check_game};
pub use clock::{Clock, ManualClock, SystemClock};
pub use error::ServiceError;
pub use feed::{EventView, EventsRead, MAX_EVENTS, MAX_WAIT};
pub use hooks::{HookCreated, HookEvent, HookView, MAX_HOOKS, MAX_PUSH, PushView};
pub use import::{ImportOutcome, PreparedImports};
pub use invitations::Invitee;
pub use lobby::{NewGame, SeatRequest};
pub use messages::{
    MAX_MESSAGE, MESSAGE_WINDOW, MESSAGES_PER_WINDOW, MessageView, messages_of, normalised,
};
/// The clocks of correspondence play, as the domain keeps them.
pub use missive_domain::timing;
pub use missive_store::{Membership, Wake, WakeSubject};
pub use play::{MoveAccepted, MoveRequest};
pub use players::{SignUpCheck, check_email, check_handle};
pub use quotas::{ImportPermit, Limit, Quotas, WorkTime};
pub use rating_periods::PERIOD_GRACE;
pub use ratings::{MAX_LEADERBOARD, rating_at};
pub use record::record_of;
pub use rules::replay;
pub use service::{Catalog, Changes, Config, GameService};
pub use tournaments::{
    MAX_TOURNAMENT_NAME, NewTournament, TIMEOUTS, TournamentStandings, WITHDREW,
};
pub use vacation::{OnLeave, PeriodView, Seated, VacationBalance, leave_at, on_leave};
pub use views::{EndingView, GameDetail, GameSummary, GameView, MoveView};
