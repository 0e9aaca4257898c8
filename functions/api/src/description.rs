//! The API's OpenAPI 3.1 description, generated from the router's routes and their types, served at
//! `GET /v1/openapi.json` and committed as `docs/openapi.json`.
//!
//! Each route declares what is particular to it (its summary and id, its body, the answers
//! it alone can give); [`CommonAnswers`] adds what follows from the route's shape, the same
//! way everywhere: 400 for a query or a body, 401 and 403 for an access token, 404 for a
//! path naming something, 413 and 415 for a body; for every route 408 (too slow), 414 and
//! 431 (too long a target or head), 429, 500 and 503 (the store, or too many connections);
//! and the `X-Request-Id` header on every answer.

use axum::http::header::{CONTENT_TYPE, HeaderValue};
use axum::response::{IntoResponse, Response};
use utoipa::Modify;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::response::ResponseBuilder;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{
    ContentBuilder, Header, HeaderBuilder, OpenApi as Document, Ref, RefOr, Response as Answer,
};

use crate::archives;

/// What the description says beyond its routes: the API's title, licence and servers, and
/// the error body.
#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Missive",
        description = "Correspondence chess for every Missive variant: players, challenges, invitations, games, moves, messages, ends. Times are RFC 3339 in UTC; errors are `{\"error\": {\"code\", \"message\"}}`; request bodies may carry fields this version does not know (they are ignored).",
        license(name = "MIT", identifier = "MIT")
    ),
    servers(
        (url = "http://127.0.0.1:8080", description = "`missive serve` on its default address"),
        (url = "https://{api}.execute-api.{region}.amazonaws.com", description = "The SAM deployment's API Gateway HTTP API (the stack output ApiUrl)",
            variables(
                ("api" = (default = "abcdef1234", description = "The HTTP API's id")),
                ("region" = (default = "us-east-1", description = "The stack's AWS region"))
            ))
    ),
    components(schemas(crate::error::ErrorBody))
)]
pub struct ApiDoc;

/// The description as JSON text, as served and as committed in `docs/openapi.json`: made
/// from the router's routes ([`crate::routes`]) with the answers they share.
pub fn openapi_text() -> String {
    let (_, mut doc) = crate::routes(archives::ARCHIVE_LIMIT).split_for_parts();
    BearerAuth.modify(&mut doc);
    CommonAnswers.modify(&mut doc);
    let mut text = doc
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

/// This description.
#[utoipa::path(get, path = "/v1/openapi.json", tag = "meta", operation_id = "get_openapi", security(()), responses((status = 200, description = "This description", content_type = "application/json")))]
pub(crate) async fn openapi_json() -> Response {
    (
        [(CONTENT_TYPE, HeaderValue::from_static("application/json"))],
        openapi_text(),
    )
        .into_response()
}

/// Declares the bearer access token scheme.
struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, doc: &mut Document) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some(
                        "An access token from POST /v1/auth/token, as `Authorization: Bearer`",
                    ))
                    .build(),
            ),
        );
    }
}

/// Adds the answers every route gives by its shape (see the module's documentation).
struct CommonAnswers;

/// One shared answer: its name in `components.responses`, status, and description.
struct Common {
    name: &'static str,
    status: &'static str,
    description: &'static str,
    retry_after: bool,
}

const BAD_REQUEST: Common = Common {
    name: "BadRequest",
    status: "400",
    description: "Malformed request: a body that is not the JSON expected, a query or path value out of its range (`bad-request`, `invalid-cursor`, ...)",
    retry_after: false,
};
const UNAUTHORIZED: Common = Common {
    name: "Unauthorized",
    status: "401",
    description: "No access token, or one that is invalid or expired (`unauthorized`, `invalid-token`, `token-expired`)",
    retry_after: false,
};
const FORBIDDEN: Common = Common {
    name: "Forbidden",
    status: "403",
    description: "The token is not an access token (`wrong-token-purpose`), or the caller may not do this here (`not-seated`, `not-creator`)",
    retry_after: false,
};
const NOT_FOUND: Common = Common {
    name: "NotFound",
    status: "404",
    description: "Nothing of that id or handle, or a private game of others (`game-not-found`, `player-not-found`, `challenge-not-found`, `not-found`)",
    retry_after: false,
};
const TOO_LARGE: Common = Common {
    name: "TooLarge",
    status: "413",
    description: "The body is larger than the route accepts (`too-large`)",
    retry_after: false,
};
const UNSUPPORTED: Common = Common {
    name: "UnsupportedMediaType",
    status: "415",
    description: "A JSON body without `Content-Type: application/json` (`unsupported-media-type`)",
    retry_after: false,
};
const TIMEOUT: Common = Common {
    name: "Timeout",
    status: "408",
    description: "The request took longer than the server allows (30 s by default), or its head did not arrive in time (`timeout`)",
    retry_after: false,
};
const URI_TOO_LONG: Common = Common {
    name: "UriTooLong",
    status: "414",
    description: "The path and query are longer than 8 KiB (`uri-too-long`)",
    retry_after: false,
};
const HEADERS_TOO_LARGE: Common = Common {
    name: "HeadersTooLarge",
    status: "431",
    description: "The request head is larger than the server allows, 64 KiB by default (`headers-too-large`)",
    retry_after: false,
};
const RATE_LIMITED: Common = Common {
    name: "RateLimited",
    status: "429",
    description: "The caller's allowance of requests (or of the route's own limit) is used up: wait `Retry-After` seconds (`rate-limited`, `limit-reached`, `contended`)",
    retry_after: true,
};
const INTERNAL: Common = Common {
    name: "Internal",
    status: "500",
    description: "A failure of the server's own; nothing was changed by halves (`internal`)",
    retry_after: false,
};
const UNAVAILABLE: Common = Common {
    name: "Unavailable",
    status: "503",
    description: "The store is unavailable for the moment, or (`missive serve`) too many connections are open: the same request may succeed after `Retry-After` seconds (`store-unavailable`, `not-ready`, `unavailable`)",
    retry_after: true,
};

