//! The one error shape of the API, `{"error": {"code": "...", "message": "..."}}`, and the
//! one place where the service's typed errors become HTTP statuses.

use axum::Json;
use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use missive_auth::AuthError;
use missive_board::PngError;
use missive_domain::ChallengeState;
use missive_game::ServiceError;
use missive_gate::Busy;
use missive_rules::MoveError;
use missive_store::StoreError;
use missive_xfcc::{Fault, SoapVersion, fault_envelope};
use serde_json::{Value, json};

use crate::xfcc::answer::{Outcome, xml};

/// An error answer: a status, a stable kebab-case code, a message, extra fields
/// (`current_ply` for stale requests, `limit` for limits) and, for a limit, the seconds the
/// client should wait (`Retry-After`).
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The stable code clients branch on.
    pub code: &'static str,
    /// What went wrong, for people.
    pub message: String,
    /// Extra fields of the error object.
    pub extra: Option<(&'static str, Value)>,
    /// Seconds to wait before trying again, sent as `Retry-After`.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with `status`, `code` and `message`.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            extra: None,
            retry_after: None,
        }
    }

    /// 429 `rate-limited`: `message`, and try again in `seconds`.
    pub fn rate_limited(message: impl Into<String>, seconds: u64) -> ApiError {
        ApiError {
            retry_after: Some(seconds),
            ..ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate-limited", message)
        }
    }

    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad-request", message)
    }

    /// 401: no valid token.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    /// 404: nothing here.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not-found", message)
    }

    /// 500: a failure of the server's own (`what` went wrong, logged with `error`); the
    /// client learns only that `what` did not happen.
    pub fn internal(what: &str, error: impl std::fmt::Display) -> ApiError {
        tracing::error!(%error, "{what}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("internal error: {what}"),
        )
    }

    /// 503: the store's backend failed (its disk full or unwritable, its service
    /// unreachable or throttling): the same request may succeed in a moment (a move with its
    /// `Idempotency-Key` is safe to send again). The details are logged with `error`; the
    /// client gets `Retry-After: 1`.
    pub fn store_unavailable(error: impl std::fmt::Display) -> ApiError {
        tracing::error!(%error, "the store failed");
        ApiError {
            retry_after: Some(1),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "store-unavailable",
                "the store is unavailable for the moment: try again",
            )
        }
    }

    /// The code a bare status gets when nothing more specific is known.
    pub fn code_for(status: StatusCode) -> &'static str {
        match status.as_u16() {
            400 => "bad-request",
            401 => "unauthorized",
            403 => "forbidden",
            404 => "not-found",
            405 => "method-not-allowed",
            408 => "timeout",
            409 => "conflict",
            410 => "gone",
            413 => "too-large",
            415 => "unsupported-media-type",
            422 => "unprocessable",
            414 => "uri-too-long",
            429 => "too-many-requests",
            431 => "headers-too-large",
            503 => "unavailable",
            500..=599 => "internal",
            _ => "error",
        }
    }
}

/// The error shape, for the API description.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub struct ErrorBody {
    error: ErrorDetail,
}

/// The error object.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
struct ErrorDetail {
    /// A stable kebab-case code: `bad-request`, `unauthorized`, `wrong-token-purpose`,
    /// `not-seated`, `game-not-found`, `stale-ply`, `not-your-turn`, `illegal-move`, ...
    code: String,
    /// What went wrong, for people.
    message: String,
    /// With `stale-ply`: the ply the game is at.
    current_ply: Option<u32>,
    /// With `limit-reached`, `too-many-challenges` and `too-large` for a limit of the
    /// service's: which limit.
    limit: Option<missive_game::Limit>,
}

impl ApiError {
    /// The body of the answer: `{"error": {"code", "message", ...extra}}`.
    pub fn body(&self) -> Value {
        let mut error = json!({ "code": self.code, "message": self.message });
        if let Some((name, value)) = &self.extra {
            error[*name] = value.clone();
        }
        json!({ "error": error })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.body())).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

