//! The board as a PNG image: the SVG document rendered by resvg, on an opaque white
//! ground, with fonts compiled into the binary (no system font is looked up, so the image
//! is the same on a server without fonts as on a desktop).
//!
//! The fonts are subsets made for the diagrams (`fonts/README.md` says how): DejaVu Sans
//! for Latin letters, digits and the chess figurines, Noto Sans CJK TC for the xiangqi and
//! Three Kingdoms characters. A character missing from both is drawn as the font's
//! missing-glyph box; the crate's tests check that every character a diagram uses is
//! covered.

use std::sync::{Arc, LazyLock};

use color_quant::NeuQuant;
use missive_gate::Busy;
use missive_rules::Diagram;
use resvg::tiny_skia::{Color, Pixmap, Transform};
use resvg::usvg::{self, fontdb};
use skrifa::charmap::Charmap;
use thiserror::Error;

use crate::pictures::{bounded, bounded_async};
use crate::{Options, render};

/// DejaVu Sans, subset to printable ASCII and the chess figurines.
pub const LATIN_FONT: &[u8] = include_bytes!("../fonts/DejaVuSans-board.ttf");
/// Noto Sans CJK TC, subset to the characters the diagrams write.
pub const CJK_FONT: &[u8] = include_bytes!("../fonts/NotoSansCJKtc-board.otf");
/// The family used for text that names no font the database holds.
const DEFAULT_FAMILY: &str = "DejaVu Sans";
/// The largest width or height of an image, in pixels.
pub const MAX_SIDE: u32 = 4096;
/// The colours of an image's palette (at most 256; NeuQuant wants at least 64).
const PALETTE_SIZE: usize = 64;
/// NeuQuant learns from one pixel in this many (1 to 30: slower and finer to faster). A
/// board is a few flat colours, so the fastest learns the same palette to the eye: a
/// chess board at twice its size drew in 15 ms instead of 32 (with the balanced deflate
/// below), 1% larger.
const SAMPLING: i32 = 30;

/// The embedded fonts, loaded once.
static FONTS: LazyLock<Arc<fontdb::Database>> = LazyLock::new(|| {
    let mut fonts = fontdb::Database::new();
    for data in [LATIN_FONT, CJK_FONT] {
        fonts.load_font_source(fontdb::Source::Binary(Arc::new(data)));
    }
    Arc::new(fonts)
});

/// A board picture encoded as PNG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Png {
    /// The PNG file's bytes.
    pub data: Vec<u8>,
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
}

/// Why a board could not be rendered as PNG.
#[derive(Debug, Error)]
pub enum PngError {
    /// The SVG document could not be read (a fault of this crate's SVG writer).
    #[error("the board's SVG could not be read: {0}")]
    Svg(String),
    /// The size asked for gives an empty image, or one larger than [`MAX_SIDE`] on a side.
    #[error("no image of {width}x{height} pixels at scale {scale}")]
    Size {
        /// The width asked for, in pixels.
        width: f32,
        /// The height asked for, in pixels.
        height: f32,
        /// The scale it was drawn at.
        scale: f32,
    },
    /// The PNG encoder failed.
    #[error("the PNG could not be encoded: {0}")]
    Encode(String),
    /// As many pictures as may be were being drawn and waiting (see [`crate::pictures`]):
    /// nothing was drawn; the same picture may be drawn in a moment.
    #[error(transparent)]
    Busy(#[from] Busy),
}

/// How large to draw a PNG.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PngSize {
    /// Image pixels for each pixel of the SVG document's own size (2 for sharp pictures on
    /// high-density screens).
    pub scale: f32,
    /// The most pixels (width times height) the image may have: the scale is lowered to
    /// stay within them, so that a large board (Three Kingdoms, Tri-D) keeps its file small.
    pub max_pixels: u32,
}

/// The diagram drawn as [`render`] draws it, at `size`, as an opaque PNG with a palette;
/// within the bounds of [`crate::pictures`], so [`PngError::Busy`] when too many pictures
/// are being drawn (the caller may try again in [`missive_gate::RETRY_AFTER`] seconds).
/// It takes a tenth of a second or more, or waits for a place: call it off async threads.
pub fn render_png(diagram: &Diagram, options: &Options, size: PngSize) -> Result<Png, PngError> {
    bounded(render(diagram, options), size, drawn)
}

