//! Missive's HTTP API: one axum [`Router`] over the game service, the same whether it runs
//! in AWS Lambda (the `api` binary, through `lambda_http`) or on one machine
//! (`missive serve`, through `axum::serve`).
//!
//! - Every answer is JSON; every error has the shape `{"error": {"code", "message"}}`, made
//!   in one place ([`error`]) from the service's typed errors.
//! - Players sign up with a handle and an e-mail address and sign in without a password:
//!   `POST /v1/auth/login` mails a sign-in link, `POST /v1/auth/token` exchanges its token
//!   for an access token (a JWT, see `missive-auth`), sent as `Authorization: Bearer`.
//! - Game state carries an `ETag` (`If-None-Match` answers 304); lists page with opaque
//!   cursors; bodies are limited ([`BODY_LIMIT`], 413 beyond); each request gets an
//!   `x-request-id` (kept if the client sent one) that is logged and returned.
//! - Each caller (access token subject, else client address) has an allowance
//!   ([`limits`]): beyond it, 429 with `Retry-After`.
//! - `GET /v1/health` says the process answers, `GET /v1/ready` that its store does too
//!   ([`health`]); every request is logged at `info` once answered (method, matched route,
//!   status, latency, request id).
//! - `/xfcc` speaks Xfcc, the SOAP protocol of desktop correspondence programs ([`xfcc`]):
//!   its faults are XML, with status 500 as SOAP requires.
//! - The event feed (`GET /v1/events`) also goes over a WebSocket ([`sockets`]): served by
//!   `missive serve` itself, or by API Gateway's WebSocket API whose events the Lambda
//!   function hands to [`sockets::gateway`]; Web Push subscriptions are registered through
//!   `/v1/players/me/push`.
//! - [`server`] runs the router on one machine with timeouts, connection caps and graceful
//!   shutdown, and answers what fails below the router in the same error shape.
//! - Time comes from the [`Clock`] the [`App`] is built with, so tests drive deadlines.

mod app_passwords;
pub mod archives;
pub mod caller;
mod challenges;
pub mod description;
pub mod error;
pub mod events;
mod extract;
mod games;
pub mod health;
mod hooks;
pub mod invitations;
pub mod limits;
mod messages;
pub mod page;
mod paging;
mod players;
pub mod polls;
mod push;
pub mod quotas;
mod rules;
pub mod server;
pub mod session;
pub mod settings;
pub mod sockets;
mod tournaments;
mod unsubscribe;
mod wire;
pub mod xfcc;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, FromRequest, MatchedPath, Request};
use axum::http::header::{CONTENT_TYPE, HeaderValue};
use axum::http::{HeaderName, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use missive_auth::Authority;
use missive_game::{Clock, GameService};
use missive_mail::Mailer;
use serde::de::DeserializeOwned;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, Any, CorsLayer};
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub use caller::Caller;
pub use description::{ApiDoc, openapi_text};
pub use error::ApiError;
pub use limits::{Rate, RateLimiter, TrustedProxies, TrustedProxy};
pub use session::access_token;
pub use settings::Settings;

/// Largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Longest request target (path and query) accepted, in bytes (414 beyond).
pub const URI_LIMIT: usize = 8 * 1024;

/// The request id header.
pub const REQUEST_ID: &str = "x-request-id";

/// Limits the router enforces on each request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestLimits {
    /// How long a request may take until its answer starts (408 beyond).
    pub request_timeout: Duration,
    /// Largest archive `POST /v1/archive` accepts (413 beyond).
    pub archive_body: usize,
    /// Event feed polls one player may hold waiting at once in this process; more are
    /// answered at once, as without `wait` ([`polls`]).
    pub polls_per_player: usize,
    /// Event feed polls this process holds waiting at once; more are answered at once.
    pub polls_at_once: usize,
    /// The longest a feed poll waits, whatever `wait` it asks (at most
    /// [`missive_game::MAX_WAIT`]); the answer says how long it was let wait
    /// (`Event-Wait`).
    pub feed_wait: Duration,
}

impl Default for RequestLimits {
    /// 30 seconds; [`archives::ARCHIVE_LIMIT`]; 4 polls per player, 128 in all, waiting
    /// up to 25 seconds.
    fn default() -> RequestLimits {
        RequestLimits {
            request_timeout: Duration::from_secs(30),
            archive_body: archives::ARCHIVE_LIMIT,
            polls_per_player: 4,
            polls_at_once: 128,
            feed_wait: missive_game::MAX_WAIT,
        }
    }
}

impl RequestLimits {
    /// The poll budgets of these limits.
    pub fn polls(&self) -> polls::Polls {
        polls::Polls::new(self.polls_per_player, self.polls_at_once)
    }
}

