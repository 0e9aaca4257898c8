//! The standings as plain text, for an archive's comment or a message: the table of
//! ranks and tiebreaks, then the two-seat grid or the three-seat tables.

use super::{Entry, Mark, Row, Standings};
use crate::score::SeatCount;

/// The legend printed under a two-seat grid.
const LEGEND: &str = "1 win, = draw, 0 loss, + won by forfeit, - lost by forfeit, * unfinished; annulled games are left out";

impl Standings {
    /// The standings as plain ASCII text (names aside), one line each, ending in a newline.
    ///
    /// A table with rank, player (`names[i]` for player `i`, or `Player i+1` when `names`
    /// is short; withdrawn players marked), points, Sonneborn-Berger, wins, games played
    /// and games left. Two seats: then the grid, one column per player in the standings'
    /// order, numbered by line, each cell the [`Mark::symbol`]s of the games between the
    /// line's player and the column's, `X` on the diagonal, and a legend. Three seats:
    /// then every player's tables, each with its number (counted from 1), the player's
    /// seat, the opponents and the score.
    pub fn render_text(&self, names: &[String]) -> String {
        let name = |player: usize| {
            names
                .get(player)
                .cloned()
                .unwrap_or_else(|| format!("Player {}", player + 1))
        };
        let mut lines = self.table(&name);
        match self.seats {
            SeatCount::Two => lines.push(LEGEND.to_string()),
            SeatCount::Three => lines.extend(self.tables(&name)),
        }
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }

    /// The table's lines: a header and one line per row, with the grid for two seats.
    fn table(&self, name: &dyn Fn(usize) -> String) -> Vec<String> {
        let mut header: Vec<String> = ["Rank", "Player", "Points", "SB", "Wins", "Played", "Left"]
            .map(String::from)
            .to_vec();
        let two_seats = self.seats == SeatCount::Two;
        if two_seats {
            header.extend((1..=self.rows.len()).map(|column| column.to_string()));
        }
        let lines = self.rows.iter().enumerate().map(|(line, row)| {
            let mut cells = vec![
                row.rank.to_string(),
                player_label(row, name),
                row.points.to_string(),
                row.sonneborn_berger.to_string(),
                row.wins.to_string(),
                row.played.to_string(),
                row.left.to_string(),
            ];
            if two_seats {
                cells.extend(self.grid_line(line, row.player));
            }
            cells
        });
        let grid: Vec<Vec<String>> = std::iter::once(header).chain(lines).collect();
        align(&grid)
    }

    /// The grid cells of `player`, whose line is `line`: one per line of the standings.
    fn grid_line(&self, line: usize, player: usize) -> Vec<String> {
        self.rows
            .iter()
            .enumerate()
            .map(|(column, other)| {
                if column == line {
                    "X".to_string()
                } else {
                    self.cell(player, other.player)
                        .into_iter()
                        .map(Mark::symbol)
                        .collect()
                }
            })
            .collect()
    }

    /// The three-seat tables: for each player in the standings' order, a line with the
    /// name and one line per table.
    fn tables(&self, name: &dyn Fn(usize) -> String) -> Vec<String> {
        let mut lines = Vec::new();
        for row in &self.rows {
            lines.push(String::new());
            lines.push(format!("{}:", player_label(row, name)));
            let entries = self.entries.get(row.player).into_iter().flatten();
            lines.extend(entries.map(|entry| format!("  {}", table_line(entry, name))));
        }
        lines
    }
}

/// The player's name in the table, with `(withdrawn)` after it when they withdrew.
fn player_label(row: &Row, name: &dyn Fn(usize) -> String) -> String {
    if row.withdrawn {
        format!("{} (withdrawn)", name(row.player))
    } else {
        name(row.player)
    }
}

/// One three-seat table in a player's list: `game 3, seat 1, with Bob and Dan: 0.5`.
fn table_line(entry: &Entry, name: &dyn Fn(usize) -> String) -> String {
    let opponents: Vec<String> = entry.opponents.iter().map(|&p| name(p)).collect();
    let score = match (entry.mark, entry.score) {
        (Mark::Played(_), Some(points)) => points.to_string(),
        (Mark::Forfeit(_), Some(points)) => format!("{points} (forfeit)"),
        (Mark::Annulled, _) => "annulled".to_string(),
        (Mark::Unfinished, _) | (Mark::Played(_) | Mark::Forfeit(_), None) => {
            "unfinished".to_string()
        }
    };
    format!(
        "game {}, seat {}, with {}: {score}",
        entry.game + 1,
        entry.seat.0,
        opponents.join(" and ")
    )
}

/// The cells laid out in columns two spaces apart: the second column (the player)
/// aligned left, the others right; trailing spaces trimmed.
fn align(grid: &[Vec<String>]) -> Vec<String> {
    let columns = grid.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            grid.iter()
                .filter_map(|cells| cells.get(c))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    grid.iter()
        .map(|cells| {
            let padded: Vec<String> = cells
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(c, (cell, &width))| {
                    if c == 1 {
                        format!("{cell:<width$}")
                    } else {
                        format!("{cell:>width$}")
                    }
                })
                .collect();
            padded.join("  ").trim_end().to_string()
        })
        .collect()
}
