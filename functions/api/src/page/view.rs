//! A game as the pages show it: who plays, the board, the clock, the result and the move
//! list, read from the service and written as HTML.

use chrono::{DateTime, Utc};
use missive_domain::{GameId, MoveRecord, Status};
use missive_game::GameView;
use missive_rules::{AnyGame, MoveNumber, MoveNumbering, Seat, score};

pub use missive_notify::compose::{time_left, utc};

use super::html::escape;
use crate::{ApiError, App};

/// A game read for a page: its state, its board drawn from one seat, its moves, and when
/// it was read.
pub struct Shown {
    /// The state, as `viewer` sees it.
    pub view: GameView,
    /// The board as inline SVG, the viewer's seat at the bottom.
    pub board: String,
    /// The rules game the board shows, for trying moves on.
    pub game: Box<dyn AnyGame>,
    /// Every move played.
    pub log: Vec<MoveRecord>,
    /// When the game was read.
    pub now: DateTime<Utc>,
    /// Where the page links the game's archive (a path relative to the page's).
    pub archive: String,
}

/// Reads `game` as `viewer` (a handle) sees it, the board drawn from `seat` (the first
/// seat when `None`).
pub async fn load(
    app: &App,
    game: &GameId,
    viewer: Option<&str>,
    seat: Option<Seat>,
) -> Result<Shown, ApiError> {
    let detail = app.service.game_detail(game, viewer).await?;
    Ok(Shown {
        view: detail.view,
        board: board(detail.game.as_ref(), seat),
        game: detail.game,
        log: detail.stored.moves,
        now: app.clock.now(),
        archive: format!("../games/{}/archive", game.0),
    })
}

/// `game`'s board as inline SVG from `seat`'s side (the first seat's when `None`), its last
/// move marked.
pub fn board(game: &dyn AnyGame, seat: Option<Seat>) -> String {
    let options = missive_board::Options {
        seat,
        ..Default::default()
    };
    missive_board::render(&game.diagram(), &options)
}

impl Shown {
    /// The name of `seat` (`white`, `wei`).
    pub fn seat_name(&self, seat: Seat) -> &str {
        self.view
            .seat_names
            .get(seat.index())
            .map_or("?", String::as_str)
    }

    /// The player in `seat`, if it is taken.
    pub fn player(&self, seat: Seat) -> Option<&str> {
        self.view.seats.get(seat.index()).and_then(|s| s.player())
    }

    /// `chess: ann v bob`.
    pub fn title(&self) -> String {
        let players: Vec<&str> = (0..self.view.seats.len() as u8)
            .map(|s| self.player(Seat(s)).unwrap_or("(open)"))
            .collect();
        format!("{}: {}", self.view.variant, players.join(" v "))
    }

    /// The result in words once the game is over: `Finished by checkmate: white win,
    /// black loss.`
    pub fn result(&self) -> Option<String> {
        let ending = self.view.ending.as_ref()?;
        let results: Vec<String> = ending
            .results
            .iter()
            .enumerate()
            .map(|(seat, result)| {
                let name = self.seat_name(Seat(seat as u8));
                format!("{name} {}", result.as_str())
            })
            .collect();
        let verb = match self.view.status {
            Status::Cancelled => "Cancelled",
            _ => "Finished",
        };
        let by = ending
            .by
            .map(|seat| format!(" ({})", self.seat_name(seat)))
            .unwrap_or_default();
        let rule = ending.rule.as_str().replace('-', " ");
        Some(match results.is_empty() {
            true => format!("{verb} by {rule}{by}."),
            false => format!("{verb} by {rule}{by}: {}.", results.join(", ")),
        })
    }

    /// The whole page body: a heading, an optional notice (markup), the board, and a
    /// panel of players, clock, `form` (markup, may be empty) and moves.
    pub fn body(&self, heading: &str, notice: &str, form: &str) -> String {
        self.body_with(heading, notice, &self.board, form)
    }

    /// [`Shown::body`] with another picture of the board (`board`, markup).
    pub fn body_with(&self, heading: &str, notice: &str, board: &str, form: &str) -> String {
        format!(
            "<h1>{}</h1>{notice}<div class=\"layout\"><section class=\"board\">{board}</section>\
             <section class=\"panel\">{}{}{form}{}</section></div>",
            escape(heading),
            self.players(),
            self.state(),
            self.score()
        )
    }

    /// `moves` (long notation, played in turn from the position shown, as far as they are
    /// legal) in short notation with the move numbers they get in this game: `2... Nc6 3. Bb5`.
    pub fn line(&self, moves: &[String]) -> String {
        let mut game = self.game.clone();
        let line: Vec<(Seat, String)> = moves
            .iter()
            .map_while(|long| {
                let seat = game.to_move()?;
                game.play(long).ok().map(|played| (seat, played.short))
            })
            .collect();
        let whole: Vec<(Seat, &str)> = self
            .log
            .iter()
            .map(|record| (record.seat, record.short.as_str()))
            .chain(line.iter().map(|(seat, short)| (*seat, short.as_str())))
            .collect();
        let first = whole.first().map_or(Seat(0), |(seat, _)| *seat);
        score(self.view.seats.len(), first, &whole, Some(line.len())).moves
    }

