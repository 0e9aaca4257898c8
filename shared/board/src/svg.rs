//! A small SVG writer: the elements the renderer needs, numbers written short, text
//! written as outlines (each character's path once, in `<defs>`, used wherever it is
//! written), markup escaped.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use missive_rules::Xy;

use crate::outline::glyph;

/// The smallest box holding every point included so far.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    min: Xy,
    max: Xy,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            min: Xy::new(f64::INFINITY, f64::INFINITY),
            max: Xy::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        }
    }
}

impl Bounds {
    /// Grows the box to hold a circle of `radius` round `at`.
    pub fn include(&mut self, at: Xy, radius: f64) {
        self.min = Xy::new(self.min.x.min(at.x - radius), self.min.y.min(at.y - radius));
        self.max = Xy::new(self.max.x.max(at.x + radius), self.max.y.max(at.y + radius));
    }

    /// The box grown by `margin` on every side (a unit box at the origin when empty).
    pub fn grown(self, margin: f64) -> Bounds {
        if self.min.x > self.max.x {
            return Bounds {
                min: Xy::new(0.0, 0.0),
                max: Xy::new(1.0, 1.0),
            };
        }
        Bounds {
            min: self.min.shifted(-margin, -margin),
            max: self.max.shifted(margin, margin),
        }
    }
}

/// An SVG document being written.
pub struct Svg {
    text: String,
    /// The characters written so far, whose outlines the document defines.
    written: BTreeSet<char>,
}

impl Svg {
    /// Opens the document over `bounds`, its default size one pixel per unit.
    pub fn open(bounds: Bounds) -> Svg {
        let (width, height) = (bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y);
        let text = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{} {} {} {}\" width=\"{}\" \
             height=\"{}\" role=\"img\" aria-labelledby=\"board-title\">",
            num(bounds.min.x),
            num(bounds.min.y),
            num(width),
            num(height),
            num(width.ceil()),
            num(height.ceil()),
        );
        Svg {
            text,
            written: BTreeSet::new(),
        }
    }

    /// Appends markup as it is.
    pub fn raw(&mut self, markup: &str) {
        self.text.push_str(markup);
    }

    /// A filled polygon; `extra` holds further attributes, each with a leading space.
    pub fn polygon(&mut self, corners: &[Xy], fill: &str, extra: &str) {
        let points: Vec<String> = corners
            .iter()
            .map(|c| format!("{},{}", num(c.x), num(c.y)))
            .collect();
        let _ = write!(
            self.text,
            "<polygon points=\"{}\" fill=\"{fill}\"{extra}/>",
            points.join(" ")
        );
    }

    /// A line.
    pub fn line(&mut self, from: Xy, to: Xy, colour: &str, width: f64) {
        let _ = write!(
            self.text,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" \
             stroke-width=\"{}\" stroke-linecap=\"round\"/>",
            num(from.x),
            num(from.y),
            num(to.x),
            num(to.y),
            num(width)
        );
    }

    /// A circle, with a rim of (colour, width) if given.
    pub fn circle(
        &mut self,
        at: Xy,
        radius: f64,
        fill: &str,
        rim: Option<(&str, f64)>,
        extra: &str,
    ) {
        let rim = rim.map_or(String::new(), |(colour, width)| {
            format!(" stroke=\"{colour}\" stroke-width=\"{}\"", num(width))
        });
        let _ = write!(
            self.text,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\"{rim}{extra}/>",
            num(at.x),
            num(at.y),
            num(radius)
        );
    }

    /// Text centred on `at`, `size` high, filled with `fill` and outlined with `outline`
    /// (colour, width) if given: a group at `at` using each character's outline.
    pub fn text(
        &mut self,
        at: Xy,
        content: &str,
        size: f64,
        fill: &str,
        outline: Option<(&str, f64)>,
    ) {
        let glyphs: Vec<_> = content.chars().map(|c| (c, glyph(c))).collect();
        let width: f64 = glyphs
            .iter()
            .map(|(_, g)| g.advance * size / g.units_per_em)
            .sum();
        let stroke = outline.map_or(String::new(), |(colour, _)| {
            format!(" stroke=\"{colour}\" paint-order=\"stroke\" stroke-linejoin=\"round\"")
        });
        let _ = write!(
            self.text,
            "<g transform=\"translate({} {})\" fill=\"{fill}\"{stroke}>",
            num(at.x),
            num(at.y)
        );
        let mut x = -width / 2.0;
        for (c, glyph) in glyphs {
            let scale = size / glyph.units_per_em;
            if !glyph.path.is_empty() {
                self.written.insert(c);
                let stroke_width = outline.map_or(String::new(), |(_, width)| {
                    format!(" stroke-width=\"{}\"", num(width / scale))
                });
                let _ = write!(
                    self.text,
                    "<use href=\"#{}\" transform=\"translate({} {}) scale({})\"{stroke_width}/>",
                    glyph_id(c),
                    num(x),
                    num(glyph.baseline * scale),
                    fine(scale)
                );
            }
            x += glyph.advance * scale;
        }
        self.text.push_str("</g>");
    }

    /// Defines the outlines written, closes the document and returns its text.
    pub fn close(mut self) -> String {
        if !self.written.is_empty() {
            self.text.push_str("<defs>");
            for c in &self.written {
                let _ = write!(
                    self.text,
                    "<path id=\"{}\" d=\"{}\"/>",
                    glyph_id(*c),
                    glyph(*c).path
                );
            }
            self.text.push_str("</defs>");
        }
        self.text.push_str("</svg>\n");
        self.text
    }
}

/// The id of the outline of `c` in a document: `glyph-265e`.
pub fn glyph_id(c: char) -> String {
    format!("glyph-{:x}", u32::from(c))
}

/// A small factor (a glyph's scale) to five decimals, without trailing zeros.
fn fine(value: f64) -> String {
    let text = format!("{value:.5}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A number with at most one decimal, without a trailing `.0` or a negative zero.
pub fn num(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    if rounded == 0.0 {
        return "0".to_string();
    }
    let text = format!("{rounded:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

/// `text` with the five XML special characters escaped.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        for (value, text) in [
            (0.0, "0"),
            (-0.01, "0"),
            (12.0, "12"),
            (1.25, "1.3"),
            (-2.71, "-2.7"),
        ] {
            assert_eq!(num(value), text);
        }
    }

    #[test]
    fn special_characters_are_escaped() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
    }
}
