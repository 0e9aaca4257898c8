//! Tournaments and ratings: create a round robin, list and read tournaments (with the
//! crosstable), join, start, withdraw; a player's ratings and a variant's leaderboard.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use missive_domain::{Cursor, GameId, SeatResult, TournamentId};
use missive_game::NewTournament;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::archives::archive_response;
use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::extract::IdPath;
use crate::paging::{PAGE, Page, PageSize};
use crate::wire::{
    Ended, RatingChange, RatingView, TimeControl, TournamentStart, TournamentView,
    WithdrawalScoring,
};
use crate::{ApiError, App, JsonBody};

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(view))
        .routes(routes!(join))
        .routes(routes!(start))
        .routes(routes!(withdraw))
        .routes(routes!(archive))
        .routes(routes!(pause))
        .routes(routes!(resume))
        .routes(routes!(adjudicate))
        .routes(routes!(extend))
        .routes(routes!(ratings))
        .routes(routes!(rating_history))
        .routes(routes!(leaderboard))
}

/// A round robin to create.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Create {
    /// Its name (1 to 80 characters).
    name: String,
    #[schema(value_type = missive_game::api_schema::VariantId)]
    variant: String,
    /// The variant's options as `key=value` pairs joined by `,`; the defaults if empty.
    #[serde(default)]
    options: String,
    time_control: TimeControl,
    /// Whether the games are rated.
    #[serde(default)]
    rated: bool,
    /// How many players it takes (2 to 64; 3 to 64 for three-player variants).
    #[schema(minimum = 2, maximum = 64)]
    players: u8,
    /// Whether every pairing plays twice, colours swapped (two-player variants).
    #[serde(default)]
    double: bool,
    /// When its games start (when full if absent).
    starts: Option<TournamentStart>,
    /// What becomes of a withdrawn player's unfinished games (forfeit if absent).
    withdrawal: Option<WithdrawalScoring>,
    /// Games lost on time after which a player is withdrawn (never if absent).
    timeouts_to_withdraw: Option<u8>,
    /// Players invited (they may join like anyone while places remain).
    #[serde(default)]
    invite: Vec<String>,
    /// Whether the organiser plays too (joins at once; true if absent).
    plays: Option<bool>,
}

/// Create a round robin
///
/// Open for players until full; it starts when full (or when its organiser starts it), every game at once. Each invited player is mailed an invitation.
#[utoipa::path(post, path = "/v1/tournaments", tag = "tournaments", operation_id = "create_tournament", security(("bearer" = [])), request_body = Create, responses(
    (status = 201, description = "Created, open for players", body = TournamentView),
    (status = 400, description = "Malformed request, or a setup the variant refuses (`invalid-setup`)", body = ErrorBody),
    (status = 404, description = "An invited player does not exist (`player-not-found`)", body = ErrorBody),
    (status = 422, description = "Refused: size, time control, double round (`refused`, `too-long`)", body = ErrorBody),
    (status = 429, description = "Too many invitation mails to an invitee's address or from the caller (`limit-reached`, with `limit`): nothing created", body = ErrorBody, headers(("Retry-After" = u64, description = "Seconds to wait"))),
))]
pub(crate) async fn create(
    State(app): State<App>,
    Caller(me): Caller,
    JsonBody(request): JsonBody<Create>,
) -> Result<(StatusCode, Json<TournamentView>), ApiError> {
    let tournament = app
        .service
        .create_tournament(NewTournament {
            organiser: me,
            name: request.name,
            variant: request.variant,
            options: request.options,
            time_control: request.time_control.into(),
            rated: request.rated,
            size: request.players,
            double: request.double,
            start: request
                .starts
                .map_or(missive_domain::TournamentStart::WhenFull, Into::into),
            withdrawal: request
                .withdrawal
                .map_or(missive_domain::WithdrawalScoring::Forfeit, Into::into),
            timeouts_to_withdraw: request.timeouts_to_withdraw,
            invited: request.invite,
            plays: request.plays.unwrap_or(true),
        })
        .await?;
    if let Err(error) = app.notifier().tournament_invitations(&tournament).await {
        tracing::warn!(tournament = %tournament.id, %error, "invitations not mailed");
    }
    Ok((StatusCode::CREATED, Json(tournament.into())))
}

/// Which page of tournaments to list.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ListQuery {
    /// Tournaments per page, 1 to 200 (50 if absent).
    #[serde(default)]
    #[param(value_type = Option<usize>, minimum = 1, maximum = 200)]
    limit: PageSize,
    /// The `next_cursor` of the page before.
    cursor: Option<String>,
}

