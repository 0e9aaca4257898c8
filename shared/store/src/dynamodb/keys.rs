//! The table's key layout: every item's partition and sort key, the attributes the indexes
//! read, and how a game's items are told apart. The store and the stream decoder of the
//! notifier function read keys through this module only.
//!
//! | item | PK | SK | attributes |
//! | --- | --- | --- | --- |
//! | head | `GAME#<id>` | `HEAD` | `revision`, `ply`, `events`, `body` (the head as JSON), `wait_player` + `wait_deadline` while someone is to move |
//! | move | `GAME#<id>` | `MOVE#<ply, 6 digits>` | `seat`, `long`, `short`, `at`, `key`, `draw_offer`, `prev_hash`, `hash` |
//! | event | `GAME#<id>` | `EVENT#<seq, 6 digits>` | `seq`, `ply`, `seat`, `at`, `event` (JSON), `prev_hash`, `hash` |
//! | idempotency key | `GAME#<id>` | `RETRY#<seat>#<key>` | `ply` (written with the move, only if absent) |
//! | member | `GAME#<id>` | `SEATED#<player>` | `wait_queue` = `games#forming#<player>` or `games#active#<player>`, `wait_deadline` (creation or the turn's deadline) |
//! | wake-up | `GAME#<id>` | `WAKE` | `wait_queue` = `wake#<shard>`, `wait_deadline` (when the notifier is next due) |
//! | finished | `PLAYER#<player>` | `FINISHED#<ms, 13 digits>#<id>` | `body` (the final head) |
//! | cancelled | `PLAYER#<player>` | `CANCELLED#<ms, 13 digits>#<id>` | `body` (the head that called the game off; for its players and invitees) |
//! | vacation | `PLAYER#<player>` | `VACATION` | `revision`, `body` |
//! | player | `PLAYER#<player>` | `PROFILE` | `body` |
//! | e-mail | `EMAIL#<lower-cased address>` | `EMAIL` | `handle` |
//! | handle claim | `HANDLE#<lower-cased handle>` | `HANDLE` | `handle` (written with the player) |
//! | mail preference | `PLAYER#<player>` | `MAIL` | `preference` |
//! | notice marker | `NOTICE#<scope>` | `<name>` (see `Notice::key`) | `at` |
//! | used token | `TOKEN#<token id>` | `USED` | `expires_at` (seconds; the table's TTL attribute) |
//! | challenge | `CHALLENGE#<id>` | `CHALLENGE` | `revision`, `body` (the challenge as JSON) |
//! | challenge listing | `CHALLENGE#<id>` | `LIST#all`, `LIST#variant`, `LIST#time`, `LIST#both` | `wait_queue` = [`challenge_list`], `wait_deadline` (publication), `expires_ms`, `expires_at` (seconds; TTL), `body`; only while open |
//! | open challenge of a creator | `PLAYER#<creator>` | `OPENCHALLENGE#<id>` | `expires_ms`, `expires_at` (seconds; TTL); only while open (written with the challenge) |
//! | creator's publications | `PLAYER#<creator>` | `CHALLENGES` | `revision` (raised by every publication, which counts the creator's open challenges first) |
//! | message mail choice | `PLAYER#<player>` | `MESSAGES` | `choice` |
//! | counter | `COUNT#<name>` | `COUNT` | `used`, `expires_at` (seconds; the table's TTL attribute) |
//! | application password | `PLAYER#<player>` | `APPPASS#<id>` | `body` (the password's record as JSON, its hash included), `last_used` (ms) once used |
//! | webhook | `PLAYER#<player>` | `HOOK#<id>` | `revision`, `body`; `wait_queue` = `wake#<shard of its id>`, `wait_deadline` (when due) while active and due |
//! | socket | `PLAYER#<player>` | `SOCKET#<id>` | `revision`, `body`, `expires_at` (seconds; TTL) |
//! | socket's player | `SOCKET#<id>` | `SOCKET` | `player`, `expires_at` (seconds; TTL); written and removed with the socket |
//! | tournament | `TOURNAMENT#<id>` | `TOURNAMENT` | `revision`, `body`; `wait_queue` = `tournaments`, `wait_deadline` (creation) |
//! | tournament start | `TOURNAMENT#<id>` | `START` | `wait_queue` = `wake#<shard of its id>`, `wait_deadline` (its start date); only while open with one |
//! | rating | `PLAYER#<player>` | `RATING#<variant>` | `revision`, `body`; `wait_queue` = `ratings#<variant>`, `wait_deadline` (the rating in thousandths) |
//! | rating periods | `RATINGS` | `PERIODS#<variant>` | `through` (the last closed period's first day, `YYYY-MM-DD`) |
//! | rated game | `GAME#<id>` | `RATED` | `body`; `wait_queue` = `rated#<variant>#<period's first day>`, `wait_deadline` (when it ended) |
//! | feed item | `PLAYER#<player>` | `FEED#<ms, 13 digits>#<game or tournament>#<revision, 10 digits>#<n, 3 digits>` | `body` (the item as JSON), `expires_at` (seconds; TTL) |
//!
//! Indexes: `waiting` (`wait_player`, `wait_deadline`) holds the heads of games someone is
//! to move in; `deadlines` (`wait_queue`, `wait_deadline`) is the table's list index: the
//! member items (a player's current games, by deadline), the wake-ups (the sweep's
//! queue, in [`WAKE_SHARDS`] shards so that no partition caps it) and the open challenges'
//! listings (every open challenge is in four lists: all, its variant's, its time
//! control's, and both's, so each filter is one query). A game's log (its events,
//! head and moves) is one range of its partition, [`LOG_FROM`] to [`LOG_TO`]; its other
//! items sort outside it.

