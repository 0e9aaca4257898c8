//! Where the archive finds a variant's rules: the registry, or any other source of
//! [`Variant`]s (tests bring variants of their own).

use std::borrow::Cow;

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

/// The variant id of a `Variant` tag's value. Absent, or one of [`STANDARD_NAMES`] in any
/// case (the names python-chess reads as standard chess: lichess writes `Standard`, and
/// `From Position` for a standard game from a set position), it is standard chess; any
/// other value is taken as an id.
pub fn variant_id(tag: Option<&str>) -> &str {
    match tag.map(str::trim) {
        None => CHESS,
        Some(value)
            if STANDARD_NAMES
                .iter()
                .any(|name| value.eq_ignore_ascii_case(name)) =>
        {
            CHESS
        }
        Some(value) => value,
    }
}

/// The `Variant` values that mean standard chess.
pub const STANDARD_NAMES: &[&str] = &[CHESS, "Standard", "Classical", "Normal", "From Position"];

/// The id of standard chess, the variant of plain PGN.
pub const CHESS: &str = "chess";

/// The start position text of a `FEN` tag as the rules should read it: for standard chess,
/// a full-move number of `0` (which many tools write, and python-chess reads as 1) is read
/// as 1; anything else is given unchanged for the rules to judge.
pub fn start_text<'t>(variant: &str, fen: &'t str) -> Cow<'t, str> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    match fields.as_slice() {
        [placement @ .., "0"] if variant == CHESS && fields.len() == 6 => {
            Cow::Owned(format!("{} 1", placement.join(" ")))
        }
        _ => Cow::Borrowed(fen),
    }
}

/// Starts a game of `variant` from the record's setup.
pub fn new_game(
    rules: &dyn Rules,
    variant: &str,
    options: &str,
    start: Option<&str>,
) -> Result<Box<dyn AnyGame>, SetupError> {
    rules.variant(variant)?.new_game(options, start)
}
