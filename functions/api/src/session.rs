//! Passwordless sign-in and the caller's identity.
//!
//! `POST /v1/auth/login` mails a sign-in link to a registered address (and answers the same
//! whether or not the address is known, so it tells nobody who plays here); every request
//! counts against the mails of its address and of its client
//! ([`missive_game::GameService::count_mail`]), registered or not, and beyond them is 429.
//! `POST /v1/auth/token` exchanges the token of a sign-in link, or of a sign-up's
//! confirmation link (which registers the player first), for an access token, once only:
//! the token's use is recorded in the store until it expires, and a second exchange is
//! refused (401).

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use chrono::DateTime;
use missive_auth::{Claims, Grant, Purpose};
use missive_domain::Player;
use missive_mail::Mail;
use missive_notify::compose::REPLIES_NOT_READ;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ErrorBody;
use crate::limits::ClientAddress;
use crate::{ApiError, App, JsonBody};

/// How long a sign-in link works, in seconds.
pub const SIGN_IN_LIFETIME: i64 = 15 * 60;
/// How long a sign-up's confirmation link works, in seconds.
pub const SIGN_UP_LIFETIME: i64 = 24 * 3600;
/// How long an access token works, in seconds.
pub const ACCESS_LIFETIME: i64 = 30 * 24 * 3600;

/// An access token for `handle`, as `missive token` and the token route mint it.
pub fn access_token(app: &App, handle: &str) -> Result<String, ApiError> {
    let grant = Grant {
        purpose: Purpose::Access,
        subject: handle.to_string(),
        lifetime: ACCESS_LIFETIME,
    };
    Ok(app.authority.mint(&grant, app.now_seconds())?)
}

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(exchange))
}

/// The answer to a request that mails a link: what is on its way, in words.
#[derive(Serialize, ToSchema)]
pub(crate) struct MailSent {
    /// What was done, for people.
    status: &'static str,
}

impl MailSent {
    /// 202 with `status`.
    pub(crate) fn accepted(status: &'static str) -> (StatusCode, Json<MailSent>) {
        (StatusCode::ACCEPTED, Json(MailSent { status }))
    }
}

/// A request for a sign-in link.
#[derive(Deserialize, ToSchema)]
pub(crate) struct LoginRequest {
    /// The player's address.
    #[schema(schema_with = missive_game::api_schema::email)]
    email: String,
}

/// A sign-in token to exchange.
#[derive(Deserialize, ToSchema)]
pub(crate) struct TokenRequest {
    /// The token of the mailed link.
    #[schema(min_length = 1)]
    token: String,
}

/// An access token.
#[derive(Serialize, ToSchema)]
pub(crate) struct TokenAnswer {
    /// The access token, for `Authorization: Bearer`.
    access_token: String,
    /// `Bearer`.
    #[schema(schema_with = bearer)]
    token_type: &'static str,
    /// Seconds until it expires.
    expires_in: i64,
    /// Whose it is.
    #[schema(schema_with = missive_game::api_schema::handle)]
    handle: String,
}

/// The token type: `Bearer`.
fn bearer() -> utoipa::openapi::schema::Schema {
    missive_game::api_schema::words(["Bearer"], "The token type")
}

/// Ask for a sign-in link
///
/// Mails a sign-in link if the address is registered; the answer is the same either way.
#[utoipa::path(post, path = "/v1/auth/login", tag = "auth", operation_id = "request_sign_in", security(()), request_body = LoginRequest, responses(
    (status = 202, description = "A sign-in link is mailed if the address is registered", body = MailSent),
    (status = 429, description = "Too many mails asked for this address or from this client (`limit-reached`, with `limit` and `Retry-After`), or too many requests (`rate-limited`)", body = ErrorBody, headers(("Retry-After" = u64, description = "Seconds to wait"))),
))]
pub(crate) async fn login(
    State(app): State<App>,
    ClientAddress(client): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<LoginRequest>,
) -> Result<(StatusCode, Json<MailSent>), ApiError> {
    mail_sign_in(&app, &headers, &client, &request.email, "").await?;
    Ok(MailSent::accepted(
        "if the address is registered, a link is on its way",
    ))
}

/// What a request for a sign-in link does, by API or page: counts the mail against
/// `email` and `client` (429 beyond), then mails a sign-in link if `email` is registered
/// and nothing otherwise, so the outcome tells nobody who plays here. `then` (query text,
/// `&then=...`, or nothing) is appended to the link.
pub(crate) async fn mail_sign_in(
    app: &App,
    headers: &HeaderMap,
    client: &str,
    email: &str,
    then: &str,
) -> Result<(), ApiError> {
    app.service.count_mail(email, client).await?;
    if let Some(player) = app.service.player_by_email(email).await? {
        let link = Link { headers, then };
        let mail = sign_in_mail(app, link, &player, "Your Missive sign-in link", "")?;
        send(app, &mail).await?;
    }
    Ok(())
}

/// Where a mailed link points: the request it answers (for the host when no public URL is
/// configured) and query text appended to it (`&then=...`, or nothing).
#[derive(Clone, Copy)]
pub(crate) struct Link<'r> {
    /// The request's headers.
    pub headers: &'r HeaderMap,
    /// Appended to the link's query.
    pub then: &'r str,
}

