//! Xfcc: the SOAP web service desktop correspondence programs (ChessBase, Scid's
//! correspondence window, Lucas Chess, ...) speak with ICCF and SchemingMind, so a player can
//! play their Missive chess games from such a program.
//!
//! - `GET /xfcc` (with `?wsdl` or any query, as clients ask) serves the WSDL
//!   ([`wsdl`]); its service address is the server's public URL and `/xfcc`.
//! - `POST /xfcc` takes a SOAP 1.1 (`text/xml`) or 1.2 (`application/soap+xml`) envelope
//!   whose body names one operation of `http://www.bennedik.com/webservices/XfccBasic`
//!   (the body decides, whatever `SOAPAction` says): `GetMyGames(username, password)`
//!   ([`games`]) or `MakeAMove(username, password, gameId, resign, acceptDraw, movecount,
//!   myMove, offerDraw, claimDraw, myMessage)` ([`moves`]). The answer comes in the
//!   request's SOAP version.
//! - `username` is the player's handle (without regard to case), `password` one of their
//!   application passwords (`POST /v1/players/me/app-passwords`).
//! - What the protocol has a result code for is answered with it, in a normal answer (200):
//!   `MakeAMove`'s `AuthenticationFailed`, `InvalidMove`, `NotYourTurn`, ... Everything
//!   else is a SOAP fault with HTTP status 500, as SOAP over HTTP requires of every fault:
//!   an envelope that cannot be read, an unknown operation, a parameter of the wrong type
//!   and a `GetMyGames` with wrong credentials are the sender's (`Client`, 1.2 `Sender`;
//!   the reason names `AuthenticationFailed` for clients that look for it), a store that
//!   fails the server's (`Server`, `Receiver`). These are the only 500s of the API that are
//!   not failures of its own. A server too busy to check the password now answers a
//!   `Server` (`Receiver`) fault with the API's status for it, 503, and `Retry-After`.
//! - Chess only. Xfcc's games are standard chess: movetext in SAN, a FEN for a set-up
//!   position, white and black. Of Missive's variants only `chess` fits; Dynamo chess moves
//!   (pushes and pulls) are no SAN any client reads, Tri-D chess and the xiangqi games have
//!   other boards. Other games are not listed, and their numbers are unknown to
//!   `MakeAMove` (`InvalidGameID`): a program that cannot show a game had better not see it.

mod games;
mod moves;
mod wsdl;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use missive_domain::Player;
use missive_game::ServiceError;
use missive_store::StoreError;

pub use self::games::number_of;

use missive_xfcc::{Call, Fault, Limits, SoapVersion, envelope, fault_envelope};

use crate::session::public_url;
use crate::{ApiError, App, BODY_LIMIT};

pub(crate) fn routes() -> Router<App> {
    Router::new().route("/xfcc", get(description).post(call))
}

/// The WSDL, with the service at this server's public URL.
async fn description(State(app): State<App>, headers: HeaderMap) -> Response {
    let address = format!("{}/xfcc", public_url(&app, &headers));
    xml(
        StatusCode::OK,
        "text/xml; charset=utf-8",
        wsdl::wsdl(&address),
    )
}

/// One SOAP call: its answer, or a fault.
async fn call(State(app): State<App>, headers: HeaderMap, body: Bytes) -> Response {
    let limits = Limits {
        bytes: BODY_LIMIT,
        ..Limits::XFCC
    };
    let call = match Call::parse(&body, &limits) {
        Ok(call) => call,
        Err((version, fault)) => return faulted(version, &fault),
    };
    match answer(&app, &headers, &call).await {
        Ok(body) => xml(
            StatusCode::OK,
            call.version.content_type(),
            envelope(call.version, &body),
        ),
        Err(Failure::Fault(fault)) => faulted(call.version, &fault),
        Err(Failure::Busy(busy)) => too_busy(call.version, busy),
    }
}

/// Why a call has no answer: a fault, or the server too busy for it now.
enum Failure {
    Fault(Fault),
    Busy(ApiError),
}

impl From<Fault> for Failure {
    fn from(fault: Fault) -> Failure {
        Failure::Fault(fault)
    }
}

/// The body of the answer to `call`.
async fn answer(app: &App, headers: &HeaderMap, call: &Call) -> Result<String, Failure> {
    match call.operation.as_str() {
        "GetMyGames" => {
            let player = signed_in(app, call).await?;
            let base = public_url(app, headers);
            Ok(games::get_my_games(app, &player, &base)
                .await
                .map_err(server_fault)?)
        }
        "MakeAMove" => {
            let request = moves::Request::of(call)?;
            let outcome = match signed_in(app, call).await {
                Ok(player) => moves::make_a_move(app, &player, &request).await?,
                Err(Failure::Busy(busy)) => return Err(Failure::Busy(busy)),
                Err(Failure::Fault(_)) => moves::Outcome::AuthenticationFailed,
            };
            Ok(outcome.answer())
        }
        other => Err(Fault::sender(format!(
            "XfccBasic has no operation `{other}`: GetMyGames and MakeAMove"
        ))
        .into()),
    }
}

/// The player `username` and `password` sign in.
async fn signed_in(app: &App, call: &Call) -> Result<Player, Failure> {
    app.service
        .sign_in_with_app_password(call.text("username"), call.text("password"))
        .await
        .map_err(server_fault)
}

/// The fault for a refusal or failure of the service's.
fn server_fault(error: ServiceError) -> Failure {
    Failure::Fault(match error {
        ServiceError::Busy(busy) => return Failure::Busy(busy.into()),
        ServiceError::BadCredentials => {
            Fault::sender("AuthenticationFailed: unknown handle or wrong application password")
        }
        ServiceError::Store(StoreError::Backend(reason)) => {
            tracing::error!(%reason, "the store failed");
            Fault::receiver("the store is unavailable for the moment: try again")
        }
        error => {
            tracing::error!(%error, "an Xfcc call failed");
            Fault::receiver("the request could not be carried out")
        }
    })
}

/// The server's fault saying `busy`'s message, in the envelope of `version`, with `busy`'s
/// status and `Retry-After`.
fn too_busy(version: SoapVersion, busy: ApiError) -> Response {
    let mut answer = xml(
        busy.status,
        version.content_type(),
        fault_envelope(version, &Fault::receiver(busy.message)),
    );
    if let Some(seconds) = busy.retry_after {
        answer
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from(seconds));
    }
    answer
}

/// `fault` in the envelope of `version`, with status 500.
fn faulted(version: SoapVersion, fault: &Fault) -> Response {
    xml(
        StatusCode::INTERNAL_SERVER_ERROR,
        version.content_type(),
        fault_envelope(version, fault),
    )
}

fn xml(status: StatusCode, content_type: &'static str, text: String) -> Response {
    (
        status,
        [(CONTENT_TYPE, HeaderValue::from_static(content_type))],
        text,
    )
        .into_response()
}
