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
    /// A message a player wrote to the others: written only into archives given to the
    /// game's players, outside the canonical content (never digested or signed), and
    /// dropped on import like every comment.
    Message(MessageEntry),
    /// Something the game's tournament organiser did: it concerns no seat.
    Organiser(OrganiserEntry),
}

impl Entry {
    /// The time the entries' order is checked by: when it was received or happened, if the
    /// archive gives it; `None` for a vacation, whose time is its start and may lie ahead of
    /// the entries that follow.
    pub fn ordered_time(&self) -> Option<DateTime<Utc>> {
        match self {
            Entry::Move(mv) => mv.received,
            Entry::Event(event) if event.kind.is_timed_ahead() => None,
            Entry::Event(event) => event.at,
            Entry::Message(message) => Some(message.at),
            Entry::Organiser(organiser) => organiser.at,
        }
    }
}

/// An act of a game's tournament organiser, as its archive writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrganiserEntry {
    /// What the organiser did.
    pub act: OrganiserAct,
    /// When the server recorded it (UTC, whole seconds in the archive).
    pub at: Option<DateTime<Utc>>,
}

/// What a tournament's organiser does to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrganiserAct {
    /// The tournament was paused: from then no clock of the game ran.
    Paused,
    /// The tournament was resumed: the clocks ran again, the pause given back.
    Resumed,
    /// `by` stopped the game's clocks for `days` days from then: the turn's deadline moved
    /// that much later.
    DeadlineExtended {
        /// Days.
        days: u32,
        /// The organiser (one word: a handle).
        by: String,
    },
    /// `by` ended the game with its result for `reason`.
    Adjudicated {
        /// The organiser (one word: a handle).
        by: String,
        /// Why, in the organiser's words: any text.
        reason: String,
    },
}

impl OrganiserAct {
    /// Every act's name, as the archive writes them.
    pub const NAMES: &'static [&'static str] = &["pause", "resume", "extend", "adjudicate"];

    /// The act's name in the archive (`pause`, `resume`, `extend`, `adjudicate`).
    pub fn name(&self) -> &'static str {
        match self {
            OrganiserAct::Paused => "pause",
            OrganiserAct::Resumed => "resume",
            OrganiserAct::DeadlineExtended { .. } => "extend",
            OrganiserAct::Adjudicated { .. } => "adjudicate",
        }
    }

    /// The act's words between its name and its time: the days and the organiser of an
    /// extension, the organiser of an adjudication.
    pub fn arguments(&self) -> Vec<String> {
        match self {
            OrganiserAct::Paused | OrganiserAct::Resumed => Vec::new(),
            OrganiserAct::DeadlineExtended { days, by } => vec![days.to_string(), by.clone()],
            OrganiserAct::Adjudicated { by, .. } => vec![by.clone()],
        }
    }

    /// Whether the act named `name` takes the rest of its comment as its text (an
    /// adjudication, its reason).
    pub fn takes_text(name: &str) -> bool {
        name == "adjudicate"
    }

    /// The free text after the command: an adjudication's reason.
    pub fn text(&self) -> Option<&str> {
        match self {
            OrganiserAct::Adjudicated { reason, .. } => Some(reason),
            _ => None,
        }
    }

    /// The act named `name` with `arguments` (the command's words before its time) and
    /// `text` (for an act that takes one, what follows the command in its comment,
    /// unescaped), or why they do not make one.
    pub fn parse(name: &str, arguments: &[&str], text: &str) -> Result<OrganiserAct, String> {
        let organiser = |by: Option<&&str>| {
            by.map(|by| by.to_string())
                .ok_or_else(|| format!("`{name}` needs the organiser's handle"))
        };
        let act = match (name, arguments) {
            ("pause", []) => OrganiserAct::Paused,
            ("resume", []) => OrganiserAct::Resumed,
            ("extend", [days, rest @ ..]) if rest.len() <= 1 => OrganiserAct::DeadlineExtended {
                days: days
                    .parse()
                    .map_err(|_| format!("`extend` needs the number of days, found `{days}`"))?,
                by: organiser(rest.first())?,
            },
            ("extend", []) => return Err("`extend` needs the number of days".into()),
            ("adjudicate", rest) if rest.len() <= 1 => OrganiserAct::Adjudicated {
                by: organiser(rest.first())?,
                reason: text.to_string(),
            },
            ("pause" | "resume" | "extend" | "adjudicate", _) => {
                return Err(format!("too many arguments for `{name}`"));
            }
            _ => return Err(format!("unknown organiser act `{name}`")),
        };
        Ok(act)
    }
}

