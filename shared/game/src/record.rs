//! A stored game as an archive record and as archive text: what `GET /v1/games/{id}/archive`
//! exports, every move and every event of its log, signed with the server's archive key.

use missive_archive::{
    Entry, Event, EventKind, ExportOptions, GameRecord, GameResult, MessageEntry, MoveEntry,
    OrganiserAct, OrganiserEntry, Registry, TimeControl as ArchiveClock, export, export_signed,
    seat_tag,
};
use missive_domain::{
    EventRecord, GameDoc, GameEvent, GameId, LogEntry, MoveRecord, Status, StoredGame, TimeControl,
};

use crate::service::{Catalog, seat_of};
use crate::{GameService, ServiceError};

/// The tag naming a game's id: on the server that played it.
pub(crate) const GAME_ID_TAG: &str = "GameId";

impl GameService {
    /// The archive record of `game` as `viewer` may see it: its players, every move with
    /// the time it was received, every event of its log, its tags and its result once it
    /// has one.
    pub async fn archive_record(
        &self,
        game: &GameId,
        viewer: Option<&str>,
    ) -> Result<GameRecord, ServiceError> {
        let stored = self.stored_for(game, viewer).await?;
        self.full_record(&stored, Messages::LeftOut).await
    }

    /// The archive record of `game` for the operator's tools: any game, private ones too.
    pub async fn operator_record(&self, game: &GameId) -> Result<GameRecord, ServiceError> {
        self.full_record(&self.stored(game).await?, Messages::LeftOut)
            .await
    }

    /// `game` as archive text, as `viewer` may see it, signed with the server's archive key
    /// (unsigned when the service has none).
    pub async fn archive_text(
        &self,
        game: &GameId,
        viewer: Option<&str>,
    ) -> Result<String, ServiceError> {
        let record = self.archive_record(game, viewer).await?;
        self.sealed_text(game, &record)
    }

    /// `game` as archive text for one of its players, `player`: the archive anyone may
    /// read, with the messages its players wrote each other (outside the signed content,
    /// so it verifies with the same signature). Refused unless `player` is seated in it.
    pub async fn players_archive_text(
        &self,
        game: &GameId,
        player: &str,
    ) -> Result<String, ServiceError> {
        let stored = self.stored_for(game, Some(player)).await?;
        seat_of(&stored.head.doc, player)?;
        let record = self.full_record(&stored, Messages::Included).await?;
        self.sealed_text(game, &record)
    }

    /// `game` as archive text for the operator's tools (any game, private ones too), signed
    /// as [`GameService::archive_text`] signs it.
    pub async fn operator_archive_text(&self, game: &GameId) -> Result<String, ServiceError> {
        let record = self.operator_record(game).await?;
        self.sealed_text(game, &record)
    }

    /// The archive record of `stored` (with or without its players' `messages`) with the
    /// tags of its tournament and ratings: `Event`, `EventId` and `Round` for a tournament's
    /// game; each seat's rating before a rated game (`WhiteElo`, `BlackElo`, `ShuElo`, ...,
    /// for the players whose rating it moved).
    async fn full_record(
        &self,
        stored: &StoredGame,
        messages: Messages,
    ) -> Result<GameRecord, ServiceError> {
        let mut record = record_with(self.catalog, stored, messages)?;
        let head = &stored.head;
        if let Some(id) = &head.doc.tournament {
            let tournament = self.tournament(id).await?;
            let round = tournament.game(&head.id).map_or(1, |g| g.round);
            record.tags.push(("Event".into(), tournament.name.clone()));
            record.tags.push(("EventId".into(), id.0.clone()));
            record.tags.push(("Round".into(), round.to_string()));
        }
        if head.doc.rated && !head.doc.imported && head.doc.status == Status::Finished {
            let seats = (self.catalog)(&head.doc.variant)?.seat_names();
            for (seat, doc) in head.doc.seats.iter().enumerate() {
                let Some(player) = doc.player() else { continue };
                let Some(rating) = self.store.rating(player, &head.doc.variant).await? else {
                    continue;
                };
                if let Some(change) = rating.history.iter().find(|c| c.game == head.id) {
                    let tag = format!("{}Elo", seat_tag(seats[seat]));
                    record.tags.push((tag, format!("{:.0}", change.before)));
                }
            }
        }
        Ok(record)
    }

