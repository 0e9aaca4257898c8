//! The API's wire types: what its answers and bodies are made of, as JSON and as the
//! description tells them, converted from the domain's values (whose serde form is the
//! stored one) with `From`, one module per resource.

mod ending;
mod hooks;
mod messages;
mod ratings;
mod time_control;
mod tournaments;

pub(crate) use ending::Ended;
pub(crate) use hooks::DeliveryAttempt;
pub(crate) use messages::MessageMail;
pub(crate) use ratings::{RatingChange, RatingView};
pub(crate) use time_control::TimeControl;
pub(crate) use tournaments::{TournamentStart, TournamentView, WithdrawalScoring};

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::{PartialSchema, ToSchema};

/// Binary content (a PNG image), for the description.
pub(crate) struct Binary;

impl PartialSchema for Binary {
    fn schema() -> RefOr<utoipa::openapi::Schema> {
        RefOr::T(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
                .into(),
        )
    }
}

impl ToSchema for Binary {}
