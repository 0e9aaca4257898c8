//! Drawing board pictures logs no warning: every character, the CJK ones of xiangqi and
//! Three Kingdoms included, is an outline, so usvg looks up no font (its fallback warning
//! was once repeated hundreds of times by a server drawing pictures for mails).

use std::sync::Mutex;

use log::{Level, LevelFilter, Log, Metadata, Record};
use missive_board::{Options, PngSize, render_png};
use missive_rules::registry;

/// The warnings logged while the test runs.
static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// A logger that keeps every warning.
struct Keeper;

impl Log for Keeper {
    fn enabled(&self, metadata: &Metadata) -> bool {
        metadata.level() <= Level::Warn
    }

    fn log(&self, record: &Record) {
        if self.enabled(record.metadata()) {
            let line = format!("{}: {}", record.target(), record.args());
            WARNINGS.lock().expect("the list").push(line);
        }
    }

    fn flush(&self) {}
}

#[test]
fn pictures_with_cjk_characters_log_no_warning() {
    log::set_logger(&Keeper).expect("the only logger");
    log::set_max_level(LevelFilter::Warn);
    for id in ["chess", "xiangqi", "sanguo"] {
        let game = registry::variant(id)
            .and_then(|v| v.new_game("", None))
            .expect("the variant starts");
        let size = PngSize {
            scale: 1.0,
            max_pixels: 200_000,
        };
        render_png(&game.diagram(), &Options::default(), size).expect("the picture");
    }
    assert_eq!(*WARNINGS.lock().expect("the list"), Vec::<String>::new());
}