/// The mail bringing `player` a sign-in link under `subject`, `preface` (a paragraph or
/// nothing) before the link.
pub(crate) fn sign_in_mail(
    app: &App,
    link: Link<'_>,
    player: &Player,
    subject: &str,
    preface: &str,
) -> Result<Mail, ApiError> {
    let grant = Grant {
        purpose: Purpose::SignIn,
        subject: player.handle.clone(),
        lifetime: SIGN_IN_LIFETIME,
    };
    let token = app.authority.mint(&grant, app.now_seconds())?;
    let text = format!(
        "Hello {},\n\n{preface}open this link within 15 minutes to sign in:\n{}\n\n\
         Or send this token to POST /v1/auth/token:\n{token}\n",
        player.handle,
        token_link(app, link, &token)
    );
    Ok(token_mail(&player.email, subject, text, token))
}

/// A plain-text mail to `to` carrying `token` (also in the `X-Missive-Token` header, for
/// scripts and tests), its last line saying that replies are not read.
pub(crate) fn token_mail(to: &str, subject: &str, text: String, token: String) -> Mail {
    Mail {
        to: to.to_string(),
        subject: subject.into(),
        text: format!("{text}\n-- \n{REPLIES_NOT_READ}\n"),
        html: None,
        inline: Vec::new(),
        attachments: Vec::new(),
        headers: vec![("X-Missive-Token".into(), token)],
        thread: None,
    }
}

/// The link that exchanges `token` (a sign-in or sign-up token) for an access token.
pub(crate) fn token_link(app: &App, link: Link<'_>, token: &str) -> String {
    format!(
        "{}/sign-in?token={token}{}",
        public_url(app, link.headers),
        link.then
    )
}

/// Sends `mail`; a mailer failure is an internal error.
pub(crate) async fn send(app: &App, mail: &Mail) -> Result<(), ApiError> {
    app.mailer
        .send(mail)
        .await
        .map_err(|e| ApiError::internal("the mail could not be sent", e))
}

/// The identity of a single-use token: a digest of its claims, so every encoding of the
/// same signed claims is the same token.
fn token_id(claims: &Claims) -> String {
    let mut text = format!(
        "{:?}\n{}\n{}\n{}",
        claims.purpose, claims.sub, claims.iat, claims.exp
    );
    if let Some(email) = &claims.email {
        text.push('\n');
        text.push_str(email);
    }
    missive_domain::hex_sha256(&text)
}

/// The configured public URL, else `https://` and the request's host.
pub(crate) fn public_url(app: &App, headers: &HeaderMap) -> String {
    if !app.public_url.is_empty() {
        return app.public_url.clone();
    }
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost");
    format!("https://{host}")
}

/// Exchange a mailed token for an access token
///
/// Takes the token of a sign-in link or of a sign-up's confirmation link (single use).
#[utoipa::path(post, path = "/v1/auth/token", tag = "auth", operation_id = "exchange_token", security(()), request_body = TokenRequest, responses(
    (status = 200, description = "An access token (for a sign-up's token, of the player it registered)", body = TokenAnswer),
    (status = 401, description = "Invalid or expired token, or one used already (`invalid-token`, `token-expired`)", body = ErrorBody),
    (status = 403, description = "Not a sign-in or sign-up token (`wrong-token-purpose`)", body = ErrorBody),
    (status = 409, description = "A sign-up whose handle or address was taken meanwhile (`taken`)", body = ErrorBody),
))]
pub(crate) async fn exchange(
    State(app): State<App>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<TokenAnswer>, ApiError> {
    let handle = redeem(&app, &request.token).await?;
    Ok(Json(TokenAnswer {
        access_token: access_token(&app, &handle)?,
        token_type: "Bearer",
        expires_in: ACCESS_LIFETIME,
        handle,
    }))
}

/// Spends a sign-in token, or a sign-up token (registering its player first), once only:
/// the handle of the player it signs in, or why not (401 for a token used already, and
/// every token failure as the routes answer it).
pub(crate) async fn redeem(app: &App, token: &str) -> Result<String, ApiError> {
    let claims = app.authority.verify_any(
        token,
        &[Purpose::SignIn, Purpose::SignUp],
        app.now_seconds(),
    )?;
    let expires_at = DateTime::from_timestamp(claims.exp, 0)
        .ok_or_else(|| ApiError::unauthorized("the token's expiry is out of range"))?;
    if !app
        .service
        .spend_token(&token_id(&claims), expires_at)
        .await?
    {
        return Err(ApiError::unauthorized(
            "this link was used already: ask for a new one",
        ));
    }
    match (claims.purpose, &claims.email) {
        (Purpose::SignUp, Some(email)) => Ok(app
            .service
            .confirm_sign_up(&claims.sub, email)
            .await?
            .handle),
        (Purpose::SignUp, None) => {
            Err(ApiError::unauthorized("the sign-up token names no address"))
        }
        _ => Ok(claims.sub),
    }
}
