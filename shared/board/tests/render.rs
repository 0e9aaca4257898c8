//! The SVG of every variant's diagram: well-formed, every piece at its spot, the last move
//! marked, the board's structure, the view from another seat, and plain text for screen
//! readers.

use missive_board::{Glyphs, Options, render};
use missive_rules::{
    AnyGame, Diagram, DiagramPiece, DiagramSeat, Ink, LabelKind, PieceStyle, Seat, Spot, Xy,
    registry,
};
use roxmltree::{Document, Node};

/// Pixels per diagram unit in the document (the renderer's scale).
const SCALE: f64 = 40.0;

fn game(id: &str, moves: &[&str]) -> Box<dyn AnyGame> {
    let mut game = registry::variant(id)
        .and_then(|v| v.new_game("", None))
        .expect("the variant starts");
    for mv in moves {
        game.play(mv).expect("a legal move");
    }
    game
}

fn svg_of(diagram: &Diagram, options: &Options) -> String {
    let svg = render(diagram, options);
    Document::parse(&svg).unwrap_or_else(|e| panic!("{}: not XML: {e}", diagram.variant));
    svg
}

fn elements<'a>(doc: &'a Document, name: &str) -> Vec<Node<'a, 'a>> {
    doc.descendants().filter(|n| n.has_tag_name(name)).collect()
}

fn class<'a>(doc: &'a Document, class: &str) -> Vec<Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .collect()
}

/// The polygons drawn as the board's surface: not the spots' touch targets nor the last
/// move's marks.
fn surfaces(doc: &Document) -> usize {
    elements(doc, "polygon")
        .iter()
        .filter(|p| p.attribute("class").is_none())
        .count()
}

/// The spots the document marks as the last move's, in order.
fn marked_spots<'a>(doc: &'a Document) -> Vec<&'a str> {
    class(doc, "last-move")
        .iter()
        .filter_map(|n| n.attribute("data-spot"))
        .collect()
}

/// What a group writes (the characters its glyph run uses, a variation selector drawing
/// nothing) and the point the run is centred on.
fn writing(group: Node) -> (String, f64, f64) {
    let run = group
        .descendants()
        .find(|n| n.has_tag_name("g") && n.attribute("transform").is_some())
        .unwrap_or_else(|| panic!("a glyph run in {group:?}"));
    let text = run
        .children()
        .filter_map(|n| n.attribute("href"))
        .map(|href| {
            let code = href.strip_prefix("#glyph-").expect("a glyph's id");
            char::from_u32(u32::from_str_radix(code, 16).expect("hex")).expect("a character")
        })
        .collect();
    let transform = run.attribute("transform").unwrap();
    let inner = transform
        .strip_prefix("translate(")
        .and_then(|t| t.strip_suffix(')'))
        .expect("a translation");
    let (x, y) = inner.split_once(' ').expect("two numbers");
    (text, x.parse().unwrap(), y.parse().unwrap())
}

/// `text` without the variation selector that asks for a figurine's text form.
fn drawn_text(text: &str) -> String {
    text.chars().filter(|c| *c != '\u{FE0E}').collect()
}

#[test]
fn every_variant_renders_well_formed_with_a_title_and_a_view_box() {
    for variant in registry::variants() {
        let diagram = game(variant.id(), &[]).diagram();
        let svg = svg_of(&diagram, &Options::default());
        let doc = Document::parse(&svg).unwrap();
        let root = doc.root_element();
        assert!(root.has_tag_name("svg"));
        let view_box: Vec<f64> = root
            .attribute("viewBox")
            .expect("a viewBox")
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        assert!(view_box.len() == 4 && view_box[2] > 0.0 && view_box[3] > 0.0);
        let title = elements(&doc, "title")[0].text().unwrap_or("");
        assert!(title.starts_with(variant.id()), "{title}");
        assert_eq!(root.attribute("role"), Some("img"));
    }
}

#[test]
fn every_variant_writes_outlines_it_defines_and_no_text() {
    for variant in registry::variants() {
        let started = game(variant.id(), &[]);
        for glyphs in [Glyphs::Symbols, Glyphs::Letters] {
            let options = Options {
                glyphs,
                ..Options::default()
            };
            let svg = svg_of(&started.diagram(), &options);
            let doc = Document::parse(&svg).unwrap();
            assert!(elements(&doc, "text").is_empty(), "{}", variant.id());
            let defined: Vec<&str> = elements(&doc, "path")
                .iter()
                .filter_map(|p| p.attribute("id"))
                .collect();
            let uses = elements(&doc, "use");
            assert!(!uses.is_empty(), "{}", variant.id());
            for used in uses {
                let id = used.attribute("href").and_then(|h| h.strip_prefix('#'));
                assert!(
                    defined.contains(&id.unwrap_or("")),
                    "{}: {id:?}",
                    variant.id()
                );
            }
        }
    }
}

