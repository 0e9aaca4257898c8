//! Players: sign up, look one up, take a vacation, see the vacation balance, cancel or end
//! a leave.
//!
//! A sign-up tells nobody whether its address is registered: it answers 202 and mails the
//! address either a confirmation link (a single-use `sign-up` token naming the handle and
//! the address; exchanging it at `POST /v1/auth/token` registers the player) or, when the
//! address has an account already, a mail saying so with a sign-in link. Only a taken
//! handle (public anyway) is refused at once. Each sign-up counts against the mails of its
//! address and of its client, like a sign-in.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use chrono::{DateTime, Utc};
use missive_domain::Player;
use missive_game::{SignUpCheck, VacationBalance};
use missive_mail::Mail;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::limits::ClientAddress;
use crate::session::{self, MailSent};
use crate::wire::RatingView;
use crate::{ApiError, App, JsonBody};

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(sign_up))
        .routes(routes!(vacation_balance, take_vacation))
        .routes(routes!(end_vacation))
        .routes(routes!(player))
}

/// A sign-up.
#[derive(Deserialize, ToSchema)]
pub(crate) struct SignUp {
    /// The handle wanted: 2 to 24 letters, digits, `_` or `-`, starting with a letter.
    #[schema(schema_with = missive_game::api_schema::handle)]
    handle: String,
    /// The address the confirmation link is mailed to.
    #[schema(schema_with = missive_game::api_schema::email)]
    email: String,
}

/// A player as others see them (no e-mail address).
#[derive(Serialize, ToSchema)]
pub(crate) struct PublicPlayer {
    /// The handle.
    #[schema(schema_with = missive_game::api_schema::handle)]
    handle: String,
    /// When the player signed up.
    created_at: DateTime<Utc>,
    /// The player's ratings, by variant (in the player's profile; absent elsewhere and
    /// before a first rated game).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ratings: Vec<RatingView>,
}

impl From<Player> for PublicPlayer {
    fn from(player: Player) -> PublicPlayer {
        PublicPlayer {
            handle: player.handle,
            created_at: player.created_at,
            ratings: Vec::new(),
        }
    }
}

/// A vacation to take.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Vacation {
    /// The first instant: now or later.
    start: DateTime<Utc>,
    /// Whole days, at least 1.
    #[schema(minimum = 1)]
    days: u32,
}

/// Sign up
///
/// Mails the address a confirmation link; the player exists once its token is redeemed at POST /v1/auth/token. An address with an account is mailed a sign-in link instead.
#[utoipa::path(post, path = "/v1/players", tag = "players", operation_id = "sign_up", security(()), request_body = SignUp, responses(
    (status = 202, description = "A mail is on its way to the address: a confirmation link, or (if the address has an account) a sign-in link", body = MailSent),
    (status = 409, description = "Handle taken, without regard to case (`taken`)", body = ErrorBody),
    (status = 422, description = "Invalid or reserved handle, or not one plain address (`refused`)", body = ErrorBody),
    (status = 429, description = "Too many mails asked for this address or from this client (`limit-reached`, with `limit` and `Retry-After`), or too many requests (`rate-limited`)", body = ErrorBody, headers(("Retry-After" = u64, description = "Seconds to wait"))),
))]
pub(crate) async fn sign_up(
    State(app): State<App>,
    ClientAddress(client): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<SignUp>,
) -> Result<(StatusCode, Json<MailSent>), ApiError> {
    mail_sign_up(&app, &headers, &client, &request.handle, &request.email).await?;
    Ok(MailSent::accepted("a mail is on its way to the address"))
}

/// What a sign-up does, by API or page: refuses a taken handle (409) or an invalid handle
/// or address (422), counts the mail against `email` and `client` (429 beyond), then mails
/// the address a confirmation link, or a sign-in link if it has an account already.
pub(crate) async fn mail_sign_up(
    app: &App,
    headers: &HeaderMap,
    client: &str,
    handle: &str,
    email: &str,
) -> Result<(), ApiError> {
    let check = app.service.check_sign_up(handle, email).await?;
    app.service.count_mail(email, client).await?;
    let link = session::Link { headers, then: "" };
    let mail = match check {
        SignUpCheck::New => confirmation_mail(app, link, handle, email)?,
        SignUpCheck::Registered(player) => session::sign_in_mail(
            app,
            link,
            &player,
            "You already play on Missive",
            "someone, we hope you, asked to sign up on Missive with this address, which is \
             already yours: nothing new was registered. To play, ",
        )?,
    };
    session::send(app, &mail).await
}