/// List tournaments
///
/// Newest first, without standings, paged with an opaque cursor.
#[utoipa::path(get, path = "/v1/tournaments", tag = "tournaments", operation_id = "list_tournaments", security(()), params(ListQuery), responses(
    (status = 200, description = "A page of tournaments, newest first", body = Page<TournamentView>),
    (status = 400, description = "Bad cursor (`invalid-cursor`)", body = ErrorBody),
))]
pub(crate) async fn list(
    State(app): State<App>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Page<TournamentView>>, ApiError> {
    let limit = query.limit.or(PAGE);
    let cursor = query.cursor.map(Cursor);
    let page = app.service.tournaments(cursor.as_ref(), limit).await?;
    Ok(Json(Page::from(page).map(TournamentView::from)))
}

/// Read a tournament
///
/// With its standings and crosstable as of its games now (once started).
#[utoipa::path(get, path = "/v1/tournaments/{id}", tag = "tournaments", operation_id = "get_tournament", security(()), params(IdPath<TournamentId>), responses(
    (status = 200, description = "The tournament", body = TournamentView),
    (status = 404, description = "No such tournament (`tournament-not-found`)", body = ErrorBody),
))]
pub(crate) async fn view(
    State(app): State<App>,
    IdPath(id): IdPath<TournamentId>,
) -> Result<Json<TournamentView>, ApiError> {
    let read = app.service.tournament_standings(&id).await?;
    Ok(Json(read.into()))
}

/// Join a tournament
///
/// Takes a place; the last place taken starts a tournament that starts when full (see starting a tournament: 202 while its games are still being created).
#[utoipa::path(post, path = "/v1/tournaments/{id}/join", tag = "tournaments", operation_id = "join_tournament", security(("bearer" = [])), params(IdPath<TournamentId>), responses(
    (status = 200, description = "Joined (running, with its games, if that filled it)", body = TournamentView),
    (status = 202, description = "Joined, and that filled it: starting, its games known and still being created (the sweep creates the rest, then it runs)", body = TournamentView),
    (status = 404, description = "No such tournament (`tournament-not-found`)", body = ErrorBody),
    (status = 409, description = "Full, joined already (`taken`), or no longer open (`tournament-state`)", body = ErrorBody),
))]
pub(crate) async fn join(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<TournamentId>,
) -> Result<(StatusCode, Json<TournamentView>), ApiError> {
    app.service.join_tournament(&id, &me).await?;
    started_view(&app, &id).await
}

/// Start a tournament
///
/// Its organiser starts it with the players it has: its games (who sits where) are recorded at once and the tournament is `starting`; the games are then created in batches for a working time (10 s by default). If all exist by then it is `running` (200); otherwise the answer is 202 with the tournament `starting` and the sweep creates the rest within minutes, then makes it `running`. Games already created are played as usual meanwhile. Starting a tournament that is `starting` answers 202 with it as it is.
#[utoipa::path(post, path = "/v1/tournaments/{id}/start", tag = "tournaments", operation_id = "start_tournament", security(("bearer" = [])), params(IdPath<TournamentId>), responses(
    (status = 200, description = "Started: running, with its games", body = TournamentView),
    (status = 202, description = "Accepted: starting, its games known and still being created (the sweep creates the rest, then it runs)", body = TournamentView),
    (status = 403, description = "Not its organiser (`not-organiser`)", body = ErrorBody),
    (status = 404, description = "No such tournament (`tournament-not-found`)", body = ErrorBody),
    (status = 409, description = "Not open (`tournament-state`)", body = ErrorBody),
    (status = 422, description = "Too few players (`refused`)", body = ErrorBody),
))]
pub(crate) async fn start(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<TournamentId>,
) -> Result<(StatusCode, Json<TournamentView>), ApiError> {
    app.service.start_tournament(&id, &me).await?;
    started_view(&app, &id).await
}

/// Tournament `id` as read now: 202 while it is starting, else 200.
async fn started_view(
    app: &App,
    id: &TournamentId,
) -> Result<(StatusCode, Json<TournamentView>), ApiError> {
    let read = app.service.tournament_standings(id).await?;
    let status = match read.tournament.state {
        missive_domain::TournamentState::Starting => StatusCode::ACCEPTED,
        _ => StatusCode::OK,
    };
    Ok((status, Json(read.into())))
}

/// Withdraw from a tournament
///
/// Before the start you just leave it. While it is starting you cannot (409 until it runs). Once it runs, your games still being played are resigned; the crosstable scores them as the organiser chose (forfeit or annulled).
#[utoipa::path(post, path = "/v1/tournaments/{id}/withdraw", tag = "tournaments", operation_id = "withdraw_from_tournament", security(("bearer" = [])), params(IdPath<TournamentId>), responses(
    (status = 200, description = "Withdrawn", body = TournamentView),
    (status = 404, description = "No such tournament (`tournament-not-found`)", body = ErrorBody),
    (status = 409, description = "Withdrawn already (`taken`), or starting (until it runs) or finished (`tournament-state`)", body = ErrorBody),
    (status = 422, description = "You do not play in it (`refused`)", body = ErrorBody),
))]
pub(crate) async fn withdraw(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<TournamentId>,
) -> Result<Json<TournamentView>, ApiError> {
    app.service.withdraw_from_tournament(&id, &me).await?;
    view(State(app), IdPath(id)).await
}

