//! The pages' defence against forms posted from other sites: every request to a page route
//! that may act (any method but `GET` and `HEAD`) is refused with 403 `cross-site` when the
//! browser says it comes from another site (`Sec-Fetch-Site: cross-site`) or names an
//! `Origin` that is not the public URL's. A request without either header passes (old
//! browsers and mail programs send neither), and so does `Origin: null`, which browsers send
//! from every page whose `Referrer-Policy` is `no-referrer`, as the pages' own is: there
//! `Sec-Fetch-Site` tells. The pages that act for a player carry a token in their path that
//! another site cannot know besides.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::problem::Problem;
use crate::session::public_url;
use crate::{ApiError, App};

/// The middleware: passes reads, and acts whose headers do not betray another site.
pub(crate) async fn same_site(State(app): State<App>, request: Request, next: Next) -> Response {
    let reads = [Method::GET, Method::HEAD];
    if reads.contains(request.method()) || !is_cross_site(&app, request.headers()) {
        return next.run(request).await;
    }
    Problem::from(ApiError::new(
        StatusCode::FORBIDDEN,
        "cross-site",
        "the form was sent from another site",
    ))
    .into_response()
}

/// Whether the headers say the request comes from another site than this one.
fn is_cross_site(app: &App, headers: &HeaderMap) -> bool {
    let fetched_from = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    if fetched_from.is_some_and(|site| site.eq_ignore_ascii_case("cross-site")) {
        return true;
    }
    let Some(origin) = headers.get(axum::http::header::ORIGIN) else {
        return false;
    };
    let origin = origin.to_str().unwrap_or("");
    origin != "null" && origin_of(&public_url(app, headers)) != Some(origin.to_ascii_lowercase())
}

/// The origin (`scheme://host[:port]`, in lower case) of `url`, if it has one.
fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    Some(format!("{scheme}://{authority}").to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::origin_of;

    #[test]
    fn an_origin_is_the_scheme_and_authority() {
        assert_eq!(
            origin_of("https://Missive.example.org/base?x"),
            Some("https://missive.example.org".into())
        );
        assert_eq!(
            origin_of("http://127.0.0.1:8080"),
            Some("http://127.0.0.1:8080".into())
        );
        assert_eq!(origin_of("missive.test"), None);
    }
}