/// The mail with the link confirming the sign-up of `handle` with `email`.
fn confirmation_mail(
    app: &App,
    link: session::Link<'_>,
    handle: &str,
    email: &str,
) -> Result<Mail, ApiError> {
    let email = email.trim();
    let token =
        app.authority
            .mint_sign_up(handle, email, session::SIGN_UP_LIFETIME, app.now_seconds())?;
    let text = format!(
        "Hello {handle},\n\nsomeone, we hope you, asked to play on Missive as {handle} with this \
         address. Open this link within 24 hours to confirm and sign in:\n{}\n\n\
         Or send this token to POST /v1/auth/token:\n{token}\n\n\
         If it was not you, ignore this mail: nothing is registered until the link is used.\n",
        session::token_link(app, link, &token)
    );
    Ok(session::token_mail(
        email,
        "Confirm your Missive sign-up",
        text,
        token,
    ))
}

/// Read a player
#[utoipa::path(get, path = "/v1/players/{handle}", tag = "players", operation_id = "get_player", security(()), params(("handle" = String, Path, description = "The handle (case does not matter)", pattern = "^[A-Za-z][A-Za-z0-9_-]{1,23}$")), responses(
    (status = 200, description = "The player", body = PublicPlayer),
    (status = 404, description = "No such player (`player-not-found`)", body = ErrorBody),
))]
pub(crate) async fn player(
    State(app): State<App>,
    Path(handle): Path<String>,
) -> Result<Json<PublicPlayer>, ApiError> {
    let mut profile: PublicPlayer = app.service.player(&handle).await?.into();
    let ratings = app.service.ratings_of(&profile.handle).await?;
    profile.ratings = ratings
        .into_iter()
        .map(RatingView::at(app.clock.now()))
        .collect();
    Ok(Json(profile))
}

/// Take a vacation
///
/// Whole days from a start not in the past; the player's clocks stand still in every game meanwhile.
#[utoipa::path(put, path = "/v1/players/me/vacation", tag = "players", operation_id = "take_vacation", security(("bearer" = [])), request_body = Vacation, responses(
    (status = 200, description = "Every period taken, and the balance of the year", body = VacationBalance),
    (status = 422, description = "Refused: overlap, past, over the allowance (`refused`)", body = ErrorBody),
))]
pub(crate) async fn take_vacation(
    State(app): State<App>,
    Caller(me): Caller,
    JsonBody(request): JsonBody<Vacation>,
) -> Result<Json<VacationBalance>, ApiError> {
    app.service
        .take_vacation(&me, request.start, request.days)
        .await?;
    Ok(Json(app.service.vacation_balance(&me).await?))
}

/// Read the caller's vacations
#[utoipa::path(get, path = "/v1/players/me/vacation", tag = "players", operation_id = "get_vacation", security(("bearer" = [])), responses(
    (status = 200, description = "Every period taken, and the days used and left this year", body = VacationBalance),
))]
pub(crate) async fn vacation_balance(
    State(app): State<App>,
    Caller(me): Caller,
) -> Result<Json<VacationBalance>, ApiError> {
    Ok(Json(app.service.vacation_balance(&me).await?))
}

/// Cancel or end a vacation
///
/// A leave not started yet is cancelled; one under way ends now. The days not used are given back.
#[utoipa::path(delete, path = "/v1/players/me/vacation/{start}", tag = "players", operation_id = "end_vacation", security(("bearer" = [])), params(("start" = String, Path, format = DateTime, description = "The leave's start, RFC 3339, as the balance lists it")), responses(
    (status = 200, description = "The leave cancelled (before its start) or ended now (under way); the balance after it", body = VacationBalance),
    (status = 400, description = "Not an RFC 3339 time", body = ErrorBody),
    (status = 404, description = "The player is unknown (`player-not-found`)", body = ErrorBody),
    (status = 422, description = "Refused: no leave starts then, or it is over (`refused`)", body = ErrorBody),
))]
pub(crate) async fn end_vacation(
    State(app): State<App>,
    Caller(me): Caller,
    Path(start): Path<String>,
) -> Result<Json<VacationBalance>, ApiError> {
    let start = DateTime::parse_from_rfc3339(&start)
        .map(|start| start.with_timezone(&Utc))
        .map_err(|_| ApiError::bad_request("the leave is named by its start, in RFC 3339"))?;
    app.service.end_vacation(&me, start).await?;
    Ok(Json(app.service.vacation_balance(&me).await?))
}
