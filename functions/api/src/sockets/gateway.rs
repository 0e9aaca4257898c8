//! The feed's WebSocket on AWS: API Gateway's WebSocket API holds the connections and
//! invokes the api function only when one opens, sends a message or closes; nothing runs
//! while a connection is idle. An opening is authenticated and recorded (its player, a
//! lifetime of a little over API Gateway's two hours); `subscribe` saves the connection's
//! place in the feed and sends it the events since through the `@connections` API; a
//! closing forgets it. The events of later changes are the notifier's to send
//! ([`missive_notify::sockets`]).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use lambda_http::aws_lambda_events::apigw::ApiGatewayWebsocketProxyRequestContext;
use lambda_http::request::RequestContext;
use missive_domain::SocketId;
use missive_game::ServiceError;
use missive_notify::SocketSender;

use super::{ClientMessage, PONG};
use crate::caller::Caller;
use crate::{ApiError, App};

/// The WebSocket API's context of `request`, if API Gateway's WebSocket API sent it.
pub fn context_of(
    request: &lambda_http::Request,
) -> Option<&ApiGatewayWebsocketProxyRequestContext> {
    match request.extensions().get::<RequestContext>() {
        Some(RequestContext::WebSocket(context)) => Some(context),
        _ => None,
    }
}

/// Handles one event of the WebSocket API (`request`, with its `context`): the answer's
/// status is what API Gateway does with an opening (2xx lets it open); messages and
/// closings are answered 200 whatever happened (what a client is told goes through
/// `sockets`). Without `sockets` (no `@connections` endpoint configured) nothing is sent.
pub async fn handle(
    app: &App,
    sockets: Option<&SocketSender>,
    context: &ApiGatewayWebsocketProxyRequestContext,
    request: &lambda_http::Request,
) -> Response {
    let Some(id) = context.connection_id.clone().map(SocketId) else {
        return ApiError::bad_request("a WebSocket event without a connection id").into_response();
    };
    let outcome = match context.event_type.as_deref() {
        Some("CONNECT") => open(app, id.clone(), request).await,
        Some("DISCONNECT") => close(app, &id).await,
        _ => message(sockets, &id, request).await,
    };
    match outcome {
        Ok(()) => StatusCode::OK.into_response(),
        Err(error) => {
            tracing::info!(socket = %id, code = error.code, "WebSocket event refused");
            error.into_response()
        }
    }
}

/// Records the opening connection `id` as its access token's player.
async fn open(app: &App, id: SocketId, request: &lambda_http::Request) -> Result<(), ApiError> {
    let token = access_token(request.uri().query());
    let Caller(player) = Caller::of_socket(request.headers(), token.as_deref(), app)?;
    app.service.open_socket(id, &player).await?;
    Ok(())
}

/// Forgets connection `id`.
async fn close(app: &App, id: &SocketId) -> Result<(), ApiError> {
    match app.service.socket(id).await {
        Ok(socket) => Ok(app.service.close_socket(&socket).await?),
        Err(ServiceError::NoSocket(_)) => Ok(()),
        Err(error) => Err(error.into()),
    }
}

/// Answers a client message on connection `id`.
async fn message(
    sockets: Option<&SocketSender>,
    id: &SocketId,
    request: &lambda_http::Request,
) -> Result<(), ApiError> {
    let Some(sockets) = sockets else {
        return Err(ApiError::internal(
            "events are not sent to connections here",
            "no @connections endpoint is configured (MISSIVE_SOCKET_ENDPOINT)",
        ));
    };
    let text = std::str::from_utf8(request.body().as_ref()).unwrap_or("");
    match ClientMessage::read(text) {
        Ok(ClientMessage::Subscribe { cursor }) => {
            sockets
                .subscribe(id, cursor.as_deref())
                .await
                .map_err(|e| ApiError::internal("the subscription failed", e.to_string()))?;
        }
        Ok(ClientMessage::Ping) => sockets.tell(id, PONG).await,
        Err(why) => {
            let refused = missive_notify::sockets::error_message("bad-request", &why);
            sockets.tell(id, &refused).await;
        }
    }
    Ok(())
}

/// The `access_token` of a query string.
fn access_token(query: Option<&str>) -> Option<String> {
    url::form_urlencoded::parse(query?.as_bytes())
        .find(|(name, _)| name == "access_token")
        .map(|(_, value)| value.into_owned())
}
