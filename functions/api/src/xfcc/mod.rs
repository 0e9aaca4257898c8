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

pub(crate) mod answer;
mod games;
mod moves;
mod wsdl;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::get;
use missive_domain::Player;

pub use self::games::number_of;

use missive_xfcc::{Call, EnvelopeLimits, Fault, envelope};

use self::answer::{Outcome, xml};
use crate::error::SoapFailure;
use crate::session::public_url;
use crate::{App, BODY_LIMIT};

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
    let limits = EnvelopeLimits {
        bytes: BODY_LIMIT,
        ..EnvelopeLimits::XFCC
    };
    let call = match Call::parse(&body, &limits) {
        Ok(call) => call,
        Err((version, fault)) => return SoapFailure::Fault(fault).into_soap(version),
    };
    match answer(&app, &headers, &call).await {
        Ok(body) => xml(
            StatusCode::OK,
            call.version.content_type(),
            envelope(call.version, &body),
        ),
        Err(failure) => failure.into_soap(call.version),
    }
}

/// The body of the answer to `call`.
async fn answer(app: &App, headers: &HeaderMap, call: &Call) -> Result<String, SoapFailure> {
    match call.operation.as_str() {
        "GetMyGames" => {
            let player = signed_in(app, call).await?;
            let base = public_url(app, headers);
            Ok(games::get_my_games(app, &player, &base).await?)
        }
        "MakeAMove" => {
            let request = moves::Request::of(call)?;
            let outcome = match signed_in(app, call).await {
                Ok(player) => moves::make_a_move(app, &player, &request).await?,
                Err(SoapFailure::Busy(busy)) => return Err(SoapFailure::Busy(busy)),
                Err(SoapFailure::Fault(_)) => Outcome::AuthenticationFailed,
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
async fn signed_in(app: &App, call: &Call) -> Result<Player, SoapFailure> {
    app.service
        .sign_in_with_app_password(call.text("username"), call.text("password"))
        .await
        .map_err(SoapFailure::from)
}
