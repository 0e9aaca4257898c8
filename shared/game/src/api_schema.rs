//! Schemas for the API description of values the rules name in words: variant ids, seat
//! results, the ends of games. Built from the rules crate's own lists, so the description
//! cannot fall behind them.

use missive_rules::{Claim, EndRule, SeatResult};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    ArrayBuilder, KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type,
};

/// The pattern of the kebab-case names the API uses for rules, results and statuses.
pub const KEBAB: &str = "^[a-z0-9]+(-[a-z0-9]+)*$";

/// A string that is one of `words`, with `description`.
pub fn words<'a>(words: impl IntoIterator<Item = &'a str>, description: &str) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(words))
        .description(Some(description))
        .into()
}

/// A variant id: one of the variants the server plays.
pub fn variant_id() -> Schema {
    words(
        missive_rules::variants().iter().map(|v| v.id()),
        "A variant id (GET /v1/variants describes each)",
    )
}

/// One seat's result.
pub fn seat_result() -> Schema {
    words(SeatResult::ALL.map(SeatResult::as_str), "One seat's result")
}

/// Every seat's result, in seat order.
pub fn seat_results() -> Schema {
    ArrayBuilder::new()
        .items(RefOr::T(seat_result()))
        .description(Some(
            "Each seat's result in seat order; empty when the game was called off",
        ))
        .into()
}

/// Why a game ended: a rule of ours, `aborted` or `declined`, or for an imported game any
/// kebab-case name its archive gave (so a pattern, not an enumeration).
pub fn end_reason() -> Schema {
    let known: Vec<&str> = EndRule::ALL
        .map(EndRule::as_str)
        .into_iter()
        .chain(["aborted", "declined"])
        .collect();
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(KEBAB))
        .description(Some(format!(
            "Why the game ended: {}; an imported game may name another end (kebab-case) \
             as its archive did",
            known.join(", ")
        )))
        .into()
}

/// A player's handle: 2 to 24 letters, digits, `_` or `-`, starting with a letter
/// ([`crate::check_handle`]).
pub fn handle() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some("^[A-Za-z][A-Za-z0-9_-]{1,23}$"))
        .description(Some("A player's handle"))
        .into()
}

/// One plain mailbox address ([`crate::check_email`]).
pub fn email() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Email)))
        .max_length(Some(254))
        .description(Some("One plain mailbox address, `local@domain.tld`"))
        .into()
}

/// The draws a player may claim: the claim names `POST /v1/games/{id}/claim` takes, less
/// `timeout`.
pub fn claims() -> Schema {
    ArrayBuilder::new()
        .items(RefOr::T(words(
            Claim::ALL.map(|claim| claim.rule().as_str()),
            "A draw rule",
        )))
        .into()
}

/// Where a challenge is in its life.
pub fn challenge_status() -> Schema {
    words(
        ["open", "accepted", "withdrawn", "expired"],
        "Where the challenge is in its life",
    )
}

/// The schema of variant ids, named `VariantId` in the description so every field and
/// filter holding one shares it.
pub struct VariantId;

impl utoipa::PartialSchema for VariantId {
    fn schema() -> RefOr<Schema> {
        RefOr::T(variant_id())
    }
}

impl utoipa::ToSchema for VariantId {}