/// A message of a game's players, as its archive writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageEntry {
    /// The seat whose player wrote it.
    pub seat: Seat,
    /// When it was written.
    pub at: DateTime<Utc>,
    /// The text: plain, line feeds kept.
    pub text: String,
}

/// One move with the time it reached the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    /// The move in any notation the variant reads. Import gives the long (canonical) form.
    pub text: String,
    /// When the server received the move (UTC); the archive keeps whole seconds.
    pub received: Option<DateTime<Utc>>,
    /// Whether the server played it on its seat's behalf, from the seat's conditional line.
    pub conditional: bool,
}

impl MoveEntry {
    /// A move its player made, received at `received`.
    pub fn new(text: impl Into<String>, received: Option<DateTime<Utc>>) -> MoveEntry {
        MoveEntry {
            text: text.into(),
            received,
            conditional: false,
        }
    }
}

/// Something a player did that is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// What happened.
    pub kind: EventKind,
    /// The seat that did it (the nation that went out, for an elimination).
    pub seat: Seat,
    /// When the server recorded it (UTC, whole seconds in the archive); for a vacation,
    /// when it starts.
    pub at: Option<DateTime<Utc>>,
}

/// The events the archive records between moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// The seat offered a draw (with its move when it follows the move at the move's time).
    DrawOffered,
    /// The seat withdrew the draw it had offered.
    DrawWithdrawn,
    /// The seat declined the draw offered to it.
    DrawDeclined,
    /// The seat accepted the draw offered to it.
    DrawAccepted,
    /// The seat claimed an end by rule, and the claim was upheld: the rule's [`EndRule`]
    /// text (e.g. `threefold-repetition`).
    Claimed(String),
    /// The seat claimed an end by rule (or a win on time, `timeout`) and the claim was
    /// refused: the game went on.
    ClaimRefused(String),
    /// The seat resigned.
    Resigned,
    /// The seat ran out of time.
    TimedOut,
    /// The seat called the game off before its first move.
    Aborted,
    /// The seat's invited player declined the invitation: the game was called off.
    InvitationDeclined,
    /// The seat took `days` days of vacation from the event's time.
    Vacation {
        /// Length of the vacation in days.
        days: u32,
    },
    /// The seat's vacation ended at the event's time, before it was over (one that had not
    /// started yet was called off).
    VacationEnded,
    /// The seat (a nation of a three-seat game) is out of the game, and its army passed to
    /// `heir`, the nation that had just moved.
    Eliminated {
        /// The seat that took the army over.
        heir: Seat,
    },
}

/// The argument of an event in the archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Argument<'a> {
    /// A rule's kebab-case name (`threefold-repetition`).
    Rule(&'a str),
    /// A number of days.
    Days(u32),
    /// A seat, written by its name in the movetext and by its index in the canonical
    /// content.
    Seat(Seat),
}

impl Argument<'_> {
    /// The argument as the movetext writes it, with the variant's `seat_names`.
    pub fn text(&self, seat_names: &[&str]) -> String {
        match self {
            Argument::Seat(seat) => seat_names
                .get(seat.index())
                .map_or_else(|| seat.0.to_string(), |name| name.to_string()),
            _ => self.canonical(),
        }
    }

    /// The argument as the canonical content writes it (a seat by its index).
    pub fn canonical(&self) -> String {
        match self {
            Argument::Rule(rule) => rule.to_string(),
            Argument::Days(days) => days.to_string(),
            Argument::Seat(seat) => seat.0.to_string(),
        }
    }
}

