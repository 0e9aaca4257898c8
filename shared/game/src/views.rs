//! Read models: a game's state, its move log, the games waiting for a player, the games a
//! player finished.

use chrono::{DateTime, Utc};
use missive_rules::{AnyGame, Notation};
use missive_store::{
    ConditionalLine, Ending, GameId, Head, MoveRecord, SeatDoc, Status, StoredGame, TimeControl,
};
use serde::Serialize;

use crate::service::{replay, seat_of};
use crate::timing::{current_turn, deadline};
use crate::{GameService, ServiceError};

/// A game as a page shows it: the state, the game replayed through the rules (position,
/// history, diagram) and every move with its time.
pub struct GameDetail {
    /// The state as the viewer sees it.
    pub view: GameView,
    /// The game replayed.
    pub game: Box<dyn AnyGame>,
    /// Every move, in order.
    pub moves: Vec<MoveRecord>,
}

/// A game as a player sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameView {
    /// The game.
    pub id: GameId,
    /// The variant id.
    pub variant: String,
    /// Canonical options.
    pub options: String,
    /// The variant's seat names in turn order.
    pub seat_names: Vec<String>,
    /// Who sits where.
    pub seats: Vec<SeatDoc>,
    /// The time control.
    pub time_control: TimeControl,
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// Where the game is in its life.
    pub status: Status,
    /// Moves played.
    pub ply: u32,
    /// The position text.
    pub position: String,
    /// The seat to move, while the game is on.
    pub to_move: Option<u8>,
    /// Legal moves in long notation, sorted; empty unless the game is on.
    pub legal_moves: Vec<String>,
    /// Legal moves in short notation, sorted.
    pub legal_moves_short: Vec<String>,
    /// When the seat to move's time runs out, counting its player's vacations.
    pub deadline: Option<DateTime<Utc>>,
    /// Seats offering a draw.
    pub draw_offers: Vec<u8>,
    /// Draws the player to move may claim now (kebab-case rule names).
    pub claimable: Vec<String>,
    /// How the game ended.
    pub ending: Option<Ending>,
    /// The viewer's own conditional lines (nobody else's).
    pub conditional: Vec<ConditionalLine>,
    /// Whether only the game's players may see it.
    pub private: bool,
    /// Whether the game was imported from an archive.
    pub imported: bool,
}

/// A line in a list of games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameSummary {
    /// The game.
    pub id: GameId,
    /// The variant id.
    pub variant: String,
    /// The players in seat order (`None` for seats not taken).
    pub players: Vec<Option<String>>,
    /// Moves played.
    pub ply: u32,
    /// The seat to move's deadline (for games waiting for a move, counting the current
    /// turn's vacations).
    pub deadline: Option<DateTime<Utc>>,
    /// How it ended.
    pub ending: Option<Ending>,
}

impl GameService {
    /// The state of `game` as `viewer` (a player or anyone) sees it.
    pub async fn game_view(
        &self,
        game: &GameId,
        viewer: Option<&str>,
    ) -> Result<GameView, ServiceError> {
        Ok(self.game_detail(game, viewer).await?.view)
    }

    /// `game` as `viewer` sees it, replayed, with its move log: everything a page about the
    /// game shows, from one read and one replay.
    pub async fn game_detail(
        &self,
        game: &GameId,
        viewer: Option<&str>,
    ) -> Result<GameDetail, ServiceError> {
        let stored = self.stored_for(game, viewer).await?;
        let replayed = replay(self.catalog, &stored)?;
        let view = self.view_of(&stored, replayed.as_ref(), viewer).await?;
        Ok(GameDetail {
            view,
            game: replayed,
            moves: stored.moves,
        })
    }

