//! Board pictures: any [`Diagram`] of the rules crate as a standalone SVG document
//! ([`render`]), or that document rendered as a PNG image ([`render_png`]) for mail
//! clients that show no SVG.
//!
//! The renderer knows no variant. It draws the diagram's cells, lines, labels and pieces
//! as they are described, turned so that the chosen seat sits at the bottom (text stays
//! upright), with the last move's spots highlighted. The document scales to any width
//! (`viewBox`), carries a `<title>` and a `<desc>` listing every piece for screen
//! readers, writes pieces' glyphs (or letters) and labels as outlines from the fonts
//! compiled into the crate (no `<text>`, so no font of the viewer's is needed), gives
//! every spot a transparent shape (`class="spot"`, `data-spot` its name) under the pieces
//! for pages that let a player touch the board, and uses presentation attributes only, so
//! it can be inlined in an HTML page or a mail without its styles leaking.

mod outline;
mod palette;
pub mod pictures;
mod raster;
mod svg;

use missive_rules::{Diagram, DiagramPiece, LabelKind, PieceStyle, Seat, Spot, Xy};

use palette::{
    HIGHLIGHT, HIGHLIGHT_OPACITY, LABEL, TARGET, ink_colours, shade_colour, stroke_style,
};
use svg::{Bounds, Svg};

pub use outline::{CJK_FONT, LATIN_FONT};
pub use raster::{MAX_SIDE, Png, PngError, PngSize, render_png, render_png_async};
pub use svg::{escape, glyph_id};

/// Pixels per diagram unit in the document's own coordinates (its default size).
const SCALE: f64 = 40.0;
/// Blank space round the drawing, in diagram units.
const MARGIN: f64 = 0.3;
/// A disc's radius and a figure's size, in diagram units.
const DISC_RADIUS: f64 = 0.44;
const FIGURE_SIZE: f64 = 0.9;
/// The radius of the mark round a point of the last move, in diagram units.
const HIGHLIGHT_RADIUS: f64 = 0.5;
/// Font sizes, in diagram units.
const DISC_GLYPH_SIZE: f64 = 0.56;
const COORDINATE_SIZE: f64 = 0.36;
const REGION_SIZE: f64 = 0.45;
/// The width of a label's character for a font size of one, a generous average over the
/// embedded fonts, so that the drawing's box holds every label.
const TEXT_WIDTH: f64 = 0.6;

/// What pieces are written with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Glyphs {
    /// The variant's glyphs: figurines, characters.
    #[default]
    Symbols,
    /// The pieces' letters (`N`, `H`), for fonts without the glyphs.
    Letters,
}

/// How to render a diagram.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The seat to view the board from (at the bottom); the first seat when `None`.
    pub seat: Option<Seat>,
    /// Glyphs or letters.
    pub glyphs: Glyphs,
    /// The document's title; a sentence naming the variant, the seat to move and the last
    /// move when `None`.
    pub title: Option<String>,
}

/// The diagram as a standalone SVG document (UTF-8 text, no XML declaration).
pub fn render(diagram: &Diagram, options: &Options) -> String {
    let viewer = options.seat.unwrap_or(Seat(0));
    let view = diagram.seats.get(viewer.index()).map_or(0.0, |s| s.view);
    let place = |xy: Xy| {
        let turned = xy.turned(view);
        Xy::new(turned.x * SCALE, turned.y * SCALE)
    };
    let labels: Vec<_> = diagram
        .labels
        .iter()
        .filter(|l| l.view.is_none_or(|seat| seat == viewer))
        .collect();
    let mut bounds = Bounds::default();
    for corner in diagram.cells.iter().flat_map(|c| &c.corners) {
        bounds.include(place(*corner), 0.0);
    }
    for line in &diagram.lines {
        bounds.include(place(line.from), 0.0);
        bounds.include(place(line.to), 0.0);
    }
    for spot in &diagram.spots {
        bounds.include(place(spot.at), 0.5 * SCALE);
    }
    for label in &labels {
        let reach = label_size(label.kind) * TEXT_WIDTH * label.text.chars().count() as f64 / 2.0;
        for side in [-reach, reach] {
            bounds.include(place(label.at).shifted(side * SCALE, 0.0), 0.4 * SCALE);
        }
    }
    let mut svg = Svg::open(bounds.grown(MARGIN * SCALE));
    let title = options.title.clone().unwrap_or_else(|| title(diagram));
    svg.raw(&format!(
        "<title id=\"board-title\">{}</title>",
        escape(&title)
    ));
    svg.raw(&format!("<desc>{}</desc>", escape(&description(diagram))));
    for cell in &diagram.cells {
        let corners: Vec<Xy> = cell.corners.iter().map(|c| place(*c)).collect();
        svg.polygon(&corners, shade_colour(cell.shade), "");
    }
    for line in &diagram.lines {
        let (colour, width) = stroke_style(line.stroke);
        svg.line(place(line.from), place(line.to), colour, width * SCALE);
    }
    let last_move: Vec<&Spot> = diagram
        .last_move
        .iter()
        .filter_map(|name| diagram.spot(name))
        .collect();
    for spot in &last_move {
        highlight(&mut svg, diagram, spot, &place);
    }
    for label in labels {
        let size = label_size(label.kind);
        svg.text(place(label.at), &label.text, size * SCALE, LABEL, None);
    }
    for spot in &diagram.spots {
        let attributes = format!(
            " fill-opacity=\"0\" class=\"spot\" data-spot=\"{}\"",
            escape(&spot.name)
        );
        shape(&mut svg, diagram, spot, &place, TARGET, &attributes);
    }
    for piece in &diagram.pieces {
        if let Some(spot) = diagram.spot(&piece.spot) {
            draw_piece(&mut svg, diagram, piece, place(spot.at), options.glyphs);
        }
    }
    for spot in last_move.iter().filter(|s| s.cell.is_none()) {
        let rim = Some((HIGHLIGHT, 0.08 * SCALE));
        svg.circle(place(spot.at), HIGHLIGHT_RADIUS * SCALE, "none", rim, "");
    }
    svg.close()
}

