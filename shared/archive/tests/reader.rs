//! The reader on PGN as other tools write it, and on broken input: every error names the
//! game, line, column and reason; a bad game never stops or corrupts the others.

use std::io::Read;

use missive_archive::{Entry, ImportError, Imported, Reader, Reason, Registry, read};
use missive_rules::{MoveError, SeatResult};

fn games(text: &str) -> Vec<Result<Imported, ImportError>> {
    read(text.as_bytes()).collect()
}

fn only(text: &str) -> Imported {
    let mut all = games(text);
    assert_eq!(all.len(), 1, "{all:?}");
    all.pop().expect("one").unwrap_or_else(|e| panic!("{e}"))
}

fn moves(game: &Imported) -> Vec<&str> {
    game.record.moves().map(|m| m.text.as_str()).collect()
}

const LICHESS: &str = r#"[Event "Rated Blitz game"]
[Site "https://lichess.org/abcd1234"]
[Date "2024.01.05"]
[Round "-"]
[White "alpha"]
[Black "beta"]
[Result "1-0"]
[UTCDate "2024.01.05"]
[WhiteElo "1500"]
[BlackElo "1490"]
[Variant "Standard"]
[TimeControl "180+2"]
[ECO "C20"]
[Termination "Normal"]

1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Qh5?! { [%clk 0:02:58] } 2... Nc6 $6 { [%clk 0:02:57] } 3. Bc4 { [%clk 0:02:55] } 3... Nf6?? { [%clk 0:02:50] } 4. Qxf7# { [%clk 0:02:49] } 1-0
"#;

#[test]
fn reads_lichess_exports() {
    let game = only(LICHESS);
    assert_eq!(
        moves(&game),
        ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
    );
    let result = game.record.result.as_ref().expect("a result");
    assert_eq!(result.rule, "checkmate");
    assert_eq!(result.results, [SeatResult::Win, SeatResult::Loss]);
    assert_eq!(game.record.players, ["alpha", "beta"]);
    assert_eq!(game.record.tag("ECO"), Some("C20"));
    assert_eq!(game.record.tag("Termination"), None);
    assert_eq!(game.record.variant, "chess");
}

const CHESS_COM: &str = "[Event \"Live Chess\"]\r\n[Site \"Chess.com\"]\r\n[Date \"2024.02.03\"]\r\n\
[Round \"-\"]\r\n[White \"gamma\"]\r\n[Black \"delta\"]\r\n[Result \"0-1\"]\r\n\
[Link \"https://www.chess.com/game/live/1\"]\r\n[Termination \"delta won by resignation\"]\r\n\r\n\
1. d4 {[%clk 0:09:59.9]} 1... Nf6 {[%clk 0:09:58.1]} 2. c4 {[%clk 0:09:57]} 2... e6\r\n\
{[%clk 0:09:56]} 3. Nc3 {[%clk 0:09:50]} 3... Bb4 {[%clk 0:09:49]} 0-1\r\n\r\n";

#[test]
fn reads_chess_com_exports_with_crlf() {
    let game = only(CHESS_COM);
    assert_eq!(
        moves(&game),
        ["d2d4", "g8f6", "c2c4", "e7e6", "b1c3", "f8b4"]
    );
    let result = game.record.result.as_ref().expect("a result");
    assert_eq!(result.rule, "resignation");
    assert_eq!(result.results, [SeatResult::Loss, SeatResult::Win]);
}

const ICCF: &str = "\u{feff}% exported by a correspondence server\n\
[Event \"WS/M/123\"]\n[Site \"ICCF\"]\n[Date \"2007.11.01\"]\n[Round \"-\"]\n\
[White \"Epsilon, A.\"]\n[Black \"Zeta, B.\"]\n[Result \"1/2-1/2\"]\n[TimeControl \"10/50\"]\n\n\
1.e4 {[%ccsnt 2007.11.29,10:12]} c5 {[%ccsnt 2007.12.01,08:00]} ; the Sicilian\n\
2.Nf3 (2.d4 cxd4 3.c3 (3.Qxd4 Nc6) dxc3) 2...d6 $1 {A quiet line [%ccsnt 2007.12.02,09:30:15]}\n\
% an escape line in the middle\n\
3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 6.Be2 e5 7.Nb3 Be7 8.O-O 0-0 1/2-1/2\n";