/// Export a tournament
///
/// Every game as one archive text (docs/archive.md), each signed and tagged with the tournament (`Event`, `EventId`, `Round`) and its players' ratings before it; the crosstable opens the first game's moves as a comment.
#[utoipa::path(get, path = "/v1/tournaments/{id}/archive", tag = "tournaments", operation_id = "get_tournament_archive", security(()), params(IdPath<TournamentId>), responses(
    (status = 200, description = "The archive text", content_type = "application/x-chess-pgn", body = String),
    (status = 404, description = "No such tournament (`tournament-not-found`)", body = ErrorBody),
))]
pub(crate) async fn archive(
    State(app): State<App>,
    IdPath(id): IdPath<TournamentId>,
) -> Result<Response, ApiError> {
    let text = app.service.tournament_archive_text(&id).await?;
    Ok(archive_response(text))
}

/// Pause a tournament
///
/// Its organiser stops every clock of its games being played (moves are still taken) until it is resumed.
#[utoipa::path(post, path = "/v1/tournaments/{id}/pause", tag = "tournaments", operation_id = "pause_tournament", security(("bearer" = [])), params(IdPath<TournamentId>), responses(
    (status = 200, description = "Paused", body = TournamentView),
    (status = 403, description = "Not its organiser (`not-organiser`)", body = ErrorBody),
    (status = 404, description = "No such tournament (`tournament-not-found`)", body = ErrorBody),
    (status = 409, description = "Not running: open, starting (until it runs), paused or finished (`tournament-state`)", body = ErrorBody),
))]
pub(crate) async fn pause(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<TournamentId>,
) -> Result<Json<TournamentView>, ApiError> {
    app.service.pause_tournament(&id, &me).await?;
    view(State(app), IdPath(id)).await
}

/// Resume a tournament
///
/// Its organiser lets the clocks run again: every turn's deadline moves later by the pause's length.
#[utoipa::path(post, path = "/v1/tournaments/{id}/resume", tag = "tournaments", operation_id = "resume_tournament", security(("bearer" = [])), params(IdPath<TournamentId>), responses(
    (status = 200, description = "Running again", body = TournamentView),
    (status = 403, description = "Not its organiser (`not-organiser`)", body = ErrorBody),
    (status = 404, description = "No such tournament (`tournament-not-found`)", body = ErrorBody),
    (status = 409, description = "Not paused (`tournament-state`)", body = ErrorBody),
))]
pub(crate) async fn resume(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<TournamentId>,
) -> Result<Json<TournamentView>, ApiError> {
    app.service.resume_tournament(&id, &me).await?;
    view(State(app), IdPath(id)).await
}

/// An extension of a game's deadline.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Extend {
    /// Days the game's clocks stand still from now (1 to 60).
    #[schema(minimum = 1, maximum = 60)]
    days: u16,
}

/// Extend a game's deadline
///
/// The organiser of the game's tournament stops its clocks for some days from now: the turn's deadline moves that much later. Recorded in its log.
#[utoipa::path(post, path = "/v1/games/{id}/extend", tag = "tournaments", operation_id = "extend_deadline", security(("bearer" = [])), params(IdPath<GameId>), request_body = Extend, responses(
    (status = 204, description = "Extended"),
    (status = 403, description = "Not the organiser of its tournament (`not-organiser`)", body = ErrorBody),
    (status = 404, description = "No such game (`game-not-found`)", body = ErrorBody),
    (status = 409, description = "The game is not being played: forming or finished (`not-active`)", body = ErrorBody),
    (status = 422, description = "Not a tournament's game, or days out of range (`refused`)", body = ErrorBody),
))]
pub(crate) async fn extend(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
    JsonBody(request): JsonBody<Extend>,
) -> Result<StatusCode, ApiError> {
    app.service.extend_deadline(&id, &me, request.days).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// An organiser's adjudication of a game.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Adjudicate {
    /// One result per seat, in seat order: `win`, `shared-win`, `draw` or `loss`, one
    /// point in all (`["win", "loss"]`, `["draw", "draw"]`).
    results: Vec<String>,
    /// Why (1 to 200 characters): kept in the game's log and its archive.
    reason: String,
}

