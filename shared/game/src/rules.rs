//! Taking a stored game up in the rules: a new rules game of a document's variant, a head
//! resumed from its resume point, a whole log replayed.

use missive_domain::{GameDoc, Head, StoredGame};
use missive_rules::{AnyGame, SetupError};

use crate::{Catalog, ServiceError};

/// The rules game of `doc`'s variant, edition and options, from `start` (the standard start
/// when `None`).
pub(crate) fn rules_game(
    catalog: Catalog,
    doc: &GameDoc,
    start: Option<&str>,
) -> Result<Box<dyn AnyGame>, SetupError> {
    let variant = catalog(&doc.variant)?;
    let options = variant.edition_options(doc.edition, &doc.options)?;
    variant.new_game(&options, start)
}

/// The rules game `head` is at, taken up from its resume point; `None` for a head written
/// before it carried one.
pub(crate) fn resumed(
    catalog: Catalog,
    head: &Head,
) -> Result<Option<Box<dyn AnyGame>>, ServiceError> {
    let Some(resume) = &head.resume else {
        return Ok(None);
    };
    let corrupt = |reason: String| ServiceError::Corrupt {
        game: head.id.clone(),
        reason,
    };
    let doc = &head.doc;
    let variant = catalog(&doc.variant).map_err(|e| corrupt(e.to_string()))?;
    let game = variant
        .edition_options(doc.edition, &doc.options)
        .and_then(|options| variant.resume(&options, &resume.window))
        .map_err(|e| corrupt(format!("resume point: {e}")))?;
    Ok(Some(game))
}

/// Replays a stored game through the rules: every move must be legal in turn.
pub fn replay(catalog: Catalog, stored: &StoredGame) -> Result<Box<dyn AnyGame>, ServiceError> {
    let doc = &stored.head.doc;
    let corrupt = |reason: String| ServiceError::Corrupt {
        game: stored.head.id.clone(),
        reason,
    };
    let mut game = rules_game(catalog, doc, doc.start_position.as_deref())
        .map_err(|e| corrupt(e.to_string()))?;
    game.reserve(stored.moves.len());
    for mv in &stored.moves {
        game.play_long(&mv.long)
            .map_err(|e| corrupt(format!("move {} ({}): {e}", mv.ply, mv.long)))?;
    }
    Ok(game)
}
