//! The board as a PNG image: the SVG document rendered by resvg, on an opaque white
//! ground. The document writes its text as outlines (see [`crate::outline`]), so no font
//! is looked up and the image is the same on a server without fonts as on a desktop.

use color_quant::NeuQuant;
use missive_gate::Busy;
use missive_rules::Diagram;
use resvg::tiny_skia::{Color, Pixmap, Transform};
use resvg::usvg;
use thiserror::Error;

use crate::pictures::{bounded, bounded_async};
use crate::{Options, render};

/// The largest width or height of an image, in pixels.
pub const MAX_SIDE: u32 = 4096;
/// The colours of an image's palette (at most 256; NeuQuant wants at least 64).
const PALETTE_SIZE: usize = 64;
/// NeuQuant learns from one pixel in this many (1 to 30: slower and finer to faster). A
/// board is a few flat colours, so the fastest learns the same palette to the eye: a
/// chess board at twice its size drew in 15 ms instead of 32 (with the balanced deflate
/// below), 1% larger.
const SAMPLING: i32 = 30;

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
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| PngError::Svg(e.to_string()))?;
    let (mut pixmap, scale) = canvas(tree.size(), size)?;
    pixmap.fill(Color::WHITE);
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap)
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