/// Everything the routes share: the game service, the token authority, the mailer, the
/// clock and the public settings.
#[derive(Clone)]
pub struct App {
    /// The game service.
    pub service: GameService,
    /// Mints and checks tokens.
    pub authority: Arc<Authority>,
    /// Sends sign-in links.
    pub mailer: Arc<dyn Mailer>,
    /// Tells the time (the same clock as the service's).
    pub clock: Arc<dyn Clock>,
    /// The URL the API is reached at, without a trailing slash.
    pub public_url: String,
    /// Origins CORS allows (`*` for any).
    pub cors_origins: Vec<String>,
    /// Each caller's allowance ([`limits`]).
    pub rate_limiter: Arc<RateLimiter>,
    /// Proxies whose `X-Forwarded-For` names the client (none by default).
    pub trusted_proxies: TrustedProxies,
    /// Request timeout and body limits.
    pub limits: RequestLimits,
    /// The feed polls waiting now, within [`RequestLimits::polls`]' budgets, and the signal that
    /// ends their waits at shutdown (and closes WebSocket connections).
    pub polls: polls::Polls,
    /// What Web Push messages are signed with; `None`: no Web Push (its key route answers
    /// 404).
    pub push: Option<missive_notify::PushIdentity>,
    /// The WebSocket address apps are told to follow the feed at (`Event-Socket`); `None`:
    /// this server's own `/v1/events/ws` under its public URL.
    pub events_socket: Option<String>,
}

impl App {
    /// Now, in seconds since the epoch.
    pub fn now_seconds(&self) -> i64 {
        self.clock.now().timestamp()
    }

    /// The notifier over this application's service, authority, mailer, clock and public
    /// URL: what sends the mails a request itself causes (invitations, a declined one).
    pub fn notifier(&self) -> missive_notify::Scheduler {
        missive_notify::Scheduler::new(
            self.service.clone(),
            Arc::clone(&self.authority),
            Arc::clone(&self.mailer),
            Arc::clone(&self.clock),
            &self.public_url,
        )
    }

    /// The WebSocket address apps follow the feed at: the one configured, else
    /// `ws(s)://` and this server's public URL with `/v1/events/ws`; `None` when neither
    /// is known.
    pub fn events_socket(&self) -> Option<String> {
        if let Some(given) = &self.events_socket {
            return Some(given.clone());
        }
        let url = &self.public_url;
        let socket = url
            .strip_prefix("https://")
            .map(|rest| format!("wss://{rest}"))
            .or_else(|| {
                url.strip_prefix("http://")
                    .map(|rest| format!("ws://{rest}"))
            })?;
        Some(format!("{socket}{}", sockets::PATH))
    }

    /// The whole API as one router, with its middleware.
    pub fn router(self) -> Router {
        let cors = cors_layer(&self.cors_origins);
        let request_id = HeaderName::from_static(REQUEST_ID);
        let throttle = axum::middleware::from_fn_with_state(self.clone(), limits::throttle);
        let limits = self.limits;
        let (routes, _) = routes(limits.archive_body).split_for_parts();
        routes
            .merge(page::routes(&self))
            .fallback(|| async { ApiError::not_found("no such resource") })
            .with_state(self)
            .layer(throttle)
            .layer(DefaultBodyLimit::max(BODY_LIMIT))
            .layer(TimeoutLayer::with_status_code(
                StatusCode::REQUEST_TIMEOUT,
                limits.request_timeout,
            ))
            .layer(axum::middleware::map_request(uri_limit))
            .layer(axum::middleware::map_response(json_errors))
            .layer(CatchPanicLayer::custom(|_| {
                ApiError::internal("the request failed", "a handler panicked").into_response()
            }))
            .layer(cors)
            .layer(PropagateRequestIdLayer::new(request_id.clone()))
            .layer(
                TraceLayer::new_for_http()
                    .make_span_with(request_span)
                    .on_request(())
                    .on_response(access_line)
                    .on_failure(()),
            )
            .layer(SetRequestIdLayer::new(request_id, UlidRequestId))
    }
}

/// Every route of the API, with the description of those it documents (the router and
/// [`description`] are made from it alone); `archive_body` bounds `POST /v1/archive`.
pub(crate) fn routes(archive_body: usize) -> OpenApiRouter<App> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(players::routes())
        .merge(app_passwords::routes())
        .merge(session::routes())
        .merge(games::routes())
        .merge(rules::routes())
        .merge(unsubscribe::routes().into())
        .merge(archives::routes(archive_body))
        .merge(health::routes())
        .merge(challenges::routes())
        .merge(messages::routes())
        .merge(xfcc::routes().into())
        .merge(events::routes())
        .merge(push::routes())
        .merge(sockets::local::routes())
        .merge(hooks::routes())
        .merge(tournaments::routes())
        .routes(routes!(description::openapi_json))
}