impl EventKind {
    /// The event's name in the archive (`draw-offer`, `claim`, `vacation`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::DrawOffered => "draw-offer",
            EventKind::DrawWithdrawn => "draw-withdraw",
            EventKind::DrawDeclined => "draw-decline",
            EventKind::DrawAccepted => "draw-accept",
            EventKind::Claimed(_) => "claim",
            EventKind::ClaimRefused(_) => "claim-refused",
            EventKind::Resigned => "resign",
            EventKind::TimedOut => "timeout",
            EventKind::Aborted => "abort",
            EventKind::InvitationDeclined => "invitation-decline",
            EventKind::Vacation { .. } => "vacation",
            EventKind::VacationEnded => "vacation-end",
            EventKind::Eliminated { .. } => "eliminated",
        }
    }

    /// The event's argument, if it has one (the claimed rule, the days, the heir).
    pub fn argument(&self) -> Option<Argument<'_>> {
        match self {
            EventKind::Claimed(rule) | EventKind::ClaimRefused(rule) => Some(Argument::Rule(rule)),
            EventKind::Vacation { days } => Some(Argument::Days(*days)),
            EventKind::Eliminated { heir } => Some(Argument::Seat(*heir)),
            _ => None,
        }
    }

    /// Whether the event's time may come after the entries that follow it: a vacation's
    /// time is when it starts, which may be ahead of the moves made meanwhile.
    pub fn is_timed_ahead(&self) -> bool {
        matches!(self, EventKind::Vacation { .. })
    }

    /// The event named `name` with `argument`, a seat argument read among `seat_names`
    /// (any case), or why they do not make one.
    pub fn parse(
        name: &str,
        argument: Option<&str>,
        seat_names: &[&str],
    ) -> Result<EventKind, String> {
        let plain = |kind: EventKind| match argument {
            None => Ok(kind),
            Some(extra) => Err(format!("`{name}` takes no argument, found `{extra}`")),
        };
        let rule = |make: fn(String) -> EventKind| match argument {
            Some(rule) if is_rule_name(rule) => Ok(make(rule.to_string())),
            _ => Err(format!(
                "`{name}` needs the claimed rule, e.g. `threefold-repetition`"
            )),
        };
        match name {
            "draw-offer" => plain(EventKind::DrawOffered),
            "draw-withdraw" => plain(EventKind::DrawWithdrawn),
            "draw-decline" => plain(EventKind::DrawDeclined),
            "draw-accept" => plain(EventKind::DrawAccepted),
            "resign" => plain(EventKind::Resigned),
            "timeout" => plain(EventKind::TimedOut),
            "abort" => plain(EventKind::Aborted),
            "invitation-decline" => plain(EventKind::InvitationDeclined),
            "vacation-end" => plain(EventKind::VacationEnded),
            "claim" => rule(EventKind::Claimed),
            "claim-refused" => rule(EventKind::ClaimRefused),
            "vacation" => argument
                .and_then(|days| days.parse().ok())
                .map(|days| EventKind::Vacation { days })
                .ok_or_else(|| "`vacation` needs the number of days".into()),
            "eliminated" => argument
                .and_then(|heir| crate::replay::find_seat(seat_names, heir))
                .map(|heir| EventKind::Eliminated { heir })
                .ok_or_else(|| {
                    format!(
                        "`eliminated` needs the seat that took the army over (seats: {})",
                        seat_names.join(", ")
                    )
                }),
            _ => Err(format!("unknown event `{name}`")),
        }
    }

    /// Every event name, as the archive writes them.
    pub const NAMES: &'static [&'static str] = &[
        "draw-offer",
        "draw-withdraw",
        "draw-decline",
        "draw-accept",
        "claim",
        "claim-refused",
        "resign",
        "timeout",
        "abort",
        "invitation-decline",
        "vacation",
        "vacation-end",
        "eliminated",
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
            Entry::Event(_) | Entry::Message(_) | Entry::Organiser(_) => None,
        })
    }
}