impl From<ServiceError> for ApiError {
    fn from(error: ServiceError) -> ApiError {
        use StatusCode as S;
        let message = error.to_string();
        let (status, code) = match &error {
            ServiceError::GameNotFound(_) => (S::NOT_FOUND, "game-not-found"),
            ServiceError::UnknownPlayer(_) => (S::NOT_FOUND, "player-not-found"),
            ServiceError::Taken(_) => (S::CONFLICT, "taken"),
            ServiceError::Conflict { current_ply } => {
                return ApiError {
                    extra: Some(("current_ply", json!(current_ply))),
                    ..ApiError::new(S::CONFLICT, "stale-ply", message)
                };
            }
            ServiceError::NotSeated { .. } => (S::FORBIDDEN, "not-seated"),
            ServiceError::NotYourTurn => (S::CONFLICT, "not-your-turn"),
            ServiceError::NotActive(_) => (S::CONFLICT, "not-active"),
            ServiceError::TimeExpired(_) => (S::CONFLICT, "time-expired"),
            ServiceError::Move(_) => (S::UNPROCESSABLE_ENTITY, "illegal-move"),
            ServiceError::Claim(_) => (S::UNPROCESSABLE_ENTITY, "claim-refused"),
            ServiceError::Setup(_) => (S::BAD_REQUEST, "invalid-setup"),
            ServiceError::Refused(_) => (S::UNPROCESSABLE_ENTITY, "refused"),
            ServiceError::Limited { limit, retry_after } => {
                return ApiError {
                    extra: Some(("limit", json!(limit))),
                    retry_after: Some(*retry_after),
                    ..ApiError::new(S::TOO_MANY_REQUESTS, "limit-reached", message)
                };
            }
            ServiceError::TooManyChallenges(limit) => {
                return ApiError {
                    extra: Some(("limit", json!(limit))),
                    ..ApiError::new(S::CONFLICT, "too-many-challenges", message)
                };
            }
            ServiceError::TooMuch(limit) => {
                return ApiError {
                    extra: Some(("limit", json!(limit))),
                    ..ApiError::new(S::PAYLOAD_TOO_LARGE, "too-large", message)
                };
            }
            ServiceError::Contended => (S::TOO_MANY_REQUESTS, "contended"),
            ServiceError::KeyReused => (S::UNPROCESSABLE_ENTITY, "idempotency-key-reused"),
            ServiceError::BadCursor => (S::BAD_REQUEST, "invalid-cursor"),
            ServiceError::CursorExpired => (S::GONE, "cursor-expired"),
            ServiceError::NoHook(_) => (S::NOT_FOUND, "hook-not-found"),
            ServiceError::NoSocket(_) => (S::NOT_FOUND, "not-found"),
            ServiceError::NoChallenge(_) => (S::NOT_FOUND, "challenge-not-found"),
            ServiceError::ChallengeClosed(ChallengeState::Withdrawn) => {
                (S::CONFLICT, "challenge-withdrawn")
            }
            ServiceError::ChallengeClosed(_) => (S::CONFLICT, "challenge-taken"),
            ServiceError::ChallengeExpired(_) => (S::GONE, "challenge-expired"),
            ServiceError::NotCreator => (S::FORBIDDEN, "not-creator"),
            ServiceError::NoRating { .. } => (S::NOT_FOUND, "rating-not-found"),
            ServiceError::RatingOutOfRange { .. } => (S::FORBIDDEN, "rating-out-of-range"),
            ServiceError::NoTournament(_) => (S::NOT_FOUND, "tournament-not-found"),
            ServiceError::NotOrganiser => (S::FORBIDDEN, "not-organiser"),
            ServiceError::TournamentState(_) => (S::CONFLICT, "tournament-state"),
            ServiceError::TooLong { .. } => (S::UNPROCESSABLE_ENTITY, "too-long"),
            ServiceError::NoAppPassword(_) => (S::NOT_FOUND, "app-password-not-found"),
            ServiceError::BadCredentials => (S::UNAUTHORIZED, "invalid-credentials"),
            ServiceError::TooOften { retry_after, .. } => {
                return ApiError::rate_limited(message, *retry_after);
            }
            ServiceError::Busy(busy) => return (*busy).into(),
            ServiceError::Store(StoreError::Backend(_)) => {
                return ApiError::store_unavailable(message);
            }
            ServiceError::Corrupt { .. } | ServiceError::Store(_) => {
                return ApiError::internal("the request could not be carried out", message);
            }
        };
        ApiError::new(status, code, message)
    }
}

