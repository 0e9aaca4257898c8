//! Read models: a game's state, its move log, the games waiting for a player, a player's
//! current games and invitations, the games a player finished.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use missive_domain::{
    ConditionalLine, Cursor, Ending, GameDoc, GameId, Head, MoveRecord, Page, Period, Reason, Seat,
    SeatDoc, Status, StoredGame, TimeControl,
};
use missive_rules::{AnyGame, Notation, SeatResult};
use missive_store::Membership;
use serde::Serialize;

use crate::rules::replay;
use crate::service::seat_of;
use crate::timing::Turn;
use crate::vacation::{OnLeave, on_leave};
use crate::{GameService, ServiceError};

/// Store pages a list reads at most to fill one page of games the viewer may see; past
/// that the page is shorter and its cursor goes on from there.
const MAX_STORE_PAGES: usize = 8;

/// A game as a page shows it: the state, the game replayed through the rules (position,
/// history, diagram) and every move with its time.
pub struct GameDetail {
    /// The state as the viewer sees it.
    pub view: GameView,
    /// The game replayed.
    pub game: Box<dyn AnyGame>,
    /// The game as stored: its head and its whole log.
    pub stored: StoredGame,
}

/// A game as a player sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameView {
    /// The game.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api_schema::GameId))]
    pub id: GameId,
    /// The variant id.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api_schema::VariantId))]
    pub variant: String,
    /// Canonical options.
    pub options: String,
    /// The variant's seat names in turn order.
    pub seat_names: Vec<String>,
    /// Who sits where.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::api_schema::SeatDoc>))]
    pub seats: Vec<SeatDoc>,
    /// The time control.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api_schema::TimeControl))]
    pub time_control: TimeControl,
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// Where the game is in its life.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api_schema::Status))]
    pub status: Status,
    /// Moves played.
    pub ply: u32,
    /// The position text.
    pub position: String,
    /// The seat to move, while the game is on.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u8>))]
    pub to_move: Option<Seat>,
    /// Legal moves in long notation, sorted; empty unless the game is on.
    pub legal_moves: Vec<String>,
    /// Legal moves in short notation, sorted.
    pub legal_moves_short: Vec<String>,
    /// When the seat to move's time runs out, counting its player's vacations.
    pub deadline: Option<DateTime<Utc>>,
    /// The players on leave now (their clocks stand still), while the game is on; left out
    /// when nobody is.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub on_leave: Vec<OnLeave>,
    /// Seats offering a draw.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<u8>))]
    pub draw_offers: Vec<Seat>,
    /// Draws the player to move may claim now (kebab-case rule names).
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::api_schema::claims))]
    pub claimable: Vec<String>,
    /// How the game ended.
    pub ending: Option<EndingView>,
    /// The viewer's own conditional lines (nobody else's).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::api_schema::ConditionalLine>))]
    pub conditional: Vec<ConditionalLine>,
    /// Whether only the game's players may see it.
    pub private: bool,
    /// Whether the game was imported from an archive.
    pub imported: bool,
    /// Whether an imported game's archive carried this server's valid signature.
    pub verified: bool,
    /// In a rated game, each seat's player's rating in the variant now (rounded; `None`
    /// for a seat whose player has none yet); empty in an unrated game.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<Option<i64>>,
    /// The tournament the game is part of, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub tournament: Option<missive_domain::TournamentId>,
}

/// A line in a list of games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameSummary {
    /// The game.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api_schema::GameId))]
    pub id: GameId,
    /// The variant id.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api_schema::VariantId))]
    pub variant: String,
    /// The players in seat order (`None` for seats not taken).
    pub players: Vec<Option<String>>,
    /// Moves played.
    pub ply: u32,
    /// Where the game is in its life.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api_schema::Status))]
    pub status: Status,
    /// The seat to move, while the game is on.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u8>))]
    pub to_move: Option<Seat>,
    /// The player whose turn it is, while the game is on.
    pub player_to_move: Option<String>,
    /// The number of the move due (`13.`, `13...`; a Three Kingdoms round is three moves),
    /// while a seat is to move.
    pub next_move: Option<String>,
    /// The seat to move's deadline (for games waiting for a move, counting the current
    /// turn's vacations).
    pub deadline: Option<DateTime<Utc>>,
    /// How it ended.
    pub ending: Option<EndingView>,
}

