//! The game record: what the archive stores of one game, as plain data.
//!
//! The game service builds a [`GameRecord`] from its log (variant, options, players, every
//! move with the time it was received, the events between moves, the result); export turns
//! it into archive text and import gives it back. Nothing here checks the rules: export and
//! import replay the moves through the rules registry.

use chrono::{DateTime, Utc};
use missive_rules::{EndRule, Outcome, Seat, SeatResult};

/// One game as the archive knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The variant id in the rules registry, e.g. `chess`, `sanguo`.
    pub variant: String,
    /// The game options in the variant's canonical `key=value,...` text; empty for none.
    pub options: String,
    /// The player in each seat, in turn order (`White`, `Black`; `Shu`, `Wu`, `Wei`).
    /// `?` when unknown.
    pub players: Vec<String>,
    /// The start position in the variant's position text (FEN for chess), or `None` for the
    /// variant's standard start under the options.
    pub start: Option<String>,
    /// Every other tag, in order: `Event`, `Site`, `Date`, `Round`, `TimeControl`, `GameId`,
    /// `EndDate` and any other. The tags the archive derives itself (seat tags, `Result`,
    /// `Variant`, `Options`, `SetUp`, `FEN`, `Termination`, `Digest`, `Signature`) are never
    /// here.
    pub tags: Vec<(String, String)>,
    /// The moves and the events between them, in the order they happened.
    pub entries: Vec<Entry>,
    /// How the game ended; `None` while it goes on.
    pub result: Option<GameResult>,
    /// The server's signature over the game's canonical content, in the text form of
    /// [`crate::seal`] (`ed25519:<base64>`), if the game was signed.
    pub signature: Option<String>,
}

/// A move or an event, in the order they happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A move of the game.
    Move(MoveEntry),
    /// Something that happened between moves.
    Event(Event),
}

/// One move with the time it reached the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    /// The move in any notation the variant reads. Import gives the long (canonical) form.
    pub text: String,
    /// When the server received the move (UTC); the archive keeps whole seconds.
    pub received: Option<DateTime<Utc>>,
}

/// Something a player did that is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// What happened.
    pub kind: EventKind,
    /// The seat that did it.
    pub seat: Seat,
    /// When the server recorded it (UTC, whole seconds in the archive).
    pub at: Option<DateTime<Utc>>,
}

/// The events the archive records between moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// The seat offered a draw.
    DrawOffered,
    /// The seat declined the draw offered to it.
    DrawDeclined,
    /// The seat accepted the draw offered to it.
    DrawAccepted,
    /// The seat claimed an end by rule, named by its [`EndRule`] text (e.g.
    /// `threefold-repetition`).
    Claimed(String),
    /// The seat resigned.
    Resigned,
    /// The seat ran out of time.
    TimedOut,
    /// The seat took `days` days of vacation from this time.
    Vacation {
        /// Length of the vacation in days.
        days: u32,
    },
}

impl EventKind {
    /// The event's name in the archive (`draw-offer`, `claim`, `vacation`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::DrawOffered => "draw-offer",
            EventKind::DrawDeclined => "draw-decline",
            EventKind::DrawAccepted => "draw-accept",
            EventKind::Claimed(_) => "claim",
            EventKind::Resigned => "resign",
            EventKind::TimedOut => "timeout",
            EventKind::Vacation { .. } => "vacation",
        }
    }

    /// The event's argument in the archive, if it has one (the claimed rule, the days).
    pub fn argument(&self) -> Option<String> {
        match self {
            EventKind::Claimed(rule) => Some(rule.clone()),
            EventKind::Vacation { days } => Some(days.to_string()),
            _ => None,
        }
    }

    /// The event named `name` with `argument`, or why they do not make one.
    pub fn parse(name: &str, argument: Option<&str>) -> Result<EventKind, String> {
        let plain = |kind: EventKind| match argument {
            None => Ok(kind),
            Some(extra) => Err(format!("`{name}` takes no argument, found `{extra}`")),
        };
        match name {
            "draw-offer" => plain(EventKind::DrawOffered),
            "draw-decline" => plain(EventKind::DrawDeclined),
            "draw-accept" => plain(EventKind::DrawAccepted),
            "resign" => plain(EventKind::Resigned),
            "timeout" => plain(EventKind::TimedOut),
            "claim" => match argument {
                Some(rule) if is_rule_name(rule) => Ok(EventKind::Claimed(rule.to_string())),
                _ => Err("`claim` needs the claimed rule, e.g. `threefold-repetition`".into()),
            },
            "vacation" => argument
                .and_then(|days| days.parse().ok())
                .map(|days| EventKind::Vacation { days })
                .ok_or_else(|| "`vacation` needs the number of days".into()),
            _ => Err(format!("unknown event `{name}`")),
        }
    }

    /// Every event name, as the archive writes them.
    pub const NAMES: &'static [&'static str] = &[
        "draw-offer",
        "draw-decline",
        "draw-accept",
        "claim",
        "resign",
        "timeout",
        "vacation",
    ];
}