#[test]
fn every_spot_has_a_target_to_touch() {
    for variant in registry::variants() {
        let diagram = game(variant.id(), &[]).diagram();
        let svg = svg_of(&diagram, &Options::default());
        let doc = Document::parse(&svg).unwrap();
        let targets: Vec<&str> = class(&doc, "spot")
            .iter()
            .filter_map(|n| n.attribute("data-spot"))
            .collect();
        let spots: Vec<&str> = diagram.spots.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(targets, spots, "{}", variant.id());
    }
}

#[test]
fn every_piece_is_drawn_at_its_spot_with_its_glyph() {
    for variant in registry::variants() {
        let diagram = game(variant.id(), &[]).diagram();
        let svg = svg_of(&diagram, &Options::default());
        let doc = Document::parse(&svg).unwrap();
        let drawn = class(&doc, "piece");
        assert_eq!(drawn.len(), diagram.pieces.len(), "{}", variant.id());
        for piece in &diagram.pieces {
            let spot = diagram.spot(&piece.spot).expect("the piece's spot");
            let group = drawn
                .iter()
                .find(|g| g.attribute("data-spot") == Some(piece.spot.as_str()))
                .unwrap_or_else(|| panic!("{}: no piece on {}", variant.id(), piece.spot));
            let (text, x, y) = writing(*group);
            assert_eq!(text, drawn_text(&piece.glyph));
            assert!((x - spot.at.x * SCALE).abs() <= 0.05);
            assert!((y - spot.at.y * SCALE).abs() <= 0.05);
            let title = group.children().find(|n| n.has_tag_name("title")).unwrap();
            assert!(title.text().unwrap().contains(piece.name));
        }
    }
}

#[test]
fn the_last_move_is_marked_on_its_spots() {
    let cases: [(&str, &[&str], &[&str]); 7] = [
        ("chess", &["e4"], &["e2", "e4"]),
        (
            "chess",
            &["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"],
            &["e1", "g1", "h1", "f1"],
        ),
        (
            "chess",
            &["e4", "a6", "e5", "d5", "exd6"],
            &["e5", "d6", "d5"],
        ),
        ("dynamo", &["Pe2e4"], &["e2", "e4"]),
        ("xiangqi", &["h3e3", "h10g8"], &["h10", "g8"]),
        ("sanguo", &["shu:b3-wei:h1"], &["shu:b3", "wei:h1"]),
        ("trid-fs", &["b1(2)-c3(4)"], &["b1(2)", "c3(4)"]),
    ];
    for (id, moves, marked) in cases {
        let diagram = game(id, moves).diagram();
        assert_eq!(diagram.last_move, marked, "{id} {moves:?}");
        let svg = svg_of(&diagram, &Options::default());
        let doc = Document::parse(&svg).unwrap();
        assert_eq!(marked_spots(&doc), marked, "{id} {moves:?}");
        let steps: Vec<String> = marked.chunks(2).map(|pair| pair.join(" to ")).collect();
        let title = elements(&doc, "title")[0].text().unwrap();
        assert!(
            title.ends_with(&format!("last move {}", steps.join(", "))),
            "{title}"
        );
    }
    let start = svg_of(&game("chess", &[]).diagram(), &Options::default());
    assert!(!start.contains("last-move"));
}

#[test]
fn the_boards_have_their_cells_points_and_lines() {
    let chess = game("chess", &[]).diagram();
    let doc_text = svg_of(&chess, &Options::default());
    let doc = Document::parse(&doc_text).unwrap();
    assert_eq!(surfaces(&doc), 64);
    assert_eq!(chess.spots.len(), 64);
    assert!(chess.spots.iter().all(|s| s.cell.is_some()));

    let xiangqi = game("xiangqi", &[]).diagram();
    assert_eq!(xiangqi.spots.len(), 90);
    assert!(xiangqi.spots.iter().all(|s| s.cell.is_none()));
    let doc_text = svg_of(&xiangqi, &Options::default());
    let doc = Document::parse(&doc_text).unwrap();
    // Each half board: 4 ranks, 7 files, 2 palace diagonals, 3 border sides; the two edge
    // files across the river.
    assert_eq!(elements(&doc, "line").len(), 2 * (4 + 7 + 2 + 3) + 2);
    assert_eq!(surfaces(&doc), 2, "the board and the river");

    let sanguo = game("sanguo", &[]).diagram();
    assert_eq!(sanguo.spots.len(), 135);
    let doc_text = svg_of(&sanguo, &Options::default());
    let doc = Document::parse(&doc_text).unwrap();
    // Three half boards, and five links across each arm of the river.
    assert_eq!(elements(&doc, "line").len(), 3 * (4 + 7 + 2 + 3) + 3 * 5);
    assert_eq!(surfaces(&doc), 4, "three half boards and the river");
}

