//! Who a request acts for: routes that act for a player take a [`Caller`], the handle of a
//! valid bearer access token.

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use missive_auth::Purpose;

use crate::{ApiError, App};

/// The player a request acts for: the subject of its bearer access token (verified once per
/// request: the rate limiter leaves the caller it verified in the request's extensions).
#[derive(Clone, Debug)]
pub struct Caller(pub String);

impl FromRequestParts<App> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Caller, ApiError> {
        match parts.extensions.get::<Caller>() {
            Some(verified) => Ok(verified.clone()),
            None => Caller::from_headers(&parts.headers, app),
        }
    }
}

impl Caller {
    /// The caller named by the bearer access token in `headers`, also recorded as the
    /// `player` of the request's log span.
    pub fn from_headers(headers: &HeaderMap, app: &App) -> Result<Caller, ApiError> {
        let header = headers
            .get(axum::http::header::AUTHORIZATION)
            .ok_or_else(|| ApiError::unauthorized("an access token is required"))?;
        let token = header
            .to_str()
            .ok()
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or_else(|| ApiError::unauthorized("expected `Authorization: Bearer <token>`"))?;
        Caller::from_token(token, app)
    }

    /// The caller named by access token `token`, also recorded as the `player` of the
    /// request's log span.
    pub fn from_token(token: &str, app: &App) -> Result<Caller, ApiError> {
        let claims = app
            .authority
            .verify(token.trim(), Purpose::Access, app.now_seconds())?;
        tracing::Span::current().record("player", claims.sub.as_str());
        Ok(Caller(claims.sub))
    }

    /// The caller of a WebSocket's opening: the bearer token in `headers`, else the
    /// `access_token` of its query (RFC 6750's query parameter: a browser's WebSocket
    /// sends no `Authorization`).
    pub fn of_socket(
        headers: &HeaderMap,
        access_token: Option<&str>,
        app: &App,
    ) -> Result<Caller, ApiError> {
        match (
            headers.contains_key(axum::http::header::AUTHORIZATION),
            access_token,
        ) {
            (false, Some(token)) => Caller::from_token(token, app),
            _ => Caller::from_headers(headers, app),
        }
    }

    /// The caller named by a bearer access token if `headers` carry one (which must then be
    /// valid), `None` for an anonymous request.
    pub fn optional(headers: &HeaderMap, app: &App) -> Result<Option<String>, ApiError> {
        if !headers.contains_key(axum::http::header::AUTHORIZATION) {
            return Ok(None);
        }
        Caller::from_headers(headers, app).map(|caller| Some(caller.0))
    }
}
