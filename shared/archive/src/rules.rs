//! Where the archive finds a variant's rules: the registry, or any other source of
//! [`Variant`]s (tests bring variants of their own).

use missive_rules::{AnyGame, SetupError, Variant, registry};

/// A source of variants by id.
pub trait Rules {
    /// The variant with `id`, or why there is none.
    fn variant(&self, id: &str) -> Result<&dyn Variant, SetupError>;
}

/// The rules registry: every variant Missive plays.
#[derive(Clone, Copy, Debug, Default)]
pub struct Registry;

impl Rules for Registry {
    fn variant(&self, id: &str) -> Result<&dyn Variant, SetupError> {
        registry::variant(id)
    }
}

/// The variant id of a `Variant` tag's value: absent, `chess` and `Standard` (as other
/// tools write it) mean standard chess; any other value is taken as an id.
pub fn variant_id(tag: Option<&str>) -> &str {
    match tag.map(str::trim) {
        None => CHESS,
        Some(value)
            if value.eq_ignore_ascii_case("standard") || value.eq_ignore_ascii_case(CHESS) =>
        {
            CHESS
        }
        Some(value) => value,
    }
}

/// The id of standard chess, the variant of plain PGN.
pub const CHESS: &str = "chess";

/// Starts a game of `variant` from the record's setup.
pub fn new_game(
    rules: &dyn Rules,
    variant: &str,
    options: &str,
    start: Option<&str>,
) -> Result<Box<dyn AnyGame>, SetupError> {
    rules.variant(variant)?.new_game(options, start)
}
