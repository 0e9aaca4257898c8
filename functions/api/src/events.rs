//! The caller's event feed: `GET /v1/events`, JSON lines, held open while nothing is new.

use std::time::Duration;

use axum::extract::{Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use missive_game::{EventView, MAX_EVENTS, MAX_WAIT};
use serde::Deserialize;
use utoipa::IntoParams;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::{ApiError, App};

/// The media type of the feed: one JSON object per line.
pub const JSON_LINES: &str = "application/x-ndjson";
/// The header that carries where the feed goes on after the answer's events.
pub const CURSOR_HEADER: &str = "event-cursor";
/// The header that says how many seconds the poll was let wait (less than asked beyond
/// the server's longest wait, or its poll budgets, or at shutdown: 0).
pub const WAIT_HEADER: &str = "event-wait";
/// The header that names the WebSocket address the feed is followed at without polling.
pub const SOCKET_HEADER: &str = "event-socket";

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new().routes(routes!(events))
}

/// Where to read the feed from and how long to wait.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct EventsQuery {
    /// Where to go on from: the `Event-Cursor` of the last answer, or the `cursor` of the
    /// last event handled. Absent: from the oldest event kept (30 days).
    cursor: Option<String>,
    /// Seconds to hold the request open while there is nothing new, 0 to 25 (0 if absent);
    /// the server may let it wait less (`Event-Wait` says how long): on AWS Lambda 5 s at
    /// most, where the feed is followed over the WebSocket (`Event-Socket`).
    #[param(minimum = 0, maximum = 25)]
    wait: Option<u64>,
    /// Most events in the answer, 1 to 100 (100 if absent).
    #[param(minimum = 1, maximum = 100)]
    limit: Option<usize>,
}

/// Follow my events
///
/// The caller's events since the cursor, oldest first, one JSON object per line (`application/x-ndjson`): your turn, another player moved, draws offered, withdrawn, accepted and declined, messages, eliminations, the game's start and end, invitations, challenges accepted, a tournament organiser's pauses, resumptions, extensions and adjudications, and the start and end of the caller's tournaments (events about a whole tournament have no `game`). With `wait`, the request is held open until something happens or the time is up (then the answer has no lines). Every event carries its own `cursor`, and the `Event-Cursor` header the one after the last: going on from either gives every later event. Delivery is at least once (an event given twice has the same `id`); events are kept 30 days, and an older cursor answers 410 `cursor-expired`.
#[utoipa::path(get, path = "/v1/events", tag = "events", operation_id = "follow_events", security(("bearer" = [])), params(EventsQuery), responses(
    (status = 200, description = "The events, one JSON object per line (none when the wait ran out)", content_type = "application/x-ndjson", body = EventView,
        headers(("Event-Cursor" = String, description = "Where the feed goes on after this answer"),
            ("Event-Wait" = u64, description = "Seconds the poll was let wait: less than `wait` beyond the server's longest wait (5 s on AWS Lambda), beyond its poll budgets, or at its shutdown (0)"),
            ("Event-Socket" = String, description = "The WebSocket address the feed is followed at without polling (`/v1/events/ws`, or the API Gateway WebSocket API)"))),
    (status = 400, description = "A cursor this server did not give out, or `wait`/`limit` out of range (`invalid-cursor`, `bad-request`)", body = ErrorBody),
    (status = 410, description = "The cursor is older than the events kept (`cursor-expired`): read your games again and start without one", body = ErrorBody),
))]
pub(crate) async fn events(
    State(app): State<App>,
    headers: HeaderMap,
    Query(query): Query<EventsQuery>,
) -> Result<Response, ApiError> {
    let Caller(player) = Caller::from_headers(&headers, &app)?;
    let wait = query.wait.unwrap_or(0);
    if wait > MAX_WAIT.as_secs() {
        return Err(ApiError::bad_request(format!(
            "wait is at most {} seconds",
            MAX_WAIT.as_secs()
        )));
    }
    let limit = query.limit.unwrap_or(MAX_EVENTS);
    if !(1..=MAX_EVENTS).contains(&limit) {
        return Err(ApiError::bad_request(format!("limit is 1 to {MAX_EVENTS}")));
    }
    // The answer must start before the request's own time is up, and no poll waits longer
    // than the server lets it; a poll beyond the budgets ([`crate::polls`]) does not wait,
    // and none waits past the start of shutdown.
    let wait = Duration::from_secs(wait).min(app.limits.feed_wait).min(
        app.limits
            .request_timeout
            .saturating_sub(Duration::from_secs(2)),
    );
    let cursor = query.cursor.as_deref();
    let permit = (!wait.is_zero())
        .then(|| app.polls.try_wait(&player))
        .flatten();
    let wait = if permit.is_some() {
        wait
    } else {
        Duration::ZERO
    };
    let read = tokio::select! {
        read = app.service.events(&player, cursor, wait, limit) => read?,
        () = app.polls.stopped(), if permit.is_some() => {
            app.service.events(&player, cursor, Duration::ZERO, limit).await?
        }
    };
    let waited = if app.polls.is_stopped() {
        Duration::ZERO
    } else {
        wait
    };
    drop(permit);
    let mut body = String::new();
    for event in &read.events {
        body.push_str(
            &serde_json::to_string(event).map_err(|e| {
                ApiError::internal("the events could not be written", e.to_string())
            })?,
        );
        body.push('\n');
    }
    let cursor = HeaderValue::from_str(&read.cursor)
        .map_err(|e| ApiError::internal("the cursor could not be written", e.to_string()))?;
    let mut answer = (
        [
            (CONTENT_TYPE, HeaderValue::from_static(JSON_LINES)),
            (HeaderName::from_static(CURSOR_HEADER), cursor),
            (
                HeaderName::from_static(WAIT_HEADER),
                HeaderValue::from(waited.as_secs()),
            ),
        ],
        body,
    )
        .into_response();
    if let Some(socket) = app
        .events_socket()
        .and_then(|socket| HeaderValue::from_str(&socket).ok())
    {
        answer
            .headers_mut()
            .insert(HeaderName::from_static(SOCKET_HEADER), socket);
    }
    Ok(answer)
}