    /// The players by seat, the seat to move in bold.
    fn players(&self) -> String {
        let mut html = format!(
            "<p>{} · {}</p><ul class=\"players\">",
            escape(&self.view.variant),
            escape(&description(&self.view.variant))
        );
        for seat in (0..self.view.seats.len() as u8).map(Seat) {
            let class = match self.view.to_move == Some(seat) {
                true => " class=\"to-move\"",
                false => "",
            };
            html.push_str(&format!(
                "<li{class}>{}: {}</li>",
                escape(self.seat_name(seat)),
                escape(self.player(seat).unwrap_or("(open)"))
            ));
        }
        html.push_str("</ul>");
        html
    }

    /// Whose move and the time left, draw offers, or the result.
    fn state(&self) -> String {
        if let Some(result) = self.result() {
            return format!(
                "<p class=\"result\"><strong>{}</strong></p>",
                escape(&result)
            );
        }
        let mut html = String::new();
        if let Some(seat) = self.view.to_move {
            html.push_str(&format!(
                "<p>{} to move (move {}).</p>",
                escape(self.seat_name(seat)),
                self.numbering().1.next(seat)
            ));
        }
        if let Some(deadline) = self.view.deadline {
            html.push_str(&format!(
                "<p class=\"clock\">Time left: {} (until {}).</p>",
                time_left(deadline - self.now),
                utc(deadline)
            ));
        }
        for leave in &self.view.on_leave {
            html.push_str(&format!(
                "<p class=\"on-leave\">{} is on leave until {}: their clock stands still.</p>",
                escape(&leave.player),
                utc(leave.until)
            ));
        }
        for seat in &self.view.draw_offers {
            html.push_str(&format!(
                "<p>{} offers a draw.</p>",
                escape(self.seat_name(*seat))
            ));
        }
        html
    }

    /// The number of each move of the log (rounds: `13.`, `13...`), and the numbering that
    /// goes on after them. The first move was its mover's; before any, the seat to move's.
    fn numbering(&self) -> (Vec<MoveNumber>, MoveNumbering) {
        let first = self
            .log
            .first()
            .map(|record| record.seat)
            .or(self.view.to_move)
            .unwrap_or(Seat(0));
        let seats = self.view.seats.len();
        MoveNumbering::numbered(first, seats, self.log.iter().map(|record| record.seat))
    }

    /// The score by rounds (`1. | e4 | e5`, a column per seat, a round of three in Three
    /// Kingdoms), each move with its date, the last move marked; and the game's archive.
    fn score(&self) -> String {
        if self.log.is_empty() {
            return "<h2>Moves</h2><p>No moves yet.</p>".into();
        }
        let seats = self.view.seats.len();
        let columns: String = (0..seats as u8)
            .map(|seat| format!("<th>{}</th>", escape(self.seat_name(Seat(seat)))))
            .collect();
        let rows: String = self
            .rounds()
            .iter()
            .map(|(round, cells)| {
                let cells: String = cells.iter().map(|cell| self.cell(*cell)).collect();
                format!("<tr><th class=\"round\">{round}.</th>{cells}</tr>")
            })
            .collect();
        format!(
            "<h2>Moves</h2><div class=\"moves\"><table class=\"score\"><thead><tr><th></th>\
             {columns}</tr></thead><tbody>{rows}</tbody></table></div><p><a class=\"button\" \
             id=\"archive\" href=\"{}\">Download the game (PGN)</a></p>",
            escape(&self.archive)
        )
    }

    /// The log's moves by rounds: each round's number and, by seat, the index of the move
    /// that seat made in it.
    fn rounds(&self) -> Vec<(u32, Vec<Option<usize>>)> {
        let (numbers, _) = self.numbering();
        let mut rounds: Vec<(u32, Vec<Option<usize>>)> = Vec::new();
        for (index, number) in numbers.iter().enumerate() {
            if rounds.last().map(|(round, _)| *round) != Some(number.round) {
                rounds.push((number.round, vec![None; self.view.seats.len()]));
            }
            if let Some((_, cells)) = rounds.last_mut()
                && let Some(cell) = cells.get_mut(number.seat.index())
            {
                *cell = Some(index);
            }
        }
        rounds
    }

    /// The cell of the move at `index` of the log (empty for none): the move, whether a
    /// draw was offered with it, and when it was played (UTC).
    fn cell(&self, index: Option<usize>) -> String {
        let Some(record) = index.and_then(|index| self.log.get(index)) else {
            return "<td></td>".into();
        };
        let class = match index == Some(self.log.len() - 1) {
            true => " class=\"last\"",
            false => "",
        };
        format!(
            "<td{class}>{}{}<span class=\"at\">{}</span></td>",
            escape(&record.short),
            if record.draw_offer { " (draw?)" } else { "" },
            record.at.format("%Y-%m-%d %H:%M")
        )
    }
}

/// The variant's one-line description.
fn description(variant: &str) -> String {
    missive_rules::registry::variant(variant)
        .map(|v| v.description().to_string())
        .unwrap_or_default()
}

/// `1 day`, `3 days`.
pub fn days(count: impl Into<i64>) -> String {
    match count.into() {
        1 => "1 day".into(),
        count => format!("{count} days"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_counted_in_words() {
        assert_eq!(days(1), "1 day");
        assert_eq!(days(0), "0 days");
        assert_eq!(days(12), "12 days");
    }
}