/// How a game ended: the rule and each seat's result.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The ending rule's kebab-case name ([`EndRule::as_str`], e.g. `checkmate`,
    /// `resignation`); variants may add rules of their own.
    pub rule: String,
    /// Each seat's result, in seat order.
    pub results: Vec<SeatResult>,
}

impl GameResult {
    /// The result per seat in the `Result` tag's form: `1-0`, `0-1`, `1/2-1/2` for two
    /// seats; each seat's score joined by dashes for more (`1-0-0`, `1/2-1/2-0`,
    /// `1/3-1/3-1/3`).
    pub fn score_text(&self) -> String {
        self.outcome_like().score_text()
    }

    /// Reads a `Result` text for `seats` seats back into per-seat results: `1` win, `0`
    /// loss, `1/2` draw for two seats and shared win for more, `1/3` draw. `None` for `*`
    /// or a text of another shape.
    pub fn parse_score(text: &str, seats: usize) -> Option<Vec<SeatResult>> {
        let parts: Vec<&str> = text.split('-').collect();
        if parts.len() != seats || seats < 2 {
            return None;
        }
        parts
            .iter()
            .map(|part| match *part {
                "1" => Some(SeatResult::Win),
                "0" => Some(SeatResult::Loss),
                "1/2" if seats == 2 => Some(SeatResult::Draw),
                "1/2" => Some(SeatResult::SharedWin),
                "1/3" if seats > 2 => Some(SeatResult::Draw),
                _ => None,
            })
            .collect()
    }

    /// The results as an [`Outcome`], whose score text does not depend on the rule.
    fn outcome_like(&self) -> Outcome {
        Outcome {
            rule: EndRule::Agreement,
            results: self.results.clone(),
        }
    }
}

impl From<&Outcome> for GameResult {
    fn from(outcome: &Outcome) -> GameResult {
        GameResult {
            rule: outcome.rule.as_str().to_string(),
            results: outcome.results.clone(),
        }
    }
}

/// True for a kebab-case rule name: lowercase ASCII letters and digits joined by dashes.
pub fn is_rule_name(text: &str) -> bool {
    !text.is_empty()
        && text.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

impl GameRecord {
    /// The value of tag `name` among [`GameRecord::tags`].
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The moves alone, in order.
    pub fn moves(&self) -> impl Iterator<Item = &MoveEntry> {
        self.entries.iter().filter_map(|entry| match entry {
            Entry::Move(mv) => Some(mv),
            Entry::Event(_) => None,
        })
    }
}

/// A correspondence time control: `moves` moves in `days` days (`1/3` is three days per
/// move, `10/50` ten moves in fifty days), the `TimeControl` tag's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves to make within the period.
    pub moves: u32,
    /// Length of the period in days.
    pub days: u32,
}

impl TimeControl {
    /// Reads `moves/days`; `None` for any other text (such as `-` or `?`).
    pub fn parse(text: &str) -> Option<TimeControl> {
        let (moves, days) = text.split_once('/')?;
        let control = TimeControl {
            moves: moves.parse().ok()?,
            days: days.parse().ok()?,
        };
        (control.moves > 0 && control.days > 0).then_some(control)
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.moves, self.days)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SeatResult::{Draw, Loss, SharedWin, Win};

    #[test]
    fn scores_read_back() {
        let table: &[&[SeatResult]] = &[
            &[Win, Loss],
            &[Loss, Win],
            &[Draw, Draw],
            &[Win, Loss, Loss],
            &[Loss, SharedWin, SharedWin],
            &[Draw, Draw, Draw],
        ];
        for results in table {
            let result = GameResult {
                rule: "checkmate".into(),
                results: results.to_vec(),
            };
            let text = result.score_text();
            assert_eq!(
                GameResult::parse_score(&text, results.len()).as_deref(),
                Some(*results),
                "{text}"
            );
        }
        assert_eq!(GameResult::parse_score("1-0", 3), None);
        assert_eq!(GameResult::parse_score("1/3-1/3", 2), None);
        assert_eq!(GameResult::parse_score("*", 2), None);
    }

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse("10/50"),
            Some(TimeControl {
                moves: 10,
                days: 50
            })
        );
        assert_eq!(
            TimeControl::parse("1/3").map(|t| t.to_string()).as_deref(),
            Some("1/3")
        );
        for bad in ["-", "?", "0/3", "1/0", "40/9000+5", "x/3"] {
            assert_eq!(TimeControl::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn events_by_name() {
        for name in EventKind::NAMES {
            let argument = match *name {
                "claim" => Some("fifty-moves"),
                "vacation" => Some("7"),
                _ => None,
            };
            let kind = EventKind::parse(name, argument).expect("parses");
            assert_eq!(kind.name(), *name);
            assert_eq!(kind.argument().as_deref(), argument);
        }
        assert!(EventKind::parse("resign", Some("now")).is_err());
        assert!(EventKind::parse("claim", Some("Threefold")).is_err());
        assert!(EventKind::parse("vacation", Some("a week")).is_err());
        assert!(EventKind::parse("castle", None).is_err());
    }
}