use chrono::NaiveDate;
use missive_domain::{Challenge, ChallengeId, GameId, HookId, SocketId, TimeControl, TournamentId};

use crate::Membership;

/// The sort key of a game's head.
pub const HEAD: &str = "HEAD";
/// The sort key of a game's wake-up.
pub const WAKE: &str = "WAKE";
/// The first sort key of a game's log range (events come first).
pub const LOG_FROM: &str = "EVENT#";
/// Past the last sort key of a game's log range (`$` sorts right after `#`).
pub const LOG_TO: &str = "MOVE$";
/// Shards of the sweep's queue.
pub const WAKE_SHARDS: u32 = 16;
/// The list index.
pub const LIST_INDEX: &str = "deadlines";
/// The index of the games waiting for a player.
pub const WAITING_INDEX: &str = "waiting";
/// The list index's partition attribute: which list an item is in.
pub const LIST: &str = "wait_queue";
/// The list index's sort attribute, and the waiting index's: a time in milliseconds.
pub const LIST_TIME: &str = "wait_deadline";
/// The waiting index's partition attribute: the player to move.
pub const WAIT_PLAYER: &str = "wait_player";

/// The partition of game `id`.
pub fn game_pk(id: &GameId) -> String {
    format!("GAME#{}", id.0)
}

/// The game a partition key names, if it is a game's.
pub fn game_of_pk(pk: &str) -> Option<GameId> {
    pk.strip_prefix("GAME#").map(|id| GameId(id.to_string()))
}

/// The partition of player `player`.
pub fn player_pk(player: &str) -> String {
    format!("PLAYER#{player}")
}

/// The partition of the claim on a handle: the handle without regard to case.
pub fn handle_pk(handle: &str) -> String {
    format!("HANDLE#{}", missive_domain::Player::handle_key(handle))
}

/// The partition of counter `name`.
pub fn counter_pk(name: &str) -> String {
    format!("COUNT#{name}")
}

/// The prefix of the sort keys of a player's application passwords.
pub const APP_PASSWORDS: &str = "APPPASS#";

/// The sort key of application password `id` in its player's partition.
pub fn app_password_sk(id: &str) -> String {
    format!("{APP_PASSWORDS}{id}")
}