/// How a game ended, as clients read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EndingView {
    /// When it ended.
    pub at: DateTime<Utc>,
    /// The rule that ended it, or why it was called off.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::api_schema::end_reason))]
    pub rule: Reason,
    /// Each seat's result in seat order; empty when the game was called off.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::api_schema::seat_results))]
    pub results: Vec<SeatResult>,
    /// The seat whose act ended it (resigned, ran out of time, aborted, declined), if any.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u8>, minimum = 0, maximum = 2))]
    pub by: Option<Seat>,
}

impl From<&Ending> for EndingView {
    fn from(ending: &Ending) -> EndingView {
        EndingView {
            at: ending.at,
            rule: ending.rule.clone(),
            results: ending.results.clone(),
            by: ending.by,
        }
    }
}

/// A move of the log, as clients read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MoveView {
    /// Moves before this one: the first move has ply 0.
    pub ply: u32,
    /// The seat that played it.
    #[cfg_attr(feature = "openapi", schema(value_type = u8, maximum = 2))]
    pub seat: Seat,
    /// Long (canonical) notation.
    pub long: String,
    /// Short notation.
    pub short: String,
    /// When the server accepted it.
    pub at: DateTime<Utc>,
    /// Whether a draw was offered with the move.
    pub draw_offer: bool,
    /// Whether the server played it for its seat, from the seat's conditional line.
    pub conditional: bool,
    /// The hash of the log's previous entry, a move's or an event's (a draw offered
    /// without a move, a claim, ...: events are not listed here, so it may differ from the
    /// listed move before); empty for the log's first entry. Moves and events form one
    /// hash chain in log order.
    pub prev_hash: String,
    /// SHA-256 in hex over the game id, the previous entry's hash and this move.
    pub hash: String,
}

impl From<&MoveRecord> for MoveView {
    fn from(record: &MoveRecord) -> MoveView {
        MoveView {
            ply: record.ply,
            seat: record.seat,
            long: record.long.clone(),
            short: record.short.clone(),
            at: record.at,
            draw_offer: record.draw_offer,
            conditional: record.conditional,
            prev_hash: record.prev_hash.clone(),
            hash: record.hash.clone(),
        }
    }
}

impl GameService {
    /// The state of `game` as `viewer` (a player or anyone) sees it, from its head (and
    /// the vacations of the player to move).
    pub async fn game_view(
        &self,
        game: &GameId,
        viewer: Option<&str>,
    ) -> Result<GameView, ServiceError> {
        let (head, replayed) = self.current(game, viewer).await?;
        self.view_of(&head, replayed.as_ref(), viewer).await
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
        let view = self
            .view_of(&stored.head, replayed.as_ref(), viewer)
            .await?;
        Ok(GameDetail {
            view,
            game: replayed,
            stored,
        })
    }

