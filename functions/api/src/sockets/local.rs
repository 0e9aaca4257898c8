//! The feed's WebSocket on one machine (`missive serve`): `GET /v1/events/ws` upgraded, each
//! connection following its player's feed from the store as a long poll would (looking
//! every second), sending each event as it is written. When the server shuts down every
//! connection is closed (1001, going away) and its client reconnects with its cursor.

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use missive_domain::{Socket, SocketId};
use missive_game::MAX_EVENTS;
use missive_notify::sockets::SUBSCRIBED;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{ClientMessage, PONG, refusal};
use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::{ApiError, App};

/// How often a connection looks at the store while nothing is new.
const POLL: Duration = Duration::from_secs(1);

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new().routes(routes!(follow))
}

/// The opening's query.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct OpeningQuery {
    /// The access token, for clients that cannot send `Authorization` (browsers).
    access_token: Option<String>,
}

/// Follow my events over a WebSocket
///
/// Upgrades to a WebSocket that is sent the caller's events as they are written, each as `GET /v1/events` gives it. The client sends `{"action": "subscribe", "cursor": C}` to start after cursor `C` (absent: from now on) and `{"action": "ping"}` to be answered `{"type": "pong"}`; the server sends each event, `{"type": "subscribed"}` once the events up to the subscription went out, and `{"type": "error", "error": {"code", "message"}}` for a message refused. On AWS the same protocol is served by the WebSocket API whose address the feed's `Event-Socket` header gives.
#[utoipa::path(get, path = "/v1/events/ws", tag = "events", operation_id = "follow_events_socket", security(("bearer" = []), ()), params(OpeningQuery), responses(
    (status = 101, description = "Switched to the WebSocket protocol"),
    (status = 400, description = "Not a WebSocket opening (`bad-request`)", body = ErrorBody),
))]
pub(crate) async fn follow(
    State(app): State<App>,
    headers: HeaderMap,
    Query(query): Query<OpeningQuery>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let Caller(player) = Caller::of_socket(&headers, query.access_token.as_deref(), &app)?;
    Ok(upgrade.on_upgrade(move |socket| Connection::new(app, player).run(socket)))
}

/// One open connection: whose, and where in the feed it is once subscribed.
struct Connection {
    app: App,
    player: String,
    following: Option<Socket>,
}

/// The client went away (or the connection failed).
struct Gone;

impl Connection {
    fn new(app: App, player: String) -> Connection {
        Connection {
            app,
            player,
            following: None,
        }
    }

    /// Serves the connection until the client closes it or the server shuts down.
    async fn run(mut self, socket: WebSocket) {
        let (mut out, mut incoming) = socket.split();
        let polls = self.app.polls.clone();
        let stopped = polls.stopped();
        tokio::pin!(stopped);
        loop {
            if self.send_due(&mut out).await.is_err() {
                return;
            }
            tokio::select! {
                message = incoming.next() => match message {
                    Some(Ok(Message::Text(text))) => {
                        if self.answer(text.as_str(), &mut out).await.is_err() {
                            return;
                        }
                    }
                    Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                    Some(Ok(_)) => {}
                },
                () = tokio::time::sleep(POLL), if self.following.is_some() => {}
                () = &mut stopped => {
                    let frame = CloseFrame {
                        code: close_code::AWAY,
                        reason: "the server is shutting down: reconnect with your cursor".into(),
                    };
                    let _ = out.send(Message::Close(Some(frame))).await;
                    return;
                }
            }
        }
    }

    /// Answers a client message.
    async fn answer(
        &mut self,
        text: &str,
        out: &mut (impl SinkExt<Message> + Unpin),
    ) -> Result<(), Gone> {
        match ClientMessage::read(text) {
            Ok(ClientMessage::Ping) => send(out, PONG.to_string()).await,
            Ok(ClientMessage::Subscribe { cursor }) => {
                let service = &self.app.service;
                let socket =
                    service.new_socket(SocketId(ulid::Ulid::new().to_string()), &self.player);
                match service.subscribed(socket, cursor.as_deref()) {
                    Ok(socket) => {
                        self.following = Some(socket);
                        self.send_due(out).await?;
                        send(out, SUBSCRIBED.to_string()).await
                    }
                    Err(error) => send(out, refusal(error)).await,
                }
            }
            Err(why) => {
                let message = missive_notify::sockets::error_message("bad-request", &why);
                send(out, message).await
            }
        }
    }

    /// Sends the events written since the last one sent, if subscribed; a store that fails
    /// is told to the client, and tried again at the next look.
    async fn send_due(&mut self, out: &mut (impl SinkExt<Message> + Unpin)) -> Result<(), Gone> {
        let Some(socket) = &mut self.following else {
            return Ok(());
        };
        loop {
            let events = match self.app.service.socket_events(socket, MAX_EVENTS).await {
                Ok(events) => events,
                Err(error) => return send(out, refusal(error)).await,
            };
            let Some(last) = events.last() else {
                return Ok(());
            };
            let position = last.position.clone();
            for event in &events {
                send(out, serde_json::to_string(&event.event).unwrap_or_default()).await?;
            }
            socket.position = Some(position);
        }
    }
}

/// Sends `text` as a text message.
async fn send(out: &mut (impl SinkExt<Message> + Unpin), text: String) -> Result<(), Gone> {
    out.send(Message::Text(text.into())).await.map_err(|_| Gone)
}