/// The first sort key of a player's webhooks.
pub const HOOK_FROM: &str = "HOOK#";

/// The prefix of a player's sockets' sort keys.
pub const SOCKET_FROM: &str = "SOCKET#";
/// The sort key of the item naming a socket's player.
pub const SOCKET: &str = "SOCKET";

/// The sort key of socket `id` in its player's partition.
pub fn socket_sk(id: &SocketId) -> String {
    format!("{SOCKET_FROM}{id}")
}

/// The partition of the item naming socket `id`'s player.
pub fn socket_pk(id: &SocketId) -> String {
    format!("{SOCKET_FROM}{id}")
}

/// The sort key of webhook `id`.
pub fn hook_sk(id: &HookId) -> String {
    format!("{HOOK_FROM}{id}")
}

/// The sort key of a tournament's item.
pub const TOURNAMENT: &str = "TOURNAMENT";
/// The list of every tournament (in the list index, by creation).
pub const TOURNAMENT_LIST: &str = "tournaments";
/// The sort key of an open tournament's start: an item in the sweep's queue (the wake-up
/// shard of its id) at its start date.
pub const TOURNAMENT_START: &str = "START";

/// The tournament a partition key names, if it is a tournament's.
pub fn tournament_of_pk(pk: &str) -> Option<TournamentId> {
    pk.strip_prefix("TOURNAMENT#")
        .map(|id| TournamentId(id.to_string()))
}

/// The first sort key of a player's ratings.
pub const RATING_FROM: &str = "RATING#";

/// The partition of tournament `id`.
pub fn tournament_pk(id: &TournamentId) -> String {
    format!("TOURNAMENT#{id}")
}

/// The sort key of a player's rating in `variant`.
pub fn rating_sk(variant: &str) -> String {
    format!("{RATING_FROM}{variant}")
}

/// The list of the ratings in `variant` (in the list index, by rating).
pub fn rating_list(variant: &str) -> String {
    format!("ratings#{variant}")
}

/// The partition of every variant's rating periods.
pub const RATING_PERIODS: &str = "RATINGS";

/// The sort key of how far `variant`'s rating periods have closed.
pub fn rating_periods_sk(variant: &str) -> String {
    format!("PERIODS#{variant}")
}

/// The sort key of a rated game kept with its rating period, in the game's partition.
pub const RATED: &str = "RATED";

/// The list of the rated games kept with `variant`'s period from `period` (in the list
/// index, by the time each ended).
pub fn rated_list(variant: &str, period: NaiveDate) -> String {
    format!("rated#{variant}#{period}")
}

/// The first sort key of a player's feed items.
pub const FEED_FROM: &str = "FEED#";
/// Past the last sort key of a player's feed items.
pub const FEED_TO: &str = "FEED$";

/// The sort key of a feed item written at `ms` by the change that took `source` (the id
/// of a game or a tournament: ULIDs both, never the same) to `revision`, the `n`th item of
/// that change: feed items sort by time, then change.
pub fn feed_sk(ms: i64, source: &str, revision: u64, n: usize) -> String {
    format!(
        "{FEED_FROM}{}#{source}#{revision:010}#{n:03}",
        feed_time(ms)
    )
}

/// A time in milliseconds as feed sort keys write it (13 digits, so they sort by time).
pub fn feed_time(ms: i64) -> String {
    format!("{:013}", ms.max(0))
}

/// The sort key of move `ply`.
pub fn move_sk(ply: u32) -> String {
    format!("MOVE#{ply:06}")
}

/// The sort key of event `seq`.
pub fn event_sk(seq: u32) -> String {
    format!("EVENT#{seq:06}")
}

/// The sort key of the idempotency key `key` used by `seat`.
pub fn retry_sk(seat: u8, key: &str) -> String {
    format!("RETRY#{seat}#{key}")
}

/// The sort key of the member item of `player`.
pub fn member_sk(player: &str) -> String {
    format!("SEATED#{player}")
}