/// 503 `busy`: expensive work (drawing a board, checking a password) refused because as
/// much of it as the server takes on at once was running and waiting; nothing was done, and
/// the same request may succeed after `Retry-After`.
impl From<Busy> for ApiError {
    fn from(busy: Busy) -> ApiError {
        ApiError {
            retry_after: Some(missive_gate::RETRY_AFTER),
            ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", busy.to_string())
        }
    }
}

/// A board picture not drawn: 503 `busy` when too many were being drawn, else a failure of
/// the server's own.
impl From<PngError> for ApiError {
    fn from(error: PngError) -> ApiError {
        match error {
            PngError::Busy(busy) => busy.into(),
            error => ApiError::internal("the board picture could not be drawn", error),
        }
    }
}

/// The one mapping of token failures, for the API and the pages alike: a token is invalid,
/// expired or meant for something else, and nothing more is said (what a verifier found
/// wrong with a forged token is no business of whoever sent it).
impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> ApiError {
        match error {
            AuthError::Key(reason) => ApiError::internal("the signing key is unusable", reason),
            AuthError::WrongPurpose => ApiError::new(
                StatusCode::FORBIDDEN,
                "wrong-token-purpose",
                "the token is not meant for this",
            ),
            AuthError::Expired => ApiError::new(
                StatusCode::UNAUTHORIZED,
                "token-expired",
                "the token has expired",
            ),
            AuthError::Invalid(_) => ApiError::new(
                StatusCode::UNAUTHORIZED,
                "invalid-token",
                "the token is not valid",
            ),
        }
    }
}

/// Why an Xfcc call has no answer: a SOAP fault, or the server too busy for it now (the
/// API's 503 `busy`).
pub(crate) enum SoapFailure {
    /// A fault, answered with status 500 as SOAP over HTTP requires.
    Fault(Fault),
    /// Too busy: a `Server` (`Receiver`) fault with the error's status and `Retry-After`.
    Busy(ApiError),
}

impl From<Fault> for SoapFailure {
    fn from(fault: Fault) -> SoapFailure {
        SoapFailure::Fault(fault)
    }
}

/// The one mapping of the service's refusals and failures to SOAP faults: wrong
/// credentials are the sender's (naming `AuthenticationFailed`), a busy server 503, anything
/// else the server's.
impl From<ServiceError> for SoapFailure {
    fn from(error: ServiceError) -> SoapFailure {
        SoapFailure::Fault(match error {
            ServiceError::Busy(busy) => return SoapFailure::Busy(busy.into()),
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
}

impl SoapFailure {
    /// The answer: the fault in the envelope of `version`.
    pub(crate) fn into_soap(self, version: SoapVersion) -> Response {
        match self {
            SoapFailure::Fault(fault) => xml(
                StatusCode::INTERNAL_SERVER_ERROR,
                version.content_type(),
                fault_envelope(version, &fault),
            ),
            SoapFailure::Busy(busy) => {
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
        }
    }
}

/// The `MakeAMove` result code a refusal or failure of the service's is, or the sender's
/// fault for one the protocol has no code for (a message too long or too frequent).
pub(crate) fn move_outcome(error: ServiceError) -> Result<Outcome, Fault> {
    Ok(match error {
        ServiceError::BadCredentials => Outcome::AuthenticationFailed,
        ServiceError::GameNotFound(_) | ServiceError::NotSeated { .. } => Outcome::InvalidGameID,
        ServiceError::NotYourTurn | ServiceError::NotActive(_) => Outcome::NotYourTurn,
        ServiceError::Conflict { .. } => Outcome::InvalidMoveNumber,
        ServiceError::Move(MoveError::Ambiguous { .. }) => Outcome::MoveIsAmbiguous,
        ServiceError::Move(_) | ServiceError::Claim(_) => Outcome::InvalidMove,
        ServiceError::TimeExpired(_) => Outcome::LostOnTime,
        ServiceError::Store(StoreError::Backend(ref reason)) => {
            tracing::error!(%reason, "the store failed");
            Outcome::ServerError
        }
        ServiceError::Contended => Outcome::ServerError,
        ServiceError::Store(_) | ServiceError::Corrupt { .. } => {
            tracing::error!(%error, "an Xfcc move could not be carried out");
            Outcome::ServerError
        }
        error => return Err(Fault::sender(error.to_string())),
    })
}