/// [`render_png`] for async callers: the document is made on the caller's thread, and the
/// wait for a place to draw it holds no thread.
pub async fn render_png_async(
    diagram: &Diagram,
    options: &Options,
    size: PngSize,
) -> Result<Png, PngError> {
    bounded_async(render(diagram, options), size, drawn).await
}

/// The SVG document `svg` drawn at `size`.
fn drawn(svg: &str, size: PngSize) -> Result<Png, PngError> {
    let settings = usvg::Options {
        font_family: DEFAULT_FAMILY.to_string(),
        fontdb: Arc::clone(&FONTS),
        font_resolver: usvg::FontResolver {
            select_fallback: Box::new(fallback),
            ..usvg::FontResolver::default()
        },
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &settings).map_err(|e| PngError::Svg(e.to_string()))?;
    let (mut pixmap, scale) = canvas(tree.size(), size)?;
    pixmap.fill(Color::WHITE);
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap)
}

/// The font for a character `c` that none of the fonts `used` holds: the first other
/// embedded font that holds it. usvg's own choice is the same but logs a warning each time,
/// and every xiangqi label falls back from DejaVu Sans to Noto Sans CJK, so the log would
/// repeat it for every picture; which font a character is drawn in is known here.
fn fallback(c: char, used: &[fontdb::ID], fonts: &mut Arc<fontdb::Database>) -> Option<fontdb::ID> {
    fonts
        .faces()
        .map(|face| face.id)
        .find(|&id| !used.contains(&id) && holds(fonts, id, c))
}

/// Whether the font `id` of `fonts` has a glyph for `c`.
fn holds(fonts: &fontdb::Database, id: fontdb::ID, c: char) -> bool {
    fonts
        .with_face_data(id, |data, index| {
            skrifa::FontRef::from_index(data, index)
                .is_ok_and(|font| Charmap::new(&font).map(c).is_some())
        })
        .unwrap_or(false)
}

/// An empty pixmap for a document of `natural` size drawn at `size`, and the scale to draw
/// at: `size.scale`, lowered to stay within `size.max_pixels`.
fn canvas(natural: usvg::Size, size: PngSize) -> Result<(Pixmap, f32), PngError> {
    let fitting = (size.max_pixels as f32 / (natural.width() * natural.height())).sqrt();
    let scale = if size.scale > 0.0 {
        size.scale.min(fitting)
    } else {
        0.0
    };
    let (width, height) = (
        (natural.width() * scale).floor(),
        (natural.height() * scale).floor(),
    );
    let usable = |side: f32| (1.0..=MAX_SIDE as f32).contains(&side);
    (usable(width) && usable(height))
        .then(|| Pixmap::new(width as u32, height as u32))
        .flatten()
        .map(|pixmap| (pixmap, scale))
        .ok_or(PngError::Size {
            width,
            height,
            scale,
        })
}

/// The opaque pixmap as a PNG of [`PALETTE_SIZE`] colours: a board is a few flat colours
/// and their anti-aliased blends, which a palette chosen for the picture (NeuQuant) keeps
/// while the file shrinks to about half of the full-colour one.
fn encode(pixmap: &Pixmap) -> Result<Png, PngError> {
    let (width, height) = (pixmap.width(), pixmap.height());
    // Every pixel is opaque, so the premultiplied colours are the colours.
    let quantiser = NeuQuant::new(SAMPLING, PALETTE_SIZE, pixmap.data());
    // Most pixels repeat the one before (flat squares, the background): the palette is
    // searched again only when the colour changes.
    let mut last: Option<(&[u8], u8)> = None;
    let indices: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .map(|pixel| match last {
            Some((colour, index)) if colour == pixel => index,
            _ => {
                let index = quantiser.index_of(pixel) as u8;
                last = Some((pixel, index));
                index
            }
        })
        .collect();
    let mut data = Vec::new();
    let mut encoder = png::Encoder::new(&mut data, width, height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(quantiser.color_map_rgb());
    // `High` took a third longer for files under 1% smaller.
    encoder.set_compression(png::Compression::Balanced);
    let failed = |e: png::EncodingError| PngError::Encode(e.to_string());
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(&indices).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(Png {
        data,
        width,
        height,
    })
}