#[test]
fn reads_iccf_exports_with_bom_escapes_variations_and_times() {
    let game = only(ICCF);
    assert_eq!(moves(&game).len(), 16);
    assert_eq!(moves(&game)[2], "g1f3");
    assert_eq!(moves(&game)[14], "e1g1");
    assert_eq!(moves(&game)[15], "e8g8");
    let times: Vec<String> = game
        .record
        .moves()
        .filter_map(|m| m.received.map(|t| t.to_rfc3339()))
        .collect();
    assert_eq!(
        times,
        [
            "2007-11-29T10:12:00+00:00",
            "2007-12-01T08:00:00+00:00",
            "2007-12-02T09:30:15+00:00"
        ]
    );
    assert_eq!(
        game.record.result.as_ref().expect("drawn").rule,
        "agreement"
    );
    assert_eq!(game.record.tag("TimeControl"), Some("10/50"));
}

#[test]
fn reads_long_notation_and_games_without_tags() {
    let game = only("1. e2e4 e7e5 2. g1f3 *");
    assert_eq!(moves(&game), ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(game.record.result, None);
    assert_eq!(game.record.players, ["?", "?"]);
}

#[test]
fn reads_a_start_position() {
    let text = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n";
    let game = only(text);
    assert_eq!(
        game.record.start.as_deref(),
        Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    );
    assert_eq!(moves(&game), ["e2e4", "e8d7"]);
}

#[test]
fn reads_the_names_python_chess_gives_standard_chess() {
    for name in [
        "Standard",
        "standard",
        "chess",
        "Chess",
        "Classical",
        "Normal",
        "From Position",
        "from position",
    ] {
        let game = only(&format!("[Variant \"{name}\"]\n\n1. e4 e5 *\n"));
        assert_eq!(game.record.variant, "chess", "{name}");
        assert_eq!(game.record.tag("Variant"), None, "{name}");
    }
    let lichess = "[Variant \"From Position\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\
                   [SetUp \"1\"]\n\n1. e4 *\n";
    let game = only(lichess);
    assert_eq!(
        game.record.start.as_deref(),
        Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    );
}

#[test]
fn a_full_move_number_of_zero_reads_as_one() {
    let text = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 3 0\"]\n[SetUp \"1\"]\n\n1. e4 *\n";
    assert_eq!(
        only(text).record.start.as_deref(),
        Some("4k3/8/8/8/8/8/4P3/4K3 w - - 3 1")
    );
}

#[test]
fn blank_lines_byte_order_marks_and_every_line_end_read_alike() {
    let tags = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n";
    let game = |end: &str, gap: usize| {
        let text = format!(
            "\u{feff}{tags}{}1. e4 e5 ; a note\n2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
             \u{feff}{tags}\n1. e4 e5 2. Ke2 Ke3 1-0\n",
            "\n".repeat(gap)
        );
        games(&text.replace('\n', end))
    };
    for end in ["\n", "\r\n", "\r"] {
        for gap in [1, 2, 3] {
            let read = game(end, gap);
            assert_eq!(read.len(), 2, "{end:?} {gap}");
            let first = read[0]
                .as_ref()
                .unwrap_or_else(|e| panic!("{end:?} {gap}: {e}"));
            assert_eq!(moves(first).len(), 7);
            assert_eq!(first.record.players, ["a", "b"]);
            let error = read[1].as_ref().expect_err("Ke3 is illegal");
            // Three tag lines, `gap` blank lines, two of moves, a blank line, three tags, a
            // blank line: the second game's moves.
            let line = 3 + gap + 2 + 1 + 3 + 1 + 1;
            assert_eq!(
                (error.game, error.line, error.column),
                (2, line, 17),
                "{end:?} {gap}: {error}"
            );
        }
    }
}

#[test]
fn text_that_is_not_utf8_is_read_as_windows_1252_with_a_warning() {
    let text = b"[White \"Ju\xe1rez\"]\n[Black \"b\"]\n\n1. e4 {\x93good\x94} e5 *\n\n\
                 [White \"c\"]\n\n1. d4 *\n\n[White \"M\xfcller\"]\n\n1. c4 *\n";
    let mut reader = read(&text[..]);
    let first = reader.next().expect("a game").expect("imports");
    assert_eq!(first.record.players, ["Juárez", "b"]);
    let rest: Vec<_> = reader.by_ref().collect();
    assert_eq!(rest.len(), 2);
    let warning = reader.warning().expect("a warning");
    assert_eq!(
        warning.to_string(),
        "game 1, line 1, column 1: the text is not UTF-8; read as Windows-1252 (2 games)"
    );
    let utf8 = "[White \"Juárez\"]\n\n1. e4 *\n";
    let mut reader = read(utf8.as_bytes());
    assert!(reader.next().expect("a game").is_ok());
    assert_eq!(reader.warning(), None);
}

#[test]
fn utf16_text_is_refused() {
    let text = "\u{feff}[White \"a\"]\n\n1. e4 e5 1-0\n";
    let utf16: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let read: Vec<_> = read(&utf16[..]).collect();
    assert!(
        !read.is_empty() && read.iter().all(Result::is_err),
        "{read:?}"
    );
}

#[test]
fn reads_events() {
    let text = "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n\
                1. e4 {[%ccsnt 2026.11.29,10:12:05]} {[%draw-offer white 2026.11.29,10:13:00]} \
                1... e5 {[%draw-decline black]} {[%vacation white 7 2026.12.01,00:00:00]} \
                {[%claim black fifty-moves]} {[%resign WHITE 2026.12.09,08:00:00]} 0-1\n";
    let game = only(text);
    let names: Vec<&str> = game
        .record
        .entries
        .iter()
        .map(|e| match e {
            Entry::Move(_) => "move",
            Entry::Event(event) => event.kind.name(),
            Entry::Message(_) => "message",
            Entry::Organiser(organiser) => organiser.act.name(),
        })
        .collect();
    assert_eq!(
        names,
        [
            "move",
            "draw-offer",
            "move",
            "draw-decline",
            "vacation",
            "claim",
            "resign"
        ]
    );
}

#[test]
fn reads_the_events_of_the_server_and_conditional_replies() {
    let text = "[Result \"1-0\"]\n[Termination \"resignation\"]\n\n\
                {[%draw-offer black 2026.11.29,09:00:00]} {[%draw-withdraw black 2026.11.29,09:10:00]} \
                1. e4 {[%ccsnt 2026.11.29,10:12:05]} 1... e5 {[%ccsnt 2026.11.29,10:12:05] [%conditional]} \
                {[%claim-refused white threefold-repetition 2026.11.30,08:00:00]} \
                {[%vacation white 3 2026.12.10,00:00:00]} {[%claim-refused black timeout 2026.12.01,00:00:00]} \
                {[%resign black 2026.12.02,00:00:00]} 1-0\n";
    let game = only(text);
    let kinds: Vec<String> = game
        .record
        .entries
        .iter()
        .map(|e| match e {
            Entry::Move(mv) if mv.conditional => format!("{} conditional", mv.text),
            Entry::Move(mv) => mv.text.clone(),
            Entry::Event(event) => event.kind.name().to_string(),
            Entry::Message(_) => "message".to_string(),
            Entry::Organiser(organiser) => organiser.act.name().to_string(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "draw-offer",
            "draw-withdraw",
            "e2e4",
            "e7e5 conditional",
            "claim-refused",
            "vacation",
            "claim-refused",
            "resign"
        ],
        "a vacation's time is when it starts, which may lie ahead"
    );
}

/// The first error of each game of `text`, as (game, line, column, reason text).
fn errors(text: &str) -> Vec<Option<(usize, usize, usize, String)>> {
    games(text)
        .into_iter()
        .map(|g| {
            g.err()
                .map(|e| (e.game, e.line, e.column, e.reason.to_string()))
        })
        .collect()
}

/// Game, line, column and a part of the reason.
type Expected = (usize, usize, usize, &'static str);

#[test]
fn each_error_names_game_line_column_and_reason() {
    let cases: &[(&str, Expected)] = &[
        (
            "1. e4 e5 2. Ke3 *",
            (1, 1, 13, "move 3: illegal move `Ke3`"),
        ),
        (
            "[White \"a\"]\n[Black \"b\n\n1. e4 *",
            (1, 2, 1, "unterminated tag value"),
        ),
        (
            "[White a]\n\n1. e4 *",
            (1, 1, 1, "expected `\"` before the tag value"),
        ),
        ("1. e4 { never closed", (1, 1, 7, "unterminated comment")),
        (
            "[Result \"1-0\"]\n\n1. e4 0-1",
            (1, 3, 7, "result: the Result tag says `1-0`"),
        ),
        (
            "1. e4 {[%ccsnt 2026.13.01,00:00:00]} *",
            (1, 1, 7, "is not a date and time"),
        ),
        (
            "1. e4 {[%resign red]} *",
            (1, 1, 7, "event: no seat `red` in chess"),
        ),
        (
            "1. e4 {[%vacation white]} *",
            (1, 1, 7, "`vacation` needs the number of days"),
        ),
        (
            "1. e4 {[%ccsnt 2026.11.29,10:12:05]} e5 {[%ccsnt 2026.11.29,10:12:04]} *",
            (
                1,
                1,
                38,
                "times out of order: 2026.11.29,10:12:04 comes after",
            ),
        ),
        (
            "1. e4 {[%ccsnt 2026.11.29,10:12:05]} {[%resign black 2026.11.28,00:00:00]} 1-0",
            (1, 1, 38, "times out of order"),
        ),
        (
            "{[%conditional]} 1. e4 *",
            (
                1,
                1,
                1,
                "in `[%conditional]`: it must follow the move it marks",
            ),
        ),
        (
            "1. e4 {[%eliminated black white]} *",
            (1, 1, 7, "event: black is still in the game here"),
        ),
        ("1. e4 ) e5 *", (1, 1, 7, "`)` without a variation to end")),
        (
            "[Variant \"Crazyhouse\"]\n\n1. e4 *",
            (1, 1, 1, "unknown variant `Crazyhouse`"),
        ),
        (
            "[FEN \"8/8/8 w - - 0 1\"]\n\n*",
            (1, 1, 1, "invalid position"),
        ),
        (
            "[Variant \"Illegal\"]\n\n1. e4 *",
            (1, 1, 1, "unknown variant `Illegal`"),
        ),
        (
            "[Variant \"wild/0\"]\n\n1. e4 *",
            (1, 1, 1, "unknown variant `wild/0`"),
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 -1\"]\n\n*",
            (1, 1, 1, "fullmove number"),
        ),
        (
            "[White \"a\"]\r\n\r\n1. e4 e5\r\n2. Ke3 *",
            (1, 4, 4, "move 3: illegal move `Ke3`"),
        ),
        (
            "[White \"a\"]\r\r1. e4 Z0 *",
            (1, 3, 7, "cannot read move `Z0`"),
        ),
        ("1. e4 -- *", (1, 1, 7, "cannot read move `--`")),
        ("1. d4 Nf6 2. Sf3 *", (1, 1, 14, "cannot read move `Sf3`")),
        (
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1",
            (1, 1, 41, "the moves end the game by checkmate (1-0)"),
        ),
        (
            "1. f3 e5 2. g4 Qh4# 3. a3 *",
            (1, 1, 24, "move 5: the game is over"),
        ),
        (
            "[Result \"1-0\"]\n[Termination \"stalemate\"]\n\n1. e4 1-0",
            (1, 4, 7, "does not end the game by stalemate"),
        ),
    ];
    for (text, (game, line, column, reason)) in cases {
        let found = errors(text);
        let Some(Some((g, l, c, r))) = found.first() else {
            panic!("{text:?} should fail: {found:?}");
        };
        assert_eq!((*g, *l, *c), (*game, *line, *column), "{text:?}: {r}");
        assert!(r.contains(reason), "{text:?}: {r}");
    }
}

#[test]
fn a_bad_game_spares_the_games_around_it() {
    let good = "[Event \"good\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n";
    let bad_move = "[Event \"bad\"]\n[Result \"*\"]\n\n1. e4 e5 2. Bb5 (2. Nf3) Bb4 3. Ke3 *\n\n";
    let bad_tag = "[Event \"broken\n[Result \"*\"]\n\n1. d4 d5 *\n\n";
    let no_marker = "[Event \"unfinished\"]\n\n1. c4 c5\n\n";
    let text = format!("{good}{bad_move}{good}{bad_tag}{no_marker}{good}");
    let found = games(&text);
    let outcome: Vec<bool> = found.iter().map(Result::is_ok).collect();
    assert_eq!(outcome, [true, false, true, false, true, true]);
    let Err(error) = &found[1] else {
        unreachable!()
    };
    assert_eq!((error.game, error.line, error.column), (2, 11, 33));
    assert!(matches!(
        error.reason,
        Reason::Move {
            ply: 5,
            error: MoveError::Illegal { .. }
        }
    ));
    let numbers: Vec<usize> = found
        .iter()
        .map(|g| match g {
            Ok(game) => game.number,
            Err(error) => error.game,
        })
        .collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    for game in found.iter().flatten() {
        assert!(game.record.moves().count() == 2);
    }
    let input = || std::io::Cursor::new(text.clone().into_bytes());
    let threaded: [(&str, Vec<_>); 2] = [
        ("pipelined", Reader::pipelined(input(), &Registry).collect()),
        ("parallel", Reader::parallel(input(), &Registry).collect()),
    ];
    for (name, games) in threaded {
        assert_eq!(
            format!("{games:?}"),
            format!("{found:?}"),
            "the {name} reader gives the same games and errors in the same order"
        );
    }
}

#[test]
fn oversized_comments_are_refused_without_keeping_them() {
    let text = format!("1. e4 {{{}}} e5 *\n\n1. d4 *\n", "x".repeat(10 << 20));
    let outcome: Vec<String> = games(&text)
        .into_iter()
        .map(|g| {
            g.map(|_| "ok".to_string())
                .unwrap_or_else(|e| e.to_string())
        })
        .collect();
    assert_eq!(outcome.len(), 2);
    assert!(outcome[0].contains("comment longer than"), "{}", outcome[0]);
    assert_eq!(outcome[1], "ok");
}

#[test]
fn variations_nested_a_million_deep_are_counted_not_recursed_into() {
    let depth = 1_000_000;
    let text = format!(
        "1. e4 {}e5{} e5 *\n",
        "(1. d4 ".repeat(depth),
        ")".repeat(depth)
    );
    let game = only(&text);
    assert_eq!(moves(&game), ["e2e4", "e7e5"]);
    let unclosed = format!("1. e4 {} *\n\n1. d4 *\n", "(".repeat(depth));
    let outcome = games(&unclosed);
    assert_eq!(
        outcome.len(),
        1,
        "an unclosed variation runs to the end of the text"
    );
}

/// An endless supply of the same game, never held in memory as a whole.
struct Repeat {
    game: &'static [u8],
    left: usize,
    at: usize,
}

impl Read for Repeat {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Ok(0);
        }
        let n = buffer.len().min(self.game.len() - self.at);
        buffer[..n].copy_from_slice(&self.game[self.at..self.at + n]);
        self.at += n;
        if self.at == self.game.len() {
            self.at = 0;
            self.left -= 1;
        }
        Ok(n)
    }
}

#[test]
fn streams_any_number_of_games() {
    let input = Repeat {
        game: LICHESS.as_bytes(),
        left: 3_000,
        at: 0,
    };
    let mut count = 0;
    for game in read(std::io::BufReader::new(input)) {
        assert_eq!(game.expect("imports").record.moves().count(), 7);
        count += 1;
    }
    assert_eq!(count, 3_000);
}

#[test]
fn a_read_error_ends_the_stream_with_an_error() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::other("disk gone"));
            }
            self.0 -= 1;
            let text = b"1. e4 e5 *\n";
            buffer[..text.len()].copy_from_slice(text);
            Ok(text.len())
        }
    }
    let found: Vec<_> = read(std::io::BufReader::new(Failing(2))).collect();
    assert_eq!(found.len(), 3);
    assert!(found[0].is_ok() && found[1].is_ok());
    let Err(error) = &found[2] else {
        panic!("{found:?}")
    };
    assert!(matches!(error.reason, Reason::Io(_)));
}
