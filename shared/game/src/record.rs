//! A stored game as an archive record: what `GET /v1/games/{id}/archive` exports.

use missive_archive::{Entry, Event, EventKind, GameRecord, GameResult, MoveEntry};
use missive_domain::{GameId, StoredGame};

use crate::service::Catalog;
use crate::{GameService, ServiceError};

impl GameService {
    /// The archive record of `game` as `viewer` may see it: its players, every move with
    /// the time it was received, the draw offers made with moves, and the result once it
    /// has one.
    pub async fn archive_record(
        &self,
        game: &GameId,
        viewer: Option<&str>,
    ) -> Result<GameRecord, ServiceError> {
        let stored = self.stored_for(game, viewer).await?;
        record_of(self.catalog, &stored)
    }

    /// The archive record of `game` for the operator's tools: any game, private ones too.
    pub async fn operator_record(&self, game: &GameId) -> Result<GameRecord, ServiceError> {
        record_of(self.catalog, &self.stored(game).await?)
    }
}

/// The tags of a stored game: an imported game's own, else where and when it was created;
/// then its id.
fn tags(stored: &StoredGame) -> Vec<(String, String)> {
    let doc = &stored.head.doc;
    let mut tags = if doc.imported {
        doc.archive_tags.clone()
    } else {
        vec![
            ("Site".into(), "Missive".into()),
            ("Date".into(), doc.created_at.format("%Y.%m.%d").to_string()),
        ]
    };
    tags.push(("GameId".into(), stored.head.id.0.clone()));
    tags
}

/// The archive record of a stored game, its options those it is played under (its edition's
/// readings included, so the archive names the rules of its time).
pub fn record_of(catalog: Catalog, stored: &StoredGame) -> Result<GameRecord, ServiceError> {
    let doc = &stored.head.doc;
    let options = catalog(&doc.variant)?.edition_options(doc.edition, &doc.options)?;
    let mut entries = Vec::new();
    for mv in &stored.moves {
        entries.push(Entry::Move(MoveEntry {
            text: mv.long.clone(),
            received: Some(mv.at),
        }));
        if mv.draw_offer {
            entries.push(Entry::Event(Event {
                kind: EventKind::DrawOffered,
                seat: mv.seat,
                at: Some(mv.at),
            }));
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
