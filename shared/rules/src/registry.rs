//! The variants Missive plays, by id.

use crate::{
    AnyGame, Game, OptionSpec, Options, Position, SetupError, Window,
    chess::Chess,
    dynamo::Dynamo,
    sanguo::Sanguo,
    trid::{FederationStandard, WtdcfLaws},
    xiangqi::Xiangqi,
};

/// The edition of the rules a game created now is played under. A game keeps its edition:
/// when a reading of the rules changes, the old one stays as an option (off by default),
/// and [`Variant::edition_options`] turns it on for the games of the editions before.
pub const EDITION: u32 = 1;

/// A variant as the registry knows it: an id, a description, its options, and a way to
/// start a game. Object safe, so every variant sits in one list.
pub trait Variant: Send + Sync {
    /// The id, e.g. `chess`.
    fn id(&self) -> &'static str;
    /// One line describing the variant.
    fn description(&self) -> &'static str;
    /// Seat names in turn order.
    fn seat_names(&self) -> &'static [&'static str];
    /// The options the variant offers.
    fn option_specs(&self) -> &'static [OptionSpec];
    /// Starts a game under `options` (text `k=v,...`) from the standard start, or from
    /// `position` (the variant's position text) when given.
    fn new_game(
        &self,
        options: &str,
        position: Option<&str>,
    ) -> Result<Box<dyn AnyGame>, SetupError>;
    /// The options a game of `edition` stored with `options` is played under today: its
    /// own options, over those that bring back its edition's readings.
    fn edition_options(&self, edition: u32, options: &str) -> Result<String, SetupError>;
    /// Takes a game under `options` up again from its `window` (see [`Window`]): the same
    /// game, as far as every rule can tell, as the one that made the window.
    fn resume(&self, options: &str, window: &Window) -> Result<Box<dyn AnyGame>, SetupError>;
}

/// The registry entry of position type `P`: what makes any [`Position`] a [`Variant`]. The
/// registry's variants are entries; so can be a caller's own (a test double, say).
pub struct Entry<P>(std::marker::PhantomData<fn() -> P>);

impl<P: Position> Variant for Entry<P> {
    fn id(&self) -> &'static str {
        P::ID
    }

    fn description(&self) -> &'static str {
        P::DESCRIPTION
    }

    fn seat_names(&self) -> &'static [&'static str] {
        P::SEATS
    }

    fn option_specs(&self) -> &'static [OptionSpec] {
        P::option_specs()
    }

    fn new_game(
        &self,
        options: &str,
        position: Option<&str>,
    ) -> Result<Box<dyn AnyGame>, SetupError> {
        let options = Options::parse(options, P::option_specs())?;
        let start = match position {
            Some(text) => P::from_text(text, &options)?,
            None => P::start(&options),
        };
        Ok(Box::new(Game::new(start, options)))
    }

    fn edition_options(&self, edition: u32, options: &str) -> Result<String, SetupError> {
        let own = Options::parse(options, P::option_specs())?;
        if edition >= EDITION || P::EDITION_ZERO.is_empty() {
            return Ok(own.to_string());
        }
        let given: Vec<&str> = options
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .collect();
        let key = |item: &str| {
            item.split('=')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string()
        };
        let keys: Vec<String> = given.iter().map(|item| key(item)).collect();
        let older = P::EDITION_ZERO
            .split(',')
            .filter(|item| !keys.contains(&key(item)));
        let merged: Vec<&str> = older.chain(given.iter().copied()).collect();
        Ok(Options::parse(&merged.join(","), P::option_specs())?.to_string())
    }

    fn resume(&self, options: &str, window: &Window) -> Result<Box<dyn AnyGame>, SetupError> {
        let options = Options::parse(options, P::option_specs())?;
        let position = P::from_text(&window.position, &options)?;
        let game = Game::resumed_through(position, options, window.ply, &window.moves)
            .map_err(|(index, error)| SetupError::Window { index, error })?;
        Ok(Box::new(game))
    }
}

/// The entry of position type `P`, usable in a `static`.
pub const fn entry<P: Position>() -> Entry<P> {
    Entry(std::marker::PhantomData)
}

static CHESS: Entry<Chess> = entry();
static DYNAMO: Entry<Dynamo> = entry();
static XIANGQI: Entry<Xiangqi> = entry();
static SANGUO: Entry<Sanguo> = entry();

static TRID_FS: Entry<FederationStandard> = entry();
static TRID_WTDCF: Entry<WtdcfLaws> = entry();

static VARIANTS: &[&dyn Variant] = &[&CHESS, &DYNAMO, &TRID_FS, &TRID_WTDCF, &XIANGQI, &SANGUO];

/// Every variant, in the order `missive variants` lists them.
pub fn variants() -> &'static [&'static dyn Variant] {
    VARIANTS
}

/// The variant with `id`, or an error listing the ids that exist.
pub fn variant(id: &str) -> Result<&'static dyn Variant, SetupError> {
    VARIANTS
        .iter()
        .copied()
        .find(|v| v.id() == id)
        .ok_or_else(|| SetupError::UnknownVariant {
            id: id.to_string(),
            known: VARIANTS
                .iter()
                .map(|v| v.id())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_of_edition_zero_get_the_readings_of_their_time() {
        let cases = [
            ("chess", ""),
            ("xiangqi", ""),
            ("dynamo", "pawn-push=any"),
            ("trid-wtdcf", "board-moves=pins"),
            (
                "trid-fs",
                "board-capture=owners-last,half-turns=on,paths=main-first",
            ),
        ];
        for (id, old) in cases {
            let variant = variant(id).unwrap();
            assert_eq!(variant.edition_options(0, "").unwrap(), old, "{id}");
            assert_eq!(variant.edition_options(EDITION, "").unwrap(), "", "{id}");
        }
        let fs = variant("trid-fs").unwrap();
        assert_eq!(
            fs.edition_options(0, "rook-pawn=on, half-turns = off")
                .unwrap(),
            "board-capture=owners-last,paths=main-first,rook-pawn=on",
            "a game's own options win over its edition's"
        );
        assert!(fs.edition_options(0, "nonsense=1").is_err());
    }
}
