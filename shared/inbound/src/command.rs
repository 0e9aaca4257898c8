//! What a reply asks for, read from the first line of its own text: a move (`Nf3`, in
//! either notation the game reads, a move number before it allowed: `12... Nf6`), a move
//! with a draw offer (`Nf3 draw`), `resign`, or `draw` alone to accept the draw offered.

/// What a reply asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play this move, offering a draw with it or not.
    Move {
        /// The move as written.
        text: String,
        /// Whether a draw is offered with it.
        offer_draw: bool,
    },
    /// Resign the game.
    Resign,
    /// Accept the draw the other players offer.
    AcceptDraw,
}

impl Command {
    /// What `line` asks for; none if it is not one of the forms above.
    pub fn read(line: &str) -> Option<Command> {
        let words: Vec<String> = line
            .split_whitespace()
            .map(|word| word.trim_end_matches(['.', ',', '!', '?', ';']))
            .filter(|word| !word.is_empty() && !is_move_number(word))
            .map(without_move_number)
            .collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
        match lower.as_slice() {
            ["resign"] => Some(Command::Resign),
            ["draw"] => Some(Command::AcceptDraw),
            [_] => Some(Command::Move {
                text: words[0].clone(),
                offer_draw: false,
            }),
            [_, "draw"] => Some(Command::Move {
                text: words[0].clone(),
                offer_draw: true,
            }),
            _ => None,
        }
    }
}

/// Whether `word` is a move number alone (`12`, once its dots were trimmed).
fn is_move_number(word: &str) -> bool {
    word.bytes().all(|b| b.is_ascii_digit())
}

/// `word` without a move number stuck to it (`12.Nf3`, `12...Nf6`).
fn without_move_number(word: &str) -> String {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    match rest.strip_prefix('.') {
        Some(after) if rest.len() < word.len() => after.trim_start_matches('.').to_string(),
        _ => word.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str, offer_draw: bool) -> Option<Command> {
        Some(Command::Move {
            text: text.into(),
            offer_draw,
        })
    }

    #[test]
    fn the_forms_of_a_reply() {
        assert_eq!(Command::read("Nf3"), mv("Nf3", false));
        assert_eq!(Command::read("  Nf3 draw "), mv("Nf3", true));
        assert_eq!(Command::read("e4 DRAW."), mv("e4", true));
        assert_eq!(Command::read("Resign."), Some(Command::Resign));
        assert_eq!(Command::read("draw"), Some(Command::AcceptDraw));
        assert_eq!(Command::read("h3e3"), mv("h3e3", false));
        assert_eq!(Command::read("Qxf7+!"), mv("Qxf7+", false));
    }

    #[test]
    fn move_numbers_are_left_out() {
        assert_eq!(Command::read("12. Nf3"), mv("Nf3", false));
        assert_eq!(Command::read("12... Nf6 draw"), mv("Nf6", true));
        assert_eq!(Command::read("3.e4"), mv("e4", false));
        assert_eq!(Command::read("3...e5"), mv("e5", false));
    }

    #[test]
    fn anything_else_is_unreadable() {
        for line in [
            "",
            "Thanks, I play Nf3",
            "Nf3 Nc6",
            "draw Nf3",
            "resign now",
        ] {
            assert_eq!(Command::read(line), None, "{line}");
        }
    }
}
