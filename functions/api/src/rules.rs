//! The rules without a game: the variants on offer and the legal moves of any position.

use axum::Json;
use axum::extract::State;
use missive_game::ServiceError;
use missive_rules::{Notation, registry};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ErrorBody;
use crate::{ApiError, App, JsonBody};

/// Most moves an analysis request may replay.
const MAX_ANALYSIS_MOVES: usize = 2000;

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(variants))
        .routes(routes!(legal_moves))
}

#[derive(Serialize, ToSchema)]
pub(crate) struct VariantInfo {
    id: &'static str,
    description: &'static str,
    seats: &'static [&'static str],
    options: Vec<OptionInfo>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct OptionInfo {
    key: &'static str,
    values: &'static [&'static str],
    default: &'static str,
    description: &'static str,
}

/// List the variants
///
/// Each variant's id, seats and options.
#[utoipa::path(get, path = "/v1/variants", tag = "rules", operation_id = "list_variants", security(()), responses(
    (status = 200, description = "The variants on offer", body = Vec<VariantInfo>),
))]
pub(crate) async fn variants() -> Json<Vec<VariantInfo>> {
    Json(
        registry::variants()
            .iter()
            .map(|v| VariantInfo {
                id: v.id(),
                description: v.description(),
                seats: v.seat_names(),
                options: v
                    .option_specs()
                    .iter()
                    .map(|o| OptionInfo {
                        key: o.key,
                        values: o.values,
                        default: o.default,
                        description: o.description,
                    })
                    .collect(),
            })
            .collect(),
    )
}

/// A position to analyse: a variant, options, a start position (the standard one if
/// absent) and moves played from it.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Analysis {
    #[schema(value_type = missive_game::api_schema::VariantId)]
    variant: String,
    /// The variant's options as `key=value` pairs joined by `,`; the defaults if empty.
    #[serde(default)]
    options: String,
    /// The position to start from, in the variant's position text; the standard start if
    /// absent.
    position: Option<String>,
    /// Moves played from it, in long or short notation, at most 2000.
    #[serde(default)]
    #[schema(max_items = 2000)]
    moves: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Analysed {
    position: String,
    ply: usize,
    to_move: Option<u8>,
    legal_moves: Vec<String>,
    legal_moves_short: Vec<String>,
    outcome: Option<OutcomeInfo>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct OutcomeInfo {
    rule: &'static str,
    results: Vec<&'static str>,
}

/// Analyse a position
///
/// Plays the moves from the start (or the position given) and answers the position reached, its legal moves and its outcome, if any. Nothing is stored.
#[utoipa::path(post, path = "/v1/analysis/legal-moves", tag = "rules", operation_id = "analyse_position", security(()), request_body = Analysis, responses(
    (status = 200, description = "The position and its legal moves", body = Analysed),
    (status = 400, description = "Unknown variant, bad options or position, more than 2000 moves", body = ErrorBody),
    (status = 422, description = "An illegal move (`illegal-move`)", body = ErrorBody),
))]
pub(crate) async fn legal_moves(
    State(_): State<App>,
    JsonBody(request): JsonBody<Analysis>,
) -> Result<Json<Analysed>, ApiError> {
    if request.moves.len() > MAX_ANALYSIS_MOVES {
        return Err(ApiError::bad_request(format!(
            "at most {MAX_ANALYSIS_MOVES} moves"
        )));
    }
    let variant = registry::variant(&request.variant).map_err(ServiceError::from)?;
    let mut game = variant
        .new_game(&request.options, request.position.as_deref())
        .map_err(ServiceError::from)?;
    for text in &request.moves {
        game.play(text).map_err(ServiceError::from)?;
    }
    let outcome = game.outcome();
    let legal = |notation| {
        if outcome.is_some() {
            Vec::new()
        } else {
            game.legal_moves(notation)
        }
    };
    Ok(Json(Analysed {
        position: game.position_text(),
        ply: game.ply(),
        to_move: game.to_move().map(|s| s.0),
        legal_moves: legal(Notation::Long),
        legal_moves_short: legal(Notation::Short),
        outcome: outcome.map(|o| OutcomeInfo {
            rule: o.rule.as_str(),
            results: o.results.iter().map(|r| r.as_str()).collect(),
        }),
    }))
}