/// A Tri-D position where White's queen-side attack board carries a single pawn, so that
/// it may move.
const TRI_D_LIGHT_BOARD: &str = "QL1@W-S-up:w,KL1@W-S-up:w,QL3@B-N-up:b,KL3@B-N-up:b \
    Kc1(2),Pb2(2)*,Pa1(3)*,Rf0(3)*,kd8(6),pc7(6)*,ra9(7)* w - 0 1";

fn region_labels(diagram: &Diagram) -> Vec<&str> {
    let mut names: Vec<&str> = diagram
        .labels
        .iter()
        .filter(|l| l.kind == LabelKind::Region && l.view == Some(Seat(0)))
        .map(|l| l.text.as_str())
        .collect();
    names.sort_unstable();
    names
}

#[test]
fn tri_d_draws_three_main_boards_and_each_attack_board_at_its_pin() {
    let start = game("trid-fs", &[]).diagram();
    // Three main boards of 4x4 squares, four attack boards of 2x2.
    assert_eq!(start.cells.len(), 3 * 16 + 4 * 4);
    assert_eq!(start.spots.len(), 3 * 16 + 4 * 4);
    assert!(start.spots.iter().all(|s| s.cell.is_some()));
    for name in [
        "b1(2)", "e4(2)", "b3(4)", "e6(4)", "b5(6)", "e8(6)", "a0(3)", "f9(7)",
    ] {
        assert!(start.spot(name).is_some(), "{name}");
    }
    // A cell seen from above has a square on each board over it: two spots apart.
    let (low, high) = (start.spot("c3(2)").unwrap(), start.spot("c3(4)").unwrap());
    assert!(high.at.y < low.at.y, "N is drawn above W");
    assert_eq!(
        region_labels(&start),
        [
            "B",
            "KL1 @ W-S-up",
            "KL3 @ B-N-up",
            "N",
            "QL1 @ W-S-up",
            "QL3 @ B-N-up",
            "W"
        ]
    );
    let doc_text = svg_of(&start, &Options::default());
    let doc = Document::parse(&doc_text).unwrap();
    assert_eq!(surfaces(&doc), 64);
    assert_eq!(class(&doc, "piece").len(), 32);

    let mut moved = registry::variant("trid-fs")
        .and_then(|v| v.new_game("", Some(TRI_D_LIGHT_BOARD)))
        .expect("the position");
    moved.play("QL1@N-S-up").expect("a legal board move");
    let diagram = moved.diagram();
    assert!(diagram.spot("a1(3)").is_none() && diagram.spot("a3(5)").is_some());
    assert!(region_labels(&diagram).contains(&"QL1 @ N-S-up"));
    // Each square the board left, then where it lands: the rider's first.
    assert_eq!(
        diagram.last_move,
        [
            "a1(3)", "a3(5)", "a0(3)", "a2(5)", "b0(3)", "b2(5)", "b1(3)", "b3(5)"
        ]
    );
    let svg = svg_of(&diagram, &Options::default());
    let doc = Document::parse(&svg).unwrap();
    assert_eq!(marked_spots(&doc), ["a3(5)", "a2(5)", "b2(5)", "b3(5)"]);
    let title = elements(&doc, "title")[0].text().unwrap();
    assert!(
        title.contains("last move a1(3) to a3(5), a0(3) to a2(5)"),
        "{title}"
    );
}

/// The place of spot `name`'s piece in the rendered document.
fn drawn_at(svg: &str, name: &str) -> (f64, f64) {
    let doc = Document::parse(svg).unwrap();
    let group = class(&doc, "piece")
        .into_iter()
        .find(|g| g.attribute("data-spot") == Some(name))
        .unwrap_or_else(|| panic!("no piece on {name}"));
    let (_, x, y) = writing(group);
    (x, y)
}