/// A correspondence time control, the `TimeControl` tag's value: `1/3` is three days for
/// every move; `10/50` ten moves in fifty days, unused time carried over (ICCF's clock);
/// `1/7 iccf` an ICCF clock of one move in seven days (unused time carried over, unlike
/// `1/7`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// The same number of days for every move.
    DaysPerMove {
        /// Days per move.
        days: u32,
    },
    /// `moves` moves in `days` days, then as many again, unused time carried over.
    Iccf {
        /// Moves per period.
        moves: u32,
        /// Days per period.
        days: u32,
    },
}

/// The word that marks an ICCF clock of one move per period.
const ICCF_WORD: &str = " iccf";

impl TimeControl {
    /// Reads `1/D`, `N/D` or `1/D iccf`; `None` for any other text (such as `-` or `?`).
    pub fn parse(text: &str) -> Option<TimeControl> {
        let (text, iccf) = match text.strip_suffix(ICCF_WORD) {
            Some(text) => (text, true),
            None => (text, false),
        };
        let (moves, days) = text.split_once('/')?;
        let (moves, days): (u32, u32) = (moves.parse().ok()?, days.parse().ok()?);
        if moves == 0 || days == 0 || (iccf && moves != 1) {
            return None;
        }
        Some(match (moves, iccf) {
            (1, false) => TimeControl::DaysPerMove { days },
            _ => TimeControl::Iccf { moves, days },
        })
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TimeControl::DaysPerMove { days } => write!(f, "1/{days}"),
            TimeControl::Iccf { moves: 1, days } => write!(f, "1/{days}{ICCF_WORD}"),
            TimeControl::Iccf { moves, days } => write!(f, "{moves}/{days}"),
        }
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
            Some(TimeControl::Iccf {
                moves: 10,
                days: 50
            })
        );
        assert_eq!(
            TimeControl::parse("1/3"),
            Some(TimeControl::DaysPerMove { days: 3 })
        );
        assert_eq!(
            TimeControl::parse("1/7 iccf"),
            Some(TimeControl::Iccf { moves: 1, days: 7 })
        );
        for text in ["1/3", "10/50", "1/7 iccf"] {
            let parsed = TimeControl::parse(text).map(|t| t.to_string());
            assert_eq!(parsed.as_deref(), Some(text));
        }
        for bad in ["-", "?", "0/3", "1/0", "40/9000+5", "x/3", "10/50 iccf"] {
            assert_eq!(TimeControl::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn organiser_acts_by_name() {
        for name in OrganiserAct::NAMES {
            let arguments: &[&str] = match *name {
                "extend" => &["3", "ann"],
                "adjudicate" => &["ann"],
                _ => &[],
            };
            let act = OrganiserAct::parse(name, arguments, "why").expect("parses");
            assert_eq!(act.name(), *name);
            assert_eq!(act.arguments(), arguments);
            let reason = (*name == "adjudicate").then_some("why");
            assert_eq!(act.text(), reason);
        }
        assert!(OrganiserAct::parse("halt", &[], "").is_err());
        assert!(OrganiserAct::parse("extend", &["-1", "ann"], "").is_err());
    }

    #[test]
    fn events_by_name() {
        let seats = ["shu", "wu", "wei"];
        for name in EventKind::NAMES {
            let argument = match *name {
                "claim" | "claim-refused" => Some("fifty-moves"),
                "vacation" => Some("7"),
                "eliminated" => Some("wei"),
                _ => None,
            };
            let kind = EventKind::parse(name, argument, &seats).expect("parses");
            assert_eq!(kind.name(), *name);
            let written = kind.argument().map(|a| a.text(&seats));
            assert_eq!(written.as_deref(), argument);
        }
        let heir = EventKind::parse("eliminated", Some("WU"), &seats).expect("any case");
        assert_eq!(heir.argument().map(|a| a.canonical()).as_deref(), Some("1"));
        assert!(EventKind::parse("resign", Some("now"), &seats).is_err());
        assert!(EventKind::parse("claim", Some("Threefold"), &seats).is_err());
        assert!(EventKind::parse("vacation", Some("a week"), &seats).is_err());
        assert!(EventKind::parse("eliminated", Some("red"), &seats).is_err());
        assert!(EventKind::parse("castle", None, &seats).is_err());
    }
}