    /// The text of `record`, the archive of `game`, signed when the service has a key. A
    /// stored game that does not export is inconsistent.
    fn sealed_text(&self, game: &GameId, record: &GameRecord) -> Result<String, ServiceError> {
        let options = ExportOptions::default();
        match self.archive_signing_key() {
            Some(key) => export_signed(record, options, key, &Registry),
            None => export(record, options, &Registry),
        }
        .map_err(|error| ServiceError::Corrupt {
            game: game.clone(),
            reason: error.to_string(),
        })
    }
}

/// The archive record of a stored game, its options those it is played under (its edition's
/// readings included, so the archive names the rules of its time).
pub fn record_of(catalog: Catalog, stored: &StoredGame) -> Result<GameRecord, ServiceError> {
    record_with(catalog, stored, Messages::LeftOut)
}

/// Whether an archive holds the messages of the game's players.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Messages {
    /// Left out: the archive anyone allowed to see the game may read.
    LeftOut,
    /// Written as comments: an archive given to one of the game's players.
    Included,
}

/// The archive record of `stored`, with or without its players' `messages`.
fn record_with(
    catalog: Catalog,
    stored: &StoredGame,
    messages: Messages,
) -> Result<GameRecord, ServiceError> {
    let doc = &stored.head.doc;
    let options = catalog(&doc.variant)?.edition_options(doc.edition, &doc.options)?;
    let mut entries = Vec::with_capacity(stored.moves.len() + stored.events.len());
    for entry in stored.entries() {
        match entry {
            LogEntry::Move(mv) => push_move(&mut entries, mv),
            LogEntry::Event(event) => match (&event.event, event.seat, messages) {
                (GameEvent::Message { text }, Some(seat), Messages::Included) => {
                    entries.push(Entry::Message(MessageEntry {
                        seat,
                        at: event.at,
                        text: text.clone(),
                    }));
                }
                _ => entries.extend(archive_entry(event)),
            },
        }
    }
    let result = doc.ending.as_ref().and_then(|ending| {
        (!ending.results.is_empty()).then(|| GameResult {
            rule: ending.rule.as_str().to_string(),
            results: ending.results.clone(),
        })
    });
    Ok(GameRecord {
        variant: doc.variant.clone(),
        options,
        players: doc.seats.iter().map(|s| s.name().to_string()).collect(),
        start: doc.start_position.clone(),
        tags: tags(stored),
        entries,
        result,
        signature: None,
    })
}

/// A move of the log, and the draw offered with it.
fn push_move(entries: &mut Vec<Entry>, mv: &MoveRecord) {
    entries.push(Entry::Move(MoveEntry {
        text: mv.long.clone(),
        received: Some(mv.at),
        conditional: mv.conditional,
    }));
    if mv.draw_offer {
        entries.push(Entry::Event(Event {
            kind: EventKind::DrawOffered,
            seat: mv.seat,
            at: Some(mv.at),
        }));
    }
}