/// The list of `player`'s current games of one kind.
pub fn games_list(membership: Membership, player: &str) -> String {
    let kind = match membership {
        Membership::Forming => "forming",
        Membership::Active => "active",
    };
    format!("games#{kind}#{player}")
}

/// The list of shard `shard` of the sweep's queue.
pub fn wake_list(shard: u32) -> String {
    format!("wake#{shard}")
}

/// The shard a game or a tournament with id `id` wakes in: FNV-1a of its id, so every
/// shard gets its part whatever the ids look like.
pub fn wake_shard(id: &str) -> u32 {
    let hash = id.bytes().fold(0x811c_9dc5_u32, |hash, byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    });
    hash % WAKE_SHARDS
}

/// The sort key of a challenge's record.
pub const CHALLENGE: &str = "CHALLENGE";

/// The partition of challenge `id`.
pub fn challenge_pk(id: &ChallengeId) -> String {
    format!("CHALLENGE#{id}")
}

/// The sort key, in its creator's partition, of an open challenge's item.
pub fn open_challenge_sk(id: &ChallengeId) -> String {
    format!("{OPEN_CHALLENGES}{id}")
}

/// The prefix of the sort keys of a creator's open challenges' items.
pub const OPEN_CHALLENGES: &str = "OPENCHALLENGE#";

/// The sort key of a creator's publications: the record every publication raises, so that
/// of two counting the same open challenges only one is stored.
pub const PUBLICATIONS: &str = "CHALLENGES";

/// The list of open challenges of `variant` (any if `None`) with `time_control` (any if
/// `None`), newest first.
pub fn challenge_list(variant: Option<&str>, time_control: Option<&TimeControl>) -> String {
    let mut list = String::from("challenges");
    if let Some(variant) = variant {
        list.push_str("#variant#");
        list.push_str(variant);
    }
    if let Some(time_control) = time_control {
        list.push_str("#time#");
        list.push_str(&time_control.key());
    }
    list
}

/// The listing items of an open challenge: each one's sort key and the list it is in.
pub fn challenge_listings(challenge: &Challenge) -> [(&'static str, String); 4] {
    let variant = Some(challenge.variant.as_str());
    let time_control = Some(&challenge.time_control);
    [
        ("LIST#all", challenge_list(None, None)),
        ("LIST#variant", challenge_list(variant, None)),
        ("LIST#time", challenge_list(None, time_control)),
        ("LIST#both", challenge_list(variant, time_control)),
    ]
}

/// The prefix of the sort keys of a player's finished entries.
pub const FINISHED: &str = "FINISHED#";
/// The prefix of the sort keys of a player's cancelled entries.
pub const CANCELLED: &str = "CANCELLED#";

/// The sort key of a player's entry in the list `prefix` ([`FINISHED`], [`CANCELLED`]) for
/// game `id`, ended at `at_ms`.
pub fn ended_sk(prefix: &str, at_ms: i64, id: &GameId) -> String {
    format!("{prefix}{at_ms:013}#{id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_range_holds_events_head_and_moves_and_nothing_else() {
        let inside = [
            event_sk(0),
            event_sk(999_999),
            HEAD.into(),
            move_sk(0),
            move_sk(999_999),
        ];
        let outside = [retry_sk(1, "k"), member_sk("ann"), WAKE.to_string()];
        for sk in inside {
            assert!(LOG_FROM <= sk.as_str() && sk.as_str() < LOG_TO, "{sk}");
        }
        for sk in outside {
            assert!(!(LOG_FROM <= sk.as_str() && sk.as_str() < LOG_TO), "{sk}");
        }
    }

    #[test]
    fn games_spread_over_every_shard() {
        let mut counts = [0; WAKE_SHARDS as usize];
        for n in 0..1600 {
            counts[wake_shard(&format!("01J{n:023}")) as usize] += 1;
        }
        assert!(counts.iter().all(|c| *c > 50), "{counts:?}");
    }
}
