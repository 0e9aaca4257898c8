//! The PNG of every variant's diagram, at the start and in the middle of a game: a PNG that
//! decodes, of a sane size, with every piece drawn from a glyph the embedded fonts hold,
//! from either seat's view.

use std::collections::BTreeSet;
use std::time::Instant;

use missive_board::{
    CJK_FONT, Glyphs, LATIN_FONT, MAX_SIDE, Options, Png, PngError, PngSize, render_png,
};
use missive_rules::{AnyGame, Diagram, Notation, Seat, registry};
use skrifa::MetadataProvider;

/// The size a mail asks for (see `missive_notify::compose`).
const MAIL: PngSize = PngSize {
    scale: 2.0,
    max_pixels: 560_000,
};
/// The most bytes a board picture for a mail may take.
const MAIL_BYTES: usize = 70_000;

fn started(id: &str) -> Box<dyn AnyGame> {
    registry::variant(id)
        .and_then(|v| v.new_game("", None))
        .expect("the variant starts")
}

/// The game after up to `plies` moves, each picked from the legal list by a fixed stride.
fn played(id: &str, plies: usize) -> Box<dyn AnyGame> {
    let mut game = started(id);
    for ply in 0..plies {
        let legal = game.legal_moves(Notation::Long);
        if legal.is_empty() || game.outcome().is_some() {
            break;
        }
        let pick = legal[(ply * 7 + 3) % legal.len()].clone();
        game.play(&pick).expect("a legal move");
    }
    game
}

/// The start and a middle-game position of every variant.
fn positions() -> Vec<(String, Diagram)> {
    registry::variants()
        .iter()
        .flat_map(|v| {
            [
                (format!("{} start", v.id()), started(v.id()).diagram()),
                (format!("{} middle", v.id()), played(v.id(), 24).diagram()),
            ]
        })
        .collect()
}

/// The image's pixels as RGB, with its width and height.
fn decode(png: &Png) -> (Vec<u8>, u32, u32) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(&png.data));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a buffer size")];
    let frame = reader.next_frame(&mut pixels).expect("the image data");
    assert_eq!(frame.color_type, png::ColorType::Rgb);
    pixels.truncate(frame.buffer_size());
    (pixels, frame.width, frame.height)
}

/// How many pixels differ between two images of one size.
fn differing(a: &[u8], b: &[u8]) -> usize {
    assert_eq!(a.len(), b.len());
    a.chunks_exact(3)
        .zip(b.chunks_exact(3))
        .filter(|(x, y)| x != y)
        .count()
}

fn png_of(diagram: &Diagram, options: &Options) -> Png {
    render_png(diagram, options, MAIL).unwrap_or_else(|e| panic!("{}: {e}", diagram.variant))
}

#[test]
fn every_position_renders_to_a_png_of_sane_size() {
    for (name, diagram) in positions() {
        let started = Instant::now();
        let png = png_of(&diagram, &Options::default());
        let took = started.elapsed();
        let (pixels, width, height) = decode(&png);
        assert_eq!((width, height), (png.width, png.height), "{name}");
        assert!((200..=MAX_SIDE).contains(&width), "{name}: {width} wide");
        assert!((200..=MAX_SIDE).contains(&height), "{name}: {height} high");
        assert!(u64::from(width) * u64::from(height) <= u64::from(MAIL.max_pixels));
        assert_eq!(pixels.len(), (width * height * 3) as usize);
        assert!(
            png.data.len() <= MAIL_BYTES,
            "{name}: {} bytes",
            png.data.len()
        );
        println!(
            "{name}: {width}x{height}, {} bytes, {took:?}",
            png.data.len()
        );
    }
}

#[test]
fn every_piece_leaves_its_mark() {
    for (name, diagram) in positions() {
        let empty = Diagram {
            pieces: Vec::new(),
            ..diagram.clone()
        };
        let (with_pieces, ..) = decode(&png_of(&diagram, &Options::default()));
        let (without, ..) = decode(&png_of(&empty, &Options::default()));
        // A piece is a glyph or a disc some thirty pixels across at the least.
        let least = 400 * diagram.pieces.len();
        let changed = differing(&with_pieces, &without);
        assert!(
            changed >= least,
            "{name}: {changed} pixels changed by {} pieces",
            diagram.pieces.len()
        );
    }
}

#[test]
fn the_picture_turns_with_the_seat() {
    for variant in registry::variants() {
        let diagram = started(variant.id()).diagram();
        let first = decode(&png_of(&diagram, &Options::default()));
        let second = Options {
            seat: Some(Seat(1)),
            ..Options::default()
        };
        let turned = decode(&png_of(&diagram, &second));
        assert_ne!(first.0, turned.0, "{}", variant.id());
    }
}

/// The characters of a font's character map.
fn covered(font: &[u8]) -> BTreeSet<char> {
    let font = skrifa::FontRef::new(font).expect("an embedded font");
    font.charmap()
        .mappings()
        .filter_map(|(code, _)| char::from_u32(code))
        .collect()
}

#[test]
fn the_embedded_fonts_hold_every_character_a_diagram_writes() {
    let fonts: BTreeSet<char> = covered(LATIN_FONT)
        .union(&covered(CJK_FONT))
        .copied()
        .collect();
    for (name, diagram) in positions() {
        let written: BTreeSet<char> = diagram
            .pieces
            .iter()
            .flat_map(|piece| piece.glyph.chars().chain([piece.letter]))
            .chain(diagram.labels.iter().flat_map(|label| label.text.chars()))
            .collect();
        let missing: String = written.difference(&fonts).collect();
        assert!(
            missing.is_empty(),
            "{name}: no embedded glyph for {missing:?}"
        );
    }
}

#[test]
fn letters_draw_differently_from_glyphs() {
    let diagram = started("xiangqi").diagram();
    let letters = Options {
        glyphs: Glyphs::Letters,
        ..Options::default()
    };
    let symbols = decode(&png_of(&diagram, &Options::default()));
    let written = decode(&png_of(&diagram, &letters));
    assert!(differing(&symbols.0, &written.0) > 1000);
}

#[test]
fn an_unusable_size_is_an_error() {
    let diagram = started("chess").diagram();
    for size in [
        PngSize {
            scale: 0.0,
            max_pixels: MAIL.max_pixels,
        },
        PngSize {
            scale: f32::NAN,
            max_pixels: MAIL.max_pixels,
        },
        PngSize {
            scale: 100.0,
            max_pixels: u32::MAX,
        },
    ] {
        let result = render_png(&diagram, &Options::default(), size);
        assert!(matches!(result, Err(PngError::Size { .. })), "{size:?}");
    }
}