/// An event of the log as the archive writes it: a seat's event (a vacation at its start),
/// or an organiser's act; `None` for a message (the players' own, never in an archive anyone
/// may read) and for a seat's event without its seat.
fn archive_entry(record: &EventRecord) -> Option<Entry> {
    let (kind, at) = match &record.event {
        GameEvent::Message { .. } => return None,
        GameEvent::Paused => return organiser_entry(OrganiserAct::Paused, record),
        GameEvent::Resumed => return organiser_entry(OrganiserAct::Resumed, record),
        GameEvent::DeadlineExtended { by, days } => {
            let days = (*days).into();
            let by = by.clone();
            return organiser_entry(OrganiserAct::DeadlineExtended { days, by }, record);
        }
        GameEvent::Adjudicated { by, reason } => {
            let (by, reason) = (by.clone(), reason.clone());
            return organiser_entry(OrganiserAct::Adjudicated { by, reason }, record);
        }
        GameEvent::DrawOffered => (EventKind::DrawOffered, record.at),
        GameEvent::DrawWithdrawn => (EventKind::DrawWithdrawn, record.at),
        GameEvent::DrawAccepted => (EventKind::DrawAccepted, record.at),
        GameEvent::DrawDeclined => (EventKind::DrawDeclined, record.at),
        GameEvent::DrawClaimed { rule } => (EventKind::Claimed(rule.as_str().into()), record.at),
        GameEvent::ClaimRefused { rule } => {
            (EventKind::ClaimRefused(rule.as_str().into()), record.at)
        }
        GameEvent::Resigned => (EventKind::Resigned, record.at),
        GameEvent::TimedOut => (EventKind::TimedOut, record.at),
        GameEvent::Aborted => (EventKind::Aborted, record.at),
        GameEvent::InvitationDeclined => (EventKind::InvitationDeclined, record.at),
        GameEvent::VacationTaken { from, to } => {
            let days = (*to - *from).num_days().max(0) as u32;
            (EventKind::Vacation { days }, *from)
        }
        GameEvent::VacationEnded => (EventKind::VacationEnded, record.at),
        GameEvent::Eliminated { heir } => (EventKind::Eliminated { heir: *heir }, record.at),
    };
    Some(Entry::Event(Event {
        kind,
        seat: record.seat?,
        at: Some(at),
    }))
}

/// The organiser's `act` that `record` logged, at its time.
fn organiser_entry(act: OrganiserAct, record: &EventRecord) -> Option<Entry> {
    Some(Entry::Organiser(OrganiserEntry {
        act,
        at: Some(record.at),
    }))
}

/// The tags of a stored game. An imported game's are its archive's, as they were (its
/// `GameId` that of the server that played it, ours when the archive names none); a game
/// played here has where and when it was created, its time control, its id and the date
/// it ended.
fn tags(stored: &StoredGame) -> Vec<(String, String)> {
    let head = &stored.head;
    let doc = &head.doc;
    if doc.imported {
        let mut tags = doc.archive_tags.clone();
        if !tags.iter().any(|(name, _)| name == GAME_ID_TAG) {
            tags.push((GAME_ID_TAG.into(), head.id.0.clone()));
        }
        return tags;
    }
    let mut tags = vec![
        ("Site".into(), "Missive".into()),
        ("Date".into(), doc.created_at.format("%Y.%m.%d").to_string()),
        ("TimeControl".into(), archive_clock(doc).to_string()),
        (GAME_ID_TAG.into(), head.id.0.clone()),
    ];
    if let Some(ending) = &doc.ending {
        tags.push(("EndDate".into(), ending.at.format("%Y.%m.%d").to_string()));
    }
    let adjudication = stored.events.iter().find_map(|record| match &record.event {
        GameEvent::Adjudicated { by, reason } => Some(format!("{reason} ({by})")),
        _ => None,
    });
    if let Some(adjudication) = adjudication {
        tags.push(("Adjudication".into(), adjudication));
    }
    tags
}

/// The game's time control as the archive writes it.
fn archive_clock(doc: &GameDoc) -> ArchiveClock {
    match doc.time_control {
        TimeControl::DaysPerMove { days } => ArchiveClock::DaysPerMove { days: days.into() },
        TimeControl::Iccf { moves, days } => ArchiveClock::Iccf {
            moves: moves.into(),
            days: days.into(),
        },
    }
}