/// The span every log line of a request is in: method, matched route (never the raw path,
/// which may hold a link's token), request id, the game of a game's route, the player
/// (recorded once the access token is checked: [`Caller::from_headers`]) and, under
/// Lambda, the invocation's request id and X-Ray trace id (empty elsewhere).
fn request_span(request: &Request) -> tracing::Span {
    let id = request
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("(none)", MatchedPath::as_str);
    let game = game_of(route, request.uri().path());
    // Under Lambda: the invocation's id and its X-Ray trace, to find the line in either.
    let invocation = request.extensions().get::<lambda_http::Context>();
    let aws_request_id = invocation.map_or("", |context| context.request_id.as_str());
    let trace_id = invocation
        .and_then(|context| context.xray_trace_id.as_deref())
        .unwrap_or("");
    tracing::info_span!(
        "request",
        method = %request.method(),
        route,
        request_id = %id,
        game,
        player = tracing::field::Empty,
        aws_request_id,
        trace_id,
    )
}

/// The game a request is about: the `{id}` of a `/v1/games/{id}...` route, read from the
/// request's `path`; empty for other routes.
fn game_of<'a>(route: &str, path: &'a str) -> &'a str {
    if !route.starts_with("/v1/games/{id}") {
        return "";
    }
    path.split('/').nth(3).unwrap_or("")
}

/// The access line, at `info` in the request's span (method, route, request id, game,
/// and the player once the access token is checked): status and latency.
fn access_line(response: &Response, latency: Duration, _: &tracing::Span) {
    tracing::info!(
        status = response.status().as_u16(),
        latency_ms = latency.as_secs_f64() * 1000.0,
        "answered"
    );
}

/// Refuses request targets longer than [`URI_LIMIT`] with 414.
async fn uri_limit(request: Request) -> Result<Request, ApiError> {
    let length = request
        .uri()
        .path_and_query()
        .map_or(0, |target| target.as_str().len());
    if length > URI_LIMIT {
        return Err(ApiError::new(
            StatusCode::URI_TOO_LONG,
            "uri-too-long",
            format!("the request target is {length} bytes, more than {URI_LIMIT}"),
        ));
    }
    Ok(request)
}

/// `mutex`'s guard, even if a holder panicked (what it guards are counts that stay usable).
pub(crate) fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Gives each request a ULID as its id.
#[derive(Clone, Copy, Debug)]
struct UlidRequestId;

impl MakeRequestId for UlidRequestId {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        HeaderValue::from_str(&ulid::Ulid::new().to_string())
            .ok()
            .map(RequestId::new)
    }
}

fn cors_layer(origins: &[String]) -> CorsLayer {
    let layer = CorsLayer::new()
        .allow_methods([Method::GET, Method::POST, Method::PUT, Method::DELETE])
        .allow_headers([
            CONTENT_TYPE,
            axum::http::header::AUTHORIZATION,
            axum::http::header::IF_NONE_MATCH,
            HeaderName::from_static("idempotency-key"),
        ])
        .expose_headers([
            axum::http::header::ETAG,
            axum::http::header::RETRY_AFTER,
            HeaderName::from_static(REQUEST_ID),
            HeaderName::from_static(events::CURSOR_HEADER),
            HeaderName::from_static(events::WAIT_HEADER),
            HeaderName::from_static(events::SOCKET_HEADER),
        ])
        .max_age(Duration::from_secs(3600));
    if origins.iter().any(|o| o == "*") {
        layer.allow_origin(Any)
    } else {
        let list: Vec<HeaderValue> = origins
            .iter()
            .filter_map(|o| HeaderValue::from_str(o.trim()).ok())
            .collect();
        layer.allow_origin(AllowOrigin::list(list))
    }
}

/// Gives every error answer that is not already JSON, an HTML page or a SOAP fault (XML,
/// see [`xfcc`]) the API's error shape: unknown methods, framework rejections, limits.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_shaped = response.headers().get(CONTENT_TYPE).is_some_and(|v| {
        let v = v.as_bytes();
        [
            &b"application/json"[..],
            b"text/html",
            b"text/xml",
            b"application/soap+xml",
        ]
        .iter()
        .any(|shaped| v.starts_with(shaped))
    });
    if !(status.is_client_error() || status.is_server_error()) || is_shaped {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    let message = status.canonical_reason().unwrap_or("error").to_lowercase();
    let fresh = ApiError::new(status, ApiError::code_for(status), message).into_response();
    let (fresh_parts, body) = fresh.into_parts();
    parts
        .headers
        .insert(CONTENT_TYPE, fresh_parts.headers[CONTENT_TYPE].clone());
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, body)
}

/// A JSON request body whose rejections answer in the API's error shape: 400 for malformed
/// JSON or wrong types, 413 beyond the body limit, 415 without a JSON content type.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request<Body>, state: &S) -> Result<Self, ApiError> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => {
                let status = match rejection.status() {
                    StatusCode::UNPROCESSABLE_ENTITY => StatusCode::BAD_REQUEST,
                    status => status,
                };
                Err(ApiError::new(
                    status,
                    ApiError::code_for(status),
                    rejection.body_text(),
                ))
            }
        }
    }
}
