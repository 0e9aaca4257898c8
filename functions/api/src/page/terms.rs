//! The terms of a game a form sets, as the new-game and challenge forms share them: the
//! variant (from the rules registry), the time control (days per move, or ICCF's moves in
//! days) and whether it is rated; their fields, and what they read as.

use missive_domain::TimeControl;
use missive_rules::registry;
use serde::Deserialize;

use super::html::escape;
use crate::ApiError;

/// What the terms' fields send.
#[derive(Clone, Debug, Default, Deserialize)]
pub(crate) struct TermsForm {
    /// The variant id.
    #[serde(default)]
    pub variant: String,
    /// `days-per-move` or `iccf`.
    #[serde(default)]
    pub clock: String,
    /// Days per move, or days per period (ICCF).
    #[serde(default)]
    pub days: String,
    /// Moves per period (ICCF).
    #[serde(default)]
    pub moves: String,
    /// `yes` for a rated game.
    #[serde(default)]
    pub rated: String,
}

impl TermsForm {
    /// The time control the fields give; 400 when a number is missing or not one (the
    /// service judges the values, as for the API).
    pub fn time_control(&self) -> Result<TimeControl, ApiError> {
        let days = number(&self.days, "days")?;
        match self.clock.as_str() {
            "iccf" => Ok(TimeControl::Iccf {
                moves: number(&self.moves, "moves")?,
                days,
            }),
            _ => Ok(TimeControl::DaysPerMove { days }),
        }
    }

    /// Whether the game is rated.
    pub fn rated(&self) -> bool {
        self.rated == "yes"
    }

    /// The fields, showing these values (the defaults where empty): a variant select, the
    /// time control and the rated box.
    pub fn fields(&self) -> String {
        let options: String = registry::variants()
            .iter()
            .map(|v| {
                let chosen = if v.id() == self.variant {
                    " selected"
                } else {
                    ""
                };
                format!(
                    "<option value=\"{id}\"{chosen}>{id} · {}</option>",
                    escape(v.description()),
                    id = escape(v.id())
                )
            })
            .collect();
        let iccf = self.clock == "iccf";
        let days = if self.days.is_empty() {
            "3"
        } else {
            &self.days
        };
        let moves = if self.moves.is_empty() {
            "10"
        } else {
            &self.moves
        };
        format!(
            "<label for=\"variant\">Variant</label><select id=\"variant\" name=\"variant\">\
             {options}</select><label for=\"clock\">Time control</label><select id=\"clock\" \
             name=\"clock\"><option value=\"days-per-move\"{per_move}>Days for every move\
             </option><option value=\"iccf\"{iccf_chosen}>ICCF: days for a number of moves\
             </option></select><label for=\"days\">Days</label><input type=\"number\" \
             id=\"days\" name=\"days\" min=\"1\" value=\"{days}\" required><label \
             for=\"moves\">Moves per period (ICCF only)</label><input type=\"number\" \
             id=\"moves\" name=\"moves\" min=\"1\" value=\"{moves}\"><label class=\"check\">\
             <input type=\"checkbox\" name=\"rated\" value=\"yes\"{rated}> Rated</label>",
            per_move = if iccf { "" } else { " selected" },
            iccf_chosen = if iccf { " selected" } else { "" },
            days = escape(days),
            moves = escape(moves),
            rated = if self.rated() { " checked" } else { "" },
        )
    }
}

/// The whole number `text` names, for the field `name`; 400 if it is none.
fn number(text: &str, name: &str) -> Result<u16, ApiError> {
    text.trim()
        .parse()
        .map_err(|_| ApiError::bad_request(format!("give the {name} as a whole number")))
}
