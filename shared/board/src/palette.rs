//! The colours and line widths of every element a diagram names.

use missive_rules::{Ink, Shade, Stroke};

/// The fill of the last move's squares and points, and its opacity.
pub const HIGHLIGHT: &str = "#f5c518";
pub const HIGHLIGHT_OPACITY: &str = "0.55";
/// The fill of a spot's touch target (drawn fully transparent: a page may colour it).
pub const TARGET: &str = "#1f5fbf";
/// The colour of labels.
pub const LABEL: &str = "#4a3b2a";
/// The face of a disc piece.
pub const DISC_FACE: &str = "#fbf1dc";

/// The colours a seat's pieces are drawn in.
pub struct InkColours {
    /// A figure's body.
    pub fill: &'static str,
    /// The outline that keeps a figure visible on any square.
    pub outline: &'static str,
    /// A disc's rim and character.
    pub mark: &'static str,
}

/// The colours of `ink` (a neutral grey when the diagram names no ink for a seat).
pub fn ink_colours(ink: Option<Ink>) -> InkColours {
    let (fill, outline, mark) = match ink {
        Some(Ink::White) => ("#ffffff", "#1a1a1a", "#5f5f5f"),
        Some(Ink::Black) => ("#1a1a1a", "#f4f4f4", "#1a1a1a"),
        Some(Ink::Red) => ("#c62828", "#ffffff", "#c62828"),
        Some(Ink::Green) => ("#2e7d32", "#ffffff", "#2e7d32"),
        Some(Ink::Blue) => ("#1565c0", "#ffffff", "#1565c0"),
        None => ("#808080", "#ffffff", "#808080"),
    };
    InkColours {
        fill,
        outline,
        mark,
    }
}

/// The fill of a cell.
pub fn shade_colour(shade: Shade) -> &'static str {
    match shade {
        Shade::Light => "#f0d9b5",
        Shade::Dark => "#b58863",
        Shade::Board => "#f1d9a6",
        Shade::Water => "#b9dcef",
    }
}

/// The colour and width (in diagram units) of a line.
pub fn stroke_style(stroke: Stroke) -> (&'static str, f64) {
    match stroke {
        Stroke::Grid => ("#5b4128", 0.035),
        Stroke::Border => ("#5b4128", 0.08),
        Stroke::Link => ("#2f6690", 0.04),
    }
}