impl Common {
    /// The answer itself, with the error body.
    fn answer(&self) -> Answer {
        let mut answer = ResponseBuilder::new()
            .description(self.description)
            .content("application/json", error_content());
        if self.retry_after {
            answer = answer.header("Retry-After", retry_after());
        }
        answer.header("X-Request-Id", request_id()).build()
    }
}

impl Modify for CommonAnswers {
    fn modify(&self, doc: &mut Document) {
        let components = doc.components.get_or_insert_with(Default::default);
        for common in [
            &BAD_REQUEST,
            &UNAUTHORIZED,
            &FORBIDDEN,
            &NOT_FOUND,
            &TOO_LARGE,
            &UNSUPPORTED,
            &TIMEOUT,
            &URI_TOO_LONG,
            &HEADERS_TOO_LARGE,
            &RATE_LIMITED,
            &INTERNAL,
            &UNAVAILABLE,
        ] {
            components
                .responses
                .insert(common.name.to_string(), RefOr::T(common.answer()));
        }
        for item in doc.paths.paths.values_mut() {
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
            ];
            for operation in operations.into_iter().flatten() {
                add_common_answers(operation);
            }
        }
    }
}

/// Adds to `operation` the shared answers its shape implies, where it declares none of its
/// own for that status, and the request id header to each answer of its own.
fn add_common_answers(operation: &mut Operation) {
    let has = |place: ParameterIn| {
        operation
            .parameters
            .iter()
            .flatten()
            .any(|p| p.parameter_in == place)
    };
    let has_query = has(ParameterIn::Query);
    let has_path = has(ParameterIn::Path);
    let has_body = operation.request_body.is_some();
    let security = serde_json::to_value(&operation.security).unwrap_or_default();
    let secured = security
        .as_array()
        .is_some_and(|list| list.iter().any(|r| r.get("bearer").is_some()));
    let wanted = [
        (&BAD_REQUEST, has_query || has_body || has_path),
        (&UNAUTHORIZED, secured),
        (&FORBIDDEN, secured),
        (&NOT_FOUND, has_path),
        (&TOO_LARGE, has_body),
        (&UNSUPPORTED, has_body && is_json(operation)),
        (&TIMEOUT, true),
        (&URI_TOO_LONG, true),
        (&HEADERS_TOO_LARGE, true),
        (&RATE_LIMITED, true),
        (&INTERNAL, true),
        (&UNAVAILABLE, true),
    ];
    let answers = &mut operation.responses.responses;
    for answer in answers.values_mut() {
        if let RefOr::T(answer) = answer {
            answer
                .headers
                .entry("X-Request-Id".to_string())
                .or_insert_with(request_id);
        }
    }
    for (common, applies) in wanted {
        if applies && !answers.contains_key(common.status) {
            answers.insert(
                common.status.to_string(),
                RefOr::Ref(Ref::from_response_name(common.name)),
            );
        }
    }
}

/// Whether the operation's body is JSON.
fn is_json(operation: &Operation) -> bool {
    operation
        .request_body
        .as_ref()
        .is_some_and(|body| body.content.contains_key("application/json"))
}

/// The error body's content.
fn error_content() -> utoipa::openapi::Content {
    ContentBuilder::new()
        .schema(Some(Ref::from_schema_name("ErrorBody")))
        .build()
}

/// The `Retry-After` header: seconds to wait.
fn retry_after() -> Header {
    HeaderBuilder::new()
        .schema(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(0)),
        )
        .description(Some("Seconds to wait before trying again"))
        .build()
}

/// The `X-Request-Id` header: the request's id, as the client sent it or as the server
/// made it (a ULID).
fn request_id() -> Header {
    HeaderBuilder::new()
        .schema(ObjectBuilder::new().schema_type(Type::String))
        .description(Some(
            "The request's id: the client's `X-Request-Id` if it sent one, else a ULID; in the server's log",
        ))
        .build()
}
