//! Extractors the routes share: a JSON body that may be left out, and the id in a path.

use axum::body::Bytes;
use axum::extract::rejection::PathRejection;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use missive_domain::{ChallengeId, GameId, HookId, TournamentId};
use serde::de::DeserializeOwned;
use utoipa::IntoParams;
use utoipa::openapi::Required;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};

use crate::ApiError;

/// A JSON body that may be left out (then `T::default()`).
pub(crate) struct OptionalJson<T>(pub T);

impl<T: DeserializeOwned + Default, S: Send + Sync> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state).await.map_err(|e| {
            let status = e.status();
            ApiError::new(status, ApiError::code_for(status), e.body_text())
        })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        serde_json::from_slice(&bytes)
            .map(OptionalJson)
            .map_err(|e| ApiError::bad_request(e.to_string()))
    }
}

/// An id a path names (its one parameter, `id`), as the description tells it.
pub(crate) trait PathId: Sized {
    /// What the parameter is, for the description.
    const DESCRIPTION: &'static str;
    /// The pattern its text follows, for the description (not checked: an id of the wrong
    /// shape names nothing, 404).
    const PATTERN: Option<&'static str>;
    /// The id whose text is `text`.
    fn from_text(text: String) -> Self;
}

/// The pattern of a ULID's text.
const ULID: Option<&str> = Some("^[0-9A-HJKMNP-TV-Z]{26}$");

impl PathId for GameId {
    fn from_text(text: String) -> GameId {
        GameId(text)
    }
    const DESCRIPTION: &'static str = "The game id (a ULID)";
    const PATTERN: Option<&'static str> = ULID;
}

impl PathId for ChallengeId {
    fn from_text(text: String) -> ChallengeId {
        ChallengeId(text)
    }
    const DESCRIPTION: &'static str = "The challenge id (a ULID)";
    const PATTERN: Option<&'static str> = ULID;
}

impl PathId for HookId {
    fn from_text(text: String) -> HookId {
        HookId(text)
    }
    const DESCRIPTION: &'static str = "The hook id (a ULID)";
    const PATTERN: Option<&'static str> = ULID;
}

impl PathId for TournamentId {
    fn from_text(text: String) -> TournamentId {
        TournamentId(text)
    }
    const DESCRIPTION: &'static str = "The tournament id (a ULID)";
    const PATTERN: Option<&'static str> = None;
}

/// The id in a request's path (its `{id}`), and the path parameter the description gives
/// each route that names one.
pub(crate) struct IdPath<T>(pub T);

impl<T: PathId + Send, S: Send + Sync> FromRequestParts<S> for IdPath<T> {
    type Rejection = PathRejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, PathRejection> {
        let Path(text) = Path::<String>::from_request_parts(parts, state).await?;
        Ok(IdPath(T::from_text(text)))
    }
}

impl<T: PathId> IntoParams for IdPath<T> {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let schema = ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(T::PATTERN);
        vec![
            ParameterBuilder::new()
                .name("id")
                .parameter_in(ParameterIn::Path)
                .description(Some(T::DESCRIPTION))
                .required(Required::True)
                .schema(Some(schema))
                .build(),
        ]
    }
}