    /// The state of the replayed `game` of `stored` as `viewer` sees it.
    async fn view_of(
        &self,
        stored: &StoredGame,
        game: &dyn AnyGame,
        viewer: Option<&str>,
    ) -> Result<GameView, ServiceError> {
        let (head, log) = (&stored.head, &stored.moves);
        let doc = &head.doc;
        let active = doc.status == Status::Active;
        let to_move = active.then(|| game.to_move().map(|s| s.0)).flatten();
        let deadline = match to_move {
            Some(seat) => {
                let player = doc.seats[usize::from(seat)].player().unwrap_or_default();
                let vacations = self.store.vacation(player).await?.periods;
                current_turn(doc, log, seat, &vacations).map(|turn| turn.deadline(&vacations))
            }
            None => None,
        };
        let viewer_seat = viewer.and_then(|v| seat_of(doc, v).ok());
        let legal = |notation| {
            if active {
                game.legal_moves(notation)
            } else {
                Vec::new()
            }
        };
        Ok(GameView {
            id: head.id.clone(),
            variant: doc.variant.clone(),
            options: doc.options.clone(),
            seat_names: game.seat_names().iter().map(|s| s.to_string()).collect(),
            seats: doc.seats.clone(),
            time_control: doc.time_control,
            rated: doc.rated,
            status: doc.status,
            ply: head.ply,
            position: head.position.clone(),
            to_move,
            legal_moves: legal(Notation::Long),
            legal_moves_short: legal(Notation::Short),
            deadline,
            draw_offers: doc.draw_offers.clone(),
            claimable: if active {
                game.claimable()
                    .iter()
                    .map(|c| c.rule().as_str().to_string())
                    .collect()
            } else {
                Vec::new()
            },
            ending: doc.ending.clone(),
            conditional: doc
                .conditional
                .iter()
                .filter(|line| Some(line.owner) == viewer_seat)
                .cloned()
                .collect(),
            private: doc.private,
            imported: doc.imported,
        })
    }

    /// `game` replayed through the rules, as `viewer` may see it: its position, history and
    /// diagram.
    pub async fn replayed(
        &self,
        game: &GameId,
        viewer: Option<&str>,
    ) -> Result<Box<dyn AnyGame>, ServiceError> {
        replay(self.catalog, &self.stored_for(game, viewer).await?)
    }

    /// Every move of `game` with the time it was accepted, as `viewer` may see it.
    pub async fn move_log(
        &self,
        game: &GameId,
        viewer: Option<&str>,
    ) -> Result<Vec<MoveRecord>, ServiceError> {
        Ok(self.stored_for(game, viewer).await?.moves)
    }

    /// The games where `player` is to move, earliest deadline first (vacations in the
    /// current turn counted).
    pub async fn waiting_for(
        &self,
        player: &str,
        limit: usize,
    ) -> Result<Vec<GameSummary>, ServiceError> {
        let heads = self.store.waiting_for(player, limit).await?;
        let vacations = self.store.vacation(player).await?.periods;
        let mut summaries: Vec<GameSummary> = heads
            .iter()
            .map(|head| {
                let mut summary = summary(head);
                summary.deadline = head
                    .waiting
                    .as_ref()
                    .map(|w| deadline(w.since, w.deadline - w.since, &vacations));
                summary
            })
            .collect();
        summaries.sort_by(|a, b| a.deadline.cmp(&b.deadline).then(a.id.cmp(&b.id)));
        Ok(summaries)
    }

    /// The games `player` finished that `viewer` may see, most recent first: at most
    /// `limit` of the player's games are read, private ones not shown to others.
    pub async fn finished_by(
        &self,
        player: &str,
        limit: usize,
        viewer: Option<&str>,
    ) -> Result<Vec<GameSummary>, ServiceError> {
        let heads = self.store.finished_by(player, limit).await?;
        Ok(heads
            .iter()
            .filter(|head| head.doc.visible_to(viewer))
            .map(summary)
            .collect())
    }
}

fn summary(head: &Head) -> GameSummary {
    GameSummary {
        id: head.id.clone(),
        variant: head.doc.variant.clone(),
        players: head
            .doc
            .seats
            .iter()
            .map(|s| s.player().map(str::to_string))
            .collect(),
        ply: head.ply,
        deadline: head.waiting.as_ref().map(|w| w.deadline),
        ending: head.doc.ending.clone(),
    }
}