    /// The state of `head`, at the rules game `game`, as `viewer` sees it. The deadline
    /// counts the vacations of the player to move in the current turn (earlier turns of an
    /// ICCF clock are counted as they were played, vacations aside, so it may come early,
    /// never late); the players on leave are read from every seated player's vacations.
    pub(crate) async fn view_of(
        &self,
        head: &Head,
        game: &dyn AnyGame,
        viewer: Option<&str>,
    ) -> Result<GameView, ServiceError> {
        let doc = &head.doc;
        let active = doc.status == Status::Active;
        let to_move = active.then(|| game.to_move()).flatten();
        let seated = match active {
            true => self.seated_vacations(doc).await?,
            false => Vec::new(),
        };
        let deadline = match (&head.waiting, to_move) {
            (Some(waiting), Some(_)) => {
                let vacations = seated
                    .iter()
                    .find(|s| s.player == waiting.player)
                    .map_or(&[][..], |s| &s.periods[..]);
                Some(Turn::waiting(waiting).deadline(vacations))
            }
            _ => None,
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
            on_leave: on_leave(&seated, self.now()),
            draw_offers: doc.draw_offers.clone(),
            claimable: if active {
                game.claimable()
                    .iter()
                    .map(|c| c.rule().as_str().to_string())
                    .collect()
            } else {
                Vec::new()
            },
            ending: doc.ending.as_ref().map(EndingView::from),
            conditional: doc
                .conditional
                .iter()
                .filter(|line| Some(line.owner) == viewer_seat)
                .cloned()
                .collect(),
            private: doc.private,
            imported: doc.imported,
            verified: doc.verified,
            ratings: self.seat_ratings(doc).await?,
            tournament: doc.tournament.clone(),
        })
    }

    /// Each seat's player's rating now in a rated game of `doc` (nothing for an unrated one).
    async fn seat_ratings(&self, doc: &GameDoc) -> Result<Vec<Option<i64>>, ServiceError> {
        if !doc.rated || doc.imported {
            return Ok(Vec::new());
        }
        let mut ratings = Vec::with_capacity(doc.seats.len());
        for seat in &doc.seats {
            let rating = match seat.player() {
                Some(player) => self.store.rating(player, &doc.variant).await?,
                None => None,
            };
            ratings.push(rating.map(|r| r.rating.round() as i64));
        }
        Ok(ratings)
    }

    /// The rules game `game` is at, as `viewer` may see it: its position, the positions the
    /// history rules reach, its diagram with the last move (from the head alone).
    pub async fn replayed(
        &self,
        game: &GameId,
        viewer: Option<&str>,
    ) -> Result<Box<dyn AnyGame>, ServiceError> {
        Ok(self.current(game, viewer).await?.1)
    }

    /// The head of `game` and the rules game it is at, as `viewer` may see it.
    pub async fn game_state(
        &self,
        game: &GameId,
        viewer: Option<&str>,
    ) -> Result<(Head, Box<dyn AnyGame>), ServiceError> {
        self.current(game, viewer).await
    }

    /// Every move of `game` with the time it was accepted, as `viewer` may see it.
    pub async fn move_log(
        &self,
        game: &GameId,
        viewer: Option<&str>,
    ) -> Result<Vec<MoveRecord>, ServiceError> {
        Ok(self.stored_for(game, viewer).await?.moves)
    }

    /// A page of the games where `player` is to move, earliest deadline first (vacations
    /// in the current turn counted).
    pub async fn waiting_for(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameSummary>, ServiceError> {
        let page = self.store.waiting_for(player, cursor, limit).await?;
        let vacations = self.store.vacation(player).await?.periods;
        Ok(page.map(|head| summary(&head, &vacations)))
    }

    /// A page of the games `player` finished that `viewer` may see, most recent first;
    /// private ones are not shown to others. A page may hold fewer than `limit` games and
    /// still have a next one (when many were left out).
    pub async fn finished_by(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
        viewer: Option<&str>,
    ) -> Result<Page<GameSummary>, ServiceError> {
        let read = |cursor: Option<Cursor>, want: usize| async move {
            let page = self
                .store
                .finished_by(player, cursor.as_ref(), want)
                .await?;
            Ok(summaries(
                page,
                |head| head.doc.visible_to(viewer),
                &Vacations::new(),
            ))
        };
        filled(cursor, limit, read).await
    }

    /// A page of the games called off (invitations declined, games aborted) where `player`
    /// sat or was invited, most recent end first, each with its ending (`declined`,
    /// `aborted`) and the seat that called it off.
    pub async fn cancelled_for(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameSummary>, ServiceError> {
        let page = self.store.cancelled_for(player, cursor, limit).await?;
        Ok(page.map(|head| summary(&head, &[])))
    }

    /// A page of `player`'s current games of one kind (see [`Membership`]): forming ones
    /// where they sit (not those they are only invited to: see
    /// [`GameService::invitations_of`]) oldest first, active ones by the deadline of
    /// whoever is to move; each deadline counts the vacations of the player to move in the
    /// current turn. A page may hold fewer than `limit` games and still have a next one.
    pub async fn games_of(
        &self,
        player: &str,
        membership: Membership,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameSummary>, ServiceError> {
        self.members_page(player, membership, cursor, limit, |head| {
            head.doc.seat_of(player).is_some()
        })
        .await
    }

    /// A page of the games `player` is invited to and has not answered, oldest first. A
    /// page may hold fewer than `limit` games and still have a next one.
    pub async fn invitations_of(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameSummary>, ServiceError> {
        self.members_page(player, Membership::Forming, cursor, limit, |head| {
            head.doc
                .seats
                .iter()
                .any(|seat| matches!(seat, SeatDoc::Invited { player: p } if p == player))
        })
        .await
    }

    /// The vacations of each player to move in `heads`.
    async fn vacations_of_movers(&self, heads: &[Head]) -> Result<Vacations, ServiceError> {
        let mut vacations = Vacations::new();
        for waiting in heads.iter().filter_map(|head| head.waiting.as_ref()) {
            if !vacations.contains_key(&waiting.player) {
                let periods = self.store.vacation(&waiting.player).await?.periods;
                vacations.insert(waiting.player.clone(), periods);
            }
        }
        Ok(vacations)
    }

    /// A page of the games in `player`'s members list of one kind that `keep` lets through.
    async fn members_page(
        &self,
        player: &str,
        membership: Membership,
        cursor: Option<&Cursor>,
        limit: usize,
        keep: impl Fn(&Head) -> bool + Copy,
    ) -> Result<Page<GameSummary>, ServiceError> {
        let read = |cursor: Option<Cursor>, want: usize| async move {
            let page = self
                .store
                .games_of(player, membership, cursor.as_ref(), want)
                .await?;
            let heads = self.store.heads(&page.items).await?;
            let vacations = self.vacations_of_movers(&heads).await?;
            let page = Page {
                items: heads,
                next: page.next,
            };
            Ok(summaries(page, keep, &vacations))
        };
        filled(cursor, limit, read).await
    }
}

/// Up to `limit` items of a list that `read` gives page by page from `cursor` (asked for
/// as many as are still wanted; a page may hold fewer, when it left some out), reading at
/// most [`MAX_STORE_PAGES`] pages; the cursor goes on after the last page read.
pub(crate) async fn filled<T, R, F>(
    cursor: Option<&Cursor>,
    limit: usize,
    mut read: R,
) -> Result<Page<T>, ServiceError>
where
    R: FnMut(Option<Cursor>, usize) -> F,
    F: std::future::Future<Output = Result<Page<T>, ServiceError>>,
{
    let limit = limit.max(1);
    let mut cursor = cursor.cloned();
    let mut items = Vec::new();
    for _ in 0..MAX_STORE_PAGES {
        let page = read(cursor.take(), limit - items.len()).await?;
        items.extend(page.items);
        cursor = page.next;
        if cursor.is_none() || items.len() >= limit {
            break;
        }
    }
    Ok(Page {
        items,
        next: cursor,
    })
}

/// The vacations of some players, by handle.
type Vacations = HashMap<String, Vec<Period>>;

/// The summaries of the heads of `page` that `keep` lets through, each deadline counting
/// the `vacations` of the player to move.
fn summaries(
    page: Page<Head>,
    keep: impl Fn(&Head) -> bool,
    vacations: &Vacations,
) -> Page<GameSummary> {
    let vacations_of = |head: &Head| {
        head.waiting
            .as_ref()
            .and_then(|waiting| vacations.get(&waiting.player))
            .map_or(&[][..], Vec::as_slice)
    };
    Page {
        items: page
            .items
            .iter()
            .filter(|head| keep(head))
            .map(|head| summary(head, vacations_of(head)))
            .collect(),
        next: page.next,
    }
}

/// The line of `head` in a list, its deadline counting `vacations` (of the player to move).
fn summary(head: &Head, vacations: &[Period]) -> GameSummary {
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
        status: head.doc.status,
        to_move: head.to_move,
        player_to_move: head.player_to_move().map(str::to_string),
        next_move: head.next_move_number().map(|number| number.to_string()),
        deadline: head
            .waiting
            .as_ref()
            .map(|waiting| Turn::waiting(waiting).deadline(vacations)),
        ending: head.doc.ending.as_ref().map(EndingView::from),
    }
}