/// Adjudicate a game
///
/// The organiser of the game's tournament ends it with a result; recorded in its log, its ending rule `adjudication`.
#[utoipa::path(post, path = "/v1/games/{id}/adjudicate", tag = "tournaments", operation_id = "adjudicate", security(("bearer" = [])), params(IdPath<GameId>), request_body = Adjudicate, responses(
    (status = 200, description = "The ending", body = Ended),
    (status = 403, description = "Not the organiser of its tournament (`not-organiser`)", body = ErrorBody),
    (status = 404, description = "No such game (`game-not-found`)", body = ErrorBody),
    (status = 409, description = "Not active (`not-active`)", body = ErrorBody),
    (status = 422, description = "Not a tournament's game, results that are not a game's, or no reason (`refused`); a reason over 200 characters (`too-long`)", body = ErrorBody),
))]
pub(crate) async fn adjudicate(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
    JsonBody(request): JsonBody<Adjudicate>,
) -> Result<Json<Ended>, ApiError> {
    let results = request
        .results
        .iter()
        .map(|text| {
            SeatResult::parse(text)
                .ok_or_else(|| ApiError::bad_request(format!("unknown result `{text}`")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let ending = app
        .service
        .adjudicate(&id, &me, results, &request.reason)
        .await?;
    Ok(Ended::with(Some(ending)))
}

/// A player's ratings
///
/// One per variant they played a rated game in, each without its history (`/v1/players/{handle}/ratings/{variant}/history`).
#[utoipa::path(get, path = "/v1/players/{handle}/ratings", tag = "ratings", operation_id = "player_ratings", security(()), params(("handle" = String, Path, description = "The player's handle")), responses(
    (status = 200, description = "The player's ratings, by variant", body = Vec<RatingView>),
))]
pub(crate) async fn ratings(
    State(app): State<App>,
    Path(handle): Path<String>,
) -> Result<Json<Vec<RatingView>>, ApiError> {
    let records = app.service.ratings_of(&handle).await?;
    Ok(Json(
        records
            .into_iter()
            .map(RatingView::at(app.clock.now()))
            .collect(),
    ))
}

/// A page of a rating list.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct RatingPageQuery {
    /// Entries per page, 1 to 100 (50 if absent).
    #[param(minimum = 1, maximum = 100)]
    limit: Option<usize>,
    /// The `next_cursor` of the page before.
    cursor: Option<String>,
}

/// Which leaders to list.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct BoardQuery {
    /// List provisional ratings too (fewer than 10 rated games); `false` if absent.
    #[serde(default)]
    provisional: bool,
}

/// A variant's leaderboard
///
/// The highest established ratings in the variant (at least 10 rated games, unless `provisional`), highest first, paged with an opaque cursor; each without its history.
#[utoipa::path(get, path = "/v1/ratings/{variant}", tag = "ratings", operation_id = "leaderboard", security(()), params(("variant" = String, Path, description = "The variant id"), BoardQuery, RatingPageQuery), responses(
    (status = 200, description = "A page of the highest ratings, highest first", body = Page<RatingView>),
    (status = 400, description = "Unknown variant (`invalid-setup`), bad cursor (`invalid-cursor`)", body = ErrorBody),
))]
pub(crate) async fn leaderboard(
    State(app): State<App>,
    Path(variant): Path<String>,
    Query(board): Query<BoardQuery>,
    Query(page): Query<RatingPageQuery>,
) -> Result<Json<Page<RatingView>>, ApiError> {
    let limit = page.limit.unwrap_or(PAGE);
    let cursor = page.cursor.map(Cursor);
    let records = app
        .service
        .leaderboard(&variant, board.provisional, cursor.as_ref(), limit)
        .await?;
    Ok(Json(
        Page::from(records).map(RatingView::at(app.clock.now())),
    ))
}

/// A player's rating history
///
/// Every rated game's change to the player's rating in the variant, newest first, paged with an opaque cursor.
#[utoipa::path(get, path = "/v1/players/{handle}/ratings/{variant}/history", tag = "ratings", operation_id = "rating_history", security(()), params(("handle" = String, Path, description = "The player's handle"), ("variant" = String, Path, description = "The variant id"), RatingPageQuery), responses(
    (status = 200, description = "A page of the changes, newest first", body = Page<RatingChange>),
    (status = 400, description = "Bad cursor (`invalid-cursor`)", body = ErrorBody),
    (status = 404, description = "The player has no rating in the variant (`rating-not-found`)", body = ErrorBody),
))]
pub(crate) async fn rating_history(
    State(app): State<App>,
    Path((handle, variant)): Path<(String, String)>,
    Query(page): Query<RatingPageQuery>,
) -> Result<Json<Page<RatingChange>>, ApiError> {
    let limit = page.limit.unwrap_or(PAGE);
    let cursor = page.cursor.map(Cursor);
    let changes = app
        .service
        .rating_history(&handle, &variant, cursor.as_ref(), limit)
        .await?;
    Ok(Json(Page::from(changes).map(RatingChange::from)))
}
