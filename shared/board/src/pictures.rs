//! The PNG pictures drawn, bounded: at most [`DRAWN_AT_ONCE`] drawn at once (on threads of
//! their own) and
//! [`WAITING_TO_DRAW`] more waiting (beyond that, [`PngError::Busy`] at once), each picture
//! drawn once while it stays among the latest [`CACHE_BYTES`] of pictures. Drawing a Three
//! Kingdoms board at the API's budget holds about 17 MB (the pixmap, its palette indices,
//! the parsed document), so the bound is what a burst of picture requests can cost; and a
//! burst of requests for the same picture waits for its one drawing.
//!
//! A picture is known by what determines it: the SHA-256 of its SVG document (position,
//! seat, glyphs, title) and the size it is drawn at. The API's pictures and the mails'
//! go through the same bounds.

use std::sync::{Arc, LazyLock};

use missive_gate::Gate;
use quick_cache::Weighter;
use quick_cache::sync::Cache;
use sha2::{Digest, Sha256};

use crate::raster::{Png, PngError, PngSize};

/// Pictures drawn at once, each on a thread of its own: the two cores of the machines
/// Missive runs on.
pub const DRAWN_AT_ONCE: usize = 2;
/// Pictures waiting for a place to be drawn.
pub const WAITING_TO_DRAW: usize = 16;
/// The bytes of PNG pictures kept.
pub const CACHE_BYTES: u64 = 16 * 1024 * 1024;
/// How many pictures the cache expects to hold (a sizing hint).
const CACHE_PICTURES: usize = 256;

/// The gate of drawing.
static DRAWING: Gate = Gate::new("draw a board", DRAWN_AT_ONCE, WAITING_TO_DRAW);

/// The pictures kept, by [`Key`].
static PICTURES: LazyLock<Cache<Key, Arc<Png>, PngBytes>> =
    LazyLock::new(|| Cache::with_weighter(CACHE_PICTURES, CACHE_BYTES, PngBytes));

/// What determines a picture: its document's SHA-256, its scale's bits and its pixel
/// budget.
type Key = ([u8; 32], u32, u32);

/// A picture weighs its bytes.
#[derive(Clone)]
struct PngBytes;

impl Weighter<Key, Arc<Png>> for PngBytes {
    fn weight(&self, _: &Key, png: &Arc<Png>) -> u64 {
        png.data.len() as u64
    }
}

/// The picture of `svg` at `size`: kept, or drawn by `draw` on a thread of the gate
/// (while other callers asking the same picture wait for it), then kept.
pub(crate) fn bounded(
    svg: String,
    size: PngSize,
    draw: fn(&str, PngSize) -> Result<Png, PngError>,
) -> Result<Png, PngError> {
    let png = PICTURES.get_or_insert_with(&key_of(&svg, size), || {
        Ok::<_, PngError>(Arc::new(DRAWING.run(move || draw(&svg, size))??))
    })?;
    Ok(Png::clone(&png))
}

/// [`bounded`] for async callers: waiting for the gate, or for another caller's drawing of
/// the same picture, holds no thread.
pub(crate) async fn bounded_async(
    svg: String,
    size: PngSize,
    draw: fn(&str, PngSize) -> Result<Png, PngError>,
) -> Result<Png, PngError> {
    let guard = match PICTURES.get_value_or_guard_async(&key_of(&svg, size)).await {
        Ok(png) => return Ok(Png::clone(&png)),
        Err(guard) => guard,
    };
    let png = Arc::new(DRAWING.run_async(move || draw(&svg, size)).await??);
    let _ = guard.insert(Arc::clone(&png));
    Ok(Png::clone(&png))
}

/// The key of the picture of `svg` at `size`.
fn key_of(svg: &str, size: PngSize) -> Key {
    (
        Sha256::digest(svg).into(),
        size.scale.to_bits(),
        size.max_pixels,
    )
}
