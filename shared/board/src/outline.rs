//! Text as outlines: every character a picture writes becomes a path drawn from the fonts
//! compiled into the crate, so a picture looks the same wherever it is shown, whatever
//! fonts the viewer has (a phone without CJK fonts, a server without any).
//!
//! The fonts are subsets made for the diagrams (`fonts/README.md` says how): DejaVu Sans
//! for Latin letters, digits and the chess figurines, Noto Sans CJK TC for the xiangqi and
//! Three Kingdoms characters. A character is drawn from the first of them that holds it;
//! one that neither holds draws nothing but DejaVu Sans's empty missing glyph (the crate's
//! tests check that every character a diagram uses is covered). Each character's outline is read
//! once and kept for the life of the process.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, LazyLock, Mutex};

use skrifa::instance::{LocationRef, Size};
use skrifa::outline::{DrawSettings, OutlinePen};
use skrifa::{FontRef, GlyphId, MetadataProvider};

/// DejaVu Sans, subset to printable ASCII and the chess figurines.
pub const LATIN_FONT: &[u8] = include_bytes!("../fonts/DejaVuSans-board.ttf");
/// Noto Sans CJK TC, subset to the characters the diagrams write.
pub const CJK_FONT: &[u8] = include_bytes!("../fonts/NotoSansCJKtc-board.otf");

/// A character's glyph in its font's units, its baseline at the origin and `y` growing
/// downward as in SVG.
#[derive(Debug, PartialEq)]
pub struct Glyph {
    /// SVG path data of the outline (empty for a glyph that draws nothing: a space).
    pub path: String,
    /// How far the glyph moves the pen to the right.
    pub advance: f64,
    /// The font's units per em: the glyph's size for a font size of one.
    pub units_per_em: f64,
    /// How far below the middle of the font's em box its baseline lies (half the ascent
    /// plus the descent): the shift that centres text on a point, as SVG's
    /// `dominant-baseline="central"` does.
    pub baseline: f64,
}

/// Every glyph read so far, by character.
static GLYPHS: LazyLock<Mutex<HashMap<char, Arc<Glyph>>>> = LazyLock::new(Mutex::default);

/// The glyph drawn for `c` (read from the fonts the first time, kept after).
pub fn glyph(c: char) -> Arc<Glyph> {
    let mut glyphs = GLYPHS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    Arc::clone(glyphs.entry(c).or_insert_with(|| Arc::new(read(c))))
}

/// `c`'s glyph from the first embedded font that holds it, else the missing glyph.
fn read(c: char) -> Glyph {
    let fonts = [LATIN_FONT, CJK_FONT].map(|data| FontRef::new(data).expect("an embedded font"));
    let (font, id) = fonts
        .iter()
        .find_map(|font| font.charmap().map(c).map(|id| (font, id)))
        .unwrap_or((&fonts[0], GlyphId::NOTDEF));
    let location = LocationRef::default();
    let metrics = font.metrics(Size::unscaled(), location);
    let mut pen = PathPen::default();
    if let Some(outline) = font.outline_glyphs().get(id) {
        // A glyph that cannot be drawn stays empty: the picture shows no mark there.
        let _ = outline.draw(DrawSettings::unhinted(Size::unscaled(), location), &mut pen);
    }
    let advance = font
        .glyph_metrics(Size::unscaled(), location)
        .advance_width(id)
        .unwrap_or_default();
    Glyph {
        path: pen.path,
        advance: f64::from(advance),
        units_per_em: f64::from(metrics.units_per_em),
        baseline: f64::from(metrics.ascent + metrics.descent) / 2.0,
    }
}

/// Writes an outline as SVG path data in whole font units, `y` turned downward.
#[derive(Default)]
struct PathPen {
    path: String,
}

impl PathPen {
    fn command(&mut self, letter: char, points: &[f32]) {
        self.path.push(letter);
        for (index, pair) in points.chunks(2).enumerate() {
            let separator = if index == 0 { "" } else { " " };
            let _ = write!(
                self.path,
                "{separator}{} {}",
                pair[0].round() as i32,
                -(pair[1].round() as i32)
            );
        }
    }
}

impl OutlinePen for PathPen {
    fn move_to(&mut self, x: f32, y: f32) {
        self.command('M', &[x, y]);
    }

    fn line_to(&mut self, x: f32, y: f32) {
        self.command('L', &[x, y]);
    }

    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.command('Q', &[cx0, cy0, x, y]);
    }

    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.command('C', &[cx0, cy0, cx1, cy1, x, y]);
    }

    fn close(&mut self) {
        self.path.push('Z');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_are_drawn_from_the_font_that_holds_them() {
        let knight = glyph('♞');
        assert!(knight.path.starts_with('M') && knight.path.ends_with('Z'));
        assert_eq!(knight.units_per_em, 2048.0);
        let general = glyph('帥');
        assert_eq!(general.units_per_em, 1000.0);
        assert!(general.path.len() > 100);
        assert_eq!(glyph(' ').path, "");
        assert!(glyph(' ').advance > 0.0);
    }

    #[test]
    fn glyphs_are_read_once_and_the_same_every_time() {
        assert!(Arc::ptr_eq(&glyph('楚'), &glyph('楚')));
        assert_eq!(*glyph('e'), read('e'));
    }

    #[test]
    fn a_character_no_font_holds_is_the_latin_font_s_missing_glyph() {
        let missing = glyph('\u{1F600}');
        assert_eq!(missing.units_per_em, 2048.0);
        assert!(missing.advance > 0.0);
    }
}