#[test]
fn a_seat_sees_its_own_pieces_at_the_bottom() {
    let cases = [
        ("chess", "white", "e1", "e8"),
        ("chess", "black", "e8", "e1"),
        ("xiangqi", "black", "e10", "e1"),
        ("sanguo", "wu", "wu:e1", "shu:e1"),
        ("sanguo", "wei", "wei:e1", "wu:e1"),
        ("trid-fs", "white", "e0(3)", "e9(7)"),
        ("trid-fs", "black", "e9(7)", "e0(3)"),
    ];
    for (id, seat, own, other) in cases {
        let diagram = game(id, &[]).diagram();
        let options = Options {
            seat: diagram.seat_named(seat),
            ..Options::default()
        };
        let svg = svg_of(&diagram, &options);
        let (own_x, own_y) = drawn_at(&svg, own);
        let (_, other_y) = drawn_at(&svg, other);
        assert!(own_y > other_y, "{id} from {seat}: {own} above {other}");
        let lowest = diagram
            .pieces
            .iter()
            .map(|p| drawn_at(&svg, &p.spot).1)
            .fold(f64::MIN, f64::max);
        assert!((own_y - lowest).abs() < 0.05, "{id} from {seat}");
        if id == "sanguo" {
            // The general stands in the middle of its back rank: straight below the centre.
            let (shu_x, _) = drawn_at(&svg_of(&diagram, &Options::default()), "shu:e1");
            assert!((own_x - shu_x).abs() < 0.05, "{id} from {seat}");
        }
    }
}

#[test]
fn letters_replace_glyphs_and_custom_titles_are_escaped() {
    let diagram = game("xiangqi", &[]).diagram();
    let options = Options {
        seat: None,
        glyphs: Glyphs::Letters,
        title: Some("Red & Black <game 1>".to_string()),
    };
    let svg = svg_of(&diagram, &options);
    let doc = Document::parse(&svg).unwrap();
    assert_eq!(
        elements(&doc, "title")[0].text(),
        Some("Red & Black <game 1>")
    );
    let glyph = |spot: &str| {
        let group = class(&doc, "piece")
            .into_iter()
            .find(|g| g.attribute("data-spot") == Some(spot))
            .unwrap();
        writing(group).0
    };
    assert_eq!(glyph("a1"), "R");
    assert_eq!(glyph("e10"), "K");
    let desc = elements(&doc, "desc")[0].text().unwrap();
    assert!(desc.starts_with("red: chariot on a1"), "{desc}");
}

/// A diagram made by hand: two points, a piece of the second seat's army moved by the
/// first, and a label with markup characters.
fn handmade() -> Diagram {
    let seats = [("north", Ink::Green, 0.0), ("south", Ink::Blue, 180.0)]
        .map(|(name, ink, view)| DiagramSeat { name, ink, view })
        .to_vec();
    let mut diagram = Diagram::new("handmade", seats, PieceStyle::Disc);
    for (name, x) in [("p<1>", 0.0), ("p&2", 1.0)] {
        diagram.spots.push(Spot {
            name: name.to_string(),
            at: Xy::new(x, 0.0),
            cell: None,
        });
    }
    diagram.pieces.push(DiagramPiece {
        spot: "p&2".to_string(),
        seat: Seat(0),
        origin: Seat(1),
        glyph: "\"".to_string(),
        letter: 'Q',
        name: "quote",
    });
    diagram.to_move = Some(Seat(1));
    diagram
}

#[test]
fn any_diagram_renders_markup_safely_and_marks_a_transferred_army() {
    let diagram = handmade();
    let svg = svg_of(&diagram, &Options::default());
    let doc = Document::parse(&svg).unwrap();
    let piece = class(&doc, "piece")[0];
    assert_eq!(piece.attribute("data-spot"), Some("p&2"));
    let circles: Vec<Node> = piece
        .children()
        .filter(|n| n.has_tag_name("circle"))
        .collect();
    assert_eq!(
        circles.len(),
        2,
        "a rim in the mover's ink, a ring in the army's"
    );
    assert_ne!(
        circles[0].attribute("stroke"),
        circles[1].attribute("stroke")
    );
    let title = piece.children().find(|n| n.has_tag_name("title")).unwrap();
    assert_eq!(title.text(), Some("north quote (south's army) on p&2"));
    let heading = elements(&doc, "title")[0].text().unwrap();
    assert_eq!(heading, "handmade board, south to move");
}

#[test]
fn a_finished_game_has_nobody_to_move() {
    let diagram = game("chess", &["f3", "e5", "g4", "Qh4#"]).diagram();
    assert_eq!(diagram.to_move, None);
    let svg = svg_of(&diagram, &Options::default());
    assert!(svg.contains("game over, last move d8 to h4"));
}