/// The font size of a label of `kind`, in diagram units.
fn label_size(kind: LabelKind) -> f64 {
    match kind {
        LabelKind::Coordinate => COORDINATE_SIZE,
        LabelKind::Region => REGION_SIZE,
    }
}

/// Marks a spot of the last move under the pieces: the square's cell, or a disc round the
/// point (which gets a ring over the pieces as well, since a piece would hide the disc).
fn highlight(svg: &mut Svg, diagram: &Diagram, spot: &Spot, place: &impl Fn(Xy) -> Xy) {
    let attributes = format!(
        " fill-opacity=\"{HIGHLIGHT_OPACITY}\" class=\"last-move\" data-spot=\"{}\"",
        escape(&spot.name)
    );
    shape(svg, diagram, spot, place, HIGHLIGHT, &attributes);
}

/// The shape of a spot filled with `fill`, with `attributes` (each with a leading space):
/// the square's cell, or a disc round the point.
fn shape(
    svg: &mut Svg,
    diagram: &Diagram,
    spot: &Spot,
    place: &impl Fn(Xy) -> Xy,
    fill: &str,
    attributes: &str,
) {
    match spot.cell.and_then(|i| diagram.cells.get(i)) {
        Some(cell) => {
            let corners: Vec<Xy> = cell.corners.iter().map(|c| place(*c)).collect();
            svg.polygon(&corners, fill, attributes);
        }
        None => svg.circle(
            place(spot.at),
            HIGHLIGHT_RADIUS * SCALE,
            fill,
            None,
            attributes,
        ),
    }
}

fn draw_piece(svg: &mut Svg, diagram: &Diagram, piece: &DiagramPiece, at: Xy, glyphs: Glyphs) {
    let ink = |seat: Seat| ink_colours(diagram.seats.get(seat.index()).map(|s| s.ink));
    let colours = ink(piece.seat);
    let text = match glyphs {
        Glyphs::Symbols => piece.glyph.clone(),
        Glyphs::Letters => piece.letter.to_string(),
    };
    svg.raw(&format!(
        "<g class=\"piece\" data-spot=\"{}\"><title>{}</title>",
        escape(&piece.spot),
        escape(&piece_words(diagram, piece))
    ));
    match diagram.style {
        PieceStyle::Figure => {
            let outline = Some((colours.outline, 0.05 * SCALE));
            svg.text(at, &text, FIGURE_SIZE * SCALE, colours.fill, outline);
        }
        PieceStyle::Disc => {
            let rim = Some((colours.mark, 0.06 * SCALE));
            svg.circle(at, DISC_RADIUS * SCALE, palette::DISC_FACE, rim, "");
            if piece.origin != piece.seat {
                let ring = Some((ink(piece.origin).mark, 0.05 * SCALE));
                svg.circle(at, (DISC_RADIUS - 0.08) * SCALE, "none", ring, "");
            }
            svg.text(at, &text, DISC_GLYPH_SIZE * SCALE, colours.mark, None);
        }
    }
    svg.raw("</g>");
}

fn seat_name(diagram: &Diagram, seat: Seat) -> &str {
    diagram.seats.get(seat.index()).map_or("?", |s| s.name)
}

/// `white knight on g1`, `wu soldier (wei's army) on shu:e5`.
fn piece_words(diagram: &Diagram, piece: &DiagramPiece) -> String {
    let army = if piece.origin == piece.seat {
        String::new()
    } else {
        format!(" ({}'s army)", seat_name(diagram, piece.origin))
    };
    format!(
        "{} {}{army} on {}",
        seat_name(diagram, piece.seat),
        piece.name,
        piece.spot
    )
}

/// `chess board, black to move, last move e1 to g1, h1 to f1`: the last move's spots
/// taken two by two, from and to.
fn title(diagram: &Diagram) -> String {
    let mut title = format!("{} board", diagram.variant);
    match diagram.to_move {
        Some(seat) => title.push_str(&format!(", {} to move", seat_name(diagram, seat))),
        None => title.push_str(", game over"),
    }
    if !diagram.last_move.is_empty() {
        let steps: Vec<String> = diagram
            .last_move
            .chunks(2)
            .map(|pair| pair.join(" to "))
            .collect();
        title.push_str(&format!(", last move {}", steps.join(", ")));
    }
    title
}

/// Every piece by seat: `white: king on e1, ...; black: ...`.
fn description(diagram: &Diagram) -> String {
    let seats = (0..diagram.seats.len()).map(|i| Seat(i as u8));
    let parts: Vec<String> = seats
        .filter_map(|seat| {
            let pieces: Vec<String> = diagram
                .pieces
                .iter()
                .filter(|p| p.seat == seat)
                .map(|p| format!("{} on {}", p.name, p.spot))
                .collect();
            (!pieces.is_empty())
                .then(|| format!("{}: {}", seat_name(diagram, seat), pieces.join(", ")))
        })
        .collect();
    parts.join("; ")
}
